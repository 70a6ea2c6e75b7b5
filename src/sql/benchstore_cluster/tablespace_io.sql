-- src/sql/benchstore_cluster/tablespace_io.sql: bench_cluster_tablespace_io.

CREATE OR REPLACE FUNCTION _bench_cluster_io_plproxy(
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

CREATE OR REPLACE FUNCTION _bench_cluster_io_rows(
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

CREATE OR REPLACE FUNCTION _bench_cluster_tablespace_io(
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

CREATE OR REPLACE FUNCTION bench_cluster_tablespace_io(
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
