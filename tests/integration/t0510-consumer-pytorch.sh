#!/bin/sh
# t0510-consumer-pytorch.sh - PyTorch's own build logic judges what
# generate writes.  Debian unstable's libtorch-dev and python3-torch
# (PyTorch 2.14.1) are fetched once with apt into a cache outside the
# checkout (${PTB_CONSUMER_CACHE:-$HOME/.cache/ptbuild-consumer}); the test
# is skipped, with the reason, when they cannot be had.
#
# For every profile: its plan, with the CUDA root rewritten to a link to
# this machine's toolkit (a path no default search finds, so what is found
# came from the outputs), generated as initial-cache.cmake and
# CMakePresets.json; a probe project includes PyTorch's cuda.cmake as
# PyTorch's Dependencies.cmake does, configured in an empty environment
# through `cmake -C` and through `cmake --preset`.  Asserted: the toolkit
# FindCUDA found, the -gencode flags cuda.cmake derived from the arch list
# (equal to cpp_extension's _get_cuda_arch_flags and to `ptbuild arch`),
# cuDNN, every plan decision in the cache, the environment, the Ninja
# compile pool and the build preset's jobs.  Then a plan of this machine
# itself, unedited: the CUDA release cuda.cmake detects is the plan's.
. "$top_srcdir/tests/lib.sh"

command -v cmake >/dev/null 2>&1 || skip_all "cmake is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
nvcc=${NVCC:-}
case "$nvcc" in /*) ;; ?*) nvcc=$(command -v "$nvcc" 2>/dev/null) ;; esac
[ -n "$nvcc" ] && [ -x "$nvcc" ] || skip_all "no nvcc (configure found none)"
real=$(nvcc_toolkit "$nvcc") || skip_all "$nvcc names no toolkit root (nvcc --dryrun printed no TOP=)"
cache=${PTB_CONSUMER_CACHE:-${HOME:-/nonexistent}/.cache/ptbuild-consumer}
torch=$("$top_srcdir/tests/consumer/fetch-pytorch.sh" "$cache" 2>"$T_DIR/fetch.err") ||
	skip_all "PyTorch's CMake files cannot be had: $(tail -1 "$T_DIR/fetch.err")"
caffe2=$(dirname "$(dirname "$(find "$torch" -path '*/cmake/Caffe2/public/cuda.cmake' | head -1)")")
cppext=$(find "$torch" -path '*/torch/utils/cpp_extension.py' | head -1)
[ -f "$caffe2/public/cuda.cmake" ] && [ -f "$cppext" ] ||
	skip_all "the packages in $cache hold no cuda.cmake or cpp_extension.py"
gen=
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
cmakedir=$(dirname "$(command -v cmake)")
cleanpath=$cmakedir:/usr/bin:/bin
probe=$top_srcdir/tests/consumer/probe

# val FILE KEY: the value of KEY=... in probe.txt, or NAME:TYPE=... in CMakeCache.txt
val() { sed -n "s|^$2\(:[A-Z]*\)\{0,1\}=||p" "$1" | head -1; }
# normalized gencode flags, one per line, sorted
flags() { tr ' ;' '\n\n' | sed -n 's/^-gencode=\{0,1\}//p; s/^\(arch=.*\)$/\1/p' | grep '^arch=' | sort -u; }
onoff() { case "$1" in 1|ON) echo ON ;; 0|OFF) echo OFF ;; *) echo "$1" ;; esac; }

