#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/ceph/bench.sh BUILDDIR: the figures of spec-notes/ceph.md
# (make bench-ceph), all in one run on one cluster of its own
# (tests/ceph/cluster.sh, one OSD unless FHINT_CEPH_OSDS):
#
#   - an RBD-backed LUN and a file-backed LUN of the same configuration
#     (profile=thin, 1 GiB) through fhint-bench-rbd: 1 MiB sequential
#     write and read, 4 KiB random write and read, one 4095-range UNMAP;
#     one command at a time (fhint_emu_exec) and, for the RBD LUN, 16 in
#     flight (-q 16: fhint_emu_submit / fhint_emu_reap);
#   - `rbd bench` on an image of the same pool, with librbd's cache off as
#     the RBD store has it (--rbd_cache=false: a write is acknowledged once
#     the OSDs have it): the same patterns with 1 and 16 I/Os in flight;
#   - failover: fhint-failover -n 10 (median and max);
#   - 1 MiB sequential read on the same image, same pattern: an RBD LUN
#     that wrote 256 MiB reads them (fhint-bench-rbd -f seqread_1m_mbs, 1
#     and 16 in flight), then, the LUN closed, fio's rbd engine reads the
#     same bytes of its image in the same order with 1 and 16 in flight
#     (one rbd_aio_read per 1 MiB, as tcmu-runner's handler_rbd serves a
#     READ), librbd's cache off.
#
# Prints a markdown table with the ratios.  FHINT_BENCH_SECONDS (default
# 5) per figure.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 BUILDDIR" >&2; exit 2; }
b=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${CEPH_CONF:-}" ]; then
	exec "$BASH" "$here/cluster.sh" run --osds "${FHINT_CEPH_OSDS:-1}" -- \
		"$BASH" "$0" "$b"
fi
secs=${FHINT_BENCH_SECONDS:-5}
t=$(mktemp -d "$FHINT_CEPH_DIR/bench.XXXXXX")
keys="size=1G&create=1&profile=thin"

# NAME from "NAME VALUE" lines of file $1
val() { awk -v n="$2" '$1 == n { print $2 }' "$1"; }

# rbd bench TYPE PATTERN SIZE THREADS: ops/s and bytes/s of its summary
# ("elapsed: S  ops: N  ops/sec: X  bytes/sec: Y")
rbdbench() {
	rbd bench --rbd_cache=false --io-type "$1" --io-pattern "$2" --io-size "$3" \
		--io-threads "$4" --io-total "$5" rbd/rbdbench 2>/dev/null |
		sed -n 's/.*ops\/sec: *\([0-9.]*\).*bytes\/sec: *\([0-9.]*\).*/\1 \2/p' |
		tail -n 1
}

echo "bench-ceph: fhint-bench-rbd -t $secs, file LUN ($t)" >&2
"$b/bench/fhint-bench-rbd" -t "$secs" "$t/lun.img?$keys" >"$t/file.out"
echo "bench-ceph: fhint-bench-rbd -t $secs, rbd LUN" >&2
"$b/bench/fhint-bench-rbd" -t "$secs" "rbd:rbd/bench?$keys" >"$t/rbd.out"
echo "bench-ceph: fhint-bench-rbd -t $secs -q 16, rbd LUN" >&2
"$b/bench/fhint-bench-rbd" -t "$secs" -q 16 "rbd:rbd/benchq?$keys" \
	>"$t/rbdq.out"

rbd create --size 1G rbd/rbdbench
for th in 1 16; do
	rbdbench write seq 1M "$th" 256M >"$t/sw$th"
	rbdbench read seq 1M "$th" 256M >"$t/sr$th"
	rbdbench write rand 4K "$th" 16M >"$t/rw$th"
	rbdbench read rand 4K "$th" 16M >"$t/rr$th"
done
rbd rm --no-progress rbd/rbdbench

# fio's rbd engine, 1 MiB sequential reads of the first 256 MiB of
# image $1 with $2 in flight, librbd's cache off: MB/s
conf=$t/nocache.conf
awk '{ print } $0 == "[client]" { print "rbd_cache = false"; n++ }
     END { if (!n) print "[client]\nrbd_cache = false" }' "$CEPH_CONF" >"$conf"
fioread() {
	CEPH_CONF=$conf fio --name=seqread --ioengine=rbd --clientname=admin \
		--pool=rbd --rbdname="$1" --rw=read --bs=1M --iodepth="$2" \
		--size=256M --time_based --runtime="$secs" \
		--output-format=terse --terse-version=3 2>/dev/null |
		awk -F';' '{ printf "%.1f", $7 * 1024 / 1e6 }'	# KiB/s
}
echo "bench-ceph: 1 MiB sequential read, LUN and fio on one image" >&2
lunread() {	# [-q DEPTH]
	"$b/bench/fhint-bench-rbd" -t "$secs" -f seqread_1m_mbs "$@" \
		"rbd:rbd/seqread?$keys" | awk '{ print $2 }'
}
sq1=$(lunread) fio1=$(fioread seqread 1)
sq16=$(lunread -q 16) fio16=$(fioread seqread 16)

echo "bench-ceph: fhint-failover -n 10" >&2
"$b/tests/ceph/fhint-failover" -n 10 "rbd:rbd/failover?size=64M&create=1" \
	>"$t/failover.out"

f() { val "$t/file.out" "$1"; }
r() { val "$t/rbd.out" "$1"; }
q() { val "$t/rbdq.out" "$1"; }
ops() { awk '{ print $1 }' "$t/$1"; }
# (bytes/sec carries a unit for large figures: ops/s times the size)
mbs() { awk '{ printf "%.1f", $1 * 1048576 / 1e6 }' "$t/$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

row() {	# NAME FIELD RBDBENCH-FILE-PREFIX UNIT-FUNCTION
	local a b c d
	a=$(r "$2") b=$(q "$2") c=$($4 "${3}1") d=$($4 "${3}16")
	echo "| $1 | $a | $b | $(f "$2") | $c | $d | $(ratio "$a" "$c") | $(ratio "$b" "$d") |"
}
cat <<EOF
| figure | fhint LUN on RBD, 1 in flight | on RBD, 16 in flight | on a file, 1 | rbd bench, 1 | rbd bench, 16 | RBD LUN / rbd bench, 1 | RBD LUN / rbd bench, 16 |
|---|---|---|---|---|---|---|---|
$(row "1 MiB sequential write, MB/s" seqwrite_1m_mbs sw mbs)
$(row "1 MiB sequential read, MB/s" seqread_1m_mbs sr mbs)
$(row "4 KiB random write, IOPS" randwrite_4k_iops rw ops)
$(row "4 KiB random read, IOPS" randread_4k_iops rr ops)

| UNMAP of 4095 ranges of 64 KiB (4095 reclaim chunks freed), median of 3 | RBD | file | RBD / file |
|---|---|---|---|
| ms | $(r unmap_4095_ms) | $(f unmap_4095_ms) | $(ratio "$(r unmap_4095_ms)" "$(f unmap_4095_ms)") |

| 1 MiB sequential read of the LUN's 256 MiB, MB/s | 1 in flight | 16 in flight |
|---|---|---|
| fhint LUN on RBD | $sq1 | $sq16 |
| fio, rbd engine, on its image | $fio1 | $fio16 |
| LUN / fio | $(ratio "$sq1" "$fio1") | $(ratio "$sq16" "$fio16") |

$(grep '^failover: 10 rounds' "$t/failover.out")
EOF
rm -rf "$t"
