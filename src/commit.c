/*-------------------------------------------------------------------------
 *
 * commit.c
 *	  bench_commit: the commit path under concurrency.  N sessions, each a
 *	  dynamic background worker connected to the caller's database as the
 *	  caller, commit tiny transactions (one insert each into a table of
 *	  the run's own) through the server's real WAL path for a duration;
 *	  commits per second, the commit latency distribution, WAL bytes and
 *	  full-page images per commit, and the group-commit factor (commits per
 *	  WAL flush).
 *
 * Each session creates its own table, _bench_commit_<caller pid>_<n>, in
 * the schema the caller's CREATE TABLE would use and the tablespace
 * asked for, inserts one row untimed, says it is ready and waits.  The
 * caller, once every session is ready (and, with after_checkpoint, after
 * a checkpoint), starts its clock and lets them go.  Each session then
 * runs, until told to stop: start a transaction, insert a row of the
 * payload's size, commit, with the commit timed (CommitTransactionCommand:
 * the commit record written and, under synchronous_commit = on, flushed).
 * Its WAL bytes, records and full-page images come from its own
 * pgWalUsage, exact for the run's own transactions.  WAL flushes are the
 * server's (pg_stat_wal on 15-17, pg_stat_io's WAL rows on 18) over the
 * run: group commit is a server's property, and the WAL writer's flushes
 * count.
 *
 * A session's table is dropped when it exits, however it exits (a
 * before_shmem_exit callback: after an error, a cancel, the caller's
 * termination); a table a crash left behind is dropped by the next call
 * of its owner (its creator is no longer running).  A session stops
 * within 100 ms of the caller's cancel, error or end: it checks a stop
 * flag between transactions and the caller's process every 100 ms.  A
 * session's error fails the run, naming the session.
 *
 * src/commit.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "benchstore.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_namespace.h"
#include "commands/tablespace.h"
#include "compat.h"
#include "executor/instrument.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "nodes/makefuncs.h"
#include "postmaster/bgworker.h"
#include "postmaster/bgwriter.h"
#include "postmaster/interrupt.h"
#include "series.h"
#include "storage/condition_variable.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "tcop/tcopprot.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

PG_FUNCTION_INFO_V1(bench_commit);
PGDLLEXPORT void bench_commit_worker(Datum main_arg);

#define BS_COMMIT_MAX_SESSIONS	64
#define BS_COMMIT_MAX_PAYLOAD	(1024 * 1024)
/* how often a session looks for its caller, and the caller for news */
#define BS_COMMIT_CHECK_MS		100
/* the longest a session may take to start and get ready */
#define BS_COMMIT_START_S		60

static const char *const sync_commit_values[] = {
	"on", "off", "local", "remote_write", "remote_apply"
};

/* One session's figures, written by it, read by the caller at the end. */
typedef struct BsCommitSlot
{
	int			pid;
	bool		ready;
	bool		done;
	bool		failed;
	int			sqlerrcode;
	char		error[512];
	uint64		commits;
	uint64		wal_records;
	uint64		wal_fpi;
	uint64		wal_bytes;
	BsHistogram hist;			/* commit latency, ns */
} BsCommitSlot;

typedef struct BsCommitShared
{
	Oid			dboid;
	/* who the caller is, restored in each session as a parallel worker does */
	Oid			authenticated_user_id;
	Oid			session_user_id;
	bool		session_user_is_superuser;
	Oid			outer_user_id;
	bool		outer_user_is_superuser;
	Oid			current_user_id;
	int			sec_context;
	Oid			spcoid;			/* InvalidOid: the database's default */
	int			leader_pid;
	int			nsessions;
	int			payload_bytes;
	bool		time_wal_io;	/* sessions set track_wal_io_timing */
	bool		track_latency;	/* the caller's benchstore.track_latency */
	char		nspname[NAMEDATALEN];
	char		spcname[NAMEDATALEN];
	char		synchronous_commit[16];
	pg_atomic_uint32 go;
	pg_atomic_uint32 stop;
	ConditionVariable cv;		/* ready, go, done, failed */
	/* running totals, for the time series and the first interval */
	pg_atomic_uint64 commits;
	pg_atomic_uint64 wal_bytes;
	pg_atomic_uint64 wal_fpi;
	BsCommitSlot slots[FLEXIBLE_ARRAY_MEMBER];
} BsCommitShared;

