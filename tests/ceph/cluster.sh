#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# A single-node Ceph cluster for tests, from Debian's packages (ceph-mon,
# ceph-mgr, ceph-osd, ceph-common), as plain processes on 127.0.0.1: one
# monitor, one manager, one to three OSDs (bluestore on sparse files).  No
# systemd, no containers.  Everything (configuration, keys, daemon data,
# sockets, logs) lives under one scratch directory; every daemon's PID is
# recorded in DIR/pids; every wait is bounded.
#
#   cluster.sh run [--osds N] [--keep] -- CMD [ARG...]
#       start a cluster in a new directory under $TMPDIR (default
#       /var/tmp), run CMD with CEPH_CONF and FHINT_CEPH_DIR set, stop
#       the cluster whatever happens (trap), exit with CMD's status
#   cluster.sh start DIR [N]   start a cluster in the empty DIR, N OSDs
#   cluster.sh stop DIR        stop the daemons of DIR/pids, remove DIR
#
# After start: pool "rbd" (size N, rbd application), CEPH_CONF=DIR/ceph.conf
# is all a client needs (its keyring, client.admin, is named there).
# Timeouts (seconds, environment): FHINT_CEPH_HEALTH_TIMEOUT (180) for
# HEALTH_OK, FHINT_CEPH_CMD_TIMEOUT (30) for each ceph command.
# FHINT_CEPH_ADDR: the one IPv4 address every daemon binds (default
# 127.0.0.1; the VM suite gives the host's own address, which a QEMU guest
# reaches through user networking).
# spec-notes/ceph.md.
set -euo pipefail

health_timeout=${FHINT_CEPH_HEALTH_TIMEOUT:-180}
cmd_timeout=${FHINT_CEPH_CMD_TIMEOUT:-30}
addr=${FHINT_CEPH_ADDR:-127.0.0.1}

say() { echo "ceph-cluster: $*" >&2; }
die() { say "$*"; exit 1; }

# A ceph command as client.admin, bounded.
c() {
	timeout -k 5 "$cmd_timeout" ceph --conf "$dir/ceph.conf" \
		--connect-timeout "$cmd_timeout" "$@"
}

# A TCP port on $addr that nothing listens on, from $1 up.
free_port() {
	local p=$1
	while [ "$p" -lt $(($1 + 200)) ]; do
		if ! (exec 3<>"/dev/tcp/$addr/$p") 2>/dev/null &&
		   ! (exec 3<>"/dev/tcp/$addr/$((p + 1))") 2>/dev/null; then
			echo "$p"
			return 0
		fi
		p=$((p + 2))
	done
	return 1
}

# Start a daemon in the background, its output in DIR/log; record its PID.
spawn() {
	local name=$1
	shift
	"$@" -f --conf "$dir/ceph.conf" </dev/null \
		>>"$dir/log/$name.out" 2>&1 &
	echo "$! $name" >>"$dir/pids"
}

