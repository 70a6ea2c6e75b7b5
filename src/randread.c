/*-------------------------------------------------------------------------
 *
 * randread.c
 *	  bench_randread: random block reads of a relation through PostgreSQL's
 *	  buffer manager, as an index scan's heap fetches read them (the pgio
 *	  and Vondra method), timed read by read.
 *
 * The blocks of the relation's main fork (of each partition's, for a
 * partitioned table, taken as one run of blocks) are read in a random
 * order that visits every block once before any block again (permutation.c),
 * seeded by the seed argument: the same seed reads the same blocks in the
 * same order, call after call.  Each read pins the block (ReadBuffer),
 * share-locks it, counts the heap tuples' line pointers on it, and
 * releases it; with benchstore.track_latency each read's time, a buffer
 * hit or a read from the OS, goes into the latency histogram.
 *
 * Each read is attributed (attribution.c): a shared-buffer hit, a read the
 * OS page cache answered, or a device read, with a count and a latency
 * histogram per class; device reads are what RIOPS counts, and they are
 * checked against the kernel's own count of what it read for the call.
 *
 * With depth N above 1, N reads are kept in flight.  On 17+ a relation in
 * shared buffers is read through a read stream, the server's own
 * look-ahead (fadvise advice under io_method = sync and on 17, the I/O
 * workers or io_uring on 18), with effective_io_concurrency set to N for
 * the call.  On 15 and 16, and for partitioned or temporary relations,
 * the next N - 1 blocks of the order are announced ahead of their reads
 * with PrefetchBuffer (posix_fadvise(WILLNEED)), as bitmap heap scans did
 * before read streams.
 *
 * A cold run first writes and drops the relation's pages from shared
 * buffers and the OS page cache as bench_seqscan's cold runs do
 * (cache.c), and says what stayed cached.
 *
 * One process's reads (the BsRandRead of randread.h) are in
 * randread_reader.c; this file is the SQL function around them.
 *
 * With workers > 0 each run is shared with parallel workers that walk the
 * same order (randread_parallel.c); every process runs bs_randread_run.
 *
 * src/randread.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/xact.h"
#include "attribution.h"
#include "bench_driver.h"
#include "benchstore.h"
#include "cache.h"
#include "catalog/pg_class_d.h"
#include "common/pg_prng.h"
#include "compat.h"
#include "executor/instrument.h"
#include "funcapi.h"
#include "histogram.h"
#include "history.h"
#include "miscadmin.h"
#include "progress.h"
#include "randread.h"
#include "scan_reads.h"
#include "series.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "target.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/guc.h"
#include "utils/rel.h"
#include "utils/spccache.h"


PG_FUNCTION_INFO_V1(bench_randread);

#define BS_RANDREAD_MAX_READS	INT64CONST(1000000000)
#define BS_RANDREAD_MAX_DEPTH	256

/* Result columns, in the order of the OUT parameters. */
enum
{
	COL_RUN,
	COL_RELATION,
	COL_TABLESPACE,
	COL_CACHE,
	COL_DEPTH,
	COL_READS,
	COL_BLOCKS,
	COL_TUPLES,
	COL_ELAPSED_MS,
	COL_READS_PER_S,
	COL_MB_PER_S,
	COL_LAT_AVG_US,
	COL_LAT_P50_US,
	COL_LAT_P95_US,
	COL_LAT_P99_US,
	COL_BLKS_HIT,
	COL_BLKS_READ,
	COL_READ_MS,
	COL_OS_READ_MB,
	COL_CACHED_PCT,
	COL_WARNINGS,
	COL_SERVED_BY,
	COL_PAGE_CACHE_READS,
	COL_DEVICE_READS,
	COL_DEVICE_READS_PER_S,
	COL_READAHEAD_MB,
	COL_PREFETCH,
	COL_BY_CLASS,
	COL_WORKERS_LAUNCHED,
	COL_BY_PROCESS,
	BS_RANDREAD_NCOLS
};
/*
 * Sampling: the reads so far (all processes', from the shared progress
 * counter, in a parallel run), and the caller's buffer usage since start.
 */
typedef struct BsRandSampleArg
{
	BsRandRead *rr;
	BsProgress *progress;
	bool		parallel;
	const BufferUsage *bu_start;	/* the run's, from its measure */
} BsRandSampleArg;

