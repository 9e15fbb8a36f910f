# SPDX-License-Identifier: LGPL-2.1-or-later
# fhint's tools against QEMU's own devices: NVMe, SATA on AHCI, virtio-scsi
# scsi-hd and virtio-blk, each discard=unmap on a raw image of the host.
# The host answers two requests through tests/vm/work: the qemu-img map of
# an image (where the holes are), and block_resize on the QEMU monitor.
. "$(dirname "$0")/lib.sh"
set -u

modprobe -a nvme ahci sd_mod sg virtio_scsi virtio_blk 2>/dev/null
wait_for 20 test -b /dev/nvme0n1
for d in /sys/block/sd*; do
	s=$(cat "$d/device/vpd_pg80" 2>/dev/null | tr -dc 'a-z0-9')
	case $(cat "$d/device/vendor" 2>/dev/null) in
	ATA*) sata=$(basename "$d") ;;
	QEMU*) scsi=$(basename "$d") ;;
	esac
done
nvme=nvme0n1
for v in nvme sata scsi; do
	[ -n "${!v:-}" ] && [ -b "/dev/${!v}" ] && ok "QEMU $v drive is /dev/${!v}" ||
		fail "QEMU $v drive not found ($(ls /sys/block | tr '\n' ' '))"
done
sata_sg=$(sg_of "$sata") scsi_sg=$(sg_of "$scsi")

# ---- fhint-probe: the limits QEMU was started with ----------------------
pj=$($probe --json /dev/$scsi 2>&1)
echo "$pj" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("#   scsi-hd B0h:", json.dumps(d.get("block_limits")))' 2>&1
mapfile -t pv < <(echo "$pj" | json "d['block_limits']['max_unmap_lba_count'] * 512" \
	"d['block_limits']['opt_unmap_granularity'] * 512" \
	"d['block_limits']['opt_transfer_length_granularity'] * 512" \
	"d['block_limits']['opt_transfer_length'] * 512" \
	"len(d['sysfs']['disagreements'])")
expect_eq "scsi-hd: MAXIMUM UNMAP LBA COUNT = max_unmap_size 8 MiB" "${pv[0]}" 8388608
expect_eq "scsi-hd: OPTIMAL UNMAP GRANULARITY = discard_granularity 64 KiB" "${pv[1]:-}" 65536
expect_eq "scsi-hd: OPTIMAL TRANSFER LENGTH GRANULARITY = min_io_size 4 KiB" "${pv[2]:-}" 4096
expect_eq "scsi-hd: OPTIMAL TRANSFER LENGTH = opt_io_size 1 MiB" "${pv[3]:-}" 1048576
expect_eq "scsi-hd: fhint-probe and Linux's sysfs agree" "${pv[4]:-}" 0
nj=$($probe --json /dev/$nvme 2>&1)
echo "$nj" | sed 's/^/#   /' | grep -E '"(dmrl|dmrsl|dmsl|npdg|npda|lba_bytes|dlfeat|oncs|mdts|wz_deac)"'
mapfile -t nv < <(echo "$nj" | json "d.get('nvme', d)['lba_bytes']" \
	"d.get('nvme', d)['npdg']" "d.get('nvme', d)['dsm']")
expect_eq "nvme: LBA data size = logical_block_size 4096" "${nv[0]}" 4096
expect_eq "nvme: NPDG = discard_granularity 4096 / 4096" "${nv[1]:-}" 1
expect_eq "nvme: ONCS says Dataset Management" "${nv[2]:-}" True
$probe --ata /dev/$sata 2>&1 | sed 's/^/#   /'
aj=$($probe --json --ata /dev/$sata 2>&1)
expect_eq "ahci: IDENTIFY word 169 TRIM (through SAT)" \
	"$(echo "$aj" | json "d['ata']['trim']")" True

