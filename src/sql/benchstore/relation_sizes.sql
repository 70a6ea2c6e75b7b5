-- src/sql/benchstore/relation_sizes.sql: bench_relation_sizes: relation
-- sizes in MB from the files and from the planner's estimate.

--
-- bench_relation_sizes: the classic
--   select relname, 8*relpages/128 as MB from pg_class order by relpages desc
-- done right: real file sizes beside the planner's estimate, for any block
-- size, partitioned tables summed over their partitions.
--
CREATE OR REPLACE FUNCTION bench_relation_sizes(
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
