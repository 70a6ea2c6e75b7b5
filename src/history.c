/*-------------------------------------------------------------------------
 *
 * history.c
 *	  Recording benchmark runs in the extension's history tables, and
 *	  bench_record() for outside measurements.
 *
 * A benchmark function describes its call with bs_run_begin() and the
 * bs_run_* helpers, hands each result row to bs_run_put_row() (which also
 * returns it to the caller), and ends with bs_run_finish(), which inserts
 * one bench_run row and one bench_result row per result row.  The rows are
 * kept as JSON as they are produced: a call's result is small.
 *
 * The insert runs through SPI as the owner of the history tables, in a
 * restricted security context with a safe search_path, so that callers
 * need no privilege on the tables and cannot choose who a run is recorded
 * for.  In a read-only transaction, which includes every transaction on a
 * hot standby, the benchmark still returns its rows and says with a NOTICE
 * that it was not recorded.  A run is kept when its transaction commits.
 *
 * The settings snapshot holds what shapes the numbers: server version and
 * block size, the I/O settings, the system identifier and host name, and
 * for each tablespace involved its directory, filesystem type, device and
 * mount point as /proc/self/mountinfo tells (NULL where the OS does not).
 *
 * src/history.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/sysmacros.h>
#endif

#include "access/htup_details.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "benchstore.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_tablespace_d.h"
#include "commands/extension.h"
#include "commands/tablespace.h"
#include "history.h"
#include "safe_spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "common/hashfn.h"
#include "storage/fd.h"
#include "storage/lock.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "series.h"

PG_FUNCTION_INFO_V1(bench_record);
PG_FUNCTION_INFO_V1(bench_forget);

static void check_label_owner(struct BsRun *run);
static void claim_label(struct BsRun *run);

/* locktag_field4 of the locks that serialize a label's first use */
#define BS_LABEL_LOCK_FIELD4	0xB5

#define BS_MAX_LABEL		200

/*
 * Benchmark names bench_record() may not use: those the C functions record
 * (the cluster totals are recorded through bench_record itself by
 * benchstore_cluster, see below and the README).
 */
static const char *const builtin_benchmarks[] = {
	"seqscan", "tablespace_io", "tablespaces_io", "query", "randread", "commit",
	"tpcb"
};

/* The names benchstore_cluster records its totals under (bench_record). */
static const char *const cluster_benchmarks[] = {
	"cluster_seqscan", "cluster_tablespace_io", "cluster_randread", "cluster_tpcb"
};

/*
 * The server settings kept with every run, as SHOW prints them; those the
 * server does not have (the asynchronous I/O settings before 18,
 * io_combine_limit before 17) are left out of the snapshot.
 */
static const char *const recorded_settings[] = {
	"shared_buffers", "effective_io_concurrency", "maintenance_io_concurrency",
	"io_method", "io_workers", "io_combine_limit", "track_io_timing",
	"wal_sync_method", "fsync", "full_page_writes", "wal_level",
	"data_checksums", "max_parallel_workers", "benchstore.track_latency"
};

/*
 * Check a label argument and return it, or NULL.  Labels are never empty
 * and never all digits, so that wherever a label is expected a run id can
 * be given instead without ambiguity.
 */
static char *
check_label(FunctionCallInfo fcinfo, int argno)
{
	char	   *label;
	const char *p;

	if (PG_ARGISNULL(argno))
		return NULL;
	label = text_to_cstring(PG_GETARG_TEXT_PP(argno));
	if (label[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("label must not be empty"),
				 errhint("Pass NULL for a run without a label.")));
	if (strlen(label) > BS_MAX_LABEL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("label must be at most %d bytes long", BS_MAX_LABEL)));
	for (p = label; *p >= '0' && *p <= '9'; p++)
		;
	if (*p == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("label \"%s\" must not be a number", label),
				 errdetail("Numbers stand for run ids wherever a label is expected."),
				 errhint("Add a letter, as in \"run%s\".", label)));
	return label;
}

/*
 * Start describing a call.  label_argno and record_argno are the positions
 * of its label and record arguments (record_argno -1: always recorded).
 */
