#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# make check-vm: the end-to-end suite in a QEMU guest (Debian 12, Linux
# 6.12, LIO, tcmu-runner, targetcli, libiscsi, QEMU's own devices).
#   check-vm.sh BUILDDIR [SUITE[,SUITE...]...]   (default: every suite)
# Builds (or reuses) the guest under BUILDDIR/tests/vm/cache, boots it once
# per argument (a boot group: its suites run one after the other in that
# boot; default "qemu,iscsi,lio,sdebug", "nvme", "rbd") with the build tree shared over
# virtio-9p, prints the guest's TAP lines and ends with "N passed, N
# failed".  Any failure, a guest that gives no result, or a missing host
# tool fails the run.
set -uo pipefail

builddir=$(cd "${1:?usage: check-vm.sh BUILDDIR [SUITE...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
groups=("$@")
# One boot (a boot costs about 12 s under TCG): qemu first (it finds
# QEMU's disks before tcm_loop adds any), lio after iscsi (it kills
# tcmu-runner), sdebug last (Linux 6.12's scsi_debug can BUG,
# spec-notes/vm.md: the suites before it have written their results).
# The nvme suite boots alone: its NVMe subsystem would race the qemu
# suite's controller for the name nvme0 (the nvme driver probes
# asynchronously).  rbd too (a NIC and a Ceph cluster on the host).
[ ${#groups[@]} -gt 0 ] || groups=(qemu,iscsi,lio,sdebug nvme rbd)
suites=()
for g in "${groups[@]}"; do
	IFS=, read -r -a gs <<< "$g"
	suites+=("${gs[@]}")
done
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
	 sgtools/fhint-trim sgtools/conform/fhint-conform; do
	[ -e "$builddir/$f" ] || { echo "check-vm: $f not built" >&2; exit 1; }
done

"$here/build-guest.sh" "$cache" || { echo "check-vm: guest build failed" >&2; exit 1; }
# The guest boots ~2.5 s sooner from an uncompressed initramfs (TCG
# decompresses zstd slowly): unpacked once per guest build, beside it.
if [ ! "$cache/initrd.cpio" -nt "$cache/initrd.zst" ]; then
	zstd -dqf "$cache/initrd.zst" -o "$cache/initrd.cpio.tmp" &&
		mv "$cache/initrd.cpio.tmp" "$cache/initrd.cpio" ||
		{ echo "check-vm: cannot unpack $cache/initrd.zst" >&2; exit 1; }
fi
rm -rf "$out" "$work"
mkdir -p "$out" "$work"
# FHINT_BENCH_* (bench.sh's knobs) reach the guest through the share
export -p | grep -E ' FHINT_(BENCH|CLIFF)_' > "$work/guest.env"

# QEMU's own disks as peers: NVMe, SATA on AHCI, virtio-scsi scsi-hd and
# virtio-blk, each discard=unmap on a raw 1 GiB image that is really written
# (holes show in qemu-img map).  $1: extra scsi-hd properties.
qemu_peer_disks() {
	local d
	# the first 128 MiB hold data (written here at the host's speed:
	# under TCG the guest would take a minute for the three): the qemu
	# suite's trims must leave holes exactly where asked in it
	head -c $((1 << 20)) /dev/urandom > "$work/pat"
	for d in nvme ahci scsi vblk; do
		qemu-img create -q -f raw "$work/$d.img" 1G
		for i in $(seq 128); do cat "$work/pat"; done |
			dd of="$work/$d.img" bs=1M conv=notrunc iflag=fullblock status=none
	done
	echo "-drive file=$work/nvme.img,format=raw,if=none,id=nvm,discard=unmap,cache=unsafe"
	echo "-device nvme,serial=fhintnvme,drive=nvm,logical_block_size=4096,physical_block_size=4096,discard_granularity=4096"
	echo "-device ahci,id=ahci0"
	echo "-drive file=$work/ahci.img,format=raw,if=none,id=sata,discard=unmap,cache=unsafe"
	echo "-device ide-hd,drive=sata,bus=ahci0.0,serial=fhintsata"
	echo "-device virtio-scsi-pci,id=vscsi"
	echo "-drive file=$work/scsi.img,format=raw,if=none,id=vhd,discard=unmap,cache=unsafe"
	echo "-device scsi-hd,drive=vhd,bus=vscsi.0,serial=fhintscsi$1"
	# virtio-blk: no SG_IO, the block transport's (QEMU's defaults:
	# discard granularity 4 KiB, one segment a discard)
	echo "-drive file=$work/vblk.img,format=raw,if=none,id=vblk,discard=unmap,cache=unsafe"
	echo "-device virtio-blk-pci,drive=vblk,serial=fhintvblk"
}

# A boot group's QEMU devices: a scratch disk for ext4 (shared by the
# group's suites), and each suite's own.
qemu_args() {
	local g=$1 s
	truncate -s 4G "$work/${g//,/+}-scratch.img"
	# found by its serial in the guest (lib.sh scratch_fs): a suite's
	# own virtio-blk disk may be enumerated before it
	echo "-drive file=$work/${g//,/+}-scratch.img,format=raw,if=none,id=scratch,cache=unsafe,discard=unmap"
	echo "-device virtio-blk-pci,drive=scratch,serial=fhintscratch"
	for s in ${g//,/ }; do
	case $s in
	bench)
		qemu-img create -q -f qcow2 "$work/bench.qcow2" 512M
		qemu_peer_disks ""
		;;
	iscsi)
		qemu-img create -q -f qcow2 "$work/peer.qcow2" 128M
		;;
	rbd)
		# user networking: the host's own address through its NAT
		echo "-netdev user,id=net0 -device virtio-net-pci,netdev=net0"
		;;
	nvme)
		# an NVMe subsystem: one controller, namespace 1 attached,
		# namespace 2 detached (attach-ns raises Namespace Attribute
		# Changed); QMP for block_resize unless the qemu suite's is
		# there already
		qemu-img create -q -f raw "$work/aenns1.img" 64M
		qemu-img create -q -f raw "$work/aenns2.img" 64M
		echo "-device nvme-subsys,id=aensubsys,nqn=fhint-aen"
		echo "-device nvme,id=aenctrl,serial=fhintaen,subsys=aensubsys"
		echo "-drive file=$work/aenns1.img,format=raw,if=none,id=aenns1,cache=unsafe"
		echo "-device nvme-ns,drive=aenns1,bus=aenctrl,nsid=1"
		echo "-drive file=$work/aenns2.img,format=raw,if=none,id=aenns2,cache=unsafe"
		echo "-device nvme-ns,drive=aenns2,bus=aenctrl,nsid=2,detached=true"
		case ",$g," in *,qemu,*) ;; *) echo "-qmp unix:$work/qmp.sock,server=on,wait=off" ;; esac
		;;
	qemu)
		# limits for fhint-probe to read back, a QMP socket for
		# block_resize
		qemu_peer_disks ",max_unmap_size=8388608,discard_granularity=65536,min_io_size=4096,opt_io_size=1048576"
		echo "-qmp unix:$work/qmp.sock,server=on,wait=off"
		;;
	esac
	done
}

