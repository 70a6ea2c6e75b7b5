# Privilege boundaries of both extensions on a fresh install.
#
# 1. No function is SECURITY DEFINER; the functions that write server files
#    or checkpoint are not executable by PUBLIC; the internal functions
#    (names starting with "_") executable by PUBLIC are exactly those
#    audited in src/sql/benchstore_cluster/common.sql (the public functions call
#    them as their caller): a new one must be audited before it passes.
# 2. In one session, after a superuser's recorded runs: SET ROLE, SET
#    SESSION AUTHORIZATION, a SECURITY DEFINER function owned by a plain
#    role, and an index expression run by the superuser's ANALYZE (a
#    security-restricted operation, as the table's owner) each record
#    under the plain role's name, never the superuser's.  The cluster
#    paths are checked the same way on real clusters: PL/Proxy in
#    008_cluster.pl, Citus in 010_citus.pl.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use BenchstoreTAP;

my $node = bs_node('privileges');
$node->safe_psql('postgres', q{
	CREATE EXTENSION plproxy;
	CREATE EXTENSION benchstore_cluster;
	CREATE ROLE plain_pv LOGIN;
	CREATE TABLE t AS SELECT g FROM generate_series(1, 1000) g;
	GRANT SELECT ON t TO plain_pv;
	GRANT CREATE ON SCHEMA public TO plain_pv;});

my $ext_funcs = q{
	SELECT p.oid, p.proname, p.pronargs, p.prosecdef, p.proacl, e.extname
	FROM pg_proc p
	JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid
	WHERE e.extname IN ('benchstore', 'benchstore_cluster')};

is($node->safe_psql('postgres', "SELECT string_agg(oid::regprocedure::text, ', ') FROM ($ext_funcs) f WHERE prosecdef"),
	'', 'no function of either extension is SECURITY DEFINER');

# benchstore's functions and their rights are pinned in one place,
# sql/setup.sql (expected/setup.out); benchstore_cluster's, which needs
# PL/Proxy, here.
is($node->safe_psql('postgres', qq{
	SELECT string_agg(proname, ',' ORDER BY proname) FROM ($ext_funcs) f
	WHERE extname = 'benchstore_cluster' AND NOT has_function_privilege('public', oid, 'EXECUTE')}),
	'', 'benchstore_cluster: every function executable by PUBLIC');

is($node->safe_psql('postgres', qq{
	SELECT string_agg(DISTINCT proname, ',' ORDER BY proname) FROM ($ext_funcs) f
	WHERE extname = 'benchstore_cluster' AND proname LIKE '\\_%' AND has_function_privilege('public', oid, 'EXECUTE')}),
	join(',', sort qw(
		_bench_cluster_target _bench_cluster_ping_plproxy _bench_cluster_probe_plproxy
		_bench_cluster_evict_plproxy _bench_cluster_seqscan_plproxy _bench_cluster_io_plproxy
		_bench_cluster_citus _bench_cluster_citus_kept
		_bench_cluster_citus_scan_command _bench_cluster_citus_evict_command
		_bench_cluster_citus_shard_groups _bench_cluster_node_error _bench_cluster_blame_plproxy
		_bench_cluster_seqscan_rows _bench_cluster_io_rows _bench_cluster_check_label
		_bench_cluster_record _bench_cluster_seqscan _bench_cluster_tablespace_io
		_bench_cluster_randread_plproxy _bench_cluster_citus_randread_command
		_bench_cluster_randread_rows _bench_cluster_randread
		_bench_cluster_tpcb_plproxy _bench_cluster_citus_tpcb_command
		_bench_cluster_tpcb_rows _bench_cluster_tpcb)),
	"benchstore_cluster: the internal functions executable by PUBLIC are exactly the audited ones");
is($node->safe_psql('postgres', qq{
	SELECT string_agg(oid::regprocedure::text, ', ') FROM ($ext_funcs) f
	WHERE proname IN ('_bench_cluster_citus_pool', '_bench_cluster_conninfo_value')
	   OR (proname = '_bench_cluster_citus_kept' AND pronargs = 3)
	   OR oid::regprocedure::text IN ('_bench_cluster_citus(text)',
		   '_bench_cluster_citus_scan_command(text[],text,text,text,boolean,integer)')}),
	'', "1.1's dblink pool and 1.0's unused Citus functions are gone");

# A plain role's functions: one SECURITY DEFINER, one run by ANALYZE
# through an expression index on its table.
$node->safe_psql('postgres', q{
	SET ROLE plain_pv;
	CREATE FUNCTION public.pv_definer() RETURNS bigint LANGUAGE sql SECURITY DEFINER
		AS $f$ SELECT public.bench_record('outside', 'pv', '{"x": 1}', 'pv-definer') $f$;
	CREATE FUNCTION public.pv_record() RETURNS bigint LANGUAGE sql VOLATILE
		AS $f$ SELECT public.bench_record('outside', 'pv', '{"x": 1}', 'pv-analyze') $f$;
	CREATE FUNCTION public.pv_idx(i integer) RETURNS integer LANGUAGE plpgsql IMMUTABLE
		AS $f$ BEGIN PERFORM public.pv_record(); RETURN i; END $f$;
	CREATE TABLE public.pv_t (i integer);
	INSERT INTO public.pv_t VALUES (1);
	RESET ROLE;
	CREATE INDEX pv_t_idx ON public.pv_t (public.pv_idx(i));
	SELECT bench_forget('pv-analyze');});

$node->safe_psql('postgres', q{
	SELECT count(*) FROM bench_seqscan('t', label => 'pv-su');
	SET ROLE plain_pv;
	SELECT count(*) FROM bench_seqscan('t', label => 'pv-role');
	SELECT bench_record('outside', 'pv', '{"x": 1}', 'pv-role');
	RESET ROLE;
	SET SESSION AUTHORIZATION plain_pv;
	SELECT count(*) FROM bench_query('SELECT count(*) FROM t', label => 'pv-auth');
	RESET SESSION AUTHORIZATION;
	SELECT public.pv_definer();
	ANALYZE public.pv_t;
	SELECT bench_record('outside', 'pv', '{"x": 1}', 'pv-su-again');});
is($node->safe_psql('postgres', q{
	SELECT string_agg(label || '=' || recorded_by, ',' ORDER BY run_id)
	FROM bench_run WHERE label LIKE 'pv-%'}),
	'pv-su=postgres,pv-role=plain_pv,pv-role=plain_pv,pv-auth=plain_pv,'
	  . 'pv-definer=plain_pv,pv-analyze=plain_pv,pv-su-again=postgres',
	'in one session, every run is recorded under the role that ran it: SET ROLE, SESSION AUTHORIZATION, SECURITY DEFINER, ANALYZE');

# The plain role cannot forget the superuser's runs, nor reach the
# functions not granted to it, after the superuser used them in the session.
my ($ret, $out, $err) = $node->psql('postgres', q{
	SELECT count(*) FROM bench_tablespace_io(size => '1MB', tests => '{seqwrite}', direct => false, label => 'pv-io');
	SET ROLE plain_pv;
	SELECT runs FROM bench_forget('pv-su');
	SELECT count(*) FROM bench_tablespace_io(size => '1MB', tests => '{seqwrite}', direct => false);});
like($err, qr/permission denied for function bench_tablespace_io/,
	'after the superuser ran bench_tablespace_io, the plain role still may not');
is($node->safe_psql('postgres', q{SELECT count(*) FROM bench_run WHERE label = 'pv-su'}), 1,
	"the plain role did not forget the superuser's run");

$node->stop;
done_testing();
