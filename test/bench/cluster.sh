#!/usr/bin/env bash
# Benchmark: what the PL/Proxy fan-out of bench_cluster_seqscan adds to the
# nodes' own scan times.  Not a test: it prints figures.
#
#   bash test/bench/cluster.sh [size_mb] [rounds]     default 256 MB per node, 5 rounds
#
# Starts a coordinator and three nodes (throwaway clusters on Unix sockets
# in one temporary directory, removed on exit), loads a lineitem-shaped
# table of about size_mb on each node, and in each round runs, in one
# coordinator session after an untimed warm-up of each line:
#   heap warm             bench_cluster_seqscan(..., record => false)
#   heap warm, recorded   the same with record => true (each node inserts and
#                         commits its run inside the coordinator's clock)
#   heap cold             cache => 'cold' (an untimed eviction fan-out first)
#   heap cold, no untimed eviction
#                         the timed fan-out alone, each node checkpointing and
#                         evicting inside the coordinator's clock (what
#                         bench_cluster_seqscan would measure without its
#                         preparatory fan-out)
# and prints for each: the coordinator's wall time of the fan-out, the
# slowest node's own elapsed time, the overhead = wall / slowest - 1 (the
# target is <= 10 %), and the aggregate MB/s (all nodes' MB / wall time).
# The nodes share this machine's cores and disk: aggregate scaling is not
# the point, the overhead is.
#
# Where Citus is installed (test/run-tests.sh builds it from
# ../shared/vendor), the same four instances also form a Citus cluster (the
# coordinator and the three nodes as workers), with a distributed
# lineitem_d of one shard per worker of the same size, and the warm and
# cold lines run through bench_cluster_seqscan('citus', ...) too, in the
# same rounds, beside PL/Proxy's: over the connections benchstore_cluster
# keeps open to the workers (one per role and node, kept by the benchstore
# library from 1.2; 1.1 used contrib dblink), and, as "new connections",
# through Citus's own dispatch
# (run_command_on_workers, a new connection to every worker per call;
# benchstore_cluster.citus_connections = 'new').
#
# BS_SKIP_BUILD=1 skips installing packages and building benchstore (use
# what is installed).
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

size_mb=${1:-256}
rounds=${2:-5}
rows=$((size_mb * 6700))

if [ -z "${BS_SKIP_BUILD:-}" ]; then
    # PL/Proxy: Debian's package for 15; built with the vendored servers
    if [ "$BS_SERVER" = debian ]; then bs_install_deps "postgresql-$PG_MAJOR-plproxy"; else bs_install_deps; fi
    bs_build_install
fi
[ -e "$("$PG_BIN/pg_config" --sharedir)/extension/plproxy.control" ] || {
    echo "PL/Proxy is not installed: apt-get install postgresql-$PG_MAJOR-plproxy" >&2
    exit 1
}

citus=
[ -e "$("$PG_BIN/pg_config" --sharedir)/extension/citus.control" ] && citus=1

BS_TMP=$(mktemp -d /tmp/benchstore-cluster.XXXXXX)
chmod 755 "$BS_TMP"
[ "$(id -u)" -eq 0 ] && chown postgres: "$BS_TMP"
names=(coordinator node0 node1 node2)
declare -A port

stop_all() {
    local n
    for n in "${names[@]}"; do
        if [ -d "$BS_TMP/$n" ]; then
            bs_as_pg "$PG_BIN/pg_ctl" -D "$BS_TMP/$n" -m fast -w stop >/dev/null 2>&1 || true
        fi
    done
    rm -rf "$BS_TMP"
}
trap stop_all EXIT

# psql on one of the instances, stopping at the first error.
on() {
    local n=$1
    shift
    bs_as_pg psql -X -v ON_ERROR_STOP=1 -h "$BS_TMP" -p "${port[$n]}" -U postgres -d postgres "$@"
}

