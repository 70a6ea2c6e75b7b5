/*-------------------------------------------------------------------------
 *
 * citus_pool.c
 *	  Connections to the Citus nodes kept open for the session, one per
 *	  (role, node), out of reach of SQL: benchstore_cluster's fan-out of a
 *	  command to every node at once
 *	  (_bench_cluster_citus_kept(command, all_nodes)).
 *
 * Citus's run_command_on_workers opens a new connection to every worker
 * on each call; a benchmark would then time a new backend's start and its
 * first touch of the shared buffers.  benchstore_cluster 1.1 kept dblink
 * named connections instead, but those belong to the session, not to the
 * role that opened them: any code later in the session (after SET ROLE, in
 * a SECURITY DEFINER function, in an index expression run by ANALYZE)
 * could send SQL over a superuser's connection, and a connection another
 * role had opened under the pool's name would have been used.  Here, as
 * PL/Proxy keeps its own, the connections live in this backend's memory,
 * keyed by the role that is current when the call runs (GetUserId(), which
 * follows SET ROLE, SECURITY DEFINER and security-restricted operations)
 * and the node; each is opened by this file, as that role, to that node,
 * and is used for nothing else.  A role never reaches another's
 * connection, and no SQL reaches any of them but through this function.
 *
 * A connection is opened as Citus opens its own: to the node's name and
 * port in pg_dist_node, the current database, the current role as the
 * user, with citus.node_conninfo's options.  So the pool gives a role
 * nothing Citus's own dispatch (run_command_on_workers, executable by
 * every role) does not: the same command, on the same nodes, as itself.
 * Where a connection cannot be opened (a node that needs a password Citus
 * keeps in pg_dist_authinfo, a node down), the function returns NULL and
 * the caller goes through Citus's dispatch, which names the node.
 *
 * Before each use a kept connection is checked with an empty query; one
 * that broke (a restarted node) is opened anew.  A cancel, a
 * statement_timeout or an error while the nodes run cancels their
 * commands and closes the connections the call used.
 *
 * src/citus_pool.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "libpq-fe.h"

#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "safe_spi.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"


/* One kept connection: whose, to which node, and how it was opened. */
typedef struct BsKeptConn
{
	Oid			userid;			/* the role it was opened as */
	int32		nodeid;			/* pg_dist_node.nodeid */
	char	   *conninfo;		/* what it was opened with, to notice a change */
	PGconn	   *conn;
} BsKeptConn;

/*
 * The pool, in TopMemoryContext: few entries (roles × nodes), each
 * allocated on its own so that a call's pointers to them stay valid while
 * the array of them grows.
 */
static BsKeptConn **kept = NULL;
static int	nkept = 0;
static int	maxkept = 0;

/* A node of the fan-out, for one call. */
typedef struct BsFanNode
{
	int32		nodeid;
	char	   *name;			/* nodename:nodeport */
	char	   *host;
	char	   *port;
	char	   *conninfo;
	BsKeptConn *slot;			/* its connection, once opened */
	bool		sent;
} BsFanNode;

static void
close_slot(BsKeptConn *slot)
{
	if (slot->conn)
		PQfinish(slot->conn);
	slot->conn = NULL;
	if (slot->conninfo)
		pfree(slot->conninfo);
	slot->conninfo = NULL;
	slot->userid = InvalidOid;
	slot->nodeid = -1;
}

