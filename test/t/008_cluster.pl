# benchstore_cluster over PL/Proxy: a coordinator and three nodes, each
# with a table of its own size.  Every node reports under its own
# partition name, the total row sums the nodes, the nodes run at the same
# time, failures name the node, and the runs are recorded on the nodes and
# (the totals) on the coordinator.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my @conf = ('shared_buffers = 16MB', 'max_connections = 50');
my $coord = bs_node('coordinator', @conf);
$coord->safe_psql('postgres', 'CREATE EXTENSION benchstore_cluster CASCADE');
is($coord->safe_psql('postgres',
		"SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension WHERE extname <> 'plpgsql'"),
	'benchstore,benchstore_cluster,plproxy',
	'CREATE EXTENSION benchstore_cluster CASCADE brings plproxy');

# Node i holds a table of (i + 2) * 50000 rows: about 7, 10 and 14 MB.
my @nodes;
for my $i (0 .. 2)
{
	my $node = bs_node("node$i", @conf);
	my $rows = ($i + 2) * 50000;
	$node->safe_psql('postgres', qq{
		CREATE TABLE lineitem AS
			SELECT g AS l_orderkey, md5(g::text) AS l_comment
			FROM generate_series(1, $rows) g;
		VACUUM ANALYZE lineitem;
	});
	push @nodes, $node;
}
bs_plproxy_cluster($coord, 'bench', \@nodes, modular_mapping => 1);

my $block_size = $coord->safe_psql('postgres', 'SHOW block_size');
my (@pages, @tuples);
for my $node (@nodes)
{
	push @pages, $node->safe_psql('postgres',
		"SELECT pg_relation_size('lineitem') / $block_size");
	push @tuples, $node->safe_psql('postgres', 'SELECT count(*) FROM lineitem');
}
isnt($pages[0], $pages[1], 'the nodes hold tables of different sizes');

sub sum { my $s = 0; $s += $_ for @_; return $s; }
sub min_of { my $m = shift; for (@_) { $m = $_ if $_ < $m } return $m; }
sub max_of { my $m = shift; for (@_) { $m = $_ if $_ > $m } return $m; }

# Node rows by name, and the total row, of one run.
sub by_node
{
	my @rows = @_;
	return map { $_->{node} => $_ } @rows;
}

# --- One run: a row per node, named by partition, and the total.
my @rows = bs_rows($coord,
	"SELECT * FROM bench_cluster_seqscan('bench', 'lineitem', label => 'tap-scan')");
is(join(',', map { $_->{node} } @rows), 'p0,p1,p2,total',
	'one row per node, in partition order, then the total');
my %r = by_node(@rows);
for my $i (0 .. 2)
{
	my $row = $r{"p$i"};
	is($row->{pages}, $pages[$i], "p$i: pages are that node's relation size");
	is($row->{tuples}, $tuples[$i], "p$i: tuples are that node's count(*)");
	is($row->{relation}, 'lineitem', "p$i: the relation as the node names it (text)");
	is($row->{run}, 1, "p$i: run 1");
	ok(!defined $row->{skew} && !defined $row->{min_mb_per_s},
		"p$i: no skew on a node row");
}
my $total = $r{total};
is($total->{pages}, sum(@pages), 'total pages = sum of the nodes\' relation sizes');
is($total->{tuples}, sum(@tuples), 'total tuples = sum of the nodes\' counts');
is($total->{size_mb}, sum(@pages) * $block_size / 1048576, 'total size_mb = sum of the sizes');
is($total->{blks_hit} + $total->{blks_read},
	sum(map { $r{"p$_"}{blks_hit} + $r{"p$_"}{blks_read} } 0 .. 2),
	'total blocks = sum of the nodes\' blocks');
ok($total->{elapsed_ms} > 0, 'total elapsed_ms is the coordinator\'s wall time');
my $rate = $total->{size_mb} / ($total->{elapsed_ms} / 1000);
ok(abs($total->{mb_per_s} - $rate) <= 0.01 + 1e-6 * $rate,
	'total mb_per_s = summed size_mb / coordinator wall time');
my @node_rates = map { $r{"p$_"}{mb_per_s} } 0 .. 2;
is($total->{min_mb_per_s}, min_of(@node_rates), 'min_mb_per_s is the slowest node\'s');
is($total->{max_mb_per_s}, max_of(@node_rates), 'max_mb_per_s is the fastest node\'s');
ok(abs($total->{skew} - max_of(@node_rates) / min_of(@node_rates)) < 0.001,
	'skew = max / min of the nodes\' rates');
is($total->{workers_requested}, 0, 'no parallel workers by default');

