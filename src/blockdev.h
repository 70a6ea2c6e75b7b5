/*-------------------------------------------------------------------------
 *
 * blockdev.h
 *	  The block devices under a directory and their read counts (see
 *	  blockdev.c): the evidence of a cache below the server.
 *
 * src/blockdev.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_BLOCKDEV_H
#define BENCHSTORE_BLOCKDEV_H

#include <sys/types.h>

#define BS_DEV_MAX			8	/* devices followed under one filesystem */
#define BS_DEV_MAX_DEPTH	6	/* layers followed */

/*
 * The leaves under a device must read at least this share of what it read
 * for its reads to count as theirs; below it a cache between answered.
 * Other processes' reads of the leaves count too, so a busy machine can
 * hide a cache (never invent one): half leaves room for as much again of
 * their traffic as the measurement's own.
 */
#define BS_DEV_CACHED_SHARE	0.5

/* Reads smaller than this say nothing against the devices' other traffic. */
#define BS_DEV_MIN_EVIDENCE_BYTES	((uint64) 4 * 1024 * 1024)

typedef struct BsBlockDev
{
	dev_t		dev;
	char		name[64];		/* e.g. loop0, vda, dm-1 */
	char		sysdir[64];		/* /sys/dev/block/MAJ:MIN */
	int			parent;			/* index of the device above; -1: the top */
	int			depth;			/* 0: the filesystem's own device */
	bool		leaf;			/* nothing under it this machine can see */
	bool		page_cached;	/* a loop device reading its file through
								 * the page cache */
	char		backing_file[1024];	/* a loop device's file */
	bool		valid;			/* its counts were read */
	uint64		sectors_before;
	uint64		read_bytes;		/* between start and stop */
} BsBlockDev;

typedef struct BsDevStack
{
	int			ndevs;			/* devs[0] is the filesystem's device */
	BsBlockDev	devs[BS_DEV_MAX];
} BsDevStack;

extern bool bs_devstack_find(const char *path, BsDevStack *stack);
extern void bs_devstack_start(BsDevStack *stack);
extern void bs_devstack_stop(BsDevStack *stack);
extern char *bs_devstack_cache_below(const BsDevStack *stack,
									 uint64 read_bytes, bool direct);
extern char *bs_devstack_counts(const BsDevStack *stack);
extern char *bs_devstack_describe(const BsDevStack *stack);

#endif							/* BENCHSTORE_BLOCKDEV_H */
