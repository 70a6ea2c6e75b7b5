#!/usr/bin/env bash
# Benchmark: how a bench_seqscan heap scan scales with parallel workers,
# beside PostgreSQL's own Parallel Seq Scan, measured side by side in one
# run on a throwaway cluster.  Not a test: it prints figures and ratios.
#
#   bash test/bench/seqscan_parallel.sh [size_mb] [rounds]   default 1024 MB, 5 rounds
#
# For workers 0, 1 and 2 on the same lineitem-shaped table, each round
# (alternating which side goes first) times
#   benchstore  bench_seqscan('lineitem', workers => w)               tuples/s
#   count(*)    SELECT count(*) FROM lineitem with
#               max_parallel_workers_per_gather = w (a Parallel Seq
#               Scan with w workers; w = 0 is the serial plan)       tuples/s
# in three cache states:
#   warm (OS)   shared_buffers 128MB: the table is read through the
#               bulk-read ring, from the OS page cache
#   cold        after checkpoint and eviction from the OS page cache
#   warm (sb)   shared_buffers large enough to hold the table: every
#               page a shared-buffer hit, CPU work only
# and prints per cache state and w the medians and the scaling ratio
# (tuples/s with w workers / tuples/s with none, per round, median).
#
# The machine's own ceiling is measured in the same run: two CPU-bound
# backends (a PL/pgSQL loop) at once against one, and two dd readers of
# halves of a cached file against one dd of all of it.  Scaling cannot
# exceed what two processes get from the machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

size_mb=${1:-1024}
rounds=${2:-5}
rows=$((size_mb * 6700))

bs_install_deps
bs_build_install
bs_start_cluster "max_worker_processes = 8" "max_parallel_workers = 8"
bs_psql -q -c 'CREATE EXTENSION benchstore' \
    -c 'ALTER DATABASE postgres SET benchstore.progress_interval = 0'

bs_log "loading a lineitem-shaped table of about $size_mb MB ($rows rows)"
bs_psql -q -v rows="$rows" < test/sample/lineitem.sql 2>/dev/null
bs_psql -q <<'SQL'
VACUUM (FREEZE, ANALYZE) lineitem;
CHECKPOINT;
CREATE SCHEMA bench;
CREATE TABLE bench.sample (cache text, side text, workers integer, round integer,
                           tuples_per_s float8, launched integer);
-- count(*) timed in the server, as bench_seqscan times itself, with a
-- Parallel Seq Scan of w workers (w = 0: the serial plan).
CREATE FUNCTION bench.record_count(c text, w integer, rnd integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    t0 timestamptz;
    n bigint;
    ms float8;
BEGIN
    PERFORM set_config('max_parallel_workers_per_gather', w::text, true);
    PERFORM set_config('parallel_setup_cost', '0', true);
    PERFORM set_config('parallel_tuple_cost', '0', true);
    PERFORM set_config('min_parallel_table_scan_size', '0', true);
    t0 := clock_timestamp();
    EXECUTE 'SELECT count(*) FROM lineitem' INTO n;
    ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
    INSERT INTO bench.sample VALUES (c, 'count(*)', w, rnd, n / (ms / 1000), NULL);
END $$;
CREATE FUNCTION bench.record_scan(c text, w integer, rnd integer) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO bench.sample
    SELECT c, 'benchstore', w, rnd, s.tuples_per_s, s.workers_launched
    FROM bench_seqscan('lineitem', 'heap', CASE WHEN c = 'cold' THEN 'cold' ELSE 'warm' END,
                       workers => w, record => false) s
$$;
-- CPU-bound work for the machine's ceiling.
CREATE FUNCTION bench.spin(n integer) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE s bigint := 0;
BEGIN
    FOR i IN 1 .. n LOOP s := s + i; END LOOP;
    RETURN s;
END $$;
CREATE TABLE bench.ceiling (what text, round integer, ratio float8);
SQL

datadir=$(bs_psql -Atc "SHOW data_directory")
relpath=$(bs_psql -Atc "SELECT pg_relation_filepath('lineitem')")
first_segment="$datadir/$relpath"
seg_blocks=$(( $(stat -c %s "$first_segment") / 8192 ))
ev="SELECT FROM bench_cache_evict('lineitem')"

now_ns() { date +%s%N; }

# The machine: two CPU-bound backends against one, two dd readers of the
# halves of the (cached) first segment file against one reader of it all.
ceiling_round() {
    local r=$1 t0 t1 t2 n=3000000
    t0=$(now_ns)
    bs_psql -Atq -c "SELECT FROM bench.spin($n)"
    t1=$(now_ns)
    bs_psql -Atq -c "SELECT FROM bench.spin($n)" & bs_psql -Atq -c "SELECT FROM bench.spin($n)"; wait
    t2=$(now_ns)
    bs_psql -Atq -c "INSERT INTO bench.ceiling VALUES ('two CPU-bound backends / one', $r,
        2.0 * ($t1 - $t0) / ($t2 - $t1))"
    cat "$first_segment" > /dev/null
    t0=$(now_ns)
    dd if="$first_segment" of=/dev/null bs=8k status=none
    t1=$(now_ns)
    dd if="$first_segment" of=/dev/null bs=8k count=$((seg_blocks / 2)) status=none &
    dd if="$first_segment" of=/dev/null bs=8k skip=$((seg_blocks / 2)) status=none; wait
    t2=$(now_ns)
    bs_psql -Atq -c "INSERT INTO bench.ceiling VALUES ('two dd readers (8 kB, page cache) / one', $r,
        ($t1 - $t0)::float8 / ($t2 - $t1))"
}

