--
-- tpcb: bench_generate_tpcb and bench_tpcb (1.2), pgbench's tables and
-- its TPC-B-like transaction run by clients inside the server.  Timings
-- are never compared; what is checked is what the transactions did: the
-- tables as pgbench -i builds them, TPC-B's invariant (every delta went
-- into one account, one teller, one branch and one history row), one
-- history row per transaction counted, the history, and every error.
--
SET client_encoding = 'UTF8';
SET benchstore.progress_interval = 0;
-- the generator's notice tells its load time, which no test may show
SET client_min_messages = warning;

-- pgbench's tables at scale 2, in a schema of their own.
CREATE SCHEMA bank;
SELECT generated_in, branches, accounts, mb > 0 AS has_size, index_mb > 0 AS has_keys
FROM bench_generate_tpcb(scale => 2, schema => 'bank');
SELECT relname, reloptions, (SELECT count(*) FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary) AS pkeys
FROM pg_class c WHERE relnamespace = 'bank'::regnamespace AND relkind = 'r' ORDER BY relname;
SELECT (SELECT count(*) FROM bank.pgbench_branches) AS branches,
	   (SELECT count(*) FROM bank.pgbench_tellers) AS tellers,
	   (SELECT count(*) FROM bank.pgbench_accounts) AS accounts,
	   (SELECT count(*) FROM bank.pgbench_history) AS history,
	   (SELECT max(aid) FROM bank.pgbench_accounts WHERE bid = 2) AS last_account,
	   (SELECT max(tid) FROM bank.pgbench_tellers WHERE bid = 1) AS last_teller_of_1;

-- The server's checkpoints so far, to bound the run's count by.
CREATE FUNCTION checkpoints_so_far() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	PERFORM pg_stat_clear_snapshot();
	IF current_setting('server_version_num')::integer >= 170000 THEN
		EXECUTE 'SELECT num_timed + num_requested FROM pg_stat_checkpointer' INTO n;
	ELSE
		EXECUTE 'SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter' INTO n;
	END IF;
	RETURN n;
END
$$;

-- Two clients, 400 ms, the schema found on the search_path.
SELECT checkpoints_so_far() AS ckpt_before \gset
SET search_path = bank, public;
CREATE TEMP TABLE run1 AS
SELECT * FROM bench_tpcb(clients => 2, duration => '400ms', label => 'tpcb-two');
RESET search_path;
SELECT checkpoints_so_far() AS ckpt_after \gset
SELECT clients, scale, schema, tablespace, index_tablespace,
	   transactions > 0 AS ran, tps > 0 AS rate, tps_with_connect <= tps AS connect_counted,
	   connect_ms > 0 AS connect_timed,
	   lat_p50_ms <= lat_p95_ms AND lat_p95_ms <= lat_p99_ms AND lat_p99_ms <= lat_max_ms AS latencies_ordered,
	   (SELECT sum((b ->> 1)::bigint) FROM jsonb_array_elements(histogram) b) = transactions AS histogram_holds_all,
	   blks_hit >= 5 * transactions AS buffers_counted,
	   wal_bytes_per_tx > 0 AS wal_written, checkpoints BETWEEN 0 AND :ckpt_after - :ckpt_before AS checkpoints_counted
FROM run1;
-- TPC-B's invariant: each transaction added its delta to one account, one
-- teller and one branch, and wrote one history row.
SELECT (SELECT count(*) FROM bank.pgbench_history) = (SELECT transactions FROM run1) AS one_history_row_each,
	   (SELECT sum(abalance) FROM bank.pgbench_accounts) = (SELECT sum(delta) FROM bank.pgbench_history) AS accounts_balance,
	   (SELECT sum(tbalance) FROM bank.pgbench_tellers) = (SELECT sum(delta) FROM bank.pgbench_history) AS tellers_balance,
	   (SELECT sum(bbalance) FROM bank.pgbench_branches) = (SELECT sum(delta) FROM bank.pgbench_history) AS branches_balance,
	   (SELECT count(DISTINCT bid) FROM bank.pgbench_history) = 2 AS both_branches,
	   (SELECT bool_and(delta BETWEEN -5000 AND 5000 AND aid BETWEEN 1 AND 200000 AND tid BETWEEN 1 AND 20)
		FROM bank.pgbench_history) AS pgbench_ranges;
SELECT r.benchmark, r.target, r.arguments -> 'clients' AS clients, r.arguments -> 'scale' AS scale
FROM bench_run r WHERE r.label = 'tpcb-two';
SELECT count(*) >= 1 AS samples FROM bench_samples('tpcb-two');

