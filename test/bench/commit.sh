#!/usr/bin/env bash
# Benchmark: bench_commit against pg_test_fsync, side by side in one run on
# a throwaway cluster.  Not a test: it prints figures and ratios.
#
#   bash test/bench/commit.sh [seconds] [rounds]     default 5 s, 5 rounds
#   PG_MAJOR=18 bash test/bench/commit.sh            on 18
#
# In each round, alternating which side goes first:
#   1 session    bench_commit(sessions => 1, duration) commits/s
#                vs pg_test_fsync -s seconds on the cluster's pg_wal
#                directory: its fdatasync ops/s with one 8 kB write each
#                (wal_sync_method's default on Linux), the issue's reference
#   histogram    bench_commit(sessions => 4) with benchstore.track_latency
#                on against off: the cost of timing each commit
# Then, once, a sweep of sessions 1 .. 16: commits/s, p99 and commits per
# WAL flush (group commit).  Medians of the rounds and of the per-round
# ratios are printed.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

seconds=${1:-5}
rounds=${2:-5}

bs_install_deps
bs_build_install
bs_start_cluster "max_worker_processes = 24" "fsync = on"
bs_psql -q -c 'CREATE EXTENSION benchstore' \
    -c 'ALTER DATABASE postgres SET benchstore.progress_interval = 0'
datadir=$(bs_psql -Atc "SHOW data_directory")
bs_psql -q -c "CREATE TABLE sample (test text, side text, round integer, per_s float8, p99_us float8)"

fsync_side() {     # round
    local out ops
    out=$(bs_as_pg "$PG_BIN/pg_test_fsync" -f "$datadir/pg_wal/bench_fsync_test" -s "$seconds")
    ops=$(echo "$out" | awk '/fdatasync/ && /ops\/sec/ { print $2; exit }')
    bs_as_pg rm -f "$datadir/pg_wal/bench_fsync_test"
    bs_psql -Atq -c "INSERT INTO sample VALUES ('1 session', 'pg_test_fsync fdatasync', $1, $ops, NULL)"
}

commit_side() {    # test side round sessions track_latency
    bs_psql -Atq -c "SET benchstore.track_latency = $5" -c "INSERT INTO sample
        SELECT '$1', '$2', $3, commits_per_s, lat_p99_us
        FROM bench_commit(sessions => $4, duration => '${seconds}s', record => false)"
}

bs_log "measuring: $rounds rounds of $seconds s"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
        commit_side '1 session' bench_commit "$r" 1 on; fsync_side "$r"
        commit_side histogram bench_commit "$r" 4 on; commit_side histogram 'track_latency off' "$r" 4 off
    else
        fsync_side "$r"; commit_side '1 session' bench_commit "$r" 1 on
        commit_side histogram 'track_latency off' "$r" 4 off; commit_side histogram bench_commit "$r" 4 on
    fi
    printf '.' >&2
done
echo >&2

bs_log "results (median of $rounds rounds; ratio = bench_commit / reference)"
bs_psql -q <<'SQL'
\pset footer off
SELECT format('PostgreSQL %s, wal_sync_method %s, synchronous_commit on, %s', current_setting('server_version'),
              current_setting('wal_sync_method'),
              (SELECT string_agg(name || ' ' || setting, ', ') FROM pg_settings
               WHERE name IN ('fsync', 'full_page_writes', 'wal_compression'))) AS setup;
WITH pair AS (
    SELECT b.test, r.side AS reference, b.round, b.per_s AS b_per_s, r.per_s AS r_per_s,
           b.per_s / r.per_s AS ratio, b.p99_us
    FROM sample b JOIN sample r ON r.test = b.test AND r.round = b.round AND r.side <> 'bench_commit'
    WHERE b.side = 'bench_commit'
)
SELECT test AS comparison, reference,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_per_s)::numeric, 1) AS bench_commit_per_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY r_per_s)::numeric, 1) AS reference_per_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio)::numeric, 3) AS ratio,
       CASE test WHEN '1 session' THEN '>= 0.95' ELSE '>= 0.99 (overhead <= 1 %)' END AS target,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY p99_us)::numeric, 1) AS p99_us,
       string_agg(round(ratio::numeric, 2)::text, ' ' ORDER BY round) AS ratio_per_round
FROM pair GROUP BY test, reference ORDER BY test;
SQL

bs_log "sessions sweep (one run each, $seconds s)"
bs_psql -q -c "SELECT s.sessions, c.commits_per_s, c.lat_p50_us, c.lat_p99_us, c.commits_per_flush,
                      c.wal_flush_avg_us, c.wal_bytes_per_commit
               FROM unnest('{1,2,4,8,16}'::int[]) AS s(sessions),
                    LATERAL bench_commit(sessions => s.sessions, duration => '${seconds}s', record => false) c"