/* The series' counts: reads so far, and hits and reads from the OS. */
static void
randread_sample_counts(void *arg, BsSampleCounts *c)
{
	BsRandSampleArg *a = (BsRandSampleArg *) arg;

	memset(c, 0, sizeof(*c));
	INSTR_TIME_SET_CURRENT(c->now);
	if (a->parallel && a->progress->total_fn != NULL)
	{
		/* the workers publish their reads at every 1 MB (progress.c) */
		bs_progress_flush(a->progress);
		c->ops = a->progress->total_fn(a->progress->total_arg) / BLCKSZ;
	}
	else
		c->ops = a->rr->reads;
	c->bytes = c->ops * BLCKSZ;
	/* the workers' buffer usage reaches the caller at the end only */
	if (!a->parallel)
		bs_sample_buffer_split(c, a->bu_start);
}

/*
 * by_process: each process's reads of a parallel run, by where they were
 * served, with its latency percentiles and what its kernel read.
 */
static Datum
processes_jsonb(const BsRandProcess *procs, int nprocs)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	for (int i = 0; i < nprocs; i++)
	{
		const BsRandProcess *pr = &procs[i];
		BsHistogram all;

		bs_hist_reset(&all);
		for (int c = 0; c < BS_READ_NCLASSES; c++)
			bs_hist_merge(&all, &pr->classes.hist[c]);
		appendStringInfo(&buf, "%s{\"process\": %d, \"pid\": %d, \"reads\": " UINT64_FORMAT
						 ", \"reads_per_s\": %.1f, \"shared_buffers\": " UINT64_FORMAT,
						 i > 0 ? ", " : "", i, pr->pid, pr->reads,
						 bs_round(bs_per_second((double) pr->reads, pr->elapsed_ms), 1),
						 pr->classes.reads[BS_READ_SHARED_BUFFERS]);
		if (pr->classes.known)
			appendStringInfo(&buf, ", \"page_cache\": " UINT64_FORMAT ", \"device\": " UINT64_FORMAT,
							 pr->classes.reads[BS_READ_PAGE_CACHE],
							 pr->classes.reads[BS_READ_DEVICE]);
		else
			appendStringInfo(&buf, ", \"os\": " UINT64_FORMAT,
							 pr->classes.reads[BS_READ_PAGE_CACHE] +
							 pr->classes.reads[BS_READ_DEVICE]);
		if (all.count > 0)
			appendStringInfo(&buf, ", \"lat_p50_us\": %.1f, \"lat_p99_us\": %.1f",
							 bs_round(bs_hist_percentile_ns(&all, 0.50) / 1000.0, 1),
							 bs_round(bs_hist_percentile_ns(&all, 0.99) / 1000.0, 1));
		if (pr->os_known)
			appendStringInfo(&buf, ", \"os_read_mb\": %.3f",
							 bs_round(pr->os_read / BS_BYTES_PER_MB, 3));
		appendStringInfoChar(&buf, '}');
	}
	appendStringInfoChar(&buf, ']');
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data));
}

/*
 * A cold run's read-ahead: what the kernel brought into the page cache for
 * the relation during the run beyond the device reads, from its residency
 * after the run and after the eviction before it.
 */
static uint64
readahead_bytes(BsRandRead *rr, const BsColdState *cold)
{
	uint64		after = 0;
	uint64		known = cold->os_cached_bytes +
		rr->classes->reads[BS_READ_DEVICE] * BLCKSZ;

	for (int i = 0; i < rr->nparts; i++)
	{
		int			nfiles;
		uint64		file_bytes;
		uint64		cached;

		bs_os_cache_residency(rr->parts[i].rel, &nfiles, &file_bytes, &cached);
		after += cached;
	}
	return after > known ? after - known : 0;
}

/* Add a sentence to a row's warnings column. */
static void
add_warning(Datum *values, bool *nulls, const char *sentence)
{
	if (sentence == NULL)
		return;
	if (nulls[COL_WARNINGS])
		values[COL_WARNINGS] = CStringGetTextDatum(sentence);
	else
		values[COL_WARNINGS] =
			CStringGetTextDatum(psprintf("%s %s",
										 TextDatumGetCString(values[COL_WARNINGS]),
										 sentence));
	nulls[COL_WARNINGS] = false;
}

/* A call's inputs, and its current run's (see bench_driver.h). */
typedef struct BsRandreadCall
{
	Oid			relid;
	int64		reads;
	BsCacheState cache;
	int32		depth;
	int32		repeat;
	int64		seed;
	int64		sample_interval_us;
	int32		run_workers;	/* workers, or 0 where they cannot read */
	Datum		tablespace;
	bool		tablespace_null;
	char	   *stream_note;	/* the read stream's depth was not depth */
	BsRandRead	rr;
	BsRandProcess *procs;		/* a parallel run's processes */
	BsProgress	progress;
	BsRandSampleArg sample_arg;
	int			nprocs;			/* the run's: the caller and its workers */
	bool		parallel;
} BsRandreadCall;

