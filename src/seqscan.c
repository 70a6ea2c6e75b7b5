/*-------------------------------------------------------------------------
 *
 * seqscan.c
 *	  bench_seqscan: time a sequential read of a relation, warm or cold,
 *	  in one of three modes.
 *
 *	heap	every visible tuple through the heap access method, page at a
 *			time, with the query's MVCC snapshot and synchronized scans off
 *			(each run starts at block 0): what SELECT count(*) reads, less
 *			the executor.
 *	buffer	every block of the main fork through shared buffers (local
 *			buffers for the caller's temporary tables), no tuple work.
 *	raw		the main fork's segment files read directly in 1 MB chunks,
 *			bypassing shared buffers: the storage rate, like dd on the
 *			same files.  Counts normal line pointers of table pages, which
 *			equals the tuple count only on a vacuumed, static table.  At
 *			iodepth > 1, that many chunks are in flight through io_uring
 *			(io_engine.c), each file read up to its size when reached.
 *
 * A cold run first requests a checkpoint, so that no page of the relation
 * is dirty, then evicts every segment file from the OS page cache (see
 * cache.c).  Timing covers the scan only, not the checkpoint or eviction.
 *
 * src/seqscan.c
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
#include "catalog/pg_am.h"
#include "benchstore.h"
#include "catalog/pg_class.h"
#include "compat.h"
#include "executor/instrument.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "portability/instr_time.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/fd.h"
#include "seqscan.h"
#include "series.h"
#include "target.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"

PG_FUNCTION_INFO_V1(bench_seqscan);

static const char *const scan_modes[] = {"heap", "buffer", "raw"};

typedef struct BsScanSampleArg
{
	BsProgress *progress;
	BufferUsage bu_start;
	bool		split;			/* the caller alone: its buffer usage tells */
	bool		raw;
} BsScanSampleArg;

/* Result columns, in the order of the OUT parameters. */
enum
{
	COL_RUN,
	COL_RELATION,
	COL_TABLESPACE,
	COL_MODE,
	COL_CACHE,
	COL_PAGES,
	COL_SIZE_MB,
	COL_TUPLES,
	COL_ELAPSED_MS,
	COL_MB_PER_S,
	COL_TUPLES_PER_S,
	COL_BLKS_HIT,
	COL_BLKS_READ,
	COL_READ_MS,
	COL_OS_READ_MB,
	COL_WORKERS_REQUESTED,
	COL_WORKERS_LAUNCHED,
	COL_IODEPTH,				/* from version 1.1 on */
	COL_CACHED_PCT,				/* from version 1.2 on */
	COL_WARNINGS,
	COL_SERVED_BY,
	BS_SEQSCAN_NCOLS
};

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

/* heap, serial: every block, from block 0 (synchronized scans off). */
static void
scan_heap(Relation rel, Snapshot snapshot, BsScanTotals *totals,
		  BsProgress *progress)
{
	/* allow_strat: the bulk-read ring for large tables, as a seq scan. */
	TableScanDesc scan = table_beginscan_strat(rel, snapshot, 0, NULL,
											   true, false);

	totals->pages += ((HeapScanDesc) scan)->rs_nblocks;
	totals->tuples += bs_count_heap_tuples(scan, NULL, progress);
	table_endscan(scan);
}

/*
 * buffer: pin and release every block of the main fork.  Tables larger
 * than a quarter of shared_buffers go through the 256 kB bulk-read ring,
 * as a heap scan does; a cold run always does, so that it bypasses shared
 * buffers where PostgreSQL allows.
 */
static void
scan_buffers(Relation rel, bool cold, BsScanTotals *totals,
			 BsProgress *progress)
{
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	BufferAccessStrategy strategy = NULL;

	if (cold || nblocks > (BlockNumber) (NBuffers / 4))
		strategy = GetAccessStrategy(BAS_BULKREAD);

	for (BlockNumber blkno = 0; blkno < nblocks; blkno++)
	{
		Buffer		buf;

		CHECK_FOR_INTERRUPTS();
		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL,
								 strategy);
		ReleaseBuffer(buf);
		bs_progress_advance(progress, BLCKSZ);
	}

	if (strategy)
		FreeAccessStrategy(strategy);
	totals->pages += nblocks;
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
 * Serial raw reads at depth: each segment file in turn, up to its size
 * when it is opened.  A file is closed once every read of it is complete.
 */
