-- src/sql/benchstore_cluster/seqscan.sql: bench_cluster_seqscan.

CREATE OR REPLACE FUNCTION _bench_cluster_seqscan_plproxy(
	i_cluster name,
	i_parts integer[],
	i_relation text,
	i_mode text,
	i_cache text,
	i_label text,
	i_record boolean,
	i_workers integer
)
RETURNS SETOF _bench_cluster_seqscan_node
LANGUAGE plproxy
AS $$
	CLUSTER pg_catalog.text(i_cluster);
	SPLIT i_parts;
	RUN ON i_parts;
	SELECT (i_parts)[1] AS part, s.run, s.relation::text AS relation, s.tablespace,
		   s.mode, s.cache, s.pages, s.size_mb, s.tuples, s.elapsed_ms, s.mb_per_s,
		   s.tuples_per_s, s.blks_hit, s.blks_read, s.read_ms, s.os_read_mb,
		   s.workers_requested, s.workers_launched
	FROM bench_seqscan(relation => i_relation::regclass, mode => i_mode, cache => i_cache,
					   repeat => 1, label => i_label, record => i_record,
					   workers => i_workers) s;
$$;

COMMENT ON FUNCTION _bench_cluster_seqscan_plproxy(name, integer[], text, text, text, text, boolean, integer) IS
'internal: one bench_seqscan run on each of the partitions given (PL/Proxy)';

CREATE OR REPLACE FUNCTION _bench_cluster_citus_scan_command(
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

--
-- _bench_cluster_seqscan_rows: a run's output, the node rows (by node
-- order) and the total row, from the nodes' rows and the coordinator's wall
-- time of the fan-out.  Internal.
--
CREATE OR REPLACE FUNCTION _bench_cluster_seqscan_rows(
	nodes text[],
	node_rows _bench_cluster_seqscan_node[],
	run_no integer,
	wall_ms float8,
	relation_arg text
)
RETURNS SETOF _bench_cluster_seqscan_result
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
WITH n AS (
	SELECT x.* FROM unnest(node_rows) x
),
out AS (
	SELECT n.part AS ord, nodes[n.part + 1] AS node, run_no AS run, n.relation, n.tablespace,
		   n.mode, n.cache, n.pages, n.size_mb, n.tuples, n.elapsed_ms, n.mb_per_s,
		   n.tuples_per_s, n.blks_hit, n.blks_read, n.read_ms, n.os_read_mb,
		   n.workers_requested, n.workers_launched,
		   NULL::float8 AS min_mb_per_s, NULL::float8 AS max_mb_per_s, NULL::float8 AS skew
	FROM n
	UNION ALL
	SELECT 2147483647, 'total', run_no,
		   CASE WHEN count(DISTINCT n.relation) = 1 THEN min(n.relation) ELSE relation_arg END,
		   CASE WHEN count(DISTINCT n.tablespace) = 1 AND count(n.tablespace) = count(*)
				THEN min(n.tablespace) END,
		   min(n.mode), min(n.cache),
		   sum(n.pages)::bigint,
		   sum(n.size_mb),
		   CASE WHEN count(n.tuples) = count(*) THEN sum(n.tuples)::bigint END,
		   round(wall_ms::numeric, 3)::float8,
		   round((sum(n.size_mb) / nullif(wall_ms / 1000, 0))::numeric, 2)::float8,
		   CASE WHEN count(n.tuples) = count(*)
				THEN round((sum(n.tuples) / nullif(wall_ms / 1000, 0))::numeric)::float8 END,
		   sum(n.blks_hit)::bigint,
		   sum(n.blks_read)::bigint,
		   CASE WHEN count(n.read_ms) = count(*) THEN round(sum(n.read_ms)::numeric, 3)::float8 END,
		   CASE WHEN count(n.os_read_mb) = count(*) THEN sum(n.os_read_mb) END,
		   sum(n.workers_requested)::integer,
		   sum(n.workers_launched)::integer,
		   min(n.mb_per_s),
		   max(n.mb_per_s),
		   round((max(n.mb_per_s) / nullif(min(n.mb_per_s), 0))::numeric, 3)::float8
	FROM n
)
SELECT o.node, o.run, o.relation, o.tablespace, o.mode, o.cache, o.pages, o.size_mb,
	   o.tuples, o.elapsed_ms, o.mb_per_s, o.tuples_per_s, o.blks_hit, o.blks_read,
	   o.read_ms, o.os_read_mb, o.workers_requested, o.workers_launched,
	   o.min_mb_per_s, o.max_mb_per_s, o.skew
