--
-- bench_generate_tpch: a TPC-H-shaped data set at scale 0.001: row counts
-- in TPC-H's proportions, key integrity, value domains, the fractions of
-- rows TPC-H's queries select, determinism (the same content every time,
-- pinned by md5), the replace rule, privileges and every error path.
-- No timings and no NOTICEs (the load reports its progress in NOTICEs).
--
SET client_min_messages = warning;
SET datestyle = 'ISO, YMD';		-- the md5s below are of the rows' text

-- What it returns: one row per table, in load order; the sizes are the
-- files'.
CREATE TEMP TABLE tpch_result AS
SELECT * FROM bench_generate_tpch(0.001);
SELECT relation, rows,
	   mb = pg_relation_size(relation) / 1048576.0 AS mb_is_file_size,
	   indexes_mb = pg_indexes_size(relation) / 1048576.0 AS indexes_mb_is_files,
	   mb > 0 AS has_rows_on_disk, elapsed_ms >= 0 AS has_time
FROM tpch_result;

-- The schema, marked as generated, and the tables' primary keys.
SELECT obj_description('tpch'::regnamespace, 'pg_namespace');
-- PostgreSQL 18 also lists each NOT NULL as a constraint (contype 'n');
-- those are left out here and checked, on every version, through
-- attnotnull just below.
SELECT conrelid::regclass AS relation, pg_get_constraintdef(oid) AS primary_key
FROM pg_constraint
WHERE connamespace = 'tpch'::regnamespace AND contype <> 'n'
ORDER BY conrelid::regclass::text;
-- Every column of every table is NOT NULL, as in TPC-H.
SELECT count(*) AS columns, count(*) FILTER (WHERE NOT a.attnotnull) AS nullable
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.relnamespace = 'tpch'::regnamespace AND c.relkind = 'r'
  AND a.attnum > 0 AND NOT a.attisdropped;
-- The TPC-H column types.
SELECT c.relname, string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum) AS columns
FROM pg_class c
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE c.relnamespace = 'tpch'::regnamespace AND c.relkind = 'r'
GROUP BY c.relname
ORDER BY c.relname;

SET search_path = tpch, public;

-- Row counts: 5 regions, 25 nations, the rest scale * TPC-H's SF 1 counts
-- (partsupp 4 per part, orders 10 per customer, lineitem 1 .. 7 per
-- order, 4 on average).
SELECT (SELECT count(*) FROM region) AS region,
	   (SELECT count(*) FROM nation) AS nation,
	   (SELECT count(*) FROM supplier) = 10000 * 0.001 AS supplier,
	   (SELECT count(*) FROM customer) = 150000 * 0.001 AS customer,
	   (SELECT count(*) FROM part) = 200000 * 0.001 AS part,
	   (SELECT count(*) FROM partsupp) = 4 * (SELECT count(*) FROM part) AS partsupp,
	   (SELECT count(*) FROM orders) = 1500000 * 0.001 AS orders,
	   (SELECT count(*) FROM lineitem) AS lineitem,
	   (SELECT count(*) FROM lineitem) BETWEEN 0.95 * 4 * 1500 AND 1.05 * 4 * 1500 AS lineitem_about_4_per_order;
SELECT lines, count(*) AS orders
FROM (SELECT count(*) AS lines FROM lineitem GROUP BY l_orderkey) o
GROUP BY lines ORDER BY lines;

