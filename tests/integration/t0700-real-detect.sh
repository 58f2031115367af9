#!/bin/sh
# t0700-real-detect.sh - detect on Debian's packaged CUDA 12.4 toolkit
# (nvidia-cuda-toolkit, nvidia-cuda-dev from trixie): /usr/bin/nvcc is a
# wrapper script, headers in /usr/include, libraries in the multiarch
# directory, no version.json.  As a sysroot and installed for real (laid
# over this host's /usr in a private mount namespace) detect must say
# 12.4 from the toolkit's own files and CUDA_HOME=/usr.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/realinputs/lib.sh"
real_debs nvidia-cuda-toolkit nvidia-cuda-dev libcudart12 libnvvm4

# the packages are what this test says they are
run cat "$REAL_ROOT/usr/bin/nvcc"
like "$out" '#!/bin/sh*exec /usr/lib/nvidia-cuda-toolkit/bin/nvcc "$@"*' \
	"Debian's /usr/bin/nvcc is a script that execs the real nvcc"
[ ! -e "$REAL_ROOT/usr/version.json" ] && [ ! -e "$REAL_ROOT/usr/lib/nvidia-cuda-toolkit/version.json" ]
t_ok $? "...and there is no version.json"

# json KEY...: the first toolkit's values, one per line, from $out
tk() {
	printf '%s' "$out" | python3 -c 'import json,sys
d=json.load(sys.stdin); t=[t for t in d["toolkits"] if t["root"]==sys.argv[1]]
print("\n".join(str(t[0].get(k) if t else "absent") for k in sys.argv[2:]))' "$@"
}
if ! command -v python3 >/dev/null 2>&1; then
	skip "detect on the sysroot" "no python3 to read the JSON"
	done_testing; exit $?
fi

run env -i PATH=/usr/bin:/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" detect --sysroot "$REAL_ROOT" --json
is "$rc" 0 "detect --sysroot on the unpacked packages exits 0"
is "$(tk /usr version release)" "12.4.131
12.4" "the toolkit at /usr is 12.4.131 (release 12.4), not null"
is "$(tk /usr version_source)" "nvcc binary /usr/lib/nvidia-cuda-toolkit/bin/nvcc" \
	"...read from the real nvcc behind the wrapper, which is not run"
is "$(tk /usr nvcc nvcc_real layout)" "/usr/bin/nvcc
/usr/lib/nvidia-cuda-toolkit/bin/nvcc
distribution" "...the wrapper, what it runs, a distribution's layout"
like "$(tk /usr picked_by)" "*PATH*" "...and PATH=/usr/bin picks it"
sysroot_facts=$(tk /usr root version version_source nvcc nvcc_real)

# without PATH naming /usr/bin it is still found
run env -i PATH=/nonexistent PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" detect --sysroot "$REAL_ROOT" --json
is "$(tk /usr version found_by)" "12.4.131
['/usr']" "found as /usr when PATH does not lead there"

run env -i PATH=/usr/bin:/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" detect --sysroot "$REAL_ROOT"
like "$out" "*cuda      12.4.131 at /usr*" "the text report says 12.4.131 at /usr"

# installed for real: the same facts on this host
run in_overlay env -i PATH=/usr/bin:/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" detect --json
if [ "$rc" -eq 77 ]; then
	skip "detect with the packages installed" "no unprivileged mount namespace with overlayfs here"
else
	is "$rc" 0 "detect with the packages laid over /usr exits 0"
	is "$(tk /usr root version version_source nvcc nvcc_real)" "$sysroot_facts" \
		"...and says of /usr what it said of the sysroot"
	if [ -x /usr/local/cuda/bin/nvcc ]; then
		v13=$(/usr/local/cuda/bin/nvcc --version | sed -n 's/.*release [^ ]* V\([0-9.]*\).*/\1/p')
		root13=$(cd /usr/local/cuda && pwd -P)
		is "$(tk "$root13" version)" "$v13" "...and lists this machine's CUDA $v13 at $root13 beside it"
	fi
fi
done_testing
