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
-- Side A, then side B: the same steps (tpch_session_side.sql) under each
-- label, in its own schema and tablespace.
--
\set side_name A
\set side_schema tpch_a
\set side_spc :spc_a
\set side_label :label_a
\ir tpch_session_side.sql
\set side_name B
\set side_schema tpch_b
\set side_spc :spc_b
\set side_label :label_b
\ir tpch_session_side.sql

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
-- The queries' times per label (each is named by the start of its text,
-- as recorded: constants replaced by $1, $2, ... unless
-- benchstore.record_query_text = 'exact').
SELECT q.name AS query, h.cache, h.label, count(*) AS runs,
	   round(avg(h.elapsed_ms)::numeric, 1) AS avg_ms, round(min(h.elapsed_ms)::numeric, 1) AS min_ms,
	   round(max(h.elapsed_ms)::numeric, 1) AS max_ms
FROM bench_history h
JOIN pg_temp.tpch_queries q
	 ON h.benchmark = 'query'
	AND left(h.target, 30) = left(regexp_replace(btrim(q.query, E' \n\t'), '\s+', ' ', 'g'), 30)
WHERE h.label IN (:'label_a', :'label_b')
GROUP BY 1, 2, 3
ORDER BY 1 DESC, 2 DESC, 3;
