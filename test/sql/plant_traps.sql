-- test/sql/plant_traps.sql: the trap layer of test/t/020_traps.pl (and
-- 010_citus.pl's nodes), generated from the catalogue.  Run by
-- BenchstoreTAP::bs_plant_traps as a role that may create in schema
-- :"trap_schema", a schema on the superuser's search_path (public, in a
-- database created before PostgreSQL 15): the CVE-2018-1058 scenario.
--
-- It plants, in that schema, an object with a better-matching signature
-- than pg_catalog's wherever one could capture SQL run on the caller's
-- search_path:
--
--  1. Operators: for every operator name of pg_catalog, and every pair of
--     the types below for which pg_catalog has no operator of exactly
--     those types but resolves one through implicit casts, an operator of
--     exactly those types (=(oid, integer), ~(name, name), *(numeric,
--     bigint), ...); prefix operators alike.  An unknown literal takes the
--     type of the other side, so ~(name, name) also captures name ~ 'x'.
--  2. Functions and aggregates of pg_catalog whose names appear in
--     benchstore's own SQL (its scripts and the C code's statements,
--     listed in the temporary table trap_names): for every argument, each
--     of the types below that reaches it through an implicit cast (or a
--     polymorphic or "any" parameter), in its place; for functions with a
--     VARIADIC "any" tail (format, concat, jsonb_build_object, ...), one to
--     three extra arguments of common types.
--  3. Every function of the extensions (benchstore's own, which their
--     scripts call qualified with their schema, the very schema planted in
--     here): for each argument not of type text, a function of the same
--     name and argument names with text there, which an unknown literal
--     prefers; the arguments after it keep their defaults.
--
-- The types: common scalar and array types, and every type the
-- extensions' functions and tables use.  Each plant raises a WARNING
-- "benchstore trap fired: ..." naming itself, the role it ran as and the
-- statement, and then does what it stands in for (operators and
-- functions of pg_catalog) or returns nothing (aggregates, benchstore's
-- functions): the test reads the server log.  Record-returning functions
-- of pg_catalog are not planted (a plant would need their column list).
--
-- The setting bs_trap.kinds says which to plant: 'catalog' (1 and 2,
-- before the extensions exist), 'extensions' (3), or 'all'.  A plant
-- already there is not made again.
--
-- Output: one row per kind with the count of plants made.
SET search_path = pg_catalog, pg_temp;
SET client_min_messages = warning;

CREATE TEMP TABLE trap_types AS
SELECT t.oid AS typ FROM pg_type t
WHERE t.oid IN ('bool'::regtype, '"char"'::regtype, 'name'::regtype, 'int2'::regtype,
				'int4'::regtype, 'int8'::regtype, 'oid'::regtype, 'text'::regtype,
				'float4'::regtype, 'float8'::regtype, 'numeric'::regtype, 'bpchar'::regtype,
				'varchar'::regtype, 'timestamptz'::regtype, 'timestamp'::regtype, 'date'::regtype,
				'interval'::regtype, 'jsonb'::regtype, 'json'::regtype, 'bytea'::regtype,
				'regclass'::regtype, 'regproc'::regtype, 'regtype'::regtype, 'regrole'::regtype,
				'regnamespace'::regtype, 'xid'::regtype, 'pg_lsn'::regtype,
				'int4[]'::regtype, 'int8[]'::regtype, 'text[]'::regtype, 'name[]'::regtype,
				'oid[]'::regtype, 'float8[]'::regtype, 'numeric[]'::regtype, 'jsonb[]'::regtype,
				'bool[]'::regtype, 'interval[]'::regtype, 'regprocedure'::regtype,
				'regoperator'::regtype, 'aclitem'::regtype, 'aclitem[]'::regtype)
UNION
-- every type of the extensions' functions and tables (not pseudo-types)
SELECT DISTINCT u.typ FROM (
	SELECT unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]) || p.prorettype) AS typ
	FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid
	WHERE e.extname IN ('benchstore', 'benchstore_cluster')
	UNION ALL
	SELECT a.atttypid FROM pg_attribute a
	JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = a.attrelid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid
	WHERE e.extname IN ('benchstore', 'benchstore_cluster') AND a.attnum > 0 AND NOT a.attisdropped
) u JOIN pg_type t ON t.oid = u.typ
WHERE t.typtype <> 'p' AND t.typname !~ '^pg_' AND t.typisdefined;

