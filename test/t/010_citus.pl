# benchstore_cluster on a real Citus cluster (13.2.2 on 15, 14.0.1 on 18, built by test/run-tests.sh):
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
# The Citus path keeps a connection to each worker open for the session
# and role (src/citus_pool.c; the tests below go through it unless they
# ask for Citus's own dispatch)
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

# bench_cluster_randread: each worker reads its shards at random through
# its buffer manager, its reads shared among them by size.
@rows = bs_rows($coord, q{
	SELECT * FROM bench_cluster_randread('citus', 'lineitem', reads => 400, workers => 1,
										 label => 'citus-rr')});
is(join(',', map { $_->{node} } @rows), join(',', @names, 'total'),
	'randread: one row per worker, then the total');
%r = map { $_->{node} => $_ } @rows;
for my $n (@names)
{
	is($r{$n}{blocks} * $block_size, $bytes_on{$n}, "randread $n: the blocks of its placements");
	ok($r{$n}{reads} >= 400 && $r{$n}{reads} <= 402,
		"randread $n: 400 reads shared among its two shards ($r{$n}{reads}, rounded up per shard)");
	is($r{$n}{blks_hit} + $r{$n}{blks_read}, $r{$n}{reads}, "randread $n: every read a hit or a read from the OS");
}
is($r{total}{reads}, $r{$names[0]}{reads} + $r{$names[1]}{reads}, 'randread total reads summed');
is($r{total}{blocks} * $block_size,
	$coord->safe_psql('postgres', "SELECT citus_relation_size('lineitem')"),
	'randread total blocks = citus_relation_size');
@rows = bs_rows($coord,
	"SELECT node, cache FROM bench_cluster_randread('citus', 'lineitem', reads => 50, cache => 'cold', record => false)");
is(join(',', map { $_->{cache} } @rows), 'cold,cold,cold', 'randread cold on every worker');
is($coord->safe_psql('postgres',
		"SELECT count(*) FROM bench_history WHERE label = 'citus-rr' AND benchmark = 'cluster_randread'"),
	1, 'randread: the total recorded on the coordinator');

# bench_cluster_tpcb: each worker runs pgbench's TPC-B-like transaction
# on pgbench tables of its own (local tables, generated on each worker),
# all at once, through the kept connections and through Citus's dispatch.
$_->safe_psql('postgres', q{
	SET client_min_messages = warning;
	SELECT branches FROM bench_generate_tpcb(scale => 1);
	VACUUM ANALYZE pgbench_branches, pgbench_tellers, pgbench_accounts;}) for @workers;
