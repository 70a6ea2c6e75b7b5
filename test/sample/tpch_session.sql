-- The classic session on a TPC-H-shaped data set: generate it in two
-- tablespaces, look at the relation sizes, scan lineitem warm and cold,
-- time TPC-H's Q19 and Q2 warm and cold, and compare the two tablespaces.
--
-- Usage (as a superuser, or a role with CREATE on the database and on both
-- tablespaces and membership in pg_checkpoint for the cold runs):
--
--   psql -v scale=0.05 -v spc_a=pg_default -v spc_b=fast -f test/sample/tpch_session.sql
--
-- Variables, all optional:
--   scale    TPC-H scale factor (default 0.1: 600,000 lineitem rows, 155 MB)
--   spc_a    tablespace of schema tpch_a, the baseline (default pg_default)
--   spc_b    tablespace of schema tpch_b, the candidate (default pg_default:
--            the session then compares a tablespace with itself, which
--            shows the noise of the machine)
--   repeat   runs of each measurement (default 5; bench_compare needs
--            repeats for a verdict)
--   workers  max_parallel_workers_per_gather for the queries (default 0:
--            serial plans, the same every time)
--
-- Both schemas are generated again on every run (replace => true: only
-- schemas bench_generate_tpch made are replaced), and the history of the
-- two labels, 'tpch_a@<spc_a>' and 'tpch_b@<spc_b>', starts afresh.
-- The data is the same for the same scale on every machine, so two
-- machines' sessions measure the same rows.
--
-- A cold heap scan or query still finds in shared buffers whatever they
-- hold of the tables (blks_hit): for cold figures that mean storage, pick
-- a scale whose lineitem (about 900 MB per unit of scale) is well over
-- shared_buffers, or read the raw-mode rows, which bypass shared buffers.
\set ON_ERROR_STOP on
\if :{?scale}
\else
\set scale 0.1
\endif
\if :{?spc_a}
\else
\set spc_a pg_default
\endif
\if :{?spc_b}
\else
\set spc_b pg_default
\endif
\if :{?repeat}
\else
\set repeat 5
\endif
\if :{?workers}
\else
\set workers 0
\endif
\set label_a 'tpch_a@' :spc_a
\set label_b 'tpch_b@' :spc_b
\pset null '(null)'

\echo
\echo '== Setup: scale' :scale ', tablespaces' :spc_a 'and' :spc_b
SELECT version();
SELECT spcname AS tablespace, coalesce(nullif(pg_tablespace_location(oid), ''), '(data directory)') AS location
FROM pg_tablespace
WHERE spcname IN (:'spc_a', :'spc_b')
ORDER BY spcname = :'spc_b', spcname;
-- Steadier timings: no JIT compilation inside the measured queries, a fixed
-- number of parallel workers, and I/O timing where this role may set it.
SET jit = off;
SET max_parallel_workers_per_gather = :workers;
SELECT CASE WHEN has_parameter_privilege('track_io_timing', 'SET')
			THEN set_config('track_io_timing', 'on', false)
			ELSE current_setting('track_io_timing') END AS track_io_timing;
SELECT runs AS forgotten_runs FROM bench_forget(:'label_a');
SELECT runs AS forgotten_runs FROM bench_forget(:'label_b');

-- TPC-H's Q19 (discounted revenue) and Q2 (minimum cost supplier), in the
-- specification's form with its validation parameters.  Unqualified: each
-- side runs them with its own search_path, so that bench_compare matches
-- the same query text on both sides.
CREATE TEMP TABLE IF NOT EXISTS tpch_queries (name text PRIMARY KEY, query text NOT NULL);
TRUNCATE pg_temp.tpch_queries;
INSERT INTO pg_temp.tpch_queries VALUES
('Q19', $q$
SELECT sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM lineitem, part
WHERE (p_partkey = l_partkey
	   AND p_brand = 'Brand#12'
	   AND p_container IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG')
	   AND l_quantity >= 1 AND l_quantity <= 1 + 10
	   AND p_size BETWEEN 1 AND 5
	   AND l_shipmode IN ('AIR', 'AIR REG')
	   AND l_shipinstruct = 'DELIVER IN PERSON')
   OR (p_partkey = l_partkey
	   AND p_brand = 'Brand#23'
	   AND p_container IN ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK')
	   AND l_quantity >= 10 AND l_quantity <= 10 + 10
	   AND p_size BETWEEN 1 AND 10
	   AND l_shipmode IN ('AIR', 'AIR REG')
	   AND l_shipinstruct = 'DELIVER IN PERSON')
   OR (p_partkey = l_partkey
	   AND p_brand = 'Brand#34'
	   AND p_container IN ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG')
	   AND l_quantity >= 20 AND l_quantity <= 20 + 10
	   AND p_size BETWEEN 1 AND 15
	   AND l_shipmode IN ('AIR', 'AIR REG')
	   AND l_shipinstruct = 'DELIVER IN PERSON')
$q$),
('Q2', $q$
SELECT s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
FROM part, supplier, partsupp, nation, region
WHERE p_partkey = ps_partkey
  AND s_suppkey = ps_suppkey
  AND p_size = 15
  AND p_type LIKE '%BRASS'
  AND s_nationkey = n_nationkey
  AND n_regionkey = r_regionkey
  AND r_name = 'EUROPE'
  AND ps_supplycost = (SELECT min(ps_supplycost)
					   FROM partsupp, supplier, nation, region
					   WHERE p_partkey = ps_partkey
						 AND s_suppkey = ps_suppkey
						 AND s_nationkey = n_nationkey
						 AND n_regionkey = r_regionkey
						 AND r_name = 'EUROPE')
ORDER BY s_acctbal DESC, n_name, s_name, p_partkey
LIMIT 100
$q$);

