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
-- Citus pool are per role).  The public functions, bench_cluster_seqscan,
-- bench_cluster_tablespace_io and bench_cluster_randread, call the internal ones below as the
-- caller, so those stay executable by PUBLIC (bench_cluster_tpcb too,
-- from the 1.2 section on it); each is safe to call
-- directly with any argument, because it does nothing the caller could
-- not do through the public functions or by hand:
--   _bench_cluster_target            reads the PL/Proxy server's options or
--                                    Citus's node catalog (readable by all)
--   _bench_cluster_ping_plproxy,     PL/Proxy calls of benchstore's own
--   _bench_cluster_probe_plproxy,    functions on the nodes, as the caller,
--   _bench_cluster_evict_plproxy,    with the arguments typed: the nodes'
--   _bench_cluster_seqscan_plproxy,  privilege checks apply as if the
--   _bench_cluster_io_plproxy,       caller had connected to them
--   _bench_cluster_randread_plproxy,
--   _bench_cluster_tpcb_plproxy
--   _bench_cluster_citus,            a command on the Citus nodes as the
--   _bench_cluster_citus_kept        caller, as run_command_on_workers
--                                    (executable by every role) would
--   _bench_cluster_citus_scan_command,  build command text, every value
--   _bench_cluster_citus_evict_command, quoted with %L and typed; run
--   _bench_cluster_citus_randread_command, nothing
--   _bench_cluster_citus_tpcb_command
--   _bench_cluster_citus_shard_groups   reads Citus's shard catalog
--   _bench_cluster_node_error,       raise a node's error under its name
--   _bench_cluster_blame_plproxy
--   _bench_cluster_seqscan_rows,     compute rows from their arguments
--   _bench_cluster_io_rows,
--   _bench_cluster_randread_rows,
--   _bench_cluster_tpcb_rows
--   _bench_cluster_check_label       validates a label
--   _bench_cluster_record            bench_record as the caller: the run is
--                                    recorded under the caller's own name
--   _bench_cluster_seqscan,          the public functions' bodies
--   _bench_cluster_tablespace_io,
--   _bench_cluster_randread,
--   _bench_cluster_tpcb
-- test/t/021_privileges.pl checks that no function is SECURITY DEFINER and
-- that the internal functions executable by PUBLIC are exactly these.
--

--
-- 1.2: bench_cluster_randread, bench_randread on every node at once (issue
-- 26): random block reads through each node's buffer manager, as pgio's
-- sessions read, fanned out over PL/Proxy's partitions or Citus's workers.
--