# The recorded PID of $1 is alive (and is still the daemon we started).
alive() {
	local pid
	pid=$(awk -v n="$1" '$2 == n { print $1 }' "$dir/pids")
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# Wait (bounded) until "$@" succeeds; $1 is the bound in seconds.
wait_for() {
	local t=$1 what=$2
	shift 2
	local end=$((SECONDS + t))
	until "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -lt "$end" ] || { say "timeout ($t s): $what"; return 1; }
		sleep 1
	done
}

write_conf() {
	local fsid=$1 port=$2 osds=$3
	cat >"$dir/ceph.conf" <<EOF
[global]
fsid = $fsid
mon_host = [v2:$addr:$port,v1:$addr:$((port + 1))]
public_network = $addr/32
cluster_network = $addr/32
public_addr = $addr
cluster_addr = $addr
ms_bind_ipv6 = false
auth_cluster_required = cephx
auth_service_required = cephx
auth_client_required = cephx
auth_allow_insecure_global_id_reclaim = false
run_dir = $dir/run
crash_dir = $dir/crash
log_file = $dir/log/\$name.log
mon_cluster_log_file = $dir/log/cluster.log
# per daemon: a killed client's leftover socket must not stop the next one
admin_socket = $dir/run/\$name.\$pid.asok
# one host: replicas across OSDs, not hosts; pools as large as the OSDs
osd_crush_chooseleaf_type = 0
osd_pool_default_size = $osds
osd_pool_default_min_size = 1
mon_allow_pool_size_one = true
mon_warn_on_pool_no_redundancy = false
osd_pool_default_pg_autoscale_mode = off
mon_max_pg_per_osd = 1000
# a test cluster on a shared disk: do not stop when the disk is fullish
mon_data_avail_warn = 2
mon_data_avail_crit = 1
mgr_initial_modules = iostat
# a dead client's watch (and so its exclusive lock) expires after this
osd_client_watch_timeout = 10
[mon]
mon_data = $dir/mon/\$cluster-\$id
[mgr]
mgr_data = $dir/mgr/\$cluster-\$id
[osd]
osd_data = $dir/osd/\$cluster-\$id
osd_objectstore = bluestore
bluestore_block_create = true
bluestore_block_size = 10737418240
bluestore_fsck_on_mount = false
osd_memory_target = 1073741824
[client]
keyring = $dir/keyring/\$name.keyring
EOF
}

start() {
	dir=$1
	local osds=${2:-1} fsid port i uuid id
	case $osds in 1|2|3) ;; *) die "1 to 3 OSDs, not '$osds'" ;; esac
	for t in ceph-mon ceph-mgr ceph-osd ceph ceph-authtool monmaptool rbd; do
		command -v "$t" >/dev/null ||
			die "$t not found: apt-get install ceph-mon ceph-mgr ceph-osd ceph-common (scripts/setup)"
	done
	[ -d "$dir" ] && [ -z "$(ls -A "$dir")" ] || die "$dir: not an empty directory"
	dir=$(cd "$dir" && pwd)
	mkdir -p "$dir"/{run,log,crash,keyring,mon,mgr,osd}
	: >"$dir/pids"
	fsid=$(cat /proc/sys/kernel/random/uuid)
	port=$(free_port 13300) || die "no free port for the monitor"
	write_conf "$fsid" "$port" "$osds"
	say "$dir: fsid $fsid, monitor on $addr:$port, $osds OSD(s)"

	ceph-authtool --create-keyring "$dir/keyring/mon.keyring" --gen-key \
		-n mon. --cap mon 'allow *' >/dev/null
	ceph-authtool --create-keyring "$dir/keyring/client.admin.keyring" \
		--gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' \
		--cap mgr 'allow *' --cap mds 'allow *' >/dev/null
	ceph-authtool "$dir/keyring/mon.keyring" \
		--import-keyring "$dir/keyring/client.admin.keyring" >/dev/null
	monmaptool --create --fsid "$fsid" \
		--addv a "[v2:$addr:$port,v1:$addr:$((port + 1))]" "$dir/monmap" \
		>/dev/null
	timeout 60 ceph-mon --conf "$dir/ceph.conf" --mkfs -i a \
		--monmap "$dir/monmap" --keyring "$dir/keyring/mon.keyring" \
		>>"$dir/log/mkfs.out" 2>&1 || die "ceph-mon --mkfs failed ($dir/log)"
	spawn mon.a ceph-mon -i a
	wait_for 60 "monitor quorum" c mon stat
	alive mon.a || die "ceph-mon died ($dir/log/mon.a.log)"

	mkdir -p "$dir/mgr/ceph-x"
	c auth get-or-create mgr.x mon 'allow profile mgr' osd 'allow *' \
		mds 'allow *' -o "$dir/mgr/ceph-x/keyring" >/dev/null
	spawn mgr.x ceph-mgr -i x

	for ((i = 0; i < osds; i++)); do
		uuid=$(cat /proc/sys/kernel/random/uuid)
		id=$(c osd new "$uuid")
		mkdir -p "$dir/osd/ceph-$id"
		ceph-authtool --create-keyring "$dir/osd/ceph-$id/keyring" \
			--gen-key -n "osd.$id" >/dev/null
		c auth add "osd.$id" osd 'allow *' mon 'allow profile osd' \
			mgr 'allow profile osd' -i "$dir/osd/ceph-$id/keyring" \
			>/dev/null 2>&1
		timeout 120 ceph-osd --conf "$dir/ceph.conf" -i "$id" --mkfs \
			--osd-uuid "$uuid" >>"$dir/log/mkfs.out" 2>&1 ||
			die "ceph-osd --mkfs failed ($dir/log)"
		spawn "osd.$id" ceph-osd -i "$id"
	done

	wait_for 120 "$osds OSD(s) up" osds_up "$osds"
	c osd pool create rbd 32 32 replicated >/dev/null 2>&1
	[ "$osds" -gt 1 ] || c osd pool set rbd size 1 --yes-i-really-mean-it \
		>/dev/null 2>&1
	timeout -k 5 "$cmd_timeout" rbd --conf "$dir/ceph.conf" pool init rbd
	wait_for "$health_timeout" "HEALTH_OK" health_ok || {
		c health detail >&2 || true
		return 1
	}
	for n in $(awk '{ print $2 }' "$dir/pids"); do
		alive "$n" || die "$n died ($dir/log/$n.log)"
	done
	say "HEALTH_OK after $SECONDS s"
}