/* Result columns, in the order of the OUT parameters. */
enum
{
	COL_SESSIONS,
	COL_SYNCHRONOUS_COMMIT,
	COL_TABLESPACE,
	COL_PAYLOAD_BYTES,
	COL_ELAPSED_MS,
	COL_COMMITS,
	COL_COMMITS_PER_S,
	COL_LAT_AVG_US,
	COL_LAT_P50_US,
	COL_LAT_P95_US,
	COL_LAT_P99_US,
	COL_LAT_P999_US,
	COL_LAT_MAX_US,
	COL_WAL_BYTES,
	COL_WAL_BYTES_PER_COMMIT,
	COL_WAL_FPI,
	COL_FPI_PER_COMMIT,
	COL_WAL_FLUSHES,
	COL_COMMITS_PER_FLUSH,
	COL_WAL_FLUSH_AVG_US,
	COL_FIRST_WAL_BYTES_PER_COMMIT,
	COL_FIRST_FPI_PER_COMMIT,
	COL_STEADY_WAL_BYTES_PER_COMMIT,
	COL_STEADY_FPI_PER_COMMIT,
	COL_HISTOGRAM,
	COL_NOTES,
	BS_COMMIT_NCOLS
};

/* ---------------------------------------------------------------------
 * The session (a dynamic background worker)
 * ---------------------------------------------------------------------
 */

/* What the exit callback needs to drop the session's table. */
static char *session_table = NULL;

static char *
run_table_name(int leader_pid, int n)
{
	return psprintf("_bench_commit_%d_%d", leader_pid, n);
}

