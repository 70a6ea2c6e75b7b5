-- src/sql/benchstore/history.sql: the recorded history: bench_metric,
-- bench_record, bench_run_ids, bench_forget, bench_run_json and the
-- bench_history view (the tables are in objects.sql).

CREATE OR REPLACE FUNCTION bench_metric(metrics jsonb, name text)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.jsonb_typeof(metrics OPERATOR(pg_catalog.->) name)
				 OPERATOR(pg_catalog.=) 'number'::pg_catalog.text
				 AND pg_catalog.abs((metrics OPERATOR(pg_catalog.->>) name)::pg_catalog.numeric)
					 OPERATOR(pg_catalog.<=) 1e300::pg_catalog.numeric
				 AND (pg_catalog.abs((metrics OPERATOR(pg_catalog.->>) name)::pg_catalog.numeric)
						  OPERATOR(pg_catalog.>=) 1e-300::pg_catalog.numeric
					  OR (metrics OPERATOR(pg_catalog.->>) name)::pg_catalog.numeric
						  OPERATOR(pg_catalog.=) 0::pg_catalog.numeric)
			THEN (metrics OPERATOR(pg_catalog.->>) name)::pg_catalog.float8 END;

COMMENT ON FUNCTION bench_metric(jsonb, text) IS
'a numeric metric of a recorded result row, NULL when missing or not a number';

--
-- bench_record: store an outside measurement (a pgbench run, say) beside
-- the recorded benchmarks.  metrics is one object (one result row) or an
-- array of objects; arguments, how it was run.  Returns the run id.
--
CREATE OR REPLACE FUNCTION bench_record(
	benchmark text,					-- the tool or test, e.g. 'pgbench'
	target text,					-- what it ran against; a tablespace name is recognised
	metrics jsonb,					-- e.g. '{"tps": 1234.5, "latency_avg_ms": 6.5}'
	label text DEFAULT NULL,
	arguments jsonb DEFAULT NULL	-- e.g. '{"clients": 8, "duration_s": 60}'
)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bench_record'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_record(text, text, jsonb, text, jsonb) IS
'record an outside measurement (for example pgbench tps) in the benchmark history';

CREATE OR REPLACE FUNCTION bench_run_ids(ref text)
RETURNS bigint[]
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF ref IS NULL THEN
		RAISE EXCEPTION 'label or run id cannot be null'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF ref ~ '^[0-9]{1,18}$' THEN
		RETURN ARRAY(SELECT r.run_id FROM @extschema@.bench_run r WHERE r.run_id = ref::bigint);
	END IF;
	RETURN ARRAY(SELECT r.run_id FROM @extschema@.bench_run r WHERE r.label = ref ORDER BY r.run_id);
END;
$$;

COMMENT ON FUNCTION bench_run_ids(text) IS
'the recorded runs a label or a run id stands for';

--
-- bench_forget: remove recorded runs, by run id or by label.  Returns how
-- many runs and result rows were removed.  Runs recorded by other roles
-- are removed only by superusers.
--
CREATE OR REPLACE FUNCTION bench_forget(
	ref text,						-- a label, or a run id
	OUT runs bigint,				-- runs removed
	OUT result_rows bigint			-- their result rows, removed with them
)
RETURNS record
AS 'MODULE_PATHNAME', 'bench_forget'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_forget(text) IS
'remove the recorded runs of a label (or one run, by id); returns the runs and result rows removed';

CREATE OR REPLACE FUNCTION bench_forget(
	run_id bigint,
	OUT runs bigint,
	OUT result_rows bigint
)
RETURNS record
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN @extschema@.bench_forget(run_id::text);

COMMENT ON FUNCTION bench_forget(bigint) IS
'remove one recorded run; returns the runs and result rows removed';

