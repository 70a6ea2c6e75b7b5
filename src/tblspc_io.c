/*-------------------------------------------------------------------------
 *
 * tblspc_io.c
 *	  bench_tablespace_io and bench_tablespaces_io: the dd and fio tests,
 *	  run from inside the server on temporary files in the tablespaces a
 *	  DBA names.
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
#include "commands/tablespace.h"
#include "common/pg_prng.h"
#include "compat.h"
#include "funcapi.h"
#include "io_engine.h"
#include "miscadmin.h"
#include "perm.h"
#include "pgstat.h"
#include "port/pg_bitutils.h"
#include "portability/instr_time.h"
#include "series.h"
#include "steady.h"
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
PGDLLEXPORT void bench_tblspc_io_worker(dsm_segment *seg, shm_toc *toc);

#define BS_IO_CHUNK			(1024 * 1024)	/* largest single read or write */
#define BS_IO_ALIGN			4096	/* buffer alignment for O_DIRECT */
#define BS_WRITEBACK_BYTES	(8 * 1024 * 1024)	/* start writeback this often */
#define BS_MIN_BLOCK		512
#define BS_MAX_BLOCK		(16 * 1024 * 1024)
#define BS_MAX_STREAMS		64
#define BS_MAX_TESTS		32
#define BS_MAX_TABLESPACES	BS_MAX_STREAMS
#define BS_RESERVE_MIN		((uint64) 1024 * 1024 * 1024)	/* free-space reserve */
#define BS_MAX_SIZE			(UINT64CONST(1) << 50)	/* 1 PB per stream */
#define BS_MAX_DURATION_US	(INT64CONST(7) * USECS_PER_DAY)
#define BS_SHM_KEY			UINT64CONST(0xB5E4C45010000001)

/*
 * The re-read after a direct read test: the last blocks it read (at most
 * BS_REREAD_BYTES of them, and BS_REREAD_MAX_OPS), read again in the same
 * order at the same depth, for at most BS_REREAD_MAX_US.  A second pass
 * BS_REREAD_FASTER times as fast or more means a cache below the server
 * keeps what is read.
 */
#define BS_REREAD_BYTES		((uint64) 64 * 1024 * 1024)
#define BS_REREAD_MAX_OPS	8192
#define BS_REREAD_MIN_OPS	16
#define BS_REREAD_MAX_US	(INT64CONST(2) * USECS_PER_SEC)
#define BS_REREAD_FASTER	2.0

typedef enum BsIoTest
{
	BS_TEST_SEQWRITE,
	BS_TEST_SEQREAD,
	BS_TEST_RANDREAD,
	BS_TEST_RANDWRITE,
	BS_TEST_SYNC
} BsIoTest;

static const char *const io_tests[] = {
	"seqwrite", "seqread", "randread", "randwrite", "sync"
};

/* One stream's result for the current test. */
typedef struct BsStreamSlot
{
	uint64		bytes;
	uint64		ops;
	instr_time	start;
	instr_time	end;
	/* the re-read of a direct read test: its last blocks, both passes */
	uint64		reread_ops;		/* blocks compared (0: no re-read) */
	uint64		pass1_ns;		/* first to last of them in the test */
	uint64		pass2_ns;		/* and read again */
	/* the ramp: what the stream did in it, left out of the figures */
	bool		ramped;			/* the ramp is over; start is its end */
	uint64		ramp_ops;
	BsHistogram hist;			/* every operation of the test */
	BsHistogram measured;		/* those after the ramp (a ramp only) */
	pg_atomic_uint64 progress;	/* bytes done in the current test so far */
	/* for the caller's samples: the test (1 ..) the slot now counts, and ended */
	pg_atomic_uint32 test_seq;
	pg_atomic_uint32 done_seq;
} BsStreamSlot;

/* Everything the streams share: in a DSM segment, or local for one stream. */
typedef struct BsIoShared
{
	/* what to run */
	int			ntests;
	BsIoTest	tests[BS_MAX_TESTS];
	uint64		size;			/* bytes per stream */
	uint32		block_size;
	bool		direct;
	int			iodepth;		/* operations in flight per stream */
	int64		duration_us;
	int64		ramp_us;		/* each test's warm-up, left out; 0: none */
	bool		until_steady;	/* every test runs until stop_seq or duration */
	bool		preconditioning;	/* write tests: the file written twice first */
	pg_atomic_uint32 stop_seq;	/* the test (1 ..) whose steady state holds */
	bool		track_latency;	/* benchstore.track_latency of the caller */
	bool		sync_direct;	/* O_DIRECT in the sync test (see sync_test_fd) */
	int			ntablespaces;
	Oid			tablespaces[BS_MAX_TABLESPACES];

	/* how many streams run; set by the leader before "ready" */
	int			nstreams;
	pg_atomic_uint32 ready;
	ConditionVariable ready_cv;
	Barrier		barrier;

	BsStreamSlot slots[FLEXIBLE_ARRAY_MEMBER];
} BsIoShared;

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
													io_tests, lengthof(io_tests));
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
	args->iodepth_column = PG_NARGS() > 9;
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
	args->run_columns = PG_NARGS() > 10;
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
	if (PG_NARGS() > 11)
		args->sample_interval_us = bs_sample_interval_arg(fcinfo, 11);

	/* ramp, until, steady, steady_window, preconditioning: 12 .. 16 (1.2) */
	if (PG_NARGS() > 16)
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

/* The directory of a tablespace's files, relative to the data directory. */
static char *
tablespace_dir(Oid spc)
{
	if (spc == DEFAULTTABLESPACE_OID)
		return pstrdup("base");
	return psprintf("pg_tblspc/%u", spc);
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
		char	   *dir = tablespace_dir(args->tablespaces[i]);
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
 * The time series (see series.c)
 *
 * The caller (stream 0) samples every stream: at each tick it reads their
 * bytes so far and copies their latency histograms, and adds what each
 * tablespace's streams, and all of them, did since the last tick.  A
 * stream's slot counts the current test once its test_seq says so (a
 * stream resets its slot as the test starts); the caller keeps sampling
 * after its own stream ends, until every stream's has.
 * ----------------------------------------------------------------
 */

