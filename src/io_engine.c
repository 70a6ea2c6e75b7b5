/*-------------------------------------------------------------------------
 *
 * io_engine.c
 *	  Issue and reap benchstore's own file I/O: pread/pwrite one operation
 *	  at a time (depth 1), or up to 256 operations in flight through
 *	  io_uring (depth > 1, with liburing).
 *
 * An engine owns a ring and depth buffers of one size.  The caller takes a
 * free slot, fills its buffer (for a write), prepares the operation, and
 * reaps completions.  A completion is final: every byte asked for, or an
 * errno, or for a read fewer bytes, which on a regular file means its end
 * (the kernel completes a read of a regular file in full short of its
 * end).  A short write is completed inside the engine, and an operation
 * that came back with EINTR or EAGAIN is issued again, on the same
 * descriptor: so the caller keeps a descriptor open until no operation is
 * in flight (bs_io_engine_inflight() returns 0), and never closes a file
 * whose reads or writes have not all been reaped.  Latency runs from the
 * operation's submission to its completion.
 *
 * Engines live in TopMemoryContext and are listed: a resource-release
 * callback drains and frees every live engine when a transaction aborts
 * (error, cancel, statement_timeout), so that the kernel never writes into
 * freed memory and the ring's descriptor is never leaked.  At backend exit
 * the kernel tears the ring down with the process.
 *
 * An engine's buffers are one anonymous mapping of exactly depth × the
 * buffer size rounded up to 4 kB (bs_io_buffer_bytes): page-aligned, as
 * O_DIRECT needs, with no padding, so that the bound checked by
 * bs_io_check_buffer_memory is what is mapped.  Each creation says at
 * DEBUG1 how many engines and bytes of buffers its process holds.
 *
 * src/io_engine.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/mman.h>
#include <unistd.h>

#ifdef BS_HAVE_LIBURING
#include <liburing.h>
#endif

#include "compat.h"
#include "io_engine.h"
#include "lib/ilist.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/fd.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/wait_event.h"

#define BS_IO_BUFFER_ALIGN	4096	/* O_DIRECT needs aligned buffers */

/*
 * Depth 1: read or write len bytes at offset, retrying on EINTR and
 * completing short transfers; fewer bytes only at the end of the file (a
 * read returns 0) .  Returns the bytes done, or -1 with errno set.
 */
ssize_t
bs_io_sync_rw(int fd, char *buffer, size_t len, off_t offset, bool write)
{
	size_t		done = 0;

	while (done < len)
	{
		ssize_t		n;

		pgstat_report_wait_start(write ? WAIT_EVENT_DATA_FILE_WRITE :
								 WAIT_EVENT_DATA_FILE_READ);
		if (write)
			n = pg_pwrite(fd, buffer + done, len - done, offset + done);
		else
			n = pg_pread(fd, buffer + done, len - done, offset + done);
		pgstat_report_wait_end();
		if (n < 0)
		{
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		done += n;
	}
	return (ssize_t) done;
}

/*
 * The bytes of the buffers of one engine: depth buffers, each rounded up
 * to the 4 kB that O_DIRECT needs (a block size from 4 kB up is a multiple
 * already).
 */
uint64
bs_io_buffer_bytes(int iodepth, uint64 block_size)
{
	return (uint64) iodepth * TYPEALIGN64(BS_IO_BUFFER_ALIGN, block_size);
}

/*
 * The bound on the buffers of one call, checked before anything is
 * written: processes is the number of engines the call can hold at once,
 * one per process (the caller's included).  0A000 would be wrong (nothing
 * is unsupported), so 54000, as for the other limits of a run.
 */
void
bs_io_check_buffer_memory(int iodepth, uint64 block_size, int processes,
						  const char *what, const char *hint)
{
	uint64		bytes = bs_io_buffer_bytes(iodepth, block_size) * (uint64) processes;

	if (bytes > BS_MAX_IO_BUFFER_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("the I/O buffers of this run would take %llu MB, more than the limit of %llu MB",
						(unsigned long long) (bytes >> 20),
						(unsigned long long) (BS_MAX_IO_BUFFER_BYTES >> 20)),
				 errdetail("%s: %d × %llu bytes × %d.",
						   what, iodepth, (unsigned long long) block_size,
						   processes),
				 errhint("%s", hint)));
}

