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
#   - `rbd bench` on an image of the same pool: the same patterns with one
#     thread (the device core serves one command at a time) and with 16;
#   - failover: fhint-failover -n 10 (median and max).
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
	rbd bench --io-type "$1" --io-pattern "$2" --io-size "$3" \
		--io-threads "$4" --io-total "$5" rbd/rbdbench 2>/dev/null |
		sed -n 's/.*ops\/sec: *\([0-9.]*\).*bytes\/sec: *\([0-9.]*\).*/\1 \2/p' |
		tail -n 1
}

echo "bench-ceph: fhint-bench-rbd -t $secs, file LUN ($t)" >&2
"$b/bench/fhint-bench-rbd" -t "$secs" "$t/lun.img?$keys" >"$t/file.out"
echo "bench-ceph: fhint-bench-rbd -t $secs, rbd LUN" >&2
"$b/bench/fhint-bench-rbd" -t "$secs" "rbd:rbd/bench?$keys" >"$t/rbd.out"

rbd create --size 1G rbd/rbdbench
for th in 1 16; do
	rbdbench write seq 1M "$th" 256M >"$t/sw$th"
	rbdbench read seq 1M "$th" 256M >"$t/sr$th"
	rbdbench write rand 4K "$th" 16M >"$t/rw$th"
	rbdbench read rand 4K "$th" 16M >"$t/rr$th"
done
rbd rm --no-progress rbd/rbdbench

echo "bench-ceph: fhint-failover -n 10" >&2
"$b/tests/ceph/fhint-failover" -n 10 "rbd:rbd/failover?size=64M&create=1" \
	>"$t/failover.out"

f() { val "$t/file.out" "$1"; }
r() { val "$t/rbd.out" "$1"; }
ops() { awk '{ print $1 }' "$t/$1"; }
# (bytes/sec carries a unit for large figures: ops/s times the size)
mbs() { awk '{ printf "%.1f", $1 * 1048576 / 1e6 }' "$t/$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

cat <<EOF
| figure | fhint LUN on RBD | fhint LUN on a file | rbd bench, 1 thread | rbd bench, 16 threads | RBD LUN / rbd bench 1 thread | RBD LUN / rbd bench 16 |
|---|---|---|---|---|---|---|
| 1 MiB sequential write, MB/s | $(r seqwrite_1m_mbs) | $(f seqwrite_1m_mbs) | $(mbs sw1) | $(mbs sw16) | $(ratio "$(r seqwrite_1m_mbs)" "$(mbs sw1)") | $(ratio "$(r seqwrite_1m_mbs)" "$(mbs sw16)") |
| 1 MiB sequential read, MB/s | $(r seqread_1m_mbs) | $(f seqread_1m_mbs) | $(mbs sr1) | $(mbs sr16) | $(ratio "$(r seqread_1m_mbs)" "$(mbs sr1)") | $(ratio "$(r seqread_1m_mbs)" "$(mbs sr16)") |
| 4 KiB random write, IOPS | $(r randwrite_4k_iops) | $(f randwrite_4k_iops) | $(ops rw1) | $(ops rw16) | $(ratio "$(r randwrite_4k_iops)" "$(ops rw1)") | $(ratio "$(r randwrite_4k_iops)" "$(ops rw16)") |
| 4 KiB random read, IOPS | $(r randread_4k_iops) | $(f randread_4k_iops) | $(ops rr1) | $(ops rr16) | $(ratio "$(r randread_4k_iops)" "$(ops rr1)") | $(ratio "$(r randread_4k_iops)" "$(ops rr16)") |

| UNMAP of 4095 ranges of 64 KiB (4095 reclaim chunks freed), median of 3 | RBD | file | RBD / file |
|---|---|---|---|
| ms | $(r unmap_4095_ms) | $(f unmap_4095_ms) | $(ratio "$(r unmap_4095_ms)" "$(f unmap_4095_ms)") |

$(grep '^failover: 10 rounds' "$t/failover.out")
EOF
rm -rf "$t"