# check NAME ROUTE BUILD PLAN ROOT: the assertions on one configured probe
check() {
	n=$1 b=$3 plan=$4 root=$5
	p=$b/probe.txt c=$b/CMakeCache.txt
	if [ ! -f "$p" ]; then
		t_ok 1 "$n: the probe configured"
		sed 's/^/# /' "$b.log" | grep -v '^# --' | tail -12
		return
	fi
	is "$(val "$p" CUDA_TOOLKIT_ROOT_DIR)" "$root" "$n: PyTorch's FindCUDA found the plan's toolkit ($2)"
	is "$(val "$p" CAFFE2_USE_CUDA)" ON "$n: ... and cuda.cmake kept CUDA on"
	want=$("$PTBUILD" arch "$(jq_arch "$plan")" --to gencode 2>/dev/null | flags)
	got=$(val "$p" NVCC_FLAGS_EXTRA | flags)
	is "$got" "$want" "$n: cuda.cmake's -gencode flags from the arch list are ptbuild's"
	is "$(val "$p" CMAKE_CUDA_ARCHITECTURES)" OFF "$n: ... and it ignores CMAKE_CUDA_ARCHITECTURES"
	# every decision of the plan's environment, as a cache entry
	bad=
	while IFS='	' read -r name value; do
		case "$name" in
		USE_*|BUILD_*) w=$(onoff "$value") ;;
		BLAS|TORCH_CUDA_ARCH_LIST|CMAKE_*) w=$value ;;
		*) continue ;;
		esac
		g=$(val "$c" "$name")
		[ "$g" = "$w" ] || bad="$bad $name=$g(want $w)"
	done <"$plan.env"
	is "$bad" "" "$n: every USE_/BUILD_/BLAS/CMAKE_ decision of the plan is in the cache ($2)"
	cudnn=$(sed -n 's/^USE_CUDNN	//p' "$plan.env")
	if [ "$cudnn" = 1 ]; then
		like "$(val "$p" CAFFE2_USE_CUDNN) $(val "$p" CUDNN_LIBRARY_PATH)" "ON $root/*" "$n: cuDNN found in the plan's toolkit"
	else
		is "$(val "$p" CAFFE2_USE_CUDNN)" OFF "$n: cuDNN off, as planned"
	fi
	for e in OpenBLAS_HOME ACL_ROOT_DIR; do
		w=$(sed -n "s/^$e	//p" "$plan.env")
		[ -n "$w" ] && is "$(val "$p" "ENV_$e")" "$w" "$n: $e reaches the configure run ($2)"
	done
	if [ -n "$gen" ]; then
		jobs=$(sed -n 's/^MAX_JOBS	//p' "$plan.env")
		grep -A1 '^pool compile$' "$b/CMakeFiles/rules.ninja" 2>/dev/null | grep -q "depth = $jobs\$" &&
			grep -q '^  pool = compile$' "$b/build.ninja"
		t_ok $? "$n: Ninja compiles at most MAX_JOBS=$jobs at a time ($2)"
	fi
}
jq_arch() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["torch_cuda_arch_list"])' "$1"; }

# prepare NAME PLAN.json: the plan's env as NAME<TAB>VALUE lines in PLAN.env
prepare() {
	python3 - "$1" >"$1.env" <<'PY'
import json, sys
for k, v in json.load(open(sys.argv[1]))["env"].items():
    print(f"{k}\t{v}")
PY
}

