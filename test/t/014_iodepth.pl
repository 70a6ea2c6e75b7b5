# Queue depth (io_uring): bench_tablespace_io and raw scans with many
# operations in flight count every operation once, say their depth, and
# keep every guarantee of depth 1: no file survives cancel,
# statement_timeout, pg_terminate_backend, or kill -9 and the restart; a
# thousand calls, and a hundred cancelled ones, leave the backend's open
# descriptors and memory where they were.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('iodepth', 'fsync = on', 'restart_after_crash = on',
	'max_worker_processes = 16', 'max_parallel_workers = 12',
	'track_io_timing = on');
my $tsdir = PostgreSQL::Test::Utils::tempdir();
$node->safe_psql('postgres', "CREATE TABLESPACE depth_ts LOCATION '$tsdir'");
my $base_tmp = $node->data_dir . '/base/pgsql_tmp';

# io_uring must be usable here; where it is not, say why (and the run
# fails: an unexpected skip).
my ($ret, $out, $err) = $node->psql('postgres', q{
	SELECT count(*) FROM bench_tablespace_io(size => '64kB', direct => false,
		tests => '{seqwrite}', iodepth => 2, record => false)});
if ($ret != 0)
{
	plan skip_all => "io_uring is not usable here: $err";
}

# Every test at depth 8, bounded by size: every block once, and the depth
# in the row; sync stays at depth 1 and a NOTICE says so.
my $mb8 = 8 * 1048576;
my @rows = bs_rows($node, q{
	SELECT * FROM bench_tablespace_io('depth_ts', size => '8MB', direct => false,
		tests => '{seqwrite,seqread,randread,randwrite}', duration => '600s',
		iodepth => 8)});
is(scalar(@rows), 4, 'four rows');
foreach my $r (@rows)
{
	is($r->{bytes}, $mb8, "$r->{test} at depth 8: every block once");
	is($r->{iodepth}, 8, "$r->{test}: iodepth column");
	ok(defined $r->{lat_p50_us} && $r->{lat_p50_us} <= $r->{lat_p99_us}
		  && $r->{lat_p99_us} <= $r->{lat_max_us} + 0.1,
		"$r->{test}: latency percentiles in order");
}
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT test || ':' || iodepth FROM bench_tablespace_io('depth_ts', size => '1MB',
		direct => false, tests => '{seqwrite,sync}', duration => '200ms', iodepth => 16,
		record => false)});
is($out, "seqwrite:16\nsync:1", 'sync runs at depth 1, the others at the depth asked');
like($err, qr/NOTICE:  the sync test runs at iodepth 1/, 'and a NOTICE says so');

# Direct I/O at depth where the filesystem has it.
SKIP:
{
	my $fs = bs_fs_type($tsdir);
	skip "direct I/O: the test directory is on $fs", 2 if $fs eq 'tmpfs';
	my $d = bs_row($node, q{
		SELECT string_agg(test || ':' || bytes, ',') AS r, bool_and(direct) AS direct
		FROM bench_tablespace_io('depth_ts', size => '4MB', block_size => '64kB',
			tests => '{seqwrite,seqread,randread}', duration => '600s', iodepth => 32)});
	is($d->{r}, 'seqwrite:4194304,seqread:4194304,randread:4194304',
		'direct I/O at depth 32: every block once');
	ok($d->{direct}, 'direct I/O used');
}

# Streams in parallel workers, each with its own ring, and several
# tablespaces.
@rows = bs_rows($node, q{
	SELECT * FROM bench_tablespaces_io('{pg_default,depth_ts}', size => '4MB',
		streams => 2, direct => false, tests => '{seqwrite,randread}',
		duration => '600s', iodepth => 4)});
is(scalar(@rows), 6, 'two tablespaces and a total, for two tests');
foreach my $r (@rows)
{
	my $want = $r->{tablespace} eq 'total' ? 4 : 2;
	is($r->{bytes}, $want * 4 * 1048576, "$r->{tablespace} $r->{test}: bytes of its streams");
	is($r->{iodepth}, 4, "$r->{tablespace} $r->{test}: iodepth");
}

