# SPDX-License-Identifier: LGPL-2.1-or-later
# The write cliff behind LIO (make bench-vm; alone: make bench-vm
# BENCH_VM_SUITES=cliff): a timed fhint LUN (timing=emmc&dies=1, real clock)
# through tcmu-runner and tcm_loop, SNIA SSS PTS style:
#  1. purge: blkdiscard of the whole LUN (UNMAP);
#  2. precondition: one sequential pass of 128 KiB writes (fio): fresh out
#     of box, its 4 KiB pages a second are the fresh IOPS;
#  3. 4 KiB random writes at queue depth 32 (fio, libaio, O_DIRECT) with
#     --write_iops_log (1 s averages) for FHINT_CLIFF_RUNTIME seconds; the
#     steady window is the last FHINT_CLIFF_WINDOW seconds of the log.
# The LUN's timing log page (31h, fhint-stats --json) gives the model's
# parameters and its time series: the WA over the same window, and with it
# the model's busy-time bound (per host page WA programs, WA - 1 GC reads,
# WA x units / pages-per-line erases, each with its page transfer, spread
# over the units; fresh: WA 1, no erase).  Measured steady / fresh IOPS
# against the bounds' ratio.  Writes $out/bench-vm-cliff.json, the fio
# log ($out/cliff_iops.1.log) and the device's series
# ($out/cliff-stats.json); the host then compares it with the model run
# of the same cfgstring under the PTS rule (fhint-bench-cliff -v, make
# bench-vm).  Also logged: every queue limit between fio and the device,
# the block layer's commands in flight, the device core's (fhint-stats
# "queue"), the guest's idle CPU and tcmu-runner's threads.  Figures, not
# assertions: the TAP lines say each step ran.
. "$(dirname "$0")/lib.sh"
set -u
SIZE=${FHINT_CLIFF_SIZE:-16M}
OP=${FHINT_CLIFF_OP:-0.25}
RUNTIME=${FHINT_CLIFF_RUNTIME:-150}
WINDOW=${FHINT_CLIFF_WINDOW:-30}
# emmc with one die: 1 unit, t_prog 1.91 ms a 4 KiB page, steady state
# near 166 IOPS at sf 0.25.  With the preset's 2 dies (322 IOPS) the path
# from tcm_loop to the device core in the TCG guest is what limits, not
# the model: 32 commands at fio, 28 past the block layer, 14 in the device
# core (benchmarks.md section 6).  Lines of 64 pages; no idle GC (the
# writes never pause).
cfg="/scratch/cliff.img?create=1&profile=flash&product=benchcliff&page=4K&ppb=64&op=$OP&gc=greedy&timing=emmc&dies=1&gc_bg=0&ts_ms=1000${FHINT_CLIFF_CFG:-}"
stats=$(tool sgtools fhint-stats)

scratch_fs || { fail "scratch"; t_summary; exit 1; }
start_tcmu || { fail "tcmu-runner"; t_summary; exit 1; }
rm -f /scratch/cliff.img
tcli "set global auto_save_on_exit=false" \
	"/backstores/user:fhint create name=cliff size=$SIZE cfgstring=$cfg" \
	"/loopback create naa.5001405fee10000c" \
	"/loopback/naa.5001405fee10000c/luns create /backstores/user:fhint/cliff" > /dev/null
dev=
find_dev() {
	local d
	for d in /sys/block/sd*; do
		case "$(cat $d/device/model 2>/dev/null)" in
		*benchcliff*) dev=$(basename $d); return 0 ;;
		esac
	done
	return 1
}
wait_for 20 find_dev; find_dev
[ -n "$dev" ] && ok "cliff LUN /dev/$dev ($SIZE, $cfg)" ||
	{ fail "cliff LUN not found"; t_summary; exit 1; }
sg=$(sg_of $dev)

blkdiscard /dev/$dev && ok "purge: blkdiscard /dev/$dev" || fail "purge"
fio --name=fill --filename=/dev/$dev --rw=write --bs=128k --iodepth=4 \
	--ioengine=libaio --direct=1 --output-format=json > /tmp/fill.json 2>/dev/null &&
	ok "precondition: sequential 128 KiB pass" || fail "precondition"
