#!/usr/bin/env bash
# The README's first command: install everything, build, install, start a
# throwaway cluster, generate a small TPC-H-shaped data set and show what
# benchstore measures on it (relation sizes, scans warm, cold and parallel,
# the raw storage rate, tablespace I/O), then run the classic session (Q19
# and Q2 through bench_query, warm and cold, on two tablespaces, compared),
# then compare two configurations (shared_buffers 128MB and 16MB) with
# labelled runs and bench_tpcb (pgbench's transaction, inside the server).
# On PostgreSQL 18 it also compares cold scans and a query under each
# io_method (sync, worker, io_uring).  The cluster is removed on exit.
#
#   bash test/demo.sh [scale]       default 0.05: 300,000 lineitem rows, about 45 MB
#   PG_MAJOR=18 bash test/demo.sh   the same on PostgreSQL 18 (built from ../shared/vendor)
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

scale=${1:-0.05}

bs_install_deps
bs_build_install
bs_start_cluster

bs_log "generating a TPC-H-shaped data set (scale $scale) into schema tpch"
bs_psql -q -c 'CREATE EXTENSION benchstore'
bs_psql -c "SET client_min_messages = warning" \
    -c "SELECT relation, rows, round(mb::numeric, 1) AS mb, round(indexes_mb::numeric, 1) AS indexes_mb
        FROM bench_generate_tpch($scale)"
bs_psql -q -c 'VACUUM (FREEZE, ANALYZE)'

bs_log "restarting the server, so that shared buffers start empty"
bs_restart_cluster

bs_log "running the benchmarks"
bs_psql -e < test/sample/demo.sql

# The steady-state run's time series as a picture (bench_svg), as psql
# writes it unaligned, without headers (-At, or \pset and \g file.svg).
svg_out=${BS_DEMO_SVG:-$PWD/benchstore-demo.svg}
bs_psql -At -c "SELECT bench_svg(array_agg(run_id), metric => 'iops')
                FROM bench_run WHERE label = 'demo-steady'" > "$svg_out"
bs_log "the steady-state run's IOPS over time, drawn by bench_svg: $svg_out (open it in a browser)"

# The classic session: the data set generated into pg_default and into a
# second tablespace (here a directory beside the cluster, on the same disk:
# the comparison shows the machine's noise), Q19 and Q2 timed on each.
bs_log "the classic session: Q19 and Q2 on two tablespaces"
bs_as_pg mkdir -p "$BS_TMP/spc_b"
bs_psql -q -c "CREATE TABLESPACE spc_b LOCATION '$BS_TMP/spc_b'"
bs_psql -v scale="$scale" -v spc_a=pg_default -v spc_b=spc_b -v repeat=3 \
    -f test/sample/tpch_session.sql

# The question most DBAs come with, in one call: the two tablespaces, each
# measured alone, alternating, with a verdict and its noise.  spc_b, made
# above, is the second tablespace the README's tour and doc/first-steps.md
# use.
bs_log "two tablespaces compared in one call: pg_default and spc_b (the tablespace the README's tour uses)"
bs_psql -e -c "SELECT test, metric, a_value, b_value, ratio, ratio_low, ratio_high, runs, verdict
FROM bench_compare_tablespaces('pg_default', 'spc_b', tests => '{seqread,randread}',
                               size => '64MB', duration => '1s', rounds => 3, label => 'demo')"

# PostgreSQL 18 reads through asynchronous I/O: the same cold scans and
# query under each io_method, each after a restart under it, compared.
if [ "$PG_MAJOR" -ge 18 ]; then
    for method in sync worker io_uring; do
        bs_log "PostgreSQL $PG_MAJOR: cold scans and a query under io_method = $method"
        bs_psql -q -c "ALTER SYSTEM SET io_method = '$method'"
        bs_restart_cluster
        bs_psql -v label="io-$method" -f test/sample/io_method_runs.sql
    done
    bs_psql -q -c 'ALTER SYSTEM RESET io_method'
    bs_restart_cluster
    bs_log "the three io_methods compared"
    bs_psql -e -f test/sample/io_method_compare.sql
fi

# Comparing configurations: the same labelled runs and three bench_tpcb
# runs (pgbench's TPC-B-like transaction, inside the server, recorded under
# the label), under shared_buffers = 128MB and then 16MB.
tpcb_record() {
    local label=$1
    for _ in 1 2 3; do
        bs_psql -qAt -v label="$label" >/dev/null <<'SQL'
SELECT tps FROM bench_tpcb(clients => 2, duration => '5s', label => :'label');
SQL
    done
}

bs_log "comparing configurations: pgbench's tables, then labelled runs with shared_buffers = 128MB"
bs_psql -q -c "SET client_min_messages = warning" -c "SELECT * FROM bench_generate_tpcb(scale => 1)" >/dev/null
bs_psql -q -c "VACUUM ANALYZE pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history"
bs_psql -q -c "ALTER SYSTEM SET shared_buffers = '128MB'"
bs_restart_cluster
bs_psql -q -v label=sb128MB < test/sample/labelled_runs.sql >/dev/null
tpcb_record sb128MB

bs_log "the same with shared_buffers = 16MB"
bs_psql -q -c "ALTER SYSTEM SET shared_buffers = '16MB'"
bs_restart_cluster
bs_psql -q -v label=sb16MB < test/sample/labelled_runs.sql >/dev/null
tpcb_record sb16MB

bs_log "comparing and charting the two configurations"
bs_psql -e < test/sample/compare.sql
