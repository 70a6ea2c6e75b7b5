#!/usr/bin/env bash
# The README's second command, and what CI runs.  First the source rules
# (test/check-source.sh: every SQL statement of the C code through
# src/safe_spi.c), then the clean room
# (test/clean-room.sh: a clean install proved in a bare Debian 12 root),
# then the release metadata: META.json against the PGXN spec and the control files, and the
# archive make dist builds (test/check-release.sh).  Then, for each
# supported PostgreSQL version, install or build the server, build
# benchstore with warnings as errors, install it (on Debian's PostgreSQL 15,
# as root: as the Debian package built from this tree and checked by
# test/package.sh), start a throwaway cluster and run the whole suite:
# pg_regress against that cluster and the TAP tests (which start clusters
# of their own, and include the documentation's examples, 013_docs).  Then
# build benchstore once more with clang 19 and in C23 mode against each
# version (a build only).
#
#   bash test/run-tests.sh            15 (Debian 12's package), 16, 18 and
#                                     18 built with assertions (from
#                                     ../shared/vendor, cached in $BS_CACHE;
#                                     skipped, saying so, where ../shared is
#                                     absent)
#   bash test/run-tests.sh 15         one version only (also: 16, 18, 18-assert)
#   PG_CONFIG=/path/to/pg_config bash test/run-tests.sh
#                                     the server you have, as it is
#   BS_COMPILERS=0 bash test/run-tests.sh
#                                     without the clang and C23 builds
#   BS_CLEAN_ROOM=0 bash test/run-tests.sh
#                                     without the clean room
#   BS_PACKAGE=0 bash test/run-tests.sh 15
#                                     PostgreSQL 15 from make install, not the
#                                     Debian package
set -euo pipefail
cd "$(dirname "$0")/.."

# Whether a skip a TAP test took is one this run may take: a test for a
# later server, or Citus, which is not built here yet.  Any other skip
# (no /proc/self/io, a data directory on tmpfs, ...) means a check that
# should have run did not: the run fails.
expected_skip() {
    local test=$1 reason=$2
    case "$test: $reason" in
        # Citus is built from ../shared/vendor for the suite's servers
        "010_citus: Citus is not installed")
            [ "$BS_SERVER" = own ] || [ ! -d "$BS_SHARED/vendor" ] ;;
        # installed by this script as root
        "018_fuzz: sqlsmith is not installed"|"024_svg: chromium is not installed")
            [ "$BS_SERVER" = own ] || [ "$(id -u)" -ne 0 ] ;;
        # built by this script as root (test/lib.sh, bs_loop_rig_start)
        "023_cache_below: the loop-device rig is not set up"*)
            [ "$(id -u)" -ne 0 ] ;;
        "012_io_method: io_method exists from PostgreSQL 18 on; this server is "*)
            [ "$PG_MAJOR" -lt 18 ] ;;
        *) return 1 ;;
    esac
}

