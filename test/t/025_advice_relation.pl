# bench_tablespace_advice(relation => ...): random_page_cost derived from
# cold reads of a table through the buffer manager (Vondra's method).  A
# table that cannot serve is refused before anything is measured (too
# small for shared_buffers, elsewhere, not a table, a role without the
# cold-read right); one that can is scanned and read at random cold, both
# runs recorded under the advice's label, the suggestion follows from
# their figures, the raw-file figure stands beside it, and derived again
# from the label it is the same.  shared_buffers is 1 MB so that a table
# of a few MB is large enough.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('advice_relation', 'shared_buffers = 1MB', 'fsync = on',
	'track_io_timing = on');
my $tsdir = PostgreSQL::Test::Utils::tempdir();
my $fs = bs_fs_type($tsdir);
plan skip_all => "the advice reads with direct I/O, and the test directory is on $fs"
  if $fs eq 'tmpfs';
$node->safe_psql('postgres', qq{
	CREATE TABLESPACE adv_ts LOCATION '$tsdir';
	SET client_min_messages = warning;
	SELECT count(*) FROM bench_generate_randread('32MB', 'adv_ts', table_name => 'big');
	SELECT count(*) FROM bench_generate_randread('2MB', 'adv_ts', table_name => 'small');
	SELECT count(*) FROM bench_generate_randread('8MB', 'pg_default', table_name => 'elsewhere');
	CREATE ROLE adv_plain LOGIN;
	GRANT pg_write_server_files TO adv_plain;
	GRANT CREATE ON TABLESPACE adv_ts TO adv_plain;
	GRANT SELECT ON big TO adv_plain;});

