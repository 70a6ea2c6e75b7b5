/*-------------------------------------------------------------------------
 *
 * query.c
 *	  bench_query: time any SELECT, warm or cold, repeatedly, with the
 *	  buffer and OS counters of bench_seqscan and the relations it reads.
 *
 * The query is parsed, checked (one SELECT or WITH ... SELECT, nothing
 * that writes unless allow_writes), planned as a top-level query would be
 * (parallel plans allowed), and run by the executor with the caller's
 * privileges into a receiver that counts the rows and discards them.  Each
 * run happens inside a subtransaction that is always rolled back: read-only
 * by default (transaction_read_only is set in it, so a function that writes
 * fails), or with allow_writes, free to write, its writes undone.
 *
 * A cold run first requests a checkpoint and evicts every relation the plan
 * reads (the tables in its range table with storage, and the indexes its
 * scans use) from the OS page cache, as bench_seqscan does.  Timing covers
 * ExecutorStart to ExecutorEnd: execution, as EXPLAIN ANALYZE's "Execution
 * Time"; parsing, planning and the eviction are not timed.
 *
 * The time series (1.2): the executor gives no control back while a query
 * runs, so a timer (timeout.c, every sample_interval) takes the samples:
 * its handler, in signal context, only copies the caller's buffer counters
 * and the clock into memory kept for it.  The series is made from those
 * snapshots after the run.  The counters of parallel workers and of Citus
 * nodes reach the caller only at the end, so such a run has no series.
 *
 * src/query.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "access/relation.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "bench_driver.h"
#include "benchstore.h"
#include "cache.h"
#include "history.h"
#include "series.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "citus.h"
#include "compat.h"
#include "executor/executor.h"
#include "executor/instrument.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "nodes/execnodes.h"
#include "nodes/plannodes.h"
#include "parser/scanner.h"
#include "parser/parsetree.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "mb/pg_wchar.h"
#include "tcop/tcopprot.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/timeout.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

PG_FUNCTION_INFO_V1(bench_query);
PG_FUNCTION_INFO_V1(bench_query_1_2);

/* How much of the query text names it in the history's target column. */
#define BS_TARGET_CHARS		200
#define BS_REFUSE_WRITES_MSG	"bench_query cannot run a query that writes"


/* Result columns, in the order of the OUT parameters. */
enum
{
	COL_RUN,
	COL_CACHE,
	COL_ELAPSED_MS,
	COL_ROWS,
	COL_BLKS_HIT,
	COL_BLKS_READ,
	COL_READ_MS,
	COL_OS_READ_MB,
	COL_RELATIONS,
	COL_SIZE_MB,
	COL_MB_PER_S,
	COL_WORKERS_PLANNED,
	COL_WORKERS_LAUNCHED,
	COL_DISTRIBUTED,			/* 1.1 */
	COL_CACHED_PCT,				/* 1.2 */
	COL_WARNINGS,
	COL_SERVED_BY,
	BS_QUERY_NCOLS
};

/* A receiver that counts the rows and keeps none. */
typedef struct BsCountReceiver
{
	DestReceiver pub;
	uint64		rows;
} BsCountReceiver;

static bool
count_receive(TupleTableSlot *slot, DestReceiver *self)
{
	((BsCountReceiver *) self)->rows++;
	return true;
}

static void
count_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
	((BsCountReceiver *) self)->rows = 0;
}

static void
count_shutdown(DestReceiver *self)
{
}

static void
count_destroy(DestReceiver *self)
{
}

/* What one run measured. */
typedef struct BsQueryRun
{
	BsBenchRun *br;				/* its measure, its cold state (driver) */
	uint64		rows;
	int			workers_planned;
	int			workers_launched;
	List	   *relids;			/* what the plan reads */
	uint64		bytes;			/* their main forks' size before the run */
	bool		distributed;	/* reads Citus tables: sized by their shards */
	int64		sample_interval_us; /* 0: no series */
} BsQueryRun;

/* ----------------------------------------------------------------
 * The time series of a run, from a timer's snapshots
 * ----------------------------------------------------------------
 */
#define BS_QUERY_SNAPS		4096

typedef struct BsQuerySnap
{
	instr_time	now;
	int64		hit;			/* blocks found in shared or local buffers */
	int64		read;			/* blocks read from the OS */
	int64		written;		/* shared, local and temporary blocks written */
} BsQuerySnap;

