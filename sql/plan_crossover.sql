--
-- plan_crossover: bench_plan_crossover (1.2), the planner's choice between
-- index, bitmap and sequential scans against the measured one.  Timings
-- are never compared; checked: the bounds (the rows each predicate
-- matches, from the index), the fastest plan is the one with the least
-- time, the planner's choice is EXPLAIN's under the same settings (and
-- under a proposed random_page_cost, also where the tablespace sets its
-- own, which is left as it was), at most one switch per column where the
-- plan turns to the sequential scan for good, settings as they were
-- after the call and after an error, the runs and the result recorded,
-- every error, and roles without the rights.
--
SET client_encoding = 'UTF8';
SET benchstore.progress_interval = 0;
SET client_min_messages = error;

-- keys 1 .. n in random heap order, primary key, analyzed
SELECT rows AS n FROM bench_generate_randread('4MB', fillfactor => 100, table_name => 'pcx_t') \gset
VACUUM ANALYZE pcx_t;

SET enable_seqscan = on;
SET max_parallel_workers_per_gather = 1;
SET jit = on;
SET random_page_cost = 3;

CREATE TEMP TABLE pcx AS
SELECT * FROM bench_plan_crossover('pcx_t', 'id', '{0.001,0.01,0.1,0.5,1}', random_page_cost => 40,
								   cache => 'warm', label => 'pcx-run');

-- one row per selectivity, each predicate "id <= k" with k the k-th key
-- (keys are 1 .. n), matching k rows
SELECT selectivity,
	   rows = greatest(1, round(selectivity * :n)) AS rows_ok,
	   predicate = format('id <= %L::bigint', rows) AS predicate_ok,
	   actual_selectivity = rows::float8 / :n AS actual_ok
FROM pcx ORDER BY selectivity;

-- the fastest is the plan with the least time; the planner's choice is
-- one of the three; its share is its time against the fastest's
SELECT bool_and(fastest = (SELECT x.p FROM (VALUES ('seqscan', seqscan_ms), ('indexscan', indexscan_ms),
											 ('bitmapscan', bitmapscan_ms)) x(p, t)
						   WHERE x.t IS NOT NULL ORDER BY x.t LIMIT 1)) AS fastest_ok,
	   bool_and(seqscan_ms > 0) AS seqscan_timed,
	   bool_and(planner_now IN ('seqscan', 'indexscan', 'bitmapscan')) AS planner_ok,
	   bool_and(planner_now_pct IS NULL OR planner_now_pct >= 100) AS pct_ok,
	   bool_and(planner_now_pct IS NOT DISTINCT FROM
				round((100 * CASE planner_now WHEN 'seqscan' THEN seqscan_ms WHEN 'indexscan' THEN indexscan_ms
											  ELSE bitmapscan_ms END
					   / least(seqscan_ms, coalesce(indexscan_ms, 'inf'), coalesce(bitmapscan_ms, 'inf')))::numeric, 1)::float8)
		   AS pct_is_share
FROM pcx;

