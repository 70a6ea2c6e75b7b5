#!/usr/bin/env bash
# The README's first command: install everything, build, install, start a
# throwaway cluster, load a lineitem-shaped sample table and show what
# benchstore measures on it, then compare two configurations (shared_buffers
# 128MB and 16MB) with labelled runs and pgbench.  The cluster is removed
# on exit.
#
#   bash test/demo.sh [rows]       default 300000 rows, about 45 MB
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

rows=${1:-300000}

bs_install_deps
bs_build_install
bs_start_cluster

bs_log "loading a lineitem-shaped sample table ($rows rows)"
bs_psql -q -c 'CREATE EXTENSION benchstore'
bs_psql -q -v rows="$rows" < test/sample/lineitem.sql
bs_psql -q -c 'CREATE INDEX lineitem_orderkey ON lineitem (l_orderkey)'

bs_log "restarting the server, so that shared buffers start empty"
bs_restart_cluster

bs_log "running the benchmarks"
bs_psql -e < test/sample/demo.sql

# Comparing configurations: the same labelled runs and three pgbench runs,
# recorded with bench_record, under shared_buffers = 128MB and then 16MB.
pgbench_record() {
    local label=$1 out tps lat
    for _ in 1 2 3; do
        out=$(bs_as_pg "$PG_BIN/pgbench" -n -T 5 -c 2 -j 2 2>&1)
        tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<<"$out")
        lat=$(sed -n 's/^latency average = \([0-9.]*\) ms$/\1/p' <<<"$out")
        bs_psql -q -v label="$label" -v tps="$tps" -v lat="$lat" <<'SQL'
SELECT bench_record('pgbench', 'pg_default',
                    jsonb_build_object('tps', :tps, 'latency_avg_ms', :lat),
                    :'label', '{"clients": 2, "threads": 2, "duration_s": 5, "scale": 1}')
       IS NOT NULL AS recorded \gset
SQL
    done
}

bs_log "comparing configurations: pgbench tables, then labelled runs with shared_buffers = 128MB"
bs_as_pg "$PG_BIN/pgbench" -i -s 1 -q >/dev/null 2>&1
bs_psql -q -c "ALTER SYSTEM SET shared_buffers = '128MB'"
bs_restart_cluster
bs_psql -q -v label=sb128MB < test/sample/labelled_runs.sql >/dev/null
pgbench_record sb128MB

bs_log "the same with shared_buffers = 16MB"
bs_psql -q -c "ALTER SYSTEM SET shared_buffers = '16MB'"
bs_restart_cluster
bs_psql -q -v label=sb16MB < test/sample/labelled_runs.sql >/dev/null
pgbench_record sb16MB

bs_log "comparing and charting the two configurations"
bs_psql -e < test/sample/compare.sql