static TimeoutId query_sample_timeout = MAX_TIMEOUTS;	/* not registered yet */
static BsQuerySnap *query_snaps;	/* BS_QUERY_SNAPS of them, kept */
static volatile sig_atomic_t query_sampling = false;
static volatile int query_nsnaps;
static volatile int query_ticks;
static volatile int query_keep_every;

static inline void
query_snap_take(BsQuerySnap *snap)
{
	INSTR_TIME_SET_CURRENT(snap->now);
	snap->hit = pgBufferUsage.shared_blks_hit + pgBufferUsage.local_blks_hit;
	snap->read = pgBufferUsage.shared_blks_read + pgBufferUsage.local_blks_read;
	snap->written = pgBufferUsage.shared_blks_written + pgBufferUsage.local_blks_written +
		pgBufferUsage.temp_blks_written;
}

/*
 * The timer, in signal context: copy the counters.  When the snapshots
 * are full, keep every other one (the counts are cumulative, so that is
 * the same series at twice the interval) and take every other tick on.
 */
static void
query_sample_handler(void)
{
	int			n;

	if (!query_sampling)
		return;
	query_ticks++;
	if (query_ticks % query_keep_every != 0)
		return;
	n = query_nsnaps;
	if (n == BS_QUERY_SNAPS)
	{
		for (int i = 0; i < BS_QUERY_SNAPS / 2; i++)
			query_snaps[i] = query_snaps[2 * i + 1];
		n = BS_QUERY_SNAPS / 2;
		query_keep_every *= 2;
		if (query_ticks % query_keep_every != 0)
		{
			query_nsnaps = n;
			return;
		}
	}
	query_snap_take(&query_snaps[n]);
	query_nsnaps = n + 1;
}

static void
query_sampling_start(int64 interval_us)
{
	int			ms = (int) Max(interval_us / 1000, 1);

	if (query_sample_timeout == MAX_TIMEOUTS)
	{
		query_snaps = MemoryContextAlloc(TopMemoryContext,
										 sizeof(BsQuerySnap) * BS_QUERY_SNAPS);
		query_sample_timeout = RegisterTimeout(USER_TIMEOUT, query_sample_handler);
	}
	query_nsnaps = 0;
	query_ticks = 0;
	query_keep_every = 1;
	query_sampling = true;
	enable_timeout_every(query_sample_timeout,
						 TimestampTzPlusMilliseconds(GetCurrentTimestamp(), ms), ms);
}

static void
query_sampling_stop(void)
{
	query_sampling = false;
	if (query_sample_timeout != MAX_TIMEOUTS)
		disable_timeout(query_sample_timeout, false);
}

/* The samples between the run's first and last snapshot and the timer's. */
static void
query_series(BsQueryRun *qr, const BsQuerySnap *first, const BsQuerySnap *last)
{
	int			nsnaps = query_nsnaps;
	const BsQuerySnap *prev = first;

	BsSeries   *series = &qr->br->measure.series;

	bs_series_init(series);
	for (int i = 0; i <= nsnaps; i++)
	{
		const BsQuerySnap *cur = (i < nsnaps) ? &query_snaps[i] : last;
		double		from_ms = (bs_instr_time_ns(prev->now) - (double) bs_instr_time_ns(first->now)) / 1e6;
		double		elapsed_ms = (bs_instr_time_ns(cur->now) - (double) bs_instr_time_ns(prev->now)) / 1e6;
		BsSample	sample;
		int64		blocks = (cur->hit - prev->hit) + (cur->read - prev->read);

		if (elapsed_ms <= 0)
			continue;
		bs_sample_blank(&sample);
		sample.start_ms = bs_round(from_ms, 3);
		sample.elapsed_ms = bs_round(elapsed_ms, 3);
		sample.mb_per_s = bs_round(bs_per_second((double) blocks * BLCKSZ / BS_BYTES_PER_MB,
												 elapsed_ms), 2);
		sample.iops = bs_round(bs_per_second((double) blocks, elapsed_ms), 1);
		sample.read_mb = bs_round((double) (cur->read - prev->read) * BLCKSZ / BS_BYTES_PER_MB, 3);
		sample.hit_mb = bs_round((double) (cur->hit - prev->hit) * BLCKSZ / BS_BYTES_PER_MB, 3);
		sample.write_mb = bs_round((double) (cur->written - prev->written) * BLCKSZ / BS_BYTES_PER_MB, 3);
		bs_series_add(series, &sample, "the query");
		prev = cur;
	}
}

