# test/lib.sh: shared steps of the README's commands and the benchmark
# scripts.  Source it from the repository's top directory (bash).
#
#   bs_install_deps       install (as root) or build what the chosen server needs
#   bs_build_install      build with warnings as errors and install
#   bs_start_cluster      initdb and start a throwaway cluster; sets PG* env
#   bs_as_pg CMD...       run CMD as the cluster's owner
#
# Which server: PG_MAJOR=15 (the default) is Debian 12's postgresql-15;
# PG_MAJOR=16 and 18 are PostgreSQL 16.2 and 18.6 built from ../shared/vendor/ into a cache
# (with BS_ASSERTS=1 a second build, --enable-cassert --enable-debug; with
# BS_VALGRIND=1 a third, also -DUSE_VALGRIND -Og, for test/valgrind.sh)
# outside the checkout (BS_CACHE) and reused; PG_CONFIG=/path/to/pg_config
# is any server you have, used as it is.
#
# As root (CI, a fresh machine) everything is installed and the cluster is
# owned by the "postgres" user, since initdb refuses to run as root.  As
# another user nothing is installed with apt: the packages must already be
# there.

BS_WARNINGS="-Wall -Wextra -Werror -Wno-unused-parameter -Wno-sign-compare"
# The vendored sources (PostgreSQL 16 and 18, PL/Proxy, Citus) beside the checkout.
BS_SHARED=${BS_SHARED:-$(cd .. && pwd)/shared}
if [ "$(id -u)" -eq 0 ]; then
    BS_CACHE=${BS_CACHE:-/var/cache/benchstore}
else
    BS_CACHE=${BS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/benchstore}
fi
# The vendored servers: PostgreSQL 16.2 and 18.6, built from
# ../shared/vendor/ (Debian 12 packages neither).  BS_VPG_* describe the
# one PG_MAJOR asks for.
BS_PG16_VERSION=16.2
BS_PG18_VERSION=18.6
case "${PG_MAJOR:-15}" in
    16) BS_VPG_VERSION=$BS_PG16_VERSION
        # io_uring for the server itself exists from 18 (benchstore's own
        # io_uring needs only liburing's headers)
        BS_VPG_WITH="" ;;
    *)  BS_VPG_VERSION=$BS_PG18_VERSION
        BS_VPG_WITH="--with-liburing" ;;
esac
# An assert-enabled build (which also clobbers freed memory) lives apart,
# and so does one for Valgrind (memory contexts tell it what is allocated,
# freed or undefined); CPPFLAGS and CFLAGS go to configure as they are.
BS_VPG_CPPFLAGS=""
BS_VPG_CFLAGS=""
if [ "${BS_VALGRIND:-0}" = 1 ]; then
    BS_VPG_PREFIX=$BS_CACHE/pg-$BS_VPG_VERSION-valgrind
    BS_VPG_CONFIGURE="--enable-cassert --enable-debug"
    BS_VPG_CPPFLAGS="-DUSE_VALGRIND"
    BS_VPG_CFLAGS="-Og -g"
elif [ "${BS_ASSERTS:-0}" = 1 ]; then
    BS_VPG_PREFIX=$BS_CACHE/pg-$BS_VPG_VERSION-cassert
    BS_VPG_CONFIGURE="--enable-cassert --enable-debug"
else
    BS_VPG_PREFIX=$BS_CACHE/pg-$BS_VPG_VERSION
    BS_VPG_CONFIGURE=""
fi
BS_PLPROXY_VERSION=2.12.0

if [ -n "${PG_CONFIG:-}" ]; then
    # A server of the user's own.
    PG_BIN=$("$PG_CONFIG" --bindir)
    PG_MAJOR=$("$PG_CONFIG" --version | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')
    BS_SERVER=own
else
    PG_MAJOR=${PG_MAJOR:-15}
    case "$PG_MAJOR" in
        15) PG_BIN=/usr/lib/postgresql/15/bin; BS_SERVER=debian ;;
        16|18) PG_BIN=$BS_VPG_PREFIX/bin; BS_SERVER=vendored ;;
        *)
            echo "PG_MAJOR=$PG_MAJOR: this script knows 15 (Debian 12's package), 16 and 18 (built from ../shared/vendor); for another server set PG_CONFIG=/path/to/its/pg_config" >&2
            exit 2 ;;
    esac
fi
export PG_MAJOR PG_BIN

bs_log() { printf '\n== %s\n' "$*" >&2; }

