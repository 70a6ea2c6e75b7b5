-- The end of the demo's comparison: the two labels side by side, charts,
-- and a run as JSON.

-- Each test's headline result, with a verdict that holds over all the
-- rows (details => true compares every result the runs recorded).
SELECT benchmark, test, cache, metric, baseline_runs AS b_n, candidate_runs AS c_n,
	   baseline_value, candidate_value, ratio, noise_pct, verdict
FROM bench_compare('sb128MB', 'sb16MB');

-- The heap scan rate and bench_tpcb's tps of both configurations, as bars.
SELECT * FROM bench_chart('mb_per_s', label_like => 'sb%', benchmark => 'seqscan');
SELECT * FROM bench_chart('tps', width => 40);

-- What was recorded about the last run: arguments and the settings snapshot.
SELECT jsonb_pretty(bench_run_json(max(run_id) FILTER (WHERE benchmark = 'tablespace_io')) - 'results')
FROM bench_run;

-- The whole history as CSV, for a spreadsheet (first lines only here).
COPY (SELECT run_id, label, benchmark, target, test, cache, block_size, mb_per_s, iops, tps
	  FROM bench_history ORDER BY run_id, row_no LIMIT 8) TO STDOUT WITH CSV HEADER;
