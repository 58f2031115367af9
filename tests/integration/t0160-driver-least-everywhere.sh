#!/bin/sh
# t0160-driver-least-everywhere.sh - every driver a fix names is the
# least that works, in plan and doctor alike: minor-version
# compatibility's floor, raised to the driver of the first CUDA that
# builds each GPU, before the CUDA's own minimum (lib/toolkit
# driver_least).  Tables of machines (drivers 440-595, CUDAs 11.8-13.4,
# GPUs from Volta to Blackwell); each driver named is then used: the
# problem is gone with it, and stays with the driver before it.
#
# Sources of the drivers (ids of recipes/data/sources.lua):
#   [rn-t2]   minor-version compatibility floors: CUDA 11.x 450.80.02,
#             12.x 525.60.13, 13.x ">= 580" (any r580 driver)
#   [rn-t3]   each CUDA's own minimum: 11.0 450.51.05, 11.8 520.61.05,
#             12.0 525.60.13, 12.4 550.54.14, 12.6 560.28.03, 12.8 570.26,
#             12.9 575.51.03, 13.0 580.65.06 (the least r580 driver it
#             lists), 13.2 595.45.04
#   [ptx-rel] CUDA 13.4 is the r615 branch
#   S_COMPAT  a driver runs the GPUs of its own CUDA and before; minor-
#             version compatibility runs no PTX JIT
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cd "$top_srcdir" || exit 1

gpu_name() {
	case $1 in
	v100) echo "Tesla V100-SXM2-32GB 7.0" ;;
	a100) echo "NVIDIA A100-SXM4-80GB 8.0" ;;
	h100) echo "NVIDIA H100 80GB HBM3 9.0" ;;
	rtx4090) echo "NVIDIA GeForce RTX 4090 8.9" ;;
	b200) echo "NVIDIA B200 10.0" ;;
	pro6000) echo "NVIDIA RTX PRO 6000 Blackwell Workstation Edition 12.0" ;;
	esac
}

# machine NAME DRIVER CUDA_MAX GPU [GCC [TORCH TORCH_CUDA SASS PTX]]: the
# workstation profile with that driver, GPU (a key of gpu_name) and gcc,
# no toolkit, and an installed torch when TORCH is given (SASS and PTX:
# comma lists of what its libtorch_cuda holds, "-" for not read)
machine() {
	_g=$(gpu_name "$4")
	json_edit recipes/profiles/rtx4090-workstation.json "$T_DIR/$1.json" "
f['host']['hostname'] = '$1'
f['driver'] = {'version': '$2', 'cuda_max': '$3'}
f['gpus'] = [{'index': 0, 'name': '${_g% *}', 'compute_capability': '${_g##* }', 'source': 'test'}]
f['toolkits'] = []
if '${5:-}': f['compilers'] = [{'name': 'gcc', 'version': '${5:-}', 'path': '/usr/bin/gcc'}]
if '${6:-}':
    f['torch'] = {'version': '${6:-}', 'cuda': '${7:-}', 'site': '/usr/lib/python3/dist-packages', 'source': 'torch/version.py'}
    if '${8:-}' != '-':
        f['torch']['libtorch_cuda'] = '/usr/lib/python3/dist-packages/torch/lib/libtorch_cuda.so'
        f['torch']['archs'] = {'sass': [a for a in '${8:-}'.split(',') if a], 'ptx': [a for a in '${9:-}'.split(',') if a]}"
}
plan() { # FACTS ARGS...: plan --json into p.json
	_f=$1; shift
	"$PTBUILD" plan --facts "$T_DIR/$_f.json" "$@" --json >"$T_DIR/p.json" 2>/dev/null </dev/null
}
codes() { # JSON PREFIX: the codes of its problems or findings that start with PREFIX
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
fs = d.get("findings", d.get("problems", []))
print(" ".join(sorted(f["code"] + ("(" + f["severity"] + ")" if "findings" in d else "") for f in fs if f["code"].startswith(sys.argv[2]))) or "none")' "$1" "$2"
}
one_of() { # GOT "A B..." NAME: GOT is one of the words
	case " $2 " in
	*" $1 "*) t_ok 0 "$3" ;;
	*) t_ok 1 "$3"; printf '%s\n' "#   got:  $1" "#   want one of: $2" ;;
	esac
}

