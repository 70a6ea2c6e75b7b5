/* benchstore--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION benchstore" to load this file. \quit

-- MB means 2^20 bytes throughout, as pg_size_pretty does.

--
-- bench_seqscan: time a sequential read of a relation, one row per run.
--
CREATE FUNCTION bench_seqscan(
	relation regclass,
	mode text DEFAULT 'heap',		-- heap | buffer | raw
	cache text DEFAULT 'warm',		-- warm | cold
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	workers integer DEFAULT 0,		-- parallel workers beside the caller, 0 .. 64
	OUT run integer,				-- 1 .. repeat
	OUT relation regclass,			-- the relation named (partitions summed)
	OUT tablespace name,			-- its tablespace; NULL if partitions lie in several
	OUT mode text,					-- heap, buffer or raw
	OUT cache text,					-- warm or cold
	OUT pages bigint,				-- blocks scanned (main fork)
	OUT size_mb float8,				-- pages * block_size, in MB (2^20 bytes)
	OUT tuples bigint,				-- heap: visible tuples (= count(*)); raw: normal line pointers; buffer: NULL
	OUT elapsed_ms float8,			-- wall-clock time of the scan, milliseconds
	OUT mb_per_s float8,			-- size_mb / elapsed seconds
	OUT tuples_per_s float8,		-- tuples / elapsed seconds; NULL when tuples is
	OUT blks_hit bigint,			-- blocks found in shared (or local) buffers; raw: 0
	OUT blks_read bigint,			-- blocks PostgreSQL read from the OS; raw: every block
	OUT read_ms float8,				-- time in those reads, ms; NULL unless track_io_timing
	OUT os_read_mb float8,			-- MB the kernel read from storage for the scan's processes; NULL if unknown
	OUT workers_requested integer,	-- the workers argument
	OUT workers_launched integer	-- parallel workers that ran (fewer when none are free)
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_seqscan'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_seqscan(regclass, text, text, integer, text, boolean, integer) IS
'time a sequential scan of a relation (heap, buffer or raw mode; warm or cold cache), one row per run';

--
-- bench_query: time any SELECT (or WITH ... SELECT), warm or cold, one row
-- per run.  Rows are counted and discarded; the query runs with the
-- caller's privileges in a subtransaction that is rolled back, read-only
-- unless allow_writes.
--
CREATE FUNCTION bench_query(
	query text,						-- one SELECT or WITH ... SELECT
	cache text DEFAULT 'warm',		-- warm | cold (every relation the plan reads evicted first)
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	allow_writes boolean DEFAULT false,	-- true: run a query that writes, then roll it back
	OUT run integer,				-- 1 .. repeat
	OUT cache text,					-- warm or cold
	OUT elapsed_ms float8,			-- execution time (ExecutorStart to ExecutorEnd), ms; planning not included
	OUT rows bigint,				-- rows the query returned (counted, not sent)
	OUT blks_hit bigint,			-- blocks found in shared (or local) buffers, parallel workers included
	OUT blks_read bigint,			-- blocks PostgreSQL read from the OS, parallel workers included
	OUT read_ms float8,				-- time in those reads, ms; NULL unless track_io_timing
	OUT os_read_mb float8,			-- MB the kernel read from storage for this backend; NULL if unknown or with parallel workers
	OUT relations regclass[],		-- what the plan reads: tables with storage, then the indexes its scans use
	OUT size_mb float8,				-- their main forks' size now, MB (2^20 bytes)
	OUT mb_per_s float8,			-- size_mb / elapsed seconds: the effective scan rate
	OUT workers_planned integer,	-- parallel workers the plan's Gather nodes asked for
	OUT workers_launched integer	-- parallel workers that ran
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_query'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_query(text, text, integer, text, boolean, boolean) IS
'time a SELECT (warm or cold cache), one row per run, with the relations it reads and its effective scan rate';

--
-- bench_generate_tpch: a TPC-H-shaped data set to benchmark on: the eight
-- tables of TPC-H with their column names and types, TPC-H's row counts
-- for a scale factor, and values drawn from TPC-H's domains, so that
-- TPC-H's queries select about the fractions of rows they select on dbgen
-- data.  It is not dbgen output, and no TPC-H result can be had from it.
--
-- Deterministic: every value is a function of its row number, through
-- hashint8extended() (the hash PostgreSQL keeps stable across versions and
-- platforms, since hash partitioning stores its results), so a scale gives
-- the same rows on every run and on every machine.  One INSERT ... SELECT
-- FROM generate_series per table; its primary key is added after loading,
-- then it is analyzed.  VACUUM cannot run inside a function: run
-- VACUUM (FREEZE, ANALYZE) on the tables afterwards (the last NOTICE gives
-- the statement), or the first scans of a benchmark set hint bits and
-- write the pages they read.
--
-- It runs with the caller's privileges: CREATE on the database (for the
-- schema) and on the tablespace.
--
CREATE FUNCTION bench_generate_tpch(
	scale float8 DEFAULT 1,			-- TPC-H scale factor, 0.001 .. 1000 (1: about 6 million lineitem rows)
	tablespace name DEFAULT NULL,	-- tablespace of the tables and their indexes; NULL: default_tablespace
	schema name DEFAULT 'tpch',		-- schema to create them in; it must not exist (see replace)
	replace boolean DEFAULT false,	-- true: drop the schema first, if it holds a data set this function generated and nothing else
	OUT relation regclass,			-- the table created
	OUT rows bigint,				-- rows inserted
	OUT mb float8,					-- main fork size, MB (2^20 bytes; = pg_relation_size)
	OUT indexes_mb float8,			-- its primary key index, MB
	OUT elapsed_ms float8			-- time to load it, build its primary key and analyze it, ms
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off		-- compiling the generators' expressions costs more than it saves
AS $$
DECLARE
	-- the schema comment that marks a generated data set: replace drops no other schema
	marker constant text := 'TPC-H-shaped data set generated by bench_generate_tpch';
	tables constant text[] := '{region,nation,supplier,customer,part,partsupp,orders,lineitem}';
	keys constant text[] := '{r_regionkey,n_nationkey,s_suppkey,c_custkey,p_partkey,'
							'"ps_partkey, ps_suppkey",o_orderkey,"l_orderkey, l_linenumber"}';
	-- hashint8extended(n, seed) & mask: a uniform number in 0 .. 2^63 - 1
	mask constant text := '9223372036854775807';
	-- the comment columns are pieces of a text pool made of these 64 words
	words constant text[] := '{about,above,according,across,after,against,along,among,'
		'around,beans,blithely,bold,boldly,braids,careful,carefully,courts,daring,'
		'dependencies,deposits,dolphins,even,evenly,excuses,express,final,finally,'
		'fluffy,foxes,frays,furiously,haggle,ideas,instructions,ironic,nag,packages,'
		'patterns,pending,pinto,platelets,quick,quickly,regular,requests,ruthless,'
		'sheaves,silent,sleep,slyly,special,thin,theodolites,unusual,use,wake,'
		'warhorses,waters,accounts,asymptotes,cajole,detect,engage,integrate}';
	current_date_tpch constant text := 'date ''1995-06-17''';	-- TPC-H's CURRENTDATE
	n_supp bigint;
	n_part bigint;
	n_cust bigint;
	n_ord bigint;
	n_cust_ordering bigint;		-- customers with orders: those whose key is not a multiple of 3
	n_clerk bigint;
	spc_clause text := '';
	idx_clause text := '';
	ns oid;
	found_tables oid[];
	others text[];
	pool bytea;				-- the text pool, 4096 words (bytes, to cut it in constant time)
	pool_starts integer[];	-- where its words start, but those too near its end
	orders_from text;
	f_qty text;
	f_disc text;
	f_tax text;
	f_ship text;
	f_commit text;
	f_receipt text;
	f_coin text;
	f_instr text;
	f_mode text;
	f_part text;
	f_supp_i text;
	f_price text;
	f_supp text;
	sql text;
	started timestamptz;
	all_started timestamptz := clock_timestamp();
	tbl text;
	total_rows bigint := 0;
	total_mb float8 := 0;
	i integer;
BEGIN
	IF scale IS NULL THEN
		RAISE EXCEPTION 'scale cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF schema IS NULL THEN
		RAISE EXCEPTION 'schema cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF replace IS NULL THEN
		RAISE EXCEPTION 'replace cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- NaN compares greater than every number, so it fails the test too
	IF NOT (scale >= 0.001 AND scale <= 1000) THEN
		RAISE EXCEPTION 'scale must be between 0.001 and 1000'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Scale 1 generates about 6 million lineitem rows, as TPC-H''s scale factor 1 does.';
	END IF;
	IF tablespace IS NOT NULL THEN
		IF NOT EXISTS (SELECT 1 FROM pg_tablespace t WHERE t.spcname = tablespace) THEN
			RAISE EXCEPTION 'tablespace "%" does not exist', tablespace
				USING ERRCODE = 'undefined_object';
		END IF;
		spc_clause := format(' TABLESPACE %I', tablespace);
		idx_clause := format(' USING INDEX TABLESPACE %I', tablespace);
	END IF;

	-- Row counts, TPC-H's for this scale factor, from the decimal value of
	-- scale (0.01 gives exactly 100 suppliers).  The smallest scale still
	-- has 10 suppliers, enough for four different ones per part.
	n_supp := round(scale::numeric * 10000);
	n_part := round(scale::numeric * 200000);
	n_cust := round(scale::numeric * 150000);
	n_ord := n_cust * 10;
	n_cust_ordering := n_cust - n_cust / 3;
	n_clerk := greatest(1, round(scale::numeric * 1000));

	-- The text pool of the comments: 4096 words of the list, chosen by hash.
	SELECT convert_to(string_agg(p.word, ' ' ORDER BY p.n), 'UTF8'),
		   array_agg(p.start ORDER BY p.n) FILTER (WHERE p.start <= p.total - 200)
	INTO pool, pool_starts
	FROM (SELECT w.n, w.word,
				 1 + coalesce(sum(length(w.word) + 1) OVER (ORDER BY w.n ROWS BETWEEN UNBOUNDED PRECEDING
																			 AND 1 PRECEDING), 0) AS start,
				 sum(length(w.word) + 1) OVER () - 1 AS total
		  FROM (SELECT n, words[1 + (hashint8extended(n, 7) & 63)] AS word
				FROM generate_series(1, 4096) AS n) AS w) AS p;

	--
	-- The schema.  An existing one is replaced only when asked to, only if
	-- this function created it (its comment says so), and only if it holds
	-- nothing but the eight tables with their indexes and constraints, and
	-- nothing elsewhere depends on them.  The drops are RESTRICT besides,
	-- so PostgreSQL itself refuses to drop anything else.
	--
	SELECT n.oid INTO ns FROM pg_namespace n WHERE n.nspname = schema;
	IF FOUND THEN
		IF NOT replace THEN
			RAISE EXCEPTION 'schema "%" already exists', schema
				USING ERRCODE = 'duplicate_schema',
					  HINT = 'Pass replace => true to drop it and generate the data set again, or choose another schema.';
		END IF;
		IF coalesce(obj_description(ns, 'pg_namespace'), '') NOT LIKE marker || '%' THEN
			RAISE EXCEPTION 'cannot replace schema "%" because bench_generate_tpch did not create it', schema
				USING ERRCODE = 'object_not_in_prerequisite_state',
					  DETAIL = 'Only a schema holding a data set generated by bench_generate_tpch is dropped and replaced.',
					  HINT = 'Choose another schema, or drop this one yourself.';
		END IF;

		found_tables := ARRAY(SELECT c.oid FROM pg_class c
							  WHERE c.relnamespace = ns AND c.relkind = 'r'
								AND c.relname = ANY (tables));

		-- Each table must be as this function left it: its mark, its file
		-- (not truncated and reloaded, not rewritten), its row count.
		FOR tbl IN SELECT c.oid::regclass::text FROM pg_class c
				   WHERE c.oid = ANY (found_tables) ORDER BY c.oid LOOP
			EXECUTE format('SELECT count(*) FROM %s', tbl) INTO rows;
			IF coalesce(obj_description(tbl::regclass, 'pg_class'), '') <>
			   format('%s: %s rows, file %s', marker, rows,
					  (SELECT c.relfilenode FROM pg_class c WHERE c.oid = tbl::regclass)) THEN
				RAISE EXCEPTION 'cannot replace schema "%" because table % changed since bench_generate_tpch wrote it', schema, tbl
					USING ERRCODE = 'object_not_in_prerequisite_state',
						  DETAIL = 'Its rows or its file are not those it was generated with, or it was made by hand.',
						  HINT = 'Choose another schema, or drop this one yourself.';
			END IF;
		END LOOP;
		others := ARRAY(
			SELECT DISTINCT CASE WHEN o.classid = 'pg_rewrite'::regclass	-- a view's rule: the view
								 THEN (SELECT pg_describe_object('pg_class'::regclass, r.ev_class, 0)
									   FROM pg_rewrite r WHERE r.oid = o.objid)
								 ELSE pg_describe_object(o.classid, o.objid, 0) END
			FROM (
				-- objects in the schema, other than the tables
				SELECT d.classid, d.objid
				FROM pg_depend d
				WHERE d.refclassid = 'pg_namespace'::regclass AND d.refobjid = ns
				  AND NOT (d.classid = 'pg_class'::regclass AND d.objid = ANY (found_tables))
				UNION ALL
				-- relations in the schema, other than the tables and their indexes
				SELECT 'pg_class'::regclass::oid, c.oid
				FROM pg_class c
				WHERE c.relnamespace = ns
				  AND NOT c.oid = ANY (found_tables)
				  AND NOT EXISTS (SELECT 1 FROM pg_index x
								  WHERE x.indexrelid = c.oid AND x.indrelid = ANY (found_tables))
				UNION ALL
				-- objects anywhere that depend on the tables: views, other
				-- tables' foreign keys, triggers, policies, rules, statistics,
				-- inheritance children, ...
				SELECT d.classid, d.objid
				FROM pg_depend d
				WHERE d.refclassid = 'pg_class'::regclass AND d.refobjid = ANY (found_tables)
				  AND d.classid <> 'pg_type'::regclass		-- the tables' row types
				  AND NOT (d.classid = 'pg_class'::regclass
						   AND (d.objid = ANY (found_tables)
								OR EXISTS (SELECT 1 FROM pg_index x
										   WHERE x.indexrelid = d.objid
											 AND x.indrelid = ANY (found_tables))
								OR EXISTS (SELECT 1 FROM pg_class t
										   WHERE t.reltoastrelid = d.objid
											 AND t.oid = ANY (found_tables))))
				  AND NOT (d.classid = 'pg_constraint'::regclass
						   AND EXISTS (SELECT 1 FROM pg_constraint k
									   WHERE k.oid = d.objid AND k.conrelid = ANY (found_tables)))
				UNION ALL
				-- ... or on their row types: functions, other tables' columns, domains
				SELECT d.classid, d.objid
				FROM pg_type ty
				JOIN pg_depend d ON d.refclassid = 'pg_type'::regclass
								AND d.refobjid IN (ty.oid, ty.typarray)
				WHERE ty.typrelid = ANY (found_tables)
				  AND NOT (d.classid = 'pg_type'::regclass AND d.objid = ty.typarray)
			) o
			ORDER BY 1);
		IF cardinality(others) > 0 THEN
			RAISE EXCEPTION 'cannot replace schema "%" because other objects are in it or depend on its tables', schema
				USING ERRCODE = 'dependent_objects_still_exist',
					  DETAIL = CASE WHEN cardinality(others) = 1
									THEN format('Other object: %s.', others[1])
									ELSE format('Other objects: %s%s.',
												array_to_string(others[1:10], ', '),
												CASE WHEN cardinality(others) > 10
													 THEN format(' and %s more', cardinality(others) - 10)
													 ELSE '' END) END,
					  HINT = 'Only a schema holding nothing but the generated tables, which nothing else uses, is replaced. Drop or move those objects, or choose another schema.';
		END IF;

		FOR tbl IN SELECT c.oid::regclass::text FROM pg_class c WHERE c.oid = ANY (found_tables) LOOP
			EXECUTE format('DROP TABLE %s RESTRICT', tbl);
		END LOOP;
		EXECUTE format('DROP SCHEMA %I RESTRICT', schema);
	END IF;

	EXECUTE format('CREATE SCHEMA %I', schema);
	EXECUTE format('COMMENT ON SCHEMA %I IS %L', schema,
				   format('%s (scale %s); not dbgen output', marker, scale));

	--
	-- The tables, with TPC-H's columns and types.  Keys are integers but
	-- order keys, which are sparse (8 of every 32 used, as in TPC-H) and
	-- pass 2^31 above scale 350.
	--
	EXECUTE format($ddl$
		CREATE TABLE %1$I.region (
			r_regionkey		integer NOT NULL,
			r_name			char(25) NOT NULL,
			r_comment		varchar(152) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.nation (
			n_nationkey		integer NOT NULL,
			n_name			char(25) NOT NULL,
			n_regionkey		integer NOT NULL,
			n_comment		varchar(152) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.supplier (
			s_suppkey		integer NOT NULL,
			s_name			char(25) NOT NULL,
			s_address		varchar(40) NOT NULL,
			s_nationkey		integer NOT NULL,
			s_phone			char(15) NOT NULL,
			s_acctbal		numeric(15,2) NOT NULL,
			s_comment		varchar(101) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.customer (
			c_custkey		integer NOT NULL,
			c_name			varchar(25) NOT NULL,
			c_address		varchar(40) NOT NULL,
			c_nationkey		integer NOT NULL,
			c_phone			char(15) NOT NULL,
			c_acctbal		numeric(15,2) NOT NULL,
			c_mktsegment	char(10) NOT NULL,
			c_comment		varchar(117) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.part (
			p_partkey		integer NOT NULL,
			p_name			varchar(55) NOT NULL,
			p_mfgr			char(25) NOT NULL,
			p_brand			char(10) NOT NULL,
			p_type			varchar(25) NOT NULL,
			p_size			integer NOT NULL,
			p_container		char(10) NOT NULL,
			p_retailprice	numeric(15,2) NOT NULL,
			p_comment		varchar(23) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.partsupp (
			ps_partkey		integer NOT NULL,
			ps_suppkey		integer NOT NULL,
			ps_availqty		integer NOT NULL,
			ps_supplycost	numeric(15,2) NOT NULL,
			ps_comment		varchar(199) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.orders (
			o_orderkey		bigint NOT NULL,
			o_custkey		integer NOT NULL,
			o_orderstatus	char(1) NOT NULL,
			o_totalprice	numeric(15,2) NOT NULL,
			o_orderdate		date NOT NULL,
			o_orderpriority	char(15) NOT NULL,
			o_clerk			char(15) NOT NULL,
			o_shippriority	integer NOT NULL,
			o_comment		varchar(79) NOT NULL
		)%2$s;
		CREATE TABLE %1$I.lineitem (
			l_orderkey		bigint NOT NULL,
			l_partkey		integer NOT NULL,
			l_suppkey		integer NOT NULL,
			l_linenumber	integer NOT NULL,
			l_quantity		numeric(15,2) NOT NULL,
			l_extendedprice	numeric(15,2) NOT NULL,
			l_discount		numeric(15,2) NOT NULL,
			l_tax			numeric(15,2) NOT NULL,
			l_returnflag	char(1) NOT NULL,
			l_linestatus	char(1) NOT NULL,
			l_shipdate		date NOT NULL,
			l_commitdate	date NOT NULL,
			l_receiptdate	date NOT NULL,
			l_shipinstruct	char(25) NOT NULL,
			l_shipmode		char(10) NOT NULL,
			l_comment		varchar(44) NOT NULL
		)%2$s;
	$ddl$, schema, spc_clause);

	--
	-- The formulas of a line, shared by lineitem and by orders (which sums
	-- its lines' prices and derives its status from their ship dates).  A
	-- line's values are digits of two hashes in a mixed radix: {ha} gives
	-- quantity 1 .. 50, discount 0 .. 10 and tax 0 .. 8 (hundredths), ship
	-- date 1 .. 121 days after the order, commit date 30 .. 90 days after
	-- it, receipt 1 .. 30 days after shipping, a coin for the return flag,
	-- instruction and mode (each divisor is the product of the ranges
	-- before it); {hb} gives the part (uniform) and which of its four
	-- suppliers.  {pk} is a part key: TPC-H's retail price formula (cents)
	-- and the part's suppliers, as in partsupp.
	--
	f_qty := '(1 + mod({ha}, 50))';
	f_disc := 'mod({ha} / 50, 11)';
	f_tax := 'mod({ha} / 550, 9)';
	f_ship := '(1 + mod({ha} / 4950, 121))::integer';
	f_commit := '(30 + mod({ha} / 598950, 61))::integer';
	f_receipt := '(1 + mod({ha} / 36535950, 30))::integer';
	f_coin := 'mod({ha} / 1096078500, 2)';
	f_instr := 'mod({ha} / 2192157000, 4)';
	f_mode := 'mod({ha} / 8768628000, 7)';
	f_part := format('(1 + mod({hb}, %s))', n_part);
	f_supp_i := format('mod({hb} / %s, 4)', n_part);
	f_price := '(90000 + mod({pk} / 10, 20001) + 100 * mod({pk}, 1000))';
	f_supp := format('(mod({pk} - 1 + ({pk} - 1) / %1$s + {i} * (%1$s / 4), %1$s) + 1)', n_supp);

	--
	-- The orders, as lineitem and orders both start from them: order
	-- number o, its key (8 of every 32, as in TPC-H), its number of lines
	-- (1 .. 7), its date (uniform over 1992-01-01 .. 1998-08-02, 2406
	-- days), its customer (never a multiple of 3: a third of the customers
	-- have no orders), and h2 for the other columns.
	--
	orders_from := format($from$
		(SELECT o, h2,
				(o - 1) / 8 * 32 + mod(o - 1, 8) + 1 AS okey,
				1 + mod(h1, 7) AS nlines,
				date '1992-01-01' + mod(h1 / 7, 2406)::integer AS odate,
				mod(h1 / 16842, %2$s) + mod(h1 / 16842, %2$s) / 2 + 1 AS custkey
		 FROM (SELECT o, hashint8extended(o, 1) & %3$s AS h1, hashint8extended(o, 2) & %3$s AS h2
			   FROM (SELECT generate_series(1, %1$s::bigint) AS o) AS s
			   OFFSET 0) AS oh
		 OFFSET 0) AS od
	$from$, n_ord, n_cust_ordering, mask);

	--
	-- One table at a time: insert, primary key, analyze, report.  Each
	-- INSERT reads a stack of subqueries, generate_series in a target list
	-- at the bottom, each level computing its values once from the level
	-- below (OFFSET 0 keeps the levels apart): much faster than LATERAL.
	--
	FOR i IN 1 .. cardinality(tables) LOOP
		tbl := tables[i];
		started := clock_timestamp();
		relation := format('%I.%I', schema, tbl)::regclass;

		sql := CASE tbl
		WHEN 'region' THEN format($q$
			INSERT INTO %1$s
			SELECT k, name, %2$s
			FROM (SELECT r.k, r.name,
						 hashint8extended(r.k, 11) & %3$s AS wc
				  FROM (VALUES (0, 'AFRICA'), (1, 'AMERICA'), (2, 'ASIA'),
							   (3, 'EUROPE'), (4, 'MIDDLE EAST')) AS r(k, name)
				  OFFSET 0) AS w
			ORDER BY k
			$q$, relation, '%comment(31,115)%', mask)

		WHEN 'nation' THEN format($q$
			INSERT INTO %1$s
			SELECT k, name, region, %2$s
			FROM (SELECT n.k, n.name, n.region,
						 hashint8extended(n.k, 21) & %3$s AS wc
				  FROM (VALUES (0, 'ALGERIA', 0), (1, 'ARGENTINA', 1), (2, 'BRAZIL', 1),
							   (3, 'CANADA', 1), (4, 'EGYPT', 4), (5, 'ETHIOPIA', 0),
							   (6, 'FRANCE', 3), (7, 'GERMANY', 3), (8, 'INDIA', 2),
							   (9, 'INDONESIA', 2), (10, 'IRAN', 4), (11, 'IRAQ', 4),
							   (12, 'JAPAN', 2), (13, 'JORDAN', 4), (14, 'KENYA', 0),
							   (15, 'MOROCCO', 0), (16, 'MOZAMBIQUE', 0), (17, 'PERU', 1),
							   (18, 'CHINA', 2), (19, 'ROMANIA', 3), (20, 'SAUDI ARABIA', 4),
							   (21, 'VIETNAM', 2), (22, 'RUSSIA', 3), (23, 'UNITED KINGDOM', 3),
							   (24, 'UNITED STATES', 1)) AS n(k, name, region)
				  OFFSET 0) AS w
			ORDER BY k
			$q$, relation, '%comment(31,114)%', mask)

		-- nation 0 .. 24; phone: country code nation + 10, then random
		-- digits; address 10 .. 40 characters; balance -999.99 .. 9999.99
		WHEN 'supplier' THEN format($q$
			INSERT INTO %1$s
			SELECT k,
				   'Supplier#' || lpad(k::text, 9, '0'),
				   left(to_hex(a1) || to_hex(a2) || to_hex(a3), 10 + mod(h2 / 1099999, 31)::integer),
				   mod(h1, 25),
				   (10 + mod(h1, 25)) || '-' || (100 + mod(h1 / 25, 900)) || '-' ||
					   (100 + mod(h1 / 22500, 900)) || '-' || (1000 + mod(h1 / 20250000, 9000)),
				   (mod(h2, 1099999) - 99999) * 0.01,
				   %2$s
			FROM (SELECT k,
						 hashint8extended(k, 31) & %4$s AS h1,
						 hashint8extended(k, 32) & %4$s AS h2,
						 hashint8extended(k, 33) & %4$s AS a1,
						 hashint8extended(k, 34) & %4$s AS a2,
						 hashint8extended(k, 35) & %4$s AS a3,
						 hashint8extended(k, 36) & %4$s AS wc
				  FROM (SELECT generate_series(1, %3$s) AS k) AS s
				  OFFSET 0) AS h
			$q$, relation, '%comment(25,100)%', n_supp, mask)

		-- as supplier, and a market segment
		WHEN 'customer' THEN format($q$
			INSERT INTO %1$s
			SELECT k,
				   'Customer#' || lpad(k::text, 9, '0'),
				   left(to_hex(a1) || to_hex(a2) || to_hex(a3), 10 + mod(h2 / 5499995, 31)::integer),
				   mod(h1, 25),
				   (10 + mod(h1, 25)) || '-' || (100 + mod(h1 / 25, 900)) || '-' ||
					   (100 + mod(h1 / 22500, 900)) || '-' || (1000 + mod(h1 / 20250000, 9000)),
				   (mod(h2, 1099999) - 99999) * 0.01,
				   ('{AUTOMOBILE,BUILDING,FURNITURE,MACHINERY,HOUSEHOLD}'::text[])[1 + mod(h2 / 1099999, 5)],
				   %2$s
			FROM (SELECT k,
						 hashint8extended(k, 41) & %4$s AS h1,
						 hashint8extended(k, 42) & %4$s AS h2,
						 hashint8extended(k, 43) & %4$s AS a1,
						 hashint8extended(k, 44) & %4$s AS a2,
						 hashint8extended(k, 45) & %4$s AS a3,
						 hashint8extended(k, 46) & %4$s AS wc
				  FROM (SELECT generate_series(1, %3$s) AS k) AS s
				  OFFSET 0) AS h
			$q$, relation, '%comment(29,116)%', n_cust, mask)

		-- name: 5 different colours of TPC-H's 92 (from a start a, in steps
		-- s that are not multiples of 23, so none repeats within 5 steps);
		-- manufacturer M 1 .. 5 and brand MN; type 6 x 5 x 5 syllables;
		-- size 1 .. 50; container 5 x 8 syllables; retail price 900.00 ..
		-- 2098.99 by TPC-H's formula
		WHEN 'part' THEN format($q$
			INSERT INTO %1$s
			SELECT k,
				   concat_ws(' ', c[1 + mod(a, 92)], c[1 + mod(a + s, 92)], c[1 + mod(a + 2 * s, 92)],
							 c[1 + mod(a + 3 * s, 92)], c[1 + mod(a + 4 * s, 92)]),
				   'Manufacturer#' || (1 + mod(h1, 5)),
				   'Brand#' || (1 + mod(h1, 5)) || (1 + mod(h1 / 5, 5)),
				   concat_ws(' ',
							 ('{STANDARD,SMALL,MEDIUM,LARGE,ECONOMY,PROMO}'::text[])[1 + mod(h1 / 25, 6)],
							 ('{ANODIZED,BURNISHED,PLATED,POLISHED,BRUSHED}'::text[])[1 + mod(h1 / 150, 5)],
							 ('{TIN,NICKEL,BRASS,STEEL,COPPER}'::text[])[1 + mod(h1 / 750, 5)]),
				   1 + mod(h1 / 3750, 50),
				   ('{SM,LG,MED,JUMBO,WRAP}'::text[])[1 + mod(h1 / 187500, 5)] || ' ' ||
					   ('{CASE,BOX,BAG,JAR,PKG,PACK,CAN,DRUM}'::text[])[1 + mod(h1 / 937500, 8)],
				   %5$s * 0.01,
				   %2$s
			FROM (SELECT k, h1, a, s0 + (s0 - 1) / 22 AS s, wc
				  FROM (SELECT k,
							   hashint8extended(k, 51) & %4$s AS h1,
							   mod(hashint8extended(k, 52) & %4$s, 92) AS a,
							   1 + mod(hashint8extended(k, 53) & %4$s, 88) AS s0,
							   hashint8extended(k, 54) & %4$s AS wc
						FROM (SELECT generate_series(1, %3$s) AS k) AS g
						OFFSET 0) AS h0
				  OFFSET 0) AS h,
				 (SELECT '{almond,antique,aquamarine,azure,beige,bisque,black,blanched,'
					'blue,blush,brown,burlywood,burnished,chartreuse,chiffon,chocolate,coral,'
					'cornflower,cornsilk,cream,cyan,dark,deep,dim,dodger,drab,firebrick,floral,'
					'forest,frosted,gainsboro,ghost,goldenrod,green,grey,honeydew,hot,indian,'
					'ivory,khaki,lace,lavender,lawn,lemon,light,lime,linen,magenta,maroon,medium,'
					'metallic,midnight,mint,misty,moccasin,navajo,navy,olive,orange,orchid,pale,'
					'papaya,peach,peru,pink,plum,powder,puff,purple,red,rose,rosy,royal,saddle,'
					'salmon,sandy,seashell,sienna,sky,slate,smoke,snow,spring,steel,tan,thistle,'
					'tomato,turquoise,violet,wheat,white,yellow}'::text[] AS c) AS colours
			$q$, relation, '%comment(5,22)%', n_part, mask, replace(f_price, '{pk}', 'k'))

		-- four suppliers per part, a quarter of the suppliers apart (so four
		-- different ones), the pattern shifted by one every S parts: each
		-- supplier serves about 80 parts; lineitem uses the same formula.
		-- Available quantity 1 .. 9999, supply cost 1.00 .. 1000.00.
		WHEN 'partsupp' THEN format($q$
			INSERT INTO %1$s
			SELECT p,
				   %5$s,
				   1 + mod(h1, 9999),
				   (100 + mod(h1 / 9999, 99901)) * 0.01,
				   %2$s
			FROM (SELECT p, i,
						 hashint8extended(p, 61 + 10 * i) & %4$s AS h1,
						 hashint8extended(p, 62 + 10 * i) & %4$s AS wc
				  FROM (SELECT p, generate_series(0, 3) AS i
						FROM (SELECT generate_series(1, %3$s) AS p) AS g) AS gi
				  OFFSET 0) AS h
			$q$, relation, '%comment(49,198)%', n_part, mask,
				 replace(replace(f_supp, '{pk}', 'p'), '{i}', 'i'))

		-- Each order's lines (up to 7, unrolled) are computed again here by
		-- lineitem's formulas: status F if all of them shipped by TPC-H's
		-- current date, O if none did, else P; total price the sum of their
		-- prices with tax, less discount.  Priority 1 .. 5; clerk 1 ..
		-- scale * 1000; ship priority 0.
		WHEN 'orders' THEN format($q$
			INSERT INTO %1$s
			SELECT okey, custkey,
				   CASE WHEN greatest(%6$s) <= %4$s THEN 'F'
						WHEN least(%6$s) > %4$s THEN 'O'
						ELSE 'P' END,
				   round((%7$s) * 0.000001, 2),
				   odate,
				   ('{1-URGENT,2-HIGH,3-MEDIUM,4-NOT SPECIFIED,5-LOW}'::text[])[1 + mod(h2, 5)],
				   'Clerk#' || lpad((1 + mod(h2 / 5, %3$s))::text, 9, '0'),
				   0,
				   %2$s
			FROM (SELECT okey, custkey, odate, h2, wc, %8$s
				  FROM (SELECT od.*,
							   hashint8extended(o, 3) & %9$s AS wc,
							   %5$s
						FROM %10$s
						OFFSET 0) AS oh
				  OFFSET 0) AS ol
			$q$, relation, '%comment(19,78)%', n_clerk, current_date_tpch,
				 -- the lines' hashes: ha1, hb1, ... ha7, hb7
				 (SELECT string_agg(format('hashint8extended(o, %1$s) & %3$s AS ha%2$s, '
										   'hashint8extended(o, %4$s) & %3$s AS hb%2$s',
										   100 + l, l, mask, 200 + l), ', ' ORDER BY l)
				  FROM generate_series(1, 7) AS l),
				 (SELECT string_agg(format('ship%s', l), ', ' ORDER BY l) FROM generate_series(1, 7) AS l),
				 (SELECT string_agg(format('coalesce(charge%s, 0)', l), ' + ' ORDER BY l) FROM generate_series(1, 7) AS l),
				 -- each line's price with tax, less discount (in millionths)
				 -- and its ship date; NULL past the order's lines
				 (SELECT string_agg(format('CASE WHEN nlines >= %1$s THEN %2$s * %3$s * (100 + %4$s) * (100 - %5$s) END AS charge%1$s, '
										   'CASE WHEN nlines >= %1$s THEN odate + %6$s END AS ship%1$s',
										   l,
										   replace(f_qty, '{ha}', 'ha' || l),
										   replace(f_price, '{pk}', replace(f_part, '{hb}', 'hb' || l)),
										   replace(f_tax, '{ha}', 'ha' || l),
										   replace(f_disc, '{ha}', 'ha' || l),
										   replace(f_ship, '{ha}', 'ha' || l)), ', ' ORDER BY l)
				  FROM generate_series(1, 7) AS l),
				 mask, orders_from)

		-- return flag R or A if received by TPC-H's current date, else N;
		-- line status O if shipped after it, else F
		WHEN 'lineitem' THEN format($q$
			INSERT INTO %1$s
			SELECT okey, partkey, %5$s, l, qty,
				   qty * %6$s * 0.01, disc * 0.01, tax * 0.01,
				   CASE WHEN shipdate + receipt_days > %3$s THEN 'N'
						WHEN coin = 0 THEN 'R' ELSE 'A' END,
				   CASE WHEN shipdate > %3$s THEN 'O' ELSE 'F' END,
				   shipdate, commitdate, shipdate + receipt_days,
				   ('{DELIVER IN PERSON,COLLECT COD,NONE,TAKE BACK RETURN}'::text[])[1 + instr],
				   ('{REG AIR,AIR,RAIL,SHIP,TRUCK,MAIL,FOB}'::text[])[1 + mode],
				   %2$s
			FROM (SELECT okey, l, wc,
						 %7$s AS qty, %8$s AS disc, %9$s AS tax,
						 odate + %10$s AS shipdate, odate + %11$s AS commitdate, %12$s AS receipt_days,
						 %13$s AS coin, %14$s AS instr, %15$s AS mode,
						 %16$s AS partkey, %17$s AS supp_i
				  FROM (SELECT okey, odate, l,
							   hashint8extended(o, 100 + l) & %4$s AS ha,
							   hashint8extended(o, 200 + l) & %4$s AS hb,
							   hashint8extended(o, 300 + l) & %4$s AS wc
						FROM (SELECT o, okey, odate, generate_series(1, nlines) AS l
							  FROM %18$s) AS ol
						OFFSET 0) AS lh
				  OFFSET 0) AS lv
			$q$, relation, '%comment(10,43)%', current_date_tpch, mask,
				 replace(replace(f_supp, '{pk}', 'partkey'), '{i}', 'supp_i'),
				 replace(f_price, '{pk}', 'partkey'),
				 replace(f_qty, '{ha}', 'ha'), replace(f_disc, '{ha}', 'ha'), replace(f_tax, '{ha}', 'ha'),
				 replace(f_ship, '{ha}', 'ha'), replace(f_commit, '{ha}', 'ha'), replace(f_receipt, '{ha}', 'ha'),
				 replace(f_coin, '{ha}', 'ha'), replace(f_instr, '{ha}', 'ha'), replace(f_mode, '{ha}', 'ha'),
				 replace(f_part, '{hb}', 'hb'), replace(f_supp_i, '{hb}', 'hb'),
				 orders_from)
		END;

		-- The comment column: a piece of the text pool ($1), from the start
		-- of one of its words ($2) and of a length uniform in the column's
		-- TPC-H range, both chosen by the row's hash wc: %comment(min,max)%.
		sql := regexp_replace(sql, '%comment\((\d+),(\d+)\)%',
			format('rtrim(convert_from(substring($1 FROM $2[1 + mod(wc, %1$s)] '
				   'FOR \1 + mod(wc / %1$s, \2 - \1 + 1)::integer), ''UTF8''))',
				   cardinality(pool_starts)));

		EXECUTE sql USING pool, pool_starts;
		GET DIAGNOSTICS rows = ROW_COUNT;

		EXECUTE format('ALTER TABLE %s ADD PRIMARY KEY (%s)%s', relation, keys[i], idx_clause);
		EXECUTE format('ANALYZE %s', relation);
		-- What was written, so that replace can tell the table was not
		-- reloaded (a new file) nor given rows of its own since.
		EXECUTE format('COMMENT ON TABLE %s IS %L', relation,
					   format('%s: %s rows, file %s', marker, rows,
							  (SELECT c.relfilenode FROM pg_class c WHERE c.oid = relation)));

		mb := pg_relation_size(relation) / 1048576.0;
		indexes_mb := pg_indexes_size(relation) / 1048576.0;
		elapsed_ms := round(extract(epoch FROM clock_timestamp() - started)::numeric * 1000, 3);
		total_rows := total_rows + rows;
		total_mb := total_mb + mb + indexes_mb;
		RAISE NOTICE '%: % rows, % MB, % ms', relation, rows, round(mb::numeric, 1), round(elapsed_ms::numeric);
		RETURN NEXT;
	END LOOP;

	RAISE NOTICE 'generated % rows, % MB in % s', total_rows, round(total_mb::numeric, 1),
		round(extract(epoch FROM clock_timestamp() - all_started)::numeric, 1)
		USING HINT = format('Run VACUUM (FREEZE, ANALYZE) %s before benchmarking, outside a transaction block: '
							'it sets the hint bits and the visibility map that a first scan would otherwise write.',
							(SELECT string_agg(format('%I.%I', schema, t), ', ') FROM unnest(tables) t));
END;
$$;

COMMENT ON FUNCTION bench_generate_tpch(float8, name, name, boolean) IS
'generate a deterministic TPC-H-shaped data set (not dbgen output) of a scale factor in a new schema, one row per table';

--
-- bench_cache_status / bench_cache_evict: the relation's main fork in the
-- OS page cache (all partitions of a partitioned table).
--
CREATE FUNCTION bench_cache_status(
	relation regclass,
	OUT files integer,				-- segment files of the main fork
	OUT mb float8,					-- their size, MB
	OUT os_cached_mb float8			-- how much of them the OS page cache holds, MB
)
RETURNS record
AS 'MODULE_PATHNAME', 'bench_cache_status'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_cache_status(regclass) IS
'how much of a relation''s main fork the OS page cache holds';

CREATE FUNCTION bench_cache_evict(
	relation regclass,
	OUT files integer,				-- segment files of the main fork
	OUT mb float8,					-- their size, MB
	OUT os_cached_mb_before float8,	-- in the OS page cache before, MB
	OUT os_cached_mb_after float8	-- in the OS page cache after the checkpoint and eviction, MB
)
RETURNS record
AS 'MODULE_PATHNAME', 'bench_cache_evict'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_cache_evict(regclass) IS
'checkpoint, then evict a relation''s main fork from the OS page cache, as a cold bench_seqscan run does';

-- Eviction requests a checkpoint: the same right as the CHECKPOINT command.
-- The C code checks it too.
REVOKE ALL ON FUNCTION bench_cache_evict(regclass) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bench_cache_evict(regclass) TO pg_checkpoint;

--
-- bench_relation_sizes: the classic
--   select relname, 8*relpages/128 as MB from pg_class order by relpages desc
-- done right: real file sizes beside the planner's estimate, for any block
-- size, partitioned tables summed over their partitions.
--
CREATE FUNCTION bench_relation_sizes(
	top integer DEFAULT 10,			-- rows to return, largest first; NULL for all
	schema name DEFAULT NULL,		-- NULL: every schema but the system ones
	OUT relation regclass,			-- table, partitioned table or materialized view
	OUT kind text,					-- 'table', 'partitioned table' or 'materialized view'
	OUT tablespace name,			-- its tablespace; NULL if partitions lie in several
	OUT pages bigint,				-- main fork blocks, from the files now
	OUT mb float8,					-- main fork size from the files now, MB (= pg_relation_size)
	OUT relpages bigint,			-- pg_class.relpages, the planner's estimate (as of VACUUM/ANALYZE)
	OUT estimate_mb float8,			-- relpages * block_size, MB
	OUT reltuples float8,			-- pg_class.reltuples; NULL if never analyzed
	OUT toast_mb float8,			-- TOAST table and its index, MB
	OUT indexes_mb float8,			-- all indexes, MB (= pg_indexes_size)
	OUT total_mb float8				-- everything, MB (= pg_total_relation_size)
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	block_size bigint := current_setting('block_size')::bigint;
	one_mb float8 := 1048576;
BEGIN
	IF top IS NOT NULL AND top < 1 THEN
		RAISE EXCEPTION 'top must be at least 1'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Pass NULL to list every relation.';
	END IF;
	IF schema IS NOT NULL
	   AND NOT EXISTS (SELECT 1 FROM pg_namespace ns WHERE ns.nspname = schema) THEN
		RAISE EXCEPTION 'schema "%" does not exist', schema
			USING ERRCODE = 'invalid_schema_name';
	END IF;

	RETURN QUERY
	WITH listed AS (
		SELECT c.oid, c.relkind, c.reltablespace
		FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p', 'm')
		  AND NOT c.relispartition		-- counted in their partitioned table
		  AND NOT EXISTS (				-- benchstore's own history tables
			  SELECT 1 FROM pg_depend d
			  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'benchstore'
			  WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
				AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e')
		  AND CASE WHEN schema IS NULL
				   THEN n.nspname NOT IN ('pg_catalog', 'information_schema')
						AND n.nspname !~ '^pg_toast'
						AND NOT pg_is_other_temp_schema(n.oid)
				   ELSE n.nspname = schema END
	),
	member AS (					-- the relations whose files each listed one sums
		SELECT l.oid AS listed_oid, l.oid AS member_oid
		FROM listed l WHERE l.relkind <> 'p'
		UNION ALL
		SELECT l.oid, pt.relid
		FROM listed l, pg_partition_tree(l.oid) pt
		WHERE l.relkind = 'p' AND pt.isleaf
	),
	sized AS (
		SELECT m.listed_oid,
			   pg_relation_size(c.oid, 'main') AS main_bytes,
			   c.relpages,
			   c.reltuples,
			   CASE WHEN c.reltoastrelid <> 0
					THEN pg_total_relation_size(c.reltoastrelid) ELSE 0 END AS toast_bytes,
			   pg_indexes_size(c.oid) AS index_bytes,
			   pg_total_relation_size(c.oid) AS total_bytes,
			   CASE WHEN c.reltablespace = 0
					THEN (SELECT d.dattablespace FROM pg_database d
						  WHERE d.datname = current_database())
					ELSE c.reltablespace END AS spc
		FROM member m
		JOIN pg_class c ON c.oid = m.member_oid
	),
	summed AS (
		SELECT l.oid, l.relkind, l.reltablespace,
			   coalesce(sum(s.main_bytes), 0)::bigint AS main_bytes,
			   coalesce(sum(s.relpages), 0)::bigint AS relpages,
			   CASE WHEN bool_or(s.reltuples >= 0)
					THEN sum(greatest(s.reltuples, 0))::float8 END AS reltuples,
			   coalesce(sum(s.toast_bytes), 0)::bigint AS toast_bytes,
			   coalesce(sum(s.index_bytes), 0)::bigint AS index_bytes,
			   coalesce(sum(s.total_bytes), 0)::bigint AS total_bytes,
			   count(DISTINCT s.spc) AS nspc,
			   min(s.spc) AS spc
		FROM listed l
		LEFT JOIN sized s ON s.listed_oid = l.oid
		GROUP BY l.oid, l.relkind, l.reltablespace
	)
	SELECT s.oid::regclass,
		   CASE s.relkind WHEN 'r' THEN 'table'
						  WHEN 'p' THEN 'partitioned table'
						  ELSE 'materialized view' END,
		   CASE WHEN s.nspc = 1 THEN (SELECT t.spcname FROM pg_tablespace t WHERE t.oid = s.spc)
				WHEN s.nspc = 0 THEN (SELECT t.spcname FROM pg_tablespace t
									  WHERE t.oid = CASE WHEN s.reltablespace = 0
														 THEN (SELECT d.dattablespace FROM pg_database d
															   WHERE d.datname = current_database())
														 ELSE s.reltablespace END)
		   END,
		   s.main_bytes / block_size,
		   s.main_bytes / one_mb,
		   s.relpages,
		   s.relpages * block_size / one_mb,
		   s.reltuples,
		   s.toast_bytes / one_mb,
		   s.index_bytes / one_mb,
		   s.total_bytes / one_mb
	FROM summed s
	ORDER BY s.main_bytes DESC, s.total_bytes DESC, s.oid::regclass::text
	LIMIT top;
END;
$$;

COMMENT ON FUNCTION bench_relation_sizes(integer, name) IS
'relation sizes in MB from the files and from the planner''s estimate, largest first';

--
-- bench_tablespace_io: the dd and fio tests on temporary files in a
-- tablespace, one row per test.
--
CREATE FUNCTION bench_tablespace_io(
	tablespace name DEFAULT 'pg_default',
	size text DEFAULT '1GB',			-- per stream, pg_size_bytes syntax
	block_size text DEFAULT '8kB',		-- a power of two, 512 bytes .. 16 MB
	tests text[] DEFAULT '{seqwrite,seqread,randread}',	-- also randwrite, sync
	streams integer DEFAULT 1,			-- concurrent streams, 1 .. 64
	direct boolean DEFAULT true,		-- O_DIRECT
	duration interval DEFAULT '10s',	-- cap of the random and sync tests
	label text DEFAULT NULL,			-- recorded with the run (see bench_history)
	record boolean DEFAULT true,		-- false: do not record the run
	OUT tablespace name,				-- the tablespace ('total' for the sum of several)
	OUT test text,						-- seqwrite, seqread, randread, randwrite or sync
	OUT block_size text,				-- bytes per operation, e.g. '8kB'
	OUT streams integer,				-- streams that actually ran
	OUT direct boolean,					-- O_DIRECT used
	OUT bytes bigint,					-- bytes read or written, all streams
	OUT elapsed_ms float8,				-- wall-clock time from first start to last end, ms
	OUT mb_per_s float8,				-- MB (2^20 bytes) per second
	OUT iops float8,					-- operations (blocks) per second
	OUT lat_avg_us float8,				-- latency of one operation: mean, microseconds
	OUT lat_p50_us float8,				-- median
	OUT lat_p95_us float8,				-- 95th percentile
	OUT lat_p99_us float8,				-- 99th percentile
	OUT lat_p999_us float8,				-- 99.9th percentile
	OUT lat_max_us float8				-- maximum
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_tablespace_io'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean) IS
'sequential and random I/O, sync rate and latency percentiles on temporary files in a tablespace';

--
-- bench_tablespaces_io: the same on several tablespaces at once, one row per
-- tablespace and test plus a 'total' row per test.
--
CREATE FUNCTION bench_tablespaces_io(
	tablespaces name[],
	size text DEFAULT '1GB',
	block_size text DEFAULT '8kB',
	tests text[] DEFAULT '{seqwrite,seqread,randread}',
	streams integer DEFAULT 1,			-- per tablespace
	direct boolean DEFAULT true,
	duration interval DEFAULT '10s',
	label text DEFAULT NULL,
	record boolean DEFAULT true,
	OUT tablespace name,
	OUT test text,
	OUT block_size text,
	OUT streams integer,
	OUT direct boolean,
	OUT bytes bigint,
	OUT elapsed_ms float8,
	OUT mb_per_s float8,
	OUT iops float8,
	OUT lat_avg_us float8,
	OUT lat_p50_us float8,
	OUT lat_p95_us float8,
	OUT lat_p99_us float8,
	OUT lat_p999_us float8,
	OUT lat_max_us float8
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_tablespaces_io'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean) IS
'bench_tablespace_io on several tablespaces at once, with a total row per test';

-- They write server files: superusers and pg_write_server_files (with
-- CREATE on the tablespace), checked again in C.
REVOKE ALL ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean) TO pg_write_server_files;
GRANT EXECUTE ON FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean) TO pg_write_server_files;

--
-- History.  Every bench_seqscan, bench_tablespace_io and bench_tablespaces_io
-- call records its result rows (unless record => false), and bench_record
-- adds outside measurements: bench_run has one row per call, bench_result
-- one row per result row.  Both are extension configuration tables, so
-- pg_dump keeps their contents.  The C code inserts as the tables' owner,
-- naming the caller in recorded_by.
--
CREATE SEQUENCE bench_run_id_seq;

CREATE TABLE bench_run (
	run_id bigint PRIMARY KEY DEFAULT nextval('bench_run_id_seq'),
	started_at timestamptz NOT NULL,	-- when the call began
	finished_at timestamptz NOT NULL,	-- when its rows were recorded
	recorded_by name NOT NULL,			-- the role that ran it
	label text,							-- the label argument; never empty, never all digits
	benchmark text NOT NULL,			-- seqscan, tablespace_io, tablespaces_io, or an outside name
	target_kind text NOT NULL,			-- relation, tablespace or other
	target text,						-- relation or tablespace name(s), or bench_record's target
	target_oid oid,						-- its OID when it is one relation or tablespace
	arguments jsonb NOT NULL,			-- every argument of the call
	settings jsonb NOT NULL,			-- server settings, tablespaces' filesystems, host
	CHECK (label <> '' AND label !~ '^[0-9]+$'),
	CHECK (target_kind IN ('relation', 'tablespace', 'other'))
);
CREATE INDEX bench_run_label_idx ON bench_run (label);

CREATE TABLE bench_result (
	run_id bigint NOT NULL REFERENCES bench_run ON DELETE CASCADE,
	row_no integer NOT NULL,			-- 1 .. rows of the call, in output order
	metrics jsonb NOT NULL,				-- the result row: column name -> value
	PRIMARY KEY (run_id, row_no),
	CHECK (jsonb_typeof(metrics) = 'object')
);

SELECT pg_catalog.pg_extension_config_dump('bench_run', '');
SELECT pg_catalog.pg_extension_config_dump('bench_result', '');
SELECT pg_catalog.pg_extension_config_dump('bench_run_id_seq', '');

-- Everyone who can connect reads the history, as pg_dump must (row-level
-- security would stop every non-superuser's pg_dump of the database).
-- Only the benchmarks and bench_record insert, and only bench_forget
-- deletes: all of them in C, as the tables' owner, on behalf of the caller
-- (a role removes its own runs; a superuser any).
GRANT SELECT ON bench_run TO PUBLIC;
GRANT SELECT ON bench_result TO PUBLIC;
GRANT SELECT ON SEQUENCE bench_run_id_seq TO PUBLIC;

--
-- bench_metric: a number from a result row's metrics, NULL when the key is
-- missing, not a number, or outside float8's range.
--
CREATE FUNCTION bench_metric(metrics jsonb, name text)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.jsonb_typeof(metrics -> name) = 'number'
				 AND pg_catalog.abs((metrics ->> name)::pg_catalog.numeric) <= 1e300
				 AND (pg_catalog.abs((metrics ->> name)::pg_catalog.numeric) >= 1e-300
					  OR (metrics ->> name)::pg_catalog.numeric = 0)
			THEN (metrics ->> name)::pg_catalog.float8 END;

COMMENT ON FUNCTION bench_metric(jsonb, text) IS
'a numeric metric of a recorded result row, NULL when missing or not a number';

--
-- bench_history: every recorded result row with readable columns.
--
CREATE VIEW bench_history WITH (security_invoker = true) AS
SELECT r.run_id,
	   x.row_no,
	   r.started_at,
	   r.recorded_by,
	   r.label,
	   r.benchmark,
	   r.target_kind,
	   CASE WHEN r.benchmark IN ('tablespace_io', 'tablespaces_io')
			THEN x.metrics ->> 'tablespace' ELSE r.target END AS target,
	   coalesce(x.metrics ->> 'test', x.metrics ->> 'mode') AS test,
	   x.metrics ->> 'cache' AS cache,
	   x.metrics ->> 'block_size' AS block_size,
	   CASE WHEN bench_metric(x.metrics, 'streams') BETWEEN 0 AND 2147483647
			THEN bench_metric(x.metrics, 'streams')::integer
			-- a scan's processes: the caller and the workers it asked for
			WHEN bench_metric(x.metrics, 'workers_requested') BETWEEN 0 AND 2147483646
			THEN bench_metric(x.metrics, 'workers_requested')::integer + 1
	   END AS streams,
	   CASE WHEN jsonb_typeof(x.metrics -> 'direct') = 'boolean'
			THEN (x.metrics ->> 'direct')::boolean END AS direct,
	   bench_metric(x.metrics, 'size_mb') AS size_mb,
	   bench_metric(x.metrics, 'elapsed_ms') AS elapsed_ms,
	   bench_metric(x.metrics, 'mb_per_s') AS mb_per_s,
	   bench_metric(x.metrics, 'iops') AS iops,
	   bench_metric(x.metrics, 'tuples_per_s') AS tuples_per_s,
	   bench_metric(x.metrics, 'lat_avg_us') AS lat_avg_us,
	   bench_metric(x.metrics, 'lat_p50_us') AS lat_p50_us,
	   bench_metric(x.metrics, 'lat_p95_us') AS lat_p95_us,
	   bench_metric(x.metrics, 'lat_p99_us') AS lat_p99_us,
	   bench_metric(x.metrics, 'lat_p999_us') AS lat_p999_us,
	   bench_metric(x.metrics, 'lat_max_us') AS lat_max_us,
	   bench_metric(x.metrics, 'tps') AS tps,
	   x.metrics
FROM bench_run r
JOIN bench_result x ON x.run_id = r.run_id;

COMMENT ON VIEW bench_history IS
'every recorded benchmark result row, one per row the benchmark returned';

GRANT SELECT ON bench_history TO PUBLIC;

--
-- bench_record: store an outside measurement (a pgbench run, say) beside
-- the recorded benchmarks.  metrics is one object (one result row) or an
-- array of objects; arguments, how it was run.  Returns the run id.
--
CREATE FUNCTION bench_record(
	benchmark text,					-- the tool or test, e.g. 'pgbench'
	target text,					-- what it ran against; a tablespace name is recognised
	metrics jsonb,					-- e.g. '{"tps": 1234.5, "latency_avg_ms": 6.5}'
	label text DEFAULT NULL,
	arguments jsonb DEFAULT NULL	-- e.g. '{"clients": 8, "duration_s": 60}'
)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bench_record'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_record(text, text, jsonb, text, jsonb) IS
'record an outside measurement (for example pgbench tps) in the benchmark history';

--
-- bench_run_ids: the runs a label or a run id stands for (labels are never
-- all digits, so a number is a run id).
--
CREATE FUNCTION bench_run_ids(ref text)
RETURNS bigint[]
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
BEGIN
	IF ref IS NULL THEN
		RAISE EXCEPTION 'label or run id cannot be null'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF ref ~ '^[0-9]{1,18}$' THEN
		RETURN ARRAY(SELECT r.run_id FROM bench_run r WHERE r.run_id = ref::bigint);
	END IF;
	RETURN ARRAY(SELECT r.run_id FROM bench_run r WHERE r.label = ref ORDER BY r.run_id);
END;
$$;

COMMENT ON FUNCTION bench_run_ids(text) IS
'the recorded runs a label or a run id stands for';

--
-- bench_forget: remove recorded runs, by run id or by label.  Returns how
-- many runs and result rows were removed.  Runs recorded by other roles
-- are removed only by superusers.
--
CREATE FUNCTION bench_forget(
	ref text,						-- a label, or a run id
	OUT runs bigint,				-- runs removed
	OUT result_rows bigint			-- their result rows, removed with them
)
RETURNS record
AS 'MODULE_PATHNAME', 'bench_forget'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

CREATE FUNCTION bench_forget(
	run_id bigint,
	OUT runs bigint,
	OUT result_rows bigint
)
RETURNS record
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN @extschema@.bench_forget(run_id::text);

COMMENT ON FUNCTION bench_forget(text) IS
'remove the recorded runs of a label (or one run, by id); returns the runs and result rows removed';
COMMENT ON FUNCTION bench_forget(bigint) IS
'remove one recorded run; returns the runs and result rows removed';

--
-- bench_run_json: one recorded run with its arguments, settings and result
-- rows, as a jsonb document.
--
CREATE FUNCTION bench_run_json(run_id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	doc jsonb;
BEGIN
	SELECT jsonb_build_object(
			   'run_id', r.run_id,
			   'started_at', r.started_at,
			   'finished_at', r.finished_at,
			   'recorded_by', r.recorded_by,
			   'label', r.label,
			   'benchmark', r.benchmark,
			   'target_kind', r.target_kind,
			   'target', r.target,
			   'target_oid', r.target_oid::bigint,
			   'arguments', r.arguments,
			   'settings', r.settings,
			   'results', coalesce((SELECT jsonb_agg(x.metrics ORDER BY x.row_no)
									FROM bench_result x WHERE x.run_id = r.run_id),
								   '[]'::jsonb))
	INTO doc
	FROM bench_run r
	WHERE r.run_id = bench_run_json.run_id;

	IF doc IS NULL AND run_id IS NOT NULL THEN
		RAISE EXCEPTION 'no recorded run has id %', run_id
			USING ERRCODE = 'undefined_object',
				  HINT = 'The bench_history view lists the runs you can see.';
	END IF;
	RETURN doc;
END;
$$;

COMMENT ON FUNCTION bench_run_json(bigint) IS
'a recorded run with its arguments, settings and result rows as jsonb';

--
-- bench_compare: two labels (or run ids) side by side, one row per
-- comparable measurement and metric.  Measurements are comparable when
-- benchmark, target kind, test, cache, block size, streams and O_DIRECT
-- agree, and the targets too, unless each side has a single target of that
-- measurement (then fast1 is compared with fast3).
--
-- Repeated measurements under a label (repeat => n, or several calls) are
-- averaged, and their spread is the noise: the verdict is 'better' or
-- 'worse' when the candidate's mean differs from the baseline's by more
-- than the 95 % confidence interval of the difference (Welch's t test; with
-- repeats on one side only, that side's spread stands for both), otherwise
-- 'within noise'.  One measurement on each side gives no verdict.
--
CREATE FUNCTION bench_compare(
	baseline text,					-- a label, or a run id
	candidate text,					-- a label, or a run id
	metrics text[] DEFAULT NULL,	-- metrics to compare; NULL: the headline ones
	OUT benchmark text,
	OUT target text,				-- 'fast1', or 'fast1 / fast3' when they differ
	OUT test text,					-- I/O test, or scan mode
	OUT cache text,
	OUT block_size text,
	OUT streams integer,
	OUT direct boolean,
	OUT metric text,
	OUT baseline_runs integer,		-- measurements averaged
	OUT candidate_runs integer,
	OUT baseline_value float8,		-- mean
	OUT candidate_value float8,		-- mean
	OUT ratio float8,				-- candidate / baseline
	OUT noise_pct float8,			-- smallest change that counts, % of the baseline
	OUT verdict text				-- better, worse, within noise, or no verdict: ...
)
RETURNS SETOF record
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	b_ids bigint[] := bench_run_ids(baseline);
	c_ids bigint[] := bench_run_ids(candidate);
	-- two-sided 95 % quantiles of Student's t for 1 .. 30 degrees of freedom
	t95 float8[] := '{12.706,4.303,3.182,2.776,2.571,2.447,2.365,2.306,2.262,2.228,
					  2.201,2.179,2.160,2.145,2.131,2.120,2.110,2.101,2.093,2.086,
					  2.080,2.074,2.069,2.064,2.060,2.056,2.052,2.048,2.045,2.042}';
	found_any boolean := false;
BEGIN
	IF cardinality(b_ids) = 0 THEN
		RAISE EXCEPTION 'no recorded run has label or run id "%"', baseline
			USING ERRCODE = 'undefined_object',
				  HINT = 'SELECT DISTINCT label FROM bench_history lists the labels you can see.';
	END IF;
	IF cardinality(c_ids) = 0 THEN
		RAISE EXCEPTION 'no recorded run has label or run id "%"', candidate
			USING ERRCODE = 'undefined_object',
				  HINT = 'SELECT DISTINCT label FROM bench_history lists the labels you can see.';
	END IF;

	FOR benchmark, target, test, cache, block_size, streams, direct, metric,
		baseline_runs, candidate_runs, baseline_value, candidate_value, ratio,
		noise_pct, verdict IN
	WITH measured AS (
		SELECT 'b' AS side, h.* FROM bench_history h WHERE h.run_id = ANY (b_ids)
		UNION ALL
		SELECT 'c' AS side, h.* FROM bench_history h WHERE h.run_id = ANY (c_ids)
	),
	vals AS (
		SELECT m.side, m.benchmark, m.target_kind, m.target, m.test, m.cache,
			   m.block_size, m.streams, m.direct, k.metric,
			   bench_metric(m.metrics, k.metric) AS value
		FROM measured m
		CROSS JOIN LATERAL unnest(CASE
			WHEN bench_compare.metrics IS NOT NULL THEN bench_compare.metrics
			WHEN m.benchmark IN ('seqscan', 'cluster_seqscan') THEN ARRAY['mb_per_s']
			WHEN m.benchmark = 'query' THEN ARRAY['elapsed_ms']
			WHEN m.benchmark IN ('tablespace_io', 'tablespaces_io', 'cluster_tablespace_io') THEN
				CASE WHEN m.test IN ('seqwrite', 'seqread')
					 THEN ARRAY['mb_per_s', 'lat_p99_us']
					 ELSE ARRAY['iops', 'lat_p99_us'] END
			ELSE ARRAY(SELECT e.key FROM jsonb_each(m.metrics) e
					   WHERE jsonb_typeof(e.value) = 'number' ORDER BY e.key)
		END) AS k(metric)
		WHERE bench_metric(m.metrics, k.metric) IS NOT NULL
	),
	grouped AS (
		SELECT v.side, v.benchmark, v.target_kind, v.target, v.test, v.cache,
			   v.block_size, v.streams, v.direct, v.metric,
			   count(*)::integer AS n, avg(v.value) AS mean,
			   coalesce(stddev_samp(v.value), 0) AS sd
		FROM vals v
		GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
	),
	sided AS (
		SELECT g.*,
			   count(*) OVER (PARTITION BY g.side, g.benchmark, g.target_kind, g.test,
								  g.cache, g.block_size, g.streams, g.direct, g.metric) AS ntargets
		FROM grouped g
	),
	pairs AS (
		SELECT b.benchmark, b.test, b.cache, b.block_size, b.streams, b.direct, b.metric,
			   b.target AS b_target, c.target AS c_target,
			   b.n AS bn, c.n AS cn, b.mean AS bm, c.mean AS cm, b.sd AS bs, c.sd AS cs
		FROM sided b
		JOIN sided c
		  ON b.side = 'b' AND c.side = 'c'
		 AND b.benchmark = c.benchmark AND b.target_kind = c.target_kind
		 AND b.test IS NOT DISTINCT FROM c.test
		 AND b.cache IS NOT DISTINCT FROM c.cache
		 AND b.block_size IS NOT DISTINCT FROM c.block_size
		 AND b.streams IS NOT DISTINCT FROM c.streams
		 AND b.direct IS NOT DISTINCT FROM c.direct
		 AND b.metric = c.metric
		 AND (b.target IS NOT DISTINCT FROM c.target OR (b.ntargets = 1 AND c.ntargets = 1))
	),
	stats AS (
		SELECT p.*,
			   -- standard error of the difference of the means, and its degrees of freedom
			   CASE WHEN p.bn >= 2 AND p.cn >= 2 THEN sqrt(p.bs ^ 2 / p.bn + p.cs ^ 2 / p.cn)
					WHEN p.bn >= 2 THEN p.bs * sqrt(1.0 / p.bn + 1.0 / p.cn)
					WHEN p.cn >= 2 THEN p.cs * sqrt(1.0 / p.bn + 1.0 / p.cn) END AS se,
			   CASE WHEN p.bn >= 2 AND p.cn >= 2 THEN
						CASE WHEN p.bs = 0 AND p.cs = 0 THEN NULL
							 ELSE (p.bs ^ 2 / p.bn + p.cs ^ 2 / p.cn) ^ 2 /
								  ((p.bs ^ 2 / p.bn) ^ 2 / (p.bn - 1) +
								   (p.cs ^ 2 / p.cn) ^ 2 / (p.cn - 1)) END
					WHEN p.bn >= 2 THEN p.bn - 1
					WHEN p.cn >= 2 THEN p.cn - 1 END AS df,
			   -- lower is better for times and latencies, higher for rates and the rest
			   (p.metric ~ '_per_(s|sec|second)$'
				OR p.metric !~ '(^lat_|latency|elapsed|_(ms|us|ns|s|sec|seconds)$)') AS higher_better
		FROM pairs p
	),
	judged AS (
		SELECT s.*,
			   s.se * CASE WHEN s.df IS NULL OR s.df > 30 THEN 1.96 + 2.4 / coalesce(s.df, 1e9)
						   ELSE t95[greatest(1, floor(s.df)::integer)] END AS half
		FROM stats s
	)
	SELECT j.benchmark,
		   CASE WHEN j.b_target IS NOT DISTINCT FROM j.c_target THEN j.b_target
				ELSE coalesce(j.b_target, '?') || ' / ' || coalesce(j.c_target, '?') END,
		   j.test, j.cache, j.block_size, j.streams, j.direct, j.metric,
		   j.bn, j.cn,
		   round(j.bm::numeric, 2)::float8,
		   round(j.cm::numeric, 2)::float8,
		   round((j.cm / nullif(j.bm, 0))::numeric, 3)::float8,
		   round((100 * j.half / nullif(abs(j.bm), 0))::numeric, 1)::float8,
		   CASE WHEN j.se IS NULL THEN 'no verdict: one run each'
				WHEN j.se = 0 AND j.cm <> j.bm THEN 'no verdict: no spread'
				WHEN abs(j.cm - j.bm) <= j.half THEN 'within noise'
				WHEN (j.cm > j.bm) = j.higher_better THEN 'better'
				ELSE 'worse' END
	FROM judged j
	ORDER BY j.benchmark, j.b_target, j.c_target,
			 array_position(ARRAY['seqwrite', 'seqread', 'randread', 'randwrite', 'sync'], j.test),
			 j.test, j.cache,
			 CASE WHEN j.block_size ~ '^[0-9]{1,9} ?(bytes|kB|MB|GB)$' THEN pg_size_bytes(j.block_size) END,
			 j.block_size, j.streams, j.direct, j.metric
	LOOP
		found_any := true;
		RETURN NEXT;
	END LOOP;

	IF NOT found_any THEN
		RAISE NOTICE 'nothing to compare: "%" and "%" have no measurement in common', baseline, candidate
			USING HINT = 'Measurements compare when benchmark, test, cache, block size, streams and direct agree.';
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_compare(text, text, text[]) IS
'compare two labels (or run ids) measurement by measurement, with a verdict that respects the noise of repeated runs';

--
-- bench_chart: a metric as horizontal bars, one line per label (and per
-- whatever else differs between the measurements shown: test, block size,
-- target, streams), scaled so that the largest mean fills width cells.
-- Unicode block characters, or '#' when the server or client encoding is
-- not UTF8.
--
CREATE FUNCTION bench_chart(
	metric text,					-- mb_per_s, iops, lat_p99_us, tps, ...
	label_like text DEFAULT NULL,	-- LIKE pattern on labels; NULL: every run
	benchmark text DEFAULT NULL,	-- only this benchmark
	target text DEFAULT NULL,		-- only this relation or tablespace
	test text DEFAULT NULL,			-- only this test (or scan mode)
	width integer DEFAULT 50,		-- cells of the longest bar, 1 .. 500
	OUT chart text
)
RETURNS SETOF text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
#variable_conflict use_column
DECLARE
	unicode boolean := current_setting('server_encoding') = 'UTF8'
					   AND current_setting('client_encoding') = 'UTF8';
	unit text;
	n integer := 0;
BEGIN
	IF metric IS NULL THEN
		RAISE EXCEPTION 'metric cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF width IS NULL OR width < 1 OR width > 500 THEN
		RAISE EXCEPTION 'width must be between 1 and 500'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;

	unit := CASE WHEN metric = 'mb_per_s' THEN 'MB/s'
				 WHEN metric = 'iops' THEN 'IOPS'
				 WHEN metric = 'tps' THEN 'tps'
				 WHEN metric = 'tuples_per_s' THEN 'tuples/s'
				 WHEN metric ~ '_us$' THEN CASE WHEN unicode THEN chr(181) || 's' ELSE 'us' END
				 WHEN metric ~ '_ms$' THEN 'ms'
				 WHEN metric ~ '_mb$' THEN 'MB'
				 WHEN metric ~ '_per_s$' THEN '/s'
				 ELSE '' END;

	FOR chart IN
	WITH sel AS (
		SELECT coalesce(h.label, 'run ' || h.run_id) AS label, h.started_at,
			   h.benchmark, h.target, h.test, h.cache, h.block_size, h.streams, h.direct,
			   bench_metric(h.metrics, bench_chart.metric) AS value
		FROM bench_history h
		WHERE (bench_chart.label_like IS NULL OR h.label LIKE bench_chart.label_like)
		  AND (bench_chart.benchmark IS NULL OR h.benchmark = bench_chart.benchmark)
		  AND (bench_chart.target IS NULL OR h.target = bench_chart.target)
		  AND (bench_chart.test IS NULL OR h.test = bench_chart.test)
		  AND bench_metric(h.metrics, bench_chart.metric) IS NOT NULL
	),
	bars AS (
		SELECT s.label, s.benchmark, s.target, s.test, s.cache, s.block_size,
			   s.streams, s.direct, avg(s.value) AS value, min(s.started_at) AS first_at
		FROM sel s
		GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
	),
	-- name each bar by what differs between the bars
	varies AS (
		SELECT count(DISTINCT b.label) > 1 AS label,
			   count(DISTINCT b.benchmark) > 1 AS benchmark,
			   count(DISTINCT coalesce(b.target, '')) > 1 AS target,
			   count(DISTINCT coalesce(b.test, '')) > 1 AS test,
			   count(DISTINCT coalesce(b.cache, '')) > 1 AS cache,
			   count(DISTINCT coalesce(b.block_size, '')) > 1 AS block_size,
			   count(DISTINCT coalesce(b.streams, 0)) > 1 AS streams,
			   count(DISTINCT coalesce(b.direct::text, '')) > 1 AS direct
		FROM bars b
	),
	named AS (
		SELECT b.*,
			   coalesce(nullif(concat_ws(' ',
					CASE WHEN v.label THEN b.label END,
					CASE WHEN v.benchmark THEN b.benchmark END,
					CASE WHEN v.target THEN b.target END,
					CASE WHEN v.test THEN b.test END,
					CASE WHEN v.cache THEN b.cache END,
					CASE WHEN v.block_size THEN b.block_size END,
					CASE WHEN v.streams THEN b.streams ||
						 CASE WHEN b.benchmark LIKE '%seqscan' THEN ' process' ELSE ' stream' END ||
						 CASE WHEN b.streams = 1 THEN ''
							  WHEN b.benchmark LIKE '%seqscan' THEN 'es' ELSE 's' END END,
					CASE WHEN v.direct THEN CASE b.direct WHEN true THEN 'direct' WHEN false THEN 'buffered' END END),
					''), b.label) AS name,
			   min(b.first_at) OVER (PARTITION BY b.label) AS label_at,
			   max(b.value) OVER () AS top,
			   round(b.value::numeric, 1)::text AS shown
		FROM bars b, varies v
	),
	drawn AS (
		SELECT nb.*,
			   CASE WHEN nb.top > 0 AND nb.value > 0
					THEN greatest(1, round(nb.value / nb.top * width * 8))::integer
					ELSE 0 END AS eighths
		FROM named nb
	)
	SELECT rpad(d.name, max(length(d.name)) OVER ()) || '  ' ||
		   rpad(CASE WHEN unicode
					 THEN repeat(chr(9608), d.eighths / 8) ||
						  CASE WHEN d.eighths % 8 > 0 THEN chr(9616 - d.eighths % 8) ELSE '' END
					 ELSE CASE WHEN d.eighths > 0 AND d.eighths < 4 THEN '.'
							   ELSE repeat('#', round(d.eighths / 8.0)::integer) END
				END, width) || '  ' ||
		   lpad(d.shown, max(length(d.shown)) OVER ()) ||
		   CASE WHEN unit <> '' THEN ' ' || unit ELSE '' END
	FROM drawn d
	ORDER BY d.label_at, d.label, d.benchmark, d.target,
			 array_position(ARRAY['seqwrite', 'seqread', 'randread', 'randwrite', 'sync'], d.test),
			 d.test, d.cache,
			 CASE WHEN d.block_size ~ '^[0-9]{1,9} ?(bytes|kB|MB|GB)$' THEN pg_size_bytes(d.block_size) END,
			 d.block_size, d.streams, d.direct
	LOOP
		n := n + 1;
		RETURN NEXT;
	END LOOP;

	IF n = 0 THEN
		RAISE NOTICE 'no recorded measurement of "%" matches', metric
			USING HINT = 'The metrics are the keys of bench_history.metrics, such as mb_per_s, iops, lat_p99_us or tps.';
	END IF;
END;
$$;

COMMENT ON FUNCTION bench_chart(text, text, text, text, text, integer) IS
'a recorded metric as horizontal text bars, one line per label (and per test, block size, target, ... where they differ)';

GRANT EXECUTE ON FUNCTION bench_record(text, text, jsonb, text, jsonb) TO PUBLIC;
