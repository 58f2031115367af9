#!/bin/sh
# t0002-arch.sh - `ptbuild arch` end to end: forms, JSON, exit codes,
# overriding the knowledge with a user's recipe directory.
. "$top_srcdir/tests/lib.sh"

run "$PTBUILD" arch 'Ampere;Hopper+PTX' --cuda 12.8
is "$rc" 0 "Ampere;Hopper+PTX with CUDA 12.8"
is "$out" "TORCH_CUDA_ARCH_LIST      8.0;8.6;9.0+PTX
CMAKE_CUDA_ARCHITECTURES  80-real;86-real;90-real;90-virtual
nvcc flags                -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_86,code=sm_86 -gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90,code=compute_90
checked against           12.8" "summary shows all three forms"

run "$PTBUILD" arch 9.0 8.0 --to torch
is "$out" "8.0;9.0" "several arguments are joined; --to torch"
run "$PTBUILD" arch '9.0+PTX' --to cmake
is "$out" "90-real;90-virtual" "--to cmake"
run "$PTBUILD" arch '8.0 9.0a' --cuda 12.0 --to gencode
is "$out" "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a" "--to gencode"

run "$PTBUILD" arch 'Ampere+PTX' --cuda 13.0 --json
is "$rc" 0 "--json exits 0"
cat >"$T_DIR/want.json" <<'JSON'
{
  "archs": [
    {
      "arch": "8.0",
      "from": "compute_80",
      "ptx": true,
      "sass": "sm_80"
    },
    {
      "arch": "8.6",
      "from": "compute_86",
      "ptx": true,
      "sass": "sm_86"
    }
  ],
  "cmake_cuda_architectures": "80-real;80-virtual;86-real;86-virtual",
  "cpp_extension": {
    "gencode": null
  },
  "cuda": "13.0",
  "gencode": [
    "-gencode=arch=compute_80,code=sm_80",
    "-gencode=arch=compute_86,code=sm_86",
    "-gencode=arch=compute_80,code=compute_80",
    "-gencode=arch=compute_86,code=compute_86"
  ],
  "input": "Ampere+PTX",
  "notes": [],
  "schema": "ptbuild.arch/1",
  "torch": "2.14",
  "torch_cuda_arch_list": "8.0+PTX;8.6+PTX",
  "warnings": [
    {
      "hint": "for building extensions, set TORCH_CUDA_ARCH_LIST='8.0+PTX;8.6+PTX'",
      "message": "PyTorch's CMake build accepts this TORCH_CUDA_ARCH_LIST, but torch.utils.cpp_extension of PyTorch 2.14 refuses 'Ampere+PTX' (it reads it as '8.0;8.6+PTX+PTX'): extensions built later with the same variable fail with 'Unknown CUDA arch (...) or GPU not supported'"
    }
  ]
}
JSON
printf '%s\n' "$out" >"$T_DIR/got.json"
diff -u "$T_DIR/want.json" "$T_DIR/got.json" >"$T_DIR/diff"
t_ok $? "--json document matches the golden text"
sed 's/^/# /' "$T_DIR/diff"

# Will CUDA 13 still build for my V100?
run "$PTBUILD" arch 7.0 --cuda 13.0
is "$rc" 1 "an architecture the CUDA release cannot build exits 1"
is "$err" "ptbuild: error: '7.0': CUDA 13.0 does not build sm_70
hint: the last CUDA release that builds sm_70 is 12.9" "the error names the arch, the CUDA and the last release"
is "$out" "" "nothing on stdout after an error"

run "$PTBUILD" arch 12.0 --cuda 12.6
is "$rc" 1 "RTX 50x0 with CUDA 12.6 exits 1"
like "$err" "*first CUDA release that builds sm_120 is 12.8*" "... naming the first release"

run "$PTBUILD" arch 'Ampere;Bogus'
is "$rc" 2 "an unknown token is a usage error (2)"
like "$err" "*unknown architecture 'Bogus'*" "... naming the token"

