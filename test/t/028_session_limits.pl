# The limits bench_commit's sessions and bench_tpcb's clients meet, as
# pgbench's clients would: each counts against the CONNECTION LIMIT of the
# role that logged in and of the database (53300, PostgreSQL's own code),
# superusers exempt; and a role that is not a superuser may run at most
# benchstore.max_user_sessions of them at once, over all its runs, for at
# most benchstore.max_user_run_time (53400).  Both settings are
# superuser-only, also before the module is loaded in a session.  Where
# the worker slots are short, the run says how many could start (53000).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

# autovacuum off: on 16 and 17 its workers count against a database's
# connection limit, at times no test can choose
my $node = bs_node('limits', 'max_worker_processes = 16', 'max_parallel_workers = 4',
	'autovacuum = off');
$node->safe_psql('postgres', q{
	CREATE ROLE lim LOGIN CONNECTION LIMIT 2;
	CREATE ROLE plain LOGIN;
	CREATE ROLE boss LOGIN SUPERUSER CONNECTION LIMIT 1;
	GRANT CREATE ON SCHEMA public TO lim, plain;
	CREATE DATABASE small CONNECTION LIMIT 3;
	SET client_min_messages = warning;
	SELECT branches FROM bench_generate_tpcb(scale => 1);
	GRANT SELECT, UPDATE ON pgbench_accounts, pgbench_tellers, pgbench_branches TO lim, plain;
	GRANT INSERT ON pgbench_history TO lim, plain;});
$node->safe_psql('small', q{
	CREATE EXTENSION benchstore;
	GRANT CREATE ON SCHEMA public TO plain;});

my $sessions_sql = q{SELECT count(*) FROM pg_stat_activity
	WHERE backend_type IN ('bench_commit session', 'bench_tpcb client')};

sub as
{
	my ($role, $sql, $db) = @_;
	my ($ret, $out, $err) = $node->psql($db // 'postgres', "\\set VERBOSITY verbose\n$sql",
		extra_params => [ '-U', $role ]);
	return ($ret, $out, $err);
}

# The role's connection limit: its own connection and its sessions.
{
	my ($ret, $out, $err) = as('lim', q{SELECT count(*) FROM bench_commit(sessions => 2, duration => '100ms', record => false)});
	like($err, qr/ERROR:  53300: too many connections for role "lim"\nDETAIL:  Each of the 2 bench_commit sessions counts as a connection of the role, as a pgbench client would: with the 1 it has open, 3 against its connection limit of 2\./,
		'sessions over the role\'s connection limit: 53300, with the count');
	($ret, $out, $err) = as('lim', q{SELECT count(*) FROM bench_tpcb(clients => 2, duration => '100ms', record => false)});
	like($err, qr/ERROR:  53300: too many connections for role "lim"/, 'bench_tpcb\'s clients count too');
	($ret, $out, $err) = as('lim', q{SELECT commits > 0 FROM bench_commit(sessions => 1, duration => '100ms', record => false)});
	is($out, 't', 'within the limit, the run goes on');
	is($node->safe_psql('postgres', $sessions_sql), 0, 'no session was left');
}

# The database's connection limit.
{
	my ($ret, $out, $err) = as('plain', q{SELECT count(*) FROM bench_commit(sessions => 3, duration => '100ms', record => false)}, 'small');
	like($err, qr/ERROR:  53300: too many connections for database "small"/,
		'sessions over the database\'s connection limit: 53300');
	($ret, $out, $err) = as('plain', q{SELECT commits > 0 FROM bench_commit(sessions => 2, duration => '100ms', record => false)}, 'small');
	is($out, 't', 'within the database\'s limit, the run goes on');
}

# Superusers are exempt, as PostgreSQL exempts them.
{
	my ($ret, $out, $err) = as('boss', q{SELECT commits > 0 FROM bench_commit(sessions => 6, duration => '100ms', record => false)});
	is($out, 't', 'a superuser with a connection limit of 1 runs 6 sessions, over benchstore.max_user_sessions too') or diag($err);
}

