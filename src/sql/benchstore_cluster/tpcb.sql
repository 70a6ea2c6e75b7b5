-- src/sql/benchstore_cluster/tpcb.sql: bench_cluster_tpcb.

-- A plain SELECT over bench_tpcb alone, so that the node gives up its
-- statement's xmin while its clients run (see bench_tpcb's notes).
CREATE OR REPLACE FUNCTION _bench_cluster_tpcb_plproxy(
	i_cluster name,
	i_parts integer[],
	i_clients integer,
	i_duration interval,
	i_schema name,
	i_label text,
	i_record boolean,
	i_ramp interval
)
RETURNS SETOF _bench_cluster_tpcb_node
LANGUAGE plproxy
AS $$
	CLUSTER pg_catalog.text(i_cluster);
	SPLIT i_parts;
	RUN ON i_parts;
	SELECT (i_parts)[1] AS part, s.*
	FROM bench_tpcb(clients => i_clients, duration => i_duration, schema => i_schema,
					label => i_label, record => i_record, ramp => i_ramp) s;
$$;

COMMENT ON FUNCTION _bench_cluster_tpcb_plproxy(name, integer[], integer, interval, name, text, boolean, interval) IS
'internal: one bench_tpcb run on each of the partitions given (PL/Proxy)';

--
-- The command a Citus worker runs: bench_tpcb on the worker's own tables,
-- its row as one value (a whole-row reference, so that the statement is a
-- plain SELECT over bench_tpcb alone).  Every value quoted with %L and
-- typed, as the other commands'.
--
CREATE OR REPLACE FUNCTION _bench_cluster_citus_tpcb_command(
	clients integer,
	duration interval,
	schema name,
	label text,
	record boolean,
	ramp interval
)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT format('SELECT t FROM bench_tpcb(clients => %L::pg_catalog.int4, duration => %L::pg_catalog.interval, schema => %L::pg_catalog.name, label => %L::pg_catalog.text, record => %L::pg_catalog.bool, ramp => %L::pg_catalog.interval) t',
			  clients, duration, schema, label, record, ramp);
$$;

COMMENT ON FUNCTION _bench_cluster_citus_tpcb_command(integer, interval, name, text, boolean, interval) IS
'internal: the command a Citus worker runs for bench_cluster_tpcb';

--
-- _bench_cluster_tpcb_rows: the node rows (by node order) and the total
-- row, from the nodes' rows and the coordinator's wall time of the
-- fan-out.  The total's transactions per second are the sum of the
-- nodes' (each over its own timed run, which ran at the same time as the
-- others'); its elapsed_ms is the coordinator's wall-clock time of the
-- whole fan-out, connections and set-up included.  Internal.
--
CREATE OR REPLACE FUNCTION _bench_cluster_tpcb_rows(
	nodes text[],
	node_rows _bench_cluster_tpcb_node[],
	wall_ms float8
)
RETURNS SETOF _bench_cluster_tpcb_result
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
WITH n AS (
	SELECT x.* FROM unnest(node_rows) x
),
out AS (
	SELECT n.part AS ord, nodes[n.part + 1] AS node, n.clients, n.scale, n.schema, n.tablespace,
		   n.elapsed_ms, n.connect_ms, n.transactions, n.tps, n.tps_with_connect,
		   n.lat_avg_ms, n.lat_p50_ms, n.lat_p95_ms, n.lat_p99_ms, n.lat_max_ms,
		   n.blks_hit, n.blks_read, n.os_read_mb, n.wal_bytes, n.wal_bytes_per_tx, n.wal_fpi,
		   n.wal_flushes, n.checkpoints, n.notes,
		   NULL::float8 AS min_tps, NULL::float8 AS max_tps, NULL::float8 AS skew
	FROM n
	UNION ALL
	SELECT 2147483647, 'total',
		   sum(n.clients)::integer,
		   sum(n.scale)::integer,
		   CASE WHEN count(DISTINCT n.schema) = 1 THEN min(n.schema::text)::name END,
		   CASE WHEN count(DISTINCT n.tablespace) = 1 AND count(n.tablespace) = count(*)
				THEN min(n.tablespace::text)::name END,
		   round(wall_ms::numeric, 3)::float8,
		   max(n.connect_ms),
		   sum(n.transactions)::bigint,
		   round(sum(n.tps)::numeric, 1)::float8,
		   round(sum(n.tps_with_connect)::numeric, 1)::float8,
		   CASE WHEN count(n.lat_avg_ms) = count(*)
				THEN round((sum(n.lat_avg_ms * n.transactions) / nullif(sum(n.transactions), 0))::numeric, 3)::float8 END,
		   max(n.lat_p50_ms),
		   max(n.lat_p95_ms),
		   max(n.lat_p99_ms),
		   max(n.lat_max_ms),
		   sum(n.blks_hit)::bigint,
		   sum(n.blks_read)::bigint,
		   CASE WHEN count(n.os_read_mb) = count(*) THEN sum(n.os_read_mb) END,
		   sum(n.wal_bytes)::bigint,
		   round((sum(n.wal_bytes) / nullif(sum(n.transactions), 0))::numeric, 1)::float8,
		   sum(n.wal_fpi)::bigint,
		   CASE WHEN count(n.wal_flushes) = count(*) THEN sum(n.wal_flushes)::bigint END,
		   sum(n.checkpoints)::integer,
		   -- every node says where its transactions waited (last in its
		   -- notes); the total counts the nodes that say more
		   CASE WHEN count(*) FILTER (WHERE regexp_replace(n.notes, ' ?Every transaction waited for its WAL to be flushed in pg_wal.*$', '') <> '') > 0
				THEN format('%s of %s nodes have notes.',
							count(*) FILTER (WHERE regexp_replace(n.notes, ' ?Every transaction waited for its WAL to be flushed in pg_wal.*$', '') <> ''),
							count(*)) END,
		   min(n.tps),
		   max(n.tps),
		   round((max(n.tps) / nullif(min(n.tps), 0))::numeric, 3)::float8
	FROM n
)
SELECT o.node, o.clients, o.scale, o.schema, o.tablespace, o.elapsed_ms, o.connect_ms,
	   o.transactions, o.tps, o.tps_with_connect, o.lat_avg_ms, o.lat_p50_ms, o.lat_p95_ms,
	   o.lat_p99_ms, o.lat_max_ms, o.blks_hit, o.blks_read, o.os_read_mb, o.wal_bytes,
	   o.wal_bytes_per_tx, o.wal_fpi, o.wal_flushes, o.checkpoints, o.notes,
	   o.min_tps, o.max_tps, o.skew
