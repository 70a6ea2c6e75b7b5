--
-- commit: bench_commit (1.2), tiny transactions committed by concurrent
-- sessions (background workers) through the WAL path.  Timings are never
-- compared; what is checked is what was committed and written: the
-- commits add up in the histogram, every commit wrote at least its
-- payload to the WAL, the run's tables are gone after it, the history,
-- full-page images after a checkpoint, and every error.
--
SET client_encoding = 'UTF8';
SET benchstore.progress_interval = 0;

-- Two sessions, 300 ms: commits, ordered latencies, the histogram holds
-- every commit, WAL of at least the payload per commit and at most what
-- the server wrote meanwhile, its full-page images per commit as counted,
-- the server's WAL flushes known and the group-commit factor from them.
SELECT pg_current_wal_lsn() AS lsn_before \gset
SELECT sessions, synchronous_commit, tablespace, payload_bytes,
	   commits > 0 AS committed, commits_per_s > 0 AS rate,
	   lat_p50_us <= lat_p95_us AND lat_p95_us <= lat_p99_us AND lat_p99_us <= lat_p999_us
	   AND lat_p999_us <= lat_max_us AS latencies_ordered,
	   (SELECT sum((b ->> 1)::bigint) FROM jsonb_array_elements(histogram) b) = commits AS histogram_holds_all,
	   wal_bytes_per_commit >= 100 AS wal_holds_payload,
	   wal_bytes <= pg_wal_lsn_diff(pg_current_wal_lsn(), :'lsn_before') AS wal_within_server,
	   abs(fpi_per_commit * commits - wal_fpi) <= 0.0001 * commits AS fpi_counted,
	   wal_flushes IS NOT NULL
	   AND (commits_per_flush IS NULL) = (wal_flushes = 0)
	   AND (wal_flushes = 0 OR abs(commits_per_flush - commits::float8 / wal_flushes) <= 0.01) AS flushes_known,
	   first_fpi_per_commit IS NULL AS no_first_interval,
	   -- where the commits waited: pg_wal, here in the data directory as
	   -- pg_default is (the tablespace holds only the sessions' tables)
	   notes LIKE 'Every commit waited for its WAL to be flushed in pg_wal, which is on tablespace "pg_default"''s filesystem here;%' AS says_where_commits_wait
FROM bench_commit(sessions => 2, duration => '300ms', label => 'commit-two');

-- No run table is left; the run is in the history with its series.
SELECT count(*) AS tables_left FROM pg_class WHERE relname LIKE '\_bench\_commit\_%';
SELECT r.benchmark, r.target, r.arguments -> 'sessions' AS sessions,
	   r.arguments ->> 'synchronous_commit' AS synchronous_commit
FROM bench_run r WHERE r.label = 'commit-two';
SELECT count(*) >= 1 AS samples FROM bench_samples('commit-two');

-- A bigger payload writes more WAL per commit.
SELECT (SELECT wal_bytes_per_commit FROM bench_commit(payload => '4kB', duration => '200ms', record => false))
	   > (SELECT wal_bytes_per_commit FROM bench_commit(payload => '10 bytes', duration => '200ms', record => false))
	   + 3000 AS bigger_payload_more_wal;

-- Asynchronous commit; after a checkpoint, the first interval apart.
SELECT synchronous_commit, commits > 0 AS committed
FROM bench_commit(duration => '200ms', synchronous_commit => 'off', record => false);
-- The run's figures are the two intervals' together: each per-commit
-- figure lies between the first interval's and the later one's (within
-- their rounding).
SELECT first_wal_bytes_per_commit > 0 AS first_measured, later_wal_bytes_per_commit > 0 AS later_measured,
	   fpi_per_commit BETWEEN least(first_fpi_per_commit, later_fpi_per_commit) - 0.0001
						  AND greatest(first_fpi_per_commit, later_fpi_per_commit) + 0.0001 AS fpi_split,
	   wal_bytes_per_commit BETWEEN least(first_wal_bytes_per_commit, later_wal_bytes_per_commit) - 0.1
								AND greatest(first_wal_bytes_per_commit, later_wal_bytes_per_commit) + 0.1 AS wal_split
FROM bench_commit(sessions => 2, duration => '600ms', after_checkpoint => true,
				  sample_interval => '100ms', record => false);

-- A ramp: its commits are in the series (which keeps it) but left out of
-- every figure, which starts at its end, as the duration does.  The
-- steady-state verdict is the one the recorded samples give.
CREATE TEMP TABLE ramped AS
SELECT * FROM bench_commit(sessions => 2, duration => '300ms', ramp => '300ms',
						   steady => 'iops:90%,lat:90%', steady_window => '200ms',
						   sample_interval => '100ms', label => 'commit-ramp');
SELECT elapsed_ms >= 300 AS duration_after_ramp,
	   commits + 10 < (SELECT sum(round(iops * elapsed_ms / 1000)) FROM bench_samples('commit-ramp'))
	   AS ramp_left_out,
	   (SELECT sum((b ->> 1)::bigint) FROM jsonb_array_elements(histogram) b) = commits
	   AS histogram_after_ramp,
	   (SELECT bool_and(lat_avg_us > 0) FROM bench_samples('commit-ramp') WHERE iops > 0)
	   AS samples_have_latency,
	   steady_criterion,
	   CASE WHEN steady_state
			THEN steady_at_ms = first_steady_window(r.run_id, 1, '{iops:90%,lat:90%}', 2, 300, 100)
			ELSE first_steady_window(r.run_id, 1, '{iops:90%,lat:90%}', 2, 300, 100) IS NULL
				 AND notes LIKE '%Steady state (iops:90%,lat:90% over 0.2 s) was not reached%' END AS verdict_ok
FROM ramped, bench_run r WHERE r.label = 'commit-ramp';
-- until => 'steady': the run ends when the criterion holds.
CREATE TEMP TABLE until_steady AS
SELECT * FROM bench_commit(duration => '1min', until => 'steady', steady => 'bw:100%',
						   steady_window => '200ms', sample_interval => '100ms',
						   label => 'commit-until');
SELECT steady_state, elapsed_ms < 60000 AS ended_when_steady,
	   steady_at_ms = first_steady_window(r.run_id, 1, '{bw:100%}', 2, 0, 100) AS verdict_ok
FROM until_steady, bench_run r WHERE r.label = 'commit-until';

-- Another tablespace.
SET allow_in_place_tablespaces = on;
CREATE TABLESPACE commit_ts LOCATION '';
RESET allow_in_place_tablespaces;
SELECT tablespace, commits > 0 AS committed,
	   notes LIKE 'Every commit waited for its WAL to be flushed in pg_wal, which is on tablespace "commit_ts"''s filesystem here; the tablespace held only the sessions'' tables%' AS says_where_commits_wait
FROM bench_commit(duration => '200ms', tablespace => 'commit_ts', record => false);

-- A run's tables are known by the extension's record of them
-- (_bench_run_table), never by their name or comment: tables that look
-- like a run's, even with its comment or a pid out of range, are never
-- dropped, and a name a run would take, already taken (here the very name
-- this session's run would give its first session's table), is left as
-- it is while the run takes another.  (A crashed run's tables, which its
-- maker's next call drops, are 027_commit.pl's.)
CREATE TABLE "_bench_commit_999999_0" (id bigint, payload text);
COMMENT ON TABLE "_bench_commit_999999_0" IS 'benchstore bench_commit run table';
CREATE TABLE "_bench_commit_99999999999_0" (id bigint, payload text);
DO $$
BEGIN
	EXECUTE format('CREATE TABLE %I AS SELECT 42 AS kept', '_bench_commit_' || pg_backend_pid() || '_0');
END
$$;
SELECT commits > 0 AS committed FROM bench_commit(duration => '100ms', record => false);
SELECT count(*) AS lookalikes_kept FROM pg_class WHERE relname LIKE '\_bench\_commit\_%';
CREATE FUNCTION pg_temp.taken_name_kept() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	k integer;
BEGIN
	EXECUTE format('SELECT kept FROM %I', '_bench_commit_' || pg_backend_pid() || '_0') INTO k;
	RETURN k;
END
$$;
SELECT pg_temp.taken_name_kept();
SELECT count(*) AS records_left FROM _bench_run_table;
DO $$
BEGIN
	EXECUTE format('DROP TABLE %I, "_bench_commit_999999_0", "_bench_commit_99999999999_0"',
				   '_bench_commit_' || pg_backend_pid() || '_0');
END
$$;

-- Errors.
SELECT * FROM expect_error($$SELECT * FROM bench_commit(sessions => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(sessions => 65)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(sessions => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(duration => '10ms')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(duration => '2h')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(payload => '0')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(payload => '2MB')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(payload => 'lots')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(synchronous_commit => 'maybe')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(after_checkpoint => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(tablespace => 'no_such_ts')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(sample_interval => '1ms')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(after_checkpoint => true, ramp => '1s')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(until => 'steady')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(steady => 'iops:0%')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(steady => 'bw:5%', steady_window => '100ms', sample_interval => '100ms')$$);

-- Rights, checked before any session starts: CREATE in the tablespace
-- and in the schema; a checkpoint's right for after_checkpoint.
CREATE ROLE regress_committer;
GRANT CREATE ON SCHEMA public TO regress_committer;
SET ROLE regress_committer;
SELECT * FROM expect_error($$SELECT * FROM bench_commit(tablespace => 'commit_ts', record => false)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_commit(duration => '100ms', after_checkpoint => true, record => false)$$);
SELECT commits > 0 AS committed, tablespace FROM bench_commit(duration => '100ms', record => false);
RESET ROLE;
REVOKE CREATE ON SCHEMA public FROM regress_committer;
SET ROLE regress_committer;
SELECT * FROM expect_error($$SELECT * FROM bench_commit(duration => '100ms', record => false)$$);
RESET ROLE;
DROP ROLE regress_committer;
DROP TABLESPACE commit_ts;
SELECT count(*) AS tables_left FROM pg_class WHERE relname LIKE '\_bench\_commit\_%';
