--
-- bench_relation_sizes: sizes agree exactly with pg_relation_size,
-- pg_indexes_size and pg_total_relation_size; partitioned tables are summed
-- over their partitions; largest first.
--
CREATE SCHEMA bs_sizes;
SET search_path = bs_sizes, public;

CREATE TABLE big (id integer PRIMARY KEY, doc text);
INSERT INTO big SELECT g, repeat(md5(g::text), 100) FROM generate_series(1, 3000) g;
CREATE INDEX big_doc_idx ON big (left(doc, 10));
-- big has planner statistics from here on, the others not yet.  (CREATE
-- INDEX used to set them, but from PostgreSQL 18 on it does not when
-- autovacuum is off.)
ANALYZE big;
CREATE TABLE small (id integer);
INSERT INTO small SELECT g FROM generate_series(1, 100) g;
CREATE TABLE empty (id integer);
CREATE TABLE parted (k integer, v text) PARTITION BY RANGE (k);
CREATE TABLE parted_a PARTITION OF parted FOR VALUES FROM (0) TO (5000);
CREATE TABLE parted_b PARTITION OF parted FOR VALUES FROM (5000) TO (10000)
	PARTITION BY HASH (k);
CREATE TABLE parted_b1 PARTITION OF parted_b FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE parted_b2 PARTITION OF parted_b FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE INDEX ON parted (k);
INSERT INTO parted SELECT g, md5(g::text) FROM generate_series(0, 9999) g;
CREATE MATERIALIZED VIEW mv AS SELECT id FROM big;
CREATE VIEW not_listed_view AS SELECT 1;
CREATE SEQUENCE not_listed_seq;

-- Before VACUUM or ANALYZE the planner's figures lag the files: relpages
-- 0 and reltuples NULL (never analyzed), except where CREATE INDEX set them.
SELECT relation, kind, pages > 0 AS has_pages, relpages > 0 AS has_relpages,
	   estimate_mb * 1048576 = relpages * current_setting('block_size')::bigint AS estimate_ok,
	   reltuples
FROM bench_relation_sizes(schema => 'bs_sizes');

VACUUM ANALYZE big, small, empty, parted, mv;

-- One row per table, partitioned table and materialized view, largest
-- main fork first; partitions are summed into their table, not listed.
SELECT relation, kind, tablespace FROM bench_relation_sizes(NULL, 'bs_sizes');

-- Exact agreement with PostgreSQL's own size functions.
WITH members AS (
	SELECT r.relation, coalesce(pt.relid, r.relation) AS member
	FROM bench_relation_sizes(NULL, 'bs_sizes') r
	LEFT JOIN LATERAL pg_partition_tree(r.relation) pt
		ON r.kind = 'partitioned table' AND pt.isleaf
),
expected AS (
	SELECT m.relation,
		   sum(pg_relation_size(m.member)) AS main_bytes,
		   sum(c.relpages) AS relpages,
		   sum(c.reltuples) AS reltuples,
		   sum(CASE WHEN c.reltoastrelid <> 0
					THEN pg_total_relation_size(c.reltoastrelid) ELSE 0 END) AS toast_bytes,
		   sum(pg_indexes_size(m.member)) AS index_bytes,
		   sum(pg_total_relation_size(m.member)) AS total_bytes
	FROM members m JOIN pg_class c ON c.oid = m.member
	GROUP BY m.relation
)
SELECT r.relation,
	   r.pages * current_setting('block_size')::bigint = e.main_bytes AS pages_ok,
	   r.mb * 1048576 = e.main_bytes AS mb_ok,
	   r.relpages = e.relpages AS relpages_ok,
	   r.estimate_mb * 1048576 = e.relpages * current_setting('block_size')::bigint AS estimate_ok,
	   r.reltuples = e.reltuples AS reltuples_ok,
	   r.toast_mb * 1048576 = e.toast_bytes AS toast_ok,
	   r.indexes_mb * 1048576 = e.index_bytes AS indexes_ok,
	   r.total_mb * 1048576 = e.total_bytes AS total_ok,
	   r.toast_mb > 0 AS has_toast,
	   r.indexes_mb > 0 AS has_indexes
FROM bench_relation_sizes(NULL, 'bs_sizes') r JOIN expected e USING (relation)
ORDER BY r.relation::text;

-- toast_mb against PostgreSQL's own split: pg_table_size is the main,
-- free space map, visibility map and init forks plus the TOAST table with
-- its index.
SELECT toast_mb * 1048576 = pg_table_size('big') - pg_relation_size('big', 'main')
	   - pg_relation_size('big', 'fsm') - pg_relation_size('big', 'vm')
	   - pg_relation_size('big', 'init') AS toast_is_table_size_less_forks
FROM bench_relation_sizes(NULL, 'bs_sizes') WHERE relation = 'big'::regclass;
-- For a plain table, total_mb is pg_total_relation_size itself.
SELECT total_mb * 1048576 = pg_total_relation_size('big') AS total_is_pg_total_relation_size,
	   mb * 1048576 = pg_relation_size('big') AS mb_is_pg_relation_size
FROM bench_relation_sizes(NULL, 'bs_sizes') WHERE relation = 'big'::regclass;

-- The planner's figures after VACUUM ANALYZE.
SELECT relation, relpages = pages AS estimate_is_current, reltuples
FROM bench_relation_sizes(NULL, 'bs_sizes') ORDER BY relation::text;

-- Largest first, by the main fork's size now.
SELECT bool_and(ordered) AS largest_first FROM (
	SELECT mb <= lag(mb) OVER (ORDER BY ordinality) OR lag(mb) OVER (ORDER BY ordinality) IS NULL AS ordered
	FROM bench_relation_sizes(NULL, 'bs_sizes') WITH ORDINALITY) s;

-- top limits the rows.
SELECT count(*) FROM bench_relation_sizes(2, 'bs_sizes');
SELECT relation FROM bench_relation_sizes(1, 'bs_sizes');

-- schema => NULL: every schema but the system ones.
SELECT count(*) > 0 AS lists_user_tables,
	   bool_and(n.nspname NOT IN ('pg_catalog', 'information_schema')
				AND n.nspname !~ '^pg_toast') AS no_system_schemas
FROM bench_relation_sizes(NULL) r
JOIN pg_class c ON c.oid = r.relation
JOIN pg_namespace n ON n.oid = c.relnamespace;
-- The default is the ten largest.
SELECT count(*) AS listed,
	   (SELECT count(*) FROM bench_relation_sizes(1000)) > 10 AS more_exist
FROM bench_relation_sizes();

-- Bad input.
SELECT * FROM expect_error($$SELECT * FROM bench_relation_sizes(0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_relation_sizes(-1)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_relation_sizes(5, 'no_such_schema')$$);

RESET search_path;
DROP SCHEMA bs_sizes CASCADE;
