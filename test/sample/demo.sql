-- The demo's queries (test/demo.sh runs them on the generated TPC-H-shaped
-- data set, right after a server restart, so shared buffers hold none of
-- it).

-- How big is it, really?  Files now, beside the planner's estimate.
SELECT * FROM bench_relation_sizes();

-- Cold: checkpoint, evict the table's files from the OS page cache, then a
-- sequential heap scan.  blks_read and os_read_mb show it came from storage.
SELECT * FROM bench_seqscan('tpch.lineitem', cache => 'cold');

-- Warm, three times: the OS page cache now holds the table.
SELECT * FROM bench_seqscan('tpch.lineitem', repeat => 3);

-- The same warm scan shared with one parallel worker (two processes), then
-- two: the aggregate rate, and how many workers really ran.
SELECT run, pages, tuples, elapsed_ms, mb_per_s, tuples_per_s, workers_requested, workers_launched
FROM generate_series(0, 2) w, bench_seqscan('tpch.lineitem', repeat => 2, workers => w);

-- The storage rate: the files read directly in 1 MB chunks, like dd.
SELECT * FROM bench_seqscan('tpch.lineitem', 'raw', 'cold');

-- Every block through shared buffers, no tuple work; and an index, raw.
SELECT * FROM bench_seqscan('tpch.lineitem', 'buffer');
SELECT * FROM bench_seqscan('tpch.lineitem_pkey', 'raw', 'cold');

-- How much of the table the OS page cache holds now.
SELECT * FROM bench_cache_status('tpch.lineitem');

-- Any query, timed: cold (every relation it reads evicted first), then warm.
-- A serial plan, as bench_seqscan's: the kernel's counters are then this
-- backend's alone (os_read_mb is NULL when parallel workers run).
SET max_parallel_workers_per_gather = 0;
SELECT run, cache, elapsed_ms, rows, blks_read, os_read_mb, relations, size_mb, mb_per_s,
       workers_planned, workers_launched
FROM unnest(ARRAY['cold', 'warm']) c,
     bench_query('SELECT count(*) FROM tpch.lineitem', cache => c);
RESET max_parallel_workers_per_gather;

-- The storage under the tablespace: dd's write-then-read, random reads and
-- the sync rate (one 8 kB write and fdatasync per commit), O_DIRECT.
SELECT * FROM bench_tablespace_io(size => '128MB', tests => '{seqwrite,seqread,randread,sync}',
                                  duration => '2s');

-- Sustained or a burst: random 4 kB reads sampled every 100 ms, after a
-- ramp of 1 s, until their IOPS stay within 20 % of their mean for 2 s
-- (at most 10 s); the series is drawn as a picture below.
SELECT test, iops, lat_p99_us, steady_state, steady_at_ms, steady_criterion, warnings
FROM bench_tablespace_io(size => '128MB', block_size => '4kB', tests => '{randread}',
                         duration => '10s', sample_interval => '100ms', ramp => '1s',
                         until => 'steady', steady => 'iops:20%', steady_window => '2s',
                         label => 'demo-steady');
