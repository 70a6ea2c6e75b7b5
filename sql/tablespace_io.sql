--
-- bench_tablespace_io and bench_tablespaces_io: shapes, invariants, every
-- error path, privileges.  Runs are small and use direct => false, which
-- every filesystem accepts (tmpfs refuses O_DIRECT); the TAP tests cover
-- direct I/O, cancel and crash cleanup.  No timings in the output.
--
-- Invariants of one result row.
CREATE FUNCTION io_ok(r record) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	RETURN r.elapsed_ms > 0 AND r.mb_per_s > 0 AND r.iops > 0
		AND r.lat_avg_us > 0
		AND r.lat_p50_us <= r.lat_p95_us AND r.lat_p95_us <= r.lat_p99_us
		AND r.lat_p99_us <= r.lat_p999_us AND r.lat_p999_us <= r.lat_max_us
		AND r.lat_avg_us <= r.lat_max_us
		AND abs(r.mb_per_s - r.bytes / 1048576.0 / (r.elapsed_ms / 1000)) <= 0.01 * r.mb_per_s + 0.01
		AND abs(r.iops - r.bytes / pg_size_bytes(r.block_size) / (r.elapsed_ms / 1000)) <= 0.01 * r.iops + 0.1;
END $$;

-- Sequential tests move size bytes per stream; the default tests, in order.
SELECT tablespace, test, block_size, streams, direct, bytes, io_ok(r) AS ok
FROM bench_tablespace_io(size => '4MB', direct => false) r;

-- Every test, in the order given (repeats allowed), at 64 kB.
SELECT test, block_size, direct, bytes <= 2 * 1048576 AS within_size, bytes > 0 AS did_io,
	   bytes % 65536 = 0 AS whole_blocks, io_ok(r) AS ok
FROM bench_tablespace_io(size => '2MB', block_size => '64kB',
						 tests => '{randwrite,seqread,sync,seqwrite,randread,seqread}',
						 direct => false, duration => '200ms') r;

-- A read test with no file yet writes it first, untimed: bytes are the reads.
SELECT test, bytes FROM bench_tablespace_io(size => '1MB', tests => '{seqread}', direct => false);

-- Parallel streams: the rows sum them.
SELECT test, streams, bytes, io_ok(r) AS ok
FROM bench_tablespace_io(size => '2MB', streams => 3, direct => false,
						 tests => '{seqwrite,seqread}') r;

-- Block sizes from 512 bytes to 16 MB, as a sweep.
SELECT r.block_size, r.bytes, io_ok(r) AS ok
FROM unnest('{512 bytes,4kB,1MB,16MB}'::text[]) bs,
	 LATERAL bench_tablespace_io(size => '16MB', block_size => bs, tests => '{seqwrite}',
								 direct => false) r;

-- benchstore.track_latency = off: no clock reading per operation, no
-- latency columns; the throughput columns stay.
SET benchstore.track_latency = off;
SELECT test, bytes, mb_per_s > 0 AS has_rate, lat_avg_us, lat_p50_us, lat_max_us
FROM bench_tablespace_io(size => '1MB', tests => '{seqwrite,randread}', direct => false);
RESET benchstore.track_latency;

-- Several tablespaces at once: a row per tablespace and test, and a total.
SET allow_in_place_tablespaces = true;
CREATE TABLESPACE regress_bs_ts LOCATION '';
SELECT tablespace, test, streams, bytes, io_ok(r) AS ok
FROM bench_tablespaces_io('{pg_default,regress_bs_ts}', size => '2MB', streams => 2,
						  tests => '{seqwrite,randread}', direct => false,
						  duration => '100ms') r;
SELECT tablespace, test, bytes FROM bench_tablespace_io('regress_bs_ts', size => '1MB',
														 tests => '{seqwrite}', direct => false);

-- repeat: the whole sequence of tests again, the rows numbered by run.
SELECT run, test, bytes, io_ok(r) AS ok, warnings
FROM bench_tablespace_io(size => '1MB', tests => '{seqwrite,seqread}', direct => false,
						 repeat => 2, record => false) r;
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', repeat => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', repeat => 1001)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', repeat => NULL)$$);
-- bench_tablespaces_io runs its tablespaces at the same time, and each
-- row says so, and what that measures.
SELECT tablespace, test, run, warnings
FROM bench_tablespaces_io('{pg_default,regress_bs_ts}', size => '1MB', tests => '{seqread}',
						  direct => false, repeat => 2, record => false);

