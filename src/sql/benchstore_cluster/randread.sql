-- src/sql/benchstore_cluster/randread.sql: bench_cluster_randread.

CREATE OR REPLACE FUNCTION _bench_cluster_randread_plproxy(
	i_cluster name,
	i_parts integer[],
	i_relation text,
	i_reads bigint,
	i_cache text,
	i_depth integer,
	i_workers integer,
	i_label text,
	i_record boolean,
	i_seed bigint
)
RETURNS SETOF _bench_cluster_randread_node
LANGUAGE plproxy
AS $$
	CLUSTER pg_catalog.text(i_cluster);
	SPLIT i_parts;
	RUN ON i_parts;
	SELECT (i_parts)[1] AS part, s.run, s.relation::text AS relation, s.tablespace,
		   s.cache, s.depth, s.workers_launched, s.reads, s.blocks, s.tuples, s.elapsed_ms,
		   s.reads_per_s, s.lat_p50_us, s.lat_p99_us, s.blks_hit, s.blks_read, s.os_read_mb,
		   s.page_cache_reads, s.device_reads, s.device_reads_per_s
	FROM bench_randread(relation => i_relation::regclass, reads => i_reads, cache => i_cache,
						depth => i_depth, repeat => 1, label => i_label, record => i_record,
						seed => i_seed, workers => i_workers) s;
$$;

COMMENT ON FUNCTION _bench_cluster_randread_plproxy(name, integer[], text, bigint, text, integer, integer, text, boolean, bigint) IS
'internal: one bench_randread run on each of the partitions given (PL/Proxy)';