void
bs_run_begin(BsRun *run, FunctionCallInfo fcinfo, const char *benchmark,
			 int label_argno, int record_argno)
{
	memset(run, 0, sizeof(*run));
	run->benchmark = benchmark;
	run->label = check_label(fcinfo, label_argno);
	run->record = true;
	if (record_argno >= 0)
	{
		bs_require_arg(fcinfo, record_argno, "record");
		run->record = PG_GETARG_BOOL(record_argno);
	}
	run->started_at = GetCurrentTimestamp();
	run->userid = GetUserId();
	run->fn_oid = fcinfo->flinfo->fn_oid;
	run->target_kind = "other";
	initStringInfo(&run->args);
	initStringInfo(&run->rows);
	initStringInfo(&run->samples);
	if (run->label)
		bs_run_arg_text(run, "label", run->label);
	if (run->record)
		check_label_owner(run);
}

/* What the call measures: a relation or tablespace (kind), by name and OID. */
void
bs_run_target(BsRun *run, const char *kind, const char *name, Oid oid)
{
	run->target_kind = kind;
	run->target = pstrdup(name);
	run->target_oid = oid;
}

/* A tablespace the call touches, for the settings snapshot. */
void
bs_run_tablespace(BsRun *run, Oid spc)
{
	if (!OidIsValid(spc))
		spc = MyDatabaseTableSpace;
	run->tablespaces = list_append_unique_oid(run->tablespaces, spc);
}

static void
append_key(StringInfo buf, const char *key)
{
	if (buf->len > 0)
		appendStringInfoString(buf, ", ");
	escape_json(buf, key);
	appendStringInfoString(buf, ": ");
}

void
bs_run_arg_text(BsRun *run, const char *key, const char *value)
{
	append_key(&run->args, key);
	escape_json(&run->args, value);
}

void
bs_run_arg_int(BsRun *run, const char *key, int64 value)
{
	append_key(&run->args, key);
	appendStringInfo(&run->args, INT64_FORMAT, value);
}

void
bs_run_arg_bool(BsRun *run, const char *key, bool value)
{
	append_key(&run->args, key);
	appendStringInfoString(&run->args, value ? "true" : "false");
}

/* An argument already in JSON form (an array, say). */
void
bs_run_arg_json(BsRun *run, const char *key, const char *json)
{
	append_key(&run->args, key);
	appendStringInfoString(&run->args, json);
}

/* The history's record of the argument: seconds, or null for none. */
void
bs_run_arg_sample_interval(BsRun *run, int64 interval_us)
{
	if (interval_us > 0)
		bs_run_arg_json(run, "sample_interval_s",
						psprintf("%.6g", interval_us / 1e6));
	else
		bs_run_arg_json(run, "sample_interval_s", "null");
}

/*
 * Return a result row to the caller and, when the run is recorded, keep
 * it as a JSON object named by the result columns.
 */
void
bs_run_put_row(BsRun *run, ReturnSetInfo *rsinfo, Datum *values, bool *nulls)
{
	bs_run_put_row_series(run, rsinfo, values, nulls, NULL);
}

/* A figure of a sample in JSON: NaN (unknown) is null. */
static void
append_sample_figure(StringInfo buf, double value)
{
	if (isnan(value) || isinf(value))
		appendStringInfoString(buf, ",null");
	else
		appendStringInfo(buf, ",%.15g", value);
}

/*
 * bs_run_put_row, with the row's time series (NULL or empty: none), kept
 * for bench_sample as JSON arrays [row_no, sample_no, start_ms, elapsed_ms,
 * mb_per_s, iops, lat_avg_us, lat_p50_us, lat_p99_us, read_mb, write_mb,
 * hit_mb].
 */
void
bs_run_put_row_series(BsRun *run, ReturnSetInfo *rsinfo, Datum *values,
					  bool *nulls, const BsSeries *series)
{
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	run->nput++;

	if (run->record && series != NULL)
	{
		for (int i = 0; i < series->nsamples; i++)
		{
			const BsSample *s = &series->samples[i];

			if (run->nsamples > 0)
				appendStringInfoString(&run->samples, ", ");
			appendStringInfo(&run->samples, "[%d,%d", run->nput, i + 1);
			append_sample_figure(&run->samples, s->start_ms);
			append_sample_figure(&run->samples, s->elapsed_ms);
			append_sample_figure(&run->samples, s->mb_per_s);
			append_sample_figure(&run->samples, s->iops);
			append_sample_figure(&run->samples, s->lat_avg_us);
			append_sample_figure(&run->samples, s->lat_p50_us);
			append_sample_figure(&run->samples, s->lat_p99_us);
			append_sample_figure(&run->samples, s->read_mb);
			append_sample_figure(&run->samples, s->write_mb);
			append_sample_figure(&run->samples, s->hit_mb);
			appendStringInfoChar(&run->samples, ']');
			run->nsamples++;
		}
	}

	if (run->record)
	{
		if (!run->desc_blessed)
		{
			BlessTupleDesc(rsinfo->setDesc);
			run->desc_blessed = true;
		}
		/* made JSON at the end, outside parallel mode (see rows_to_json) */
		run->tuples = lappend(run->tuples,
							  heap_form_tuple(rsinfo->setDesc, values, nulls));
	}
}

