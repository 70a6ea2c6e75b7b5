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
 * back simply stay cached, which is why the checkpoint comes first.  From
 * PostgreSQL 17 on the target's unpinned shared buffers are evicted too
 * (EvictUnpinnedBuffer); before 17 no buffer of a live relation can be
 * dropped.  Whatever stays cached, in either place, is counted, so that a
 * cold run's row says how cold it was (BsColdState).
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
#include "blockdev.h"
#include "cache.h"
#include "catalog/pg_authid.h"
#include "compat.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "postmaster/bgwriter.h"
#include "storage/buf_internals.h"
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
PG_FUNCTION_INFO_V1(bench_cache_evict_1_2);

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
 * The main forks of a target's relations, as buffer tags name them: one
 * pass over the buffer pool then serves every partition.
 */
typedef struct BsRelKey
{
	Oid			spc;
	Oid			db;
	Oid			relnumber;
	bool		local;
} BsRelKey;

static int
compare_rel_keys(const void *a, const void *b)
{
	const BsRelKey *x = a;
	const BsRelKey *y = b;

	if (x->relnumber != y->relnumber)
		return x->relnumber < y->relnumber ? -1 : 1;
	if (x->db != y->db)
		return x->db < y->db ? -1 : 1;
	if (x->spc != y->spc)
		return x->spc < y->spc ? -1 : 1;
	return 0;
}

static BsRelKey *
target_rel_keys(BsTarget *target, int *nkeys, bool *any_local)
{
	BsRelKey   *keys = palloc(sizeof(BsRelKey) * Max(1, list_length(target->storage_relids)));
	ListCell   *lc;
	int			n = 0;

	*any_local = false;
	foreach(lc, target->storage_relids)
	{
		Relation	rel = relation_open(lfirst_oid(lc), NoLock);

		keys[n].spc = bs_rel_spcoid(rel);
		keys[n].db = bs_rel_dboid(rel);
		keys[n].relnumber = bs_rel_relnumber(rel);
		keys[n].local = RelationUsesLocalBuffers(rel);
		*any_local |= keys[n].local;
		n++;
		relation_close(rel, NoLock);
	}
	qsort(keys, n, sizeof(BsRelKey), compare_rel_keys);
	*nkeys = n;
	return keys;
}

/* Whether a buffer tag names a block of the main fork of one of the keys. */
static bool
tag_is_target_main(const BufferTag *tag, const BsRelKey *keys, int nkeys)
{
	BsRelKey	probe;

	if (bs_buftag_forknum(tag) != MAIN_FORKNUM)
		return false;
	probe.spc = bs_buftag_spcoid(tag);
	probe.db = bs_buftag_dboid(tag);
	probe.relnumber = bs_buftag_relnumber(tag);
	return bsearch(&probe, keys, nkeys, sizeof(BsRelKey), compare_rel_keys) != NULL;
}

/*
 * One pass over shared buffers: count the target's main-fork blocks they
 * hold, evicting the unpinned ones first when asked (17+; a dirty one is
 * written first).  Each candidate is checked without the header lock, as
 * PostgreSQL's own eviction does, then under it.  Returns the blocks left.
 */
