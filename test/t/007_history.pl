# The benchmark history outlives the server it was recorded on and is
# never written where it cannot be: pg_dump keeps bench_run, bench_result
# and the run id sequence, and a restore continues the numbering; on a hot
# standby and in read-only transactions the benchmarks run and say with a
# NOTICE that nothing was recorded, bench_record refuses with SQLSTATE
# 25006.  Long runs send progress NOTICEs at benchstore.progress_interval,
# and their I/O shows in pg_stat_activity as IO wait events, in the
# parallel workers of a multi-stream run too.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

# ----------------------------------------------------------------
# pg_dump keeps the history
# ----------------------------------------------------------------

my $node = bs_node('history', 'shared_buffers = 16MB');

$node->safe_psql('postgres', q{
	CREATE TABLE small AS SELECT g AS id, md5(g::text) AS v FROM generate_series(1, 10000) g;
	VACUUM (FREEZE, ANALYZE) small;
	SELECT count(*) FROM bench_seqscan('small', repeat => 3, label => 'before');
	SELECT bench_record('pgbench', 'pg_default',
		'{"tps": 1234.5, "latency_avg_ms": 6.5}', 'before',
		arguments => '{"clients": 8, "duration_s": 60}');
	SELECT bench_record('pgbench', 'pg_default',
		'{"tps": 1300, "latency_avg_ms": 6.1}', 'middle');
	SELECT count(*) FROM bench_tablespace_io(size => '4MB', tests => '{seqwrite,seqread}',
		direct => false, label => 'middle');
	SELECT count(*) FROM bench_seqscan('small', 'raw');
	SELECT bench_record('fio', 'scratch', '[{"iops": 1}, {"iops": 2}]', 'gone');
	SELECT runs FROM bench_forget('gone');
});

# What must come back identical after the restore.
my %queries = (
	bench_run => q{
		SELECT run_id, started_at, finished_at, recorded_by, label, benchmark,
			target_kind, target, target_oid, arguments, settings
		FROM bench_run ORDER BY run_id},
	bench_result => q{
		SELECT run_id, row_no, metrics FROM bench_result ORDER BY run_id, row_no},
	bench_history => q{
		SELECT * FROM bench_history ORDER BY run_id, row_no},
	bench_compare => q{
		SELECT * FROM bench_compare('before', 'middle')},
);
my %source;
$source{$_} = $node->safe_psql('postgres', $queries{$_}) foreach keys %queries;
my $runs = $node->safe_psql('postgres', 'SELECT count(*) FROM bench_run');
is($runs, 5, 'five runs recorded before the dump');
is( $node->safe_psql('postgres',
		q{SELECT arguments ->> 'clients' FROM bench_run WHERE benchmark = 'pgbench' AND label = 'before'}),
	8, 'bench_record keeps the arguments given');
is( $node->safe_psql('postgres',
		"SELECT count(*) FROM bench_run WHERE label IS NULL AND benchmark = 'seqscan'"),
	1, 'one run recorded without a label');
my $last_id = $node->safe_psql('postgres', 'SELECT last_value FROM bench_run_id_seq');
my $max_id = $node->safe_psql('postgres', 'SELECT max(run_id) FROM bench_run');
cmp_ok($last_id, '>', $max_id,
	'the sequence is past the last remaining run (a forgotten run took an id)');

my $dump = $node->basedir . '/history.sql';
$node->command_ok([ 'pg_dump', '-d', $node->connstr('postgres'), '-f', $dump ],
	'pg_dump of the database');
