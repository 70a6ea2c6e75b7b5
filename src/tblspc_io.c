/*-------------------------------------------------------------------------
 *
 * tblspc_io.c
 *	  bench_tablespace_io and bench_tablespaces_io: the dd and fio tests,
 *	  run from inside the server on temporary files in the tablespaces a
 *	  DBA names.
 *
 * This file holds the arguments, the limits, the result rows and the
 * driver; tblspc_io_stream.c runs one stream (its file, its I/O, each
 * test) and samples the time series.
 *
 * Each stream owns one temporary file, made by PostgreSQL's temp-file
 * machinery in the tablespace's pgsql_tmp directory, so that it is removed
 * on success, error, cancel, backend exit, and at restart after a crash.
 * The I/O itself goes through a second descriptor of the same file, opened
 * with O_DIRECT when asked: at iodepth 1 with pread/pwrite of block_size
 * bytes (in chunks of at most 1 MB, checking for interrupts between them);
 * above, with iodepth operations of one block each in flight through the
 * stream's io_uring engine (io_engine.c), issued in the same order.  The data
 * written is random and re-stamped at every write, so that compressing or
 * deduplicating storage cannot flatter it.
 *
 * Streams beyond the first run in parallel workers (a ParallelContext):
 * they inherit the caller's user and settings, and an error in any of them
 * is raised in the caller.  All streams meet at a barrier before and after
 * each test, so that a test starts everywhere at once; the caller's own
 * stream is stream 0 and gathers the results between tests.
 *
 * Tests, in the order given:
 *	seqwrite	size bytes written sequentially, then fsync, inside the time
 *	seqread		the file read sequentially
 *	randread	random block-aligned reads until size bytes or duration
 *	randwrite	random block-aligned writes until size bytes or duration,
 *				then fsync, inside the time
 *	sync		one block written at offset 0 and synced per operation, as
 *				the server's wal_sync_method does (pg_test_fsync's figure);
 *				always at depth 1: a commit waits for its flush
 * A test that needs the file when it is not yet written fills it first,
 * untimed.  Without direct I/O, read tests first evict the file from the
 * OS page cache, so that they read from storage.
 *
 * src/tblspc_io.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <math.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "access/parallel.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "benchstore.h"
#include "blockdev.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_tablespace_d.h"
#include "bench_driver.h"
#include "commands/tablespace.h"
#include "common/pg_prng.h"
#include "compat.h"
#include "funcapi.h"
#include "histogram.h"
#include "history.h"
#include "io_engine.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "port/pg_bitutils.h"
#include "portability/instr_time.h"
#include "series.h"
#include "steady.h"
#include "tblspc_io.h"
#include "storage/barrier.h"
#include "storage/condition_variable.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "storage/shm_toc.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(bench_tablespace_io);
PG_FUNCTION_INFO_V1(bench_tablespaces_io);
PG_FUNCTION_INFO_V1(bench_tablespace_io_1_2);
PG_FUNCTION_INFO_V1(bench_tablespaces_io_1_2);

/* Arguments of both SQL functions, checked. */
typedef struct BsIoArgs
{
	int			ntablespaces;
	Oid			tablespaces[BS_MAX_TABLESPACES];
	uint64		size;
	uint32		block_size;
	int			ntests;
	BsIoTest	tests[BS_MAX_TESTS];
	int			streams;		/* per tablespace */
	bool		direct;
	int64		duration_us;
	int			iodepth;
	BsSqlVersion version;		/* the SQL definition that called */
	bool		iodepth_column; /* the SQL definition has it (1.1 on) */
	int			repeat;			/* runs of the whole sequence (1.2 on) */
	bool		run_columns;	/* run and warnings columns (1.2 on) */
	int64		sample_interval_us; /* the time series (1.2 on); 0: none */
	int64		ramp_us;		/* 1.2 on, as the rest */
	bool		until_steady;
	char	   *steady;			/* the criterion as given; NULL: none */
	BsSteady   *steady_judge;	/* and parsed */
	int64		steady_window_us;
	bool		preconditioning;
} BsIoArgs;

/* Result columns, in the order of the OUT parameters. */
enum
{
	COL_TABLESPACE,
	COL_TEST,
	COL_BLOCK_SIZE,
	COL_STREAMS,
	COL_DIRECT,
	COL_IODEPTH,
	COL_BYTES,
	COL_ELAPSED_MS,
	COL_MB_PER_S,
	COL_IOPS,
	COL_LAT_AVG_US,
	COL_LAT_P50_US,
	COL_LAT_P95_US,
	COL_LAT_P99_US,
	COL_LAT_P999_US,
	COL_LAT_MAX_US,
	COL_RUN,					/* from version 1.2 on */
	COL_WARNINGS,
	COL_SERVED_BY,
	COL_STEADY_STATE,
	COL_STEADY_AT_MS,
	COL_STEADY_CRITERION,
	BS_IO_NCOLS
};

/* ----------------------------------------------------------------
 * Arguments
 * ----------------------------------------------------------------
 */