/*
 * The kept result rows as JSON array members, written the same whatever
 * the caller's settings: floats with every digit (extra_float_digits 1),
 * relations schema-qualified unless in pg_catalog.
 */
static void
rows_to_json(BsRun *run)
{
	ListCell   *lc;
	int			save_nestlevel = NewGUCNestLevel();

	(void) set_config_option("extra_float_digits", "1", PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	foreach(lc, run->tuples)
	{
		HeapTuple	tuple = (HeapTuple) lfirst(lc);
		text	   *json;

		json = DatumGetTextPP(DirectFunctionCall1(row_to_json,
												  HeapTupleGetDatum(tuple)));
		if (run->nrows > 0)
			appendStringInfoString(&run->rows, ", ");
		appendBinaryStringInfo(&run->rows, VARDATA_ANY(json),
							   VARSIZE_ANY_EXHDR(json));
		run->nrows++;
	}
	AtEOXact_GUC(false, save_nestlevel);
}

/* ----------------------------------------------------------------
 * The settings snapshot
 * ----------------------------------------------------------------
 */

static void
json_text_member(StringInfo buf, const char *key, const char *value)
{
	append_key(buf, key);
	if (value)
		escape_json(buf, value);
	else
		appendStringInfoString(buf, "null");
}

/* Absolute directory of a tablespace's files. */
static char *
tablespace_directory(Oid spc)
{
	char		target[MAXPGPATH];
	char	   *link;
	ssize_t		len;

	if (spc == DEFAULTTABLESPACE_OID)
		return psprintf("%s/base", DataDir);
	if (spc == GLOBALTABLESPACE_OID)
		return psprintf("%s/global", DataDir);
	link = psprintf("%s/pg_tblspc/%u", DataDir, spc);
	len = readlink(link, target, sizeof(target) - 1);
	if (len < 0 || len >= (ssize_t) sizeof(target) - 1)
		return link;			/* an in-place tablespace is a directory */
	target[len] = '\0';
	return pstrdup(target);
}

/* Decode mountinfo's octal escapes (\040 for a space, ...) in place. */
static void
unescape_mount_field(char *s)
{
	char	   *out = s;

	for (char *in = s; *in; in++)
	{
		if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' &&
			in[2] >= '0' && in[2] <= '7' && in[3] >= '0' && in[3] <= '7')
		{
			*out++ = (char) (((in[1] - '0') << 6) | ((in[2] - '0') << 3) | (in[3] - '0'));
			in += 3;
		}
		else
			*out++ = *in;
	}
	*out = '\0';
}

/*
 * The mount holding path, from /proc/self/mountinfo: the entry with the
 * path's device number whose mount point is the longest prefix of the
 * path.  Leaves the outputs NULL where the OS does not say.
 */
static void
find_mount(const char *path, dev_t dev, char **fstype, char **source,
		   char **mount_point)
{
#if defined(__linux__)
	FILE	   *f;
	char		line[4096];
	char		devno[64];
	size_t		best = 0;

	snprintf(devno, sizeof(devno), "%u:%u", major(dev), minor(dev));
	f = AllocateFile("/proc/self/mountinfo", "r");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
	{
		char	   *fields[6];
		char	   *sep;
		char	   *save = NULL;
		char	   *tok;
		int			n = 0;
		size_t		mlen;

		if (strchr(line, '\n') == NULL && !feof(f))
		{
			/* a line longer than the buffer: skip it to its end */
			int			c;

			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			continue;
		}

		/* id parent major:minor root mount-point options ... - type source ... */
		sep = strstr(line, " - ");
		if (sep == NULL)
			continue;
		*sep = '\0';
		for (tok = strtok_r(line, " ", &save); tok && n < 6;
			 tok = strtok_r(NULL, " ", &save))
			fields[n++] = tok;
		if (n < 5 || strcmp(fields[2], devno) != 0)
			continue;
		unescape_mount_field(fields[4]);
		mlen = strlen(fields[4]);
		if (strncmp(path, fields[4], mlen) != 0 ||
			(path[mlen] != '/' && path[mlen] != '\0' && mlen > 1))
			continue;
		if (mlen < best)
			continue;
		best = mlen;
		save = NULL;
		tok = strtok_r(sep + 3, " \n", &save);
		*fstype = tok ? pstrdup(tok) : NULL;
		tok = strtok_r(NULL, " \n", &save);
		if (tok)
			unescape_mount_field(tok);
		*source = tok ? pstrdup(tok) : NULL;
		*mount_point = pstrdup(fields[4]);
	}
	FreeFile(f);
#endif
}

