#!/usr/bin/env bash
# The README's second command, and what CI runs: install everything, build
# with warnings as errors, install, start a throwaway cluster, then run the
# whole suite: pg_regress against that cluster and the TAP tests (which
# start clusters of their own).
#
#   bash test/run-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

# PL/Proxy for the cluster tests (benchstore_cluster); core benchstore does
# not need it.
bs_install_deps "postgresql-$PG_MAJOR-plproxy"
bs_build_install
bs_start_cluster

# pg_regress and prove write their results into the tree they run in, and
# initdb refuses to run as root: run them on a copy owned by the cluster's
# owner.
work="$BS_TMP/src"
mkdir -p "$work"
tar --exclude=.git -cf - . | tar -xf - -C "$work"
[ "$(id -u)" -eq 0 ] && chown -R postgres: "$work"

bs_log "running pg_regress and the TAP tests"
status=0
bs_as_pg make -C "$work" -s PG_CONFIG="$PG_BIN/pg_config" installcheck || status=$?
if [ "$status" -ne 0 ]; then
    [ -f "$work/regression.diffs" ] && cat "$work/regression.diffs"
    for f in "$work"/tmp_check/log/regress_log_*; do
        [ -f "$f" ] && grep -q 'not ok' "$f" && { echo "== $f"; tail -n 60 "$f"; }
    done
    echo "tests failed" >&2
fi
exit "$status"
