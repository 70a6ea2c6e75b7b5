-- src/sql/benchstore/compare.sql: bench_compare, bench_compare_tablespaces,
-- bench_compare_relations.

--
-- bench_compare: two labels (or run ids) compared test by test, with the
-- ratio's noise and a verdict.  A cold run that was not cold (cached_pct 1
-- or more) is compared only with its like, as cache 'not cold', unless
-- asked (mix_cold).
--
CREATE OR REPLACE FUNCTION bench_compare(
	baseline text,					-- a label, or a run id
	candidate text,					-- a label, or a run id
	metrics text[] DEFAULT NULL,	-- metrics to compare; NULL: the headline ones
	mix_cold boolean DEFAULT false,	-- true: compare cold runs that were not cold with cold ones (1.2)
	OUT benchmark text,
	OUT target text,				-- 'fast1', or 'fast1 / fast3' when they differ
	OUT test text,					-- I/O test, or scan mode
	OUT cache text,					-- warm, cold, or 'not cold': cold runs with 1 % or more of their pages cached (1.2)
	OUT block_size text,
	OUT streams integer,
	OUT direct boolean,
	OUT iodepth integer,			-- operations in flight per stream (tablespace tests, raw scans)
	OUT metric text,
	OUT baseline_runs integer,		-- measurements averaged
	OUT candidate_runs integer,
	OUT baseline_value float8,		-- mean
	OUT candidate_value float8,		-- mean
	OUT ratio float8,				-- candidate / baseline
	OUT noise_pct float8,			-- smallest change that counts, % of the baseline
	OUT verdict text				-- better, worse, within noise, or no verdict: ...
)
RETURNS SETOF record
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	b_ids bigint[] := @extschema@.bench_run_ids(baseline);
	c_ids bigint[] := @extschema@.bench_run_ids(candidate);
	-- two-sided 95 % quantiles of Student's t for 1 .. 30 degrees of freedom
	t95 float8[] := '{12.706,4.303,3.182,2.776,2.571,2.447,2.365,2.306,2.262,2.228,
					  2.201,2.179,2.160,2.145,2.131,2.120,2.110,2.101,2.093,2.086,
					  2.080,2.074,2.069,2.064,2.060,2.056,2.052,2.048,2.045,2.042}';
	found_any boolean := false;
	not_cold integer;
	mixed text;
