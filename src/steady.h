/*-------------------------------------------------------------------------
 *
 * steady.h
 *	  Steady state judged fio's way on a run's time series (steady.c).
 *
 * src/steady.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_STEADY_H
#define BENCHSTORE_STEADY_H

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "history.h"
#include "series.h"

#define BS_STEADY_MAX_CRITERIA	6

typedef enum BsSteadyMetric
{
	BS_STEADY_IOPS,
	BS_STEADY_BW,
	BS_STEADY_LAT
} BsSteadyMetric;

/* One criterion: iops, bw or lat, the level or its slope, a limit in % */
typedef struct BsSteadyCriterion
{
	BsSteadyMetric metric;
	bool		slope;
	double		limit_pct;
	double		last_pct;		/* its value over the last full window; NaN: none */
} BsSteadyCriterion;

typedef struct BsSteady
{
	int			ncriteria;
	BsSteadyCriterion criteria[BS_STEADY_MAX_CRITERIA];
	int64		window_us;
	int			window_samples; /* samples in a window */
	double		ramp_ms;		/* samples starting before are not judged */
	double		interval_ms;	/* sample_interval */
	char	   *text;			/* as written back: "iops:5% over 30 s" */
	const char *unit;			/* what it judges, in words: "test", "run" */
	/* the verdict on the current test */
	bool		reached;
	double		reached_at_ms;	/* end of the first window that held */
	bool		judged;			/* a full window after the ramp was seen */
} BsSteady;

/*
 * The steady-state arguments of a run: ramp, until, steady, steady_window,
 * in that order (bench_tablespace_io, bench_commit, bench_tpcb).
 */
typedef struct BsSteadyArgs
{
	int64		ramp_us;		/* the warm-up left out of the figures; 0: none */
	bool		until_steady;	/* the run ends when the criterion holds */
	const char *until;			/* the until argument as given */
	char	   *steady;			/* the criterion as given; NULL: none */
	int64		window_us;		/* steady_window */
	BsSteady   *judge;			/* the criterion, parsed; NULL: none */
} BsSteadyArgs;

extern double bs_interval_us(const Interval *iv);
extern void bs_steady_args_parse(FunctionCallInfo fcinfo, int argno,
								 const char *unit, const char *until_default,
								 int64 max_us, const char *max_words,
								 int64 duration_us, int64 sample_interval_us,
								 BsSteadyArgs *out);
extern void bs_steady_args_record(BsRun *run, const BsSteadyArgs *a);
extern BsSteady *bs_steady_parse(const char *spec, int64 window_us,
								 int64 sample_interval_us, int64 ramp_us,
								 bool have_latency);
extern void bs_steady_reset(BsSteady *ss);
extern bool bs_steady_check(BsSteady *ss, const BsSeries *series);
extern char *bs_steady_shortfall(const BsSteady *ss, double measured_ms);

#endif							/* BENCHSTORE_STEADY_H */
