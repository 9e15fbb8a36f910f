#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/ceph/check-ceph.sh BUILDDIR: the suites that need a real Ceph
# cluster (make check-ceph).  Started without CEPH_CONF, it brings up a
# single-node cluster with tests/ceph/cluster.sh (one monitor, one manager,
# one OSD on 127.0.0.1; FHINT_CEPH_OSDS for more) and runs itself inside
# it; the cluster is stopped whatever happens.  Every step is bounded
# (FHINT_CEPH_STEP_TIMEOUT seconds, default 300).  Exit 0 when every
# suite passed.  spec-notes/ceph.md.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 BUILDDIR" >&2; exit 2; }
b=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${CEPH_CONF:-}" ]; then
	exec "$BASH" "$here/cluster.sh" run --osds "${FHINT_CEPH_OSDS:-1}" -- \
		"$BASH" "$0" "$b"
fi
step_timeout=${FHINT_CEPH_STEP_TIMEOUT:-300}
pass=0
fail=0

# step NAME FUNCTION [ARG...]: run one bounded step (the function in a
# child shell, so that timeout can end it), count it.
step() {
	local name=$1 t0=$SECONDS
	shift
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

step "cluster: rbd import/export round trip" cluster_rw

echo "check-ceph: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
