#!/bin/sh
# detect-bench.sh - time `ptbuild detect --json` against the shell a user
# would otherwise run for the same answers, in the same run, interleaved,
# N times each (bench/timeit.c: fork/exec timed with CLOCK_MONOTONIC).
#
#   bench/detect-bench.sh [PTBUILD] [N]     (default ./ptbuild, 51 runs)
#
# Two shell baselines, each a script run by sh (as a user would run one):
#   minimal  the issue's list: uname, os-release, nvcc --version, gcc --version
#   same     what detect answers on this machine: also ldd (glibc), page
#            size, cores, memory, cpuinfo, the driver file and nvidia-smi
#            when present, g++ and clang(++) --version, and the cuDNN and
#            NCCL version headers of the toolkit nvcc belongs to; shown
#            also without clang, whose --version alone loads all of LLVM
# and two reference points: /bin/true (the cost of starting any process
# here) and `ptbuild --version` (ptbuild's own start).
set -eu
PTBUILD=${1:-./ptbuild}
N=${2:-51}
here=$(cd "$(dirname "$0")" && pwd)
: "${PTBUILD_RECIPE_PATH:=$here/../recipes}"
export PTBUILD_RECIPE_PATH
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptb-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
${CC:-cc} -O2 -o "$tmp/timeit" "$here/timeit.c"

nvcc=$(command -v nvcc 2>/dev/null || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
cuda=${nvcc:+$(dirname "$(dirname "$nvcc")")}

cat >"$tmp/minimal.sh" <<SH
uname -srm
cat /etc/os-release
${nvcc:-nvcc} --version
gcc --version
SH

{
	echo 'uname -srm'
	echo 'cat /etc/os-release'
	echo 'ldd --version | head -n 1'
	echo 'getconf PAGESIZE'
	echo 'nproc'
	echo 'grep MemTotal /proc/meminfo'
	echo "sed -n '1,/^\$/p' /proc/cpuinfo"
	echo 'cat /proc/driver/nvidia/version 2>/dev/null'
	if command -v nvidia-smi >/dev/null 2>&1; then
		echo 'nvidia-smi --query-gpu=name,compute_cap,memory.total --format=csv,noheader'
	fi
	if [ -n "$nvcc" ]; then
		echo "$nvcc --version"
		for h in "$cuda/include/cudnn_version.h" "$cuda/include/nccl.h"; do
			[ -f "$h" ] && echo "grep -E '#define (CUDNN|NCCL)_(MAJOR|MINOR|PATCH)' $h"
		done
	fi
	for c in gcc g++ clang clang++; do
		command -v "$c" >/dev/null 2>&1 && echo "$c --version"
	done
} >"$tmp/same.sh"
# clang --version loads all of LLVM (26 ms here): shown apart as well
grep -v '^clang' "$tmp/same.sh" >"$tmp/noclang.sh"

"$tmp/timeit" "$N" \
	detect -- "$PTBUILD" detect --json --- \
	minimal -- sh "$tmp/minimal.sh" --- \
	same -- sh "$tmp/same.sh" --- \
	noclang -- sh "$tmp/noclang.sh" --- \
	true -- /bin/true --- \
	version -- "$PTBUILD" --version >"$tmp/times"

med() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/times"; }
cmds=$(grep -c . "$tmp/same.sh")
nc=$(grep -c . "$tmp/noclang.sh")
awk -v n="$N" -v cmds="$cmds" -v nc="$nc" -v d="$(med detect)" -v m="$(med minimal)" -v s="$(med same)" \
	-v c="$(med noclang)" -v t="$(med true)" -v v="$(med version)" 'BEGIN {
	printf "ptbuild detect --json        median %6.2f ms  (%d runs each, interleaved)\n", d / 1000, n
	printf "shell, the issue'"'"'s 4 commands median %6.2f ms  -> ptbuild %.1fx faster\n", m / 1000, m / d
	printf "shell, same answers (%2d)     median %6.2f ms  -> ptbuild %.1fx faster\n", cmds, s / 1000, s / d
	if (nc != cmds)
		printf "  ... without clang (%2d)     median %6.2f ms  -> ptbuild %.1fx faster\n", nc, c / 1000, c / d
	printf "/bin/true                    median %6.2f ms  (starting any process here)\n", t / 1000
	printf "ptbuild --version            median %6.2f ms  (ptbuild'"'"'s own start)\n", v / 1000
}'
