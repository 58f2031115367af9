#!/bin/sh
# t0010-options.sh - what is made from the option tables agrees with the
# binary: the man page lists exactly the options each command's --help
# lists and renders without warnings; the committed man page and
# completion scripts are what this build makes; bash completes, zsh and
# fish parse their scripts.
. "$top_srcdir/tests/lib.sh"

man1=$top_srcdir/doc/ptbuild.1
bashc=$top_srcdir/completions/bash/ptbuild
zshc=$top_srcdir/completions/zsh/_ptbuild
fishc=$top_srcdir/completions/fish/ptbuild.fish

# The committed files are this build's: an option changed without
# 'make regen-options' fails here.
sh "$top_srcdir/tools/regen-options.sh" "$PTBUILD" "$top_srcdir" "$T_DIR/regen" 2>"$T_DIR/regen.err"
is "$?" 0 "tools/regen-options.sh runs"
for pair in "ptbuild.1:$man1" "ptbuild:$bashc" "_ptbuild:$zshc" "ptbuild.fish:$fishc"; do
	made=$T_DIR/regen/${pair%%:*} committed=${pair#*:}
	cmp -s "$made" "$committed"
	st=$?
	t_ok "$st" "${committed#"$top_srcdir"/} is what the option tables make"
	[ "$st" -eq 0 ] || { echo "# run 'make regen-options'; the difference:"; diff -u "$committed" "$made" | head -20 | sed 's/^/# /'; }
done

# Options as --help lists them: lines "  --name ARG   help" (and "-v, --x").
help_options() { # COMMAND ('' for the global ones)
	if [ -z "$1" ]; then
		"$PTBUILD" --help | sed -n '/^Global options:/,/^$/p'
	else
		"$PTBUILD" "$1" --help
	fi | sed -n 's/^  \(-.*\)/\1/p' | sed 's/  .*//' |
		grep -o -- '--*[a-z0-9][a-z0-9-]*' | sort
}
# Options as the rendered man page FILE lists them under "OPTIONS", in
# the subsection "ptbuild COMMAND" (or "Global options"): the tags, each
# after a blank line, indented 7.
man_options() { # FILE COMMAND
	title=${2:+ptbuild $2}
	MANWIDTH=100 man -l "$1" 2>/dev/null | col -b |
		awk -v t="${title:-Global options}" '
			/^[A-Z]/ { sect = $0; ss = ""; blank = 0; next }
			sect == "OPTIONS" && /^   [^ ]/ { ss = substr($0, 4); next }
			sect == "OPTIONS" && ss == t && blank && /^       -/ {
				# "-v, --verbose", "--cuda VER", "--color[=WHEN]": the
				# options, up to the text (which may follow one space on)
				for (i = 1; i <= NF; i++) {
					w = $i
					if (w ~ /^-/) { sub(/[[=,].*/, "", w); print w }
					else if (w !~ /^[A-Z[]/) break
				}
			}
			{ blank = ($0 == "") }' | sort
}

commands=$("$PTBUILD" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
[ -n "$commands" ]; t_ok $? "--help lists the commands"

if command -v man >/dev/null 2>&1 && command -v col >/dev/null 2>&1; then
	warn=$(MANWIDTH=80 man --warnings -l "$man1" 2>&1 >/dev/null)
	is "$warn" "" "the man page renders without warnings"
	for c in "" $commands; do
		h=$(help_options "$c") m=$(man_options "$man1" "$c")
		is "$m" "$h" "the man page lists the options '${c:-ptbuild} --help' lists"
	done
	# The comparison sees a difference: a man page missing an option fails.
	sed '/^\\fB\\-\\-no\\-cudnn/{N;d;}' "$man1" >"$T_DIR/short.1"
	m=$(man_options "$T_DIR/short.1" plan) h=$(help_options plan)
	[ "$m" != "$h" ]; t_ok $? "a man page without --no-cudnn differs from plan --help"
else
	skip "the man page renders without warnings" "man or col is not installed"
fi

# No command takes one option twice (a group's and its own): getopt
# would only ever see the first.
dups=$("$PTBUILD" completion bash | sed -n "s/^	\([a-z']*\)) echo '\(.*\)' ;;$/\1 \2/p" |
	while read -r c words; do
		d=$(printf '%s\n' $words | sort | uniq -d | tr '\n' ' ')
		[ -z "$d" ] || echo "$c: $d"
	done)
is "$dups" "" "no command lists an option twice"
n=$("$PTBUILD" completion bash | grep -c "^	[a-z']*) echo '")
is "$n" "$(($(printf '%s\n' $commands | wc -l) + 1))" "... checked for every command and before one"

# bash: source the script, set COMP_WORDS and COMP_CWORD as bash does,
# call the function, read COMPREPLY.
complete_bash() { # WORD... (the last is the one being completed)
	PATH=$(dirname "$PTBUILD"):$PATH bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_ptbuild
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' sh "$bashc" "$@"
}
if command -v bash >/dev/null 2>&1; then
	is "$(complete_bash ptbuild pl)" "plan " "bash: a command"
	is "$(complete_bash ptbuild g)" "gather generate " "bash: the commands that start so"
	is "$(complete_bash ptbuild arch --t)" "--to --torch " "bash: a command's options"
	is "$(complete_bash ptbuild arch 8.0 --to '')" "cmake gencode torch " "bash: an option's values"
	is "$(complete_bash ptbuild --color = al)" "always " "bash: --color=WHEN (bash splits at '=')"
	is "$(complete_bash ptbuild --recipes /nonexistent pro)" "profiles " "bash: a global option's value is not the command"
	is "$(complete_bash ptbuild -v fetch --dry)" "--dry-run " "bash: options after global ones"
	is "$(complete_bash ptbuild fetch --li)" "--list " "bash: an alias"
	is "$(complete_bash ptbuild plan --reci)" "--recipes " "bash: common options after a command"
	is "$(complete_bash ptbuild validate --run)" "" "bash: a hidden option is not offered"
	is "$(complete_bash ptbuild gather s)" "slurm ssh " "bash: an operand's values"
	is "$(complete_bash ptbuild help ar)" "arch " "bash: help COMMAND"
	is "$(complete_bash ptbuild plan --profile gh)" "gh200 " "bash: --profile asks 'ptbuild profiles'"
	mkdir -p "$T_DIR/d/sub" && : >"$T_DIR/d/file"
	is "$(complete_bash ptbuild detect --sysroot "$T_DIR/d/")" "$T_DIR/d/sub " "bash: a DIR value completes directories"
	is "$(complete_bash ptbuild plan --facts "$T_DIR/d/f")" "$T_DIR/d/file " "bash: a FILE value completes files"
else
	skip "bash completion" "bash is not installed"
fi

if command -v zsh >/dev/null 2>&1; then
	run zsh -n "$zshc"
	is "$rc:$err" "0:" "zsh -n parses _ptbuild"
	like "$(head -1 "$zshc")" "#compdef ptbuild" "_ptbuild is a #compdef file"
else
	skip "zsh -n parses _ptbuild" "zsh is not installed (setup.sh installs it)"
fi
if command -v fish >/dev/null 2>&1; then
	run fish -n "$fishc"
	is "$rc:$err" "0:" "fish -n parses ptbuild.fish"
	# fish really completes: its own completion engine over the script.
	out=$(fish -c "source '$fishc'; complete -C 'ptbuild arch --t'" 2>&1)
	like "$out" "--to*" "fish completes an option"
else
	skip "fish -n parses ptbuild.fish" "fish is not installed"
fi

run "$PTBUILD" completion tcsh
is "$rc" 2 "completion of an unknown shell is a usage error"
like "$err" "*unknown shell 'tcsh'*" "... naming it"

done_testing
