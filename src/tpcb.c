/*-------------------------------------------------------------------------
 *
 * tpcb.c
 *	  bench_tpcb: pgbench's TPC-B-like transaction, run by N clients inside
 *	  the server (src/sessions.c: dynamic background workers connected as
 *	  the caller) on pgbench's four tables, for a duration: transactions
 *	  per second without and with the clients' start, the transaction
 *	  latency's percentiles and histogram, the clients' own buffer hits and
 *	  reads, what the kernel read for them, the WAL they wrote, and the
 *	  checkpoints during the run.
 *
 * The tables are pgbench's (pgbench -i) or bench_generate_tpcb's, in one
 * schema; the scale is the number of branches, as pgbench reads it.  Each
 * client prepares pgbench's statements once (as pgbench -M prepared does),
 * then runs, until told to stop, pgbench's built-in "TPC-B (sort of)"
 * script with its random values drawn as pgbench draws them:
 *
 *	aid in 1 .. 100000 * scale, bid in 1 .. scale, tid in 1 .. 10 * scale,
 *	delta in -5000 .. 5000;
 *	BEGIN;
 *	UPDATE pgbench_accounts SET abalance = abalance + delta WHERE aid = aid;
 *	SELECT abalance FROM pgbench_accounts WHERE aid = aid;
 *	UPDATE pgbench_tellers SET tbalance = tbalance + delta WHERE tid = tid;
 *	UPDATE pgbench_branches SET bbalance = bbalance + delta WHERE bid = bid;
 *	INSERT INTO pgbench_history (tid, bid, aid, delta, mtime)
 *		VALUES (tid, bid, aid, delta, CURRENT_TIMESTAMP);
 *	END;
 *
 * A transaction's latency runs from its start to its commit's return:
 * pgbench's, less the client's network round trips and parsing.  Like
 * pgbench, a run writes into those tables (balances and history rows);
 * it creates nothing and leaves nothing of its own behind.
 *
 * A ramp, and steady state judged on transactions per second, WAL MB per
 * second or mean latency, are src/sessions.c's and src/steady.c's, as for
 * bench_commit; each client restarts its buffer and kernel read counts
 * where it sees the ramp end.
 *
 * src/tpcb.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "benchstore.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_namespace.h"
#include "bench_driver.h"
#include "common/pg_prng.h"
#include "compat.h"
#include "executor/instrument.h"
#include "funcapi.h"
#include "histogram.h"
#include "history.h"
#include "iostat.h"
#include "miscadmin.h"
#include "safe_spi.h"
#include "series.h"
#include "session_limits.h"
#include "sessions.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(bench_tpcb);
PGDLLEXPORT void bench_tpcb_session_worker(Datum main_arg);

/* pgbench's scaling rules */
#define TPCB_ACCOUNTS_PER_BRANCH	100000
#define TPCB_TELLERS_PER_BRANCH		10

static const char *const tpcb_tables[] = {
	"pgbench_accounts", "pgbench_tellers", "pgbench_branches", "pgbench_history"
};

/* Result columns, in the order of the OUT parameters. */
enum
{
	COL_CLIENTS,
	COL_SCALE,
	COL_SCHEMA,
	COL_TABLESPACE,
	COL_INDEX_TABLESPACE,
	COL_ELAPSED_MS,
	COL_CONNECT_MS,
	COL_TRANSACTIONS,
	COL_TPS,
	COL_TPS_WITH_CONNECT,
	COL_LAT_AVG_MS,
	COL_LAT_P50_MS,
	COL_LAT_P95_MS,
	COL_LAT_P99_MS,
	COL_LAT_MAX_MS,
	COL_BLKS_HIT,
	COL_BLKS_READ,
	COL_OS_READ_MB,
	COL_WAL_BYTES,
	COL_WAL_BYTES_PER_TX,
	COL_WAL_FPI,
	COL_WAL_FLUSHES,
	COL_CHECKPOINTS,
	COL_STEADY_STATE,
	COL_STEADY_AT_MS,
	COL_STEADY_CRITERION,
	COL_HISTOGRAM,
	COL_NOTES,
	BS_TPCB_NCOLS
};

