# Benchmarks take AccessShareLock only: concurrent INSERT, UPDATE and
# DELETE run during a scan.  The count is exact for the statement's
# snapshot while others commit, also when the scan is shared with parallel
# workers.  Other sessions' temporary tables are refused.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('concurrent');
$node->safe_psql('postgres', q{
	CREATE TABLE acct (id integer PRIMARY KEY, balance integer);
	INSERT INTO acct SELECT g, 0 FROM generate_series(1, 300000) g;
	VACUUM ANALYZE acct;
});

# A long benchmark in the background, in every mode, while DML runs.
my $bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr//, q{
	SELECT count(*) FROM unnest(ARRAY['heap', 'buffer', 'raw']) m,
		bench_seqscan('acct', m, 'warm', 1000);
});
$node->poll_query_until('postgres', q{
	SELECT count(*) = 1 FROM pg_stat_activity
	WHERE query LIKE '%bench_seqscan(''acct''%' AND state = 'active'})
  or die 'benchmark did not start';

my ($ret, $out, $err) = $node->psql('postgres', q{
	SET lock_timeout = '5s';
	INSERT INTO acct SELECT g, 1 FROM generate_series(300001, 301000) g;
	UPDATE acct SET balance = balance + 1 WHERE id % 100 = 0;
	DELETE FROM acct WHERE id % 1000 = 1;
	SELECT 'dml done';
});
is($ret, 0, 'INSERT, UPDATE and DELETE ran while the benchmark was running');
like($out, qr/dml done/, 'and committed');
my $still = $node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_stat_activity
	WHERE query LIKE '%bench_seqscan(''acct''%' AND state = 'active'});
is($still, 1, 'the benchmark was still running when the DML committed');
my $locks = $node->safe_psql('postgres', q{
	SELECT string_agg(DISTINCT l.mode, ',') FROM pg_locks l
	JOIN pg_stat_activity a ON a.pid = l.pid
	WHERE a.query LIKE '%bench_seqscan(''acct''%' AND l.relation = 'acct'::regclass});
is($locks, 'AccessShareLock', 'the benchmark holds AccessShareLock only');
$node->safe_psql('postgres', q{
	SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	WHERE query LIKE '%bench_seqscan(''acct''%' AND state = 'active'});
$bg->quit;

# The count equals count(*) under the same snapshot while others commit.
my $rr = $node->background_psql('postgres');
$rr->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
my $before = $rr->query_safe('SELECT count(*) FROM acct');
$node->safe_psql('postgres', q{
	INSERT INTO acct SELECT g, 2 FROM generate_series(400001, 405000) g;
	DELETE FROM acct WHERE id % 7 = 0;
	UPDATE acct SET balance = -1 WHERE id % 11 = 0;
});
my $bench = $rr->query_safe("SELECT tuples FROM bench_seqscan('acct')");
my $after = $rr->query_safe('SELECT count(*) FROM acct');
is($bench, $before, 'bench_seqscan counts what the snapshot sees');
is($after, $before, 'count(*) agrees in the same snapshot');
$rr->query_safe('COMMIT');
my $now = $node->safe_psql('postgres', 'SELECT count(*) FROM acct');
isnt($now, $before, 'a new snapshot sees the other sessions\' changes');
is($node->safe_psql('postgres', "SELECT tuples FROM bench_seqscan('acct')"),
	$now, 'and so does a new benchmark');
$rr->quit;

# Parallel scans (workers): every process reads with the caller's
# snapshot, so the count stays exact while other sessions commit INSERTs,
# UPDATEs and DELETEs during the scan.
$rr = $node->background_psql('postgres');
$rr->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
$before = $rr->query_safe('SELECT count(*) FROM acct');
my $dml = $node->background_psql('postgres', on_error_stop => 0);
$dml->query_until(qr/dml started/, q{
	\echo dml started
	DO $$
	BEGIN
		FOR i IN 1 .. 400 LOOP
			INSERT INTO acct SELECT g, 3 FROM generate_series(500000 + i * 100, 500099 + i * 100) g;
			DELETE FROM acct WHERE id % 401 = i;
			UPDATE acct SET balance = balance + 1 WHERE id % 397 = i;
			COMMIT;
			PERFORM pg_sleep(0.005);
		END LOOP;
	END $$;
	SELECT 'dml loop done';
});
$node->poll_query_until('postgres', q{
	SELECT count(*) > 0 FROM acct WHERE id > 500000}) or die 'DML did not start';