# --- Partition names, not result order, name the nodes: the same nodes
# listed the other way round.
bs_plproxy_cluster($coord, 'reversed', [ reverse @nodes ], modular_mapping => 1);
%r = by_node(bs_rows($coord,
		"SELECT * FROM bench_cluster_seqscan('reversed', 'lineitem', record => false)"));
is(join(',', map { $r{"p$_"}{pages} } 0 .. 2), join(',', reverse @pages),
	'each partition reports the table of the node it names');

# --- repeat: the coordinator loops, one fan-out and one total per run.
@rows = bs_rows($coord,
	"SELECT node, run, pages FROM bench_cluster_seqscan('bench', 'lineitem', repeat => 2, label => 'tap-scan')");
is(join(',', map { "$_->{node}:$_->{run}" } @rows),
	'p0:1,p1:1,p2:1,total:1,p0:2,p1:2,p2:2,total:2', 'repeat => 2: two runs, each with its total');

# --- Cold cache, and workers passed through to the nodes.
@rows = bs_rows($coord,
	"SELECT * FROM bench_cluster_seqscan('bench', 'lineitem', cache => 'cold', workers => 1, record => false)");
%r = by_node(@rows);
is(join(',', map { $r{"p$_"}{cache} } 0 .. 2), 'cold,cold,cold', 'cache => cold on every node');
is(join(',', map { $r{"p$_"}{workers_requested} } 0 .. 2), '1,1,1',
	'workers => 1 reaches every node');
is($r{total}{workers_requested}, 3, 'total workers_requested is summed');
is($r{total}{pages}, sum(@pages), 'cold total pages');

# --- History: the coordinator keeps the total rows, each node its own run.
my $hist = bs_row($coord, q{
	SELECT count(DISTINCT run_id) AS runs, count(*) AS rows,
		   count(*) FILTER (WHERE metrics ->> 'node' = 'total') AS totals,
		   min(benchmark) AS benchmark, min(target) AS target,
		   min(metrics ->> 'pages') AS pages,
		   bool_and(metrics ->> 'mode' = 'heap') AS heap
	FROM bench_history WHERE label = 'tap-scan'});
is($hist->{runs}, 2, 'coordinator: one recorded run per call');
is($hist->{rows}, 3, 'coordinator: one result row per run of the calls (1 + 2)');
is($hist->{totals}, 3, 'coordinator: only total rows are recorded');
is($hist->{benchmark}, 'cluster_seqscan', 'coordinator: benchmark cluster_seqscan');
is($hist->{target}, 'bench/lineitem', 'coordinator: target is the cluster and the relation');
is($hist->{pages}, sum(@pages), 'coordinator: the recorded total');
my $args = bs_row($coord, q{
	SELECT arguments ->> 'cluster' AS cluster, arguments ->> 'nodes' AS nodes
	FROM bench_run WHERE label = 'tap-scan' ORDER BY run_id LIMIT 1});
is("$args->{cluster}/$args->{nodes}", 'bench/3', 'coordinator: the arguments name the cluster and node count');
for my $i (0 .. 2)
{
	my $h = bs_row($nodes[$i], q{
		SELECT count(*) AS rows, min(benchmark) AS benchmark, min(metrics ->> 'pages') AS pages
		FROM bench_history WHERE label = 'tap-scan'});
	is("$h->{rows}/$h->{benchmark}/$h->{pages}", "3/seqscan/$pages[$i]",
		"p$i recorded its own runs under the label");
}
is($nodes[0]->safe_psql('postgres', 'SELECT count(*) FROM bench_run WHERE label IS NULL'),
	0, 'record => false: the nodes recorded nothing');
is($coord->safe_psql('postgres', 'SELECT count(*) FROM bench_run WHERE label IS NULL'),
	0, 'record => false: the coordinator recorded nothing');

# --- bench_cluster_randread: each node reads its own table at random
# through its buffer manager, with workers, and the total sums them.
@rows = bs_rows($coord, q{
	SELECT * FROM bench_cluster_randread('bench', 'lineitem', reads => 500, workers => 1,
										 seed => 7, label => 'tap-rr')});
