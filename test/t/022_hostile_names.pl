# Hostile names: a schema, a table, a column, a tablespace, a label and a
# role whose names hold ', ", \, ;, %s, $$, a newline, non-ASCII letters
# and the payload '||public.planted()||' (a function that raises when it
# runs).  Every path runs on them: heap, buffer and raw scans, serial and
# with workers, warm and cold, relation sizes, cache status and eviction,
# bench_query, bench_plan_crossover, tablespace I/O, advice applied and
# undone, the history (compare, chart, run JSON, forget), and the cluster
# functions through PL/Proxy (a cluster of this node itself); the Citus
# path is checked on a real cluster in 010_citus.pl.  Each gives its
# normal result: a name that ends a literal or an identifier early shows
# up as a syntax error or as the planted function running, and the
# server log must show neither.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('hostile', 'max_worker_processes = 8', 'max_parallel_workers = 4');
my $payload = q{'||public.planted()||'};
my %name = (
	schema => qq{s'";\\%s\$\$ é$payload},
	table => qq{t'"; DROP TABLE x;--%s\$\$\nü$payload},
	column => qq{c'"\\%s\$\$ ø$payload},
	tablespace => qq{ts'"\\%s\$\$ ß$payload},
	label => qq{l'"; \\%s \$\$\n ñ$payload},
	role => qq{r'"\\%s\$\$ å$payload},
);

# SQL quoting, as quote_ident and quote_literal do (standard strings)
sub qi { my ($s) = @_; $s =~ s/"/""/g; return qq{"$s"}; }
sub ql { my ($s) = @_; $s =~ s/'/''/g; return qq{'$s'}; }

my $schema = qi($name{schema});
my $table = "$schema." . qi($name{table});
my $rel = ql($table) . '::regclass';
my $ts = qi($name{tablespace});
my $label = ql($name{label});
my $role = qi($name{role});
my $tsdir = PostgreSQL::Test::Utils::tempdir;

$node->safe_psql('postgres', qq{
	CREATE FUNCTION public.planted() RETURNS text LANGUAGE plpgsql
		AS \$f\$BEGIN RAISE EXCEPTION 'planted function ran'; END\$f\$;
	CREATE EXTENSION plproxy;
	CREATE EXTENSION benchstore_cluster;
	CREATE SCHEMA $schema;
	CREATE TABLESPACE $ts LOCATION '$tsdir';
	CREATE TABLE $table (${\ qi($name{column}) } integer, pad text) TABLESPACE $ts;
	INSERT INTO $table SELECT g, repeat('p', 200) FROM generate_series(1, 20000) g;
	VACUUM ANALYZE $table;
	CHECKPOINT;
	CREATE ROLE $role LOGIN;
	GRANT USAGE ON SCHEMA $schema TO $role;
	GRANT SELECT ON $table TO $role;});
bs_plproxy_cluster($node, 'self', [$node]);
my $rows = 20000;
my $pages = $node->safe_psql('postgres', "SELECT pg_relation_size($rel) / current_setting('block_size')::int");

# Each call: its result, or the test fails with the error.
sub runs_ok
{
	my ($sql, $expect, $what) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql);
	is($ret, 0, "$what: runs") or diag($err);
	unlike($err, qr/planted function ran|syntax error/, "$what: nothing planted ran, no syntax error");
	is($out, $expect, "$what: its result") if defined $expect;
	return $out;
}

for my $mode ('heap', 'buffer', 'raw')
{
	for my $workers (0, 2)
	{
		runs_ok("SELECT pages || '/' || coalesce(tuples::text, '-') FROM bench_seqscan($rel, '$mode', label => $label, workers => $workers)",
			"$pages/" . ($mode eq 'heap' ? $rows : $mode eq 'raw' ? $rows : '-'),
			"bench_seqscan $mode, $workers workers");
	}
}
runs_ok("SELECT pages FROM bench_seqscan($rel, 'raw', iodepth => 8, label => $label)", $pages, 'bench_seqscan raw at depth 8');
runs_ok("SELECT tuples FROM bench_seqscan($rel, cache => 'cold', label => $label)", $rows, 'bench_seqscan cold');
runs_ok("SELECT pages FROM bench_relation_sizes(10, " . ql($name{schema}) . ")", $pages, 'bench_relation_sizes of the schema');
runs_ok("SELECT files FROM bench_cache_status($rel)", 1, 'bench_cache_status');
runs_ok("SELECT count(*) FROM bench_cache_evict($rel)", 1, 'bench_cache_evict');
runs_ok("SELECT rows FROM bench_query(" . ql("SELECT count(${\ qi($name{column}) }) FROM $table") . ", cache => 'cold', label => $label)",
	1, 'bench_query cold');
runs_ok("SELECT count(*) FROM bench_tablespace_io(" . ql($name{tablespace}) . ", size => '2MB', tests => '{seqwrite,seqread,randread}', direct => false, duration => '200ms', label => $label)",
	3, 'bench_tablespace_io in the tablespace');
runs_ok("SELECT string_agg(tablespace::text, '|' ORDER BY tablespace::text = 'total', tablespace::text = 'pg_default') FROM bench_tablespaces_io(ARRAY[" . ql($name{tablespace}) . ", 'pg_default']::name[], size => '1MB', tests => '{seqwrite}', direct => false, label => $label)",
	"$name{tablespace}|pg_default|total", 'bench_tablespaces_io: each tablespace as named, and the total');

# the crossover on the hostile column's index, cold; with the hostile
# tablespace's own random_page_cost, the proposed one planned under by
# setting it in a subtransaction rolled back
$node->safe_psql('postgres', "CREATE INDEX ON $table (${\ qi($name{column}) }); ANALYZE $table; ALTER TABLESPACE $ts SET (random_page_cost = 3)");
runs_ok("SELECT string_agg(rows::text || ':' || (planner_proposed IS NOT NULL)::text, ',' ORDER BY selectivity) FROM bench_plan_crossover($rel, " . ql($name{column}) . ", '{0.01,0.5}', random_page_cost => 2, cache => 'cold', label => $label)",
	'200:true,10000:true', 'bench_plan_crossover cold, under the tablespace\'s own cost and a proposed one');
is($node->safe_psql('postgres', "SELECT array_to_string(spcoptions, ',') FROM pg_tablespace WHERE spcname = " . ql($name{tablespace})),
	'random_page_cost=3', 'bench_plan_crossover: the tablespace option as it was');
$node->safe_psql('postgres', "ALTER TABLESPACE $ts RESET (random_page_cost)");

# advice recorded under the hostile label, applied to and undone on the
# hostile tablespace
runs_ok("SELECT bench_record('tablespace_advice', " . ql($name{tablespace}) . ", '[{\"setting\": \"random_page_cost\", \"suggested_value\": \"1.5\"}]', $label) > 0",
	't', 'advice recorded');
runs_ok("SELECT value_after FROM bench_apply_advice(" . ql($name{tablespace}) . ", $label)", '1.5', 'bench_apply_advice');
runs_ok("SELECT count(*) FROM bench_undo_advice(" . ql($name{tablespace}) . ")", 1, 'bench_undo_advice');
is($node->safe_psql('postgres', "SELECT spcoptions IS NULL FROM pg_tablespace WHERE spcname = " . ql($name{tablespace})),
	't', 'the tablespace options as before');

# the history, under the hostile label
runs_ok("SELECT count(*) > 0 FROM bench_compare($label, $label)", 't', 'bench_compare');
# (label_like is a LIKE pattern: the label's own \% would match a % only)
runs_ok("SELECT count(*) > 0 FROM bench_chart('mb_per_s', label_like => " . ql(q{l'"; %}) . ")", 't', 'bench_chart');
runs_ok("SELECT bool_and(bench_run_json(run_id) ->> 'label' = $label) FROM bench_run WHERE label = $label", 't', 'bench_run_json');
runs_ok("SELECT count(DISTINCT target) FROM bench_history WHERE label = $label AND target IN (" . ql($table) . ', ' . ql($name{tablespace}) . ')',
	2, 'bench_history names the relation and the tablespace as given');

# the hostile role records under its own name (a label of its own: a
# label belongs to the role that first recorded runs under it)
my $label2 = ql($name{label} . ' 2');
runs_ok("SET ROLE $role; SELECT tuples FROM bench_seqscan($rel, label => $label2)", $rows, 'bench_seqscan as the hostile role');
is($node->safe_psql('postgres', "SELECT count(*) FROM bench_run WHERE recorded_by = " . ql($name{role})),
	1, 'recorded under the hostile role');

# PL/Proxy: this node as a cluster of one
runs_ok("SELECT tuples FROM bench_cluster_seqscan('self', " . ql($table) . ", label => $label) WHERE node = 'total'",
	$rows, 'bench_cluster_seqscan through PL/Proxy');
runs_ok("SELECT count(*) FROM bench_cluster_tablespace_io('self', " . ql($name{tablespace}) . ", size => '1MB', tests => '{seqwrite}', direct => false, label => $label)",
	2, 'bench_cluster_tablespace_io through PL/Proxy');

runs_ok("SELECT sum(runs) > 0 FROM bench_forget($label)", 't', 'bench_forget');
is($node->safe_psql('postgres', "SELECT count(*) FROM bench_run WHERE label = $label"), 0, 'every run of the label forgotten');
is($node->safe_psql('postgres', "SELECT count(*) FROM pg_ls_tmpdir()"), 0, 'no temporary file left');
is(scalar(bs_temp_files($tsdir)), 0, 'none in the hostile tablespace');
my $log = slurp_file($node->logfile);
unlike($log, qr/ERROR:\s+planted function ran/, 'the server log: the planted function never ran');
unlike($log, qr/ERROR:\s+syntax error/, 'the server log: no syntax error anywhere');

$node->stop;
done_testing();
