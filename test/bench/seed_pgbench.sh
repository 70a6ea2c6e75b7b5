#!/usr/bin/env bash
# The seed's pgbench experiment, inside the server: is one array faster
# than another for OLTP?  Two tablespaces on two different block devices,
# pgbench's tables in each, and on each, side by side in one run:
#   pg_test_fsync -s S on a file in the tablespace's filesystem (the
#       device's fdatasync rate, outside the server);
#   bench_tablespace_io(tests => '{sync}') in the tablespace (the same,
#       from inside the backend);
#   bench_tpcb(clients => N, duration => D, schema => ...), recorded under
#       one label per tablespace, and pgbench -n -c N -j N -T D on the same
#       tables (its search_path set to their schema), the seed's own tool;
# rounds alternating which tablespace goes first; then bench_compare of the
# two labels.  Not a test: it prints the figures.  As root (losetup and
# mount); doc/walkthroughs/pgbench-seed.md shows a run.
#
#   bash test/bench/seed_pgbench.sh [clients] [seconds] [rounds] [scale]   default 4 clients, 8 s, 3 rounds, scale 5
#   PG_MAJOR=18 bash test/bench/seed_pgbench.sh
#
# The devices (test/lib.sh, bs_loop_rig_start): two ext4 filesystems on
# loop devices whose backing files lie in /var/tmp on this machine's disk;
# "cached" reads and writes its file through the page cache, "direct" does
# direct I/O to it.  They stand for two arrays: the same disk under two
# different stacks, as a RAID chunk size or a controller cache changes the
# stack.  The WAL stays in the cluster's pg_wal, on neither (as it does for
# a tablespace on a real array): commits cost the same on both, and what
# differs is the tables' and indexes' I/O, which shared_buffers = 16MB
# sends to the tablespace.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

clients=${1:-4}
seconds=${2:-8}
rounds=${3:-3}
scale=${4:-5}

[ "$(id -u)" -eq 0 ] || bs_die "the two filesystems need root (losetup, mount)"
bs_install_deps
bs_build_install
bs_start_cluster "shared_buffers = 16MB" "fsync = on" "max_worker_processes = 32"
bs_loop_rig_start
[ -n "${BS_LOOP_CACHED:-}" ] || bs_die "the loop-device rig could not be built"
bs_psql -q -c 'CREATE EXTENSION benchstore' \
    -c "CREATE TABLESPACE spc_cached LOCATION '$BS_LOOP_CACHED'" \
    -c "CREATE TABLESPACE spc_direct LOCATION '$BS_LOOP_DIRECT'" \
    -c 'CREATE SCHEMA cached' -c 'CREATE SCHEMA direct'

bs_log "the devices' sync rate: pg_test_fsync, then bench_tablespace_io(tests => '{sync}')"
bs_psql -q -c "CREATE TABLE seed_sync (tablespace name, tool text, ops_per_s float8, lat_us float8)"
for side in cached direct; do
    dir=$BS_LOOP_CACHED; [ "$side" = direct ] && dir=$BS_LOOP_DIRECT
    out=$(bs_as_pg "$PG_BIN/pg_test_fsync" -s 3 -f "$dir/pg_test_fsync.tmp" 2>&1)
    rm -f "$dir/pg_test_fsync.tmp"
    # the first fdatasync line: one 8 kB write, then fdatasync
    ops=$(echo "$out" | sed -n 's/^ *fdatasync *\([0-9.]*\) ops\/sec *\([0-9]*\) usecs\/op.*/\1 \2/p' | head -1)
    [ -n "$ops" ] || { echo "$out" >&2; bs_die "pg_test_fsync printed no fdatasync line"; }
    set -- $ops
    bs_psql -q -c "INSERT INTO seed_sync VALUES ('spc_$side', 'pg_test_fsync fdatasync', $1, $2)"
    bs_psql -q -c "INSERT INTO seed_sync
        SELECT 'spc_$side', 'bench_tablespace_io sync', iops, lat_avg_us
        FROM bench_tablespace_io('spc_$side', tests => '{sync}', size => '64MB', duration => '3s',
                                 label => 'seed-$side')"
done

