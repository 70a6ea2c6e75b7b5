# Benchmarks take AccessShareLock only: concurrent INSERT, UPDATE and
# DELETE run during a scan.  The count is exact for the statement's
# snapshot while others commit.  Other sessions' temporary tables are
# refused.
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
