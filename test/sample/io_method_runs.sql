-- One io_method's labelled runs (test/demo.sh runs this file once per
-- io_method on PostgreSQL 18, right after a restart under it, with psql's
-- -v label=io-<method>).  Cold heap scans of lineitem and a cold Q6-like
-- query, serial, so that os_read_mb is the kernel's count for the whole call
-- (the I/O workers' reads included under io_method = worker).
\set QUIET on
SET max_parallel_workers_per_gather = 0;
SET search_path = tpch, public;
\set QUIET off
SELECT current_setting('io_method') AS io_method, run, pages, elapsed_ms, mb_per_s,
       blks_read, os_read_mb
FROM bench_seqscan('tpch.lineitem', cache => 'cold', repeat => 5, label => :'label');
SELECT current_setting('io_method') AS io_method, run, elapsed_ms, rows, blks_read, os_read_mb
FROM bench_query($$SELECT sum(l_extendedprice * l_discount) FROM lineitem
                   WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1995-01-01'
                     AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24$$,
                 cache => 'cold', repeat => 5, label => :'label');