for my $how ('keep', 'new')
{
	$coord->safe_psql('postgres', "ALTER DATABASE postgres SET benchstore_cluster.citus_connections = '$how'");
	@rows = bs_rows($coord, qq{
		SELECT * FROM bench_cluster_tpcb('citus', clients => 2, duration => '300ms', label => 'citus-tpcb-$how')});
	is(join(',', map { $_->{node} } @rows), join(',', @names, 'total'),
		"tpcb ($how): one row per worker, then the total");
	%r = map { $_->{node} => $_ } @rows;
	for my $n (@names)
	{
		is("$r{$n}{clients}/$r{$n}{scale}", '2/1', "tpcb ($how) $n: that worker's clients and scale");
		cmp_ok($r{$n}{transactions}, '>', 0, "tpcb ($how) $n: transactions committed");
		like($r{$n}{notes} // '', qr/^Every transaction waited for its WAL to be flushed in pg_wal[^.]*; the tables' tablespaces decide where their pages are read and written, not where commits wait\.$/,
			"tpcb ($how) $n: no note but where its transactions waited (" . ($r{$n}{notes} // 'none') . ')');
	}
	is($r{total}{transactions}, $r{$names[0]}{transactions} + $r{$names[1]}{transactions},
		"tpcb ($how): total transactions summed");
	is($coord->safe_psql('postgres',
			"SELECT count(*) || '/' || min(benchmark) FROM bench_history WHERE label = 'citus-tpcb-$how'"),
		'1/cluster_tpcb', "tpcb ($how): the total recorded on the coordinator");
}
$coord->safe_psql('postgres', 'ALTER DATABASE postgres RESET benchstore_cluster.citus_connections');
# With a ramp, each worker leaves its warm-up out: its figures start when
# the ramp ends (the history rows the ramp wrote are there, its
# transactions are fewer), and its duration counts from there.
{
	my %worker = map { my $w = $_; (grep { /:(\d+)$/ && $1 == $w->port } @names)[0] => $w } @workers;
	my %before = map { $_ => $worker{$_}->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history') } @names;
	@rows = bs_rows($coord, q{
		SELECT * FROM bench_cluster_tpcb('citus', clients => 1, duration => '300ms', ramp => '300ms', record => false)});
	%r = map { $_->{node} => $_ } @rows;
	for my $n (@names)
	{
		my $written = $worker{$n}->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history') - $before{$n};
		cmp_ok($r{$n}{elapsed_ms}, '>=', 300, "tpcb ramp $n: the duration counts after the ramp");
		cmp_ok($r{$n}{transactions}, '<', $written,
			"tpcb ramp $n: the ramp's transactions ran but are left out ($r{$n}{transactions} of $written)");
	}
}
for my $w (@workers)
{
	is($w->safe_psql('postgres', q{
		SELECT (SELECT sum(delta) FROM pgbench_history) = (SELECT sum(abalance) FROM pgbench_accounts)
		   AND (SELECT count(*) FROM bench_history WHERE benchmark = 'tpcb') = 2}),
		't', 'tpcb: each worker\'s own tables took the transactions, and it recorded its two runs');
}

my ($ret, $out, $err);

# Kept connections: a session's calls run in the same worker backends;
# Citus's own dispatch (benchstore_cluster.citus_connections = 'new') opens
# new ones per call and gives the same rows.
my $pids_sql = q{SELECT string_agg(result, ',' ORDER BY node)
	FROM _bench_cluster_citus('SELECT pg_backend_pid()::text', false);};
my @pids = split /\n/, $coord->safe_psql('postgres',
	"$pids_sql $pids_sql SET benchstore_cluster.citus_connections = 'new'; $pids_sql $pids_sql");
is(scalar(@pids), 4, 'four fan-outs');
is($pids[0], $pids[1], 'kept: the second call runs in the same worker backends');
isnt($pids[2], $pids[3], 'new: a new backend on every worker per call');
my $rows_sql = q{SELECT string_agg(node || '=' || pages || '/' || tuples, ',' ORDER BY node)
	FROM bench_cluster_seqscan('citus', 'lineitem', record => false)};
is($coord->safe_psql('postgres', "SET benchstore_cluster.citus_connections = 'new'; $rows_sql"),
	$coord->safe_psql('postgres', $rows_sql), "Citus's dispatch and the kept connections give the same rows");
($ret, $out, $err) = $coord->psql('postgres',
	"SET benchstore_cluster.citus_connections = 'bogus'; $rows_sql");
like($err, qr/ERROR:  invalid value for parameter "benchstore_cluster\.citus_connections": "bogus"\nHINT:  Available values: keep, new\./,
	'citus_connections: a bad value refused');

# No role reaches another's connections.  After a superuser's fan-out, in
# the same session: SET ROLE, SET SESSION AUTHORIZATION, a SECURITY
# DEFINER function owned by a plain role, and an index expression run by
# the superuser's ANALYZE (a security-restricted operation, as the table's
# owner) each run on the nodes as the plain role, in backends of its own;
# the superuser's connections are untouched.  (With 1.1's dblink named
# connections each of these ran as the superuser.)
$coord->safe_psql('postgres', q{
	CREATE ROLE plain_citus LOGIN;
	GRANT CREATE ON SCHEMA public TO plain_citus;
	CREATE TABLE plain_seen (how text, who text);
	GRANT INSERT ON plain_seen TO plain_citus;});
my $who_sql = q{SELECT string_agg(DISTINCT result, ',')
	FROM _bench_cluster_citus('SELECT current_user::text', false)};
my $who_pid_sql = q{SELECT string_agg(result, ',' ORDER BY node)
	FROM _bench_cluster_citus('SELECT current_user || '':'' || pg_backend_pid()', false)};
$coord->safe_psql('postgres', q{
	SET ROLE plain_citus;
	CREATE FUNCTION public.plain_definer() RETURNS text LANGUAGE sql SECURITY DEFINER
		AS $f$ SELECT string_agg(DISTINCT result, ',')
			   FROM public._bench_cluster_citus('SELECT current_user::text', false) $f$;
	CREATE FUNCTION public.plain_record() RETURNS void LANGUAGE sql VOLATILE AS $f$
		INSERT INTO public.plain_seen
		SELECT 'analyze', string_agg(DISTINCT result, ',')
		FROM public._bench_cluster_citus('SELECT current_user::text', false) $f$;
	CREATE FUNCTION public.plain_idx(i integer) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $f$
	BEGIN
		PERFORM public.plain_record();
		RETURN i;
	END $f$;
	CREATE TABLE public.plain_t (i integer);
	INSERT INTO public.plain_t VALUES (1);
	RESET ROLE;
	CREATE INDEX plain_t_idx ON public.plain_t (public.plain_idx(i));
	TRUNCATE plain_seen;});
# the pool's own entry point, called directly by the plain role
my $kept_who_pid_sql = q{SELECT string_agg(e ->> 'result', ',' ORDER BY e ->> 'node')
	FROM jsonb_array_elements(_bench_cluster_citus_kept('SELECT current_user || '':'' || pg_backend_pid()', false)) e};
my @su = split /\n/, $coord->safe_psql('postgres', qq{
	$who_pid_sql;
	SET ROLE plain_citus;
	$who_sql;
	$who_pid_sql;
	$kept_who_pid_sql;
	RESET ROLE;
	SET SESSION AUTHORIZATION plain_citus;
	$who_sql;
	RESET SESSION AUTHORIZATION;
	SELECT public.plain_definer();
	ANALYZE public.plain_t;
	SELECT string_agg(DISTINCT who, ',') FROM plain_seen WHERE how = 'analyze';
	$who_pid_sql;});
is(scalar(@su), 8, 'eight answers in one session');
like($su[0], qr/^postgres:\d+,postgres:\d+$/, 'the superuser runs on the nodes as itself');
is($su[1], 'plain_citus', 'after SET ROLE: as the plain role on every node');
my %su_pids = map { (split /:/)[1] => 1 } split /,/, $su[0];
ok(!grep({ $su_pids{(split /:/)[1]} } split /,/, $su[2]),
	"after SET ROLE: in backends of the plain role's own, not the superuser's");
is($su[3], $su[2], "the pool's entry point called directly: the plain role's own connections, as itself");
is($su[4], 'plain_citus', 'after SET SESSION AUTHORIZATION: as the plain role');
is($su[5], 'plain_citus', 'in a SECURITY DEFINER function of the plain role: as the plain role');
is($su[6], 'plain_citus', "in an index expression run by the superuser's ANALYZE: as the table's owner");
is($su[7], $su[0], "and the superuser's own connections are the same as before, in the same backends");
# 1.1's own vector: its kept connections were dblink named connections,
# which a superuser's call left open for anyone later in the session
# (dblink_exec is executable by PUBLIC).  With dblink installed, a
# superuser's fan-out now leaves none.
$coord->safe_psql('postgres', 'CREATE EXTENSION dblink');
my @left = split /\n/, $coord->safe_psql('postgres', qq{
	$pids_sql
	SET ROLE plain_citus;
	SELECT coalesce(array_to_string(dblink_get_connections(), ','), 'none');});
is($left[-1], 'none', "after a superuser's fan-out, no dblink connection is left for a plain role to use");
$coord->safe_psql('postgres', 'DROP EXTENSION dblink');
# the internal functions of 1.1's dblink pool are gone
is($coord->safe_psql('postgres', q{
	SELECT count(*) FROM pg_proc WHERE proname IN ('_bench_cluster_citus_pool', '_bench_cluster_conninfo_value')
	   OR (proname = '_bench_cluster_citus_kept' AND pronargs = 3)}), 0,
	"1.1's dblink pool functions are gone");
{
	# a worker restarted under a kept connection: it is opened anew
	my $bg = $coord->background_psql('postgres', on_error_stop => 0);
	my $before = $bg->query_safe($pids_sql);
	$workers[0]->restart;
	my $after = $bg->query_safe($pids_sql);
	like($after, qr/^\d+,\d+$/, 'a worker restarted: the next call runs');
	isnt($after, $before, 'a worker restarted: its connection opened anew');
	$bg->quit;
}
{
	# a statement_timeout while the workers run: their commands are
	# cancelled, the connections closed, and the session's next call runs
	# in new backends
	($ret, $out, $err) = $coord->psql('postgres', qq{
		$pids_sql
		SET statement_timeout = '300ms';
		SELECT * FROM _bench_cluster_citus('SELECT pg_sleep(60)::text', false);
		RESET statement_timeout;
		$pids_sql}, on_error_stop => 0);
	like($err, qr/canceling statement due to statement timeout/,
		'statement_timeout during a fan-out over kept connections');
	my @p = split /\n/, $out;
	is(scalar(@p), 2, 'the session\'s next call runs after the timeout');
	isnt($p[1], $p[0], 'the timed-out fan-out closed its connections: the next one opened new ones');
	for my $w (@workers)
	{
		ok($w->poll_query_until('postgres', q{
			SELECT count(*) = 0 FROM pg_stat_activity
			WHERE query LIKE 'SELECT pg_sleep(60)%' AND state = 'active'}),
			$w->name . ': its command was cancelled');
	}
}

# bench_cluster_tablespace_io on a real Citus cluster, over the kept
# connections: a row per worker and test, and the total.
@rows = bs_rows($coord, q{
	SELECT * FROM bench_cluster_tablespace_io('citus', size => '2MB', tests => '{seqwrite,seqread}',
		direct => false, record => false)});
is(join(',', map { "$_->{test}:$_->{node}" } @rows),
	join(',', map { my $t = $_; map { "$t:$_" } @names, 'total' } qw(seqwrite seqread)),
	'tablespace_io: per test, a row per worker and the total');
is($rows[2]{bytes}, $rows[0]{bytes} + $rows[1]{bytes}, 'tablespace_io: total bytes summed');
is($rows[0]{bytes}, 2 * 1024 * 1024, 'tablespace_io: each worker wrote its 2MB');

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
	# (the copies need not be the same size: summed placement by placement)
	my $copies = $coord->safe_psql('postgres', qq{
		SELECT count(*) / count(DISTINCT p.shardid) FROM pg_dist_placement p
		JOIN pg_dist_shard s ON s.shardid = p.shardid WHERE s.logicalrelid = '$t'::regclass});
	is($coord->safe_psql('postgres', qq{
		SELECT sum(p.result::bigint) FROM run_command_on_placements('$t', 'SELECT pg_relation_size(%L)') p}),
		$coord->safe_psql('postgres', "SELECT citus_relation_size('$t')"),
		"$t: citus_relation_size counts the $copies copies, every placement");
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


# The other kinds of Citus table: partitioned distributed, a Citus local
# table (its one shard on the coordinator, which then scans too), a table of
# a distributed schema, and columnar (heap refused naming the access
# method; raw and buffer read its files, with no tuple count).
$coord->safe_psql('postgres', q{
	CREATE EXTENSION IF NOT EXISTS citus_columnar;
	SET citus.shard_count = 4;
	SET citus.shard_replication_factor = 1;
	CREATE TABLE events (id bigint, ts date, pad text) PARTITION BY RANGE (ts);
	CREATE TABLE events_a PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2024-07-01');
	CREATE TABLE events_b PARTITION OF events FOR VALUES FROM ('2024-07-01') TO ('2025-01-01');
	SELECT create_distributed_table('events', 'id');
	INSERT INTO events SELECT g, '2024-01-01'::date + (g % 360), md5(g::text) FROM generate_series(1, 20000) g;
	CREATE TABLE loc (id integer, pad text);
	SELECT citus_add_local_table_to_metadata('loc');
	INSERT INTO loc SELECT g, repeat('l', 100) FROM generate_series(1, 3000) g;
	SET citus.enable_schema_based_sharding = on;
	CREATE SCHEMA tenant1;
	RESET citus.enable_schema_based_sharding;
	CREATE TABLE tenant1.t (id integer, pad text);
	INSERT INTO tenant1.t SELECT g, repeat('t', 100) FROM generate_series(1, 4000) g;
	CREATE TABLE col (id bigint, pad text) USING columnar;
	SELECT create_distributed_table('col', 'id');
	INSERT INTO col SELECT g, md5(g::text) FROM generate_series(1, 20000) g;
	VACUUM ANALYZE events, loc, tenant1.t;
});
# bytes of one placement of each shard of the given tables (partitions
# are tables of their own in Citus's catalog), coordinator included
my $bytes_of = sub {
	my $sum = 0;
	for my $t (@_)
	{
		$sum += $coord->safe_psql('postgres', qq{
			SELECT coalesce(sum(x.size), 0) FROM (
				SELECT DISTINCT ON (p.shardid) p.result::bigint AS size
				FROM run_command_on_placements('$t', 'SELECT pg_relation_size(''%s'')') p
				ORDER BY p.shardid, p.nodename, p.nodeport) x});
	}
	return $sum;
};
for my $case ([ 'events', [ 'events_a', 'events_b' ] ], [ 'loc', [ 'loc' ] ],
	[ 'tenant1.t', [ 'tenant1.t' ] ])
{
	my ($t, $parts) = @$case;
	my @rows = bs_rows($coord,
		"SELECT * FROM bench_cluster_seqscan('citus', '$t', record => false)");
	my ($total) = grep { $_->{node} eq 'total' } @rows;
	is($total->{tuples}, $coord->safe_psql('postgres', "SELECT count(*) FROM $t"),
		"$t: total tuples = count(*)");
	is($total->{pages} * $block_size, $bytes_of->(@$parts),
		"$t: total size = its shards' placements");
}
my @loc_rows = bs_rows($coord, "SELECT node, pages FROM bench_cluster_seqscan('citus', 'loc', record => false)");
is(join(',', sort map { $_->{node} } grep { $_->{node} ne 'total' } @loc_rows),
	join(',', sort($coord->host . ':' . $coord->port, @names)),
	'loc: the coordinator scans its Citus local table, beside the workers');
is((grep { $_->{node} eq $coord->host . ':' . $coord->port } @loc_rows)[0]{pages},
	(grep { $_->{node} eq 'total' } @loc_rows)[0]{pages}, 'loc: all of it on the coordinator');
($ret, $out, $err) = $coord->psql('postgres',
	"SELECT * FROM bench_cluster_seqscan('citus', 'col', record => false)");
like($err, qr/ERROR:  mode "heap" cannot scan relation "col"\nDETAIL:  Relation "col" uses the table access method "columnar"/,
	'columnar: heap mode refused, naming the access method');
# (the same refusal in the core extension, on a worker, for a shard)
{
	my ($shard, $node) = split /\|/, $coord->safe_psql('postgres', q{
		SELECT pg_catalog.shard_name(s.logicalrelid, s.shardid), n.nodename || ':' || n.nodeport
		FROM pg_dist_shard s JOIN pg_dist_placement p USING (shardid)
		JOIN pg_dist_node n ON n.groupid = p.groupid
		WHERE s.logicalrelid = 'col'::regclass AND n.groupid <> 0
		ORDER BY s.shardid LIMIT 1});
	my ($w) = grep { $_->host . ':' . $_->port eq $node } @workers;
	my ($wret, $wout, $werr) = $w->psql('postgres', "SELECT * FROM bench_seqscan('$shard', record => false)");
	like($werr, qr/ERROR:  mode "heap" cannot scan relation "\Q$shard\E"\nDETAIL:  Relation "\Q$shard\E" uses the table access method "columnar"/,
		'columnar shard on a worker: bench_seqscan names the access method');
	my $raw = bs_row($w, "SELECT tuples FROM bench_seqscan('$shard', 'raw', record => false)");
	ok(!defined $raw->{tuples}, 'columnar shard, raw: no line pointers counted');
}
for my $mode ('raw', 'buffer')
{
	my @rows = bs_rows($coord,
		"SELECT * FROM bench_cluster_seqscan('citus', 'col', mode => '$mode', record => false)");
	my ($total) = grep { $_->{node} eq 'total' } @rows;
	is($total->{pages} * $block_size, $bytes_of->('col'), "columnar, $mode: its files' size");
	ok(!defined $total->{tuples}, "columnar, $mode: no tuple count");
}

# bench_query on the coordinator runs a distributed query as it is: the row
# says distributed, size_mb is one copy of the shards it reads (sized on
# the nodes), mb_per_s is that over the time; cold evicts the shards on the
# nodes first.
for my $case ([ 'SELECT count(*) FROM lineitem', [ 'lineitem' ] ],
	[ 'SELECT count(*) FROM lineitem l JOIN nation n ON n.n_nationkey = l.l_orderkey', [ 'lineitem', 'nation' ] ])
{
	my ($q, $tables) = @$case;
	for my $cache ('warm', 'cold')
	{
		my @q = bs_rows($coord, qq{
			SELECT * FROM bench_query(\$q\$$q\$q\$, cache => '$cache', label => 'citus-query')});
		my $r = $q[0];
		ok($r->{distributed}, "bench_query ($cache) of @$tables: distributed");
		is($r->{size_mb} * 1048576, $bytes_of->(@$tables),
			"bench_query ($cache) of @$tables: size_mb = one placement of each shard");
		is(join(',', @{ $r->{relations} }), join(',', @$tables),
			"bench_query ($cache) of @$tables: the Citus tables are its relations");
		ok(abs($r->{mb_per_s} - $r->{size_mb} / ($r->{elapsed_ms} / 1000)) <= 0.01 + 0.001 * $r->{mb_per_s},
			"bench_query ($cache): mb_per_s = size_mb over the time");
	}
}

# A Citus table whose name would end a quoted literal.  Citus expands the
# commands that size and evict the shards with SQL's format(command,
# shard_name), and shard_name quotes only as an identifier: the shard is
# written %L there (1.1 wrote '%s', and a ' in the name ran the rest of it
# as SQL on every node, as whoever ran bench_query).  A function planted on
# every node under the name's payload never runs.
for my $node ($coord, @workers)
{
	$node->safe_psql('postgres', q{
		SET citus.enable_ddl_propagation = off;
		CREATE FUNCTION public.planted() RETURNS text LANGUAGE plpgsql
			AS $f$BEGIN RAISE EXCEPTION 'planted function ran'; END$f$;});
}
my $hostile = q{"t'||public.planted()||'"};
$coord->safe_psql('postgres', qq{
	CREATE TABLE $hostile (id bigint, pad text);
	SELECT create_distributed_table(\$n\$$hostile\$n\$, 'id');
	INSERT INTO $hostile SELECT g, md5(g::text) FROM generate_series(1, 5000) g;});
my $hostile_bytes = $coord->safe_psql('postgres', qq{
	SELECT sum(x.size) FROM (
		SELECT DISTINCT ON (p.shardid) p.result::bigint AS size
		FROM run_command_on_placements(\$n\$$hostile\$n\$, 'SELECT pg_relation_size(%L)') p
		ORDER BY p.shardid, p.nodename, p.nodeport) x});
cmp_ok($hostile_bytes, '>', 0, 'a Citus table named with a quote and a planted call: its shards have rows');
for my $cache ('warm', 'cold')
{
	($ret, $out, $err) = $coord->psql('postgres', qq{
		SELECT size_mb * 1048576 FROM bench_query(\$q\$SELECT count(*) FROM $hostile\$q\$,
			cache => '$cache', record => false)});
	unlike($err, qr/planted function ran/, "bench_query ($cache) of it: the planted function did not run");
	is($out, $hostile_bytes, "bench_query ($cache) of it: sized its shards as named");
}
is($coord->safe_psql('postgres', q{
	SELECT string_agg(DISTINCT x.metrics ->> 'distributed', ',')
	FROM bench_run r JOIN bench_result x USING (run_id) WHERE r.label = 'citus-query'}),
	'true', 'bench_query: distributed is recorded');
my @local = bs_rows($coord, q{SELECT distributed FROM bench_query('SELECT count(*) FROM pg_class', record => false)});
ok(!$local[0]{distributed}, 'bench_query of a local table: not distributed');

# Failures named, nothing recorded: a shard gone from the worker picked for
# it (as when a rebalance moves it between the listing and the scan), a
# worker without benchstore, a worker stopped.
my ($w1shard, $w1) = split /\|/, $coord->safe_psql('postgres', q{
	SELECT s.shard, n.nodename || ':' || n.nodeport
	FROM (SELECT shardid, pg_catalog.shard_name(logicalrelid, shardid) AS shard
		  FROM pg_dist_shard WHERE logicalrelid = 'lineitem'::regclass) s
	JOIN pg_dist_placement p USING (shardid)
	JOIN pg_dist_node n ON n.groupid = p.groupid
	ORDER BY s.shardid LIMIT 1});
my ($wnode) = grep { $_->host . ':' . $_->port eq $w1 } @workers;
$wnode->safe_psql('postgres', "ALTER TABLE $w1shard RENAME TO moved_away");
($ret, $out, $err) = $coord->psql('postgres',
	"SELECT * FROM bench_cluster_seqscan('citus', 'lineitem', label => 'citus-fail')");
like($err, qr/ERROR:  shard "public\.\Q$w1shard\E" of relation "lineitem" was not found on node "\Q$w1\E"/,
	'a shard gone from its worker: the error names the shard and the worker');
$wnode->safe_psql('postgres', "ALTER TABLE moved_away RENAME TO $w1shard");
# A real move between the listing and the scan: the run's first shard on
# a worker is locked there, so that its command waits; meanwhile a later
# shard of that worker moves to the other (citus_move_shard_placement, its
# old placement cleaned up).  When the lock goes the command finds the
# moved shard gone and the run fails, naming it and the worker.
{
	my $groups = $coord->safe_psql('postgres', q{
		SELECT string_agg(x.name || '=' || n.nodename || ':' || n.nodeport || '=' || x.shardid, ' ' ORDER BY x.ord)
		FROM unnest(citus_shard_names('lineitem')) WITH ORDINALITY AS x0(name, ord)
		CROSS JOIN LATERAL (SELECT x0.name, x0.ord,
			(SELECT s.shardid FROM pg_dist_shard s
			 WHERE s.logicalrelid = 'lineitem'::regclass
			   AND 'public.' || pg_catalog.shard_name(s.logicalrelid, s.shardid) = x0.name) AS shardid) x
		JOIN pg_dist_placement p ON p.shardid = x.shardid
		JOIN pg_dist_node n ON n.groupid = p.groupid});
	my @on_w = grep { $_->[1] eq $w1 } map { [ split /=/ ] } split / /, $groups;
	my ($first, $later) = @on_w;
	my ($other) = grep { $_->host . ':' . $_->port ne $w1 } @workers;
	my $locker = $wnode->background_psql('postgres');
	$locker->query_safe("SET citus.enable_manual_changes_to_shards = on; BEGIN; LOCK TABLE $first->[0] IN ACCESS EXCLUSIVE MODE");
	my $bg = $coord->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//,
		"SELECT * FROM bench_cluster_seqscan('citus', 'lineitem', label => 'citus-fail');\n");
	ok($wnode->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM pg_stat_activity WHERE wait_event_type = 'Lock'
		AND application_name = 'benchstore_cluster'}), 'move: the scan waits on its first shard');
	$coord->safe_psql('postgres', sprintf(
		"SELECT citus_move_shard_placement(%d, '%s', %d, '%s', %d, shard_transfer_mode => 'block_writes');"
		  . " CALL citus_cleanup_orphaned_resources();",
		$later->[2], $wnode->host, $wnode->port, $other->host, $other->port));
	is($wnode->safe_psql('postgres', "SELECT to_regclass('$later->[0]') IS NULL"), 't',
		'move: the later shard is gone from its old worker');
	$locker->query_safe('COMMIT');
	$locker->quit;
	$bg->query('SELECT 1');
	like($bg->{stderr}, qr/ERROR:  shard "\Q$later->[0]\E" of relation "lineitem" was not found on node "\Q$w1\E"/,
		'a shard moved by citus_move_shard_placement during the run: the error names it and its old worker');
	$bg->quit;
	my ($total) = grep { $_->{node} eq 'total' }
	  bs_rows($coord, "SELECT * FROM bench_cluster_seqscan('citus', 'lineitem', record => false)");
	is($total->{tuples}, $coord->safe_psql('postgres', 'SELECT count(*) FROM lineitem'),
		'after the move: the next run reads every shard where it now is');
}