--
-- The command a Citus worker runs: bench_randread of each shard picked for
-- it that has blocks, one after another, the node's reads shared among
-- them in proportion to their blocks (at least one each), summed into one
-- JSON object.  Built-ins named with pg_catalog and every value quoted
-- with %L and typed, as _bench_cluster_citus_scan_command's.
--
CREATE OR REPLACE FUNCTION _bench_cluster_citus_randread_command(
	shards text[],
	groups jsonb,					-- shard name -> the Citus group (node) that reads it; NULL: any node holding it
	reads bigint,
	cache text,
	depth integer,
	workers integer,
	label text,
	record boolean,
	seed bigint
)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT format($c$
WITH found AS MATERIALIZED (
	SELECT m.name, pg_catalog.to_regclass(m.name) AS rel,
		   pg_catalog.pg_relation_size(pg_catalog.to_regclass(m.name))
		   / pg_catalog.current_setting('block_size')::pg_catalog.int8 AS nblocks
	FROM pg_catalog.unnest(%L::pg_catalog.text[]) AS m(name)
	WHERE pg_catalog.to_regclass(m.name) IS NOT NULL%s
)
SELECT pg_catalog.json_build_object(
	'run', 1,
	'tablespace', CASE WHEN pg_catalog.count(DISTINCT s.tablespace) = 1::pg_catalog.int8
						AND pg_catalog.count(s.tablespace) = pg_catalog.count(*)
					   THEN pg_catalog.min(s.tablespace::pg_catalog.text) END,
	'cache', %L::pg_catalog.text, 'depth', %s::pg_catalog.int4,
	'workers_launched', pg_catalog.min(s.workers_launched),
	'reads', coalesce(pg_catalog.sum(s.reads), 0::pg_catalog.numeric),
	'blocks', coalesce(pg_catalog.sum(s.blocks), 0::pg_catalog.numeric),
	'tuples', CASE WHEN pg_catalog.count(s.tuples) = pg_catalog.count(*)
				   THEN coalesce(pg_catalog.sum(s.tuples), 0::pg_catalog.numeric) END,
	'elapsed_ms', pg_catalog.round(coalesce(pg_catalog.sum(s.elapsed_ms), 0::pg_catalog.float8)::pg_catalog.numeric, 3),
	'reads_per_s', pg_catalog.round((pg_catalog.sum(s.reads)::pg_catalog.float8
									 / nullif(pg_catalog.sum(s.elapsed_ms) / 1000::pg_catalog.float8,
											  0::pg_catalog.float8))::pg_catalog.numeric, 1),
	'lat_p50_us', pg_catalog.max(s.lat_p50_us),
	'lat_p99_us', pg_catalog.max(s.lat_p99_us),
	'blks_hit', coalesce(pg_catalog.sum(s.blks_hit), 0::pg_catalog.numeric),
	'blks_read', coalesce(pg_catalog.sum(s.blks_read), 0::pg_catalog.numeric),
	'os_read_mb', CASE WHEN pg_catalog.count(s.os_read_mb) = pg_catalog.count(*)
					   THEN coalesce(pg_catalog.sum(s.os_read_mb), 0::pg_catalog.float8) END,
	'page_cache_reads', CASE WHEN pg_catalog.count(s.page_cache_reads) = pg_catalog.count(*)
							 THEN coalesce(pg_catalog.sum(s.page_cache_reads), 0::pg_catalog.numeric) END,
	'device_reads', CASE WHEN pg_catalog.count(s.device_reads) = pg_catalog.count(*)
						 THEN coalesce(pg_catalog.sum(s.device_reads), 0::pg_catalog.numeric) END,
	'device_reads_per_s', CASE WHEN pg_catalog.count(s.device_reads) = pg_catalog.count(*)
							   THEN pg_catalog.round((pg_catalog.sum(s.device_reads)::pg_catalog.float8
													  / nullif(pg_catalog.sum(s.elapsed_ms) / 1000::pg_catalog.float8,
															   0::pg_catalog.float8))::pg_catalog.numeric, 1) END,
	'shards', (SELECT coalesce(pg_catalog.json_agg(f.name), '[]'::pg_catalog.json) FROM found f))::pg_catalog.text
FROM (SELECT f.name, f.rel, f.nblocks,
			 pg_catalog.sum(f.nblocks) OVER () AS total_blocks
	  FROM found f
	  WHERE f.nblocks > 0::pg_catalog.int8
	  OFFSET 0) l
CROSS JOIN LATERAL bench_randread(relation => l.rel,
		reads => greatest(1::pg_catalog.int8,
						  pg_catalog.ceil((%s::pg_catalog.numeric OPERATOR(pg_catalog.*) l.nblocks::pg_catalog.numeric)
										  OPERATOR(pg_catalog./) l.total_blocks)::pg_catalog.int8),
		cache => %L::pg_catalog.text, depth => %s::pg_catalog.int4, repeat => 1::pg_catalog.int4,
		label => %L::pg_catalog.text, record => %L::pg_catalog.bool, seed => %s::pg_catalog.int8,
		workers => %s::pg_catalog.int4) s
$c$, shards,
	   CASE WHEN groups IS NOT NULL
			THEN format(E'\n\t  AND (%L::pg_catalog.jsonb OPERATOR(pg_catalog.->>) m.name)::pg_catalog.int4 = (SELECT g.groupid FROM pg_catalog.pg_dist_local_group g)',
						groups)
			ELSE '' END,
	   cache, depth, reads, cache, depth, label, record, seed, workers);
$$;

COMMENT ON FUNCTION _bench_cluster_citus_randread_command(text[], jsonb, bigint, text, integer, integer, text, boolean, bigint) IS
'internal: the command a Citus worker runs to read the shards picked for it at random';

