/*-------------------------------------------------------------------------
 *
 * scan_reads.c
 *	  The reads a scan of a relation is made of, which bench_seqscan
 *	  (seqscan.c), its parallel workers (seqscan_parallel.c) and
 *	  bench_randread share: tuples counted a page at a time as count(*)
 *	  counts them, line pointers of a page, and raw reads of segment files,
 *	  one chunk at a time or at a depth through an I/O engine.
 *
 * src/scan_reads.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/heapam.h"
#include "access/relation.h"
#include "access/tableam.h"
#include "compat.h"
#include "executor/instrument.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "portability/instr_time.h"
#include "progress.h"
#include "scan_reads.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/fd.h"
#include "utils/rel.h"

/*
 * heap: count the tuples visible to the scan's snapshot, as count(*), in
 * an open heap scan: every block for a serial scan, or, for a parallel one
 * (pscan given), the blocks its allocator hands this process.
 *
 * The scan runs in page-at-a-time mode (an MVCC snapshot): visibility is
 * decided once per page under a share lock, all-visible pages skip the
 * per-tuple checks.  On PostgreSQL 15 and 16 heapgetpage() is exported and
 * does exactly that for one page, leaving the visible tuples' count in
 * rs_ntuples, so the count is taken a page at a time without stepping
 * through the tuples (what TABLESAMPLE does too), the next block coming
 * from the same place heapgettup_pagemode() takes it; later versions
 * replaced it with read streams, and there the tuples are counted through
 * heap_getnext().  Both check for interrupts once per page.
 */
int64
bs_count_heap_tuples(TableScanDesc scan, ParallelTableScanDesc pscan,
					 BsProgress *progress)
{
	HeapScanDesc hscan = (HeapScanDesc) scan;
	int64		ntuples = 0;

#if PG_VERSION_NUM < 170000
	Relation	rel = scan->rs_rd;
	ParallelBlockTableScanDesc pbscan = (ParallelBlockTableScanDesc) pscan;
	BlockNumber blkno = 0;

	Assert(scan->rs_flags & SO_ALLOW_PAGEMODE);
	if (pscan)
		table_block_parallelscan_startblock_init(rel, hscan->rs_parallelworkerdata,
												 pbscan);
	for (;;)
	{
		if (pscan)
			blkno = table_block_parallelscan_nextpage(rel,
													  hscan->rs_parallelworkerdata,
													  pbscan);
		if (blkno == InvalidBlockNumber || (!pscan && blkno >= hscan->rs_nblocks))
			break;
		heapgetpage(scan, blkno);
		ntuples += hscan->rs_ntuples;
		bs_progress_advance(progress, BLCKSZ);
		if (!pscan)
			blkno++;
	}
#else
	BlockNumber last_block = InvalidBlockNumber;
	BlockNumber counted = 0;	/* serial: blocks 0 .. counted-1 are done */

	/*
	 * heap_getnext() steps over pages without a visible tuple.  A serial
	 * scan reads the blocks in order from 0, so reaching block b means
	 * blocks up to b are done, empty or not.  The blocks of a parallel scan
	 * are handed out in chunks to several processes, so a gap between two
	 * of this process's blocks may be another's; there the caller's
	 * messages report the allocator's blocks handed out instead
	 * (bs_parallel_scan_run), and a process's own count, which only decides
	 * when the caller looks at the clock, advances by the blocks it stepped
	 * across.  The caller reports only when heap_getnext() returns to it: a
	 * stretch of empty pages it reads in one call passes without a message.
	 */
	while (heap_getnext(scan, ForwardScanDirection) != NULL)
	{
		BlockNumber block = hscan->rs_cblock;

		ntuples++;
		if (block == last_block)
			continue;
		if (pscan)
			bs_progress_advance(progress,
								(uint64) (last_block != InvalidBlockNumber &&
										  block > last_block ?
										  block - last_block : 1) * BLCKSZ);
		else if (block >= counted)
		{
			bs_progress_advance(progress, (uint64) (block + 1 - counted) * BLCKSZ);
			counted = block + 1;
		}
		last_block = block;
	}
	if (!pscan && hscan->rs_nblocks > counted)
		bs_progress_advance(progress, (uint64) (hscan->rs_nblocks - counted) * BLCKSZ);
#endif

	return ntuples;
}

/* Normal line pointers on a heap page; 0 for a new or unrecognisable one. */
int
bs_count_line_pointers(Page page)
{
	PageHeader	phdr = (PageHeader) page;
	OffsetNumber maxoff;
	int			n = 0;

	if (PageIsNew(page) ||
		phdr->pd_lower < SizeOfPageHeaderData ||
		phdr->pd_lower > phdr->pd_upper ||
		phdr->pd_upper > phdr->pd_special ||
		phdr->pd_special > BLCKSZ)
		return 0;

	maxoff = PageGetMaxOffsetNumber(page);
	for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++)
		if (ItemIdIsNormal(PageGetItemId(page, off)))
			n++;
	return n;
}

/*
 * Read want bytes (at most BS_RAW_CHUNK) of a segment file at offset into
 * buffer, completing short reads; fewer only at the end of the file.
 * Returns the bytes read.  The read time goes to totals->raw_io_time with
 * track_io_timing.
 */
