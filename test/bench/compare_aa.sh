#!/usr/bin/env bash
# Benchmark: are bench_compare's verdicts right?  Not a test: it prints how
# many calls declared a winner where there is none, and whether a real
# difference is still found.
#
#   bash test/bench/compare_aa.sh [calls] [rounds]     default 20 calls, 3 rounds
#
# A/A: two tablespaces in two directories of one filesystem (the cluster's
# disk), compared by bench_compare_tablespaces(tests =>
# '{seqread,randread,sync}', size => '64MB', duration => '1s', rounds)
# with direct I/O, calls times.  Nothing differs between them: every
# "better" is a false verdict, which Holm's adjustment over a call's rows
# should keep to about 5 % of the calls or fewer.  Each row's verdict is
# counted: a winner, equal within 5 %, can't tell.
#
# A/B: where /dev/shm is tmpfs, the disk against a tablespace there, the
# same tests buffered (tmpfs refuses O_DIRECT), three calls: a sync on
# tmpfs returns at once and one on the disk waits for it, a real
# difference the verdicts must still find.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

calls=${1:-20}
rounds=${2:-3}

bs_install_deps
bs_build_install
bs_start_cluster
bs_psql -q -c 'CREATE EXTENSION benchstore'
for d in aa_a aa_b; do
    mkdir -p "$BS_TMP/$d"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$BS_TMP/$d"
    bs_psql -q -c "CREATE TABLESPACE $d LOCATION '$BS_TMP/$d'"
done
bs_psql -q -c 'CREATE TABLE verdicts (kind text, call integer, test text, metric text, ratio float8, p_value float8, verdict text)'

bs_log "A/A: $calls calls of bench_compare_tablespaces('aa_a', 'aa_b'), $rounds rounds each"
for i in $(seq 1 "$calls"); do
    bs_psql -q -v i="$i" -v rounds="$rounds" <<'SQL'
SET client_min_messages = warning;
INSERT INTO verdicts
SELECT 'A/A', :i, c.test, c.metric, c.ratio, NULL, c.verdict
FROM bench_compare_tablespaces('aa_a', 'aa_b', tests => '{seqread,randread,sync}', size => '64MB',
                               duration => '1s', rounds => :rounds, label => 'aa ' || :i) c;
SQL
done

if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
    shm=/dev/shm/benchstore-aa.$$
    mkdir -p "$shm"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$shm"
    trap 'rm -rf "$shm"; bs_stop_cluster' EXIT
    bs_psql -q -c "CREATE TABLESPACE aa_shm LOCATION '$shm'"
    bs_log "A/B: 3 calls of bench_compare_tablespaces('aa_a', 'aa_shm'), buffered"
    for i in 1 2 3; do
        bs_psql -q -v i="$i" -v rounds="$rounds" <<'SQL'
SET client_min_messages = warning;
INSERT INTO verdicts
SELECT 'A/B (disk, tmpfs)', :i, c.test, c.metric, c.ratio, NULL, c.verdict
FROM bench_compare_tablespaces('aa_a', 'aa_shm', tests => '{seqread,randread,sync}', size => '64MB',
                               duration => '1s', rounds => :rounds, label => 'ab ' || :i,
                               direct => false) c;
SQL
    done
fi

bs_psql <<'SQL'
SELECT version() AS server \gset
\echo :server
SELECT kind, test, metric, count(*) AS rows,
       count(*) FILTER (WHERE verdict LIKE '% better') AS winner,
       count(*) FILTER (WHERE verdict LIKE 'equal within%') AS equal,
       count(*) FILTER (WHERE verdict LIKE 'can''t tell%') AS cant_tell,
       count(*) FILTER (WHERE verdict LIKE 'no verdict%') AS no_verdict,
       round(min(ratio)::numeric, 3) AS min_ratio, round(max(ratio)::numeric, 3) AS max_ratio
FROM verdicts GROUP BY 1, 2, 3 ORDER BY 1, array_position('{seqread,randread,sync}', test);
SELECT kind, count(DISTINCT call) AS calls,
       count(DISTINCT call) FILTER (WHERE verdict LIKE '% better') AS calls_with_a_winner
FROM verdicts GROUP BY 1 ORDER BY 1;
SQL
