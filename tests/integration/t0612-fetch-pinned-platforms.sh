#!/bin/sh
# t0612-fetch-pinned-platforms.sh - fetch --cuda LABEL holds a mirror's
# manifest to the copy ptbuild carries on every platform fetch accepts
# (linux-x86_64, linux-sbsa, linux-aarch64, linux-ppc64le) that NVIDIA's
# manifest lists, for every label in tools/data/redist.  Each mirror is a
# directory (file://) whose manifest and cuda_nvcc archive agree with each
# other -- the test's own archive -- but not with NVIDIA's: fetch must
# refuse it (exit 4) and install nothing.  A platform missing from
# data/redist.lua would leave nothing to hold the served manifest to.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v xz >/dev/null 2>&1 || skip_all "xz is not installed"

# label platform: one line per pair whose carried manifest lists cuda_nvcc
pairs=$(python3 -c '
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "redistrib_1*.json"))):
    m = json.load(open(f))
    label = os.path.basename(f)[len("redistrib_"):-len(".json")]
    for p in ("linux-x86_64", "linux-sbsa", "linux-aarch64", "linux-ppc64le"):
        if isinstance(m.get("cuda_nvcc", {}).get(p), dict):
            print(label, p)
' "$top_srcdir/tools/data/redist")
[ -n "$pairs" ]; t_ok $? "tools/data/redist lists cuda_nvcc for some label and platform"
case "$pairs" in *linux-ppc64le*) t_ok 0 "... linux-ppc64le among them (CUDA 12.4 and older)" ;;
*) t_ok 1 "... linux-ppc64le among them (CUDA 12.4 and older)" ;; esac

i=0
while read -r label plat; do
	i=$((i + 1))
	m="$T_DIR/m$i"
	python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$m" --platform "$plat" --version "$label" \
		--kib 4 --names cuda_nvcc >/dev/null 2>&1 || { t_ok 1 "$label $plat: cannot build the mirror"; continue; }
	# Control: the mirror is consistent, so its own manifest installs.
	"$PTBUILD" fetch --manifest "file://$m/redistrib_$label.json" --platform "$plat" --components cuda_nvcc \
		--prefix "$T_DIR/ok$i" --cache "$T_DIR/cok$i" >/dev/null 2>&1
	ok=$?
	run "$PTBUILD" fetch --cuda "$label" --platform "$plat" --components cuda_nvcc --mirror "file://$m" \
		--prefix "$T_DIR/p$i" --cache "$T_DIR/c$i"
	[ "$ok" -eq 0 ] && [ "$rc" -eq 4 ] && [ ! -e "$T_DIR/p$i" ] &&
		case "$err" in *"names another cuda_nvcc than NVIDIA's redistrib_$label.json, which ptbuild carries"*) true ;; *) false ;; esac
	t_ok $? "fetch --cuda $label --platform $plat from a mirror with other bytes: refused, exit 4 (control exit $ok, got $rc: $(printf '%s' "$err" | head -c 160))"
done <<EOF
$pairs
EOF
done_testing
