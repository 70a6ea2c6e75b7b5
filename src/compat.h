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
#include "common/relpath.h"
#include "executor/instrument.h"
#include "funcapi.h"
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

/* 15.0 shipped SetSingleFuncCall; 15.1 renamed it InitMaterializedSRF. */
#if PG_VERSION_NUM < 150001
#define InitMaterializedSRF(fcinfo, flags) SetSingleFuncCall((fcinfo), (flags))
#endif

#endif							/* BENCHSTORE_COMPAT_H */