--
-- Side A, then side B: the same steps under each label (the two blocks
-- differ only in schema, tablespace and label).
--
\echo
\echo '== Side A:' :label_a
-- The data set, generated right before its measurements, so that both
-- sides start from the same history (what shared buffers and the OS page
-- cache hold of it is what the load and VACUUM left).
SET client_min_messages = warning;		-- the load's progress NOTICEs
SELECT relation, rows, round(mb::numeric, 1) AS mb, round(indexes_mb::numeric, 1) AS indexes_mb,
	   round(elapsed_ms::numeric) AS load_ms
FROM bench_generate_tpch(:scale, :'spc_a', 'tpch_a', replace => true);
RESET client_min_messages;
-- VACUUM cannot run inside the function: freeze and analyze here, so that
-- no scan below sets hint bits or writes pages.
SELECT format('VACUUM (FREEZE, ANALYZE) %s', string_agg(c.oid::regclass::text, ', ' ORDER BY c.oid))
FROM pg_class c
WHERE c.relnamespace = 'tpch_a'::regnamespace AND c.relkind = 'r'
\gexec
-- Write the load's dirty pages now, so that no background writing of them
-- runs during the warm measurements below (where this role may).
SELECT CASE WHEN pg_has_role('pg_checkpoint', 'USAGE') THEN 'CHECKPOINT' END
\gexec
-- Relation sizes, from the files, beside the planner's estimate
SELECT * FROM bench_relation_sizes(10, 'tpch_a');
SET search_path = tpch_a, public;
-- lineitem, scanned as PostgreSQL scans it (heap mode), warm then cold;
-- then its files read directly, cold (raw mode: storage alone, whatever
-- shared buffers hold)
SELECT r.mode, r.cache, r.run, r.relation, r.tablespace, round(r.size_mb::numeric, 1) AS size_mb,
	   round(r.elapsed_ms::numeric, 1) AS elapsed_ms, round(r.mb_per_s::numeric) AS mb_per_s,
	   round(r.tuples_per_s::numeric) AS tuples_per_s, r.blks_hit, r.blks_read, r.os_read_mb
FROM unnest(ARRAY['heap', 'heap', 'raw'], ARRAY['warm', 'cold', 'cold']) AS m(mode, cache),
	 bench_seqscan('lineitem', m.mode, m.cache, repeat => :repeat, label => :'label_a') r;
-- Q19 and Q2, warm then cold; an untimed, unrecorded run of each first,
-- so that the first warm run finds what the scans above left, as the
-- others do
SELECT count(*) AS warm_up_runs
FROM pg_temp.tpch_queries q, bench_query(q.query, record => false) r;
SELECT q.name AS query, r.cache, r.run, round(r.elapsed_ms::numeric, 1) AS elapsed_ms, r.rows,
	   r.relations, round(r.size_mb::numeric, 1) AS size_mb, round(r.mb_per_s::numeric) AS mb_per_s,
	   r.blks_hit, r.blks_read, r.os_read_mb, r.workers_launched
FROM (SELECT * FROM pg_temp.tpch_queries ORDER BY name DESC) q,
	 bench_query(q.query, 'warm', :repeat, :'label_a') r;
SELECT q.name AS query, r.cache, r.run, round(r.elapsed_ms::numeric, 1) AS elapsed_ms, r.rows,
	   r.relations, round(r.size_mb::numeric, 1) AS size_mb, round(r.mb_per_s::numeric) AS mb_per_s,
	   r.blks_hit, r.blks_read, r.os_read_mb, r.workers_launched
FROM (SELECT * FROM pg_temp.tpch_queries ORDER BY name DESC) q,
	 bench_query(q.query, 'cold', :repeat, :'label_a') r;
RESET search_path;

\echo
\echo '== Side B:' :label_b
-- The data set, generated right before its measurements, so that both
-- sides start from the same history (what shared buffers and the OS page
-- cache hold of it is what the load and VACUUM left).
SET client_min_messages = warning;		-- the load's progress NOTICEs
SELECT relation, rows, round(mb::numeric, 1) AS mb, round(indexes_mb::numeric, 1) AS indexes_mb,
	   round(elapsed_ms::numeric) AS load_ms
