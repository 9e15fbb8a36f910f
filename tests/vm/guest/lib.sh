# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared shell for the VM suite's guest scripts (sourced): TAP results,
# modules, the scratch file system, dbus + tcmu-runner, targetcli.

tree=${tree:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}
out=${FHINT_VM_OUT:-$tree/tests/vm/out}
T_N=0 T_PASS=0 T_FAIL=0 T_SKIP=0
bin=$tree
export LD_LIBRARY_PATH=$tree/lib/.libs
# fhint's programs: the real binaries libtool keeps in .libs (they find
# libfhint through LD_LIBRARY_PATH), not its wrapper scripts, whose start
# costs ~0.4 s under TCG (most of a tool's run here)
tool() {
	if [ -x "$tree/$1/.libs/$2" ]; then echo "$tree/$1/.libs/$2"; else echo "$tree/$1/$2"; fi
}
vmtool=$(tool tests/vm fhint-vmtool)
trim=$(tool sgtools fhint-trim)
probe=$(tool sgtools fhint-probe)
fwrite=$(tool sgtools fhint-write)
fua=$(tool sgtools fhint-ua)
conform=$(tool sgtools/conform fhint-conform)

# Each result and log line also goes, with the guest's clock, to
# $T_TIMES (main.sh: $out/SUITE.times): where a suite's time goes.
t_mark() { [ -z "${T_TIMES:-}" ] || echo "$EPOCHREALTIME $*" >> "$T_TIMES"; }
log() { echo "# $*"; t_mark "# $*"; }
ok() { T_N=$((T_N + 1)); T_PASS=$((T_PASS + 1)); echo "ok $T_N - $*"; t_mark "ok $T_N"; }
fail() { T_N=$((T_N + 1)); T_FAIL=$((T_FAIL + 1)); echo "not ok $T_N - $*"; t_mark "not ok $T_N"; }
skip() { T_N=$((T_N + 1)); T_SKIP=$((T_SKIP + 1)); echo "ok $T_N - $1 # SKIP $2"; t_mark "skip $T_N"; }
# check NAME CMD...: ok when CMD succeeds; its output goes to the log.
check() {
	local name=$1 o
	shift
	if o=$("$@" 2>&1); then
		ok "$name"
	else
		fail "$name"
		echo "$o" | sed 's/^/#   /' | tail -15
	fi
}
# expect_eq NAME GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1 ($2)"; else fail "$1: got '$2', want '$3'"; fi
}
t_summary() {
	echo "# $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
	[ "$T_FAIL" -eq 0 ]
}
# json EXPR...: evaluate each EXPR on the JSON document on stdin (d), one
# line each (one python3 start for all: ~0.3 s under TCG); on bad JSON or
# a missing key, print what came in instead (one line) and fail.
json() {
	python3 -c '
import json, sys
raw = sys.stdin.read()
try:
    d = json.loads(raw)
    for e in sys.argv[1:]:
        print(eval(e, {}, {"d": d}))
except Exception as e:
    print("[%s: %s] %s" % (type(e).__name__, e, " ".join(raw.split())[:300]))
    sys.exit(1)' "$@"
}

