#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# fuzz/run.sh - build and run fhint's libFuzzer harnesses.
#
#   fuzz/run.sh [build|run|regress] [HARNESS...]
#
#   build    compile the harnesses into $FUZZ_BUILD (default /tmp/fhint-fuzz)
#   run      (default) build, then fuzz each harness FUZZ_SECONDS (60) seconds
#            with its corpus fuzz/corpus/<harness>/; new inputs go to
#            $FUZZ_BUILD/corpus/<harness>/ (the committed corpus is not
#            touched unless FUZZ_GROW=1), crashes to $FUZZ_BUILD/crashes/;
#            prints the executions per harness
#   seeds    build fuzz/seeds.c and (re)write the seed files seed-* of
#            fuzz/corpus/<harness>/ (real CDBs, pages from an emulated LUN)
#   regress  build, then run every file of fuzz/corpus/<harness>/ and
#            fuzz/crashes/<harness>/ once; exit 1 on any crash (CI)
#
# Needs clang with libFuzzer (Debian: clang-14 libclang-rt-14-dev) and the
# libraries libfhint links (libsgutils2-dev libnvme-dev libiscsi-dev
# libjson-c-dev).  CC overrides the compiler (default clang-14, else clang).
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-run}
[ $# -gt 0 ] && shift
harnesses=${*:-"codecs emu plan cli"}
build=${FUZZ_BUILD:-/tmp/fhint-fuzz}
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}

if [ -z "${CC:-}" ]; then
	if command -v clang-14 >/dev/null 2>&1; then CC=clang-14; else CC=clang; fi
fi
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFLAGS="-g -O1 -std=gnu11 -fno-omit-frame-pointer $SAN"
# FUZZ_DEP_CPPFLAGS and FUZZ_LIBS: the dependencies as configure found them
# (make fuzz passes them); the defaults suit an in-tree build on Debian 12
CPPFLAGS="-I$srcdir/include -I$srcdir/lib/emu -I$srcdir/lib -I$srcdir/sgtools -I$srcdir
	${FUZZ_DEP_CPPFLAGS:--I/usr/include/blkid -I/usr/include/libmount -I/usr/include/json-c}"
LIBS=${FUZZ_LIBS:-"-lsgutils2 -lnvme -liscsi -ljson-c -luring -lmount -lblkid -lm -lpthread"}
# the RBD store, when configure found librbd (lib/emu/emu_store_rbd.c)
if [ -z "${FUZZ_LIBS:-}" ] && grep -qs '^#define HAVE_LIBRBD 1' "$srcdir/config.h"; then
	LIBS="$LIBS -lrbd -lrados"
fi

do_build() {
	mkdir -p "$build/obj"
	objs=
	pids=
	# library sources, instrumented for coverage (no main): the ones
	# configure chose (the .c files of FUZZ_SOURCES, relative to the
	# tree), else every
	# file but the stubs of optional transports (lib/xport_*_none.c)
	if [ -n "${FUZZ_SOURCES:-}" ]; then
		srcs=$(for s in $FUZZ_SOURCES; do
			case $s in *.c) echo "$srcdir/$s" ;; esac
		done)
	else
		srcs=$(ls "$srcdir"/lib/*.c "$srcdir"/lib/emu/*.c \
			"$srcdir"/sgtools/cli.c | grep -v '_none\.c$')
	fi
	for src in $srcs; do
		o="$build/obj/$(basename "$(dirname "$src")")_$(basename "$src" .c).o"
		objs="$objs $o"
		# rebuild when the object is missing or older than its source
		# or any header (find -newer: POSIX, unlike test -nt)
		if [ ! -f "$o" ] || [ -n "$(find "$src" "$srcdir/include" "$srcdir/lib" \
		     "$srcdir/lib/emu" "$srcdir/sgtools" -name '*.[ch]' \
		     \( -path "$src" -o -name '*.h' \) -newer "$o" 2>/dev/null | head -1)" ]; then
			$CC $CFLAGS -fsanitize=fuzzer-no-link $CPPFLAGS -c "$src" -o "$o" &
			pids="$pids $!"
			# keep at most $jobs compilers running
			set -- $pids
			if [ $# -ge "$jobs" ]; then wait $1; shift; pids="$*"; fi
		fi
	done
	for p in $pids; do wait "$p"; done
	LIBOBJS=$objs
	for h in $harnesses; do
		$CC $CFLAGS -fsanitize=fuzzer $CPPFLAGS \
			"$srcdir/fuzz/fuzz_$h.c" $objs $LIBS -o "$build/fuzz_$h"
	done
}

# Runs: "name execs" lines appended to $build/stats
do_run() {
	: > "$build/stats"
	for h in $harnesses; do
		mkdir -p "$build/corpus/$h" "$build/crashes/$h"
		if [ "${FUZZ_GROW:-0}" = 1 ]; then
			out="$srcdir/fuzz/corpus/$h"
		else
			out="$build/corpus/$h"
		fi
		mkdir -p "$out"
		log="$build/fuzz_$h.log"
		maxlen=4096
		[ "$h" = emu ] && maxlen=16384	# command sequences with data
		rc=0
		# fuzz_emu: one device per profile serves this many inputs
		# (faster, and deeper state: GC, zones, thin thresholds)
		FHINT_FUZZ_EMU_REUSE=${FHINT_FUZZ_EMU_REUSE:-200} \
		"$build/fuzz_$h" -max_total_time="$seconds" -print_final_stats=1 \
			-max_len=$maxlen -timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix="$build/crashes/$h/" \
			"$out" "$srcdir/fuzz/corpus/$h" >"$log" 2>&1 || rc=$?
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
		echo "$h ${execs:-?} ${cov:-?} $rc" >> "$build/stats"
	done
	printf '%-8s %12s %8s %s\n' harness executions coverage result
	status=0
	while read -r h e c rc; do
		r=ok
		if [ "$rc" != 0 ]; then r="CRASH (see $build/fuzz_$h.log)"; status=1; fi
		printf '%-8s %12s %8s %s\n' "$h" "$e" "$c" "$r"
	done < "$build/stats"
	return $status
}

do_regress() {
	status=0
	for h in $harnesses; do
		set --
		for d in "$srcdir/fuzz/corpus/$h" "$srcdir/fuzz/crashes/$h"; do
			[ -d "$d" ] || continue
			for f in "$d"/*; do
				case $f in *.md) continue ;; esac
				if [ -f "$f" ]; then set -- "$@" "$f"; fi
			done
		done
		if [ $# -eq 0 ]; then
			echo "fuzz_$h: no inputs"
			continue
		fi
		if FHINT_FUZZ_EMU_REUSE=0 "$build/fuzz_$h" -runs=1 "$@" >"$build/regress_$h.log" 2>&1; then
			echo "fuzz_$h: $# inputs ok"
		else
			echo "fuzz_$h: FAILED (see $build/regress_$h.log)"
			tail -30 "$build/regress_$h.log"
			status=1
		fi
	done
	return $status
}

do_seeds() {
	$CC $CFLAGS -fsanitize=fuzzer-no-link $CPPFLAGS "$srcdir/fuzz/seeds.c" \
		$LIBOBJS $LIBS -o "$build/seeds"
	mkdir -p "$srcdir/fuzz/corpus"
	"$build/seeds" "$srcdir/fuzz/corpus"
}

case $mode in
build)	do_build ;;
seeds)	do_build; do_seeds ;;
run)	do_build; do_run ;;
regress) do_build; do_regress ;;
*)	echo "usage: $0 [build|run|seeds|regress] [codecs|emu|plan|cli ...]" >&2; exit 2 ;;
esac
