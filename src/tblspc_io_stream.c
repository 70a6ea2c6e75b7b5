/*-------------------------------------------------------------------------
 *
 * tblspc_io_stream.c
 *	  One stream of bench_tablespace_io: its temporary file, its reads and
 *	  writes at the depth asked, each test between two barriers, the
 *	  re-read that looks for a cache below, and the caller's time series.
 *
 * tblspc_io.c starts the streams (the caller's own, stream 0, and one
 * parallel worker per further stream, entered at bench_tblspc_io_worker)
 * and hands stream 0 its callbacks (BsStreamLeader): the devices' read
 * counts before and after each test, and the gathering of its rows.  This
 * file calls nothing of tblspc_io.c by name.
 *
 * src/tblspc_io_stream.c
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
#include "catalog/pg_authid.h"
#include "catalog/pg_tablespace_d.h"
#include "commands/tablespace.h"
#include "common/pg_prng.h"
#include "compat.h"
#include "funcapi.h"
#include "histogram.h"
#include "io_engine.h"
#include "miscadmin.h"
#include "permutation.h"
#include "pgstat.h"
#include "port/pg_bitutils.h"
#include "portability/instr_time.h"
#include "progress.h"
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

PGDLLEXPORT void bench_tblspc_io_worker(dsm_segment *seg, shm_toc *toc);

const char *const bs_io_tests[] = {
	"seqwrite", "seqread", "randread", "randwrite", "sync"
};

StaticAssertDecl(lengthof(bs_io_tests) == BS_IO_NTESTS,
				 "bs_io_tests and BsIoTest disagree");

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

BsIoSampling *
bs_io_sampling_create(int64 interval_us, int nstreams, int ntablespaces)
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
		return psprintf("%s on \"%s\"", bs_io_tests[test],
						bs_tablespace_name(sh->tablespaces[0]));
	return psprintf("%s on %d tablespaces", bs_io_tests[test], sh->ntablespaces);
}

/*
 * A stream: its file, then every test between two barrier waits, then the
 * file's removal.  Runs in the caller (stream 0, which gathers the rows and
 * reports progress) and in each worker.
 */
void
bs_io_run_stream(BsIoShared *sh, int index, const BsStreamLeader *lead)
{
	BsStream	st;
	BsStreamSlot *slot = &sh->slots[index];
	char	   *raw;
	BsProgress	progress;
	bool		leader = (lead != NULL);

	memset(&st, 0, sizeof(st));
	st.shared = sh;
	st.index = index;
	st.tablespace = sh->tablespaces[index % sh->ntablespaces];
	st.sampling = lead ? lead->sampling : NULL;
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
			lead->before_test(lead->arg);
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
			lead->after_test(lead->arg);
		if (test_rereads(sh, test))
		{
			/* every stream re-reads at once, once the counts are taken */
			BarrierArriveAndWait(&sh->barrier, PG_WAIT_EXTENSION);
			stream_reread(&st);
			BarrierArriveAndWait(&sh->barrier, PG_WAIT_EXTENSION);
		}
		if (leader)
			lead->gather(sh, test, lead->arg);
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
		bs_io_run_stream(sh, ParallelWorkerNumber + 1, NULL);
}
