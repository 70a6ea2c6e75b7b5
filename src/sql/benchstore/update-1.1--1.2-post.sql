-- src/sql/benchstore/update-1.1--1.2-post.sql: the 1.1--1.2 update only,
-- after every topic file and grants.sql: the DBA's grants carried over to
-- the functions the update re-created.

--
-- The DBA's grants and revokes on the functions replaced above, carried
-- over (see the top of this part), and pg_init_privs set back to what
-- this script gave the new functions.
--
DO $carry$
DECLARE
	saved jsonb := pg_catalog.current_setting('bs_update.replaced_acls')::jsonb;
	f record;
	g record;
	script_init aclitem[];
	old_acl aclitem[];
	old_init aclitem[];
BEGIN
	FOR f IN
		SELECT p.oid, p.proname, p.oid::pg_catalog.regprocedure::text AS sig
		  FROM pg_catalog.pg_proc p
		  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
		   AND d.objid = p.oid AND d.deptype = 'e'
		  JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'benchstore'
		 WHERE saved OPERATOR(pg_catalog.?) p.proname::pg_catalog.text
	LOOP
		old_acl := ARRAY(SELECT pg_catalog.jsonb_array_elements_text(saved OPERATOR(pg_catalog.->) f.proname::pg_catalog.text OPERATOR(pg_catalog.->) 'acl'::pg_catalog.text))::aclitem[];
		old_init := ARRAY(SELECT pg_catalog.jsonb_array_elements_text(saved OPERATOR(pg_catalog.->) f.proname::pg_catalog.text OPERATOR(pg_catalog.->) 'init'::pg_catalog.text))::aclitem[];
		SELECT i.initprivs INTO script_init FROM pg_catalog.pg_init_privs i
		 WHERE i.objoid = f.oid AND i.classoid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND i.objsubid = 0;
		FOR g IN
			SELECT 'GRANT' AS verb, x.grantee, x.privilege_type, x.is_grantable
			  FROM (SELECT a.grantee, a.privilege_type, a.is_grantable FROM pg_catalog.aclexplode(old_acl) a
					EXCEPT
					SELECT a.grantee, a.privilege_type, a.is_grantable FROM pg_catalog.aclexplode(old_init) a) x
			UNION ALL
			SELECT 'REVOKE', x.grantee, x.privilege_type, false
			  FROM (SELECT a.grantee, a.privilege_type FROM pg_catalog.aclexplode(old_init) a
					EXCEPT
					SELECT a.grantee, a.privilege_type FROM pg_catalog.aclexplode(old_acl) a) x
		LOOP
			EXECUTE pg_catalog.format('%s %s ON FUNCTION %s %s %s%s', g.verb, g.privilege_type, f.sig,
				CASE g.verb WHEN 'GRANT' THEN 'TO' ELSE 'FROM' END,
				CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
					 ELSE pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(g.grantee)) END,
				CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
		END LOOP;
		IF script_init IS NULL THEN
			DELETE FROM pg_catalog.pg_init_privs i
			 WHERE i.objoid = f.oid AND i.classoid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND i.objsubid = 0;
		ELSE
			UPDATE pg_catalog.pg_init_privs i SET initprivs = script_init
			 WHERE i.objoid = f.oid AND i.classoid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND i.objsubid = 0;
		END IF;
	END LOOP;
END;
$carry$;