is(join(',', map { $_->{node} } @rows), 'p0,p1,p2,total', 'randread: one row per node, then the total');
%r = by_node(@rows);
for my $i (0 .. 2)
{
	my $row = $r{"p$i"};
	my $direct = bs_row($nodes[$i], q{
		SELECT tuples FROM bench_randread('lineitem', reads => 500, seed => 7, record => false)});
	is($row->{reads}, 500, "randread p$i: reads on that node");
	is($row->{blocks}, $pages[$i], "randread p$i: blocks are that node's relation size");
	is($row->{tuples}, $direct->{tuples}, "randread p$i: the blocks that node reads with that seed");
	is($row->{blks_hit} + $row->{blks_read}, 500, "randread p$i: every read a hit or a read from the OS");
	ok($row->{workers_launched} <= 1, "randread p$i: workers => 1 reached the node");
	ok(!defined $row->{skew}, "randread p$i: no skew on a node row");
}
$total = $r{total};
is($total->{reads}, 1500, 'randread total reads = sum of the nodes\'');
is($total->{blocks}, sum(@pages), 'randread total blocks = sum of the nodes\' relation sizes');
is($total->{device_reads}, sum(map { $r{"p$_"}{device_reads} } 0 .. 2), 'randread total device reads summed');
$rate = 1500 / ($total->{elapsed_ms} / 1000);
ok(abs($total->{reads_per_s} - $rate) <= 0.1 + 1e-6 * $rate,
	'randread total reads_per_s = summed reads / coordinator wall time');
@node_rates = map { $r{"p$_"}{reads_per_s} } 0 .. 2;
is($total->{min_reads_per_s}, min_of(@node_rates), 'randread min_reads_per_s is the slowest node\'s');
ok(abs($total->{skew} - max_of(@node_rates) / min_of(@node_rates)) < 0.001,
	'randread skew = max / min of the nodes\' rates');
@rows = bs_rows($coord,
	"SELECT node, cache, reads FROM bench_cluster_randread('bench', 'lineitem', reads => 50, cache => 'cold', record => false)");
is(join(',', map { "$_->{node}:$_->{cache}:$_->{reads}" } @rows),
	'p0:cold:50,p1:cold:50,p2:cold:50,total:cold:150', 'randread cold on every node');
$hist = bs_row($coord, q{
	SELECT count(*) AS rows, min(benchmark) AS benchmark, min(target) AS target,
		   min(metrics ->> 'reads') AS reads,
		   (SELECT min(arguments ->> 'seed') FROM bench_run WHERE label = 'tap-rr') AS seed
	FROM bench_history WHERE label = 'tap-rr'});
is("$hist->{rows}/$hist->{benchmark}/$hist->{target}/$hist->{reads}/$hist->{seed}",
	'1/cluster_randread/bench/lineitem/1500/7', 'randread: the coordinator recorded the total');
is($nodes[1]->safe_psql('postgres',
		"SELECT count(*) || '/' || min(benchmark) FROM bench_history WHERE label = 'tap-rr'"),
	'1/randread', 'randread: each node recorded its own run');

# --- bench_cluster_tpcb: each node runs pgbench's TPC-B-like transaction
# on its own pgbench tables with its own clients, all at once.
$_->safe_psql('postgres', q{
	SET client_min_messages = warning;
	SELECT branches FROM bench_generate_tpcb(scale => 1);
	VACUUM ANALYZE pgbench_branches, pgbench_tellers, pgbench_accounts;}) for @nodes;
@rows = bs_rows($coord, q{
	SELECT * FROM bench_cluster_tpcb('bench', clients => 2, duration => '500ms', label => 'tap-tpcb')});
is(join(',', map { $_->{node} } @rows), 'p0,p1,p2,total', 'tpcb: one row per node, then the total');
%r = by_node(@rows);
for my $i (0 .. 2)
{
	my $row = $r{"p$i"};
	is("$row->{clients}/$row->{scale}/$row->{schema}", '2/1/public', "tpcb p$i: that node's clients and tables");
	cmp_ok($row->{transactions}, '>', 0, "tpcb p$i: transactions committed");
	like($row->{notes} // '', qr/^Every transaction waited for its WAL to be flushed in pg_wal, which is on the filesystem of pgbench_accounts' tablespace "pg_default" here;/,
		"tpcb p$i: the node ran bench_tpcb alone, its snapshot given up, and its only note says where its transactions waited");
	is($nodes[$i]->safe_psql('postgres', q{
		SELECT (SELECT sum(delta) FROM pgbench_history) = (SELECT sum(abalance) FROM pgbench_accounts)
		   AND (SELECT count(*) FROM pgbench_history) > 0}),
		't', "tpcb p$i: the node's own tables took the transactions (history matches balances)");
}
$total = $r{total};
is($total->{transactions}, sum(map { $r{"p$_"}{transactions} } 0 .. 2), 'tpcb total transactions summed');
is("$total->{clients}/$total->{scale}", '6/3', 'tpcb total clients and scale summed');
ok(abs($total->{tps} - sum(map { $r{"p$_"}{tps} } 0 .. 2)) <= 0.1, 'tpcb total tps = sum of the nodes\'');
my @node_tps = map { $r{"p$_"}{tps} } 0 .. 2;
ok(abs($total->{skew} - max_of(@node_tps) / min_of(@node_tps)) < 0.001, 'tpcb skew = max / min of the nodes\' tps');
cmp_ok($total->{elapsed_ms}, '>=', 500, 'tpcb total elapsed: the coordinator\'s wall time of the fan-out');
$hist = bs_row($coord, q{
	SELECT count(*) AS rows, min(benchmark) AS benchmark, min(target) AS target,
		   min(metrics ->> 'transactions') AS transactions
	FROM bench_history WHERE label = 'tap-tpcb'});
