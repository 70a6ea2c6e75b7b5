# Relations in a tablespace of their own, in a temporary directory: the
# result names the tablespace, raw and cold runs find the files under
# pg_tblspc, and relation sizes agree with PostgreSQL's.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('tblspc', 'fsync = on');
my $dir = PostgreSQL::Test::Utils::tempdir();
my $dir2 = PostgreSQL::Test::Utils::tempdir();

$node->safe_psql('postgres', qq{
	CREATE TABLESPACE bs_fast LOCATION '$dir';
	CREATE TABLESPACE bs_slow LOCATION '$dir2';
	CREATE TABLE in_fast (id integer, v text) TABLESPACE bs_fast;
	INSERT INTO in_fast SELECT g, md5(g::text) FROM generate_series(1, 50000) g;
	CREATE INDEX in_fast_idx ON in_fast (id) TABLESPACE bs_slow;
	VACUUM (FREEZE, ANALYZE) in_fast;
	CHECKPOINT;
});

my $path = $node->safe_psql('postgres', "SELECT pg_relation_filepath('in_fast')");
like($path, qr{^pg_tblspc/\d+/}, 'the table lives under pg_tblspc');

foreach my $mode (qw(heap buffer raw))
{
	foreach my $cache (qw(warm cold))
	{
		my $r = bs_row($node, qq{
			SELECT *, pg_relation_size('in_fast') / current_setting('block_size')::int AS expect_pages
			FROM bench_seqscan('in_fast', '$mode', '$cache')});
		is($r->{tablespace}, 'bs_fast', "$mode $cache: tablespace reported");
		is($r->{pages}, $r->{expect_pages}, "$mode $cache: pages");
		is($r->{tuples}, $mode eq 'buffer' ? undef : 50000, "$mode $cache: tuples");
	}
}

# The index is in the other tablespace.
my $ix = bs_row($node, "SELECT * FROM bench_seqscan('in_fast_idx', 'raw', 'cold')");
is($ix->{tablespace}, 'bs_slow', 'index reports its own tablespace');
cmp_ok($ix->{pages}, '>', 0, 'index read from its files');

my $st = bs_row($node, "SELECT * FROM bench_cache_status('in_fast')");
is($st->{files}, 1, 'one segment file found under pg_tblspc');

my $sz = bs_row($node, qq{
	SELECT r.tablespace, r.mb * 1048576 = pg_relation_size('in_fast') AS mb_ok,
		   r.indexes_mb * 1048576 = pg_indexes_size('in_fast') AS idx_ok,
		   r.total_mb * 1048576 = pg_total_relation_size('in_fast') AS total_ok
	FROM bench_relation_sizes(NULL, 'public') r WHERE r.relation = 'in_fast'::regclass});
is($sz->{tablespace}, 'bs_fast', 'relation sizes: tablespace');
ok($sz->{mb_ok} && $sz->{idx_ok} && $sz->{total_ok}, 'relation sizes agree');

# Partitions in two tablespaces: tablespace is NULL, the sums stay right.
$node->safe_psql('postgres', q{
	CREATE TABLE spread (k integer) PARTITION BY LIST (k);
	CREATE TABLE spread_1 PARTITION OF spread FOR VALUES IN (1) TABLESPACE bs_fast;
	CREATE TABLE spread_2 PARTITION OF spread FOR VALUES IN (2) TABLESPACE bs_slow;
	INSERT INTO spread SELECT 1 + g % 2 FROM generate_series(1, 10000) g;
	CREATE TABLE together (k integer) PARTITION BY LIST (k);
	CREATE TABLE together_1 PARTITION OF together FOR VALUES IN (1) TABLESPACE bs_slow;
});
my $sp = bs_row($node, "SELECT * FROM bench_seqscan('spread')");
is($sp->{tablespace}, undef, 'partitions in two tablespaces: tablespace is NULL');
is($sp->{tuples}, 10000, 'partitions in two tablespaces: all tuples');
is(bs_row($node, "SELECT * FROM bench_seqscan('together')")->{tablespace},
	'bs_slow', 'partitions in one tablespace: that tablespace');
my $sps = bs_row($node,
	"SELECT * FROM bench_relation_sizes(NULL, 'public') WHERE relation = 'spread'::regclass");
is($sps->{tablespace}, undef, 'relation sizes: NULL tablespace for spread partitions');

# A database whose default tablespace is bs_fast: relations there have
# reltablespace 0, and are reported in bs_fast, not pg_default.
$node->safe_psql('postgres', 'CREATE DATABASE fastdb TABLESPACE bs_fast');
$node->safe_psql('fastdb', q{
	CREATE EXTENSION benchstore;
	CREATE TABLE t AS SELECT g FROM generate_series(1, 1000) g;
});
is(bs_row($node, "SELECT * FROM bench_seqscan('t')", 'fastdb')->{tablespace},
	'bs_fast', 'database default tablespace reported');
is(bs_row($node, "SELECT * FROM bench_relation_sizes()", 'fastdb')->{tablespace},
	'bs_fast', 'relation sizes: database default tablespace');

$node->stop;
done_testing();