/*
 * Errors in the query's text point into the query, not into the call of
 * bench_query (as in a PL/pgSQL EXECUTE): "QUERY:" and its position.
 */
static void
query_error_callback(void *arg)
{
	const char *query = (const char *) arg;
	int			position = geterrposition();

	if (position > 0)
	{
		errposition(0);
		internalerrposition(position);
		internalerrquery(query);
	}
	errcontext("query run by bench_query");
}

/*
 * Parse and check the query: one statement, a SELECT (WITH ... SELECT
 * included), not SELECT INTO.  Returns its raw statement.
 */
static RawStmt *
parse_one_select(const char *query)
{
	List	   *raw = pg_parse_query(query);
	RawStmt    *stmt;

	if (raw == NIL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("query must contain a statement")));
	if (list_length(raw) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("bench_query cannot run multiple statements"),
				 errdetail("The query holds %d statements.", list_length(raw)),
				 errhint("Time each statement with its own bench_query call.")));
	stmt = linitial_node(RawStmt, raw);
	if (!IsA(stmt->stmt, SelectStmt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bench_query runs only SELECT statements"),
				 errdetail("The query's command is %s.",
						   CreateCommandName(stmt->stmt)),
				 errhint("Time a SELECT or WITH ... SELECT.")));
	if (((SelectStmt *) stmt->stmt)->intoClause != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bench_query cannot run SELECT INTO"),
				 errhint("Time the SELECT without INTO.")));
	return stmt;
}

/* The refusal of a query that writes. */
static void
refuse_writes(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
			 errmsg(BS_REFUSE_WRITES_MSG),
			 errdetail("%s", what),
			 errhint("Pass allow_writes => true to run it and roll it back.")));
}

/*
 * A sampled run that has no series says why in its warnings: the counts of
 * parallel workers and of Citus nodes reach the caller only at the end.
 */
static void
say_no_series(Datum *warnings, bool *isnull, bool distributed)
{
	const char *why = distributed ?
		"No time series: the Citus nodes' counts reach the coordinator only when the query ends." :
		"No time series: parallel workers hand over their counts only when the query ends; max_parallel_workers_per_gather = 0 gives a series.";

	if (*isnull)
		*warnings = CStringGetTextDatum(why);
	else
		*warnings = CStringGetTextDatum(psprintf("%s %s", TextDatumGetCString(*warnings), why));
	*isnull = false;
}

/* Analyze, rewrite and plan, as a top-level query (parallel plans allowed). */
static PlannedStmt *
plan_select(RawStmt *raw, const char *query, bool allow_writes)
{
	List	   *queries;
	Query	   *q;

	queries = pg_analyze_and_rewrite_fixedparams(raw, query, NULL, 0, NULL);
	if (list_length(queries) != 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bench_query cannot run a query that rules rewrite into %d statements",
						list_length(queries))));
	q = linitial_node(Query, queries);
	if (q->commandType != CMD_SELECT || q->utilityStmt != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bench_query runs only SELECT statements")));
	if (!allow_writes && q->hasModifyingCTE)
		refuse_writes("A WITH clause inserts, updates or deletes rows.");
	if (!allow_writes && q->rowMarks != NIL)
		refuse_writes("FOR UPDATE and FOR SHARE lock rows, which writes to them.");

	return bs_plan_query(q, query, CURSOR_OPT_PARALLEL_OK);
}

/* What a plan's scans read, gathered by walking every child. */
typedef struct BsPlanReads
{
	List	   *rtable;
	List	   *tables;			/* table OIDs, in plan order */
	List	   *indexes;		/* index OIDs, in plan order */
} BsPlanReads;

/* A scan of a range-table relation: note its table. */
static void
note_scanned_table(Index scanrelid, BsPlanReads *reads)
{
	RangeTblEntry *rte;

	if (scanrelid == 0 || scanrelid > list_length(reads->rtable))
		return;
	rte = rt_fetch(scanrelid, reads->rtable);
	if (rte->rtekind == RTE_RELATION &&
		RELKIND_HAS_STORAGE(get_rel_relkind(rte->relid)))
		reads->tables = list_append_unique_oid(reads->tables, rte->relid);
}