-- Key integrity: no orphans anywhere.
SELECT (SELECT count(*) FROM lineitem l WHERE NOT EXISTS
		(SELECT 1 FROM orders o WHERE o.o_orderkey = l.l_orderkey)) AS lines_without_order,
	   (SELECT count(*) FROM orders o WHERE NOT EXISTS
		(SELECT 1 FROM lineitem l WHERE l.l_orderkey = o.o_orderkey)) AS orders_without_lines,
	   (SELECT count(*) FROM lineitem l WHERE NOT EXISTS
		(SELECT 1 FROM part p WHERE p.p_partkey = l.l_partkey)) AS lines_without_part,
	   (SELECT count(*) FROM lineitem l WHERE NOT EXISTS
		(SELECT 1 FROM partsupp ps WHERE ps.ps_partkey = l.l_partkey
									 AND ps.ps_suppkey = l.l_suppkey)) AS lines_without_partsupp,
	   (SELECT count(*) FROM partsupp ps WHERE NOT EXISTS
		(SELECT 1 FROM supplier s WHERE s.s_suppkey = ps.ps_suppkey)) AS partsupp_without_supplier,
	   (SELECT count(*) FROM orders o WHERE NOT EXISTS
		(SELECT 1 FROM customer c WHERE c.c_custkey = o.o_custkey)) AS orders_without_customer,
	   (SELECT count(*) FROM customer c WHERE NOT EXISTS
		(SELECT 1 FROM nation n WHERE n.n_nationkey = c.c_nationkey)) AS customers_without_nation,
	   (SELECT count(*) FROM supplier s WHERE NOT EXISTS
		(SELECT 1 FROM nation n WHERE n.n_nationkey = s.s_nationkey)) AS suppliers_without_nation;
-- Every part has four different suppliers; every supplier serves parts
-- (about 4 * parts / suppliers = 80 of them).
SELECT count(*) AS parts, min(n) AS min_suppliers, max(n) AS max_suppliers
FROM (SELECT count(DISTINCT ps_suppkey) AS n FROM partsupp GROUP BY ps_partkey) p;
SELECT count(*) AS suppliers, min(n) AS min_parts, max(n) AS max_parts
FROM (SELECT count(*) AS n FROM partsupp GROUP BY ps_suppkey) s;
-- Order keys: 8 of every 32 used, as in TPC-H; no customer whose key is a
-- multiple of 3 has orders.
SELECT count(*) FILTER (WHERE (o_orderkey - 1) % 32 >= 8) AS keys_outside_pattern,
	   max(o_orderkey) AS max_orderkey,
	   count(*) FILTER (WHERE o_custkey % 3 = 0) AS orders_of_third_customers,
	   count(DISTINCT o_custkey) AS customers_with_orders
FROM orders;

-- The fixed tables.
SELECT r_regionkey, r_name FROM region ORDER BY 1;
SELECT r_name, string_agg(rtrim(n_name), ', ' ORDER BY n_nationkey) AS nations
FROM nation JOIN region ON r_regionkey = n_regionkey
GROUP BY r_regionkey, r_name ORDER BY r_regionkey;

-- Domains.
SELECT count(DISTINCT p_brand) AS brands, min(p_brand), max(p_brand),
	   bool_and(substr(p_brand, 7, 1) = substr(p_mfgr, 14, 1)) AS brand_of_mfgr,
	   count(DISTINCT p_container) AS containers,
	   count(DISTINCT p_type) <= 150 AS types_of_150,
	   bool_and(p_type ~ '^(STANDARD|SMALL|MEDIUM|LARGE|ECONOMY|PROMO) (ANODIZED|BURNISHED|PLATED|POLISHED|BRUSHED) (TIN|NICKEL|BRASS|STEEL|COPPER)$') AS types_ok,
	   bool_and(p_container ~ '^(SM|LG|MED|JUMBO|WRAP) (CASE|BOX|BAG|JAR|PKG|PACK|CAN|DRUM) *$') AS containers_ok,
	   min(p_size), max(p_size),
	   bool_and(p_retailprice = (90000 + (p_partkey / 10) % 20001 + 100 * (p_partkey % 1000)) / 100.0) AS tpch_retail_price,
	   bool_and(array_length(regexp_split_to_array(p_name, ' '), 1) = 5) AS five_colours,
	   bool_and((SELECT count(DISTINCT c) FROM unnest(regexp_split_to_array(p_name, ' ')) c) = 5) AS colours_differ
FROM part;
SELECT array_agg(DISTINCT rtrim(l_shipmode) ORDER BY rtrim(l_shipmode)) AS ship_modes,
	   array_agg(DISTINCT rtrim(l_shipinstruct) ORDER BY rtrim(l_shipinstruct)) AS ship_instructions,
	   min(l_quantity), max(l_quantity), min(l_discount), max(l_discount), min(l_tax), max(l_tax),
	   bool_and(l_linenumber BETWEEN 1 AND 7) AS linenumbers_ok
