#!/usr/bin/env bash
# Benchmark: bench_tpcb against pgbench, side by side in one run on a
# throwaway cluster.  Not a test: it prints figures and ratios.
#
#   bash test/bench/tpcb.sh [clients] [seconds] [rounds] [scale]   default 4 clients, 10 s, 5 rounds, scale 10
#   PG_MAJOR=18 bash test/bench/tpcb.sh
#
# The data: bench_generate_tpcb(scale), then VACUUM ANALYZE, as pgbench -i.
# In each round, alternating which side goes first, on the same data:
#   pgbench -n -M prepared -c N -j N -T D  (pgbench's built-in TPC-B-like
#       script, its statements prepared, as bench_tpcb's clients prepare
#       theirs)
#   pgbench -n -M simple -c N -j N -T D    (pgbench's default protocol)
#   bench_tpcb(clients => N, duration => D)
# Before each side, as pgbench does before a run without -n: VACUUM
# pgbench_branches and pgbench_tellers, TRUNCATE pgbench_history; then a
# CHECKPOINT, so that no side inherits the other's dirty buffers.
# Medians of the rounds and of the per-round ratios are printed.
#
#   steady    steady state on the same tables, the same criterion, window
#             and ramp, judged on the two tools' own per-second series:
#               bench_tpcb(until => 'steady', steady => C, steady_window => W,
#                          ramp => R, duration => D)
#             (its own verdict, and the same one worked out again here from
#             its recorded samples), and
#               pgbench -n -M prepared -c N -j N -T R+D -P 1
#             whose progress lines (tps per second) are judged here, in SQL,
#             the way src/steady.c judges samples: the first window of W
#             one-second samples, all after the ramp, where every criterion
#             holds.  pgbench cannot stop there, so it runs R+D; whether and
#             when each reached steady state, per round, and how often the
#             verdicts agree.  C, W, R, D from BENCH_SS (default
#             "iops:20%,iops_slope:1% 10s 5s 60s"; only iops criteria, as
#             pgbench's progress has no WAL rate and its latency is per
#             second's transactions, not the same mean).
#
# BENCH_SECTIONS (default "parity steady") picks the sections.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

clients=${1:-4}
seconds=${2:-10}
rounds=${3:-5}
scale=${4:-10}

bs_install_deps
bs_build_install
bs_start_cluster "max_worker_processes = 72" "fsync = on"
bs_psql -q -c 'CREATE EXTENSION benchstore' \
    -c 'ALTER DATABASE postgres SET benchstore.progress_interval = 0'
bs_log "generating pgbench's tables at scale $scale"
bs_psql -q -c "SET client_min_messages = warning" -c "SELECT * FROM bench_generate_tpcb(scale => $scale)" >/dev/null
bs_psql -q -c "VACUUM ANALYZE pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history"
bs_psql -q -c "CREATE TABLE bench_pair (side text, round integer, tps float8, lat_ms float8)"

prepare_side() {
    bs_psql -q -c "VACUUM pgbench_branches, pgbench_tellers" -c "TRUNCATE pgbench_history" -c "CHECKPOINT"
}

pgbench_side() {   # protocol round
    local out tps lat
    prepare_side
    out=$(bs_as_pg "$PG_BIN/pgbench" -n -M "$1" -c "$clients" -j "$clients" -T "$seconds" postgres 2>&1)
    tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p')
    lat=$(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p')
    if [ -z "$tps" ]; then echo "$out" >&2; exit 1; fi
    bs_psql -Atq -c "INSERT INTO bench_pair VALUES ('pgbench -M $1', $2, $tps, ${lat:-NULL})"
}

# bench_tpcb as a plain SELECT of its own (an INSERT ... SELECT over it
# would hold the statement's snapshot through the run and keep the
# clients' old row versions from being pruned: its notes would say so),
# its figures read back from the history under its label.
tpcb_run() {       # label arguments
    bs_psql -Atq -o /dev/null -c "SELECT * FROM bench_tpcb($2, label => '$1')"
    [ "$(bs_psql -Atq -c "SELECT count(*) FROM bench_history WHERE label = '$1'
                          AND metrics ->> 'notes' LIKE '%snapshot was held%'")" = 0 ] ||
        bs_die "bench_tpcb held the caller's snapshot in run $1"
}

bench_side() {     # round
    prepare_side
    tpcb_run "parity-r$1" "clients => $clients, duration => '${seconds}s'"
    bs_psql -Atq -c "INSERT INTO bench_pair
        SELECT 'bench_tpcb', $1, tps, bench_metric(metrics, 'lat_avg_ms')
        FROM bench_history WHERE label = 'parity-r$1'"
}

sections=${BENCH_SECTIONS:-parity steady}
want() { case " $sections " in *" $1 "*) return 0 ;; esac; return 1; }

