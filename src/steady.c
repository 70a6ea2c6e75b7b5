/*-------------------------------------------------------------------------
 *
 * steady.c
 *	  Steady state, judged the way fio's ss= option judges it, on the time
 *	  series a run takes (series.c), so that a figure can say whether it is
 *	  sustained or a burst, a fresh drive or a trend.
 *
 * A criterion names a figure of the samples and a limit in percent of its
 * mean over a window of the last steady_window of samples:
 *
 *	iops:L%, bw:L%, lat:L%
 *		every sample of the window is within L % of the window's mean
 *		(IOPS, MB/s, mean latency);
 *	iops_slope:L%, bw_slope:L%, lat_slope:L%
 *		the least-squares slope of the window, per sample, is within L % of
 *		the window's mean.
 *
 * These are fio's definitions (steadystate.c: the slope over sample
 * numbers 0 .. n-1, taken as a share of the mean); at fio's default
 * ss_interval of 1 s and benchstore's default sample_interval of 1 s the
 * two measure the same.  Several criteria joined by commas must all hold,
 * as SNIA's test specification asks of both the excursion and the slope.
 * Samples that start inside the ramp are never judged.
 *
 * src/steady.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>
#include <math.h>

#include "benchstore.h"
#include "history.h"
#include "steady.h"
#include "utils/builtins.h"

static const char *const steady_metrics[] = {"iops", "bw", "lat"};

/* An interval in microseconds, in floating point: a large one must not wrap. */
double
bs_interval_us(const Interval *iv)
{
	return (double) iv->time +
		((double) iv->day + (double) iv->month * DAYS_PER_MONTH) *
		(double) USECS_PER_DAY;
}

/*
 * The steady-state arguments at argno .. argno + 3: ramp (NULL: none),
 * until (until_default, or 'steady'), steady (a criterion, or NULL) and
 * steady_window, checked against each other and against the run's
 * duration and sample_interval (0: no series).  max_us bounds the ramp
 * and the window; max_words says that bound in an error message, unit
 * what ends at steady state ("test": each of bench_tablespace_io's;
 * "run").
 */
void
bs_steady_args_parse(FunctionCallInfo fcinfo, int argno, const char *unit,
					 const char *until_default, int64 max_us,
					 const char *max_words, int64 duration_us,
					 int64 sample_interval_us, BsSteadyArgs *out)
{
	const char *untils[2];
	double		us;

	memset(out, 0, sizeof(*out));
	if (!PG_ARGISNULL(argno))
	{
		us = bs_interval_us(PG_GETARG_INTERVAL_P(argno));
		if (us < 0 || us > (double) max_us)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("ramp must be between 0 and %s", max_words)));
		out->ramp_us = (int64) us;
	}

	untils[0] = until_default;
	untils[1] = "steady";
	bs_require_arg(fcinfo, argno + 1, "until");
	out->until_steady = bs_parse_choice(PG_GETARG_TEXT_PP(argno + 1), "until",
										untils, lengthof(untils)) == 1;
	out->until = untils[out->until_steady ? 1 : 0];
	if (!PG_ARGISNULL(argno + 2))
		out->steady = text_to_cstring(PG_GETARG_TEXT_PP(argno + 2));

	bs_require_arg(fcinfo, argno + 3, "steady_window");
	us = bs_interval_us(PG_GETARG_INTERVAL_P(argno + 3));
	if (us <= 0 || us > (double) max_us)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("steady_window must be positive and at most %s", max_words)));
	out->window_us = (int64) us;

	if (out->until_steady && out->steady == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("until => 'steady' needs a criterion in steady"),
				 errhint("For example steady => 'iops:5%%', or 'iops:20%%,iops_slope:0.5%%' for both the spread and the trend.")));
	if (out->steady != NULL && sample_interval_us == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("steady needs a time series to judge"),
				 errhint("Pass a sample_interval, e.g. '1s', instead of NULL.")));
	if (out->steady != NULL)
	{
		out->judge = bs_steady_parse(out->steady, out->window_us,
									 sample_interval_us, out->ramp_us,
									 bs_track_latency);
		out->judge->unit = unit;
	}
	if (out->until_steady &&
		(out->ramp_us + duration_us) / sample_interval_us > BS_SERIES_MAX_SAMPLES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a %s of up to %g s sampled every %g s would take more than %d samples",
						unit, (out->ramp_us + duration_us) / 1e6,
						sample_interval_us / 1e6, BS_SERIES_MAX_SAMPLES),
				 errdetail("With until => 'steady' steady state is judged on the whole %s's time series, which holds at most %d samples.",
						   unit, BS_SERIES_MAX_SAMPLES),
				 errhint("Pass a longer sample_interval or a shorter duration.")));
	if (out->until_steady && out->window_us > duration_us)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a steady_window of %g s cannot fit in a duration of %g s",
						out->window_us / 1e6, duration_us / 1e6),
				 errdetail("With until => 'steady' %s until its criterion holds over the window, or for at most duration after its ramp.",
						   strcmp(unit, "test") == 0 ? "each test runs" : "the run goes on"),
				 errhint("Pass a longer duration, e.g. duration => '5min', or a shorter steady_window.")));
}