-- the planner's choices are EXPLAIN's with the settings the plans are
-- timed with (one process, no index-only scan), under the costs in
-- effect and under random_page_cost 40
CREATE FUNCTION pcx_explain(pred text, cost float8) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	p json;
BEGIN
	PERFORM set_config('max_parallel_workers_per_gather', '0', true);
	PERFORM set_config('enable_indexonlyscan', 'off', true);
	PERFORM set_config('random_page_cost', cost::text, true);
	EXECUTE 'EXPLAIN (FORMAT JSON) SELECT count(t.*) FROM pcx_t t WHERE ' || pred INTO p;
	RETURN (SELECT CASE string_agg(n #>> '{}', ',') WHEN 'Seq Scan' THEN 'seqscan'
				WHEN 'Index Scan' THEN 'indexscan' WHEN 'Bitmap Heap Scan' THEN 'bitmapscan'
				ELSE string_agg(n #>> '{}', ',') END
			FROM jsonb_path_query(p::jsonb, 'strict $.** ? (exists (@."Relation Name"))."Node Type"') n);
END;
$$;
SELECT selectivity, planner_now = pcx_explain(predicate, 3) AS now_is_explain,
	   planner_proposed = pcx_explain(predicate, 40) AS proposed_is_explain
FROM pcx ORDER BY selectivity;
-- (at 100 % of the rows both pick the sequential scan, at 0.1 % under the
-- costs in effect an index or bitmap scan)
SELECT selectivity, planner_now = 'seqscan' AS now_seq, planner_proposed = 'seqscan' AS proposed_seq
FROM pcx WHERE selectivity IN (0.001, 1) ORDER BY selectivity;

-- a switch is where a column turns to seqscan for good: seqscan there and
-- after, not before; at most one per column
SELECT count(*) FILTER (WHERE measured_switch) <= 1 AS one_measured,
	   count(*) FILTER (WHERE planner_switch) <= 1 AS one_planner,
	   count(*) FILTER (WHERE proposed_switch) <= 1 AS one_proposed,
	   bool_and(planner_switch = (planner_now = 'seqscan'
			AND NOT EXISTS (SELECT 1 FROM pcx b WHERE b.selectivity > a.selectivity AND b.planner_now <> 'seqscan')
			AND NOT coalesce((SELECT b.planner_now = 'seqscan' FROM pcx b WHERE b.selectivity < a.selectivity
							  ORDER BY b.selectivity DESC LIMIT 1), false))) AS planner_switch_ok,
	   bool_and(measured_switch = (fastest = 'seqscan'
			AND NOT EXISTS (SELECT 1 FROM pcx b WHERE b.selectivity > a.selectivity AND b.fastest <> 'seqscan')
			AND NOT coalesce((SELECT b.fastest = 'seqscan' FROM pcx b WHERE b.selectivity < a.selectivity
							  ORDER BY b.selectivity DESC LIMIT 1), false))) AS measured_switch_ok
FROM pcx a;

-- the settings are as they were
SELECT current_setting('enable_seqscan') AS enable_seqscan,
	   current_setting('enable_indexscan') AS enable_indexscan,
	   current_setting('enable_bitmapscan') AS enable_bitmapscan,
	   current_setting('enable_indexonlyscan') AS enable_indexonlyscan,
	   current_setting('max_parallel_workers_per_gather') AS mpwpg,
	   current_setting('jit') AS jit, current_setting('random_page_cost') AS rpc,
	   current_setting('client_min_messages') AS cmm;

-- recorded: each plan's runs, and the result with its arguments
SELECT count(*) FILTER (WHERE benchmark = 'query') AS query_runs,
	   count(*) FILTER (WHERE benchmark = 'plan_crossover') AS results
FROM bench_run WHERE label = 'pcx-run';
SELECT count(*) AS rows_recorded,
	   bool_and(x.metrics ? 'planner_now' AND x.metrics ? 'measured_switch') AS columns_recorded,
	   min(r.arguments ->> 'index') AS index, min(r.arguments ->> 'random_page_cost') AS proposed,
	   min(r.arguments ->> 'random_page_cost_now') AS cost_now
FROM bench_run r JOIN bench_result x USING (run_id)
WHERE r.label = 'pcx-run' AND r.benchmark = 'plan_crossover';

-- A tablespace's own random_page_cost overrides the setting: the
-- proposed one is planned with by setting the option in a subtransaction
-- rolled back; the option is left as it was.
ALTER TABLESPACE pg_default SET (random_page_cost = 2.5);
SELECT bool_and(planner_proposed = (SELECT p.planner_proposed FROM pcx p WHERE p.selectivity = c.selectivity))
		   AS same_as_setting,
	   bool_or(planner_now <> planner_proposed) AS proposal_changes_a_plan,
	   bool_and(planner_now = pcx_explain(predicate, 3)) AS now_under_the_option
FROM bench_plan_crossover('pcx_t', 'id', '{0.001,0.1,1}', random_page_cost => 40, cache => 'warm',
						  record => false) c;
SELECT spcoptions FROM pg_tablespace WHERE spcname = 'pg_default';
-- a role that does not own it may not
CREATE ROLE regress_pcx_reader;
GRANT SELECT ON pcx_t TO regress_pcx_reader;
SET ROLE regress_pcx_reader;
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', '{0.1}', random_page_cost => 40, cache => 'warm', record => false)$$);
-- without a proposed cost it may
SELECT count(*) AS rows FROM bench_plan_crossover('pcx_t', 'id', '{0.1}', cache => 'warm', record => false);
RESET ROLE;
ALTER TABLESPACE pg_default RESET (random_page_cost);
-- cold runs need the checkpoint right
SET ROLE regress_pcx_reader;
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', '{0.1}', record => false)$$);
RESET ROLE;
REVOKE SELECT ON pcx_t FROM regress_pcx_reader;
SET ROLE regress_pcx_reader;
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', cache => 'warm')$$);
RESET ROLE;
DROP ROLE regress_pcx_reader;

-- Errors.
CREATE TABLE pcx_noidx (id integer);
INSERT INTO pcx_noidx SELECT generate_series(1, 100);
CREATE TABLE pcx_nostats (id integer PRIMARY KEY) WITH (autovacuum_enabled = off);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover(NULL, 'id')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', '{}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', '{0.1,0.01}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', '{0,0.1}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', '{0.1,1.5}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', '{0.1,NULL}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', '{NaN}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', random_page_cost => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', cache => 'lukewarm')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'id', repeat => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'nope')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t', 'pad')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_t_pkey', 'id')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_noidx', 'id')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_plan_crossover('pcx_nostats', 'id')$$);
-- settings as they were after the errors
SELECT current_setting('enable_seqscan') AS enable_seqscan, current_setting('jit') AS jit,
	   current_setting('max_parallel_workers_per_gather') AS mpwpg;

