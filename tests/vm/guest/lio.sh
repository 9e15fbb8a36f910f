# SPDX-License-Identifier: LGPL-2.1-or-later
# The fhint LUN behind LIO, seen by Linux's sd through tcm_loop: the
# LUN as sd sees it, its data and discards, the handler's restart and
# the refused configurations.
. "$(dirname "$0")/lib.sh"
set -u

scratch_fs || { fail "scratch file system on the fhintscratch disk"; t_summary; exit 1; }
start_tcmu && ok "tcmu-runner (Debian's) registered on the system bus" ||
	{ fail "tcmu-runner on the bus"; tail /var/log/tcmu-runner.out; t_summary; exit 1; }
o=$(tcli "set global auto_save_on_exit=false" "ls /backstores")
echo "$o" | grep -q "user:fhint" && ok "targetcli lists the user:fhint backstore" ||
	{ fail "user:fhint backstore"; echo "$o" | sed 's/^/#   /'; }

# ---- LUN 0 with targetcli, LUN 1 with configfs directly ----------------
# lun0: flash, 4 KiB pages, 128 pages per erase block (512 KiB), VPD B0h
# limits of 65536 blocks / 64 descriptors per UNMAP, 4 MiB transfers;
# writes of 128 KiB and more O_DIRECT to the backing file (direct=: the
# file system's and fstrim's checks below read through both paths); five
# permanent streams and two more STREAM CONTROL can open (streams=8).
cfg0='/scratch/lun0.img?create=1&profile=flash&page=4096&ppb=128&op=0.1&max_unmap=65536&max_unmap_desc=64&max_xfer=8192&direct=128K&streams=8&product=lun0'
o=$(tcli "/backstores/user:fhint create name=lun0 size=256M cfgstring=$cfg0" \
	"/loopback create naa.5001405fee100001" \
	"/loopback/naa.5001405fee100001/luns create /backstores/user:fhint/lun0")
echo "$o" | sed 's/^/#   /'
# lun1: thin, 4096-byte logical blocks, soft threshold, through configfs
core=/sys/kernel/config/target/core
mk_user_lun() {	# mk_user_lun HBA NAME BYTES BLOCK CFG
	local d=$core/$1/$2
	mkdir -p "$d" &&
	echo "dev_size=$3,dev_config=fhint/$5,hw_block_size=$4" > "$d/control" &&
	echo 1 > "$d/enable"
}
cfg1='/scratch/lun1.img?create=1&profile=thin&lbs=4096&threshold=80&max_unmap_desc=16&anchor=1&product=lun1'
if mk_user_lun user_9 lun1 $((64 << 20)) 4096 "$cfg1"; then
	ok "configfs: user_9/lun1 enabled"
else
	fail "configfs: user_9/lun1 enable"
fi
tl=/sys/kernel/config/target/loopback/naa.5001405fee100001/tpgt_1/lun/lun_1
mkdir -p "$tl" && ln -s "$core/user_9/lun1" "$tl/lun1" ||
	fail "configfs: tcm_loop LUN 1"

wait_for 20 sd_by_model lun0; wait_for 20 sd_by_model lun1
sd0=$(sd_by_model lun0) && ok "lun0 appears as /dev/$sd0" ||
	{ fail "lun0 as /dev/sdX"; t_summary; exit 1; }
sd1=$(sd_by_model lun1) && ok "lun1 appears as /dev/$sd1" || fail "lun1 as /dev/sdX"
sg0=$(sg_of "$sd0")

# ---- 1. Linux's queue limits are what the configuration asked for ------
q=/sys/block/$sd0/queue
expect_eq "lun0 discard_granularity = erase block 128 x 4 KiB" "$(cat $q/discard_granularity)" 524288
expect_eq "lun0 discard_max_hw_bytes = max_unmap 65536 x 512" "$(cat $q/discard_max_hw_bytes)" 33554432
expect_eq "lun0 minimum_io_size = 4 KiB page" "$(cat $q/minimum_io_size)" 4096
expect_eq "lun0 optimal_io_size = erase block" "$(cat $q/optimal_io_size)" 524288
expect_eq "lun0 rotational" "$(cat $q/rotational)" 0
expect_eq "lun0 sd provisioning_mode" \
	"$(cat /sys/block/$sd0/device/scsi_disk/*/provisioning_mode)" unmap