typedef struct BsIoSampling
{
	int64		interval_us;
	int			nstreams;		/* at most, and the arrays' length */
	int			nseries;		/* one per tablespace, then all streams */
	uint32		seq;			/* the current test, from 1 */
	instr_time	start;
	instr_time	last;
	int64		next_tick_us;
	uint64	   *last_bytes;		/* per stream, at the last tick */
	BsHistogram *last_hist;		/* per stream, at the last tick */
	BsHistogram *work;			/* per series: this interval's latencies */
	BsHistogram *cur;			/* one stream's copy */
	BsSeries   *series;
	char	   *what;
	BsSteady   *steady;			/* judged on the total series; NULL: none */
} BsIoSampling;

static BsIoSampling *
io_sampling_create(int64 interval_us, int nstreams, int ntablespaces)
{
	BsIoSampling *smp = palloc0(sizeof(BsIoSampling));

	smp->interval_us = interval_us;
	smp->nstreams = nstreams;
	smp->nseries = ntablespaces + 1;
	smp->last_bytes = palloc0(sizeof(uint64) * nstreams);
	smp->last_hist = palloc(sizeof(BsHistogram) * nstreams);
	smp->work = palloc(sizeof(BsHistogram) * smp->nseries);
	smp->cur = palloc(sizeof(BsHistogram));
	smp->series = palloc0(sizeof(BsSeries) * smp->nseries);
	return smp;
}

/* A test starts (its streams released from the barrier at about start). */
static void
io_sampling_begin(BsIoSampling *smp, uint32 seq, instr_time start,
				  const char *what)
{
	for (int i = 0; i < smp->nseries; i++)
	{
		if (smp->series[i].samples)
			pfree(smp->series[i].samples);
		bs_series_init(&smp->series[i]);
	}
	memset(smp->last_bytes, 0, sizeof(uint64) * smp->nstreams);
	for (int s = 0; s < smp->nstreams; s++)
		bs_hist_reset(&smp->last_hist[s]);
	smp->seq = seq;
	smp->start = start;
	smp->last = start;
	smp->next_tick_us = smp->interval_us;
	smp->what = pstrdup(what);
	if (smp->steady)
		bs_steady_reset(smp->steady);
}

static inline bool
io_sampling_due(BsIoSampling *smp, instr_time now)
{
	if (smp == NULL)
		return false;
	INSTR_TIME_SUBTRACT(now, smp->start);
	return (int64) INSTR_TIME_GET_MICROSEC(now) >= smp->next_tick_us;
}

/* Add the samples from the last tick to now. */
static void
io_sampling_take(BsIoSampling *smp, BsIoShared *sh, BsIoTest test,
				 instr_time now)
{
	int			nspc = sh->ntablespaces;
	uint64	   *bytes = palloc0(sizeof(uint64) * smp->nseries);
	bool		write = (test == BS_TEST_SEQWRITE || test == BS_TEST_RANDWRITE ||
						 test == BS_TEST_SYNC);

	for (int i = 0; i < smp->nseries; i++)
		bs_hist_reset(&smp->work[i]);
	for (int s = 0; s < sh->nstreams && s < smp->nstreams; s++)
	{
		BsStreamSlot *slot = &sh->slots[s];
		uint64		b;

		if (pg_atomic_read_u32(&slot->test_seq) != smp->seq)
			continue;			/* not started on this test yet */
		pg_read_barrier();
		b = pg_atomic_read_u64(&slot->progress);
		if (b >= smp->last_bytes[s])
		{
			bytes[s % nspc] += b - smp->last_bytes[s];
			bytes[nspc] += b - smp->last_bytes[s];
		}
		smp->last_bytes[s] = b;
		if (sh->track_latency)
		{
			bs_hist_copy_volatile(smp->cur, &slot->hist);
			bs_hist_difference(&smp->work[s % nspc], smp->cur, &smp->last_hist[s]);
			bs_hist_difference(&smp->work[nspc], smp->cur, &smp->last_hist[s]);
			memcpy(&smp->last_hist[s], smp->cur, sizeof(BsHistogram));
		}
	}

	for (int i = 0; i < smp->nseries; i++)
	{
		BsSampleCounts from;
		BsSampleCounts to;
		BsSample	sample;

		/* the interval's counts, as if they had started from zero */
		memset(&from, 0, sizeof(from));
		memset(&to, 0, sizeof(to));
		from.now = smp->last;
		to.now = now;
		to.bytes = bytes[i];
		to.ops = bytes[i] / sh->block_size;
		to.have_split = true;
		to.read_bytes = write ? 0 : bytes[i];
		to.write_bytes = write ? bytes[i] : 0;

		bs_sample_from_counts(&sample, smp->start, &from, &to);
		if (!(sample.elapsed_ms > 0))
			continue;
		sample.hit_mb = NAN;	/* no buffers: the files are read directly */
		bs_sample_latency(&sample, &smp->work[i]);
		bs_series_add(&smp->series[i], &sample, smp->what);
	}
	pfree(bytes);

	/*
	 * Judge steady state on the total; with until => 'steady', tell every
	 * stream to end the test once it holds.
	 */
	if (smp->steady && !smp->steady->reached &&
		bs_steady_check(smp->steady, &smp->series[smp->nseries - 1]) &&
		sh->until_steady)
		pg_atomic_write_u32(&sh->stop_seq, smp->seq);

	smp->last = now;
	smp->next_tick_us = bs_next_tick_us(smp->start, now, smp->interval_us);
}

/*
 * The caller's own stream has ended the test: go on sampling the others
 * until each has, then take the last sample.
 */
static void
io_sampling_finish(BsIoSampling *smp, BsIoShared *sh, BsIoTest test)
{
	instr_time	now;

	for (;;)
	{
		bool		all_done = true;

		for (int s = 1; s < sh->nstreams; s++)
			all_done &= (pg_atomic_read_u32(&sh->slots[s].done_seq) == smp->seq);
		if (all_done)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 5, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		INSTR_TIME_SET_CURRENT(now);
		if (io_sampling_due(smp, now))
			io_sampling_take(smp, sh, test, now);
	}
	INSTR_TIME_SET_CURRENT(now);
	io_sampling_take(smp, sh, test, now);
}

/* ----------------------------------------------------------------
 * One stream
 * ----------------------------------------------------------------
 */