# the window's WA from the device's series: samples from this point on
$stats --json /dev/$sg > /tmp/cliff-pre.json 2>/dev/null
# every queue between fio and the device core, for the log
host=$(ls -d /sys/block/$dev/device/scsi_device/*/ 2>/dev/null | head -1)
hn=$(basename "$(readlink -f /sys/block/$dev/device/../..)")
tcmu_attr=$(ls -d /sys/kernel/config/target/core/user_*/cliff/attrib 2>/dev/null | head -1)
log "sd: queue_depth $(cat /sys/block/$dev/device/queue_depth), nr_requests $(cat /sys/block/$dev/queue/nr_requests), scheduler $(cat /sys/block/$dev/queue/scheduler)"
log "scsi host $hn: can_queue $(cat /sys/class/scsi_host/$hn/can_queue 2>/dev/null), cmd_per_lun $(cat /sys/class/scsi_host/$hn/cmd_per_lun 2>/dev/null)"
for a in hw_queue_depth queue_depth max_data_area_mb cmd_time_out qfull_time_out; do
	log "tcmu $a $(cat $tcmu_attr/$a 2>/dev/null)"
done
threads() {	# tcmu-runner's threads: name and CPU ticks (user + system)
	local t
	for t in /proc/$TCMU_PID/task/*; do
		echo "${t##*/}:$(cat $t/comm) $(sed 's/.*) //' $t/stat | awk '{print $12 + $13}')"
	done
}
threads > /tmp/threads0.txt
head -1 /proc/stat > /tmp/cpu0.txt
# commands the block layer has in flight to the LUN, 5 times a second
( while sleep 0.2; do cat /sys/block/$dev/inflight; done ) > /tmp/inflight.txt &
inf=$!
fio --name=cliff --filename=/dev/$dev --rw=randwrite --bs=4k --iodepth=32 \
	--ioengine=libaio --direct=1 --norandommap --randrepeat=0 \
	--time_based --runtime=$RUNTIME --write_iops_log=/tmp/cliff \
	--log_avg_msec=1000 --output-format=json > /tmp/rand.json 2>/dev/null &&
	ok "4 KiB random writes, QD 32, $RUNTIME s" || fail "random writes"
kill $inf 2>/dev/null; wait $inf 2>/dev/null
log "in flight (block layer, writes, 0.2 s samples): mean $(awk '{s += $2; n++} END {printf "%.1f", n ? s / n : 0}' /tmp/inflight.txt), max $(awk '$2 > m {m = $2} END {print m + 0}' /tmp/inflight.txt)"
head -1 /proc/stat > /tmp/cpu1.txt
threads > /tmp/threads1.txt
log "guest CPU idle during the random writes: $(paste /tmp/cpu0.txt /tmp/cpu1.txt | awk '{n = NF / 2; for (i = 2; i <= n; i++) t += $(i + n) - $i; printf "%.1f %%", 100 * ($(5 + n) - $5) / t}')"
log "tcmu-runner threads, CPU ticks (1/100 s) during them: $(join -a1 <(sort /tmp/threads1.txt) <(sort /tmp/threads0.txt) | awk '{printf "%s %d; ", $1, $2 - $3}')"
log "fio: $(python3 -c 'import json; j = json.load(open("/tmp/rand.json"))["jobs"][0]; w = j["write"]; print("iodepth", j["iodepth_level"], "clat mean %.1f ms" % (w["clat_ns"]["mean"] / 1e6), "slat mean %.3f ms" % (w["slat_ns"]["mean"] / 1e6))' 2>&1)"
$stats --json /dev/$sg > "$out/cliff-stats.json" 2>/dev/null &&
	ok "fhint-stats --json" || fail "fhint-stats --json"