--
-- _bench_cluster_randread_rows: a run's output, the node rows (by node
-- order) and the total row, from the nodes' rows and the coordinator's wall
-- time of the fan-out.  Internal.
--
CREATE OR REPLACE FUNCTION _bench_cluster_randread_rows(
	nodes text[],
	node_rows _bench_cluster_randread_node[],
	run_no integer,
	wall_ms float8,
	relation_arg text
)
RETURNS SETOF _bench_cluster_randread_result
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
WITH n AS (
	SELECT x.* FROM unnest(node_rows) x
),
out AS (
	SELECT n.part AS ord, nodes[n.part + 1] AS node, run_no AS run, n.relation, n.tablespace,
		   n.cache, n.depth, n.workers_launched, n.reads, n.blocks, n.tuples, n.elapsed_ms,
		   n.reads_per_s, n.lat_p50_us, n.lat_p99_us, n.blks_hit, n.blks_read, n.os_read_mb,
		   n.page_cache_reads, n.device_reads, n.device_reads_per_s,
		   NULL::float8 AS min_reads_per_s, NULL::float8 AS max_reads_per_s, NULL::float8 AS skew
	FROM n
	UNION ALL
	SELECT 2147483647, 'total', run_no,
		   CASE WHEN count(DISTINCT n.relation) = 1 THEN min(n.relation) ELSE relation_arg END,
		   CASE WHEN count(DISTINCT n.tablespace) = 1 AND count(n.tablespace) = count(*)
				THEN min(n.tablespace) END,
		   min(n.cache), min(n.depth),
		   sum(n.workers_launched)::integer,
		   sum(n.reads)::bigint,
		   sum(n.blocks)::bigint,
		   CASE WHEN count(n.tuples) = count(*) THEN sum(n.tuples)::bigint END,
		   round(wall_ms::numeric, 3)::float8,
		   round((sum(n.reads) / nullif(wall_ms / 1000, 0))::numeric, 1)::float8,
		   max(n.lat_p50_us),
		   max(n.lat_p99_us),
		   sum(n.blks_hit)::bigint,
		   sum(n.blks_read)::bigint,
		   CASE WHEN count(n.os_read_mb) = count(*) THEN sum(n.os_read_mb) END,
		   CASE WHEN count(n.page_cache_reads) = count(*) THEN sum(n.page_cache_reads)::bigint END,
		   CASE WHEN count(n.device_reads) = count(*) THEN sum(n.device_reads)::bigint END,
		   CASE WHEN count(n.device_reads) = count(*)
				THEN round((sum(n.device_reads) / nullif(wall_ms / 1000, 0))::numeric, 1)::float8 END,
		   min(n.reads_per_s),
		   max(n.reads_per_s),
		   round((max(n.reads_per_s) / nullif(min(n.reads_per_s), 0))::numeric, 3)::float8
	FROM n
)
SELECT o.node, o.run, o.relation, o.tablespace, o.cache, o.depth, o.workers_launched,
	   o.reads, o.blocks, o.tuples, o.elapsed_ms, o.reads_per_s, o.lat_p50_us, o.lat_p99_us,
	   o.blks_hit, o.blks_read, o.os_read_mb, o.page_cache_reads, o.device_reads,
	   o.device_reads_per_s, o.min_reads_per_s, o.max_reads_per_s, o.skew
FROM out o
ORDER BY o.ord;
$$;

COMMENT ON FUNCTION _bench_cluster_randread_rows(text[], _bench_cluster_randread_node[], integer, float8, text) IS
'internal: the node rows and the total row of one cluster random-read run';