static void
collect_plan_reads(Plan *plan, BsPlanReads *reads)
{
	ListCell   *lc;

	if (plan == NULL)
		return;
	switch (nodeTag(plan))
	{
		case T_SeqScan:
		case T_SampleScan:
		case T_BitmapHeapScan:
		case T_TidScan:
		case T_TidRangeScan:
			note_scanned_table(((Scan *) plan)->scanrelid, reads);
			break;
		case T_IndexScan:
			note_scanned_table(((Scan *) plan)->scanrelid, reads);
			reads->indexes = list_append_unique_oid(reads->indexes,
													((IndexScan *) plan)->indexid);
			break;
		case T_IndexOnlyScan:
			note_scanned_table(((Scan *) plan)->scanrelid, reads);
			reads->indexes = list_append_unique_oid(reads->indexes,
													((IndexOnlyScan *) plan)->indexid);
			break;
		case T_BitmapIndexScan:
			reads->indexes = list_append_unique_oid(reads->indexes,
													((BitmapIndexScan *) plan)->indexid);
			break;
		case T_Append:
			foreach(lc, ((Append *) plan)->appendplans)
				collect_plan_reads(lfirst(lc), reads);
			break;
		case T_MergeAppend:
			foreach(lc, ((MergeAppend *) plan)->mergeplans)
				collect_plan_reads(lfirst(lc), reads);
			break;
		case T_BitmapAnd:
			foreach(lc, ((BitmapAnd *) plan)->bitmapplans)
				collect_plan_reads(lfirst(lc), reads);
			break;
		case T_BitmapOr:
			foreach(lc, ((BitmapOr *) plan)->bitmapplans)
				collect_plan_reads(lfirst(lc), reads);
			break;
		case T_SubqueryScan:
			collect_plan_reads(((SubqueryScan *) plan)->subplan, reads);
			break;
		case T_CustomScan:
			foreach(lc, ((CustomScan *) plan)->custom_plans)
				collect_plan_reads(lfirst(lc), reads);
			break;
		default:
			break;
	}
	collect_plan_reads(plan->lefttree, reads);
	collect_plan_reads(plan->righttree, reads);
}

/*
 * The relations a plan reads: the tables its scans read (leaf partitions
 * the planner kept; not tables a join removal left out), then their TOAST
 * tables and TOAST indexes where these hold data (read when a value is
 * detoasted), then the indexes its scans use; each once.
 */
static List *
plan_relations(PlannedStmt *stmt)
{
	BsPlanReads reads;
	List	   *toast = NIL;
	ListCell   *lc;

	memset(&reads, 0, sizeof(reads));
	reads.rtable = stmt->rtable;
	collect_plan_reads(stmt->planTree, &reads);
	foreach(lc, stmt->subplans)
		collect_plan_reads(lfirst(lc), &reads);

	foreach(lc, reads.tables)
	{
		Relation	rel = relation_open(lfirst_oid(lc), AccessShareLock);
		Oid			toastoid = rel->rd_rel->reltoastrelid;

		relation_close(rel, NoLock);
		if (OidIsValid(toastoid))
		{
			Relation	toastrel = relation_open(toastoid, AccessShareLock);

			/* an empty TOAST table has nothing to read */
			if (RelationGetNumberOfBlocks(toastrel) > 0)
			{
				List	   *toastidx = RelationGetIndexList(toastrel);
				ListCell   *ilc;

				/*
				 * Lock the TOAST indexes as the table: the executor opens
				 * them only when it detoasts, and a cold run evicts them
				 * before that (the plan's own indexes were locked by the
				 * planner).
				 */
				foreach(ilc, toastidx)
					LockRelationOid(lfirst_oid(ilc), AccessShareLock);
				toast = list_append_unique_oid(toast, toastoid);
				toast = list_concat_unique_oid(toast, toastidx);
			}
			relation_close(toastrel, NoLock);
		}
	}
	return list_concat_unique_oid(list_concat_unique_oid(reads.tables, toast),
								  reads.indexes);
}

/* Sum the launched and planned workers of the plan's Gather nodes. */
static bool
count_gather_workers(PlanState *ps, void *context)
{
	BsQueryRun *qr = (BsQueryRun *) context;

	if (ps == NULL)
		return false;
	if (IsA(ps, GatherState))
	{
		qr->workers_planned += ((Gather *) ps->plan)->num_workers;
		qr->workers_launched += ((GatherState *) ps)->nworkers_launched;
	}
	else if (IsA(ps, GatherMergeState))
	{
		qr->workers_planned += ((GatherMerge *) ps->plan)->num_workers;
		qr->workers_launched += ((GatherMergeState *) ps)->nworkers_launched;
	}
	return bs_planstate_tree_walker(ps, count_gather_workers, context);
}

