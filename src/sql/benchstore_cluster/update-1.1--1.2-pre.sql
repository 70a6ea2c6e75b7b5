-- src/sql/benchstore_cluster/update-1.1--1.2-pre.sql: the 1.1--1.2 update
-- only, before the topic files: the functions 1.2 no longer has, or has with
-- other arguments, dropped.

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

--
-- 1.0's Citus fan-out and scan command, which 1.1 replaced with versions
-- taking all_nodes and groups but did not drop: nothing calls them.
--
DROP FUNCTION _bench_cluster_citus(text);

DROP FUNCTION _bench_cluster_citus_scan_command(text[], text, text, text, boolean, integer);
