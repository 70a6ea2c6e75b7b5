#!/usr/bin/env bash
# The README's second command, and what CI runs: for each supported
# PostgreSQL version, install or build the server, build benchstore with
# warnings as errors, install it, start a throwaway cluster and run the
# whole suite: pg_regress against that cluster and the TAP tests (which
# start clusters of their own).  Then build benchstore once more with
# clang 19 and in C23 mode against each version (a build only).
#
#   bash test/run-tests.sh            15 (Debian 12's package) and 18 (built
#                                     from ../shared/vendor, cached in
#                                     $BS_CACHE; skipped, saying so, where
#                                     ../shared is absent)
#   bash test/run-tests.sh 15         one version only (also: 18)
#   PG_CONFIG=/path/to/pg_config bash test/run-tests.sh
#                                     the server you have, as it is
#   BS_COMPILERS=0 bash test/run-tests.sh
#                                     without the clang and C23 builds
set -euo pipefail
cd "$(dirname "$0")/.."

# One version: what a run of the whole suite is.
if [ -n "${BS_ONE_VERSION:-}" ]; then
    . test/lib.sh
    extra=()
    # PL/Proxy for the cluster tests (benchstore_cluster); core benchstore
    # does not need it.  For 18 it is built with the server.
    [ "$BS_SERVER" = debian ] && extra=("postgresql-$PG_MAJOR-plproxy")
    bs_install_deps "${extra[@]}"
    bs_build_install
    bs_start_cluster

    # pg_regress and prove write their results into the tree they run in,
    # and initdb refuses to run as root: run them on a copy owned by the
    # cluster's owner.
    work="$BS_TMP/src"
    mkdir -p "$work"
    tar --exclude=.git -cf - . | tar -xf - -C "$work"
    [ "$(id -u)" -eq 0 ] && chown -R postgres: "$work"

    bs_log "PostgreSQL $PG_MAJOR ($("$PG_BIN/pg_config" --version)): running pg_regress and the TAP tests"
    status=0
    bs_as_pg make -C "$work" -s PG_CONFIG="$PG_BIN/pg_config" installcheck || status=$?
    if [ "$status" -ne 0 ]; then
        [ -f "$work/regression.diffs" ] && cat "$work/regression.diffs"
        for f in "$work"/tmp_check/log/regress_log_*; do
            [ -f "$f" ] && grep -q 'not ok' "$f" && { echo "== $f"; tail -n 60 "$f"; }
        done
        echo "PostgreSQL $PG_MAJOR: tests failed" >&2
    fi
    exit "$status"
fi

# The compilers: gcc 12 and clang 19, each in its default C mode and in
# C23 (gcc 12 calls it gnu2x), warnings as errors, against one version's
# headers.  A build in a scratch copy; nothing is installed.
compiler_builds() {
    . test/lib.sh
    local scratch cc std extra failed=0
    bs_apt clang-19
    scratch=$(mktemp -d /tmp/benchstore-cc.XXXXXX)
    tar --exclude=.git -cf - . | tar -xf - -C "$scratch"
    for cc in gcc clang-19; do
        # PGXS passes the server's own CFLAGS, written for gcc: clang is
        # told to ignore the gcc-only options and gcc's printf attribute.
        extra=""
        [ "$cc" = clang-19 ] && extra="-Wno-unknown-warning-option -Wno-ignored-attributes"
        for std in default c23; do
            local flag=""
            if [ "$std" = c23 ]; then
                if [ "$cc" = gcc ]; then flag="-std=gnu2x"; else flag="-std=gnu23"; fi
            fi
            bs_log "PostgreSQL $PG_MAJOR: building with $cc ${flag:-(default C mode)}"
            make -C "$scratch" -s clean
            if ! make -C "$scratch" -s -j2 PG_CONFIG="$PG_BIN/pg_config" CC="$cc" \
                PG_CFLAGS="$flag $BS_WARNINGS $extra"; then
                echo "PostgreSQL $PG_MAJOR: the build with $cc $flag failed" >&2
                failed=1
            fi
        done
    done
    rm -rf "$scratch"
    return "$failed"
}

if [ -n "${PG_CONFIG:-}" ]; then
    versions=(own)
elif [ $# -gt 0 ]; then
    versions=("$@")
elif [ -n "${PG_MAJOR:-}" ]; then
    versions=("$PG_MAJOR")
else
    versions=(15 18)
fi

shared=${BS_SHARED:-$(cd .. && pwd)/shared}
passed=0
failed=0
skipped=0
summary=()
for v in "${versions[@]}"; do
    if [ "$v" = 18 ] && [ $# -eq 0 ] && [ -z "${PG_MAJOR:-}" ] && [ ! -d "$shared/vendor" ]; then
        summary+=("PostgreSQL 18: skipped: $shared/vendor is absent (it holds the PostgreSQL 18 source this script builds); run with PG_CONFIG=/path/to/pg_config to test a server you have")
        skipped=$((skipped + 1))
        continue
    fi
    env_v=(BS_ONE_VERSION=1)
    [ "$v" != own ] && env_v+=(PG_MAJOR="$v")
    label="PostgreSQL $v"
    [ "$v" = own ] && label="the server of $PG_CONFIG"
    if env "${env_v[@]}" bash test/run-tests.sh; then
        summary+=("$label: suite passed")
        passed=$((passed + 1))
    else
        summary+=("$label: suite FAILED")
        failed=$((failed + 1))
        continue
    fi
    if [ "${BS_COMPILERS:-1}" != 0 ]; then
        if (
            [ "$v" != own ] && export PG_MAJOR="$v"
            compiler_builds
        ); then
            summary+=("$label: gcc and clang-19 builds, default and C23: passed")
            passed=$((passed + 1))
        else
            summary+=("$label: gcc and clang-19 builds, default and C23: FAILED")
            failed=$((failed + 1))
        fi
    fi
done

printf '\n== summary\n'
printf '%s\n' "${summary[@]}"
echo "suites: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
