#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Build the Debian 12 guest of the VM suite from Debian packages only:
#   CACHE/vmlinuz      Linux 6.12 (bookworm-security linux-image-6.12-amd64;
#                      6.10+ for sd's Linux-mode write hints)
#   CACHE/initrd.zst   the whole root file system (mmdebstrap bookworm,
#                      merged /usr) as a zstd cpio initramfs, /init = init.sh
# Cached: nothing is rebuilt while CACHE/stamp matches this script, the
# package list and the init script.  Needs root (mmdebstrap --mode=root),
# mmdebstrap, cpio, zstd.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${1:?usage: build-guest.sh CACHE_DIR}
mirror=${FHINT_VM_MIRROR:-http://deb.debian.org/debian}
secmirror=${FHINT_VM_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
kpkg=linux-image-6.12-amd64

# What the guest runs: LIO + TCMU + targetcli, libiscsi's tools and
# iscsi-test-cu, sg3_utils, nvme-cli, hdparm, util-linux (blkdiscard, fstrim),
# fio, and the run-time libraries of fhint's tools and handler.
pkgs=(
	tcmu-runner targetcli-fb python3-rtslib-fb dbus kmod
	libiscsi-bin sg3-utils nvme-cli hdparm fio
	util-linux mount e2fsprogs iproute2 procps xz-utils zstd strace
	libsgutils2-1.46-2 libnvme1 libiscsi7 libjson-c5 libudev1
	libsystemd0 libcunit1 liburing2
)

stamp=$( { cat "$0" "$here/init.sh"; echo "${pkgs[*]} $kpkg $mirror"; } |
	 sha256sum | cut -c1-16)
if [ -f "$cache/stamp" ] && [ "$(cat "$cache/stamp")" = "$stamp" ] &&
   [ -f "$cache/vmlinuz" ] && [ -f "$cache/initrd.zst" ]; then
	echo "vm: guest cached in $cache ($stamp)"
	exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
t0=$(date +%s)

list=$(IFS=,; echo "${pkgs[*]}")
echo "vm: mmdebstrap bookworm (${#pkgs[@]} packages) ..."
mmdebstrap --quiet --variant=minbase --mode=root \
	--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
	--include="$list" \
	--dpkgopt='path-exclude=/usr/share/doc/*' \
	--dpkgopt='path-exclude=/usr/share/man/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' \
	--dpkgopt='path-exclude=/usr/share/info/*' \
	--customize-hook='chroot "$1" sh -c "cd /tmp && apt-get download -q \
		\$(apt-cache depends '"$kpkg"' | sed -n \"s/.*Depends: //p\" | head -1)"' \
	--customize-hook='mv "$1"/tmp/linux-image-*.deb "$1"/../' \
	bookworm "$root" \
	"deb $mirror bookworm main" \
	"deb $secmirror bookworm-security main"

# The kernel: apt-get download inside the new root (its apt lists know
# bookworm-security), unpack it aside, then copy its modules into
# usr/lib/modules of the merged-/usr root (unpacking into the root would
# replace the /lib symlink).  Drop module trees the guest never loads.
deb=$(ls "$work"/linux-image-*.deb)
kver=$(dpkg-deb -f "$deb" Package | sed "s/^linux-image-//")
echo "vm: kernel $kver"
mkdir "$work/k"
dpkg-deb -x "$deb" "$work/k"
mods=$work/k/lib/modules/$kver
[ -d "$mods" ] || mods=$work/k/usr/lib/modules/$kver
cp "$work/k/boot/vmlinuz-$kver" "$work/vmlinuz"
rm -rf "$mods"/kernel/{sound,drivers/gpu,drivers/media,drivers/net/wireless,drivers/net/ethernet,drivers/infiniband,drivers/staging,drivers/bluetooth,drivers/usb,drivers/iio,drivers/hid,net/wireless,net/bluetooth,net/mac80211}
mkdir -p "$root/usr/lib/modules"
cp -a "$mods" "$root/usr/lib/modules/"
chroot "$root" depmod "$kver"

install -m 0755 "$here/init.sh" "$root/init"
# Slimmer: apt lists and caches, python byte code.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
echo "$kver" > "$root/etc/fhint-kernel"

echo "vm: initramfs ..."
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) |
	zstd -q -T0 -10 > "$work/initrd.zst"
mv "$work/vmlinuz" "$work/initrd.zst" "$cache/"
echo "$kver" > "$cache/kernel"
echo "$stamp" > "$cache/stamp"
echo "vm: guest built in $(( $(date +%s) - t0 )) s: kernel $kver," \
     "initrd $(du -h "$cache/initrd.zst" | cut -f1)"
