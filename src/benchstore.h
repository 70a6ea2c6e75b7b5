/*-------------------------------------------------------------------------
 *
 * benchstore.h
 *	  Declarations shared by the benchstore capability files: argument
 *	  checking, units, OS I/O counters and OS page-cache control.
 *
 * src/benchstore.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_H
#define BENCHSTORE_H

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "access/parallel.h"
#include "port/atomics.h"
#include "storage/condition_variable.h"
#include "portability/instr_time.h"
#include "storage/block.h"
#include "target.h"
#include "utils/relcache.h"

/* MB means 2^20 bytes throughout, as pg_size_pretty does. */
#define BS_BYTES_PER_MB		((double) (1024 * 1024))

/* benchstore.c: settings */
extern bool bs_track_latency;
typedef enum BsQueryText
{
	BS_QUERY_TEXT_NORMALIZED,	/* constants replaced by $1, $2, ... */
	BS_QUERY_TEXT_EXACT
} BsQueryText;
extern int	bs_record_query_text;
extern int	bs_progress_interval_ms;

/*
 * The SQL version whose definition of a function called its C entry point.
 * A function whose arguments or columns changed binds one C symbol per
 * version from 1.2 on (bench_seqscan_1_2, ...), which calls the one
 * internal function with its version.  The released scripts of 1.0 and
 * 1.1 bind one symbol for both versions (bench_seqscan, ...); that legacy
 * entry point asks bs_legacy_sql_version which of the two called it.
 */
typedef enum BsSqlVersion
{
	BS_SQL_1_0 = 10,
	BS_SQL_1_1 = 11,
	BS_SQL_1_2 = 12
} BsSqlVersion;

extern BsSqlVersion bs_legacy_sql_version(FunctionCallInfo fcinfo,
										  int nargs_1_0, int nargs_1_1);

/* benchstore.c: arguments, units, names */
#define BS_MAX_REPEAT		1000	/* runs of one call, bench_seqscan and bench_query */
typedef enum BsCacheState
{
	BS_CACHE_WARM,
	BS_CACHE_COLD
} BsCacheState;
extern const char *const bs_cache_states[2];	/* "warm", "cold", in that order */
extern void bs_require_arg(FunctionCallInfo fcinfo, int argno,
						   const char *argname);
extern int	bs_parse_choice(text *value, const char *argname,
							const char *const *choices, int nchoices);
extern double bs_round(double value, int digits);
extern double bs_per_second(double amount, double elapsed_ms);
extern char *bs_tablespace_name(Oid spcoid);
extern Oid	bs_extension_schema(const char *extname);

/*
 * client.c: a benchmark call whose client has gone away ends (FATAL
 * "connection to client lost") within about BS_CLIENT_CHECK_MS.
 */
#define BS_CLIENT_CHECK_MS	1000

typedef struct BsClientWatch
{
	int			gucnest;		/* GUC nest level to pop, or 0 */
	bool		armed;			/* the check timer was started here */
} BsClientWatch;

extern void bs_client_watch_begin(BsClientWatch *watch);
extern void bs_client_watch_end(BsClientWatch *watch);

/* iostat.c: what the kernel really did for this backend */
extern bool bs_os_read_bytes(uint64 *bytes);

/*
 * iostat.c: what the kernel read from storage for one measured call: this
 * process, plus, on PostgreSQL 18 with io_method = worker, what the I/O
 * worker processes read meanwhile (see iostat.c for how exact that is).
 */
#define BS_MAX_IO_WORKERS	64

typedef struct BsOsReads
{
	bool		known;			/* false: the caller reports NULL */
	uint64		self_start;		/* this process's read_bytes at the start */
	int			nio_workers;	/* I/O workers seen at the start */
	int			io_worker_pid[BS_MAX_IO_WORKERS];
	uint64		io_worker_start[BS_MAX_IO_WORKERS];
} BsOsReads;

extern void bs_os_reads_start(BsOsReads *r);
extern bool bs_os_reads_end(BsOsReads *r, uint64 others_bytes,
							uint64 buffer_read_bytes, uint64 scanned_bytes,
							uint64 *bytes);

/* histogram.c: the latency histogram */
#include "histogram.h"

/* benchstore.c: a parallel run's workers, ready before its clock starts */
extern void bs_wait_parallel_workers_ready(ParallelContext *pcxt,
										   pg_atomic_uint32 *ready,
										   ConditionVariable *cv,
										   const char *what);

/* prefault.c: map a relation's shared buffers into this process, untimed */
extern int64 bs_map_relation_buffers(Relation rel, BlockNumber nblocks);
extern int	bs_shared_buffer_of(Relation rel, BlockNumber blkno);

/* cache.c: segment files and the OS page cache */
extern uint64 bs_main_fork_bytes(List *relids);
extern char *bs_segment_path(const char *fork_path, BlockNumber segno);
extern void bs_check_checkpoint_privilege(bool for_eviction);

/*
 * What a cold run's preparation left in the caches above the storage when
 * the timed run began (bs_make_target_cold), so that a row can say whether
 * the run was cold.
 */
typedef struct BsColdState
{
	int64		total_pages;	/* main-fork blocks of the target */
	int64		shared_pages;	/* of them still in shared buffers */
	int64		local_pages;	/* in this session's local buffers (temp tables) */
	int64		evicted_buffers;	/* shared buffers the eviction dropped (17+) */
	uint64		os_cached_bytes;	/* left in the OS page cache after eviction */
	/* the block devices under the target's tablespaces (blockdev.c) */
	struct BsDevStack *devices;
	int			ndevices;
} BsColdState;