my $dump_text = slurp_file($dump);
like($dump_text, qr/^COPY public\.bench_run \(/m, 'the dump has bench_run rows');
like($dump_text, qr/^COPY public\.bench_result \(/m, 'the dump has bench_result rows');
like($dump_text, qr/setval\('public\.bench_run_id_seq', $last_id, true\)/,
	'the dump sets the run id sequence');

$node->safe_psql('postgres', 'CREATE DATABASE restored');
$node->command_ok(
	[
		'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1',
		'-d', $node->connstr('restored'), '-f', $dump
	],
	'the dump restores into a new database');

foreach my $what (sort keys %queries)
{
	is($node->safe_psql('restored', $queries{$what}), $source{$what},
		"restored $what is identical to the original");
}
like($source{bench_compare}, qr/^pgbench\|pg_default\|.*\|tps\|1\|1\|1234\.5\|1300\|1\.053\|\|\|no verdict: one run each$/m,
	'bench_compare of the labels as recorded (tps row)');

# New runs continue the numbering: the sequence came with the rows.
my $new_id = $node->safe_psql('restored',
	q{SELECT bench_record('pgbench', 'pg_default', '{"tps": 1250}', 'after')});
is($new_id, $last_id + 1, 'a run recorded after the restore takes the next id of the original');
cmp_ok($new_id, '>', $max_id, 'larger than every restored run id');
my @seq = bs_rows($node,
	q{SELECT run, tuples FROM bench_seqscan('small', label => 'after')}, 'restored');
is(scalar(@seq), 1, 'a benchmark runs in the restored database');
is($node->safe_psql('restored', q{SELECT max(run_id) FROM bench_run WHERE benchmark = 'seqscan'}),
	$last_id + 2, 'and is recorded under the following id');

# bench_compare on restored labels next to new ones.
my @cmp = bs_rows($node,
	q{SELECT * FROM bench_compare('before', 'after')}, 'restored');
my ($scan) = grep { $_->{benchmark} eq 'seqscan' } @cmp;
ok($scan, 'bench_compare pairs the restored seqscan runs with a new one');
SKIP:
{
	skip 'no seqscan row', 4 unless $scan;
	is($scan->{target}, 'public.small', 'same relation, schema-qualified');
	is($scan->{metric}, 'mb_per_s', 'headline metric');
	is($scan->{baseline_runs}, 3, 'the three restored runs form the baseline');
	is($scan->{candidate_runs}, 1, 'one new run as the candidate');
}
my ($tps) = grep { $_->{benchmark} eq 'pgbench' && $_->{metric} eq 'tps' } @cmp;
ok($tps && $tps->{baseline_value} == 1234.5 && $tps->{candidate_value} == 1250,
	'bench_compare reads the restored bench_record metrics');
is_deeply(
	bs_row($node, q{SELECT * FROM bench_forget('before')}, 'restored'),
	{ runs => 2, result_rows => 4 },
	'bench_forget removes restored runs with their result rows');
is($node->safe_psql('postgres', 'SELECT count(*) FROM bench_run'), $runs,
	'the original database is untouched');

# A database owner who is not a superuser dumps a database with benchstore
# in it, history included (the history is readable by every role).
$node->safe_psql('postgres', q{
	CREATE ROLE regress_owner LOGIN;
	CREATE DATABASE owned OWNER regress_owner;
});
$node->safe_psql('owned', q{
	CREATE EXTENSION benchstore;
	SELECT bench_record('pgbench', 'pg_default', '{"tps": 1}', 'by-superuser');
});
$node->safe_psql('owned', q{
	SET ROLE regress_owner;
	SELECT bench_record('pgbench', 'pg_default', '{"tps": 2}', 'by-owner');
});
my $owner_dump = $node->basedir . '/owned.sql';
$node->command_ok(
	[
		'pg_dump', '-U', 'regress_owner', '-d', $node->connstr('owned'),
		'-f', $owner_dump
	],
	'a non-superuser database owner can pg_dump a database with benchstore');
my $owner_text = slurp_file($owner_dump);
like($owner_text, qr/by-superuser/, 'with the runs of other roles');
like($owner_text, qr/by-owner/, 'and its own');

# ----------------------------------------------------------------
# Hot standby and read-only transactions
# ----------------------------------------------------------------

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "shared_buffers = 16MB\nmax_connections = 20");
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION benchstore');
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;

$primary->safe_psql('postgres', q{
	CREATE TABLE t AS SELECT g AS id, md5(g::text) AS v FROM generate_series(1, 20000) g;
	VACUUM (FREEZE, ANALYZE) t;
	SELECT count(*) FROM bench_seqscan('t', label => 'on_primary');
});
$primary->wait_for_catchup($standby);
my $primary_runs = $primary->safe_psql('postgres', 'SELECT count(*) FROM bench_run');
is($primary_runs, 1, 'one run recorded on the primary');
is($standby->safe_psql('postgres', 'SELECT count(*) FROM bench_history'), 1,
	'the standby sees it through replication');

my ($ret, $out, $err);
$ret = $standby->psql('postgres',
	q{SELECT count(*) FROM bench_seqscan('t', repeat => 2, label => 'on_standby')},
	stdout => \$out, stderr => \$err);
is($ret, 0, 'standby: bench_seqscan succeeds');
is($out, '2', 'standby: and returns its rows');
like($err, qr/NOTICE:\s+seqscan run was not recorded/, 'standby: NOTICE that the run was not recorded');
like($err, qr/DETAIL:\s+The server is a hot standby: its transactions are read-only\./,
	'standby: DETAIL names the hot standby');
like($err, qr/HINT:\s+Pass record => false/, 'standby: HINT suggests record => false');
is(scalar(() = $err =~ /was not recorded/g), 1, 'standby: one NOTICE for a call of two runs');

$ret = $standby->psql('postgres',
	q{SELECT count(*) FROM bench_seqscan('t', 'raw', record => false)},
	stdout => \$out, stderr => \$err);
is($ret, 0, 'standby: record => false succeeds');
is($out, '1', 'standby: record => false returns its row');
is($err, '', 'standby: record => false sends no NOTICE');

# A cold run asks for a checkpoint, a restartpoint on a standby.
$ret = $standby->psql('postgres',
	q{SELECT count(*) FROM bench_seqscan('t', 'raw', 'cold', record => false)},
	stdout => \$out, stderr => \$err);
is($ret, 0, 'standby: a cold run succeeds');
is($out, '1', 'standby: and returns its row');
unlike($err, qr/ERROR|not recorded/, 'standby: with no error and no NOTICE');

$ret = $standby->psql('postgres',
	q{SELECT count(*) FROM bench_tablespace_io(size => '2MB', tests => '{seqwrite,seqread}',
		direct => false, label => 'on_standby')},
	stdout => \$out, stderr => \$err);
is($ret, 0, 'standby: bench_tablespace_io succeeds');
is($out, '2', 'standby: bench_tablespace_io returns its rows');
like($err, qr/NOTICE:\s+tablespace_io run was not recorded.*\n.*hot standby/,
	'standby: bench_tablespace_io says it was not recorded');

$ret = $standby->psql('postgres', qq{\\set VERBOSITY verbose
	SELECT bench_record('pgbench', 'pg_default', '{"tps": 1}', 'on_standby')},
	stdout => \$out, stderr => \$err);
isnt($ret, 0, 'standby: bench_record fails');
like($err, qr/ERROR:\s+25006: cannot record a measurement in a read-only transaction/,
	'standby: bench_record raises SQLSTATE 25006');
like($err, qr/DETAIL:\s+The server is a hot standby/, 'standby: with the reason');

is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()'), 't',
	'the standby is still a standby');
