/*-------------------------------------------------------------------------
 *
 * run_tables.h
 *	  Tables a run makes for itself (bench_commit's sessions' tables):
 *	  created under a free name, recorded in the extension's own table
 *	  with their OID, their maker and the run's leader, held by their
 *	  maker while it lives, and dropped only through that record: never
 *	  found by a name pattern or a comment another role could forge.
 *
 * src/run_tables.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_RUN_TABLES_H
#define BENCHSTORE_RUN_TABLES_H

/*
 * Create a table "<prefix>_<n>" (or "<prefix>_<n>_<k>" where that name is
 * taken) in schema nspoid, as the current user, with the columns and
 * options given ("(id bigint) WITH (...) TABLESPACE x"), record it and
 * hold it for the rest of this process's life; returns its OID.  Call in
 * a transaction, with an active snapshot.
 */
extern Oid	bs_run_table_create(const char *benchmark, const char *prefix, int n,
								Oid nspoid, const char *definition,
								int leader_pid);

/*
 * Drop a table this process made, and its record (its exit, however it
 * ends).  Call in a transaction.
 */
extern void bs_run_table_drop_own(Oid relid);

/*
 * Drop the tables the current user's earlier runs left behind (their maker
 * ended without dropping them: a crash), found through the records; a
 * table whose maker still lives is left alone, and so is one that is no
 * longer what was recorded.  Returns how many were dropped.
 */
extern int	bs_run_tables_drop_leftovers(const char *benchmark);

#endif							/* BENCHSTORE_RUN_TABLES_H */
