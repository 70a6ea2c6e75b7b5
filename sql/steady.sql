--
-- steady: the ramp, steady state judged fio's way, until => 'steady' and
-- preconditioning of bench_tablespace_io (1.2).  Whether a run reaches
-- steady state depends on the machine, so no verdict is expected as such:
-- what is checked is that the verdict is the one the recorded samples give
-- when the criterion is worked out again here, in SQL, that a run until
-- steady state ends when it holds or at its duration, and that the ramp
-- and preconditioning do what they say.
--
SET client_encoding = 'UTF8';
SET benchstore.progress_interval = 0;

-- A row's verdict against the one its samples give; with until =>
-- 'steady', the test ended when steady state held, or ran its duration.
CREATE FUNCTION steady_check(ref text, crit text[], n integer, ramp_ms float8,
							 interval_ms float8, duration_ms float8, until_steady boolean)
RETURNS TABLE (row_no integer, test text, verdict_ok boolean, ended_ok boolean,
			   said_ok boolean)
LANGUAGE sql AS $$
	SELECT h.row_no, h.test,
		   CASE WHEN (h.metrics ->> 'steady_state')::boolean
				THEN (h.metrics ->> 'steady_at_ms')::float8 =
					 first_steady_window(h.run_id, h.row_no, crit, n, ramp_ms, interval_ms)
				ELSE first_steady_window(h.run_id, h.row_no, crit, n, ramp_ms, interval_ms) IS NULL
					 AND h.metrics -> 'steady_at_ms' = 'null' END,
		   NOT until_steady OR
		   CASE WHEN (h.metrics ->> 'steady_state')::boolean
				-- the streams stop at their next operation (a write test's
				-- final fsync may take a while): far before the duration
				THEN bench_metric(h.metrics, 'elapsed_ms') + ramp_ms <
					 (h.metrics ->> 'steady_at_ms')::float8 + duration_ms / 2
				ELSE bench_metric(h.metrics, 'elapsed_ms') >= duration_ms END,
		   ((h.metrics ->> 'steady_state')::boolean
			AND coalesce(h.metrics ->> 'warnings' NOT LIKE '%Steady state%', true))
		   OR (NOT (h.metrics ->> 'steady_state')::boolean
			   AND h.metrics ->> 'warnings' LIKE 'Steady state (% over %) was not reached%')
	FROM bench_history h
	WHERE h.run_id = ANY (bench_run_ids(ref))
	ORDER BY h.row_no
$$;

--
-- until => 'steady': every test runs until the criterion holds over the
-- window (after the ramp), or for its duration after the ramp.  The window
-- is 5 samples that all began after the ramp (50 ms); a sample ends at the
-- first operation to finish past its tick, so one that a slow operation
-- held past a tick leaves the next one short: the window ends after the
-- ramp and 4 whole intervals, not always after 100 ms more.
--
SELECT test, steady_criterion, steady_state IS NOT NULL AS judged,
	   NOT steady_state OR steady_at_ms >= 50 + 4 * 20 AS after_ramp_and_window
FROM bench_tablespace_io(size => '8MB', block_size => '4kB',
						 tests => '{seqwrite,seqread,randread,randwrite,sync}',
						 direct => false, duration => '3s', sample_interval => '20ms',
						 ramp => '50ms', until => 'steady', steady => 'iops:50%',
						 steady_window => '100ms', label => 'steady-until');
SELECT * FROM steady_check('steady-until', '{iops:50%}', 5, 50, 20, 3000, true);

-- Several criteria must all hold; at iodepth 4 through the ring as well,
-- in two streams, judged on their sum: both end when it holds.
SELECT test, streams, steady_criterion
FROM bench_tablespace_io(size => '8MB', block_size => '4kB', tests => '{randread,seqwrite}',
						 direct => false, duration => '3s', sample_interval => '20ms',
						 until => 'steady', steady => ' bw:60% , iops_slope:20%',
						 steady_window => '100ms', iodepth => 4, streams => 2,
						 label => 'steady-two');
