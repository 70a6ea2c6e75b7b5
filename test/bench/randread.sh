#!/usr/bin/env bash
# Benchmark: bench_randread against fio and an index scan, side by side in
# one run on a throwaway cluster.  Not a test: it prints figures and ratios.
#
#   bash test/bench/randread.sh [size_mb] [reads] [rounds]
#                               default 512 MB, 20000 reads, 5 rounds
#   PG_MAJOR=18 bash test/bench/randread.sh     on 18, under io_method
#                               BS_IO_METHOD (default io_uring)
#   BS_IO_DIRECT=1 ...          16+: the server reads with direct I/O
#                               (debug_io_direct = data), as Vondra
#                               measured; every cold read is then a device
#                               read, and fio's direct figures the reference
#
# Two tables loaded in random key order, one row per page (fillfactor 10,
# as pgio does), each with an index on its key: rr_big (size_mb) for the
# cold reads, rr_small (48 MB, inside shared_buffers = 128MB) for the warm
# ones.  In each round, alternating which side goes first:
#   cold depth 1   bench_randread(rr_big, reads, cold) device reads/s (RIOPS)
#                  vs fio --rw=randread --bs=8k --direct=1 --ioengine=psync
#                     --number_ios=reads over rr_big's segment files (IOPS),
#                  and the same buffered (--direct=0 --fadvise_hint=0), as
#                     PostgreSQL reads: the kernel's buffered path alone
#   cold depth 32  bench_randread(rr_big, reads, cold, depth => 32)
#                  vs fio the same with --ioengine=io_uring --iodepth=32
#   cold N procs   bench_randread(rr_big, reads, cold, workers => N - 1),
#                  N processes at depth 1 as pgio's sessions read
#                  (BS_PROCESSES, default 4)
#                  vs fio psync --numjobs=N, reads / N each (IOPS summed)
#   warm           bench_randread(rr_small, reads => its pages) reads/s
#                  vs bench_query of an index scan fetching every row of
#                     rr_small by key in random order (heap fetches/s):
#                     the same block reads, with the executor between
# The cluster restarts before each cold benchstore run, so that rr_big is
# in no shared buffer on every version, and shared buffers are then filled
# with another table in the run's session (see fill below);
# bench_randread's cold run and bench_cache_evict drop the OS page cache.
# fio runs with --readonly on the relation's own files.  Each line shows the median of each side and
# the median of the per-round ratios (benchstore / reference), with the
# issue's target beside it, and bench_randread's read-ahead and page-cache
# share, which fio's direct reads do not have.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

size_mb=${1:-512}
reads=${2:-20000}
rounds=${3:-5}
small_mb=48
procs=${BS_PROCESSES:-4}

bs_install_deps fio jq
bs_build_install
bs_start_cluster "shared_buffers = 128MB" "max_worker_processes = $((procs + 8))" \
    "max_parallel_workers = $procs"
bs_psql -q -c 'CREATE EXTENSION benchstore' \
    -c 'ALTER DATABASE postgres SET benchstore.progress_interval = 0'
io_method=none
io_direct=off
if [ "${BS_IO_DIRECT:-0}" = 1 ]; then
    io_direct=data
    bs_psql -q -c "ALTER SYSTEM SET debug_io_direct = 'data'"
    bs_restart_cluster
fi
if [ "$(bs_psql -Atc "SELECT current_setting('server_version_num')::int >= 180000")" = t ]; then
    io_method=${BS_IO_METHOD:-io_uring}
    bs_psql -q -c "ALTER SYSTEM SET io_method = '$io_method'"
    bs_restart_cluster
fi

