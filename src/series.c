/*-------------------------------------------------------------------------
 *
 * series.c
 *	  A run's time series: one sample per sample_interval (1.2), of the
 *	  figures its result row gives for the whole run, so that a checkpoint
 *	  storm, a garbage-collection pause or a volume's burst credits running
 *	  out show instead of vanishing into one average.
 *
 * A sampler keeps the run's cumulative counts at the last tick; at the next
 * one it takes them again and adds their difference, divided by the time
 * between, to the series.  Ticks fall on a grid of sample_interval from the
 * run's start, but a sample covers the time from the previous tick to when
 * the run looked at the clock: a run that looks only between operations
 * (one long read, say) makes a longer sample, and says so in elapsed_ms.
 * The last sample ends with the run and may be short.  Latency percentiles
 * come from the difference of two snapshots of the run's cumulative
 * latency histogram (iostat.c), so that they are as exact per interval as
 * the row's are for the whole run.
 *
 * Samples go into the history with the row they belong to (history.c),
 * into bench_sample.  A row keeps at most BS_SERIES_MAX_SAMPLES: past
 * that, the series stops and a NOTICE says so.
 *
 * src/series.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "benchstore.h"
#include "compat.h"
#include "datatype/timestamp.h"
#include "executor/instrument.h"
#include "histogram.h"
#include "series.h"
#include "utils/timestamp.h"

/*
 * sample_interval: an interval between 10 ms and 1 hour; NULL or zero
 * turns sampling off.  Returns microseconds, 0 for off.
 */
int64
bs_sample_interval_arg(FunctionCallInfo fcinfo, int argno)
{
	Interval   *iv;
	double		us;

	if (PG_ARGISNULL(argno))
		return 0;
	iv = PG_GETARG_INTERVAL_P(argno);
	/* in floating point first: a large interval must not wrap around */
	us = (double) iv->time +
		((double) iv->day + (double) iv->month * DAYS_PER_MONTH) *
		(double) USECS_PER_DAY;
	if (us == 0)
		return 0;
	if (us < (double) BS_SAMPLE_MIN_US || us > (double) BS_SAMPLE_MAX_US)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sample_interval must be between 10 milliseconds and 1 hour"),
				 errhint("Pass sample_interval => NULL to take no samples.")));
	return (int64) us;
}

void
bs_series_init(BsSeries *series)
{
	memset(series, 0, sizeof(*series));
}

/* Every figure unknown. */
void
bs_sample_blank(BsSample *sample)
{
	sample->start_ms = 0;
	sample->elapsed_ms = 0;
	sample->mb_per_s = NAN;
	sample->iops = NAN;
	sample->lat_avg_us = NAN;
	sample->lat_p50_us = NAN;
	sample->lat_p99_us = NAN;
	sample->read_mb = NAN;
	sample->write_mb = NAN;
	sample->hit_mb = NAN;
}

/*
 * Append a sample; past BS_SERIES_MAX_SAMPLES, say once that the series of
 * the run what names stops there.
 */
void
bs_series_add(BsSeries *series, const BsSample *sample, const char *what)
{
	if (series->full)
		return;
	if (series->nsamples >= BS_SERIES_MAX_SAMPLES)
	{
		series->full = true;
		ereport(NOTICE,
				(errmsg("the time series of %s stops at %d samples",
						what ? what : "the run", BS_SERIES_MAX_SAMPLES),
				 errdetail("The run goes on and its result rows cover all of it."),
				 errhint("Pass a longer sample_interval for a series of the whole run.")));
		return;
	}
	if (series->nsamples == series->capacity)
	{
		int			cap = Max(64, series->capacity * 2);

		cap = Min(cap, BS_SERIES_MAX_SAMPLES);
		if (series->samples == NULL)
			series->samples = palloc(sizeof(BsSample) * cap);
		else
			series->samples = repalloc(series->samples, sizeof(BsSample) * cap);
		series->capacity = cap;
	}
	series->samples[series->nsamples++] = *sample;
}

/* The rates and split between two cumulative counts. */
void
bs_sample_from_counts(BsSample *sample, instr_time start,
					  const BsSampleCounts *from, const BsSampleCounts *to)
{
	double		from_ms = (bs_instr_time_ns(from->now) - (double) bs_instr_time_ns(start)) / 1e6;
	double		to_ms = (bs_instr_time_ns(to->now) - (double) bs_instr_time_ns(start)) / 1e6;
	double		elapsed_ms = to_ms - from_ms;

	bs_sample_blank(sample);
	sample->start_ms = bs_round(from_ms, 3);
	sample->elapsed_ms = bs_round(elapsed_ms, 3);
	if (elapsed_ms <= 0)
		return;
	sample->mb_per_s = bs_round(bs_per_second((to->bytes - from->bytes) / BS_BYTES_PER_MB,
											  elapsed_ms), 2);
	sample->iops = bs_round(bs_per_second((double) (to->ops - from->ops), elapsed_ms), 1);
	if (to->have_split)
	{
		sample->read_mb = bs_round((to->read_bytes - from->read_bytes) / BS_BYTES_PER_MB, 3);
		sample->write_mb = bs_round((to->write_bytes - from->write_bytes) / BS_BYTES_PER_MB, 3);
		sample->hit_mb = bs_round((to->hit_bytes - from->hit_bytes) / BS_BYTES_PER_MB, 3);
	}
}

