#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Boot the VM suite's guest once under QEMU (TCG) and run one guest suite:
#   run-vm.sh CACHE TREE SUITE LOG [extra qemu args...]
# TREE (the build tree) is shared read-write over virtio-9p and mounted at
# the same path in the guest, so libtool's wrappers and absolute paths work.
# The serial console goes to LOG; kernel messages below KERN_ERR only (LIO
# logs an error line per odd CDB: iscsi-test-cu's thousands cost tens of
# seconds through an emulated UART; the suites save dmesg instead).  No
# CPU vulnerability mitigations in this throwaway guest (retpolines and RSB
# filling cost emulated instructions).  Exit status: the guest suite's, or 98
# when the guest never reported one (crash, timeout: FHINT_VM_TIMEOUT s).
set -uo pipefail

cache=$1 tree=$2 suite=$3 log=$4
shift 4
timeout_s=${FHINT_VM_TIMEOUT:-1500}
mem=${FHINT_VM_MEM:-3072}
smp=${FHINT_VM_SMP:-2}
qemu=${QEMU:-qemu-system-x86_64}

initrd=$cache/initrd.cpio	# check-vm.sh unpacks initrd.zst to it
[ -f "$initrd" ] || initrd=$cache/initrd.zst
accel=tcg,thread=multi
[ -n "${FHINT_VM_KVM:-}" ] && [ -w /dev/kvm ] && accel=kvm

timeout --foreground -k 10 "$timeout_s" "$qemu" \
	-machine q35 -accel "$accel" -cpu max -smp "$smp" -m "$mem" \
	-nodefaults -no-user-config -display none -no-reboot \
	-serial "file:$log" -monitor none \
	-kernel "$cache/vmlinuz" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 quiet loglevel=3 mitigations=off fhint.tree=$tree fhint.suite=$suite" \
	-virtfs "local,path=$tree,mount_tag=tree,security_model=none,id=tree" \
	-device virtio-rng-pci \
	"$@" </dev/null
qrc=$?
rc=$(sed -n 's/^fhint-vm: exit \([0-9]*\).*/\1/p' "$log" | tail -1)
if [ -z "$rc" ]; then
	echo "vm: the guest gave no exit status (qemu exit $qrc); last console lines:" >&2
	tail -20 "$log" >&2
	exit 98
fi
exit "$rc"