# The history keeps the depth; bench_compare pairs runs on it.
$node->safe_psql('postgres', q{
	SELECT count(*) FROM bench_tablespace_io(size => '1MB', direct => false,
		tests => '{randread}', duration => '1s', label => 'd1', iodepth => 1) , generate_series(1, 2);
	SELECT count(*) FROM bench_tablespace_io(size => '1MB', direct => false,
		tests => '{randread}', duration => '1s', label => 'd8', iodepth => 8), generate_series(1, 2);
	SELECT count(*) FROM bench_tablespace_io(size => '1MB', direct => false,
		tests => '{randread}', duration => '1s', label => 'd8b', iodepth => 8), generate_series(1, 2);});
is($node->safe_psql('postgres',
	"SELECT string_agg(DISTINCT label || ':' || iodepth, ',') FROM bench_history WHERE label IN ('d1', 'd8')"),
	'd1:1,d8:8', 'bench_history.iodepth');
is($node->safe_psql('postgres', "SELECT count(*) FROM bench_compare('d1', 'd8')"),
	'0', 'runs at different depths are not compared');
is($node->safe_psql('postgres',
	"SELECT string_agg(DISTINCT iodepth::text, ',') FROM bench_compare('d8', 'd8b')"),
	'8', 'runs at one depth are, and the depth is shown');

# Raw scans at depth: the same pages and tuples as depth 1 and count(*),
# serial and parallel, warm and cold.
$node->safe_psql('postgres', q{
	CREATE TABLE r AS SELECT g AS id, repeat('x', 100) AS pad FROM generate_series(1, 200000) g;
	VACUUM (FREEZE, ANALYZE) r;
	CHECKPOINT;});
my $count = $node->safe_psql('postgres', 'SELECT count(*) FROM r');
my $pages = $node->safe_psql('postgres', "SELECT pg_relation_size('r') / current_setting('block_size')::int");
foreach my $case ("'warm', iodepth => 1", "'warm', iodepth => 32", "'cold', iodepth => 8",
	"'warm', iodepth => 8, workers => 3", "'cold', iodepth => 4, workers => 2")
{
	my $r = bs_row($node, "SELECT * FROM bench_seqscan('r', 'raw', $case, record => false)");
	is($r->{pages}, $pages, "raw ($case): pages");
	is($r->{tuples}, $count, "raw ($case): tuples = count(*)");
	ok(defined $r->{read_ms}, "raw ($case): read time with track_io_timing");
}

# The bound on the I/O buffers counts every engine a call holds at once,
# the caller's included: the largest raw scan it allows (iodepth 256 × 1 MB
# × 4 processes = 1 GB) runs, and no process holds more than one engine at
# a time, so that what is mapped at once is within the bound.  Each engine
# created says at DEBUG1 what its process holds; workers' messages come to
# the caller with the context "parallel worker" (which psql shows for
# every message with SHOW_CONTEXT always).  Two runs: the caller keeps one
# engine for the call, each run's workers have their own.  The same for
# bench_tablespace_io at its bound (4 streams of 256 × 1 MB).
my $bound = 1024 * 1048576;

# The engines created, in the caller and in workers, from psql's stderr.
sub engines_created
{
	my ($stderr) = @_;
	my (@caller, @workers);
	$stderr .= "\n";    # psql() chomps it
	while ($stderr =~ /^(?:psql:\S+ )?DEBUG:  benchstore: I\/O engine of (\d+) buffers of (\d+) bytes created; I\/O engines held by this process: (\d+), with (\d+) bytes of buffers\n(CONTEXT:  parallel worker\n)?/mg)
	{
		my $e = { size => $1 * $2, engines => $3, bytes => $4 };
		push @{ defined $5 ? \@workers : \@caller }, $e;
	}
	return (\@caller, \@workers);
}

sub max_bytes
{
	my $max = 0;
	foreach my $e (@_) { $max = $e->{bytes} if $e->{bytes} > $max; }
	return $max;
}