# 1. plan's driver-too-old: the fix names the least driver first; with
# it the CUDA runs (a warning of minor-version compatibility at most);
# with the driver before it, not.
# columns: GPU DRIVER CUDA_MAX TORCH CUDA LEAST LEAST_CUDA_MAX BELOW BELOW_CUDA_MAX SOURCE
while read -r gpu drv max torch cuda least lmax below bmax src; do
	case $gpu in ''|'#'*) continue ;; esac
	machine m "$drv" "$max" "$gpu"
	plan m --torch "$torch" --cuda "$cuda"
	fix=$(findings "$T_DIR/p.json" driver-too-old fix)
	like "$fix" "install driver $least or newer*" "$gpu on $drv, CUDA $cuda: the fix names $least first $src"
	machine least "$least" "$lmax" "$gpu"
	plan least --torch "$torch" --cuda "$cuda"
	one_of "$(codes "$T_DIR/p.json" driver-)" "none driver-minor-compat" "... and with driver $least CUDA $cuda runs"
	machine below "$below" "$bmax" "$gpu"
	plan below --torch "$torch" --cuda "$cuda"
	like "$(codes "$T_DIR/p.json" driver-)" "*driver-too-old*" "... and with driver $below it does not"
done <<'ROWS'
# 11.x floor: 450.80.02, not 11.0's own 450.51.05 [rn-t2] [rn-t3]
v100 440.33.01 10.2 2.7 11.8 450.80.02 11.0 450.51.05 11.0 [rn-t2]
# 12.x floor [rn-t2]; 11.8's driver runs no 12.x [rn-t3]
a100 470.256.02 11.4 2.14 12.6 525.60.13 12.0 520.61.05 11.8 [rn-t2]
# a driver that predates the H100 (first built by 11.8): 11.8's driver is
# below the 12.x floor, which is what it takes [S_COMPAT]
h100 470.256.02 11.4 2.14 12.8 525.60.13 12.0 520.61.05 11.8 [rn-t2][S_COMPAT]
# the RTX PRO 6000 raises the floor to 12.8's 570.26 [rn-t3] [S_COMPAT]
pro6000 535.183.01 12.2 2.14 12.9 570.26 12.8 565.57.01 12.7 [rn-t3][S_COMPAT]
# 13.x: ">= 580" is the r580 branch, whose least driver is 13.0's
a100 535.183.01 12.2 2.14 13.4 580.65.06 13.0 575.51.03 12.9 [rn-t2][rn-t3][ptx-rel]
b200 560.35.03 12.6 2.14 13.2 580.65.06 13.0 575.51.03 12.9 [rn-t2][rn-t3]
a100 575.51.03 12.9 2.14 13.0 580.65.06 13.0 575.51.03 12.9 [rn-t3]
ROWS
# the least driver is named before the CUDA's own, and a CUDA whose own
# is the least names it once
machine m 535.183.01 12.2 a100
plan m --torch 2.14 --cuda 13.4
is "$(findings "$T_DIR/p.json" driver-too-old message)" \
	"driver 535.183.01 cannot run CUDA 13.4 (it needs an r615 driver (615.71.09 is known to run it), or 580.65.06 through minor-version compatibility); nvidia-smi's 'CUDA Version: 12.2' is the newest CUDA this driver runs, not an installed toolkit" \
	"driver-too-old's message: 580.65.06 through minor-version compatibility, not '580' [rn-t2][rn-t3]"
like "$(findings "$T_DIR/p.json" driver-too-old fix)" \
	"install driver 580.65.06 or newer, the least that runs CUDA 13.4 (through minor-version compatibility, without PTX JIT; an r615 driver or newer (615.71.09 or newer is known to run it) runs it directly), or use CUDA 12.2 or older (--cuda)" \
	"... its fix: 580.65.06 first, the r615 branch next [ptx-rel]"
machine m 575.51.03 12.9 a100
plan m --torch 2.14 --cuda 13.0
is "$(findings "$T_DIR/p.json" driver-too-old fix)" "install driver 580.65.06 or newer, or use CUDA 12.9 or older (--cuda)" \
	"CUDA 13.0: its own driver is the least, named once [rn-t3]"
# drivers that run the CUDA through minor-version compatibility: no
# driver-too-old, whatever the GPU
while read -r gpu drv max cuda; do
	[ -n "$gpu" ] || continue
	machine m "$drv" "$max" "$gpu"
	plan m --torch 2.14 --cuda "$cuda"
	is "$(codes "$T_DIR/p.json" driver-)" "driver-minor-compat" "$gpu on $drv runs CUDA $cuda through minor-version compatibility [rn-t2]"
