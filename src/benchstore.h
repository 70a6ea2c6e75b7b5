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
