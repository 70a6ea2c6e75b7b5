/*-------------------------------------------------------------------------
 *
 * tblspc_io.h
 *	  What bench_tablespace_io's driver (tblspc_io.c) shares with its
 *	  streams (tblspc_io_stream.c): the tests, the shared state of a run,
 *	  each stream's slot, the time series' sampling, and how a stream is
 *	  run.
 *
 * src/tblspc_io.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BS_TBLSPC_IO_H
#define BS_TBLSPC_IO_H

#include "datatype/timestamp.h"
#include "histogram.h"
#include "port/atomics.h"
#include "portability/instr_time.h"
#include "series.h"
#include "steady.h"
#include "storage/barrier.h"
#include "storage/condition_variable.h"

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

#define BS_IO_NTESTS		5

extern const char *const bs_io_tests[];

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

/*
 * The time series (see series.c): the caller (stream 0) samples every
 * stream at each tick and adds what each tablespace's streams, and all of
 * them, did since the last one (tblspc_io_stream.c).
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

/*
 * What stream 0, the caller's, does beside its own stream: before and after
 * each test (the devices' read counts), and after it, the gathering of the
 * test's results while the other streams wait at the next test's first
 * barrier.
 */
typedef void (*BsGatherFn) (BsIoShared *sh, BsIoTest test, void *arg);

typedef struct BsStreamLeader
{
	BsGatherFn	gather;
	void		(*before_test) (void *arg);
	void		(*after_test) (void *arg);
	void	   *arg;
	BsIoSampling *sampling;		/* the time series, or NULL */
} BsStreamLeader;

extern BsIoSampling *bs_io_sampling_create(int64 interval_us, int nstreams,
										   int ntablespaces);

/*
 * Run stream index of sh: its file, every test, the file's removal.  lead
 * is the caller's (stream 0's) part, NULL in a worker.
 */
extern void bs_io_run_stream(BsIoShared *sh, int index, const BsStreamLeader *lead);

#endif							/* BS_TBLSPC_IO_H */
