/*-------------------------------------------------------------------------
 *
 * target.c
 *	  The relation a benchmark reads: lookup, locks, privileges, row-level
 *	  security, and the list of relations with storage behind it.
 *
 * Every function that reads a relation's blocks or files comes through
 * bs_open_target(), so the rules are the same everywhere:
 *
 *	- AccessShareLock only (an index's table is locked first, as queries
 *	  do), so a benchmark never blocks the application;
 *	- SELECT on the relation (on its table for an index);
 *	- refused where row-level security applies to the caller, since a
 *	  count would reveal rows the policies hide;
 *	- refused for other sessions' temporary tables, whose pages live in
 *	  that session's local buffers;
 *	- a partitioned table, or a table with inheritance children, stands
 *	  for itself and every descendant with storage, as SELECT count(*)
 *	  does (other sessions' temporary children are skipped, as there).
 *
 * bs_refuse_citus_shell() adds one rule for scans: a Citus distributed
 * table is an empty shell on this node (its rows are in shards on the
 * workers), so its scan rate would be a meaningless 0 MB.
 *
 * src/target.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/relation.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "citus.h"
#include "commands/defrem.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "target.h"
#include "utils/acl.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"

static void
check_heap_table(Relation rel)
{
	char		relkind = rel->rd_rel->relkind;

	if (!RELKIND_HAS_TABLE_AM(relkind))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("mode \"heap\" cannot scan relation \"%s\"",
						RelationGetRelationName(rel)),
				 errdetail_relkind_not_supported(relkind),
				 errhint("Modes \"buffer\" and \"raw\" read any relation with storage, indexes and sequences included.")));

	if (rel->rd_tableam != GetHeapamTableAmRoutine())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("mode \"heap\" cannot scan relation \"%s\"",
						RelationGetRelationName(rel)),
				 errdetail("Relation \"%s\" uses the table access method \"%s\"; only \"heap\" is supported.",
						   RelationGetRelationName(rel),
						   get_am_name(rel->rd_rel->relam)),
				 errhint("Modes \"buffer\" and \"raw\" read any relation with storage.")));

	if (relkind == RELKIND_MATVIEW && !RelationIsPopulated(rel))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("materialized view \"%s\" has not been populated",
						RelationGetRelationName(rel)),
				 errhint("Use the REFRESH MATERIALIZED VIEW command.")));
}

static void
add_storage_relation(BsTarget *target, Relation rel, bool heap_only)
{
	Oid			spc = rel->rd_rel->reltablespace;

	if (heap_only)
		check_heap_table(rel);

	if (!OidIsValid(spc))
		spc = MyDatabaseTableSpace;
	if (target->storage_relids == NIL)
		target->tablespace = spc;
	else if (target->tablespace != spc)
		target->tablespace = InvalidOid;	/* more than one */

	target->storage_relids = lappend_oid(target->storage_relids,
										 RelationGetRelid(rel));

	/*
	 * Its size now, under the lock held to the end of the call, which keeps
	 * PostgreSQL from truncating it (VACUUM's truncation and TRUNCATE need
	 * a stronger lock): a raw read that later finds fewer blocks met a file
	 * removed or cut short by something else, and fails (seqscan.c).
	 */
	target->open_nblocks = lappend_int(target->open_nblocks,
									   (int) RelationGetNumberOfBlocks(rel));
}

/*
 * Open and check the relation a benchmark reads.  heap_only asks for
 * relations the heap access method can scan tuple by tuple.
 */
