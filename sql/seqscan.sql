--
-- bench_seqscan: the invariants of every mode.  No timings or
-- machine-dependent numbers here: sizes are compared with pg_relation_size,
-- tuple counts with count(*).
--
SET track_io_timing = off;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE bs_t (id integer PRIMARY KEY, payload text);
INSERT INTO bs_t SELECT g, repeat(md5(g::text), 3) FROM generate_series(1, 20000) g;
VACUUM (FREEZE, ANALYZE) bs_t;

-- A view of one run's invariants for a relation.
CREATE FUNCTION check_run(r regclass, expected_tuples bigint, m text DEFAULT 'heap',
						  c text DEFAULT 'warm')
RETURNS TABLE (run integer, relation regclass, tablespace name, mode text, cache text,
			   pages_ok boolean, size_ok boolean, tuples_ok boolean, rates_ok boolean,
			   blocks_ok boolean, read_ms_null boolean, os_read_ok boolean)
LANGUAGE sql AS $$
	SELECT s.run, s.relation, s.tablespace, s.mode, s.cache,
		   s.pages = (WITH RECURSIVE tree(relid) AS
						(SELECT r::oid UNION ALL
						 SELECT i.inhrelid FROM pg_inherits i JOIN tree ON i.inhparent = tree.relid)
					  SELECT sum(pg_relation_size(relid)) FROM tree)
					  / current_setting('block_size')::bigint,
		   s.size_mb * 1048576 = s.pages * current_setting('block_size')::bigint,
		   s.tuples IS NOT DISTINCT FROM expected_tuples,
		   s.elapsed_ms >= 0 AND rate_ok(s.size_mb, s.elapsed_ms, s.mb_per_s, 2)
			 AND (rate_ok(s.tuples, s.elapsed_ms, s.tuples_per_s, 0)) IS NOT FALSE
			 AND (s.tuples IS NULL) = (s.tuples_per_s IS NULL),
		   s.blks_hit >= 0 AND s.blks_read >= 0 AND s.blks_hit + s.blks_read >= s.pages,
		   s.read_ms IS NULL,
		   s.os_read_mb BETWEEN 0 AND s.size_mb + 1
	FROM bench_seqscan(r, m, c) s
$$;

-- heap, warm: tuples equal count(*); pages equal the file size in blocks.
SELECT * FROM check_run('bs_t', (SELECT count(*) FROM bs_t));

-- A run's time is measured inside the call: never more than the call's
-- time seen from outside it, in every mode.
SELECT m AS mode, c.inside_ms <= c.outside_ms AS within_the_call
FROM unnest('{heap,buffer,raw}'::text[]) m,
	 LATERAL outside_clock(format('SELECT * FROM bench_seqscan(%L, %L, repeat => 3)', 'bs_t', m)) c;

-- The scalar call works too and gives the same record.
SELECT (bench_seqscan('bs_t')).tuples = (SELECT count(*) FROM bs_t) AS scalar_tuples_ok;
SELECT (r).run, (r).mode, (r).cache FROM (SELECT bench_seqscan('bs_t') AS r) s;

-- Named arguments, mode and cache in any case (reported in lower case).
SELECT run, mode, cache, tuples FROM bench_seqscan(relation => 'bs_t', mode => 'HEAP', cache => 'Warm');

-- repeat: one row per run, numbered, each with the full count.
SELECT run, tuples = 20000 AS tuples_ok FROM bench_seqscan('bs_t', repeat => 3);

-- MVCC: deleted and updated rows not yet vacuumed are not counted twice.
DELETE FROM bs_t WHERE id % 10 = 0;
UPDATE bs_t SET payload = 'updated' WHERE id % 7 = 0;
SELECT tuples, tuples = (SELECT count(*) FROM bs_t) AS tuples_ok FROM bench_seqscan('bs_t');

-- The scan sees exactly what the statement's snapshot sees, including the
-- transaction's own uncommitted rows and not rows it deleted.
BEGIN;
INSERT INTO bs_t SELECT g, 'new' FROM generate_series(100001, 100500) g;
DELETE FROM bs_t WHERE id <= 100;
SELECT tuples, tuples = (SELECT count(*) FROM bs_t) AS tuples_ok FROM bench_seqscan('bs_t');
ROLLBACK;
SELECT tuples = (SELECT count(*) FROM bs_t) AS tuples_ok FROM bench_seqscan('bs_t');

-- buffer mode: every block through shared buffers, no tuple count.
SELECT * FROM check_run('bs_t', NULL, 'buffer');
-- ... and on an index, which heap mode refuses.
SELECT * FROM check_run('bs_t_pkey', NULL, 'buffer');