FROM bench_generate_tpch(:scale, :'spc_b', 'tpch_b', replace => true);
RESET client_min_messages;
-- VACUUM cannot run inside the function: freeze and analyze here, so that
-- no scan below sets hint bits or writes pages.
SELECT format('VACUUM (FREEZE, ANALYZE) %s', string_agg(c.oid::regclass::text, ', ' ORDER BY c.oid))
FROM pg_class c
WHERE c.relnamespace = 'tpch_b'::regnamespace AND c.relkind = 'r'
\gexec
-- Write the load's dirty pages now, so that no background writing of them
-- runs during the warm measurements below (where this role may).
SELECT CASE WHEN pg_has_role('pg_checkpoint', 'USAGE') THEN 'CHECKPOINT' END
\gexec
-- Relation sizes, from the files, beside the planner's estimate
SELECT * FROM bench_relation_sizes(10, 'tpch_b');
SET search_path = tpch_b, public;
-- lineitem, scanned as PostgreSQL scans it (heap mode), warm then cold;
-- then its files read directly, cold (raw mode: storage alone, whatever
-- shared buffers hold)
SELECT r.mode, r.cache, r.run, r.relation, r.tablespace, round(r.size_mb::numeric, 1) AS size_mb,
	   round(r.elapsed_ms::numeric, 1) AS elapsed_ms, round(r.mb_per_s::numeric) AS mb_per_s,
	   round(r.tuples_per_s::numeric) AS tuples_per_s, r.blks_hit, r.blks_read, r.os_read_mb
FROM unnest(ARRAY['heap', 'heap', 'raw'], ARRAY['warm', 'cold', 'cold']) AS m(mode, cache),
	 bench_seqscan('lineitem', m.mode, m.cache, repeat => :repeat, label => :'label_b') r;
-- Q19 and Q2, warm then cold; an untimed, unrecorded run of each first,
-- so that the first warm run finds what the scans above left, as the
-- others do
SELECT count(*) AS warm_up_runs
FROM pg_temp.tpch_queries q, bench_query(q.query, record => false) r;
SELECT q.name AS query, r.cache, r.run, round(r.elapsed_ms::numeric, 1) AS elapsed_ms, r.rows,
	   r.relations, round(r.size_mb::numeric, 1) AS size_mb, round(r.mb_per_s::numeric) AS mb_per_s,
	   r.blks_hit, r.blks_read, r.os_read_mb, r.workers_launched
FROM (SELECT * FROM pg_temp.tpch_queries ORDER BY name DESC) q,
	 bench_query(q.query, 'warm', :repeat, :'label_b') r;
SELECT q.name AS query, r.cache, r.run, round(r.elapsed_ms::numeric, 1) AS elapsed_ms, r.rows,
	   r.relations, round(r.size_mb::numeric, 1) AS size_mb, round(r.mb_per_s::numeric) AS mb_per_s,
	   r.blks_hit, r.blks_read, r.os_read_mb, r.workers_launched
FROM (SELECT * FROM pg_temp.tpch_queries ORDER BY name DESC) q,
	 bench_query(q.query, 'cold', :repeat, :'label_b') r;
RESET search_path;

\echo
\echo '== ' :label_a 'against' :label_b
-- Measurement by measurement, with a verdict that respects the noise of
-- the repeats (queries are named by their text: Q19 and Q2 here).
SELECT c.benchmark, coalesce(q.name, c.target) AS target, c.test, c.cache, c.metric,
	   c.baseline_runs AS a_n, c.candidate_runs AS b_n,
	   c.baseline_value AS a, c.candidate_value AS b, c.ratio, c.noise_pct, c.verdict
FROM bench_compare(:'label_a', :'label_b') c
LEFT JOIN pg_temp.tpch_queries q
	   ON c.benchmark = 'query'
	  AND left(c.target, 30) = left(regexp_replace(btrim(q.query, E' \n\t'), '\s+', ' ', 'g'), 30);
SELECT * FROM bench_chart('mb_per_s', label_like => 'tpch\_%', benchmark => 'seqscan');
-- The queries' times per label (the full text of each is among the
-- recorded arguments).
SELECT q.name AS query, h.cache, h.label, count(*) AS runs,
	   round(avg(h.elapsed_ms)::numeric, 1) AS avg_ms, round(min(h.elapsed_ms)::numeric, 1) AS min_ms,
	   round(max(h.elapsed_ms)::numeric, 1) AS max_ms
FROM bench_history h
JOIN bench_run r ON r.run_id = h.run_id
JOIN pg_temp.tpch_queries q ON q.query = r.arguments ->> 'query'
WHERE h.label IN (:'label_a', :'label_b')
GROUP BY 1, 2, 3
ORDER BY 1 DESC, 2 DESC, 3;