done <<'ROWS'
a100 590.44.01 13.1 13.4
pro6000 595.45.04 13.2 13.4
a100 580.65.06 13.0 13.2
ROWS
# no driver or GPU seen: the least driver of the machine that runs the
# build, raised by a GPU of --arch-list as by one seen (its consumer
# check is the pro6000 row above: 570.26 runs 12.9 on it)
for c in "8.0;9.0|525.60.13" "8.0;12.0|570.26"; do
	"$PTBUILD" plan --profile graviton3 --cuda 12.9 --arch-list "${c%|*}" --json >"$T_DIR/p.json" 2>/dev/null </dev/null
	like "$(findings "$T_DIR/p.json" no-gpu-detected message)" \
		"*the machine that runs the built PyTorch needs driver ${c#*|} or newer, the least that runs CUDA 12.9 (through minor-version compatibility, without PTX JIT; driver 575.51.03 or newer runs it directly)" \
		"no GPU seen, --arch-list ${c%|*}: the target needs ${c#*|} [rn-t2][rn-t3]"
done

# 2. gcc-too-new's newer CUDA: where the host's driver cannot run it, the
# least driver that does; where it does, no driver at all.
# columns: GPU DRIVER CUDA_MAX GCC TORCH CUDA NEWER LEAST LEAST_CUDA_MAX SOURCE
while read -r gpu drv max gcc torch cuda newer least lmax src; do
	case $gpu in ''|'#'*) continue ;; esac
	machine m "$drv" "$max" "$gpu" "$gcc"
	plan m --torch "$torch" --cuda "$cuda"
	like "$(findings "$T_DIR/p.json" gcc-too-new fix)" \
		"*use --cuda $newer with driver $least or newer, the least that runs CUDA $newer (through minor-version compatibility, without PTX JIT; * runs it directly) (driver $drv runs CUDA $max at most), the first newer CUDA whose nvcc takes gcc $gcc*" \
		"gcc $gcc on $gpu, driver $drv: CUDA $newer with driver $least $src"
	machine least "$least" "$lmax" "$gpu" "$gcc"
	plan least --torch "$torch" --cuda "$cuda"
	f=$(findings "$T_DIR/p.json" gcc-too-new fix)
	like "$f" "*use --cuda $newer, the first newer CUDA whose nvcc takes gcc $gcc*" "... with driver $least: CUDA $newer, no driver to install"
	unlike "$f" "*with driver*" "... and no driver named"
	plan least --torch "$torch" --cuda "$newer"
	one_of "$(codes "$T_DIR/p.json" driver-)" "none driver-minor-compat" "... and a plan of CUDA $newer there has no driver-too-old"
done <<'ROWS'
# gcc 16: nvcc 13.4 takes it [hostcfg134]; 13.x runs on 580.65.06 [rn-t2]
rtx4090 535.183.01 12.2 16.1.1 2.14 12.9 13.4 580.65.06 13.0 [rn-t2][rn-t3][hostcfg134]
# gcc 13: nvcc 12.4 takes it [deb-hostcfg]; 12.x runs on 525.60.13 [rn-t2]
a100 470.256.02 11.4 13.3.0 2.7 11.8 12.4 525.60.13 12.0 [rn-t2][deb-hostcfg]
ROWS

# 3. doctor's torch-driver-too-old, and plan's view of the same
# installed torch: torch.cuda.is_available() needs a driver that runs
# the CUDA torch was built with, which minor-version compatibility's
# floor does [rn-t2] -- unless a GPU runs only its PTX, which that path
# cannot JIT-compile [S_COMPAT]: then the CUDA's own driver.
# sysroot TORCH CUDA: a sysroot whose python has that torch installed
sysroot() {
	rm -rf "$T_DIR/root"
	_s="$T_DIR/root/usr/lib/python3/dist-packages"
	mkdir -p "$_s/torch/lib" "$_s/torch-$1.dist-info"
	printf "__version__ = '%s'\ncuda = '%s'\n" "$1" "$2" >"$_s/torch/version.py"
}
doctor() { # FACTS: doctor --json into d.json, in the sysroot
	env -i PATH=/usr/bin:/bin PTBUILD_RECIPE_PATH="${PTBUILD_RECIPE_PATH:-}" \
		"$PTBUILD" doctor --sysroot "$T_DIR/root" --facts "$T_DIR/$1.json" --json >"$T_DIR/d.json" 2>/dev/null
}
# torch_fix: the driver doctor's torch-driver-too-old names ("install X,
# or a torch built ..." -> X)
torch_fix() { findings "$T_DIR/d.json" torch-driver-too-old fix | sed 's/^install //; s/, or a torch built for a CUDA no newer than .*$//'; }
# columns: GPU DRIVER CUDA_MAX TORCH TORCH_CUDA LEAST LEAST_CUDA_MAX SOURCE
while read -r gpu drv max torch tcuda least lmax src; do
	case $gpu in ''|'#'*) continue ;; esac
	sysroot "$torch" "$tcuda"
	machine m "$drv" "$max" "$gpu"
	doctor m
	tf=$(torch_fix)
	like "$tf" "driver $least or newer*" "doctor: torch $torch on $gpu, driver $drv: install $least first $src"
	machine t "$drv" "$max" "$gpu" "" "$torch" "$tcuda" -
	plan t --torch 2.14
	like "$(python3 -c 'import json, sys; print("|".join(json.load(open(sys.argv[1]))["installed_torch"]["needs"]))' "$T_DIR/p.json")" \
		"*; or $tf, which runs this torch as it is*" "... plan names the same driver for the same torch"
	machine least "$least" "$lmax" "$gpu"
	doctor least
	one_of "$(codes "$T_DIR/d.json" torch-driver)" "none torch-driver-too-old(warning)" "... with driver $least torch runs (through minor-version compatibility at most)"