static void
append_tablespace_info(StringInfo buf, Oid spc)
{
	char	   *dir = tablespace_directory(spc);
	char	   *resolved;
	struct stat st;
	char	   *fstype = NULL;
	char	   *source = NULL;
	char	   *mount_point = NULL;
	char	   *devno = NULL;
	StringInfoData obj;

	resolved = realpath(dir, NULL);
	if (resolved != NULL)
	{
		dir = pstrdup(resolved);
		free(resolved);
	}
	if (stat(dir, &st) == 0)
	{
#if defined(__linux__)
		devno = psprintf("%u:%u", major(st.st_dev), minor(st.st_dev));
#endif
		find_mount(dir, st.st_dev, &fstype, &source, &mount_point);
	}

	/*
	 * The history is readable by every role: the built-in tablespaces'
	 * directory (the data directory) and its mount point are left out, as
	 * pg_tablespace_location() leaves them out.
	 */
	if (spc == DEFAULTTABLESPACE_OID || spc == GLOBALTABLESPACE_OID)
	{
		dir = NULL;
		mount_point = NULL;
	}

	initStringInfo(&obj);
	json_text_member(&obj, "name", bs_tablespace_name(spc));
	append_key(&obj, "oid");
	appendStringInfo(&obj, "%u", spc);
	json_text_member(&obj, "directory", dir);
	json_text_member(&obj, "filesystem", fstype);
	json_text_member(&obj, "device", source);
	json_text_member(&obj, "device_number", devno);
	json_text_member(&obj, "mount_point", mount_point);
	appendStringInfo(buf, "{%s}", obj.data);
	pfree(obj.data);
}

/* The settings snapshot of a run, as a JSON object. */
static char *
settings_json(BsRun *run)
{
	StringInfoData buf;
	char		host[256];
	ListCell   *lc;
	bool		first = true;

	initStringInfo(&buf);
	json_text_member(&buf, "server_version", GetConfigOption("server_version", false, false));
	append_key(&buf, "server_version_num");
	appendStringInfo(&buf, "%d", PG_VERSION_NUM);
	append_key(&buf, "block_size");
	appendStringInfo(&buf, "%d", BLCKSZ);
	for (int i = 0; i < lengthof(recorded_settings); i++)
	{
		const char *value = GetConfigOptionByName(recorded_settings[i], NULL, true);

		if (value != NULL)
			json_text_member(&buf, recorded_settings[i], value);
	}
	append_key(&buf, "system_identifier");
	appendStringInfo(&buf, "\"" UINT64_FORMAT "\"", GetSystemIdentifier());
	if (gethostname(host, sizeof(host)) == 0)
	{
		host[sizeof(host) - 1] = '\0';
		json_text_member(&buf, "host_name", host);
	}
	else
		json_text_member(&buf, "host_name", NULL);

	append_key(&buf, "tablespaces");
	appendStringInfoChar(&buf, '[');
	foreach(lc, run->tablespaces)
	{
		if (!first)
			appendStringInfoString(&buf, ", ");
		first = false;
		append_tablespace_info(&buf, lfirst_oid(lc));
	}
	appendStringInfoChar(&buf, ']');
	return psprintf("{%s}", buf.data);
}

/* ----------------------------------------------------------------
 * Inserting
 * ----------------------------------------------------------------
 */

/*
 * Become the owner of the history tables, in a restricted security context
 * with a safe search_path, and connect to SPI; returns the extension's
 * schema, quoted.  fn_oid is a function of the extension.  An error on the
 * way is cleaned up by the transaction's abort.
 */
/*
 * Whether the history of the extension's installed version knows a run's
 * recorder by OID (bench_run.recorded_by_oid, from 1.2): a 1.0 or 1.1
 * installation not yet updated runs this library too, and knows it by
 * name only.
 */
static bool
history_has_recorder_oid(Oid fn_oid)
{
	Oid			table = get_relname_relid("bench_run", get_func_namespace(fn_oid));

	return OidIsValid(table) &&
		get_attnum(table, "recorded_by_oid") != InvalidAttrNumber;
}

