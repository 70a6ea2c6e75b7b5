--
-- history: every benchmark call is recorded (unless record => false), with
-- its label, arguments, settings and result rows; bench_record adds outside
-- measurements; bench_history, bench_compare, bench_chart, bench_forget and
-- bench_run_json read and prune the history.  Comparisons and charts run on
-- measurements recorded with known numbers, so their output is exact.
--
SET client_encoding = 'UTF8';
-- earlier tests recorded their runs: start from an empty history
TRUNCATE bench_run, bench_result, bench_sample;

-- The history tables are configuration tables of the extension: pg_dump
-- keeps their rows and the run id sequence.
SELECT unnest(extconfig)::regclass AS config_table, unnest(extcondition) AS condition
FROM pg_extension WHERE extname = 'benchstore' ORDER BY 1::text;

-- Created, then filled: PostgreSQL 16 and later extend a relation that
-- CREATE TABLE AS fills by several blocks at a time, so its page count
-- would differ between versions; an INSERT extends it block by block.
CREATE TABLE hist_t (id integer, k integer);
INSERT INTO hist_t SELECT g, g % 7 FROM generate_series(1, 5000) g;

--
-- Recording bench_seqscan: one run per call, one result row per row.
--
SELECT run, mode, pages, tuples
FROM bench_seqscan('hist_t', repeat => 2, label => 'scan-a');

SELECT run_id = currval('bench_run_id_seq') AS newest, recorded_by = current_user AS by_me,
	   label, benchmark, target_kind, target, target_oid = 'hist_t'::regclass AS oid_ok,
	   arguments, finished_at >= started_at AS times_ok
FROM bench_run;

-- Every result column is kept, by name, with the value returned.
SELECT x.row_no, array(SELECT jsonb_object_keys(x.metrics) ORDER BY 1) AS columns
FROM bench_result x ORDER BY x.row_no;
SELECT h.row_no, h.test, h.cache, h.target, h.size_mb = s.size_mb AS size_same,
	   (h.metrics ->> 'tuples')::bigint = (SELECT count(*) FROM hist_t) AS tuples_same,
	   h.mb_per_s > 0 AS rate_ok, h.tuples_per_s > 0 AS tuples_rate_ok,
	   h.block_size, h.streams, h.iops, h.tps
FROM bench_history h
JOIN LATERAL (SELECT pg_relation_size('hist_t') / 1048576.0 AS size_mb) s ON true
ORDER BY h.row_no;

-- The settings that shape the numbers, and where the tablespace lives.
-- The I/O settings that not every version has (io_combine_limit from 17,
-- io_method and io_workers from 18) are checked apart, just below.
SELECT array(SELECT k FROM jsonb_object_keys(settings) k
			 WHERE k NOT IN ('io_combine_limit', 'io_method', 'io_workers')
			 ORDER BY 1) AS settings
FROM bench_run;
-- Each I/O setting is kept as SHOW prints it where the server has it, and
-- left out where it does not.
SELECT k AS setting,
	   CASE WHEN s.name IS NULL THEN NOT r.settings ? k
			ELSE r.settings ->> k = current_setting(k) END AS kept_as_the_server_has_it
FROM bench_run r,
	 unnest('{effective_io_concurrency,maintenance_io_concurrency,io_combine_limit,io_method,io_workers}'::text[]) k
	 LEFT JOIN pg_settings s ON s.name = k
ORDER BY k;
SELECT settings ->> 'block_size' = current_setting('block_size') AS block_size_ok,
	   settings ->> 'shared_buffers' = current_setting('shared_buffers') AS shared_buffers_ok,
	   settings ->> 'fsync' = current_setting('fsync') AS fsync_ok,
	   settings ->> 'wal_sync_method' = current_setting('wal_sync_method') AS sync_method_ok,
	   (settings ->> 'server_version_num')::int = current_setting('server_version_num')::int AS version_ok,
	   settings ->> 'system_identifier' = (SELECT system_identifier::text FROM pg_control_system()) AS sysid_ok,
	   settings ->> 'host_name' <> '' AS host_ok,
	   jsonb_array_length(settings -> 'tablespaces') AS tablespaces,
	   settings -> 'tablespaces' -> 0 ->> 'name' AS tablespace,
	   settings -> 'tablespaces' -> 0 ->> 'directory' IS NULL AS data_directory_hidden,
	   array(SELECT jsonb_object_keys(settings -> 'tablespaces' -> 0) ORDER BY 1) AS tablespace_keys,
	   settings -> 'tablespaces' -> 0 ->> 'filesystem' IS NOT NULL AS filesystem_known