/* The five statements of pgbench's script, prepared once per client. */
typedef struct TpcbPlans
{
	SPIPlanPtr	update_account;
	SPIPlanPtr	select_account;
	SPIPlanPtr	update_teller;
	SPIPlanPtr	update_branch;
	SPIPlanPtr	insert_history;
} TpcbPlans;

/* keep: for the whole session (a client); otherwise checked and let go */
static bool prepare_keep;

static SPIPlanPtr
prepare_kept(const char *sql, int nargs, Oid *argtypes)
{
	SPIPlanPtr	plan = bs_spi_prepare(sql, nargs, argtypes);

	if (plan == NULL)
		elog(ERROR, "could not prepare \"%s\": %s", sql,
			 SPI_result_code_string(SPI_result));
	if (prepare_keep && SPI_keepplan(plan) != 0)
		elog(ERROR, "could not keep the plan of \"%s\"", sql);
	return plan;
}

/*
 * Prepare pgbench's statements on the tables of schema nsp (quoted), their
 * operators qualified (they are prepared under the safe search_path, too).
 */
static void
prepare_tpcb(TpcbPlans *p, const char *nsp, bool keep)
{
	Oid			delta_id[2] = {INT4OID, INT8OID};
	Oid			id[1] = {INT8OID};
	Oid			history[4] = {INT4OID, INT4OID, INT8OID, INT4OID};

	prepare_keep = keep;

	p->update_account = prepare_kept(psprintf("UPDATE %s.pgbench_accounts SET abalance = abalance OPERATOR(pg_catalog.+) $1 "
											  "WHERE aid OPERATOR(pg_catalog.=) $2", nsp),
									 2, delta_id);
	p->select_account = prepare_kept(psprintf("SELECT abalance FROM %s.pgbench_accounts WHERE aid OPERATOR(pg_catalog.=) $1", nsp),
									 1, id);
	p->update_teller = prepare_kept(psprintf("UPDATE %s.pgbench_tellers SET tbalance = tbalance OPERATOR(pg_catalog.+) $1 "
											 "WHERE tid OPERATOR(pg_catalog.=) $2", nsp),
									2, delta_id);
	p->update_branch = prepare_kept(psprintf("UPDATE %s.pgbench_branches SET bbalance = bbalance OPERATOR(pg_catalog.+) $1 "
											 "WHERE bid OPERATOR(pg_catalog.=) $2", nsp),
									2, delta_id);
	p->insert_history = prepare_kept(psprintf("INSERT INTO %s.pgbench_history (tid, bid, aid, delta, mtime) "
											  "VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)", nsp),
									 4, history);
}

static void
run_plan(SPIPlanPtr plan, Datum *args, int expected)
{
	int			rc = bs_spi_execute_plan(plan, args, NULL, false, 0);

	if (rc != expected)
		elog(ERROR, "a TPC-B statement returned %s", SPI_result_code_string(rc));
}

/*
 * One of pgbench's transactions, its random values drawn from prng, timed
 * from its start to its commit's return and counted.
 */
