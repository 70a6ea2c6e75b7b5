# Cold runs after a restart really read from storage: the OS page cache
# was emptied of the relation, shared buffers were bypassed, and the kernel
# says it read the bytes for this backend.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

# fsync on: with fsync off (the test default) a checkpoint leaves pages dirty
# in the OS page cache, where eviction cannot drop them.
my $node = bs_node('cold', 'fsync = on', 'shared_buffers = 16MB', 'track_io_timing = on');

# About 60 MB: far over shared_buffers / 4, so scans use the bulk-read ring.
$node->safe_psql('postgres', q{
	CREATE TABLE coldt AS
		SELECT g AS id, repeat(md5(g::text), 4) AS pad FROM generate_series(1, 400000) g;
	VACUUM (FREEZE, ANALYZE) coldt;
	CHECKPOINT;
});
my $count = $node->safe_psql('postgres', 'SELECT count(*) FROM coldt');
is($count, 400000, 'table loaded');

my $proc_io = bs_have_proc_io();
my $fs = bs_fs_type($node->data_dir);
note "filesystem under the data directory: $fs; /proc/self/io: $proc_io";
# tmpfs keeps files in memory: there is no storage to evict them to.
my $evictable = $fs ne 'tmpfs' && $fs ne 'ramfs';

$node->restart;

# heap, cold, right after a restart.
my $r = bs_row($node,
	"SELECT * FROM bench_seqscan('coldt', 'heap', 'cold')");
is($r->{tuples}, 400000, 'cold heap scan counts every tuple');
is($r->{cache}, 'cold', 'reported as cold');
cmp_ok($r->{blks_hit} + $r->{blks_read}, '>=', $r->{pages},
	'every page came through the buffer manager');
cmp_ok($r->{blks_hit}, '<', $r->{pages} / 10,
	'shared buffers held next to nothing after the restart');
ok(defined $r->{read_ms} && $r->{read_ms} > 0,
	'read_ms reported with track_io_timing on');
SKIP:
{
	skip 'no per-process I/O accounting in this kernel', 1 unless $proc_io;
	skip "files on $fs cannot be evicted", 1 unless $evictable;
	cmp_ok($r->{os_read_mb}, '>=', $r->{size_mb} / 2,
		'the kernel read the table from storage (os_read_mb)');
}

# raw, cold then warm: the cold run reads from storage, the warm run right
# after it finds the files in the page cache.
my $cold = bs_row($node,
	"SELECT * FROM bench_seqscan('coldt', 'raw', 'cold')");
my $warm = bs_row($node,
	"SELECT * FROM bench_seqscan('coldt', 'raw', 'warm')");
is($cold->{tuples}, 400000, 'raw scan counts line pointers of a vacuumed table');
is($cold->{pages}, $r->{pages}, 'raw and heap see the same pages');
is($cold->{blks_read}, $cold->{pages}, 'raw reads every block from the files');
SKIP:
{
	skip 'no per-process I/O accounting in this kernel', 2 unless $proc_io;
	skip "files on $fs cannot be evicted", 2 unless $evictable;
	cmp_ok($cold->{os_read_mb}, '>=', $cold->{size_mb} / 2,
		'cold raw scan read from storage');
	cmp_ok($warm->{os_read_mb}, '<', $warm->{size_mb} / 10,
		'warm raw scan right after it read from the page cache');
}

# buffer mode, cold: the ring keeps shared buffers nearly untouched.
my $buf = bs_row($node,
	"SELECT * FROM bench_seqscan('coldt', 'buffer', 'cold')");
is($buf->{pages}, $r->{pages}, 'buffer mode reads every page');
$node->safe_psql('postgres', 'CREATE EXTENSION pg_buffercache');
my $in_sb = $node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_buffercache b
	JOIN pg_class c ON b.relfilenode = pg_relation_filenode(c.oid)
	WHERE c.relname = 'coldt'
});
cmp_ok($in_sb, '<', $r->{pages} / 10,
	'cold scans left only a ring of the table in shared buffers');

# bench_cache_status and bench_cache_evict see the page cache empty out.
SKIP:
{
	skip "files on $fs cannot be evicted", 3 unless $evictable;
	$node->safe_psql('postgres', "SELECT * FROM bench_seqscan('coldt', 'raw')");
	my $st = bs_row($node, "SELECT * FROM bench_cache_status('coldt')");
	cmp_ok($st->{os_cached_mb}, '>', $st->{mb} / 2,
		'after a warm raw scan the table is in the page cache');
	my $ev = bs_row($node, "SELECT * FROM bench_cache_evict('coldt')");
	cmp_ok($ev->{os_cached_mb_before}, '>', $ev->{mb} / 2,
		'eviction saw it cached before');
	cmp_ok($ev->{os_cached_mb_after}, '<', $ev->{mb} / 20,
		'and next to nothing cached after');
}

# The scan's own clock against one outside the call: elapsed_ms never
# exceeds the call's time, and for a table of this size (60 MB, warm, ten runs) the
# scan is most of it: what the call adds (argument checks, recording the
# run) is small beside the scan.
$node->safe_psql('postgres',
	slurp_file("$FindBin::RealBin/../sql/outside_clock.sql"));
foreach my $mode (qw(heap buffer raw))
{
	my $c = bs_row($node,
		"SELECT * FROM outside_clock(\$\$SELECT * FROM bench_seqscan('coldt', '$mode', repeat => 10)\$\$)");
	cmp_ok($c->{inside_ms}, '<=', $c->{outside_ms},
		"$mode: the scans' time is within the call's");
	cmp_ok($c->{inside_ms}, '>=', 0.5 * $c->{outside_ms},
		"$mode: and at least half of it ($c->{inside_ms} of $c->{outside_ms} ms)");
}

$node->stop;

# With fsync off, a checkpoint leaves the relation's pages dirty in the OS
# page cache, where eviction cannot drop them: the cold run says so rather
# than pass a warm run off as cold.
SKIP:
{
	skip "files on $fs cannot be evicted", 2 unless $evictable;
	my $nofsync = bs_node('nofsync', 'fsync = off');
	my ($ret, $out, $err) = $nofsync->psql('postgres', q{
		CREATE TABLE fresh AS SELECT g, md5(g::text) FROM generate_series(1, 200000) g;
		SELECT tuples FROM bench_seqscan('fresh', 'raw', 'cold');
	});
	is($out, '200000', 'the cold run still runs');
	like($err,
		qr/WARNING:  [\d.]+ MB of relation "fresh" stayed in the OS page cache after eviction.*HINT:  fsync is off/s,
		'and warns that part of the relation stayed cached, naming fsync = off');
	$nofsync->stop;
}

done_testing();
