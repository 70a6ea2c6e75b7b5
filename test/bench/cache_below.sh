#!/usr/bin/env bash
# Benchmark: is a cache below the server detected, round after round, on a
# rig whose truth is known?  Not a test: it prints how often each verdict
# was right, and the re-read's figures.  As root (losetup and mount).
#
#   bash test/bench/cache_below.sh [rounds] [size]     default 5 rounds, 128MB
#
# The rig (test/lib.sh, bs_loop_rig_start): two ext4 filesystems on loop
# devices whose backing files lie in /var/tmp; a tablespace on each.
#   resident   the "cached" loop reads its file through the page cache,
#              which holds the test file's blocks after its fill: the
#              truth is "cache below"
#   dropped    the same, with the backing file's pages dropped every 10 ms
#              (dd iflag=nocache) while the call runs: the truth is
#              "storage" (this machine's virtual disk)
#   direct     the "direct" loop does direct I/O: no cache between the
#              filesystem and the disk: the truth is "storage"
#   refill     the "cached" loop, its backing file's pages dropped until
#              the timed test has begun, then left alone: the test reads
#              from the disk, the re-read of its last blocks from the page
#              cache it just filled; the truth is "storage, and a cache
#              below that keeps what is read" (the re-read's verdict)
# Each round runs each case once: bench_tablespace_io(tests =>
# '{seqread,randread}', direct => true, record => false), and counts the
# rows whose served_by (and, for refill, whose re-read) says the truth.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

rounds=${1:-5}
size=${2:-128MB}

[ "$(id -u)" -eq 0 ] || bs_die "the rig needs root (losetup, mount)"
bs_install_deps
bs_build_install
bs_start_cluster
bs_loop_rig_start
[ -n "${BS_LOOP_CACHED:-}" ] || bs_die "the loop-device rig could not be built"
bs_psql -q -c 'CREATE EXTENSION benchstore' \
    -c "CREATE TABLESPACE spc_cached LOCATION '$BS_LOOP_CACHED'" \
    -c "CREATE TABLESPACE spc_direct LOCATION '$BS_LOOP_DIRECT'"

dropper=
drop_start() {
    ( while :; do dd if="$BS_LOOP_CACHED_FILE" iflag=nocache count=0 status=none; sleep 0.01; done ) &
    dropper=$!
}
drop_stop() { [ -n "$dropper" ] && kill "$dropper" 2>/dev/null; wait "$dropper" 2>/dev/null || true; dropper=; }

# Drop until the call's test file is whole and 1.5 s more (its fill's
# fsync), then stop: the timed randread (8 s) reads the disk, and the
# page cache fills behind it.
drop_until_filled() {
    local bytes want
    want=$(bs_psql -Atq -c "SELECT pg_size_bytes('$size')")
    drop_start
    for _ in $(seq 1 600); do
        bytes=$(find "$BS_LOOP_CACHED" -path '*pgsql_tmp*' -type f -printf '%s\n' 2>/dev/null | sort -n | tail -1)
        [ "${bytes:-0}" -ge "$want" ] && break
        sleep 0.05
    done
    sleep 1.5
    drop_stop
}

run_case() {
    local spc=$1 tests=$2 duration=$3
    bs_psql -Atq -F '|' -c "SELECT test, served_by, mb_per_s,
            coalesce(substring(warnings from 'came ([0-9.]+)× as fast'), '-')
        FROM bench_tablespace_io('$spc', size => '$size', tests => '$tests',
                                 duration => '$duration', record => false)"
}

declare -A right total
results=$(mktemp)
for r in $(seq 1 "$rounds"); do
    for case in resident dropped direct refill; do
        case $case in
            resident) out=$(run_case spc_cached '{seqread,randread}' 3s) ;;
            dropped) drop_start; out=$(run_case spc_cached '{seqread,randread}' 3s); drop_stop ;;
            direct) out=$(run_case spc_direct '{seqread,randread}' 3s) ;;
            refill) drop_until_filled & waiter=$!
                    out=$(run_case spc_cached '{randread}' 8s)
                    wait "$waiter" || true ;;
        esac
        while IFS='|' read -r test served mbs reread; do
            key="$case $test"
            total[$key]=$(( ${total[$key]:-0} + 1 ))
            case $case in
                resident) truth="cache below" ;;
                *) truth=storage ;;
            esac
            ok=0
            if [ "$served" = "$truth" ]; then
                if [ "$case" != refill ] || [ "$reread" != - ]; then ok=1; fi
            fi
            right[$key]=$(( ${right[$key]:-0} + ok ))
            printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$case" "$test" "$served" "$mbs" "$reread" >> "$results"
        done <<< "$out"
    done
done

printf '\n== every row\nround\tcase\ttest\tserved_by\tMB/s\tre-read ×\n'
cat "$results"
printf '\n== verdicts right (served_by; refill: also the re-read found the cache)\n'
for key in "resident seqread" "resident randread" "dropped seqread" "dropped randread" \
           "direct seqread" "direct randread" "refill randread"; do
    printf '%-20s %s of %s\n' "$key" "${right[$key]:-0}" "${total[$key]:-0}"
done
rm -f "$results"
bs_psql -q -c 'DROP TABLESPACE spc_cached' -c 'DROP TABLESPACE spc_direct'
