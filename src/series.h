/*-------------------------------------------------------------------------
 *
 * series.h
 *	  A run's time series: one sample per sample_interval of the figures a
 *	  result row gives for the whole run (see series.c).
 *
 * src/series.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BS_SERIES_H
#define BS_SERIES_H

#include "histogram.h"
#include "portability/instr_time.h"

/* bounds of sample_interval, and the default of the 1.2 definitions */
#define BS_SAMPLE_MIN_US		(INT64CONST(10) * 1000)
#define BS_SAMPLE_MAX_US		(INT64CONST(3600) * USECS_PER_SEC)
/* samples kept per result row; the series stops there, with a NOTICE */
#define BS_SERIES_MAX_SAMPLES	100000

/*
 * One interval of a run.  A figure that is unknown for the interval is
 * NaN, and NULL in the history.
 */
typedef struct BsSample
{
	double		start_ms;		/* since the row's timed work began */
	double		elapsed_ms;		/* the interval's length */
	double		mb_per_s;
	double		iops;			/* operations (blocks, chunks, executions) per second */
	double		lat_avg_us;		/* latency of the operations that ended in it: mean */
	double		lat_p50_us;
	double		lat_p99_us;
	double		read_mb;		/* the I/O split: MB read from the OS or a file */
	double		write_mb;		/* MB written */
	double		hit_mb;			/* MB found in shared (or local) buffers */
} BsSample;

typedef struct BsSeries
{
	int			nsamples;
	int			capacity;
	BsSample   *samples;
	bool		full;			/* BS_SERIES_MAX_SAMPLES reached */
} BsSeries;

/*
 * What the sampled run has done so far, cumulative from its start.  A
 * figure it cannot tell is left as its "have" flag says.
 */
typedef struct BsSampleCounts
{
	instr_time	now;
	uint64		bytes;
	uint64		ops;
	bool		have_split;
	uint64		read_bytes;
	uint64		write_bytes;
	uint64		hit_bytes;
} BsSampleCounts;

typedef void (*BsSampleCountsFn) (void *arg, BsSampleCounts *counts);
/* fills in the run's latency histogram so far, cumulative from its start */
typedef void (*BsSampleHistFn) (void *arg, BsHistogram *cumulative);

/*
 * A sampler for a run whose figures come from cumulative counts: at each
 * tick it takes the counts and adds the difference to the series.
 * Latency percentiles, where the run has them, come from a cumulative
 * histogram (hist_fn), differenced the same way.
 */
typedef struct BsSampler
{
	int64		interval_us;	/* 0: off */
	instr_time	start;
	int64		next_tick_us;	/* since start */
	BsSampleCounts last;
	BsSampleCountsFn counts_fn;
	void	   *counts_arg;
	BsSampleHistFn hist_fn;		/* NULL: the samples have no latency */
	BsHistogram *last_hist;		/* hist_fn's at the last tick */
	BsSeries   *series;
	const char *what;			/* names the run in the NOTICE when full */
} BsSampler;

extern int64 bs_sample_interval_arg(FunctionCallInfo fcinfo, int argno);
extern void bs_series_init(BsSeries *series);
extern void bs_series_add(BsSeries *series, const BsSample *sample,
						  const char *what);
extern void bs_sample_blank(BsSample *sample);
extern void bs_sample_from_counts(BsSample *sample, instr_time start,
								  const BsSampleCounts *from,
								  const BsSampleCounts *to);
struct BufferUsage;
extern void bs_sample_buffer_split(BsSampleCounts *c, const struct BufferUsage *start);
extern void bs_sample_latency(BsSample *sample, const BsHistogram *interval);

extern void bs_sampler_begin(BsSampler *sampler, int64 interval_us,
							 BsSampleCountsFn counts_fn, void *counts_arg,
							 BsSeries *series, const char *what);
extern void bs_sampler_set_latency(BsSampler *sampler, BsSampleHistFn hist_fn);
extern void bs_sampler_check(BsSampler *sampler, instr_time now);
extern void bs_sampler_end(BsSampler *sampler);
extern int64 bs_next_tick_us(instr_time start, instr_time now, int64 interval_us);

static inline bool
bs_sampler_due(const BsSampler *sampler, instr_time now)
{
	instr_time	since = now;

	if (sampler == NULL || sampler->interval_us == 0)
		return false;
	INSTR_TIME_SUBTRACT(since, sampler->start);
	return (int64) INSTR_TIME_GET_MICROSEC(since) >= sampler->next_tick_us;
}

#endif							/* BS_SERIES_H */