foreach my $call (
	[ 'raw scan, iodepth 256, 3 workers, 2 runs', 3, 1, 6,
		"SELECT string_agg(pages || ':' || workers_launched, ',')
		 FROM bench_seqscan('r', 'raw', iodepth => 256, workers => 3, repeat => 2, record => false)",
		"$pages:3,$pages:3" ],
	[ 'bench_tablespace_io, iodepth 256, 4 streams of 1 MB blocks', 3, 1, 3,
		"SELECT string_agg(streams || ':' || bytes, ',')
		 FROM bench_tablespace_io('depth_ts', size => '4MB', block_size => '1MB', streams => 4,
			direct => false, tests => '{seqwrite}', iodepth => 256, record => false)",
		'4:' . (16 * 1048576) ])
{
	my ($what, $nworkers, $ncaller, $nworker_engines, $sql, $want) = @$call;
	($ret, $out, $err) = $node->psql('postgres',
		"\\set SHOW_CONTEXT always\nSET client_min_messages = debug1;\n$sql");
	is($out, $want, "$what: runs within the bound") or diag($err);
	my ($caller, $workers) = engines_created($err);
	is(scalar(@$caller), $ncaller, "$what: the caller creates one engine for the call")
	  or diag($err);
	is(scalar(@$workers), $nworker_engines, "$what: each worker one");
	is(join(',', map { "$_->{engines}:$_->{size}" } @$caller, @$workers),
		join(',', ('1:' . 256 * 1048576) x (@$caller + @$workers)),
		"$what: each engine 256 × 1 MB, and no process holds two at once");
	cmp_ok(max_bytes(@$caller) + $nworkers * max_bytes(@$workers), '<=', $bound,
		"$what: the buffers mapped at once (the caller's and $nworkers workers') are within 1 GB");
}

# one step beyond is refused before anything is mapped
($ret, $out, $err) = $node->psql('postgres', q{
	SET client_min_messages = debug1;
	SELECT count(*) FROM bench_seqscan('r', 'raw', iodepth => 205, workers => 4, record => false)});
like($err, qr/ERROR:  the I\/O buffers of this run would take 1025 MB, more than the limit of 1024 MB/,
	'iodepth 205 with 4 workers is refused, naming the bound');
unlike($err, qr/I\/O engine of/, 'and no engine was created');

# Cancel, statement_timeout, pg_terminate_backend and kill -9 with
# operations in flight: no file is left.

sub no_workers
{
	$node->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'parallel worker'");
}

my $long = "SELECT * FROM bench_tablespace_io('depth_ts', size => '512MB', streams => 2, "
  . "direct => false, tests => '{seqwrite,randwrite,randread}', duration => '60s', iodepth => 32)";

my $bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr//, "$long;\n");
ok(bs_wait_for_files($tsdir, 2), 'two streams at depth have their files');
my $pid = bs_backend_pid($node, "SELECT * FROM bench_tablespace_io('depth_ts'");
$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
$bg->query('SELECT 1');
like($bg->{stderr}, qr/canceling statement due to user request/, 'cancel stops a run at depth');
$bg->quit;
no_workers();
is(scalar(bs_temp_files($tsdir)), 0, 'no file left after cancel');

($ret, $out, $err) = $node->psql('postgres', "SET statement_timeout = '1s'; $long");
like($err, qr/canceling statement due to statement timeout/, 'statement_timeout stops a run at depth');
no_workers();
is(scalar(bs_temp_files($tsdir)), 0, 'no file left after statement_timeout');

$bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr//, "$long;\n");
ok(bs_wait_for_files($tsdir, 2), 'files there before termination');
$pid = bs_backend_pid($node, "SELECT * FROM bench_tablespace_io('depth_ts'");
$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
$node->poll_query_until('postgres',
	"SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = $pid OR backend_type = 'parallel worker'");
eval { $bg->quit; };
is(scalar(bs_temp_files($tsdir)), 0, 'no file left after pg_terminate_backend');

$bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr//, "$long;\n");
ok(bs_wait_for_files($tsdir, 2), 'files there before the crash');
$pid = bs_backend_pid($node, "SELECT * FROM bench_tablespace_io('depth_ts'");
bs_crash_backend($node, $pid);
eval { $bg->quit; };
is(scalar(bs_temp_files($tsdir)), 0, 'no file left after kill -9 and restart');
is(scalar(bs_temp_files($base_tmp)), 0, 'nor in the default tablespace');

# A raw scan at depth cancelled: the session goes on.
($ret, $out, $err) = $node->psql('postgres', q{
	SET statement_timeout = '50ms';
	SELECT * FROM bench_seqscan('r', 'raw', iodepth => 64, repeat => 1000, record => false)});
like($err, qr/canceling statement due to statement timeout/, 'a raw scan at depth is cancelled');

