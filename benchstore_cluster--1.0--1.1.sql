/* benchstore_cluster--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION benchstore_cluster UPDATE TO '1.1'" to load this file. \quit

-- Version 1.1: bench_cluster_tablespace_io takes iodepth (operations in
-- flight per stream on every node) and returns it.  The nodes must run
-- benchstore 1.1 (ALTER EXTENSION benchstore UPDATE on each).
--
-- A fresh CREATE EXTENSION benchstore_cluster installs 1.0 and runs this
-- script.  The I/O path's internal row types gain the column in place
-- (after direct), so they and the functions that use them are dropped and
-- created again.  On Citus, bench_cluster_seqscan reads each shard once,
-- on one worker, so that a reference table (a copy on every worker) or a
-- replicated shard is counted once (see _bench_cluster_citus_shard_groups).

DROP FUNCTION bench_cluster_tablespace_io(name, name, text, text, text[], integer, boolean, interval, text, boolean);
DROP FUNCTION _bench_cluster_tablespace_io(name, name, text, text, text[], integer, boolean, interval, text, boolean);
DROP FUNCTION _bench_cluster_io_rows(text[], _bench_cluster_io_node[]);
DROP FUNCTION _bench_cluster_io_plproxy(name, integer[], name, text, text, text[], integer, boolean, interval, text, boolean);
DROP TYPE _bench_cluster_io_result;
DROP TYPE _bench_cluster_io_node;

CREATE TYPE _bench_cluster_io_node AS (
	part integer,					-- partition number (Citus: position in the worker list, from 0)
	tablespace name,				-- the tablespace
	test text,						-- seqwrite, seqread, randread, randwrite or sync
	block_size text,				-- bytes per operation, e.g. '8kB'
	streams integer,				-- streams that ran
	direct boolean,					-- O_DIRECT used
	iodepth integer,				-- operations in flight per stream
	bytes bigint,					-- bytes read or written
	elapsed_ms float8,				-- first start to last end, ms
	mb_per_s float8,				-- MB per second
	iops float8,					-- operations per second
	lat_avg_us float8,				-- latency: mean, microseconds
	lat_p50_us float8,				-- median, microseconds
	lat_p95_us float8,				-- 95th percentile, microseconds
	lat_p99_us float8,				-- 99th percentile, microseconds
	lat_p999_us float8,				-- 99.9th percentile, microseconds
	lat_max_us float8				-- maximum, microseconds
);

CREATE TYPE _bench_cluster_io_result AS (
	node text,
	tablespace name,
	test text,
	block_size text,
	streams integer,
	direct boolean,
	iodepth integer,
	bytes bigint,
	elapsed_ms float8,
	mb_per_s float8,
	iops float8,
	lat_avg_us float8,
	lat_p50_us float8,
	lat_p95_us float8,
	lat_p99_us float8,
	lat_p999_us float8,
	lat_max_us float8,
	min_mb_per_s float8,
	max_mb_per_s float8,
	skew float8
);

CREATE FUNCTION _bench_cluster_io_plproxy(
	i_cluster name,
	i_parts integer[],
	i_tablespace name,
	i_size text,
	i_block_size text,
	i_tests text[],
	i_streams integer,
	i_direct boolean,
	i_duration interval,
	i_label text,
	i_record boolean,
	i_iodepth integer
)
RETURNS SETOF _bench_cluster_io_node
LANGUAGE plproxy
AS $$
	CLUSTER pg_catalog.text(i_cluster);
	SPLIT i_parts;
	RUN ON i_parts;
	SELECT (i_parts)[1] AS part, t.tablespace, t.test, t.block_size, t.streams, t.direct,
		   t.iodepth, t.bytes, t.elapsed_ms, t.mb_per_s, t.iops, t.lat_avg_us, t.lat_p50_us,
		   t.lat_p95_us, t.lat_p99_us, t.lat_p999_us, t.lat_max_us
	FROM bench_tablespace_io(tablespace => i_tablespace, size => i_size,
							 block_size => i_block_size, tests => i_tests,
							 streams => i_streams, direct => i_direct,
							 duration => i_duration, label => i_label,
							 record => i_record, iodepth => i_iodepth) t;
$$;

COMMENT ON FUNCTION _bench_cluster_io_plproxy(name, integer[], name, text, text, text[], integer, boolean, interval, text, boolean, integer) IS
'internal: bench_tablespace_io on each of the partitions given (PL/Proxy)';

CREATE OR REPLACE FUNCTION _bench_cluster_blame_plproxy(
	cluster name,
	nodes text[],
	kind text,						-- 'ping', 'evict', 'seqscan' or 'tablespace_io'
	relation text,
	tablespace name,
	args jsonb,						-- the other arguments of the failed call
	e_state text,					-- the fan-out's error: SQLSTATE,
	e_message text,					-- message,
	e_hint text						-- and hint
)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
SET client_min_messages = warning	-- PL/Proxy's notices about dropped connections
AS $$
DECLARE
	fn text := CASE kind WHEN 'evict' THEN 'bench_cache_evict'
						 WHEN 'tablespace_io' THEN 'bench_tablespace_io'
						 ELSE 'bench_seqscan' END;
	probe record;
	st text;
	msg text;
	det text;
	hnt text;
	remote text[];
BEGIN
	-- A cancel, statement_timeout, or an error of the coordinator itself
	-- (not a node's, not a connection's): raised as it is.
	IF e_state = '57014' OR
	   (e_message !~ '^\S+\(\d+\): \[[^]]*\] REMOTE [^:]+: ' AND
		e_message !~ '^PL/Proxy function \S+\(\d+\): \[[^]]*\] PQ\w+: ') THEN
		RETURN;
	END IF;
	-- An argument every node refuses alike (a data exception, class 22,
	-- from the same benchstore): the arguments' error, not a node's.
	remote := regexp_match(e_message, '^\S+\(\d+\): \[[^]]*\] REMOTE [^:]+: (.*)$', 's');
	IF remote IS NOT NULL AND left(e_state, 2) = '22' THEN
		RAISE EXCEPTION '%', remote[1]
			USING ERRCODE = e_state,
				  HINT = coalesce(nullif(regexp_replace(e_hint, '^Remote hint: ', ''), ''),
								  'The nodes refused the arguments.');
	END IF;

	FOR i IN 0 .. cardinality(nodes) - 1 LOOP
		BEGIN
			SELECT * INTO probe
			FROM @extschema@._bench_cluster_probe_plproxy(cluster, ARRAY[i], fn,
											  CASE WHEN kind IN ('evict', 'seqscan') THEN relation END,
											  CASE WHEN kind = 'tablespace_io' THEN tablespace END);
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
									det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
			IF NOT @extschema@._bench_cluster_node_error(cluster, nodes[i + 1], st, msg, det, hnt) THEN
				RETURN;
			END IF;
		END;
		IF NOT probe.can_execute THEN
			RAISE EXCEPTION 'node "%" of cluster "%" failed', nodes[i + 1], cluster
				USING ERRCODE = 'insufficient_privilege',
					  DETAIL = format('permission denied for function %s', fn);
		END IF;
	END LOOP;

	IF kind = 'ping' THEN
		RETURN;
	END IF;
	FOR i IN 0 .. cardinality(nodes) - 1 LOOP
		BEGIN
			IF kind = 'evict' THEN
				PERFORM FROM @extschema@._bench_cluster_evict_plproxy(cluster, ARRAY[i], relation);
			ELSIF kind = 'seqscan' THEN
				PERFORM FROM @extschema@._bench_cluster_seqscan_plproxy(cluster, ARRAY[i], relation,
						args ->> 'mode', args ->> 'cache', args ->> 'label', false,
						(args ->> 'workers')::integer);
			ELSE
				PERFORM FROM @extschema@._bench_cluster_io_plproxy(cluster, ARRAY[i], tablespace,
						args ->> 'size', args ->> 'block_size',
						ARRAY(SELECT jsonb_array_elements_text(args -> 'tests')),
						(args ->> 'streams')::integer, (args ->> 'direct')::boolean,
						(args ->> 'duration')::interval, args ->> 'label', false,
						coalesce((args ->> 'iodepth')::integer, 1));
			END IF;
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
									det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
			IF NOT @extschema@._bench_cluster_node_error(cluster, nodes[i + 1], st, msg, det, hnt) THEN
				RETURN;
			END IF;
		END;
	END LOOP;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_blame_plproxy(name, text[], text, text, name, jsonb, text, text, text) IS
'internal: find the node whose failure failed a PL/Proxy fan-out and raise its error under its name';

CREATE FUNCTION _bench_cluster_io_rows(
	nodes text[],
	node_rows _bench_cluster_io_node[]
)
RETURNS SETOF _bench_cluster_io_result
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
WITH n AS (
	SELECT x.*, min(x.ord) OVER (PARTITION BY x.test) AS test_ord
	FROM unnest(node_rows) WITH ORDINALITY AS x(part, tablespace, test, block_size, streams,
												direct, iodepth, bytes, elapsed_ms, mb_per_s, iops,
												lat_avg_us, lat_p50_us, lat_p95_us, lat_p99_us,
												lat_p999_us, lat_max_us, ord)
),
out AS (
	SELECT n.test_ord, n.part AS ord, nodes[n.part + 1] AS node, n.tablespace, n.test,
		   n.block_size, n.streams, n.direct, n.iodepth, n.bytes, n.elapsed_ms, n.mb_per_s, n.iops,
		   n.lat_avg_us, n.lat_p50_us, n.lat_p95_us, n.lat_p99_us, n.lat_p999_us, n.lat_max_us,
		   NULL::float8 AS min_mb_per_s, NULL::float8 AS max_mb_per_s, NULL::float8 AS skew
	FROM n
	UNION ALL
	SELECT min(n.test_ord), 2147483647, 'total',
		   CASE WHEN count(DISTINCT n.tablespace) = 1 THEN min(n.tablespace) END,
		   n.test,
		   CASE WHEN count(DISTINCT n.block_size) = 1 THEN min(n.block_size) END,
		   sum(n.streams)::integer,
		   CASE WHEN bool_and(n.direct) = bool_or(n.direct) THEN bool_and(n.direct) END,
		   CASE WHEN min(n.iodepth) = max(n.iodepth) THEN min(n.iodepth) END,
		   sum(n.bytes)::bigint,
		   max(n.elapsed_ms),
		   round(sum(n.mb_per_s)::numeric, 2)::float8,
		   round(sum(n.iops)::numeric, 1)::float8,
		   max(n.lat_avg_us), max(n.lat_p50_us), max(n.lat_p95_us), max(n.lat_p99_us),
		   max(n.lat_p999_us), max(n.lat_max_us),
		   min(n.mb_per_s),
		   max(n.mb_per_s),
		   round((max(n.mb_per_s) / nullif(min(n.mb_per_s), 0))::numeric, 3)::float8
	FROM n
	GROUP BY n.test
)
SELECT o.node, o.tablespace, o.test, o.block_size, o.streams, o.direct, o.iodepth, o.bytes,
	   o.elapsed_ms, o.mb_per_s, o.iops, o.lat_avg_us, o.lat_p50_us, o.lat_p95_us,
	   o.lat_p99_us, o.lat_p999_us, o.lat_max_us, o.min_mb_per_s, o.max_mb_per_s, o.skew
FROM out o
ORDER BY o.test_ord, o.ord;
$$;

COMMENT ON FUNCTION _bench_cluster_io_rows(text[], _bench_cluster_io_node[]) IS
'internal: the node rows and the per-test total rows of a cluster I/O test';

CREATE FUNCTION _bench_cluster_tablespace_io(
	p_cluster name,
	p_tablespace name,
	p_size text,
	p_block_size text,
	p_tests text[],
	p_streams integer,
	p_direct boolean,
	p_duration interval,
	p_label text,
	p_record boolean,
	p_iodepth integer
)
RETURNS SETOF _bench_cluster_io_result
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	target record;
	nodes text[];
	parts integer[];
	node_rows @extschema@._bench_cluster_io_node[];
	command text;
	totals jsonb;
	args jsonb;
	e_state text;
	e_message text;
	e_hint text;
BEGIN
	IF p_tablespace IS NULL THEN
		RAISE EXCEPTION 'tablespace cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_size IS NULL THEN
		RAISE EXCEPTION 'size cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_block_size IS NULL THEN
		RAISE EXCEPTION 'block_size cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_tests IS NULL THEN
		RAISE EXCEPTION 'tests cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF array_position(p_tests, NULL) IS NOT NULL THEN
		RAISE EXCEPTION 'tests cannot contain null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_streams IS NULL THEN
		RAISE EXCEPTION 'streams cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_direct IS NULL THEN
		RAISE EXCEPTION 'direct cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_duration IS NULL THEN
		RAISE EXCEPTION 'duration cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_record IS NULL THEN
		RAISE EXCEPTION 'record cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_iodepth IS NULL THEN
		RAISE EXCEPTION 'iodepth cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;

	target := @extschema@._bench_cluster_target(p_cluster);
	PERFORM @extschema@._bench_cluster_check_label(p_label, p_record);

	IF target.engine = 'plproxy' THEN
		nodes := target.nodes;
		parts := ARRAY(SELECT generate_series(0, cardinality(nodes) - 1));
		BEGIN
			node_rows := ARRAY(SELECT x FROM @extschema@._bench_cluster_io_plproxy(
									p_cluster, parts, p_tablespace, p_size, p_block_size,
									p_tests, p_streams, p_direct, p_duration, p_label,
									p_record, p_iodepth) x);
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
									e_hint = PG_EXCEPTION_HINT;
			PERFORM @extschema@._bench_cluster_blame_plproxy(p_cluster, nodes, 'tablespace_io'::pg_catalog.text, NULL::pg_catalog.text, p_tablespace,
					jsonb_build_object('size', p_size, 'block_size', p_block_size,
									   'tests', to_jsonb(p_tests), 'streams', p_streams,
									   'direct', p_direct, 'duration', p_duration::text,
									   'label', p_label, 'iodepth', p_iodepth),
					e_state, e_message, e_hint);
			RAISE;
		END;
	ELSE
		command := format($c$SELECT coalesce(pg_catalog.json_agg(t), '[]'::pg_catalog.json)::pg_catalog.text
FROM bench_tablespace_io(tablespace => %L::pg_catalog.name, size => %L::pg_catalog.text,
						 block_size => %L::pg_catalog.text, tests => %L::pg_catalog.text[],
						 streams => %s::pg_catalog.int4, direct => %L::pg_catalog.bool,
						 duration => %L::pg_catalog.interval, label => %L::pg_catalog.text,
						 record => %L::pg_catalog.bool, iodepth => %s::pg_catalog.int4) t$c$,
						  p_tablespace, p_size, p_block_size, p_tests, p_streams, p_direct,
						  p_duration, p_label, p_record, p_iodepth);
		SELECT array_agg(w.node ORDER BY w.ord),
			   (SELECT array_agg(jsonb_populate_record(NULL::@extschema@._bench_cluster_io_node,
							e.value || jsonb_build_object('part', x.ord - 1))
								 ORDER BY x.ord, e.n)
				FROM unnest(array_agg(w.result), array_agg(w.ord)) AS x(result, ord),
					 jsonb_array_elements(x.result::jsonb) WITH ORDINALITY AS e(value, n))
		INTO nodes, node_rows
		FROM @extschema@._bench_cluster_citus(command, false) WITH ORDINALITY AS w(node, result, wall_ms, ord);
	END IF;

	RETURN QUERY SELECT * FROM @extschema@._bench_cluster_io_rows(nodes, node_rows);

	IF p_record THEN
		SELECT jsonb_agg(to_jsonb(t)) INTO totals
		FROM @extschema@._bench_cluster_io_rows(nodes, node_rows) t
		WHERE t.node = 'total';
		args := jsonb_build_object('cluster', p_cluster, 'engine', target.engine,
								   'nodes', cardinality(nodes), 'node_names', to_jsonb(nodes),
								   'tablespace', p_tablespace, 'size', p_size,
								   'block_size', p_block_size, 'tests', to_jsonb(p_tests),
								   'streams', p_streams, 'direct', p_direct, 'iodepth', p_iodepth,
								   'duration_s', extract(epoch FROM p_duration),
								   'label', p_label, 'record', p_record);
		PERFORM @extschema@._bench_cluster_record('cluster_tablespace_io', p_cluster || '/' || p_tablespace,
									  totals, p_label, args);
	END IF;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_tablespace_io(name, name, text, text, text[], integer, boolean, interval, text, boolean, integer) IS
'internal: bench_cluster_tablespace_io''s implementation';

CREATE FUNCTION bench_cluster_tablespace_io(
	cluster name,						-- a PL/Proxy server (nodes p0, p1, ...), or 'citus'
	tablespace name DEFAULT 'pg_default',	-- the tablespace of that name on each node
	size text DEFAULT '1GB',			-- per stream and node, pg_size_bytes syntax
	block_size text DEFAULT '8kB',		-- a power of two, 512 bytes .. 16 MB
	tests text[] DEFAULT '{seqwrite,seqread,randread}',	-- also randwrite, sync
	streams integer DEFAULT 1,			-- concurrent streams per node
	direct boolean DEFAULT true,		-- O_DIRECT
	duration interval DEFAULT '10s',	-- cap of the random and sync tests
	label text DEFAULT NULL,			-- recorded with the run, on the nodes and the coordinator
	record boolean DEFAULT true,		-- false: record nothing, anywhere
	iodepth integer DEFAULT 1,			-- operations in flight per stream, 1 .. 256 (io_uring above 1)
	OUT node text,						-- the node (p0, p1, ...; Citus: host:port), or 'total'
	OUT tablespace name,				-- the tablespace
	OUT test text,						-- seqwrite, seqread, randread, randwrite or sync
	OUT block_size text,				-- bytes per operation, e.g. '8kB'
	OUT streams integer,				-- streams that ran; total: summed over the nodes
	OUT direct boolean,					-- O_DIRECT used; total: NULL unless the same everywhere
	OUT iodepth integer,				-- operations in flight per stream (sync: 1); total: NULL unless the same everywhere
	OUT bytes bigint,					-- bytes read or written; total: summed
	OUT elapsed_ms float8,				-- node: first start to last end, ms; total: the slowest node's
	OUT mb_per_s float8,				-- MB (2^20 bytes) per second; total: the sum of the nodes' rates
	OUT iops float8,					-- operations per second; total: the sum of the nodes' rates
	OUT lat_avg_us float8,				-- latency of one operation: mean, microseconds; total: the worst node's
	OUT lat_p50_us float8,				-- median; total: the worst node's
	OUT lat_p95_us float8,				-- 95th percentile; total: the worst node's
	OUT lat_p99_us float8,				-- 99th percentile; total: the worst node's
	OUT lat_p999_us float8,				-- 99.9th percentile; total: the worst node's
	OUT lat_max_us float8,				-- maximum; total: the worst node's
	OUT min_mb_per_s float8,			-- total: the slowest node's mb_per_s; NULL on node rows
	OUT max_mb_per_s float8,			-- total: the fastest node's mb_per_s; NULL on node rows
	OUT skew float8						-- total: max_mb_per_s / min_mb_per_s (1.0 = even); NULL on node rows
)
RETURNS SETOF record
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT * FROM @extschema@._bench_cluster_tablespace_io($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11);
$$;

COMMENT ON FUNCTION bench_cluster_tablespace_io(name, name, text, text, text[], integer, boolean, interval, text, boolean, integer) IS
'bench_tablespace_io on every node of a cluster at once, one row per node and test, and a total row per test summing the nodes'' rates';

GRANT EXECUTE ON FUNCTION bench_cluster_tablespace_io(name, name, text, text, text[], integer, boolean, interval, text, boolean, integer) TO PUBLIC;

--
-- Citus: every shard counted once.  A reference table has a copy (a
-- placement) on every worker, and a table with citus.shard_replication_factor
-- above 1 several: each worker used to scan every placement it held, so
-- such a table was counted once per copy.  From 1.1 the coordinator picks
-- one active placement per shard, on the first worker by name and port
-- that holds one, else on the coordinator (a Citus local table, or shards
-- the coordinator holds alone: then the coordinator scans too), and each
-- node scans only the shards picked for it (pg_dist_local_group says which
-- group a node is).  Without Citus's placement catalog (a stand-in) every
-- worker scans what it holds, as in 1.0.
--
CREATE FUNCTION _bench_cluster_citus_shard_groups(relation regclass)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	groups jsonb;
BEGIN
	IF to_regclass('pg_catalog.pg_dist_placement') IS NULL
	   OR to_regclass('pg_catalog.pg_dist_node') IS NULL
	   OR to_regclass('pg_catalog.pg_dist_shard') IS NULL THEN
		RETURN NULL;
	END IF;
	-- the names as citus_shard_names writes them
	EXECUTE $q$
		SELECT jsonb_object_agg(x.name, x.groupid)
		FROM (SELECT DISTINCT ON (s.shardid)
					 CASE WHEN cardinality(parse_ident(pg_catalog.shard_name(s.logicalrelid, s.shardid))) = 1
						  THEN quote_ident(ns.nspname) || '.' || pg_catalog.shard_name(s.logicalrelid, s.shardid)
						  ELSE pg_catalog.shard_name(s.logicalrelid, s.shardid) END AS name,
					 p.groupid
			  FROM pg_catalog.pg_dist_shard s
			  JOIN pg_catalog.pg_dist_placement p ON p.shardid = s.shardid
			  JOIN pg_catalog.pg_dist_node n ON n.groupid = p.groupid
			  JOIN pg_catalog.pg_class c ON c.oid = s.logicalrelid
			  JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace
			  WHERE s.logicalrelid = $1 AND p.shardstate = 1
				AND n.isactive AND n.noderole = 'primary'
			  ORDER BY s.shardid, n.groupid = 0, n.nodename, n.nodeport) x
	$q$ INTO groups USING relation;
	RETURN groups;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_citus_shard_groups(regclass) IS
'internal: for each shard of a Citus table, the group (worker) whose placement a scan reads';

--
-- Citus's run_command_on_workers opens a new connection to every worker
-- for each call (FORCE_NEW_CONNECTION in Citus's citus_tools.c): a new
-- backend on each worker, which loads its libraries and maps the shared
-- buffers before it can scan.  That is about 40 ms with an idle worker and
-- 100 ms more once it touches 256 MB of shared buffers, all inside the
-- coordinator's clock: a warm scan of 256 MB per worker measured 102.6 %
-- over the slowest worker's own time.  From 1.1 the Citus path keeps one
-- connection per node and session open through contrib dblink, as PL/Proxy
-- keeps its own, when the caller may open such connections
-- (dblink_connect_u, superusers by default); everyone else, and every call
-- whose kept connections cannot be opened, goes through Citus's own
-- dispatch as before.  benchstore_cluster.citus_connections = 'new' asks
-- for Citus's dispatch every time.
--
-- _bench_cluster_citus_pool(): the schema of a usable dblink, or NULL when
-- the kept connections cannot be used (no Citus node catalog, no dblink in
-- this database, no right to dblink_connect_u, or the setting says 'new').
--
CREATE FUNCTION _bench_cluster_citus_pool()
RETURNS name
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	setting text := coalesce(nullif(current_setting('benchstore_cluster.citus_connections', true), ''),
							 'keep');
	dblink name;
BEGIN
	IF setting NOT IN ('keep', 'new') THEN
		RAISE EXCEPTION 'invalid value for parameter "benchstore_cluster.citus_connections": "%"', setting
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Available values: keep, new.';
	END IF;
	IF setting = 'new' OR to_regclass('pg_catalog.pg_dist_node') IS NULL THEN
		RETURN NULL;
	END IF;
	SELECT n.nspname INTO dblink
	FROM pg_catalog.pg_extension e
	JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'dblink';
	IF dblink IS NULL
	   OR to_regprocedure(quote_ident(dblink) || '.dblink_connect_u(text,text)') IS NULL
	   OR NOT has_function_privilege(quote_ident(dblink) || '.dblink_connect_u(text,text)', 'EXECUTE') THEN
		RETURN NULL;
	END IF;
	RETURN dblink;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_citus_pool() IS
'internal: the schema of the dblink that keeps connections to the Citus nodes, or NULL when Citus''s own dispatch is used';

-- libpq's connection-string quoting: the value in single quotes, \ and '
-- escaped.  Internal.
CREATE FUNCTION _bench_cluster_conninfo_value(value text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT '''' || replace(replace(value, '\', '\\'), '''', '\''') || ''''
$$;

COMMENT ON FUNCTION _bench_cluster_conninfo_value(text) IS
'internal: a value quoted for a libpq connection string';

--
-- _bench_cluster_citus_kept(dblink, command, all_nodes): the command on
-- every active primary worker (and the coordinator when all_nodes) at once,
-- over connections named benchstore_citus_<nodeid> that stay open for the
-- session.  A kept connection is checked with a round trip and opened anew
-- when it broke (a restarted node, an abandoned result).  Returns what
-- run_command_on_workers would, as a jsonb array of {node, success,
-- result}, or NULL when a connection cannot be opened: the caller then
-- goes through Citus, which names the node that cannot be reached.  A
-- cancel (or statement_timeout) while the nodes run cancels their commands
-- and closes the connections.
--
CREATE FUNCTION _bench_cluster_citus_kept(dblink name, command text, all_nodes boolean)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	lib text := quote_ident(dblink);
	kept text[];
	n record;
	conn text;
	conns text[] := '{}';
	names text[] := '{}';
	extra text := coalesce(current_setting('citus.node_conninfo', true), '');
	busy integer;
	value text;
	e_message text;
	res jsonb := '[]';
	i integer;
BEGIN
	EXECUTE format('SELECT %s.dblink_get_connections()', lib) INTO kept;
	kept := coalesce(kept, '{}');
	FOR n IN EXECUTE $q$
		SELECT nodeid, nodename, nodeport
		FROM pg_catalog.pg_dist_node
		WHERE isactive AND noderole = 'primary' AND (groupid <> 0 OR $1)
		ORDER BY nodename, nodeport
	$q$ USING all_nodes
	LOOP
		conn := 'benchstore_citus_' || n.nodeid;
		IF conn = ANY (kept) THEN
			BEGIN
				EXECUTE format('SELECT %s.dblink_exec($1, $2)', lib) USING conn, 'DO $do$BEGIN END$do$';
			EXCEPTION WHEN OTHERS THEN
				EXECUTE format('SELECT %s.dblink_disconnect($1)', lib) USING conn;
				kept := array_remove(kept, conn);
			END;
		END IF;
		IF NOT conn = ANY (kept) THEN
			BEGIN
				EXECUTE format('SELECT %s.dblink_connect_u($1, $2)', lib)
					USING conn,
						  format('host=%s port=%s dbname=%s user=%s application_name=benchstore_cluster %s',
								 @extschema@._bench_cluster_conninfo_value(n.nodename), n.nodeport,
								 @extschema@._bench_cluster_conninfo_value(current_database()::pg_catalog.text),
								 @extschema@._bench_cluster_conninfo_value(current_user::pg_catalog.text), extra);
			EXCEPTION WHEN OTHERS THEN
				RETURN NULL;
			END;
		END IF;
		conns := conns || conn;
		names := names || (n.nodename || ':' || n.nodeport);
	END LOOP;
	IF cardinality(conns) = 0 THEN
		RETURN NULL;
	END IF;

	FOR i IN 1 .. cardinality(conns) LOOP
		EXECUTE format('SELECT %s.dblink_send_query($1, $2)', lib) USING conns[i], command;
	END LOOP;
	-- Wait for every node, a millisecond at a time: dblink_get_result
	-- cannot be interrupted before PostgreSQL 17, a sleep can.
	BEGIN
		FOR i IN 1 .. cardinality(conns) LOOP
			LOOP
				EXECUTE format('SELECT %s.dblink_is_busy($1)', lib) INTO busy USING conns[i];
				EXIT WHEN busy = 0;
				PERFORM pg_sleep(0.001);
			END LOOP;
		END LOOP;
	EXCEPTION WHEN query_canceled THEN
		FOR i IN 1 .. cardinality(conns) LOOP
			EXECUTE format('SELECT %s.dblink_cancel_query($1)', lib) USING conns[i];
			EXECUTE format('SELECT %s.dblink_disconnect($1)', lib) USING conns[i];
		END LOOP;
		RAISE;
	END;

	FOR i IN 1 .. cardinality(conns) LOOP
		BEGIN
			EXECUTE format('SELECT r.v FROM %s.dblink_get_result($1) AS r(v text)', lib)
				INTO STRICT value USING conns[i];
			res := res || jsonb_build_array(jsonb_build_object('node', names[i], 'success', true,
															   'result', value));
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS e_message = MESSAGE_TEXT;
			res := res || jsonb_build_array(jsonb_build_object('node', names[i], 'success', false,
															   'result', e_message));
		END;
		-- the end of the results, before the connection is used again
		BEGIN
			EXECUTE format('SELECT count(*) FROM %s.dblink_get_result($1) AS r(v text)', lib)
				USING conns[i];
		EXCEPTION WHEN OTHERS THEN
			EXECUTE format('SELECT %s.dblink_disconnect($1)', lib) USING conns[i];
		END;
	END LOOP;
	RETURN res;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_citus_kept(name, text, boolean) IS
'internal: a command on every Citus node at once over connections kept open for the session (dblink), or NULL when they cannot be opened';

--
-- _bench_cluster_citus(command, all_nodes): as _bench_cluster_citus(command),
-- on the coordinator too when all_nodes (through Citus's
-- run_command_on_all_nodes, at the same time as the workers); over the
-- kept connections when _bench_cluster_citus_pool allows.  Internal.
--
CREATE FUNCTION _bench_cluster_citus(
	command text,
	all_nodes boolean,				-- the coordinator too (run_command_on_all_nodes)
	OUT node text,					-- nodename:nodeport
	OUT result text,				-- the command's one value
	OUT wall_ms float8				-- the fan-out's wall-clock time, ms (the same on every row)
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	res jsonb;
	failed record;
	t0 timestamptz;
	elapsed float8;
	dblink name := @extschema@._bench_cluster_citus_pool();
BEGIN
	IF dblink IS NOT NULL THEN
		t0 := clock_timestamp();
		res := @extschema@._bench_cluster_citus_kept(dblink, command, all_nodes);
	END IF;
	IF res IS NULL THEN
		t0 := clock_timestamp();
		IF all_nodes THEN
			EXECUTE $q$
				SELECT jsonb_agg(jsonb_build_object('node', n.nodename || ':' || n.nodeport,
													'success', w.success, 'result', w.result))
				FROM pg_catalog.run_command_on_all_nodes($1, true) w
				JOIN pg_catalog.pg_dist_node n ON n.nodeid = w.nodeid
			$q$ INTO res USING command;
		ELSE
			SELECT jsonb_agg(jsonb_build_object('node', w.nodename || ':' || w.nodeport,
												'success', w.success, 'result', w.result))
			INTO res
			FROM pg_catalog.run_command_on_workers(command, true) w;
		END IF;
	END IF;
	elapsed := extract(epoch FROM clock_timestamp() - t0) * 1000;

	IF res IS NULL THEN
		RAISE EXCEPTION 'Citus has no active worker nodes'
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = 'citus_add_node adds one.';
	END IF;
	SELECT r.node, r.result INTO failed
	FROM jsonb_to_recordset(res) AS r(node text, success boolean, result text)
	WHERE NOT r.success
	ORDER BY r.node
	LIMIT 1;
	IF FOUND THEN
		RAISE EXCEPTION 'node "%" of cluster "citus" failed', failed.node
			USING DETAIL = coalesce(failed.result, 'no message');
	END IF;

	RETURN QUERY
	SELECT r.node, r.result, elapsed
	FROM jsonb_to_recordset(res) AS r(node text, result text)
	ORDER BY r.node;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_citus(text, boolean) IS
'internal: a command on every Citus worker (and the coordinator) at once, failures raised under the node''s name';


CREATE FUNCTION _bench_cluster_citus_scan_command(
	shards text[],
	groups jsonb,					-- shard name -> the Citus group (node) that scans it; NULL: any node holding it
	mode text,
	cache text,
	label text,
	record boolean,
	workers integer
)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
-- (built-ins named with pg_catalog and every argument of its exact type,
-- so that nothing another role put on the node's search_path matches
-- better; bench_seqscan is found on the node's own search_path)
SELECT format($c$
SELECT pg_catalog.json_build_object(
	'run', 1,
	'tablespace', CASE WHEN pg_catalog.count(DISTINCT s.tablespace) = 1::pg_catalog.int8
						AND pg_catalog.count(s.tablespace) = pg_catalog.count(*)
					   THEN pg_catalog.min(s.tablespace::pg_catalog.text) END,
	'mode', pg_catalog.min(s.mode), 'cache', pg_catalog.min(s.cache),
	'pages', coalesce(pg_catalog.sum(s.pages), 0::pg_catalog.numeric),
	'size_mb', coalesce(pg_catalog.sum(s.size_mb), 0::pg_catalog.float8),
	'tuples', CASE WHEN pg_catalog.count(s.tuples) = pg_catalog.count(*)
				   THEN coalesce(pg_catalog.sum(s.tuples), 0::pg_catalog.numeric) END,
	'elapsed_ms', pg_catalog.round(coalesce(pg_catalog.sum(s.elapsed_ms), 0::pg_catalog.float8)::pg_catalog.numeric, 3),
	'mb_per_s', pg_catalog.round((pg_catalog.sum(s.size_mb)
								  / nullif(pg_catalog.sum(s.elapsed_ms) / 1000::pg_catalog.float8,
										   0::pg_catalog.float8))::pg_catalog.numeric, 2),
	'tuples_per_s', CASE WHEN pg_catalog.count(s.tuples) = pg_catalog.count(*)
						 THEN pg_catalog.round((pg_catalog.sum(s.tuples)::pg_catalog.float8
												/ nullif(pg_catalog.sum(s.elapsed_ms) / 1000::pg_catalog.float8,
														 0::pg_catalog.float8))::pg_catalog.numeric) END,
	'blks_hit', coalesce(pg_catalog.sum(s.blks_hit), 0::pg_catalog.numeric),
	'blks_read', coalesce(pg_catalog.sum(s.blks_read), 0::pg_catalog.numeric),
	'read_ms', CASE WHEN pg_catalog.count(s.read_ms) = pg_catalog.count(*)
					THEN pg_catalog.round(coalesce(pg_catalog.sum(s.read_ms), 0::pg_catalog.float8)::pg_catalog.numeric, 3) END,
	'os_read_mb', CASE WHEN pg_catalog.count(s.os_read_mb) = pg_catalog.count(*)
					   THEN coalesce(pg_catalog.sum(s.os_read_mb), 0::pg_catalog.float8) END,
	'workers_requested', %s::pg_catalog.int4,
	'workers_launched', pg_catalog.min(s.workers_launched),
	'shards', coalesce(pg_catalog.json_agg(l.name), '[]'::pg_catalog.json))::pg_catalog.text
FROM (SELECT n.name, pg_catalog.to_regclass(n.name) AS rel
	  FROM pg_catalog.unnest(%L::pg_catalog.text[]) AS n(name)
	  WHERE pg_catalog.to_regclass(n.name) IS NOT NULL%s
	  OFFSET 0) l
CROSS JOIN LATERAL bench_seqscan(relation => l.rel, mode => %L::pg_catalog.text,
								 cache => %L::pg_catalog.text, repeat => 1::pg_catalog.int4,
								 label => %L::pg_catalog.text, record => %L::pg_catalog.bool,
								 workers => %s::pg_catalog.int4) s
$c$, workers, shards,
	   CASE WHEN groups IS NOT NULL
			THEN format(E'\n\t    AND (%L::pg_catalog.jsonb OPERATOR(pg_catalog.->>) n.name)::pg_catalog.int4 = (SELECT g.groupid FROM pg_catalog.pg_dist_local_group g)',
						groups)
			ELSE '' END,
	   mode, cache, label, record, workers);
$$;

COMMENT ON FUNCTION _bench_cluster_citus_scan_command(text[], jsonb, text, text, text, boolean, integer) IS
'internal: the command a Citus worker runs to scan the shards picked for it';

CREATE OR REPLACE FUNCTION _bench_cluster_seqscan(
	p_cluster name,
	p_relation text,
	p_mode text,
	p_cache text,
	p_repeat integer,
	p_label text,
	p_record boolean,
	p_workers integer,
	p_relid regclass				-- Citus: the relation on the caller's search_path
)
RETURNS SETOF _bench_cluster_seqscan_result
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	am_name name;
	groups jsonb;
	on_coordinator boolean := false;
	moved_shard text;
	moved_node text;
	target record;
	nodes text[];
	parts integer[];
	cold boolean;
	rel regclass;
	shards text[];
	scan_command text;
	evict_command text;
	missing text[];
	node_rows @extschema@._bench_cluster_seqscan_node[];
	t0 timestamptz;
	wall_ms float8;
	totals jsonb := '[]';
	args jsonb;
	e_state text;
	e_message text;
	e_hint text;
BEGIN
	IF p_relation IS NULL THEN
		RAISE EXCEPTION 'relation cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_mode IS NULL THEN
		RAISE EXCEPTION 'mode cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_cache IS NULL THEN
		RAISE EXCEPTION 'cache cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_repeat IS NULL THEN
		RAISE EXCEPTION 'repeat cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_record IS NULL THEN
		RAISE EXCEPTION 'record cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_workers IS NULL THEN
		RAISE EXCEPTION 'workers cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF lower(p_mode) NOT IN ('heap', 'buffer', 'raw') THEN
		RAISE EXCEPTION 'invalid mode "%"', p_mode
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Valid values are "heap", "buffer", and "raw".';
	END IF;
	IF lower(p_cache) NOT IN ('warm', 'cold') THEN
		RAISE EXCEPTION 'invalid cache "%"', p_cache
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Valid values are "warm" and "cold".';
	END IF;
	-- the coordinator runs the repeats, one fan-out each
	IF p_repeat < 1 OR p_repeat > 1000 THEN
		RAISE EXCEPTION 'repeat must be between 1 and 1000'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_workers < 0 OR p_workers > 64 THEN
		RAISE EXCEPTION 'workers must be between 0 and 64'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	cold := lower(p_cache) = 'cold';

	target := @extschema@._bench_cluster_target(p_cluster);
	PERFORM @extschema@._bench_cluster_check_label(p_label, p_record);

	IF target.engine = 'plproxy' THEN
		nodes := target.nodes;
		parts := ARRAY(SELECT generate_series(0, cardinality(nodes) - 1));
		-- Untimed: connect to every node (a new session's first fan-out
		-- would otherwise time the connections).
		IF NOT cold THEN
			BEGIN
				PERFORM FROM @extschema@._bench_cluster_ping_plproxy(p_cluster, parts);
			EXCEPTION WHEN OTHERS THEN
				GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
										e_hint = PG_EXCEPTION_HINT;
				PERFORM @extschema@._bench_cluster_blame_plproxy(p_cluster, nodes, 'ping'::pg_catalog.text, p_relation, NULL::pg_catalog.name, NULL::pg_catalog.jsonb,
													 e_state, e_message, e_hint);
				RAISE;
			END;
		END IF;
	ELSE
		rel := p_relid;
		IF rel IS NULL THEN
			RAISE EXCEPTION 'relation "%" does not exist', p_relation
				USING ERRCODE = 'undefined_table';
		END IF;
		shards := @extschema@.citus_shard_names(rel);
		IF coalesce(cardinality(shards), 0) = 0 THEN
			RAISE EXCEPTION 'relation "%" is not a Citus distributed table', p_relation
				USING ERRCODE = 'wrong_object_type',
					  HINT = 'bench_seqscan measures a table of this node.';
		END IF;
		-- 1.1: a table of another access method (Citus's columnar) is
		-- refused in heap mode here, naming it, rather than by every worker
		IF lower(p_mode) = 'heap' THEN
			SELECT a.amname INTO am_name
			FROM pg_class c JOIN pg_am a ON a.oid = c.relam
			WHERE c.oid = rel;
			IF am_name IS NOT NULL AND am_name <> 'heap' THEN
				RAISE EXCEPTION 'mode "heap" cannot scan relation "%"', p_relation
					USING ERRCODE = 'feature_not_supported',
						  DETAIL = format('Relation "%s" uses the table access method "%s"; only "heap" is supported.',
										  p_relation, am_name),
						  HINT = 'Modes "buffer" and "raw" read any relation with storage.';
			END IF;
		END IF;
		-- 1.1: each shard is scanned on one worker only, the one that
		-- _bench_cluster_citus_shard_groups picks among its placements (a
		-- reference table's copy on every worker is read once)
		groups := @extschema@._bench_cluster_citus_shard_groups(rel);
		on_coordinator := EXISTS (SELECT 1 FROM jsonb_each_text(groups) g WHERE g.value = '0');
		scan_command := @extschema@._bench_cluster_citus_scan_command(shards, groups,
														  p_mode, p_cache, p_label,
														  p_record, p_workers);
		evict_command := @extschema@._bench_cluster_citus_evict_command(shards);
	END IF;

	FOR r IN 1 .. p_repeat LOOP
		IF target.engine = 'plproxy' THEN
			-- Untimed: the checkpoint and eviction before a cold scan, so
			-- that the timed fan-out's own (then nearly empty) ones add
			-- little to the coordinator's clock.
			IF cold THEN
				BEGIN
					PERFORM FROM @extschema@._bench_cluster_evict_plproxy(p_cluster, parts, p_relation);
				EXCEPTION WHEN OTHERS THEN
					GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
											e_hint = PG_EXCEPTION_HINT;
					PERFORM @extschema@._bench_cluster_blame_plproxy(p_cluster, nodes, 'evict'::pg_catalog.text, p_relation, NULL::pg_catalog.name, NULL::pg_catalog.jsonb,
														 e_state, e_message, e_hint);
					RAISE;
				END;
			END IF;
			t0 := clock_timestamp();
			BEGIN
				node_rows := ARRAY(SELECT x FROM @extschema@._bench_cluster_seqscan_plproxy(
										p_cluster, parts, p_relation, p_mode, p_cache,
										p_label, p_record, p_workers) x);
			EXCEPTION WHEN OTHERS THEN
				GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
										e_hint = PG_EXCEPTION_HINT;
				PERFORM @extschema@._bench_cluster_blame_plproxy(p_cluster, nodes, 'seqscan'::pg_catalog.text, p_relation, NULL::pg_catalog.name,
						jsonb_build_object('mode', p_mode, 'cache', p_cache, 'label', p_label,
										   'workers', p_workers),
						e_state, e_message, e_hint);
				RAISE;
			END;
			wall_ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
		ELSE
			IF cold THEN
				PERFORM FROM @extschema@._bench_cluster_citus(evict_command, on_coordinator);
			END IF;
			SELECT array_agg(w.node ORDER BY w.ord),
				   array_agg(jsonb_populate_record(NULL::@extschema@._bench_cluster_seqscan_node,
						w.result::jsonb || jsonb_build_object('part', w.ord - 1,
															  'relation', p_relation))
							 ORDER BY w.ord),
				   max(w.wall_ms),
				   ARRAY(SELECT unnest(shards)
						 EXCEPT
						 SELECT jsonb_array_elements_text(x.result::jsonb -> 'shards')
						 FROM unnest(array_agg(w.result)) AS x(result))
			INTO nodes, node_rows, wall_ms, missing
			FROM @extschema@._bench_cluster_citus(scan_command, on_coordinator) WITH ORDINALITY AS w(node, result, wall_ms, ord);
			-- a shard picked for a node but not found there moved (or was
			-- dropped) between the listing and the scan: the figures would
			-- leave it out, so the run fails, naming the shard and its node
			IF groups IS NOT NULL AND cardinality(missing) > 0 THEN
				EXECUTE $q$
					SELECT g.key, n.nodename || ':' || n.nodeport
					FROM jsonb_each_text($1) g
					JOIN pg_catalog.pg_dist_node n ON n.groupid = g.value::integer
												  AND n.noderole = 'primary'
					WHERE g.key = ANY ($2)
					ORDER BY g.key LIMIT 1
				$q$ INTO moved_shard, moved_node USING groups, missing;
			END IF;
			IF moved_shard IS NOT NULL THEN
				RAISE EXCEPTION 'shard "%" of relation "%" was not found on node "%" of cluster "citus"',
								moved_shard, p_relation, moved_node
					USING ERRCODE = 'object_not_in_prerequisite_state',
						  DETAIL = 'It was listed there when the run started; it moved or was dropped since (citus_move_shard_placement, a rebalance).',
						  HINT = 'Run it again.';
			END IF;
			IF cardinality(missing) > 0 AND r = 1 THEN
				RAISE WARNING '% of % shards of relation "%" were found on no worker',
							  cardinality(missing), cardinality(shards), p_relation
					USING DETAIL = 'Only the workers are scanned (shards the coordinator holds are not): '
								   || array_to_string(missing[1:5], ', ')
								   || CASE WHEN cardinality(missing) > 5 THEN ', ...' ELSE '' END || '.';
			END IF;
		END IF;
		RETURN QUERY
		SELECT * FROM @extschema@._bench_cluster_seqscan_rows(nodes, node_rows, r, wall_ms, p_relation);
		IF p_record THEN
			totals := totals || (SELECT jsonb_agg(to_jsonb(t))
								 FROM @extschema@._bench_cluster_seqscan_rows(nodes, node_rows, r, wall_ms,
																  p_relation) t
								 WHERE t.node = 'total');
		END IF;
	END LOOP;

	IF p_record THEN
		args := jsonb_build_object('cluster', p_cluster, 'engine', target.engine,
								   'nodes', cardinality(nodes), 'node_names', to_jsonb(nodes),
								   'relation', p_relation, 'mode', p_mode, 'cache', p_cache,
								   'repeat', p_repeat, 'label', p_label, 'record', p_record,
								   'workers', p_workers);
		-- the target names the cluster: neither a relation nor a tablespace
		-- of the coordinator, whose settings snapshot would mislead
		PERFORM @extschema@._bench_cluster_record('cluster_seqscan',
									  p_cluster || '/' || coalesce(totals -> 0 ->> 'relation', p_relation),
									  totals, p_label, args);
	END IF;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_seqscan(name, text, text, text, integer, text, boolean, integer, regclass) IS
'internal: bench_cluster_seqscan''s implementation';

-- The evict command's built-ins named with pg_catalog, its argument typed
-- (see _bench_cluster_citus_scan_command).
CREATE OR REPLACE FUNCTION _bench_cluster_citus_evict_command(shards text[])
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT format($c$
SELECT pg_catalog.count(e.*)::pg_catalog.text
FROM (SELECT pg_catalog.to_regclass(n.name) AS rel
	  FROM pg_catalog.unnest(%L::pg_catalog.text[]) AS n(name)
	  WHERE pg_catalog.to_regclass(n.name) IS NOT NULL
	  OFFSET 0) l
CROSS JOIN LATERAL bench_cache_evict(l.rel) e
$c$, shards);
$$;