/* a cold run is called not cold from this share of its pages cached on */
#define BS_NOT_COLD_PCT		1.0

extern void bs_make_target_cold(BsTarget *target, BsColdState *state);
extern int64 bs_target_buffered_pages(BsTarget *target, int64 *local_pages);
extern double bs_cold_cached_pct(const BsColdState *state);
extern char *bs_cold_warnings(const BsColdState *state);
extern void bs_cold_devices_start(BsColdState *state);
extern void bs_cold_devices_stop(BsColdState *state);
extern void bs_cold_release(BsColdState *state);
extern void bs_cold_columns(const BsColdState *state, bool cold,
							Datum *pct, bool *pct_null,
							Datum *warnings, bool *warnings_null,
							Datum *served_by, bool *served_by_null);
extern void bs_warn_not_cold(const char *what, const BsColdState *state);
extern void bs_evict_relation(Relation rel, bool sync_first, int *nfiles,
							  uint64 *file_bytes);
extern void bs_os_cache_residency(Relation rel, int *nfiles,
								  uint64 *file_bytes, uint64 *cached_bytes);

/*
 * history.c: recording a call in the history tables.  See history.c for
 * the protocol: bs_run_begin, bs_run_target/_tablespace/_arg_*, then each
 * result row through bs_run_put_row, then bs_run_finish.
 */
struct ReturnSetInfo;

typedef struct BsRun
{
	const char *benchmark;		/* seqscan, tablespace_io, ... */
	char	   *label;			/* NULL: none */
	bool		record;			/* false: record => false */
	TimestampTz started_at;
	Oid			userid;			/* who ran it */
	Oid			fn_oid;			/* the SQL function called, in the extension's schema */
	const char *target_kind;	/* relation, tablespace or other */
	char	   *target;
	Oid			target_oid;
	List	   *tablespaces;	/* OIDs, for the settings snapshot */
	StringInfoData args;		/* JSON object members */
	List	   *tuples;			/* result rows kept for the history */
	StringInfoData rows;		/* JSON array members, one per result row */
	int			nrows;
	int			nput;			/* rows put so far */
	StringInfoData samples;		/* JSON array members, one per sample (1.2) */
	int			nsamples;
	bool		desc_blessed;
} BsRun;

extern void bs_run_begin(BsRun *run, FunctionCallInfo fcinfo,
						 const char *benchmark, int label_argno,
						 int record_argno);
extern void bs_run_target(BsRun *run, const char *kind, const char *name,
						  Oid oid);
extern void bs_run_tablespace(BsRun *run, Oid spc);
extern void bs_run_arg_text(BsRun *run, const char *key, const char *value);
extern void bs_run_arg_int(BsRun *run, const char *key, int64 value);
extern void bs_run_arg_bool(BsRun *run, const char *key, bool value);
extern void bs_run_arg_json(BsRun *run, const char *key, const char *json);
extern void bs_run_arg_sample_interval(BsRun *run, int64 interval_us);
extern void bs_run_put_row(BsRun *run, struct ReturnSetInfo *rsinfo,
						   Datum *values, bool *nulls);
struct BsSeries;
extern void bs_run_put_row_series(BsRun *run, struct ReturnSetInfo *rsinfo,
								  Datum *values, bool *nulls,
								  const struct BsSeries *series);
extern int64 bs_run_finish(BsRun *run);

/*
 * progress.c: NOTICE messages at benchstore.progress_interval during a
 * long run.  bs_progress_advance is cheap: it looks at the clock only
 * after every BS_PROGRESS_CHECK_BYTES.
 */
#define BS_PROGRESS_CHECK_BYTES	(1024 * 1024)

typedef uint64 (*BsProgressTotalFn) (void *arg);

typedef struct BsProgress
{
	bool		active;			/* progress_interval > 0 */
	char	   *what;			/* e.g. 'seqscan (heap) of "lineitem"' */
	uint64		total_bytes;	/* planned bytes; 0 if unknown */
	int64		duration_us;	/* time cap; 0 if none */
	uint64		done;			/* bytes so far (this process) */
	uint64		next_check;		/* look at the clock when done reaches it */
	BsProgressTotalFn total_fn; /* bytes so far of all processes, or NULL */
	void	   *total_arg;
	pg_atomic_uint64 *publish;	/* parallel scans: all processes' bytes */
	uint64		published;		/* this process's bytes added to it */
	bool		quiet;			/* a worker: publish, never report */
	struct BsSampler *sampler;	/* the caller's time series, or NULL */
	instr_time	start;
	instr_time	last;
	uint64		last_done;
} BsProgress;

extern void bs_progress_begin(BsProgress *p, char *what, uint64 total_bytes,
							  int64 duration_us);
extern void bs_progress_check(BsProgress *p);
extern void bs_progress_share(BsProgress *p, pg_atomic_uint64 *counter,
							  bool quiet);
extern void bs_progress_flush(BsProgress *p);
extern void bs_progress_end(BsProgress *p);

static inline void
bs_progress_advance(BsProgress *p, uint64 bytes)
{
	p->done += bytes;
	if ((p->active || p->sampler) && p->done >= p->next_check)
		bs_progress_check(p);
}

#endif							/* BENCHSTORE_H */