osds_up() {
	[ "$(c osd stat -f json | sed -n 's/.*"num_up_osds":\([0-9]*\).*/\1/p')" = "$1" ]
}

# HEALTH_OK, and every placement group active+clean (a fresh cluster
# says HEALTH_OK before the manager has seen the PGs).
health_ok() {
	local pg
	[ "$(c health)" = HEALTH_OK ] || return 1
	pg=$(c pg stat)
	# "33 pgs: 33 active+clean; ..."
	[[ $pg =~ ^([0-9]+)\ pgs:\ ([0-9]+)\ active\+clean\; ]] &&
		[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]
}

# SIGTERM every recorded daemon (OSDs first, the monitor last), wait
# (bounded), SIGKILL what is left, remove the directory.
stop() {
	dir=$1
	local pid name pids=() left
	[ -f "$dir/pids" ] || { rm -rf "$dir"; return 0; }
	while read -r pid name; do
		# only our daemon: its command line names this directory
		grep -qF "$dir/ceph.conf" "/proc/$pid/cmdline" 2>/dev/null ||
			continue
		pids=("$pid" "${pids[@]}")
	done <"$dir/pids"
	[ ${#pids[@]} -eq 0 ] || kill -TERM "${pids[@]}" 2>/dev/null || true
	for ((i = 0; i < 30; i++)); do
		left=()
		for pid in "${pids[@]}"; do
			kill -0 "$pid" 2>/dev/null && left+=("$pid")
		done
		[ ${#left[@]} -gt 0 ] || break
		sleep 0.5
	done
	if [ ${#left[@]} -gt 0 ]; then
		say "SIGKILL to ${left[*]} (did not stop in 15 s)"
		kill -KILL "${left[@]}" 2>/dev/null || true
		sleep 0.5
	fi
	[ -n "${FHINT_CEPH_KEEP:-}" ] && { say "kept $dir"; return 0; }
	rm -rf "$dir"
}

run() {
	local osds=1 status=0
	while [ $# -gt 0 ]; do
		case $1 in
		--osds) osds=$2; shift 2 ;;
		--keep) export FHINT_CEPH_KEEP=1; shift ;;
		--) shift; break ;;
		*) die "run: unknown option $1" ;;
		esac
	done
	[ $# -gt 0 ] || die "run: no command"
	# (global: the EXIT trap reads it)
	cluster_dir=$(mktemp -d "${TMPDIR:-/var/tmp}/fhint-ceph.XXXXXX")
	cmd_pid=
	trap 'stop "$cluster_dir"' EXIT
	# a signal ends the command (its own process group) and the cluster
	trap '[ -z "$cmd_pid" ] || kill -TERM -- "-$cmd_pid" 2>/dev/null ||
		kill -TERM "$cmd_pid" 2>/dev/null; exit 130' \
		INT TERM HUP
	"$BASH" "$0" start "$cluster_dir" "$osds" &
	cmd_pid=$!
	if ! wait "$cmd_pid"; then
		cmd_pid=
		say "the cluster did not start; logs:"
		tail -n 20 "$cluster_dir"/log/*.log "$cluster_dir"/log/*.out >&2 2>/dev/null || true
		exit 1
	fi
	# in the background, so that the traps run at once (wait returns)
	CEPH_CONF=$cluster_dir/ceph.conf FHINT_CEPH_DIR=$cluster_dir setsid "$@" &
	cmd_pid=$!
	wait "$cmd_pid" || status=$?
	cmd_pid=
	exit "$status"
}

case ${1:-} in
run) shift; run "$@" ;;
start) [ $# -ge 2 ] || die "usage: $0 start DIR [OSDS]"; start "$2" "${3:-1}" ;;
stop) [ $# -eq 2 ] || die "usage: $0 stop DIR"; stop "$2" ;;
*) die "usage: $0 run [--osds N] [--keep] -- CMD... | start DIR [OSDS] | stop DIR" ;;
esac
