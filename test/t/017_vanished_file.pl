# A raw scan whose segment file is truncated or removed by hand under it
# (serial and with parallel workers): the run fails with a clear error
# (XX001, naming the relation and the file), records nothing, and the
# server goes on.  Without the check it would report the blocks that were
# left as a measurement of the whole relation.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('vanished', 'shared_buffers = 32MB');

my @cases = (
	[ 'serial, truncated', 0, 'truncate' ],
	[ 'serial, removed', 0, 'remove' ],
	[ 'two workers, truncated', 2, 'truncate' ],
	[ 'two workers, removed', 2, 'remove' ],
);
for my $case (@cases)
{
	my ($what, $workers, $how) = @$case;
	$node->safe_psql('postgres', q{
		DROP TABLE IF EXISTS v;
		CREATE TABLE v AS SELECT g, repeat('v', 200) AS pad FROM generate_series(1, 60000) g;
		CHECKPOINT});
	my $file = $node->data_dir . '/'
	  . $node->safe_psql('postgres', "SELECT pg_relation_filepath('v')");
	my $pages = $node->safe_psql('postgres', "SELECT pg_relation_size('v') / current_setting('block_size')::int");

	# a call of many raw runs; the file changes once it has started
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//, "\\set VERBOSITY verbose\n"
		  . "SELECT count(*) FROM bench_seqscan('v', 'raw', 'warm', 1000, label => 'vanished', workers => $workers);\n");
	my $pid = bs_backend_pid($node, "SELECT count(*) FROM bench_seqscan('v'");
	usleep(300_000);
	if ($how eq 'truncate')
	{
		truncate($file, int($pages / 2) * 8192) or die "truncate $file: $!";
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
	$bg->quit;
	is($node->safe_psql('postgres', "SELECT count(*) FROM bench_run WHERE label = 'vanished'"),
		0, "$what: nothing recorded");
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