typedef struct BsStream
{
	BsIoShared *shared;
	int			index;
	Oid			tablespace;
	File		vfd;			/* owns the file: deleted when closed */
	char	   *path;
	int			fd;				/* the I/O descriptor */
	int			sync_fd;		/* for open_sync / open_datasync, or -1 */
	char	   *buffer;			/* BS_IO_CHUNK bytes, aligned */
	BsIoEngine *engine;			/* iodepth > 1: the ring and its buffers */
	BsProgress *progress;		/* the caller's progress messages, or NULL */
	uint64		unflushed;		/* bytes written since writeback was started */
	uint64		filled;			/* bytes of the file written so far */
	pg_prng_state prng;
	/* random block order: a keyed permutation of the file's blocks */
	BsPerm		perm;
	/* the last blocks a direct read test read, for the re-read (a ring) */
	off_t	   *recent_off;
	uint64	   *recent_ns;		/* when each completed */
	int			recent_cap;
	uint64		recent_count;	/* recorded in this test */
	BsIoSampling *sampling;		/* the caller's time series, or NULL */
	BsIoTest	test;			/* the test running */
	uint32		seq;			/* and its number, from 1 */
} BsStream;

/* The caller samples when a tick is due. */
static inline void
stream_sample(BsStream *st, instr_time now)
{
	if (io_sampling_due(st->sampling, now))
		io_sampling_take(st->sampling, st->shared, st->test, now);
}

/*
 * Create this stream's temporary file in its tablespace, and check that
 * it is there: OpenTemporaryFile falls back silently to another tablespace.
 */
static void
stream_open_file(BsStream *st)
{
	Oid			saved[BS_MAX_TABLESPACES];
	int			nsaved;
	Oid		   *ours;
	Oid		   *restore;
	char		expected_dir[MAXPGPATH];
	int			flags;

	/*
	 * Use our tablespace for temporary files, then put back the list, also
	 * when the file cannot be created: a caller that catches the error (a
	 * PL/pgSQL EXCEPTION block) would otherwise put its own temporary files
	 * in our tablespace until the transaction ends.
	 */
	PrepareTempTablespaces();
	nsaved = GetTempTablespaces(saved, lengthof(saved));
	ours = MemoryContextAlloc(TopTransactionContext, sizeof(Oid));
	ours[0] = st->tablespace;
	restore = MemoryContextAlloc(TopTransactionContext,
								 sizeof(Oid) * Max(nsaved, 1));
	memcpy(restore, saved, sizeof(Oid) * nsaved);
	SetTempTablespaces(ours, 1);
	PG_TRY();
	{
		st->vfd = OpenTemporaryFile(false);
	}
	PG_FINALLY();
	{
		SetTempTablespaces(restore, nsaved);
	}
	PG_END_TRY();

	st->path = pstrdup(FilePathName(st->vfd));
	TempTablespacePath(expected_dir, st->tablespace);
	if (strncmp(st->path, expected_dir, strlen(expected_dir)) != 0 ||
		st->path[strlen(expected_dir)] != '/')
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("temporary file \"%s\" was not created in tablespace \"%s\"",
						st->path, get_tablespace_name(st->tablespace)),
				 errdetail("PostgreSQL could not create it in \"%s\" and used another tablespace.",
						   expected_dir),
				 errhint("Check that the directory exists or can be created, and that the server may write there.")));

	flags = O_RDWR | PG_BINARY;
	if (st->shared->direct)
		flags |= PG_O_DIRECT;
	st->fd = OpenTransientFile(st->path, flags);
	if (st->fd < 0)
	{
		if (errno == EINVAL && st->shared->direct)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("the filesystem of tablespace \"%s\" does not support direct I/O",
							get_tablespace_name(st->tablespace)),
					 errdetail("Opening file \"%s\" with O_DIRECT failed: %m.", st->path),
					 errhint("Use direct => false.")));
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", st->path)));
	}
	st->sync_fd = -1;
}

typedef enum BsIoOp
{
	BS_OP_READ,
	BS_OP_WRITE,
	BS_OP_OPEN
} BsIoOp;

static void
raise_io_error(BsStream *st, BsIoOp op)
{
	if (errno == EINVAL && st->shared->direct)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 op == BS_OP_READ ?
				 errmsg("could not read file \"%s\" with direct I/O: %m", st->path) :
				 op == BS_OP_WRITE ?
				 errmsg("could not write file \"%s\" with direct I/O: %m", st->path) :
				 errmsg("could not open file \"%s\" with direct I/O: %m", st->path),
				 errdetail("The block size (%u bytes) may be smaller than the device's logical block.",
						   st->shared->block_size),
				 errhint("Use a larger block_size, or direct => false.")));
	ereport(ERROR,
			(errcode_for_file_access(),
			 op == BS_OP_READ ?
			 errmsg("could not read file \"%s\": %m", st->path) :
			 op == BS_OP_WRITE ?
			 errmsg("could not write file \"%s\": %m", st->path) :
			 errmsg("could not open file \"%s\": %m", st->path)));
}

/* Fresh random bytes at the start of every 4 kB of a buffer. */
static inline void
stamp_chunk(BsStream *st, char *buffer, size_t len)
{
	for (size_t off = 0; off + sizeof(uint64) <= len; off += 4096)
	{
		uint64		r = pg_prng_uint64(&st->prng);

		memcpy(buffer + off, &r, sizeof(r));
	}
}

static void
raise_short_transfer(BsStream *st, off_t offset)
{
	errno = 0;
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg("unexpected end of file \"%s\" at offset %lld",
					st->path, (long long) offset)));
}

/*
 * Buffered writes: every 8 MB written, start writeback of the file
 * (sync_file_range, as the checkpointer does) without waiting, so that the
 * final fsync stays short and a cancel is served within a second whatever
 * the size.
 */
static inline void
note_written(BsStream *st, int fd, uint64 bytes)
{
	if (st->shared->direct)
		return;
	st->unflushed += bytes;
	if (st->unflushed >= BS_WRITEBACK_BYTES)
	{
		pg_flush_data(fd, 0, 0);
		st->unflushed = 0;
	}
}

/*
 * One block of I/O at an offset, in chunks of at most 1 MB with a check for
 * interrupts before each.
 */
