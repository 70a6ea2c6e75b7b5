-- src/sql/benchstore/series.sql: the time series and the pictures: the
-- bench_series view, bench_samples, bench_chart (text and SVG-free) and
-- bench_svg.

--
-- bench_series: every recorded sample with what it is a sample of.
--
CREATE OR REPLACE VIEW bench_series WITH (security_invoker = true) AS
SELECT h.run_id,
	   h.row_no,
	   h.label,
	   h.benchmark,
	   h.target,
	   h.test,
	   h.cache,
	   h.block_size,
	   h.streams,
	   h.iodepth,
	   CASE WHEN @extschema@.bench_metric(h.metrics, 'run') BETWEEN 1::pg_catalog.float8 AND 2147483647::pg_catalog.float8
			THEN @extschema@.bench_metric(h.metrics, 'run')::integer END AS run,
	   s.sample_no,
	   s.start_ms,
	   s.elapsed_ms,
	   s.mb_per_s,
	   s.iops,
	   s.lat_avg_us,
	   s.lat_p50_us,
	   s.lat_p99_us,
	   s.read_mb,
	   s.write_mb,
	   s.hit_mb
FROM @extschema@.bench_history h
JOIN @extschema@.bench_sample s ON s.run_id = h.run_id AND s.row_no = h.row_no;

COMMENT ON VIEW bench_series IS
'every recorded sample of a run''s time series, with the result row it belongs to';

--
-- bench_samples: the time series of the runs a label or run id stands for.
--
CREATE OR REPLACE FUNCTION bench_samples(ref text, test text DEFAULT NULL)
RETURNS SETOF bench_series
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ids bigint[];
BEGIN
	IF ref IS NULL THEN
		RAISE EXCEPTION 'ref cannot be null' USING ERRCODE = 'null_value_not_allowed',
			HINT = 'Pass a label, or a run id.';
	END IF;
	ids := @extschema@.bench_run_ids(ref);
	RETURN QUERY
		SELECT * FROM @extschema@.bench_series s
		WHERE s.run_id = ANY (ids)
		  AND (bench_samples.test IS NULL OR s.test = bench_samples.test)
		ORDER BY s.run_id, s.row_no, s.sample_no;
	IF NOT FOUND THEN
		RAISE NOTICE 'no sample is recorded for "%"', ref
			USING HINT = CASE WHEN cardinality(ids) = 0
							  THEN 'No recorded run has that label or run id.'
							  ELSE 'Runs record a time series from benchstore 1.2 on, unless sample_interval is NULL.' END;
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_samples(text, text) IS
'the recorded time series (one sample per interval) of the runs of a label or run id';

--
-- bench_chart(metric, ...): a recorded metric over the runs of some
-- labels, as text bars (named by iodepth where it differs).
--
CREATE OR REPLACE FUNCTION bench_chart(
	metric text,					-- mb_per_s, iops, lat_p99_us, tps, ...
	label_like text DEFAULT NULL,	-- LIKE pattern on labels; NULL: every run
	benchmark text DEFAULT NULL,	-- only this benchmark
	target text DEFAULT NULL,		-- only this relation or tablespace
	test text DEFAULT NULL,			-- only this test (or scan mode)
	width integer DEFAULT 50,		-- cells of the longest bar, 1 .. 500
	OUT chart text
)
RETURNS SETOF text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	unicode boolean := current_setting('server_encoding') = 'UTF8'
					   AND current_setting('client_encoding') = 'UTF8';
	unit text;
	n integer := 0;
