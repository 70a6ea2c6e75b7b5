#!/usr/bin/env bash
# Benchmark: what the time series costs.  The same runs with
# sample_interval => '1s' (the default), '100ms' and NULL (no samples),
# side by side in one run on a throwaway cluster.  Not a test: it prints
# figures and ratios.
#
#   bash test/bench/series_overhead.sh [rounds] [size] [block_size]
#                                     default 9 rounds, 1GB, 4kB
#
# The cost of sampling is per operation (a clock reading where the run
# would not read one) plus, once per interval, reading every stream's
# counters: it shows most where operations are cheapest.  So the workloads
# are the fastest ones benchstore runs, where the storage's noise is
# smallest:
#   io        bench_tablespace_io, 4 kB blocks, buffered, on a tablespace in
#             /dev/shm (tmpfs) when there is one, else the data directory:
#             seqwrite, seqread and randread (each size bytes), with
#             benchstore.track_latency on (the default: a clock reading per
#             operation already) and off (sampling adds one)
#   io x4     the same bytes in 4 streams: the caller samples the other three
#   scan      bench_seqscan of a table in shared buffers, buffer and heap
#             modes (warm), 10 runs each
#   query     bench_query('SELECT count(*) ...') of the same table, warm
#             (the timer's handler, every interval)
# Each round runs every setting of every workload, in an order that rotates
# by round.  Printed per workload and setting: the median MB/s and the
# median of the per-round ratio to the same round's NULL run, with its
# range.  The issue's target: at most 1 % of throughput at '1s'.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

rounds=${1:-9}
size=${2:-1GB}
block=${3:-4kB}

bs_build_install
bs_start_cluster "shared_buffers = 512MB" "max_worker_processes = 16" \
    "max_parallel_workers = 16"
bs_psql -q -c 'CREATE EXTENSION benchstore'
bs_psql -q <<'SQL'
SET benchstore.progress_interval = 0;
CREATE TABLE sample (workload text, setting text, round integer, test text, mb_per_s float8);
CREATE TABLE t (id bigint, pad text);
INSERT INTO t SELECT g, repeat('x', 100) FROM generate_series(1, 1500000) g;
VACUUM FREEZE ANALYZE t;
SQL
bs_psql -Atq -c "SELECT pg_prewarm('t')" 2>/dev/null ||
    bs_psql -q -c "SELECT count(*) FROM t" >/dev/null

tblspc=pg_default
medium="the data directory"
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
    shm=$(mktemp -d /dev/shm/benchstore-series.XXXXXX)
    chmod 755 "$shm"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$shm"
    bs_psql -q -c "CREATE TABLESPACE series_shm LOCATION '$shm'"
    tblspc=series_shm
    medium="tmpfs (/dev/shm)"
    trap 'bs_psql -q -c "DROP TABLESPACE IF EXISTS series_shm" 2>/dev/null || true; rm -rf "$shm"; bs_stop_cluster' EXIT
fi
bs_log "$rounds rounds; tablespace tests on $medium, $size in $block blocks"
size_bytes=$(bs_psql -Atc "SELECT pg_size_bytes('$size')")

interval_sql() { if [ "$1" = off ]; then echo NULL; else echo "'$1'"; fi; }

run_io() {        # setting round streams track_latency
    bs_psql -Atq -c "SET benchstore.progress_interval = 0; SET benchstore.track_latency = $4;
        INSERT INTO sample SELECT 'io x$3 latency $4', '$1', $2, test, mb_per_s
        FROM bench_tablespace_io('$tblspc', size => '$((size_bytes / $3)) bytes', block_size => '$block',
             tests => '{seqwrite,seqread,randread}', streams => $3, direct => false,
             duration => '30s', record => false, sample_interval => $(interval_sql "$1"))
        WHERE tablespace <> 'total'"
}

run_scan() {      # setting round
    bs_psql -Atq -c "SET benchstore.progress_interval = 0;
        INSERT INTO sample SELECT 'scan', '$1', $2, mode, mb_per_s
        FROM (SELECT * FROM bench_seqscan('t', mode => 'buffer', repeat => 10, record => false,
                                          sample_interval => $(interval_sql "$1"))
              UNION ALL
              SELECT * FROM bench_seqscan('t', mode => 'heap', repeat => 10, record => false,
                                          sample_interval => $(interval_sql "$1"))) s"
}

run_query() {     # setting round
    bs_psql -Atq -c "SET benchstore.progress_interval = 0; SET max_parallel_workers_per_gather = 0;
        INSERT INTO sample SELECT 'query', '$1', $2, 'count(*)', mb_per_s
        FROM bench_query('SELECT count(*) FROM t WHERE pad <> ''''', repeat => 3, record => false,
                         sample_interval => $(interval_sql "$1"))"
}

settings=(1s 100ms off)
for r in $(seq 1 "$rounds"); do
    bs_log "round $r of $rounds"
    n=${#settings[@]}
    for k in $(seq 0 $((n - 1))); do
        s=${settings[$(((k + r) % n))]}
        run_io "$s" "$r" 1 on
        run_io "$s" "$r" 1 off
        run_io "$s" "$r" 4 on
        run_scan "$s" "$r"
        run_query "$s" "$r"
    done
done

bs_log "sampling on / off, MB/s: medians over $rounds rounds (ratio: per round, to the same round's run without samples)"
bs_psql -P pager=off <<'SQL'
WITH per_round AS (
    SELECT workload, test, setting, round, avg(mb_per_s) AS mb_per_s
    FROM sample GROUP BY 1, 2, 3, 4
), ratios AS (
    SELECT p.workload, p.test, p.setting, p.round, p.mb_per_s,
           p.mb_per_s / nullif(o.mb_per_s, 0) AS ratio
    FROM per_round p
    JOIN per_round o ON o.workload = p.workload AND o.test = p.test
                    AND o.round = p.round AND o.setting = 'off'
)
SELECT workload, test, setting AS sample_interval,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY mb_per_s)::numeric, 1) AS median_mb_per_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio)::numeric, 4) AS median_ratio,
       round(min(ratio)::numeric, 3) || ' .. ' || round(max(ratio)::numeric, 3) AS ratio_range
FROM ratios
GROUP BY 1, 2, 3
ORDER BY 1, 2, array_position(ARRAY['1s', '100ms', 'off'], setting);
SQL