is("$hist->{rows}/$hist->{benchmark}/$hist->{target}/$hist->{transactions}",
	"1/cluster_tpcb/bench/public.pgbench_accounts/$total->{transactions}", 'tpcb: the coordinator recorded the total');
is($nodes[2]->safe_psql('postgres',
		"SELECT count(*) || '/' || min(benchmark) FROM bench_history WHERE label = 'tap-tpcb'"),
	'1/tpcb', 'tpcb: each node recorded its own run');

# With a ramp, each node leaves its warm-up out: its figures start when
# the ramp ends (the history rows the ramp wrote are there, its
# transactions are fewer), and its duration counts from there.
{
	my @before = map { $_->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history') } @nodes;
	my %rr = map { $_->{node} => $_ } bs_rows($coord, q{
		SELECT * FROM bench_cluster_tpcb('bench', clients => 1, duration => '300ms', ramp => '300ms', record => false)});
	for my $i (0 .. 2)
	{
		my $written = $nodes[$i]->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history') - $before[$i];
		cmp_ok($rr{"p$i"}{elapsed_ms}, '>=', 300, "tpcb ramp p$i: the duration counts after the ramp");
		cmp_ok($rr{"p$i"}{transactions}, '<', $written,
			"tpcb ramp p$i: the ramp's transactions ran but are left out ($rr{\"p$i\"}{transactions} of $written)");
	}
	cmp_ok($rr{total}{elapsed_ms}, '>=', 600, 'tpcb ramp: the fan-out took the ramp and the duration');
}
like(psql_error($coord, "SELECT * FROM bench_cluster_tpcb('bench', ramp => '2h')"),
	qr/ERROR:  22023: ramp must be between 0 and 1 hour/, 'tpcb: a ramp out of range: refused before any node runs');

# A read-only transaction on the coordinator: the rows, a notice, no total
# recorded there (the nodes record in their own transactions).
my ($ret, $out, $err) = $coord->psql('postgres', q{
	BEGIN READ ONLY;
	SELECT count(*) FROM bench_cluster_seqscan('bench', 'lineitem', label => 'tap-ro');
	COMMIT;});
is($out, '4', 'read-only transaction: the rows are returned');
like($err, qr/NOTICE:  cluster_seqscan run was not recorded on the coordinator/,
	'read-only transaction: a notice says the total was not recorded');
is($coord->safe_psql('postgres', "SELECT count(*) FROM bench_run WHERE label = 'tap-ro'"),
	0, 'read-only transaction: nothing recorded on the coordinator');
is($nodes[2]->safe_psql('postgres', "SELECT count(*) FROM bench_run WHERE label = 'tap-ro'"),
	1, 'read-only transaction: the node recorded its run');

# --- Concurrency: every node is busy at once.  Each node's table is locked
# by a background session; the fan-out starts, and every node's benchmark
# backend waits on its lock at the same time (a fan-out that went from node
# to node would wait on p0 alone).
my @lockers;
for my $node (@nodes)
{
	my $l = $node->background_psql('postgres');
	$l->query_safe('BEGIN; LOCK TABLE lineitem IN ACCESS EXCLUSIVE MODE');
	push @lockers, $l;
}
my $fanout = $coord->background_psql('postgres', on_error_stop => 0);
$fanout->query_until(qr//, q{
	SELECT string_agg(node || '=' || pages, ',') FROM bench_cluster_seqscan('bench', 'lineitem', record => false);
});
my $waiting_sql = q{
	SELECT count(*) = 1 FROM pg_stat_activity
	WHERE wait_event_type = 'Lock' AND query LIKE '%bench_seqscan%'};
for my $i (0 .. 2)
{
	ok($nodes[$i]->poll_query_until('postgres', $waiting_sql),
		"p$i: the benchmark waits on the lock");
}
is(join(',', map { $_->safe_psql('postgres', $waiting_sql) } @nodes), 't,t,t',
	'all three nodes are in their benchmark at the same time');
$_->query_safe('COMMIT') for @lockers;
$_->quit for @lockers;
$out = $fanout->query_until(qr/fanout done/, "\\echo fanout done\n");
like($out, qr/p0=$pages[0],p1=$pages[1],p2=$pages[2],total=@{[ sum(@pages) ]}/,
	'the fan-out finishes once the locks are gone');
