#!/bin/sh
# A failing Lua test says where: tests/luatest runs a test file that fails
# on purpose, and each "not ok" carries the test file and the line of the
# failing t.ok / t.is / t.like (not tap.lua's own line); a Lua error in a
# test bails out naming its file and line, every diagnostic line TAP's.
. "${top_srcdir:?}/tests/lib.sh"
LUATEST=${top_builddir:?}/tests/luatest

f=$T_DIR/fails_test.lua
cat >"$f" <<'LUA'
local t = ptb.include("tap")
t.ok(true, "passes")
t.is(1 + 1, 3, "is fails")
t.ok(false, "ok fails")
local function check(s) t.like(s, "^x", "like fails") end
check("abc")
t.is({ 1, 2 }, { 1, 2 }, "tables equal")
t.done()
LUA
run "$LUATEST" "$f"
is "$rc" 0 "the test file runs to its end"
is "$(printf '%s\n' "$out" | grep -c '^not ok')" 3 "three failures reported"
is "$(printf '%s\n' "$out" | sed -n '/^not ok 2 /{n;p;}')" "#   at $f:3" "a failing t.is names the file and its line"
is "$(printf '%s\n' "$out" | sed -n '/^not ok 3 /{n;p;}')" "#   at $f:4" "a failing t.ok names the file and its line"
is "$(printf '%s\n' "$out" | sed -n '/^not ok 4 /{n;p;}')" "#   at $f:5" "a failing t.like in a helper names the helper's line"
like "$out" "*#   got:  2*#   want: 3*" "t.is still shows got and want"
like "$out" "*ok 5 - tables equal*" "a passing test says nothing more"
unlike "$out" "*tap.lua*" "no place inside tap.lua is named"

e=$T_DIR/errs_test.lua
printf '%s\n' 'local t = ptb.include("tap")' 't.ok(true, "passes")' 'local x' 'return x.y' >"$e"
run "$LUATEST" "$e"
is "$rc" 1 "a Lua error in a test fails the run"
like "$out" "*Bail out! *'$e'*:4: attempt to index a nil value*" "the bail-out names the file and line"
is "$(printf '%s\n' "$out" | grep -vc '^ok \|^#\|^Bail out!')" 0 "every other line is a TAP diagnostic"

done_testing
