/*-------------------------------------------------------------------------
 *
 * sessions.c
 *	  The concurrent sessions of a run (bench_commit's sessions,
 *	  bench_tpcb's clients): each a dynamic background worker connected to
 *	  the caller's database as the caller's session, outer and current
 *	  user (as a parallel worker restores them), so every right is checked
 *	  for the role the caller's own statement would be checked for, under
 *	  search_path = pg_catalog, pg_temp (src/safe_spi.c), and counted as a
 *	  connection of that role and database (src/session_limits.c).
 *
 * The caller starts the sessions and waits, untimed, until each has set
 * up (its table, its prepared statements) and said it is ready; with
 * after_checkpoint it then requests a checkpoint; it starts its clock and
 * lets them go; at the end of the duration it tells them to stop and
 * waits, untimed, for each to say it is done (its figures in its slot,
 * its statistics sent).  With a ramp, the sessions run untimed for that
 * long first: each notes where it stood when it sees the ramp end (before
 * its next transaction), and the figures, the server's WAL flushes and
 * checkpoints, and the duration count from there; the time series keeps
 * the ramp.  A steady-state criterion (src/steady.c) is judged on the
 * series at every sample, and with until => 'steady' ends the run when it
 * holds.  A session stops within 100 ms of the caller's
 * cancel, error or end: it checks a stop flag between transactions and
 * the caller's process every 100 ms.  A session's error fails the run,
 * naming the session; one that exits without a word (terminated, crashed)
 * fails it too.  What a session does is its workload's: each workload's
 * own worker entry point (in src/commit.c, src/tpcb.c) hands its body to
 * bs_session_main here.
 *
 * src/sessions.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include "access/transam.h"
#include "access/xact.h"
#include "access/xlog_internal.h"
#include "catalog/pg_proc.h"
#include "histogram.h"
#include "nodes/execnodes.h"
#include "nodes/nodeFuncs.h"
#include "nodes/plannodes.h"
#include "benchstore.h"
#include "compat.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "run_tables.h"
#include "safe_spi.h"
#include "postmaster/bgworker.h"
#include "postmaster/bgwriter.h"
#include "session_limits.h"
#include "sessions.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "tcop/pquery.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/portal.h"
#include "utils/snapmgr.h"
#include "utils/wait_event.h"

/* ---------------------------------------------------------------------
 * A session (a dynamic background worker)
 * ---------------------------------------------------------------------
 */

/* The run table the exit callback drops (bench_commit's), if any. */
Oid			bs_session_table_oid = InvalidOid;

/*
 * Exit callback: drop the session's table, whatever ended the session (an
 * error, a termination, the end of the run), through its record
 * (src/run_tables.c).  A failure is logged; the role's next call drops
 * what is left.
 */
static void
drop_session_table(int code, Datum arg)
{
	Oid			relid = bs_session_table_oid;

	if (!OidIsValid(relid))
		return;
	bs_session_table_oid = InvalidOid;
	AbortOutOfAnyTransaction();
	MemoryContextSwitchTo(TopMemoryContext);
	PG_TRY();
	{
		StartTransactionCommand();
		PushActiveSnapshot(GetTransactionSnapshot());
		bs_run_table_drop_own(relid);
		PopActiveSnapshot();
		CommitTransactionCommand();
	}
	PG_CATCH();
	{
		EmitErrorReport();
		FlushErrorState();
		AbortOutOfAnyTransaction();
	}
	PG_END_TRY();
}

/* Is the caller still running?  Takes ProcArrayLock: every 100 ms only. */
static bool
leader_alive(BsSessionsShared *sh)
{
	return BackendPidGetProc(sh->leader_pid) != NULL;
}

/* Say the session is ready, then wait for the clock (or the caller's end). */
void
bs_session_ready_and_wait(BsSessionsShared *sh, BsSessionSlot *slot)
{
	/*
	 * The set-up's statistics (its WAL flushes) reach the server now, so
	 * that the caller's reading at the start leaves them out.
	 */
	pgstat_report_stat(true);
	slot->pid = MyProcPid;
	pg_write_barrier();
	slot->ready = true;
	ConditionVariableBroadcast(&sh->cv);

	while (pg_atomic_read_u32(&sh->go) == 0 && pg_atomic_read_u32(&sh->stop) == 0)
	{
		CHECK_FOR_INTERRUPTS();
		(void) ConditionVariableTimedSleep(&sh->cv, BS_SESSIONS_CHECK_MS, PG_WAIT_EXTENSION);
		if (!leader_alive(sh))
			break;
	}
	ConditionVariableCancelSleep();
}