CREATE OR REPLACE FUNCTION _bench_cluster_randread(
	p_cluster name,
	p_relation text,
	p_reads bigint,
	p_cache text,
	p_depth integer,
	p_workers integer,
	p_repeat integer,
	p_label text,
	p_record boolean,
	p_seed bigint,
	p_relid regclass				-- Citus: the relation on the caller's search_path
)
RETURNS SETOF _bench_cluster_randread_result
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
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
	read_command text;
	evict_command text;
	missing text[];
	node_rows @extschema@._bench_cluster_randread_node[];
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
	ELSIF p_reads IS NULL THEN
		RAISE EXCEPTION 'reads cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_cache IS NULL THEN
		RAISE EXCEPTION 'cache cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_depth IS NULL THEN
		RAISE EXCEPTION 'depth cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_workers IS NULL THEN
		RAISE EXCEPTION 'workers cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_repeat IS NULL THEN
		RAISE EXCEPTION 'repeat cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_record IS NULL THEN
		RAISE EXCEPTION 'record cannot be null' USING ERRCODE = 'null_value_not_allowed';
	ELSIF p_seed IS NULL THEN
		RAISE EXCEPTION 'seed cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- the nodes' own checks, made once here, before any node runs
	IF p_reads < 1 OR p_reads > 1000000000 THEN
		RAISE EXCEPTION 'reads must be between 1 and 1000000000'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF lower(p_cache) NOT IN ('warm', 'cold') THEN
		RAISE EXCEPTION 'invalid cache "%"', p_cache
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Valid values are "warm" and "cold".';
	END IF;
	IF p_depth < 1 OR p_depth > 256 THEN
		RAISE EXCEPTION 'depth must be between 1 and 256'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_workers < 0 OR p_workers > 64 THEN
		RAISE EXCEPTION 'workers must be between 0 and 64'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- the coordinator runs the repeats, one fan-out each
	IF p_repeat < 1 OR p_repeat > 1000 THEN
		RAISE EXCEPTION 'repeat must be between 1 and 1000'
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
					  HINT = 'bench_randread measures a table of this node.';
		END IF;
		-- each shard is read on one worker only (a reference table's copy
		-- on every worker is read once)
		groups := @extschema@._bench_cluster_citus_shard_groups(rel);
		on_coordinator := EXISTS (SELECT 1 FROM jsonb_each_text(groups) g WHERE g.value = '0');
		read_command := @extschema@._bench_cluster_citus_randread_command(shards, groups, p_reads,
														  p_cache, p_depth, p_workers, p_label,
														  p_record, p_seed);
		evict_command := @extschema@._bench_cluster_citus_evict_command(shards);
	END IF;

	FOR r IN 1 .. p_repeat LOOP
		IF target.engine = 'plproxy' THEN
			-- Untimed: the checkpoint and eviction before a cold run.
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
				node_rows := ARRAY(SELECT x FROM @extschema@._bench_cluster_randread_plproxy(
										p_cluster, parts, p_relation, p_reads, p_cache, p_depth,
										p_workers, p_label, p_record, p_seed) x);
			EXCEPTION WHEN OTHERS THEN
				GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
										e_hint = PG_EXCEPTION_HINT;
				PERFORM @extschema@._bench_cluster_blame_plproxy(p_cluster, nodes, 'randread'::pg_catalog.text, p_relation, NULL::pg_catalog.name,
						jsonb_build_object('reads', p_reads, 'cache', p_cache, 'depth', p_depth,
										   'workers', p_workers, 'label', p_label, 'seed', p_seed),
						e_state, e_message, e_hint);
				RAISE;
			END;
			wall_ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
		ELSE
			IF cold THEN
				PERFORM FROM @extschema@._bench_cluster_citus(evict_command, on_coordinator);
			END IF;
			SELECT array_agg(w.node ORDER BY w.ord),
				   array_agg(jsonb_populate_record(NULL::@extschema@._bench_cluster_randread_node,
						w.result::jsonb || jsonb_build_object('part', w.ord - 1,
															  'relation', p_relation))
							 ORDER BY w.ord),
				   max(w.wall_ms),
				   ARRAY(SELECT unnest(shards)
						 EXCEPT
						 SELECT jsonb_array_elements_text(x.result::jsonb -> 'shards')
						 FROM unnest(array_agg(w.result)) AS x(result))
			INTO nodes, node_rows, wall_ms, missing
			FROM @extschema@._bench_cluster_citus(read_command, on_coordinator) WITH ORDINALITY AS w(node, result, wall_ms, ord);
			-- a shard picked for a node but not found there moved (or was
			-- dropped) between the listing and the reads: the figures would
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
					USING DETAIL = 'Only the workers are read (shards the coordinator holds are not): '
								   || array_to_string(missing[1:5], ', ')
								   || CASE WHEN cardinality(missing) > 5 THEN ', ...' ELSE '' END || '.';
			END IF;
		END IF;
		RETURN QUERY
		SELECT * FROM @extschema@._bench_cluster_randread_rows(nodes, node_rows, r, wall_ms, p_relation);
		IF p_record THEN
			totals := totals || (SELECT jsonb_agg(to_jsonb(t))
								 FROM @extschema@._bench_cluster_randread_rows(nodes, node_rows, r, wall_ms,
																   p_relation) t
								 WHERE t.node = 'total');
		END IF;
	END LOOP;

	IF p_record THEN
		args := jsonb_build_object('cluster', p_cluster, 'engine', target.engine,
								   'nodes', cardinality(nodes), 'node_names', to_jsonb(nodes),
								   'relation', p_relation, 'reads', p_reads, 'cache', p_cache,
								   'depth', p_depth, 'workers', p_workers, 'repeat', p_repeat,
								   'label', p_label, 'record', p_record, 'seed', p_seed);
		PERFORM @extschema@._bench_cluster_record('cluster_randread',
									  p_cluster || '/' || coalesce(totals -> 0 ->> 'relation', p_relation),
									  totals, p_label, args);
	END IF;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_randread(name, text, bigint, text, integer, integer, integer, text, boolean, bigint, regclass) IS