run "$PTBUILD" arch '8.0;Bogus' 7.0 --cuda 13.0
is "$rc" 2 "usage errors are reported before compatibility"

# What PyTorch's CMake regex takes but turns into flags nvcc refuses.
run "$PTBUILD" arch '08.0'
is "$rc" 2 "a leading zero is a usage error (2)"
is "$err" "ptbuild: error: '08.0': a leading zero: PyTorch's CMake passes the digits on as written and nvcc refuses compute_080
hint: write '8.0'" "... naming compute_080 and the fix"
is "$out" "" "... nothing on stdout"
run "$PTBUILD" arch '9.0a(9.0)' --cuda 12.8
is "$rc" 2 "'9.0a(9.0)' is a usage error (2)"
like "$err" "*arch=compute_(90),code=sm_(90)*hint: write '9.0a' *" "... naming compute_(90) and the fix"

# What only PyTorch's CMake reads: accepted, with a warning naming cpp_extension.
run "$PTBUILD" arch '8.8;10.0f+PTX' --cuda 13.0 --to torch
is "$rc" 0 "'8.8;10.0f+PTX' with CUDA 13.0: exit 0"
is "$out" "8.8;10.0f+PTX" "... the list is still written"
like "$err" "ptbuild: warning: *torch.utils.cpp_extension of PyTorch * refuses '8.8' (8.8 is not in its list), '10.0f+PTX' (no 'f' suffix)*Unknown CUDA arch*
hint: for building extensions, set TORCH_CUDA_ARCH_LIST='10.0+PTX'" "... with a warning naming cpp_extension and a list it takes"
run "$PTBUILD" arch '8.8' --cuda 13.0 --json
like "$out" '*"warnings": [*"message": "*cpp_extension*8.8*' "--json: the warning is in the document"
run "$PTBUILD" arch '8.0;9.0a+PTX' --cuda 13.0
is "$err" "" "a list both parsers take: no warning"

run "$PTBUILD" arch 8.0 --cuda 12.7
is "$rc" 2 "an unknown CUDA version is a usage error"
like "$err" "*unknown CUDA version '12.7'*known releases: *12.6 12.8*" "... listing the known ones"

run "$PTBUILD" arch 8.0 --json --to torch
is "$rc" 2 "--json with --to is a usage error"

run "$PTBUILD" arch 12.0 --cuda 13.5
like "$err" "*the GPU list of CUDA 13.5 is assumed equal to 13.4's*" "a release with an assumed GPU list says so, naming the one copied"
# An arch refused by an assumed list is refused by the copy, not by a
# source: the error says so and how to know (cuda.lua: 13.5 assumed)
run "$PTBUILD" arch 7.0 --cuda 13.5
is "$rc" 1 "7.0 against the assumed 13.5: exit 1"
is "$err" "ptbuild: error: '7.0': CUDA 13.5 does not build sm_70, as ptbuild's data has it: the GPU list of CUDA 13.5 is assumed equal to 13.4's (no source ptbuild has lists it)
hint: the last CUDA release that builds sm_70 is 12.9; 'nvcc --list-gpu-arch' of CUDA 13.5 tells for sure" "... the error says the list is assumed, and how to check"
run "$PTBUILD" arch 7.0 --cuda 13.4
unlike "$err" "*assumed*" "7.0 against 13.4, whose list has a source: nothing assumed"
run "$PTBUILD" arch 10.1 --cuda 13.5
unlike "$err" "*assumed*" "10.1 against 13.5: the rename is 13.0's, nothing assumed"
run "$PTBUILD" arch 12.0 --cuda 13.1
unlike "$err" "*assumed*" "13.1's GPU list has a source: nothing assumed"
run "$PTBUILD" arch 10.7 --cuda 13.4 --to torch
is "$out" "10.7" "CUDA 13.4 builds Rubin (10.7)"
run "$PTBUILD" arch 10.7 --cuda 13.3 --to torch
t_ok $((rc == 0)) "CUDA 13.3 does not build Rubin"

