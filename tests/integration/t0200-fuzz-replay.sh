#!/bin/sh
# t0200-fuzz-replay.sh - replay every fuzz target over its seeds and all
# past crash inputs (tests/fuzz/regress): each must run clean.
. "$top_srcdir/tests/lib.sh"
for t in facts arch detect fatbin render envwriter manifest extract cache elfstrings source; do
	bin="$top_builddir/tests/fuzz/replay-$t"
	PTBUILD_RECIPE_PATH="$top_srcdir/recipes" TMPDIR="$T_DIR" "$bin" "$top_srcdir/tests/fuzz/corpus/$t" \
		"$top_srcdir/tests/fuzz/regress/$t" >"$T_DIR/$t.tap" 2>"$T_DIR/$t.err"
	st=$?
	n=$(grep -c '^ok' "$T_DIR/$t.tap")
	plan=$(sed -n 's/^1\.\.//p' "$T_DIR/$t.tap")
	is "$st:$plan" "0:$n" "$t: all $n inputs replay without a crash"
	[ "$st" -eq 0 ] || sed 's/^/# /' "$T_DIR/$t.err" | tail -n 20
done
done_testing
