/*-------------------------------------------------------------------------
 *
 * benchstore.c
 *	  Module entry point and the helpers every benchstore capability uses:
 *	  argument checks with PostgreSQL-style errors, units and rounding,
 *	  and tablespace names.
 *
 * src/benchstore.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/parallel.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "benchstore.h"
#include "session_limits.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_tablespace_d.h"
#include "commands/tablespace.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "storage/condition_variable.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/wait_event.h"

PG_MODULE_MAGIC;

/* The cache argument's values, as bench_seqscan and bench_query take them. */
const char *const bs_cache_states[2] = {"warm", "cold"};

/* GUC benchstore.track_latency: time each I/O operation of the I/O tests. */
bool		bs_track_latency = true;

/* GUC benchstore.record_query_text: how bench_query's text is recorded. */
int			bs_record_query_text = BS_QUERY_TEXT_NORMALIZED;

/* GUC benchstore.progress_interval: a NOTICE this often in a long run (progress.c). */
int			bs_progress_interval_ms = 5000;

static const struct config_enum_entry record_query_text_options[] = {
	{"normalized", BS_QUERY_TEXT_NORMALIZED, false},
	{"exact", BS_QUERY_TEXT_EXACT, false},
	{NULL, 0, false}
};

void		_PG_init(void);

void
_PG_init(void)
{
	DefineCustomBoolVariable("benchstore.track_latency",
							 "Times each operation of the tablespace I/O tests for the latency columns.",
							 "Off leaves the latency columns NULL; the sequential tests then read the clock only at their start and end, the timed tests (randread, randwrite, sync) once per operation for their duration.",
							 &bs_track_latency,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("benchstore.progress_interval",
							"Interval between progress messages of a long benchmark run.",
							"Zero turns the messages off.",
							&bs_progress_interval_ms,
							5000,
							0, PG_INT32_MAX,
							PGC_USERSET,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomEnumVariable("benchstore.record_query_text",
							 "How bench_query records its query's text in the history.",
							 "normalized replaces every constant with $1, $2, ... (the history is readable by every role); exact keeps the text as given.",
							 &bs_record_query_text,
							 BS_QUERY_TEXT_NORMALIZED,
							 record_query_text_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("benchstore.max_user_sessions",
							"Background sessions a role that is not a superuser may run at once (bench_commit's sessions, bench_tpcb's clients).",
							"Counted over all the role's runs; each holds a background worker slot that parallel queries and replication also need.  Superusers are not limited.",
							&bs_max_user_sessions,
							BS_MAX_USER_SESSIONS_DEFAULT,
							0, BS_SESSIONS_MAX,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("benchstore.max_user_run_time",
							"Longest ramp and duration of a run of background sessions by a role that is not a superuser.",
							"Superusers may run for up to two hours (one of ramp, one of duration).",
							&bs_max_user_run_time_s,
							BS_MAX_USER_RUN_TIME_DEFAULT_S,
							1, 2 * 3600,
							PGC_SUSET,
							GUC_UNIT_S,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("benchstore");
}

/*
 * Which released definition, 1.0's or 1.1's, called a legacy entry point
 * that both bind, from its number of arguments (1.1 added some to each such
 * function; where it added none, both are served alike and nargs_1_1 equals
 * nargs_1_0, taken as 1.1).  Any other count is a definition this library
 * does not know.
 */
BsSqlVersion
bs_legacy_sql_version(FunctionCallInfo fcinfo, int nargs_1_0, int nargs_1_1)
{
	if (PG_NARGS() == nargs_1_1)
		return BS_SQL_1_1;
	if (PG_NARGS() == nargs_1_0)
		return BS_SQL_1_0;
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg_plural("the SQL definition of this function has %d argument, which no version of benchstore has",
						   "the SQL definition of this function has %d arguments, which no version of benchstore has",
						   PG_NARGS(), PG_NARGS()),
			 errhint("Update the extension with ALTER EXTENSION benchstore UPDATE, or recreate it.")));
	pg_unreachable();
}

/*
 * Raise an error when argument argno of the current call is NULL.
 *
 * The SQL functions are not STRICT, so that a NULL argument is an error
 * that says which argument was wrong rather than an empty result.
 */
void
bs_require_arg(FunctionCallInfo fcinfo, int argno, const char *argname)
{
	/* an SQL definition older than this library would pass fewer */
	if (argno >= PG_NARGS())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the SQL definition of this function has no argument \"%s\"",
						argname),
				 errhint("Update the extension with ALTER EXTENSION benchstore UPDATE, or recreate it.")));
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s cannot be null", argname)));
}