/*
 * Between transactions: go on?  Not once told to stop, nor once the
 * caller is gone (looked for every 100 ms, the clock read every 8
 * transactions).  Also where interrupts are served.
 */
bool
bs_session_keep_going(BsSessionsShared *sh, BsSessionSlot *slot,
					  instr_time *last_check)
{
	bool		stopping;

	CHECK_FOR_INTERRUPTS();
	stopping = pg_atomic_read_u32(&sh->stop) != 0 || pg_atomic_read_u32(&sh->go) == 0;

	/*
	 * The ramp's end, seen before the next transaction (and before the
	 * stop, which the caller sets after it): what the session did so far is
	 * left out of the figures.
	 */
	pg_read_barrier();
	if (!slot->ramped && pg_atomic_read_u32(&sh->ramp_over) != 0)
	{
		slot->ramp_commits = slot->commits;
		slot->ramp_wal_records = slot->wal_records;
		slot->ramp_wal_fpi = slot->wal_fpi;
		slot->ramp_wal_bytes = slot->wal_bytes;
		bs_hist_reset(&slot->measured);
		/*
		 * The ramp's WAL flushes reach the server's statistics before the
		 * caller, seeing every session ramped, reads them (a session's
		 * own are otherwise sent when it ends).
		 */
		pgstat_report_stat(true);
		pg_write_barrier();
		slot->ramped = true;
	}
	if (stopping)
		return false;
	if ((slot->commits & 7) == 0)
	{
		instr_time	now;

		INSTR_TIME_SET_CURRENT(now);
		INSTR_TIME_SUBTRACT(now, *last_check);
		if (INSTR_TIME_GET_MILLISEC(now) >= BS_SESSIONS_CHECK_MS)
		{
			INSTR_TIME_SET_CURRENT(*last_check);
			if (!leader_alive(sh))
				return false;
		}
	}
	return true;
}

/* After a transaction committed: count it and the WAL it wrote. */
void
bs_session_count(BsSessionsShared *sh, BsSessionSlot *slot, const WalUsage *before)
{
	uint64		bytes = pgWalUsage.wal_bytes - before->wal_bytes;
	uint64		fpi = pgWalUsage.wal_fpi - before->wal_fpi;

	slot->commits++;
	slot->wal_records += pgWalUsage.wal_records - before->wal_records;
	slot->wal_fpi += fpi;
	slot->wal_bytes += bytes;
	pg_atomic_fetch_add_u64(&sh->commits, 1);
	pg_atomic_fetch_add_u64(&sh->wal_bytes, bytes);
	pg_atomic_fetch_add_u64(&sh->wal_fpi, fpi);
}

/* A transaction's (or a commit's) latency: in the run's, and after the ramp. */
void
bs_session_latency(BsSessionSlot *slot, uint64 ns)
{
	bs_hist_add(&slot->hist, ns);
	if (slot->ramped)
		bs_hist_add(&slot->measured, ns);
}

/* A session, run by its workload's entry point with its body. */
void
bs_session_main(Datum main_arg, BsSessionBody body)
{
	dsm_segment *seg;
	BsSessionsShared *sh;
	BsSessionSlot *slot;
	int			n;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();

	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("benchstore session could not map its shared memory")));
	sh = dsm_segment_address(seg);
	memcpy(&n, MyBgworkerEntry->bgw_extra, sizeof(int));
	slot = &sh->slots[n];

	/*
	 * Connect as the role that logged in (a role the caller SET ROLE to may
	 * not log in), then become the caller's session, outer and current
	 * user, as a parallel worker does.
	 */
	BackgroundWorkerInitializeConnectionByOid(sh->dboid, sh->authenticated_user_id, 0);
	SetSessionAuthorization(sh->session_user_id, sh->session_user_is_superuser);
	SetCurrentRoleId(sh->outer_user_id, sh->outer_user_is_superuser);
	SetUserIdAndSecContext(sh->current_user_id, sh->sec_context);
	/* every statement the session runs: no object another role planted */
	bs_spi_session_search_path();
	pgstat_report_appname(psprintf("%s %d", sh->what, n + 1));
	before_shmem_exit(drop_session_table, (Datum) 0);

	PG_TRY();
	{
		/* the limits, counted again with this session among them */
		StartTransactionCommand();
		bs_session_limits_recheck(sh->what, sh->max_sessions);
		CommitTransactionCommand();
		if (sh->time_wal_io)
			(void) set_config_option("track_wal_io_timing", "on",
									 PGC_SUSET, PGC_S_SESSION, GUC_ACTION_SET,
									 true, 0, false);
		body(sh, slot, n);
		/* the session's statistics reach the server before it says done */
		pgstat_report_stat(true);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(TopMemoryContext);
		edata = CopyErrorData();
		FlushErrorState();
		strlcpy(slot->error, edata->message ? edata->message : "(no message)",
				sizeof(slot->error));
		slot->sqlerrcode = edata->sqlerrcode;
		pg_write_barrier();
		slot->failed = true;
		AbortOutOfAnyTransaction();
	}
	PG_END_TRY();

	drop_session_table(0, (Datum) 0);
	pg_write_barrier();
	slot->done = true;
	ConditionVariableBroadcast(&sh->cv);
	dsm_detach(seg);
	proc_exit(0);
}

