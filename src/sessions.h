/*-------------------------------------------------------------------------
 *
 * sessions.h
 *	  Concurrent sessions of a run (bench_commit's sessions, bench_tpcb's
 *	  clients): dynamic background workers connected to the caller's
 *	  database as the caller, started and made ready untimed, let go
 *	  together when the caller's clock starts, stopped together when it
 *	  ends or anything fails.  src/sessions.c runs them; each workload
 *	  (src/commit.c, src/tpcb.c) provides what one session does.
 *
 * src/sessions.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_SESSIONS_H
#define BENCHSTORE_SESSIONS_H

#include "executor/instrument.h"
#include "histogram.h"
#include "portability/instr_time.h"
#include "postmaster/bgworker.h"
#include "series.h"
#include "steady.h"
#include "storage/condition_variable.h"
#include "storage/dsm.h"

/* how often a session looks for its caller, and the caller for news */
#define BS_SESSIONS_CHECK_MS	100
/* the longest duration, and the longest ramp, of a run */
#define BS_SESSIONS_MAX_RUN_US	(INT64CONST(3600) * USECS_PER_SEC)
/* the longest a session may take to start and get ready */
#define BS_SESSIONS_START_S		60

typedef enum BsWorkload
{
	BS_WORKLOAD_COMMIT,			/* bench_commit: one insert per transaction */
	BS_WORKLOAD_TPCB			/* bench_tpcb: pgbench's TPC-B-like transaction */
} BsWorkload;

/* One session's figures, written by it, read by the caller at the end. */
typedef struct BsSessionSlot
{
	int			pid;
	bool		ready;
	bool		done;
	bool		failed;
	int			sqlerrcode;
	char		error[512];
	uint64		commits;		/* transactions committed */
	uint64		wal_records;
	uint64		wal_fpi;
	uint64		wal_bytes;
	uint64		blks_hit;		/* shared buffers, the timed run only */
	uint64		blks_read;
	bool		os_read_known;
	uint64		os_read_bytes;	/* /proc/self/io read_bytes over the run */
	BsHistogram hist;			/* transaction (bench_tpcb) or commit latency, ns */
	/* the ramp: where the session stood when it saw it end */
	bool		ramped;
	uint64		ramp_commits;
	uint64		ramp_wal_records;
	uint64		ramp_wal_fpi;
	uint64		ramp_wal_bytes;
	BsHistogram measured;		/* latency after the ramp (a ramp only) */
} BsSessionSlot;

typedef struct BsSessionsShared
{
	BsWorkload	workload;
	char		worker_function[BGW_MAXLEN];	/* the workload's entry point */
	char		what[32];		/* "bench_commit session", "bench_tpcb client" */
	char		noun[16];		/* "session", "client" */
	Oid			dboid;
	/* who the caller is, restored in each session as a parallel worker does */
	Oid			authenticated_user_id;
	Oid			session_user_id;
	bool		session_user_is_superuser;
	Oid			outer_user_id;
	bool		outer_user_is_superuser;
	Oid			current_user_id;
	int			sec_context;
	int			leader_pid;
	int			nsessions;
	int			max_sessions;	/* the caller's benchstore.max_user_sessions; -1: none */
	bool		time_wal_io;	/* sessions set track_wal_io_timing */
	bool		track_latency;	/* the caller's benchstore.track_latency */
	/* bench_commit */
	Oid			spcoid;			/* InvalidOid: the database's default */
	int			payload_bytes;
	char		nspname[NAMEDATALEN];	/* also bench_tpcb's tables' schema */
	char		spcname[NAMEDATALEN];
	char		synchronous_commit[16];
	/* bench_tpcb */
	int			scale;
	uint64		seed;
	pg_atomic_uint32 go;
	pg_atomic_uint32 ramp_over;	/* the ramp has ended: figures start */
	pg_atomic_uint32 stop;
	ConditionVariable cv;		/* ready, go, done, failed */
	/* running totals, for the time series and the first interval */
	pg_atomic_uint64 commits;
	pg_atomic_uint64 wal_bytes;
	pg_atomic_uint64 wal_fpi;
	BsSessionSlot slots[FLEXIBLE_ARRAY_MEMBER];
} BsSessionsShared;