FROM out o
ORDER BY o.ord;
$$;

COMMENT ON FUNCTION _bench_cluster_seqscan_rows(text[], _bench_cluster_seqscan_node[], integer, float8, text) IS
'internal: the node rows and the total row of one cluster scan';

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

CREATE OR REPLACE FUNCTION bench_cluster_seqscan(
	cluster name,					-- a PL/Proxy server (nodes p0, p1, ...), or 'citus'
	relation text,					-- resolved on each node (Citus: on the coordinator)
	mode text DEFAULT 'heap',		-- heap | buffer | raw
	cache text DEFAULT 'warm',		-- warm | cold
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000: one fan-out each
	label text DEFAULT NULL,		-- recorded with the runs, on the nodes and the coordinator
	record boolean DEFAULT true,	-- false: record nothing, anywhere
	workers integer DEFAULT 0,		-- parallel workers beside each node's scanning backend
	OUT node text,					-- the node (p0, p1, ...; Citus: host:port), or 'total'
	OUT run integer,				-- 1 .. repeat
	OUT relation text,				-- the relation as the node names it
	OUT tablespace name,			-- its tablespace on the node; total: NULL unless the same everywhere
	OUT mode text,					-- heap, buffer or raw
	OUT cache text,					-- warm or cold
	OUT pages bigint,				-- blocks scanned; total: summed
	OUT size_mb float8,				-- pages * block_size, MB; total: summed
	OUT tuples bigint,				-- as bench_seqscan; total: summed (NULL if any node's is)
	OUT elapsed_ms float8,			-- node: its scan, ms; total: the coordinator's wall-clock time of the whole fan-out, ms
	OUT mb_per_s float8,			-- node: size_mb / its elapsed s; total: summed size_mb / the coordinator's wall-clock s
	OUT tuples_per_s float8,		-- likewise for tuples
	OUT blks_hit bigint,			-- as bench_seqscan; total: summed
	OUT blks_read bigint,			-- as bench_seqscan; total: summed
	OUT read_ms float8,				-- as bench_seqscan, ms; total: summed (NULL if any node's is)
	OUT os_read_mb float8,			-- as bench_seqscan, MB; total: summed (NULL if any node's is)
	OUT workers_requested integer,	-- the workers argument; total: summed
	OUT workers_launched integer,	-- parallel workers that ran; total: summed
	OUT min_mb_per_s float8,		-- total: the slowest node's mb_per_s; NULL on node rows
	OUT max_mb_per_s float8,		-- total: the fastest node's mb_per_s; NULL on node rows
	OUT skew float8					-- total: max_mb_per_s / min_mb_per_s (1.0 = even); NULL on node rows
)
RETURNS SETOF record
LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
-- No SET search_path here: for Citus the relation is the coordinator's,
-- named as the caller names it, on the caller's search_path.
SELECT * FROM @extschema@._bench_cluster_seqscan($1, $2, $3, $4, $5, $6, $7, $8,
	CASE WHEN $1 = 'citus' THEN pg_catalog.to_regclass($2) END);
$$;

COMMENT ON FUNCTION bench_cluster_seqscan(name, text, text, text, integer, text, boolean, integer) IS
'bench_seqscan on every node of a cluster (PL/Proxy, or Citus shards) at once, one row per node and run, and a total row per run timed on the coordinator';
