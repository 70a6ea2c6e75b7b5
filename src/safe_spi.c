/*-------------------------------------------------------------------------
 *
 * safe_spi.c
 *	  Every SQL statement benchstore's C code runs goes through here, under
 *	  search_path = pg_catalog, pg_temp.
 *
 * A statement resolves its operators, functions, types and tables on the
 * search_path in force when it is parsed.  The caller's search_path may
 * hold a schema another role can create in (public, in a database created
 * before PostgreSQL 15): an operator planted there with a better-matching
 * signature than pg_catalog's (=(oid, integer) where pg_catalog has only
 * =(oid, oid)) would run as the caller, a superuser perhaps
 * (CVE-2018-1058).  So every statement runs inside a block that sets the
 * search_path for itself, as a function's SET clause does:
 *
 *	bs_spi_connect(&spi);			SPI_connect, then the safe search_path
 *	bs_spi_execute(sql, ...);		refused outside such a block
 *	bs_spi_finish(&spi);			SPI_finish, the caller's search_path back
 *
 * bs_spi_connect_as also runs the block as another role, a
 * security-restricted operation (the history is written as its tables'
 * owner).  A background session sets the safe search_path once for its
 * whole life (bs_spi_session_search_path): its plans, prepared once and
 * kept, are made and run under it (the plan cache replans a kept plan
 * under whatever search_path is in force when it runs).  An error inside a block needs no cleanup here:
 * the (sub)transaction's abort pops the GUC nest level and SPI.
 *
 * test/check-source.sh fails CI on any SPI call outside this file, and
 * test/t/020_traps.pl plants, on a superuser's search_path, an operator
 * or function for every signature that could capture benchstore's SQL.
 *
 * src/safe_spi.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "miscadmin.h"
#include "safe_spi.h"
#include "utils/guc.h"

/*
 * Set the safe search_path in a new GUC nest level; returns the level, or
 * 0 where it is already in force (a background session's, set for its
 * whole life: its transactions then pay nothing for it).
 */
static int
push_safe_search_path(void)
{
	int			nest;

	if (namespace_search_path != NULL &&
		strcmp(namespace_search_path, BS_SAFE_SEARCH_PATH) == 0)
		return 0;
	nest = NewGUCNestLevel();

	(void) set_config_option("search_path", BS_SAFE_SEARCH_PATH,
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return nest;
}

/* Connect to SPI under the safe search_path. */
void
bs_spi_connect(BsSpi *spi)
{
	spi->as_role = false;
	spi->gucnest = push_safe_search_path();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
}

/*
 * The same, as role (a security-restricted operation: nothing the block
 * runs can change the session's state or leave anything running as that
 * role).
 */
void
bs_spi_connect_as(BsSpi *spi, Oid role)
{
	GetUserIdAndSecContext(&spi->save_userid, &spi->save_sec_context);
	SetUserIdAndSecContext(role, spi->save_sec_context |
						   SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	spi->as_role = true;
	spi->gucnest = push_safe_search_path();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
}

/* Leave SPI; the caller's search_path (and role) are back. */
void
bs_spi_finish(BsSpi *spi)
{
	SPI_finish();
	if (spi->gucnest > 0)
		AtEOXact_GUC(false, spi->gucnest);
	if (spi->as_role)
		SetUserIdAndSecContext(spi->save_userid, spi->save_sec_context);
}

/*
 * A background session (bench_commit's, bench_tpcb's): the safe
 * search_path for the rest of its life, set before its first statement.
 */
void
bs_spi_session_search_path(void)
{
	(void) set_config_option("search_path", BS_SAFE_SEARCH_PATH,
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SET, true, 0, false);
}

/* A statement may run only under the safe search_path. */
static void
check_safe(const char *what)
{
	if (namespace_search_path == NULL ||
		strcmp(namespace_search_path, BS_SAFE_SEARCH_PATH) != 0)
		elog(ERROR, "benchstore ran %s outside a safe SPI block (search_path is \"%s\")",
			 what, namespace_search_path ? namespace_search_path : "");
}

int
bs_spi_execute(const char *sql, bool read_only, long count)
{
	check_safe("a statement");
	return SPI_execute(sql, read_only, count);
}

int
bs_spi_execute_with_args(const char *sql, int nargs, Oid *argtypes,
						 Datum *values, const char *nulls,
						 bool read_only, long count)
{
	check_safe("a statement");
	return SPI_execute_with_args(sql, nargs, argtypes, values, nulls,
								 read_only, count);
}

SPIPlanPtr
bs_spi_prepare(const char *sql, int nargs, Oid *argtypes)
{
	check_safe("a statement's preparation");
	return SPI_prepare(sql, nargs, argtypes);
}

/*
 * A prepared plan: the plan cache replans a kept plan whenever the
 * search_path in force differs from the one it was made under, so the
 * search_path is checked at every execution, not only at preparation
 * (a string comparison).
 */
int
bs_spi_execute_plan(SPIPlanPtr plan, Datum *values, const char *nulls,
					bool read_only, long count)
{
	check_safe("a prepared statement");
	return SPI_execute_plan(plan, values, nulls, read_only, count);
}
