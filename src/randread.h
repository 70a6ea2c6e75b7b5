/*-------------------------------------------------------------------------
 *
 * randread.h
 *	  What randread.c (bench_randread) shares with randread_parallel.c (its
 *	  parallel workers): the state of one process's random reads of a
 *	  relation, and the run every process of a parallel run makes.
 *
 * src/randread.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_RANDREAD_H
#define BENCHSTORE_RANDREAD_H

#include "attribution.h"
#include "common/pg_prng.h"
#include "histogram.h"
#include "nodes/pg_list.h"
#include "permutation.h"
#include "port/atomics.h"
#include "progress.h"
#include "utils/rel.h"

#if PG_VERSION_NUM >= 170000
#include "storage/read_stream.h"
#define BS_HAVE_READ_STREAM 1
#endif

/* One relation with storage, and where its blocks start in the whole run. */
typedef struct BsRandPart
{
	Relation	rel;
	BlockNumber nblocks;
	uint64		first;			/* its block 0's number in the whole */
	bool		heap;			/* count line pointers on its pages */
	BsResidency *res;			/* its blocks' page-cache residency */
} BsRandPart;

/* How reads ahead of the current one are announced. */
typedef enum BsPrefetch
{
	BS_PREFETCH_NONE,			/* depth 1 */
	BS_PREFETCH_BUFFER,			/* PrefetchBuffer, depth - 1 blocks ahead */
	BS_PREFETCH_STREAM			/* a read stream at effective_io_concurrency = depth */
} BsPrefetch;

extern const char *const bs_prefetch_names[];

/* One process's reads: the relation's blocks, its order, its counts. */
typedef struct BsRandRead
{
	int			nparts;
	BsRandPart *parts;
	uint64		nblocks;		/* of all parts */
	bool		count_tuples;	/* every part is a heap */
	int			depth;
	BsPrefetch	prefetch;
	/* the order: serial, from the seed's PRNG */
	pg_prng_state prng;
	BsPerm		perm;
	uint64		issued;			/* positions of the order handed out this run */
	uint64		run_reads;		/* positions this run reads (all processes) */
	/* the order shared out: positions claimed from a shared counter */
	pg_atomic_uint64 *next_pos; /* NULL: a serial run */
	uint64		claim_next;
	uint64		claim_end;
	BsPermCursor cursor;
	/* the order ahead of the reads, for PrefetchBuffer: a ring of depth - 1 */
	uint64	   *ahead;
	int8	   *ahead_resident; /* each one's residency when announced */
	int			ahead_head;		/* next to read */
#ifdef BS_HAVE_READ_STREAM
	ReadStream *stream;
#endif
	/* the run so far, this process's */
	uint64		reads;
	int64		tuples;
	BsHistogram hist;
	BsReadClasses *classes;		/* the reads by where they were served */
} BsRandRead;

extern void bs_randread_open(BsRandRead *rr, List *relids,
							 const BlockNumber *nblocks, const char *relname);
extern void bs_randread_prepare(BsRandRead *rr, int depth, BsPrefetch prefetch);
extern void bs_randread_run(BsRandRead *rr, uint64 reads, int64 seed,
							pg_atomic_uint64 *next_pos, BsProgress *progress);
extern void bs_randread_close(BsRandRead *rr);

/* randread_parallel.c: a run shared with parallel workers */

/* One process's part of a parallel run, for by_process. */
typedef struct BsRandProcess
{
	int			pid;
	uint64		reads;
	int64		tuples;
	double		elapsed_ms;		/* from the start to its last read */
	uint64		os_read;		/* bytes its kernel read from storage */
	bool		os_known;
	BsReadClasses classes;
} BsRandProcess;

typedef struct BsRandParallel BsRandParallel;

extern BsRandParallel *bs_randread_parallel_begin(BsRandRead *rr, int nworkers,
												  uint64 reads, int64 seed);
extern void bs_randread_parallel_start(BsRandParallel *rp);
extern int	bs_randread_parallel_run(BsRandParallel *rp, BsRandRead *rr,
									 BsProgress *progress,
									 BsRandProcess *processes);
extern void bs_randread_parallel_end(BsRandParallel *rp);

#endif							/* BENCHSTORE_RANDREAD_H */
