# benchstore_cluster's Citus path, without Citus: the coordinator gets
# stand-ins for the two things it uses, Citus's run_command_on_workers
# (here on contrib dblink: the command on every worker at once, one column
# and one row each, a failure returned as success = false with its text)
# and citus_shard_names (replaced, as it is meant to be, by the shards made
# on the workers).  Each worker scans the shards it holds; the total sums
# them.  Core bench_seqscan refuses the coordinator's shell table.
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
my @workers = map { bs_node("worker$_", @conf) } 1 .. 2;
my $block_size = $coord->safe_psql('postgres', 'SHOW block_size');

# Shards: lineitem_102008 on worker 1, lineitem_102009 and _102010 on
# worker 2, of different sizes.
my %shards = (0 => [ 102008 ], 1 => [ 102009, 102010 ]);
my %rows_of = (102008 => 120000, 102009 => 60000, 102010 => 90000);
my (@pages, @tuples);
for my $w (0 .. 1)
{
	my ($p, $t) = (0, 0);
	for my $id (@{ $shards{$w} })
	{
		$workers[$w]->safe_psql('postgres', qq{
			CREATE TABLE lineitem_$id AS
				SELECT g AS l_orderkey, md5(g::text) AS l_comment
				FROM generate_series(1, $rows_of{$id}) g;
			VACUUM ANALYZE lineitem_$id;
		});
		$p += $workers[$w]->safe_psql('postgres',
			"SELECT pg_relation_size('lineitem_$id') / $block_size");
		$t += $rows_of{$id};
	}
	push @pages, $p;
	push @tuples, $t;
}
my @names = map { "worker" . ($_ + 1) . ":" . $workers[$_]->port } 0 .. 1;

# The coordinator: the shell of the distributed table, Citus's catalog
# entry for it, and the stand-ins.
$coord->safe_psql('postgres', q{
	CREATE EXTENSION dblink;
	CREATE EXTENSION benchstore_cluster CASCADE;
	CREATE TABLE lineitem (l_orderkey integer, l_comment text);
	SET allow_system_table_mods = on;
	CREATE TABLE pg_catalog.pg_dist_partition (logicalrelid regclass, partmethod "char",
											   partkey text, colocationid integer, repmodel "char");
	INSERT INTO pg_catalog.pg_dist_partition VALUES ('lineitem', 'h', NULL, 1, 's');
	RESET allow_system_table_mods;

	CREATE SCHEMA citus_standin;
	CREATE TABLE citus_standin.workers (nodename text, nodeport integer, connstr text);
	CREATE TABLE citus_standin.shards (logicalrelid regclass, name text);

	-- run_command_on_workers as Citus defines it: the command on every
	-- worker at once; each must return one column and one row; a failure
	-- comes back as success = false with the error text.
	CREATE FUNCTION pg_catalog.run_command_on_workers(command text, parallel boolean DEFAULT true,
		OUT nodename text, OUT nodeport integer, OUT success boolean, OUT result text)
	RETURNS SETOF record
	LANGUAGE plpgsql AS $$
	DECLARE
		w record;
		sent text[] := '{}';
		n integer;
		cols integer;
	BEGIN
		FOR w IN SELECT * FROM citus_standin.workers ORDER BY 1, 2 LOOP
			BEGIN
				PERFORM public.dblink_connect('standin_' || w.nodeport, w.connstr);
				PERFORM public.dblink_send_query('standin_' || w.nodeport,
					format('SELECT count(*) OVER () AS n, r.* FROM (%s) r', command));
				sent := sent || w.nodeport::text;
			EXCEPTION WHEN OTHERS THEN
				NULL;				-- reported below
			END;
		END LOOP;
		FOR w IN SELECT * FROM citus_standin.workers ORDER BY 1, 2 LOOP
			nodename := w.nodename;
			nodeport := w.nodeport;
			success := false;
			result := NULL;
			IF NOT w.nodeport::text = ANY (sent) THEN
				result := 'connection to the remote node ' || w.nodename || ':' || w.nodeport || ' failed';
				RETURN NEXT;
				CONTINUE;
			END IF;
			BEGIN
				-- one column, one row: anything else is an error, as in Citus
				SELECT r.n, r.result INTO n, result
				FROM public.dblink_get_result('standin_' || w.nodeport) AS r(n bigint, result text);
				IF n IS DISTINCT FROM 1 THEN
					RAISE EXCEPTION 'expected a single row in query result';
				END IF;
				success := true;
			EXCEPTION WHEN OTHERS THEN
				result := SQLERRM;
			END;
			PERFORM public.dblink_disconnect('standin_' || w.nodeport);
			RETURN NEXT;
		END LOOP;
	END;
	$$;
});
for my $w (0 .. 1)
{
	(my $cs = $workers[$w]->connstr('postgres')) =~ s/'/''/g;
	$coord->safe_psql('postgres', sprintf(
		"INSERT INTO citus_standin.workers VALUES ('worker%d', %d, '%s')",
		$w + 1, $workers[$w]->port, $cs));
}
sub set_shards
{
	my @ids = @_;
	$coord->safe_psql('postgres',
		"DELETE FROM citus_standin.shards;\n"
		. join('', map { "INSERT INTO citus_standin.shards VALUES ('lineitem', 'public.lineitem_$_');\n" } @ids));
}
set_shards(102008, 102009, 102010);
$coord->safe_psql('postgres', q{
	CREATE OR REPLACE FUNCTION citus_shard_names(relation regclass)
	RETURNS text[] LANGUAGE sql STABLE
	AS $$ SELECT array_agg(s.name ORDER BY s.name) FROM citus_standin.shards s
		  WHERE s.logicalrelid = relation $$;
});