/* Run one statement through SPI in a transaction of its own. */
static void
run_in_transaction(const char *sql)
{
	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	if (SPI_execute(sql, false, 0) < 0)
		elog(ERROR, "SPI_execute failed: %s", sql);
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/*
 * Exit callback: drop the session's table, whatever ended the session (an
 * error, a termination, the end of the run).  A failure is logged; the
 * caller's next call drops what is left.
 */
static void
drop_session_table(int code, Datum arg)
{
	char	   *sql;

	if (session_table == NULL)
		return;
	sql = psprintf("DROP TABLE IF EXISTS %s", session_table);
	AbortOutOfAnyTransaction();
	PG_TRY();
	{
		run_in_transaction(sql);
	}
	PG_CATCH();
	{
		EmitErrorReport();
		FlushErrorState();
		AbortOutOfAnyTransaction();
	}
	PG_END_TRY();
	session_table = NULL;
}

/* Is the caller still running?  Takes ProcArrayLock: every 100 ms only. */
static bool
leader_alive(BsCommitShared *sh)
{
	return BackendPidGetProc(sh->leader_pid) != NULL;
}

static void
session_run(BsCommitShared *sh, BsCommitSlot *slot, int n)
{
	const char *nsp = quote_identifier(sh->nspname);
	char	   *name = run_table_name(sh->leader_pid, n);
	char	   *payload;
	SPIPlanPtr	plan;
	Oid			argtypes[2] = {INT8OID, TEXTOID};
	Datum		args[2];
	instr_time	last_check;
	int64		id = 1;

	(void) set_config_option("synchronous_commit", sh->synchronous_commit,
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SET,
							 true, 0, false);
	if (sh->time_wal_io)
		(void) set_config_option("track_wal_io_timing", "on",
								 PGC_SUSET, PGC_S_SESSION, GUC_ACTION_SET,
								 true, 0, false);

	/* the payload: text of the size asked, of random digits (the WAL holds it) */
	payload = MemoryContextAlloc(TopMemoryContext, VARHDRSZ + sh->payload_bytes);
	SET_VARSIZE(payload, VARHDRSZ + sh->payload_bytes);
	for (int i = 0; i < sh->payload_bytes; i++)
		VARDATA(payload)[i] = "0123456789abcdef"[random() & 15];
	args[1] = PointerGetDatum(payload);

	session_table = MemoryContextStrdup(TopMemoryContext,
										psprintf("%s.%s", nsp, quote_identifier(name)));
	run_in_transaction(psprintf("CREATE TABLE %s (id bigint, payload text) %s %s;"
								"COMMENT ON TABLE %s IS 'benchstore bench_commit run table'",
								session_table,
								"WITH (autovacuum_enabled = off)",
								OidIsValid(sh->spcoid) ?
								psprintf("TABLESPACE %s", quote_identifier(sh->spcname)) : "",
								session_table));

	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	plan = SPI_prepare(psprintf("INSERT INTO %s VALUES ($1, $2)", session_table),
					   2, argtypes);
	if (plan == NULL || SPI_keepplan(plan) != 0)
		elog(ERROR, "could not prepare the insert into %s", session_table);
	/* a first row, untimed: the table's first page exists */
	args[0] = Int64GetDatum(0);
	if (SPI_execute_plan(plan, args, NULL, false, 0) != SPI_OK_INSERT)
		elog(ERROR, "insert into %s failed", session_table);
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();

	slot->pid = MyProcPid;
	pg_write_barrier();
	slot->ready = true;
	ConditionVariableBroadcast(&sh->cv);

	/* wait for the clock, or for the caller to give up */
	while (pg_atomic_read_u32(&sh->go) == 0 && pg_atomic_read_u32(&sh->stop) == 0)
	{
		CHECK_FOR_INTERRUPTS();
		(void) ConditionVariableTimedSleep(&sh->cv, BS_COMMIT_CHECK_MS, PG_WAIT_EXTENSION);
		if (!leader_alive(sh))
			break;
	}
	ConditionVariableCancelSleep();

	INSTR_TIME_SET_CURRENT(last_check);
	while (pg_atomic_read_u32(&sh->stop) == 0 && pg_atomic_read_u32(&sh->go) != 0)
	{
		WalUsage	before = pgWalUsage;
		instr_time	t0;
		instr_time	t1;

		CHECK_FOR_INTERRUPTS();
		StartTransactionCommand();
		SPI_connect();
		PushActiveSnapshot(GetTransactionSnapshot());
		args[0] = Int64GetDatum(id++);
		if (SPI_execute_plan(plan, args, NULL, false, 0) != SPI_OK_INSERT)
			elog(ERROR, "insert into %s failed", session_table);
		SPI_finish();
		PopActiveSnapshot();
		if (sh->track_latency)
		{
			INSTR_TIME_SET_CURRENT(t0);
			CommitTransactionCommand();
			INSTR_TIME_SET_CURRENT(t1);
			bs_hist_add(&slot->hist, bs_instr_time_ns(t1) - bs_instr_time_ns(t0));
		}
		else
			CommitTransactionCommand();
		slot->commits++;
		slot->wal_records += pgWalUsage.wal_records - before.wal_records;
		slot->wal_fpi += pgWalUsage.wal_fpi - before.wal_fpi;
		slot->wal_bytes += pgWalUsage.wal_bytes - before.wal_bytes;
		pg_atomic_fetch_add_u64(&sh->commits, 1);
		pg_atomic_fetch_add_u64(&sh->wal_bytes, pgWalUsage.wal_bytes - before.wal_bytes);
		pg_atomic_fetch_add_u64(&sh->wal_fpi, pgWalUsage.wal_fpi - before.wal_fpi);

		/* the caller, every 100 ms (the clock every 8 commits) */
		if ((slot->commits & 7) == 0)
		{
			INSTR_TIME_SET_CURRENT(t1);
			INSTR_TIME_SUBTRACT(t1, last_check);
			if (INSTR_TIME_GET_MILLISEC(t1) >= BS_COMMIT_CHECK_MS)
			{
				INSTR_TIME_SET_CURRENT(last_check);
				if (!leader_alive(sh))
					break;
			}
		}
	}

	/* the session's WAL statistics reach the server before it says done */
	pgstat_report_stat(true);
}

/* Entry point of a session. */
void
bench_commit_worker(Datum main_arg)
{
	dsm_segment *seg;
	BsCommitShared *sh;
	BsCommitSlot *slot;
	int			n;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();

	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("bench_commit session could not map its shared memory")));
	sh = dsm_segment_address(seg);
	memcpy(&n, MyBgworkerEntry->bgw_extra, sizeof(int));
	slot = &sh->slots[n];

	/*
	 * Connect as the role that logged in (a role the caller SET ROLE to may
	 * not log in), then become the caller's session, outer and current
	 * user, as a parallel worker does: every right is checked for the role
	 * the caller's own statement would be checked for.
	 */
	BackgroundWorkerInitializeConnectionByOid(sh->dboid, sh->authenticated_user_id, 0);
	SetSessionAuthorization(sh->session_user_id, sh->session_user_is_superuser);
	SetCurrentRoleId(sh->outer_user_id, sh->outer_user_is_superuser);
	SetUserIdAndSecContext(sh->current_user_id, sh->sec_context);
	pgstat_report_appname(psprintf("bench_commit session %d", n + 1));
	before_shmem_exit(drop_session_table, (Datum) 0);

	PG_TRY();
	{
		session_run(sh, slot, n);
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

/* The server's WAL flushes and their time, from its statistics. */
typedef struct BsWalFlushes
{
	bool		known;
	double		flushes;
	double		flush_ms;		/* NaN: not timed */
} BsWalFlushes;

static void
read_wal_flushes(BsWalFlushes *f)
{
	const char *sql;

#if PG_VERSION_NUM >= 180000
	sql = "SELECT sum(fsyncs)::float8, sum(fsync_time)::float8 FROM pg_catalog.pg_stat_io "
		"WHERE object = 'wal'";
#else
	sql = "SELECT wal_sync::float8, wal_sync_time::float8 FROM pg_catalog.pg_stat_wal";
#endif
	memset(f, 0, sizeof(*f));
	SPI_connect();
	if (SPI_execute("SELECT pg_catalog.pg_stat_clear_snapshot()", true, 0) == SPI_OK_SELECT &&
		SPI_execute(sql, true, 1) == SPI_OK_SELECT && SPI_processed == 1)
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
	SPI_finish();
}

/*
 * Tables earlier calls of this role left behind (a crash ends a session
 * without its exit callback): those whose caller is no longer running.
 */
static void
drop_leftover_tables(void)
{
	SPI_connect();
	if (SPI_execute("SELECT pg_catalog.format('DROP TABLE IF EXISTS %I.%I', n.nspname, c.relname) "
					"FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
					"WHERE c.relkind = 'r' AND c.relname ~ '^_bench_commit_[0-9]+_[0-9]+$' "
					"  AND pg_catalog.obj_description(c.oid, 'pg_class') = 'benchstore bench_commit run table' "
					"  AND pg_catalog.pg_has_role(c.relowner, 'USAGE') "
					"  AND NOT EXISTS (SELECT FROM pg_catalog.pg_stat_activity a "
					"                  WHERE a.pid = pg_catalog.split_part(c.relname, '_', 4)::int4)",
					true, 0) == SPI_OK_SELECT)
	{
		List	   *drops = NIL;
		ListCell   *lc;

		for (uint64 i = 0; i < SPI_processed; i++)
			drops = lappend(drops, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
		foreach(lc, drops)
			if (SPI_execute((char *) lfirst(lc), false, 0) != SPI_OK_UTILITY)
				elog(ERROR, "could not drop a bench_commit table left behind: %s",
					 (char *) lfirst(lc));
	}
	SPI_finish();
}

/* Stop every session and wait (at most a few seconds) for them to end. */
static void
stop_sessions(BsCommitShared *sh, BackgroundWorkerHandle **handles, int nstarted)
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
raise_session_error(BsCommitShared *sh, int n)
{
	BsCommitSlot *slot = &sh->slots[n];

	pg_read_barrier();
	ereport(ERROR,
			(errcode(slot->sqlerrcode ? slot->sqlerrcode : ERRCODE_INTERNAL_ERROR),
			 errmsg("bench_commit session %d of %d failed", n + 1, sh->nsessions),
			 errdetail("%s", slot->error)));
}

/*
 * Look at every session: a failed one raises its error, one that ended
 * without saying so (terminated, crashed) fails the run.  Returns how many
 * are ready, and sets *done to how many are done.
 */
static int
check_sessions(BsCommitShared *sh, BackgroundWorkerHandle **handles, int *done)
{
	int			ready = 0;

	*done = 0;
	for (int i = 0; i < sh->nsessions; i++)
	{
		BsCommitSlot *slot = &sh->slots[i];
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
					 errmsg("bench_commit session %d of %d exited before the run ended",
							i + 1, sh->nsessions),
					 errhint("It was terminated, or failed without a word: more details may be available in the server log.")));
		if (slot->ready)
			ready++;
	}
	return ready;
}