# Both sides of a pair run in one session, after an untimed scan in that
# session: a new backend pays a page fault the first time it touches each
# page of shared buffers, which belongs to neither side.  (Parallel workers
# are new processes every time and pay it on either side.)
warm_up="SELECT FROM bench_seqscan('lineitem', record => false)"

measure() {
    local c=$1 r w pre
    for r in $(seq 1 "$rounds"); do
        for w in 0 1 2; do
            pre="SELECT"
            [ "$c" = cold ] && pre="$ev"
            if [ $(((r + w) % 2)) -eq 1 ]; then
                bs_psql -Atq -c "$warm_up" -c "$pre" -c "SELECT bench.record_scan('$c', $w, $r)" \
                    -c "$pre" -c "SELECT bench.record_count('$c', $w, $r)"
            else
                bs_psql -Atq -c "$warm_up" -c "$pre" -c "SELECT bench.record_count('$c', $w, $r)" \
                    -c "$pre" -c "SELECT bench.record_scan('$c', $w, $r)"
            fi
        done
        printf '.' >&2
    done
    echo >&2
}

bs_log "warming up (one untimed pass)"
bs_psql -Atq -c "SELECT bench.record_scan('x', 0, 0)" -c "SELECT bench.record_count('x', 2, 0)" \
    -c "DELETE FROM bench.sample"

bs_log "warm (OS page cache, shared_buffers $(bs_psql -Atc 'SHOW shared_buffers')): $rounds rounds"
measure 'warm (OS)'
bs_log "cold: $rounds rounds"
measure cold

sb_mb=$((size_mb * 4 + 512))
bs_log "warm (shared buffers): restarting with shared_buffers = ${sb_mb}MB, $rounds rounds"
bs_psql -Atq -c "ALTER SYSTEM SET shared_buffers = '${sb_mb}MB'"
bs_restart_cluster
bs_psql -Atq -c "SELECT bench.record_scan('x', 0, 0)" -c "SELECT bench.record_scan('x', 0, 0)" \
    -c "DELETE FROM bench.sample WHERE cache = 'x'"
measure 'warm (sb)'

bs_log "the machine's ceiling: $rounds rounds"
for r in $(seq 1 "$rounds"); do ceiling_round "$r"; printf '.' >&2; done
echo >&2

bs_log "results (medians of $rounds rounds; scaling = tuples/s with w workers / with none, per round)"
bs_psql -q <<'SQL'
\pset footer off
SELECT format('PostgreSQL %s, %s CPUs, block size %s, table %s MB, %s tuples',
              current_setting('server_version'),
              (SELECT count(*) FROM pg_ls_dir('/sys/devices/system/cpu') d WHERE d ~ '^cpu[0-9]+$'),
              current_setting('block_size'),
              round(pg_relation_size('lineitem') / 1048576.0, 1),
              (SELECT count(*) FROM lineitem)) AS setup;
WITH s AS (
    SELECT x.*, x.tuples_per_s / z.tuples_per_s AS scaling
    FROM bench.sample x
    JOIN bench.sample z ON z.cache = x.cache AND z.side = x.side AND z.round = x.round
                       AND z.workers = 0
)
SELECT cache, workers, side,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY tuples_per_s) / 1e6)::numeric, 2) AS mtuples_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY scaling)::numeric, 2) AS scaling,
       string_agg(round(scaling::numeric, 2)::text, ' ' ORDER BY round) AS scaling_per_round,
       min(launched) AS min_launched
FROM s
GROUP BY cache, workers, side
ORDER BY array_position(ARRAY['warm (OS)', 'cold', 'warm (sb)'], cache), workers, side;
SELECT what AS ceiling,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio)::numeric, 2) AS ratio,
       string_agg(round(ratio::numeric, 2)::text, ' ' ORDER BY round) AS per_round
FROM bench.ceiling GROUP BY what ORDER BY what;
SQL
