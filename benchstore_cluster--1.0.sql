/* benchstore_cluster--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION benchstore_cluster" to load this file. \quit

-- benchstore's benchmarks on every node of a cluster at once.
--
-- The nodes run benchstore's own functions (bench_seqscan,
-- bench_tablespace_io, bench_cache_evict), called unqualified: install
-- benchstore on each node in a schema on the connecting role's search_path
-- (public by default).  This extension only sends the calls and gathers the
-- rows, through an existing engine:
--
--   PL/Proxy  the cluster is a foreign server of the plproxy wrapper, its
--             nodes the partitions p0, p1, ... (one PL/Proxy call runs on
--             all of them at once);
--   Citus     cluster => 'citus' (when no PL/Proxy server has that name):
--             Citus's run_command_on_workers, each worker scanning the
--             shards of the relation it holds.
--
-- MB means 2^20 bytes throughout, as in benchstore.

--
-- Row types of one node's result, as the fan-out returns them: the node's
-- own columns, with the relation as text (a regclass is an OID of the node)
-- and, first, the node's partition number (or, for Citus, its position in
-- the list of workers).  Internal.
--
CREATE TYPE _bench_cluster_seqscan_node AS (
	part integer,					-- partition number (Citus: position in the worker list, from 0)
	run integer,					-- 1 (each node runs once per fan-out)
	relation text,					-- the relation as the node names it
	tablespace name,				-- its tablespace on the node
	mode text,						-- heap, buffer or raw
	cache text,						-- warm or cold
	pages bigint,					-- blocks scanned
	size_mb float8,					-- MB (2^20 bytes)
	tuples bigint,					-- as bench_seqscan
	elapsed_ms float8,				-- the node's own scan time, ms
	mb_per_s float8,				-- MB per second
	tuples_per_s float8,			-- tuples per second
	blks_hit bigint,				-- blocks found in shared buffers
	blks_read bigint,				-- blocks read from the OS
	read_ms float8,					-- time in those reads, ms
	os_read_mb float8,				-- MB the kernel read from storage
	workers_requested integer,		-- parallel workers asked for
	workers_launched integer		-- parallel workers that ran
);

CREATE TYPE _bench_cluster_io_node AS (
	part integer,					-- partition number (Citus: position in the worker list, from 0)
	tablespace name,				-- the tablespace
	test text,						-- seqwrite, seqread, randread, randwrite or sync
	block_size text,				-- bytes per operation, e.g. '8kB'
	streams integer,				-- streams that ran
	direct boolean,					-- O_DIRECT used
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

--
-- Row types of the public functions' results (their OUT columns, documented
-- there), returned by the internal functions that build them.  Internal.
--
CREATE TYPE _bench_cluster_seqscan_result AS (
	node text,
	run integer,
	relation text,
	tablespace name,
	mode text,
	cache text,
	pages bigint,
	size_mb float8,
	tuples bigint,
	elapsed_ms float8,
	mb_per_s float8,
	tuples_per_s float8,
	blks_hit bigint,
	blks_read bigint,
	read_ms float8,
	os_read_mb float8,
	workers_requested integer,
	workers_launched integer,
	min_mb_per_s float8,
	max_mb_per_s float8,
	skew float8
);

CREATE TYPE _bench_cluster_io_result AS (
	node text,
	tablespace name,
	test text,
	block_size text,
	streams integer,
	direct boolean,
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

--
-- _bench_cluster_target: how to reach a cluster's nodes, and their names.
-- A foreign server of the plproxy wrapper is a PL/Proxy cluster whose nodes
-- are its partition options (p0, p1, ... or partition_0, ...), named as
-- written; 'citus' otherwise means Citus.  Internal.
--
CREATE FUNCTION _bench_cluster_target(
	cluster name,
	OUT engine text,				-- 'plproxy' or 'citus'
	OUT nodes text[]				-- plproxy: nodes[n + 1] names partition n; citus: NULL
)
RETURNS record
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	srv oid;
	fdw name;
	is_plproxy boolean;
	options text[];
	parts integer[];
	user_option text;
BEGIN
	IF cluster IS NULL THEN
		RAISE EXCEPTION 'cluster cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;

	SELECT s.oid, w.fdwname, s.srvoptions,
		   (w.fdwname = 'plproxy'
			OR EXISTS (SELECT 1 FROM pg_proc p
					   WHERE p.oid = w.fdwvalidator AND p.proname = 'plproxy_fdw_validator'))
	INTO srv, fdw, options, is_plproxy
	FROM pg_foreign_server s
	JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw
	WHERE s.srvname = cluster;

	IF srv IS NOT NULL AND is_plproxy THEN
		engine := 'plproxy';
		-- PL/Proxy's partition options: p<n> or partition_<n>
		SELECT array_agg(o.name ORDER BY o.num),
			   array_agg(o.num ORDER BY o.num)
		INTO nodes, parts
		FROM (SELECT split_part(opt, '=', 1) AS name,
					 substring(split_part(opt, '=', 1) FROM '^(?:p|partition_)([0-9]{1,9})$')::integer AS num
			  FROM unnest(options) opt) o
		WHERE o.num IS NOT NULL;

		IF nodes IS NULL THEN
			RAISE EXCEPTION 'PL/Proxy cluster "%" has no partitions', cluster
				USING ERRCODE = 'object_not_in_prerequisite_state',
					  HINT = 'Name its nodes in server options p0, p1, ..., for example ALTER SERVER '
							 || quote_ident(cluster) || ' OPTIONS (ADD p0 ''host=node0 dbname=postgres'').';
		END IF;
		IF parts <> ARRAY(SELECT generate_series(0, cardinality(parts) - 1)) THEN
			RAISE EXCEPTION 'partitions of PL/Proxy cluster "%" are not numbered 0 to %',
							cluster, cardinality(parts) - 1
				USING ERRCODE = 'object_not_in_prerequisite_state';
		END IF;

		IF NOT has_server_privilege(srv, 'USAGE') THEN
			RAISE EXCEPTION 'permission denied for foreign server %', cluster
				USING ERRCODE = 'insufficient_privilege',
					  HINT = 'GRANT USAGE ON FOREIGN SERVER ' || quote_ident(cluster)
							 || ' to the roles that run cluster benchmarks.';
		END IF;
		SELECT substring(opt FROM '^default_user=(.*)$') INTO user_option
		FROM unnest(options) opt WHERE opt LIKE 'default\_user=%';
		IF coalesce(lower(user_option), 'current_user') = 'current_user'
		   AND NOT EXISTS (SELECT 1 FROM pg_user_mappings m
						   WHERE m.srvid = srv
							 AND (m.umuser = 0 OR m.usename = current_user)) THEN
			RAISE EXCEPTION 'user mapping for "%" does not exist for PL/Proxy cluster "%"',
							current_user, cluster
				USING ERRCODE = 'undefined_object',
					  HINT = 'CREATE USER MAPPING FOR PUBLIC SERVER ' || quote_ident(cluster)
							 || ' connects as the same role on every node.';
		END IF;
		RETURN;
	END IF;

	IF srv IS NOT NULL AND cluster <> 'citus' THEN
		RAISE EXCEPTION 'foreign server "%" is not a PL/Proxy cluster', cluster
			USING ERRCODE = 'undefined_object',
				  DETAIL = format('It uses foreign-data wrapper "%s".', fdw),
				  HINT = 'A cluster is a server of the plproxy foreign-data wrapper, with the nodes as options p0, p1, ...';
	END IF;

	IF cluster = 'citus' THEN
		IF to_regprocedure('pg_catalog.run_command_on_workers(text,boolean)') IS NULL THEN
			RAISE EXCEPTION 'cluster "citus" does not exist'
				USING ERRCODE = 'undefined_object',
					  DETAIL = 'Citus is not installed in this database, and no PL/Proxy server is named "citus".',
					  HINT = 'CREATE EXTENSION citus on the coordinator, or name a PL/Proxy cluster.';
		END IF;
		engine := 'citus';
		RETURN;
	END IF;

	RAISE EXCEPTION 'cluster "%" does not exist', cluster
		USING ERRCODE = 'undefined_object',
			  HINT = 'A cluster is a server of the plproxy foreign-data wrapper: CREATE SERVER '
					 || quote_ident(cluster)
					 || ' FOREIGN DATA WRAPPER plproxy OPTIONS (p0 ''...'', p1 ''...''). Name "citus" to use Citus.';
END;
$$;

COMMENT ON FUNCTION _bench_cluster_target(name) IS
'internal: the engine and node names of a cluster (a PL/Proxy server, or Citus)';

--
-- PL/Proxy fan-outs.  Each takes the cluster and an array of partition
-- numbers; SPLIT hands each partition the elements that map to it, so
-- ARRAY[0, 1, ..., n - 1] runs on every partition at once (in parallel:
-- one PL/Proxy call) and each node is told its own number, which it returns
-- in the part column.  ARRAY[k] runs on partition k alone.  The remote
-- queries call benchstore unqualified: the node's search_path finds it.
-- Internal.
--
-- Connect, and load benchstore's library in the node's backend: the
-- subquery is initialised (which loads the C function) but, with LIMIT 0,
-- never run.  A node backend's first benchstore call would otherwise
-- spend some 5-10 ms loading it inside the coordinator's clock.
CREATE FUNCTION _bench_cluster_ping_plproxy(
	i_cluster name,
	i_parts integer[],
	OUT part integer				-- the partition
)
RETURNS SETOF integer
LANGUAGE plproxy
AS $$
	CLUSTER pg_catalog.text(i_cluster);
	SPLIT i_parts;
	RUN ON i_parts;
	SELECT (i_parts)[1] AS part
	WHERE NOT EXISTS (SELECT FROM bench_seqscan(NULL::regclass) LIMIT 0);
$$;

COMMENT ON FUNCTION _bench_cluster_ping_plproxy(name, integer[]) IS
'internal: connect to the partitions given and load benchstore there (PL/Proxy)';

-- What a node needs for a benchmark: the function (and the right to run
-- it), the relation, the tablespace.  A missing one is the node's own error.
CREATE FUNCTION _bench_cluster_probe_plproxy(
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
		   has_function_privilege(i_function::regproc, 'EXECUTE') AS can_execute,
		   CASE WHEN i_relation IS NOT NULL THEN i_relation::regclass::text END AS relation,
		   CASE WHEN i_tablespace IS NOT NULL
				THEN has_tablespace_privilege(i_tablespace, 'CREATE') IS NOT NULL END AS has_tablespace;
$$;

COMMENT ON FUNCTION _bench_cluster_probe_plproxy(name, integer[], text, text, name) IS
'internal: check that the partitions given have a benchmark function, relation and tablespace (PL/Proxy)';

CREATE FUNCTION _bench_cluster_evict_plproxy(
	i_cluster name,
	i_parts integer[],
	i_relation text,
	OUT part integer				-- the partition
)
RETURNS SETOF integer
LANGUAGE plproxy
AS $$
	CLUSTER pg_catalog.text(i_cluster);
	SPLIT i_parts;
	RUN ON i_parts;
	SELECT (i_parts)[1] AS part FROM bench_cache_evict(i_relation::regclass) e;
$$;

COMMENT ON FUNCTION _bench_cluster_evict_plproxy(name, integer[], text) IS
'internal: bench_cache_evict on the partitions given (PL/Proxy)';

CREATE FUNCTION _bench_cluster_seqscan_plproxy(
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
	i_record boolean
)
RETURNS SETOF _bench_cluster_io_node
LANGUAGE plproxy
AS $$
	CLUSTER pg_catalog.text(i_cluster);
	SPLIT i_parts;
	RUN ON i_parts;
	SELECT (i_parts)[1] AS part, t.tablespace, t.test, t.block_size, t.streams, t.direct,
		   t.bytes, t.elapsed_ms, t.mb_per_s, t.iops, t.lat_avg_us, t.lat_p50_us,
		   t.lat_p95_us, t.lat_p99_us, t.lat_p999_us, t.lat_max_us
	FROM bench_tablespace_io(tablespace => i_tablespace, size => i_size,
							 block_size => i_block_size, tests => i_tests,
							 streams => i_streams, direct => i_direct,
							 duration => i_duration, label => i_label,
							 record => i_record) t;
$$;

COMMENT ON FUNCTION _bench_cluster_io_plproxy(name, integer[], name, text, text, text[], integer, boolean, interval, text, boolean) IS
'internal: bench_tablespace_io on each of the partitions given (PL/Proxy)';

--
-- _bench_cluster_node_error: raise a PL/Proxy error as the error of the node
-- it came from.  PL/Proxy passes a node's error on with its SQLSTATE as
-- "fn(n): [db] REMOTE ERROR: message" (detail and hint prefixed with
-- "Remote detail: " and "Remote hint: "), and a connection failure as
-- "PL/Proxy function fn(n): [db] PQconnectPoll: libpq message" (XX000).
-- Returns false, raising nothing, for any other error (one of the
-- coordinator's own).  Internal.
--
CREATE FUNCTION _bench_cluster_node_error(
	cluster name,
	node text,
	state text,
	message text,
	detail text,
	hint text
)
RETURNS boolean
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	m text[];
	node_message text;
	node_detail text := nullif(regexp_replace(detail, '^Remote detail: ', ''), '');
	node_hint text := nullif(regexp_replace(hint, '^Remote hint: ', ''), '');
	code text := state;
BEGIN
	m := regexp_match(message, '^\S+\(\d+\): \[[^]]*\] REMOTE [^:]+: (.*)$', 's');
	IF m IS NOT NULL THEN
		node_message := m[1];
	ELSE
		m := regexp_match(message, '^PL/Proxy function \S+\(\d+\): \[[^]]*\] (PQ\w+): (.*)$', 's');
		IF m IS NULL THEN
			RETURN false;
		END IF;
		node_message := rtrim(m[2], E' \n');
		code := CASE WHEN m[1] LIKE 'PQconnect%' THEN 'sqlclient_unable_to_establish_sqlconnection'
					 ELSE 'connection_failure' END;
		node_detail := NULL;
		node_hint := 'Check that the node is up and accepts connections from the coordinator as this role (user mapping, pg_hba.conf).';
	END IF;

	IF node_detail IS NOT NULL THEN
		node_message := node_message || E'\n' || node_detail;
	END IF;
	IF node_hint IS NOT NULL THEN
		RAISE EXCEPTION 'node "%" of cluster "%" failed', node, cluster
			USING ERRCODE = code, DETAIL = node_message, HINT = node_hint;
	END IF;
	RAISE EXCEPTION 'node "%" of cluster "%" failed', node, cluster
		USING ERRCODE = code, DETAIL = node_message;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_node_error(name, text, text, text, text, text) IS
'internal: raise a PL/Proxy error as the error of the node it came from';

--
-- _bench_cluster_blame_plproxy: after a fan-out failed, find the node that
-- failed and raise its error under its name (PL/Proxy's own message names
-- only the database).  The partitions are probed one at a time: first
-- cheaply (connection, benchstore's function and the right to run it, the
-- relation or tablespace), then, if all of them pass, with the failed call
-- itself, not recorded.  Returns when no node fails alone (the caller
-- raises the original error).  Internal.
--
CREATE FUNCTION _bench_cluster_blame_plproxy(
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
SET search_path = pg_catalog, @extschema@, pg_temp
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
			FROM _bench_cluster_probe_plproxy(cluster, ARRAY[i], fn,
											  CASE WHEN kind IN ('evict', 'seqscan') THEN relation END,
											  CASE WHEN kind = 'tablespace_io' THEN tablespace END);
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
									det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
			IF NOT _bench_cluster_node_error(cluster, nodes[i + 1], st, msg, det, hnt) THEN
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
				PERFORM FROM _bench_cluster_evict_plproxy(cluster, ARRAY[i], relation);
			ELSIF kind = 'seqscan' THEN
				PERFORM FROM _bench_cluster_seqscan_plproxy(cluster, ARRAY[i], relation,
						args ->> 'mode', args ->> 'cache', args ->> 'label', false,
						(args ->> 'workers')::integer);
			ELSE
				PERFORM FROM _bench_cluster_io_plproxy(cluster, ARRAY[i], tablespace,
						args ->> 'size', args ->> 'block_size',
						ARRAY(SELECT jsonb_array_elements_text(args -> 'tests')),
						(args ->> 'streams')::integer, (args ->> 'direct')::boolean,
						(args ->> 'duration')::interval, args ->> 'label', false);
			END IF;
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
									det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
			IF NOT _bench_cluster_node_error(cluster, nodes[i + 1], st, msg, det, hnt) THEN
				RETURN;
			END IF;
		END;
	END LOOP;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_blame_plproxy(name, text[], text, text, name, jsonb, text, text, text) IS
'internal: find the node whose failure failed a PL/Proxy fan-out and raise its error under its name';

--
-- citus_shard_names: the shards of a Citus distributed table, as
-- schema-qualified names (the same on every worker that holds one).
-- Replaceable: it is the only place that reads Citus's catalog.
--
CREATE FUNCTION citus_shard_names(relation regclass)
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
-- _bench_cluster_citus: run one command on every Citus worker at once and
-- return the results, or raise the first failure under the worker's name
-- (host:port).  Citus returns a worker's error as text, without its
-- SQLSTATE.  Internal.
--
CREATE FUNCTION _bench_cluster_citus(
	command text,
	OUT node text,					-- nodename:nodeport
	OUT result text,				-- the command's one value
	OUT wall_ms float8				-- run_command_on_workers's wall-clock time, ms (the same on every row)
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
BEGIN
	t0 := clock_timestamp();
	SELECT jsonb_agg(jsonb_build_object('node', w.nodename || ':' || w.nodeport,
										'success', w.success, 'result', w.result))
	INTO res
	FROM pg_catalog.run_command_on_workers(command, true) w;
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

COMMENT ON FUNCTION _bench_cluster_citus(text) IS
'internal: a command on every Citus worker at once, failures raised under the worker''s name';

-- The command each worker runs for a scan: the relation's shards it holds,
-- one after another, summed into one JSON object (one row, one column, as
-- run_command_on_workers requires).
CREATE FUNCTION _bench_cluster_citus_scan_command(
	shards text[],
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
SELECT format($c$
SELECT json_build_object(
	'run', 1,
	'tablespace', CASE WHEN count(DISTINCT s.tablespace) = 1 AND count(s.tablespace) = count(*)
					   THEN min(s.tablespace) END,
	'mode', min(s.mode), 'cache', min(s.cache),
	'pages', coalesce(sum(s.pages), 0),
	'size_mb', coalesce(sum(s.size_mb), 0),
	'tuples', CASE WHEN count(s.tuples) = count(*) THEN coalesce(sum(s.tuples), 0) END,
	'elapsed_ms', round(coalesce(sum(s.elapsed_ms), 0)::numeric, 3),
	'mb_per_s', round((sum(s.size_mb) / nullif(sum(s.elapsed_ms) / 1000, 0))::numeric, 2),
	'tuples_per_s', CASE WHEN count(s.tuples) = count(*)
						 THEN round((sum(s.tuples) / nullif(sum(s.elapsed_ms) / 1000, 0))::numeric) END,
	'blks_hit', coalesce(sum(s.blks_hit), 0),
	'blks_read', coalesce(sum(s.blks_read), 0),
	'read_ms', CASE WHEN count(s.read_ms) = count(*) THEN round(coalesce(sum(s.read_ms), 0)::numeric, 3) END,
	'os_read_mb', CASE WHEN count(s.os_read_mb) = count(*) THEN coalesce(sum(s.os_read_mb), 0) END,
	'workers_requested', %s,
	'workers_launched', min(s.workers_launched),
	'shards', coalesce(json_agg(l.name), '[]'))::text
FROM (SELECT n.name, to_regclass(n.name) AS rel
	  FROM unnest(%L::text[]) AS n(name)
	  WHERE to_regclass(n.name) IS NOT NULL
	  OFFSET 0) l
CROSS JOIN LATERAL bench_seqscan(relation => l.rel, mode => %L, cache => %L, repeat => 1,
								 label => %L, record => %L, workers => %s) s
$c$, workers, shards, mode, cache, label, record, workers);
$$;

COMMENT ON FUNCTION _bench_cluster_citus_scan_command(text[], text, text, text, boolean, integer) IS
'internal: the command a Citus worker runs to scan the shards it holds';

CREATE FUNCTION _bench_cluster_citus_evict_command(shards text[])
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT format($c$
SELECT count(e.*)::text
FROM (SELECT to_regclass(n.name) AS rel
	  FROM unnest(%L::text[]) AS n(name)
	  WHERE to_regclass(n.name) IS NOT NULL
	  OFFSET 0) l
CROSS JOIN LATERAL bench_cache_evict(l.rel) e
$c$, shards);
$$;

COMMENT ON FUNCTION _bench_cluster_citus_evict_command(text[]) IS
'internal: the command a Citus worker runs to evict the shards it holds from the OS page cache';

--
-- _bench_cluster_seqscan_rows: a run's output, the node rows (by node
-- order) and the total row, from the nodes' rows and the coordinator's wall
-- time of the fan-out.  Internal.
--
CREATE FUNCTION _bench_cluster_seqscan_rows(
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
												direct, bytes, elapsed_ms, mb_per_s, iops,
												lat_avg_us, lat_p50_us, lat_p95_us, lat_p99_us,
												lat_p999_us, lat_max_us, ord)
),
out AS (
	SELECT n.test_ord, n.part AS ord, nodes[n.part + 1] AS node, n.tablespace, n.test,
		   n.block_size, n.streams, n.direct, n.bytes, n.elapsed_ms, n.mb_per_s, n.iops,
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
SELECT o.node, o.tablespace, o.test, o.block_size, o.streams, o.direct, o.bytes,
	   o.elapsed_ms, o.mb_per_s, o.iops, o.lat_avg_us, o.lat_p50_us, o.lat_p95_us,
	   o.lat_p99_us, o.lat_p999_us, o.lat_max_us, o.min_mb_per_s, o.max_mb_per_s, o.skew
FROM out o
ORDER BY o.test_ord, o.ord;
$$;

COMMENT ON FUNCTION _bench_cluster_io_rows(text[], _bench_cluster_io_node[]) IS
'internal: the node rows and the per-test total rows of a cluster I/O test';

--
-- _bench_cluster_record: record the total rows on the coordinator with
-- benchstore's bench_record (in the schema benchstore was created in), or
-- say why not.  Internal.
--
CREATE FUNCTION _bench_cluster_record(
	benchmark text,
	target text,
	totals jsonb,
	label text,
	arguments jsonb
)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	core name;
	run_id bigint;
BEGIN
	IF current_setting('transaction_read_only')::boolean THEN
		RAISE NOTICE '% run was not recorded on the coordinator', benchmark
			USING DETAIL = 'The transaction is read-only. The nodes recorded their own runs.',
				  HINT = 'Pass record => false to leave it out of the history without this notice.';
		RETURN NULL;
	END IF;
	SELECT n.nspname INTO core
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'benchstore';
	EXECUTE format('SELECT %I.bench_record($1, $2, $3, $4, $5)', core)
		INTO run_id USING benchmark, target, totals, label, arguments;
	RETURN run_id;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_record(text, text, jsonb, text, jsonb) IS
'internal: record a cluster benchmark''s total rows in the coordinator''s history';

-- Refuse a label before any node runs, as every node and bench_record
-- would: empty, too long, a number (the same rules and messages as
-- benchstore's), or, when the run is to be recorded, owned by another role
-- in the coordinator's history.
CREATE FUNCTION _bench_cluster_check_label(label text, record boolean)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	core name;
	other name;
BEGIN
	IF label IS NULL THEN
		RETURN;
	END IF;
	IF label = '' THEN
		RAISE EXCEPTION 'label must not be empty'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Pass NULL for a run without a label.';
	END IF;
	IF octet_length(label) > 200 THEN
		RAISE EXCEPTION 'label must be at most 200 bytes long'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF label ~ '^[0-9]+$' THEN
		RAISE EXCEPTION 'label "%" must not be a number', label
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = 'Numbers stand for run ids wherever a label is expected.',
				  HINT = format('Add a letter, as in "run%s".', label);
	END IF;
	IF NOT record THEN
		RETURN;
	END IF;
	SELECT n.nspname INTO core
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'benchstore';
	EXECUTE format('SELECT r.recorded_by FROM %I.bench_run r
					WHERE r.label = $1 AND r.recorded_by <> current_user
					ORDER BY r.run_id LIMIT 1', core)
		INTO other USING label;
	IF other IS NOT NULL THEN
		RAISE EXCEPTION 'label "%" is used by runs of role "%"', label, other
			USING ERRCODE = 'duplicate_object',
				  HINT = 'Choose another label.';
	END IF;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_check_label(text, boolean) IS
'internal: refuse a label that every node (or the coordinator''s history) would refuse';

--
-- bench_cluster_seqscan: bench_seqscan on every node of a cluster at once,
-- one row per node and run, and a total row per run timed on the
-- coordinator.
--
CREATE FUNCTION _bench_cluster_seqscan(
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
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
	target record;
	nodes text[];
	parts integer[];
	cold boolean;
	rel regclass;
	shards text[];
	scan_command text;
	evict_command text;
	missing text[];
	node_rows _bench_cluster_seqscan_node[];
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

	target := _bench_cluster_target(p_cluster);
	PERFORM _bench_cluster_check_label(p_label, p_record);

	IF target.engine = 'plproxy' THEN
		nodes := target.nodes;
		parts := ARRAY(SELECT generate_series(0, cardinality(nodes) - 1));
		-- Untimed: connect to every node (a new session's first fan-out
		-- would otherwise time the connections).
		IF NOT cold THEN
			BEGIN
				PERFORM FROM _bench_cluster_ping_plproxy(p_cluster, parts);
			EXCEPTION WHEN OTHERS THEN
				GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
										e_hint = PG_EXCEPTION_HINT;
				PERFORM _bench_cluster_blame_plproxy(p_cluster, nodes, 'ping', p_relation, NULL, NULL,
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
		shards := citus_shard_names(rel);
		IF coalesce(cardinality(shards), 0) = 0 THEN
			RAISE EXCEPTION 'relation "%" is not a Citus distributed table', rel
				USING ERRCODE = 'wrong_object_type',
					  HINT = 'bench_seqscan measures a table of this node.';
		END IF;
		scan_command := _bench_cluster_citus_scan_command(shards, p_mode, p_cache, p_label,
														  p_record, p_workers);
		evict_command := _bench_cluster_citus_evict_command(shards);
	END IF;

	FOR r IN 1 .. p_repeat LOOP
		IF target.engine = 'plproxy' THEN
			-- Untimed: the checkpoint and eviction before a cold scan, so
			-- that the timed fan-out's own (then nearly empty) ones add
			-- little to the coordinator's clock.
			IF cold THEN
				BEGIN
					PERFORM FROM _bench_cluster_evict_plproxy(p_cluster, parts, p_relation);
				EXCEPTION WHEN OTHERS THEN
					GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
											e_hint = PG_EXCEPTION_HINT;
					PERFORM _bench_cluster_blame_plproxy(p_cluster, nodes, 'evict', p_relation, NULL, NULL,
														 e_state, e_message, e_hint);
					RAISE;
				END;
			END IF;
			t0 := clock_timestamp();
			BEGIN
				node_rows := ARRAY(SELECT x FROM _bench_cluster_seqscan_plproxy(
										p_cluster, parts, p_relation, p_mode, p_cache,
										p_label, p_record, p_workers) x);
			EXCEPTION WHEN OTHERS THEN
				GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
										e_hint = PG_EXCEPTION_HINT;
				PERFORM _bench_cluster_blame_plproxy(p_cluster, nodes, 'seqscan', p_relation, NULL,
						jsonb_build_object('mode', p_mode, 'cache', p_cache, 'label', p_label,
										   'workers', p_workers),
						e_state, e_message, e_hint);
				RAISE;
			END;
			wall_ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
		ELSE
			IF cold THEN
				PERFORM FROM _bench_cluster_citus(evict_command);
			END IF;
			SELECT array_agg(w.node ORDER BY w.ord),
				   array_agg(jsonb_populate_record(NULL::_bench_cluster_seqscan_node,
						w.result::jsonb || jsonb_build_object('part', w.ord - 1,
															  'relation', rel::text))
							 ORDER BY w.ord),
				   max(w.wall_ms),
				   ARRAY(SELECT unnest(shards)
						 EXCEPT
						 SELECT jsonb_array_elements_text(x.result::jsonb -> 'shards')
						 FROM unnest(array_agg(w.result)) AS x(result))
			INTO nodes, node_rows, wall_ms, missing
			FROM _bench_cluster_citus(scan_command) WITH ORDINALITY AS w(node, result, wall_ms, ord);
			IF cardinality(missing) > 0 AND r = 1 THEN
				RAISE WARNING '% of % shards of relation "%" were found on no worker',
							  cardinality(missing), cardinality(shards), rel
					USING DETAIL = 'Only the workers are scanned (shards the coordinator holds are not): '
								   || array_to_string(missing[1:5], ', ')
								   || CASE WHEN cardinality(missing) > 5 THEN ', ...' ELSE '' END || '.';
			END IF;
		END IF;
		RETURN QUERY
		SELECT * FROM _bench_cluster_seqscan_rows(nodes, node_rows, r, wall_ms, p_relation);
		IF p_record THEN
			totals := totals || (SELECT jsonb_agg(to_jsonb(t))
								 FROM _bench_cluster_seqscan_rows(nodes, node_rows, r, wall_ms,
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
		PERFORM _bench_cluster_record('cluster_seqscan',
									  p_cluster || '/' || coalesce(totals -> 0 ->> 'relation', p_relation),
									  totals, p_label, args);
	END IF;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_seqscan(name, text, text, text, integer, text, boolean, integer, regclass) IS
'internal: bench_cluster_seqscan''s implementation';

CREATE FUNCTION bench_cluster_seqscan(
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

--
-- bench_cluster_tablespace_io: bench_tablespace_io on every node at once,
-- one fan-out for all the tests (a node's test files live only within one
-- call, and its read tests fill their file first, untimed: the
-- coordinator's clock cannot time one test).  The total row of a test sums
-- the nodes' rates, as gpcheckperf's "total bandwidth" does.
--
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
	p_record boolean
)
RETURNS SETOF _bench_cluster_io_result
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
	target record;
	nodes text[];
	parts integer[];
	node_rows _bench_cluster_io_node[];
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
	END IF;

	target := _bench_cluster_target(p_cluster);
	PERFORM _bench_cluster_check_label(p_label, p_record);

	IF target.engine = 'plproxy' THEN
		nodes := target.nodes;
		parts := ARRAY(SELECT generate_series(0, cardinality(nodes) - 1));
		BEGIN
			node_rows := ARRAY(SELECT x FROM _bench_cluster_io_plproxy(
									p_cluster, parts, p_tablespace, p_size, p_block_size,
									p_tests, p_streams, p_direct, p_duration, p_label,
									p_record) x);
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_message = MESSAGE_TEXT,
									e_hint = PG_EXCEPTION_HINT;
			PERFORM _bench_cluster_blame_plproxy(p_cluster, nodes, 'tablespace_io', NULL, p_tablespace,
					jsonb_build_object('size', p_size, 'block_size', p_block_size,
									   'tests', to_jsonb(p_tests), 'streams', p_streams,
									   'direct', p_direct, 'duration', p_duration::text,
									   'label', p_label),
					e_state, e_message, e_hint);
			RAISE;
		END;
	ELSE
		command := format($c$SELECT coalesce(json_agg(t), '[]')::text
FROM bench_tablespace_io(tablespace => %L, size => %L, block_size => %L, tests => %L::text[],
						 streams => %s, direct => %L, duration => %L::interval, label => %L,
						 record => %L) t$c$,
						  p_tablespace, p_size, p_block_size, p_tests, p_streams, p_direct,
						  p_duration, p_label, p_record);
		SELECT array_agg(w.node ORDER BY w.ord),
			   (SELECT array_agg(jsonb_populate_record(NULL::_bench_cluster_io_node,
							e.value || jsonb_build_object('part', x.ord - 1))
								 ORDER BY x.ord, e.n)
				FROM unnest(array_agg(w.result), array_agg(w.ord)) AS x(result, ord),
					 jsonb_array_elements(x.result::jsonb) WITH ORDINALITY AS e(value, n))
		INTO nodes, node_rows
		FROM _bench_cluster_citus(command) WITH ORDINALITY AS w(node, result, wall_ms, ord);
	END IF;

	RETURN QUERY SELECT * FROM _bench_cluster_io_rows(nodes, node_rows);

	IF p_record THEN
		SELECT jsonb_agg(to_jsonb(t)) INTO totals
		FROM _bench_cluster_io_rows(nodes, node_rows) t
		WHERE t.node = 'total';
		args := jsonb_build_object('cluster', p_cluster, 'engine', target.engine,
								   'nodes', cardinality(nodes), 'node_names', to_jsonb(nodes),
								   'tablespace', p_tablespace, 'size', p_size,
								   'block_size', p_block_size, 'tests', to_jsonb(p_tests),
								   'streams', p_streams, 'direct', p_direct,
								   'duration_s', extract(epoch FROM p_duration),
								   'label', p_label, 'record', p_record);
		PERFORM _bench_cluster_record('cluster_tablespace_io', p_cluster || '/' || p_tablespace,
									  totals, p_label, args);
	END IF;
END;
$$;

COMMENT ON FUNCTION _bench_cluster_tablespace_io(name, name, text, text, text[], integer, boolean, interval, text, boolean) IS
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
	OUT node text,						-- the node (p0, p1, ...; Citus: host:port), or 'total'
	OUT tablespace name,				-- the tablespace
	OUT test text,						-- seqwrite, seqread, randread, randwrite or sync
	OUT block_size text,				-- bytes per operation, e.g. '8kB'
	OUT streams integer,				-- streams that ran; total: summed over the nodes
	OUT direct boolean,					-- O_DIRECT used; total: NULL unless the same everywhere
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
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
SELECT * FROM @extschema@._bench_cluster_tablespace_io($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);
$$;

COMMENT ON FUNCTION bench_cluster_tablespace_io(name, name, text, text, text[], integer, boolean, interval, text, boolean) IS
'bench_tablespace_io on every node of a cluster at once, one row per node and test, and a total row per test summing the nodes'' rates';

-- Everyone may call the wrappers: each node enforces its own privileges
-- on the benchmarks, and USAGE on the PL/Proxy server and its user
-- mappings decide who reaches the nodes at all.
GRANT EXECUTE ON FUNCTION bench_cluster_seqscan(name, text, text, text, integer, text, boolean, integer) TO PUBLIC;
GRANT EXECUTE ON FUNCTION bench_cluster_tablespace_io(name, name, text, text, text[], integer, boolean, interval, text, boolean) TO PUBLIC;