done <<'ROWS'
a100 470.256.02 11.4 2.7.1+cu128 12.8 525.60.13 12.0 [rn-t2]
h100 470.256.02 11.4 2.7.1+cu126 12.6 525.60.13 12.0 [rn-t2][S_COMPAT]
# the GPU raises it: the RTX PRO 6000 runs nothing before 12.8's driver
pro6000 470.256.02 11.4 2.7.1+cu128 12.8 570.26 12.8 [rn-t3][S_COMPAT]
a100 535.183.01 12.2 2.9.1+cu130 13.0 580.65.06 13.0 [rn-t3]
b200 575.51.03 12.9 2.14.1+cu132 13.2 580.65.06 13.0 [rn-t2][rn-t3]
v100 440.33.01 10.2 2.4.1+cu118 11.8 450.80.02 11.0 [rn-t2]
ROWS
sysroot 2.7.1+cu128 12.8
machine m 470.256.02 11.4 a100
doctor m
is "$(findings "$T_DIR/d.json" torch-driver-too-old message)" \
	"driver 470.256.02 is too old for the CUDA 12.8 the installed torch 2.7.1+cu128 was built with (it needs 570.26, or 525.60.13 through minor-version compatibility): torch.cuda.is_available() will be False, \"The NVIDIA driver on your system is too old\"" \
	"doctor's message names both drivers, as plan's driver-too-old does"
is "$(torch_fix)" "driver 525.60.13 or newer, the least that runs CUDA 12.8 (through minor-version compatibility, without PTX JIT; driver 570.26 or newer runs it directly)" \
	"... its fix the least first, in plan's words"

# a GPU with only PTX in the torch: the least driver is the CUDA's own,
# and the fix says what minor-version compatibility lacks (plan: from
# the facts' architectures; doctor: from a libtorch_cuda.so built here)
machine t 470.256.02 11.4 a100 "" 2.7.1+cu128 12.8 7.5 7.5
plan t --torch 2.14
like "$(python3 -c 'import json, sys; print("|".join(json.load(open(sys.argv[1]))["installed_torch"]["needs"]))' "$T_DIR/p.json")" \
	"*; or driver 570.26 or newer (driver 525.60.13 runs CUDA 12.8 through minor-version compatibility, but cannot JIT-compile its PTX, which the NVIDIA A100-SXM4-80GB runs), which runs this torch as it is*" \
	"plan: an A100 that runs torch's PTX 7.5 alone needs 12.8's own driver [S_COMPAT]"
machine t 470.256.02 11.4 a100 "" 2.7.1+cu128 12.8 7.5,8.0 8.0
plan t --torch 2.14
like "$(python3 -c 'import json, sys; print("|".join(json.load(open(sys.argv[1]))["installed_torch"]["needs"]))' "$T_DIR/p.json")" \
	"*; or driver 525.60.13 or newer, the least that runs CUDA 12.8 (*), which runs this torch as it is*" \
	"... with SASS 8.0 in it, the least driver of minor-version compatibility [rn-t2]"