/*
 * One run: the plan executed into the counting receiver, timed from
 * ExecutorStart to ExecutorEnd, with a fresh snapshot.
 */
static void
execute_timed(PlannedStmt *stmt, const char *query, BsQueryRun *qr)
{
	BsCountReceiver dest;
	QueryDesc  *qd;
	BsQuerySnap first;
	BsQuerySnap last;
	bool		sampling;

	memset(&dest, 0, sizeof(dest));
	dest.pub.receiveSlot = count_receive;
	dest.pub.rStartup = count_startup;
	dest.pub.rShutdown = count_shutdown;
	dest.pub.rDestroy = count_destroy;
	dest.pub.mydest = DestNone;

	PushActiveSnapshot(GetTransactionSnapshot());
	UpdateActiveSnapshotCommandId();
	qd = CreateQueryDesc(stmt, query, GetActiveSnapshot(), InvalidSnapshot,
						 (DestReceiver *) &dest, NULL, NULL, 0);

	bs_measure_start(&qr->br->measure, &qr->br->cold, NULL);
	query_snap_take(&first);
	/* a bench_query inside the query (nested) takes no samples of its own */
	sampling = qr->sample_interval_us > 0 && !query_sampling;
	if (sampling)
		query_sampling_start(qr->sample_interval_us);

	PG_TRY();
	{
		ExecutorStart(qd, 0);
		bs_executor_run_all(qd);
		ExecutorFinish(qd);
		/* the Gather nodes keep their worker counts until ExecutorEnd */
		count_gather_workers(qd->planstate, qr);
		ExecutorEnd(qd);
	}
	PG_FINALLY();
	{
		if (sampling)
			query_sampling_stop();
	}
	PG_END_TRY();

	query_snap_take(&last);
	bs_measure_stop(&qr->br->measure, true, 0, true, qr->bytes);
	if (sampling && qr->workers_launched == 0 && !qr->distributed)
		query_series(qr, &first, &last);
	qr->rows = dest.rows;

	FreeQueryDesc(qd);
	PopActiveSnapshot();
}

/* One run's inputs, the same for every run of a call. */
typedef struct BsQuerySpec
{
	RawStmt    *raw;
	const char *query;
	bool		allow_writes;
	bool		cold;
	bool		caller_read_only;	/* read-only before bench_query: its refusals stay */
	ErrorContextCallback *errcallback;
} BsQuerySpec;

/*
 * One run, from planning to the end of execution: planned afresh as a new
 * statement would be, its relations listed (and evicted, cold), then
 * executed and timed.  Runs inside run_in_subtransaction, so that the
 * locks it takes are released with the subtransaction.
 */
static void
plan_and_execute(const BsQuerySpec *spec, BsQueryRun *qr)
{
	PlannedStmt *stmt;
	List	   *citus;
	ListCell   *lc;

	error_context_stack = spec->errcallback;
	stmt = plan_select(copyObject(spec->raw), spec->query, spec->allow_writes);
	qr->relids = plan_relations(stmt);

	/*
	 * Citus tables (on a coordinator): the table here is a shell, its rows
	 * are in shards on the nodes; the query runs distributed, and what it
	 * reads is one copy of each shard, sized and (cold) evicted on the
	 * nodes holding them, untimed.
	 */
	{
		List	   *named = list_copy(qr->relids);

		/* Citus's scan node names none: its tables are in the range table */
		foreach(lc, stmt->rtable)
		{
			RangeTblEntry *rte = lfirst_node(RangeTblEntry, lc);

			if (rte->rtekind == RTE_RELATION)
				named = list_append_unique_oid(named, rte->relid);
		}
		citus = bs_citus_tables(named);
		list_free(named);
	}
	qr->distributed = (citus != NIL);
	qr->relids = list_concat_unique_oid(qr->relids, citus);

	if (spec->cold)
	{
		BsTarget	target;

		/* the query's own permission check, before its relations are touched */
		bs_check_plan_permissions(stmt);
		memset(&target, 0, sizeof(target));
		target.storage_relids = qr->relids;
		bs_make_target_cold(&target, &qr->br->cold);
		foreach(lc, citus)
			bs_citus_evict_shards(lfirst_oid(lc));
	}
	qr->bytes = bs_main_fork_bytes(list_difference_oid(qr->relids, citus));
	foreach(lc, citus)
		qr->bytes += bs_citus_one_copy_bytes(lfirst_oid(lc));

	execute_timed(stmt, spec->query, qr);
	error_context_stack = spec->errcallback->previous;
}

