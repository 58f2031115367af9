#!/bin/sh
# t0004-sandbox.sh - a hostile recipe given through --recipes cannot reach
# the host, and runaway recipes are stopped quickly with a clear error.
. "$top_srcdir/tests/lib.sh"

mk() { # NAME BODY: a user recipe overriding lib/archlist with BODY in parse
	mkdir -p "$T_DIR/$1/lib"
	printf 'local M = {}\nfunction M.parse()\n%s\nend\nreturn M\n' "$2" >"$T_DIR/$1/lib/archlist.lua"
}

mk exec 'os.execute("touch '"$T_DIR"'/pwned")'
run "$PTBUILD" --recipes "$T_DIR/exec" arch 8.0
is "$rc" 3 "os.execute is refused (exit 3)"
like "$err" "*archlist.lua:3: 'os.execute' is not available to recipes*" "... with a clear message naming file and line"
[ ! -e "$T_DIR/pwned" ]; t_ok $? "... and nothing ran"

mk open 'return io.open("/etc/passwd"):read("a")'
run "$PTBUILD" --recipes "$T_DIR/open" arch 8.0
is "$rc" 3 "io.open is refused"
like "$err" "*archlist.lua:3: 'io.open' is not available*" "... naming file and line"

mk load 'return load("return 1")()'
run "$PTBUILD" --recipes "$T_DIR/load" arch 8.0
like "$err" "*'load' is not available*" "load is refused"

# CPU seconds of a command (user + system), from GNU time when present:
# wall time on a loaded 2-core machine says little about the budget.
cpu_ms() { # sets $ms; runs "$@" through run()
	if [ -x /usr/bin/time ]; then
		run /usr/bin/time -f '%U %S' -o "$T_DIR/time" "$@"
		ms=$(tail -n 1 "$T_DIR/time" | awk '{ printf "%d", ($1 + $2) * 1000 }')
		how="CPU"
	else
		start=$(date +%s%N)
		run "$@"
		end=$(date +%s%N)
		ms=$(( (end - start) / 1000000 ))
		how="wall-clock"
	fi
}

mk spin 'while true do end'
cpu_ms "$PTBUILD" --recipes "$T_DIR/spin" arch 8.0
is "$rc" 3 "an endless loop is a recipe error"
like "$err" "*archlist.lua:3: instruction budget*" "... naming the budget and the line"
[ "$ms" -lt 1000 ]; t_ok $? "... stopped within a second (${ms} ms $how time)"

mk grow 'local s = "x" while true do s = s .. s end'
cpu_ms "$PTBUILD" --recipes "$T_DIR/grow" arch 8.0
is "$rc" 3 "a string-doubling loop is a recipe error"
like "$err" "*memory cap*" "... naming the memory cap"
[ "$ms" -lt 1000 ]; t_ok $? "... stopped within a second (${ms} ms $how time)"

mkdir -p "$T_DIR/bin/lib"
printf '\033LuaT\000' >"$T_DIR/bin/lib/archlist.lua"
run "$PTBUILD" --recipes "$T_DIR/bin" arch 8.0
is "$rc" 3 "a precompiled chunk is refused"
like "$err" "*precompiled chunks are refused*" "... saying why"

done_testing
