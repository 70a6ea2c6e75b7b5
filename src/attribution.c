/*-------------------------------------------------------------------------
 *
 * attribution.c
 *	  Where each read of a block was served: shared buffers, the OS page
 *	  cache, or the device.
 *
 * A read found in shared (or local) buffers is a shared-buffer read.  A
 * read PostgreSQL asks of the kernel is a page-cache read when every OS
 * page of the block was resident in the page cache before the read was
 * asked, and a device read otherwise.  Residency is asked of mincore() on
 * a PROT_NONE mapping of the segment file: the mapping is never touched,
 * so asking neither faults a page in nor marks it accessed.  The caller
 * asks at the moment the read is handed to the server: right before a
 * read at depth 1, before the block is announced (PrefetchBuffer) or
 * handed to a read stream at depth.  So a block the server's own look-ahead
 * brought in is still counted as the device read it was.
 *
 * Each segment is mapped once, on its first question, over the file's
 * size then; a later block beyond it maps the segment again.  The
 * mappings are undone by bs_residency_close, or, if the call ends in an
 * error, when its memory context goes: a mapping holds its file, and a
 * dropped relation's space would otherwise stay allocated until the
 * backend exits.
 *
 * Also the per-class counts and latency histograms, as JSON, and the check
 * of the device reads against the kernel's own count of what it read from
 * storage for the call (iostat.c).
 *
 * src/attribution.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <math.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attribution.h"
#include "benchstore.h"
#include "cache.h"
#include "compat.h"
#include "histogram.h"
#include "lib/stringinfo.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

const char *const bs_read_class_names[BS_READ_NCLASSES] = {
	"shared_buffers", "page_cache", "device"
};

/* Share of the kernel's count the device reads may differ by unremarked. */
#define BS_KERNEL_CHECK_PCT		5.0
/* Below this many blocks on both sides the check says nothing. */
#define BS_KERNEL_CHECK_MIN_BLOCKS	64

static void
residency_unmap(BsResidency *r)
{
	for (int i = 0; i < r->nsegs; i++)
	{
		if (r->segs[i].map != NULL)
			munmap(r->segs[i].map, r->segs[i].len);
		r->segs[i].map = NULL;
	}
	r->nsegs = 0;
}

static void
residency_reset_callback(void *arg)
{
	residency_unmap((BsResidency *) arg);
}

/*
 * Residency of a relation's main fork, in CurrentMemoryContext; its
 * mappings go with that context if bs_residency_close is not reached.
 */
BsResidency *
bs_residency_open(Relation rel)
{
	BsResidency *r = palloc0(sizeof(BsResidency));

	r->fork_path = bs_relation_fork_path(rel, MAIN_FORKNUM);
	r->pagesize = sysconf(_SC_PAGESIZE);
	if (r->pagesize <= 0 || BLCKSZ / r->pagesize > 64)
		r->failed = true;
	r->unmap_on_reset.func = residency_reset_callback;
	r->unmap_on_reset.arg = r;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, &r->unmap_on_reset);
	return r;
}

void
bs_residency_close(BsResidency *r)
{
	residency_unmap(r);
}

/* Map segment segno over its size now; false if it is gone or empty. */
static bool
map_segment(BsResidency *r, BlockNumber segno)
{
	char	   *path = bs_segment_path(r->fork_path, segno);
	int			fd;
	struct stat st;
	BsSegmentMap *seg;

	if (segno >= r->nsegs)
	{
		int			n = Max(segno + 1, 4);

		r->segs = r->segs == NULL ? palloc0(sizeof(BsSegmentMap) * n) :
			repalloc(r->segs, sizeof(BsSegmentMap) * n);
		for (int i = r->nsegs; i < n; i++)
			r->segs[i].map = NULL;
		r->nsegs = n;
	}
	seg = &r->segs[segno];
	if (seg->map != NULL)
	{
		munmap(seg->map, seg->len);
		seg->map = NULL;
	}

	fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
	if (fd < 0)
	{
		if (errno == ENOENT)
			return false;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", path)));
	}
	if (fstat(fd, &st) < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat file \"%s\": %m", path)));
	if (st.st_size > 0)
	{
		void	   *map = mmap(NULL, st.st_size, PROT_NONE, MAP_SHARED, fd, 0);

		if (map == MAP_FAILED)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not map file \"%s\": %m", path)));
		seg->map = map;
		seg->len = st.st_size;
	}
	CloseTransientFile(fd);
	pfree(path);
	return seg->map != NULL;
}

