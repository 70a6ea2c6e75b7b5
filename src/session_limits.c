/*-------------------------------------------------------------------------
 *
 * session_limits.c
 *	  The limits a run's background sessions meet.  bench_commit's sessions
 *	  and bench_tpcb's clients are dynamic background workers, and
 *	  PostgreSQL counts no background worker against a role's or a
 *	  database's CONNECTION LIMIT (CountUserBackends and CountDBConnections
 *	  skip them).  Yet each does what a client connection would: pgbench's
 *	  clients would count.  So benchstore counts them itself:
 *
 * - Connection limits: the role that logged in (the sessions log in as
 *	 it) and the database.  The role's regular backends (the caller among
 *	 them) and the benchstore sessions that role already runs, plus the
 *	 new ones, may not exceed its CONNECTION LIMIT; the same for the
 *	 database.  Superusers are exempt, as PostgreSQL exempts them.  Refused
 *	 with 53300, PostgreSQL's own code and message for a connection over a
 *	 limit.
 *
 * - benchstore's own cap, for a role that is not a superuser (the current
 *	 user: SET ROLE counts): at most benchstore.max_user_sessions sessions
 *	 at once, counted over all its runs (by the role that logged in), and
 *	 a ramp and duration of at most benchstore.max_user_run_time.  Both
 *	 settings are superuser-only.  Background worker slots are shared with
 *	 parallel queries, logical replication and other extensions: without a
 *	 cap one role could hold every slot for hours.  Refused with 53400
 *	 (configuration_limit_exceeded), as temp_file_limit is.
 *
 * The caller checks before any session starts; each session checks again
 * once connected, counting itself (two runs starting at once could each
 * have seen room for itself alone), and fails the run with the same error
 * if a limit is passed.
 *
 * A session is recognised by its background worker type ("bench_commit
 * session", "bench_tpcb client"), read from the postmaster's worker slots,
 * and its role and database from its PGPROC.
 *
 * src/session_limits.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_database.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "session_limits.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/syscache.h"

int			bs_max_user_sessions = BS_MAX_USER_SESSIONS_DEFAULT;
int			bs_max_user_run_time_s = BS_MAX_USER_RUN_TIME_DEFAULT_S;

/* the background worker types of benchstore's sessions */
static const char *const session_types[] = {
	"bench_commit session", "bench_tpcb client"
};

static bool
is_session_type(const char *type)
{
	for (int i = 0; i < lengthof(session_types); i++)
		if (strcmp(type, session_types[i]) == 0)
			return true;
	return false;
}

/*
 * benchstore's live sessions connected as roleid, and those connected to
 * dboid (a session not yet past its login has no role yet: not counted).
 */
static void
count_sessions(Oid roleid, Oid dboid, int *of_role, int *of_database)
{
	*of_role = 0;
	*of_database = 0;
	for (uint32 i = 0; i < ProcGlobal->allProcCount; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];
		int			pid = proc->pid;
		Oid			role = proc->roleId;
		Oid			db = proc->databaseId;
		const char *type;

		if (pid == 0 || (role != roleid && db != dboid))
			continue;
		/* on 15 and 16 a free PGPROC keeps the pid of its last process */
		if (BackendPidGetProc(pid) != proc)
			continue;
		type = GetBackgroundWorkerTypeByPid(pid);
		if (type == NULL || !is_session_type(type))
			continue;
		if (role == roleid)
			(*of_role)++;
		if (db == dboid)
			(*of_database)++;
	}
}

/* A role's CONNECTION LIMIT (-1: none) and name. */
static int
role_connlimit(Oid roleid, char **name)
{
	HeapTuple	tup = SearchSysCache1(AUTHOID, ObjectIdGetDatum(roleid));
	int			limit;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for role %u", roleid);
	limit = ((Form_pg_authid) GETSTRUCT(tup))->rolconnlimit;
	*name = pstrdup(NameStr(((Form_pg_authid) GETSTRUCT(tup))->rolname));
	ReleaseSysCache(tup);
	return limit;
}

/* The database's connection limit (-1: none) and name. */
static int
database_connlimit(Oid dboid, char **name)
{
	HeapTuple	tup = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(dboid));
	int			limit;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for database %u", dboid);
	limit = ((Form_pg_database) GETSTRUCT(tup))->datconnlimit;
	*name = pstrdup(NameStr(((Form_pg_database) GETSTRUCT(tup))->datname));
	ReleaseSysCache(tup);
	return limit;
}