if [ -n "${sd1:-}" ]; then
	q1=/sys/block/$sd1/queue
	expect_eq "lun1 logical_block_size = lbs" "$(cat $q1/logical_block_size)" 4096
	expect_eq "lun1 sd provisioning_mode" \
		"$(cat /sys/block/$sd1/device/scsi_disk/*/provisioning_mode)" unmap
	expect_eq "lun1 discard_granularity" "$(cat $q1/discard_granularity)" 4096
fi
for d in $sd0 ${sd1:-}; do
	j=$($probe --json /dev/$d 2>&1)
	n=$(echo "$j" | json "len(d['sysfs']['disagreements'])" 2>/dev/null)
	expect_eq "fhint-probe /dev/$d: sysfs disagrees with what sd would compute" "${n:-error}" 0
done
dmesg | grep -q "$sd0.*permanent stream count = 5" &&
	ok "sd read the IO advice hints: permanent stream count = 5" ||
	fail "sd permanent stream count (dmesg: $(dmesg | grep -i stream | tail -2))"

# ---- 2. blkdiscard and fstrim free exactly the asked pages ---------------
blocks=$(( $(blockdev --getsize64 /dev/$sd0) / 512 ))
dd if=/dev/zero of=/dev/$sd0 bs=4M oflag=direct status=none
st() { $vmtool stats /dev/$sg0 | json "d['$1']"; }
cen() { $vmtool census /dev/$sg0 "$1" "$2" | json "d['$3']"; }
expect_eq "after writing the LUN: mapped blocks (log page 30h)" "$(st mapped_blocks)" $blocks
u0=$(st unmapped_blocks)
blkdiscard -o $((16 << 20)) -l $((8 << 20)) /dev/$sd0
expect_eq "blkdiscard 8 MiB: blocks the emulator deallocated" $(( $(st unmapped_blocks) - u0 )) 16384
expect_eq "blkdiscard 8 MiB: mapped blocks" "$(st mapped_blocks)" $((blocks - 16384))
expect_eq "GET LBA STATUS: the 8 MiB deallocated" "$(cen 32768 16384 deallocated)" 16384
expect_eq "GET LBA STATUS: nothing else deallocated" "$(cen 0 $blocks deallocated)" 16384
check "the discarded 8 MiB reads back as zeros" \
	cmp -n $((8 << 20)) <(dd if=/dev/$sd0 bs=1M skip=16 count=8 iflag=direct status=none) /dev/zero
check "the data beside it was kept (reads zeros as written, LBPRZ aside)" \
	cmp -n $((1 << 20)) <(dd if=/dev/$sd0 bs=1M skip=15 count=1 iflag=direct status=none) /dev/zero

# fstrim: every free ext4 extent of at least discard_granularity (ext4
# raises FITRIM's minlen to it) ends deallocated, and nothing else.
# noinit_itable: ext4's lazy inode-table init would zero tables through
# WRITE SAME with UNMAP (LBPRZ 1) at a time of its own choosing.
dd if=/dev/zero of=/dev/$sd0 bs=1M seek=16 count=8 oflag=direct status=none
mkfs.ext4 -q -F -E nodiscard -b 4096 /dev/$sd0
mkdir -p /mnt/lun0 && mount -o noinit_itable /dev/$sd0 /mnt/lun0
dd if=/dev/urandom of=/mnt/lun0/data bs=1M count=24 status=none
sum=$(md5sum < /mnt/lun0/data)
rm -f /mnt/lun0/data2; dd if=/dev/urandom of=/mnt/lun0/data2 bs=64k count=5 status=none
sync
tb=$(fstrim -v /mnt/lun0 | sed -n 's/.*(\([0-9]*\) bytes) trimmed.*/\1/p')
umount /mnt/lun0
# ext4's free extents of >= 128 blocks (512 KiB), per block group
dumpe2fs /dev/$sd0 2>/dev/null | python3 -c '
import re, sys
for l in sys.stdin:
    m = re.match(r"\s*Free blocks: (.*)", l)
    if not m or not m.group(1).strip(): continue
    for r in m.group(1).split(","):
        a, _, b = r.strip().partition("-")
        a = int(a); b = int(b or a)
        if b - a + 1 >= 128: print(a * 8, (b - a + 1) * 8)' > /tmp/free.txt
