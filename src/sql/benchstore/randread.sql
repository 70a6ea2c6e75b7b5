-- src/sql/benchstore/randread.sql: bench_randread (src/randread.c),
-- bench_generate_randread and bench_readahead_sweep.

--
-- bench_generate_randread (1.2): a table whose keys lie in random order in
-- the heap, with an index on the key, as pgio and Vondra load theirs: an
-- index scan over a key range reads its blocks in random order, which the
-- kernel's and the server's read-ahead cannot guess.
--
-- _bench_random_keys: positions first .. last of seed's order over 1 .. n.
CREATE OR REPLACE FUNCTION _bench_random_keys(n bigint, seed bigint, first bigint, last bigint)
RETURNS SETOF bigint
AS 'MODULE_PATHNAME', '_bench_random_keys'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
ROWS 1000;

COMMENT ON FUNCTION _bench_random_keys(bigint, bigint, bigint, bigint) IS
'internal: positions first .. last of a seeded random order of 1 .. n (bench_generate_randread''s keys)';

--
-- bench_randread (1.2): random block reads of a relation through the
-- buffer manager, as an index scan's heap fetches read them; the order is
-- seeded, each block read once before any again.
--
CREATE OR REPLACE FUNCTION bench_randread(
	relation regclass,
	reads bigint DEFAULT 100000,	-- blocks to read, 1 .. 10^9; past the relation's size, blocks are read again in a new order
	cache text DEFAULT 'warm',		-- warm | cold
	depth integer DEFAULT 1,		-- 1: one read at a time; N: N reads in flight, through a read stream (17+) or PrefetchBuffer, 1 .. 256
	repeat integer DEFAULT 1,		-- runs, 1 .. 1000, each of the same blocks in the same order
	label text DEFAULT NULL,		-- recorded with the run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the run
	seed bigint DEFAULT 0,			-- the order's seed: the same seed reads the same blocks in the same order
	sample_interval interval DEFAULT '1s',	-- one sample of the time series per interval, 10 ms .. 1 h; NULL: none
	workers integer DEFAULT 0,		-- parallel workers beside the caller, 0 .. 64, sharing the order's positions (each at depth)
	OUT run integer,				-- 1 .. repeat
	OUT relation regclass,			-- the relation named (partitions taken as one run of blocks)
	OUT tablespace name,			-- its tablespace; NULL if partitions lie in several
	OUT cache text,					-- warm or cold
	OUT depth integer,				-- the depth argument
	OUT reads bigint,				-- blocks read
	OUT blocks bigint,				-- blocks in the relation's main fork (all partitions')
	OUT tuples bigint,				-- heap: normal line pointers on the pages read (each time read); an index: NULL
	OUT elapsed_ms float8,			-- wall-clock time of the reads, ms
	OUT reads_per_s float8,			-- reads / elapsed seconds
	OUT mb_per_s float8,			-- reads * block_size in MB (2^20 bytes) / elapsed seconds
	OUT lat_avg_us float8,			-- time of one read (pin, share-lock, count, release): mean, µs; NULL without track_latency
	OUT lat_p50_us float8,			-- median
	OUT lat_p95_us float8,			-- 95th percentile
	OUT lat_p99_us float8,			-- 99th percentile
	OUT blks_hit bigint,			-- reads found in shared (or local) buffers
	OUT blks_read bigint,			-- reads PostgreSQL asked the OS for (page-cache hits included)
	OUT read_ms float8,				-- time in those reads, ms; NULL unless track_io_timing
	OUT os_read_mb float8,			-- MB the kernel read from storage for this backend; NULL if unknown
	OUT cached_pct float8,			-- cold: % of the pages still cached when the run began (0: cold); warm: NULL
	OUT warnings text,				-- cold: what stayed cached and why, and a cache below the server that answered; NULL: nothing
	OUT served_by text,				-- cold: 'storage' or 'cache below'; warm: NULL
	OUT page_cache_reads bigint,	-- reads the OS page cache answered: every page of the block resident when the read was asked; NULL if unknown
	OUT device_reads bigint,		-- reads the device served (RIOPS counts these); NULL if unknown
	OUT device_reads_per_s float8,	-- device_reads / elapsed seconds; NULL if unknown
	OUT readahead_mb float8,		-- cold: MB the kernel read into the relation's page cache beyond the device reads (its read-ahead); warm: NULL
	OUT prefetch text,				-- how reads were announced ahead: 'none' (depth 1), 'PrefetchBuffer', 'read stream' (17+)
	OUT by_class jsonb,				-- per class (shared_buffers, page_cache, device): reads and latency avg/p50/p95/p99, µs
	OUT workers_launched integer,	-- parallel workers that read (fewer than asked when none are free)
	OUT by_process jsonb			-- with workers: each process's reads, reads/s, classes, p50/p99 and kernel MB; NULL: one process
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bench_randread'
LANGUAGE C VOLATILE PARALLEL UNSAFE
ROWS 1;