# benchstore's own cap, for roles that are not superusers.
{
	is($node->safe_psql('postgres', "LOAD 'benchstore';\nSHOW benchstore.max_user_sessions"), '4', 'max_user_sessions defaults to 4');
	is($node->safe_psql('postgres', "LOAD 'benchstore';\nSHOW benchstore.max_user_run_time"), '10min', 'max_user_run_time defaults to 10 min');
	my ($ret, $out, $err) = as('plain', q{SELECT count(*) FROM bench_commit(sessions => 5, duration => '100ms', record => false)});
	like($err, qr/ERROR:  53400: 5 sessions are more than benchstore.max_user_sessions \(4\) allows\n.*HINT:  Ask for at most 4 sessions, or have a superuser raise benchstore.max_user_sessions\./s,
		'more sessions than max_user_sessions: 53400 with a hint');
	($ret, $out, $err) = as('plain', q{SELECT count(*) FROM bench_tpcb(duration => '100ms', record => false)});
	like($err, qr/ERROR:  53400: 8 clients are more than benchstore.max_user_sessions \(4\) allows/,
		'bench_tpcb\'s 8 clients by default, by a plain role: 53400');
	($ret, $out, $err) = as('plain', q{SELECT count(*) FROM bench_commit(duration => '11min', record => false)});
	like($err, qr/ERROR:  53400: a run of 11 min is longer than benchstore.max_user_run_time \(10 min\)/,
		'a run longer than max_user_run_time: 53400');
	($ret, $out, $err) = as('plain', q{SELECT count(*) FROM bench_tpcb(clients => 1, ramp => '6min', duration => '5min', record => false)});
	like($err, qr/ERROR:  53400: a run of 11 min is longer than benchstore.max_user_run_time/,
		'the ramp counts in the run time');
	# SET ROLE to a plain role: the cap is the current role's
	($ret, $out, $err) = as('boss', q{SET ROLE plain; SELECT count(*) FROM bench_commit(sessions => 5, duration => '100ms', record => false)});
	like($err, qr/ERROR:  53400: 5 sessions are more than benchstore.max_user_sessions/,
		'a superuser who SET ROLE to a plain role is capped as that role');
}

# The cap counts the role's sessions over all its runs.
{
	my $bg = $node->background_psql('postgres', on_error_stop => 0, extra_params => [ '-U', 'plain' ]);
	$bg->query_until(qr//, "SELECT count(*) FROM bench_commit(sessions => 3, duration => '5min', record => false);\n");
	ok($node->poll_query_until('postgres', "SELECT ($sessions_sql) = 3"), 'a run of 3 sessions is on');
	my ($ret, $out, $err) = as('plain', q{SELECT count(*) FROM bench_commit(sessions => 2, duration => '100ms', record => false)});
	like($err, qr/ERROR:  53400: 2 sessions are more than benchstore.max_user_sessions \(4\) allows\nDETAIL:  The role already runs 3 benchstore sessions/,
		'a second run past the cap, counted with the first: 53400');
	($ret, $out, $err) = as('plain', q{SELECT commits > 0 FROM bench_commit(sessions => 1, duration => '100ms', record => false)});
	is($out, 't', 'a second run within the cap goes on');
	$node->safe_psql('postgres', q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity
		WHERE usename = 'plain' AND backend_type = 'client backend' AND query LIKE 'SELECT count(*) FROM bench_commit%'});
	ok($node->poll_query_until('postgres', "SELECT ($sessions_sql) = 0"), 'the first run ended');
	eval { $bg->quit; };
}

# Only a superuser may change them: SET, ALTER ROLE, and a SET made before
# the module is loaded in the session.
{
	my ($ret, $out, $err) = as('plain', q{SELECT count(*) FROM bench_commit(sessions => 1, duration => '100ms', record => false); SET benchstore.max_user_sessions = 64});
	like($err, qr/ERROR:  42501: permission denied to set parameter "benchstore.max_user_sessions"/,
		'a plain role may not SET max_user_sessions');
	($ret, $out, $err) = as('plain', q{SET benchstore.max_user_run_time = '1h'; SELECT count(*) FROM bench_commit(sessions => 5, duration => '100ms', record => false)});
	like($err, qr/ERROR:  53400: 5 sessions are more than benchstore.max_user_sessions \(4\) allows/,
		'a value a plain role SET before the module loaded is not taken');
	($ret, $out, $err) = as('plain', q{ALTER ROLE plain SET benchstore.max_user_sessions = 64});
	like($err, qr/ERROR:  42501: permission denied to set parameter "benchstore.max_user_sessions"/,
		'a plain role may not ALTER ROLE ... SET it');
	$node->safe_psql('postgres', q{ALTER ROLE plain SET benchstore.max_user_sessions = 5});
	($ret, $out, $err) = as('plain', q{SELECT commits > 0 FROM bench_commit(sessions => 5, duration => '100ms', record => false)});
	is($out, 't', 'a superuser raises it for the role') or diag($err);
	$node->safe_psql('postgres', q{ALTER ROLE plain RESET benchstore.max_user_sessions});
}

# Slots short: how many could start, before the run measures anything.
{
	$node->safe_psql('postgres', q{ALTER SYSTEM SET max_worker_processes = 3});
	$node->restart;
	my ($ret, $out, $err) = as('boss', q{SELECT count(*) FROM bench_commit(sessions => 4, duration => '100ms', record => false)});
	like($err, qr/ERROR:  53000: 4 sessions need 4 background workers, but max_worker_processes is 3/,
		'more sessions than max_worker_processes: 53000');
	is($node->safe_psql('postgres', $sessions_sql), 0, 'no session was left');
}

$node->stop;
done_testing();