/* The server's WAL flushes and their time, from its statistics. */
typedef struct BsWalFlushes
{
	bool		known;
	double		flushes;
	double		flush_ms;		/* NaN: not timed */
} BsWalFlushes;

/* A run as the caller conducts it. */
typedef struct BsSessionsRun
{
	dsm_segment *seg;
	BsSessionsShared *sh;
	BackgroundWorkerHandle **handles;
	int			nstarted;
	bool		after_checkpoint;
	int64		duration_us;	/* after the ramp */
	int64		sample_interval_us;
	BsSteadyArgs steady;		/* ramp, until, the criterion */
	bool		ramped;			/* the ramp ended; measure_start is its end */
	bool		counts_pending; /* the server's counts are to be read once every
								 * session has seen the ramp end */
	instr_time	measure_start;	/* where the figures start: go, or the ramp's end */
	int64		checkpoints_before;	/* the server's checkpoints so far; -1: unknown */
	int64		checkpoints_after;
	int64		first_us;
	BsWalFlushes flushes_before;
	BsWalFlushes flushes_after;
	BsSeries	series;
	BsSampler	sampler;
	instr_time	start;			/* go: the series' origin */
	instr_time	elapsed;
	double		elapsed_ms;		/* from measure_start to the stop */
	double		connect_ms;		/* from the first start to every session ready */
	bool		first_taken;
	uint64		first_commits;
	uint64		first_wal_bytes;
	uint64		first_fpi;
	bool		release_xmin;	/* give up the caller's xmin at the start */
} BsSessionsRun;

/* the caller */
extern BsSessionsRun *bs_sessions_create(BsWorkload workload,
										 const char *worker_function,
										 const char *what, const char *noun,
										 int nsessions);
extern void bs_sessions_execute(BsSessionsRun *r);
extern void bs_sessions_check_workers(const char *noun, int nsessions);
extern int64 bs_sessions_duration_arg(FunctionCallInfo fcinfo, int argno);
extern void bs_sessions_read_wal_flushes(BsWalFlushes *f);
extern void bs_sessions_steady_columns(BsSessionsRun *r, Datum *values, bool *nulls,
									   int col_state, StringInfo notes);
extern void bs_sessions_add_note(StringInfo notes, const char *sentence);
extern int	bs_sessions_wal_shares_filesystem(Oid spc);
extern bool bs_sessions_may_release_xmin(FunctionCallInfo fcinfo);

/* a session */
extern Oid	bs_session_table_oid;	/* dropped when the session exits, if set */
extern void bs_session_ready_and_wait(BsSessionsShared *sh, BsSessionSlot *slot);
extern bool bs_session_keep_going(BsSessionsShared *sh, BsSessionSlot *slot,
								  instr_time *last_check);
extern void bs_session_count(BsSessionsShared *sh, BsSessionSlot *slot,
							 const WalUsage *before);
extern void bs_session_latency(BsSessionSlot *slot, uint64 ns);

/*
 * A session's life.  Each workload has a background worker entry point of
 * its own (bench_commit_session_worker in src/commit.c,
 * bench_tpcb_session_worker in src/tpcb.c), named to bs_sessions_create,
 * which hands its body to bs_session_main: the connection as the caller,
 * the limits counted again, the body, the run table's drop and the report
 * to the caller.  This file calls no workload by name.
 */
typedef void (*BsSessionBody) (BsSessionsShared *sh, BsSessionSlot *slot, int n);
extern void bs_session_main(Datum main_arg, BsSessionBody body);

#endif							/* BENCHSTORE_SESSIONS_H */
