#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/minimal-build.sh [BUILDDIR]
#
# Build the tree with only the libraries configure requires: no libnvme,
# no libiscsi, no librbd, no tcmu handler, and CUnit hidden from
# pkg-config (a wrapper answers "not found" for it).  The library, the
# tools and the demo must build; make check runs what needs no CUnit and
# skips the rest (tests/need-cunit.sh); an iSCSI target is refused as
# not built in (-ENOTSUP: fhint-probe exits 4).  Run by .ci/run.
set -eu
srcdir=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

cat > "$out/pkg-config" <<'W'
#!/bin/sh
for a in "$@"; do
	case $a in cunit*) exit 1 ;; esac
done
exec pkg-config "$@"
W
chmod +x "$out/pkg-config"

rm -rf "$out/src"
mkdir "$out/src"
git -C "$srcdir" archive HEAD | tar -x -C "$out/src"
(cd "$out/src" && autoreconf -fi >/dev/null 2>&1)
mkdir -p "$out/build"
cd "$out/build"
PKG_CONFIG="$out/pkg-config" ../src/configure --without-libnvme \
	--without-libiscsi --without-rbd --disable-tcmu-handler \
	--disable-sanitizers >configure.log 2>&1 ||
	{ tail -20 configure.log; exit 1; }
grep -q '^  CUnit: *no' configure.log ||
	{ echo "minimal build: configure still found CUnit" >&2; exit 1; }
make -j"$(nproc)" >make.log 2>&1 || { tail -30 make.log; exit 1; }
make -j"$(nproc)" check >check.log 2>&1 || {
	grep -E '^(FAIL|ERROR)' check.log; tail -30 check.log; exit 1; }
grep -E '^(PASS|SKIP|FAIL|ERROR):' check.log

set +e
sgtools/fhint-probe iscsi://127.0.0.1/iqn.2003-01.org.example:t/0 2>probe.err
rc=$?
set -e
echo "iSCSI target without libiscsi: exit $rc: $(cat probe.err)"
[ "$rc" -eq 4 ] || { echo "minimal build: expected exit 4" >&2; exit 1; }
echo "minimal build: ok"
