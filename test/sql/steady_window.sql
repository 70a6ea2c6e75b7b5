--
-- first_steady_window: a steady-state verdict worked out again in SQL
-- from a run's recorded samples, as src/steady.c judges it (fio's ss=),
-- for the regression tests of every benchmark that takes a criterion
-- (steady, commit, tpcb).  Loaded by setup.sql.
--
-- The end of the first window of n samples of a row (none starting inside
-- the ramp, the last not a short one) over which every criterion holds:
-- each sample within limit % of the window's mean, or the least-squares
-- slope per sample within limit % of it.  NULL: none holds.
CREATE FUNCTION first_steady_window(p_run bigint, p_row integer, crit text[],
									n integer, ramp_ms float8, interval_ms float8)
RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	w record;
	c text;
	metric text;
	lim float8;
	ys float8[];
	mean float8;
	dev float8;
	ok boolean;
BEGIN
	FOR w IN SELECT s.sample_no, s.start_ms, s.elapsed_ms FROM bench_sample s
			 WHERE s.run_id = p_run AND s.row_no = p_row AND s.sample_no >= n
			 ORDER BY s.sample_no
	LOOP
		CONTINUE WHEN (SELECT s.start_ms + 0.001 < ramp_ms FROM bench_sample s
					   WHERE s.run_id = p_run AND s.row_no = p_row
						 AND s.sample_no = w.sample_no - n + 1);
		CONTINUE WHEN w.elapsed_ms < 0.5 * interval_ms;
		ok := true;
		FOREACH c IN ARRAY crit LOOP
			metric := split_part(c, ':', 1);
			lim := rtrim(split_part(c, ':', 2), '%')::float8;
			SELECT array_agg(CASE replace(metric, '_slope', '') WHEN 'iops' THEN s.iops
								 WHEN 'bw' THEN s.mb_per_s ELSE s.lat_avg_us END
							 ORDER BY s.sample_no) INTO ys
			FROM bench_sample s
			WHERE s.run_id = p_run AND s.row_no = p_row
			  AND s.sample_no BETWEEN w.sample_no - n + 1 AND w.sample_no;
			SELECT avg(y) INTO mean FROM unnest(ys) y;
			IF metric LIKE '%\_slope' THEN
				SELECT 100 * abs(regr_slope(y, i - 1)) / mean INTO dev
				FROM unnest(ys) WITH ORDINALITY u(y, i);
			ELSE
				SELECT 100 * max(abs(y - mean)) / mean INTO dev FROM unnest(ys) y;
			END IF;
			ok := ok AND mean > 0 AND dev < lim;
		END LOOP;
		IF ok THEN
			RETURN round((w.start_ms + w.elapsed_ms)::numeric, 3)::float8;
		END IF;
	END LOOP;
	RETURN NULL;
END;
$$;