BEGIN
	IF mix_cold IS NULL THEN
		RAISE EXCEPTION 'mix_cold cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF cardinality(b_ids) = 0 THEN
		RAISE EXCEPTION 'no recorded run has label or run id "%"', baseline
			USING ERRCODE = 'undefined_object',
				  HINT = 'SELECT DISTINCT label FROM bench_history lists the labels you can see.';
	END IF;
	IF cardinality(c_ids) = 0 THEN
		RAISE EXCEPTION 'no recorded run has label or run id "%"', candidate
			USING ERRCODE = 'undefined_object',
				  HINT = 'SELECT DISTINCT label FROM bench_history lists the labels you can see.';
	END IF;

	FOR benchmark, target, test, cache, block_size, streams, direct, iodepth, metric,
		baseline_runs, candidate_runs, baseline_value, candidate_value, ratio,
		noise_pct, verdict IN
	WITH measured AS (
		SELECT 'b' AS side, h.* FROM @extschema@.bench_history h WHERE h.run_id = ANY (b_ids)
		UNION ALL
		SELECT 'c' AS side, h.* FROM @extschema@.bench_history h WHERE h.run_id = ANY (c_ids)
	),
	vals AS (
		SELECT m.side, m.benchmark, m.target_kind, m.target, m.test,
			   -- a cold run that was not cold pairs only with its like, unless asked
			   CASE WHEN m.cache = 'cold' AND NOT bench_compare.mix_cold
						 AND coalesce(@extschema@.bench_metric(m.metrics, 'cached_pct'), 0) >= 1
					THEN 'not cold' ELSE m.cache END AS cache,
			   m.block_size, m.streams, m.direct, m.iodepth, k.metric,
			   @extschema@.bench_metric(m.metrics, k.metric) AS value
		FROM measured m
		CROSS JOIN LATERAL unnest(CASE
			WHEN bench_compare.metrics IS NOT NULL THEN bench_compare.metrics
			WHEN m.benchmark IN ('seqscan', 'cluster_seqscan') THEN ARRAY['mb_per_s']
			WHEN m.benchmark = 'query' THEN ARRAY['elapsed_ms']
			WHEN m.benchmark IN ('tablespace_io', 'tablespaces_io', 'cluster_tablespace_io') THEN
				CASE WHEN m.test IN ('seqwrite', 'seqread')
					 THEN ARRAY['mb_per_s', 'lat_p99_us']
					 ELSE ARRAY['iops', 'lat_p99_us'] END
			ELSE ARRAY(SELECT e.key FROM jsonb_each(m.metrics) e
					   WHERE jsonb_typeof(e.value) = 'number' ORDER BY e.key)
		END) AS k(metric)
		WHERE @extschema@.bench_metric(m.metrics, k.metric) IS NOT NULL
	),
	grouped AS (
		SELECT v.side, v.benchmark, v.target_kind, v.target, v.test, v.cache,
			   v.block_size, v.streams, v.direct, v.iodepth, v.metric,
			   count(*)::integer AS n, avg(v.value) AS mean,
			   coalesce(stddev_samp(v.value), 0) AS sd
		FROM vals v
		GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
	),
	sided AS (
		SELECT g.*,
			   count(*) OVER (PARTITION BY g.side, g.benchmark, g.target_kind, g.test,
								  g.cache, g.block_size, g.streams, g.direct, g.iodepth,
								  g.metric) AS ntargets
		FROM grouped g
	),
	pairs AS (
		SELECT b.benchmark, b.test, b.cache, b.block_size, b.streams, b.direct, b.iodepth,
			   b.metric,
			   b.target AS b_target, c.target AS c_target,
			   b.n AS bn, c.n AS cn, b.mean AS bm, c.mean AS cm, b.sd AS bs, c.sd AS cs
		FROM sided b
		JOIN sided c
		  ON b.side = 'b' AND c.side = 'c'
		 AND b.benchmark = c.benchmark AND b.target_kind = c.target_kind
		 AND b.test IS NOT DISTINCT FROM c.test
		 AND b.cache IS NOT DISTINCT FROM c.cache
		 AND b.block_size IS NOT DISTINCT FROM c.block_size
		 AND b.streams IS NOT DISTINCT FROM c.streams
		 AND b.direct IS NOT DISTINCT FROM c.direct
		 AND b.iodepth IS NOT DISTINCT FROM c.iodepth
		 AND b.metric = c.metric
		 AND (b.target IS NOT DISTINCT FROM c.target OR (b.ntargets = 1 AND c.ntargets = 1))
	),
	stats AS (
		SELECT p.*,
			   -- standard error of the difference of the means, and its degrees of freedom
			   CASE WHEN p.bn >= 2 AND p.cn >= 2 THEN sqrt(p.bs ^ 2 / p.bn + p.cs ^ 2 / p.cn)
					WHEN p.bn >= 2 THEN p.bs * sqrt(1.0 / p.bn + 1.0 / p.cn)
					WHEN p.cn >= 2 THEN p.cs * sqrt(1.0 / p.bn + 1.0 / p.cn) END AS se,
			   CASE WHEN p.bn >= 2 AND p.cn >= 2 THEN
						CASE WHEN p.bs = 0 AND p.cs = 0 THEN NULL
							 ELSE (p.bs ^ 2 / p.bn + p.cs ^ 2 / p.cn) ^ 2 /
								  ((p.bs ^ 2 / p.bn) ^ 2 / (p.bn - 1) +
								   (p.cs ^ 2 / p.cn) ^ 2 / (p.cn - 1)) END
					WHEN p.bn >= 2 THEN p.bn - 1
					WHEN p.cn >= 2 THEN p.cn - 1 END AS df,
			   -- lower is better for times and latencies, higher for rates and the rest
			   (p.metric ~ '_per_(s|sec|second)$'
				OR p.metric !~ '(^lat_|latency|elapsed|_(ms|us|ns|s|sec|seconds)$)') AS higher_better
		FROM pairs p
	),
	judged AS (
		SELECT s.*,
			   s.se * CASE WHEN s.df IS NULL OR s.df > 30 THEN 1.96 + 2.4 / coalesce(s.df, 1e9)
						   ELSE t95[greatest(1, floor(s.df)::integer)] END AS half
		FROM stats s
	)
	SELECT j.benchmark,
		   CASE WHEN j.b_target IS NOT DISTINCT FROM j.c_target THEN j.b_target
				ELSE coalesce(j.b_target, '?') || ' / ' || coalesce(j.c_target, '?') END,
		   j.test, j.cache, j.block_size, j.streams, j.direct, j.iodepth, j.metric,
		   j.bn, j.cn,
		   round(j.bm::numeric, 2)::float8,
		   round(j.cm::numeric, 2)::float8,
		   round((j.cm / nullif(j.bm, 0))::numeric, 3)::float8,
		   round((100 * j.half / nullif(abs(j.bm), 0))::numeric, 1)::float8,
		   CASE WHEN j.se IS NULL THEN 'no verdict: one run each'
				WHEN j.se = 0 AND j.cm <> j.bm THEN 'no verdict: no spread'
				WHEN abs(j.cm - j.bm) <= j.half THEN 'within noise'
				WHEN (j.cm > j.bm) = j.higher_better THEN 'better'
				ELSE 'worse' END
	FROM judged j
	ORDER BY j.benchmark, j.b_target, j.c_target,
			 array_position(ARRAY['seqwrite', 'seqread', 'randread', 'randwrite', 'sync'], j.test),
			 j.test, j.cache,
			 CASE WHEN j.block_size ~ '^[0-9]{1,9} ?(bytes|kB|MB|GB)$' THEN pg_size_bytes(j.block_size) END,
			 j.block_size, j.streams, j.direct, j.iodepth, j.metric
	LOOP
		found_any := true;
		RETURN NEXT;
	END LOOP;

	SELECT count(DISTINCT h.run_id) INTO not_cold
	  FROM @extschema@.bench_history h
	 WHERE h.run_id = ANY (b_ids || c_ids) AND h.cache = 'cold'
	   AND coalesce(@extschema@.bench_metric(h.metrics, 'cached_pct'), 0) >= 1;
	IF not_cold > 0 AND NOT mix_cold THEN
		RAISE NOTICE '% of the cold runs compared were not cold: 1 %% or more of their pages were cached', not_cold
			USING DETAIL = 'They are compared only with runs that were not cold either, as cache ''not cold''.',
				  HINT = 'mix_cold => true compares them with the cold runs; bench_history.warnings says what stayed cached.';
	END IF;

	-- figures of different provenance: one side's reads from storage, the
	-- other's from a cache below the server
	WITH p AS (
		SELECT s.side, h.benchmark, h.test, h.served_by
		  FROM (SELECT 'b' AS side, unnest(b_ids) AS id
				UNION ALL SELECT 'c', unnest(c_ids)) s
		  JOIN @extschema@.bench_history h ON h.run_id = s.id
		 WHERE h.served_by IS NOT NULL)
	SELECT string_agg(DISTINCT format('%s (%s: %s, %s: %s)', b.test, baseline, b.served_by,
									  candidate, c.served_by), '; ')
	  INTO mixed
	  FROM p b JOIN p c
		ON b.side = 'b' AND c.side = 'c' AND b.benchmark = c.benchmark
	   AND b.test = c.test AND b.served_by <> c.served_by;
	IF mixed IS NOT NULL THEN
		RAISE WARNING 'the figures compared were read from different places: %', mixed
			USING DETAIL = 'Where one side''s reads were served by a cache below the server and the other''s by storage, the ratio compares a cache with a device.',
				  HINT = 'bench_history.served_by and .warnings give each run''s evidence.';
	END IF;

	IF NOT found_any THEN
		RAISE NOTICE 'nothing to compare: "%" and "%" have no measurement in common', baseline, candidate
			USING HINT = 'Measurements compare when benchmark, test, cache, block size, streams, direct and iodepth agree.';
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_compare(text, text, text[], boolean) IS
'compare two labels (or run ids) measurement by measurement, with a verdict that respects the noise of repeated runs';

