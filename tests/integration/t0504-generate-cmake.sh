#!/bin/sh
# t0504-generate-cmake.sh - CMake for real: `cmake -C initial-cache.cmake`
# configures and builds a tiny CUDA project with the local nvcc, and the
# object holds exactly the SASS and PTX the plan asked for (read from its
# fat binary by `ptbuild inspect`; the nvcc lines of the verbose build log
# say the same).
. "$top_srcdir/tests/lib.sh"

# "ptx compute_90 sass sm_80 ..." (sorted) of an object, from ptbuild inspect
codes() {
	"$PTBUILD" inspect "$1" | awk '$1 == "SASS" || $1 == "PTX" {
		for (i = 2; i <= NF; i++) {
			if ($i ~ /^sm_/) print "sass " $i
			if ($i ~ /^compute_/) print "ptx " $i
		}
	}' | sort
}

command -v cmake >/dev/null 2>&1 || skip_all "cmake is not installed"
nvcc=${NVCC:-}
case "$nvcc" in /*) ;; ?*) nvcc=$(command -v "$nvcc" 2>/dev/null) ;; esac
[ -n "$nvcc" ] && [ -x "$nvcc" ] || skip_all "no nvcc (configure found none)"
root=$(nvcc_toolkit "$nvcc") || skip_all "$nvcc names no toolkit root (nvcc --dryrun printed no TOP=)"

# case LIST CMAKE_ARCHS WANT(sorted fatbin entries)
check() {
	name=$1
	cat >"$T_DIR/$name.json" <<JSON
{"schema": "ptbuild.plan/1", "torch": {"version": "2.9.0"},
 "cuda": {"version": "13.0", "platform": "linux-x86_64", "source": "installed", "root": "$root", "downloads": []},
 "torch_cuda_arch_list": "$2",
 "cmake": {"CMAKE_CUDA_ARCHITECTURES": "$3", "CMAKE_CUDA_COMPILER": "$nvcc", "CUDAToolkit_ROOT": "$root"},
 "env": {}, "path_prepend": {}, "problems": []}
JSON
	"$PTBUILD" -q generate --plan "$T_DIR/$name.json" --out "$T_DIR/$name" --format cmake >/dev/null 2>&1
	t_ok $? "$name: generate initial-cache.cmake"
	cmake -C "$T_DIR/$name/initial-cache.cmake" -S "$top_srcdir/tests/fixtures/cuda-tiny" \
		-B "$T_DIR/$name/build" >"$T_DIR/$name/configure.log" 2>&1
	st=$?
	t_ok $st "$name: cmake -C initial-cache.cmake configures"
	[ "$st" -eq 0 ] || sed 's/^/# /' "$T_DIR/$name/configure.log" | tail -15
	cmake --build "$T_DIR/$name/build" --verbose >"$T_DIR/$name/build.log" 2>&1
	st=$?
	t_ok $st "$name: the tiny CUDA project builds"
	[ "$st" -eq 0 ] || sed 's/^/# /' "$T_DIR/$name/build.log" | tail -15
	obj=$(find "$T_DIR/$name/build" -name 'tiny.cu.o' | head -1)
	got=$(codes "$obj" | tr '\n' ' ')
	is "$got" "$4" "$name: the object holds exactly: $4"
	gen=$(grep -o -- '--generate-code=arch=compute_[0-9a-z]*,code=\[[a-z_0-9,]*\]' "$T_DIR/$name/build.log" | sort -u | tr '\n' ' ')
	is "$gen" "$5" "$name: nvcc was asked for exactly those"
}

check ampere-hopper-ptx '8.0;9.0+PTX' '80-real;90-real;90-virtual' \
	'ptx compute_90 sass sm_80 sass sm_90 ' \
	'--generate-code=arch=compute_80,code=[sm_80] --generate-code=arch=compute_90,code=[compute_90] --generate-code=arch=compute_90,code=[sm_90] '
check ada-only '8.9' '89-real' \
	'sass sm_89 ' \
	'--generate-code=arch=compute_89,code=[sm_89] '

# A changed plan in an existing build tree: the cache keeps the old value
# unless configured fresh - which is why the file says so.
sed 's/"89-real"/"90-real"/' "$T_DIR/ada-only.json" >"$T_DIR/ada-to-hopper.json"
"$PTBUILD" -q generate --plan "$T_DIR/ada-to-hopper.json" --out "$T_DIR/ada-only" --format cmake >/dev/null 2>&1
cmake --fresh -C "$T_DIR/ada-only/initial-cache.cmake" -S "$top_srcdir/tests/fixtures/cuda-tiny" \
	-B "$T_DIR/ada-only/build" >/dev/null 2>&1 &&
	cmake --build "$T_DIR/ada-only/build" >/dev/null 2>&1
t_ok $? "a changed plan: cmake --fresh -C reconfigures"
obj=$(find "$T_DIR/ada-only/build" -name 'tiny.cu.o' | head -1)
is "$(codes "$obj" | tr '\n' ' ')" "sass sm_90 " "... and the object follows the new plan"

done_testing