static void
run_tpcb_transaction(BsSessionsShared *sh, BsSessionSlot *slot,
					 const TpcbPlans *plans, pg_prng_state *prng)
{
	int64		accounts = (int64) TPCB_ACCOUNTS_PER_BRANCH * sh->scale;
	int64		tellers = (int64) TPCB_TELLERS_PER_BRANCH * sh->scale;
	WalUsage	before = pgWalUsage;
	int64		aid = (int64) pg_prng_uint64_range(prng, 1, accounts);
	int32		bid = (int32) pg_prng_uint64_range(prng, 1, sh->scale);
	int32		tid = (int32) pg_prng_uint64_range(prng, 1, tellers);
	int32		delta = (int32) pg_prng_uint64_range(prng, 0, 10000) - 5000;
	Datum		args[4];
	instr_time	t0;
	instr_time	t1;
	BsSpi		spi;

	if (sh->track_latency)
		INSTR_TIME_SET_CURRENT(t0);
	StartTransactionCommand();
	bs_spi_connect(&spi);
	PushActiveSnapshot(GetTransactionSnapshot());
	args[0] = Int32GetDatum(delta);
	args[1] = Int64GetDatum(aid);
	run_plan(plans->update_account, args, SPI_OK_UPDATE);
	run_plan(plans->select_account, &args[1], SPI_OK_SELECT);
	args[1] = Int64GetDatum((int64) tid);
	run_plan(plans->update_teller, args, SPI_OK_UPDATE);
	args[1] = Int64GetDatum((int64) bid);
	run_plan(plans->update_branch, args, SPI_OK_UPDATE);
	args[0] = Int32GetDatum(tid);
	args[1] = Int32GetDatum(bid);
	args[2] = Int64GetDatum(aid);
	args[3] = Int32GetDatum(delta);
	run_plan(plans->insert_history, args, SPI_OK_INSERT);
	bs_spi_finish(&spi);
	PopActiveSnapshot();
	CommitTransactionCommand();
	if (sh->track_latency)
	{
		INSTR_TIME_SET_CURRENT(t1);
		bs_session_latency(slot, bs_instr_time_ns(t1) - bs_instr_time_ns(t0));
	}
	bs_session_count(sh, slot, &before);
}

/* One client: pgbench's transaction, again and again, until told to stop. */
static void
tpcb_session_run(BsSessionsShared *sh, BsSessionSlot *slot, int n)
{
	TpcbPlans	plans;
	pg_prng_state prng;
	instr_time	last_check;
	BufferUsage buffers_before;
	uint64		os_before = 0;
	bool		os_known;
	bool		reads_from_ramp = false;
	BsSpi		spi;

	StartTransactionCommand();
	bs_spi_connect(&spi);
	PushActiveSnapshot(GetTransactionSnapshot());
	prepare_tpcb(&plans, quote_identifier(sh->nspname), true);
	bs_spi_finish(&spi);
	PopActiveSnapshot();
	CommitTransactionCommand();
	pg_prng_seed(&prng, sh->seed ^ ((uint64) (n + 1) * UINT64CONST(0x9E3779B97F4A7C15)));

	bs_session_ready_and_wait(sh, slot);

	buffers_before = pgBufferUsage;
	os_known = bs_os_read_bytes(&os_before);
	INSTR_TIME_SET_CURRENT(last_check);
	for (;;)
	{
		bool		more = bs_session_keep_going(sh, slot, &last_check);

		/* the ramp's end, seen there: the reads count from here */
		if (slot->ramped && !reads_from_ramp)
		{
			buffers_before = pgBufferUsage;
			os_known = bs_os_read_bytes(&os_before);
			reads_from_ramp = true;
		}
		if (!more)
			break;
		run_tpcb_transaction(sh, slot, &plans, &prng);
	}

	slot->blks_hit = pgBufferUsage.shared_blks_hit - buffers_before.shared_blks_hit;
	slot->blks_read = pgBufferUsage.shared_blks_read - buffers_before.shared_blks_read;
	if (os_known)
	{
		uint64		os_after;

		slot->os_read_known = bs_os_read_bytes(&os_after);
		slot->os_read_bytes = os_after - os_before;
	}
}

/*
 * Entry point of a bench_tpcb client: a dynamic background worker, started
 * and run by src/sessions.c with this workload's body.
 */
void
bench_tpcb_session_worker(Datum main_arg)
{
	bs_session_main(main_arg, tpcb_session_run);
}

/* ---------------------------------------------------------------------
 * The caller
 * ---------------------------------------------------------------------
 */

/* A table of pgbench's, in nspoid: it must exist and be a table. */
static Oid
tpcb_table(Oid nspoid, const char *relname, AclMode needed)
{
	Oid			relid = get_relname_relid(relname, nspoid);
	char		relkind;
	AclResult	aclresult;

	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation \"%s.%s\" does not exist", get_namespace_name(nspoid), relname),
				 errhint("Generate pgbench's tables with bench_generate_tpcb(scale => 10), or with pgbench -i.")));
	relkind = get_rel_relkind(relid);
	if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s.%s\" is not a table", get_namespace_name(nspoid), relname)));
	/* each right on its own: a check of several passes on any one of them */
	for (AclMode bit = 1; bit != 0 && bit <= needed; bit <<= 1)
	{
		if ((needed & bit) == 0)
			continue;
		aclresult = pg_class_aclcheck(relid, GetUserId(), bit);
		if (aclresult != ACLCHECK_OK)
			aclcheck_error(aclresult, OBJECT_TABLE, relname);
	}
	return relid;
}