/* A length of time in words: "10 min", "90 s", "1.5 s". */
static char *
seconds_text(double s)
{
	if (s >= 60 && s == (double) (int64) s && ((int64) s) % 60 == 0)
		return psprintf("%lld min", (long long) s / 60);
	if (s == (double) (int64) s)
		return psprintf("%lld s", (long long) s);
	return psprintf("%.1f s", s);
}

void
bs_session_limits_check(const char *what, const char *noun, int nsessions,
						int64 run_us)
{
	Oid			login = GetAuthenticatedUserId();
	int			of_role;
	int			of_database;
	char	   *rolname;
	char	   *dbname;
	int			limit;

	count_sessions(login, MyDatabaseId, &of_role, &of_database);

	if (!superuser())
	{
		if (run_us > (int64) bs_max_user_run_time_s * USECS_PER_SEC)
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("a run of %s is longer than benchstore.max_user_run_time (%s)",
							seconds_text(run_us / 1e6), seconds_text(bs_max_user_run_time_s)),
					 errdetail("The run's ramp and duration add up to that; a role that is not a superuser may hold its %ss for benchstore.max_user_run_time at most.",
							   noun),
					 errhint("Ask for a shorter run, or have a superuser raise benchstore.max_user_run_time.")));
		if (of_role + nsessions > bs_max_user_sessions)
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("%d %ss are more than benchstore.max_user_sessions (%d) allows",
							nsessions, noun, bs_max_user_sessions),
					 of_role > 0 ?
					 errdetail("The role already runs %d benchstore session%s; a role that is not a superuser may run benchstore.max_user_sessions at once, since each holds a background worker slot that parallel queries and replication also need.",
							   of_role, of_role == 1 ? "" : "s") :
					 errdetail("A role that is not a superuser may run benchstore.max_user_sessions at once, since each holds a background worker slot that parallel queries and replication also need."),
					 errhint("Ask for at most %d %ss, or have a superuser raise benchstore.max_user_sessions.",
							 Max(bs_max_user_sessions - of_role, 0), noun)));
	}

	/* the connection limits, which PostgreSQL waives for superusers */
	if (superuser_arg(login))
		return;
	limit = role_connlimit(login, &rolname);
	if (limit >= 0)
	{
		int			open = CountUserBackends(login) + of_role;

		if (open + nsessions > limit)
			ereport(ERROR,
					(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
					 errmsg("too many connections for role \"%s\"", rolname),
					 errdetail("Each of the %d %ss counts as a connection of the role, as a pgbench client would: with the %d it has open, %d against its connection limit of %d.",
							   nsessions, what, open, open + nsessions, limit),
					 errhint("Ask for fewer %ss, or raise the role's limit (ALTER ROLE ... CONNECTION LIMIT).",
							 noun)));
	}
	limit = database_connlimit(MyDatabaseId, &dbname);
	if (limit >= 0)
	{
		int			open = CountDBConnections(MyDatabaseId) + of_database;

		if (open + nsessions > limit)
			ereport(ERROR,
					(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
					 errmsg("too many connections for database \"%s\"", dbname),
					 errdetail("Each of the %d %ss counts as a connection to the database, as a pgbench client would: with the %d open, %d against its connection limit of %d.",
							   nsessions, what, open, open + nsessions, limit),
					 errhint("Ask for fewer %ss, or raise the database's limit (ALTER DATABASE ... CONNECTION LIMIT).",
							 noun)));
	}
}

void
bs_session_limits_recheck(const char *what, int max_sessions)
{
	Oid			login = GetAuthenticatedUserId();
	int			of_role;
	int			of_database;
	char	   *rolname;
	char	   *dbname;
	int			limit;

	count_sessions(login, MyDatabaseId, &of_role, &of_database);
	if (max_sessions >= 0 && of_role > max_sessions)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("the role's benchstore sessions are more than benchstore.max_user_sessions (%d) allows",
						max_sessions),
				 errdetail("This %s made them %d: other runs of the role started at the same time.",
						   what, of_role)));
	if (superuser_arg(login))
		return;
	limit = role_connlimit(login, &rolname);
	if (limit >= 0 && CountUserBackends(login) + of_role > limit)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
				 errmsg("too many connections for role \"%s\"", rolname),
				 errdetail("This %s counts as a connection of the role, as a pgbench client would, and the role's connections reached its limit of %d as it started.",
						   what, limit)));
	limit = database_connlimit(MyDatabaseId, &dbname);
	if (limit >= 0 && CountDBConnections(MyDatabaseId) + of_database > limit)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
				 errmsg("too many connections for database \"%s\"", dbname),
				 errdetail("This %s counts as a connection to the database, as a pgbench client would, and the database's connections reached its limit of %d as it started.",
						   what, limit)));
}
