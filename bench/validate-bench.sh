#!/bin/sh
# validate-bench.sh - time `ptbuild validate --compile-only` (empty cache,
# --force) against its floor and against what a user would run by hand,
# in the same run, interleaved, N times each (bench/timeit.c).
#
#   bench/validate-bench.sh [PTBUILD] [N] [ARCH_LIST]
#       (default ./ptbuild, 7 runs, PyTorch's wheel list 7.5;8.0;8.6;9.0;10.0;12.0+PTX)
#
#   floor   bare nvcc with the same -gencode flags and --threads on a
#           one-line kernel, compiled to an object: what no checker of the
#           arch list can beat
#   hand    what a user checks an arch list with: nvcc compiling and
#           linking a small test program with those flags, no --threads
#   cached  ptbuild validate answering from its cache (the second run)
# Prints each median and ptbuild's ratios against floor and hand.
set -eu
PTBUILD=$(cd "$(dirname "${1:-./ptbuild}")" && pwd)/$(basename "${1:-./ptbuild}")
N=${2:-7}
LIST=${3:-7.5;8.0;8.6;9.0;10.0;12.0+PTX}
here=$(cd "$(dirname "$0")" && pwd)
: "${PTBUILD_RECIPE_PATH:=$here/../recipes}"
export PTBUILD_RECIPE_PATH
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptb-vbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
${CC:-cc} -O2 -o "$tmp/timeit" "$here/timeit.c"

nvcc=$(command -v nvcc 2>/dev/null || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
[ -n "$nvcc" ] || { echo "validate-bench: no nvcc on PATH or in /usr/local/cuda" >&2; exit 77; }
cuda=$(dirname "$(dirname "$nvcc")")
cpus=$(nproc)

# The -gencode flags ptbuild derives for the list (ptbuild arch --json).
gencode=$("$PTBUILD" arch "$LIST" --json | python3 -c '
import json, sys
print(" ".join(json.load(sys.stdin)["gencode"]))')

printf '__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n' >"$tmp/one.cu"
cat >"$tmp/test.cu" <<'CU'
#include <cstdio>
#include <cuda_runtime.h>
__global__ void saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}
int main(void)
{
	float *x, *y;
	cudaMalloc(&x, 4096);
	cudaMalloc(&y, 4096);
	saxpy<<<4, 256>>>(1024, 2.0f, x, y);
	printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
	return 0;
}
CU

"$PTBUILD" validate --compile-only --cuda-home "$cuda" --arch-list "$LIST" >/dev/null 2>&1 || true
# shellcheck disable=SC2086 # one word per flag
"$tmp/timeit" "$N" \
	ptbuild -- "$PTBUILD" validate --compile-only --force \
		--cuda-home "$cuda" --arch-list "$LIST" \
	--- floor -- "$nvcc" --threads "$cpus" $gencode -c "$tmp/one.cu" -o "$tmp/one.o" \
	--- hand -- "$nvcc" $gencode "$tmp/test.cu" -o "$tmp/test" \
	--- cached -- "$PTBUILD" validate --compile-only --cuda-home "$cuda" --arch-list "$LIST" \
	>"$tmp/times"
cat "$tmp/times"
awk -F '\t' '{ m[$1] = $2 } END {
	printf "validate --compile-only: %.2f s; floor %.2f s; by hand %.2f s; cached %.1f ms\n",
	       m["ptbuild"] / 1e6, m["floor"] / 1e6, m["hand"] / 1e6, m["cached"] / 1e3
	printf "ratio against the floor: %.2fx (target <= 1.3x); by hand takes %.2fx as long as ptbuild\n",
	       m["ptbuild"] / m["floor"], m["hand"] / m["ptbuild"]
}' "$tmp/times"
