--
-- bench_seqscan: every error path, with its SQLSTATE, message, detail and
-- hint (see expect_error in setup.sql).
--
CREATE TABLE bs_err (id integer PRIMARY KEY, v text);
INSERT INTO bs_err SELECT g, 'x' FROM generate_series(1, 100) g;

-- NULL arguments.
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan(NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', 'heap', NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', 'heap', 'warm', NULL)$$);

-- Unknown relation, by name and by OID.
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('no_such_table')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan(4294967295::oid::regclass)$$);

-- Unknown mode or cache: the hint lists the valid values.
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', 'index')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', 'heap', 'lukewarm')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', '')$$);

-- repeat out of range.
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', repeat => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', repeat => 1001)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', repeat => -5)$$);
-- workers out of range, or NULL.
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', workers => -1)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', workers => 65)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', workers => NULL)$$);
-- iodepth: raw mode only (the other modes read through the buffer
-- manager), its range, NULL, and the bound on the buffers (iodepth x 1 MB
-- x processes, at most 1 GB).
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', iodepth => 8)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', 'buffer', iodepth => 2)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', 'raw', iodepth => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', 'raw', iodepth => 257)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', 'raw', iodepth => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err', 'raw', iodepth => 256, workers => 4)$$);
-- iodepth 1 is every mode's, and the column says raw mode's depth only.
SELECT mode, iodepth FROM bench_seqscan('bs_err', 'heap', iodepth => 1, record => false);
SELECT mode, iodepth FROM bench_seqscan('bs_err', 'raw', record => false);

-- heap mode on relations that are not heap tables: the hint names the
-- modes that work there.
CREATE SEQUENCE bs_err_seq;
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err_pkey')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err_seq', 'heap')$$);

-- Relations without storage of their own, in any mode.
CREATE VIEW bs_err_view AS SELECT * FROM bs_err;
CREATE FOREIGN DATA WRAPPER bs_err_fdw;
CREATE SERVER bs_err_server FOREIGN DATA WRAPPER bs_err_fdw;
CREATE FOREIGN TABLE bs_err_foreign (id integer) SERVER bs_err_server;
CREATE TYPE bs_err_type AS (a integer);
CREATE TABLE bs_err_part (k integer) PARTITION BY LIST (k);
CREATE INDEX bs_err_part_idx ON bs_err_part (k);
SELECT m, e.*
FROM unnest(ARRAY['heap', 'buffer', 'raw']) m,
	 LATERAL expect_error(format('SELECT * FROM bench_seqscan(%L, %L)', 'bs_err_view', m)) e;
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err_foreign', 'raw')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err_type', 'buffer')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err_part_idx', 'buffer')$$);

-- A partitioned table with a foreign partition cannot be scanned whole.
CREATE FOREIGN TABLE bs_err_part_f PARTITION OF bs_err_part FOR VALUES IN (1)
	SERVER bs_err_server;
CREATE TABLE bs_err_part_l PARTITION OF bs_err_part FOR VALUES IN (2);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err_part')$$);
-- ... but its local partitions can.
SELECT tuples FROM bench_seqscan('bs_err_part_l');

-- A materialized view that was never populated.
CREATE MATERIALIZED VIEW bs_err_mv AS SELECT 1 AS a WITH NO DATA;
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err_mv')$$);
SELECT pages FROM bench_seqscan('bs_err_mv', 'buffer');

-- Where Citus is installed, a distributed table is an empty shell on the
-- coordinator: refused, with the way to benchmark it.  A stand-in for
-- Citus's catalog (pg_catalog.pg_dist_partition) plays its part here.
SET allow_system_table_mods = on;
CREATE TABLE pg_catalog.pg_dist_partition (logicalrelid regclass, partmethod "char");
RESET allow_system_table_mods;
CREATE TABLE bs_err_citus (id integer);
CREATE TABLE bs_err_citus_parted (k integer) PARTITION BY LIST (k);
CREATE TABLE bs_err_citus_p1 PARTITION OF bs_err_citus_parted FOR VALUES IN (1);
INSERT INTO pg_catalog.pg_dist_partition
	VALUES ('bs_err_citus', 'h'), ('bs_err_citus_p1', 'h');
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err_citus')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_err_citus_parted', 'raw')$$);
-- Tables that Citus does not know are scanned as ever.
SELECT tuples FROM bench_seqscan('bs_err');
SET allow_system_table_mods = on;
DROP TABLE pg_catalog.pg_dist_partition;
RESET allow_system_table_mods;

-- bench_cache_status and bench_cache_evict share the same checks.
SELECT * FROM expect_error($$SELECT * FROM bench_cache_status(NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_cache_evict('bs_err_view')$$);

-- The error leaves the session usable.
SELECT tuples FROM bench_seqscan('bs_err');