# The stand-in keeps Citus's rule.
is($coord->safe_psql('postgres',
		"SELECT string_agg(success::text || ':' || result, ',') FROM run_command_on_workers('SELECT 42')"),
	'true:42,true:42', 'stand-in: one column and one row come back as the result');
like($coord->safe_psql('postgres',
		"SELECT string_agg(success::text || ':' || result, ',') FROM run_command_on_workers('SELECT 1, 2')"),
	qr/^false:.*,false:/, 'stand-in: two columns are a failure');
like($coord->safe_psql('postgres',
		"SELECT string_agg(success::text || ':' || result, ',') FROM run_command_on_workers('SELECT generate_series(1, 2)')"),
	qr/^false:expected a single row/, 'stand-in: two rows are a failure');

sub sum { my $s = 0; $s += $_ for @_; return $s; }

# --- One run: a row per worker, named host:port, and the total.
my @rows = bs_rows($coord,
	"SELECT * FROM bench_cluster_seqscan('citus', 'lineitem', label => 'citus-tap')");
is(join(',', map { $_->{node} } @rows), join(',', @names, 'total'),
	'one row per worker (host:port), then the total');
my %r = map { $_->{node} => $_ } @rows;
for my $w (0 .. 1)
{
	my $row = $r{ $names[$w] };
	is($row->{pages}, $pages[$w], "worker " . ($w + 1) . ": pages = its shards' sizes");
	is($row->{tuples}, $tuples[$w], "worker " . ($w + 1) . ": tuples = its shards' rows");
	is($row->{relation}, 'lineitem', "worker " . ($w + 1) . ": the distributed table's name");
	ok($row->{elapsed_ms} > 0 && $row->{mb_per_s} > 0, "worker " . ($w + 1) . ": timed");
}
my $total = $r{total};
is($total->{pages}, sum(@pages), 'total pages = sum of the shards');
is($total->{size_mb}, sum(@pages) * $block_size / 1048576, 'total size_mb = sum of the shards');
is($total->{tuples}, sum(@tuples), 'total tuples = sum of the shards\' rows');
my $rate = $total->{size_mb} / ($total->{elapsed_ms} / 1000);
ok(abs($total->{mb_per_s} - $rate) <= 0.01 + 1e-6 * $rate,
	'total mb_per_s = summed size / coordinator wall time');
ok(defined $total->{skew} && $total->{skew} >= 1, 'a skew');

# repeat, cold, workers
@rows = bs_rows($coord,
	"SELECT node, run, cache, pages, workers_requested FROM bench_cluster_seqscan('citus', 'lineitem', cache => 'cold', repeat => 2, workers => 1, record => false)");
is(join(',', map { "$_->{run}:$_->{cache}:$_->{workers_requested}" } @rows),
	'1:cold:1,1:cold:1,1:cold:2,2:cold:1,2:cold:1,2:cold:2',
	'repeat => 2, cold, workers => 1: two runs of two workers and a total');

# History: the total on the coordinator, each shard's scan on its worker.
my $hist = bs_row($coord, q{
	SELECT count(*) AS rows, min(h.benchmark) AS benchmark, min(h.target) AS target,
		   min(h.metrics ->> 'pages') AS pages, min(r.arguments ->> 'engine') AS engine
	FROM bench_history h JOIN bench_run r USING (run_id) WHERE h.label = 'citus-tap'});