/* One run: untimed set-up, the timed reads, untimed end. */
static void
randread_one_run(void *arg, BsBenchRun *r)
{
	BsRandreadCall *c = (BsRandreadCall *) arg;
	BsRandParallel *rp = NULL;
	BsMeasureSampling sampling;
	uint64		workers_os_read = 0;
	bool		workers_os_known = true;

	bs_progress_begin(&c->progress,
					  c->repeat > 1 ?
					  psprintf("randread of \"%s\", run %d of %d",
							   get_rel_name(c->relid), r->run, c->repeat) :
					  psprintf("randread of \"%s\"", get_rel_name(c->relid)),
					  (uint64) c->reads * BLCKSZ, 0);

	/*
	 * Untimed: a parallel run's workers start, open the relations and wait
	 * for the clock.
	 */
	if (c->run_workers > 0)
		rp = bs_randread_parallel_begin(&c->rr, c->run_workers,
										(uint64) c->reads, c->seed);
	if (rp)
		bs_randread_parallel_start(rp);

	c->sample_arg.rr = &c->rr;
	c->sample_arg.progress = &c->progress;
	c->sample_arg.parallel = (rp != NULL);
	c->sample_arg.bu_start = &r->measure.bu_start;
	sampling.interval_us = c->sample_interval_us;
	sampling.counts_fn = randread_sample_counts;
	sampling.counts_arg = &c->sample_arg;
	sampling.progress = &c->progress;
	sampling.what = c->progress.what;
	bs_measure_start(&r->measure, &r->cold, &sampling);
	c->nprocs = 1;
	if (rp)
		c->nprocs = bs_randread_parallel_run(rp, &c->rr, &c->progress, c->procs);
	else
		bs_randread_run(&c->rr, (uint64) c->reads, c->seed, NULL, &c->progress);
	for (int i = 1; i < c->nprocs; i++)
	{
		workers_os_read += c->procs[i].os_read;
		workers_os_known &= c->procs[i].os_known;
	}
	bs_measure_stop(&r->measure, true, workers_os_read, workers_os_known,
					(uint64) Max(c->rr.reads, c->rr.nblocks) * BLCKSZ);

	bs_progress_end(&c->progress);
	if (rp)
		bs_randread_parallel_end(rp);
	c->parallel = (rp != NULL);
}

/* A run's own columns (the driver has filled the common ones). */
static void
randread_row(void *arg, BsBenchRun *r, Datum *values, bool *nulls)
{
	BsRandreadCall *c = (BsRandreadCall *) arg;
	BsRandRead *rr = &c->rr;
	double		elapsed_ms = r->measure.elapsed_ms;

	values[COL_RELATION] = ObjectIdGetDatum(c->relid);
	values[COL_TABLESPACE] = c->tablespace;
	nulls[COL_TABLESPACE] = c->tablespace_null;
	values[COL_CACHE] = CStringGetTextDatum(bs_cache_states[c->cache]);
	values[COL_DEPTH] = Int32GetDatum(c->depth);
	values[COL_READS] = Int64GetDatum((int64) rr->reads);
	values[COL_BLOCKS] = Int64GetDatum((int64) rr->nblocks);
	values[COL_TUPLES] = Int64GetDatum(rr->tuples);
	nulls[COL_TUPLES] = !rr->count_tuples;
	values[COL_READS_PER_S] = Float8GetDatum(bs_round(bs_per_second((double) rr->reads, elapsed_ms), 1));
	values[COL_MB_PER_S] = Float8GetDatum(bs_round(bs_per_second(rr->reads * (double) BLCKSZ / BS_BYTES_PER_MB,
																  elapsed_ms), 2));
	if (rr->hist.count == 0)
	{
		for (int col = COL_LAT_AVG_US; col <= COL_LAT_P99_US; col++)
			nulls[col] = true;
	}
	else
	{
		values[COL_LAT_AVG_US] =
			Float8GetDatum(bs_round((double) rr->hist.sum_ns / rr->hist.count / 1000.0, 1));
		values[COL_LAT_P50_US] =
			Float8GetDatum(bs_round(bs_hist_percentile_ns(&rr->hist, 0.50) / 1000.0, 1));
		values[COL_LAT_P95_US] =
			Float8GetDatum(bs_round(bs_hist_percentile_ns(&rr->hist, 0.95) / 1000.0, 1));
		values[COL_LAT_P99_US] =
			Float8GetDatum(bs_round(bs_hist_percentile_ns(&rr->hist, 0.99) / 1000.0, 1));
	}
	nulls[COL_READAHEAD_MB] = true;
	if (rr->classes->known)
	{
		uint64		device = rr->classes->reads[BS_READ_DEVICE];

		values[COL_PAGE_CACHE_READS] = Int64GetDatum((int64) rr->classes->reads[BS_READ_PAGE_CACHE]);
		values[COL_DEVICE_READS] = Int64GetDatum((int64) device);
		values[COL_DEVICE_READS_PER_S] =
			Float8GetDatum(bs_round(bs_per_second((double) device, elapsed_ms), 1));
		if (c->cache == BS_CACHE_COLD)
		{
			uint64		readahead = readahead_bytes(rr, &r->cold);

			values[COL_READAHEAD_MB] = Float8GetDatum(readahead / BS_BYTES_PER_MB);
			nulls[COL_READAHEAD_MB] = false;
			add_warning(values, nulls, bs_readahead_note(rr->classes, readahead));
			if (r->measure.os_known)
				add_warning(values, nulls,
							bs_read_classes_kernel_check(rr->classes,
														 r->measure.os_read,
														 readahead));
		}
	}
	else
	{
		nulls[COL_PAGE_CACHE_READS] = true;
		nulls[COL_DEVICE_READS] = true;
		nulls[COL_DEVICE_READS_PER_S] = true;
	}
	add_warning(values, nulls, c->stream_note);
	values[COL_PREFETCH] = CStringGetTextDatum(bs_prefetch_names[rr->prefetch]);
	values[COL_BY_CLASS] = bs_read_classes_jsonb(rr->classes);
	values[COL_WORKERS_LAUNCHED] = Int32GetDatum(c->nprocs - 1);
	if (c->parallel)
		values[COL_BY_PROCESS] = processes_jsonb(c->procs, c->nprocs);
	else
		nulls[COL_BY_PROCESS] = true;
}

