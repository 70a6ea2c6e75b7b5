/*-------------------------------------------------------------------------
 *
 * seqscan_parallel.c
 *	  bench_seqscan with workers > 0: the scan of one run shared between
 *	  the caller and parallel workers (a ParallelContext), as a Parallel
 *	  Seq Scan shares it.
 *
 *	heap	PostgreSQL's own parallel heap scan: one shared parallel scan
 *			descriptor per relation, whose block allocator hands out
 *			chunks of blocks to the processes that join it; every process
 *			uses the snapshot serialized in it, so the tuples counted add
 *			up to count(*).  Synchronized scans are off, as in a serial run.
 *	buffer	ranges of BS_RANGE_BYTES claimed from a shared block counter
 *			per relation, each block pinned and released.
 *	raw		the same ranges, read from the segment files in chunks of at
 *			most 1 MB.  A parallel raw scan reads the blocks that existed
 *			when it started; a serial one reads to the end of the files.
 *
 * Starting the workers is not timed.  Each worker attaches, opens the
 * relations, touches the shared buffers that hold their blocks
 * (prefault.c), says it is ready and waits; the caller, once every launched worker is ready, starts
 * its clock and lets them go.  A worker is a new process every time: its
 * start (some 20 ms) and its first touch of shared memory are costs of the
 * process, which a serial run in a session that has scanned before does
 * not pay either.
 *
 * Each process adds what it counted to shared atomics at the end; its
 * buffer usage goes back to the caller as in parallel query, so blks_hit,
 * blks_read and read_ms cover all processes, and each worker reports the
 * bytes its kernel read.  The caller's progress messages cover all
 * processes through a shared byte counter.
 *
 * src/seqscan_parallel.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "access/heapam.h"
#include "access/parallel.h"
#include "access/relation.h"
#include "access/relscan.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "benchstore.h"
#include "cache.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "compat.h"
#include "executor/instrument.h"
#include "iostat.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "prefault.h"
#include "progress.h"
#include "seqscan.h"
#include "storage/bufmgr.h"
#include "storage/condition_variable.h"
#include "storage/fd.h"
#include "storage/shm_toc.h"
#include "utils/rel.h"
#include "utils/wait_event.h"

PGDLLEXPORT void bench_seqscan_worker(dsm_segment *seg, shm_toc *toc);

/* Blocks claimed at a time in buffer and raw modes. */
#define BS_RANGE_BYTES		(4 * 1024 * 1024)
#define BS_RANGE_BLOCKS		((BlockNumber) (BS_RANGE_BYTES / BLCKSZ))

/* Keys of the parallel context's table of contents. */
#define BS_KEY_SHARED		UINT64CONST(0xB5C0000000000001)
#define BS_KEY_PSCANS		UINT64CONST(0xB5C0000000000002)
#define BS_KEY_BUFUSAGE		UINT64CONST(0xB5C0000000000003)
#define BS_KEY_WALUSAGE		UINT64CONST(0xB5C0000000000004)

/* One relation of the scan. */
typedef struct BsScanRel
{
	Oid			relid;
	bool		count_tuples;	/* raw: count line pointers of table pages */
	BlockNumber nblocks;		/* blocks when the run started */
	pg_atomic_uint64 next_block;	/* buffer, raw: first block not claimed */
	Size		pscan_offset;	/* heap: its descriptor in the pscans chunk */
} BsScanRel;

/* What a worker reports besides the shared counters. */
typedef struct BsScanWorkerSlot
{
	uint64		os_read;		/* bytes its kernel read during the scan */
	bool		os_known;
} BsScanWorkerSlot;

typedef struct BsScanShared
{
	BsScanMode	mode;
	bool		cold;
	int			iodepth;		/* raw: reads in flight per process */
	int			nworkers;		/* planned */
	int			nrels;
	pg_atomic_uint32 ready;		/* workers ready to scan */
	pg_atomic_uint32 go;		/* set by the caller when its clock starts */
	ConditionVariable start_cv; /* signals ready and go */
	pg_atomic_uint64 progress;	/* bytes done by all processes */
	pg_atomic_uint64 tuples;	/* the workers' counts */
	pg_atomic_uint64 raw_blocks;
	pg_atomic_uint64 raw_io_ns;
	BsScanWorkerSlot slots[BS_MAX_SCAN_WORKERS];
	BsScanRel	rels[FLEXIBLE_ARRAY_MEMBER];
} BsScanShared;