is($standby->safe_psql('postgres', 'SELECT count(*) FROM t'), 20000,
	'and still answers queries');
is($standby->safe_psql('postgres', 'SELECT count(*) FROM bench_run'), $primary_runs,
	'the standby history is unchanged');
is($primary->safe_psql('postgres', 'SELECT count(*) FROM bench_run'), $primary_runs,
	'the primary history is unchanged');

# A read-only transaction on the primary: the same NOTICE, nothing recorded.
$ret = $primary->psql('postgres', q{
	BEGIN READ ONLY;
	SELECT count(*) FROM bench_seqscan('t', label => 'read_only');
	COMMIT;},
	stdout => \$out, stderr => \$err);
is($ret, 0, 'read-only transaction: bench_seqscan succeeds');
is($out, '1', 'read-only transaction: returns its row');
like($err, qr/NOTICE:\s+seqscan run was not recorded\n(?:.*\n)?DETAIL:\s+The transaction is read-only\./,
	'read-only transaction: NOTICE with the transaction as the reason');
$ret = $primary->psql('postgres', q{
	SET default_transaction_read_only = on;
	SELECT count(*) FROM bench_tablespace_io(size => '1MB', tests => '{seqwrite}', direct => false);},
	stdout => \$out, stderr => \$err);
is($ret, 0, 'default_transaction_read_only: bench_tablespace_io succeeds');
like($err, qr/NOTICE:\s+tablespace_io run was not recorded/,
	'default_transaction_read_only: NOTICE');
