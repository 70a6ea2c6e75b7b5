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
#include "scan_reads.h"
#include "seqscan.h"
#include "series.h"
#include "target.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"

PG_FUNCTION_INFO_V1(bench_seqscan);
PG_FUNCTION_INFO_V1(bench_seqscan_1_2);

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
 *				 workers integer DEFAULT 0, iodepth integer DEFAULT 1,
 *				 sample_interval interval DEFAULT '1s')
 *	RETURNS SETOF record
 *
 * One row per run; the columns are documented in
 * src/sql/benchstore/seqscan.sql.  The call is recorded in the history
 * unless record is false.  With workers > 0 each run is shared with that
 * many parallel workers (see seqscan_parallel.c), timed from their launch
 * to the last one's end.
 *
 * Entry points: bench_seqscan_1_2 for 1.2's definition; bench_seqscan for
 * the released ones, 1.0's (no iodepth: neither the argument nor the
 * column) and 1.1's (iodepth; no sample_interval).
 */
static Datum seqscan_run(FunctionCallInfo fcinfo, BsSqlVersion version);

Datum
bench_seqscan_1_2(PG_FUNCTION_ARGS)
{
	return seqscan_run(fcinfo, BS_SQL_1_2);
}

Datum
bench_seqscan(PG_FUNCTION_ARGS)
{
	return seqscan_run(fcinfo, bs_legacy_sql_version(fcinfo, 7, 8));
}

static Datum
seqscan_run(FunctionCallInfo fcinfo, BsSqlVersion version)
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
	bool		iodepth_column = version >= BS_SQL_1_1;	/* 1.0 has neither */
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
	if (version >= BS_SQL_1_2)
		sample_interval_us = bs_sample_interval_arg(fcinfo, 8);
	bs_run_begin(&history, fcinfo, "seqscan", 4, 5);

	if (cache == BS_CACHE_COLD)
		bs_check_checkpoint_privilege(false);

	target = bs_open_target(relid, mode == BS_MODE_HEAP);
	bs_refuse_citus_shell(target);
	describe_run(&history, target, relid, mode, cache, repeat, workers);
	if (version >= BS_SQL_1_2)
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