/* The caller's handle on a parallel scan, from begin to end. */
struct BsParallelScanData
{
	ParallelContext *pcxt;
	BsScanShared *shared;
	char	   *pscans;
	BufferUsage *bufusage;
	WalUsage   *walusage;
};

/* heap: join the relation's parallel scan and count this process's share. */
static int64
scan_heap_share(Relation rel, ParallelTableScanDesc pscan,
				BsProgress *progress)
{
	TableScanDesc scan = table_beginscan_parallel(rel, pscan);
	int64		ntuples = bs_count_heap_tuples(scan, pscan, progress);

	table_endscan(scan);
	return ntuples;
}

/* Claim the next range of a relation's blocks; false when none is left. */
static bool
claim_range(BsScanRel *r, BlockNumber *start, BlockNumber *end)
{
	uint64		first = pg_atomic_fetch_add_u64(&r->next_block, BS_RANGE_BLOCKS);

	if (first >= r->nblocks)
		return false;
	*start = (BlockNumber) first;
	*end = (BlockNumber) Min(first + BS_RANGE_BLOCKS, (uint64) r->nblocks);
	return true;
}

/* buffer: pin and release every block of the ranges this process claims. */
static void
scan_buffers_share(Relation rel, BsScanRel *r, bool cold,
				   BsProgress *progress)
{
	BufferAccessStrategy strategy = NULL;
	BlockNumber start;
	BlockNumber end;

	if (cold || r->nblocks > (BlockNumber) (NBuffers / 4))
		strategy = GetAccessStrategy(BAS_BULKREAD);

	while (claim_range(r, &start, &end))
	{
		for (BlockNumber blkno = start; blkno < end; blkno++)
		{
			CHECK_FOR_INTERRUPTS();
			ReleaseBuffer(ReadBufferExtended(rel, MAIN_FORKNUM, blkno,
											 RBM_NORMAL, strategy));
			bs_progress_advance(progress, BLCKSZ);
		}
	}

	if (strategy)
		FreeAccessStrategy(strategy);
}

/*
 * raw: read the ranges this process claims from the segment files.  A
 * range may cross a segment boundary.  A file shorter than the range, or
 * missing, was cut short or removed under the scan (the lock held keeps
 * PostgreSQL from truncating the relation): the run fails.
 */
static void
scan_raw_share(Relation rel, BsScanRel *r, char *buffer,
			   BsScanTotals *totals, BsProgress *progress)
{
	char	   *fork_path = bs_relation_fork_path(rel, MAIN_FORKNUM);
	BlockNumber open_segno = InvalidBlockNumber;
	char	   *path = NULL;
	int			fd = -1;
	BlockNumber start;
	BlockNumber end;

	while (claim_range(r, &start, &end))
	{
		BlockNumber blkno = start;

		while (blkno < end)
		{
			BlockNumber segno = blkno / RELSEG_SIZE;
			BlockNumber seg_end = (BlockNumber) Min((uint64) end,
													((uint64) segno + 1) * RELSEG_SIZE);
			size_t		want;
			ssize_t		filled;

			CHECK_FOR_INTERRUPTS();
			if (segno != open_segno)
			{
				if (fd >= 0)
					CloseTransientFile(fd);
				if (path)
					pfree(path);
				path = bs_segment_path(fork_path, segno);
				open_segno = segno;
				fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
				if (fd < 0 && errno != ENOENT)
					ereport(ERROR,
							(errcode_for_file_access(),
							 errmsg("could not open file \"%s\": %m", path)));
			}
			if (fd < 0)
				bs_raw_fewer_blocks(rel, path, r->nblocks, blkno);

			want = Min((size_t) (seg_end - blkno) * BLCKSZ, (size_t) BS_RAW_CHUNK);
			filled = bs_raw_read(fd, path, buffer,
								 (off_t) (blkno % RELSEG_SIZE) * BLCKSZ,
								 want, totals);
			if (r->count_tuples)
				for (ssize_t pos = 0; pos + BLCKSZ <= filled; pos += BLCKSZ)
					totals->tuples += bs_count_line_pointers((Page) (buffer + pos));
			totals->raw_blocks += filled / BLCKSZ;
			bs_progress_advance(progress, filled);
			if ((size_t) filled < want)
				bs_raw_fewer_blocks(rel, path, r->nblocks,
									blkno + (BlockNumber) (filled / BLCKSZ));
			blkno += filled / BLCKSZ;
		}
	}

	if (fd >= 0)
		CloseTransientFile(fd);
	if (path)
		pfree(path);
	pfree(fork_path);
}

