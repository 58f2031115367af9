#!/bin/sh
# t0129-plan-redist-pins.sh - a plan that downloads CUDA 11.8, 12.0, 12.1,
# 12.2, 12.3, 12.5, 12.8, 12.9, 13.0, 13.1, 13.2 or 13.3 (the last update of
# each: 12.3.2, 12.8.2, 12.9.2, 13.0.3, 13.1.2 [ctk-catalog]) names every CUDA file with the URL, size
# and sha256 of NVIDIA's manifest for that label, as the copy in
# tools/data/redist lists them, on x86_64 and on SBSA: nothing is left for
# fetch to take from a downloaded manifest.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# pins MANIFEST PLATFORM LABEL < plan.json: "ok N" when the plan installs
# LABEL for PLATFORM and each CUDA download is the manifest's file, else
# what differs.
pins() {
	python3 -c '
import json, sys
man = json.load(open(sys.argv[1]))
plat, label = sys.argv[2], sys.argv[3]
c = json.load(sys.stdin)["cuda"]
base = "https://developer.download.nvidia.com/compute/cuda/redist/"
bad = []
if c.get("platform") != plat: bad.append("platform %s" % c.get("platform"))
if c.get("full_version") != label: bad.append("full_version %s" % c.get("full_version"))
if c.get("files_from_manifest"): bad.append("files_from_manifest")
files = [d for d in c.get("downloads", []) if d["name"] != "cudnn"]
for d in files:
    e = man.get(d["name"], {}).get(plat)
    if not e:
        bad.append("%s: not in the manifest" % d["name"]); continue
    want = (base + e["relative_path"], e["sha256"], int(e["size"]))
    if (d["url"], d["sha256"], d["size"]) != want: bad.append("%s: %s, want %s" % (d["name"], (d["url"], d["sha256"], d["size"]), want))
names = set(d["name"] for d in files)
if names != set(c.get("components", [])): bad.append("components %s" % sorted(set(c.get("components", [])) ^ names))
# libnvjitlink is a component from CUDA 12.0 on: required where NVIDIA lists it
for need in ("cuda_nvcc", "cuda_cudart", "cuda_nvrtc", "libcublas", "libcusparse", "libnvjitlink"):
    if need not in names and (need != "libnvjitlink" or plat in man.get(need, {})): bad.append("no %s" % need)
print("; ".join(bad) if bad else "ok %d" % len(files))
' "$@"
}

# CUDA minor | the label cuda.lua installs for it | fewest CUDA files a
# plan downloads (11.8 has no libnvjitlink; before 12.2 no libcufile for
# SBSA)
for row in "11.8 11.8.0 13" "12.0 12.0.1 14" "12.1 12.1.1 14" "12.2 12.2.2 15" "12.3 12.3.2 15" "12.5 12.5.1 15" \
	"12.8 12.8.2 15" "12.9 12.9.2 15" "13.0 13.0.3 15" "13.1 13.1.2 15" "13.2 13.2.2 15" "13.3 13.3.1 15"; do
	# shellcheck disable=SC2086
	set -- $row
	for pp in "dgx-h100 linux-x86_64" "gh200 linux-sbsa"; do
		prof=${pp% *} plat=${pp#* }
		"$PTBUILD" plan --profile "$prof" --cuda "$1" --json >"$T_DIR/p.json" 2>"$T_DIR/err"
		got=$(pins "$top_srcdir/tools/data/redist/redistrib_$2.json" "$plat" "$2" <"$T_DIR/p.json" 2>&1)
		n=${got#ok }
		case $n in *[!0-9]* | '') n=0 ;; esac
		t_ok $((n < $3)) "--profile $prof --cuda $1: $2 for $plat, each CUDA file pinned to the carried manifest ($got, at least $3)"
	done
done

# The human plan says so too, instead of "resolved from the manifest".
run "$PTBUILD" plan --profile gh200 --cuda 13.2
like "$out" "*CUDA 13.2 (13.2.2) for linux-sbsa, download, redist, 1[5-9] files with sha256,*" "the plan counts the pinned files"
unlike "$out" "*resolved from the manifest*" "... and never defers to a downloaded manifest"
run "$PTBUILD" plan --profile graviton3 --torch 2.4 --cuda 12.1
like "$out" "*CUDA 12.1 (12.1.1) for linux-sbsa, download, redist, 1[3-9] files with sha256,*" "an older CUDA (12.1 on Graviton3) is pinned the same way"
done_testing