-- The switch and the summary, on results made by hand.
SELECT i, _bench_switch_at(r, 'fastest', i) AS switch
FROM (SELECT '[{"fastest":"indexscan"},{"fastest":"seqscan"},{"fastest":"bitmapscan"},{"fastest":"seqscan"},{"fastest":"seqscan"}]'::jsonb AS r) x,
	 generate_series(1, 5) i;
SELECT _bench_crossover_summary(
	'[{"selectivity":0.01,"fastest":"bitmapscan","planner_now":"bitmapscan","planner_proposed":"bitmapscan"},
	  {"selectivity":0.05,"fastest":"seqscan","planner_now":"bitmapscan","planner_proposed":"seqscan"},
	  {"selectivity":0.1,"fastest":"seqscan","planner_now":"seqscan","planner_proposed":"seqscan"}]', '4', 1.5);
SELECT _bench_crossover_summary(
	'[{"selectivity":0.01,"fastest":"seqscan","planner_now":"indexscan","planner_proposed":null}]', '4', NULL);
SELECT _bench_scan_kind('[{"Plan": {"Node Type": "Aggregate", "Plans": [{"Node Type": "Bitmap Heap Scan", "Relation Name": "t", "Plans": [{"Node Type": "Bitmap Index Scan", "Index Name": "i"}]}]}}]') AS bitmap,
	   _bench_scan_kind('[{"Plan": {"Node Type": "Aggregate", "Plans": [{"Node Type": "Index Scan", "Relation Name": "t", "Index Name": "i"}]}}]') AS index,
	   _bench_scan_kind('[{"Plan": {"Node Type": "Result"}}]') AS none;

DROP FUNCTION pcx_explain(text, float8);
DROP TABLE pcx_t, pcx_noidx, pcx_nostats;
RESET enable_seqscan;
RESET max_parallel_workers_per_gather;
RESET jit;
RESET random_page_cost;
