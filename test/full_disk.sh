#!/usr/bin/env bash
# A disk that fills up under a run: run by test/run-tests.sh against the
# running throwaway cluster, as root (it mounts a size-limited tmpfs for a
# tablespace).  A bench_tablespace_io of 512 MB in 512-byte writes (a
# million system calls: seconds, even into memory) passes the free-space
# check (the filesystem has 1.6 GB, of which benchstore keeps 1 GB in
# reserve);
# once its file is there, another process takes all the space left
# (fallocate).  The run must end with 53100 (disk_full) naming its file,
# leave no file behind and record nothing, and the server must go on (a run
# elsewhere works).  Everything it made is removed on exit, also on
# failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

if [ "$(id -u)" -ne 0 ]; then
    echo "full disk: skipped (needs root to mount a tmpfs)"
    exit 0
fi
mnt=$(mktemp -d /tmp/bs-full.XXXXXX)
cleanup() {
    bs_psql -q -d postgres -c 'DROP DATABASE IF EXISTS bs_full' >/dev/null 2>&1 || true
    bs_psql -q -d postgres -c 'DROP TABLESPACE IF EXISTS bs_full' >/dev/null 2>&1 || true
    umount "$mnt" 2>/dev/null || true
    rmdir "$mnt" 2>/dev/null || true
}
trap cleanup EXIT
mount -t tmpfs -o size=1600M bs-full "$mnt"
mkdir "$mnt/ts"
chown postgres: "$mnt/ts"

bs_psql -q -d postgres -c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS bs_full' \
    -c "CREATE TABLESPACE bs_full LOCATION '$mnt/ts'" -c 'CREATE DATABASE bs_full'
bs_psql -q -d bs_full -c 'CREATE EXTENSION benchstore'

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAILED: $1"; fail=1; }

# The run, in the background, its output kept.
out=$(mktemp)
bs_as_pg psql -X -d bs_full -c '\set VERBOSITY verbose' \
    -c "SELECT * FROM bench_tablespace_io('bs_full', size => '512MB', tests => '{seqwrite}', block_size => '512', direct => false, label => 'full')" \
    > "$out" 2>&1 &
run=$!
# its file appears: take what is left
for _ in $(seq 1 5000); do
    compgen -G "$mnt/ts/PG_*/pgsql_tmp/pgsql_tmp*" >/dev/null && break
    sleep 0.002
done
free=$(df -B1 --output=avail "$mnt" | tail -n 1)
fallocate -l "$free" "$mnt/filler" 2>/dev/null || dd if=/dev/zero of="$mnt/filler" bs=1M 2>/dev/null || true
wait "$run" || true

if tr '\n' ' ' < "$out" | grep -Eq 'ERROR:  53100: could not write file "[^"]*pgsql_tmp[^"]*": No space left on device'; then
    ok 'a disk filled mid-write: 53100 naming the file'
else
    bad 'a disk filled mid-write: expected 53100 naming the file; got:'; cat "$out"
fi
rm -f "$mnt/filler" "$out"
left=$(find "$mnt/ts" -name 'pgsql_tmp*' -type f | wc -l)
[ "$left" -eq 0 ] && ok 'no file left' || bad "$left file(s) left in the tablespace"
n=$(bs_psql -At -d bs_full -c "SELECT count(*) FROM bench_run WHERE label = 'full'")
[ "$n" -eq 0 ] && ok 'nothing recorded' || bad "$n run(s) recorded"
bytes=$(bs_psql -At -d bs_full -c "SELECT bytes FROM bench_tablespace_io('bs_full', size => '4MB', tests => '{seqwrite}', direct => false, record => false)")
[ "$bytes" = 4194304 ] && ok 'the server goes on: a run after it writes its 4 MB' || bad "the run after: $bytes"
# the throwaway cluster's log is beside its data directory (test/lib.sh)
log="$(dirname "$(bs_psql -At -d postgres -c 'SHOW data_directory')")/server.log"
if grep -q 'terminated by signal' "$log"; then
    bad 'a backend crashed'
else
    ok 'no backend crashed'
fi
exit "$fail"
