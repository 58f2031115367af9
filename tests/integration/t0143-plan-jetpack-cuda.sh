#!/bin/sh
# t0143-plan-jetpack-cuda.sh - on a Jetson the JetPack decides which SBSA
# CUDA runs.  NVIDIA's table of the CUDAs its upgrade package supports per
# JetPack (CUDA for Tegra, "Use the Right Upgrade Package") marks JetPack
# 7.0 "Default" for 13.0 and "13.1 onwards" not compatible, names no 7.1
# at all, and gives 7.2 13.2 (its own), 13.3 and 13.4.  A Jetson Thor on
# JetPack 7.0 or 7.1 (driver of CUDA 13.0) thus runs no CUDA 13.1 or later
# -- not directly, not through the upgrade package, and not through
# minor-version compatibility, which the table overrides (JetPack 6's 12.2
# driver gets no 12.3).  Plan and doctor say so with one error whose fix
# is the JetPack's own CUDA or a flash of JetPack 7.2, and no
# driver-minor-compat warning sending the user to a desktop driver; the
# automatic choice never takes such a CUDA, even with no driver seen.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

thor=recipes/profiles/jetson-thor.json
# variant NAME EDIT: the Thor profile (JetPack 7.0, L4T 38.2.0, driver
# 580, CUDA 13.0 installed) edited by a line of Python on f
variant() { json_edit "$thor" "$T_DIR/$1.json" "$2"; }
variant thor70 'pass'
variant thor71 'f["jetson"]["l4t"] = "38.4.0"'
variant thor72 'f["jetson"]["l4t"] = "39.2.0"; f["driver"] = {"version": "595.00", "cuda_max": "13.2"}; f["toolkits"] = []'
variant thor70-nodrv 'f["driver"] = None; f["toolkits"] = []'
variant thor70-131 'f["toolkits"] = [{"root": "/usr/local/cuda-13.1", "version": "13.1.115", "target": "sbsa-linux"}]'
variant orin72 'f["gpus"] = [{"index": 0, "name": "Orin", "compute_capability": "8.7"}]; f["jetson"] = {"l4t": "39.2.0", "module": "Jetson AGX Orin"}; f["toolkits"] = []; f["driver"] = None'
cp recipes/profiles/gh200.json "$T_DIR/gh200.json"
# PLAN.json: its errors and any driver-minor-compat warning, sorted (the
# warning stays where no JetPack decides: a server, or a CUDA JetPack 7.2
# runs beside its driver of 13.2 whose upgrade package ptbuild names none
# of; where the plan loads the package, whose libcuda is that CUDA's own,
# there is none)
codes() {
	python3 -c 'import json, sys; print(" ".join(sorted(x["code"] for x in json.load(open(sys.argv[1]))["problems"] if x["severity"] == "error" or x["code"] == "driver-minor-compat")) or "none")' "$1"
}

# FACTS TORCH CUDA -> the plan's errors, then what its text says (a glob)
plan_rows codes <<'EOF2'
thor70|2.14|13.1|jetpack-too-old-for-cuda|CUDA 13.1 will not run on this Jetson's JetPack 7.0 (L4T 38.2.0): its driver is CUDA 13.0's
thor70|2.14|13.1|jetpack-too-old-for-cuda|fix: use CUDA 13.0, the one JetPack 7.0 runs (--cuda 13.0), or flash JetPack 7.2 (L4T 39.2), which runs CUDA 13.2, 13.3 (only through an NVIDIA upgrade package ptbuild cannot name), 13.4 (none of them 13.1), and choose one of those
thor70|2.14|13.2|jetpack-too-old-for-cuda|'13.1 onwards' not compatible
thor70|2.14|13.4|jetpack-too-old-for-cuda|or flash JetPack 7.2 (L4T 39.2), which runs CUDA 13.2, 13.3 (only through an NVIDIA upgrade package ptbuild cannot name), 13.4, and plan again
thor70|2.14|13.5|jetpack-too-old-for-cuda|(none of them 13.5)
thor71|2.14|13.2|jetpack-too-old-for-cuda|CUDA 13.2 will not run on this Jetson's JetPack 7.1 (L4T 38.4.0)
thor70|2.14|13.0|none|installed, in /usr/local/cuda-13.0
thor70|2.14||none|CUDA 13.0 (13.0.48) for linux-sbsa, installed
thor70-nodrv|2.14||none|CUDA 13.0 (13.0.3) for linux-sbsa, download
thor72|2.14|13.1|none|CUDA 13.1 (13.1.2) for linux-sbsa
thor72|2.14|13.3|driver-minor-compat|JetPack 7.2's driver is CUDA 13.2's: programs built with CUDA 13.3 run on it only with NVIDIA's CUDA 13.3 upgrade package for Jetson, which ptbuild names none of
thor72|2.14|13.3|driver-minor-compat|fix: install NVIDIA's CUDA 13.3 upgrade package for Jetson and put its directory first on LD_LIBRARY_PATH
thor72|2.14|13.4|none|cuda_compat    cuda-compat-13-4
orin72|2.14|13.4|none|CUDA 13.4
gh200|2.14|13.1|driver-minor-compat|CUDA 13.1
EOF2

# doctor of the JetPack 7.0 Thor using CUDA 13.1, by its facts
mkdir -p "$T_DIR/empty"
doc_codes() {
	python3 -c 'import json, sys; print(" ".join(sorted(x["code"] for x in json.load(sys.stdin)["findings"] if x["severity"] == "error" or x["code"] == "driver-too-old")) or "none")'
}
run "$PTBUILD" doctor --facts "$T_DIR/thor70-131.json" --sysroot "$T_DIR/empty" --json
is "$(printf '%s' "$out" | doc_codes)" "jetpack-too-old-for-cuda" "doctor of a JetPack 7.0 Thor using CUDA 13.1: the same error, no driver warning"
run "$PTBUILD" doctor --facts "$T_DIR/thor70-131.json" --sysroot "$T_DIR/empty"
like "$out" "*CUDA 13.1 will not run on this Jetson's JetPack 7.0*build with CUDA 13.0, the one JetPack 7.0 runs, or flash JetPack 7.2 (L4T 39.2)*" "... whose text names the fix"
# JetPack 7.2 runs 13.3 through an upgrade package no source read names:
# doctor says so as plan does, never "install driver ..."
variant thor72-133 'f["jetson"]["l4t"] = "39.2.0"; f["driver"] = {"version": "595.00", "cuda_max": "13.2"}; f["toolkits"] = [{"root": "/usr/local/cuda-13.3", "version": "13.3.40", "target": "sbsa-linux"}]'
run "$PTBUILD" doctor --facts "$T_DIR/thor72-133.json" --sysroot "$T_DIR/empty"
like "$out" "*warning ?driver-too-old? JetPack 7.2's driver is CUDA 13.2's: programs built with CUDA 13.3 run on it only with NVIDIA's CUDA 13.3 upgrade package for Jetson*" \
	"doctor of a JetPack 7.2 Thor using CUDA 13.3: the upgrade package it needs"
unlike "$out" "*install driver*" "... not a driver to install"
run "$PTBUILD" doctor --facts "$thor" --sysroot "$T_DIR/empty" --json
is "$(printf '%s' "$out" | doc_codes)" "none" "doctor of the Thor profile (CUDA 13.0 on JetPack 7.0): none"

done_testing
