#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/ceph/check-ceph.sh BUILDDIR: the suites that need a real Ceph
# cluster (make check-ceph).  Started without CEPH_CONF, it brings up a
# single-node cluster with tests/ceph/cluster.sh (one monitor, one manager,
# one OSD on 127.0.0.1; FHINT_CEPH_OSDS for more) and runs itself inside
# it; the cluster is stopped whatever happens.  Every step is bounded
# (FHINT_CEPH_STEP_TIMEOUT seconds, default 600); FHINT_CEPH_STEPS, a
# regular expression, runs only the steps whose names match.  Exit 0
# when every suite passed.  spec-notes/ceph.md.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 BUILDDIR" >&2; exit 2; }
b=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${CEPH_CONF:-}" ]; then
	exec "$BASH" "$here/cluster.sh" run --osds "${FHINT_CEPH_OSDS:-1}" -- \
		"$BASH" "$0" "$b"
fi
step_timeout=${FHINT_CEPH_STEP_TIMEOUT:-600}
pass=0
fail=0

# step NAME FUNCTION [ARG...]: run one bounded step (the function in a
# child shell, so that timeout can end it), count it.
step() {
	local name=$1 t0=$SECONDS
	shift
	[[ $name =~ ${FHINT_CEPH_STEPS:-.} ]] || return 0
	export -f "$1"
	if timeout -k 10 "$step_timeout" "$BASH" -euo pipefail -c '"$@"' \
		step "$@"; then
		echo "PASS: $name ($((SECONDS - t0)) s)"
		pass=$((pass + 1))
	else
		echo "FAIL: $name (status $?, $((SECONDS - t0)) s)"
		fail=$((fail + 1))
	fi
}

# The cluster itself: an image written and read back through librbd.
cluster_rw() {
	local t
	t=$(mktemp -d "$FHINT_CEPH_DIR/rw.XXXXXX")
	head -c 4194304 /dev/urandom >"$t/in"
	rbd create --size 64M rbd/fhint-smoke
	rbd import --no-progress "$t/in" rbd/fhint-smoke-2
	rbd export --no-progress rbd/fhint-smoke-2 "$t/out"
	cmp "$t/in" "$t/out"
	rbd rm --no-progress rbd/fhint-smoke
	rbd rm --no-progress rbd/fhint-smoke-2
	rm -rf "$t"
}

# Every suite below names its images with this run's prefix.
export FHINT_B=$b
export FHINT_POOL=rbd
export FHINT_CEPH_TESTS=$here

# fhint-conform against an RBD-backed LUN: the same results, test by
# test, as against a file-backed LUN of the same configuration.
conform_same() {
	local t keys='size=64M&create=1'
	t=$(mktemp -d "$FHINT_CEPH_DIR/conform.XXXXXX")
	"$FHINT_B/sgtools/conform/fhint-conform" --destructive \
		--scratch-range all "emu:$t/lun.img?$keys" >"$t/file.log" 2>&1
	"$FHINT_B/sgtools/conform/fhint-conform" --destructive \
		--scratch-range all "emu:rbd:$FHINT_POOL/conform?$keys" \
		>"$t/rbd.log" 2>&1
	# each test and its result; the run summary
	grep -E '^  Test: |^ +(suites|tests|asserts) ' "$t/file.log" \
		>"$t/file.res"
	grep -E '^  Test: |^ +(suites|tests|asserts) ' "$t/rbd.log" \
		>"$t/rbd.res"
	[ -s "$t/file.res" ]
	diff "$t/file.res" "$t/rbd.res"
	grep -E '^ +tests ' "$t/rbd.res"
	rm -rf "$t"
}

# kill -9 cycles of a writer (fhint-crash -r): after each kill the next
# process breaks the dead one's lock, replays the journal and finds
# every acknowledged write; flash and thin profiles, one command at a
# time and 16 in flight (WRITEs grouped: data in flight together, their
# records in one RADOS operation).  Each cycle waits for the dead
# child's watch to expire (osd_client_watch_timeout, 10 s).
crash_cycles() {
	"$FHINT_B/tests/crash/fhint-crash" -n "${FHINT_CEPH_CRASH:-20}" \
		-p flash -r "rbd:$FHINT_POOL/crash"
	"$FHINT_B/tests/crash/fhint-crash" -n 2 -p thin \
		-r "rbd:$FHINT_POOL/crash"
}
crash_queued() {
	"$FHINT_B/tests/crash/fhint-crash" -n "${FHINT_CEPH_CRASH:-20}" \
		-q 16 -p thin -r "rbd:$FHINT_POOL/crashq"
	"$FHINT_B/tests/crash/fhint-crash" -n 2 -q 16 -p flash \
		-r "rbd:$FHINT_POOL/crashq"
}

