# bench_tablespace_io on a tablespace in a temporary directory: the files
# land there and nowhere else, and none survives cancel, statement_timeout,
# pg_terminate_backend, or kill -9 of the backend and the restart after it.
# Concurrent sessions and concurrent tablespaces.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('tblspc_io', 'fsync = on', 'restart_after_crash = on',
	'max_worker_processes = 16',
	'max_parallel_workers = 12');
my $tsdir = PostgreSQL::Test::Utils::tempdir();
$node->safe_psql('postgres', "CREATE TABLESPACE io_ts LOCATION '$tsdir'");
my $base_tmp = $node->data_dir . '/base/pgsql_tmp';



# Direct I/O works here, or is refused with a clear error and a hint.
my $fs = bs_fs_type($tsdir);
my ($ret, $out, $err) = $node->psql('postgres', q{
	SELECT test, bytes FROM bench_tablespace_io('io_ts', size => '4MB', tests => '{seqwrite,seqread,randread}')});
if ($fs eq 'tmpfs')
{
	like($err, qr/does not support direct I\/O.*\n.*\n.*direct => false/s,
		'tmpfs: direct I/O refused with a hint');
}
else
{
	is($ret, 0, "direct I/O on $fs");
	like($out, qr/seqwrite\|4194304\nseqread\|4194304\nrandread\|\d+/, 'direct I/O rows');
	# The sync test opens its file as the server opens WAL: O_DIRECT only
	# for the open_* methods at wal_level minimal, so not here.
	my $method = $node->safe_psql('postgres', 'SHOW wal_sync_method');
	my $sync = $node->safe_psql('postgres', q{
		SELECT string_agg(test || ':' || direct, ',') FROM bench_tablespace_io('io_ts',
			size => '1MB', tests => '{seqwrite,sync}', duration => '100ms')});
	is($sync, 'seqwrite:true,sync:false',
		"sync test follows wal_sync_method ($method), not direct");
}

# A long run in two streams: its files are in io_ts's pgsql_tmp, not in
# the default tablespace's.
my $long = "SELECT * FROM bench_tablespace_io('io_ts', size => '512MB', streams => 2, "
  . "direct => false, tests => '{seqwrite,randwrite,randread}', duration => '60s')";
my $bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr//, "$long;\n");
ok(bs_wait_for_files($tsdir, 2), 'two streams have their files in the tablespace');
is(scalar(bs_temp_files($base_tmp)), 0, 'and none in the default tablespace');
my @files = bs_temp_files($tsdir);
like($files[0], qr{/PG_\d+_\d+/pgsql_tmp/pgsql_tmp\d+\.\d+$}, 'under the tablespace\'s pgsql_tmp');

# Cancel: the run stops, the files go.
my $pid = bs_backend_pid($node, "SELECT * FROM bench_tablespace_io('io_ts'");
$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
$bg->query('SELECT 1');
like($bg->{stderr}, qr/canceling statement due to user request/, 'cancel stops the run');
$bg->quit;
$node->poll_query_until('postgres',
	"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'parallel worker'");
is(scalar(bs_temp_files($tsdir)), 0, 'no file left after cancel');

# statement_timeout.
($ret, $out, $err) = $node->psql('postgres', "SET statement_timeout = '1s'; $long");
like($err, qr/canceling statement due to statement timeout/, 'statement_timeout stops the run');
$node->poll_query_until('postgres',
	"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'parallel worker'");
is(scalar(bs_temp_files($tsdir)), 0, 'no file left after statement_timeout');

# A run until steady state that never comes, preconditioning its files
# first: statement_timeout stops it, in the preconditioning or the test.
foreach my $timeout ('300ms', '3s')
{
	($ret, $out, $err) = $node->psql('postgres', "SET statement_timeout = '$timeout'; "
		  . "SELECT * FROM bench_tablespace_io('io_ts', size => '64MB', streams => 2, "
		  . "direct => false, tests => '{randwrite}', duration => '1h', "
		  . "until => 'steady', steady => 'iops:0.001%', preconditioning => true)");
	like($err, qr/canceling statement due to statement timeout/,
		"until steady, $timeout: statement_timeout stops the run");
	$node->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'parallel worker'");
	is(scalar(bs_temp_files($tsdir)), 0, "until steady, $timeout: no file left");
}

# pg_terminate_backend.
$bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr//, "$long;\n");
ok(bs_wait_for_files($tsdir, 2), 'files there before termination');
$pid = bs_backend_pid($node, "SELECT * FROM bench_tablespace_io('io_ts'");
$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
$node->poll_query_until('postgres',
	"SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = $pid OR backend_type = 'parallel worker'");
eval { $bg->quit; };
is(scalar(bs_temp_files($tsdir)), 0, 'no file left after pg_terminate_backend');

