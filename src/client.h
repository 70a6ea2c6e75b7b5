/*-------------------------------------------------------------------------
 *
 * client.h
 *	  client.c: a benchmark call notices, within about a second, that its
 *	  client has gone away.
 *
 * src/client.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_CLIENT_H
#define BENCHSTORE_CLIENT_H


/*
 * client.c: a benchmark call whose client has gone away ends (FATAL
 * "connection to client lost") within about BS_CLIENT_CHECK_MS.
 */
#define BS_CLIENT_CHECK_MS	1000

typedef struct BsClientWatch
{
	int			gucnest;		/* GUC nest level to pop, or 0 */
	bool		armed;			/* the check timer was started here */
} BsClientWatch;

extern void bs_client_watch_begin(BsClientWatch *watch);
extern void bs_client_watch_end(BsClientWatch *watch);

#endif							/* BENCHSTORE_CLIENT_H */