/* The steady-state arguments, into the run's recorded arguments. */
void
bs_steady_args_record(BsRun *run, const BsSteadyArgs *a)
{
	bs_run_arg_json(run, "ramp_s", psprintf("%.6g", a->ramp_us / 1e6));
	bs_run_arg_text(run, "until", a->until);
	if (a->steady)
		bs_run_arg_text(run, "steady", a->steady);
	else
		bs_run_arg_json(run, "steady", "null");
	bs_run_arg_json(run, "steady_window_s", psprintf("%.6g", a->window_us / 1e6));
}

static void
bad_criterion(const char *spec, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid steady-state criterion \"%s\"", spec),
			 errdetail_internal("%s", detail),
			 errhint("Write it as fio's ss option: iops, bw or lat, with _slope to judge the trend, and a limit in percent of the mean, e.g. 'iops:5%%' or 'bw_slope:2%%'; several joined by commas must all hold.")));
}

/*
 * Parse steady (a criterion, or several joined by commas) for a window of
 * window_us sampled every sample_interval_us after a ramp of ramp_us.
 */
BsSteady *
bs_steady_parse(const char *spec, int64 window_us, int64 sample_interval_us,
				int64 ramp_us, bool have_latency)
{
	BsSteady   *ss = palloc0(sizeof(BsSteady));
	char	   *copy = pstrdup(spec);
	char	   *tok = copy;
	StringInfoData text;

	initStringInfo(&text);
	for (;;)
	{
		char	   *comma = strchr(tok, ',');
		BsSteadyCriterion *c;
		char	   *colon;
		char	   *name;
		char	   *end;
		int			m;
		int			dots;
		size_t		len;

		if (comma)
			*comma = '\0';
		while (isspace((unsigned char) *tok))
			tok++;
		len = strlen(tok);
		while (len > 0 && isspace((unsigned char) tok[len - 1]))
			tok[--len] = '\0';
		if (len == 0)
			bad_criterion(spec, "It has an empty criterion.");
		colon = strchr(tok, ':');
		if (colon == NULL)
			bad_criterion(spec, psprintf("\"%s\" has no limit.", tok));
		if (ss->ncriteria == BS_STEADY_MAX_CRITERIA)
			bad_criterion(spec, psprintf("At most %d criteria can be joined.",
										 BS_STEADY_MAX_CRITERIA));
		c = &ss->criteria[ss->ncriteria];
		*colon = '\0';
		name = tok;
		len = strlen(name);
		c->slope = (len > 6 && strcmp(name + len - 6, "_slope") == 0);
		if (c->slope)
			name[len - 6] = '\0';
		for (m = 0; m < lengthof(steady_metrics); m++)
			if (strcmp(name, steady_metrics[m]) == 0)
				break;
		if (m == lengthof(steady_metrics))
			bad_criterion(spec, psprintf("\"%s%s\" is not a figure the criterion can judge.",
										 name, c->slope ? "_slope" : ""));
		c->metric = (BsSteadyMetric) m;

		/* digits, and a fraction: no sign, exponent or hexadecimal */
		end = colon + 1;
		while (isspace((unsigned char) *end))
			end++;
		dots = 0;
		for (size_t k = 0; k < strspn(end, "0123456789."); k++)
			dots += (end[k] == '.');
		if (strspn(end, "0123456789.") == 0 || dots > 1)
			bad_criterion(spec, psprintf("The limit of %s%s is not a number.",
										 name, c->slope ? "_slope" : ""));
		c->limit_pct = strtod(end, NULL);
		end += strspn(end, "0123456789.");
		while (isspace((unsigned char) *end))
			end++;
		if (*end != '\0' && *end != '%')
			bad_criterion(spec, psprintf("The limit of %s%s is not a number.",
										 name, c->slope ? "_slope" : ""));
		if (*end != '%' || end[1] != '\0')
			bad_criterion(spec, psprintf("The limit of %s%s is not in percent: fio's absolute limits depend on its units, benchstore takes a share of the mean only.",
										 name, c->slope ? "_slope" : ""));
		if (!(c->limit_pct > 0 && c->limit_pct <= 100))
			bad_criterion(spec, psprintf("The limit of %s%s must be above 0%% and at most 100%%.",
										 name, c->slope ? "_slope" : ""));
		if (c->metric == BS_STEADY_LAT && !have_latency)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("a latency criterion needs benchstore.track_latency"),
					 errdetail("With benchstore.track_latency off the samples have no latency to judge."),
					 errhint("SET benchstore.track_latency = on, or judge iops or bw.")));
		c->last_pct = NAN;
		appendStringInfo(&text, "%s%s%s:%g%%", ss->ncriteria > 0 ? "," : "",
						 name, c->slope ? "_slope" : "", c->limit_pct);
		ss->ncriteria++;
		if (comma == NULL)
			break;
		tok = comma + 1;
	}

	ss->window_us = window_us;
	if (window_us / sample_interval_us > BS_SERIES_MAX_SAMPLES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("steady_window must hold at most %d samples", BS_SERIES_MAX_SAMPLES),
				 errhint("Lengthen sample_interval or shorten steady_window.")));
	ss->window_samples = (int) (window_us / sample_interval_us);
	if (ss->window_samples < 2)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("steady_window must hold at least 2 samples"),
				 errdetail("A window of %g s holds %d sample of sample_interval %g s.",
						   window_us / 1e6, ss->window_samples,
						   sample_interval_us / 1e6),
				 errhint("Lengthen steady_window or shorten sample_interval.")));
	ss->ramp_ms = ramp_us / 1000.0;
	ss->interval_ms = sample_interval_us / 1000.0;
	/* the window judged: whole samples */
	appendStringInfo(&text, " over %g s", ss->window_samples * (sample_interval_us / 1e6));
	ss->text = text.data;
	ss->unit = "test";
	bs_steady_reset(ss);
	return ss;
}