# COMPARE AND WRITE: the same bytes from rbd_compare_and_write (one
# 512-byte block, mapped) as from the device's compare, then write.
caw_same() {
	local t
	t=$(mktemp -d "$FHINT_CEPH_DIR/caw.XXXXXX")
	"$FHINT_B/tests/ceph/fhint-caw" "$t/lun.img?size=64M&create=1" \
		>"$t/file.out"
	"$FHINT_B/tests/ceph/fhint-caw" "rbd:$FHINT_POOL/caw?size=64M&create=1" \
		>"$t/rbd.out"
	diff "$t/file.out" "$t/rbd.out"
	cat "$t/rbd.out"
	rm -rf "$t"
}

# Commands in flight (READs as rbd_aio_read, WRITEs in write groups, in
# between WRITE and UNMAP) answer as on a file, where they run at once;
# then handler_fhint, asynchronous on such a LUN, with each command's
# data in three iovecs.
inflight_same() {
	local t keys='size=64M&lbs=4096&profile=thin&create=1'
	t=$(mktemp -d "$FHINT_CEPH_DIR/inflight.XXXXXX")
	"$FHINT_B/tests/ceph/fhint-inflight" "$t/lun.img?$keys" >"$t/file.out"
	"$FHINT_B/tests/ceph/fhint-inflight" -s "rbd:$FHINT_POOL/inflight?$keys" \
		>"$t/rbd.out"
	diff "$t/file.out" "$t/rbd.out"
	cat "$t/rbd.out"
	if [ -x "$FHINT_B/tests/tcmu/handler_smoke" ]; then
		"$FHINT_B/tests/tcmu/handler_smoke" \
			"$FHINT_B/tcmu-handler/.libs/handler_fhint.so" \
			"fhint/?rbd=$FHINT_POOL/inflight-h&profile=thin&create=1" \
			>"$t/handler.out"
		tail -n 1 "$t/handler.out"
	fi
	rm -rf "$t"
}

# READs that fail after they went out: the OSDs stopped until the
# cluster's timeout= (5 s) ends them, then the LUN's client blocklisted
# with READs in flight (tests/ceph/fault.sh makes the faults); each
# command reaped with its sense, WRITEs refused, the close returns, and
# another process reopens the LUN and finds every acknowledged block.
read_failures() {
	"$FHINT_B/tests/ceph/fhint-readfail" \
		-H "$FHINT_CEPH_TESTS/fault.sh $FHINT_POOL/readfail" \
		"rbd:$FHINT_POOL/readfail?size=64M&lbs=4096&profile=thin&create=1&timeout=5"
}

# handler_fhint's open of an RBD LUN whose lock another live process
# holds (tests/tcmu/handler_smoke, a holder process of its own): tried
# again every 500 ms for FHINT_TCMU_LOCK_WAIT_S; the holder stays (the
# open fails, -EBUSY, one line), closes the LUN or is killed while the
# open waits (the open then succeeds and reads the holder's data).
handler_lock_wait() {
	local so=$FHINT_B/tcmu-handler/.libs/handler_fhint.so
	local h=$FHINT_B/tests/tcmu/handler_smoke m
	[ -x "$h" ] || { echo "no handler_smoke (tcmu headers missing)"; return 0; }
	for m in busy handover killed; do
		FHINT_TCMU_LOCK_WAIT_S=$([ $m = busy ] && echo 3 || echo 60) \
			"$h" "$so" "fhint/?rbd=$FHINT_POOL/lock-$m&profile=thin&create=1" \
			$m >"$FHINT_CEPH_DIR/lock-$m.out"
		grep -E 'waiting up to|cannot open|broke the' \
			"$FHINT_CEPH_DIR/lock-$m.out" | sed "s/^ */$m: /"
		echo "$m: $(tail -n 1 "$FHINT_CEPH_DIR/lock-$m.out")"
	done
}

# Two processes: the second is refused while the owner lives, takes over
# when it is killed, loses nothing; the time is reported.
failover() {
	"$FHINT_B/tests/ceph/fhint-failover" -n "${FHINT_CEPH_FAILOVER:-3}" \
		"rbd:$FHINT_POOL/failover?size=64M&create=1"
}

# The same with 16 WRITEs in flight on a thin LUN: after the first round
# most of them overwrite mapped blocks, which complete on their own
# without a journal record (emu_media_group.c).
failover_queued() {
	"$FHINT_B/tests/ceph/fhint-failover" -n 2 -q 16 \
		"rbd:$FHINT_POOL/failoverq?size=64M&create=1&profile=thin"
}

# expect_line WHAT TEXT CMD...: CMD fails (not by a signal or timeout),
# prints exactly one line on stderr, and that line holds TEXT.
expect_line() {
	local what=$1 text=$2 rc=0 err
	shift 2
	err=$(timeout -k 5 60 "$@" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" -eq 0 ] || [ "$rc" -ge 124 ]; then
		echo "$what: exit $rc (want a failure, not a hang)"; return 1
	fi
	if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] ||
	   [[ $err != *"$text"* ]]; then
		echo "$what: stderr is not one line holding '$text':"
		printf '%s\n' "$err"
		return 1
	fi
	echo "$what: exit $rc: $err"
}