-- Tables and keys in tablespaces of their own; replaced when asked.
SET allow_in_place_tablespaces = on;
CREATE TABLESPACE tpcb_data LOCATION '';
CREATE TABLESPACE tpcb_index LOCATION '';
RESET allow_in_place_tablespaces;
SELECT generated_in, branches FROM bench_generate_tpcb(scale => 1, schema => 'bank', replace => true,
	tablespace => 'tpcb_data', index_tablespace => 'tpcb_index', fillfactor => 90);
SELECT c.relname, t.spcname, c.reloptions FROM pg_class c JOIN pg_tablespace t ON t.oid = c.reltablespace
WHERE c.relnamespace = 'bank'::regnamespace ORDER BY c.relname;
SELECT scale, tablespace, index_tablespace, transactions > 0 AS ran
FROM bench_tpcb(clients => 1, duration => '200ms', schema => 'bank', record => false);

-- The caller's snapshot is given up while the clients run only where
-- nothing can read with it afterwards; otherwise it is held, and a note
-- says so: in a transaction block, or under a query that reads a table.
SELECT position('snapshot' IN coalesce(notes, '')) = 0 AS snapshot_given_up
FROM bench_tpcb(clients => 1, duration => '200ms', schema => 'bank', record => false);
BEGIN;
SELECT notes FROM bench_tpcb(clients => 1, duration => '200ms', schema => 'bank', record => false);
COMMIT;
SELECT t.notes FROM bench_tpcb(clients => 1, duration => '200ms', schema => 'bank', record => false) t
JOIN pg_namespace n ON n.nspname = t.schema;
-- A PL/pgSQL cursor loop over it, inside a query that reads a table: the
-- outer query's snapshot is registered too, and kept.
CREATE FUNCTION tpcb_in_loop() RETURNS text LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
	FOR r IN SELECT * FROM bench_tpcb(clients => 1, duration => '200ms', schema => 'bank', record => false) LOOP
		RETURN r.notes;
	END LOOP;
END $$;
SELECT position('snapshot' IN tpcb_in_loop()) > 0 AS snapshot_kept FROM bank.pgbench_branches LIMIT 1;
ALTER FUNCTION tpcb_in_loop() STABLE;
SELECT position('snapshot' IN tpcb_in_loop()) > 0 AS snapshot_kept FROM bank.pgbench_branches LIMIT 1;
DROP FUNCTION tpcb_in_loop();

-- A ramp (as bench_tablespace_io's): its transactions ran (their history
-- rows are there) but are left out of every figure, which starts at its
-- end, as the duration does; the series keeps it.  The steady-state
-- verdict is the one the recorded samples give when worked out again in
-- SQL (test/sql/steady_window.sql).
CREATE TEMP TABLE history_before AS SELECT count(*) AS n FROM bank.pgbench_history;
CREATE TEMP TABLE ramped AS
SELECT * FROM bench_tpcb(clients => 2, duration => '400ms', schema => 'bank', ramp => '300ms',
						 steady => 'iops:90%', steady_window => '200ms',
						 sample_interval => '100ms', label => 'tpcb-ramp');
SELECT elapsed_ms >= 400 AS duration_after_ramp,
	   (SELECT count(*) FROM bank.pgbench_history) - (SELECT n FROM history_before) > transactions
	   AS ramp_left_out,
	   (SELECT sum((b ->> 1)::bigint) FROM jsonb_array_elements(histogram) b) = transactions
	   AS histogram_after_ramp,
	   (SELECT min(start_ms) FROM bench_samples('tpcb-ramp')) < 300 AS series_keeps_ramp,
	   steady_criterion,
	   CASE WHEN steady_state
			THEN steady_at_ms = first_steady_window(r.run_id, 1, '{iops:90%}', 2, 300, 100)
			ELSE first_steady_window(r.run_id, 1, '{iops:90%}', 2, 300, 100) IS NULL
				 AND notes LIKE '%Steady state (iops:90% over 0.2 s) was not reached%' END AS verdict_ok
FROM ramped, bench_run r WHERE r.label = 'tpcb-ramp';
SELECT r.arguments -> 'ramp_s' AS ramp_s, r.arguments ->> 'until' AS until,
	   r.arguments ->> 'steady' AS steady, r.arguments -> 'steady_window_s' AS steady_window_s
