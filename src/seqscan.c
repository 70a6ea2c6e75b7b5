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
#include "bench_driver.h"
#include "cache.h"
#include "catalog/pg_am.h"
#include "benchstore.h"
#include "catalog/pg_class.h"
#include "compat.h"
#include "executor/instrument.h"
#include "funcapi.h"
#include "history.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "portability/instr_time.h"
#include "prefault.h"
#include "progress.h"
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
	const BufferUsage *bu_start;	/* the run's, from its measure */
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
		bs_sample_buffer_split(c, a->bu_start);
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

/* A call's inputs, and its current run's (see bench_driver.h). */
typedef struct BsSeqscanCall
{
	Oid			relid;
	BsTarget   *target;
	BsScanMode	mode;
	BsCacheState cache;
	int32		repeat;
	int32		workers;
	int32		scan_workers;	/* workers, or 0 where they cannot read */
	int32		iodepth;
	int64		sample_interval_us;
	Snapshot	snapshot;		/* heap mode */
	char	   *raw_buffer;		/* raw mode, iodepth 1 */
	BsIoEngine *engine;			/* raw mode, iodepth above 1 */
	Datum		tablespace;
	bool		tablespace_null;
	BsScanTotals totals;
	BsProgress	progress;
	BsScanSampleArg sample_arg;
} BsSeqscanCall;

/* One run: untimed set-up, the timed scan, untimed end. */
static void
seqscan_one_run(void *arg, BsBenchRun *r)
{
	BsSeqscanCall *c = (BsSeqscanCall *) arg;
	BsParallelScan *pscan = NULL;
	BsMeasureSampling sampling;

	/*
	 * Raw mode reads the files: the session's own temporary tables keep
	 * their newest pages in local buffers, which go to the files first
	 * (untimed).  Shared buffers are written only by checkpoints.
	 */
	if (c->mode == BS_MODE_RAW)
		flush_local_buffers(c->target);

	bs_progress_begin(&c->progress,
					  c->repeat > 1 ?
					  psprintf("seqscan (%s) of \"%s\", run %d of %d",
							   scan_modes[c->mode], get_rel_name(c->relid),
							   r->run, c->repeat) :
					  psprintf("seqscan (%s) of \"%s\"",
							   scan_modes[c->mode], get_rel_name(c->relid)),
					  bs_main_fork_bytes(c->target->storage_relids), 0);
	memset(&c->totals, 0, sizeof(c->totals));
	INSTR_TIME_SET_ZERO(c->totals.raw_io_time);
	c->totals.worker_os_known = true;
	if (c->scan_workers > 0)
		pscan = bs_parallel_scan_begin(c->target, c->mode,
									   c->cache == BS_CACHE_COLD,
									   c->snapshot, c->scan_workers, c->iodepth);
	if (pscan)
		bs_parallel_scan_start(pscan);
	else if (c->cache == BS_CACHE_WARM && c->mode != BS_MODE_RAW)
		map_target_buffers(c->target);

	c->sample_arg.progress = &c->progress;
	c->sample_arg.bu_start = &r->measure.bu_start;
	c->sample_arg.split = (pscan == NULL);
	c->sample_arg.raw = (c->mode == BS_MODE_RAW);
	sampling.interval_us = c->sample_interval_us;
	sampling.counts_fn = scan_sample_counts;
	sampling.counts_arg = &c->sample_arg;
	sampling.progress = &c->progress;
	sampling.what = c->progress.what;
	bs_measure_start(&r->measure, &r->cold, &sampling);
	if (pscan)
		bs_parallel_scan_run(pscan, &c->totals, &c->progress, c->raw_buffer,
							 c->engine);
	else
		scan_serial(c->target, c->mode, c->cache == BS_CACHE_COLD, c->snapshot,
					c->raw_buffer, c->engine, &c->totals, &c->progress);
	bs_measure_stop(&r->measure, c->mode != BS_MODE_RAW,
					c->totals.worker_os_read, c->totals.worker_os_known,
					(uint64) c->totals.pages * BLCKSZ);

	bs_progress_end(&c->progress);
	if (pscan)
		bs_parallel_scan_end(pscan);
}

