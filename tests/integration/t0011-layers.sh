#!/bin/sh
# t0011-layers.sh - the layers of src/ (doc/DESIGN.md) hold: each folder
# includes only itself and the folders below it, as tools/check-layers.sh
# decides; and the checker itself catches an include that goes up, one
# that goes sideways to a higher layer, a folder in no layer, a process
# started outside util/run.c and a recipe called past lua/recipe.c.
. "$top_srcdir/tests/lib.sh"

check=$top_srcdir/tools/check-layers.sh
run sh "$check" "$top_srcdir/src"
is "$rc" 0 "src/: no layer includes a layer above it"
is "$out" "" "... and nothing is reported"

# A copy of the tree to break on purpose.
cp -R "$top_srcdir/src" "$T_DIR/src"
find "$T_DIR/src" -name '*.o' -delete

# util (the bottom) reaching up into the core
printf '#include "core/plan.h"\n' >>"$T_DIR/src/util/util.h"
run sh "$check" "$T_DIR/src"
is "$rc" 1 "util including core/plan.h: exit 1"
like "$out" "*util/util.h: includes \"core/...\" (util may not use core)*" "... naming the file and the two layers"

# detect (observation) reaching the commands
cp "$top_srcdir/src/util/util.h" "$T_DIR/src/util/util.h"
printf '#include "cmd/common.h"\n' >>"$T_DIR/src/detect/detect.c"
run sh "$check" "$T_DIR/src"
is "$rc" 1 "detect including cmd/common.h: exit 1"
like "$out" "*detect/detect.c: includes \"cmd/...\"*" "... named"
cp "$top_srcdir/src/detect/detect.c" "$T_DIR/src/detect/detect.c"

# cli and cmd share a level: the dispatch table and the context
run sh "$check" "$T_DIR/src"
is "$rc" 0 "the restored copy passes (cli <-> cmd is one level)"

# a process started outside the runner, a recipe called past the wrapper
printf 'static int ptb_x(void) { return fork(); }\n' >>"$T_DIR/src/fetch/install.c"
printf 'static int ptb_y(void) { return ptb_lua_call(0, "plan", "make", 0, 0, 0); }\n' >>"$T_DIR/src/cmd/plan.c"
run sh "$check" "$T_DIR/src"
is "$rc" 1 "fork() in fetch/install.c, ptb_lua_call in cmd/plan.c: exit 1"
like "$out" "*fetch/install.c: starts a process (only util/run.c may)*" "... the process named"
like "$out" "*cmd/plan.c: calls a recipe with ptb_lua_call (use ptb_recipe_call)*" "... and the recipe call"
cp "$top_srcdir/src/fetch/install.c" "$T_DIR/src/fetch/install.c"
cp "$top_srcdir/src/cmd/plan.c" "$T_DIR/src/cmd/plan.c"

# a folder no layer names
mkdir "$T_DIR/src/extra" && printf 'int x;\n' >"$T_DIR/src/extra/x.c"
run sh "$check" "$T_DIR/src"
is "$rc" 2 "a folder in no layer: exit 2"
like "$err" "*'extra' is in no layer*" "... named, with where to add it"

# No function of src/ or recipes/ is over 80 lines (tools/funclen.py),
# so that a reader can hold each one.
if command -v python3 >/dev/null 2>&1; then
	# the tool counts the functions a recipe passes as arguments too
	# (doctor.lua's check("name", ..., function(c) ... end)), not only
	# named ones: an 81-line one and a 3-line one
	{
		echo 'check("long-check", "error", nil, function(c)'
		i=0; while [ $i -lt 79 ]; do echo '  local x = 1'; i=$((i + 1)); done
		echo 'end)'
		printf 'check("short", "warning", nil, function(c)\n  return\nend)\n'
	} >"$T_DIR/anon.lua"
	python3 "$top_srcdir/tools/funclen.py" "$T_DIR/anon.lua" >"$T_DIR/anon.out" 2>&1
	is "$(cat "$T_DIR/anon.out")" "  81 $T_DIR/anon.lua:1 check(long-check)
# 1 function(s) over 80 lines, of 2" "funclen.py measures an anonymous function passed as an argument"
	(cd "$top_srcdir" && python3 tools/funclen.py $(find src recipes \( -name '*.c' -o -name '*.lua' \) ! -name precompiled.c | sort)) >"$T_DIR/len" 2>&1
	is "$(tail -n 1 "$T_DIR/len" | sed 's/, of [0-9]*$//')" "# 0 function(s) over 80 lines" "no function in src/ or recipes/ is over 80 lines$(grep -v '^#' "$T_DIR/len" | head -3 | tr '\n' ' ')"
else
	skip "no function over 80 lines" "python3 is not installed"
fi

done_testing
