--
-- randread: bench_randread (1.2), random block reads through the buffer
-- manager.  Timings are never compared; what is checked is what was read:
-- every block once per pass (a full pass finds every tuple, count(*)'s
-- worth; two passes twice that), the same blocks for the same seed at any
-- depth and in every run, reads split into hits and reads from the OS,
-- partitions taken as one run of blocks, an index's pages, the history
-- and time series, and every error.
--
SET client_encoding = 'UTF8';
SET benchstore.progress_interval = 0;

CREATE TABLE rr_t (id integer, v text) WITH (autovacuum_enabled = off);
-- rows of many lengths: pages hold different numbers of them
INSERT INTO rr_t SELECT g, repeat('x', (g * 7919) % 400) FROM generate_series(1, 20000) g;
VACUUM (FREEZE, ANALYZE) rr_t;
CREATE INDEX rr_t_id ON rr_t (id);
SELECT relpages AS rr_pages FROM pg_class WHERE relname = 'rr_t' \gset

-- One pass over every block finds every tuple once; two passes, twice.
SELECT run, cache, depth, reads = :rr_pages AS one_pass, blocks = :rr_pages AS blocks_ok,
	   tuples = (SELECT count(*) FROM rr_t) AS every_tuple,
	   blks_hit + blks_read = reads AS reads_split,
	   lat_p50_us > 0 AND lat_p95_us >= lat_p50_us AND lat_p99_us >= lat_p95_us AS latencies
FROM bench_randread('rr_t', reads => :rr_pages, label => 'rr-pass');
SELECT tuples = 2 * (SELECT count(*) FROM rr_t) AS twice
FROM bench_randread('rr_t', reads => 2 * :rr_pages, record => false);

-- The same seed reads the same blocks, in every run and at any depth;
-- the tuples found on a part of the relation say which blocks were read.
CREATE TEMP TABLE seeded AS
SELECT 'depth 1' AS what, run, tuples FROM bench_randread('rr_t', reads => 37, seed => 42, repeat => 3, record => false)
UNION ALL
SELECT 'depth 8', run, tuples FROM bench_randread('rr_t', reads => 37, seed => 42, depth => 8, record => false);
SELECT count(*) AS runs, count(DISTINCT tuples) AS distinct_tuples FROM seeded;
SELECT count(DISTINCT tuples) AS other_seeds_other_blocks
FROM (SELECT tuples FROM seeded
	  UNION ALL SELECT tuples FROM bench_randread('rr_t', reads => 37, seed => 43, record => false)
	  UNION ALL SELECT tuples FROM bench_randread('rr_t', reads => 37, seed => 44, record => false)) t;

-- Warm after a full pass: every read a hit.
SELECT blks_hit = reads AS all_hits, blks_read FROM bench_randread('rr_t', reads => 100, record => false);

-- An index's pages: read, no tuples counted.
SELECT reads, blocks = pg_relation_size('rr_t_id') / current_setting('block_size')::int AS blocks_ok,
	   tuples FROM bench_randread('rr_t_id', reads => 10, record => false);

-- Partitions taken as one run of blocks; a temporary table, through local buffers.
CREATE TABLE rr_p (id integer, v text) PARTITION BY RANGE (id);
CREATE TABLE rr_p1 PARTITION OF rr_p FOR VALUES FROM (0) TO (5000);
CREATE TABLE rr_p2 PARTITION OF rr_p FOR VALUES FROM (5000) TO (20000);
INSERT INTO rr_p SELECT g, repeat('y', 200) FROM generate_series(0, 19999) g;
VACUUM (FREEZE) rr_p;
SELECT blocks = (SELECT sum(relpages) FROM pg_class WHERE relname IN ('rr_p1', 'rr_p2')) AS blocks_ok,
	   tuples = 20000 AS every_tuple, tablespace
FROM bench_randread('rr_p', reads => (SELECT sum(relpages) FROM pg_class WHERE relname IN ('rr_p1', 'rr_p2'))::bigint,
					record => false);
CREATE TEMP TABLE rr_tmp AS SELECT g AS id FROM generate_series(1, 5000) g;
SELECT tuples = 5000 AS every_tuple, blks_hit + blks_read = reads AS reads_split
FROM bench_randread('rr_tmp', reads => pg_relation_size('rr_tmp') / current_setting('block_size')::int,
					record => false);

-- The history and the time series: the samples add up to the reads.
SELECT r.benchmark, r.target, r.arguments ->> 'reads' = :'rr_pages' AS reads_kept,
	   r.arguments -> 'seed' AS seed, r.arguments -> 'depth' AS depth
FROM bench_run r WHERE r.label = 'rr-pass';
SELECT count(*) >= 1 AS samples,
	   abs(sum(coalesce(read_mb, 0) + coalesce(hit_mb, 0)) - :rr_pages * current_setting('block_size')::int / 1048576.0) < 0.01 AS split_adds_up
FROM bench_samples('rr-pass');

-- Errors.
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', reads => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', depth => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', depth => 257)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', repeat => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', cache => 'hot')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', reads => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', seed => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', sample_interval => '1ms')$$);
CREATE TABLE rr_empty (id integer);
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_empty')$$);
CREATE VIEW rr_v AS SELECT * FROM rr_t;
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_v')$$);

-- Reading needs SELECT on the table; a cold run, CHECKPOINT's right too.
CREATE ROLE regress_rr_reader;
SET ROLE regress_rr_reader;
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', record => false)$$);
RESET ROLE;
GRANT SELECT ON rr_t TO regress_rr_reader;
SET ROLE regress_rr_reader;
SELECT reads FROM bench_randread('rr_t', reads => 5, record => false);
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', reads => 5, cache => 'cold', record => false)$$);
RESET ROLE;
REVOKE SELECT ON rr_t FROM regress_rr_reader;
DROP ROLE regress_rr_reader;

DROP VIEW rr_v;
DROP TABLE rr_t, rr_p, rr_empty, rr_tmp;
