#!/bin/sh
# t0509-generate-image-toolchain.sh - the Dockerfile builds with a gcc and
# a Python the plan's CUDA and PyTorch take.  Over bases x CUDA x PyTorch
# (each leg, amd64 and arm64, that has CUDA pieces): a base whose own gcc
# nvcc takes keeps it; one whose gcc nvcc refuses installs the newest
# versioned g++ it offers that nvcc takes and names it in CC, CXX and
# CUDAHOSTCXX (with a note); one that offers none, or whose Python the
# release does not build with, is refused (exit 1, naming the image, its
# gcc or Python, the CUDA or PyTorch and the bases that would do, nothing
# written); a base ptbuild has no data for is written with a note that
# its compiler and Python are unchecked.  The plan's own CC, CXX and
# CUDAHOSTCXX (the planning host's) never reach a checked image.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

gen() { # OUT ARGS...: generate the Dockerfile into $T_DIR/OUT
	o=$T_DIR/$1
	shift
	run "$PTBUILD" generate "$@" --out "$o" --format dockerfile
}
built_with() { # DIR: "own" or the g++ the image installs and names, as "g++-N CC CXX CUDAHOSTCXX"
	d=$1/Dockerfile
	cxx=$(sed -n 's/^ENV CXX="\(.*\)"$/\1/p' "$d")
	if [ -z "$cxx" ] && ! grep -q '^ENV CC=\|^ENV CUDAHOSTCXX=' "$d"; then
		echo own
		return
	fi
	n=${cxx##*/g++-}
	pkg=$(grep -c "^      g++-$n " "$d")
	printf 'g++-%s pkg=%s CC=%s CXX=%s CUDAHOSTCXX=%s\n' "$n" "$pkg" \
		"$(sed -n 's/^ENV CC="\(.*\)"$/\1/p' "$d")" "$cxx" "$(sed -n 's/^ENV CUDAHOSTCXX="\(.*\)"$/\1/p' "$d")"
}

# 1. The table.  The host is the dgx-h100 profile (x86_64, CUDA 12.1 and
# 12.4 installed, gcc 11), whose plan has no compiler error for these
# CUDA releases; the image is what is judged.  Each row: base, torch,
# cuda, want ("own", "g++-N" or "refuse"), and why (its source).
#   gcc_max: 11.8 11, 12.1 12, 12.4 13, 12.8 14 [deb-hostcfg] [nix]
#   image gcc: jammy 11.4.0, noble 13.3.0 (g++-11/12/14 offered),
#   bookworm 12.2.0 (g++-11), trixie 14.2.0 (g++-12/13) [ubuntu-gcc]
#   [debian-gcc]; Python: jammy 3.10, noble 3.12, bookworm 3.11, trixie
#   3.13 [ubuntu] [debian-image]; PyTorch 2.4 3.8-3.12, 2.5 3.9-3.12
#   (3.13 experimental), 2.9 3.10-3.14 [pt-python]
while read -r base torch cuda want why; do
	name="$base torch $torch CUDA $cuda"
	gen row --base-image "$base" --profile dgx-h100 --torch "$torch" --cuda "$cuda"
	case $want in
	own)
		is "$rc:$(built_with "$T_DIR/row")" "0:own" "$name: the base's own gcc ($why)" ;;
	g++-*)
		n=${want#g++-}
		is "$rc:$(built_with "$T_DIR/row")" "0:g++-$n pkg=1 CC=/usr/bin/gcc-$n CXX=/usr/bin/g++-$n CUDAHOSTCXX=/usr/bin/g++-$n" \
			"$name: installs and builds with $want ($why)"
		like "$err" "*note: the base image $base's gcc * does not work with nvcc $cuda.* on amd64: newer than nvcc $cuda accepts*; the Dockerfile installs $want (*) and builds with it*" \
			"... with a note saying why" ;;
	refuse)
		is "$rc:$(test -e "$T_DIR/row/Dockerfile" && echo written || echo none)" "1:none" "$name: refused, nothing written ($why)"
		like "$err" "*error: the base image '$base' *" "... naming the image" ;;
	esac
	rm -rf "$T_DIR/row"
