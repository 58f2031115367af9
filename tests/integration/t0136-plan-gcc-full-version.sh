#!/bin/sh
# t0136-plan-gcc-full-version.sh - nvcc's limits are not only majors: gcc
# 13.2.0 on aarch64 breaks CUDA up to 12.4 (data/cuda.lua host_conflicts).
# With only "13" known (gcc-toolset-13 on RHEL: no dpkg record, and a
# sysroot's compiler is never run) the plan could only say "may not
# work".  Read from the driver's bytes, the full version decides it: a
# GH200 whose gcc-toolset-13 gcc is 13.2.0 gets gcc-too-new as an error,
# one whose gcc is Red Hat's 13.2.1 or a 13.1.1 gets no gcc-too-new.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cc=$(command -v cc || command -v gcc) || skip_all "no C compiler to build the test's driver"

# toolset VERSION_STRING: a sysroot with gcc-toolset-13's gcc, an ELF file
# built here that holds VERSION_STRING as GCC's driver holds its own
toolset() {
	S="$T_DIR/rhel-$1"
	TS=/opt/rh/gcc-toolset-13/root/usr
	mkdir -p "$S/etc" "$S$TS/bin" "$S$TS/lib/gcc/aarch64-redhat-linux/13"
	printf 'ID="rhel"\nVERSION_ID="9.4"\n' >"$S/etc/os-release"
	printf 'const char version_string[] = "%s";\nconst char *pkg = "(GCC) ";\nint main(void) { return version_string[0] + pkg[0]; }\n' \
		"$2" >"$T_DIR/driver.c"
	"$cc" -o "$S$TS/bin/gcc" "$T_DIR/driver.c" || return 1
}
# plan_with SYSROOT: detect it, put its compilers in the GH200 profile's
# facts, plan PyTorch 2.5 with CUDA 12.4: "code|severity|message" lines
# of its problems, then "host_compiler|choice|why"
plan_with() {
	env -i PATH="$TS/bin" PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
		"$PTBUILD" detect --sysroot "$1" --json >"$T_DIR/facts.json" || return 1
	python3 - "$T_DIR/facts.json" "$top_srcdir/recipes/profiles/gh200.json" "$T_DIR/gh200.json" <<'PY'
import json, sys
mine, gh = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
gh["compilers"] = mine["compilers"]
json.dump(gh, open(sys.argv[3], "w"), indent=1)
PY
	env -i PATH=/nonexistent PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
		"$PTBUILD" plan --facts "$T_DIR/gh200.json" --torch 2.5 --cuda 12.4 --json >"$T_DIR/plan.json"
	python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
for x in p.get("problems") or []:
    print("%s|%s|%s" % (x["code"], x["severity"], x["message"]))
for d in p.get("decisions") or []:
    if d.get("topic") == "host_compiler":
        print("host_compiler|%s|%s" % (d.get("choice"), d.get("why")))' "$T_DIR/plan.json"
}
gcc_of() {
	python3 -c '
import json, sys
print(" ".join("%s@%s" % (c["version"], c.get("version_source")) for c in json.load(open(sys.argv[1]))["compilers"]))' "$T_DIR/facts.json"
}

toolset 1320 "13.2.0" || skip_all "cannot build the test's driver with $cc"
out=$(plan_with "$S")
is "$(gcc_of)" "13.2.0@binary $TS/bin/gcc" "gcc-toolset-13's gcc holding 13.2.0 is 13.2.0, from its bytes"
like "$out" "*gcc-too-new|error|gcc 13.2.0 ($TS/bin/gcc) does not work with nvcc 12.4*gcc 13.2.0 on aarch64 breaks nvcc up to 12.4*" \
	"GH200, gcc 13.2.0, CUDA 12.4: gcc-too-new, an error"
case "$out" in *"may not work"*|*"not known to work"*) r=1 ;; *) r=0 ;; esac
t_ok $r "... as a certainty, not 'may not work'"

# Red Hat's gcc-toolset-13 is a 13.2.1 snapshot ("13.2.1 20231205"):
# the rule names 13.2.0 alone (spack's %gcc@13.2.0), so no gcc-too-new
# accepted DIR BYTES VERSION: gcc-toolset-13 whose driver holds BYTES is
# gcc VERSION, raises no gcc-too-new, and nvcc 12.4 takes its g++
accepted() {
	toolset "$1" "$2"
	out=$(plan_with "$S")
	is "$(gcc_of)" "$3@binary $TS/bin/gcc" "a driver holding '$2' is $3"
	case "$out" in *gcc-too-new*) r=1 ;; *) r=0 ;; esac
	t_ok $r "GH200, gcc $3, CUDA 12.4: no gcc-too-new, not even 'may not work'"
	[ "$r" = 0 ] || printf '# %s\n' "$out"
	like "$out" "*host_compiler|$TS/bin/g++ (gcc $3)|accepted by nvcc 12.4*" "... nvcc takes that gcc-toolset's compiler"
}
accepted 1321 "13.2.1 20231205" 13.2.1
accepted 1311 "13.1.1" 13.1.1
done_testing