$ret = $primary->psql('postgres', q{
	\set VERBOSITY verbose
	BEGIN READ ONLY;
	SELECT bench_record('pgbench', 'pg_default', '{"tps": 1}', 'read_only');},
	stdout => \$out, stderr => \$err);
like($err, qr/ERROR:\s+25006: cannot record a measurement in a read-only transaction\n(?:.*\n)?DETAIL:\s+The transaction is read-only\./,
	'read-only transaction: bench_record raises SQLSTATE 25006');
$primary->safe_psql('postgres', q{
	BEGIN;
	SELECT count(*) FROM bench_seqscan('t', label => 'rolled_back');
	SELECT bench_record('pgbench', 'pg_default', '{"tps": 1}', 'rolled_back');
	ROLLBACK;});
is($primary->safe_psql('postgres', 'SELECT count(*) FROM bench_run'), $primary_runs,
	'read-only and rolled-back transactions recorded nothing');
is($primary->safe_psql('postgres',
		q{SELECT count(*) FROM bench_seqscan('t', label => 'read_write')}), 1,
	'a read-write transaction after them');
is($primary->safe_psql('postgres', 'SELECT count(*) FROM bench_run'), $primary_runs + 1,
	'records again');
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', q{SELECT string_agg(label, ',' ORDER BY run_id) FROM bench_run}),
	'on_primary,read_write', 'the standby replays the new run');

$standby->stop;
$primary->stop;

# ----------------------------------------------------------------
# Progress notices
# ----------------------------------------------------------------

# About 110 MB: a scan of it takes far longer than a millisecond.
$node->safe_psql('postgres', q{
	CREATE TABLE big AS SELECT g AS id, repeat('x', 300) AS pad FROM generate_series(1, 300000) g;
	VACUUM (FREEZE, ANALYZE) big;
});
my $progress_re =
  qr/NOTICE:\s+seqscan \(heap\) of "big"(?:, run (\d) of 3)?: (\d+)% done, [\d.]+ MB in [\d.]+ s, [\d.]+ MB\/s now/;

$ret = $node->psql('postgres', q{
	SET benchstore.progress_interval = 1;
	SELECT count(*) FROM bench_seqscan('big', repeat => 3, record => false);},
	stdout => \$out, stderr => \$err);
is($ret, 0, 'progress: the scan runs');
is($out, '3', 'progress: three runs');
my @lines = grep { /% done/ } split /\n/, $err;
my @matching = grep { /$progress_re/ } @lines;
cmp_ok(scalar(@matching), '>=', 1, 'progress: at least one NOTICE in the expected form');
is(scalar(@matching), scalar(@lines), 'progress: every progress line is in that form')
  or diag join("\n", grep { !/$progress_re/ } @lines);