want=$(awk '{s += $2} END {print s * 512}' /tmp/free.txt)
expect_eq "fstrim -v: bytes = ext4's free extents >= discard_granularity" "$tb" "$want"
expect_eq "GET LBA STATUS: deallocated blocks = those extents" \
	"$(cen 0 $blocks deallocated)" $((want / 512))
bad=0
while read -r l n; do
	[ "$(cen $l $n deallocated)" = "$n" ] || bad=$((bad + 1))
done < /tmp/free.txt
expect_eq "GET LBA STATUS: each of the $(wc -l < /tmp/free.txt) extents deallocated whole" $bad 0
expect_eq "log page 30h agrees with GET LBA STATUS" "$(st mapped_blocks)" "$(cen 0 $blocks mapped)"
check "e2fsck -fn after fstrim" e2fsck -fn /dev/$sd0
mount -o noinit_itable /dev/$sd0 /mnt/lun0
expect_eq "the file written before fstrim reads back" "$(md5sum < /mnt/lun0/data)" "$sum"
umount /mnt/lun0

# ---- 3. Linux-mode write hints: F_SET_RW_HINT -> GROUP NUMBER -----------
declare -A g0
for g in 0 1 2 3 4 5; do g0[$g]=$(st group_blocks_$g); done
i=0
for h in none short medium long extreme; do
	i=$((i + 1))
	$fwrite --file /dev/$sd0 --hint $h --bs 1M $((64 + 4 * i))M+4M >/dev/null ||
		fail "fhint-write --file --hint $h"
done
for g in 1 2 3 4 5; do
	expect_eq "F_SET_RW_HINT $g: blocks with GROUP NUMBER $g" \
		$(( $(st group_blocks_$g) - ${g0[$g]} )) 8192
done
# the same table through SG_IO: fhint's hint map = the kernel's
for g in 0 1 2 3 4 5; do g0[$g]=$(st group_blocks_$g); done
i=0
for h in none short medium long extreme; do
	i=$((i + 1))
	$fwrite --hint $h --bs 1M /dev/$sg0 $((96 + 4 * i))M+1M >/dev/null ||
		fail "fhint-write /dev/$sg0 --hint $h"
done
for g in 1 2 3 4 5; do
	expect_eq "fhint-write --hint over SG_IO: group $g as sd maps it" \
		$(( $(st group_blocks_$g) - ${g0[$g]} )) 2048
done
$vmtool stats /dev/$sg0 | python3 -c '
import json,sys; d=json.load(sys.stdin)
for g in range(6): print("#   group %d: %8d blocks, stream WA %.3f" % (g, d["group_blocks_%d" % g], d["group_wa_milli_%d" % g] / 1000))'

# STREAM CONTROL through tcm_loop (sg3_utils' sg_stream_ctl): a stream
# opened beside the permanent ones, written, closed (streams.md)
sid=$(sg_stream_ctl --open --brief /dev/$sg0 2>/dev/null)
expect_eq "sg_stream_ctl --open: the first stream after the 5 permanent" "${sid:-none}" 6
# (sg3_utils 1.46 lists one stream status descriptor fewer than it got:
# it takes PARAMETER DATA LENGTH as counting from byte 4; NUMBER OF OPEN
# STREAMS is read right)
nopen() { sg_stream_ctl --get /dev/$sg0 2>&1 | sed -n 's/^Number of open streams: //p'; }
expect_eq "sg_stream_ctl --get: NUMBER OF OPEN STREAMS 6" "$(nopen)" 6
g6=$(st group_blocks_6)
check "fhint-write --stream 6 through the opened stream" \
	$fwrite --stream 6 /dev/$sg0 120M+1M
