#!/usr/bin/env bash
# test/valgrind.sh: the pg_regress suite (the Makefile's REGRESS list, as
# make installcheck runs it, without the TAP tests, which start servers of
# their own) against a PostgreSQL 18 server run under Valgrind's memcheck.
#
#   bash test/valgrind.sh          as root, from anywhere in the checkout
#
# The server is PostgreSQL 18.6 from ../shared/vendor built with
# -DUSE_VALGRIND (memory contexts tell memcheck what is allocated, freed or
# undefined), --enable-cassert --enable-debug and -Og: lib.sh's build with
# BS_VALGRIND=1, cached in $BS_CACHE/pg-18.6-valgrind.  benchstore is built
# (warnings as errors) and installed into it from a copy of the checkout, a
# throwaway cluster is started with the postmaster and every child under
# valgrind --trace-children=yes and PostgreSQL's src/tools/valgrind.supp.
#
# Fails when the suite fails or when an error memcheck reports (invalid
# read or write, use of an uninitialised value, bad free, ...; leaks are
# not checked: PostgreSQL frees by memory context) has a benchstore frame
# in its stack (src/*.c of this tree, or benchstore.so): those reports are
# printed whole.  Other errors are counted by kind and the first few shown
# as not benchstore's.  BS_VALGRIND_KEEP=1 keeps the logs and the cluster.
#
# Slow, so not part of CI.  Here (2 cores) the server's build took 8
# minutes, once; a run with it cached 6 (pg_regress alone 5 and a half).
set -euo pipefail
cd "$(dirname "$0")/.."
unset PG_CONFIG
export BS_VALGRIND=1 PG_MAJOR=18
. test/lib.sh

[ "$(id -u)" -eq 0 ] || bs_die "run test/valgrind.sh as root (it installs valgrind, builds into $BS_CACHE and runs the server as postgres)"
command -v valgrind >/dev/null || bs_apt valgrind
id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
started=$SECONDS
bs_install_deps
bs_log "the Valgrind build of PostgreSQL $BS_VPG_VERSION is ready in $BS_VPG_PREFIX ($((SECONDS - started)) s)"