# A thousand calls in one backend, and a hundred cancelled with operations
# in flight: its descriptors and memory stay where they were.
my $s = $node->background_psql('postgres', on_error_stop => 0);
my $bpid = $s->query_safe('SELECT pg_backend_pid()');
chomp $bpid;
my $mem_sql = 'SELECT sum(total_bytes) FROM pg_backend_memory_contexts';
# (catalog files a first query opens stay open in PostgreSQL's file cache:
# not counted)
sub fd_targets
{
	return grep { !m{/(?:base/\d+|global)/\d{1,4}$} }
	  map { readlink($_) // '?' } glob("/proc/$bpid/fd/*");
}
sub open_fds { my @fds = fd_targets(); return scalar(@fds); }
# the engines' buffers are mapped outside the memory contexts: the
# backend's address space shows them (kB)
sub vm_size
{
	open(my $fh, '<', "/proc/$bpid/status") or die "/proc/$bpid/status: $!";
	my ($kb) = map { /^VmSize:\s+(\d+) kB/ ? $1 : () } <$fh>;
	close($fh);
	return $kb;
}
# one call of each first: what the first call sets up once stays
$s->query_safe(q{
	SELECT count(*) FROM bench_tablespace_io(size => '64kB', direct => false,
		tests => '{seqwrite,randread}', duration => '1s', iodepth => 8, record => false)});
$s->query_safe("SELECT count(*) FROM bench_seqscan('r', 'raw', iodepth => 8, record => false)");
# and a cancelled one, and the memory query itself (PostgreSQL keeps the
# catalog files a first query opens)
$s->query(q{
	SET statement_timeout = '20ms';
	SELECT count(*) FROM bench_tablespace_io(size => '1GB', direct => false,
		tests => '{seqwrite}', iodepth => 32, record => false);
	});
$s->query('RESET statement_timeout');
$s->{stderr} = '';
$s->query_safe($mem_sql);
$s->query_safe('DO $$ BEGIN PERFORM 1; END $$');
my $fds0 = open_fds();
my @targets0 = fd_targets();
my $mem0 = $s->query_safe($mem_sql);
my $vm0 = vm_size();
$s->query_safe(q{
	DO $$
	BEGIN
		FOR i IN 1 .. 1000 LOOP
			PERFORM * FROM bench_tablespace_io(size => '64kB', direct => false,
				tests => '{seqwrite,randread}', duration => '1s', iodepth => 8, record => false);
		END LOOP;
		FOR i IN 1 .. 200 LOOP
			PERFORM * FROM bench_seqscan('r', 'raw', iodepth => 8, record => false);
		END LOOP;
	END $$});
my $cancelled = 0;
for my $i (1 .. 100)
{
	$s->{stderr} = '';
	$s->query(q{
		SET statement_timeout = '20ms';
		SELECT count(*) FROM bench_tablespace_io(size => '1GB', direct => false,
			tests => '{seqwrite}', iodepth => 32, record => false);
		});
	$cancelled++ if $s->{stderr} =~ /canceling statement due to statement timeout/;
	$s->query('RESET statement_timeout');
}
is($cancelled, 100, 'a hundred runs at depth cancelled mid-flight');
$s->{stderr} = '';
is(open_fds(), $fds0, 'after 1,200 calls and 100 cancelled: the same open descriptors')
  or diag("before: @targets0\nafter: " . join(' ', fd_targets()));
my $mem1 = $s->query_safe($mem_sql);
cmp_ok($mem1, '<=', $mem0 + 256 * 1024,
	"and the same memory ($mem0 bytes before, $mem1 after)");
my $vm1 = vm_size();
cmp_ok($vm1, '<=', $vm0 + 32 * 1024,
	"and the same address space, the engines' buffers unmapped ($vm0 kB before, $vm1 after)");
$s->quit;
is(scalar(bs_temp_files($tsdir)) + scalar(bs_temp_files($base_tmp)), 0, 'nothing left at the end');


# Settings advice measured here: every measurement it needs is taken with
# direct I/O and recorded under one label, the advice beside them; derived
# again from that label it gives the same suggestions; applied and undone
# the tablespace's options are back as they were; cancelled, it leaves no
# file and records nothing.
SKIP:
{
	my $fs = bs_fs_type($tsdir);
	skip "settings advice: direct I/O, and the test directory is on $fs", 13 if $fs eq 'tmpfs';
	my $ver = $node->safe_psql('postgres', 'SHOW server_version_num');
	my @adv = bs_rows($node, q{
		SELECT * FROM bench_tablespace_advice('depth_ts', size => '4MB', duration => '50ms',
			label => 'adv measured', cache_hit_share => 0.5)});
	is(join(',', map { $_->{setting} } @adv),
		'random_page_cost,effective_io_concurrency,maintenance_io_concurrency'
		  . ($ver >= 170000 ? ',io_combine_limit' : ''),
		'advice: one row per setting');
	my $ok = 1;
	foreach my $r (@adv)
	{
		$ok = 0 unless defined $r->{suggested_value}
		  ? $r->{statement} =~ /^ALTER (TABLESPACE depth_ts SET \(\Q$r->{setting}\E = |SYSTEM SET )/
		  : (!defined $r->{statement} && $r->{evidence} =~ /^Nothing to suggest: /);
	}
	ok($ok, 'advice: a statement with each suggestion, the reason without')
	  or diag explain \@adv;
	my $depths = $node->safe_psql('postgres', q{
		SELECT string_agg(d::text, ',' ORDER BY d)
		FROM (SELECT DISTINCT iodepth AS d FROM bench_history
			  WHERE label = 'adv measured #2' AND test = 'randread'
				AND block_size = '8kB' AND direct) x});
	is($depths, '1,2,4,8,16,32,64,128', 'advice: random reads measured at depths 1 .. 128, direct');
	is($node->safe_psql('postgres', q{
		SELECT string_agg(label, ',' ORDER BY label) FROM (
			SELECT DISTINCT label FROM bench_history
			WHERE label LIKE 'adv measured%' AND benchmark = 'tablespace_io') l}),
		'adv measured #1,adv measured #2,adv measured #3',
		'advice: three sets of measurements (repeat => 3), each under its own label');
	is($node->safe_psql('postgres', q{
		SELECT bool_and(evidence LIKE '% One set of measurements: how much the figure moves between runs is not known (repeat => 3 shows it).')
		FROM bench_tablespace_advice('depth_ts', size => '4MB', duration => '50ms', repeat => 1,
									 record => false, cache_hit_share => 0.5)}),
		't', 'advice: one set measured (repeat => 1) says its spread is unknown');
	my $seq = $node->safe_psql('postgres', q{
		SELECT string_agg(DISTINCT block_size, ',')
		FROM bench_history WHERE label = 'adv measured #1' AND test = 'seqread' AND direct});
	like($seq, qr/(^|,)128kB(,|$)/, "advice: sequential reads in 128 kB blocks ($seq)");
	is($node->safe_psql('postgres', q{
		SELECT count(*) FROM bench_run WHERE label = 'adv measured' AND benchmark = 'tablespace_advice'}),
		1, 'advice: recorded under the label');
	my $again = $node->safe_psql('postgres', q{
		SELECT string_agg(setting || '=' || coalesce(suggested_value, '-'), ' ')
		FROM bench_tablespace_advice('depth_ts', label => 'adv measured', cache_hit_share => 0.5,
			record => false)});
	is($again, join(' ', map { "$_->{setting}=" . ($_->{suggested_value} // '-') } @adv),
		'advice: derived again from the recorded measurements, the same suggestions');
	my $before = $node->safe_psql('postgres', q{
		ALTER TABLESPACE depth_ts SET (seq_page_cost = 1.25);
		SELECT spcoptions FROM pg_tablespace WHERE spcname = 'depth_ts'});
	$node->safe_psql('postgres', q{
		SET client_min_messages = warning;
		SELECT count(*) FROM bench_apply_advice('depth_ts', 'adv measured');
		SELECT count(*) FROM bench_undo_advice('depth_ts')});
	is($node->safe_psql('postgres', "SELECT spcoptions FROM pg_tablespace WHERE spcname = 'depth_ts'"),
		$before, 'advice: applied and undone, the options are as before');
	$node->safe_psql('postgres', 'ALTER TABLESPACE depth_ts RESET (seq_page_cost)');
	is(scalar(bs_temp_files($tsdir)), 0, 'advice: no file left');

	($ret, $out, $err) = $node->psql('postgres', q{
		SET statement_timeout = '1500ms';
		SELECT count(*) FROM bench_tablespace_advice('depth_ts', size => '256MB', duration => '2s',
			label => 'adv cancelled')});
	like($err, qr/canceling statement due to statement timeout/, 'advice: cancelled by statement_timeout');
	is(scalar(bs_temp_files($tsdir)), 0, 'advice cancelled: no file left');
	is($node->safe_psql('postgres', q{SELECT count(*) FROM bench_run WHERE label = 'adv cancelled'}),
		0, 'advice cancelled: nothing recorded');
}

$node->stop;
done_testing();