static void
block_io(BsStream *st, bool write, off_t offset, int fd)
{
	uint32		left = st->shared->block_size;

	while (left > 0)
	{
		size_t		len = Min(left, (uint32) BS_IO_CHUNK);
		ssize_t		done;

		CHECK_FOR_INTERRUPTS();
		if (write)
			stamp_chunk(st, st->buffer, len);
		done = bs_io_sync_rw(fd, st->buffer, len, offset, write);
		if (done < 0)
			raise_io_error(st, write ? BS_OP_WRITE : BS_OP_READ);
		if (done < (ssize_t) len)
			raise_short_transfer(st, offset + done);
		if (write && fd == st->fd)
			note_written(st, fd, done);
		offset += done;
		left -= done;
	}
}

static void
sync_file(BsStream *st, int fd, bool data_only)
{
	int			rc;

	/* The raw call: pg_fsync does nothing when fsync is off. */
	pgstat_report_wait_start(WAIT_EVENT_DATA_FILE_SYNC);
#ifdef HAVE_FDATASYNC
	rc = data_only ? fdatasync(fd) : fsync(fd);
#else
	rc = fsync(fd);
#endif
	pgstat_report_wait_end();
	if (rc != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not fsync file \"%s\": %m", st->path)));
}

/*
 * Write the whole file, untimed, for a test that reads or rewrites it: in
 * 1 MB writes whatever the block size, as dd or fio lay a file out, so
 * that the file's layout on the device does not depend on the block size
 * tested.
 */
static void
stream_fill(BsStream *st)
{
	uint64		size = st->shared->size;
	uint64		off = st->filled;

	while (off < size)
	{
		size_t		len = (size_t) Min((uint64) BS_IO_CHUNK, size - off);
		ssize_t		done;

		CHECK_FOR_INTERRUPTS();
		stamp_chunk(st, st->buffer, len);
		done = bs_io_sync_rw(st->fd, st->buffer, len, (off_t) off, true);
		if (done < 0)
			raise_io_error(st, BS_OP_WRITE);
		if (done < (ssize_t) len)
			raise_short_transfer(st, (off_t) off + done);
		note_written(st, st->fd, done);
		off += done;
		if (st->progress)
			bs_progress_advance(st->progress, done);
	}
	sync_file(st, st->fd, false);
	st->filled = size;
}

static void
stream_evict(BsStream *st)
{
#ifdef USE_POSIX_FADVISE
	(void) posix_fadvise(st->fd, 0, 0, POSIX_FADV_DONTNEED);
#endif
}

/*
 * The descriptor the sync test writes through, opened as the server opens
 * WAL for its wal_sync_method (xlog.c's get_sync_bit): O_SYNC or O_DSYNC for
 * the open_* methods, with O_DIRECT only for those and only when no WAL
 * needs to be read back (wal_level minimal); plain for fsync and fdatasync,
 * which are called after each write.
 */
static int
sync_test_fd(BsStream *st)
{
	int			flags = O_RDWR | PG_BINARY;

	if (st->sync_fd >= 0)
		return st->sync_fd;
	if (BS_WAL_SYNC_METHOD == BS_SYNC_METHOD_OPEN)
		flags |= O_SYNC;
#ifdef O_DSYNC
	else if (BS_WAL_SYNC_METHOD == BS_SYNC_METHOD_OPEN_DSYNC)
		flags |= O_DSYNC;
#endif
	if (st->shared->sync_direct)
		flags |= PG_O_DIRECT;
	st->sync_fd = OpenTransientFile(st->path, flags);
	if (st->sync_fd < 0)
		raise_io_error(st, BS_OP_OPEN);
	return st->sync_fd;
}

/* Whether the sync test calls fsync or fdatasync after each write. */
static inline bool
sync_test_calls_sync(void)
{
	return BS_WAL_SYNC_METHOD != BS_SYNC_METHOD_OPEN &&
		BS_WAL_SYNC_METHOD != BS_SYNC_METHOD_OPEN_DSYNC;
}

/*
 * Random offsets visit every block once before any block again, as fio's
 * random map does by default: rereading or rewriting a block a cache below
 * has just seen would flatter the device.  The order is a four-round
 * Feistel permutation of the smallest power-of-four domain covering the
 * blocks, keyed at random for each pass, with values past the end skipped
 * (cycle walking); it needs no memory whatever the file size.
 */
static inline uint64
perm_next_block(BsStream *st, uint64 nblocks)
{
	return bs_perm_next(&st->perm, nblocks, &st->prng);
}

/* Whether a test stops at its duration as well as at its size. */
static inline bool
test_is_timed(BsIoTest test)
{
	return test == BS_TEST_RANDREAD || test == BS_TEST_RANDWRITE ||
		test == BS_TEST_SYNC;
}

/* Whether the time since start has reached a number of microseconds. */
static inline bool
past_deadline_us(instr_time start, instr_time now, int64 us)
{
	INSTR_TIME_SUBTRACT(now, start);
	return (int64) INSTR_TIME_GET_MICROSEC(now) >= us;
}

/* Whether the time since start has reached the duration. */
static inline bool
past_deadline(BsIoShared *sh, instr_time start, instr_time now)
{
	return past_deadline_us(start, now, sh->duration_us);
}

/*
 * With until => 'steady': whether the caller found that steady state holds
 * in this test, so that every stream ends it.
 */
static inline bool
stream_steady_stop(BsStream *st)
{
	return st->shared->until_steady &&
		pg_atomic_read_u32(&st->shared->stop_seq) == st->seq;
}

/*
 * The ramp ends at now: what the stream did so far is left out of the
 * figures, which start here (the samples keep the whole test).
 */
static void
stream_end_ramp(BsStream *st, uint64 ops, instr_time now)
{
	BsStreamSlot *slot = &st->shared->slots[st->index];

	slot->ramp_ops = ops;
	slot->start = now;
	slot->ramped = true;
}

/* One operation's latency: in the test's, and after the ramp in the figures' */
static inline void
stream_add_latency(BsStreamSlot *slot, uint64 ns)
{
	bs_hist_add(&slot->hist, ns);
	if (slot->ramped)
		bs_hist_add(&slot->measured, ns);
}

