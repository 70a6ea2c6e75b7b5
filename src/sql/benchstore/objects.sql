-- src/sql/benchstore/objects.sql: the extension's tables, sequence, index
-- and composite type: the objects CREATE OR REPLACE cannot replace.  Each
-- "@version V" section holds what version V created; a fresh install runs
-- every section, the V-1--V update only V's (an object of an earlier version
-- already exists there, and is changed, if at all, by update-*-pre.sql).  A
-- column added to a table is added last here too, as ALTER TABLE ADD COLUMN
-- put it in the update.

-- @version 1.0

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
	run_id bigint PRIMARY KEY
		DEFAULT pg_catalog.nextval('@extschema@.bench_run_id_seq'::pg_catalog.regclass),
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
	recorded_by_oid oid,				-- 1.2: the role that ran it, by OID (see below)
	CHECK (label OPERATOR(pg_catalog.<>) ''::pg_catalog.text
		   AND label OPERATOR(pg_catalog.!~) '^[0-9]+$'::pg_catalog.text),
	CHECK (target_kind OPERATOR(pg_catalog.=) ANY (ARRAY['relation'::pg_catalog.text,
		'tablespace'::pg_catalog.text, 'other'::pg_catalog.text]))
);

CREATE INDEX bench_run_label_idx ON bench_run (label);

CREATE TABLE bench_result (
	run_id bigint NOT NULL REFERENCES bench_run ON DELETE CASCADE,
	row_no integer NOT NULL,			-- 1 .. rows of the call, in output order
	metrics jsonb NOT NULL,				-- the result row: column name -> value
	PRIMARY KEY (run_id, row_no),
	CHECK (pg_catalog.jsonb_typeof(metrics) OPERATOR(pg_catalog.=) 'object'::pg_catalog.text)
);

SELECT pg_catalog.pg_extension_config_dump('bench_run', '');

SELECT pg_catalog.pg_extension_config_dump('bench_result', '');

SELECT pg_catalog.pg_extension_config_dump('bench_run_id_seq', '');

-- @version 1.1

--
-- Settings advice: bench_tablespace_advice measures a tablespace (or takes
-- measurements recorded under a label) and suggests random_page_cost,
-- effective_io_concurrency, maintenance_io_concurrency and, from 17 on,
-- io_combine_limit, each with the figures it comes from; bench_apply_advice
-- sets a recorded advice's tablespace options and records the options it
-- replaced; bench_undo_advice puts them back.  How each suggestion is
-- derived, and its limits, is in doc/reference/advice.md; the constants
-- are named at the top of bench_tablespace_advice.
--
CREATE TYPE bench_advice AS (
	tablespace name,				-- the tablespace advised
	setting text,					-- the setting's name
	current_value text,				-- the tablespace's own option, else the server's setting
	suggested_value text,			-- NULL: nothing to suggest (evidence says why)
	evidence text,					-- the measured figures the suggestion comes from
	statement text					-- the statement that would apply it
);

COMMENT ON TYPE bench_advice IS
'one setting suggested by bench_tablespace_advice, with its evidence and the statement that applies it';

-- @version 1.2

--
-- The time series (1.2): bench_tablespace_io(s), bench_seqscan and
-- bench_query take one sample per sample_interval of the figures each
-- result row gives for the whole run, kept here with that row and dropped
-- with it.  A figure unknown for an interval is NULL: latencies without
-- benchstore.track_latency, the I/O split where the run cannot tell it.
--
CREATE TABLE bench_sample (
	run_id bigint NOT NULL,
	row_no integer NOT NULL,			-- the result row (bench_result.row_no)
	sample_no integer NOT NULL,			-- 1 .. in time order
	start_ms float8 NOT NULL,			-- since the row's timed work began
	elapsed_ms float8 NOT NULL,			-- the interval's length (a last one may be short)
	mb_per_s float8,					-- MB (2^20 bytes) per second in the interval
	iops float8,						-- operations per second: blocks (tablespace tests, scans), executions (bench_query)
	lat_avg_us float8,					-- mean latency of the operations that ended in it (what steady => 'lat:..' judges)
	lat_p50_us float8,					-- median
	lat_p99_us float8,					-- 99th percentile
	read_mb float8,						-- the I/O split: MB read (from a file, or by PostgreSQL from the OS)
	write_mb float8,					-- MB written
	hit_mb float8,						-- MB found in shared (or local) buffers
	PRIMARY KEY (run_id, row_no, sample_no),
	FOREIGN KEY (run_id, row_no) REFERENCES bench_result ON DELETE CASCADE,
	CHECK (elapsed_ms > 0)
);

SELECT pg_catalog.pg_extension_config_dump('bench_sample', '');

--
-- _bench_run_table (1.2): the tables runs make for themselves
-- (bench_commit's sessions'), recorded when they are made so that only
-- what a run made is ever dropped, by the role that made it
-- (src/run_tables.c).  Written and read by the extension's owner only.
--
CREATE TABLE _bench_run_table (
	relid oid PRIMARY KEY,				-- the table made
	relname name NOT NULL,				-- its name and schema when it was made
	relnamespace oid NOT NULL,
	made_by oid NOT NULL,				-- the role that made it (its owner)
	leader_pid integer NOT NULL,		-- the backend whose run it belongs to
	benchmark text NOT NULL,			-- the benchmark (commit)
	made_at timestamptz NOT NULL DEFAULT pg_catalog.now()
);

COMMENT ON TABLE _bench_run_table IS
'internal: the tables runs made for themselves, dropped only through this record by the role that made them';