like($err, qr/seqscan \(heap\) of "big", run \d of 3: /, 'progress: repeated runs name the run');
my $ordered = 1;
my %last_pct;
foreach (@matching)
{
	my ($run, $pct) = /$progress_re/;
	$run //= 0;
	$ordered = 0 if $pct > 100 || (defined $last_pct{$run} && $pct < $last_pct{$run});
	$last_pct{$run} = $pct;
}
ok($ordered, 'progress: percentages grow within each run and never pass 100');
note scalar(@matching) . ' progress lines, runs: ' . join(',', sort keys %last_pct);

# Percent done counts the pages without a visible tuple too (rows deleted,
# vacuumed; the pages stay).  On 17 and later the scan steps over such pages
# without showing them (read streams), so a count of the pages seen would
# stay near the share of pages that hold rows (10 % here).  Serial: the
# first nine tenths of the table are empty.  With workers, every tenth page
# holds rows and the processes share the blocks.  How far along the last
# timed NOTICE was depends on the machine's speed; where the count ended is
# said at DEBUG1 when the run is over, and it must be the whole table.
$node->safe_psql('postgres', q{
	CREATE TABLE sparse_0 AS SELECT g AS id, repeat('x', 300) AS pad FROM generate_series(1, 120000) g;
	DELETE FROM sparse_0 WHERE id <= 108000;
	VACUUM (FREEZE, ANALYZE) sparse_0;
	CREATE TABLE sparse_2 AS SELECT g AS id, repeat('x', 300) AS pad FROM generate_series(1, 120000) g;
	DELETE FROM sparse_2 WHERE (ctid::text::point)[0]::bigint % 10 <> 0;
	VACUUM (FREEZE, ANALYZE) sparse_2;
});
foreach my $workers (0, 2)
{
	my $sparse_re =
	  qr/NOTICE:\s+seqscan \(heap\) of "sparse_$workers": (\d+)% done/;
	my $rows = $node->safe_psql('postgres', "SELECT count(*) FROM sparse_$workers");
	$ret = $node->psql('postgres', qq{
		SET benchstore.progress_interval = 1;
		SET client_min_messages = debug1;
		SELECT tuples FROM bench_seqscan('sparse_$workers', workers => $workers, record => false);},
		stdout => \$out, stderr => \$err);
	is($ret, 0, "progress, mostly empty pages, workers => $workers: the scan runs");
	is($out, $rows, "progress, mostly empty pages, workers => $workers: every row counted");
	my @pct = map { /$sparse_re/ ? $1 : () } split /\n/, $err;
	note "progress, workers => $workers: @pct";
	like($err,
		qr/DEBUG:\s+seqscan \(heap\) of "sparse_$workers": progress ended at 100% done, ([\d.]+) MB of \1 MB/,
		"progress, mostly empty pages, workers => $workers: empty pages count as done")
	  or diag $err;
	ok(!grep({ $_ > 100 } @pct), "progress, workers => $workers: never past 100 %");
}

$ret = $node->psql('postgres', q{
	SET benchstore.progress_interval = 0;
	SELECT count(*) FROM bench_seqscan('big', repeat => 3, record => false);},
	stdout => \$out, stderr => \$err);
is($ret, 0, 'progress_interval = 0: the scan runs');
unlike($err, qr/% done/, 'progress_interval = 0: no progress NOTICE');

$ret = $node->psql('postgres', q{
	SET benchstore.progress_interval = 1;
	SELECT count(*) FROM bench_tablespace_io(size => '32MB', tests => '{seqwrite}',
		direct => false, record => false);},
	stdout => \$out, stderr => \$err);
is($ret, 0, 'progress: bench_tablespace_io runs');
like($err, qr/NOTICE:\s+seqwrite on "pg_default": \d+% done, [\d.]+ MB in [\d.]+ s, [\d.]+ MB\/s now/,
	'progress: seqwrite NOTICE');

$ret = $node->psql('postgres', q{
	SET benchstore.progress_interval = 1;
	SELECT count(*) FROM bench_tablespace_io(size => '32MB', tests => '{randread}',
		direct => false, duration => '100ms', record => false);},
	stdout => \$out, stderr => \$err);
