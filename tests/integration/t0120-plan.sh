#!/bin/sh
# t0120-plan.sh - `ptbuild plan`: golden plans for every profile and test
# machine with option variations, determinism, the summary, exit codes.
# PTBUILD_REGOLD=1 rewrites the goldens (review the diff before committing).
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1
G=tests/fixtures/plans
F=tests/fixtures/facts

# name | expected exit status | arguments
cases='gh200|0|--profile gh200
gh200-torch2.9|0|--profile gh200 --torch 2.9
gh200-cuda12.8|0|--profile gh200 --torch 2.9 --cuda 12.8
gh200-archlist|0|--profile gh200 --arch-list 9.0;10.0+PTX
gh200-no-cudnn|0|--profile gh200 --no-cudnn
dgx-h100|0|--profile dgx-h100
dgx-h100-torch2.5|0|--profile dgx-h100 --torch 2.5
dgx-h100-maxjobs16|0|--profile dgx-h100 --max-jobs 16
altra-a100|0|--profile altra-a100
altra-a100-torch2.7|0|--profile altra-a100 --torch 2.7
graviton3|0|--profile graviton3
graviton3-torch2.8|0|--profile graviton3 --torch 2.8
graviton3-archlist|0|--profile graviton3 --arch-list 8.0;9.0
jetson-orin|0|--profile jetson-orin
jetson-orin-torch2.7|0|--profile jetson-orin --torch 2.7
jetson-orin-cuda13.0|1|--profile jetson-orin --cuda 13.0
jetson-thor|0|--profile jetson-thor
jetson-thor-torch2.9|0|--profile jetson-thor --torch 2.9
rtx4090-workstation|0|--profile rtx4090-workstation
rtx4090-workstation-torch2.11|0|--profile rtx4090-workstation --torch 2.11
rtx4090-workstation-cuda12.1|0|--profile rtx4090-workstation --torch 2.5 --cuda 12.1
rtx4090-workstation-cuda13.5|1|--profile rtx4090-workstation --cuda 13.5
fixture-gtx1080-cuda13|0|--facts tests/fixtures/facts/gtx1080-cuda13.json
fixture-gtx1080-cuda13-cuda13.0|1|--facts tests/fixtures/facts/gtx1080-cuda13.json --cuda 13.0
fixture-rtx5090-cuda126-torch2.7|0|--facts tests/fixtures/facts/rtx5090-cuda126.json --torch 2.7
fixture-gcc15-and-13|0|--facts tests/fixtures/facts/gcc15-and-13.json
fixture-bare-x86|0|--facts tests/fixtures/facts/bare-x86.json
fixture-orin-sbsa-toolkit|1|--facts tests/fixtures/facts/orin-sbsa-toolkit.json
fixture-rtx5090-cuda126|0|--facts tests/fixtures/facts/rtx5090-cuda126.json
fixture-old-driver|1|--facts tests/fixtures/facts/old-driver.json
fixture-gcc15-only|1|--facts tests/fixtures/facts/gcc15-only.json
fixture-rhel8-gcc8|1|--facts tests/fixtures/facts/rhel8-gcc8.json
fixture-amzn2-glibc226|0|--facts tests/fixtures/facts/amzn2-glibc226.json
fixture-amzn2-glibc226-torch2.11|0|--facts tests/fixtures/facts/amzn2-glibc226.json --torch 2.11
fixture-fedora43-glibc242|0|--facts tests/fixtures/facts/fedora43-glibc242.json
fixture-altra-jetson-toolkit|1|--facts tests/fixtures/facts/altra-jetson-toolkit.json
fixture-x86-sbsa-toolkit|0|--facts tests/fixtures/facts/x86-sbsa-toolkit.json
fixture-lowmem|1|--facts tests/fixtures/facts/lowmem.json
fixture-cgroup-limits|0|--facts tests/fixtures/facts/cgroup-limits.json
fixture-a72-no-lse|0|--facts tests/fixtures/facts/a72-no-lse.json'

while IFS='|' read -r name want args; do
	# shellcheck disable=SC2086
	"$PTBUILD" plan $args --json >"$T_DIR/$name.json" 2>"$T_DIR/$name.err" </dev/null
	is "$?" "$want" "$name: exit status $want"
	if [ -n "${PTBUILD_REGOLD:-}" ]; then
		cp "$T_DIR/$name.json" "$G/$name.plan.json"
	fi
	if diff -u "$G/$name.plan.json" "$T_DIR/$name.json" >"$T_DIR/diff" 2>&1; then
		t_ok 0 "$name: matches $G/$name.plan.json"
	else
		t_ok 1 "$name: matches $G/$name.plan.json"
		sed 's/^/# /' "$T_DIR/diff" | head -40
	fi
