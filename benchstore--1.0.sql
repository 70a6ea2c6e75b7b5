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
	OUT os_read_mb float8			-- MB the kernel read from storage for this backend; NULL if unknown
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_seqscan'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_seqscan(regclass, text, text, integer, text, boolean) IS
'time a sequential scan of a relation (heap, buffer or raw mode; warm or cold cache), one row per run';

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
-- pg_dump keeps their contents.  The C code inserts as the tables' owner;
-- users read and delete through row-level security: their own runs, or
-- every run for members of pg_read_all_stats (reading) and superusers.
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

ALTER TABLE bench_run ENABLE ROW LEVEL SECURITY;
ALTER TABLE bench_result ENABLE ROW LEVEL SECURITY;
CREATE POLICY bench_run_read ON bench_run FOR SELECT
	USING (recorded_by = current_user OR pg_has_role('pg_read_all_stats', 'USAGE'));
CREATE POLICY bench_run_forget ON bench_run FOR DELETE
	USING (recorded_by = current_user);
CREATE POLICY bench_result_read ON bench_result FOR SELECT
	USING (EXISTS (SELECT 1 FROM bench_run r WHERE r.run_id = bench_result.run_id));
GRANT SELECT, DELETE ON bench_run TO PUBLIC;
GRANT SELECT ON bench_result TO PUBLIC;

--
-- bench_metric: a number from a result row's metrics, NULL when the key is
-- missing or not a number.
--
CREATE FUNCTION bench_metric(metrics jsonb, name text)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.jsonb_typeof(metrics -> name) = 'number'
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
	   bench_metric(x.metrics, 'streams')::integer AS streams,
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
-- array of objects.  Returns the run id.
--
CREATE FUNCTION bench_record(
	benchmark text,
	target text,
	metrics jsonb,
	label text DEFAULT NULL
)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bench_record'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_record(text, text, jsonb, text) IS
'record an outside measurement (for example pgbench tps) in the benchmark history';
