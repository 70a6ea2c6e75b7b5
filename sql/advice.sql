--
-- advice: bench_tablespace_advice's derivations on recorded measurements
-- with known figures (recorded with bench_record, as outside measurements
-- such as fio's are), bench_apply_advice and bench_undo_advice, privileges
-- and bad input.  No timing: the measuring path is tested in
-- test/t/014_iodepth.pl.
--
SET allow_in_place_tablespaces = true;
CREATE TABLESPACE regress_bs_adv LOCATION '';
CREATE ROLE regress_bs_adv_owner;
CREATE ROLE regress_bs_adv_other;
ALTER TABLESPACE regress_bs_adv OWNER TO regress_bs_adv_owner;

-- The sequential reads the server's scans issue are 128 kB (the page
-- cache's read-ahead before 17, io_combine_limit's default from 17 on).
SELECT CASE WHEN current_setting('server_version_num')::integer >= 170000
			THEN current_setting('io_combine_limit') ELSE '128kB' END AS sequential_read;

-- The result rows of a recorded run of fio-like figures: sequential
-- reads in blocks of from_kb, twice that, ... at depth 1, random 8 kB reads
-- at depths 1, 2, 4, ...
CREATE FUNCTION pg_temp.figures(seq_mb float8[], rand_iops float8[], lat_us float8,
								p50_us float8, direct boolean DEFAULT true,
								from_kb integer DEFAULT 128)
RETURNS jsonb LANGUAGE sql AS $$
	SELECT jsonb_agg(x) FROM (
		SELECT jsonb_build_object('test', 'seqread', 'block_size', (from_kb << (i - 1)) || 'kB',
								  'iodepth', 1, 'direct', direct, 'mb_per_s', seq_mb[i]) AS x
		FROM generate_subscripts(seq_mb, 1) i
		UNION ALL
		SELECT jsonb_build_object('test', 'randread', 'block_size', '8kB', 'iodepth', 1 << (i - 1),
								  'direct', direct, 'iops', rand_iops[i],
								  'lat_avg_us', CASE WHEN i = 1 THEN lat_us END,
								  'lat_p50_us', CASE WHEN i = 1 THEN p50_us END)
		FROM generate_subscripts(rand_iops, 1) i) s
$$;

-- flash: 80 µs a random page, 2,000 MB/s in 128 kB blocks (3.9 µs a
-- page): a page from storage costs 20.5 sequential ones; half the reads
-- hit the cache: 10.2.  IOPS grow by 6.7 % from depth 16 to 32: 16.
SELECT bench_record('fio', 'regress_bs_adv',
	pg_temp.figures('{2000}', '{12500,24000,45000,80000,120000,128000,130000}', 80, 75),
	'regress flash') > 0 AS recorded;
-- disk: 8 ms a random page, 150 MB/s (52 µs a page): 154 times; 90 % hits:
-- 15.4.  Depth 2 adds 8 %: 1.
SELECT bench_record('fio', 'regress_bs_adv',
	pg_temp.figures('{150}', '{125,135,140,140,140,140,140}', 8000, 7500),
	'regress disk') > 0 AS recorded;
-- a cache answered: 6 µs a random read (median 5)
SELECT bench_record('fio', 'regress_bs_adv',
	pg_temp.figures('{15000}', '{160000,300000,400000,420000,430000,430000,430000}', 6, 5),
	'regress cached') > 0 AS recorded;
-- through the page cache (direct => false)
SELECT bench_record('fio', 'regress_bs_adv',
	pg_temp.figures('{2000}', '{12500,24000,45000,80000,120000,128000,130000}', 80, 75, false),
	'regress buffered') > 0 AS recorded;
-- a block-size sweep, 8 kB .. 512 kB: MB/s grow by 20 % from 128 kB to
-- 256 kB, by 2.8 % after
SELECT bench_record('fio', 'regress_bs_adv',
	pg_temp.figures('{200,380,700,1100,1500,1800,1850}', '{12500,24000}', 80, 75, from_kb => 8),
	'regress sweep') > 0 AS recorded;
-- random reads at depth 1 only, no sequential read
SELECT bench_record('fio', 'regress_bs_adv',
	pg_temp.figures('{}', '{12500}', 80, 75),
	'regress partial') > 0 AS recorded;

