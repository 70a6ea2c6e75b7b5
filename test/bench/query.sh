#!/usr/bin/env bash
# Benchmark: what bench_query adds to a query, measured side by side in one
# run on a throwaway cluster.  Not a test: it prints figures and ratios.
#
#   bash test/bench/query.sh [scale] [rounds] [small_rounds]
#                               default scale 1 (6M lineitem rows), 9 rounds, 201 small rounds
#
# Generates the TPC-H-shaped data set (bench_generate_tpch) and, in each
# round, in one psql session with \timing (alternating which goes first,
# after an untimed run of each in that session):
#   psql        SELECT count(*) FROM tpch.lineitem
#   bench_query SELECT * FROM bench_query('SELECT count(*) FROM tpch.lineitem',
#                                         record => false)
# Both times are psql's own (\timing: the client's wall clock, what a DBA
# sees).  Printed per round and as medians: both times, the overhead
# (bench_query / psql - 1; the target is under 2 %), and bench_query's own
# elapsed_ms beside psql's time (what it reports against what the client
# saw).  Warm: the table is read from the OS page cache (or shared
# buffers); default settings, so both sides get the same parallel plan.
#
# The rounds of a half-second scan spread far wider than the few
# milliseconds bench_query adds, so they cannot tell 2 % from 0.  The
# second part measures that added time directly: small_rounds pairs of
# SELECT count(*) FROM tpch.region, plain and through bench_query,
# interleaved in one session; the difference of each pair, its mean and a
# 95 % confidence interval (Student's t), and that interval as a share of
# the lineitem scan's median time, with the verdict the interval allows.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

scale=${1:-1}
rounds=${2:-9}
small_rounds=${3:-201}

bs_install_deps
bs_build_install
bs_start_cluster
bs_psql -q -c 'CREATE EXTENSION benchstore' \
    -c 'ALTER DATABASE postgres SET benchstore.progress_interval = 0'

bs_log "generating the TPC-H-shaped data set, scale $scale"
bs_psql -q -c "SET client_min_messages = warning" \
    -c "SELECT * FROM bench_generate_tpch($scale)" >/dev/null
bs_psql -q -c 'VACUUM (FREEZE, ANALYZE)' -c 'CHECKPOINT'
bs_psql -q -c 'CREATE TABLE bench_sample (round integer, side text, ms float8)'

plain='SELECT count(*) FROM tpch.lineitem;'
wrapped="SELECT elapsed_ms FROM bench_query('SELECT count(*) FROM tpch.lineitem', record => false);"

# One round: both sides in one session after an untimed run of each;
# prints "side ms" lines from psql's \timing and bench_query's elapsed_ms.
one_round() {
    local first=$1 second=$2
    {
        echo "$plain"
        echo "$wrapped"
        echo '\timing on'
        echo "\\echo side $first"
        [ "$first" = psql ] && echo "$plain" || echo "$wrapped"
        echo "\\echo side $second"
        [ "$second" = psql ] && echo "$plain" || echo "$wrapped"
    } | bs_psql -At -f - 2>&1
}

bs_log "measuring: $rounds rounds"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then out=$(one_round psql bench_query); else out=$(one_round bench_query psql); fi
    # Lines: "side X", the query's value, "Time: N ms"
    echo "$out" | awk -v r="$r" '
        /^side / { side = $2; next }
        /^Time: / { print r "\t" side "\t" $2; next }
        side == "bench_query" && /^[0-9.]+$/ { print r "\treported\t" $0 }
    ' | bs_psql -q -c '\copy bench_sample FROM STDIN'
    printf '.' >&2
done
echo >&2

bs_log "measuring the time bench_query adds: $small_rounds interleaved pairs on a small query"
tiny='SELECT count(*) FROM tpch.region;'
tiny_wrapped="SELECT elapsed_ms FROM bench_query('SELECT count(*) FROM tpch.region', record => false);"
bs_psql -q -c 'CREATE TABLE bench_small (round integer, side text, ms float8)'
{
    echo "$tiny"
    echo "$tiny_wrapped"
    echo '\timing on'
    for r in $(seq 1 "$small_rounds"); do
        if [ $((r % 2)) -eq 1 ]; then
            echo "\\echo side $r psql"; echo "$tiny"
            echo "\\echo side $r bench_query"; echo "$tiny_wrapped"
        else
            echo "\\echo side $r bench_query"; echo "$tiny_wrapped"
            echo "\\echo side $r psql"; echo "$tiny"
        fi
    done
} | bs_psql -At -f - 2>&1 | awk '
    /^side / { r = $2; side = $3; next }
    /^Time: / && r != "" { print r "\t" side "\t" $2 }