--
-- bench_compare_tablespaces and bench_compare_relations: two tablespaces
-- (or two relations, such as the same table on two tablespaces) compared
-- in one call.  Each round measures one, then the other, never both at
-- once, and the one that goes first alternates, so that neither always
-- follows the other's writes or caches.  Every run is recorded under a
-- label per side derived from the call's label; the verdict is
-- bench_compare's, with the ratio's 95 % interval.
--
CREATE OR REPLACE FUNCTION _bench_compare_labels(label text, a text, b text,
									  OUT a_label text, OUT b_label text, OUT base text)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	base := coalesce(label, format('compare %s', to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS')));
	IF current_setting('transaction_read_only')::boolean THEN
		RAISE EXCEPTION 'cannot compare in a read-only transaction'
			USING ERRCODE = 'read_only_sql_transaction',
				  DETAIL = 'Every run of a comparison is recorded in the history, and the verdict is read from it.';
	END IF;
	IF a = b THEN
		RAISE EXCEPTION '"%" is compared with itself', a
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'An A/A comparison (the same thing twice) shows the noise: use bench_tablespace_io or bench_seqscan with repeat, under two labels, and bench_compare.';
	END IF;
	a_label := format('%s: %s', base, a);
	b_label := format('%s: %s', base, b);
	IF octet_length(b_label) > 200 OR octet_length(a_label) > 200 THEN
		RAISE EXCEPTION 'label is too long for a comparison'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('The runs are recorded under "%s: <name>", at most 200 bytes.', base);
	END IF;
	IF EXISTS (SELECT 1 FROM @extschema@.bench_run r WHERE r.label IN (a_label, b_label)) THEN
		RAISE EXCEPTION 'label "%" already holds runs', CASE WHEN EXISTS (SELECT 1 FROM @extschema@.bench_run r WHERE r.label = a_label) THEN a_label ELSE b_label END
			USING ERRCODE = 'duplicate_object',
				  DETAIL = 'A comparison''s verdict covers its own rounds only.',
				  HINT = 'Choose another label, or compare the recorded labels with bench_compare.';
	END IF;
END;
$$;

COMMENT ON FUNCTION _bench_compare_labels(text, text, text) IS
'internal: the labels a comparison records its two sides under, checked';

-- EXECUTE stays with PUBLIC: bench_compare_relations, which anyone may
-- run, calls it as its caller; it records nothing and reads only what
-- bench_run shows the caller.

-- The verdict of a comparison: bench_compare of its two labels, the ratio's
-- 95 % interval (ratio ∓ noise_pct / 100, the low end at 0 at least), and
-- the verdict naming the better side.
CREATE OR REPLACE FUNCTION _bench_compare_sides(a_label text, b_label text, a_name text, b_name text,
									 OUT test text, OUT cache text, OUT metric text,
									 OUT a_value float8, OUT b_value float8, OUT ratio float8,
									 OUT ratio_low float8, OUT ratio_high float8,
									 OUT runs integer, OUT verdict text)
RETURNS SETOF record
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT c.test, c.cache, c.metric, c.baseline_value, c.candidate_value, c.ratio,
		   greatest(0, round((c.ratio - c.noise_pct / 100)::numeric, 3))::float8,
		   round((c.ratio + c.noise_pct / 100)::numeric, 3)::float8,
		   least(c.baseline_runs, c.candidate_runs),
		   CASE c.verdict WHEN 'better' THEN format('%s better', b_name)
						  WHEN 'worse' THEN format('%s better', a_name)
						  ELSE c.verdict END
	  FROM @extschema@.bench_compare(a_label, b_label) c
$$;

COMMENT ON FUNCTION _bench_compare_sides(text, text, text, text) IS
'internal: the verdict of a comparison in one call, from its two labels';

-- EXECUTE stays with PUBLIC, as for _bench_compare_labels: it reads only
-- what bench_compare shows the caller.

CREATE OR REPLACE FUNCTION bench_compare_tablespaces(
	a name,								-- the baseline tablespace
	b name,								-- the candidate
	tests text[] DEFAULT '{seqwrite,seqread,randread}',	-- as bench_tablespace_io
	size text DEFAULT '1GB',			-- file size, pg_size_bytes syntax
	duration interval DEFAULT '10s',	-- cap of the random and sync tests
	iodepth integer DEFAULT 1,			-- operations in flight, 1 .. 256 (io_uring above 1)
	rounds integer DEFAULT 5,			-- runs of each tablespace, 2 .. 100
	label text DEFAULT NULL,			-- runs recorded under '<label>: <a>' and '<label>: <b>'
	block_size text DEFAULT '8kB',		-- bytes per operation
	direct boolean DEFAULT true,		-- O_DIRECT: the storage, not the page cache
	OUT test text,						-- the I/O test
	OUT metric text,					-- what is compared (bench_compare's headline metrics)
	OUT a_value float8,					-- mean over the rounds, on a
	OUT b_value float8,					-- on b
	OUT ratio float8,					-- b / a
	OUT ratio_low float8,				-- the ratio's 95 % interval
	OUT ratio_high float8,
	OUT runs integer,					-- runs on each side (the rounds done)
	OUT verdict text,					-- '<b> better', '<a> better', 'within noise', or no verdict: ...
	OUT a_label text,					-- where the runs are recorded
	OUT b_label text
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	ts_a name := $1;
	ts_b name := $2;
	n integer := $7;
	la text;
	lb text;
	base text;
	first_ts name;
	second_ts name;
	quiet text;
BEGIN
	IF ts_a IS NULL OR ts_b IS NULL OR $3 IS NULL OR $4 IS NULL OR $5 IS NULL OR $6 IS NULL OR n IS NULL OR $9 IS NULL OR $10 IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN ts_a IS NULL THEN 'a' WHEN ts_b IS NULL THEN 'b' WHEN $3 IS NULL THEN 'tests'
				 WHEN $4 IS NULL THEN 'size' WHEN $5 IS NULL THEN 'duration' WHEN $6 IS NULL THEN 'iodepth'
				 WHEN n IS NULL THEN 'rounds' WHEN $9 IS NULL THEN 'block_size' ELSE 'direct' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- both exist before either is measured
	IF NOT EXISTS (SELECT 1 FROM pg_tablespace t WHERE t.spcname = ts_a) THEN
		RAISE EXCEPTION 'tablespace "%" does not exist', ts_a USING ERRCODE = 'undefined_object';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_tablespace t WHERE t.spcname = ts_b) THEN
		RAISE EXCEPTION 'tablespace "%" does not exist', ts_b USING ERRCODE = 'undefined_object';
	END IF;
	IF n < 2 OR n > 100 THEN
		RAISE EXCEPTION 'rounds must be between 2 and 100'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A verdict needs the spread of two rounds at least; five is a good start.';
	END IF;
	SELECT l.a_label, l.b_label, l.base INTO la, lb, base
	  FROM @extschema@._bench_compare_labels($8, ts_a, ts_b) l;

	-- the runs' own notices would repeat every round: the result says it once
	quiet := current_setting('client_min_messages');
	PERFORM set_config('client_min_messages', 'warning', true);
	FOR r IN 1 .. n LOOP
		IF r % 2 = 1 THEN first_ts := ts_a; second_ts := ts_b;
		ELSE first_ts := ts_b; second_ts := ts_a; END IF;
		RAISE DEBUG 'round % of %: % then %', r, n, first_ts, second_ts;
		PERFORM FROM @extschema@.bench_tablespace_io(first_ts, size => $4, block_size => $9, tests => $3,
				streams => 1, direct => $10, duration => $5,
				label => CASE WHEN first_ts = ts_a THEN la ELSE lb END,
				record => true, iodepth => $6, repeat => 1);
		PERFORM FROM @extschema@.bench_tablespace_io(second_ts, size => $4, block_size => $9, tests => $3,
				streams => 1, direct => $10, duration => $5,
				label => CASE WHEN second_ts = ts_a THEN la ELSE lb END,
				record => true, iodepth => $6, repeat => 1);
	END LOOP;
	PERFORM set_config('client_min_messages', quiet, true);

	RETURN QUERY
	SELECT v.test, v.metric, v.a_value, v.b_value, v.ratio, v.ratio_low, v.ratio_high,
		   v.runs, v.verdict, la, lb
	  FROM @extschema@._bench_compare_sides(la, lb, ts_a, ts_b) v;
	RAISE NOTICE 'runs recorded under labels "%" and "%"', la, lb
		USING HINT = format('bench_chart(%L) draws them; bench_compare(%L, %L, metrics => ...) compares other metrics.',
							base || ': %', la, lb);
END;
$$;

COMMENT ON FUNCTION bench_compare_tablespaces(name, name, text[], text, interval, integer, integer, text, text, boolean) IS
'compare two tablespaces test by test, one after the other in alternating rounds, with a verdict and the ratio''s 95 % interval';

CREATE OR REPLACE FUNCTION bench_compare_relations(
	a regclass,							-- the baseline relation
	b regclass,							-- the candidate (the same table on another tablespace, say)
	mode text DEFAULT 'heap',			-- as bench_seqscan
	cache text DEFAULT 'cold',			-- as bench_seqscan
	rounds integer DEFAULT 5,			-- scans of each relation, 2 .. 100
	label text DEFAULT NULL,			-- runs recorded under '<label>: <a>' and '<label>: <b>'
	OUT test text,						-- the scan mode
	OUT cache_state text,				-- warm, cold, or not cold: cold runs that found 1 % or more cached (see bench_compare)
	OUT metric text,
	OUT a_value float8,
	OUT b_value float8,
	OUT ratio float8,					-- b / a
	OUT ratio_low float8,				-- the ratio's 95 % interval
	OUT ratio_high float8,
	OUT runs integer,					-- runs on each side (the rounds done)
	OUT verdict text,					-- '<b> better', '<a> better', 'within noise', or no verdict: ...
	OUT a_label text,
	OUT b_label text
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	rel_a regclass := $1;
	rel_b regclass := $2;
	n integer := $5;
	la text;
	lb text;
	first_rel regclass;
	second_rel regclass;
	quiet text;
BEGIN
	IF rel_a IS NULL OR rel_b IS NULL OR $3 IS NULL OR $4 IS NULL OR n IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN rel_a IS NULL THEN 'a' WHEN rel_b IS NULL THEN 'b' WHEN $3 IS NULL THEN 'mode'
				 WHEN $4 IS NULL THEN 'cache' ELSE 'rounds' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF n < 2 OR n > 100 THEN
		RAISE EXCEPTION 'rounds must be between 2 and 100'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A verdict needs the spread of two rounds at least; five is a good start.';
	END IF;
	SELECT l.a_label, l.b_label INTO la, lb
	  FROM @extschema@._bench_compare_labels($6, rel_a::text, rel_b::text) l;

	-- a cold run's warning would repeat every round: bench_compare says
	-- once which runs were not cold, and cache_state shows it
	quiet := current_setting('client_min_messages');
	PERFORM set_config('client_min_messages', 'error', true);
	FOR r IN 1 .. n LOOP
		IF r % 2 = 1 THEN first_rel := rel_a; second_rel := rel_b;
		ELSE first_rel := rel_b; second_rel := rel_a; END IF;
		PERFORM FROM @extschema@.bench_seqscan(first_rel, mode => $3, cache => $4, repeat => 1,
				label => CASE WHEN first_rel = rel_a THEN la ELSE lb END, record => true);
		PERFORM FROM @extschema@.bench_seqscan(second_rel, mode => $3, cache => $4, repeat => 1,
				label => CASE WHEN second_rel = rel_a THEN la ELSE lb END, record => true);
	END LOOP;
	PERFORM set_config('client_min_messages', quiet, true);

	RETURN QUERY
	SELECT v.test, v.cache, v.metric, v.a_value, v.b_value, v.ratio, v.ratio_low,
		   v.ratio_high, v.runs, v.verdict, la, lb
	  FROM @extschema@._bench_compare_sides(la, lb, rel_a::text, rel_b::text) v;
	RAISE NOTICE 'runs recorded under labels "%" and "%"', la, lb;
END;
$$;

COMMENT ON FUNCTION bench_compare_relations(regclass, regclass, text, text, integer, text) IS
'compare sequential scans of two relations (the same table on two tablespaces, say), one after the other in alternating rounds, with a verdict and the ratio''s 95 % interval';