/*
 * Raw reads at depth: the chunks of the ranges this process claims.  A
 * segment file is closed once every read of it is complete.
 */
typedef struct BsRawShare
{
	BsScanRel  *r;
	char	   *fork_path;
	BlockNumber blkno;			/* next block to hand out */
	BlockNumber end;			/* end of the claimed range */
	BlockNumber open_segno;
	int			fd;
	char	   *path;
	Relation	rel;
	int64		claimed;		/* blocks handed out to be read */
	bool		exhausted;		/* no range is left to claim */
} BsRawShare;

/* Close the open segment file; false while reads of it are in flight. */
static bool
raw_share_close(BsRawShare *rs, BsIoEngine *engine)
{
	if (bs_io_engine_inflight(engine) > 0)
		return false;
	if (rs->fd >= 0)
		CloseTransientFile(rs->fd);
	rs->fd = -1;
	if (rs->path)
		pfree(rs->path);
	rs->path = NULL;
	rs->open_segno = InvalidBlockNumber;
	return true;
}

static BsRawNext
raw_share_next(void *arg, BsIoEngine *engine, BsRawChunk *chunk)
{
	BsRawShare *rs = (BsRawShare *) arg;
	BlockNumber segno;
	BlockNumber seg_end;
	BlockNumber nblocks;

	if (!rs->exhausted && rs->blkno >= rs->end &&
		!claim_range(rs->r, &rs->blkno, &rs->end))
		rs->exhausted = true;
	if (rs->exhausted)
	{
		/* the last file is closed once its reads are complete */
		return raw_share_close(rs, engine) ? BS_RAW_NEXT_END : BS_RAW_NEXT_WAIT;
	}
	CHECK_FOR_INTERRUPTS();
	segno = rs->blkno / RELSEG_SIZE;
	if (segno != rs->open_segno)
	{
		/* wait for the reads of the file open before (the range is kept) */
		if (rs->path != NULL && !raw_share_close(rs, engine))
			return BS_RAW_NEXT_WAIT;
		rs->path = bs_segment_path(rs->fork_path, segno);
		rs->open_segno = segno;
		rs->fd = bs_raw_open_depth(rs->path);
		if (rs->fd < 0 && errno != ENOENT)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", rs->path)));
	}
	if (rs->fd < 0)
		bs_raw_fewer_blocks(rs->rel, rs->path, rs->r->nblocks, rs->blkno);
	seg_end = (BlockNumber) Min((uint64) rs->end,
								((uint64) segno + 1) * RELSEG_SIZE);
	nblocks = Min(seg_end - rs->blkno, (BlockNumber) (BS_RAW_CHUNK / BLCKSZ));
	chunk->fd = rs->fd;
	chunk->path = rs->path;
	chunk->offset = (off_t) (rs->blkno % RELSEG_SIZE) * BLCKSZ;
	chunk->len = (size_t) nblocks * BLCKSZ;
	chunk->block = rs->blkno;
	chunk->expected = rs->r->nblocks;
	rs->blkno += nblocks;
	rs->claimed += nblocks;
	return BS_RAW_NEXT_CHUNK;
}

