#!/usr/bin/env bash
# Benchmark: what bench_query adds to a query, measured side by side in one
# run on a throwaway cluster.  Not a test: it prints figures and ratios.
#
#   bash test/bench/query.sh [scale] [rounds]     default scale 1 (6M lineitem rows), 9 rounds
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
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

scale=${1:-1}
rounds=${2:-9}

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
SQL
