# SPDX-License-Identifier: LGPL-2.1-or-later
# make bench-vm (the benchmarks' VM part): in one boot, on one guest,
#  1. fio against the fhint LUN (default configuration, and a second one
#     with direct=128K: large writes O_DIRECT), LIO fileio and tcmu-runner's
#     handler_qcow, all through tcm_loop: 4 KiB random write / read IOPS,
#     1 MiB sequential write bandwidth; ratios fhint / peer (median of
#     repeats);
#  2. scattered multi-range trim: fhint-trim against per-range loops
#     (sg_unmap, blkdiscard), hdparm --trim-sector-ranges and nvme dsm on
#     QEMU's scsi-hd, ahci and nvme and on the fhint LUN: commands and time;
#  3. inline trim: fio random writes alone, then with multi-range UNMAPs of
#     the data fio writes interleaved (fhint-vmtool trimloop: as many bytes
#     per second as fio wrote alone, in 4 KiB ranges, MAXIMUM UNMAP BLOCK
#     DESCRIPTOR COUNT of them per UNMAP, and in 64 KiB ones, 1/16 as many
#     per UNMAP at the same UNMAP rate), and with the same process sending
#     as many UNMAPs with empty parameter lists (the harness's own cost):
#     throughput ratios, from separate runs and from paired windows of
#     one run.
# Writes $out/bench-vm.json and $out/bench-vm.md.  Figures, not assertions:
# the TAP lines only say each step ran.
. "$(dirname "$0")/lib.sh"
set -u
work=$tree/tests/vm/work
REPS=${FHINT_BENCH_REPS:-6}	# the backstores take turns going first
RUNTIME=${FHINT_BENCH_RUNTIME:-6}
res=/tmp/bench.jsonl
: > $res
rec() { echo "$1" >> $res; }
# FHINT_BENCH_PARTS: which parts run (default all: fio trim inline);
# FHINT_BENCH_FHINT_CFG: "&KEY=VALUE..." added to the fhint LUN's
# configuration (experiments; the report names it)
want() { case " ${FHINT_BENCH_PARTS:-fio trim inline} " in *" $1 "*) return 0 ;; esac; return 1; }

scratch_fs || { fail "scratch"; t_summary; exit 1; }
[ -n "${FHINT_BENCH_FHINT_CFG:-}" ] &&
	rec "{\"part\": \"config\", \"fhint_cfg\": \"$FHINT_BENCH_FHINT_CFG\"}"

start_tcmu || { fail "tcmu-runner"; t_summary; exit 1; }
modprobe -a nvme ahci virtio_scsi 2>/dev/null
cp "$work/bench.qcow2" /scratch/q0.qcow2
truncate -s 512M /scratch/fio0.img
tcli "set global auto_save_on_exit=false" \
	"/backstores/user:fhint create name=f0 size=512M cfgstring=/scratch/f0.img?create=1&profile=flash&product=benchfhint${FHINT_BENCH_FHINT_CFG:-}" \
	"/backstores/user:fhint create name=f1 size=512M cfgstring=/scratch/f1.img?create=1&profile=flash&product=benchdirect&direct=128K" \
	"/backstores/fileio create name=fio0 file_or_dev=/scratch/fio0.img size=512M" \
	"/backstores/user:qcow create name=q0 size=512M cfgstring=/scratch/q0.qcow2" \
	"/loopback create naa.5001405fee100009" \
	"/loopback/naa.5001405fee100009/luns create /backstores/user:fhint/f0" \
	"/loopback/naa.5001405fee100009/luns create /backstores/user:fhint/f1" \
	"/loopback/naa.5001405fee100009/luns create /backstores/fileio/fio0" \
	"/loopback/naa.5001405fee100009/luns create /backstores/user:qcow/q0" > /dev/null