FROM bench_run;

-- record => false: nothing recorded, the rows are returned all the same.
SELECT count(*) AS rows FROM bench_seqscan('hist_t', record => false);
SELECT count(*) AS runs FROM bench_run;

-- In a read-only transaction the run is returned, not recorded, and a
-- NOTICE says so; record => false silences it.
BEGIN READ ONLY;
SELECT count(*) AS rows FROM bench_seqscan('hist_t', mode => 'buffer', label => 'ro');
SELECT count(*) AS rows FROM bench_seqscan('hist_t', record => false);
COMMIT;
SELECT count(*) AS runs FROM bench_run WHERE label = 'ro';

-- A run is kept when its transaction commits.
BEGIN;
SELECT count(*) AS rows FROM bench_seqscan('hist_t', label => 'rolled-back');
ROLLBACK;
SELECT count(*) AS runs FROM bench_run WHERE label = 'rolled-back';

-- Labels: never empty, never all digits (those are run ids), not too long.
SELECT * FROM expect_error($$SELECT bench_seqscan('hist_t', label => '')$$);
SELECT * FROM expect_error($$SELECT bench_seqscan('hist_t', label => '2024')$$);
SELECT * FROM expect_error($$SELECT bench_seqscan('hist_t', label => repeat('x', 201))$$);
SELECT * FROM expect_error($$SELECT bench_seqscan('hist_t', record => NULL)$$);
SELECT * FROM expect_error($$SELECT bench_tablespace_io(size => '1MB', label => '')$$);

--
-- Recording the tablespace tests: arguments as given, one row per test.
--
SELECT test, bytes
FROM bench_tablespace_io(size => '1MB', block_size => '64kB', tests => '{seqwrite,randread}',
						 direct => false, duration => '1s', label => 'io-a');
SELECT benchmark, target_kind, target, target_oid = (SELECT oid FROM pg_tablespace WHERE spcname = 'pg_default') AS oid_ok,
	   arguments - 'track_latency' AS arguments
FROM bench_run WHERE label = 'io-a';
SELECT h.row_no, h.target, h.test, h.block_size, h.streams, h.direct,
	   (h.metrics ->> 'bytes')::bigint AS bytes, h.mb_per_s > 0 AS rate_ok, h.iops > 0 AS iops_ok,
	   h.lat_p50_us <= h.lat_p99_us AS lat_ok
FROM bench_history h WHERE h.label = 'io-a' ORDER BY h.row_no;

SELECT tablespace, test, streams FROM bench_tablespaces_io('{pg_default}', size => '1MB',
	tests => '{seqwrite}', direct => false, label => 'io-b');
SELECT r.target_kind, r.target, r.target_oid, r.arguments -> 'tablespaces' AS tablespaces,
	   array(SELECT h.target FROM bench_history h WHERE h.run_id = r.run_id ORDER BY h.row_no) AS row_targets
FROM bench_run r WHERE r.label = 'io-b';

--
-- bench_record: outside measurements, one object or an array of them.
--
SELECT bench_record('pgbench', 'pg_default', '{"tps": 1234.5, "latency_avg_ms": 6.5}',
					'io-a', '{"clients": 8, "duration_s": 60}') > 0 AS recorded;
SELECT bench_record('fio', 'lun7', '[{"test": "randread", "iops": 9000}, {"test": "randwrite", "iops": 4000}]') > 0 AS recorded;
SELECT h.label, h.benchmark, h.target_kind, h.target, h.test, h.iops, h.tps, h.metrics
FROM bench_history h WHERE h.benchmark IN ('pgbench', 'fio') ORDER BY h.run_id, h.row_no;
SELECT benchmark, arguments, settings -> 'tablespaces' -> 0 ->> 'name' AS tablespace
FROM bench_run WHERE benchmark IN ('pgbench', 'fio') ORDER BY run_id;

