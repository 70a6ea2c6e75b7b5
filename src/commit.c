/*-------------------------------------------------------------------------
 *
 * commit.c
 *	  bench_commit: the commit path under concurrency.  N sessions (see
 *	  src/sessions.c: dynamic background workers connected to the caller's
 *	  database as the caller) commit tiny transactions (one insert each
 *	  into a table of the run's own) through the server's real WAL path
 *	  for a duration; commits per second, the commit latency distribution,
 *	  WAL bytes and full-page images per commit, and the group-commit
 *	  factor (commits per WAL flush).
 *
 * Each session creates its own table, _bench_commit_<caller pid>_<n> (or
 * another free name), in the schema the caller's CREATE TABLE would use
 * and the tablespace asked for, recorded as a run table
 * (src/run_tables.c), inserts one row untimed, says it is ready and
 * waits.  Once
 * let go it runs, until told to stop: start a transaction, insert a row
 * of the payload's size, commit, with the commit timed
 * (CommitTransactionCommand: the commit record written and, under
 * synchronous_commit = on, flushed).  Its WAL bytes, records and
 * full-page images come from its own pgWalUsage, exact for the run's own
 * transactions.  WAL flushes are the server's (pg_stat_wal on 15-17,
 * pg_stat_io's WAL rows on 18) over the run: group commit is a server's
 * property, and the WAL writer's flushes count.
 *
 * With a ramp the sessions commit that long before the figures start, and
 * a steady-state criterion is judged on the run's time series (commits
 * per second, WAL MB per second, mean commit latency), as
 * bench_tablespace_io's: src/sessions.c conducts both, src/steady.c
 * judges.
 *
 * A session's table is dropped when it exits, however it exits (a
 * before_shmem_exit callback: after an error, a cancel, the caller's
 * termination), through its record; a table a crash left behind is
 * dropped by the next call of the role that made it (its maker no longer
 * holds its lock).  Nothing is found by name.
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
#include "bench_driver.h"
#include "commands/tablespace.h"
#include "compat.h"
#include "executor/instrument.h"
#include "funcapi.h"
#include "histogram.h"
#include "history.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "nodes/makefuncs.h"
#include "postmaster/bgworker.h"
#include "postmaster/bgwriter.h"
#include "postmaster/interrupt.h"
#include "run_tables.h"
#include "safe_spi.h"
#include "series.h"
#include "session_limits.h"
#include "sessions.h"
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
PGDLLEXPORT void bench_commit_session_worker(Datum main_arg);

#define BS_COMMIT_MAX_PAYLOAD	(1024 * 1024)

static const char *const sync_commit_values[] = {
	"on", "off", "local", "remote_write", "remote_apply"
};

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
	COL_LATER_WAL_BYTES_PER_COMMIT,
	COL_LATER_FPI_PER_COMMIT,
	COL_STEADY_STATE,
	COL_STEADY_AT_MS,
	COL_STEADY_CRITERION,
	COL_HISTOGRAM,
	COL_NOTES,
	BS_COMMIT_NCOLS
};

/* ---------------------------------------------------------------------
 * The session (a dynamic background worker)
 * ---------------------------------------------------------------------
 */

