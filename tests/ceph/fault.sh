#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/ceph/fault.sh POOL/IMAGE ACTION: faults of the test cluster
# (tests/ceph/cluster.sh; FHINT_CEPH_DIR and CEPH_CONF set), the hook of
# tests/ceph/fhint-readfail:
#
#   stop       note the image's one watcher (the LUN's client, IP:PORT/NONCE
#              as `rbd status` lists it) in FHINT_CEPH_DIR, then SIGSTOP
#              every OSD: nothing the cluster has in flight is answered
#   cont       SIGCONT every OSD, then wait (bounded) until each has the
#              monitor's latest OSD map, so a blocklist is in force
#   blocklist  `ceph osd blocklist add` the watcher noted by stop (only
#              the monitor is asked: it works with the OSDs stopped)
#
# Exit 0 when done, 1 otherwise.  spec-notes/ceph.md.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 POOL/IMAGE stop|cont|blocklist" >&2; exit 2; }
img=$1
dir=${FHINT_CEPH_DIR:?}
note=$dir/fault.$(printf '%s' "$img" | tr / _).watcher
t=${FHINT_CEPH_CMD_TIMEOUT:-30}

osd_pids() { awk '$2 ~ /^osd\./ { print $1 }' "$dir/pids"; }

# The OSD map epoch the monitor has, and the newest one OSD $1 has.
mon_epoch() {
	timeout -k 5 "$t" ceph osd dump -f json |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["epoch"])'
}
osd_epoch() {
	local sock
	sock=$(ls "$dir/run/$1".*.asok 2>/dev/null | head -n 1)
	[ -n "$sock" ] || return 1
	timeout -k 5 "$t" ceph --admin-daemon "$sock" status |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["newest_map"])'
}

case $2 in
stop)
	timeout -k 5 "$t" rbd status --format json "$img" |
		python3 -c '
import json, sys
w = json.load(sys.stdin)["watchers"]
if len(w) != 1:
    sys.exit("fault.sh: %d watchers, want the LUN alone" % len(w))
print(w[0]["address"])' >"$note"
	kill -STOP $(osd_pids)
	;;
cont)
	kill -CONT $(osd_pids)
	want=$(mon_epoch)
	for n in $(awk '$2 ~ /^osd\./ { print $2 }' "$dir/pids"); do
		end=$((SECONDS + t))
		until [ "$(osd_epoch "$n" || echo 0)" -ge "$want" ]; do
			[ $SECONDS -lt $end ] || {
				echo "fault.sh: $n has not OSD map $want" >&2
				exit 1
			}
			sleep 0.2
		done
	done
	;;
blocklist)
	timeout -k 5 "$t" ceph osd blocklist add "$(cat "$note")" >/dev/null
	;;
*)
	echo "fault.sh: unknown action $2" >&2
	exit 2
	;;
esac