cp /tmp/cliff_iops.1.log "$out/" 2>/dev/null
python3 - "$out" "$WINDOW" "$cfg" "$SIZE" <<'EOF'
import json, sys
out, window, cfg, size = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
fill = json.load(open("/tmp/fill.json"))["jobs"][0]["write"]
fresh = fill["bw_bytes"] / 4096.0
log = [l.split(",") for l in open("/tmp/cliff_iops.1.log") if l.strip()]
iops = [(int(l[0]) / 1000.0, float(l[1])) for l in log]
# the last whole seconds; fio's last entry may cover a partial second
iops = iops[:-1] if len(iops) > window + 1 else iops
win = [v for _, v in iops[-window:]]
steady = sum(win) / len(win)
# PTS: excursion of the window's values and of its least-squares line
n = len(win)
xm = (n - 1) / 2.0
b = sum((i - xm) * (v - steady) for i, v in enumerate(win)) / \
    sum((i - xm) ** 2 for i in range(n))
exc = (max(win) - min(win)) / steady
slope_exc = abs(b * (n - 1)) / steady
st = json.load(open(out + "/cliff-stats.json"))
m = st["model"]
s = [x for x in st["series"] if x["host_pages"] > 0]
sw = s[-(window + 1):-1] if len(s) > window + 1 else s
wa = sum(x["nand_pages"] for x in sw) / max(1, sum(x["host_pages"] for x in sw))
dev_iops = sum(x["iops"] for x in sw) / max(1, len(sw))
prog = m["t_prog_ns"] + m["t_xfer_ns"]
rd = m["t_read_ns"] + m["t_xfer_ns"]
er = wa * m["units"] / m["pages_per_erase_block"] * m["t_erase_ns"]
bound = m["units"] / (wa * prog + (wa - 1) * rd + er) * 1e9
fresh_bound = m["units"] / prog * 1e9
ratio = steady / fresh
model = bound / fresh_bound
# the device core's queue over the random writes: commands in flight
# when each arrived (mean, largest) and how late the reaper handed them
# back after their modeled completion
try:
    q0 = json.load(open("/tmp/cliff-pre.json")).get("queue", {})
except (OSError, ValueError):
    q0 = {}
q1 = st.get("queue", {})
dq = lambda k: q1.get(k, 0) - q0.get(k, 0)
depth = dq("depth_sum") / dq("submitted") if dq("submitted") > 0 else 0
late = dq("late_sum_ns") / dq("reaped") / 1e3 if dq("reaped") > 0 else 0
r = {"config": cfg, "size": size, "units": m["units"],
     "pages_per_line": m["pages_per_erase_block"],
     "fresh_iops": round(fresh, 1), "fresh_bound": round(fresh_bound, 1),
     "steady_iops": round(steady, 1), "steady_device_iops": round(dev_iops, 1),
     "steady_window_s": window, "excursion": round(exc, 4),
     "slope_excursion": round(slope_exc, 4),
     "pts_steady": exc <= 0.2 and slope_exc <= 0.1,
     "wa": round(wa, 4), "steady_bound": round(bound, 1),
     "steady_to_fresh": round(ratio, 4), "steady_to_fresh_model": round(model, 4),
     "measured_over_model": round(ratio / model, 4),
     "device_depth_mean": round(depth, 2),
     "device_depth_max": q1.get("depth_max", 0),
     "reap_late_mean_us": round(late, 1),
     "reap_late_max_us": round(q1.get("late_max_ns", 0) / 1e3, 1),
     "iops_log": [[t, v] for t, v in iops]}
json.dump(r, open(out + "/bench-vm-cliff.json", "w"), indent=1)
print("# fresh %.0f IOPS (bound %.0f), steady %.0f (device %.0f, bound %.0f at WA %.3f)"
      % (fresh, fresh_bound, steady, dev_iops, bound, wa))
print("# steady/fresh %.4f, model %.4f: measured/model %.4f; PTS excursion %.3f, slope %.3f"
      % (ratio, model, ratio / model, exc, slope_exc))
print("# device core: %.2f commands in flight at each arrival (max %d), reaped %.1f us late on average (max %.1f us)"
      % (depth, q1.get("depth_max", 0), late, q1.get("late_max_ns", 0) / 1e3))
EOF
[ -s "$out/bench-vm-cliff.json" ] && ok "cliff figures: $out/bench-vm-cliff.json" ||
	fail "cliff figures"
t_summary
