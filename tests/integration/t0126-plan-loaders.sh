#!/bin/sh
# t0126-plan-loaders.sh - a plan read from a file is checked exactly as a
# plan the recipe makes: one broken key, set once in a saved plan and once
# by a user's plan recipe, is refused by every path that takes a plan --
# generate --plan, fetch --plan and plan --diff (a bad input file: exit 2,
# naming the file) and the made plan (the recipe's fault: exit 3) -- each
# naming the same key and the same expectation, nothing written.
. "$top_srcdir/tests/lib.sh"

GOOD=$top_srcdir/tests/fixtures/plans/gh200.plan.json
n=0
# broken PATH KEY VALUE EXPECTED: PATH dotted (array indices from 0), KEY
# as messages name it, VALUE a JSON string or number (Lua reads it alike)
broken() {
	path=$1 key=$2 jv=$3 want=$4
	n=$((n + 1))
	f="$T_DIR/bad$n.plan.json"
	python3 - "$GOOD" "$f" "$path" "$jv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
*path, last = sys.argv[3].split(".")
o = d
for p in path:
    o = o[int(p)] if isinstance(o, list) else o[p]
o[int(last) if isinstance(o, list) else last] = json.loads(sys.argv[4])
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
	for c in "generate --plan $f --out $T_DIR/out$n" "fetch --plan $f --prefix $T_DIR/prefix$n" \
		 "plan --profile gh200 --diff $f"; do
		# shellcheck disable=SC2086 # $c is words
		run "$PTBUILD" $c
		is "$rc" 2 "$key: '${c%% *}' refuses the saved plan (2)"
		is "$err" "ptbuild: error: '$f' is not a valid plan: key '$key': expected $want" "... naming the file, the key and what it expects"
	done
	[ ! -e "$T_DIR/out$n" ] && [ ! -e "$T_DIR/prefix$n" ]; t_ok $? "$key: nothing written"
	# the same key broken in a plan the recipe makes
	d="$T_DIR/r$n"
	mkdir -p "$d"
	luakey=$(printf '%s' "$path" | awk -F. '{ s = "r"; for (i = 1; i <= NF; i++) s = s ($i ~ /^[0-9]+$/ ? "[" $i + 1 "]" : "." $i); print s }')
	cat >"$d/plan.lua" <<LUA
local shipped = ptb.include_next("plan")
local M = {}
for k, v in pairs(shipped) do M[k] = v end
function M.make(args)
  local r = shipped.make(args)
  $luakey = $jv
  return r
end
return M
LUA
	run "$PTBUILD" --recipes "$d" plan --profile gh200
	is "$rc" 3 "$key: the made plan is refused as the recipe's fault (3)"
	is "$err" "ptbuild: error: recipe 'plan.make' returned a malformed plan: key '$key': expected $want" "... naming the same key and expectation"
}

broken max_jobs max_jobs 0 "a whole number from 1 to 4096"
broken cuda.platform cuda.platform '"linux-mips"' "linux-x86_64, linux-sbsa or linux-aarch64"
broken cuda.root cuda.root '"usr/local/cuda"' "an absolute path"
broken cuda.downloads.0.sha256 'cuda.downloads[0].sha256' '"abc"' "64 lowercase hexadecimal digits"
broken torch.tag torch.tag '"v2.14.1; rm -rf /"' "a release tag such as v2.14.1"
# a plan that chooses no CUDA or wheel names a problem code; generate
# refuses such a plan by that string, so a number or a sentence there
# must not pass for "absent" (was: taken unchecked)
broken cuda.undecided cuda.undecided '"Jetson facts disagree"' "a problem code such as jetson-facts-disagree"
broken wheel.undecided wheel.undecided 1 "a problem code such as jetson-facts-disagree"

done_testing