static int64
scan_shared_buffers(const BsRelKey *keys, int nkeys, bool evict, int64 *evicted)
{
	int64		left = 0;

	*evicted = 0;
	for (int i = 0; i < NBuffers; i++)
	{
		BufferDesc *desc = GetBufferDescriptor(i);
		uint32		state = pg_atomic_read_u32(&desc->state);
		bool		ours;

		if ((i & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
		if (!(state & BM_VALID) || !tag_is_target_main(&desc->tag, keys, nkeys))
			continue;

#ifdef BS_CAN_EVICT_BUFFERS
		if (evict && BUF_STATE_GET_REFCOUNT(state) == 0)
		{
			bool		dropped;
#if PG_VERSION_NUM >= 180000
			bool		flushed;

			dropped = EvictUnpinnedBuffer(BufferDescriptorGetBuffer(desc), &flushed);
#else
			dropped = EvictUnpinnedBuffer(BufferDescriptorGetBuffer(desc));
#endif
			if (dropped)
			{
				(*evicted)++;
				continue;
			}
		}
#endif

		/* still there, under the header lock? */
		state = LockBufHdr(desc);
		ours = (state & BM_VALID) && tag_is_target_main(&desc->tag, keys, nkeys);
		UnlockBufHdr(desc, state);
		if (ours)
			left++;
	}
	return left;
}

/* The target's main-fork blocks in this session's local buffers. */
static int64
count_local_buffers(const BsRelKey *keys, int nkeys)
{
	int64		n = 0;

	for (int i = 0; i < NLocBuffer; i++)
	{
		BufferDesc *desc = GetLocalBufferDescriptor(i);
		uint32		state = pg_atomic_read_u32(&desc->state);

		if ((state & BM_VALID) && tag_is_target_main(&desc->tag, keys, nkeys))
			n++;
	}
	return n;
}

/*
 * Blocks of the target's main forks in shared buffers now, and (through
 * local_pages) in this session's local buffers.
 */
int64
bs_target_buffered_pages(BsTarget *target, int64 *local_pages)
{
	int			nkeys;
	bool		any_local;
	BsRelKey   *keys = target_rel_keys(target, &nkeys, &any_local);
	int64		evicted;
	int64		shared = scan_shared_buffers(keys, nkeys, false, &evicted);

	*local_pages = any_local ? count_local_buffers(keys, nkeys) : 0;
	pfree(keys);
	return shared;
}

/*
 * The block devices under the target's tablespaces, one stack per
 * filesystem device, for the counts around a cold run (see blockdev.c).
 */
static void
find_target_devices(BsTarget *target, BsColdState *state)
{
	ListCell   *lc;
	List	   *spcs = NIL;

	foreach(lc, target->storage_relids)
	{
		Oid			spc = get_rel_tablespace(lfirst_oid(lc));

		if (!OidIsValid(spc))
			spc = MyDatabaseTableSpace;
		spcs = list_append_unique_oid(spcs, spc);
	}
	/* kept to the end of the run, whatever memory context it runs in */
	state->devices = MemoryContextAllocZero(TopTransactionContext,
											sizeof(BsDevStack) * Max(list_length(spcs), 1));
	state->ndevices = 0;
	foreach(lc, spcs)
	{
		Oid			spc = lfirst_oid(lc);
		BsDevStack *stack = &state->devices[state->ndevices];
		bool		seen = false;

		if (!bs_devstack_find(bs_tablespace_dir(spc), stack))
			continue;
		for (int i = 0; i < state->ndevices; i++)
			seen |= (state->devices[i].devs[0].dev == stack->devs[0].dev);
		if (!seen)
			state->ndevices++;
	}
	list_free(spcs);
}

/* The devices' read counts as a cold run's timed part begins, and ends. */
void
bs_cold_devices_start(BsColdState *state)
{
	for (int i = 0; i < state->ndevices; i++)
		bs_devstack_start(&state->devices[i]);
}

void
bs_cold_devices_stop(BsColdState *state)
{
	for (int i = 0; i < state->ndevices; i++)
		bs_devstack_stop(&state->devices[i]);
}

/* Free them once the run's row is made. */
void
bs_cold_release(BsColdState *state)
{
	if (state->devices)
		pfree(state->devices);
	state->devices = NULL;
	state->ndevices = 0;
}

/*
 * Prepare a cold run: checkpoint, so that nothing of the target is dirty;
 * from PostgreSQL 17 on, evict the target's unpinned shared buffers; then
 * evict every relation of the target from the OS page cache.
 *
 * What stays cached is counted into *state, so that the caller can say so
 * rather than call a partly warm run cold: blocks in shared buffers (all
 * of them before 17, where no buffer of a live relation can be dropped;
 * those other sessions pin from 17 on), in the session's local buffers
 * (temporary tables: no eviction reaches them), and the bytes the kernel
 * kept: pages dirty or under writeback, pages other sessions read again at
 * once, files of an in-memory filesystem.
 */
void
bs_make_target_cold(BsTarget *target, BsColdState *state)
{
	ListCell   *lc;
	int			nkeys;
	bool		any_local;
	BsRelKey   *keys;

	memset(state, 0, sizeof(*state));
	checkpoint_for_cold_run();

	keys = target_rel_keys(target, &nkeys, &any_local);
#ifdef BS_CAN_EVICT_BUFFERS
	state->shared_pages = scan_shared_buffers(keys, nkeys, true,
											  &state->evicted_buffers);
#else
	state->shared_pages = scan_shared_buffers(keys, nkeys, false,
											  &state->evicted_buffers);
#endif

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
		state->os_cached_bytes += cached;
		state->total_pages += (int64) (bytes / BLCKSZ);
		relation_close(rel, NoLock);
	}
	if (any_local)
		state->local_pages = count_local_buffers(keys, nkeys);
	pfree(keys);
	find_target_devices(target, state);
}

/*
 * Share of the target's pages a cache above the storage held when the run
 * began, in %: blocks in shared or local buffers plus the bytes left in
 * the OS page cache, at most all of them.  0 for an empty relation.
 */
double
bs_cold_cached_pct(const BsColdState *state)
{
	double		cached;

	if (state->total_pages <= 0)
		return 0.0;
	cached = (double) (state->shared_pages + state->local_pages) +
		(double) state->os_cached_bytes / BLCKSZ;
	return Min(100.0, 100.0 * cached / state->total_pages);
}

/*
 * The sentences a cold run's row carries about what stayed cached, or
 * NULL when nothing did.
 */
char *
bs_cold_warnings(const BsColdState *state)
{
	StringInfoData buf;
	double		pct = bs_cold_cached_pct(state);

	if (state->shared_pages == 0 && state->local_pages == 0 &&
		state->os_cached_bytes == 0)
		return NULL;

	initStringInfo(&buf);
	if (state->shared_pages > 0)
	{
#ifdef BS_CAN_EVICT_BUFFERS
		appendStringInfo(&buf,
						 "%lld of %lld pages were in shared buffers when the run began: other sessions had them pinned.",
						 (long long) state->shared_pages, (long long) state->total_pages);
#else
		appendStringInfo(&buf,
						 "%lld of %lld pages were in shared buffers when the run began: PostgreSQL %d cannot evict them.",
						 (long long) state->shared_pages, (long long) state->total_pages,
						 PG_VERSION_NUM / 10000);
#endif
	}
	if (state->local_pages > 0)
		appendStringInfo(&buf, "%s%lld of %lld pages were in this session's local buffers (a temporary table's pages stay there).",
						 buf.len > 0 ? " " : "",
						 (long long) state->local_pages, (long long) state->total_pages);
	if (state->os_cached_bytes > 0)
		appendStringInfo(&buf, "%s%.1f MB stayed in the OS page cache after eviction.",
						 buf.len > 0 ? " " : "",
						 state->os_cached_bytes / BS_BYTES_PER_MB);
	if (pct >= BS_NOT_COLD_PCT)
		appendStringInfo(&buf, " This run was not cold: %.1f %% of its pages were cached.", pct);
	return buf.data;
}

/*
 * The cached_pct and warnings columns of a result row: a cold run's
 * figures, NULL for a warm run (state unused then).
 */
void
bs_cold_columns(const BsColdState *state, bool cold,
				Datum *pct, bool *pct_null, Datum *warnings, bool *warnings_null,
				Datum *served_by, bool *served_by_null)
{
	char	   *text = cold ? bs_cold_warnings(state) : NULL;
	const char *source = NULL;
	uint64		reached = 0;

	*pct_null = !cold;
	*pct = cold ? Float8GetDatum(bs_round(bs_cold_cached_pct(state), 1)) : (Datum) 0;

	/*
	 * Where the reads that reached the OS came from: the devices' counts
	 * over the timed run, per filesystem the target lies on.  The run read
	 * through the page cache (or with direct I/O, raw at depth), so each
	 * filesystem device's own count is what it was asked for.
	 */
	for (int i = 0; cold && i < state->ndevices; i++)
	{
		const BsDevStack *stack = &state->devices[i];
		char	   *below = bs_devstack_cache_below(stack,
													stack->devs[0].read_bytes,
													false);

		if (stack->devs[0].valid)
			reached += stack->devs[0].read_bytes;
		elog(DEBUG1, "cold run: devices %s: %s", bs_devstack_describe(stack),
			 bs_devstack_counts(stack));
		if (below == NULL)
			continue;
		source = "cache below";
		text = psprintf("%s%sA cache below the server answered: %s",
						text ? text : "", text ? " " : "", below);
	}
	/*
	 * Nothing to say when nothing reached the devices (the caches above
	 * served the run, as cached_pct says) or none is known (tmpfs, a
	 * network filesystem).
	 */
	if (source == NULL && reached >= BS_DEV_MIN_EVIDENCE_BYTES)
		source = "storage";
	*served_by_null = (source == NULL);
	*served_by = source ? CStringGetTextDatum(source) : (Datum) 0;
	*warnings_null = (text == NULL);
	*warnings = text ? CStringGetTextDatum(text) : (Datum) 0;
}

/*
 * Warn, once per call, that a cold run was not cold, with how to get a
 * cold one on this server.
 */
void
bs_warn_not_cold(const char *what, const BsColdState *state)
{
	const char *hint;

	if (state->shared_pages > 0)
#ifdef BS_CAN_EVICT_BUFFERS
		hint = "Run it again when the sessions that pin the relation's pages are done.";
#else
		hint = "PostgreSQL before 17 cannot drop a relation's shared buffers: restart the server right before a cold run. A relation larger than shared_buffers keeps fewer of its pages there, but not none.";
#endif
	else if (state->local_pages > 0)
		hint = "A temporary table's pages stay in its session's local buffers: for a cold run, use a regular or unlogged table.";
	else if (!enableFsync)
		hint = "fsync is off, so the checkpoint before the eviction did not write the relation to storage.";
	else
		hint = "The kernel keeps pages not yet written back and pages other sessions read again at once, and cannot evict files of an in-memory filesystem such as tmpfs.";

	ereport(WARNING,
			(errmsg("cold run of %s was not cold: %.1f %% of the pages were cached when it began",
					what, bs_cold_cached_pct(state)),
			 errdetail_internal("%s", bs_cold_warnings(state)),
			 errhint("%s", hint)));
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
 *					 OUT os_cached_mb_before float8, OUT os_cached_mb_after float8,
 *					 OUT shared_buffers_mb_before float8,
 *					 OUT shared_buffers_mb_after float8)
 *
 * Checkpoint, then evict the relation's main fork from shared buffers
 * (17+) and from the OS page cache, exactly as a cold bench_seqscan run
 * does before it starts.
 *
 * Entry points: bench_cache_evict_1_2 for 1.2's definition (six columns);
 * bench_cache_evict for the released ones, 1.0's and 1.1's (the first
 * four).
 */
static Datum cache_evict_run(FunctionCallInfo fcinfo, BsSqlVersion version);

Datum
bench_cache_evict_1_2(PG_FUNCTION_ARGS)
{
	return cache_evict_run(fcinfo, BS_SQL_1_2);
}

Datum
bench_cache_evict(PG_FUNCTION_ARGS)
{
	return cache_evict_run(fcinfo, bs_legacy_sql_version(fcinfo, 1, 1));
}

static Datum
cache_evict_run(FunctionCallInfo fcinfo, BsSqlVersion version)
{
	BsTarget   *target;
	int			nfiles;
	uint64		bytes;
	uint64		before;
	uint64		after;
	int64		shared_before;
	int64		local_before;
	BsColdState cold;
	TupleDesc	tupdesc;
	Datum		values[6];
	bool		nulls[6] = {false, false, false, false, false, false};

	bs_require_arg(fcinfo, 0, "relation");
	bs_check_checkpoint_privilege(true);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	target = bs_open_target(PG_GETARG_OID(0), false);

	target_residency(target, &nfiles, &bytes, &before);
	shared_before = bs_target_buffered_pages(target, &local_before);
	bs_make_target_cold(target, &cold);
	bs_cold_release(&cold);
	target_residency(target, &nfiles, &bytes, &after);
	bs_close_target(target);

	values[0] = Int32GetDatum(nfiles);
	values[1] = Float8GetDatum(bytes / BS_BYTES_PER_MB);
	values[2] = Float8GetDatum(before / BS_BYTES_PER_MB);
	values[3] = Float8GetDatum(after / BS_BYTES_PER_MB);
	values[4] = Float8GetDatum((double) (shared_before + local_before) * BLCKSZ / BS_BYTES_PER_MB);
	values[5] = Float8GetDatum((double) (cold.shared_pages + cold.local_pages) * BLCKSZ / BS_BYTES_PER_MB);
	PG_RETURN_DATUM(cache_result(fcinfo, values, nulls,
								 version >= BS_SQL_1_2 ? 6 : 4));
}