static uint64
parse_size_arg(FunctionCallInfo fcinfo, int argno, const char *argname)
{
	int64		bytes;

	bs_require_arg(fcinfo, argno, argname);
	bytes = DatumGetInt64(DirectFunctionCall1(pg_size_bytes,
											  PG_GETARG_DATUM(argno)));
	if (bytes <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be positive", argname)));
	return (uint64) bytes;
}

static Oid
tablespace_oid(Name name)
{
	Oid			spc = get_tablespace_oid(NameStr(*name), false);

	if (spc == GLOBALTABLESPACE_OID)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tablespace \"%s\" cannot hold temporary files",
						NameStr(*name)),
				 errhint("Benchmark pg_default or a tablespace of your own.")));
	return spc;
}

/*
 * The elements of a one-dimensional array argument with no NULL in it.
 */
static Datum *
array_arg_elements(FunctionCallInfo fcinfo, int argno, const char *argname,
				   Oid elemtype, int16 elemlen, char elemalign, int *nelems)
{
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *elnulls;

	bs_require_arg(fcinfo, argno, argname);
	arr = PG_GETARG_ARRAYTYPE_P(argno);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("%s must be a one-dimensional array", argname)));
	deconstruct_array(arr, elemtype, elemlen, false, elemalign,
					  &elems, &elnulls, nelems);
	for (int i = 0; i < *nelems; i++)
		if (elnulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s cannot contain null", argname)));
	return elems;
}

/*
 * The steady-state arguments (1.2): ramp (NULL: none), until ('size' or
 * 'steady'), steady (a criterion, or NULL) and steady_window, parsed and
 * checked by bs_steady_args_parse (src/steady.c); then preconditioning.
 */
static void
parse_steady_args(FunctionCallInfo fcinfo, BsIoArgs *args)
{
	BsSteadyArgs sa;

	bs_steady_args_parse(fcinfo, 12, "test", "size", BS_MAX_DURATION_US, "7 days",
						 args->duration_us, args->sample_interval_us, &sa);
	args->ramp_us = sa.ramp_us;
	args->until_steady = sa.until_steady;
	args->steady = sa.steady;
	args->steady_window_us = sa.window_us;
	args->steady_judge = sa.judge;
	bs_require_arg(fcinfo, 16, "preconditioning");
	args->preconditioning = PG_GETARG_BOOL(16);
}

/*
 * Arguments after the tablespace(s): size, block_size, tests, streams,
 * direct, duration, at argument positions 1..6.
 */
static void
parse_io_args(FunctionCallInfo fcinfo, BsIoArgs *args)
{
	Datum	   *elems;
	int			nelems;
	Interval   *duration;

	args->size = parse_size_arg(fcinfo, 1, "size");
	if (args->size > BS_MAX_SIZE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("size must be at most 1PB per stream")));
	args->block_size = (uint32) Min(parse_size_arg(fcinfo, 2, "block_size"),
									(uint64) PG_INT32_MAX);
	if (args->block_size < BS_MIN_BLOCK || args->block_size > BS_MAX_BLOCK ||
		(args->block_size & (args->block_size - 1)) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("block_size must be a power of two between 512 bytes and 16 MB"),
				 errhint("For example '4kB', '8kB', '64kB', '256kB' or '1MB'.")));
	if (args->size < args->block_size)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("size must be at least one block (%u bytes)", args->block_size)));
	if (args->size % args->block_size != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("size must be a multiple of block_size (%u bytes)",
						args->block_size)));

	elems = array_arg_elements(fcinfo, 3, "tests", TEXTOID, -1, TYPALIGN_INT,
							   &nelems);
	if (nelems == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tests must name at least one test"),
				 errhint("Valid tests are \"seqwrite\", \"seqread\", \"randread\", \"randwrite\", and \"sync\".")));
	if (nelems > BS_MAX_TESTS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("at most %d tests can be run in one call", BS_MAX_TESTS)));
	for (int i = 0; i < nelems; i++)
	{
		args->tests[i] = (BsIoTest) bs_parse_choice(DatumGetTextPP(elems[i]), "test",
													bs_io_tests, BS_IO_NTESTS);
	}
	args->ntests = nelems;

	bs_require_arg(fcinfo, 4, "streams");
	args->streams = PG_GETARG_INT32(4);
	if (args->streams < 1 || args->streams > BS_MAX_STREAMS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("streams must be between 1 and %d", BS_MAX_STREAMS)));

	bs_require_arg(fcinfo, 5, "direct");
	args->direct = PG_GETARG_BOOL(5);

	bs_require_arg(fcinfo, 6, "duration");
	duration = PG_GETARG_INTERVAL_P(6);
	{
		/* in floating point first: a large interval must not wrap around */
		double		us = (double) duration->time +
			((double) duration->day + (double) duration->month * DAYS_PER_MONTH) *
			(double) USECS_PER_DAY;

		if (us <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("duration must be positive")));
		if (us > (double) BS_MAX_DURATION_US)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("duration must be at most 7 days")));
		args->duration_us = (int64) us;
	}

	/*
	 * iodepth, argument 9 from version 1.1 on; a 1.0 definition (no such
	 * argument, no such column) runs at depth 1.
	 */
	args->iodepth = 1;
	args->iodepth_column = args->version >= BS_SQL_1_1;
	if (args->iodepth_column)
	{
		bs_require_arg(fcinfo, 9, "iodepth");
		args->iodepth = PG_GETARG_INT32(9);
		if (args->iodepth < BS_MIN_IODEPTH || args->iodepth > BS_MAX_IODEPTH)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("iodepth must be between %d and %d",
							BS_MIN_IODEPTH, BS_MAX_IODEPTH)));
	}

	/* repeat, argument 10 from version 1.2 on */
	args->repeat = 1;
	args->run_columns = args->version >= BS_SQL_1_2;
	if (args->run_columns)
	{
		bs_require_arg(fcinfo, 10, "repeat");
		args->repeat = PG_GETARG_INT32(10);
		if (args->repeat < 1 || args->repeat > BS_MAX_REPEAT)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("repeat must be between 1 and %d", BS_MAX_REPEAT)));
	}

	/* sample_interval, argument 11 from version 1.2 on */
	args->sample_interval_us = 0;
	if (args->version >= BS_SQL_1_2)
		args->sample_interval_us = bs_sample_interval_arg(fcinfo, 11);

	/* ramp, until, steady, steady_window, preconditioning: 12 .. 16 (1.2) */
	if (args->version >= BS_SQL_1_2)
		parse_steady_args(fcinfo, args);
}