typedef struct BsRawSerial
{
	char	   *fork_path;
	BlockNumber open_nblocks;	/* blocks when the call opened the relation */
	BlockNumber segno;
	int			fd;
	char	   *path;
	off_t		offset;
	off_t		size;
} BsRawSerial;

static BsRawNext
raw_serial_next(void *arg, BsIoEngine *engine, BsRawChunk *chunk)
{
	BsRawSerial *rs = (BsRawSerial *) arg;

	for (;;)
	{
		if (rs->fd < 0)
		{
			struct stat st;

			rs->path = bs_segment_path(rs->fork_path, rs->segno);
			rs->fd = bs_raw_open_depth(rs->path);
			if (rs->fd < 0)
			{
				if (errno == ENOENT)
					return BS_RAW_NEXT_END;
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not open file \"%s\": %m", rs->path)));
			}
			if (fstat(rs->fd, &st) != 0)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not stat file \"%s\": %m", rs->path)));
			rs->offset = 0;
			rs->size = st.st_size - st.st_size % BLCKSZ;
		}
		if (rs->offset < rs->size)
		{
			BlockNumber first = rs->segno * RELSEG_SIZE;

			chunk->fd = rs->fd;
			chunk->path = rs->path;
			chunk->offset = rs->offset;
			chunk->len = (size_t) Min((off_t) BS_RAW_CHUNK, rs->size - rs->offset);
			chunk->block = first + (BlockNumber) (rs->offset / BLCKSZ);
			/* the relation had at least this file's blocks when it was opened */
			chunk->expected = Max(rs->open_nblocks,
								  first + (BlockNumber) (rs->size / BLCKSZ));
			rs->offset += chunk->len;
			return BS_RAW_NEXT_CHUNK;
		}
		/* every chunk of this file is handed out: close it once read */
		if (bs_io_engine_inflight(engine) > 0)
			return BS_RAW_NEXT_WAIT;
		CloseTransientFile(rs->fd);
		rs->fd = -1;
		pfree(rs->path);
		rs->path = NULL;
		rs->segno++;
	}
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

/*
 * raw: read every segment file of the main fork in BS_RAW_CHUNK chunks,
 * like dd; at iodepth > 1, with that many chunks in flight (up to each
 * file's size when the scan reaches it).  The files are opened read-only
 * and closed on error or cancel.
 */
static void
scan_raw(Relation rel, BlockNumber open_nblocks, char *buffer,
		 BsIoEngine *engine, BsScanTotals *totals, BsProgress *progress)
{
	char	   *fork_path = bs_relation_fork_path(rel, MAIN_FORKNUM);
	/* line pointers mean tuples on heap pages only */
	bool		count_tuples = RELKIND_HAS_TABLE_AM(rel->rd_rel->relkind) &&
		rel->rd_rel->relam == HEAP_TABLE_AM_OID;
	int64		nlp = 0;
	int64		blocks_total = 0;

	if (engine != NULL)
	{
		BsRawSerial rs;

		memset(&rs, 0, sizeof(rs));
		rs.fork_path = fork_path;
		rs.open_nblocks = open_nblocks;
		rs.fd = -1;
		bs_raw_read_depth(rel, engine, raw_serial_next, &rs, count_tuples,
						  &blocks_total, &nlp, totals, progress);
		Assert(rs.fd < 0);
	}
	else
	{
		for (BlockNumber segno = 0;; segno++)
		{
			char	   *path = bs_segment_path(fork_path, segno);
			int			fd;
			off_t		offset = 0;

			fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
			if (fd < 0)
			{
				if (errno == ENOENT)
				{
					pfree(path);
					break;
				}
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not open file \"%s\": %m", path)));
			}

			/*
			 * Read chunk after chunk; a short read (a block being added at
			 * the end of the file) is completed before its pages are
			 * parsed, so that pages stay aligned to the buffer.  A partial
			 * last block is not a page and is not counted.
			 */
			for (;;)
			{
				ssize_t		filled;

				CHECK_FOR_INTERRUPTS();
				filled = bs_raw_read(fd, path, buffer, offset, BS_RAW_CHUNK,
									 totals);
				if (count_tuples)
					for (ssize_t pos = 0; pos + BLCKSZ <= filled;
						 pos += BLCKSZ)
						nlp += bs_count_line_pointers((Page) (buffer + pos));
				offset += filled;
				bs_progress_advance(progress, filled);
				if (filled < BS_RAW_CHUNK)
					break;
			}

			blocks_total += offset / BLCKSZ;
			CloseTransientFile(fd);
			pfree(path);
		}
	}

	if (blocks_total < (int64) open_nblocks)
		bs_raw_fewer_blocks(rel, fork_path, open_nblocks, (BlockNumber) blocks_total);
	pfree(fork_path);
	totals->pages += blocks_total;
	totals->raw_blocks += blocks_total;
	if (count_tuples)
		totals->tuples += nlp;
	else
		totals->tuples = -1;
}