/*
 * Is block blkno of the main fork in the OS page cache, every OS page of
 * it?  1 yes, 0 no (or not in the file), -1 unknown (mincore() failed:
 * the answer stays unknown for the rest of the call).
 */
int
bs_block_resident(BsResidency *r, BlockNumber blkno)
{
	BlockNumber segno = blkno / RELSEG_SIZE;
	size_t		offset = (size_t) (blkno % RELSEG_SIZE) * BLCKSZ;
	size_t		first = offset / r->pagesize;
	size_t		last = (offset + BLCKSZ - 1) / r->pagesize;
	unsigned char vec[64 + 1];
	BsSegmentMap *seg;

	if (r->failed)
		return -1;
	if (segno >= r->nsegs || r->segs[segno].map == NULL ||
		offset + BLCKSZ > r->segs[segno].len)
	{
		if (!map_segment(r, segno))
			return 0;
		if (offset + BLCKSZ > r->segs[segno].len)
			return 0;
	}
	seg = &r->segs[segno];
	if (mincore((char *) seg->map + first * r->pagesize,
				(last - first + 1) * r->pagesize, vec) != 0)
	{
		elog(DEBUG1, "mincore on \"%s\" failed: %m", r->fork_path);
		r->failed = true;
		return -1;
	}
	for (size_t i = 0; i <= last - first; i++)
		if ((vec[i] & 1) == 0)
			return 0;
	return 1;
}

void
bs_read_classes_reset(BsReadClasses *c)
{
	memset(c, 0, sizeof(BsReadClasses));
	c->known = true;
}

void
bs_read_classes_add(BsReadClasses *c, BsReadClass cls, bool timed, uint64 ns)
{
	c->reads[cls]++;
	if (timed)
		bs_hist_add(&c->hist[cls], ns);
}

static void
append_us(StringInfo buf, const char *key, double ns)
{
	appendStringInfo(buf, ", \"%s\": %.1f", key, bs_round(ns / 1000.0, 1));
}

/*
 * {"shared_buffers": {"reads": N, "lat_avg_us": ..., "lat_p50_us": ...,
 * "lat_p95_us": ..., "lat_p99_us": ...}, "page_cache": {...}, "device":
 * {...}}; latencies only where reads were timed.  Without residency, the
 * kernel's two classes are one, "os".
 */
Datum
bs_read_classes_jsonb(const BsReadClasses *c)
{
	StringInfoData buf;
	BsHistogram *os = NULL;
	int			nclasses = c->known ? BS_READ_NCLASSES : 2;

	if (!c->known)
	{
		os = palloc(sizeof(BsHistogram));
		memcpy(os, &c->hist[BS_READ_PAGE_CACHE], sizeof(BsHistogram));
		bs_hist_merge(os, &c->hist[BS_READ_DEVICE]);
	}
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (int i = 0; i < nclasses; i++)
	{
		const BsHistogram *h = (os != NULL && i == 1) ? os : &c->hist[i];
		uint64		reads = (os != NULL && i == 1) ?
			c->reads[BS_READ_PAGE_CACHE] + c->reads[BS_READ_DEVICE] : c->reads[i];

		appendStringInfo(&buf, "%s\"%s\": {\"reads\": " UINT64_FORMAT,
						 i > 0 ? ", " : "",
						 (os != NULL && i == 1) ? "os" : bs_read_class_names[i],
						 reads);
		if (h->count > 0)
		{
			append_us(&buf, "lat_avg_us", (double) h->sum_ns / h->count);
			append_us(&buf, "lat_p50_us", bs_hist_percentile_ns(h, 0.50));
			append_us(&buf, "lat_p95_us", bs_hist_percentile_ns(h, 0.95));
			append_us(&buf, "lat_p99_us", bs_hist_percentile_ns(h, 0.99));
		}
		appendStringInfoChar(&buf, '}');
	}
	appendStringInfoChar(&buf, '}');
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data));
}