bs_log "loading rr_big ($size_mb MB) and rr_small ($small_mb MB), one row per page, in random key order"
bs_psql -q <<SQL
CREATE TABLE rr_big (id integer, filler text) WITH (fillfactor = 10, autovacuum_enabled = off);
INSERT INTO rr_big SELECT g, repeat(md5(g::text), 20)
FROM generate_series(1, $size_mb * 1048576 / current_setting('block_size')::int) g ORDER BY random();
CREATE TABLE rr_small (id integer, filler text) WITH (fillfactor = 10, autovacuum_enabled = off);
INSERT INTO rr_small SELECT g, repeat(md5(g::text), 20)
FROM generate_series(1, $small_mb * 1048576 / current_setting('block_size')::int) g ORDER BY random();
CREATE TABLE rr_fill (id integer, filler text) WITH (fillfactor = 10, autovacuum_enabled = off);
INSERT INTO rr_fill SELECT g, repeat(md5(g::text), 20)
FROM generate_series(1, (pg_size_bytes(current_setting('shared_buffers')) * 5 / 4) / current_setting('block_size')::int) g;
CREATE INDEX ON rr_big (id);
CREATE INDEX ON rr_small (id);
VACUUM (FREEZE, ANALYZE) rr_big, rr_small;
CHECKPOINT;
-- every key of rr_small once, in random order: the index scan's fetches
CREATE TABLE rr_keys AS SELECT array_agg(id ORDER BY random()) AS ids FROM rr_small;
CREATE TABLE sample (test text, side text, round integer, per_s float8,
                     readahead_mb float8, page_cache_pct float8);
SQL
fill_pages=$(bs_psql -Atc "SELECT pg_relation_size('rr_fill') / current_setting('block_size')::int")
# Right after a start, a read into a shared buffer never used since pays
# the first touch of its memory (on this project's virtual machine, about
# 33 us a read, more than the read itself): no running server does.  So
# each cold run first fills shared buffers, in its own session, with a
# warm pass over rr_fill (1.25 x shared_buffers); its reads then evict
# clean buffers, as on a server that has been up a while.
fill="SELECT FROM bench_randread('rr_fill', reads => $fill_pages, record => false)"
small_pages=$(bs_psql -Atc "SELECT pg_relation_size('rr_small') / current_setting('block_size')::int")
datadir=$(bs_psql -Atc "SHOW data_directory")
relpath=$(bs_psql -Atc "SELECT pg_relation_filepath('rr_big')")
files="$datadir/$relpath"
n=1
while [ -e "$datadir/$relpath.$n" ]; do files="$files:$datadir/$relpath.$n"; n=$((n + 1)); done

bench_cold() {     # test depth round [processes]
    bs_restart_cluster
    bs_psql -Atq -c "SET client_min_messages = error" -c "$fill" -c "INSERT INTO sample
        SELECT '$1', 'benchstore', $3, device_reads_per_s, readahead_mb,
               100.0 * page_cache_reads / reads
        FROM bench_randread('rr_big', reads => $reads, cache => 'cold', depth => $2,
                            seed => $3, workers => ${4:-1} - 1, record => false)
        WHERE workers_launched = ${4:-1} - 1"
}

fio_cold() {       # test depth round direct(1|0) [processes]
    local engine=psync out iops side="fio direct" jobs=${5:-1}
    [ "$2" -gt 1 ] && engine=io_uring
    [ "$4" = 0 ] && side="fio buffered"
    bs_psql -Atq -c "SELECT FROM bench_cache_evict('rr_big')" >/dev/null
    # buffered: without fio's POSIX_FADV_RANDOM, as PostgreSQL reads
    out=$(fio --readonly --name=rr --filename="$files" --rw=randread --bs=8k --direct="$4" \
        --fadvise_hint=0 --invalidate=1 --ioengine=$engine --iodepth="$2" \
        --number_ios="$((reads / jobs))" --randseed="$3" --numjobs="$jobs" --group_reporting \
        --output-format=json)
    iops=$(echo "$out" | jq -r '.jobs[0].read.iops')
    bs_psql -Atq -c "INSERT INTO sample VALUES ('$1', '$side', $3, $iops, NULL, NULL)"
}

# Both warm sides in one session, after an untimed run of each there.
warm_pair() {      # first round
    local rr="INSERT INTO sample SELECT 'warm', 'benchstore', $2, reads_per_s, NULL, NULL
              FROM bench_randread('rr_small', reads => $small_pages, seed => $2, record => false);"
    local q="INSERT INTO sample SELECT 'warm', 'index scan', $2, $small_pages / (elapsed_ms / 1000), NULL, NULL
             FROM bench_query('SELECT sum(length(filler)) FROM rr_small WHERE id = ANY ((SELECT ids FROM rr_keys)::integer[])',
                              record => false);"
    {
        echo "SET enable_seqscan = off; SET enable_bitmapscan = off;"
        echo "SELECT FROM bench_randread('rr_small', reads => $small_pages, record => false);"
        echo "SELECT FROM bench_query('SELECT sum(length(filler)) FROM rr_small WHERE id = ANY ((SELECT ids FROM rr_keys)::integer[])', record => false);"
        if [ "$1" = benchstore ]; then echo "$rr"; echo "$q"; else echo "$q"; echo "$rr"; fi
    } | bs_psql -Atq -f - >/dev/null
}