#ifdef BS_HAVE_LIBURING

typedef struct BsIoSlot
{
	bool		busy;
	int			fd;
	bool		write;
	off_t		offset;
	size_t		requested;
	size_t		done;
	uint64		tag;
	instr_time	submitted;
} BsIoSlot;

struct BsIoEngine
{
	dlist_node	node;			/* in live_engines */
	int			depth;
	size_t		buffer_size;
	char	   *buffers;		/* mapped: slot i at i * stride */
	size_t		stride;
	size_t		buffer_bytes;	/* depth * stride, the mapping's length */
	int			inflight;		/* prepared or submitted, not completed */
	int			writes_inflight;
	int			next_free;		/* hint for the free-slot search */
	int			nunstamped;		/* prepared since the last submission */
	int		   *unstamped;		/* their slots */
	struct io_uring ring;
	BsIoSlot	slots[FLEXIBLE_ARRAY_MEMBER];
};

static dlist_head live_engines = DLIST_STATIC_INIT(live_engines);
static bool release_callback_registered = false;

/* What this process's live engines hold, for the DEBUG1 message. */
static int	held_engines = 0;
static uint64 held_buffer_bytes = 0;

/* What a failed io_uring_queue_init means, for the error's detail. */
static char *
io_uring_refusal(int err)
{
	FILE	   *f;
	int			disabled = 0;

	f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
	if (f)
	{
		if (fscanf(f, "%d", &disabled) != 1)
			disabled = 0;
		fclose(f);
	}
	errno = err;
	if (disabled != 0 && (err == EPERM || err == EACCES))
		return psprintf("io_uring_setup failed: %m; the kernel setting kernel.io_uring_disabled is %d.",
						disabled);
	if (err == EPERM || err == EACCES)
		return psprintf("io_uring_setup failed: %m; a security policy (seccomp, a container runtime) may forbid io_uring.");
	if (err == ENOSYS)
		return psprintf("io_uring_setup failed: %m; this kernel has no io_uring.");
	return psprintf("io_uring_setup failed: %m.");
}

/*
 * A ring for one process that alone submits and reaps, whose completions'
 * task work runs when it next enters the kernel rather than by
 * interrupting it (SINGLE_ISSUER | COOP_TASKRUN, kernel 6.0; COOP_TASKRUN
 * alone from 5.19; a plain ring before).  DEFER_TASKRUN, which defers that
 * work until we wait, was measured: cheaper on tmpfs, but 0.72x fio's
 * 8 kB random reads at depth 32 on a disk (doc/benchmarks.md).
 */
static int
ring_init(struct io_uring *ring, int depth)
{
	struct io_uring_params params;
	int			rc;

	memset(&params, 0, sizeof(params));
	params.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN;
	rc = io_uring_queue_init_params((unsigned) depth, ring, &params);
	if (rc == -EINVAL)
	{
		memset(&params, 0, sizeof(params));
		params.flags = IORING_SETUP_COOP_TASKRUN;
		rc = io_uring_queue_init_params((unsigned) depth, ring, &params);
	}
	if (rc == -EINVAL)
		rc = io_uring_queue_init((unsigned) depth, ring, 0);
	return rc;
}

#endif							/* BS_HAVE_LIBURING */

/*
 * Refuse iodepth > 1 where io_uring cannot be used: a build without
 * liburing, a kernel without io_uring or with it disabled, a seccomp
 * filter.  Probed by setting up a ring, before anything is written.
 */
void
bs_io_check_depth(int iodepth, const char *argname)
{
	if (iodepth < BS_MIN_IODEPTH || iodepth > BS_MAX_IODEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be between %d and %d", argname,
						BS_MIN_IODEPTH, BS_MAX_IODEPTH)));
	if (iodepth == 1)
		return;