/* A run's own columns (the driver has filled the common ones). */
static void
seqscan_row(void *arg, BsBenchRun *r, Datum *values, bool *nulls)
{
	BsSeqscanCall *c = (BsSeqscanCall *) arg;
	BsScanTotals *totals = &c->totals;
	double		elapsed_ms = r->measure.elapsed_ms;
	double		size_mb = (double) totals->pages * BLCKSZ / BS_BYTES_PER_MB;

	values[COL_RELATION] = ObjectIdGetDatum(c->relid);
	values[COL_TABLESPACE] = c->tablespace;
	nulls[COL_TABLESPACE] = c->tablespace_null;
	values[COL_MODE] = CStringGetTextDatum(scan_modes[c->mode]);
	values[COL_CACHE] = CStringGetTextDatum(bs_cache_states[c->cache]);
	values[COL_PAGES] = Int64GetDatum(totals->pages);
	values[COL_SIZE_MB] = Float8GetDatum(size_mb);
	values[COL_MB_PER_S] =
		Float8GetDatum(bs_round(bs_per_second(size_mb, elapsed_ms), 2));
	if (c->mode == BS_MODE_BUFFER || totals->tuples < 0)
	{
		nulls[COL_TUPLES] = true;
		nulls[COL_TUPLES_PER_S] = true;
	}
	else
	{
		values[COL_TUPLES] = Int64GetDatum(totals->tuples);
		values[COL_TUPLES_PER_S] =
			Float8GetDatum(bs_round(bs_per_second(totals->tuples, elapsed_ms), 0));
	}

	/* raw mode: every block came from the files, none through buffers */
	if (c->mode == BS_MODE_RAW)
	{
		values[COL_BLKS_HIT] = Int64GetDatum(0);
		values[COL_BLKS_READ] = Int64GetDatum(totals->raw_blocks);
		if (track_io_timing)
			values[COL_READ_MS] =
				Float8GetDatum(bs_round(INSTR_TIME_GET_MILLISEC(totals->raw_io_time) +
										totals->worker_io_ms, 3));
	}
	values[COL_WORKERS_REQUESTED] = Int32GetDatum(c->workers);
	values[COL_WORKERS_LAUNCHED] = Int32GetDatum(totals->workers_launched);
	values[COL_IODEPTH] = Int32GetDatum(c->iodepth);
	nulls[COL_IODEPTH] = (c->mode != BS_MODE_RAW);
}