done <<'ROWS'
ubuntu:22.04 2.5 12.4 own gcc 11.4.0 <= 13
ubuntu:22.04 2.5 11.8 own gcc 11.4.0 <= 11
ubuntu:22.04 2.9 12.8 own gcc 11.4.0, Python 3.10 >= 2.9's 3.10
ubuntu:24.04 2.5 12.4 own gcc 13.3.0 <= 13
ubuntu:24.04 2.5 12.1 g++-12 gcc 13.3.0 > 12; g++-12 12.4.0
ubuntu:24.04 2.5 11.8 g++-11 gcc 13.3.0 > 11; g++-11 11.5.0
debian:bookworm 2.5 12.1 own gcc 12.2.0 <= 12
debian:bookworm 2.5 11.8 g++-11 gcc 12.2.0 > 11; g++-11 11.3.0
debian:trixie 2.5 12.1 g++-12 gcc 14.2.0 > 12; g++-12 12.4.0
debian:trixie 2.5 12.4 g++-13 gcc 14.2.0 > 13; g++-13 13.3.0; Python 3.13 experimental for 2.5
debian:trixie 2.9 12.8 own gcc 14.2.0 <= 14
debian:trixie 2.5 11.8 refuse gcc 14.2.0 > 11 and trixie offers g++-12 at the oldest
debian:trixie 2.4 12.4 refuse Python 3.13 > 2.4's 3.12
ROWS

# 2. The refusals say what to do.
gen r1 --base-image debian:trixie --profile dgx-h100 --torch 2.5 --cuda 11.8
like "$err" "*the base image 'debian:trixie' cannot build CUDA 11.8.0 for PyTorch 2.5: its gcc 14.2.0 does not work with nvcc on amd64 (newer than nvcc 11.8 accepts (gcc 11 at most*none of the g++ it offers (g++-12 12.4.0, g++-13 13.3.0, g++-14 14.2.0) does*" \
	"trixie for CUDA 11.8: the message names gcc 14.2.0, nvcc's limit and what the base offers"
like "$err" "*hint: pass --base-image ubuntu:22.04 (gcc 11.4.0, Python 3.10) or --base-image ubuntu:24.04 (g++-11 11.5.0, Python 3.12) or --base-image debian:bookworm (g++-11 11.3.0, Python 3.11), or plan another --cuda (nvcc 11.8 takes gcc 11 at most)*" \
	"... and the bases that would build it, with the g++ each would use"
gen r2 --base-image debian:trixie --profile dgx-h100 --torch 2.4 --cuda 12.4
like "$err" "*the base image 'debian:trixie' has Python 3.13, newer than PyTorch 2.4 builds with (Python 3.8-3.12)*" \
	"trixie for PyTorch 2.4: the message names Python 3.13 and 2.4's range"
like "$err" "*hint: pass --base-image ubuntu:22.04*or plan --torch 2.5 or newer, the first release that builds with Python 3.13*" \
	"... and the fix: another base or --torch 2.5"
gen x --base-image debian:trixie --profile dgx-h100 --torch 2.5 --cuda 12.4
like "$err" "*note: the base image debian:trixie's Python 3.13 is experimental for PyTorch 2.5 (Python 3.9-3.12, 3.13 experimental in its release matrix)*" \
	"trixie for PyTorch 2.5: written, with a note that Python 3.13 is experimental there"