static const char *
as_history_owner(Oid fn_oid, BsSpi *spi)
{
	Oid			nsp = get_func_namespace(fn_oid);	/* the extension's schema */
	Oid			table = get_relname_relid("bench_run", nsp);
	HeapTuple	tup;
	Oid			owner;

	if (!OidIsValid(table))
		elog(ERROR, "benchstore history table \"bench_run\" is missing");
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(table));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", table);
	owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);

	bs_spi_connect_as(spi, owner);
	return quote_identifier(get_namespace_name(nsp));
}

/*
 * Labels belong to the role that first used them, so that nobody can add
 * runs to another role's comparison.  Checked when a call starts (to fail
 * before the benchmark), and again under the label's lock, against the
 * latest committed runs, just before the run is inserted (claim_label).
 */
static void
check_label_owner(BsRun *run)
{
	BsSpi		st;
	const char *schema;
	char	   *sql;
	Oid			types[3] = {TEXTOID, OIDOID, NAMEOID};
	Datum		values[3];
	char	   *other = NULL;
	MemoryContext callercxt = CurrentMemoryContext;

	if (run->label == NULL)
		return;
	schema = as_history_owner(run->fn_oid, &st);
	values[0] = CStringGetTextDatum(run->label);
	values[1] = ObjectIdGetDatum(run->userid);
	values[2] = DirectFunctionCall1(namein,
									CStringGetDatum(GetUserNameFromId(run->userid, false)));
	/*
	 * A run is the role's when both its OID and its name are the role's
	 * (by name alone in an installation of 1.0 or 1.1).
	 */
	if (history_has_recorder_oid(run->fn_oid))
		sql = psprintf("SELECT r.recorded_by::pg_catalog.text FROM %s.bench_run r"
					   " WHERE r.label OPERATOR(pg_catalog.=) $1"
					   " AND (r.recorded_by_oid IS DISTINCT FROM $2"
					   "      OR r.recorded_by OPERATOR(pg_catalog.<>) $3) LIMIT 1", schema);
	else
		sql = psprintf("SELECT r.recorded_by::pg_catalog.text FROM %s.bench_run r"
					   " WHERE r.label OPERATOR(pg_catalog.=) $1"
					   " AND $2 IS NOT NULL AND r.recorded_by OPERATOR(pg_catalog.<>) $3 LIMIT 1",
					   schema);
	if (bs_spi_execute_with_args(sql, 3, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not look up label \"%s\"", run->label);
	/* copied out of SPI's memory, which SPI_finish frees */
	if (SPI_processed > 0)
		other = MemoryContextStrdup(callercxt,
									SPI_getvalue(SPI_tuptable->vals[0],
												 SPI_tuptable->tupdesc, 1));
	bs_spi_finish(&st);
	if (other)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("label \"%s\" is used by runs of role \"%s\"", run->label, other),
				 strcmp(other, GetUserNameFromId(run->userid, false)) == 0 ?
				 errdetail("A label belongs to the role that first recorded runs under it: here a role of the same name that was dropped since, or whose runs were restored from another cluster.") :
				 errdetail("A label belongs to the role that first recorded runs under it."),
				 errhint("Choose another label.")));
}

/*
 * Make the first use of a label atomic: two roles recording under a new
 * label at the same moment would both pass check_label_owner, each unable
 * to see the other's uncommitted run.  The label's lock (an advisory lock
 * of this database, keyed by a hash of the label, held to the end of the
 * transaction) makes the second wait until the first commits or aborts;
 * the check then runs again against the latest committed runs, whatever
 * the isolation level, and the second is refused if the first claimed it.
 * Different labels with the same hash only wait for each other.
 */
static void
claim_label(BsRun *run)
{
	LOCKTAG		tag;
	uint64		h;

	if (run->label == NULL)
		return;
	h = hash_bytes_extended((const unsigned char *) run->label,
							strlen(run->label), 0);
	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, (uint32) (h >> 32), (uint32) h,
						 BS_LABEL_LOCK_FIELD4);
	(void) LockAcquire(&tag, ExclusiveLock, false, false);

	/* on an error, the (sub)transaction's abort pops the snapshot */
	PushActiveSnapshot(GetLatestSnapshot());
	check_label_owner(run);
	PopActiveSnapshot();
}

/*
 * Insert the run and its rows as the owner of the history tables and
 * return the run id.
 */