-- One node's result, as the fan-out returns it (the relation as text: a
-- regclass is an OID of the node).  Internal.
CREATE TYPE _bench_cluster_randread_node AS (
	part integer,					-- partition number (Citus: position in the worker list, from 0)
	run integer,					-- 1 (each node runs once per fan-out)
	relation text,					-- the relation as the node names it
	tablespace name,				-- its tablespace on the node
	cache text,						-- warm or cold
	depth integer,					-- reads in flight per process
	workers_launched integer,		-- parallel workers that read beside the node's backend
	reads bigint,					-- blocks read
	blocks bigint,					-- blocks of the relation (Citus: of the node's shards)
	tuples bigint,					-- as bench_randread
	elapsed_ms float8,				-- the node's own reading time, ms
	reads_per_s float8,				-- reads per second
	lat_p50_us float8,				-- median time of one read, µs
	lat_p99_us float8,				-- 99th percentile, µs
	blks_hit bigint,				-- reads found in shared buffers
	blks_read bigint,				-- reads asked of the OS
	os_read_mb float8,				-- MB the kernel read from storage
	page_cache_reads bigint,		-- reads the OS page cache answered
	device_reads bigint,			-- reads the device served
	device_reads_per_s float8		-- device reads per second (RIOPS)
);

CREATE TYPE _bench_cluster_randread_result AS (
	node text,
	run integer,
	relation text,
	tablespace name,
	cache text,
	depth integer,
	workers_launched integer,
	reads bigint,
	blocks bigint,
	tuples bigint,
	elapsed_ms float8,
	reads_per_s float8,
	lat_p50_us float8,
	lat_p99_us float8,
	blks_hit bigint,
	blks_read bigint,
	os_read_mb float8,
	page_cache_reads bigint,
	device_reads bigint,
	device_reads_per_s float8,
	min_reads_per_s float8,
	max_reads_per_s float8,
	skew float8
);

CREATE FUNCTION _bench_cluster_randread_plproxy(
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
CREATE FUNCTION _bench_cluster_citus_randread_command(
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
CREATE FUNCTION _bench_cluster_randread_rows(
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

-- What a node needs for a benchmark (1.2: the query on the node names
-- every function and operand type).  1.0's asked has_function_privilege
-- (regproc, unknown) and has_tablespace_privilege(name, unknown), which
-- pg_catalog matches only through casts: a function of exactly those
-- types in a schema on the node's search_path that another role can
-- create in would have run as the caller.  The function is found by name
-- among those the node's search_path shows (a second function of the
-- name, as an overload, no longer makes the check fail); where there is
-- none, the name's cast to regproc raises the node's own "function ...
-- does not exist".
CREATE OR REPLACE FUNCTION _bench_cluster_probe_plproxy(
	i_cluster name,
	i_parts integer[],
	i_function text,
	i_relation text,
	i_tablespace name,
	OUT part integer,				-- the partition
	OUT can_execute boolean,		-- the role may run i_function there
	OUT relation text,				-- i_relation as the node resolves it, or NULL
	OUT has_tablespace boolean		-- i_tablespace exists there, or NULL
)
RETURNS SETOF record
LANGUAGE plproxy
AS $$
	CLUSTER pg_catalog.text(i_cluster);
	SPLIT i_parts;
	RUN ON i_parts;
	SELECT (i_parts)[1] AS part,
		   CASE WHEN EXISTS (SELECT FROM pg_catalog.pg_proc p
							 WHERE p.proname OPERATOR(pg_catalog.=) i_function::pg_catalog.name
							   AND pg_catalog.pg_function_is_visible(p.oid))
				THEN EXISTS (SELECT FROM pg_catalog.pg_proc p
							 WHERE p.proname OPERATOR(pg_catalog.=) i_function::pg_catalog.name
							   AND pg_catalog.pg_function_is_visible(p.oid)
							   AND pg_catalog.has_function_privilege(p.oid, 'EXECUTE'::pg_catalog.text))
				ELSE i_function::pg_catalog.regproc IS NULL END AS can_execute,
		   CASE WHEN i_relation IS NOT NULL THEN i_relation::pg_catalog.regclass::pg_catalog.text END AS relation,
		   CASE WHEN i_tablespace IS NOT NULL
				THEN pg_catalog.has_tablespace_privilege(i_tablespace::pg_catalog.text, 'CREATE'::pg_catalog.text)
					 IS NOT NULL END AS has_tablespace;
$$;

-- The blame knows bench_randread's and bench_tpcb's fan-outs (1.2).  For
-- bench_tpcb a node is tried again for 100 ms only: its own checks
-- (tables, rights, worker slots) all come before its clients start.
CREATE OR REPLACE FUNCTION _bench_cluster_blame_plproxy(
	cluster name,
	nodes text[],
	kind text,						-- 'ping', 'evict', 'seqscan', 'randread', 'tpcb' or 'tablespace_io'
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
						 WHEN 'randread' THEN 'bench_randread'
						 WHEN 'tpcb' THEN 'bench_tpcb'
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
											  CASE WHEN kind IN ('evict', 'seqscan', 'randread') THEN relation END,
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
			ELSIF kind = 'tpcb' THEN
				PERFORM FROM @extschema@._bench_cluster_tpcb_plproxy(cluster, ARRAY[i],
						(args ->> 'clients')::integer, '100ms'::pg_catalog.interval,
						(args ->> 'schema')::pg_catalog.name, NULL::pg_catalog.text, false,
						NULL::pg_catalog.interval);
			ELSIF kind = 'randread' THEN
				PERFORM FROM @extschema@._bench_cluster_randread_plproxy(cluster, ARRAY[i], relation,
						(args ->> 'reads')::bigint, args ->> 'cache', (args ->> 'depth')::integer,
						(args ->> 'workers')::integer, args ->> 'label', false,
						(args ->> 'seed')::bigint);
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

CREATE FUNCTION _bench_cluster_randread(
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

CREATE FUNCTION bench_cluster_randread(
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

GRANT EXECUTE ON FUNCTION bench_cluster_randread(name, text, bigint, text, integer, integer, integer, text, boolean, bigint) TO PUBLIC;

--
-- 1.2: bench_cluster_tpcb, bench_tpcb on every node at once (issue 27):
-- pgbench's TPC-B-like transaction run by each node's own clients on the
-- node's own pgbench tables (bench_generate_tpcb on each node, or pgbench
-- -i), fanned out over PL/Proxy's partitions or Citus's workers, with a
-- total row: the seed's question, what this array does for OLTP, asked of
-- every node in one statement.
--

-- bench_tpcb's row as a node returns it.  Internal.
CREATE TYPE _bench_cluster_tpcb_out AS (
	clients integer,
	scale integer,
	schema name,
	tablespace name,
	index_tablespace name,
	elapsed_ms float8,
	connect_ms float8,
	transactions bigint,
	tps float8,
	tps_with_connect float8,
	lat_avg_ms float8,
	lat_p50_ms float8,
	lat_p95_ms float8,
	lat_p99_ms float8,
	lat_max_ms float8,
	blks_hit bigint,
	blks_read bigint,
	os_read_mb float8,
	wal_bytes bigint,
	wal_bytes_per_tx float8,
	wal_fpi bigint,
	wal_flushes bigint,
	checkpoints integer,
	steady_state boolean,
	steady_at_ms float8,
	steady_criterion text,
	histogram jsonb,
	notes text
);

-- One node's row, with its position.  Internal.
CREATE TYPE _bench_cluster_tpcb_node AS (
	part integer,					-- partition number (Citus: position in the worker list, from 0)
	clients integer,
	scale integer,
	schema name,
	tablespace name,
	index_tablespace name,
	elapsed_ms float8,
	connect_ms float8,
	transactions bigint,
	tps float8,
	tps_with_connect float8,
	lat_avg_ms float8,
	lat_p50_ms float8,
	lat_p95_ms float8,
	lat_p99_ms float8,
	lat_max_ms float8,
	blks_hit bigint,
	blks_read bigint,
	os_read_mb float8,
	wal_bytes bigint,
	wal_bytes_per_tx float8,
	wal_fpi bigint,
	wal_flushes bigint,
	checkpoints integer,
	steady_state boolean,
	steady_at_ms float8,
	steady_criterion text,
	histogram jsonb,
	notes text
);

CREATE TYPE _bench_cluster_tpcb_result AS (
	node text,
	clients integer,
	scale integer,
	schema name,
	tablespace name,
	elapsed_ms float8,
	connect_ms float8,
	transactions bigint,
	tps float8,
	tps_with_connect float8,
	lat_avg_ms float8,
	lat_p50_ms float8,
	lat_p95_ms float8,
	lat_p99_ms float8,
	lat_max_ms float8,
	blks_hit bigint,
	blks_read bigint,
	os_read_mb float8,
	wal_bytes bigint,
	wal_bytes_per_tx float8,
	wal_fpi bigint,
	wal_flushes bigint,
	checkpoints integer,
	notes text,
	min_tps float8,
	max_tps float8,
	skew float8
);

-- A plain SELECT over bench_tpcb alone, so that the node gives up its
-- statement's xmin while its clients run (see bench_tpcb's notes).
CREATE FUNCTION _bench_cluster_tpcb_plproxy(
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
CREATE FUNCTION _bench_cluster_citus_tpcb_command(
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
CREATE FUNCTION _bench_cluster_tpcb_rows(
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
		   CASE WHEN count(n.notes) > 0
				THEN format('%s of %s nodes have notes.', count(n.notes), count(*)) END,
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

CREATE FUNCTION _bench_cluster_tpcb(
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

CREATE FUNCTION bench_cluster_tpcb(
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
	OUT notes text,					-- the node's notes; total: how many nodes have notes
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

GRANT EXECUTE ON FUNCTION bench_cluster_tpcb(name, integer, interval, name, text, boolean, interval) TO PUBLIC;