sleep 3
declare -A DEV
for d in /sys/block/sd*; do
	m=$(cat $d/device/model 2>/dev/null); v=$(cat $d/device/vendor 2>/dev/null)
	case "$v/$m" in
	*benchfhint*) DEV[fhint]=$(basename $d) ;;
	*benchdirect*) DEV[direct]=$(basename $d) ;;
	LIO-ORG*/fio0*) DEV[fileio]=$(basename $d) ;;	# LIO: model = backstore name
	LIO-ORG*/TCMU*) DEV[qcow]=$(basename $d) ;;
	ATA*) DEV[ahci]=$(basename $d) ;;
	QEMU*) DEV[scsihd]=$(basename $d) ;;
	esac
done
DEV[nvme]=nvme0n1
# the block layer's way: virtio-blk (no SG_IO), and the NVMe namespace's
# block node through io_uring instead of passthrough
modprobe virtio_blk 2>/dev/null
wait_for 20 grep -qs fhintvblk /sys/block/vd*/serial
for d in /sys/block/vd*; do
	[ "$(cat $d/serial 2>/dev/null)" = fhintvblk ] && DEV[vblk]=$(basename $d)
done
DEV[nvmeblk]=nvme0n1
for k in fhint direct fileio qcow; do
	q=/sys/block/${DEV[$k]:-none}/queue
	[ -d $q ] && log "$k: max_sectors_kb $(cat $q/max_sectors_kb), max_hw_sectors_kb $(cat $q/max_hw_sectors_kb), nr_requests $(cat $q/nr_requests)"
done
for k in fhint direct fileio qcow ahci scsihd nvme; do
	[ -n "${DEV[$k]:-}" ] && ok "bench device $k = /dev/${DEV[$k]}" ||
		fail "bench device $k not found ($(for d in /sys/block/sd*; do echo -n "$(basename $d):$(cat $d/device/vendor)/$(cat $d/device/model) "; done))"
done

# ---- 1. fio ----------------------------------------------------------------
# Before every run: the dirty pages of the backing files (ext4 in the guest)
# go to disk, so that no run pays for the writeback of the one before it.
settle() { sync; }
# Where the CPU goes during a run (the guest is CPU-bound under TCG): the
# guest's idle and busy ticks (/proc/stat) and tcmu-runner's (user +
# system), as "idle busy runner".
cpu_ticks() {
	local p
	p=$(pidof tcmu-runner)
	echo "$(awk '/^cpu /{print $5 + $6, $2 + $3 + $4 + $7 + $8}' /proc/stat) $(awk '{print $14 + $15}' /proc/$p/stat)"
}
cpu_json() {	# cpu_json "BEFORE" "AFTER" -> JSON fields
	set -- $1 $2
	echo "\"idle_ticks\": $(($4 - $1)), \"busy_ticks\": $(($5 - $2)), \"runner_ticks\": $(($6 - $3)), \"hz\": $(getconf CLK_TCK)"
}
fio_one() {	# fio_one DEV RW BS DEPTH -> iops bw_bytes
	fio --name=b --filename=/dev/$1 --rw=$2 --bs=$3 --iodepth=$4 \
		--ioengine=libaio --direct=1 --size=256M --runtime=$RUNTIME \
		--time_based --ramp_time=1 --norandommap --randrepeat=0 \
		--output-format=json 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
s = j["write"] if j["write"]["io_bytes"] else j["read"]
print("%.1f %d" % (s["iops"], s["bw_bytes"]))' 2>/dev/null
}
if want fio; then
for k in fhint direct fileio qcow; do
	[ -n "${DEV[$k]:-}" ] || continue
	# a backstore that fails its fill (a peer's write error) is left
	# out, and the report shows "-" for it
	dd if=/dev/zero of=/dev/${DEV[$k]} bs=4M count=64 oflag=direct status=none ||
		{ log "$k: the fill of /dev/${DEV[$k]} failed; left out of the fio runs"; unset "DEV[$k]"; }