-- Two tablespaces compared in one call: one after the other, the first
-- alternating by round, recorded under '<label>: <tablespace>'; the
-- verdict is bench_compare's, with the ratio's 95 % interval.
SELECT test, metric, runs, a_label, b_label,
	   ratio_low <= ratio AND ratio <= ratio_high AS interval_ok,
	   verdict IN ('regress_bs_ts better', 'pg_default better', 'equal within 5 %')
	   OR verdict LIKE 'can''t tell: %' AS verdict_ok
FROM bench_compare_tablespaces('pg_default', 'regress_bs_ts', tests => '{seqwrite,randread}',
							   size => '1MB', duration => '100ms', rounds => 3,
							   label => 'regress ts', direct => false);
SELECT array_agg(h.target ORDER BY h.run_id) AS order_run
FROM bench_history h WHERE h.label LIKE 'regress ts: %' AND h.test = 'seqwrite';
SELECT * FROM expect_error($$SELECT * FROM bench_compare_tablespaces('pg_default', 'regress_bs_ts', size => '1MB', direct => false, label => 'regress ts')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_compare_tablespaces('pg_default', 'pg_default')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_compare_tablespaces('pg_default', 'regress_bs_ts', rounds => 1)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_compare_tablespaces('pg_default', 'regress_bs_ts', rounds => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_compare_tablespaces('pg_default', 'no_such_ts', size => '1MB', direct => false, label => 'regress ts2')$$);
SELECT bench_forget(label) FROM (SELECT DISTINCT label FROM bench_run WHERE label LIKE 'regress ts%') l;

-- No file is left behind, in either tablespace.
SELECT count(*) AS files_left FROM pg_ls_tmpdir();
SELECT count(*) AS files_left_in_regress_bs_ts
FROM pg_ls_tmpdir((SELECT oid FROM pg_tablespace WHERE spcname = 'regress_bs_ts'));

-- Bad input.
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io('no_such_tablespace')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io('pg_global')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(block_size => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(tests => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(streams => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(direct => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(duration => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => 'lots')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '0')$$);
-- An unknown unit gets pg_size_bytes()'s own error, hint included; the
-- hint lists the server's units ("B" too from PostgreSQL 18 on), so it is
-- compared with the server's own.
SELECT err_code, message, detail,
	   hint = (SELECT e.hint FROM expect_error($$SELECT pg_size_bytes('8 parsecs')$$) e) AS servers_hint,
	   hint LIKE 'Valid units are %' AS lists_units
FROM expect_error($$SELECT * FROM bench_tablespace_io(block_size => '8 parsecs')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(block_size => '3kB')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(block_size => '256 bytes')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(block_size => '32MB')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '4kB', block_size => '8kB')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '12kB', block_size => '8kB')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(tests => '{seqwrite,fsync}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(tests => '{}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(tests => '{seqread,NULL}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(streams => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(streams => 65)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(duration => '0s')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(duration => '-1s')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(duration => '8 days')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(duration => '10000000 years')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '2PB')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '9223372036317904896', streams => 2)$$);
-- iodepth: its range, NULL, and the bound on the buffers (iodepth x
-- block_size x streams, at most 1 GB), checked before anything is written.
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(iodepth => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(iodepth => 257)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(iodepth => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '16MB', block_size => '16MB', iodepth => 65)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespaces_io('{pg_default,regress_bs_ts}', size => '4MB', block_size => '4MB', streams => 2, iodepth => 65)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespaces_io('{}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespaces_io(NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespaces_io('{pg_default,NULL}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespaces_io('{pg_default,pg_default}')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespaces_io('{pg_default,regress_bs_ts}', streams => 40)$$);

-- Limits, refused before anything is written.
SELECT err_code, message, hint FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1PB')$$);
SET temp_file_limit = '3MB';
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '4MB', direct => false)$$);
-- The limit bounds the whole run, all streams together.
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '2MB', streams => 2, direct => false)$$);
SELECT test, bytes FROM bench_tablespace_io(size => '1MB', streams => 2, tests => '{seqwrite}', direct => false);
RESET temp_file_limit;

-- Privileges: superuser, or pg_write_server_files with CREATE on the
-- tablespace (none needed on the database's default tablespace).
CREATE ROLE regress_bs_io;
SET ROLE regress_bs_io;
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', direct => false)$$);
RESET ROLE;
GRANT pg_write_server_files TO regress_bs_io;
SET ROLE regress_bs_io;
SELECT test, bytes FROM bench_tablespace_io(size => '1MB', tests => '{seqwrite}', direct => false);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io('regress_bs_ts', size => '1MB', direct => false)$$);
RESET ROLE;
GRANT CREATE ON TABLESPACE regress_bs_ts TO regress_bs_io;
SET ROLE regress_bs_io;
SELECT tablespace, test, bytes FROM bench_tablespace_io('regress_bs_ts', size => '1MB', tests => '{seqwrite}', direct => false);
RESET ROLE;
-- Without EXECUTE (revoked from PUBLIC), even before the checks in C.
REVOKE pg_write_server_files FROM regress_bs_io;
SET ROLE regress_bs_io;
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB')$$);
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_compare_tablespaces('pg_default', 'regress_bs_ts')$$);
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_tablespace_cache_probe('pg_default', '64MB')$$);
RESET ROLE;
-- EXECUTE granted by hand does not bypass the check in C.
GRANT EXECUTE ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean)
	TO regress_bs_io;
