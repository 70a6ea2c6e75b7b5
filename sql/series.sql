--
-- series: the time series of a run (1.2).  bench_tablespace_io(s),
-- bench_seqscan and bench_query take one sample per sample_interval,
-- recorded in bench_sample with the result row it belongs to.  Timings
-- are never compared: what is checked is that the samples add up to the
-- row they belong to, follow each other without gap, and go where the
-- history goes.
--
SET client_encoding = 'UTF8';
SET benchstore.progress_interval = 0;

-- the samples of the runs of a label, and their totals against their row
CREATE FUNCTION series_check(ref text)
RETURNS TABLE (row_no integer, test text, target text, samples_ok boolean,
			   contiguous boolean, bytes_add_up boolean, split_adds_up boolean)
LANGUAGE sql AS $$
	SELECT h.row_no, h.test, h.target,
		   count(s.sample_no) >= 1 AND max(s.sample_no) = count(s.sample_no),
		   bool_and(s.start_ms IS NOT NULL AND abs(s.start_ms - coalesce(p.start_ms + p.elapsed_ms, 0)) < 0.01),
		   -- MB/s × seconds: rounded to 2 digits a sample, so within 1 % and 0.1 MB
		   abs(sum(s.mb_per_s * s.elapsed_ms / 1000)
			   - coalesce(bench_metric(h.metrics, 'bytes') / 1048576.0,
						  (bench_metric(h.metrics, 'blks_hit') + bench_metric(h.metrics, 'blks_read'))
						  * current_setting('block_size')::int / 1048576.0))
			   <= 0.1 + 0.01 * sum(s.mb_per_s * s.elapsed_ms / 1000),
		   abs(coalesce(sum(s.read_mb), 0) + coalesce(sum(s.write_mb), 0) + coalesce(sum(s.hit_mb), 0)
			   - coalesce(bench_metric(h.metrics, 'bytes') / 1048576.0,
						  (bench_metric(h.metrics, 'blks_hit') + bench_metric(h.metrics, 'blks_read'))
						  * current_setting('block_size')::int / 1048576.0))
			   < 0.01
	FROM bench_history h
	JOIN bench_sample s ON s.run_id = h.run_id AND s.row_no = h.row_no
	LEFT JOIN bench_sample p ON p.run_id = s.run_id AND p.row_no = s.row_no AND p.sample_no = s.sample_no - 1
	WHERE h.run_id = ANY (bench_run_ids(ref))
	GROUP BY h.row_no, h.test, h.target, h.metrics
	ORDER BY h.row_no
$$;

--
-- bench_tablespace_io: a sample per interval of every test, with the
-- split between reads and writes and, with track_latency, percentiles.
--
SELECT test
FROM bench_tablespace_io(size => '16MB', tests => '{seqwrite,seqread,randread,sync}',
						 direct => false, duration => '200ms', sample_interval => '10ms',
						 label => 'series-io');
SELECT * FROM series_check('series-io');
SELECT test,
	   bool_and(CASE WHEN test IN ('seqwrite', 'sync') THEN read_mb = 0 ELSE write_mb = 0 END) AS split_by_test,
	   bool_and(hit_mb IS NULL) AS no_hits,
	   bool_and(iops = 0 OR (lat_avg_us > 0 AND lat_p50_us > 0 AND lat_p99_us >= lat_p50_us)) AS latencies
FROM bench_samples('series-io') GROUP BY test ORDER BY min(row_no);
SELECT arguments -> 'sample_interval_s' AS sample_interval_s
FROM bench_run WHERE label = 'series-io';

-- Without track_latency the samples have no latencies either.
SET benchstore.track_latency = off;
SELECT test FROM bench_tablespace_io(size => '4MB', tests => '{seqwrite}', direct => false,
									 sample_interval => '10ms', label => 'series-nolat');
SELECT count(*) > 0 AS samples, bool_and(lat_avg_us IS NULL AND lat_p50_us IS NULL AND lat_p99_us IS NULL) AS no_latency
FROM bench_samples('series-nolat');
RESET benchstore.track_latency;

-- The samples of a parallel scan count every process's blocks; the split
-- is the caller's alone until the workers end, so it is left out.
SET max_parallel_workers = 8;
SELECT mode, workers_requested FROM bench_seqscan('pg_class', mode => 'buffer', workers => 1,
		sample_interval => '10ms', label => 'series-parallel');
SELECT count(*) > 0 AS samples, bool_and(read_mb IS NULL AND hit_mb IS NULL) AS no_split
FROM bench_samples('series-parallel');
RESET max_parallel_workers;

-- Several tablespaces: a series per tablespace, and one for the total.
SET allow_in_place_tablespaces = on;
CREATE TABLESPACE series_ts LOCATION '';
RESET allow_in_place_tablespaces;
SELECT tablespace, test, streams
FROM bench_tablespaces_io(ARRAY['pg_default', 'series_ts']::name[], size => '4MB',
						  tests => '{seqwrite,randread}', direct => false, duration => '200ms',
						  sample_interval => '10ms', label => 'series-two');
SELECT * FROM series_check('series-two');

