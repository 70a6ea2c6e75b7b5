#!/usr/bin/env bash
# The README's first command: install everything, build, install, start a
# throwaway cluster, load a lineitem-shaped sample table and show what
# benchstore measures on it.  The cluster is removed on exit.
#
#   bash test/demo.sh [rows]       default 300000 rows, about 45 MB
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

rows=${1:-300000}

bs_install_deps
bs_build_install
bs_start_cluster

bs_log "loading a lineitem-shaped sample table ($rows rows)"
bs_psql -q -c 'CREATE EXTENSION benchstore'
bs_psql -q -v rows="$rows" < test/sample/lineitem.sql
bs_psql -q -c 'CREATE INDEX lineitem_orderkey ON lineitem (l_orderkey)'

bs_log "restarting the server, so that shared buffers start empty"
bs_restart_cluster

bs_log "running the benchmarks"
bs_psql -e < test/sample/demo.sql
