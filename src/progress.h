/*-------------------------------------------------------------------------
 *
 * progress.h
 *	  progress.c: NOTICE messages at benchstore.progress_interval during a
 *	  long run, and the hook the time series samples from.
 *
 * src/progress.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_PROGRESS_H
#define BENCHSTORE_PROGRESS_H

#include "port/atomics.h"
#include "portability/instr_time.h"

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

#endif							/* BENCHSTORE_PROGRESS_H */