/* The time series' counts: commits so far, and the WAL they wrote. */
static void
commit_sample_counts(void *arg, BsSampleCounts *c)
{
	BsCommitShared *sh = (BsCommitShared *) arg;

	memset(c, 0, sizeof(*c));
	INSTR_TIME_SET_CURRENT(c->now);
	c->ops = pg_atomic_read_u64(&sh->commits);
	c->bytes = pg_atomic_read_u64(&sh->wal_bytes);
	c->have_split = true;
	c->write_bytes = c->bytes;
}

static void
add_note(StringInfo notes, const char *sentence)
{
	if (notes->len > 0)
		appendStringInfoChar(notes, ' ');
	appendStringInfoString(notes, sentence);
}

/* A run as the caller conducts it. */
typedef struct BsCommitRun
{
	dsm_segment *seg;
	BackgroundWorkerHandle **handles;
	int			nstarted;
	bool		after_checkpoint;
	int64		duration_us;
	int64		sample_interval_us;
	int64		first_us;
	BsWalFlushes flushes_before;
	BsSeries	series;
	BsSampler	sampler;
	instr_time	start;
	instr_time	elapsed;
	double		elapsed_ms;
	bool		first_taken;
	uint64		first_commits;
	uint64		first_wal_bytes;
	uint64		first_fpi;
} BsCommitRun;

/*
 * The run, from the sessions' start to their end: untimed start, the
 * timed run, untimed end.  Everything it measures goes into r.
 */
