# The upgrade paths.  1.0 and 1.1 are released; the current version is
# 1.2.  CREATE EXTENSION benchstore VERSION '1.0' then ALTER EXTENSION
# benchstore UPDATE (1.0 -> 1.1 -> 1.2 in one command), the same one
# version at a time, and a 1.1 database updated to 1.2, each give the same
# functions (signatures, result columns, comments, privileges, bodies),
# views, tables, types, dependencies and configuration tables as a fresh
# install, which runs one script of its own (benchstore--1.2.sql, built
# from src/sql/ like the update script); a DBA's own
# grant and revoke on a function survive the update; benchstore_cluster
# likewise; the runs a 1.0 or 1.1 database recorded survive the update and
# a pg_dump and restore after it; and the current library still serves a
# database whose SQL definitions are 1.0.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
$node->start;

is($node->safe_psql('postgres',
	"SELECT default_version FROM pg_available_extensions WHERE name = 'benchstore'"),
	'1.2', 'the control file defaults to 1.2');

# What an extension consists of, as text to compare between databases.
my $catalog = q{
WITH ext AS (
	SELECT d.classid, d.objid FROM pg_depend d
	JOIN pg_extension e ON e.oid = d.refobjid
	WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	  AND e.extname = :'ext')
SELECT 'function ' || p.oid::regprocedure
	   || ' returns ' || pg_get_function_result(p.oid)
	   || ' args ' || pg_get_function_arguments(p.oid)
	   || ' ' || p.provolatile::text || p.proparallel::text || p.prosecdef::text || p.proisstrict::text
	   || ' config ' || coalesce(array_to_string(p.proconfig, ','), '')
	   || ' acl ' || coalesce(p.proacl::text, 'default')
	   || ' initprivs ' || coalesce((SELECT i.initprivs::text FROM pg_init_privs i
									 WHERE i.objoid = p.oid AND i.classoid = 'pg_proc'::regclass
									   AND i.objsubid = 0), 'none')
	   || ' comment ' || coalesce(obj_description(p.oid, 'pg_proc'), '')
	   || ' body ' || md5(p.prosrc) || ' definition ' || md5(pg_get_functiondef(p.oid)) AS item
FROM ext JOIN pg_proc p ON ext.classid = 'pg_proc'::regclass AND p.oid = ext.objid
UNION ALL
SELECT 'relation ' || c.relname || ' ' || c.relkind::text
	   || ' acl ' || coalesce(c.relacl::text, 'default')
	   || ' comment ' || coalesce(obj_description(c.oid, 'pg_class'), '')
	   || ' options ' || coalesce(array_to_string(c.reloptions, ','), '')
	   || ' columns ' || coalesce((SELECT string_agg(a.attname || ':' || format_type(a.atttypid, a.atttypmod)
			|| CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
			|| coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), ''), ', ' ORDER BY a.attnum)
		FROM pg_attribute a LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
		WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '')
	   || CASE WHEN c.relkind = 'v' THEN ' view ' || md5(pg_get_viewdef(c.oid)) ELSE '' END
FROM ext JOIN pg_class c ON ext.classid = 'pg_class'::regclass AND c.oid = ext.objid
UNION ALL
SELECT 'index ' || pg_get_indexdef(i.indexrelid)
FROM ext JOIN pg_index i ON ext.classid = 'pg_class'::regclass AND i.indrelid = ext.objid
UNION ALL
SELECT 'constraint ' || conrelid::regclass || ' ' || pg_get_constraintdef(co.oid)
FROM ext JOIN pg_constraint co ON ext.classid = 'pg_class'::regclass AND co.conrelid = ext.objid
UNION ALL
SELECT 'type ' || t.typname
	   || ' comment ' || coalesce(obj_description(t.oid, 'pg_type'), '')
	   || ' attributes ' || coalesce((SELECT string_agg(a.attname || ':' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
		FROM pg_attribute a WHERE a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped), '')
FROM ext JOIN pg_type t ON ext.classid = 'pg_type'::regclass AND t.oid = ext.objid
UNION ALL
SELECT 'depends ' || pg_describe_object(d.classid, d.objid, d.objsubid)
	   || ' on ' || pg_describe_object(d.refclassid, d.refobjid, d.refobjsubid) || ' ' || d.deptype::text
FROM ext JOIN pg_depend d ON d.classid = ext.classid AND d.objid = ext.objid
WHERE d.deptype <> 'e' AND (d.refclassid, d.refobjid) IN (SELECT classid, objid FROM ext)
UNION ALL
SELECT 'config ' || coalesce((SELECT string_agg(x::regclass::text, ',' ORDER BY x::regclass::text)
							  FROM unnest(extconfig) x), '')
	   || ' conditions ' || coalesce(array_to_string(extcondition, ','), '')
	   || ' version ' || extversion
FROM pg_extension WHERE extname = :'ext'
ORDER BY 1};

