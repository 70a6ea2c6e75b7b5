-- src/sql/benchstore_cluster/grants.sql: Every GRANT of benchstore_cluster,
-- by the version that created (or re-created) the object: a fresh install
-- runs every section, the V-1--V update only V's (see
-- src/sql/benchstore/grants.sql for why).

-- @version 1.0

-- Everyone may call the wrappers: each node enforces its own privileges
-- on the benchmarks, and USAGE on the PL/Proxy server and its user
-- mappings decide who reaches the nodes at all.
GRANT EXECUTE ON FUNCTION bench_cluster_seqscan(name, text, text, text, integer, text, boolean, integer) TO PUBLIC;

-- @version 1.1

GRANT EXECUTE ON FUNCTION bench_cluster_tablespace_io(name, name, text, text, text[], integer, boolean, interval, text, boolean, integer) TO PUBLIC;

-- @version 1.2

GRANT EXECUTE ON FUNCTION bench_cluster_randread(name, text, bigint, text, integer, integer, integer, text, boolean, bigint) TO PUBLIC;

GRANT EXECUTE ON FUNCTION bench_cluster_tpcb(name, integer, interval, name, text, boolean, interval) TO PUBLIC;