/*
 * Superuser, or a member of pg_write_server_files with CREATE on the
 * tablespace (none needed on the database's default tablespace, as for
 * tables).
 */
static void
check_io_privileges(Oid spc)
{
	AclResult	aclresult;

	if (superuser())
		return;
	if (!has_privs_of_role(GetUserId(), ROLE_PG_WRITE_SERVER_FILES))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to write benchmark files"),
				 errdetail("Only superusers and roles with privileges of the \"%s\" role may run I/O benchmarks in a tablespace.",
						   "pg_write_server_files")));
	if (spc == MyDatabaseTableSpace)
		return;
	aclresult = bs_tablespace_aclcheck(spc, GetUserId(), ACL_CREATE);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_TABLESPACE, get_tablespace_name(spc));
}

/*
 * Refuse up front a run that would not fit: in the free space of each
 * filesystem less a reserve (1 GB or 5 % of the filesystem, whichever is
 * larger), counting together the tablespaces that share a filesystem; or in
 * temp_file_limit, applied to the whole run (each stream is a process with
 * a limit of its own, but the limit is the DBA's bound on one query).
 */
static void
check_io_limits(const BsIoArgs *args)
{
	struct
	{
		unsigned long fsid;
		uint64		need;
		uint64		avail;
		uint64		reserve;
		Oid			spc;		/* one of its tablespaces, for the message */
	}			fs[BS_MAX_TABLESPACES];
	int			nfs = 0;
	uint64		per_tablespace = args->size * (uint64) args->streams;
	uint64		total = per_tablespace * (uint64) args->ntablespaces;

	if (temp_file_limit >= 0 && total > (uint64) temp_file_limit * 1024)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("the run's files would exceed temp_file_limit (%dkB)",
						temp_file_limit),
				 errdetail("All streams together write %llu kB.",
						   (unsigned long long) (total / 1024)),
				 errhint("Pass a smaller size or fewer streams, or raise temp_file_limit.")));

	for (int i = 0; i < args->ntablespaces; i++)
	{
		char	   *dir = bs_tablespace_dir(args->tablespaces[i]);
		struct statvfs sv;
		int			f;

		if (statvfs(dir, &sv) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read free space of directory \"%s\": %m", dir)));
		for (f = 0; f < nfs; f++)
			if (fs[f].fsid == sv.f_fsid)
				break;
		if (f == nfs)
		{
			fs[f].fsid = sv.f_fsid;
			fs[f].need = 0;
			fs[f].avail = (uint64) sv.f_bavail * sv.f_frsize;
			fs[f].reserve = Max(BS_RESERVE_MIN, (uint64) sv.f_blocks * sv.f_frsize / 20);
			fs[f].spc = args->tablespaces[i];
			nfs++;
		}
		fs[f].need += per_tablespace;
		pfree(dir);
	}

	for (int f = 0; f < nfs; f++)
	{
		if (fs[f].need > fs[f].avail || fs[f].avail - fs[f].need < fs[f].reserve)
			ereport(ERROR,
					(errcode(ERRCODE_DISK_FULL),
					 errmsg("not enough free space in tablespace \"%s\" for the benchmark",
							get_tablespace_name(fs[f].spc)),
					 errdetail("The run writes %llu MB on its filesystem, which has %llu MB free, of which %llu MB is kept in reserve.",
							   (unsigned long long) (fs[f].need >> 20),
							   (unsigned long long) (fs[f].avail >> 20),
							   (unsigned long long) (fs[f].reserve >> 20)),
					 errhint("Pass a smaller size or fewer streams.")));
	}
}

/* ----------------------------------------------------------------
 * The caller: set up, run, gather
 * ----------------------------------------------------------------
 */

static char *
block_size_text(uint32 bs)
{
	if (bs >= 1024 * 1024)
		return psprintf("%uMB", bs >> 20);
	if (bs >= 1024)
		return psprintf("%ukB", bs >> 10);
	return psprintf("%u bytes", bs);
}

/* Aggregate of the streams of one tablespace (or of all) for one test. */
typedef struct BsIoTotals
{
	int			streams;
	uint64		bytes;
	uint64		ops;
	instr_time	start;
	instr_time	end;
	uint64		reread_ops;
	uint64		pass1_ns;
	uint64		pass2_ns;
	int			unramped;		/* streams that ended inside the ramp */
	BsHistogram hist;
} BsIoTotals;