export -f expect_line

# Bad input: a missing pool or image, a client without a key or without
# OSD caps, a cluster that does not answer: one line, a clean exit, no
# hang (timeout=5 bounds the monitors' and OSDs' waits).
bad_input() {
	local p=$FHINT_B/sgtools/fhint-probe w=$FHINT_B/sgtools/fhint-write d
	d=$(mktemp -d "$FHINT_CEPH_DIR/bad.XXXXXX")
	expect_line "missing pool" "there is no pool 'nopool'" \
		"$p" "emu:rbd:nopool/img?size=64M&timeout=5"
	expect_line "missing image" "there is no image 'nothere'" \
		"$w" "emu:rbd:$FHINT_POOL/nothere?size=64M&timeout=5" 0+4K
	expect_line "unknown client" "client.nobody is not allowed in" \
		"$p" "emu:rbd:$FHINT_POOL/nothere?size=64M&id=nobody&timeout=5"
	ceph auth get-or-create client.fhint-noosd mon 'allow r' \
		-o "$d/noosd.keyring"
	expect_line "no OSD caps" "permission denied" \
		"$p" "emu:rbd:$FHINT_POOL/perm?size=64M&create=1&id=fhint-noosd&keyring=$d/noosd.keyring&timeout=5"
	# a monitor address nothing listens on
	sed 's/^mon_host = .*/mon_host = [v2:127.0.0.1:1,v1:127.0.0.1:2]/' \
		"$CEPH_CONF" >"$d/down.conf"
	expect_line "cluster down" "did not answer within 5 s" \
		"$p" "emu:rbd:$FHINT_POOL/down?size=64M&conf=$d/down.conf&timeout=5"
	ceph auth rm client.fhint-noosd >/dev/null 2>&1
	rm -rf "$d"
}

# A reopen by PATH alone takes the configuration stored in the
# checkpoint in RADOS; a key given against it is refused naming the
# stored value.
reopen_stored() {
	local w=$FHINT_B/sgtools/fhint-write p=$FHINT_B/sgtools/fhint-probe
	local t="emu:rbd:$FHINT_POOL/reopen" j
	"$w" --pattern lba "$t?size=48M&create=1&profile=flash&lbs=4096&page=8192" 0+4M
	j=$("$p" --json "$t")
	python3 -c '
import json, sys
d = json.load(sys.stdin)["read_capacity_16"]
got = (d["capacity_bytes"], d["logical_block_size"])
print("reopened by PATH alone: %d bytes, %d-byte blocks" % got)
sys.exit(got != (48 << 20, 4096))' <<<"$j"
	"$w" --verify-only --pattern lba "$t" 0+4M
	expect_line "conflicting key" \
		"the LUN was made with profile=flash (stored in rbd:$FHINT_POOL/reopen.fhint-meta)" \
		"$p" "$t?profile=thin"
}

# recover=1 after a damaged journal in RADOS (a record key out of
# sequence: a record missing): refused without it, with a hint; with it
# the journal object is kept aside and the map rebuilt from the image's
# allocated extents, so every block written reads back.
recover_damaged() {
	local w=$FHINT_B/sgtools/fhint-write t="emu:rbd:$FHINT_POOL/recover"
	local oid=recover.fhint-meta
	"$w" --pattern lba "$t?size=32M&create=1&profile=flash" 0+8M
	rados -p "$FHINT_POOL" setomapval "$oid" 0000000000000007 damaged
	expect_line "damaged journal" "recover=1 keeps it as" \
		"$w" --verify-only --pattern lba "$t" 0+8M
	"$w" --pattern lba "$t?recover=1" 8M+1M
	rados -p "$FHINT_POOL" stat "$oid.damaged"
	rados -p "$FHINT_POOL" listomapkeys "$oid.damaged" | grep -qx 0000000000000007
	"$w" --verify-only --pattern lba "$t" 0+9M
}

step "cluster: rbd import/export round trip" cluster_rw
step "rbd: a reopen by PATH takes the stored configuration" reopen_stored
step "rbd: recover=1 after a damaged journal in RADOS" recover_damaged
step "rbd: fhint-conform gives the file store's results" conform_same
step "rbd: kill -9 cycles of a writer lose nothing" crash_cycles
step "rbd: kill -9 cycles, 16 commands in flight, lose nothing" crash_queued
step "rbd: COMPARE AND WRITE through rbd_compare_and_write" caw_same
step "rbd: commands in flight answer as one at a time" inflight_same
step "rbd: READs failing in flight (OSDs stopped, client blocklisted)" read_failures
step "handler: the open waits for an RBD LUN's lock, or gives up" handler_lock_wait
step "rbd: one owner; failover between two processes" failover
step "rbd: failover with 16 WRITEs in flight loses nothing" failover_queued
step "rbd: bad input gets one line and a clean exit" bad_input

echo "check-ceph: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