$fanout->quit;

# statement_timeout on the coordinator cancels the nodes' benchmarks too.
my $locker = $nodes[0]->background_psql('postgres');
$locker->query_safe('BEGIN; LOCK TABLE lineitem IN ACCESS EXCLUSIVE MODE');
($ret, $out, $err) = $coord->psql('postgres', q{
	SET statement_timeout = '1s';
	SELECT count(*) FROM bench_cluster_seqscan('bench', 'lineitem', record => false);});
like($err, qr/canceling statement due to statement timeout/, 'statement_timeout stops the fan-out');
ok($nodes[0]->poll_query_until('postgres', q{
	SELECT count(*) = 0 FROM pg_stat_activity
	WHERE query LIKE '%bench_seqscan%' AND state = 'active' AND pid <> pg_backend_pid()}),
	'and the node\'s benchmark is cancelled with it');
$locker->query_safe('COMMIT');
$locker->quit;

# --- Other cluster sizes and partition numbering.
bs_plproxy_cluster($coord, 'pair', [ @nodes[0, 1] ]);
bs_plproxy_cluster($coord, 'pair_mod', [ @nodes[1, 2] ], modular_mapping => 1);
is($coord->safe_psql('postgres',
		"SELECT string_agg(node || '=' || pages, ',') FROM bench_cluster_seqscan('pair', 'lineitem', record => false)"),
	"p0=$pages[0],p1=$pages[1],total=" . ($pages[0] + $pages[1]),
	'N = 2 without modular_mapping');
is($coord->safe_psql('postgres',
		"SELECT string_agg(node || '=' || pages, ',') FROM bench_cluster_seqscan('pair_mod', 'lineitem', record => false)"),
	"p0=$pages[1],p1=$pages[2],total=" . ($pages[1] + $pages[2]),
	'N = 2 with modular_mapping');

# --- Errors.
sub psql_error
{
	my ($node, $sql) = @_;
	my ($rc, $stdout, $stderr) =
	  $node->psql('postgres', "\\set VERBOSITY verbose\n$sql");
	return $stderr;
}

like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('nosuch', 'lineitem')"),
	qr/ERROR:  42704: cluster "nosuch" does not exist.*HINT:  A cluster is a server of the plproxy foreign-data wrapper/s,
	'an unknown cluster: 42704 with a hint');
$coord->safe_psql('postgres', q{
	CREATE EXTENSION postgres_fdw;
	CREATE SERVER not_plproxy FOREIGN DATA WRAPPER postgres_fdw});
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('not_plproxy', 'lineitem')"),
	qr/ERROR:  42704: foreign server "not_plproxy" is not a PL\/Proxy cluster/,
	'a server of another wrapper: 42704');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('citus', 'lineitem')"),
	qr/ERROR:  42704: cluster "citus" does not exist\nDETAIL:  Citus is not installed/,
	'citus without Citus: 42704');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('bench', NULL)"),
	qr/ERROR:  22004: relation cannot be null/, 'a NULL relation: 22004');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('bench', 'lineitem', repeat => NULL)"),
	qr/ERROR:  22004: repeat cannot be null/, 'a NULL repeat: 22004');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan(NULL, 'lineitem')"),
	qr/ERROR:  22004: cluster cannot be null/, 'a NULL cluster: 22004');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('bench', 'lineitem', label => '42')"),
	qr/ERROR:  22023: label "42" must not be a number/,
	'a label no node would take: refused before any node runs');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('bench', 'lineitem', mode => 'hep')"),
	qr/ERROR:  22023: invalid mode "hep"/, 'an unknown mode: 22023');
like(psql_error($coord, "SELECT * FROM bench_cluster_tablespace_io('bench', size => NULL)"),
	qr/ERROR:  22004: size cannot be null/, 'tablespace_io: a NULL size: 22004');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('bench', 'lineitem', workers => 65)"),
	qr/ERROR:  22023: workers must be between 0 and 64/, 'workers out of range: refused before any node runs');
like(psql_error($coord, "SELECT * FROM bench_cluster_randread('bench', 'lineitem', reads => 0)"),
	qr/ERROR:  22023: reads must be between 1 and 1000000000/, 'randread: reads out of range: 22023');
like(psql_error($coord, "SELECT * FROM bench_cluster_randread('bench', 'lineitem', depth => 257)"),
	qr/ERROR:  22023: depth must be between 1 and 256/, 'randread: depth out of range: 22023');
like(psql_error($coord, "SELECT * FROM bench_cluster_randread('bench', 'lineitem', seed => NULL)"),
	qr/ERROR:  22004: seed cannot be null/, 'randread: a NULL seed: 22004');
