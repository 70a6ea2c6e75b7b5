/*-------------------------------------------------------------------------
 *
 * attribution.h
 *	  Where a read of a block was served: shared buffers, the OS page cache
 *	  or the device (attribution.c).
 *
 * src/attribution.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BS_ATTRIBUTION_H
#define BS_ATTRIBUTION_H

#include "histogram.h"
#include "utils/rel.h"

typedef enum BsReadClass
{
	BS_READ_SHARED_BUFFERS,		/* found in shared (or local) buffers */
	BS_READ_PAGE_CACHE,			/* asked of the kernel, every page resident */
	BS_READ_DEVICE,				/* asked of the kernel, a page not resident */
	BS_READ_NCLASSES
} BsReadClass;

extern const char *const bs_read_class_names[BS_READ_NCLASSES];

/* One segment file's PROT_NONE mapping, for mincore(). */
typedef struct BsSegmentMap
{
	void	   *map;			/* NULL: not mapped yet */
	size_t		len;
} BsSegmentMap;

/* The page-cache residency of one relation's main fork, block by block. */
typedef struct BsResidency
{
	char	   *fork_path;
	long		pagesize;
	int			nsegs;			/* entries of segs */
	BsSegmentMap *segs;
	bool		failed;			/* mincore() unavailable: residency unknown */
	MemoryContextCallback unmap_on_reset;
} BsResidency;

extern BsResidency *bs_residency_open(Relation rel);
extern int	bs_block_resident(BsResidency *r, BlockNumber blkno);
extern void bs_residency_close(BsResidency *r);

/* Reads counted and timed per class. */
typedef struct BsReadClasses
{
	bool		known;			/* page cache told from device */
	uint64		reads[BS_READ_NCLASSES];
	BsHistogram hist[BS_READ_NCLASSES];
} BsReadClasses;

extern void bs_read_classes_reset(BsReadClasses *c);
extern void bs_read_classes_add(BsReadClasses *c, BsReadClass cls,
								bool timed, uint64 ns);
extern Datum bs_read_classes_jsonb(const BsReadClasses *c);
extern char *bs_read_classes_kernel_check(const BsReadClasses *c,
										  uint64 os_read_bytes,
										  uint64 readahead_bytes);
extern char *bs_readahead_note(const BsReadClasses *c, uint64 readahead_bytes);

#endif							/* BS_ATTRIBUTION_H */
