/*-------------------------------------------------------------------------
 *
 * citus.c
 *	  What the core extension knows of Citus, where Citus is installed:
 *	  which relations are Citus tables (their rows are in shards on the
 *	  worker nodes, the coordinator's table is an empty shell), the size of
 *	  one copy of a Citus table's shards, and evicting those shards from
 *	  the OS page cache on the nodes that hold them.
 *
 * Citus is never linked against: its catalog pg_dist_partition is read
 * where it exists, and its SQL functions (run_command_on_placements) are
 * called through SPI.  bench_seqscan refuses a Citus table (the cluster
 * extension scans shards on each worker); bench_query runs a distributed
 * query as it is, and sizes and evicts the shards it reads.
 *
 * src/citus.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "benchstore.h"
#include "safe_spi.h"
#include "citus.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

/*
 * Citus's catalog of its tables, and the column holding the relation:
 * InvalidOid where Citus is not installed (or its catalog is not as
 * expected).
 */
static Oid
citus_catalog(AttrNumber *attnum)
{
	Oid			catalog_oid = get_relname_relid("pg_dist_partition",
												PG_CATALOG_NAMESPACE);
	Oid			atttype;

	if (!OidIsValid(catalog_oid))
		return InvalidOid;
	*attnum = get_attnum(catalog_oid, "logicalrelid");
	if (*attnum == InvalidAttrNumber)
		return InvalidOid;
	atttype = get_atttype(catalog_oid, *attnum);
	if (atttype != REGCLASSOID && atttype != OIDOID)
		return InvalidOid;
	return catalog_oid;
}

/*
 * The relations of relids that Citus's catalog lists: distributed,
 * reference and Citus local tables.  Read without a privilege check: the
 * answer only decides how they are measured.
 */
List *
bs_citus_tables(List *relids)
{
	AttrNumber	attnum;
	Oid			catalog_oid = citus_catalog(&attnum);
	Relation	catalog;
	List	   *result = NIL;
	ListCell   *lc;

	if (!OidIsValid(catalog_oid))
		return NIL;				/* no Citus here */
	catalog = table_open(catalog_oid, AccessShareLock);
	foreach(lc, relids)
	{
		ScanKeyData key;
		SysScanDesc scan;

		ScanKeyInit(&key, attnum, BTEqualStrategyNumber, F_OIDEQ,
					ObjectIdGetDatum(lfirst_oid(lc)));
		scan = systable_beginscan(catalog, InvalidOid, false, NULL, 1, &key);
		if (HeapTupleIsValid(systable_getnext(scan)))
			result = lappend_oid(result, lfirst_oid(lc));
		systable_endscan(scan);
	}
	table_close(catalog, AccessShareLock);
	return result;
}

/*
 * The query names pg_catalog's objects and joins the node's name and port
 * here, not with an operator a role could out-match from the caller's
 * search_path; the commands on the nodes give exact types.
 *
 * Run command through Citus's run_command_on_placements and sum its
 * results.  Citus expands the command with SQL's format(command,
 * shard_name), so the shard is written %L there: quoted as a literal on the
 * node.  shard_name quotes only as an identifier, and a ' in a schema or
 * table name would end a '%s' literal and run the rest of the name as SQL
 * on every node (CVE-style injection through a table name).  Sum: over every placement, or over one placement
 * of each shard (the first by node name and port).  A placement that
 * failed raises an error naming its node, with the node's message as the
 * detail.
 */
static int64
placements_sum(Oid relid, const char *command, bool one_per_shard,
			   const char *what)
{
	StringInfoData sql;
	int64		sum = 0;
	int64		last_shard = -1;
	int			rc;
	BsSpi		spi;

	initStringInfo(&sql);
	appendStringInfo(&sql,
					 "SELECT p.shardid, p.nodename, p.nodeport, p.success, p.result "
					 "FROM pg_catalog.run_command_on_placements(%s::pg_catalog.regclass, %s) p "
					 "ORDER BY p.shardid, p.nodename, p.nodeport",
					 quote_literal_cstr(psprintf("%u", relid)),
					 quote_literal_cstr(command));

	bs_spi_connect(&spi);
	rc = bs_spi_execute(sql.data, false, 0);
	if (rc != SPI_OK_SELECT)
		elog(ERROR, "run_command_on_placements failed: %s", SPI_result_code_string(rc));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		int64		shard = pg_strtoint64(SPI_getvalue(tup, desc, 1));
		char	   *nodename = SPI_getvalue(tup, desc, 2);
		char	   *nodeport = SPI_getvalue(tup, desc, 3);
		char	   *success = SPI_getvalue(tup, desc, 4);
		char	   *result = SPI_getvalue(tup, desc, 5);
		char	   *node = psprintf("%s:%s", nodename ? nodename : "?",
									nodeport ? nodeport : "?");

		if (one_per_shard && shard == last_shard)
			continue;
		last_shard = shard;
		if (success == NULL || strcmp(success, "t") != 0 || result == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
					 errmsg("could not %s of Citus table \"%s\" on node \"%s\"",
							what, get_rel_name(relid), node),
					 errdetail("%s", result ? result : "no message")));
		sum += pg_strtoint64(result);
	}
	bs_spi_finish(&spi);
	pfree(sql.data);
	return sum;
}

/*
 * The main forks of one placement of each shard of a Citus table, summed
 * (a reference table's copy on every node, or replicated shards, counted
 * once), in bytes: what a scan of the distributed table reads.
 */
uint64
bs_citus_one_copy_bytes(Oid relid)
{
	return (uint64) placements_sum(relid,
								   "SELECT pg_catalog.pg_relation_size(%L)",
								   true, "size the shards");
}

/*
 * Checkpoint and evict the shards of a Citus table from the OS page cache
 * on every node that holds a placement (each node's own bench_cache_evict,
 * which needs benchstore there and the pg_checkpoint right).
 */
void
bs_citus_evict_shards(Oid relid)
{
	/*
	 * benchstore's schema on the nodes is the coordinator's (Citus
	 * propagates CREATE EXTENSION to them in the same schema); named, not
	 * looked up on the node's search_path.
	 */
	const char *nsp = quote_identifier(get_namespace_name(bs_extension_schema("benchstore")));
	char	   *command = psprintf("SELECT pg_catalog.count(*) FROM %s.bench_cache_evict(%%L::pg_catalog.regclass)",
								   nsp);

	(void) placements_sum(relid, command, false, "evict the shards");
}