if want parity; then
    bs_log "measuring: $rounds rounds of $seconds s, $clients clients, scale $scale"
    for r in $(seq 1 "$rounds"); do
        if [ $((r % 2)) -eq 1 ]; then
            bench_side "$r"; pgbench_side prepared "$r"; pgbench_side simple "$r"
        else
            pgbench_side simple "$r"; pgbench_side prepared "$r"; bench_side "$r"
        fi
        printf '.' >&2
    done
    echo >&2
fi

# The steady-state verdict of a per-second series, as src/steady.c judges
# it: the end (s) of the first window of n samples, all starting at or
# after the ramp, over which every iops criterion holds; NULL: none.
bs_psql -q <<'SQL'
CREATE TABLE steady_series (round integer, tool text, start_s float8, end_s float8, tps float8);
CREATE TABLE steady_verdict (round integer, tool text, own_at_ms float8, tps float8);
CREATE FUNCTION first_window(p_round integer, p_tool text, crit text[], n integer, ramp_s float8)
RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    ys float8[];
    starts float8[];
    ends float8[];
    w float8[];
    mean float8;
    dev float8;
    ok boolean;
    c text;
    lim float8;
BEGIN
    SELECT array_agg(tps ORDER BY start_s), array_agg(start_s ORDER BY start_s),
           array_agg(end_s ORDER BY start_s) INTO ys, starts, ends
    FROM steady_series WHERE round = p_round AND tool = p_tool;
    FOR i IN n .. coalesce(cardinality(ys), 0) LOOP
        CONTINUE WHEN starts[i - n + 1] + 0.000001 < ramp_s;
        w := ys[i - n + 1 : i];
        SELECT avg(y) INTO mean FROM unnest(w) y;
        ok := mean > 0;
        FOREACH c IN ARRAY crit LOOP
            lim := rtrim(split_part(c, ':', 2), '%')::float8;
            IF split_part(c, ':', 1) = 'iops_slope' THEN
                SELECT 100 * abs(regr_slope(y, k - 1)) / mean INTO dev
                FROM unnest(w) WITH ORDINALITY u(y, k);
            ELSE
                SELECT 100 * max(abs(y - mean)) / mean INTO dev FROM unnest(w) y;
            END IF;
            ok := ok AND dev < lim;
        END LOOP;
        IF ok THEN
            RETURN ends[i];
        END IF;
    END LOOP;
    RETURN NULL;
END;
$$;
SQL

if want steady; then
    read -r ss_crit ss_window ss_ramp ss_cap <<< "${BENCH_SS:-iops:20%,iops_slope:1% 10s 5s 60s}"
    ss_s() { bs_psql -Atc "SELECT extract(epoch FROM interval '$1')::int"; }
    pgbench_runtime=$(( $(ss_s "$ss_ramp") + $(ss_s "$ss_cap") ))

    steady_bench_tpcb() {    # round
        prepare_side
        tpcb_run "steady-r$1" "clients => $clients, ramp => '$ss_ramp', until => 'steady',
                 steady => '$ss_crit', steady_window => '$ss_window', duration => '$ss_cap'"
        bs_psql -Atq -c "INSERT INTO steady_verdict
            SELECT $1, 'bench_tpcb', bench_metric(metrics, 'steady_at_ms'), tps
            FROM bench_history WHERE label = 'steady-r$1'" \
            -c "INSERT INTO steady_series
            SELECT $1, 'bench_tpcb', start_ms / 1000, (start_ms + elapsed_ms) / 1000, iops
            FROM bench_samples('steady-r$1')
            WHERE elapsed_ms >= 500"
    }
    steady_pgbench() {       # round
        local out tps
        prepare_side
        out=$(bs_as_pg "$PG_BIN/pgbench" -n -M prepared -c "$clients" -j "$clients" \
              -T "$pgbench_runtime" -P 1 postgres 2>&1)
        echo "$out" | sed -n 's/^progress: \([0-9.]*\) s, \([0-9.]*\) tps.*/\1 \2/p' |
            awk -v r="$1" '{ printf "%s\tpgbench\t%s\t%s\t%s\n", r, $1 - 1, $1, $2 }' |
            bs_psql -q -c "COPY steady_series FROM STDIN"
        tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p')
        if [ -z "$tps" ]; then echo "$out" >&2; bs_die "pgbench printed no tps"; fi
        bs_psql -Atq -c "INSERT INTO steady_verdict VALUES ($1, 'pgbench', NULL, $tps)"
    }

    bs_log "steady state: $ss_crit over $ss_window after a ramp of $ss_ramp, at most $ss_cap; $rounds rounds"
    for r in $(seq 1 "$rounds"); do
        if [ $((r % 2)) -eq 1 ]; then steady_bench_tpcb "$r"; steady_pgbench "$r"
        else steady_pgbench "$r"; steady_bench_tpcb "$r"; fi
        printf '.' >&2
    done
    echo >&2