bs_log "pgbench's tables at scale $scale in each tablespace"
for side in cached direct; do
    bs_psql -q -c "SET client_min_messages = warning" -c "SELECT * FROM bench_generate_tpcb(
        scale => $scale, tablespace => 'spc_$side', index_tablespace => 'spc_$side', schema => '$side')" >/dev/null
    bs_psql -q -c "VACUUM ANALYZE $side.pgbench_branches, $side.pgbench_tellers, $side.pgbench_accounts, $side.pgbench_history"
done

bs_psql -q -c "CREATE TABLE seed_tpcb (tablespace name, tool text, round integer, tps float8, lat_ms float8)"
prepare_side() {   # schema
    bs_psql -q -c "VACUUM $1.pgbench_branches, $1.pgbench_tellers" -c "TRUNCATE $1.pgbench_history" -c "CHECKPOINT"
}
run_side() {       # schema round
    local out tps lat
    prepare_side "$1"
    # a plain SELECT of its own, so that the caller's snapshot is given up
    # while the clients run (an INSERT ... SELECT over it would hold it);
    # the figures are read back from the history
    bs_psql -Atq -o /dev/null -c "SELECT * FROM bench_tpcb(clients => $clients,
        duration => '${seconds}s', schema => '$1', label => 'seed-$1')"
    bs_psql -Atq -c "INSERT INTO seed_tpcb
        SELECT 'spc_$1', 'bench_tpcb', $2, h.tps, bench_metric(h.metrics, 'lat_avg_ms')
        FROM bench_history h
        WHERE h.run_id = (SELECT max(run_id) FROM bench_run WHERE label = 'seed-$1')"
    [ "$(bs_psql -Atq -c "SELECT count(*) FROM bench_history WHERE label = 'seed-$1'
                          AND metrics ->> 'notes' LIKE '%snapshot was held%'")" = 0 ] ||
        bs_die "bench_tpcb held the caller's snapshot"
    prepare_side "$1"
    out=$(bs_as_pg env PGOPTIONS="-c search_path=$1" "$PG_BIN/pgbench" -n -M prepared \
        -c "$clients" -j "$clients" -T "$seconds" postgres 2>&1)
    tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p')
    lat=$(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p')
    [ -n "$tps" ] || { echo "$out" >&2; bs_die "pgbench printed no tps"; }
    bs_psql -q -c "INSERT INTO seed_tpcb VALUES ('spc_$1', 'pgbench -M prepared', $2, $tps, ${lat:-NULL})"
}

bs_log "measuring: $rounds rounds of $seconds s, $clients clients, each tablespace in turn"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then run_side cached "$r"; run_side direct "$r"
    else run_side direct "$r"; run_side cached "$r"; fi
    printf '.' >&2
done
echo >&2

bs_log "results"
bs_psql -c "SELECT current_setting('server_version') AS server, current_setting('shared_buffers') AS shared_buffers,
    $clients AS clients, '${seconds}s' AS duration,
    $scale AS scale, $rounds AS rounds"
bs_psql -c "SELECT tablespace, tool, round(ops_per_s::numeric) AS ops_per_s, round(lat_us::numeric) AS lat_us
    FROM seed_sync ORDER BY tablespace, tool"
bs_psql -c "SELECT tablespace, tool,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY tps)::numeric, 1) AS median_tps,
       string_agg(round(tps::numeric)::text, ' ' ORDER BY round) AS tps_per_round,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY lat_ms)::numeric, 3) AS median_lat_ms
    FROM seed_tpcb GROUP BY 1, 2 ORDER BY 2, 1"
bs_psql -c "SELECT benchmark, test, metric, baseline_runs AS b_n, candidate_runs AS c_n,
       round(baseline_value::numeric, 1) AS cached, round(candidate_value::numeric, 1) AS direct,
       ratio, noise_pct, verdict
    FROM bench_compare('seed-cached', 'seed-direct')
    WHERE metric IN ('tps', 'lat_p50_ms', 'lat_p99_ms', 'blks_read', 'os_read_mb', 'iops', 'lat_avg_us')
    ORDER BY benchmark, metric"
bs_stop_cluster
