# bash completion for oomlens. The commands come from `oomlens
# --list-commands` and each command's options from its own --help, so
# this file never needs to learn a new option.
_oomlens()
{
	local cur prev cmd opts
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$(oomlens --list-commands 2>/dev/null) help --help --version" -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	if [ "$cmd" = help ]; then
		[ "$COMP_CWORD" -eq 2 ] &&
			COMPREPLY=($(compgen -W "$(oomlens --list-commands 2>/dev/null)" -- "$cur"))
		return
	fi
	case $prev in
	--format|-f)
		opts=$(oomlens help "$cmd" 2>/dev/null | grep -o -- '--format [a-z|]*' | head -1 | sed 's/--format //; s/|/ /g')
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return ;;
	--db|--vmlinux|-o|--output|--baseline)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--debuginfo)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		opts=$(oomlens help "$cmd" 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _oomlens oomlens