-- sample_interval => NULL (or 0) takes none.
SELECT test FROM bench_tablespace_io(size => '1MB', tests => '{seqwrite}', direct => false,
									 sample_interval => NULL, label => 'series-off');
SELECT count(*) AS samples FROM bench_sample
WHERE run_id = ANY (bench_run_ids('series-off'));
SELECT arguments -> 'sample_interval_s' AS sample_interval_s
FROM bench_run WHERE label = 'series-off';
SELECT * FROM bench_samples('series-off');
SELECT * FROM bench_samples('no such label');

-- Out of bounds.
SELECT * FROM bench_tablespace_io(size => '1MB', sample_interval => '5ms');
SELECT * FROM bench_tablespace_io(size => '1MB', sample_interval => '2 hours');
SELECT * FROM bench_tablespace_io(size => '1MB', sample_interval => '-1s');
SELECT * FROM bench_seqscan('pg_class', sample_interval => '1 ms');
SELECT * FROM bench_query('SELECT 1', sample_interval => '1 day');

--
-- bench_seqscan: buffer mode counts every block, found in shared buffers
-- or read; raw mode reads them all from the files.
--
CREATE TABLE series_t (id integer, pad text);
INSERT INTO series_t SELECT g, repeat('x', 200) FROM generate_series(1, 20000) g;
SELECT mode, pages > 0 AS scanned
FROM bench_seqscan('series_t', mode => 'buffer', repeat => 2, sample_interval => '10ms',
				   label => 'series-scan');
SELECT row_no, samples_ok, contiguous, split_adds_up FROM series_check('series-scan');
SELECT mode, pages > 0 AS scanned
FROM bench_seqscan('series_t', mode => 'raw', sample_interval => '10ms', label => 'series-raw');
SELECT round(sum(read_mb)::numeric, 1) = round((SELECT pg_relation_size('series_t') / 1048576.0)::numeric, 1) AS raw_reads_all,
	   bool_and(hit_mb = 0) AS no_hits, bool_and(write_mb = 0) AS no_writes
FROM bench_samples('series-raw');

--
-- bench_query: the timer's samples add up to the row's blocks.
--
SET max_parallel_workers_per_gather = 0;
SELECT run, rows FROM bench_query('SELECT count(*) FROM series_t a, series_t b WHERE a.id = b.id',
								  repeat => 2, sample_interval => '10ms', label => 'series-query');
SELECT row_no, samples_ok, contiguous, bytes_add_up, split_adds_up FROM series_check('series-query');
RESET max_parallel_workers_per_gather;
-- An error inside the query stops its timer; the next run samples afresh.
SELECT * FROM bench_query('SELECT 1/0', sample_interval => '10ms');
SELECT run FROM bench_query('SELECT count(*) FROM series_t', sample_interval => '10ms',
							label => 'series-after-error');
SELECT row_no, samples_ok, contiguous, bytes_add_up, split_adds_up FROM series_check('series-after-error');

--
-- bench_chart(run_id): one header per result row, one bar per sample.
--
SELECT chart FROM bench_chart((SELECT max(run_id) FROM bench_run WHERE label = 'series-io'),
							  'iops', width => 10)
WHERE chart NOT LIKE ' %';
SELECT count(*) = (SELECT count(*) FROM bench_samples('series-io')) AS one_bar_per_sample
FROM bench_chart((SELECT max(run_id) FROM bench_run WHERE label = 'series-io'), 'iops', width => 10) c
WHERE c.chart LIKE ' %';
SELECT chart FROM bench_chart((SELECT max(run_id) FROM bench_run WHERE label = 'series-io'),
							  'mb_per_s', row_no => 4, width => 10)
WHERE chart NOT LIKE ' %';
SET client_min_messages = warning;		-- the NOTICE names the run id
SELECT count(*) AS no_lines FROM bench_chart((SELECT max(run_id) FROM bench_run WHERE label = 'series-off'));
RESET client_min_messages;
SELECT * FROM bench_chart(1, 'tps');
SELECT * FROM bench_chart(NULL::bigint);
-- the 1.1 bench_chart, of labels, is still the one a text argument calls
SELECT count(*) > 0 AS label_chart FROM bench_chart('mb_per_s', 'series-io');

--
-- The samples go with their run.
--
SELECT runs, result_rows FROM bench_forget('series-io');
SELECT count(*) AS samples_left FROM bench_sample s
WHERE NOT EXISTS (SELECT FROM bench_result x WHERE x.run_id = s.run_id AND x.row_no = s.row_no);
SELECT count(*) AS series_io_samples FROM bench_series WHERE label = 'series-io';

-- Everyone reads the series, as the history; nobody writes it directly.
CREATE ROLE series_reader;
SET ROLE series_reader;
SELECT count(*) > 0 AS reads_series FROM bench_samples('series-scan');
SELECT count(*) > 0 AS reads_view FROM bench_series;
INSERT INTO bench_sample VALUES (1, 1, 99, 0, 1);
DELETE FROM bench_sample;
RESET ROLE;
DROP ROLE series_reader;

DROP TABLE series_t;
DROP TABLESPACE series_ts;
DROP FUNCTION series_check(text);
