/*-------------------------------------------------------------------------
 *
 * randread_reader.c
 *	  One process's random block reads of a relation (BsRandRead,
 *	  randread.h): the seeded order of its blocks, the reads through the
 *	  buffer manager (ReadBuffer with PrefetchBuffer ahead, or a read
 *	  stream on 17+), each read's class and time.  bench_randread
 *	  (randread.c) and its parallel workers (randread_parallel.c) run it.
 *
 * src/randread_reader.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/xact.h"
#include "attribution.h"
#include "benchstore.h"
#include "catalog/pg_class_d.h"
#include "common/pg_prng.h"
#include "compat.h"
#include "executor/instrument.h"
#include "funcapi.h"
#include "histogram.h"
#include "miscadmin.h"
#include "permutation.h"
#include "prefault.h"
#include "progress.h"
#include "randread.h"
#include "scan_reads.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/guc.h"
#include "utils/rel.h"
#include "utils/spccache.h"

const char *const bs_prefetch_names[] = {"none", "PrefetchBuffer", "read stream"};

/* Positions of the order a process claims at a time in a parallel run. */
#define BS_RANDREAD_CLAIM	16

/* No block: the order is exhausted for this run (or this process). */
#define BS_NO_BLOCK	PG_UINT64_MAX


/* The part that holds whole-run block b, by binary search. */
static BsRandPart *
part_of(BsRandRead *rr, uint64 b, BlockNumber *blkno)
{
	int			lo = 0;
	int			hi = rr->nparts - 1;

	while (lo < hi)
	{
		int			mid = (lo + hi + 1) / 2;

		if (rr->parts[mid].first <= b)
			lo = mid;
		else
			hi = mid - 1;
	}
	*blkno = (BlockNumber) (b - rr->parts[lo].first);
	return &rr->parts[lo];
}

/*
 * Open the relations with storage and number their blocks: relname names
 * the relation in the error for none.  A parallel worker passes the block
 * counts the caller took (nblocks), so that every process numbers the
 * same blocks and walks the same order.
 */
void
bs_randread_open(BsRandRead *rr, List *relids, const BlockNumber *nblocks,
				 const char *relname)
{
	ListCell   *lc;
	int			i = 0;

	rr->nparts = list_length(relids);
	rr->parts = palloc0(sizeof(BsRandPart) * Max(rr->nparts, 1));
	rr->count_tuples = true;
	foreach(lc, relids)
	{
		BsRandPart *p = &rr->parts[i];

		p->rel = relation_open(lfirst_oid(lc), AccessShareLock);
		p->nblocks = nblocks ? nblocks[i] : RelationGetNumberOfBlocks(p->rel);
		p->first = rr->nblocks;
		p->heap = (p->rel->rd_rel->relkind == RELKIND_RELATION ||
				   p->rel->rd_rel->relkind == RELKIND_MATVIEW ||
				   p->rel->rd_rel->relkind == RELKIND_TOASTVALUE);
		rr->count_tuples &= p->heap;
		rr->nblocks += p->nblocks;
		p->res = bs_residency_open(p->rel);
		i++;
	}
	if (rr->nblocks == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("relation \"%s\" has no blocks to read", relname),
				 errhint("Load the relation first; bench_generate_tpch makes a data set.")));
}

/* The ring of reads announced ahead, and the counts by class. */
void
bs_randread_prepare(BsRandRead *rr, int depth, BsPrefetch prefetch)
{
	rr->depth = depth;
	rr->prefetch = prefetch;
	rr->classes = palloc0(sizeof(BsReadClasses));
	if (prefetch == BS_PREFETCH_BUFFER)
	{
		rr->ahead = palloc(sizeof(uint64) * (depth - 1));
		rr->ahead_resident = palloc(sizeof(int8) * (depth - 1));
	}

	/*
	 * A read stream looks up its tablespace's effective_io_concurrency as
	 * it begins: done here, untimed, so that a new process (a parallel
	 * worker) reads the catalog for it before its clock starts, not
	 * during its reads.
	 */
	if (prefetch == BS_PREFETCH_STREAM)
		(void) get_tablespace_io_concurrency(rr->parts[0].rel->rd_rel->reltablespace);
}

void
bs_randread_close(BsRandRead *rr)
{
	for (int i = 0; i < rr->nparts; i++)
	{
		bs_residency_close(rr->parts[i].res);
		relation_close(rr->parts[i].rel, AccessShareLock);
	}
}

/*
 * The block at the order's next position for this process, or BS_NO_BLOCK
 * when the run has handed out all of them.  A serial run walks the order;
 * in a parallel run the processes claim BS_RANDREAD_CLAIM positions at a
 * time from a shared counter, so that between them they read the same
 * blocks a serial run reads, each position once.
 */
