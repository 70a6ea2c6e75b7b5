# Load: 16 pgbench clients for BS_LOAD_SECONDS (default 30; the issue's
# full run is 120) looping every benchmark with small sizes and recording
# on (bench_seqscan warm, cold and with workers, bench_query,
# bench_tablespace_io, bench_record), while other transactions of the same
# run call bench_compare and bench_forget (of their own label), VACUUM FULL
# the history tables, VACUUM FULL the scanned table and move it between
# tablespaces, and pg_dump dumps the database in a loop beside them.
#
# Passes when no client hit an error (pgbench stops a client at its first
# error, deadlocks included), every recorded call is in the history
# exactly once with a run id of its own, the history is whole
# (every run has its result rows), every scan counted the table's rows
# although the table was rewritten and moved under the load, every pg_dump
# succeeded, and no backend crashed.
#
# "Exactly once" is counted on the server, not against pgbench's report:
# each recording transaction also inserts a row into a ledger table, and
# the history must hold one run per ledger row.  pgbench's own count of
# transactions after -T leaves out the ones in flight when its timer fires
# (the server may still commit them), so it is only a lower bound.  Then DROP TABLE and TRUNCATE against
# a scan, each way round: they wait or fail cleanly.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $seconds = $ENV{BS_LOAD_SECONDS} // 30;
my $node = bs_node('load', 'shared_buffers = 64MB', 'max_connections = 40',
	'max_worker_processes = 16', 'max_parallel_workers = 8',
	"benchstore.progress_interval = 0");
my $tsdir = PostgreSQL::Test::Utils::tempdir;
$node->safe_psql('postgres', qq{
	CREATE TABLESPACE load_ts LOCATION '$tsdir';
	CREATE TABLE load_t AS SELECT g, repeat('l', 100) AS pad FROM generate_series(1, 20000) g;
	VACUUM ANALYZE load_t;
	-- one run under the label before the load, for bench_compare
	SELECT bench_record('outside', 'load', '{"mb_per_s": 1}', 'load');
	-- one row per committed recording transaction of the load
	CREATE TABLE load_ledger (script text NOT NULL);
});

my $dir = PostgreSQL::Test::Utils::tempdir;
my %scripts = (
	# weight, recording?, body
	seqscan_warm => [ 20, 1, q{SELECT count(*) FROM bench_seqscan('load_t', label => 'load');} ],
	seqscan_cold => [ 5, 1, q{SELECT count(*) FROM bench_seqscan('load_t', cache => 'cold', label => 'load');} ],
	seqscan_workers => [ 5, 1, q{SELECT count(*) FROM bench_seqscan('load_t', 'raw', workers => 2, label => 'load');} ],
	query => [ 10, 1, q{SELECT count(*) FROM bench_query('SELECT count(*) FROM load_t', repeat => 2, label => 'load');} ],
	tablespace_io => [ 5, 1, q{SELECT count(*) FROM bench_tablespace_io('load_ts', size => '1MB', tests => '{seqwrite,seqread,randread}', direct => false, duration => '50ms', label => 'load');} ],
	record => [ 5, 1, q{SELECT bench_record('outside', 'load', '{"mb_per_s": 1}', 'load');} ],
	compare => [ 5, 0, q{SELECT count(*) FROM bench_compare('load', 'load');} ],
	forget => [ 3, 0, qq{SELECT bench_record('outside', 'forget-me', '{"x": 1}', 'load-forget');\nSELECT * FROM bench_forget('load-forget');} ],
	vacuum_history => [ 1, 0, qq{VACUUM FULL bench_result;\nVACUUM FULL bench_run;} ],
	rewrite_table => [ 1, 0, qq{VACUUM FULL load_t;} ],
	move_table => [ 1, 0, qq{ALTER TABLE load_t SET TABLESPACE load_ts;\nALTER TABLE load_t SET TABLESPACE pg_default;} ],
);
my @files;
for my $name (sort keys %scripts)
{
	my ($weight, $recording, $body) = @{ $scripts{$name} };
	# a recording call and its ledger row commit together, or neither does
	$body = "BEGIN;\n$body\nINSERT INTO load_ledger VALUES ('$name');\nCOMMIT;"
	  if $recording;
	PostgreSQL::Test::Utils::append_to_file("$dir/$name.sql", "$body\n");
	push @files, '-f', "$dir/$name.sql\@$weight";
}

# pg_dump of the database in a loop while the load runs.  pgbench writes
# into files, not pipes this script drains between dumps: a dump waits for
# the locks of a transaction that only pgbench can end, and a pgbench
# blocked on a full pipe would never end it.
my $dumps = 0;
my $dump_failed = 0;
my $pgbench = IPC::Run::start(
	[ 'pgbench', '-n', '-c', '16', '-j', '4', '-T', $seconds, @files, '-d', $node->connstr('postgres') ],
	'>', "$dir/pgbench.out", '2>', "$dir/pgbench.err");