# The TAP tests ran (PGXS says "TAP tests not enabled" and succeeds when the
# server was built without them), each left its log, and every skip they
# took is listed and expected.
check_tap_ran_and_skips() {
    local work=$1 out=$2 bad=0 t name log reason
    if grep -q 'TAP tests not enabled' "$out"; then
        echo "PostgreSQL $PG_MAJOR: the TAP tests did not run: the server was built without --enable-tap-tests" >&2
        return 1
    fi
    for t in "$work"/test/t/*.pl; do
        name=$(basename "$t" .pl)
        log="$work/tmp_check/log/regress_log_$name"
        if [ ! -f "$log" ]; then
            echo "PostgreSQL $PG_MAJOR: TAP test $name left no log: it did not run" >&2
            bad=1
            continue
        fi
        while IFS= read -r reason; do
            if expected_skip "$name" "$reason"; then
                echo "skipped, as expected here: $name: $reason"
            else
                echo "PostgreSQL $PG_MAJOR: UNEXPECTED skip in $name: $reason" >&2
                bad=1
            fi
        done < <(sed -n -e 's/^\[[^]]*\]([^)]*) ok [0-9]* # skip \(.*\)$/\1/p' \
                        -e 's/^\[[^]]*\]([^)]*) 1\.\.0 # SKIP \(.*\)$/\1/p' "$log" | sort -u)
    done
    return "$bad"
}

# One version: what a run of the whole suite is.
if [ -n "${BS_ONE_VERSION:-}" ]; then
    . test/lib.sh
    extra=()
    # PL/Proxy for the cluster tests (benchstore_cluster); core benchstore
    # does not need it.  For 18 it is built with the server.
    [ "$BS_SERVER" = debian ] && extra=("postgresql-$PG_MAJOR-plproxy")
    bs_install_deps "${extra[@]}"
    # sqlsmith for the fuzz test (018_fuzz), Chromium to render bench_svg's
    # pictures (024_svg)
    if [ "$BS_SERVER" != own ]; then bs_apt sqlsmith chromium; fi
    if [ "$BS_SERVER" = debian ] && [ "$(id -u)" -eq 0 ] && [ "${BS_PACKAGE:-1}" != 0 ]; then
        # Debian's server: the suite runs against the Debian package built
        # from this tree and installed with apt (test/package.sh), not
        # against a make install.  The build with warnings as errors comes
        # first (the package is built with Debian's flags).
        bs_log "building (warnings are errors); the suite then runs against the package"
        make -s clean
        make -s PG_CONFIG="$PG_BIN/pg_config" PG_CFLAGS="$BS_WARNINGS"
        make -s clean
        bash test/package.sh
        bs_log "installed from: $(dpkg -S "$("$PG_BIN/pg_config" --pkglibdir)/benchstore.so")"
    else
        bs_build_install
    fi
    bs_build_vendored_citus
    bs_start_cluster
    # the tablespaces on loop devices of 023_cache_below (root only)
    bs_loop_rig_start

    # pg_regress and prove write their results into the tree they run in,
    # and initdb refuses to run as root: run them on a copy owned by the
    # cluster's owner.
    work="$BS_TMP/src"
    mkdir -p "$work"
    tar --exclude=.git -cf - . | tar -xf - -C "$work"
    [ "$(id -u)" -eq 0 ] && chown -R postgres: "$work"

    bs_log "PostgreSQL $PG_MAJOR ($("$PG_BIN/pg_config" --version)${BS_VPG_CONFIGURE:+, $BS_VPG_CONFIGURE}): running pg_regress and the TAP tests"
    status=0
    out="$BS_TMP/installcheck.out"
    bs_as_pg make -C "$work" -s PG_CONFIG="$PG_BIN/pg_config" installcheck 2>&1 |
        tee "$out" || status=$?
    [ "$status" -eq 0 ] && { check_tap_ran_and_skips "$work" "$out" || status=$?; }
    [ "$status" -eq 0 ] && { bash test/io_uring_refused.sh || status=$?; }
    [ "$status" -eq 0 ] && { bash test/full_disk.sh || status=$?; }
    if [ "$status" -ne 0 ]; then
        [ -f "$work/regression.diffs" ] && cat "$work/regression.diffs"
        # the logs of the TAP tests that failed: an assertion that did not
        # hold, or a test that died (prove names those in its summary)
        for f in "$work"/tmp_check/log/regress_log_*; do
            [ -f "$f" ] || continue
            if grep -q 'not ok' "$f" ||
                grep -q "^test/t/${f##*/regress_log_}\.pl .*Wstat" "$out"; then
                echo "== $f"
                grep -n -B 30 'not ok' "$f" | head -n 200
                echo "== $f, its end"; tail -n 60 "$f"
            fi
        done
        echo "PostgreSQL $PG_MAJOR: tests failed" >&2
    fi
    exit "$status"
fi

