# bench_randread with parallel workers: cold random reads of one seeded
# order shared between the caller and its workers, every read attributed
# in the process that made it, the device reads checked against what the
# kernel read for all of them (the caller, the workers and, on 18, the I/O
# workers), under each io_method on 18; the same blocks as one process
# reads; cancel, statement_timeout and termination stop every worker.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use JSON::PP;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

# fsync on: with fsync off a checkpoint leaves pages dirty in the OS page
# cache, where eviction cannot drop them.  No autovacuum: nothing else
# reads while the runs are measured.
my $node = bs_node('randread_workers', 'fsync = on', 'shared_buffers = 16MB',
	'autovacuum = off', 'max_worker_processes = 16', 'max_parallel_workers = 8');
die "this test needs per-process I/O accounting (/proc/self/io)"
  unless bs_have_proc_io();
my $fs = bs_fs_type($node->data_dir);
die "files on $fs cannot be evicted from the page cache: no cold run to measure"
  if $fs eq 'tmpfs' || $fs eq 'ramfs';

# 64 MB, four times shared_buffers, keys in random heap order.
$node->safe_psql('postgres', q{
	SELECT rows FROM bench_generate_randread('64MB');
	CHECKPOINT;
});
my $reads = 2000;
my $serial_tuples = $node->safe_psql('postgres',
	"SELECT tuples FROM bench_randread('randread', reads => $reads, seed => 3, record => false)");

my @methods = $node->pg_version >= 18 ? qw(worker io_uring sync) : ('');
for my $method (@methods)
{
	if ($method ne '')
	{
		$node->append_conf('postgresql.conf', "io_method = $method\n");
		$node->restart;
	}
	for my $depth (1, 8)
	{
		my $what = ($method ne '' ? "io_method $method, " : '') . "depth $depth";
		my $r = bs_row($node, qq{
			SELECT reads, tuples, device_reads, page_cache_reads, blks_hit, blks_read,
				   workers_launched, os_read_mb, warnings, cached_pct, by_process
			FROM bench_randread('randread', reads => $reads, seed => 3, cache => 'cold',
								workers => 3, depth => $depth, record => false)});
		my @procs = @{ $r->{by_process} };
		note "$what: device $r->{device_reads}, page cache $r->{page_cache_reads}, hits $r->{blks_hit}, "
		  . "kernel $r->{os_read_mb} MB, cached_pct $r->{cached_pct}, "
		  . scalar(@procs) . " processes: "
		  . join(', ', map { "$_->{reads} reads ($_->{device} device)" } @procs);
		is($r->{workers_launched}, 3, "$what: three workers read beside the caller");
		is($r->{reads}, $reads, "$what: every position of the order read once");
		is($r->{tuples}, $serial_tuples, "$what: the same blocks as one process reads");
		is(scalar(@procs), 4, "$what: by_process lists the four processes");
		my %sum;
		for my $p (@procs)
		{
			$sum{$_} += $p->{$_} for qw(reads device page_cache shared_buffers);
		}
		is($sum{reads}, $reads, "$what: the processes' reads add up");
		is($sum{device}, $r->{device_reads}, "$what: the processes' device reads add up");
		is($sum{page_cache}, $r->{page_cache_reads}, "$what: the processes' page-cache reads add up");
		is($r->{blks_hit} + $r->{blks_read}, $reads,
			"$what: the workers' buffer usage reached the caller");
		# 15 and 16 cannot drop a relation's shared buffers (their hits are
		# the pages the server kept); past those, the device served them
		cmp_ok($r->{device_reads}, '>', ($reads - $r->{blks_hit}) / 2,
			"$what: a cold run's reads past shared buffers came from the device");
		cmp_ok($r->{blks_hit}, '<', $reads / 10, "$what: no shared buffer kept the relation")
		  if $node->pg_version >= 17;
		my $device_mb = $r->{device_reads} * 8192 / 1048576.0;
		ok(defined $r->{os_read_mb} && $r->{os_read_mb} >= 0.95 * $device_mb,
			"$what: the kernel read at least the device reads ($r->{os_read_mb} MB for $device_mb MB)");
		unlike($r->{warnings} // '', qr/The kernel read .* than its/,
			"$what: device reads within 5 % of the kernel's count with its read-ahead");
	}
}

# Wait until the run is active in some backend; return its pid.
sub running_pid
{
	for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default; $i++)
	{
		my $pid = $node->safe_psql('postgres', q{
			SELECT pid FROM pg_stat_activity
			WHERE query LIKE 'SELECT count(*) FROM bench_randread%' AND state = 'active'
			  AND backend_type = 'client backend'});
		return $pid if $pid ne '';
		usleep(100_000);
	}
	die 'the run did not start';
}

my $long = "bench_randread('randread', reads => 1000000000, cache => 'cold', workers => 3, depth => 4, record => false)";
{
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		"SET statement_timeout = '500ms'; SELECT count(*) FROM $long");
	like($stderr, qr/canceling statement due to statement timeout/,
		'statement_timeout stops a run with workers');
	ok($node->poll_query_until('postgres',
		q{SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'parallel worker'}),
		'no parallel worker is left after the timeout');
}
{
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//, "SELECT count(*) FROM $long;\n");
	my $pid = running_pid();
	usleep(200_000);
	$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
	$node->poll_query_until('postgres',
		"SELECT state <> 'active' FROM pg_stat_activity WHERE pid = $pid")
	  or die 'cancel was not served';
	$bg->query('SELECT 1');
	like($bg->{stderr}, qr/canceling statement due to user request/, 'cancel stops a run with workers');
	ok($node->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_stat_activity WHERE leader_pid = $pid"),
		'no parallel worker is left after the cancel');
	$bg->quit;
}
{
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//, "SELECT count(*) FROM $long;\n");
	my $pid = running_pid();
	usleep(200_000);
	$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
	ok($node->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = $pid OR leader_pid = $pid"),
		'termination ends the backend and its workers');
	eval { $bg->quit; };
}
is($node->safe_psql('postgres',
	"SELECT reads FROM bench_randread('randread', reads => 100, workers => 2, record => false)"),
	100, 'the server reads with workers after a run was terminated');
unlike(slurp_file($node->logfile), qr/server process .* was terminated by signal/,
	'no backend crashed');

$node->stop;
done_testing();
