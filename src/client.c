/*-------------------------------------------------------------------------
 *
 * client.c
 *	  A benchmark whose client has gone away stops within about a second.
 *
 * A backend learns that its client went away (psql killed, its output
 * piped into a head that exited, a dropped network) only when it next
 * reads from or writes to the socket, which a benchmark does at its end:
 * a 10 GB bench_tablespace_io would write on for minutes, with no one to
 * read its result.  PostgreSQL's client_connection_check_interval polls
 * the socket during a query (pq_check_connection(): is it closed?) and
 * ends the session with FATAL "connection to client lost" at the next
 * CHECK_FOR_INTERRUPTS(), which every benchmark loop calls; the end of the
 * session then removes the run's files and stops its parallel workers as
 * a terminated backend's does.  It is off by default, so each benchmark
 * call turns it on for its own duration, every BS_CLIENT_CHECK_MS, unless
 * the caller has set it already (their value is kept): the setting goes
 * back to the caller's value when the call ends or fails, as a function's
 * SET clause does.  Only a backend serving a client over the frontend
 * protocol checks (not a background worker, and not a single-user
 * backend).
 *
 * Only the pointer MyProcPort (miscadmin.h) is tested, never dereferenced:
 * libpq/libpq-be.h, which would pull in <gssapi/gssapi.h> on servers built
 * with GSSAPI (Debian's are), is not included, so building needs nothing
 * beyond the server's headers.
 *
 * src/client.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "client.h"
#include "miscadmin.h"
#include "tcop/dest.h"
#include "tcop/tcopprot.h"
#include "utils/guc.h"
#include "utils/timeout.h"


/*
 * Start watching the client for one benchmark call.  bs_client_watch_end
 * undoes it; an error undoes it too (the transaction or subtransaction
 * abort resets the setting, and a check timer left armed then finds the
 * setting off and stops).
 */
void
bs_client_watch_begin(BsClientWatch *watch)
{
	memset(watch, 0, sizeof(*watch));
	if (!IsUnderPostmaster || MyProcPort == NULL ||
		whereToSendOutput != DestRemote)
		return;

	if (client_connection_check_interval == 0)
	{
		char		value[32];

		snprintf(value, sizeof(value), "%d", BS_CLIENT_CHECK_MS);
		watch->gucnest = NewGUCNestLevel();
		(void) set_config_option("client_connection_check_interval", value,
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
								 true, 0, false);
	}
	if (client_connection_check_interval > 0 &&
		!get_timeout_active(CLIENT_CONNECTION_CHECK_TIMEOUT))
	{
		enable_timeout_after(CLIENT_CONNECTION_CHECK_TIMEOUT,
							 client_connection_check_interval);
		watch->armed = true;
	}
}

/* The call is over: the setting as the caller had it, the timer stopped. */
void
bs_client_watch_end(BsClientWatch *watch)
{
	if (watch->gucnest > 0)
		AtEOXact_GUC(true, watch->gucnest);
	if (watch->armed && client_connection_check_interval == 0)
		disable_timeout(CLIENT_CONNECTION_CHECK_TIMEOUT, false);
	watch->gucnest = 0;
	watch->armed = false;
}