static uint64
next_position(BsRandRead *rr)
{
	if (rr->next_pos == NULL)
	{
		if (rr->issued >= rr->run_reads)
			return BS_NO_BLOCK;
		rr->issued++;
		return bs_perm_next(&rr->perm, rr->nblocks, &rr->prng);
	}
	if (rr->claim_next >= rr->claim_end)
	{
		uint64		first = pg_atomic_fetch_add_u64(rr->next_pos, BS_RANDREAD_CLAIM);

		if (first >= rr->run_reads)
			return BS_NO_BLOCK;
		rr->claim_next = first;
		rr->claim_end = Min(first + BS_RANDREAD_CLAIM, rr->run_reads);
	}
	rr->issued++;
	return bs_perm_cursor_at(&rr->cursor, rr->nblocks, rr->claim_next++);
}

/*
 * A block's page-cache residency before its read is asked for, or
 * BS_IN_SHARED_BUFFERS when shared buffers hold it then: a hit needs no
 * system call to be told from the kernel's reads.  Local buffers cannot be
 * looked up, so a temporary relation's blocks are always asked.
 */
#define BS_IN_SHARED_BUFFERS	2

static int
block_residency(BsRandRead *rr, BsRandPart *p, BlockNumber blkno)
{
	if (!RelationUsesLocalBuffers(p->rel) && bs_shared_buffer_of(p->rel, blkno) >= 0)
		return BS_IN_SHARED_BUFFERS;
	return bs_block_resident(p->res, blkno);
}

/*
 * Announce whole-run block b to the kernel, ahead of its read; its
 * residency is taken first, so that the read the announcement starts
 * still counts as the device read it is.
 */
static int8
prefetch_block(BsRandRead *rr, uint64 b)
{
	BlockNumber blkno;
	BsRandPart *p;
	int8		resident;

	if (b == BS_NO_BLOCK)
		return 0;
	p = part_of(rr, b, &blkno);
	resident = (int8) block_residency(rr, p, blkno);

	(void) PrefetchBuffer(p->rel, MAIN_FORKNUM, blkno);
	return resident;
}

/*
 * The next block of the order, keeping depth - 1 announced ahead of it;
 * *resident is its residency before its read was asked for.  BS_NO_BLOCK
 * once the order is exhausted (the ring is first in, first out: every
 * entry after an exhausted one is too).
 */
static uint64
next_block(BsRandRead *rr, int *resident)
{
	uint64		b;

	if (rr->depth <= 1 || rr->prefetch != BS_PREFETCH_BUFFER)
	{
		BlockNumber blkno;
		BsRandPart *p;

		b = next_position(rr);
		if (b == BS_NO_BLOCK)
			return b;
		p = part_of(rr, b, &blkno);
		*resident = block_residency(rr, p, blkno);
		return b;
	}
	b = rr->ahead[rr->ahead_head];
	*resident = rr->ahead_resident[rr->ahead_head];
	if (b == BS_NO_BLOCK)
		return b;
	rr->ahead[rr->ahead_head] = next_position(rr);
	rr->ahead_resident[rr->ahead_head] = prefetch_block(rr, rr->ahead[rr->ahead_head]);
	rr->ahead_head = (rr->ahead_head + 1) % (rr->depth - 1);
	return b;
}

/*
 * The class of a read: a buffer hit, else by the block's residency.  A
 * block in shared buffers when looked up but read from the kernel (its
 * buffer evicted in between) was not asked about: it counts as a
 * page-cache read, where a block just dropped from shared buffers usually
 * still is.
 */
static BsReadClass
read_class(BsRandRead *rr, bool hit, int resident)
{
	if (hit)
		return BS_READ_SHARED_BUFFERS;
	if (resident < 0)
		rr->classes->known = false;
	return resident > 0 ? BS_READ_PAGE_CACHE : BS_READ_DEVICE;
}

/* Count a block read: its tuples, its time, its class. */
static void
count_read(BsRandRead *rr, BsRandPart *p, Buffer buf, BsReadClass cls,
		   instr_time *before, BsProgress *progress)
{
	uint64		ns = 0;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	if (p->heap)
		rr->tuples += bs_count_line_pointers(BufferGetPage(buf));
	UnlockReleaseBuffer(buf);
	if (bs_track_latency)
	{
		instr_time	after;

		INSTR_TIME_SET_CURRENT(after);
		ns = bs_instr_time_ns(after) - bs_instr_time_ns(*before);
		bs_hist_add(&rr->hist, ns);
	}
	bs_read_classes_add(rr->classes, cls, bs_track_latency, ns);
	rr->reads++;
	bs_progress_advance(progress, BLCKSZ);
}

