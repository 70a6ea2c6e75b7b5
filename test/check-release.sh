#!/usr/bin/env bash
# test/check-release.sh: the release metadata and archive.  META.json is
# checked against the PGXN Meta Spec and the control files
# (test/check-meta.pl), the released SQL scripts against their checksums
# (test/released.sha256), then `make dist` builds the archive from HEAD with
# git archive and its contents are checked: one top directory named
# benchstore-<version>, META.json, both control files, the released scripts
# and the SQL sources the current ones are built from,
# the C sources, the docs; nothing of .ci/.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
bs_apt git unzip perl make

perl test/check-meta.pl

# The released install and upgrade scripts (1.0 and 1.1) never change:
# their checksums are those of the release (test/released.sha256).  The
# current version's scripts are built by make from src/sql/ (Makefile
# DATA_built) and are not committed: a change to the SQL surface goes into
# the sources there.
if ! sha256sum --quiet -c test/released.sha256; then
    bs_die "a released script changed (above): 1.0 and 1.1 are frozen; change the sources in src/sql/ instead"
fi
for f in $(git ls-files 'benchstore*--*.sql'); do
    grep -q "  $f\$" test/released.sha256 ||
        bs_die "$f is committed but not a released script (test/released.sha256): the current version's scripts are built from src/sql/ by make"
done
echo "released scripts: unchanged ($(wc -l < test/released.sha256) checked)"

version=$(perl -MJSON::PP -0777 -ne 'print decode_json($_)->{version}' META.json)
rm -rf dist
make -s dist >/dev/null
zip="dist/benchstore-$version.zip"
[ -f "$zip" ] || bs_die "make dist did not build $zip"
list=$(unzip -Z1 "$zip")
bad=0
for f in META.json Makefile README.md LICENSE benchstore.control benchstore_cluster.control \
         $(git ls-files 'benchstore*--*.sql') src/sql/assemble.sh \
         $(git ls-files 'src/sql/*/*') src/benchstore.c doc/README.md \
         doc/reference/README.md debian/control; do
    grep -qxF "benchstore-$version/$f" <<<"$list" || { echo "$zip lacks $f" >&2; bad=1; }
done
if grep -v "^benchstore-$version/" <<<"$list" | grep -q .; then
    echo "$zip has entries outside benchstore-$version/" >&2; bad=1
fi
if grep -q "^benchstore-$version/\.ci/" <<<"$list"; then
    echo "$zip holds .ci/" >&2; bad=1
fi
# The archived META.json is the committed one.
if ! unzip -p "$zip" "benchstore-$version/META.json" | cmp -s - <(git show HEAD:META.json); then
    echo "the META.json in $zip is not the committed one" >&2; bad=1
fi
[ "$bad" -eq 0 ] || exit 1
echo "make dist: $zip, $(wc -l <<<"$list") entries"
rm -rf dist