like(psql_error($coord, "SELECT * FROM bench_cluster_randread('bench', 'lineitem', cache => 'hot')"),
	qr/ERROR:  22023: invalid cache "hot"/, 'randread: an unknown cache: 22023');
# Arguments every node refuses alike are the arguments' error, not a node's.
my $bad_block = psql_error($coord,
	"SELECT * FROM bench_cluster_tablespace_io('bench', size => '1MB', block_size => '3kB')");
like($bad_block, qr/ERROR:  22023: block_size must be a power of two between 512 bytes and 16 MB\nHINT:  For example/,
	'an argument the nodes refuse: their message, SQLSTATE and hint');
unlike($bad_block, qr/node "p\d"/, 'and no node is blamed for it');

# A node without the relation.
$nodes[2]->safe_psql('postgres', 'ALTER TABLE lineitem RENAME TO lineitem_away');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('bench', 'lineitem')"),
	qr/ERROR:  42P01: node "p2" of cluster "bench" failed\nDETAIL:  relation "lineitem" does not exist/,
	'a node without the relation: its error, under its name, with its SQLSTATE');
like(psql_error($coord, "SELECT * FROM bench_cluster_randread('bench', 'lineitem')"),
	qr/ERROR:  42P01: node "p2" of cluster "bench" failed\nDETAIL:  relation "lineitem" does not exist/,
	'randread: a node without the relation, named');
$nodes[2]->safe_psql('postgres', 'ALTER TABLE lineitem_away RENAME TO lineitem');
$nodes[1]->safe_psql('postgres', 'ALTER TABLE pgbench_history RENAME TO pgbench_history_away');
my $t0 = time;
like(psql_error($coord, "SELECT * FROM bench_cluster_tpcb('bench', clients => 1, duration => '30s')"),
	qr/ERROR:  42P01: node "p1" of cluster "bench" failed\nDETAIL:  relation "public.pgbench_history" does not exist/,
	'tpcb: a node without pgbench\'s tables, named, with its SQLSTATE');
cmp_ok(time - $t0, '<', 25, 'tpcb: the failed fan-out did not wait for the other nodes\' full duration');
$nodes[1]->safe_psql('postgres', 'ALTER TABLE pgbench_history_away RENAME TO pgbench_history');
like(psql_error($coord, "SELECT * FROM bench_cluster_tpcb('bench', clients => 65)"),
	qr/ERROR:  22023: clients must be between 1 and 64/, 'tpcb: clients out of range: refused before any node runs');
like(psql_error($coord, "SELECT * FROM bench_cluster_tpcb('bench', duration => NULL)"),
	qr/ERROR:  22004: duration cannot be null/, 'tpcb: a NULL duration: 22004');

# A node without benchstore.
$nodes[1]->safe_psql('postgres', 'DROP EXTENSION benchstore');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('bench', 'lineitem')"),
	qr/ERROR:  42883: node "p1" of cluster "bench" failed\nDETAIL:  function "bench_seqscan" does not exist/,
	'a node without benchstore: named');
$nodes[1]->safe_psql('postgres', 'CREATE EXTENSION benchstore');

# A node that is down, warm and cold.
$nodes[1]->stop('fast');
my $down = psql_error($coord, "SELECT * FROM bench_cluster_seqscan('bench', 'lineitem')");
like($down, qr/ERROR:  08001: node "p1" of cluster "bench" failed\nDETAIL:  connection to server .* failed/,
	'a node that is down: named, 08001, with the connection error');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('bench', 'lineitem', cache => 'cold')"),
	qr/ERROR:  08001: node "p1" of cluster "bench" failed/, 'down, cold: named');
like(psql_error($coord, "SELECT * FROM bench_cluster_tablespace_io('bench', size => '1MB')"),
	qr/ERROR:  08001: node "p1" of cluster "bench" failed/, 'down, tablespace_io: named');
$nodes[1]->start;

# A failure only the benchmark itself finds (here: a privilege that one
# node lacks), found by rerunning the call node by node.
$coord->safe_psql('postgres', 'CREATE ROLE bench_user LOGIN');
for my $i (0 .. 2)
{
	$nodes[$i]->safe_psql('postgres', 'CREATE ROLE bench_user LOGIN');
	$nodes[$i]->safe_psql('postgres', 'GRANT SELECT ON lineitem TO bench_user') if $i != 1;
}
like(psql_error($coord, "SET ROLE bench_user; SELECT * FROM bench_cluster_seqscan('bench', 'lineitem')"),
	qr/ERROR:  42501: permission denied for foreign server bench\nHINT:  GRANT USAGE/,
	'a role without USAGE on the cluster\'s server: 42501');