/*
 * Before the clock of a warm heap or buffer run: map the shared buffers
 * holding the target's blocks into this process (prefault.c), so that a
 * session's first run is timed like its second.
 */
static void
map_target_buffers(BsTarget *target)
{
	ListCell   *lc;

	foreach(lc, target->storage_relids)
	{
		Relation	rel = relation_open(lfirst_oid(lc), NoLock);

		(void) bs_map_relation_buffers(rel, RelationGetNumberOfBlocks(rel));
		relation_close(rel, NoLock);
	}
}

/* One run in the caller alone: every relation of the target in turn. */
static void
scan_serial(BsTarget *target, BsScanMode mode, bool cold, Snapshot snapshot,
			char *raw_buffer, BsIoEngine *engine, BsScanTotals *totals,
			BsProgress *progress)
{
	ListCell   *lc;

	foreach(lc, target->storage_relids)
	{
		Relation	rel = relation_open(lfirst_oid(lc), NoLock);

		switch (mode)
		{
			case BS_MODE_HEAP:
				scan_heap(rel, snapshot, totals, progress);
				break;
			case BS_MODE_BUFFER:
				scan_buffers(rel, cold, totals, progress);
				break;
			case BS_MODE_RAW:
				scan_raw(rel,
						 (BlockNumber) list_nth_int(target->open_nblocks,
													foreach_current_index(lc)),
						 raw_buffer, engine, totals, progress);
				break;
		}
		relation_close(rel, NoLock);
	}
}

/* Write the local buffers of the target's temporary relations to their files. */
static void
flush_local_buffers(BsTarget *target)
{
	ListCell   *lc;

	foreach(lc, target->storage_relids)
	{
		Relation	rel = relation_open(lfirst_oid(lc), NoLock);

		if (RelationUsesLocalBuffers(rel))
			FlushRelationBuffers(rel);
		relation_close(rel, NoLock);
	}
}

/* Describe the call for the history (see history.c). */
static void
describe_run(BsRun *run, BsTarget *target, Oid relid, BsScanMode mode,
			 BsCacheState cache, int32 repeat, int32 workers)
{
	char	   *relname = get_rel_name(relid);
	char	   *qualified;
	ListCell   *lc;

	qualified = quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
										   relname);
	bs_run_target(run, "relation", qualified, relid);
	bs_run_arg_text(run, "relation", qualified);
	bs_run_arg_text(run, "mode", scan_modes[mode]);
	bs_run_arg_text(run, "cache", bs_cache_states[cache]);
	bs_run_arg_int(run, "repeat", repeat);
	bs_run_arg_int(run, "workers", workers);
	if (target->storage_relids == NIL)
		bs_run_tablespace(run, target->rel->rd_rel->reltablespace);
	foreach(lc, target->storage_relids)
		bs_run_tablespace(run, get_rel_tablespace(lfirst_oid(lc)));
}

