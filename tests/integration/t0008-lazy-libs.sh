#!/bin/sh
# t0008-lazy-libs.sh - libcurl, libarchive and libcrypto are opened when a
# command first needs them, not linked: the binary does not name them, the
# commands that use them still work, and a library that cannot be loaded
# is reported as such (libarchive) or replaced by the built-in code
# (libcrypto's SHA-256, also chosen with PTBUILD_SHA256=built-in).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"

if command -v readelf >/dev/null 2>&1; then
	needed=$(readelf -d "$PTBUILD" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
	like "$needed" "*liblua*" "the binary links Lua ($needed)"
	for lib in libcurl libarchive libcrypto; do
		unlike "$needed" "*$lib*" "$lib is not linked"
	done
else
	skip "the binary's NEEDED list" "readelf is not installed (binutils)"
fi

fx_need python3 xz cc
export XDG_CACHE_HOME="$T_DIR/cache"
fx="$T_DIR/fx"
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$fx" --components 2 --kib 32 ||
	skip_all "cannot build the fixture archives"
man="$fx/redistrib_12.4.1.json"
F() { run "$PTBUILD" fetch --platform linux-x86_64 --manifest "$man" "$@"; }

F -v --prefix "$T_DIR/a" --cache "$T_DIR/c1" --write-lock "$T_DIR/a.lock"
is "$rc" 0 "fetch loads libcurl, libcrypto and libarchive when it needs them"
like "$err" "*sha256: libcrypto*" "... -v says libcrypto's SHA-256 is used"
[ -x "$T_DIR/a/bin/nvcc" ]; t_ok $? "... and extracts"

# Stand-ins that load but lack the entry points: an empty shared object
# under each soname, found first through LD_LIBRARY_PATH.
fake="$T_DIR/fake"
mkdir -p "$fake"
echo 'int ptb_not_the_real_library;' >"$fake/empty.c"
cc -shared -fPIC -o "$fake/libempty.so" "$fake/empty.c" 2>"$fake/cc.log" ||
	skip_all "cannot build a shared object with cc"
mkdir -p "$fake/archive"
for n in libarchive.so.13 libarchive.so; do cp "$fake/libempty.so" "$fake/archive/$n"; done

# The built-in SHA-256 is what runs when libcrypto cannot be opened.  (A
# stand-in libcrypto cannot show that through fetch: libcurl needs the
# real one for TLS.)
PTBUILD_SHA256=built-in F -v --prefix "$T_DIR/c" --cache "$T_DIR/c3" --write-lock "$T_DIR/c.lock"
is "$rc" 0 "PTBUILD_SHA256=built-in: fetch works"
like "$err" "*sha256: built-in*" "... with the built-in SHA-256"
cmp -s "$T_DIR/a.lock" "$T_DIR/c.lock"; t_ok $? "... with the same digests"

LD_LIBRARY_PATH="$fake/archive" F --prefix "$T_DIR/d" --cache "$T_DIR/c4"
is "$rc" 4 "a libarchive that lacks its entry points: fetch fails with exit 4"
like "$err" "*needs libarchive, which cannot be loaded: libarchive lacks archive_*" "... saying libarchive could not be loaded"
[ ! -e "$T_DIR/d" ]; t_ok $? "... and leaves no prefix behind"

nvcc=${NVCC:-}
[ -n "$nvcc" ] && command -v "$nvcc" >/dev/null 2>&1 || nvcc=$(command -v nvcc 2>/dev/null)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -n "$nvcc" ] && printf '__global__ void k(float *x) { x[0] = 1; }\n' >"$T_DIR/k.cu" &&
	"$nvcc" -c "$T_DIR/k.cu" -o "$T_DIR/zstd.o" -gencode arch=compute_80,code='[sm_80,compute_80]' \
		-compress-mode=size >"$T_DIR/nvcc.log" 2>&1; then
	run "$PTBUILD" inspect --decode --json "$T_DIR/zstd.o"
	like "$out" '*"decode_failures": 0*' "inspect decodes zstd images through libarchive"
	LD_LIBRARY_PATH="$fake/archive" run "$PTBUILD" inspect --decode "$T_DIR/zstd.o"
	like "$out" "*2 images could not be decoded*zstd images need libarchive, which cannot be loaded: libarchive lacks archive_*" "without libarchive inspect says why the zstd images are not decoded"
else
	skip "inspect and zstd images" "no nvcc here that builds -compress-mode=size objects"
fi
done_testing
