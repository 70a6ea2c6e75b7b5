/*-------------------------------------------------------------------------
 *
 * run_tables.c
 *	  Tables a run makes for itself: bench_commit's sessions each insert
 *	  into a table of their own, made when the session starts and dropped
 *	  when it ends, however it ends.
 *
 * Nothing is dropped that the extension cannot prove it made.  A table is
 * never recognised by its name or its comment: any role that may create
 * in the schema can give a table of its own that name or that comment.
 * Instead:
 *
 * - The session picks a name that is free ("_bench_commit_<leader>_<n>",
 *	 else "..._<k>"), creates the table as the caller, and in the same
 *	 transaction records it in _bench_run_table, the extension's own table,
 *	 which only the extension's owner may write (the row is inserted as that
 *	 owner, a security-restricted operation): the table's OID, name and
 *	 schema, the role that made it, the run's leader.  A table exists with
 *	 its record or not at all, and only a table it created is ever recorded.
 *
 * - The maker holds a session-level lock on the record (an advisory lock
 *	 tag no SQL function can take) for as long as it lives.  A free lock
 *	 means its maker is gone, whatever its pid has become since, and
 *	 whatever a transaction's cached statistics say.
 *
 * - When the session ends (an exit callback: the run's end, an error, a
 *	 cancel, a termination), it drops its own table through its record.
 *	 A crash ends it without the callback: the next call of the same role
 *	 drops what its own earlier runs left, through the records of that role
 *	 whose lock is free.  Another role's records are never touched.
 *
 * - Before any drop, the relation must still be what was recorded (same
 *	 OID, name, schema and owner); otherwise only the record goes.
 *
 * src/run_tables.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_class.h"
#include "benchstore.h"
#include "miscadmin.h"
#include "run_tables.h"
#include "safe_spi.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

/* the fourth field of a run table's lock tag: no SQL advisory lock has it */
#define BS_RUN_TABLE_LOCK_FIELD4	0xB6

/* a name taken: try this many others */
#define BS_RUN_TABLE_NAME_TRIES		100

/* The extension's record of run tables, and its owner. */
typedef struct RecordTable
{
	const char *nsp;			/* the extension's schema, quoted */
	Oid			owner;
} RecordTable;

static void
record_table(RecordTable *rt)
{
	Oid			nsp = bs_extension_schema("benchstore");
	Oid			relid = get_relname_relid("_bench_run_table", nsp);
	HeapTuple	tup;

	if (!OidIsValid(relid))
		elog(ERROR, "benchstore's record of run tables \"_bench_run_table\" is missing");
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	rt->owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);
	rt->nsp = quote_identifier(get_namespace_name(nsp));
}

static void
run_table_locktag(LOCKTAG *tag, Oid relid)
{
	SET_LOCKTAG_ADVISORY(*tag, MyDatabaseId, relid, 0, BS_RUN_TABLE_LOCK_FIELD4);
}

/* Run one statement on the record, as its owner. */
static void
record_execute(const RecordTable *rt, const char *sql, int nargs, Oid *types,
			   Datum *values, int expected)
{
	BsSpi		spi;
	int			rc;

	bs_spi_connect_as(&spi, rt->owner);
	rc = bs_spi_execute_with_args(sql, nargs, types, values, NULL, false, 0);
	if (rc != expected)
		elog(ERROR, "could not update benchstore's record of run tables: %s",
			 SPI_result_code_string(rc));
	bs_spi_finish(&spi);
}

static void
record_delete(const RecordTable *rt, Oid relid)
{
	Oid			types[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(relid)};

	record_execute(rt,
				   psprintf("DELETE FROM %s._bench_run_table WHERE relid OPERATOR(pg_catalog.=) $1",
							rt->nsp),
				   1, types, values, SPI_OK_DELETE);
}

Oid
bs_run_table_create(const char *benchmark, const char *prefix, int n,
					Oid nspoid, const char *definition, int leader_pid)
{
	RecordTable rt;
	char	   *name = NULL;
	Oid			relid;
	BsSpi		spi;
	LOCKTAG		tag;
	Oid			types[6] = {OIDOID, NAMEOID, OIDOID, OIDOID, INT4OID, TEXTOID};
	Datum		values[6];

	record_table(&rt);
	for (int k = 0; k <= BS_RUN_TABLE_NAME_TRIES; k++)
	{
		name = k == 0 ? psprintf("%s_%d", prefix, n) : psprintf("%s_%d_%d", prefix, n, k);
		if (!OidIsValid(get_relname_relid(name, nspoid)))
			break;
		if (k == BS_RUN_TABLE_NAME_TRIES)
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 errmsg("no free name for a run table in schema \"%s\"",
							get_namespace_name(nspoid)),
					 errdetail("\"%s_%d\" and %d names after it are taken.",
							   prefix, n, BS_RUN_TABLE_NAME_TRIES)));
	}

	/* created as the caller, in the caller's schema */
	bs_spi_connect(&spi);
	if (bs_spi_execute(psprintf("CREATE TABLE %s.%s %s",
								quote_identifier(get_namespace_name(nspoid)),
								quote_identifier(name), definition),
					   false, 0) != SPI_OK_UTILITY)
		elog(ERROR, "could not create run table \"%s\"", name);
	bs_spi_finish(&spi);
	CommandCounterIncrement();
	relid = get_relname_relid(name, nspoid);
	if (!OidIsValid(relid))
		elog(ERROR, "run table \"%s\" was not created", name);

	/* recorded in the same transaction, as the record's owner */
	values[0] = ObjectIdGetDatum(relid);
	values[1] = DirectFunctionCall1(namein, CStringGetDatum(name));
	values[2] = ObjectIdGetDatum(nspoid);
	values[3] = ObjectIdGetDatum(GetUserId());
	values[4] = Int32GetDatum(leader_pid);
	values[5] = CStringGetTextDatum(benchmark);
	record_execute(&rt,
				   psprintf("INSERT INTO %s._bench_run_table"
							" (relid, relname, relnamespace, made_by, leader_pid, benchmark)"
							" VALUES ($1, $2, $3, $4, $5, $6)", rt.nsp),
				   6, types, values, SPI_OK_INSERT);

	/* held while this process lives */
	run_table_locktag(&tag, relid);
	(void) LockAcquire(&tag, ExclusiveLock, true, false);
	return relid;
}