expect_eq "the opened stream writes through group 6" $(( $(st group_blocks_6) - g6 )) 2048
check "sg_stream_ctl --close --id=6" sg_stream_ctl --close --id=6 /dev/$sg0
expect_eq "sg_stream_ctl --get after CLOSE: NUMBER OF OPEN STREAMS 5" "$(nopen)" 5
$fwrite --stream 6 /dev/$sg0 120M+1M >/dev/null 2>&1
expect_eq "fhint-write --stream 6 after CLOSE: the device refuses (exit 1)" $? 1
dmesg | grep "$sd0.*permanent stream count" | tail -1 | grep -q "= 5" &&
	ok "sd's permanent stream count with STREAM CONTROL beside: 5" ||
	fail "sd permanent stream count with streams=8"

# LOG SELECT through tcm_loop (sg3_utils' sg_logs --select --reset: PCR 1,
# PC 01b): the statistics count from zero, the state stays
m0=$(st mapped_blocks)
check "sg_logs --select --reset (LOG SELECT PCR)" sg_logs --select --reset /dev/$sg0
expect_eq "after LOG SELECT PCR: host blocks written" "$(st host_write_blocks)" 0
expect_eq "after LOG SELECT PCR: group 1 blocks" "$(st group_blocks_1)" 0
expect_eq "after LOG SELECT PCR: mapped blocks (state) kept" "$(st mapped_blocks)" "$m0"

# ANCHORED through tcm_loop with sg3_utils (SBC-4 4.7.3.4, 5.30, 5.8):
# sg_unmap --anchor leaves lun1's blocks anchored as sg_get_lba_status
# decodes them (provisioning status 2), a write maps them again (0)
sg1=$(sg_of "${sd1:-}" 2>/dev/null)
if [ -n "$sg1" ]; then
	check "sg_unmap --anchor (UNMAP with ANCHOR) on lun1" \
		sg_unmap --anchor --lba=1024 --num=256 /dev/$sg1
	expect_eq "sg_get_lba_status -bb after ANCHOR: anchored (2)" \
		"$(sg_get_lba_status -bb --lba=1100 /dev/$sg1 2>/dev/null)" 2
	check "reads of anchored blocks: zeros (LBPRZ 1)" cmp -n 4096 \
		<(dd if=/dev/$sd1 bs=4096 skip=1100 count=1 iflag=direct status=none) /dev/zero
	dd if=/dev/urandom of=/dev/$sd1 bs=4096 seek=1024 count=256 oflag=direct status=none
	expect_eq "sg_get_lba_status -bb after a write: mapped (0)" \
		"$(sg_get_lba_status -bb --lba=1100 /dev/$sg1 2>/dev/null)" 0
else
	fail "lun1 has no sg node for the ANCHOR checks"
fi

# ---- 6. unit attentions reach the initiator ------------------------------
for f in /sys/block/$sd0/device/evt_capacity_change_reported \
	 /sys/block/$sd0/device/evt_mode_parameter_change_reported \
	 /sys/block/${sd1:-$sd0}/device/evt_mode_parameter_change_reported; do
	{ echo 1 > "$f"; } 2>/dev/null
done
ua_dir=$(dirname $core/user_*/lun0/attrib)
echo $((320 << 20)) > "$ua_dir/attrib/dev_size" &&
	ok "reconfig dev_size 256 -> 320 MiB accepted" || fail "reconfig dev_size"