/*
 * No code another role wrote may run as the caller.  The clients run
 * pgbench's statements as the caller, and with them whatever the tables
 * carry: triggers, rules, row-level security policies, column defaults,
 * check constraints, index expressions, domain checks.  A function (or an
 * operator's function) those use that belongs neither to the caller nor to
 * a superuser would run with the caller's rights: a role that can create
 * tables where the caller's search_path finds pgbench_accounts could have
 * a superuser run its trigger.  Refused, naming the function and its
 * owner, before any client starts (pgbench itself would run it).  Tables
 * of the caller's own, pgbench -i's and bench_generate_tpcb's carry none.
 */
static void
refuse_foreign_code(List *relids)
{
	BsSpi		spi;
	Oid			types[2] = {OIDARRAYOID, OIDOID};
	Datum		values[2];
	Datum	   *elems;
	int			n = 0;
	ListCell   *lc;
	char	   *found = NULL;
	MemoryContext outer = CurrentMemoryContext;

	elems = palloc(sizeof(Datum) * list_length(relids));
	foreach(lc, relids)
		elems[n++] = ObjectIdGetDatum(lfirst_oid(lc));
	values[0] = PointerGetDatum(construct_array(elems, n, OIDOID, sizeof(Oid), true, TYPALIGN_INT));
	values[1] = ObjectIdGetDatum(GetUserId());

	bs_spi_connect(&spi);
	if (bs_spi_execute_with_args(
			"WITH rel AS (SELECT pg_catalog.unnest($1) AS oid),"
			" part AS ("		/* what belongs to the tables and runs with their DML */
			"  SELECT 'pg_catalog.pg_trigger'::pg_catalog.regclass::pg_catalog.oid AS classid, t.oid AS objid FROM pg_catalog.pg_trigger t"
			"   WHERE t.tgrelid OPERATOR(pg_catalog.=) ANY (SELECT oid FROM rel) AND NOT t.tgisinternal"
			"  UNION ALL SELECT 'pg_catalog.pg_rewrite'::pg_catalog.regclass::pg_catalog.oid, r.oid FROM pg_catalog.pg_rewrite r"
			"   WHERE r.ev_class OPERATOR(pg_catalog.=) ANY (SELECT oid FROM rel)"
			"  UNION ALL SELECT 'pg_catalog.pg_policy'::pg_catalog.regclass::pg_catalog.oid, p.oid FROM pg_catalog.pg_policy p"
			"   WHERE p.polrelid OPERATOR(pg_catalog.=) ANY (SELECT oid FROM rel)"
			"  UNION ALL SELECT 'pg_catalog.pg_attrdef'::pg_catalog.regclass::pg_catalog.oid, a.oid FROM pg_catalog.pg_attrdef a"
			"   WHERE a.adrelid OPERATOR(pg_catalog.=) ANY (SELECT oid FROM rel)"
			"  UNION ALL SELECT 'pg_catalog.pg_constraint'::pg_catalog.regclass::pg_catalog.oid, c.oid FROM pg_catalog.pg_constraint c"
			"   WHERE c.conrelid OPERATOR(pg_catalog.=) ANY (SELECT oid FROM rel)"
			"  UNION ALL SELECT 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid, i.indexrelid FROM pg_catalog.pg_index i"
			"   WHERE i.indrelid OPERATOR(pg_catalog.=) ANY (SELECT oid FROM rel)"
			" ),"
			" fn AS ("				/* the functions they call, directly or as an operator's */
			"  SELECT d.refobjid AS fn FROM part JOIN pg_catalog.pg_depend d"
			"   ON d.classid OPERATOR(pg_catalog.=) part.classid AND d.objid OPERATOR(pg_catalog.=) part.objid"
			"  WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid"
			"  UNION ALL SELECT o.oprcode::pg_catalog.oid FROM part JOIN pg_catalog.pg_depend d"
			"   ON d.classid OPERATOR(pg_catalog.=) part.classid AND d.objid OPERATOR(pg_catalog.=) part.objid"
			"  JOIN pg_catalog.pg_operator o ON o.oid OPERATOR(pg_catalog.=) d.refobjid"
			"  WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass::pg_catalog.oid"
			"  UNION ALL SELECT t.tgfoid FROM pg_catalog.pg_trigger t"
			"   WHERE t.tgrelid OPERATOR(pg_catalog.=) ANY (SELECT oid FROM rel) AND NOT t.tgisinternal"
			" ),"
			" typ AS ("				/* the columns' types: a domain's checks run too */
			"  SELECT a.atttypid FROM pg_catalog.pg_attribute a"
			"   WHERE a.attrelid OPERATOR(pg_catalog.=) ANY (SELECT oid FROM rel)"
			"     AND a.attnum OPERATOR(pg_catalog.>) 0::pg_catalog.int2 AND NOT a.attisdropped"
			" )"
			" SELECT pg_catalog.format('function %s of role %s', p.oid::pg_catalog.regprocedure, pg_catalog.quote_ident(r.rolname))"
			"   FROM fn JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) fn.fn"
			"   JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) p.proowner"
			"  WHERE NOT r.rolsuper AND r.oid OPERATOR(pg_catalog.<>) $2"
			" UNION ALL"
			" SELECT pg_catalog.format('type %s of role %s', y.oid::pg_catalog.regtype, pg_catalog.quote_ident(r.rolname))"
			"   FROM typ JOIN pg_catalog.pg_type y ON y.oid OPERATOR(pg_catalog.=) typ.atttypid"
			"   JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) y.typowner"
			"  WHERE NOT r.rolsuper AND r.oid OPERATOR(pg_catalog.<>) $2"
			" LIMIT 1",
			2, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not look for code in pgbench's tables");
	if (SPI_processed > 0)
		found = MemoryContextStrdup(outer, SPI_getvalue(SPI_tuptable->vals[0],
														SPI_tuptable->tupdesc, 1));
	bs_spi_finish(&spi);
	if (found)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("pgbench's tables would run the %s as you", found),
				 errdetail("bench_tpcb's clients run the tables' triggers, rules, policies, defaults, checks and index expressions with your rights, as pgbench's would; code of a role that is neither you nor a superuser is not run so."),
				 errhint("Run bench_tpcb as that role, or on tables of your own (bench_generate_tpcb).")));
}