CREATE OR REPLACE FUNCTION bench_run_json(run_id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	doc jsonb;
BEGIN
	SELECT jsonb_build_object(
			   'run_id', r.run_id,
			   'started_at', r.started_at,
			   'finished_at', r.finished_at,
			   'recorded_by', r.recorded_by,
			   'label', r.label,
			   'benchmark', r.benchmark,
			   'target_kind', r.target_kind,
			   'target', r.target,
			   'target_oid', r.target_oid::bigint,
			   'arguments', r.arguments,
			   'settings', r.settings,
			   'results', coalesce((SELECT jsonb_agg(x.metrics ORDER BY x.row_no)
									FROM @extschema@.bench_result x WHERE x.run_id = r.run_id),
								   '[]'::jsonb))
	INTO doc
	FROM @extschema@.bench_run r
	WHERE r.run_id = bench_run_json.run_id;

	IF doc IS NULL AND run_id IS NOT NULL THEN
		RAISE EXCEPTION 'no recorded run has id %', run_id
			USING ERRCODE = 'undefined_object',
				  HINT = 'The bench_history view lists the runs you can see.';
	END IF;
	RETURN doc;
END;
$$;

COMMENT ON FUNCTION bench_run_json(bigint) IS
'a recorded run with its arguments, settings and result rows as jsonb';

--
-- bench_history: every recorded result row, its metrics as columns.  A
-- version only appends columns (1.1 iodepth; 1.2 cached_pct, warnings,
-- served_by): an update replaces the view with this text, and CREATE OR
-- REPLACE VIEW can add columns at the end but neither drop nor reorder
-- them; it keeps the view's grants and anything built on it.
--
CREATE OR REPLACE VIEW bench_history WITH (security_invoker = true) AS
SELECT r.run_id,
	   x.row_no,
	   r.started_at,
	   r.recorded_by,
	   r.label,
	   r.benchmark,
	   r.target_kind,
	   CASE WHEN r.benchmark IN ('tablespace_io', 'tablespaces_io')
			THEN x.metrics OPERATOR(pg_catalog.->>) 'tablespace'::pg_catalog.text ELSE r.target END AS target,
	   coalesce(x.metrics OPERATOR(pg_catalog.->>) 'test'::pg_catalog.text, x.metrics OPERATOR(pg_catalog.->>) 'mode'::pg_catalog.text) AS test,
	   x.metrics OPERATOR(pg_catalog.->>) 'cache'::pg_catalog.text AS cache,
	   x.metrics OPERATOR(pg_catalog.->>) 'block_size'::pg_catalog.text AS block_size,
	   CASE WHEN @extschema@.bench_metric(x.metrics, 'streams') BETWEEN 0::pg_catalog.float8 AND 2147483647::pg_catalog.float8
			THEN @extschema@.bench_metric(x.metrics, 'streams')::pg_catalog.int4
			-- a scan's processes: the caller and the workers it asked for
			WHEN @extschema@.bench_metric(x.metrics, 'workers_requested') BETWEEN 0::pg_catalog.float8 AND 2147483646::pg_catalog.float8
			THEN @extschema@.bench_metric(x.metrics, 'workers_requested')::pg_catalog.int4 OPERATOR(pg_catalog.+) 1
	   END AS streams,
	   CASE WHEN pg_catalog.jsonb_typeof(x.metrics OPERATOR(pg_catalog.->) 'direct'::pg_catalog.text) OPERATOR(pg_catalog.=) 'boolean'::pg_catalog.text
			THEN (x.metrics OPERATOR(pg_catalog.->>) 'direct'::pg_catalog.text)::pg_catalog.bool END AS direct,
	   @extschema@.bench_metric(x.metrics, 'size_mb') AS size_mb,
	   @extschema@.bench_metric(x.metrics, 'elapsed_ms') AS elapsed_ms,
	   @extschema@.bench_metric(x.metrics, 'mb_per_s') AS mb_per_s,
	   @extschema@.bench_metric(x.metrics, 'iops') AS iops,
	   @extschema@.bench_metric(x.metrics, 'tuples_per_s') AS tuples_per_s,
	   @extschema@.bench_metric(x.metrics, 'lat_avg_us') AS lat_avg_us,
	   @extschema@.bench_metric(x.metrics, 'lat_p50_us') AS lat_p50_us,
	   @extschema@.bench_metric(x.metrics, 'lat_p95_us') AS lat_p95_us,
	   @extschema@.bench_metric(x.metrics, 'lat_p99_us') AS lat_p99_us,
	   @extschema@.bench_metric(x.metrics, 'lat_p999_us') AS lat_p999_us,
	   @extschema@.bench_metric(x.metrics, 'lat_max_us') AS lat_max_us,
	   @extschema@.bench_metric(x.metrics, 'tps') AS tps,
	   x.metrics,
	   -- operations in flight per stream or process; runs of 1.0 had 1
	   CASE WHEN @extschema@.bench_metric(x.metrics, 'iodepth') BETWEEN 1::pg_catalog.float8 AND 2147483647::pg_catalog.float8
			THEN @extschema@.bench_metric(x.metrics, 'iodepth')::pg_catalog.int4
			WHEN r.benchmark IN ('tablespace_io', 'tablespaces_io', 'cluster_tablespace_io')
				 OR (r.benchmark IN ('seqscan', 'cluster_seqscan') AND x.metrics OPERATOR(pg_catalog.->>) 'mode'::pg_catalog.text OPERATOR(pg_catalog.=) 'raw'::pg_catalog.text)
			THEN 1
	   END AS iodepth,
	   -- a cold run: % of its pages cached when it began, and what stayed (1.2)
	   @extschema@.bench_metric(x.metrics, 'cached_pct') AS cached_pct,
	   x.metrics OPERATOR(pg_catalog.->>) 'warnings'::pg_catalog.text AS warnings,
	   -- where a read test's blocks came from: storage, or a cache below the server (1.2)
	   x.metrics OPERATOR(pg_catalog.->>) 'served_by'::pg_catalog.text AS served_by
FROM @extschema@.bench_run r
JOIN @extschema@.bench_result x ON x.run_id = r.run_id;

COMMENT ON VIEW bench_history IS
'every recorded benchmark result row, one per row the benchmark returned';