$fua --json /dev/$sg0 > /tmp/ua1.jsonl 2>/tmp/ua1.err
grep -q '"asc": *42, *"ascq": *9\|"asc":42,"ascq":9\|2A/09' /tmp/ua1.jsonl &&
	ok "fhint-ua (TEST UNIT READY) recorded CAPACITY DATA HAS CHANGED" ||
	{ fail "fhint-ua saw no 2A/09"; sed 's/^/#   /' /tmp/ua1.jsonl /tmp/ua1.err | head; }
$fua --uevents --follow --count 1 --interval 500 --output /tmp/ua2.jsonl &
uap=$!
ua_bound $uap	# its netlink socket is bound before the event
echo $((384 << 20)) > "$ua_dir/attrib/dev_size"
dd if=/dev/$sd0 of=/dev/null bs=4k count=1 iflag=direct status=none
for _ in $(seq 150); do [ -s /tmp/ua2.jsonl ] && break; sleep 0.2; done
kill $uap 2>/dev/null; wait $uap 2>/dev/null
grep -q "CAPACITY_DATA_HAS_CHANGED" /tmp/ua2.jsonl &&
	ok "kernel uevent SDEV_UA=CAPACITY_DATA_HAS_CHANGED recorded by fhint-ua --uevents" ||
	{ fail "no SDEV_UA uevent"; sed 's/^/#   /' /tmp/ua2.jsonl; dmesg | tail -5 | sed 's/^/#   /'; }
echo 1 > /sys/block/$sd0/device/rescan
expect_eq "sd sees the new capacity" "$(blockdev --getsize64 /dev/$sd0)" $((384 << 20))
if [ -n "${sd1:-}" ]; then
	$fua --uevents --follow --count 1 --interval 500 --output /tmp/ua3.jsonl &
	uap=$!
	ua_bound $uap
	echo "fhint/${cfg1/threshold=80/threshold=50}" > $core/user_9/lun1/attrib/dev_config &&
		ok "reconfig cfgstring threshold 80 -> 50 accepted" || fail "reconfig dev_config"
	dd if=/dev/$sd1 of=/dev/null bs=4k count=1 iflag=direct status=none
	for _ in $(seq 150); do [ -s /tmp/ua3.jsonl ] && break; sleep 0.2; done
	kill $uap 2>/dev/null; wait $uap 2>/dev/null
	grep -q "MODE_PARAMETERS_CHANGED" /tmp/ua3.jsonl &&
		ok "kernel uevent SDEV_UA=MODE_PARAMETERS_CHANGED recorded" ||
		{ fail "no MODE PARAMETERS CHANGED uevent"; sed 's/^/#   /' /tmp/ua3.jsonl; }
fi