/* Wait until the connection's socket is ready, or an interrupt comes. */
static void
wait_socket(PGconn *conn, int event)
{
	int			rc;

	rc = WaitLatchOrSocket(MyLatch,
						   WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | event,
						   PQsocket(conn), -1L, PG_WAIT_EXTENSION);
	if (rc & WL_LATCH_SET)
		ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

/* The next result of a sent query, waiting for it interruptibly. */
static PGresult *
next_result(PGconn *conn)
{
	while (PQisBusy(conn))
	{
		if (PQsocket(conn) < 0)
			break;				/* PQgetResult reports the error */
		wait_socket(conn, WL_SOCKET_READABLE);
		if (!PQconsumeInput(conn))
			break;				/* PQgetResult reports the error */
	}
	return PQgetResult(conn);
}

/* Read and drop every result of a sent query; false if any failed. */
static bool
drain(PGconn *conn)
{
	PGresult   *res;
	bool		ok = true;

	while ((res = next_result(conn)) != NULL)
	{
		ExecStatusType st = PQresultStatus(res);

		if (st != PGRES_EMPTY_QUERY && st != PGRES_COMMAND_OK &&
			st != PGRES_TUPLES_OK)
			ok = false;
		PQclear(res);
		if (PQstatus(conn) == CONNECTION_BAD)
			return false;
	}
	return ok;
}

/*
 * Open a connection for node as the current role; NULL if it cannot be
 * opened.  Interruptible: a cancel closes the half-open connection.
 */
static PGconn *
open_conn(BsFanNode *node, const char *user)
{
	const char *keys[32];
	const char *vals[32];
	int			n = 0;
	PQconninfoOption *extra = NULL;
	PGconn	   *volatile conn;

	/* citus.node_conninfo first: the node, database and user below win */
	if (node->conninfo[0] != '\0')
	{
		char	   *err = NULL;

		extra = PQconninfoParse(node->conninfo, &err);
		if (extra == NULL)
		{
			if (err)
				PQfreemem(err);
			return NULL;
		}
		for (PQconninfoOption *o = extra; o->keyword && n < 24; o++)
			if (o->val && o->val[0] != '\0')
			{
				keys[n] = o->keyword;
				vals[n] = o->val;
				n++;
			}
	}
	keys[n] = "host";
	vals[n++] = node->host;
	keys[n] = "port";
	vals[n++] = node->port;
	keys[n] = "dbname";
	vals[n++] = get_database_name(MyDatabaseId);
	keys[n] = "user";
	vals[n++] = user;
	keys[n] = "application_name";
	vals[n++] = "benchstore_cluster";
	keys[n] = NULL;
	vals[n] = NULL;

	conn = PQconnectStartParams(keys, vals, false);
	if (extra)
		PQconninfoFree(extra);
	if (conn == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	PG_TRY();
	{
		PostgresPollingStatusType st = PGRES_POLLING_WRITING;

		while (PQstatus(conn) != CONNECTION_BAD && PQsocket(conn) >= 0 &&
			   st != PGRES_POLLING_OK && st != PGRES_POLLING_FAILED)
		{
			wait_socket(conn, st == PGRES_POLLING_READING ?
						WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE);
			st = PQconnectPoll(conn);
		}
	}
	PG_CATCH();
	{
		PQfinish(conn);
		PG_RE_THROW();
	}
	PG_END_TRY();

	/* as the role asked for, and nobody else */
	if (PQstatus(conn) != CONNECTION_OK ||
		PQuser(conn) == NULL || strcmp(PQuser(conn), user) != 0)
	{
		PQfinish(conn);
		return NULL;
	}
	return conn;
}

/* The pool's slot of (userid, node), or a free one. */
static BsKeptConn *
find_slot(Oid userid, BsFanNode *node)
{
	BsKeptConn *free_slot = NULL;

	for (int i = 0; i < nkept; i++)
	{
		BsKeptConn *s = kept[i];

		if (s->conn == NULL)
		{
			if (free_slot == NULL)
				free_slot = s;
			continue;
		}
		if (s->userid == userid && s->nodeid == node->nodeid)
		{
			/* the node moved or citus.node_conninfo changed: a new one */
			if (strcmp(s->conninfo, node->conninfo) != 0)
				close_slot(s);
			return s;
		}
	}
	if (free_slot)
		return free_slot;
	if (nkept == maxkept)
	{
		int			newmax = maxkept ? maxkept * 2 : 8;

		if (kept == NULL)
			kept = MemoryContextAlloc(TopMemoryContext,
									  newmax * sizeof(BsKeptConn *));
		else
			kept = repalloc(kept, newmax * sizeof(BsKeptConn *));
		maxkept = newmax;
	}
	kept[nkept] = MemoryContextAllocZero(TopMemoryContext, sizeof(BsKeptConn));
	kept[nkept]->nodeid = -1;
	return kept[nkept++];
}

/*
 * A connection for node, as the current role: the kept one when it still
 * answers, else a new one; false if none can be had.
 */
static bool
connect_node(BsFanNode *node, Oid userid, const char *user)
{
	BsKeptConn *slot = find_slot(userid, node);
	PGconn	   *conn;

	if (slot->conn != NULL)
	{
		/* a round trip: a restarted node's connection fails here */
		if (PQstatus(slot->conn) == CONNECTION_OK &&
			PQtransactionStatus(slot->conn) == PQTRANS_IDLE &&
			PQsendQuery(slot->conn, "") && drain(slot->conn))
		{
			node->slot = slot;
			return true;
		}
		close_slot(slot);
	}
	conn = open_conn(node, user);
	if (conn == NULL)
		return false;
	slot->conn = conn;
	slot->userid = userid;
	slot->nodeid = node->nodeid;
	slot->conninfo = MemoryContextStrdup(TopMemoryContext, node->conninfo);
	node->slot = slot;
	return true;
}

/* The active primary nodes, from Citus's catalog (read as the caller). */
static List *
citus_nodes(bool all_nodes, const char *conninfo)
{
	List	   *nodes = NIL;
	Oid			argtypes[1] = {BOOLOID};
	Datum		args[1] = {BoolGetDatum(all_nodes)};
	MemoryContext outer = CurrentMemoryContext;
	BsSpi		spi;

	bs_spi_connect(&spi);
	if (bs_spi_execute_with_args("SELECT nodeid, nodename, nodeport "
							  "FROM pg_catalog.pg_dist_node "
							  "WHERE isactive AND noderole OPERATOR(pg_catalog.=) 'primary' "
							  "AND (groupid OPERATOR(pg_catalog.<>) 0 OR $1) "
							  "ORDER BY nodename, nodeport",
							  1, argtypes, args, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_dist_node");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		MemoryContext spicxt = MemoryContextSwitchTo(outer);
		BsFanNode  *node = palloc0(sizeof(BsFanNode));

		node->nodeid = pg_strtoint32(SPI_getvalue(tup, desc, 1));
		node->host = SPI_getvalue(tup, desc, 2);
		node->port = SPI_getvalue(tup, desc, 3);
		node->name = psprintf("%s:%s", node->host, node->port);
		node->conninfo = pstrdup(conninfo);
		nodes = lappend(nodes, node);
		MemoryContextSwitchTo(spicxt);
	}
	bs_spi_finish(&spi);
	return nodes;
}

static void
append_entry(StringInfo buf, const char *node, bool success, const char *result)
{
	if (buf->len > 1)
		appendStringInfoString(buf, ", ");
	appendStringInfoString(buf, "{\"node\": ");
	escape_json(buf, node);
	appendStringInfo(buf, ", \"success\": %s, \"result\": ", success ? "true" : "false");
	if (result)
		escape_json(buf, result);
	else
		appendStringInfoString(buf, "null");
	appendStringInfoChar(buf, '}');
}

/* A node's error message without libpq's trailing newline. */
static char *
error_text(PGconn *conn, PGresult *res)
{
	const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	char	   *copy;
	int			len;

	if (msg == NULL)
		msg = PQerrorMessage(conn);
	copy = pstrdup(msg ? msg : "no message");
	len = strlen(copy);
	while (len > 0 && (copy[len - 1] == '\n' || copy[len - 1] == ' '))
		copy[--len] = '\0';
	return copy;
}

PG_FUNCTION_INFO_V1(bench_cluster_citus_kept);

/*
 * _bench_cluster_citus_kept(command, all_nodes): the command on every
 * active primary worker (and the coordinator when all_nodes) at once, over
 * the current role's kept connections.  Returns what
 * run_command_on_workers would, as a jsonb array of {node, success,
 * result} (result: the command's one value, or the node's error), or NULL
 * when a connection cannot be opened or Citus is not installed.
 *
 * Safe to call directly with any argument, which is why it stays
 * executable by PUBLIC (the public bench_cluster_* functions call it as
 * their caller): it runs the command as the caller, on the caller's own
 * connections, as run_command_on_workers would.
 */
Datum
bench_cluster_citus_kept(PG_FUNCTION_ARGS)
{
	char	   *command;
	bool		all_nodes;
	Oid			userid = GetUserId();
	char	   *user;
	const char *conninfo;
	List	   *volatile nodes;
	ListCell   *lc;
	StringInfoData buf;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	command = text_to_cstring(PG_GETARG_TEXT_PP(0));
	all_nodes = PG_GETARG_BOOL(1);
	if (get_relname_relid("pg_dist_node", PG_CATALOG_NAMESPACE) == InvalidOid)
		PG_RETURN_NULL();
	user = GetUserNameFromId(userid, false);
	conninfo = GetConfigOption("citus.node_conninfo", true, false);
	nodes = citus_nodes(all_nodes, conninfo ? conninfo : "");
	if (nodes == NIL)
		PG_RETURN_NULL();

	foreach(lc, nodes)
	{
		if (!connect_node((BsFanNode *) lfirst(lc), userid, user))
			PG_RETURN_NULL();
	}

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	PG_TRY();
	{
		foreach(lc, nodes)
		{
			BsFanNode  *node = lfirst(lc);

			if (!PQsendQuery(node->slot->conn, command))
				append_entry(&buf, node->name, false,
							 error_text(node->slot->conn, NULL));
			else
				node->sent = true;
		}
		foreach(lc, nodes)
		{
			BsFanNode  *node = lfirst(lc);
			PGconn	   *conn = node->slot->conn;
			PGresult   *res;
			ExecStatusType st;

			if (!node->sent)
				continue;
			res = next_result(conn);
			st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
			if (st == PGRES_TUPLES_OK && PQntuples(res) == 1 && PQnfields(res) == 1)
				append_entry(&buf, node->name, true,
							 PQgetisnull(res, 0, 0) ? NULL : PQgetvalue(res, 0, 0));
			else if (st == PGRES_TUPLES_OK)
				append_entry(&buf, node->name, false,
							 psprintf("the command returned %d rows of %d columns, not one value",
									  PQntuples(res), PQnfields(res)));
			else if (st == PGRES_COMMAND_OK)
				append_entry(&buf, node->name, true, PQcmdStatus(res));
			else
				append_entry(&buf, node->name, false, error_text(conn, res));
			if (res)
				PQclear(res);
			/* the end of its results, before the connection is used again */
			if (!drain(conn) || PQstatus(conn) != CONNECTION_OK)
				close_slot(node->slot);
			node->sent = false;
		}
	}
	PG_CATCH();
	{
		/* the nodes' commands cancelled, the call's connections closed */
		foreach(lc, nodes)
		{
			BsFanNode  *node = lfirst(lc);

			if (node->slot == NULL || node->slot->conn == NULL)
				continue;
			if (node->sent)
			{
				PGcancel   *cancel = PQgetCancel(node->slot->conn);
				char		errbuf[256];

				if (cancel)
				{
					(void) PQcancel(cancel, errbuf, sizeof(errbuf));
					PQfreeCancel(cancel);
				}
			}
			close_slot(node->slot);
		}
		PG_RE_THROW();
	}
	PG_END_TRY();
	appendStringInfoChar(&buf, ']');
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}
