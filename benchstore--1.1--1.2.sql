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

-- _bench_may_alter_tablespace(role name, tablespace owner): whether the
-- role is a superuser or a member of the owner (what ALTER TABLESPACE
-- requires).  Executable by PUBLIC: the advice functions call it as their
-- caller; it only reads pg_roles and answers for roles anyone may list.
CREATE FUNCTION _bench_may_alter_tablespace(recorded_by text, owner oid)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_roles g
				   WHERE g.rolname OPERATOR(pg_catalog.=) recorded_by
					 AND (g.rolsuper OR pg_catalog.pg_has_role(g.oid, owner, 'USAGE')))
$$;

COMMENT ON FUNCTION _bench_may_alter_tablespace(text, oid) IS
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
	   AND @extschema@._bench_may_alter_tablespace(r.recorded_by, ts_owner)
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
	   AND @extschema@._bench_may_alter_tablespace(r.recorded_by, ts_owner)
	   AND NOT EXISTS (SELECT 1 FROM @extschema@.bench_run u JOIN @extschema@.bench_result ux ON ux.run_id = u.run_id
					    WHERE u.benchmark = 'advice_undone' AND u.target_oid = ts_oid
						  AND ux.metrics ->> 'applied_run_id' = r.run_id::text
						  AND @extschema@._bench_may_alter_tablespace(u.recorded_by, ts_owner))
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
