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

# Work inside C, where the instruction hook never runs: a string pattern
# that backtracks (n^12 steps) in each of the four matching functions.
# The CPU time limit (PTBUILD_LUA_TIME_LIMIT_MS; 20 s by default) stops the
# hook at the next instruction; a recipe still inside C a second later
# ends the process.  `timeout 20`: a regression fails instead of hanging.
for fn in find match gmatch gsub; do
	case $fn in
	gmatch) call="for _ in string.gmatch(s, p) do end" ;;
	gsub) call="return (string.gsub(s, p, 'x'))" ;;
	*) call="return string.$fn(s, p)" ;;
	esac
	mk "bt-$fn" "local s, p = string.rep('a', 60), string.rep('a*', 12) .. 'b' $call"
	cpu_ms env PTBUILD_LUA_TIME_LIMIT_MS=500 timeout 20 "$PTBUILD" --recipes "$T_DIR/bt-$fn" arch 8.0
	is "$rc" 3 "a backtracking pattern in string.$fn is a recipe error (exit 3)"
	like "$err" "*recipe error in 'arch.convert': *bt-$fn/lib/archlist.lua:3: CPU time limit of 500 ms exceeded inside a library function*" \
		"... naming the recipe, file, line and the limit"
	[ "$ms" -lt 5000 ]; t_ok $? "... stopped within seconds (${ms} ms $how time)"
done

mk cheap-loop "while true do local _ = string.rep('a', 100000):find('b', 1, true) end"
cpu_ms env PTBUILD_LUA_TIME_LIMIT_MS=500 timeout 20 "$PTBUILD" --recipes "$T_DIR/cheap-loop" arch 8.0
is "$rc" 3 "a loop of few instructions and much C work is stopped by the time limit"
like "$err" "*cheap-loop/lib/archlist.lua:3: CPU time limit of 500 ms exceeded*" "... at the recipe's line"

mk pcall-loop "pcall(function() while true do local _ = string.rep('a', 100000):find('b', 1, true) end end) while true do end"
run env PTBUILD_LUA_TIME_LIMIT_MS=500 timeout 20 "$PTBUILD" --recipes "$T_DIR/pcall-loop" arch 8.0
is "$rc" 3 "pcall cannot swallow the time limit"

# Finalizers run with hooks off, at the latest when the state closes after
# the call: setmetatable refuses a __gc field.
mk gc 'setmetatable({}, {__gc = function() while true do end end})'
run timeout 20 "$PTBUILD" --recipes "$T_DIR/gc" arch 8.0
is "$rc" 3 "a __gc finalizer is refused (exit 3)"
like "$err" "*gc/lib/archlist.lua:3: setmetatable: a '__gc' finalizer is not available to recipes*" \
	"... naming file and line"
mkdir -p "$T_DIR/gc2/lib"
cat >"$T_DIR/gc2/lib/archlist.lua" <<'EOF'
-- the shipped library, plus an endless finalizer whose refusal is swallowed
local ok = pcall(setmetatable, {}, { __gc = function() while true do end end })
assert(not ok)
return ptb.include_next("lib/archlist")
EOF
run timeout 20 "$PTBUILD" --recipes "$T_DIR/gc2" arch 8.0
is "$rc" 0 "a swallowed __gc refusal: the command ends normally (no finalizer at close)"

mkdir -p "$T_DIR/bin/lib"
printf '\033LuaT\000' >"$T_DIR/bin/lib/archlist.lua"
run "$PTBUILD" --recipes "$T_DIR/bin" arch 8.0
is "$rc" 3 "a precompiled chunk is refused"
like "$err" "*precompiled chunks are refused*" "... saying why"

done_testing
