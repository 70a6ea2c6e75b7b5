/*-------------------------------------------------------------------------
 *
 * histogram.h
 *	  The latency histogram every timed benchmark keeps: operations in
 *	  nanoseconds, 128 buckets to a power of two, merged across processes,
 *	  read for percentiles, differenced for a time series, shown as JSON.
 *
 * src/histogram.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BS_HISTOGRAM_H
#define BS_HISTOGRAM_H

#include "fmgr.h"

#define BS_HIST_SUB_BITS	7	/* 128 buckets per power of two */
#define BS_HIST_MAX_EXP		40	/* values up to 2^41 - 1 ns */
#define BS_HIST_NBUCKETS	(((BS_HIST_MAX_EXP - BS_HIST_SUB_BITS) << BS_HIST_SUB_BITS) + \
							 (2 << BS_HIST_SUB_BITS))

typedef struct BsHistogram
{
	uint64		count;
	uint64		sum_ns;
	uint64		max_ns;
	uint64		buckets[BS_HIST_NBUCKETS];
} BsHistogram;

extern void bs_hist_reset(BsHistogram *h);
extern void bs_hist_add(BsHistogram *h, uint64 ns);
extern void bs_hist_merge(BsHistogram *dst, const BsHistogram *src);
extern double bs_hist_percentile_ns(const BsHistogram *h, double q);
extern Datum bs_hist_jsonb(const BsHistogram *h);
extern void bs_hist_difference(BsHistogram *dst, const BsHistogram *now,
							   const BsHistogram *before);
extern void bs_hist_copy_volatile(BsHistogram *dst, const BsHistogram *src);

#endif							/* BS_HISTOGRAM_H */
