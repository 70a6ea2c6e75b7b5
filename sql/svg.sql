--
-- svg: bench_svg's pictures (1.2), on runs recorded with known numbers.
-- What is checked is the document's structure and what it says: one SVG
-- element, a polyline per series and a point per sample, the titles, axis
-- labels and legend, text escaped for XML, the bars and intervals of a
-- comparison, a probe's knee; and every error.  (test/t/024_svg.pl
-- renders each kind in Chromium.)
--
SET client_encoding = 'UTF8';

CREATE FUNCTION fake_run(lbl text, bench text, rows jsonb) RETURNS bigint LANGUAGE sql AS $$
	WITH r AS (
		INSERT INTO bench_run (started_at, finished_at, recorded_by, label, benchmark,
							   target_kind, target, arguments, settings)
		VALUES (now(), now(), current_user, lbl, bench, 'tablespace', 'pg_default', '{}', '{}')
		RETURNING run_id),
	x AS (
		INSERT INTO bench_result (run_id, row_no, metrics)
		SELECT r.run_id, e.n, e.m FROM r, jsonb_array_elements(rows) WITH ORDINALITY e(m, n))
	SELECT run_id FROM r
$$;

-- what a picture holds: counts of its elements, and whether it says a text
CREATE FUNCTION svg_parts(svg text, OUT one_document boolean, OUT polylines integer,
						  OUT circles integer, OUT rects integer, OUT texts_closed boolean)
LANGUAGE sql AS $$
	SELECT svg ~ '^<svg xmlns="http://www.w3.org/2000/svg" width="\d+" height="\d+" viewBox="0 0 \d+ \d+"[^>]*>.*</svg>$'
		   AND (SELECT count(*) FROM regexp_matches(svg, '<svg ', 'g')) = 1,
		   (SELECT count(*) FROM regexp_matches(svg, '<polyline ', 'g'))::int,
		   (SELECT count(*) FROM regexp_matches(svg, '<circle ', 'g'))::int,
		   (SELECT count(*) FROM regexp_matches(svg, '<rect ', 'g'))::int,
		   (SELECT count(*) FROM regexp_matches(svg, '<text[ >]', 'g')) =
		   (SELECT count(*) FROM regexp_matches(svg, '</text>', 'g'))
$$;

--
-- series: a polyline per result row with samples, a point per sample
-- (samples at their middle), time on x from 0.
--
CREATE TEMP TABLE runs AS
SELECT fake_run('svg <series> & co', 'tablespace_io',
	'[{"tablespace": "pg_default", "test": "seqread", "block_size": "8kB", "iodepth": 1, "streams": 1, "direct": true, "mb_per_s": 100, "steady_at_ms": 7000},
	  {"tablespace": "pg_default", "test": "randread", "block_size": "8kB", "iodepth": 4, "streams": 1, "direct": true, "mb_per_s": 40}]') AS run_id;
INSERT INTO bench_sample (run_id, row_no, sample_no, start_ms, elapsed_ms, mb_per_s, iops)
SELECT run_id, r, k, (k - 1) * 1000, 1000, CASE r WHEN 1 THEN 90 + k * 2 ELSE 40 END, 128 * (90 + k)
FROM runs, generate_series(1, 2) r, generate_series(1, 10) k;
SELECT p.* FROM runs, svg_parts(bench_svg(ARRAY[run_id])) p;
SELECT bench_svg(ARRAY[run_id]) LIKE '%<text x="12" y="22" font-size="16" font-weight="bold">mb_per_s over time</text>%' AS title,
	   bench_svg(ARRAY[run_id]) LIKE '%>svg &lt;series&gt; &amp; co: tablespace_io on pg_default</text>%' AS subtitle_escaped,
	   bench_svg(ARRAY[run_id]) LIKE '%>time since the test began, s</text>%' AS x_label,
	   bench_svg(ARRAY[run_id]) LIKE '%>mb_per_s, MB/s</text>%' AS y_label,
	   bench_svg(ARRAY[run_id]) LIKE '%>run ' || run_id || ' seqread 8kB pg_default</text>%' AS legend_1,
	   bench_svg(ARRAY[run_id]) LIKE '%>run ' || run_id || ' randread 8kB depth 4 pg_default</text>%' AS legend_2,
	   bench_svg(ARRAY[run_id], metric => 'iops') LIKE '%>iops, operations/s</text>%' AS other_metric,
	   bench_svg(ARRAY[run_id]) LIKE '%stroke-dasharray="5 4"/><text %>steady: seqread at 7.0 s</text>%' AS steady_marked