FROM lineitem;
SELECT array_agg(DISTINCT rtrim(c_mktsegment) ORDER BY rtrim(c_mktsegment)) AS segments,
	   min(c_acctbal) >= -999.99 AND max(c_acctbal) <= 9999.99 AS c_acctbal_ok,
	   bool_and(c_phone ~ '^[0-9]{2}-[0-9]{3}-[0-9]{3}-[0-9]{4}$'
				AND substr(c_phone, 1, 2)::integer = c_nationkey + 10) AS c_phone_ok,
	   bool_and(c_name = 'Customer#' || lpad(c_custkey::text, 9, '0')) AS c_name_ok,
	   bool_and(length(c_address) BETWEEN 10 AND 40) AS c_address_ok
FROM customer;
SELECT min(s_acctbal) >= -999.99 AND max(s_acctbal) <= 9999.99 AS s_acctbal_ok,
	   bool_and(s_phone ~ '^[0-9]{2}-[0-9]{3}-[0-9]{3}-[0-9]{4}$'
				AND substr(s_phone, 1, 2)::integer = s_nationkey + 10) AS s_phone_ok,
	   bool_and(s_name = 'Supplier#' || lpad(s_suppkey::text, 9, '0')) AS s_name_ok
FROM supplier;
SELECT min(ps_supplycost) >= 1.00 AND max(ps_supplycost) <= 1000.00 AS supplycost_ok,
	   min(ps_availqty) >= 1 AND max(ps_availqty) <= 9999 AS availqty_ok
FROM partsupp;
SELECT array_agg(DISTINCT rtrim(o_orderpriority) ORDER BY rtrim(o_orderpriority)) AS priorities,
	   min(o_orderdate) >= date '1992-01-01' AND max(o_orderdate) <= date '1998-08-02' AS orderdate_ok,
	   bool_and(o_shippriority = 0) AS shippriority_ok,
	   bool_and(o_clerk ~ '^Clerk#0{8}1 *$') AS one_clerk_at_this_scale
FROM orders;
-- Comments: lengths within TPC-H's ranges (they are cut from a text pool).
SELECT min(length(l_comment)) >= 9 AND max(length(l_comment)) <= 43 AS l_comment_ok,
	   min(length(o_comment)) >= 18 AND max(length(o_comment)) <= 78 AS o_comment_ok
FROM lineitem JOIN orders ON o_orderkey = l_orderkey;

-- The rules between columns: dates of a line from its order's date, flags
-- from TPC-H's current date (1995-06-17), prices from the part's, the
-- order's total and status from its lines.
SELECT count(*) FILTER (WHERE l_shipdate - o_orderdate NOT BETWEEN 1 AND 121) AS bad_shipdate,
	   count(*) FILTER (WHERE l_commitdate - o_orderdate NOT BETWEEN 30 AND 90) AS bad_commitdate,
	   count(*) FILTER (WHERE l_receiptdate - l_shipdate NOT BETWEEN 1 AND 30) AS bad_receiptdate,
	   count(*) FILTER (WHERE l_returnflag <> CASE WHEN l_receiptdate > date '1995-06-17' THEN 'N'
												  ELSE l_returnflag END
						   OR (l_receiptdate <= date '1995-06-17' AND l_returnflag NOT IN ('R', 'A'))) AS bad_returnflag,
	   count(*) FILTER (WHERE l_linestatus <> CASE WHEN l_shipdate > date '1995-06-17' THEN 'O' ELSE 'F' END) AS bad_linestatus,
	   count(*) FILTER (WHERE l_extendedprice <> l_quantity * p_retailprice) AS bad_extendedprice
FROM lineitem
JOIN orders ON o_orderkey = l_orderkey
JOIN part ON p_partkey = l_partkey;
SELECT count(*) FILTER (WHERE o_totalprice <> t.total) AS bad_totalprice,
	   count(*) FILTER (WHERE o_orderstatus <> t.status) AS bad_orderstatus