static int64
insert_run(BsRun *run)
{
	BsSpi		st;
	const char *schema;
	char	   *sql;
	Datum		values[10];
	char		nulls[10];
	Oid			types[10] = {TIMESTAMPTZOID, NAMEOID, TEXTOID, TEXTOID, TEXTOID,
	TEXTOID, OIDOID, TEXTOID, TEXTOID, OIDOID};
	int64		run_id;
	bool		isnull;
	bool		with_oid;

	memset(nulls, ' ', sizeof(nulls));
	values[0] = TimestampTzGetDatum(run->started_at);
	values[1] = DirectFunctionCall1(namein,
									CStringGetDatum(GetUserNameFromId(run->userid, false)));
	if (run->label)
		values[2] = CStringGetTextDatum(run->label);
	else
		nulls[2] = 'n';
	values[3] = CStringGetTextDatum(run->benchmark);
	values[4] = CStringGetTextDatum(run->target_kind);
	if (run->target)
		values[5] = CStringGetTextDatum(run->target);
	else
		nulls[5] = 'n';
	if (OidIsValid(run->target_oid))
		values[6] = ObjectIdGetDatum(run->target_oid);
	else
		nulls[6] = 'n';
	values[7] = CStringGetTextDatum(psprintf("{%s}", run->args.data));
	values[8] = CStringGetTextDatum(settings_json(run));
	values[9] = ObjectIdGetDatum(run->userid);

	claim_label(run);
	with_oid = history_has_recorder_oid(run->fn_oid);
	schema = as_history_owner(run->fn_oid, &st);

	sql = psprintf("INSERT INTO %s.bench_run (started_at, finished_at, recorded_by,"
				   " label, benchmark, target_kind, target, target_oid, arguments,"
				   " settings%s)"
				   " VALUES ($1, pg_catalog.clock_timestamp(), $2, $3, $4, $5, $6,"
				   " $7, $8::pg_catalog.jsonb, $9::pg_catalog.jsonb%s)"
				   " RETURNING run_id", schema,
				   with_oid ? ", recorded_by_oid" : "", with_oid ? ", $10" : "");
	if (bs_spi_execute_with_args(sql, with_oid ? 10 : 9, types, values, nulls, false, 1) != SPI_OK_INSERT_RETURNING ||
		SPI_processed != 1)
		elog(ERROR, "could not record the benchmark run");
	run_id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
										 SPI_tuptable->tupdesc, 1, &isnull));

	if (run->nrows > 0)
	{
		Oid			rtypes[2] = {INT8OID, TEXTOID};
		Datum		rvalues[2];

		rvalues[0] = Int64GetDatum(run_id);
		rvalues[1] = CStringGetTextDatum(psprintf("[%s]", run->rows.data));
		sql = psprintf("INSERT INTO %s.bench_result (run_id, row_no, metrics)"
					   " SELECT $1, x.n::pg_catalog.int4, x.metrics"
					   " FROM pg_catalog.jsonb_array_elements($2::pg_catalog.jsonb)"
					   " WITH ORDINALITY AS x(metrics, n)", schema);
		if (bs_spi_execute_with_args(sql, 2, rtypes, rvalues, NULL, false, 0) != SPI_OK_INSERT ||
			SPI_processed != (uint64) run->nrows)
			elog(ERROR, "could not record the benchmark results");
	}

	if (run->nsamples > 0)
	{
		Oid			stypes[2] = {INT8OID, TEXTOID};
		Datum		svalues[2];

		svalues[0] = Int64GetDatum(run_id);
		svalues[1] = CStringGetTextDatum(psprintf("[%s]", run->samples.data));
		sql = psprintf("INSERT INTO %s.bench_sample (run_id, row_no, sample_no,"
					   " start_ms, elapsed_ms, mb_per_s, iops, lat_avg_us,"
					   " lat_p50_us, lat_p99_us, read_mb, write_mb, hit_mb)"
					   " SELECT $1, (x->>0)::pg_catalog.int4, (x->>1)::pg_catalog.int4,"
					   " (x->>2)::pg_catalog.float8, (x->>3)::pg_catalog.float8,"
					   " (x->>4)::pg_catalog.float8, (x->>5)::pg_catalog.float8,"
					   " (x->>6)::pg_catalog.float8, (x->>7)::pg_catalog.float8,"
					   " (x->>8)::pg_catalog.float8, (x->>9)::pg_catalog.float8,"
					   " (x->>10)::pg_catalog.float8, (x->>11)::pg_catalog.float8"
					   " FROM pg_catalog.jsonb_array_elements($2::pg_catalog.jsonb) AS x",
					   schema);
		if (bs_spi_execute_with_args(sql, 2, stypes, svalues, NULL, false, 0) != SPI_OK_INSERT ||
			SPI_processed != (uint64) run->nsamples)
			elog(ERROR, "could not record the benchmark's time series");
	}

	bs_spi_finish(&st);
	return run_id;
}

