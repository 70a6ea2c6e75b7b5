/*-------------------------------------------------------------------------
 *
 * prefault.c
 *	  Map into this process, before a scan's clock starts, the shared
 *	  buffers that hold the scan's blocks.
 *
 * Shared buffers are one large shared memory mapping.  A process that
 * touches a page of it for the first time takes a page fault, which fills
 * in the process's page table; the page itself is already there.  Every
 * new backend and every parallel worker pays that once per page it
 * touches.  It is a cost of the process, not of reading the relation, and
 * under some hypervisors it is large: on the virtual machine benchstore is
 * developed on (its page tables shadowed by the host) a new session's
 * first scan of a 1.1 GB table held in shared buffers took 0.9 s and its
 * second 0.1 s, and a parallel worker, always a new process, did a tenth
 * of a warm scan where it could do half.  On bare metal it is a few per
 * cent.  doc/methodology.md has the figures.
 *
 * So before the clock of a warm heap or buffer scan each process touches
 * what its scan will touch in shared memory and has not touched before:
 * for each buffer holding one of the relation's blocks, the buffer
 * mapping table's entry for it (by looking it up, as ReadBuffer does), its
 * descriptor, and one byte of each memory page of the block, after one
 * madvise(MADV_POPULATE_READ) per run of adjacent buffers (Linux 5.14 and
 * later), which fills the process's page table in one call.  A read of
 * shared memory maps the page writable, so the pins later written into
 * the descriptors take no fault either.  Nothing is written and nothing
 * pinned, and pages the server never touched are not allocated: only
 * buffers found holding the relation's blocks are touched.
 *
 * The buffers are found by one lookup per block of the relation, or, for
 * a relation of a thirty-second of shared buffers or more, by reading
 * every buffer descriptor's tag without its lock, as DropRelationBuffers
 * does (a tag torn by a concurrent change costs a needless touch or a
 * missed one, nothing else).  A process remembers which buffers it has
 * touched (a bit per shared buffer, kept for the process's life), so a
 * second run touches nothing again; a page the kernel unmaps since (page
 * migration, reclaim) is faulted inside the clock, as before.  Blocks not
 * in shared buffers are not touched: a cold scan reads them into whatever
 * buffers it gets, and those faults belong to reading.
 *
 * src/prefault.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/mman.h>
#include <unistd.h>

#include "miscadmin.h"
#include "prefault.h"
#include "storage/buf_internals.h"
#include "storage/bufmgr.h"
#include "storage/lwlock.h"
#include "utils/memdebug.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* Lookups or descriptors between two checks for interrupts. */
#define BS_PREFAULT_CHECK_EVERY	4096

/* One bit per shared buffer, set once this process has touched it. */
static uint64 *touched = NULL;

#define BUFFER_BIT(set, b)	((set)[(b) / 64] & (UINT64CONST(1) << ((b) % 64)))
#define SET_BUFFER_BIT(set, b)	((set)[(b) / 64] |= UINT64CONST(1) << ((b) % 64))

/* The buffer holding tag's block, or -1; maps the lookup's hash entries. */
static int
lookup_buffer(BufferTag *tag)
{
	uint32		hash = BufTableHashCode(tag);
	LWLock	   *partition_lock = BufMappingPartitionLock(hash);
	int			buf_id;

	LWLockAcquire(partition_lock, LW_SHARED);
	buf_id = BufTableLookup(tag, hash);
	LWLockRelease(partition_lock);
	return buf_id;
}

/*
 * The shared buffer holding block blkno of rel's main fork, or -1: a
 * lookup in the buffer mapping table, as ReadBuffer and PrefetchBuffer
 * make, nothing pinned (the buffer may hold another block by the time the
 * caller looks).  Not for relations in local buffers.
 */
int
bs_shared_buffer_of(Relation rel, BlockNumber blkno)
{
	BufferTag	tag;

#if PG_VERSION_NUM >= 160000
	InitBufferTag(&tag, &rel->rd_locator, MAIN_FORKNUM, blkno);
#else
	INIT_BUFFERTAG(tag, rel->rd_node, MAIN_FORKNUM, blkno);
#endif
	return lookup_buffer(&tag);
}

/* Map and touch [start, start + len) of shared memory. */
static void
touch_shared_range(const char *start, Size len)
{
	static Size page_size = 0;
	uintptr_t	first;
	uintptr_t	end;

	if (page_size == 0)
	{
		long		sz = sysconf(_SC_PAGESIZE);

		page_size = sz > 0 ? (Size) sz : 4096;
	}
	first = (uintptr_t) start & ~(uintptr_t) (page_size - 1);
	end = (uintptr_t) start + len;

#ifdef MADV_POPULATE_READ
	/* fills the page table in one call; the reads below then take no fault */
	(void) madvise((void *) first, end - first, MADV_POPULATE_READ);
#endif
	/*
	 * A hypervisor may still map each page on its first access.  The byte
	 * read is thrown away, and the buffers are not pinned: in a build for
	 * Valgrind (USE_VALGRIND) the buffer manager marks an unpinned buffer's
	 * block off-limits to this process, so these deliberate reads are kept
	 * out of Valgrind's reports; everything else stays checked.
	 */
#ifdef USE_VALGRIND
	VALGRIND_DISABLE_ERROR_REPORTING;
#endif
	for (uintptr_t p = first; p < end; p += page_size)
		(void) *(volatile const char *) p;
#ifdef USE_VALGRIND
	VALGRIND_ENABLE_ERROR_REPORTING;
#endif
}

