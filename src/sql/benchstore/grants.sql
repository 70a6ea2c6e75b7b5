-- src/sql/benchstore/grants.sql: Every GRANT and REVOKE of the extension, by
-- the version that created (or re-created) the object.  A fresh install runs
-- every section, the V-1--V update only V's: a GRANT run again by an update
-- on an object that survives it would record the object's whole ACL, a DBA's
-- own grants included, as the extension's initial privileges
-- (pg_init_privs), and pg_dump would stop dumping them.  A function an
-- update drops and creates again gets its grants here under that update's
-- version; the DBA's own grants are carried over by update-*-post.sql.

-- @version 1.0

-- Everyone who can connect reads the history, as pg_dump must (row-level
-- security would stop every non-superuser's pg_dump of the database).
-- Only the benchmarks and bench_record insert, and only bench_forget
-- deletes: all of them in C, as the tables' owner, on behalf of the caller
-- (a role removes its own runs; a superuser any).
GRANT SELECT ON bench_run TO PUBLIC;

GRANT SELECT ON bench_result TO PUBLIC;

GRANT SELECT ON SEQUENCE bench_run_id_seq TO PUBLIC;

GRANT SELECT ON bench_history TO PUBLIC;

GRANT EXECUTE ON FUNCTION bench_record(text, text, jsonb, text, jsonb) TO PUBLIC;

-- @version 1.2

REVOKE ALL ON FUNCTION bench_cache_evict(regclass) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION bench_cache_evict(regclass) TO pg_checkpoint;

REVOKE ALL ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) FROM PUBLIC;

REVOKE ALL ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) TO pg_write_server_files;

GRANT EXECUTE ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) TO pg_write_server_files;

GRANT SELECT ON bench_sample TO PUBLIC;

GRANT SELECT ON bench_series TO PUBLIC;

REVOKE ALL ON FUNCTION bench_compare_tablespaces(name, name, text[], text, interval, integer, integer, text, text, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION bench_compare_tablespaces(name, name, text[], text, interval, integer, integer, text, text, boolean) TO pg_write_server_files;

REVOKE ALL ON FUNCTION bench_tablespace_cache_probe(name, text, text, text, interval, integer, text, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION bench_tablespace_cache_probe(name, text, text, text, interval, integer, text, boolean) TO pg_write_server_files;

REVOKE ALL ON _bench_run_table FROM PUBLIC;
