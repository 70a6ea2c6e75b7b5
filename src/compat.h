/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  PG_VERSION_NUM shims: every call whose name or shape differs between
 *	  PostgreSQL 15 (the platform) and 16-18 is spelled here once, so the
 *	  capability files read the same on every version.
 *
 * src/compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef BENCHSTORE_COMPAT_H
#define BENCHSTORE_COMPAT_H

#include "access/xlog.h"
#include "catalog/pg_tablespace_d.h"
#include "common/relpath.h"
#include "executor/instrument.h"
#include "funcapi.h"
#include "portability/instr_time.h"
#include "utils/rel.h"

#if PG_VERSION_NUM < 150000
#error "benchstore requires PostgreSQL 15 or later"
#endif

/*
 * Path of one fork of a relation, relative to the data directory, as a
 * palloc'd string.  PG16 renamed RelFileNode to RelFileLocator; PG18 made
 * relpathbackend() return a RelPathStr by value.
 */
#if PG_VERSION_NUM >= 180000
#define bs_relation_fork_path(rel, forknum) \
	pstrdup(relpathbackend((rel)->rd_locator, (rel)->rd_backend, (forknum)).str)
#elif PG_VERSION_NUM >= 160000
#define bs_relation_fork_path(rel, forknum) \
	relpathbackend((rel)->rd_locator, (rel)->rd_backend, (forknum))
#else
#define bs_relation_fork_path(rel, forknum) \
	relpathbackend((rel)->rd_node, (rel)->rd_backend, (forknum))
#endif

/*
 * Time spent reading blocks, shared and local, from a BufferUsage diff.
 * PG17 split blk_read_time into shared_blk_read_time and local_blk_read_time.
 */
#if PG_VERSION_NUM >= 170000
#define bs_buffer_read_time_ms(bu) \
	(INSTR_TIME_GET_MILLISEC((bu)->shared_blk_read_time) + \
	 INSTR_TIME_GET_MILLISEC((bu)->local_blk_read_time))
#else
#define bs_buffer_read_time_ms(bu) \
	INSTR_TIME_GET_MILLISEC((bu)->blk_read_time)
#endif

/*
 * PG19 renamed CHECKPOINT_IMMEDIATE to CHECKPOINT_FAST and
 * CHECKPOINT_FLUSH_ALL (also write unlogged relations) to
 * CHECKPOINT_FLUSH_UNLOGGED.
 */
#if PG_VERSION_NUM >= 190000
#define BS_CHECKPOINT_NOW		CHECKPOINT_FAST
#define BS_CHECKPOINT_UNLOGGED	CHECKPOINT_FLUSH_UNLOGGED
#else
#define BS_CHECKPOINT_NOW		CHECKPOINT_IMMEDIATE
#define BS_CHECKPOINT_UNLOGGED	CHECKPOINT_FLUSH_ALL
#endif

/*
 * A buffer tag's relation, database and fork, and a relation's own: PG16
 * flattened BufferTag (spcOid, dbOid, relNumber) and RelFileNode became
 * RelFileLocator.  Used with storage/buf_internals.h.
 */
#if PG_VERSION_NUM >= 160000
#define bs_buftag_relnumber(tag)	((tag)->relNumber)
#define bs_buftag_dboid(tag)		((tag)->dbOid)
#define bs_buftag_spcoid(tag)		((tag)->spcOid)
#define bs_buftag_forknum(tag)		BufTagGetForkNum(tag)
#define bs_rel_relnumber(rel)		((rel)->rd_locator.relNumber)
#define bs_rel_dboid(rel)			((rel)->rd_locator.dbOid)
#define bs_rel_spcoid(rel)			((rel)->rd_locator.spcOid)
#else
#define bs_buftag_relnumber(tag)	((tag)->rnode.relNode)
#define bs_buftag_dboid(tag)		((tag)->rnode.dbNode)
#define bs_buftag_spcoid(tag)		((tag)->rnode.spcNode)
#define bs_buftag_forknum(tag)		((tag)->forkNum)
#define bs_rel_relnumber(rel)		((rel)->rd_node.relNode)
#define bs_rel_dboid(rel)			((rel)->rd_node.dbNode)
#define bs_rel_spcoid(rel)			((rel)->rd_node.spcNode)
#endif

/*
 * Evicting one unpinned shared buffer (after writing it if dirty): PG17
 * added EvictUnpinnedBuffer(buf), PG18 reports whether it wrote the page.
 * Earlier servers cannot drop a buffer of a live relation.
 */
#if PG_VERSION_NUM >= 170000
#define BS_CAN_EVICT_BUFFERS 1
#endif

/* The server's wal_sync_method: PG17 renamed the variable and its values. */
#if PG_VERSION_NUM >= 170000
#define BS_WAL_SYNC_METHOD			wal_sync_method
#define BS_SYNC_METHOD_FDATASYNC	WAL_SYNC_METHOD_FDATASYNC
#define BS_SYNC_METHOD_OPEN			WAL_SYNC_METHOD_OPEN
#define BS_SYNC_METHOD_OPEN_DSYNC	WAL_SYNC_METHOD_OPEN_DSYNC
#else
#define BS_WAL_SYNC_METHOD			sync_method
#define BS_SYNC_METHOD_FDATASYNC	SYNC_METHOD_FDATASYNC
#define BS_SYNC_METHOD_OPEN			SYNC_METHOD_OPEN
#define BS_SYNC_METHOD_OPEN_DSYNC	SYNC_METHOD_OPEN_DSYNC
#endif

