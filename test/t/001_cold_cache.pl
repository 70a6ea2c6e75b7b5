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
my ($warm, $warm_missing) = bs_warm_run($node,
	"SELECT * FROM bench_seqscan('coldt', 'raw', 'warm')", 'coldt');
is($cold->{tuples}, 400000, 'raw scan counts line pointers of a vacuumed table');
is($cold->{pages}, $r->{pages}, 'raw and heap see the same pages');
is($cold->{blks_read}, $cold->{pages}, 'raw reads every block from the files');
SKIP:
{
	skip 'no per-process I/O accounting in this kernel', 2 unless $proc_io;
	skip "files on $fs cannot be evicted", 2 unless $evictable;
	cmp_ok($cold->{os_read_mb}, '>=', $cold->{size_mb} / 2,
		'cold raw scan read from storage');
	cmp_ok($warm->{os_read_mb}, '<', $warm_missing + $warm->{size_mb} / 10,
		"warm raw scan right after it read from the page cache (all but the $warm_missing MB it had lost: bs_warm_run)");
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
	# the best of three calls: one descheduling of the backend outside the
	# scans, on a loaded machine, is not what this checks
	my $c;
	for (1 .. 3)
	{
		$c = bs_row($node,
			"SELECT * FROM outside_clock(\$\$SELECT * FROM bench_seqscan('coldt', '$mode', repeat => 10)\$\$)");
		last if $c->{inside_ms} >= 0.5 * $c->{outside_ms};
	}
	cmp_ok($c->{inside_ms}, '<=', $c->{outside_ms},
		"$mode: the scans' time is within the call's");
	cmp_ok($c->{inside_ms}, '>=', 0.5 * $c->{outside_ms},
		"$mode: and at least half of it ($c->{inside_ms} of $c->{outside_ms} ms)");
}

# Cold means cold, or says why not.  A 3 MB table, within shared_buffers
# / 4, stays whole in shared buffers after a warm scan.  From 17 on a cold
# run evicts it from them too; before 17 nothing can, and the row and a
# WARNING say so, with how to get a cold run.
my $ver = $node->safe_psql('postgres', 'SHOW server_version_num');
$node->safe_psql('postgres', q{
	CREATE TABLE small AS SELECT g, md5(g::text) AS t FROM generate_series(1, 50000) g;
	SELECT count(*) FROM small;
});
my ($ret, $out, $err) = $node->psql('postgres', q{
	SELECT cached_pct, blks_hit, pages, coalesce(warnings, '') FROM bench_seqscan('small', cache => 'cold', label => 'small warm first')});
my ($pct, $hit, $pages, $warnings) = split /\|/, $out;
if ($ver >= 170000)
{
	is($pct, '0', '17+: a cold run after a warm one starts with nothing cached');
	is($hit, '0', 'and finds no page in shared buffers');
	is($warnings, '', 'and has nothing to warn of');
	unlike($err, qr/WARNING/, 'no WARNING');
	my $ev = bs_row($node, "SELECT * FROM bench_cache_evict('small')");
	$node->safe_psql('postgres', 'SELECT count(*) FROM small');
	$ev = bs_row($node, "SELECT * FROM bench_cache_evict('small')");
	cmp_ok($ev->{shared_buffers_mb_before}, '>', $ev->{mb} / 2,
		'bench_cache_evict saw the table in shared buffers');
	is($ev->{shared_buffers_mb_after}, '0', 'and evicted it from them');

	# A page another session pins stays, and the row says so.
	my $bg = $node->background_psql('postgres');
	$bg->query_safe('BEGIN');
	$bg->query_safe('DECLARE c CURSOR FOR SELECT * FROM small');
	$bg->query_safe('FETCH 1 FROM c');
	my $p = bs_row($node,
		"SELECT * FROM bench_seqscan('small', cache => 'cold', record => false)");
	like($p->{warnings},
		qr/^\d+ of $p->{pages} pages were in shared buffers when the run began: other sessions had them pinned\./,
		'a page pinned by another session is counted and reported');
	cmp_ok($p->{cached_pct}, '>', 0, 'in cached_pct too');
	$bg->query_safe('COMMIT');
	$bg->quit;
}
else
{
	is($pct, '100', "$ver: a cold run after a warm one says the whole table was cached");
	is($hit, $pages, 'as blks_hit shows: every page came from shared buffers');
	like($warnings,
		qr/^$pages of $pages pages were in shared buffers when the run began: PostgreSQL 1[56] cannot evict them\..*This run was not cold: 100\.0 % of its pages were cached\.$/,
		'the row says it was not cold, and why');
	like($err,
		qr/WARNING:  cold run of relation "small" was not cold: 100\.0 % of the pages were cached when it began.*HINT:  PostgreSQL before 17 cannot drop a relation's shared buffers: restart the server right before a cold run\./s,
		'a WARNING says so once, with how to get a cold run');
	my $ev = bs_row($node, "SELECT * FROM bench_cache_evict('small')");
	is($ev->{shared_buffers_mb_after}, $ev->{shared_buffers_mb_before},
		'bench_cache_evict cannot drop shared buffers either, and says how much stayed');
}

# The hint's way works on every version: after a restart the cold run is cold.
SKIP:
{
	skip "files on $fs cannot be evicted", 5 unless $evictable;
	$node->restart;
	my $c = bs_row($node,
		"SELECT * FROM bench_seqscan('small', cache => 'cold', label => 'small restarted')");
	is($c->{cached_pct}, '0', 'after a restart a cold run is cold');
	is($c->{warnings}, undef, 'with nothing to warn of');

	# bench_compare pairs a run that was not cold only with its like
	my $cmp = "SELECT cache || ' ' || baseline_runs || ' ' || candidate_runs FROM bench_compare('small warm first', 'small restarted'%s)";
	my ($r1, $o1, $e1) = $node->psql('postgres', sprintf($cmp, ''));
	my ($r2, $o2, $e2) = $node->psql('postgres', sprintf($cmp, ', mix_cold => true'));
	if ($ver >= 170000)
	{
		is($o1, 'cold 1 1', '17+: both runs were cold and compare');
		unlike($e1, qr/were not cold/, 'with no note');
		is($o2, 'cold 1 1', 'mix_cold changes nothing');
	}
	else
	{
		is($o1, '', 'the run that was not cold is not compared with the cold one');
		like($e1, qr/NOTICE:  1 of the cold runs compared were not cold.*HINT:  mix_cold => true compares them/s,
			'and a NOTICE says why, and how to compare them anyway');
		is($o2, 'cold 1 1', 'mix_cold => true compares them');
	}
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
		qr/WARNING:  cold run of relation "fresh" was not cold: [\d.]+ % of the pages were cached when it began.*DETAIL:  [\d.]+ MB stayed in the OS page cache after eviction\..*HINT:  fsync is off/s,
		'and warns that part of the relation stayed cached, naming fsync = off');
	$nofsync->stop;
}

done_testing();