/* ---------------------------------------------------------------------
 * The caller
 * ---------------------------------------------------------------------
 */

/* The duration argument at argno: 100 ms .. 1 hour, in microseconds. */
int64
bs_sessions_duration_arg(FunctionCallInfo fcinfo, int argno)
{
	double		us;

	bs_require_arg(fcinfo, argno, "duration");
	us = bs_interval_us(PG_GETARG_INTERVAL_P(argno));
	if (us < 100000 || us > (double) BS_SESSIONS_MAX_RUN_US)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("duration must be between 100 ms and 1 hour")));
	return (int64) us;
}

/*
 * More sessions than max_worker_processes can never start: refused before
 * anything does.  noun: "session", "client".
 */
void
bs_sessions_check_workers(const char *noun, int nsessions)
{
	if (nsessions > max_worker_processes)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("%d %ss need %d background workers, but max_worker_processes is %d",
						nsessions, noun, nsessions, max_worker_processes),
				 errdetail("Each %s is a background worker, as are parallel workers and some extensions' processes.",
						   noun),
				 errhint("Raise max_worker_processes (a restart is needed), or ask for fewer %ss.",
						 noun)));
}

/* A function that cannot read a table: an immutable built-in. */
static bool
not_builtin_immutable(Oid funcid, void *context)
{
	return funcid >= FirstGenbkiObjectId ||
		func_volatile(funcid) != PROVOLATILE_IMMUTABLE;
}

/*
 * Could evaluating this expression read a table?  Any function but an
 * immutable built-in could, and so could a domain's check or a subplan.
 */
static bool
could_read_tables(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, CoerceToDomain) || IsA(node, SubPlan) ||
		IsA(node, AlternativeSubPlan))
		return true;
	if (check_functions_in_node(node, not_builtin_immutable, context))
		return true;
	return bs_expression_tree_walker(node, could_read_tables, context);
}

/*
 * Stop the caller's statement from holding back the pruning of the
 * sessions' old row versions while they run.
 *
 * A statement holds a snapshot for as long as it runs, and the backend's
 * xmin keeps every row version deleted after it from being pruned.  For
 * bench_tpcb that is every update of pgbench_branches and pgbench_tellers
 * during the run: their few rows grow long update chains that each
 * transaction walks (about six times pgbench's buffer hits per
 * transaction on this project's machine), a workload pgbench, whose
 * client holds no snapshot, never sees.
 *
 * May the caller's xmin be given up?  Only where nothing can read with
 * the statement's snapshot afterwards: READ COMMITTED (each later
 * statement takes a new snapshot), outside a transaction block, no
 * transaction id assigned, and the statement a plain SELECT over this
 * one function call, made by the function scan itself, whose snapshot is
 * the active one: no other relation, no subquery, and nothing in its
 * output list or qualification that could read a table (only immutable
 * built-in functions).  run_sessions gives it up once the sessions are
 * ready, after the last catalog access before the run: it drops the
 * catalog snapshot, and then requires that no other snapshot is
 * registered (a cursor's, or an earlier portal's, as the extended
 * protocol can bind one before this statement runs) and that the active
 * snapshot is pushed once (not shared with an outer query, as a PL/pgSQL
 * cursor loop over this function shares it).  A later catalog or SPI
 * access takes a fresh snapshot, as GetSnapshotData does whenever the
 * backend has no xmin.  Where any condition fails nothing changes, and
 * the caller says so in its notes.
 */
