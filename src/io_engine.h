/*-------------------------------------------------------------------------
 *
 * io_engine.h
 *	  The code that issues and reaps benchstore's own file I/O: one
 *	  operation at a time with pread/pwrite (depth 1), or many in flight
 *	  through io_uring (depth > 1).  Used by the tablespace tests
 *	  (tblspc_io.c) and raw scans (seqscan.c, seqscan_parallel.c).
 *
 * src/io_engine.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_IO_ENGINE_H
#define BENCHSTORE_IO_ENGINE_H

#include "portability/instr_time.h"

#define BS_MIN_IODEPTH		1
#define BS_MAX_IODEPTH		256

/*
 * The most memory the I/O buffers of one call may take: iodepth × block
 * size (rounded up to 4 kB) × the engines the call holds at once, one per
 * stream or, for a raw scan, per process (workers + 1).  Checked before
 * anything is written; the buffers mapped are exactly that.
 */
#define BS_MAX_IO_BUFFER_BYTES	((uint64) 1024 * 1024 * 1024)

/* Depth 1: one read or write, completed whatever the short transfers. */
extern ssize_t bs_io_sync_rw(int fd, char *buffer, size_t len, off_t offset,
							 bool write);

/* Depth > 1 */
typedef struct BsIoEngine BsIoEngine;

typedef struct BsIoCompletion
{
	int			slot;			/* the buffer it used, 0 .. depth - 1 */
	uint64		tag;			/* what the caller passed to prep */
	off_t		offset;
	size_t		requested;
	size_t		done;			/* bytes transferred; < requested: a read
								 * that met the end of the file */
	int			error;			/* errno, or 0 */
	uint64		latency_ns;		/* first submission to last completion */
} BsIoCompletion;

extern void bs_io_check_depth(int iodepth, const char *argname);
extern uint64 bs_io_buffer_bytes(int iodepth, uint64 block_size);
extern void bs_io_check_buffer_memory(int iodepth, uint64 block_size,
									  int processes, const char *what,
									  const char *hint);
extern BsIoEngine *bs_io_engine_create(int depth, size_t buffer_size);
extern void bs_io_engine_destroy(BsIoEngine *engine);
extern char *bs_io_engine_buffer(BsIoEngine *engine, int slot);
extern int	bs_io_engine_free_slot(BsIoEngine *engine);
extern int	bs_io_engine_inflight(BsIoEngine *engine);
extern void bs_io_engine_prep(BsIoEngine *engine, int slot, int fd,
							  bool write, off_t offset, size_t len,
							  uint64 tag);
extern int	bs_io_engine_reap(BsIoEngine *engine, BsIoCompletion *out,
							  int max);

#endif							/* BENCHSTORE_IO_ENGINE_H */
