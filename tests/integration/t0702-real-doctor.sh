#!/bin/sh
# t0702-real-doctor.sh - doctor and plan on Debian's PyTorch 2.6 CUDA build
# (python3-torch-cuda, libtorch-cuda-2.6: torch-2.6.0+debian.egg-info,
# torch/version.py, libtorch_cuda.so in the multiarch directory, not in
# torch/lib).  doctor reads torch's version, CUDA and architectures from
# the files and flags what each machine's driver and GPU make of them.
# The sysroot is built of hard links to the cache (nothing is copied).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/realinputs/lib.sh"
real_debs python3-torch-cuda libtorch-cuda-2.6 libcudart12
command -v python3 >/dev/null 2>&1 || skip_all "no python3 to edit the facts JSON"

S=$T_DIR/root
site=usr/lib/python3/dist-packages
mkdir -p "$S/$site/torch" "$S/usr/lib" "$S/proc/driver/nvidia"
if ! cp -al "$REAL_ROOT/usr/lib/x86_64-linux-gnu" "$S/usr/lib/" 2>"$T_DIR/cp.err" ||
	! cp -al "$REAL_ROOT/$site/torch/lib" "$REAL_ROOT/$site/torch/version.py" "$S/$site/torch/" ||
	! cp -al "$REAL_ROOT/$site"/torch-*.egg-info "$S/$site/"; then
	skip_all "cannot hard-link the cache into the test directory (another file system?): $(cat "$T_DIR/cp.err")"
fi
ls "$S/usr/lib/x86_64-linux-gnu/libtorch_cuda.so.2.6" >/dev/null && [ ! -e "$S/$site/torch/lib/libtorch_cuda.so" ]
t_ok $? "Debian keeps libtorch_cuda.so in the multiarch directory, not in torch/lib"

# facts: x86_64, a driver and one GPU (FACTS DRIVER CUDA_MAX NAME CC)
facts() {
	"$PTBUILD" detect --sysroot "$S" --json >"$T_DIR/base.json" 2>/dev/null
	python3 - "$T_DIR/base.json" "$@" <<'PY' >"$T_DIR/$1.json"
import json, sys
d = json.load(open(sys.argv[1]))
_, _, name, drv, cmax, gpu, cc = sys.argv
d["host"]["arch"] = "x86_64"
d["driver"] = {"version": drv, "cuda_max": cmax, "source": "test"}
d["gpus"] = [{"index": 0, "name": gpu, "compute_capability": cc, "source": "test"}]
print(json.dumps(d))
PY
}
doctor() { # FACTS [ENV...]
	f=$1; shift
	run env -i PATH=/usr/bin:/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$@" \
		"$PTBUILD" doctor --sysroot "$S" --facts "$T_DIR/$f.json" --json
}

facts ada 570.124.06 12.8 "NVIDIA GeForce RTX 4090" 8.9
doctor ada
is "$rc" 0 "an RTX 4090 with driver 570: doctor exits 0"
unlike "$out" "*torch-gpu-ptx-only*" "...and no JIT warning (it has sm_86 SASS)"
run env -i PATH=/usr/bin:/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" doctor --sysroot "$S" --facts "$T_DIR/ada.json"
unlike "$out" "*error \[*" "...no error at all"

facts blackwell 575.51.03 12.9 "NVIDIA GeForce RTX 5090" 12.0
doctor blackwell
like "$out" '*"code": "torch-gpu-ptx-only"*' "an RTX 5090 (12.0): flagged, no SASS for it"
like "$out" '*torch 2.6.0+debian has no SASS for NVIDIA GeForce RTX 5090 (compute capability 12.0)*JIT-compiling its PTX (9.0)*' \
	"...naming torch's version (from the egg-info) and its PTX 9.0"
like "$out" '*libtorch_cuda.so.2.6 holds SASS 5.0 6.0 7.0 7.5 8.0 8.6 9.0; PTX 9.0*' \
	"...read from the real library's fat binaries"

facts kepler 470.256.02 11.4 "Tesla K80" 3.7
doctor kepler
is "$rc" 1 "a Tesla K80 (3.7) with driver 470: doctor exits 1"
like "$out" '*"code": "torch-lacks-gpu"*has no code for Tesla K80*' "...no code for the K80 at all"
like "$out" '*"code": "torch-driver-too-old"*driver 470.256.02 is too old for the CUDA 12.4 the installed torch 2.6.0+debian was built with*' \
	"...and driver 470 too old for torch's CUDA 12.4 (from torch/version.py)"

# a second CUDA first on LD_LIBRARY_PATH: this machine's real libcudart 13
c13=$(ls /usr/local/cuda/lib64/libcudart.so.1[3-9]* 2>/dev/null | head -n 1)
if [ -n "$c13" ]; then
	mkdir -p "$S/opt/cuda-13/lib64"
	cp "$c13" "$S/opt/cuda-13/lib64/"
	doctor ada LD_LIBRARY_PATH=/opt/cuda-13/lib64
	is "$rc" 1 "libcudart 13 first on LD_LIBRARY_PATH: doctor exits 1"
	like "$out" '*"code": "torch-cudart-mismatch"*LD_LIBRARY_PATH puts libcudart 13* first, but the installed torch 2.6.0+debian was built with CUDA 12.4*' \
		"...naming both CUDA versions"
	doctor ada LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu
	unlike "$out" "*torch-cudart-mismatch*" "torch's own libcudart 12.4 there is not flagged"
