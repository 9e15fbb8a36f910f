#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The guest side of `make check-vm`: run suites (lio, iscsi, qemu, ...)
# one after the other in this boot (check-vm.sh's boot groups, e.g.
# "iscsi,lio"): TAP on stdout (the console) and in $out/<suite>.tap, each
# suite's exit status and seconds in $out/<suite>.rc.
tree=$(cd "$(dirname "$0")/../../.." && pwd)
suites=${1:-lio}
out=$tree/tests/vm/out
# the host's FHINT_BENCH_* settings (check-vm.sh)
[ -f "$tree/tests/vm/work/guest.env" ] && . "$tree/tests/vm/work/guest.env"
mkdir -p "$out"
rc=0
for suite in ${suites//,/ }; do
	echo "# guest: $(uname -r), $(nproc) CPUs, suite $suite"
	export T_TIMES=$out/$suite.times
	echo "$EPOCHREALTIME start (uptime $(cut -d' ' -f1 /proc/uptime) s)" > "$T_TIMES"
	t0=$(date +%s)
	bash "$tree/tests/vm/guest/$suite.sh" 2>&1 | tee "$out/$suite.tap"
	src=${PIPESTATUS[0]}
	echo "$src $(( $(date +%s) - t0 ))" > "$out/$suite.rc"
	[ "$rc" -ne 0 ] || rc=$src
	dmesg > "$out/$suite.dmesg"
	cp /var/log/tcmu-runner.log /var/log/tcmu-runner.out "$out/" 2>/dev/null
done
exit "$rc"