# A database at 1.0 that has recorded runs.
$node->safe_psql('postgres', 'CREATE DATABASE old; CREATE DATABASE fresh; CREATE DATABASE stepwise; CREATE DATABASE v11');
# A DBA's own privileges, given before the update and expected after it
# (and given to the fresh install too, so the catalogs can be compared).
# bench_apply_advice is one that 1.2 replaces (CREATE OR REPLACE keeps its
# privileges; 1.0 -> 1.1 dropped and re-created some functions, which reset
# them: see CHANGELOG).
my $dba_grants = q{
	GRANT EXECUTE ON FUNCTION bench_relation_sizes(integer, name) TO bs_dba;
	REVOKE EXECUTE ON FUNCTION bench_relation_sizes(integer, name) FROM PUBLIC;
	REVOKE EXECUTE ON FUNCTION bench_apply_advice(name, text) FROM PUBLIC;
	GRANT EXECUTE ON FUNCTION bench_apply_advice(name, text) TO bs_dba;};
# Functions whose arguments or columns 1.2 changes are dropped and created
# again; the update carries a DBA's grants and revokes over to them, and
# leaves pg_init_privs as the scripts set it (so that pg_dump still dumps
# them as the DBA's): given at 1.1 on the 1.1 signatures, expected as a
# fresh 1.2 has them when given on the 1.2 ones.
my $dba_grants_11 = q{
	GRANT EXECUTE ON FUNCTION bench_seqscan(regclass, text, text, integer, text, boolean, integer, integer) TO bs_dba WITH GRANT OPTION;
	REVOKE EXECUTE ON FUNCTION bench_compare(text, text, text[]) FROM PUBLIC;
	GRANT EXECUTE ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer) TO bs_dba;
	GRANT EXECUTE ON FUNCTION bench_tablespace_advice(name, text, interval, text, boolean, float8) TO bs_dba;};
my $dba_grants_12 = q{
	GRANT EXECUTE ON FUNCTION bench_seqscan(regclass, text, text, integer, text, boolean, integer, integer, interval) TO bs_dba WITH GRANT OPTION;
	REVOKE EXECUTE ON FUNCTION bench_compare(text, text, text[], boolean, float8, boolean) FROM PUBLIC;
	GRANT EXECUTE ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) TO bs_dba;
	GRANT EXECUTE ON FUNCTION bench_tablespace_advice(name, text, interval, text, boolean, float8, integer, regclass) TO bs_dba;
	GRANT EXECUTE ON FUNCTION _bench_tablespace_advice_once(name, text, interval, text, boolean, float8) TO bs_dba;};
$node->safe_psql('postgres', 'CREATE ROLE bs_dba');
$node->safe_psql('old', q{
	CREATE EXTENSION benchstore VERSION '1.0';
	CREATE TABLE t AS SELECT g AS id, repeat('x', 50) AS pad FROM generate_series(1, 5000) g;
	CHECKPOINT;});
is($node->safe_psql('old', "SELECT extversion FROM pg_extension WHERE extname = 'benchstore'"),
	'1.0', 'created at 1.0');

# The current library serves the 1.0 definitions: no iodepth argument or column.
$node->safe_psql('old', q{
	SELECT count(*) FROM bench_seqscan('t', 'raw', repeat => 2, label => 'u-scan');
	SELECT count(*) FROM bench_tablespace_io(size => '1MB', direct => false,
		tests => '{seqwrite,randread}', duration => '1s', label => 'u-io');
	SELECT bench_record('pgbench', 'old-db', '{"tps": 1234.5}', 'u-ext');});
my $io10 = $node->safe_psql('old', q{
	SELECT string_agg(test, ',') FROM bench_tablespace_io(size => '1MB', direct => false,
		tests => '{seqwrite}', record => false)});
