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

-- Warm after a full pass: every read a hit, and attributed to shared buffers.
SELECT blks_hit = reads AS all_hits, blks_read, page_cache_reads, device_reads, prefetch, readahead_mb,
	   (by_class -> 'shared_buffers' ->> 'reads')::bigint = reads AS class_shared_buffers,
	   (by_class -> 'shared_buffers' ->> 'lat_p50_us')::float8 > 0 AS class_timed
FROM bench_randread('rr_t', reads => 100, record => false);

-- Every read has one class, and a shared-buffer read is a hit, at depth 1
-- and at depth 8 (a read stream on 17+, PrefetchBuffer before); the read
-- stream's effective_io_concurrency is the call's only.
SELECT current_setting('effective_io_concurrency') AS eic_before \gset
SELECT depth, prefetch = CASE WHEN depth = 1 THEN 'none'
							  WHEN current_setting('server_version_num')::int >= 170000 THEN 'read stream'
							  ELSE 'PrefetchBuffer' END AS prefetch_by_version,
	   (by_class -> 'shared_buffers' ->> 'reads')::bigint + (by_class -> 'page_cache' ->> 'reads')::bigint
	   + (by_class -> 'device' ->> 'reads')::bigint = reads AS one_class_each,
	   (by_class -> 'page_cache' ->> 'reads')::bigint = page_cache_reads
	   AND (by_class -> 'device' ->> 'reads')::bigint = device_reads AS columns_agree,
	   (by_class -> 'shared_buffers' ->> 'reads')::bigint = blks_hit AS hits_are_shared_buffer_reads,
	   device_reads_per_s >= 0 AS riops
FROM (SELECT * FROM bench_randread('rr_t', reads => 300, seed => 7, record => false)
	  UNION ALL SELECT * FROM bench_randread('rr_t', reads => 300, seed => 7, depth => 8, record => false)) r
ORDER BY depth;
SELECT current_setting('effective_io_concurrency') = :'eic_before' AS eic_restored;
-- and the run's settings snapshot keeps the session's value: the depth is
-- the run's argument, not a setting of the server.
SELECT count(*) AS runs FROM bench_randread('rr_t', reads => 50, depth => 8, label => 'rr-eic');
SELECT r.settings ->> 'effective_io_concurrency' = :'eic_before' AS recorded_eic_is_the_session_s,
	   (r.arguments ->> 'depth')::int AS recorded_depth
FROM bench_run r WHERE r.label = 'rr-eic';

-- Only the OS page cache holds the table (17+ drops its shared buffers;
-- 15 and 16 keep them, and those reads stay hits): no device read.
SELECT files FROM bench_cache_evict('rr_t');
SELECT pages = :rr_pages AS raw_read_all FROM bench_seqscan('rr_t', mode => 'raw', record => false);
SELECT device_reads = 0 AS no_device_reads, page_cache_reads = reads - blks_hit AS rest_from_page_cache
FROM bench_randread('rr_t', reads => :rr_pages, record => false);

-- Cold: what the device served is counted as device reads, unless the
-- server could not drop the table's shared buffers (15, 16, which warn).
SET client_min_messages = error;
SELECT device_reads > 0 OR cached_pct > 50 AS device_or_not_cold,
	   page_cache_reads + device_reads = blks_read AS os_reads_split,
	   readahead_mb >= 0 AS readahead_measured
FROM bench_randread('rr_t', reads => 200, cache => 'cold', record => false);
RESET client_min_messages;

-- The residency mappings of the relation's file are gone after a call,
-- and after one cancelled by statement_timeout.
SELECT current_setting('data_directory') || '/' || pg_relation_filepath('rr_t') AS rr_file \gset
SELECT count(*) AS mapped_after_call
FROM regexp_split_to_table(pg_read_file('/proc/' || pg_backend_pid() || '/maps'), E'\n') l
WHERE l LIKE '%' || :'rr_file' || '%';
SET statement_timeout = '300ms';
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', reads => 1000000000, record => false)$$);
RESET statement_timeout;
SELECT count(*) AS mapped_after_cancel
FROM regexp_split_to_table(pg_read_file('/proc/' || pg_backend_pid() || '/maps'), E'\n') l
WHERE l LIKE '%' || :'rr_file' || '%';

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

-- A partitioned table and a temporary one are announced with
-- PrefetchBuffer at depth on every version.
SELECT prefetch FROM bench_randread('rr_p', reads => 10, depth => 4, record => false);
SELECT prefetch, page_cache_reads + device_reads + blks_hit = reads AS classified
FROM bench_randread('rr_tmp', reads => 10, depth => 4, record => false);

