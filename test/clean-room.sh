#!/usr/bin/env bash
# test/clean-room.sh: prove that benchstore installs on a Debian 12 machine
# that has never seen it, the way Debian's own packages are checked
# (sbuild, pbuilder): in a minimal Debian 12 root bootstrapped with
# mmdebstrap, where nothing is installed but what the step itself installs.
#
#   bash test/clean-room.sh            both jobs below (as root)
#   bash test/clean-room.sh package    the package job only
#   bash test/clean-room.sh demo       the demo job only
#
# The bootstrap (mmdebstrap --variant=minbase bookworm, about 40 s) is kept
# as a tarball in $BS_CACHE/clean-room and made again when the machine's
# apt sources change or it is over a week old.  Each job unpacks it into a
# new directory, so nothing a previous job or run installed can hide a
# missing step; the directory is removed when the job ends.  Only the
# downloaded .deb files are kept between jobs (a download cache, which
# cannot stand in for an install).
#
#   package  a clean clone of HEAD; apt-get build-dep on its debian/control
#            (nothing else: build-essential comes with it, as sbuild
#            installs it), dpkg-buildpackage -us -uc -b, apt-get install of
#            the .deb; then, on a throwaway cluster, CREATE EXTENSION
#            benchstore and (with postgresql-15-plproxy, which the package
#            suggests) benchstore_cluster, and a scan.  It also checks that
#            no GSSAPI headers (libkrb5-dev) were installed to build.
#   demo     a clean clone of HEAD with ../shared beside it (read-only), and
#            the README's first command, bash test/demo.sh, start to end.
#
# The chroot shares the machine's network and kernel; it mounts /proc and
# a tmpfs on /dev/shm (PostgreSQL's dynamic shared memory), nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

[ "$(id -u)" -eq 0 ] || bs_die "test/clean-room.sh bootstraps and enters a chroot: run it as root"
jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=(package demo)
for j in "${jobs[@]}"; do
    case "$j" in
        package|demo) ;;
        *) bs_die "unknown job \"$j\": the jobs are package and demo" ;;
    esac
done

bs_apt mmdebstrap git
repo=$(pwd)
git -C "$repo" rev-parse -q --verify HEAD >/dev/null || bs_die "$repo has no commit to clone"
cache="$BS_CACHE/clean-room"
mkdir -p "$cache/archives/partial"