# ---- 7. the Logical Block Provisioning mode page, soft threshold 38/07 ----
# lun1 (thin, 16384 blocks: threshold sets of 2, THRESHOLD EXPONENT 1):
# threshold=50 is THRESHOLD COUNT 4096 sets (SBC-4 6.5.8); sg_wr_mode
# (MODE SELECT, only changeable fields) sets 1 set, so the next write
# reaches it and sd reports THIN_PROVISIONING_SOFT_THRESHOLD_REACHED.
if [ -n "${sg1:-}" ]; then
	lbp_hex() {	# lbp_hex PC: the page's bytes, MODE SENSE(10) DBD
		sg_modes -d -r -c "$1" -p 0x1c,0x2 /dev/$sg1 2>/dev/null |
			od -An -v -tx1 | tr -s ' \n' ' ' |
			sed 's/.*\(5c 02 00 14\)/\1/;s/ $//'
	}
	z11='00 00 00 00 00 00 00 00 00 00 00'
	expect_eq "sg_modes 1Ch/02h of lun1: soft, increasing, used, 4096 sets" \
		"$(lbp_hex 0)" "5c 02 00 14 00 $z11 81 02 00 00 00 00 10 00"
	expect_eq "sg_modes 1Ch/02h changeable: SITUA, ENABLED, THRESHOLD COUNT" \
		"$(lbp_hex 1)" "5c 02 00 14 01 $z11 80 00 00 00 ff ff ff ff"
	expect_eq "VPD B2h THRESHOLD EXPONENT of lun1" \
		"$(sg_vpd -p lbpv -r /dev/$sg1 2>/dev/null | od -An -tu1 -j4 -N1 | tr -d ' ')" 1
	echo 1 > /sys/block/$sd1/device/evt_soft_threshold_reached 2>/dev/null
	check "sg_wr_mode sets THRESHOLD COUNT 1" sg_wr_mode -p 0x1c,0x2 \
		-c 5c,02,00,14,00,0,0,0,0,0,0,0,0,0,0,0,81,02,00,00,00,00,00,01 \
		/dev/$sg1
	expect_eq "THRESHOLD COUNT after MODE SELECT" \
		"$(lbp_hex 0)" "5c 02 00 14 00 $z11 81 02 00 00 00 00 00 01"
	$fua --uevents --follow --count 1 --interval 500 --output /tmp/ua4.jsonl &
	uap=$!
	ua_bound $uap
	dd if=/dev/urandom of=/dev/$sd1 bs=4k count=4 seek=9000 oflag=direct status=none
	dd if=/dev/$sd1 of=/dev/null bs=4k count=1 iflag=direct status=none
	for _ in $(seq 150); do [ -s /tmp/ua4.jsonl ] && break; sleep 0.2; done
	kill $uap 2>/dev/null; wait $uap 2>/dev/null
	grep -q "THIN_PROVISIONING_SOFT_THRESHOLD_REACHED" /tmp/ua4.jsonl &&
		ok "kernel uevent SDEV_UA=THIN_PROVISIONING_SOFT_THRESHOLD_REACHED recorded" ||
		{ fail "no soft threshold uevent"; sed 's/^/#   /' /tmp/ua4.jsonl; dmesg | tail -5 | sed 's/^/#   /'; }
	dmesg | grep -qi "thin provisioning soft threshold" &&
		ok "sd logged the soft threshold" || fail "no sd log line for 38/07"
else
	fail "lun1 has no sg node for the threshold checks"
fi

# ---- refused configurations: nothing half-made ---------------------------
# (one targetcli process for the three: each start costs seconds here)
cp /scratch/lun0.img.fhint-meta /scratch/other.meta 2>/dev/null
truncate -s 64M /scratch/other.img
o=$(tcli "/backstores/user:fhint create name=bad1 size=64M cfgstring=/scratch/b1.img?create=1&profile=nosuch" \
	"/backstores/user:fhint create name=bad2 size=64M cfgstring=/scratch/absent.img" \
	"/backstores/user:fhint create name=bad3 size=64M cfgstring=/scratch/other.img?meta=/scratch/other.meta" \
	"ls /backstores/user:fhint")
errs=$(echo "$o" | grep -i 'could not\|error\|fail\|invalid\|refus' | sed 's|^/> ||' | tr -d '\r')
i=0
for what in "unknown profile" "missing backing file" "metadata of another device"; do
	i=$((i + 1))
	if echo "$o" | grep -q "o- bad$i "; then
		fail "$what: targetcli made backstore bad$i"
	else
		ok "$what: refused ($(echo "$errs" | sed -n "${i}p" | cut -c1-110))"
	fi
done
grep -q "fhint: cannot open" /var/log/tcmu-runner.log &&
	ok "tcmu-runner's log says why" || fail "no fhint line in tcmu-runner.log"

# ---- fhint-conform against the LUN through tcm_loop ---------------------
name=fhint-tcm_loop
run_conform $name /dev/$sg0
[ $conform_rc -eq 0 ] && ok "fhint-conform $name: $conform_line" ||
	{ fail "fhint-conform $name"; grep -A2 "FAILED" "$out/conform.$name.log" | head -20 | sed 's/^/#   /'; }

# ---- 5. kill -9 tcmu-runner in a write stream ----------------------------
kill_tcmu_in_stream $sd0 $((128 << 11)) $((64 << 11)) "the LUN"

t_summary