my $committed_before = $node->safe_psql('postgres', 'SELECT count(*) FROM acct WHERE id > 500000');
my $par = $rr->query_safe(q{
	SELECT min(tuples) || ' ' || max(tuples) || ' ' || count(*) || ' ' ||
		   bool_and(workers_launched = 2)
	FROM bench_seqscan('acct', repeat => 30, workers => 2, record => false)});
my $committed_after = $node->safe_psql('postgres', 'SELECT count(*) FROM acct WHERE id > 500000');
$after = $rr->query_safe('SELECT count(*) FROM acct');
ok($committed_after > $committed_before,
	'other sessions committed DML while the parallel scans ran');
is($par, "$before $before 30 true",
	'every parallel run, 2 workers launched, counts what the snapshot sees');
is($after, $before, 'count(*) agrees in the same snapshot');
$rr->query_safe('COMMIT');
$dml->query_until(qr/dml loop done/, '');
$dml->quit;
$now = $node->safe_psql('postgres', 'SELECT count(*) FROM acct');
foreach my $mode (qw(heap raw))
{
	$node->safe_psql('postgres', 'VACUUM acct; CHECKPOINT');
	is($node->safe_psql('postgres',
		"SELECT tuples FROM bench_seqscan('acct', '$mode', workers => 2, record => false)"),
		$now, "$mode: after the DML a parallel scan counts the new rows");
}

# The workers are real processes, in every mode and for a parallel plan of
# bench_query: the row says both launched, and while the call runs they show
# in pg_stat_activity as parallel workers of the caller.
my $parallel_plan = 'SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; '
  . 'SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;';
my %calls = map {
	($_ => "bench_seqscan('acct', '$_', 'warm', REPEAT, workers => 2, record => false)")
} qw(heap buffer raw);
# bench_query's workers start with its plan, not before its clock as a
# parallel scan's do: each execution does enough work per row (about half
# a second in all) that both are running together for most of it, however
# late a loaded machine starts them.
$calls{query} = "bench_query('SELECT count(*) FROM acct WHERE md5(id::text || repeat(''x'', 1000)) <> ''''', repeat => REPEAT, record => false)";
foreach my $what (sort keys %calls)
{
	my $once = $calls{$what} =~ s/REPEAT/1/r;
	my $many = $calls{$what} =~ s/REPEAT/1000/r;
	is($node->safe_psql('postgres', "$parallel_plan SELECT workers_launched FROM $once"),
		2, "$what: the row says two workers launched");
	$bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//, "$parallel_plan SELECT count(*) FROM $many;\n");
	my $caller = "l.query LIKE '%" . ($what eq 'query' ? 'bench_query' : 'bench_seqscan') . "(%'";
	ok($node->poll_query_until('postgres', qq{
		SELECT count(*) = 2 FROM pg_stat_activity w JOIN pg_stat_activity l ON w.leader_pid = l.pid
		WHERE $caller AND w.backend_type = 'parallel worker'}),
		"$what: two parallel workers run beside the caller");
	$node->safe_psql('postgres', q{
		SELECT pg_cancel_backend(pid) FROM pg_stat_activity
		WHERE query LIKE '%SELECT count(*) FROM bench_%' AND backend_type = 'client backend'
		  AND pid <> pg_backend_pid()});
	$bg->quit;
}

