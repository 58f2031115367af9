#!/bin/sh
# t0132-driver-predates-gpu.sh - a driver older than a GPU (an RTX PRO
# 6000 Blackwell, first built by CUDA 12.8, on driver 535 = CUDA 12.2)
# runs nothing on it: plan, its wheel block and doctor say so as an
# error that names the driver to install, and minor-version
# compatibility is not offered as the way through.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1

# machine NAME DRIVER CUDA_MAX GPU CC: a copy of the workstation profile
machine() {
	python3 - recipes/profiles/rtx4090-workstation.json "$T_DIR/$1.json" "$2" "$3" "$4" "$5" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["driver"] = {"version": sys.argv[3], "cuda_max": sys.argv[4]}
f["gpus"] = [{"index": 0, "name": sys.argv[5], "compute_capability": sys.argv[6], "memory_mib": 97887, "source": "test"}]
f["toolkits"] = []
json.dump(f, open(sys.argv[2], "w"))
PY
}
rules() { # FILE KEY: the codes of a plan's problems or doctor's findings
	python3 -c 'import json, sys; print(" ".join(sorted(set(x.get("code") or x.get("rule") for x in json.load(open(sys.argv[1]))[sys.argv[2]]))) or "none")' "$1" "$2"
}

machine pro535 535.183.01 12.2 "NVIDIA RTX PRO 6000 Blackwell Workstation Edition" 12.0
run "$PTBUILD" plan --facts "$T_DIR/pro535.json"
is "$rc" 1 "RTX PRO 6000 on driver 535: the plan exits 1"
like "$out" "*error \\[driver-too-old\\]*fix: install driver 5[0-9][0-9]*CUDA 12.2, the newest this driver runs, does not build the NVIDIA RTX PRO 6000 Blackwell Workstation Edition*" \
	"... the error is the driver, and says the CUDA it runs cannot build the GPU"
unlike "$out" "*driver-minor-compat*" "... minor-version compatibility is not offered as the way through"
like "$out" "*No wheel runs on this machine until its driver is upgraded: nor would a source build
  driver 535.183.01 (CUDA 12.2 at most) predates the NVIDIA RTX PRO 6000 Blackwell Workstation Edition (compute capability 12.0, first built by CUDA 12.8): no wheel runs on it until the driver is upgraded*" \
	"... and no wheel is said to run on it"

# an explicit CUDA the driver runs by minor-version compatibility: still
# an error, whose fix is the driver of that CUDA
run "$PTBUILD" plan --facts "$T_DIR/pro535.json" --cuda 12.9
is "$rc" 1 "... with --cuda 12.9 (minor-version compatibility): exit 1"
like "$out" "*error \\[driver-too-old\\] driver 535.183.01 (CUDA 12.2 at most) predates the NVIDIA RTX PRO 6000 Blackwell Workstation Edition (compute capability 12.0, first built by CUDA 12.8): it runs no CUDA code on that GPU, whatever the toolkit
    fix: install driver 570.26 or newer, the least that runs CUDA 12.9 (through minor-version compatibility, without PTX JIT; driver 575.51.03 or newer runs it directly)*" \
	"... the driver is the error, with the least driver that runs 12.9 on this GPU (12.8's) as the fix, then 12.9's own"

# doctor, of the facts alone and of a fleet node, raises it too
run "$PTBUILD" doctor --facts "$T_DIR/pro535.json"
is "$rc" 1 "doctor of the same facts: exit 1"
like "$out" "*error \\[driver-too-old\\] driver 535.183.01 (CUDA 12.2 at most) predates the NVIDIA RTX PRO 6000 Blackwell Workstation Edition*fix:  install driver 570.26 or newer: the driver of CUDA 12.8, the first CUDA that builds this GPU*" \
	"... names the driver and the driver to install"
cp "$T_DIR/pro535.json" "$T_DIR/node2.json"
"$PTBUILD" doctor --facts "$T_DIR/pro535.json" --facts "$T_DIR/node2.json" --json >"$T_DIR/fleet.json" 2>/dev/null
is "$(python3 -c 'import json, sys; print(" ".join(x["code"] for x in json.load(open(sys.argv[1]))["nodes"][0]["findings"] if x["severity"] == "error"))' "$T_DIR/fleet.json")" \
	"driver-too-old" "... and doctor of a fleet node"

# a driver new enough for the GPU, and an old GPU on the old driver: none
machine pro575 575.57.08 12.9 "NVIDIA RTX PRO 6000 Blackwell Workstation Edition" 12.0
machine a100 535.183.01 12.2 "NVIDIA A100-SXM4-80GB" 8.0
for m in pro575 a100; do
	"$PTBUILD" plan --facts "$T_DIR/$m.json" --json >"$T_DIR/p.json" 2>/dev/null
	"$PTBUILD" doctor --facts "$T_DIR/$m.json" --json >"$T_DIR/d.json" 2>/dev/null
	unlike "$(rules "$T_DIR/p.json" problems) $(rules "$T_DIR/d.json" findings)" "*driver-too-old*" \
		"$m: no driver-too-old from plan or doctor"
done
like "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["wheel"]["why"])' "$T_DIR/p.json")" \
	"*covers every GPU*" "... the A100 on driver 535 still has a wheel"

# A Rubin (10.7, first built by CUDA 13.4) on driver 580 (13.0): no wheel,
# the driver to mend; on 615 (13.4): the cu130 wheel's sm_100 runs it
machine rubin580 580.95.05 13.0 "NVIDIA Rubin" 10.7
machine rubin615 615.71.09 13.4 "NVIDIA Rubin" 10.7
run "$PTBUILD" plan --facts "$T_DIR/rubin580.json"
like "$out" "*error \\[driver-too-old\\] driver 580.95.05 (CUDA 13.0 at most) predates the NVIDIA Rubin (compute capability 10.7, first built by CUDA 13.4)*
    fix: install an r615 driver or newer*" "Rubin on driver 580: the driver is the error"
unlike "$out" "A wheel covers this machine*" "... and no wheel is said to cover it"
run "$PTBUILD" plan --facts "$T_DIR/rubin615.json"
unlike "$out" "*driver-too-old*" "Rubin on driver 615: no driver-too-old"
like "$out" "*A wheel covers this machine*NVIDIA Rubin runs sm_100*" "... and a wheel's sm_100 covers it"

done_testing