FROM bench_run r WHERE r.label = 'tpcb-ramp';
-- until => 'steady' ends the run when the criterion holds (a spread of
-- 100 % holds at the first window with transactions in each sample),
-- long before the duration; the verdict is again the samples'.
CREATE TEMP TABLE until_steady AS
SELECT * FROM bench_tpcb(clients => 1, duration => '1min', schema => 'bank', ramp => '100ms',
						 until => 'steady', steady => 'iops:100%', steady_window => '200ms',
						 sample_interval => '100ms', label => 'tpcb-until');
SELECT steady_state, elapsed_ms < 60000 AS ended_when_steady,
	   steady_at_ms = first_steady_window(r.run_id, 1, '{iops:100%}', 2, 100, 100) AS verdict_ok
FROM until_steady, bench_run r WHERE r.label = 'tpcb-until';
-- A window longer than the run is never judged, and the note says so.
SELECT steady_state, steady_at_ms, steady_criterion,
	   regexp_replace(substring(notes FROM 'Steady state.*'), 'ran [0-9.]+ s', 'ran N s') AS notes
FROM bench_tpcb(clients => 1, duration => '200ms', schema => 'bank', steady => 'iops:5%',
				steady_window => '10s', record => false);

-- Generator errors; pgbench's own tables (or anyone's) are never replaced.
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpcb(scale => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpcb(scale => 20001)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpcb(scale => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpcb(fillfactor => 5)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpcb(schema => 'no_such_schema')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpcb(tablespace => 'no_such_ts')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpcb(index_tablespace => 'no_such_ts')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpcb(scale => 1, schema => 'bank')$$);
CREATE SCHEMA theirs;
CREATE TABLE theirs.pgbench_accounts (aid int, bid int, abalance int, filler char(84));
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpcb(scale => 1, schema => 'theirs', replace => true)$$);
SELECT count(*) AS kept FROM theirs.pgbench_accounts;
-- replace drops only tables the caller owns and this function generated,
-- each checked before any is dropped: another role's table among them
-- stops it (42501, naming that table), however well its marks are forged.
CREATE ROLE regress_alice;
CREATE ROLE regress_mallory;
CREATE SCHEMA shared;
GRANT USAGE, CREATE ON SCHEMA shared TO regress_alice, regress_mallory;
SET ROLE regress_alice;
CREATE TABLE shared.pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
INSERT INTO shared.pgbench_history (delta) SELECT g FROM generate_series(1, 1000) g;
SET ROLE regress_mallory;
CREATE TABLE shared.pgbench_accounts (aid int NOT NULL, bid int, abalance int, filler char(84));
CREATE TABLE shared.pgbench_tellers (tid int NOT NULL, bid int, tbalance int, filler char(84));
CREATE TABLE shared.pgbench_branches (bid int NOT NULL, bbalance int, filler char(88));
DO $$
BEGIN
	EXECUTE format('COMMENT ON TABLE shared.pgbench_accounts IS %L',
				   'pgbench tables generated by bench_generate_tpcb: file ' ||
				   (SELECT relfilenode FROM pg_class WHERE oid = 'shared.pgbench_accounts'::regclass));
END
$$;
COMMENT ON TABLE shared.pgbench_tellers IS 'pgbench tables generated by bench_generate_tpcb: table pgbench_tellers';
COMMENT ON TABLE shared.pgbench_branches IS 'pgbench tables generated by bench_generate_tpcb: table pgbench_branches';
RESET ROLE;
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpcb(scale => 1, schema => 'shared', replace => true)$$);
SELECT count(*) AS alice_rows_kept,
	   (SELECT count(*) FROM pg_class WHERE relnamespace = 'shared'::regnamespace AND relkind = 'r') AS tables_kept
FROM shared.pgbench_history;
DROP SCHEMA shared CASCADE;
DROP ROLE regress_alice;
DROP ROLE regress_mallory;
-- the caller's own table, without the mark, is not replaced either
CREATE SCHEMA mine;
CREATE TABLE mine.pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
SELECT * FROM expect_error($$SELECT * FROM bench_generate_tpcb(scale => 1, schema => 'mine', replace => true)$$);
DROP SCHEMA mine CASCADE;

-- No code another role wrote runs as the caller: pgbench's tables of a
-- plain role, with a trigger (or a check) calling its function, refuse a
-- superuser's run before any client starts (42501, naming the function).
CREATE ROLE regress_planter;
CREATE SCHEMA planted;
GRANT USAGE, CREATE ON SCHEMA planted TO regress_planter;
SET ROLE regress_planter;
SELECT generated_in FROM bench_generate_tpcb(scale => 1, schema => 'planted');
CREATE FUNCTION planted.on_history() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER on_history BEFORE INSERT ON planted.pgbench_history
	FOR EACH ROW EXECUTE FUNCTION planted.on_history();