for f in "$top_srcdir"/recipes/profiles/*.json; do
	prof=$(basename "$f" .json)
	d=$T_DIR/$prof
	mkdir -p "$d"
	extra= path=$cleanpath
	if [ "$prof" = dgx-h100 ]; then
		# compile through "sccache": a stand-in that logs and runs the compiler
		extra=--sccache path=$d/bin:$cleanpath
		mkdir -p "$d/bin"
		printf '#!/bin/sh\necho "$*" >>"%s/launched"\nexec "$@"\n' "$d" >"$d/bin/sccache"
		chmod +x "$d/bin/sccache"
	fi
	"$PTBUILD" plan --profile "$prof" --json >"$d/orig.json" 2>/dev/null
	# the plan's CUDA root -> a link to this machine's toolkit
	ln -s "$real" "$d/cuda"
	python3 - "$d/orig.json" "$d/cuda" >"$d/plan.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
root = json.loads(text)["cuda"]["root"]
print(text.replace(json.dumps(root)[:-1], json.dumps(sys.argv[2])[:-1]))
PY
	prepare "$d/plan.json"
	"$PTBUILD" -q generate --plan "$d/plan.json" --out "$d/out" --format cmake,presets --force $extra >/dev/null 2>"$d/gen.err"
	t_ok $? "$prof: generate initial-cache.cmake and CMakePresets.json"
	[ -n "$extra" ] && printf 'CMAKE_C_COMPILER_LAUNCHER\tsccache\nCMAKE_CXX_COMPILER_LAUNCHER\tsccache\nCMAKE_CUDA_COMPILER_LAUNCHER\tsccache\nUSE_CCACHE\t0\n' >>"$d/plan.json.env"

	# cmake -C, in an empty environment
	env -i PATH="$path" HOME="$d" cmake $gen -C "$d/out/initial-cache.cmake" \
		-DPTB_CAFFE2_DIR="$caffe2" -S "$probe" -B "$d/c" >"$d/c.log" 2>&1
	check "$prof" "cmake -C" "$d/c" "$d/plan.json" "$d/cuda"
	if [ -n "$extra" ]; then
		env -i PATH="$path" HOME="$d" cmake --build "$d/c" >"$d/build.log" 2>&1 &&
			grep -q 'probe\.c' "$d/launched"
		t_ok $? "$prof: cmake --build compiles through the launcher in the cache"
	fi

	# cmake --preset, in an environment with only an inherited PATH and LD_LIBRARY_PATH
	mkdir -p "$d/src"
	cp "$probe/CMakeLists.txt" "$d/out/CMakePresets.json" "$d/src/"
	(cd "$d/src" && env -i PATH="$path" HOME="$d" LD_LIBRARY_PATH=/ptb/inherited \
		cmake --preset ptbuild $gen -DPTB_CAFFE2_DIR="$caffe2") >"$d/src/build.log" 2>&1
	check "$prof" "cmake --preset" "$d/src/build" "$d/plan.json" "$d/cuda"
	like "$(val "$d/src/build/probe.txt" ENV_LD_LIBRARY_PATH)" "$d/cuda/lib64:/ptb/inherited" \
		"$prof: the preset puts the toolkit's lib64 before the inherited LD_LIBRARY_PATH"
	like "$(val "$d/src/build/probe.txt" ENV_PATH)" "$d/cuda/bin:$path" \
		"$prof: ... and its bin before the inherited PATH"
	jobs=$(sed -n 's/^MAX_JOBS	//p' "$d/plan.json.env")
	is "$(python3 -c 'import json,sys; print([b["jobs"] for b in json.load(open(sys.argv[1]))["buildPresets"] if b["name"] == "ptbuild"][0])' "$d/out/CMakePresets.json")" \
		"$jobs" "$prof: cmake --build --preset ptbuild runs MAX_JOBS=$jobs jobs"

	# torch.utils.cpp_extension's own arch flags for the planned list
	list=$(jq_arch "$d/plan.json")
	TORCH_CUDA_ARCH_LIST=$list python3 "$top_srcdir/tests/consumer/arch_flags.py" "$cppext" >"$d/cx" 2>"$d/cx.err"
	st=$?
	if [ "$st" -eq 0 ]; then
		is "$(flags <"$d/cx")" "$("$PTBUILD" arch "$list" --to gencode 2>/dev/null | flags)" \
			"$prof: cpp_extension's flags for '$list' are ptbuild's"
	else
		grep -q '"code": "arch-not-accepted-by-cpp-extension"' "$d/plan.json"
		t_ok $? "$prof: cpp_extension refuses '$list' ($(cat "$d/cx.err")) and the plan warned"
	fi
done

# This machine, unedited: detect, plan (8.0;9.0+PTX: no GPU here), generate.
"$PTBUILD" detect --json >"$T_DIR/host-facts.json" 2>/dev/null
"$PTBUILD" plan --facts "$T_DIR/host-facts.json" --arch-list '8.0;9.0+PTX' --json >"$T_DIR/host.json" 2>/dev/null
hroot=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["cuda"]; print(c["root"] if c["source"] == "installed" else "")' "$T_DIR/host.json")
if [ -n "$hroot" ]; then
	prepare "$T_DIR/host.json"
	"$PTBUILD" -q generate --plan "$T_DIR/host.json" --out "$T_DIR/host" --format cmake >/dev/null 2>&1
	env -i PATH="$cleanpath" HOME="$T_DIR" cmake $gen -C "$T_DIR/host/initial-cache.cmake" \
		-DPTB_CAFFE2_DIR="$caffe2" -S "$probe" -B "$T_DIR/host/c" >"$T_DIR/host/c.log" 2>&1
	check host "cmake -C" "$T_DIR/host/c" "$T_DIR/host.json" "$hroot"
	is "$(val "$T_DIR/host/c/probe.txt" CUDA_VERSION)" \
		"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cuda"]["version"])' "$T_DIR/host.json")" \
		"host: the CUDA release cuda.cmake detects is the plan's"
else
	skip "host plan" "the plan for this machine uses no installed toolkit"
fi

done_testing