fi

if want parity; then
bs_log "results (median of $rounds rounds; ratio = bench_tpcb / pgbench)"
bs_psql -q <<SQL
\pset footer off
SELECT format('PostgreSQL %s, %s clients, %s s, scale $scale, synchronous_commit %s, %s vCPUs',
              current_setting('server_version'), $clients, $seconds,
              current_setting('synchronous_commit'), $(nproc)) AS setup;
WITH pair AS (
    SELECT p.side AS reference, b.round, b.tps AS b_tps, p.tps AS p_tps, b.tps / p.tps AS ratio,
           b.lat_ms AS b_lat, p.lat_ms AS p_lat
    FROM bench_pair b JOIN bench_pair p ON p.round = b.round AND p.side <> 'bench_tpcb'
    WHERE b.side = 'bench_tpcb'
)
SELECT reference,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_tps)::numeric, 1) AS bench_tpcb_tps,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY p_tps)::numeric, 1) AS pgbench_tps,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio)::numeric, 3) AS ratio,
       '0.95 .. 1.05' AS target,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_lat)::numeric, 3) AS bench_tpcb_lat_ms,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY p_lat)::numeric, 3) AS pgbench_lat_ms,
       string_agg(round(ratio::numeric, 2)::text, ' ' ORDER BY round) AS ratio_per_round
FROM pair GROUP BY reference ORDER BY reference;
SQL
fi

if want steady; then
    n=$(( $(ss_s "$ss_window") ))
    ramp=$(( $(ss_s "$ss_ramp") ))
    crit="{$ss_crit}"
    bs_log "steady state ($ss_crit over $ss_window after $ss_ramp): each round's verdicts, then how often they agree"
    bs_psql -q <<SQL
\pset footer off
WITH v AS (
    SELECT v.round, v.tool, v.own_at_ms, v.tps,
           first_window(v.round, v.tool, '$crit', $n, $ramp) AS at_s
    FROM steady_verdict v
)
SELECT b.round, b.at_s IS NOT NULL AS bench_tpcb_steady, p.at_s IS NOT NULL AS pgbench_steady,
       round(b.at_s::numeric, 1) AS bench_tpcb_at_s, round(p.at_s::numeric, 1) AS pgbench_at_s,
       b.own_at_ms IS NOT DISTINCT FROM b.at_s * 1000 OR abs(b.own_at_ms - b.at_s * 1000) < 1
         AS own_verdict_same,
       round(b.tps::numeric) AS bench_tpcb_tps, round(p.tps::numeric) AS pgbench_tps
FROM v b JOIN v p ON p.round = b.round AND p.tool = 'pgbench'
WHERE b.tool = 'bench_tpcb' ORDER BY b.round;
WITH v AS (
    SELECT v.round, v.tool, first_window(v.round, v.tool, '$crit', $n, $ramp) AS at_s
    FROM steady_verdict v
)
SELECT count(*) FILTER (WHERE (b.at_s IS NULL) = (p.at_s IS NULL)) || ' of ' || count(*) AS verdicts_agree,
       count(*) FILTER (WHERE b.at_s IS NOT NULL AND p.at_s IS NOT NULL) AS both_steady,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b.at_s / p.at_s)
             FILTER (WHERE b.at_s IS NOT NULL AND p.at_s IS NOT NULL)::numeric, 2) AS when_ratio_median
FROM v b JOIN v p ON p.round = b.round AND p.tool = 'pgbench'
WHERE b.tool = 'bench_tpcb';
SQL
fi