is($ret, 0, 'progress: randread runs');
like($err, qr/NOTICE:\s+randread on "pg_default", writing its file first: \d+% done, [\d.]+ MB in [\d.]+ s, [\d.]+ MB\/s now/,
	'progress: NOTICE while the file for randread is written');
note 'randread progress lines: ' . scalar(() = $err =~ /NOTICE:\s+randread on/g);

# ----------------------------------------------------------------
# Wait events
# ----------------------------------------------------------------

# Samples the wait events of the backend running a query like pattern, and
# of its parallel workers, until it finishes: one row per distinct
# (backend_type, wait_event_type, wait_event) with its number of samples.
$node->safe_psql('postgres', q{
CREATE FUNCTION sample_waits(pattern text, max_samples integer)
RETURNS TABLE (backend_type text, wait_event_type text, wait_event text, samples bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
	leader integer;
	seen text[] := '{}';
BEGIN
	FOR i IN 1 .. 3000 LOOP
		PERFORM pg_stat_clear_snapshot();
		SELECT a.pid INTO leader FROM pg_stat_activity a
		WHERE a.query LIKE pattern AND a.state = 'active' AND a.pid <> pg_backend_pid()
		LIMIT 1;
		EXIT WHEN leader IS NOT NULL;
		PERFORM pg_sleep(0.01);
	END LOOP;
	IF leader IS NULL THEN
		RAISE EXCEPTION 'no backend runs %', pattern;
	END IF;
	FOR i IN 1 .. max_samples LOOP
		PERFORM pg_stat_clear_snapshot();
		EXIT WHEN NOT EXISTS (SELECT 1 FROM pg_stat_activity a
							  WHERE a.pid = leader AND a.state = 'active');
		seen := seen || ARRAY(
			SELECT a.backend_type || '|' || coalesce(a.wait_event_type, '') || '|' ||
				   coalesce(a.wait_event, '')
			FROM pg_stat_activity a WHERE a.pid = leader OR a.leader_pid = leader);
		PERFORM pg_sleep(0.002);
	END LOOP;
	RETURN QUERY
		SELECT split_part(s, '|', 1), split_part(s, '|', 2), split_part(s, '|', 3), count(*)
		FROM unnest(seen) s GROUP BY s ORDER BY s;
END;
$$;
});

# Run $sql (which prints "done:...") in the background while sampling;
# return the samples as "backend_type|type|event" => count.  The sampler
# starts first, so that it sees the run from its beginning.
sub sample_run
{
	my ($sql, $pattern) = @_;
	my $sampler = $node->background_psql('postgres');
	$sampler->query_until(qr//,
		"SELECT 'samples:' || coalesce(jsonb_agg(s)::text, '[]') FROM sample_waits('$pattern', 20000) s;\n");
	$node->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM pg_stat_activity
		WHERE query LIKE '%sample_waits(%' AND state = 'active' AND pid <> pg_backend_pid()})
	  or die 'the sampler did not start';
	my $bg = $node->background_psql('postgres');
	$bg->query_until(qr//, "$sql;\n");
	my $out = $sampler->query_until(qr/samples:.*\n/, '');
	$bg->query_until(qr/done:\d+\n/, '');
	$bg->quit;
	eval { $sampler->quit; };
	my ($json) = $out =~ /samples:(.*)\n/;
	my %seen = map { ("$_->{backend_type}|$_->{wait_event_type}|$_->{wait_event}" => $_->{samples}) }
	  @{ decode_json($json) };
	note "samples: " . join(', ', map { "$_ x$seen{$_}" } sort keys %seen);
	return %seen;
}