bs_log "starting a coordinator and three nodes in $BS_TMP"
for n in "${names[@]}"; do
    bs_as_pg "$PG_BIN/initdb" -D "$BS_TMP/$n" -A trust -U postgres --no-sync >/dev/null
    port[$n]=$(bs_free_port)
    {
        echo "listen_addresses = ''"
        echo "unix_socket_directories = '$BS_TMP'"
        echo "port = ${port[$n]}"
        echo "track_io_timing = on"
        echo "max_parallel_workers_per_gather = 0"
        if [ -n "$citus" ]; then
            echo "shared_preload_libraries = 'citus'"
            echo "citus.local_hostname = '$BS_TMP'"
        fi
    } | bs_as_pg tee -a "$BS_TMP/$n/postgresql.conf" >/dev/null
    bs_as_pg "$PG_BIN/pg_ctl" -D "$BS_TMP/$n" -l "$BS_TMP/$n.log" -w start >/dev/null
    on "$n" -q -c 'CREATE EXTENSION benchstore'
done

if [ -n "$citus" ]; then
    bs_log "Citus: the coordinator and the three nodes as its workers"
    for n in "${names[@]}"; do on "$n" -q -c 'CREATE EXTENSION citus'; done
    on coordinator -q -c "SELECT citus_set_coordinator_host('$BS_TMP', ${port[coordinator]})"
    for n in node0 node1 node2; do
        on coordinator -q -c "SELECT citus_add_node('$BS_TMP', ${port[$n]})"
    done
fi

bs_log "loading a lineitem-shaped table of about $size_mb MB ($rows rows) on each node"
for n in node0 node1 node2; do
    (on "$n" -q -v rows="$rows" < test/sample/lineitem.sql >/dev/null 2>&1 &&
        on "$n" -q -c 'VACUUM lineitem' -c 'CHECKPOINT') &
done
wait

options="modular_mapping '1'"
i=0
for n in node0 node1 node2; do
    options+=", p$i 'host=$BS_TMP port=${port[$n]} dbname=postgres'"
    i=$((i + 1))