-- src reaches dst: the same type, an implicit cast, or a polymorphic or
-- "any" parameter that accepts it
CREATE TEMP TABLE trap_reach AS
SELECT x.typ AS src, y.oid AS dst
FROM trap_types x CROSS JOIN pg_type y
JOIN pg_type xt ON xt.oid = x.typ
WHERE y.oid = x.typ
   OR EXISTS (SELECT 1 FROM pg_cast c WHERE c.castsource = x.typ AND c.casttarget = y.oid
			  AND c.castcontext = 'i')
   OR y.typname IN ('anyelement', 'anycompatible', 'any')
   OR (y.typname IN ('anynonarray', 'anycompatiblenonarray') AND NOT (xt.typelem <> 0 AND xt.typlen = -1))
   OR (y.typname IN ('anyarray', 'anycompatiblearray') AND xt.typelem <> 0 AND xt.typlen = -1);

CREATE TEMP TABLE trap_made (kind text, what text);

CREATE FUNCTION pg_temp.trap_body(what text, ret text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT format($b$
BEGIN
	RAISE WARNING 'benchstore trap fired: %% ran as %% in: %%', %L, current_user, current_query();
	%s
END
$b$, what, ret)
$$;

-- 1. operators
DO $trap$
DECLARE
	c record;
	res regtype;
	opl regtype;
	opr regtype;
	k integer := 0;
	fn text;
	expr text;
	found_one boolean;
BEGIN
	IF current_setting('bs_trap.kinds') NOT IN ('catalog', 'all') THEN
		RETURN;
	END IF;
	FOR c IN
		-- through implicit casts or polymorphic parameters
		SELECT DISTINCT o.oprname, o.oprkind, l.src AS l, r.src AS r
		FROM pg_operator o
		LEFT JOIN trap_reach l ON l.dst = o.oprleft
		JOIN trap_reach r ON r.dst = o.oprright
		WHERE o.oprnamespace = 'pg_catalog'::regnamespace
		  AND ((o.oprkind = 'b' AND l.src IS NOT NULL) OR (o.oprkind = 'l' AND o.oprleft = 0))
		UNION
		-- an unknown literal on one side, which takes the other side's type
		SELECT DISTINCT o.oprname, 'b'::"char", t.typ, t.typ
		FROM (SELECT DISTINCT oprname FROM pg_operator
			  WHERE oprnamespace = 'pg_catalog'::regnamespace AND oprkind = 'b') o
		CROSS JOIN trap_types t
		ORDER BY 1, 2, 3, 4
	LOOP
		-- pg_catalog has it exactly: it comes first, no plant can win
		CONTINUE WHEN EXISTS (SELECT 1 FROM pg_operator e
							  WHERE e.oprnamespace IN ('pg_catalog'::regnamespace,
													   current_setting('bs_trap.schema')::regnamespace)
								AND e.oprname = c.oprname AND e.oprright = c.r
								AND e.oprleft = coalesce(CASE WHEN c.oprkind = 'b' THEN c.l END, 0));
		-- what pg_catalog resolves it to (from a view: nothing runs); an
		-- (L, L) pair is tried with an unknown on either side
		found_one := false;
		FOREACH expr IN ARRAY CASE
			WHEN c.oprkind = 'l' THEN ARRAY[format('OPERATOR(pg_catalog.%s) NULL::%s', c.oprname, c.r::regtype)]
			WHEN c.l = c.r THEN ARRAY[format('NULL::%s OPERATOR(pg_catalog.%s) NULL::%s', c.l::regtype, c.oprname, c.r::regtype),
									  format('NULL::%s OPERATOR(pg_catalog.%s) NULL', c.l::regtype, c.oprname),
									  format('NULL OPERATOR(pg_catalog.%s) NULL::%s', c.oprname, c.r::regtype)]
			ELSE ARRAY[format('NULL::%s OPERATOR(pg_catalog.%s) NULL::%s', c.l::regtype, c.oprname, c.r::regtype)] END
		LOOP
			BEGIN
				EXECUTE format('CREATE TEMP VIEW trap_resolve AS SELECT %s AS x', expr);
				SELECT a.atttypid::regtype INTO res FROM pg_attribute a
				 WHERE a.attrelid = 'pg_temp.trap_resolve'::regclass AND a.attname = 'x';
				-- the view's tree names the operator (pg_catalog's objects
				-- are pinned: no dependency is recorded on them)
				SELECT o.oprleft::regtype, o.oprright::regtype INTO opl, opr
				  FROM pg_operator o
				 WHERE o.oid = (SELECT substring(r.ev_action::text FROM ':opno ([0-9]+)')::oid
								FROM pg_rewrite r WHERE r.ev_class = 'pg_temp.trap_resolve'::regclass);
				DROP VIEW pg_temp.trap_resolve;
				found_one := opr IS NOT NULL;
			EXCEPTION WHEN OTHERS THEN
				found_one := false;
			END;
			EXIT WHEN found_one;
		END LOOP;
		CONTINUE WHEN NOT found_one;	-- pg_catalog cannot resolve it either: nothing to capture
		k := k + 1;
		fn := format('%I.bs_trap_op_%s', current_setting('bs_trap.schema'), k);
		BEGIN
			-- the plant forwards to the operator pg_catalog chose
			IF c.oprkind = 'b' THEN
				EXECUTE format('CREATE FUNCTION %s(a %s, b %s) RETURNS %s LANGUAGE plpgsql AS %L',
							   fn, c.l::regtype, c.r::regtype, res,
							   pg_temp.trap_body(format('operator %s(%s, %s)', c.oprname, c.l::regtype, c.r::regtype),
												 format('RETURN a::%s OPERATOR(pg_catalog.%s) b::%s;', opl, c.oprname, opr)));
				EXECUTE format('CREATE OPERATOR %I.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = %s)',
							   current_setting('bs_trap.schema'), c.oprname, c.l::regtype, c.r::regtype, fn);
			ELSE
				EXECUTE format('CREATE FUNCTION %s(b %s) RETURNS %s LANGUAGE plpgsql AS %L',
							   fn, c.r::regtype, res,
							   pg_temp.trap_body(format('operator %s(NONE, %s)', c.oprname, c.r::regtype),
												 format('RETURN OPERATOR(pg_catalog.%s) b::%s;', c.oprname, opr)));
				EXECUTE format('CREATE OPERATOR %I.%s (RIGHTARG = %s, FUNCTION = %s)',
							   current_setting('bs_trap.schema'), c.oprname, c.r::regtype, fn);
			END IF;
			INSERT INTO trap_made VALUES ('operator', format('%s(%s, %s)', c.oprname, c.l::regtype, c.r::regtype));
		EXCEPTION WHEN OTHERS THEN
			INSERT INTO trap_made VALUES ('operator not planted', format('%s(%s, %s): %s', c.oprname, c.l::regtype, c.r::regtype, SQLERRM));
		END;
	END LOOP;