/*
 * raw at depth: the chunks of every range this process claims, with the
 * engine's slots kept busy across ranges.  A read that comes back short
 * (a file cut short under the scan) fails the run in bs_raw_read_depth.
 */
static void
scan_raw_share_depth(Relation rel, BsScanRel *r, BsIoEngine *engine,
					 BsScanTotals *totals, BsProgress *progress)
{
	BsRawShare	rs;
	int64		blocks = 0;
	int64		nlp = 0;

	memset(&rs, 0, sizeof(rs));
	rs.r = r;
	rs.rel = rel;
	rs.fork_path = bs_relation_fork_path(rel, MAIN_FORKNUM);
	rs.open_segno = InvalidBlockNumber;
	rs.fd = -1;
	bs_raw_read_depth(rel, engine, raw_share_next, &rs, r->count_tuples,
					  &blocks, &nlp, totals, progress);
	Assert(rs.fd < 0 && blocks == rs.claimed);
	totals->raw_blocks += blocks;
	if (r->count_tuples)
		totals->tuples += nlp;
	pfree(rs.fork_path);
}

/*
 * This process's share of every relation, in order.  The counts go to
 * totals (tuples, raw_blocks, raw_io_time); pages are the caller's to add.
 *
 * In raw mode the caller passes the read buffer (depth 1) or the engine
 * (depth > 1) it holds for the whole call, so that it never holds two: the
 * bound on the I/O buffers counts one engine per process, workers + 1.  A
 * worker (NULL) makes its own for the run.
 */
static void
scan_share(BsScanShared *sh, char *pscans, BsScanTotals *totals,
		   BsProgress *progress, char *buffer, BsIoEngine *engine)
{
	char	   *raw = NULL;
	bool		own_engine = false;

	if (sh->mode == BS_MODE_RAW && sh->iodepth > 1 && engine == NULL)
	{
		engine = bs_io_engine_create(sh->iodepth, BS_RAW_CHUNK);
		own_engine = true;
	}
	else if (sh->mode == BS_MODE_RAW && sh->iodepth == 1 && buffer == NULL)
	{
		raw = palloc(BS_RAW_CHUNK + BS_IO_ALIGN);
		buffer = (char *) TYPEALIGN(BS_IO_ALIGN, raw);
	}

	for (int i = 0; i < sh->nrels; i++)
	{
		BsScanRel  *r = &sh->rels[i];
		Relation	rel = relation_open(r->relid, AccessShareLock);

		switch (sh->mode)
		{
			case BS_MODE_HEAP:
				totals->tuples +=
					scan_heap_share(rel,
									(ParallelTableScanDesc) (pscans + r->pscan_offset),
									progress);
				break;
			case BS_MODE_BUFFER:
				scan_buffers_share(rel, r, sh->cold, progress);
				break;
			case BS_MODE_RAW:
				if (engine)
					scan_raw_share_depth(rel, r, engine, totals, progress);
				else
					scan_raw_share(rel, r, buffer, totals, progress);
				break;
		}
		relation_close(rel, AccessShareLock);
	}

	if (own_engine)
		bs_io_engine_destroy(engine);
	if (raw)
		pfree(raw);
}

/*
 * Before the clock, in every process: open the relations (a new worker
 * builds its relation cache entries here, reading the catalogs) and, for
 * a warm heap or buffer scan, touch the shared buffers holding their
 * blocks (prefault.c; a cold run evicted them, and raw mode reads the
 * files).
 */
static void
prepare_share(BsScanShared *sh)
{
	for (int i = 0; i < sh->nrels; i++)
	{
		Relation	rel = relation_open(sh->rels[i].relid, AccessShareLock);

		if (!sh->cold && sh->mode != BS_MODE_RAW)
			(void) bs_map_relation_buffers(rel, sh->rels[i].nblocks);
		relation_close(rel, AccessShareLock);
	}
}