/*
 * bench_randread(relation regclass, reads bigint DEFAULT 100000,
 *				  cache text DEFAULT 'warm', depth integer DEFAULT 1,
 *				  repeat integer DEFAULT 1, label text DEFAULT NULL,
 *				  record boolean DEFAULT true, seed bigint DEFAULT 0,
 *				  sample_interval interval DEFAULT '1s',
 *				  workers integer DEFAULT 0)
 *	RETURNS SETOF record: one row per run
 */
Datum
bench_randread(PG_FUNCTION_ARGS)
{
	static const BsBenchOps ops = {randread_one_run, randread_row};
	BsRandreadCall c;
	BsBench		b;
	BsBenchRuns runs;
	BsTarget   *target;
	char	   *qualified;
	ListCell   *lc;
	int32		workers;
	BsPrefetch	prefetch;

	memset(&c, 0, sizeof(c));
	bs_require_arg(fcinfo, 0, "relation");
	bs_require_arg(fcinfo, 1, "reads");
	bs_require_arg(fcinfo, 2, "cache");
	bs_require_arg(fcinfo, 3, "depth");
	bs_require_arg(fcinfo, 4, "repeat");
	bs_require_arg(fcinfo, 7, "seed");
	bs_require_arg(fcinfo, 9, "workers");
	c.relid = PG_GETARG_OID(0);
	c.reads = PG_GETARG_INT64(1);
	if (c.reads < 1 || c.reads > BS_RANDREAD_MAX_READS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("reads must be between 1 and %lld",
						(long long) BS_RANDREAD_MAX_READS)));
	c.cache = (BsCacheState) bs_parse_choice(PG_GETARG_TEXT_PP(2), "cache",
											 bs_cache_states, lengthof(bs_cache_states));
	c.depth = PG_GETARG_INT32(3);
	if (c.depth < 1 || c.depth > BS_RANDREAD_MAX_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("depth must be between 1 and %d", BS_RANDREAD_MAX_DEPTH)));
	c.repeat = PG_GETARG_INT32(4);
	if (c.repeat < 1 || c.repeat > BS_MAX_REPEAT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("repeat must be between 1 and %d", BS_MAX_REPEAT)));
	c.seed = PG_GETARG_INT64(7);
	c.sample_interval_us = bs_sample_interval_arg(fcinfo, 8);
	workers = PG_GETARG_INT32(9);
	if (workers < 0 || workers > BS_MAX_SCAN_WORKERS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("workers must be between 0 and %d", BS_MAX_SCAN_WORKERS)));
	bs_bench_begin(&b, fcinfo, "randread", 5, 6);
	if (c.cache == BS_CACHE_COLD)
		bs_check_checkpoint_privilege(false);

	target = bs_open_target(c.relid, false);
	bs_refuse_citus_shell(target);
	qualified = quote_qualified_identifier(get_namespace_name(get_rel_namespace(c.relid)),
										   get_rel_name(c.relid));
	bs_run_target(&b.history, "relation", qualified, c.relid);
	bs_run_arg_text(&b.history, "relation", qualified);
	bs_run_arg_int(&b.history, "reads", c.reads);
	bs_run_arg_text(&b.history, "cache", bs_cache_states[c.cache]);
	bs_run_arg_int(&b.history, "depth", c.depth);
	bs_run_arg_int(&b.history, "workers", workers);
	bs_run_arg_int(&b.history, "repeat", c.repeat);
	bs_run_arg_int(&b.history, "seed", c.seed);
	bs_run_arg_sample_interval(&b.history, c.sample_interval_us);
	bs_run_arg_bool(&b.history, "track_latency", bs_track_latency);
	foreach(lc, target->storage_relids)
		bs_run_tablespace(&b.history, get_rel_tablespace(lfirst_oid(lc)));

	if (OidIsValid(target->tablespace))
		c.tablespace = DirectFunctionCall1(namein,
										   CStringGetDatum(bs_tablespace_name(target->tablespace)));
	else
		c.tablespace_null = true;	/* partitions in several tablespaces */

	bs_randread_open(&c.rr, target->storage_relids, NULL,
					 RelationGetRelationName(target->rel));
	bs_bench_rows(&b, "bench_randread", BS_RANDREAD_NCOLS, BS_RANDREAD_NCOLS);
	prefetch = c.depth > 1 ? BS_PREFETCH_BUFFER : BS_PREFETCH_NONE;

	/*
	 * Parallel workers cannot read the caller's temporary tables (their
	 * newest pages live in the caller's local buffers): such reads are made
	 * by the caller alone, and it says so.
	 */
	c.run_workers = IsInParallelMode() ? 0 : workers;
	for (int i = 0; i < c.rr.nparts && c.run_workers > 0; i++)
	{
		if (RelationUsesLocalBuffers(c.rr.parts[i].rel))
		{
			ereport(NOTICE,
					(errmsg("temporary relation \"%s\" is read without parallel workers",
							RelationGetRelationName(c.rr.parts[i].rel)),
					 errdetail("Parallel workers cannot read a session's temporary tables.")));
			c.run_workers = 0;
		}
	}
