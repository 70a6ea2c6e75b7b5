# A table over 1 GB, stored in two segment files: every mode reads both
# (raw mode also at depth, serial and parallel), sizes agree with pg_relation_size and pg_total_relation_size, and
# eviction reaches every segment.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

# wal_level minimal: COPY FREEZE into a table created in the same
# transaction writes no WAL for its data and leaves it frozen.
my $node = bs_node('segments', 'fsync = on', 'wal_level = minimal',
	'max_wal_senders = 0', 'shared_buffers = 32MB');

my $segsize = $node->safe_psql('postgres',
	"SELECT pg_size_bytes(current_setting('segment_size'))");
my $blcksz = $node->safe_psql('postgres',
	"SELECT current_setting('block_size')::bigint");
note "segment size $segsize bytes, block size $blcksz";

# fillfactor 10 keeps about 23 narrow rows per 8 kB page, so 3.2 million
# rows fill just over 1 GB.
my $rows = int(($segsize / $blcksz) * 23 * 1.06);
$node->safe_psql('postgres', qq{
	BEGIN;
	CREATE TABLE wide (id integer) WITH (fillfactor = 10, autovacuum_enabled = off);
	COPY wide FROM PROGRAM 'seq 1 $rows' WITH (FREEZE);
	COMMIT;
	CREATE INDEX wide_id ON wide (id);
	CHECKPOINT;
});
my $bytes = $node->safe_psql('postgres', "SELECT pg_relation_size('wide')");
cmp_ok($bytes, '>', $segsize, 'the table is larger than one segment file');

my $st = bs_row($node, "SELECT * FROM bench_cache_status('wide')");
is($st->{files}, 2, 'two segment files');
is($st->{mb} * 1048576, $bytes, 'their size is pg_relation_size');

my $pages = $bytes / $blcksz;
foreach my $mode (qw(heap buffer raw))
{
	my $r = bs_row($node, "SELECT * FROM bench_seqscan('wide', '$mode')");
	is($r->{pages}, $pages, "$mode: every page of both segments");
	is($r->{size_mb} * 1048576, $bytes, "$mode: size_mb");
	is($r->{tuples}, $mode eq 'buffer' ? undef : $rows, "$mode: tuples");
}
my $raw = bs_row($node, "SELECT * FROM bench_seqscan('wide', 'raw')");
is($raw->{blks_read}, $pages, 'raw: every block read from the files');

# Raw at depth (io_uring): the same pages and line pointers, serial and
# with workers, whose reads cross the segment boundary in flight.
foreach my $workers (0, 2)
{
	my $d = bs_row($node,
		"SELECT * FROM bench_seqscan('wide', 'raw', iodepth => 16, workers => $workers)");
	is($d->{pages}, $pages, "raw at depth 16, $workers workers: every page of both segments");
	is($d->{tuples}, $rows, "raw at depth 16, $workers workers: tuples");
	is($d->{iodepth}, 16, "raw at depth 16, $workers workers: iodepth column");
}

my $ev = bs_row($node, "SELECT * FROM bench_cache_evict('wide')");
is($ev->{files}, 2, 'eviction reached both segments');
SKIP:
{
	my $fs = bs_fs_type($node->data_dir);
	skip "files on $fs cannot be evicted", 2 if $fs eq 'tmpfs';
	cmp_ok($ev->{os_cached_mb_after}, '<', $ev->{mb} / 20,
		'next to nothing of either segment cached after eviction');
	skip 'no per-process I/O accounting', 1 unless bs_have_proc_io();
	my $cold = bs_row($node, "SELECT * FROM bench_seqscan('wide', 'raw', 'cold')");
	cmp_ok($cold->{os_read_mb}, '>=', $cold->{size_mb} / 2,
		'a cold raw run reads both segments from storage');
}

my $sz = bs_row($node, q{
	SELECT pages, mb * 1048576 = pg_relation_size('wide') AS mb_ok,
		   total_mb * 1048576 = pg_total_relation_size('wide') AS total_ok,
		   indexes_mb * 1048576 = pg_indexes_size('wide') AS idx_ok
	FROM bench_relation_sizes(1)});
is($sz->{pages}, $pages, 'relation sizes: pages of both segments');
ok($sz->{mb_ok}, 'relation sizes: mb equals pg_relation_size over 1 GB');
ok($sz->{total_ok}, 'relation sizes: total equals pg_total_relation_size');
ok($sz->{idx_ok}, 'relation sizes: indexes equal pg_indexes_size');

is($node->safe_psql('postgres', 'SELECT count(*) FROM wide'), $rows,
	'count(*) agrees');

$node->stop;
done_testing();
