#!/bin/sh
# t0009-precompiled.sh - the shipped recipes are compiled at build time
# (ptb-luac) and loaded from the binary when a recipe file's text is the
# one compiled; an edited recipe is parsed from its text; errors inside a
# precompiled recipe name the file and line exactly as when parsed; and
# the answers are the same either way.
. "$top_srcdir/tests/lib.sh"

run "$PTBUILD" -v plan --profile gh200 --json
is "$rc" 0 "plan runs with precompiled recipes"
like "$err" "*recipe */recipes/plan.lua: precompiled*" "-v says plan.lua was loaded precompiled"
like "$err" "*recipe */recipes/data/redist.lua: precompiled*" "... and the data tables it includes"
with=$out
PTBUILD_NO_PRECOMPILED=1 run "$PTBUILD" -v plan --profile gh200 --json
unlike "$err" "*precompiled*" "PTBUILD_NO_PRECOMPILED=1 parses every recipe"
is "$out" "$with" "... and the plan is byte for byte the same"

for p in gh200 jetson-orin; do
	a=$("$PTBUILD" plan --profile "$p" 2>&1)
	b=$(PTBUILD_NO_PRECOMPILED=1 "$PTBUILD" plan --profile "$p" 2>&1)
	is "$a" "$b" "plan --profile $p: the same text either way"
done
a=$("$PTBUILD" detect --json 2>&1)
b=$(PTBUILD_NO_PRECOMPILED=1 "$PTBUILD" detect --json 2>&1)
is "$a" "$b" "detect --json on this host: the same facts either way"

# An error raised inside a precompiled recipe (lib/version.lua, at the
# line where it calls M.parts) names its file and line.
line=$(grep -n 'M\.parts(' "$top_srcdir/recipes/lib/version.lua" | grep -v 'function' | head -n 1 | cut -d: -f1)
mkdir -p "$T_DIR/boom/lib"
cat >"$T_DIR/boom/lib/archlist.lua" <<'LUA'
local M = {}
function M.parse()
  local v = ptb.include("lib/version")
  v.parts = function() error("boom", 2) end
  return v.vcmp("1", "2")
end
return M
LUA
run "$PTBUILD" -v --recipes "$T_DIR/boom" arch 8.0
is "$rc" 3 "an error in a recipe: exit 3"
like "$err" "*recipe */lib/version.lua: precompiled*" "... lib/version.lua was precompiled"
# (Lua shortens a long path from the left: match its end)
like "$err" "*ptbuild: error: *: *recipes/lib/version.lua:$line: boom*" "... and the error names its path and line ($line)"
like "$err" "*
	*recipes/lib/version.lua:$line: in *" "... so does the traceback"
run "$PTBUILD" --recipes "$T_DIR/boom" arch 8.0
first=$err
PTBUILD_NO_PRECOMPILED=1 run "$PTBUILD" --recipes "$T_DIR/boom" arch 8.0
is "$err" "$first" "... message and traceback are the same as when parsed"

# A user's copy: identical text is still precompiled (it is the same
# program); an edited one is parsed and its change takes effect.
mkdir -p "$T_DIR/copy/lib" "$T_DIR/edit/lib"
cp "$top_srcdir/recipes/lib/version.lua" "$T_DIR/copy/lib/version.lua"
run "$PTBUILD" -v --recipes "$T_DIR/copy" arch 8.0
like "$err" "*recipe $T_DIR/copy/lib/version.lua: precompiled*" "an unchanged copy under --recipes is loaded precompiled"
sed 's/^return M$/M.edited = "yes"\nreturn M/' "$top_srcdir/recipes/lib/version.lua" >"$T_DIR/edit/lib/version.lua"
cat >"$T_DIR/edit/lib/archlist.lua" <<'LUA'
local M = {}
function M.parse()
  error("edited=" .. tostring(ptb.include("lib/version").edited), 0)
end
return M
LUA
run "$PTBUILD" -v --recipes "$T_DIR/edit" arch 8.0
unlike "$err" "*edit/lib/version.lua: precompiled*" "an edited copy is parsed, not precompiled"
like "$err" "*edited=yes*" "... and the edit takes effect"

# A precompiled file on disk is still refused: only the build's own
# chunks, held in the binary, are loaded as bytecode.
if command -v luac5.4 >/dev/null 2>&1; then
	mkdir -p "$T_DIR/bin/lib"
	luac5.4 -o "$T_DIR/bin/lib/archlist.lua" "$top_srcdir/recipes/lib/archlist.lua"
	run "$PTBUILD" --recipes "$T_DIR/bin" arch 8.0
	is "$rc" 3 "a bytecode file under --recipes is refused (exit 3)"
	like "$err" "*precompiled chunks are refused*" "... saying recipes are Lua source"
else
	skip "a bytecode file under --recipes" "luac5.4 is not installed"
fi
done_testing
