#!/bin/sh
# t0201-valgrind.sh - end-to-end commands under valgrind memcheck: no
# invalid reads or writes, no use of uninitialised values, no leaks.
. "$top_srcdir/tests/lib.sh"
command -v valgrind >/dev/null 2>&1 || skip_all "valgrind is not installed"
# A sanitizer build has its own checks, and valgrind cannot run under ASan.
grep -q "fsanitize" "$top_builddir/Makefile" 2>/dev/null &&
	grep -q '^PTB_SAN_CFLAGS = .*fsanitize' "$top_builddir/Makefile" &&
	skip_all "this build uses sanitizers (valgrind runs on the plain build)"

vg() { # NAME EXPECTED-EXIT ARGS...
	name=$1 want=$2
	shift 2
	valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect --log-file="$T_DIR/vg.log" \
		"$PTBUILD" "$@" >/dev/null 2>"$T_DIR/stderr"
	got=$?
	is "$got" "$want" "valgrind: $name (exit $want, no memory errors)"
	[ "$got" -eq "$want" ] || sed 's/^/# /' "$T_DIR/vg.log" | head -n 30
}

vg "arch summary" 0 arch 'Ampere;Hopper+PTX' --cuda 12.8
vg "arch --json" 0 arch '8.6(8.0)+PTX 9.0a' --cuda 12.9 --json
vg "arch unsupported" 1 arch 7.0 --cuda 13.0
vg "arch bad token" 2 arch 'ampere'
mkdir -p "$T_DIR/r/lib"
printf 'local M = {}\nfunction M.parse() while true do end end\nreturn M\n' >"$T_DIR/r/lib/archlist.lua"
vg "a runaway recipe" 3 --recipes "$T_DIR/r" arch 8.0
vg "doctor on this machine" "$("$PTBUILD" doctor >/dev/null 2>&1; echo $?)" doctor
vg "doctor --json" "$("$PTBUILD" doctor --json >/dev/null 2>&1; echo $?)" doctor --json
vg "help" 0 --help
done_testing
