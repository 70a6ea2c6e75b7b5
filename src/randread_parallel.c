/*-------------------------------------------------------------------------
 *
 * randread_parallel.c
 *	  bench_randread with workers > 0: the random reads of one run shared
 *	  between the caller and parallel workers (a ParallelContext), as
 *	  pgio's sessions share a table's random reads.
 *
 * Every process walks the same seeded order of the relation's blocks: it
 * claims a few positions of the order at a time from a shared counter and
 * reads the blocks at them (bs_perm_cursor_at), so that between them the
 * processes read exactly the blocks a serial run with the same seed reads,
 * each position once, and no process waits for another.  Each process
 * keeps its own prefetch depth (its own read stream on 17+, or
 * PrefetchBuffer): depth N with W workers keeps up to N x (W + 1) reads in
 * flight, as N-deep fio jobs do.
 *
 * Each process attributes its own reads (shared buffers, page cache,
 * device) with a latency histogram per class; the caller merges them into
 * the row and lists each process's in by_process.  Each worker reports
 * the bytes its kernel read from storage, which join the caller's in
 * os_read_mb, and its buffer usage goes back to the caller as in parallel
 * query.
 *
 * Starting the workers is not timed.  Each worker attaches, opens the
 * relations and their page-cache residency maps, says it is ready and
 * waits; the caller starts its clock once every launched worker is ready,
 * and stops it when the last one is done.
 *
 * src/randread_parallel.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/xact.h"
#include "benchstore.h"
#include "executor/instrument.h"
#include "histogram.h"
#include "iostat.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "progress.h"
#include "randread.h"
#include "storage/condition_variable.h"
#include "storage/shm_toc.h"
#include "utils/wait_event.h"

PGDLLEXPORT void bench_randread_worker(dsm_segment *seg, shm_toc *toc);

/* Keys of the parallel context's table of contents. */
#define BS_RR_KEY_SHARED	UINT64CONST(0xB5C0000000000011)
#define BS_RR_KEY_SLOTS		UINT64CONST(0xB5C0000000000012)
#define BS_RR_KEY_BUFUSAGE	UINT64CONST(0xB5C0000000000013)
#define BS_RR_KEY_WALUSAGE	UINT64CONST(0xB5C0000000000014)

/* One relation of the reads, with the blocks the caller numbered. */
typedef struct BsRandSharedRel
{
	Oid			relid;
	BlockNumber nblocks;
} BsRandSharedRel;

typedef struct BsRandShared
{
	uint64		reads;			/* positions of the order, all processes */
	int64		seed;
	int			depth;
	BsPrefetch	prefetch;
	int			nrels;
	pg_atomic_uint32 ready;		/* workers ready to read */
	pg_atomic_uint32 go;		/* set by the caller when its clock starts */
	ConditionVariable start_cv; /* signals ready and go */
	pg_atomic_uint64 next_pos;	/* first position of the order not claimed */
	pg_atomic_uint64 progress;	/* bytes read by all processes */
	BsRandSharedRel rels[FLEXIBLE_ARRAY_MEMBER];
} BsRandShared;

struct BsRandParallel
{
	ParallelContext *pcxt;
	BsRandShared *shared;
	BsRandProcess *slots;		/* one per planned worker */
	BufferUsage *bufusage;
	WalUsage   *walusage;
};