-- raw mode reads the files: checkpoint first so they hold every page.
-- On a vacuumed table its line-pointer count equals count(*).
VACUUM bs_t;
CHECKPOINT;
SELECT * FROM check_run('bs_t', (SELECT count(*) FROM bs_t), 'raw');
SELECT blks_hit, blks_read = pages AS every_block_from_files FROM bench_seqscan('bs_t', 'raw');
-- An index: pages only.
SELECT * FROM check_run('bs_t_pkey', NULL, 'raw');
-- Without VACUUM, raw counts dead tuples' line pointers too: more than count(*).
DELETE FROM bs_t WHERE id % 3 = 0;
CHECKPOINT;
SELECT r.tuples > (SELECT count(*) FROM bs_t) AS raw_counts_dead_tuples,
	   h.tuples = (SELECT count(*) FROM bs_t) AS heap_is_exact
FROM bench_seqscan('bs_t', 'raw') r, bench_seqscan('bs_t', 'heap') h;

-- cold: checkpoint and eviction first, then the same invariants.
-- Whether the OS can evict the files depends on the filesystem (not on
-- tmpfs) and on writeback: its WARNING is machine-dependent, so it is not
-- shown here; the TAP tests check eviction for real.
SET client_min_messages = error;
SELECT * FROM check_run('bs_t', (SELECT count(*) FROM bs_t), 'heap', 'cold');
SELECT * FROM check_run('bs_t', NULL, 'buffer', 'cold');
VACUUM bs_t;
SELECT * FROM check_run('bs_t', (SELECT count(*) FROM bs_t), 'raw', 'cold');

-- read_ms is PostgreSQL's I/O time: NULL unless track_io_timing is on.
SET track_io_timing = on;
SELECT mode, read_ms IS NOT NULL AS has_read_ms, read_ms >= 0 AS read_ms_ok
FROM unnest(ARRAY['heap', 'buffer', 'raw']) m, bench_seqscan('bs_t', m, 'cold');
SET track_io_timing = off;
SELECT mode, read_ms IS NULL AS read_ms_null
FROM unnest(ARRAY['heap', 'buffer', 'raw']) m, bench_seqscan('bs_t', m);

-- Partitioned tables: every leaf partition, one row per run, summed.
CREATE TABLE bs_part (k integer, v text) PARTITION BY RANGE (k);
CREATE TABLE bs_part_1 PARTITION OF bs_part FOR VALUES FROM (0) TO (1000);
CREATE TABLE bs_part_2 PARTITION OF bs_part FOR VALUES FROM (1000) TO (5000)
	PARTITION BY HASH (k);
CREATE TABLE bs_part_2a PARTITION OF bs_part_2 FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE bs_part_2b PARTITION OF bs_part_2 FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE bs_part_def PARTITION OF bs_part DEFAULT;
INSERT INTO bs_part SELECT g, md5(g::text) FROM generate_series(0, 7999) g;
DELETE FROM bs_part WHERE k % 5 = 0;
SELECT * FROM check_run('bs_part', (SELECT count(*) FROM bs_part));
SELECT * FROM check_run('bs_part_2', (SELECT count(*) FROM bs_part_2));
SELECT * FROM check_run('bs_part', NULL, 'buffer');
SELECT count(*) AS rows, sum(tuples) = 3 * (SELECT count(*) FROM bs_part) AS tuples_ok
FROM bench_seqscan('bs_part', repeat => 3);
-- A partitioned table with no partitions scans nothing.
CREATE TABLE bs_part_empty (k integer) PARTITION BY LIST (k);
SELECT pages, tuples, tablespace FROM bench_seqscan('bs_part_empty');

-- Inheritance: like SELECT count(*) FROM parent, children included.
CREATE TABLE bs_inh_parent (a integer);
CREATE TABLE bs_inh_child (b text) INHERITS (bs_inh_parent);
INSERT INTO bs_inh_parent SELECT g FROM generate_series(1, 300) g;
INSERT INTO bs_inh_child SELECT g, 'c' FROM generate_series(1, 700) g;
SELECT * FROM check_run('bs_inh_parent', (SELECT count(*) FROM bs_inh_parent));
SELECT * FROM check_run('bs_inh_child', (SELECT count(*) FROM bs_inh_child));

-- Materialized views.
CREATE MATERIALIZED VIEW bs_mv AS SELECT id, length(payload) AS len FROM bs_t WHERE id % 2 = 0;
SELECT * FROM check_run('bs_mv', (SELECT count(*) FROM bs_mv));

-- Unlogged tables.
CREATE UNLOGGED TABLE bs_unlogged AS SELECT g AS id FROM generate_series(1, 5000) g;
SELECT * FROM check_run('bs_unlogged', (SELECT count(*) FROM bs_unlogged));
-- A plain CHECKPOINT skips unlogged tables; a cold run's checkpoint writes
-- them too, so that raw mode finds every row in the files.
SELECT * FROM check_run('bs_unlogged', (SELECT count(*) FROM bs_unlogged), 'raw', 'cold');

