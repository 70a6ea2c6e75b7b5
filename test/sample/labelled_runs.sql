-- The labelled runs of the demo's comparison (test/demo.sh runs this file
-- once per configuration, with psql's -v label=...).  Repeats give
-- bench_compare the spread it needs for a verdict.
\set QUIET on
SELECT count(*) AS scans FROM bench_seqscan('tpch.lineitem', repeat => 5, label => :'label');
SELECT count(*) AS scans FROM bench_seqscan('tpch.lineitem', 'raw', 'cold', repeat => 3, label => :'label');
SELECT count(*) AS tests FROM bench_tablespace_io(size => '64MB', tests => '{seqread,randread}',
												duration => '1s', label => :'label');
SELECT count(*) AS tests FROM bench_tablespace_io(size => '64MB', tests => '{seqread,randread}',
												duration => '1s', label => :'label');
SELECT count(*) AS tests FROM bench_tablespace_io(size => '64MB', tests => '{seqread,randread}',
												duration => '1s', label => :'label');
