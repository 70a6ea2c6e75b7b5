# test/lib.sh: shared steps of the README's commands and the benchmark
# scripts.  Source it from the repository's top directory (bash).
#
#   bs_install_deps       apt-get the server, headers and test tools (as root)
#   bs_build_install      build with warnings as errors and install
#   bs_start_cluster      initdb and start a throwaway cluster; sets PG* env
#   bs_as_pg CMD...       run CMD as the cluster's owner
#
# As root (CI, a fresh machine) everything is installed and the cluster is
# owned by the "postgres" user, since initdb refuses to run as root.  As
# another user nothing is installed: the packages must already be there.

PG_MAJOR=${PG_MAJOR:-15}
PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
BS_WARNINGS="-Wall -Wextra -Werror -Wno-unused-parameter -Wno-sign-compare"

bs_log() { printf '\n== %s\n' "$*" >&2; }

bs_install_deps() {
    if [ "$(id -u)" -ne 0 ]; then
        bs_log "not root: assuming postgresql-$PG_MAJOR, postgresql-server-dev-$PG_MAJOR and libipc-run-perl are installed"
        return 0
    fi
    bs_log "installing packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    # postgresql-common creates a default cluster on install unless told not to.
    mkdir -p /etc/postgresql-common/createcluster.d
    echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/benchstore.conf
    apt-get install -y -q --no-install-recommends \
        "postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" \
        build-essential libipc-run-perl "$@"
}

bs_build_install() {
    bs_log "building (warnings are errors) and installing"
    make -s clean
    make -s PG_CONFIG="$PG_BIN/pg_config" PG_CFLAGS="$BS_WARNINGS"
    if [ "$(id -u)" -eq 0 ]; then
        make -s PG_CONFIG="$PG_BIN/pg_config" install
    else
        sudo -n make -s PG_CONFIG="$PG_BIN/pg_config" install
    fi
}

# The cluster's owner: postgres when we are root, ourselves otherwise.
bs_owner() {
    if [ "$(id -u)" -eq 0 ]; then echo postgres; else id -un; fi
}

bs_as_pg() {
    if [ "$(id -u)" -eq 0 ]; then
        local vars=(PATH="$PG_BIN:$PATH") v
        for v in PGHOST PGPORT PGUSER PGDATABASE; do
            [ -n "${!v:-}" ] && vars+=("$v=${!v}")
        done
        runuser -u postgres -- env "${vars[@]}" "$@"
    else
        env PATH="$PG_BIN:$PATH" "$@"
    fi
}

# A free TCP port number (the cluster listens on a Unix socket only, but
# the socket file is named after the port).
bs_free_port() {
    local port
    for port in $(seq 54320 54399); do
        [ -e "$BS_TMP/.s.PGSQL.$port" ] && continue
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return 0
        fi
    done
    echo 54320
}

# Start a throwaway cluster in a temporary directory, removed on exit.
# Extra postgresql.conf lines may be passed as arguments.
bs_start_cluster() {
    BS_TMP=$(mktemp -d /tmp/benchstore.XXXXXX)
    chmod 755 "$BS_TMP"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$BS_TMP"
    trap bs_stop_cluster EXIT
    bs_log "starting a throwaway cluster in $BS_TMP"
    bs_as_pg "$PG_BIN/initdb" -D "$BS_TMP/data" -A trust -U postgres \
        --no-sync >/dev/null
    local port
    port=$(bs_free_port)
    {
        echo "listen_addresses = ''"
        echo "unix_socket_directories = '$BS_TMP'"
        echo "port = $port"
        echo "track_io_timing = on"
        for line in "$@"; do echo "$line"; done
    } | bs_as_pg tee -a "$BS_TMP/data/postgresql.conf" >/dev/null
    bs_as_pg "$PG_BIN/pg_ctl" -D "$BS_TMP/data" -l "$BS_TMP/server.log" -w start >/dev/null
    export PGHOST="$BS_TMP" PGPORT="$port" PGUSER=postgres PGDATABASE=postgres
}

# Restart the throwaway cluster: shared buffers start empty, as after a
# reboot (PostgreSQL has no safe way to drop a relation from them).
bs_restart_cluster() {
    bs_as_pg "$PG_BIN/pg_ctl" -D "$BS_TMP/data" -l "$BS_TMP/server.log" -w restart >/dev/null
}

bs_stop_cluster() {
    if [ -n "${BS_TMP:-}" ] && [ -d "$BS_TMP/data" ]; then
        bs_as_pg "$PG_BIN/pg_ctl" -D "$BS_TMP/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    [ -n "${BS_TMP:-}" ] && rm -rf "$BS_TMP"
    BS_TMP=
}

# psql against the throwaway cluster, stopping at the first error.
bs_psql() {
    bs_as_pg psql -X -v ON_ERROR_STOP=1 "$@"
}
