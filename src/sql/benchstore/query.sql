-- src/sql/benchstore/query.sql: bench_query (src/query.c).

CREATE OR REPLACE FUNCTION bench_query(
	query text,						-- one SELECT or WITH ... SELECT
	cache text DEFAULT 'warm',		-- warm | cold (every relation the plan reads evicted first)
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	allow_writes boolean DEFAULT false,	-- true: run a query that writes, then roll it back
	sample_interval interval DEFAULT '1s',	-- one sample of the time series per interval, 10 ms .. 1 h; NULL: none (1.2)
	OUT run integer,				-- 1 .. repeat
	OUT cache text,					-- warm or cold
	OUT elapsed_ms float8,			-- execution time (ExecutorStart to ExecutorEnd), ms; planning not included
	OUT rows bigint,				-- rows the query returned (counted, not sent)
	OUT blks_hit bigint,			-- blocks found in shared (or local) buffers, parallel workers included
	OUT blks_read bigint,			-- blocks PostgreSQL read from the OS, parallel workers included
	OUT read_ms float8,				-- time in those reads, ms; NULL unless track_io_timing
	OUT os_read_mb float8,			-- MB the kernel read from storage for this backend; NULL if unknown or with parallel workers
	OUT relations regclass[],		-- what the plan reads: tables with storage, then the indexes its scans use
	OUT size_mb float8,				-- their main forks' size now, MB (2^20 bytes)
	OUT mb_per_s float8,			-- size_mb / elapsed seconds: the effective scan rate
	OUT workers_planned integer,	-- parallel workers the plan's Gather nodes asked for
	OUT workers_launched integer,	-- parallel workers that ran
	OUT distributed boolean,		-- the plan reads Citus tables: size_mb is one copy of their shards, mb_per_s size_mb / elapsed (1.1)
	OUT cached_pct float8,			-- cold: % of the relations' pages still cached when the run began (0: cold); warm: NULL (1.2)
	OUT warnings text,				-- cold: what stayed cached and why, and a cache below the server that answered, in words; NULL: nothing (1.2)
	OUT served_by text				-- cold: 'storage', or 'cache below' when the block devices' counts show a cache under the filesystem answered; warm: NULL (1.2)
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_query_1_2'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_query(text, text, integer, text, boolean, boolean, interval) IS
'time a SELECT (warm or cold cache), one row per run, with the relations it reads and its effective scan rate';