FROM orders
JOIN (SELECT l_orderkey,
			 round(sum(l_extendedprice * (1 + l_tax) * (1 - l_discount)), 2) AS total,
			 CASE WHEN bool_and(l_linestatus = 'F') THEN 'F'
				  WHEN bool_and(l_linestatus = 'O') THEN 'O' ELSE 'P' END AS status
	  FROM lineitem GROUP BY l_orderkey) t ON t.l_orderkey = o_orderkey;

-- The fractions TPC-H's queries select (TPC-H's own answers at SF 1 give
-- Q1 98.6 %, its four groups 24.6 / 0.6 / 48.7 / 24.6 %; Q6 about 1.9 %;
-- order status F / O / P 48.7 / 48.8 / 2.6 %), each within a band.
SELECT l_returnflag, l_linestatus,
	   round(100.0 * count(*) / (SELECT count(*) FROM lineitem), 1) AS pct
FROM lineitem
WHERE l_shipdate <= date '1998-12-01' - interval '90' day
GROUP BY 1, 2 ORDER BY 1, 2;
SELECT count(*) FILTER (WHERE l_shipdate <= date '1998-12-01' - interval '90' day)::float8 / count(*)
		   BETWEEN 0.97 AND 0.995 AS q1_fraction_ok,
	   count(*) FILTER (WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1995-01-01'
						  AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24)::float8 / count(*)
		   BETWEEN 0.012 AND 0.027 AS q6_fraction_ok
FROM lineitem;
SELECT o_orderstatus, round(100.0 * count(*) / (SELECT count(*) FROM orders), 1) AS pct
FROM orders GROUP BY 1 ORDER BY 1;
-- Q19's predicates: on lineitem, the ship mode (AIR: 1/7; TPC-H's data
-- has no 'AIR REG', only 'REG AIR'), the instruction (1/4) and the
-- quantity ranges; on part, three brands (1/25 each), the containers of
-- each group (4 of 40) and sizes 1 .. 5, 10, 15 (of 50).
SELECT count(*) FILTER (WHERE l_shipmode IN ('AIR', 'AIR REG'))::float8 / count(*) BETWEEN 0.11 AND 0.175 AS air_ok,
	   count(*) FILTER (WHERE l_shipinstruct = 'DELIVER IN PERSON')::float8 / count(*) BETWEEN 0.21 AND 0.29 AS deliver_in_person_ok,
	   count(*) FILTER (WHERE l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON'
						  AND l_quantity BETWEEN 1 AND 30)::float8 / count(*)
		   BETWEEN 0.014 AND 0.03 AS q19_line_predicates_ok
FROM lineitem;
SELECT count(*) FILTER (WHERE p_brand IN ('Brand#12', 'Brand#23', 'Brand#34'))::float8 / count(*)
		   BETWEEN 0.06 AND 0.2 AS q19_brands_ok,
	   count(*) FILTER (WHERE p_container IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG',
											  'MED BAG', 'MED BOX', 'MED PKG', 'MED PACK',
											  'LG CASE', 'LG BOX', 'LG PACK', 'LG PKG'))::float8 / count(*)
		   BETWEEN 0.2 AND 0.4 AS q19_containers_ok,
	   count(*) FILTER (WHERE p_size <= 15)::float8 / count(*) BETWEEN 0.2 AND 0.4 AS q19_sizes_ok,
	   count(*) FILTER (WHERE p_type LIKE '%BRASS')::float8 / count(*) BETWEEN 0.12 AND 0.28 AS q2_brass_ok
FROM part;
-- Q2's correlated minimum is over a part's suppliers in one region: each
-- part has four, in nations drawn independently (at this scale, from only
-- 10 suppliers), so parts have suppliers in several regions, some two.
SELECT r_name, count(DISTINCT s_suppkey) AS suppliers,
	   count(DISTINCT ps_partkey) AS parts_supplied,
	   (SELECT count(*)
		FROM (SELECT ps2.ps_partkey
			  FROM partsupp ps2
			  JOIN supplier s2 ON s2.s_suppkey = ps2.ps_suppkey
			  JOIN nation n2 ON n2.n_nationkey = s2.s_nationkey
			  WHERE n2.n_regionkey = r_regionkey
			  GROUP BY ps2.ps_partkey HAVING count(*) >= 2) p2) AS parts_supplied_twice