is("$hist->{rows}/$hist->{benchmark}/$hist->{target}/$hist->{pages}/$hist->{engine}",
	'1/cluster_seqscan/citus/lineitem/' . sum(@pages) . '/citus',
	'coordinator: the total row recorded, engine citus');
is(join(',', map { $_->safe_psql('postgres',
			"SELECT string_agg(target, ' ' ORDER BY target) FROM bench_history WHERE label = 'citus-tap'") } @workers),
	'public.lineitem_102008,public.lineitem_102009 public.lineitem_102010',
	'each worker recorded the scans of its shards');

# The relation is the caller's, on the caller's search_path: another
# schema's lineitem, distributed over the first worker's shard only.
$coord->safe_psql('postgres', q{
	CREATE SCHEMA sales;
	CREATE TABLE sales.lineitem (l_orderkey integer, l_comment text);
	INSERT INTO citus_standin.shards VALUES ('sales.lineitem', 'public.lineitem_102008');
});
is($coord->safe_psql('postgres', q{
	SET search_path = sales, public;
	SELECT string_agg(node || '=' || pages, ',') FROM bench_cluster_seqscan('citus', 'lineitem', record => false)}),
	"$names[0]=$pages[0],$names[1]=0,total=$pages[0]",
	'the relation is found on the caller\'s search_path');

# Tablespace I/O through Citus.
@rows = bs_rows($coord, q{
	SELECT * FROM bench_cluster_tablespace_io('citus', size => '2MB', tests => '{seqwrite,seqread}',
		direct => false, record => false)});
is(join(',', map { "$_->{test}:$_->{node}" } @rows),
	join(',', map { my $t = $_; map { "$t:$_" } @names, 'total' } qw(seqwrite seqread)),
	'tablespace_io: per test, a row per worker and the total');
is($rows[2]{bytes}, $rows[0]{bytes} + $rows[1]{bytes}, 'tablespace_io: total bytes summed');
@rows = bs_rows($coord, q{
	SELECT * FROM bench_cluster_tablespace_io('citus', size => '2MB', tests => '{seqwrite}',
		direct => false, record => false, iodepth => 8)});
is(join(',', map { $_->{iodepth} } @rows), '8,8,8', 'tablespace_io through Citus at depth 8: every row says so');

# --- Errors.
sub psql_error
{
	my ($node, $sql) = @_;
	my ($rc, $stdout, $stderr) =
	  $node->psql('postgres', "\\set VERBOSITY verbose\n$sql");
	return $stderr;
}

# The coordinator's shell table: core bench_seqscan refuses it.
like(psql_error($coord, "SELECT * FROM bench_seqscan('lineitem')"),
	qr/ERROR:  0A000: .*\n(?:.*\n)*HINT:  .*bench_cluster_seqscan/,
	'bench_seqscan refuses a distributed table, pointing to bench_cluster_seqscan');

# A table Citus does not distribute.
$coord->safe_psql('postgres', 'CREATE TABLE local_table (a integer)');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('citus', 'local_table')"),
	qr/ERROR:  42809: relation "local_table" is not a Citus distributed table/,
	'a table Citus does not distribute: 42809');

# A shard no worker holds (on the coordinator, say): a warning, the rest measured.
set_shards(102008, 102009, 102010, 102011);
my ($ret, $out, $err) = $coord->psql('postgres',
	"SELECT pages FROM bench_cluster_seqscan('citus', 'lineitem', record => false) WHERE node = 'total'");
is($out, sum(@pages), 'a shard found on no worker: the others are measured');
like($err, qr/WARNING:  1 of 4 shards of relation "lineitem" were found on no worker\nDETAIL:  .*public.lineitem_102011/,
	'a shard found on no worker: a warning names it');
set_shards(102008, 102009, 102010);

# A worker without benchstore, a worker that is down: named.
$workers[0]->safe_psql('postgres', 'DROP EXTENSION benchstore');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('citus', 'lineitem')"),
	qr/ERROR:  P0001: node "$names[0]" of cluster "citus" failed\nDETAIL:  .*bench_seqscan/,
	'a worker without benchstore: named, with its error text');
$workers[0]->safe_psql('postgres', 'CREATE EXTENSION benchstore');
$workers[1]->stop('fast');
like(psql_error($coord, "SELECT * FROM bench_cluster_seqscan('citus', 'lineitem')"),
	qr/ERROR:  P0001: node "$names[1]" of cluster "citus" failed\nDETAIL:  connection/,
	'a worker that is down: named');
$workers[1]->start;
is($coord->safe_psql('postgres',
		"SELECT count(*) FROM bench_cluster_seqscan('citus', 'lineitem', record => false)"),
	3, 'back up: the scan runs again');

done_testing();
