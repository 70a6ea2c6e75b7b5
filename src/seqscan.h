/*-------------------------------------------------------------------------
 *
 * seqscan.h
 *	  What seqscan.c (bench_seqscan) shares with seqscan_parallel.c (its
 *	  parallel workers): scan modes and the parallel scan (the reads every
 *	  process runs are in scan_reads.h).
 *
 * src/seqscan.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_SEQSCAN_H
#define BENCHSTORE_SEQSCAN_H

#include "io_engine.h"
#include "progress.h"
#include "scan_reads.h"
#include "access/relscan.h"
#include "portability/instr_time.h"
#include "storage/bufpage.h"
#include "target.h"
#include "utils/snapshot.h"

typedef enum BsScanMode
{
	BS_MODE_HEAP,
	BS_MODE_BUFFER,
	BS_MODE_RAW
} BsScanMode;

/* seqscan_parallel.c: begin and start (untimed), run (timed), end */
typedef struct BsParallelScanData BsParallelScan;

extern BsParallelScan *bs_parallel_scan_begin(BsTarget *target,
											  BsScanMode mode, bool cold,
											  Snapshot snapshot, int nworkers,
											  int iodepth);
extern void bs_parallel_scan_start(BsParallelScan *ps);
extern void bs_parallel_scan_run(BsParallelScan *ps, BsScanTotals *totals,
								 BsProgress *progress, char *raw_buffer,
								 BsIoEngine *engine);
extern void bs_parallel_scan_end(BsParallelScan *ps);

#endif							/* BENCHSTORE_SEQSCAN_H */