static void
totals_add(BsIoTotals *t, const BsStreamSlot *slot)
{
	if (t->streams == 0 || bs_instr_time_ns(slot->start) < bs_instr_time_ns(t->start))
		t->start = slot->start;
	if (t->streams == 0 || bs_instr_time_ns(slot->end) > bs_instr_time_ns(t->end))
		t->end = slot->end;
	t->streams++;
	t->bytes += slot->bytes;
	t->ops += slot->ops;
	if (slot->reread_ops > 0)
	{
		t->reread_ops += slot->reread_ops;
		t->pass1_ns += slot->pass1_ns;
		t->pass2_ns += slot->pass2_ns;
	}
	bs_hist_merge(&t->hist, slot->ramped ? &slot->measured : &slot->hist);
	if (!slot->ramped)
		t->unramped++;
}

static void
put_row(BsBench *b, const char *tablespace,
		BsIoTest test, const BsIoArgs *args, bool sync_direct,
		const BsIoTotals *t, int run_no, const char *warnings,
		const char *served_by, const BsSeries *series, const BsSteady *steady)
{
	Datum		values[BS_IO_NCOLS];
	bool		nulls[BS_IO_NCOLS];
	double		elapsed_ms;

	elapsed_ms = (bs_instr_time_ns(t->end) - bs_instr_time_ns(t->start)) / 1e6;
	memset(nulls, 0, sizeof(nulls));
	values[COL_TABLESPACE] = DirectFunctionCall1(namein, CStringGetDatum(tablespace));
	values[COL_TEST] = CStringGetTextDatum(bs_io_tests[test]);
	values[COL_BLOCK_SIZE] = CStringGetTextDatum(block_size_text(args->block_size));
	values[COL_STREAMS] = Int32GetDatum(t->streams);
	values[COL_DIRECT] = BoolGetDatum(test == BS_TEST_SYNC ? sync_direct : args->direct);
	values[COL_IODEPTH] = Int32GetDatum(test == BS_TEST_SYNC ? 1 : args->iodepth);
	values[COL_BYTES] = Int64GetDatum((int64) t->bytes);
	values[COL_ELAPSED_MS] = Float8GetDatum(bs_round(elapsed_ms, 3));
	values[COL_MB_PER_S] = Float8GetDatum(bs_round(bs_per_second(t->bytes / BS_BYTES_PER_MB,
																  elapsed_ms), 2));
	values[COL_IOPS] = Float8GetDatum(bs_round(bs_per_second(t->ops, elapsed_ms), 1));
	if (t->hist.count == 0)
	{
		for (int c = COL_LAT_AVG_US; c <= COL_LAT_MAX_US; c++)
			nulls[c] = true;
	}
	else
	{
		values[COL_LAT_AVG_US] =
			Float8GetDatum(bs_round((double) t->hist.sum_ns / t->hist.count / 1000.0, 1));
		values[COL_LAT_P50_US] =
			Float8GetDatum(bs_round(bs_hist_percentile_ns(&t->hist, 0.50) / 1000.0, 1));
		values[COL_LAT_P95_US] =
			Float8GetDatum(bs_round(bs_hist_percentile_ns(&t->hist, 0.95) / 1000.0, 1));
		values[COL_LAT_P99_US] =
			Float8GetDatum(bs_round(bs_hist_percentile_ns(&t->hist, 0.99) / 1000.0, 1));
		values[COL_LAT_P999_US] =
			Float8GetDatum(bs_round(bs_hist_percentile_ns(&t->hist, 0.999) / 1000.0, 1));
		values[COL_LAT_MAX_US] =
			Float8GetDatum(bs_round(t->hist.max_ns / 1000.0, 1));
	}
	values[COL_RUN] = Int32GetDatum(run_no);
	if (warnings)
		values[COL_WARNINGS] = CStringGetTextDatum(warnings);
	else
		nulls[COL_WARNINGS] = true;
	if (served_by)
		values[COL_SERVED_BY] = CStringGetTextDatum(served_by);
	else
		nulls[COL_SERVED_BY] = true;
	if (steady)
	{
		values[COL_STEADY_STATE] = BoolGetDatum(steady->reached);
		if (steady->reached)
			values[COL_STEADY_AT_MS] = Float8GetDatum(bs_round(steady->reached_at_ms, 3));
		else
			nulls[COL_STEADY_AT_MS] = true;
		values[COL_STEADY_CRITERION] = CStringGetTextDatum(steady->text);
	}
	else
	{
		nulls[COL_STEADY_STATE] = true;
		nulls[COL_STEADY_AT_MS] = true;
		nulls[COL_STEADY_CRITERION] = true;
	}
	if (!args->iodepth_column)
	{
		/* a 1.0 definition: no iodepth column */
		memmove(&values[COL_IODEPTH], &values[COL_IODEPTH + 1],
				sizeof(Datum) * (BS_IO_NCOLS - COL_IODEPTH - 1));
		memmove(&nulls[COL_IODEPTH], &nulls[COL_IODEPTH + 1],
				sizeof(bool) * (BS_IO_NCOLS - COL_IODEPTH - 1));
	}
	bs_bench_put_row(b, values, nulls, series);
}