BsTarget *
bs_open_target(Oid relid, bool heap_only)
{
	BsTarget   *target = palloc0(sizeof(BsTarget));
	Oid			privoid = relid;
	char		relkind = get_rel_relkind(relid);
	Relation	rel;
	AclResult	aclresult;

	/*
	 * Privileges first, so that a role without them cannot even queue a lock
	 * on the relation.  An index is checked, and locked first as queries
	 * do, through its table.
	 */
	if (relkind == RELKIND_INDEX || relkind == RELKIND_PARTITIONED_INDEX)
	{
		Oid			heapoid = IndexGetRelation(relid, true);

		if (OidIsValid(heapoid))
			privoid = heapoid;
	}
	aclresult = pg_class_aclcheck(privoid, GetUserId(), ACL_SELECT);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, get_relkind_objtype(get_rel_relkind(privoid)),
					   get_rel_name(privoid));
	if (privoid != relid)
		LockRelationOid(privoid, AccessShareLock);

	rel = try_relation_open(relid, AccessShareLock);
	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	target->rel = rel;
	relkind = rel->rd_rel->relkind;

	if (check_enable_rls(privoid, InvalidOid, false) == RLS_ENABLED)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("cannot benchmark relation \"%s\" because row-level security applies to the current user",
						RelationGetRelationName(rel)),
				 errdetail("A count of its rows or pages would reveal rows that the policies hide."),
				 errhint("Run the benchmark as the table owner or as a role with BYPASSRLS.")));

	if (RELATION_IS_OTHER_TEMP(rel))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot access temporary tables of other sessions")));

	if (!RELKIND_HAS_STORAGE(relkind) && relkind != RELKIND_PARTITIONED_TABLE)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("relation \"%s\" has no storage to benchmark",
						RelationGetRelationName(rel)),
				 errdetail_relkind_not_supported(relkind),
				 relkind == RELKIND_VIEW ?
				 errhint("Benchmark the tables the view reads.") :
				 relkind == RELKIND_PARTITIONED_INDEX ?
				 errhint("Benchmark the index of each partition.") :
				 relkind == RELKIND_FOREIGN_TABLE ?
				 errhint("Benchmark the table on its foreign server.") : 0));

	if (RELKIND_HAS_STORAGE(relkind))
		add_storage_relation(target, rel, heap_only);

	if (relkind == RELKIND_PARTITIONED_TABLE ||
		(relkind == RELKIND_RELATION && rel->rd_rel->relhassubclass))
	{
		List	   *children = find_all_inheritors(relid, AccessShareLock, NULL);
		ListCell   *lc;

		foreach(lc, children)
		{
			Oid			childoid = lfirst_oid(lc);
			Relation	child;
			char		childkind;

			if (childoid == relid)
				continue;
			child = try_relation_open(childoid, NoLock);
			if (child == NULL)
				continue;		/* dropped meanwhile */
			childkind = child->rd_rel->relkind;

			if (RELATION_IS_OTHER_TEMP(child) ||
				childkind == RELKIND_PARTITIONED_TABLE)
			{
				relation_close(child, NoLock);
				continue;
			}
			if (!RELKIND_HAS_STORAGE(childkind))
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("cannot benchmark relation \"%s\" because its child \"%s\" has no local storage",
								RelationGetRelationName(rel),
								RelationGetRelationName(child)),
						 errdetail_relkind_not_supported(childkind),
						 errhint("Benchmark the partitions with local storage one by one.")));
			add_storage_relation(target, child, heap_only);
			relation_close(child, NoLock);
		}
	}

	return target;
}

/* Close the target; its locks are kept to the end of the transaction. */
void
bs_close_target(BsTarget *target)
{
	relation_close(target->rel, NoLock);
	list_free(target->storage_relids);
	list_free(target->open_nblocks);
	pfree(target);
}

/*
 * Refuse to scan a Citus table where Citus is installed: the named
 * relation or any of its partitions being one (citus.c).
 */
void
bs_refuse_citus_shell(BsTarget *target)
{
	List	   *relids = lcons_oid(RelationGetRelid(target->rel),
								   list_copy(target->storage_relids));
	List	   *citus = bs_citus_tables(relids);

	if (citus != NIL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("relation \"%s\" is a Citus table",
						get_rel_name(linitial_oid(citus))),
				 errdetail("Its rows are in shards on the worker nodes; the table on this node is an empty shell."),
				 errhint("Use bench_cluster_seqscan('citus', '%s') of the benchstore_cluster extension, which scans each worker's shards.",
						 RelationGetRelationName(target->rel))));
	list_free(relids);
}