/* Why a run cannot be recorded now, or NULL when it can. */
static const char *
not_recordable_reason(void)
{
	if (RecoveryInProgress())
		return "The server is a hot standby: its transactions are read-only.";
	if (XactReadOnly)
		return "The transaction is read-only.";
	return NULL;
}

/*
 * End of the call: record it, or say why not.  Returns the run id, or 0
 * when nothing was recorded.
 */
int64
bs_run_finish(BsRun *run)
{
	const char *reason;

	if (!run->record)
		return 0;
	reason = not_recordable_reason();
	if (reason != NULL)
	{
		ereport(NOTICE,
				(errmsg("%s run was not recorded", run->benchmark),
				 errdetail("%s", reason),
				 errhint("Pass record => false to leave it out of the history without this notice.")));
		return 0;
	}
	rows_to_json(run);
	return insert_run(run);
}

/*
 * bench_record(benchmark text, target text, metrics jsonb,
 *				label text DEFAULT NULL, arguments jsonb DEFAULT NULL)
 *	RETURNS bigint
 *
 * metrics is one object (one result row) or a non-empty array of objects;
 * arguments, an object saying how the measurement was taken.
 * A target that names a tablespace is recorded as that tablespace, with
 * its filesystem in the settings snapshot.
 */
Datum
bench_record(PG_FUNCTION_ARGS)
{
	BsRun		run;
	char	   *benchmark;
	Jsonb	   *metrics;
	const char *reason;
	char	   *json;

	bs_require_arg(fcinfo, 0, "benchmark");
	bs_require_arg(fcinfo, 2, "metrics");
	benchmark = text_to_cstring(PG_GETARG_TEXT_PP(0));
	if (benchmark[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("benchmark must not be empty"),
				 errhint("Name the tool or test, for example 'pgbench'.")));
	for (int i = 0; i < lengthof(builtin_benchmarks); i++)
		if (strcmp(benchmark, builtin_benchmarks[i]) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("benchmark name \"%s\" is reserved for benchstore's own runs",
							benchmark),
					 errhint("Record an outside measurement under another name, such as \"%s_external\".",
							 benchmark)));

	/*
	 * The cluster totals are recorded through this function by
	 * benchstore_cluster, as its caller: where that extension is not
	 * installed, nothing records them, so nobody may.
	 */
	for (int i = 0; i < lengthof(cluster_benchmarks); i++)
		if (strcmp(benchmark, cluster_benchmarks[i]) == 0 &&
			!OidIsValid(get_extension_oid("benchstore_cluster", true)))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("benchmark name \"%s\" is reserved for benchstore_cluster's runs",
							benchmark),
					 errdetail("Extension \"benchstore_cluster\" is not installed in this database."),
					 errhint("Record an outside measurement under another name, such as \"%s_external\".",
							 benchmark)));

	metrics = PG_GETARG_JSONB_P(2);
	if (JB_ROOT_IS_SCALAR(metrics) ||
		(JB_ROOT_IS_OBJECT(metrics) && JB_ROOT_COUNT(metrics) == 0) ||
		(JB_ROOT_IS_ARRAY(metrics) && JB_ROOT_COUNT(metrics) == 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("metrics must be a non-empty JSON object or an array of them"),
				 errhint("For example '{\"tps\": 1234.5, \"latency_avg_ms\": 6.5}'.")));
	if (JB_ROOT_IS_ARRAY(metrics))
	{
		for (uint32 i = 0; i < JB_ROOT_COUNT(metrics); i++)
		{
			JsonbValue *elem = getIthJsonbValueFromContainer(&metrics->root, i);

			if (elem == NULL || elem->type != jbvBinary ||
				!JsonContainerIsObject(elem->val.binary.data) ||
				JsonContainerSize(elem->val.binary.data) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("element %u of metrics is not a non-empty JSON object", i + 1),
						 errdetail("An array of metrics holds one object per result row.")));
		}
	}

	bs_run_begin(&run, fcinfo, benchmark, 3, -1);
	if (!PG_ARGISNULL(4))
	{
		Jsonb	   *arguments = PG_GETARG_JSONB_P(4);
		char	   *text;

		if (!JB_ROOT_IS_OBJECT(arguments) || JB_ROOT_IS_SCALAR(arguments))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("arguments must be a JSON object"),
					 errhint("For example '{\"clients\": 8, \"duration_s\": 60}'.")));
		/* its members, after the label's */
		text = JsonbToCString(NULL, &arguments->root, VARSIZE(arguments));
		if (JB_ROOT_COUNT(arguments) > 0)
		{
			if (run.args.len > 0)
				appendStringInfoString(&run.args, ", ");
			appendBinaryStringInfo(&run.args, text + 1, strlen(text) - 2);
		}
	}
	if (!PG_ARGISNULL(1))
	{
		char	   *target = text_to_cstring(PG_GETARG_TEXT_PP(1));
		Oid			spc = get_tablespace_oid(target, true);

		if (OidIsValid(spc))
		{
			bs_run_target(&run, "tablespace", target, spc);
			bs_run_tablespace(&run, spc);
		}
		else
			bs_run_target(&run, "other", target, InvalidOid);
	}

	reason = not_recordable_reason();
	if (reason != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot record a measurement in a read-only transaction"),
				 errdetail("%s", reason)));

	json = JsonbToCString(NULL, &metrics->root, VARSIZE(metrics));
	if (JB_ROOT_IS_ARRAY(metrics))
	{
		/* strip the brackets: the rows are kept without them */
		size_t		len = strlen(json);

		appendBinaryStringInfo(&run.rows, json + 1, len - 2);
	}
	else
		appendStringInfoString(&run.rows, json);
	run.nrows = JB_ROOT_IS_ARRAY(metrics) ? JB_ROOT_COUNT(metrics) : 1;

	PG_RETURN_INT64(insert_run(&run));
}

