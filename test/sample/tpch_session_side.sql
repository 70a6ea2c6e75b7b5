-- One side of the classic session (test/sample/tpch_session.sql includes
-- it once per side): generate the data set into a tablespace, then scan
-- lineitem and time Q19 and Q2 under the side's label.  Variables:
-- side_name, side_schema, side_spc, side_label; repeat; and the queries in
-- pg_temp.tpch_queries.
\echo
\echo '== Side' :side_name ':' :side_label
-- The data set, generated right before its measurements, so that both
-- sides start from the same history (what shared buffers and the OS page
-- cache hold of it is what the load and VACUUM left).
SET client_min_messages = warning;		-- the load's progress NOTICEs
SELECT relation, rows, round(mb::numeric, 1) AS mb, round(indexes_mb::numeric, 1) AS indexes_mb,
	   round(elapsed_ms::numeric) AS load_ms
FROM bench_generate_tpch(:scale, :'side_spc', :'side_schema', replace => true);
RESET client_min_messages;
-- VACUUM cannot run inside the function: freeze and analyze here, so that
-- no scan below sets hint bits or writes pages.
SELECT format('VACUUM (FREEZE, ANALYZE) %s', string_agg(c.oid::regclass::text, ', ' ORDER BY c.oid))
FROM pg_class c
WHERE c.relnamespace = :'side_schema'::regnamespace AND c.relkind = 'r'
\gexec
-- Write the load's dirty pages now, so that no background writing of them
-- runs during the warm measurements below (where this role may).
SELECT CASE WHEN pg_has_role('pg_checkpoint', 'USAGE') THEN 'CHECKPOINT' END
\gexec
-- Relation sizes, from the files, beside the planner's estimate
SELECT * FROM bench_relation_sizes(10, :'side_schema');
SET search_path = :"side_schema", public;
-- lineitem, scanned as PostgreSQL scans it (heap mode), warm then cold;
-- then its files read directly, cold (raw mode: storage alone, whatever
-- shared buffers hold)
SELECT r.mode, r.cache, r.run, r.relation, r.tablespace, round(r.size_mb::numeric, 1) AS size_mb,
	   round(r.elapsed_ms::numeric, 1) AS elapsed_ms, round(r.mb_per_s::numeric) AS mb_per_s,
	   round(r.tuples_per_s::numeric) AS tuples_per_s, r.blks_hit, r.blks_read, r.os_read_mb
FROM unnest(ARRAY['heap', 'heap', 'raw'], ARRAY['warm', 'cold', 'cold']) AS m(mode, cache),
	 bench_seqscan('lineitem', m.mode, m.cache, repeat => :repeat, label => :'side_label') r;
-- Q19 and Q2, warm then cold; an untimed, unrecorded run of each first,
-- so that the first warm run finds what the scans above left, as the
-- others do
SELECT count(*) AS warm_up_runs
FROM pg_temp.tpch_queries q, bench_query(q.query, record => false) r;
SELECT q.name AS query, r.cache, r.run, round(r.elapsed_ms::numeric, 1) AS elapsed_ms, r.rows,
	   r.relations, round(r.size_mb::numeric, 1) AS size_mb, round(r.mb_per_s::numeric) AS mb_per_s,
	   r.blks_hit, r.blks_read, r.os_read_mb, r.workers_launched
FROM (SELECT * FROM pg_temp.tpch_queries ORDER BY name DESC) q,
	 bench_query(q.query, 'warm', :repeat, :'side_label') r;
SELECT q.name AS query, r.cache, r.run, round(r.elapsed_ms::numeric, 1) AS elapsed_ms, r.rows,
	   r.relations, round(r.size_mb::numeric, 1) AS size_mb, round(r.mb_per_s::numeric) AS mb_per_s,
	   r.blks_hit, r.blks_read, r.os_read_mb, r.workers_launched
FROM (SELECT * FROM pg_temp.tpch_queries ORDER BY name DESC) q,
	 bench_query(q.query, 'cold', :repeat, :'side_label') r;
RESET search_path;