COMMENT ON FUNCTION bench_randread(regclass, bigint, text, integer, integer, text, boolean, bigint, interval, integer) IS
'time random block reads of a relation through the buffer manager (warm or cold, at a prefetch depth), one row per run';

CREATE OR REPLACE FUNCTION bench_generate_randread(
	size text DEFAULT '1GB',		-- the table's heap, pg_size_bytes syntax: 1 MB .. 32 TB
	tablespace name DEFAULT NULL,	-- tablespace of the table and its index; NULL: default_tablespace
	fillfactor integer DEFAULT 10,	-- 10 .. 100; 10 puts one row in each page, as pgio does
	table_name name DEFAULT 'randread',	-- the table to create
	schema name DEFAULT 'public',	-- an existing schema to create it in
	replace boolean DEFAULT false,	-- true: drop the table first, if the caller owns it and this function generated it, unchanged
	seed bigint DEFAULT 0,			-- the keys' order: the same seed gives the same table
	OUT relation regclass,			-- the table created
	OUT rows bigint,				-- rows inserted, keys 1 .. rows
	OUT rows_per_page integer,		-- rows in each full page, as fillfactor leaves them
	OUT pages bigint,				-- pages of the table's main fork
	OUT mb float8,					-- main fork size, MB (2^20 bytes; = pg_relation_size)
	OUT index_mb float8,			-- its primary key index, MB
	OUT elapsed_ms float8			-- time to load it, index it and analyze it, ms
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off
AS $$
DECLARE
	marker constant text := 'random-order table generated by bench_generate_randread';
	-- each row: its key and 512 bytes of SHA-512 output (incompressible)
	row_width constant integer := 24 + 8 + 4 + 512;	-- tuple header, key, pad (varlena)
	block_size constant integer := current_setting('block_size')::integer;
	size_bytes numeric;
	tuple_len integer;
	save_free integer;
	page_free integer;
	target_pages bigint;
	qualified text;
	spc_clause text := '';
	idx_clause text := '';
	existing oid;
	existing_owner oid;
	batch bigint;
	done bigint := 0;
	next_report timestamptz;
	last_report timestamptz;
	last_done bigint := 0;
	interval_ms integer;
	started timestamptz := clock_timestamp();
	n bigint;
BEGIN
	IF size IS NULL OR fillfactor IS NULL OR table_name IS NULL OR schema IS NULL
	   OR replace IS NULL OR seed IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN size IS NULL THEN 'size' WHEN fillfactor IS NULL THEN 'fillfactor'
				 WHEN table_name IS NULL THEN 'table_name' WHEN schema IS NULL THEN 'schema'
				 WHEN replace IS NULL THEN 'replace' ELSE 'seed' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- the module defines benchstore.progress_interval when it loads
	PERFORM @extschema@._bench_random_keys(1, 0, 1, 0);
	SELECT s.setting::integer INTO interval_ms FROM pg_settings s
	WHERE s.name = 'benchstore.progress_interval';
	size_bytes := pg_size_bytes(size);
	IF size_bytes < 1048576 OR size_bytes > 32 * 1024::numeric ^ 4 THEN
		RAISE EXCEPTION 'size must be between 1 MB and 32 TB'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'A table several times the size of RAM defeats the OS page cache; see bench_randread''s cache => ''cold'' for smaller ones.';
	END IF;
	IF fillfactor < 10 OR fillfactor > 100 THEN
		RAISE EXCEPTION 'fillfactor must be between 10 and 100'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_namespace s WHERE s.nspname = schema) THEN
		RAISE EXCEPTION 'schema "%" does not exist', schema
			USING ERRCODE = 'invalid_schema_name';
	END IF;
	IF tablespace IS NOT NULL THEN
		IF NOT EXISTS (SELECT 1 FROM pg_tablespace t WHERE t.spcname = tablespace) THEN
			RAISE EXCEPTION 'tablespace "%" does not exist', tablespace
				USING ERRCODE = 'undefined_object';
		END IF;
		spc_clause := format(' TABLESPACE %I', tablespace);
		idx_clause := format(' USING INDEX TABLESPACE %I', tablespace);
	END IF;
	qualified := format('%I.%I', schema, table_name);

	-- An existing table is replaced only when asked to, only if the caller
	-- owns it, and only if this function made it and nobody reloaded it
	-- since (its comment names its file; a comment only its owner, the
	-- caller, could have written); DROP ... RESTRICT refuses what depends
	-- on it.
	SELECT c.oid, c.relowner INTO existing, existing_owner
	FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
	WHERE s.nspname = schema AND c.relname = table_name;
	IF FOUND THEN
		IF NOT replace THEN
			RAISE EXCEPTION 'relation "%" already exists', qualified
				USING ERRCODE = 'duplicate_table',
					  HINT = 'Pass replace => true to drop it and generate it again, or choose another table_name.';
		END IF;
		IF existing_owner IS DISTINCT FROM (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user) THEN
			RAISE EXCEPTION 'cannot replace table "%" because it is owned by role "%"', qualified,
					(SELECT r.rolname FROM pg_roles r WHERE r.oid = existing_owner)
				USING ERRCODE = 'insufficient_privilege',
					  DETAIL = 'replace drops only a table the caller owns and bench_generate_randread generated.',
					  HINT = 'Choose another table_name, or have its owner drop it.';
		END IF;
		IF obj_description(existing, 'pg_class') IS DISTINCT FROM
		   format('%s: file %s', marker, (SELECT c.relfilenode FROM pg_class c WHERE c.oid = existing)) THEN
			RAISE EXCEPTION 'cannot replace table "%" because bench_generate_randread did not generate it as it is', qualified
				USING ERRCODE = 'insufficient_privilege',
					  DETAIL = 'replace drops only a table bench_generate_randread generated, whose file was not rewritten or reloaded since.',
					  HINT = 'Choose another table_name, or drop the table yourself.';
		END IF;
		EXECUTE format('DROP TABLE %s RESTRICT', qualified);
	END IF;

	-- Rows per page as the heap places them: a page takes another row
	-- while its free space stays at or above the row and the share
	-- fillfactor keeps free (RelationGetBufferForTuple); the first row of a
	-- page always goes in.
	tuple_len := (row_width + 7) / 8 * 8;
	save_free := block_size * (100 - fillfactor) / 100;
	page_free := block_size - 24;
	rows_per_page := 0;
	WHILE rows_per_page = 0 OR page_free - 4 >= tuple_len + save_free LOOP
		page_free := page_free - tuple_len - 4;
		rows_per_page := rows_per_page + 1;
	END LOOP;
	target_pages := ceil(size_bytes / block_size);
	n := target_pages * rows_per_page;

	EXECUTE format('CREATE TABLE %s (id bigint NOT NULL, pad bytea NOT NULL) '
				   'WITH (fillfactor = %s, autovacuum_enabled = off)%s',
				   qualified, fillfactor, spc_clause);
	-- the pad is stored in the row as it is: never compressed or moved out
	EXECUTE format('ALTER TABLE %s ALTER COLUMN pad SET STORAGE PLAIN', qualified);
	relation := qualified::regclass;

	-- In batches of 64 MB of pages, each row keyed by its position in the
	-- seed's order; a progress message every benchstore.progress_interval.
	batch := greatest(1, 67108864 / block_size) * rows_per_page;
	last_report := clock_timestamp();
	next_report := last_report + make_interval(secs => coalesce(interval_ms, 0) / 1000.0);
	WHILE done < n LOOP
		EXECUTE format($q$
			INSERT INTO %s
			SELECT k, sha512(int8send(k) || int8send($2) || '\x01'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x02'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x03'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x04'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x05'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x06'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x07'::bytea) ||
					  sha512(int8send(k) || int8send($2) || '\x08'::bytea)
			FROM @extschema@._bench_random_keys($1, $2, $3, $4) AS k$q$, qualified)
		USING n, seed, done + 1, least(n, done + batch);
		done := least(n, done + batch);
		IF coalesce(interval_ms, 0) > 0 AND clock_timestamp() >= next_report THEN
			RAISE NOTICE '%', format('bench_generate_randread: %s%% done, %s MB in %s s, %s MB/s now',
				round(100.0 * done / n), round(done::numeric / rows_per_page * block_size / 1048576, 1),
				round(extract(epoch FROM clock_timestamp() - started)::numeric, 1),
				round((done - last_done)::numeric / rows_per_page * block_size / 1048576 /
					  greatest(extract(epoch FROM clock_timestamp() - last_report)::numeric, 0.001), 1));
			last_report := clock_timestamp();
			last_done := done;
			next_report := last_report + make_interval(secs => interval_ms / 1000.0);
		END IF;
	END LOOP;

	EXECUTE format('ALTER TABLE %s ADD PRIMARY KEY (id)%s', qualified, idx_clause);
	EXECUTE format('ANALYZE %s', qualified);
	EXECUTE format('COMMENT ON TABLE %s IS %L', qualified,
				   format('%s: file %s', marker, (SELECT c.relfilenode FROM pg_class c WHERE c.oid = relation)));

	rows := n;
	pages := pg_relation_size(relation) / block_size;
	mb := pg_relation_size(relation) / 1048576.0;
	index_mb := pg_indexes_size(relation) / 1048576.0;
	elapsed_ms := round(extract(epoch FROM clock_timestamp() - started)::numeric * 1000, 3);
	RAISE NOTICE 'generated % rows, % MB in % s', rows, round(mb::numeric + index_mb::numeric, 1),
		round(elapsed_ms::numeric / 1000, 1)
		USING HINT = format('Run VACUUM (FREEZE, ANALYZE) %s before benchmarking, outside a transaction block: '
							'it sets the hint bits and the visibility map that a first scan would otherwise write.',
							qualified);
	RETURN NEXT;
