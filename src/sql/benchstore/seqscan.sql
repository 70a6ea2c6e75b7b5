-- src/sql/benchstore/seqscan.sql: bench_seqscan (src/seqscan.c).

--
-- Cold means cold, or says why not.  From PostgreSQL 17 on a cold run
-- also evicts the relation's unpinned shared buffers (after the
-- checkpoint has written the dirty ones); on 15 and 16, which cannot drop
-- a live relation's buffers, and wherever pages stay cached, the row says
-- how much: cached_pct, the share of the pages a cache above the storage
-- (shared or local buffers, the OS page cache) held when the timed run
-- began, and warnings, in words.  From 1 % on the run is "not cold": a
-- WARNING says so with how to get a cold one, and bench_compare does not
-- pair it with cold runs unless asked (mix_cold).
--
CREATE OR REPLACE FUNCTION bench_seqscan(
	relation regclass,
	mode text DEFAULT 'heap',		-- heap | buffer | raw
	cache text DEFAULT 'warm',		-- warm | cold
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	workers integer DEFAULT 0,		-- parallel workers beside the caller, 0 .. 64
	iodepth integer DEFAULT 1,		-- raw mode: reads of 1 MB in flight per process, 1 .. 256
	sample_interval interval DEFAULT '1s',	-- one sample of the time series per interval, 10 ms .. 1 h; NULL: none (1.2)
	OUT run integer,				-- 1 .. repeat
	OUT relation regclass,			-- the relation named (partitions summed)
	OUT tablespace name,			-- its tablespace; NULL if partitions lie in several
	OUT mode text,					-- heap, buffer or raw
	OUT cache text,					-- warm or cold
	OUT pages bigint,				-- blocks scanned (main fork)
	OUT size_mb float8,				-- pages * block_size, in MB (2^20 bytes)
	OUT tuples bigint,				-- heap: visible tuples (= count(*)); raw: normal line pointers; buffer: NULL
	OUT elapsed_ms float8,			-- wall-clock time of the scan, milliseconds
	OUT mb_per_s float8,			-- size_mb / elapsed seconds
	OUT tuples_per_s float8,		-- tuples / elapsed seconds; NULL when tuples is
	OUT blks_hit bigint,			-- blocks found in shared (or local) buffers; raw: 0
	OUT blks_read bigint,			-- blocks PostgreSQL read from the OS; raw: every block
	OUT read_ms float8,				-- time in those reads, ms; NULL unless track_io_timing
	OUT os_read_mb float8,			-- MB the kernel read from storage for the scan's processes; NULL if unknown
	OUT workers_requested integer,	-- the workers argument
	OUT workers_launched integer,	-- parallel workers that ran (fewer when none are free)
	OUT iodepth integer,			-- raw: reads in flight per process; heap, buffer: NULL (the server's own)
	OUT cached_pct float8,			-- cold: % of the pages still cached when the run began (0: cold); warm: NULL (1.2)
	OUT warnings text,				-- cold: what stayed cached and why, and a cache below the server that answered, in words; NULL: nothing (1.2)
	OUT served_by text				-- cold: 'storage', or 'cache below' when the block devices' counts show a cache under the filesystem answered; warm: NULL (1.2)
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_seqscan_1_2'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_seqscan(regclass, text, text, integer, text, boolean, integer, integer, interval) IS
'time a sequential scan of a relation (heap, buffer or raw mode; warm or cold cache), one row per run';
