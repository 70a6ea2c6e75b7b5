# bench_commit's sessions are background workers: cancel, statement_timeout,
# the caller's termination and a session's termination stop every session
# within a second, with their tables gone; a session's error fails the run
# naming the session and its error; sessions beyond the free background
# worker slots get a clear error before anything is measured; a NOLOGIN
# role the caller SET ROLE to runs the sessions as itself.  bench_tpcb's
# clients are the same workers: cancel, statement_timeout, the caller's
# termination and a client's error stop them all, and the transactions in
# flight are rolled back (TPC-B's balances still add up to its history).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('commit', 'fsync = on', 'max_worker_processes = 6',
	'max_parallel_workers = 2');

my $sessions_sql = q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'bench_commit session'};
my $tables_sql = q{SELECT count(*) FROM pg_class WHERE relname LIKE '\_bench\_commit\_%'};

sub running_pid
{
	for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default; $i++)
	{
		my $pid = $node->safe_psql('postgres', q{
			SELECT pid FROM pg_stat_activity
			WHERE query LIKE 'SELECT count(*) FROM bench_commit%' AND state = 'active'
			  AND backend_type = 'client backend'});
		# all three sessions there and named (one is terminated by name)
		my $n = $node->safe_psql('postgres',
			"$sessions_sql AND application_name LIKE 'bench\\_commit session _'");
		return $pid if $pid ne '' && $n == 3;
		usleep(50_000);
	}
	die 'the run did not start';
}

sub all_gone
{
	my ($what, $t0) = @_;
	ok($node->poll_query_until('postgres', "SELECT ($sessions_sql) = 0 AND ($tables_sql) = 0"),
		"$what: no session and no run table is left");
	my $took = time - $t0;
	cmp_ok($took, '<', 5, "$what: the sessions ended within seconds ($took s)");
}

my $long = q{bench_commit(sessions => 3, duration => '1h', record => false)};

# statement_timeout
{
	my $t0 = time;
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		"SET statement_timeout = '1s'; SELECT count(*) FROM $long");
	like($stderr, qr/canceling statement due to statement timeout/, 'statement_timeout stops the run');
	all_gone('statement_timeout', $t0);
}

# cancel
{
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//, "SELECT count(*) FROM $long;\n");
	my $pid = running_pid();
	my $t0 = time;
	$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
	all_gone('cancel', $t0);
	$bg->query('SELECT 1');
	like($bg->{stderr}, qr/canceling statement due to user request/, 'cancel: the statement was canceled');
	$bg->quit;
}

# the caller terminated: its sessions notice within 100 ms and end
{
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//, "SELECT count(*) FROM $long;\n");
	my $pid = running_pid();
	my $t0 = time;
	$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
	all_gone('caller terminated', $t0);
	eval { $bg->quit; };
}

# a session terminated: the run fails, naming it, and the others end
{
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//, "SELECT count(*) FROM $long;\n");
	running_pid();
	my $t0 = time;
	$node->safe_psql('postgres', qq{SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE backend_type = 'bench_commit session' AND application_name = 'bench_commit session 2'});
	all_gone('a session terminated', $t0);
	$bg->query('SELECT 1');
	like($bg->{stderr}, qr/bench_commit session 2 of 3 exited before the run ended/,
		'a session terminated: the run fails, naming it');
	$bg->quit;
}

# a session's own error, here an event trigger refusing its table
$node->safe_psql('postgres', q{
	CREATE FUNCTION no_run_tables() RETURNS event_trigger LANGUAGE plpgsql AS $$
	BEGIN
		RAISE EXCEPTION 'no tables today' USING ERRCODE = 'check_violation';
	END $$;
	CREATE EVENT TRIGGER no_run_tables ON ddl_command_start WHEN TAG IN ('CREATE TABLE')
		EXECUTE FUNCTION no_run_tables();});
{
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT count(*) FROM bench_commit(sessions => 2, duration => '1s', record => false)");
	like($stderr, qr/ERROR:  23514: bench_commit session \d of 2 failed\nDETAIL:  no tables today/,
		"a session's error fails the run with its SQLSTATE, naming the session, its error as detail");
	ok($node->poll_query_until('postgres', "SELECT ($sessions_sql) = 0 AND ($tables_sql) = 0"),
		"a session's error: no session and no run table is left");
}
$node->safe_psql('postgres', 'DROP EVENT TRIGGER no_run_tables');

