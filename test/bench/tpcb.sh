#!/usr/bin/env bash
# Benchmark: bench_tpcb against pgbench, side by side in one run on a
# throwaway cluster.  Not a test: it prints figures and ratios.
#
#   bash test/bench/tpcb.sh [clients] [seconds] [rounds] [scale]   default 4 clients, 10 s, 5 rounds, scale 10
#   PG_MAJOR=18 bash test/bench/tpcb.sh
#
# The data: bench_generate_tpcb(scale), then VACUUM ANALYZE, as pgbench -i.
# In each round, alternating which side goes first, on the same data:
#   pgbench -n -M prepared -c N -j N -T D  (pgbench's built-in TPC-B-like
#       script, its statements prepared, as bench_tpcb's clients prepare
#       theirs)
#   pgbench -n -M simple -c N -j N -T D    (pgbench's default protocol)
#   bench_tpcb(clients => N, duration => D)
# Before each side, as pgbench does before a run without -n: VACUUM
# pgbench_branches and pgbench_tellers, TRUNCATE pgbench_history; then a
# CHECKPOINT, so that no side inherits the other's dirty buffers.
# Medians of the rounds and of the per-round ratios are printed.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

clients=${1:-4}
seconds=${2:-10}
rounds=${3:-5}
scale=${4:-10}

bs_install_deps
bs_build_install
bs_start_cluster "max_worker_processes = 72" "fsync = on"
bs_psql -q -c 'CREATE EXTENSION benchstore' \
    -c 'ALTER DATABASE postgres SET benchstore.progress_interval = 0'
bs_log "generating pgbench's tables at scale $scale"
bs_psql -q -c "SET client_min_messages = warning" -c "SELECT * FROM bench_generate_tpcb(scale => $scale)" >/dev/null
bs_psql -q -c "VACUUM ANALYZE pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history"
bs_psql -q -c "CREATE TABLE bench_pair (side text, round integer, tps float8, lat_ms float8)"

prepare_side() {
    bs_psql -q -c "VACUUM pgbench_branches, pgbench_tellers" -c "TRUNCATE pgbench_history" -c "CHECKPOINT"
}

pgbench_side() {   # protocol round
    local out tps lat
    prepare_side
    out=$(bs_as_pg "$PG_BIN/pgbench" -n -M "$1" -c "$clients" -j "$clients" -T "$seconds" postgres 2>&1)
    tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p')
    lat=$(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p')
    if [ -z "$tps" ]; then echo "$out" >&2; exit 1; fi
    bs_psql -Atq -c "INSERT INTO bench_pair VALUES ('pgbench -M $1', $2, $tps, ${lat:-NULL})"
}

bench_side() {     # round
    prepare_side
    bs_psql -Atq -c "INSERT INTO bench_pair
        SELECT 'bench_tpcb', $1, tps, lat_avg_ms
        FROM bench_tpcb(clients => $clients, duration => '${seconds}s', record => false)"
}

bs_log "measuring: $rounds rounds of $seconds s, $clients clients, scale $scale"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
        bench_side "$r"; pgbench_side prepared "$r"; pgbench_side simple "$r"
    else
        pgbench_side simple "$r"; pgbench_side prepared "$r"; bench_side "$r"
    fi
    printf '.' >&2
done
echo >&2

bs_log "results (median of $rounds rounds; ratio = bench_tpcb / pgbench)"
bs_psql -q <<SQL
\pset footer off
SELECT format('PostgreSQL %s, %s clients, %s s, scale $scale, synchronous_commit %s, %s vCPUs',
              current_setting('server_version'), $clients, $seconds,
              current_setting('synchronous_commit'), $(nproc)) AS setup;
WITH pair AS (
    SELECT p.side AS reference, b.round, b.tps AS b_tps, p.tps AS p_tps, b.tps / p.tps AS ratio,
           b.lat_ms AS b_lat, p.lat_ms AS p_lat
    FROM bench_pair b JOIN bench_pair p ON p.round = b.round AND p.side <> 'bench_tpcb'
    WHERE b.side = 'bench_tpcb'
)
SELECT reference,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_tps)::numeric, 1) AS bench_tpcb_tps,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY p_tps)::numeric, 1) AS pgbench_tps,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio)::numeric, 3) AS ratio,
       '0.95 .. 1.05' AS target,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_lat)::numeric, 3) AS bench_tpcb_lat_ms,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY p_lat)::numeric, 3) AS pgbench_lat_ms,
       string_agg(round(ratio::numeric, 2)::text, ' ' ORDER BY round) AS ratio_per_round
FROM pair GROUP BY reference ORDER BY reference;
SQL
