-- src/sql/benchstore/advice.sql: bench_tablespace_advice,
-- bench_apply_advice, bench_undo_advice and their helpers.

-- _bench_may_alter_tablespace(role OID, role name, tablespace owner):
-- whether the role, the one with that OID and that name, is a superuser or
-- a member of the owner (what ALTER TABLESPACE requires).  Executable by
-- PUBLIC: the advice functions call it as their caller; it only reads
-- pg_roles and answers for roles anyone may list.
CREATE OR REPLACE FUNCTION _bench_may_alter_tablespace(recorded_by_oid oid, recorded_by name, owner oid)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_roles g
				   WHERE g.oid OPERATOR(pg_catalog.=) recorded_by_oid
					 AND g.rolname OPERATOR(pg_catalog.=) recorded_by
					 AND (g.rolsuper OR pg_catalog.pg_has_role(g.oid, owner, 'USAGE')))
$$;

COMMENT ON FUNCTION _bench_may_alter_tablespace(oid, name, oid) IS
'internal: whether a role that recorded advice could have altered the tablespace itself';

--
-- Advice trusted only from roles entitled to make it.  In 1.1,
-- bench_apply_advice took the latest advice under a label whoever had
-- recorded it (bench_record reserves only the benchmarks' own names, so
-- any role could record a 'tablespace_advice' run) and echoed its recorded
-- statement in a hint; bench_undo_advice trusted 'advice_undone' records
-- from anyone, so a forged one made it skip an apply.  From 1.2 both read
-- only records made by a role that could have altered the tablespace
-- itself (a superuser, or a member of the tablespace's owner), and the
-- io_combine_limit statement is built from the validated value.  The
-- signatures are those of 1.1 (CREATE OR REPLACE): a DBA's grants on them
-- are kept.
--
CREATE OR REPLACE FUNCTION bench_apply_advice(
	tablespace name,
	label text,							-- the advice's label, or its run id
	OUT setting text,
	OUT value_before text,				-- the tablespace's own option before; NULL: not set
	OUT value_after text,				-- after
	OUT applied boolean					-- false: server-wide, not applied (see the NOTICE)
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ts_name name := $1;
	ref text := $2;
	ts_oid oid;
	ts_owner oid;
	advice_run bigint;
	before text[];
	after text[];
	opts text;
	stmt text;
	a record;
BEGIN
	IF ts_name IS NULL THEN
		RAISE EXCEPTION 'tablespace cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF ref IS NULL THEN
		RAISE EXCEPTION 'label cannot be null' USING ERRCODE = 'null_value_not_allowed',
			HINT = 'Name the label (or the run id) bench_tablespace_advice recorded the advice under.';
	END IF;
	SELECT t.oid, t.spcowner, coalesce(t.spcoptions, '{}') INTO ts_oid, ts_owner, before
	  FROM pg_tablespace t WHERE t.spcname = ts_name;
	IF ts_oid IS NULL THEN
		RAISE EXCEPTION 'tablespace "%" does not exist', ts_name USING ERRCODE = 'undefined_object';
	END IF;
	IF NOT pg_has_role(ts_owner, 'USAGE') THEN
		RAISE EXCEPTION 'must be owner of tablespace %', ts_name
			USING ERRCODE = 'insufficient_privilege',
				  HINT = 'The tablespace''s owner or a superuser applies advice.';
	END IF;
	SELECT r.run_id INTO advice_run
	  FROM @extschema@.bench_run r
	 WHERE r.run_id = ANY (@extschema@.bench_run_ids(ref))
	   AND r.benchmark = 'tablespace_advice' AND r.target_oid = ts_oid
	   AND @extschema@._bench_may_alter_tablespace(r.recorded_by_oid, r.recorded_by, ts_owner)
	 ORDER BY r.run_id DESC LIMIT 1;
	IF advice_run IS NULL THEN
		RAISE EXCEPTION 'no advice for tablespace "%" is recorded under "%"', ts_name, ref
			USING ERRCODE = 'undefined_object',
				  DETAIL = 'Only advice recorded by the tablespace''s owner, a member of it, or a superuser is applied.',
				  HINT = format('Record one with bench_tablespace_advice(%L, label => %L).', ts_name, ref);
	END IF;

	-- the tablespace options the advice suggests a value for
	SELECT string_agg(format('%s = %s', x.metrics ->> 'setting', x.metrics ->> 'suggested_value'), ', '
					  ORDER BY x.row_no)
	  INTO opts
	  FROM @extschema@.bench_result x
	 WHERE x.run_id = advice_run
	   AND x.metrics ->> 'setting' IN ('random_page_cost', 'effective_io_concurrency',
									   'maintenance_io_concurrency', 'seq_page_cost')
	   AND x.metrics ->> 'suggested_value' ~ '^[0-9]{1,9}(\.[0-9]{1,6})?$';
	IF opts IS NOT NULL THEN
		EXECUTE format('ALTER TABLESPACE %I SET (%s)', ts_name, opts);
	END IF;
	SELECT coalesce(t.spcoptions, '{}') INTO after FROM pg_tablespace t WHERE t.oid = ts_oid;

	FOR a IN
		SELECT x.metrics ->> 'setting' AS name, x.metrics ->> 'suggested_value' AS value
		  FROM @extschema@.bench_result x
		 WHERE x.run_id = advice_run AND x.metrics ->> 'suggested_value' IS NOT NULL
		   AND x.metrics ->> 'setting' IN ('random_page_cost', 'effective_io_concurrency',
										   'maintenance_io_concurrency', 'seq_page_cost',
										   'io_combine_limit')
		 ORDER BY x.row_no
	LOOP
		setting := a.name;
		IF a.name = 'io_combine_limit' THEN
			-- the statement is built here from the validated value, never
			-- taken from the record
			IF a.value !~ '^[0-9]{1,7}kB$' THEN
				RAISE EXCEPTION 'recorded value "%" of io_combine_limit is not one bench_tablespace_advice suggests', a.value
					USING ERRCODE = 'data_corrupted';
			END IF;
			stmt := CASE WHEN (SELECT s.reset_val::bigint * current_setting('block_size')::bigint
								 FROM pg_settings s WHERE s.name = 'io_max_combine_limit')
							  < (regexp_replace(a.value, 'kB$', ''))::bigint * 1024
						 THEN format('ALTER SYSTEM SET io_max_combine_limit = %L; ', a.value)
						 ELSE '' END ||
					format('ALTER SYSTEM SET io_combine_limit = %L', a.value);
			value_before := current_setting('io_combine_limit', true);
			value_after := value_before;
			applied := false;
			RAISE NOTICE 'io_combine_limit is a server setting: it is not applied from a function'
				USING DETAIL = 'ALTER SYSTEM cannot run inside a transaction block, and a function call is one.',
					  HINT = CASE WHEN (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
								  THEN format('Run %s; then %s.', stmt,
											  CASE WHEN stmt LIKE '%io_max_combine_limit%'
												   THEN 'restart the server' ELSE 'SELECT pg_reload_conf()' END)
								  ELSE format('A superuser runs %s; then %s.', stmt,
											  CASE WHEN stmt LIKE '%io_max_combine_limit%'
												   THEN 'restarts the server' ELSE 'SELECT pg_reload_conf()' END) END;
		ELSE
			value_before := (SELECT split_part(o, '=', 2) FROM unnest(before) o WHERE split_part(o, '=', 1) = a.name);
			value_after := (SELECT split_part(o, '=', 2) FROM unnest(after) o WHERE split_part(o, '=', 1) = a.name);
			applied := true;
		END IF;
		RETURN NEXT;
	END LOOP;

	IF opts IS NOT NULL THEN
		PERFORM @extschema@.bench_record('advice_applied'::pg_catalog.text, ts_name::pg_catalog.text,
							 jsonb_build_object('options_before', to_jsonb(before),
												'options_after', to_jsonb(after),
												'advice_run_id', advice_run),
							 NULL::pg_catalog.text, jsonb_build_object('tablespace', ts_name, 'label', ref));
	ELSE
		RAISE NOTICE 'the advice recorded under "%" suggests no tablespace option', ref;
	END IF;
	RETURN;
END;
$$;

COMMENT ON FUNCTION bench_apply_advice(name, text) IS
'set the tablespace options of a recorded bench_tablespace_advice, recording those it replaces';

CREATE OR REPLACE FUNCTION bench_undo_advice(
	tablespace name,
	OUT setting text,
	OUT value_before text,				-- the tablespace's own option before the undo; NULL: not set
	OUT value_after text				-- after: as before the advice was applied
)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ts_name name := $1;
	ts_oid oid;
	ts_owner oid;
	apply_run bigint;
	m jsonb;
	now_opts text[];
	restore text[];
	after text[];
	o text;
BEGIN
	IF ts_name IS NULL THEN
		RAISE EXCEPTION 'tablespace cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	SELECT t.oid, t.spcowner, coalesce(t.spcoptions, '{}') INTO ts_oid, ts_owner, now_opts
	  FROM pg_tablespace t WHERE t.spcname = ts_name;
	IF ts_oid IS NULL THEN
		RAISE EXCEPTION 'tablespace "%" does not exist', ts_name USING ERRCODE = 'undefined_object';
	END IF;
	IF NOT pg_has_role(ts_owner, 'USAGE') THEN
		RAISE EXCEPTION 'must be owner of tablespace %', ts_name
			USING ERRCODE = 'insufficient_privilege',
				  HINT = 'The tablespace''s owner or a superuser undoes advice.';
	END IF;
	SELECT r.run_id, x.metrics INTO apply_run, m
	  FROM @extschema@.bench_run r JOIN @extschema@.bench_result x ON x.run_id = r.run_id AND x.row_no = 1
	 WHERE r.benchmark = 'advice_applied' AND r.target_oid = ts_oid
	   AND @extschema@._bench_may_alter_tablespace(r.recorded_by_oid, r.recorded_by, ts_owner)
	   AND NOT EXISTS (SELECT 1 FROM @extschema@.bench_run u JOIN @extschema@.bench_result ux ON ux.run_id = u.run_id
					    WHERE u.benchmark = 'advice_undone' AND u.target_oid = ts_oid
						  AND ux.metrics ->> 'applied_run_id' = r.run_id::text
						  AND @extschema@._bench_may_alter_tablespace(u.recorded_by_oid, u.recorded_by, ts_owner))
	 ORDER BY r.run_id DESC LIMIT 1;
	IF apply_run IS NULL THEN
		RAISE EXCEPTION 'no applied advice of tablespace "%" is left to undo', ts_name
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = 'bench_apply_advice records the options it replaces; each is undone once.';
	END IF;
	restore := ARRAY(SELECT jsonb_array_elements_text(m -> 'options_before'));
	FOREACH o IN ARRAY restore LOOP
		IF o !~ '^(seq_page_cost|random_page_cost|effective_io_concurrency|maintenance_io_concurrency)=[0-9.eE+-]{1,32}$' THEN
			RAISE EXCEPTION 'recorded option "%" of tablespace "%" is not one bench_apply_advice sets', o, ts_name
				USING ERRCODE = 'data_corrupted';
		END IF;
	END LOOP;
	IF now_opts IS DISTINCT FROM ARRAY(SELECT jsonb_array_elements_text(m -> 'options_after')) THEN
		RAISE NOTICE 'the options of tablespace "%" changed after the advice was applied; they are set back to those before it', ts_name;
	END IF;

	EXECUTE format('ALTER TABLESPACE %I RESET (seq_page_cost, random_page_cost, effective_io_concurrency, maintenance_io_concurrency)', ts_name);
	IF cardinality(restore) > 0 THEN
		EXECUTE format('ALTER TABLESPACE %I SET (%s)', ts_name,
					   (SELECT string_agg(replace(x, '=', ' = '), ', ' ORDER BY n)
						  FROM unnest(restore) WITH ORDINALITY AS u(x, n)));
	END IF;
	SELECT coalesce(t.spcoptions, '{}') INTO after FROM pg_tablespace t WHERE t.oid = ts_oid;
	PERFORM @extschema@.bench_record('advice_undone'::pg_catalog.text, ts_name::pg_catalog.text,
						 jsonb_build_object('options_before', to_jsonb(now_opts),
											'options_after', to_jsonb(after),
											'applied_run_id', apply_run),
						 NULL::pg_catalog.text, jsonb_build_object('tablespace', ts_name));

	FOR setting IN SELECT unnest(ARRAY['seq_page_cost', 'random_page_cost',
									   'effective_io_concurrency', 'maintenance_io_concurrency'])
	LOOP
		value_before := (SELECT split_part(x, '=', 2) FROM unnest(now_opts) x WHERE split_part(x, '=', 1) = setting);
		value_after := (SELECT split_part(x, '=', 2) FROM unnest(after) x WHERE split_part(x, '=', 1) = setting);
		IF value_before IS DISTINCT FROM value_after THEN
			RETURN NEXT;
		END IF;
	END LOOP;
	RETURN;
END;
$$;

COMMENT ON FUNCTION bench_undo_advice(name) IS
'put back the tablespace options the latest bench_apply_advice of a tablespace replaced';

--
-- The advice takes no figure from reads a cache below the server served
-- (served_by 'cache below' on the measurements, 1.2): it says so, with
-- the evidence, instead of suggesting a cost.  The 1.1 function again,
-- with that check.
--
CREATE OR REPLACE FUNCTION _bench_tablespace_advice_once(
	tablespace name DEFAULT 'pg_default',
	size text DEFAULT '1GB',			-- file size of each measurement, pg_size_bytes syntax
	duration interval DEFAULT '10s',	-- time cap of each random-read measurement
	label text DEFAULT NULL,			-- use the measurements recorded under it (a label or a run id)
	record boolean DEFAULT true,		-- record the measurements and the advice
	cache_hit_share float8 DEFAULT NULL	-- share of reads served from cache, 0 .. 1; NULL: from pg_statio
)
RETURNS SETOF bench_advice
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- doubling the queue depth or the block size must add at least this
	-- share of IOPS or MB/s to count as still growing
	growth_margin constant float8 := 0.10;
	-- a direct 8 kB read answered faster than this (median) came from a
	-- cache (hypervisor, controller, memory), not from the storage
	cache_latency_us constant float8 := 10.0;
	-- the depth sweep: 1, 2, 4 .. max_depth
	max_depth constant integer := 128;

	ts_name name := $1;
	file_size text := $2;
	cap interval := $3;
	run_label text := $4;
	keep boolean := $5;
	hit_arg float8 := $6;
	ts_oid oid;
	db_spc oid;
	ver integer := current_setting('server_version_num')::integer;
	blk bigint := current_setting('block_size')::bigint;
	blk_words text := (current_setting('block_size')::bigint / 1024) || ' kB';
	combine_max bigint;				-- largest io_combine_limit, bytes (17+)
	combine_now bigint;				-- the server's io_combine_limit, bytes (17+)
	combine_cap bigint;				-- io_max_combine_limit, bytes (18+)
	seq_blk bigint;					-- block size of the server's sequential reads
	seq_depth integer := 1;			-- and how many it keeps in flight
	setting_now jsonb;				-- the tablespace's own options over the server's settings
	seq_depth_used integer;
	eic integer;
	meas jsonb := '[]';				-- the result rows measured or recorded
	figs jsonb;						-- medians per test, block size and depth
	measured boolean := false;
	uring_refused text;
	r record;
	pt record;
	refusal text;
	refusal_detail text;
	b bigint;
	n integer;
	out @extschema@.bench_advice;
	advice jsonb := '[]';
	have_rnd boolean;
	rnd_op_us float8;				-- a random page: mean time
	rnd_p50_us float8;				-- and median
	rnd_buffered boolean;
	have_seq boolean;
	seq_page_us float8;				-- a sequential page's share of a read
	seq_mb_s float8;
	seq_buffered boolean;
	knee bigint;
	knee_next float8;
	knee_at float8;
	ratio float8;
	hit float8;
	hit_words text;
	seq_cost float8;
	distrust text;
	sweep text;
	below text;						-- evidence that a cache below the server served the reads (1.2)
BEGIN
	IF ts_name IS NULL THEN
		RAISE EXCEPTION 'tablespace cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF keep IS NULL THEN
		RAISE EXCEPTION 'record cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	SELECT t.oid INTO ts_oid FROM pg_tablespace t WHERE t.spcname = ts_name;
	IF ts_oid IS NULL THEN
		RAISE EXCEPTION 'tablespace "%" does not exist', ts_name USING ERRCODE = 'undefined_object';
	END IF;
	IF ts_name = 'pg_global' THEN
		RAISE EXCEPTION 'tablespace "pg_global" takes no advice'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = 'It holds the shared system catalogs only; tables and indexes cannot be placed in it.',
				  HINT = 'Ask about pg_default or a tablespace of your own.';
	END IF;
	SELECT dattablespace INTO db_spc FROM pg_database WHERE datname = current_database();
	IF ts_oid <> db_spc AND NOT has_tablespace_privilege(ts_oid, 'CREATE') THEN
		RAISE EXCEPTION 'permission denied for tablespace %', ts_name
			USING ERRCODE = 'insufficient_privilege',
				  DETAIL = 'Advice on a tablespace is for the roles that can create objects in it.';
	END IF;
	IF hit_arg IS NOT NULL AND NOT (hit_arg >= 0 AND hit_arg <= 1) THEN
		RAISE EXCEPTION 'cache_hit_share must be between 0 and 1'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'It is the share of reads served from cache, such as 0.9; NULL measures it from pg_statio.';
	END IF;

	IF ver >= 170000 THEN
		SELECT s.max_val::bigint * blk, s.reset_val::bigint * blk
		  INTO combine_max, combine_now
		  FROM pg_settings s WHERE s.name = 'io_combine_limit';
		SELECT s.reset_val::bigint * blk INTO combine_cap
		  FROM pg_settings s WHERE s.name = 'io_max_combine_limit';
		seq_blk := combine_now;
	ELSE
		-- before 17 a sequential scan reads a block at a time through the
		-- page cache, whose read-ahead reads 128 kB at once by default
		seq_blk := 131072;
	END IF;
	-- the settings as the tablespace's scans get them: its own options,
	-- else the server's (as configured, not this session's)
	setting_now := (SELECT jsonb_object_agg(s.name, s.reset_val) FROM pg_settings s
					 WHERE s.name IN ('seq_page_cost', 'random_page_cost', 'effective_io_concurrency',
									  'maintenance_io_concurrency', 'io_method', 'io_workers'))
				   || coalesce((SELECT jsonb_object_agg(split_part(o, '=', 1), split_part(o, '=', 2))
								FROM pg_tablespace t, unnest(t.spcoptions) o
								WHERE t.oid = ts_oid), '{}');
	-- from 18 on a sequential scan keeps up to the tablespace's
	-- effective_io_concurrency reads in flight through io_uring, or as
	-- many as there are I/O workers (io_method = worker); one through
	-- the page cache's read-ahead before, or with io_method = sync
	eic := (setting_now ->> 'effective_io_concurrency')::integer;
	IF ver >= 180000 THEN
		seq_depth := CASE setting_now ->> 'io_method'
						 WHEN 'io_uring' THEN eic
						 WHEN 'worker' THEN least(eic, (setting_now ->> 'io_workers')::integer)
						 ELSE 1 END;
		seq_depth := least(greatest(seq_depth, 1), 256);
	END IF;

	-- the measurements: those recorded under the label, or taken now
	IF run_label IS NOT NULL THEN
		SELECT coalesce(jsonb_agg(h.metrics || jsonb_build_object('iodepth', coalesce(h.iodepth, 1))
								  ORDER BY h.run_id, h.row_no), '[]')
		  INTO meas
		  FROM @extschema@.bench_history h
		 WHERE h.run_id = ANY (@extschema@.bench_run_ids(run_label))
		   AND h.target = ts_name
		   AND h.test IN ('seqread', 'randread')
		   AND coalesce(h.streams, 1) = 1;
	END IF;
	IF jsonb_array_length(meas) = 0 THEN
		IF run_label ~ '^[0-9]+$' THEN
			RAISE EXCEPTION 'run % holds no read measurement of tablespace "%"', run_label, ts_name
				USING ERRCODE = 'undefined_object',
					  HINT = 'Name a label to measure under, or leave it out.';
		END IF;
		IF run_label IS NULL AND keep THEN
			run_label := format('advice %s %s', ts_name,
								to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS.MS'));
		END IF;
		measured := true;
		-- one bench_tablespace_io call per point: sequential reads at
		-- depth 1 in the server's block size (and from 17 on a sweep of the
		-- sizes io_combine_limit takes), from 18 on also as deep as the
		-- server's sequential scans, then random reads of one block at
		-- depths 1, 2, 4 .. max_depth
		FOR pt IN
			SELECT * FROM (
				SELECT 'seqread' AS test, x.s AS bytes, 1 AS depth
				  FROM generate_series(0, 20) g, LATERAL (SELECT blk << g AS s) x
				 WHERE (ver >= 170000 AND x.s <= least(combine_max, 1048576)) OR x.s = seq_blk
				UNION ALL
				SELECT 'seqread', seq_blk, seq_depth WHERE seq_depth > 1
				UNION ALL
				SELECT 'randread', blk, 1 << g FROM generate_series(0, 30) g WHERE 1 << g <= max_depth) p
			 ORDER BY p.test DESC, p.depth, p.bytes
		LOOP
			-- io_uring missing or refused: depth 1 only
			CONTINUE WHEN pt.depth > 1 AND uring_refused IS NOT NULL;
			BEGIN
				FOR r IN
					SELECT * FROM @extschema@.bench_tablespace_io(ts_name, size => file_size,
							block_size => (pt.bytes || ' bytes')::pg_catalog.text, tests => ARRAY[pt.test]::pg_catalog.text[], direct => true,
							duration => cap, label => CASE WHEN keep THEN run_label END,
							record => keep, iodepth => pt.depth)
				LOOP
					meas := meas || jsonb_build_array(to_jsonb(r));
				END LOOP;
			EXCEPTION WHEN feature_not_supported THEN
				GET STACKED DIAGNOSTICS refusal = MESSAGE_TEXT, refusal_detail = PG_EXCEPTION_DETAIL;
				IF pt.depth > 1 THEN
					uring_refused := coalesce(nullif(refusal_detail, ''), refusal);
				ELSE
					-- no direct I/O on this filesystem: the advice takes no
					-- other, so bench_tablespace_io's hint does not apply
					RAISE EXCEPTION '%', refusal
						USING ERRCODE = 'feature_not_supported', DETAIL = coalesce(refusal_detail, ''),
							  HINT = 'Advice is measured with direct I/O only: reads through the page cache time memory, not the storage. Record figures measured elsewhere (fio --direct=1) with bench_record and pass their label.';
				END IF;
			END;
		END LOOP;
	END IF;

	-- reads a cache below the server served (served_by, 1.2): they time the
	-- cache, so no setting is derived from them
	SELECT string_agg(DISTINCT format('%s of %s blocks: %s', m ->> 'test', m ->> 'block_size',
									  rtrim(coalesce(m ->> 'warnings', 'no evidence recorded'), '.')), '; ')
	  INTO below
	  FROM jsonb_array_elements(meas) m
	 WHERE m ->> 'served_by' = 'cache below';
	below := 'a cache below the server served reads that were measured, so they time that cache, not the storage (' || below || ')';

	-- medians per test, block size and depth, and the time per operation
	-- and per page of each
	SELECT coalesce(jsonb_agg(to_jsonb(g)), '[]') INTO figs
	  FROM (SELECT m.test, m.block_bytes, m.iodepth,
				   bool_or(m.direct IS FALSE) AS buffered,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY m.iops) AS iops,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY m.mb_per_s) AS mb_per_s,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY
					   coalesce(m.lat_avg_us, 1e6 / m.iops,
								m.block_bytes * 1e6 / (m.mb_per_s * 1048576))) AS op_us,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY
					   coalesce(m.lat_p50_us, m.lat_avg_us, 1e6 / m.iops,
								m.block_bytes * 1e6 / (m.mb_per_s * 1048576))) AS p50_us,
				   percentile_cont(0.5) WITHIN GROUP (ORDER BY
					   coalesce(blk * 1e6 / (m.mb_per_s * 1048576),
								1e6 / m.iops * blk / m.block_bytes)) AS page_us
			  FROM (SELECT j.test,
						   CASE WHEN j.block_size ~ '^[0-9]{1,9} ?(bytes|kB|MB|GB)$'
								THEN pg_size_bytes(j.block_size) END AS block_bytes,
						   coalesce(j.iodepth, 1) AS iodepth, j.direct,
						   CASE WHEN j.iops > 0 THEN j.iops END AS iops,
						   CASE WHEN j.mb_per_s > 0 THEN j.mb_per_s END AS mb_per_s,
						   CASE WHEN j.lat_avg_us > 0 THEN j.lat_avg_us END AS lat_avg_us,
						   CASE WHEN j.lat_p50_us > 0 THEN j.lat_p50_us END AS lat_p50_us
					  FROM jsonb_to_recordset(meas) AS j(test text, block_size text, iodepth integer,
														 direct boolean, iops float8, mb_per_s float8,
														 lat_avg_us float8, lat_p50_us float8)) m
			 WHERE m.block_bytes > 0 AND m.iodepth >= 1
			   AND (m.iops IS NOT NULL OR m.mb_per_s IS NOT NULL)
			 GROUP BY 1, 2, 3) g;

	-- a random page read from storage at depth 1, as an index scan reads
	SELECT true, f.op_us, f.p50_us, f.buffered
	  INTO have_rnd, rnd_op_us, rnd_p50_us, rnd_buffered
	  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
										 buffered boolean, iops float8, mb_per_s float8,
										 op_us float8, p50_us float8, page_us float8)
	 WHERE f.test = 'randread' AND f.block_bytes = blk AND f.iodepth = 1;
	have_rnd := coalesce(have_rnd, false);
	-- a page of a sequential read as the server reads: its block size, its
	-- depth where measured, else the shallowest
	SELECT true, f.page_us, coalesce(f.mb_per_s, f.iops * f.block_bytes / 1048576), f.buffered,
		   f.iodepth
	  INTO have_seq, seq_page_us, seq_mb_s, seq_buffered, seq_depth_used
	  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
										 buffered boolean, iops float8, mb_per_s float8,
										 op_us float8, p50_us float8, page_us float8)
	 WHERE f.test = 'seqread' AND f.block_bytes = seq_blk
	 ORDER BY f.iodepth = seq_depth DESC, f.iodepth LIMIT 1;
	have_seq := coalesce(have_seq, false);

	--
	-- random_page_cost.  The time of a random page read from storage over
	-- that of a sequential one, times the share of random reads that miss
	-- the cache (PostgreSQL's default of 4 stands for 40 times as slow, 90 %
	-- cached), never below 1, relative to the tablespace's seq_page_cost.
	-- The sequential page is timed as the server's sequential scans read:
	-- in blocks of io_combine_limit (17+) or of the page cache's read-ahead
	-- (128 kB) before.  The hit share comes from pg_statio for the
	-- relations in the tablespace in this database, over all their block
	-- accesses, sequential ones too; cache_hit_share overrides it.
	--
	seq_cost := (setting_now ->> 'seq_page_cost')::float8;
	SELECT c.hit, c.words INTO hit, hit_words FROM @extschema@._bench_cache_hit_share(ts_oid, hit_arg) c;

	out.tablespace := ts_name;
	out.setting := 'random_page_cost';
	out.current_value := setting_now ->> out.setting;
	distrust := CASE
		WHEN below IS NOT NULL THEN below
		WHEN NOT have_rnd
		THEN format('no random read of %s blocks at depth 1 was measured', blk_words)
		WHEN NOT have_seq
		THEN format('no sequential read in blocks of %s (the server''s sequential reads) was measured',
					(seq_blk / 1024) || ' kB')
		WHEN rnd_buffered OR seq_buffered
		THEN 'the reads went through the OS page cache (direct => false), which may have served them'
		WHEN rnd_p50_us < cache_latency_us
		THEN format('a random %s read took %s µs (median), faster than storage answers: a cache (hypervisor, controller or memory) served the reads',
					blk_words, round(rnd_p50_us::numeric, 1))
		WHEN rnd_op_us < seq_page_us
		THEN format('a random page (%s µs) was read faster than a sequential one (%s µs): a cache served the random reads',
					round(rnd_op_us::numeric, 1), round(seq_page_us::numeric, 2))
		END;
	IF distrust IS NOT NULL THEN
		out.suggested_value := NULL;
		out.evidence := 'Nothing to suggest: ' || distrust || '.';
		out.statement := NULL;
	ELSE
		ratio := rnd_op_us / seq_page_us;
		out.suggested_value := round((seq_cost * greatest(1.0, ratio * (1 - hit)))::numeric, 1)::text;
		out.evidence := format('Random %s reads (direct, depth 1): %s µs each on average (median %s µs); sequential reads in %s blocks, %s in flight%s: %s MB/s, %s µs per page; a page read from storage costs %s sequential pages. %s. %s × (1 − %s) = %s%s.',
							   blk_words, round(rnd_op_us::numeric, 1), round(rnd_p50_us::numeric, 1),
							   (seq_blk / 1024) || ' kB', seq_depth_used,
							   CASE WHEN seq_depth_used <> seq_depth
									THEN format(' (the server''s sequential scans keep %s)', seq_depth) ELSE '' END,
							   round(seq_mb_s::numeric, 1),
							   round(seq_page_us::numeric, 2), round(ratio::numeric, 1),
							   hit_words, round(ratio::numeric, 1), round(hit::numeric, 3),
							   round((ratio * (1 - hit))::numeric, 2),
							   CASE WHEN ratio * (1 - hit) < 1.0
									THEN ', below 1: a page costs no less than a sequential one' ELSE '' END ||
							   CASE WHEN seq_cost <> 1
									THEN format(', times this tablespace''s seq_page_cost %s', seq_cost) ELSE '' END);
		out.statement := format('ALTER TABLESPACE %I SET (random_page_cost = %s)', ts_name, out.suggested_value);
	END IF;
	advice := advice || jsonb_build_array(to_jsonb(out));
	RETURN NEXT out;

	--
	-- effective_io_concurrency and maintenance_io_concurrency: the depth
	-- past which doubling it adds less than growth_margin to the IOPS of
	-- random one-block reads (the knee of the depth sweep), or the deepest
	-- measured while they still grow.
	--
	SELECT count(*), string_agg(format('%s (%s)', round(f.iops::numeric), f.iodepth), ', ' ORDER BY f.iodepth)
	  INTO n, sweep
	  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
										 buffered boolean, iops float8, mb_per_s float8,
										 op_us float8, p50_us float8, page_us float8)
	 WHERE f.test = 'randread' AND f.block_bytes = blk AND f.iops IS NOT NULL;
	SELECT k.iodepth, k.iops, k.next_iops INTO knee, knee_at, knee_next
	  FROM (SELECT f.iodepth, f.iops, lead(f.iops) OVER (ORDER BY f.iodepth) AS next_iops
			  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
												 buffered boolean, iops float8, mb_per_s float8,
												 op_us float8, p50_us float8, page_us float8)
			 WHERE f.test = 'randread' AND f.block_bytes = blk AND f.iops IS NOT NULL) k
	 WHERE k.next_iops IS NULL OR k.next_iops < k.iops * (1 + growth_margin)
	 ORDER BY k.iodepth LIMIT 1;
	distrust := CASE
		WHEN below IS NOT NULL THEN below
		WHEN n < 2
		THEN format('random %s reads were measured at %s depth%s; the sweep needs two or more%s',
					blk_words, n, CASE WHEN n = 1 THEN '' ELSE 's' END,
					CASE WHEN uring_refused IS NOT NULL
						 THEN ' (iodepth above 1 was refused: ' || uring_refused || ')' ELSE '' END)
		WHEN EXISTS (SELECT 1 FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, buffered boolean)
					  WHERE f.test = 'randread' AND f.block_bytes = blk AND f.buffered)
		THEN 'the reads went through the OS page cache (direct => false), which may have served them'
		WHEN have_rnd AND rnd_p50_us < cache_latency_us
		THEN format('a random %s read took %s µs (median) at depth 1, faster than storage answers: a cache (hypervisor, controller or memory) served the reads',
					blk_words, round(rnd_p50_us::numeric, 1))
		END;
	IF distrust IS NULL THEN
		sweep := format('Random %s reads (direct), IOPS (depth): %s. ', blk_words, sweep) ||
			CASE WHEN knee_next IS NULL
				 THEN format('IOPS still grew by %s %% or more at the deepest depth measured (%s): the device takes at least that many in flight',
							 round(100 * growth_margin), knee)
				 ELSE format('Past depth %s doubling the depth adds less than %s %% (%s → %s IOPS)',
							 knee, round(100 * growth_margin), round(knee_at::numeric), round(knee_next::numeric))
			END;
		knee := least(greatest(knee, 1), 1000);
	END IF;
	FOR i IN 1 .. 2 LOOP
		out.setting := (ARRAY['effective_io_concurrency', 'maintenance_io_concurrency'])[i];
		out.current_value := setting_now ->> out.setting;
		IF distrust IS NOT NULL THEN
			out.suggested_value := NULL;
			out.evidence := 'Nothing to suggest: ' || distrust || '.';
			out.statement := NULL;
		ELSE
			out.suggested_value := knee::text;
			out.evidence := sweep || CASE WHEN i = 2
										  THEN '. The same sweep as for effective_io_concurrency: VACUUM, ANALYZE and CREATE INDEX read the same device.'
										  ELSE '.' END;
			out.statement := format('ALTER TABLESPACE %I SET (%s = %s)', ts_name, out.setting, knee);
		END IF;
		advice := advice || jsonb_build_array(to_jsonb(out));
		RETURN NEXT out;
	END LOOP;

	--
	-- io_combine_limit (17+, server-wide): the block size past which
	-- doubling it adds less than growth_margin to sequential MB/s, or the
	-- largest measured while it still grows.
	--
	IF ver >= 170000 THEN
		SELECT count(*), string_agg(format('%s (%s kB)', round(f.mb_per_s::numeric), f.block_bytes / 1024), ', ' ORDER BY f.block_bytes),
			   bool_or(f.buffered)
		  INTO n, sweep, seq_buffered
		  FROM (SELECT DISTINCT ON (f.block_bytes) f.*
				  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
													 buffered boolean, iops float8, mb_per_s float8,
													 op_us float8, p50_us float8, page_us float8)
				 WHERE f.test = 'seqread' AND f.block_bytes BETWEEN blk AND combine_max
				   AND f.mb_per_s IS NOT NULL
				 ORDER BY f.block_bytes, f.iodepth) f;
		SELECT k.block_bytes, k.mb_per_s, k.next_mb INTO b, knee_at, knee_next
		  FROM (SELECT f.block_bytes, f.mb_per_s, lead(f.mb_per_s) OVER (ORDER BY f.block_bytes) AS next_mb
				  FROM (SELECT DISTINCT ON (f.block_bytes) f.*
						  FROM jsonb_to_recordset(figs) AS f(test text, block_bytes bigint, iodepth integer,
															 buffered boolean, iops float8, mb_per_s float8,
															 op_us float8, p50_us float8, page_us float8)
						 WHERE f.test = 'seqread' AND f.block_bytes BETWEEN blk AND combine_max
						   AND f.mb_per_s IS NOT NULL
						 ORDER BY f.block_bytes, f.iodepth) f) k
		 WHERE k.next_mb IS NULL OR k.next_mb < k.mb_per_s * (1 + growth_margin)
		 ORDER BY k.block_bytes LIMIT 1;
		out.setting := 'io_combine_limit';
		out.current_value := (combine_now / 1024) || 'kB';
		out.suggested_value := NULL;
		out.statement := NULL;
		IF n < 2 THEN
			out.evidence := format('Nothing to suggest: sequential reads were measured in %s block size%s between %s and %s; the sweep needs two or more.',
								   n, CASE WHEN n = 1 THEN '' ELSE 's' END, blk_words, (combine_max / 1024) || ' kB');
		ELSIF below IS NOT NULL THEN
			out.evidence := 'Nothing to suggest: ' || below || '.';
		ELSIF seq_buffered THEN
			out.evidence := 'Nothing to suggest: the reads went through the OS page cache (direct => false), which may have served them.';
		ELSE
			out.suggested_value := (b / 1024) || 'kB';
			out.evidence := format('Sequential reads (direct, depth 1), MB/s (block size): %s. ', sweep) ||
				CASE WHEN knee_next IS NULL
					 THEN format('MB/s still grew by %s %% or more at the largest block measured (%s)',
								 round(100 * growth_margin), (b / 1024) || ' kB')
					 ELSE format('Past %s blocks doubling the size adds less than %s %% (%s → %s MB/s)',
								 (b / 1024) || ' kB', round(100 * growth_margin),
								 round(knee_at::numeric), round(knee_next::numeric))
				END ||
				'. A server-wide setting: ALTER SYSTEM, then a reload' ||
				CASE WHEN combine_cap IS NOT NULL AND b > combine_cap
					 THEN format('; it is above io_max_combine_limit (%s kB), which takes a restart',
								 combine_cap / 1024)
					 ELSE '' END || '.';
			out.statement :=
				CASE WHEN combine_cap IS NOT NULL AND b > combine_cap
					 THEN format('ALTER SYSTEM SET io_max_combine_limit = %L; ', out.suggested_value)
					 ELSE '' END ||
				format('ALTER SYSTEM SET io_combine_limit = %L', out.suggested_value);
		END IF;
		advice := advice || jsonb_build_array(to_jsonb(out));
		RETURN NEXT out;
	END IF;

	IF keep THEN
		IF run_label ~ '^[0-9]+$' THEN
			-- a run id: record under that run's label
			run_label := (SELECT r2.label FROM @extschema@.bench_run r2 WHERE r2.run_id = run_label::bigint);
		END IF;
		PERFORM @extschema@.bench_record('tablespace_advice'::pg_catalog.text, ts_name::pg_catalog.text, advice, run_label,
							 jsonb_build_object('tablespace', ts_name, 'size', file_size,
												'duration', cap, 'label', $4,
												'measured', measured,
												'cache_hit_share', hit_arg));
		IF $4 IS NULL THEN
			RAISE NOTICE 'advice and measurements recorded under label "%"', run_label
				USING HINT = format('Apply it with bench_apply_advice(%L, %L).', ts_name, run_label);
		END IF;
	END IF;
	RETURN;
