--
-- readahead_sweep: bench_readahead_sweep (1.2), the server's read-ahead at
-- each effective_io_concurrency.  Timings are never compared; checked: a
-- row per depth and test (and io_combine_limit on 17+) in order, the depth
-- each run had (bench_randread's prefetch, the recorded settings), one
-- knee per series at the first depth within 10 % of its best, settings as
-- they were after the call and after an error, the runs recorded under
-- the label, every error, and a role without the checkpoint right.
--
SET client_encoding = 'UTF8';
SET benchstore.progress_interval = 0;
-- cold runs of a table in shared buffers warn on 15 and 16, which cannot
-- evict them: the test is about the sweep, not about coldness
SET client_min_messages = error;

CREATE TABLE ras_t (id integer, v text) WITH (autovacuum_enabled = off);
INSERT INTO ras_t SELECT g, repeat('x', 200) FROM generate_series(1, 20000) g;
VACUUM (FREEZE, ANALYZE) ras_t;
SET effective_io_concurrency = 3;
SELECT coalesce((SELECT setting FROM pg_settings WHERE name = 'io_combine_limit'), 'none') AS icl_before \gset

SELECT test, effective_io_concurrency AS eic,
	   io_combine_limit IS NOT DISTINCT FROM
		   CASE WHEN test = 'seqscan' AND current_setting('server_version_num')::int >= 170000
				THEN nullif(:'icl_before', 'none')::integer END AS icl_ok,
	   io_method IS NOT DISTINCT FROM current_setting('io_method', true) AS io_method_ok,
	   test = 'seqscan' OR prefetch = CASE WHEN effective_io_concurrency = 1 THEN 'none'
					   WHEN current_setting('server_version_num')::int >= 170000 THEN 'read stream'
					   ELSE 'PrefetchBuffer' END AS prefetch_ok,
	   reads_per_s > 0 AND mb_per_s > 0 AS rates,
	   (test = 'randread') = (device_reads_per_s IS NOT NULL AND lat_p50_us > 0) AS randread_columns,
	   of_best_pct > 0 AND of_best_pct <= 100 AS of_best
FROM bench_readahead_sweep('ras_t', depths => '{1,8,2}', reads => 200, label => 'ras-sweep')
WHERE test = 'randread';
-- before 17 a scan does not use effective_io_concurrency: it runs once
SELECT count(*) = CASE WHEN current_setting('server_version_num')::int >= 170000 THEN 3 ELSE 1 END AS scans,
	   bool_and(effective_io_concurrency IS NULL) = (current_setting('server_version_num')::int < 170000) AS depth_null_before_17,
	   bool_and(coalesce(warnings, '') LIKE '%effective_io_concurrency does not apply%') = (current_setting('server_version_num')::int < 170000) AS said_why
FROM bench_readahead_sweep('ras_t', depths => '{1,8,2}', tests => '{seqscan}', record => false);
-- the settings as they were
SHOW effective_io_concurrency;
SELECT coalesce((SELECT setting FROM pg_settings WHERE name = 'io_combine_limit'), 'none') = :'icl_before' AS icl_as_before;

-- One knee per series, on the first row within 10 % of the series' best,
-- which is 100 %.
SELECT test, count(*) AS runs, count(*) FILTER (WHERE knee) AS knees,
	   max(of_best_pct) AS best_pct,
	   bool_and(NOT knee OR of_best_pct >= 90) AS knee_near_best,
	   bool_and(NOT knee OR NOT EXISTS (SELECT 1 FROM unnest(eics) WITH ORDINALITY e(v, o)
										WHERE o < pos AND pcts[o] >= 90)) AS first_such
FROM (SELECT s.*, row_number() OVER (PARTITION BY test ORDER BY ord) AS pos,
			 array_agg(of_best_pct) OVER (PARTITION BY test ORDER BY ord
										  ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS pcts,
			 array_agg(effective_io_concurrency) OVER (PARTITION BY test ORDER BY ord
													   ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS eics
	  FROM bench_readahead_sweep('ras_t', depths => '{1,2,4}', reads => 100, tests => '{randread}', record => false)
		   WITH ORDINALITY s(test, effective_io_concurrency, io_combine_limit, io_method, prefetch,
							 reads_per_s, mb_per_s, device_reads_per_s, lat_p50_us, os_read_mb,
							 cached_pct, of_best_pct, knee, warnings, ord)) x
GROUP BY test;

-- Each run recorded under the label with the depth it had, cold.
-- (before 17 the scan ran once, at the session's effective_io_concurrency)
SELECT h.benchmark, h.metrics ->> 'cache' AS cache,
	   array_agg(coalesce(h.metrics ->> 'depth', r.settings ->> 'effective_io_concurrency') ORDER BY h.run_id)::text =
	   CASE WHEN h.benchmark = 'seqscan' AND current_setting('server_version_num')::int < 170000
			THEN '{3}' ELSE '{1,8,2}' END AS runs_at_each_depth
FROM bench_history h JOIN bench_run r USING (run_id)
WHERE h.label = 'ras-sweep' GROUP BY 1, 2 ORDER BY 1;

-- io_combine_limit per series on 17+; refused before.
SELECT CASE WHEN current_setting('server_version_num')::int >= 170000
			THEN (SELECT array_agg(io_combine_limit || ':' || effective_io_concurrency ORDER BY ord)::text
				  FROM bench_readahead_sweep('ras_t', depths => '{1,4}', combine_limits => '{2,4}',
											 tests => '{seqscan}', record => false) WITH ORDINALITY s(test, effective_io_concurrency, io_combine_limit, io_method, prefetch,
							 reads_per_s, mb_per_s, device_reads_per_s, lat_p50_us, os_read_mb,
							 cached_pct, of_best_pct, knee, warnings, ord))
			ELSE '{2:1,2:4,4:1,4:4}' END AS combine_series;
SELECT CASE WHEN current_setting('server_version_num')::int >= 170000 THEN '0A000'
			ELSE (SELECT err_code FROM expect_error($$SELECT * FROM bench_readahead_sweep('ras_t', combine_limits => '{4}')$$)) END AS before_17;

-- Errors; the settings stay as they were.
SELECT * FROM expect_error($$SELECT * FROM bench_readahead_sweep(NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_readahead_sweep('ras_t', depths => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_readahead_sweep('ras_t', depths => '{}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_readahead_sweep('ras_t', depths => '{1,512}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_readahead_sweep('ras_t', depths => '{0}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_readahead_sweep('ras_t', depths => '{1,NULL}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_readahead_sweep('ras_t', tests => '{seqread}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_readahead_sweep('ras_t', reads => 0, tests => '{randread}')$$);
SELECT err_code = CASE WHEN current_setting('server_version_num')::int >= 170000
					   THEN '22023' ELSE '0A000' END AS refused
FROM expect_error($$SELECT * FROM bench_readahead_sweep('ras_t', combine_limits => '{}')$$);
SHOW effective_io_concurrency;
-- a tablespace's own effective_io_concurrency would win over the sweep's
ALTER TABLESPACE pg_default SET (effective_io_concurrency = 7);
SELECT * FROM expect_error($$SELECT * FROM bench_readahead_sweep('ras_t')$$);
ALTER TABLESPACE pg_default RESET (effective_io_concurrency);

-- Cold runs need the checkpoint right: a role without it is refused
-- before anything runs, and its settings stay its own.
CREATE ROLE regress_ras_reader;
GRANT SELECT ON ras_t TO regress_ras_reader;
SET ROLE regress_ras_reader;
SELECT * FROM expect_error($$SELECT * FROM bench_readahead_sweep('ras_t', reads => 10, record => false)$$);
SHOW effective_io_concurrency;
RESET ROLE;
REVOKE SELECT ON ras_t FROM regress_ras_reader;
DROP ROLE regress_ras_reader;
RESET effective_io_concurrency;
SELECT runs > 0 AS forgotten FROM bench_forget('ras-sweep');
DROP TABLE ras_t;