SET ROLE regress_bs_io;
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_io(size => '1MB', direct => false)$$);
RESET ROLE;

REVOKE ALL ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean)
	FROM regress_bs_io;
DROP TABLESPACE regress_bs_ts;
DROP ROLE regress_bs_io;

--
-- bench_tablespace_cache_probe: arguments checked before anything is
-- written, and the knees of a sweep found in known series.
--
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_tablespace_cache_probe(NULL)$$);
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_tablespace_cache_probe(duration => NULL)$$);
SELECT err_code, message, detail FROM expect_error($$SELECT * FROM bench_tablespace_cache_probe(max_size => '8MB', min_size => '16MB')$$);
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_tablespace_cache_probe(max_size => '1TB', min_size => '64kB')$$);
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_tablespace_cache_probe(max_size => 'lots')$$);
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_tablespace_cache_probe('no_such_tablespace', '2MB', '1MB')$$);
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_tablespace_cache_probe(max_size => '2MB', min_size => '1MB', block_size => '3kB')$$);
-- a small sweep: one row per doubling, each read, recorded as one run
SELECT size_mb, iops > 0 AS read, slowdown IS NULL AS first
  FROM bench_tablespace_cache_probe(max_size => '4MB', min_size => '1MB', duration => '0.2s',
									label => 'regress probe');
SELECT benchmark, target, test, direct, block_size, count(*)
  FROM bench_history WHERE label = 'regress probe' GROUP BY 1, 2, 3, 4, 5;
SELECT bench_forget('regress probe');
-- a cache of 200 MB (hits 8 µs, misses 90 µs): the median turns slow past
-- 400 MB, and the estimate lies between 128 and 256 MB
SELECT * FROM _bench_cache_knees('{64,128,256,512,1024,2048}', '{8,8,8,90,92,95}',
								 '{10,10,27.5,58.75,74.4,82.2}');
-- one slow size among fast ones is noise, not a knee
SELECT * FROM _bench_cache_knees('{8,16,32,64}', '{7,20,7.5,7.7}', '{11,59,8,68}');
-- a rise at the largest size: a knee, said to be unconfirmed
SELECT knee FROM _bench_cache_knees('{8,16}', '{7,20}', '{7,20}') WHERE knee IS NOT NULL;
-- no sizes, and sizes and latencies that do not match
SELECT count(*) FROM _bench_cache_knees('{}', '{}', '{}');
SELECT err_code, message FROM expect_error($$SELECT * FROM _bench_cache_knees('{1,2}', '{1}', '{1,2}')$$);