typedef struct BsGather
{
	BsBench    *b;
	const BsIoArgs *args;
	bool		total_row;
	BsIoTotals *totals;			/* one per tablespace, then the total */
	int			run_no;			/* 1 .. repeat */
	char	  **warnings;		/* per tablespace, then the total; NULL: none */
	BsDevStack *stacks;			/* per tablespace: the devices under it */
	bool	   *have_stack;		/* whether Linux describes them */
	BsIoSampling *sampling;		/* the time series, or NULL */
} BsGather;

static void
devices_start(void *gather_arg)
{
	BsGather   *g = (BsGather *) gather_arg;

	for (int i = 0; i < g->args->ntablespaces; i++)
		if (g->have_stack[i])
			bs_devstack_start(&g->stacks[i]);
}

static void
devices_stop(void *gather_arg)
{
	BsGather   *g = (BsGather *) gather_arg;

	for (int i = 0; i < g->args->ntablespaces; i++)
		if (g->have_stack[i])
			bs_devstack_stop(&g->stacks[i]);
}

/*
 * Where a read test's blocks came from, and the evidence: "cache below"
 * when the devices' counts show a cache under the filesystem answered (see
 * blockdev.c), else "storage", with a word when the re-read found a cache
 * below that keeps what is read.  NULL for the write and sync tests.
 */
static const char *
read_provenance(BsGather *g, int spc, BsIoTest test, const BsIoTotals *t,
				StringInfo evidence)
{
	const char *served_by = "storage";

	if (test != BS_TEST_SEQREAD && test != BS_TEST_RANDREAD)
		return NULL;
	/* no block device Linux describes (tmpfs, a network filesystem) */
	if (spc >= 0 && !g->have_stack[spc])
		served_by = NULL;
	if (spc >= 0 && g->have_stack[spc])
	{
		char	   *below = bs_devstack_cache_below(&g->stacks[spc], t->bytes,
													g->args->direct);

		elog(DEBUG1, "%s of \"%s\": %s read by the test; devices %s: %s",
			 bs_io_tests[test], bs_tablespace_name(g->args->tablespaces[spc]),
			 psprintf("%.1f MB", t->bytes / BS_BYTES_PER_MB), bs_devstack_describe(&g->stacks[spc]),
			 bs_devstack_counts(&g->stacks[spc]));

		if (below)
		{
			appendStringInfo(evidence, "%sA cache below the server answered: %s",
							 evidence->len > 0 ? " " : "", below);
			served_by = "cache below";
		}
		else if (g->stacks[spc].devs[0].read_bytes < BS_DEV_MIN_EVIDENCE_BYTES)
			served_by = NULL;	/* too little reached the device to tell */
	}
	if (t->reread_ops > 0 && t->pass2_ns > 0 &&
		(double) t->pass1_ns / t->pass2_ns >= BS_REREAD_FASTER)
	{
		double		per1 = t->pass1_ns / 1000.0 / t->reread_ops;
		double		per2 = t->pass2_ns / 1000.0 / t->reread_ops;

		appendStringInfo(evidence, "%sA cache below the server keeps what is read: the last %llu blocks read again directly came %.1f× as fast (%.1f → %.1f µs per block).%s",
						 evidence->len > 0 ? " " : "",
						 (unsigned long long) t->reread_ops,
						 (double) t->pass1_ns / t->pass2_ns, per1, per2,
						 served_by && strcmp(served_by, "storage") == 0 ?
						 " The test's own pass, this figure, was the slower: that cache did not serve it all; a run over data read shortly before may be served from it." : "");
	}
	return served_by;
}

/*
 * What a row's figures say of the ramp and of steady state: a test that
 * ended inside its ramp, or did not reach steady state (judged on the
 * total of all streams, so every row of the test says the same).
 */
static void
steady_warnings(BsGather *g, BsIoShared *sh, const BsIoTotals *t,
				StringInfo words)
{
	BsSteady   *ss = g->sampling ? g->sampling->steady : NULL;

	if (sh->ramp_us > 0 && t->unramped > 0)
		appendStringInfo(words, "%sThe test ended inside its ramp of %g s on %d of %d streams: its figures include the warm-up.",
						 words->len > 0 ? " " : "", sh->ramp_us / 1e6,
						 t->unramped, t->streams);
	if (ss && !ss->reached)
	{
		double		measured_ms = (bs_instr_time_ns(g->totals[sh->ntablespaces].end) -
								   bs_instr_time_ns(g->totals[sh->ntablespaces].start)) / 1e6;

		appendStringInfo(words, "%s%s", words->len > 0 ? " " : "",
						 bs_steady_shortfall(ss, measured_ms));
	}
}

/*
 * After a test: one row per tablespace, summing its streams (stream s runs
 * in tablespace s % ntablespaces), and the total row if asked for.
 */
