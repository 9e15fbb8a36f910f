#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# make check-vm: the end-to-end suite in a QEMU guest (Debian 12, Linux
# 6.12, LIO, tcmu-runner, targetcli, libiscsi, QEMU's own devices).
#   check-vm.sh BUILDDIR [SUITE...]      (default: every suite)
# Builds (or reuses) the guest under BUILDDIR/tests/vm/cache, boots it once
# per suite with the build tree shared over virtio-9p, prints the guest's
# TAP lines and ends with "N passed, N failed".  Any failure, a guest that
# gives no result, or a missing host tool fails the run.
set -uo pipefail

builddir=$(cd "${1:?usage: check-vm.sh BUILDDIR [SUITE...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(iscsi lio qemu sdebug)
cache=${FHINT_VM_CACHE:-$builddir/tests/vm/cache}
out=$builddir/tests/vm/out
work=$builddir/tests/vm/work
t0=$(date +%s)

for t in mmdebstrap qemu-system-x86_64 qemu-img cpio zstd; do
	command -v "$t" >/dev/null || {
		echo "check-vm: $t missing: run scripts/setup (installs mmdebstrap qemu-system-x86 qemu-utils cpio zstd)" >&2
		exit 1
	}
done
if [ "$(id -u)" -ne 0 ]; then
	echo "check-vm: building the guest needs root (mmdebstrap --mode=root)" >&2
	exit 1
fi
[ -f "$builddir/tests/vm/guest/main.sh" ] || {
	echo "check-vm: needs an in-tree build (the guest runs BUILDDIR/tests/vm/guest)" >&2
	exit 1
}
for f in tcmu-handler/.libs/handler_fhint.so tests/vm/fhint-vmtool \
	 sgtools/fhint-trim tests/conform/fhint-conform; do
	[ -e "$builddir/$f" ] || { echo "check-vm: $f not built" >&2; exit 1; }
done

"$here/build-guest.sh" "$cache" || { echo "check-vm: guest build failed" >&2; exit 1; }
rm -rf "$out" "$work"
mkdir -p "$out" "$work"

# QEMU's own disks as peers (issue #6): NVMe, SATA on AHCI and virtio-scsi
# scsi-hd, each discard=unmap on a raw 1 GiB image that is really written
# (holes show in qemu-img map).  $1: extra scsi-hd properties.
qemu_peer_disks() {
	local d
	for d in nvme ahci scsi; do
		qemu-img create -q -f raw "$work/$d.img" 1G
	done
	echo "-drive file=$work/nvme.img,format=raw,if=none,id=nvm,discard=unmap,cache=unsafe"
	echo "-device nvme,serial=fhintnvme,drive=nvm,logical_block_size=4096,physical_block_size=4096,discard_granularity=4096"
	echo "-device ahci,id=ahci0"
	echo "-drive file=$work/ahci.img,format=raw,if=none,id=sata,discard=unmap,cache=unsafe"
	echo "-device ide-hd,drive=sata,bus=ahci0.0,serial=fhintsata"
	echo "-device virtio-scsi-pci,id=vscsi"
	echo "-drive file=$work/scsi.img,format=raw,if=none,id=vhd,discard=unmap,cache=unsafe"
	echo "-device scsi-hd,drive=vhd,bus=vscsi.0,serial=fhintscsi$1"
}

# Per-suite QEMU devices.  Every suite gets a scratch disk for ext4.
qemu_args() {
	local s=$1
	truncate -s 4G "$work/$s-scratch.img"
	echo "-drive file=$work/$s-scratch.img,format=raw,if=virtio,cache=unsafe,discard=unmap"
	case $s in
	bench)
		qemu-img create -q -f qcow2 "$work/bench.qcow2" 512M
		qemu_peer_disks ""
		;;
	iscsi)
		qemu-img create -q -f qcow2 "$work/peer.qcow2" 128M
		;;
	qemu)
		# limits for fhint-probe to read back, a QMP socket for
		# block_resize
		qemu_peer_disks ",max_unmap_size=8388608,discard_granularity=65536,min_io_size=4096,opt_io_size=1048576"
		echo "-qmp unix:$work/qmp.sock,server=on,wait=off"
		;;
	esac
}