bool
bs_sessions_may_release_xmin(FunctionCallInfo fcinfo)
{
	Portal		portal = ActivePortal;
	QueryDesc  *qd;
	PlannedStmt *pstmt;
	FunctionScan *scan;
	RangeTblFunction *rtfunc;

	if (XactIsoLevel != XACT_READ_COMMITTED || IsTransactionBlock() ||
		TransactionIdIsValid(GetTopTransactionIdIfAny()))
		return false;
	if (portal == NULL || portal->strategy != PORTAL_ONE_SELECT ||
		portal->queryDesc == NULL || !ActiveSnapshotSet() ||
		GetActiveSnapshot() != portal->queryDesc->snapshot)
		return false;
	qd = portal->queryDesc;
	pstmt = qd->plannedstmt;
	if (pstmt == NULL || pstmt->commandType != CMD_SELECT ||
		pstmt->subplans != NIL || list_length(pstmt->rtable) != 1 ||
		pstmt->planTree == NULL || !IsA(pstmt->planTree, FunctionScan))
		return false;
	scan = (FunctionScan *) pstmt->planTree;
	if (scan->scan.plan.initPlan != NIL || scan->scan.plan.lefttree != NULL ||
		list_length(scan->functions) != 1 ||
		could_read_tables((Node *) scan->scan.plan.qual, NULL) ||
		could_read_tables((Node *) scan->scan.plan.targetlist, NULL))
		return false;

	/*
	 * This call must be that function scan's own, not one nested in an
	 * argument's evaluation (a STABLE function's SPI reuses the outer
	 * snapshot and portal): the executor set fn_expr to the plan's node.
	 */
	rtfunc = linitial_node(RangeTblFunction, scan->functions);
	if (rtfunc->funcexpr == NULL || !IsA(rtfunc->funcexpr, FuncExpr) ||
		((FuncExpr *) rtfunc->funcexpr)->funcid != fcinfo->flinfo->fn_oid ||
		fcinfo->flinfo->fn_expr != rtfunc->funcexpr)
		return false;

	return true;
}

/* A sentence appended to a run's notes. */
void
bs_sessions_add_note(StringInfo notes, const char *sentence)
{
	if (notes->len > 0)
		appendStringInfoChar(notes, ' ');
	appendStringInfoString(notes, sentence);
}

/*
 * Whether pg_wal, where every commit waits for its WAL to be flushed, is
 * on the filesystem of tablespace spc: 1 yes, 0 no, -1 unknown.  Paths are
 * relative to the data directory, the backend's working directory; stat()
 * follows pg_wal's and the tablespace's symbolic links.
 */
int
bs_sessions_wal_shares_filesystem(Oid spc)
{
	struct stat wal;
	struct stat tbs;
	char	   *dir = bs_tablespace_dir(spc);

	if (stat(XLOGDIR, &wal) != 0 || stat(dir, &tbs) != 0)
		return -1;
	return wal.st_dev == tbs.st_dev ? 1 : 0;
}

/* The server's WAL flushes and their time, from its statistics. */
void
bs_sessions_read_wal_flushes(BsWalFlushes *f)
{
	const char *sql;
	BsSpi		spi;

#if PG_VERSION_NUM >= 180000
	sql = "SELECT pg_catalog.sum(fsyncs)::pg_catalog.float8, pg_catalog.sum(fsync_time)::pg_catalog.float8 "
		"FROM pg_catalog.pg_stat_io WHERE object OPERATOR(pg_catalog.=) 'wal'";
#else
	sql = "SELECT wal_sync::pg_catalog.float8, wal_sync_time::pg_catalog.float8 FROM pg_catalog.pg_stat_wal";
#endif
	memset(f, 0, sizeof(*f));
	bs_spi_connect(&spi);
	if (bs_spi_execute("SELECT pg_catalog.pg_stat_clear_snapshot()", true, 0) == SPI_OK_SELECT &&
		bs_spi_execute(sql, true, 1) == SPI_OK_SELECT && SPI_processed == 1)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

		if (!isnull)
		{
			f->known = true;
			f->flushes = DatumGetFloat8(d);
			d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull);
			f->flush_ms = isnull ? get_float8_nan() : DatumGetFloat8(d);
		}
	}
	bs_spi_finish(&spi);
}

/*
 * The shared memory of a run of nsessions, with the caller's identity;
 * the workload's own fields are the caller's to fill before
 * bs_sessions_execute.
 */