FROM out o
ORDER BY o.ord;
$$;

COMMENT ON FUNCTION _bench_cluster_tpcb_rows(text[], _bench_cluster_tpcb_node[], float8) IS
'internal: the node rows and the total row of one cluster TPC-B run';

CREATE OR REPLACE FUNCTION _bench_cluster_tpcb(
	p_cluster name,
	p_clients integer,
	p_duration interval,
	p_schema name,
	p_label text,
	p_record boolean,
	p_ramp interval
)
RETURNS SETOF _bench_cluster_tpcb_result
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	target record;
	nodes text[];
	parts integer[];
	node_rows @extschema@._bench_cluster_tpcb_node[];
	t0 timestamptz;
	wall_ms float8;
	totals jsonb;
	args jsonb;
	e_state text;
	e_message text;
	e_hint text;
BEGIN
	IF p_clients IS NULL THEN
		RAISE EXCEPTION 'clients cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_duration IS NULL THEN
		RAISE EXCEPTION 'duration cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_record IS NULL THEN
		RAISE EXCEPTION 'record cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- the nodes' own checks, made once here, before any node runs
	IF p_clients < 1 OR p_clients > 64 THEN
		RAISE EXCEPTION 'clients must be between 1 and 64'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_duration < interval '100 milliseconds' OR p_duration > interval '1 hour' THEN
		RAISE EXCEPTION 'duration must be between 100 ms and 1 hour'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_ramp < interval '0' OR p_ramp > interval '1 hour' THEN
		RAISE EXCEPTION 'ramp must be between 0 and 1 hour'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;

	target := @extschema@._bench_cluster_target(p_cluster);
	PERFORM @extschema@._bench_cluster_check_label(p_label, p_record);

	IF target.engine = 'plproxy' THEN
		nodes := target.nodes;
		parts := ARRAY(SELECT generate_series(0, cardinality(nodes) - 1));
		-- Untimed: connect to every node first.
		BEGIN
			PERFORM FROM @extschema@._bench_cluster_ping_plproxy(p_cluster, parts);
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
									e_hint = PG_EXCEPTION_HINT;
			PERFORM @extschema@._bench_cluster_blame_plproxy(p_cluster, nodes, 'ping'::pg_catalog.text, NULL::pg_catalog.text, NULL::pg_catalog.name, NULL::pg_catalog.jsonb,
												 e_state, e_message, e_hint);
			RAISE;
		END;
		t0 := clock_timestamp();
		BEGIN
			node_rows := ARRAY(SELECT x FROM @extschema@._bench_cluster_tpcb_plproxy(
									p_cluster, parts, p_clients, p_duration, p_schema, p_label,
									p_record, p_ramp) x);
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
									e_hint = PG_EXCEPTION_HINT;
			PERFORM @extschema@._bench_cluster_blame_plproxy(p_cluster, nodes, 'tpcb'::pg_catalog.text, NULL::pg_catalog.text, NULL::pg_catalog.name,
					jsonb_build_object('clients', p_clients, 'schema', p_schema),
					e_state, e_message, e_hint);
			RAISE;
		END;
		wall_ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
	ELSE
		SELECT array_agg(w.node ORDER BY w.ord),
			   array_agg(jsonb_populate_record(NULL::@extschema@._bench_cluster_tpcb_node,
						to_jsonb(w.result::@extschema@._bench_cluster_tpcb_out)
						|| jsonb_build_object('part', w.ord - 1))
						 ORDER BY w.ord),
			   max(w.wall_ms)
		INTO nodes, node_rows, wall_ms
		FROM @extschema@._bench_cluster_citus(
				@extschema@._bench_cluster_citus_tpcb_command(p_clients, p_duration, p_schema,
															  p_label, p_record, p_ramp),
				false) WITH ORDINALITY AS w(node, result, wall_ms, ord);
	END IF;

	RETURN QUERY
	SELECT * FROM @extschema@._bench_cluster_tpcb_rows(nodes, node_rows, wall_ms);
	IF p_record THEN
		totals := (SELECT jsonb_agg(to_jsonb(t))
				   FROM @extschema@._bench_cluster_tpcb_rows(nodes, node_rows, wall_ms) t
				   WHERE t.node = 'total');
		args := jsonb_build_object('cluster', p_cluster, 'engine', target.engine,
								   'nodes', cardinality(nodes), 'node_names', to_jsonb(nodes),
								   'clients', p_clients, 'duration', p_duration::text,
								   'ramp', p_ramp::text,
								   'schema', p_schema, 'label', p_label, 'record', p_record);
		PERFORM @extschema@._bench_cluster_record('cluster_tpcb',
									  p_cluster || '/' || coalesce(totals -> 0 ->> 'schema', p_schema::text, 'search_path')
									  || '.pgbench_accounts',
									  totals, p_label, args);
	END IF;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_tpcb(name, integer, interval, name, text, boolean, interval) IS