/*
 * The device reads against what the kernel says it read from storage for
 * the call, on a cold run: the device reads plus the kernel's read-ahead
 * into the relation (what it brought into the page cache beyond the blocks
 * asked for, from the relation's residency before and after) should be
 * what the kernel counted.  NULL when they agree within BS_KERNEL_CHECK_PCT
 * (or both are too small to judge), else a sentence for the warnings
 * column.
 */
char *
bs_read_classes_kernel_check(const BsReadClasses *c, uint64 os_read_bytes,
							 uint64 readahead_bytes)
{
	double		device = (double) c->reads[BS_READ_DEVICE] * BLCKSZ;
	double		expected = device + (double) readahead_bytes;
	double		kernel = (double) os_read_bytes;
	double		diff = kernel - expected;

	if (!c->known)
		return NULL;
	if (Max(expected, kernel) < (double) BS_KERNEL_CHECK_MIN_BLOCKS * BLCKSZ)
		return NULL;
	if (fabs(diff) <= Max(expected, kernel) * BS_KERNEL_CHECK_PCT / 100.0)
		return NULL;
	if (diff > 0)
		return psprintf("The kernel read %.2f MB from storage for the call, %.1f%% more than its " UINT64_FORMAT " device reads and its read-ahead into the relation (%.2f MB): other sessions' reads through the I/O workers, or reads of other files, were counted.",
						kernel / BS_BYTES_PER_MB,
						expected > 0 ? diff * 100.0 / expected : 100.0,
						c->reads[BS_READ_DEVICE], expected / BS_BYTES_PER_MB);
	return psprintf("The kernel read %.2f MB from storage for the call, %.1f%% less than its " UINT64_FORMAT " device reads and its read-ahead into the relation (%.2f MB): blocks of which part was already cached (the kernel read only the rest), pages dropped from the page cache during the run, or a filesystem whose reads the kernel does not count here (network, FUSE).",
					kernel / BS_BYTES_PER_MB, -diff * 100.0 / expected,
					c->reads[BS_READ_DEVICE], expected / BS_BYTES_PER_MB);
}

/*
 * The kernel's read-ahead, when it read much beyond the device reads
 * asked for: a sentence for the warnings column, or NULL.
 */
char *
bs_readahead_note(const BsReadClasses *c, uint64 readahead_bytes)
{
	double		device = (double) c->reads[BS_READ_DEVICE] * BLCKSZ;

	if (!c->known || readahead_bytes < (uint64) BS_KERNEL_CHECK_MIN_BLOCKS * BLCKSZ ||
		(double) readahead_bytes <= device * BS_KERNEL_CHECK_PCT / 100.0)
		return NULL;
	return psprintf("The kernel read ahead %.2f MB beyond the " UINT64_FORMAT " device reads asked for (%.1f%% more): Linux reads ahead around a read without a prefetch hint when the pages before it are cached, and " UINT64_FORMAT " of the reads found blocks it had read ahead.",
					(double) readahead_bytes / BS_BYTES_PER_MB,
					c->reads[BS_READ_DEVICE],
					device > 0 ? (double) readahead_bytes * 100.0 / device : 100.0,
					c->reads[BS_READ_PAGE_CACHE]);
}