bs_install_deps() {
    case "$BS_SERVER" in
        own)
            bs_log "using the server of $PG_CONFIG (PostgreSQL $PG_MAJOR): nothing is installed"
            return 0 ;;
        vendored)
            # the caller's extra packages (fio, jq for the benchmarks) too
            bs_apt build-essential libipc-run-perl bison flex libreadline-dev \
                zlib1g-dev liburing-dev pkg-config "$@"
            bs_build_vendored_pg
            return 0 ;;
    esac
    bs_apt "postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" \
        build-essential libipc-run-perl liburing-dev "$@"
}

# apt-get install, as root only; otherwise the packages must be there.
bs_apt() {
    if [ "$(id -u)" -ne 0 ]; then
        bs_log "not root: assuming these packages are installed: $*"
        return 0
    fi
    bs_log "installing packages"
    export DEBIAN_FRONTEND=noninteractive
    if [ -z "${BS_APT_UPDATED:-}" ]; then
        apt-get update -q
        BS_APT_UPDATED=1
    fi
    # postgresql-common creates a default cluster on install unless told not to.
    mkdir -p /etc/postgresql-common/createcluster.d
    echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/benchstore.conf
    apt-get install -y -q --no-install-recommends "$@"
}

# Fail the run, naming what could not be had and why.
bs_die() {
    echo "benchstore: $*" >&2
    exit 1
}

# A vendored archive, checked against SHA256SUMS.
bs_vendored() {
    local name=$1 sums="$BS_SHARED/vendor/SHA256SUMS"
    [ -f "$BS_SHARED/vendor/$name" ] ||
        bs_die "$name is not in $BS_SHARED/vendor: cannot build it"
    [ -f "$sums" ] || bs_die "$sums is missing: cannot check $name"
    (cd "$BS_SHARED/vendor" && grep " $name\$" SHA256SUMS | sha256sum -c --status -) ||
        bs_die "$name does not match its checksum in $sums (corrupt or replaced archive): not building it"
    echo "$BS_SHARED/vendor/$name"
}