# A worker stopped during a run (its scan held up by a lock, then the
# worker shut down fast), over kept connections and through Citus's
# dispatch: the run fails naming the worker.
for my $dispatch ('keep', 'new')
{
	my ($shard) = split /\n/, $coord->safe_psql('postgres', qq{
		SELECT x.name FROM unnest(citus_shard_names('lineitem')) AS x(name)
		JOIN pg_dist_shard s ON s.logicalrelid = 'lineitem'::regclass
			AND 'public.' || pg_catalog.shard_name(s.logicalrelid, s.shardid) = x.name
		JOIN pg_dist_placement p ON p.shardid = s.shardid
		JOIN pg_dist_node n ON n.groupid = p.groupid
		WHERE n.nodename || ':' || n.nodeport = '$w1'
		ORDER BY s.shardid});
	my $locker = $wnode->background_psql('postgres');
	$locker->query_safe("SET citus.enable_manual_changes_to_shards = on; BEGIN; LOCK TABLE $shard IN ACCESS EXCLUSIVE MODE");
	my $bg = $coord->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(qr//,
		"SET benchstore_cluster.citus_connections = '$dispatch';\n"
		  . "SELECT * FROM bench_cluster_seqscan('citus', 'lineitem', label => 'citus-fail');\n");
	ok($wnode->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM pg_stat_activity WHERE wait_event_type = 'Lock'
		AND query LIKE '%json_build_object%'}), "$dispatch: the scan waits on the worker");
	$wnode->stop('fast');
	eval { $locker->quit; };
	$bg->query('SELECT 1');
	like($bg->{stderr}, qr/ERROR:  node "\Q$w1\E" of cluster "citus" failed/,
		"$dispatch: a worker stopped during the run: the error names it");
	$bg->quit;
	$wnode->start;
}

