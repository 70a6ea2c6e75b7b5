/*-------------------------------------------------------------------------
 *
 * permutation.c
 *	  A random order of the blocks of a file or a relation, each block once
 *	  per pass, in constant memory: a keyed permutation of 0 .. n-1.
 *
 * The permutation is a four-round Feistel network over the smallest even
 * number of bits that holds n, with keys drawn from the caller's PRNG at
 * the start of each pass; values of n or more are walked past (cycle
 * walking), so each value below n comes exactly once.  The same PRNG seed
 * gives the same order.  Used by the random tablespace tests
 * (tblspc_io.c) and bench_randread (randread.c), and through
 * _bench_random_keys by bench_generate_randread, which numbers the rows
 * of its table in this order.
 *
 * src/permutation.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "permutation.h"

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

/* The value at index i (below n) of the current pass's order. */
static uint64
perm_at(const BsPerm *perm, uint64 i)
{
	uint64		mask = (UINT64CONST(1) << perm->half_bits) - 1;
	uint64		v = i;

	do
	{
		uint64		l = v >> perm->half_bits;
		uint64		r = v & mask;

		for (int k = 0; k < 4; k++)
		{
			uint64		t = r;

			r = l ^ (perm_round(r, perm->keys[k]) & mask);
			l = t;
		}
		v = (l << perm->half_bits) | r;
	} while (v >= perm->n);
	return v;
}

/*
 * The next value of the order over 0 .. n-1; a new pass, with new keys,
 * when the last one is done or n changed.
 */
uint64
bs_perm_next(BsPerm *perm, uint64 n, pg_prng_state *prng)
{
	Assert(n > 0);
	if (perm->n != n || perm->next >= n)
		perm_start_pass(perm, n, prng);
	return perm_at(perm, perm->next++);
}

/* A cursor over seed's order, before its first pass. */
void
bs_perm_cursor_init(BsPermCursor *c, uint64 seed)
{
	memset(c, 0, sizeof(*c));
	pg_prng_seed(&c->prng, seed);
}

/*
 * The value at position pos of seed's order over 0 .. n-1: pass pos / n,
 * index pos % n.  Each pass's keys are the PRNG's next four draws, as in
 * bs_perm_next, so the keys of a later pass are reached by drawing those
 * of the passes between; a cursor cannot go back to an earlier pass.
 */
uint64
bs_perm_cursor_at(BsPermCursor *c, uint64 n, uint64 pos)
{
	uint64		pass = pos / n;

	Assert(n > 0);
	if (!c->started)
	{
		perm_start_pass(&c->perm, n, &c->prng);
		c->pass = 0;
		c->started = true;
	}
	if (pass < c->pass)
		elog(ERROR, "position " UINT64_FORMAT " lies in a pass before the cursor's",
			 pos);
	while (c->pass < pass)
	{
		CHECK_FOR_INTERRUPTS();
		perm_start_pass(&c->perm, n, &c->prng);
		c->pass++;
	}
	return perm_at(&c->perm, pos % n);
}

/*
 * _bench_random_keys(n, seed, first, last): the first pass of seed's order
 * over 1 .. n, from its position first to last (1-based, both included).
 * bench_generate_randread inserts rows in batches of positions, each row
 * keyed by the value at its position, so that the keys lie in random order
 * in the heap without sorting a table larger than memory.
 */
PG_FUNCTION_INFO_V1(_bench_random_keys);

typedef struct RandomKeysState
{
	BsPerm		perm;
	int64		next;			/* 1-based position of the next value */
	int64		last;			/* 1-based position of the last value */
} RandomKeysState;

Datum
_bench_random_keys(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	RandomKeysState *st;

	if (SRF_IS_FIRSTCALL())
	{
		int64		n = PG_GETARG_INT64(0);
		int64		seed = PG_GETARG_INT64(1);
		int64		first = PG_GETARG_INT64(2);
		int64		last = PG_GETARG_INT64(3);
		pg_prng_state prng;
		MemoryContext oldcontext;

		if (n < 1 || n > (INT64CONST(1) << 62))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("n must be between 1 and 2^62")));
		if (first < 1 || last > n || first > last + 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("positions must lie between 1 and n, first no further than last + 1")));
		funcctx = SRF_FIRSTCALL_INIT();
		oldcontext = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		st = palloc0(sizeof(RandomKeysState));
		pg_prng_seed(&prng, (uint64) seed);
		perm_start_pass(&st->perm, (uint64) n, &prng);
		st->next = first;
		st->last = last;
		funcctx->user_fctx = st;
		MemoryContextSwitchTo(oldcontext);
	}
	funcctx = SRF_PERCALL_SETUP();
	st = funcctx->user_fctx;
	if (st->next > st->last)
		SRF_RETURN_DONE(funcctx);
	SRF_RETURN_NEXT(funcctx,
					Int64GetDatum((int64) perm_at(&st->perm, (uint64) (st->next++ - 1)) + 1));
}
