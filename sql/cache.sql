--
-- bench_cache_status and bench_cache_evict: the relation's files and how
-- much of them the OS page cache holds.  How much it holds depends on the
-- machine, so only its bounds are checked here; the TAP tests check that
-- eviction really empties it.
--
CREATE TABLE bs_cache (id integer, v text);
INSERT INTO bs_cache SELECT g, md5(g::text) FROM generate_series(1, 20000) g;
CHECKPOINT;

SELECT files, mb * 1048576 = pg_relation_size('bs_cache') AS mb_ok,
	   os_cached_mb >= 0 AND os_cached_mb <= mb AS cached_within_bounds
FROM bench_cache_status('bs_cache');

SELECT files, mb * 1048576 = pg_relation_size('bs_cache') AS mb_ok,
	   os_cached_mb_before <= mb AS before_ok,
	   os_cached_mb_after >= 0 AND os_cached_mb_after <= mb AS after_ok
FROM bench_cache_evict('bs_cache');

-- A partitioned table: the files of all its partitions.
CREATE TABLE bs_cache_p (k integer) PARTITION BY LIST (k);
CREATE TABLE bs_cache_p1 PARTITION OF bs_cache_p FOR VALUES IN (1);
CREATE TABLE bs_cache_p2 PARTITION OF bs_cache_p FOR VALUES IN (2);
INSERT INTO bs_cache_p SELECT 1 + g % 2 FROM generate_series(1, 1000) g;
SELECT files, mb * 1048576 = pg_relation_size('bs_cache_p1') + pg_relation_size('bs_cache_p2') AS mb_ok
FROM bench_cache_status('bs_cache_p');

-- An index.
CREATE INDEX bs_cache_idx ON bs_cache (id);
SELECT files, mb * 1048576 = pg_relation_size('bs_cache_idx') AS mb_ok
FROM bench_cache_status('bs_cache_idx');

DROP TABLE bs_cache, bs_cache_p;
