# benchstore_cluster on a real Citus cluster (Citus 11-13 for PostgreSQL 15):
# a coordinator and two workers, a distributed table, and
# bench_cluster_seqscan('citus', ...) scanning each worker's shards.  Runs
# only where Citus is installed (it has no Debian package; see doc/cluster.md).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
plan skip_all => 'Citus is not installed'
  unless -e "$sharedir/extension/citus.control";

my @conf = ('shared_buffers = 16MB', 'max_connections = 50',
	"shared_preload_libraries = 'citus'");
my $coord = bs_node('coordinator', @conf);
my @workers = map { bs_node("worker$_", @conf) } 1 .. 2;

# Unix sockets only: a node's name in Citus's metadata is its socket
# directory, which libpq takes as host.
for my $node ($coord, @workers)
{
	$node->append_conf('postgresql.conf', "citus.local_hostname = '" . $node->host . "'\n");
	$node->reload;
	$node->safe_psql('postgres', 'CREATE EXTENSION citus');
}
$coord->safe_psql('postgres', sprintf("SELECT citus_set_coordinator_host('%s', %d)",
		$coord->host, $coord->port));
for my $w (@workers)
{
	$coord->safe_psql('postgres', sprintf("SELECT citus_add_node('%s', %d)", $w->host, $w->port));
}
$coord->safe_psql('postgres', q{
	CREATE EXTENSION benchstore_cluster CASCADE;
	SET citus.shard_count = 4;
	SET citus.shard_replication_factor = 1;
	CREATE TABLE lineitem (l_orderkey bigint, l_comment text);
	SELECT create_distributed_table('lineitem', 'l_orderkey');
	INSERT INTO lineitem SELECT g, md5(g::text) FROM generate_series(1, 300000) g;
	VACUUM ANALYZE lineitem;
});
my $block_size = $coord->safe_psql('postgres', 'SHOW block_size');

my @names = split /\n/, $coord->safe_psql('postgres', q{
	SELECT nodename || ':' || nodeport FROM pg_dist_node
	WHERE noderole = 'primary' AND groupid <> 0 ORDER BY nodename, nodeport});
is(scalar(@names), 2, 'two workers');

my @shard_names = split /,/, $coord->safe_psql('postgres',
	"SELECT array_to_string(citus_shard_names('lineitem'), ',')");
is(scalar(@shard_names), 4, 'citus_shard_names: four shards');

# Bytes per worker, from Citus: every placement's relation size.
my %bytes_on = map { split /=/ } split /\n/, $coord->safe_psql('postgres', q{
	SELECT p.nodename || ':' || p.nodeport || '=' || sum(p.result::bigint)
	FROM run_command_on_placements('lineitem', 'SELECT pg_relation_size(''%s'')') p
	GROUP BY p.nodename, p.nodeport});

my @rows = bs_rows($coord,
	"SELECT * FROM bench_cluster_seqscan('citus', 'lineitem', label => 'citus-real')");
is(join(',', map { $_->{node} } @rows), join(',', @names, 'total'),
	'one row per worker, then the total');
my %r = map { $_->{node} => $_ } @rows;
for my $n (@names)
{
	is($r{$n}{pages} * $block_size, $bytes_on{$n}, "$n: its placements' size");
}
is($r{total}{pages} * $block_size,
	$coord->safe_psql('postgres', "SELECT citus_relation_size('lineitem')"),
	'total = citus_relation_size');
is($r{total}{tuples}, $coord->safe_psql('postgres', 'SELECT count(*) FROM lineitem'),
	'total tuples = the distributed count(*)');
ok($r{total}{mb_per_s} > 0 && $r{total}{skew} >= 1, 'an aggregate rate and a skew');

@rows = bs_rows($coord,
	"SELECT node, run, pages FROM bench_cluster_seqscan('citus', 'lineitem', cache => 'cold', repeat => 2, record => false)");
is(scalar(grep { $_->{node} eq 'total' } @rows), 2, 'cold, repeat => 2: a total per run');

is($coord->safe_psql('postgres',
		"SELECT count(*) FROM bench_history WHERE label = 'citus-real' AND benchmark = 'cluster_seqscan'"),
	1, 'the total recorded on the coordinator');

# Every shard counted once: a reference table has a copy on every worker,
# and a table with two placements per shard two; the scan reads one of
# each, on one worker.
$coord->safe_psql('postgres', q{
	CREATE TABLE nation (n_nationkey integer PRIMARY KEY, n_comment text);
	SELECT create_reference_table('nation');
	INSERT INTO nation SELECT g, repeat('n', 200) FROM generate_series(1, 5000) g;
	SET citus.shard_count = 4;
	SET citus.shard_replication_factor = 2;
	CREATE TABLE twice (id bigint, pad text);
	SELECT create_distributed_table('twice', 'id');
	INSERT INTO twice SELECT g, md5(g::text) FROM generate_series(1, 40000) g;
	VACUUM ANALYZE nation, twice;
});
for my $t ('nation', 'twice')
{
	my @rows = bs_rows($coord,
		"SELECT * FROM bench_cluster_seqscan('citus', '$t', record => false)");
	my ($total) = grep { $_->{node} eq 'total' } @rows;
	is($total->{tuples}, $coord->safe_psql('postgres', "SELECT count(*) FROM $t"),
		"$t: total tuples = count(*), every row once");
	# one placement of each shard, on the first worker holding one, as the
	# scan picks; citus_relation_size counts every copy
	my $one_copy = $coord->safe_psql('postgres', qq{
		SELECT sum(x.size) FROM (
			SELECT DISTINCT ON (p.shardid) p.result::bigint AS size
			FROM run_command_on_placements('$t', 'SELECT pg_relation_size(''%s'')') p
			JOIN pg_dist_node n ON n.nodename = p.nodename AND n.nodeport = p.nodeport
			WHERE n.groupid <> 0
			ORDER BY p.shardid, p.nodename, p.nodeport) x});
	is($total->{pages} * $block_size, $one_copy,
		"$t: total size = one placement of each shard");
	my $copies = $coord->safe_psql('postgres', qq{
		SELECT count(*) / count(DISTINCT p.shardid) FROM pg_dist_placement p
		JOIN pg_dist_shard s ON s.shardid = p.shardid WHERE s.logicalrelid = '$t'::regclass});
	is($total->{pages} * $block_size * $copies,
		$coord->safe_psql('postgres', "SELECT citus_relation_size('$t')"),
		"$t: citus_relation_size counts the $copies copies");
	my $nodes_reading = grep { $_->{node} ne 'total' && $_->{pages} > 0 } @rows;
	if ($t eq 'nation')
	{
		is($nodes_reading, 1, 'nation: the reference table is read on one worker');
	}
	else
	{
		cmp_ok($nodes_reading, '>=', 1, 'twice: each shard read on one worker');
	}
}

my ($ret, $out, $err) = $coord->psql('postgres', "SELECT * FROM bench_seqscan('lineitem')");
like($err, qr/ERROR:  .*Citus.*\n(?:.*\n)*HINT:  .*bench_cluster_seqscan/,
	'core bench_seqscan refuses the coordinator\'s shell table');

done_testing();
