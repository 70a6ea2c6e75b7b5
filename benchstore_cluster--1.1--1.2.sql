/* benchstore_cluster--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION benchstore_cluster UPDATE TO '1.2'" to load this file. \quit

-- Version 1.2.  benchstore_cluster--1.0.sql and
-- benchstore_cluster--1.0--1.1.sql are released and never change again
-- (test/released.sha256); every change to the cluster's SQL surface after
-- 1.1 goes into this script.  A fresh CREATE EXTENSION benchstore_cluster
-- installs 1.0 and runs the 1.0--1.1 and 1.1--1.2 scripts in turn.

--
-- Kept Citus connections that no other role can reach.  In 1.1 they were
-- contrib dblink named connections: dblink keeps those per session, not
-- per role, and its dblink_exec is executable by PUBLIC, so after a
-- superuser's call any code later in the session (SET ROLE, a SECURITY
-- DEFINER function, an index expression run by ANALYZE) could run SQL on
-- every worker as the superuser, and a connection another role opened
-- under the pool's name would have been used.  From 1.2 the connections
-- are kept by the benchstore library (src/citus_pool.c), one per role and
-- node, opened as the current role with Citus's own connection options,
-- and reachable from SQL only through _bench_cluster_citus_kept.  dblink
-- is no longer used.
--
DROP FUNCTION _bench_cluster_citus_kept(name, text, boolean);
DROP FUNCTION _bench_cluster_citus_pool();
DROP FUNCTION _bench_cluster_conninfo_value(text);

-- Executable by PUBLIC, as the public bench_cluster_* functions call it as
-- their caller: safe to call directly with any argument, since it runs the
-- command as the caller, over the caller's own connections, on the nodes
-- Citus lists, as Citus's run_command_on_workers (executable by every
-- role) would.
CREATE FUNCTION _bench_cluster_citus_kept(command text, all_nodes boolean)
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

--
-- 1.0's Citus fan-out and scan command, which 1.1 replaced with versions
-- taking all_nodes and groups but did not drop: nothing calls them.
--
DROP FUNCTION _bench_cluster_citus(text);
DROP FUNCTION _bench_cluster_citus_scan_command(text[], text, text, text, boolean, integer);

--
-- Who may call what (audited for 1.2).  No function of benchstore_cluster
-- is SECURITY DEFINER: each runs as its caller, and a command it sends to
-- a node runs there as that same role (PL/Proxy's connections and the
-- Citus pool are per role).  The public functions, bench_cluster_seqscan
-- and bench_cluster_tablespace_io, call the internal ones below as the
-- caller, so those stay executable by PUBLIC; each is safe to call
-- directly with any argument, because it does nothing the caller could
-- not do through the public functions or by hand:
--   _bench_cluster_target            reads the PL/Proxy server's options or
--                                    Citus's node catalog (readable by all)
--   _bench_cluster_ping_plproxy,     PL/Proxy calls of benchstore's own
--   _bench_cluster_probe_plproxy,    functions on the nodes, as the caller,
--   _bench_cluster_evict_plproxy,    with the arguments typed: the nodes'
--   _bench_cluster_seqscan_plproxy,  privilege checks apply as if the
--   _bench_cluster_io_plproxy        caller had connected to them
--   _bench_cluster_citus,            a command on the Citus nodes as the
--   _bench_cluster_citus_kept        caller, as run_command_on_workers
--                                    (executable by every role) would
--   _bench_cluster_citus_scan_command,  build command text, every value
--   _bench_cluster_citus_evict_command  quoted with %L and typed; run
--                                    nothing
--   _bench_cluster_citus_shard_groups   reads Citus's shard catalog
--   _bench_cluster_node_error,       raise a node's error under its name
--   _bench_cluster_blame_plproxy
--   _bench_cluster_seqscan_rows,     compute rows from their arguments
--   _bench_cluster_io_rows
--   _bench_cluster_check_label       validates a label
--   _bench_cluster_record            bench_record as the caller: the run is
--                                    recorded under the caller's own name
--   _bench_cluster_seqscan,          the public functions' bodies
--   _bench_cluster_tablespace_io
-- test/t/021_privileges.pl checks that no function is SECURITY DEFINER and
-- that the internal functions executable by PUBLIC are exactly these.
--
