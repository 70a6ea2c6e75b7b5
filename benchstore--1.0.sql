/* benchstore--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION benchstore" to load this file. \quit

-- MB means 2^20 bytes throughout, as pg_size_pretty does.

--
-- bench_seqscan: time a sequential read of a relation, one row per run.
--
CREATE FUNCTION bench_seqscan(
	relation regclass,
	mode text DEFAULT 'heap',		-- heap | buffer | raw
	cache text DEFAULT 'warm',		-- warm | cold
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	workers integer DEFAULT 0,		-- parallel workers beside the caller, 0 .. 64
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
	OUT workers_launched integer	-- parallel workers that ran (fewer when none are free)
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_seqscan'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_seqscan(regclass, text, text, integer, text, boolean, integer) IS
'time a sequential scan of a relation (heap, buffer or raw mode; warm or cold cache), one row per run';

--
-- bench_query: time any SELECT (or WITH ... SELECT), warm or cold, one row
-- per run.  Rows are counted and discarded; the query runs with the
-- caller's privileges in a subtransaction that is rolled back, read-only
-- unless allow_writes.
--
CREATE FUNCTION bench_query(
	query text,						-- one SELECT or WITH ... SELECT
	cache text DEFAULT 'warm',		-- warm | cold (every relation the plan reads evicted first)
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	allow_writes boolean DEFAULT false,	-- true: run a query that writes, then roll it back
	OUT run integer,				-- 1 .. repeat
	OUT cache text,					-- warm or cold
	OUT elapsed_ms float8,			-- execution time (ExecutorStart to ExecutorEnd), ms; planning not included
	OUT rows bigint,				-- rows the query returned (counted, not sent)
	OUT blks_hit bigint,			-- blocks found in shared (or local) buffers, parallel workers included
	OUT blks_read bigint,			-- blocks PostgreSQL read from the OS, parallel workers included
	OUT read_ms float8,				-- time in those reads, ms; NULL unless track_io_timing
	OUT os_read_mb float8,			-- MB the kernel read from storage for this backend; NULL if unknown or with parallel workers
	OUT relations regclass[],		-- what the plan reads: tables with storage, then the indexes its scans use
	OUT size_mb float8,				-- their main forks' size now, MB (2^20 bytes)
	OUT mb_per_s float8,			-- size_mb / elapsed seconds: the effective scan rate
	OUT workers_planned integer,	-- parallel workers the plan's Gather nodes asked for
	OUT workers_launched integer	-- parallel workers that ran
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_query'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_query(text, text, integer, text, boolean, boolean) IS
'time a SELECT (warm or cold cache), one row per run, with the relations it reads and its effective scan rate';

--
-- bench_cache_status / bench_cache_evict: the relation's main fork in the
-- OS page cache (all partitions of a partitioned table).
--
CREATE FUNCTION bench_cache_status(
	relation regclass,
	OUT files integer,				-- segment files of the main fork
	OUT mb float8,					-- their size, MB
	OUT os_cached_mb float8			-- how much of them the OS page cache holds, MB
)
RETURNS record
AS 'MODULE_PATHNAME', 'bench_cache_status'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_cache_status(regclass) IS
'how much of a relation''s main fork the OS page cache holds';

CREATE FUNCTION bench_cache_evict(
	relation regclass,
	OUT files integer,				-- segment files of the main fork
	OUT mb float8,					-- their size, MB
	OUT os_cached_mb_before float8,	-- in the OS page cache before, MB
	OUT os_cached_mb_after float8	-- in the OS page cache after the checkpoint and eviction, MB
)
RETURNS record
AS 'MODULE_PATHNAME', 'bench_cache_evict'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_cache_evict(regclass) IS
'checkpoint, then evict a relation''s main fork from the OS page cache, as a cold bench_seqscan run does';

-- Eviction requests a checkpoint: the same right as the CHECKPOINT command.
-- The C code checks it too.
REVOKE ALL ON FUNCTION bench_cache_evict(regclass) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bench_cache_evict(regclass) TO pg_checkpoint;

--
-- bench_relation_sizes: the classic
--   select relname, 8*relpages/128 as MB from pg_class order by relpages desc
-- done right: real file sizes beside the planner's estimate, for any block
-- size, partitioned tables summed over their partitions.
--
CREATE FUNCTION bench_relation_sizes(
	top integer DEFAULT 10,			-- rows to return, largest first; NULL for all
	schema name DEFAULT NULL,		-- NULL: every schema but the system ones
	OUT relation regclass,			-- table, partitioned table or materialized view
	OUT kind text,					-- 'table', 'partitioned table' or 'materialized view'
	OUT tablespace name,			-- its tablespace; NULL if partitions lie in several
	OUT pages bigint,				-- main fork blocks, from the files now
	OUT mb float8,					-- main fork size from the files now, MB (= pg_relation_size)
	OUT relpages bigint,			-- pg_class.relpages, the planner's estimate (as of VACUUM/ANALYZE)
	OUT estimate_mb float8,			-- relpages * block_size, MB
	OUT reltuples float8,			-- pg_class.reltuples; NULL if never analyzed
	OUT toast_mb float8,			-- TOAST table and its index, MB
	OUT indexes_mb float8,			-- all indexes, MB (= pg_indexes_size)
	OUT total_mb float8				-- everything, MB (= pg_total_relation_size)
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	block_size bigint := current_setting('block_size')::bigint;
	one_mb float8 := 1048576;
BEGIN
	IF top IS NOT NULL AND top < 1 THEN
		RAISE EXCEPTION 'top must be at least 1'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Pass NULL to list every relation.';
	END IF;
	IF schema IS NOT NULL
	   AND NOT EXISTS (SELECT 1 FROM pg_namespace ns WHERE ns.nspname = schema) THEN
		RAISE EXCEPTION 'schema "%" does not exist', schema
			USING ERRCODE = 'invalid_schema_name';
	END IF;

	RETURN QUERY
	WITH listed AS (
		SELECT c.oid, c.relkind, c.reltablespace
		FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p', 'm')
		  AND NOT c.relispartition		-- counted in their partitioned table
		  AND NOT EXISTS (				-- benchstore's own history tables
			  SELECT 1 FROM pg_depend d
			  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'benchstore'
			  WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
				AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e')
		  AND CASE WHEN schema IS NULL
				   THEN n.nspname NOT IN ('pg_catalog', 'information_schema')
						AND n.nspname !~ '^pg_toast'
						AND NOT pg_is_other_temp_schema(n.oid)
				   ELSE n.nspname = schema END
	),
	member AS (					-- the relations whose files each listed one sums
		SELECT l.oid AS listed_oid, l.oid AS member_oid
		FROM listed l WHERE l.relkind <> 'p'
		UNION ALL
		SELECT l.oid, pt.relid
		FROM listed l, pg_partition_tree(l.oid) pt
		WHERE l.relkind = 'p' AND pt.isleaf
	),
	sized AS (
		SELECT m.listed_oid,
			   pg_relation_size(c.oid, 'main') AS main_bytes,
			   c.relpages,
			   c.reltuples,
			   CASE WHEN c.reltoastrelid <> 0
					THEN pg_total_relation_size(c.reltoastrelid) ELSE 0 END AS toast_bytes,
			   pg_indexes_size(c.oid) AS index_bytes,
			   pg_total_relation_size(c.oid) AS total_bytes,
			   CASE WHEN c.reltablespace = 0
					THEN (SELECT d.dattablespace FROM pg_database d
						  WHERE d.datname = current_database())
					ELSE c.reltablespace END AS spc
		FROM member m
		JOIN pg_class c ON c.oid = m.member_oid
	),
	summed AS (
		SELECT l.oid, l.relkind, l.reltablespace,
			   coalesce(sum(s.main_bytes), 0)::bigint AS main_bytes,
			   coalesce(sum(s.relpages), 0)::bigint AS relpages,
			   CASE WHEN bool_or(s.reltuples >= 0)
					THEN sum(greatest(s.reltuples, 0))::float8 END AS reltuples,
			   coalesce(sum(s.toast_bytes), 0)::bigint AS toast_bytes,
			   coalesce(sum(s.index_bytes), 0)::bigint AS index_bytes,
			   coalesce(sum(s.total_bytes), 0)::bigint AS total_bytes,
			   count(DISTINCT s.spc) AS nspc,
			   min(s.spc) AS spc
		FROM listed l
		LEFT JOIN sized s ON s.listed_oid = l.oid
		GROUP BY l.oid, l.relkind, l.reltablespace
	)
	SELECT s.oid::regclass,
		   CASE s.relkind WHEN 'r' THEN 'table'
						  WHEN 'p' THEN 'partitioned table'
						  ELSE 'materialized view' END,
		   CASE WHEN s.nspc = 1 THEN (SELECT t.spcname FROM pg_tablespace t WHERE t.oid = s.spc)
				WHEN s.nspc = 0 THEN (SELECT t.spcname FROM pg_tablespace t
									  WHERE t.oid = CASE WHEN s.reltablespace = 0
														 THEN (SELECT d.dattablespace FROM pg_database d
															   WHERE d.datname = current_database())
														 ELSE s.reltablespace END)
		   END,
		   s.main_bytes / block_size,
		   s.main_bytes / one_mb,
		   s.relpages,
		   s.relpages * block_size / one_mb,
		   s.reltuples,
		   s.toast_bytes / one_mb,
		   s.index_bytes / one_mb,
		   s.total_bytes / one_mb
	FROM summed s
	ORDER BY s.main_bytes DESC, s.total_bytes DESC, s.oid::regclass::text
	LIMIT top;
END;
$$;

COMMENT ON FUNCTION bench_relation_sizes(integer, name) IS
'relation sizes in MB from the files and from the planner''s estimate, largest first';

--
-- bench_tablespace_io: the dd and fio tests on temporary files in a
-- tablespace, one row per test.
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
	OUT tablespace name,				-- the tablespace ('total' for the sum of several)
	OUT test text,						-- seqwrite, seqread, randread, randwrite or sync
	OUT block_size text,				-- bytes per operation, e.g. '8kB'
	OUT streams integer,				-- streams that actually ran
	OUT direct boolean,					-- O_DIRECT used
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

COMMENT ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean) IS
'sequential and random I/O, sync rate and latency percentiles on temporary files in a tablespace';

--
-- bench_tablespaces_io: the same on several tablespaces at once, one row per
-- tablespace and test plus a 'total' row per test.
--
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
	OUT tablespace name,
	OUT test text,
	OUT block_size text,
	OUT streams integer,
	OUT direct boolean,
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

COMMENT ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean) IS
'bench_tablespace_io on several tablespaces at once, with a total row per test';

-- They write server files: superusers and pg_write_server_files (with
-- CREATE on the tablespace), checked again in C.
REVOKE ALL ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean) TO pg_write_server_files;
GRANT EXECUTE ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean) TO pg_write_server_files;

--
-- History.  Every bench_seqscan, bench_tablespace_io and bench_tablespaces_io
-- call records its result rows (unless record => false), and bench_record
-- adds outside measurements: bench_run has one row per call, bench_result
-- one row per result row.  Both are extension configuration tables, so
-- pg_dump keeps their contents.  The C code inserts as the tables' owner,
-- naming the caller in recorded_by.
--
CREATE SEQUENCE bench_run_id_seq;

CREATE TABLE bench_run (
	run_id bigint PRIMARY KEY DEFAULT nextval('bench_run_id_seq'),
	started_at timestamptz NOT NULL,	-- when the call began
	finished_at timestamptz NOT NULL,	-- when its rows were recorded
	recorded_by name NOT NULL,			-- the role that ran it
	label text,							-- the label argument; never empty, never all digits
	benchmark text NOT NULL,			-- seqscan, tablespace_io, tablespaces_io, or an outside name
	target_kind text NOT NULL,			-- relation, tablespace or other
	target text,						-- relation or tablespace name(s), or bench_record's target
	target_oid oid,						-- its OID when it is one relation or tablespace
	arguments jsonb NOT NULL,			-- every argument of the call
	settings jsonb NOT NULL,			-- server settings, tablespaces' filesystems, host
	CHECK (label <> '' AND label !~ '^[0-9]+$'),
	CHECK (target_kind IN ('relation', 'tablespace', 'other'))
);
CREATE INDEX bench_run_label_idx ON bench_run (label);

CREATE TABLE bench_result (
	run_id bigint NOT NULL REFERENCES bench_run ON DELETE CASCADE,
	row_no integer NOT NULL,			-- 1 .. rows of the call, in output order
	metrics jsonb NOT NULL,				-- the result row: column name -> value
	PRIMARY KEY (run_id, row_no),
	CHECK (jsonb_typeof(metrics) = 'object')
);

SELECT pg_catalog.pg_extension_config_dump('bench_run', '');
SELECT pg_catalog.pg_extension_config_dump('bench_result', '');
SELECT pg_catalog.pg_extension_config_dump('bench_run_id_seq', '');

-- Everyone who can connect reads the history, as pg_dump must (row-level
-- security would stop every non-superuser's pg_dump of the database).
-- Only the benchmarks and bench_record insert, and only bench_forget
-- deletes: all of them in C, as the tables' owner, on behalf of the caller
-- (a role removes its own runs; a superuser any).
GRANT SELECT ON bench_run TO PUBLIC;
GRANT SELECT ON bench_result TO PUBLIC;
GRANT SELECT ON SEQUENCE bench_run_id_seq TO PUBLIC;

--
-- bench_metric: a number from a result row's metrics, NULL when the key is
-- missing, not a number, or outside float8's range.
--
CREATE FUNCTION bench_metric(metrics jsonb, name text)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.jsonb_typeof(metrics -> name) = 'number'
				 AND pg_catalog.abs((metrics ->> name)::pg_catalog.numeric) <= 1e300
				 AND (pg_catalog.abs((metrics ->> name)::pg_catalog.numeric) >= 1e-300
					  OR (metrics ->> name)::pg_catalog.numeric = 0)
			THEN (metrics ->> name)::pg_catalog.float8 END;

COMMENT ON FUNCTION bench_metric(jsonb, text) IS
'a numeric metric of a recorded result row, NULL when missing or not a number';

--
-- bench_history: every recorded result row with readable columns.
--
CREATE VIEW bench_history WITH (security_invoker = true) AS
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
	   x.metrics
FROM bench_run r
JOIN bench_result x ON x.run_id = r.run_id;

COMMENT ON VIEW bench_history IS
'every recorded benchmark result row, one per row the benchmark returned';

GRANT SELECT ON bench_history TO PUBLIC;

--
-- bench_record: store an outside measurement (a pgbench run, say) beside
-- the recorded benchmarks.  metrics is one object (one result row) or an
-- array of objects; arguments, how it was run.  Returns the run id.
--
CREATE FUNCTION bench_record(
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

--
-- bench_run_ids: the runs a label or a run id stands for (labels are never
-- all digits, so a number is a run id).
--
CREATE FUNCTION bench_run_ids(ref text)
RETURNS bigint[]
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
BEGIN
	IF ref IS NULL THEN
		RAISE EXCEPTION 'label or run id cannot be null'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF ref ~ '^[0-9]{1,18}$' THEN
		RETURN ARRAY(SELECT r.run_id FROM bench_run r WHERE r.run_id = ref::bigint);
	END IF;
	RETURN ARRAY(SELECT r.run_id FROM bench_run r WHERE r.label = ref ORDER BY r.run_id);
END;
$$;

COMMENT ON FUNCTION bench_run_ids(text) IS
'the recorded runs a label or a run id stands for';

--
-- bench_forget: remove recorded runs, by run id or by label.  Returns how
-- many runs and result rows were removed.  Runs recorded by other roles
-- are removed only by superusers.
--
CREATE FUNCTION bench_forget(
	ref text,						-- a label, or a run id
	OUT runs bigint,				-- runs removed
	OUT result_rows bigint			-- their result rows, removed with them
)
RETURNS record
AS 'MODULE_PATHNAME', 'bench_forget'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

CREATE FUNCTION bench_forget(
	run_id bigint,
	OUT runs bigint,
	OUT result_rows bigint
)
RETURNS record
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN @extschema@.bench_forget(run_id::text);

COMMENT ON FUNCTION bench_forget(text) IS
'remove the recorded runs of a label (or one run, by id); returns the runs and result rows removed';
COMMENT ON FUNCTION bench_forget(bigint) IS
'remove one recorded run; returns the runs and result rows removed';

--
-- bench_run_json: one recorded run with its arguments, settings and result
-- rows, as a jsonb document.
--
CREATE FUNCTION bench_run_json(run_id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, @extschema@, pg_temp
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
									FROM bench_result x WHERE x.run_id = r.run_id),
								   '[]'::jsonb))
	INTO doc
	FROM bench_run r
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
-- bench_compare: two labels (or run ids) side by side, one row per
-- comparable measurement and metric.  Measurements are comparable when
-- benchmark, target kind, test, cache, block size, streams and O_DIRECT
-- agree, and the targets too, unless each side has a single target of that
-- measurement (then fast1 is compared with fast3).
--
-- Repeated measurements under a label (repeat => n, or several calls) are
-- averaged, and their spread is the noise: the verdict is 'better' or
-- 'worse' when the candidate's mean differs from the baseline's by more
-- than the 95 % confidence interval of the difference (Welch's t test; with
-- repeats on one side only, that side's spread stands for both), otherwise
-- 'within noise'.  One measurement on each side gives no verdict.
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

	FOR benchmark, target, test, cache, block_size, streams, direct, metric,
		baseline_runs, candidate_runs, baseline_value, candidate_value, ratio,
		noise_pct, verdict IN
	WITH measured AS (
		SELECT 'b' AS side, h.* FROM bench_history h WHERE h.run_id = ANY (b_ids)
		UNION ALL
		SELECT 'c' AS side, h.* FROM bench_history h WHERE h.run_id = ANY (c_ids)
	),
	vals AS (
		SELECT m.side, m.benchmark, m.target_kind, m.target, m.test, m.cache,
			   m.block_size, m.streams, m.direct, k.metric,
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
			   v.block_size, v.streams, v.direct, v.metric,
			   count(*)::integer AS n, avg(v.value) AS mean,
			   coalesce(stddev_samp(v.value), 0) AS sd
		FROM vals v
		GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
	),
	sided AS (
		SELECT g.*,
			   count(*) OVER (PARTITION BY g.side, g.benchmark, g.target_kind, g.test,
								  g.cache, g.block_size, g.streams, g.direct, g.metric) AS ntargets
		FROM grouped g
	),
	pairs AS (
		SELECT b.benchmark, b.test, b.cache, b.block_size, b.streams, b.direct, b.metric,
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
		   j.test, j.cache, j.block_size, j.streams, j.direct, j.metric,
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
			 j.block_size, j.streams, j.direct, j.metric
	LOOP
		found_any := true;
		RETURN NEXT;
	END LOOP;

	IF NOT found_any THEN
		RAISE NOTICE 'nothing to compare: "%" and "%" have no measurement in common', baseline, candidate
			USING HINT = 'Measurements compare when benchmark, test, cache, block size, streams and direct agree.';
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_compare(text, text, text[]) IS
'compare two labels (or run ids) measurement by measurement, with a verdict that respects the noise of repeated runs';

--
-- bench_chart: a metric as horizontal bars, one line per label (and per
-- whatever else differs between the measurements shown: test, block size,
-- target, streams), scaled so that the largest mean fills width cells.
-- Unicode block characters, or '#' when the server or client encoding is
-- not UTF8.
--
CREATE FUNCTION bench_chart(
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
			   bench_metric(h.metrics, bench_chart.metric) AS value
		FROM bench_history h
		WHERE (bench_chart.label_like IS NULL OR h.label LIKE bench_chart.label_like)
		  AND (bench_chart.benchmark IS NULL OR h.benchmark = bench_chart.benchmark)
		  AND (bench_chart.target IS NULL OR h.target = bench_chart.target)
		  AND (bench_chart.test IS NULL OR h.test = bench_chart.test)
		  AND bench_metric(h.metrics, bench_chart.metric) IS NOT NULL
	),
	bars AS (
		SELECT s.label, s.benchmark, s.target, s.test, s.cache, s.block_size,
			   s.streams, s.direct, avg(s.value) AS value, min(s.started_at) AS first_at
		FROM sel s
		GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
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
			   count(DISTINCT coalesce(b.direct::text, '')) > 1 AS direct
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
					CASE WHEN v.direct THEN CASE b.direct WHEN true THEN 'direct' WHEN false THEN 'buffered' END END),
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
			 d.block_size, d.streams, d.direct
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

GRANT EXECUTE ON FUNCTION bench_record(text, text, jsonb, text, jsonb) TO PUBLIC;
