/*-------------------------------------------------------------------------
 *
 * session_limits.h
 *	  The limits a run's background sessions (bench_commit's sessions,
 *	  bench_tpcb's clients) meet, as pgbench's clients would: each counts
 *	  as a connection of the role that logged in and of the database, and a
 *	  role that is not a superuser may hold at most
 *	  benchstore.max_user_sessions of them, for at most
 *	  benchstore.max_user_run_time per run.
 *
 * src/session_limits.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_SESSION_LIMITS_H
#define BENCHSTORE_SESSION_LIMITS_H

/* at most this many sessions in one run */
#define BS_SESSIONS_MAX			64

/* the settings (superuser-only), defined in src/benchstore.c */
extern int	bs_max_user_sessions;
extern int	bs_max_user_run_time_s;

#define BS_MAX_USER_SESSIONS_DEFAULT	4
#define BS_MAX_USER_RUN_TIME_DEFAULT_S	600

/*
 * The caller, before any session starts: refuse a run that would go past
 * a limit (53300 for the connection limits, 53400 for benchstore's own),
 * saying by how much.  what: "bench_commit session"; noun: "session".
 */
extern void bs_session_limits_check(const char *what, const char *noun,
									int nsessions, int64 run_us);

/*
 * A session, once connected: the same limits counted again with itself
 * among the role's and the database's connections (two runs starting at
 * once could each have seen room for itself alone).
 */
extern void bs_session_limits_recheck(const char *what, int max_sessions);

#endif							/* BENCHSTORE_SESSION_LIMITS_H */
