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
#include "port/pg_bitutils.h"
#include "storage/fd.h"

typedef enum BsOsIoSource
{
	BS_OSIO_UNKNOWN = 0,
	BS_OSIO_PROC,
	BS_OSIO_RUSAGE,
	BS_OSIO_NONE
} BsOsIoSource;

/* Chosen on first use and kept, so that two readings are comparable. */
static BsOsIoSource os_io_source = BS_OSIO_UNKNOWN;

static bool
read_proc_self_io(uint64 *bytes)
{
	FILE	   *f;
	char		line[128];
	bool		found = false;

	f = AllocateFile("/proc/self/io", "r");
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
		if (read_proc_self_io(bytes))
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
			return read_proc_self_io(bytes);
		case BS_OSIO_RUSAGE:
			return read_rusage(bytes);
		default:
			return false;
	}
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