/* One session: its table, then one insert per transaction until told to stop. */
static void
commit_session_run(BsSessionsShared *sh, BsSessionSlot *slot, int n)
{
	char	   *payload;
	char	   *table;
	SPIPlanPtr	plan;
	Oid			argtypes[2] = {INT8OID, TEXTOID};
	Datum		args[2];
	instr_time	last_check;
	int64		id = 1;
	Oid			nspoid;
	Oid			relid;
	BsSpi		spi;

	(void) set_config_option("synchronous_commit", sh->synchronous_commit,
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SET,
							 true, 0, false);

	/* the payload: text of the size asked, of random digits (the WAL holds it) */
	payload = MemoryContextAlloc(TopMemoryContext, VARHDRSZ + sh->payload_bytes);
	SET_VARSIZE(payload, VARHDRSZ + sh->payload_bytes);
	for (int i = 0; i < sh->payload_bytes; i++)
		VARDATA(payload)[i] = "0123456789abcdef"[random() & 15];
	args[1] = PointerGetDatum(payload);

	/*
	 * The session's table, recorded as a run table (src/run_tables.c): its
	 * exit callback drops it through that record, however the session ends.
	 */
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	nspoid = get_namespace_oid(sh->nspname, false);
	relid = bs_run_table_create("commit", psprintf("_bench_commit_%d", sh->leader_pid), n,
								nspoid,
								psprintf("(id bigint, payload text) WITH (autovacuum_enabled = off) %s",
										 OidIsValid(sh->spcoid) ?
										 psprintf("TABLESPACE %s", quote_identifier(sh->spcname)) : ""),
								sh->leader_pid);
	bs_session_table_oid = relid;
	table = MemoryContextStrdup(TopMemoryContext,
								psprintf("%s.%s", quote_identifier(sh->nspname),
										 quote_identifier(get_rel_name(relid))));
	PopActiveSnapshot();
	CommitTransactionCommand();

	StartTransactionCommand();
	bs_spi_connect(&spi);
	PushActiveSnapshot(GetTransactionSnapshot());
	plan = bs_spi_prepare(psprintf("INSERT INTO %s VALUES ($1, $2)", table),
						  2, argtypes);
	if (plan == NULL || SPI_keepplan(plan) != 0)
		elog(ERROR, "could not prepare the insert into %s", table);
	/* a first row, untimed: the table's first page exists */
	args[0] = Int64GetDatum(0);
	if (bs_spi_execute_plan(plan, args, NULL, false, 0) != SPI_OK_INSERT)
		elog(ERROR, "insert into %s failed", table);
	bs_spi_finish(&spi);
	PopActiveSnapshot();
	CommitTransactionCommand();

	bs_session_ready_and_wait(sh, slot);

	INSTR_TIME_SET_CURRENT(last_check);
	while (bs_session_keep_going(sh, slot, &last_check))
	{
		WalUsage	before = pgWalUsage;
		instr_time	t0;
		instr_time	t1;

		StartTransactionCommand();
		bs_spi_connect(&spi);
		PushActiveSnapshot(GetTransactionSnapshot());
		args[0] = Int64GetDatum(id++);
		if (bs_spi_execute_plan(plan, args, NULL, false, 0) != SPI_OK_INSERT)
			elog(ERROR, "insert into %s failed", table);
		bs_spi_finish(&spi);
		PopActiveSnapshot();
		if (sh->track_latency)
		{
			INSTR_TIME_SET_CURRENT(t0);
			CommitTransactionCommand();
			INSTR_TIME_SET_CURRENT(t1);
			bs_session_latency(slot, bs_instr_time_ns(t1) - bs_instr_time_ns(t0));
		}
		else
			CommitTransactionCommand();
		bs_session_count(sh, slot, &before);
	}
}

/*
 * Entry point of a bench_commit session: a dynamic background worker, started
 * and run by src/sessions.c with this workload's body.
 */
void
bench_commit_session_worker(Datum main_arg)
{
	bs_session_main(main_arg, commit_session_run);
}

/* ---------------------------------------------------------------------
 * The caller
 * ---------------------------------------------------------------------
 */

/*
 * bench_commit(sessions integer DEFAULT 1, duration interval DEFAULT '10s',
 *				payload text DEFAULT '100 bytes', tablespace name DEFAULT NULL,
 *				synchronous_commit text DEFAULT 'on',
 *				after_checkpoint boolean DEFAULT false,
 *				label text DEFAULT NULL, record boolean DEFAULT true,
 *				sample_interval interval DEFAULT '1s', ramp interval DEFAULT NULL,
 *				until text DEFAULT 'duration', steady text DEFAULT NULL,
 *				steady_window interval DEFAULT '30s')
 *	RETURNS SETOF record: one row
 */
