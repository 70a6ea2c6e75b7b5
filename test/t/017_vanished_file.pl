# A raw scan whose segment file is truncated or removed by hand under it
# (serial and with parallel workers, at depth 1 and at depth through
# io_uring): the run fails with a clear error (XX001, naming the relation
# and the file), records nothing, leaves no descriptor or temporary file
# behind, and the server goes on.  Without the check it would report the
# blocks that were left as a measurement of the whole relation.
#
# At depth the file is cut inside one of the last chunks of the scan, so
# that the read of that chunk comes back short after the scan has handed
# out its last chunk: where the engine re-queued the rest of a short read
# on a descriptor already closed, this failed with XX000 "Bad file
# descriptor" (or read another file that had reused the number).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('vanished', 'shared_buffers = 32MB',
	'max_worker_processes = 16', 'max_parallel_workers = 8');
my $base_tmp = $node->data_dir . '/base/pgsql_tmp';

# Depth needs io_uring; where it cannot be used, the depth cases are skipped
# (and say why).
my ($ret, $out, $err) = $node->psql('postgres', q{
	CREATE TABLE probe AS SELECT 1 AS g;
	SELECT count(*) FROM bench_seqscan('probe', 'raw', iodepth => 2, record => false)});
my $have_depth = $ret == 0;
note "io_uring not usable: $err" unless $have_depth;

# The descriptors a backend has open on a file (by path, removed or not),
# and its io_uring rings.
sub open_fds
{
	my ($pid, $file) = @_;
	my ($on_file, $rings) = (0, 0);
	opendir(my $dh, "/proc/$pid/fd") or die "/proc/$pid/fd: $!";
	foreach my $fd (readdir $dh)
	{
		next if $fd =~ /^\./;
		my $target = readlink("/proc/$pid/fd/$fd") // next;
		$on_file++ if $target eq $file || $target eq "$file (deleted)";
		$rings++ if $target =~ /io_uring/;
	}
	closedir($dh);
	return ($on_file, $rings);
}

# Each depth case whose short read must come back on a descriptor that is
# still open runs three times: the file is cut at a moment the test does
# not choose, which is inside a run's reads about half the time with
# workers (more often serially); the other times a later run finds the
# file short when it starts.
my @cases = (
	[ 'serial, truncated', 0, 'truncate', 1 ],
	[ 'serial, removed', 0, 'remove', 1 ],
	[ 'two workers, truncated', 2, 'truncate', 1 ],
	[ 'two workers, removed', 2, 'remove', 1 ],
	[ 'depth 8, serial, removed', 0, 'remove', 8 ],
	[ 'depth 8, two workers, removed', 2, 'remove', 8 ],
);
foreach my $attempt (1 .. 3)
{
	foreach my $depth (8, 32)
	{
		push @cases,
		  [ "depth $depth, serial, truncated ($attempt)", 0, 'truncate', $depth ],
		  [ "depth $depth, two workers, truncated ($attempt)", 2, 'truncate', $depth ];
	}
}
for my $case (@cases)
{
	my ($what, $workers, $how, $depth) = @$case;
  SKIP:
	{
		skip "$what: io_uring is not usable here", 5
		  if $depth > 1 && !$have_depth;

		# About 33 MB (33 chunks of 1 MB) at depth, 14 MB at depth 1.
		my $rows = $depth > 1 ? 145000 : 60000;
		$node->safe_psql('postgres', qq{
			DROP TABLE IF EXISTS v;
			CREATE TABLE v AS SELECT g, repeat('v', 200) AS pad FROM generate_series(1, $rows) g;
			CHECKPOINT});
		my $file = $node->data_dir . '/'
		  . $node->safe_psql('postgres', "SELECT pg_relation_filepath('v')");
		my $pages = $node->safe_psql('postgres',
			"SELECT pg_relation_size('v') / current_setting('block_size')::int");

		# Depth 1: half the file.  At depth: inside the second chunk from
		# the end (chunks of 128 pages of 8 kB), so that the short read
		# completes after the scan has handed out its last chunk.
		my $chunks = int(($pages + 127) / 128);
		my $keep = $depth > 1 ? ($chunks - 2) * 128 + 64 : int($pages / 2);

		# a call of many raw runs; the file changes once it has started
		my $bg = $node->background_psql('postgres', on_error_stop => 0);
		my $shape = "workers => $workers, iodepth => $depth";
		# one run first, whole: what the backend holds open after a call
		$bg->query_safe("SELECT count(*) FROM bench_seqscan('v', 'raw', record => false, $shape)");
		my $pid = $bg->query_safe('SELECT pg_backend_pid()');
		my ($fds_before, $rings_before) = open_fds($pid, $file);
		$bg->query_until(qr//, "\\set VERBOSITY verbose\n"
			  . "SELECT count(*) FROM bench_seqscan('v', 'raw', 'warm', 1000, label => 'vanished', $shape);\n");
		bs_backend_pid($node, "SELECT count(*) FROM bench_seqscan('v'");
		usleep(300_000);
		if ($how eq 'truncate')
		{
			truncate($file, $keep * 8192) or die "truncate $file: $!";
		}
		else
		{
			unlink($file) or die "unlink $file: $!";
		}
		$node->poll_query_until('postgres',
			"SELECT count(*) = 0 FROM pg_stat_activity WHERE (pid = $pid AND state = 'active') OR leader_pid = $pid")
		  or die 'the run did not end';
		$bg->query('SELECT 1');
		like($bg->{stderr},
			qr/ERROR:  XX001: relation "v" has fewer blocks on disk than when the call started\n(?:.*\n)?DETAIL:  Reading "[^"]+" found \d+ of its $pages blocks: a segment file was removed or truncated\./,
			"$what: the run fails, naming the relation and the file");
		unlike($bg->{stderr}, qr/Bad file descriptor|XX000/,
			"$what: no read on a closed descriptor");
		my ($fds_after, $rings_after) = open_fds($pid, $file);
		is("$fds_after $rings_after", "$fds_before $rings_before",
			"$what: no descriptor of the file or ring left open");
		$bg->quit;
		is($node->safe_psql('postgres', "SELECT count(*) FROM bench_run WHERE label = 'vanished'"),
			0, "$what: nothing recorded");
		is(join(' ', bs_temp_files($base_tmp)), '', "$what: no temporary file");
	}
}

my $log = slurp_file($node->logfile);
$node->safe_psql('postgres', 'DROP TABLE v');
is($node->safe_psql('postgres', q{
	CREATE TABLE w AS SELECT g FROM generate_series(1, 1000) g;
	CHECKPOINT;
	SELECT tuples FROM bench_seqscan('w', 'raw', record => false)}), 1000,
	'the server goes on: a raw scan of another table counts its rows');
unlike($log, qr/terminated by signal/, 'no backend crashed');
$node->stop;
done_testing();
