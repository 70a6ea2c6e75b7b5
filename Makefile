# benchstore: PGXS build, pg_regress and TAP tests.
#
#   make && make install          build and install into the server found by PG_CONFIG
#   make installcheck             pg_regress against a running server (PGHOST/PGPORT),
#                                 then the TAP tests in test/t (they start their own)
#
# Warning flags are not set here; CI passes them, e.g.
#   make PG_CFLAGS="-Wall -Wextra -Werror -Wno-unused-parameter -Wno-sign-compare"

MODULE_big = benchstore
OBJS = \
	src/attribution.o \
	src/bench_driver.o \
	src/benchstore.o \
	src/blockdev.o \
	src/cache.o \
	src/citus.o \
	src/citus_pool.o \
	src/commit.o \
	src/sessions.o \
	src/tpcb.o \
	src/client.o \
	src/iostat.o \
	src/permutation.o \
	src/seqscan.o \
	src/seqscan_parallel.o \
	src/series.o \
	src/steady.o \
	src/histogram.o \
	src/history.o \
	src/io_engine.o \
	src/prefault.o \
	src/progress.o \
	src/query.o \
	src/randread.o \
	src/randread_parallel.o \
	src/randread_reader.o \
	src/run_tables.o \
	src/safe_spi.o \
	src/scan_reads.o \
	src/session_limits.o \
	src/target.o \
	src/tblspc_io.o \
	src/tblspc_io_stream.o
PGFILEDESC = "benchstore - measure storage from inside PostgreSQL"

# libpq, for benchstore_cluster's connections to the Citus nodes
# (src/citus_pool.c), as contrib's dblink and postgres_fdw link it; its
# headers come with the server's (postgresql-server-dev-NN needs libpq-dev).
PG_CPPFLAGS = -I$(libpq_srcdir)
SHLIB_LINK_INTERNAL = $(libpq)

# benchstore_cluster: the SQL-only companion that runs the benchmarks on
# every node of a PL/Proxy cluster (or Citus); it needs plproxy, the core
# extension does not.
EXTENSION = benchstore benchstore_cluster
# The released scripts, frozen as released (test/released.sha256)...
DATA = benchstore--1.0.sql benchstore--1.0--1.1.sql \
	benchstore_cluster--1.0.sql benchstore_cluster--1.0--1.1.sql
# ...and the current version's, built from the SQL sources in src/sql/
# (each object defined once, in a file by topic; see src/sql/assemble.sh):
# the install script a fresh CREATE EXTENSION runs, and the update from
# the last release.
BS_VERSION = 1.2
BS_PREVIOUS = 1.1
DATA_built = benchstore--$(BS_VERSION).sql benchstore--$(BS_PREVIOUS)--$(BS_VERSION).sql \
	benchstore_cluster--$(BS_VERSION).sql benchstore_cluster--$(BS_PREVIOUS)--$(BS_VERSION).sql

REGRESS = setup seqscan seqscan_errors seqscan_privileges relation_sizes cache tablespace_io history advice query tpch series steady svg randread generate_randread readahead_sweep plan_crossover commit tpcb
REGRESS_OPTS = --inputdir=. --outputdir=. --encoding=UTF8

TAP_TESTS = 1
PROVE_TESTS = test/t/*.pl

EXTRA_CLEAN = results regression.diffs regression.out tmp_check log

PG_CONFIG ?= pg_config

# make dist and make bs-built-scripts need no PostgreSQL installed.
ifeq ($(filter dist bs-built-scripts,$(MAKECMDGOALS)),)
# io_uring (iodepth > 1) when liburing's headers are there; without them
# the extension builds and iodepth > 1 is refused.  BS_LIBURING=no builds
# without it anyway.
BS_LIBURING ?= $(shell printf '\043include <liburing.h>\nint main(void){struct io_uring r; return io_uring_queue_init(1, &r, 0);}\n' | \
	$(shell $(PG_CONFIG) --cc) -x c -o /dev/null - -luring >/dev/null 2>&1 && echo yes || echo no)
ifeq ($(BS_LIBURING),yes)
PG_CPPFLAGS += -DBS_HAVE_LIBURING
SHLIB_LINK += -luring
endif

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
endif

# The scripts built from src/sql/ (no PostgreSQL needed).
BS_ASSEMBLE = $(srcdir)/src/sql/assemble.sh
benchstore--$(BS_VERSION).sql: $(BS_ASSEMBLE) $(wildcard $(srcdir)/src/sql/benchstore/*)
	sh $(BS_ASSEMBLE) benchstore install $(BS_VERSION) > $@.tmp && mv $@.tmp $@
benchstore--$(BS_PREVIOUS)--$(BS_VERSION).sql: $(BS_ASSEMBLE) $(wildcard $(srcdir)/src/sql/benchstore/*)
	sh $(BS_ASSEMBLE) benchstore update $(BS_PREVIOUS) $(BS_VERSION) > $@.tmp && mv $@.tmp $@
benchstore_cluster--$(BS_VERSION).sql: $(BS_ASSEMBLE) $(wildcard $(srcdir)/src/sql/benchstore_cluster/*)
	sh $(BS_ASSEMBLE) benchstore_cluster install $(BS_VERSION) > $@.tmp && mv $@.tmp $@
benchstore_cluster--$(BS_PREVIOUS)--$(BS_VERSION).sql: $(BS_ASSEMBLE) $(wildcard $(srcdir)/src/sql/benchstore_cluster/*)
	sh $(BS_ASSEMBLE) benchstore_cluster update $(BS_PREVIOUS) $(BS_VERSION) > $@.tmp && mv $@.tmp $@

# The names of the scripts built from src/sql/ (test/package.sh).
.PHONY: bs-built-scripts
bs-built-scripts:
	@echo $(DATA_built)

# The objects depend on the shared headers (PGXS tracks no dependencies).
$(OBJS): $(wildcard src/*.h)

# The release archive for PGXN (and anyone): META.json's version, built by
# git archive from the committed tree (HEAD), into dist/.
#   make dist            dist/benchstore-<version>.zip
DIST_VERSION = $(shell perl -MJSON::PP -0777 -ne 'print decode_json($$_)->{version}' META.json)
DIST_NAME = benchstore-$(DIST_VERSION)

.PHONY: dist
dist:
	@test -n "$(DIST_VERSION)" || { echo "META.json has no version" >&2; exit 1; }
	@git diff --quiet HEAD -- || echo "warning: uncommitted changes are not in the archive (it is built from HEAD)" >&2
	mkdir -p dist
	git archive --format=zip --prefix=$(DIST_NAME)/ -o dist/$(DIST_NAME).zip HEAD
	@echo "dist/$(DIST_NAME).zip"
