-- src/sql/benchstore/cache.sql: bench_cache_status and bench_cache_evict
-- (src/cache.c).

--
-- bench_cache_status / bench_cache_evict: the relation's main fork in the
-- OS page cache (all partitions of a partitioned table).
--
CREATE OR REPLACE FUNCTION bench_cache_status(
	relation regclass,
	OUT files integer,				-- segment files of the main fork
	OUT mb float8,					-- their size, MB
	OUT os_cached_mb float8			-- how much of them the OS page cache holds, MB
)
RETURNS record
AS 'MODULE_PATHNAME', 'bench_cache_status'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_cache_status(regclass) IS
'how much of a relation''s main fork the OS page cache holds';

CREATE OR REPLACE FUNCTION bench_cache_evict(
	relation regclass,
	OUT files integer,				-- segment files of the main fork
	OUT mb float8,					-- their size, MB
	OUT os_cached_mb_before float8,	-- in the OS page cache before, MB
	OUT os_cached_mb_after float8,	-- in the OS page cache after the checkpoint and eviction, MB
	OUT shared_buffers_mb_before float8,	-- in shared (or your local) buffers before, MB (1.2)
	OUT shared_buffers_mb_after float8	-- after: 17+ evicts unpinned shared buffers; 15, 16 cannot (1.2)
)
RETURNS record
AS 'MODULE_PATHNAME', 'bench_cache_evict_1_2'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_cache_evict(regclass) IS
'checkpoint, then evict a relation''s main fork from shared buffers (17+) and the OS page cache, as a cold bench_seqscan run does';