# Raw-mode seqscan: reads are DataFileRead.
my %seen;
foreach my $repeat (20, 200)
{
	%seen = sample_run(
		"SELECT 'done:' || count(*) FROM bench_seqscan('big', 'raw', repeat => $repeat, record => false)",
		q{%bench_seqscan(''big'', ''raw''%});
	last if $seen{'client backend|IO|DataFileRead'};
}
ok($seen{'client backend|IO|DataFileRead'}, 'raw seqscan reads show as IO / DataFileRead');
ok(!grep({ /\|IO\|DataFileWrite/ } keys %seen), 'and never as a write');

# Tablespace I/O in two streams: the caller and a parallel worker both
# wait on IO events of data files.
my $fs = bs_fs_type($node->data_dir);
my $direct = ($fs eq 'tmpfs' || $fs eq 'ramfs') ? 'false' : 'true';
note "filesystem under the data directory: $fs; direct => $direct";
my %io_events = map { $_ => 1 } qw(DataFileRead DataFileWrite DataFileSync);
my ($leader_io, $worker_io);
foreach my $size ($direct eq 'true' ? ('64MB', '512MB') : ('256MB', '1GB'))
{
	%seen = sample_run(
		"SELECT 'done:' || count(*) FROM bench_tablespace_io(size => '$size', "
		  . "tests => '{seqwrite,seqread}', streams => 2, direct => $direct, record => false)",
		'%bench_tablespace_io(size%');
	($leader_io) = grep { /^client backend\|IO\|(\w+)$/ && $io_events{$1} } keys %seen;
	($worker_io) = grep { /^parallel worker\|IO\|(\w+)$/ && $io_events{$1} } keys %seen;
	last if $leader_io && $worker_io;
}
ok($leader_io, 'tablespace I/O: the caller waits on IO / DataFile* events');
ok($worker_io, 'tablespace I/O: a parallel worker stream too');
$node->poll_query_until('postgres',
	"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'parallel worker'");
is(scalar(bs_temp_files($node->data_dir . '/base/pgsql_tmp')), 0,
	'no temporary file left after the runs');

# ----------------------------------------------------------------
# A label's first use is atomic
# ----------------------------------------------------------------

# Two roles record under a new label at the same moment: the second waits
# for the first's transaction and is then refused, whatever the isolation
# level; the label has one owner.
$node->safe_psql('postgres', q{
	CREATE ROLE race_a; CREATE ROLE race_b;
	GRANT USAGE ON SCHEMA public TO race_a, race_b;});
foreach my $isolation ('read committed', 'repeatable read')
{
	my $label = "race-" . ($isolation =~ s/ /-/r);
	my $first = $node->background_psql('postgres');
	$first->query_safe('SET ROLE race_a');
	$first->query_safe("BEGIN ISOLATION LEVEL $isolation");
	$first->query_safe(
		"SELECT bench_record('pgbench', 'x', '{\"tps\": 1}', '$label')");
	my $second = $node->background_psql('postgres', on_error_stop => 0);
	$second->query_safe('SET ROLE race_b');
	$second->query_safe("BEGIN ISOLATION LEVEL $isolation");
	# the second session takes its snapshot before the first commits
	$second->query_safe('SELECT count(*) FROM bench_run');
	$second->query_until(qr//,
		"SELECT bench_record('pgbench', 'x', '{\"tps\": 2}', '$label');\n");
	ok($node->poll_query_until('postgres', q{
		SELECT count(*) = 1 FROM pg_stat_activity
		WHERE wait_event_type = 'Lock' AND query LIKE '%bench_record%'}),
		"$isolation: the second role waits for the first's transaction");
	$first->query_safe('COMMIT');
	$first->quit;
	$second->query('SELECT 1');
	like($second->{stderr}, qr/label "\Q$label\E" is used by runs of role "race_a"/,
		"$isolation: the second role is refused once the first committed");
	$second->quit;
	is($node->safe_psql('postgres',
		"SELECT string_agg(DISTINCT recorded_by::text, ',') FROM bench_run WHERE label = '$label'"),
		'race_a', "$isolation: the label has one owner");
}

$node->stop;
done_testing();
