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
#
# In the two warm states each round also measures the two-session ceiling
# for the scan itself: two sessions, each warmed up, released together
# from an advisory lock, each running a serial bench_seqscan of the whole
# table.  Its throughput is the tuples of both over the span from the
# first scan's start to the last one's end (each scan's own clock), over
# the serial tuples/s of the same round.  workers => 1 is two processes
# sharing one scan, so that is what it can reach; the script prints its
# scaling over the ceiling per round, median (the target is 0.90).  A cold
# state has no such ceiling here: two sessions reading one table share the
# page cache, so the second reader's blocks are hits.
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
-- one session's half of the two-session ceiling: its scan's own span
CREATE TABLE bench.pair (cache text, round integer, session integer, tuples bigint,
                         scan_start timestamptz, scan_end timestamptz);
CREATE FUNCTION bench.record_pair(c text, rnd integer, s integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
    ms float8;
    t1 timestamptz;
BEGIN
    SELECT tuples, elapsed_ms INTO n, ms
    FROM bench_seqscan('lineitem', 'heap', 'warm', record => false);
    t1 := clock_timestamp();
    INSERT INTO bench.pair VALUES (c, rnd, s, n, t1 - ms * interval '1 ms', t1);
END $$;
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

# Two warmed sessions released together from an advisory lock: a third
# session holds it until both wait for it (a new session's warm-up touches
# every shared-buffer page of the table, which takes seconds here).
two_sessions() {
    local c=$1 r=$2 s
    bs_psql -Atq -c "DO \$\$
        BEGIN
            PERFORM pg_advisory_lock(4242);
            FOR i IN 1 .. 12000 LOOP
                EXIT WHEN (SELECT count(*) FROM pg_locks
                           WHERE locktype = 'advisory' AND objid = 4242 AND NOT granted) = 2;
                PERFORM pg_sleep(0.01);
            END LOOP;
            PERFORM pg_advisory_unlock(4242);
        END \$\$" &
    until [ "$(bs_psql -Atc "SELECT count(*) FROM pg_locks
                             WHERE locktype = 'advisory' AND objid = 4242 AND granted")" = 1 ]; do
        sleep 0.05
    done
    for s in 1 2; do
        bs_psql -Atq -c "$warm_up" -c "SELECT pg_advisory_lock_shared(4242)" \
            -c "SELECT pg_advisory_unlock_shared(4242)" \
            -c "SELECT bench.record_pair('$c', $r, $s)" > /dev/null &
    done
    wait
}

measure() {
    local c=$1 r w pre
    for r in $(seq 1 "$rounds"); do
        [ "$c" != cold ] && two_sessions "$c" "$r"
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
WITH pair AS (
    SELECT cache, round,
           sum(tuples) / extract(epoch FROM max(scan_end) - min(scan_start)) AS tuples_per_s
    FROM bench.pair GROUP BY cache, round
), r AS (
    SELECT p.cache, p.round,
           p.tuples_per_s / z.tuples_per_s AS ceiling,
           w1.tuples_per_s / p.tuples_per_s AS of_ceiling
    FROM pair p
    JOIN bench.sample z ON z.cache = p.cache AND z.round = p.round
                       AND z.side = 'benchstore' AND z.workers = 0
    JOIN bench.sample w1 ON w1.cache = p.cache AND w1.round = p.round
                        AND w1.side = 'benchstore' AND w1.workers = 1
)
SELECT cache,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ceiling)::numeric, 2) AS two_sessions,
       string_agg(round(ceiling::numeric, 2)::text, ' ' ORDER BY round) AS two_sessions_per_round,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY of_ceiling)::numeric, 2) AS workers_1_of_ceiling,
       string_agg(round(of_ceiling::numeric, 2)::text, ' ' ORDER BY round) AS of_ceiling_per_round
FROM r GROUP BY cache ORDER BY array_position(ARRAY['warm (OS)', 'warm (sb)'], cache);
SELECT what AS ceiling,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio)::numeric, 2) AS ratio,
       string_agg(round(ratio::numeric, 2)::text, ' ' ORDER BY round) AS per_round
FROM bench.ceiling GROUP BY what ORDER BY what;
SQL