BsSessionsRun *
bs_sessions_create(BsWorkload workload, const char *worker_function,
				   const char *what, const char *noun, int nsessions)
{
	BsSessionsRun *r = palloc0(sizeof(BsSessionsRun));
	BsSessionsShared *sh;
	Size		size;

	size = add_size(offsetof(BsSessionsShared, slots),
					mul_size(sizeof(BsSessionSlot), nsessions));
	r->seg = dsm_create(size, 0);
	sh = dsm_segment_address(r->seg);
	memset(sh, 0, size);
	sh->workload = workload;
	strlcpy(sh->worker_function, worker_function, sizeof(sh->worker_function));
	strlcpy(sh->what, what, sizeof(sh->what));
	strlcpy(sh->noun, noun, sizeof(sh->noun));
	sh->dboid = MyDatabaseId;
	sh->authenticated_user_id = GetAuthenticatedUserId();
	sh->session_user_id = GetSessionUserId();
	sh->session_user_is_superuser = bs_session_user_is_superuser();
	sh->outer_user_id = GetCurrentRoleId();
	if (!OidIsValid(sh->outer_user_id))
		sh->outer_user_id = sh->session_user_id;
	sh->outer_user_is_superuser = superuser_arg(sh->outer_user_id);
	GetUserIdAndSecContext(&sh->current_user_id, &sh->sec_context);
	sh->leader_pid = MyProcPid;
	sh->nsessions = nsessions;
	sh->max_sessions = superuser() ? -1 : bs_max_user_sessions;
	sh->time_wal_io = superuser();
	sh->track_latency = bs_track_latency;
	pg_atomic_init_u32(&sh->go, 0);
	pg_atomic_init_u32(&sh->ramp_over, 0);
	pg_atomic_init_u32(&sh->stop, 0);
	pg_atomic_init_u64(&sh->commits, 0);
	pg_atomic_init_u64(&sh->wal_bytes, 0);
	pg_atomic_init_u64(&sh->wal_fpi, 0);
	ConditionVariableInit(&sh->cv);
	for (int i = 0; i < nsessions; i++)
		bs_hist_reset(&sh->slots[i].hist);
	r->sh = sh;
	r->handles = palloc0(sizeof(BackgroundWorkerHandle *) * nsessions);
	return r;
}

/* Stop every session and wait (at most a few seconds) for them to end. */
static void
stop_sessions(BsSessionsShared *sh, BackgroundWorkerHandle **handles, int nstarted)
{
	pg_atomic_write_u32(&sh->stop, 1);
	ConditionVariableBroadcast(&sh->cv);
	for (int i = 0; i < nstarted; i++)
	{
		pid_t		pid;

		for (int waited = 0; waited < 5000; waited += 10)
		{
			if (GetBackgroundWorkerPid(handles[i], &pid) == BGWH_STOPPED)
				break;
			if (waited == 1000)
				TerminateBackgroundWorker(handles[i]);
			pg_usleep(10000);
		}
	}
}

/* A session's error, raised under its name. */
static void
raise_session_error(BsSessionsShared *sh, int n)
{
	BsSessionSlot *slot = &sh->slots[n];

	pg_read_barrier();
	ereport(ERROR,
			(errcode(slot->sqlerrcode ? slot->sqlerrcode : ERRCODE_INTERNAL_ERROR),
			 errmsg("%s %d of %d failed", sh->what, n + 1, sh->nsessions),
			 errdetail("%s", slot->error)));
}

/*
 * Look at every session: a failed one raises its error, one that ended
 * without saying so (terminated, crashed) fails the run.  Returns how many
 * are ready, and sets *done to how many are done.
 */
static int
check_sessions(BsSessionsShared *sh, BackgroundWorkerHandle **handles, int *done)
{
	int			ready = 0;

	*done = 0;
	for (int i = 0; i < sh->nsessions; i++)
	{
		BsSessionSlot *slot = &sh->slots[i];
		pid_t		pid;
		bool		stopped = GetBackgroundWorkerPid(handles[i], &pid) == BGWH_STOPPED;

		pg_read_barrier();
		if (slot->failed)
			raise_session_error(sh, i);
		if (slot->done)
			(*done)++;
		else if (stopped)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("%s %d of %d exited before the run ended",
							sh->what, i + 1, sh->nsessions),
					 errhint("It was terminated, or failed without a word: more details may be available in the server log.")));
		if (slot->ready)
			ready++;
	}
	return ready;
}

/* The time series' counts: transactions so far, and the WAL they wrote. */
static void
sessions_sample_counts(void *arg, BsSampleCounts *c)
{
	BsSessionsShared *sh = (BsSessionsShared *) arg;

	memset(c, 0, sizeof(*c));
	INSTR_TIME_SET_CURRENT(c->now);
	c->ops = pg_atomic_read_u64(&sh->commits);
	c->bytes = pg_atomic_read_u64(&sh->wal_bytes);
	c->have_split = true;
	c->write_bytes = c->bytes;
}