-- Workers share the seed's order out: between them the processes read
-- exactly the blocks one process reads (the same tuples), each position
-- once, at depth 1 and at depth 8, across passes; their reads, classes
-- and buffer usage add up to the run's.  Fewer workers start when none
-- are free, and the caller reads the rest.
CREATE TEMP TABLE rr_serial AS
SELECT depth, reads, tuples FROM bench_randread('rr_t', reads => 2 * :rr_pages + 13, seed => 5, record => false)
UNION ALL
SELECT depth, reads, tuples FROM bench_randread('rr_t', reads => 2 * :rr_pages + 13, seed => 5, depth => 8, record => false);
SELECT w.depth, w.reads = s.reads AS reads_ok, w.tuples = s.tuples AS same_blocks,
	   w.workers_launched BETWEEN 0 AND 3 AS launched_ok,
	   jsonb_array_length(w.by_process) = w.workers_launched + 1 AS an_entry_per_process,
	   (SELECT sum((p ->> 'reads')::bigint) FROM jsonb_array_elements(w.by_process) p) = w.reads AS processes_add_up,
	   (SELECT bool_and((p ->> 'shared_buffers')::bigint + (p ->> 'page_cache')::bigint + (p ->> 'device')::bigint
						= (p ->> 'reads')::bigint)
		FROM jsonb_array_elements(w.by_process) p) AS a_class_each,
	   (SELECT sum((p ->> 'device')::bigint) FROM jsonb_array_elements(w.by_process) p) = w.device_reads AS device_adds_up,
	   (w.by_class -> 'shared_buffers' ->> 'reads')::bigint + w.page_cache_reads + w.device_reads = w.reads AS classes_add_up,
	   w.blks_hit + w.blks_read = w.reads AS workers_buffer_usage,
	   (SELECT count(DISTINCT p ->> 'pid') FROM jsonb_array_elements(w.by_process) p) = w.workers_launched + 1 AS own_pids
FROM (SELECT * FROM bench_randread('rr_t', reads => 2 * :rr_pages + 13, seed => 5, workers => 3, record => false)
	  UNION ALL
	  SELECT * FROM bench_randread('rr_t', reads => 2 * :rr_pages + 13, seed => 5, workers => 3, depth => 8, record => false)) w
JOIN rr_serial s USING (depth)
ORDER BY w.depth;
-- The samples of a run with workers count every process's reads; the
-- split is left out (the workers' buffer usage reaches the caller at the end).
SELECT reads = 3 * :rr_pages AS reads_ok, workers_launched <= 2 AS launched_ok
FROM bench_randread('rr_t', reads => 3 * :rr_pages, workers => 2, sample_interval => '10ms', label => 'rr-parallel');
SELECT count(*) >= 1 AS samples, bool_and(read_mb IS NULL AND hit_mb IS NULL) AS no_split,
	   abs(sum(iops * elapsed_ms / 1000) - 3 * :rr_pages) <= 0.01 * 3 * :rr_pages AS every_read_sampled
FROM bench_samples('rr-parallel');
-- one process: no by_process
SELECT workers_launched, by_process FROM bench_randread('rr_t', reads => 10, record => false);
-- partitions with workers; a temporary table is read by the caller alone
SELECT tuples = 20000 AS every_tuple, (SELECT sum((p ->> 'reads')::bigint) FROM jsonb_array_elements(by_process) p) = reads AS processes_add_up
FROM bench_randread('rr_p', reads => (SELECT sum(relpages) FROM pg_class WHERE relname IN ('rr_p1', 'rr_p2'))::bigint,
					workers => 2, record => false);
SELECT tuples = 5000 AS every_tuple, workers_launched, by_process
FROM bench_randread('rr_tmp', reads => pg_relation_size('rr_tmp') / current_setting('block_size')::int,
					workers => 2, record => false);

-- The history and the time series: the samples add up to the reads.
SELECT r.benchmark, r.target, r.arguments ->> 'reads' = :'rr_pages' AS reads_kept,
	   r.arguments -> 'seed' AS seed, r.arguments -> 'depth' AS depth, r.arguments -> 'workers' AS workers
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
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', workers => -1)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', workers => 65)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_randread('rr_t', workers => NULL)$$);
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
DROP TABLE rr_t, rr_p, rr_empty, rr_tmp, rr_serial;
