-- outside_clock(stmt): the time around a call, measured outside it, beside
-- the elapsed_ms its rows add up to: what a run reports can never exceed
-- the call's time.  Loaded by sql/setup.sql (pg_regress) and by the TAP
-- tests that compare a scan's clock with the call's.
CREATE FUNCTION outside_clock(stmt text, OUT outside_ms float8, OUT inside_ms float8)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
BEGIN
	t0 := clock_timestamp();
	EXECUTE 'SELECT sum(elapsed_ms) FROM (' || stmt || ') s' INTO inside_ms;
	outside_ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
END;
$$;