/*
 * Run the query once inside a subtransaction that is always rolled back:
 * read-only unless allow_writes.  A write refused by the read-only mode
 * set here is reported as bench_query's refusal; one refused because the
 * caller's transaction was read-only already keeps its own error.
 */
static void
run_in_subtransaction(const BsQuerySpec *spec, BsQueryRun *qr)
{
	MemoryContext oldcontext = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	ErrorContextCallback *outer_context = error_context_stack;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcontext);

	PG_TRY();
	{
		if (!spec->allow_writes && !spec->caller_read_only)
			(void) set_config_option("transaction_read_only", "on",
									 PGC_USERSET, PGC_S_SESSION,
									 GUC_ACTION_LOCAL, true, 0, false);
		plan_and_execute(spec, qr);

		/* undo whatever it did; the subtransaction's settings go with it */
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		error_context_stack = outer_context;
		MemoryContextSwitchTo(oldcontext);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcontext);
		CurrentResourceOwner = oldowner;

		if (!spec->allow_writes && !spec->caller_read_only &&
			edata->sqlerrcode == ERRCODE_READ_ONLY_SQL_TRANSACTION &&
			strcmp(edata->message, BS_REFUSE_WRITES_MSG) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
					 errmsg(BS_REFUSE_WRITES_MSG),
					 errdetail("%s", edata->message),
					 errhint("Pass allow_writes => true to run it and roll it back."),
					 edata->context ? errcontext("%s", edata->context) : 0));
		ReThrowError(edata);
	}
	PG_END_TRY();
}

/*
 * The query's text with every constant replaced by $1, $2, ... in order,
 * as pg_stat_statements shows queries: the history is readable by every
 * role, and literals may hold what only the caller may see.  The query has
 * parsed, so the core scanner reads it without error; a constant is a
 * token that starts as only constants do: a digit, a point before a digit,
 * a quote (with an E, B, X, N or U& prefix), or a dollar quote.  The
 * scanner leaves a zero byte after the token it returned, so the token's
 * length is that of the string at its start.
 */
static char *
normalized_query(const char *query)
{
	core_yy_extra_type yyextra;
	core_yyscan_t yyscanner;
	core_YYSTYPE yylval;
	YYLTYPE		yylloc;
	StringInfoData buf;
	int			copied = 0;
	int			nconst = 0;

	initStringInfo(&buf);
	yyscanner = scanner_init(query, &yyextra, &ScanKeywords, ScanKeywordTokens);
	/* no warnings about backslashes in strings: the query has run already */
	yyextra.escape_string_warning = false;
	for (;;)
	{
		const char *tok;
		bool		constant;

		if (core_yylex(&yylval, &yylloc, yyscanner) == 0)
			break;
		tok = yyextra.scanbuf + yylloc;
		constant = isdigit((unsigned char) tok[0]) ||
			(tok[0] == '.' && isdigit((unsigned char) tok[1])) ||
			tok[0] == '\'' ||
			(strchr("eEbBxXnN", tok[0]) != NULL && tok[1] == '\'') ||
			((tok[0] == 'u' || tok[0] == 'U') && tok[1] == '&' && tok[2] == '\'') ||
			(tok[0] == '$' && !isdigit((unsigned char) tok[1]));
		if (!constant)
			continue;
		appendBinaryStringInfo(&buf, query + copied, yylloc - copied);
		appendStringInfo(&buf, "$%d", ++nconst);
		copied = yylloc + strlen(tok);
	}
	scanner_finish(yyscanner);
	appendStringInfoString(&buf, query + copied);
	return buf.data;
}

/* The query's text as the history keeps it (benchstore.record_query_text). */
static const char *
recorded_query_text(const char *query)
{
	if (bs_record_query_text == BS_QUERY_TEXT_EXACT)
		return query;
	return normalized_query(query);
}

/* A name for the query in the history: its text, blanks squeezed, cut. */
static char *
query_target(const char *query)
{
	StringInfoData buf;
	bool		blank = false;

	initStringInfo(&buf);
	for (const char *p = query; *p; p++)
	{
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		{
			blank = (buf.len > 0);
			continue;
		}
		if (blank)
			appendStringInfoChar(&buf, ' ');
		blank = false;
		appendStringInfoChar(&buf, *p);
	}
	if (buf.len > BS_TARGET_CHARS)
	{
		int			cut = pg_mbcliplen(buf.data, buf.len, BS_TARGET_CHARS);

		buf.data[cut] = '\0';
		buf.len = cut;
		appendStringInfoString(&buf, "...");
	}
	return buf.data;
}

