#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/abi/check-headers.sh - every installed header stands alone: it
# compiles by itself as C and as C++ (-Wall -Wextra -Werror), and
# <fhint/fhint.h> includes it.  Exit 0 or 1.
# Environment: top_builddir, top_srcdir (default: .), CC, CXX.
set -eu
b=${top_builddir:-.}
s=${top_srcdir:-.}
CC=${CC:-cc}
CXX=${CXX:-c++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

status=0
n=0
for h in "$s"/include/fhint/*.h "$b"/include/fhint/version.h; do
	name=fhint/$(basename "$h")
	case $name in
	fhint/fhint.h) ;;
	fhint/decls.h) ;;	# every header includes it
	*)
		if ! grep -q "^#include <$name>" "$s/include/fhint/fhint.h"; then
			echo "check-headers: fhint/fhint.h does not include <$name>"
			status=1
		fi
		;;
	esac
	printf '#include <%s>\n' "$name" >"$tmp/one.c"
	cp "$tmp/one.c" "$tmp/one.cc"
	for lang in c c++; do
		if [ $lang = c ]; then
			cc=$CC src=$tmp/one.c std=-std=gnu11
		else
			cc=$CXX src=$tmp/one.cc std=-std=gnu++11
		fi
		# shellcheck disable=SC2086
		if ! $cc $std -Wall -Wextra -Werror -fsyntax-only \
			-I"$b/include" -I"$s/include" "$src" >"$tmp/log" 2>&1; then
			echo "check-headers: <$name> does not compile alone as $lang:"
			sed 's/^/    /' "$tmp/log" | head -20
			status=1
		fi
	done
	n=$((n + 1))
done
[ $status -eq 0 ] && echo "check-headers: $n headers compile alone as C and C++"
exit $status