/*
 * The time series of a run (series.c): its bytes so far from the progress
 * count (all processes' in a parallel scan), and from the caller's buffer
 * usage the split between blocks read from the OS and found in buffers.
 * A parallel scan's workers add their buffer usage only at the end, so it
 * has no split; raw mode reads everything from the files.
 */
static void
scan_sample_counts(void *arg, BsSampleCounts *c)
{
	BsScanSampleArg *a = (BsScanSampleArg *) arg;
	BsProgress *p = a->progress;

	memset(c, 0, sizeof(*c));
	INSTR_TIME_SET_CURRENT(c->now);
	c->bytes = p->total_fn ? p->total_fn(p->total_arg) : p->done;
	c->ops = c->bytes / BLCKSZ;
	c->have_split = a->split;
	if (!a->split)
		return;
	if (a->raw)
		c->read_bytes = c->bytes;
	else
		bs_sample_buffer_split(c, &a->bu_start);
}

/*
 * bench_seqscan(relation regclass, mode text DEFAULT 'heap',
 *				 cache text DEFAULT 'warm', repeat integer DEFAULT 1,
 *				 label text DEFAULT NULL, record boolean DEFAULT true,
 *				 workers integer DEFAULT 0)
 *	RETURNS SETOF record
 *
 * One row per run; the columns are documented in benchstore--1.0.sql.
 * The call is recorded in the history unless record is false.  With
 * workers > 0 each run is shared with that many parallel workers (see
 * seqscan_parallel.c), timed from their launch to the last one's end.
 */
