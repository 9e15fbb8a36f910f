#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The guest side of `make check-vm`: run one suite (lio, iscsi, qemu, ...),
# TAP on stdout (the console) and in $out/<suite>.tap.
tree=$(cd "$(dirname "$0")/../../.." && pwd)
suite=${1:-lio}
out=$tree/tests/vm/out
mkdir -p "$out"
echo "# guest: $(uname -r), $(nproc) CPUs, suite $suite"
bash "$tree/tests/vm/guest/$suite.sh" 2>&1 | tee "$out/$suite.tap"
rc=${PIPESTATUS[0]}
dmesg > "$out/$suite.dmesg"
cp /var/log/tcmu-runner.log /var/log/tcmu-runner.out "$out/" 2>/dev/null
exit "$rc"
