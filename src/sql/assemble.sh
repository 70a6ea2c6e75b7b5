#!/bin/sh
# src/sql/assemble.sh: build an extension's install or update script from
# its SQL sources, each object defined once in a topic file of
# src/sql/<extension>/ (the Makefile runs it; it needs no PostgreSQL).
#
#   assemble.sh EXTENSION install VERSION     the fresh install script
#   assemble.sh EXTENSION update FROM TO      the FROM--TO update script
#
# Both run the topic files listed in src/sql/<extension>/order, in that
# order.  A file with "-- @version V" lines (objects.sql, grants.sql) is
# cut into sections: an install runs every section, the update to V only
# V's section (what V created).  An update runs update-FROM--TO-pre.sql
# before the topic files and update-FROM--TO-post.sql after them, where
# they exist.  The released scripts (1.0 and 1.0--1.1) are not built here:
# they are frozen as released.
set -eu

ext=$1
mode=$2
dir=$(dirname "$0")/$ext
[ -f "$dir/order" ] || { echo "assemble.sh: no $dir/order" >&2; exit 1; }

case "$mode" in
install)
	to=$3
	name="$ext--$to.sql"
	guard="CREATE EXTENSION $ext"
	;;
update)
	from=$3
	to=$4
	name="$ext--$from--$to.sql"
	guard="ALTER EXTENSION $ext UPDATE TO '$to'"
	;;
*)
	echo "usage: assemble.sh EXTENSION install VERSION | update FROM TO" >&2
	exit 1
	;;
esac

# Print a topic file: whole, or (in an update) its header and the section
# of the version updated to.
emit()
{
	echo
	echo "-- ---------------------------------------------------------------------"
	echo "-- from src/sql/$ext/$1"
	echo "-- ---------------------------------------------------------------------"
	if [ "$mode" = update ] && grep -q '^-- @version ' "$dir/$1"; then
		awk -v v="$to" '
			/^-- @version / { keep = ($3 == v); seen = 1; next }
			!seen || keep { print }' "$dir/$1"
	else
		grep -v '^-- @version ' "$dir/$1"
	fi
}

cat <<HEAD
/* $name: built by src/sql/assemble.sh from src/sql/$ext/.  Do not edit:
   change the sources there and run make. */

-- complain if script is sourced in psql, rather than via ${guard%% *} EXTENSION
\\echo Use "$guard" to load this file. \\quit
HEAD

if [ "$mode" = update ] && [ -f "$dir/update-$from--$to-pre.sql" ]; then
	emit "update-$from--$to-pre.sql"
fi
for f in $(grep -v '^#' "$dir/order"); do
	[ -f "$dir/$f" ] || { echo "assemble.sh: $dir/order names $f, which is missing" >&2; exit 1; }
	emit "$f"
done
if [ "$mode" = update ] && [ -f "$dir/update-$from--$to-post.sql" ]; then
	emit "update-$from--$to-post.sql"
fi
exit 0