'internal: bench_cluster_tpcb''s implementation';

CREATE OR REPLACE FUNCTION bench_cluster_tpcb(
	cluster name,					-- a PL/Proxy server (nodes p0, p1, ...), or 'citus' (its workers)
	clients integer DEFAULT 8,		-- clients on each node, 1 .. 64, as pgbench -c
	duration interval DEFAULT '60s',	-- how long they run, 100 ms .. 1 h, as pgbench -T
	schema name DEFAULT NULL,		-- the schema of each node's pgbench tables; NULL: each node's search_path
	label text DEFAULT NULL,		-- recorded with the run, on the nodes and the coordinator
	record boolean DEFAULT true,	-- false: record nothing, anywhere
	ramp interval DEFAULT NULL,		-- each node's warm-up, left out of its figures (bench_tpcb's ramp); NULL: none, at most 1 h
	OUT node text,					-- the node (p0, p1, ...; Citus: host:port), or 'total'
	OUT clients integer,			-- clients on the node; total: summed
	OUT scale integer,				-- the node's scale; total: summed
	OUT schema name,				-- the node's tables' schema; total: NULL unless the same everywhere
	OUT tablespace name,			-- pgbench_accounts' tablespace; total: NULL unless the same everywhere
	OUT elapsed_ms float8,			-- node: its timed run after its ramp, ms; total: the coordinator's wall-clock time of the whole fan-out (ramps included), ms
	OUT connect_ms float8,			-- node: its clients' start; total: the slowest node's
	OUT transactions bigint,		-- transactions committed; total: summed
	OUT tps float8,					-- node: as bench_tpcb; total: summed (the nodes ran at the same time)
	OUT tps_with_connect float8,	-- as bench_tpcb; total: summed
	OUT lat_avg_ms float8,			-- mean transaction time, ms; total: weighted by the nodes' transactions
	OUT lat_p50_ms float8,			-- median, ms; total: the highest of the nodes'
	OUT lat_p95_ms float8,			-- 95th percentile, ms; total: the highest
	OUT lat_p99_ms float8,			-- 99th percentile, ms; total: the highest
	OUT lat_max_ms float8,			-- the slowest transaction, ms; total: the slowest anywhere
	OUT blks_hit bigint,			-- as bench_tpcb; total: summed
	OUT blks_read bigint,			-- as bench_tpcb; total: summed
	OUT os_read_mb float8,			-- as bench_tpcb; total: summed (NULL if any node's is)
	OUT wal_bytes bigint,			-- as bench_tpcb; total: summed
	OUT wal_bytes_per_tx float8,	-- as bench_tpcb; total: summed WAL / summed transactions
	OUT wal_fpi bigint,				-- as bench_tpcb; total: summed
	OUT wal_flushes bigint,			-- as bench_tpcb; total: summed (NULL if any node's is)
	OUT checkpoints integer,		-- as bench_tpcb; total: summed
	OUT notes text,					-- the node's notes; total: how many nodes have notes other than where their transactions waited
	OUT min_tps float8,				-- total: the slowest node's tps; NULL on node rows
	OUT max_tps float8,				-- total: the fastest node's tps; NULL on node rows
	OUT skew float8					-- total: max_tps / min_tps (1.0 = even); NULL on node rows
)
RETURNS SETOF record
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT * FROM @extschema@._bench_cluster_tpcb($1, $2, $3, $4, $5, $6, $7);
$$;

COMMENT ON FUNCTION bench_cluster_tpcb(name, integer, interval, name, text, boolean, interval) IS
'bench_tpcb on every node of a cluster (PL/Proxy partitions, or Citus workers) at once, one row per node and a total row';