is($io10, 'seqwrite', 'a 1.0 definition runs with the current library');
my $runs_before = $node->safe_psql('old',
	'SELECT string_agg(bench_run_json(run_id)::text, E\'\n\' ORDER BY run_id) FROM bench_run');
my $nruns = $node->safe_psql('old', 'SELECT count(*) FROM bench_run');
is($nruns, 3, 'three runs recorded at 1.0');

# Update, and compare with a fresh install.
$node->safe_psql('old', 'ALTER EXTENSION benchstore UPDATE');
$node->safe_psql('fresh', 'CREATE EXTENSION benchstore');
$node->safe_psql('fresh', $dba_grants . $dba_grants_12);
$node->safe_psql('old', $dba_grants . $dba_grants_12);
sub catalog_of
{
	my ($db, $ext) = @_;
	return $node->safe_psql($db, "\\set ext $ext\n$catalog");
}
my $cat_updated = catalog_of('old', 'benchstore');
my $cat_fresh = catalog_of('fresh', 'benchstore');
like($cat_fresh, qr/version 1\.2/, 'fresh install is 1.2');
like($cat_fresh, qr/iodepth integer DEFAULT 1/, 'and has the iodepth argument of 1.1');
like($cat_fresh, qr/bench_relation_sizes\(integer,name\).* acl \{[^}]*bs_dba=X/,
	"and the DBA's grant");
is($cat_updated, $cat_fresh,
	'1.0 updated to 1.2 equals a fresh 1.2: functions, signatures, comments, privileges, tables, views, configuration tables');

# The fresh install is one script of its own, built from src/sql/ (not
# the chain the updates run), so the comparisons above can fail: each
# update script is built from the same sources as the install script, but
# runs its own pre- and post-update steps and only its version's sections.
my $sharedir = $node->config_data('--sharedir');
for my $script ('benchstore--1.2.sql', 'benchstore_cluster--1.2.sql')
{
	open(my $fh, '<', "$sharedir/extension/$script")
	  or BAIL_OUT("no install script $script: $!");
	my $first = <$fh>;
	close($fh);
	like($first, qr/built by src\/sql\/assemble\.sh/, "$script is installed, built from the SQL sources");
}
# And the comparison sees a difference where there is one: a comment, and
# the body of a function whose SQL is parsed when it is created (prosrc
# is empty for those), changed in one database.
$node->safe_psql('postgres', 'CREATE DATABASE altered');
$node->safe_psql('altered', 'CREATE EXTENSION benchstore');
$node->safe_psql('altered', $dba_grants . $dba_grants_12);
is(catalog_of('altered', 'benchstore'), $cat_fresh, 'a second fresh install equals the first');
my $comment = $node->safe_psql('altered',
	q{SELECT quote_literal(obj_description('bench_metric(jsonb, text)'::regprocedure, 'pg_proc'))});
$node->safe_psql('altered', q{COMMENT ON FUNCTION bench_metric(jsonb, text) IS 'changed'});
isnt(catalog_of('altered', 'benchstore'), $cat_fresh, 'a changed comment is a difference');
$node->safe_psql('altered', "COMMENT ON FUNCTION bench_metric(jsonb, text) IS $comment");
is(catalog_of('altered', 'benchstore'), $cat_fresh, 'and none once it is back');
$node->safe_psql('altered', q{CREATE OR REPLACE FUNCTION _bench_scan_kind(plan jsonb) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN 'changed'});
isnt(catalog_of('altered', 'benchstore'), $cat_fresh, 'a changed SQL-standard body is a difference');
$node->safe_psql('postgres', 'DROP DATABASE altered');

# One version at a time: 1.0, then 1.1, then 1.2.
$node->safe_psql('stepwise', "CREATE EXTENSION benchstore VERSION '1.0'");
$node->safe_psql('stepwise', "ALTER EXTENSION benchstore UPDATE TO '1.1'");
is($node->safe_psql('stepwise', "SELECT extversion FROM pg_extension WHERE extname = 'benchstore'"),
	'1.1', '1.0 updated to 1.1');
$node->safe_psql('stepwise', $dba_grants . $dba_grants_11);
$node->safe_psql('stepwise', "ALTER EXTENSION benchstore UPDATE TO '1.2'");
is(catalog_of('stepwise', 'benchstore'), $cat_fresh,
	'1.0 updated to 1.1 and then to 1.2 equals a fresh 1.2, the grant given at 1.1 kept');