# The machine's apt sources and its settings for reaching the mirror
# (Acquire::...), which a new machine of this kind has too.
apt_sources() {
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
        /etc/apt/sources.list.d/*.sources 2>/dev/null || true
}
apt_access_confs() {
    grep -l '^[[:space:]]*Acquire::' /etc/apt/apt.conf.d/* 2>/dev/null || true
}

# The untouched bootstrap, made once.
bootstrap() {
    local tar="$cache/bookworm-minbase.tar" key want
    want="$(mmdebstrap --version) minbase bookworm $(apt_sources | sha256sum | cut -c1-16)"
    key="$cache/bookworm-minbase.key"
    if [ -f "$tar" ] && [ -f "$key" ] && [ "$(cat "$key")" = "$want" ] &&
       [ -n "$(find "$tar" -mtime -7)" ]; then
        echo "$tar"
        return 0
    fi
    bs_log "clean room: bootstrapping a minimal Debian 12 root (mmdebstrap --variant=minbase, once a week)"
    rm -rf "$tar" "$key" "$cache/partial.tar"
    # mmdebstrap reads the machine's sources from standard input ("-"), so
    # the root uses the mirror this machine uses
    if ! apt_sources | mmdebstrap --quiet --variant=minbase --mode=root \
            bookworm "$cache/partial.tar" - >&2; then
        rm -rf "$cache/partial.tar"
        bs_die "mmdebstrap failed to bootstrap Debian 12 (above)"
    fi
    # (the name ends in .tar: mmdebstrap picks its output format by it)
    [ -f "$cache/partial.tar" ] || bs_die "mmdebstrap made no tarball"
    mv "$cache/partial.tar" "$tar"
    echo "$want" > "$key"
    echo "$tar"
}

root=
# Unmount what the job mounted, then remove its root; if anything is
# still mounted under it, leave it (and say so) rather than remove
# through a mount.
leave_root() {
    [ -n "$root" ] && [ -d "$root" ] || return 0
    local m
    for m in build/shared var/cache/apt/archives dev/shm proc; do
        mountpoint -q "$root/$m" 2>/dev/null && umount "$root/$m" 2>/dev/null
        mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m" 2>/dev/null
    done
    if findmnt -rn -o TARGET | grep -q "^$root"; then
        echo "clean room: $root still has mounts; not removing it" >&2
    else
        rm -rf "$root"
    fi
    root=
}
trap leave_root EXIT

# A new root from the bootstrap, ready for apt and PostgreSQL.
enter_root() {
    local tarball=$1 f
    root=$(mktemp -d /tmp/benchstore-clean-room.XXXXXX)
    chmod 755 "$root"
    tar -xf "$tarball" -C "$root"
    for f in $(apt_access_confs); do cp "$f" "$root/etc/apt/apt.conf.d/"; done
    rm -f "$root"/etc/apt/sources.list.d/*
    [ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$root/etc/apt/"
    cp /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
        "$root/etc/apt/sources.list.d/" 2>/dev/null || true
    # keep what apt downloads (the cache is mounted below)
    echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' \
        > "$root/etc/apt/apt.conf.d/99benchstore-keep-debs"
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    # no service starts in a chroot (as in pbuilder and sbuild)
    printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
    chmod 755 "$root/usr/sbin/policy-rc.d"
    mount -t proc proc "$root/proc"
    mount -t tmpfs -o mode=1777,size=1g tmpfs "$root/dev/shm"
    mount --bind "$cache/archives" "$root/var/cache/apt/archives"
    mkdir -p "$root/build"
    git clone -q "$repo" "$root/build/main"
}

# Run a script in the root as root, with a plain environment.
in_root() {
    chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
        /bin/bash -euo pipefail -c "$1"
}

tarball=$(bootstrap)
head=$(git -C "$repo" rev-parse --short HEAD)
status=0
for job in "${jobs[@]}"; do
    enter_root "$tarball"
    case "$job" in
    package)
        bs_log "clean room, package: Build-Depends only, dpkg-buildpackage, install, CREATE EXTENSION (HEAD $head)"
        cat > "$root/build/package-job.sh" <<'JOB'
cd /build/main
apt-get update -q
# sbuild installs build-essential beside the Build-Depends; so does build-dep
apt-get build-dep -y -q --no-install-recommends ./
dpkg-buildpackage -us -uc -b >/tmp/build.log 2>&1 || { tail -n 60 /tmp/build.log; exit 1; }
deb=$(ls /build/postgresql-15-benchstore_*.deb)
echo "built $deb"
if dpkg-query -W -f '${Status}' libkrb5-dev 2>/dev/null | grep -q 'ok installed'; then
    echo "clean room: libkrb5-dev was installed to build: the Build-Depends pull in GSSAPI headers" >&2
    exit 1
fi
mkdir -p /etc/postgresql-common/createcluster.d
echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/benchstore.conf
apt-get install -y -q --no-install-recommends "$deb" postgresql-15-plproxy
d=$(mktemp -d)
chown postgres: "$d"
pg=/usr/lib/postgresql/15/bin
runuser -u postgres -- "$pg/initdb" -D "$d/data" -A trust -U postgres >/dev/null
runuser -u postgres -- "$pg/pg_ctl" -D "$d/data" -l "$d/log" -w \
    -o "-c listen_addresses='' -c unix_socket_directories=$d" start >/dev/null
got=$(runuser -u postgres -- psql -X -h "$d" -d postgres -Atq -v ON_ERROR_STOP=1 <<'SQL'
CREATE EXTENSION benchstore;
CREATE EXTENSION plproxy;
CREATE EXTENSION benchstore_cluster;
SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname)
FROM pg_extension WHERE extname LIKE 'benchstore%';
SELECT 'scan: ' || pages || ' pages' FROM bench_seqscan('pg_class', record => false);
SQL
)
runuser -u postgres -- "$pg/pg_ctl" -D "$d/data" -m fast -w stop >/dev/null
echo "$got"
want="benchstore $(sed -n "s/^default_version = '\(.*\)'/\1/p" benchstore.control), benchstore_cluster $(sed -n "s/^default_version = '\(.*\)'/\1/p" benchstore_cluster.control)"
grep -qxF "$want" <<<"$got" || { echo "clean room: expected '$want'" >&2; exit 1; }
grep -qx 'scan: [1-9][0-9]* pages' <<<"$got" || { echo "clean room: the scan returned no pages" >&2; exit 1; }
echo "built with nothing but the Build-Depends (no libkrb5-dev), installed, both extensions created"
JOB
        if in_root 'bash -euo pipefail /build/package-job.sh'; then
            echo "clean room, package: passed"
        else
            echo "clean room, package: FAILED" >&2
            status=1
        fi ;;
    demo)
        bs_log "clean room, demo: bash test/demo.sh from a clean clone on a bare Debian 12 (HEAD $head)"
        if [ -d "$BS_SHARED" ]; then
            mkdir -p "$root/build/shared"
            mount --bind "$BS_SHARED" "$root/build/shared"
            mount -o remount,bind,ro "$root/build/shared"
        fi
        if in_root 'cd /build/main && bash test/demo.sh' >"$cache/demo.log" 2>&1; then
            # the last thing the demo prints: the comparison of the two configurations
            grep -q 'bench_compare' "$cache/demo.log" ||
                { tail -n 40 "$cache/demo.log"; echo "clean room, demo: it ended before comparing" >&2; status=1; }
            echo "clean room, demo: passed ($(wc -l < "$cache/demo.log") lines of output, in $cache/demo.log)"
        else
            tail -n 60 "$cache/demo.log"
            echo "clean room, demo: FAILED (the whole output is in $cache/demo.log)" >&2
            status=1
        fi ;;
    esac
    leave_root
done
exit "$status"
