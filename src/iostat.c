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
 * Also the latency histogram of the I/O tests: a fixed log-linear array of
 * counters, 128 linear buckets per power of two (relative error under
 * 0.8 %), from 1 ns up to 2^41 ns (about 36 minutes).  Adding a value is a
 * few instructions and never allocates; histograms of several streams are
 * merged by adding their counters.
 *
 * src/iostat.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <sys/resource.h>

#include "benchstore.h"
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

/*
 * Bucket of a value: values below 2^BS_HIST_SUB_BITS have one bucket each;
 * above, each power of two [2^e, 2^(e+1)) is split into 2^BS_HIST_SUB_BITS
 * equal buckets.
 */
static inline int
hist_bucket(uint64 v)
{
	int			msb;
	int			shift;

	if (v < (UINT64CONST(1) << BS_HIST_SUB_BITS))
		return (int) v;
	msb = pg_leftmost_one_pos64(v);
	if (msb > BS_HIST_MAX_EXP)
		return BS_HIST_NBUCKETS - 1;
	shift = msb - BS_HIST_SUB_BITS;
	return (shift << BS_HIST_SUB_BITS) + (int) (v >> shift);
}

/* Smallest value of a bucket, and its width. */
static void
hist_bucket_range(int idx, uint64 *low, uint64 *width)
{
	int			shift;

	if (idx < (2 << BS_HIST_SUB_BITS))
	{
		*low = idx;
		*width = 1;
		return;
	}
	shift = (idx >> BS_HIST_SUB_BITS) - 1;
	*low = ((uint64) ((idx & ((1 << BS_HIST_SUB_BITS) - 1)) +
					  (1 << BS_HIST_SUB_BITS))) << shift;
	*width = UINT64CONST(1) << shift;
}

void
bs_hist_reset(BsHistogram *h)
{
	memset(h, 0, sizeof(BsHistogram));
}

void
bs_hist_add(BsHistogram *h, uint64 ns)
{
	h->buckets[hist_bucket(ns)]++;
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

void
bs_hist_merge(BsHistogram *dst, const BsHistogram *src)
{
	if (src->count == 0)
		return;
	for (int i = 0; i < BS_HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

/*
 * The value below which a fraction q of the values lie: the middle of the
 * bucket holding the value of rank ceil(q * count), never above the maximum.
 */
double
bs_hist_percentile_ns(const BsHistogram *h, double q)
{
	uint64		rank;
	uint64		seen = 0;

	if (h->count == 0)
		return 0;
	rank = (uint64) ceil(q * (double) h->count);
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < BS_HIST_NBUCKETS; i++)
	{
		seen += h->buckets[i];
		if (seen >= rank)
		{
			uint64		low;
			uint64		width;
			double		mid;

			hist_bucket_range(i, &low, &width);
			mid = (double) low + (double) (width - 1) / 2.0;
			return Min(mid, (double) h->max_ns);
		}
	}
	return (double) h->max_ns;
}

/*
 * The histogram as JSON for a result column: [[upper bound in µs, count],
 * ...] for the non-empty bins, four bins to a power of two of
 * microseconds (bounds 1, 1.19, 1.41, 1.68, 2, ... µs; below 1 µs one
 * bin).  Each value counts in the bin its histogram bucket starts in.
 */
Datum
bs_hist_jsonb(const BsHistogram *h)
{
	StringInfoData buf;
	uint64		bins[4 * 64 + 1];
	int			top = -1;
	bool		first = true;

	memset(bins, 0, sizeof(bins));
	for (int i = 0; i < BS_HIST_NBUCKETS; i++)
	{
		uint64		low;
		uint64		width;
		double		us;
		int			bin = 0;

		if (h->buckets[i] == 0)
			continue;
		hist_bucket_range(i, &low, &width);
		us = (double) low / 1000.0;
		if (us >= 1.0)
			bin = Min((int) floor(4.0 * log2(us)) + 1, 4 * 64);
		bins[bin] += h->buckets[i];
		top = Max(top, bin);
	}
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	for (int b = 0; b <= top; b++)
	{
		if (bins[b] == 0)
			continue;
		appendStringInfo(&buf, "%s[%.2f, " UINT64_FORMAT "]", first ? "" : ", ",
						 bs_round(pow(2.0, b / 4.0), 2), bins[b]);
		first = false;
	}
	appendStringInfoChar(&buf, ']');
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data));
}