Datum
bench_commit(PG_FUNCTION_ARGS)
{
	int32		nsessions;
	int64		duration_us;
	int64		payload_bytes;
	Oid			spcoid = InvalidOid;
	Oid			nspoid;
	char	   *spcname;
	int			sync_choice;
	bool		after_checkpoint;
	int64		sample_interval_us;
	BsBench		b;
	BsSessionsShared *sh;
	BsSessionsRun *r;
	BsSteadyArgs steady;
	StringInfoData notes;

	bs_require_arg(fcinfo, 0, "sessions");
	bs_require_arg(fcinfo, 2, "payload");
	bs_require_arg(fcinfo, 4, "synchronous_commit");
	bs_require_arg(fcinfo, 5, "after_checkpoint");
	nsessions = PG_GETARG_INT32(0);
	if (nsessions < 1 || nsessions > BS_SESSIONS_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sessions must be between 1 and %d", BS_SESSIONS_MAX)));
	bs_sessions_check_workers("session", nsessions);
	duration_us = bs_sessions_duration_arg(fcinfo, 1);
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
	bs_steady_args_parse(fcinfo, 9, "run", "duration", BS_SESSIONS_MAX_RUN_US, "1 hour",
						 duration_us, sample_interval_us, &steady);
	bs_session_limits_check("bench_commit session", "session", nsessions,
							steady.ramp_us + duration_us);
	if (after_checkpoint && steady.ramp_us > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("after_checkpoint cannot be combined with a ramp"),
				 errdetail("after_checkpoint measures the first interval after the checkpoint, which a ramp would leave out."),
				 errhint("Run the ramp as a run of its own first, e.g. bench_commit(duration => '30s', record => false), then bench_commit(after_checkpoint => true).")));
	bs_bench_begin(&b, fcinfo, "commit", 6, 7);

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

	bs_run_target(&b.history, "tablespace", spcname,
				  OidIsValid(spcoid) ? spcoid : MyDatabaseTableSpace);
	bs_run_tablespace(&b.history, OidIsValid(spcoid) ? spcoid : MyDatabaseTableSpace);
	bs_run_arg_int(&b.history, "sessions", nsessions);
	bs_run_arg_int(&b.history, "duration_us", duration_us);
	bs_run_arg_int(&b.history, "payload_bytes", payload_bytes);
	bs_run_arg_text(&b.history, "synchronous_commit", sync_commit_values[sync_choice]);
	bs_run_arg_bool(&b.history, "after_checkpoint", after_checkpoint);
	bs_run_arg_bool(&b.history, "track_latency", bs_track_latency);
	bs_run_arg_sample_interval(&b.history, sample_interval_us);
	bs_steady_args_record(&b.history, &steady);

	bs_bench_rows(&b, "bench_commit", BS_COMMIT_NCOLS, BS_COMMIT_NCOLS);

	/* what this role's earlier runs left behind (a crash) */
	(void) bs_run_tables_drop_leftovers("commit");

	r = bs_sessions_create(BS_WORKLOAD_COMMIT, "bench_commit_session_worker",
						   "bench_commit session", "session",
						   nsessions);
	sh = r->sh;
	sh->spcoid = spcoid;
	sh->payload_bytes = (int) payload_bytes;
	strlcpy(sh->nspname, get_namespace_name(nspoid), sizeof(sh->nspname));
	strlcpy(sh->spcname, spcname, sizeof(sh->spcname));
	strlcpy(sh->synchronous_commit, sync_commit_values[sync_choice],
			sizeof(sh->synchronous_commit));
	r->after_checkpoint = after_checkpoint;
	r->duration_us = duration_us;
	r->sample_interval_us = sample_interval_us;
	r->steady = steady;
	initStringInfo(&notes);

	bs_sessions_execute(r);

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
				bs_sessions_add_note(&notes, "Commits were not timed: benchstore.track_latency is off.");
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
		if (r->flushes_before.known && r->flushes_after.known &&
			r->flushes_after.flushes >= r->flushes_before.flushes)
		{
			double		flushes = r->flushes_after.flushes - r->flushes_before.flushes;
			double		flush_ms = r->flushes_after.flush_ms - r->flushes_before.flush_ms;

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
					bs_sessions_add_note(&notes, "The WAL flushes were not timed: track_wal_io_timing is off, and only a superuser's run turns it on for its sessions.");
			}
			if (flushes == 0 && sync_choice == 0)
				bs_sessions_add_note(&notes, "The server counted no WAL flush during the run: with fsync = off, or on a server whose statistics lag, commits per flush cannot be told.");
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
			values[COL_LATER_WAL_BYTES_PER_COMMIT] =
				Float8GetDatum(bs_round((double) (wal_bytes - r->first_wal_bytes) /
										(commits - r->first_commits), 1));
			values[COL_LATER_FPI_PER_COMMIT] =
				Float8GetDatum(bs_round((double) (wal_fpi - r->first_fpi) /
										(commits - r->first_commits), 4));
		}
		else
		{
			for (int c = COL_FIRST_WAL_BYTES_PER_COMMIT; c <= COL_LATER_FPI_PER_COMMIT; c++)
				nulls[c] = true;
			if (after_checkpoint)
				bs_sessions_add_note(&notes, "The run was too short to tell its first interval after the checkpoint from the rest: pass a duration of several sample intervals.");
		}
		bs_sessions_steady_columns(r, values, nulls, COL_STEADY_STATE, &notes);

		/*
		 * Where the commits waited: for their WAL in pg_wal, whatever the
		 * tablespace, which holds only the sessions' tables.
		 */
		switch (bs_sessions_wal_shares_filesystem(OidIsValid(spcoid) ? spcoid : MyDatabaseTableSpace))
		{
			case 1:
				bs_sessions_add_note(&notes, psprintf("Every commit waited for its WAL to be flushed in pg_wal, which is on tablespace \"%s\"'s filesystem here; the tablespace held only the sessions' tables, whose pages the checkpointer writes later, outside the commit path.",
													  sh->spcname));
				break;
			case 0:
				bs_sessions_add_note(&notes, psprintf("Every commit waited for its WAL to be flushed in pg_wal, which is not on tablespace \"%s\"'s filesystem: these figures are pg_wal's storage's, not the tablespace's, which held only the sessions' tables.",
													  sh->spcname));
				break;
			default:
				bs_sessions_add_note(&notes, psprintf("Every commit waited for its WAL to be flushed in pg_wal, wherever that is; the tablespace \"%s\" held only the sessions' tables.",
													  sh->spcname));
				break;
		}
		if (hist.count > 0)
			values[COL_HISTOGRAM] = bs_hist_jsonb(&hist);
		else
			nulls[COL_HISTOGRAM] = true;
		if (notes.len > 0)
			values[COL_NOTES] = CStringGetTextDatum(notes.data);
		else
			nulls[COL_NOTES] = true;
		bs_bench_put_row(&b, values, nulls, &r->series);
	}
	dsm_detach(r->seg);
	bs_bench_end(&b);
	return (Datum) 0;
}
