/*-------------------------------------------------------------------------
 *
 * perm.h
 *	  A random order of 0 .. n-1 without a table (perm.c).
 *
 * src/perm.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_PERM_H
#define BENCHSTORE_PERM_H

#include "common/pg_prng.h"

typedef struct BsPerm
{
	uint64		n;				/* values in the current pass */
	int			half_bits;
	uint64		keys[4];
	uint64		next;			/* next index to permute */
} BsPerm;

extern uint64 bs_perm_next(BsPerm *perm, uint64 n, pg_prng_state *prng);

#endif							/* BENCHSTORE_PERM_H */