-- The session's own temporary tables, in local buffers.
CREATE TEMP TABLE bs_temp AS SELECT g AS id, md5(g::text) AS t FROM generate_series(1, 3000) g;
DELETE FROM bs_temp WHERE id % 4 = 0;
SELECT run, mode, cache, pages_ok, tuples_ok, blocks_ok
FROM check_run('bs_temp', (SELECT count(*) FROM bs_temp));
SELECT run, mode, cache, pages_ok, blocks_ok FROM check_run('bs_temp', NULL, 'buffer');
SELECT run, mode, cache, pages_ok, tuples_ok FROM check_run('bs_temp', (SELECT count(*) FROM bs_temp), 'heap', 'cold');
-- A cold run says how cold it was: cached_pct, the share of its pages a
-- cache held when it began, and warnings in words (warm runs: NULL).  A
-- temporary table's pages stay in the session's local buffers, which no
-- eviction reaches, on every version (shared buffers and the page cache
-- depend on the version and the filesystem: the TAP tests check those).
SELECT run, cache, cached_pct,
	   warnings LIKE format('%s of %s pages were in this session''s local buffers (a temporary table''s pages stay there).%%',
							pages, pages) AS says_local,
	   warnings LIKE '%This run was not cold: 100.0 % of its pages were cached.' AS says_not_cold
FROM bench_seqscan('bs_temp', cache => 'cold', record => false);
SELECT mode, cached_pct IS NULL AS no_pct, warnings IS NULL AS no_warnings
FROM unnest(ARRAY['heap', 'buffer', 'raw']) m, bench_seqscan('bs_temp', m, record => false);
-- Raw mode writes the session's local buffers to the files first (no
-- checkpoint does), so it finds every row of a temporary table too.
CREATE TEMP TABLE bs_temp_static AS SELECT g AS id FROM generate_series(1, 4000) g;
SELECT run, mode, cache, pages_ok, tuples_ok
FROM unnest(ARRAY['warm', 'cold']) c,
	 check_run('bs_temp_static', (SELECT count(*) FROM bs_temp_static), 'raw', c);

-- TOAST tables: the chunks of out-of-line values.
CREATE TABLE bs_toasted (id integer, doc text);
ALTER TABLE bs_toasted ALTER COLUMN doc SET STORAGE EXTERNAL;
INSERT INTO bs_toasted SELECT g, repeat(md5(g::text), 200) FROM generate_series(1, 50) g;
SELECT reltoastrelid::regclass AS toast_rel FROM pg_class WHERE oid = 'bs_toasted'::regclass \gset
SELECT pages_ok, size_ok, tuples_ok, blocks_ok
FROM check_run(:'toast_rel', (SELECT count(*) FROM :toast_rel));

-- Sequences have storage: buffer and raw read them.
CREATE SEQUENCE bs_seq;
SELECT mode, pages, tuples FROM bench_seqscan('bs_seq', 'buffer');
SELECT mode, pages, tuples FROM bench_seqscan('bs_seq', 'raw');

-- The result names the relation and its tablespace.
SELECT relation, tablespace FROM bench_seqscan('bs_t'::regclass::oid::regclass);

-- Two relations compared in one call: rounds of one scan each, in
-- alternating order, recorded under '<label>: <relation>', bench_compare's
-- verdict with the ratio's 95 % interval.
CREATE TABLE bs_t_copy AS SELECT * FROM bs_t;
SELECT test, cache_state, metric, runs, a_label, b_label,
	   ratio_low <= ratio AND ratio <= ratio_high AS interval_ok,
	   verdict IN ('public.bs_t better', 'public.bs_t_copy better', 'equal within 5 %')
	   OR verdict LIKE 'can''t tell: %' AS verdict_ok
FROM bench_compare_relations('bs_t', 'bs_t_copy', mode => 'buffer', cache => 'warm', rounds => 3,
							 label => 'regress cmp');
