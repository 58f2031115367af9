#!/bin/sh
# t0212-recipe-errors.sh - one rule for what a recipe answers, in every
# command that calls one (arch, plan, fleet, generate, doctor, detect;
# recipes/API.md "Errors"): a user's recipe wraps the shipped one
# (ptb.include_next) and answers { errors = [...] } or no document.  Kind
# "usage" is exit 2, "unsupported" exit 1, any other kind or none exit 3
# with the message naming the recipe entry; several errors are all shown,
# the strongest status wins; a raised error is 3 with its file and line.
. "$top_srcdir/tests/lib.sh"

P=$top_srcdir/recipes/profiles
n=0
# answer RECIPE FN BODY: a recipe dir whose RECIPE.FN returns BODY (Lua,
# with `args` and the shipped module `shipped`); sets $d.
answer() {
	n=$((n + 1))
	d="$T_DIR/r$n"
	mkdir -p "$d"
	cat >"$d/$1.lua" <<LUA
local shipped = ptb.include_next("$1")
local M = {}
for k, v in pairs(shipped) do M[k] = v end
function M.$2(args)
  $3
end
return M
LUA
}

answer arch convert 'return { errors = { { message = "no kind here" } } }'
run "$PTBUILD" --recipes "$d" arch 8.0
is "$rc" 3 "arch: an error of no kind is a recipe error (3)"
is "$err" "ptbuild: error: recipe 'arch.convert' failed: no kind here" "... naming the recipe entry"
is "$out" "" "... nothing on stdout"

answer arch convert 'return { errors = { { kind = "unsupported", message = "first", hint = "h1" },
                                         { kind = "usage", message = "second", hint = "h2" } } }'
run "$PTBUILD" --recipes "$d" arch 8.0
is "$rc" 2 "arch: usage wins over unsupported (2)"
is "$err" "ptbuild: error: first
hint: h1
ptbuild: error: second
hint: h2" "... every error shown, in order, with its hint"

answer arch convert 'return { errors = "none" }'
run "$PTBUILD" --recipes "$d" arch 8.0
is "$rc" 3 "arch: errors not an array is a recipe error (3)"
like "$err" "*recipe 'arch.convert' returned a malformed answer: key 'errors'*" "... naming the recipe and the key"

answer plan make 'return { errors = { { kind = "unsupported", message = "no such machine" } } }'
run "$PTBUILD" --recipes "$d" plan --profile gh200
is "$rc" 1 "plan: unsupported is exit 1, as in arch"
is "$err" "ptbuild: error: no such machine" "... the message as the recipe wrote it"

answer plan make 'return { errors = { { kind = "recipe", message = "lost" } } }'
run "$PTBUILD" --recipes "$d" generate --profile gh200 --out "$T_DIR/gen$n"
is "$rc" 3 "generate: the plan recipe's own fault is exit 3"
is "$err" "ptbuild: error: recipe 'plan.make' failed: lost" "... naming plan.make"
[ -e "$T_DIR/gen$n" ]; t_ok $((1 - $?)) "... nothing written"

answer generate files 'return { errors = { { kind = "recipe", message = "no template" } } }'
run "$PTBUILD" --recipes "$d" generate --profile gh200 --out "$T_DIR/gen$n"
is "$rc" 3 "generate: a recipe-kind error is exit 3"
is "$err" "ptbuild: error: recipe 'generate.files' failed: no template" "... naming generate.files"

answer fleet make 'return { errors = { { message = "confused" } } }'
run "$PTBUILD" --recipes "$d" plan --facts "$P/gh200.json" --facts "$P/dgx-h100.json"
is "$rc" 3 "fleet: an error of no kind is exit 3"
is "$err" "ptbuild: error: recipe 'fleet.make' failed: confused" "... naming fleet.make"

answer doctor check 'return { errors = { { kind = "usage", message = "bad input", hint = "fix it" } } }'
run "$PTBUILD" --recipes "$d" doctor --profile gh200
is "$rc" 2 "doctor: its recipe's usage error is exit 2, as everywhere"
is "$err" "ptbuild: error: bad input
hint: fix it" "... the message and hint as written"

answer doctor check 'return "fine"'
run "$PTBUILD" --recipes "$d" doctor --profile gh200
is "$rc" 3 "doctor: no document is exit 3"
is "$err" "ptbuild: error: recipe 'doctor.check' returned no document" "... naming doctor.check"

answer detect enrich 'return { errors = { { kind = "unsupported", message = "cannot read this machine" } } }'
run "$PTBUILD" --recipes "$d" detect --json
is "$rc" 1 "detect: its recipe's unsupported error is exit 1"
is "$err" "ptbuild: error: cannot read this machine" "... the message as written"
is "$out" "" "... no document on stdout"

answer plan make 'local x; return x.y'
run "$PTBUILD" --recipes "$d" plan --profile gh200
is "$rc" 3 "plan: a raised error is exit 3"
like "$err" "*recipe error in 'plan.make': *plan.lua:5: attempt to index a nil value*" "... naming the entry, file and line"

done_testing