BEGIN
	IF metric IS NULL THEN
		RAISE EXCEPTION 'metric cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF width IS NULL OR width < 1 OR width > 500 THEN
		RAISE EXCEPTION 'width must be between 1 and 500'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;

	unit := CASE WHEN metric = 'mb_per_s' THEN 'MB/s'
				 WHEN metric = 'iops' THEN 'IOPS'
				 WHEN metric = 'tps' THEN 'tps'
				 WHEN metric = 'tuples_per_s' THEN 'tuples/s'
				 WHEN metric ~ '_us$' THEN CASE WHEN unicode THEN chr(181) || 's' ELSE 'us' END
				 WHEN metric ~ '_ms$' THEN 'ms'
				 WHEN metric ~ '_mb$' THEN 'MB'
				 WHEN metric ~ '_per_s$' THEN '/s'
				 ELSE '' END;

	FOR chart IN
	WITH sel AS (
		SELECT coalesce(h.label, 'run ' || h.run_id) AS label, h.started_at,
			   h.benchmark, h.target, h.test, h.cache, h.block_size, h.streams, h.direct,
			   h.iodepth, @extschema@.bench_metric(h.metrics, bench_chart.metric) AS value
		FROM @extschema@.bench_history h
		WHERE (bench_chart.label_like IS NULL OR h.label LIKE bench_chart.label_like)
		  AND (bench_chart.benchmark IS NULL OR h.benchmark = bench_chart.benchmark)
		  AND (bench_chart.target IS NULL OR h.target = bench_chart.target)
		  AND (bench_chart.test IS NULL OR h.test = bench_chart.test)
		  AND @extschema@.bench_metric(h.metrics, bench_chart.metric) IS NOT NULL
	),
	bars AS (
		SELECT s.label, s.benchmark, s.target, s.test, s.cache, s.block_size,
			   s.streams, s.direct, s.iodepth, avg(s.value) AS value,
			   min(s.started_at) AS first_at
		FROM sel s
		GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
	),
	-- name each bar by what differs between the bars
	varies AS (
		SELECT count(DISTINCT b.label) > 1 AS label,
			   count(DISTINCT b.benchmark) > 1 AS benchmark,
			   count(DISTINCT coalesce(b.target, '')) > 1 AS target,
			   count(DISTINCT coalesce(b.test, '')) > 1 AS test,
			   count(DISTINCT coalesce(b.cache, '')) > 1 AS cache,
			   count(DISTINCT coalesce(b.block_size, '')) > 1 AS block_size,
			   count(DISTINCT coalesce(b.streams, 0)) > 1 AS streams,
			   count(DISTINCT coalesce(b.direct::text, '')) > 1 AS direct,
			   count(DISTINCT coalesce(b.iodepth, 0)) > 1 AS iodepth
		FROM bars b
	),
	named AS (
		SELECT b.*,
			   coalesce(nullif(concat_ws(' ',
					CASE WHEN v.label THEN b.label END,
					CASE WHEN v.benchmark THEN b.benchmark END,
					CASE WHEN v.target THEN b.target END,
					CASE WHEN v.test THEN b.test END,
					CASE WHEN v.cache THEN b.cache END,
					CASE WHEN v.block_size THEN b.block_size END,
					CASE WHEN v.streams THEN b.streams ||
						 CASE WHEN b.benchmark LIKE '%seqscan' THEN ' process' ELSE ' stream' END ||
						 CASE WHEN b.streams = 1 THEN ''
							  WHEN b.benchmark LIKE '%seqscan' THEN 'es' ELSE 's' END END,
					CASE WHEN v.direct THEN CASE b.direct WHEN true THEN 'direct' WHEN false THEN 'buffered' END END,
					CASE WHEN v.iodepth AND b.iodepth IS NOT NULL THEN 'depth ' || b.iodepth END),
					''), b.label) AS name,
			   min(b.first_at) OVER (PARTITION BY b.label) AS label_at,
			   max(b.value) OVER () AS top,
			   round(b.value::numeric, 1)::text AS shown
		FROM bars b, varies v
	),
	drawn AS (
		SELECT nb.*,
			   CASE WHEN nb.top > 0 AND nb.value > 0
					THEN greatest(1, round(nb.value / nb.top * width * 8))::integer
					ELSE 0 END AS eighths
		FROM named nb
	)
	SELECT rpad(d.name, max(length(d.name)) OVER ()) || '  ' ||
		   rpad(CASE WHEN unicode
					 THEN repeat(chr(9608), d.eighths / 8) ||
						  CASE WHEN d.eighths % 8 > 0 THEN chr(9616 - d.eighths % 8) ELSE '' END
					 ELSE CASE WHEN d.eighths > 0 AND d.eighths < 4 THEN '.'
							   ELSE repeat('#', round(d.eighths / 8.0)::integer) END
				END, width) || '  ' ||
		   lpad(d.shown, max(length(d.shown)) OVER ()) ||
		   CASE WHEN unit <> '' THEN ' ' || unit ELSE '' END
	FROM drawn d
	ORDER BY d.label_at, d.label, d.benchmark, d.target,
			 array_position(ARRAY['seqwrite', 'seqread', 'randread', 'randwrite', 'sync'], d.test),
			 d.test, d.cache,
			 CASE WHEN d.block_size ~ '^[0-9]{1,9} ?(bytes|kB|MB|GB)$' THEN pg_size_bytes(d.block_size) END,
			 d.block_size, d.iodepth, d.streams, d.direct
	LOOP
		n := n + 1;
		RETURN NEXT;
	END LOOP;

	IF n = 0 THEN
		RAISE NOTICE 'no recorded measurement of "%" matches', metric
			USING HINT = 'The metrics are the keys of bench_history.metrics, such as mb_per_s, iops, lat_p99_us or tps.';
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_chart(text, text, text, text, text, integer) IS
'a recorded metric as horizontal text bars, one line per label (and per test, block size, target, ... where they differ)';

--
-- bench_chart(run_id): a run's time series as text bars, one line per
-- sample, time down the page, one block per result row.
--
CREATE OR REPLACE FUNCTION bench_chart(
	run_id bigint,					-- the run (bench_history.run_id)
	metric text DEFAULT 'mb_per_s',	-- a column of bench_sample: mb_per_s, iops, lat_avg_us, lat_p50_us, lat_p99_us, read_mb, write_mb, hit_mb
	row_no integer DEFAULT NULL,	-- only this result row
	width integer DEFAULT 50,		-- cells of the longest bar, 1 .. 500
	OUT chart text
)
RETURNS SETOF text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	unicode boolean := current_setting('server_encoding') = 'UTF8'
					   AND current_setting('client_encoding') = 'UTF8';
	unit text;
	top float8;
	r record;
	s record;
	n integer := 0;
	eighths integer;
	bar text;
