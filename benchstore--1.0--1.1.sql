/* benchstore--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION benchstore UPDATE TO '1.1'" to load this file. \quit

-- Version 1.1: queue depth.  bench_tablespace_io, bench_tablespaces_io and
-- bench_seqscan's raw mode keep iodepth operations in flight per stream
-- (io_uring above 1); iodepth is a result column, is recorded in the
-- history (bench_history.iodepth), and bench_compare pairs runs on it and
-- bench_chart names bars by it.
--
-- A fresh CREATE EXTENSION benchstore installs 1.0 and runs this script:
-- there is no separate benchstore--1.1.sql, so that a fresh 1.1 and an
-- updated 1.0 cannot differ.  Functions whose arguments or result columns
-- change are dropped and created again (with their comments and grants);
-- the history tables are untouched.

DROP FUNCTION bench_seqscan(regclass, text, text, integer, text, boolean, integer);
DROP FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean);
DROP FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean);
DROP FUNCTION bench_compare(text, text, text[]);

--
-- bench_seqscan: iodepth for raw mode.
--
CREATE FUNCTION bench_seqscan(
	relation regclass,
	mode text DEFAULT 'heap',		-- heap | buffer | raw
	cache text DEFAULT 'warm',		-- warm | cold
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	workers integer DEFAULT 0,		-- parallel workers beside the caller, 0 .. 64
	iodepth integer DEFAULT 1,		-- raw mode: reads of 1 MB in flight per process, 1 .. 256
	OUT run integer,				-- 1 .. repeat
	OUT relation regclass,			-- the relation named (partitions summed)
	OUT tablespace name,			-- its tablespace; NULL if partitions lie in several
	OUT mode text,					-- heap, buffer or raw
	OUT cache text,					-- warm or cold
	OUT pages bigint,				-- blocks scanned (main fork)
	OUT size_mb float8,				-- pages * block_size, in MB (2^20 bytes)
	OUT tuples bigint,				-- heap: visible tuples (= count(*)); raw: normal line pointers; buffer: NULL
	OUT elapsed_ms float8,			-- wall-clock time of the scan, milliseconds
	OUT mb_per_s float8,			-- size_mb / elapsed seconds
	OUT tuples_per_s float8,		-- tuples / elapsed seconds; NULL when tuples is
	OUT blks_hit bigint,			-- blocks found in shared (or local) buffers; raw: 0
	OUT blks_read bigint,			-- blocks PostgreSQL read from the OS; raw: every block
	OUT read_ms float8,				-- time in those reads, ms; NULL unless track_io_timing
	OUT os_read_mb float8,			-- MB the kernel read from storage for the scan's processes; NULL if unknown
	OUT workers_requested integer,	-- the workers argument
	OUT workers_launched integer,	-- parallel workers that ran (fewer when none are free)
	OUT iodepth integer				-- raw: reads in flight per process; heap, buffer: NULL (the server's own)
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_seqscan'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_seqscan(regclass, text, text, integer, text, boolean, integer, integer) IS
'time a sequential scan of a relation (heap, buffer or raw mode; warm or cold cache), one row per run';

--
-- bench_tablespace_io and bench_tablespaces_io: iodepth.
--
CREATE FUNCTION bench_tablespace_io(
	tablespace name DEFAULT 'pg_default',
	size text DEFAULT '1GB',			-- per stream, pg_size_bytes syntax
	block_size text DEFAULT '8kB',		-- a power of two, 512 bytes .. 16 MB
	tests text[] DEFAULT '{seqwrite,seqread,randread}',	-- also randwrite, sync
	streams integer DEFAULT 1,			-- concurrent streams, 1 .. 64
	direct boolean DEFAULT true,		-- O_DIRECT
	duration interval DEFAULT '10s',	-- cap of the random and sync tests
	label text DEFAULT NULL,			-- recorded with the run (see bench_history)
	record boolean DEFAULT true,		-- false: do not record the run
	iodepth integer DEFAULT 1,			-- operations in flight per stream, 1 .. 256 (io_uring above 1)
	OUT tablespace name,				-- the tablespace ('total' for the sum of several)
	OUT test text,						-- seqwrite, seqread, randread, randwrite or sync
	OUT block_size text,				-- bytes per operation, e.g. '8kB'
	OUT streams integer,				-- streams that actually ran
	OUT direct boolean,					-- O_DIRECT used
	OUT iodepth integer,				-- operations in flight per stream (sync: always 1)
	OUT bytes bigint,					-- bytes read or written, all streams
	OUT elapsed_ms float8,				-- wall-clock time from first start to last end, ms
	OUT mb_per_s float8,				-- MB (2^20 bytes) per second
	OUT iops float8,					-- operations (blocks) per second
	OUT lat_avg_us float8,				-- latency of one operation: mean, microseconds
	OUT lat_p50_us float8,				-- median
	OUT lat_p95_us float8,				-- 95th percentile
	OUT lat_p99_us float8,				-- 99th percentile
	OUT lat_p999_us float8,				-- 99.9th percentile
	OUT lat_max_us float8				-- maximum
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_tablespace_io'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer) IS
'sequential and random I/O, sync rate and latency percentiles on temporary files in a tablespace';

CREATE FUNCTION bench_tablespaces_io(
	tablespaces name[],
	size text DEFAULT '1GB',
	block_size text DEFAULT '8kB',
	tests text[] DEFAULT '{seqwrite,seqread,randread}',
	streams integer DEFAULT 1,			-- per tablespace
	direct boolean DEFAULT true,
	duration interval DEFAULT '10s',
	label text DEFAULT NULL,
	record boolean DEFAULT true,
	iodepth integer DEFAULT 1,			-- per stream
	OUT tablespace name,
	OUT test text,
	OUT block_size text,
	OUT streams integer,
	OUT direct boolean,
	OUT iodepth integer,
	OUT bytes bigint,
	OUT elapsed_ms float8,
	OUT mb_per_s float8,
	OUT iops float8,
	OUT lat_avg_us float8,
	OUT lat_p50_us float8,
	OUT lat_p95_us float8,
	OUT lat_p99_us float8,
	OUT lat_p999_us float8,
	OUT lat_max_us float8
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_tablespaces_io'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer) IS
'bench_tablespace_io on several tablespaces at once, with a total row per test';

REVOKE ALL ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer) TO pg_write_server_files;
GRANT EXECUTE ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer) TO pg_write_server_files;

--
-- bench_history: the iodepth column (appended: CREATE OR REPLACE VIEW keeps
-- the view's grants and anything built on it).
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
			THEN x.metrics ->> 'tablespace' ELSE r.target END AS target,
	   coalesce(x.metrics ->> 'test', x.metrics ->> 'mode') AS test,
	   x.metrics ->> 'cache' AS cache,
	   x.metrics ->> 'block_size' AS block_size,
	   CASE WHEN bench_metric(x.metrics, 'streams') BETWEEN 0 AND 2147483647
			THEN bench_metric(x.metrics, 'streams')::integer
			-- a scan's processes: the caller and the workers it asked for
			WHEN bench_metric(x.metrics, 'workers_requested') BETWEEN 0 AND 2147483646
			THEN bench_metric(x.metrics, 'workers_requested')::integer + 1
	   END AS streams,
	   CASE WHEN jsonb_typeof(x.metrics -> 'direct') = 'boolean'
			THEN (x.metrics ->> 'direct')::boolean END AS direct,
	   bench_metric(x.metrics, 'size_mb') AS size_mb,
	   bench_metric(x.metrics, 'elapsed_ms') AS elapsed_ms,
	   bench_metric(x.metrics, 'mb_per_s') AS mb_per_s,
	   bench_metric(x.metrics, 'iops') AS iops,
	   bench_metric(x.metrics, 'tuples_per_s') AS tuples_per_s,
	   bench_metric(x.metrics, 'lat_avg_us') AS lat_avg_us,
	   bench_metric(x.metrics, 'lat_p50_us') AS lat_p50_us,
	   bench_metric(x.metrics, 'lat_p95_us') AS lat_p95_us,
	   bench_metric(x.metrics, 'lat_p99_us') AS lat_p99_us,
	   bench_metric(x.metrics, 'lat_p999_us') AS lat_p999_us,
	   bench_metric(x.metrics, 'lat_max_us') AS lat_max_us,
	   bench_metric(x.metrics, 'tps') AS tps,
	   x.metrics,
	   -- operations in flight per stream or process; runs of 1.0 had 1
	   CASE WHEN bench_metric(x.metrics, 'iodepth') BETWEEN 1 AND 2147483647
			THEN bench_metric(x.metrics, 'iodepth')::integer
			WHEN r.benchmark IN ('tablespace_io', 'tablespaces_io', 'cluster_tablespace_io')
				 OR (r.benchmark IN ('seqscan', 'cluster_seqscan') AND x.metrics ->> 'mode' = 'raw')
			THEN 1
	   END AS iodepth
FROM bench_run r
JOIN bench_result x ON x.run_id = r.run_id;

--
-- bench_compare: iodepth among the keys that pair measurements.
--
CREATE FUNCTION bench_compare(
	baseline text,					-- a label, or a run id
	candidate text,					-- a label, or a run id
	metrics text[] DEFAULT NULL,	-- metrics to compare; NULL: the headline ones
	OUT benchmark text,
	OUT target text,				-- 'fast1', or 'fast1 / fast3' when they differ
	OUT test text,					-- I/O test, or scan mode
	OUT cache text,
	OUT block_size text,
	OUT streams integer,
	OUT direct boolean,
	OUT iodepth integer,			-- operations in flight per stream (tablespace tests, raw scans)
	OUT metric text,
	OUT baseline_runs integer,		-- measurements averaged
	OUT candidate_runs integer,
	OUT baseline_value float8,		-- mean
	OUT candidate_value float8,		-- mean
	OUT ratio float8,				-- candidate / baseline
	OUT noise_pct float8,			-- smallest change that counts, % of the baseline
	OUT verdict text				-- better, worse, within noise, or no verdict: ...
)
RETURNS SETOF record
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	b_ids bigint[] := bench_run_ids(baseline);
	c_ids bigint[] := bench_run_ids(candidate);
	-- two-sided 95 % quantiles of Student's t for 1 .. 30 degrees of freedom
	t95 float8[] := '{12.706,4.303,3.182,2.776,2.571,2.447,2.365,2.306,2.262,2.228,
					  2.201,2.179,2.160,2.145,2.131,2.120,2.110,2.101,2.093,2.086,
					  2.080,2.074,2.069,2.064,2.060,2.056,2.052,2.048,2.045,2.042}';
	found_any boolean := false;
BEGIN
	IF cardinality(b_ids) = 0 THEN
		RAISE EXCEPTION 'no recorded run has label or run id "%"', baseline
			USING ERRCODE = 'undefined_object',
				  HINT = 'SELECT DISTINCT label FROM bench_history lists the labels you can see.';
	END IF;
	IF cardinality(c_ids) = 0 THEN
		RAISE EXCEPTION 'no recorded run has label or run id "%"', candidate
			USING ERRCODE = 'undefined_object',
				  HINT = 'SELECT DISTINCT label FROM bench_history lists the labels you can see.';
	END IF;

	FOR benchmark, target, test, cache, block_size, streams, direct, iodepth, metric,
		baseline_runs, candidate_runs, baseline_value, candidate_value, ratio,
		noise_pct, verdict IN
	WITH measured AS (
		SELECT 'b' AS side, h.* FROM bench_history h WHERE h.run_id = ANY (b_ids)
		UNION ALL
		SELECT 'c' AS side, h.* FROM bench_history h WHERE h.run_id = ANY (c_ids)
	),
	vals AS (
		SELECT m.side, m.benchmark, m.target_kind, m.target, m.test, m.cache,
			   m.block_size, m.streams, m.direct, m.iodepth, k.metric,
			   bench_metric(m.metrics, k.metric) AS value
		FROM measured m
		CROSS JOIN LATERAL unnest(CASE
			WHEN bench_compare.metrics IS NOT NULL THEN bench_compare.metrics
			WHEN m.benchmark IN ('seqscan', 'cluster_seqscan') THEN ARRAY['mb_per_s']
			WHEN m.benchmark = 'query' THEN ARRAY['elapsed_ms']
			WHEN m.benchmark IN ('tablespace_io', 'tablespaces_io', 'cluster_tablespace_io') THEN
				CASE WHEN m.test IN ('seqwrite', 'seqread')
					 THEN ARRAY['mb_per_s', 'lat_p99_us']
					 ELSE ARRAY['iops', 'lat_p99_us'] END
			ELSE ARRAY(SELECT e.key FROM jsonb_each(m.metrics) e
					   WHERE jsonb_typeof(e.value) = 'number' ORDER BY e.key)
		END) AS k(metric)
		WHERE bench_metric(m.metrics, k.metric) IS NOT NULL
	),
	grouped AS (
		SELECT v.side, v.benchmark, v.target_kind, v.target, v.test, v.cache,
			   v.block_size, v.streams, v.direct, v.iodepth, v.metric,
			   count(*)::integer AS n, avg(v.value) AS mean,
			   coalesce(stddev_samp(v.value), 0) AS sd
		FROM vals v
		GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
	),
	sided AS (
		SELECT g.*,
			   count(*) OVER (PARTITION BY g.side, g.benchmark, g.target_kind, g.test,
								  g.cache, g.block_size, g.streams, g.direct, g.iodepth,
								  g.metric) AS ntargets
		FROM grouped g
	),
	pairs AS (
		SELECT b.benchmark, b.test, b.cache, b.block_size, b.streams, b.direct, b.iodepth,
			   b.metric,
			   b.target AS b_target, c.target AS c_target,
			   b.n AS bn, c.n AS cn, b.mean AS bm, c.mean AS cm, b.sd AS bs, c.sd AS cs
		FROM sided b
		JOIN sided c
		  ON b.side = 'b' AND c.side = 'c'
		 AND b.benchmark = c.benchmark AND b.target_kind = c.target_kind
		 AND b.test IS NOT DISTINCT FROM c.test
		 AND b.cache IS NOT DISTINCT FROM c.cache
		 AND b.block_size IS NOT DISTINCT FROM c.block_size
		 AND b.streams IS NOT DISTINCT FROM c.streams
		 AND b.direct IS NOT DISTINCT FROM c.direct
		 AND b.iodepth IS NOT DISTINCT FROM c.iodepth
		 AND b.metric = c.metric
		 AND (b.target IS NOT DISTINCT FROM c.target OR (b.ntargets = 1 AND c.ntargets = 1))
	),
	stats AS (
		SELECT p.*,
			   -- standard error of the difference of the means, and its degrees of freedom
			   CASE WHEN p.bn >= 2 AND p.cn >= 2 THEN sqrt(p.bs ^ 2 / p.bn + p.cs ^ 2 / p.cn)
					WHEN p.bn >= 2 THEN p.bs * sqrt(1.0 / p.bn + 1.0 / p.cn)
					WHEN p.cn >= 2 THEN p.cs * sqrt(1.0 / p.bn + 1.0 / p.cn) END AS se,
			   CASE WHEN p.bn >= 2 AND p.cn >= 2 THEN
						CASE WHEN p.bs = 0 AND p.cs = 0 THEN NULL
							 ELSE (p.bs ^ 2 / p.bn + p.cs ^ 2 / p.cn) ^ 2 /
								  ((p.bs ^ 2 / p.bn) ^ 2 / (p.bn - 1) +
								   (p.cs ^ 2 / p.cn) ^ 2 / (p.cn - 1)) END
					WHEN p.bn >= 2 THEN p.bn - 1
					WHEN p.cn >= 2 THEN p.cn - 1 END AS df,
			   -- lower is better for times and latencies, higher for rates and the rest
			   (p.metric ~ '_per_(s|sec|second)$'
				OR p.metric !~ '(^lat_|latency|elapsed|_(ms|us|ns|s|sec|seconds)$)') AS higher_better
		FROM pairs p
	),
	judged AS (
		SELECT s.*,
			   s.se * CASE WHEN s.df IS NULL OR s.df > 30 THEN 1.96 + 2.4 / coalesce(s.df, 1e9)
						   ELSE t95[greatest(1, floor(s.df)::integer)] END AS half
		FROM stats s
	)
	SELECT j.benchmark,
		   CASE WHEN j.b_target IS NOT DISTINCT FROM j.c_target THEN j.b_target
				ELSE coalesce(j.b_target, '?') || ' / ' || coalesce(j.c_target, '?') END,
		   j.test, j.cache, j.block_size, j.streams, j.direct, j.iodepth, j.metric,
		   j.bn, j.cn,
		   round(j.bm::numeric, 2)::float8,
		   round(j.cm::numeric, 2)::float8,
		   round((j.cm / nullif(j.bm, 0))::numeric, 3)::float8,
		   round((100 * j.half / nullif(abs(j.bm), 0))::numeric, 1)::float8,
		   CASE WHEN j.se IS NULL THEN 'no verdict: one run each'
				WHEN j.se = 0 AND j.cm <> j.bm THEN 'no verdict: no spread'
				WHEN abs(j.cm - j.bm) <= j.half THEN 'within noise'
				WHEN (j.cm > j.bm) = j.higher_better THEN 'better'
				ELSE 'worse' END
	FROM judged j
	ORDER BY j.benchmark, j.b_target, j.c_target,
			 array_position(ARRAY['seqwrite', 'seqread', 'randread', 'randwrite', 'sync'], j.test),
			 j.test, j.cache,
			 CASE WHEN j.block_size ~ '^[0-9]{1,9} ?(bytes|kB|MB|GB)$' THEN pg_size_bytes(j.block_size) END,
			 j.block_size, j.streams, j.direct, j.iodepth, j.metric
	LOOP
		found_any := true;
		RETURN NEXT;
	END LOOP;

	IF NOT found_any THEN
		RAISE NOTICE 'nothing to compare: "%" and "%" have no measurement in common', baseline, candidate
			USING HINT = 'Measurements compare when benchmark, test, cache, block size, streams, direct and iodepth agree.';
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_compare(text, text, text[]) IS
'compare two labels (or run ids) measurement by measurement, with a verdict that respects the noise of repeated runs';

--
-- bench_chart: bars named by iodepth where it differs.
--
CREATE OR REPLACE FUNCTION bench_chart(
	metric text,					-- mb_per_s, iops, lat_p99_us, tps, ...
	label_like text DEFAULT NULL,	-- LIKE pattern on labels; NULL: every run
	benchmark text DEFAULT NULL,	-- only this benchmark
	target text DEFAULT NULL,		-- only this relation or tablespace
	test text DEFAULT NULL,			-- only this test (or scan mode)
	width integer DEFAULT 50,		-- cells of the longest bar, 1 .. 500
	OUT chart text
)
RETURNS SETOF text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	unicode boolean := current_setting('server_encoding') = 'UTF8'
					   AND current_setting('client_encoding') = 'UTF8';
	unit text;
	n integer := 0;
BEGIN
	IF metric IS NULL THEN
		RAISE EXCEPTION 'metric cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF width IS NULL OR width < 1 OR width > 500 THEN
		RAISE EXCEPTION 'width must be between 1 and 500'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;

	unit := CASE WHEN metric = 'mb_per_s' THEN 'MB/s'
				 WHEN metric = 'iops' THEN 'IOPS'
				 WHEN metric = 'tps' THEN 'tps'
				 WHEN metric = 'tuples_per_s' THEN 'tuples/s'
				 WHEN metric ~ '_us$' THEN CASE WHEN unicode THEN chr(181) || 's' ELSE 'us' END
				 WHEN metric ~ '_ms$' THEN 'ms'
				 WHEN metric ~ '_mb$' THEN 'MB'
				 WHEN metric ~ '_per_s$' THEN '/s'
				 ELSE '' END;

	FOR chart IN
	WITH sel AS (
		SELECT coalesce(h.label, 'run ' || h.run_id) AS label, h.started_at,
			   h.benchmark, h.target, h.test, h.cache, h.block_size, h.streams, h.direct,
			   h.iodepth, bench_metric(h.metrics, bench_chart.metric) AS value
		FROM bench_history h
		WHERE (bench_chart.label_like IS NULL OR h.label LIKE bench_chart.label_like)
		  AND (bench_chart.benchmark IS NULL OR h.benchmark = bench_chart.benchmark)
		  AND (bench_chart.target IS NULL OR h.target = bench_chart.target)
		  AND (bench_chart.test IS NULL OR h.test = bench_chart.test)
		  AND bench_metric(h.metrics, bench_chart.metric) IS NOT NULL
	),
	bars AS (
		SELECT s.label, s.benchmark, s.target, s.test, s.cache, s.block_size,
			   s.streams, s.direct, s.iodepth, avg(s.value) AS value,
			   min(s.started_at) AS first_at
		FROM sel s
		GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
	),
	-- name each bar by what differs between the bars
	varies AS (
		SELECT count(DISTINCT b.label) > 1 AS label,
			   count(DISTINCT b.benchmark) > 1 AS benchmark,
			   count(DISTINCT coalesce(b.target, '')) > 1 AS target,
			   count(DISTINCT coalesce(b.test, '')) > 1 AS test,
			   count(DISTINCT coalesce(b.cache, '')) > 1 AS cache,
			   count(DISTINCT coalesce(b.block_size, '')) > 1 AS block_size,
			   count(DISTINCT coalesce(b.streams, 0)) > 1 AS streams,
			   count(DISTINCT coalesce(b.direct::text, '')) > 1 AS direct,
			   count(DISTINCT coalesce(b.iodepth, 0)) > 1 AS iodepth
		FROM bars b
	),
	named AS (
		SELECT b.*,
			   coalesce(nullif(concat_ws(' ',
					CASE WHEN v.label THEN b.label END,
					CASE WHEN v.benchmark THEN b.benchmark END,
					CASE WHEN v.target THEN b.target END,
					CASE WHEN v.test THEN b.test END,
					CASE WHEN v.cache THEN b.cache END,
					CASE WHEN v.block_size THEN b.block_size END,
					CASE WHEN v.streams THEN b.streams ||
						 CASE WHEN b.benchmark LIKE '%seqscan' THEN ' process' ELSE ' stream' END ||
						 CASE WHEN b.streams = 1 THEN ''
							  WHEN b.benchmark LIKE '%seqscan' THEN 'es' ELSE 's' END END,
					CASE WHEN v.direct THEN CASE b.direct WHEN true THEN 'direct' WHEN false THEN 'buffered' END END,
					CASE WHEN v.iodepth AND b.iodepth IS NOT NULL THEN 'depth ' || b.iodepth END),
					''), b.label) AS name,
			   min(b.first_at) OVER (PARTITION BY b.label) AS label_at,
			   max(b.value) OVER () AS top,
			   round(b.value::numeric, 1)::text AS shown
		FROM bars b, varies v
	),
	drawn AS (
		SELECT nb.*,
			   CASE WHEN nb.top > 0 AND nb.value > 0
					THEN greatest(1, round(nb.value / nb.top * width * 8))::integer
					ELSE 0 END AS eighths
		FROM named nb
	)
	SELECT rpad(d.name, max(length(d.name)) OVER ()) || '  ' ||
		   rpad(CASE WHEN unicode
					 THEN repeat(chr(9608), d.eighths / 8) ||
						  CASE WHEN d.eighths % 8 > 0 THEN chr(9616 - d.eighths % 8) ELSE '' END
					 ELSE CASE WHEN d.eighths > 0 AND d.eighths < 4 THEN '.'
							   ELSE repeat('#', round(d.eighths / 8.0)::integer) END
				END, width) || '  ' ||
		   lpad(d.shown, max(length(d.shown)) OVER ()) ||
		   CASE WHEN unit <> '' THEN ' ' || unit ELSE '' END
	FROM drawn d
	ORDER BY d.label_at, d.label, d.benchmark, d.target,
			 array_position(ARRAY['seqwrite', 'seqread', 'randread', 'randwrite', 'sync'], d.test),
			 d.test, d.cache,
			 CASE WHEN d.block_size ~ '^[0-9]{1,9} ?(bytes|kB|MB|GB)$' THEN pg_size_bytes(d.block_size) END,
			 d.block_size, d.iodepth, d.streams, d.direct
	LOOP
		n := n + 1;
		RETURN NEXT;
	END LOOP;

	IF n = 0 THEN
		RAISE NOTICE 'no recorded measurement of "%" matches', metric
			USING HINT = 'The metrics are the keys of bench_history.metrics, such as mb_per_s, iops, lat_p99_us or tps.';
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_chart(text, text, text, text, text, integer) IS
'a recorded metric as horizontal text bars, one line per label (and per test, block size, target, ... where they differ)';