END;
$$;

COMMENT ON FUNCTION bench_generate_randread(text, name, integer, name, name, boolean, bigint) IS
'generate a table whose keys lie in random order in the heap, with an index on the key, one row';

--
-- bench_readahead_sweep (1.2): the server's own read-ahead of one relation,
-- cold, at each effective_io_concurrency (and on 17+ each io_combine_limit
-- for the scans), set for the call only: where more look-ahead stops
-- paying.  fio cannot measure this path.
--
CREATE OR REPLACE FUNCTION bench_readahead_sweep(
	relation regclass,
	depths integer[] DEFAULT '{1,2,4,8,16,32,64,128,256}',	-- effective_io_concurrency values, 1 .. 256 each
	combine_limits integer[] DEFAULT NULL,	-- 17+: io_combine_limit values (blocks) for the scans; NULL: the one in effect
	reads bigint DEFAULT 10000,		-- random reads at each depth (bench_randread's reads)
	tests text[] DEFAULT '{randread,seqscan}',	-- randread (bench_randread, cold), seqscan (bench_seqscan, cold)
	label text DEFAULT NULL,		-- recorded with each run (see bench_history)
	record boolean DEFAULT true,	-- false: do not record the runs
	OUT test text,					-- randread or seqscan
	OUT effective_io_concurrency integer,	-- the depth the run had; seqscan before 17: NULL (not used)
	OUT io_combine_limit integer,	-- seqscan on 17+: the combine limit in effect, blocks; otherwise NULL
	OUT io_method text,				-- io_method in effect (18); NULL before 18
	OUT prefetch text,				-- randread: how reads were announced ('none', 'PrefetchBuffer', 'read stream'); seqscan: NULL
	OUT reads_per_s float8,			-- randread: reads / s; seqscan: pages / s
	OUT mb_per_s float8,			-- MB (2^20 bytes) / s
	OUT device_reads_per_s float8,	-- randread: device reads / s (RIOPS); seqscan: NULL
	OUT lat_p50_us float8,			-- randread: median time of a read, µs; seqscan: NULL
	OUT os_read_mb float8,			-- MB the kernel read from storage for the run; NULL if unknown
	OUT cached_pct float8,			-- % of the pages still cached when the run began (0: cold)
	OUT of_best_pct float8,			-- the rate as % of the best of its series (the test, at one io_combine_limit)
	OUT knee boolean,				-- the smallest depth of its series within 10 % of the best: more look-ahead buys less
	OUT warnings text				-- the run's own warnings, and why a series is flat
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	knee_share constant float8 := 0.9;
	saved_eic text := pg_catalog.current_setting('effective_io_concurrency');
	saved_icl text := pg_catalog.current_setting('io_combine_limit', true);
	method text := pg_catalog.current_setting('io_method', true);
	streams boolean := pg_catalog.current_setting('server_version_num')::integer >= 170000;
	spc_eic text;
	t text;
	d integer;
	l integer;
	limits integer[];
	series_depths integer[];
	rates float8[];
	rowset jsonb[];
	r record;
	best float8;
	knee_at integer;
	flat_note text;
BEGIN
	IF relation IS NULL OR depths IS NULL OR reads IS NULL OR tests IS NULL OR record IS NULL THEN
		RAISE EXCEPTION '% cannot be null',
			CASE WHEN relation IS NULL THEN 'relation' WHEN depths IS NULL THEN 'depths'
				 WHEN reads IS NULL THEN 'reads' WHEN tests IS NULL THEN 'tests' ELSE 'record' END
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF pg_catalog.cardinality(depths) = 0 OR pg_catalog.array_position(depths, NULL) IS NOT NULL
	   OR EXISTS (SELECT 1 FROM pg_catalog.unnest(depths) x WHERE x < 1 OR x > 256) THEN
		RAISE EXCEPTION 'depths must hold 1 to 256 values, each between 1 and 256'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Each is an effective_io_concurrency the runs are made at, as bench_randread''s depth, e.g. ''{1,2,4,8,16,32,64,128,256}''.';
	END IF;
	IF pg_catalog.cardinality(tests) = 0 OR pg_catalog.array_position(tests, NULL) IS NOT NULL
	   OR NOT tests <@ '{randread,seqscan}'::text[] THEN
		RAISE EXCEPTION 'tests must name randread, seqscan or both'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF combine_limits IS NOT NULL THEN
		IF NOT streams THEN
			RAISE EXCEPTION 'combine_limits needs PostgreSQL 17 or later'
				USING ERRCODE = 'feature_not_supported',
					  DETAIL = 'io_combine_limit, the size of the reads a read stream combines, came with PostgreSQL 17.';
		END IF;
		IF pg_catalog.cardinality(combine_limits) = 0 OR pg_catalog.array_position(combine_limits, NULL) IS NOT NULL THEN
			RAISE EXCEPTION 'combine_limits must hold at least one value and no NULL'
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	END IF;
	-- A tablespace's own effective_io_concurrency overrides the setting: a
	-- sweep of the setting would measure that one value every time.
	SELECT o.option_value INTO spc_eic
	FROM pg_catalog.pg_class c
	JOIN pg_catalog.pg_tablespace s
	  ON s.oid = CASE WHEN c.reltablespace = 0
					  THEN (SELECT d.dattablespace FROM pg_catalog.pg_database d
							WHERE d.datname = pg_catalog.current_database())
					  ELSE c.reltablespace END,
	LATERAL pg_catalog.pg_options_to_table(s.spcoptions) o
	WHERE c.oid = relation AND o.option_name = 'effective_io_concurrency';
	IF spc_eic IS NOT NULL THEN
		RAISE EXCEPTION 'the tablespace of relation % sets effective_io_concurrency = %', relation, spc_eic
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = 'A tablespace''s own effective_io_concurrency overrides the setting the sweep varies.',
				  HINT = 'Reset it for the sweep (ALTER TABLESPACE ... RESET (effective_io_concurrency)), and set it again from the sweep''s knee.';
	END IF;

	limits := CASE WHEN combine_limits IS NOT NULL THEN combine_limits ELSE ARRAY[NULL::integer] END;
	FOREACH t IN ARRAY ARRAY['randread', 'seqscan'] LOOP
		CONTINUE WHEN NOT t = ANY (tests);
		FOREACH l IN ARRAY CASE WHEN t = 'seqscan' AND streams THEN limits ELSE ARRAY[NULL::integer] END LOOP
			series_depths := CASE WHEN t = 'seqscan' AND NOT streams THEN ARRAY[NULL::integer] ELSE depths END;
			flat_note := CASE WHEN t = 'seqscan' AND NOT streams
							  THEN 'Before PostgreSQL 17 a sequential scan reads one block at a time and leaves look-ahead to the kernel: effective_io_concurrency does not apply, so the scan ran once.' END;
			rates := '{}';
			rowset := '{}';
			FOREACH d IN ARRAY series_depths LOOP
				IF t = 'randread' THEN
					SELECT * INTO r
					FROM @extschema@.bench_randread(relation, reads => reads, cache => 'cold', depth => d,
													label => label, record => record) x;
					rowset := rowset || pg_catalog.jsonb_build_object(
						'eic', d, 'icl', NULL, 'prefetch', r.prefetch,
						'rps', r.reads_per_s, 'mbps', r.mb_per_s, 'drps', r.device_reads_per_s,
						'p50', r.lat_p50_us, 'os', r.os_read_mb, 'cached', r.cached_pct,
						'warnings', r.warnings);
					rates := rates || r.reads_per_s;
				ELSE
					IF d IS NOT NULL THEN
						PERFORM pg_catalog.set_config('effective_io_concurrency', d::text, true);
					END IF;
					IF l IS NOT NULL THEN
						PERFORM pg_catalog.set_config('io_combine_limit', l::text, true);
					END IF;
					SELECT * INTO r
					FROM @extschema@.bench_seqscan(relation, cache => 'cold', label => label, record => record) x;
					rowset := rowset || pg_catalog.jsonb_build_object(
						'eic', d,
						'icl', CASE WHEN streams THEN (SELECT g.setting::integer FROM pg_catalog.pg_settings g
														 WHERE g.name = 'io_combine_limit') END,
						'prefetch', NULL,
						'rps', r.pages / NULLIF(r.elapsed_ms / 1000, 0), 'mbps', r.mb_per_s,
						'drps', NULL, 'p50', NULL, 'os', r.os_read_mb, 'cached', r.cached_pct,
						'warnings', r.warnings);
					rates := rates || r.mb_per_s;
					PERFORM pg_catalog.set_config('effective_io_concurrency', saved_eic, true);
					IF saved_icl IS NOT NULL THEN
						PERFORM pg_catalog.set_config('io_combine_limit', saved_icl, true);
					END IF;
				END IF;
			END LOOP;

			SELECT max(x) INTO best FROM pg_catalog.unnest(rates) x;
			-- the knee on the rounded share each row shows, so that the row
			-- marked is the first whose of_best_pct reads 90 or more
			SELECT min(o) INTO knee_at FROM pg_catalog.unnest(rates) WITH ORDINALITY u(x, o)
			WHERE CASE WHEN best > 0
					   THEN pg_catalog.round((100 * x / best)::numeric, 1) >= 100 * knee_share
					   ELSE x >= knee_share * best END;
			FOR i IN 1 .. pg_catalog.cardinality(rowset) LOOP
				test := t;
				effective_io_concurrency := (rowset[i] ->> 'eic')::integer;
				io_combine_limit := (rowset[i] ->> 'icl')::integer;
				io_method := method;
				prefetch := rowset[i] ->> 'prefetch';
				reads_per_s := pg_catalog.round((rowset[i] ->> 'rps')::numeric, 1)::float8;
				mb_per_s := (rowset[i] ->> 'mbps')::float8;
				device_reads_per_s := (rowset[i] ->> 'drps')::float8;
				lat_p50_us := (rowset[i] ->> 'p50')::float8;
				os_read_mb := (rowset[i] ->> 'os')::float8;
				cached_pct := (rowset[i] ->> 'cached')::float8;
				of_best_pct := CASE WHEN best > 0 THEN pg_catalog.round((100 * rates[i] / best)::numeric, 1)::float8 END;
				knee := i = knee_at AND pg_catalog.cardinality(rowset) > 1;
				warnings := NULLIF(pg_catalog.concat_ws(' ', rowset[i] ->> 'warnings', flat_note,
					CASE WHEN knee AND i = pg_catalog.cardinality(rowset)
						 THEN 'The rate still rose at the largest depth measured: a larger one may pay more.' END), '');
				RETURN NEXT;
			END LOOP;
		END LOOP;
	END LOOP;
END;
$$;

COMMENT ON FUNCTION bench_readahead_sweep(regclass, integer[], integer[], bigint, text[], text, boolean) IS
'the server''s own read-ahead of a relation, cold, at each effective_io_concurrency (and io_combine_limit on 17+), set for the call only; one row per run, the knee marked';