# more sessions than background worker slots
{
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT count(*) FROM bench_commit(sessions => 7, duration => '1s', record => false)");
	like($stderr, qr/ERROR:  53000: 7 sessions need 7 background workers, but max_worker_processes is 6\n.*HINT:  Raise max_worker_processes/s,
		'sessions over max_worker_processes: 53000 with the numbers and a hint');
	($ret, $stdout, $stderr) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT count(*) FROM bench_commit(sessions => 6, duration => '1s', record => false)");
	like($stderr, qr/ERROR:  53000: only \d of 6 bench_commit sessions could start\nDETAIL:  .*max_worker_processes is 6.*\nHINT:  Ask for fewer sessions/s,
		'sessions over the free slots: 53000 with the numbers and a hint');
	ok($node->poll_query_until('postgres', "SELECT ($sessions_sql) = 0 AND ($tables_sql) = 0"),
		'sessions over the free slots: those that started are gone with their tables');
}

# a NOLOGIN role the caller SET ROLE to: the sessions run as it
$node->safe_psql('postgres', q{
	CREATE ROLE committer NOLOGIN;
	GRANT CREATE ON SCHEMA public TO committer;
	CREATE TABLE seen_owner (owner name);
	GRANT INSERT ON seen_owner TO committer;
	CREATE FUNCTION note_owner() RETURNS event_trigger LANGUAGE plpgsql AS $$
	BEGIN
		-- (the sessions' statements run under search_path = pg_catalog,
		-- pg_temp, and so does what they fire: names are qualified)
		INSERT INTO public.seen_owner SELECT current_user;
	END $$;
	CREATE EVENT TRIGGER note_owner ON ddl_command_end WHEN TAG IN ('CREATE TABLE')
		EXECUTE FUNCTION note_owner();});
is($node->safe_psql('postgres', q{
	SET ROLE committer;
	SELECT commits > 0 FROM bench_commit(sessions => 2, duration => '300ms', record => false);
	RESET ROLE;
	SELECT string_agg(DISTINCT owner, ',') FROM seen_owner;}),
	"t\ncommitter", 'SET ROLE to a NOLOGIN role: the sessions ran as that role');

# bench_tpcb: the same sessions, as pgbench's clients
$node->safe_psql('postgres', q{
	DROP EVENT TRIGGER note_owner;
	SET client_min_messages = warning;
	SELECT branches FROM bench_generate_tpcb(scale => 1);});
my $clients_sql = q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'bench_tpcb client'};
my $balanced_sql = q{SELECT (SELECT coalesce(sum(delta), 0) FROM pgbench_history) = (SELECT sum(abalance) FROM pgbench_accounts)
	AND (SELECT coalesce(sum(delta), 0) FROM pgbench_history) = (SELECT sum(tbalance) FROM pgbench_tellers)
	AND (SELECT coalesce(sum(delta), 0) FROM pgbench_history) = (SELECT sum(bbalance) FROM pgbench_branches)};
my $long_tpcb = q{bench_tpcb(clients => 3, duration => '1h', record => false)};

sub tpcb_running_pid
{
	for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default; $i++)
	{
		my $pid = $node->safe_psql('postgres', q{
			SELECT pid FROM pg_stat_activity
			WHERE query LIKE 'SELECT % FROM bench_tpcb%' AND state = 'active' AND pid <> pg_backend_pid()
			  AND backend_type = 'client backend'});
		my $n = $node->safe_psql('postgres', $clients_sql);
		my $h = $node->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history');
		return $pid if $pid ne '' && $n == 3 && $h > 0;
		usleep(50_000);
	}
	die 'the run did not start';
}

sub tpcb_all_gone
{
	my ($what, $t0) = @_;
	ok($node->poll_query_until('postgres', "SELECT ($clients_sql) = 0"),
		"bench_tpcb, $what: no client is left");
	my $took = time - $t0;
	cmp_ok($took, '<', 5, "bench_tpcb, $what: the clients ended within seconds ($took s)");
	is($node->safe_psql('postgres', $balanced_sql), 't',
		"bench_tpcb, $what: the transactions in flight were rolled back (the balances add up to the history)");
}

