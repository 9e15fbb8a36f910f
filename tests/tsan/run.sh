#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/tsan/run.sh BUILDDIR [emu-stress options]
#
# Build libfhint's sources and the emulator core with the stress program
# tests/tsan/emu_stress.c under ThreadSanitizer (clang -fsanitize=thread)
# into BUILDDIR, and run it: several threads issuing commands on one
# struct fhint_emu through fhint_emu_exec() while another reconfigures it,
# raises unit attentions and reads/resets the statistics.  Exit 0 only if
# the run is clean (no data race, no data mismatch).
#
# CLANG selects the compiler (default: clang-14, then clang).  The
# library's own dependencies are linked as installed (not instrumented):
# TSAN_LIBS, as configure found them (make check-tsan passes libfhint's
# link line), plus what the stress program itself needs.  TSAN_SOURCES
# lists the library's C files relative to the source tree, as the build
# compiles them (make check-tsan passes the configured list, so a
# transport left out is its -ENOTSUP stub, never both); without it, every
# lib/*.c but the stubs.
set -eu

if [ $# -lt 1 ]; then
	echo "usage: $0 BUILDDIR [emu-stress options]" >&2
	exit 2
fi
out=$1
shift
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
top_builddir=${top_builddir:-$srcdir}
case $top_builddir in /*) ;; *) top_builddir=$(pwd)/$top_builddir ;; esac

if [ -z "${CLANG:-}" ]; then
	for c in clang-14 clang; do
		if command -v "$c" >/dev/null 2>&1; then
			CLANG=$c
			break
		fi
	done
fi
if [ -z "${CLANG:-}" ]; then
	echo "tsan: no clang found (set CLANG); skipped" >&2
	exit 77
fi

mkdir -p "$out/obj"
cflags="-std=gnu11 -g -O1 -fsanitize=thread -fno-omit-frame-pointer
	-Wall -Wextra -Wno-unused-parameter
	-I$top_builddir/include -I$srcdir/include -I$srcdir/lib/emu -I$srcdir/lib
	-I$srcdir/sgtools -I$top_builddir -I$srcdir"
objs=
if [ -z "${TSAN_SOURCES:-}" ]; then
	TSAN_SOURCES=$(cd "$srcdir" && ls lib/*.c lib/emu/*.c | grep -v '_none\.c$')
fi
for rel in $TSAN_SOURCES; do
	f=$srcdir/$rel
	o=$out/obj/$(basename "$(dirname "$f")")_$(basename "$f" .c).o
	# shellcheck disable=SC2086
	$CLANG $cflags -c "$f" -o "$o"
	objs="$objs $o"
done
# shellcheck disable=SC2086
$CLANG $cflags "$srcdir/tests/tsan/emu_stress.c" $objs \
	${TSAN_LIBS:--lsgutils2 -lnvme -liscsi -luring -lpthread -lm} -ljson-c \
	-o "$out/emu-stress"

sym=
for s in llvm-symbolizer-14 llvm-symbolizer; do
	p=$(command -v "$s" 2>/dev/null) && { sym="external_symbolizer_path=$p"; break; }
done
# halt_on_error: the first race fails the run; exitcode 66 marks a report
set +e
TSAN_OPTIONS="$sym halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
	"$out/emu-stress" "$@"
status=$?
if [ $status -eq 0 ]; then
	echo "tsan: clean"
else
	echo "tsan: FAILED (exit $status)"
fi
exit $status
