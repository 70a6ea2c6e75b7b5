/*-------------------------------------------------------------------------
 *
 * cache.h
 *	  cache.c: segment files, the OS page cache, and what a cold run's
 *	  preparation left cached above the storage.
 *
 * src/cache.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_CACHE_H
#define BENCHSTORE_CACHE_H

#include "nodes/pg_list.h"
#include "storage/block.h"
#include "target.h"
#include "utils/relcache.h"

/* cache.c: segment files and the OS page cache */
extern uint64 bs_main_fork_bytes(List *relids);
extern char *bs_segment_path(const char *fork_path, BlockNumber segno);
extern void bs_check_checkpoint_privilege(bool for_eviction);

/*
 * What a cold run's preparation left in the caches above the storage when
 * the timed run began (bs_make_target_cold), so that a row can say whether
 * the run was cold.
 */
typedef struct BsColdState
{
	int64		total_pages;	/* main-fork blocks of the target */
	int64		shared_pages;	/* of them still in shared buffers */
	int64		local_pages;	/* in this session's local buffers (temp tables) */
	int64		evicted_buffers;	/* shared buffers the eviction dropped (17+) */
	uint64		os_cached_bytes;	/* left in the OS page cache after eviction */
	/* the block devices under the target's tablespaces (blockdev.c) */
	struct BsDevStack *devices;
	int			ndevices;
} BsColdState;

/* a cold run is called not cold from this share of its pages cached on */
#define BS_NOT_COLD_PCT		1.0

extern void bs_make_target_cold(BsTarget *target, BsColdState *state);
extern int64 bs_target_buffered_pages(BsTarget *target, int64 *local_pages);
extern double bs_cold_cached_pct(const BsColdState *state);
extern char *bs_cold_warnings(const BsColdState *state);
extern void bs_cold_devices_start(BsColdState *state);
extern void bs_cold_devices_stop(BsColdState *state);
extern void bs_cold_release(BsColdState *state);
extern void bs_cold_columns(const BsColdState *state, bool cold,
							Datum *pct, bool *pct_null,
							Datum *warnings, bool *warnings_null,
							Datum *served_by, bool *served_by_null);
extern void bs_warn_not_cold(const char *what, const BsColdState *state);
extern void bs_evict_relation(Relation rel, bool sync_first, int *nfiles,
							  uint64 *file_bytes);
extern void bs_os_cache_residency(Relation rel, int *nfiles,
								  uint64 *file_bytes, uint64 *cached_bytes);

#endif							/* BENCHSTORE_CACHE_H */
