#!/usr/bin/env bash
# Valgrind: the pg_regress suite on PostgreSQL 18 built with -DUSE_VALGRIND
# (a build of its own, cached beside the others in $BS_CACHE), the server
# run under valgrind --trace-children=yes with PostgreSQL's suppression
# file (src/tools/valgrind.supp of the vendored source).  Fails when an
# error valgrind reports has a benchstore frame in its stack, or when the
# suite fails; other errors are counted and the first shown.  Slow (the
# server under valgrind), so not part of CI: run it as root on a fresh
# machine, from the repository's top directory or anywhere:
#
#   bash test/valgrind.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

[ "$(id -u)" -eq 0 ] || bs_die "run test/valgrind.sh as root (it builds into $BS_CACHE and starts a server as postgres)"
bs_apt build-essential libipc-run-perl bison flex libreadline-dev zlib1g-dev liburing-dev \
    pkg-config valgrind

prefix="$BS_CACHE/pg-$BS_PG18_VERSION-valgrind"
marker="$prefix/.benchstore-built"
tarball=$(bs_vendored "postgresql-$BS_PG18_VERSION.tar.bz2") || exit 1
want="$(sha256sum < "$tarball") valgrind -Og"
if [ ! -f "$marker" ] || [ "$(cat "$marker")" != "$want" ]; then
    bs_log "building PostgreSQL $BS_PG18_VERSION with -DUSE_VALGRIND into $prefix (minutes, once)"
    rm -rf "$prefix"
    mkdir -p "$BS_CACHE"
    build=$(mktemp -d "$BS_CACHE/build.XXXXXX")
    if ! (
        tar -xjf "$tarball" -C "$build" &&
        cd "$build/postgresql-$BS_PG18_VERSION" &&
        ./configure -q --prefix="$prefix" --enable-debug --enable-cassert --with-liburing \
            --without-icu CPPFLAGS="-DUSE_VALGRIND" CFLAGS="-Og -g" >"$build/configure.log" 2>&1 &&
        make -s -j"$(nproc)" >"$build/make.log" 2>&1 &&
        make -s install >>"$build/make.log" 2>&1 &&
        mkdir -p "$prefix/share/valgrind" &&
        cp src/tools/valgrind.supp "$prefix/share/valgrind/"
    ); then
        tail -n 30 "$build"/*.log >&2 || true
        rm -rf "$build" "$prefix"
        bs_die "the Valgrind build of PostgreSQL $BS_PG18_VERSION failed (log above)"
    fi
    rm -rf "$build"
    echo "$want" > "$marker"
fi
PG_BIN="$prefix/bin"

bs_log "building benchstore against it"
work=$(mktemp -d /tmp/bs-valgrind.XXXXXX)
chmod 755 "$work"
cleanup() {
    [ -d "$work/data" ] && bs_as_pg "$PG_BIN/pg_ctl" -D "$work/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
tree="$work/src-tree"
mkdir -p "$tree"
tar --exclude=.git -cf - . | tar -xf - -C "$tree"
make -s -C "$tree" clean PG_CONFIG="$PG_BIN/pg_config"
make -s -C "$tree" PG_CONFIG="$PG_BIN/pg_config" PG_CFLAGS="$BS_WARNINGS"
make -s -C "$tree" PG_CONFIG="$PG_BIN/pg_config" install
chown -R postgres: "$work"

bs_log "starting the server under valgrind"
bs_as_pg "$PG_BIN/initdb" -D "$work/data" -A trust -U postgres --no-sync >/dev/null
mkdir -p "$work/vg"
chown postgres: "$work/vg"
bs_as_pg bash -c "cd '$work' && exec valgrind --quiet --trace-children=yes --track-origins=yes \
    --read-var-info=yes --num-callers=40 --error-exitcode=0 \
    --suppressions='$prefix/share/valgrind/valgrind.supp' --log-file='$work/vg/valgrind.%p.log' \
    '$PG_BIN/postgres' -D '$work/data' -c port=54399 -c listen_addresses='' \
    -c unix_socket_directories='$work' -c shared_buffers=32MB -c max_connections=20 \
    -c track_io_timing=on >'$work/server.log' 2>&1" &
for _ in $(seq 1 600); do
    "$PG_BIN/pg_isready" -q -h "$work" -p 54399 && break
    sleep 1
done
"$PG_BIN/pg_isready" -q -h "$work" -p 54399 || bs_die "the server did not start under valgrind"

bs_log "pg_regress under valgrind (the TAP tests start servers of their own: not here)"
start=$(date +%s)
status=0
bs_as_pg make -C "$tree" -s PG_CONFIG="$PG_BIN/pg_config" installcheck PROVE_TESTS= TAP_TESTS= \
    PGHOST="$work" PGPORT=54399 || status=$?
[ "$status" -ne 0 ] && [ -f "$tree/regression.diffs" ] && head -n 80 "$tree/regression.diffs"
bs_as_pg "$PG_BIN/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true
sleep 2
bs_log "pg_regress: $([ "$status" -eq 0 ] && echo passed || echo FAILED), in $(( $(date +%s) - start )) s"

# Each error report is a block of "==PID== " lines after a line naming the
# error; a block is benchstore's when a frame is in benchstore.so.
total=0
ours=0
for f in "$work"/vg/valgrind.*.log; do
    [ -s "$f" ] || continue
    n=$(grep -cE '^==[0-9]+== (Invalid|Conditional jump|Use of uninitialised|Syscall param|Source and destination|Mismatched)' "$f" || true)
    total=$((total + n))
    if grep -q 'benchstore\.so' "$f"; then
        ours=$((ours + 1))
        echo "== an error with a benchstore frame: $f"
        cat "$f"
    fi
done
bs_log "valgrind: $total error report(s) in all, $ours log(s) with a benchstore frame"
if [ "$total" -gt 0 ] && [ "$ours" -eq 0 ]; then
    echo "(not benchstore's; the first:)"
    for f in "$work"/vg/valgrind.*.log; do [ -s "$f" ] && { head -n 40 "$f"; break; }; done
fi
[ "$status" -eq 0 ] && [ "$ours" -eq 0 ]
