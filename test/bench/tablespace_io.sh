#!/usr/bin/env bash
# Benchmark: bench_tablespace_io against fio and pg_test_fsync, side by side
# in one run on a throwaway cluster.  Not a test: it prints figures and
# ratios.
#
#   bash test/bench/tablespace_io.sh [size] [rounds]     default 256MB per stream, 5 rounds
#
# size is per stream at 8 kB blocks; 1 MB blocks move 4 x size, so that
# their runs last seconds too (on a disk this fast, 256 MB of 1 MB reads
# take a fifth of a second, where one hiccup of the virtual disk decides
# the figure).
#
# For block sizes 8kB and 1MB and for 1 and 2 streams, each round runs
# seqwrite, seqread, randread and randwrite through bench_tablespace_io
# (direct I/O) and the same workload through fio with identical
# parameters, on the same filesystem (the cluster's data directory):
#   fio --direct=1 --ioengine=psync --bs=B --size=S --numjobs=N --group_reporting
#       --rw=write|read|randread|randwrite --fallocate=none
#       [--end_fsync=1 for the writes, as bench_tablespace_io syncs inside the time]
#       [--runtime=D for the random tests, as its duration cap]
# Which tool goes first alternates by round; the ratio (benchstore / fio,
# MB/s) is taken per round and its median printed.  Then:
#   sync      bench_tablespace_io(tests => '{sync}', block_size => '8kB', direct => false)
#             against pg_test_fsync's "fdatasync" row (one 8 kB write per sync)
#   timing    8 kB random reads with benchstore.track_latency on and off: the
#             cost of timing each operation
#   tmpfs     where /dev/shm is tmpfs, the four tests at 8 kB, one stream,
#             buffered (tmpfs refuses O_DIRECT), through both tools on a
#             tablespace there: with no device in the way this compares the
#             tools' own cost per operation, free of the disk's noise
#
#   depth     queue depth: at iodepth 1, 8 and 32, 8 kB randread and
#             randwrite and 1 MB seqread and seqwrite (direct I/O, one
#             stream) through bench_tablespace_io(iodepth => N) and through
#               fio --ioengine=io_uring --iodepth=N --direct=1 --fallocate=none
#                   --lat_percentiles=1
#             MB/s, IOPS and p50/p99 latency (submission to completion) side
#             by side; then a raw cold scan of a table at depth 32,
#             bench_seqscan(mode => 'raw', cache => 'cold', iodepth => 32),
#             against fio reading the same segment files with 1 MB reads
#             at depth 32 (--direct=1: raw reads at depth use O_DIRECT)
#
#   steady    steady state, fio's way: 4 kB random reads (direct I/O, one
#             stream, a 1 GB file) until the same criterion holds over the
#             same window after the same ramp, at most the same time, through
#               bench_tablespace_io(until => 'steady', steady => C,
#                                   steady_window => W, ramp => R, duration => D)
#             and
#               fio --rw=randread --bs=4k --direct=1 --ioengine=psync --time_based
#                   --runtime=R+D --ss=C --ss_dur=W --ss_ramp=R
#             each round; whether each reached it and when (benchstore's
#             steady_at_ms, fio's job_runtime), and in how many rounds the
#             two verdicts agree.  C, W, R, D from BENCH_SS (default
#             "iops:10% 10s 2s 60s"); fio 3.33 judges iops and bw only
#             (lat came in 2025) and samples every second, as benchstore's
#             default sample_interval does.
#
# BENCH_SECTIONS (default "disk sync timing tmpfs depth steady") picks the sections.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