/* Touch the descriptors and blocks of buffers [first, last]. */
static void
touch_buffer_run(int first, int last)
{
	int			n = last - first + 1;

	touch_shared_range((const char *) GetBufferDescriptor(first),
					   (Size) n * sizeof(BufferDescPadded));
	touch_shared_range(BufferGetBlock(first + 1), (Size) n * BLCKSZ);
}

/*
 * Touch, untimed, the shared memory a scan of blocks 0 .. nblocks-1 of
 * rel's main fork will touch, where this process has not touched it yet.
 * Returns the number of buffers touched now.  Temporary relations live in
 * the session's own local buffers and need nothing.
 */
int64
bs_map_relation_buffers(Relation rel, BlockNumber nblocks)
{
	int			nwords = (NBuffers + 63) / 64;
	uint64	   *found;
	BufferTag	tag;
	int64		ntouched = 0;
	int64		nfound = 0;
	int			run_first = -1;
	int			run_last = -1;

	if (RelationUsesLocalBuffers(rel) || nblocks == 0)
		return 0;

	if (touched == NULL)
		touched = MemoryContextAllocZero(TopMemoryContext,
										 sizeof(uint64) * nwords);
	found = palloc0(sizeof(uint64) * nwords);

	if (nblocks < (BlockNumber) (NBuffers / 32))
	{
		/* a small relation: look each block up */
		for (BlockNumber blkno = 0; blkno < nblocks; blkno++)
		{
			int			buf_id;

			if (blkno % BS_PREFAULT_CHECK_EVERY == 0)
				CHECK_FOR_INTERRUPTS();
#if PG_VERSION_NUM >= 160000
			InitBufferTag(&tag, &rel->rd_locator, MAIN_FORKNUM, blkno);
#else
			INIT_BUFFERTAG(tag, rel->rd_node, MAIN_FORKNUM, blkno);
#endif
			buf_id = lookup_buffer(&tag);
			if (buf_id < 0 || buf_id >= NBuffers)
				continue;
			nfound++;
			if (!BUFFER_BIT(touched, buf_id))
				SET_BUFFER_BIT(found, buf_id);
		}
	}
	else
	{
		/* a large one: read every descriptor's tag, unlocked */
		for (int buf_id = 0; buf_id < NBuffers; buf_id++)
		{
			BufferDesc *desc = GetBufferDescriptor(buf_id);

			if (buf_id % BS_PREFAULT_CHECK_EVERY == 0)
				CHECK_FOR_INTERRUPTS();
			tag = desc->tag;
#if PG_VERSION_NUM >= 160000
			if (!BufTagMatchesRelFileLocator(&tag, &rel->rd_locator))
				continue;
#else
			if (!RelFileNodeEquals(tag.rnode, rel->rd_node))
				continue;
#endif
			if (tag.forkNum != MAIN_FORKNUM || tag.blockNum >= nblocks)
				continue;
			nfound++;
			if (BUFFER_BIT(touched, buf_id))
				continue;
			/* what the scan's own lookup of this block will read */
			(void) lookup_buffer(&tag);
			SET_BUFFER_BIT(found, buf_id);
		}
	}

	/* touch the buffers found, in runs of adjacent ones */
	for (int w = 0; w < nwords; w++)
	{
		if (found[w] == 0)
			continue;
		CHECK_FOR_INTERRUPTS();
		for (int bit = 0; bit < 64; bit++)
		{
			int			buf_id = w * 64 + bit;

			if ((found[w] & (UINT64CONST(1) << bit)) == 0)
				continue;
			SET_BUFFER_BIT(touched, buf_id);
			ntouched++;
			if (run_first >= 0 && buf_id == run_last + 1)
			{
				run_last = buf_id;
				continue;
			}
			if (run_first >= 0)
				touch_buffer_run(run_first, run_last);
			run_first = run_last = buf_id;
		}
	}
	if (run_first >= 0)
		touch_buffer_run(run_first, run_last);

	pfree(found);
	elog(DEBUG1, "%lld of the %lld shared buffers holding blocks of \"%s\" touched before the clock",
		 (long long) ntouched, (long long) nfound, RelationGetRelationName(rel));
	return ntouched;
}