done <<EOF_CASES
$cases
EOF_CASES

# Deterministic: the same inputs give the same bytes.
"$PTBUILD" plan --profile gh200 --json >"$T_DIR/a.json"
"$PTBUILD" plan --profile gh200 --json >"$T_DIR/b.json"
cmp -s "$T_DIR/a.json" "$T_DIR/b.json"
t_ok $? "byte-identical JSON on a second run"
"$PTBUILD" plan --facts recipes/profiles/gh200.json --json >"$T_DIR/c.json"
grep -v '"facts_source"' "$T_DIR/a.json" >"$T_DIR/a2"
grep -v '"facts_source"' "$T_DIR/c.json" >"$T_DIR/c2"
cmp -s "$T_DIR/a2" "$T_DIR/c2"
t_ok $? "--facts with the profile's file gives the same plan"

# The summary
run "$PTBUILD" plan --profile gh200
is "$rc" 0 "summary exits 0"
if [ -n "${PTBUILD_REGOLD:-}" ]; then printf '%s\n' "$out" >"$G/gh200.summary.txt"; fi
printf '%s\n' "$out" >"$T_DIR/summary"
diff -u "$G/gh200.summary.txt" "$T_DIR/summary" >/dev/null
t_ok $? "gh200 summary matches $G/gh200.summary.txt"
like "$out" "*the newest release ptbuild knows*" "summary says the default PyTorch"
run "$PTBUILD" plan --profile jetson-orin --cuda 13.0
is "$rc" 1 "summary: an error problem exits 1"
like "$out" "*error ?jetson-orin-needs-cuda-13.2? *fix: *" "summary shows the problem and its fix"

# Usage errors
run "$PTBUILD" plan --profile gh200 --torch 1.13
is "$rc" 2 "unknown --torch: exit 2"
like "$err" "*unknown PyTorch release '1.13'*known releases: 2.4 2.5*" "unknown --torch lists the known ones"
run "$PTBUILD" plan --profile gh200 --cuda 10.2
is "$rc" 2 "unknown --cuda: exit 2"
like "$err" "*unknown CUDA release '10.2'*releases a plan installs: 11.8 12.0*" "unknown --cuda lists the known ones"
run "$PTBUILD" plan --profile gh200 --cuda twelve
is "$rc" 2 "malformed --cuda: exit 2"
run "$PTBUILD" plan --profile gh200 --arch-list Auto
is "$rc" 2 "--arch-list Auto: exit 2"
like "$err" "*not an explicit list*" "--arch-list Auto says why"
run "$PTBUILD" plan --profile gh200 --arch-list '08.0;9.0'
is "$rc" 2 "--arch-list with a leading zero: exit 2"
like "$err" "*'08.0': a leading zero*nvcc refuses compute_080*hint: write '8.0'*" "... naming the flag nvcc would refuse and the fix"
run "$PTBUILD" plan --profile gh200 --arch-list '9.0a(9.0)'
is "$rc" 2 "--arch-list '9.0a(9.0)': exit 2"
like "$err" "*arch=compute_(90),code=sm_(90)*hint: write '9.0a'*" "... naming what PyTorch's CMake would ask nvcc for"
run "$PTBUILD" plan --profile gh200 --facts "$F/lowmem.json"
is "$rc" 2 "--facts with --profile: exit 2"
run "$PTBUILD" plan --profile no-such-machine
is "$rc" 2 "unknown profile: exit 2"
like "$err" "*known profiles:*gh200*" "unknown profile lists the known ones"
run "$PTBUILD" plan --profile gh200 --max-jobs 0
is "$rc" 2 "--max-jobs 0: exit 2"
printf '{"schema":"ptbuild.plan/1"}' >"$T_DIR/notfacts.json"
run "$PTBUILD" plan --facts "$T_DIR/notfacts.json"
is "$rc" 2 "a plan given as facts: exit 2"
run "$PTBUILD" plan
is "$rc" 0 "this host: a plan (exit 0)"

# A user's recipe directory overrides the shipped policy (recipes/API.md)
mkdir -p "$T_DIR/r/lib"
cat >"$T_DIR/r/lib/host.lua" <<'LUA'
local shipped = ptb.include_next("lib/host")
shipped.GIB_PER_JOB = 8
return shipped
LUA
run "$PTBUILD" --recipes "$T_DIR/r" plan --profile rtx4090-workstation --json
like "$out" '*"MAX_JOBS": "7"*' "an override recipe changes MAX_JOBS (8 GiB per job)"

done_testing
