/*-------------------------------------------------------------------------
 *
 * prefault.h
 *	  prefault.c: a relation's shared buffers mapped into this process
 *	  before a warm run's clock starts.
 *
 * src/prefault.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_PREFAULT_H
#define BENCHSTORE_PREFAULT_H

#include "storage/block.h"
#include "utils/relcache.h"

/* prefault.c: map a relation's shared buffers into this process, untimed */
extern int64 bs_map_relation_buffers(Relation rel, BlockNumber nblocks);
extern int	bs_shared_buffer_of(Relation rel, BlockNumber blkno);

#endif							/* BENCHSTORE_PREFAULT_H */