CREATE FUNCTION pg_temp.advise(label text, hit float8)
RETURNS TABLE (setting text, suggested_value text, evidence text, statement text)
LANGUAGE sql AS $$
	SELECT a.setting, a.suggested_value,
		   -- from 18 on, the depth of the server's sequential reads depends
		   -- on io_method; this input has depth 1 only
		   regexp_replace(a.evidence, ' \(the server''s sequential scans keep [0-9]+\)', ''),
		   a.statement
	FROM bench_tablespace_advice('regress_bs_adv', label => label, cache_hit_share => hit) a
	WHERE a.setting <> 'io_combine_limit'
$$;

SELECT * FROM pg_temp.advise('regress flash', 0.5);
SELECT * FROM pg_temp.advise('regress disk', 0.9);

-- repeat (3 by default): the sets of measurements under '<label> #1' ..
-- '#3', as a call with label => 'regress rep' records them, give the
-- median of their suggestions, and the evidence lists every set's and
-- says where they disagree.  The second set's random reads take 90 µs
-- and stop growing at depth 8; the third's take 84 µs.
SELECT bench_record('fio', 'regress_bs_adv',
	pg_temp.figures('{2000}', '{12500,24000,45000,80000,120000,128000,130000}', 80, 75),
	'regress rep #1') > 0 AS recorded;
SELECT bench_record('fio', 'regress_bs_adv',
	pg_temp.figures('{2000}', '{11000,21000,40000,70000,74000,75000,75000}', 90, 85),
	'regress rep #2') > 0 AS recorded;
SELECT bench_record('fio', 'regress_bs_adv',
	pg_temp.figures('{2000}', '{12000,23000,44000,79000,118000,126000,128000}', 84, 80),
	'regress rep #3') > 0 AS recorded;
SELECT * FROM pg_temp.advise('regress rep', 0.5);
-- Repeats that agree: the NOTICE says to apply it; those above disagree,
-- and its HINT says not to yet.
SELECT count(bench_record('fio', 'regress_bs_adv',
	pg_temp.figures('{2000}', '{12500,24000,45000,80000,120000,128000,130000}', 80, 75),
	format('regress agree #%s', i))) AS recorded FROM generate_series(1, 3) i;
SELECT setting, suggested_value, evidence LIKE '% The repeats agree.' AS agree
FROM pg_temp.advise('regress agree', 0.5);
SELECT sum(f.runs) AS forgotten
FROM unnest('{regress agree,regress agree #1,regress agree #2,regress agree #3}'::text[]) l, bench_forget(l) f;
-- repeat => 1: the first set alone
SELECT setting, suggested_value, evidence LIKE '% One set of measurements: how much the figure moves between runs is not known (repeat => 3 shows it).' AS one_set
FROM bench_tablespace_advice('regress_bs_adv', label => 'regress rep', repeat => 1, cache_hit_share => 0.5, record => false)
WHERE setting <> 'io_combine_limit';
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_advice('regress_bs_adv', label => 'regress flash', repeat => 0)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_advice('regress_bs_adv', label => 'regress flash', repeat => 21)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_advice('regress_bs_adv', label => 'regress flash', repeat => NULL)$$);
SELECT * FROM pg_temp.advise('regress cached', 0.5);
SELECT * FROM pg_temp.advise('regress buffered', 0.5);
SELECT * FROM pg_temp.advise('regress partial', 0.5);

-- No relation of the tablespace was read: PostgreSQL's own 90 % is taken.
SELECT * FROM pg_temp.advise('regress flash', NULL) WHERE setting = 'random_page_cost';

-- All reads hit the cache: never below a sequential page; the
-- tablespace's seq_page_cost scales the suggestion.
ALTER TABLESPACE regress_bs_adv SET (seq_page_cost = 2);
SELECT setting, current_value, suggested_value
FROM bench_tablespace_advice('regress_bs_adv', label => 'regress flash', cache_hit_share => 1, record => false)
WHERE setting = 'random_page_cost';
SELECT setting, suggested_value
FROM bench_tablespace_advice('regress_bs_adv', label => 'regress flash', cache_hit_share => 0.5, record => false)
WHERE setting = 'random_page_cost';
ALTER TABLESPACE regress_bs_adv RESET (seq_page_cost);

-- io_combine_limit from 17 on: 256 kB (the knee; on 17 also the largest
-- size it takes), a server setting; no such row before 17.  Without a
-- sweep, nothing to suggest.
SELECT CASE WHEN current_setting('server_version_num')::integer >= 170000
			THEN (SELECT a.suggested_value = '256kB' AND a.statement LIKE 'ALTER SYSTEM SET %io_combine_limit = ''256kB'''
				  FROM bench_tablespace_advice('regress_bs_adv', label => 'regress sweep', record => false) a
				  WHERE a.setting = 'io_combine_limit')
			 AND (SELECT a.suggested_value IS NULL AND a.evidence LIKE 'Nothing to suggest: sequential reads were measured in 1 block size %'
				  FROM bench_tablespace_advice('regress_bs_adv', label => 'regress flash', record => false) a
				  WHERE a.setting = 'io_combine_limit')
			ELSE NOT EXISTS (SELECT FROM bench_tablespace_advice('regress_bs_adv', label => 'regress sweep', record => false) a
							 WHERE a.setting = 'io_combine_limit')
	   END AS io_combine_limit_as_expected;
