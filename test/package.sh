#!/usr/bin/env bash
# test/package.sh: build the Debian package from this tree and check it the
# way apt users meet it, then leave it installed for the test suite.
#
#   bash test/package.sh        as root, on Debian 12 with PostgreSQL 15
#
# It builds postgresql-15-benchstore with dpkg-buildpackage in a copy of
# the tree (the tree stays clean), and a second time under a lower version
# number (the "previous build"), then on a throwaway cluster:
#   - a build asking for a server version whose headers are missing stops
#     and names the package to install;
#   - the previous build installs, CREATE EXTENSION works; the current
#     build upgrades it with apt and a new session uses the new library;
#   - installing the same package again, and --reinstall, succeed;
#   - removing the package with the extension created leaves the server
#     running: a call names the missing library, CREATE EXTENSION names
#     the missing control file, DROP EXTENSION works, no file is left;
#   - installing it again brings both extensions back.
# The current package stays installed: test/run-tests.sh runs the
# pg_regress and TAP suites against it.  BS_DEB_OUT=dir keeps the .deb files.
set -euo pipefail
cd "$(dirname "$0")/.."
PG_MAJOR=15
unset PG_CONFIG
. test/lib.sh

[ "$(id -u)" -eq 0 ] || bs_die "test/package.sh installs packages with apt: run it as root"
bs_apt postgresql-15 postgresql-server-dev-all postgresql-15-plproxy \
    debhelper dpkg-dev build-essential libipc-run-perl liburing-dev

pkg=postgresql-15-benchstore
version=$(dpkg-parsechangelog -S Version)
work=$(mktemp -d /tmp/benchstore-deb.XXXXXX)
cleanup_work() { rm -rf "$work"; }
trap cleanup_work EXIT

fail() {
    echo "test/package.sh: FAILED: $*" >&2
    exit 1
}

# A copy of the tree without its git data and build output.
copy_tree() {
    mkdir -p "$1"
    tar --exclude=.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
        --exclude=./results --exclude=./tmp_check --exclude=./log \
        --exclude=./dist -cf - . | tar -xf - -C "$1"
}

bs_log "package: a build for a server version without headers names the package to install"
copy_tree "$work/nohdr/src"
if out=$(cd "$work/nohdr/src" && PG_SUPPORTED_VERSIONS=99 debian/rules clean 2>&1); then
    fail "debian/rules accepted PostgreSQL 99, which is not installed"
fi
grep -q 'install postgresql-server-dev-99' <<<"$out" ||
    fail "the message does not name postgresql-server-dev-99: $out"
echo "refused as it should: $(tail -n 1 <<<"$out")"

bs_log "package: building $pkg $version (dpkg-buildpackage -us -uc -b)"
copy_tree "$work/cur/src"
(cd "$work/cur/src" && dpkg-buildpackage -us -uc -b >"$work/build-cur.log" 2>&1) ||
    { tail -n 40 "$work/build-cur.log"; fail "dpkg-buildpackage failed"; }
cur_deb=$(ls "$work/cur/${pkg}_${version}_"*.deb)
echo "built $(basename "$cur_deb")"

# What the package must hold: both extensions, the library, the docs.
contents=$(dpkg-deb -c "$cur_deb" | awk '{print $6}')
for f in ./usr/lib/postgresql/15/lib/benchstore.so \
         ./usr/share/postgresql/15/extension/benchstore.control \
         ./usr/share/postgresql/15/extension/benchstore_cluster.control \
         ./usr/share/doc/$pkg/copyright \
         ./usr/share/doc/$pkg/doc/reference/README.md; do
    # dh_compress gzips documentation files over 4 kB
    grep -qxF "$f" <<<"$contents" || grep -qxF "$f.gz" <<<"$contents" ||
        fail "the package does not hold $f"
done
# built with io_uring (iodepth > 1): liburing-dev is a build dependency
dpkg-deb --fsys-tarfile "$cur_deb" | tar -xOf - ./usr/lib/postgresql/15/lib/benchstore.so \
    > "$work/benchstore.so"
objdump -p "$work/benchstore.so" | grep -q 'NEEDED.*liburing' ||
    fail "the packaged library is not linked with liburing (iodepth > 1 would be refused)"
for f in $(git ls-files 'benchstore*--*.sql' 2>/dev/null || ls benchstore*--*.sql) \
         $(make -s -f Makefile bs-built-scripts 2>/dev/null); do
    grep -qxF "./usr/share/postgresql/15/extension/$f" <<<"$contents" ||
        fail "the package does not hold the script $f"
done