/* The relations as a regclass[] datum. */
static Datum
relations_array(List *relids)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(list_length(relids), 1));
	int			n = 0;
	ListCell   *lc;

	foreach(lc, relids)
		elems[n++] = ObjectIdGetDatum(lfirst_oid(lc));
	return PointerGetDatum(construct_array(elems, n, REGCLASSOID,
										   sizeof(Oid), true, TYPALIGN_INT));
}

/*
 * bench_query(query text, cache text DEFAULT 'warm', repeat integer
 *			   DEFAULT 1, label text DEFAULT NULL, record boolean DEFAULT
 *			   true, allow_writes boolean DEFAULT false,
 *			   sample_interval interval DEFAULT '1s')
 *	RETURNS SETOF record
 *
 * One row per run; the columns are documented in
 * src/sql/benchstore/query.sql.
 *
 * Entry points: bench_query_1_2 for 1.2's definition; bench_query for the
 * released ones, 1.0's and 1.1's, which have the same arguments (no
 * sample_interval) and differ in their columns only (1.0's end before
 * distributed, 1.1's before cached_pct).
 */
static Datum query_run(FunctionCallInfo fcinfo, BsSqlVersion version);

Datum
bench_query_1_2(PG_FUNCTION_ARGS)
{
	return query_run(fcinfo, BS_SQL_1_2);
}

Datum
bench_query(PG_FUNCTION_ARGS)
{
	return query_run(fcinfo, bs_legacy_sql_version(fcinfo, 6, 6));
}

/* A call's inputs, and its current run's (see bench_driver.h). */
typedef struct BsQueryCall
{
	BsBench    *b;
	BsSqlVersion version;
	const char *query;
	int			cache;
	int32		repeat;
	bool		allow_writes;
	int64		sample_interval_us;
	BsQuerySpec spec;
	BsQueryRun	qr;
} BsQueryCall;

/*
 * One run, planned, made cold, measured and rolled back in a
 * subtransaction; the first run's relations describe the call.
 */
static void
query_one_run(void *arg, BsBenchRun *r)
{
	BsQueryCall *c = (BsQueryCall *) arg;

	memset(&c->qr, 0, sizeof(c->qr));
	c->qr.br = r;
	c->qr.sample_interval_us = c->sample_interval_us;
	run_in_subtransaction(&c->spec, &c->qr);

	if (r->run == 1)
	{
		BsRun	   *history = &c->b->history;
		MemoryContext runcxt = MemoryContextSwitchTo(c->b->call_context);
		ListCell   *lc;
		const char *recorded;

		recorded = recorded_query_text(c->query);
		bs_run_target(history, "other", query_target(recorded), InvalidOid);
		bs_run_arg_text(history, "query", recorded);
		bs_run_arg_text(history, "cache", bs_cache_states[c->cache]);
		bs_run_arg_int(history, "repeat", c->repeat);
		bs_run_arg_bool(history, "allow_writes", c->allow_writes);
		if (c->version >= BS_SQL_1_2)
			bs_run_arg_sample_interval(history, c->sample_interval_us);
		foreach(lc, c->qr.relids)
			bs_run_tablespace(history, get_rel_tablespace(lfirst_oid(lc)));
		MemoryContextSwitchTo(runcxt);
	}
}