END;
$$;

COMMENT ON FUNCTION _bench_tablespace_advice_once(name, text, interval, text, boolean, float8) IS
'internal: one set of measurements and the advice from it (bench_tablespace_advice of 1.1)';

--
-- _bench_cache_hit_share: the share of random reads the advice takes to
-- be cache hits, and how it was found: the one given, else pg_statio's
-- for the tablespace's relations in this database (over all their block
-- accesses, sequential ones too) once there are enough of them, else
-- the 90 % PostgreSQL's default random_page_cost of 4 assumes.
--
CREATE OR REPLACE FUNCTION _bench_cache_hit_share(tablespace oid, given float8, OUT hit float8, OUT words text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- block accesses needed before pg_statio's hit share is used
	min_accesses constant bigint := 10000;
	-- PostgreSQL's own assumption behind random_page_cost = 4
	assumed_hit_share constant float8 := 0.9;
	db_spc oid;
	hits numeric;
	accesses numeric;
	frozen text := current_setting('bs_advice.hit_share', true);
BEGIN
	IF given IS NOT NULL THEN
		hit := given;
		words := format('A cache hit share of %s was given (cache_hit_share)', round(hit::numeric, 3));
		RETURN;
	END IF;
	-- taken by bench_tablespace_advice before it read a table of the
	-- tablespace, whose reads pg_statio counts (set local to the call)
	IF frozen <> '' THEN
		hit := (frozen::jsonb ->> 'hit')::float8;
		words := frozen::jsonb ->> 'words';
		RETURN;
	END IF;
	SELECT d.dattablespace INTO db_spc FROM pg_database d WHERE d.datname = current_database();
	SELECT sum(x.hit), sum(x.hit + x.rd) INTO hits, accesses
	  FROM (SELECT s.heap_blks_hit AS hit, s.heap_blks_read AS rd, c.reltablespace
			  FROM pg_statio_all_tables s JOIN pg_class c ON c.oid = s.relid
			UNION ALL
			SELECT s.idx_blks_hit, s.idx_blks_read, c.reltablespace
			  FROM pg_statio_all_indexes s JOIN pg_class c ON c.oid = s.indexrelid) x
	 WHERE CASE WHEN x.reltablespace = 0 THEN db_spc ELSE x.reltablespace END = $1;
	IF coalesce(accesses, 0) >= min_accesses THEN
		hit := (hits / accesses)::float8;
		words := format('%s %% of the %s block accesses to this tablespace''s relations in database %I were shared-buffer hits (pg_statio; reads the OS page cache served count as misses)',
						round(100 * hit::numeric, 1), accesses, current_database());
	ELSE
		hit := assumed_hit_share;
		words := format('This tablespace''s relations in database %I saw %s block accesses (pg_statio), too few for a hit share: 90 %% of random reads are taken to be cache hits, as PostgreSQL''s default does',
						current_database(), coalesce(accesses, 0));
	END IF;
END;
$$;

COMMENT ON FUNCTION _bench_cache_hit_share(oid, float8) IS
'internal: the cache hit share bench_tablespace_advice weighs random_page_cost by, and where it comes from';

--
-- _bench_relation_fit_for_advice: refuses, before anything is measured, a
-- relation bench_tablespace_advice cannot derive random_page_cost from:
-- not a table, not (wholly) in the tablespace, not readable by the
-- caller, or smaller than 4 × shared_buffers, whose reads the caches
-- would answer.  Returns its main fork's blocks.
--
CREATE OR REPLACE FUNCTION _bench_relation_fit_for_advice(relation regclass, tablespace name)
RETURNS bigint
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- the relation must be at least this many times shared_buffers
	min_sb_multiple constant integer := 4;
	rel regclass := $1;
	ts_name name := $2;
	kind "char";
	relname name;
	db_spc oid;
	spcs text[];
	bytes bigint;
	sb bigint := pg_size_bytes(current_setting('shared_buffers'));
BEGIN
	SELECT c.relkind, c.relname INTO kind, relname FROM pg_class c WHERE c.oid = rel;
	IF kind IS NULL OR kind NOT IN ('r', 'm', 'p') THEN
		RAISE EXCEPTION '"%" is not a table', relname
			USING ERRCODE = 'wrong_object_type',
				  HINT = 'random_page_cost is derived from a table''s heap: name a table or materialized view.';
	END IF;
	IF NOT has_table_privilege(rel, 'SELECT') THEN
		RAISE EXCEPTION 'permission denied for table %', relname
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = current_user AND r.rolsuper)
	   AND NOT pg_has_role('pg_checkpoint', 'USAGE') THEN
		RAISE EXCEPTION 'permission denied to read relation "%" cold', relname
			USING ERRCODE = 'insufficient_privilege',
				  DETAIL = 'Deriving random_page_cost from a table times cold reads of it, which checkpoint first.',
				  HINT = 'Only roles with the privileges of pg_checkpoint may do this.';
	END IF;
	SELECT d.dattablespace INTO db_spc FROM pg_database d WHERE d.datname = current_database();
	SELECT array_agg(DISTINCT coalesce(t.spcname, '?') ORDER BY coalesce(t.spcname, '?')),
		   sum(pg_relation_size(c.oid, 'main'))
	  INTO spcs, bytes
	  FROM (SELECT p.relid FROM pg_partition_tree(rel) p WHERE kind = 'p' AND p.isleaf
			UNION ALL
			SELECT rel WHERE kind <> 'p') l
	  JOIN pg_class c ON c.oid = l.relid
	  LEFT JOIN pg_tablespace t ON t.oid = CASE WHEN c.reltablespace = 0 THEN db_spc ELSE c.reltablespace END;
	IF spcs IS NULL OR spcs <> ARRAY[ts_name::text] THEN
		RAISE EXCEPTION 'relation "%" is not in tablespace "%"', relname, ts_name
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = CASE WHEN spcs IS NULL THEN 'It has no partitions.'
								ELSE format('It lies in tablespace %s.', array_to_string(spcs, ', ')) END,
				  HINT = CASE WHEN cardinality(spcs) = 1
							  THEN format('Name its tablespace: bench_tablespace_advice(%L, relation => %L).',
										  spcs[1], rel::text)
							  ELSE 'Name a table whose data lies in the tablespace the advice is for.' END;
	END IF;
	IF bytes < min_sb_multiple * sb THEN
		RAISE EXCEPTION 'relation "%" is too small to derive random_page_cost from', relname
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = format('It has %s of pages; below %s × shared_buffers (%s) its reads would come from the server''s and the kernel''s caches, not from the storage.',
								  pg_size_pretty(bytes), min_sb_multiple, pg_size_pretty(min_sb_multiple * sb)),
				  HINT = format('Name a table of at least %s, or make one whose rows lie in random order: bench_generate_randread(%L, %L).',
								pg_size_pretty(min_sb_multiple * sb), pg_size_pretty(min_sb_multiple * sb), ts_name);
	END IF;
	RETURN bytes / current_setting('block_size')::bigint;
