#!/bin/sh
# t0152-plan-driver-opens.sh - a GPU newer than the CUDAs with wheels the
# driver runs: the plan's advice says what this driver allows and what
# the least newer driver (its minimum from data/cuda.lua) would open --
# the CUDA, PyTorch's wheels of it, and whether one would then cover the
# machine -- for every GPU and driver where that is so, and nothing of
# the kind where the driver is not what stands in the way; doctor's fix
# of a GPU newer than the toolkit says the same.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cd "$top_srcdir" || exit 1
fx=tests/fixtures/facts/rtx5090-cuda126.json

# facts NAME PYTHON: the RTX 5090 fixture edited by PYTHON (f is the facts)
facts() { json_edit "$fx" "$T_DIR/$1.json" "$2"; }
facts r570 "pass"
facts b200 "f['gpus'][0].update(name='NVIDIA B200', compute_capability='10.0')"
facts r575 "f['driver'] = {'version': '575.51.03', 'cuda_max': '12.9'}"
facts gb10 "f['gpus'][0].update(name='NVIDIA GB10', compute_capability='12.1')"
facts r580 "f['driver'] = {'version': '580.65.06', 'cuda_max': '13.0'}"
facts blind "f['driver'] = None; f['gpus'] = []"

# fix CODE: the fix of problem CODE in $T_DIR/p.json ("" when none)
fix() {
	python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))
print("".join(x["fix"] for x in p["problems"] if x["code"] == sys.argv[2]))' "$T_DIR/p.json" "$1"
}
plan() { "$PTBUILD" plan --facts "$T_DIR/$1.json" --torch 2.14 --json >"$T_DIR/p.json" 2>/dev/null </dev/null; }
wheel_why() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["wheel"]["why"])' "$T_DIR/p.json"; }

opens="driver 580.65.06 or newer opens CUDA 13.0 and PyTorch 2.14's cu130 wheels, which cover this machine: no source build needed"

# RTX 5090 (sm_120) and B200 (sm_100) on driver 570: CUDA 12.8 is the
# newest it runs and 2.14 ships no 12.8 wheel; 580.65.06 opens 13.0.
for m in "r570 570.124.06 12.8" "b200 570.124.06 12.8" "r575 575.51.03 12.9"; do
	set -- $m
	plan "$1"
	f=$(fix torch-cuda-untested)
	like "$f" "*keep $3 and run PyTorch's CUDA tests*" "$1: the fix still keeps $3"
	like "$f" "*driver $2 runs CUDA up to $3 directly; $opens*" "$1: the fix names what driver $2 allows and what 580.65.06 opens"
	like "$(wheel_why)" "*; with driver 580.65.06 or newer its cu130 wheel would cover this machine" \
		"$1: the wheel verdict names the driver that lets the cu130 wheel do"
done
run "$PTBUILD" plan --facts "$T_DIR/r570.json" --torch 2.14
like "$out" "*fix: no CUDA that PyTorch 2.14 ships wheels for suits this machine: keep 12.8*$opens)*" \
	"the text plan carries the same fix"

# GB10 (sm_121) on driver 570: the driver predates the GPU; the fix
# names the least driver that runs 13.2 (the chosen CUDA: 580, through
# minor-version compatibility, then 595.45.04), and apart, what
# 580.65.06 opens in wheels.
plan gb10
f=$(fix driver-too-old)
like "$f" "install driver 580.65.06 or newer, the least that runs CUDA 13.2 (through minor-version compatibility, without PTX JIT; driver 595.45.04 or newer runs it directly): *; for wheels: driver 570.124.06 runs CUDA up to 12.8 directly; $opens" \
	"GB10 on 570: the least driver for 13.2 first, then the upgrade that opens a CUDA with wheels"

# A driver that runs 13.0: a wheel covers the machine, nothing to upgrade.
plan r580
is "$(fix torch-cuda-untested)" "" "driver 580: no torch-cuda-untested"
unlike "$(cat "$T_DIR/p.json")" "*opens CUDA*" "driver 580: no upgrade advice"
# No driver seen: nothing to upgrade either.
plan blind
unlike "$(cat "$T_DIR/p.json")" "*opens CUDA*" "no driver seen: no upgrade advice"

# doctor's gpu-newer-than-toolkit (the fixture's CUDA 12.6 cannot build
# the GPU) gives the same advice, for the newest PyTorch.
dfix() {
	"$PTBUILD" doctor --facts "$T_DIR/$1.json" --json >"$T_DIR/d.json" 2>/dev/null </dev/null
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("".join(x["fix"] for x in d["findings"] if x["code"] == "gpu-newer-than-toolkit"))' "$T_DIR/d.json"
}
for m in "r570 570.124.06 12.8" "b200 570.124.06 12.8" "r575 575.51.03 12.9"; do
	set -- $m
	like "$(dfix "$1")" "install CUDA 12.8 or newer (driver $2 runs CUDA up to $3 directly; $opens)" \
		"doctor, $1: the fix names what driver $2 allows and what 580.65.06 opens"
done
is "$(dfix r580)" "install CUDA 12.8 or newer" "doctor, driver 580: no upgrade advice"

done_testing
