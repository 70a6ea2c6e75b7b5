-- src/sql/benchstore_cluster/citus.sql: Citus: shard names and groups, the
-- kept connections (C, in src/citus_pool.c), the fan-out and the eviction
-- command.

--
-- citus_shard_names: the shards of a Citus distributed table, as
-- schema-qualified names (the same on every worker that holds one).
-- Replaceable: it is the only place that reads Citus's catalog.
--
CREATE OR REPLACE FUNCTION citus_shard_names(relation regclass)
RETURNS text[]
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	names text[];
BEGIN
	IF to_regclass('pg_catalog.pg_dist_shard') IS NULL THEN
		RAISE EXCEPTION 'Citus is not installed in this database'
			USING ERRCODE = 'undefined_object';
	END IF;
	-- shard_name() leaves shards in public unqualified: qualify them all
	EXECUTE $q$
		SELECT array_agg(CASE WHEN cardinality(parse_ident(x.name)) = 1
							  THEN quote_ident(n.nspname) || '.' || x.name
							  ELSE x.name END
						 ORDER BY x.shardid)
		FROM (SELECT s.shardid, pg_catalog.shard_name(s.logicalrelid, s.shardid) AS name
			  FROM pg_catalog.pg_dist_shard s
			  WHERE s.logicalrelid = $1) x
		CROSS JOIN pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.oid = $1
	$q$ INTO names USING relation;
	RETURN names;
END;
$$;

COMMENT ON FUNCTION citus_shard_names(regclass) IS
'schema-qualified names of the shards of a Citus distributed table (from pg_dist_shard and shard_name)';

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
CREATE OR REPLACE FUNCTION _bench_cluster_citus_shard_groups(relation regclass)
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

-- Executable by PUBLIC, as the public bench_cluster_* functions call it as
-- their caller: safe to call directly with any argument, since it runs the
-- command as the caller, over the caller's own connections, on the nodes
-- Citus lists, as Citus's run_command_on_workers (executable by every
-- role) would.
CREATE OR REPLACE FUNCTION _bench_cluster_citus_kept(command text, all_nodes boolean)
RETURNS jsonb
AS '$libdir/benchstore', 'bench_cluster_citus_kept'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION _bench_cluster_citus_kept(text, boolean) IS
'internal: a command on every Citus node at once over the current role''s own kept connections, or NULL when they cannot be opened';

--
-- _bench_cluster_citus(command, all_nodes): the command on every Citus
-- worker (and the coordinator when all_nodes) at once: over the current
-- role's kept connections, unless benchstore_cluster.citus_connections is
-- 'new' or they cannot be opened; then through Citus's own dispatch
-- (run_command_on_workers, run_command_on_all_nodes).  Internal; the same
-- signature as 1.1, so a DBA's grants on it are kept.
--
CREATE OR REPLACE FUNCTION _bench_cluster_citus(
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
	setting text := coalesce(nullif(current_setting('benchstore_cluster.citus_connections', true), ''),
							 'keep');
	res jsonb;
	failed record;
	t0 timestamptz;
	elapsed float8;
BEGIN
	IF setting NOT IN ('keep', 'new') THEN
		RAISE EXCEPTION 'invalid value for parameter "benchstore_cluster.citus_connections": "%"', setting
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Available values: keep, new.';
	END IF;
	IF setting = 'keep' THEN
		t0 := clock_timestamp();
		res := @extschema@._bench_cluster_citus_kept(command, all_nodes);
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

COMMENT ON FUNCTION _bench_cluster_citus_evict_command(text[]) IS
'internal: the command a Citus worker runs to evict the shards it holds from the OS page cache';
