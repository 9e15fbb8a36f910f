#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The bash completion installed with the tools: options from --help, the
# values of --method and --policy, on the tools of this build tree.
set -u
srcdir=${srcdir:-.}
top=${top_builddir:-.}
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || { echo "completion: bash-completion not installed: skipped"; exit 77; }
# shellcheck disable=SC1090
. "$bc"
. "$srcdir/sgtools/fhint-completion.bash"
PATH=$top/sgtools:$top/sgtools/conform:$PATH
fail=0
comp() {	# comp WANT WORD...: complete the last word, WANT among the answers
	local want=$1
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_fhint_tools "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	if printf '%s\n' "${COMPREPLY[@]}" | grep -qxF -- "$want"; then
		echo "ok - $* -> $want"
	else
		echo "not ok - $* -> $want (got: ${COMPREPLY[*]-})"
		fail=1
	fi
}
comp --method fhint-trim --meth
comp --retries fhint-write --retr
comp --timeout fhint-probe --time
comp --json fhint-ua --js
comp --plot fhint-stats --pl
comp blkdiscard fhint-trim --method blk
comp exact fhint-trim -p ex
comp short fhint-write --hint sh
comp emu: fhint-probe em
# fhint-conform is built only with CUnit
if [ -x "$top/sgtools/conform/fhint-conform" ]; then
	comp --retries fhint-conform --retr
	comp unmap fhint-conform --family un
else
	echo "ok - fhint-conform not built (no CUnit): its completion skipped"
fi
exit $fail
