/*-------------------------------------------------------------------------
 *
 * iostat.c
 *	  What the kernel really did for this backend.
 *
 * PostgreSQL's "blocks read" counts shared-buffer misses, and a miss may
 * still be a hit in the OS page cache.  To tell a page-cache hit from a
 * storage read, benchstore diffs the bytes the kernel fetched from storage
 * for this process: /proc/self/io read_bytes where the kernel provides it,
 * getrusage() block input operations (512-byte units) otherwise.
 *
 * On PostgreSQL 18 with io_method = worker (the default), a backend's
 * buffer reads are done by the I/O worker processes, and the kernel counts
 * them there.  A measured call (bs_os_reads_start/_end) therefore also
 * diffs the I/O workers' /proc/<pid>/io read_bytes over the call and adds
 * them: exact when no other session uses the I/O workers during the call.
 * Their share is capped at the size of what the call scans, less what its
 * own processes read themselves, and is zero when the call read no block
 * through the buffer manager: the kernel's read-ahead reads whole stretches
 * of a file, blocks found in shared buffers included (io_method = sync and
 * io_uring count those in the backend too), but nothing beyond the files
 * the call scans.  With other sessions reading at the same time the figure
 * may include some of their storage reads, never more than that cap.
 * Under io_method = io_uring or sync the backend's own counter holds them
 * all.
 *
 * src/iostat.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <sys/resource.h>

#include "iostat.h"
#include "lib/stringinfo.h"
#include "utils/fmgrprotos.h"
#include "port/pg_bitutils.h"
#include "storage/fd.h"
#if PG_VERSION_NUM >= 180000
#include "storage/aio.h"
#include "utils/backend_status.h"
#endif

typedef enum BsOsIoSource
{
	BS_OSIO_UNKNOWN = 0,
	BS_OSIO_PROC,
	BS_OSIO_RUSAGE,
	BS_OSIO_NONE
} BsOsIoSource;

/* Chosen on first use and kept, so that two readings are comparable. */
static BsOsIoSource os_io_source = BS_OSIO_UNKNOWN;

/* read_bytes of /proc/self/io or /proc/<pid>/io */
static bool
read_proc_io(const char *path, uint64 *bytes)
{
	FILE	   *f;
	char		line[128];
	bool		found = false;

	f = AllocateFile(path, "r");
	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL)
	{
		unsigned long long v;

		if (sscanf(line, "read_bytes: %llu", &v) == 1)
		{
			*bytes = (uint64) v;
			found = true;
			break;
		}
	}
	FreeFile(f);
	return found;
}

static bool
read_rusage(uint64 *bytes)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return false;
	*bytes = (uint64) ru.ru_inblock * 512;
	return true;
}

/*
 * Bytes this backend has read from storage so far.  Returns false when the
 * platform cannot tell, in which case callers report NULL.
 */
bool
bs_os_read_bytes(uint64 *bytes)
{
	if (os_io_source == BS_OSIO_UNKNOWN)
	{
		if (read_proc_io("/proc/self/io", bytes))
			os_io_source = BS_OSIO_PROC;
		else if (read_rusage(bytes))
			os_io_source = BS_OSIO_RUSAGE;
		else
			os_io_source = BS_OSIO_NONE;
		return os_io_source != BS_OSIO_NONE;
	}

	switch (os_io_source)
	{
		case BS_OSIO_PROC:
			return read_proc_io("/proc/self/io", bytes);
		case BS_OSIO_RUSAGE:
			return read_rusage(bytes);
		default:
			return false;
	}
}

/* read_bytes of another process of this server */
static bool
read_process_io(int pid, uint64 *bytes)
{
	char		path[64];

	snprintf(path, sizeof(path), "/proc/%d/io", pid);
	return read_proc_io(path, bytes);
}

/*
 * The I/O worker processes, when they do this server's buffer reads.  They
 * are found in the backend status array (what pg_stat_activity shows as
 * "io worker").  That array is read through the transaction's snapshot of
 * it, so an I/O worker started during the call is not seen; one that ended
 * makes the figure unknown.
 */
static void
find_io_workers(BsOsReads *r)
{
	r->nio_workers = 0;
#if PG_VERSION_NUM >= 180000
	if (io_method != IOMETHOD_WORKER)
		return;
	for (int i = 1; i <= pgstat_fetch_stat_numbackends(); i++)
	{
		LocalPgBackendStatus *entry = pgstat_get_local_beentry_by_index(i);

		if (entry == NULL ||
			entry->backendStatus.st_backendType != B_IO_WORKER ||
			entry->backendStatus.st_procpid <= 0)
			continue;
		if (r->nio_workers == BS_MAX_IO_WORKERS)
		{
			r->known = false;
			return;
		}
		r->io_worker_pid[r->nio_workers++] = entry->backendStatus.st_procpid;
	}
#endif
}

/*
 * Start measuring what the kernel reads from storage for a call: call it
 * before the clock starts (finding the I/O workers takes a snapshot of the
 * backend status array).
 */
void
bs_os_reads_start(BsOsReads *r)
{
	memset(r, 0, sizeof(*r));
	r->known = bs_os_read_bytes(&r->self_start);
	if (!r->known)
		return;
	find_io_workers(r);
	for (int i = 0; r->known && i < r->nio_workers; i++)
		r->known = read_process_io(r->io_worker_pid[i], &r->io_worker_start[i]);
}

/*
 * Finish: *bytes is what the kernel read from storage for the call.
 * others_bytes is what the call's other processes (parallel workers) read
 * themselves, by their own counters; buffer_read_bytes is the blocks all
 * the call's processes read through the buffer manager (shared and local
 * misses); scanned_bytes the size of the relations the call scans.  The
 * I/O workers' share is at most Max(buffer_read_bytes, scanned_bytes) less
 * what the call's processes read themselves, and none when the call read
 * no block through the buffer manager.  Returns false when the figure
 * cannot be known.
 */
bool
bs_os_reads_end(BsOsReads *r, uint64 others_bytes, uint64 buffer_read_bytes,
				uint64 scanned_bytes, uint64 *bytes)
{
	uint64		limit;
	uint64		self_end;
	uint64		own;
	uint64		io_workers = 0;

	*bytes = 0;
	if (!r->known)
		return false;
	if (!bs_os_read_bytes(&self_end) || self_end < r->self_start)
		return false;
	own = self_end - r->self_start + others_bytes;

	for (int i = 0; i < r->nio_workers; i++)
	{
		uint64		end;

		if (!read_process_io(r->io_worker_pid[i], &end) ||
			end < r->io_worker_start[i])
			return false;
		io_workers += end - r->io_worker_start[i];
	}
	limit = buffer_read_bytes > 0 ? Max(buffer_read_bytes, scanned_bytes) : 0;
	if (limit > own)
		own += Min(io_workers, limit - own);
	*bytes = own;
	return true;
}
