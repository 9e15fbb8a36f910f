#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/abi/check-map.sh - libfhint.so exports exactly the names of
# lib/libfhint.map, and the map lists every function a public header
# declares and the library defines.
#
#   public    symbols of lib/libfhint-private.la with default visibility:
#             the library is compiled with -fvisibility=hidden, and only
#             what include/fhint/ declares (FHINT_BEGIN_DECLS) is default
#   map       the global: names of lib/libfhint.map
#   exported  nm -D --defined-only lib/.libs/libfhint.so
#
# Each difference is one line naming the symbol and what to do.  Exit 0,
# 1 on a difference, 77 (skip) without a shared library.
# Environment: top_builddir, top_srcdir (default: .).
set -eu
b=${top_builddir:-.}
s=${top_srcdir:-.}
so=$b/lib/.libs/libfhint.so
priv=$b/lib/.libs/libfhint-private.a
map=$s/lib/libfhint.map

if [ ! -f "$so" ]; then
	echo "check-map: $so not built (--disable-shared?): skipped"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LC_ALL=C

# names of the global: section, in file order
sed -n '/global:/,/local:/p' "$map" |
	sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\)[[:space:]]*;.*$/\1/p' \
	>"$tmp/map.order"
sort -u "$tmp/map.order" >"$tmp/map"
nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }' | sed 's/@.*//' |
	sort -u >"$tmp/exported"
readelf -sW "$priv" | awk '($5 == "GLOBAL" || $5 == "WEAK") &&
	$6 == "DEFAULT" && $7 != "UND" { print $8 }' | sort -u >"$tmp/public"

status=0
fail() {
	echo "check-map: $*"
	status=1
}

# where a public name is declared, for the message
declared_in() {
	h=$(grep -lw "$1" "$s"/include/fhint/*.h "$b"/include/fhint/*.h \
		2>/dev/null | head -1)
	echo "${h#"$s"/}"
}

for sym in $(comm -23 "$tmp/public" "$tmp/map"); do
	fail "$sym is not in lib/libfhint.map: declared in $(declared_in "$sym") and defined in the library, so not exported; add the line \"		$sym;\" to LIBFHINT_1.0 (sorted), or make it static / move its declaration to a private header"
done
for sym in $(comm -23 "$tmp/map" "$tmp/exported"); do
	fail "$sym is in lib/libfhint.map but libfhint.so does not export it: no definition in lib/, or not declared in include/fhint/; remove the line or add the function"
done
for sym in $(comm -23 "$tmp/exported" "$tmp/map"); do
	fail "libfhint.so exports $sym, which lib/libfhint.map does not list"
done
for sym in $(grep -v '^fhint_' "$tmp/map"); do
	fail "lib/libfhint.map lists $sym: exported names start with fhint_"
done
for sym in $(sort "$tmp/map.order" | uniq -d); do
	fail "lib/libfhint.map lists $sym twice"
done
order=$(awk 'NR > 1 && $0 < prev { print $0 " comes after " prev; exit }
	{ prev = $0 }' "$tmp/map.order")
[ -z "$order" ] || fail "lib/libfhint.map is not sorted (LC_ALL=C): $order"

if [ $status -eq 0 ]; then
	echo "check-map: libfhint.so exports the $(wc -l <"$tmp/map") names of lib/libfhint.map"
fi
exit $status