static void
gather_rows(BsIoShared *sh, BsIoTest test, void *arg)
{
	BsGather   *g = (BsGather *) arg;
	int			nspc = sh->ntablespaces;
	bool		total_below = false;
	bool		total_storage = false;

	memset(g->totals, 0, sizeof(BsIoTotals) * (nspc + 1));
	for (int s = 0; s < sh->nstreams; s++)
	{
		totals_add(&g->totals[s % nspc], &sh->slots[s]);
		totals_add(&g->totals[nspc], &sh->slots[s]);
	}
	for (int i = 0; i <= nspc; i++)
	{
		StringInfoData words;
		const char *served_by;

		if (i == nspc && !g->total_row)
			break;
		initStringInfo(&words);
		if (g->warnings[i])
			appendStringInfoString(&words, g->warnings[i]);
		steady_warnings(g, sh, &g->totals[i], &words);
		served_by = read_provenance(g, i < nspc ? i : -1, test,
									&g->totals[i], &words);
		/*
		 * The total: a cache below if any tablespace had one, else storage
		 * if any tablespace's devices read its blocks.
		 */
		if (i == nspc && served_by != NULL)
			served_by = total_below ? "cache below" :
				total_storage ? "storage" : NULL;
		if (served_by != NULL && strcmp(served_by, "cache below") == 0)
			total_below = true;
		if (served_by != NULL && strcmp(served_by, "storage") == 0)
			total_storage = true;
		put_row(g->b,
				i < nspc ? get_tablespace_name(sh->tablespaces[i]) : "total",
				test, g->args, sh->sync_direct, &g->totals[i], g->run_no,
				words.len > 0 ? words.data : NULL, served_by,
				g->sampling ? &g->sampling->series[i] : NULL,
				g->sampling ? g->sampling->steady : NULL);
	}
}

/*
 * One run of the whole sequence of tests on every tablespace at once: the
 * streams in parallel workers (the caller is stream 0), each test's rows
 * gathered by the caller as the test ends.
 */
static void
run_io_once(const BsIoArgs *args, BsGather *gather, int planned, Size shsize)
{
	ParallelContext *pcxt = NULL;
	BsIoShared *sh;
	int			nspc = args->ntablespaces;
	BsStreamLeader lead;

	if (planned > 1)
	{
		EnterParallelMode();
		pcxt = CreateParallelContext("benchstore", "bench_tblspc_io_worker",
									 planned - 1);
		shm_toc_estimate_chunk(&pcxt->estimator, shsize);
		shm_toc_estimate_keys(&pcxt->estimator, 1);
		InitializeParallelDSM(pcxt);
		if (pcxt->seg == NULL)
			sh = palloc0(shsize);	/* no shared memory: the caller alone */
		else
		{
			sh = shm_toc_allocate(pcxt->toc, shsize);
			memset(sh, 0, shsize);
			shm_toc_insert(pcxt->toc, BS_SHM_KEY, sh);
		}
	}
	else
		sh = palloc0(shsize);

	sh->ntests = args->ntests;
	memcpy(sh->tests, args->tests, sizeof(BsIoTest) * args->ntests);
	sh->size = args->size;
	sh->block_size = args->block_size;
	sh->direct = args->direct;
	sh->iodepth = args->iodepth;
	sh->duration_us = args->duration_us;
	sh->ramp_us = args->ramp_us;
	sh->until_steady = args->until_steady;
	sh->preconditioning = args->preconditioning;
	pg_atomic_init_u32(&sh->stop_seq, 0);
	sh->track_latency = bs_track_latency;
	sh->sync_direct = enableFsync && !XLogIsNeeded() &&
		(BS_WAL_SYNC_METHOD == BS_SYNC_METHOD_OPEN ||
		 BS_WAL_SYNC_METHOD == BS_SYNC_METHOD_OPEN_DSYNC);
	sh->ntablespaces = nspc;
	memcpy(sh->tablespaces, args->tablespaces, sizeof(Oid) * nspc);
	pg_atomic_init_u32(&sh->ready, 0);
	for (int s = 0; s < planned; s++)
	{
		pg_atomic_init_u64(&sh->slots[s].progress, 0);
		pg_atomic_init_u32(&sh->slots[s].test_seq, 0);
		pg_atomic_init_u32(&sh->slots[s].done_seq, 0);
	}
	ConditionVariableInit(&sh->ready_cv);

	sh->nstreams = 1;
	if (pcxt != NULL && pcxt->seg != NULL)
	{
		LaunchParallelWorkers(pcxt);
		WaitForParallelWorkersToAttach(pcxt);
		sh->nstreams = 1 + pcxt->nworkers_launched;
	}
	if (sh->nstreams < nspc)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start a stream for every tablespace: %d of %d streams started",
						sh->nstreams, planned),
				 errhint("Raise max_worker_processes or max_parallel_workers, or wait for other parallel work to finish.")));
	if (sh->nstreams < planned)
		ereport(NOTICE,
				(errmsg("%d of %d streams started", sh->nstreams, planned),
				 errdetail("Fewer parallel workers were available than asked for."),
				 errhint("Raise max_worker_processes or max_parallel_workers for more.")));
	BarrierInit(&sh->barrier, sh->nstreams);
	pg_write_barrier();
	pg_atomic_write_u32(&sh->ready, 1);
	ConditionVariableBroadcast(&sh->ready_cv);

	/* The caller is stream 0, and gathers each test's rows. */
	lead.gather = gather_rows;
	lead.before_test = devices_start;
	lead.after_test = devices_stop;
	lead.arg = gather;
	lead.sampling = gather->sampling;
	bs_io_run_stream(sh, 0, &lead);

	if (pcxt != NULL)
	{
		WaitForParallelWorkersToFinish(pcxt);
		DestroyParallelContext(pcxt);
		ExitParallelMode();
	}
}

/*
 * Run the tests of args on every tablespace at once and return the rows:
 * one per tablespace and test, plus a "total" row per test when there are
 * several tablespaces.
 */
