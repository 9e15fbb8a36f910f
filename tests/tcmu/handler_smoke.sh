#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make check: run handler_smoke on the uninstalled handler_fhint.so, with
# the uninstalled libfhint.so it needs.
b=${top_builddir:-.}
LD_LIBRARY_PATH="$b/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	exec "$b/tests/tcmu/handler_smoke" "$b/tcmu-handler/.libs/handler_fhint.so"
