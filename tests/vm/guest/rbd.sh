# SPDX-License-Identifier: LGPL-2.1-or-later
# The fhint LUN on Ceph RBD behind LIO: tcmu-runner serves emulated LUNs
# whose data and journal live in a cluster on the host (check-vm.sh
# starts it, bound to the host's address, reached over QEMU's user
# networking), beside Debian's handler_rbd on the same pool.  Over iSCSI:
# iscsi-inq and fhint-conform as for the file-backed LUN;
# through tcm_loop: fio against handler_rbd (ratios), then a kill -9 of
# tcmu-runner in a write stream, a restart, and every chunk made durable
# read back.  spec-notes/ceph.md, "Behind LIO".
. "$(dirname "$0")/lib.sh"
set -u
work=$tree/tests/vm/work
iqn=iqn.2026-12.org.fhint:rbd
url=iscsi://127.0.0.1/$iqn
naa=naa.5001405fee100002
pool=rbd

if [ ! -f "$work/ceph/guest.conf" ]; then
	skip "fhint LUN on RBD" "no cluster on the host (check-vm.sh: $work/ceph.log)"
	t_summary
	exit 0
fi

# ---- the network to the host's cluster -----------------------------------
modprobe virtio_net 2>/dev/null
wait_for 10 ip link show eth0
ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 &&
	ip route add default via 10.0.2.2 || fail "guest network"
mkdir -p /etc/ceph
cp "$work/ceph/guest.conf" /etc/ceph/ceph.conf
mon=$(sed -n 's/^mon_host = \[v2:\([0-9.]*\):\([0-9]*\),.*/\1 \2/p' /etc/ceph/ceph.conf)
wait_for 10 timeout 2 bash -c "exec 3<>/dev/tcp/${mon% *}/${mon#* }" &&
	ok "the host's monitor answers at ${mon/ /:} over user networking" ||
	{ fail "no monitor at ${mon/ /:}"; t_summary; exit 1; }

scratch_fs || { fail "scratch file system"; t_summary; exit 1; }
start_tcmu || { fail "tcmu-runner on the bus"; t_summary; exit 1; }

# ---- LUNs: fhint on RBD over iSCSI and tcm_loop, handler_rbd -------------
# (targetcli: "fhint/?rbd=POOL/IMAGE", no ':' in a cfgstring there)
rbdcfg() { echo "?rbd=$pool/$1&create=1&timeout=30&$2"; }
o=$(tcli "set global auto_save_on_exit=false" \
	"/backstores/user:fhint create name=r0 size=64M cfgstring=$(rbdcfg vm-r0 'profile=flash&serial=fhintrbd0')" \
	"/backstores/user:fhint create name=rperf size=128M cfgstring=$(rbdcfg vm-rperf 'profile=thin&product=rbdperf')" \
	"/backstores/user:rbd create name=hrbd size=128M cfgstring=$pool/vm-hrbd" \
	"/iscsi create $iqn" \
	"/iscsi/$iqn/tpg1/luns create /backstores/user:fhint/r0" \
	"/iscsi/$iqn/tpg1 set attribute generate_node_acls=1 demo_mode_write_protect=0 authentication=0 cache_dynamic_acls=1" \
	"/loopback create $naa" \
	"/loopback/$naa/luns create /backstores/user:fhint/rperf" \
	"/loopback/$naa/luns create /backstores/user:rbd/hrbd" \
	"ls /backstores")
echo "$o" | grep -E "o- (r0|rperf|hrbd)" | sed 's/^/#   /'
for b in r0 rperf; do
	echo "$o" | grep -q "o- $b .*activated" &&
		ok "targetcli: user:fhint/$b on RBD image $pool/vm-$b" ||
		{ fail "user:fhint/$b"; grep -i "fhint" /var/log/tcmu-runner.log | tail -3 | sed 's/^/#   /'; }
done
echo "$o" | grep -q "o- hrbd .*activated" &&
	ok "targetcli: user:rbd/hrbd (handler_rbd) on $pool/vm-hrbd" ||
	fail "user:rbd/hrbd"

# ---- over iSCSI, as the file-backed LUN (iscsi.sh) ------------------------
wait_for 20 sh -c "grep -q ':0CBC ' /proc/net/tcp /proc/net/tcp6" ||
	fail "iSCSI portal"
o=$(iscsi-inq "$url/0" 2>&1)
echo "$o" | grep -q "FHINT" && ok "iscsi-inq: LUN 0 is the fhint LUN on RBD" ||
	{ fail "iscsi-inq"; echo "$o" | sed 's/^/#   /' | head; }
# (iscsi-test-cu is not run here: under TCG it took 11 minutes for 125 of
# its 215 tests on an RBD LUN; spec-notes/ceph.md)
FHINT_ISCSI_INITIATOR=iqn.2026-12.org.fhint:conform-rbd \
	run_conform fhint-rbd-iscsi "$url/0"
