# A client that goes away: psql killed in the middle of a long
# bench_tablespace_io (two streams), bench_seqscan (repeated) and
# bench_query (a query that would run for ten minutes, and repeats).  Each
# backend notices within about a second that its client's socket closed,
# ends with "connection to client lost", leaves no file and no parallel
# worker behind, and records nothing.  Whether the run stopped early is
# shown by what it left, not by a clock: each would run for minutes and
# record its run if it went on to the end.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('client_gone', 'shared_buffers = 32MB');
$node->safe_psql('postgres', q{
	CREATE TABLE big AS SELECT g, repeat('x', 200) AS pad FROM generate_series(1, 100000) g;
	VACUUM ANALYZE big;
});
my $tmpdir = $node->data_dir . '/base/pgsql_tmp';

my @cases = (
	# 2 x 524288 writes of 512 bytes, each synced: minutes, with a one-block file
	[ 'tablespace_io', q{SELECT * FROM bench_tablespace_io('pg_default', size => '256MB', block_size => '512', tests => '{sync}', streams => 2, direct => false, duration => '10min', label => 'gone')} ],
	[ 'seqscan', q{SELECT * FROM bench_seqscan('big', cache => 'cold', repeat => 1000, label => 'gone')} ],
	[ 'query, one long run', q{SELECT * FROM bench_query('SELECT pg_sleep(600)', label => 'gone')} ],
	[ 'query, repeats', q{SELECT * FROM bench_query('SELECT count(*) FROM big', cache => 'cold', repeat => 1000, label => 'gone')} ],
);

for my $case (@cases)
{
	my ($what, $sql) = @$case;
	# no progress messages: a NOTICE written to the closed socket would
	# end the session by itself
	$sql = "SET benchstore.progress_interval = 0; $sql";
	my ($stdout, $stderr) = ('', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c', $sql ],
		'<', \undef, '>', \$stdout, '2>', \$stderr);
	my $pid = bs_backend_pid($node, substr($sql, 0, 80));
	# well into the run: the files written, the scans going
	usleep(500_000);
	$h->signal('KILL');
	eval { $h->finish; };
	ok($node->poll_query_until('postgres',
			"SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = $pid OR leader_pid = $pid"),
		"$what: the backend and its parallel workers end once the client is gone");
	like(slurp_file($node->logfile), qr/\[$pid\] .*FATAL:  connection to client lost/,
		"$what: the log says why");
	# (a run that went on to its end would have met the closed socket when
	# sending its result: "could not send data to client" first)
	unlike(slurp_file($node->logfile), qr/\[$pid\] .*could not send data to client/,
		"$what: stopped by the check, not by sending its result");
	is(scalar(bs_temp_files($tmpdir)), 0, "$what: no file left");
	is($node->safe_psql('postgres', "SELECT count(*) FROM bench_run WHERE label = 'gone'"),
		0, "$what: nothing recorded");
	# (a run that went on to its end would have recorded itself)
}

# The setting is the caller's again after a call (benchstore sets it only
# for its own duration), and a caller's own value is kept.
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM bench_seqscan('big', record => false);
	SHOW client_connection_check_interval}), '1' . "\n" . '0',
	'client_connection_check_interval: 0 again after a call');
is($node->safe_psql('postgres', q{
	SET client_connection_check_interval = '7s';
	SELECT count(*) FROM bench_query('SELECT current_setting(''client_connection_check_interval'')', record => false);
	SHOW client_connection_check_interval}), '1' . "\n" . '7s',
	'client_connection_check_interval: a caller\'s value kept');

unlike(slurp_file($node->logfile), qr/terminated by signal/, 'no backend crashed');
$node->stop;
done_testing();
