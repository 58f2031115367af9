#!/bin/sh
# t0001-cli.sh - the command line: help, version, errors, exit codes.
. "$top_srcdir/tests/lib.sh"

run "$PTBUILD" --version
is "$rc" 0 "--version exits 0"
like "$out" "ptbuild [0-9]*.[0-9]*.[0-9]*" "--version prints the version"

run "$PTBUILD" --help
is "$rc" 0 "--help exits 0"
like "$out" "*Commands:*arch *" "--help lists arch"
like "$out" "*Exit status:*" "--help documents the exit codes"
# Only commands that work are listed: each listed one must answer --help.
for c in $(printf '%s\n' "$out" | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
	run "$PTBUILD" "$c" --help
	is "$rc" 0 "listed command '$c' answers --help"
	like "$out" "usage: ptbuild $c*" "'$c --help' shows its usage"
done

run "$PTBUILD"
is "$rc" 2 "no command is a usage error (2)"

run "$PTBUILD" frobnicate
is "$rc" 2 "an unknown command is a usage error"
is "$err" "ptbuild: error: unknown command 'frobnicate'
hint: see 'ptbuild --help'" "an unknown command is named, in the house style"

run "$PTBUILD" --bogus arch 8.0
is "$rc" 2 "an unknown global option is a usage error"
like "$err" "*unknown option '--bogus'*" "the unknown option is named"

run "$PTBUILD" arch 8.0 --cuda
is "$rc" 2 "an option missing its value is a usage error"
like "$err" "*'--cuda' needs a value*" "the option is named"

run "$PTBUILD" arch --frob 8.0
like "$err" "*unknown option '--frob'*see 'ptbuild arch --help'*" "a command's unknown option points at its help"

# "did you mean": a close command, option or profile is suggested, with
# the exit status unchanged; a far one gets no guess (frobnicate above).
run "$PTBUILD" plna
is "$rc" 2 "a mistyped command is still a usage error"
is "$err" "ptbuild: error: unknown command 'plna'
hint: did you mean 'plan'?
hint: see 'ptbuild --help'" "... with the command meant"
run "$PTBUILD" help generat
is "$rc:$err" "2:ptbuild: error: unknown command 'generat'
hint: did you mean 'generate'?
hint: see 'ptbuild --help'" "help with a mistyped command suggests too"
run "$PTBUILD" arch 8.0 --jsno
is "$rc" 2 "a mistyped option is still a usage error"
is "$err" "ptbuild: error: unknown option '--jsno'
hint: did you mean '--json'?
hint: see 'ptbuild arch --help'" "... with the option meant"
run "$PTBUILD" plan --max-jbos=8
like "$rc:$err" "2:*unknown option '--max-jbos=8'*did you mean '--max-jobs'?*" "... also as --option=value"
run "$PTBUILD" --verbsoe arch 8.0
like "$rc:$err" "2:*unknown option '--verbsoe'*did you mean '--verbose'?*see 'ptbuild --help'*" "a mistyped global option"
run "$PTBUILD" detect --facts x.json
is "$rc" 2 "an option of another command is unknown here"
unlike "$err" "*did you mean*" "... and no far option is guessed"
run "$PTBUILD" plan --profile gh20
is "$rc" 2 "a mistyped profile is still a usage error"
like "$err" "*unknown profile 'gh20'*hint: did you mean 'gh200'? known profiles:*" "... with the profile meant"
run "$PTBUILD" plan --profile zzzzzz
unlike "$err" "*did you mean*" "a far profile gets no guess"

run "$PTBUILD" arch 8.0 --json=yes
is "$rc" 2 "a value for an option that takes none is a usage error"
like "$err" "*option '--json' takes no value*" "... saying so"

run "$PTBUILD" help arch
is "$rc" 0 "ptbuild help arch"
like "$out" "usage: ptbuild arch*" "help CMD shows the command's usage"

run "$PTBUILD" --color=sometimes arch 8.0
is "$rc" 2 "a bad --color value is a usage error"

# Colour: never on a pipe or with NO_COLOR, always with --color=always.
run "$PTBUILD" arch 9.9
like "$err" "ptbuild: error: *" "no colour when stderr is not a terminal"
NO_COLOR= run "$PTBUILD" --color=always arch 9.9
like "$err" "*$(printf '\033')\[*error:*" "--color=always colours the label"

run "$PTBUILD" -q arch 8.6 8.0 --cuda 12.4
is "$rc" 0 "-q still runs the command"
is "$err" "" "-q prints no notes"

run "$PTBUILD" --recipes "$T_DIR/nope" arch 8.0
is "$rc" 2 "--recipes naming a missing directory is a usage error"
like "$err" "*'$T_DIR/nope' is not a directory*" "... naming it"

run "$PTBUILD" -v arch 8.0
like "$err" "*debug: recipe path 1:*" "-v shows the recipe path"

done_testing
