/*-------------------------------------------------------------------------
 *
 * benchstore.h
 *	  benchstore.c: the module's settings, argument checking, units and
 *	  names, the SQL versions of the entry points, and the wait for a
 *	  parallel run's workers.  Each other room has a header of its own.
 *
 * src/benchstore.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_H
#define BENCHSTORE_H

#include "access/parallel.h"
#include "fmgr.h"
#include "port/atomics.h"
#include "storage/condition_variable.h"

/* MB means 2^20 bytes throughout, as pg_size_pretty does. */
#define BS_BYTES_PER_MB		((double) (1024 * 1024))

/* benchstore.c: settings */
extern bool bs_track_latency;
typedef enum BsQueryText
{
	BS_QUERY_TEXT_NORMALIZED,	/* constants replaced by $1, $2, ... */
	BS_QUERY_TEXT_EXACT
} BsQueryText;
extern int	bs_record_query_text;
extern int	bs_progress_interval_ms;

/*
 * The SQL version whose definition of a function called its C entry point.
 * A function whose arguments or columns changed binds one C symbol per
 * version from 1.2 on (bench_seqscan_1_2, ...), which calls the one
 * internal function with its version.  The released scripts of 1.0 and
 * 1.1 bind one symbol for both versions (bench_seqscan, ...); that legacy
 * entry point asks bs_legacy_sql_version which of the two called it.
 */
typedef enum BsSqlVersion
{
	BS_SQL_1_0 = 10,
	BS_SQL_1_1 = 11,
	BS_SQL_1_2 = 12
} BsSqlVersion;

extern BsSqlVersion bs_legacy_sql_version(FunctionCallInfo fcinfo,
										  int nargs_1_0, int nargs_1_1);

/* benchstore.c: arguments, units, names */
#define BS_MAX_REPEAT		1000	/* runs of one call, bench_seqscan and bench_query */
typedef enum BsCacheState
{
	BS_CACHE_WARM,
	BS_CACHE_COLD
} BsCacheState;
extern const char *const bs_cache_states[2];	/* "warm", "cold", in that order */
extern void bs_require_arg(FunctionCallInfo fcinfo, int argno,
						   const char *argname);
extern int	bs_parse_choice(text *value, const char *argname,
							const char *const *choices, int nchoices);
extern double bs_round(double value, int digits);
extern double bs_per_second(double amount, double elapsed_ms);
extern char *bs_tablespace_name(Oid spcoid);
extern char *bs_tablespace_dir(Oid spcoid);
extern Oid	bs_extension_schema(const char *extname);

/* benchstore.c: a parallel run's workers, ready before its clock starts */
extern void bs_wait_parallel_workers_ready(ParallelContext *pcxt,
										   pg_atomic_uint32 *ready,
										   ConditionVariable *cv,
										   const char *what);

#endif							/* BENCHSTORE_H */