SELECT * FROM expect_error($$SELECT bench_record('seqscan', 't', '{"mb_per_s": 1}')$$);
-- every name benchstore's C functions record is reserved
SELECT b AS benchmark, e.err_code, e.message
FROM unnest('{seqscan,tablespace_io,tablespaces_io,query,randread,commit,tpcb}'::text[]) b,
	 LATERAL expect_error(format($q$SELECT bench_record(%L, 't', '{"mb_per_s": 1}')$q$, b)) e;
-- the cluster totals' names, where benchstore_cluster is not installed
SELECT b AS benchmark, e.err_code, e.message, e.detail
FROM unnest('{cluster_seqscan,cluster_tablespace_io,cluster_randread,cluster_tpcb}'::text[]) b,
	 LATERAL expect_error(format($q$SELECT bench_record(%L, 't', '{"mb_per_s": 1}')$q$, b)) e;
SELECT * FROM expect_error($$SELECT bench_record('', 't', '{"tps": 1}')$$);
SELECT * FROM expect_error($$SELECT bench_record(NULL, 't', '{"tps": 1}')$$);
SELECT * FROM expect_error($$SELECT bench_record('pgbench', 't', NULL)$$);
SELECT * FROM expect_error($$SELECT bench_record('pgbench', 't', '12')$$);
SELECT * FROM expect_error($$SELECT bench_record('pgbench', 't', '{}')$$);
SELECT * FROM expect_error($$SELECT bench_record('pgbench', 't', '[]')$$);
SELECT * FROM expect_error($$SELECT bench_record('pgbench', 't', '[{"tps": 1}, 2]')$$);
SELECT * FROM expect_error($$SELECT bench_record('pgbench', 't', '{"tps": 1}', '7')$$);
SELECT * FROM expect_error($$SELECT bench_record('pgbench', 't', '{"tps": 1}', NULL, '[8]')$$);
BEGIN READ ONLY;
SELECT * FROM expect_error($$SELECT bench_record('pgbench', 't', '{"tps": 1}')$$);
COMMIT;

--
-- bench_run_json: a run as one document.
--
SELECT array(SELECT jsonb_object_keys(bench_run_json(run_id)) ORDER BY 1) AS keys,
	   jsonb_array_length(bench_run_json(run_id) -> 'results') AS results
FROM bench_run WHERE label = 'scan-a';
SELECT * FROM expect_error($$SELECT bench_run_json(999999)$$);

--
-- bench_compare on known numbers.  tps: higher is better; latency_avg_ms:
-- lower is better.  Three runs a side give the noise.
--
TRUNCATE bench_run, bench_result, bench_sample;
SELECT count(bench_record('pgbench', 'fast1', m::jsonb, 'chunk64k')) FROM unnest(ARRAY[
	'{"tps": 1000, "latency_avg_ms": 8.0}', '{"tps": 1020, "latency_avg_ms": 7.8}',
	'{"tps": 980, "latency_avg_ms": 8.2}']) m;
SELECT count(bench_record('pgbench', 'fast1', m::jsonb, 'chunk256k')) FROM unnest(ARRAY[
	'{"tps": 1200, "latency_avg_ms": 6.6}', '{"tps": 1180, "latency_avg_ms": 6.8}',
	'{"tps": 1220, "latency_avg_ms": 6.5}']) m;
SELECT count(bench_record('pgbench', 'fast1', m::jsonb, 'chunk128k')) FROM unnest(ARRAY[
	'{"tps": 1010, "latency_avg_ms": 7.9}', '{"tps": 995, "latency_avg_ms": 8.1}']) m;
SELECT count(bench_record('pgbench', 'fast1', m::jsonb, 'chunk32k')) FROM unnest(ARRAY[
	'{"tps": 700, "latency_avg_ms": 11.0}', '{"tps": 710, "latency_avg_ms": 11.2}']) m;
SELECT bench_record('pgbench', 'fast1', '{"tps": 1500}', 'once-a') > 0 AS a,
	   bench_record('pgbench', 'fast1', '{"tps": 1000}', 'once-b') > 0 AS b;