static void
run_io_benchmark(BsBench *b, BsIoArgs *args, bool total_rows)
{
	int			planned = args->ntablespaces * args->streams;
	Size		shsize = add_size(offsetof(BsIoShared, slots),
								  mul_size(planned, sizeof(BsStreamSlot)));
	BsGather	gather;
	int			nspc = args->ntablespaces;

	if (planned > BS_MAX_STREAMS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("at most %d streams can run in one call", BS_MAX_STREAMS),
				 errdetail("%d tablespaces with %d streams each make %d.",
						   nspc, args->streams, planned)));

	for (int i = 0; i < nspc; i++)
		check_io_privileges(args->tablespaces[i]);
	check_io_limits(args);
	if (args->iodepth > 1)
	{
		bool		sync_too = false;

		bs_io_check_buffer_memory(args->iodepth, args->block_size, planned,
								  "iodepth × block_size × streams",
								  "Use a smaller iodepth, block_size or fewer streams.");
		bs_io_check_depth(args->iodepth, "iodepth");
		for (int t = 0; t < args->ntests; t++)
			sync_too |= (args->tests[t] == BS_TEST_SYNC);
		if (sync_too)
			ereport(NOTICE,
					(errmsg("the sync test runs at iodepth 1"),
					 errdetail("A commit is one write and one flush, waited for before the next.")));
	}
	/* Say so beside any sync figure: the server's own syncs do nothing. */
	for (int t = 0; t < args->ntests && !enableFsync; t++)
	{
		if (args->tests[t] != BS_TEST_SEQREAD && args->tests[t] != BS_TEST_RANDREAD)
		{
			ereport(NOTICE,
					(errmsg("fsync is off in this server"),
					 errdetail("The benchmark calls fsync and fdatasync itself, so its figures include real syncs; the server's own writes are not synced.")));
			break;
		}
	}

	/*
	 * 1.0's row has no iodepth, 1.1's ends before run and warnings: the
	 * library fills what the installed definition has.
	 */
	{
		int			ncols = args->run_columns ? BS_IO_NCOLS :
			args->iodepth_column ? COL_RUN : COL_RUN - 1;

		bs_bench_rows(b, total_rows ? "bench_tablespaces_io" : "bench_tablespace_io",
					  ncols, ncols);
	}

	gather.b = b;
	gather.args = args;
	gather.total_row = total_rows;
	gather.totals = palloc(sizeof(BsIoTotals) * (nspc + 1));
	gather.warnings = palloc0(sizeof(char *) * (nspc + 1));
	gather.stacks = palloc0(sizeof(BsDevStack) * nspc);
	gather.have_stack = palloc0(sizeof(bool) * nspc);
	gather.sampling = NULL;
	if (args->sample_interval_us > 0)
	{
		gather.sampling = bs_io_sampling_create(args->sample_interval_us, planned, nspc);
		gather.sampling->steady = args->steady_judge;
	}
	for (int i = 0; i < nspc; i++)
		gather.have_stack[i] = bs_devstack_find(bs_tablespace_dir(args->tablespaces[i]),
												&gather.stacks[i]);
	if (nspc > 1)
	{
		/* said on every row: the figures are of tablespaces under load */
		for (int i = 0; i < nspc; i++)
			gather.warnings[i] =
				psprintf("Ran at the same time as %d other tablespace%s: this measures the tablespace under the others' load (contention on shared devices, controllers or links), not alone. bench_compare_tablespaces measures each alone.",
						 nspc - 1, nspc - 1 == 1 ? "" : "s");
		gather.warnings[nspc] =
			psprintf("The sum of %d tablespaces running at the same time.", nspc);
	}

	for (int r = 1; r <= args->repeat; r++)
	{
		CHECK_FOR_INTERRUPTS();
		gather.run_no = r;
		run_io_once(args, &gather, planned, shsize);
	}
	bs_bench_end(b);
}

/*
 * Describe a call for the history (see history.c): the arguments (sizes
 * as the caller wrote them, the duration in seconds) and the tablespaces.
 */
static void
describe_run(BsRun *run, FunctionCallInfo fcinfo, const BsIoArgs *args)
{
	StringInfoData tests;
	char		seconds[64];

	bs_run_arg_text(run, "size", text_to_cstring(PG_GETARG_TEXT_PP(1)));
	bs_run_arg_text(run, "block_size", text_to_cstring(PG_GETARG_TEXT_PP(2)));
	initStringInfo(&tests);
	appendStringInfoChar(&tests, '[');
	for (int t = 0; t < args->ntests; t++)
	{
		if (t > 0)
			appendStringInfoString(&tests, ", ");
		escape_json(&tests, bs_io_tests[args->tests[t]]);
	}
	appendStringInfoChar(&tests, ']');
	bs_run_arg_json(run, "tests", tests.data);
	bs_run_arg_int(run, "streams", args->streams);
	bs_run_arg_bool(run, "direct", args->direct);
	if (args->iodepth_column)
		bs_run_arg_int(run, "iodepth", args->iodepth);
	if (args->run_columns)
		bs_run_arg_int(run, "repeat", args->repeat);
	if (args->version >= BS_SQL_1_2)
	{
		BsSteadyArgs sa;

		bs_run_arg_sample_interval(run, args->sample_interval_us);
		sa.ramp_us = args->ramp_us;
		sa.until = args->until_steady ? "steady" : "size";
		sa.steady = args->steady;
		sa.window_us = args->steady_window_us;
		bs_steady_args_record(run, &sa);
		bs_run_arg_bool(run, "preconditioning", args->preconditioning);
	}
	snprintf(seconds, sizeof(seconds), "%.15g", args->duration_us / 1e6);
	bs_run_arg_json(run, "duration_s", seconds);
	bs_run_arg_bool(run, "track_latency", bs_track_latency);
	for (int i = 0; i < args->ntablespaces; i++)
		bs_run_tablespace(run, args->tablespaces[i]);
}

