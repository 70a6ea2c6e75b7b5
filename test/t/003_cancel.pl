# A long scan stops promptly on cancel, statement_timeout and backend
# termination, in every mode, serial or shared with parallel workers, and
# leaves the server healthy.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

# Small shared buffers: every run reads through the OS, so that a thousand
# runs last long whatever the mode.
my $node = bs_node('cancel', 'fsync = on', 'shared_buffers = 16MB');
# About 40 MB; a thousand runs of it take far longer than the bounds below.
$node->safe_psql('postgres', q{
	CREATE TABLE big AS SELECT g AS id, md5(g::text) AS v FROM generate_series(1, 500000) g;
	VACUUM (FREEZE, ANALYZE) big;
});

# Wait until the benchmark is running in some backend; return its pid.
sub running_pid
{
	for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default; $i++)
	{
		my $pid = $node->safe_psql('postgres', q{
			SELECT pid FROM pg_stat_activity
			WHERE query LIKE 'SELECT count(*) FROM bench_seqscan%' AND state = 'active'
			  AND backend_type = 'client backend'});
		return $pid if $pid ne '';
		usleep(100_000);
	}
	die 'benchmark did not start';
}

foreach my $mode (qw(heap buffer raw))
{
	foreach my $cache (qw(warm cold))
	{
	  foreach my $workers (0, 2)
	  {
		my $call = "bench_seqscan('big', '$mode', '$cache', 1000, workers => $workers)";
		my $what = "$mode $cache" . ($workers ? ", $workers workers" : '');

		# Cancel.
		my $bg = $node->background_psql('postgres', on_error_stop => 0);
		$bg->query_until(qr//, "SELECT count(*) FROM $call;\n");
		my $pid = running_pid();
		usleep(200_000);
		my $t0 = time;
		$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
		$node->poll_query_until('postgres',
			"SELECT state <> 'active' FROM pg_stat_activity WHERE pid = $pid")
		  or die 'cancel was not served';
		my $took = time - $t0;
		cmp_ok($took, '<', 10, "$what: cancel served within seconds");
		my ($out, $err) = $bg->query('SELECT 1');
		like($bg->{stderr}, qr/canceling statement due to user request/,
			"$what: the statement was canceled");
		ok($node->poll_query_until('postgres',
			"SELECT count(*) = 0 FROM pg_stat_activity WHERE leader_pid = $pid"),
			"$what: no parallel worker is left") if $workers;
		$bg->quit;

		# statement_timeout.
		my ($ret, $stdout, $stderr) = $node->psql('postgres',
			"SET statement_timeout = '300ms'; SELECT count(*) FROM $call");
		isnt($ret, 0, "$what: statement_timeout stops the run");
		like($stderr, qr/canceling statement due to statement timeout/,
			"$what: with the timeout's message");
	  }
	}
}

# Backend termination in the middle of a cold raw run, serial and shared
# with workers: the session ends, its workers with it, the server goes on.
foreach my $workers (0, 2)
{
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//,
		"SELECT count(*) FROM bench_seqscan('big', 'raw', 'cold', 1000, workers => $workers);\n");
	my $pid = running_pid();
	$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
	$node->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = $pid OR leader_pid = $pid")
	  or die 'backend was not terminated';
	pass("$workers workers: the backend and its workers are gone");
	# psql has exited with its connection: there is nothing left to quit.
	eval { $bg->quit; };
}
is($node->safe_psql('postgres', "SELECT tuples FROM bench_seqscan('big')"),
	500000, 'the server runs benchmarks after a backend was terminated');
my $log = slurp_file($node->logfile);
unlike($log, qr/server process .* was terminated by signal/,
	'no backend crashed');

# bench_query's time series comes from a timer: a run stopped by
# statement_timeout stops it, and the same session's next run samples
# afresh (and the timer does not fire into the session afterwards).
{
	my ($ret, $stdout, $stderr) = $node->psql('postgres', q{
		SET statement_timeout = '300ms';
		SELECT count(*) FROM bench_query('SELECT count(*) FROM big a, big b WHERE a.v < b.v',
										 sample_interval => '10ms', record => false);
		RESET statement_timeout;
		SET max_parallel_workers_per_gather = 0;	-- a parallel run has no series
		SELECT count(*) FROM bench_query('SELECT count(*) FROM big', label => 'after-timeout',
										 sample_interval => '10ms');
		SELECT pg_sleep(0.2);
		SELECT count(*) > 0, bool_and(elapsed_ms > 0) FROM bench_samples('after-timeout');},
		on_error_stop => 0);
	like($stderr, qr/canceling statement due to statement timeout/,
		'a sampled bench_query stops at statement_timeout');
	like($stdout, qr/^t\|t$/m, 'the next sampled bench_query in the session records its series');
}

$node->stop;
done_testing();