# Build the vendored PostgreSQL of PG_MAJOR, 16 or 18 (with contrib and the
# TAP test modules), and PL/Proxy for it into $BS_CACHE, once.  A build is trusted only when its marker
# file, written last, is there; anything else in its place is removed and
# built again, so a failed or interrupted build is never used.
bs_build_vendored_pg() {
    local prefix="$BS_VPG_PREFIX" tarball build
    local marker="$prefix/.benchstore-built"
    tarball=$(bs_vendored "postgresql-$BS_VPG_VERSION.tar.bz2") || exit 1
    local want
    local flags="$BS_VPG_CONFIGURE${BS_VPG_CPPFLAGS:+ CPPFLAGS=$BS_VPG_CPPFLAGS}${BS_VPG_CFLAGS:+ CFLAGS=$BS_VPG_CFLAGS}"
    want="$(sha256sum < "$tarball")${flags:+ $flags}"
    if [ ! -f "$marker" ] || [ "$(cat "$marker")" != "$want" ]; then
        bs_log "building PostgreSQL $BS_VPG_VERSION ${flags:+($flags) }from $tarball into $prefix (a few minutes, once)"
        rm -rf "$prefix"
        mkdir -p "$BS_CACHE"
        build=$(mktemp -d "$BS_CACHE/build.XXXXXX")
        # (set -e does not hold inside a tested subshell: the steps are chained)
        if ! (
            tar -xjf "$tarball" -C "$build" &&
            cd "$build/postgresql-$BS_VPG_VERSION" &&
            ./configure -q --prefix="$prefix" --enable-tap-tests $BS_VPG_WITH \
                --without-icu $BS_VPG_CONFIGURE \
                ${BS_VPG_CPPFLAGS:+"CPPFLAGS=$BS_VPG_CPPFLAGS"} \
                ${BS_VPG_CFLAGS:+"CFLAGS=$BS_VPG_CFLAGS"} >"$build/configure.log" 2>&1 &&
            make -s -j"$(nproc)" world-bin >"$build/make.log" 2>&1 &&
            make -s install-world-bin >>"$build/make.log" 2>&1 &&
            make -s -C src/test/perl install >>"$build/make.log" 2>&1
        ); then
            tail -n 30 "$build"/*.log >&2 2>/dev/null || true
            rm -rf "$build" "$prefix"
            bs_die "PostgreSQL $BS_VPG_VERSION failed to build (log above); nothing was left in $prefix"
        fi
        rm -rf "$build"
        echo "$want" > "$marker"
    fi
    bs_build_vendored_plproxy "$prefix"
}

# PL/Proxy for the vendored server (Debian's postgresql-15-plproxy serves 15 only).
bs_build_vendored_plproxy() {
    local prefix=$1 tarball build
    local marker="$prefix/.benchstore-plproxy-$BS_PLPROXY_VERSION"
    [ -f "$marker" ] && return 0
    tarball=$(bs_vendored "plproxy-$BS_PLPROXY_VERSION.tar.gz") || exit 1
    bs_log "building PL/Proxy $BS_PLPROXY_VERSION for PostgreSQL $BS_VPG_VERSION"
    build=$(mktemp -d "$BS_CACHE/build.XXXXXX")
    if ! (
        tar -xzf "$tarball" -C "$build" &&
        cd "$build/plproxy-$BS_PLPROXY_VERSION" &&
        make -s PG_CONFIG="$prefix/bin/pg_config" >"$build/make.log" 2>&1 &&
        make -s PG_CONFIG="$prefix/bin/pg_config" install >>"$build/make.log" 2>&1
    ); then
        tail -n 30 "$build/make.log" >&2 || true
        rm -rf "$build"
        bs_die "PL/Proxy $BS_PLPROXY_VERSION failed to build for PostgreSQL $BS_VPG_VERSION (log above)"
    fi
    rm -rf "$build"
    touch "$marker"
}

# Citus from ../shared/vendor for the server the suite runs on: 13.2.2 for
# 15 (it supports 15-17), 14.0.1 for 18 (16-18).  Built once with DESTDIR
# into a staging directory under $BS_CACHE, one per server build, trusted
# only with its marker; then copied into the server's directories, every
# run (for 15 they are Debian's, and an apt upgrade of the server would
# drop what is not its own).  Where ../shared/vendor is absent, or the
# server is the user's own, nothing is built and the Citus tests skip.
bs_citus_version() {
    case "$PG_MAJOR" in
        15|16|17) echo 13.2.2 ;;
        18) echo 14.0.1 ;;
    esac
}

bs_build_vendored_citus() {
    local ver tarball stage marker want build pgc="$PG_BIN/pg_config"
    ver=$(bs_citus_version)
    if [ "$BS_SERVER" = own ] || [ -z "$ver" ]; then
        bs_log "Citus: not built for a server of your own; install it from its packages to run the Citus tests"
        return 0
    fi
    if [ ! -d "$BS_SHARED/vendor" ]; then
        bs_log "Citus: $BS_SHARED/vendor is absent: the Citus tests will skip"
        return 0
    fi
    tarball=$(bs_vendored "citus-$ver.tar.gz") || exit 1
    bs_apt libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev
    stage="$BS_CACHE/citus-$ver-$(printf '%s' "$PG_BIN" | sha256sum | cut -c1-12)"
    marker="$stage/.benchstore-built"
    want="$(sha256sum < "$tarball") $("$pgc" --version) $PG_BIN"
    if [ ! -f "$marker" ] || [ "$(cat "$marker")" != "$want" ]; then
        bs_log "building Citus $ver for $("$pgc" --version) from $tarball (a few minutes, once)"
        rm -rf "$stage"
        mkdir -p "$BS_CACHE"
        build=$(mktemp -d "$BS_CACHE/build.XXXXXX")
        if ! (
            tar -xzf "$tarball" -C "$build" &&
            cd "$build/citus-$ver" &&
            # Citus 13.2.2 defines a static have_createdb_privilege() that
            # PostgreSQL 15.20 declares extern: rename Citus's copy, and its
            # callers use the server's (../shared/vendor/README.md)
            sed -i 's/^have_createdb_privilege(void)$/citus_own_have_createdb_privilege(void)/'                 src/include/pg_version_compat.h &&
            ./configure -q PG_CONFIG="$pgc" >"$build/configure.log" 2>&1 &&
            make -s -j"$(nproc)" >"$build/make.log" 2>&1 &&
            make -s install DESTDIR="$stage/root" >>"$build/make.log" 2>&1
        ); then
            tail -n 30 "$build"/*.log >&2 2>/dev/null || true
            rm -rf "$build" "$stage"
            bs_die "Citus $ver failed to build for $("$pgc" --version) (log above); nothing was left in $stage"
        fi
        rm -rf "$build"
        echo "$want" > "$marker"
    fi
    bs_log "installing Citus $ver into $("$pgc" --pkglibdir) and $("$pgc" --sharedir)/extension"
    if [ "$(id -u)" -eq 0 ] || [ -w "$("$pgc" --pkglibdir)" ]; then
        cp -a "$stage/root/." /
    else
        sudo -n cp -a "$stage/root/." /
    fi
}

bs_build_install() {
    bs_log "building (warnings are errors) and installing"
    make -s clean
    make -s PG_CONFIG="$PG_BIN/pg_config" PG_CFLAGS="$BS_WARNINGS"
    if [ "$(id -u)" -eq 0 ] || [ -w "$("$PG_BIN/pg_config" --pkglibdir)" ]; then
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
        for v in PGHOST PGPORT PGUSER PGDATABASE BS_LOOP_CACHED BS_LOOP_CACHED_FILE BS_LOOP_DIRECT; do
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

# The loop-device rig (root only): two small ext4 filesystems on loop
# devices whose backing files lie in /var/tmp, for the tests of a cache
# below the server (test/t/023_cache_below.pl).  On "cached" the loop
# device reads its file through the page cache: a cache below the
# filesystem that the test controls (it drops the file's pages with dd
# iflag=nocache, so the file is readable by the cluster's owner).  On
# "direct" the loop device does direct I/O: no cache between the
# filesystem and the disk.  Exports BS_LOOP_CACHED (a directory for a
# tablespace), BS_LOOP_CACHED_FILE and BS_LOOP_DIRECT; removed with the
# cluster.  Says why and exports nothing where it cannot be built.
bs_loop_rig_start() {
    BS_LOOP_ROOT=
    if [ "$(id -u)" -ne 0 ]; then
        bs_log "loop-device rig: not built (it needs root for losetup and mount)"
        return 0
    fi
    local root kind dev
    bs_apt e2fsprogs mount
    root=$(mktemp -d /var/tmp/benchstore-loop.XXXXXX)
    BS_LOOP_ROOT=$root
    for kind in cached direct; do
        truncate -s 2G "$root/$kind.img"
        mkfs.ext4 -q -F "$root/$kind.img"
        if [ "$kind" = direct ]; then
            dev=$(losetup --find --show --direct-io=on "$root/$kind.img") || dev=
        else
            dev=$(losetup --find --show --direct-io=off "$root/$kind.img") || dev=
        fi
        if [ -z "$dev" ]; then
            bs_log "loop-device rig: losetup failed: no loop devices here"
            bs_loop_rig_stop
            return 0
        fi
        echo "$dev" > "$root/$kind.dev"
        mkdir -p "$root/$kind"
        mount -o noatime "$dev" "$root/$kind"
        mkdir -p "$root/$kind/ts"
        chown "$(bs_owner)": "$root/$kind/ts"
        chmod 644 "$root/$kind.img"
    done
    chmod 755 "$root"
    export BS_LOOP_CACHED="$root/cached/ts" BS_LOOP_CACHED_FILE="$root/cached.img" \
        BS_LOOP_DIRECT="$root/direct/ts"
    bs_log "loop-device rig: $(cat "$root/cached.dev") (page-cached file) on $root/cached, $(cat "$root/direct.dev") (direct I/O) on $root/direct"
}

bs_loop_rig_stop() {
    local root=${BS_LOOP_ROOT:-} kind
    [ -n "$root" ] && [ -d "$root" ] || return 0
    for kind in cached direct; do
        mountpoint -q "$root/$kind" 2>/dev/null && umount "$root/$kind"
        [ -f "$root/$kind.dev" ] && losetup -d "$(cat "$root/$kind.dev")" 2>/dev/null
    done
    rm -rf "$root"
    BS_LOOP_ROOT=
    unset BS_LOOP_CACHED BS_LOOP_CACHED_FILE BS_LOOP_DIRECT
}

bs_stop_cluster() {
    # the server first: its files in tablespaces on the rig keep those
    # filesystems busy, and they could not be unmounted
    if [ -n "${BS_TMP:-}" ] && [ -d "$BS_TMP/data" ]; then
        bs_as_pg "$PG_BIN/pg_ctl" -D "$BS_TMP/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    bs_loop_rig_stop
    [ -n "${BS_TMP:-}" ] && rm -rf "$BS_TMP"
    BS_TMP=
}

# psql against the throwaway cluster, stopping at the first error.
bs_psql() {
    bs_as_pg psql -X -v ON_ERROR_STOP=1 "$@"
}