/* The time series' latency: every session's histogram so far, summed. */
static void
sessions_sample_hist(void *arg, BsHistogram *cumulative)
{
	BsSessionsShared *sh = (BsSessionsShared *) arg;
	BsHistogram one;

	bs_hist_reset(cumulative);
	for (int i = 0; i < sh->nsessions; i++)
	{
		bs_hist_copy_volatile(&one, &sh->slots[i].hist);
		bs_hist_merge(cumulative, &one);
	}
}

/* Checkpoints the server has made so far (timed and requested); -1: unknown. */
static int64
read_checkpoints(void)
{
	int64		n = -1;
	bool		isnull;
	BsSpi		spi;

	bs_spi_connect(&spi);
	if (bs_spi_execute("SELECT pg_catalog.pg_stat_clear_snapshot()", true, 0) == SPI_OK_SELECT &&
#if PG_VERSION_NUM >= 170000
		bs_spi_execute("SELECT (num_timed OPERATOR(pg_catalog.+) num_requested)::pg_catalog.int8 FROM pg_catalog.pg_stat_checkpointer",
					true, 1) == SPI_OK_SELECT &&
#else
		bs_spi_execute("SELECT (checkpoints_timed OPERATOR(pg_catalog.+) checkpoints_req)::pg_catalog.int8 FROM pg_catalog.pg_stat_bgwriter",
					true, 1) == SPI_OK_SELECT &&
#endif
		SPI_processed == 1)
	{
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

		if (!isnull)
			n = DatumGetInt64(d);
	}
	bs_spi_finish(&spi);
	return n;
}

/*
 * Give up the caller's xmin where bs_sessions_may_release_xmin allowed it
 * and nothing since has registered a snapshot: the clients' old row
 * versions can then be pruned while they run.  Only where no catalog
 * access follows before the run ends, or again after it (a catalog
 * snapshot taken while no transaction had completed since the statement's
 * own would bring the xmin back).  Once it is given up, nothing may read
 * a table with the statement's snapshot any more (SPI with read_only
 * does): its rows may be pruned.  Reading the server's statistics is
 * safe.
 */
static void
release_caller_xmin(BsSessionsRun *r)
{
	if (!r->release_xmin)
		return;
	InvalidateCatalogSnapshot();
	if (ThereAreNoPriorRegisteredSnapshots() &&
		GetActiveSnapshot()->active_count == 1)
		MyProc->xmin = InvalidTransactionId;
	else
		r->release_xmin = false;
}

/*
 * Where the figures start (at go, or at the ramp's end): the server's WAL
 * flushes and checkpoints so far.
 */
static void
read_server_counts(BsSessionsRun *r)
{
	bs_sessions_read_wal_flushes(&r->flushes_before);
	r->checkpoints_before = read_checkpoints();
}

/*
 * After the run: each session's figures less what it did in the ramp.
 */
static void
leave_out_ramp(BsSessionsRun *r)
{
	BsSessionsShared *sh = r->sh;

	if (r->steady.ramp_us == 0)
		return;
	for (int i = 0; i < sh->nsessions; i++)
	{
		BsSessionSlot *slot = &sh->slots[i];

		/* every session that ended looked for the ramp's end first */
		if (!slot->ramped)
			elog(ERROR, "%s %d did not see its ramp end", sh->what, i + 1);
		slot->commits -= slot->ramp_commits;
		slot->wal_records -= slot->ramp_wal_records;
		slot->wal_fpi -= slot->ramp_wal_fpi;
		slot->wal_bytes -= slot->ramp_wal_bytes;
		slot->hist = slot->measured;
	}
}

/*
 * The steady-state columns of a row (steady_state, steady_at_ms,
 * steady_criterion at col_state and the two after it), and the note of a
 * run that did not reach steady state.
 */
void
bs_sessions_steady_columns(BsSessionsRun *r, Datum *values, bool *nulls,
						   int col_state, StringInfo notes)
{
	BsSteady   *ss = r->steady.judge;

	if (ss == NULL)
	{
		nulls[col_state] = nulls[col_state + 1] = nulls[col_state + 2] = true;
		return;
	}
	values[col_state] = BoolGetDatum(ss->reached);
	if (ss->reached)
		values[col_state + 1] = Float8GetDatum(bs_round(ss->reached_at_ms, 3));
	else
	{
		nulls[col_state + 1] = true;
		bs_sessions_add_note(notes, bs_steady_shortfall(ss, r->elapsed_ms));
	}
	values[col_state + 2] = CStringGetTextDatum(ss->text);
}

