-- src/sql/benchstore/update-1.1--1.2-pre.sql: the 1.1--1.2 update only,
-- before the topic files: the statements that bring 1.1's objects to the
-- shape the topic files expect (a column added, its backfill, the functions
-- whose signature or result changes dropped, one renamed), and the snapshot
-- of the DBA's grants on them.

--
-- A run's recorder, by OID as well as by name (1.2).  1.1 knew the role
-- that recorded a run by its name only: a role dropped and a new one
-- created under the same name inherited its runs (its labels, the right
-- to forget them, and the trust bench_apply_advice puts in advice).  From
-- 1.2 a run is a role's when both its recorded_by_oid and its recorded_by
-- are that role's.  Runs recorded before 1.2 are given the OID their name
-- has when the extension is updated.  A run restored into another cluster
-- (pg_dump) keeps the OID of the cluster it was recorded in, which names
-- another role there or none: it belongs to nobody there, and only a
-- superuser can forget it.
--
ALTER TABLE bench_run ADD COLUMN recorded_by_oid oid;	-- the role that ran it, by OID

UPDATE bench_run r SET recorded_by_oid = g.oid
  FROM pg_catalog.pg_roles g WHERE g.rolname OPERATOR(pg_catalog.=) r.recorded_by;

--
-- Functions whose arguments or result columns change in 1.2 are dropped
-- and created again: CREATE OR REPLACE can change neither.  A DBA's grants
-- and revokes on them are carried over.  Before the drops, each one's ACL
-- and its initial privileges (pg_init_privs: what the extension's scripts
-- set) are kept in a setting local to this transaction; after the new
-- functions exist, what the DBA changed is granted or revoked again, and
-- pg_init_privs is set back to what this script gave, so that pg_dump
-- still dumps the DBA's changes as the DBA's (a GRANT run by an extension
-- script is otherwise taken as the extension's own).
--
SELECT pg_catalog.set_config('bs_update.replaced_acls',
	coalesce(pg_catalog.jsonb_object_agg(p.proname,
		pg_catalog.jsonb_build_object(
			'acl', coalesce(p.proacl, pg_catalog.acldefault('f', p.proowner))::text[],
			'init', coalesce(i.initprivs, pg_catalog.acldefault('f', p.proowner))::text[])),
		'{}')::text, true)
FROM pg_catalog.pg_proc p
LEFT JOIN pg_catalog.pg_init_privs i
  ON i.objoid = p.oid AND i.classoid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND i.objsubid = 0
WHERE p.oid OPERATOR(pg_catalog.=) ANY (ARRAY['@extschema@.bench_seqscan(regclass, text, text, integer, text, boolean, integer, integer)'::pg_catalog.regprocedure,
				'@extschema@.bench_query(text, text, integer, text, boolean, boolean)'::pg_catalog.regprocedure,
				'@extschema@.bench_cache_evict(regclass)'::pg_catalog.regprocedure,
				'@extschema@.bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer)'::pg_catalog.regprocedure,
				'@extschema@.bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer)'::pg_catalog.regprocedure,
				'@extschema@.bench_compare(text, text, text[])'::pg_catalog.regprocedure,
				'@extschema@.bench_tablespace_advice(name, text, interval, text, boolean, float8)'::pg_catalog.regprocedure]::pg_catalog.oid[]);

DROP FUNCTION bench_seqscan(regclass, text, text, integer, text, boolean, integer, integer);

DROP FUNCTION bench_query(text, text, integer, text, boolean, boolean);

DROP FUNCTION bench_cache_evict(regclass);

DROP FUNCTION bench_tablespace_io(name, text, text, text[], integer, boolean, interval, text, boolean, integer);

DROP FUNCTION bench_tablespaces_io(name[], text, text, text[], integer, boolean, interval, text, boolean, integer);

DROP FUNCTION bench_compare(text, text, text[]);

--
-- 1.1's bench_tablespace_advice, which measures once, is kept under an
-- internal name, its grants with it (advice.sql).
--
ALTER FUNCTION bench_tablespace_advice(name, text, interval, text, boolean, float8)
	RENAME TO _bench_tablespace_advice_once;
