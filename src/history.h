/*-------------------------------------------------------------------------
 *
 * history.h
 *	  history.c: every call recorded in bench_run and bench_result, with
 *	  its arguments, settings, rows and time series.
 *
 * src/history.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_HISTORY_H
#define BENCHSTORE_HISTORY_H

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "nodes/pg_list.h"

/*
 * history.c: recording a call in the history tables.  See history.c for
 * the protocol: bs_run_begin, bs_run_target/_tablespace/_arg_*, then each
 * result row through bs_run_put_row, then bs_run_finish.
 */
struct ReturnSetInfo;

typedef struct BsRun
{
	const char *benchmark;		/* seqscan, tablespace_io, ... */
	char	   *label;			/* NULL: none */
	bool		record;			/* false: record => false */
	TimestampTz started_at;
	Oid			userid;			/* who ran it */
	Oid			fn_oid;			/* the SQL function called, in the extension's schema */
	const char *target_kind;	/* relation, tablespace or other */
	char	   *target;
	Oid			target_oid;
	List	   *tablespaces;	/* OIDs, for the settings snapshot */
	StringInfoData args;		/* JSON object members */
	List	   *tuples;			/* result rows kept for the history */
	StringInfoData rows;		/* JSON array members, one per result row */
	int			nrows;
	int			nput;			/* rows put so far */
	StringInfoData samples;		/* JSON array members, one per sample (1.2) */
	int			nsamples;
	bool		desc_blessed;
} BsRun;

extern void bs_run_begin(BsRun *run, FunctionCallInfo fcinfo,
						 const char *benchmark, int label_argno,
						 int record_argno);
extern void bs_run_target(BsRun *run, const char *kind, const char *name,
						  Oid oid);
extern void bs_run_tablespace(BsRun *run, Oid spc);
extern void bs_run_arg_text(BsRun *run, const char *key, const char *value);
extern void bs_run_arg_int(BsRun *run, const char *key, int64 value);
extern void bs_run_arg_bool(BsRun *run, const char *key, bool value);
extern void bs_run_arg_json(BsRun *run, const char *key, const char *json);
extern void bs_run_arg_sample_interval(BsRun *run, int64 interval_us);
extern void bs_run_put_row(BsRun *run, struct ReturnSetInfo *rsinfo,
						   Datum *values, bool *nulls);
struct BsSeries;
extern void bs_run_put_row_series(BsRun *run, struct ReturnSetInfo *rsinfo,
								  Datum *values, bool *nulls,
								  const struct BsSeries *series);
extern int64 bs_run_finish(BsRun *run);

#endif							/* BENCHSTORE_HISTORY_H */