/*
 * Match a text argument, case-insensitively, against a list of choices and
 * return its index.  An unknown value gets an error whose hint lists the
 * valid ones.
 */
int
bs_parse_choice(text *value, const char *argname,
				const char *const *choices, int nchoices)
{
	char	   *str = text_to_cstring(value);
	StringInfoData valid;

	for (int i = 0; i < nchoices; i++)
	{
		if (pg_strcasecmp(str, choices[i]) == 0)
		{
			pfree(str);
			return i;
		}
	}

	initStringInfo(&valid);
	for (int i = 0; i < nchoices; i++)
	{
		if (i > 0)
			appendStringInfoString(&valid, i == nchoices - 1 ?
								   (nchoices > 2 ? ", and " : " and ") : ", ");
		appendStringInfo(&valid, "\"%s\"", choices[i]);
	}

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid %s \"%s\"", argname, str),
			 errhint("Valid values are %s.", valid.data)));
	return -1;					/* keep compiler quiet */
}

/* Round to a number of decimal digits, for readable output. */
double
bs_round(double value, int digits)
{
	double		scale = pow(10.0, digits);

	return rint(value * scale) / scale;
}

/*
 * A rate per second from an amount and a duration in milliseconds.  A run
 * too short for the clock to see gives the amount over one microsecond
 * rather than a division by zero.
 */
double
bs_per_second(double amount, double elapsed_ms)
{
	if (elapsed_ms < 0.001)
		elapsed_ms = 0.001;
	return amount * 1000.0 / elapsed_ms;
}

/*
 * Name of a tablespace; InvalidOid (a relation's reltablespace of 0) means
 * the database's default tablespace.
 */
char *
bs_tablespace_name(Oid spcoid)
{
	char	   *name;

	if (!OidIsValid(spcoid))
		spcoid = MyDatabaseTableSpace;
	name = get_tablespace_name(spcoid);
	return name ? name : psprintf("%u", spcoid);
}

/*
 * The directory of a tablespace's files, relative to the data directory
 * (the backend's working directory): base, or the tablespace's link in
 * pg_tblspc, which a stat() or open() follows.  InvalidOid means the
 * database's default tablespace.
 */
char *
bs_tablespace_dir(Oid spcoid)
{
	if (!OidIsValid(spcoid))
		spcoid = MyDatabaseTableSpace;
	if (spcoid == DEFAULTTABLESPACE_OID)
		return pstrdup("base");
	return psprintf("pg_tblspc/%u", spcoid);
}

/*
 * The schema an extension was created in (its objects are named in it,
 * never looked up on a search_path); ERROR if it is not installed.
 * get_extension_schema() is exported from PostgreSQL 16 on only.
 */
Oid
bs_extension_schema(const char *extname)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	Oid			nsp = InvalidOid;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum(extname));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
		nsp = ((Form_pg_extension) GETSTRUCT(tup))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	if (!OidIsValid(nsp))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("extension \"%s\" does not exist", extname)));
	return nsp;
}

/*
 * Untimed, before a parallel run: wait until every
 * launched worker has said it is ready (counted in *ready, signalled on
 * cv).  A worker that fails raises its error here; one that exits without
 * a word (it cannot, short of a crash) is reported rather than waited
 * for.  what names the run in that message ("scan", "reads").
 */
void
bs_wait_parallel_workers_ready(ParallelContext *pcxt, pg_atomic_uint32 *ready,
							   ConditionVariable *cv, const char *what)
{
	if (pcxt->nworkers_launched == 0)
		return;
	WaitForParallelWorkersToAttach(pcxt);
	ConditionVariablePrepareToSleep(cv);
	while (pg_atomic_read_u32(ready) < (uint32) pcxt->nworkers_launched)
	{
		if (!ConditionVariableTimedSleep(cv, 1000, PG_WAIT_EXTENSION))
			continue;
		/* a second without news: has a worker gone? */
		CHECK_FOR_INTERRUPTS();
		for (int w = 0; w < pcxt->nworkers_launched; w++)
		{
			pid_t		pid;

			if (pcxt->worker[w].bgwhandle != NULL &&
				GetBackgroundWorkerPid(pcxt->worker[w].bgwhandle, &pid) == BGWH_STOPPED &&
				pg_atomic_read_u32(ready) < (uint32) pcxt->nworkers_launched)
				ereport(ERROR,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("parallel worker exited before the %s started", what),
						 errhint("More details may be available in the server log.")));
		}
	}
	ConditionVariableCancelSleep();
}