/*
 * bench_forget(ref text, OUT runs bigint, OUT result_rows bigint)
 *
 * Remove the runs of a label (or one run, by id).  The delete runs as the
 * history's owner and touches only the caller's own runs (any run for a
 * superuser), so that nobody can lock or remove another role's runs.
 */
Datum
bench_forget(PG_FUNCTION_ARGS)
{
	Oid			userid = GetUserId();
	bool		all = superuser_arg(userid);
	BsSpi		st;
	const char *schema;
	char	   *sql;
	Oid			types[4] = {TEXTOID, NAMEOID, BOOLOID, OIDOID};
	Datum		values[4];
	int64		matched;
	int64		runs;
	int64		result_rows;
	bool		isnull;
	TupleDesc	tupdesc;
	Datum		out[2];
	bool		outnulls[2] = {false, false};

	bs_require_arg(fcinfo, 0, "label or run id");
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	values[0] = PointerGetDatum(PG_GETARG_TEXT_PP(0));
	values[1] = DirectFunctionCall1(namein,
									CStringGetDatum(GetUserNameFromId(userid, false)));
	values[2] = BoolGetDatum(all);
	values[3] = ObjectIdGetDatum(userid);

	schema = as_history_owner(fcinfo->flinfo->fn_oid, &st);
	sql = psprintf("WITH ids AS (SELECT pg_catalog.unnest(%s.bench_run_ids($1)) AS run_id),"
				   " gone AS (DELETE FROM %s.bench_run r USING ids"
				   "          WHERE r.run_id OPERATOR(pg_catalog.=) ids.run_id"
				   "            AND ((%s OPERATOR(pg_catalog.=) $4"
				   "                  AND r.recorded_by OPERATOR(pg_catalog.=) $2) OR $3)"
				   "          RETURNING r.run_id)"
				   " SELECT (SELECT pg_catalog.count(*) FROM ids),"
				   "        (SELECT pg_catalog.count(*) FROM gone),"
				   "        (SELECT pg_catalog.count(*) FROM %s.bench_result x"
				   "         WHERE x.run_id IN (SELECT g.run_id FROM gone g))",
				   schema, schema,
				   /* 1.0 and 1.1 know the recorder by name only */
				   history_has_recorder_oid(fcinfo->flinfo->fn_oid) ? "r.recorded_by_oid" : "$4",
				   schema);
	if (bs_spi_execute_with_args(sql, 4, types, values, NULL, false, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not remove the runs");
	matched = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	runs = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
	result_rows = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &isnull));
	bs_spi_finish(&st);

	if (runs < matched)
		ereport(NOTICE,
				(errmsg("%lld of %lld runs were not removed",
						(long long) (matched - runs), (long long) matched),
				 errdetail("They were recorded by other roles."),
				 errhint("A superuser can remove them.")));

	out[0] = Int64GetDatum(runs);
	out[1] = Int64GetDatum(result_rows);
	tupdesc = BlessTupleDesc(tupdesc);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, out, outnulls)));
}