gen y --base-image debian:trixie --profile dgx-h100 --torch 2.6 --cuda 12.4
unlike "$err" "*experimental for PyTorch*" "... and for PyTorch 2.6 (3.9-3.13) no such note"
# an older Python than the release's minimum: the same rule as plan's python-too-old
json_edit "$top_srcdir/recipes/profiles/dgx-h100.json" "$T_DIR/py.json" "f.pop('profile', None)"
mkdir -p "$T_DIR/oldpy/data"
cat >"$T_DIR/oldpy/data/image.lua" <<'LUA'
local d = ptb.include_next("data/image")
d.bases[1].python = "3.9"
return d
LUA
run "$PTBUILD" --recipes "$T_DIR/oldpy" generate --facts "$T_DIR/py.json" --torch 2.9 --cuda 12.8 --base-image ubuntu:22.04 \
	--out "$T_DIR/oldpy/out" --format dockerfile
is "$rc:$(test -e "$T_DIR/oldpy/out/Dockerfile" && echo written || echo none)" "1:none" "a base with Python 3.9 for PyTorch 2.9: refused"
like "$err" "*Python 3.9, older than PyTorch 2.9 builds with (Python 3.10-3.14)*" "... setup.py's minimum named"
like "$err" "*hint: pass --base-image ubuntu:24.04*or plan --torch 2.8, the newest release that builds with Python 3.9*" \
	"... and the fix: a base with a newer Python, or the newest release that takes 3.9"

# 3. A base with no data: written, with a note that nothing was checked.
gen u --base-image registry.example.com/team/cuda:12.1 --profile dgx-h100 --torch 2.5 --cuda 12.1
is "$rc:$(built_with "$T_DIR/u")" "0:own" "an image ptbuild has no data for: written as before"
like "$err" "*note: the base image registry.example.com/team/cuda:12.1 is not one ptbuild has data for: its gcc and Python are unchecked against CUDA 12.1.1 and PyTorch 2.5; nvcc 12.1 takes gcc 12 at most, and PyTorch 2.5 builds with Python 3.9-3.12*" \
	"... with a note that its gcc and Python are unchecked"
gen k --base-image ubuntu:22.04 --profile dgx-h100 --torch 2.5 --cuda 12.1
unlike "$err" "*unchecked*" "a base with data: no such note"

# 4. Per leg: a base whose arm64 gcc is 13.2.0 (nvcc <= 12.4 breaks on
# it at the first .cu on aarch64 [spack-cuda]) and amd64 13.3.0, for the
# gh200 plan (both legs have CUDA pieces).  The arm64 leg fails, so the
# image builds with the newest g++ every leg takes.
mkdir -p "$T_DIR/leg/data"
cat >"$T_DIR/leg/data/image.lua" <<'LUA'
local d = ptb.include_next("data/image")
d.bases[2].gcc = { amd64 = "13.3.0", arm64 = "13.2.0" }
d.bases[2].gxx = { ["12"] = "12.4.0", ["13"] = "13.2.0" }
return d
LUA
run "$PTBUILD" --recipes "$T_DIR/leg" generate --profile gh200 --torch 2.5 --cuda 12.4 --base-image ubuntu:24.04 \
	--out "$T_DIR/leg/out" --format dockerfile
is "$rc:$(built_with "$T_DIR/leg/out")" "0:g++-12 pkg=1 CC=/usr/bin/gcc-12 CXX=/usr/bin/g++-12 CUDAHOSTCXX=/usr/bin/g++-12" \
	"arm64's gcc 13.2.0 with CUDA 12.4: g++-12 for the image (g++-13 13.2.0 fails arm64 too)"
like "$err" "*note: the base image ubuntu:24.04's gcc 13.2.0 does not work with nvcc 12.4.* on arm64: gcc 13.2.0 on aarch64 breaks nvcc up to 12.4 at the first .cu*installs g++-12 (12.4.0)*" \
	"... the note names the arm64 leg and the conflict"
grep -q '^    arm64)' "$T_DIR/leg/out/Dockerfile" && grep -q '^    amd64)' "$T_DIR/leg/out/Dockerfile"
t_ok $? "... the Dockerfile still builds both legs"
# only the Dockerfile and bake file are images: other formats are not judged
run "$PTBUILD" generate --base-image debian:trixie --profile dgx-h100 --torch 2.5 --cuda 11.8 \
	--out "$T_DIR/envonly" --format env
