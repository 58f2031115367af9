#!/bin/sh
# t0156-plan-driver-least.sh - driver-too-old names the least driver that
# runs the chosen CUDA first: minor-version compatibility's floor (Table
# 2: 580 for CUDA 13.x, 525.60.13 for 12.x) raised to the driver of the
# first CUDA that builds each GPU, then the CUDA's own minimum (Table 3),
# then, apart, what a newer driver opens in wheels.  Each driver named is
# then planned with: it runs the CUDA (no driver-too-old), and the
# branch below it does not.  Plan, doctor and a fleet plan say the same.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cd "$top_srcdir" || exit 1

# machine NAME DRIVER CUDA_MAX GPU CC [TOOLKIT]: the workstation profile
# with that driver and GPU, and no toolkit but TOOLKIT (x86_64, "X.Y.Z")
machine() {
	json_edit recipes/profiles/rtx4090-workstation.json "$T_DIR/$1.json" "
f['driver'] = {'version': '$2', 'cuda_max': '$3'}
f['gpus'] = [{'index': 0, 'name': '$4', 'compute_capability': '$5', 'memory_mib': 97887, 'source': 'test'}]
f['toolkits'] = [{'root': '/usr/local/cuda-${6%.*}', 'version': '$6', 'target': 'x86_64-linux'}] if '$6' else []"
}
plan() { "$PTBUILD" plan --facts "$T_DIR/$1.json" --torch 2.14 ${2:+--cuda "$2"} --json >"$T_DIR/p.json" 2>/dev/null </dev/null; }

pro="NVIDIA RTX PRO 6000 Blackwell Workstation Edition"
machine pro535 535.183.01 12.2 "$pro" 12.0
machine a535 535.183.01 12.2 "NVIDIA A100-SXM4-80GB" 8.0

# CUDA 13.2 on driver 535: 580 runs it through minor-version
# compatibility, 595.45.04 directly; the wheel that 580.65.06 opens comes
# after, apart
plan pro535 13.2
f=$(findings "$T_DIR/p.json" driver-too-old fix)
like "$f" "install driver 580.65.06 or newer, the least that runs CUDA 13.2 (through minor-version compatibility, without PTX JIT; driver 595.45.04 or newer runs it directly): CUDA 12.2, the newest this driver runs, does not build the $pro (compute capability 12.0); for wheels: driver 535.183.01 runs CUDA up to 12.2 directly; driver 580.65.06 or newer opens CUDA 13.0 and PyTorch 2.14's cu130 wheels*" \
	"RTX PRO 6000 on 535, CUDA 13.2: the least driver for 13.2 first, its own next, the wheels' driver apart"
plan a535 13.2
is "$(findings "$T_DIR/p.json" driver-too-old fix)" \
	"install driver 580.65.06 or newer, the least that runs CUDA 13.2 (through minor-version compatibility, without PTX JIT; driver 595.45.04 or newer runs it directly), or use CUDA 12.2 or older (--cuda)" \
	"A100 on 535, CUDA 13.2: the same least driver"
# 13.0's own minimum is of the 580 branch: nothing less runs it
plan a535 13.0
is "$(findings "$T_DIR/p.json" driver-too-old fix)" "install driver 580.65.06 or newer, or use CUDA 12.2 or older (--cuda)" \
	"A100 on 535, CUDA 13.0: its own driver, no lesser one of the same branch"
# a GPU newer than minor-version compatibility's floor raises it: the
# RTX PRO 6000 needs the driver of 12.8 (570.26), which runs 12.9
plan pro535 12.9
is "$(findings "$T_DIR/p.json" driver-too-old fix)" \
	"install driver 570.26 or newer, the least that runs CUDA 12.9 (through minor-version compatibility, without PTX JIT; driver 575.51.03 or newer runs it directly)" \
	"RTX PRO 6000 on 535, CUDA 12.9: 12.8's driver (the GPU's first), not 525.60.13"