# The compilers: gcc 12 and clang 19, each in its default C mode and in
# C23 (gcc 12 calls it gnu2x), warnings as errors, against one version's
# headers; and gcc without liburing.  A build in a scratch copy; nothing
# is installed.
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
    # Without liburing's headers the extension still builds (iodepth > 1
    # is then refused at run time).
    bs_log "PostgreSQL $PG_MAJOR: building with gcc without liburing (BS_LIBURING=no)"
    make -C "$scratch" -s clean
    if ! make -C "$scratch" -s -j2 PG_CONFIG="$PG_BIN/pg_config" BS_LIBURING=no \
        PG_CFLAGS="$BS_WARNINGS" || nm -D "$scratch/benchstore.so" | grep -q io_uring; then
        echo "PostgreSQL $PG_MAJOR: the build without liburing failed" >&2
        failed=1
    fi
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
    versions=(15 16 18 18-assert)
fi

shared=${BS_SHARED:-$(cd .. && pwd)/shared}
passed=0
failed=0
skipped=0
summary=()
# The source rules first (test/check-source.sh: every SQL statement of
# the C code runs through src/safe_spi.c); a second, no build needed.
if bash test/check-source.sh; then
    summary+=("source rules (every SPI statement through src/safe_spi.c): passed")
    passed=$((passed + 1))
else
    summary+=("source rules (every SPI statement through src/safe_spi.c): FAILED")
    failed=$((failed + 1))
fi
# Then the clean room: the package built with nothing but its
# Build-Depends, and the README's first command from a clean clone, each in
# a freshly unpacked minimal Debian 12 root (test/clean-room.sh), so that
# what this machine already has cannot hide a missing install step.  As
# root only (it bootstraps and enters a chroot); BS_CLEAN_ROOM=0 leaves it
# out.
if [ "${BS_CLEAN_ROOM:-1}" = 0 ]; then
    summary+=("clean room: left out (BS_CLEAN_ROOM=0)")
    skipped=$((skipped + 1))
elif [ "$(id -u)" -ne 0 ]; then
    summary+=("clean room: skipped: it bootstraps and enters a chroot, which needs root")
    skipped=$((skipped + 1))
elif bash test/clean-room.sh; then
    summary+=("clean room (package from Build-Depends only, demo from a clean clone, in a bare Debian 12): passed")
    passed=$((passed + 1))
else
    summary+=("clean room (package from Build-Depends only, demo from a clean clone, in a bare Debian 12): FAILED")
    failed=$((failed + 1))
fi
# The release metadata and archive: once, whatever the versions.
if bash test/check-release.sh; then
    summary+=("release metadata (META.json against the PGXN spec, make dist): passed")
    passed=$((passed + 1))
else
    summary+=("release metadata (META.json against the PGXN spec, make dist): FAILED")
    failed=$((failed + 1))
fi
for v in "${versions[@]}"; do
    if [ "$v" != 15 ] && [ "$v" != own ] && [ $# -eq 0 ] && [ -z "${PG_MAJOR:-}" ] && [ ! -d "$shared/vendor" ]; then
        summary+=("PostgreSQL $v: skipped: $shared/vendor is absent (it holds the PostgreSQL 16 and 18 sources this script builds); run with PG_CONFIG=/path/to/pg_config to test a server you have")
        skipped=$((skipped + 1))
        continue
    fi
    env_v=(BS_ONE_VERSION=1)
    label="PostgreSQL $v"
    case "$v" in
        own) label="the server of $PG_CONFIG" ;;
        *-assert) env_v+=(PG_MAJOR="${v%-assert}" BS_ASSERTS=1)
            label="PostgreSQL ${v%-assert} with assertions" ;;
        *) env_v+=(PG_MAJOR="$v") ;;
    esac
    if env "${env_v[@]}" bash test/run-tests.sh; then
        summary+=("$label: suite passed")
        passed=$((passed + 1))
    else
        summary+=("$label: suite FAILED")
        failed=$((failed + 1))
        continue
    fi
    # the assert-enabled build has the same headers: no second compiler run
    if [ "${BS_COMPILERS:-1}" != 0 ] && [ "${v%-assert}" = "$v" ]; then
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
