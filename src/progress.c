/*-------------------------------------------------------------------------
 *
 * progress.c
 *	  Progress of a long benchmark run as NOTICE messages: percent done,
 *	  MB so far, and the rate since the previous message, every
 *	  benchstore.progress_interval (0 turns them off).
 *
 * A run advances its BsProgress by the bytes it reads or writes; the
 * clock is read only after every BS_PROGRESS_CHECK_BYTES, so the cost is
 * one addition and one comparison per block.  A run with a time cap
 * (random and sync tests) counts as done by bytes or by time, whichever is
 * further along.  With parallel streams the caller reports for all of
 * them through total_fn.  In a parallel scan every process publishes its
 * bytes to a shared counter once per BS_PROGRESS_CHECK_BYTES (see
 * bs_progress_share) and the caller reports the counter.  The same clock
 * readings drive a run's time series when it has a sampler (series.c).
 *
 * src/progress.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "benchstore.h"
#include "progress.h"
#include "series.h"

/*
 * Start a run of total_bytes (0 if unknown) or duration_us (0 if no cap).
 * what names it in the messages.
 */
void
bs_progress_begin(BsProgress *p, char *what, uint64 total_bytes,
				  int64 duration_us)
{
	memset(p, 0, sizeof(*p));
	p->active = bs_progress_interval_ms > 0;
	p->what = what;
	p->total_bytes = total_bytes;
	p->duration_us = duration_us;
	p->next_check = BS_PROGRESS_CHECK_BYTES;
	INSTR_TIME_SET_CURRENT(p->start);
	p->last = p->start;
}

/* Bytes done by the run (all processes of a parallel one), and the share. */
static double
progress_fraction(BsProgress *p, double elapsed_s, uint64 *done)
{
	double		fraction = 0.0;

	*done = p->total_fn ? p->total_fn(p->total_arg) : p->done;
	if (p->total_bytes > 0)
		fraction = (double) *done / p->total_bytes;
	if (p->duration_us > 0)
		fraction = Max(fraction, elapsed_s * 1e6 / p->duration_us);
	return Min(fraction, 1.0);
}

/* Look at the clock; report when the interval has passed since the last. */
void
bs_progress_check(BsProgress *p)
{
	instr_time	now;
	instr_time	since_last;
	instr_time	since_start;
	double		last_ms;
	double		elapsed_s;
	uint64		done;
	double		fraction;

	p->next_check = p->done + BS_PROGRESS_CHECK_BYTES;
	if (p->publish)
		bs_progress_flush(p);
	if (p->quiet)
		return;
	INSTR_TIME_SET_CURRENT(now);
	if (p->sampler)
		bs_sampler_check(p->sampler, now);
	if (!p->active)
		return;
	since_last = now;
	INSTR_TIME_SUBTRACT(since_last, p->last);
	last_ms = INSTR_TIME_GET_MILLISEC(since_last);
	if (last_ms < bs_progress_interval_ms)
		return;

	since_start = now;
	INSTR_TIME_SUBTRACT(since_start, p->start);
	elapsed_s = INSTR_TIME_GET_DOUBLE(since_start);
	fraction = progress_fraction(p, elapsed_s, &done);

	if (p->total_bytes > 0 || p->duration_us > 0)
		ereport(NOTICE,
				(errmsg("%s: %.0f%% done, %.1f MB in %.1f s, %.1f MB/s now",
						p->what, fraction * 100.0,
						done / BS_BYTES_PER_MB, elapsed_s,
						bs_per_second((done - p->last_done) / BS_BYTES_PER_MB,
									  last_ms))));
	else
		ereport(NOTICE,
				(errmsg("%s: %.1f MB in %.1f s, %.1f MB/s now",
						p->what, done / BS_BYTES_PER_MB, elapsed_s,
						bs_per_second((done - p->last_done) / BS_BYTES_PER_MB,
									  last_ms))));
	p->last = now;
	p->last_done = done;
}

/*
 * The run is over: say at DEBUG1 where its count of bytes ended.  The
 * NOTICE messages come at the interval, so how far along the last one was
 * depends on timing; this one does not.  A run whose count ends short of
 * 100 % (pages left out of the count) shows here.
 */
void
bs_progress_end(BsProgress *p)
{
	instr_time	since_start;
	uint64		done;
	double		fraction;

	if (!p->active || p->quiet || p->total_bytes == 0)
		return;
	bs_progress_flush(p);
	INSTR_TIME_SET_CURRENT(since_start);
	INSTR_TIME_SUBTRACT(since_start, p->start);
	fraction = progress_fraction(p, INSTR_TIME_GET_DOUBLE(since_start), &done);
	ereport(DEBUG1,
			(errmsg_internal("%s: progress ended at %.0f%% done, %.1f MB of %.1f MB",
							 p->what, fraction * 100.0, done / BS_BYTES_PER_MB,
							 p->total_bytes / BS_BYTES_PER_MB)));
}

/* Read all processes' bytes from the shared counter. */
static uint64
shared_progress(void *arg)
{
	return pg_atomic_read_u64((pg_atomic_uint64 *) arg);
}

/*
 * Make p one of several processes' progress: its bytes go to counter, and
 * unless quiet (a parallel worker) it reports the counter's total.
 */
void
bs_progress_share(BsProgress *p, pg_atomic_uint64 *counter, bool quiet)
{
	p->publish = counter;
	p->published = 0;
	p->quiet = quiet;
	p->total_fn = shared_progress;
	p->total_arg = counter;
}

/* Add this process's bytes not yet published to the shared counter. */
void
bs_progress_flush(BsProgress *p)
{
	if (p->publish && p->done > p->published)
	{
		pg_atomic_fetch_add_u64(p->publish, p->done - p->published);
		p->published = p->done;
	}
}