/* Entry point of a parallel worker. */
void
bench_seqscan_worker(dsm_segment *seg, shm_toc *toc)
{
	BsScanShared *sh = shm_toc_lookup(toc, BS_KEY_SHARED, false);
	char	   *pscans = shm_toc_lookup(toc, BS_KEY_PSCANS, true);
	BufferUsage *bufusage = shm_toc_lookup(toc, BS_KEY_BUFUSAGE, false);
	WalUsage   *walusage = shm_toc_lookup(toc, BS_KEY_WALUSAGE, false);
	BsScanWorkerSlot *slot = &sh->slots[ParallelWorkerNumber];
	BsScanTotals totals;
	BsProgress	progress;
	uint64		os_start = 0;
	uint64		os_end = 0;

	prepare_share(sh);
	pg_atomic_fetch_add_u32(&sh->ready, 1);
	ConditionVariableBroadcast(&sh->start_cv);
	ConditionVariablePrepareToSleep(&sh->start_cv);
	while (pg_atomic_read_u32(&sh->go) == 0)
		ConditionVariableSleep(&sh->start_cv, PG_WAIT_EXTENSION);
	ConditionVariableCancelSleep();

	memset(&totals, 0, sizeof(totals));
	INSTR_TIME_SET_ZERO(totals.raw_io_time);
	bs_progress_begin(&progress, NULL, 0, 0);
	bs_progress_share(&progress, &sh->progress, true);

	InstrStartParallelQuery();
	slot->os_known = bs_os_read_bytes(&os_start);

	scan_share(sh, pscans, &totals, &progress, NULL, NULL);

	bs_progress_flush(&progress);
	pg_atomic_fetch_add_u64(&sh->tuples, (uint64) totals.tuples);
	pg_atomic_fetch_add_u64(&sh->raw_blocks, (uint64) totals.raw_blocks);
	pg_atomic_fetch_add_u64(&sh->raw_io_ns, bs_instr_time_ns(totals.raw_io_time));
	if (slot->os_known && bs_os_read_bytes(&os_end) && os_end >= os_start)
		slot->os_read = os_end - os_start;
	else
		slot->os_known = false;
	InstrEndParallelQuery(&bufusage[ParallelWorkerNumber],
						  &walusage[ParallelWorkerNumber]);
}

/*
 * Prepare a parallel run of the target's relations with nworkers workers:
 * the shared state and, for heap mode, a parallel scan descriptor per
 * relation with the given snapshot.  Returns NULL when no dynamic shared
 * memory could be had (the caller then scans alone).  Enters parallel
 * mode; bs_parallel_scan_end leaves it.
 */
