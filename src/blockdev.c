/*-------------------------------------------------------------------------
 *
 * blockdev.c
 *	  The block devices under a directory, as far down as this machine can
 *	  see them, and how much each read during a measurement: the evidence
 *	  that a cache below the server answered reads that looked like the
 *	  storage's.
 *
 * The filesystem holding a path sits on one block device (stat's st_dev,
 * /sys/dev/block/MAJ:MIN).  Under it, Linux says what it is built on: a
 * loop device reads its backing file (loop/backing_file), through that
 * file's page cache unless it does direct I/O (loop/dio); a device-mapper
 * or md device reads its members (slaves/).  A device with nothing under it
 * is a leaf: a disk, a partition, or what a hypervisor presents as one.
 *
 * Each device's stat file counts the sectors it read (512 bytes each,
 * whatever the device's block size).  When a measurement's reads reached
 * the top device but the leaves under it read much less, something between
 * them answered: the page cache holding a loop device's backing file, or
 * any cache in memory between two layers.  (A cache that is a device, such
 * as dm-cache's or bcache's SSD, is a leaf itself: its reads count as
 * device reads.)  When the top device itself read much less than the measurement
 * did with direct I/O, the filesystem (or a cache inside it) answered.
 *
 * What this cannot see: a cache below the last device this machine knows
 * of (a hypervisor's cache, a volume's, an array's), and other processes'
 * reads of the same devices, which only make the leaves look busier (so
 * they can hide a cache, never invent one).
 *
 * src/blockdev.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "blockdev.h"
#include "catalog/pg_authid.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/acl.h"

/* Read a small sysfs file into buf, without its trailing newline. */
static bool
read_sys_file(const char *path, char *buf, size_t len)
{
	int			fd;
	ssize_t		n;

	fd = OpenTransientFile(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	CloseTransientFile(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return true;
}

/* Sectors read so far by the device whose sysfs directory is dir. */
static bool
read_sectors(const char *dir, uint64 *sectors)
{
	char		path[MAXPGPATH];
	char		buf[512];
	unsigned long long ios,
				merges,
				sect;

	snprintf(path, sizeof(path), "%s/stat", dir);
	if (!read_sys_file(path, buf, sizeof(buf)))
		return false;
	if (sscanf(buf, "%llu %llu %llu", &ios, &merges, &sect) != 3)
		return false;
	*sectors = (uint64) sect;
	return true;
}

static int	add_device(BsDevStack *stack, dev_t dev, int parent, int depth);

/* The devices under the device at index i, added after it. */
static void
add_children(BsDevStack *stack, int i, int depth)
{
	BsBlockDev *d = &stack->devs[i];
	char		path[MAXPGPATH];
	char		buf[MAXPGPATH];
	struct stat st;
	DIR		   *dir;
	struct dirent *de;

	/* a loop device: the device holding its backing file */
	snprintf(path, sizeof(path), "%s/loop/backing_file", d->sysdir);
	if (read_sys_file(path, buf, sizeof(buf)))
	{
		char	   *deleted = strstr(buf, " (deleted)");

		if (deleted)
			*deleted = '\0';
		strlcpy(d->backing_file, buf, sizeof(d->backing_file));
		snprintf(path, sizeof(path), "%s/loop/dio", d->sysdir);
		d->page_cached = !(read_sys_file(path, buf, sizeof(buf)) &&
						   strcmp(buf, "1") == 0);
		if (stat(d->backing_file, &st) == 0)
			add_device(stack, st.st_dev, i, depth + 1);
		return;
	}

	/* device-mapper, md: their members */
	snprintf(path, sizeof(path), "%s/slaves", d->sysdir);
	dir = AllocateDir(path);
	if (dir == NULL)
		return;
	while ((de = ReadDirExtended(dir, path, LOG)) != NULL)
	{
		unsigned int maj,
					min;
		char		devpath[MAXPGPATH];

		if (de->d_name[0] == '.')
			continue;
		snprintf(devpath, sizeof(devpath), "/sys/class/block/%s/dev", de->d_name);
		if (read_sys_file(devpath, buf, sizeof(buf)) &&
			sscanf(buf, "%u:%u", &maj, &min) == 2)
			add_device(stack, makedev(maj, min), i, depth + 1);
	}
	FreeDir(dir);
}

/* Add one device (and what is under it); its index, or -1. */
static int
add_device(BsDevStack *stack, dev_t dev, int parent, int depth)
{
	BsBlockDev *d;
	char		resolved[PATH_MAX];
	char	   *slash;
	int			i;

	if (stack->ndevs >= BS_DEV_MAX || depth > BS_DEV_MAX_DEPTH)
		return -1;
	for (i = 0; i < stack->ndevs; i++)
		if (stack->devs[i].dev == dev)
			return -1;			/* already seen: not a new layer */

	i = stack->ndevs;
	d = &stack->devs[i];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	d->parent = parent;
	d->depth = depth;
	snprintf(d->sysdir, sizeof(d->sysdir), "/sys/dev/block/%u:%u",
			 major(dev), minor(dev));
	if (!read_sectors(d->sysdir, &d->sectors_before))
		return -1;				/* not a block device Linux describes */
	if (realpath(d->sysdir, resolved) != NULL &&
		(slash = strrchr(resolved, '/')) != NULL)
		strlcpy(d->name, slash + 1, sizeof(d->name));
	else
		snprintf(d->name, sizeof(d->name), "%u:%u", major(dev), minor(dev));
	stack->ndevs++;

	add_children(stack, i, depth);
	d->leaf = true;
	for (int j = i + 1; j < stack->ndevs; j++)
		if (stack->devs[j].parent == i)
			d->leaf = false;
	return i;
}

/*
 * The devices under path's filesystem.  False when there is none Linux
 * describes (tmpfs, a network filesystem, ZFS, no /sys): then nothing can be
 * said from the counters.
 */
bool
bs_devstack_find(const char *path, BsDevStack *stack)
{
	struct stat st;

	memset(stack, 0, sizeof(*stack));
	if (stat(path, &st) != 0)
		return false;
	return add_device(stack, st.st_dev, -1, 0) == 0;
}

/* Take every device's read count as the measurement begins. */
void
bs_devstack_start(BsDevStack *stack)
{
	for (int i = 0; i < stack->ndevs; i++)
	{
		BsBlockDev *d = &stack->devs[i];

		d->valid = read_sectors(d->sysdir, &d->sectors_before);
		d->read_bytes = 0;
	}
}

/* And as it ends: the bytes each read in between. */
void
bs_devstack_stop(BsDevStack *stack)
{
	for (int i = 0; i < stack->ndevs; i++)
	{
		BsBlockDev *d = &stack->devs[i];
		uint64		after;

		if (d->valid && read_sectors(d->sysdir, &after) &&
			after >= d->sectors_before)
			d->read_bytes = (after - d->sectors_before) * 512;
		else
			d->valid = false;
	}
}

static char *
mb_text(uint64 bytes)
{
	double		mb = bytes / (1024.0 * 1024.0);

	return psprintf(mb < 10 ? "%.1f MB" : "%.0f MB", mb);
}

/*
 * Whether the devices' counts show a cache below the server answering the
 * measurement's reads of read_bytes through the top device (direct: the
 * reads bypassed the OS page cache, so the filesystem's device must have
 * read them all).  Returns the evidence in words when they do, else NULL.
 */
char *
bs_devstack_cache_below(const BsDevStack *stack, uint64 read_bytes,
						bool direct)
{
	const BsBlockDev *top;
	uint64		leaves = 0;
	int			nleaves = 0;
	const BsBlockDev *cached_loop = NULL;
	StringInfoData names;

	if (stack->ndevs == 0 || read_bytes < BS_DEV_MIN_EVIDENCE_BYTES)
		return NULL;
	top = &stack->devs[0];
	if (!top->valid)
		return NULL;

	/* the filesystem answered without its device */
	if (direct && top->read_bytes * 2 < read_bytes)
		return psprintf("%s of direct reads reached the filesystem's device %s as only %s: the filesystem or a cache inside it answered the rest.",
						mb_text(read_bytes), top->name, mb_text(top->read_bytes));
	if (top->read_bytes * 2 < read_bytes || stack->ndevs == 1)
		return NULL;

	initStringInfo(&names);
	for (int i = 1; i < stack->ndevs; i++)
	{
		const BsBlockDev *d = &stack->devs[i];

		if (stack->devs[d->parent].page_cached && cached_loop == NULL)
			cached_loop = &stack->devs[d->parent];
		if (!d->leaf)
			continue;
		if (!d->valid)
			return NULL;
		leaves += d->read_bytes;
		appendStringInfo(&names, "%s%s", nleaves > 0 ? ", " : "", d->name);
		nleaves++;
	}
	if (nleaves == 0 || (double) leaves >= BS_DEV_CACHED_SHARE * top->read_bytes)
		return NULL;

	if (cached_loop != NULL)
		return psprintf("%s read %s, but %s under it read %s: the page cache holding %s's backing file answered the rest.",
						top->name, mb_text(top->read_bytes), names.data,
						mb_text(leaves), cached_loop->name);
	return psprintf("%s read %s, but the device%s under it (%s) read %s: a cache between them answered the rest.",
					top->name, mb_text(top->read_bytes),
					nleaves > 1 ? "s" : "", names.data, mb_text(leaves));
}

/* Each device's reads between start and stop: "loop0 64 MB, vda 0.0 MB". */
char *
bs_devstack_counts(const BsDevStack *stack)
{
	StringInfoData s;

	initStringInfo(&s);
	for (int i = 0; i < stack->ndevs; i++)
	{
		const BsBlockDev *d = &stack->devs[i];

		appendStringInfo(&s, "%s%s %s", i > 0 ? ", " : "", d->name,
						 d->valid ? mb_text(d->read_bytes) : "unknown");
	}
	return s.data;
}

/*
 * The stack in words, top first: "loop0 (file /x, page-cached) > vda".
 * A backing file's path is a path on the server: shown only to a role
 * that may read the server's settings (data_directory is shown to the
 * same roles), "(a file, page-cached)" to others.
 */
char *
bs_devstack_describe(const BsDevStack *stack)
{
	StringInfoData s;
	bool		paths = has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_SETTINGS);

	initStringInfo(&s);
	for (int i = 0; i < stack->ndevs; i++)
	{
		const BsBlockDev *d = &stack->devs[i];

		appendStringInfo(&s, "%s%s", i > 0 ? " > " : "", d->name);
		if (d->backing_file[0])
			appendStringInfo(&s, " (%s%s%s)", paths ? "file " : "a file",
							 paths ? d->backing_file : "",
							 d->page_cached ? ", page-cached" : ", direct I/O");
	}
	return s.data;
}
