# PostgreSQL 18's asynchronous I/O: under each io_method (worker, the
# default, whose I/O worker processes do the backends' reads; io_uring; and
# sync) a cold scan's os_read_mb is what the kernel read from storage for
# it, I/O workers included (within 5 % of the table's size), a warm one
# right after reads nothing from storage but what the page cache lost in
# between (bs_warm_run), and every scan counts exactly the
# tuples count(*) sees.  Each cold run follows a restart, so that shared
# buffers hold none of the table and every block comes from storage.  Every mode, serial and with two workers, and a
# cold bench_query.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = PostgreSQL::Test::Cluster->new('io_method');
plan skip_all => 'io_method exists from PostgreSQL 18 on; this server is '
  . $node->pg_version
  unless $node->pg_version >= 18;
$node->init;
# fsync on: with fsync off a checkpoint leaves pages dirty in the OS page
# cache, where eviction cannot drop them.  No autovacuum: nothing else
# reads while the scans are measured.
$node->append_conf('postgresql.conf', join("\n",
	'fsync = on', 'shared_buffers = 16MB', 'autovacuum = off',
	'max_worker_processes = 8', 'max_parallel_workers = 4') . "\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION benchstore');

my $fs = bs_fs_type($node->data_dir);
die "this test needs per-process I/O accounting (/proc/self/io)"
  unless bs_have_proc_io();
die "files on $fs cannot be evicted from the page cache: no cold scan to measure"
  if $fs eq 'tmpfs' || $fs eq 'ramfs';

# About 40 MB: far over shared_buffers / 4, so scans go through the bulk-read
# ring and a cold scan reads (nearly) every block from storage.
$node->safe_psql('postgres', q{
	CREATE TABLE iot AS
		SELECT g AS id, repeat(md5(g::text), 4) AS pad FROM generate_series(1, 260000) g;
	VACUUM (FREEZE, ANALYZE) iot;
	CHECKPOINT;
});
# bench_query below times a serial plan
$node->safe_psql('postgres',
	'ALTER DATABASE postgres SET max_parallel_workers_per_gather = 0');
my $count = $node->safe_psql('postgres', 'SELECT count(*) FROM iot');
my $size_mb = $node->safe_psql('postgres',
	"SELECT pg_relation_size('iot') / 1048576.0");
note "table: $count rows, $size_mb MB";

sub within_5pct
{
	my ($got, $want, $what) = @_;
	ok(defined $got && abs($got - $want) <= 0.05 * $want,
		"$what: os_read_mb " . ($got // 'NULL') . " within 5 % of $want MB");
}

# A warm run right after a cold one finds the table in the page cache, all
# but what the machine's background reclaim took in between (see
# bs_warm_run): it reads from storage at most what was missing when it
# began, plus a few catalog blocks no one had read since the restart (a
# parallel worker's start-up does) and what the reclaim takes while it
# runs: under 5 % of the table more (an I/O worker's reads counted twice,
# or as the backend's, would be the whole table).
sub nothing_read
{
	my ($r, $missing_mb, $what) = @_;
	ok(defined $r->{os_read_mb} && $r->{os_read_mb} < $missing_mb + 0.05 * $size_mb,
		"$what: os_read_mb " . ($r->{os_read_mb} // 'NULL')
		  . " is next to nothing beyond the $missing_mb MB the page cache had lost"
		  . " (under 5 % of $size_mb MB more)");
}

for my $method (qw(worker io_uring sync))
{
	$node->append_conf('postgresql.conf', "io_method = $method\n");
	$node->restart;
	is($node->safe_psql('postgres', 'SHOW io_method'), $method,
		"restarted with io_method = $method");
	if ($method eq 'worker')
	{
		cmp_ok($node->safe_psql('postgres',
				"SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'io worker'"),
			'>', 0, 'the I/O workers run');
	}

	for my $mode (qw(heap buffer raw))
	{
		for my $workers (0, 2)
		{
			my $what = "$method, $mode, workers => $workers";
			# shared buffers empty: every block must come from storage
			$node->restart;
			my $cold = bs_row($node,
				"SELECT * FROM bench_seqscan('iot', '$mode', 'cold', workers => $workers)");
			my ($warm, $missing) = bs_warm_run($node,
				"SELECT * FROM bench_seqscan('iot', '$mode', 'warm', workers => $workers)", 'iot');
			is($cold->{workers_launched}, $workers, "$what: workers launched");
			within_5pct($cold->{os_read_mb}, $cold->{size_mb}, "$what, cold");
			nothing_read($warm, $missing, "$what, warm right after");
			if ($mode ne 'buffer')
			{
				is($cold->{tuples}, $count, "$what: cold tuples = count(*)");
				is($warm->{tuples}, $count, "$what: warm tuples = count(*)");
			}
		}
	}

	# bench_query, serial (the kernel's counters are per process: a
	# parallel plan reports NULL).
	$node->restart;
	my $q = bs_row($node, q{
		SELECT * FROM bench_query('SELECT count(*) FROM iot', cache => 'cold')});
	my ($qw, $qmissing) = bs_warm_run($node, q{
		SELECT * FROM bench_query('SELECT count(*) FROM iot')}, 'iot');
	is($q->{workers_launched}, 0, "$method, bench_query: a serial plan");
	within_5pct($q->{os_read_mb}, $size_mb, "$method, cold bench_query");
	nothing_read($qw, $qmissing, "$method, warm bench_query");

	# The run's settings snapshot says which io_method it ran under.
	is($node->safe_psql('postgres', q{
		SELECT settings ->> 'io_method' FROM bench_run ORDER BY run_id DESC LIMIT 1}),
		$method, "$method: recorded in the run's settings");
}

done_testing();
