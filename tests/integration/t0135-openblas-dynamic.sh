#!/bin/sh
# t0135-openblas-dynamic.sh - what the plan says OpenBLAS's DYNAMIC_ARCH
# runs on this machine, against a real DYNAMIC_ARCH libopenblas loaded
# here: the kernel set it reports with OPENBLAS_VERBOSE=2 ("Core:
# SkylakeX") is the one the plan names for this CPU.  The library is
# $PTB_OPENBLAS_LIB, else the system's libopenblas.so.0 (Debian and
# Ubuntu: libopenblas0-pthread, built with DYNAMIC_ARCH=1).  It must be
# the release ptbuild's tables describe (the plan's OpenBLAS version);
# another release picks by other rules, and the test skips.
. "$top_srcdir/tests/lib.sh"
command -v cc >/dev/null 2>&1 || skip_all "no C compiler to load libopenblas with"
command -v python3 >/dev/null 2>&1 || skip_all "no python3 to read the plan"

lib=${PTB_OPENBLAS_LIB:-}
if [ -z "$lib" ]; then
	ldc=$(command -v ldconfig || echo /sbin/ldconfig)
	lib=$("$ldc" -p 2>/dev/null | sed -n 's/^[[:space:]]*libopenblas\.so\.0 (.*) => //p' | head -n 1)
fi
[ -n "$lib" ] && [ -f "$lib" ] ||
	skip_all "no libopenblas.so.0 on this machine (apt-get install libopenblas0-pthread, or set PTB_OPENBLAS_LIB)"

# The library's own report: its configuration line, then the core
# gotoblas_dynamic_init() printed at load ("Core: NAME", stderr).
cat >"$T_DIR/core.c" <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_NOW);
	char *(*config)(void);
	if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
	config = (char *(*)(void))dlsym(h, "openblas_get_config");
	if (!config) { fprintf(stderr, "no openblas_get_config\n"); return 1; }
	printf("%s\n", config());
	return 0;
}
EOF
cc -o "$T_DIR/core" "$T_DIR/core.c" -ldl 2>"$T_DIR/cc.err"
t_ok $? "a program that loads libopenblas builds"
run env OPENBLAS_VERBOSE=2 "$T_DIR/core" "$lib"
is "$rc" 0 "'$lib' loads"
config=$out
core=$(printf '%s\n' "$err" | sed -n 's/^Core: //p' | head -n 1)
libver=$(printf '%s\n' "$config" | sed -n 's/^OpenBLAS \([0-9][0-9.]*\) .*/\1/p')
case " $config " in
*" DYNAMIC_ARCH "*) ;;
*) skip_all "'$lib' is not a DYNAMIC_ARCH build ($config)" ;;
esac
[ -n "$core" ] || skip_all "'$lib' printed no 'Core:' line with OPENBLAS_VERBOSE=2"

# ptbuild's account of this machine
run "$PTBUILD" detect --json
is "$rc" 0 "detect on this machine exits 0"
printf '%s\n' "$out" >"$T_DIR/facts.json"
run "$PTBUILD" plan --facts "$T_DIR/facts.json" --json
is "$rc" 0 "plan for this machine exits 0"
field() { # KEY: openblas.KEY of the plan in $out
	printf '%s' "$out" | python3 -c 'import json,sys; print((json.load(sys.stdin).get("openblas") or {}).get(sys.argv[1]) or "")' "$1"
}
note=$(field note)
# the release ptbuild's tables describe: the one a plan builds from source
run "$PTBUILD" plan --profile gh200 --json
planver=$(field version)
like "$planver" "[0-9]*.[0-9]*" "ptbuild pins an OpenBLAS release ($planver)"
if [ "$libver" != "$planver" ]; then
	skip "the plan's DYNAMIC_ARCH kernels are the library's" \
		"'$lib' is OpenBLAS $libver; ptbuild's tables describe $planver"
	done_testing
	exit $?
fi
# The kernel set the note names: "its DYNAMIC_ARCH runs the X kernels"
# (x86-64), "runs the X kernel set" or "runs its generic X kernels" (Arm);
# OpenBLAS prints the core's own name where the note says it does.
want=$(printf '%s\n' "$note" | sed -n \
	-e "s/.*still prints 'Core: \([A-Za-z0-9_]*\)'.*/\1/p" \
	-e 's/.*DYNAMIC_ARCH runs the \([A-Z0-9_]*\) kernels.*/\1/p' \
	-e 's/.*runs the \([A-Z0-9_]*\) kernel set.*/\1/p' \
	-e 's/.*runs its generic \([A-Z0-9_]*\) kernels.*/\1/p' \
	-e 's/.*runs the \([A-Z0-9_]*\) kernels.*/\1/p' | head -n 1)
like "$want" "?*" "the plan names the kernel set DYNAMIC_ARCH runs here ($note)"
is "$(printf '%s' "$core" | tr '[:lower:]' '[:upper:]')" "$(printf '%s' "$want" | tr '[:lower:]' '[:upper:]')" \
	"OpenBLAS $libver's DYNAMIC_ARCH runs '$core' here, as the plan says"
done_testing
