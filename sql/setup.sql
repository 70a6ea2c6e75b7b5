--
-- setup: install the extension and check its SQL surface (names, argument
-- defaults, OUT columns and their types are part of the contract).
--
CREATE EXTENSION benchstore;

-- No progress messages in the tests that follow (their timing varies).
DO $$
BEGIN
	EXECUTE format('ALTER DATABASE %I SET benchstore.progress_interval = 0', current_database());
END
$$;

CREATE TEMP VIEW ext_function AS
	SELECT p.*
	FROM pg_proc p
	JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
		AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'benchstore';

-- The functions and their input arguments.
SELECT p.proname AS function,
	   regexp_replace(pg_get_function_arguments(p.oid), ',? ?OUT .*$', '') AS input_arguments,
	   p.proretset AS set_returning,
	   p.provolatile AS volatility,
	   p.proparallel AS parallel
FROM ext_function p
ORDER BY 1, 2;

-- The result columns, in order.
SELECT p.proname AS function, a.n AS position, a.name AS out_column,
	   format_type(a.t, NULL) AS type
FROM ext_function p,
	 unnest(p.proallargtypes, p.proargmodes, p.proargnames) WITH ORDINALITY AS a(t, m, name, n)
WHERE a.m = 'o'
ORDER BY 1, 2;

-- Who may run what: cold-cache eviction needs the checkpoint right, the
-- tablespace I/O tests the right to write server files; the history is
-- open to all.  Every function of the extension, the internal ones (_bench_*)
-- too: this is the one place the surface and its rights are pinned
-- (test/t/021_privileges.pl pins benchstore_cluster's, which needs PL/Proxy).
SELECT p.proname AS function,
	   regexp_replace(pg_get_function_identity_arguments(p.oid), '^(.{40}).+$', '\1...') AS arguments,
	   has_function_privilege('public', p.oid, 'EXECUTE') AS public,
	   has_function_privilege('pg_checkpoint', p.oid, 'EXECUTE') AS pg_checkpoint,
	   has_function_privilege('pg_write_server_files', p.oid, 'EXECUTE') AS pg_write_server_files,
	   p.prosecdef AS security_definer
FROM ext_function p
ORDER BY p.proname COLLATE "C", 2;

-- The history's tables and view: everyone reads them (pg_dump must) and
-- deletes their own runs; only the benchmarks and bench_record insert.
SELECT c.relname, c.relkind, c.relrowsecurity AS rls,
	   has_table_privilege('public', c.oid, 'SELECT') AS public_select,
	   has_table_privilege('public', c.oid, 'INSERT') AS public_insert,
	   has_table_privilege('public', c.oid, 'UPDATE') AS public_update,
	   has_table_privilege('public', c.oid, 'DELETE') AS public_delete
FROM pg_class c
JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid
	AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'benchstore'
ORDER BY 1;

-- Whether a row's rate is its amount over its own elapsed time: rate =
-- amount / (elapsed_ms / 1000), the rate rounded to digits and elapsed_ms
-- to three decimals (so the recomputed rate may differ by that rounding),
-- and elapsed times under 1 us counted as 1 us, as benchstore does.
CREATE FUNCTION rate_ok(amount float8, elapsed_ms float8, rate float8, digits integer)
RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
	SELECT abs(rate - amount * 1000 / greatest(elapsed_ms, 0.001))
		   <= 0.5 * 10 ^ (-digits) + abs(rate) * 0.0006 / greatest(elapsed_ms, 0.001)
$$;

-- The time around a call, measured outside it (shared with the TAP tests).
\i test/sql/outside_clock.sql

-- A steady-state verdict worked out again from recorded samples.
\i test/sql/steady_window.sql

-- A helper for the error tests: run a statement and show the SQLSTATE,
-- message, detail and hint of the error it raises.
CREATE FUNCTION expect_error(stmt text)
RETURNS TABLE (err_code text, message text, detail text, hint text)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE stmt;
	RAISE EXCEPTION 'statement succeeded: %', stmt;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS err_code = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
		detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
	IF message LIKE 'statement succeeded: %' THEN
		RAISE;
	END IF;
	RETURN NEXT;
END;
$$;