END
$trap$;

-- 2. pg_catalog's functions and aggregates that benchstore's SQL names
DO $trap$
DECLARE
	p record;
	res regtype;
	setof boolean;
	k integer := 0;
	fn text;
	args text;
	params text;
	call text;
	extra regtype[] := ARRAY['text', 'name', 'int4', 'int8', 'numeric', 'float8', 'oid',
							 'regclass', 'bool', 'jsonb', 'timestamptz', 'interval']::regtype[];
	t1 regtype;
	t2 regtype;
	i integer;
	cand regtype[];
BEGIN
	IF current_setting('bs_trap.kinds') NOT IN ('catalog', 'all') THEN
		RETURN;
	END IF;
	CREATE TEMP TABLE trap_fsig (proname name, prokind "char", sig regtype[], UNIQUE (proname, sig));
	FOR p IN
		SELECT f.oid, f.proname, f.prokind, f.pronargs,
			   ARRAY(SELECT unnest(f.proargtypes::oid[])) AS argtypes,	-- 1-based (oidvector is 0-based)
			   f.provariadic, f.proretset
		FROM pg_proc f
		WHERE f.pronamespace = 'pg_catalog'::regnamespace
		  AND f.proname IN (SELECT name FROM trap_names)
		  AND f.prokind IN ('f', 'a') AND f.pronargs BETWEEN 1 AND 4
		  AND f.prorettype <> 'record'::regtype
		  AND NOT (f.prokind = 'a' AND f.pronargs > 2)
		ORDER BY f.proname, f.oid
	LOOP
		IF p.provariadic = '"any"'::regtype AND NOT '"any"'::regtype = ANY (p.argtypes[1:p.pronargs - 1]::regtype[]) THEN
			-- the fixed part as declared, then 1 .. 3 extra arguments
			FOREACH t1 IN ARRAY extra LOOP
				INSERT INTO trap_fsig VALUES (p.proname, p.prokind, p.argtypes[1:p.pronargs - 1]::regtype[] || t1)
					ON CONFLICT DO NOTHING;
				FOREACH t2 IN ARRAY extra LOOP
					INSERT INTO trap_fsig VALUES (p.proname, p.prokind, p.argtypes[1:p.pronargs - 1]::regtype[] || t1 || t2)
						ON CONFLICT DO NOTHING;
				END LOOP;
				INSERT INTO trap_fsig VALUES (p.proname, p.prokind, p.argtypes[1:p.pronargs - 1]::regtype[] || t1 || t1 || t1)
					ON CONFLICT DO NOTHING;
			END LOOP;
			CONTINUE;
		END IF;
		IF p.provariadic <> 0 THEN
			CONTINUE;	-- VARIADIC "any" after "any", or of an array type: not planted
		END IF;
		-- each argument in turn replaced by every type that reaches it
		FOR i IN 1 .. p.pronargs LOOP
			FOR t1 IN SELECT r.src::regtype FROM trap_reach r WHERE r.dst = p.argtypes[i] LOOP
				cand := p.argtypes::regtype[];
				cand[i] := t1;
				-- "any" elsewhere: PL/pgSQL cannot take it (only C can)
				CONTINUE WHEN '"any"'::regtype = ANY (cand);
				INSERT INTO trap_fsig VALUES (p.proname, p.prokind, cand) ON CONFLICT DO NOTHING;
			END LOOP;
		END LOOP;
	END LOOP;
	-- drop the signatures pg_catalog has exactly
	DELETE FROM trap_fsig s
	 WHERE EXISTS (SELECT 1 FROM pg_proc f
				   WHERE f.pronamespace IN ('pg_catalog'::regnamespace,
											current_setting('bs_trap.schema')::regnamespace)
					 AND f.proname = s.proname AND ARRAY(SELECT unnest(f.proargtypes::oid[])) = s.sig::oid[]);

	FOR p IN SELECT * FROM trap_fsig ORDER BY proname, sig::text LOOP
		args := (SELECT string_agg(format('NULL::%s', t), ', ' ORDER BY o) FROM unnest(p.sig) WITH ORDINALITY AS u(t, o));
		-- what pg_catalog resolves the call to, and its type, from a view
		-- (a set-returning function with NULL arguments returns no row)
		BEGIN
			EXECUTE format('CREATE TEMP VIEW trap_resolve AS SELECT pg_catalog.%I(%s) AS x', p.proname, args);
			SELECT a.atttypid::regtype INTO res FROM pg_attribute a
			 WHERE a.attrelid = 'pg_temp.trap_resolve'::regclass AND a.attname = 'x';
			SELECT r.ev_action::text ~ ':funcretset true' INTO setof
			  FROM pg_rewrite r WHERE r.ev_class = 'pg_temp.trap_resolve'::regclass;
			DROP VIEW pg_temp.trap_resolve;
		EXCEPTION WHEN OTHERS THEN
			CONTINUE;	-- pg_catalog cannot resolve it: no call to capture
		END;
		setof := coalesce(setof, false);
		IF res IS NULL OR res = 'record'::regtype OR res = 'unknown'::regtype THEN
			CONTINUE;
		END IF;
		k := k + 1;
		fn := format('%I.bs_trap_fn_%s', current_setting('bs_trap.schema'), k);
		params := (SELECT string_agg(format('a%s %s', o, t), ', ' ORDER BY o) FROM unnest(p.sig) WITH ORDINALITY AS u(t, o));
		call := (SELECT string_agg(format('a%s', o), ', ' ORDER BY o) FROM unnest(p.sig) WITH ORDINALITY AS u(t, o));
		BEGIN
			IF p.prokind = 'a' THEN
				-- an aggregate: its transition function raises the warning
				EXECUTE format('CREATE FUNCTION %s(s %s, %s) RETURNS %s LANGUAGE plpgsql AS %L',
							   fn, res, params, res,
							   pg_temp.trap_body(format('aggregate %s(%s)', p.proname, array_to_string(p.sig, ', ')),
												 'RETURN s;'));
				EXECUTE format('CREATE AGGREGATE %I.%I(%s) (SFUNC = %s, STYPE = %s)',
							   current_setting('bs_trap.schema'), p.proname,
							   array_to_string(p.sig, ', '), fn, res);
				INSERT INTO trap_made VALUES ('aggregate', format('%s(%s)', p.proname, array_to_string(p.sig, ', ')));
			ELSE
				EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s%s LANGUAGE plpgsql AS %L',
							   current_setting('bs_trap.schema'), p.proname, params,
							   CASE WHEN setof THEN 'SETOF ' ELSE '' END, res,
							   pg_temp.trap_body(format('function %s(%s)', p.proname, array_to_string(p.sig, ', ')),
												 CASE WHEN setof
													  THEN format('RETURN QUERY SELECT pg_catalog.%I(%s);', p.proname, call)
													  ELSE format('RETURN pg_catalog.%I(%s);', p.proname, call) END));
				INSERT INTO trap_made VALUES ('function', format('%s(%s)', p.proname, array_to_string(p.sig, ', ')));
			END IF;
		EXCEPTION WHEN OTHERS THEN
			INSERT INTO trap_made VALUES ('function not planted', format('%s(%s): %s', p.proname, array_to_string(p.sig, ', '), SQLERRM));
		END;
	END LOOP;