/*
 * The caller's blocks read from the OS and found in buffers since start
 * (shared and local), into a sample's counts: the I/O split of a run that
 * reads through the buffer manager in this process.
 */
void
bs_sample_buffer_split(BsSampleCounts *c, const BufferUsage *start)
{
	c->have_split = true;
	c->read_bytes = (uint64) (pgBufferUsage.shared_blks_read - start->shared_blks_read +
							  pgBufferUsage.local_blks_read - start->local_blks_read) * BLCKSZ;
	c->hit_bytes = (uint64) (pgBufferUsage.shared_blks_hit - start->shared_blks_hit +
							 pgBufferUsage.local_blks_hit - start->local_blks_hit) * BLCKSZ;
}

/* The interval's mean, p50 and p99 from its histogram; unknown when empty. */
void
bs_sample_latency(BsSample *sample, const BsHistogram *interval)
{
	if (interval->count == 0)
		return;
	sample->lat_avg_us = bs_round((double) interval->sum_ns / interval->count / 1000.0, 1);
	sample->lat_p50_us = bs_round(bs_hist_percentile_ns(interval, 0.50) / 1000.0, 1);
	sample->lat_p99_us = bs_round(bs_hist_percentile_ns(interval, 0.99) / 1000.0, 1);
}

/*
 * Start sampling a run now: counts_fn tells its cumulative counts, each
 * sample goes to series.  interval_us 0 leaves the sampler off.
 */
void
bs_sampler_begin(BsSampler *sampler, int64 interval_us,
				 BsSampleCountsFn counts_fn, void *counts_arg,
				 BsSeries *series, const char *what)
{
	memset(sampler, 0, sizeof(*sampler));
	sampler->interval_us = interval_us;
	sampler->counts_fn = counts_fn;
	sampler->counts_arg = counts_arg;
	sampler->series = series;
	sampler->what = what;
	sampler->next_tick_us = interval_us;
	if (interval_us == 0)
		return;
	counts_fn(counts_arg, &sampler->last);
	sampler->start = sampler->last.now;
}

/*
 * Give the samples the latency of the operations that ended in each:
 * hist_fn (called with the sampler's counts_arg) tells the run's
 * cumulative histogram.  Right after bs_sampler_begin.
 */
void
bs_sampler_set_latency(BsSampler *sampler, BsSampleHistFn hist_fn)
{
	if (sampler->interval_us == 0)
		return;
	sampler->hist_fn = hist_fn;
	sampler->last_hist = palloc(sizeof(BsHistogram));
	hist_fn(sampler->counts_arg, sampler->last_hist);
}

/* Take the counts and add a sample. */
static void
sampler_take(BsSampler *sampler)
{
	BsSampleCounts now;
	BsSample	sample;

	sampler->counts_fn(sampler->counts_arg, &now);
	bs_sample_from_counts(&sample, sampler->start, &sampler->last, &now);
	if (sampler->hist_fn)
	{
		BsHistogram cumulative;
		BsHistogram interval;

		sampler->hist_fn(sampler->counts_arg, &cumulative);
		bs_hist_reset(&interval);
		bs_hist_difference(&interval, &cumulative, sampler->last_hist);
		bs_sample_latency(&sample, &interval);
		*sampler->last_hist = cumulative;
	}
	if (sample.elapsed_ms > 0)
		bs_series_add(sampler->series, &sample, sampler->what);
	sampler->last = now;
}

/*
 * The next tick on the grid of interval_us from start, after now: ticks the
 * run did not look at in time are skipped, not made up.
 */
int64
bs_next_tick_us(instr_time start, instr_time now, int64 interval_us)
{
	INSTR_TIME_SUBTRACT(now, start);
	return ((int64) INSTR_TIME_GET_MICROSEC(now) / interval_us + 1) * interval_us;
}

/* At a tick (now past it), add the sample since the previous one. */
void
bs_sampler_check(BsSampler *sampler, instr_time now)
{
	if (!bs_sampler_due(sampler, now))
		return;
	sampler_take(sampler);
	sampler->next_tick_us = bs_next_tick_us(sampler->start, now, sampler->interval_us);
}

/* The run is over: its last sample, from the last tick to now. */
void
bs_sampler_end(BsSampler *sampler)
{
	if (sampler->interval_us == 0)
		return;
	sampler_take(sampler);
	sampler->interval_us = 0;
}
