#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make check in a build configured without what the unit tests need (CUnit,
# and libnvme and libiscsi as their references): one line, skipped (77).
echo "tests/fhint-unit: not built: needs ${FHINT_UNIT_MISSING:-CUnit} (apt-get install ${FHINT_UNIT_MISSING:-libcunit1-dev}), skipped"
exit 77
