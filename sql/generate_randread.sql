--
-- generate_randread: bench_generate_randread (1.2), a table whose keys lie
-- in random order in the heap.  Checked: every key 1 .. rows once, in an
-- order unrelated to the heap's and the same for the same seed; rows per
-- page as fillfactor leaves them, the size asked for; row data that does
-- not repeat; its index; replace only of what it made; nothing left after
-- an error or a cancel; and the privileges of a less privileged role.
--
SET client_encoding = 'UTF8';
SET benchstore.progress_interval = 0;
SET client_min_messages = warning;

-- 16 MB at fillfactor 10: one row in each of 2048 pages.
SELECT relation, rows, rows_per_page, pages, mb,
	   pages * current_setting('block_size')::integer = pg_relation_size(relation) AS pages_ok
FROM bench_generate_randread('16MB');
SELECT count(*) AS rows, count(DISTINCT id) AS keys, min(id), max(id),
	   count(DISTINCT (ctid::text::point)[0]) AS pages_holding_rows,
	   min(length(pad)) AS pad_min, max(length(pad)) AS pad_max,
	   count(DISTINCT substr(pad, 1, 16)) = count(*) AS pads_differ,
	   count(DISTINCT substr(pad, 257, 16)) = count(*) AS pad_middles_differ
FROM randread;
-- The keys in random heap order: uncorrelated with the row's place, and
-- the planner's statistics say so (an index scan by key reads at random).
SELECT abs(corr(id, (ctid::text::point)[0])) < 0.1 AS uncorrelated FROM randread;
SELECT abs(correlation) < 0.1 AS planner_sees_it
FROM pg_stats WHERE tablename = 'randread' AND attname = 'id';
SELECT indexrelid::regclass AS index, indisprimary FROM pg_index WHERE indrelid = 'randread'::regclass;
SELECT attname, attstorage FROM pg_attribute
WHERE attrelid = 'randread'::regclass AND attnum > 0 ORDER BY attnum;
SELECT reloptions FROM pg_class WHERE oid = 'randread'::regclass;
-- the same seed, the same order; another seed, another order
CREATE TEMP TABLE first_order AS SELECT ctid AS place, id FROM randread;
SELECT rows FROM bench_generate_randread('16MB', replace => true);
SELECT count(*) AS same_place_same_key FROM randread r JOIN first_order f ON f.place = r.ctid AND f.id = r.id;
SELECT rows FROM bench_generate_randread('16MB', replace => true, seed => 7);
SELECT count(*) < 100 AS another_order FROM randread r JOIN first_order f ON f.place = r.ctid AND f.id = r.id;

-- fillfactor 100 packs the pages: as many rows as fit, the size the same.
SELECT rows, rows_per_page, pages, rows = rows_per_page * pages AS full_pages
FROM bench_generate_randread('4MB', fillfactor => 100, table_name => 'randread_packed');
SELECT max(n) AS rows_per_page_seen, min(n) AS fewest
FROM (SELECT count(*) AS n FROM randread_packed GROUP BY (ctid::text::point)[0]) p;
-- what bench_randread reads on it: every key once in a full pass
SELECT reads, tuples FROM bench_randread('randread_packed', reads => 512, record => false);

-- Errors.
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread(NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('16MB', schema => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('100kB')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('64TB')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('lots')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('1MB', fillfactor => 5)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('1MB', schema => 'no_such_schema')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('1MB', tablespace => 'no_such_tablespace')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('1MB')$$);
-- replace drops only what it generated, as it left it
CREATE TABLE randread_mine (id bigint, pad bytea);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('1MB', table_name => 'randread_mine', replace => true)$$);
VACUUM FULL randread_packed;	-- a new file: not as it was generated
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('1MB', table_name => 'randread_packed', replace => true)$$);
CREATE VIEW randread_v AS SELECT id FROM randread;
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('1MB', replace => true)$$);
SELECT count(*) AS still_there FROM randread_v;
DROP VIEW randread_v;

-- A cancel (here statement_timeout) leaves nothing behind.
\set VERBOSITY terse
SET statement_timeout = '100ms';
SELECT * FROM bench_generate_randread('256MB', table_name => 'randread_cancelled');
RESET statement_timeout;
\set VERBOSITY default
SELECT count(*) AS left_behind FROM pg_class WHERE relname LIKE 'randread_cancelled%';
-- and no file of the database's holds data but a relation's (PostgreSQL
-- empties an aborted relation's first segment, and unlinks it at the next
-- checkpoint)
SELECT count(*) AS orphan_files
FROM (SELECT 'base/' || d.oid AS dir FROM pg_database d WHERE d.datname = current_database()) b,
	 pg_ls_dir(b.dir) f
WHERE f ~ '^\d+(\.\d+)?$' AND (pg_stat_file(b.dir || '/' || f)).size > 0
  AND split_part(f, '.', 1)::oid NOT IN (SELECT pg_relation_filenode(c.oid) FROM pg_class c
										 WHERE pg_relation_filenode(c.oid) IS NOT NULL);

-- A role without CREATE on the schema is refused by PostgreSQL; with it,
-- the table is its own.
CREATE ROLE regress_gen_user;
CREATE SCHEMA gen_s;
SET ROLE regress_gen_user;
SELECT * FROM expect_error($$SELECT * FROM bench_generate_randread('1MB', schema => 'gen_s')$$);
RESET ROLE;
GRANT USAGE, CREATE ON SCHEMA gen_s TO regress_gen_user;
SET ROLE regress_gen_user;
SELECT relation, rows FROM bench_generate_randread('1MB', schema => 'gen_s', table_name => 'Mixed Case');
SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE oid = 'gen_s."Mixed Case"'::regclass;
RESET ROLE;
DROP SCHEMA gen_s CASCADE;
DROP ROLE regress_gen_user;
DROP TABLE randread, randread_packed, randread_mine;
