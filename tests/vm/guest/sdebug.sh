# SPDX-License-Identifier: LGPL-2.1-or-later
# fhint-conform against Linux's scsi_debug: logical block
# provisioning (UNMAP, WRITE SAME 10/16 with UNMAP) and its default
# streams / IO advice hints.  Last in its boot: scsi_debug in 6.12 can hit
# a kernel BUG (shared/notes/vm-e2e.md), which must not take other suites'
# results with it.
. "$(dirname "$0")/lib.sh"
set -u

modprobe -a sg sd_mod
modprobe scsi_debug dev_size_mb=64 lbpu=1 lbpws=1 lbpws10=1 lbprz=1 \
	unmap_max_desc=16 unmap_max_blocks=8192 unmap_granularity=8 \
	write_same_length=16384 physblk_exp=3 ||
	{ fail "modprobe scsi_debug"; t_summary; exit 1; }
wait_for 20 sd_by_model scsi_debug
sd=$(sd_by_model scsi_debug) && ok "scsi_debug is /dev/$sd" ||
	{ fail "scsi_debug disk"; t_summary; exit 1; }
sg=$(sg_of "$sd")
$probe /dev/$sd | sed -n '/Block Limits VPD/,/Discard limits/p' | sed 's/^/#   /'
j=$($probe --json /dev/$sd)
expect_eq "fhint-probe: scsi_debug's sysfs limits as sd computes them" \
	"$(echo "$j" | json "len(d['sysfs']['disagreements'])")" 0
expect_eq "fhint-probe: scsi_debug unmap_max_desc=16" \
	"$(echo "$j" | json "d['block_limits']['max_unmap_block_descriptor_count']")" 16
# Linux 6.12's resp_unmap() BUG_ON()s when UNMAP DATA LENGTH or BLOCK
# DESCRIPTOR DATA LENGTH disagree with the PARAMETER LIST LENGTH
# (drivers/scsi/scsi_debug.c:4812, seen: the oops kills the caller); those
# tests are reported as skipped here, and the finding is in
# spec-notes/conformance-vm.md.
name=scsi_debug
run_conform $name /dev/$sg \
	--exclude 'unmap.sbc4_5_30_2_unmap_data_length_past_list_26_00' \
	--exclude 'unmap.sbc4_5_30_2_incomplete_last_desc_ignored'
conform_peer $name
grep -B1 -A3 "FAIL" "$out/conform.$name.log" | head -40 | sed 's/^/#   /'
t_summary