done
on coordinator -q <<SQL
-- (with Citus: these are the coordinator's own, not for its workers)
SET citus.enable_ddl_propagation = off;
CREATE EXTENSION benchstore_cluster CASCADE;
CREATE SERVER bench FOREIGN DATA WRAPPER plproxy OPTIONS ($options);
CREATE USER MAPPING FOR PUBLIC SERVER bench;
CREATE SCHEMA bench;
CREATE TABLE bench.sample (test text, round integer, wall_ms float8, slowest_ms float8,
                           mb_per_s float8, skew float8);
-- One round of a line: the total row's wall time and the slowest node's;
-- through PL/Proxy (server bench, lineitem on each node) or, where
-- installed, Citus (the distributed lineitem_d).
CREATE FUNCTION bench.round(test text, rnd integer, cache text, rec boolean,
                            cluster name DEFAULT 'bench', rel text DEFAULT 'lineitem') RETURNS void
LANGUAGE sql AS \$\$
    INSERT INTO bench.sample
    SELECT test, rnd,
           max(s.elapsed_ms) FILTER (WHERE s.node = 'total'),
           max(s.elapsed_ms) FILTER (WHERE s.node <> 'total'),
           max(s.mb_per_s) FILTER (WHERE s.node = 'total'),
           max(s.skew)
    FROM bench_cluster_seqscan(cluster, rel, cache => cache, record => rec) s
\$\$;
-- The cold fan-out without the untimed eviction before it: the internal
-- PL/Proxy call alone, timed the same way.
CREATE FUNCTION bench.round_no_prep(test text, rnd integer) RETURNS void
LANGUAGE plpgsql AS \$\$
DECLARE
    t0 timestamptz := clock_timestamp();
    slowest float8;
    mb float8;
    wall float8;
BEGIN
    SELECT max(x.elapsed_ms), sum(x.size_mb) INTO slowest, mb
    FROM _bench_cluster_seqscan_plproxy('bench', '{0,1,2}', 'lineitem', 'heap', 'cold',
                                        NULL, false, 0) x;
    wall := extract(epoch FROM clock_timestamp() - t0) * 1000;
    INSERT INTO bench.sample VALUES (test, rnd, wall, slowest, mb / (wall / 1000), NULL);
END \$\$;
SQL

if [ -n "$citus" ]; then
    bs_log "Citus: a distributed lineitem_d, one shard of about $size_mb MB per worker"
    # test/sample/lineitem.sql's rows, three nodes' worth, made on the
    # coordinator and distributed (Citus copies them into the shards)
    on coordinator -q -v rows="$((rows * 3))" -v table=lineitem_d < test/sample/lineitem.sql >/dev/null 2>&1
    on coordinator -q -c 'SET citus.shard_count = 3' -c 'SET citus.shard_replication_factor = 1' \
        -c "SELECT create_distributed_table('lineitem_d', 'l_orderkey')" \
        -c "SELECT truncate_local_data_after_distributing_table('lineitem_d')" \
        -c 'VACUUM lineitem_d' >/dev/null 2>&1
    for n in node0 node1 node2; do on "$n" -q -c 'CHECKPOINT'; done
fi

lines=("heap warm|warm|false" "heap warm, recorded|warm|true" "heap cold|cold|false")
no_prep="heap cold, no untimed eviction"

session() {
    local r=$1 line test cache rec
    for line in "${lines[@]}"; do
        IFS='|' read -r test cache rec <<<"$line"
        echo "SELECT bench.round('$test', $r, '$cache', $rec);"
    done
    echo "SELECT bench.round_no_prep('$no_prep', $r);"
    if [ -n "$citus" ]; then
        echo "SELECT bench.round('citus heap warm', $r, 'warm', false, 'citus', 'lineitem_d');"
        echo "SELECT bench.round('citus heap cold', $r, 'cold', false, 'citus', 'lineitem_d');"
        echo "SET benchstore_cluster.citus_connections = 'new';"
        echo "SELECT bench.round('citus heap warm, new connections', $r, 'warm', false, 'citus', 'lineitem_d');"
        echo "SELECT bench.round('citus heap cold, new connections', $r, 'cold', false, 'citus', 'lineitem_d');"
        echo "RESET benchstore_cluster.citus_connections;"
    fi
}

bs_log "measuring: $rounds rounds (and one untimed warm-up round)"
{
    # The warm-up round is round 0, left out below: the session's first
    # fan-out also opens the connections and plans the remote queries.
    for r in $(seq 0 "$rounds"); do session "$r"; done
} | on coordinator -Atq >/dev/null

bs_log "per round (ms; overhead = wall / slowest node - 1)"
on coordinator -q <<SQL
\pset footer off
SELECT test, round, round(wall_ms::numeric, 1) AS wall_ms,
       round(slowest_ms::numeric, 1) AS slowest_node_ms,
       round((100 * (wall_ms / slowest_ms - 1))::numeric, 1) AS overhead_pct,
       round(mb_per_s::numeric) AS aggregate_mb_s
FROM bench.sample WHERE round > 0
ORDER BY array_position(ARRAY['heap warm', 'heap warm, recorded', 'heap cold', '$no_prep', 'citus heap warm', 'citus heap cold', 'citus heap warm, new connections', 'citus heap cold, new connections'], test), round;
SQL

bs_log "medians of $rounds rounds"
on coordinator -q <<SQL
\pset footer off
SELECT format('PostgreSQL %s, 3 nodes on one machine (%s cores), %s MB per node, shared_buffers %s',
              current_setting('server_version'), '$(nproc)',
              round((SELECT max(s.size_mb) FROM bench_cluster_seqscan('bench', 'lineitem', record => false) s
                     WHERE s.node = 'p0')::numeric, 1),
              current_setting('shared_buffers')) AS setup;
SELECT test,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY wall_ms)::numeric, 1) AS wall_ms,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY slowest_ms)::numeric, 1) AS slowest_node_ms,
       round((100 * percentile_cont(0.5) WITHIN GROUP (ORDER BY wall_ms / slowest_ms - 1))::numeric, 1)
           AS overhead_pct,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY wall_ms - slowest_ms)::numeric, 1) AS overhead_ms,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY mb_per_s)::numeric) AS aggregate_mb_s,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY skew)::numeric, 2) AS skew
FROM bench.sample WHERE round > 0
GROUP BY test
ORDER BY array_position(ARRAY['heap warm', 'heap warm, recorded', 'heap cold', '$no_prep', 'citus heap warm', 'citus heap cold', 'citus heap warm, new connections', 'citus heap cold, new connections'], test);
SQL