prev_version="${version%-*}-0~previous"
bs_log "package: building the previous build, $prev_version"
copy_tree "$work/prev/src"
maint=$(dpkg-parsechangelog -S Maintainer)
(cd "$work/prev/src" &&
    { printf '%s\n\n  * The previous build (test/package.sh).\n\n -- %s  %s\n\n' \
        "benchstore ($prev_version) unstable; urgency=medium" \
        "$maint" "$(date -R)"; } > debian/changelog &&
    dpkg-buildpackage -us -uc -b >"$work/build-prev.log" 2>&1) ||
    { tail -n 40 "$work/build-prev.log"; fail "dpkg-buildpackage of the previous build failed"; }
prev_deb=$(ls "$work/prev/${pkg}_${prev_version}_"*.deb)

# Nothing of an earlier make install or package may hide what the package does.
export DEBIAN_FRONTEND=noninteractive
apt-get remove -y -q "$pkg" >/dev/null 2>&1 || true
rm -f /usr/lib/postgresql/15/lib/benchstore.so \
      /usr/share/postgresql/15/extension/benchstore*
rm -rf /usr/lib/postgresql/15/lib/bitcode/benchstore*

installed_version() { dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null || true; }

bs_start_cluster
trap 'bs_stop_cluster; cleanup_work' EXIT

bs_log "package: installing the previous build, then upgrading it with apt"
apt-get install -y -q "$prev_deb" >/dev/null
[ "$(installed_version)" = "$prev_version" ] || fail "the previous build did not install"
bs_psql -q -c 'CREATE EXTENSION benchstore' -c 'CREATE EXTENSION plproxy' \
    -c 'CREATE EXTENSION benchstore_cluster'
bs_psql -Atq -c "SELECT count(*) FROM bench_relation_sizes()" >/dev/null
apt-get install -y -q "$cur_deb" >/dev/null
[ "$(installed_version)" = "$version" ] || fail "apt did not upgrade to $version"
n=$(bs_psql -Atq -c "SELECT pages > 0 FROM bench_seqscan('pg_class')")
[ "$n" = t ] || fail "bench_seqscan after the upgrade gave '$n'"
echo "upgraded $prev_version -> $version; bench_seqscan works in a new session"

bs_log "package: installing it again, and --reinstall"
out=$(apt-get install -y -q "$cur_deb" 2>&1) || fail "a second install failed: $out"
grep -q 'already the newest version' <<<"$out" || fail "a second install did not say it is installed: $out"
apt-get install -y -q --reinstall "$cur_deb" >/dev/null || fail "--reinstall failed"
[ "$(installed_version)" = "$version" ] || fail "the package is not installed after --reinstall"

bs_log "package: removing it while the extension is created"
apt-get remove -y -q "$pkg" >/dev/null
bs_psql -Atq -c 'SELECT 1' >/dev/null || fail "the server does not answer after the package was removed"
out=$(bs_psql -Atq -c "SELECT * FROM bench_seqscan('pg_class')" 2>&1) &&
    fail "bench_seqscan ran without its library"
grep -q 'could not access file "\$libdir/benchstore"' <<<"$out" ||
    fail "the error does not name the missing library: $out"
echo "a call names the missing library: $out"
bs_psql -q -c 'CREATE DATABASE after_remove'
out=$(bs_psql -d after_remove -Atq -c 'CREATE EXTENSION benchstore' 2>&1) &&
    fail "CREATE EXTENSION succeeded without the package"
grep -q 'benchstore.control' <<<"$out" || fail "CREATE EXTENSION does not name the missing file: $out"
echo "CREATE EXTENSION names the missing file: $out"
bs_psql -q -c 'DROP EXTENSION benchstore_cluster' -c 'DROP EXTENSION benchstore' ||
    fail "DROP EXTENSION failed without the package"
left=$(ls /usr/lib/postgresql/15/lib/benchstore* /usr/share/postgresql/15/extension/benchstore* 2>/dev/null || true)
[ -z "$left" ] || fail "files left after removal: $left"
bs_psql -Atq -c 'SELECT 1' >/dev/null || fail "the server does not answer"
grep -E 'PANIC|terminated by signal' "$BS_TMP/server.log" && fail "the server log shows a crash"

bs_log "package: installing it again"
apt-get install -y -q "$cur_deb" >/dev/null
bs_psql -d after_remove -q -c 'CREATE EXTENSION benchstore' -c 'CREATE EXTENSION plproxy' \
    -c 'CREATE EXTENSION benchstore_cluster'
got=$(bs_psql -d after_remove -Atq -c "SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'benchstore%'")
echo "created from the package: $got"
want="benchstore $(sed -n "s/^default_version = '\(.*\)'/\1/p" benchstore.control), benchstore_cluster $(sed -n "s/^default_version = '\(.*\)'/\1/p" benchstore_cluster.control)"
[ "$got" = "$want" ] || fail "expected '$want', got '$got'"

if [ -n "${BS_DEB_OUT:-}" ]; then
    mkdir -p "$BS_DEB_OUT"
    cp "$work"/cur/*.deb "$BS_DEB_OUT"/
fi
bs_log "package: $pkg $version is installed; everything above behaved"