while ($pgbench->pumpable)
{
	my ($dout, $derr) = ('', '');
	my $ok = IPC::Run::run([ 'pg_dump', '-d', $node->connstr('postgres'), '-f', '/dev/null' ],
		'>', \$dout, '2>', \$derr);
	$dumps++;
	$dump_failed++, diag("pg_dump: $derr") unless $ok;
	# (no pump_nb: with nothing to pump, it dies once pgbench has ended)
	last unless $pgbench->pumpable;
	sleep 1;
}
my $pgbench_ok = $pgbench->finish;
my $out = PostgreSQL::Test::Utils::slurp_file("$dir/pgbench.out");
my $err = PostgreSQL::Test::Utils::slurp_file("$dir/pgbench.err");
ok($pgbench_ok, "pgbench: 16 clients for ${seconds}s, no client stopped by an error")
  or diag("$out\n$err");
unlike($err, qr/ERROR|deadlock|aborted/i, 'no error and no deadlock') or diag($err);
cmp_ok($dumps, '>', 0, "pg_dump ran $dumps times during the load");
is($dump_failed, 0, 'every pg_dump succeeded');

# Transactions per script, from pgbench's report.
my %done;
while ($out =~ /SQL script \d+: \Q$dir\E\/(\w+)\.sql\n(?: - .*\n)*? - (\d+) transactions/g)
{
	$done{$1} = $2;
}
is(scalar(keys %done), scalar(keys %scripts), 'every script ran') or diag($out);
my $counted = 0;		# recording transactions pgbench saw complete
$counted += $done{$_} // 0 for grep { $scripts{$_}[1] } keys %scripts;
my $ledger = $node->safe_psql('postgres', 'SELECT count(*) FROM load_ledger');
cmp_ok($ledger, '>=', $counted,
	"$ledger recording transactions committed, pgbench saw $counted of them complete");
cmp_ok($counted, '>', 0, 'the load made recording calls');
# the run recorded before the load, and one per committed recording call
is($node->safe_psql('postgres', q{SELECT count(*) FROM bench_run WHERE label = 'load'}),
	$ledger + 1, 'every recorded call is in the history exactly once');
is($node->safe_psql('postgres', q{SELECT count(*) = count(DISTINCT run_id) FROM bench_run}), 't',
	'run ids are unique');
is(bs_broken_runs($node), 0, 'the history is whole: every run has its result rows');
is($node->safe_psql('postgres', q{SELECT count(*) FROM bench_run WHERE label = 'load-forget'}), 0,
	'bench_forget removed its own label\'s runs');
is($node->safe_psql('postgres', q{
	SELECT string_agg(DISTINCT x.metrics ->> 'tuples', ',')
	FROM bench_run r JOIN bench_result x USING (run_id)
	WHERE r.label = 'load' AND r.benchmark = 'seqscan'}), '20000',
	'every scan counted the table\'s 20000 rows, while it was rewritten and moved');
is($node->safe_psql('postgres', 'SELECT count(*) FROM pg_ls_tmpdir()'), 0, 'no temporary file left');
is(scalar(bs_temp_files($tsdir)), 0, 'no temporary file left in load_ts');

# DROP TABLE and TRUNCATE against a scan: whichever holds the lock first,
# the other waits; a scan that waited for a DROP fails with 42P01, one
# that waited for a TRUNCATE counts the emptied table; a DROP or TRUNCATE
# that waits for a scan runs after it.
for my $ddl ('DROP TABLE load_ddl', 'TRUNCATE load_ddl')
{
	for my $mode ('heap', 'raw')
	{
		$node->safe_psql('postgres', q{
			DROP TABLE IF EXISTS load_ddl;
			CREATE TABLE load_ddl AS SELECT generate_series(1, 5000) AS g;
			CHECKPOINT});
		my $holder = $node->background_psql('postgres');
		$holder->query_safe("BEGIN; $ddl");
		my $scan = $node->background_psql('postgres', on_error_stop => 0);
		$scan->query_until(qr//, "\\set VERBOSITY verbose\nSELECT 'tuples:' || tuples FROM bench_seqscan('load_ddl', '$mode', record => false);\n");
		ok($node->poll_query_until('postgres', q{
			SELECT count(*) > 0 FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND query LIKE '%bench_seqscan(''load_ddl''%'}),
			"$ddl, $mode: the scan waits for it");
		$holder->query_safe('COMMIT');
		$holder->quit;
		my ($out) = $scan->query('SELECT 1');
		if ($ddl =~ /DROP/)
		{
			like($scan->{stderr}, qr/ERROR:  42P01: relation with OID \d+ does not exist/,
				"$ddl, $mode: then the scan fails cleanly (42P01)");
		}
		else
		{
			like($scan->{stdout} . $out, qr/tuples:0/, "$ddl, $mode: then the scan counts the emptied table");
		}
		$scan->quit;
	}
}
{
	$node->safe_psql('postgres', q{
		DROP TABLE IF EXISTS load_ddl;
		CREATE TABLE load_ddl AS SELECT generate_series(1, 5000) AS g});
	my $holder = $node->background_psql('postgres');
	$holder->query_safe(q{BEGIN; SELECT count(*) FROM bench_seqscan('load_ddl', record => false)});
	my ($ret, $out, $err) = $node->psql('postgres',
		q{SET lock_timeout = '200ms'; DROP TABLE load_ddl});
	like($err, qr/canceling statement due to lock timeout/, 'a DROP TABLE waits for a scan in progress');
	$holder->query_safe('COMMIT');
	$holder->quit;
	$node->safe_psql('postgres', 'DROP TABLE load_ddl');
}
unlike(slurp_file($node->logfile), qr/terminated by signal|PANIC/, 'no backend crashed');
$node->stop;
done_testing();
