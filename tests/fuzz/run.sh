#!/bin/sh
# tests/fuzz/run.sh - build each libFuzzer target with clang (ASan + UBSan)
# and run it for a set time.  New crashes land in tests/fuzz/crashes/NAME/;
# copy each into tests/fuzz/regress/NAME/ once fixed so make check replays it.
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]      (default 600 s, all targets)
#
# Run from a configured build tree (config.h is needed).  Prints one summary
# line per target: executions, coverage, new corpus entries, crashes.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-600}
[ $# -gt 0 ] && shift
targets=${*:-$(cd "$top/tests/fuzz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')}
out=${FUZZ_OUT:-$top/tests/fuzz/build}
mkdir -p "$out"
[ -f "$top/config.h" ] || { echo "run ./configure first (config.h missing)" >&2; exit 2; }
# the recipes compiled at build time (src/lua/precompiled.c, generated)
make -C "$top" src/lua/precompiled.c >/dev/null || exit 2

cflags="-g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -I$top/src -I$top $(pkg-config --cflags libcurl libarchive libcjson lua5.4)"
libs="$(pkg-config --libs libcurl libarchive libcjson lua5.4) $(pkg-config --libs libcrypto 2>/dev/null) -lm -ldl"
srcs=$(cd "$top" && find src -name '*.c' ! -name main.c ! -name luac.c | sort)
objdir="$out/obj"
mkdir -p "$objdir"
for s in $srcs; do
	o="$objdir/$(echo "$s" | tr / _).o"
	if [ ! -f "$o" ] || [ "$top/$s" -nt "$o" ]; then
		clang $cflags -DPTB_PKGDATADIR="\"$top\"" -c "$top/$s" -o "$o"
	fi
done

export PTBUILD_RECIPE_PATH="$top/recipes" top_srcdir="$top"
for t in $targets; do
	clang $cflags -fsanitize=fuzzer "$top/tests/fuzz/fuzz_$t.c" "$objdir"/*.o $libs -o "$out/fuzz_$t"
	corpus="$out/corpus/$t"
	crashes="$top/tests/fuzz/crashes/$t"
	mkdir -p "$corpus" "$crashes"
	# seeds and past regressions first
	for d in "$top/tests/fuzz/corpus/$t" "$top/tests/fuzz/regress/$t"; do
		[ -d "$d" ] && cp -n "$d"/* "$corpus"/ 2>/dev/null || true
	done
	log="$out/$t.log"
	"$out/fuzz_$t" "$corpus" -max_total_time="$secs" -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1 || true
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | sed 's/cov: //')
	found=$(ls "$crashes" | wc -l)
	echo "fuzz $t: ${secs}s, ${execs:-0} executions, coverage ${cov:-?} edges, corpus $(ls "$corpus" | wc -l), crashes $found"
done