# A user's recipe directory overrides the shipped knowledge: add a CUDA
# release ptbuild does not know, extending the shipped table.
mkdir -p "$T_DIR/mine/data"
cat >"$T_DIR/mine/data/cuda.lua" <<'LUA'
local shipped = ptb.include_next("data/cuda")
local last = shipped.releases[#shipped.releases]
local r = {}
for k, v in pairs(last) do r[k] = v end
r.version = "14.0"
r.assumed = nil
shipped.releases[#shipped.releases + 1] = r
return shipped
LUA
run "$PTBUILD" --recipes "$T_DIR/mine" arch 9.0 --cuda 14.0 --to torch
is "$rc" 0 "a user recipe extends the shipped CUDA table"
is "$out" "9.0" "... and the new release is used"
PTBUILD_RECIPE_PATH="$T_DIR/mine:$PTBUILD_RECIPE_PATH" run "$PTBUILD" arch 9.0 --cuda 14.0 --to torch
is "$rc" 0 "PTBUILD_RECIPE_PATH works the same"

# A broken user recipe is a recipe error (3) naming file and line.
mkdir -p "$T_DIR/broken/lib"
printf 'local M = {}\nfunction M.parse() error("boom") end\nreturn M\n' >"$T_DIR/broken/lib/archlist.lua"
# An unknown architecture's hint lists every one data/archs.lua knows,
# the newest (Rubin's 10.7) included.
known=$(sed -n 's/^  \["\([0-9.]*\)"\] = .*/\1/p' "$top_srcdir/recipes/data/archs.lua" | sort -t. -k1,1n -k2,2n | tr '\n' ' ')
run "$PTBUILD" arch 13.0
is "$rc" 2 "an unknown architecture: exit 2"
is "$err" "ptbuild: error: unknown GPU architecture '13.0' in '13.0'
hint: known: ${known% }" "... its hint names every architecture of data/archs.lua"
like "$err" "* 10.3 10.7 11.0 *" "... 10.7 among them"

run "$PTBUILD" --recipes "$T_DIR/broken" arch 8.0
is "$rc" 3 "a failing recipe exits 3"
like "$err" "*archlist.lua:2: boom*" "... naming the file and line"

# Names per PyTorch release: Rubin is a name of 2.14's CMake, not of 2.13's.
run "$PTBUILD" arch Rubin --cuda 13.4 --to gencode
is "$rc:$out" "0:-gencode=arch=compute_107,code=sm_107" "Rubin (the newest PyTorch): sm_107"
run "$PTBUILD" arch 'Rubin;9.0' --torch 2.13
is "$rc" 2 "Rubin and --torch 2.13: exit 2"
is "$err" "ptbuild: error: 'Rubin' is not a name PyTorch 2.13's CMake knows (it arrived in 2.14); its names: Kepler+Tesla, Kepler, Maxwell+Tegra, Maxwell, Pascal, Volta+Tegra, Volta, Turing, Ampere+Tegra, Ampere, Ada, Hopper, Blackwell+Tegra, Blackwell
hint: write the compute capability instead, '10.7' (CUDA 13.4 or newer builds it), or build PyTorch 2.14 or newer" "... naming the names 2.13 knows"
run "$PTBUILD" arch 10.0f --torch 2.8
like "$rc:$err" "2:*PyTorch 2.8's CMake does not accept '10.0f'*" "10.0f and --torch 2.8: the f suffix came later"
run "$PTBUILD" plan --profile dgx-h100 --torch 2.13 --arch-list Rubin
like "$rc:$err" "2:*--arch-list: 'Rubin' is not a name PyTorch 2.13's CMake knows*" "plan --arch-list reads names as its PyTorch release does"

done_testing
