/*-------------------------------------------------------------------------
 *
 * scan_reads.h
 *	  The reads a scan of a relation is made of (scan_reads.c): per-run
 *	  totals, tuple and line-pointer counts, raw reads of segment files.
 *
 * src/scan_reads.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_SCAN_READS_H
#define BENCHSTORE_SCAN_READS_H

#include "io_engine.h"
#include "access/relscan.h"
#include "portability/instr_time.h"
#include "progress.h"
#include "storage/bufpage.h"
#include "utils/rel.h"

/* Chunk read by one system call in raw mode; also the interrupt interval. */
#define BS_RAW_CHUNK		(1024 * 1024)
/* Alignment of the raw read buffer, enough for O_DIRECT. */
#define BS_IO_ALIGN			4096
/* Most parallel workers one scan (bench_seqscan, bench_randread) may ask for. */
#define BS_MAX_SCAN_WORKERS	64

/* What one run of one relation read, in one process or in all. */
typedef struct BsScanTotals
{
	int64		pages;
	int64		tuples;			/* -1: not counted in this mode */
	int64		raw_blocks;		/* blocks read from files in raw mode */
	instr_time	raw_io_time;	/* raw mode read time, with track_io_timing */
	double		worker_io_ms;	/* raw mode read time of the workers */
	uint64		worker_os_read; /* bytes the workers' kernels read */
	bool		worker_os_known;	/* false if a worker could not tell */
	int			workers_launched;
} BsScanTotals;

/* A chunk of a segment file for bs_raw_read_depth. */
typedef struct BsRawChunk
{
	int			fd;
	const char *path;
	off_t		offset;
	size_t		len;			/* at most BS_RAW_CHUNK */
	BlockNumber block;			/* the relation's block at offset */
	BlockNumber expected;		/* blocks the relation should have */
} BsRawChunk;

/* What a BsRawNextFn did. */
typedef enum BsRawNext
{
	BS_RAW_NEXT_CHUNK,			/* *chunk is the next chunk to read */
	BS_RAW_NEXT_WAIT,			/* a file is to be closed: call again once
								 * nothing is in flight */
	BS_RAW_NEXT_END				/* no chunk is left, every file is closed */
} BsRawNext;

/*
 * Hands out the next chunk.  A file is closed only when the engine has no
 * operation in flight (bs_io_engine_inflight(engine) == 0): an operation
 * on it may be issued again on its descriptor (io_engine.c).  Until then
 * it returns BS_RAW_NEXT_WAIT, which it does only with operations in
 * flight.
 */
typedef BsRawNext (*BsRawNextFn) (void *arg, BsIoEngine *engine,
								  BsRawChunk *chunk);

/* scan_reads.c */
struct ParallelTableScanDescData;
extern int64 bs_count_heap_tuples(TableScanDesc scan,
								  struct ParallelTableScanDescData *pscan,
								  BsProgress *progress);
extern int	bs_count_line_pointers(Page page);
extern ssize_t bs_raw_read(int fd, const char *path, char *buffer,
						   off_t offset, size_t want, BsScanTotals *totals);
extern int	bs_raw_open_depth(const char *path);
extern void bs_raw_fewer_blocks(Relation rel, const char *path,
								BlockNumber expected, BlockNumber found);
extern void bs_raw_read_depth(Relation rel, BsIoEngine *engine,
							  BsRawNextFn next, void *arg,
							  bool count_tuples, int64 *blocks, int64 *nlp,
							  BsScanTotals *totals, BsProgress *progress);

#endif							/* BENCHSTORE_SCAN_READS_H */