/* Entry point of a parallel worker. */
void
bench_randread_worker(dsm_segment *seg, shm_toc *toc)
{
	BsRandShared *sh = shm_toc_lookup(toc, BS_RR_KEY_SHARED, false);
	BsRandProcess *slot = (BsRandProcess *) shm_toc_lookup(toc, BS_RR_KEY_SLOTS, false) +
		ParallelWorkerNumber;
	BufferUsage *bufusage = shm_toc_lookup(toc, BS_RR_KEY_BUFUSAGE, false);
	WalUsage   *walusage = shm_toc_lookup(toc, BS_RR_KEY_WALUSAGE, false);
	BsRandRead	rr;
	List	   *relids = NIL;
	BlockNumber *nblocks = palloc(sizeof(BlockNumber) * Max(sh->nrels, 1));
	BsProgress	progress;
	uint64		os_start = 0;
	uint64		os_end = 0;
	instr_time	start;
	instr_time	elapsed;

	for (int i = 0; i < sh->nrels; i++)
	{
		relids = lappend_oid(relids, sh->rels[i].relid);
		nblocks[i] = sh->rels[i].nblocks;
	}
	memset(&rr, 0, sizeof(rr));
	bs_randread_open(&rr, relids, nblocks, "?");
	bs_randread_prepare(&rr, sh->depth, sh->prefetch);

	pg_atomic_fetch_add_u32(&sh->ready, 1);
	ConditionVariableBroadcast(&sh->start_cv);
	ConditionVariablePrepareToSleep(&sh->start_cv);
	while (pg_atomic_read_u32(&sh->go) == 0)
		ConditionVariableSleep(&sh->start_cv, PG_WAIT_EXTENSION);
	ConditionVariableCancelSleep();

	bs_progress_begin(&progress, NULL, 0, 0);
	bs_progress_share(&progress, &sh->progress, true);
	InstrStartParallelQuery();
	slot->os_known = bs_os_read_bytes(&os_start);
	INSTR_TIME_SET_CURRENT(start);

	bs_randread_run(&rr, sh->reads, sh->seed, &sh->next_pos, &progress);

	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, start);
	bs_progress_flush(&progress);
	slot->pid = MyProcPid;
	slot->reads = rr.reads;
	slot->tuples = rr.tuples;
	slot->elapsed_ms = INSTR_TIME_GET_MILLISEC(elapsed);
	memcpy(&slot->classes, rr.classes, sizeof(BsReadClasses));
	if (slot->os_known && bs_os_read_bytes(&os_end) && os_end >= os_start)
		slot->os_read = os_end - os_start;
	else
		slot->os_known = false;
	InstrEndParallelQuery(&bufusage[ParallelWorkerNumber],
						  &walusage[ParallelWorkerNumber]);
	bs_randread_close(&rr);
}

/*
 * Prepare a parallel run of reads positions of seed's order over rr's
 * relations (as the caller opened and numbered them) with nworkers
 * workers.  Returns NULL when no dynamic shared memory could be had (the
 * caller then reads alone).  Enters parallel mode; bs_randread_parallel_end
 * leaves it.
 */
BsRandParallel *
bs_randread_parallel_begin(BsRandRead *rr, int nworkers, uint64 reads,
						   int64 seed)
{
	BsRandParallel *rp = palloc0(sizeof(BsRandParallel));
	Size		shsize = add_size(offsetof(BsRandShared, rels),
								  mul_size(sizeof(BsRandSharedRel), rr->nparts));
	ParallelContext *pcxt;
	BsRandShared *sh;

	EnterParallelMode();
	pcxt = CreateParallelContext("benchstore", "bench_randread_worker",
								 nworkers);
	shm_toc_estimate_chunk(&pcxt->estimator, shsize);
	shm_toc_estimate_chunk(&pcxt->estimator,
						   mul_size(sizeof(BsRandProcess), nworkers));
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
		pfree(rp);
		return NULL;
	}
	rp->pcxt = pcxt;

	sh = shm_toc_allocate(pcxt->toc, shsize);
	memset(sh, 0, shsize);
	sh->reads = reads;
	sh->seed = seed;
	sh->depth = rr->depth;
	sh->prefetch = rr->prefetch;
	sh->nrels = rr->nparts;
	for (int i = 0; i < rr->nparts; i++)
	{
		sh->rels[i].relid = RelationGetRelid(rr->parts[i].rel);
		sh->rels[i].nblocks = rr->parts[i].nblocks;
	}
	pg_atomic_init_u32(&sh->ready, 0);
	pg_atomic_init_u32(&sh->go, 0);
	ConditionVariableInit(&sh->start_cv);
	pg_atomic_init_u64(&sh->next_pos, 0);
	pg_atomic_init_u64(&sh->progress, 0);
	shm_toc_insert(pcxt->toc, BS_RR_KEY_SHARED, sh);
	rp->shared = sh;

	rp->slots = shm_toc_allocate(pcxt->toc,
								 mul_size(sizeof(BsRandProcess), nworkers));
	memset(rp->slots, 0, sizeof(BsRandProcess) * nworkers);
	shm_toc_insert(pcxt->toc, BS_RR_KEY_SLOTS, rp->slots);
	rp->bufusage = shm_toc_allocate(pcxt->toc,
									mul_size(sizeof(BufferUsage), nworkers));
	memset(rp->bufusage, 0, sizeof(BufferUsage) * nworkers);
	shm_toc_insert(pcxt->toc, BS_RR_KEY_BUFUSAGE, rp->bufusage);
	rp->walusage = shm_toc_allocate(pcxt->toc,
									mul_size(sizeof(WalUsage), nworkers));
	memset(rp->walusage, 0, sizeof(WalUsage) * nworkers);
	shm_toc_insert(pcxt->toc, BS_RR_KEY_WALUSAGE, rp->walusage);
	return rp;
}

