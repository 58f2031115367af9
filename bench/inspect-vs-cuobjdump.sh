#!/bin/sh
# inspect-vs-cuobjdump.sh - time `ptbuild inspect --images` against NVIDIA's
# `cuobjdump --list-elf --list-ptx` on the same library, in the same run,
# interleaved, N times each, and print the ratio of the medians.  Both
# list every SASS and PTX image of every fat binary; the listings are
# compared image for image first (the bench refuses to time two tools
# that disagree).
#
#   bench/inspect-vs-cuobjdump.sh [LIB] [CUOBJDUMP] [PTBUILD] [N]
#
# Defaults: Debian's libtorch_cuda.so and cuobjdump 12.4 from the
# real-inputs cache (tests/realinputs/apt-get-debs.sh fetches them;
# PTB_REAL_CACHE, default ~/.cache/ptbuild-real), ./ptbuild, 5 runs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${PTB_REAL_CACHE:-$HOME/.cache/ptbuild-real}
if [ $# -lt 1 ]; then
	sh "$here/../tests/realinputs/apt-get-debs.sh" trixie "$cache" \
		nvidia-cuda-toolkit libtorch-cuda-2.6 || exit 1
fi
LIB=${1:-$cache/root/usr/lib/x86_64-linux-gnu/libtorch_cuda.so.2.6.0}
CUOBJDUMP=${2:-$cache/root/usr/bin/cuobjdump}
PTBUILD=${3:-./ptbuild}
N=${4:-5}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptb-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
${CC:-cc} -O2 -o "$tmp/timeit" "$here/timeit.c"

# the same listing from both: one "SASS sm_XX" / "PTX sm_XX" line per image
"$CUOBJDUMP" --list-elf --list-ptx "$LIB" |
	sed -n 's/^\(ELF\|PTX\) file .*\.\(sm_[0-9]*[a-z]*\)\.\(cubin\|ptx\)$/\1 \2/p' |
	sed 's/^ELF/SASS/' >"$tmp/cuobjdump.txt"
"$PTBUILD" inspect --images "$LIB" | awk '
	$3 == "SASS" { print "SASS", $2 }
	$3 == "PTX"  { for (i = 1; i <= NF; i++) if ($i == ".target") t = $(i + 1); print "PTX", t }
' >"$tmp/ptbuild.txt"
if ! cmp -s "$tmp/cuobjdump.txt" "$tmp/ptbuild.txt"; then
	echo "the listings differ (cuobjdump < > ptbuild):" >&2
	diff "$tmp/cuobjdump.txt" "$tmp/ptbuild.txt" | head -20 >&2
	exit 1
fi
echo "$(wc -l <"$tmp/ptbuild.txt") images, the same in both, on $(basename "$LIB") ($(du -h "$LIB" | cut -f1))"

# interleaved runs (bench/timeit.c): median, min, p90 in microseconds
"$tmp/timeit" "$N" cuobjdump -- "$CUOBJDUMP" --list-elf --list-ptx "$LIB" \
	--- ptbuild -- "$PTBUILD" inspect --images "$LIB" >"$tmp/t"
awk -F '\t' -v n="$N" '
	{ med[$1] = $2; min[$1] = $3; p90[$1] = $4 }
	END {
		printf "%-10s %10s %10s %10s   (%d runs each, interleaved)\n", "", "median ms", "min ms", "p90 ms", n
		for (k = 0; k < 2; k++) {
			l = k ? "ptbuild" : "cuobjdump"
			printf "%-10s %10.1f %10.1f %10.1f\n", l, med[l] / 1000, min[l] / 1000, p90[l] / 1000
		}
		printf "ptbuild inspect --images is %.0fx faster than cuobjdump --list-elf --list-ptx\n",
			med["cuobjdump"] / med["ptbuild"]
	}' "$tmp/t"