# The host half of requests the guest writes into $work (on the 9p
# share): qemu-img map of an image, block_resize on the QEMU monitor.
host_agent() {
	local req
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

# The rbd suite's Ceph cluster (tests/ceph/cluster.sh) on the host, bound
# to the host's own address: the guest reaches it through QEMU's user
# networking (10.0.2.2 would be the host's 127.0.0.1, but the monitor hands
# out the OSDs' addresses, which must be the same for host and guest).  The
# guest gets a client configuration and keyring in $work/ceph and the
# images handler_rbd serves; ceph_stop removes the cluster.
ceph_addr() {
	ip -4 route get 1.0.0.0 2>/dev/null | sed -n 's/.* src \([0-9.]*\).*/\1/p'
}
ceph_start() {
	local a conf
	a=${FHINT_VM_CEPH_ADDR:-$(ceph_addr)}
	case $a in ''|127.*) echo "check-vm: rbd: no address but loopback for the cluster" >&2; return 1 ;; esac
	ceph_dir=$(mktemp -d "${TMPDIR:-/var/tmp}/fhint-vmceph.XXXXXX")
	FHINT_CEPH_ADDR=$a "$here/../ceph/cluster.sh" start "$ceph_dir" 1 \
		> "$work/ceph.log" 2>&1 || { tail -20 "$work/ceph.log" >&2; return 1; }
	conf=$ceph_dir/ceph.conf
	mkdir -p "$work/ceph"
	cp "$ceph_dir/keyring/client.admin.keyring" "$work/ceph/"
	{
		echo "[global]"
		grep -E '^(fsid|mon_host|auth_[a-z_]*required) ' "$conf"
		echo "admin_socket ="
		echo "log_to_file = false"
		echo "[client]"
		echo "keyring = $work/ceph/client.admin.keyring"
	} > "$work/ceph/guest.conf"
	timeout 60 rbd --conf "$conf" create --size 128M rbd/vm-hrbd
}
ceph_stop() {
	[ -n "${ceph_dir:-}" ] && "$here/../ceph/cluster.sh" stop "$ceph_dir" >> "$work/ceph.log" 2>&1
	ceph_dir=
}

# One boot per group, FHINT_VM_JOBS at a time (default 1: two 2-vCPU TCG
# guests on 2 host cores took 570 s where one after the other took 411 s);
# results are printed in suite order.
run_group() {
	local g=$1 ts grc agent= s
	ts=$(date +%s)
	# the suites with host requests (one at a time: they share $work)
	case ",$g," in *,qemu,*|*,bench,*|*,nvme,*) host_agent & agent=$! ;; esac
	case ",$g," in *,rbd,*) ceph_start || echo "check-vm: rbd: no cluster for the guest (the suite skips)" >&2 ;; esac
	# shellcheck disable=SC2046
	"$here/run-vm.sh" "$cache" "$builddir" "$g" "$out/${g//,/+}.console" \
		$(qemu_args "$g")
	grc=$?
	[ -n "$agent" ] && { kill "$agent" 2>/dev/null; wait "$agent" 2>/dev/null; }
	ceph_stop
	echo "$grc $(( $(date +%s) - ts ))" > "$work/${g//,/+}.status"
}
for s in "${suites[@]}"; do
	[ -f "$here/guest/$s.sh" ] || { echo "check-vm: no suite $s" >&2; exit 1; }
done
jobs_max=${FHINT_VM_JOBS:-1}
for g in "${groups[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
	echo "== vm boot $g: started"
	run_group "$g" &
done
wait
for g in "${groups[@]}"; do
	read -r grc secs < "$work/${g//,/+}.status" || { grc=99 secs=?; }
	echo "== vm boot $g: exit $grc, $secs s"
done

pass=0 fail=0 skip=0 rc=0
for s in "${suites[@]}"; do
	# the suite's status as the guest wrote it; none: the guest died
	read -r grc secs < "$out/$s.rc" 2>/dev/null || { grc=98 secs=?; }
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
			echo "not ok - suite $s: the guest gave no result ($grc); console in $out/*.console"
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
