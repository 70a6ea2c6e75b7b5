/*-------------------------------------------------------------------------
 *
 * permutation.h
 *	  A random order of 0 .. n-1 without a table (permutation.c).
 *
 * src/permutation.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_PERMUTATION_H
#define BENCHSTORE_PERMUTATION_H

#include "common/pg_prng.h"

typedef struct BsPerm
{
	uint64		n;				/* values in the current pass */
	int			half_bits;
	uint64		keys[4];
	uint64		next;			/* next index to permute */
} BsPerm;

extern uint64 bs_perm_next(BsPerm *perm, uint64 n, pg_prng_state *prng);

/*
 * The same order read by position, for processes that share it out: the
 * value at position pos of the passes bs_perm_next would walk with the
 * same seed.  A cursor moves forward only (positions of later passes).
 */
typedef struct BsPermCursor
{
	pg_prng_state prng;
	BsPerm		perm;
	uint64		pass;			/* the pass perm's keys are of */
	bool		started;
} BsPermCursor;

extern void bs_perm_cursor_init(BsPermCursor *c, uint64 seed);
extern uint64 bs_perm_cursor_at(BsPermCursor *c, uint64 n, uint64 pos);

#endif							/* BENCHSTORE_PERMUTATION_H */