' | bs_psql -q -c '\copy bench_small FROM STDIN'

bs_log "results (median of $rounds rounds)"
bs_psql -q <<'SQL'
\pset footer off
SELECT format('PostgreSQL %s, shared_buffers %s, tpch.lineitem %s MB, %s rows, max_parallel_workers_per_gather %s',
              current_setting('server_version'), current_setting('shared_buffers'),
              round(pg_relation_size('tpch.lineitem') / 1048576.0, 1),
              (SELECT count(*) FROM tpch.lineitem),
              current_setting('max_parallel_workers_per_gather')) AS setup;
WITH per_round AS (
    SELECT round,
           max(ms) FILTER (WHERE side = 'psql') AS psql_ms,
           max(ms) FILTER (WHERE side = 'bench_query') AS bench_query_ms,
           max(ms) FILTER (WHERE side = 'reported') AS reported_ms
    FROM bench_sample GROUP BY round
)
SELECT round, round(psql_ms::numeric, 1) AS psql_ms, round(bench_query_ms::numeric, 1) AS bench_query_ms,
       round(((bench_query_ms / psql_ms - 1) * 100)::numeric, 2) AS overhead_pct,
       round(reported_ms::numeric, 1) AS reported_elapsed_ms,
       round((reported_ms / psql_ms)::numeric, 3) AS reported_over_psql
FROM per_round ORDER BY round;
WITH per_round AS (
    SELECT round,
           max(ms) FILTER (WHERE side = 'psql') AS psql_ms,
           max(ms) FILTER (WHERE side = 'bench_query') AS bench_query_ms,
           max(ms) FILTER (WHERE side = 'reported') AS reported_ms
    FROM bench_sample GROUP BY round
)
SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY psql_ms)::numeric, 1) AS psql_ms,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY bench_query_ms)::numeric, 1) AS bench_query_ms,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY bench_query_ms / psql_ms - 1) * 100)::numeric, 2)
           AS overhead_pct_median,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY reported_ms / psql_ms))::numeric, 3)
           AS reported_over_psql_median,
       'target: overhead under 2 %' AS target
FROM per_round;
-- The added time itself, from the small query's interleaved pairs, and
-- what it is as a share of the lineitem scan: the verdict the interval
-- allows (Student's t, two-sided 95 %; the normal 1.96 past 30 pairs).
WITH pairs AS (
    SELECT round, max(ms) FILTER (WHERE side = 'bench_query') - max(ms) FILTER (WHERE side = 'psql') AS added_ms
    FROM bench_small GROUP BY round
    HAVING count(*) = 2
), stats AS (
    SELECT count(*) AS n, avg(added_ms) AS mean, stddev_samp(added_ms) AS sd,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY added_ms) AS median
    FROM pairs
), t AS (
    SELECT s.*, s.sd / sqrt(s.n) *
           CASE WHEN s.n - 1 <= 30
                THEN (ARRAY[12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                            2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042])[s.n - 1]
                ELSE 1.96 END AS half
    FROM stats s
), scan AS (
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms
    FROM bench_sample WHERE side = 'psql'
)
SELECT t.n AS pairs, round(t.median::numeric, 3) AS added_ms_median,
       round(t.mean::numeric, 3) AS added_ms_mean,
       format('%s .. %s', round((t.mean - t.half)::numeric, 3), round((t.mean + t.half)::numeric, 3)) AS added_ms_95ci,
       format('%s .. %s', round(((t.mean - t.half) / scan.ms * 100)::numeric, 3),
              round(((t.mean + t.half) / scan.ms * 100)::numeric, 3)) AS pct_of_scan_95ci,
       CASE WHEN (t.mean + t.half) / scan.ms * 100 < 2 THEN 'under the 2 % target'
            WHEN (t.mean - t.half) / scan.ms * 100 > 2 THEN 'over the 2 % target'
            ELSE 'cannot tell 2 % from 0' END AS verdict
FROM t, scan;
SQL