{
	my $t0 = time;
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		"SET statement_timeout = '1s'; SELECT count(*) FROM $long_tpcb");
	like($stderr, qr/canceling statement due to statement timeout/, 'bench_tpcb: statement_timeout stops the run');
	tpcb_all_gone('statement_timeout', $t0);
}
{
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//, "SELECT * FROM $long_tpcb;\n");
	my $pid = tpcb_running_pid();
	# A plain SELECT * FROM bench_tpcb(...) gives up its xmin while the
	# clients run, so their old row versions can be pruned as under pgbench.
	is($node->safe_psql('postgres', "SELECT backend_xmin IS NULL FROM pg_stat_activity WHERE pid = $pid"), 't',
		'bench_tpcb alone: the caller holds no xmin while the clients run');
	my $t0 = time;
	$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
	tpcb_all_gone('cancel', $t0);
	$bg->query('SELECT 1');
	like($bg->{stderr}, qr/canceling statement due to user request/, 'bench_tpcb, cancel: the statement was canceled');
	$bg->quit;
}
{
	# With a ramp the caller reads the server's statistics at its end, in
	# the middle of the run, and gives up the xmin that reading took again.
	my $rows_before = $node->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history');
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//,
		"SELECT * FROM bench_tpcb(clients => 3, duration => '1h', ramp => '300ms', record => false);\n");
	my $pid = tpcb_running_pid();
	# the clients are committing: the ramp began; well past its end, the
	# caller has read the server's statistics and given the xmin up again
	ok($node->poll_query_until('postgres',
			"SELECT count(*) > $rows_before FROM pgbench_history"),
		'bench_tpcb with a ramp: the clients commit');
	usleep(1_500_000);
	my $held = 0;
	for (1 .. 3)
	{
		$held++ if $node->safe_psql('postgres',
			"SELECT backend_xmin IS NOT NULL FROM pg_stat_activity WHERE pid = $pid") eq 't';
		usleep(100_000);
	}
	is($held, 0, 'bench_tpcb with a ramp: the caller holds no xmin after the ramp either');
	my $t0 = time;
	$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
	tpcb_all_gone('cancel after the ramp', $t0);
	$bg->quit;
}
{
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//, "SELECT count(*) FROM $long_tpcb;\n");
	my $pid = tpcb_running_pid();
	# Under an aggregate the statement's snapshot could still be read: kept.
	is($node->safe_psql('postgres', "SELECT backend_xmin IS NOT NULL FROM pg_stat_activity WHERE pid = $pid"), 't',
		'bench_tpcb under an aggregate: the caller keeps its xmin');
	my $t0 = time;
	$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
	tpcb_all_gone('caller terminated', $t0);
	eval { $bg->quit; };
}
# a client's error, here a trigger refusing a history row after a while
$node->safe_psql('postgres', q{
	CREATE SEQUENCE history_rows;
	CREATE FUNCTION refuse_late_history() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		-- (the clients run under search_path = pg_catalog, pg_temp, and so
		-- does what their statements fire: names are qualified)
		IF nextval('public.history_rows') > 200 THEN
			RAISE EXCEPTION 'the bank is closed' USING ERRCODE = 'check_violation';
		END IF;
		RETURN NEW;
	END $$;
	CREATE TRIGGER refuse_late_history BEFORE INSERT ON pgbench_history
		FOR EACH ROW EXECUTE FUNCTION refuse_late_history();});
{
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT count(*) FROM bench_tpcb(clients => 2, duration => '1h', record => false)");
	like($stderr, qr/ERROR:  23514: bench_tpcb client \d of 2 failed\nDETAIL:  the bank is closed/,
		"bench_tpcb: a client's error fails the run with its SQLSTATE, naming the client, its error as detail");
	ok($node->poll_query_until('postgres', "SELECT ($clients_sql) = 0"),
		"bench_tpcb, a client's error: no client is left");
	is($node->safe_psql('postgres', $balanced_sql), 't',
		"bench_tpcb, a client's error: the failed transactions were rolled back");
	is($node->safe_psql('postgres', q{SELECT count(*) FROM bench_run WHERE benchmark = 'tpcb'}), '0',
		'bench_tpcb: no failed run is recorded');
}
$node->safe_psql('postgres', 'DROP TRIGGER refuse_late_history ON pgbench_history');
{
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT count(*) FROM bench_tpcb(clients => 7, duration => '1s', record => false)");
	like($stderr, qr/ERROR:  53000: 7 clients need 7 background workers, but max_worker_processes is 6\n.*HINT:  Raise max_worker_processes/s,
		'bench_tpcb: clients over max_worker_processes: 53000 with the numbers and a hint');
}

unlike(slurp_file($node->logfile), qr/server process .* was terminated by signal/,
	'no backend crashed');
$node->stop;
done_testing();
