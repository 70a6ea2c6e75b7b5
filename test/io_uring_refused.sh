#!/usr/bin/env bash
# Where io_uring is refused, iodepth > 1 says so and depth 1 works: run by
# test/run-tests.sh against the running throwaway cluster, as root, on a
# kernel with kernel.io_uring_disabled (6.6 and later).  It sets the
# setting to 2 (io_uring refused to every process) for a few seconds and
# puts back what was there, also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

knob=/proc/sys/kernel/io_uring_disabled
if [ "$(id -u)" -ne 0 ] || [ ! -w "$knob" ]; then
    echo "io_uring refusal: skipped (needs root and $knob)"
    exit 0
fi
saved=$(cat "$knob")
restore() { echo "$saved" > "$knob"; bs_psql -q -d postgres -c 'DROP DATABASE IF EXISTS bs_refusal' >/dev/null 2>&1 || true; }
trap restore EXIT

bs_psql -q -d postgres -c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS bs_refusal' -c 'CREATE DATABASE bs_refusal'
bs_psql -q -d bs_refusal -c 'CREATE EXTENSION benchstore'
echo 2 > "$knob"
fail=0
check() {   # what, sql, pattern
    local out
    out=$(bs_psql -d bs_refusal -c '\set VERBOSITY verbose' -c "$2" 2>&1 || true)
    if printf '%s' "$out" | tr '\n' ' ' | grep -Eq "$3"; then
        echo "ok: $1"
    else
        echo "FAILED: $1; got:"; printf '%s\n' "$out"; fail=1
    fi
}
check 'bench_tablespace_io at depth 8 is refused with 0A000, the cause and a hint' \
    "SELECT * FROM bench_tablespace_io(size => '1MB', direct => false, iodepth => 8, record => false)" \
    'ERROR:  0A000: iodepth greater than 1 needs io_uring, which this server cannot use.*DETAIL:  io_uring_setup failed: .*kernel.io_uring_disabled is 2.*HINT:  Use iodepth => 1'
check 'a raw scan at depth 8 likewise' \
    "CREATE TABLE t AS SELECT 1 AS x; SELECT * FROM bench_seqscan('t', 'raw', iodepth => 8, record => false)" \
    'ERROR:  0A000: iodepth greater than 1 needs io_uring'
check 'no file was written' \
    "SELECT 'files:' || count(*) FROM pg_ls_tmpdir()" 'files:0'
check 'depth 1 works as always' \
    "SELECT 'bytes:' || bytes FROM bench_tablespace_io(size => '1MB', direct => false, tests => '{seqwrite}', record => false)" \
    'bytes:1048576'
datadir=$(bs_psql -At -d postgres -c 'SHOW data_directory')
if [ "$(stat -f -c %T "$datadir")" = tmpfs ]; then
    echo "settings advice with io_uring refused: skipped (the data directory is on tmpfs: no direct I/O)"
else
    check 'settings advice: the depth sweep stops at depth 1 and says why, nothing suggested' \
        "SELECT setting || ': ' || coalesce(suggested_value, '-') || ' ' || evidence FROM bench_tablespace_advice(size => '1MB', duration => '50ms', record => false) WHERE setting = 'effective_io_concurrency'" \
        'effective_io_concurrency: - Nothing to suggest: random 8 kB reads were measured at 1 depth; the sweep needs two or more \(iodepth above 1 was refused: io_uring_setup failed'
    check 'and no file was left' \
        "SELECT 'files:' || count(*) FROM pg_ls_tmpdir()" 'files:0'
fi
exit "$fail"