/*
 * The end of a test, inside its time: the write tests' fsync (like dd ...
 * && sync), then the stream's clock and counts.
 */
static void
stream_end_test(BsStream *st, BsIoTest test, uint64 ops)
{
	BsIoShared *sh = st->shared;
	BsStreamSlot *slot = &sh->slots[st->index];

	if (test == BS_TEST_SEQWRITE || test == BS_TEST_RANDWRITE)
		sync_file(st, st->fd, false);
	if (test == BS_TEST_SEQWRITE)
		st->filled = sh->size;

	INSTR_TIME_SET_CURRENT(slot->end);
	slot->ops = ops - slot->ramp_ops;
	slot->bytes = slot->ops * sh->block_size;
	pg_write_barrier();
	pg_atomic_write_u32(&slot->done_seq, pg_atomic_read_u32(&slot->test_seq));
}

/*
 * Whether a test is followed by the re-read: a read test with direct I/O
 * (through the page cache the second pass would time memory).
 */
static inline bool
test_rereads(BsIoShared *sh, BsIoTest test)
{
	return sh->direct && (test == BS_TEST_SEQREAD || test == BS_TEST_RANDREAD);
}

/* Remember a block a direct read test read, and when. */
static inline void
note_recent(BsStream *st, off_t offset, instr_time when)
{
	int			i = (int) (st->recent_count % st->recent_cap);

	st->recent_off[i] = offset;
	st->recent_ns[i] = bs_instr_time_ns(when);
	st->recent_count++;
}

/*
 * The re-read: the last blocks the test read, read again directly in the
 * same order and at the same depth, right after it.  Both passes are timed
 * from the first block's completion to the last's, so that the figure
 * compared is the same in each.  A cache below the server that keeps what
 * is read (a volume's, an array's, a hypervisor's, the page cache under a
 * loop device) serves the second pass; storage alone reads both alike.
 */
static void
stream_reread(BsStream *st)
{
	BsIoShared *sh = st->shared;
	BsStreamSlot *slot = &sh->slots[st->index];
	uint64		n = Min(st->recent_count, (uint64) st->recent_cap);
	uint64		first = st->recent_count - n;
	uint64		first_ns = 0;
	uint64		last_ns = 0;
	uint64		done = 0;
	instr_time	start;
	instr_time	now;

	slot->reread_ops = 0;
	if (n < BS_REREAD_MIN_OPS)
		return;
	INSTR_TIME_SET_CURRENT(start);

	if (st->engine == NULL)
	{
		for (uint64 k = 0; k < n; k++)
		{
			block_io(st, false, st->recent_off[(first + k) % st->recent_cap], st->fd);
			INSTR_TIME_SET_CURRENT(now);
			last_ns = bs_instr_time_ns(now);
			if (done++ == 0)
				first_ns = last_ns;
			if (past_deadline_us(start, now, BS_REREAD_MAX_US))
				break;
		}
	}
	else
	{
		BsIoCompletion comp[BS_MAX_IODEPTH];
		uint64		issued = 0;
		bool		stop = false;
		int			free_slot;

		for (;;)
		{
			int			got;

			CHECK_FOR_INTERRUPTS();
			while (!stop && issued < n &&
				   (free_slot = bs_io_engine_free_slot(st->engine)) >= 0)
			{
				bs_io_engine_prep(st->engine, free_slot, st->fd, false,
								  st->recent_off[(first + issued) % st->recent_cap],
								  sh->block_size, issued);
				issued++;
			}
			if (bs_io_engine_inflight(st->engine) == 0)
				break;
			got = bs_io_engine_reap(st->engine, comp, lengthof(comp));
			INSTR_TIME_SET_CURRENT(now);
			for (int k = 0; k < got; k++)
			{
				if (comp[k].error != 0)
				{
					errno = comp[k].error;
					raise_io_error(st, BS_OP_READ);
				}
				if (comp[k].done < comp[k].requested)
					raise_short_transfer(st, comp[k].offset + comp[k].done);
			}
			if (got > 0)
			{
				last_ns = bs_instr_time_ns(now);
				if (done == 0)
					first_ns = last_ns;
				done += got;
			}
			if (!stop)
				stop = past_deadline_us(start, now, BS_REREAD_MAX_US);
		}
	}

	/* the same blocks of the test: the first done .. the last */
	if (done >= BS_REREAD_MIN_OPS && last_ns > first_ns)
	{
		uint64		p1_first = st->recent_ns[first % st->recent_cap];
		uint64		p1_last = st->recent_ns[(first + done - 1) % st->recent_cap];

		if (p1_last > p1_first)
		{
			slot->reread_ops = done;
			slot->pass1_ns = p1_last - p1_first;
			slot->pass2_ns = last_ns - first_ns;
		}
	}
}

/*
 * A sequential test that runs until steady state goes round its file
 * again: without direct I/O, a read pass first evicts the file once more,
 * so that it reads from storage rather than the page cache it just filled.
 */
static void
stream_wrap(BsStream *st, BsIoTest test)
{
	if (test == BS_TEST_SEQREAD && !st->shared->direct)
		stream_evict(st);
}

/*
 * A test at iodepth > 1 (not sync): keep iodepth operations of one block
 * each in flight through the stream's engine, and reap them as they
 * complete.  The same offsets as at depth 1, issued in the same order; a
 * timed test stops issuing at its duration and counts what was in flight.
 * Latency runs from an operation's submission to its completion.
 */
