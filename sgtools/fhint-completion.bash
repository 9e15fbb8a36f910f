# SPDX-License-Identifier: LGPL-2.1-or-later
# bash completion for fhint's tools (fhint-trim, fhint-write, fhint-probe,
# fhint-ua, fhint-stats, fhint-conform): options from each tool's --help, the
# values of the options that take a fixed set, files where a file is asked,
# and targets (block and SCSI devices, emu:, iscsi://).
_fhint_tools()
{
	local cur prev words cword
	_init_completion -n =: || return

	case $prev in
	-m | --method)
		COMPREPLY=($(compgen -W 'unmap ws16 ws10 ws32 ata-trim ata-ncq-trim nvme-dsm
			nvme-wz blkdiscard blksecdiscard blkzeroout' -- "$cur"))
		return ;;
	-p | --policy)
		COMPREPLY=($(compgen -W 'exact skip zero' -- "$cur")); return ;;
	--hint)
		COMPREPLY=($(compgen -W 'none short medium long extreme' \
			-- "$cur")); return ;;
	--pattern)
		COMPREPLY=($(compgen -W 'zero ones random random: lba' -- "$cur"))
		return ;;
	--cdb)
		COMPREPLY=($(compgen -W '10 16 32' -- "$cur")); return ;;
	-F | --family)
		COMPREPLY=($(compgen -W "$("$1" --list 2>/dev/null |
			sed -n 's/^\([a-z_]*\):.*/\1/p')" -- "$cur")); return ;;
	-i | --in | --file | --output | -J | --junit | -S | --summary | --sysfs | \
	--plot)
		_filedir; return ;;
	-k | --kernel-dev)
		COMPREPLY=($(compgen -W "$(ls /sys/block 2>/dev/null)" -- "$cur"))
		return ;;
	--retries | --timeout | --bs | --group | --stream | --placement | \
	--interval | --count | --since | -N | --samples | -s | \
	--scratch-range | -t | --test | -x | --exclude)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_parse_help "$1")" -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	if [[ $cur == /* || $cur == .* ]]; then
		_filedir
		return
	fi
	COMPREPLY=($(compgen -W "emu: iscsi:// $(compgen -G '/dev/sd[a-z]*')
		$(compgen -G '/dev/sg[0-9]*') $(compgen -G '/dev/nvme[0-9]*n[0-9]*')
		$(compgen -G '/dev/vd[a-z]*')" -- "$cur"))
	[[ ${COMPREPLY-} == *: || ${COMPREPLY-} == */ ]] && compopt -o nospace 2>/dev/null
}
complete -F _fhint_tools fhint-trim fhint-write fhint-probe fhint-ua fhint-stats fhint-conform
