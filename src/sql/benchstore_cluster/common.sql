-- src/sql/benchstore_cluster/common.sql: what every cluster benchmark
-- shares: the cluster's engine and nodes, the PL/Proxy ping, probe and
-- eviction, node errors, recording.

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
-- _bench_cluster_target: how to reach a cluster's nodes, and their names.
-- A foreign server of the plproxy wrapper is a PL/Proxy cluster whose nodes
-- are its partition options (p0, p1, ... or partition_0, ...), named as
-- written; 'citus' otherwise means Citus.  Internal.
--
CREATE OR REPLACE FUNCTION _bench_cluster_target(
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
CREATE OR REPLACE FUNCTION _bench_cluster_ping_plproxy(
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

COMMENT ON FUNCTION _bench_cluster_probe_plproxy(name, integer[], text, text, name) IS
'internal: check that the partitions given have a benchmark function, relation and tablespace (PL/Proxy)';

CREATE OR REPLACE FUNCTION _bench_cluster_evict_plproxy(
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

--
-- _bench_cluster_node_error: raise a PL/Proxy error as the error of the node
-- it came from.  PL/Proxy passes a node's error on with its SQLSTATE as
-- "fn(n): [db] REMOTE ERROR: message" (detail and hint prefixed with
-- "Remote detail: " and "Remote hint: "), and a connection failure as
-- "PL/Proxy function fn(n): [db] PQconnectPoll: libpq message" (XX000).
-- Returns false, raising nothing, for any other error (one of the
-- coordinator's own).  Internal.
--
CREATE OR REPLACE FUNCTION _bench_cluster_node_error(
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

--
-- _bench_cluster_record: record the total rows on the coordinator with
-- benchstore's bench_record (in the schema benchstore was created in), or
-- say why not.  Internal.
--
CREATE OR REPLACE FUNCTION _bench_cluster_record(
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
CREATE OR REPLACE FUNCTION _bench_cluster_check_label(label text, record boolean)
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
