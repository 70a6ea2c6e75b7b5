--
-- bench_seqscan privileges: SELECT on the relation, no row-level security
-- in the way, the checkpoint right for cold runs.
--
CREATE ROLE regress_bs_reader;
CREATE ROLE regress_bs_bypass BYPASSRLS;
CREATE TABLE bs_priv (id integer PRIMARY KEY, owner_name text);
INSERT INTO bs_priv SELECT g, CASE WHEN g % 2 = 0 THEN 'regress_bs_reader' ELSE 'other' END
FROM generate_series(1, 1000) g;
CHECKPOINT;						-- so that raw mode finds every row in the files

-- Without SELECT: refused, also for the table's index.
SET ROLE regress_bs_reader;
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_priv')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_priv_pkey', 'buffer')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_cache_status('bs_priv')$$);
RESET ROLE;

-- With SELECT: warm runs work in every mode, the index too.
GRANT SELECT ON bs_priv TO regress_bs_reader;
SET ROLE regress_bs_reader;
SELECT mode, pages > 0 AS has_pages, tuples
FROM unnest(ARRAY['heap', 'buffer', 'raw']) m, bench_seqscan('bs_priv', m)
ORDER BY 1;
SELECT mode, pages > 0 AS has_pages FROM bench_seqscan('bs_priv_pkey', 'buffer');
RESET ROLE;
CREATE TABLE bs_priv_part (k integer) PARTITION BY LIST (k);
CREATE INDEX bs_priv_part_idx ON bs_priv_part (k);
GRANT SELECT ON bs_priv_part TO regress_bs_reader;
SET ROLE regress_bs_reader;
-- A partitioned index is checked through its table: the error is about
-- storage, not privileges.
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_seqscan('bs_priv_part_idx', 'raw')$$);
SELECT files FROM bench_cache_status('bs_priv');

-- Cold runs and eviction need the right to checkpoint.
-- Whether the OS can evict the files depends on the filesystem (not on
-- tmpfs) and on writeback: its WARNING is machine-dependent, so it is not
-- shown here; the TAP tests check eviction for real.
SET client_min_messages = error;
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_priv', cache => 'cold')$$);
SELECT * FROM expect_error($$SELECT * FROM bench_cache_evict('bs_priv')$$);
RESET ROLE;
GRANT pg_checkpoint TO regress_bs_reader;
SET ROLE regress_bs_reader;
SELECT mode, cache, tuples FROM bench_seqscan('bs_priv', cache => 'cold');
-- The eviction ran on the relation's file (that it empties the page cache
-- is for the TAP tests to show: 001_cold_cache.pl, which the test run
-- does not let skip).
SELECT files, mb * 1048576 = pg_relation_size('bs_priv') AS measured_the_relation
FROM bench_cache_evict('bs_priv');
RESET ROLE;
RESET client_min_messages;
REVOKE pg_checkpoint FROM regress_bs_reader;

-- Row-level security: a count would reveal hidden rows, so it is refused
-- to roles the policy applies to, in every mode.
ALTER TABLE bs_priv ENABLE ROW LEVEL SECURITY;
CREATE POLICY bs_priv_own ON bs_priv FOR SELECT USING (owner_name = current_user);
SET ROLE regress_bs_reader;
SELECT count(*) AS rows_visible_to_reader FROM bs_priv;
SELECT m, e.*
FROM unnest(ARRAY['heap', 'buffer', 'raw']) m,
	 LATERAL expect_error(format('SELECT * FROM bench_seqscan(%L, %L)', 'bs_priv', m)) e;
SELECT * FROM expect_error($$SELECT * FROM bench_seqscan('bs_priv_pkey', 'raw')$$);
RESET ROLE;
-- The owner is not subject to its own (unforced) policy; nor is BYPASSRLS.
SELECT tuples FROM bench_seqscan('bs_priv');
GRANT SELECT ON bs_priv TO regress_bs_bypass;
SET ROLE regress_bs_bypass;
SELECT tuples FROM bench_seqscan('bs_priv');
RESET ROLE;
-- With FORCE, the owner too.
CREATE ROLE regress_bs_owner;
ALTER TABLE bs_priv OWNER TO regress_bs_owner;
ALTER TABLE bs_priv FORCE ROW LEVEL SECURITY;
SET ROLE regress_bs_owner;
SELECT err_code, message FROM expect_error($$SELECT * FROM bench_seqscan('bs_priv')$$);
RESET ROLE;

DROP TABLE bs_priv, bs_priv_part;
DROP ROLE regress_bs_reader;
DROP ROLE regress_bs_bypass;
DROP ROLE regress_bs_owner;
