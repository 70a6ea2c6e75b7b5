# bench_commit's run tables are dropped only through the extension's own
# record of them, and only by the role that made them:
#  - a crash leaves a role's run tables behind (no session's exit callback
#    ran); a superuser's next bench_commit leaves them alone, the role's
#    own next call drops them, and their records with them;
#  - a run in progress keeps its tables while another run of the same role
#    cleans up, also when that other run's transaction holds a statistics
#    snapshot taken before the first run started (a cached
#    pg_stat_activity without its leader): a maker is known to be alive by
#    the lock it holds, not by the statistics.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('run_tables', 'max_worker_processes = 12', 'restart_after_crash = on');
$node->safe_psql('postgres', q{
	CREATE ROLE mallory LOGIN;
	GRANT CREATE ON SCHEMA public TO mallory;});

sub tables_of
{
	return qq{SELECT count(*) FROM pg_class WHERE relname LIKE '\\_bench\\_commit\\_%' AND relowner = '$_[0]'::regrole};
}
sub records_of
{
	return qq{SELECT count(*) FROM _bench_run_table WHERE made_by = '$_[0]'::regrole};
}
my $sessions_sql = q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'bench_commit session'};

# A crash during mallory's run.
{
	my $bg = $node->background_psql('postgres', on_error_stop => 0, extra_params => [ '-U', 'mallory' ]);
	$bg->query_until(qr//, "SELECT count(*) FROM bench_commit(sessions => 2, duration => '9min', record => false);\n");
	ok($node->poll_query_until('postgres', 'SELECT (' . tables_of('mallory') . ') = 2 AND (' . $sessions_sql . ') = 2'),
		"mallory's run is on, its two tables made");
	my $pid = $node->safe_psql('postgres', q{SELECT pid FROM pg_stat_activity
		WHERE usename = 'mallory' AND backend_type = 'client backend'});
	bs_crash_backend($node, $pid);
	eval { $bg->quit; };
}
is($node->safe_psql('postgres', tables_of('mallory')), '2', 'the crash left mallory\'s two run tables');
is($node->safe_psql('postgres', records_of('mallory')), '2', 'and their records');

# a superuser's run leaves another role's leftovers alone
is($node->safe_psql('postgres', q{SELECT commits > 0 FROM bench_commit(duration => '100ms', record => false)}),
	't', 'a superuser runs bench_commit');
is($node->safe_psql('postgres', tables_of('mallory')), '2', "the superuser's run did not drop mallory's tables");

# mallory's own next run drops them
is($node->psql('postgres', q{SELECT commits > 0 FROM bench_commit(duration => '100ms', record => false)},
	extra_params => [ '-U', 'mallory' ]), 0, 'mallory runs bench_commit again');
is($node->safe_psql('postgres', tables_of('mallory')), '0', "mallory's next run dropped its leftovers");
is($node->safe_psql('postgres', q{SELECT count(*) FROM _bench_run_table}), '0', 'no record is left');

# A run in progress, and another run's cleanup under a stale statistics
# snapshot.
{
	my $a = $node->background_psql('postgres', on_error_stop => 0);
	$a->query_safe(q{BEGIN; SELECT count(*) FROM pg_stat_activity});
	my $b = $node->background_psql('postgres', on_error_stop => 0);
	$b->query_until(qr//, "SELECT count(*) FROM bench_commit(sessions => 2, duration => '1h', record => false);\n");
	ok($node->poll_query_until('postgres', "SELECT count(*) = 2 FROM _bench_run_table") &&
		$node->poll_query_until('postgres', "SELECT ($sessions_sql) = 2"),
		'a run of two sessions is on');
	my $out = $a->query(q{SELECT commits > 0 FROM bench_commit(duration => '200ms', record => false)});
	is($out, 't', 'a second run, in a transaction whose statistics snapshot predates the first');
	$a->query_safe('COMMIT');
	is($node->safe_psql('postgres', "SELECT count(*) FROM _bench_run_table"), '2',
		"the first run's tables are still recorded");
	is($node->safe_psql('postgres', $sessions_sql), '2', 'and its sessions still run');
	$node->safe_psql('postgres', q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity
		WHERE backend_type = 'client backend' AND query LIKE 'SELECT count(*) FROM bench_commit%'});
	ok($node->poll_query_until('postgres', "SELECT ($sessions_sql) = 0 AND (SELECT count(*) FROM _bench_run_table) = 0"),
		'cancelled, the first run dropped its tables and their records');
	like($b->query('SELECT 1') // '', qr/^1$/, 'the first run was cancelled, not failed');
	unlike($b->{stderr}, qr/failed|exited before/, 'none of its sessions failed');
	$a->quit;
	$b->quit;
}
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_class WHERE relname LIKE '\_bench\_commit\_%'}), '0',
	'no run table is left');

$node->stop;
done_testing();