done
order=(fhint direct fileio qcow)
for r in $(seq $REPS); do
	for w in "randwrite 4k 16" "randread 4k 16" "write 1M 4"; do
		set -- $w
		# interleaved (drift hits all alike), and each repeat starts
		# with the next backstore: each takes each place as often
		for k in "${order[@]}"; do
			[ -n "${DEV[$k]:-}" ] || continue
			settle
			c0=$(cpu_ticks)
			o=$(fio_one ${DEV[$k]} $1 $2 $3)
			c1=$(cpu_ticks)
			[ -n "$o" ] || { log "$k $1 $2: fio gave no result"; continue; }
			rec "{\"part\": \"fio\", \"target\": \"$k\", \"rw\": \"$1\", \"bs\": \"$2\", \"rep\": $r, \"iops\": ${o% *}, \"bw\": ${o#* }, $(cpu_json "$c0" "$c1")}"
		done
	done
	order=("${order[@]:1}" "${order[0]}")
done
ok "fio: $REPS repeats x 3 workloads x 4 backstores"
fi

# ---- 2. scattered multi-range trim ---------------------------------------
if want trim; then
N=10000 SAMPLE=${FHINT_BENCH_SAMPLE:-300}
python3 -c "
for i in range($N): print('%dK+16K' % (i * 32))" > /tmp/r10k.txt
head -$SAMPLE /tmp/r10k.txt > /tmp/rs.txt
fill() { dd if=/dev/urandom of=/dev/$1 bs=1M count=$(( N * 32 / 1024 + 1 )) oflag=direct status=none; }
now() { date +%s.%N; }
for k in fhint scsihd ahci nvme vblk nvmeblk; do
	dev=${DEV[$k]:-}; [ -n "$dev" ] || continue
	fill $dev
	# --policy exact: every range sent as asked, as the per-range tools do;
	# the block layer's commands are what the device's stat file counted
	meth=; [ $k = nvmeblk ] && meth="-m blkdiscard"
	t0=$(now); j=$($trim --json --force --policy exact $meth --in /tmp/r10k.txt /dev/$dev 2>/dev/null); t1=$(now)
	n=$(echo "$j" | json "d.get('device_commands') or d['commands_sent']") m=$(echo "$j" | json "d['method']")
	rec "{\"part\": \"trim\", \"target\": \"$k\", \"tool\": \"fhint-trim ($m)\", \"ranges\": $N, \"commands\": $n, \"seconds\": $(python3 -c "print($t1 - $t0)")}"
	fill $dev
	t0=$(now)
	while read -r r; do s=${r%K+*}; blkdiscard -o $((s * 1024)) -l 16384 /dev/$dev; done < /tmp/rs.txt
	t1=$(now)
	rec "{\"part\": \"trim\", \"target\": \"$k\", \"tool\": \"blkdiscard per range\", \"ranges\": $SAMPLE, \"commands\": $SAMPLE, \"seconds\": $(python3 -c "print($t1 - $t0)")}"
	case $k in
	fhint|scsihd)
		sg=$(sg_of $dev) lbs=$(cat /sys/block/$dev/queue/logical_block_size)
		t0=$(now)
		while read -r r; do s=${r%K+*}; sg_unmap -f --lba=$((s * 1024 / lbs)) --num=$((16384 / lbs)) /dev/$sg >/dev/null 2>&1; done < /tmp/rs.txt
		t1=$(now)
		rec "{\"part\": \"trim\", \"target\": \"$k\", \"tool\": \"sg_unmap per range\", \"ranges\": $SAMPLE, \"commands\": $SAMPLE, \"seconds\": $(python3 -c "print($t1 - $t0)")}"
		;;
	ahci)
		args=$(awk -F'K[+]' '{printf "%d:%d ", $1 * 2, 32}' /tmp/r10k.txt)
		t0=$(now)
		# shellcheck disable=SC2086
		hdparm --please-destroy-my-drive --trim-sector-ranges $args /dev/$dev >/dev/null 2>&1
		t1=$(now)
		rec "{\"part\": \"trim\", \"target\": \"$k\", \"tool\": \"hdparm --trim-sector-ranges\", \"ranges\": $N, \"commands\": null, \"seconds\": $(python3 -c "print($t1 - $t0)")}"
		;;
	nvme)
		lbs=$(cat /sys/block/$dev/queue/logical_block_size)
		t0=$(now)
		python3 -c "
