# A cache below the server, detected, on a rig whose truth is known: two
# tablespaces on ext4 filesystems on loop devices (built as root by
# test/lib.sh, bs_loop_rig_start).  Under "cached" the loop device reads
# its backing file through the page cache: a cache below the filesystem
# that this test controls.  Resident (the file's pages are in memory, as
# the test file's fill leaves them) the reads are the cache's and
# served_by says "cache below", with the devices' counts as evidence;
# with the backing file's pages dropped all along (dd iflag=nocache in a
# loop) they are the disk's, and it says "storage"; under "direct" (loop
# with direct I/O) there is no cache between the filesystem and the disk,
# and it says "storage".  The settings advice refuses to derive costs from
# the first and not from the others; bench_compare warns when it compares
# the first with the others.
use strict;
use utf8;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my ($cached, $cached_file, $direct) =
  @ENV{qw(BS_LOOP_CACHED BS_LOOP_CACHED_FILE BS_LOOP_DIRECT)};
if (!$cached || !$direct || !-d $cached || !-d $direct || !-r $cached_file)
{
	plan skip_all =>
	  'the loop-device rig is not set up (test/lib.sh builds it as root: BS_LOOP_CACHED, BS_LOOP_CACHED_FILE, BS_LOOP_DIRECT)';
}

# fsync on: with the test framework's fsync = off, a cold run's checkpoint
# writes nothing back and the eviction leaves the table's pages cached
my $node = bs_node('below', 'fsync = on');
mkdir "$cached/t023_$$" or die "mkdir: $!";
mkdir "$direct/t023_$$" or die "mkdir: $!";
# the devices' counts of every read test and cold run go to this test's
# log (DEBUG1 messages, on each psql's standard error)
$node->safe_psql('postgres', 'ALTER ROLE CURRENT_USER SET client_min_messages = debug1');
$node->safe_psql('postgres', qq{
	CREATE TABLESPACE spc_cached LOCATION '$cached/t023_$$';
	CREATE TABLESPACE spc_direct LOCATION '$direct/t023_$$';
});

# Drop the backing file's pages from the page cache every 10 ms while
# $code runs: whatever the loop device reads then comes from the disk.
sub with_backing_dropped
{
	my ($code) = @_;
	my $pid = fork();
	die "fork: $!" unless defined $pid;
	if ($pid == 0)
	{
		exec('sh', '-c',
			"while :; do dd if='$cached_file' iflag=nocache count=0 status=none; sleep 0.01; done"
		);
		exit 1;
	}
	my @r = eval { $code->() };
	my $err = $@;
	kill 'TERM', $pid;
	waitpid($pid, 0);
	die $err if $err;
	return @r;
}

sub io_rows
{
	my ($spc, $extra) = @_;
	$extra //= '';
	return bs_rows($node, qq{
		SELECT run, test, served_by, warnings FROM bench_tablespace_io('$spc',
			size => '64MB', tests => '{seqwrite,seqread,randread}',
			duration => '2s', record => false$extra)});
}

sub check_rows
{
	my ($what, $expect, @rows) = @_;
	foreach my $r (@rows)
	{
		my $name = "$what, run $r->{run}, $r->{test}";
		if ($r->{test} eq 'seqwrite')
		{
			is($r->{served_by}, undef, "$name: a write says nothing of where reads come from");
			next;
		}
		is($r->{served_by}, $expect, "$name: served by $expect");
		if ($expect eq 'cache below')
		{
			like($r->{warnings},
				qr/A cache below the server answered: loop\d+ read [0-9.]+ MB, but \S+ under it read [0-9.]+ MB: the page cache holding loop\d+'s backing file answered the rest\./,
				"$name: the evidence names the devices' counts and the loop device");
			unlike($r->{warnings}, qr/\Q$cached_file\E/,
				"$name: the backing file's path on the server is not shown");
		}
		else
		{
			unlike($r->{warnings} // '', qr/answered/,
				"$name: no cache below is said to have answered");
		}
	}
}

# 1. Resident: the fill leaves the backing file's pages in the page cache.
check_rows('cached loop, resident', 'cache below',
	io_rows('spc_cached', ', repeat => 2'));