# A 1.1 database with a recorded run and the DBA's grant, updated to 1.2.
$node->safe_psql('v11', qq{
	CREATE EXTENSION benchstore VERSION '1.1';
	$dba_grants
	$dba_grants_11
	SELECT bench_record('pgbench', 'v11-db', '{"tps": 99.5}', 'at-1.1');});
# The current library serves 1.1's definitions too (they bind the legacy
# entry points, as 1.0's do): iodepth, and 1.1's columns.
$node->safe_psql('v11', 'CREATE TABLE t11 AS SELECT g FROM generate_series(1, 1000) g');
is($node->safe_psql('v11', q{SELECT string_agg(mode || ':' || iodepth, ',')
	FROM bench_seqscan('t11', 'raw', iodepth => 1, record => false)}),
	'raw:1', 'a 1.1 definition runs with the current library: bench_seqscan');
is($node->safe_psql('v11', q{SELECT string_agg(test || ':' || iodepth, ',')
	FROM bench_tablespace_io(size => '1MB', direct => false, tests => '{seqwrite}',
		iodepth => 1, record => false)}),
	'seqwrite:1', 'and bench_tablespace_io');
is($node->safe_psql('v11', q{SELECT count(*) FROM bench_query('SELECT 1', record => false)}),
	'1', 'and bench_query');
is($node->safe_psql('v11', q{SELECT files FROM bench_cache_evict('t11')}),
	'1', 'and bench_cache_evict, with its four columns');
my $v11_runs = $node->safe_psql('v11',
	'SELECT string_agg(bench_run_json(run_id)::text, E\'\\n\' ORDER BY run_id) FROM bench_run');
$node->safe_psql('v11', 'ALTER EXTENSION benchstore UPDATE');
is(catalog_of('v11', 'benchstore'), $cat_fresh, '1.1 updated to 1.2 equals a fresh 1.2, the grant kept');
is($node->safe_psql('v11',
	'SELECT string_agg(bench_run_json(run_id)::text, E\'\\n\' ORDER BY run_id) FROM bench_run'),
	$v11_runs, 'the run recorded at 1.1 is unchanged by the update');
is($node->safe_psql('v11', q{SELECT has_function_privilege('bs_dba', 'bench_relation_sizes(integer, name)', 'EXECUTE')
	AND NOT has_function_privilege('public', 'bench_relation_sizes(integer, name)', 'EXECUTE')
	AND has_function_privilege('bs_dba', 'bench_apply_advice(name, text)', 'EXECUTE')
	AND NOT has_function_privilege('public', 'bench_apply_advice(name, text)', 'EXECUTE')}),
	't', "the DBA's grant and revoke hold after the update, also on a function 1.2 replaces");
is($node->safe_psql('v11', q{SELECT has_function_privilege('bs_dba', 'bench_seqscan(regclass, text, text, integer, text, boolean, integer, integer, interval)', 'EXECUTE WITH GRANT OPTION')
	AND NOT has_function_privilege('public', 'bench_compare(text, text, text[], boolean, float8, boolean)', 'EXECUTE')
	AND has_function_privilege('bs_dba', 'bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean)', 'EXECUTE')
	AND has_function_privilege('public', 'bench_seqscan(regclass, text, text, integer, text, boolean, integer, integer, interval)', 'EXECUTE')}),
	't', "grants and revokes on the functions 1.2 drops and creates again are carried over");
is($node->safe_psql('v11', q{SELECT count(*) FROM pg_init_privs i
	WHERE i.classoid = 'pg_proc'::regclass AND i.initprivs::text LIKE '%bs_dba%'}),
	'0', "and pg_init_privs does not take them for the extension's own");
like($node->safe_psql('v11', q{SELECT prosrc FROM pg_proc WHERE oid = 'bench_apply_advice(name, text)'::regprocedure}),
	qr/_bench_may_alter_tablespace/, 'and that function is the 1.2 one');

is($node->safe_psql('old',
	'SELECT string_agg(bench_run_json(run_id)::text, E\'\n\' ORDER BY run_id) FROM bench_run'),
	$runs_before, 'the recorded runs are unchanged by the update');