END;
$$;

COMMENT ON FUNCTION _bench_relation_fit_for_advice(regclass, name) IS
'internal: refuses a relation bench_tablespace_advice cannot derive random_page_cost from, else its blocks';

--
-- _bench_relation_page_cost: random_page_cost as Tomas Vondra derives it
-- ("The real cost of random I/O"), through PostgreSQL's own path: the
-- time per page of a cold sequential scan of a table against that of
-- cold random reads of its blocks, one at a time, through the buffer
-- manager (bench_seqscan and bench_randread), weighed by the cache hit
-- share as the raw-file figure is.  Replaces the raw-file advice row
-- (raw), whose figure goes into the evidence beside it.  Recorded runs
-- of the relation under the label are used when there are some; else
-- it is measured now (and recorded under the label when record is true).
--
CREATE OR REPLACE FUNCTION _bench_relation_page_cost(raw bench_advice, relation regclass, label text,
										  record boolean, cache_hit_share float8)
RETURNS bench_advice
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- random reads timed: a tenth of the blocks, at least 1000 and at
	-- most 10000 (the mean of that many is within a few per cent of the
	-- true one on a steady device).  Few against the table, so that the
	-- kernel's read-ahead around earlier reads answers few of them.
	max_reads constant bigint := 10000;
	min_reads constant bigint := 1000;
	-- a cold run that found this share of its pages cached is not cold
	not_cold_pct constant float8 := 1.0;
	-- random reads the device must have served, at least (the rest the
	-- kernel's read-ahead of earlier reads answered: reported beside)
	min_device_share constant float8 := 0.5;
	rel regclass := $2;
	run_label text := $3;
	keep boolean := $4;
	out @extschema@.bench_advice := $1;
	ts_oid oid;
	blocks bigint;
	sq jsonb;
	rr jsonb;
	seq_us float8;
	rnd_us float8;
	seq_cost float8;
	ratio float8;
	hit float8;
	hit_words text;
	distrust text;
	raw_words text;
	from_history boolean := false;
	relname name := (SELECT c.relname FROM pg_class c WHERE c.oid = $2);
BEGIN
	blocks := @extschema@._bench_relation_fit_for_advice(rel, out.tablespace);
	SELECT t.oid INTO ts_oid FROM pg_tablespace t WHERE t.spcname = out.tablespace;

	-- the relation's cold runs recorded under the label, the newest of each
	IF run_label IS NOT NULL THEN
		SELECT x.metrics INTO sq
		  FROM @extschema@.bench_run r JOIN @extschema@.bench_result x ON x.run_id = r.run_id
		 WHERE r.run_id = ANY (@extschema@.bench_run_ids(run_label))
		   AND r.benchmark = 'seqscan' AND r.target_oid = rel
		   AND x.metrics ->> 'cache' = 'cold' AND x.metrics ->> 'mode' = 'heap'
		   AND coalesce(x.metrics ->> 'workers_requested', '0') = '0'
		 ORDER BY r.run_id DESC, x.row_no DESC LIMIT 1;
		SELECT x.metrics INTO rr
		  FROM @extschema@.bench_run r JOIN @extschema@.bench_result x ON x.run_id = r.run_id
		 WHERE r.run_id = ANY (@extschema@.bench_run_ids(run_label))
		   AND r.benchmark = 'randread' AND r.target_oid = rel
		   AND x.metrics ->> 'cache' = 'cold' AND x.metrics ->> 'depth' = '1'
		 ORDER BY r.run_id DESC, x.row_no DESC LIMIT 1;
		from_history := sq IS NOT NULL AND rr IS NOT NULL;
	END IF;
	IF NOT from_history THEN
		-- recorded under the label, unless it is a run id (no label)
		SELECT to_jsonb(s) INTO sq
		  FROM @extschema@.bench_seqscan(rel, cache => 'cold',
										 label => CASE WHEN keep AND run_label !~ '^[0-9]+$' THEN run_label END,
										 record => keep) s;
		SELECT to_jsonb(s) INTO rr
		  FROM @extschema@.bench_randread(rel, reads => least(max_reads, greatest(blocks / 10, least(blocks, min_reads))),
										  cache => 'cold', depth => 1,
										  label => CASE WHEN keep AND run_label !~ '^[0-9]+$' THEN run_label END,
										  record => keep) s;
	END IF;

	seq_us := (sq ->> 'elapsed_ms')::float8 * 1000 / nullif((sq ->> 'pages')::float8, 0);
	rnd_us := (rr ->> 'elapsed_ms')::float8 * 1000 / nullif((rr ->> 'reads')::float8, 0);
	seq_cost := coalesce((SELECT split_part(o, '=', 2)::float8 FROM pg_tablespace t, unnest(t.spcoptions) o
						   WHERE t.oid = ts_oid AND split_part(o, '=', 1) = 'seq_page_cost'),
						 (SELECT s.reset_val::float8 FROM pg_settings s WHERE s.name = 'seq_page_cost'));
	SELECT c.hit, c.words INTO hit, hit_words FROM @extschema@._bench_cache_hit_share(ts_oid, $5) c;

	distrust := CASE
		WHEN seq_us IS NULL OR rnd_us IS NULL OR seq_us <= 0 OR rnd_us <= 0
		THEN 'the relation''s scan or random reads read nothing'
		WHEN sq ->> 'served_by' = 'cache below' OR rr ->> 'served_by' = 'cache below'
		THEN format('a cache below the server served the relation''s cold reads, so they time that cache, not the storage (scan: %s random reads: %s)',
					coalesce(sq ->> 'warnings', 'served by storage.'), coalesce(rr ->> 'warnings', 'served by storage.'))
		WHEN (sq ->> 'cached_pct')::float8 >= not_cold_pct OR (rr ->> 'cached_pct')::float8 >= not_cold_pct
		THEN format('the cold runs found %s %% (scan) and %s %% (random reads) of the relation''s pages still cached (scan: %s random reads: %s)',
					round((sq ->> 'cached_pct')::numeric, 1), round((rr ->> 'cached_pct')::numeric, 1),
					coalesce(sq ->> 'warnings', 'none.'), coalesce(rr ->> 'warnings', 'none.'))
		WHEN (rr ->> 'device_reads')::float8 < min_device_share * (rr ->> 'reads')::float8
		THEN format('only %s of the %s random reads came from the device, the rest from the OS page cache (the kernel read ahead %s MB around them): the table is too small against the reads for them to stay random',
					rr ->> 'device_reads', rr ->> 'reads', round((rr ->> 'readahead_mb')::numeric, 1))
		WHEN rnd_us <= seq_us
		THEN format('a random page (%s µs) was read no slower than a sequential one (%s µs): a cache served the random reads',
					round(rnd_us::numeric, 1), round(seq_us::numeric, 2))
		END;

	raw_words := format(' Raw-file reads of the tablespace, for comparison, suggest %s: %s',
						coalesce(out.suggested_value, 'nothing'), out.evidence);
	IF distrust IS NOT NULL THEN
		out.suggested_value := NULL;
		out.statement := NULL;
		out.evidence := format('Nothing to suggest from table %s: %s.', relname, distrust) || raw_words;
		RETURN out;
	END IF;
	ratio := rnd_us / seq_us;
	out.suggested_value := round((seq_cost * greatest(1.0, ratio * (1 - hit)))::numeric, 1)::text;
	out.statement := format('ALTER TABLESPACE %I SET (random_page_cost = %s)', out.tablespace, out.suggested_value);
	out.evidence := format('Through PostgreSQL on table %s (%s, %s blocks%s): a cold sequential scan read %s pages in %s ms, %s µs per page (%s MB/s); %s cold random reads of its blocks, one at a time, took %s µs each (median %s µs), %s of them from the device (the rest the kernel''s read-ahead around earlier ones answered); a random page costs %s sequential pages. %s. %s × (1 − %s) = %s%s.',
						   relname, pg_size_pretty(blocks * current_setting('block_size')::bigint), blocks,
						   CASE WHEN from_history THEN format(', runs recorded under "%s"', run_label) ELSE '' END,
						   sq ->> 'pages', round((sq ->> 'elapsed_ms')::numeric, 1), round(seq_us::numeric, 2),
						   round((sq ->> 'mb_per_s')::numeric, 1),
						   rr ->> 'reads', round(rnd_us::numeric, 1),
						   coalesce(round((rr ->> 'lat_p50_us')::numeric, 1)::text, 'not timed'),
						   coalesce(rr ->> 'device_reads', 'an unknown number'),
						   round(ratio::numeric, 1), hit_words, round(ratio::numeric, 1), round(hit::numeric, 3),
						   round((ratio * (1 - hit))::numeric, 2),
						   CASE WHEN ratio * (1 - hit) < 1.0
								THEN ', below 1: a page costs no less than a sequential one' ELSE '' END ||
						   CASE WHEN seq_cost <> 1
								THEN format(', times this tablespace''s seq_page_cost %s', seq_cost) ELSE '' END)
					|| raw_words;
	RETURN out;
END;
$$;

COMMENT ON FUNCTION _bench_relation_page_cost(bench_advice, regclass, text, boolean, float8) IS
'internal: random_page_cost from cold sequential and random reads of a table through the buffer manager, in place of the raw-file figure';

--
-- bench_tablespace_advice: repeat.  The measurements move between runs
-- (random_page_cost 1.2 then 1.3, effective_io_concurrency 64 then 32 on
-- one filesystem minutes apart), so the advice measures repeat times (3
-- by default), each set recorded under '<label> #i' (or read from there,
-- recorded by an earlier call), suggests the median
-- of the repeats' suggestions, and puts their spread in the evidence,
-- saying so when the repeats disagree at the suggestion's rounding.  1.1's
-- function, which measures once, is kept as _bench_tablespace_advice_once
-- and does the measuring.
--
CREATE OR REPLACE FUNCTION bench_tablespace_advice(
	tablespace name DEFAULT 'pg_default',
	size text DEFAULT '1GB',			-- file size of each measurement, pg_size_bytes syntax
	duration interval DEFAULT '10s',	-- time cap of each random-read measurement
	label text DEFAULT NULL,			-- use the measurements recorded under it (a label or a run id)
	record boolean DEFAULT true,		-- record the measurements and the advice
	cache_hit_share float8 DEFAULT NULL,	-- share of reads served from cache, 0 .. 1; NULL: from pg_statio
	repeat integer DEFAULT 3,			-- sets of measurements, 1 .. 20; the median suggestion, with the spread (1.2)
	relation regclass DEFAULT NULL		-- random_page_cost from cold reads of this table (at least 4 × shared_buffers) through the server; NULL: from raw files (1.2)
)
RETURNS SETOF bench_advice
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	ts_name name := $1;
	run_label text := $4;
	keep boolean := $5;
	n integer := $7;
	rel regclass := $8;
	sets jsonb := '[]';				-- per repeat: its advice rows, in order
	sub text[] := '{}';				-- the repeats' labels
	advice jsonb := '[]';
	out @extschema@.bench_advice;
	s record;
	vals text[];
	picked integer;
	lo text;
	hi text;
	unstable text[] := '{}';		-- the settings whose repeats disagree
BEGIN
	IF n IS NULL THEN
		RAISE EXCEPTION 'repeat cannot be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF n < 1 OR n > 20 THEN
		RAISE EXCEPTION 'repeat must be between 1 and 20'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Each repeat measures the tablespace again: 3 shows the spread.';
	END IF;
	-- a table to derive random_page_cost from is refused before anything
	-- is measured if it cannot serve
	IF rel IS NOT NULL THEN
		IF ts_name IS NULL THEN
			RAISE EXCEPTION 'tablespace cannot be null' USING ERRCODE = 'null_value_not_allowed';
		END IF;
		PERFORM @extschema@._bench_relation_fit_for_advice(rel, ts_name);
		-- the hit share as it is before the table's cold reads, which
		-- pg_statio counts, change it
		IF $6 IS NULL THEN
			PERFORM set_config('bs_advice.hit_share',
				(SELECT jsonb_build_object('hit', c.hit,
										   'words', c.words || ', before this advice read the table')::text
				   FROM @extschema@._bench_cache_hit_share(
							(SELECT t.oid FROM pg_tablespace t WHERE t.spcname = ts_name), NULL) c),
				true);
		END IF;
		IF keep AND run_label IS NULL THEN
			run_label := format('advice %s %s', ts_name,
								to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS.MS'));
		END IF;
	END IF;

	-- advice from measurements recorded under a label (or a run id), or
	-- one set measured now: as 1.1.  A label whose sets an earlier call
	-- recorded under '<label> #i' is read from there.
	IF run_label ~ '^[0-9]+$'
	   OR (run_label IS NOT NULL AND EXISTS (
			SELECT 1 FROM @extschema@.bench_history h
			 WHERE h.run_id = ANY (@extschema@.bench_run_ids(run_label))
			   AND h.test IN ('seqread', 'randread'))) THEN
		FOR out IN SELECT * FROM @extschema@._bench_tablespace_advice_once($1, $2, $3, $4, $5, $6) LOOP
			IF rel IS NOT NULL AND out.setting = 'random_page_cost' THEN
				out := @extschema@._bench_relation_page_cost(out, rel, run_label, keep, $6);
			END IF;
			RETURN NEXT out;
		END LOOP;
		PERFORM set_config('bs_advice.hit_share', '', true);
		RETURN;
	END IF;
	IF n = 1 AND NOT EXISTS (SELECT 1 FROM @extschema@.bench_run r
							  WHERE r.label = format('%s #1', run_label)) THEN
		FOR out IN SELECT * FROM @extschema@._bench_tablespace_advice_once($1, $2, $3, run_label, $5, $6) LOOP
			IF rel IS NOT NULL AND out.setting = 'random_page_cost' THEN
				out := @extschema@._bench_relation_page_cost(out, rel, run_label, keep, $6);
			END IF;
			out.evidence := out.evidence || ' One set of measurements: how much the figure moves between runs is not known (repeat => 3 shows it).';
			RETURN NEXT out;
		END LOOP;
		IF keep AND $4 IS NULL AND rel IS NOT NULL THEN
			RAISE NOTICE 'advice and measurements recorded under label "%"', run_label
				USING HINT = format('Apply it with bench_apply_advice(%L, %L).', ts_name, run_label);
		END IF;
		PERFORM set_config('bs_advice.hit_share', '', true);
		RETURN;
	END IF;

	IF keep AND run_label IS NULL THEN
		run_label := format('advice %s %s', ts_name,
							to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS.MS'));
	END IF;
	-- each set under '<label> #i': measured there, or (recorded before,
	-- by an earlier call with this label) read from there
	FOR i IN 1 .. n LOOP
		sub := sub || CASE WHEN run_label IS NOT NULL THEN format('%s #%s', run_label, i) END;
		sets := sets || jsonb_build_array(
			(SELECT coalesce(jsonb_agg(CASE WHEN rel IS NOT NULL AND a.setting = 'random_page_cost'
										   THEN to_jsonb(@extschema@._bench_relation_page_cost(
												 (a.tablespace, a.setting, a.current_value, a.suggested_value,
												  a.evidence, a.statement)::@extschema@.bench_advice,
												 rel, sub[i], keep, $6))
										   ELSE to_jsonb(a) END ORDER BY a.ord), '[]')
			   FROM @extschema@._bench_tablespace_advice_once($1, $2, $3, sub[i], keep, $6)
					WITH ORDINALITY AS a(tablespace, setting, current_value,
							suggested_value, evidence, statement, ord)));
	END LOOP;

	-- per setting (in the order of the first set): the repeats' values,
	-- the median one (the lower of the middle two for an even count, so
	-- that it is a value the advice itself gave), and its row
	FOR s IN
		SELECT e.ordinality AS ord, e.value ->> 'setting' AS setting
		  FROM jsonb_array_elements(sets -> 0) WITH ORDINALITY e
	LOOP
		SELECT array_agg(v.val ORDER BY v.sort_key NULLS LAST, v.rep)
		  INTO vals
		  FROM (SELECT r.ordinality AS rep, x.value ->> 'suggested_value' AS val,
					   CASE WHEN x.value ->> 'suggested_value' ~ '^[0-9]+(\.[0-9]+)?$'
							THEN (x.value ->> 'suggested_value')::numeric
							WHEN x.value ->> 'suggested_value' ~ '^[0-9]+ ?(bytes|kB|MB|GB)$'
							THEN pg_size_bytes(x.value ->> 'suggested_value')::numeric END AS sort_key
				  FROM jsonb_array_elements(sets) WITH ORDINALITY r,
					   jsonb_array_elements(r.value) x
				 WHERE x.value ->> 'setting' = s.setting) v;
		vals := array_remove(vals, NULL);
		-- the repeat whose suggestion is the median, else the first
		picked := 1;
		IF cardinality(vals) > 0 THEN
			SELECT r.ordinality INTO picked
			  FROM jsonb_array_elements(sets) WITH ORDINALITY r, jsonb_array_elements(r.value) x
			 WHERE x.value ->> 'setting' = s.setting
			   AND x.value ->> 'suggested_value' = vals[(cardinality(vals) + 1) / 2]
			 ORDER BY r.ordinality LIMIT 1;
		END IF;
		SELECT (jsonb_populate_record(NULL::@extschema@.bench_advice, x.value)).* INTO out
		  FROM jsonb_array_elements(sets -> (picked - 1)) x
		 WHERE x.value ->> 'setting' = s.setting;
		lo := vals[1];
		hi := vals[cardinality(vals)];
		IF n = 1 THEN
			out.evidence := out.evidence || ' One set of measurements: how much the figure moves between runs is not known (repeat => 3 shows it).';
		ELSE
			out.evidence := out.evidence || format(' Over %s repeats: %s.', n,
				(SELECT string_agg(coalesce(x.value ->> 'suggested_value', 'none'), ', ' ORDER BY r.ordinality)
				   FROM jsonb_array_elements(sets) WITH ORDINALITY r, jsonb_array_elements(r.value) x
				  WHERE x.value ->> 'setting' = s.setting));
			IF cardinality(vals) > 0 AND lo IS DISTINCT FROM hi THEN
				out.evidence := out.evidence || format(' The repeats disagree at this rounding (%s to %s): the figure is not stable enough to choose between them; more repeats or a longer duration narrow it.', lo, hi);
				unstable := unstable || s.setting::text;
			ELSIF cardinality(vals) > 0 AND cardinality(vals) < n THEN
				out.evidence := out.evidence || format(' %s of %s repeats suggested nothing.', n - cardinality(vals), n);
			ELSIF cardinality(vals) > 0 THEN
				out.evidence := out.evidence || ' The repeats agree.';
			END IF;
		END IF;
		advice := advice || jsonb_build_array(to_jsonb(out));
		RETURN NEXT out;
	END LOOP;

	IF keep THEN
		PERFORM @extschema@.bench_record('tablespace_advice'::pg_catalog.text, ts_name::pg_catalog.text, advice, run_label,
							 jsonb_build_object('tablespace', ts_name, 'size', $2,
												'duration', $3, 'label', $4,
												'measured', true, 'repeat', n,
												'repeat_labels', to_jsonb(sub),
												'cache_hit_share', $6));
		-- advice whose repeats disagree is not to be applied yet
		RAISE NOTICE 'advice recorded under label "%", its % sets of measurements under "%" .. "%"',
			run_label, n, sub[1], sub[n]
			USING HINT = CASE WHEN cardinality(unstable) > 0
						 THEN format('The repeats disagree on %s: the advice is not stable enough to apply. Measure again with a larger size or a longer duration until they agree.',
									 array_to_string(unstable, ', '))
						 ELSE format('Apply it with bench_apply_advice(%L, %L).', ts_name, run_label) END;
	END IF;
	PERFORM set_config('bs_advice.hit_share', '', true);
	RETURN;
END;
$$;

COMMENT ON FUNCTION bench_tablespace_advice(name, text, interval, text, boolean, float8, integer, regclass) IS
'suggest random_page_cost, effective_io_concurrency, maintenance_io_concurrency and io_combine_limit for a tablespace from repeated measurements of it (random_page_cost from cold reads of a table when one is named), with the evidence and its spread';