work=$(mktemp -d /tmp/benchstore-valgrind.XXXXXX)
chmod 755 "$work"
vg_pid=
cleanup() {
    if [ -f "$work/data/postmaster.pid" ]; then
        bs_as_pg "$PG_BIN/pg_ctl" -D "$work/data" -m immediate -w -t 300 stop >/dev/null 2>&1 || true
    fi
    [ -n "$vg_pid" ] && { wait "$vg_pid" 2>/dev/null || true; }
    if [ "${BS_VALGRIND_KEEP:-0}" = 1 ]; then echo "kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# Built in a copy (the checkout's own build is left alone), which pg_regress
# then writes its results into, as the cluster's owner.
tree="$work/benchstore"
mkdir -p "$tree" "$work/vg"
tar --exclude=.git -cf - . | tar -xf - -C "$tree"
(cd "$tree" && bs_build_install)
tarball=$(bs_vendored "postgresql-$BS_VPG_VERSION.tar.bz2") || exit 1
tar -xjf "$tarball" -C "$work" --strip-components=3 "postgresql-$BS_VPG_VERSION/src/tools/valgrind.supp"
chown -R postgres: "$work"

bs_log "starting the server under valgrind in $work"
bs_as_pg "$PG_BIN/initdb" -D "$work/data" -A trust -U postgres --no-sync >/dev/null
port=$(BS_TMP=$work bs_free_port)
export PGHOST="$work" PGPORT="$port" PGUSER=postgres PGDATABASE=postgres
# Frames of this tree print as benchstore/src/<file>, PostgreSQL's as src/...
bs_as_pg valgrind --quiet --trace-children=yes --track-origins=yes --read-var-info=yes \
    --num-callers=40 --error-exitcode=0 --leak-check=no \
    --error-markers=VALGRINDERROR-BEGIN,VALGRINDERROR-END \
    --fullpath-after="$work/" --fullpath-after="postgresql-$BS_VPG_VERSION/" \
    --suppressions="$work/valgrind.supp" --log-file="$work/vg/valgrind.%p.log" \
    "$PG_BIN/postgres" -D "$work/data" -c port="$port" -c listen_addresses= \
    -c unix_socket_directories="$work" -c shared_buffers=32MB -c max_connections=20 \
    -c track_io_timing=on -c log_connections=on -c log_line_prefix='%m [%p] ' \
    >"$work/server.log" 2>&1 &
vg_pid=$!
started=$SECONDS
until "$PG_BIN/pg_isready" -q; do
    if ! kill -0 "$vg_pid" 2>/dev/null || [ $((SECONDS - started)) -gt 600 ]; then
        tail -n 30 "$work/server.log" >&2
        bs_die "the server did not start under valgrind (log above)"
    fi
    sleep 2
done
bs_log "ready in $((SECONDS - started)) s; pg_regress (${BS_VPG_PREFIX##*/})"

started=$SECONDS
status=0
# TAP_TESTS= leaves out pgxs.mk's prove step (PROVE_TESTS= alone would not:
# an empty list means t/*.pl).
bs_as_pg make -C "$tree" -s PG_CONFIG="$PG_BIN/pg_config" PGHOST="$PGHOST" PGPORT="$PGPORT" \
    installcheck TAP_TESTS= || status=$?
[ "$status" -ne 0 ] && [ -f "$tree/regression.diffs" ] && cat "$tree/regression.diffs"
bs_log "pg_regress $([ "$status" -eq 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s; stopping the server"
bs_as_pg "$PG_BIN/pg_ctl" -D "$work/data" -m fast -w -t 600 stop >/dev/null
wait "$vg_pid" || true
vg_pid=

# Every report lies between the markers; it is benchstore's when one of its
# frames is in this tree's sources or in benchstore.so.  Each is headed by
# its process and, from the server's log, the test that connected it.
shopt -s nullglob
read -r ours others < <(awk -v ours="$work/ours.txt" -v others="$work/others.txt" \
        -v kinds="$work/kinds.txt" '
    FILENAME ~ /server\.log$/ {
        if (match($0, /\[[0-9]+\] LOG: +connection authorized:.*application_name=/))
            test[substr($0, RSTART + 1, index(substr($0, RSTART), "]") - 2)] = substr($0, RSTART + RLENGTH)
        next
    }
    / VALGRINDERROR-BEGIN$/ {
        inside = 1; mine = 0; kind = ""
        pid = FILENAME; sub(/.*valgrind\./, "", pid); sub(/\.log$/, "", pid)
        block = "== process " pid (pid in test ? ", " test[pid] : "") "\n"
        next
    }
    / VALGRINDERROR-END$/ {
        if (!inside) next
        inside = 0
        if (mine) { n_ours++; printf "%s\n", block > ours }
        else {
            n_others++; print kind > kinds
            if (n_others <= 3) printf "%s\n", block > others
        }
        next
    }
    inside {
        block = block $0 "\n"
        if (kind == "") { kind = $0; sub(/^==[0-9]+== /, "", kind); gsub(/[0-9]+/, "N", kind) }
        if ($0 ~ /\(benchstore\/src\/[^:)]+:[0-9]+\)|\/benchstore\.so\)$/) mine = 1
    }
    END { print n_ours + 0, n_others + 0 }' "$work/server.log" "$work"/vg/valgrind.*.log)
if [ "$others" -gt 0 ]; then
    bs_log "valgrind: $others error(s) without a benchstore frame (not benchstore's), by kind:"
    sort "$work/kinds.txt" | uniq -c | sort -rn
    echo "the first (not benchstore's):"
    cat "$work/others.txt"
fi
if [ "$ours" -gt 0 ]; then
    bs_log "valgrind: $ours error(s) WITH A BENCHSTORE FRAME:"
    cat "$work/ours.txt"
fi
bs_log "valgrind: $((ours + others)) error(s) in all, $ours with a benchstore frame; pg_regress $([ "$status" -eq 0 ] && echo passed || echo FAILED)"
[ "$status" -eq 0 ] && [ "$ours" -eq 0 ]