# Before its clock, each process of a warm heap or buffer scan touches the
# shared buffers holding the table that it has not touched before
# (prefault.c): a new session's first run touches every buffer found, its
# second none, and each parallel worker, a new process every time, all of
# them.  Cold and raw runs touch nothing.  Both ways of finding the
# buffers: a lookup per block (under a thirty-second of shared buffers)
# and a pass over every descriptor (above).
my $thirty_second = $node->safe_psql('postgres',
	"SELECT setting::int / 32 FROM pg_settings WHERE name = 'shared_buffers'");
foreach my $case ([ 'few', int($thirty_second / 4) ], [ 'many', $thirty_second * 2 ])
{
	my ($t, $want_pages) = @$case;
	# about 15 rows of 500 bytes per 8 kB page
	$node->safe_psql('postgres', qq{
		CREATE TABLE $t (id integer, pad text);
		INSERT INTO $t SELECT g, repeat('x', 500) FROM generate_series(1, $want_pages * 15) g;
		VACUUM ANALYZE $t;
	});
	my $pages = $node->safe_psql('postgres',
		"SELECT pages FROM bench_seqscan('$t', record => false)");
	cmp_ok($pages, $want_pages > $thirty_second ? '>=' : '<', $thirty_second,
		"$t: $pages pages, " . ($want_pages > $thirty_second ? 'a pass over the descriptors' : 'a lookup per block'));
	my ($ret, $out, $err) = $node->psql('postgres', qq{
		SET client_min_messages = debug1;
		DO \$\$BEGIN RAISE NOTICE 'run first'; END\$\$;
		SELECT FROM bench_seqscan('$t', record => false);
		DO \$\$BEGIN RAISE NOTICE 'run second'; END\$\$;
		SELECT FROM bench_seqscan('$t', 'buffer', record => false);
		DO \$\$BEGIN RAISE NOTICE 'run workers'; END\$\$;
		SELECT FROM bench_seqscan('$t', workers => 2, record => false);
		DO \$\$BEGIN RAISE NOTICE 'run cold'; END\$\$;
		SELECT FROM bench_seqscan('$t', 'heap', 'cold', workers => 2, record => false);
		DO \$\$BEGIN RAISE NOTICE 'run raw'; END\$\$;
		SELECT FROM bench_seqscan('$t', 'raw', workers => 2, record => false);
		DO \$\$BEGIN RAISE NOTICE 'run end'; END\$\$;
	});
	is($ret, 0, "$t: the runs succeed with DEBUG1 messages on");
	my %touched;
	my $run = '';
	foreach my $line (split /\n/, $err)
	{
		$run = $1 if $line =~ /NOTICE:  run (\w+)/;
		push @{ $touched{$run} }, "$1/$2"
		  if $line =~ /DEBUG:  (\d+) of the (\d+) shared buffers holding blocks of "$t" touched before the clock/;
	}
	is_deeply($touched{first}, ["$pages/$pages"],
		"$t: a new session's first run touches every buffer of the table");
	is_deeply($touched{second}, ["0/$pages"], "$t: its second run none");
	is_deeply([ sort @{ $touched{workers} } ], [ sort ("0/$pages", "$pages/$pages", "$pages/$pages") ],
		"$t: with two workers, the caller none and each worker all of them");
	ok(!exists $touched{cold} && !exists $touched{raw}, "$t: cold and raw runs touch nothing")
	  or diag explain \%touched;
}

# Another session's temporary table is refused.
my $tmp = $node->background_psql('postgres');
$tmp->query_safe('CREATE TEMP TABLE mine AS SELECT g FROM generate_series(1, 100) g');
my $tmpname = $tmp->query_safe(
	"SELECT n.nspname || '.mine' FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'mine'");
is($tmp->query_safe("SELECT tuples FROM bench_seqscan('mine')"), 100,
	'the owning session can benchmark its temporary table');
foreach my $mode (qw(heap buffer raw))
{
	($ret, $out, $err) = $node->psql('postgres',
		"SELECT * FROM bench_seqscan('$tmpname', '$mode')");
	like($err, qr/cannot access temporary tables of other sessions/,
		"$mode: another session's temporary table is refused");
}
$tmp->quit;

$node->stop;
done_testing();