size=${1:-256MB}
rounds=${2:-5}
duration=5s
sections=${BENCH_SECTIONS:-disk sync timing tmpfs depth steady}
want() { case " $sections " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

bs_install_deps fio jq
bs_build_install
bs_start_cluster
bs_psql -q -c 'CREATE EXTENSION benchstore'
bs_psql -q <<'SQL'
CREATE TABLE sample (what text, bs text, streams integer, round integer, tool text,
                     mb_per_s float8, iops float8, medium text DEFAULT 'disk');
CREATE TABLE depth_sample (what text, bs text, depth integer, round integer, tool text,
                           mb_per_s float8, iops float8, p50_us float8, p99_us float8);
CREATE TABLE steady_sample (round integer, tool text, attained boolean, at_ms float8,
                            iops float8);
SQL

datadir=$(bs_psql -Atc "SHOW data_directory")
fiodir="$datadir/fio_bench"
mkdir -p "$fiodir"
fsyncdir="$datadir/fsync_bench"
mkdir -p "$fsyncdir"
[ "$(id -u)" -eq 0 ] && chown postgres: "$fsyncdir"
size_bytes=$(bs_psql -Atc "SELECT pg_size_bytes('$size')")

# bytes per stream for a block size
size_for() { if [ "$1" = 1MB ] || [ "$1" = 1M ]; then echo $((size_bytes * 4)); else echo "$size_bytes"; fi; }

# where the runs go: tablespace and fio directory, direct I/O, label
tblspc=pg_default; iodir="$fiodir"; direct=true; medium=disk

run_benchstore() {    # bs streams round
    bs_psql -Atq -c "INSERT INTO sample
        SELECT test, '$1', $2, $3, 'benchstore', mb_per_s, iops, '$medium'
        FROM bench_tablespace_io('$tblspc', size => '$(size_for "$1")', block_size => '$1',
             streams => $2, tests => '{seqwrite,seqread,randread,randwrite}',
             direct => $direct, duration => '$duration')"
}

run_fio() {           # bs streams round
    local rw test extra out
    rm -f "$iodir"/*
    for rw in write read randread randwrite; do
        case $rw in
            write) test=seqwrite; extra="--end_fsync=1" ;;
            read) test=seqread; extra="" ;;
            randread) test=randread; extra="--runtime=$duration" ;;
            randwrite) test=randwrite; extra="--end_fsync=1 --runtime=$duration" ;;
        esac
        out=$(fio --name=bench --directory="$iodir" --rw=$rw --bs="$1" \
              --size="$(size_for "$1")" --numjobs="$2" --direct=$([ "$direct" = true ] && echo 1 || echo 0) \
              --ioengine=psync \
              --fallocate=none --group_reporting --output-format=json $extra 2>/dev/null)
        read -r bw iops < <(echo "$out" | jq -r --arg k "${rw#rand}" \
            '.jobs[0][$k] | "\(.bw_bytes) \(.iops)"')
        bs_psql -Atq -c "INSERT INTO sample VALUES ('$test', '$1', $2, $3, 'fio',
                         $bw / 1048576.0, $iops, '$medium')"
    done
    rm -f "$iodir"/*
}

want disk && for bsz in 8kB 1MB; do
    fbs=${bsz/kB/k}; fbs=${fbs/MB/M}
    for streams in 1 2; do
        bs_log "block size $bsz, $streams stream(s), $rounds rounds of $(( $(size_for "$bsz") >> 20 )) MB per stream"
        for r in $(seq 1 "$rounds"); do
            if [ $((r % 2)) -eq 1 ]; then
                run_benchstore "$bsz" "$streams" "$r"
                run_fio "$fbs" "$streams" "$r"
            else
                run_fio "$fbs" "$streams" "$r"
                run_benchstore "$bsz" "$streams" "$r"
            fi
            # fio named the block size 8k/1M: store it as benchstore does
            bs_psql -Atq -c "UPDATE sample SET bs = '$bsz' WHERE bs = '$fbs'"
        done
    done
done

want sync && bs_log "sync rate: bench_tablespace_io against pg_test_fsync ($rounds rounds)"
want sync && for r in $(seq 1 "$rounds"); do
    ops=$(bs_as_pg "$PG_BIN/pg_test_fsync" -f "$fsyncdir/pg_test_fsync.out" -s 3 2>/dev/null |
          awk '/one 8kB write/ {s=1} s && $1 == "fdatasync" {print $2; exit}')
    bs_psql -Atq -c "INSERT INTO sample VALUES ('sync', '8kB', 1, $r, 'pg_test_fsync', NULL, $ops)"
    bs_psql -Atq -c "INSERT INTO sample
        SELECT 'sync', '8kB', 1, $r, 'benchstore', mb_per_s, iops
        FROM bench_tablespace_io(size => '$size', block_size => '8kB', tests => '{sync}',
             direct => false, duration => '3s')"
done

want timing && bs_log "cost of timing each operation: 8 kB random reads, latency tracking on and off"
want timing && for r in $(seq 1 "$rounds"); do
    for t in on off; do
        bs_psql -Atq -c "SET benchstore.track_latency = $t" -c "INSERT INTO sample
            SELECT 'timing', '8kB', 1, $r, 'track_latency=$t', mb_per_s, iops
            FROM bench_tablespace_io(size => '$size', block_size => '8kB', tests => '{randread}',
                 duration => '$duration')"
    done
done

if want tmpfs && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
    bs_log "tool overhead: 8 kB, one stream, buffered, on tmpfs ($rounds rounds)"
    shmdir=$(mktemp -d /dev/shm/benchstore.XXXXXX)
    chmod 755 "$shmdir"
    trap 'bs_stop_cluster; rm -rf "$shmdir"' EXIT
    mkdir -p "$shmdir/ts" "$shmdir/fio"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$shmdir/ts"
    bs_psql -Atq -c "CREATE TABLESPACE bench_shm LOCATION '$shmdir/ts'"
    tblspc=bench_shm; iodir="$shmdir/fio"; direct=false; medium=tmpfs
    for r in $(seq 1 "$rounds"); do
        if [ $((r % 2)) -eq 1 ]; then
            run_benchstore 8kB 1 "$r"; run_fio 8k 1 "$r"
        else
            run_fio 8k 1 "$r"; run_benchstore 8kB 1 "$r"
        fi
        bs_psql -Atq -c "UPDATE sample SET bs = '8kB' WHERE bs = '8k'"
    done
    # at depth 32: io_uring on tmpfs, where only the tools' own cost per
    # operation remains
    if want depth; then
        for r in $(seq 1 "$rounds"); do
            for tool in $([ $((r % 2)) -eq 1 ] && echo "benchstore fio" || echo "fio benchstore"); do
                if [ "$tool" = benchstore ]; then
                    bs_psql -Atq -c "INSERT INTO depth_sample
                        SELECT 'tmpfs randread', '8kB', 32, $r, 'benchstore', mb_per_s, iops, lat_p50_us, lat_p99_us
                        FROM bench_tablespace_io('bench_shm', size => '$size', tests => '{randread}',
                             direct => false, duration => '$duration', iodepth => 32)
                        WHERE test = 'randread'"
                else
                    fio --name=bench --directory="$iodir" --rw=write --bs=1M --size="$size_bytes" \
                        --ioengine=psync --fallocate=none >/dev/null 2>&1
                    out=$(fio --name=bench --directory="$iodir" --rw=randread --bs=8k \
                          --size="$size_bytes" --direct=0 --ioengine=io_uring --iodepth=32 \
                          --fallocate=none --lat_percentiles=1 --runtime=$duration \
                          --output-format=json 2>/dev/null)
                    read -r bw iops p50 p99 < <(echo "$out" | jq -r \
                        '.jobs[0].read | "\(.bw_bytes) \(.iops) \(.lat_ns.percentile["50.000000"] / 1000) \(.lat_ns.percentile["99.000000"] / 1000)"')
                    bs_psql -Atq -c "INSERT INTO depth_sample VALUES ('tmpfs randread', '8kB', 32, $r,
                                     'fio', $bw / 1048576.0, $iops, $p50, $p99)"
                    rm -f "$iodir"/*
                fi
            done
        done
    fi
    bs_psql -Atq -c "DROP TABLESPACE bench_shm"
fi

run_benchstore_depth() {    # test bs depth round
    bs_psql -Atq -c "INSERT INTO depth_sample
        SELECT test, '$2', $3, $4, 'benchstore', mb_per_s, iops, lat_p50_us, lat_p99_us
        FROM bench_tablespace_io(size => '$(size_for "$2")', block_size => '$2',
             tests => '{$1}', direct => true, duration => '$duration', iodepth => $3)
        WHERE test = '$1'"
}

run_fio_depth() {           # test bs depth round
    local rw extra out k
    case $1 in
        seqwrite) rw=write; extra="--end_fsync=1" ;;
        seqread) rw=read; extra="" ;;
        randread) rw=randread; extra="--runtime=$duration" ;;
        randwrite) rw=randwrite; extra="--end_fsync=1 --runtime=$duration" ;;
    esac
    k=${rw#rand}
    # the read tests and randwrite work on a file written first, as
    # benchstore's do (fio's own randwrite would allocate a sparse file's
    # blocks as it goes, a different workload)
    if [ "$rw" != write ]; then
        fio --name=bench --directory="$fiodir" --rw=write --bs=1M --size="$(size_for "$2")" \
            --direct=1 --ioengine=psync --fallocate=none >/dev/null 2>&1
    fi
    out=$(fio --name=bench --directory="$fiodir" --rw=$rw --bs="${2/kB/k}" \
          --size="$(size_for "$2")" --direct=1 --ioengine=io_uring --iodepth="$3" \
          --fallocate=none --lat_percentiles=1 --output-format=json $extra 2>/dev/null)
    read -r bw iops p50 p99 < <(echo "$out" | jq -r --arg k "$k" \
        '.jobs[0][$k] | "\(.bw_bytes) \(.iops) \(.lat_ns.percentile["50.000000"] / 1000) \(.lat_ns.percentile["99.000000"] / 1000)"')
    bs_psql -Atq -c "INSERT INTO depth_sample VALUES ('$1', '$2', $3, $4, 'fio',
                     $bw / 1048576.0, $iops, $p50, $p99)"
    rm -f "$fiodir"/*
}

if want depth; then
    bs_log "queue depth: benchstore (io_uring) against fio --ioengine=io_uring, $rounds rounds"
    for depth in 1 8 32; do
        for pair in randread:8kB randwrite:8kB seqread:1MB seqwrite:1MB; do
            test=${pair%%:*}; bsz=${pair#*:}
            for r in $(seq 1 "$rounds"); do
                if [ $((r % 2)) -eq 1 ]; then
                    run_benchstore_depth "$test" "$bsz" "$depth" "$r"
                    run_fio_depth "$test" "$bsz" "$depth" "$r"
                else
                    run_fio_depth "$test" "$bsz" "$depth" "$r"
                    run_benchstore_depth "$test" "$bsz" "$depth" "$r"
                fi
            done
        done
    done

    # Raw cold scans at depth 32 against fio over the same segment files.
    bs_log "raw cold scan at depth 32 against fio reading the same files, $rounds rounds"
    scan_mb=$(( size_bytes * 4 >> 20 ))
    bs_psql -q -c "CREATE TABLE scan_sample (id bigint, pad text)" \
        -c "INSERT INTO scan_sample SELECT g, repeat('x', 400) FROM generate_series(1, ($scan_mb * 1048576 / 450)::bigint) g" \
        -c "CHECKPOINT"
    files=$(bs_psql -Atc "SELECT string_agg(f, ':') FROM (SELECT current_setting('data_directory') || '/' || pg_relation_filepath('scan_sample') || CASE WHEN s = 0 THEN '' ELSE '.' || s END AS f FROM generate_series(0, (pg_relation_size('scan_sample') - 1) / pg_size_bytes(current_setting('segment_size'))) s) x")
    for r in $(seq 1 "$rounds"); do
        for tool in $([ $((r % 2)) -eq 1 ] && echo "benchstore fio" || echo "fio benchstore"); do
            if [ "$tool" = benchstore ]; then
                for depth in 1 32; do
                    bs_psql -Atq -c "INSERT INTO depth_sample
                        SELECT 'rawscan', '1MB', $depth, $r, 'benchstore', mb_per_s, NULL, NULL, NULL
                        FROM bench_seqscan('scan_sample', 'raw', 'cold', iodepth => $depth, record => false)"
                done
            else
                out=$(fio --name=scan --filename="$files" --readonly --rw=read --bs=1M \
                      --ioengine=io_uring --iodepth=32 --direct=1 \
                      --output-format=json 2>/dev/null)
                read -r bw iops < <(echo "$out" | jq -r '.jobs[0].read | "\(.bw_bytes) \(.iops)"')
                bs_psql -Atq -c "INSERT INTO depth_sample VALUES ('rawscan', '1MB', 32, $r, 'fio',
                                 $bw / 1048576.0, $iops, NULL, NULL)"
            fi
        done
    done
fi

if want steady; then
    read -r ss_crit ss_window ss_ramp ss_cap <<< "${BENCH_SS:-iops:10% 10s 2s 60s}"
    ss_s() { bs_psql -Atc "SELECT extract(epoch FROM interval '$1')::int"; }
    fio_runtime=$(( $(ss_s "$ss_ramp") + $(ss_s "$ss_cap") ))

    steady_benchstore() {    # round
        bs_psql -Atq -c "INSERT INTO steady_sample
            SELECT $1, 'benchstore', steady_state, steady_at_ms, iops
            FROM bench_tablespace_io(size => '1GB', block_size => '4kB', tests => '{randread}',
                 direct => true, ramp => '$ss_ramp', until => 'steady', steady => '$ss_crit',
                 steady_window => '$ss_window', duration => '$ss_cap', label => 'steady-vs-fio')"
    }
    steady_fio() {           # round
        local out
        rm -f "$fiodir"/*
        out=$(fio --name=ss --directory="$fiodir" --rw=randread --bs=4k --size=1G \
              --direct=1 --ioengine=psync --fallocate=none --time_based \
              --runtime="$fio_runtime" --ss="$ss_crit" --ss_dur="$(ss_s "$ss_window")" \
              --ss_ramp="$(ss_s "$ss_ramp")" --output-format=json 2>/dev/null)
        read -r attained at_ms iops < <(echo "$out" | jq -r \
            '.jobs[0] | "\(.steadystate.attained) \(.job_runtime) \(.read.iops)"')
        bs_psql -Atq -c "INSERT INTO steady_sample VALUES ($1, 'fio', $attained::int::boolean,
                         CASE WHEN $attained::int = 1 THEN $at_ms END, $iops)"
        rm -f "$fiodir"/*
    }

    bs_log "steady state: $ss_crit over $ss_window after a ramp of $ss_ramp, at most $ss_cap; $rounds rounds"
    for r in $(seq 1 "$rounds"); do
        if [ $((r % 2)) -eq 1 ]; then steady_benchstore "$r"; steady_fio "$r"
        else steady_fio "$r"; steady_benchstore "$r"; fi
    done
fi

bs_log "results (median over rounds; ratio = benchstore / reference, per round)"
bs_psql -q <<'SQL'
\pset footer off
SELECT format('PostgreSQL %s, wal_sync_method %s, fsync %s', current_setting('server_version'),
              current_setting('wal_sync_method'), current_setting('fsync')) AS setup;
WITH pair AS (
    SELECT b.what, b.bs, b.streams, b.round, b.medium, r.tool AS reference,
           b.mb_per_s AS b_mb, r.mb_per_s AS r_mb, b.iops AS b_iops, r.iops AS r_iops,
           CASE WHEN b.what IN ('sync', 'timing') THEN b.iops / r.iops
                ELSE b.mb_per_s / r.mb_per_s END AS ratio
    FROM sample b
    JOIN sample r ON r.what = b.what AND r.bs = b.bs AND r.streams = b.streams
                 AND r.round = b.round AND r.medium = b.medium
                 AND r.tool IN ('fio', 'pg_test_fsync', 'track_latency=off')
    WHERE b.tool IN ('benchstore', 'track_latency=on')
)
SELECT medium, what AS test, bs AS block_size, streams, min(reference) AS reference,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_mb)::numeric, 1) AS benchstore_mb_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY r_mb)::numeric, 1) AS reference_mb_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_iops)::numeric, 0) AS benchstore_iops,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY r_iops)::numeric, 0) AS reference_iops,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio)::numeric, 3) AS ratio,
       string_agg(round(ratio::numeric, 2)::text, ' ' ORDER BY round) AS ratio_per_round
FROM pair
GROUP BY medium, what, bs, streams
ORDER BY medium, array_position(ARRAY['seqwrite', 'seqread', 'randread', 'randwrite', 'sync', 'timing'], what),
         pg_size_bytes(bs), streams;

-- queue depth: benchstore against fio at the same depth (rawscan: fio at 32)
WITH pair AS (
    SELECT b.what, b.bs, b.depth, b.round,
           b.mb_per_s AS b_mb, f.mb_per_s AS f_mb, b.iops AS b_iops, f.iops AS f_iops,
           b.p50_us AS b_p50, f.p50_us AS f_p50, b.p99_us AS b_p99, f.p99_us AS f_p99
    FROM depth_sample b
    JOIN depth_sample f ON f.what = b.what AND f.bs = b.bs AND f.round = b.round
                       AND f.tool = 'fio' AND (f.depth = b.depth OR b.what = 'rawscan')
    WHERE b.tool = 'benchstore'
)
SELECT what AS test, bs AS block_size, depth,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_mb)::numeric, 1) AS bs_mb_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY f_mb)::numeric, 1) AS fio_mb_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_mb / f_mb)::numeric, 3) AS mb_ratio,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_iops)::numeric, 0) AS bs_iops,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY f_iops)::numeric, 0) AS fio_iops,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_p50)::numeric, 1) AS bs_p50,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY f_p50)::numeric, 1) AS fio_p50,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_p50 / f_p50)::numeric, 3) AS p50_ratio,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_p99)::numeric, 1) AS bs_p99,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY f_p99)::numeric, 1) AS fio_p99,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_p99 / f_p99)::numeric, 3) AS p99_ratio,
       string_agg(round((b_mb / f_mb)::numeric, 2)::text, ' ' ORDER BY round) AS mb_ratio_per_round
FROM pair
GROUP BY what, bs, depth
ORDER BY array_position(ARRAY['randread', 'randwrite', 'seqread', 'seqwrite', 'rawscan', 'tmpfs randread'], what), depth;

-- depth gain of 8 kB random reads: depth 32 over depth 1, each tool
SELECT tool,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY iops) FILTER (WHERE depth = 32) /
              percentile_cont(0.5) WITHIN GROUP (ORDER BY iops) FILTER (WHERE depth = 1))::numeric, 2)
         AS randread_iops_depth32_over_depth1
FROM depth_sample WHERE what = 'randread' GROUP BY tool ORDER BY tool;

-- steady state: each round's verdicts side by side, then how often they agree
SELECT b.round, b.attained AS bs_steady, f.attained AS fio_steady,
       round((b.at_ms / 1000)::numeric, 1) AS bs_at_s, round((f.at_ms / 1000)::numeric, 1) AS fio_at_s,
       round(b.iops::numeric) AS bs_iops, round(f.iops::numeric) AS fio_iops
FROM steady_sample b JOIN steady_sample f ON f.round = b.round AND f.tool = 'fio'
WHERE b.tool = 'benchstore' ORDER BY b.round;
SELECT count(*) FILTER (WHERE b.attained = f.attained) || ' of ' || count(*) AS verdicts_agree,
       count(*) FILTER (WHERE b.attained AND f.attained) AS both_steady,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b.at_ms / f.at_ms)
             FILTER (WHERE b.attained AND f.attained)::numeric, 2) AS when_ratio_median
FROM steady_sample b JOIN steady_sample f ON f.round = b.round AND f.tool = 'fio'
WHERE b.tool = 'benchstore' HAVING count(*) > 0;
SQL