static void
stream_run_test_depth(BsStream *st, BsIoTest test)
{
	BsIoShared *sh = st->shared;
	BsStreamSlot *slot = &sh->slots[st->index];
	BsIoEngine *engine = st->engine;
	BsIoCompletion done[BS_MAX_IODEPTH];
	uint64		nblocks_size = sh->size / sh->block_size;
	uint64		nblocks_file = Max(st->filled / sh->block_size, 1);
	bool		write = (test == BS_TEST_SEQWRITE || test == BS_TEST_RANDWRITE);
	bool		endless = sh->until_steady;
	bool		timed = test_is_timed(test) || endless;
	bool		rereads = test_rereads(sh, test);
	bool		ramping = sh->ramp_us > 0;
	instr_time	deadline_base;
	uint64		issued = 0;
	uint64		ops = 0;
	bool		stop = false;

	st->recent_count = 0;
	INSTR_TIME_SET_CURRENT(slot->start);
	deadline_base = slot->start;
	for (;;)
	{
		int			n;
		int			free_slot;

		CHECK_FOR_INTERRUPTS();
		while (!stop && (endless || issued < nblocks_size) &&
			   (free_slot = bs_io_engine_free_slot(engine)) >= 0)
		{
			off_t		offset;

			if (test == BS_TEST_SEQWRITE || test == BS_TEST_SEQREAD)
			{
				offset = (off_t) (issued % nblocks_size) * sh->block_size;
				if (offset == 0 && issued > 0)
					stream_wrap(st, test);
			}
			else
				offset = (off_t) perm_next_block(st, nblocks_file) * sh->block_size;
			if (write)
				stamp_chunk(st, bs_io_engine_buffer(engine, free_slot),
							sh->block_size);
			bs_io_engine_prep(engine, free_slot, st->fd, write, offset,
							  sh->block_size, issued);
			issued++;
		}
		if (bs_io_engine_inflight(engine) == 0)
			break;

		n = bs_io_engine_reap(engine, done, lengthof(done));
		if (rereads)
		{
			instr_time	now;

			INSTR_TIME_SET_CURRENT(now);
			for (int k = 0; k < n; k++)
				note_recent(st, done[k].offset, now);
		}
		for (int k = 0; k < n; k++)
		{
			if (done[k].error != 0)
			{
				errno = done[k].error;
				raise_io_error(st, write ? BS_OP_WRITE : BS_OP_READ);
			}
			if (done[k].done < done[k].requested)
				raise_short_transfer(st, done[k].offset + done[k].done);
			if (write)
				note_written(st, st->fd, done[k].done);
			if (sh->track_latency)
				stream_add_latency(slot, done[k].latency_ns);
		}
		ops += n;
		pg_atomic_write_u64(&slot->progress, ops * sh->block_size);
		if (st->progress)
			bs_progress_advance(st->progress, (uint64) n * sh->block_size);
		if ((timed && !stop) || st->sampling || ramping)
		{
			instr_time	now;

			INSTR_TIME_SET_CURRENT(now);
			if (ramping && past_deadline_us(slot->start, now, sh->ramp_us))
			{
				stream_end_ramp(st, ops, now);
				deadline_base = now;
				ramping = false;
			}
			/* duration counts from the ramp's end, and nothing stops a ramp */
			if (timed && !stop && !ramping)
				stop = past_deadline(sh, deadline_base, now) ||
					stream_steady_stop(st);
			stream_sample(st, now);
		}
	}

	stream_end_test(st, test, ops);
}

/* Run one test in this stream, recording into its slot. */
static void
stream_run_test(BsStream *st, BsIoTest test)
{
	BsIoShared *sh = st->shared;
	BsStreamSlot *slot = &sh->slots[st->index];
	uint64		nblocks_size = sh->size / sh->block_size;
	uint64		nblocks_file;
	uint64		ops = 0;
	instr_time	before;
	instr_time	after;
	instr_time	deadline_base;
	bool		endless = sh->until_steady;
	bool		timed_cap = test_is_timed(test) || endless;
	bool		rereads = test_rereads(sh, test);
	bool		ramping = sh->ramp_us > 0;
	int			fd = st->fd;
	uint64		sample_every = Max(1, BS_PROGRESS_CHECK_BYTES / sh->block_size);

	if (st->engine != NULL && test != BS_TEST_SYNC)
	{
		stream_run_test_depth(st, test);
		return;
	}

	st->recent_count = 0;
	INSTR_TIME_SET_CURRENT(slot->start);
	deadline_base = slot->start;
	before = slot->start;

	if (test == BS_TEST_SYNC)
		fd = sync_test_fd(st);
	nblocks_file = Max(st->filled / sh->block_size, 1);

	for (uint64 i = 0; endless || i < nblocks_size; i++)
	{
		off_t		offset;
		bool		write;
		uint64		ns;

		switch (test)
		{
			case BS_TEST_SEQWRITE:
			case BS_TEST_SEQREAD:
				offset = (off_t) (i % nblocks_size) * sh->block_size;
				if (offset == 0 && i > 0)
					stream_wrap(st, test);
				write = (test == BS_TEST_SEQWRITE);
				break;
			case BS_TEST_RANDREAD:
			case BS_TEST_RANDWRITE:
				offset = (off_t) perm_next_block(st, nblocks_file) * sh->block_size;
				write = (test == BS_TEST_RANDWRITE);
				break;
			default:			/* BS_TEST_SYNC */
				offset = 0;
				write = true;
				break;
		}

		block_io(st, write, offset, fd);
		if (test == BS_TEST_SYNC && sync_test_calls_sync())
			sync_file(st, fd, BS_WAL_SYNC_METHOD == BS_SYNC_METHOD_FDATASYNC);
		ops++;
		pg_atomic_write_u64(&slot->progress, ops * sh->block_size);
		if (st->progress)
			bs_progress_advance(st->progress, sh->block_size);

		if (sh->track_latency)
		{
			INSTR_TIME_SET_CURRENT(after);
			ns = bs_instr_time_ns(after) - bs_instr_time_ns(before);
			stream_add_latency(slot, ns);
			before = after;
		}
		else if (timed_cap || rereads || ramping)
			INSTR_TIME_SET_CURRENT(after);	/* only to check the deadline */
		else if (st->sampling && ops % sample_every == 0)
			INSTR_TIME_SET_CURRENT(after);	/* only for the samples: once a MB */
		else
			continue;

		if (ramping && past_deadline_us(slot->start, after, sh->ramp_us))
		{
			stream_end_ramp(st, ops, after);
			deadline_base = after;
			ramping = false;
		}
		stream_sample(st, after);
		if (rereads)
			note_recent(st, offset, after);
		/* duration counts from the ramp's end, and nothing stops a ramp */
		if (timed_cap && !ramping &&
			(past_deadline(sh, deadline_base, after) || stream_steady_stop(st)))
			break;
	}

	stream_end_test(st, test, ops);
}

/*
 * Called by stream 0 (the caller) after each test, while the other streams
 * wait at the next test's first barrier: it gathers the test's results.
 */