Datum
bench_seqscan(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			relid;
	BsScanMode	mode;
	BsCacheState cache;
	int32		repeat;
	int32		workers;
	int32		scan_workers;
	BsTarget   *target;
	Snapshot	snapshot = NULL;
	char	   *raw_buffer = NULL;
	Datum		tablespace;
	bool		tablespace_null;
	bool		warned_not_cold = false;
	BsRun		history;
	int32		iodepth = 1;
	bool		iodepth_column = PG_NARGS() > 7;	/* 1.0 has neither */
	int			ncols;
	BsIoEngine *engine = NULL;
	BsClientWatch client;
	int64		sample_interval_us = 0;

	bs_require_arg(fcinfo, 0, "relation");
	bs_require_arg(fcinfo, 1, "mode");
	bs_require_arg(fcinfo, 2, "cache");
	bs_require_arg(fcinfo, 3, "repeat");
	bs_require_arg(fcinfo, 6, "workers");

	relid = PG_GETARG_OID(0);
	mode = (BsScanMode) bs_parse_choice(PG_GETARG_TEXT_PP(1), "mode",
										scan_modes, lengthof(scan_modes));
	cache = (BsCacheState) bs_parse_choice(PG_GETARG_TEXT_PP(2), "cache",
										   bs_cache_states, lengthof(bs_cache_states));
	repeat = PG_GETARG_INT32(3);
	if (repeat < 1 || repeat > BS_MAX_REPEAT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("repeat must be between 1 and %d", BS_MAX_REPEAT)));
	workers = PG_GETARG_INT32(6);
	if (workers < 0 || workers > BS_MAX_SCAN_WORKERS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("workers must be between 0 and %d", BS_MAX_SCAN_WORKERS)));
	if (iodepth_column)
	{
		bs_require_arg(fcinfo, 7, "iodepth");
		iodepth = PG_GETARG_INT32(7);
		if (iodepth < BS_MIN_IODEPTH || iodepth > BS_MAX_IODEPTH)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("iodepth must be between %d and %d",
							BS_MIN_IODEPTH, BS_MAX_IODEPTH)));
		if (iodepth != 1 && mode != BS_MODE_RAW)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("iodepth applies to raw mode only"),
					 errdetail("Mode \"%s\" reads through PostgreSQL's buffer manager, which keeps its own reads in flight.",
							   scan_modes[mode]),
					 errhint("Use mode => 'raw' to read the files at a depth of your choice; the server sets its own with effective_io_concurrency (and io_method on PostgreSQL 18).")));
		if (iodepth > 1)
		{
			bs_io_check_buffer_memory(iodepth, BS_RAW_CHUNK, workers + 1,
									  "iodepth × chunk size × processes (workers + 1)",
									  "Use a smaller iodepth or fewer workers.");
			bs_io_check_depth(iodepth, "iodepth");
		}
	}
	/* sample_interval, argument 8 from version 1.2 on */
	if (PG_NARGS() > 8)
		sample_interval_us = bs_sample_interval_arg(fcinfo, 8);
	bs_run_begin(&history, fcinfo, "seqscan", 4, 5);

	if (cache == BS_CACHE_COLD)
		bs_check_checkpoint_privilege(false);

	target = bs_open_target(relid, mode == BS_MODE_HEAP);
	bs_refuse_citus_shell(target);
	describe_run(&history, target, relid, mode, cache, repeat, workers);
	if (PG_NARGS() > 8)
		bs_run_arg_sample_interval(&history, sample_interval_us);
	if (iodepth_column)
		bs_run_arg_int(&history, "iodepth", iodepth);

	tablespace_null = false;
	if (target->storage_relids == NIL)
		tablespace = DirectFunctionCall1(namein,
										 CStringGetDatum(bs_tablespace_name(target->rel->rd_rel->reltablespace)));
	else if (OidIsValid(target->tablespace))
		tablespace = DirectFunctionCall1(namein,
										 CStringGetDatum(bs_tablespace_name(target->tablespace)));
	else
	{
		tablespace = (Datum) 0;
		tablespace_null = true;	/* partitions in several tablespaces */
	}

	/*
	 * Parallel workers cannot read the caller's temporary tables (their
	 * newest pages live in the caller's local buffers): such a scan runs in
	 * the caller alone, and says so.
	 */
	scan_workers = IsInParallelMode() ? 0 : workers;
	if (scan_workers > 0)
	{
		ListCell   *lc;

		foreach(lc, target->storage_relids)
		{
			if (get_rel_persistence(lfirst_oid(lc)) == RELPERSISTENCE_TEMP)
			{
				ereport(NOTICE,
						(errmsg("temporary relation \"%s\" is scanned without parallel workers",
								get_rel_name(lfirst_oid(lc))),
						 errdetail("Parallel workers cannot read a session's temporary tables.")));
				scan_workers = 0;
				break;
			}
		}
	}

	/*
	 * Raw mode: one read buffer or engine for the call, which reads the
	 * serial runs and the caller's share of the parallel ones (each worker
	 * has its own): the bound checked above counts one per process.
	 */
	if (mode == BS_MODE_HEAP)
	{
		snapshot = GetActiveSnapshot();
		if (snapshot == NULL || !IsMVCCSnapshot(snapshot))
			elog(ERROR, "bench_seqscan needs an active MVCC snapshot");
	}
	else if (mode == BS_MODE_RAW && iodepth > 1)
		engine = bs_io_engine_create(iodepth, BS_RAW_CHUNK);
	else if (mode == BS_MODE_RAW)
		raw_buffer = (char *) TYPEALIGN(BS_IO_ALIGN,
										palloc(BS_RAW_CHUNK + BS_IO_ALIGN));

	InitMaterializedSRF(fcinfo, 0);

	/*
	 * 1.0's row ends before iodepth, 1.1's before cached_pct (1.2 adds
	 * cached_pct, warnings and served_by): the library
	 * fills what the installed definition has, until ALTER EXTENSION UPDATE.
	 */
	ncols = rsinfo->setDesc->natts;
	if (!(iodepth_column ? (ncols == BS_SEQSCAN_NCOLS || ncols == COL_CACHED_PCT) :
		  ncols == COL_IODEPTH))
		elog(ERROR, "bench_seqscan: result has %d columns, expected %d",
			 ncols, BS_SEQSCAN_NCOLS);
	/* register the row type before any parallel mode (history.c) */
	BlessTupleDesc(rsinfo->setDesc);
	history.desc_blessed = true;

	bs_client_watch_begin(&client);
	for (int run = 1; run <= repeat; run++)
	{
		BsScanTotals totals;
		BsProgress	progress;
		BufferUsage bu_start;
		BufferUsage bu;
		bool		os_known;
		BsOsReads	os_reads;
		uint64		os_read;
		instr_time	start;
		instr_time	elapsed;
		double		elapsed_ms;
		double		size_mb;
		BsParallelScan *pscan = NULL;
		Datum		values[BS_SEQSCAN_NCOLS];
		bool		nulls[BS_SEQSCAN_NCOLS];
		BsColdState cold = {0};
		BsSeries	series;
		BsSampler	sampler;
		BsScanSampleArg sample_arg;

		CHECK_FOR_INTERRUPTS();
		if (cache == BS_CACHE_COLD)
		{
			bs_make_target_cold(target, &cold);

			/*
			 * Raw mode reads the files, not the buffers: only what the OS
			 * page cache kept matters to it.
			 */
			if (mode == BS_MODE_RAW)
				cold.shared_pages = cold.local_pages = 0;
			/* once per call is enough to say the runs were not all cold */
			if (bs_cold_cached_pct(&cold) >= BS_NOT_COLD_PCT && !warned_not_cold)
			{
				bs_warn_not_cold(psprintf("relation \"%s\"",
										 RelationGetRelationName(target->rel)),
								 &cold);
				warned_not_cold = true;
			}
		}

		/*
		 * Raw mode reads the files: the session's own temporary tables keep
		 * their newest pages in local buffers, which go to the files first
		 * (untimed).  Shared buffers are written only by checkpoints.
		 */
		if (mode == BS_MODE_RAW)
			flush_local_buffers(target);

		bs_progress_begin(&progress,
						  repeat > 1 ?
						  psprintf("seqscan (%s) of \"%s\", run %d of %d",
								   scan_modes[mode], get_rel_name(relid), run, repeat) :
						  psprintf("seqscan (%s) of \"%s\"",
								   scan_modes[mode], get_rel_name(relid)),
						  bs_main_fork_bytes(target->storage_relids), 0);
		memset(&totals, 0, sizeof(totals));
		INSTR_TIME_SET_ZERO(totals.raw_io_time);
		totals.worker_os_known = true;
		if (scan_workers > 0)
			pscan = bs_parallel_scan_begin(target, mode,
										   cache == BS_CACHE_COLD,
										   snapshot, scan_workers, iodepth);
		if (pscan)
			bs_parallel_scan_start(pscan);
		else if (cache == BS_CACHE_WARM && mode != BS_MODE_RAW)
			map_target_buffers(target);
		bu_start = pgBufferUsage;
		bs_os_reads_start(&os_reads);
		bs_cold_devices_start(&cold);
		INSTR_TIME_SET_CURRENT(start);
		bs_series_init(&series);
		sample_arg.progress = &progress;
		sample_arg.bu_start = bu_start;
		sample_arg.split = (pscan == NULL);
		sample_arg.raw = (mode == BS_MODE_RAW);
		bs_sampler_begin(&sampler, sample_interval_us, scan_sample_counts,
						 &sample_arg, &series, progress.what);
		if (sample_interval_us > 0)
			progress.sampler = &sampler;

		if (pscan)
			bs_parallel_scan_run(pscan, &totals, &progress, raw_buffer, engine);
		else
			scan_serial(target, mode, cache == BS_CACHE_COLD, snapshot,
						raw_buffer, engine, &totals, &progress);

		bs_progress_flush(&progress);
		bs_sampler_end(&sampler);
		progress.sampler = NULL;
		INSTR_TIME_SET_CURRENT(elapsed);
		INSTR_TIME_SUBTRACT(elapsed, start);
		bs_cold_devices_stop(&cold);
		memset(&bu, 0, sizeof(bu));
		BufferUsageAccumDiff(&bu, &pgBufferUsage, &bu_start);
		os_known = bs_os_reads_end(&os_reads, totals.worker_os_read,
								   mode == BS_MODE_RAW ? 0 :
								   (uint64) (bu.shared_blks_read + bu.local_blks_read) * BLCKSZ,
								   (uint64) totals.pages * BLCKSZ, &os_read) &&
			totals.worker_os_known;
		bs_progress_end(&progress);
		if (pscan)
			bs_parallel_scan_end(pscan);

		elapsed_ms = INSTR_TIME_GET_MILLISEC(elapsed);
		size_mb = (double) totals.pages * BLCKSZ / BS_BYTES_PER_MB;

		memset(nulls, 0, sizeof(nulls));
		values[COL_RUN] = Int32GetDatum(run);
		values[COL_RELATION] = ObjectIdGetDatum(relid);
		values[COL_TABLESPACE] = tablespace;
		nulls[COL_TABLESPACE] = tablespace_null;
		values[COL_MODE] = CStringGetTextDatum(scan_modes[mode]);
		values[COL_CACHE] = CStringGetTextDatum(bs_cache_states[cache]);
		values[COL_PAGES] = Int64GetDatum(totals.pages);
		values[COL_SIZE_MB] = Float8GetDatum(size_mb);
		values[COL_ELAPSED_MS] = Float8GetDatum(bs_round(elapsed_ms, 3));
		values[COL_MB_PER_S] =
			Float8GetDatum(bs_round(bs_per_second(size_mb, elapsed_ms), 2));

		if (mode == BS_MODE_BUFFER || totals.tuples < 0)
		{
			nulls[COL_TUPLES] = true;
			nulls[COL_TUPLES_PER_S] = true;
		}
		else
		{
			values[COL_TUPLES] = Int64GetDatum(totals.tuples);
			values[COL_TUPLES_PER_S] =
				Float8GetDatum(bs_round(bs_per_second(totals.tuples, elapsed_ms), 0));
		}

		if (mode == BS_MODE_RAW)
		{
			/* every block came from the files, none through buffers */
			values[COL_BLKS_HIT] = Int64GetDatum(0);
			values[COL_BLKS_READ] = Int64GetDatum(totals.raw_blocks);
		}
		else
		{
			values[COL_BLKS_HIT] =
				Int64GetDatum(bu.shared_blks_hit + bu.local_blks_hit);
			values[COL_BLKS_READ] =
				Int64GetDatum(bu.shared_blks_read + bu.local_blks_read);
		}

		if (!track_io_timing)
			nulls[COL_READ_MS] = true;
		else if (mode == BS_MODE_RAW)
			values[COL_READ_MS] =
				Float8GetDatum(bs_round(INSTR_TIME_GET_MILLISEC(totals.raw_io_time) +
										totals.worker_io_ms, 3));
		else
			values[COL_READ_MS] =
				Float8GetDatum(bs_round(bs_buffer_read_time_ms(&bu), 3));

		if (os_known)
			values[COL_OS_READ_MB] = Float8GetDatum(os_read / BS_BYTES_PER_MB);
		else
			nulls[COL_OS_READ_MB] = true;
		values[COL_WORKERS_REQUESTED] = Int32GetDatum(workers);
		values[COL_WORKERS_LAUNCHED] = Int32GetDatum(totals.workers_launched);
		values[COL_IODEPTH] = Int32GetDatum(iodepth);
		nulls[COL_IODEPTH] = (mode != BS_MODE_RAW);
		bs_cold_columns(&cold, cache == BS_CACHE_COLD,
						&values[COL_CACHED_PCT], &nulls[COL_CACHED_PCT],
						&values[COL_WARNINGS], &nulls[COL_WARNINGS],
						&values[COL_SERVED_BY], &nulls[COL_SERVED_BY]);
		bs_cold_release(&cold);

		bs_run_put_row_series(&history, rsinfo, values, nulls, &series);
	}

	if (engine)
		bs_io_engine_destroy(engine);
	bs_close_target(target);
	bs_run_finish(&history);
	bs_client_watch_end(&client);
	return (Datum) 0;
}