# (Citus refuses DDL on a worker unless told that it is meant)
$workers[1]->safe_psql('postgres', q{
	SET citus.enable_ddl_propagation = off;
	DROP EXTENSION benchstore CASCADE});
($ret, $out, $err) = $coord->psql('postgres',
	"SELECT * FROM bench_cluster_seqscan('citus', 'lineitem', label => 'citus-fail')");
my $w2 = $workers[1]->host . ':' . $workers[1]->port;
like($err, qr/ERROR:  node "\Q$w2\E" of cluster "citus" failed\nDETAIL:  .*bench_seqscan/,
	'a worker without benchstore: the error names it');
($ret, $out, $err) = $coord->psql('postgres',
	"SELECT * FROM bench_query('SELECT count(*) FROM lineitem', cache => 'cold', label => 'citus-fail')");
like($err, qr/ERROR:  could not evict the shards of Citus table "lineitem" on node "\Q$w2\E"\nDETAIL:  .*bench_cache_evict/,
	'bench_query cold with a worker without benchstore: the error names it');
$workers[1]->safe_psql('postgres', q{
	SET citus.enable_ddl_propagation = off;
	CREATE EXTENSION benchstore_cluster CASCADE});
$workers[0]->stop;
($ret, $out, $err) = $coord->psql('postgres',
	"SELECT * FROM bench_cluster_seqscan('citus', 'lineitem', label => 'citus-fail')");