FROM runs;
-- a last sample cut short by the test's end is not drawn
INSERT INTO bench_sample (run_id, row_no, sample_no, start_ms, elapsed_ms, mb_per_s, iops)
SELECT run_id, 1, 11, 10000, 0.05, 0, 0 FROM runs;
SELECT p.circles FROM runs, svg_parts(bench_svg(ARRAY[run_id])) p;
-- the y axis runs from 0 to a round number over the largest value (110
-- MB/s: 0 .. 150 in steps of 50); x from 0 to 10 s
SELECT bench_svg(ARRAY[run_id]) ~ 'text-anchor="end">150</text>' AS y_top,
	   bench_svg(ARRAY[run_id]) !~ 'text-anchor="end">200</text>' AS not_beyond,
	   bench_svg(ARRAY[run_id]) ~ 'text-anchor="middle">10</text>' AS x_end
FROM runs;

--
-- sweep: a line per block size, iodepth on a base-2 axis.
--
CREATE TEMP TABLE sweep AS
SELECT fake_run('svg-sweep', 'tablespace_io', jsonb_agg(jsonb_build_object(
	'tablespace', 'pg_default', 'test', 'randread', 'block_size', bs, 'iodepth', d, 'streams', 1,
	'direct', true, 'iops', 1000 * d / pg_size_bytes(bs)::float8 * 4096) ORDER BY bs, d)) AS run_id
FROM unnest('{4kB,64kB}'::text[]) bs, unnest('{1,2,4,8}'::int[]) d;
SELECT p.* FROM sweep, svg_parts(bench_svg(ARRAY[run_id], 'sweep')) p;
SELECT bench_svg(ARRAY[run_id], 'sweep') LIKE '%>randread 4kB pg_default</text>%' AS legend_4k,
	   bench_svg(ARRAY[run_id], 'sweep') LIKE '%>randread 64kB pg_default</text>%' AS legend_64k,
	   bench_svg(ARRAY[run_id], 'sweep') LIKE '%text-anchor="middle">8</text>%' AS depth_8
FROM sweep;

--
-- compare: a bar per compared figure from 1, its interval, its verdict.
--
CREATE TEMP TABLE cmp AS
SELECT fake_run('svg-a', 'tablespace_io', jsonb_agg(jsonb_build_object(
	'tablespace', 'pg_default', 'test', 'seqread', 'block_size', '8kB', 'iodepth', 1, 'streams', 1,
	'direct', true, 'run', k, 'mb_per_s', 100 + k, 'lat_p99_us', 300 - k))) AS a,
	   fake_run('svg-b', 'tablespace_io', jsonb_agg(jsonb_build_object(
	'tablespace', 'pg_default', 'test', 'seqread', 'block_size', '8kB', 'iodepth', 1, 'streams', 1,
	'direct', true, 'run', k, 'mb_per_s', 130 + 2 * k, 'lat_p99_us', 300 - k))) AS b
FROM generate_series(1, 3) k;
SELECT p.* FROM cmp, svg_parts(bench_svg(ARRAY[a, b], 'compare')) p;
SELECT bench_svg(ARRAY[a, b], 'compare') LIKE '%>seqread 8kB pg_default mb_per_s</text>%' AS bar_label,
	   bench_svg(ARRAY[a, b], 'compare') LIKE '%>1.314 better</text>%' AS verdict,
	   bench_svg(ARRAY[a, b], 'compare') LIKE '%fill="#2ca02c"%' AS better_in_green,
	   bench_svg(ARRAY[a, b], 'compare', metric => 'lat_p99_us') LIKE '%>1 equal within 5 %</text>%' AS same_p99
