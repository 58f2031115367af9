#!/bin/sh
# t0139-plan-jetson-thor-cuda.sh - Jetson Thor builds with CUDA 13.0 and
# later only.  Every JetPack for Thor is JetPack 7 or later (L4T 38 on),
# whose own CUDA is 13.0 and whose CUDA 13 driver calls the GPU compute
# capability 11.0; CUDA 12.8 and 12.9 know Thor only as sm_101 (NVIDIA's
# nvCOMPDx/cuRANDDx notes: "Thor SM renaming from sm_101 to sm_110 starting
# from CUDA 13.0"), and NVIDIA's table of the CUDAs JetPack 7.0 runs lists
# 13.0 alone (CUDA for Tegra application note).  Plan and doctor refuse a
# CUDA before 13.0 there with one problem naming the fix; the automatic
# choice never takes one; other machines are not touched.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

thor=recipes/profiles/jetson-thor.json
# variant NAME EDIT: the Thor profile edited by a line of Python on f
variant() { json_edit "$thor" "$T_DIR/$1.json" "$2"; }
variant thor 'pass'
variant thor-nogpu 'f["gpus"] = []'                                # known by its module alone
variant thor-129 'f["toolkits"] = [{"root": "/usr/local/cuda-12.9", "version": "12.9.86", "target": "sbsa-linux"}]'
variant orin 'f["gpus"] = [{"index": 0, "name": "Orin", "compute_capability": "8.7"}]; f["jetson"] = {"l4t": "36.4.3", "module": "Jetson AGX Orin"}; f["host"]["os"]["version_id"] = "22.04"; f["toolkits"] = []; f["driver"] = None'
cp recipes/profiles/gh200.json "$T_DIR/gh200.json"
codes() { # PLAN.json: the error codes, sorted
	python3 -c 'import json, sys; print(" ".join(sorted(x["code"] for x in json.load(open(sys.argv[1]))["problems"] if x["severity"] == "error")) or "none")' "$1"
}

# FACTS TORCH CUDA -> the plan's errors, then what its text says (a glob)
plan_rows codes <<'EOF'
thor|2.14|12.8|jetson-thor-needs-cuda-13|CUDA 12.8 does not build for Jetson Thor (GPU 11.0): its JetPacks (7 and later) run CUDA 13's driver, which calls the GPU compute capability 11.0, and CUDA 12.8 knows it only as sm_101; NVIDIA supports it from CUDA 13.0
thor|2.14|12.9|jetson-thor-needs-cuda-13|fix: use CUDA 13.0 or newer (--cuda 13.0)
thor|2.14|12.6|jetson-thor-needs-cuda-13|CUDA 12.6 does not know it at all
thor|2.7||jetson-thor-needs-cuda-13|fix: use CUDA 13.0 or newer, with PyTorch 2.9 or newer: PyTorch 2.7 builds no CUDA that new (--torch 2.9 --cuda 13.0)
thor|2.14|13.0|none|cuda           CUDA 13.0
thor|2.14||none|for linux-sbsa
thor-nogpu|2.14|12.9|jetson-thor-needs-cuda-13|CUDA 12.9 does not build for Jetson Thor
thor-129|2.14||none|download, redist
thor-129|2.8|12.9|jetson-thor-needs-cuda-13|installed in /usr/local/cuda-12.9
orin|2.9|12.8|none|CUDA 12.8 (12.8.1) for linux-aarch64
gh200|2.8|12.8|none|CUDA 12.8
EOF

# the automatic choice on a Thor whose only toolkit is a 12.9: a CUDA 13
"$PTBUILD" plan --facts "$T_DIR/thor-129.json" --torch 2.14 --json >"$T_DIR/p.json" 2>/dev/null
v=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["cuda"]["version"])' "$T_DIR/p.json")
case $v in 13.*) t_ok 0 "a Thor with only CUDA 12.9 installed: the plan downloads CUDA $v instead" ;;
*) t_ok 1 "a Thor with only CUDA 12.9 installed: the plan downloads CUDA $v instead" ;; esac
# a CUDA 12 plan for Thor gets no second, misleading GPU problem (12.8
# "builds" it as sm_101; arch-list-empty would send the user to --arch-list)
"$PTBUILD" plan --facts "$T_DIR/thor.json" --cuda 12.6 --json >"$T_DIR/p.json" 2>/dev/null
is "$(codes "$T_DIR/p.json")" "jetson-thor-needs-cuda-13" "Thor with CUDA 12.6: no gpu-newer-than-toolkit pointing to 12.8, no arch-list-empty"

# doctor of the machine with CUDA 12.9 in use, by its facts
mkdir -p "$T_DIR/empty"
run "$PTBUILD" doctor --facts "$T_DIR/thor-129.json" --sysroot "$T_DIR/empty" --json
is "$(printf '%s' "$out" | python3 -c 'import json, sys; print(" ".join(sorted(x["code"] for x in json.load(sys.stdin)["findings"] if x["severity"] == "error")))')" \
	"jetson-thor-needs-cuda-13" "doctor of a Thor using CUDA 12.9: the same error"
run "$PTBUILD" doctor --facts "$T_DIR/thor-129.json" --sysroot "$T_DIR/empty"
like "$out" "*CUDA 12.9 does not build for Jetson Thor*install CUDA 13.0 or newer*" "... whose text names the fix"
run "$PTBUILD" doctor --facts "$thor" --sysroot "$T_DIR/empty" --json
unlike "$out" "*jetson-thor-needs-cuda-13*" "doctor of the Thor profile (CUDA 13.0): none"

done_testing
