/*-------------------------------------------------------------------------
 *
 * citus.h
 *	  citus.c: Citus tables, where Citus is installed: which of a query's
 *	  relations are, the size of one copy of their shards, and their
 *	  shards' eviction on the nodes that hold them.
 *
 * src/citus.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_CITUS_H
#define BENCHSTORE_CITUS_H

#include "nodes/pg_list.h"

extern List *bs_citus_tables(List *relids);
extern uint64 bs_citus_one_copy_bytes(Oid relid);
extern void bs_citus_evict_shards(Oid relid);

#endif							/* BENCHSTORE_CITUS_H */
