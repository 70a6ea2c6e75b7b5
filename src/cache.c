/*-------------------------------------------------------------------------
 *
 * cache.c
 *	  A relation's segment files and the OS page cache: where the files
 *	  are, how much of them the kernel holds in memory, and eviction for
 *	  cold runs.
 *
 * Eviction is posix_fadvise(POSIX_FADV_DONTNEED) on every segment file of
 * the main fork, after a checkpoint has written and synced every dirty
 * shared buffer.  DONTNEED never discards dirty data: pages not yet written
 * back simply stay cached, which is why the checkpoint comes first.  Shared
 * buffers are never dropped; a cold scan bypasses them where PostgreSQL
 * allows (the bulk-read ring) and reports what it still found there.
 *
 * Residency uses mincore() on a PROT_NONE mapping of each segment, read in
 * windows so that the residency vector stays small whatever the file size.
 *
 * src/cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/htup_details.h"
#include "access/relation.h"
#include "benchstore.h"
#include "catalog/pg_authid.h"
#include "compat.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "postmaster/bgwriter.h"
#include "storage/bufmgr.h"
#include "storage/fd.h"
#include "target.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

/* mincore() is asked about this many bytes of a file at a time. */
#define BS_MINCORE_WINDOW	((off_t) 64 * 1024 * 1024)

PG_FUNCTION_INFO_V1(bench_cache_status);
PG_FUNCTION_INFO_V1(bench_cache_evict);

/*
 * Path of segment segno of a fork, given the path of its first segment:
 * "base/5/16384", then "base/5/16384.1" and so on, 1 GB each by default.
 */
char *
bs_segment_path(const char *fork_path, BlockNumber segno)
{
	if (segno == 0)
		return pstrdup(fork_path);
	return psprintf("%s.%u", fork_path, segno);
}

/*
 * Open segment segno of the relation's main fork read-only.  Returns -1
 * when the segment does not exist (the end of the relation); any other
 * failure is an error.  The descriptor is closed automatically on abort.
 */
static int
open_segment(const char *fork_path, BlockNumber segno, char **path)
{
	int			fd;

	*path = bs_segment_path(fork_path, segno);
	fd = OpenTransientFile(*path, O_RDONLY | PG_BINARY);
	if (fd < 0)
	{
		if (errno == ENOENT)
			return -1;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", *path)));
	}
	return fd;
}

static off_t
segment_size(int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat file \"%s\": %m", path)));
	return st.st_size;
}

/*
 * A cold run checkpoints the whole cluster, which only superusers and
 * members of pg_checkpoint may ask for (as the CHECKPOINT command).
 */
void
bs_check_checkpoint_privilege(bool for_eviction)
{
	if (superuser() || has_privs_of_role(GetUserId(), ROLE_PG_CHECKPOINT))
		return;
	if (for_eviction)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to evict a relation from the OS page cache"),
				 errdetail("Eviction needs a checkpoint first, which only superusers and roles with privileges of the \"%s\" role may request.",
						   "pg_checkpoint")));
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to run a cold-cache scan"),
			 errdetail("A cold run evicts the relation from the OS page cache after a checkpoint, which only superusers and roles with privileges of the \"%s\" role may request.",
					   "pg_checkpoint")));
}

/*
 * Write and sync every dirty buffer, unlogged relations' included, so that
 * the eviction that follows leaves nothing of the relation in the OS page
 * cache.
 */
static void
checkpoint_for_cold_run(void)
{
	RequestCheckpoint(BS_CHECKPOINT_NOW | CHECKPOINT_FORCE | CHECKPOINT_WAIT |
					  BS_CHECKPOINT_UNLOGGED);
}

/* Bytes in the main forks of the relations now (locked AccessShare). */
uint64
bs_main_fork_bytes(List *relids)
{
	uint64		bytes = 0;
	ListCell   *lc;

	foreach(lc, relids)
	{
		Relation	rel = relation_open(lfirst_oid(lc), AccessShareLock);

		bytes += (uint64) RelationGetNumberOfBlocks(rel) * BLCKSZ;
		relation_close(rel, NoLock);
	}
	return bytes;
}