is "$rc" 0 "--format env with a base that cannot build the plan: written (no image, no image check)"

# 5. The plan's CUDAHOSTCXX names the planning host's g++-12: a checked
# image does not inherit it; an unchecked one keeps it as before.
plan=$top_srcdir/tests/fixtures/plans/rtx4090-workstation-cuda12.1.plan.json
grep -q '"CUDAHOSTCXX": "/usr/bin/g++-12"' "$plan"
t_ok $? "the fixture plan names the host's g++-12 in CUDAHOSTCXX"
gen p1 --plan "$plan" --base-image ubuntu:22.04
is "$rc:$(built_with "$T_DIR/p1")" "0:own" "ubuntu:22.04 (gcc 11.4.0) for that plan: its own gcc, no CUDAHOSTCXX from the host"
like "$err" "*note: the plan's CUDAHOSTCXX=/usr/bin/g++-12 names the planning host's compiler*" "... with a note"
gen p2 --plan "$plan" --base-image registry.example.com/team/cuda:12.1
grep -q '^ENV CUDAHOSTCXX="/usr/bin/g++-12"$' "$T_DIR/p2/Dockerfile"
t_ok $? "an unchecked base keeps the plan's CUDAHOSTCXX"

# 6. A fleet: each build's image is judged alike; one refusal writes
# nothing for any.
mkdir -p "$T_DIR/fleet/facts"
cp "$top_srcdir/recipes/profiles/dgx-h100.json" "$top_srcdir/recipes/profiles/altra-a100.json" "$T_DIR/fleet/facts/"
run "$PTBUILD" generate --facts "$T_DIR/fleet/facts" --out "$T_DIR/fleet/out" --base-image debian:trixie --torch 2.5 --cuda 11.8
is "$rc:$(test -e "$T_DIR/fleet/out" && echo written || echo none)" "1:none" "a fleet on trixie for CUDA 11.8: refused, nothing written"
run "$PTBUILD" generate --facts "$T_DIR/fleet/facts" --out "$T_DIR/fleet/out" --base-image debian:trixie --torch 2.5 --cuda 12.1
is "$rc:$(built_with "$T_DIR/fleet/out/x86_64") $(built_with "$T_DIR/fleet/out/sbsa")" \
	"0:g++-12 pkg=1 CC=/usr/bin/gcc-12 CXX=/usr/bin/g++-12 CUDAHOSTCXX=/usr/bin/g++-12 g++-12 pkg=1 CC=/usr/bin/gcc-12 CXX=/usr/bin/g++-12 CUDAHOSTCXX=/usr/bin/g++-12" \
	"... for CUDA 12.1: both builds' images install and use g++-12"

# 7. A real shell reads the image's environment: the ENV lines of the
# Dockerfile, as Docker sets them, name the g++ the packages install.
gen sh --base-image debian:trixie --profile dgx-h100 --torch 2.5 --cuda 12.1
sed -n 's/^ENV \([A-Z_]*\)="\(.*\)"$/export \1='"'"'\2'"'"'/p' "$T_DIR/sh/Dockerfile" | grep -E "^export (CC|CXX|CUDAHOSTCXX)=" >"$T_DIR/sh/env.sh"
got=$(sh -c '. "$1" && printf "%s %s %s" "$CC" "$CXX" "$CUDAHOSTCXX"' sh "$T_DIR/sh/env.sh")
is "$got" "/usr/bin/gcc-12 /usr/bin/g++-12 /usr/bin/g++-12" "a shell sourcing the image's ENV gets g++-12 for nvcc, C and C++"
grep -q "^#    The compilers are g++-12 (12.4.0), installed above: nvcc of" "$T_DIR/sh/Dockerfile"
t_ok $? "... and the Dockerfile says why in a comment"

done_testing