nvcc=$(command -v nvcc 2>/dev/null)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -n "$nvcc" ]; then
	printf '__global__ void k(float *x) { x[threadIdx.x] += 1.0f; }\nvoid launch(float *x) { k<<<1, 32>>>(x); }\n' >"$T_DIR/t.cu"
	lib() { # GENCODE...: a stand-in libtorch_cuda.so of that code in the sysroot
		"$nvcc" -shared -Xcompiler -fPIC -o "$T_DIR/root/usr/lib/python3/dist-packages/torch/lib/libtorch_cuda.so" "$T_DIR/t.cu" "$@" >"$T_DIR/nvcc.log" 2>&1
	}
	sysroot 2.7.1+cu128 12.8
	lib -gencode=arch=compute_75,code=sm_75 -gencode=arch=compute_75,code=compute_75
	is "$?" 0 "nvcc builds a libtorch_cuda.so of SASS 7.5 and PTX 7.5"
	machine m 470.256.02 11.4 a100
	doctor m
	is "$(torch_fix)" "driver 570.26 or newer (driver 525.60.13 runs CUDA 12.8 through minor-version compatibility, but cannot JIT-compile its PTX, which the NVIDIA A100-SXM4-80GB runs)" \
		"doctor: an A100 that runs torch's PTX alone needs 12.8's own driver, and says why [S_COMPAT]"
	machine least 570.26 12.8 a100
	doctor least
	is "$(codes "$T_DIR/d.json" torch-driver)" "none" "... with 570.26 no torch-driver-too-old"
	machine least 525.60.13 12.0 a100
	doctor least
	is "$(codes "$T_DIR/d.json" torch-driver)" "torch-driver-too-old(error)" \
		"... with 525.60.13 still an error: the PTX gets no JIT through minor-version compatibility"
	lib -gencode=arch=compute_80,code=sm_80
	is "$?" 0 "nvcc builds a libtorch_cuda.so of SASS 8.0"
	doctor m
	like "$(torch_fix)" "driver 525.60.13 or newer, the least that runs CUDA 12.8 (*" "... with SASS 8.0 in it, 525.60.13 [rn-t2]"
	doctor least
	is "$(codes "$T_DIR/d.json" torch-driver)" "torch-driver-too-old(warning)" "... which runs it, through minor-version compatibility"
else
	skip "doctor of a real libtorch_cuda.so" "no nvcc on this machine"
fi

# 4. a fleet's node that no CUDA serves: the least driver that would
machine n1 580.65.06 13.0 a100
machine n2 470.256.02 11.4 a100
"$PTBUILD" plan --facts "$T_DIR/n1.json" --facts "$T_DIR/n2.json" --torch 2.14 --json >"$T_DIR/f.json" 2>/dev/null
fleet_fix() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
fs = [x for b in d.get("builds", [d]) for x in b.get("problems", [])] + d.get("problems", [])
print("".join(x["fix"] for x in fs if x["code"] == "fleet-node-unserved"))' "$1"
}
like "$(fleet_fix "$T_DIR/f.json")" "install driver 525.60.13 or newer, the least that runs CUDA 12.6 (through minor-version compatibility, without PTX JIT; driver 560.28.03 or newer runs it directly) on n2*" \
	"fleet: a node on driver 470 is named with the least driver that serves it [rn-t2]"
machine n2 525.60.13 12.0 a100
"$PTBUILD" plan --facts "$T_DIR/n1.json" --facts "$T_DIR/n2.json" --torch 2.14 --json >"$T_DIR/f.json" 2>/dev/null
is "$(fleet_fix "$T_DIR/f.json")" "" "... with it, the node is served"

# 5. the wheel a newer driver opens: the least driver with which a wheel
# has code for every GPU (minor-version compatibility's, where it has
# SASS for them), and with it the wheel covers the machine
wheel_why() { python3 -c 'import json, sys; w = json.load(open(sys.argv[1]))["wheel"]; print(w["covered"], w["why"])' "$T_DIR/p.json"; }
machine m 470.256.02 11.4 a100
plan m --torch 2.9
like "$(wheel_why)" "False *; with driver 525.60.13 or newer, the least that runs CUDA 12.9 (through minor-version compatibility, without PTX JIT; driver 575.51.03 or newer runs it directly), its cu129 wheel would cover this machine" \
	"wheels: an A100 on driver 470 is sent to 525.60.13 for torch 2.9's cu129 wheel, not 12.6's 560.28.03 [rn-t2]"
machine least 525.60.13 12.0 a100
plan least --torch 2.9
like "$(wheel_why)" "True *NVIDIA A100-SXM4-80GB runs sm_80 (the driver runs CUDA 12.9 through minor-version compatibility)*" \
	"... with 525.60.13 that wheel covers it"

done_testing