#ifndef BS_HAVE_LIBURING
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s greater than 1 needs io_uring", argname),
			 errdetail("This build of benchstore was made without liburing."),
			 errhint("Use %s => 1, or rebuild benchstore with liburing's headers installed (liburing-dev).",
					 argname)));
#else
	{
		struct io_uring ring;
		int			rc = ring_init(&ring, iodepth);

		if (rc < 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("%s greater than 1 needs io_uring, which this server cannot use",
							argname),
					 errdetail_internal("%s", io_uring_refusal(-rc)),
					 errhint("Use %s => 1: it reads and writes with pread and pwrite, one operation at a time.",
							 argname)));
		io_uring_queue_exit(&ring);
	}
#endif
}

#ifdef BS_HAVE_LIBURING

/*
 * Queue (part of) a slot's operation; submitted at the next reap.  Its
 * descriptor is still open: the caller closes a file only when no
 * operation is in flight (see the head of this file).
 */
static void
slot_queue(BsIoEngine *e, int i)
{
	BsIoSlot   *s = &e->slots[i];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&e->ring);
	char	   *buf = e->buffers + (size_t) i * e->stride + s->done;

	/* the ring has an entry per slot, and each slot has one queued at most */
	if (sqe == NULL)
		elog(ERROR, "io_uring submission queue is full");
	if (s->write)
		io_uring_prep_write(sqe, s->fd, buf, (unsigned) (s->requested - s->done),
							s->offset + s->done);
	else
		io_uring_prep_read(sqe, s->fd, buf, (unsigned) (s->requested - s->done),
						   s->offset + s->done);
	io_uring_sqe_set_data(sqe, (void *) (uintptr_t) i);
}

/* Wait for every operation in flight, ignoring their results. */
static void
engine_drain(BsIoEngine *e)
{
	while (e->inflight > 0)
	{
		struct io_uring_cqe *cqe;
		int			rc;

		rc = io_uring_submit_and_wait(&e->ring, 1);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
			break;				/* the ring is unusable: exit tears it down */
		while (io_uring_peek_cqe(&e->ring, &cqe) == 0)
		{
			int			i = (int) (uintptr_t) io_uring_cqe_get_data(cqe);

			io_uring_cqe_seen(&e->ring, cqe);
			if (i >= 0 && i < e->depth && e->slots[i].busy)
			{
				e->slots[i].busy = false;
				e->inflight--;
			}
		}
	}
}

static void
engine_free(BsIoEngine *e)
{
	engine_drain(e);
	io_uring_queue_exit(&e->ring);
	ReleaseExternalFD();
	dlist_delete(&e->node);
	held_engines--;
	held_buffer_bytes -= e->buffer_bytes;
	if (munmap(e->buffers, e->buffer_bytes) != 0)
		elog(WARNING, "could not unmap I/O buffers: %m");
	pfree(e->unstamped);
	pfree(e);
}

/*
 * On abort, drain and free every engine still live: its call failed.  On
 * commit there should be none; one found is freed with a warning.
 */
static void
release_engines(ResourceReleasePhase phase, bool isCommit, bool isTopLevel,
				void *arg)
{
	dlist_mutable_iter iter;

	if (phase != RESOURCE_RELEASE_BEFORE_LOCKS)
		return;
	if (isCommit && !isTopLevel)
		return;
	dlist_foreach_modify(iter, &live_engines)
	{
		BsIoEngine *e = dlist_container(BsIoEngine, node, iter.cur);

		if (isCommit)
			elog(WARNING, "benchstore: an I/O engine was not released");
		engine_free(e);
	}
}

#endif							/* BS_HAVE_LIBURING */

/*
 * A ring of depth entries and depth buffers of buffer_size bytes each,
 * aligned for O_DIRECT.  The caller has checked the depth and the memory.
 *
 * The ring's descriptor is reserved with AcquireExternalFD() only once
 * every allocation is made, and released on every failure after it: an
 * error between the two would leave the reservation taken for the rest of
 * the session (nothing else releases it), and with it one descriptor less
 * for everything the backend opens.
 */
