#!/usr/bin/env bash
# Benchmark: bench_seqscan against the plain tools, measured side by side in
# one run on a throwaway cluster.  Not a test: it prints figures and ratios.
#
#   bash test/bench/seqscan.sh [size_mb] [rounds]     default 1024 MB, 5 rounds
#
# Builds a lineitem-shaped table of about size_mb, then, in each round and
# alternating which goes first:
#   heap warm   bench_seqscan(heap, warm)   vs  SELECT count(*)           (tuples/s)
#   heap cold   bench_seqscan(heap, cold)   vs  count(*) after eviction   (MB/s)
#   raw cold    bench_seqscan(raw, cold)    vs  dd bs=1M of the same segment files
#                                               after the same eviction    (MB/s)
# count(*) runs with max_parallel_workers_per_gather = 0.  Each line shows
# the median of each side over the rounds and the median of the per-round
# ratios (each round's pair is measured back to back).
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

size_mb=${1:-1024}
rounds=${2:-5}
rows=$((size_mb * 6700))

bs_install_deps
bs_build_install
bs_start_cluster
bs_psql -q -c 'CREATE EXTENSION benchstore' \
    -c 'ALTER DATABASE postgres SET max_parallel_workers_per_gather = 0'

bs_log "loading a lineitem-shaped table of about $size_mb MB ($rows rows)"
bs_psql -q -v rows="$rows" < test/sample/lineitem.sql 2>/dev/null
bs_psql -q <<'SQL'
CHECKPOINT;
CREATE SCHEMA bench;
CREATE TABLE bench.sample (test text, side text, round integer,
                           mb_per_s float8, tuples_per_s float8);
-- count(*) timed in the server, as bench_seqscan times itself.
CREATE FUNCTION bench.time_count(rel regclass, OUT ms float8, OUT n bigint)
LANGUAGE plpgsql AS $$
DECLARE
    t0 timestamptz := clock_timestamp();
BEGIN
    EXECUTE format('SELECT count(*) FROM %s', rel) INTO n;
    ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;
CREATE FUNCTION bench.record_count(test text, rnd integer) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO bench.sample
    SELECT test, 'reference', rnd,
           pg_relation_size('lineitem') / 1048576.0 / (t.ms / 1000), t.n / (t.ms / 1000)
    FROM bench.time_count('lineitem') t
$$;
CREATE FUNCTION bench.record_scan(test text, rnd integer, m text, c text) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO bench.sample
    SELECT test, 'benchstore', rnd, s.mb_per_s, s.tuples_per_s
    FROM bench_seqscan('lineitem', m, c) s
$$;
SQL

datadir=$(bs_psql -Atc "SHOW data_directory")
relpath=$(bs_psql -Atc "SELECT pg_relation_filepath('lineitem')")
segments=("$datadir/$relpath")
n=1
while [ -e "$datadir/$relpath.$n" ]; do segments+=("$datadir/$relpath.$n"); n=$((n + 1)); done
bytes=$(bs_psql -Atc "SELECT pg_relation_size('lineitem')")

evict() { bs_psql -Atq -c "SELECT FROM bench_cache_evict('lineitem')" >/dev/null; }

# dd reads every segment file, cold, 1 MB at a time: the same chunk size as
# raw mode.
dd_round() {
    local t0 t1
    evict
    t0=$(date +%s%N)
    # dd runs as we do (root or the cluster's owner can read the files):
    # going through runuser would add its start-up to the time.
    for f in "${segments[@]}"; do
        dd if="$f" of=/dev/null bs=1M status=none
    done
    t1=$(date +%s%N)
    bs_psql -Atq -c "INSERT INTO bench.sample VALUES ('raw cold', 'reference', $1,
        $bytes / 1048576.0 / (($t1 - $t0) / 1e9), NULL)"
}

# One untimed pass of everything first.  On a virtual machine the first
# read of freshly written data may come from the real disk and later "cold"
# reads from a cache below the guest, which no eviction here can reach;
# after this pass every round finds the same state below the guest.
bs_log "warming up (one untimed pass)"
bs_psql -Atq -c "SELECT FROM bench.time_count('lineitem')" -c "SELECT FROM bench_seqscan('lineitem')" \
    -c "SELECT FROM bench_seqscan('lineitem', 'raw', 'cold')"
