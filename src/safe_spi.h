/*-------------------------------------------------------------------------
 *
 * safe_spi.h
 *	  The one way benchstore's C code runs SQL: every statement through SPI
 *	  runs under search_path = pg_catalog, pg_temp (as the SQL functions'
 *	  SET clause has it), so that no object or operator another role
 *	  planted on the caller's search_path can be chosen (CVE-2018-1058).
 *	  The statements also name their objects and operators qualified.
 *	  test/check-source.sh fails the build's checks on any SPI call
 *	  outside src/safe_spi.c.
 *
 * src/safe_spi.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_SAFE_SPI_H
#define BENCHSTORE_SAFE_SPI_H

#include "executor/spi.h"

/* the search_path of every statement benchstore runs */
#define BS_SAFE_SEARCH_PATH "pg_catalog, pg_temp"

/* A block of statements: connected to SPI, under the safe search_path. */
typedef struct BsSpi
{
	int			gucnest;		/* GUC nest level to pop; 0 in a session */
	bool		as_role;		/* the user was switched (bs_spi_connect_as) */
	Oid			save_userid;
	int			save_sec_context;
} BsSpi;

extern void bs_spi_connect(BsSpi *spi);
extern void bs_spi_connect_as(BsSpi *spi, Oid role);
extern void bs_spi_finish(BsSpi *spi);

/* a background session: the safe search_path for its whole life */
extern void bs_spi_session_search_path(void);

/* SPI's own calls, each refused outside a safe block */
extern int	bs_spi_execute(const char *sql, bool read_only, long count);
extern int	bs_spi_execute_with_args(const char *sql, int nargs, Oid *argtypes,
									 Datum *values, const char *nulls,
									 bool read_only, long count);
extern SPIPlanPtr bs_spi_prepare(const char *sql, int nargs, Oid *argtypes);
extern int	bs_spi_execute_plan(SPIPlanPtr plan, Datum *values, const char *nulls,
								bool read_only, long count);

#endif							/* BENCHSTORE_SAFE_SPI_H */