BsIoEngine *
bs_io_engine_create(int depth, size_t buffer_size)
{
#ifndef BS_HAVE_LIBURING
	bs_io_check_depth(depth, "iodepth");	/* raises for depth > 1 */
	elog(ERROR, "an I/O engine needs io_uring");
	return NULL;
#else
	BsIoEngine *e;
	int		   *unstamped;
	char	   *buffers;
	size_t		stride = TYPEALIGN(BS_IO_BUFFER_ALIGN, buffer_size);
	size_t		buffer_bytes = (size_t) bs_io_buffer_bytes(depth, buffer_size);
	int			rc;

	Assert(depth > 1 && depth <= BS_MAX_IODEPTH);
	if (!release_callback_registered)
	{
		RegisterResourceReleaseCallback(release_engines, NULL);
		release_callback_registered = true;
	}

	/* everything that can fail for want of memory first */
	e = MemoryContextAllocExtended(TopMemoryContext,
								   offsetof(BsIoEngine, slots) +
								   sizeof(BsIoSlot) * depth,
								   MCXT_ALLOC_ZERO | MCXT_ALLOC_NO_OOM);
	unstamped = MemoryContextAllocExtended(TopMemoryContext,
										   sizeof(int) * depth,
										   MCXT_ALLOC_NO_OOM);
	buffers = mmap(NULL, buffer_bytes, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buffers == MAP_FAILED)
		buffers = NULL;
	if (e == NULL || unstamped == NULL || buffers == NULL)
	{
		if (buffers)
			munmap(buffers, buffer_bytes);
		if (unstamped)
			pfree(unstamped);
		if (e)
			pfree(e);
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("Failed on a request for the I/O buffers: %d × %zu bytes.",
						   depth, stride)));
	}
	e->depth = depth;
	e->buffer_size = buffer_size;
	e->unstamped = unstamped;
	e->stride = stride;
	e->buffers = buffers;
	e->buffer_bytes = buffer_bytes;

	/* from here on, every failure releases the reservation */
	if (!AcquireExternalFD())
	{
		munmap(e->buffers, e->buffer_bytes);
		pfree(e->unstamped);
		pfree(e);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not set up io_uring: too many open files in this server process"),
				 errhint("Raise max_files_per_process, or use iodepth => 1.")));
	}
	rc = ring_init(&e->ring, depth);
	if (rc < 0)
	{
		ReleaseExternalFD();
		munmap(e->buffers, e->buffer_bytes);
		pfree(e->unstamped);
		pfree(e);
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("could not set up io_uring"),
				 errdetail_internal("%s", io_uring_refusal(-rc)),
				 errhint("Use iodepth => 1.")));
	}
	/* nothing can fail from here on: the engine is live */
	dlist_push_tail(&live_engines, &e->node);
	held_engines++;
	held_buffer_bytes += buffer_bytes;
	elog(DEBUG1, "benchstore: I/O engine of %d buffers of %zu bytes created; I/O engines held by this process: %d, with %llu bytes of buffers",
		 depth, stride, held_engines, (unsigned long long) held_buffer_bytes);
	return e;
#endif
}

/* Drain what is in flight and free the ring and the buffers. */
void
bs_io_engine_destroy(BsIoEngine *engine)
{
#ifdef BS_HAVE_LIBURING
	engine_free(engine);
#endif
}

char *
bs_io_engine_buffer(BsIoEngine *engine, int slot)
{
#ifdef BS_HAVE_LIBURING
	Assert(slot >= 0 && slot < engine->depth);
	return engine->buffers + (size_t) slot * engine->stride;
#else
	return NULL;
#endif
}

/* A slot with no operation, or -1 when all are in flight. */
int
bs_io_engine_free_slot(BsIoEngine *engine)
{
#ifdef BS_HAVE_LIBURING
	if (engine->inflight >= engine->depth)
		return -1;
	for (int n = 0; n < engine->depth; n++)
	{
		int			i = (engine->next_free + n) % engine->depth;

		if (!engine->slots[i].busy)
		{
			engine->next_free = (i + 1) % engine->depth;
			return i;
		}
	}
#endif
	return -1;
}