typedef void (*BsGatherFn) (BsIoShared *sh, BsIoTest test, void *arg);

/* The caller's count of the devices' reads around a test (see gather). */
static void devices_start(void *gather_arg);
static void devices_stop(void *gather_arg);

/* Bytes done so far in the current test by all streams. */
static uint64
streams_progress(void *arg)
{
	BsIoShared *sh = (BsIoShared *) arg;
	uint64		total = 0;

	for (int s = 0; s < sh->nstreams; s++)
		total += pg_atomic_read_u64(&sh->slots[s].progress);
	return total;
}

/* How the caller's progress messages name a test. */
static char *
progress_label(BsIoShared *sh, BsIoTest test)
{
	if (sh->ntablespaces == 1)
		return psprintf("%s on \"%s\"", io_tests[test],
						bs_tablespace_name(sh->tablespaces[0]));
	return psprintf("%s on %d tablespaces", io_tests[test], sh->ntablespaces);
}

/*
 * A stream: its file, then every test between two barrier waits, then the
 * file's removal.  Runs in the caller (stream 0, which gathers the rows and
 * reports progress) and in each worker.
 */
static void
run_stream(BsIoShared *sh, int index, BsGatherFn gather, void *gather_arg,
		   BsIoSampling *sampling)
{
	BsStream	st;
	BsStreamSlot *slot = &sh->slots[index];
	char	   *raw;
	BsProgress	progress;
	bool		leader = (gather != NULL);

	memset(&st, 0, sizeof(st));
	st.shared = sh;
	st.index = index;
	st.tablespace = sh->tablespaces[index % sh->ntablespaces];
	st.sampling = sampling;
	raw = palloc(BS_IO_CHUNK + BS_IO_ALIGN);
	st.buffer = (char *) TYPEALIGN(BS_IO_ALIGN, raw);
	if (!pg_prng_strong_seed(&st.prng))
		pg_prng_seed(&st.prng, (uint64) MyProcPid ^ ((uint64) index << 32));
	for (size_t off = 0; off + sizeof(uint64) <= BS_IO_CHUNK; off += sizeof(uint64))
	{
		uint64		r = pg_prng_uint64(&st.prng);

		memcpy(st.buffer + off, &r, sizeof(r));
	}

	stream_open_file(&st);
	for (int t = 0; t < sh->ntests; t++)
	{
		if (test_rereads(sh, sh->tests[t]) && st.recent_cap == 0)
		{
			uint64		cap = BS_REREAD_BYTES / sh->block_size;

			st.recent_cap = (int) Max(Min(cap, BS_REREAD_MAX_OPS), BS_REREAD_MIN_OPS);
			st.recent_off = palloc(sizeof(off_t) * st.recent_cap);
			st.recent_ns = palloc(sizeof(uint64) * st.recent_cap);
		}
	}
	if (sh->iodepth > 1)
	{
		bool		any = false;

		for (int t = 0; t < sh->ntests; t++)
			any |= (sh->tests[t] != BS_TEST_SYNC);
		if (any)
			st.engine = bs_io_engine_create(sh->iodepth, sh->block_size);
	}

	for (int t = 0; t < sh->ntests; t++)
	{
		BsIoTest	test = sh->tests[t];

		/* untimed preparation */
		if (sh->preconditioning &&
			(test == BS_TEST_SEQWRITE || test == BS_TEST_RANDWRITE))
		{
			/* as SNIA's tests do: the whole file written twice over */
			if (leader)
			{
				bs_progress_begin(&progress,
								  psprintf("%s, preconditioning: writing its file twice over",
										   progress_label(sh, test)),
								  2 * sh->size, 0);
				st.progress = &progress;
			}
			for (int pass = 0; pass < 2; pass++)
			{
				st.filled = 0;
				stream_fill(&st);
			}
		}
		if ((test == BS_TEST_SEQREAD || test == BS_TEST_RANDREAD ||
			 test == BS_TEST_RANDWRITE) && st.filled < sh->size)
		{
			if (leader)
			{
				bs_progress_begin(&progress,
								  psprintf("%s, writing its file first",
										   progress_label(sh, test)),
								  sh->size - st.filled, 0);
				st.progress = &progress;
			}
			stream_fill(&st);
		}
		if (test == BS_TEST_SYNC && st.filled == 0)
		{
			block_io(&st, true, 0, st.fd);
			sync_file(&st, st.fd, false);
			st.filled = sh->block_size;
		}
		if (!sh->direct && (test == BS_TEST_SEQREAD || test == BS_TEST_RANDREAD))
			stream_evict(&st);

		/* all streams start together, once the last test is gathered */
		pg_atomic_write_u64(&slot->progress, 0);
		if (leader)
			devices_start(gather_arg);
		BarrierArriveAndWait(&sh->barrier, PG_WAIT_EXTENSION);
		memset(slot, 0, offsetof(BsStreamSlot, hist));
		bs_hist_reset(&slot->hist);
		bs_hist_reset(&slot->measured);
		pg_write_barrier();
		pg_atomic_write_u32(&slot->test_seq, (uint32) t + 1);
		st.test = test;
		st.seq = (uint32) t + 1;
		if (st.sampling)
		{
			instr_time	now;

			INSTR_TIME_SET_CURRENT(now);
			io_sampling_begin(st.sampling, (uint32) t + 1, now,
							  progress_label(sh, test));
		}

		if (leader)
		{
			bool		timed = test_is_timed(test) || sh->until_steady;

			/* until steady state, the size says nothing of the end */
			bs_progress_begin(&progress, progress_label(sh, test),
							  sh->until_steady ? 0 : sh->size * sh->nstreams,
							  timed ? sh->ramp_us + sh->duration_us : 0);
			progress.total_fn = streams_progress;
			progress.total_arg = sh;
			st.progress = &progress;
		}
		stream_run_test(&st, test);
		st.progress = NULL;
		if (st.sampling)
			io_sampling_finish(st.sampling, sh, test);

		BarrierArriveAndWait(&sh->barrier, PG_WAIT_EXTENSION);
		if (leader)
			devices_stop(gather_arg);
		if (test_rereads(sh, test))
		{
			/* every stream re-reads at once, once the counts are taken */
			BarrierArriveAndWait(&sh->barrier, PG_WAIT_EXTENSION);
			stream_reread(&st);
			BarrierArriveAndWait(&sh->barrier, PG_WAIT_EXTENSION);
		}
		if (gather)
			gather(sh, test, gather_arg);
	}

	if (st.engine)
		bs_io_engine_destroy(st.engine);
	if (st.sync_fd >= 0)
		CloseTransientFile(st.sync_fd);
	CloseTransientFile(st.fd);
	FileClose(st.vfd);			/* deletes the file */
	pfree(raw);
}