/*
 * Prepare a cold run: checkpoint, so that nothing of the target is dirty,
 * then evict every relation of the target from the OS page cache.
 *
 * The kernel keeps pages that are dirty or under writeback, and pages that
 * other sessions read again at once.  Returns how many bytes of the target
 * are still cached right after the eviction, so that the caller can say so
 * rather than call a partly warm run cold.
 */
uint64
bs_make_target_cold(BsTarget *target)
{
	ListCell   *lc;
	uint64		still_cached = 0;

	checkpoint_for_cold_run();
	foreach(lc, target->storage_relids)
	{
		Relation	rel = relation_open(lfirst_oid(lc), NoLock);
		bool		local = RelationUsesLocalBuffers(rel);
		int			nfiles;
		uint64		bytes;
		uint64		cached;

		/*
		 * No checkpoint writes the session's own temporary tables: write
		 * their local buffers here, and sync the files before evicting.
		 */
		if (local)
			FlushRelationBuffers(rel);
		bs_evict_relation(rel, local, &nfiles, &bytes);
		bs_os_cache_residency(rel, &nfiles, &bytes, &cached);
		still_cached += cached;
		relation_close(rel, NoLock);
	}
	return still_cached;
}

/*
 * Warn that a cold run is not entirely cold: part of the relation stayed
 * in the OS page cache after the eviction.
 */
void
bs_warn_still_cached(Relation rel, uint64 cached_bytes)
{
	ereport(WARNING,
			(errmsg("%.1f MB of relation \"%s\" stayed in the OS page cache after eviction",
					cached_bytes / BS_BYTES_PER_MB, RelationGetRelationName(rel)),
			 errdetail("The kernel keeps pages not yet written back to storage and pages that other sessions read again at once, and cannot evict files of an in-memory filesystem such as tmpfs; reads of such pages are page-cache hits."),
			 !enableFsync ?
			 errhint("fsync is off, so the checkpoint before the eviction did not write the relation to storage.") : 0));
}

/*
 * Ask the kernel to drop every segment file of the relation's main fork
 * from its page cache, syncing each first if asked (for files no checkpoint
 * syncs).  Returns the number of files and their total size.
 */
void
bs_evict_relation(Relation rel, bool sync_first, int *nfiles, uint64 *file_bytes)
{
	char	   *fork_path = bs_relation_fork_path(rel, MAIN_FORKNUM);

	*nfiles = 0;
	*file_bytes = 0;
	for (BlockNumber segno = 0;; segno++)
	{
		char	   *path;
		int			fd;

		CHECK_FOR_INTERRUPTS();
		fd = open_segment(fork_path, segno, &path);
		if (fd < 0)
			break;
		*file_bytes += segment_size(fd, path);
		(*nfiles)++;
		if (sync_first && pg_fdatasync(fd) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not fsync file \"%s\": %m", path)));
#ifdef USE_POSIX_FADVISE
		{
			int			rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

			if (rc != 0)
			{
				errno = rc;
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not evict file \"%s\" from the OS page cache: %m",
								path)));
			}
		}
#else
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("evicting files from the OS page cache is not supported on this platform")));
#endif
		CloseTransientFile(fd);
		pfree(path);
	}
	pfree(fork_path);
}

/*
 * How much of the relation's main fork the kernel holds in its page cache.
 */