# ---- fhint-trim: 1000 scattered ranges, exactly those become holes ------
# Each image: the first 128 MiB hold data (the host wrote it before the
# boot: holes can only appear where data was), then 1000 ranges of 64 KiB
# at a 128 KiB stride are discarded.
python3 -c '
for i in range(1000): print("%dK+64K" % (i * 128))' > /tmp/ranges.txt
for v in nvme sata scsi; do
	dev=/dev/${!v}
	img=$v; [ $v = sata ] && img=ahci
	t0=$EPOCHREALTIME
	tj=$($trim --json --force --in /tmp/ranges.txt $dev 2>&1)
	t1=$EPOCHREALTIME
	{ read -r n; read -r m; } < <(echo "$tj" | json "d['commands_sent']" "d['method']" 2>&1) ||
		$trim -v --dry-run --in /tmp/ranges.txt $dev 2>&1 | head -5 | sed 's/^/#   /'
	log "$v: fhint-trim $m, $n commands for 1000 ranges, $(( (${t1/./} - ${t0/./}) / 1000 )) ms"
	case $m in
	nvme-dsm) want=4 ;;			# 256 ranges per DSM
	unmap)	# per UNMAP: at most MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT
		# descriptors and MAXIMUM UNMAP LBA COUNT blocks in all
		want=$(echo "$pj" | json "max(-(-1000 // d['block_limits']['max_unmap_block_descriptor_count']), -(-1000 * 128 // d['block_limits']['max_unmap_lba_count']))") ;;
	ata-trim)	# 64 entries per 512-byte block, IDENTIFY word 105
		# blocks per command (0: not reported, one block)
		want=$(echo "$aj" | json "-(-1000 // (64 * max(1, d['ata']['max_dsm_blocks'])))") ;;
	*) want="?" ;;
	esac
	expect_eq "$v: fhint-trim ($m) commands for 1000 ranges" "$n" "$want"
	map=$(host_req map $img)
	r=$(echo "$map" | python3 -c '
import json, sys
ext = json.load(sys.stdin)
def hole(a, b):	# [a, b) has no data on the host
    return all(not e["data"] for e in ext if e["start"] < b and e["start"] + e["length"] > a)
def data(a, b):
    return all(e["data"] for e in ext if e["start"] < b and e["start"] + e["length"] > a)
bad = [i for i in range(1000) if not hole(i * 131072, i * 131072 + 65536)]
kept = [i for i in range(1000) if not data(i * 131072 + 65536, (i + 1) * 131072)]
print(len(bad), len(kept))')
	expect_eq "$v: qemu-img map: the 1000 asked ranges are holes, the 1000 gaps between still data (bad, lost)" "$r" "0 0"
	dd if=$dev bs=64K count=1 skip=2 iflag=direct status=none | cmp -s - <(head -c 65536 /dev/zero) &&
		ok "$v: a discarded range reads zeros" || fail "$v: discarded range does not read zeros"
done

# ---- scsi-hd: partial granules are sent, cuts only on granules ----------
# 700 ranges of 56 KiB inside the data left between the holes above, 4 KiB
# aligned but none a whole 64 KiB granule: the default policy sends them
# all and counts them as partial; an UNMAP filled to MAXIMUM UNMAP LBA
# COUNT (8 MiB) closes where a range would be cut off a granule boundary
# (QEMU keeps a 4 KiB block mapped that a cut splits)
python3 -c '
for i in range(700): print("%dK+56K" % (i * 128 + 68))' > /tmp/ranges-part.txt
pj2=$($trim --json --force --in /tmp/ranges-part.txt /dev/$scsi 2>&1)
mapfile -t pp < <(echo "$pj2" | json "d['policy']" "d['blocks_partial'] == d['blocks_sent'] == 700 * 112" "d['commands_sent']")
expect_eq "scsi-hd: the default policy sends partial granules and counts them (policy, all partial)" \
	"${pp[0]:-} ${pp[1]:-}" "exact True"
map=$(host_req map scsi)
r=$(echo "$map" | python3 -c '
import json, sys
ext = json.load(sys.stdin)
def hole(a, b):
    return all(not e["data"] for e in ext if e["start"] < b and e["start"] + e["length"] > a)
def data(a, b):
    return all(e["data"] for e in ext if e["start"] < b and e["start"] + e["length"] > a)
K = 1024
bad = [i for i in range(700) if not hole(i * 128 * K + 68 * K, i * 128 * K + 124 * K)]
kept = [i for i in range(700) if not (data(i * 128 * K + 64 * K, i * 128 * K + 68 * K) and data(i * 128 * K + 124 * K, (i + 1) * 128 * K))]
print(len(bad), len(kept))')
expect_eq "scsi-hd: qemu-img map: 700 sub-granule ranges over ${pp[2]:-?} UNMAPs are holes, not one block kept at a command boundary (bad, lost)" "$r" "0 0"

# ---- the block layer: virtio-blk (no SG_IO), NVMe's block node ---------
# holes where asked (qemu-img map), the device commands the discard
# counters of /sys/block/X/stat saw against the plan's prediction of what
# the block layer can merge (max_discard_segments, discard_max_bytes)
wait_for 20 grep -qs fhintvblk /sys/block/vd*/serial
for d in /sys/block/vd*; do
	[ "$(cat $d/serial 2>/dev/null)" = fhintvblk ] && vblk=$(basename $d)
done
[ -n "${vblk:-}" ] && ok "QEMU virtio-blk drive is /dev/$vblk" ||
	fail "QEMU virtio-blk drive not found ($(ls /sys/block | tr '\n' ' '))"
vblk=${vblk:-vdb}
bj=$($probe --json /dev/$vblk 2>&1)
echo "$bj" | sed 's/^/#   /' | grep -E '"(discard_granularity|discard_max_bytes|max_discard_segments|logical_block_size)"'
mapfile -t bv < <(echo "$bj" | json "d['transport']" \
	"d['block']['discard_granularity'] == int(open('/sys/block/$vblk/queue/discard_granularity').read())" \
	"d['block']['max_discard_segments'] == int(open('/sys/block/$vblk/queue/max_discard_segments').read())")
expect_eq "virtio-blk: fhint-probe without SG_IO reads the kernel's queue limits" \
	"${bv[*]:-}" "block True True"
# nvme: its first 1000 stripes are holes by now; these 32 KiB ranges lie
# in the data between them
python3 -c '
for i in range(1000): print("%dK+32K" % (i * 128 + 96))' > /tmp/ranges-nb.txt
for v in vblk nvme; do
	dev=/dev/${!v} rf=/tmp/ranges.txt meth= img=$v
	[ $v = nvme ] && { rf=/tmp/ranges-nb.txt; meth="--method blkdiscard"; }
	t0=$EPOCHREALTIME
	tj=$($trim --json --force $meth --in $rf $dev 2>&1)
	t1=$EPOCHREALTIME
	mapfile -t bt < <(echo "$tj" | json "d['method']" "d['commands_planned']" \
		"d['device_commands']" "d['io_uring']" "d['blocks_sent'] * d['logical_block_size']")
	log "$v (block layer): ${bt[0]:-?}, ${bt[1]:-?} commands planned, ${bt[2]:-?} counted in stat, io_uring ${bt[3]:-?}, $(( (${t1/./} - ${t0/./}) / 1000 )) ms"
	[ -n "${bt[1]:-}" ] || echo "$tj" | head -20 | sed 's/^/#   /'
	expect_eq "$v: fhint-trim through the block layer (blkdiscard, io_uring)" \
		"${bt[0]:-} ${bt[3]:-}" "blkdiscard True"
	expect_eq "$v: the device commands /sys/block/${!v}/stat counted = the plan's (what the block layer merges)" \
		"${bt[2]:-x}" "${bt[1]:-y}"
	map=$(host_req map $img)
	r=$(echo "$map" | python3 -c '
import json, sys
ext = json.load(sys.stdin)
off, ln = (96, 32) if sys.argv[1] == "nvme" else (0, 64)
def hole(a, b):
    return all(not e["data"] for e in ext if e["start"] < b and e["start"] + e["length"] > a)
def data(a, b):
    return all(e["data"] for e in ext if e["start"] < b and e["start"] + e["length"] > a)
K = 1024
bad = [i for i in range(1000) if not hole(i * 128 * K + off * K, i * 128 * K + (off + ln) * K)]
kept = [i for i in range(1000) if not data(i * 128 * K + 64 * K, i * 128 * K + (off if off else 128) * K)]
print(len(bad), len(kept))' $v)
	expect_eq "$v: qemu-img map: the 1000 ranges sent through the block layer are holes, the data beside them stays (bad, lost)" "$r" "0 0"
done

# ---- fhint-write: hints where the device has none ----------------------
$fwrite --hint short --bs 64K /dev/$nvme 0+64K >/dev/null 2>/tmp/w.err
expect_eq "fhint-write --hint on QEMU nvme (no streams, no FDP): exit 4" $? 4
$fwrite --placement 1 --bs 64K /dev/$nvme 0+64K >/dev/null 2>>/tmp/w.err
expect_eq "fhint-write --placement on QEMU nvme without FDP: exit 4" $? 4
sed 's/^/#   /' /tmp/w.err
$fwrite --verify --bs 64K /dev/$scsi_sg 0+1M >/dev/null 2>&1
expect_eq "fhint-write --verify on scsi-hd" $? 0

# ---- fhint-ua: the capacity change QEMU raises after block_resize -------
$fua --uevents --follow --count 1 --interval 500 --output /tmp/ua-ev.jsonl &
uap=$!
ua_bound $uap
r=$(host_req resize vhd.$((1536 << 20)))
log "block_resize: $r"
for _ in $(seq 150); do [ -s /tmp/ua-ev.jsonl ] && break; sleep 0.2; done
kill $uap 2>/dev/null; wait $uap 2>/dev/null
$fua --json /dev/$scsi_sg > /tmp/ua-tur.jsonl 2>&1
sed 's/^/#   /' /tmp/ua-ev.jsonl /tmp/ua-tur.jsonl
if grep -q "CAPACITY_DATA_HAS_CHANGED" /tmp/ua-ev.jsonl || grep -q '"asc": *42, *"ascq": *9' /tmp/ua-tur.jsonl; then
	ok "fhint-ua recorded the capacity change of scsi-hd after block_resize"
else
	fail "fhint-ua saw no capacity change after block_resize"
fi

for v in sata scsi; do
	sg=$(sg_of ${!v})
	a=$($probe --json /dev/${!v} 2>&1 | grep -v '"target"\|"sysfs"' | md5sum)
	b=$($probe --json --kernel-dev ${!v} /dev/$sg 2>&1 | grep -v '"target"\|"sysfs"' | md5sum)
	[ "$a" = "$b" ] && ok "$v: fhint-probe reads the same through /dev/${!v} and /dev/$sg" ||
		{ fail "$v: fhint-probe /dev/${!v} vs /dev/$sg"; strace -f -e trace=ioctl -e verbose=ioctl -s 64 -X raw $probe /dev/$sg 2>&1 | tail -12 | sed 's/^/#   /'; }
done

# ---- fhint-conform against each QEMU device (destructive, whole) --------
# (the three at once: they wait on QEMU's device models, not on one CPU)
for t in scsi-hd:/dev/$scsi_sg ahci:/dev/$sata_sg nvme:/dev/$nvme; do
	run_conform_bg qemu-${t%%:*} "${t#*:}"
done
wait $conform_pids
for name in qemu-scsi-hd qemu-ahci qemu-nvme; do
	conform_collect $name
	conform_peer $name
done
t_summary
