#!/bin/sh
# t0706-real-image-hostcfg.sh - the compiler a generated Dockerfile builds
# with, put to the consumer that refuses it: crt/host_config.h of a real
# CUDA 12.4 toolkit (Debian trixie's nvidia-cuda-dev 12.4.1, its guard
# '#if __GNUC__ > 13 ... #error -- unsupported GNU version!').  For each
# base, generate for CUDA 12.4; the g++ major the image builds with (the
# g++-N it installs and names in CXX, else its build-essential's) is given
# to the preprocessor as __GNUC__, and the real header must take it.  The
# base's own major where a g++-N is installed must be refused by the same
# header: the switch was needed.  This machine's own g++ (its real
# __GNUC__) anchors the method.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/realinputs/lib.sh"
command -v g++ >/dev/null 2>&1 || skip_all "no g++ to preprocess with"
real_debs nvidia-cuda-dev
hdr=$REAL_ROOT/usr/include/crt/host_config.h
grep -q '^#if __GNUC__ > 13$' "$hdr"
t_ok $? "the real CUDA 12.4 host_config.h refuses gcc newer than 13"

printf '#include <crt/host_config.h>\nint ok;\n' >"$T_DIR/t.cpp"
takes() { # [MAJOR]: 0 when the header takes gcc MAJOR (else this g++'s own)
	g++ -E -x c++ -D__CUDACC__ ${1:+-U__GNUC__ -D__GNUC__=$1} -I"$REAL_ROOT/usr/include" \
		"$T_DIR/t.cpp" -o /dev/null 2>"$T_DIR/cpp.err"
	r=$?
	[ $r -eq 0 ] || grep -q 'unsupported GNU version' "$T_DIR/cpp.err" || { cat "$T_DIR/cpp.err" >&2; return 2; }
	return $r
}
own=$(g++ -dumpversion | cut -d. -f1)
takes
real=$?
is "$(takes "$own"; echo $?)" "$real" "__GNUC__=$own given by hand reads as this g++ $own's own"
is "$(takes 13; echo $?) $(takes 14; echo $?)" "0 1" "... and the header's edge shows through it: 13 taken, 14 refused"

# base, its build-essential g++ major [ubuntu-gcc] [debian-gcc]
while read -r base major; do
	run "$PTBUILD" generate --profile dgx-h100 --torch 2.5 --cuda 12.4 --base-image "$base" \
		--out "$T_DIR/$base" --format dockerfile
	cxx=$(sed -n 's/^ENV CXX="\/usr\/bin\/g++-\([0-9]*\)"$/\1/p' "$T_DIR/$base/Dockerfile" 2>/dev/null)
	uses=${cxx:-$major}
	takes "$uses"
	is "$rc:$?" "0:0" "$base for CUDA 12.4: the image's gcc $uses passes the real host_config.h"
	if [ -n "$cxx" ]; then
		takes "$major"
		is "$?" 1 "... and its own gcc $major would not: 'unsupported GNU version'"
	fi
done <<'ROWS'
ubuntu:22.04 11
ubuntu:24.04 13
debian:bookworm 12
debian:trixie 14
ROWS

done_testing
