-- src/sql/benchstore/plan_crossover.sql: bench_plan_crossover and its
-- helpers.

-- _bench_scan_kind: the scan of the table in an EXPLAIN (FORMAT JSON)
-- plan: seqscan, indexscan, bitmapscan or indexonlyscan (another node
-- type in lower case without blanks); NULL if no node names a relation.
CREATE OR REPLACE FUNCTION _bench_scan_kind(plan jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.lower(pg_catalog.replace(pg_catalog.replace(
	pg_catalog.jsonb_path_query_first(plan, 'strict $.** ? (exists (@."Relation Name"))."Node Type"') OPERATOR(pg_catalog.#>>) '{}'::pg_catalog.text[],
	'Bitmap Heap Scan', 'bitmapscan'), ' ', ''));

COMMENT ON FUNCTION _bench_scan_kind(jsonb) IS
'internal: the kind of scan of the table in an EXPLAIN (FORMAT JSON) plan (bench_plan_crossover)';

-- _bench_switch_at: whether the i-th (from 1) of bench_plan_crossover's
-- results is where key turns to seqscan for good: seqscan there and at
-- every later one, and not at the one before.  NULL where key is.
CREATE OR REPLACE FUNCTION _bench_switch_at(results jsonb, key text, i integer)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN results -> (i - 1) ->> key IS NULL THEN NULL
			ELSE NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(results) WITH ORDINALITY e(v, o)
							  WHERE e.o >= i AND (e.v ->> key) IS DISTINCT FROM 'seqscan')
				 AND (i = 1 OR (results -> (i - 2) ->> key) IS DISTINCT FROM 'seqscan') END;

COMMENT ON FUNCTION _bench_switch_at(jsonb, text, integer) IS
'internal: whether a result of bench_plan_crossover is where the plan turns to the sequential scan for good';

-- _bench_crossover_summary: the crossovers in words, for the NOTICE.
CREATE OR REPLACE FUNCTION _bench_crossover_summary(results jsonb, cost_now text, cost_proposed float8)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT pg_catalog.format('Measured: %s. The planner (random_page_cost %s): %s.%s',
		x.measured, cost_now, x.now,
		CASE WHEN cost_proposed IS NOT NULL
			 THEN pg_catalog.format(' Under random_page_cost %s: %s.', cost_proposed, x.proposed) ELSE '' END)
	FROM (SELECT
		coalesce((SELECT pg_catalog.format('the sequential scan is the fastest from selectivity %s on', e.v OPERATOR(pg_catalog.->>) 'selectivity'::pg_catalog.text)
					FROM pg_catalog.jsonb_array_elements(results) WITH ORDINALITY e(v, o)
				   WHERE @extschema@._bench_switch_at(results, 'fastest', e.o::integer)),
				 'the sequential scan is not the fastest at every selectivity from any point measured on') AS measured,
		coalesce((SELECT pg_catalog.format('picks the sequential scan from selectivity %s on', e.v OPERATOR(pg_catalog.->>) 'selectivity'::pg_catalog.text)
					FROM pg_catalog.jsonb_array_elements(results) WITH ORDINALITY e(v, o)
				   WHERE @extschema@._bench_switch_at(results, 'planner_now', e.o::integer)),
				 'does not pick the sequential scan for good within the selectivities measured') AS now,
		coalesce((SELECT pg_catalog.format('picks it from selectivity %s on', e.v OPERATOR(pg_catalog.->>) 'selectivity'::pg_catalog.text)
					FROM pg_catalog.jsonb_array_elements(results) WITH ORDINALITY e(v, o)
				   WHERE @extschema@._bench_switch_at(results, 'planner_proposed', e.o::integer)),
				 'does not pick it for good within the selectivities measured') AS proposed) x;
END;

COMMENT ON FUNCTION _bench_crossover_summary(jsonb, text, float8) IS
'internal: bench_plan_crossover''s crossovers in words';

--
-- bench_plan_crossover (1.2): where the planner's choice between an index
-- (or bitmap) scan and a sequential scan lies, against where it should.
-- For each selectivity of a range predicate on an indexed column
-- ("column <= bound", the bound read from the index at that share of the
-- table's rows), the same count is timed under a forced sequential scan,
-- a forced index scan and a forced bitmap scan (enable_* set for that
-- run only), cold by default, through bench_query; the plan the planner
-- picks is read from EXPLAIN under the costs in effect and, given one,
-- under a proposed random_page_cost.  The measured crossover is the
-- smallest selectivity from which the sequential scan is fastest at every
-- larger one; the planner's, the smallest from which it picks it.
--
CREATE OR REPLACE FUNCTION bench_plan_crossover(
	relation regclass,
	column_name name,				-- a column with a btree index whose first column it is
	selectivities float8[] DEFAULT '{0.0001,0.001,0.005,0.01,0.02,0.05,0.1,0.2}',	-- shares of the rows, ascending, each > 0 and <= 1
	random_page_cost float8 DEFAULT NULL,	-- a proposed random_page_cost, planned under beside the one in effect; NULL: none
	cache text DEFAULT 'cold',		-- cold | warm: how each forced plan is run
	repeat integer DEFAULT 1,		-- runs of each plan at each selectivity, 1 .. 100; the median is kept
	label text DEFAULT NULL,		-- recorded with each run and with the result (see bench_history)
	record boolean DEFAULT true,	-- false: record nothing
	OUT selectivity float8,			-- the share asked for
	OUT rows bigint,				-- rows the predicate matches
	OUT actual_selectivity float8,	-- rows / the table's rows (reltuples)
	OUT predicate text,				-- the WHERE clause timed
	OUT seqscan_ms float8,			-- median time of the count under a sequential scan, ms
	OUT indexscan_ms float8,		-- under an index scan; NULL when skipped (see notes)
	OUT bitmapscan_ms float8,		-- under a bitmap heap scan; NULL when skipped
	OUT fastest text,				-- seqscan, indexscan or bitmapscan
	OUT planner_now text,			-- the scan the planner picks under the costs in effect
	OUT planner_now_pct float8,		-- its time as % of the fastest; NULL if it was skipped
	OUT planner_proposed text,		-- the scan it picks under the proposed random_page_cost; NULL without one
	OUT planner_proposed_pct float8,	-- its time as % of the fastest
	OUT measured_switch boolean,	-- the measured crossover: the smallest selectivity from which the sequential scan is fastest at every larger one
	OUT planner_switch boolean,		-- the planner's (costs in effect): the smallest from which it picks the sequential scan at every larger one
	OUT proposed_switch boolean,	-- the same under the proposed random_page_cost
	OUT notes text					-- plans skipped or not obtained, runs not cold
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- an index or bitmap scan more than this many times slower than the
	-- sequential scan at one selectivity is not run at larger ones: its
	-- time only grows with the rows, the sequential scan's stays (this
	-- bounds the call's time)
	give_up_factor constant float8 := 10.0;
	rel regclass := $1;
	col name := $2;
	sels float8[] := $3;
	proposed float8 := $4;
	cache_arg text := $5;
	n_rep integer := $6;
	run_label text := $7;
	keep boolean := $8;
	kind "char";
	relname name;
	attnum int2;
	coltype text;
	idx regclass;
	ntuples float8;
	db_spc oid;
	spcs_own jsonb;					-- tablespaces of the table and index that set random_page_cost: name -> value
	rpc_now text;					-- the random_page_cost the heap is planned with now
	query text;
	bound text;
	predicates text[] := '{}';
	counts bigint[] := '{}';
	plans text[] := ARRAY['seqscan', 'indexscan', 'bitmapscan'];
	forced jsonb := '{"seqscan":      {"enable_seqscan": "on",  "enable_indexscan": "off", "enable_bitmapscan": "off"},
					  "indexscan":    {"enable_seqscan": "off", "enable_indexscan": "on",  "enable_bitmapscan": "off"},
					  "bitmapscan":   {"enable_seqscan": "off", "enable_indexscan": "off", "enable_bitmapscan": "on"}}';
	fixed jsonb := '{"max_parallel_workers_per_gather": "0", "jit": "off", "enable_indexonlyscan": "off"}';
	saved jsonb := '{}';
	given_up jsonb := '{}';			-- plan -> the selectivity it was given up at
	results jsonb := '[]';
	res jsonb;
	times jsonb;
	note text[];
	p text;
	g text;
	t float8;
	s float8;
	i integer;
	k bigint;
	plan_json json;
	scan text;
	best text;
	v text;
	warn text;
	pct float8;
	max_pct float8 := 0;
	not_cold integer := 0;
	cold_runs integer := 0;
	saved_cmm text := current_setting('client_min_messages');
BEGIN
	IF rel IS NULL OR col IS NULL OR sels IS NULL OR cache_arg IS NULL OR n_rep IS NULL OR keep IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN rel IS NULL THEN 'relation' WHEN col IS NULL THEN 'column_name'
				 WHEN sels IS NULL THEN 'selectivities' WHEN cache_arg IS NULL THEN 'cache'
				 WHEN n_rep IS NULL THEN 'repeat' ELSE 'record' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF cache_arg NOT IN ('cold', 'warm') THEN
		RAISE EXCEPTION 'invalid cache "%"', cache_arg
			USING ERRCODE = 'invalid_parameter_value', HINT = 'Valid values are: cold, warm.';
	END IF;
	IF n_rep < 1 OR n_rep > 100 THEN
		RAISE EXCEPTION 'repeat must be between 1 and 100' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF cardinality(sels) = 0 OR cardinality(sels) > 100 OR array_position(sels, NULL) IS NOT NULL
	   OR EXISTS (SELECT 1 FROM unnest(sels) x WHERE NOT (x > 0 AND x <= 1))
	   OR EXISTS (SELECT 1 FROM unnest(sels) WITH ORDINALITY u(x, o)
				  WHERE o > 1 AND x <= sels[o - 1]) THEN
		RAISE EXCEPTION 'selectivities must hold 1 to 100 shares, ascending, each above 0 and at most 1'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'For example ''{0.0001,0.001,0.01,0.05,0.1,0.2}'': 0.01 is 1 % of the rows.';
	END IF;
	IF proposed IS NOT NULL AND NOT (proposed > 0 AND proposed <= 1e10) THEN
		RAISE EXCEPTION 'random_page_cost must be above 0' USING ERRCODE = 'invalid_parameter_value';
	END IF;

	SELECT c.relkind, c.relname, c.reltuples INTO kind, relname, ntuples FROM pg_class c WHERE c.oid = rel;
	IF kind IS NULL OR kind NOT IN ('r', 'm') THEN
		RAISE EXCEPTION '"%" is not a table', coalesce(relname::text, rel::text)
			USING ERRCODE = 'wrong_object_type',
				  HINT = 'The crossover is checked on one table (or materialized view) with a btree index.';
	END IF;
	IF NOT has_table_privilege(rel, 'SELECT') THEN
		RAISE EXCEPTION 'permission denied for table %', relname USING ERRCODE = 'insufficient_privilege';
	END IF;
	SELECT a.attnum, format_type(a.atttypid, a.atttypmod) INTO attnum, coltype
	  FROM pg_attribute a WHERE a.attrelid = rel AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped;
	IF attnum IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation "%" does not exist', col, relname
			USING ERRCODE = 'undefined_column';
	END IF;
	SELECT x.indexrelid::regclass INTO idx
	  FROM pg_index x JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_am am ON am.oid = ic.relam
	 WHERE x.indrelid = rel AND x.indkey[0] = attnum AND x.indpred IS NULL AND x.indisvalid
	   AND am.amname = 'btree'
	 ORDER BY x.indnatts, ic.relpages LIMIT 1;
	IF idx IS NULL THEN
		RAISE EXCEPTION 'column "%" of table "%" has no btree index that leads with it', col, relname
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = format('Create one: CREATE INDEX ON %s (%I).', rel, col);
	END IF;
	IF ntuples IS NULL OR ntuples < 1 THEN
		RAISE EXCEPTION 'table "%" has no statistics', relname
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = 'The planner''s choice depends on them, and the bounds are placed by the table''s row count.',
				  HINT = format('Run ANALYZE %s first.', rel);
	END IF;

	-- the random_page_cost each scan is planned with: a tablespace's own
	-- option overrides the setting, for the heap and for the index alike
	SELECT d.dattablespace INTO db_spc FROM pg_database d WHERE d.datname = current_database();
	SELECT coalesce(jsonb_object_agg(t.spcname, o.option_value), '{}') INTO spcs_own
	  FROM (SELECT DISTINCT CASE WHEN c.reltablespace = 0 THEN db_spc ELSE c.reltablespace END AS spc
			  FROM pg_class c WHERE c.oid IN (rel, idx)) u
	  JOIN pg_tablespace t ON t.oid = u.spc,
	  LATERAL pg_options_to_table(t.spcoptions) o
	 WHERE o.option_name = 'random_page_cost';
	SELECT coalesce(max(o.option_value), current_setting('random_page_cost')) INTO rpc_now
	  FROM pg_class c
	  JOIN pg_tablespace t ON t.oid = CASE WHEN c.reltablespace = 0 THEN db_spc ELSE c.reltablespace END,
	  LATERAL pg_options_to_table(t.spcoptions) o
	 WHERE c.oid = rel AND o.option_name = 'random_page_cost';
	IF proposed IS NOT NULL AND spcs_own <> '{}' AND NOT EXISTS (
			SELECT 1 FROM pg_tablespace t
			 WHERE t.spcname IN (SELECT jsonb_object_keys(spcs_own))
			HAVING bool_and(pg_has_role(t.spcowner, 'USAGE'))) THEN
		RAISE EXCEPTION 'permission denied to plan under another random_page_cost in tablespace %',
			(SELECT string_agg(quote_ident(sn), ', ') FROM jsonb_object_keys(spcs_own) sn)
			USING ERRCODE = 'insufficient_privilege',
				  DETAIL = 'The tablespace''s own random_page_cost overrides the setting: planning under the proposed one sets the option inside a subtransaction that is rolled back, which only its owner may do.',
				  HINT = 'Run it as the tablespace''s owner, or without random_page_cost.';
	END IF;

	IF keep AND run_label IS NULL THEN
		run_label := format('crossover %s.%s %s', relname, col,
							to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS.MS'));
	END IF;

	-- the bounds, each the value at its share of the rows, read from the
	-- index (before the settings below turn index-only scans off), and
	-- the rows each predicate matches
	FOR i IN 1 .. cardinality(sels) LOOP
		k := greatest(1, round(sels[i] * ntuples)::bigint);
		EXECUTE format('SELECT t.%I::text FROM %s t WHERE t.%I IS NOT NULL ORDER BY t.%I OFFSET %s LIMIT 1',
					   col, rel, col, col, k - 1) INTO bound;
		IF bound IS NULL THEN
			EXECUTE format('SELECT max(%I)::text FROM %s', col, rel) INTO bound;
		END IF;
		predicates := predicates || format('%I <= %L::%s', col, bound, coltype);
		EXECUTE format('SELECT count(*) FROM %s WHERE %s', rel, predicates[i]) INTO k;
		counts := counts || k;
	END LOOP;

	-- the settings every plan is timed and planned with, and those forced
	-- per plan, put back at the end
	FOR g IN SELECT jsonb_object_keys(fixed) UNION SELECT jsonb_object_keys(forced -> 'seqscan') LOOP
		saved := saved || jsonb_build_object(g, current_setting(g));
	END LOOP;
	FOR g, p IN SELECT * FROM jsonb_each_text(fixed) LOOP
		PERFORM set_config(g, p, true);
	END LOOP;

	FOR i IN 1 .. cardinality(sels) LOOP
		s := sels[i];
		note := '{}';
		predicate := predicates[i];
		rows := counts[i];
		query := format('SELECT count(t.*) FROM %s t WHERE %s', rel, predicate);

		-- each plan forced and timed; the plan obtained is checked
		times := '{}';
		FOREACH p IN ARRAY plans LOOP
			IF given_up ? p THEN
				note := note || format('%s not run: more than %s times slower than the sequential scan at selectivity %s.',
									   p, give_up_factor, given_up ->> p);
				CONTINUE;
			END IF;
			FOR g, v IN SELECT * FROM jsonb_each_text(forced -> p) LOOP
				PERFORM set_config(g, v, true);
			END LOOP;
			EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan_json;
			scan := @extschema@._bench_scan_kind(plan_json::jsonb);
			IF scan IS DISTINCT FROM p THEN
				note := note || format('%s not obtained: the planner still chose %s.', p, coalesce(scan, 'another plan'));
			ELSE
				-- bench_query's own WARNING on a run not cold is summed up
				-- in one at the end
				PERFORM set_config('client_min_messages', 'error', true);
				SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY q.elapsed_ms),
					   max(q.cached_pct), string_agg(DISTINCT q.warnings, ' ') FILTER (WHERE q.served_by = 'cache below')
				  INTO t, pct, warn
				  FROM @extschema@.bench_query(query, cache => cache_arg, repeat => n_rep,
											   label => CASE WHEN keep THEN run_label END,
											   record => keep, sample_interval => NULL) q;
				PERFORM set_config('client_min_messages', saved_cmm, true);
				times := times || jsonb_build_object(p, t);
				cold_runs := cold_runs + CASE WHEN cache_arg = 'cold' THEN 1 ELSE 0 END;
				IF pct >= 1 THEN
					note := note || format('%s not cold: %s %% of the pages were cached.', p, round(pct::numeric, 1));
					max_pct := greatest(max_pct, pct);
					not_cold := not_cold + 1;
				END IF;
				IF warn IS NOT NULL THEN
					note := note || format('%s: %s', p, warn);
				END IF;
			END IF;
			FOR g IN SELECT jsonb_object_keys(forced -> 'seqscan') LOOP
				PERFORM set_config(g, saved ->> g, true);
			END LOOP;
		END LOOP;

		SELECT e.key INTO best FROM jsonb_each_text(times) e ORDER BY e.value::float8 LIMIT 1;
		FOR g, v IN SELECT * FROM jsonb_each_text(times) LOOP
			IF g <> 'seqscan' AND v::float8 > give_up_factor * (times ->> 'seqscan')::float8 THEN
				given_up := given_up || jsonb_build_object(g, s);
			END IF;
		END LOOP;

		-- the planner's own choice: under the costs in effect, and under
		-- the proposed random_page_cost
		EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan_json;
		planner_now := @extschema@._bench_scan_kind(plan_json::jsonb);
		planner_proposed := NULL;
		IF proposed IS NOT NULL THEN
			BEGIN
				PERFORM set_config('random_page_cost', proposed::text, true);
				FOR g IN SELECT jsonb_object_keys(spcs_own) LOOP
					EXECUTE format('ALTER TABLESPACE %I SET (random_page_cost = %s)', g, proposed);
				END LOOP;
				EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan_json;
				planner_proposed := @extschema@._bench_scan_kind(plan_json::jsonb);
				-- undo the options (and the setting) with the subtransaction
				RAISE EXCEPTION USING ERRCODE = 'BSRB1';
			EXCEPTION WHEN SQLSTATE 'BSRB1' THEN
				NULL;
			END;
		END IF;

		results := results || jsonb_build_array(jsonb_build_object(
			'selectivity', s, 'rows', rows, 'actual_selectivity', rows / ntuples,
			'predicate', predicate,
			'seqscan_ms', times -> 'seqscan', 'indexscan_ms', times -> 'indexscan',
			'bitmapscan_ms', times -> 'bitmapscan', 'fastest', best,
			'planner_now', planner_now,
			'planner_now_pct', round((100 * (times ->> planner_now)::float8 / (times ->> best)::float8)::numeric, 1),
			'planner_proposed', planner_proposed,
			'planner_proposed_pct', round((100 * (times ->> planner_proposed)::float8 / (times ->> best)::float8)::numeric, 1),
			'notes', nullif(array_to_string(note, ' '), '')));
	END LOOP;

	FOR g, p IN SELECT * FROM jsonb_each_text(saved) LOOP
		PERFORM set_config(g, p, true);
	END LOOP;

	-- the rows, with the switches: the first selectivity from which the
	-- sequential scan is the fastest (or the one picked) at every larger one
	FOR i IN 1 .. jsonb_array_length(results) LOOP
		res := results -> (i - 1);
		selectivity := (res ->> 'selectivity')::float8;
		rows := (res ->> 'rows')::bigint;
		actual_selectivity := (res ->> 'actual_selectivity')::float8;
		predicate := res ->> 'predicate';
		seqscan_ms := (res ->> 'seqscan_ms')::float8;
		indexscan_ms := (res ->> 'indexscan_ms')::float8;
		bitmapscan_ms := (res ->> 'bitmapscan_ms')::float8;
		fastest := res ->> 'fastest';
		planner_now := res ->> 'planner_now';
		planner_now_pct := (res ->> 'planner_now_pct')::float8;
		planner_proposed := res ->> 'planner_proposed';
		planner_proposed_pct := (res ->> 'planner_proposed_pct')::float8;
		measured_switch := @extschema@._bench_switch_at(results, 'fastest', i);
		planner_switch := @extschema@._bench_switch_at(results, 'planner_now', i);
		proposed_switch := CASE WHEN proposed IS NOT NULL
								THEN @extschema@._bench_switch_at(results, 'planner_proposed', i) END;
		notes := res ->> 'notes';
		results := jsonb_set(results, ARRAY[(i - 1)::text],
							 res || jsonb_build_object('measured_switch', measured_switch,
													   'planner_switch', planner_switch,
													   'proposed_switch', proposed_switch));
		RETURN NEXT;
	END LOOP;

	IF keep THEN
		PERFORM @extschema@.bench_record('plan_crossover'::text, rel::text, results, run_label,
			jsonb_build_object('relation', rel::text, 'column_name', col, 'index', idx::text,
							   'selectivities', to_jsonb(sels), 'random_page_cost', proposed,
							   'random_page_cost_now', rpc_now, 'cache', cache_arg,
							   'repeat', n_rep, 'label', $7));
	END IF;
	IF not_cold > 0 THEN
		RAISE WARNING '% of the % cold plans timed were not cold: up to % %% of the pages were cached when a run began',
			not_cold, cold_runs, round(max_pct::numeric, 1)
			USING DETAIL = 'The notes column says which.',
				  HINT = CASE WHEN current_setting('server_version_num')::integer < 170000
							  THEN 'PostgreSQL before 17 cannot drop a relation''s shared buffers: a table several times larger than shared_buffers keeps few of its pages there.'
							  ELSE 'Pinned buffers or a cache below the server kept them: see bench_query''s warnings in bench_history.' END;
	END IF;
	RAISE NOTICE '%', @extschema@._bench_crossover_summary(results, rpc_now, proposed)
		USING DETAIL = format('Each plan forced with enable_seqscan, enable_indexscan and enable_bitmapscan, %s, one process (max_parallel_workers_per_gather = 0), jit off; index %s.%s',
							  CASE cache_arg WHEN 'cold' THEN 'cold' ELSE 'warm' END, idx,
							  CASE WHEN keep THEN format(' Runs and result recorded under label "%s".', run_label) ELSE '' END);
END;
$$;

COMMENT ON FUNCTION bench_plan_crossover(regclass, name, float8[], float8, text, integer, text, boolean) IS
'time a range count on an indexed column under a forced sequential, index and bitmap scan at each selectivity, cold: where the fastest plan switches to the sequential scan against where the planner switches, under the costs in effect and a proposed random_page_cost';
