-- The three io_methods side by side (test/demo.sh on PostgreSQL 18): each
-- against sync, the cold scan rate and the query time, then as bars.
SELECT benchmark, test, metric, baseline_value, candidate_value, ratio, noise_pct, verdict
FROM bench_compare('io-sync', 'io-worker');
SELECT benchmark, test, metric, baseline_value, candidate_value, ratio, noise_pct, verdict
FROM bench_compare('io-sync', 'io-io_uring');
SELECT * FROM bench_chart('mb_per_s', label_like => 'io-%', benchmark => 'seqscan', width => 40);
SELECT * FROM bench_chart('elapsed_ms', label_like => 'io-%', benchmark => 'query', width => 40);
-- Which settings each label ran under, from the runs' settings snapshots.
SELECT DISTINCT label, settings ->> 'io_method' AS io_method, settings ->> 'io_workers' AS io_workers,
       settings ->> 'io_combine_limit' AS io_combine_limit,
       settings ->> 'effective_io_concurrency' AS effective_io_concurrency
FROM bench_run WHERE label LIKE 'io-%' ORDER BY 1;