#ifdef BS_HAVE_READ_STREAM
	/*
	 * On 17+, a read stream, the server's own look-ahead (asynchronous I/O
	 * under every io_method on 18), when the reads are of one relation in
	 * shared buffers: a stream reads one relation, and a temporary one's
	 * local buffers cannot be looked up to classify its reads.  Its depth
	 * is effective_io_concurrency, set for the call only.
	 */
	if (c.depth > 1 && c.rr.nparts == 1 && !RelationUsesLocalBuffers(c.rr.parts[0].rel))
	{
		Oid			spc = c.rr.parts[0].rel->rd_rel->reltablespace;
		int			in_effect;

		prefetch = BS_PREFETCH_STREAM;
		bs_bench_set(&b, "effective_io_concurrency", psprintf("%d", c.depth));
		in_effect = get_tablespace_io_concurrency(spc);
		if (in_effect != c.depth)
			c.stream_note = psprintf("Tablespace \"%s\" sets effective_io_concurrency = %d for its relations, so the read stream kept up to %d reads in flight, not %d.",
									 bs_tablespace_name(OidIsValid(spc) ? spc : MyDatabaseTableSpace),
									 in_effect, in_effect, c.depth);
	}
#endif
	bs_randread_prepare(&c.rr, c.depth, prefetch);
	bs_run_arg_text(&b.history, "prefetch", bs_prefetch_names[c.rr.prefetch]);
	if (c.run_workers > 0)
		c.procs = palloc(sizeof(BsRandProcess) * (c.run_workers + 1));

	memset(&runs, 0, sizeof(runs));
	runs.repeat = c.repeat;
	runs.ncols = BS_RANDREAD_NCOLS;
	runs.columns = BS_BENCH_COMMON_COLUMNS;
	runs.cold = (c.cache == BS_CACHE_COLD);
	runs.target = target;
	runs.cold_what = psprintf("relation \"%s\"", RelationGetRelationName(target->rel));
	bs_bench_run_all(&b, &runs, &ops, &c);

	bs_randread_close(&c.rr);
	bs_close_target(target);
	bs_bench_end(&b);
	return (Datum) 0;
}