# The index scan really is one: the plan, once.
bs_psql -Atq -c "SET enable_seqscan = off" -c "SET enable_bitmapscan = off" \
    -c "EXPLAIN (COSTS OFF) SELECT sum(length(filler)) FROM rr_small WHERE id = ANY ((SELECT ids FROM rr_keys)::integer[])" >&2

bs_log "warming up (one untimed pass of each)"
bench_cold 'cold depth 1' 1 0
fio_cold 'cold depth 1' 1 0 1
warm_pair benchstore 0
bs_psql -Atq -c "DELETE FROM sample"

bs_log "measuring: $rounds rounds of $reads reads (io_method: $io_method, direct I/O: $io_direct)"
for r in $(seq 1 "$rounds"); do
    for d in 1 32; do
        if [ $((r % 2)) -eq 1 ]; then
            bench_cold "cold depth $d" "$d" "$r"
            fio_cold "cold depth $d" "$d" "$r" 1; fio_cold "cold depth $d" "$d" "$r" 0
        else
            fio_cold "cold depth $d" "$d" "$r" 0; fio_cold "cold depth $d" "$d" "$r" 1
            bench_cold "cold depth $d" "$d" "$r"
        fi
    done
    if [ $((r % 2)) -eq 1 ]; then
        bench_cold "cold $procs procs" 1 "$r" "$procs"
        fio_cold "cold $procs procs" 1 "$r" 1 "$procs"
    else
        fio_cold "cold $procs procs" 1 "$r" 1 "$procs"
        bench_cold "cold $procs procs" 1 "$r" "$procs"
    fi
    if [ $((r % 2)) -eq 1 ]; then warm_pair benchstore "$r"; else warm_pair reference "$r"; fi
    printf '.' >&2
done
echo >&2

bs_log "results (median of $rounds rounds; ratio = benchstore / reference)"
bs_psql -q -v io_method="$io_method" -v io_direct="$io_direct" -v procs="$procs" <<'SQL'
\pset footer off
SELECT format('PostgreSQL %s, io_method %s, direct I/O %s, shared_buffers %s, rr_big %s MB, rr_small %s MB',
              current_setting('server_version'), :'io_method', :'io_direct', current_setting('shared_buffers'),
              round(pg_relation_size('rr_big') / 1048576.0, 1),
              round(pg_relation_size('rr_small') / 1048576.0, 1)) AS setup;
WITH pair AS (
    SELECT b.test, r.side AS reference, b.round, b.per_s AS b_per_s, r.per_s AS r_per_s,
           b.per_s / r.per_s AS ratio, b.readahead_mb, b.page_cache_pct
    FROM sample b JOIN sample r ON r.test = b.test AND r.round = b.round AND r.side <> 'benchstore'
    WHERE b.side = 'benchstore'
)
SELECT test AS comparison,
       reference || CASE WHEN test = 'cold depth 1' THEN ', psync'
                         WHEN test = 'cold depth 32' THEN ', io_uring 32'
                         WHEN test LIKE 'cold % procs' THEN ', psync numjobs'
                         ELSE ' (bench_query)' END AS reference,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_per_s)::numeric, 0) AS benchstore_per_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY r_per_s)::numeric, 0) AS reference_per_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio)::numeric, 3) AS ratio,
       CASE WHEN reference = 'fio buffered' THEN '(as PostgreSQL reads)'
            WHEN test = 'cold depth 1' THEN '>= 0.9' WHEN test = 'cold depth 32' THEN '>= 0.8'
            WHEN test LIKE 'cold % procs' THEN '(pgio''s sessions)'
            ELSE '>= 1.5' END AS target,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY readahead_mb)::numeric, 1) AS readahead_mb,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY page_cache_pct)::numeric, 1) AS page_cache_pct,
       string_agg(round(ratio::numeric, 2)::text, ' ' ORDER BY round) AS ratio_per_round
FROM pair
GROUP BY test, reference
ORDER BY array_position(ARRAY['cold depth 1', 'cold depth 32', 'cold ' || :'procs' || ' procs', 'warm'], test), reference DESC;
SQL
