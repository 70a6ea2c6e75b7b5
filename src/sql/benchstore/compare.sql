-- src/sql/benchstore/compare.sql: bench_compare, bench_compare_tablespaces,
-- bench_compare_relations.

--
-- _bench_t_p: the two-sided p-value of Student's t with df degrees of
-- freedom, df rounded down (which only makes it larger): the probability
-- that |T| reaches |t| when there is no difference.  Exact for integer df
-- by the finite series of Abramowitz and Stegun 26.7.3 and 26.7.4; df is
-- capped at 1000, where t is the normal distribution to four digits.
--
CREATE OR REPLACE FUNCTION _bench_t_p(t float8, df float8)
RETURNS float8
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	nu integer := least(greatest(floor(df), 1), 1000)::integer;
	theta float8 := atan(abs(t) / sqrt(nu));
	c2 float8 := cos(theta) ^ 2;
	term float8 := 1;
	total float8 := 1;
	inside float8;					-- P(|T| < |t|)
BEGIN
	IF nu % 2 = 1 THEN
		-- A = 2/pi (theta + sin cos (1 + 2/3 cos^2 + 2*4/(3*5) cos^4 + ...)), nu - 3 at most
		IF nu = 1 THEN
			inside := 2 / pi() * theta;
		ELSE
			FOR k IN 1 .. (nu - 3) / 2 LOOP
				term := term * c2 * (2 * k) / (2 * k + 1);
				total := total + term;
			END LOOP;
			inside := 2 / pi() * (theta + sin(theta) * cos(theta) * total);
		END IF;
	ELSE
		-- A = sin (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...), nu - 2 at most
		FOR k IN 1 .. (nu - 2) / 2 LOOP
			term := term * c2 * (2 * k - 1) / (2 * k);
			total := total + term;
		END LOOP;
		inside := sin(theta) * total;
	END IF;
	RETURN least(1, greatest(0, 1 - inside));
END;
$$;

COMMENT ON FUNCTION _bench_t_p(float8, float8) IS
'internal: the two-sided p-value of Student''s t, for bench_compare''s verdicts';

-- EXECUTE stays with PUBLIC: bench_compare, which anyone may run, calls it
-- as its caller; it is arithmetic on its arguments.

