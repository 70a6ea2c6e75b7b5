/*-------------------------------------------------------------------------
 *
 * bench_driver.c
 *	  The steps every benchmark call shares: the call recorded, its result
 *	  set checked and registered, its client watched, its settings for the
 *	  call only, its rows put; and for the benchmarks that read relations,
 *	  each run measured (clock, buffer usage, the kernel's reads, the
 *	  devices, the time series), repeated, made cold and warned about, and
 *	  its common columns filled.  See bench_driver.h for the protocol.
 *
 * The order of the end matters: GUC nest levels unwind last in, first
 * out, and the call's own settings (bs_bench_set) are set after the
 * client watch's (bs_bench_rows); the call is recorded after its settings
 * are undone, so that its settings snapshot shows the session's values,
 * not the call's, and before the watch ends, so that a client gone while
 * it is recorded is noticed.
 *
 * src/bench_driver.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "bench_driver.h"
#include "benchstore.h"
#include "compat.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/guc.h"

/* Begin a call: it is recorded unless record is false (history.c). */
void
bs_bench_begin(BsBench *b, FunctionCallInfo fcinfo, const char *benchmark,
			   int label_argno, int record_argno)
{
	memset(b, 0, sizeof(*b));
	b->fcinfo = fcinfo;
	bs_run_begin(&b->history, fcinfo, benchmark, label_argno, record_argno);
}

/*
 * A setting for the call only, such as a read stream's depth, once the
 * rows have begun (bs_bench_rows); back to the session's value at
 * bs_bench_end, or with the transaction on an error.
 */
void
bs_bench_set(BsBench *b, const char *name, const char *value)
{
	Assert(b->rsinfo != NULL);
	if (b->settings_nest == 0)
		b->settings_nest = NewGUCNestLevel();
	(void) set_config_option(name, value, PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
}

/*
 * The result set.  The installed SQL definition decides the row: that of
 * the newest version has ncols columns, an older one still installed
 * (before ALTER EXTENSION UPDATE) may have ncols_older; the library fills
 * what the definition has.  The row type is registered now, before any
 * parallel mode, since the history keeps rows as JSON (history.c).  From
 * here the client is watched.
 */
void
bs_bench_rows(BsBench *b, const char *function, int ncols, int ncols_older)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) b->fcinfo->resultinfo;
	int			natts;

	InitMaterializedSRF(b->fcinfo, 0);
	natts = rsinfo->setDesc->natts;
	if (natts != ncols && natts != ncols_older)
	{
		if (ncols == ncols_older)
			elog(ERROR, "%s: result has %d columns, expected %d",
				 function, natts, ncols);
		else
			elog(ERROR, "%s: result has %d columns, expected %d or %d",
				 function, natts, ncols, ncols_older);
	}
	BlessTupleDesc(rsinfo->setDesc);
	b->history.desc_blessed = true;
	b->rsinfo = rsinfo;
	b->call_context = CurrentMemoryContext;
	bs_client_watch_begin(&b->client);
}

/* A row, into the result and the history, with its time series (or NULL). */
void
bs_bench_put_row(BsBench *b, Datum *values, bool *nulls,
				 const BsSeries *series)
{
	bs_run_put_row_series(&b->history, b->rsinfo, values, nulls, series);
}

/* Say once per call that a cold run was not cold (cache.c says why). */
void
bs_bench_warn_not_cold(BsBench *b, const BsColdState *cold, const char *what)
{
	if (b->warned_not_cold || bs_cold_cached_pct(cold) < BS_NOT_COLD_PCT)
		return;
	bs_warn_not_cold(what, cold);
	b->warned_not_cold = true;
}

/* End the call: its settings undone, its record, then the watch. */
void
bs_bench_end(BsBench *b)
{
	if (b->settings_nest > 0)
		AtEOXact_GUC(true, b->settings_nest);
	b->settings_nest = 0;
	bs_run_finish(&b->history);
	bs_client_watch_end(&b->client);
}

/*
 * Start a run's clock.  Everything untimed (a cold run's eviction, workers
 * starting, buffers mapped) is done before: what follows is the clock and
 * the counters it is read with.
 */
void
bs_measure_start(BsMeasure *m, BsColdState *cold,
				 const BsMeasureSampling *sampling)
{
	memset(m, 0, sizeof(*m));
	m->cold = cold;
	m->bu_start = pgBufferUsage;
	bs_os_reads_start(&m->os_reads);
	if (cold)
		bs_cold_devices_start(cold);
	INSTR_TIME_SET_CURRENT(m->start);
	bs_series_init(&m->series);
	if (sampling)
	{
		bs_sampler_begin(&m->sampler, sampling->interval_us,
						 sampling->counts_fn, sampling->counts_arg,
						 &m->series, sampling->what);
		m->sampling = true;
		m->progress = sampling->progress;
		if (m->progress && sampling->interval_us > 0)
			m->progress->sampler = &m->sampler;
	}
}

