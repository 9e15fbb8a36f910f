#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/valgrind/run.sh BUILDDIR
#
# Run every command-line tool (sgtools/fhint-trim, fhint-probe, fhint-write,
# fhint-ua, sgtools/conform/fhint-conform) against emu: targets under
#   valgrind --error-exitcode=9 --leak-check=full
#            --errors-for-leak-kinds=definite
# with a few representative invocations each, good and bad usage.  A run
# fails when valgrind reports an error or a definite leak (exit 9), or
# when the tool's exit status is not the one expected (the invocation did
# not do what it was meant to).  BUILDDIR holds the built tools; libtool
# wrappers are run through `libtool --mode=execute` (BUILDDIR/libtool, or
# libtool in PATH).  Exit 0 clean, 1 failures, 77 no valgrind (skip).
set -u

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILDDIR" >&2
	exit 2
fi
b=$(cd "$1" && pwd) || exit 2
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind: not installed; skipped" >&2
	exit 77
fi
if [ -x "$b/libtool" ]; then
	libtool="$b/libtool"
else
	libtool=libtool
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
log=$tmp/vg.log

runs=0
fails=0

# check EXPECTED-STATUS TOOL [ARGS...]  (stdin from $stdin, default none)
check() {
	want=$1
	tool=$2
	shift 2
	bin=$b/$tool
	what="$tool $*"
	runs=$((runs + 1))
	if [ ! -x "$bin" ]; then
		echo "FAIL $tool: not built in $b"
		fails=$((fails + 1))
		return
	fi
	set -- valgrind -q --error-exitcode=9 --leak-check=full \
		--errors-for-leak-kinds=definite --show-leak-kinds=definite \
		--track-origins=yes \
		--log-file="$log" "$bin" "$@"
	# a libtool wrapper script: let libtool run the real binary
	if head -c 2 "$bin" | grep -q '#!'; then
		set -- "$libtool" --mode=execute "$@"
	fi
	"$@" <"${stdin:-/dev/null}" >"$tmp/out" 2>&1
	got=$?
	if [ "$got" -eq 9 ] || [ -s "$log" ] || [ "$got" -ne "$want" ]; then
		fails=$((fails + 1))
		echo "FAIL (exit $got, want $want): $what"
		sed 's/^/    /' "$log" "$tmp/out" | head -60
	else
		echo "ok   (exit $got) $what"
	fi
	rm -f "$log"
}

img=$tmp/dev.img
flash='emu:?size=16M'
thin='emu:?profile=thin&size=16M'
file="emu:$img?size=16M&create=1"

# fhint-trim
check 0 sgtools/fhint-trim "$flash" 0+1M
check 0 sgtools/fhint-trim -n "$flash" 0+2048 4096+100
check 0 sgtools/fhint-trim -c -j "$file" --all
check 0 sgtools/fhint-trim -m ws16 -p zero -v "$thin" 1+4095
printf '0+8\n# comment\n64+64\n' >"$tmp/ranges"
stdin=$tmp/ranges check 0 sgtools/fhint-trim "$thin" -
check 0 sgtools/fhint-trim -i "$tmp/ranges" -j "$flash"
check 2 sgtools/fhint-trim
check 2 sgtools/fhint-trim --method bogus "$flash" 0+8
check 2 sgtools/fhint-trim "$flash" 0+99999999999
check 2 sgtools/fhint-trim 'emu:?size=bogus' 0+8
check 2 sgtools/fhint-trim -i "$tmp/missing" "$flash"

# fhint-probe
check 0 sgtools/fhint-probe "$flash"
check 0 sgtools/fhint-probe -j "$thin"
check 0 sgtools/fhint-probe -a -v 'emu:?size=16M&sat=1'
check 0 sgtools/fhint-probe -t -f -N 2 "$file"
check 0 sgtools/fhint-probe -j 'emu:?profile=smr-host-aware&size=64M&zone=8M'
check 2 sgtools/fhint-probe
check 3 sgtools/fhint-probe -t "$flash"
check 2 sgtools/fhint-probe 'emu:?bogus=1'
check 4 sgtools/fhint-probe -a "$flash"
check 4 sgtools/fhint-probe /dev/null

# fhint-write
check 0 sgtools/fhint-write --group 3 "$flash" 0+64
check 0 sgtools/fhint-write --hint short --cdb 10 "$flash" 0+8 100+8
check 0 sgtools/fhint-write --verify --fua --pattern random:7 --bs 64K "$file" 0+1M
check 0 sgtools/fhint-write --json --verify-only --pattern random:7 --bs 64K "$file" 0+1M
check 0 sgtools/fhint-write --json -v --group 1 "$thin" 8+8
check 2 sgtools/fhint-write --group 99 "$flash" 0+8
check 2 sgtools/fhint-write
check 2 sgtools/fhint-write --group 1 "$flash" 0+99999999999
check 2 sgtools/fhint-write --pattern bogus "$flash" 0+8
truncate -s 1M "$tmp/plain"
# a plain file (O_DIRECT, pwrite); no --hint: valgrind does not know
# F_SET_RW_HINT
check 0 sgtools/fhint-write --file "$tmp/plain" --fua 0+64
check 0 sgtools/fhint-write --file "$tmp/plain" --verify-only 0+64

# fhint-ua
check 0 sgtools/fhint-ua "$flash"
check 0 sgtools/fhint-ua --count 1 --json "$thin"
check 0 sgtools/fhint-ua --follow --count 1 --interval 10 "$flash"
check 0 sgtools/fhint-ua --output "$tmp/ua.jsonl" -v "$file"
check 2 sgtools/fhint-ua --interval x "$flash"
check 2 sgtools/fhint-ua
check 2 sgtools/fhint-ua --since bogus "$flash"
check 2 sgtools/fhint-ua --output /nonexistent/dir/ua.jsonl "$flash"

# fhint-conform (families kept small: valgrind is ~30x slower)
check 0 sgtools/conform/fhint-conform -l
check 0 sgtools/conform/fhint-conform -F sense "$flash"
check 0 sgtools/conform/fhint-conform -d -s all -F unmap -F write_same \
	'emu:?profile=thin&size=16M&max_ws=4096&max_unmap=4096&max_unmap_desc=16'
check 0 sgtools/conform/fhint-conform -d -s all -F provisioning -S "$tmp/s.md" \
	-J "$tmp/j.xml" "$file"
check 2 sgtools/conform/fhint-conform
check 2 sgtools/conform/fhint-conform --scratch-range bogus "$flash"
check 2 sgtools/conform/fhint-conform 'emu:?size=bogus'

echo "valgrind: $runs runs, $fails failed"
[ "$fails" -eq 0 ]
