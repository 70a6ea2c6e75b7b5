-- src/sql/benchstore/commit.sql: bench_commit (src/commit.c).

--
-- bench_commit (1.2): the commit path under concurrency.  N sessions
-- (dynamic background workers connected as the caller) commit tiny
-- transactions through the server's WAL path for a duration; one row.
--
CREATE OR REPLACE FUNCTION bench_commit(
	sessions integer DEFAULT 1,		-- concurrent committing sessions, 1 .. 64 (each a background worker)
	duration interval DEFAULT '10s',	-- how long they commit, 100 ms .. 1 h
	payload text DEFAULT '100 bytes',	-- bytes inserted by each transaction, pg_size_bytes syntax, 1 B .. 1 MB
	tablespace name DEFAULT NULL,	-- the run's tables' tablespace; NULL: default_tablespace
	synchronous_commit text DEFAULT 'on',	-- on | off | local | remote_write | remote_apply, for the sessions
	after_checkpoint boolean DEFAULT false,	-- true: a checkpoint first; WAL and full-page images per commit of the first interval against the rest
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	sample_interval interval DEFAULT '1s',	-- one sample of the time series per interval, 10 ms .. 1 h; NULL: none
	ramp interval DEFAULT NULL,		-- a warm-up: run, sampled, left out of the figures, which start when it ends; duration counts from there; NULL: none, at most 1 h
	until text DEFAULT 'duration',	-- 'duration': the run ends after duration; 'steady': when steady holds, or at duration
	steady text DEFAULT NULL,		-- steady-state criterion in fio's terms on the time series (iops: commits/s, bw: WAL MB/s, lat: mean commit latency), e.g. 'iops:5%'; several joined by commas
	steady_window interval DEFAULT '30s',	-- the window the criterion judges (fio's ss_dur)
	OUT sessions integer,			-- the sessions argument
	OUT synchronous_commit text,	-- the sessions' synchronous_commit
	OUT tablespace name,			-- the run's tables' tablespace
	OUT payload_bytes integer,		-- bytes inserted per transaction
	OUT elapsed_ms float8,			-- wall-clock time of the run after its ramp, ms
	OUT commits bigint,				-- transactions committed, all sessions
	OUT commits_per_s float8,		-- commits / elapsed seconds
	OUT lat_avg_us float8,			-- time of one commit (CommitTransactionCommand), mean, µs
	OUT lat_p50_us float8,			-- median
	OUT lat_p95_us float8,			-- 95th percentile
	OUT lat_p99_us float8,			-- 99th percentile
	OUT lat_p999_us float8,			-- 99.9th percentile
	OUT lat_max_us float8,			-- the slowest commit
	OUT wal_bytes bigint,			-- WAL the sessions' transactions wrote (their own pgWalUsage)
	OUT wal_bytes_per_commit float8,	-- wal_bytes / commits
	OUT wal_fpi bigint,				-- full-page images in that WAL
	OUT fpi_per_commit float8,		-- wal_fpi / commits
	OUT wal_flushes bigint,			-- WAL flushes by the server during the run (pg_stat_wal, pg_stat_io on 18); NULL if unknown
	OUT commits_per_flush float8,	-- the group-commit factor: commits / wal_flushes
	OUT wal_flush_avg_us float8,	-- mean time of a WAL flush, µs; NULL unless track_wal_io_timing timed them
	OUT first_wal_bytes_per_commit float8,	-- after_checkpoint: WAL bytes per commit in the first interval after the checkpoint
	OUT first_fpi_per_commit float8,	-- after_checkpoint: full-page images per commit in it
	OUT later_wal_bytes_per_commit float8,	-- after_checkpoint: WAL bytes per commit after the first interval
	OUT later_fpi_per_commit float8,	-- after_checkpoint: full-page images per commit after the first interval
	OUT steady_state boolean,		-- whether steady held over a window after the ramp; NULL: no criterion
	OUT steady_at_ms float8,		-- when it first held: the end of that window, since the run began (ramp included)
	OUT steady_criterion text,		-- the criterion and its window, e.g. 'iops:5% over 30 s'
	OUT histogram jsonb,			-- commit latency histogram: [[upper bound µs, commits], ...], four bins to a power of two
	OUT notes text					-- where the commits waited (pg_wal, on the tablespace's filesystem or not); what could not be measured, and why
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_commit'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_commit(integer, interval, text, name, text, boolean, text, boolean, interval, interval, text, text, interval) IS
'time tiny transactions committed by concurrent sessions through the WAL path: commits per second, commit latency, WAL and full-page images per commit, commits per WAL flush';
