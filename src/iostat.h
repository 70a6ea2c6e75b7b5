/*-------------------------------------------------------------------------
 *
 * iostat.h
 *	  iostat.c: what the kernel read from storage for this backend and,
 *	  on 18 with io_method = worker, for the I/O workers.
 *
 * src/iostat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_IOSTAT_H
#define BENCHSTORE_IOSTAT_H


/* iostat.c: what the kernel really did for this backend */
extern bool bs_os_read_bytes(uint64 *bytes);

/*
 * iostat.c: what the kernel read from storage for one measured call: this
 * process, plus, on PostgreSQL 18 with io_method = worker, what the I/O
 * worker processes read meanwhile (see iostat.c for how exact that is).
 */
#define BS_MAX_IO_WORKERS	64

typedef struct BsOsReads
{
	bool		known;			/* false: the caller reports NULL */
	uint64		self_start;		/* this process's read_bytes at the start */
	int			nio_workers;	/* I/O workers seen at the start */
	int			io_worker_pid[BS_MAX_IO_WORKERS];
	uint64		io_worker_start[BS_MAX_IO_WORKERS];
} BsOsReads;

extern void bs_os_reads_start(BsOsReads *r);
extern bool bs_os_reads_end(BsOsReads *r, uint64 others_bytes,
							uint64 buffer_read_bytes, uint64 scanned_bytes,
							uint64 *bytes);

#endif							/* BENCHSTORE_IOSTAT_H */