/*
 * Drop relid if it is still what its record says (same name, schema and
 * owner, the owner being the current user), then the record.
 */
static bool
drop_recorded(const RecordTable *rt, Oid relid, const char *relname,
			  Oid relnamespace, Oid made_by)
{
	HeapTuple	tup;
	bool		same = false;

	if (made_by != GetUserId())
		return false;
	LockRelationOid(relid, AccessExclusiveLock);
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (HeapTupleIsValid(tup))
	{
		Form_pg_class form = (Form_pg_class) GETSTRUCT(tup);

		same = form->relowner == made_by && form->relnamespace == relnamespace &&
			strcmp(NameStr(form->relname), relname) == 0 &&
			form->relkind == RELKIND_RELATION;
		ReleaseSysCache(tup);
	}
	if (same)
	{
		ObjectAddress addr;

		ObjectAddressSet(addr, RelationRelationId, relid);
		performDeletion(&addr, DROP_RESTRICT, 0);
	}
	else
		UnlockRelationOid(relid, AccessExclusiveLock);
	record_delete(rt, relid);
	return same;
}

/* One record, read as the record's owner. */
typedef struct RunTableRecord
{
	Oid			relid;
	char	   *relname;
	Oid			relnamespace;
	Oid			made_by;
} RunTableRecord;

static List *
read_records(const RecordTable *rt, const char *where, int nargs, Oid *types,
			 Datum *values)
{
	BsSpi		spi;
	List	   *records = NIL;
	MemoryContext outer = CurrentMemoryContext;

	bs_spi_connect_as(&spi, rt->owner);
	if (bs_spi_execute_with_args(psprintf("SELECT relid, relname, relnamespace, made_by"
										  " FROM %s._bench_run_table WHERE %s ORDER BY relid",
										  rt->nsp, where),
								 nargs, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read benchstore's record of run tables");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	t = SPI_tuptable->vals[i];
		TupleDesc	d = SPI_tuptable->tupdesc;
		bool		isnull;
		MemoryContext spicxt = MemoryContextSwitchTo(outer);
		RunTableRecord *r = palloc(sizeof(RunTableRecord));

		r->relid = DatumGetObjectId(SPI_getbinval(t, d, 1, &isnull));
		r->relname = pstrdup(NameStr(*DatumGetName(SPI_getbinval(t, d, 2, &isnull))));
		r->relnamespace = DatumGetObjectId(SPI_getbinval(t, d, 3, &isnull));
		r->made_by = DatumGetObjectId(SPI_getbinval(t, d, 4, &isnull));
		records = lappend(records, r);
		MemoryContextSwitchTo(spicxt);
	}
	bs_spi_finish(&spi);
	return records;
}

void
bs_run_table_drop_own(Oid relid)
{
	RecordTable rt;
	List	   *records;
	Oid			types[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(relid)};
	LOCKTAG		tag;

	record_table(&rt);
	records = read_records(&rt, "relid OPERATOR(pg_catalog.=) $1", 1, types, values);
	if (records != NIL)
	{
		RunTableRecord *r = linitial(records);

		(void) drop_recorded(&rt, r->relid, r->relname, r->relnamespace, r->made_by);
	}
	run_table_locktag(&tag, relid);
	(void) LockRelease(&tag, ExclusiveLock, true);
}

int
bs_run_tables_drop_leftovers(const char *benchmark)
{
	RecordTable rt;
	List	   *records;
	ListCell   *lc;
	Oid			types[2] = {OIDOID, TEXTOID};
	Datum		values[2];
	int			dropped = 0;

	record_table(&rt);
	values[0] = ObjectIdGetDatum(GetUserId());
	values[1] = CStringGetTextDatum(benchmark);
	records = read_records(&rt,
						   "made_by OPERATOR(pg_catalog.=) $1 AND benchmark OPERATOR(pg_catalog.=) $2",
						   2, types, values);
	foreach(lc, records)
	{
		RunTableRecord *r = lfirst(lc);
		LOCKTAG		tag;

		/* its maker still lives (this call's own sessions have not started) */
		run_table_locktag(&tag, r->relid);
		if (LockAcquire(&tag, ExclusiveLock, false, true) == LOCKACQUIRE_NOT_AVAIL)
			continue;
		if (drop_recorded(&rt, r->relid, r->relname, r->relnamespace, r->made_by))
			dropped++;
	}
	return dropped;
}
