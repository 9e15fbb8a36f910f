#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/check-layers.sh - every #include of the tree against the layering
# of spec-notes/architecture.md: a layer includes only what is below it.
#
#   include/fhint/  <fhint/...> and system headers
#   lib/ codecs     (scsi_*, ata_*, nvme_*, sense, hints, range*, size,
#                   check, device_limits, discard_cmd): fhint/ headers but
#                   not the transports' or the device core's (xport.h,
#                   block.h, probe.h, discard.h, emu.h, emu_timing.h), and
#                   lib/ private headers but not xport_priv.h
#   lib/            fhint/ headers, lib/*.h; nothing of lib/emu/
#   lib/emu/        fhint/ headers, lib/emu/*.h, lib/*_priv.h but not
#                   xport_priv.h (the device core knows no transport)
#   sgtools/, sgtools/conform/, nvme-tools/, demo/, tcmu-handler/
#                   fhint/ headers and the tool folders (sgtools/,
#                   sgtools/conform/, nvme-tools/); tcmu-handler/ also
#                   tcmu-runner's headers
#   bench/          as the tools, its own headers, and lib/emu/emu_ftl.h
#                   (the FTL model's own benchmarks)
#
# System headers (<...> other than <fhint/...>) and config.h are allowed
# everywhere.  One line per violation: FILE:LINE: the include and the rule.
# Exit 0 or 1.  Environment: top_srcdir (default: .).
set -eu
s=${top_srcdir:-.}
cd "$s"
status=0

is_codec() {
	case $(basename "$1") in
	scsi_*|ata_*|nvme_*|sense.*|hints.*|range*|size.*|check.*|\
	device_limits.*|discard_cmd.*) return 0 ;;
	esac
	return 1
}

# where "NAME" resolves: the including file's folder first, then the
# folders that hold headers
resolve() {
	dir=$1 name=$2
	if [ -f "$dir/$name" ]; then
		echo "$dir/$name"
		return
	fi
	for d in include lib lib/emu sgtools nvme-tools; do
		if [ -f "$d/$name" ]; then
			echo "$d/$name"
			return
		fi
	done
	echo "?/$name"
}

# allowed FILE HEADER-PATH: 0 when FILE may include HEADER-PATH
allowed() {
	f=$1 h=$2
	dir=$(dirname "$f")
	case $h in config.h) return 0 ;; esac
	case $dir in
	include/fhint)
		case $h in include/fhint/*) return 0 ;; esac
		return 1 ;;
	lib)
		if is_codec "$f"; then
			case $h in
			include/fhint/xport.h|include/fhint/block.h|\
			include/fhint/probe.h|include/fhint/discard.h|\
			include/fhint/emu.h|include/fhint/emu_timing.h|\
			lib/xport_priv.h) return 1 ;;
			include/fhint/*|lib/*_priv.h) return 0 ;;
			esac
			return 1
		fi
		case $h in include/fhint/*|lib/*.h) return 0 ;; esac
		return 1 ;;
	lib/emu)
		case $h in
		lib/xport_priv.h) return 1 ;;
		include/fhint/*|lib/emu/*.h|lib/*_priv.h) return 0 ;;
		esac
		return 1 ;;
	sgtools|sgtools/conform|nvme-tools|demo)
		case $h in include/fhint/*|sgtools/*|nvme-tools/*) return 0 ;; esac
		return 1 ;;
	tcmu-handler)
		case $h in
		include/fhint/*|?/tcmu-runner.h|?/libtcmu.h|?/tcmur_device.h)
			return 0 ;;
		esac
		return 1 ;;
	bench)
		case $h in
		include/fhint/*|sgtools/*|nvme-tools/*|bench/*|\
		lib/emu/emu_ftl.h)
			return 0 ;;
		esac
		return 1 ;;
	esac
	return 0
}

n=0
for f in include/fhint/*.h lib/*.[ch] lib/emu/*.[ch] sgtools/*.[ch] \
	 sgtools/conform/*.[ch] \
	 nvme-tools/*.[ch] tcmu-handler/*.c bench/*.c demo/*.c; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	grep -n '^[[:space:]]*#[[:space:]]*include' "$f" >"${TMPDIR:-/tmp}/layers.$$" || :
	while IFS= read -r line; do
		lineno=${line%%:*}
		inc=${line#*:}
		case $inc in
		*'<fhint/'*)
			name=${inc#*<}; name=${name%%>*}
			h=include/$name ;;
		*'"fhint/'*)
			name=${inc#*\"}; name=${name%%\"*}
			h=include/$name ;;
		*'"'*)
			name=${inc#*\"}; name=${name%%\"*}
			if [ "$name" = config.h ]; then
				h=config.h
			else
				h=$(resolve "$(dirname "$f")" "$name")
			fi ;;
		*) continue ;;	# a system header
		esac
		if ! allowed "$f" "$h"; then
			echo "$f:$lineno: includes $h, which its layer may not (spec-notes/architecture.md)"
			status=1
		fi
	done <"${TMPDIR:-/tmp}/layers.$$"
done
rm -f "${TMPDIR:-/tmp}/layers.$$"
[ $status -eq 0 ] && echo "check-layers: the includes of $n files keep to the layers"
exit $status
