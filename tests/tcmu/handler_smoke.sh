#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make check: handler_fhint.so carries its own copy of the library: it
# NEEDs no libfhint.so and exports handler_init alone (what tcmu-runner
# looks up); then run handler_smoke on it as built, without
# LD_LIBRARY_PATH.
b=${top_builddir:-.}
so=$b/tcmu-handler/.libs/handler_fhint.so
if readelf -d "$so" | grep -q 'NEEDED.*libfhint'; then
	echo "handler_smoke: $so needs libfhint.so:"
	readelf -d "$so" | grep NEEDED
	exit 1
fi
exported=$(nm -D --defined-only "$so" | awk '{ print $3 }' | sed 's/@.*//')
if [ "$exported" != handler_init ]; then
	echo "handler_smoke: $so exports more than handler_init:" $exported
	exit 1
fi
exec "$b/tests/tcmu/handler_smoke" "$so"