void
bs_os_cache_residency(Relation rel, int *nfiles, uint64 *file_bytes,
					  uint64 *cached_bytes)
{
	char	   *fork_path = bs_relation_fork_path(rel, MAIN_FORKNUM);
	long		pagesize = sysconf(_SC_PAGESIZE);
	unsigned char *vec = palloc(BS_MINCORE_WINDOW / pagesize + 1);

	*nfiles = 0;
	*file_bytes = 0;
	*cached_bytes = 0;
	for (BlockNumber segno = 0;; segno++)
	{
		char	   *path;
		int			fd;
		off_t		size;

		fd = open_segment(fork_path, segno, &path);
		if (fd < 0)
			break;
		size = segment_size(fd, path);
		*file_bytes += size;
		(*nfiles)++;

		for (off_t off = 0; off < size; off += BS_MINCORE_WINDOW)
		{
			size_t		len = Min(BS_MINCORE_WINDOW, size - off);
			size_t		npages = (len + pagesize - 1) / pagesize;
			void	   *map;
			int			rc;

			CHECK_FOR_INTERRUPTS();
			map = mmap(NULL, len, PROT_NONE, MAP_SHARED, fd, off);
			if (map == MAP_FAILED)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not map file \"%s\": %m", path)));
			rc = mincore(map, len, vec);
			if (rc == 0)
			{
				for (size_t i = 0; i < npages; i++)
					if (vec[i] & 1)
						*cached_bytes += (i == npages - 1) ?
							len - i * pagesize : (size_t) pagesize;
			}
			munmap(map, len);
			if (rc != 0)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not read the page-cache residency of file \"%s\": %m",
								path)));
		}
		CloseTransientFile(fd);
		pfree(path);
	}
	pfree(vec);
	pfree(fork_path);
}

/* Residency of every relation of a target, summed. */
static void
target_residency(BsTarget *target, int *nfiles, uint64 *file_bytes,
				 uint64 *cached_bytes)
{
	ListCell   *lc;

	*nfiles = 0;
	*file_bytes = 0;
	*cached_bytes = 0;
	foreach(lc, target->storage_relids)
	{
		Relation	rel = relation_open(lfirst_oid(lc), NoLock);
		int			n;
		uint64		bytes;
		uint64		cached;

		bs_os_cache_residency(rel, &n, &bytes, &cached);
		*nfiles += n;
		*file_bytes += bytes;
		*cached_bytes += cached;
		relation_close(rel, NoLock);
	}
}

static Datum
cache_result(FunctionCallInfo fcinfo, Datum *values, bool *nulls, int natts)
{
	TupleDesc	tupdesc;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (tupdesc->natts != natts)
		elog(ERROR, "result has %d columns, expected %d", tupdesc->natts, natts);
	return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc),
											 values, nulls));
}

/*
 * bench_cache_status(relation regclass,
 *					  OUT files integer, OUT mb float8, OUT os_cached_mb float8)
 *
 * How much of the relation's main fork (all partitions of a partitioned
 * table) the OS page cache holds now.
 */
Datum
bench_cache_status(PG_FUNCTION_ARGS)
{
	BsTarget   *target;
	int			nfiles;
	uint64		bytes;
	uint64		cached;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	bs_require_arg(fcinfo, 0, "relation");
	target = bs_open_target(PG_GETARG_OID(0), false);
	target_residency(target, &nfiles, &bytes, &cached);
	bs_close_target(target);

	values[0] = Int32GetDatum(nfiles);
	values[1] = Float8GetDatum(bytes / BS_BYTES_PER_MB);
	values[2] = Float8GetDatum(cached / BS_BYTES_PER_MB);
	PG_RETURN_DATUM(cache_result(fcinfo, values, nulls, 3));
}

/*
 * bench_cache_evict(relation regclass,
 *					 OUT files integer, OUT mb float8,
 *					 OUT os_cached_mb_before float8, OUT os_cached_mb_after float8)
 *
 * Checkpoint, then evict the relation's main fork from the OS page cache,
 * exactly as a cold bench_seqscan run does before it starts.
 */
Datum
bench_cache_evict(PG_FUNCTION_ARGS)
{
	BsTarget   *target;
	int			nfiles;
	uint64		bytes;
	uint64		before;
	uint64		after;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};

	bs_require_arg(fcinfo, 0, "relation");
	bs_check_checkpoint_privilege(true);
	target = bs_open_target(PG_GETARG_OID(0), false);

	target_residency(target, &nfiles, &bytes, &before);
	(void) bs_make_target_cold(target);
	target_residency(target, &nfiles, &bytes, &after);
	bs_close_target(target);

	values[0] = Int32GetDatum(nfiles);
	values[1] = Float8GetDatum(bytes / BS_BYTES_PER_MB);
	values[2] = Float8GetDatum(before / BS_BYTES_PER_MB);
	values[3] = Float8GetDatum(after / BS_BYTES_PER_MB);
	PG_RETURN_DATUM(cache_result(fcinfo, values, nulls, 4));
}
