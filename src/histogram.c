/*-------------------------------------------------------------------------
 *
 * histogram.c
 *	  The latency histogram every timed benchmark keeps (histogram.h).
 *
 * A fixed log-linear array of counters: below 2^BS_HIST_SUB_BITS ns each
 * value has a bucket of its own; above, each power of two is split into
 * 2^BS_HIST_SUB_BITS = 128 equal buckets (relative error under 0.8 %), up
 * to 2^41 ns (about 36 minutes).  Adding a value is a few instructions and
 * never allocates; histograms of several processes are merged by adding
 * their counters, and one another process adds to is copied bucket by
 * bucket (each bucket has one writer).
 *
 * src/histogram.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "port/pg_bitutils.h"
#include "utils/fmgrprotos.h"

#include "benchstore.h"
#include "histogram.h"

/*
 * Bucket of a value: values below 2^BS_HIST_SUB_BITS have one bucket each;
 * above, each power of two [2^e, 2^(e+1)) is split into 2^BS_HIST_SUB_BITS
 * equal buckets.
 */
static inline int
hist_bucket(uint64 v)
{
	int			msb;
	int			shift;

	if (v < (UINT64CONST(1) << BS_HIST_SUB_BITS))
		return (int) v;
	msb = pg_leftmost_one_pos64(v);
	if (msb > BS_HIST_MAX_EXP)
		return BS_HIST_NBUCKETS - 1;
	shift = msb - BS_HIST_SUB_BITS;
	return (shift << BS_HIST_SUB_BITS) + (int) (v >> shift);
}

/* Smallest value of a bucket, and its width. */
static void
hist_bucket_range(int idx, uint64 *low, uint64 *width)
{
	int			shift;

	if (idx < (2 << BS_HIST_SUB_BITS))
	{
		*low = idx;
		*width = 1;
		return;
	}
	shift = (idx >> BS_HIST_SUB_BITS) - 1;
	*low = ((uint64) ((idx & ((1 << BS_HIST_SUB_BITS) - 1)) +
					  (1 << BS_HIST_SUB_BITS))) << shift;
	*width = UINT64CONST(1) << shift;
}

void
bs_hist_reset(BsHistogram *h)
{
	memset(h, 0, sizeof(BsHistogram));
}

void
bs_hist_add(BsHistogram *h, uint64 ns)
{
	h->buckets[hist_bucket(ns)]++;
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

void
bs_hist_merge(BsHistogram *dst, const BsHistogram *src)
{
	if (src->count == 0)
		return;
	for (int i = 0; i < BS_HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

/*
 * The value below which a fraction q of the values lie: the middle of the
 * bucket holding the value of rank ceil(q * count), never above the maximum.
 */
double
bs_hist_percentile_ns(const BsHistogram *h, double q)
{
	uint64		rank;
	uint64		seen = 0;

	if (h->count == 0)
		return 0;
	rank = (uint64) ceil(q * (double) h->count);
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < BS_HIST_NBUCKETS; i++)
	{
		seen += h->buckets[i];
		if (seen >= rank)
		{
			uint64		low;
			uint64		width;
			double		mid;

			hist_bucket_range(i, &low, &width);
			mid = (double) low + (double) (width - 1) / 2.0;
			return Min(mid, (double) h->max_ns);
		}
	}
	return (double) h->max_ns;
}

/*
 * The histogram as JSON for a result column: [[upper bound in µs, count],
 * ...] for the non-empty bins, four bins to a power of two of
 * microseconds (bounds 1, 1.19, 1.41, 1.68, 2, ... µs; below 1 µs one
 * bin).  Each value counts in the bin its histogram bucket starts in.
 */
Datum
bs_hist_jsonb(const BsHistogram *h)
{
	StringInfoData buf;
	uint64		bins[4 * 64 + 1];
	int			top = -1;
	bool		first = true;

	memset(bins, 0, sizeof(bins));
	for (int i = 0; i < BS_HIST_NBUCKETS; i++)
	{
		uint64		low;
		uint64		width;
		double		us;
		int			bin = 0;

		if (h->buckets[i] == 0)
			continue;
		hist_bucket_range(i, &low, &width);
		us = (double) low / 1000.0;
		if (us >= 1.0)
			bin = Min((int) floor(4.0 * log2(us)) + 1, 4 * 64);
		bins[bin] += h->buckets[i];
		top = Max(top, bin);
	}
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	for (int b = 0; b <= top; b++)
	{
		if (bins[b] == 0)
			continue;
		appendStringInfo(&buf, "%s[%.2f, " UINT64_FORMAT "]", first ? "" : ", ",
						 bs_round(pow(2.0, b / 4.0), 2), bins[b]);
		first = false;
	}
	appendStringInfoChar(&buf, ']');
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data));
}

/*
 * A copy of a histogram another process is adding to.  Each bucket has a
 * single writer and is read whole (aligned 8-byte loads), so the copy is
 * at worst an operation or two behind, never torn.
 */
void
bs_hist_copy_volatile(BsHistogram *dst, const BsHistogram *src)
{
	const volatile BsHistogram *v = (const volatile BsHistogram *) src;

	dst->count = v->count;
	dst->sum_ns = v->sum_ns;
	dst->max_ns = v->max_ns;
	for (int i = 0; i < BS_HIST_NBUCKETS; i++)
		dst->buckets[i] = v->buckets[i];
}

/*
 * dst += now - before: what a cumulative histogram gained between two
 * snapshots.  The maximum stays the later one's (an upper bound).
 */
void
bs_hist_difference(BsHistogram *dst, const BsHistogram *now,
				   const BsHistogram *before)
{
	for (int i = 0; i < BS_HIST_NBUCKETS; i++)
	{
		uint64		gained = now->buckets[i] >= before->buckets[i] ?
			now->buckets[i] - before->buckets[i] : 0;

		dst->buckets[i] += gained;
		dst->count += gained;
	}
	if (now->sum_ns >= before->sum_ns)
		dst->sum_ns += now->sum_ns - before->sum_ns;
	dst->max_ns = Max(dst->max_ns, now->max_ns);
}
