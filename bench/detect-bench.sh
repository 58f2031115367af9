#!/bin/sh
# detect-bench.sh - time `ptbuild detect --json` against the shell a user
# would otherwise run for the same answers (uname, os-release, ldd for
# glibc, nvcc --version, gcc --version), in the same run, N times each;
# prints the medians and the ratio.
#
#   bench/detect-bench.sh [PTBUILD] [N]     (default ./ptbuild, 21 runs)
set -eu
PTBUILD=${1:-./ptbuild}
N=${2:-21}
: "${PTBUILD_RECIPE_PATH:=$(cd "$(dirname "$0")/.." && pwd)/recipes}"
export PTBUILD_RECIPE_PATH

now_us() { echo $(($(date +%s%N) / 1000)); }

shell_way() {
	uname -srm
	cat /etc/os-release
	ldd --version 2>&1 | head -n 1
	nvcc --version 2>/dev/null || true
	gcc --version
	g++ --version
	cat /proc/cpuinfo /proc/meminfo
	cat /proc/driver/nvidia/version 2>/dev/null || true
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

"$PTBUILD" detect --json >/dev/null   # warm the page cache for both
shell_way >/dev/null 2>&1
: >"${TMPDIR:-/tmp}/ptb-bench.$$.a"
: >"${TMPDIR:-/tmp}/ptb-bench.$$.b"
i=0
while [ "$i" -lt "$N" ]; do
	t0=$(now_us)
	"$PTBUILD" detect --json >/dev/null
	t1=$(now_us)
	shell_way >/dev/null 2>&1
	t2=$(now_us)
	echo $((t1 - t0)) >>"${TMPDIR:-/tmp}/ptb-bench.$$.a"
	echo $((t2 - t1)) >>"${TMPDIR:-/tmp}/ptb-bench.$$.b"
	i=$((i + 1))
done
a=$(median <"${TMPDIR:-/tmp}/ptb-bench.$$.a")
b=$(median <"${TMPDIR:-/tmp}/ptb-bench.$$.b")
rm -f "${TMPDIR:-/tmp}/ptb-bench.$$.a" "${TMPDIR:-/tmp}/ptb-bench.$$.b"
awk -v a="$a" -v b="$b" -v n="$N" 'BEGIN {
	printf "ptbuild detect --json   median %6.2f ms  (%d runs)\n", a / 1000, n
	printf "shell equivalent        median %6.2f ms  (uname, os-release, ldd, nvcc, gcc, g++ --version)\n", b / 1000
	printf "ratio                   %.1fx faster\n", b / a
}'