/* Entry point of a parallel worker: stream ParallelWorkerNumber + 1. */
void
bench_tblspc_io_worker(dsm_segment *seg, shm_toc *toc)
{
	BsIoShared *sh = shm_toc_lookup(toc, BS_SHM_KEY, false);

	/* wait until the caller knows how many streams run */
	ConditionVariablePrepareToSleep(&sh->ready_cv);
	while (pg_atomic_read_u32(&sh->ready) == 0)
		ConditionVariableSleep(&sh->ready_cv, PG_WAIT_EXTENSION);
	ConditionVariableCancelSleep();
	pg_read_barrier();			/* nstreams and the barrier were set before */

	if (ParallelWorkerNumber + 1 < sh->nstreams)
		run_stream(sh, ParallelWorkerNumber + 1, NULL, NULL, NULL);
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
put_row(BsRun *run, ReturnSetInfo *rsinfo, const char *tablespace,
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
	values[COL_TEST] = CStringGetTextDatum(io_tests[test]);
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
	bs_run_put_row_series(run, rsinfo, values, nulls, series);
}

typedef struct BsGather
{
	ReturnSetInfo *rsinfo;
	BsRun	   *run;
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
			 io_tests[test], bs_tablespace_name(g->args->tablespaces[spc]),
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
		put_row(g->run, g->rsinfo,
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
	run_stream(sh, 0, gather_rows, gather, gather->sampling);

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
run_io_benchmark(FunctionCallInfo fcinfo, BsIoArgs *args, BsRun *run,
				 bool total_rows)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
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

	InitMaterializedSRF(fcinfo, 0);

	/*
	 * 1.0's row has no iodepth, 1.1's ends before run and warnings: the
	 * library fills what the installed definition has.
	 */
	if (rsinfo->setDesc->natts !=
		(args->run_columns ? BS_IO_NCOLS :
		 args->iodepth_column ? COL_RUN : COL_RUN - 1))
		elog(ERROR, "result has %d columns, expected %d",
			 rsinfo->setDesc->natts, BS_IO_NCOLS);
	/* rows are recorded as JSON in parallel mode: register the type now */
	BlessTupleDesc(rsinfo->setDesc);
	run->desc_blessed = true;

	gather.rsinfo = rsinfo;
	gather.run = run;
	gather.args = args;
	gather.total_row = total_rows;
	gather.totals = palloc(sizeof(BsIoTotals) * (nspc + 1));
	gather.warnings = palloc0(sizeof(char *) * (nspc + 1));
	gather.stacks = palloc0(sizeof(BsDevStack) * nspc);
	gather.have_stack = palloc0(sizeof(bool) * nspc);
	gather.sampling = NULL;
	if (args->sample_interval_us > 0)
	{
		gather.sampling = io_sampling_create(args->sample_interval_us, planned, nspc);
		gather.sampling->steady = args->steady_judge;
	}
	for (int i = 0; i < nspc; i++)
		gather.have_stack[i] = bs_devstack_find(tablespace_dir(args->tablespaces[i]),
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
	bs_run_finish(run);
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
		escape_json(&tests, io_tests[args->tests[t]]);
	}
	appendStringInfoChar(&tests, ']');
	bs_run_arg_json(run, "tests", tests.data);
	bs_run_arg_int(run, "streams", args->streams);
	bs_run_arg_bool(run, "direct", args->direct);
	if (args->iodepth_column)
		bs_run_arg_int(run, "iodepth", args->iodepth);
	if (args->run_columns)
		bs_run_arg_int(run, "repeat", args->repeat);
	if (PG_NARGS() > 11)
		bs_run_arg_sample_interval(run, args->sample_interval_us);
	if (PG_NARGS() > 16)
	{
		BsSteadyArgs sa;

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
 *					   duration interval, label text, record boolean)
 */
Datum
bench_tablespace_io(PG_FUNCTION_ARGS)
{
	BsIoArgs	args;
	BsRun		run;
	char	   *name;
	BsClientWatch client;

	memset(&args, 0, sizeof(args));
	bs_require_arg(fcinfo, 0, "tablespace");
	args.ntablespaces = 1;
	args.tablespaces[0] = tablespace_oid(PG_GETARG_NAME(0));
	parse_io_args(fcinfo, &args);
	bs_run_begin(&run, fcinfo, "tablespace_io", 7, 8);
	name = NameStr(*PG_GETARG_NAME(0));
	bs_run_target(&run, "tablespace", name, args.tablespaces[0]);
	bs_run_arg_text(&run, "tablespace", name);
	describe_run(&run, fcinfo, &args);
	bs_client_watch_begin(&client);
	run_io_benchmark(fcinfo, &args, &run, false);
	bs_client_watch_end(&client);
	return (Datum) 0;
}

/*
 * bench_tablespaces_io(tablespaces name[], size text, block_size text,
 *						tests text[], streams integer, direct boolean,
 *						duration interval)
 */
Datum
bench_tablespaces_io(PG_FUNCTION_ARGS)
{
	BsIoArgs	args;
	Datum	   *elems;
	int			nelems;
	BsRun		run;
	StringInfoData names;
	StringInfoData json;
	BsClientWatch client;

	memset(&args, 0, sizeof(args));
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

	bs_run_begin(&run, fcinfo, "tablespaces_io", 7, 8);
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
	bs_run_target(&run, "tablespace", names.data, InvalidOid);
	bs_run_arg_json(&run, "tablespaces", json.data);
	describe_run(&run, fcinfo, &args);
	bs_client_watch_begin(&client);
	run_io_benchmark(fcinfo, &args, &run, true);
	bs_client_watch_end(&client);
	return (Datum) 0;
}
