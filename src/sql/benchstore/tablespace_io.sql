-- src/sql/benchstore/tablespace_io.sql: bench_tablespace_io,
-- bench_tablespaces_io (src/tblspc_io.c) and bench_tablespace_cache_probe.

--
-- bench_tablespace_io and bench_tablespaces_io: repeat, with run and
-- warnings columns.  bench_tablespaces_io runs its tablespaces at the same
-- time, and each of its rows says so: it measures contention, not each
-- tablespace alone (bench_compare_tablespaces does that).
--
CREATE OR REPLACE FUNCTION bench_tablespace_io(
	tablespace name DEFAULT 'pg_default',
	size text DEFAULT '1GB',			-- per stream, pg_size_bytes syntax
	block_size text DEFAULT '8kB',		-- a power of two, 512 bytes .. 16 MB
	tests text[] DEFAULT '{seqwrite,seqread,randread}',	-- also randwrite, sync
	streams integer DEFAULT 1,			-- concurrent streams, 1 .. 64
	direct boolean DEFAULT true,		-- O_DIRECT
	duration interval DEFAULT '10s',	-- cap of the random and sync tests
	label text DEFAULT NULL,			-- recorded with the run (see bench_history)
	record boolean DEFAULT true,		-- false: do not record the run
	iodepth integer DEFAULT 1,			-- operations in flight per stream, 1 .. 256 (io_uring above 1)
	repeat integer DEFAULT 1,			-- runs of the whole sequence of tests, 1 .. 1000 (1.2)
	sample_interval interval DEFAULT '1s',	-- one sample of the time series per interval, 10 ms .. 1 h; NULL: none (1.2)
	ramp interval DEFAULT NULL,			-- each test's warm-up, run but left out of its figures (fio's ramp_time); NULL: none (1.2)
	until text DEFAULT 'size',			-- 'size': each test ends as its size or duration says; 'steady': when steady holds, or at duration (1.2)
	steady text DEFAULT NULL,			-- steady-state criterion in fio's terms, e.g. 'iops:5%', 'bw_slope:2%', 'lat:10%'; several joined by commas (1.2)
	steady_window interval DEFAULT '30s',	-- the window the criterion judges (fio's ss_dur) (1.2)
	preconditioning boolean DEFAULT false,	-- write tests: write the file twice over first, untimed, as SNIA's tests do (1.2)
	OUT tablespace name,				-- the tablespace ('total' for the sum of several)
	OUT test text,						-- seqwrite, seqread, randread, randwrite or sync
	OUT block_size text,				-- bytes per operation, e.g. '8kB'
	OUT streams integer,				-- streams that actually ran
	OUT direct boolean,					-- O_DIRECT used
	OUT iodepth integer,				-- operations in flight per stream (sync: always 1)
	OUT bytes bigint,					-- bytes read or written, all streams
	OUT elapsed_ms float8,				-- wall-clock time from first start to last end, ms
	OUT mb_per_s float8,				-- MB (2^20 bytes) per second
	OUT iops float8,					-- operations (blocks) per second
	OUT lat_avg_us float8,				-- latency of one operation: mean, microseconds
	OUT lat_p50_us float8,				-- median
	OUT lat_p95_us float8,				-- 95th percentile
	OUT lat_p99_us float8,				-- 99th percentile
	OUT lat_p999_us float8,				-- 99.9th percentile
	OUT lat_max_us float8,				-- maximum
	OUT run integer,					-- 1 .. repeat (1.2)
	OUT warnings text,					-- what the figure does not measure, in words; NULL: nothing (1.2)
	OUT served_by text,					-- read tests: 'storage', or 'cache below' when the devices' counts show a cache under the filesystem answered; NULL for writes and sync (1.2)
	OUT steady_state boolean,			-- whether the steady criterion held over a window of the test; NULL: no criterion (1.2)
	OUT steady_at_ms float8,			-- when it first held: the end of that window, since the test began (ramp included) (1.2)
	OUT steady_criterion text			-- the criterion and its window, e.g. 'iops:5% over 30 s' (1.2)
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_tablespace_io_1_2'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) IS
'sequential and random I/O, sync rate and latency percentiles on temporary files in a tablespace';

CREATE OR REPLACE FUNCTION bench_tablespaces_io(
	tablespaces name[],
	size text DEFAULT '1GB',
	block_size text DEFAULT '8kB',
	tests text[] DEFAULT '{seqwrite,seqread,randread}',
	streams integer DEFAULT 1,			-- per tablespace
	direct boolean DEFAULT true,
	duration interval DEFAULT '10s',
	label text DEFAULT NULL,
	record boolean DEFAULT true,
	iodepth integer DEFAULT 1,			-- per stream
	repeat integer DEFAULT 1,			-- (1.2)
	sample_interval interval DEFAULT '1s',	-- (1.2)
	ramp interval DEFAULT NULL,			-- (1.2)
	until text DEFAULT 'size',			-- (1.2)
	steady text DEFAULT NULL,			-- judged on the total of all tablespaces (1.2)
	steady_window interval DEFAULT '30s',	-- (1.2)
	preconditioning boolean DEFAULT false,	-- (1.2)
	OUT tablespace name,
	OUT test text,
	OUT block_size text,
	OUT streams integer,
	OUT direct boolean,
	OUT iodepth integer,
	OUT bytes bigint,
	OUT elapsed_ms float8,
	OUT mb_per_s float8,
	OUT iops float8,
	OUT lat_avg_us float8,
	OUT lat_p50_us float8,
	OUT lat_p95_us float8,
	OUT lat_p99_us float8,
	OUT lat_p999_us float8,
	OUT lat_max_us float8,
	OUT run integer,					-- (1.2)
	OUT warnings text,					-- several tablespaces ran at the same time: what that measures (1.2)
	OUT served_by text,					-- (1.2)
	OUT steady_state boolean,			-- (1.2)
	OUT steady_at_ms float8,			-- (1.2)
	OUT steady_criterion text			-- (1.2)
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_tablespaces_io_1_2'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer, integer, interval, interval, text, text, interval, boolean) IS
'bench_tablespace_io on several tablespaces at the same time (their contention, not each alone), with a total row per test';

--
-- bench_tablespace_cache_probe: random direct reads over growing files,
-- the working-set sweep.  Latency against the file size shows where the
-- caches below the server end (a knee), with an estimate of each one's
-- size; a cache that holds the data on both passes of the re-read is
-- seen here too, once the file outgrows it.
--
-- _bench_cache_knees: the knees of a sweep, from each size (MB,
-- ascending), its median read time and its mean.  A knee is where the
-- median at least doubles from one size to the next and stays at least
-- double at every larger size: one slow size among fast ones is noise (a
-- busy machine's outliers move the mean, rarely the median).  Reads of a
-- file of S MB through a cache of C MB that keeps the file's most recent
-- part hit C/S of the time, so the median turns slow once S passes 2C:
-- the cache lies between half the size before the knee and half the
-- size at it.  Within that, the estimate takes the mean at the knee as a
-- blend of the fast sizes' mean (hits) and the slowest mean after (misses).
--
CREATE OR REPLACE FUNCTION _bench_cache_knees(sizes float8[], medians float8[], means float8[],
								   OUT ord integer, OUT slowdown float8,
								   OUT cache_mb float8, OUT knee text)
RETURNS SETOF record
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	knee_at constant float8 := 2.0;	-- the median's rise that marks a knee, sustained
	n integer := coalesce(cardinality(sizes), 0);
	hit float8;
	miss float8;
	lo float8;
	hi float8;
	in_knee boolean := false;
BEGIN
	IF n <> coalesce(cardinality(medians), 0) OR n <> coalesce(cardinality(means), 0) THEN
		RAISE EXCEPTION 'sizes, medians and means must have as many elements'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOR i IN 1 .. n LOOP
		ord := i;
		slowdown := CASE WHEN i > 1 AND medians[i - 1] > 0
						 THEN round((medians[i] / medians[i - 1])::numeric, 2)::float8 END;
		cache_mb := NULL;
		knee := NULL;
		IF slowdown >= knee_at AND NOT in_knee
		   AND NOT EXISTS (SELECT 1 FROM unnest(medians[i:n]) m WHERE m < knee_at * medians[i - 1]) THEN
			lo := sizes[i - 1] / 2;
			hi := sizes[i] / 2;
			SELECT min(m) INTO hit FROM unnest(means[1:i - 1]) m;
			SELECT max(m) INTO miss FROM unnest(means[i:n]) m;
			cache_mb := CASE WHEN miss > hit AND means[i] IS NOT NULL
							 THEN sizes[i] * (miss - means[i]) / (miss - hit) END;
			cache_mb := round(least(greatest(coalesce(cache_mb, hi), lo), hi)::numeric)::float8;
			knee := format('A cache of about %s MB (between %s and %s MB) ends here: the median read went from %s µs at %s MB to %s µs at %s MB%s.',
						   cache_mb, round(lo::numeric, 1), round(hi::numeric, 1),
						   round(medians[i - 1]::numeric, 1), sizes[i - 1],
						   round(medians[i]::numeric, 1), sizes[i],
						   CASE WHEN i < n THEN ', and stayed slow at every larger size'
								ELSE ' (the largest size measured: a larger max_size shows whether it stays slow)' END);
			in_knee := true;
		ELSIF slowdown IS NULL OR slowdown < knee_at THEN
			in_knee := false;
		END IF;
		RETURN NEXT;
	END LOOP;
END;
$$;

COMMENT ON FUNCTION _bench_cache_knees(float8[], float8[], float8[]) IS
'internal: the knees of a working-set sweep, and the size of the cache each one ends';

-- EXECUTE stays with PUBLIC: it computes from its arguments only.

CREATE OR REPLACE FUNCTION bench_tablespace_cache_probe(
	tablespace name DEFAULT 'pg_default',
	max_size text DEFAULT '4GB',		-- the largest working set, pg_size_bytes syntax
	min_size text DEFAULT '16MB',		-- the smallest; the sizes double from it up to max_size
	block_size text DEFAULT '8kB',		-- bytes per read
	duration interval DEFAULT '3s',		-- random reads per size
	iodepth integer DEFAULT 1,			-- reads in flight, 1 .. 256
	label text DEFAULT NULL,			-- recorded with the run (see bench_history)
	record boolean DEFAULT true,		-- false: do not record the run
	OUT size_mb float8,					-- the working set: the file read at random
	OUT iops float8,					-- reads per second
	OUT lat_avg_us float8,				-- mean time per read, µs
	OUT lat_p50_us float8,
	OUT lat_p99_us float8,
	OUT served_by text,					-- as bench_tablespace_io's randread row says
	OUT slowdown float8,				-- lat_p50_us over the previous size's
	OUT cache_mb float8,				-- at a knee: the estimated size of the cache that ends there
	OUT knee text						-- at a knee: what it shows, in words
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ts_name name := $1;
	lo bigint;
	hi bigint;
	blk bigint;
	s bigint;
	r record;
	meas jsonb := '[]';				-- per size: its randread row
	done jsonb := '[]';				-- the rows returned, as recorded
	k record;
	argnames text[] := '{tablespace,max_size,min_size,block_size,duration,iodepth,label,record}';
	argnull boolean[] := ARRAY[$1 IS NULL, $2 IS NULL, $3 IS NULL, $4 IS NULL, $5 IS NULL,
							   $6 IS NULL, false, $8 IS NULL];
BEGIN
	FOR i IN 1 .. 8 LOOP
		IF argnull[i] THEN
			RAISE EXCEPTION '% cannot be null', argnames[i] USING ERRCODE = 'null_value_not_allowed';
		END IF;
	END LOOP;
	lo := pg_size_bytes($3);
	hi := pg_size_bytes($2);
	blk := pg_size_bytes($4);
	IF lo <= 0 OR hi < lo THEN
		RAISE EXCEPTION 'min_size must be positive and at most max_size'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('min_size is %s, max_size %s.', $3, $2);
	END IF;
	IF hi / lo > 1048576 THEN
		RAISE EXCEPTION 'max_size is more than 2^20 times min_size'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'The sweep doubles from min_size: 21 sizes at most.';
	END IF;

	-- each size, doubling: a file of whole blocks read at random (its
	-- block size, depth, tablespace, free space and privileges are
	-- bench_tablespace_io's to check)
	s := lo;
	WHILE s <= hi LOOP
		IF blk <= 0 OR s >= blk THEN
			FOR r IN
				SELECT * FROM @extschema@.bench_tablespace_io(ts_name,
						size => (s - s % greatest(blk, 1)) || ' bytes', block_size => $4,
						tests => '{randread}'::pg_catalog.text[], direct => true, duration => $5,
						iodepth => $6, record => false)
			LOOP
				meas := meas || jsonb_build_array(to_jsonb(r) ||
					jsonb_build_object('size_mb', round(((s - s % greatest(blk, 1)) / 1048576.0)::numeric, 3)));
			END LOOP;
		END IF;
		s := s * 2;
	END LOOP;

	FOR k IN
		SELECT x.value AS m, c.slowdown, c.cache_mb, c.knee
		  FROM jsonb_array_elements(meas) WITH ORDINALITY x
		  JOIN @extschema@._bench_cache_knees(
				   ARRAY(SELECT (e ->> 'size_mb')::float8 FROM jsonb_array_elements(meas) e),
				   ARRAY(SELECT coalesce((e ->> 'lat_p50_us')::float8, 1e6 / nullif((e ->> 'iops')::float8, 0))
						   FROM jsonb_array_elements(meas) e),
				   ARRAY(SELECT coalesce((e ->> 'lat_avg_us')::float8, 1e6 / nullif((e ->> 'iops')::float8, 0))
						   FROM jsonb_array_elements(meas) e)) c
			ON c.ord = x.ordinality
		 ORDER BY x.ordinality
	LOOP
		size_mb := (k.m ->> 'size_mb')::float8;
		iops := (k.m ->> 'iops')::float8;
		lat_avg_us := (k.m ->> 'lat_avg_us')::float8;
		lat_p50_us := (k.m ->> 'lat_p50_us')::float8;
		lat_p99_us := (k.m ->> 'lat_p99_us')::float8;
		served_by := k.m ->> 'served_by';
		slowdown := k.slowdown;
		cache_mb := k.cache_mb;
		knee := k.knee;
		done := done || jsonb_build_array(
			jsonb_build_object('tablespace', ts_name, 'test', 'randread', 'direct', true,
							   'block_size', k.m ->> 'block_size', 'iodepth', (k.m ->> 'iodepth')::integer,
							   'streams', 1, 'warnings', k.m ->> 'warnings')
			|| jsonb_strip_nulls(jsonb_build_object(
							   'size_mb', size_mb, 'iops', iops, 'lat_avg_us', lat_avg_us,
							   'lat_p50_us', lat_p50_us, 'lat_p99_us', lat_p99_us,
							   'served_by', served_by, 'slowdown', slowdown,
							   'cache_mb', cache_mb, 'knee', knee)));
		RETURN NEXT;
	END LOOP;

	IF $8 THEN
		PERFORM @extschema@.bench_record('tablespace_cache_probe'::pg_catalog.text,
			ts_name::pg_catalog.text, done, $7,
			jsonb_build_object('tablespace', ts_name, 'max_size', $2, 'min_size', $3,
							   'block_size', $4, 'duration', $5, 'iodepth', $6));
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_tablespace_cache_probe(name, text, text, text, interval, integer, text, boolean) IS
'random direct reads over files of doubling size in a tablespace: where the caches below the server end, and how large each is';