plan pro535 12.8
is "$(findings "$T_DIR/p.json" driver-too-old fix)" "install driver 570.26 or newer: the driver of CUDA 12.8, the first CUDA that builds this GPU" \
	"... CUDA 12.8: its own driver, the GPU's first"

# The drivers named are exact: each runs the CUDA (a warning of minor-
# version compatibility at most); the branch before it does not.
machine pro580 580.65.06 13.0 "$pro" 12.0
machine a580 580.65.06 13.0 "NVIDIA A100-SXM4-80GB" 8.0
machine pro570 570.26 12.8 "$pro" 12.0
machine pro565 565.57.01 12.7 "$pro" 12.0
machine a575 575.51.03 12.9 "NVIDIA A100-SXM4-80GB" 8.0
while read -r m c want; do
	[ -n "$m" ] || continue
	plan "$m" "$c"
	is "$(python3 -c 'import json, sys; print(" ".join(sorted(x["code"] for x in json.load(open(sys.argv[1]))["problems"] if x["code"].startswith("driver-"))) or "none")' "$T_DIR/p.json")" \
		"$want" "$m with CUDA $c: $want"
done <<'ROWS'
pro580 13.2 driver-minor-compat
a580 13.2 driver-minor-compat
pro570 12.9 driver-minor-compat
pro565 12.9 driver-too-old
a575 13.2 driver-too-old
ROWS

# doctor of a machine with CUDA 13.2 installed, and a fleet plan, name
# the same least driver
machine a535tk 535.183.01 12.2 "NVIDIA A100-SXM4-80GB" 8.0 13.2.51
mkdir -p "$T_DIR/empty"
"$PTBUILD" doctor --facts "$T_DIR/a535tk.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
like "$(findings "$T_DIR/d.json" driver-too-old fix)" "install driver 580.65.06 or newer, the least that runs CUDA 13.2 (through minor-version compatibility, without PTX JIT; driver 595.45.04 or newer runs it directly), or use a toolkit no newer than CUDA 12.2" \
	"doctor, CUDA 13.2 installed on driver 535: the same least driver"
# a GPU newer than the driver as well (RTX PRO 6000, first built by 12.8):
# doctor names the driver that runs the installed 13.2 too, as plan does
# for the same facts, not 12.8's 570.26, which cannot run 13.2
machine pro535tk 535.183.01 12.2 "$pro" 12.0 13.2.51
"$PTBUILD" doctor --facts "$T_DIR/pro535tk.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
df=$(findings "$T_DIR/d.json" driver-too-old fix)
is "$df" "install driver 580.65.06 or newer, the least that runs CUDA 13.2 (through minor-version compatibility, without PTX JIT; driver 595.45.04 or newer runs it directly)" \
	"doctor, RTX PRO 6000 on driver 535 with CUDA 13.2 installed: 580, not 12.8's 570.26"
plan pro535tk 13.2
like "$(findings "$T_DIR/p.json" driver-too-old fix)" "$df*" "... the driver plan names for the same facts"
json_edit "$T_DIR/a580.json" "$T_DIR/node1.json" "f['host']['hostname'] = 'node1'; f['host']['cores'] = 64"
json_edit "$T_DIR/a535.json" "$T_DIR/node2.json" "f['host']['hostname'] = 'node2'; f['host']['cores'] = 8"
"$PTBUILD" plan --facts "$T_DIR/node1.json" --facts "$T_DIR/node2.json" --torch 2.14 --cuda 13.2 --json >"$T_DIR/f.json" 2>/dev/null
like "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("".join(x["fix"] for b in d["builds"] for x in b["problems"] if x["code"] == "driver-too-old"))' "$T_DIR/f.json")" \
	"install driver 580.65.06 or newer, the least that runs CUDA 13.2 (through minor-version compatibility, without PTX JIT; driver 595.45.04 or newer runs it directly) on *" \
	"a fleet plan's node on driver 535: the same least driver"

done_testing