# A block device's sdX name for a SCSI device whose model is $1.
sd_by_model() {
	local d
	for d in /sys/block/sd*; do
		[ -e "$d/device/model" ] || continue
		if grep -q "$1" "$d/device/model"; then
			basename "$d"
			return 0
		fi
	done
	return 1
}
sg_of() { ls "/sys/block/$1/device/scsi_generic" 2>/dev/null | head -1; }
wait_for() {	# wait_for SECONDS CMD...
	local n=$(( $1 * 5 ))
	shift
	while [ $n -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.2
		n=$((n - 1))
	done
	return 1
}

# host_req KIND ARG: ask the host (check-vm.sh's host_agent: "map" IMAGE,
# the qemu-img map of an image; "resize" DRIVE.BYTES, block_resize on the
# QEMU monitor) through the share, wait for its answer file and print it.
host_req() {
	local w=$tree/tests/vm/work
	rm -f "$w/$1.$2"
	: > "$w/req.$1.$2"
	wait_for 60 test -e "$w/$1.$2" && cat "$w/$1.$2"
}

# ua_bound PID: wait until process PID (fhint-ua --uevents) holds a
# socket (its uevent netlink socket), at most 10 s.
ua_bound() {
	wait_for 10 sh -c "ls -l /proc/$1/fd 2>/dev/null | grep -q socket:"
}

scratch_disk() {	# the virtio-blk disk with serial fhintscratch
	local d
	for d in /sys/block/vd*; do
		[ "$(cat $d/serial 2>/dev/null)" = fhintscratch ] &&
			{ echo /dev/${d##*/}; return 0; }
	done
	return 1
}
scratch_fs() {	# the host's scratch disk (virtio-blk) as ext4 on /scratch
	# (a suite after another in the same boot finds it mounted); by its
	# serial, not its name: another virtio-blk disk (the qemu and bench
	# suites' fhintvblk) may be vda
	local dev
	mountpoint -q /scratch && return 0
	modprobe -a virtio_blk ext4 2>/dev/null
	wait_for 10 scratch_disk || return 1
	dev=$(scratch_disk)
	mkfs.ext4 -q -F -E nodiscard $dev && mkdir -p /scratch &&
		mount $dev /scratch
}

start_tcmu() {	# dbus, then tcmu-runner with Debian's handlers + ours
	# (a suite after another in the same boot: the one running already,
	# with the earlier suite's backstores, which it leaves alone)
	TCMU_PID=$(pidof tcmu-runner) && tcmu_on_bus && return 0
	modprobe -a target_core_mod target_core_user tcm_loop target_core_file \
		target_core_iblock iscsi_target_mod sd_mod sg 2>/dev/null
	mkdir -p /run/dbus /etc/rtslib-fb-target/pr /tmp/handlers /var/log
	[ -e /run/dbus/system_bus_socket ] || dbus-daemon --system --fork
	ln -sf /usr/lib/x86_64-linux-gnu/tcmu-runner/handler_*.so /tmp/handlers/
	ln -sf "$tree/tcmu-handler/.libs/handler_fhint.so" /tmp/handlers/
	tcmu-runner --handler-path /tmp/handlers -l /var/log \
		>>/var/log/tcmu-runner.out 2>&1 &
	TCMU_PID=$!
	wait_for 30 tcmu_on_bus
}
# kill_tcmu_in_stream DEV START NSECT WHAT: fhint-vmtool's checksummed
# O_DIRECT stream over NSECT sectors of /dev/DEV from START (an fsync every
# 8 chunks), kill -9 of tcmu-runner after 4 s, a restart (TCMU_PID); then
# the LUN must serve again (within 150 s) and every chunk made durable
# before the kill read back.  WHAT names the LUN in the results.
kill_tcmu_in_stream() {
	local dev=$1 what=$4 slog=/scratch/stream.$1.log wp t0 o lost n tmo
	rm -f "$slog"
	# the kernel waits as long as this test does (150 s below) before it
	# aborts a command: sd's 30 s default would start the error handler,
	# which offlines the disk while the gateway is still reopening
	tmo=$(cat /sys/block/$dev/device/timeout)
	echo 150 > /sys/block/$dev/device/timeout
	$vmtool stream /dev/$dev "$slog" "$2" "$3" 2>/tmp/stream.err &
	wp=$!
	sleep 4
	kill -9 $TCMU_PID
	log "tcmu-runner killed after $(wc -l < "$slog") durable chunks"
	sleep 1
	kill -9 $wp 2>/dev/null
	wait $wp 2>/dev/null
	t0=$(date +%s)
	LD_LIBRARY_PATH=$tree/lib/.libs tcmu-runner --handler-path /tmp/handlers \
		-l /var/log >>/var/log/tcmu-runner.out 2>&1 &
	TCMU_PID=$!
	if wait_for 150 dd if=/dev/$dev of=/dev/null bs=4k count=1 iflag=direct; then
		ok "$what serves I/O again $(( $(date +%s) - t0 )) s after tcmu-runner restarts"
	else
		fail "$what back after restart"
		grep -i "fhint" /var/log/tcmu-runner.log | tail -5 | sed 's/^/#   /'
	fi
	o=$($vmtool verify /dev/$dev "$slog" 2>&1)
	lost=$(echo "$o" | tail -1 | json "d['lost']" 2>/dev/null)
	n=$(echo "$o" | tail -1 | json "d['durable_chunks']" 2>/dev/null)
	if [ "${lost:-x}" = 0 ] && [ "${n:-0}" -gt 0 ]; then
		ok "kill -9 ($what): all $n chunks made durable by SYNCHRONIZE CACHE read back"
	else
		fail "kill -9 ($what): $o"
	fi
	echo "$tmo" > /sys/block/$dev/device/timeout
}
tcmu_on_bus() {
	dbus-send --system --print-reply --dest=org.freedesktop.DBus \
		/org/freedesktop/DBus org.freedesktop.DBus.ListNames |
		grep -q org.kernel.TCMUService1
}
tcli() {	# several targetcli commands, one process (3-5 s each start)
	printf '%s\n' "$@" "exit" | targetcli 2>&1
}

# run_conform NAME TARGET [OPTION...]: fhint-conform --destructive over the
# whole TARGET, its summary, JUnit and log in $out/conform.NAME.*; sets
# conform_rc (exit status) and conform_line (its "N passed, ..." line).
run_conform() {
	local name=$1 target=$2
	shift 2
	$conform "$@" --destructive --scratch-range all \
		--summary "$out/conform.$name.md" --junit "$out/conform.$name.xml" \
		"$target" > "$out/conform.$name.log" 2>&1
	conform_rc=$?
	conform_line=$(grep '^fhint-conform: [0-9]' "$out/conform.$name.log")
}
# run_conform_bg NAME TARGET [OPTION...]: run_conform in the background
# (its pid added to $conform_pids); conform_collect NAME afterwards sets
# conform_rc and conform_line as run_conform does.
conform_pids=
run_conform_bg() {
	( run_conform "$@"; echo "$conform_rc" > "$out/conform.$1.rc" ) &
	conform_pids="$conform_pids $!"
}
conform_collect() {
	conform_rc=$(cat "$out/conform.$1.rc" 2>/dev/null || echo 99)
	conform_line=$(grep '^fhint-conform: [0-9]' "$out/conform.$1.log")
}
# conform_peer NAME: a peer's failures are findings about it; the run must
# only have happened (exit 0 or 1 and a summary line).
conform_peer() {
	if [ "$conform_rc" -le 1 ] && [ -n "$conform_line" ]; then
		ok "fhint-conform ran against $1: $conform_line"
	else
		fail "fhint-conform against $1 (exit $conform_rc)"
		tail -5 "$out/conform.$1.log" | sed 's/^/#   /'
	fi
}
