/*-------------------------------------------------------------------------
 *
 * iostat.c
 *	  What the kernel really did for this backend.
 *
 * PostgreSQL's "blocks read" counts shared-buffer misses, and a miss may
 * still be a hit in the OS page cache.  To tell a page-cache hit from a
 * storage read, benchstore diffs the bytes the kernel fetched from storage
 * for this process: /proc/self/io read_bytes where the kernel provides it,
 * getrusage() block input operations (512-byte units) otherwise.
 *
 * src/iostat.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/resource.h>

#include "benchstore.h"
#include "storage/fd.h"

typedef enum BsOsIoSource
{
	BS_OSIO_UNKNOWN = 0,
	BS_OSIO_PROC,
	BS_OSIO_RUSAGE,
	BS_OSIO_NONE
} BsOsIoSource;

/* Chosen on first use and kept, so that two readings are comparable. */
static BsOsIoSource os_io_source = BS_OSIO_UNKNOWN;

static bool
read_proc_self_io(uint64 *bytes)
{
	FILE	   *f;
	char		line[128];
	bool		found = false;

	f = AllocateFile("/proc/self/io", "r");
	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL)
	{
		unsigned long long v;

		if (sscanf(line, "read_bytes: %llu", &v) == 1)
		{
			*bytes = (uint64) v;
			found = true;
			break;
		}
	}
	FreeFile(f);
	return found;
}

static bool
read_rusage(uint64 *bytes)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return false;
	*bytes = (uint64) ru.ru_inblock * 512;
	return true;
}

/*
 * Bytes this backend has read from storage so far.  Returns false when the
 * platform cannot tell, in which case callers report NULL.
 */
bool
bs_os_read_bytes(uint64 *bytes)
{
	if (os_io_source == BS_OSIO_UNKNOWN)
	{
		if (read_proc_self_io(bytes))
			os_io_source = BS_OSIO_PROC;
		else if (read_rusage(bytes))
			os_io_source = BS_OSIO_RUSAGE;
		else
			os_io_source = BS_OSIO_NONE;
		return os_io_source != BS_OSIO_NONE;
	}

	switch (os_io_source)
	{
		case BS_OSIO_PROC:
			return read_proc_self_io(bytes);
		case BS_OSIO_RUSAGE:
			return read_rusage(bytes);
		default:
			return false;
	}
}