/* A tablespace's name, the database's default for InvalidOid. */
static Datum
tablespace_datum(Oid spc)
{
	return DirectFunctionCall1(namein,
							   CStringGetDatum(bs_tablespace_name(OidIsValid(spc) ? spc : MyDatabaseTableSpace)));
}

/*
 * bench_tpcb(clients integer DEFAULT 8, duration interval DEFAULT '60s',
 *			  schema name DEFAULT NULL, label text DEFAULT NULL,
 *			  record boolean DEFAULT true,
 *			  sample_interval interval DEFAULT '1s', ramp interval DEFAULT NULL,
 *			  until text DEFAULT 'duration', steady text DEFAULT NULL,
 *			  steady_window interval DEFAULT '30s')
 *	RETURNS SETOF record: one row
 */
Datum
bench_tpcb(PG_FUNCTION_ARGS)
{
	int32		nclients;
	int64		duration_us;
	Oid			nspoid;
	Oid			accounts;
	Oid			index_spc = InvalidOid;
	bool		have_pkey = false;
	int64		scale;
	int64		sample_interval_us;
	BsBench		b;
	BsSessionsShared *sh;
	BsSessionsRun *r;
	BsSteadyArgs steady;
	BsSpi		spi;
	StringInfoData notes;

	bs_require_arg(fcinfo, 0, "clients");
	nclients = PG_GETARG_INT32(0);
	if (nclients < 1 || nclients > BS_SESSIONS_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients must be between 1 and %d", BS_SESSIONS_MAX)));
	bs_sessions_check_workers("client", nclients);
	duration_us = bs_sessions_duration_arg(fcinfo, 1);
	sample_interval_us = bs_sample_interval_arg(fcinfo, 5);
	bs_steady_args_parse(fcinfo, 6, "run", "duration", BS_SESSIONS_MAX_RUN_US, "1 hour",
						 duration_us, sample_interval_us, &steady);
	bs_session_limits_check("bench_tpcb client", "client", nclients,
							steady.ramp_us + duration_us);
	bs_bench_begin(&b, fcinfo, "tpcb", 3, 4);

	/* pgbench's tables: in schema, or where the search_path finds them */
	if (!PG_ARGISNULL(2))
		nspoid = get_namespace_oid(NameStr(*PG_GETARG_NAME(2)), false);
	else
	{
		Oid			relid = RelnameGetRelid("pgbench_accounts");

		if (!OidIsValid(relid))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation \"pgbench_accounts\" does not exist"),
					 errdetail("No schema on the search_path holds pgbench's tables."),
					 errhint("Generate them with bench_generate_tpcb(scale => 10), or with pgbench -i; or name their schema.")));
		nspoid = get_rel_namespace(relid);
	}
	{
		AclResult	aclresult = bs_namespace_aclcheck(nspoid, GetUserId(), ACL_USAGE);

		if (aclresult != ACLCHECK_OK)
			aclcheck_error(aclresult, OBJECT_SCHEMA, get_namespace_name(nspoid));
	}
	/* every right the transaction needs, before any client starts */
	accounts = tpcb_table(nspoid, tpcb_tables[0], ACL_SELECT | ACL_UPDATE);
	(void) tpcb_table(nspoid, tpcb_tables[1], ACL_SELECT | ACL_UPDATE);
	(void) tpcb_table(nspoid, tpcb_tables[2], ACL_SELECT | ACL_UPDATE);
	(void) tpcb_table(nspoid, tpcb_tables[3], ACL_INSERT);
	{
		List	   *all = NIL;

		for (int i = 0; i < lengthof(tpcb_tables); i++)
			all = list_concat(all, find_all_inheritors(get_relname_relid(tpcb_tables[i], nspoid),
													   AccessShareLock, NULL));
		refuse_foreign_code(all);
	}

	/* the scale, as pgbench reads it; the statements, as each client will */
	bs_spi_connect(&spi);
	{
		TpcbPlans	plans;
		const char *nsp = quote_identifier(get_namespace_name(nspoid));
		bool		isnull;

		if (bs_spi_execute(psprintf("SELECT pg_catalog.count(*) FROM %s.pgbench_branches", nsp),
						true, 1) != SPI_OK_SELECT || SPI_processed != 1)
			elog(ERROR, "could not count pgbench_branches");
		scale = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
											SPI_tuptable->tupdesc, 1, &isnull));
		prepare_tpcb(&plans, nsp, false);
		if (bs_spi_execute(psprintf("SELECT c.reltablespace FROM pg_catalog.pg_index i "
									"JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) i.indexrelid "
									"WHERE i.indrelid OPERATOR(pg_catalog.=) %u::pg_catalog.oid AND i.indisprimary",
									accounts),
						true, 1) == SPI_OK_SELECT && SPI_processed == 1)
		{
			have_pkey = true;
			index_spc = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0],
													   SPI_tuptable->tupdesc, 1, &isnull));
		}
	}
	bs_spi_finish(&spi);
	if (scale < 1)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("pgbench_branches is empty"),
				 errdetail("The scale is the number of branches, as pgbench reads it."),
				 errhint("Generate the tables again with bench_generate_tpcb(scale => 10), or with pgbench -i.")));
	if (scale > PG_INT32_MAX / TPCB_TELLERS_PER_BRANCH)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("pgbench_branches has %lld rows, more than a scale bench_tpcb can run",
						(long long) scale)));

	bs_run_target(&b.history, "relation",
				  psprintf("%s.pgbench_accounts", quote_identifier(get_namespace_name(nspoid))),
				  accounts);
	bs_run_tablespace(&b.history, OidIsValid(get_rel_tablespace(accounts)) ?
					  get_rel_tablespace(accounts) : MyDatabaseTableSpace);
	bs_run_arg_int(&b.history, "clients", nclients);
	bs_run_arg_int(&b.history, "duration_us", duration_us);
	bs_run_arg_int(&b.history, "scale", scale);
	bs_run_arg_bool(&b.history, "track_latency", bs_track_latency);
	bs_run_arg_sample_interval(&b.history, sample_interval_us);
	bs_steady_args_record(&b.history, &steady);

	bs_bench_rows(&b, "bench_tpcb", BS_TPCB_NCOLS, BS_TPCB_NCOLS);

	r = bs_sessions_create(BS_WORKLOAD_TPCB, "bench_tpcb_session_worker",
						   "bench_tpcb client", "client", nclients);
	sh = r->sh;
	sh->scale = (int) scale;
	sh->seed = pg_prng_uint64(&pg_global_prng_state);
	strlcpy(sh->nspname, get_namespace_name(nspoid), sizeof(sh->nspname));
	r->duration_us = duration_us;
	r->sample_interval_us = sample_interval_us;
	r->steady = steady;
	initStringInfo(&notes);

	r->release_xmin = bs_sessions_may_release_xmin(fcinfo);
	bs_sessions_execute(r);
	if (!r->release_xmin)
		bs_sessions_add_note(&notes, "The caller's snapshot was held during the run (in a transaction block, above READ COMMITTED, or in a query that could read with it), so the clients' old row versions could not be pruned, as under any long transaction; SELECT * FROM bench_tpcb(...) alone gives it up.");

	{
		Datum		values[BS_TPCB_NCOLS];
		bool		nulls[BS_TPCB_NCOLS];
		BsHistogram hist;
		uint64		tx = 0;
		uint64		wal_bytes = 0;
		uint64		wal_fpi = 0;
		uint64		blks_hit = 0;
		uint64		blks_read = 0;
		uint64		os_read = 0;
		bool		os_known = true;

		bs_hist_reset(&hist);
		for (int i = 0; i < nclients; i++)
		{
			BsSessionSlot *slot = &sh->slots[i];

			tx += slot->commits;
			wal_bytes += slot->wal_bytes;
			wal_fpi += slot->wal_fpi;
			blks_hit += slot->blks_hit;
			blks_read += slot->blks_read;
			os_read += slot->os_read_bytes;
			os_known &= slot->os_read_known;
			bs_hist_merge(&hist, &slot->hist);
		}
		memset(nulls, 0, sizeof(nulls));
		values[COL_CLIENTS] = Int32GetDatum(nclients);
		values[COL_SCALE] = Int32GetDatum((int32) scale);
		values[COL_SCHEMA] = DirectFunctionCall1(namein, CStringGetDatum(sh->nspname));
		values[COL_TABLESPACE] = tablespace_datum(get_rel_tablespace(accounts));
		if (have_pkey)
			values[COL_INDEX_TABLESPACE] = tablespace_datum(index_spc);
		else
		{
			nulls[COL_INDEX_TABLESPACE] = true;
			bs_sessions_add_note(&notes, "pgbench_accounts has no primary key: each transaction scanned it.");
		}
		values[COL_ELAPSED_MS] = Float8GetDatum(bs_round(r->elapsed_ms, 3));
		values[COL_CONNECT_MS] = Float8GetDatum(bs_round(r->connect_ms, 3));
		values[COL_TRANSACTIONS] = Int64GetDatum((int64) tx);
		values[COL_TPS] = Float8GetDatum(bs_round(bs_per_second((double) tx, r->elapsed_ms), 1));
		values[COL_TPS_WITH_CONNECT] =
			Float8GetDatum(bs_round(bs_per_second((double) tx, r->elapsed_ms + r->connect_ms), 1));
		if (hist.count > 0)
		{
			values[COL_LAT_AVG_MS] = Float8GetDatum(bs_round((double) hist.sum_ns / hist.count / 1e6, 3));
			values[COL_LAT_P50_MS] = Float8GetDatum(bs_round(bs_hist_percentile_ns(&hist, 0.50) / 1e6, 3));
			values[COL_LAT_P95_MS] = Float8GetDatum(bs_round(bs_hist_percentile_ns(&hist, 0.95) / 1e6, 3));
			values[COL_LAT_P99_MS] = Float8GetDatum(bs_round(bs_hist_percentile_ns(&hist, 0.99) / 1e6, 3));
			values[COL_LAT_MAX_MS] = Float8GetDatum(bs_round(hist.max_ns / 1e6, 3));
			values[COL_HISTOGRAM] = bs_hist_jsonb(&hist);
		}
		else
		{
			for (int c = COL_LAT_AVG_MS; c <= COL_LAT_MAX_MS; c++)
				nulls[c] = true;
			nulls[COL_HISTOGRAM] = true;
			if (!bs_track_latency)
				bs_sessions_add_note(&notes, "Transactions were not timed: benchstore.track_latency is off.");
		}
		values[COL_BLKS_HIT] = Int64GetDatum((int64) blks_hit);
		values[COL_BLKS_READ] = Int64GetDatum((int64) blks_read);
		if (os_known)
			values[COL_OS_READ_MB] = Float8GetDatum(bs_round(os_read / 1048576.0, 3));
		else
			nulls[COL_OS_READ_MB] = true;
		values[COL_WAL_BYTES] = Int64GetDatum((int64) wal_bytes);
		if (tx > 0)
			values[COL_WAL_BYTES_PER_TX] = Float8GetDatum(bs_round((double) wal_bytes / tx, 1));
		else
			nulls[COL_WAL_BYTES_PER_TX] = true;
		values[COL_WAL_FPI] = Int64GetDatum((int64) wal_fpi);
		if (r->flushes_before.known && r->flushes_after.known &&
			r->flushes_after.flushes >= r->flushes_before.flushes)
			values[COL_WAL_FLUSHES] =
				Int64GetDatum((int64) (r->flushes_after.flushes - r->flushes_before.flushes));
		else
			nulls[COL_WAL_FLUSHES] = true;
		if (r->checkpoints_before >= 0 && r->checkpoints_after >= r->checkpoints_before)
		{
			values[COL_CHECKPOINTS] = Int32GetDatum((int32) (r->checkpoints_after - r->checkpoints_before));
			if (r->checkpoints_after > r->checkpoints_before)
				bs_sessions_add_note(&notes, "A checkpoint ran during the run: its writes and the full-page images after it are in the figures.");
		}
		else
			nulls[COL_CHECKPOINTS] = true;
		bs_sessions_steady_columns(r, values, nulls, COL_STEADY_STATE, &notes);

		/*
		 * Where the transactions waited: for their WAL in pg_wal, whatever
		 * the tables' tablespaces.
		 */
		{
			Oid			spc = get_rel_tablespace(accounts);
			char	   *spcname;

			if (!OidIsValid(spc))
				spc = MyDatabaseTableSpace;
			spcname = bs_tablespace_name(spc);
			switch (bs_sessions_wal_shares_filesystem(spc))
			{
				case 1:
					bs_sessions_add_note(&notes, psprintf("Every transaction waited for its WAL to be flushed in pg_wal, which is on the filesystem of pgbench_accounts' tablespace \"%s\" here; the tables' tablespaces decide where their pages are read and written, not where commits wait.",
														  spcname));
					break;
				case 0:
					bs_sessions_add_note(&notes, psprintf("Every transaction waited for its WAL to be flushed in pg_wal, which is not on the filesystem of pgbench_accounts' tablespace \"%s\": the commits' share of these figures is pg_wal's storage's.",
														  spcname));
					break;
				default:
					bs_sessions_add_note(&notes, "Every transaction waited for its WAL to be flushed in pg_wal, whatever the tables' tablespaces.");
					break;
			}
		}
		if (notes.len > 0)
			values[COL_NOTES] = CStringGetTextDatum(notes.data);
		else
			nulls[COL_NOTES] = true;
		bs_bench_put_row(&b, values, nulls, &r->series);
	}
	dsm_detach(r->seg);
	bs_bench_end(&b);
	return (Datum) 0;
}
