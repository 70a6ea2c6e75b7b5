/*-------------------------------------------------------------------------
 *
 * target.h
 *	  The relation a benchmark reads, checked and expanded to the relations
 *	  with storage behind it (see target.c).
 *
 * src/target.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_TARGET_H
#define BENCHSTORE_TARGET_H

#include "nodes/pg_list.h"
#include "utils/relcache.h"

typedef struct BsTarget
{
	Relation	rel;			/* the relation named, AccessShareLock */
	List	   *storage_relids; /* it and its descendants with storage */
	List	   *open_nblocks;	/* each one's main-fork blocks when opened
								 * (int list, BlockNumber bits) */
	Oid			tablespace;		/* their tablespace; InvalidOid if several */
} BsTarget;

extern BsTarget *bs_open_target(Oid relid, bool heap_only);
extern void bs_close_target(BsTarget *target);
extern void bs_refuse_citus_shell(BsTarget *target);

#endif							/* BENCHSTORE_TARGET_H */