FROM region
LEFT JOIN nation ON n_regionkey = r_regionkey
LEFT JOIN supplier ON s_nationkey = n_nationkey
LEFT JOIN partsupp ON ps_suppkey = s_suppkey
GROUP BY r_regionkey, r_name
ORDER BY r_regionkey;

-- Determinism: the content of every table, in key order, pinned by md5
-- (the same on every machine) ...
CREATE FUNCTION pg_temp.content_md5(s name)
RETURNS TABLE (relname text, md5 text)
LANGUAGE plpgsql AS $$
DECLARE
	k text[] := '{region:r_regionkey,nation:n_nationkey,supplier:s_suppkey,customer:c_custkey,'
				'part:p_partkey,"partsupp:ps_partkey, ps_suppkey",orders:o_orderkey,'
				'"lineitem:l_orderkey, l_linenumber"}';
	i integer;
BEGIN
	FOR i IN 1 .. cardinality(k) LOOP
		relname := split_part(k[i], ':', 1);
		EXECUTE format('SELECT md5(string_agg(t::text, E''\n'' ORDER BY %s)) FROM %I.%I t',
					   split_part(k[i], ':', 2), s, relname) INTO md5;
		RETURN NEXT;
	END LOOP;
END;
$$;
CREATE TEMP TABLE tpch_md5 AS SELECT * FROM pg_temp.content_md5('tpch');
SELECT * FROM tpch_md5;
-- A few rows, to show what the data looks like.
SELECT * FROM lineitem ORDER BY l_orderkey, l_linenumber LIMIT 3;
SELECT * FROM part ORDER BY p_partkey LIMIT 2;
RESET search_path;

-- ... and the same after generating it again, with replace, in a second
-- tablespace this time: every table and every index goes there (pg_default
-- would prove nothing: its relations show reltablespace 0 whatever the
-- code does).
SET allow_in_place_tablespaces = true;
CREATE TABLESPACE regress_bs_tpch LOCATION '';
SELECT relation, rows FROM bench_generate_tpch(0.001, tablespace => 'regress_bs_tpch', replace => true);
SELECT c.relkind, count(*) AS relations,
	   count(*) FILTER (WHERE c.reltablespace = (SELECT oid FROM pg_tablespace
												   WHERE spcname = 'regress_bs_tpch')) AS in_regress_bs_tpch
FROM pg_class c
WHERE c.relnamespace = 'tpch'::regnamespace
GROUP BY c.relkind ORDER BY c.relkind;
SELECT m.relname, m.md5 = x.md5 AS same_md5
FROM tpch_md5 m JOIN pg_temp.content_md5('tpch') x USING (relname)
ORDER BY m.relname;

-- Another scale is another data set, in another schema beside it.
SELECT relation, rows FROM bench_generate_tpch(0.002, schema => 'tpch_0002');
DROP SCHEMA tpch_0002 CASCADE;

--
-- Errors.
--
-- The schema exists: replace must be asked for.
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001)$$);
-- replace drops only a schema this function created ...
CREATE SCHEMA tpch_mine;
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, schema => 'tpch_mine', replace => true)$$);
DROP SCHEMA tpch_mine;
-- ... and only while it holds nothing but the generated tables: not with a
-- table of yours in it, nor a view or function elsewhere that uses them,
-- nor another table's foreign key to them.
CREATE TABLE tpch.my_notes (note text);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, replace => true)$$);
DROP TABLE tpch.my_notes;
CREATE VIEW public.tpch_big_orders AS SELECT * FROM tpch.orders WHERE o_totalprice > 400000;
CREATE FUNCTION public.tpch_line_value(l tpch.lineitem) RETURNS numeric
LANGUAGE sql RETURN l.l_extendedprice * (1 - l.l_discount);
CREATE TABLE public.tpch_claims (orderkey bigint REFERENCES tpch.orders);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, replace => true)$$);
DROP VIEW public.tpch_big_orders;
DROP FUNCTION public.tpch_line_value(tpch.lineitem);
DROP TABLE public.tpch_claims;
-- ... and only while its tables hold what it wrote: not after rows of
-- your own were added, nor after a table was reloaded (TRUNCATE and COPY
-- of dbgen's files, say), nor with a table of that name made by hand.
INSERT INTO tpch.region VALUES (5, 'MINE', 'a row of mine');
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, replace => true)$$);
DELETE FROM tpch.region WHERE r_regionkey = 5;
CREATE TEMP TABLE nation_copy AS SELECT * FROM tpch.nation;
TRUNCATE tpch.nation;
INSERT INTO tpch.nation SELECT * FROM nation_copy;
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, replace => true)$$);
-- ... and only a schema the caller owns, with everything in it: another
-- role's schema, its marks forged, is refused before anything is read.
CREATE ROLE regress_tpch_mallory;
DO $$
BEGIN
	EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_tpch_mallory', current_database());