-- better on both metrics
SELECT metric, baseline_runs, candidate_runs, baseline_value, candidate_value, ratio, noise_pct, verdict
FROM bench_compare('chunk64k', 'chunk256k');
-- worse
SELECT metric, baseline_value, candidate_value, ratio, verdict
FROM bench_compare('chunk64k', 'chunk32k');
-- a 0.3 % difference inside a 4 % spread: the interval still reaches past
-- 5 %, so equal cannot be told yet, and the rounds that would are counted
SELECT metric, baseline_value, candidate_value, ratio, noise_pct, verdict
FROM bench_compare('chunk64k', 'chunk128k');
-- a tight spread: the whole interval within 5 % is "equal within 5 %"; a
-- smaller smallest difference that matters cannot say as much
SELECT count(bench_record('pgbench', 'fast1', jsonb_build_object('tps', v), 'same-a'))
FROM unnest('{1000,1001,999,1000}'::float8[]) v;
SELECT count(bench_record('pgbench', 'fast1', jsonb_build_object('tps', v), 'same-b'))
FROM unnest('{1002,1001,1003,1002}'::float8[]) v;
SELECT metric, ratio, noise_pct, p_value < 0.05 AS significant, verdict
FROM bench_compare('same-a', 'same-b');
SELECT metric, ratio, p_value < 0.05 AS significant, verdict
FROM bench_compare('same-a', 'same-b', min_difference_pct => 0.1);
SELECT * FROM expect_error($$SELECT * FROM bench_compare('same-a', 'same-b', min_difference_pct => 100)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_compare('same-a', 'same-b', min_difference_pct => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_compare('same-a', 'same-b', details => NULL)$$);
-- Many metrics at once: a 6 % difference whose t-test gives p = 0.02 is
-- "better" alone, and "can't tell" among five metrics, where Holm's
-- adjustment keeps the chance of any false verdict under 5 %.
SELECT count(bench_record('outside', 'fast1', jsonb_build_object('m1', a, 'm2', b, 'm3', b, 'm4', b, 'm5', b), 'many-a'))
FROM unnest('{100,102,98}'::float8[], '{50,51,49}'::float8[]) u(a, b);
SELECT count(bench_record('outside', 'fast1', jsonb_build_object('m1', a, 'm2', b, 'm3', b, 'm4', b, 'm5', b), 'many-b'))
FROM unnest('{106,108,104}'::float8[], '{50,49,51}'::float8[]) u(a, b);
SELECT metric, ratio, p_value, verdict FROM bench_compare('many-a', 'many-b', metrics => '{m1}');
SELECT metric, ratio, p_value, verdict FROM bench_compare('many-a', 'many-b');
-- the t-test's p against Student's t tables (two-sided 5 % points)
SELECT df, round(_bench_t_p(t, df)::numeric, 3) AS p
FROM (VALUES (12.706, 1), (4.303, 2), (2.776, 4), (2.571, 5), (2.228, 10),
			 (2.042, 30), (1.962, 1000), (0, 7)) v(t, df) ORDER BY df;
-- one run each: no verdict, however large the difference
SELECT metric, baseline_runs, candidate_runs, ratio, noise_pct, verdict
FROM bench_compare('once-b', 'once-a');
-- one run against three: the repeated side's spread stands for both
SELECT metric, baseline_runs, candidate_runs, ratio, noise_pct, verdict
FROM bench_compare('once-b', 'chunk256k');
-- identical repeats leave no spread to judge a difference by
SELECT count(bench_record('pgbench', 'fast1', '{"tps": 10, "ops_per_sec": 11}', 'flat-a'))
FROM generate_series(1, 3);
SELECT count(bench_record('pgbench', 'fast1', m::jsonb, 'flat-b')) FROM unnest(ARRAY[
	'{"tps": 10.01, "ops_per_sec": 14}', '{"tps": 10.01, "ops_per_sec": 14.2}']) m;
SELECT metric, baseline_value, candidate_value, noise_pct, verdict
FROM bench_compare('flat-a', 'flat-b');
-- a number beyond float8 does not break the view: it reads as NULL
SELECT bench_record('pgbench', 'fast1', '{"tps": 1e400, "streams": 1e12, "x": 1e-400}', 'huge') > 0 AS recorded;
SELECT tps, streams, bench_metric(metrics, 'x') AS x FROM bench_history WHERE label = 'huge';
SELECT * FROM bench_forget('huge');
SELECT * FROM bench_forget('flat-a');
SELECT * FROM bench_forget('flat-b');
SELECT sum(f.runs) AS forgotten FROM unnest('{same-a,same-b,many-a,many-b}'::text[]) l, bench_forget(l) f;
-- a run id stands for its run; a metrics list picks metrics
SELECT metric, baseline_runs, candidate_runs, verdict
FROM bench_compare((SELECT min(run_id) FROM bench_run WHERE label = 'chunk64k')::text,
				   'chunk256k', metrics => '{tps}');

-- Built-in benchmarks compare by test, block size, streams and direct, on
-- their headline metrics; one tablespace against another when each side
-- has one.  Rows recorded with known numbers, as the C code records them.
CREATE FUNCTION fake_io(lbl text, spc text, test text, bs text, mbs float8, p99 float8)
RETURNS void LANGUAGE sql AS $$
	WITH r AS (
		INSERT INTO bench_run (started_at, finished_at, recorded_by, label, benchmark,
							   target_kind, target, arguments, settings)
		VALUES (now(), now(), current_user, lbl, 'tablespace_io', 'tablespace', spc, '{}', '{}')
		RETURNING run_id)
	INSERT INTO bench_result (run_id, row_no, metrics)
	SELECT r.run_id, 1, jsonb_build_object('tablespace', spc, 'test', test, 'block_size', bs,
		'streams', 1, 'direct', true, 'mb_per_s', mbs, 'iops', mbs * 1048576 / pg_size_bytes(bs),
		'lat_p99_us', p99)
	FROM r;
$$;
SELECT count(*) FROM (SELECT fake_io('disk-a', 'fast1', t, bs, mbs, p99) FROM (VALUES
	('seqread', '1MB', 500, 2100), ('seqread', '1MB', 510, 2000), ('seqread', '1MB', 490, 2200),
	('randread', '8kB', 40, 300), ('randread', '8kB', 41, 290), ('randread', '8kB', 39, 310),
	('seqread', '64kB', 300, 400), ('seqread', '64kB', 301, 410)) v(t, bs, mbs, p99)) f;
SELECT count(*) FROM (SELECT fake_io('disk-b', 'fast3', t, bs, mbs, p99) FROM (VALUES
	('seqread', '1MB', 400, 2600), ('seqread', '1MB', 405, 2550), ('seqread', '1MB', 395, 2650),
	('randread', '8kB', 80, 150), ('randread', '8kB', 82, 140), ('randread', '8kB', 78, 160),
	('seqwrite', '1MB', 300, 1000)) v(t, bs, mbs, p99)) f;
SELECT benchmark, target, test, block_size, streams, direct, metric, baseline_runs AS b_n,
	   candidate_runs AS c_n, baseline_value, candidate_value, ratio, verdict
FROM bench_compare('disk-a', 'disk-b');

-- A figure a cache below the server answered is never a winner, however
-- large the difference: the storage on one side against a cache on the
-- other (the WARNING says so too).
SELECT count(*) FROM (SELECT fake_io('below-a', 'fast1', 'randread', '8kB', mbs, 300)
					  FROM unnest('{40,41,39}'::float8[]) mbs) f;
SELECT count(*) FROM (SELECT fake_io('below-b', 'fast3', 'randread', '8kB', mbs, 30)
					  FROM unnest('{400,410,390}'::float8[]) mbs) f;
UPDATE bench_result x SET metrics = x.metrics || jsonb_build_object('served_by',
		CASE r.label WHEN 'below-a' THEN 'storage' ELSE 'cache below' END)
FROM bench_run r WHERE r.run_id = x.run_id AND r.label IN ('below-a', 'below-b');
SELECT test, metric, ratio, verdict FROM bench_compare('below-a', 'below-b');
SELECT sum(f.runs) AS forgotten FROM unnest('{below-a,below-b}'::text[]) l, bench_forget(l) f;

-- Nothing in common: no rows and a NOTICE.
SELECT * FROM bench_compare('disk-a', 'chunk64k');
SELECT * FROM expect_error($$SELECT * FROM bench_compare('no-such-label', 'disk-a')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_compare('disk-a', NULL)$$);

--
-- bench_chart on the same numbers: bars scaled to the largest mean.
--
SELECT * FROM bench_chart('tps', label_like => 'chunk%');
SELECT * FROM bench_chart('tps', label_like => 'chunk%', width => 10);
-- what differs between the bars names them: test and block size here
SELECT * FROM bench_chart('mb_per_s', label_like => 'disk-a', width => 20);
SELECT * FROM bench_chart('lat_p99_us', test => 'randread', width => 20);
-- ASCII when the client cannot show block characters
SET client_encoding = 'LATIN1';
SELECT * FROM bench_chart('tps', label_like => 'chunk%', width => 20);
RESET client_encoding;
SET client_encoding = 'UTF8';
SELECT * FROM bench_chart('no_such_metric');
SELECT * FROM expect_error($$SELECT * FROM bench_chart(NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_chart('tps', width => 0)$$);
-- A parallel scan's processes (1 + workers) are its streams: serial and
-- parallel runs are told apart in the chart and paired apart in compare.
SELECT count(*) FROM generate_series(0, 1) w,
	 bench_seqscan('hist_t', repeat => 2, workers => w, label => 'scan-par');
SELECT DISTINCT streams, test FROM bench_history WHERE label = 'scan-par' ORDER BY 1;
SELECT * FROM bench_chart('size_mb', label_like => 'scan-par', width => 10);
SELECT test, streams, metric, baseline_runs, candidate_runs, ratio, verdict
FROM bench_compare('scan-par', 'scan-par', '{size_mb}') ORDER BY streams;

--
-- Who sees and removes what: every role reads the whole history (as a
-- database owner's pg_dump must), removes only its own runs (superusers
-- any), and writes the tables only through the benchmarks.
--
CREATE ROLE regress_bs_hist1;
CREATE ROLE regress_bs_hist2;
GRANT SELECT ON hist_t TO regress_bs_hist1;
SET ROLE regress_bs_hist1;
SELECT count(*) AS rows FROM bench_seqscan('hist_t', label => 'mine');
SELECT bench_record('pgbench', 'fast1', '{"tps": 5}', 'mine') > 0 AS recorded;
SELECT label, benchmark, recorded_by FROM bench_history ORDER BY run_id;
SELECT * FROM expect_error($$INSERT INTO bench_run (started_at, finished_at, recorded_by, benchmark, target_kind, arguments, settings) VALUES (now(), now(), 'x', 'fake', 'other', '{}', '{}')$$);
SELECT * FROM expect_error($$UPDATE bench_run SET label = 'x'$$);
SELECT * FROM bench_forget('chunk64k');
SET ROLE regress_bs_hist2;
SELECT count(DISTINCT label) AS labels_visible,
	   (SELECT last_value > 0 FROM bench_run_id_seq) AS sequence_readable
FROM bench_history;
SELECT * FROM bench_forget('mine');
SELECT * FROM expect_error($$DELETE FROM bench_run WHERE label = 'mine'$$);
-- a label belongs to the role that first used it
SELECT * FROM expect_error($$SELECT bench_record('pgbench', 'fast1', '{"tps": 1}', 'mine')$$);
SET ROLE regress_bs_hist1;
SELECT * FROM bench_forget('mine');
RESET ROLE;
SELECT count(*) AS mine_left FROM bench_run WHERE label = 'mine';

--
-- bench_forget: by run id and by label, with the rows removed.
--
SELECT * FROM bench_forget((SELECT min(run_id) FROM bench_run WHERE label = 'chunk64k'));
SELECT * FROM bench_forget('chunk64k');
SELECT * FROM bench_forget('disk-b');
SELECT * FROM bench_forget('no-such-label');
SELECT label, count(*) AS rows FROM bench_history GROUP BY label ORDER BY label;

-- bench_relation_sizes leaves benchstore's own tables out.
SELECT count(*) AS history_tables_listed
FROM bench_relation_sizes(NULL) r
WHERE r.relation IN ('bench_run'::regclass, 'bench_result'::regclass);

DROP FUNCTION fake_io(text, text, text, text, float8, float8);
DROP TABLE hist_t;
DROP ROLE regress_bs_hist1;
DROP ROLE regress_bs_hist2;