/*
 * Whether the session user is a superuser, as SetSessionAuthorization
 * takes it: PG16 removed GetSessionUserIsSuperuser (17 has it again), so
 * there the role's own attribute is read.
 */
#if PG_VERSION_NUM >= 160000 && PG_VERSION_NUM < 170000
#define bs_session_user_is_superuser() superuser_arg(GetSessionUserId())
#else
#define bs_session_user_is_superuser() GetSessionUserIsSuperuser()
#endif

/*
 * expression_tree_walker: before 16 its walker is an unprototyped "bool
 * (*) ()", which C23 reads as taking no arguments (and clang's strict
 * function-cast warning refuses a direct cast to it, hence through void
 * *); 16 made it a macro that casts the walker itself.
 */
#if PG_VERSION_NUM < 160000
#define bs_expression_tree_walker(node, walker, context) \
	expression_tree_walker((node), (bool (*) ()) (void *) (walker), (context))
#else
#define bs_expression_tree_walker(node, walker, context) \
	expression_tree_walker((node), (walker), (context))
#endif

/* PG16 replaced the per-object aclcheck functions with object_aclcheck. */
#if PG_VERSION_NUM >= 160000
#define bs_tablespace_aclcheck(spc, role, mode) \
	object_aclcheck(TableSpaceRelationId, (spc), (role), (mode))
#else
#define bs_tablespace_aclcheck(spc, role, mode) \
	pg_tablespace_aclcheck((spc), (role), (mode))
#endif
#if PG_VERSION_NUM >= 160000
#define bs_namespace_aclcheck(nsp, role, mode) \
	object_aclcheck(NamespaceRelationId, (nsp), (role), (mode))
#else
#define bs_namespace_aclcheck(nsp, role, mode) \
	pg_namespace_aclcheck((nsp), (role), (mode))
#endif

/* An instr_time in nanoseconds: PG16 made instr_time an int64 of them. */
#if PG_VERSION_NUM >= 160000
#define bs_instr_time_ns(t)		((uint64) INSTR_TIME_GET_NANOSEC(t))
#else
#define bs_instr_time_ns(t) \
	((uint64) (t).tv_sec * UINT64CONST(1000000000) + (uint64) (t).tv_nsec)
#endif

/*
 * ExecutorRun: PostgreSQL 18 dropped the execute_once argument (a plan run
 * to completion may always use parallel workers).
 */
#if PG_VERSION_NUM >= 180000
#define bs_executor_run_all(qd)	ExecutorRun((qd), ForwardScanDirection, 0)
#else
#define bs_executor_run_all(qd)	ExecutorRun((qd), ForwardScanDirection, 0, true)
#endif

/* pg_plan_query: PostgreSQL 19 adds an ExplainState argument. */
#if PG_VERSION_NUM >= 190000
#define bs_plan_query(q, src, opts)	pg_plan_query((q), (src), (opts), NULL, NULL)
#else
#define bs_plan_query(q, src, opts)	pg_plan_query((q), (src), (opts), NULL)
#endif

/*
 * The executor's permission check of a plan's range table: PostgreSQL 16
 * moved the permissions into a list of their own.
 */
#if PG_VERSION_NUM >= 160000
#define bs_check_plan_permissions(stmt) \
	ExecCheckPermissions((stmt)->rtable, (stmt)->permInfos, true)
#else
#define bs_check_plan_permissions(stmt) \
	ExecCheckRTPerms((stmt)->rtable, true)
#endif

/* PG15 has MarkGUCPrefixReserved; keep the name where it is missing. */
#if PG_VERSION_NUM < 150000
#define MarkGUCPrefixReserved(x) EmitWarningsOnPlaceholders(x)
#endif

/* 15.0 shipped SetSingleFuncCall; 15.1 renamed it InitMaterializedSRF. */
#if PG_VERSION_NUM < 150001
#define InitMaterializedSRF(fcinfo, flags) SetSingleFuncCall((fcinfo), (flags))
#endif

/*
 * planstate_tree_walker() with a prototyped callback,
 * bool walker(PlanState *, void *).  PG16 declares the callback type and
 * its own macro casts to it.  PG15 declares the parameter as the
 * unprototyped bool (*)(), which C23 (clang 19 -std=gnu23, GCC 15 by
 * default) reads as bool (*)(void), so passing a prototyped function is an
 * error; and any cast between the two types is flagged by clang's
 * -Wcast-function-type-strict, which PGXS's -Wcast-function-type turns on.
 * A union hands the same pointer over under the parameter's type without a
 * cast; PG15's walker calls it with (planstate, context), as before.
 */
#if PG_VERSION_NUM >= 160000
#define bs_planstate_tree_walker(ps, walker, context) \
	planstate_tree_walker((ps), (walker), (context))
#else
typedef union BsPlanstateWalker
{
	bool		(*typed) (struct PlanState *planstate, void *context);
	bool		(*untyped) ();
} BsPlanstateWalker;

#define bs_planstate_tree_walker(ps, walker, context) \
	planstate_tree_walker((ps), ((BsPlanstateWalker) {.typed = (walker)}).untyped, (context))
#endif

#endif							/* BENCHSTORE_COMPAT_H */