SELECT label, count(*) AS runs, min(h.test) AS mode, min(h.cache) AS cache
FROM bench_history h WHERE label LIKE 'regress cmp: %' GROUP BY label ORDER BY label;
-- the order alternates: bs_t first in rounds 1 and 3, bs_t_copy in round 2
SELECT array_agg(h.target ORDER BY h.run_id) AS order_run
FROM bench_history h WHERE label LIKE 'regress cmp: %';
SELECT * FROM expect_error($$SELECT * FROM bench_compare_relations('bs_t', 'bs_t_copy', cache => 'warm', label => 'regress cmp')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_compare_relations('bs_t', 'bs_t', cache => 'warm')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_compare_relations('bs_t', 'bs_t_copy', rounds => 1)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_compare_relations('bs_t', NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_compare_relations('bs_t', 'bs_t_copy', mode => 'index', cache => 'warm', label => 'regress cmp bad')$$);
BEGIN READ ONLY;
SELECT * FROM expect_error($$SELECT * FROM bench_compare_relations('bs_t', 'bs_t_copy', cache => 'warm')$$);
ROLLBACK;
SELECT bench_forget(label) FROM (SELECT DISTINCT label FROM bench_run WHERE label LIKE 'regress cmp%') l;
DROP TABLE bs_t_copy;

RESET client_min_messages;

-- Parallel scans (workers): the caller and its workers share each run.
-- Whatever number of workers starts (none when none are free), the counts
-- are those of the serial run: every block once, every visible tuple once.
CREATE TABLE bs_par AS SELECT g AS id, md5(g::text) AS t FROM generate_series(1, 60000) g;
VACUUM (FREEZE) bs_par;
CHECKPOINT;
SELECT p.mode, w AS workers, p.run, p.workers_requested,
	   p.workers_launched BETWEEN 0 AND w AS launched_ok,
	   p.pages = s.pages AS pages_same, p.size_mb = s.size_mb AS size_same,
	   p.tuples IS NOT DISTINCT FROM s.tuples AS tuples_same,
	   p.tuples IS NOT DISTINCT FROM CASE WHEN m = 'buffer' THEN NULL
						ELSE (SELECT count(*) FROM bs_par) END AS tuples_ok,
	   p.blks_hit + p.blks_read >= p.pages AS blocks_ok,
	   p.os_read_mb BETWEEN 0 AND p.size_mb + 1 AS os_read_ok
FROM unnest(ARRAY['heap', 'buffer', 'raw']) m, generate_series(1, 3) w,
	 bench_seqscan('bs_par', m, record => false) s,
	 bench_seqscan('bs_par', m, workers => w, record => false) p
ORDER BY 1, 2;
-- An index and a sequence: pages only, in parallel as serially.
SELECT mode, pages = (pg_relation_size('bs_t_pkey') / current_setting('block_size')::int) AS pages_ok,
	   tuples, tuples_per_s
FROM unnest(ARRAY['buffer', 'raw']) m, bench_seqscan('bs_t_pkey', m, workers => 2, record => false);
SELECT mode, pages, tuples FROM bench_seqscan('bs_seq', 'raw', workers => 1, record => false);
-- repeat: each run is shared afresh.
SELECT run, tuples = 60000 AS tuples_ok, workers_requested
FROM bench_seqscan('bs_par', repeat => 3, workers => 2, record => false);
-- MVCC: deleted and updated rows not yet vacuumed, and the transaction's
-- own uncommitted changes, as the statement's snapshot sees them.
DELETE FROM bs_par WHERE id % 10 = 0;
UPDATE bs_par SET t = 'updated' WHERE id % 7 = 0;
SELECT tuples = (SELECT count(*) FROM bs_par) AS tuples_ok
FROM bench_seqscan('bs_par', workers => 2, record => false);
BEGIN;
INSERT INTO bs_par SELECT g, 'new' FROM generate_series(100001, 103000) g;
DELETE FROM bs_par WHERE id <= 5000;
SELECT tuples, tuples = (SELECT count(*) FROM bs_par) AS tuples_ok
FROM bench_seqscan('bs_par', workers => 2, record => false);
ROLLBACK;
-- Partitioned tables: every leaf, shared between the processes.
SELECT mode, tuples IS NOT DISTINCT FROM
		CASE WHEN mode = 'buffer' THEN NULL ELSE (SELECT count(*) FROM bs_part) END AS tuples_ok,
	   pages = (SELECT sum(pg_relation_size(c))::bigint / current_setting('block_size')::bigint
				FROM unnest(ARRAY['bs_part_1', 'bs_part_2a', 'bs_part_2b', 'bs_part_def']::regclass[]) c) AS pages_ok
FROM unnest(ARRAY['heap', 'buffer']) m, bench_seqscan('bs_part', m, workers => 2, record => false);
-- Workers cannot read the session's temporary tables: the caller scans
-- alone and says so.
SELECT tuples = (SELECT count(*) FROM bs_temp) AS tuples_ok, workers_requested, workers_launched
FROM bench_seqscan('bs_temp', workers => 2, record => false);
-- No workers to be had: the caller scans alone.
SET max_parallel_workers = 0;
SELECT tuples = (SELECT count(*) FROM bs_par) AS tuples_ok, workers_requested, workers_launched
FROM bench_seqscan('bs_par', workers => 2, record => false);
RESET max_parallel_workers;
