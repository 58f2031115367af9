#!/bin/sh
# bench/plan.sh - `ptbuild plan --profile gh200 --json` with the recipes
# precompiled at build time (the default) against the same command parsing
# every recipe from its text (PTBUILD_NO_PRECOMPILED=1), interleaved, N runs
# each (bench/timeit.c).  Prints both medians and the ratio.
#
#   bench/plan.sh [N] [ptbuild ARGS...]   (default 101 runs; run from the
#                                          build tree or set PTBUILD)
set -eu
runs=${1:-101}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- plan --profile gh200 --json
bin=${PTBUILD:-./ptbuild}
here=$(cd "$(dirname "$0")" && pwd)
export PTBUILD_RECIPE_PATH="${PTBUILD_RECIPE_PATH:-$here/../recipes}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptb-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
${CC:-cc} -O2 -o "$tmp/timeit" "$here/timeit.c"
"$tmp/timeit" "$runs" \
	pre -- "$bin" "$@" --- \
	parsed -- PTBUILD_NO_PRECOMPILED=1 "$bin" "$@" >"$tmp/times"
med() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/times"; }
awk -v what="$*" -v n="$runs" -v a="$(med pre)" -v b="$(med parsed)" 'BEGIN {
	printf "%s: median %.2f ms over %d runs (recipes precompiled)\n", what, a / 1000, n
	printf "%s: median %.2f ms (every recipe parsed) -> %.1fx faster precompiled\n", what, b / 1000, b / a
}'
