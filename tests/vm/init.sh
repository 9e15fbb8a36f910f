#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# PID 1 of the VM suite's guest (the initramfs is the root file system).
# Mounts the kernel file systems, the host's build tree (virtio-9p tag
# "tree") at the path it has on the host (fhint.tree=), runs
# tests/vm/guest/main.sh with fhint.suite= and powers off.  No systemd,
# no udevd: scripts load the modules they need.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t configfs configfs /sys/kernel/config 2>/dev/null
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
hostname fhint-vm
ip link set lo up

tree= suite=all
for a in $(cat /proc/cmdline); do
	case $a in
	fhint.tree=*) tree=${a#fhint.tree=} ;;
	fhint.suite=*) suite=${a#fhint.suite=} ;;
	esac
done

modprobe virtio_pci 2>/dev/null
modprobe 9pnet_virtio
modprobe 9p
mkdir -p "$tree"
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=none \
	tree "$tree"; then
	echo "fhint-vm: cannot mount the build tree at $tree"
	echo "fhint-vm: exit 99"
	echo o > /proc/sysrq-trigger
	sleep 10
fi

cd "$tree"
bash "$tree/tests/vm/guest/main.sh" "$suite"
rc=$?
echo "fhint-vm: exit $rc"
sync
umount "$tree" 2>/dev/null
echo o > /proc/sysrq-trigger
sleep 10
