#!/bin/sh
# t0210-recipe-contracts.sh - C checks what a recipe returns before acting
# on it: a user's recipe that wraps the shipped one (ptb.include_next) and
# breaks one key of its result is refused with exit 3 and a message naming
# the key.  One case per contract of plan, detect and doctor.
. "$top_srcdir/tests/lib.sh"

n=0
broken() { # RECIPE MUTATION(lua, on `r`) EXPECTED-PATTERN NAME [ARGS...]
	recipe=$1 mut=$2 pat=$3 name=$4
	shift 4
	n=$((n + 1))
	d="$T_DIR/r$n"
	mkdir -p "$d"
	fn=make
	[ "$recipe" = detect ] && fn=enrich
	[ "$recipe" = doctor ] && fn=check
	cat >"$d/$recipe.lua" <<LUA
local shipped = ptb.include_next("$recipe")
local M = {}
for k, v in pairs(shipped) do M[k] = v end
function M.$fn(args)
  local r = shipped.$fn(args)
  $mut
  return r
end
return M
LUA
	run "$PTBUILD" --recipes "$d" "$@"
	is "$rc" 3 "$name: exit 3"
	like "$err" "$pat" "$name: the message names it"
}

P="plan --profile gh200"
# shellcheck disable=SC2086 # $P is words
{
broken plan 'r.schema = "x"' "*schema*" "plan: wrong schema" $P
broken plan 'r.cuda.platform = "linux-mips"' "*cuda.platform*" "plan: unknown platform" $P
broken plan 'r.cuda.source = "magic"' "*cuda.source*" "plan: unknown CUDA source" $P
broken plan 'r.cuda.installer = "floppy"' "*cuda.installer*" "plan: unknown installer" $P
broken plan 'r.cuda.downloads = { { name = "x" } }' "*cuda.downloads*" "plan: a download without url and sha256" $P
broken plan 'r.cmake = "flags"' "*cmake*" "plan: cmake not an object" $P
broken plan 'r.cmake.CMAKE_CUDA_ARCHITECTURES = 90' "*cmake*" "plan: a CMake value not a string" $P
broken plan 'r.openblas.via = "magic"' "*openblas.via*" "plan: unknown OpenBLAS route" $P
broken plan 'r.max_jobs = 0' "*max_jobs*" "plan: MAX_JOBS 0" $P
broken plan 'r.cmake_fresh = "yes"' "*cmake_fresh*" "plan: cmake_fresh not a boolean" $P
broken plan 'r.problems = { { severity = "fatal", code = "x", message = "m", fix = "f" } }' "*problems*" "plan: unknown severity" $P
broken plan 'r.path_prepend = "PATH"' "*path_prepend*" "plan: path_prepend not an object" $P
broken plan 'r.packages = { names = { 1 } }' "*packages.names*" "plan: a package name not a string" $P
broken plan 'r.torch_cuda_arch_list = nil' "*torch_cuda_arch_list*" "plan: no arch list" $P
broken detect 'r.gpus = { { index = 0, compute_capability = "nine" } }' "*detect.enrich*compute_capability*" "detect: a malformed compute capability" detect --json
broken detect 'r.schema = "ptbuild.plan/1"' "*detect.enrich*schema*" "detect: another schema" detect --json
broken doctor 'r.findings = { { code = "x", message = "m" } }' "*finding without severity*" "doctor: a finding without severity" doctor
broken doctor 'r.findings = "none"' "*no findings array*" "doctor: findings not an array" doctor
broken doctor 'r.needs_machine = { 1 }' "*needs_machine*" "doctor: a check it could not run not named by a string" doctor --profile gh200
broken doctor 'r.needs_machine = "path"' "*needs_machine*" "doctor: needs_machine not an array" doctor --profile gh200 --json
}
done_testing