int
bs_io_engine_inflight(BsIoEngine *engine)
{
#ifdef BS_HAVE_LIBURING
	return engine->inflight;
#else
	return 0;
#endif
}

/*
 * Prepare a read or write of len bytes (at most the buffer size) at offset
 * through the slot's buffer; it is submitted by the next bs_io_engine_reap.
 */
void
bs_io_engine_prep(BsIoEngine *engine, int slot, int fd, bool write,
				  off_t offset, size_t len, uint64 tag)
{
#ifdef BS_HAVE_LIBURING
	BsIoSlot   *s = &engine->slots[slot];

	Assert(!s->busy && len <= engine->buffer_size);
	s->busy = true;
	s->fd = fd;
	s->write = write;
	s->offset = offset;
	s->requested = len;
	s->done = 0;
	s->tag = tag;
	slot_queue(engine, slot);
	engine->unstamped[engine->nunstamped++] = slot;
	engine->inflight++;
	if (write)
		engine->writes_inflight++;
#endif
}

/*
 * Submit what is prepared and wait until at least one operation is
 * complete; return up to max completions (at least one while operations
 * are in flight).  The slots of the completions returned are free again.
 * Interrupts are checked between waits: a wait lasts until an operation
 * completes.
 */
int
bs_io_engine_reap(BsIoEngine *engine, BsIoCompletion *out, int max)
{
#ifdef BS_HAVE_LIBURING
	BsIoEngine *e = engine;
	int			n = 0;
	bool		stamped = false;
	instr_time	now;

	while (n == 0 && e->inflight > 0)
	{
		struct io_uring_cqe *cqe;
		int			rc;

		CHECK_FOR_INTERRUPTS();
		if (e->nunstamped > 0)
		{
			/* operations prepared since the last wait start their clocks */
			INSTR_TIME_SET_CURRENT(now);
			for (int k = 0; k < e->nunstamped; k++)
				e->slots[e->unstamped[k]].submitted = now;
			e->nunstamped = 0;
		}
		pgstat_report_wait_start(e->writes_inflight > 0 ?
								 WAIT_EVENT_DATA_FILE_WRITE :
								 WAIT_EVENT_DATA_FILE_READ);
		rc = io_uring_submit_and_wait(&e->ring, 1);
		pgstat_report_wait_end();
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
		{
			errno = -rc;
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not submit I/O through io_uring: %m")));
		}
		stamped = false;
		while (n < max && io_uring_peek_cqe(&e->ring, &cqe) == 0)
		{
			int			i = (int) (uintptr_t) io_uring_cqe_get_data(cqe);
			int			res = cqe->res;
			BsIoSlot   *s;

			io_uring_cqe_seen(&e->ring, cqe);
			if (i < 0 || i >= e->depth || !e->slots[i].busy)
				elog(ERROR, "io_uring returned a completion for no operation");
			s = &e->slots[i];
			if (res == -EINTR || res == -EAGAIN)
			{
				slot_queue(e, i);	/* again, as pread would be retried */
				continue;
			}
			if (res > 0)
			{
				s->done += res;

				/*
				 * The rest of a short write (as pwrite's would be).  Not of
				 * a short read: on a regular file it met the end of the
				 * file, and the caller decides what that means (a file
				 * that shrank under a scan is an error, not something to
				 * read again).
				 */
				if (s->write && s->done < s->requested)
				{
					slot_queue(e, i);
					continue;
				}
			}
			if (!stamped)
			{
				INSTR_TIME_SET_CURRENT(now);
				stamped = true;
			}
			out[n].slot = i;
			out[n].tag = s->tag;
			out[n].offset = s->offset;
			out[n].requested = s->requested;
			out[n].done = s->done;
			out[n].error = res < 0 ? -res : 0;
			out[n].latency_ns = bs_instr_time_ns(now) -
				bs_instr_time_ns(s->submitted);
			n++;
			s->busy = false;
			e->inflight--;
			if (s->write)
				e->writes_inflight--;
		}
	}
	return n;
#else
	return 0;
#endif
}
