/*-------------------------------------------------------------------------
 *
 * perm.c
 *	  A random order of the blocks of a file or a relation, each block once
 *	  per pass, in constant memory: a keyed permutation of 0 .. n-1.
 *
 * The permutation is a four-round Feistel network over the smallest even
 * number of bits that holds n, with keys drawn from the caller's PRNG at
 * the start of each pass; values of n or more are walked past (cycle
 * walking), so each value below n comes exactly once.  The same PRNG seed
 * gives the same order.  Used by the random tablespace tests
 * (tblspc_io.c) and bench_randread (randread.c).
 *
 * src/perm.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "perm.h"

/* A round function: a 64-bit mixer (its constants are MurmurHash3's). */
static inline uint64
perm_round(uint64 half, uint64 key)
{
	uint64		h = half ^ key;

	h ^= h >> 33;
	h *= UINT64CONST(0xff51afd7ed558ccd);
	h ^= h >> 33;
	h *= UINT64CONST(0xc4ceb9fe1a85ec53);
	h ^= h >> 33;
	return h;
}

static void
perm_start_pass(BsPerm *perm, uint64 n, pg_prng_state *prng)
{
	int			bits = 2;

	while (bits < 62 && (UINT64CONST(1) << bits) < n)
		bits += 2;
	perm->n = n;
	perm->half_bits = bits / 2;
	for (int i = 0; i < 4; i++)
		perm->keys[i] = pg_prng_uint64(prng);
	perm->next = 0;
}

/*
 * The next value of the order over 0 .. n-1; a new pass, with new keys,
 * when the last one is done or n changed.
 */
uint64
bs_perm_next(BsPerm *perm, uint64 n, pg_prng_state *prng)
{
	uint64		mask;
	uint64		v;

	Assert(n > 0);
	if (perm->n != n || perm->next >= n)
		perm_start_pass(perm, n, prng);
	mask = (UINT64CONST(1) << perm->half_bits) - 1;
	v = perm->next++;
	do
	{
		uint64		l = v >> perm->half_bits;
		uint64		r = v & mask;

		for (int i = 0; i < 4; i++)
		{
			uint64		t = r;

			r = l ^ (perm_round(r, perm->keys[i]) & mask);
			l = t;
		}
		v = (l << perm->half_bits) | r;
	} while (v >= n);
	return v;
}