# The host half of requests the guest writes into $work (on the 9p
# share): qemu-img map of an image, block_resize on the QEMU monitor.
host_agent() {
	local s=$1 req
	while sleep 0.3; do
		for req in "$work"/req.*; do
			[ -e "$req" ] || continue
			case $(basename "$req") in
			req.map.*)
				local img=${req##*req.map.}
				qemu-img map --output=json "$work/$img.img" > "$work/map.$img.tmp" 2>&1
				mv "$work/map.$img.tmp" "$work/map.$img"
				;;
			req.resize.*)
				local a=${req##*req.resize.}
				python3 - "$work/qmp.sock" "${a%%.*}" "${a#*.}" > "$work/resize.$a.tmp" 2>&1 <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rw")
def cmd(c, **a):
    f.write(json.dumps({"execute": c, "arguments": a} if a else {"execute": c}) + "\n"); f.flush()
    while True:
        r = json.loads(f.readline())
        if "return" in r or "error" in r: return r
json.loads(f.readline()); cmd("qmp_capabilities")
print(json.dumps(cmd("block_resize", device=sys.argv[2], size=int(sys.argv[3]))))
PY
				mv "$work/resize.$a.tmp" "$work/resize.$a"
				;;
			esac
			rm -f "$req"
		done
	done
}

# One boot per suite, FHINT_VM_JOBS at a time (default 1: two 2-vCPU TCG
# guests on 2 host cores took 570 s where one after the other took 411 s);
# results are printed in suite order.
run_suite() {
	local s=$1 ts grc agent=
	ts=$(date +%s)
	# the suites with host requests (one at a time: they share $work)
	case $s in qemu|bench) host_agent "$s" & agent=$! ;; esac
	# shellcheck disable=SC2046
	"$here/run-vm.sh" "$cache" "$builddir" "$s" "$out/$s.console" \
		$(qemu_args "$s")
	grc=$?
	[ -n "$agent" ] && { kill "$agent" 2>/dev/null; wait "$agent" 2>/dev/null; }
	echo "$grc $(( $(date +%s) - ts ))" > "$work/$s.status"
}
for s in "${suites[@]}"; do
	[ -f "$here/guest/$s.sh" ] || { echo "check-vm: no suite $s" >&2; exit 1; }
done
jobs_max=${FHINT_VM_JOBS:-1}
for s in "${suites[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
	echo "== vm suite $s: started"
	run_suite "$s" &
done
wait

pass=0 fail=0 skip=0 rc=0
for s in "${suites[@]}"; do
	read -r grc secs < "$work/$s.status" || { grc=99 secs=?; }
	echo "== vm suite $s"
	if [ -f "$out/$s.tap" ]; then
		grep -E '^(ok|not ok|#)' "$out/$s.tap" | grep -v '^#   ' || true
		p=$(grep -c '^ok .* # SKIP' "$out/$s.tap")
		skip=$((skip + p))
		pass=$((pass + $(grep -c '^ok ' "$out/$s.tap") - p))
		fail=$((fail + $(grep -c '^not ok ' "$out/$s.tap")))
	fi
	if [ "$grc" -ne 0 ]; then
		rc=1
		if [ "$grc" -ge 98 ] || [ ! -f "$out/$s.tap" ]; then
			echo "not ok - suite $s: the guest gave no result ($grc); console in $out/$s.console"
			fail=$((fail + 1))
		fi
	fi
	echo "== vm suite $s: $secs s"
done
if ls "$out"/conform.*.md >/dev/null 2>&1; then
	python3 "$here/conform-table.py" "$out" "$(cat "$cache/kernel")" \
		> "$out/conformance-vm.md" &&
	echo "== conformance table: $out/conformance-vm.md" &&
	sed -n '/^| target/,/^$/p' "$out/conformance-vm.md"
	# a run of every suite refreshes the committed table
	[ ${#suites[@]} -ge 4 ] && [ -d "$here/../../spec-notes" ] &&
		cp "$out/conformance-vm.md" "$here/../../spec-notes/conformance-vm.md" &&
		python3 "$here/conform-table.py" --readme "$here/../../README.md" \
			"$out" "$(cat "$cache/kernel")"
fi
echo "== check-vm: $(( $(date +%s) - t0 )) s in all (guest: $(cat "$cache/kernel"))"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$rc" -eq 0 ]