import subprocess
r = [int(l.split('K+')[0]) * 1024 // $lbs for l in open('/tmp/r10k.txt')]
for i in range(0, len(r), 256):
    c = r[i:i + 256]
    subprocess.run(['nvme', 'dsm', '/dev/$dev', '-n', '1', '--ad',
                    '-s', ','.join(map(str, c)),
                    '-b', ','.join([str(16384 // $lbs)] * len(c))],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)"
		t1=$(now)
		rec "{\"part\": \"trim\", \"target\": \"$k\", \"tool\": \"nvme dsm (256 per call)\", \"ranges\": $N, \"commands\": $(( (N + 255) / 256 )), \"seconds\": $(python3 -c "print($t1 - $t0)")}"
		;;
	esac
done
ok "multi-range trim: fhint-trim and the per-range peers"
fi

# ---- 3. inline trim on the fhint LUN ---------------------------------------
if want inline; then
d=${DEV[fhint]}
sg=$(sg_of $d)
dd if=/dev/urandom of=/dev/$d bs=4M count=64 oflag=direct status=none
# The LUN's MAXIMUM UNMAP BLOCK DESCRIPTOR COUNT: one UNMAP carries that
# many ranges (what multi-range inline trim is for).
ndesc=$($probe --json /dev/$sg | json "d['block_limits']['max_unmap_block_descriptor_count']")
# Ranges per UNMAP for ranges of RANGE blocks: the LUN's most for 4 KiB
# ranges; for larger ones as many bytes per UNMAP (1/16 the ranges of 64
# KiB), so every range size sends UNMAPs at the same rate.
per_unmap() { local n=$((ndesc * 8 / $1)); [ $n -gt $ndesc ] && n=$ndesc; [ $n -lt 1 ] && n=1; echo $n; }
# Microseconds between UNMAPs for ranges of RANGE blocks: as many bytes
# a second as fio wrote alone ($a0 IOPS, measured below).
trim_period() { python3 -c "print(max(1000, int($(per_unmap $1) * $1 / 8 * 1e6 / max($a0, 1.0))))"; }
# fio's job for the inline part: 4 KiB random writes on the first 256 MiB
w4k=(--name=b --filename=/dev/$d --rw=randwrite --bs=4k --iodepth=16
	--ioengine=libaio --direct=1 --offset=0 --size=256M --time_based
	--norandommap --randrepeat=0)
inline() {	# inline alone|empty|trim PERIOD_US RANGE LBA -> write iops of fio
	# on the first 256 MiB: alone; while fhint-vmtool trimloop sends
	# UNMAPs with an empty parameter list every PERIOD_US (the same
	# command stream, nothing to deallocate); or while it deallocates
	# per_unmap RANGE random ranges of RANGE blocks from LBA every
	# PERIOD_US
	local tp= c0 nd=$(per_unmap $3)
	c0=$(cpu_ticks)
	[ "$1" = empty ] && nd=0
	if [ "$1" != alone ]; then
		$vmtool trimloop /dev/$sg $4 524288 $nd $2 $3 > /tmp/it.json &
		tp=$!
	fi
	fio "${w4k[@]}" --runtime=$RUNTIME --ramp_time=1 \
		--output-format=json 2>/dev/null | python3 -c '
import json, sys; print("%.1f" % json.load(sys.stdin)["jobs"][0]["write"]["iops"])'
	if [ -n "$tp" ]; then
		kill $tp 2>/dev/null; wait $tp 2>/dev/null
		json "d['unmaps']" < /tmp/it.json > /tmp/it.count.$1
	fi
	cpu_json "$c0" "$(cpu_ticks)" > /tmp/it.cpu.$1
}
# The trim rate, from one untimed run of fio alone: as many bytes per
# second as it writes.  Ranges of 8 blocks (4 KiB: one range per written
# block, the most ranges a steady state can send) and of 128 (64 KiB, the
# LUN's reclaim chunk: extents as a file system frees them, 1/16 the
# ranges, and every one gives its chunk back to the host file system).
# "8u": the 4 KiB UNMAPs on the second 256 MiB, which nothing ever wrote
# (the LUN has nothing to deallocate).  Every repeat runs fio alone, with
# the empty UNMAP stream and with the trims, in rotating order: the
# empty stream is the harness's own cost (a second process sending
# commands through sg, SCSI, tcm_loop, LIO and TCMU), trims / empty what
# deallocating costs on top of it.
settle
a0=$(inline alone 0 8 0)
for v in ${FHINT_BENCH_INLINE_RANGES:-8 128}; do
range=${v%u} lba=0 unw=false
[ "$v" != "$range" ] && lba=524288 unw=true
nd=$(per_unmap $range)
period=$(trim_period $range)
for r in $(seq ${FHINT_BENCH_INLINE_REPS:-7}); do
	rm -f /tmp/it.count.*
	case $((r % 3)) in
	1) order="alone empty trim" ;;
	2) order="empty trim alone" ;;
	*) order="trim alone empty" ;;
	esac
	for k in $order; do
		settle; inline $k $period $range $lba > /tmp/it.iops.$k
	done
	rec "{\"part\": \"inline\", \"rep\": $r, \"range_blocks\": $range, \"unwritten\": $unw, \"write_iops\": $(cat /tmp/it.iops.alone), \"write_iops_empty_unmaps\": $(cat /tmp/it.iops.empty), \"write_iops_with_trim\": $(cat /tmp/it.iops.trim), \"unmaps\": $(cat /tmp/it.count.trim 2>/dev/null || echo 0), \"empty_unmaps\": $(cat /tmp/it.count.empty 2>/dev/null || echo 0), \"ranges_per_unmap\": $nd, \"period_us\": $period, \"cpu_alone\": {$(cat /tmp/it.cpu.alone)}, \"cpu_empty\": {$(cat /tmp/it.cpu.empty)}, \"cpu_trim\": {$(cat /tmp/it.cpu.trim)}}"
done
done
ok "inline trim: ${FHINT_BENCH_INLINE_REPS:-7} repeats per range size ($ndesc ranges per UNMAP)"

# Paired windows: the separate runs above differ by about 10 % from one
# repeat to the next (the shared host), more than the cost sought.  Here
# one fio run of FHINT_BENCH_DUTY_S seconds (default 120) writes while
# trimloop spends 2 s sending nothing and 2 s sending UNMAPs, by turns,
# and counts the writes the block device completed in each window
# (/sys/block/sdX/stat): every window with UNMAPs is compared with the
# windows without on either side of it, seconds apart.  "empty": the empty-UNMAP stream at the 4 KiB
# trims' rate.
for v in ${FHINT_BENCH_DUTY:-empty 8 128}; do
	range=$v
	[ "$v" = empty ] && range=8
	period=$(trim_period $range)
	nd=$(per_unmap $range)
	[ "$v" = empty ] && nd=0
	settle
	$vmtool trimloop /dev/$sg 0 524288 $nd $period $range 2000 \
		/sys/block/$d/stat > /tmp/duty.out &
	tp=$!
	fio "${w4k[@]}" --runtime=${FHINT_BENCH_DUTY_S:-120} >/dev/null 2>&1
	kill $tp 2>/dev/null; wait $tp 2>/dev/null
	rec "{\"part\": \"duty\", \"kind\": \"$([ $nd = 0 ] && echo empty || echo trim)\", \"range_blocks\": $range, \"ranges_per_unmap\": $nd, \"period_us\": $period, \"phase_ms\": 2000, \"phases\": [$(grep '"phase"' /tmp/duty.out | paste -sd,)]}"
done
ok "inline trim, paired windows: ${FHINT_BENCH_DUTY:-empty 8 128}"
fi

python3 "$tree/tests/vm/guest/bench_report.py" $res "$out/bench-vm.json" $RUNTIME > "$out/bench-vm.md"
sed 's/^/# /' "$out/bench-vm.md"
t_summary
