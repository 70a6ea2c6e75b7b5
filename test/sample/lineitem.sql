-- A lineitem-shaped sample table: the columns and types of TPC-H's
-- lineitem, filled deterministically from generate_series (not TPC-H data).
-- Usage: psql -v rows=300000 [-v table=lineitem] -f test/sample/lineitem.sql
-- About 6,700 rows per MB on disk.
\if :{?table}
\else
\set table lineitem
\endif
\set ON_ERROR_STOP on

DROP TABLE IF EXISTS :"table";
CREATE TABLE :"table" (
	l_orderkey		bigint NOT NULL,
	l_partkey		integer NOT NULL,
	l_suppkey		integer NOT NULL,
	l_linenumber	integer NOT NULL,
	l_quantity		numeric(15,2) NOT NULL,
	l_extendedprice numeric(15,2) NOT NULL,
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
);

INSERT INTO :"table"
SELECT g / 4 + 1,
	   (g * 7919) % 200000 + 1,
	   (g * 104729) % 10000 + 1,
	   g % 4 + 1,
	   (g % 50) + 1,
	   ((g % 50) + 1) * (900 + (g * 31) % 1100),
	   (g % 11) / 100.0,
	   (g % 9) / 100.0,
	   (ARRAY['A', 'N', 'R'])[g % 3 + 1],
	   (ARRAY['F', 'O'])[g % 2 + 1],
	   date '1992-01-02' + ((g * 13) % 2526)::int,
	   date '1992-01-31' + ((g * 17) % 2466)::int,
	   date '1992-01-03' + ((g * 19) % 2554)::int,
	   (ARRAY['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'])[g % 4 + 1],
	   (ARRAY['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'])[g % 7 + 1],
	   left(md5(g::text) || md5((g + 1)::text), (10 + g % 34)::int)
FROM generate_series(0::bigint, :rows - 1) AS g;

VACUUM (FREEZE, ANALYZE) :"table";