static void
run_sessions(BsCommitShared *sh, BsCommitRun *r)
{
	/* untimed: start the sessions and wait until each is ready */
	for (int i = 0; i < sh->nsessions; i++)
	{
		BackgroundWorker worker;
		pid_t		pid;

		memset(&worker, 0, sizeof(worker));
		worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
		worker.bgw_start_time = BgWorkerStart_ConsistentState;
		worker.bgw_restart_time = BGW_NEVER_RESTART;
		snprintf(worker.bgw_library_name, BGW_MAXLEN, "benchstore");
		snprintf(worker.bgw_function_name, BGW_MAXLEN, "bench_commit_worker");
		snprintf(worker.bgw_name, BGW_MAXLEN, "bench_commit session %d", i + 1);
		snprintf(worker.bgw_type, BGW_MAXLEN, "bench_commit session");
		worker.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(r->seg));
		worker.bgw_notify_pid = MyProcPid;
		memcpy(worker.bgw_extra, &i, sizeof(int));
		if (!RegisterDynamicBackgroundWorker(&worker, &r->handles[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("only %d of %d bench_commit sessions could start", i, sh->nsessions),
					 errdetail("Each session is a background worker; max_worker_processes is %d, and the others are in use by parallel workers, other sessions or extensions.",
							   max_worker_processes),
					 errhint("Ask for fewer sessions, or raise max_worker_processes (a restart is needed).")));
		r->nstarted++;
		if (WaitForBackgroundWorkerStartup(r->handles[i], &pid) != BGWH_STARTED)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("bench_commit session %d of %d could not start", i + 1, sh->nsessions),
					 errhint("More details may be available in the server log.")));
	}
	for (int waited_ms = 0;; waited_ms += BS_COMMIT_CHECK_MS)
	{
		int			done;
		int			ready = check_sessions(sh, r->handles, &done);

		if (ready == sh->nsessions)
			break;
		if (waited_ms > BS_COMMIT_START_S * 1000)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("bench_commit sessions were not ready after %d s", BS_COMMIT_START_S)));
		CHECK_FOR_INTERRUPTS();
		(void) ConditionVariableTimedSleep(&sh->cv, BS_COMMIT_CHECK_MS, PG_WAIT_EXTENSION);
	}
	ConditionVariableCancelSleep();

	if (r->after_checkpoint)
		RequestCheckpoint(BS_CHECKPOINT_NOW | CHECKPOINT_FORCE | CHECKPOINT_WAIT);
	read_wal_flushes(&r->flushes_before);

	/* timed */
	bs_series_init(&r->series);
	r->first_us = r->sample_interval_us > 0 ? r->sample_interval_us : USECS_PER_SEC;
	INSTR_TIME_SET_CURRENT(r->start);
	bs_sampler_begin(&r->sampler, r->sample_interval_us, commit_sample_counts, sh,
					 &r->series, "commit");
	pg_atomic_write_u32(&sh->go, 1);
	ConditionVariableBroadcast(&sh->cv);
	for (;;)
	{
		instr_time	now;
		int64		since_us;
		int64		left_us;

		CHECK_FOR_INTERRUPTS();
		INSTR_TIME_SET_CURRENT(now);
		bs_sampler_check(&r->sampler, now);
		INSTR_TIME_SUBTRACT(now, r->start);
		since_us = INSTR_TIME_GET_MICROSEC(now);
		if (!r->first_taken && since_us >= r->first_us)
		{
			r->first_commits = pg_atomic_read_u64(&sh->commits);
			r->first_wal_bytes = pg_atomic_read_u64(&sh->wal_bytes);
			r->first_fpi = pg_atomic_read_u64(&sh->wal_fpi);
			r->first_taken = true;
		}
		{
			int			done;

			(void) check_sessions(sh, r->handles, &done);
			if (done > 0)
				ereport(ERROR,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("a bench_commit session ended before the run did"),
						 errhint("Its caller could not be found: more details may be available in the server log.")));
		}
		left_us = r->duration_us - since_us;
		if (left_us <= 0)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Max(1, Min(left_us, (int64) 10000) / 1000),
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	pg_atomic_write_u32(&sh->stop, 1);
	ConditionVariableBroadcast(&sh->cv);
	INSTR_TIME_SET_CURRENT(r->elapsed);
	INSTR_TIME_SUBTRACT(r->elapsed, r->start);
	r->elapsed_ms = INSTR_TIME_GET_MILLISEC(r->elapsed);

	/* untimed: the sessions end, their tables dropped, their statistics sent */
	for (;;)
	{
		int			done;

		(void) check_sessions(sh, r->handles, &done);
		if (done == sh->nsessions)
			break;
		CHECK_FOR_INTERRUPTS();
		(void) ConditionVariableTimedSleep(&sh->cv, BS_COMMIT_CHECK_MS, PG_WAIT_EXTENSION);
	}
	ConditionVariableCancelSleep();
	bs_sampler_end(&r->sampler);
}

/*
 * bench_commit(sessions integer DEFAULT 1, duration interval DEFAULT '10s',
 *				payload text DEFAULT '100 bytes', tablespace name DEFAULT NULL,
 *				synchronous_commit text DEFAULT 'on',
 *				after_checkpoint boolean DEFAULT false,
 *				label text DEFAULT NULL, record boolean DEFAULT true,
 *				sample_interval interval DEFAULT '1s')
 *	RETURNS SETOF record: one row
 */