BEGIN
	IF run_id IS NULL OR metric IS NULL THEN
		RAISE EXCEPTION 'run_id and metric cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF width IS NULL OR width < 1 OR width > 500 THEN
		RAISE EXCEPTION 'width must be between 1 and 500'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF metric NOT IN ('mb_per_s', 'iops', 'lat_avg_us', 'lat_p50_us', 'lat_p99_us', 'read_mb', 'write_mb', 'hit_mb') THEN
		RAISE EXCEPTION 'unknown sample metric "%"', metric
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A sample has mb_per_s, iops, lat_avg_us, lat_p50_us, lat_p99_us, read_mb, write_mb and hit_mb.';
	END IF;
	unit := CASE metric WHEN 'mb_per_s' THEN 'MB/s' WHEN 'iops' THEN 'IOPS'
						WHEN 'lat_avg_us' THEN CASE WHEN unicode THEN chr(181) || 's' ELSE 'us' END
						WHEN 'lat_p50_us' THEN CASE WHEN unicode THEN chr(181) || 's' ELSE 'us' END
						WHEN 'lat_p99_us' THEN CASE WHEN unicode THEN chr(181) || 's' ELSE 'us' END
						ELSE 'MB' END;

	SELECT max((pg_catalog.to_jsonb(x) ->> metric)::float8) INTO top
	  FROM @extschema@.bench_sample x
	 WHERE x.run_id = bench_chart.run_id
	   AND (bench_chart.row_no IS NULL OR x.row_no = bench_chart.row_no);

	FOR r IN
		SELECT h.row_no, h.benchmark, h.target, h.test, h.block_size, h.iodepth, h.streams,
			   h.metrics ->> 'run' AS run_no, h.label
		FROM @extschema@.bench_history h
		WHERE h.run_id = bench_chart.run_id
		  AND (bench_chart.row_no IS NULL OR h.row_no = bench_chart.row_no)
		  AND EXISTS (SELECT FROM @extschema@.bench_sample x
					  WHERE x.run_id = h.run_id AND x.row_no = h.row_no)
		ORDER BY h.row_no
	LOOP
		chart := concat_ws(', ', coalesce(r.label, 'run ' || bench_chart.run_id) || ' row ' || r.row_no,
						   r.benchmark, r.target, r.test, r.block_size,
						   CASE WHEN r.iodepth IS NOT NULL THEN 'depth ' || r.iodepth END,
						   CASE WHEN r.streams > 1 THEN r.streams ||
								CASE WHEN r.benchmark LIKE '%seqscan' THEN ' processes' ELSE ' streams' END END,
						   CASE WHEN r.run_no IS NOT NULL THEN 'run ' || r.run_no END) ||
				 ': ' || metric || ' per sample';
		RETURN NEXT;
		FOR s IN
			SELECT x.start_ms, (pg_catalog.to_jsonb(x) ->> metric)::float8 AS value
			FROM @extschema@.bench_sample x
			WHERE x.run_id = bench_chart.run_id AND x.row_no = r.row_no
			ORDER BY x.sample_no
		LOOP
			eighths := CASE WHEN top > 0 AND s.value > 0
							THEN greatest(1, round(s.value / top * width * 8))::integer ELSE 0 END;
			bar := CASE WHEN unicode
						THEN repeat(chr(9608), eighths / 8) ||
							 CASE WHEN eighths % 8 > 0 THEN chr(9616 - eighths % 8) ELSE '' END
						ELSE CASE WHEN eighths > 0 AND eighths < 4 THEN '.'
								  ELSE repeat('#', round(eighths / 8.0)::integer) END END;
			chart := lpad(to_char(s.start_ms / 1000.0, 'FM999999990.0') || ' s', 10) || '  ' ||
					 rpad(bar, width) || '  ' ||
					 coalesce(lpad(round(s.value::numeric, 1)::text, 10) || ' ' || unit, 'unknown');
			n := n + 1;
			RETURN NEXT;
		END LOOP;
	END LOOP;

	IF n = 0 THEN
		RAISE NOTICE 'run % has no recorded sample', run_id
			USING HINT = 'Runs record a time series from benchstore 1.2 on, unless sample_interval is NULL; bench_series lists the recorded samples.';
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_chart(bigint, text, integer, integer) IS
'a run''s time series as text bars, one line per sample, one block per result row';