static Datum
seqscan_run(FunctionCallInfo fcinfo, BsSqlVersion version)
{
	static const BsBenchOps ops = {seqscan_one_run, seqscan_row};
	BsSeqscanCall c;
	BsBench		b;
	BsBenchRuns runs;
	bool		iodepth_column = version >= BS_SQL_1_1;	/* 1.0 has neither */
	BsTarget   *target;

	memset(&c, 0, sizeof(c));
	bs_require_arg(fcinfo, 0, "relation");
	bs_require_arg(fcinfo, 1, "mode");
	bs_require_arg(fcinfo, 2, "cache");
	bs_require_arg(fcinfo, 3, "repeat");
	bs_require_arg(fcinfo, 6, "workers");

	c.relid = PG_GETARG_OID(0);
	c.mode = (BsScanMode) bs_parse_choice(PG_GETARG_TEXT_PP(1), "mode",
										  scan_modes, lengthof(scan_modes));
	c.cache = (BsCacheState) bs_parse_choice(PG_GETARG_TEXT_PP(2), "cache",
											 bs_cache_states, lengthof(bs_cache_states));
	c.repeat = PG_GETARG_INT32(3);
	if (c.repeat < 1 || c.repeat > BS_MAX_REPEAT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("repeat must be between 1 and %d", BS_MAX_REPEAT)));
	c.workers = PG_GETARG_INT32(6);
	if (c.workers < 0 || c.workers > BS_MAX_SCAN_WORKERS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("workers must be between 0 and %d", BS_MAX_SCAN_WORKERS)));
	c.iodepth = 1;
	if (iodepth_column)
	{
		bs_require_arg(fcinfo, 7, "iodepth");
		c.iodepth = PG_GETARG_INT32(7);
		if (c.iodepth < BS_MIN_IODEPTH || c.iodepth > BS_MAX_IODEPTH)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("iodepth must be between %d and %d",
							BS_MIN_IODEPTH, BS_MAX_IODEPTH)));
		if (c.iodepth != 1 && c.mode != BS_MODE_RAW)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("iodepth applies to raw mode only"),
					 errdetail("Mode \"%s\" reads through PostgreSQL's buffer manager, which keeps its own reads in flight.",
							   scan_modes[c.mode]),
					 errhint("Use mode => 'raw' to read the files at a depth of your choice; the server sets its own with effective_io_concurrency (and io_method on PostgreSQL 18).")));
		if (c.iodepth > 1)
		{
			bs_io_check_buffer_memory(c.iodepth, BS_RAW_CHUNK, c.workers + 1,
									  "iodepth × chunk size × processes (workers + 1)",
									  "Use a smaller iodepth or fewer workers.");
			bs_io_check_depth(c.iodepth, "iodepth");
		}
	}
	/* sample_interval, argument 8 from version 1.2 on */
	if (version >= BS_SQL_1_2)
		c.sample_interval_us = bs_sample_interval_arg(fcinfo, 8);
	bs_bench_begin(&b, fcinfo, "seqscan", 4, 5);

	if (c.cache == BS_CACHE_COLD)
		bs_check_checkpoint_privilege(false);

	target = c.target = bs_open_target(c.relid, c.mode == BS_MODE_HEAP);
	bs_refuse_citus_shell(target);
	describe_run(&b.history, target, c.relid, c.mode, c.cache, c.repeat, c.workers);
	if (version >= BS_SQL_1_2)
		bs_run_arg_sample_interval(&b.history, c.sample_interval_us);
	if (iodepth_column)
		bs_run_arg_int(&b.history, "iodepth", c.iodepth);

	if (target->storage_relids == NIL)
		c.tablespace = DirectFunctionCall1(namein,
										   CStringGetDatum(bs_tablespace_name(target->rel->rd_rel->reltablespace)));
	else if (OidIsValid(target->tablespace))
		c.tablespace = DirectFunctionCall1(namein,
										   CStringGetDatum(bs_tablespace_name(target->tablespace)));
	else
		c.tablespace_null = true;	/* partitions in several tablespaces */

	/*
	 * Parallel workers cannot read the caller's temporary tables (their
	 * newest pages live in the caller's local buffers): such a scan runs in
	 * the caller alone, and says so.
	 */
	c.scan_workers = IsInParallelMode() ? 0 : c.workers;
	if (c.scan_workers > 0)
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
				c.scan_workers = 0;
				break;
			}
		}
	}

	/*
	 * Raw mode: one read buffer or engine for the call, which reads the
	 * serial runs and the caller's share of the parallel ones (each worker
	 * has its own): the bound checked above counts one per process.
	 */
	if (c.mode == BS_MODE_HEAP)
	{
		c.snapshot = GetActiveSnapshot();
		if (c.snapshot == NULL || !IsMVCCSnapshot(c.snapshot))
			elog(ERROR, "bench_seqscan needs an active MVCC snapshot");
	}
	else if (c.mode == BS_MODE_RAW && c.iodepth > 1)
		c.engine = bs_io_engine_create(c.iodepth, BS_RAW_CHUNK);
	else if (c.mode == BS_MODE_RAW)
		c.raw_buffer = (char *) TYPEALIGN(BS_IO_ALIGN,
										  palloc(BS_RAW_CHUNK + BS_IO_ALIGN));

	/*
	 * 1.0's row ends before iodepth, 1.1's before cached_pct (1.2 adds
	 * cached_pct, warnings and served_by): the library fills what the
	 * installed definition has, until ALTER EXTENSION UPDATE.
	 */
	if (iodepth_column)
		bs_bench_rows(&b, "bench_seqscan", BS_SEQSCAN_NCOLS, COL_CACHED_PCT);
	else
		bs_bench_rows(&b, "bench_seqscan", COL_IODEPTH, COL_IODEPTH);

	memset(&runs, 0, sizeof(runs));
	runs.repeat = c.repeat;
	runs.ncols = BS_SEQSCAN_NCOLS;
	runs.columns = BS_BENCH_COMMON_COLUMNS;
	runs.cold = (c.cache == BS_CACHE_COLD);
	runs.target = target;
	/* raw mode reads the files, not the buffers: only the OS page cache counts */
	runs.cold_files_only = (c.mode == BS_MODE_RAW);
	runs.cold_what = psprintf("relation \"%s\"", RelationGetRelationName(target->rel));
	bs_bench_run_all(&b, &runs, &ops, &c);

	if (c.engine)
		bs_io_engine_destroy(c.engine);
	bs_close_target(target);
	bs_bench_end(&b);
	return (Datum) 0;
}