else
	skip "a second CUDA on LD_LIBRARY_PATH" "no libcudart 13 on this machine to put there"
fi

# detect reads the same architectures from the library, for the plan
run env -i PATH=/usr/bin:/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" detect --sysroot "$S" --json
is "$(printf '%s' "$out" | python3 -c 'import json,sys
t=json.load(sys.stdin)["torch"]; a=t.get("archs") or {}
print(t.get("libtorch_cuda"), " ".join(a.get("sass", [])), "|", " ".join(a.get("ptx", [])))')" \
	"/usr/lib/x86_64-linux-gnu/libtorch_cuda.so.2.6 5.0 6.0 7.0 7.5 8.0 8.6 9.0 9.0a | 9.0" \
	"detect: torch's libtorch_cuda.so.2.6 holds SASS 5.0 ... 9.0 and 9.0a, PTX 9.0"

# plan on these facts: does the installed torch cover the GPU, and what
# would a source build need?
plan() { # FACTS: $out = the installed_torch block, decision, as lines
	run env -i PATH=/usr/bin:/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
		"$PTBUILD" plan --facts "$T_DIR/$1.json" --torch 2.6 --json
	prc=$rc
	out=$(printf '%s' "$out" | python3 -c 'import json,sys
p=json.load(sys.stdin); t=p.get("installed_torch") or {}
print(t.get("covered"), t.get("jit"), t.get("arch_list"), t.get("cuda"))
print(" ".join("%s=%s" % (g["compute_capability"], g["runs"]) for g in t.get("gpus", [])))
print(" | ".join(t.get("needs", [])))
print(*[d["choice"] + " -- " + d["why"] for d in p["decisions"] if d["topic"] == "installed_torch"])
print(" ".join(d["topic"] for d in p["decisions"][:3]))' 2>&1)
}
plan ada
is "$prc" 0 "plan for the RTX 4090 machine exits 0"
is "$(printf '%s\n' "$out" | sed -n 1,2p)" "True False 5.0;6.0;7.0;7.5;8.0;8.6;9.0+PTX 12.4
8.9=sm_86" "the installed torch covers the RTX 4090 (8.9) with its sm_86 SASS (the library's arch list, CUDA 12.4)"
like "$(printf '%s\n' "$out" | sed -n 4p)" \
	"torch 2.6.0+debian covers NVIDIA GeForce RTX 4090 -- *RTX 4090 (8.9) runs its SASS sm_86. A source build needs: nothing for *this plan: CUDA 12.*, TORCH_CUDA_ARCH_LIST=8.9+PTX" \
	"...the decision says why, and what a source build needs (this plan's CUDA and arch list)"
is "$(printf '%s\n' "$out" | sed -n 5p)" "torch wheel installed_torch" "...asked right after the wheel"
plan blackwell
is "$(printf '%s\n' "$out" | sed -n 1,2p)" "True True 5.0;6.0;7.0;7.5;8.0;8.6;9.0+PTX 12.4
12.0=compute_90" "an RTX 5090 (12.0): covered only through the PTX of compute_90"
like "$(printf '%s\n' "$out" | sed -n 3p)" \
	"SASS for NVIDIA GeForce RTX 5090 (12.0): TORCH_CUDA_ARCH_LIST with 12.0 (this plan's: 12.0*); a CUDA that builds it, 12.8 or newer (this plan's: 12.*" \
	"...a source build needs 12.0 in the arch list and CUDA 12.8 or newer"
like "$(printf '%s\n' "$out" | sed -n 4p)" "torch 2.6.0+debian covers NVIDIA GeForce RTX 5090 only by JIT-compiling PTX -- *no SASS in it*" \
	"...and the decision says it runs only by JIT"
plan kepler
is "$(printf '%s\n' "$out" | sed -n 1,2p)" "False False 5.0;6.0;7.0;7.5;8.0;8.6;9.0+PTX 12.4
3.7=none" "a Tesla K80 (3.7) with driver 470: not covered"
like "$(printf '%s\n' "$out" | sed -n 4p)" \
	"torch 2.6.0+debian does not cover Tesla K80 -- *driver 470.256.02 is too old for the CUDA 12.4*no code for Tesla K80 (3.7)*SASS for Tesla K80 (3.7): TORCH_CUDA_ARCH_LIST with 3.7*" \
	"...naming the driver, the missing code and what a build needs"

# the sysroot alone says nothing of its CPU: no "built for x86_64, this
# host is unknown"
run env -i PATH=/usr/bin:/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" doctor --sysroot "$S" --json
unlike "$out" "*foreign-binary*" "a host of unknown architecture is not called foreign"
done_testing