# Through the page cache of the tablespace's own filesystem (direct =>
# false): the test evicts its file from it first, the loop device's cache
# below still answers.
check_rows('cached loop, resident, direct => false', 'cache below',
	io_rows('spc_cached', ', direct => false'));

# 2. Dropped all along: the loop device reads the disk.
check_rows('cached loop, dropped', 'storage',
	with_backing_dropped(sub { io_rows('spc_cached', ', repeat => 2') }));

# 3. A loop device with direct I/O: nothing between it and the disk.
check_rows('direct loop', 'storage', io_rows('spc_direct', ', repeat => 2'));

# The re-read after every direct read test ran (its verdict is timing and
# is reported by test/bench/cache_below.sh, not asserted here); where it
# says something, it says it whole.
foreach my $r (io_rows('spc_direct'), io_rows('spc_cached'))
{
	next unless ($r->{warnings} // '') =~ /keeps what is read/;
	like($r->{warnings},
		qr/the last \d+ blocks read again directly came [0-9.]+× as fast \([0-9.]+ → [0-9.]+ µs per block\)/,
		"$r->{test}: the re-read's evidence");
}

# Cold scans and cold queries of a table on each: raw mode reads its
# files through the page cache of the tablespace's filesystem, evicted
# first; the loop device's cache below answers while resident.
$node->safe_psql('postgres', q{
	CREATE TABLE t_cached TABLESPACE spc_cached AS
		SELECT g AS id, repeat(md5(g::text), 4) AS v FROM generate_series(1, 150000) g;
	CREATE TABLE t_direct TABLESPACE spc_direct AS SELECT * FROM t_cached;
});
sub cold_rows
{
	my ($table) = @_;
	# before 17 no call drops a live relation's shared buffers: start
	# with them empty, so that the cold query reads its table
	$node->restart;
	return (
		bs_row($node, qq{
			SELECT 'bench_seqscan' AS what, served_by, warnings
			  FROM bench_seqscan('$table', 'raw', 'cold', record => false)}),
		bs_row($node, qq{
			SELECT 'bench_query' AS what, served_by, warnings
			  FROM bench_query('SELECT count(*) FROM $table', cache => 'cold', record => false)}));
}
sub check_cold
{
	my ($what, $expect, @rows) = @_;
	foreach my $r (@rows)
	{
		is($r->{served_by}, $expect, "$what, cold $r->{what}: served by $expect");
		if ($expect eq 'cache below')
		{
			like($r->{warnings},
				qr/A cache below the server answered: loop\d+ read [0-9.]+ MB, but \S+ under it read [0-9.]+ MB: the page cache holding loop\d+'s backing file answered the rest\./,
				"$what, cold $r->{what}: the evidence");
			unlike($r->{warnings}, qr/\Q$cached_file\E/,
				"$what, cold $r->{what}: the backing file's path on the server is not shown");
		}
		else
		{
			unlike($r->{warnings} // '', qr/answered/,
				"$what, cold $r->{what}: no cache below is said to have answered");
		}
	}
}
check_cold('table on the cached loop, resident', 'cache below', cold_rows('t_cached'));
check_cold('table on the cached loop, dropped', 'storage',
	with_backing_dropped(sub { cold_rows('t_cached') }));
check_cold('table on the direct loop', 'storage', cold_rows('t_direct'));
is($node->safe_psql('postgres',
		q{SELECT served_by IS NULL FROM bench_seqscan('t_cached', 'raw', 'warm', record => false)}),
	't', 'a warm scan says nothing of where reads come from');
# A second cold query: before 17 its table stayed in shared buffers and
# nothing reached the devices, so nothing is said of where reads came
# from; from 17 on the table was evicted and read through the loop
# device's cache again.
{
	my $r = bs_row($node, q{
		SELECT cached_pct, served_by FROM bench_query('SELECT count(*) FROM t_cached',
			cache => 'cold', repeat => 2, record => false) WHERE run = 2});
	if ($node->safe_psql('postgres', 'SHOW server_version_num') < 170000)
	{
		is($r->{cached_pct}, 100, 'before 17, a second cold query finds its table in shared buffers');
		is($r->{served_by}, undef, 'and says nothing of where reads come from: none reached the devices');
	}
	else
	{
		is($r->{cached_pct}, 0, 'from 17 on, a second cold query finds its table evicted');
		is($r->{served_by}, 'cache below', 'and is served by the cache below again');
	}
}

# The working-set sweep: one row per doubling, each size's reads as
# bench_tablespace_io's randread says (its knees are timings, and are
# checked on known series in pg_regress, sql/tablespace_io.sql).
foreach my $case (['spc_cached', 'cache below'], ['spc_direct', 'storage'])
{
	my ($spc, $expect) = @$case;
	my $probe = qq{
		SELECT size_mb, served_by FROM bench_tablespace_cache_probe('$spc',
			max_size => '32MB', min_size => '8MB', duration => '1s', record => false)};
	my @p = bs_rows($node, $probe);
	# The bottom device (vda) is this machine's own disk: another process's
	# reads of it in one size's second count as the device's, and can make
	# the cache below look like storage (doc/methodology.md: a busy machine
	# can hide a cache, never invent one).  Such a size is probed once more;
	# a probe that cannot see the cache fails both times.
	if ($expect eq 'cache below' && grep { ($_->{served_by} // '') ne $expect } @p)
	{
		note('cache probe on ' . $spc . ': ' . join(',', map { $_->{served_by} // 'null' } @p)
			  . '; probing again');
		@p = bs_rows($node, $probe);
	}
	is(join(',', map { $_->{size_mb} } @p), '8,16,32', "cache probe on $spc: one row per doubling");
	is(join(',', map { $_->{served_by} } @p), join(',', ($expect) x 3),
		"cache probe on $spc: every size served by $expect");
}

# The history keeps served_by; bench_compare warns across provenances.
$node->safe_psql('postgres', q{
	SELECT count(*) FROM bench_tablespace_io('spc_cached', size => '32MB',
		tests => '{seqread}', repeat => 2, label => 'rig cached');
	SELECT count(*) FROM bench_tablespace_io('spc_direct', size => '32MB',
		tests => '{seqread}', repeat => 2, label => 'rig direct');
});
is( $node->safe_psql('postgres', q{
		SELECT string_agg(DISTINCT label || ': ' || served_by, ', ' ORDER BY label || ': ' || served_by)
		  FROM bench_history WHERE label IN ('rig cached', 'rig direct')}),
	'rig cached: cache below, rig direct: storage',
	'bench_history.served_by');
my ($ret, $out, $err) = $node->psql('postgres',
	q{SELECT verdict FROM bench_compare('rig direct', 'rig cached')});
is($ret, 0, 'bench_compare across provenances runs');
is($out, 'no verdict: a cache below the server answered the candidate',
	'a figure a cache below the server answered is never a winner');
like($err,
	qr/WARNING:  the figures compared were read from different places: seqread \(rig direct: storage, rig cached: cache below\)/,
	'bench_compare warns that one side was served by a cache below');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT count(*) FROM bench_compare('rig direct', 'rig direct')});
unlike($err, qr/different places/, 'no warning when both sides agree');

# 4. The advice: no cost from a cache, costs from storage.
my %advice = map {
	my $spc = $_;
	($spc => { map { $_->{setting} => $_ } bs_rows($node, qq{
		SELECT setting, suggested_value, evidence FROM bench_tablespace_advice('$spc',
			size => '32MB', duration => '1s', record => false, repeat => 1)}) });
} qw(spc_cached spc_direct);
foreach my $setting (qw(random_page_cost effective_io_concurrency))
{
	my $a = $advice{spc_cached}{$setting};
	is($a->{suggested_value}, undef, "advice on the cached loop: no $setting");
	like($a->{evidence},
		qr/^Nothing to suggest: a cache below the server served reads that were measured, so they time that cache, not the storage \((seqread|randread) of .*loop\d+ read/,
		"advice on the cached loop: $setting refused, naming the evidence");
	unlike($advice{spc_direct}{$setting}{evidence}, qr/cache below the server served/,
		"advice on the direct loop: $setting not refused for a cache below");
}

$node->safe_psql('postgres', q{
	SELECT bench_forget(label) FROM (VALUES ('rig cached'), ('rig direct')) v(label);
	DROP TABLE t_cached, t_direct;
	DROP TABLESPACE spc_cached;
	DROP TABLESPACE spc_direct;
});
$node->stop;
done_testing();