/*
 * bench_tablespace_io(tablespace name, size text, block_size text,
 *					   tests text[], streams integer, direct boolean,
 *					   duration interval, label text, record boolean,
 *					   iodepth integer (1.1), repeat integer,
 *					   sample_interval interval, ramp interval, until text,
 *					   steady text, steady_window interval,
 *					   preconditioning boolean (1.2))
 *
 * Entry points: bench_tablespace_io_1_2 for 1.2's definition;
 * bench_tablespace_io for the released ones, 1.0's (9 arguments) and
 * 1.1's (10).  bench_tablespaces_io likewise.
 */
static Datum tablespace_io_run(FunctionCallInfo fcinfo, BsSqlVersion version);
static Datum tablespaces_io_run(FunctionCallInfo fcinfo, BsSqlVersion version);

Datum
bench_tablespace_io_1_2(PG_FUNCTION_ARGS)
{
	return tablespace_io_run(fcinfo, BS_SQL_1_2);
}

Datum
bench_tablespace_io(PG_FUNCTION_ARGS)
{
	return tablespace_io_run(fcinfo, bs_legacy_sql_version(fcinfo, 9, 10));
}

Datum
bench_tablespaces_io_1_2(PG_FUNCTION_ARGS)
{
	return tablespaces_io_run(fcinfo, BS_SQL_1_2);
}

Datum
bench_tablespaces_io(PG_FUNCTION_ARGS)
{
	return tablespaces_io_run(fcinfo, bs_legacy_sql_version(fcinfo, 9, 10));
}

static Datum
tablespace_io_run(FunctionCallInfo fcinfo, BsSqlVersion version)
{
	BsIoArgs	args;
	BsBench		b;
	char	   *name;

	memset(&args, 0, sizeof(args));
	args.version = version;
	bs_require_arg(fcinfo, 0, "tablespace");
	args.ntablespaces = 1;
	args.tablespaces[0] = tablespace_oid(PG_GETARG_NAME(0));
	parse_io_args(fcinfo, &args);
	bs_bench_begin(&b, fcinfo, "tablespace_io", 7, 8);
	name = NameStr(*PG_GETARG_NAME(0));
	bs_run_target(&b.history, "tablespace", name, args.tablespaces[0]);
	bs_run_arg_text(&b.history, "tablespace", name);
	describe_run(&b.history, fcinfo, &args);
	run_io_benchmark(&b, &args, false);
	return (Datum) 0;
}

/*
 * bench_tablespaces_io(tablespaces name[], ...): the arguments of
 * bench_tablespace_io with an array of tablespaces, run at the same time.
 */
static Datum
tablespaces_io_run(FunctionCallInfo fcinfo, BsSqlVersion version)
{
	BsIoArgs	args;
	Datum	   *elems;
	int			nelems;
	BsBench		b;
	StringInfoData names;
	StringInfoData json;

	memset(&args, 0, sizeof(args));
	args.version = version;
	elems = array_arg_elements(fcinfo, 0, "tablespaces", NAMEOID, NAMEDATALEN,
							   TYPALIGN_CHAR, &nelems);
	if (nelems == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tablespaces must name at least one tablespace")));
	if (nelems > BS_MAX_TABLESPACES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("at most %d tablespaces can be benchmarked in one call",
						BS_MAX_TABLESPACES)));
	for (int i = 0; i < nelems; i++)
	{
		args.tablespaces[i] = tablespace_oid(DatumGetName(elems[i]));
		for (int j = 0; j < i; j++)
			if (args.tablespaces[j] == args.tablespaces[i])
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("tablespace \"%s\" is listed twice",
								NameStr(*DatumGetName(elems[i]))),
						 errhint("Use streams for several streams in one tablespace.")));
	}
	args.ntablespaces = nelems;
	parse_io_args(fcinfo, &args);

	bs_bench_begin(&b, fcinfo, "tablespaces_io", 7, 8);
	initStringInfo(&names);
	initStringInfo(&json);
	appendStringInfoChar(&json, '[');
	for (int i = 0; i < nelems; i++)
	{
		const char *name = NameStr(*DatumGetName(elems[i]));

		appendStringInfo(&names, "%s%s", i > 0 ? "," : "", name);
		if (i > 0)
			appendStringInfoString(&json, ", ");
		escape_json(&json, name);
	}
	appendStringInfoChar(&json, ']');
	bs_run_target(&b.history, "tablespace", names.data, InvalidOid);
	bs_run_arg_json(&b.history, "tablespaces", json.data);
	describe_run(&b.history, fcinfo, &args);
	run_io_benchmark(&b, &args, true);
	return (Datum) 0;
}