/* One run through ReadBuffer, announcing ahead with PrefetchBuffer. */
static void
randread_run_buffers(BsRandRead *rr, BsProgress *progress)
{
	if (rr->prefetch == BS_PREFETCH_BUFFER)
	{
		rr->ahead_head = 0;
		for (int i = 0; i < rr->depth - 1; i++)
		{
			rr->ahead[i] = next_position(rr);
			rr->ahead_resident[i] = prefetch_block(rr, rr->ahead[i]);
		}
	}

	for (;;)
	{
		int			resident = 0;
		uint64		b = next_block(rr, &resident);
		BlockNumber blkno;
		BsRandPart *p;
		Buffer		buf;
		int64		hits;
		bool		hit;
		instr_time	before;

		if (b == BS_NO_BLOCK)
			break;
		p = part_of(rr, b, &blkno);
		CHECK_FOR_INTERRUPTS();
		hits = pgBufferUsage.shared_blks_hit + pgBufferUsage.local_blks_hit;
		if (bs_track_latency)
			INSTR_TIME_SET_CURRENT(before);
		buf = ReadBufferExtended(p->rel, MAIN_FORKNUM, blkno, RBM_NORMAL, NULL);
		hit = pgBufferUsage.shared_blks_hit + pgBufferUsage.local_blks_hit > hits;
		count_read(rr, p, buf, read_class(rr, hit, resident), &before, progress);
	}
}

#ifdef BS_HAVE_READ_STREAM
/*
 * The read stream's next block, with its class as its per-buffer data:
 * in shared buffers when handed over (looked up in the buffer mapping
 * table, as PrefetchBuffer does), else its residency then.
 */
static BlockNumber
stream_next_block(ReadStream *stream, void *private_data, void *per_buffer_data)
{
	BsRandRead *rr = (BsRandRead *) private_data;
	BlockNumber blkno;
	int			residency;

	uint64		b = next_position(rr);

	if (b == BS_NO_BLOCK)
		return InvalidBlockNumber;
	blkno = (BlockNumber) b;
	residency = block_residency(rr, &rr->parts[0], blkno);
	*(uint8 *) per_buffer_data = (uint8)
		read_class(rr, residency == BS_IN_SHARED_BUFFERS, residency);
	return blkno;
}

/*
 * The stream's flags: at full depth from the first read; on 18, its reads
 * submitted in batches, as a bitmap heap scan's are (the callback never
 * waits for I/O: a mincore() call and a buffer mapping lookup, whose lock
 * is never held across I/O).
 */
#ifdef READ_STREAM_USE_BATCHING
#define BS_RANDREAD_STREAM_FLAGS	(READ_STREAM_FULL | READ_STREAM_USE_BATCHING)
#else
#define BS_RANDREAD_STREAM_FLAGS	READ_STREAM_FULL
#endif

/* One run through a read stream of the (one, not temporary) relation. */
static void
randread_run_stream(BsRandRead *rr, BsProgress *progress)
{
	rr->stream = read_stream_begin_relation(BS_RANDREAD_STREAM_FLAGS, NULL,
											rr->parts[0].rel, MAIN_FORKNUM,
											stream_next_block, rr,
											sizeof(uint8));
	for (;;)
	{
		Buffer		buf;
		void	   *per_buffer;
		instr_time	before;

		CHECK_FOR_INTERRUPTS();
		if (bs_track_latency)
			INSTR_TIME_SET_CURRENT(before);
		buf = read_stream_next_buffer(rr->stream, &per_buffer);
		if (!BufferIsValid(buf))
			break;
		count_read(rr, &rr->parts[0], buf, (BsReadClass) *(uint8 *) per_buffer,
				   &before, progress);
	}
	read_stream_end(rr->stream);
	rr->stream = NULL;
}
#endif

/*
 * One run of reads positions of the seed's order: all of them (next_pos
 * NULL), or this process's share of a parallel run, whose processes claim
 * positions from next_pos.
 */
void
bs_randread_run(BsRandRead *rr, uint64 reads, int64 seed,
				pg_atomic_uint64 *next_pos, BsProgress *progress)
{
	pg_prng_seed(&rr->prng, (uint64) seed);
	memset(&rr->perm, 0, sizeof(rr->perm));
	bs_perm_cursor_init(&rr->cursor, (uint64) seed);
	rr->next_pos = next_pos;
	rr->claim_next = rr->claim_end = 0;
	rr->issued = 0;
	rr->run_reads = reads;
	rr->reads = 0;
	rr->tuples = 0;
	bs_hist_reset(&rr->hist);
	bs_read_classes_reset(rr->classes);
#ifdef BS_HAVE_READ_STREAM
	if (rr->prefetch == BS_PREFETCH_STREAM)
		randread_run_stream(rr, progress);
	else
#endif
		randread_run_buffers(rr, progress);
	if (next_pos == NULL && rr->reads != reads)
		elog(ERROR, "random reads ended after " UINT64_FORMAT " of " UINT64_FORMAT " reads",
			 rr->reads, reads);
}