SELECT * FROM steady_check('steady-two', '{bw:60%,iops_slope:20%}', 5, 0, 20, 3000, true);

-- Several tablespaces at once: judged on the total of all their streams,
-- every row of a test gives that one verdict, and the test ends for all.
SET allow_in_place_tablespaces = on;
CREATE TABLESPACE steady_ts LOCATION '';
RESET allow_in_place_tablespaces;
SELECT tablespace, test, steady_criterion
FROM bench_tablespaces_io('{pg_default,steady_ts}', size => '4MB', block_size => '4kB',
						  tests => '{randread}', direct => false, duration => '3s',
						  sample_interval => '20ms', until => 'steady', steady => 'iops:50%',
						  steady_window => '100ms', label => 'steady-spc');
SELECT count(DISTINCT (metrics ->> 'steady_state', metrics ->> 'steady_at_ms')) AS verdicts
FROM bench_history WHERE label = 'steady-spc';
SELECT c.row_no, c.test, c.verdict_ok, c.ended_ok
FROM steady_check('steady-spc', '{iops:50%}', 5, 0, 20, 3000, true) c
JOIN bench_history h ON h.row_no = c.row_no AND h.label = 'steady-spc'
WHERE h.target = 'total';
DROP TABLESPACE steady_ts;

-- With track_latency, the mean latency of each sample can be judged.
SELECT test, steady_criterion
FROM bench_tablespace_io(size => '4MB', block_size => '4kB', tests => '{randread}',
						 direct => false, duration => '3s', sample_interval => '20ms',
						 until => 'steady', steady => 'lat:80%', steady_window => '100ms',
						 label => 'steady-lat');
SELECT * FROM steady_check('steady-lat', '{lat:80%}', 5, 0, 20, 3000, true);

-- A criterion that does not hold: each test runs its whole duration, and
-- a sequential one goes round its small file again and again.
SELECT test, bytes > 1048576 AS went_round, steady_state, steady_at_ms,
	   warnings LIKE 'Steady state (iops:0.001% over 0.1 s) was not reached; over the last window iops strayed %' AS says_why
FROM bench_tablespace_io(size => '1MB', block_size => '4kB', tests => '{seqwrite,seqread}',
						 direct => false, duration => '300ms', sample_interval => '20ms',
						 until => 'steady', steady => 'iops:0.001%',
						 steady_window => '100ms', label => 'steady-never');
SELECT * FROM steady_check('steady-never', '{iops:0.001%}', 5, 0, 20, 300, true);

-- until => 'size' (the default) with a criterion: judged, not waited for;
-- the sequential test writes its size and stops.
SELECT test, bytes, steady_criterion, steady_state IS NOT NULL AS judged
FROM bench_tablespace_io(size => '8MB', block_size => '4kB', tests => '{seqwrite}',
						 direct => false, sample_interval => '10ms',
						 steady => 'bw:90%', steady_window => '20ms', label => 'steady-size');
SELECT row_no, test, verdict_ok
FROM steady_check('steady-size', '{bw:90%}', 2, 0, 10, 0, false);

-- No criterion: the columns are NULL.
SELECT test, steady_state, steady_at_ms, steady_criterion
FROM bench_tablespace_io(size => '1MB', tests => '{seqwrite}', direct => false, record => false);

-- What the history keeps of the arguments.
SELECT arguments -> 'ramp_s' AS ramp_s, arguments -> 'until' AS until,
	   arguments -> 'steady' AS steady, arguments -> 'steady_window_s' AS steady_window_s,
	   arguments -> 'preconditioning' AS preconditioning
FROM bench_run WHERE label = 'steady-until';