-- applying it sets no server setting (a NOTICE gives the statement)
SET client_min_messages = warning;
SELECT count(*) > 0 FROM bench_tablespace_advice('regress_bs_adv', label => 'regress sweep', cache_hit_share => 0.5);
CREATE TEMP TABLE applied AS SELECT * FROM bench_apply_advice('regress_bs_adv', 'regress sweep');
RESET client_min_messages;
SELECT setting, applied FROM applied
WHERE setting = 'io_combine_limit' AND current_setting('server_version_num')::integer >= 170000
UNION ALL
SELECT 'io_combine_limit', false WHERE current_setting('server_version_num')::integer < 170000;
SELECT setting, applied FROM applied WHERE setting <> 'io_combine_limit';
SELECT count(*) FROM bench_undo_advice('regress_bs_adv');

-- The advice is recorded under the label; record => false records nothing.
SELECT count(*) AS advice_runs FROM bench_run WHERE benchmark = 'tablespace_advice';
SELECT r.label, r.target, r.target_kind, count(*) >= 3 AS rows_recorded
FROM bench_run r JOIN bench_result x USING (run_id)
WHERE r.benchmark = 'tablespace_advice'
GROUP BY r.run_id, r.label, r.target, r.target_kind ORDER BY r.run_id;

--
-- Apply and undo: the options come back exactly as they were.
--
ALTER TABLESPACE regress_bs_adv SET (random_page_cost = 3, seq_page_cost = 1.5);
SELECT spcoptions FROM pg_tablespace WHERE spcname = 'regress_bs_adv';
-- others may not
SET ROLE regress_bs_adv_other;
SELECT * FROM expect_error($$SELECT * FROM bench_apply_advice('regress_bs_adv', 'regress flash')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_undo_advice('regress_bs_adv')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_advice('regress_bs_adv', label => 'regress flash')$$);
RESET ROLE;
-- the owner may
SET ROLE regress_bs_adv_owner;
SELECT * FROM bench_apply_advice('regress_bs_adv', 'regress flash');
SELECT spcoptions FROM pg_tablespace WHERE spcname = 'regress_bs_adv';
SELECT * FROM bench_apply_advice('regress_bs_adv', 'regress disk');
SELECT spcoptions FROM pg_tablespace WHERE spcname = 'regress_bs_adv';
RESET ROLE;
-- a record another role forged is not trusted
SET ROLE regress_bs_adv_other;
SELECT bench_record('advice_applied', 'regress_bs_adv',
	'{"options_before": ["random_page_cost=99"], "options_after": []}') > 0 AS forged;
RESET ROLE;
SET ROLE regress_bs_adv_owner;
SELECT * FROM bench_undo_advice('regress_bs_adv');
SELECT spcoptions FROM pg_tablespace WHERE spcname = 'regress_bs_adv';
SELECT * FROM bench_undo_advice('regress_bs_adv');
SELECT spcoptions = '{random_page_cost=3,seq_page_cost=1.5}' AS exactly_as_before
FROM pg_tablespace WHERE spcname = 'regress_bs_adv';
SELECT * FROM expect_error($$SELECT * FROM bench_undo_advice('regress_bs_adv')$$);
RESET ROLE;
-- Only roles that could alter the tablespace make records apply and undo
-- trust (1.2): another role's advice under its own label is not applied,
-- and its forged undo does not make the owner's undo skip an apply.
SET ROLE regress_bs_adv_other;
SELECT bench_record('tablespace_advice', 'regress_bs_adv',
	'[{"setting": "random_page_cost", "suggested_value": "0.01", "statement": "ALTER ROLE regress_bs_adv_other SUPERUSER"}]',
	'regress forged') > 0 AS forged_advice;
RESET ROLE;
SET ROLE regress_bs_adv_owner;
SELECT * FROM expect_error($$SELECT * FROM bench_apply_advice('regress_bs_adv', 'regress forged')$$);
SELECT count(*) FROM bench_apply_advice('regress_bs_adv', 'regress flash');
RESET ROLE;
SET ROLE regress_bs_adv_other;
SELECT bench_record('advice_undone', 'regress_bs_adv',
	jsonb_build_object('applied_run_id',
		(SELECT max(run_id) FROM bench_history WHERE benchmark = 'advice_applied')::text)) > 0 AS forged_undo;