END
$$;
SET ROLE regress_tpch_mallory;
CREATE SCHEMA tpch_forged;
COMMENT ON SCHEMA tpch_forged IS 'TPC-H-shaped data set generated by bench_generate_tpch';
RESET ROLE;
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, schema => 'tpch_forged', replace => true)$$);
SELECT nspowner::regrole AS still_owned_by FROM pg_namespace WHERE nspname = 'tpch_forged';
DROP SCHEMA tpch_forged CASCADE;
DO $$
BEGIN
	EXECUTE format('REVOKE CREATE ON DATABASE %I FROM regress_tpch_mallory', current_database());
END
$$;
DROP ROLE regress_tpch_mallory;
-- Nothing was dropped by the refusals.
SELECT count(*) AS tables_left FROM pg_class WHERE relnamespace = 'tpch'::regnamespace AND relkind = 'r';
SELECT count(*) AS region_rows FROM tpch.region;

-- Bad scales, NULLs, an unknown tablespace.
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0, schema => 'tpch_x')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(-1, schema => 'tpch_x')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.0005, schema => 'tpch_x')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(1001, schema => 'tpch_x')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch('NaN', schema => 'tpch_x')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch('Infinity', schema => 'tpch_x')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(NULL, schema => 'tpch_x')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, schema => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, schema => 'tpch_x', replace => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, 'no_such_tablespace', 'tpch_x')$$);
-- PostgreSQL's own errors come through, and leave nothing behind.
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, 'pg_global', 'tpch_x')$$);
SELECT count(*) AS tpch_x_schemas FROM pg_namespace WHERE nspname = 'tpch_x';

--
-- Privileges: it runs as the caller, who needs CREATE on the database (for
-- the schema) and on the tablespace; nothing more.
--
SELECT prosecdef AS security_definer, proconfig
FROM pg_proc WHERE proname = 'bench_generate_tpch';
CREATE ROLE regress_tpch_user;
SET ROLE regress_tpch_user;
SELECT err_code, regexp_replace(message, 'database \S+', 'database (current)') AS message
FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, schema => 'tpch_user')$$);
RESET ROLE;
DO $$
BEGIN
	EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_tpch_user', current_database());
END
$$;
SET ROLE regress_tpch_user;
SELECT relation, rows FROM bench_generate_tpch(0.001, schema => 'tpch_user');
SELECT nspowner::regrole AS owner FROM pg_namespace WHERE nspname = 'tpch_user';
-- The schema it generated, it may replace; a schema of another role, it
-- may not drop (PostgreSQL says so).
SELECT relation, rows FROM bench_generate_tpch(0.001, schema => 'tpch_user', replace => true) WHERE relation::text = 'tpch_user.region';
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_generate_tpch(0.001, replace => true)$$);
DROP SCHEMA tpch_user CASCADE;
RESET ROLE;
DO $$
BEGIN
	EXECUTE format('REVOKE CREATE ON DATABASE %I FROM regress_tpch_user', current_database());
END
$$;
DROP ROLE regress_tpch_user;

DROP SCHEMA tpch CASCADE;
DROP TABLESPACE regress_bs_tpch;
RESET datestyle;
RESET client_min_messages;
