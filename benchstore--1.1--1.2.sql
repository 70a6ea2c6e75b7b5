/* benchstore--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION benchstore UPDATE TO '1.2'" to load this file. \quit

-- Version 1.2.  1.0 and 1.1 are released: benchstore--1.0.sql and
-- benchstore--1.0--1.1.sql never change again (test/released.sha256 holds
-- their checksums, checked by test/check-release.sh).  Every change to
-- the SQL surface after 1.1 goes into this script.
--
-- A fresh CREATE EXTENSION benchstore installs 1.0 and runs the 1.0--1.1
-- and 1.1--1.2 scripts in turn, so a fresh 1.2 and an updated 1.0 or 1.1
-- cannot differ; test/t/015_upgrade.pl compares them (functions,
-- signatures, comments, privileges, a DBA's own grants, tables, views)
-- and checks that recorded runs survive.

--
-- Advice trusted only from roles entitled to make it.  In 1.1,
-- bench_apply_advice took the latest advice under a label whoever had
-- recorded it (bench_record reserves only the benchmarks' own names, so
-- any role could record a 'tablespace_advice' run) and echoed its recorded
-- statement in a hint; bench_undo_advice trusted 'advice_undone' records
-- from anyone, so a forged one made it skip an apply.  From 1.2 both read
-- only records made by a role that could have altered the tablespace
-- itself (a superuser, or a member of the tablespace's owner), and the
-- io_combine_limit statement is built from the validated value.  The
-- signatures are those of 1.1 (CREATE OR REPLACE): a DBA's grants on them
-- are kept.
--

--
-- A run's recorder, by OID as well as by name (1.2).  1.1 knew the role
-- that recorded a run by its name only: a role dropped and a new one
-- created under the same name inherited its runs (its labels, the right
-- to forget them, and the trust bench_apply_advice puts in advice).  From
-- 1.2 a run is a role's when both its recorded_by_oid and its recorded_by
-- are that role's.  Runs recorded before 1.2 are given the OID their name
-- has when the extension is updated.  A run restored into another cluster
-- (pg_dump) keeps the OID of the cluster it was recorded in, which names
-- another role there or none: it belongs to nobody there, and only a
-- superuser can forget it.
--
ALTER TABLE bench_run ADD COLUMN recorded_by_oid oid;	-- the role that ran it, by OID
UPDATE bench_run r SET recorded_by_oid = g.oid
  FROM pg_catalog.pg_roles g WHERE g.rolname OPERATOR(pg_catalog.=) r.recorded_by;

-- _bench_may_alter_tablespace(role OID, role name, tablespace owner):
-- whether the role, the one with that OID and that name, is a superuser or
-- a member of the owner (what ALTER TABLESPACE requires).  Executable by
-- PUBLIC: the advice functions call it as their caller; it only reads
-- pg_roles and answers for roles anyone may list.
CREATE FUNCTION _bench_may_alter_tablespace(recorded_by_oid oid, recorded_by name, owner oid)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_roles g
				   WHERE g.oid OPERATOR(pg_catalog.=) recorded_by_oid
					 AND g.rolname OPERATOR(pg_catalog.=) recorded_by
					 AND (g.rolsuper OR pg_catalog.pg_has_role(g.oid, owner, 'USAGE')))
$$;

COMMENT ON FUNCTION _bench_may_alter_tablespace(oid, name, oid) IS
'internal: whether a role that recorded advice could have altered the tablespace itself';

CREATE OR REPLACE FUNCTION bench_apply_advice(
	tablespace name,
	label text,							-- the advice's label, or its run id
	OUT setting text,
	OUT value_before text,				-- the tablespace's own option before; NULL: not set
	OUT value_after text,				-- after
	OUT applied boolean					-- false: server-wide, not applied (see the NOTICE)
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ts_name name := $1;
	ref text := $2;
	ts_oid oid;
	ts_owner oid;
	advice_run bigint;
	before text[];
	after text[];
	opts text;
	stmt text;
	a record;
BEGIN
	IF ts_name IS NULL THEN
		RAISE EXCEPTION 'tablespace cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF ref IS NULL THEN
		RAISE EXCEPTION 'label cannot be null' USING ERRCODE = 'null_value_not_allowed',
			HINT = 'Name the label (or the run id) bench_tablespace_advice recorded the advice under.';
	END IF;
	SELECT t.oid, t.spcowner, coalesce(t.spcoptions, '{}') INTO ts_oid, ts_owner, before
	  FROM pg_tablespace t WHERE t.spcname = ts_name;
	IF ts_oid IS NULL THEN
		RAISE EXCEPTION 'tablespace "%" does not exist', ts_name USING ERRCODE = 'undefined_object';
	END IF;
	IF NOT pg_has_role(ts_owner, 'USAGE') THEN
		RAISE EXCEPTION 'must be owner of tablespace %', ts_name
			USING ERRCODE = 'insufficient_privilege',
				  HINT = 'The tablespace''s owner or a superuser applies advice.';
	END IF;
	SELECT r.run_id INTO advice_run
	  FROM @extschema@.bench_run r
	 WHERE r.run_id = ANY (@extschema@.bench_run_ids(ref))
	   AND r.benchmark = 'tablespace_advice' AND r.target_oid = ts_oid
	   AND @extschema@._bench_may_alter_tablespace(r.recorded_by_oid, r.recorded_by, ts_owner)
	 ORDER BY r.run_id DESC LIMIT 1;
	IF advice_run IS NULL THEN
		RAISE EXCEPTION 'no advice for tablespace "%" is recorded under "%"', ts_name, ref
			USING ERRCODE = 'undefined_object',
				  DETAIL = 'Only advice recorded by the tablespace''s owner, a member of it, or a superuser is applied.',
				  HINT = format('Record one with bench_tablespace_advice(%L, label => %L).', ts_name, ref);
	END IF;

	-- the tablespace options the advice suggests a value for
	SELECT string_agg(format('%s = %s', x.metrics ->> 'setting', x.metrics ->> 'suggested_value'), ', '
					  ORDER BY x.row_no)
	  INTO opts
	  FROM @extschema@.bench_result x
	 WHERE x.run_id = advice_run
	   AND x.metrics ->> 'setting' IN ('random_page_cost', 'effective_io_concurrency',
									   'maintenance_io_concurrency', 'seq_page_cost')
	   AND x.metrics ->> 'suggested_value' ~ '^[0-9]{1,9}(\.[0-9]{1,6})?$';
	IF opts IS NOT NULL THEN
		EXECUTE format('ALTER TABLESPACE %I SET (%s)', ts_name, opts);
	END IF;
	SELECT coalesce(t.spcoptions, '{}') INTO after FROM pg_tablespace t WHERE t.oid = ts_oid;

	FOR a IN
		SELECT x.metrics ->> 'setting' AS name, x.metrics ->> 'suggested_value' AS value
		  FROM @extschema@.bench_result x
		 WHERE x.run_id = advice_run AND x.metrics ->> 'suggested_value' IS NOT NULL
		   AND x.metrics ->> 'setting' IN ('random_page_cost', 'effective_io_concurrency',
										   'maintenance_io_concurrency', 'seq_page_cost',
										   'io_combine_limit')
		 ORDER BY x.row_no
	LOOP
		setting := a.name;
		IF a.name = 'io_combine_limit' THEN
			-- the statement is built here from the validated value, never
			-- taken from the record
			IF a.value !~ '^[0-9]{1,7}kB$' THEN
				RAISE EXCEPTION 'recorded value "%" of io_combine_limit is not one bench_tablespace_advice suggests', a.value
					USING ERRCODE = 'data_corrupted';
			END IF;
			stmt := CASE WHEN (SELECT s.reset_val::bigint * current_setting('block_size')::bigint
								 FROM pg_settings s WHERE s.name = 'io_max_combine_limit')
							  < (regexp_replace(a.value, 'kB$', ''))::bigint * 1024
						 THEN format('ALTER SYSTEM SET io_max_combine_limit = %L; ', a.value)
						 ELSE '' END ||
					format('ALTER SYSTEM SET io_combine_limit = %L', a.value);
			value_before := current_setting('io_combine_limit', true);
			value_after := value_before;
			applied := false;
			RAISE NOTICE 'io_combine_limit is a server setting: it is not applied from a function'
				USING DETAIL = 'ALTER SYSTEM cannot run inside a transaction block, and a function call is one.',
					  HINT = CASE WHEN (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
								  THEN format('Run %s; then %s.', stmt,
											  CASE WHEN stmt LIKE '%io_max_combine_limit%'
												   THEN 'restart the server' ELSE 'SELECT pg_reload_conf()' END)
								  ELSE format('A superuser runs %s; then %s.', stmt,
											  CASE WHEN stmt LIKE '%io_max_combine_limit%'
												   THEN 'restarts the server' ELSE 'SELECT pg_reload_conf()' END) END;
		ELSE
			value_before := (SELECT split_part(o, '=', 2) FROM unnest(before) o WHERE split_part(o, '=', 1) = a.name);
			value_after := (SELECT split_part(o, '=', 2) FROM unnest(after) o WHERE split_part(o, '=', 1) = a.name);
			applied := true;
		END IF;
		RETURN NEXT;
	END LOOP;

	IF opts IS NOT NULL THEN
		PERFORM @extschema@.bench_record('advice_applied'::pg_catalog.text, ts_name::pg_catalog.text,
							 jsonb_build_object('options_before', to_jsonb(before),
												'options_after', to_jsonb(after),
												'advice_run_id', advice_run),
							 NULL::pg_catalog.text, jsonb_build_object('tablespace', ts_name, 'label', ref));
	ELSE
		RAISE NOTICE 'the advice recorded under "%" suggests no tablespace option', ref;
	END IF;
	RETURN;
END;
$$;

CREATE OR REPLACE FUNCTION bench_undo_advice(
	tablespace name,
	OUT setting text,
	OUT value_before text,				-- the tablespace's own option before the undo; NULL: not set
	OUT value_after text				-- after: as before the advice was applied
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ts_name name := $1;
	ts_oid oid;
	ts_owner oid;
	apply_run bigint;
	m jsonb;
	now_opts text[];
	restore text[];
	after text[];
	o text;
BEGIN
	IF ts_name IS NULL THEN
		RAISE EXCEPTION 'tablespace cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	SELECT t.oid, t.spcowner, coalesce(t.spcoptions, '{}') INTO ts_oid, ts_owner, now_opts
	  FROM pg_tablespace t WHERE t.spcname = ts_name;
	IF ts_oid IS NULL THEN
		RAISE EXCEPTION 'tablespace "%" does not exist', ts_name USING ERRCODE = 'undefined_object';
	END IF;
	IF NOT pg_has_role(ts_owner, 'USAGE') THEN
		RAISE EXCEPTION 'must be owner of tablespace %', ts_name
			USING ERRCODE = 'insufficient_privilege',
				  HINT = 'The tablespace''s owner or a superuser undoes advice.';
	END IF;
	SELECT r.run_id, x.metrics INTO apply_run, m
	  FROM @extschema@.bench_run r JOIN @extschema@.bench_result x ON x.run_id = r.run_id AND x.row_no = 1
	 WHERE r.benchmark = 'advice_applied' AND r.target_oid = ts_oid
	   AND @extschema@._bench_may_alter_tablespace(r.recorded_by_oid, r.recorded_by, ts_owner)
	   AND NOT EXISTS (SELECT 1 FROM @extschema@.bench_run u JOIN @extschema@.bench_result ux ON ux.run_id = u.run_id
					    WHERE u.benchmark = 'advice_undone' AND u.target_oid = ts_oid
						  AND ux.metrics ->> 'applied_run_id' = r.run_id::text
						  AND @extschema@._bench_may_alter_tablespace(u.recorded_by_oid, u.recorded_by, ts_owner))
	 ORDER BY r.run_id DESC LIMIT 1;
	IF apply_run IS NULL THEN
		RAISE EXCEPTION 'no applied advice of tablespace "%" is left to undo', ts_name
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = 'bench_apply_advice records the options it replaces; each is undone once.';
	END IF;
	restore := ARRAY(SELECT jsonb_array_elements_text(m -> 'options_before'));
	FOREACH o IN ARRAY restore LOOP
		IF o !~ '^(seq_page_cost|random_page_cost|effective_io_concurrency|maintenance_io_concurrency)=[0-9.eE+-]{1,32}$' THEN
			RAISE EXCEPTION 'recorded option "%" of tablespace "%" is not one bench_apply_advice sets', o, ts_name
				USING ERRCODE = 'data_corrupted';
		END IF;
	END LOOP;
	IF now_opts IS DISTINCT FROM ARRAY(SELECT jsonb_array_elements_text(m -> 'options_after')) THEN
		RAISE NOTICE 'the options of tablespace "%" changed after the advice was applied; they are set back to those before it', ts_name;
	END IF;

	EXECUTE format('ALTER TABLESPACE %I RESET (seq_page_cost, random_page_cost, effective_io_concurrency, maintenance_io_concurrency)', ts_name);
	IF cardinality(restore) > 0 THEN
		EXECUTE format('ALTER TABLESPACE %I SET (%s)', ts_name,
					   (SELECT string_agg(replace(x, '=', ' = '), ', ' ORDER BY n)
						  FROM unnest(restore) WITH ORDINALITY AS u(x, n)));
	END IF;
	SELECT coalesce(t.spcoptions, '{}') INTO after FROM pg_tablespace t WHERE t.oid = ts_oid;
	PERFORM @extschema@.bench_record('advice_undone'::pg_catalog.text, ts_name::pg_catalog.text,
						 jsonb_build_object('options_before', to_jsonb(now_opts),
											'options_after', to_jsonb(after),
											'applied_run_id', apply_run),
						 NULL::pg_catalog.text, jsonb_build_object('tablespace', ts_name));

	FOR setting IN SELECT unnest(ARRAY['seq_page_cost', 'random_page_cost',
									   'effective_io_concurrency', 'maintenance_io_concurrency'])
	LOOP
		value_before := (SELECT split_part(x, '=', 2) FROM unnest(now_opts) x WHERE split_part(x, '=', 1) = setting);
		value_after := (SELECT split_part(x, '=', 2) FROM unnest(after) x WHERE split_part(x, '=', 1) = setting);
		IF value_before IS DISTINCT FROM value_after THEN
			RETURN NEXT;
		END IF;
	END LOOP;
	RETURN;
END;
$$;

--
-- Functions whose arguments or result columns change in 1.2 are dropped
-- and created again: CREATE OR REPLACE can change neither.  A DBA's grants
-- and revokes on them are carried over.  Before the drops, each one's ACL
-- and its initial privileges (pg_init_privs: what the extension's scripts
-- set) are kept in a setting local to this transaction; after the new
-- functions exist, what the DBA changed is granted or revoked again, and
-- pg_init_privs is set back to what this script gave, so that pg_dump
-- still dumps the DBA's changes as the DBA's (a GRANT run by an extension
-- script is otherwise taken as the extension's own).
--
SELECT pg_catalog.set_config('bs_update.replaced_acls',
	coalesce(pg_catalog.jsonb_object_agg(p.proname,
		pg_catalog.jsonb_build_object(
			'acl', coalesce(p.proacl, pg_catalog.acldefault('f', p.proowner))::text[],
			'init', coalesce(i.initprivs, pg_catalog.acldefault('f', p.proowner))::text[])),
		'{}')::text, true)
FROM pg_catalog.pg_proc p
LEFT JOIN pg_catalog.pg_init_privs i
  ON i.objoid = p.oid AND i.classoid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND i.objsubid = 0
WHERE p.oid OPERATOR(pg_catalog.=) ANY (ARRAY['@extschema@.bench_seqscan(regclass, text, text, integer, text, boolean, integer, integer)'::pg_catalog.regprocedure,
				'@extschema@.bench_query(text, text, integer, text, boolean, boolean)'::pg_catalog.regprocedure,
				'@extschema@.bench_cache_evict(regclass)'::pg_catalog.regprocedure,
				'@extschema@.bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer)'::pg_catalog.regprocedure,
				'@extschema@.bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer)'::pg_catalog.regprocedure,
				'@extschema@.bench_compare(text, text, text[])'::pg_catalog.regprocedure,
				'@extschema@.bench_tablespace_advice(name, text, interval, text, boolean, float8)'::pg_catalog.regprocedure]::pg_catalog.oid[]);

DROP FUNCTION bench_seqscan(regclass, text, text, integer, text, boolean, integer, integer);
DROP FUNCTION bench_query(text, text, integer, text, boolean, boolean);
DROP FUNCTION bench_cache_evict(regclass);
DROP FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer);
DROP FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer);
DROP FUNCTION bench_compare(text, text, text[]);

--
-- Cold means cold, or says why not.  From PostgreSQL 17 on a cold run
-- also evicts the relation's unpinned shared buffers (after the
-- checkpoint has written the dirty ones); on 15 and 16, which cannot drop
-- a live relation's buffers, and wherever pages stay cached, the row says
-- how much: cached_pct, the share of the pages a cache above the storage
-- (shared or local buffers, the OS page cache) held when the timed run
-- began, and warnings, in words.  From 1 % on the run is "not cold": a
-- WARNING says so with how to get a cold one, and bench_compare does not
-- pair it with cold runs unless asked (mix_cold).
--
CREATE FUNCTION bench_seqscan(
	relation regclass,
	mode text DEFAULT 'heap',		-- heap | buffer | raw
	cache text DEFAULT 'warm',		-- warm | cold
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	workers integer DEFAULT 0,		-- parallel workers beside the caller, 0 .. 64
	iodepth integer DEFAULT 1,		-- raw mode: reads of 1 MB in flight per process, 1 .. 256
	sample_interval interval DEFAULT '1s',	-- one sample of the time series per interval, 10 ms .. 1 h; NULL: none (1.2)
	OUT run integer,				-- 1 .. repeat
	OUT relation regclass,			-- the relation named (partitions summed)
	OUT tablespace name,			-- its tablespace; NULL if partitions lie in several
	OUT mode text,					-- heap, buffer or raw
	OUT cache text,					-- warm or cold
	OUT pages bigint,				-- blocks scanned (main fork)
	OUT size_mb float8,				-- pages * block_size, in MB (2^20 bytes)
	OUT tuples bigint,				-- heap: visible tuples (= count(*)); raw: normal line pointers; buffer: NULL
	OUT elapsed_ms float8,			-- wall-clock time of the scan, milliseconds
	OUT mb_per_s float8,			-- size_mb / elapsed seconds
	OUT tuples_per_s float8,		-- tuples / elapsed seconds; NULL when tuples is
	OUT blks_hit bigint,			-- blocks found in shared (or local) buffers; raw: 0
	OUT blks_read bigint,			-- blocks PostgreSQL read from the OS; raw: every block
	OUT read_ms float8,				-- time in those reads, ms; NULL unless track_io_timing
	OUT os_read_mb float8,			-- MB the kernel read from storage for the scan's processes; NULL if unknown
	OUT workers_requested integer,	-- the workers argument
	OUT workers_launched integer,	-- parallel workers that ran (fewer when none are free)
	OUT iodepth integer,			-- raw: reads in flight per process; heap, buffer: NULL (the server's own)
	OUT cached_pct float8,			-- cold: % of the pages still cached when the run began (0: cold); warm: NULL (1.2)
	OUT warnings text,				-- cold: what stayed cached and why, and a cache below the server that answered, in words; NULL: nothing (1.2)
	OUT served_by text				-- cold: 'storage', or 'cache below' when the block devices' counts show a cache under the filesystem answered; warm: NULL (1.2)
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_seqscan'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_seqscan(regclass, text, text, integer, text, boolean, integer, integer, interval) IS
'time a sequential scan of a relation (heap, buffer or raw mode; warm or cold cache), one row per run';

--
-- bench_randread (1.2): random block reads of a relation through the
-- buffer manager, as an index scan's heap fetches read them; the order is
-- seeded, each block read once before any again.
--
CREATE FUNCTION bench_randread(
	relation regclass,
	reads bigint DEFAULT 100000,	-- blocks to read, 1 .. 10^9; past the relation's size, blocks are read again in a new order
	cache text DEFAULT 'warm',		-- warm | cold
	depth integer DEFAULT 1,		-- 1: one read at a time; N: N reads in flight, through a read stream (17+) or PrefetchBuffer, 1 .. 256
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000, each of the same blocks in the same order
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	seed bigint DEFAULT 0,			-- the order's seed: the same seed reads the same blocks in the same order
	sample_interval interval DEFAULT '1s',	-- one sample of the time series per interval, 10 ms .. 1 h; NULL: none
	workers integer DEFAULT 0,		-- parallel workers beside the caller, 0 .. 64, sharing the order's positions (each at depth)
	OUT run integer,				-- 1 .. repeat
	OUT relation regclass,			-- the relation named (partitions taken as one run of blocks)
	OUT tablespace name,			-- its tablespace; NULL if partitions lie in several
	OUT cache text,					-- warm or cold
	OUT depth integer,				-- the depth argument
	OUT reads bigint,				-- blocks read
	OUT blocks bigint,				-- blocks in the relation's main fork (all partitions')
	OUT tuples bigint,				-- heap: normal line pointers on the pages read (each time read); an index: NULL
	OUT elapsed_ms float8,			-- wall-clock time of the reads, ms
	OUT reads_per_s float8,			-- reads / elapsed seconds
	OUT mb_per_s float8,			-- reads * block_size in MB (2^20 bytes) / elapsed seconds
	OUT lat_avg_us float8,			-- time of one read (pin, share-lock, count, release): mean, µs; NULL without track_latency
	OUT lat_p50_us float8,			-- median
	OUT lat_p95_us float8,			-- 95th percentile
	OUT lat_p99_us float8,			-- 99th percentile
	OUT blks_hit bigint,			-- reads found in shared (or local) buffers
	OUT blks_read bigint,			-- reads PostgreSQL asked the OS for (page-cache hits included)
	OUT read_ms float8,				-- time in those reads, ms; NULL unless track_io_timing
	OUT os_read_mb float8,			-- MB the kernel read from storage for this backend; NULL if unknown
	OUT cached_pct float8,			-- cold: % of the pages still cached when the run began (0: cold); warm: NULL
	OUT warnings text,				-- cold: what stayed cached and why, and a cache below the server that answered; NULL: nothing
	OUT served_by text,				-- cold: 'storage' or 'cache below'; warm: NULL
	OUT page_cache_reads bigint,	-- reads the OS page cache answered: every page of the block resident when the read was asked; NULL if unknown
	OUT device_reads bigint,		-- reads the device served (RIOPS counts these); NULL if unknown
	OUT device_reads_per_s float8,	-- device_reads / elapsed seconds; NULL if unknown
	OUT readahead_mb float8,		-- cold: MB the kernel read into the relation's page cache beyond the device reads (its read-ahead); warm: NULL
	OUT prefetch text,				-- how reads were announced ahead: 'none' (depth 1), 'PrefetchBuffer', 'read stream' (17+)
	OUT by_class jsonb,				-- per class (shared_buffers, page_cache, device): reads and latency avg/p50/p95/p99, µs
	OUT workers_launched integer,	-- parallel workers that read (fewer than asked when none are free)
	OUT by_process jsonb			-- with workers: each process's reads, reads/s, classes, p50/p99 and kernel MB; NULL: one process
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_randread'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_randread(regclass, bigint, text, integer, integer, text, boolean, bigint, interval, integer) IS
'time random block reads of a relation through the buffer manager (warm or cold, at a prefetch depth), one row per run';

--
-- bench_generate_randread (1.2): a table whose keys lie in random order in
-- the heap, with an index on the key, as pgio and Vondra load theirs: an
-- index scan over a key range reads its blocks in random order, which the
-- kernel's and the server's read-ahead cannot guess.
--
-- _bench_random_keys: positions first .. last of seed's order over 1 .. n.
CREATE FUNCTION _bench_random_keys(n bigint, seed bigint, first bigint, last bigint)
RETURNS SETOF bigint
AS 'MODULE_PATHNAME', '_bench_random_keys'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
ROWS 1000;

COMMENT ON FUNCTION _bench_random_keys(bigint, bigint, bigint, bigint) IS
'internal: positions first .. last of a seeded random order of 1 .. n (bench_generate_randread''s keys)';

CREATE FUNCTION bench_generate_randread(
	size text DEFAULT '1GB',		-- the table's heap, pg_size_bytes syntax: 1 MB .. 32 TB
	tablespace name DEFAULT NULL,	-- tablespace of the table and its index; NULL: default_tablespace
	fillfactor integer DEFAULT 10,	-- 10 .. 100; 10 puts one row in each page, as pgio does
	table_name name DEFAULT 'randread',	-- the table to create
	schema name DEFAULT 'public',	-- an existing schema to create it in
	replace boolean DEFAULT false,	-- true: drop the table first, if the caller owns it and this function generated it, unchanged
	seed bigint DEFAULT 0,			-- the keys' order: the same seed gives the same table
	OUT relation regclass,			-- the table created
	OUT rows bigint,				-- rows inserted, keys 1 .. rows
	OUT rows_per_page integer,		-- rows in each full page, as fillfactor leaves them
	OUT pages bigint,				-- pages of the table's main fork
	OUT mb float8,					-- main fork size, MB (2^20 bytes; = pg_relation_size)
	OUT index_mb float8,			-- its primary key index, MB
	OUT elapsed_ms float8			-- time to load it, index it and analyze it, ms
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off
AS $$
DECLARE
	marker constant text := 'random-order table generated by bench_generate_randread';
	-- each row: its key and 512 bytes of SHA-512 output (incompressible)
	row_width constant integer := 24 + 8 + 4 + 512;	-- tuple header, key, pad (varlena)
	block_size constant integer := current_setting('block_size')::integer;
	size_bytes numeric;
	tuple_len integer;
	save_free integer;
	page_free integer;
	target_pages bigint;
	qualified text;
	spc_clause text := '';
	idx_clause text := '';
	existing oid;
	existing_owner oid;
	batch bigint;
	done bigint := 0;
	next_report timestamptz;
	last_report timestamptz;
	last_done bigint := 0;
	interval_ms integer;
	started timestamptz := clock_timestamp();
	n bigint;
BEGIN
	IF size IS NULL OR fillfactor IS NULL OR table_name IS NULL OR schema IS NULL
	   OR replace IS NULL OR seed IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN size IS NULL THEN 'size' WHEN fillfactor IS NULL THEN 'fillfactor'
				 WHEN table_name IS NULL THEN 'table_name' WHEN schema IS NULL THEN 'schema'
				 WHEN replace IS NULL THEN 'replace' ELSE 'seed' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- the module defines benchstore.progress_interval when it loads
	PERFORM @extschema@._bench_random_keys(1, 0, 1, 0);
	SELECT s.setting::integer INTO interval_ms FROM pg_settings s
	WHERE s.name = 'benchstore.progress_interval';
	size_bytes := pg_size_bytes(size);
	IF size_bytes < 1048576 OR size_bytes > 32 * 1024::numeric ^ 4 THEN
		RAISE EXCEPTION 'size must be between 1 MB and 32 TB'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A table several times the size of RAM defeats the OS page cache; see bench_randread''s cache => ''cold'' for smaller ones.';
	END IF;
	IF fillfactor < 10 OR fillfactor > 100 THEN
		RAISE EXCEPTION 'fillfactor must be between 10 and 100'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_namespace s WHERE s.nspname = schema) THEN
		RAISE EXCEPTION 'schema "%" does not exist', schema
			USING ERRCODE = 'invalid_schema_name';
	END IF;
	IF tablespace IS NOT NULL THEN
		IF NOT EXISTS (SELECT 1 FROM pg_tablespace t WHERE t.spcname = tablespace) THEN
			RAISE EXCEPTION 'tablespace "%" does not exist', tablespace
				USING ERRCODE = 'undefined_object';
		END IF;
		spc_clause := format(' TABLESPACE %I', tablespace);
		idx_clause := format(' USING INDEX TABLESPACE %I', tablespace);
	END IF;
	qualified := format('%I.%I', schema, table_name);

	-- An existing table is replaced only when asked to, only if the caller
	-- owns it, and only if this function made it and nobody reloaded it
	-- since (its comment names its file; a comment only its owner, the
	-- caller, could have written); DROP ... RESTRICT refuses what depends
	-- on it.
	SELECT c.oid, c.relowner INTO existing, existing_owner
	FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
	WHERE s.nspname = schema AND c.relname = table_name;
	IF FOUND THEN
		IF NOT replace THEN
			RAISE EXCEPTION 'relation "%" already exists', qualified
				USING ERRCODE = 'duplicate_table',
					  HINT = 'Pass replace => true to drop it and generate it again, or choose another table_name.';
		END IF;
		IF existing_owner IS DISTINCT FROM (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) THEN
			RAISE EXCEPTION 'cannot replace table "%" because it is owned by role "%"', qualified,
					(SELECT r.rolname FROM pg_roles r WHERE r.oid = existing_owner)
				USING ERRCODE = 'insufficient_privilege',
					  DETAIL = 'replace drops only a table the caller owns and bench_generate_randread generated.',
					  HINT = 'Choose another table_name, or have its owner drop it.';
		END IF;
		IF obj_description(existing, 'pg_class') IS DISTINCT FROM
		   format('%s: file %s', marker, (SELECT c.relfilenode FROM pg_class c WHERE c.oid = existing)) THEN
			RAISE EXCEPTION 'cannot replace table "%" because bench_generate_randread did not generate it as it is', qualified
				USING ERRCODE = 'insufficient_privilege',
					  DETAIL = 'replace drops only a table bench_generate_randread generated, whose file was not rewritten or reloaded since.',
					  HINT = 'Choose another table_name, or drop the table yourself.';
		END IF;
		EXECUTE format('DROP TABLE %s RESTRICT', qualified);
	END IF;

	-- Rows per page as the heap places them: a page takes another row
	-- while its free space stays at or above the row and the share
	-- fillfactor keeps free (RelationGetBufferForTuple); the first row of a
	-- page always goes in.
	tuple_len := (row_width + 7) / 8 * 8;
	save_free := block_size * (100 - fillfactor) / 100;
	page_free := block_size - 24;
	rows_per_page := 0;
	WHILE rows_per_page = 0 OR page_free - 4 >= tuple_len + save_free LOOP
		page_free := page_free - tuple_len - 4;
		rows_per_page := rows_per_page + 1;
	END LOOP;
	target_pages := ceil(size_bytes / block_size);
	n := target_pages * rows_per_page;

	EXECUTE format('CREATE TABLE %s (id bigint NOT NULL, pad bytea NOT NULL) '
				   'WITH (fillfactor = %s, autovacuum_enabled = off)%s',
				   qualified, fillfactor, spc_clause);
	-- the pad is stored in the row as it is: never compressed or moved out
	EXECUTE format('ALTER TABLE %s ALTER COLUMN pad SET STORAGE PLAIN', qualified);
	relation := qualified::regclass;

	-- In batches of 64 MB of pages, each row keyed by its position in the
	-- seed's order; a progress message every benchstore.progress_interval.
	batch := greatest(1, 67108864 / block_size) * rows_per_page;
	last_report := clock_timestamp();
	next_report := last_report + make_interval(secs => coalesce(interval_ms, 0) / 1000.0);
	WHILE done < n LOOP
		EXECUTE format($q$
			INSERT INTO %s
			SELECT k, sha512(int8send(k) || int8send($2) || '\x01'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x02'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x03'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x04'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x05'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x06'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x07'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x08'::bytea)
			FROM @extschema@._bench_random_keys($1, $2, $3, $4) AS k$q$, qualified)
		USING n, seed, done + 1, least(n, done + batch);
		done := least(n, done + batch);
		IF coalesce(interval_ms, 0) > 0 AND clock_timestamp() >= next_report THEN
			RAISE NOTICE '%', format('bench_generate_randread: %s%% done, %s MB in %s s, %s MB/s now',
				round(100.0 * done / n), round(done::numeric / rows_per_page * block_size / 1048576, 1),
				round(extract(epoch FROM clock_timestamp() - started)::numeric, 1),
				round((done - last_done)::numeric / rows_per_page * block_size / 1048576 /
					  greatest(extract(epoch FROM clock_timestamp() - last_report)::numeric, 0.001), 1));
			last_report := clock_timestamp();
			last_done := done;
			next_report := last_report + make_interval(secs => interval_ms / 1000.0);
		END IF;
	END LOOP;

	EXECUTE format('ALTER TABLE %s ADD PRIMARY KEY (id)%s', qualified, idx_clause);
	EXECUTE format('ANALYZE %s', qualified);
	EXECUTE format('COMMENT ON TABLE %s IS %L', qualified,
				   format('%s: file %s', marker, (SELECT c.relfilenode FROM pg_class c WHERE c.oid = relation)));

	rows := n;
	pages := pg_relation_size(relation) / block_size;
	mb := pg_relation_size(relation) / 1048576.0;
	index_mb := pg_indexes_size(relation) / 1048576.0;
	elapsed_ms := round(extract(epoch FROM clock_timestamp() - started)::numeric * 1000, 3);
	RAISE NOTICE 'generated % rows, % MB in % s', rows, round(mb::numeric + index_mb::numeric, 1),
		round(elapsed_ms::numeric / 1000, 1)
		USING HINT = format('Run VACUUM (FREEZE, ANALYZE) %s before benchmarking, outside a transaction block: '
							'it sets the hint bits and the visibility map that a first scan would otherwise write.',
							qualified);
	RETURN NEXT;
END;
$$;

COMMENT ON FUNCTION bench_generate_randread(text, name, integer, name, name, boolean, bigint) IS
'generate a table whose keys lie in random order in the heap, with an index on the key, one row';

--
-- bench_readahead_sweep (1.2): the server's own read-ahead of one relation,
-- cold, at each effective_io_concurrency (and on 17+ each io_combine_limit
-- for the scans), set for the call only: where more look-ahead stops
-- paying.  fio cannot measure this path.
--
CREATE FUNCTION bench_readahead_sweep(
	relation regclass,
	depths integer[] DEFAULT '{1,2,4,8,16,32,64,128,256}',	-- effective_io_concurrency values, 1 .. 256 each
	combine_limits integer[] DEFAULT NULL,	-- 17+: io_combine_limit values (blocks) for the scans; NULL: the one in effect
	reads bigint DEFAULT 10000,		-- random reads at each depth (bench_randread's reads)
	tests text[] DEFAULT '{randread,seqscan}',	-- randread (bench_randread, cold), seqscan (bench_seqscan, cold)
	label text DEFAULT NULL,		-- recorded with each run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the runs
	OUT test text,					-- randread or seqscan
	OUT effective_io_concurrency integer,	-- the depth the run had; seqscan before 17: NULL (not used)
	OUT io_combine_limit integer,	-- seqscan on 17+: the combine limit in effect, blocks; otherwise NULL
	OUT io_method text,				-- io_method in effect (18); NULL before 18
	OUT prefetch text,				-- randread: how reads were announced ('none', 'PrefetchBuffer', 'read stream'); seqscan: NULL
	OUT reads_per_s float8,			-- randread: reads / s; seqscan: pages / s
	OUT mb_per_s float8,			-- MB (2^20 bytes) / s
	OUT device_reads_per_s float8,	-- randread: device reads / s (RIOPS); seqscan: NULL
	OUT lat_p50_us float8,			-- randread: median time of a read, µs; seqscan: NULL
	OUT os_read_mb float8,			-- MB the kernel read from storage for the run; NULL if unknown
	OUT cached_pct float8,			-- % of the pages still cached when the run began (0: cold)
	OUT of_best_pct float8,			-- the rate as % of the best of its series (the test, at one io_combine_limit)
	OUT knee boolean,				-- the smallest depth of its series within 10 % of the best: more look-ahead buys less
	OUT warnings text				-- the run's own warnings, and why a series is flat
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	knee_share constant float8 := 0.9;
	saved_eic text := pg_catalog.current_setting('effective_io_concurrency');
	saved_icl text := pg_catalog.current_setting('io_combine_limit', true);
	method text := pg_catalog.current_setting('io_method', true);
	streams boolean := pg_catalog.current_setting('server_version_num')::integer >= 170000;
	spc_eic text;
	t text;
	d integer;
	l integer;
	limits integer[];
	series_depths integer[];
	rates float8[];
	rowset jsonb[];
	r record;
	best float8;
	knee_at integer;
	flat_note text;
BEGIN
	IF relation IS NULL OR depths IS NULL OR reads IS NULL OR tests IS NULL OR record IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN relation IS NULL THEN 'relation' WHEN depths IS NULL THEN 'depths'
				 WHEN reads IS NULL THEN 'reads' WHEN tests IS NULL THEN 'tests' ELSE 'record' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF pg_catalog.cardinality(depths) = 0 OR pg_catalog.array_position(depths, NULL) IS NOT NULL
	   OR EXISTS (SELECT 1 FROM pg_catalog.unnest(depths) x WHERE x < 1 OR x > 256) THEN
		RAISE EXCEPTION 'depths must hold 1 to 256 values, each between 1 and 256'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Each is an effective_io_concurrency the runs are made at, as bench_randread''s depth, e.g. ''{1,2,4,8,16,32,64,128,256}''.';
	END IF;
	IF pg_catalog.cardinality(tests) = 0 OR pg_catalog.array_position(tests, NULL) IS NOT NULL
	   OR NOT tests <@ '{randread,seqscan}'::text[] THEN
		RAISE EXCEPTION 'tests must name randread, seqscan or both'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF combine_limits IS NOT NULL THEN
		IF NOT streams THEN
			RAISE EXCEPTION 'combine_limits needs PostgreSQL 17 or later'
				USING ERRCODE = 'feature_not_supported',
					  DETAIL = 'io_combine_limit, the size of the reads a read stream combines, came with PostgreSQL 17.';
		END IF;
		IF pg_catalog.cardinality(combine_limits) = 0 OR pg_catalog.array_position(combine_limits, NULL) IS NOT NULL THEN
			RAISE EXCEPTION 'combine_limits must hold at least one value and no NULL'
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	END IF;
	-- A tablespace's own effective_io_concurrency overrides the setting: a
	-- sweep of the setting would measure that one value every time.
	SELECT o.option_value INTO spc_eic
	FROM pg_catalog.pg_class c
	JOIN pg_catalog.pg_tablespace s
	  ON s.oid = CASE WHEN c.reltablespace = 0
					  THEN (SELECT d.dattablespace FROM pg_catalog.pg_database d
							WHERE d.datname = pg_catalog.current_database())
					  ELSE c.reltablespace END,
	LATERAL pg_catalog.pg_options_to_table(s.spcoptions) o
	WHERE c.oid = relation AND o.option_name = 'effective_io_concurrency';
	IF spc_eic IS NOT NULL THEN
		RAISE EXCEPTION 'the tablespace of relation % sets effective_io_concurrency = %', relation, spc_eic
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = 'A tablespace''s own effective_io_concurrency overrides the setting the sweep varies.',
				  HINT = 'Reset it for the sweep (ALTER TABLESPACE ... RESET (effective_io_concurrency)), and set it again from the sweep''s knee.';
	END IF;

	limits := CASE WHEN combine_limits IS NOT NULL THEN combine_limits ELSE ARRAY[NULL::integer] END;
	FOREACH t IN ARRAY ARRAY['randread', 'seqscan'] LOOP
		CONTINUE WHEN NOT t = ANY (tests);
		FOREACH l IN ARRAY CASE WHEN t = 'seqscan' AND streams THEN limits ELSE ARRAY[NULL::integer] END LOOP
			series_depths := CASE WHEN t = 'seqscan' AND NOT streams THEN ARRAY[NULL::integer] ELSE depths END;
			flat_note := CASE WHEN t = 'seqscan' AND NOT streams
							  THEN 'Before PostgreSQL 17 a sequential scan reads one block at a time and leaves look-ahead to the kernel: effective_io_concurrency does not apply, so the scan ran once.' END;
			rates := '{}';
			rowset := '{}';
			FOREACH d IN ARRAY series_depths LOOP
				IF t = 'randread' THEN
					SELECT * INTO r
					FROM @extschema@.bench_randread(relation, reads => reads, cache => 'cold', depth => d,
													label => label, record => record) x;
					rowset := rowset || pg_catalog.jsonb_build_object(
						'eic', d, 'icl', NULL, 'prefetch', r.prefetch,
						'rps', r.reads_per_s, 'mbps', r.mb_per_s, 'drps', r.device_reads_per_s,
						'p50', r.lat_p50_us, 'os', r.os_read_mb, 'cached', r.cached_pct,
						'warnings', r.warnings);
					rates := rates || r.reads_per_s;
				ELSE
					IF d IS NOT NULL THEN
						PERFORM pg_catalog.set_config('effective_io_concurrency', d::text, true);
					END IF;
					IF l IS NOT NULL THEN
						PERFORM pg_catalog.set_config('io_combine_limit', l::text, true);
					END IF;
					SELECT * INTO r
					FROM @extschema@.bench_seqscan(relation, cache => 'cold', label => label, record => record) x;
					rowset := rowset || pg_catalog.jsonb_build_object(
						'eic', d,
						'icl', CASE WHEN streams THEN (SELECT g.setting::integer FROM pg_catalog.pg_settings g
														 WHERE g.name = 'io_combine_limit') END,
						'prefetch', NULL,
						'rps', r.pages / NULLIF(r.elapsed_ms / 1000, 0), 'mbps', r.mb_per_s,
						'drps', NULL, 'p50', NULL, 'os', r.os_read_mb, 'cached', r.cached_pct,
						'warnings', r.warnings);
					rates := rates || r.mb_per_s;
					PERFORM pg_catalog.set_config('effective_io_concurrency', saved_eic, true);
					IF saved_icl IS NOT NULL THEN
						PERFORM pg_catalog.set_config('io_combine_limit', saved_icl, true);
					END IF;
				END IF;
			END LOOP;

			SELECT max(x) INTO best FROM pg_catalog.unnest(rates) x;
			-- the knee on the rounded share each row shows, so that the row
			-- marked is the first whose of_best_pct reads 90 or more
			SELECT min(o) INTO knee_at FROM pg_catalog.unnest(rates) WITH ORDINALITY u(x, o)
			WHERE CASE WHEN best > 0
					   THEN pg_catalog.round((100 * x / best)::numeric, 1) >= 100 * knee_share
					   ELSE x >= knee_share * best END;
			FOR i IN 1 .. pg_catalog.cardinality(rowset) LOOP
				test := t;
				effective_io_concurrency := (rowset[i] ->> 'eic')::integer;
				io_combine_limit := (rowset[i] ->> 'icl')::integer;
				io_method := method;
				prefetch := rowset[i] ->> 'prefetch';
				reads_per_s := pg_catalog.round((rowset[i] ->> 'rps')::numeric, 1)::float8;
				mb_per_s := (rowset[i] ->> 'mbps')::float8;
				device_reads_per_s := (rowset[i] ->> 'drps')::float8;
				lat_p50_us := (rowset[i] ->> 'p50')::float8;
				os_read_mb := (rowset[i] ->> 'os')::float8;
				cached_pct := (rowset[i] ->> 'cached')::float8;
				of_best_pct := CASE WHEN best > 0 THEN pg_catalog.round((100 * rates[i] / best)::numeric, 1)::float8 END;
				knee := i = knee_at AND pg_catalog.cardinality(rowset) > 1;
				warnings := NULLIF(pg_catalog.concat_ws(' ', rowset[i] ->> 'warnings', flat_note,
					CASE WHEN knee AND i = pg_catalog.cardinality(rowset)
						 THEN 'The rate still rose at the largest depth measured: a larger one may pay more.' END), '');
				RETURN NEXT;
			END LOOP;
		END LOOP;
	END LOOP;
END;
$$;

COMMENT ON FUNCTION bench_readahead_sweep(regclass, integer[], integer[], bigint, text[], text, boolean) IS
'the server''s own read-ahead of a relation, cold, at each effective_io_concurrency (and io_combine_limit on 17+), set for the call only; one row per run, the knee marked';

--
-- bench_plan_crossover (1.2): where the planner's choice between an index
-- (or bitmap) scan and a sequential scan lies, against where it should.
-- For each selectivity of a range predicate on an indexed column
-- ("column <= bound", the bound read from the index at that share of the
-- table's rows), the same count is timed under a forced sequential scan,
-- a forced index scan and a forced bitmap scan (enable_* set for that
-- run only), cold by default, through bench_query; the plan the planner
-- picks is read from EXPLAIN under the costs in effect and, given one,
-- under a proposed random_page_cost.  The measured crossover is the
-- smallest selectivity from which the sequential scan is fastest at every
-- larger one; the planner's, the smallest from which it picks it.
--
CREATE FUNCTION bench_plan_crossover(
	relation regclass,
	column_name name,				-- a column with a btree index whose first column it is
	selectivities float8[] DEFAULT '{0.0001,0.001,0.005,0.01,0.02,0.05,0.1,0.2}',	-- shares of the rows, ascending, each > 0 and <= 1
	random_page_cost float8 DEFAULT NULL,	-- a proposed random_page_cost, planned under beside the one in effect; NULL: none
	cache text DEFAULT 'cold',		-- cold | warm: how each forced plan is run
	repeat integer DEFAULT 1,		-- runs of each plan at each selectivity, 1 .. 100; the median is kept
	label text DEFAULT NULL,		-- recorded with each run and with the result (see bench_history)
	record boolean DEFAULT true,	-- false: record nothing
	OUT selectivity float8,			-- the share asked for
	OUT rows bigint,				-- rows the predicate matches
	OUT actual_selectivity float8,	-- rows / the table's rows (reltuples)
	OUT predicate text,				-- the WHERE clause timed
	OUT seqscan_ms float8,			-- median time of the count under a sequential scan, ms
	OUT indexscan_ms float8,		-- under an index scan; NULL when skipped (see notes)
	OUT bitmapscan_ms float8,		-- under a bitmap heap scan; NULL when skipped
	OUT fastest text,				-- seqscan, indexscan or bitmapscan
	OUT planner_now text,			-- the scan the planner picks under the costs in effect
	OUT planner_now_pct float8,		-- its time as % of the fastest; NULL if it was skipped
	OUT planner_proposed text,		-- the scan it picks under the proposed random_page_cost; NULL without one
	OUT planner_proposed_pct float8,	-- its time as % of the fastest
	OUT measured_switch boolean,	-- the measured crossover: the smallest selectivity from which the sequential scan is fastest at every larger one
	OUT planner_switch boolean,		-- the planner's (costs in effect): the smallest from which it picks the sequential scan at every larger one
	OUT proposed_switch boolean,	-- the same under the proposed random_page_cost
	OUT notes text					-- plans skipped or not obtained, runs not cold
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- an index or bitmap scan more than this many times slower than the
	-- sequential scan at one selectivity is not run at larger ones: its
	-- time only grows with the rows, the sequential scan's stays (this
	-- bounds the call's time)
	give_up_factor constant float8 := 10.0;
	rel regclass := $1;
	col name := $2;
	sels float8[] := $3;
	proposed float8 := $4;
	cache_arg text := $5;
	n_rep integer := $6;
	run_label text := $7;
	keep boolean := $8;
	kind "char";
	relname name;
	attnum int2;
	coltype text;
	idx regclass;
	ntuples float8;
	db_spc oid;
	spcs_own jsonb;					-- tablespaces of the table and index that set random_page_cost: name -> value
	rpc_now text;					-- the random_page_cost the heap is planned with now
	query text;
	bound text;
	predicates text[] := '{}';
	counts bigint[] := '{}';
	plans text[] := ARRAY['seqscan', 'indexscan', 'bitmapscan'];
	forced jsonb := '{"seqscan":      {"enable_seqscan": "on",  "enable_indexscan": "off", "enable_bitmapscan": "off"},
					  "indexscan":    {"enable_seqscan": "off", "enable_indexscan": "on",  "enable_bitmapscan": "off"},
					  "bitmapscan":   {"enable_seqscan": "off", "enable_indexscan": "off", "enable_bitmapscan": "on"}}';
	fixed jsonb := '{"max_parallel_workers_per_gather": "0", "jit": "off", "enable_indexonlyscan": "off"}';
	saved jsonb := '{}';
	given_up jsonb := '{}';			-- plan -> the selectivity it was given up at
	results jsonb := '[]';
	res jsonb;
	times jsonb;
	note text[];
	p text;
	g text;
	t float8;
	s float8;
	i integer;
	k bigint;
	plan_json json;
	scan text;
	best text;
	v text;
	warn text;
	pct float8;
	max_pct float8 := 0;
	not_cold integer := 0;
	cold_runs integer := 0;
	saved_cmm text := current_setting('client_min_messages');
BEGIN
	IF rel IS NULL OR col IS NULL OR sels IS NULL OR cache_arg IS NULL OR n_rep IS NULL OR keep IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN rel IS NULL THEN 'relation' WHEN col IS NULL THEN 'column_name'
				 WHEN sels IS NULL THEN 'selectivities' WHEN cache_arg IS NULL THEN 'cache'
				 WHEN n_rep IS NULL THEN 'repeat' ELSE 'record' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF cache_arg NOT IN ('cold', 'warm') THEN
		RAISE EXCEPTION 'invalid cache "%"', cache_arg
			USING ERRCODE = 'invalid_parameter_value', HINT = 'Valid values are: cold, warm.';
	END IF;
	IF n_rep < 1 OR n_rep > 100 THEN
		RAISE EXCEPTION 'repeat must be between 1 and 100' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF cardinality(sels) = 0 OR cardinality(sels) > 100 OR array_position(sels, NULL) IS NOT NULL
	   OR EXISTS (SELECT 1 FROM unnest(sels) x WHERE NOT (x > 0 AND x <= 1))
	   OR EXISTS (SELECT 1 FROM unnest(sels) WITH ORDINALITY u(x, o)
				  WHERE o > 1 AND x <= sels[o - 1]) THEN
		RAISE EXCEPTION 'selectivities must hold 1 to 100 shares, ascending, each above 0 and at most 1'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'For example ''{0.0001,0.001,0.01,0.05,0.1,0.2}'': 0.01 is 1 % of the rows.';
	END IF;
	IF proposed IS NOT NULL AND NOT (proposed > 0 AND proposed <= 1e10) THEN
		RAISE EXCEPTION 'random_page_cost must be above 0' USING ERRCODE = 'invalid_parameter_value';
	END IF;

	SELECT c.relkind, c.relname, c.reltuples INTO kind, relname, ntuples FROM pg_class c WHERE c.oid = rel;
	IF kind IS NULL OR kind NOT IN ('r', 'm') THEN
		RAISE EXCEPTION '"%" is not a table', coalesce(relname::text, rel::text)
			USING ERRCODE = 'wrong_object_type',
				  HINT = 'The crossover is checked on one table (or materialized view) with a btree index.';
	END IF;
	IF NOT has_table_privilege(rel, 'SELECT') THEN
		RAISE EXCEPTION 'permission denied for table %', relname USING ERRCODE = 'insufficient_privilege';
	END IF;
	SELECT a.attnum, format_type(a.atttypid, a.atttypmod) INTO attnum, coltype
	  FROM pg_attribute a WHERE a.attrelid = rel AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped;
	IF attnum IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation "%" does not exist', col, relname
			USING ERRCODE = 'undefined_column';
	END IF;
	SELECT x.indexrelid::regclass INTO idx
	  FROM pg_index x JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_am am ON am.oid = ic.relam
	 WHERE x.indrelid = rel AND x.indkey[0] = attnum AND x.indpred IS NULL AND x.indisvalid
	   AND am.amname = 'btree'
	 ORDER BY x.indnatts, ic.relpages LIMIT 1;
	IF idx IS NULL THEN
		RAISE EXCEPTION 'column "%" of table "%" has no btree index that leads with it', col, relname
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = format('Create one: CREATE INDEX ON %s (%I).', rel, col);
	END IF;
	IF ntuples IS NULL OR ntuples < 1 THEN
		RAISE EXCEPTION 'table "%" has no statistics', relname
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = 'The planner''s choice depends on them, and the bounds are placed by the table''s row count.',
				  HINT = format('Run ANALYZE %s first.', rel);
	END IF;

	-- the random_page_cost each scan is planned with: a tablespace's own
	-- option overrides the setting, for the heap and for the index alike
	SELECT d.dattablespace INTO db_spc FROM pg_database d WHERE d.datname = current_database();
	SELECT coalesce(jsonb_object_agg(t.spcname, o.option_value), '{}') INTO spcs_own
	  FROM (SELECT DISTINCT CASE WHEN c.reltablespace = 0 THEN db_spc ELSE c.reltablespace END AS spc
			  FROM pg_class c WHERE c.oid IN (rel, idx)) u
	  JOIN pg_tablespace t ON t.oid = u.spc,
	  LATERAL pg_options_to_table(t.spcoptions) o
	 WHERE o.option_name = 'random_page_cost';
	SELECT coalesce(max(o.option_value), current_setting('random_page_cost')) INTO rpc_now
	  FROM pg_class c
	  JOIN pg_tablespace t ON t.oid = CASE WHEN c.reltablespace = 0 THEN db_spc ELSE c.reltablespace END,
	  LATERAL pg_options_to_table(t.spcoptions) o
	 WHERE c.oid = rel AND o.option_name = 'random_page_cost';
	IF proposed IS NOT NULL AND spcs_own <> '{}' AND NOT EXISTS (
			SELECT 1 FROM pg_tablespace t
			 WHERE t.spcname IN (SELECT jsonb_object_keys(spcs_own))
			HAVING bool_and(pg_has_role(t.spcowner, 'USAGE'))) THEN
		RAISE EXCEPTION 'permission denied to plan under another random_page_cost in tablespace %',
			(SELECT string_agg(quote_ident(sn), ', ') FROM jsonb_object_keys(spcs_own) sn)
			USING ERRCODE = 'insufficient_privilege',
				  DETAIL = 'The tablespace''s own random_page_cost overrides the setting: planning under the proposed one sets the option inside a subtransaction that is rolled back, which only its owner may do.',
				  HINT = 'Run it as the tablespace''s owner, or without random_page_cost.';
	END IF;

	IF keep AND run_label IS NULL THEN
		run_label := format('crossover %s.%s %s', relname, col,
							to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS.MS'));
	END IF;

	-- the bounds, each the value at its share of the rows, read from the
	-- index (before the settings below turn index-only scans off), and
	-- the rows each predicate matches
	FOR i IN 1 .. cardinality(sels) LOOP
		k := greatest(1, round(sels[i] * ntuples)::bigint);
		EXECUTE format('SELECT t.%I::text FROM %s t WHERE t.%I IS NOT NULL ORDER BY t.%I OFFSET %s LIMIT 1',
					   col, rel, col, col, k - 1) INTO bound;
		IF bound IS NULL THEN
			EXECUTE format('SELECT max(%I)::text FROM %s', col, rel) INTO bound;
		END IF;
		predicates := predicates || format('%I <= %L::%s', col, bound, coltype);
		EXECUTE format('SELECT count(*) FROM %s WHERE %s', rel, predicates[i]) INTO k;
		counts := counts || k;
	END LOOP;

	-- the settings every plan is timed and planned with, and those forced
	-- per plan, put back at the end
	FOR g IN SELECT jsonb_object_keys(fixed) UNION SELECT jsonb_object_keys(forced -> 'seqscan') LOOP
		saved := saved || jsonb_build_object(g, current_setting(g));
	END LOOP;
	FOR g, p IN SELECT * FROM jsonb_each_text(fixed) LOOP
		PERFORM set_config(g, p, true);
	END LOOP;

	FOR i IN 1 .. cardinality(sels) LOOP
		s := sels[i];
		note := '{}';
		predicate := predicates[i];
		rows := counts[i];
		query := format('SELECT count(t.*) FROM %s t WHERE %s', rel, predicate);

		-- each plan forced and timed; the plan obtained is checked
		times := '{}';
		FOREACH p IN ARRAY plans LOOP
			IF given_up ? p THEN
				note := note || format('%s not run: more than %s times slower than the sequential scan at selectivity %s.',
									   p, give_up_factor, given_up ->> p);
				CONTINUE;
			END IF;
			FOR g, v IN SELECT * FROM jsonb_each_text(forced -> p) LOOP
				PERFORM set_config(g, v, true);
			END LOOP;
			EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan_json;
			scan := @extschema@._bench_scan_kind(plan_json::jsonb);
			IF scan IS DISTINCT FROM p THEN
				note := note || format('%s not obtained: the planner still chose %s.', p, coalesce(scan, 'another plan'));
			ELSE
				-- bench_query's own WARNING on a run not cold is summed up
				-- in one at the end
				PERFORM set_config('client_min_messages', 'error', true);
				SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY q.elapsed_ms),
					   max(q.cached_pct), string_agg(DISTINCT q.warnings, ' ') FILTER (WHERE q.served_by = 'cache below')
				  INTO t, pct, warn
				  FROM @extschema@.bench_query(query, cache => cache_arg, repeat => n_rep,
											   label => CASE WHEN keep THEN run_label END,
											   record => keep, sample_interval => NULL) q;
				PERFORM set_config('client_min_messages', saved_cmm, true);
				times := times || jsonb_build_object(p, t);
				cold_runs := cold_runs + CASE WHEN cache_arg = 'cold' THEN 1 ELSE 0 END;
				IF pct >= 1 THEN
					note := note || format('%s not cold: %s %% of the pages were cached.', p, round(pct::numeric, 1));
					max_pct := greatest(max_pct, pct);
					not_cold := not_cold + 1;
				END IF;
				IF warn IS NOT NULL THEN
					note := note || format('%s: %s', p, warn);
				END IF;
			END IF;
			FOR g IN SELECT jsonb_object_keys(forced -> 'seqscan') LOOP
				PERFORM set_config(g, saved ->> g, true);
			END LOOP;
		END LOOP;

		SELECT e.key INTO best FROM jsonb_each_text(times) e ORDER BY e.value::float8 LIMIT 1;
		FOR g, v IN SELECT * FROM jsonb_each_text(times) LOOP
			IF g <> 'seqscan' AND v::float8 > give_up_factor * (times ->> 'seqscan')::float8 THEN
				given_up := given_up || jsonb_build_object(g, s);
			END IF;
		END LOOP;

		-- the planner's own choice: under the costs in effect, and under
		-- the proposed random_page_cost
		EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan_json;
		planner_now := @extschema@._bench_scan_kind(plan_json::jsonb);
		planner_proposed := NULL;
		IF proposed IS NOT NULL THEN
			BEGIN
				PERFORM set_config('random_page_cost', proposed::text, true);
				FOR g IN SELECT jsonb_object_keys(spcs_own) LOOP
					EXECUTE format('ALTER TABLESPACE %I SET (random_page_cost = %s)', g, proposed);
				END LOOP;
				EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan_json;
				planner_proposed := @extschema@._bench_scan_kind(plan_json::jsonb);
				-- undo the options (and the setting) with the subtransaction
				RAISE EXCEPTION USING ERRCODE = 'BSRB1';
			EXCEPTION WHEN SQLSTATE 'BSRB1' THEN
				NULL;
			END;
		END IF;

		results := results || jsonb_build_array(jsonb_build_object(
			'selectivity', s, 'rows', rows, 'actual_selectivity', rows / ntuples,
			'predicate', predicate,
			'seqscan_ms', times -> 'seqscan', 'indexscan_ms', times -> 'indexscan',
			'bitmapscan_ms', times -> 'bitmapscan', 'fastest', best,
			'planner_now', planner_now,
			'planner_now_pct', round((100 * (times ->> planner_now)::float8 / (times ->> best)::float8)::numeric, 1),
			'planner_proposed', planner_proposed,
			'planner_proposed_pct', round((100 * (times ->> planner_proposed)::float8 / (times ->> best)::float8)::numeric, 1),
			'notes', nullif(array_to_string(note, ' '), '')));
	END LOOP;

	FOR g, p IN SELECT * FROM jsonb_each_text(saved) LOOP
		PERFORM set_config(g, p, true);
	END LOOP;

	-- the rows, with the switches: the first selectivity from which the
	-- sequential scan is the fastest (or the one picked) at every larger one
	FOR i IN 1 .. jsonb_array_length(results) LOOP
		res := results -> (i - 1);
		selectivity := (res ->> 'selectivity')::float8;
		rows := (res ->> 'rows')::bigint;
		actual_selectivity := (res ->> 'actual_selectivity')::float8;
		predicate := res ->> 'predicate';
		seqscan_ms := (res ->> 'seqscan_ms')::float8;
		indexscan_ms := (res ->> 'indexscan_ms')::float8;
		bitmapscan_ms := (res ->> 'bitmapscan_ms')::float8;
		fastest := res ->> 'fastest';
		planner_now := res ->> 'planner_now';
		planner_now_pct := (res ->> 'planner_now_pct')::float8;
		planner_proposed := res ->> 'planner_proposed';
		planner_proposed_pct := (res ->> 'planner_proposed_pct')::float8;
		measured_switch := @extschema@._bench_switch_at(results, 'fastest', i);
		planner_switch := @extschema@._bench_switch_at(results, 'planner_now', i);
		proposed_switch := CASE WHEN proposed IS NOT NULL
								THEN @extschema@._bench_switch_at(results, 'planner_proposed', i) END;
		notes := res ->> 'notes';
		results := jsonb_set(results, ARRAY[(i - 1)::text],
							 res || jsonb_build_object('measured_switch', measured_switch,
													   'planner_switch', planner_switch,
													   'proposed_switch', proposed_switch));
		RETURN NEXT;
	END LOOP;

	IF keep THEN
		PERFORM @extschema@.bench_record('plan_crossover'::text, rel::text, results, run_label,
			jsonb_build_object('relation', rel::text, 'column_name', col, 'index', idx::text,
							   'selectivities', to_jsonb(sels), 'random_page_cost', proposed,
							   'random_page_cost_now', rpc_now, 'cache', cache_arg,
							   'repeat', n_rep, 'label', $7));
	END IF;
	IF not_cold > 0 THEN
		RAISE WARNING '% of the % cold plans timed were not cold: up to % %% of the pages were cached when a run began',
			not_cold, cold_runs, round(max_pct::numeric, 1)
			USING DETAIL = 'The notes column says which.',
				  HINT = CASE WHEN current_setting('server_version_num')::integer < 170000
							  THEN 'PostgreSQL before 17 cannot drop a relation''s shared buffers: a table several times larger than shared_buffers keeps few of its pages there.'
							  ELSE 'Pinned buffers or a cache below the server kept them: see bench_query''s warnings in bench_history.' END;
	END IF;
	RAISE NOTICE '%', @extschema@._bench_crossover_summary(results, rpc_now, proposed)
		USING DETAIL = format('Each plan forced with enable_seqscan, enable_indexscan and enable_bitmapscan, %s, one process (max_parallel_workers_per_gather = 0), jit off; index %s.%s',
							  CASE cache_arg WHEN 'cold' THEN 'cold' ELSE 'warm' END, idx,
							  CASE WHEN keep THEN format(' Runs and result recorded under label "%s".', run_label) ELSE '' END);
END;
$$;

COMMENT ON FUNCTION bench_plan_crossover(regclass, name, float8[], float8, text, integer, text, boolean) IS
'time a range count on an indexed column under a forced sequential, index and bitmap scan at each selectivity, cold: where the fastest plan switches to the sequential scan against where the planner switches, under the costs in effect and a proposed random_page_cost';

-- _bench_scan_kind: the scan of the table in an EXPLAIN (FORMAT JSON)
-- plan: seqscan, indexscan, bitmapscan or indexonlyscan (another node
-- type in lower case without blanks); NULL if no node names a relation.
CREATE FUNCTION _bench_scan_kind(plan jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.lower(pg_catalog.replace(pg_catalog.replace(
	pg_catalog.jsonb_path_query_first(plan, 'strict $.** ? (exists (@."Relation Name"))."Node Type"') OPERATOR(pg_catalog.#>>) '{}'::pg_catalog.text[],
	'Bitmap Heap Scan', 'bitmapscan'), ' ', ''));

COMMENT ON FUNCTION _bench_scan_kind(jsonb) IS
'internal: the kind of scan of the table in an EXPLAIN (FORMAT JSON) plan (bench_plan_crossover)';

-- _bench_switch_at: whether the i-th (from 1) of bench_plan_crossover's
-- results is where key turns to seqscan for good: seqscan there and at
-- every later one, and not at the one before.  NULL where key is.
CREATE FUNCTION _bench_switch_at(results jsonb, key text, i integer)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN results -> (i - 1) ->> key IS NULL THEN NULL
			ELSE NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(results) WITH ORDINALITY e(v, o)
							  WHERE e.o >= i AND (e.v ->> key) IS DISTINCT FROM 'seqscan')
				 AND (i = 1 OR (results -> (i - 2) ->> key) IS DISTINCT FROM 'seqscan') END;

COMMENT ON FUNCTION _bench_switch_at(jsonb, text, integer) IS
'internal: whether a result of bench_plan_crossover is where the plan turns to the sequential scan for good';

-- _bench_crossover_summary: the crossovers in words, for the NOTICE.
CREATE FUNCTION _bench_crossover_summary(results jsonb, cost_now text, cost_proposed float8)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT pg_catalog.format('Measured: %s. The planner (random_page_cost %s): %s.%s',
		x.measured, cost_now, x.now,
		CASE WHEN cost_proposed IS NOT NULL
			 THEN pg_catalog.format(' Under random_page_cost %s: %s.', cost_proposed, x.proposed) ELSE '' END)
	FROM (SELECT
		coalesce((SELECT pg_catalog.format('the sequential scan is the fastest from selectivity %s on', e.v OPERATOR(pg_catalog.->>) 'selectivity'::pg_catalog.text)
					FROM pg_catalog.jsonb_array_elements(results) WITH ORDINALITY e(v, o)
				   WHERE @extschema@._bench_switch_at(results, 'fastest', e.o::integer)),
				 'the sequential scan is not the fastest at every selectivity from any point measured on') AS measured,
		coalesce((SELECT pg_catalog.format('picks the sequential scan from selectivity %s on', e.v OPERATOR(pg_catalog.->>) 'selectivity'::pg_catalog.text)
					FROM pg_catalog.jsonb_array_elements(results) WITH ORDINALITY e(v, o)
				   WHERE @extschema@._bench_switch_at(results, 'planner_now', e.o::integer)),
				 'does not pick the sequential scan for good within the selectivities measured') AS now,
		coalesce((SELECT pg_catalog.format('picks it from selectivity %s on', e.v OPERATOR(pg_catalog.->>) 'selectivity'::pg_catalog.text)
					FROM pg_catalog.jsonb_array_elements(results) WITH ORDINALITY e(v, o)
				   WHERE @extschema@._bench_switch_at(results, 'planner_proposed', e.o::integer)),
				 'does not pick it for good within the selectivities measured') AS proposed) x;
END;

COMMENT ON FUNCTION _bench_crossover_summary(jsonb, text, float8) IS
'internal: bench_plan_crossover''s crossovers in words';

CREATE FUNCTION bench_query(
	query text,						-- one SELECT or WITH ... SELECT
	cache text DEFAULT 'warm',		-- warm | cold (every relation the plan reads evicted first)
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	allow_writes boolean DEFAULT false,	-- true: run a query that writes, then roll it back
	sample_interval interval DEFAULT '1s',	-- one sample of the time series per interval, 10 ms .. 1 h; NULL: none (1.2)
	OUT run integer,				-- 1 .. repeat
	OUT cache text,					-- warm or cold
	OUT elapsed_ms float8,			-- execution time (ExecutorStart to ExecutorEnd), ms; planning not included
	OUT rows bigint,				-- rows the query returned (counted, not sent)
	OUT blks_hit bigint,			-- blocks found in shared (or local) buffers, parallel workers included
	OUT blks_read bigint,			-- blocks PostgreSQL read from the OS, parallel workers included
	OUT read_ms float8,				-- time in those reads, ms; NULL unless track_io_timing
	OUT os_read_mb float8,			-- MB the kernel read from storage for this backend; NULL if unknown or with parallel workers
	OUT relations regclass[],		-- what the plan reads: tables with storage, then the indexes its scans use
	OUT size_mb float8,				-- their main forks' size now, MB (2^20 bytes)
	OUT mb_per_s float8,			-- size_mb / elapsed seconds: the effective scan rate
	OUT workers_planned integer,	-- parallel workers the plan's Gather nodes asked for
	OUT workers_launched integer,	-- parallel workers that ran
	OUT distributed boolean,		-- the plan reads Citus tables: size_mb is one copy of their shards, mb_per_s size_mb / elapsed (1.1)
	OUT cached_pct float8,			-- cold: % of the relations' pages still cached when the run began (0: cold); warm: NULL (1.2)
	OUT warnings text,				-- cold: what stayed cached and why, and a cache below the server that answered, in words; NULL: nothing (1.2)
	OUT served_by text				-- cold: 'storage', or 'cache below' when the block devices' counts show a cache under the filesystem answered; warm: NULL (1.2)
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_query'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_query(text, text, integer, text, boolean, boolean, interval) IS
'time a SELECT (warm or cold cache), one row per run, with the relations it reads and its effective scan rate';

CREATE FUNCTION bench_cache_evict(
	relation regclass,
	OUT files integer,				-- segment files of the main fork
	OUT mb float8,					-- their size, MB
	OUT os_cached_mb_before float8,	-- in the OS page cache before, MB
	OUT os_cached_mb_after float8,	-- in the OS page cache after the checkpoint and eviction, MB
	OUT shared_buffers_mb_before float8,	-- in shared (or your local) buffers before, MB (1.2)
	OUT shared_buffers_mb_after float8	-- after: 17+ evicts unpinned shared buffers; 15, 16 cannot (1.2)
)
RETURNS record
AS 'MODULE_PATHNAME', 'bench_cache_evict'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_cache_evict(regclass) IS
'checkpoint, then evict a relation''s main fork from shared buffers (17+) and the OS page cache, as a cold bench_seqscan run does';

REVOKE ALL ON FUNCTION bench_cache_evict(regclass) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bench_cache_evict(regclass) TO pg_checkpoint;

--
-- bench_tablespace_io and bench_tablespaces_io: repeat, with run and
-- warnings columns.  bench_tablespaces_io runs its tablespaces at the same
-- time, and each of its rows says so: it measures contention, not each
-- tablespace alone (bench_compare_tablespaces does that).
--
CREATE FUNCTION bench_tablespace_io(
	tablespace name DEFAULT 'pg_default',
	size text DEFAULT '1GB',			-- per stream, pg_size_bytes syntax
	block_size text DEFAULT '8kB',		-- a power of two, 512 bytes .. 16 MB
	tests text[] DEFAULT '{seqwrite,seqread,randread}',	-- also randwrite, sync
	streams integer DEFAULT 1,			-- concurrent streams, 1 .. 64
	direct boolean DEFAULT true,		-- O_DIRECT
	duration interval DEFAULT '10s',	-- cap of the random and sync tests
	label text DEFAULT NULL,			-- recorded with the run (see bench_history)
	record boolean DEFAULT true,		-- false: do not record the run
	iodepth integer DEFAULT 1,			-- operations in flight per stream, 1 .. 256 (io_uring above 1)
	repeat integer DEFAULT 1,			-- runs of the whole sequence of tests, 1 .. 1000 (1.2)
	sample_interval interval DEFAULT '1s',	-- one sample of the time series per interval, 10 ms .. 1 h; NULL: none (1.2)
	ramp interval DEFAULT NULL,			-- each test's warm-up, run but left out of its figures (fio's ramp_time); NULL: none (1.2)
	until text DEFAULT 'size',			-- 'size': each test ends as its size or duration says; 'steady': when steady holds, or at duration (1.2)
	steady text DEFAULT NULL,			-- steady-state criterion in fio's terms, e.g. 'iops:5%', 'bw_slope:2%', 'lat:10%'; several joined by commas (1.2)
	steady_window interval DEFAULT '30s',	-- the window the criterion judges (fio's ss_dur) (1.2)
	preconditioning boolean DEFAULT false,	-- write tests: write the file twice over first, untimed, as SNIA's tests do (1.2)
	OUT tablespace name,				-- the tablespace ('total' for the sum of several)
	OUT test text,						-- seqwrite, seqread, randread, randwrite or sync
	OUT block_size text,				-- bytes per operation, e.g. '8kB'
	OUT streams integer,				-- streams that actually ran
	OUT direct boolean,					-- O_DIRECT used
	OUT iodepth integer,				-- operations in flight per stream (sync: always 1)
	OUT bytes bigint,					-- bytes read or written, all streams
	OUT elapsed_ms float8,				-- wall-clock time from first start to last end, ms
	OUT mb_per_s float8,				-- MB (2^20 bytes) per second
	OUT iops float8,					-- operations (blocks) per second
	OUT lat_avg_us float8,				-- latency of one operation: mean, microseconds
	OUT lat_p50_us float8,				-- median
	OUT lat_p95_us float8,				-- 95th percentile
	OUT lat_p99_us float8,				-- 99th percentile
	OUT lat_p999_us float8,				-- 99.9th percentile
	OUT lat_max_us float8,				-- maximum
	OUT run integer,					-- 1 .. repeat (1.2)
	OUT warnings text,					-- what the figure does not measure, in words; NULL: nothing (1.2)
	OUT served_by text,					-- read tests: 'storage', or 'cache below' when the devices' counts show a cache under the filesystem answered; NULL for writes and sync (1.2)
	OUT steady_state boolean,			-- whether the steady criterion held over a window of the test; NULL: no criterion (1.2)
	OUT steady_at_ms float8,			-- when it first held: the end of that window, since the test began (ramp included) (1.2)
	OUT steady_criterion text			-- the criterion and its window, e.g. 'iops:5% over 30 s' (1.2)
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_tablespace_io'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) IS
'sequential and random I/O, sync rate and latency percentiles on temporary files in a tablespace';

CREATE FUNCTION bench_tablespaces_io(
	tablespaces name[],
	size text DEFAULT '1GB',
	block_size text DEFAULT '8kB',
	tests text[] DEFAULT '{seqwrite,seqread,randread}',
	streams integer DEFAULT 1,			-- per tablespace
	direct boolean DEFAULT true,
	duration interval DEFAULT '10s',
	label text DEFAULT NULL,
	record boolean DEFAULT true,
	iodepth integer DEFAULT 1,			-- per stream
	repeat integer DEFAULT 1,			-- (1.2)
	sample_interval interval DEFAULT '1s',	-- (1.2)
	ramp interval DEFAULT NULL,			-- (1.2)
	until text DEFAULT 'size',			-- (1.2)
	steady text DEFAULT NULL,			-- judged on the total of all tablespaces (1.2)
	steady_window interval DEFAULT '30s',	-- (1.2)
	preconditioning boolean DEFAULT false,	-- (1.2)
	OUT tablespace name,
	OUT test text,
	OUT block_size text,
	OUT streams integer,
	OUT direct boolean,
	OUT iodepth integer,
	OUT bytes bigint,
	OUT elapsed_ms float8,
	OUT mb_per_s float8,
	OUT iops float8,
	OUT lat_avg_us float8,
	OUT lat_p50_us float8,
	OUT lat_p95_us float8,
	OUT lat_p99_us float8,
	OUT lat_p999_us float8,
	OUT lat_max_us float8,
	OUT run integer,					-- (1.2)
	OUT warnings text,					-- several tablespaces ran at the same time: what that measures (1.2)
	OUT served_by text,					-- (1.2)
	OUT steady_state boolean,			-- (1.2)
	OUT steady_at_ms float8,			-- (1.2)
	OUT steady_criterion text			-- (1.2)
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_tablespaces_io'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) IS
'bench_tablespace_io on several tablespaces at the same time (their contention, not each alone), with a total row per test';

REVOKE ALL ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) TO pg_write_server_files;
GRANT EXECUTE ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) TO pg_write_server_files;

--
-- bench_compare: mix_cold.  A cold run that was not cold (cached_pct 1 or
-- more) is compared only with its like, as cache 'not cold', unless asked.
--
CREATE FUNCTION bench_compare(
	baseline text,					-- a label, or a run id
	candidate text,					-- a label, or a run id
	metrics text[] DEFAULT NULL,	-- metrics to compare; NULL: the headline ones
	mix_cold boolean DEFAULT false,	-- true: compare cold runs that were not cold with cold ones (1.2)
	OUT benchmark text,
	OUT target text,				-- 'fast1', or 'fast1 / fast3' when they differ
	OUT test text,					-- I/O test, or scan mode
	OUT cache text,					-- warm, cold, or 'not cold': cold runs with 1 % or more of their pages cached (1.2)
	OUT block_size text,
	OUT streams integer,
	OUT direct boolean,
	OUT iodepth integer,			-- operations in flight per stream (tablespace tests, raw scans)
	OUT metric text,
	OUT baseline_runs integer,		-- measurements averaged
	OUT candidate_runs integer,
	OUT baseline_value float8,		-- mean
	OUT candidate_value float8,		-- mean
	OUT ratio float8,				-- candidate / baseline
	OUT noise_pct float8,			-- smallest change that counts, % of the baseline
	OUT verdict text				-- better, worse, within noise, or no verdict: ...
)
RETURNS SETOF record
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	b_ids bigint[] := @extschema@.bench_run_ids(baseline);
	c_ids bigint[] := @extschema@.bench_run_ids(candidate);
	-- two-sided 95 % quantiles of Student's t for 1 .. 30 degrees of freedom
	t95 float8[] := '{12.706,4.303,3.182,2.776,2.571,2.447,2.365,2.306,2.262,2.228,
					  2.201,2.179,2.160,2.145,2.131,2.120,2.110,2.101,2.093,2.086,
					  2.080,2.074,2.069,2.064,2.060,2.056,2.052,2.048,2.045,2.042}';
	found_any boolean := false;
	not_cold integer;
	mixed text;
BEGIN
	IF mix_cold IS NULL THEN
		RAISE EXCEPTION 'mix_cold cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF cardinality(b_ids) = 0 THEN
		RAISE EXCEPTION 'no recorded run has label or run id "%"', baseline
			USING ERRCODE = 'undefined_object',
				  HINT = 'SELECT DISTINCT label FROM bench_history lists the labels you can see.';
	END IF;
	IF cardinality(c_ids) = 0 THEN
		RAISE EXCEPTION 'no recorded run has label or run id "%"', candidate
			USING ERRCODE = 'undefined_object',
				  HINT = 'SELECT DISTINCT label FROM bench_history lists the labels you can see.';
	END IF;

	FOR benchmark, target, test, cache, block_size, streams, direct, iodepth, metric,
		baseline_runs, candidate_runs, baseline_value, candidate_value, ratio,
		noise_pct, verdict IN
	WITH measured AS (
		SELECT 'b' AS side, h.* FROM @extschema@.bench_history h WHERE h.run_id = ANY (b_ids)
		UNION ALL
		SELECT 'c' AS side, h.* FROM @extschema@.bench_history h WHERE h.run_id = ANY (c_ids)
	),
	vals AS (
		SELECT m.side, m.benchmark, m.target_kind, m.target, m.test,
			   -- a cold run that was not cold pairs only with its like, unless asked
			   CASE WHEN m.cache = 'cold' AND NOT bench_compare.mix_cold
						 AND coalesce(@extschema@.bench_metric(m.metrics, 'cached_pct'), 0) >= 1
					THEN 'not cold' ELSE m.cache END AS cache,
			   m.block_size, m.streams, m.direct, m.iodepth, k.metric,
			   @extschema@.bench_metric(m.metrics, k.metric) AS value
		FROM measured m
		CROSS JOIN LATERAL unnest(CASE
			WHEN bench_compare.metrics IS NOT NULL THEN bench_compare.metrics
			WHEN m.benchmark IN ('seqscan', 'cluster_seqscan') THEN ARRAY['mb_per_s']
			WHEN m.benchmark = 'query' THEN ARRAY['elapsed_ms']
			WHEN m.benchmark IN ('tablespace_io', 'tablespaces_io', 'cluster_tablespace_io') THEN
				CASE WHEN m.test IN ('seqwrite', 'seqread')
					 THEN ARRAY['mb_per_s', 'lat_p99_us']
					 ELSE ARRAY['iops', 'lat_p99_us'] END
			ELSE ARRAY(SELECT e.key FROM jsonb_each(m.metrics) e
					   WHERE jsonb_typeof(e.value) = 'number' ORDER BY e.key)
		END) AS k(metric)
		WHERE @extschema@.bench_metric(m.metrics, k.metric) IS NOT NULL
	),
	grouped AS (
		SELECT v.side, v.benchmark, v.target_kind, v.target, v.test, v.cache,
			   v.block_size, v.streams, v.direct, v.iodepth, v.metric,
			   count(*)::integer AS n, avg(v.value) AS mean,
			   coalesce(stddev_samp(v.value), 0) AS sd
		FROM vals v
		GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
	),
	sided AS (
		SELECT g.*,
			   count(*) OVER (PARTITION BY g.side, g.benchmark, g.target_kind, g.test,
								  g.cache, g.block_size, g.streams, g.direct, g.iodepth,
								  g.metric) AS ntargets
		FROM grouped g
	),
	pairs AS (
		SELECT b.benchmark, b.test, b.cache, b.block_size, b.streams, b.direct, b.iodepth,
			   b.metric,
			   b.target AS b_target, c.target AS c_target,
			   b.n AS bn, c.n AS cn, b.mean AS bm, c.mean AS cm, b.sd AS bs, c.sd AS cs
		FROM sided b
		JOIN sided c
		  ON b.side = 'b' AND c.side = 'c'
		 AND b.benchmark = c.benchmark AND b.target_kind = c.target_kind
		 AND b.test IS NOT DISTINCT FROM c.test
		 AND b.cache IS NOT DISTINCT FROM c.cache
		 AND b.block_size IS NOT DISTINCT FROM c.block_size
		 AND b.streams IS NOT DISTINCT FROM c.streams
		 AND b.direct IS NOT DISTINCT FROM c.direct
		 AND b.iodepth IS NOT DISTINCT FROM c.iodepth
		 AND b.metric = c.metric
		 AND (b.target IS NOT DISTINCT FROM c.target OR (b.ntargets = 1 AND c.ntargets = 1))
	),
	stats AS (
		SELECT p.*,
			   -- standard error of the difference of the means, and its degrees of freedom
			   CASE WHEN p.bn >= 2 AND p.cn >= 2 THEN sqrt(p.bs ^ 2 / p.bn + p.cs ^ 2 / p.cn)
					WHEN p.bn >= 2 THEN p.bs * sqrt(1.0 / p.bn + 1.0 / p.cn)
					WHEN p.cn >= 2 THEN p.cs * sqrt(1.0 / p.bn + 1.0 / p.cn) END AS se,
			   CASE WHEN p.bn >= 2 AND p.cn >= 2 THEN
						CASE WHEN p.bs = 0 AND p.cs = 0 THEN NULL
							 ELSE (p.bs ^ 2 / p.bn + p.cs ^ 2 / p.cn) ^ 2 /
								  ((p.bs ^ 2 / p.bn) ^ 2 / (p.bn - 1) +
								   (p.cs ^ 2 / p.cn) ^ 2 / (p.cn - 1)) END
					WHEN p.bn >= 2 THEN p.bn - 1
					WHEN p.cn >= 2 THEN p.cn - 1 END AS df,
			   -- lower is better for times and latencies, higher for rates and the rest
			   (p.metric ~ '_per_(s|sec|second)$'
				OR p.metric !~ '(^lat_|latency|elapsed|_(ms|us|ns|s|sec|seconds)$)') AS higher_better
		FROM pairs p
	),
	judged AS (
		SELECT s.*,
			   s.se * CASE WHEN s.df IS NULL OR s.df > 30 THEN 1.96 + 2.4 / coalesce(s.df, 1e9)
						   ELSE t95[greatest(1, floor(s.df)::integer)] END AS half
		FROM stats s
	)
	SELECT j.benchmark,
		   CASE WHEN j.b_target IS NOT DISTINCT FROM j.c_target THEN j.b_target
				ELSE coalesce(j.b_target, '?') || ' / ' || coalesce(j.c_target, '?') END,
		   j.test, j.cache, j.block_size, j.streams, j.direct, j.iodepth, j.metric,
		   j.bn, j.cn,
		   round(j.bm::numeric, 2)::float8,
		   round(j.cm::numeric, 2)::float8,
		   round((j.cm / nullif(j.bm, 0))::numeric, 3)::float8,
		   round((100 * j.half / nullif(abs(j.bm), 0))::numeric, 1)::float8,
		   CASE WHEN j.se IS NULL THEN 'no verdict: one run each'
				WHEN j.se = 0 AND j.cm <> j.bm THEN 'no verdict: no spread'
				WHEN abs(j.cm - j.bm) <= j.half THEN 'within noise'
				WHEN (j.cm > j.bm) = j.higher_better THEN 'better'
				ELSE 'worse' END
	FROM judged j
	ORDER BY j.benchmark, j.b_target, j.c_target,
			 array_position(ARRAY['seqwrite', 'seqread', 'randread', 'randwrite', 'sync'], j.test),
			 j.test, j.cache,
			 CASE WHEN j.block_size ~ '^[0-9]{1,9} ?(bytes|kB|MB|GB)$' THEN pg_size_bytes(j.block_size) END,
			 j.block_size, j.streams, j.direct, j.iodepth, j.metric
	LOOP
		found_any := true;
		RETURN NEXT;
	END LOOP;

	SELECT count(DISTINCT h.run_id) INTO not_cold
	  FROM @extschema@.bench_history h
	 WHERE h.run_id = ANY (b_ids || c_ids) AND h.cache = 'cold'
	   AND coalesce(@extschema@.bench_metric(h.metrics, 'cached_pct'), 0) >= 1;
	IF not_cold > 0 AND NOT mix_cold THEN
		RAISE NOTICE '% of the cold runs compared were not cold: 1 %% or more of their pages were cached', not_cold
			USING DETAIL = 'They are compared only with runs that were not cold either, as cache ''not cold''.',
				  HINT = 'mix_cold => true compares them with the cold runs; bench_history.warnings says what stayed cached.';
	END IF;

	-- figures of different provenance: one side's reads from storage, the
	-- other's from a cache below the server
	WITH p AS (
		SELECT s.side, h.benchmark, h.test, h.served_by
		  FROM (SELECT 'b' AS side, unnest(b_ids) AS id
				UNION ALL SELECT 'c', unnest(c_ids)) s
		  JOIN @extschema@.bench_history h ON h.run_id = s.id
		 WHERE h.served_by IS NOT NULL)
	SELECT string_agg(DISTINCT format('%s (%s: %s, %s: %s)', b.test, baseline, b.served_by,
									  candidate, c.served_by), '; ')
	  INTO mixed
	  FROM p b JOIN p c
		ON b.side = 'b' AND c.side = 'c' AND b.benchmark = c.benchmark
	   AND b.test = c.test AND b.served_by <> c.served_by;
	IF mixed IS NOT NULL THEN
		RAISE WARNING 'the figures compared were read from different places: %', mixed
			USING DETAIL = 'Where one side''s reads were served by a cache below the server and the other''s by storage, the ratio compares a cache with a device.',
				  HINT = 'bench_history.served_by and .warnings give each run''s evidence.';
	END IF;

	IF NOT found_any THEN
		RAISE NOTICE 'nothing to compare: "%" and "%" have no measurement in common', baseline, candidate
			USING HINT = 'Measurements compare when benchmark, test, cache, block size, streams, direct and iodepth agree.';
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_compare(text, text, text[], boolean) IS
'compare two labels (or run ids) measurement by measurement, with a verdict that respects the noise of repeated runs';

--
-- bench_history: cached_pct and warnings (appended: CREATE OR REPLACE VIEW
-- keeps the view's grants and anything built on it).
--
CREATE OR REPLACE VIEW bench_history WITH (security_invoker = true) AS
SELECT r.run_id,
	   x.row_no,
	   r.started_at,
	   r.recorded_by,
	   r.label,
	   r.benchmark,
	   r.target_kind,
	   CASE WHEN r.benchmark IN ('tablespace_io', 'tablespaces_io')
			THEN x.metrics OPERATOR(pg_catalog.->>) 'tablespace'::pg_catalog.text ELSE r.target END AS target,
	   coalesce(x.metrics OPERATOR(pg_catalog.->>) 'test'::pg_catalog.text, x.metrics OPERATOR(pg_catalog.->>) 'mode'::pg_catalog.text) AS test,
	   x.metrics OPERATOR(pg_catalog.->>) 'cache'::pg_catalog.text AS cache,
	   x.metrics OPERATOR(pg_catalog.->>) 'block_size'::pg_catalog.text AS block_size,
	   CASE WHEN @extschema@.bench_metric(x.metrics, 'streams') BETWEEN 0::pg_catalog.float8 AND 2147483647::pg_catalog.float8
			THEN @extschema@.bench_metric(x.metrics, 'streams')::pg_catalog.int4
			-- a scan's processes: the caller and the workers it asked for
			WHEN @extschema@.bench_metric(x.metrics, 'workers_requested') BETWEEN 0::pg_catalog.float8 AND 2147483646::pg_catalog.float8
			THEN @extschema@.bench_metric(x.metrics, 'workers_requested')::pg_catalog.int4 OPERATOR(pg_catalog.+) 1
	   END AS streams,
	   CASE WHEN pg_catalog.jsonb_typeof(x.metrics OPERATOR(pg_catalog.->) 'direct'::pg_catalog.text) OPERATOR(pg_catalog.=) 'boolean'::pg_catalog.text
			THEN (x.metrics OPERATOR(pg_catalog.->>) 'direct'::pg_catalog.text)::pg_catalog.bool END AS direct,
	   @extschema@.bench_metric(x.metrics, 'size_mb') AS size_mb,
	   @extschema@.bench_metric(x.metrics, 'elapsed_ms') AS elapsed_ms,
	   @extschema@.bench_metric(x.metrics, 'mb_per_s') AS mb_per_s,
	   @extschema@.bench_metric(x.metrics, 'iops') AS iops,
	   @extschema@.bench_metric(x.metrics, 'tuples_per_s') AS tuples_per_s,
	   @extschema@.bench_metric(x.metrics, 'lat_avg_us') AS lat_avg_us,
	   @extschema@.bench_metric(x.metrics, 'lat_p50_us') AS lat_p50_us,
	   @extschema@.bench_metric(x.metrics, 'lat_p95_us') AS lat_p95_us,
	   @extschema@.bench_metric(x.metrics, 'lat_p99_us') AS lat_p99_us,
	   @extschema@.bench_metric(x.metrics, 'lat_p999_us') AS lat_p999_us,
	   @extschema@.bench_metric(x.metrics, 'lat_max_us') AS lat_max_us,
	   @extschema@.bench_metric(x.metrics, 'tps') AS tps,
	   x.metrics,
	   -- operations in flight per stream or process; runs of 1.0 had 1
	   CASE WHEN @extschema@.bench_metric(x.metrics, 'iodepth') BETWEEN 1::pg_catalog.float8 AND 2147483647::pg_catalog.float8
			THEN @extschema@.bench_metric(x.metrics, 'iodepth')::pg_catalog.int4
			WHEN r.benchmark IN ('tablespace_io', 'tablespaces_io', 'cluster_tablespace_io')
				 OR (r.benchmark IN ('seqscan', 'cluster_seqscan') AND x.metrics OPERATOR(pg_catalog.->>) 'mode'::pg_catalog.text OPERATOR(pg_catalog.=) 'raw'::pg_catalog.text)
			THEN 1
	   END AS iodepth,
	   -- a cold run: % of its pages cached when it began, and what stayed (1.2)
	   @extschema@.bench_metric(x.metrics, 'cached_pct') AS cached_pct,
	   x.metrics OPERATOR(pg_catalog.->>) 'warnings'::pg_catalog.text AS warnings,
	   -- where a read test's blocks came from: storage, or a cache below the server (1.2)
	   x.metrics OPERATOR(pg_catalog.->>) 'served_by'::pg_catalog.text AS served_by
FROM @extschema@.bench_run r
JOIN @extschema@.bench_result x ON x.run_id = r.run_id;

--
-- The time series (1.2): bench_tablespace_io(s), bench_seqscan and
-- bench_query take one sample per sample_interval of the figures each
-- result row gives for the whole run, kept here with that row and dropped
-- with it.  A figure unknown for an interval is NULL: latencies without
-- benchstore.track_latency, the I/O split where the run cannot tell it.
--
CREATE TABLE bench_sample (
	run_id bigint NOT NULL,
	row_no integer NOT NULL,			-- the result row (bench_result.row_no)
	sample_no integer NOT NULL,			-- 1 .. in time order
	start_ms float8 NOT NULL,			-- since the row's timed work began
	elapsed_ms float8 NOT NULL,			-- the interval's length (a last one may be short)
	mb_per_s float8,					-- MB (2^20 bytes) per second in the interval
	iops float8,						-- operations per second: blocks (tablespace tests, scans), executions (bench_query)
	lat_avg_us float8,					-- mean latency of the operations that ended in it (what steady => 'lat:..' judges)
	lat_p50_us float8,					-- median
	lat_p99_us float8,					-- 99th percentile
	read_mb float8,						-- the I/O split: MB read (from a file, or by PostgreSQL from the OS)
	write_mb float8,					-- MB written
	hit_mb float8,						-- MB found in shared (or local) buffers
	PRIMARY KEY (run_id, row_no, sample_no),
	FOREIGN KEY (run_id, row_no) REFERENCES bench_result ON DELETE CASCADE,
	CHECK (elapsed_ms > 0)
);

SELECT pg_catalog.pg_extension_config_dump('bench_sample', '');
GRANT SELECT ON bench_sample TO PUBLIC;

--
-- bench_series: every recorded sample with what it is a sample of.
--
CREATE VIEW bench_series WITH (security_invoker = true) AS
SELECT h.run_id,
	   h.row_no,
	   h.label,
	   h.benchmark,
	   h.target,
	   h.test,
	   h.cache,
	   h.block_size,
	   h.streams,
	   h.iodepth,
	   CASE WHEN @extschema@.bench_metric(h.metrics, 'run') BETWEEN 1::pg_catalog.float8 AND 2147483647::pg_catalog.float8
			THEN @extschema@.bench_metric(h.metrics, 'run')::integer END AS run,
	   s.sample_no,
	   s.start_ms,
	   s.elapsed_ms,
	   s.mb_per_s,
	   s.iops,
	   s.lat_avg_us,
	   s.lat_p50_us,
	   s.lat_p99_us,
	   s.read_mb,
	   s.write_mb,
	   s.hit_mb
FROM @extschema@.bench_history h
JOIN @extschema@.bench_sample s ON s.run_id = h.run_id AND s.row_no = h.row_no;

COMMENT ON VIEW bench_series IS
'every recorded sample of a run''s time series, with the result row it belongs to';

GRANT SELECT ON bench_series TO PUBLIC;

--
-- bench_samples: the time series of the runs a label or run id stands for.
--
CREATE FUNCTION bench_samples(ref text, test text DEFAULT NULL)
RETURNS SETOF bench_series
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ids bigint[];
BEGIN
	IF ref IS NULL THEN
		RAISE EXCEPTION 'ref cannot be null' USING ERRCODE = 'null_value_not_allowed',
			HINT = 'Pass a label, or a run id.';
	END IF;
	ids := @extschema@.bench_run_ids(ref);
	RETURN QUERY
		SELECT * FROM @extschema@.bench_series s
		WHERE s.run_id = ANY (ids)
		  AND (bench_samples.test IS NULL OR s.test = bench_samples.test)
		ORDER BY s.run_id, s.row_no, s.sample_no;
	IF NOT FOUND THEN
		RAISE NOTICE 'no sample is recorded for "%"', ref
			USING HINT = CASE WHEN cardinality(ids) = 0
							  THEN 'No recorded run has that label or run id.'
							  ELSE 'Runs record a time series from benchstore 1.2 on, unless sample_interval is NULL.' END;
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_samples(text, text) IS
'the recorded time series (one sample per interval) of the runs of a label or run id';

--
-- bench_chart(run_id): a run's time series as text bars, one line per
-- sample, time down the page, one block per result row.
--
CREATE FUNCTION bench_chart(
	run_id bigint,					-- the run (bench_history.run_id)
	metric text DEFAULT 'mb_per_s',	-- a column of bench_sample: mb_per_s, iops, lat_avg_us, lat_p50_us, lat_p99_us, read_mb, write_mb, hit_mb
	row_no integer DEFAULT NULL,	-- only this result row
	width integer DEFAULT 50,		-- cells of the longest bar, 1 .. 500
	OUT chart text
)
RETURNS SETOF text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	unicode boolean := current_setting('server_encoding') = 'UTF8'
					   AND current_setting('client_encoding') = 'UTF8';
	unit text;
	top float8;
	r record;
	s record;
	n integer := 0;
	eighths integer;
	bar text;
BEGIN
	IF run_id IS NULL OR metric IS NULL THEN
		RAISE EXCEPTION 'run_id and metric cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF width IS NULL OR width < 1 OR width > 500 THEN
		RAISE EXCEPTION 'width must be between 1 and 500'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF metric NOT IN ('mb_per_s', 'iops', 'lat_avg_us', 'lat_p50_us', 'lat_p99_us', 'read_mb', 'write_mb', 'hit_mb') THEN
		RAISE EXCEPTION 'unknown sample metric "%"', metric
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A sample has mb_per_s, iops, lat_avg_us, lat_p50_us, lat_p99_us, read_mb, write_mb and hit_mb.';
	END IF;
	unit := CASE metric WHEN 'mb_per_s' THEN 'MB/s' WHEN 'iops' THEN 'IOPS'
						WHEN 'lat_avg_us' THEN CASE WHEN unicode THEN chr(181) || 's' ELSE 'us' END
						WHEN 'lat_p50_us' THEN CASE WHEN unicode THEN chr(181) || 's' ELSE 'us' END
						WHEN 'lat_p99_us' THEN CASE WHEN unicode THEN chr(181) || 's' ELSE 'us' END
						ELSE 'MB' END;

	SELECT max((pg_catalog.to_jsonb(x) ->> metric)::float8) INTO top
	  FROM @extschema@.bench_sample x
	 WHERE x.run_id = bench_chart.run_id
	   AND (bench_chart.row_no IS NULL OR x.row_no = bench_chart.row_no);

	FOR r IN
		SELECT h.row_no, h.benchmark, h.target, h.test, h.block_size, h.iodepth, h.streams,
			   h.metrics ->> 'run' AS run_no, h.label
		FROM @extschema@.bench_history h
		WHERE h.run_id = bench_chart.run_id
		  AND (bench_chart.row_no IS NULL OR h.row_no = bench_chart.row_no)
		  AND EXISTS (SELECT FROM @extschema@.bench_sample x
					  WHERE x.run_id = h.run_id AND x.row_no = h.row_no)
		ORDER BY h.row_no
	LOOP
		chart := concat_ws(', ', coalesce(r.label, 'run ' || bench_chart.run_id) || ' row ' || r.row_no,
						   r.benchmark, r.target, r.test, r.block_size,
						   CASE WHEN r.iodepth IS NOT NULL THEN 'depth ' || r.iodepth END,
						   CASE WHEN r.streams > 1 THEN r.streams ||
								CASE WHEN r.benchmark LIKE '%seqscan' THEN ' processes' ELSE ' streams' END END,
						   CASE WHEN r.run_no IS NOT NULL THEN 'run ' || r.run_no END) ||
				 ': ' || metric || ' per sample';
		RETURN NEXT;
		FOR s IN
			SELECT x.start_ms, (pg_catalog.to_jsonb(x) ->> metric)::float8 AS value
			FROM @extschema@.bench_sample x
			WHERE x.run_id = bench_chart.run_id AND x.row_no = r.row_no
			ORDER BY x.sample_no
		LOOP
			eighths := CASE WHEN top > 0 AND s.value > 0
							THEN greatest(1, round(s.value / top * width * 8))::integer ELSE 0 END;
			bar := CASE WHEN unicode
						THEN repeat(chr(9608), eighths / 8) ||
							 CASE WHEN eighths % 8 > 0 THEN chr(9616 - eighths % 8) ELSE '' END
						ELSE CASE WHEN eighths > 0 AND eighths < 4 THEN '.'
								  ELSE repeat('#', round(eighths / 8.0)::integer) END END;
			chart := lpad(to_char(s.start_ms / 1000.0, 'FM999999990.0') || ' s', 10) || '  ' ||
					 rpad(bar, width) || '  ' ||
					 coalesce(lpad(round(s.value::numeric, 1)::text, 10) || ' ' || unit, 'unknown');
			n := n + 1;
			RETURN NEXT;
		END LOOP;
	END LOOP;

	IF n = 0 THEN
		RAISE NOTICE 'run % has no recorded sample', run_id
			USING HINT = 'Runs record a time series from benchstore 1.2 on, unless sample_interval is NULL; bench_series lists the recorded samples.';
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_chart(bigint, text, integer, integer) IS
'a run''s time series as text bars, one line per sample, one block per result row';

--
-- bench_svg (1.2): a picture of recorded runs, as a self-contained SVG
-- document (text): a run's time series, a block size × depth sweep, a
-- comparison with its confidence intervals, or a cache probe's knees.
-- psql writes it with \g file.svg (after \pset format unaligned and
-- \pset tuples_only); any browser shows it.  Drawn here, in SQL: no
-- client-side dependency.
--
CREATE FUNCTION bench_svg(
	run_ids bigint[],				-- the runs (bench_history.run_id); compare: baseline then candidate
	kind text DEFAULT 'series',		-- series, sweep, compare or probe
	metric text DEFAULT NULL,		-- series: a column of bench_sample (mb_per_s); sweep: a figure of the rows (iops); probe: lat_p50_us; compare: all of bench_compare's
	width integer DEFAULT 800,		-- pixels, 320 .. 4000
	height integer DEFAULT 420		-- pixels of the plot, 200 .. 4000 (the legend adds to it)
)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	palette text[] := ARRAY['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd',
							'#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
	spec jsonb;					-- {title, subtitle, xlabel, ylabel, xlog, series: [{name, pts}], marks}
	series jsonb := '[]';
	marks jsonb := '[]';
	title text;
	subtitle text;
	xlabel text;
	ylabel text;
	xlog boolean := false;
	unit text;
	r record;
	s jsonb;
	p jsonb;
	svg text;
	nser integer;
	x0 float8 := 72;			-- the plot area
	y0 float8 := 58;
	x1 float8;
	y1 float8;
	xmin float8;
	xmax float8;
	ymin float8;
	ymax float8;
	step float8;
	t float8;
	px float8;
	py float8;
	pts text;
	i integer;
	lbl text;
	total_h integer;
BEGIN
	IF run_ids IS NULL OR kind IS NULL OR width IS NULL OR height IS NULL THEN
		RAISE EXCEPTION 'run_ids, kind, width and height cannot be null'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF cardinality(run_ids) = 0 OR array_position(run_ids, NULL) IS NOT NULL THEN
		RAISE EXCEPTION 'run_ids must list at least one run, and no NULL'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF width NOT BETWEEN 320 AND 4000 OR height NOT BETWEEN 200 AND 4000 THEN
		RAISE EXCEPTION 'width must be between 320 and 4000, height between 200 and 4000'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF kind NOT IN ('series', 'sweep', 'compare', 'probe') THEN
		RAISE EXCEPTION 'unknown kind of picture "%"', kind
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Valid kinds are "series", "sweep", "compare" and "probe".';
	END IF;

	SELECT string_agg(DISTINCT coalesce(h.label, 'run ' || h.run_id) || ': ' || h.benchmark ||
					  CASE WHEN h.target IS NOT NULL THEN ' on ' || h.target ELSE '' END, '; ')
	  INTO subtitle
	  FROM (SELECT DISTINCT ON (b.run_id) b.run_id, b.label, b.benchmark,
				   CASE WHEN b.benchmark IN ('tablespace_io', 'tablespaces_io') THEN r2.target ELSE b.target END AS target
			  FROM @extschema@.bench_history b
			  JOIN @extschema@.bench_run r2 ON r2.run_id = b.run_id
			 WHERE b.run_id = ANY (run_ids)) h;
	IF subtitle IS NULL THEN
		RAISE EXCEPTION 'no recorded run has these run ids'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'bench_history lists the runs you can see.';
	END IF;

	IF kind = 'series' THEN
		metric := coalesce(metric, 'mb_per_s');
		IF metric NOT IN ('mb_per_s', 'iops', 'lat_avg_us', 'lat_p50_us', 'lat_p99_us', 'read_mb', 'write_mb', 'hit_mb') THEN
			RAISE EXCEPTION 'unknown sample metric "%"', metric
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'A sample has mb_per_s, iops, lat_avg_us, lat_p50_us, lat_p99_us, read_mb, write_mb and hit_mb.';
		END IF;
		FOR r IN
			SELECT h.run_id, h.row_no, h.label, h.benchmark, h.target, h.test, h.block_size,
				   h.iodepth, h.metrics ->> 'run' AS run_no,
				   jsonb_agg(jsonb_build_array(round(((x.start_ms + x.elapsed_ms / 2) / 1000)::numeric, 3),
											   pg_catalog.to_jsonb(x) -> metric) ORDER BY x.sample_no)
					 -- finite figures only; and a row's last sample, cut short by
					 -- the test's end (a few operations in a fraction of an
					 -- interval), has no rate worth a point
					 FILTER (WHERE pg_catalog.jsonb_typeof(pg_catalog.to_jsonb(x) -> metric) = 'number'
							 AND (x.sample_no < x.last_no OR x.sample_no = 1
								  OR x.elapsed_ms >= x.before_last / 2)) AS pts,
				   (h.metrics ->> 'steady_at_ms')::float8 AS steady_at_ms
			FROM @extschema@.bench_history h
			JOIN (SELECT s.*, max(s.sample_no) OVER w AS last_no,
						 lag(s.elapsed_ms) OVER (w ORDER BY s.sample_no) AS before_last
				  FROM @extschema@.bench_sample s WHERE s.run_id = ANY (run_ids)
				  WINDOW w AS (PARTITION BY s.run_id, s.row_no)) x
			  ON x.run_id = h.run_id AND x.row_no = h.row_no
			WHERE h.run_id = ANY (run_ids)
			GROUP BY h.run_id, h.row_no, h.label, h.benchmark, h.target, h.test, h.block_size,
					 h.iodepth, h.metrics ->> 'run', h.metrics ->> 'steady_at_ms'
			ORDER BY h.run_id, h.row_no
		LOOP
			CONTINUE WHEN r.pts IS NULL;
			-- where steady state was reached, marked
			IF r.steady_at_ms IS NOT NULL THEN
				marks := marks || jsonb_build_array(jsonb_build_object('x', r.steady_at_ms / 1000,
							 'label', 'steady: ' || r.test || ' at ' || round((r.steady_at_ms / 1000)::numeric, 1) || ' s'));
			END IF;
			series := series || jsonb_build_array(jsonb_build_object(
				'name', concat_ws(' ', 'run ' || r.run_id, r.test, r.block_size,
								  CASE WHEN r.iodepth > 1 THEN 'depth ' || r.iodepth END,
								  r.target,
								  CASE WHEN r.run_no IS NOT NULL AND r.run_no <> '1' THEN 'run ' || r.run_no END),
				'pts', r.pts));
		END LOOP;
		IF jsonb_array_length(series) = 0 THEN
			RAISE EXCEPTION 'no recorded sample of % for these runs', metric
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'Runs record a time series from benchstore 1.2 on, unless sample_interval is NULL; bench_series lists the recorded samples.';
		END IF;
		unit := CASE WHEN metric = 'mb_per_s' THEN 'MB/s' WHEN metric = 'iops' THEN 'operations/s'
					 WHEN metric LIKE 'lat%' THEN 'µs' ELSE 'MB' END;
		title := metric || ' over time';
		xlabel := 'time since the test began, s';
		ylabel := metric || ', ' || unit;

	ELSIF kind = 'sweep' THEN
		metric := coalesce(metric, 'iops');
		FOR r IN
			SELECT h.test, h.block_size, h.target,
				   jsonb_agg(jsonb_build_array(h.iodepth, round(avg_v::numeric, 3)) ORDER BY h.iodepth) AS pts
			FROM (SELECT h.test, h.block_size, h.target, h.iodepth,
						 avg(@extschema@.bench_metric(h.metrics, metric)) AS avg_v
				  FROM @extschema@.bench_history h
				  WHERE h.run_id = ANY (run_ids) AND h.iodepth IS NOT NULL
					AND h.benchmark IN ('tablespace_io', 'tablespaces_io', 'cluster_tablespace_io')
					AND h.block_size ~ '^[0-9]+ ?(bytes|[kMG]B)$'
					AND @extschema@.bench_metric(h.metrics, metric) IS NOT NULL
				  GROUP BY h.test, h.block_size, h.target, h.iodepth) h
			GROUP BY h.test, h.block_size, h.target
			ORDER BY h.test, pg_catalog.pg_size_bytes(h.block_size), h.target
		LOOP
			series := series || jsonb_build_array(jsonb_build_object(
				'name', concat_ws(' ', r.test, r.block_size, r.target), 'pts', r.pts));
		END LOOP;
		IF jsonb_array_length(series) = 0 THEN
			RAISE EXCEPTION 'these runs have no figure % at a queue depth', metric
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'A sweep draws the rows of bench_tablespace_io runs at several block sizes and iodepths.';
		END IF;
		xlog := true;
		title := metric || ' against queue depth, per block size';
		xlabel := 'iodepth (operations in flight per stream)';
		ylabel := metric || CASE WHEN metric = 'mb_per_s' THEN ', MB/s' WHEN metric = 'iops' THEN ', operations/s'
								 WHEN metric LIKE 'lat%' THEN ', µs' ELSE '' END;

	ELSIF kind = 'probe' THEN
		metric := coalesce(metric, 'lat_p50_us');
		FOR r IN
			SELECT jsonb_agg(jsonb_build_array(@extschema@.bench_metric(h.metrics, 'size_mb'),
											   @extschema@.bench_metric(h.metrics, metric))
							 ORDER BY @extschema@.bench_metric(h.metrics, 'size_mb')) AS pts,
				   h.run_id, h.target
			FROM @extschema@.bench_history h
			WHERE h.run_id = ANY (run_ids) AND h.benchmark = 'tablespace_cache_probe'
			  AND @extschema@.bench_metric(h.metrics, metric) IS NOT NULL
			GROUP BY h.run_id, h.target ORDER BY h.run_id
		LOOP
			series := series || jsonb_build_array(jsonb_build_object(
				'name', 'run ' || r.run_id || ' ' || r.target, 'pts', r.pts));
		END LOOP;
		IF jsonb_array_length(series) = 0 THEN
			RAISE EXCEPTION 'these runs have no cache probe with %', metric
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'A probe picture draws the rows of bench_tablespace_cache_probe runs.';
		END IF;
		SELECT coalesce(jsonb_agg(jsonb_build_object('x', @extschema@.bench_metric(h.metrics, 'size_mb'),
						'label', 'knee: cache of about ' || round(@extschema@.bench_metric(h.metrics, 'cache_mb')::numeric) || ' MB')), '[]')
		  INTO marks
		  FROM @extschema@.bench_history h
		 WHERE h.run_id = ANY (run_ids) AND h.benchmark = 'tablespace_cache_probe'
		   AND h.metrics ->> 'knee' IS NOT NULL;
		xlog := true;
		title := metric || ' of random direct reads against the working set';
		xlabel := 'file read at random, MB';
		ylabel := metric || CASE WHEN metric = 'iops' THEN ', operations/s' WHEN metric LIKE 'lat%' THEN ', µs' ELSE '' END;
	END IF;

	-- the texts, escaped for XML
	-- (every text drawn is escaped so, and stripped of the control
	-- characters XML does not allow)
	title := replace(replace(replace(regexp_replace(coalesce(title, 'bench_compare: candidate / baseline, with the 95 % interval'), '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;');
	subtitle := replace(replace(replace(regexp_replace(subtitle, '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;');

	IF kind = 'compare' THEN
		IF cardinality(run_ids) <> 2 THEN
			RAISE EXCEPTION 'a comparison takes two runs: the baseline, then the candidate'
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
		-- one bar per compared figure: the ratio, its interval, the verdict
		SELECT jsonb_agg(jsonb_build_object(
				   'name', replace(replace(replace(regexp_replace(concat_ws(' ', c.test, c.block_size,
							   CASE WHEN c.iodepth > 1 THEN 'depth ' || c.iodepth END,
							   CASE WHEN c.streams > 1 THEN c.streams || ' streams' END,
							   CASE WHEN c.cache = 'cold' THEN 'cold' END,
							   c.target, c.metric),
							   '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'),
							   '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
				   'ratio', c.ratio, 'noise', c.noise_pct, 'verdict', c.verdict)
				   ORDER BY c.benchmark, c.target, c.test, c.block_size, c.metric)
		  INTO series
		  FROM @extschema@.bench_compare(run_ids[1]::text, run_ids[2]::text,
										 CASE WHEN metric IS NOT NULL THEN ARRAY[metric] END) c
		 -- finite ratios only (NaN sorts above Infinity)
		 WHERE c.ratio > 0 AND c.ratio < 'Infinity'::float8
		   AND (c.noise_pct IS NULL OR c.noise_pct < 'Infinity'::float8);
		IF series IS NULL THEN
			RAISE EXCEPTION 'runs % and % have no figure to compare', run_ids[1], run_ids[2]
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'bench_compare pairs the rows that agree on benchmark, test, cache, block size, streams and direct I/O.';
		END IF;
		nser := jsonb_array_length(series);
		total_h := 70 + 26 * nser + 50;
		x0 := 230;
		x1 := width - 60;
		y0 := 62;
		SELECT least(min((e ->> 'ratio')::float8 * (1 - coalesce((e ->> 'noise')::float8, 0) / 100)), 0.9),
			   greatest(max((e ->> 'ratio')::float8 * (1 + coalesce((e ->> 'noise')::float8, 0) / 100)), 1.1)
		  INTO xmin, xmax FROM jsonb_array_elements(series) e;
		step := xmax - xmin;
		t := power(10, floor(log(step / 5)));
		step := t * CASE WHEN step / 5 / t <= 1 THEN 1 WHEN step / 5 / t <= 2 THEN 2 WHEN step / 5 / t <= 5 THEN 5 ELSE 10 END;
		xmin := floor(xmin / step) * step;
		xmax := ceil(xmax / step) * step;
		y1 := y0 + 26 * nser;
		svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">',
					  width, total_h, width, total_h)
			|| format('<rect width="%s" height="%s" fill="#ffffff"/>', width, total_h)
			|| format('<text x="%s" y="22" font-size="16" font-weight="bold">%s</text>', 12, title)
			|| format('<text x="%s" y="40" fill="#555555">%s</text>', 12, subtitle);
		-- the axis: ratio, gridlines, 1.0 marked
		t := xmin;
		WHILE t <= xmax + step / 1000 LOOP
			px := x0 + (t - xmin) / (xmax - xmin) * (x1 - x0);
			svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>', round(px::numeric, 1), y0 - 4, round(px::numeric, 1), y1)
				|| format('<text x="%s" y="%s" text-anchor="middle">%s</text>', round(px::numeric, 1), y1 + 16,
						  rtrim(to_char(t, 'FM9999990.999'), '.'));
			t := t + step;
		END LOOP;
		px := x0 + (1 - xmin) / (xmax - xmin) * (x1 - x0);
		svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="1.5"/>', round(px::numeric, 1), y0 - 6, round(px::numeric, 1), y1)
			|| format('<text x="%s" y="%s" text-anchor="middle">%s</text>', (x0 + x1) / 2, y1 + 36,
					  'candidate / baseline (1 = no change); whiskers: the 95 % interval of the difference');
		i := 0;
		FOR s IN SELECT e FROM jsonb_array_elements(series) e LOOP
			py := y0 + 26 * i + 4;
			t := (s ->> 'ratio')::float8;
			svg := svg || format('<text x="%s" y="%s" text-anchor="end">%s</text>', x0 - 8, round(py::numeric + 13, 1), s ->> 'name')
				|| format('<rect x="%s" y="%s" width="%s" height="18" fill="%s"/>',
						  round((x0 + (least(t, 1) - xmin) / (xmax - xmin) * (x1 - x0))::numeric, 1), round(py::numeric, 1),
						  round((abs(t - 1) / (xmax - xmin) * (x1 - x0))::numeric, 1),
						  CASE s ->> 'verdict' WHEN 'better' THEN '#2ca02c' WHEN 'worse' THEN '#d62728'
											  WHEN 'within noise' THEN '#999999' ELSE '#cccccc' END);
			IF s ->> 'noise' IS NOT NULL THEN
				svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000"/>',
						round((x0 + (t * (1 - (s ->> 'noise')::float8 / 100) - xmin) / (xmax - xmin) * (x1 - x0))::numeric, 1), round(py::numeric + 9, 1),
						round((x0 + (t * (1 + (s ->> 'noise')::float8 / 100) - xmin) / (xmax - xmin) * (x1 - x0))::numeric, 1), round(py::numeric + 9, 1));
			END IF;
			svg := svg || format('<text x="%s" y="%s">%s</text>', round((x0 + (greatest(t, 1) - xmin) / (xmax - xmin) * (x1 - x0))::numeric + 4, 1),
								 round(py::numeric + 13, 1), rtrim(rtrim(to_char(t, 'FM9999990.000'), '0'), '.') || ' ' || (s ->> 'verdict'));
			i := i + 1;
		END LOOP;
		RETURN svg || '</svg>';
	END IF;

	-- a plot: lines and points, on linear or base-2 logarithmic x
	ylabel := replace(replace(replace(regexp_replace(ylabel, '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;');
	xlabel := replace(replace(replace(regexp_replace(xlabel, '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;');
	nser := jsonb_array_length(series);
	total_h := height + 18 * nser + 8;
	x1 := width - 24;
	y1 := height - 56;
	SELECT min((e ->> 0)::float8), max((e ->> 0)::float8), min((e ->> 1)::float8), max((e ->> 1)::float8)
	  INTO xmin, xmax, ymin, ymax
	  FROM jsonb_array_elements(series) s2, jsonb_array_elements(s2 -> 'pts') e;
	SELECT greatest(xmax, max((e ->> 'x')::float8)) INTO xmax FROM jsonb_array_elements(marks) e;
	ymin := least(ymin, 0);
	IF ymax <= ymin THEN
		ymax := ymin + 1;
	END IF;
	step := (ymax - ymin) / 5;
	t := power(10, floor(log(step)));
	step := t * CASE WHEN step / t <= 1 THEN 1 WHEN step / t <= 2 THEN 2 WHEN step / t <= 5 THEN 5 ELSE 10 END;
	ymin := floor(ymin / step) * step;
	ymax := ceil(ymax / step) * step;
	IF xlog THEN
		xmin := power(2, floor(log(2, greatest(xmin, 1e-6)::numeric)));
		xmax := power(2, ceil(log(2, greatest(xmax, 1e-6)::numeric)));
		IF xmax <= xmin THEN
			xmax := xmin * 2;
		END IF;
	ELSE
		xmin := least(xmin, 0);
		IF xmax <= xmin THEN
			xmax := xmin + 1;
		END IF;
	END IF;

	svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">',
				  width, total_h, width, total_h)
		|| format('<rect width="%s" height="%s" fill="#ffffff"/>', width, total_h)
		|| format('<text x="12" y="22" font-size="16" font-weight="bold">%s</text>', title)
		|| format('<text x="12" y="40" fill="#555555">%s</text>', subtitle);

	-- y: gridlines and labels
	t := ymin;
	WHILE t <= ymax + step / 1000 LOOP
		py := y1 - (t - ymin) / (ymax - ymin) * (y1 - y0);
		svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e5e5e5"/>', x0, round(py::numeric, 1), x1, round(py::numeric, 1))
			|| format('<text x="%s" y="%s" text-anchor="end">%s</text>', x0 - 6, round(py::numeric + 4, 1),
					  rtrim(to_char(t, 'FM999999999990.999'), '.'));
		t := t + step;
	END LOOP;
	svg := svg || format('<text transform="translate(16 %s) rotate(-90)" text-anchor="middle">%s</text>',
						 round(((y0 + y1) / 2)::numeric, 1), ylabel);

	-- x: gridlines and labels (powers of two on a log axis)
	IF xlog THEN
		t := xmin;
		WHILE t <= xmax * 1.0001 LOOP
			px := x0 + (log(2, t::numeric) - log(2, xmin::numeric)) / (log(2, xmax::numeric) - log(2, xmin::numeric)) * (x1 - x0);
			svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e5e5e5"/>', round(px::numeric, 1), y0, round(px::numeric, 1), y1)
				|| format('<text x="%s" y="%s" text-anchor="middle">%s</text>', round(px::numeric, 1), y1 + 16,
						  rtrim(to_char(t, 'FM999999999990.999'), '.'));
			t := t * CASE WHEN (log(2, xmax::numeric) - log(2, xmin::numeric)) > 12 THEN 4 ELSE 2 END;
		END LOOP;
	ELSE
		step := (xmax - xmin) / 8;
		t := power(10, floor(log(step)));
		step := t * CASE WHEN step / t <= 1 THEN 1 WHEN step / t <= 2 THEN 2 WHEN step / t <= 5 THEN 5 ELSE 10 END;
		xmax := ceil(xmax / step) * step;
		t := xmin;
		WHILE t <= xmax + step / 1000 LOOP
			px := x0 + (t - xmin) / (xmax - xmin) * (x1 - x0);
			svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e5e5e5"/>', round(px::numeric, 1), y0, round(px::numeric, 1), y1)
				|| format('<text x="%s" y="%s" text-anchor="middle">%s</text>', round(px::numeric, 1), y1 + 16,
						  rtrim(to_char(t, 'FM999999999990.999'), '.'));
			t := t + step;
		END LOOP;
	END IF;
	svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000"/>', x0, y1, x1, y1)
		|| format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000"/>', x0, y0, x0, y1)
		|| format('<text x="%s" y="%s" text-anchor="middle">%s</text>', round(((x0 + x1) / 2)::numeric, 1), y1 + 36, xlabel);

	-- marks: vertical dashed lines with their words (a probe's knees)
	i := 0;
	FOR s IN SELECT e FROM jsonb_array_elements(marks) e LOOP
		t := (s ->> 'x')::float8;
		CONTINUE WHEN t IS NULL OR t < xmin OR t > xmax OR (xlog AND t <= 0);
		px := CASE WHEN xlog THEN x0 + (log(2, t::numeric) - log(2, xmin::numeric)) / (log(2, xmax::numeric) - log(2, xmin::numeric)) * (x1 - x0)
				   ELSE x0 + (t - xmin) / (xmax - xmin) * (x1 - x0) END;
		svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#d62728" stroke-dasharray="5 4"/>', round(px::numeric, 1), y0, round(px::numeric, 1), y1)
			|| format('<text x="%s" y="%s" fill="#d62728" text-anchor="%s">%s</text>',
					  round((px + CASE WHEN px > (x0 + x1) / 2 THEN -4 ELSE 4 END)::numeric, 1), y0 + 14 + 14 * i,
					  CASE WHEN px > (x0 + x1) / 2 THEN 'end' ELSE 'start' END,
					  replace(replace(replace(regexp_replace(s ->> 'label', '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'));
		i := i + 1;
	END LOOP;

	-- the series, each a polyline (and points when few), its legend below
	i := 0;
	FOR s IN SELECT e FROM jsonb_array_elements(series) e LOOP
		SELECT string_agg(format('%s,%s',
				   round((CASE WHEN xlog THEN x0 + (log(2, greatest((q ->> 0)::float8, 1e-6)::numeric) - log(2, xmin::numeric)) / (log(2, xmax::numeric) - log(2, xmin::numeric)) * (x1 - x0)
							   ELSE x0 + ((q ->> 0)::float8 - xmin) / (xmax - xmin) * (x1 - x0) END)::numeric, 1),
				   round((y1 - ((q ->> 1)::float8 - ymin) / (ymax - ymin) * (y1 - y0))::numeric, 1)), ' ' ORDER BY n)
		  INTO pts
		  FROM jsonb_array_elements(s -> 'pts') WITH ORDINALITY AS a(q, n);
		svg := svg || format('<polyline fill="none" stroke="%s" stroke-width="1.8" points="%s"/>',
							 palette[1 + i % 10], pts);
		IF jsonb_array_length(s -> 'pts') <= 60 THEN
			svg := svg || (SELECT string_agg(format('<circle cx="%s" cy="%s" r="2.5" fill="%s"/>',
											 split_part(c, ',', 1), split_part(c, ',', 2), palette[1 + i % 10]), '')
						   FROM unnest(string_to_array(pts, ' ')) c);
		END IF;
		lbl := replace(replace(replace(regexp_replace(s ->> 'name', '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;');
		svg := svg || format('<rect x="%s" y="%s" width="14" height="4" fill="%s"/>', x0, height + 18 * i - 8, palette[1 + i % 10])
			|| format('<text x="%s" y="%s">%s</text>', x0 + 20, height + 18 * i - 2, lbl);
		i := i + 1;
	END LOOP;
	RETURN svg || '</svg>';
END;
$$;

COMMENT ON FUNCTION bench_svg(bigint[], text, text, integer, integer) IS
'a picture of recorded runs as a self-contained SVG: a time series, a block size × depth sweep, a comparison with its intervals, or a cache probe''s knees';

--
-- bench_compare_tablespaces and bench_compare_relations: two tablespaces
-- (or two relations, such as the same table on two tablespaces) compared
-- in one call.  Each round measures one, then the other, never both at
-- once, and the one that goes first alternates, so that neither always
-- follows the other's writes or caches.  Every run is recorded under a
-- label per side derived from the call's label; the verdict is
-- bench_compare's, with the ratio's 95 % interval.
--
CREATE FUNCTION _bench_compare_labels(label text, a text, b text,
									  OUT a_label text, OUT b_label text, OUT base text)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	base := coalesce(label, format('compare %s', to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS')));
	IF current_setting('transaction_read_only')::boolean THEN
		RAISE EXCEPTION 'cannot compare in a read-only transaction'
			USING ERRCODE = 'read_only_sql_transaction',
				  DETAIL = 'Every run of a comparison is recorded in the history, and the verdict is read from it.';
	END IF;
	IF a = b THEN
		RAISE EXCEPTION '"%" is compared with itself', a
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'An A/A comparison (the same thing twice) shows the noise: use bench_tablespace_io or bench_seqscan with repeat, under two labels, and bench_compare.';
	END IF;
	a_label := format('%s: %s', base, a);
	b_label := format('%s: %s', base, b);
	IF octet_length(b_label) > 200 OR octet_length(a_label) > 200 THEN
		RAISE EXCEPTION 'label is too long for a comparison'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('The runs are recorded under "%s: <name>", at most 200 bytes.', base);
	END IF;
	IF EXISTS (SELECT 1 FROM @extschema@.bench_run r WHERE r.label IN (a_label, b_label)) THEN
		RAISE EXCEPTION 'label "%" already holds runs', CASE WHEN EXISTS (SELECT 1 FROM @extschema@.bench_run r WHERE r.label = a_label) THEN a_label ELSE b_label END
			USING ERRCODE = 'duplicate_object',
				  DETAIL = 'A comparison''s verdict covers its own rounds only.',
				  HINT = 'Choose another label, or compare the recorded labels with bench_compare.';
	END IF;
END;
$$;

COMMENT ON FUNCTION _bench_compare_labels(text, text, text) IS
'internal: the labels a comparison records its two sides under, checked';

-- EXECUTE stays with PUBLIC: bench_compare_relations, which anyone may
-- run, calls it as its caller; it records nothing and reads only what
-- bench_run shows the caller.

-- The verdict of a comparison: bench_compare of its two labels, the ratio's
-- 95 % interval (ratio ∓ noise_pct / 100, the low end at 0 at least), and
-- the verdict naming the better side.
CREATE FUNCTION _bench_compare_sides(a_label text, b_label text, a_name text, b_name text,
									 OUT test text, OUT cache text, OUT metric text,
									 OUT a_value float8, OUT b_value float8, OUT ratio float8,
									 OUT ratio_low float8, OUT ratio_high float8,
									 OUT runs integer, OUT verdict text)
RETURNS SETOF record
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT c.test, c.cache, c.metric, c.baseline_value, c.candidate_value, c.ratio,
		   greatest(0, round((c.ratio - c.noise_pct / 100)::numeric, 3))::float8,
		   round((c.ratio + c.noise_pct / 100)::numeric, 3)::float8,
		   least(c.baseline_runs, c.candidate_runs),
		   CASE c.verdict WHEN 'better' THEN format('%s better', b_name)
						  WHEN 'worse' THEN format('%s better', a_name)
						  ELSE c.verdict END
	  FROM @extschema@.bench_compare(a_label, b_label) c
$$;

COMMENT ON FUNCTION _bench_compare_sides(text, text, text, text) IS
'internal: the verdict of a comparison in one call, from its two labels';

-- EXECUTE stays with PUBLIC, as for _bench_compare_labels: it reads only
-- what bench_compare shows the caller.

CREATE FUNCTION bench_compare_tablespaces(
	a name,								-- the baseline tablespace
	b name,								-- the candidate
	tests text[] DEFAULT '{seqwrite,seqread,randread}',	-- as bench_tablespace_io
	size text DEFAULT '1GB',			-- file size, pg_size_bytes syntax
	duration interval DEFAULT '10s',	-- cap of the random and sync tests
	iodepth integer DEFAULT 1,			-- operations in flight, 1 .. 256 (io_uring above 1)
	rounds integer DEFAULT 5,			-- runs of each tablespace, 2 .. 100
	label text DEFAULT NULL,			-- runs recorded under '<label>: <a>' and '<label>: <b>'
	block_size text DEFAULT '8kB',		-- bytes per operation
	direct boolean DEFAULT true,		-- O_DIRECT: the storage, not the page cache
	OUT test text,						-- the I/O test
	OUT metric text,					-- what is compared (bench_compare's headline metrics)
	OUT a_value float8,					-- mean over the rounds, on a
	OUT b_value float8,					-- on b
	OUT ratio float8,					-- b / a
	OUT ratio_low float8,				-- the ratio's 95 % interval
	OUT ratio_high float8,
	OUT runs integer,					-- runs on each side (the rounds done)
	OUT verdict text,					-- '<b> better', '<a> better', 'within noise', or no verdict: ...
	OUT a_label text,					-- where the runs are recorded
	OUT b_label text
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	ts_a name := $1;
	ts_b name := $2;
	n integer := $7;
	la text;
	lb text;
	base text;
	first_ts name;
	second_ts name;
	quiet text;
BEGIN
	IF ts_a IS NULL OR ts_b IS NULL OR $3 IS NULL OR $4 IS NULL OR $5 IS NULL OR $6 IS NULL OR n IS NULL OR $9 IS NULL OR $10 IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN ts_a IS NULL THEN 'a' WHEN ts_b IS NULL THEN 'b' WHEN $3 IS NULL THEN 'tests'
				 WHEN $4 IS NULL THEN 'size' WHEN $5 IS NULL THEN 'duration' WHEN $6 IS NULL THEN 'iodepth'
				 WHEN n IS NULL THEN 'rounds' WHEN $9 IS NULL THEN 'block_size' ELSE 'direct' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- both exist before either is measured
	IF NOT EXISTS (SELECT 1 FROM pg_tablespace t WHERE t.spcname = ts_a) THEN
		RAISE EXCEPTION 'tablespace "%" does not exist', ts_a USING ERRCODE = 'undefined_object';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_tablespace t WHERE t.spcname = ts_b) THEN
		RAISE EXCEPTION 'tablespace "%" does not exist', ts_b USING ERRCODE = 'undefined_object';
	END IF;
	IF n < 2 OR n > 100 THEN
		RAISE EXCEPTION 'rounds must be between 2 and 100'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A verdict needs the spread of two rounds at least; five is a good start.';
	END IF;
	SELECT l.a_label, l.b_label, l.base INTO la, lb, base
	  FROM @extschema@._bench_compare_labels($8, ts_a, ts_b) l;

	-- the runs' own notices would repeat every round: the result says it once
	quiet := current_setting('client_min_messages');
	PERFORM set_config('client_min_messages', 'warning', true);
	FOR r IN 1 .. n LOOP
		IF r % 2 = 1 THEN first_ts := ts_a; second_ts := ts_b;
		ELSE first_ts := ts_b; second_ts := ts_a; END IF;
		RAISE DEBUG 'round % of %: % then %', r, n, first_ts, second_ts;
		PERFORM FROM @extschema@.bench_tablespace_io(first_ts, size => $4, block_size => $9, tests => $3,
				streams => 1, direct => $10, duration => $5,
				label => CASE WHEN first_ts = ts_a THEN la ELSE lb END,
				record => true, iodepth => $6, repeat => 1);
		PERFORM FROM @extschema@.bench_tablespace_io(second_ts, size => $4, block_size => $9, tests => $3,
				streams => 1, direct => $10, duration => $5,
				label => CASE WHEN second_ts = ts_a THEN la ELSE lb END,
				record => true, iodepth => $6, repeat => 1);
	END LOOP;
	PERFORM set_config('client_min_messages', quiet, true);

	RETURN QUERY
	SELECT v.test, v.metric, v.a_value, v.b_value, v.ratio, v.ratio_low, v.ratio_high,
		   v.runs, v.verdict, la, lb
	  FROM @extschema@._bench_compare_sides(la, lb, ts_a, ts_b) v;
	RAISE NOTICE 'runs recorded under labels "%" and "%"', la, lb
		USING HINT = format('bench_chart(%L) draws them; bench_compare(%L, %L, metrics => ...) compares other metrics.',
							base || ': %', la, lb);
END;
$$;

COMMENT ON FUNCTION bench_compare_tablespaces(name, name, text[], text, interval, integer, integer, text, text, boolean) IS
'compare two tablespaces test by test, one after the other in alternating rounds, with a verdict and the ratio''s 95 % interval';

REVOKE ALL ON FUNCTION bench_compare_tablespaces(name, name, text[], text, interval, integer, integer, text, text, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bench_compare_tablespaces(name, name, text[], text, interval, integer, integer, text, text, boolean) TO pg_write_server_files;

CREATE FUNCTION bench_compare_relations(
	a regclass,							-- the baseline relation
	b regclass,							-- the candidate (the same table on another tablespace, say)
	mode text DEFAULT 'heap',			-- as bench_seqscan
	cache text DEFAULT 'cold',			-- as bench_seqscan
	rounds integer DEFAULT 5,			-- scans of each relation, 2 .. 100
	label text DEFAULT NULL,			-- runs recorded under '<label>: <a>' and '<label>: <b>'
	OUT test text,						-- the scan mode
	OUT cache_state text,				-- warm, cold, or not cold: cold runs that found 1 % or more cached (see bench_compare)
	OUT metric text,
	OUT a_value float8,
	OUT b_value float8,
	OUT ratio float8,					-- b / a
	OUT ratio_low float8,				-- the ratio's 95 % interval
	OUT ratio_high float8,
	OUT runs integer,					-- runs on each side (the rounds done)
	OUT verdict text,					-- '<b> better', '<a> better', 'within noise', or no verdict: ...
	OUT a_label text,
	OUT b_label text
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	rel_a regclass := $1;
	rel_b regclass := $2;
	n integer := $5;
	la text;
	lb text;
	first_rel regclass;
	second_rel regclass;
	quiet text;
BEGIN
	IF rel_a IS NULL OR rel_b IS NULL OR $3 IS NULL OR $4 IS NULL OR n IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN rel_a IS NULL THEN 'a' WHEN rel_b IS NULL THEN 'b' WHEN $3 IS NULL THEN 'mode'
				 WHEN $4 IS NULL THEN 'cache' ELSE 'rounds' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF n < 2 OR n > 100 THEN
		RAISE EXCEPTION 'rounds must be between 2 and 100'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A verdict needs the spread of two rounds at least; five is a good start.';
	END IF;
	SELECT l.a_label, l.b_label INTO la, lb
	  FROM @extschema@._bench_compare_labels($6, rel_a::text, rel_b::text) l;

	-- a cold run's warning would repeat every round: bench_compare says
	-- once which runs were not cold, and cache_state shows it
	quiet := current_setting('client_min_messages');
	PERFORM set_config('client_min_messages', 'error', true);
	FOR r IN 1 .. n LOOP
		IF r % 2 = 1 THEN first_rel := rel_a; second_rel := rel_b;
		ELSE first_rel := rel_b; second_rel := rel_a; END IF;
		PERFORM FROM @extschema@.bench_seqscan(first_rel, mode => $3, cache => $4, repeat => 1,
				label => CASE WHEN first_rel = rel_a THEN la ELSE lb END, record => true);
		PERFORM FROM @extschema@.bench_seqscan(second_rel, mode => $3, cache => $4, repeat => 1,
				label => CASE WHEN second_rel = rel_a THEN la ELSE lb END, record => true);
	END LOOP;
	PERFORM set_config('client_min_messages', quiet, true);

	RETURN QUERY
	SELECT v.test, v.cache, v.metric, v.a_value, v.b_value, v.ratio, v.ratio_low,
		   v.ratio_high, v.runs, v.verdict, la, lb
	  FROM @extschema@._bench_compare_sides(la, lb, rel_a::text, rel_b::text) v;
	RAISE NOTICE 'runs recorded under labels "%" and "%"', la, lb;
END;
$$;

COMMENT ON FUNCTION bench_compare_relations(regclass, regclass, text, text, integer, text) IS
'compare sequential scans of two relations (the same table on two tablespaces, say), one after the other in alternating rounds, with a verdict and the ratio''s 95 % interval';

--
-- bench_tablespace_advice: repeat.  The measurements move between runs
-- (random_page_cost 1.2 then 1.3, effective_io_concurrency 64 then 32 on
-- one filesystem minutes apart), so the advice measures repeat times (3
-- by default), each set recorded under '<label> #i' (or read from there,
-- recorded by an earlier call), suggests the median
-- of the repeats' suggestions, and puts their spread in the evidence,
-- saying so when the repeats disagree at the suggestion's rounding.  1.1's
-- function, which measures once, is kept as _bench_tablespace_advice_once
-- and does the measuring.
--
ALTER FUNCTION bench_tablespace_advice(name, text, interval, text, boolean, float8)
	RENAME TO _bench_tablespace_advice_once;

COMMENT ON FUNCTION _bench_tablespace_advice_once(name, text, interval, text, boolean, float8) IS
'internal: one set of measurements and the advice from it (bench_tablespace_advice of 1.1)';

--
-- The advice takes no figure from reads a cache below the server served
-- (served_by 'cache below' on the measurements, 1.2): it says so, with
-- the evidence, instead of suggesting a cost.  The 1.1 function again,
-- with that check.
--
CREATE OR REPLACE FUNCTION _bench_tablespace_advice_once(
	tablespace name DEFAULT 'pg_default',
	size text DEFAULT '1GB',			-- file size of each measurement, pg_size_bytes syntax
	duration interval DEFAULT '10s',	-- time cap of each random-read measurement
	label text DEFAULT NULL,			-- use the measurements recorded under it (a label or a run id)
	record boolean DEFAULT true,		-- record the measurements and the advice
	cache_hit_share float8 DEFAULT NULL	-- share of reads served from cache, 0 .. 1; NULL: from pg_statio
)
RETURNS SETOF bench_advice
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- doubling the queue depth or the block size must add at least this
	-- share of IOPS or MB/s to count as still growing
	growth_margin constant float8 := 0.10;
	-- a direct 8 kB read answered faster than this (median) came from a
	-- cache (hypervisor, controller, memory), not from the storage
	cache_latency_us constant float8 := 10.0;
	-- the depth sweep: 1, 2, 4 .. max_depth
	max_depth constant integer := 128;

	ts_name name := $1;
	file_size text := $2;
	cap interval := $3;
	run_label text := $4;
	keep boolean := $5;
	hit_arg float8 := $6;
	ts_oid oid;
	db_spc oid;
	ver integer := current_setting('server_version_num')::integer;
	blk bigint := current_setting('block_size')::bigint;
	blk_words text := (current_setting('block_size')::bigint / 1024) || ' kB';
	combine_max bigint;				-- largest io_combine_limit, bytes (17+)
	combine_now bigint;				-- the server's io_combine_limit, bytes (17+)
	combine_cap bigint;				-- io_max_combine_limit, bytes (18+)
	seq_blk bigint;					-- block size of the server's sequential reads
	seq_depth integer := 1;			-- and how many it keeps in flight
	setting_now jsonb;				-- the tablespace's own options over the server's settings
	seq_depth_used integer;
	eic integer;
	meas jsonb := '[]';				-- the result rows measured or recorded
	figs jsonb;						-- medians per test, block size and depth
	measured boolean := false;
	uring_refused text;
	r record;
	pt record;
	refusal text;
	refusal_detail text;
	b bigint;
	n integer;
	out @extschema@.bench_advice;
	advice jsonb := '[]';
	have_rnd boolean;
	rnd_op_us float8;				-- a random page: mean time
	rnd_p50_us float8;				-- and median
	rnd_buffered boolean;
	have_seq boolean;
	seq_page_us float8;				-- a sequential page's share of a read
	seq_mb_s float8;
	seq_buffered boolean;
	knee bigint;
	knee_next float8;
	knee_at float8;
	ratio float8;
	hit float8;
	hit_words text;
	seq_cost float8;
	distrust text;
	sweep text;
	below text;						-- evidence that a cache below the server served the reads (1.2)
BEGIN
	IF ts_name IS NULL THEN
		RAISE EXCEPTION 'tablespace cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF keep IS NULL THEN
		RAISE EXCEPTION 'record cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	SELECT t.oid INTO ts_oid FROM pg_tablespace t WHERE t.spcname = ts_name;
	IF ts_oid IS NULL THEN
		RAISE EXCEPTION 'tablespace "%" does not exist', ts_name USING ERRCODE = 'undefined_object';
	END IF;
	IF ts_name = 'pg_global' THEN
		RAISE EXCEPTION 'tablespace "pg_global" takes no advice'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = 'It holds the shared system catalogs only; tables and indexes cannot be placed in it.',
				  HINT = 'Ask about pg_default or a tablespace of your own.';
	END IF;
	SELECT dattablespace INTO db_spc FROM pg_database WHERE datname = current_database();
	IF ts_oid <> db_spc AND NOT has_tablespace_privilege(ts_oid, 'CREATE') THEN
		RAISE EXCEPTION 'permission denied for tablespace %', ts_name
			USING ERRCODE = 'insufficient_privilege',
				  DETAIL = 'Advice on a tablespace is for the roles that can create objects in it.';
	END IF;
	IF hit_arg IS NOT NULL AND NOT (hit_arg >= 0 AND hit_arg <= 1) THEN
		RAISE EXCEPTION 'cache_hit_share must be between 0 and 1'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'It is the share of reads served from cache, such as 0.9; NULL measures it from pg_statio.';
	END IF;

	IF ver >= 170000 THEN
		SELECT s.max_val::bigint * blk, s.reset_val::bigint * blk
		  INTO combine_max, combine_now
		  FROM pg_settings s WHERE s.name = 'io_combine_limit';
		SELECT s.reset_val::bigint * blk INTO combine_cap
		  FROM pg_settings s WHERE s.name = 'io_max_combine_limit';
		seq_blk := combine_now;
	ELSE
		-- before 17 a sequential scan reads a block at a time through the
		-- page cache, whose read-ahead reads 128 kB at once by default
		seq_blk := 131072;
	END IF;
	-- the settings as the tablespace's scans get them: its own options,
	-- else the server's (as configured, not this session's)
	setting_now := (SELECT jsonb_object_agg(s.name, s.reset_val) FROM pg_settings s
					 WHERE s.name IN ('seq_page_cost', 'random_page_cost', 'effective_io_concurrency',
									  'maintenance_io_concurrency', 'io_method', 'io_workers'))
				   || coalesce((SELECT jsonb_object_agg(split_part(o, '=', 1), split_part(o, '=', 2))
								FROM pg_tablespace t, unnest(t.spcoptions) o
								WHERE t.oid = ts_oid), '{}');
	-- from 18 on a sequential scan keeps up to the tablespace's
	-- effective_io_concurrency reads in flight through io_uring, or as
	-- many as there are I/O workers (io_method = worker); one through
	-- the page cache's read-ahead before, or with io_method = sync
	eic := (setting_now ->> 'effective_io_concurrency')::integer;
	IF ver >= 180000 THEN
		seq_depth := CASE setting_now ->> 'io_method'
						 WHEN 'io_uring' THEN eic
						 WHEN 'worker' THEN least(eic, (setting_now ->> 'io_workers')::integer)
						 ELSE 1 END;
		seq_depth := least(greatest(seq_depth, 1), 256);
	END IF;

	-- the measurements: those recorded under the label, or taken now
	IF run_label IS NOT NULL THEN
		SELECT coalesce(jsonb_agg(h.metrics || jsonb_build_object('iodepth', coalesce(h.iodepth, 1))
								  ORDER BY h.run_id, h.row_no), '[]')
		  INTO meas
		  FROM @extschema@.bench_history h
		 WHERE h.run_id = ANY (@extschema@.bench_run_ids(run_label))
		   AND h.target = ts_name
		   AND h.test IN ('seqread', 'randread')
		   AND coalesce(h.streams, 1) = 1;
	END IF;
	IF jsonb_array_length(meas) = 0 THEN
		IF run_label ~ '^[0-9]+$' THEN
			RAISE EXCEPTION 'run % holds no read measurement of tablespace "%"', run_label, ts_name
				USING ERRCODE = 'undefined_object',
					  HINT = 'Name a label to measure under, or leave it out.';
		END IF;
		IF run_label IS NULL AND keep THEN
			run_label := format('advice %s %s', ts_name,
								to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS.MS'));
		END IF;
		measured := true;
		-- one bench_tablespace_io call per point: sequential reads at
		-- depth 1 in the server's block size (and from 17 on a sweep of the
		-- sizes io_combine_limit takes), from 18 on also as deep as the
		-- server's sequential scans, then random reads of one block at
		-- depths 1, 2, 4 .. max_depth
		FOR pt IN
			SELECT * FROM (
				SELECT 'seqread' AS test, x.s AS bytes, 1 AS depth
				  FROM generate_series(0, 20) g, LATERAL (SELECT blk << g AS s) x
				 WHERE (ver >= 170000 AND x.s <= least(combine_max, 1048576)) OR x.s = seq_blk
				UNION ALL
				SELECT 'seqread', seq_blk, seq_depth WHERE seq_depth > 1
				UNION ALL
				SELECT 'randread', blk, 1 << g FROM generate_series(0, 30) g WHERE 1 << g <= max_depth) p
			 ORDER BY p.test DESC, p.depth, p.bytes
		LOOP
			-- io_uring missing or refused: depth 1 only
			CONTINUE WHEN pt.depth > 1 AND uring_refused IS NOT NULL;
			BEGIN
				FOR r IN
					SELECT * FROM @extschema@.bench_tablespace_io(ts_name, size => file_size,
							block_size => (pt.bytes || ' bytes')::pg_catalog.text, tests => ARRAY[pt.test]::pg_catalog.text[], direct => true,
							duration => cap, label => CASE WHEN keep THEN run_label END,
							record => keep, iodepth => pt.depth)
				LOOP
					meas := meas || jsonb_build_array(to_jsonb(r));
				END LOOP;
			EXCEPTION WHEN feature_not_supported THEN
				GET STACKED DIAGNOSTICS refusal = MESSAGE_TEXT, refusal_detail = PG_EXCEPTION_DETAIL;
				IF pt.depth > 1 THEN
					uring_refused := coalesce(nullif(refusal_detail, ''), refusal);
				ELSE
					-- no direct I/O on this filesystem: the advice takes no
					-- other, so bench_tablespace_io's hint does not apply
					RAISE EXCEPTION '%', refusal
						USING ERRCODE = 'feature_not_supported', DETAIL = coalesce(refusal_detail, ''),
							  HINT = 'Advice is measured with direct I/O only: reads through the page cache time memory, not the storage. Record figures measured elsewhere (fio --direct=1) with bench_record and pass their label.';
				END IF;
			END;
		END LOOP;
	END IF;

	-- reads a cache below the server served (served_by, 1.2): they time the
	-- cache, so no setting is derived from them
	SELECT string_agg(DISTINCT format('%s of %s blocks: %s', m ->> 'test', m ->> 'block_size',
									  rtrim(coalesce(m ->> 'warnings', 'no evidence recorded'), '.')), '; ')
	  INTO below
	  FROM jsonb_array_elements(meas) m
	 WHERE m ->> 'served_by' = 'cache below';
	below := 'a cache below the server served reads that were measured, so they time that cache, not the storage (' || below || ')';

	-- medians per test, block size and depth, and the time per operation
	-- and per page of each
	SELECT coalesce(jsonb_agg(to_jsonb(g)), '[]') INTO figs
	  FROM (SELECT m.test, m.block_bytes, m.iodepth,
				   bool_or(m.direct IS FALSE) AS buffered,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY m.iops) AS iops,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY m.mb_per_s) AS mb_per_s,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY
					   coalesce(m.lat_avg_us, 1e6 / m.iops,
								m.block_bytes * 1e6 / (m.mb_per_s * 1048576))) AS op_us,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY
					   coalesce(m.lat_p50_us, m.lat_avg_us, 1e6 / m.iops,
								m.block_bytes * 1e6 / (m.mb_per_s * 1048576))) AS p50_us,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY
					   coalesce(blk * 1e6 / (m.mb_per_s * 1048576),
								1e6 / m.iops * blk / m.block_bytes)) AS page_us
			  FROM (SELECT j.test,
						   CASE WHEN j.block_size ~ '^[0-9]{1,9} ?(bytes|kB|MB|GB)$'
								THEN pg_size_bytes(j.block_size) END AS block_bytes,
						   coalesce(j.iodepth, 1) AS iodepth, j.direct,
						   CASE WHEN j.iops > 0 THEN j.iops END AS iops,
						   CASE WHEN j.mb_per_s > 0 THEN j.mb_per_s END AS mb_per_s,
						   CASE WHEN j.lat_avg_us > 0 THEN j.lat_avg_us END AS lat_avg_us,
						   CASE WHEN j.lat_p50_us > 0 THEN j.lat_p50_us END AS lat_p50_us
					  FROM jsonb_to_recordset(meas) AS j(test text, block_size text, iodepth integer,
														 direct boolean, iops float8, mb_per_s float8,
														 lat_avg_us float8, lat_p50_us float8)) m
			 WHERE m.block_bytes > 0 AND m.iodepth >= 1
			   AND (m.iops IS NOT NULL OR m.mb_per_s IS NOT NULL)
			 GROUP BY 1, 2, 3) g;

	-- a random page read from storage at depth 1, as an index scan reads
	SELECT true, f.op_us, f.p50_us, f.buffered
	  INTO have_rnd, rnd_op_us, rnd_p50_us, rnd_buffered
	  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
										 buffered boolean, iops float8, mb_per_s float8,
										 op_us float8, p50_us float8, page_us float8)
	 WHERE f.test = 'randread' AND f.block_bytes = blk AND f.iodepth = 1;
	have_rnd := coalesce(have_rnd, false);
	-- a page of a sequential read as the server reads: its block size, its
	-- depth where measured, else the shallowest
	SELECT true, f.page_us, coalesce(f.mb_per_s, f.iops * f.block_bytes / 1048576), f.buffered,
		   f.iodepth
	  INTO have_seq, seq_page_us, seq_mb_s, seq_buffered, seq_depth_used
	  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
										 buffered boolean, iops float8, mb_per_s float8,
										 op_us float8, p50_us float8, page_us float8)
	 WHERE f.test = 'seqread' AND f.block_bytes = seq_blk
	 ORDER BY f.iodepth = seq_depth DESC, f.iodepth LIMIT 1;
	have_seq := coalesce(have_seq, false);

	--
	-- random_page_cost.  The time of a random page read from storage over
	-- that of a sequential one, times the share of random reads that miss
	-- the cache (PostgreSQL's default of 4 stands for 40 times as slow, 90 %
	-- cached), never below 1, relative to the tablespace's seq_page_cost.
	-- The sequential page is timed as the server's sequential scans read:
	-- in blocks of io_combine_limit (17+) or of the page cache's read-ahead
	-- (128 kB) before.  The hit share comes from pg_statio for the
	-- relations in the tablespace in this database, over all their block
	-- accesses, sequential ones too; cache_hit_share overrides it.
	--
	seq_cost := (setting_now ->> 'seq_page_cost')::float8;
	SELECT c.hit, c.words INTO hit, hit_words FROM @extschema@._bench_cache_hit_share(ts_oid, hit_arg) c;

	out.tablespace := ts_name;
	out.setting := 'random_page_cost';
	out.current_value := setting_now ->> out.setting;
	distrust := CASE
		WHEN below IS NOT NULL THEN below
		WHEN NOT have_rnd
		THEN format('no random read of %s blocks at depth 1 was measured', blk_words)
		WHEN NOT have_seq
		THEN format('no sequential read in blocks of %s (the server''s sequential reads) was measured',
					(seq_blk / 1024) || ' kB')
		WHEN rnd_buffered OR seq_buffered
		THEN 'the reads went through the OS page cache (direct => false), which may have served them'
		WHEN rnd_p50_us < cache_latency_us
		THEN format('a random %s read took %s µs (median), faster than storage answers: a cache (hypervisor, controller or memory) served the reads',
					blk_words, round(rnd_p50_us::numeric, 1))
		WHEN rnd_op_us < seq_page_us
		THEN format('a random page (%s µs) was read faster than a sequential one (%s µs): a cache served the random reads',
					round(rnd_op_us::numeric, 1), round(seq_page_us::numeric, 2))
		END;
	IF distrust IS NOT NULL THEN
		out.suggested_value := NULL;
		out.evidence := 'Nothing to suggest: ' || distrust || '.';
		out.statement := NULL;
	ELSE
		ratio := rnd_op_us / seq_page_us;
		out.suggested_value := round((seq_cost * greatest(1.0, ratio * (1 - hit)))::numeric, 1)::text;
		out.evidence := format('Random %s reads (direct, depth 1): %s µs each on average (median %s µs); sequential reads in %s blocks, %s in flight%s: %s MB/s, %s µs per page; a page read from storage costs %s sequential pages. %s. %s × (1 − %s) = %s%s.',
							   blk_words, round(rnd_op_us::numeric, 1), round(rnd_p50_us::numeric, 1),
							   (seq_blk / 1024) || ' kB', seq_depth_used,
							   CASE WHEN seq_depth_used <> seq_depth
									THEN format(' (the server''s sequential scans keep %s)', seq_depth) ELSE '' END,
							   round(seq_mb_s::numeric, 1),
							   round(seq_page_us::numeric, 2), round(ratio::numeric, 1),
							   hit_words, round(ratio::numeric, 1), round(hit::numeric, 3),
							   round((ratio * (1 - hit))::numeric, 2),
							   CASE WHEN ratio * (1 - hit) < 1.0
									THEN ', below 1: a page costs no less than a sequential one' ELSE '' END ||
							   CASE WHEN seq_cost <> 1
									THEN format(', times this tablespace''s seq_page_cost %s', seq_cost) ELSE '' END);
		out.statement := format('ALTER TABLESPACE %I SET (random_page_cost = %s)', ts_name, out.suggested_value);
	END IF;
	advice := advice || jsonb_build_array(to_jsonb(out));
	RETURN NEXT out;

	--
	-- effective_io_concurrency and maintenance_io_concurrency: the depth
	-- past which doubling it adds less than growth_margin to the IOPS of
	-- random one-block reads (the knee of the depth sweep), or the deepest
	-- measured while they still grow.
	--
	SELECT count(*), string_agg(format('%s (%s)', round(f.iops::numeric), f.iodepth), ', ' ORDER BY f.iodepth)
	  INTO n, sweep
	  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
										 buffered boolean, iops float8, mb_per_s float8,
										 op_us float8, p50_us float8, page_us float8)
	 WHERE f.test = 'randread' AND f.block_bytes = blk AND f.iops IS NOT NULL;
	SELECT k.iodepth, k.iops, k.next_iops INTO knee, knee_at, knee_next
	  FROM (SELECT f.iodepth, f.iops, lead(f.iops) OVER (ORDER BY f.iodepth) AS next_iops
			  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
												 buffered boolean, iops float8, mb_per_s float8,
												 op_us float8, p50_us float8, page_us float8)
			 WHERE f.test = 'randread' AND f.block_bytes = blk AND f.iops IS NOT NULL) k
	 WHERE k.next_iops IS NULL OR k.next_iops < k.iops * (1 + growth_margin)
	 ORDER BY k.iodepth LIMIT 1;
	distrust := CASE
		WHEN below IS NOT NULL THEN below
		WHEN n < 2
		THEN format('random %s reads were measured at %s depth%s; the sweep needs two or more%s',
					blk_words, n, CASE WHEN n = 1 THEN '' ELSE 's' END,
					CASE WHEN uring_refused IS NOT NULL
						 THEN ' (iodepth above 1 was refused: ' || uring_refused || ')' ELSE '' END)
		WHEN EXISTS (SELECT 1 FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, buffered boolean)
					  WHERE f.test = 'randread' AND f.block_bytes = blk AND f.buffered)
		THEN 'the reads went through the OS page cache (direct => false), which may have served them'
		WHEN have_rnd AND rnd_p50_us < cache_latency_us
		THEN format('a random %s read took %s µs (median) at depth 1, faster than storage answers: a cache (hypervisor, controller or memory) served the reads',
					blk_words, round(rnd_p50_us::numeric, 1))
		END;
	IF distrust IS NULL THEN
		sweep := format('Random %s reads (direct), IOPS (depth): %s. ', blk_words, sweep) ||
			CASE WHEN knee_next IS NULL
				 THEN format('IOPS still grew by %s %% or more at the deepest depth measured (%s): the device takes at least that many in flight',
							 round(100 * growth_margin), knee)
				 ELSE format('Past depth %s doubling the depth adds less than %s %% (%s → %s IOPS)',
							 knee, round(100 * growth_margin), round(knee_at::numeric), round(knee_next::numeric))
			END;
		knee := least(greatest(knee, 1), 1000);
	END IF;
	FOR i IN 1 .. 2 LOOP
		out.setting := (ARRAY['effective_io_concurrency', 'maintenance_io_concurrency'])[i];
		out.current_value := setting_now ->> out.setting;
		IF distrust IS NOT NULL THEN
			out.suggested_value := NULL;
			out.evidence := 'Nothing to suggest: ' || distrust || '.';
			out.statement := NULL;
		ELSE
			out.suggested_value := knee::text;
			out.evidence := sweep || CASE WHEN i = 2
										  THEN '. The same sweep as for effective_io_concurrency: VACUUM, ANALYZE and CREATE INDEX read the same device.'
										  ELSE '.' END;
			out.statement := format('ALTER TABLESPACE %I SET (%s = %s)', ts_name, out.setting, knee);
		END IF;
		advice := advice || jsonb_build_array(to_jsonb(out));
		RETURN NEXT out;
	END LOOP;

	--
	-- io_combine_limit (17+, server-wide): the block size past which
	-- doubling it adds less than growth_margin to sequential MB/s, or the
	-- largest measured while it still grows.
	--
	IF ver >= 170000 THEN
		SELECT count(*), string_agg(format('%s (%s kB)', round(f.mb_per_s::numeric), f.block_bytes / 1024), ', ' ORDER BY f.block_bytes),
			   bool_or(f.buffered)
		  INTO n, sweep, seq_buffered
		  FROM (SELECT DISTINCT ON (f.block_bytes) f.*
				  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
													 buffered boolean, iops float8, mb_per_s float8,
													 op_us float8, p50_us float8, page_us float8)
				 WHERE f.test = 'seqread' AND f.block_bytes BETWEEN blk AND combine_max
				   AND f.mb_per_s IS NOT NULL
				 ORDER BY f.block_bytes, f.iodepth) f;
		SELECT k.block_bytes, k.mb_per_s, k.next_mb INTO b, knee_at, knee_next
		  FROM (SELECT f.block_bytes, f.mb_per_s, lead(f.mb_per_s) OVER (ORDER BY f.block_bytes) AS next_mb
				  FROM (SELECT DISTINCT ON (f.block_bytes) f.*
						  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
															 buffered boolean, iops float8, mb_per_s float8,
															 op_us float8, p50_us float8, page_us float8)
						 WHERE f.test = 'seqread' AND f.block_bytes BETWEEN blk AND combine_max
						   AND f.mb_per_s IS NOT NULL
						 ORDER BY f.block_bytes, f.iodepth) f) k
		 WHERE k.next_mb IS NULL OR k.next_mb < k.mb_per_s * (1 + growth_margin)
		 ORDER BY k.block_bytes LIMIT 1;
		out.setting := 'io_combine_limit';
		out.current_value := (combine_now / 1024) || 'kB';
		out.suggested_value := NULL;
		out.statement := NULL;
		IF n < 2 THEN
			out.evidence := format('Nothing to suggest: sequential reads were measured in %s block size%s between %s and %s; the sweep needs two or more.',
								   n, CASE WHEN n = 1 THEN '' ELSE 's' END, blk_words, (combine_max / 1024) || ' kB');
		ELSIF below IS NOT NULL THEN
			out.evidence := 'Nothing to suggest: ' || below || '.';
		ELSIF seq_buffered THEN
			out.evidence := 'Nothing to suggest: the reads went through the OS page cache (direct => false), which may have served them.';
		ELSE
			out.suggested_value := (b / 1024) || 'kB';
			out.evidence := format('Sequential reads (direct, depth 1), MB/s (block size): %s. ', sweep) ||
				CASE WHEN knee_next IS NULL
					 THEN format('MB/s still grew by %s %% or more at the largest block measured (%s)',
								 round(100 * growth_margin), (b / 1024) || ' kB')
					 ELSE format('Past %s blocks doubling the size adds less than %s %% (%s → %s MB/s)',
								 (b / 1024) || ' kB', round(100 * growth_margin),
								 round(knee_at::numeric), round(knee_next::numeric))
				END ||
				'. A server-wide setting: ALTER SYSTEM, then a reload' ||
				CASE WHEN combine_cap IS NOT NULL AND b > combine_cap
					 THEN format('; it is above io_max_combine_limit (%s kB), which takes a restart',
								 combine_cap / 1024)
					 ELSE '' END || '.';
			out.statement :=
				CASE WHEN combine_cap IS NOT NULL AND b > combine_cap
					 THEN format('ALTER SYSTEM SET io_max_combine_limit = %L; ', out.suggested_value)
					 ELSE '' END ||
				format('ALTER SYSTEM SET io_combine_limit = %L', out.suggested_value);
		END IF;
		advice := advice || jsonb_build_array(to_jsonb(out));
		RETURN NEXT out;
	END IF;

	IF keep THEN
		IF run_label ~ '^[0-9]+$' THEN
			-- a run id: record under that run's label
			run_label := (SELECT r2.label FROM @extschema@.bench_run r2 WHERE r2.run_id = run_label::bigint);
		END IF;
		PERFORM @extschema@.bench_record('tablespace_advice'::pg_catalog.text, ts_name::pg_catalog.text, advice, run_label,
							 jsonb_build_object('tablespace', ts_name, 'size', file_size,
												'duration', cap, 'label', $4,
												'measured', measured,
												'cache_hit_share', hit_arg));
		IF $4 IS NULL THEN
			RAISE NOTICE 'advice and measurements recorded under label "%"', run_label
				USING HINT = format('Apply it with bench_apply_advice(%L, %L).', ts_name, run_label);
		END IF;
	END IF;
	RETURN;
END;
$$;

--
-- _bench_cache_hit_share: the share of random reads the advice takes to
-- be cache hits, and how it was found: the one given, else pg_statio's
-- for the tablespace's relations in this database (over all their block
-- accesses, sequential ones too) once there are enough of them, else
-- the 90 % PostgreSQL's default random_page_cost of 4 assumes.
--
CREATE FUNCTION _bench_cache_hit_share(tablespace oid, given float8, OUT hit float8, OUT words text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- block accesses needed before pg_statio's hit share is used
	min_accesses constant bigint := 10000;
	-- PostgreSQL's own assumption behind random_page_cost = 4
	assumed_hit_share constant float8 := 0.9;
	db_spc oid;
	hits numeric;
	accesses numeric;
	frozen text := current_setting('bs_advice.hit_share', true);
BEGIN
	IF given IS NOT NULL THEN
		hit := given;
		words := format('A cache hit share of %s was given (cache_hit_share)', round(hit::numeric, 3));
		RETURN;
	END IF;
	-- taken by bench_tablespace_advice before it read a table of the
	-- tablespace, whose reads pg_statio counts (set local to the call)
	IF frozen <> '' THEN
		hit := (frozen::jsonb ->> 'hit')::float8;
		words := frozen::jsonb ->> 'words';
		RETURN;
	END IF;
	SELECT d.dattablespace INTO db_spc FROM pg_database d WHERE d.datname = current_database();
	SELECT sum(x.hit), sum(x.hit + x.rd) INTO hits, accesses
	  FROM (SELECT s.heap_blks_hit AS hit, s.heap_blks_read AS rd, c.reltablespace
			  FROM pg_statio_all_tables s JOIN pg_class c ON c.oid = s.relid
			UNION ALL
			SELECT s.idx_blks_hit, s.idx_blks_read, c.reltablespace
			  FROM pg_statio_all_indexes s JOIN pg_class c ON c.oid = s.indexrelid) x
	 WHERE CASE WHEN x.reltablespace = 0 THEN db_spc ELSE x.reltablespace END = $1;
	IF coalesce(accesses, 0) >= min_accesses THEN
		hit := (hits / accesses)::float8;
		words := format('%s %% of the %s block accesses to this tablespace''s relations in database %I were shared-buffer hits (pg_statio; reads the OS page cache served count as misses)',
						round(100 * hit::numeric, 1), accesses, current_database());
	ELSE
		hit := assumed_hit_share;
		words := format('This tablespace''s relations in database %I saw %s block accesses (pg_statio), too few for a hit share: 90 %% of random reads are taken to be cache hits, as PostgreSQL''s default does',
						current_database(), coalesce(accesses, 0));
	END IF;
END;
$$;

COMMENT ON FUNCTION _bench_cache_hit_share(oid, float8) IS
'internal: the cache hit share bench_tablespace_advice weighs random_page_cost by, and where it comes from';

--
-- _bench_relation_fit_for_advice: refuses, before anything is measured, a
-- relation bench_tablespace_advice cannot derive random_page_cost from:
-- not a table, not (wholly) in the tablespace, not readable by the
-- caller, or smaller than 4 × shared_buffers, whose reads the caches
-- would answer.  Returns its main fork's blocks.
--
CREATE FUNCTION _bench_relation_fit_for_advice(relation regclass, tablespace name)
RETURNS bigint
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- the relation must be at least this many times shared_buffers
	min_sb_multiple constant integer := 4;
	rel regclass := $1;
	ts_name name := $2;
	kind "char";
	relname name;
	db_spc oid;
	spcs text[];
	bytes bigint;
	sb bigint := pg_size_bytes(current_setting('shared_buffers'));
BEGIN
	SELECT c.relkind, c.relname INTO kind, relname FROM pg_class c WHERE c.oid = rel;
	IF kind IS NULL OR kind NOT IN ('r', 'm', 'p') THEN
		RAISE EXCEPTION '"%" is not a table', relname
			USING ERRCODE = 'wrong_object_type',
				  HINT = 'random_page_cost is derived from a table''s heap: name a table or materialized view.';
	END IF;
	IF NOT has_table_privilege(rel, 'SELECT') THEN
		RAISE EXCEPTION 'permission denied for table %', relname
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = current_user AND r.rolsuper)
	   AND NOT pg_has_role('pg_checkpoint', 'USAGE') THEN
		RAISE EXCEPTION 'permission denied to read relation "%" cold', relname
			USING ERRCODE = 'insufficient_privilege',
				  DETAIL = 'Deriving random_page_cost from a table times cold reads of it, which checkpoint first.',
				  HINT = 'Only roles with the privileges of pg_checkpoint may do this.';
	END IF;
	SELECT d.dattablespace INTO db_spc FROM pg_database d WHERE d.datname = current_database();
	SELECT array_agg(DISTINCT coalesce(t.spcname, '?') ORDER BY coalesce(t.spcname, '?')),
		   sum(pg_relation_size(c.oid, 'main'))
	  INTO spcs, bytes
	  FROM (SELECT p.relid FROM pg_partition_tree(rel) p WHERE kind = 'p' AND p.isleaf
			UNION ALL
			SELECT rel WHERE kind <> 'p') l
	  JOIN pg_class c ON c.oid = l.relid
	  LEFT JOIN pg_tablespace t ON t.oid = CASE WHEN c.reltablespace = 0 THEN db_spc ELSE c.reltablespace END;
	IF spcs IS NULL OR spcs <> ARRAY[ts_name::text] THEN
		RAISE EXCEPTION 'relation "%" is not in tablespace "%"', relname, ts_name
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = CASE WHEN spcs IS NULL THEN 'It has no partitions.'
								ELSE format('It lies in tablespace %s.', array_to_string(spcs, ', ')) END,
				  HINT = CASE WHEN cardinality(spcs) = 1
							  THEN format('Name its tablespace: bench_tablespace_advice(%L, relation => %L).',
										  spcs[1], rel::text)
							  ELSE 'Name a table whose data lies in the tablespace the advice is for.' END;
	END IF;
	IF bytes < min_sb_multiple * sb THEN
		RAISE EXCEPTION 'relation "%" is too small to derive random_page_cost from', relname
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = format('It has %s of pages; below %s × shared_buffers (%s) its reads would come from the server''s and the kernel''s caches, not from the storage.',
								  pg_size_pretty(bytes), min_sb_multiple, pg_size_pretty(min_sb_multiple * sb)),
				  HINT = format('Name a table of at least %s, or make one whose rows lie in random order: bench_generate_randread(%L, %L).',
								pg_size_pretty(min_sb_multiple * sb), pg_size_pretty(min_sb_multiple * sb), ts_name);
	END IF;
	RETURN bytes / current_setting('block_size')::bigint;
END;
$$;

COMMENT ON FUNCTION _bench_relation_fit_for_advice(regclass, name) IS
'internal: refuses a relation bench_tablespace_advice cannot derive random_page_cost from, else its blocks';

--
-- _bench_relation_page_cost: random_page_cost as Tomas Vondra derives it
-- ("The real cost of random I/O"), through PostgreSQL's own path: the
-- time per page of a cold sequential scan of a table against that of
-- cold random reads of its blocks, one at a time, through the buffer
-- manager (bench_seqscan and bench_randread), weighed by the cache hit
-- share as the raw-file figure is.  Replaces the raw-file advice row
-- (raw), whose figure goes into the evidence beside it.  Recorded runs
-- of the relation under the label are used when there are some; else
-- it is measured now (and recorded under the label when record is true).
--
CREATE FUNCTION _bench_relation_page_cost(raw bench_advice, relation regclass, label text,
										  record boolean, cache_hit_share float8)
RETURNS bench_advice
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- random reads timed: a tenth of the blocks, at least 1000 and at
	-- most 10000 (the mean of that many is within a few per cent of the
	-- true one on a steady device).  Few against the table, so that the
	-- kernel's read-ahead around earlier reads answers few of them.
	max_reads constant bigint := 10000;
	min_reads constant bigint := 1000;
	-- a cold run that found this share of its pages cached is not cold
	not_cold_pct constant float8 := 1.0;
	-- random reads the device must have served, at least (the rest the
	-- kernel's read-ahead of earlier reads answered: reported beside)
	min_device_share constant float8 := 0.5;
	rel regclass := $2;
	run_label text := $3;
	keep boolean := $4;
	out @extschema@.bench_advice := $1;
	ts_oid oid;
	blocks bigint;
	sq jsonb;
	rr jsonb;
	seq_us float8;
	rnd_us float8;
	seq_cost float8;
	ratio float8;
	hit float8;
	hit_words text;
	distrust text;
	raw_words text;
	from_history boolean := false;
	relname name := (SELECT c.relname FROM pg_class c WHERE c.oid = $2);
BEGIN
	blocks := @extschema@._bench_relation_fit_for_advice(rel, out.tablespace);
	SELECT t.oid INTO ts_oid FROM pg_tablespace t WHERE t.spcname = out.tablespace;

	-- the relation's cold runs recorded under the label, the newest of each
	IF run_label IS NOT NULL THEN
		SELECT x.metrics INTO sq
		  FROM @extschema@.bench_run r JOIN @extschema@.bench_result x ON x.run_id = r.run_id
		 WHERE r.run_id = ANY (@extschema@.bench_run_ids(run_label))
		   AND r.benchmark = 'seqscan' AND r.target_oid = rel
		   AND x.metrics ->> 'cache' = 'cold' AND x.metrics ->> 'mode' = 'heap'
		   AND coalesce(x.metrics ->> 'workers_requested', '0') = '0'
		 ORDER BY r.run_id DESC, x.row_no DESC LIMIT 1;
		SELECT x.metrics INTO rr
		  FROM @extschema@.bench_run r JOIN @extschema@.bench_result x ON x.run_id = r.run_id
		 WHERE r.run_id = ANY (@extschema@.bench_run_ids(run_label))
		   AND r.benchmark = 'randread' AND r.target_oid = rel
		   AND x.metrics ->> 'cache' = 'cold' AND x.metrics ->> 'depth' = '1'
		 ORDER BY r.run_id DESC, x.row_no DESC LIMIT 1;
		from_history := sq IS NOT NULL AND rr IS NOT NULL;
	END IF;
	IF NOT from_history THEN
		-- recorded under the label, unless it is a run id (no label)
		SELECT to_jsonb(s) INTO sq
		  FROM @extschema@.bench_seqscan(rel, cache => 'cold',
										 label => CASE WHEN keep AND run_label !~ '^[0-9]+$' THEN run_label END,
										 record => keep) s;
		SELECT to_jsonb(s) INTO rr
		  FROM @extschema@.bench_randread(rel, reads => least(max_reads, greatest(blocks / 10, least(blocks, min_reads))),
										  cache => 'cold', depth => 1,
										  label => CASE WHEN keep AND run_label !~ '^[0-9]+$' THEN run_label END,
										  record => keep) s;
	END IF;

	seq_us := (sq ->> 'elapsed_ms')::float8 * 1000 / nullif((sq ->> 'pages')::float8, 0);
	rnd_us := (rr ->> 'elapsed_ms')::float8 * 1000 / nullif((rr ->> 'reads')::float8, 0);
	seq_cost := coalesce((SELECT split_part(o, '=', 2)::float8 FROM pg_tablespace t, unnest(t.spcoptions) o
						   WHERE t.oid = ts_oid AND split_part(o, '=', 1) = 'seq_page_cost'),
						 (SELECT s.reset_val::float8 FROM pg_settings s WHERE s.name = 'seq_page_cost'));
	SELECT c.hit, c.words INTO hit, hit_words FROM @extschema@._bench_cache_hit_share(ts_oid, $5) c;

	distrust := CASE
		WHEN seq_us IS NULL OR rnd_us IS NULL OR seq_us <= 0 OR rnd_us <= 0
		THEN 'the relation''s scan or random reads read nothing'
		WHEN sq ->> 'served_by' = 'cache below' OR rr ->> 'served_by' = 'cache below'
		THEN format('a cache below the server served the relation''s cold reads, so they time that cache, not the storage (scan: %s random reads: %s)',
					coalesce(sq ->> 'warnings', 'served by storage.'), coalesce(rr ->> 'warnings', 'served by storage.'))
		WHEN (sq ->> 'cached_pct')::float8 >= not_cold_pct OR (rr ->> 'cached_pct')::float8 >= not_cold_pct
		THEN format('the cold runs found %s %% (scan) and %s %% (random reads) of the relation''s pages still cached (scan: %s random reads: %s)',
					round((sq ->> 'cached_pct')::numeric, 1), round((rr ->> 'cached_pct')::numeric, 1),
					coalesce(sq ->> 'warnings', 'none.'), coalesce(rr ->> 'warnings', 'none.'))
		WHEN (rr ->> 'device_reads')::float8 < min_device_share * (rr ->> 'reads')::float8
		THEN format('only %s of the %s random reads came from the device, the rest from the OS page cache (the kernel read ahead %s MB around them): the table is too small against the reads for them to stay random',
					rr ->> 'device_reads', rr ->> 'reads', round((rr ->> 'readahead_mb')::numeric, 1))
		WHEN rnd_us <= seq_us
		THEN format('a random page (%s µs) was read no slower than a sequential one (%s µs): a cache served the random reads',
					round(rnd_us::numeric, 1), round(seq_us::numeric, 2))
		END;

	raw_words := format(' Raw-file reads of the tablespace, for comparison, suggest %s: %s',
						coalesce(out.suggested_value, 'nothing'), out.evidence);
	IF distrust IS NOT NULL THEN
		out.suggested_value := NULL;
		out.statement := NULL;
		out.evidence := format('Nothing to suggest from table %s: %s.', relname, distrust) || raw_words;
		RETURN out;
	END IF;
	ratio := rnd_us / seq_us;
	out.suggested_value := round((seq_cost * greatest(1.0, ratio * (1 - hit)))::numeric, 1)::text;
	out.statement := format('ALTER TABLESPACE %I SET (random_page_cost = %s)', out.tablespace, out.suggested_value);
	out.evidence := format('Through PostgreSQL on table %s (%s, %s blocks%s): a cold sequential scan read %s pages in %s ms, %s µs per page (%s MB/s); %s cold random reads of its blocks, one at a time, took %s µs each (median %s µs), %s of them from the device (the rest the kernel''s read-ahead around earlier ones answered); a random page costs %s sequential pages. %s. %s × (1 − %s) = %s%s.',
						   relname, pg_size_pretty(blocks * current_setting('block_size')::bigint), blocks,
						   CASE WHEN from_history THEN format(', runs recorded under "%s"', run_label) ELSE '' END,
						   sq ->> 'pages', round((sq ->> 'elapsed_ms')::numeric, 1), round(seq_us::numeric, 2),
						   round((sq ->> 'mb_per_s')::numeric, 1),
						   rr ->> 'reads', round(rnd_us::numeric, 1),
						   coalesce(round((rr ->> 'lat_p50_us')::numeric, 1)::text, 'not timed'),
						   coalesce(rr ->> 'device_reads', 'an unknown number'),
						   round(ratio::numeric, 1), hit_words, round(ratio::numeric, 1), round(hit::numeric, 3),
						   round((ratio * (1 - hit))::numeric, 2),
						   CASE WHEN ratio * (1 - hit) < 1.0
								THEN ', below 1: a page costs no less than a sequential one' ELSE '' END ||
						   CASE WHEN seq_cost <> 1
								THEN format(', times this tablespace''s seq_page_cost %s', seq_cost) ELSE '' END)
					|| raw_words;
	RETURN out;
END;
$$;

COMMENT ON FUNCTION _bench_relation_page_cost(bench_advice, regclass, text, boolean, float8) IS
'internal: random_page_cost from cold sequential and random reads of a table through the buffer manager, in place of the raw-file figure';

CREATE FUNCTION bench_tablespace_advice(
	tablespace name DEFAULT 'pg_default',
	size text DEFAULT '1GB',			-- file size of each measurement, pg_size_bytes syntax
	duration interval DEFAULT '10s',	-- time cap of each random-read measurement
	label text DEFAULT NULL,			-- use the measurements recorded under it (a label or a run id)
	record boolean DEFAULT true,		-- record the measurements and the advice
	cache_hit_share float8 DEFAULT NULL,	-- share of reads served from cache, 0 .. 1; NULL: from pg_statio
	repeat integer DEFAULT 3,			-- sets of measurements, 1 .. 20; the median suggestion, with the spread (1.2)
	relation regclass DEFAULT NULL		-- random_page_cost from cold reads of this table (at least 4 × shared_buffers) through the server; NULL: from raw files (1.2)
)
RETURNS SETOF bench_advice
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ts_name name := $1;
	run_label text := $4;
	keep boolean := $5;
	n integer := $7;
	rel regclass := $8;
	sets jsonb := '[]';				-- per repeat: its advice rows, in order
	sub text[] := '{}';				-- the repeats' labels
	advice jsonb := '[]';
	out @extschema@.bench_advice;
	s record;
	vals text[];
	picked integer;
	lo text;
	hi text;
BEGIN
	IF n IS NULL THEN
		RAISE EXCEPTION 'repeat cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF n < 1 OR n > 20 THEN
		RAISE EXCEPTION 'repeat must be between 1 and 20'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Each repeat measures the tablespace again: 3 shows the spread.';
	END IF;
	-- a table to derive random_page_cost from is refused before anything
	-- is measured if it cannot serve
	IF rel IS NOT NULL THEN
		IF ts_name IS NULL THEN
			RAISE EXCEPTION 'tablespace cannot be null' USING ERRCODE = 'null_value_not_allowed';
		END IF;
		PERFORM @extschema@._bench_relation_fit_for_advice(rel, ts_name);
		-- the hit share as it is before the table's cold reads, which
		-- pg_statio counts, change it
		IF $6 IS NULL THEN
			PERFORM set_config('bs_advice.hit_share',
				(SELECT jsonb_build_object('hit', c.hit,
										   'words', c.words || ', before this advice read the table')::text
				   FROM @extschema@._bench_cache_hit_share(
							(SELECT t.oid FROM pg_tablespace t WHERE t.spcname = ts_name), NULL) c),
				true);
		END IF;
		IF keep AND run_label IS NULL THEN
			run_label := format('advice %s %s', ts_name,
								to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS.MS'));
		END IF;
	END IF;

	-- advice from measurements recorded under a label (or a run id), or
	-- one set measured now: as 1.1.  A label whose sets an earlier call
	-- recorded under '<label> #i' is read from there.
	IF run_label ~ '^[0-9]+$'
	   OR (run_label IS NOT NULL AND EXISTS (
			SELECT 1 FROM @extschema@.bench_history h
			 WHERE h.run_id = ANY (@extschema@.bench_run_ids(run_label))
			   AND h.test IN ('seqread', 'randread'))) THEN
		FOR out IN SELECT * FROM @extschema@._bench_tablespace_advice_once($1, $2, $3, $4, $5, $6) LOOP
			IF rel IS NOT NULL AND out.setting = 'random_page_cost' THEN
				out := @extschema@._bench_relation_page_cost(out, rel, run_label, keep, $6);
			END IF;
			RETURN NEXT out;
		END LOOP;
		PERFORM set_config('bs_advice.hit_share', '', true);
		RETURN;
	END IF;
	IF n = 1 AND NOT EXISTS (SELECT 1 FROM @extschema@.bench_run r
							  WHERE r.label = format('%s #1', run_label)) THEN
		FOR out IN SELECT * FROM @extschema@._bench_tablespace_advice_once($1, $2, $3, run_label, $5, $6) LOOP
			IF rel IS NOT NULL AND out.setting = 'random_page_cost' THEN
				out := @extschema@._bench_relation_page_cost(out, rel, run_label, keep, $6);
			END IF;
			out.evidence := out.evidence || ' One set of measurements: how much the figure moves between runs is not known (repeat => 3 shows it).';
			RETURN NEXT out;
		END LOOP;
		IF keep AND $4 IS NULL AND rel IS NOT NULL THEN
			RAISE NOTICE 'advice and measurements recorded under label "%"', run_label
				USING HINT = format('Apply it with bench_apply_advice(%L, %L).', ts_name, run_label);
		END IF;
		PERFORM set_config('bs_advice.hit_share', '', true);
		RETURN;
	END IF;

	IF keep AND run_label IS NULL THEN
		run_label := format('advice %s %s', ts_name,
							to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS.MS'));
	END IF;
	-- each set under '<label> #i': measured there, or (recorded before,
	-- by an earlier call with this label) read from there
	FOR i IN 1 .. n LOOP
		sub := sub || CASE WHEN run_label IS NOT NULL THEN format('%s #%s', run_label, i) END;
		sets := sets || jsonb_build_array(
			(SELECT coalesce(jsonb_agg(CASE WHEN rel IS NOT NULL AND a.setting = 'random_page_cost'
										   THEN to_jsonb(@extschema@._bench_relation_page_cost(
												 (a.tablespace, a.setting, a.current_value, a.suggested_value,
												  a.evidence, a.statement)::@extschema@.bench_advice,
												 rel, sub[i], keep, $6))
										   ELSE to_jsonb(a) END ORDER BY a.ord), '[]')
			   FROM @extschema@._bench_tablespace_advice_once($1, $2, $3, sub[i], keep, $6)
					WITH ORDINALITY AS a(tablespace, setting, current_value,
							suggested_value, evidence, statement, ord)));
	END LOOP;

	-- per setting (in the order of the first set): the repeats' values,
	-- the median one (the lower of the middle two for an even count, so
	-- that it is a value the advice itself gave), and its row
	FOR s IN
		SELECT e.ordinality AS ord, e.value ->> 'setting' AS setting
		  FROM jsonb_array_elements(sets -> 0) WITH ORDINALITY e
	LOOP
		SELECT array_agg(v.val ORDER BY v.sort_key NULLS LAST, v.rep)
		  INTO vals
		  FROM (SELECT r.ordinality AS rep, x.value ->> 'suggested_value' AS val,
					   CASE WHEN x.value ->> 'suggested_value' ~ '^[0-9]+(\.[0-9]+)?$'
							THEN (x.value ->> 'suggested_value')::numeric
							WHEN x.value ->> 'suggested_value' ~ '^[0-9]+ ?(bytes|kB|MB|GB)$'
							THEN pg_size_bytes(x.value ->> 'suggested_value')::numeric END AS sort_key
				  FROM jsonb_array_elements(sets) WITH ORDINALITY r,
					   jsonb_array_elements(r.value) x
				 WHERE x.value ->> 'setting' = s.setting) v;
		vals := array_remove(vals, NULL);
		-- the repeat whose suggestion is the median, else the first
		picked := 1;
		IF cardinality(vals) > 0 THEN
			SELECT r.ordinality INTO picked
			  FROM jsonb_array_elements(sets) WITH ORDINALITY r, jsonb_array_elements(r.value) x
			 WHERE x.value ->> 'setting' = s.setting
			   AND x.value ->> 'suggested_value' = vals[(cardinality(vals) + 1) / 2]
			 ORDER BY r.ordinality LIMIT 1;
		END IF;
		SELECT (jsonb_populate_record(NULL::@extschema@.bench_advice, x.value)).* INTO out
		  FROM jsonb_array_elements(sets -> (picked - 1)) x
		 WHERE x.value ->> 'setting' = s.setting;
		lo := vals[1];
		hi := vals[cardinality(vals)];
		IF n = 1 THEN
			out.evidence := out.evidence || ' One set of measurements: how much the figure moves between runs is not known (repeat => 3 shows it).';
		ELSE
			out.evidence := out.evidence || format(' Over %s repeats: %s.', n,
				(SELECT string_agg(coalesce(x.value ->> 'suggested_value', 'none'), ', ' ORDER BY r.ordinality)
				   FROM jsonb_array_elements(sets) WITH ORDINALITY r, jsonb_array_elements(r.value) x
				  WHERE x.value ->> 'setting' = s.setting));
			IF cardinality(vals) > 0 AND lo IS DISTINCT FROM hi THEN
				out.evidence := out.evidence || format(' The repeats disagree at this rounding (%s to %s): the figure is not stable enough to choose between them; more repeats or a longer duration narrow it.', lo, hi);
			ELSIF cardinality(vals) > 0 AND cardinality(vals) < n THEN
				out.evidence := out.evidence || format(' %s of %s repeats suggested nothing.', n - cardinality(vals), n);
			ELSIF cardinality(vals) > 0 THEN
				out.evidence := out.evidence || ' The repeats agree.';
			END IF;
		END IF;
		advice := advice || jsonb_build_array(to_jsonb(out));
		RETURN NEXT out;
	END LOOP;

	IF keep THEN
		PERFORM @extschema@.bench_record('tablespace_advice'::pg_catalog.text, ts_name::pg_catalog.text, advice, run_label,
							 jsonb_build_object('tablespace', ts_name, 'size', $2,
												'duration', $3, 'label', $4,
												'measured', true, 'repeat', n,
												'repeat_labels', to_jsonb(sub),
												'cache_hit_share', $6));
		RAISE NOTICE 'advice recorded under label "%", its % sets of measurements under "%" .. "%"',
			run_label, n, sub[1], sub[n]
			USING HINT = format('Apply it with bench_apply_advice(%L, %L).', ts_name, run_label);
	END IF;
	PERFORM set_config('bs_advice.hit_share', '', true);
	RETURN;
END;
$$;

COMMENT ON FUNCTION bench_tablespace_advice(name, text, interval, text, boolean, float8, integer, regclass) IS
'suggest random_page_cost, effective_io_concurrency, maintenance_io_concurrency and io_combine_limit for a tablespace from repeated measurements of it (random_page_cost from cold reads of a table when one is named), with the evidence and its spread';

--
-- bench_tablespace_cache_probe: random direct reads over growing files,
-- the working-set sweep.  Latency against the file size shows where the
-- caches below the server end (a knee), with an estimate of each one's
-- size; a cache that holds the data on both passes of the re-read is
-- seen here too, once the file outgrows it.
--
-- _bench_cache_knees: the knees of a sweep, from each size (MB,
-- ascending), its median read time and its mean.  A knee is where the
-- median at least doubles from one size to the next and stays at least
-- double at every larger size: one slow size among fast ones is noise (a
-- busy machine's outliers move the mean, rarely the median).  Reads of a
-- file of S MB through a cache of C MB that keeps the file's most recent
-- part hit C/S of the time, so the median turns slow once S passes 2C:
-- the cache lies between half the size before the knee and half the
-- size at it.  Within that, the estimate takes the mean at the knee as a
-- blend of the fast sizes' mean (hits) and the slowest mean after (misses).
--
CREATE FUNCTION _bench_cache_knees(sizes float8[], medians float8[], means float8[],
								   OUT ord integer, OUT slowdown float8,
								   OUT cache_mb float8, OUT knee text)
RETURNS SETOF record
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	knee_at constant float8 := 2.0;	-- the median's rise that marks a knee, sustained
	n integer := coalesce(cardinality(sizes), 0);
	hit float8;
	miss float8;
	lo float8;
	hi float8;
	in_knee boolean := false;
BEGIN
	IF n <> coalesce(cardinality(medians), 0) OR n <> coalesce(cardinality(means), 0) THEN
		RAISE EXCEPTION 'sizes, medians and means must have as many elements'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOR i IN 1 .. n LOOP
		ord := i;
		slowdown := CASE WHEN i > 1 AND medians[i - 1] > 0
						 THEN round((medians[i] / medians[i - 1])::numeric, 2)::float8 END;
		cache_mb := NULL;
		knee := NULL;
		IF slowdown >= knee_at AND NOT in_knee
		   AND NOT EXISTS (SELECT 1 FROM unnest(medians[i:n]) m WHERE m < knee_at * medians[i - 1]) THEN
			lo := sizes[i - 1] / 2;
			hi := sizes[i] / 2;
			SELECT min(m) INTO hit FROM unnest(means[1:i - 1]) m;
			SELECT max(m) INTO miss FROM unnest(means[i:n]) m;
			cache_mb := CASE WHEN miss > hit AND means[i] IS NOT NULL
							 THEN sizes[i] * (miss - means[i]) / (miss - hit) END;
			cache_mb := round(least(greatest(coalesce(cache_mb, hi), lo), hi)::numeric)::float8;
			knee := format('A cache of about %s MB (between %s and %s MB) ends here: the median read went from %s µs at %s MB to %s µs at %s MB%s.',
						   cache_mb, round(lo::numeric, 1), round(hi::numeric, 1),
						   round(medians[i - 1]::numeric, 1), sizes[i - 1],
						   round(medians[i]::numeric, 1), sizes[i],
						   CASE WHEN i < n THEN ', and stayed slow at every larger size'
								ELSE ' (the largest size measured: a larger max_size shows whether it stays slow)' END);
			in_knee := true;
		ELSIF slowdown IS NULL OR slowdown < knee_at THEN
			in_knee := false;
		END IF;
		RETURN NEXT;
	END LOOP;
END;
$$;

COMMENT ON FUNCTION _bench_cache_knees(float8[], float8[], float8[]) IS
'internal: the knees of a working-set sweep, and the size of the cache each one ends';

-- EXECUTE stays with PUBLIC: it computes from its arguments only.

CREATE FUNCTION bench_tablespace_cache_probe(
	tablespace name DEFAULT 'pg_default',
	max_size text DEFAULT '4GB',		-- the largest working set, pg_size_bytes syntax
	min_size text DEFAULT '16MB',		-- the smallest; the sizes double from it up to max_size
	block_size text DEFAULT '8kB',		-- bytes per read
	duration interval DEFAULT '3s',		-- random reads per size
	iodepth integer DEFAULT 1,			-- reads in flight, 1 .. 256
	label text DEFAULT NULL,			-- recorded with the run (see bench_history)
	record boolean DEFAULT true,		-- false: do not record the run
	OUT size_mb float8,					-- the working set: the file read at random
	OUT iops float8,					-- reads per second
	OUT lat_avg_us float8,				-- mean time per read, µs
	OUT lat_p50_us float8,
	OUT lat_p99_us float8,
	OUT served_by text,					-- as bench_tablespace_io's randread row says
	OUT slowdown float8,				-- lat_p50_us over the previous size's
	OUT cache_mb float8,				-- at a knee: the estimated size of the cache that ends there
	OUT knee text						-- at a knee: what it shows, in words
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ts_name name := $1;
	lo bigint;
	hi bigint;
	blk bigint;
	s bigint;
	r record;
	meas jsonb := '[]';				-- per size: its randread row
	done jsonb := '[]';				-- the rows returned, as recorded
	k record;
	argnames text[] := '{tablespace,max_size,min_size,block_size,duration,iodepth,label,record}';
	argnull boolean[] := ARRAY[$1 IS NULL, $2 IS NULL, $3 IS NULL, $4 IS NULL, $5 IS NULL,
							   $6 IS NULL, false, $8 IS NULL];
BEGIN
	FOR i IN 1 .. 8 LOOP
		IF argnull[i] THEN
			RAISE EXCEPTION '% cannot be null', argnames[i] USING ERRCODE = 'null_value_not_allowed';
		END IF;
	END LOOP;
	lo := pg_size_bytes($3);
	hi := pg_size_bytes($2);
	blk := pg_size_bytes($4);
	IF lo <= 0 OR hi < lo THEN
		RAISE EXCEPTION 'min_size must be positive and at most max_size'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('min_size is %s, max_size %s.', $3, $2);
	END IF;
	IF hi / lo > 1048576 THEN
		RAISE EXCEPTION 'max_size is more than 2^20 times min_size'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'The sweep doubles from min_size: 21 sizes at most.';
	END IF;

	-- each size, doubling: a file of whole blocks read at random (its
	-- block size, depth, tablespace, free space and privileges are
	-- bench_tablespace_io's to check)
	s := lo;
	WHILE s <= hi LOOP
		IF blk <= 0 OR s >= blk THEN
			FOR r IN
				SELECT * FROM @extschema@.bench_tablespace_io(ts_name,
						size => (s - s % greatest(blk, 1)) || ' bytes', block_size => $4,
						tests => '{randread}'::pg_catalog.text[], direct => true, duration => $5,
						iodepth => $6, record => false)
			LOOP
				meas := meas || jsonb_build_array(to_jsonb(r) ||
					jsonb_build_object('size_mb', round(((s - s % greatest(blk, 1)) / 1048576.0)::numeric, 3)));
			END LOOP;
		END IF;
		s := s * 2;
	END LOOP;

	FOR k IN
		SELECT x.value AS m, c.slowdown, c.cache_mb, c.knee
		  FROM jsonb_array_elements(meas) WITH ORDINALITY x
		  JOIN @extschema@._bench_cache_knees(
				   ARRAY(SELECT (e ->> 'size_mb')::float8 FROM jsonb_array_elements(meas) e),
				   ARRAY(SELECT coalesce((e ->> 'lat_p50_us')::float8, 1e6 / nullif((e ->> 'iops')::float8, 0))
						   FROM jsonb_array_elements(meas) e),
				   ARRAY(SELECT coalesce((e ->> 'lat_avg_us')::float8, 1e6 / nullif((e ->> 'iops')::float8, 0))
						   FROM jsonb_array_elements(meas) e)) c
			ON c.ord = x.ordinality
		 ORDER BY x.ordinality
	LOOP
		size_mb := (k.m ->> 'size_mb')::float8;
		iops := (k.m ->> 'iops')::float8;
		lat_avg_us := (k.m ->> 'lat_avg_us')::float8;
		lat_p50_us := (k.m ->> 'lat_p50_us')::float8;
		lat_p99_us := (k.m ->> 'lat_p99_us')::float8;
		served_by := k.m ->> 'served_by';
		slowdown := k.slowdown;
		cache_mb := k.cache_mb;
		knee := k.knee;
		done := done || jsonb_build_array(
			jsonb_build_object('tablespace', ts_name, 'test', 'randread', 'direct', true,
							   'block_size', k.m ->> 'block_size', 'iodepth', (k.m ->> 'iodepth')::integer,
							   'streams', 1, 'warnings', k.m ->> 'warnings')
			|| jsonb_strip_nulls(jsonb_build_object(
							   'size_mb', size_mb, 'iops', iops, 'lat_avg_us', lat_avg_us,
							   'lat_p50_us', lat_p50_us, 'lat_p99_us', lat_p99_us,
							   'served_by', served_by, 'slowdown', slowdown,
							   'cache_mb', cache_mb, 'knee', knee)));
		RETURN NEXT;
	END LOOP;

	IF $8 THEN
		PERFORM @extschema@.bench_record('tablespace_cache_probe'::pg_catalog.text,
			ts_name::pg_catalog.text, done, $7,
			jsonb_build_object('tablespace', ts_name, 'max_size', $2, 'min_size', $3,
							   'block_size', $4, 'duration', $5, 'iodepth', $6));
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_tablespace_cache_probe(name, text, text, text, interval, integer, text, boolean) IS
'random direct reads over files of doubling size in a tablespace: where the caches below the server end, and how large each is';

REVOKE ALL ON FUNCTION bench_tablespace_cache_probe(name, text, text, text, interval, integer, text, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bench_tablespace_cache_probe(name, text, text, text, interval, integer, text, boolean) TO pg_write_server_files;

--
-- The DBA's grants and revokes on the functions replaced above, carried
-- over (see the top of this part), and pg_init_privs set back to what
-- this script gave the new functions.
--
DO $carry$
DECLARE
	saved jsonb := pg_catalog.current_setting('bs_update.replaced_acls')::jsonb;
	f record;
	g record;
	script_init aclitem[];
	old_acl aclitem[];
	old_init aclitem[];
BEGIN
	FOR f IN
		SELECT p.oid, p.proname, p.oid::pg_catalog.regprocedure::text AS sig
		  FROM pg_catalog.pg_proc p
		  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
		   AND d.objid = p.oid AND d.deptype = 'e'
		  JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'benchstore'
		 WHERE saved OPERATOR(pg_catalog.?) p.proname::pg_catalog.text
	LOOP
		old_acl := ARRAY(SELECT pg_catalog.jsonb_array_elements_text(saved OPERATOR(pg_catalog.->) f.proname::pg_catalog.text OPERATOR(pg_catalog.->) 'acl'::pg_catalog.text))::aclitem[];
		old_init := ARRAY(SELECT pg_catalog.jsonb_array_elements_text(saved OPERATOR(pg_catalog.->) f.proname::pg_catalog.text OPERATOR(pg_catalog.->) 'init'::pg_catalog.text))::aclitem[];
		SELECT i.initprivs INTO script_init FROM pg_catalog.pg_init_privs i
		 WHERE i.objoid = f.oid AND i.classoid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND i.objsubid = 0;
		FOR g IN
			SELECT 'GRANT' AS verb, x.grantee, x.privilege_type, x.is_grantable
			  FROM (SELECT a.grantee, a.privilege_type, a.is_grantable FROM pg_catalog.aclexplode(old_acl) a
					EXCEPT
					SELECT a.grantee, a.privilege_type, a.is_grantable FROM pg_catalog.aclexplode(old_init) a) x
			UNION ALL
			SELECT 'REVOKE', x.grantee, x.privilege_type, false
			  FROM (SELECT a.grantee, a.privilege_type FROM pg_catalog.aclexplode(old_init) a
					EXCEPT
					SELECT a.grantee, a.privilege_type FROM pg_catalog.aclexplode(old_acl) a) x
		LOOP
			EXECUTE pg_catalog.format('%s %s ON FUNCTION %s %s %s%s', g.verb, g.privilege_type, f.sig,
				CASE g.verb WHEN 'GRANT' THEN 'TO' ELSE 'FROM' END,
				CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
					 ELSE pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(g.grantee)) END,
				CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
		END LOOP;
		IF script_init IS NULL THEN
			DELETE FROM pg_catalog.pg_init_privs i
			 WHERE i.objoid = f.oid AND i.classoid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND i.objsubid = 0;
		ELSE
			UPDATE pg_catalog.pg_init_privs i SET initprivs = script_init
			 WHERE i.objoid = f.oid AND i.classoid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND i.objsubid = 0;
		END IF;
	END LOOP;
END;
$carry$;

--
-- bench_generate_tpch (1.2): replace => true drops a schema only if the
-- caller owns it and every relation in it (1.0 checked the marks, which
-- the owner of a table, any role with CREATE on the schema, could forge),
-- and a schema or table without its mark is refused with 42501 (55000 in
-- 1.0), as the other generators do.  The rest is 1.0's function.
--
CREATE OR REPLACE FUNCTION bench_generate_tpch(
	scale float8 DEFAULT 1,			-- TPC-H scale factor, 0.001 .. 1000 (1: about 6 million lineitem rows)
	tablespace name DEFAULT NULL,	-- tablespace of the tables and their indexes; NULL: default_tablespace
	schema name DEFAULT 'tpch',		-- schema to create them in; it must not exist (see replace)
	replace boolean DEFAULT false,	-- true: drop the schema first, if the caller owns it and every table in it, and it holds a data set this function generated and nothing else
	OUT relation regclass,			-- the table created
	OUT rows bigint,				-- rows inserted
	OUT mb float8,					-- main fork size, MB (2^20 bytes; = pg_relation_size)
	OUT indexes_mb float8,			-- its primary key index, MB
	OUT elapsed_ms float8			-- time to load it, build its primary key and analyze it, ms
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off		-- compiling the generators' expressions costs more than it saves
AS $$
DECLARE
	-- the schema comment that marks a generated data set: replace drops no other schema
	marker constant text := 'TPC-H-shaped data set generated by bench_generate_tpch';
	tables constant text[] := '{region,nation,supplier,customer,part,partsupp,orders,lineitem}';
	keys constant text[] := '{r_regionkey,n_nationkey,s_suppkey,c_custkey,p_partkey,'
							'"ps_partkey, ps_suppkey",o_orderkey,"l_orderkey, l_linenumber"}';
	-- hashint8extended(n, seed) & mask: a uniform number in 0 .. 2^63 - 1
	mask constant text := '9223372036854775807';
	-- the comment columns are pieces of a text pool made of these 64 words
	words constant text[] := '{about,above,according,across,after,against,along,among,'
		'around,beans,blithely,bold,boldly,braids,careful,carefully,courts,daring,'
		'dependencies,deposits,dolphins,even,evenly,excuses,express,final,finally,'
		'fluffy,foxes,frays,furiously,haggle,ideas,instructions,ironic,nag,packages,'
		'patterns,pending,pinto,platelets,quick,quickly,regular,requests,ruthless,'
		'sheaves,silent,sleep,slyly,special,thin,theodolites,unusual,use,wake,'
		'warhorses,waters,accounts,asymptotes,cajole,detect,engage,integrate}';
	current_date_tpch constant text := 'date ''1995-06-17''';	-- TPC-H's CURRENTDATE
	n_supp bigint;
	n_part bigint;
	n_cust bigint;
	n_ord bigint;
	n_cust_ordering bigint;		-- customers with orders: those whose key is not a multiple of 3
	n_clerk bigint;
	spc_clause text := '';
	idx_clause text := '';
	ns oid;
	me oid;
	foreign_obj text;
	foreign_owner oid;
	found_tables oid[];
	others text[];
	pool bytea;				-- the text pool, 4096 words (bytes, to cut it in constant time)
	pool_starts integer[];	-- where its words start, but those too near its end
	orders_from text;
	f_qty text;
	f_disc text;
	f_tax text;
	f_ship text;
	f_commit text;
	f_receipt text;
	f_coin text;
	f_instr text;
	f_mode text;
	f_part text;
	f_supp_i text;
	f_price text;
	f_supp text;
	sql text;
	started timestamptz;
	all_started timestamptz := clock_timestamp();
	tbl text;
	total_rows bigint := 0;
	total_mb float8 := 0;
	i integer;
BEGIN
	IF scale IS NULL THEN
		RAISE EXCEPTION 'scale cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF schema IS NULL THEN
		RAISE EXCEPTION 'schema cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF replace IS NULL THEN
		RAISE EXCEPTION 'replace cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- NaN compares greater than every number, so it fails the test too
	IF NOT (scale >= 0.001 AND scale <= 1000) THEN
		RAISE EXCEPTION 'scale must be between 0.001 and 1000'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Scale 1 generates about 6 million lineitem rows, as TPC-H''s scale factor 1 does.';
	END IF;
	IF tablespace IS NOT NULL THEN
		IF NOT EXISTS (SELECT 1 FROM pg_tablespace t WHERE t.spcname = tablespace) THEN
			RAISE EXCEPTION 'tablespace "%" does not exist', tablespace
				USING ERRCODE = 'undefined_object';
		END IF;
		spc_clause := format(' TABLESPACE %I', tablespace);
		idx_clause := format(' USING INDEX TABLESPACE %I', tablespace);
	END IF;

	-- Row counts, TPC-H's for this scale factor, from the decimal value of
	-- scale (0.01 gives exactly 100 suppliers).  The smallest scale still
	-- has 10 suppliers, enough for four different ones per part.
	n_supp := round(scale::numeric * 10000);
	n_part := round(scale::numeric * 200000);
	n_cust := round(scale::numeric * 150000);
	n_ord := n_cust * 10;
	n_cust_ordering := n_cust - n_cust / 3;
	n_clerk := greatest(1, round(scale::numeric * 1000));

	-- The text pool of the comments: 4096 words of the list, chosen by hash.
	SELECT convert_to(string_agg(p.word, ' ' ORDER BY p.n), 'UTF8'),
		   array_agg(p.start ORDER BY p.n) FILTER (WHERE p.start <= p.total - 200)
	INTO pool, pool_starts
	FROM (SELECT w.n, w.word,
				 1 + coalesce(sum(length(w.word) + 1) OVER (ORDER BY w.n ROWS BETWEEN UNBOUNDED PRECEDING
																			 AND 1 PRECEDING), 0) AS start,
				 sum(length(w.word) + 1) OVER () - 1 AS total
		  FROM (SELECT n, words[1 + (hashint8extended(n, 7) & 63)] AS word
				FROM generate_series(1, 4096) AS n) AS w) AS p;

	--
	-- The schema.  An existing one is replaced only when asked to, only if
	-- this function created it (its comment says so), and only if it holds
	-- nothing but the eight tables with their indexes and constraints, and
	-- nothing elsewhere depends on them.  The drops are RESTRICT besides,
	-- so PostgreSQL itself refuses to drop anything else.
	--
	SELECT n.oid INTO ns FROM pg_namespace n WHERE n.nspname = schema;
	IF FOUND THEN
		IF NOT replace THEN
			RAISE EXCEPTION 'schema "%" already exists', schema
				USING ERRCODE = 'duplicate_schema',
					  HINT = 'Pass replace => true to drop it and generate the data set again, or choose another schema.';
		END IF;
		IF coalesce(obj_description(ns, 'pg_namespace'), '') NOT LIKE marker || '%' THEN
			RAISE EXCEPTION 'cannot replace schema "%" because bench_generate_tpch did not create it', schema
				USING ERRCODE = 'insufficient_privilege',
					  DETAIL = 'Only a schema holding a data set generated by bench_generate_tpch is dropped and replaced.',
					  HINT = 'Choose another schema, or drop this one yourself.';
		END IF;

		-- The caller must own the schema and everything in it before
		-- anything in it is read or dropped: a comment only an owner could
		-- have written proves nothing of another role's objects.
		me := (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user);
		SELECT x.what, x.owner INTO foreign_obj, foreign_owner
		FROM (SELECT format('schema %I', n.nspname) AS what, n.nspowner AS owner, 0 AS o
			  FROM pg_namespace n WHERE n.oid = ns
			  UNION ALL
			  SELECT format('relation %I.%I', schema, c.relname), c.relowner, 1
			  FROM pg_class c WHERE c.relnamespace = ns) x
		WHERE x.owner IS DISTINCT FROM me
		ORDER BY x.o, x.what LIMIT 1;
		IF FOUND THEN
			RAISE EXCEPTION 'cannot replace schema "%" because % is owned by role "%"', schema, foreign_obj,
					(SELECT r.rolname FROM pg_roles r WHERE r.oid = foreign_owner)
				USING ERRCODE = 'insufficient_privilege',
					  DETAIL = 'replace drops only a schema the caller owns, with everything in it, that bench_generate_tpch generated; nothing was dropped.',
					  HINT = 'Choose another schema, or have its owner drop it.';
		END IF;

		found_tables := ARRAY(SELECT c.oid FROM pg_class c
							  WHERE c.relnamespace = ns AND c.relkind = 'r'
								AND c.relname = ANY (tables));

		-- Each table must be as this function left it: its mark, its file
		-- (not truncated and reloaded, not rewritten), its row count.
		FOR tbl IN SELECT c.oid::regclass::text FROM pg_class c
				   WHERE c.oid = ANY (found_tables) ORDER BY c.oid LOOP
			EXECUTE format('SELECT count(*) FROM %s', tbl) INTO rows;
			IF coalesce(obj_description(tbl::regclass, 'pg_class'), '') <>
			   format('%s: %s rows, file %s', marker, rows,
					  (SELECT c.relfilenode FROM pg_class c WHERE c.oid = tbl::regclass)) THEN
				RAISE EXCEPTION 'cannot replace schema "%" because table % changed since bench_generate_tpch wrote it', schema, tbl
					USING ERRCODE = 'insufficient_privilege',
						  DETAIL = 'Its rows or its file are not those it was generated with, or it was made by hand.',
						  HINT = 'Choose another schema, or drop this one yourself.';
			END IF;
		END LOOP;
		others := ARRAY(
			SELECT DISTINCT CASE WHEN o.classid = 'pg_rewrite'::regclass	-- a view's rule: the view
								 THEN (SELECT pg_describe_object('pg_class'::regclass, r.ev_class, 0)
									   FROM pg_rewrite r WHERE r.oid = o.objid)
								 ELSE pg_describe_object(o.classid, o.objid, 0) END
			FROM (
				-- objects in the schema, other than the tables
				SELECT d.classid, d.objid
				FROM pg_depend d
				WHERE d.refclassid = 'pg_namespace'::regclass AND d.refobjid = ns
				  AND NOT (d.classid = 'pg_class'::regclass AND d.objid = ANY (found_tables))
				UNION ALL
				-- relations in the schema, other than the tables and their indexes
				SELECT 'pg_class'::regclass::oid, c.oid
				FROM pg_class c
				WHERE c.relnamespace = ns
				  AND NOT c.oid = ANY (found_tables)
				  AND NOT EXISTS (SELECT 1 FROM pg_index x
								  WHERE x.indexrelid = c.oid AND x.indrelid = ANY (found_tables))
				UNION ALL
				-- objects anywhere that depend on the tables: views, other
				-- tables' foreign keys, triggers, policies, rules, statistics,
				-- inheritance children, ...
				SELECT d.classid, d.objid
				FROM pg_depend d
				WHERE d.refclassid = 'pg_class'::regclass AND d.refobjid = ANY (found_tables)
				  AND d.classid <> 'pg_type'::regclass		-- the tables' row types
				  AND NOT (d.classid = 'pg_class'::regclass
						   AND (d.objid = ANY (found_tables)
								OR EXISTS (SELECT 1 FROM pg_index x
										   WHERE x.indexrelid = d.objid
											 AND x.indrelid = ANY (found_tables))
								OR EXISTS (SELECT 1 FROM pg_class t
										   WHERE t.reltoastrelid = d.objid
											 AND t.oid = ANY (found_tables))))
				  AND NOT (d.classid = 'pg_constraint'::regclass
						   AND EXISTS (SELECT 1 FROM pg_constraint k
									   WHERE k.oid = d.objid AND k.conrelid = ANY (found_tables)))
				UNION ALL
				-- ... or on their row types: functions, other tables' columns, domains
				SELECT d.classid, d.objid
				FROM pg_type ty
				JOIN pg_depend d ON d.refclassid = 'pg_type'::regclass
								AND d.refobjid IN (ty.oid, ty.typarray)
				WHERE ty.typrelid = ANY (found_tables)
				  AND NOT (d.classid = 'pg_type'::regclass AND d.objid = ty.typarray)
			) o
			ORDER BY 1);
		IF cardinality(others) > 0 THEN
			RAISE EXCEPTION 'cannot replace schema "%" because other objects are in it or depend on its tables', schema
				USING ERRCODE = 'dependent_objects_still_exist',
					  DETAIL = CASE WHEN cardinality(others) = 1
									THEN format('Other object: %s.', others[1])
									ELSE format('Other objects: %s%s.',
												array_to_string(others[1:10], ', '),
												CASE WHEN cardinality(others) > 10
													 THEN format(' and %s more', cardinality(others) - 10)
													 ELSE '' END) END,
					  HINT = 'Only a schema holding nothing but the generated tables, which nothing else uses, is replaced. Drop or move those objects, or choose another schema.';
		END IF;

		FOR tbl IN SELECT c.oid::regclass::text FROM pg_class c WHERE c.oid = ANY (found_tables) LOOP
			EXECUTE format('DROP TABLE %s RESTRICT', tbl);
		END LOOP;
		EXECUTE format('DROP SCHEMA %I RESTRICT', schema);
	END IF;

	EXECUTE format('CREATE SCHEMA %I', schema);
	EXECUTE format('COMMENT ON SCHEMA %I IS %L', schema,
				   format('%s (scale %s); not dbgen output', marker, scale));

	--
	-- The tables, with TPC-H's columns and types.  Keys are integers but
	-- order keys, which are sparse (8 of every 32 used, as in TPC-H) and
	-- pass 2^31 above scale 350.
	--
	EXECUTE format($ddl$
		CREATE TABLE %1$I.region (
			r_regionkey		integer NOT NULL,
			r_name			char(25) NOT NULL,
			r_comment		varchar(152) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.nation (
			n_nationkey		integer NOT NULL,
			n_name			char(25) NOT NULL,
			n_regionkey		integer NOT NULL,
			n_comment		varchar(152) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.supplier (
			s_suppkey		integer NOT NULL,
			s_name			char(25) NOT NULL,
			s_address		varchar(40) NOT NULL,
			s_nationkey		integer NOT NULL,
			s_phone			char(15) NOT NULL,
			s_acctbal		numeric(15,2) NOT NULL,
			s_comment		varchar(101) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.customer (
			c_custkey		integer NOT NULL,
			c_name			varchar(25) NOT NULL,
			c_address		varchar(40) NOT NULL,
			c_nationkey		integer NOT NULL,
			c_phone			char(15) NOT NULL,
			c_acctbal		numeric(15,2) NOT NULL,
			c_mktsegment	char(10) NOT NULL,
			c_comment		varchar(117) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.part (
			p_partkey		integer NOT NULL,
			p_name			varchar(55) NOT NULL,
			p_mfgr			char(25) NOT NULL,
			p_brand			char(10) NOT NULL,
			p_type			varchar(25) NOT NULL,
			p_size			integer NOT NULL,
			p_container		char(10) NOT NULL,
			p_retailprice	numeric(15,2) NOT NULL,
			p_comment		varchar(23) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.partsupp (
			ps_partkey		integer NOT NULL,
			ps_suppkey		integer NOT NULL,
			ps_availqty		integer NOT NULL,
			ps_supplycost	numeric(15,2) NOT NULL,
			ps_comment		varchar(199) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.orders (
			o_orderkey		bigint NOT NULL,
			o_custkey		integer NOT NULL,
			o_orderstatus	char(1) NOT NULL,
			o_totalprice	numeric(15,2) NOT NULL,
			o_orderdate		date NOT NULL,
			o_orderpriority	char(15) NOT NULL,
			o_clerk			char(15) NOT NULL,
			o_shippriority	integer NOT NULL,
			o_comment		varchar(79) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.lineitem (
			l_orderkey		bigint NOT NULL,
			l_partkey		integer NOT NULL,
			l_suppkey		integer NOT NULL,
			l_linenumber	integer NOT NULL,
			l_quantity		numeric(15,2) NOT NULL,
			l_extendedprice	numeric(15,2) NOT NULL,
			l_discount		numeric(15,2) NOT NULL,
			l_tax			numeric(15,2) NOT NULL,
			l_returnflag	char(1) NOT NULL,
			l_linestatus	char(1) NOT NULL,
			l_shipdate		date NOT NULL,
			l_commitdate	date NOT NULL,
			l_receiptdate	date NOT NULL,
			l_shipinstruct	char(25) NOT NULL,
			l_shipmode		char(10) NOT NULL,
			l_comment		varchar(44) NOT NULL
		)%2$s;
	$ddl$, schema, spc_clause);

	--
	-- The formulas of a line, shared by lineitem and by orders (which sums
	-- its lines' prices and derives its status from their ship dates).  A
	-- line's values are digits of two hashes in a mixed radix: {ha} gives
	-- quantity 1 .. 50, discount 0 .. 10 and tax 0 .. 8 (hundredths), ship
	-- date 1 .. 121 days after the order, commit date 30 .. 90 days after
	-- it, receipt 1 .. 30 days after shipping, a coin for the return flag,
	-- instruction and mode (each divisor is the product of the ranges
	-- before it); {hb} gives the part (uniform) and which of its four
	-- suppliers.  {pk} is a part key: TPC-H's retail price formula (cents)
	-- and the part's suppliers, as in partsupp.
	--
	f_qty := '(1 + mod({ha}, 50))';
	f_disc := 'mod({ha} / 50, 11)';
	f_tax := 'mod({ha} / 550, 9)';
	f_ship := '(1 + mod({ha} / 4950, 121))::integer';
	f_commit := '(30 + mod({ha} / 598950, 61))::integer';
	f_receipt := '(1 + mod({ha} / 36535950, 30))::integer';
	f_coin := 'mod({ha} / 1096078500, 2)';
	f_instr := 'mod({ha} / 2192157000, 4)';
	f_mode := 'mod({ha} / 8768628000, 7)';
	f_part := format('(1 + mod({hb}, %s))', n_part);
	f_supp_i := format('mod({hb} / %s, 4)', n_part);
	f_price := '(90000 + mod({pk} / 10, 20001) + 100 * mod({pk}, 1000))';
	f_supp := format('(mod({pk} - 1 + ({pk} - 1) / %1$s + {i} * (%1$s / 4), %1$s) + 1)', n_supp);

	--
	-- The orders, as lineitem and orders both start from them: order
	-- number o, its key (8 of every 32, as in TPC-H), its number of lines
	-- (1 .. 7), its date (uniform over 1992-01-01 .. 1998-08-02, 2406
	-- days), its customer (never a multiple of 3: a third of the customers
	-- have no orders), and h2 for the other columns.
	--
	orders_from := format($from$
		(SELECT o, h2,
				(o - 1) / 8 * 32 + mod(o - 1, 8) + 1 AS okey,
				1 + mod(h1, 7) AS nlines,
				date '1992-01-01' + mod(h1 / 7, 2406)::integer AS odate,
				mod(h1 / 16842, %2$s) + mod(h1 / 16842, %2$s) / 2 + 1 AS custkey
		 FROM (SELECT o, hashint8extended(o, 1) & %3$s AS h1, hashint8extended(o, 2) & %3$s AS h2
			   FROM (SELECT generate_series(1, %1$s::bigint) AS o) AS s
			   OFFSET 0) AS oh
		 OFFSET 0) AS od
	$from$, n_ord, n_cust_ordering, mask);

	--
	-- One table at a time: insert, primary key, analyze, report.  Each
	-- INSERT reads a stack of subqueries, generate_series in a target list
	-- at the bottom, each level computing its values once from the level
	-- below (OFFSET 0 keeps the levels apart): much faster than LATERAL.
	--
	FOR i IN 1 .. cardinality(tables) LOOP
		tbl := tables[i];
		started := clock_timestamp();
		relation := format('%I.%I', schema, tbl)::regclass;

		sql := CASE tbl
		WHEN 'region' THEN format($q$
			INSERT INTO %1$s
			SELECT k, name, %2$s
			FROM (SELECT r.k, r.name,
						 hashint8extended(r.k, 11) & %3$s AS wc
				  FROM (VALUES (0, 'AFRICA'), (1, 'AMERICA'), (2, 'ASIA'),
							   (3, 'EUROPE'), (4, 'MIDDLE EAST')) AS r(k, name)
				  OFFSET 0) AS w
			ORDER BY k
			$q$, relation, '%comment(31,115)%', mask)

		WHEN 'nation' THEN format($q$
			INSERT INTO %1$s
			SELECT k, name, region, %2$s
			FROM (SELECT n.k, n.name, n.region,
						 hashint8extended(n.k, 21) & %3$s AS wc
				  FROM (VALUES (0, 'ALGERIA', 0), (1, 'ARGENTINA', 1), (2, 'BRAZIL', 1),
							   (3, 'CANADA', 1), (4, 'EGYPT', 4), (5, 'ETHIOPIA', 0),
							   (6, 'FRANCE', 3), (7, 'GERMANY', 3), (8, 'INDIA', 2),
							   (9, 'INDONESIA', 2), (10, 'IRAN', 4), (11, 'IRAQ', 4),
							   (12, 'JAPAN', 2), (13, 'JORDAN', 4), (14, 'KENYA', 0),
							   (15, 'MOROCCO', 0), (16, 'MOZAMBIQUE', 0), (17, 'PERU', 1),
							   (18, 'CHINA', 2), (19, 'ROMANIA', 3), (20, 'SAUDI ARABIA', 4),
							   (21, 'VIETNAM', 2), (22, 'RUSSIA', 3), (23, 'UNITED KINGDOM', 3),
							   (24, 'UNITED STATES', 1)) AS n(k, name, region)
				  OFFSET 0) AS w
			ORDER BY k
			$q$, relation, '%comment(31,114)%', mask)

		-- nation 0 .. 24; phone: country code nation + 10, then random
		-- digits; address 10 .. 40 characters; balance -999.99 .. 9999.99
		WHEN 'supplier' THEN format($q$
			INSERT INTO %1$s
			SELECT k,
				   'Supplier#' || lpad(k::text, 9, '0'),
				   left(to_hex(a1) || to_hex(a2) || to_hex(a3), 10 + mod(h2 / 1099999, 31)::integer),
				   mod(h1, 25),
				   (10 + mod(h1, 25)) || '-' || (100 + mod(h1 / 25, 900)) || '-' ||
					   (100 + mod(h1 / 22500, 900)) || '-' || (1000 + mod(h1 / 20250000, 9000)),
				   (mod(h2, 1099999) - 99999) * 0.01,
				   %2$s
			FROM (SELECT k,
						 hashint8extended(k, 31) & %4$s AS h1,
						 hashint8extended(k, 32) & %4$s AS h2,
						 hashint8extended(k, 33) & %4$s AS a1,
						 hashint8extended(k, 34) & %4$s AS a2,
						 hashint8extended(k, 35) & %4$s AS a3,
						 hashint8extended(k, 36) & %4$s AS wc
				  FROM (SELECT generate_series(1, %3$s) AS k) AS s
				  OFFSET 0) AS h
			$q$, relation, '%comment(25,100)%', n_supp, mask)

		-- as supplier, and a market segment
		WHEN 'customer' THEN format($q$
			INSERT INTO %1$s
			SELECT k,
				   'Customer#' || lpad(k::text, 9, '0'),
				   left(to_hex(a1) || to_hex(a2) || to_hex(a3), 10 + mod(h2 / 5499995, 31)::integer),
				   mod(h1, 25),
				   (10 + mod(h1, 25)) || '-' || (100 + mod(h1 / 25, 900)) || '-' ||
					   (100 + mod(h1 / 22500, 900)) || '-' || (1000 + mod(h1 / 20250000, 9000)),
				   (mod(h2, 1099999) - 99999) * 0.01,
				   ('{AUTOMOBILE,BUILDING,FURNITURE,MACHINERY,HOUSEHOLD}'::text[])[1 + mod(h2 / 1099999, 5)],
				   %2$s
			FROM (SELECT k,
						 hashint8extended(k, 41) & %4$s AS h1,
						 hashint8extended(k, 42) & %4$s AS h2,
						 hashint8extended(k, 43) & %4$s AS a1,
						 hashint8extended(k, 44) & %4$s AS a2,
						 hashint8extended(k, 45) & %4$s AS a3,
						 hashint8extended(k, 46) & %4$s AS wc
				  FROM (SELECT generate_series(1, %3$s) AS k) AS s
				  OFFSET 0) AS h
			$q$, relation, '%comment(29,116)%', n_cust, mask)

		-- name: 5 different colours of TPC-H's 92 (from a start a, in steps
		-- s that are not multiples of 23, so none repeats within 5 steps);
		-- manufacturer M 1 .. 5 and brand MN; type 6 x 5 x 5 syllables;
		-- size 1 .. 50; container 5 x 8 syllables; retail price 900.00 ..
		-- 2098.99 by TPC-H's formula
		WHEN 'part' THEN format($q$
			INSERT INTO %1$s
			SELECT k,
				   concat_ws(' ', c[1 + mod(a, 92)], c[1 + mod(a + s, 92)], c[1 + mod(a + 2 * s, 92)],
							 c[1 + mod(a + 3 * s, 92)], c[1 + mod(a + 4 * s, 92)]),
				   'Manufacturer#' || (1 + mod(h1, 5)),
				   'Brand#' || (1 + mod(h1, 5)) || (1 + mod(h1 / 5, 5)),
				   concat_ws(' ',
							 ('{STANDARD,SMALL,MEDIUM,LARGE,ECONOMY,PROMO}'::text[])[1 + mod(h1 / 25, 6)],
							 ('{ANODIZED,BURNISHED,PLATED,POLISHED,BRUSHED}'::text[])[1 + mod(h1 / 150, 5)],
							 ('{TIN,NICKEL,BRASS,STEEL,COPPER}'::text[])[1 + mod(h1 / 750, 5)]),
				   1 + mod(h1 / 3750, 50),
				   ('{SM,LG,MED,JUMBO,WRAP}'::text[])[1 + mod(h1 / 187500, 5)] || ' ' ||
					   ('{CASE,BOX,BAG,JAR,PKG,PACK,CAN,DRUM}'::text[])[1 + mod(h1 / 937500, 8)],
				   %5$s * 0.01,
				   %2$s
			FROM (SELECT k, h1, a, s0 + (s0 - 1) / 22 AS s, wc
				  FROM (SELECT k,
							   hashint8extended(k, 51) & %4$s AS h1,
							   mod(hashint8extended(k, 52) & %4$s, 92) AS a,
							   1 + mod(hashint8extended(k, 53) & %4$s, 88) AS s0,
							   hashint8extended(k, 54) & %4$s AS wc
						FROM (SELECT generate_series(1, %3$s) AS k) AS g
						OFFSET 0) AS h0
				  OFFSET 0) AS h,
				 (SELECT '{almond,antique,aquamarine,azure,beige,bisque,black,blanched,'
					'blue,blush,brown,burlywood,burnished,chartreuse,chiffon,chocolate,coral,'
					'cornflower,cornsilk,cream,cyan,dark,deep,dim,dodger,drab,firebrick,floral,'
					'forest,frosted,gainsboro,ghost,goldenrod,green,grey,honeydew,hot,indian,'
					'ivory,khaki,lace,lavender,lawn,lemon,light,lime,linen,magenta,maroon,medium,'
					'metallic,midnight,mint,misty,moccasin,navajo,navy,olive,orange,orchid,pale,'
					'papaya,peach,peru,pink,plum,powder,puff,purple,red,rose,rosy,royal,saddle,'
					'salmon,sandy,seashell,sienna,sky,slate,smoke,snow,spring,steel,tan,thistle,'
					'tomato,turquoise,violet,wheat,white,yellow}'::text[] AS c) AS colours
			$q$, relation, '%comment(5,22)%', n_part, mask, replace(f_price, '{pk}', 'k'))

		-- four suppliers per part, a quarter of the suppliers apart (so four
		-- different ones), the pattern shifted by one every S parts: each
		-- supplier serves about 80 parts; lineitem uses the same formula.
		-- Available quantity 1 .. 9999, supply cost 1.00 .. 1000.00.
		WHEN 'partsupp' THEN format($q$
			INSERT INTO %1$s
			SELECT p,
				   %5$s,
				   1 + mod(h1, 9999),
				   (100 + mod(h1 / 9999, 99901)) * 0.01,
				   %2$s
			FROM (SELECT p, i,
						 hashint8extended(p, 61 + 10 * i) & %4$s AS h1,
						 hashint8extended(p, 62 + 10 * i) & %4$s AS wc
				  FROM (SELECT p, generate_series(0, 3) AS i
						FROM (SELECT generate_series(1, %3$s) AS p) AS g) AS gi
				  OFFSET 0) AS h
			$q$, relation, '%comment(49,198)%', n_part, mask,
				 replace(replace(f_supp, '{pk}', 'p'), '{i}', 'i'))

		-- Each order's lines (up to 7, unrolled) are computed again here by
		-- lineitem's formulas: status F if all of them shipped by TPC-H's
		-- current date, O if none did, else P; total price the sum of their
		-- prices with tax, less discount.  Priority 1 .. 5; clerk 1 ..
		-- scale * 1000; ship priority 0.
		WHEN 'orders' THEN format($q$
			INSERT INTO %1$s
			SELECT okey, custkey,
				   CASE WHEN greatest(%6$s) <= %4$s THEN 'F'
						WHEN least(%6$s) > %4$s THEN 'O'
						ELSE 'P' END,
				   round((%7$s) * 0.000001, 2),
				   odate,
				   ('{1-URGENT,2-HIGH,3-MEDIUM,4-NOT SPECIFIED,5-LOW}'::text[])[1 + mod(h2, 5)],
				   'Clerk#' || lpad((1 + mod(h2 / 5, %3$s))::text, 9, '0'),
				   0,
				   %2$s
			FROM (SELECT okey, custkey, odate, h2, wc, %8$s
				  FROM (SELECT od.*,
							   hashint8extended(o, 3) & %9$s AS wc,
							   %5$s
						FROM %10$s
						OFFSET 0) AS oh
				  OFFSET 0) AS ol
			$q$, relation, '%comment(19,78)%', n_clerk, current_date_tpch,
				 -- the lines' hashes: ha1, hb1, ... ha7, hb7
				 (SELECT string_agg(format('hashint8extended(o, %1$s) & %3$s AS ha%2$s, '
										   'hashint8extended(o, %4$s) & %3$s AS hb%2$s',
										   100 + l, l, mask, 200 + l), ', ' ORDER BY l)
				  FROM generate_series(1, 7) AS l),
				 (SELECT string_agg(format('ship%s', l), ', ' ORDER BY l) FROM generate_series(1, 7) AS l),
				 (SELECT string_agg(format('coalesce(charge%s, 0)', l), ' + ' ORDER BY l) FROM generate_series(1, 7) AS l),
				 -- each line's price with tax, less discount (in millionths)
				 -- and its ship date; NULL past the order's lines
				 (SELECT string_agg(format('CASE WHEN nlines >= %1$s THEN %2$s * %3$s * (100 + %4$s) * (100 - %5$s) END AS charge%1$s, '
										   'CASE WHEN nlines >= %1$s THEN odate + %6$s END AS ship%1$s',
										   l,
										   replace(f_qty, '{ha}', 'ha' || l),
										   replace(f_price, '{pk}', replace(f_part, '{hb}', 'hb' || l)),
										   replace(f_tax, '{ha}', 'ha' || l),
										   replace(f_disc, '{ha}', 'ha' || l),
										   replace(f_ship, '{ha}', 'ha' || l)), ', ' ORDER BY l)
				  FROM generate_series(1, 7) AS l),
				 mask, orders_from)

		-- return flag R or A if received by TPC-H's current date, else N;
		-- line status O if shipped after it, else F
		WHEN 'lineitem' THEN format($q$
			INSERT INTO %1$s
			SELECT okey, partkey, %5$s, l, qty,
				   qty * %6$s * 0.01, disc * 0.01, tax * 0.01,
				   CASE WHEN shipdate + receipt_days > %3$s THEN 'N'
						WHEN coin = 0 THEN 'R' ELSE 'A' END,
				   CASE WHEN shipdate > %3$s THEN 'O' ELSE 'F' END,
				   shipdate, commitdate, shipdate + receipt_days,
				   ('{DELIVER IN PERSON,COLLECT COD,NONE,TAKE BACK RETURN}'::text[])[1 + instr],
				   ('{REG AIR,AIR,RAIL,SHIP,TRUCK,MAIL,FOB}'::text[])[1 + mode],
				   %2$s
			FROM (SELECT okey, l, wc,
						 %7$s AS qty, %8$s AS disc, %9$s AS tax,
						 odate + %10$s AS shipdate, odate + %11$s AS commitdate, %12$s AS receipt_days,
						 %13$s AS coin, %14$s AS instr, %15$s AS mode,
						 %16$s AS partkey, %17$s AS supp_i
				  FROM (SELECT okey, odate, l,
							   hashint8extended(o, 100 + l) & %4$s AS ha,
							   hashint8extended(o, 200 + l) & %4$s AS hb,
							   hashint8extended(o, 300 + l) & %4$s AS wc
						FROM (SELECT o, okey, odate, generate_series(1, nlines) AS l
							  FROM %18$s) AS ol
						OFFSET 0) AS lh
				  OFFSET 0) AS lv
			$q$, relation, '%comment(10,43)%', current_date_tpch, mask,
				 replace(replace(f_supp, '{pk}', 'partkey'), '{i}', 'supp_i'),
				 replace(f_price, '{pk}', 'partkey'),
				 replace(f_qty, '{ha}', 'ha'), replace(f_disc, '{ha}', 'ha'), replace(f_tax, '{ha}', 'ha'),
				 replace(f_ship, '{ha}', 'ha'), replace(f_commit, '{ha}', 'ha'), replace(f_receipt, '{ha}', 'ha'),
				 replace(f_coin, '{ha}', 'ha'), replace(f_instr, '{ha}', 'ha'), replace(f_mode, '{ha}', 'ha'),
				 replace(f_part, '{hb}', 'hb'), replace(f_supp_i, '{hb}', 'hb'),
				 orders_from)
		END;

		-- The comment column: a piece of the text pool ($1), from the start
		-- of one of its words ($2) and of a length uniform in the column's
		-- TPC-H range, both chosen by the row's hash wc: %comment(min,max)%.
		sql := regexp_replace(sql, '%comment\((\d+),(\d+)\)%',
			format('rtrim(convert_from(substring($1 FROM $2[1 + mod(wc, %1$s)] '
				   'FOR \1 + mod(wc / %1$s, \2 - \1 + 1)::integer), ''UTF8''))',
				   cardinality(pool_starts)));

		EXECUTE sql USING pool, pool_starts;
		GET DIAGNOSTICS rows = ROW_COUNT;

		EXECUTE format('ALTER TABLE %s ADD PRIMARY KEY (%s)%s', relation, keys[i], idx_clause);
		EXECUTE format('ANALYZE %s', relation);
		-- What was written, so that replace can tell the table was not
		-- reloaded (a new file) nor given rows of its own since.
		EXECUTE format('COMMENT ON TABLE %s IS %L', relation,
					   format('%s: %s rows, file %s', marker, rows,
							  (SELECT c.relfilenode FROM pg_class c WHERE c.oid = relation)));

		mb := pg_relation_size(relation) / 1048576.0;
		indexes_mb := pg_indexes_size(relation) / 1048576.0;
		elapsed_ms := round(extract(epoch FROM clock_timestamp() - started)::numeric * 1000, 3);
		total_rows := total_rows + rows;
		total_mb := total_mb + mb + indexes_mb;
		RAISE NOTICE '%: % rows, % MB, % ms', relation, rows, round(mb::numeric, 1), round(elapsed_ms::numeric);
		RETURN NEXT;
	END LOOP;

	RAISE NOTICE 'generated % rows, % MB in % s', total_rows, round(total_mb::numeric, 1),
		round(extract(epoch FROM clock_timestamp() - all_started)::numeric, 1)
		USING HINT = format('Run VACUUM (FREEZE, ANALYZE) %s before benchmarking, outside a transaction block: '
							'it sets the hint bits and the visibility map that a first scan would otherwise write.',
							(SELECT string_agg(format('%I.%I', schema, t), ', ') FROM unnest(tables) t));
END;
$$;

COMMENT ON FUNCTION bench_generate_tpch(float8, name, name, boolean) IS
'generate a deterministic TPC-H-shaped data set (not dbgen output) of a scale factor in a new schema, one row per table';

--
-- _bench_run_table (1.2): the tables runs make for themselves
-- (bench_commit's sessions'), recorded when they are made so that only
-- what a run made is ever dropped, by the role that made it
-- (src/run_tables.c).  Written and read by the extension's owner only.
--
CREATE TABLE _bench_run_table (
	relid oid PRIMARY KEY,				-- the table made
	relname name NOT NULL,				-- its name and schema when it was made
	relnamespace oid NOT NULL,
	made_by oid NOT NULL,				-- the role that made it (its owner)
	leader_pid integer NOT NULL,		-- the backend whose run it belongs to
	benchmark text NOT NULL,			-- the benchmark (commit)
	made_at timestamptz NOT NULL DEFAULT pg_catalog.now()
);
REVOKE ALL ON _bench_run_table FROM PUBLIC;

COMMENT ON TABLE _bench_run_table IS
'internal: the tables runs made for themselves, dropped only through this record by the role that made them';

--
-- bench_commit (1.2): the commit path under concurrency.  N sessions
-- (dynamic background workers connected as the caller) commit tiny
-- transactions through the server's WAL path for a duration; one row.
--
CREATE FUNCTION bench_commit(
	sessions integer DEFAULT 1,		-- concurrent committing sessions, 1 .. 64 (each a background worker)
	duration interval DEFAULT '10s',	-- how long they commit, 100 ms .. 1 h
	payload text DEFAULT '100 bytes',	-- bytes inserted by each transaction, pg_size_bytes syntax, 1 B .. 1 MB
	tablespace name DEFAULT NULL,	-- the run's tables' tablespace; NULL: default_tablespace
	synchronous_commit text DEFAULT 'on',	-- on | off | local | remote_write | remote_apply, for the sessions
	after_checkpoint boolean DEFAULT false,	-- true: a checkpoint first; WAL and full-page images per commit of the first interval against the rest
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	sample_interval interval DEFAULT '1s',	-- one sample of the time series per interval, 10 ms .. 1 h; NULL: none
	ramp interval DEFAULT NULL,		-- a warm-up: run, sampled, left out of the figures, which start when it ends; duration counts from there; NULL: none, at most 1 h
	until text DEFAULT 'duration',	-- 'duration': the run ends after duration; 'steady': when steady holds, or at duration
	steady text DEFAULT NULL,		-- steady-state criterion in fio's terms on the time series (iops: commits/s, bw: WAL MB/s, lat: mean commit latency), e.g. 'iops:5%'; several joined by commas
	steady_window interval DEFAULT '30s',	-- the window the criterion judges (fio's ss_dur)
	OUT sessions integer,			-- the sessions argument
	OUT synchronous_commit text,	-- the sessions' synchronous_commit
	OUT tablespace name,			-- the run's tables' tablespace
	OUT payload_bytes integer,		-- bytes inserted per transaction
	OUT elapsed_ms float8,			-- wall-clock time of the run after its ramp, ms
	OUT commits bigint,				-- transactions committed, all sessions
	OUT commits_per_s float8,		-- commits / elapsed seconds
	OUT lat_avg_us float8,			-- time of one commit (CommitTransactionCommand), mean, µs
	OUT lat_p50_us float8,			-- median
	OUT lat_p95_us float8,			-- 95th percentile
	OUT lat_p99_us float8,			-- 99th percentile
	OUT lat_p999_us float8,			-- 99.9th percentile
	OUT lat_max_us float8,			-- the slowest commit
	OUT wal_bytes bigint,			-- WAL the sessions' transactions wrote (their own pgWalUsage)
	OUT wal_bytes_per_commit float8,	-- wal_bytes / commits
	OUT wal_fpi bigint,				-- full-page images in that WAL
	OUT fpi_per_commit float8,		-- wal_fpi / commits
	OUT wal_flushes bigint,			-- WAL flushes by the server during the run (pg_stat_wal, pg_stat_io on 18); NULL if unknown
	OUT commits_per_flush float8,	-- the group-commit factor: commits / wal_flushes
	OUT wal_flush_avg_us float8,	-- mean time of a WAL flush, µs; NULL unless track_wal_io_timing timed them
	OUT first_wal_bytes_per_commit float8,	-- after_checkpoint: WAL bytes per commit in the first interval after the checkpoint
	OUT first_fpi_per_commit float8,	-- after_checkpoint: full-page images per commit in it
	OUT later_wal_bytes_per_commit float8,	-- after_checkpoint: WAL bytes per commit after the first interval
	OUT later_fpi_per_commit float8,	-- after_checkpoint: full-page images per commit after the first interval
	OUT steady_state boolean,		-- whether steady held over a window after the ramp; NULL: no criterion
	OUT steady_at_ms float8,		-- when it first held: the end of that window, since the run began (ramp included)
	OUT steady_criterion text,		-- the criterion and its window, e.g. 'iops:5% over 30 s'
	OUT histogram jsonb,			-- commit latency histogram: [[upper bound µs, commits], ...], four bins to a power of two
	OUT notes text					-- what could not be measured, and why; NULL: nothing
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_commit'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_commit(integer, interval, text, name, text, boolean, text, boolean, interval, interval, text, text, interval) IS
'time tiny transactions committed by concurrent sessions through the WAL path: commits per second, commit latency, WAL and full-page images per commit, commits per WAL flush';

--
-- bench_generate_tpcb (1.2): pgbench's four tables, as pgbench -i builds
-- them (its layout, its scaling rules, its server-side generation), in
-- the tablespaces named: bench_tpcb's data.
--
CREATE FUNCTION bench_generate_tpcb(
	scale integer DEFAULT 10,		-- branches; 10 tellers and 100,000 accounts each, as pgbench's scale; 1 .. 20000
	tablespace name DEFAULT NULL,	-- the tables' tablespace; NULL: default_tablespace
	index_tablespace name DEFAULT NULL,	-- their primary keys' tablespace; NULL: default_tablespace
	schema name DEFAULT 'public',	-- an existing schema to create them in
	replace boolean DEFAULT false,	-- true: drop the four tables first, if the caller owns them and this function generated them
	fillfactor integer DEFAULT 100,	-- 10 .. 100, as pgbench -i -F
	OUT generated_in name,			-- the schema the tables are in
	OUT branches integer,			-- rows of pgbench_branches: the scale
	OUT accounts bigint,			-- rows of pgbench_accounts
	OUT mb float8,					-- the four tables' main forks, MB
	OUT index_mb float8,			-- their primary keys, MB
	OUT elapsed_ms float8			-- time to load, index and analyze them, ms
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off
AS $$
DECLARE
	marker constant text := 'pgbench tables generated by bench_generate_tpcb';
	nsp constant name := schema;
	ff constant integer := fillfactor;
	sc constant integer := scale;
	tables constant text[] := ARRAY['pgbench_branches', 'pgbench_tellers', 'pgbench_accounts', 'pgbench_history'];
	spc_clause text := '';
	idx_clause text := '';
	existing text[] := '{}';
	gen record;
	me oid;
	t text;
	b integer;
	batch constant integer := 10;	-- branches of accounts per INSERT (a million rows)
	interval_ms integer;
	next_report timestamptz;
	started timestamptz := clock_timestamp();
BEGIN
	IF sc IS NULL OR nsp IS NULL OR replace IS NULL OR ff IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN sc IS NULL THEN 'scale' WHEN nsp IS NULL THEN 'schema'
				 WHEN replace IS NULL THEN 'replace' ELSE 'fillfactor' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF sc < 1 OR sc > 20000 THEN
		RAISE EXCEPTION 'scale must be between 1 and 20000'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'pgbench''s accounts are integers up to scale 20000; use pgbench -i for larger ones.';
	END IF;
	IF ff < 10 OR ff > 100 THEN
		RAISE EXCEPTION 'fillfactor must be between 10 and 100'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_namespace s WHERE s.nspname = nsp) THEN
		RAISE EXCEPTION 'schema "%" does not exist', nsp
			USING ERRCODE = 'invalid_schema_name';
	END IF;
	FOREACH t IN ARRAY ARRAY[tablespace, index_tablespace] LOOP
		IF t IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_tablespace s WHERE s.spcname = t) THEN
			RAISE EXCEPTION 'tablespace "%" does not exist', t
				USING ERRCODE = 'undefined_object';
		END IF;
	END LOOP;
	IF tablespace IS NOT NULL THEN
		spc_clause := format(' TABLESPACE %I', tablespace);
	END IF;
	IF index_tablespace IS NOT NULL THEN
		idx_clause := format(' USING INDEX TABLESPACE %I', index_tablespace);
	END IF;
	-- the module defines benchstore.progress_interval when it loads
	PERFORM @extschema@._bench_random_keys(1, 0, 1, 0);
	SELECT s.setting::integer INTO interval_ms FROM pg_settings s
	WHERE s.name = 'benchstore.progress_interval';

	-- Existing tables are replaced only when asked to, and only those the
	-- caller owns and this function made: each carries its mark, a comment
	-- only its owner (the caller) could have written; pgbench_accounts's
	-- also names its file, not rewritten or reloaded since.  Every table is
	-- checked before any is dropped: pgbench's own, or anyone else's, are
	-- never dropped here.
	me := (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user);
	FOR gen IN SELECT c.oid, c.relname, c.relowner, c.relfilenode
				 FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
				 WHERE s.nspname = nsp AND c.relname::text = ANY (tables)
				 ORDER BY c.relname LOOP
		IF NOT replace THEN
			RAISE EXCEPTION 'relation "%" already exists', format('%I.%I', nsp, gen.relname)
				USING ERRCODE = 'duplicate_table',
					  HINT = 'Pass replace => true to drop the tables bench_generate_tpcb made and generate them again, or choose another schema.';
		END IF;
		IF gen.relowner IS DISTINCT FROM me THEN
			RAISE EXCEPTION 'cannot replace table "%" because it is owned by role "%"', format('%I.%I', nsp, gen.relname),
					(SELECT r.rolname FROM pg_roles r WHERE r.oid = gen.relowner)
				USING ERRCODE = 'insufficient_privilege',
					  DETAIL = 'replace drops only tables the caller owns and bench_generate_tpcb generated; nothing was dropped.',
					  HINT = 'Choose another schema, or have the table''s owner drop it.';
		END IF;
		IF obj_description(gen.oid, 'pg_class') IS DISTINCT FROM
		   (CASE WHEN gen.relname = 'pgbench_accounts' THEN format('%s: file %s', marker, gen.relfilenode)
				 ELSE format('%s: table %s', marker, gen.relname) END) THEN
			RAISE EXCEPTION 'cannot replace table "%" because bench_generate_tpcb did not generate it as it is', format('%I.%I', nsp, gen.relname)
				USING ERRCODE = 'insufficient_privilege',
					  DETAIL = 'replace drops only tables bench_generate_tpcb generated (pgbench_accounts neither rewritten nor reloaded since); nothing was dropped.',
					  HINT = 'Choose another schema, or drop the tables yourself.';
		END IF;
		existing := existing || format('%I.%I', nsp, gen.relname);
	END LOOP;
	IF cardinality(existing) > 0 THEN
		EXECUTE format('DROP TABLE %s RESTRICT', array_to_string(existing, ', '));
	END IF;

	-- pgbench -i's tables, columns and fill factor
	EXECUTE format('CREATE TABLE %I.pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22))%s',
				   nsp, spc_clause);
	EXECUTE format('CREATE TABLE %I.pgbench_tellers (tid int NOT NULL, bid int, tbalance int, filler char(84)) WITH (fillfactor = %s)%s',
				   nsp, ff, spc_clause);
	EXECUTE format('CREATE TABLE %I.pgbench_accounts (aid int NOT NULL, bid int, abalance int, filler char(84)) WITH (fillfactor = %s)%s',
				   nsp, ff, spc_clause);
	EXECUTE format('CREATE TABLE %I.pgbench_branches (bid int NOT NULL, bbalance int, filler char(88)) WITH (fillfactor = %s)%s',
				   nsp, ff, spc_clause);

	-- pgbench -i -I G: the rows generated in the server
	EXECUTE format('INSERT INTO %I.pgbench_branches (bid, bbalance) SELECT bid, 0 FROM generate_series(1, $1) AS bid', nsp)
		USING sc;
	EXECUTE format('INSERT INTO %I.pgbench_tellers (tid, bid, tbalance) SELECT tid, (tid - 1) / 10 + 1, 0 FROM generate_series(1, $1) AS tid', nsp)
		USING 10 * sc;
	next_report := clock_timestamp() + make_interval(secs => coalesce(interval_ms, 0) / 1000.0);
	b := 0;
	WHILE b < sc LOOP
		EXECUTE format('INSERT INTO %I.pgbench_accounts (aid, bid, abalance, filler) '
					   'SELECT aid, (aid - 1) / 100000 + 1, 0, '''' FROM generate_series($1, $2) AS aid', nsp)
			USING b * 100000 + 1, least(b + batch, sc) * 100000;
		b := least(b + batch, sc);
		IF coalesce(interval_ms, 0) > 0 AND clock_timestamp() >= next_report THEN
			RAISE NOTICE '%', format('bench_generate_tpcb: %s of %s branches of accounts in %s s',
				b, sc, round(extract(epoch FROM clock_timestamp() - started)::numeric, 1));
			next_report := clock_timestamp() + make_interval(secs => interval_ms / 1000.0);
		END IF;
	END LOOP;

	EXECUTE format('ALTER TABLE %I.pgbench_branches ADD PRIMARY KEY (bid)%s', nsp, idx_clause);
	EXECUTE format('ALTER TABLE %I.pgbench_tellers ADD PRIMARY KEY (tid)%s', nsp, idx_clause);
	EXECUTE format('ALTER TABLE %I.pgbench_accounts ADD PRIMARY KEY (aid)%s', nsp, idx_clause);
	FOREACH t IN ARRAY tables LOOP
		EXECUTE format('ANALYZE %I.%I', nsp, t);
	END LOOP;
	EXECUTE format('COMMENT ON TABLE %I.pgbench_accounts IS %L', nsp,
				   format('%s: file %s', marker,
						  (SELECT c.relfilenode FROM pg_class c WHERE c.oid = format('%I.pgbench_accounts', nsp)::regclass)));
	FOREACH t IN ARRAY ARRAY['pgbench_branches', 'pgbench_tellers', 'pgbench_history'] LOOP
		EXECUTE format('COMMENT ON TABLE %I.%I IS %L', nsp, t, format('%s: table %s', marker, t));
	END LOOP;

	generated_in := nsp;
	branches := sc;
	accounts := 100000::bigint * sc;
	SELECT sum(pg_relation_size(format('%I.%I', nsp, x)::regclass)) / 1048576.0,
		   sum(pg_indexes_size(format('%I.%I', nsp, x)::regclass)) / 1048576.0
	  INTO mb, index_mb FROM unnest(tables) AS x;
	elapsed_ms := round(extract(epoch FROM clock_timestamp() - started)::numeric * 1000, 3);
	RAISE NOTICE 'generated pgbench''s tables at scale %, % MB in % s', sc,
		round(mb::numeric + index_mb::numeric, 1), round(elapsed_ms::numeric / 1000, 1)
		USING HINT = format('Run VACUUM ANALYZE %1$I.pgbench_branches, %1$I.pgbench_tellers, %1$I.pgbench_accounts, %1$I.pgbench_history '
							'before benchmarking, outside a transaction block, as pgbench -i does.', nsp);
	RETURN NEXT;
END;
$$;

COMMENT ON FUNCTION bench_generate_tpcb(integer, name, name, name, boolean, integer) IS
'generate pgbench''s four tables at a scale, in the tablespaces named, as pgbench -i does, one row';

--
-- bench_tpcb (1.2): pgbench's TPC-B-like transaction run by N clients
-- (dynamic background workers connected as the caller) on pgbench's
-- tables for a duration; one row.
--
CREATE FUNCTION bench_tpcb(
	clients integer DEFAULT 8,		-- concurrent clients, 1 .. 64 (each a background worker), as pgbench -c
	duration interval DEFAULT '60s',	-- how long they run, 100 ms .. 1 h, as pgbench -T
	schema name DEFAULT NULL,		-- the schema of pgbench's tables; NULL: where the search_path finds pgbench_accounts
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	sample_interval interval DEFAULT '1s',	-- one sample of the time series per interval, 10 ms .. 1 h; NULL: none
	ramp interval DEFAULT NULL,		-- a warm-up: run, sampled, left out of the figures, which start when it ends; duration counts from there; NULL: none, at most 1 h
	until text DEFAULT 'duration',	-- 'duration': the run ends after duration; 'steady': when steady holds, or at duration
	steady text DEFAULT NULL,		-- steady-state criterion in fio's terms on the time series (iops: transactions/s, bw: WAL MB/s, lat: mean transaction latency), e.g. 'iops:5%'; several joined by commas
	steady_window interval DEFAULT '30s',	-- the window the criterion judges (fio's ss_dur)
	OUT clients integer,			-- the clients argument
	OUT scale integer,				-- pgbench's scale: rows of pgbench_branches
	OUT schema name,				-- the tables' schema
	OUT tablespace name,			-- pgbench_accounts' tablespace
	OUT index_tablespace name,		-- its primary key's tablespace; NULL: no primary key
	OUT elapsed_ms float8,			-- wall-clock time of the run after its ramp, ms
	OUT connect_ms float8,			-- time for every client to start, connect and prepare, ms (untimed in tps)
	OUT transactions bigint,		-- transactions committed, all clients
	OUT tps float8,					-- transactions / elapsed seconds (pgbench's "without initial connection time")
	OUT tps_with_connect float8,	-- transactions / (elapsed + connect) seconds
	OUT lat_avg_ms float8,			-- time of one transaction, from its start to its commit's return, mean, ms
	OUT lat_p50_ms float8,			-- median
	OUT lat_p95_ms float8,			-- 95th percentile
	OUT lat_p99_ms float8,			-- 99th percentile
	OUT lat_max_ms float8,			-- the slowest transaction
	OUT blks_hit bigint,			-- the clients' shared-buffer hits
	OUT blks_read bigint,			-- the clients' block reads (from the OS page cache or the device)
	OUT os_read_mb float8,			-- what the kernel read from storage for the clients (/proc/<pid>/io), MB; NULL if unknown
	OUT wal_bytes bigint,			-- WAL the clients' transactions wrote
	OUT wal_bytes_per_tx float8,	-- wal_bytes / transactions
	OUT wal_fpi bigint,				-- full-page images in that WAL
	OUT wal_flushes bigint,			-- WAL flushes by the server during the run; NULL if unknown
	OUT checkpoints integer,		-- checkpoints the server made during the run (after its ramp)
	OUT steady_state boolean,		-- whether steady held over a window after the ramp; NULL: no criterion
	OUT steady_at_ms float8,		-- when it first held: the end of that window, since the run began (ramp included)
	OUT steady_criterion text,		-- the criterion and its window, e.g. 'iops:5% over 30 s'
	OUT histogram jsonb,			-- transaction latency histogram: [[upper bound µs, transactions], ...]
	OUT notes text					-- what could not be measured, and why; NULL: nothing
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_tpcb'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_tpcb(integer, interval, name, text, boolean, interval, interval, text, text, interval) IS
'run pgbench''s TPC-B-like transaction from concurrent clients inside the server on pgbench''s tables: tps, latency percentiles, buffer and kernel reads, WAL, checkpoints';