--
-- bench_compare: two labels (or run ids) compared test by test.  Each row
-- is a result of the benchmark (never one of its inputs: depths, sessions,
-- read counts), with the ratio's noise and a verdict that holds over all
-- the rows of the call: Welch's t-test on the runs of each side, its
-- p-values adjusted by Holm's method over the rows, and a smallest
-- difference that matters (min_difference_pct): "better" or "worse" only
-- where the adjusted p is under 0.05 and the difference is at least that
-- large; "equal within N %" where the ratio's whole 95 % interval lies
-- within it; otherwise "can't tell", with about how many more rounds each
-- side would need.  A cold run that was not cold (cached_pct 1 or more) is
-- compared only with its like, as cache 'not cold', unless asked
-- (mix_cold).
--
CREATE OR REPLACE FUNCTION bench_compare(
	baseline text,					-- a label, or a run id
	candidate text,					-- a label, or a run id
	metrics text[] DEFAULT NULL,	-- metrics to compare; NULL: each test's headline (or every result, details)
	mix_cold boolean DEFAULT false,	-- true: compare cold runs that were not cold with cold ones (1.2)
	min_difference_pct float8 DEFAULT 5,	-- the smallest difference that matters, % of the baseline (1.2)
	details boolean DEFAULT false,	-- every result metric, not only each test's headline (1.2)
	OUT benchmark text,
	OUT target text,				-- 'fast1', or 'fast1 / fast3' when they differ
	OUT test text,					-- I/O test, or scan mode
	OUT cache text,					-- warm, cold, or 'not cold': cold runs with 1 % or more of their pages cached (1.2)
	OUT block_size text,
	OUT streams integer,			-- streams, a scan's processes, or the sessions or clients of a commit or TPC-B run
	OUT direct boolean,
	OUT iodepth integer,			-- operations in flight per stream (tablespace tests, raw scans, random reads' depth)
	OUT metric text,
	OUT baseline_runs integer,		-- measurements averaged
	OUT candidate_runs integer,
	OUT baseline_value float8,		-- mean
	OUT candidate_value float8,		-- mean
	OUT ratio float8,				-- candidate / baseline
	OUT noise_pct float8,			-- half the 95 % interval of the difference, % of the baseline
	OUT p_value float8,				-- Welch's t-test, Holm-adjusted over the call's rows (1.2)
	OUT verdict text				-- better, worse, equal within N %, can't tell: ..., or no verdict: ... (a cache below the server answered, one run each, no spread)
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
	-- a run's inputs, never compared as results
	inputs text[] := '{run,reads,blocks,depth,iodepth,streams,sessions,clients,payload_bytes,scale,workers_requested,workers_launched,workers_planned,pages,size_mb,tuples,rows,cached_pct}';
	delta float8 := min_difference_pct / 100;
	equal_words text := format('equal within %s %%', round(min_difference_pct::numeric, 2)::float8);
	found_any boolean := false;
	not_cold integer;
	mixed text;
BEGIN
	IF mix_cold IS NULL OR details IS NULL OR min_difference_pct IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN mix_cold IS NULL THEN 'mix_cold' WHEN details IS NULL THEN 'details'
				 ELSE 'min_difference_pct' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT (min_difference_pct >= 0 AND min_difference_pct < 100) THEN
		RAISE EXCEPTION 'min_difference_pct must be at least 0 and below 100'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'It is the smallest difference that matters to you, in % of the baseline: 5 says that 4 % faster is as good as equal.';
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
		noise_pct, p_value, verdict IN
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
			   m.block_size,
			   -- the runs' shape, paired on, never graded: a commit or
			   -- TPC-B run's sessions, a random-read run's depth
			   coalesce(m.streams, @extschema@.bench_metric(m.metrics, 'sessions')::integer,
						@extschema@.bench_metric(m.metrics, 'clients')::integer) AS streams,
			   m.direct,
			   coalesce(m.iodepth, @extschema@.bench_metric(m.metrics, 'depth')::integer) AS iodepth,
			   k.metric,
			   @extschema@.bench_metric(m.metrics, k.metric) AS value,
			   m.served_by
		FROM measured m
		CROSS JOIN LATERAL unnest(coalesce(CASE
			WHEN bench_compare.metrics IS NOT NULL THEN bench_compare.metrics
			-- each test's headline result, unless details are asked for
			WHEN bench_compare.details THEN NULL
			WHEN m.benchmark IN ('seqscan', 'cluster_seqscan') THEN ARRAY['mb_per_s']
			WHEN m.benchmark = 'query' THEN ARRAY['elapsed_ms']
			WHEN m.benchmark IN ('tablespace_io', 'tablespaces_io', 'cluster_tablespace_io') THEN
				CASE WHEN m.test IN ('seqwrite', 'seqread') THEN ARRAY['mb_per_s'] ELSE ARRAY['iops'] END
			WHEN m.benchmark IN ('randread', 'cluster_randread') THEN ARRAY['reads_per_s']
			WHEN m.benchmark = 'commit' THEN ARRAY['commits_per_s']
			WHEN m.benchmark IN ('tpcb', 'cluster_tpcb') THEN ARRAY['tps']
		END,
			-- details, and the benchmarks recorded from outside: every result
			ARRAY(SELECT e.key FROM jsonb_each(m.metrics) e
				  WHERE jsonb_typeof(e.value) = 'number' AND e.key <> ALL (inputs)
				  ORDER BY e.key))) AS k(metric)
		WHERE @extschema@.bench_metric(m.metrics, k.metric) IS NOT NULL
	),
	grouped AS (
		SELECT v.side, v.benchmark, v.target_kind, v.target, v.test, v.cache,
			   v.block_size, v.streams, v.direct, v.iodepth, v.metric,
			   count(*)::integer AS n, avg(v.value) AS mean,
			   coalesce(stddev_samp(v.value), 0) AS sd,
			   -- a read a cache below the server answered, in any run
			   coalesce(bool_or(v.served_by = 'cache below'), false) AS below
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
			   b.n AS bn, c.n AS cn, b.mean AS bm, c.mean AS cm, b.sd AS bs, c.sd AS cs,
			   b.below AS b_below, c.below AS c_below
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
						   ELSE t95[greatest(1, floor(s.df)::integer)] END AS half,
			   -- Welch's t-test: how likely a difference this large is from noise alone
			   CASE WHEN s.se > 0 AND s.df IS NOT NULL
					THEN @extschema@._bench_t_p((s.cm - s.bm) / s.se, s.df) END AS p
		FROM stats s
	),
	ranked AS (
		SELECT j.*,
			   count(j.p) OVER () AS m,
			   row_number() OVER (ORDER BY j.p NULLS LAST, j.benchmark, j.b_target, j.c_target,
										   j.test, j.cache, j.block_size, j.streams, j.direct,
										   j.iodepth, j.metric) AS k
		FROM judged j
	),
	-- Holm's step-down adjustment over the call's rows: the chance of one
	-- false "better" or "worse" among them all stays under 5 %
	adjusted AS (
		SELECT r.*,
			   CASE WHEN r.p IS NOT NULL
					THEN least(1, max((r.m - r.k + 1) * r.p)
								  OVER (ORDER BY r.k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW))
			   END AS p_adj,
			   abs(r.cm - r.bm) AS diff,
			   delta * abs(r.bm) AS matters,
			   least(r.bn, r.cn) AS n
		FROM ranked r
	),
	-- the rounds more each side would need: enough to shrink the interval
	-- below the difference seen, widened as Holm's adjustment widens it at
	-- the row's rank (the normal quantile of 2.5 % / (m - k + 1) over that
	-- of 2.5 %, by Abramowitz and Stegun's 26.2.23), or below what is left
	-- of the smallest difference that matters; the interval shrinks with
	-- the square root of the rounds
	widened AS (
		SELECT a.*, sqrt(-2 * ln(0.025 / greatest(a.m - a.k + 1, 1))) AS tt
		FROM adjusted a
	),
	needed AS (
		SELECT w.*,
			   CASE WHEN w.half > 0 AND w.diff >= w.matters THEN
					ceil(w.n * (w.half * (w.tt - (2.515517 + 0.802853 * w.tt + 0.010328 * w.tt ^ 2) /
											 (1 + 1.432788 * w.tt + 0.189269 * w.tt ^ 2 + 0.001308 * w.tt ^ 3)) / 1.96
								/ nullif(w.diff, 0)) ^ 2 - w.n)
					WHEN w.half > 0 THEN
					ceil(w.n * (w.half / nullif(w.matters - w.diff, 0)) ^ 2 - w.n)
			   END AS more
		FROM widened w
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
		   round(j.p_adj::numeric, 4)::float8,
		   -- a figure a cache below the server answered is never a winner
		   CASE WHEN j.b_below OR j.c_below
				THEN format('no verdict: a cache below the server answered %s',
							CASE WHEN j.b_below AND j.c_below THEN 'both sides'
								 WHEN j.b_below THEN 'the baseline' ELSE 'the candidate' END)
				WHEN j.se IS NULL THEN 'no verdict: one run each'
				WHEN j.se = 0 AND j.cm <> j.bm THEN 'no verdict: no spread'
				WHEN j.se = 0 THEN equal_words
				WHEN j.p_adj < 0.05 AND j.diff >= j.matters AND j.diff > 0
				THEN CASE WHEN (j.cm > j.bm) = j.higher_better THEN 'better' ELSE 'worse' END
				WHEN j.diff + j.half <= j.matters THEN equal_words
				WHEN j.more IS NULL OR j.more > 1000
				THEN 'can''t tell: more than 1000 more rounds would be needed'
				ELSE format('can''t tell: about %s more round%s each would', greatest(j.more, 1)::bigint,
							CASE WHEN greatest(j.more, 1) = 1 THEN '' ELSE 's' END) END
	FROM needed j
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

COMMENT ON FUNCTION bench_compare(text, text, text[], boolean, float8, boolean) IS
'compare two labels (or run ids) result by result, with verdicts that hold over all the rows compared and a smallest difference that matters';

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
-- 95 % interval (ratio ∓ noise_pct / 100, the low end at 0 at least), the
-- verdict naming the better side, and where each side's reads came from.
CREATE OR REPLACE FUNCTION _bench_compare_sides(a_label text, b_label text, a_name text, b_name text,
									 OUT test text, OUT cache text, OUT metric text,
									 OUT a_value float8, OUT b_value float8, OUT ratio float8,
									 OUT ratio_low float8, OUT ratio_high float8,
									 OUT runs integer, OUT verdict text,
									 OUT a_served_by text, OUT b_served_by text)
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
						  ELSE c.verdict END,
		   (SELECT string_agg(DISTINCT h.served_by, ', ' ORDER BY h.served_by)
			  FROM @extschema@.bench_history h
			 WHERE h.label = a_label AND h.test IS NOT DISTINCT FROM c.test),
		   (SELECT string_agg(DISTINCT h.served_by, ', ' ORDER BY h.served_by)
			  FROM @extschema@.bench_history h
			 WHERE h.label = b_label AND h.test IS NOT DISTINCT FROM c.test)
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
	OUT verdict text,					-- '<b> better', '<a> better', 'equal within 5 %', 'can''t tell: ...', or 'no verdict: ...'
	OUT a_served_by text,				-- where a's reads came from: storage, cache below (a read test's), or NULL
	OUT b_served_by text,
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
		   v.runs, v.verdict, v.a_served_by, v.b_served_by, la, lb
	  FROM @extschema@._bench_compare_sides(la, lb, ts_a, ts_b) v;
	RAISE NOTICE 'runs recorded under labels "%" and "%"', la, lb
		USING HINT = format('bench_chart(%L) draws them; bench_compare(%L, %L, details => true) compares every result of the runs.',
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
	OUT verdict text,					-- '<b> better', '<a> better', 'equal within 5 %', 'can''t tell: ...', or 'no verdict: ...'
	OUT a_served_by text,				-- where a's cold reads came from: storage, cache below, or NULL
	OUT b_served_by text,
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
		   v.ratio_high, v.runs, v.verdict, v.a_served_by, v.b_served_by, la, lb
	  FROM @extschema@._bench_compare_sides(la, lb, rel_a::text, rel_b::text) v;
	RAISE NOTICE 'runs recorded under labels "%" and "%"', la, lb;
END;
$$;

COMMENT ON FUNCTION bench_compare_relations(regclass, regclass, text, text, integer, text) IS
'compare sequential scans of two relations (the same table on two tablespaces, say), one after the other in alternating rounds, with a verdict and the ratio''s 95 % interval';
