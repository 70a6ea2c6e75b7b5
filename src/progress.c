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
 * them through total_fn.
 *
 * src/progress.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "benchstore.h"

int			bs_progress_interval_ms = 5000;

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
	double		fraction = 0.0;

	p->next_check = p->done + BS_PROGRESS_CHECK_BYTES;
	INSTR_TIME_SET_CURRENT(now);
	since_last = now;
	INSTR_TIME_SUBTRACT(since_last, p->last);
	last_ms = INSTR_TIME_GET_MILLISEC(since_last);
	if (last_ms < bs_progress_interval_ms)
		return;

	since_start = now;
	INSTR_TIME_SUBTRACT(since_start, p->start);
	elapsed_s = INSTR_TIME_GET_DOUBLE(since_start);
	done = p->total_fn ? p->total_fn(p->total_arg) : p->done;

	if (p->total_bytes > 0)
		fraction = (double) done / p->total_bytes;
	if (p->duration_us > 0)
		fraction = Max(fraction, elapsed_s * 1e6 / p->duration_us);
	fraction = Min(fraction, 1.0);

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