--
-- The ramp: run, but left out of the figures (the samples keep it).
--
-- (a criterion that does not hold keeps the small file's test running)
SELECT test, steady_state
FROM bench_tablespace_io(size => '4MB', block_size => '4kB', tests => '{randread}',
						 direct => false, duration => '300ms', sample_interval => '20ms',
						 ramp => '100ms', until => 'steady', steady => 'iops:0.001%',
						 steady_window => '100ms', label => 'steady-ramp');
SELECT h.test,
	   bench_metric(h.metrics, 'bytes') / 1048576.0 <
		   (SELECT sum(s.mb_per_s * s.elapsed_ms / 1000) FROM bench_sample s
			WHERE s.run_id = h.run_id AND s.row_no = h.row_no) AS ramp_left_out,
	   (SELECT min(s.start_ms) FROM bench_sample s
		WHERE s.run_id = h.run_id AND s.row_no = h.row_no) = 0 AS samples_from_start,
	   bench_metric(h.metrics, 'elapsed_ms') >= 300 AS duration_after_ramp,
	   (SELECT max(s.start_ms + s.elapsed_ms) FROM bench_sample s
		WHERE s.run_id = h.run_id AND s.row_no = h.row_no) >= 400 AS samples_to_end
FROM bench_history h
WHERE h.label = 'steady-ramp';

-- A ramp longer than the duration: the duration counts from its end.
SELECT test, elapsed_ms >= 100 AS duration_after_ramp,
	   coalesce(warnings NOT LIKE '%inside its ramp%', true) AS ramp_over
FROM bench_tablespace_io(size => '4MB', block_size => '4kB', tests => '{randread}',
						 direct => false, duration => '100ms', sample_interval => '20ms',
						 ramp => '300ms', until => 'steady', steady => 'iops:0.001%',
						 steady_window => '100ms', record => false);

-- A test that ends inside its ramp counts it all, and says so.
SELECT test, bytes, warnings
FROM bench_tablespace_io(size => '1MB', tests => '{seqwrite}', direct => false,
						 ramp => '1h', record => false);

--
-- preconditioning: the write tests write their file twice over first,
-- untimed (the backend's own writes, from /proc/self/io, say so).
--
CREATE FUNCTION written_by_me() RETURNS bigint LANGUAGE sql AS $$
	SELECT substring(pg_read_file('/proc/self/io') FROM 'wchar: (\d+)')::bigint
$$;
CREATE TEMP TABLE written (run text, bytes bigint);
INSERT INTO written SELECT 'before', written_by_me();
SELECT test, bytes FROM bench_tablespace_io(size => '4MB', tests => '{seqwrite}',
											direct => false, record => false);
INSERT INTO written SELECT 'plain', written_by_me();
SELECT test, bytes FROM bench_tablespace_io(size => '4MB', tests => '{seqwrite}',
											direct => false, record => false,
											preconditioning => true);
INSERT INTO written SELECT 'preconditioned', written_by_me();
SELECT run, bytes - lag(bytes) OVER (ORDER BY ctid) BETWEEN 4194304 AND 6291456 AS once,
	   bytes - lag(bytes) OVER (ORDER BY ctid) BETWEEN 3 * 4194304 AND 3 * 4194304 + 2097152 AS three_times
FROM written ORDER BY ctid OFFSET 1;

--
-- Bad input.
--
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', until => 'forever')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', until => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', until => 'steady')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => 'iops:5%', sample_interval => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => 'iops')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => 'iops:5')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => 'tps:5%')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => 'iops:0%')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => 'bw_slope:150%')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => ',')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => 'iops:5%,,bw:5%')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => 'iops:1e1%')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => 'iops:-5%')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', until => 'steady', steady => 'iops:5%', sample_interval => '10ms', duration => '1h')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => 'iops:5%', steady_window => '1s', sample_interval => '1s')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', until => 'steady', steady => 'iops:5%')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', ramp => '-1s')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady_window => '0s')$$);
SET benchstore.track_latency = off;
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', steady => 'iops:5%,lat_slope:5%')$$);
RESET benchstore.track_latency;

-- No file is left behind.
SELECT count(*) AS files_left FROM pg_ls_tmpdir();