FROM cmp;
SELECT metric, ratio, verdict FROM cmp, bench_compare(a::text, b::text) ORDER BY metric;
SELECT metric, ratio, verdict FROM cmp, bench_compare(a::text, b::text, details => true) ORDER BY metric;

--
-- probe: latency against the file's size, the knee marked.
--
CREATE TEMP TABLE probe AS
SELECT fake_run('svg-probe', 'tablespace_cache_probe', jsonb_agg(jsonb_build_object(
	'tablespace', 'pg_default', 'test', 'randread', 'block_size', '8kB', 'iodepth', 1, 'streams', 1,
	'direct', true, 'size_mb', s, 'lat_p50_us', CASE WHEN s <= 256 THEN 20 ELSE 120 END)
	|| CASE WHEN s = 512 THEN '{"knee": "a cache ends", "cache_mb": 256}'::jsonb ELSE '{}' END)) AS run_id
FROM unnest('{16,64,256,512,1024}'::int[]) s;
SELECT p.* FROM probe, svg_parts(bench_svg(ARRAY[run_id], 'probe')) p;
SELECT bench_svg(ARRAY[run_id], 'probe') LIKE '%stroke-dasharray="5 4"/><text %>knee: cache of about 256 MB</text>%' AS knee,
	   bench_svg(ARRAY[run_id], 'probe') LIKE '%>file read at random, MB</text>%' AS x_label
FROM probe;

-- A control character XML forbids is dropped; a probe is no sweep.
UPDATE bench_run SET label = 'svg' || chr(1) || 'probe' WHERE run_id = (SELECT run_id FROM probe);
SELECT bench_svg(ARRAY[run_id], 'probe') ~ '[\x01-\x08]' AS control_kept,
	   bench_svg(ARRAY[run_id], 'probe') LIKE '%>svgprobe: tablespace_cache_probe on pg_default</text>%' AS subtitle
FROM probe;
SELECT * FROM expect_error(format('SELECT bench_svg(ARRAY[%s], %L)', (SELECT run_id FROM probe), 'sweep'));

--
-- Errors.
--
SELECT * FROM expect_error($$SELECT bench_svg(NULL)$$);
SELECT * FROM expect_error($$SELECT bench_svg('{}')$$);
SELECT * FROM expect_error($$SELECT bench_svg('{1,NULL}')$$);
SELECT * FROM expect_error($$SELECT bench_svg('{1}', 'pie')$$);
SELECT * FROM expect_error($$SELECT bench_svg('{1}', width => 10)$$);
SELECT * FROM expect_error(format('SELECT bench_svg(ARRAY[%s], metric => %L)', (SELECT run_id FROM runs), 'tps'));
SELECT * FROM expect_error($$SELECT bench_svg('{999999}')$$);
SELECT * FROM expect_error(format('SELECT bench_svg(ARRAY[%s])', (SELECT run_id FROM sweep)));
SELECT * FROM expect_error(format('SELECT bench_svg(ARRAY[%s], %L)', (SELECT run_id FROM runs), 'probe'));
SELECT * FROM expect_error(format('SELECT bench_svg(ARRAY[%s], %L)', (SELECT a FROM cmp), 'compare'));

-- Anyone may draw, as anyone reads the history: the same picture.
SELECT run_id AS series_run, md5(bench_svg(ARRAY[run_id])) AS series_md5 FROM runs \gset
CREATE ROLE regress_svg_reader;
SET ROLE regress_svg_reader;
SELECT md5(bench_svg(ARRAY[:series_run])) = :'series_md5' AS same_picture;
SELECT * FROM expect_error($$INSERT INTO bench_sample VALUES (1, 1, 1, 0, 1)$$);
RESET ROLE;
DROP ROLE regress_svg_reader;

-- The history is left as it was found.
DELETE FROM bench_run WHERE label LIKE 'svg%';