END
$trap$;

-- 3. the extensions' own functions, each argument in turn as text
DO $trap$
DECLARE
	f record;
	i integer;
	params text;
	ret text;
	body text;
BEGIN
	IF current_setting('bs_trap.kinds') NOT IN ('extensions', 'all') THEN
		RETURN;
	END IF;
	FOR f IN
		SELECT p.oid, p.proname, p.pronargs, p.proretset, p.prorettype,
			   coalesce(p.proallargtypes, ARRAY(SELECT unnest(p.proargtypes::oid[]))) AS types,
			   coalesce(p.proargmodes, array_fill('i'::"char", ARRAY[p.pronargs])) AS modes,
			   p.proargnames AS names
		FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
		JOIN pg_extension e ON e.oid = d.refobjid
		WHERE e.extname IN ('benchstore', 'benchstore_cluster') AND p.prokind = 'f'
		ORDER BY p.proname, p.oid
	LOOP
		FOR i IN 1 .. cardinality(f.types) LOOP
			CONTINUE WHEN f.modes[i] NOT IN ('i', 'b', 'v') OR f.types[i] = 'text'::regtype;
			params := (SELECT string_agg(
							concat_ws(' ',
									  CASE m WHEN 'i' THEN 'IN' WHEN 'o' THEN 'OUT' WHEN 't' THEN 'OUT' WHEN 'b' THEN 'INOUT' WHEN 'v' THEN 'VARIADIC' END,
									  -- OUT parameters renamed: only the inputs' names
									  -- matter to a call, and PL/pgSQL refuses an input
									  -- and an output of one name
									  CASE WHEN m IN ('o', 't') THEN 'o' || o ELSE quote_ident(f.names[o]) END,
									  CASE WHEN o = i THEN CASE WHEN m = 'v' THEN 'text[]' ELSE 'text' END ELSE t::regtype::text END,
									  -- no default up to the planted argument: the plant is
									  -- a candidate only for calls that pass it, where text
									  -- takes an unknown literal first (a capture), never
									  -- for calls that leave it out (which would only make
									  -- the call ambiguous)
									  CASE WHEN o > i AND m IN ('i', 'b', 'v') AND pg_get_function_arg_default(f.oid, (o)::integer) IS NOT NULL
										   THEN 'DEFAULT ' || pg_get_function_arg_default(f.oid, (o)::integer) END),
							', ' ORDER BY o)
					   FROM unnest(f.types, f.modes) WITH ORDINALITY AS u(t, m, o));
			IF EXISTS (SELECT 1 FROM unnest(f.modes) m WHERE m IN ('o', 't', 'b')) THEN
				-- the OUT parameters make the result: one of them, its type
				ret := CASE WHEN NOT f.proretset THEN ''
							WHEN (SELECT count(*) FROM unnest(f.modes) m WHERE m IN ('o', 't', 'b')) = 1
							THEN ' RETURNS SETOF ' || f.prorettype::regtype
							ELSE ' RETURNS SETOF record' END;
				body := 'RETURN;';
			ELSE
				ret := ' RETURNS ' || CASE WHEN f.proretset THEN 'SETOF ' ELSE '' END || f.prorettype::regtype;
				body := CASE WHEN f.proretset OR f.prorettype = 'void'::regtype THEN 'RETURN;' ELSE 'RETURN NULL;' END;
			END IF;
			BEGIN
				EXECUTE format('CREATE FUNCTION %I.%I(%s)%s LANGUAGE plpgsql AS %L',
							   current_setting('bs_trap.schema'), f.proname, params, ret,
							   pg_temp.trap_body(format('function %s with argument %s as text', f.oid::regprocedure, i), body));
				INSERT INTO trap_made VALUES ('benchstore function', format('%s, argument %s as text', f.oid::regprocedure, i));
			EXCEPTION WHEN OTHERS THEN
				INSERT INTO trap_made VALUES ('benchstore function not planted', format('%s, argument %s: %s', f.oid::regprocedure, i, SQLERRM));
			END;
		END LOOP;
	END LOOP;
END
$trap$;

SELECT kind, count(*) FROM trap_made GROUP BY kind ORDER BY kind;