/* Has every session seen the ramp end (and sent its statistics)? */
static bool
all_ramped(BsSessionsShared *sh)
{
	for (int i = 0; i < sh->nsessions; i++)
	{
		pg_read_barrier();
		if (!sh->slots[i].ramped)
			return false;
	}
	return true;
}

/* Microseconds from start to now. */
static int64
us_since(instr_time start, instr_time now)
{
	INSTR_TIME_SUBTRACT(now, start);
	return (int64) INSTR_TIME_GET_MICROSEC(now);
}

static bool
past_us(instr_time start, instr_time now, int64 us)
{
	return us_since(start, now) >= us;
}

/*
 * The run, from the sessions' start to their end: untimed start, the
 * timed run, untimed end.  Everything it measures goes into r.
 */
static void
run_sessions(BsSessionsRun *r)
{
	BsSessionsShared *sh = r->sh;
	instr_time	connect_start;
	instr_time	connect_end;

	/* untimed: start the sessions and wait until each is ready */
	INSTR_TIME_SET_CURRENT(connect_start);
	for (int i = 0; i < sh->nsessions; i++)
	{
		BackgroundWorker worker;
		pid_t		pid;

		memset(&worker, 0, sizeof(worker));
		worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
		worker.bgw_start_time = BgWorkerStart_ConsistentState;
		worker.bgw_restart_time = BGW_NEVER_RESTART;
		snprintf(worker.bgw_library_name, BGW_MAXLEN, "benchstore");
		strlcpy(worker.bgw_function_name, sh->worker_function, BGW_MAXLEN);
		snprintf(worker.bgw_name, BGW_MAXLEN, "%s %d", sh->what, i + 1);
		snprintf(worker.bgw_type, BGW_MAXLEN, "%s", sh->what);
		worker.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(r->seg));
		worker.bgw_notify_pid = MyProcPid;
		memcpy(worker.bgw_extra, &i, sizeof(int));
		if (!RegisterDynamicBackgroundWorker(&worker, &r->handles[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("only %d of %d %ss could start", i, sh->nsessions, sh->what),
					 errdetail("Each %s is a background worker; max_worker_processes is %d, and the others are in use by parallel workers, other runs or extensions.",
							   sh->noun, max_worker_processes),
					 errhint("Ask for fewer %ss, or raise max_worker_processes (a restart is needed).",
							 sh->noun)));
		r->nstarted++;
		if (WaitForBackgroundWorkerStartup(r->handles[i], &pid) != BGWH_STARTED)
		{
			/*
			 * A session that started, failed and exited before this wait
			 * saw it running is reported stopped: its own error, or an
			 * earlier session's, is what the caller must see.
			 */
			for (int j = 0; j <= i; j++)
			{
				pg_read_barrier();
				if (sh->slots[j].failed)
					raise_session_error(sh, j);
			}
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("%s %d of %d could not start", sh->what, i + 1, sh->nsessions),
					 errhint("More details may be available in the server log.")));
		}
	}
	for (int waited_ms = 0;; waited_ms += BS_SESSIONS_CHECK_MS)
	{
		int			done;
		int			ready = check_sessions(sh, r->handles, &done);

		if (ready == sh->nsessions)
			break;
		if (waited_ms > BS_SESSIONS_START_S * 1000)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("%ss were not ready after %d s", sh->what, BS_SESSIONS_START_S)));
		CHECK_FOR_INTERRUPTS();
		(void) ConditionVariableTimedSleep(&sh->cv, BS_SESSIONS_CHECK_MS, PG_WAIT_EXTENSION);
	}
	ConditionVariableCancelSleep();
	INSTR_TIME_SET_CURRENT(connect_end);
	INSTR_TIME_SUBTRACT(connect_end, connect_start);
	r->connect_ms = INSTR_TIME_GET_MILLISEC(connect_end);

	if (r->after_checkpoint)
		RequestCheckpoint(BS_CHECKPOINT_NOW | CHECKPOINT_FORCE | CHECKPOINT_WAIT);

	/* timed */
	bs_series_init(&r->series);
	if (r->steady.judge)
		bs_steady_reset(r->steady.judge);
	r->first_us = r->sample_interval_us > 0 ? r->sample_interval_us : USECS_PER_SEC;
	r->ramped = (r->steady.ramp_us == 0);
	if (r->ramped)
		read_server_counts(r);
	release_caller_xmin(r);
	INSTR_TIME_SET_CURRENT(r->start);
	r->measure_start = r->start;
	bs_sampler_begin(&r->sampler, r->sample_interval_us, sessions_sample_counts, sh,
					 &r->series, sh->workload == BS_WORKLOAD_TPCB ? "tpcb" : "commit");
	if (sh->track_latency)
		bs_sampler_set_latency(&r->sampler, sessions_sample_hist);
	pg_atomic_write_u32(&sh->go, 1);
	ConditionVariableBroadcast(&sh->cv);
	for (;;)
	{
		instr_time	now;
		int64		since_us;
		int64		left_us;
		int			nsamples = r->series.nsamples;
		int			done;

		CHECK_FOR_INTERRUPTS();
		INSTR_TIME_SET_CURRENT(now);
		bs_sampler_check(&r->sampler, now);
		if (!r->ramped && past_us(r->start, now, r->steady.ramp_us))
		{
			/* the ramp is over: the sessions see it before their next transaction */
			(void) pg_atomic_exchange_u32(&sh->ramp_over, 1);
			r->ramped = true;
			r->counts_pending = true;
			r->measure_start = now;
		}
		/* the server's counts, once every session has sent the ramp's */
		if (r->counts_pending && all_ramped(sh))
		{
			r->counts_pending = false;
			read_server_counts(r);
			release_caller_xmin(r);
		}
		since_us = us_since(r->start, now);
		if (!r->first_taken && since_us >= r->first_us)
		{
			r->first_commits = pg_atomic_read_u64(&sh->commits);
			r->first_wal_bytes = pg_atomic_read_u64(&sh->wal_bytes);
			r->first_fpi = pg_atomic_read_u64(&sh->wal_fpi);
			r->first_taken = true;
		}
		(void) check_sessions(sh, r->handles, &done);
		if (done > 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("a %s ended before the run did", sh->what),
					 errhint("Its caller could not be found: more details may be available in the server log.")));
		/* steady state, judged at each new sample; until it holds, the end */
		if (r->steady.judge && r->series.nsamples > nsamples &&
			!r->steady.judge->reached &&
			bs_steady_check(r->steady.judge, &r->series) &&
			r->steady.until_steady)
			break;
		/* the duration counts from the ramp's end; a ramp is never cut short */
		if (r->ramped)
		{
			left_us = r->duration_us - us_since(r->measure_start, now);
			if (left_us <= 0)
				break;
		}
		else
			left_us = r->steady.ramp_us - since_us;
		/* wake for the next sample on time, too */
		if (r->sampler.interval_us > 0)
			left_us = Min(left_us, r->sampler.next_tick_us -
						  us_since(r->sampler.start, now));
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Max(1, Min(left_us, (int64) 10000) / 1000),
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	/* a session still in its first transaction after the ramp: read now */
	if (r->counts_pending)
	{
		r->counts_pending = false;
		read_server_counts(r);
	}
	pg_atomic_write_u32(&sh->stop, 1);
	ConditionVariableBroadcast(&sh->cv);
	INSTR_TIME_SET_CURRENT(r->elapsed);
	INSTR_TIME_SUBTRACT(r->elapsed, r->measure_start);
	r->elapsed_ms = INSTR_TIME_GET_MILLISEC(r->elapsed);

	/* untimed: the sessions end, their tables dropped, their statistics sent */
	for (;;)
	{
		int			done;

		(void) check_sessions(sh, r->handles, &done);
		if (done == sh->nsessions)
			break;
		CHECK_FOR_INTERRUPTS();
		(void) ConditionVariableTimedSleep(&sh->cv, BS_SESSIONS_CHECK_MS, PG_WAIT_EXTENSION);
	}
	ConditionVariableCancelSleep();
	/*
	 * The last sample, from the last tick to the sessions' end, holds their
	 * shutdown: kept in the series, never judged.
	 */
	bs_sampler_end(&r->sampler);
}

/*
 * Run the sessions; on any error (a cancel, a timeout, a session's) stop
 * every one of them before the error goes on.  The server's WAL flushes
 * are read on both sides of the timed run.
 */
void
bs_sessions_execute(BsSessionsRun *r)
{
	PG_TRY();
	{
		run_sessions(r);
	}
	PG_CATCH();
	{
		HOLD_INTERRUPTS();
		stop_sessions(r->sh, r->handles, r->nstarted);
		RESUME_INTERRUPTS();
		PG_RE_THROW();
	}
	PG_END_TRY();
	stop_sessions(r->sh, r->handles, r->nstarted);
	bs_sessions_read_wal_flushes(&r->flushes_after);
	r->checkpoints_after = read_checkpoints();
	leave_out_ramp(r);
}