RESET ROLE;
SET ROLE regress_bs_adv_owner;
SELECT count(*) FROM bench_undo_advice('regress_bs_adv');
SELECT spcoptions = '{random_page_cost=3,seq_page_cost=1.5}' AS undone_despite_the_forged_record
FROM pg_tablespace WHERE spcname = 'regress_bs_adv';
RESET ROLE;
-- A role is known by its OID as well as its name (1.2): advice a role
-- recorded before it was dropped is not trusted once a new role takes its
-- name and the rights, which may neither forget its runs nor record
-- under its labels.
CREATE ROLE regress_bs_adv_reused;
SET ROLE regress_bs_adv_reused;
SELECT bench_record('tablespace_advice', 'regress_bs_adv',
	'[{"setting": "random_page_cost", "suggested_value": "0.02", "statement": ""}]',
	'regress reused') > 0 AS recorded_before_the_drop;
RESET ROLE;
DROP ROLE regress_bs_adv_reused;
CREATE ROLE regress_bs_adv_reused IN ROLE regress_bs_adv_owner;
SET ROLE regress_bs_adv_owner;
SELECT * FROM expect_error($$SELECT * FROM bench_apply_advice('regress_bs_adv', 'regress reused')$$);
RESET ROLE;
SET ROLE regress_bs_adv_reused;
SELECT runs FROM bench_forget('regress reused');
SELECT * FROM expect_error($$SELECT bench_record('outside', 'x', '{"a": 1}', 'regress reused')$$);
RESET ROLE;
DROP ROLE regress_bs_adv_reused;
SELECT count(*) AS kept FROM bench_run WHERE label = 'regress reused';
SET ROLE regress_bs_adv_owner;
-- the statement a hint gives is built from the validated value, never the
-- recorded text, even in the owner's own record
SELECT bench_record('tablespace_advice', 'regress_bs_adv',
	'[{"setting": "io_combine_limit", "suggested_value": "64kB", "statement": "ALTER ROLE regress_bs_adv_owner SUPERUSER"}]',
	'regress statement') > 0 AS recorded;
SELECT setting, applied FROM bench_apply_advice('regress_bs_adv', 'regress statement');
RESET ROLE;
-- an option changed by hand in between is set back too, with a notice
SELECT count(*) FROM bench_apply_advice('regress_bs_adv', 'regress flash');
ALTER TABLESPACE regress_bs_adv SET (effective_io_concurrency = 7);
SELECT * FROM bench_undo_advice('regress_bs_adv');
SELECT spcoptions FROM pg_tablespace WHERE spcname = 'regress_bs_adv';
-- advice with nothing to suggest applies nothing
SELECT * FROM bench_apply_advice('regress_bs_adv', 'regress partial');
SELECT spcoptions FROM pg_tablespace WHERE spcname = 'regress_bs_adv';
-- the applies and undos are in the history
SELECT benchmark, count(*) FROM bench_run
WHERE benchmark IN ('advice_applied', 'advice_undone') GROUP BY 1 ORDER BY 1;

--
-- Bad input
--
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_advice(NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_advice('regress_bs_adv', label => 'regress flash', record => NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_advice('no_such_tablespace')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_advice('pg_global')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_advice('regress_bs_adv', label => 'regress flash', cache_hit_share => 1.5)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_advice('regress_bs_adv', label => 'regress flash', cache_hit_share => 'NaN')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_tablespace_advice('regress_bs_adv', label => '999999999')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_apply_advice(NULL, 'regress flash')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_apply_advice('regress_bs_adv', NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_apply_advice('no_such_tablespace', 'regress flash')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_apply_advice('regress_bs_adv', 'no such label')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_apply_advice('pg_default', 'regress flash')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_undo_advice(NULL)$$);
SELECT * FROM expect_error($$SELECT * FROM bench_undo_advice('no_such_tablespace')$$);

DROP TABLESPACE regress_bs_adv;
SELECT sum((bench_forget(label)).runs) FROM (SELECT DISTINCT label FROM bench_run WHERE label LIKE 'regress %') l;
SELECT sum((bench_forget(run_id::text)).runs) FROM bench_run WHERE benchmark IN ('advice_applied', 'advice_undone');
DROP ROLE regress_bs_adv_owner;
DROP ROLE regress_bs_adv_other;
