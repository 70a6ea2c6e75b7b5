/*-------------------------------------------------------------------------
 *
 * bench_driver.h
 *	  bench_driver.c: the steps every benchmark call shares, so that a
 *	  benchmark supplies only what differs: its preparation, its timed
 *	  part and its row.
 *
 * A call (every benchmark):
 *
 *	bs_bench_begin		record the call (history.c); describe it into
 *						b->history with bs_run_target, bs_run_arg_*
 *	bs_bench_rows		the result set, its row type checked and
 *						registered; from here the client is watched
 *	bs_bench_set		a setting for the call only (optional)
 *	bs_bench_put_row	a row, into the result and the history
 *	bs_bench_end		the call's settings undone, the call recorded,
 *						the watch ended, in that order
 *
 * A run of a benchmark that reads relations (bench_seqscan,
 * bench_randread, bench_query) is bracketed by bs_measure_start and
 * bs_measure_stop: the clock, the caller's buffer usage, the kernel's
 * read count, the devices under a cold run's relations and the time
 * series.  bs_bench_run_all repeats such runs: a cold run's preparation
 * and its warning, the bracket (inside the benchmark's run callback, which
 * may put untimed work on either side), the columns every such row has,
 * the benchmark's own columns, and the row.
 *
 * src/bench_driver.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_BENCH_DRIVER_H
#define BENCHSTORE_BENCH_DRIVER_H

#include "cache.h"
#include "client.h"
#include "executor/instrument.h"
#include "fmgr.h"
#include "nodes/execnodes.h"
#include "history.h"
#include "iostat.h"
#include "portability/instr_time.h"
#include "progress.h"
#include "series.h"
#include "target.h"
#include "utils/memutils.h"

/* A benchmark call. */
typedef struct BsBench
{
	BsRun		history;		/* the call's record: describe it here */
	FunctionCallInfo fcinfo;
	ReturnSetInfo *rsinfo;		/* set by bs_bench_rows */
	MemoryContext call_context; /* current at bs_bench_rows */
	BsClientWatch client;
	int			settings_nest;	/* GUC nest level of bs_bench_set's, or 0 */
	bool		warned_not_cold;	/* once per call */
} BsBench;

extern void bs_bench_begin(BsBench *b, FunctionCallInfo fcinfo,
						   const char *benchmark, int label_argno,
						   int record_argno);
extern void bs_bench_set(BsBench *b, const char *name, const char *value);
extern void bs_bench_rows(BsBench *b, const char *function, int ncols,
						  int ncols_older);
extern void bs_bench_put_row(BsBench *b, Datum *values, bool *nulls,
							 const BsSeries *series);
extern void bs_bench_warn_not_cold(BsBench *b, const BsColdState *cold,
								   const char *what);
extern void bs_bench_end(BsBench *b);

/*
 * The time series of a measured run: sampled with counts_fn at
 * interval_us (0: none), and from the progress count's checks when
 * progress is given.
 */
typedef struct BsMeasureSampling
{
	int64		interval_us;
	BsSampleCountsFn counts_fn;
	void	   *counts_arg;
	BsProgress *progress;		/* or NULL */
	const char *what;			/* names the run in the series' NOTICE */
} BsMeasureSampling;

/* One run's measurement, from bs_measure_start to bs_measure_stop. */
typedef struct BsMeasure
{
	BsColdState *cold;			/* its devices are watched; or NULL */
	BufferUsage bu_start;		/* the caller's at the start */
	BufferUsage bu;				/* the caller's over the run */
	BsOsReads	os_reads;
	instr_time	start;
	double		elapsed_ms;
	bool		os_known;		/* os_read is the kernel's count */
	uint64		os_read;		/* bytes the kernel read for the run */
	BsProgress *progress;		/* sampled from, or NULL */
	bool		sampling;
	BsSampler	sampler;
	BsSeries	series;			/* the run's time series (empty: none) */
} BsMeasure;

extern void bs_measure_start(BsMeasure *m, BsColdState *cold,
							 const BsMeasureSampling *sampling);
extern void bs_measure_stop(BsMeasure *m, bool buffer_reads,
							uint64 others_os_read, bool others_os_known,
							uint64 scanned_bytes);

/* One run of bs_bench_run_all. */
typedef struct BsBenchRun
{
	int			run;			/* 1 .. repeat */
	BsColdState cold;			/* a cold run's preparation */
	BsMeasure	measure;		/* bracketed by the run callback; its series
								 * is the row's */
} BsBenchRun;

/*
 * The columns every row of a relation-reading run has, filled by the
 * driver from the run's measure (-1: the row has none); the row callback
 * may overwrite them.  cached_pct is followed by warnings and served_by.
 */
typedef struct BsBenchColumns
{
	int			run;
	int			elapsed_ms;
	int			blks_hit;
	int			blks_read;
	int			read_ms;
	int			os_read_mb;
	int			cached_pct;
} BsBenchColumns;

/*
 * The common columns of a benchmark whose result-column enum names them
 * COL_RUN, COL_ELAPSED_MS, ... as seqscan.c, randread.c and query.c do.
 */
#define BS_BENCH_COMMON_COLUMNS \
	((BsBenchColumns) {COL_RUN, COL_ELAPSED_MS, COL_BLKS_HIT, COL_BLKS_READ, \
					   COL_READ_MS, COL_OS_READ_MB, COL_CACHED_PCT})

typedef struct BsBenchOps
{
	/* the run: untimed work around bs_measure_start/stop on r->measure */
	void		(*run) (void *state, BsBenchRun *r);
	/* the row's own columns, after the driver's */
	void		(*row) (void *state, BsBenchRun *r, Datum *values, bool *nulls);
} BsBenchOps;

typedef struct BsBenchRuns
{
	int			repeat;
	int			ncols;			/* of the newest definition */
	BsBenchColumns columns;
	bool		cold;			/* cache => 'cold' */
	BsTarget   *target;			/* made cold before each run; NULL: the run
								 * callback does it into r->cold */
	bool		cold_files_only;	/* only the OS page cache counts (raw reads) */
	const char *cold_what;		/* the warning's subject: relation "x" */
	bool		run_context;	/* each run's memory freed after its row */
} BsBenchRuns;

extern void bs_bench_run_all(BsBench *b, const BsBenchRuns *runs,
							 const BsBenchOps *ops, void *state);

#endif							/* BENCHSTORE_BENCH_DRIVER_H */