'internal: bench_cluster_randread''s implementation';

CREATE OR REPLACE FUNCTION bench_cluster_randread(
	cluster name,					-- a PL/Proxy server (nodes p0, p1, ...), or 'citus'
	relation text,					-- resolved on each node (Citus: on the coordinator)
	reads bigint DEFAULT 100000,	-- blocks each node reads (Citus: shared among its shards by size)
	cache text DEFAULT 'warm',		-- warm | cold
	depth integer DEFAULT 1,		-- reads in flight per process, 1 .. 256
	workers integer DEFAULT 0,		-- parallel workers beside each node's backend, 0 .. 64
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000: one fan-out each
	label text DEFAULT NULL,		-- recorded with the runs, on the nodes and the coordinator
	record boolean DEFAULT true,	-- false: record nothing, anywhere
	seed bigint DEFAULT 0,			-- each node's order's seed
	OUT node text,					-- the node (p0, p1, ...; Citus: host:port), or 'total'
	OUT run integer,				-- 1 .. repeat
	OUT relation text,				-- the relation as the node names it
	OUT tablespace name,			-- its tablespace on the node; total: NULL unless the same everywhere
	OUT cache text,					-- warm or cold
	OUT depth integer,				-- the depth argument
	OUT workers_launched integer,	-- parallel workers that read; total: summed
	OUT reads bigint,				-- blocks read; total: summed
	OUT blocks bigint,				-- blocks of the relation (Citus: of the node's shards); total: summed
	OUT tuples bigint,				-- as bench_randread; total: summed (NULL if any node's is)
	OUT elapsed_ms float8,			-- node: its reads, ms; total: the coordinator's wall-clock time of the whole fan-out, ms
	OUT reads_per_s float8,			-- node: reads / its elapsed s; total: summed reads / the coordinator's wall-clock s
	OUT lat_p50_us float8,			-- median time of one read, µs; Citus node and total: the highest of theirs
	OUT lat_p99_us float8,			-- 99th percentile, µs; Citus node and total: the highest of theirs
	OUT blks_hit bigint,			-- as bench_randread; total: summed
	OUT blks_read bigint,			-- as bench_randread; total: summed
	OUT os_read_mb float8,			-- as bench_randread, MB; total: summed (NULL if any node's is)
	OUT page_cache_reads bigint,	-- as bench_randread; total: summed (NULL if any node's is)
	OUT device_reads bigint,		-- as bench_randread; total: summed (NULL if any node's is)
	OUT device_reads_per_s float8,	-- node: its RIOPS; total: summed device reads / the coordinator's wall-clock s
	OUT min_reads_per_s float8,		-- total: the slowest node's reads_per_s; NULL on node rows
	OUT max_reads_per_s float8,		-- total: the fastest node's reads_per_s; NULL on node rows
	OUT skew float8					-- total: max_reads_per_s / min_reads_per_s (1.0 = even); NULL on node rows
)
RETURNS SETOF record
LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
-- No SET search_path here: for Citus the relation is the coordinator's,
-- named as the caller names it, on the caller's search_path.
SELECT * FROM @extschema@._bench_cluster_randread($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
	CASE WHEN $1 = 'citus' THEN pg_catalog.to_regclass($2) END);
$$;

COMMENT ON FUNCTION bench_cluster_randread(name, text, bigint, text, integer, integer, integer, text, boolean, bigint) IS
'bench_randread on every node of a cluster (PL/Proxy, or Citus shards) at once, one row per node and run, and a total row per run timed on the coordinator';