/* A run's own columns (the driver has filled the common ones). */
static void
query_row(void *arg, BsBenchRun *r, Datum *values, bool *nulls)
{
	BsQueryCall *c = (BsQueryCall *) arg;
	BsQueryRun *qr = &c->qr;
	const BufferUsage *bu = &r->measure.bu;
	double		elapsed_ms = r->measure.elapsed_ms;
	double		size_mb = qr->bytes / BS_BYTES_PER_MB;

	values[COL_CACHE] = CStringGetTextDatum(bs_cache_states[c->cache]);
	values[COL_ROWS] = Int64GetDatum((int64) qr->rows);

	/*
	 * The kernel's counters are per process: with parallel workers the
	 * caller's alone would understate the reads.
	 */
	if (qr->workers_launched > 0)
		nulls[COL_OS_READ_MB] = true;
	values[COL_RELATIONS] = relations_array(qr->relids);
	values[COL_SIZE_MB] = Float8GetDatum(size_mb);

	/*
	 * The rate is what the query read, the blocks it found in buffers and
	 * those it read, over its time: an index lookup reads a few blocks of
	 * a large table, not the table.  A distributed query's blocks are read
	 * on the nodes, whose buffer counters this node does not see: its rate
	 * is the shards' size over the time, the scan rate the cluster
	 * achieved.
	 */
	if (qr->distributed)
		values[COL_MB_PER_S] =
			Float8GetDatum(bs_round(bs_per_second(size_mb, elapsed_ms), 2));
	else
		values[COL_MB_PER_S] =
			Float8GetDatum(bs_round(bs_per_second((double) (bu->shared_blks_hit + bu->local_blks_hit +
															bu->shared_blks_read + bu->local_blks_read) *
												  BLCKSZ / BS_BYTES_PER_MB,
												  elapsed_ms), 2));
	values[COL_WORKERS_PLANNED] = Int32GetDatum(qr->workers_planned);
	values[COL_WORKERS_LAUNCHED] = Int32GetDatum(qr->workers_launched);
	values[COL_DISTRIBUTED] = BoolGetDatum(qr->distributed);
	if (qr->sample_interval_us > 0 && r->measure.series.nsamples == 0 &&
		(qr->workers_launched > 0 || qr->distributed))
		say_no_series(&values[COL_WARNINGS], &nulls[COL_WARNINGS],
					  qr->distributed);
}

static Datum
query_run(FunctionCallInfo fcinfo, BsSqlVersion version)
{
	static const BsBenchOps ops = {query_one_run, query_row};
	BsQueryCall c;
	BsBench		b;
	BsBenchRuns runs;
	RawStmt    *raw;
	ErrorContextCallback errcallback;
	char	   *query;

	memset(&c, 0, sizeof(c));
	c.b = &b;
	c.version = version;
	bs_require_arg(fcinfo, 0, "query");
	bs_require_arg(fcinfo, 1, "cache");
	bs_require_arg(fcinfo, 2, "repeat");
	bs_require_arg(fcinfo, 5, "allow_writes");

	query = text_to_cstring(PG_GETARG_TEXT_PP(0));
	c.query = query;
	c.cache = bs_parse_choice(PG_GETARG_TEXT_PP(1), "cache",
							  bs_cache_states, lengthof(bs_cache_states));
	c.repeat = PG_GETARG_INT32(2);
	c.allow_writes = PG_GETARG_BOOL(5);
	if (c.repeat < 1 || c.repeat > BS_MAX_REPEAT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("repeat must be between 1 and %d", BS_MAX_REPEAT)));

	/* sample_interval, argument 6 from version 1.2 on */
	if (version >= BS_SQL_1_2)
		c.sample_interval_us = bs_sample_interval_arg(fcinfo, 6);

	/* Parse and check once: the errors come before anything is done. */
	errcallback.callback = query_error_callback;
	errcallback.arg = query;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	raw = parse_one_select(query);
	error_context_stack = errcallback.previous;
	bs_bench_begin(&b, fcinfo, "query", 3, 4);
	if (c.cache == BS_CACHE_COLD)
		bs_check_checkpoint_privilege(false);

	/* 1.0's definition ends before distributed, 1.1's before cached_pct */
	if (version >= BS_SQL_1_2)
		bs_bench_rows(&b, "bench_query", BS_QUERY_NCOLS, BS_QUERY_NCOLS);
	else
		bs_bench_rows(&b, "bench_query", COL_CACHED_PCT, COL_DISTRIBUTED);

	c.spec.raw = raw;
	c.spec.query = query;
	c.spec.allow_writes = c.allow_writes;
	c.spec.cold = (c.cache == BS_CACHE_COLD);
	c.spec.caller_read_only = XactReadOnly || RecoveryInProgress();
	c.spec.errcallback = &errcallback;

	/* each run's plan and executor state live in a context reset after it */
	memset(&runs, 0, sizeof(runs));
	runs.repeat = c.repeat;
	runs.ncols = BS_QUERY_NCOLS;
	runs.columns = BS_BENCH_COMMON_COLUMNS;
	runs.cold = c.spec.cold;
	runs.target = NULL;			/* made cold by the run, once planned */
	runs.cold_what = "the query";
	runs.run_context = true;
	bs_bench_run_all(&b, &runs, &ops, &c);

	bs_bench_end(&b);
	return (Datum) 0;
}