is($node->safe_psql('old',
	"SELECT string_agg(DISTINCT label || ':' || coalesce(iodepth::text, '-'), ',') FROM bench_history"),
	'u-ext:-,u-io:1,u-scan:1', 'and read through bench_history with the depth they ran at');

# New runs after the update, beside the old ones.
$node->safe_psql('old', q{
	SELECT count(*) FROM bench_tablespace_io(size => '1MB', direct => false,
		tests => '{seqwrite,randread}', duration => '1s', label => 'u-io')});
is($node->safe_psql('old', "SELECT count(*) FROM bench_run WHERE label = 'u-io'"), 2,
	'a 1.2 run joins the 1.0 run under its label');

# benchstore_cluster the same way.
$node->safe_psql('old', "CREATE EXTENSION plproxy; CREATE EXTENSION benchstore_cluster VERSION '1.0'");
$node->safe_psql('old', 'ALTER EXTENSION benchstore_cluster UPDATE');
$node->safe_psql('fresh', 'CREATE EXTENSION plproxy; CREATE EXTENSION benchstore_cluster');
my $cl_fresh = catalog_of('fresh', 'benchstore_cluster');
like($cl_fresh, qr/version 1\.2/, 'a fresh benchstore_cluster is 1.2');
like($cl_fresh, qr/bench_cluster_tablespace_io.* iodepth integer DEFAULT 1/,
	'and has the iodepth argument of 1.1');
is(catalog_of('old', 'benchstore_cluster'), $cl_fresh,
	'benchstore_cluster 1.0 updated to 1.2 equals a fresh 1.2');
$node->safe_psql('stepwise', "CREATE EXTENSION plproxy; CREATE EXTENSION benchstore_cluster VERSION '1.0'");
$node->safe_psql('stepwise', "ALTER EXTENSION benchstore_cluster UPDATE TO '1.1'");
$node->safe_psql('stepwise', "ALTER EXTENSION benchstore_cluster UPDATE TO '1.2'");
is(catalog_of('stepwise', 'benchstore_cluster'), $cl_fresh,
	'benchstore_cluster 1.0 updated to 1.1 and then to 1.2 equals a fresh 1.2');
$node->safe_psql('v11', "CREATE EXTENSION plproxy; CREATE EXTENSION benchstore_cluster VERSION '1.1'");
$node->safe_psql('v11', 'ALTER EXTENSION benchstore_cluster UPDATE');
is(catalog_of('v11', 'benchstore_cluster'), $cl_fresh,
	'benchstore_cluster 1.1 updated to 1.2 equals a fresh 1.2');

# pg_dump and restore of the updated database.
my $dump = $node->basedir . '/old.dump';
$node->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('old') ],
	'pg_dump of the updated database');
$node->safe_psql('postgres', 'CREATE DATABASE restored');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('restored'), $dump ],
	'pg_restore into a new database');
is(catalog_of('restored', 'benchstore'), $cat_fresh,
	'the restored extension equals a fresh 1.2');
is(catalog_of('restored', 'benchstore_cluster'), $cl_fresh,
	'and so does the restored benchstore_cluster');
is($node->safe_psql('restored',
	'SELECT string_agg(bench_run_json(run_id)::text, E\'\n\' ORDER BY run_id) FROM bench_run'),
	$node->safe_psql('old',
	'SELECT string_agg(bench_run_json(run_id)::text, E\'\n\' ORDER BY run_id) FROM bench_run'),
	'every recorded run survives pg_dump and restore');
my $max = $node->safe_psql('restored', 'SELECT max(run_id) FROM bench_run');
my $next = $node->safe_psql('restored', q{SELECT bench_record('x', 'y', '{"v": 1}', 'after')});
cmp_ok($next, '>', $max, 'run ids go on after the restored ones');

# A definition of a legacy entry point that no version has is refused.
$node->safe_psql('postgres', q{CREATE FUNCTION bad_seqscan(regclass) RETURNS SETOF record
	AS '$libdir/benchstore', 'bench_seqscan' LANGUAGE C});
my ($rc, $out, $err) = $node->psql('postgres',
	q{SELECT * FROM bad_seqscan('pg_class') AS (x integer)}, on_error_stop => 1);
like($err, qr/has 1 argument, which no version of benchstore has/,
	'a legacy entry point refuses a definition no version has');

$node->stop;
done_testing();