/* A new test: nothing judged yet. */
void
bs_steady_reset(BsSteady *ss)
{
	ss->reached = false;
	ss->reached_at_ms = NAN;
	ss->judged = false;
	for (int i = 0; i < ss->ncriteria; i++)
		ss->criteria[i].last_pct = NAN;
}

static double
sample_figure(const BsSample *s, BsSteadyMetric metric)
{
	switch (metric)
	{
		case BS_STEADY_IOPS:
			return s->iops;
		case BS_STEADY_BW:
			return s->mb_per_s;
		case BS_STEADY_LAT:
			return s->lat_avg_us;
	}
	return NAN;
}

/*
 * One criterion over the samples w[0 .. n-1]: the largest distance from
 * the mean, or the slope per sample, in percent of the mean; NaN when a
 * sample lacks the figure or the mean is not positive.
 */
static double
criterion_pct(const BsSteadyCriterion *c, const BsSample *w, int n)
{
	double		sum_y = 0;
	double		mean;

	for (int i = 0; i < n; i++)
	{
		double		y = sample_figure(&w[i], c->metric);

		if (isnan(y))
			return NAN;
		sum_y += y;
	}
	mean = sum_y / n;
	if (!(mean > 0))
		return NAN;

	if (!c->slope)
	{
		double		worst = 0;

		for (int i = 0; i < n; i++)
			worst = Max(worst, fabs(sample_figure(&w[i], c->metric) - mean));
		return 100.0 * worst / mean;
	}
	else
	{
		/* least squares over x = 0 .. n-1, as fio takes it */
		double		sum_x = 0;
		double		sum_x2 = 0;
		double		sum_xy = 0;
		double		slope;

		for (int i = 0; i < n; i++)
		{
			sum_x += i;
			sum_x2 += (double) i * i;
			sum_xy += i * sample_figure(&w[i], c->metric);
		}
		slope = (sum_xy - sum_x * sum_y / n) / (sum_x2 - sum_x * sum_x / n);
		return 100.0 * fabs(slope) / mean;
	}
}