/*
 * Stop a run's clock, and read the counters: the caller's buffer usage,
 * and what the kernel read for the run, checked against what the run says
 * it read (iostat.c): others_os_read is what its workers' own counters
 * said (others_os_known false: one could not tell), buffer_reads whether
 * its reads went through shared or local buffers, scanned_bytes the most
 * it could have read.
 */
void
bs_measure_stop(BsMeasure *m, bool buffer_reads, uint64 others_os_read,
				bool others_os_known, uint64 scanned_bytes)
{
	instr_time	elapsed;

	if (m->progress)
		bs_progress_flush(m->progress);
	if (m->sampling)
		bs_sampler_end(&m->sampler);
	if (m->progress)
		m->progress->sampler = NULL;
	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, m->start);
	m->elapsed_ms = INSTR_TIME_GET_MILLISEC(elapsed);
	if (m->cold)
		bs_cold_devices_stop(m->cold);
	memset(&m->bu, 0, sizeof(m->bu));
	BufferUsageAccumDiff(&m->bu, &pgBufferUsage, &m->bu_start);
	m->os_known = bs_os_reads_end(&m->os_reads, others_os_read,
								  buffer_reads ?
								  (uint64) (m->bu.shared_blks_read +
											m->bu.local_blks_read) * BLCKSZ : 0,
								  scanned_bytes, &m->os_read) &&
		others_os_known;
}

/* The columns every relation-reading row has, from its measure. */
static void
common_columns(const BsBenchRuns *runs, BsBenchRun *r, Datum *values,
			   bool *nulls)
{
	const BsBenchColumns *c = &runs->columns;
	const BsMeasure *m = &r->measure;

	values[c->run] = Int32GetDatum(r->run);
	values[c->elapsed_ms] = Float8GetDatum(bs_round(m->elapsed_ms, 3));
	values[c->blks_hit] = Int64GetDatum(m->bu.shared_blks_hit + m->bu.local_blks_hit);
	values[c->blks_read] = Int64GetDatum(m->bu.shared_blks_read + m->bu.local_blks_read);
	if (track_io_timing)
		values[c->read_ms] = Float8GetDatum(bs_round(bs_buffer_read_time_ms(&m->bu), 3));
	else
		nulls[c->read_ms] = true;
	if (m->os_known)
		values[c->os_read_mb] = Float8GetDatum(m->os_read / BS_BYTES_PER_MB);
	else
		nulls[c->os_read_mb] = true;
	bs_cold_columns(&r->cold, runs->cold,
					&values[c->cached_pct], &nulls[c->cached_pct],
					&values[c->cached_pct + 1], &nulls[c->cached_pct + 1],
					&values[c->cached_pct + 2], &nulls[c->cached_pct + 2]);
}

/*
 * The runs of a call, each with a row: made cold first (cache => 'cold'),
 * run and measured by the benchmark, its row filled by the driver and
 * then the benchmark, put, and what the cold preparation held released.
 */
void
bs_bench_run_all(BsBench *b, const BsBenchRuns *runs, const BsBenchOps *ops,
				 void *state)
{
	Datum	   *values = palloc(sizeof(Datum) * runs->ncols);
	bool	   *nulls = palloc(sizeof(bool) * runs->ncols);
	MemoryContext runcxt = NULL;
	BsBenchRun *r = palloc(sizeof(BsBenchRun));

	Assert(b->rsinfo != NULL);
	if (runs->run_context)
		runcxt = AllocSetContextCreate(CurrentMemoryContext, "benchstore run",
									   ALLOCSET_DEFAULT_SIZES);
	for (int run = 1; run <= runs->repeat; run++)
	{
		CHECK_FOR_INTERRUPTS();
		memset(r, 0, sizeof(*r));
		r->run = run;
		if (runcxt)
			MemoryContextSwitchTo(runcxt);
		if (runs->cold && runs->target)
		{
			bs_make_target_cold(runs->target, &r->cold);
			if (runs->cold_files_only)
				r->cold.shared_pages = r->cold.local_pages = 0;
			bs_bench_warn_not_cold(b, &r->cold, runs->cold_what);
		}

		ops->run(state, r);

		if (runs->cold && runs->target == NULL)
			bs_bench_warn_not_cold(b, &r->cold, runs->cold_what);
		memset(values, 0, sizeof(Datum) * runs->ncols);
		memset(nulls, 0, sizeof(bool) * runs->ncols);
		common_columns(runs, r, values, nulls);
		ops->row(state, r, values, nulls);
		bs_cold_release(&r->cold);

		/* the row is copied into the result and the history */
		if (runcxt)
			MemoryContextSwitchTo(b->call_context);
		bs_bench_put_row(b, values, nulls, &r->measure.series);
		if (runcxt)
			MemoryContextReset(runcxt);
	}
	if (runcxt)
		MemoryContextDelete(runcxt);
	pfree(values);
	pfree(nulls);
	pfree(r);
}