Datum
bench_commit(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int32		nsessions;
	Interval   *duration;
	int64		duration_us;
	int64		payload_bytes;
	Oid			spcoid = InvalidOid;
	Oid			nspoid;
	char	   *spcname;
	int			sync_choice;
	bool		after_checkpoint;
	int64		sample_interval_us;
	BsRun		history;
	BsClientWatch client;
	dsm_segment *seg;
	BsCommitShared *sh;
	Size		size;
	BsCommitRun *r;
	BsWalFlushes flushes_after;
	StringInfoData notes;

	bs_require_arg(fcinfo, 0, "sessions");
	bs_require_arg(fcinfo, 1, "duration");
	bs_require_arg(fcinfo, 2, "payload");
	bs_require_arg(fcinfo, 4, "synchronous_commit");
	bs_require_arg(fcinfo, 5, "after_checkpoint");
	nsessions = PG_GETARG_INT32(0);
	if (nsessions < 1 || nsessions > BS_COMMIT_MAX_SESSIONS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sessions must be between 1 and %d", BS_COMMIT_MAX_SESSIONS)));
	if (nsessions > max_worker_processes)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("%d sessions need %d background workers, but max_worker_processes is %d",
						nsessions, nsessions, max_worker_processes),
				 errdetail("Each session is a background worker, as are parallel workers and some extensions' processes."),
				 errhint("Raise max_worker_processes (a restart is needed), or ask for fewer sessions.")));
	duration = PG_GETARG_INTERVAL_P(1);
	{
		double		us = (double) duration->time +
			((double) duration->day + (double) duration->month * DAYS_PER_MONTH) *
			USECS_PER_DAY;

		if (us < 100000 || us > 3600.0 * USECS_PER_SEC)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("duration must be between 100 ms and 1 hour")));
		duration_us = (int64) us;
	}
	payload_bytes = DatumGetInt64(DirectFunctionCall1(pg_size_bytes,
													  PointerGetDatum(PG_GETARG_TEXT_PP(2))));
	if (payload_bytes < 1 || payload_bytes > BS_COMMIT_MAX_PAYLOAD)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("payload must be between 1 byte and 1 MB")));
	sync_choice = bs_parse_choice(PG_GETARG_TEXT_PP(4), "synchronous_commit",
								  sync_commit_values, lengthof(sync_commit_values));
	after_checkpoint = PG_GETARG_BOOL(5);
	sample_interval_us = bs_sample_interval_arg(fcinfo, 8);
	bs_run_begin(&history, fcinfo, "commit", 6, 7);

	/* where the sessions' tables go, and the rights to put them there */
	if (!PG_ARGISNULL(3))
	{
		spcoid = get_tablespace_oid(NameStr(*PG_GETARG_NAME(3)), false);
	}
	else
		spcoid = GetDefaultTablespace(RELPERSISTENCE_PERMANENT, false);
	if (spcoid == MyDatabaseTableSpace)
		spcoid = InvalidOid;
	spcname = bs_tablespace_name(OidIsValid(spcoid) ? spcoid : MyDatabaseTableSpace);
	if (OidIsValid(spcoid))
	{
		AclResult	aclresult = bs_tablespace_aclcheck(spcoid, GetUserId(), ACL_CREATE);

		if (aclresult != ACLCHECK_OK)
			aclcheck_error(aclresult, OBJECT_TABLESPACE, spcname);
	}
	nspoid = RangeVarGetCreationNamespace(makeRangeVar(NULL, "_bench_commit", -1));
	{
		AclResult	aclresult = bs_namespace_aclcheck(nspoid, GetUserId(), ACL_CREATE);

		if (aclresult != ACLCHECK_OK)
			aclcheck_error(aclresult, OBJECT_SCHEMA, get_namespace_name(nspoid));
	}
	if (after_checkpoint && !superuser() &&
		!has_privs_of_role(GetUserId(), ROLE_PG_CHECKPOINT))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to request a checkpoint before the run"),
				 errdetail("after_checkpoint starts the run with a checkpoint, which only superusers and roles with privileges of the \"%s\" role may request.",
						   "pg_checkpoint"),
				 errhint("Run it without after_checkpoint, or as a role granted pg_checkpoint.")));

	bs_run_target(&history, "tablespace", spcname,
				  OidIsValid(spcoid) ? spcoid : MyDatabaseTableSpace);
	bs_run_tablespace(&history, OidIsValid(spcoid) ? spcoid : MyDatabaseTableSpace);
	bs_run_arg_int(&history, "sessions", nsessions);
	bs_run_arg_int(&history, "duration_us", duration_us);
	bs_run_arg_int(&history, "payload_bytes", payload_bytes);
	bs_run_arg_text(&history, "synchronous_commit", sync_commit_values[sync_choice]);
	bs_run_arg_bool(&history, "after_checkpoint", after_checkpoint);
	bs_run_arg_bool(&history, "track_latency", bs_track_latency);
	bs_run_arg_sample_interval(&history, sample_interval_us);

	InitMaterializedSRF(fcinfo, 0);
	if (rsinfo->setDesc->natts != BS_COMMIT_NCOLS)
		elog(ERROR, "bench_commit: result has %d columns, expected %d",
			 rsinfo->setDesc->natts, BS_COMMIT_NCOLS);

	drop_leftover_tables();

	size = add_size(offsetof(BsCommitShared, slots),
					mul_size(sizeof(BsCommitSlot), nsessions));
	seg = dsm_create(size, 0);
	sh = dsm_segment_address(seg);
	memset(sh, 0, size);
	sh->dboid = MyDatabaseId;
	sh->authenticated_user_id = GetAuthenticatedUserId();
	sh->session_user_id = GetSessionUserId();
	sh->session_user_is_superuser = GetSessionUserIsSuperuser();
	sh->outer_user_id = GetCurrentRoleId();
	if (!OidIsValid(sh->outer_user_id))
		sh->outer_user_id = sh->session_user_id;
	sh->outer_user_is_superuser = superuser_arg(sh->outer_user_id);
	GetUserIdAndSecContext(&sh->current_user_id, &sh->sec_context);
	sh->spcoid = spcoid;
	sh->leader_pid = MyProcPid;
	sh->nsessions = nsessions;
	sh->payload_bytes = (int) payload_bytes;
	sh->time_wal_io = superuser();
	sh->track_latency = bs_track_latency;
	strlcpy(sh->nspname, get_namespace_name(nspoid), sizeof(sh->nspname));
	strlcpy(sh->spcname, spcname, sizeof(sh->spcname));
	strlcpy(sh->synchronous_commit, sync_commit_values[sync_choice],
			sizeof(sh->synchronous_commit));
	pg_atomic_init_u32(&sh->go, 0);
	pg_atomic_init_u32(&sh->stop, 0);
	pg_atomic_init_u64(&sh->commits, 0);
	pg_atomic_init_u64(&sh->wal_bytes, 0);
	pg_atomic_init_u64(&sh->wal_fpi, 0);
	ConditionVariableInit(&sh->cv);
	for (int i = 0; i < nsessions; i++)
		bs_hist_reset(&sh->slots[i].hist);
	r = palloc0(sizeof(BsCommitRun));
	r->seg = seg;
	r->handles = palloc0(sizeof(BackgroundWorkerHandle *) * nsessions);
	r->after_checkpoint = after_checkpoint;
	r->duration_us = duration_us;
	r->sample_interval_us = sample_interval_us;
	initStringInfo(&notes);

	bs_client_watch_begin(&client);
	PG_TRY();
	{
		run_sessions(sh, r);
	}
	PG_CATCH();
	{
		HOLD_INTERRUPTS();
		stop_sessions(sh, r->handles, r->nstarted);
		RESUME_INTERRUPTS();
		PG_RE_THROW();
	}
	PG_END_TRY();
	stop_sessions(sh, r->handles, r->nstarted);
	read_wal_flushes(&flushes_after);
	bs_client_watch_end(&client);

	{
		Datum		values[BS_COMMIT_NCOLS];
		bool		nulls[BS_COMMIT_NCOLS];
		BsHistogram hist;
		uint64		commits = 0;
		uint64		wal_bytes = 0;
		uint64		wal_fpi = 0;

		bs_hist_reset(&hist);
		for (int i = 0; i < nsessions; i++)
		{
			commits += sh->slots[i].commits;
			wal_bytes += sh->slots[i].wal_bytes;
			wal_fpi += sh->slots[i].wal_fpi;
			bs_hist_merge(&hist, &sh->slots[i].hist);
		}
		memset(nulls, 0, sizeof(nulls));
		values[COL_SESSIONS] = Int32GetDatum(nsessions);
		values[COL_SYNCHRONOUS_COMMIT] = CStringGetTextDatum(sync_commit_values[sync_choice]);
		values[COL_TABLESPACE] = DirectFunctionCall1(namein, CStringGetDatum(sh->spcname));
		values[COL_PAYLOAD_BYTES] = Int32GetDatum((int32) payload_bytes);
		values[COL_ELAPSED_MS] = Float8GetDatum(bs_round(r->elapsed_ms, 3));
		values[COL_COMMITS] = Int64GetDatum((int64) commits);
		values[COL_COMMITS_PER_S] = Float8GetDatum(bs_round(bs_per_second((double) commits, r->elapsed_ms), 1));
		if (hist.count > 0)
		{
			values[COL_LAT_AVG_US] = Float8GetDatum(bs_round((double) hist.sum_ns / hist.count / 1000.0, 1));
			values[COL_LAT_P50_US] = Float8GetDatum(bs_round(bs_hist_percentile_ns(&hist, 0.50) / 1000.0, 1));
			values[COL_LAT_P95_US] = Float8GetDatum(bs_round(bs_hist_percentile_ns(&hist, 0.95) / 1000.0, 1));
			values[COL_LAT_P99_US] = Float8GetDatum(bs_round(bs_hist_percentile_ns(&hist, 0.99) / 1000.0, 1));
			values[COL_LAT_P999_US] = Float8GetDatum(bs_round(bs_hist_percentile_ns(&hist, 0.999) / 1000.0, 1));
			values[COL_LAT_MAX_US] = Float8GetDatum(bs_round(hist.max_ns / 1000.0, 1));
		}
		else
		{
			for (int c = COL_LAT_AVG_US; c <= COL_LAT_MAX_US; c++)
				nulls[c] = true;
			if (!bs_track_latency)
				add_note(&notes, "Commits were not timed: benchstore.track_latency is off.");
		}
		values[COL_WAL_BYTES] = Int64GetDatum((int64) wal_bytes);
		values[COL_WAL_FPI] = Int64GetDatum((int64) wal_fpi);
		if (commits > 0)
		{
			values[COL_WAL_BYTES_PER_COMMIT] = Float8GetDatum(bs_round((double) wal_bytes / commits, 1));
			values[COL_FPI_PER_COMMIT] = Float8GetDatum(bs_round((double) wal_fpi / commits, 4));
		}
		else
			nulls[COL_WAL_BYTES_PER_COMMIT] = nulls[COL_FPI_PER_COMMIT] = true;
		if (r->flushes_before.known && flushes_after.known &&
			flushes_after.flushes >= r->flushes_before.flushes)
		{
			double		flushes = flushes_after.flushes - r->flushes_before.flushes;
			double		flush_ms = flushes_after.flush_ms - r->flushes_before.flush_ms;

			values[COL_WAL_FLUSHES] = Int64GetDatum((int64) flushes);
			if (flushes > 0)
				values[COL_COMMITS_PER_FLUSH] = Float8GetDatum(bs_round(commits / flushes, 2));
			else
				nulls[COL_COMMITS_PER_FLUSH] = true;
			if (flushes > 0 && !isnan(flush_ms) && flush_ms > 0)
				values[COL_WAL_FLUSH_AVG_US] = Float8GetDatum(bs_round(flush_ms * 1000.0 / flushes, 1));
			else
			{
				nulls[COL_WAL_FLUSH_AVG_US] = true;
				if (flushes > 0)
					add_note(&notes, "The WAL flushes were not timed: track_wal_io_timing is off, and only a superuser's run turns it on for its sessions.");
			}
			if (flushes == 0 && sync_choice == 0)
				add_note(&notes, "The server counted no WAL flush during the run: with fsync = off, or on a server whose statistics lag, commits per flush cannot be told.");
		}
		else
		{
			nulls[COL_WAL_FLUSHES] = nulls[COL_COMMITS_PER_FLUSH] = true;
			nulls[COL_WAL_FLUSH_AVG_US] = true;
		}
		if (after_checkpoint && r->first_taken && commits > r->first_commits && r->first_commits > 0)
		{
			values[COL_FIRST_WAL_BYTES_PER_COMMIT] =
				Float8GetDatum(bs_round((double) r->first_wal_bytes / r->first_commits, 1));
			values[COL_FIRST_FPI_PER_COMMIT] =
				Float8GetDatum(bs_round((double) r->first_fpi / r->first_commits, 4));
			values[COL_STEADY_WAL_BYTES_PER_COMMIT] =
				Float8GetDatum(bs_round((double) (wal_bytes - r->first_wal_bytes) /
										(commits - r->first_commits), 1));
			values[COL_STEADY_FPI_PER_COMMIT] =
				Float8GetDatum(bs_round((double) (wal_fpi - r->first_fpi) /
										(commits - r->first_commits), 4));
		}
		else
		{
			for (int c = COL_FIRST_WAL_BYTES_PER_COMMIT; c <= COL_STEADY_FPI_PER_COMMIT; c++)
				nulls[c] = true;
			if (after_checkpoint)
				add_note(&notes, "The run was too short to tell its first interval after the checkpoint from the rest: pass a duration of several sample intervals.");
		}
		if (hist.count > 0)
			values[COL_HISTOGRAM] = bs_hist_jsonb(&hist);
		else
			nulls[COL_HISTOGRAM] = true;
		if (notes.len > 0)
			values[COL_NOTES] = CStringGetTextDatum(notes.data);
		else
			nulls[COL_NOTES] = true;
		bs_run_put_row_series(&history, rsinfo, values, nulls, &r->series);
	}
	dsm_detach(seg);
	bs_run_finish(&history);
	return (Datum) 0;
}