$coord->safe_psql('postgres', 'GRANT USAGE ON FOREIGN SERVER bench TO bench_user');
like(psql_error($coord, "SET ROLE bench_user; SELECT * FROM bench_cluster_seqscan('bench', 'lineitem')"),
	qr/ERROR:  42501: node "p1" of cluster "bench" failed\nDETAIL:  permission denied for table lineitem/,
	'a privilege one node lacks: named, with that node\'s error');
like(psql_error($coord, "SET ROLE bench_user; SELECT * FROM bench_cluster_randread('bench', 'lineitem', reads => 10)"),
	qr/ERROR:  42501: node "p1" of cluster "bench" failed\nDETAIL:  permission denied for table lineitem/,
	'randread: a privilege one node lacks: named, with that node\'s error');
# bench_tpcb's rights, granted on every node but p1: that node named.
$nodes[$_]->safe_psql('postgres', q{
	GRANT SELECT, UPDATE ON pgbench_accounts, pgbench_tellers, pgbench_branches TO bench_user;
	GRANT INSERT ON pgbench_history TO bench_user;}) for (0, 2);
like(psql_error($coord, "SET ROLE bench_user; SELECT * FROM bench_cluster_tpcb('bench', clients => 1, duration => '200ms')"),
	qr/ERROR:  42501: node "p1" of cluster "bench" failed\nDETAIL:  permission denied for table pgbench_\w+/,
	'tpcb: a role without the rights on one node\'s pgbench tables: that node named, 42501');
is($coord->safe_psql('postgres', q{SELECT count(*) FROM bench_run WHERE benchmark = 'cluster_tpcb' AND recorded_by = 'bench_user'}),
	'0', 'tpcb: the failed fan-out recorded no total on the coordinator');
$nodes[1]->safe_psql('postgres', 'GRANT SELECT ON lineitem TO bench_user');
is($coord->safe_psql('postgres',
		"SET ROLE bench_user; SELECT string_agg(node, ',') FROM bench_cluster_seqscan('bench', 'lineitem', label => 'tap-user')"),
	'p0,p1,p2,total', 'with the privilege on every node, the role runs it');
is($nodes[1]->safe_psql('postgres',
		"SELECT recorded_by FROM bench_run WHERE label = 'tap-user'"),
	'bench_user', 'the node ran it as that role');

# --- Tablespace I/O: one fan-out for all tests, a total per test.
my $direct = bs_fs_type($nodes[0]->data_dir) eq 'tmpfs' ? 'false' : 'true';
@rows = bs_rows($coord, qq{
	SELECT * FROM bench_cluster_tablespace_io('bench', size => '8MB', block_size => '64kB',
		tests => '{seqwrite,seqread,randread}', duration => '1s', direct => $direct,
		label => 'tap-io')});
is(join(',', map { "$_->{test}:$_->{node}" } @rows),
	join(',', map { my $t = $_; map { "$t:$_" } qw(p0 p1 p2 total) } qw(seqwrite seqread randread)),
	'tablespace_io: per test, a row per node and the total');
for my $test (qw(seqwrite seqread randread))
{
	my %t = by_node(grep { $_->{test} eq $test } @rows);
	my @n = map { $t{"p$_"} } 0 .. 2;
	my $tot = $t{total};
	is($tot->{bytes}, sum(map { $_->{bytes} } @n), "$test: total bytes = sum");
	ok(abs($tot->{mb_per_s} - sum(map { $_->{mb_per_s} } @n)) < 0.011,
		"$test: total mb_per_s = sum of the nodes' rates");
	ok(abs($tot->{iops} - sum(map { $_->{iops} } @n)) < 0.11,
		"$test: total iops = sum of the nodes' rates");
	is($tot->{elapsed_ms}, max_of(map { $_->{elapsed_ms} } @n), "$test: total elapsed = slowest node");
	is($tot->{lat_p99_us}, max_of(map { $_->{lat_p99_us} } @n), "$test: total p99 = worst node");
	is($tot->{streams}, 3, "$test: total streams = sum");
	is($tot->{min_mb_per_s}, min_of(map { $_->{mb_per_s} } @n), "$test: min_mb_per_s");
	is($tot->{tablespace}, 'pg_default', "$test: the tablespace");
}
if ($direct eq 'true')
{
	is(join(',', map { $_->{direct} ? 't' : 'f' } @rows[0 .. 3]), 't,t,t,t', 'direct I/O on every node');
}
$hist = bs_row($coord, q{
	SELECT count(DISTINCT run_id) AS runs, string_agg(test, ',' ORDER BY row_no) AS tests,
		   min(benchmark) AS benchmark, min(target) AS target
	FROM bench_history WHERE label = 'tap-io'});