RESET ROLE;
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(clients => 1, schema => 'planted', duration => '100ms', record => false)$$);
SET ROLE regress_planter;
DROP TRIGGER on_history ON planted.pgbench_history;
CREATE FUNCTION planted.positive(i int) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT i > -100000000 $$;
ALTER TABLE planted.pgbench_tellers ADD CHECK (planted.positive(tbalance));
-- its owner runs its own code
SELECT clients, transactions > 0 AS ran
FROM bench_tpcb(clients => 1, schema => 'planted', duration => '100ms', record => false);
RESET ROLE;
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(clients => 1, schema => 'planted', duration => '100ms', record => false)$$);
SET ROLE regress_planter;
ALTER TABLE planted.pgbench_tellers DROP CONSTRAINT pgbench_tellers_tbalance_check;
RESET ROLE;
-- tables of another role without code of it: a superuser may run on them
SELECT clients, transactions > 0 AS ran
FROM bench_tpcb(clients => 1, schema => 'planted', duration => '100ms', record => false);
DROP SCHEMA planted CASCADE;
DROP ROLE regress_planter;

-- bench_tpcb's errors: arguments, tables that are not there or not
-- pgbench's, no branches, and the rights, checked before any client starts.
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(clients => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(clients => 65)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(clients => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(duration => '10ms')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(duration => '2h')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(sample_interval => '1ms', schema => 'bank')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(ramp => '-1s', schema => 'bank')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(ramp => '2h', schema => 'bank')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(until => 'size', schema => 'bank')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(until => NULL, schema => 'bank')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(until => 'steady', schema => 'bank')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(steady => 'iops', schema => 'bank')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(steady => 'iops:5%', sample_interval => NULL, schema => 'bank')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(steady_window => '0', schema => 'bank')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(until => 'steady', steady => 'iops:5%', duration => '10s', schema => 'bank')$$);
SET benchstore.track_latency = off;
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(steady => 'lat:10%', schema => 'bank')$$);
RESET benchstore.track_latency;
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb()$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(schema => 'no_such_schema')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(schema => 'theirs')$$);
CREATE TABLE theirs.pgbench_tellers (tid int, bid int, tbalance int, filler char(84));
CREATE TABLE theirs.pgbench_branches (bid int, bbalance int, filler char(88));
CREATE VIEW theirs.pgbench_history AS SELECT 1 AS tid;
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(schema => 'theirs')$$);
DROP VIEW theirs.pgbench_history;
CREATE TABLE theirs.pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(schema => 'theirs')$$);
ALTER TABLE theirs.pgbench_accounts DROP COLUMN abalance;
INSERT INTO theirs.pgbench_branches VALUES (1, 0);
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(schema => 'theirs')$$);
DROP SCHEMA theirs CASCADE;

CREATE ROLE regress_teller;
GRANT USAGE ON SCHEMA bank TO regress_teller;
GRANT SELECT, UPDATE ON bank.pgbench_accounts, bank.pgbench_tellers, bank.pgbench_branches TO regress_teller;
SET ROLE regress_teller;
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(clients => 1, schema => 'bank', duration => '100ms', record => false)$$);
RESET ROLE;
GRANT INSERT ON bank.pgbench_history TO regress_teller;
SET ROLE regress_teller;
SELECT clients, transactions > 0 AS ran
FROM bench_tpcb(clients => 1, schema => 'bank', duration => '100ms', record => false);
-- a ramp and a criterion need no more: the statistics read at the ramp's
-- end are open to every role
SELECT clients, transactions > 0 AS ran, steady_criterion
FROM bench_tpcb(clients => 1, schema => 'bank', duration => '200ms', ramp => '100ms',
				steady => 'iops:50%', steady_window => '200ms', sample_interval => '100ms',
				record => false);
RESET ROLE;
REVOKE UPDATE ON bank.pgbench_branches FROM regress_teller;
SET ROLE regress_teller;
SELECT * FROM expect_error($$SELECT * FROM bench_tpcb(clients => 1, schema => 'bank', duration => '100ms', record => false)$$);
RESET ROLE;
DROP OWNED BY regress_teller;
DROP ROLE regress_teller;

DROP SCHEMA bank CASCADE;
DROP TABLESPACE tpcb_data;
DROP TABLESPACE tpcb_index;
DROP FUNCTION checkpoints_so_far();
