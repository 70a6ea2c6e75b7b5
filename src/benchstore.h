/*-------------------------------------------------------------------------
 *
 * benchstore.h
 *	  Declarations shared by the benchstore capability files: argument
 *	  checking, units, OS I/O counters and OS page-cache control.
 *
 * src/benchstore.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_H
#define BENCHSTORE_H

#include "fmgr.h"
#include "storage/block.h"
#include "target.h"
#include "utils/relcache.h"

/* MB means 2^20 bytes throughout, as pg_size_pretty does. */
#define BS_BYTES_PER_MB		((double) (1024 * 1024))

/* benchstore.c: settings */
extern bool bs_track_latency;

/* benchstore.c: arguments, units, names */
extern void bs_require_arg(FunctionCallInfo fcinfo, int argno,
						   const char *argname);
extern int	bs_parse_choice(text *value, const char *argname,
							const char *const *choices, int nchoices);
extern double bs_round(double value, int digits);
extern double bs_per_second(double amount, double elapsed_ms);
extern char *bs_tablespace_name(Oid spcoid);

/* iostat.c: what the kernel really did for this backend */
extern bool bs_os_read_bytes(uint64 *bytes);

/* iostat.c: latency histogram (see iostat.c) */
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

/* cache.c: segment files and the OS page cache */
extern char *bs_segment_path(const char *fork_path, BlockNumber segno);
extern void bs_check_checkpoint_privilege(bool for_eviction);
extern uint64 bs_make_target_cold(BsTarget *target);
extern void bs_warn_still_cached(Relation rel, uint64 cached_bytes);
extern void bs_evict_relation(Relation rel, bool sync_first, int *nfiles,
							  uint64 *file_bytes);
extern void bs_os_cache_residency(Relation rel, int *nfiles,
								  uint64 *file_bytes, uint64 *cached_bytes);

#endif							/* BENCHSTORE_H */