sub refused
{
	my ($sql, $state, $msg_re, $name) = @_;
	my ($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\n$sql");
	like($err, qr/ERROR:  $state: $msg_re/, $name);
	return $err;
}

my $runs0 = $node->safe_psql('postgres', 'SELECT count(*) FROM bench_run');
my $err = refused(q{SELECT * FROM bench_tablespace_advice('adv_ts', size => '4MB', relation => 'small')},
	'55000', 'relation "small" is too small to derive random_page_cost from',
	'a table smaller than 4 x shared_buffers is refused');
like($err, qr/HINT:  Name a table of at least 4096 kB, or make one whose rows lie in random order: bench_generate_randread\('4096 kB', 'adv_ts'\)/,
	'and the hint says how large, and how to make one');
$err = refused(q{SELECT * FROM bench_tablespace_advice('adv_ts', size => '4MB', relation => 'elsewhere')},
	'22023', 'relation "elsewhere" is not in tablespace "adv_ts"',
	'a table in another tablespace is refused');
like($err, qr/DETAIL:  It lies in tablespace pg_default\..*HINT:  Name its tablespace: bench_tablespace_advice\('pg_default', relation => 'public.elsewhere'\)/s,
	'and the error says where it lies');
refused(q{SELECT * FROM bench_tablespace_advice('adv_ts', size => '4MB', relation => 'big_pkey')},
	'42809', '"big_pkey" is not a table', 'an index is refused');
refused(q{SET ROLE adv_plain; SELECT * FROM bench_tablespace_advice('adv_ts', size => '4MB', relation => 'big')},
	'42501', 'permission denied to read relation "big" cold',
	'a role that may measure the tablespace but not checkpoint is refused');
is($node->safe_psql('postgres', 'SELECT count(*) FROM bench_run'), $runs0,
	'nothing was measured or recorded for the refused calls');

# Measured: the raw-file advice and the table's cold runs under one label.
my @adv = bs_rows($node, q{
	SELECT * FROM bench_tablespace_advice('adv_ts', size => '4MB', duration => '50ms', repeat => 1,
		label => 'adv rel', cache_hit_share => 0.5, relation => 'big')});
my ($rpc) = grep { $_->{setting} eq 'random_page_cost' } @adv;
ok(defined $rpc, 'a random_page_cost row');
(my $ev_ascii = $rpc->{evidence}) =~ s/[^\x00-\x7f]/?/g;
note("random_page_cost: " . ($rpc->{suggested_value} // "none") . ": $ev_ascii");
like($rpc->{evidence}, qr/Raw-file reads of the tablespace, for comparison, suggest /,
	'the raw-file figure is in the same row');
my $runs = $node->safe_psql('postgres', q{
	SELECT string_agg(benchmark || ':' || (x.metrics ->> 'cache'), ',' ORDER BY benchmark)
	FROM bench_run r JOIN bench_result x USING (run_id)
	WHERE r.label = 'adv rel' AND r.target_oid = 'big'::regclass});
is($runs, 'randread:cold,seqscan:cold', 'one cold scan and one cold random read of the table, recorded');
is($node->safe_psql('postgres', q{
	SELECT (x.metrics ->> 'reads')::bigint = least(10000, greatest(pg_relation_size('big') / 8192 / 10, least(pg_relation_size('big') / 8192, 1000)))
	   AND (x.metrics ->> 'depth')::int = 1
	FROM bench_run r JOIN bench_result x USING (run_id)
	WHERE r.label = 'adv rel' AND r.benchmark = 'randread'}),
	't', 'the random reads: a tenth of the blocks, at least 1000 and at most 10000, one at a time');

# The suggestion follows from the two recorded runs: seq_page_cost x
# max(1, random page time / sequential page time x (1 - hit share)).
my $expected = $node->safe_psql('postgres', q{
	WITH s AS (SELECT (x.metrics ->> 'elapsed_ms')::float8 / (x.metrics ->> 'pages')::float8 AS seq,
					  x.metrics AS m
			   FROM bench_run r JOIN bench_result x USING (run_id)
			   WHERE r.label = 'adv rel' AND r.benchmark = 'seqscan'),
		 q AS (SELECT (x.metrics ->> 'elapsed_ms')::float8 / (x.metrics ->> 'reads')::float8 AS rnd,
					  x.metrics AS m
			   FROM bench_run r JOIN bench_result x USING (run_id)
			   WHERE r.label = 'adv rel' AND r.benchmark = 'randread')
	SELECT CASE WHEN s.m ->> 'served_by' = 'cache below' OR q.m ->> 'served_by' = 'cache below'
					 OR (s.m ->> 'cached_pct')::float8 >= 1 OR (q.m ->> 'cached_pct')::float8 >= 1
					 OR (q.m ->> 'device_reads')::float8 < 0.5 * (q.m ->> 'reads')::float8
					 OR q.rnd <= s.seq
				THEN 'none'
				ELSE round(greatest(1.0, q.rnd / s.seq * 0.5)::numeric, 1)::text END
	FROM s, q});
is($rpc->{suggested_value} // 'none', $expected,
	'the suggestion is the one the recorded runs give (or none where they show a cache)');
if (defined $rpc->{suggested_value})
{
	like($rpc->{evidence}, qr/^Through PostgreSQL on table big \(32 MB, 4096 blocks\): a cold sequential scan read 4096 pages in /,
		'the evidence gives the table\'s figures');
	is($rpc->{statement}, "ALTER TABLESPACE adv_ts SET (random_page_cost = $rpc->{suggested_value})",
		'and the statement sets it');
}
else
{
	like($rpc->{evidence}, qr/^Nothing to suggest from table big: /, 'the evidence says why nothing is suggested');
	ok(!defined $rpc->{statement}, 'and there is no statement');
}

# Derived again from the label: the recorded runs, not new ones.
my $nruns = $node->safe_psql('postgres', 'SELECT count(*) FROM bench_run');
my $again = bs_row($node, q{
	SELECT * FROM bench_tablespace_advice('adv_ts', label => 'adv rel', cache_hit_share => 0.5,
		record => false, relation => 'big') WHERE setting = 'random_page_cost'});
is($again->{suggested_value} // 'none', $rpc->{suggested_value} // 'none',
	'derived again from the label: the same suggestion');
like($again->{evidence}, qr/runs recorded under "adv rel"\)|^Nothing to suggest/,
	'from the recorded runs');
is($node->safe_psql('postgres', 'SELECT count(*) FROM bench_run'), $nruns, 'and nothing new measured');

# Given a run id instead of a label: the raw figures of that run, the
# table measured again and recorded without a label (a run id is none).
my $io_run = $node->safe_psql('postgres', q{
	SELECT min(run_id) FROM bench_run WHERE label = 'adv rel' AND benchmark = 'tablespace_io'});
my $by_id = bs_row($node, qq{
	SELECT * FROM bench_tablespace_advice('adv_ts', label => '$io_run', cache_hit_share => 0.5,
		relation => 'big') WHERE setting = 'random_page_cost'});
like($by_id->{evidence}, qr/^(Through PostgreSQL on table big \(32 MB, 4096 blocks\): |Nothing to suggest from table big: )/,
	'a run id as the label: the table measured now');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM bench_run WHERE label IS NULL AND target_oid = 'big'::regclass
	   AND benchmark IN ('seqscan', 'randread')}),
	2, 'and its runs recorded without a label');

# With the hit share from pg_statio, it is the one from before the table
# was read, and the setting that carries it is gone after the call.
my $frozen = $node->safe_psql('postgres', q{
	BEGIN;
	SELECT evidence FROM bench_tablespace_advice('adv_ts', label => 'adv rel', record => false,
		relation => 'big') WHERE setting = 'random_page_cost';
	SELECT '[' || coalesce(current_setting('bs_advice.hit_share', true), '') || ']';
	COMMIT;});
like($frozen, qr/^(Through PostgreSQL on table big .*block accesses to this tablespace's relations in database postgres .*, before this advice read the table\.|Nothing to suggest from table big: )/,
	'the hit share from pg_statio, as it was before the table was read');
like($frozen, qr/\n\[\]\z/, 'and nothing of it is left in the transaction after the call');

$node->stop;
done_testing();