is("$hist->{runs}/$hist->{benchmark}/$hist->{target}/$hist->{tests}",
	'1/cluster_tablespace_io/bench/pg_default/seqwrite,seqread,randread',
	'coordinator: the total rows of the tablespace tests, recorded');
is(join(',', map { $_->safe_psql('postgres', "SELECT count(*) FROM bench_history WHERE label = 'tap-io'") } @nodes),
	'3,3,3', 'each node recorded its three tests');

# Queue depth on every node: each node's row and the total say it.
@rows = bs_rows($coord, q{
	SELECT * FROM bench_cluster_tablespace_io('bench', size => '4MB', block_size => '64kB',
		tests => '{seqwrite,randread}', duration => '1s', direct => false,
		iodepth => 4, label => 'tap-io-depth')});
is(join(',', map { "$_->{node}:$_->{iodepth}:$_->{bytes}" } grep { $_->{test} eq 'seqwrite' } @rows),
	'p0:4:4194304,p1:4:4194304,p2:4:4194304,total:4:12582912',
	'tablespace_io at depth 4: every node and the total at depth 4, every block once');
is(join(',', map { $_->safe_psql('postgres',
		"SELECT string_agg(DISTINCT iodepth::text, ',') FROM bench_history WHERE label = 'tap-io-depth'") } @nodes),
	'4,4,4', 'each node recorded its runs at depth 4');
is($coord->safe_psql('postgres',
		"SELECT arguments ->> 'iodepth' FROM bench_run WHERE label = 'tap-io-depth'"),
	'4', 'the coordinator recorded the depth');
like(psql_error($coord, "SELECT * FROM bench_cluster_tablespace_io('bench', size => '1MB', iodepth => NULL)"),
	qr/ERROR:  22004: iodepth cannot be null/, 'tablespace_io: a NULL iodepth: 22004');
like(psql_error($coord, "SELECT * FROM bench_cluster_tablespace_io('bench', size => '1MB', iodepth => 300)"),
	qr/ERROR:  22023: iodepth must be between 1 and 256/, 'an iodepth the nodes refuse: their message');

# A node without the tablespace.
$nodes[0]->safe_psql('postgres',
	"CREATE TABLESPACE io_ts LOCATION '" . PostgreSQL::Test::Utils::tempdir() . "'");
like(psql_error($coord, "SELECT * FROM bench_cluster_tablespace_io('bench', 'io_ts', size => '1MB')"),
	qr/ERROR:  42704: node "p1" of cluster "bench" failed\nDETAIL:  tablespace "io_ts" does not exist/,
	'a node without the tablespace: named');

# No role borrows another's connection or name through PL/Proxy: PL/Proxy
# keeps its connections per role, so after a superuser's run in a session,
# a run after SET ROLE and one after SET SESSION AUTHORIZATION go to the
# nodes as the plain role, and the nodes record them under its name, not
# the superuser's.
for my $n ($coord, @nodes)
{
	$n->safe_psql('postgres', 'CREATE ROLE plain_px LOGIN');
}
$_->safe_psql('postgres', 'GRANT SELECT ON lineitem TO plain_px') for @nodes;
$coord->safe_psql('postgres', 'GRANT USAGE ON FOREIGN SERVER bench TO plain_px');
$coord->safe_psql('postgres', q{
	SELECT count(*) FROM bench_cluster_seqscan('bench', 'lineitem', label => 'px-su');
	SET ROLE plain_px;
	SELECT count(*) FROM bench_cluster_seqscan('bench', 'lineitem', label => 'px-role');
	RESET ROLE;
	SET SESSION AUTHORIZATION plain_px;
	SELECT count(*) FROM bench_cluster_seqscan('bench', 'lineitem', label => 'px-auth');
	RESET SESSION AUTHORIZATION;
	SELECT count(*) FROM bench_cluster_seqscan('bench', 'lineitem', label => 'px-su-again');});
for my $i (0 .. 2)
{
	is($nodes[$i]->safe_psql('postgres', q{
		SELECT string_agg(label || '=' || recorded_by, ',' ORDER BY run_id)
		FROM bench_run WHERE label LIKE 'px-%'}),
		'px-su=postgres,px-role=plain_px,px-auth=plain_px,px-su-again=postgres',
		"p$i: each run recorded under the role that ran it, in one session");
}
is($coord->safe_psql('postgres', q{
	SELECT string_agg(label || '=' || recorded_by, ',' ORDER BY run_id)
	FROM bench_run WHERE label LIKE 'px-%'}),
	'px-su=postgres,px-role=plain_px,px-auth=plain_px,px-su-again=postgres',
	'the coordinator recorded each total under the role that ran it');

done_testing();