BsParallelScan *
bs_parallel_scan_begin(BsTarget *target, BsScanMode mode, bool cold,
					   Snapshot snapshot, int nworkers, int iodepth)
{
	BsParallelScan *ps = palloc0(sizeof(BsParallelScan));
	int			nrels = list_length(target->storage_relids);
	Size		shsize = add_size(offsetof(BsScanShared, rels),
								  mul_size(sizeof(BsScanRel), nrels));
	Size		pscans_size = 0;
	Size	   *pscan_sizes = palloc0(sizeof(Size) * Max(nrels, 1));
	ParallelContext *pcxt;
	BsScanShared *sh;
	ListCell   *lc;
	int			i;

	Assert(nworkers > 0 && nworkers <= BS_MAX_SCAN_WORKERS);

	if (mode == BS_MODE_HEAP)
	{
		i = 0;
		foreach(lc, target->storage_relids)
		{
			Relation	rel = relation_open(lfirst_oid(lc), NoLock);

			pscan_sizes[i] = MAXALIGN(table_parallelscan_estimate(rel, snapshot));
			pscans_size = add_size(pscans_size, pscan_sizes[i]);
			relation_close(rel, NoLock);
			i++;
		}
	}

	EnterParallelMode();
	pcxt = CreateParallelContext("benchstore", "bench_seqscan_worker",
								 nworkers);
	shm_toc_estimate_chunk(&pcxt->estimator, shsize);
	if (pscans_size > 0)
		shm_toc_estimate_chunk(&pcxt->estimator, pscans_size);
	shm_toc_estimate_chunk(&pcxt->estimator,
						   mul_size(sizeof(BufferUsage), nworkers));
	shm_toc_estimate_chunk(&pcxt->estimator,
						   mul_size(sizeof(WalUsage), nworkers));
	shm_toc_estimate_keys(&pcxt->estimator, 4);
	InitializeParallelDSM(pcxt);
	if (pcxt->seg == NULL)
	{
		DestroyParallelContext(pcxt);
		ExitParallelMode();
		return NULL;
	}
	ps->pcxt = pcxt;

	sh = shm_toc_allocate(pcxt->toc, shsize);
	memset(sh, 0, shsize);
	sh->mode = mode;
	sh->cold = cold;
	sh->iodepth = iodepth;
	sh->nworkers = nworkers;
	sh->nrels = nrels;
	pg_atomic_init_u64(&sh->progress, 0);
	pg_atomic_init_u64(&sh->tuples, 0);
	pg_atomic_init_u64(&sh->raw_blocks, 0);
	pg_atomic_init_u64(&sh->raw_io_ns, 0);
	pg_atomic_init_u32(&sh->ready, 0);
	pg_atomic_init_u32(&sh->go, 0);
	ConditionVariableInit(&sh->start_cv);
	shm_toc_insert(pcxt->toc, BS_KEY_SHARED, sh);
	ps->shared = sh;

	if (pscans_size > 0)
	{
		ps->pscans = shm_toc_allocate(pcxt->toc, pscans_size);
		shm_toc_insert(pcxt->toc, BS_KEY_PSCANS, ps->pscans);
	}

	i = 0;
	pscans_size = 0;
	foreach(lc, target->storage_relids)
	{
		BsScanRel  *r = &sh->rels[i];
		Relation	rel = relation_open(lfirst_oid(lc), NoLock);

		r->relid = RelationGetRelid(rel);
		r->count_tuples = RELKIND_HAS_TABLE_AM(rel->rd_rel->relkind) &&
			rel->rd_rel->relam == HEAP_TABLE_AM_OID;
		r->nblocks = RelationGetNumberOfBlocks(rel);
		if (mode == BS_MODE_RAW &&
			r->nblocks < (BlockNumber) list_nth_int(target->open_nblocks, i))
		{
			char	   *fork_path = bs_relation_fork_path(rel, MAIN_FORKNUM);

			bs_raw_fewer_blocks(rel, fork_path,
								(BlockNumber) list_nth_int(target->open_nblocks, i),
								r->nblocks);
		}
		pg_atomic_init_u64(&r->next_block, 0);
		if (mode == BS_MODE_HEAP)
		{
			ParallelTableScanDesc pscan =
				(ParallelTableScanDesc) (ps->pscans + pscans_size);

			r->pscan_offset = pscans_size;
			table_parallelscan_initialize(rel, pscan, snapshot);
			/* every run starts at block 0, as a serial run does */
			pscan->phs_syncscan = false;
			r->nblocks = ((ParallelBlockTableScanDesc) pscan)->phs_nblocks;
			pscans_size += pscan_sizes[i];
		}
		relation_close(rel, NoLock);
		i++;
	}

	ps->bufusage = shm_toc_allocate(pcxt->toc,
									mul_size(sizeof(BufferUsage), nworkers));
	memset(ps->bufusage, 0, sizeof(BufferUsage) * nworkers);
	shm_toc_insert(pcxt->toc, BS_KEY_BUFUSAGE, ps->bufusage);
	ps->walusage = shm_toc_allocate(pcxt->toc,
									mul_size(sizeof(WalUsage), nworkers));
	memset(ps->walusage, 0, sizeof(WalUsage) * nworkers);
	shm_toc_insert(pcxt->toc, BS_KEY_WALUSAGE, ps->walusage);

	pfree(pscan_sizes);
	return ps;
}

#if PG_VERSION_NUM >= 170000
/*
 * Progress of a parallel heap scan: the bytes of the blocks its allocators
 * have handed out, over all relations.  A block handed out is read and
 * counted soon after (it runs ahead by the processes' read-ahead only).
 */
