#!/usr/bin/env bash
# Source rules a compiler cannot check, run by test/run-tests.sh before
# anything is built (and by hand: bash test/check-source.sh).
#
#  1. Every SQL statement the C code runs goes through src/safe_spi.c,
#     which runs it under search_path = pg_catalog, pg_temp: no SPI call
#     that runs, prepares or opens a statement (nor SPI_connect or
#     SPI_finish) appears in any other file under src/.
#
# It prints each breach with its file and line and exits 1 if there is any.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
# SPI's calls that run SQL or open a connection to it; reading a result
# (SPI_getvalue, SPI_getbinval, SPI_tuptable, SPI_processed, SPI_keepplan,
# SPI_result_code_string) is allowed anywhere.
spi_calls='SPI_(connect|connect_ext|finish|exec|execp|execute|execute_with_args|execute_plan|execute_plan_extended|execute_plan_with_paramlist|execute_extended|execute_snapshot|prepare|prepare_cursor|prepare_params|prepare_extended|cursor_open|cursor_open_with_args|cursor_open_with_paramlist|cursor_parse_open|commit|rollback)[[:space:]]*\('
breaches=$(grep -nE "$spi_calls" src/*.c src/*.h | grep -v '^src/safe_spi\.[ch]:' || true)
if [ -n "$breaches" ]; then
    echo "SPI called outside src/safe_spi.c (use bs_spi_connect and bs_spi_execute*: every statement must run under search_path = pg_catalog, pg_temp):" >&2
    printf '%s\n' "$breaches" >&2
    status=1
fi
# executor/spi.h is included through safe_spi.h only, so that a new file
# reaches SPI the one way.
includes=$(grep -n '#include "executor/spi.h"' src/*.c src/*.h | grep -v '^src/safe_spi\.h:' || true)
if [ -n "$includes" ]; then
    echo "executor/spi.h included outside src/safe_spi.h (include safe_spi.h):" >&2
    printf '%s\n' "$includes" >&2
    status=1
fi
[ "$status" -eq 0 ] && echo "source rules: every SPI statement goes through src/safe_spi.c"
exit "$status"