--
-- bench_svg (1.2): a picture of recorded runs, as a self-contained SVG
-- document (text): a run's time series, a block size × depth sweep, a
-- comparison with its confidence intervals, or a cache probe's knees.
-- psql writes it with \g file.svg (after \pset format unaligned and
-- \pset tuples_only); any browser shows it.  Drawn here, in SQL: no
-- client-side dependency.
--
CREATE OR REPLACE FUNCTION bench_svg(
	run_ids bigint[],				-- the runs (bench_history.run_id); compare: baseline then candidate
	kind text DEFAULT 'series',		-- series, sweep, compare or probe
	metric text DEFAULT NULL,		-- series: a column of bench_sample (mb_per_s); sweep: a figure of the rows (iops); probe: lat_p50_us; compare: bench_compare's headline ones
	width integer DEFAULT 800,		-- pixels, 320 .. 4000
	height integer DEFAULT 420		-- pixels of the plot, 200 .. 4000 (the legend adds to it)
)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	palette text[] := ARRAY['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd',
							'#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
	spec jsonb;					-- {title, subtitle, xlabel, ylabel, xlog, series: [{name, pts}], marks}
	series jsonb := '[]';
	marks jsonb := '[]';
	title text;
	subtitle text;
	xlabel text;
	ylabel text;
	xlog boolean := false;
	unit text;
	r record;
	s jsonb;
	p jsonb;
	svg text;
	nser integer;
	x0 float8 := 72;			-- the plot area
	y0 float8 := 58;
	x1 float8;
	y1 float8;
	xmin float8;
	xmax float8;
	ymin float8;
	ymax float8;
	step float8;
	t float8;
	px float8;
	py float8;
	pts text;
	i integer;
	lbl text;
	total_h integer;
BEGIN
	IF run_ids IS NULL OR kind IS NULL OR width IS NULL OR height IS NULL THEN
		RAISE EXCEPTION 'run_ids, kind, width and height cannot be null'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF cardinality(run_ids) = 0 OR array_position(run_ids, NULL) IS NOT NULL THEN
		RAISE EXCEPTION 'run_ids must list at least one run, and no NULL'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF width NOT BETWEEN 320 AND 4000 OR height NOT BETWEEN 200 AND 4000 THEN
		RAISE EXCEPTION 'width must be between 320 and 4000, height between 200 and 4000'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF kind NOT IN ('series', 'sweep', 'compare', 'probe') THEN
		RAISE EXCEPTION 'unknown kind of picture "%"', kind
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Valid kinds are "series", "sweep", "compare" and "probe".';
	END IF;

	SELECT string_agg(DISTINCT coalesce(h.label, 'run ' || h.run_id) || ': ' || h.benchmark ||
					  CASE WHEN h.target IS NOT NULL THEN ' on ' || h.target ELSE '' END, '; ')
	  INTO subtitle
	  FROM (SELECT DISTINCT ON (b.run_id) b.run_id, b.label, b.benchmark,
				   CASE WHEN b.benchmark IN ('tablespace_io', 'tablespaces_io') THEN r2.target ELSE b.target END AS target
			  FROM @extschema@.bench_history b
			  JOIN @extschema@.bench_run r2 ON r2.run_id = b.run_id
			 WHERE b.run_id = ANY (run_ids)) h;
	IF subtitle IS NULL THEN
		RAISE EXCEPTION 'no recorded run has these run ids'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'bench_history lists the runs you can see.';
	END IF;

	IF kind = 'series' THEN
		metric := coalesce(metric, 'mb_per_s');
		IF metric NOT IN ('mb_per_s', 'iops', 'lat_avg_us', 'lat_p50_us', 'lat_p99_us', 'read_mb', 'write_mb', 'hit_mb') THEN
			RAISE EXCEPTION 'unknown sample metric "%"', metric
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'A sample has mb_per_s, iops, lat_avg_us, lat_p50_us, lat_p99_us, read_mb, write_mb and hit_mb.';
		END IF;
		FOR r IN
			SELECT h.run_id, h.row_no, h.label, h.benchmark, h.target, h.test, h.block_size,
				   h.iodepth, h.metrics ->> 'run' AS run_no,
				   jsonb_agg(jsonb_build_array(round(((x.start_ms + x.elapsed_ms / 2) / 1000)::numeric, 3),
											   pg_catalog.to_jsonb(x) -> metric) ORDER BY x.sample_no)
					 -- finite figures only; and a row's last sample, cut short by
					 -- the test's end (a few operations in a fraction of an
					 -- interval), has no rate worth a point
					 FILTER (WHERE pg_catalog.jsonb_typeof(pg_catalog.to_jsonb(x) -> metric) = 'number'
							 AND (x.sample_no < x.last_no OR x.sample_no = 1
								  OR x.elapsed_ms >= x.before_last / 2)) AS pts,
				   (h.metrics ->> 'steady_at_ms')::float8 AS steady_at_ms
			FROM @extschema@.bench_history h
			JOIN (SELECT s.*, max(s.sample_no) OVER w AS last_no,
						 lag(s.elapsed_ms) OVER (w ORDER BY s.sample_no) AS before_last
				  FROM @extschema@.bench_sample s WHERE s.run_id = ANY (run_ids)
				  WINDOW w AS (PARTITION BY s.run_id, s.row_no)) x
			  ON x.run_id = h.run_id AND x.row_no = h.row_no
			WHERE h.run_id = ANY (run_ids)
			GROUP BY h.run_id, h.row_no, h.label, h.benchmark, h.target, h.test, h.block_size,
					 h.iodepth, h.metrics ->> 'run', h.metrics ->> 'steady_at_ms'
			ORDER BY h.run_id, h.row_no
		LOOP
			CONTINUE WHEN r.pts IS NULL;
			-- where steady state was reached, marked
			IF r.steady_at_ms IS NOT NULL THEN
				marks := marks || jsonb_build_array(jsonb_build_object('x', r.steady_at_ms / 1000,
							 'label', 'steady: ' || r.test || ' at ' || round((r.steady_at_ms / 1000)::numeric, 1) || ' s'));
			END IF;
			series := series || jsonb_build_array(jsonb_build_object(
				'name', concat_ws(' ', 'run ' || r.run_id, r.test, r.block_size,
								  CASE WHEN r.iodepth > 1 THEN 'depth ' || r.iodepth END,
								  r.target,
								  CASE WHEN r.run_no IS NOT NULL AND r.run_no <> '1' THEN 'run ' || r.run_no END),
				'pts', r.pts));
		END LOOP;
		IF jsonb_array_length(series) = 0 THEN
			RAISE EXCEPTION 'no recorded sample of % for these runs', metric
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'Runs record a time series from benchstore 1.2 on, unless sample_interval is NULL; bench_series lists the recorded samples.';
		END IF;
		unit := CASE WHEN metric = 'mb_per_s' THEN 'MB/s' WHEN metric = 'iops' THEN 'operations/s'
					 WHEN metric LIKE 'lat%' THEN 'µs' ELSE 'MB' END;
		title := metric || ' over time';
		xlabel := 'time since the test began, s';
		ylabel := metric || ', ' || unit;

	ELSIF kind = 'sweep' THEN
		metric := coalesce(metric, 'iops');
		FOR r IN
			SELECT h.test, h.block_size, h.target,
				   jsonb_agg(jsonb_build_array(h.iodepth, round(avg_v::numeric, 3)) ORDER BY h.iodepth) AS pts
			FROM (SELECT h.test, h.block_size, h.target, h.iodepth,
						 avg(@extschema@.bench_metric(h.metrics, metric)) AS avg_v
				  FROM @extschema@.bench_history h
				  WHERE h.run_id = ANY (run_ids) AND h.iodepth IS NOT NULL
					AND h.benchmark IN ('tablespace_io', 'tablespaces_io', 'cluster_tablespace_io')
					AND h.block_size ~ '^[0-9]+ ?(bytes|[kMG]B)$'
					AND @extschema@.bench_metric(h.metrics, metric) IS NOT NULL
				  GROUP BY h.test, h.block_size, h.target, h.iodepth) h
			GROUP BY h.test, h.block_size, h.target
			ORDER BY h.test, pg_catalog.pg_size_bytes(h.block_size), h.target
		LOOP
			series := series || jsonb_build_array(jsonb_build_object(
				'name', concat_ws(' ', r.test, r.block_size, r.target), 'pts', r.pts));
		END LOOP;
		IF jsonb_array_length(series) = 0 THEN
			RAISE EXCEPTION 'these runs have no figure % at a queue depth', metric
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'A sweep draws the rows of bench_tablespace_io runs at several block sizes and iodepths.';
		END IF;
		xlog := true;
		title := metric || ' against queue depth, per block size';
		xlabel := 'iodepth (operations in flight per stream)';
		ylabel := metric || CASE WHEN metric = 'mb_per_s' THEN ', MB/s' WHEN metric = 'iops' THEN ', operations/s'
								 WHEN metric LIKE 'lat%' THEN ', µs' ELSE '' END;

	ELSIF kind = 'probe' THEN
		metric := coalesce(metric, 'lat_p50_us');
		FOR r IN
			SELECT jsonb_agg(jsonb_build_array(@extschema@.bench_metric(h.metrics, 'size_mb'),
											   @extschema@.bench_metric(h.metrics, metric))
							 ORDER BY @extschema@.bench_metric(h.metrics, 'size_mb')) AS pts,
				   h.run_id, h.target
			FROM @extschema@.bench_history h
			WHERE h.run_id = ANY (run_ids) AND h.benchmark = 'tablespace_cache_probe'
			  AND @extschema@.bench_metric(h.metrics, metric) IS NOT NULL
			GROUP BY h.run_id, h.target ORDER BY h.run_id
		LOOP
			series := series || jsonb_build_array(jsonb_build_object(
				'name', 'run ' || r.run_id || ' ' || r.target, 'pts', r.pts));
		END LOOP;
		IF jsonb_array_length(series) = 0 THEN
			RAISE EXCEPTION 'these runs have no cache probe with %', metric
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'A probe picture draws the rows of bench_tablespace_cache_probe runs.';
		END IF;
		SELECT coalesce(jsonb_agg(jsonb_build_object('x', @extschema@.bench_metric(h.metrics, 'size_mb'),
						'label', 'knee: cache of about ' || round(@extschema@.bench_metric(h.metrics, 'cache_mb')::numeric) || ' MB')), '[]')
		  INTO marks
		  FROM @extschema@.bench_history h
		 WHERE h.run_id = ANY (run_ids) AND h.benchmark = 'tablespace_cache_probe'
		   AND h.metrics ->> 'knee' IS NOT NULL;
		xlog := true;
		title := metric || ' of random direct reads against the working set';
		xlabel := 'file read at random, MB';
		ylabel := metric || CASE WHEN metric = 'iops' THEN ', operations/s' WHEN metric LIKE 'lat%' THEN ', µs' ELSE '' END;
	END IF;

	-- the texts, escaped for XML
	-- (every text drawn is escaped so, and stripped of the control
	-- characters XML does not allow)
	title := replace(replace(replace(regexp_replace(coalesce(title, 'bench_compare: candidate / baseline, with the 95 % interval'), '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;');
	subtitle := replace(replace(replace(regexp_replace(subtitle, '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;');

	IF kind = 'compare' THEN
		IF cardinality(run_ids) <> 2 THEN
			RAISE EXCEPTION 'a comparison takes two runs: the baseline, then the candidate'
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
		-- one bar per compared figure: the ratio, its interval, the verdict
		SELECT jsonb_agg(jsonb_build_object(
				   'name', replace(replace(replace(regexp_replace(concat_ws(' ', c.test, c.block_size,
							   CASE WHEN c.iodepth > 1 THEN 'depth ' || c.iodepth END,
							   CASE WHEN c.streams > 1 THEN c.streams || ' streams' END,
							   CASE WHEN c.cache = 'cold' THEN 'cold' END,
							   c.target, c.metric),
							   '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'),
							   '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
				   'ratio', c.ratio, 'noise', c.noise_pct, 'verdict', c.verdict)
				   ORDER BY c.benchmark, c.target, c.test, c.block_size, c.metric)
		  INTO series
		  FROM @extschema@.bench_compare(run_ids[1]::text, run_ids[2]::text,
										 CASE WHEN metric IS NOT NULL THEN ARRAY[metric] END) c
		 -- finite ratios only (NaN sorts above Infinity)
		 WHERE c.ratio > 0 AND c.ratio < 'Infinity'::float8
		   AND (c.noise_pct IS NULL OR c.noise_pct < 'Infinity'::float8);
		IF series IS NULL THEN
			RAISE EXCEPTION 'runs % and % have no figure to compare', run_ids[1], run_ids[2]
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'bench_compare pairs the rows that agree on benchmark, test, cache, block size, streams and direct I/O.';
		END IF;
		nser := jsonb_array_length(series);
		total_h := 70 + 26 * nser + 50;
		x0 := 230;
		x1 := width - 60;
		y0 := 62;
		SELECT least(min((e ->> 'ratio')::float8 * (1 - coalesce((e ->> 'noise')::float8, 0) / 100)), 0.9),
			   greatest(max((e ->> 'ratio')::float8 * (1 + coalesce((e ->> 'noise')::float8, 0) / 100)), 1.1)
		  INTO xmin, xmax FROM jsonb_array_elements(series) e;
		step := xmax - xmin;
		t := power(10, floor(log(step / 5)));
		step := t * CASE WHEN step / 5 / t <= 1 THEN 1 WHEN step / 5 / t <= 2 THEN 2 WHEN step / 5 / t <= 5 THEN 5 ELSE 10 END;
		xmin := floor(xmin / step) * step;
		xmax := ceil(xmax / step) * step;
		y1 := y0 + 26 * nser;
		svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">',
					  width, total_h, width, total_h)
			|| format('<rect width="%s" height="%s" fill="#ffffff"/>', width, total_h)
			|| format('<text x="%s" y="22" font-size="16" font-weight="bold">%s</text>', 12, title)
			|| format('<text x="%s" y="40" fill="#555555">%s</text>', 12, subtitle);
		-- the axis: ratio, gridlines, 1.0 marked
		t := xmin;
		WHILE t <= xmax + step / 1000 LOOP
			px := x0 + (t - xmin) / (xmax - xmin) * (x1 - x0);
			svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>', round(px::numeric, 1), y0 - 4, round(px::numeric, 1), y1)
				|| format('<text x="%s" y="%s" text-anchor="middle">%s</text>', round(px::numeric, 1), y1 + 16,
						  rtrim(to_char(t, 'FM9999990.999'), '.'));
			t := t + step;
		END LOOP;
		px := x0 + (1 - xmin) / (xmax - xmin) * (x1 - x0);
		svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="1.5"/>', round(px::numeric, 1), y0 - 6, round(px::numeric, 1), y1)
			|| format('<text x="%s" y="%s" text-anchor="middle">%s</text>', (x0 + x1) / 2, y1 + 36,
					  'candidate / baseline (1 = no change); whiskers: the 95 % interval of the difference');
		i := 0;
		FOR s IN SELECT e FROM jsonb_array_elements(series) e LOOP
			py := y0 + 26 * i + 4;
			t := (s ->> 'ratio')::float8;
			svg := svg || format('<text x="%s" y="%s" text-anchor="end">%s</text>', x0 - 8, round(py::numeric + 13, 1), s ->> 'name')
				|| format('<rect x="%s" y="%s" width="%s" height="18" fill="%s"/>',
						  round((x0 + (least(t, 1) - xmin) / (xmax - xmin) * (x1 - x0))::numeric, 1), round(py::numeric, 1),
						  round((abs(t - 1) / (xmax - xmin) * (x1 - x0))::numeric, 1),
						  CASE WHEN s ->> 'verdict' = 'better' THEN '#2ca02c' WHEN s ->> 'verdict' = 'worse' THEN '#d62728'
							   WHEN s ->> 'verdict' LIKE 'equal within %' THEN '#999999' ELSE '#cccccc' END);
			IF s ->> 'noise' IS NOT NULL THEN
				svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000"/>',
						round((x0 + (t * (1 - (s ->> 'noise')::float8 / 100) - xmin) / (xmax - xmin) * (x1 - x0))::numeric, 1), round(py::numeric + 9, 1),
						round((x0 + (t * (1 + (s ->> 'noise')::float8 / 100) - xmin) / (xmax - xmin) * (x1 - x0))::numeric, 1), round(py::numeric + 9, 1));
			END IF;
			svg := svg || format('<text x="%s" y="%s">%s</text>', round((x0 + (greatest(t, 1) - xmin) / (xmax - xmin) * (x1 - x0))::numeric + 4, 1),
								 round(py::numeric + 13, 1), rtrim(rtrim(to_char(t, 'FM9999990.000'), '0'), '.') || ' ' || (s ->> 'verdict'));
			i := i + 1;
		END LOOP;
		RETURN svg || '</svg>';
	END IF;

	-- a plot: lines and points, on linear or base-2 logarithmic x
	ylabel := replace(replace(replace(regexp_replace(ylabel, '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;');
	xlabel := replace(replace(replace(regexp_replace(xlabel, '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;');
	nser := jsonb_array_length(series);
	total_h := height + 18 * nser + 8;
	x1 := width - 24;
	y1 := height - 56;
	SELECT min((e ->> 0)::float8), max((e ->> 0)::float8), min((e ->> 1)::float8), max((e ->> 1)::float8)
	  INTO xmin, xmax, ymin, ymax
	  FROM jsonb_array_elements(series) s2, jsonb_array_elements(s2 -> 'pts') e;
	SELECT greatest(xmax, max((e ->> 'x')::float8)) INTO xmax FROM jsonb_array_elements(marks) e;
	ymin := least(ymin, 0);
	IF ymax <= ymin THEN
		ymax := ymin + 1;
	END IF;
	step := (ymax - ymin) / 5;
	t := power(10, floor(log(step)));
	step := t * CASE WHEN step / t <= 1 THEN 1 WHEN step / t <= 2 THEN 2 WHEN step / t <= 5 THEN 5 ELSE 10 END;
	ymin := floor(ymin / step) * step;
	ymax := ceil(ymax / step) * step;
	IF xlog THEN
		xmin := power(2, floor(log(2, greatest(xmin, 1e-6)::numeric)));
		xmax := power(2, ceil(log(2, greatest(xmax, 1e-6)::numeric)));
		IF xmax <= xmin THEN
			xmax := xmin * 2;
		END IF;
	ELSE
		xmin := least(xmin, 0);
		IF xmax <= xmin THEN
			xmax := xmin + 1;
		END IF;
	END IF;

	svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">',
				  width, total_h, width, total_h)
		|| format('<rect width="%s" height="%s" fill="#ffffff"/>', width, total_h)
		|| format('<text x="12" y="22" font-size="16" font-weight="bold">%s</text>', title)
		|| format('<text x="12" y="40" fill="#555555">%s</text>', subtitle);

	-- y: gridlines and labels
	t := ymin;
	WHILE t <= ymax + step / 1000 LOOP
		py := y1 - (t - ymin) / (ymax - ymin) * (y1 - y0);
		svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e5e5e5"/>', x0, round(py::numeric, 1), x1, round(py::numeric, 1))
			|| format('<text x="%s" y="%s" text-anchor="end">%s</text>', x0 - 6, round(py::numeric + 4, 1),
					  rtrim(to_char(t, 'FM999999999990.999'), '.'));
		t := t + step;
	END LOOP;
	svg := svg || format('<text transform="translate(16 %s) rotate(-90)" text-anchor="middle">%s</text>',
						 round(((y0 + y1) / 2)::numeric, 1), ylabel);

	-- x: gridlines and labels (powers of two on a log axis)
	IF xlog THEN
		t := xmin;
		WHILE t <= xmax * 1.0001 LOOP
			px := x0 + (log(2, t::numeric) - log(2, xmin::numeric)) / (log(2, xmax::numeric) - log(2, xmin::numeric)) * (x1 - x0);
			svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e5e5e5"/>', round(px::numeric, 1), y0, round(px::numeric, 1), y1)
				|| format('<text x="%s" y="%s" text-anchor="middle">%s</text>', round(px::numeric, 1), y1 + 16,
						  rtrim(to_char(t, 'FM999999999990.999'), '.'));
			t := t * CASE WHEN (log(2, xmax::numeric) - log(2, xmin::numeric)) > 12 THEN 4 ELSE 2 END;
		END LOOP;
	ELSE
		step := (xmax - xmin) / 8;
		t := power(10, floor(log(step)));
		step := t * CASE WHEN step / t <= 1 THEN 1 WHEN step / t <= 2 THEN 2 WHEN step / t <= 5 THEN 5 ELSE 10 END;
		xmax := ceil(xmax / step) * step;
		t := xmin;
		WHILE t <= xmax + step / 1000 LOOP
			px := x0 + (t - xmin) / (xmax - xmin) * (x1 - x0);
			svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e5e5e5"/>', round(px::numeric, 1), y0, round(px::numeric, 1), y1)
				|| format('<text x="%s" y="%s" text-anchor="middle">%s</text>', round(px::numeric, 1), y1 + 16,
						  rtrim(to_char(t, 'FM999999999990.999'), '.'));
			t := t + step;
		END LOOP;
	END IF;
	svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000"/>', x0, y1, x1, y1)
		|| format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000"/>', x0, y0, x0, y1)
		|| format('<text x="%s" y="%s" text-anchor="middle">%s</text>', round(((x0 + x1) / 2)::numeric, 1), y1 + 36, xlabel);

	-- marks: vertical dashed lines with their words (a probe's knees)
	i := 0;
	FOR s IN SELECT e FROM jsonb_array_elements(marks) e LOOP
		t := (s ->> 'x')::float8;
		CONTINUE WHEN t IS NULL OR t < xmin OR t > xmax OR (xlog AND t <= 0);
		px := CASE WHEN xlog THEN x0 + (log(2, t::numeric) - log(2, xmin::numeric)) / (log(2, xmax::numeric) - log(2, xmin::numeric)) * (x1 - x0)
				   ELSE x0 + (t - xmin) / (xmax - xmin) * (x1 - x0) END;
		svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#d62728" stroke-dasharray="5 4"/>', round(px::numeric, 1), y0, round(px::numeric, 1), y1)
			|| format('<text x="%s" y="%s" fill="#d62728" text-anchor="%s">%s</text>',
					  round((px + CASE WHEN px > (x0 + x1) / 2 THEN -4 ELSE 4 END)::numeric, 1), y0 + 14 + 14 * i,
					  CASE WHEN px > (x0 + x1) / 2 THEN 'end' ELSE 'start' END,
					  replace(replace(replace(regexp_replace(s ->> 'label', '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'));
		i := i + 1;
	END LOOP;

	-- the series, each a polyline (and points when few), its legend below
	i := 0;
	FOR s IN SELECT e FROM jsonb_array_elements(series) e LOOP
		SELECT string_agg(format('%s,%s',
				   round((CASE WHEN xlog THEN x0 + (log(2, greatest((q ->> 0)::float8, 1e-6)::numeric) - log(2, xmin::numeric)) / (log(2, xmax::numeric) - log(2, xmin::numeric)) * (x1 - x0)
							   ELSE x0 + ((q ->> 0)::float8 - xmin) / (xmax - xmin) * (x1 - x0) END)::numeric, 1),
				   round((y1 - ((q ->> 1)::float8 - ymin) / (ymax - ymin) * (y1 - y0))::numeric, 1)), ' ' ORDER BY n)
		  INTO pts
		  FROM jsonb_array_elements(s -> 'pts') WITH ORDINALITY AS a(q, n);
		svg := svg || format('<polyline fill="none" stroke="%s" stroke-width="1.8" points="%s"/>',
							 palette[1 + i % 10], pts);
		IF jsonb_array_length(s -> 'pts') <= 60 THEN
			svg := svg || (SELECT string_agg(format('<circle cx="%s" cy="%s" r="2.5" fill="%s"/>',
											 split_part(c, ',', 1), split_part(c, ',', 2), palette[1 + i % 10]), '')
						   FROM unnest(string_to_array(pts, ' ')) c);
		END IF;
		lbl := replace(replace(replace(regexp_replace(s ->> 'name', '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;');
		svg := svg || format('<rect x="%s" y="%s" width="14" height="4" fill="%s"/>', x0, height + 18 * i - 8, palette[1 + i % 10])
			|| format('<text x="%s" y="%s">%s</text>', x0 + 20, height + 18 * i - 2, lbl);
		i := i + 1;
	END LOOP;
	RETURN svg || '</svg>';
END;
$$;

COMMENT ON FUNCTION bench_svg(bigint[], text, text, integer, integer) IS
'a picture of recorded runs as a self-contained SVG: a time series, a block size × depth sweep, a comparison with its intervals, or a cache probe''s knees';