static uint64
heap_blocks_handed_out(void *arg)
{
	BsParallelScan *ps = (BsParallelScan *) arg;
	BsScanShared *sh = ps->shared;
	uint64		blocks = 0;

	for (int i = 0; i < sh->nrels; i++)
	{
		ParallelBlockTableScanDesc pbscan =
			(ParallelBlockTableScanDesc) (ps->pscans + sh->rels[i].pscan_offset);

		blocks += Min(pg_atomic_read_u64(&pbscan->phs_nallocated),
					  (uint64) pbscan->phs_nblocks);
	}
	return blocks * BLCKSZ;
}
#endif

/*
 * Untimed: launch the workers, map the caller's own buffers meanwhile, and
 * wait until every worker that started is ready to scan.  A worker that
 * fails raises its error here; one that exits without a word (it cannot,
 * short of a crash) is reported rather than waited for.
 */
void
bs_parallel_scan_start(BsParallelScan *ps)
{
	ParallelContext *pcxt = ps->pcxt;
	BsScanShared *sh = ps->shared;

	LaunchParallelWorkers(pcxt);
	prepare_share(sh);
	bs_wait_parallel_workers_ready(pcxt, &sh->ready, &sh->start_cv, "scan");
}

/*
 * The timed part: let the workers go, scan the caller's share, wait for
 * the workers, and gather everything into totals.  The workers' buffer
 * usage is added to the caller's pgBufferUsage, as parallel query does.
 * In raw mode the caller's share is read with the caller's own buffer
 * (depth 1) or engine (depth > 1), held for the whole call.
 */
void
bs_parallel_scan_run(BsParallelScan *ps, BsScanTotals *totals,
					 BsProgress *progress, char *raw_buffer,
					 BsIoEngine *engine)
{
	ParallelContext *pcxt = ps->pcxt;
	BsScanShared *sh = ps->shared;

	pg_atomic_write_u32(&sh->go, 1);
	ConditionVariableBroadcast(&sh->start_cv);
	totals->workers_launched = pcxt->nworkers_launched;

	bs_progress_share(progress, &sh->progress, false);
#if PG_VERSION_NUM >= 170000
	/* the processes cannot count the empty pages (bs_count_heap_tuples) */
	if (sh->mode == BS_MODE_HEAP)
	{
		progress->total_fn = heap_blocks_handed_out;
		progress->total_arg = ps;
	}
#endif
	scan_share(sh, ps->pscans, totals, progress, raw_buffer, engine);

	WaitForParallelWorkersToFinish(pcxt);

	totals->worker_os_read = 0;
	totals->worker_os_known = true;
	for (int w = 0; w < pcxt->nworkers_launched; w++)
	{
		InstrAccumParallelQuery(&ps->bufusage[w], &ps->walusage[w]);
		if (sh->slots[w].os_known)
			totals->worker_os_read += sh->slots[w].os_read;
		else
			totals->worker_os_known = false;
	}

	for (int i = 0; i < sh->nrels; i++)
		if (sh->mode != BS_MODE_RAW)
			totals->pages += sh->rels[i].nblocks;
	totals->raw_blocks += (int64) pg_atomic_read_u64(&sh->raw_blocks);
	if (sh->mode == BS_MODE_RAW)
		totals->pages = totals->raw_blocks;
	totals->tuples += (int64) pg_atomic_read_u64(&sh->tuples);
	/* raw mode counts line pointers of table pages only, as a serial run */
	if (sh->mode == BS_MODE_RAW)
		for (int i = 0; i < sh->nrels; i++)
			if (!sh->rels[i].count_tuples)
				totals->tuples = -1;
	totals->worker_io_ms = pg_atomic_read_u64(&sh->raw_io_ns) / 1e6;
}

/* Free the parallel context and leave parallel mode. */
void
bs_parallel_scan_end(BsParallelScan *ps)
{
	DestroyParallelContext(ps->pcxt);
	ExitParallelMode();
	pfree(ps);
}