/*
 * Judge the last window of the series, once a sample is added.  Returns
 * whether steady state holds; the first time it does is kept.
 */
bool
bs_steady_check(BsSteady *ss, const BsSeries *series)
{
	int			n = ss->window_samples;
	const BsSample *w;
	bool		holds = true;

	if (series->nsamples < n)
		return false;
	/* a full series takes no more samples: there is no newer window */
	if (series->full)
		return ss->reached;
	w = &series->samples[series->nsamples - n];
	/* a sample that began inside the ramp is part of the warm-up */
	if (w[0].start_ms + 0.001 < ss->ramp_ms)
		return false;
	/* nor is a test's short last sample, as fio judges whole intervals */
	if (w[n - 1].elapsed_ms < 0.5 * ss->interval_ms)
		return ss->reached;
	ss->judged = true;
	for (int i = 0; i < ss->ncriteria; i++)
	{
		BsSteadyCriterion *c = &ss->criteria[i];

		c->last_pct = criterion_pct(c, w, n);
		if (isnan(c->last_pct) || !(c->last_pct < c->limit_pct))
			holds = false;
	}
	if (holds && !ss->reached)
	{
		ss->reached = true;
		ss->reached_at_ms = w[n - 1].start_ms + w[n - 1].elapsed_ms;
	}
	return holds;
}

/*
 * Why a test did not reach steady state, in words for its warnings:
 * measured_ms is the time it ran after its ramp.
 */
char *
bs_steady_shortfall(const BsSteady *ss, double measured_ms)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "Steady state (%s) was not reached", ss->text);
	if (!ss->judged)
	{
		appendStringInfo(&buf, ": the %s ran %.1f s after its ramp, less than the window.",
						 ss->unit, measured_ms / 1000.0);
		return buf.data;
	}
	appendStringInfoString(&buf, "; over the last window");
	for (int i = 0; i < ss->ncriteria; i++)
	{
		const BsSteadyCriterion *c = &ss->criteria[i];
		const char *name = steady_metrics[c->metric];

		if (isnan(c->last_pct))
			appendStringInfo(&buf, "%s %s%s could not be judged", i > 0 ? "," : "",
							 name, c->slope ? "_slope" : "");
		else if (c->slope)
			appendStringInfo(&buf, "%s %s moved %.1f%% of its mean per sample (limit %g%%)",
							 i > 0 ? "," : "", name, c->last_pct, c->limit_pct);
		else
			appendStringInfo(&buf, "%s %s strayed %.1f%% from its mean (limit %g%%)",
							 i > 0 ? "," : "", name, c->last_pct, c->limit_pct);
	}
	appendStringInfoString(&buf, ": the figures may hold a burst or a trend.");
	return buf.data;
}