# kill -9 of the backend in the middle of writing: the postmaster resets
# the cluster, and the files are removed as it restarts.
$bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr//, "$long;\n");
ok(bs_wait_for_files($tsdir, 2), 'files there before the crash');
$pid = bs_backend_pid($node, "SELECT * FROM bench_tablespace_io('io_ts'");
bs_crash_backend($node, $pid);
eval { $bg->quit; };
is(scalar(bs_temp_files($tsdir)), 0, 'no file left after kill -9 and restart');
is(scalar(bs_temp_files($base_tmp)), 0, 'nor in the default tablespace');

# Two sessions at once in one tablespace: their files do not collide.
my $s1 = $node->background_psql('postgres');
my $s2 = $node->background_psql('postgres');
my $q = "SELECT 'result:' || string_agg(test || ':' || bytes, ',') FROM bench_tablespace_io('io_ts', "
  . "size => '256MB', direct => false, tests => '{seqwrite,seqread}')";
$s1->query_until(qr//, "$q;\n");
$s2->query_until(qr//, "$q;\n");
ok(bs_wait_for_files($tsdir, 2), 'two sessions write their files at the same time');
my $r1 = $s1->query_until(qr/result:.*\n/, '');
my $r2 = $s2->query_until(qr/result:.*\n/, '');
like($r1, qr/result:seqwrite:268435456,seqread:268435456/, 'first session ran in full');
like($r2, qr/result:seqwrite:268435456,seqread:268435456/, 'second session ran in full');
$s1->quit;
$s2->quit;
is(scalar(bs_temp_files($tsdir)), 0, 'both sessions cleaned up');

# Several tablespaces at once: rows per tablespace and a total.
my @rows = bs_rows($node, q{
	SELECT * FROM bench_tablespaces_io('{pg_default,io_ts}', size => '16MB', streams => 2,
		direct => false, tests => '{seqwrite,seqread}')});
is(scalar(@rows), 6, 'two tablespaces and a total, for two tests');
foreach my $test (qw(seqwrite seqread))
{
	my %by = map { $_->{tablespace} => $_ } grep { $_->{test} eq $test } @rows;
	is($by{pg_default}{bytes}, 2 * 16 * 1048576, "$test: pg_default bytes");
	is($by{io_ts}{bytes}, 2 * 16 * 1048576, "$test: io_ts bytes");
	is($by{total}{bytes}, 4 * 16 * 1048576, "$test: total bytes");
	is($by{total}{streams}, 4, "$test: total streams");
	cmp_ok($by{total}{elapsed_ms}, '>=',
		($by{pg_default}{elapsed_ms} > $by{io_ts}{elapsed_ms}
			? $by{pg_default}{elapsed_ms} : $by{io_ts}{elapsed_ms}) - 0.001,
		"$test: the total spans both tablespaces");
}

# Fewer workers than streams: the run goes on with what it got, and says so.
($ret, $out, $err) = $node->psql('postgres', q{
	SET max_parallel_workers = 1;
	SELECT streams, bytes FROM bench_tablespace_io(size => '4MB', streams => 4,
		direct => false, tests => '{seqwrite}')});
is($out, '2|8388608', 'two of four streams ran');
like($err, qr/NOTICE:  2 of 4 streams started/, 'with a NOTICE');

is(scalar(bs_temp_files($tsdir)) + scalar(bs_temp_files($base_tmp)), 0, 'nothing left at the end');

# A temporary file that cannot be created (no write permission in the
# tablespace's pgsql_tmp, nor in the default one to fall back to): the
# error is PostgreSQL's, and a caller that catches it gets its own
# temp_tablespaces back.  A temporary table created after the caught error,
# in the same transaction, goes where temp_tablespaces (empty) says: the
# default tablespace, not the benchmark's.
my $ts_tmp = (glob("$tsdir/PG_*/pgsql_tmp"))[0];
ok(defined $ts_tmp && -d $ts_tmp, "the tablespace's pgsql_tmp exists");
ok(-d $base_tmp, "the default pgsql_tmp exists");
chmod 0500, $ts_tmp, $base_tmp;
($ret, $out, $err) = $node->psql('postgres', q{
	BEGIN;
	DO $$
	BEGIN
		PERFORM * FROM bench_tablespace_io('io_ts', size => '1MB', direct => false,
										   tests => '{seqwrite}', record => false);
	EXCEPTION WHEN OTHERS THEN
		RAISE NOTICE 'caught: %', SQLERRM;
	END $$;
	CREATE TEMP TABLE after_the_error (x integer);
	SELECT reltablespace FROM pg_class WHERE relname = 'after_the_error';
	COMMIT;});
chmod 0700, $ts_tmp, $base_tmp;
like($err, qr/caught: could not create temporary file/, 'the error reached the caller');
is($out, '0', "temp_tablespaces put back after the error: the caller's temporary table is in the default tablespace");

$node->stop;
done_testing();