dd_round 0
bs_psql -Atq -c "DELETE FROM bench.sample"

bs_log "measuring: $rounds rounds of ${#segments[@]} segment file(s), $((bytes / 1048576)) MB"
# Both sides of a pair run in one session, after untimed warm-up scans in
# that session: a new backend pays page faults the first time it touches
# each page of shared buffers (tens of thousands of them), and the kernel
# moves pages just read cold to its active list on their next reads.  Both
# costs belong to neither side.
warm_up="SELECT FROM bench_seqscan('lineitem', repeat => 2)"
ev="SELECT FROM bench_cache_evict('lineitem')"

for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
        bs_psql -Atq -c "$warm_up" \
            -c "SELECT bench.record_scan('heap warm', $r, 'heap', 'warm')" \
            -c "SELECT bench.record_count('heap warm', $r)" \
            -c "SELECT bench.record_scan('heap cold', $r, 'heap', 'cold')" \
            -c "$ev" -c "SELECT bench.record_count('heap cold', $r)" \
            -c "SELECT bench.record_scan('raw cold', $r, 'raw', 'cold')"
        dd_round "$r"
    else
        bs_psql -Atq -c "$warm_up" \
            -c "SELECT bench.record_count('heap warm', $r)" \
            -c "SELECT bench.record_scan('heap warm', $r, 'heap', 'warm')" \
            -c "$ev" -c "SELECT bench.record_count('heap cold', $r)" \
            -c "SELECT bench.record_scan('heap cold', $r, 'heap', 'cold')"
        dd_round "$r"
        bs_psql -Atq -c "SELECT bench.record_scan('raw cold', $r, 'raw', 'cold')"
    fi
    printf '.' >&2
done
echo >&2

bs_log "results (median of $rounds rounds; ratio = benchstore / reference)"
bs_psql -q <<'SQL'
\pset footer off
SELECT format('PostgreSQL %s, shared_buffers %s, block size %s, table %s MB, %s tuples',
              current_setting('server_version'), current_setting('shared_buffers'),
              current_setting('block_size'),
              round(pg_relation_size('lineitem') / 1048576.0, 1),
              (SELECT count(*) FROM lineitem)) AS setup;
-- Each round's pair was measured back to back, so the ratio is taken per
-- round and its median reported; the sides' medians are shown beside it.
WITH pair AS (
    SELECT b.test, b.round, b.mb_per_s AS b_mb, r.mb_per_s AS r_mb,
           b.tuples_per_s AS b_tps, r.tuples_per_s AS r_tps,
           CASE WHEN b.test = 'raw cold' THEN b.mb_per_s / r.mb_per_s
                ELSE b.tuples_per_s / r.tuples_per_s END AS ratio
    FROM bench.sample b
    JOIN bench.sample r ON r.test = b.test AND r.round = b.round AND r.side = 'reference'
    WHERE b.side = 'benchstore'
)
SELECT test AS comparison,
       CASE test WHEN 'heap warm' THEN 'count(*) warm'
                 WHEN 'heap cold' THEN 'count(*) cold'
                 ELSE 'dd bs=1M cold' END AS reference,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_mb)::numeric, 1) AS benchstore_mb_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY r_mb)::numeric, 1) AS reference_mb_s,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY b_tps) / 1e6)::numeric, 2) AS benchstore_mtuples_s,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY r_tps) / 1e6)::numeric, 2) AS reference_mtuples_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio)::numeric, 3) AS ratio,
       CASE test WHEN 'heap warm' THEN 'tuples/s, target >= 1.4'
                 WHEN 'heap cold' THEN 'tuples/s, never < 1'
                 ELSE 'MB/s, target >= 0.95' END AS measure,
       string_agg(round(ratio::numeric, 2)::text, ' ' ORDER BY round) AS ratio_per_round
FROM pair
GROUP BY test
ORDER BY array_position(ARRAY['heap warm', 'heap cold', 'raw cold'], test);
SQL
