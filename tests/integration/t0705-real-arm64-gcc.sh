#!/bin/sh
# t0705-real-arm64-gcc.sh - Debian trixie's gcc-14 for arm64, unpacked on
# this machine (of another architecture, most likely): a sysroot whose
# compiler cannot be run and has no dpkg status beside it.  detect must
# still give gcc-14's full version, from the version string in the
# aarch64 driver's bytes, the one GCC's own ChangeLog in the package
# says was released.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/realinputs/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
REAL_ARCH=arm64
real_debs gcc-14 gcc-14-aarch64-linux-gnu

drv="$REAL_ROOT/usr/bin/aarch64-linux-gnu-gcc-14"
[ "$(od -An -tu1 -N4 "$drv" | tr -s ' ')" = " 127 69 76 70" ] &&
	[ "$(od -An -tu1 -j18 -N2 "$drv" | tr -s ' ')" = " 183 0" ]
t_ok $? "the package's gcc-14 driver is an aarch64 ELF file (e_machine 183)"
[ ! -e "$REAL_ROOT/var/lib/dpkg/status" ]
t_ok $? "...and no dpkg status is beside it"
# the release GCC's ChangeLog names last ("* GCC 14.2.0 released.")
log="$REAL_ROOT/usr/share/doc/gcc-14-aarch64-linux-gnu/changelog.gz"
want=$(gzip -dc "$log" 2>/dev/null | sed -n 's/^[[:space:]]*\* GCC \(14\.[0-9]*\.[0-9]*\) released\.$/\1/p' | head -n 1)
[ -n "$want" ] || skip_all "no 'GCC 14.x.y released' entry in $log"

run env -i PATH=/usr/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" detect --sysroot "$REAL_ROOT" --json
is "$rc" 0 "detect --sysroot on the unpacked arm64 packages exits 0"
got=$(printf '%s' "$out" | python3 -c '
import json, sys
f = json.load(sys.stdin)
for c in f["compilers"]:
    print("%s=%s@%s" % (c["name"], c["version"], c.get("version_source")))' 2>&1)
like "$got" "*gcc-14=$want@binary /usr/bin/aarch64-linux-gnu-gcc-14*" \
	"gcc-14 is $want, from the aarch64 driver's bytes (not run, no dpkg record)"
done_testing