my $w0 = $workers[0]->host . ':' . $workers[0]->port;
like($err, qr/ERROR:  .*\Q$w0\E/, 'a worker stopped: the error names it');
$workers[0]->start;
is($coord->safe_psql('postgres', q{SELECT count(*) FROM bench_run WHERE label = 'citus-fail'}),
	0, 'nothing recorded by the failed runs');

($ret, $out, $err) = $coord->psql('postgres', "SELECT * FROM bench_seqscan('lineitem')");
like($err, qr/ERROR:  .*Citus.*\n(?:.*\n)*HINT:  .*bench_cluster_seqscan/,
	'core bench_seqscan refuses the coordinator\'s shell table');

# Planted objects on every node (the CVE-2018-1058 pattern, as in
# 020_traps.pl): an untrusted role plants the catalogue's trap layer in
# public on the coordinator and on each worker, where the commands sent to
# the nodes run on the node's own search_path.  A superuser's cluster runs,
# over kept connections and through Citus's dispatch, run none of them.
for my $node ($coord, @workers)
{
	$node->safe_psql('postgres', q{
		SET citus.enable_ddl_propagation = off;
		CREATE ROLE citus_trapper;
		GRANT CREATE ON SCHEMA public TO PUBLIC;});
	my $made = bs_plant_traps($node, 'postgres', 'citus_trapper', 'public', 'catalog',
		'SET citus.enable_ddl_propagation = off;');
	cmp_ok($made->{operator} // 0, '>', 1000, $node->name . ': operators planted');
}
my %offset = map { $_->name => -s $_->logfile } ($coord, @workers);
for my $how ('keep', 'new')
{
	for my $sql (
		q{SELECT count(*) FROM bench_cluster_seqscan('citus'::name, 'lineitem'::text, cache => 'cold'::text, record => false)},
		q{SELECT count(*) FROM bench_cluster_randread('citus'::name, 'lineitem'::text, reads => 50::bigint, record => false)},
		q{SELECT count(*) FROM bench_cluster_tablespace_io('citus'::name, size => '1MB'::text, tests => '{seqwrite,randread}'::text[], direct => false, duration => '100ms'::interval, record => false)},
		q{SELECT count(*) FROM bench_cluster_tpcb('citus'::name, clients => 1, duration => '200ms'::interval, record => false)},
		q{SELECT count(*) FROM bench_query('SELECT pg_catalog.count(*) FROM public.lineitem'::text, cache => 'cold'::text, record => false)})
	{
		my ($r, $o, $e) = $coord->psql('postgres', "SET benchstore_cluster.citus_connections = '$how'; $sql");
		is($r, 0, "planted ($how): " . substr($sql, 22, 40) . ' ran') or diag($e);
	}
}
for my $node ($coord, @workers)
{
	my $fired = bs_traps_fired($node, $offset{ $node->name });
	is(join(', ', map { "$_ ($fired->{$_} times)" } sort keys %$fired), '',
		$node->name . ': no planted object ran in the cluster runs');
}

done_testing();
