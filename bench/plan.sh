#!/bin/sh
# bench/plan.sh - median wall time of `ptbuild plan --profile gh200 --json`.
# Usage: bench/plan.sh [RUNS] [ptbuild ARGS...]   (default 101 runs)
# Prints one line: "plan --profile gh200 --json: median X.XX ms over N runs
# (min A.AA, max B.BB)".  Run from the build tree (uses ./ptbuild).
set -eu
runs=${1:-101}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- plan --profile gh200 --json
bin=${PTBUILD:-./ptbuild}
here=$(cd "$(dirname "$0")/.." && pwd)
export PTBUILD_RECIPE_PATH="${PTBUILD_RECIPE_PATH:-$here/recipes}"
"$bin" "$@" >/dev/null || [ $? -eq 1 ]   # warm the page cache
i=0
while [ "$i" -lt "$runs" ]; do
	s=$(date +%s%N)
	"$bin" "$@" >/dev/null || true
	e=$(date +%s%N)
	echo $(( (e - s) / 1000 ))
	i=$((i + 1))
done | sort -n | awk -v n="$runs" -v what="$*" '
	{ v[NR] = $1 }
	END {
		m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		printf "%s: median %.2f ms over %d runs (min %.2f, max %.2f)\n", what, m / 1000, n, v[1] / 1000, v[n] / 1000
	}'