/*
 * Untimed: launch the workers and wait until every one that started is
 * ready to read.  A worker that fails raises its error here; one that
 * exits without a word (it cannot, short of a crash) is reported rather
 * than waited for.
 */
void
bs_randread_parallel_start(BsRandParallel *rp)
{
	ParallelContext *pcxt = rp->pcxt;
	BsRandShared *sh = rp->shared;

	LaunchParallelWorkers(pcxt);
	bs_wait_parallel_workers_ready(pcxt, &sh->ready, &sh->start_cv, "reads");
}

/*
 * The timed part: let the workers go, read the caller's share, wait for
 * the workers, and merge their counts into rr (the caller's reads become
 * the run's).  processes gets the caller's part first, then each launched
 * worker's; returns how many processes read (workers launched + 1).  The
 * workers' buffer usage is added to the caller's pgBufferUsage, as
 * parallel query does.
 */
int
bs_randread_parallel_run(BsRandParallel *rp, BsRandRead *rr,
						 BsProgress *progress, BsRandProcess *processes)
{
	ParallelContext *pcxt = rp->pcxt;
	BsRandShared *sh = rp->shared;
	instr_time	start;
	instr_time	elapsed;
	uint64		os_start = 0;
	uint64		os_end = 0;
	bool		os_known;

	os_known = bs_os_read_bytes(&os_start);
	INSTR_TIME_SET_CURRENT(start);
	pg_atomic_write_u32(&sh->go, 1);
	ConditionVariableBroadcast(&sh->start_cv);

	bs_progress_share(progress, &sh->progress, false);
	bs_randread_run(rr, sh->reads, sh->seed, &sh->next_pos, progress);
	bs_progress_flush(progress);
	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, start);

	memset(&processes[0], 0, sizeof(BsRandProcess));
	processes[0].pid = MyProcPid;
	processes[0].reads = rr->reads;
	processes[0].tuples = rr->tuples;
	processes[0].elapsed_ms = INSTR_TIME_GET_MILLISEC(elapsed);
	memcpy(&processes[0].classes, rr->classes, sizeof(BsReadClasses));
	processes[0].os_known = os_known && bs_os_read_bytes(&os_end) && os_end >= os_start;
	processes[0].os_read = processes[0].os_known ? os_end - os_start : 0;

	WaitForParallelWorkersToFinish(pcxt);

	for (int w = 0; w < pcxt->nworkers_launched; w++)
	{
		BsRandProcess *slot = &rp->slots[w];

		InstrAccumParallelQuery(&rp->bufusage[w], &rp->walusage[w]);
		memcpy(&processes[w + 1], slot, sizeof(BsRandProcess));
		rr->reads += slot->reads;
		rr->tuples += slot->tuples;
		rr->classes->known &= slot->classes.known;
		for (int c = 0; c < BS_READ_NCLASSES; c++)
		{
			rr->classes->reads[c] += slot->classes.reads[c];
			bs_hist_merge(&rr->classes->hist[c], &slot->classes.hist[c]);
			bs_hist_merge(&rr->hist, &slot->classes.hist[c]);
		}
	}
	if (rr->reads != sh->reads)
		elog(ERROR, "parallel random reads ended after " UINT64_FORMAT " of " UINT64_FORMAT " reads",
			 rr->reads, sh->reads);
	return pcxt->nworkers_launched + 1;
}

/* Free the parallel context and leave parallel mode. */
void
bs_randread_parallel_end(BsRandParallel *rp)
{
	DestroyParallelContext(rp->pcxt);
	ExitParallelMode();
	pfree(rp);
}