ssize_t
bs_raw_read(int fd, const char *path, char *buffer, off_t offset,
			size_t want, BsScanTotals *totals)
{
	ssize_t		filled;
	instr_time	start;

	Assert(want <= BS_RAW_CHUNK);
	if (track_io_timing)
		INSTR_TIME_SET_CURRENT(start);
	filled = bs_io_sync_rw(fd, buffer, want, offset, false);
	if (filled < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", path)));
	if (track_io_timing)
	{
		instr_time	end;

		INSTR_TIME_SET_CURRENT(end);
		INSTR_TIME_ACCUM_DIFF(totals->raw_io_time, end, start);
	}
	return filled;
}

/*
 * A read at depth came back with only pages of its chunk: the file was cut
 * short after the scan sized it.  Reads complete in any order, so this one
 * need not be the first past the new end: the blocks found are those the
 * file has now (its descriptor is still open), or fewer.
 */
static void
raw_short_read(Relation rel, BsRawChunk *chunk, size_t pages)
{
	BlockNumber found = chunk->block + (BlockNumber) pages;
	struct stat st;

	if (fstat(chunk->fd, &st) == 0)
	{
		BlockNumber file_first = chunk->block -
			(BlockNumber) (chunk->offset / BLCKSZ);

		found = Min(found, file_first + (BlockNumber) (st.st_size / BLCKSZ));
	}
	bs_raw_fewer_blocks(rel, chunk->path, chunk->expected, found);
}

/*
 * Raw reads at iodepth > 1: keep the engine's slots busy with the chunks
 * next() hands out (at most BS_RAW_CHUNK bytes of a segment file each),
 * and count what completes: whole pages read, and with count_tuples the
 * normal line pointers on them.  Chunks complete in any order.  A chunk
 * that comes back short met the end of a file that was cut short under
 * the scan (next() hands out chunks within each file's size): the run
 * fails with XX001, as at depth 1.  While next() waits to close a file,
 * only completions are reaped.  With track_io_timing, the time spent
 * waiting for completions goes to totals->raw_io_time.
 *
 * On error the engine still has reads in flight on files that are open:
 * the abort drains the engine (io_engine.c's release callback, before the
 * locks are released) before it closes the transaction's files.
 */
void
bs_raw_read_depth(Relation rel, BsIoEngine *engine, BsRawNextFn next,
				  void *arg, bool count_tuples, int64 *blocks, int64 *nlp,
				  BsScanTotals *totals, BsProgress *progress)
{
	BsIoCompletion done[BS_MAX_IODEPTH];
	BsRawChunk	chunks[BS_MAX_IODEPTH];
	bool		end = false;

	for (;;)
	{
		int			slot;
		int			n;
		instr_time	start;

		CHECK_FOR_INTERRUPTS();
		while (!end && (slot = bs_io_engine_free_slot(engine)) >= 0)
		{
			BsRawChunk *chunk = &chunks[slot];
			BsRawNext	what = next(arg, engine, chunk);

			if (what == BS_RAW_NEXT_END)
				end = true;
			if (what != BS_RAW_NEXT_CHUNK)
				break;
			Assert(chunk->len > 0 && chunk->len <= BS_RAW_CHUNK &&
				   chunk->len % BLCKSZ == 0);
			bs_io_engine_prep(engine, slot, chunk->fd, false, chunk->offset,
							  chunk->len, 0);
		}
		/* next() waits only with reads in flight */
		if (bs_io_engine_inflight(engine) == 0)
		{
			Assert(end);
			break;
		}

		if (track_io_timing)
			INSTR_TIME_SET_CURRENT(start);
		n = bs_io_engine_reap(engine, done, lengthof(done));
		if (track_io_timing)
		{
			instr_time	end_time;

			INSTR_TIME_SET_CURRENT(end_time);
			INSTR_TIME_ACCUM_DIFF(totals->raw_io_time, end_time, start);
		}
		for (int k = 0; k < n; k++)
		{
			BsRawChunk *chunk = &chunks[done[k].slot];
			char	   *buffer = bs_io_engine_buffer(engine, done[k].slot);
			size_t		pages = done[k].done / BLCKSZ;

			if (done[k].error != 0)
			{
				errno = done[k].error;
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not read file \"%s\": %m", chunk->path)));
			}
			if (done[k].done < done[k].requested)
				raw_short_read(rel, chunk, pages);
			if (count_tuples)
				for (size_t p = 0; p < pages; p++)
					*nlp += bs_count_line_pointers((Page) (buffer + p * BLCKSZ));
			*blocks += pages;
			bs_progress_advance(progress, done[k].done);
		}
	}
}

/*
 * Open a segment file for raw reads at depth: with O_DIRECT, so that the
 * reads in flight go to the device as they are issued (buffered reads that
 * miss the page cache are served one by one by the kernel's io_uring
 * workers and its read-ahead); without it where the filesystem refuses
 * O_DIRECT (tmpfs).  Returns -1 with errno set, as OpenTransientFile.
 */
int
bs_raw_open_depth(const char *path)
{
	int			fd;

	fd = OpenTransientFile(path, O_RDONLY | PG_BINARY | PG_O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
	return fd;
}

/*
 * A raw read found fewer blocks than the relation had when the call opened
 * it: a segment file was removed or cut short under the scan.  The lock
 * held since then keeps PostgreSQL itself from truncating the relation,
 * so counting what is left would report a wrong size as a measurement.
 */
void
bs_raw_fewer_blocks(Relation rel, const char *path, BlockNumber expected,
					BlockNumber found)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("relation \"%s\" has fewer blocks on disk than when the call started",
					RelationGetRelationName(rel)),
			 errdetail("Reading \"%s\" found %u of its %u blocks: a segment file was removed or truncated.",
					   path, found, expected),
			 errhint("Something other than PostgreSQL changed the relation's files while it was locked; check the storage and the server log.")));
}