[ $conform_rc -eq 0 ] && ok "fhint-conform fhint-rbd-iscsi: $conform_line" ||
	{ fail "fhint-conform fhint-rbd-iscsi (exit $conform_rc): $conform_line"
	  grep -i "fail" "$out/conform.fhint-rbd-iscsi.log" | head -20 | sed 's/^/#   /'; }

# ---- fio: handler_fhint (RBD store) against handler_rbd, same pool -------
wait_for 20 sd_by_model rbdperf
sdf=$(sd_by_model rbdperf) && ok "tcm_loop: the fhint RBD LUN is /dev/$sdf" ||
	{ fail "rbdperf as /dev/sdX"; t_summary; exit 1; }
# handler_rbd's LUN: LUN 1 of this tcm_loop target (its SCSI address,
# tcm_loop's tpgt_1/address "HOST:0:TARGET")
addr=$(cat /sys/kernel/config/target/loopback/$naa/tpgt_1/address 2>/dev/null)
wait_for 20 ls /sys/class/scsi_device/$addr:1/device/block
sdr=$(ls /sys/class/scsi_device/$addr:1/device/block 2>/dev/null | head -1)
[ -n "$sdr" ] && ok "tcm_loop: the handler_rbd LUN is /dev/$sdr" ||
	fail "handler_rbd LUN as /dev/sdX"
secs=${FHINT_BENCH_SECONDS:-8}
rounds=${FHINT_BENCH_FIO_ROUNDS:-1}
# fio_run DEV RW BS QD: one figure, IOPS (4 KiB) or MB/s (1 MiB), to stdout
fio_run() {
	local dir=read
	case $2 in *write) dir=write ;; esac
	fio --name=f --filename="/dev/$1" --direct=1 --ioengine=libaio \
		--iodepth="$4" --rw="$2" --bs="$3" --size=128M \
		--runtime="$secs" --time_based --output-format=json 2>/dev/null |
	json "round(d['jobs'][0]['$dir']['iops'] if '$3' == '4k' else d['jobs'][0]['$dir']['bw_bytes'] / 1e6, 1)"
}
if [ -n "$sdr" ]; then
	# both images written whole first: reads go to the cluster (an
	# unwritten fhint block is a zero the model answers by itself)
	for d in $sdf $sdr; do
		dd if=/dev/urandom of=/dev/$d bs=1M count=128 oflag=direct status=none
	done
	log "largest transfer (max_hw_sectors_kb): fhint $(cat /sys/block/$sdf/queue/max_hw_sectors_kb) KiB, handler_rbd $(cat /sys/block/$sdr/queue/max_hw_sectors_kb) KiB"
	echo "# | fio, $secs s each run, $rounds round(s) | handler_fhint (RBD), mean (runs) | handler_rbd, mean (runs) | fhint / rbd |"
	echo "# | --- | ---: | ---: | ---: |"
	# iodepth 1 as well: how much of a gap is the round trips of one
	# command, how much commands in flight together
	for w in "randwrite 4k 16 IOPS" "randread 4k 16 IOPS" "write 1M 16 MB/s" \
		 "read 1M 16 MB/s" "randwrite 4k 1 IOPS" "randread 4k 1 IOPS"; do
		set -- $w
		# each round runs each LUN twice, in the order fhint, rbd,
		# rbd, fhint: a cluster that gets slower or faster over the
		# runs (the OSD still writing back the fill, or done with it)
		# favours neither; the figure is the mean of all runs
		fa="" fb=""
		for ((i = 0; i < rounds; i++)); do
			a1=$(fio_run $sdf $1 $2 $3) b1=$(fio_run $sdr $1 $2 $3)
			b2=$(fio_run $sdr $1 $2 $3) a2=$(fio_run $sdf $1 $2 $3)
			fa="$fa $a1 $a2" fb="$fb $b1 $b2"
		done
		read -r a b r < <(python3 -c "import sys
a, b = [[float(x) for x in s.split()] for s in sys.argv[1:3]]
a, b = sum(a) / len(a), sum(b) / len(b)
print('%.1f %.1f %.2f' % (a, b, a / b))" "$fa" "$fb" 2>/dev/null || echo "? ? ?")
		echo "# | $1 $2 iodepth $3, $4 | $a ($(echo $fa | tr ' ' ',')) | $b ($(echo $fb | tr ' ' ',')) | $r |"
		echo "$1 $2 $3 $4 $a $b $r" >> "$out/rbd.fio"
	done
	[ "$(wc -l < "$out/rbd.fio")" -eq 6 ] && ok "fio ran against both LUNs ($out/rbd.fio)" ||
		fail "fio figures"
fi

# ---- kill -9 tcmu-runner in a write stream, restart ----------------------
# the dead client holds the images' exclusive locks until its watch
# expires (osd_client_watch_timeout, 10 s on the test cluster): the
# handler's open waits for that, breaks the lock and replays
kill_tcmu_in_stream $sdf 0 $((64 << 11)) "the RBD LUN"
grep -q "waiting up to" /var/log/tcmu-runner.log &&
	ok "the restarted handler waited for the dead owner's lock" ||
	log "the restarted handler found the lock free"

t_summary
