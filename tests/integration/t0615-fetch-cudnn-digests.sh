#!/bin/sh
# t0615-fetch-cudnn-digests.sh - cuDNN 9.24.0.43, carried from its
# archives' digests alone (tools/data/redist/cudnn-archive-digests.csv: no
# source shows NVIDIA's redistrib_9.24.0.json whole).  PyTorch 2.14's
# cu130 and cu132 wheels use it: a plan for 2.14 with CUDA 13.0 or 13.2
# on x86_64 and SBSA downloads that archive with the digest the CSV
# gives (the SBSA cuda13 one without a size, which no source gave);
# 2.14's cu126 and 2.13's cu130 keep their wheels' own (9.10.2.21,
# 9.20.0.48).  A loopback mirror (nginx, plain HTTP on 127.0.0.1) serves
# the test's own archive at 9.24.0's path: fetch refuses it on the
# plan's sha256 and installs it on its own; the fix the plan prints for a
# toolkit without cuDNN (fetch --archive URL@SHA256) does the same.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 openssl nginx xz
trap fx_cleanup EXIT
unset http_proxy HTTP_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
csv="$top_srcdir/tools/data/redist/cudnn-archive-digests.csv"
nv=https://developer.download.nvidia.com/compute/cudnn/redist/

# "PROFILE TORCH CUDA -> version sha256 size url" of the plan's cuDNN
# download, and the same from the carried data it must be: the CSV for
# 9.24.0, NVIDIA's manifest copy for the others.
cudnn_of() { # PROFILE TORCH CUDA
	"$PTBUILD" plan --profile "$1" --torch "$2" --cuda "$3" --json 2>/dev/null |
		python3 -c '
import json, sys
p = json.load(sys.stdin)
d = [d for d in p["cuda"]["downloads"] if d["name"] == "cudnn"]
print(" ".join(str(x) for x in (d[0]["version"], d[0]["sha256"], d[0].get("size", "-"), d[0]["url"])) if d else "none")'
}
carried() { # PLATFORM VARIANT VERSION
	python3 - "$csv" "$top_srcdir/tools/data/redist" "$@" "$nv" <<'PY'
import csv, json, os, sys
path, d, platform, variant, version, base = sys.argv[1:7]
for r in csv.DictReader(open(path)):
    if (r["platform"], r["variant"], r["version"]) == (platform, variant, version):
        sys.exit(print(version, r["sha256"], r["size"] or "-", base + r["relative_path"]))
label = ".".join(version.split(".")[:3])
e = json.load(open(os.path.join(d, "redistrib_%s.json" % label)))["cudnn"][platform][variant]
print(version, e["sha256"], e["size"], base + e["relative_path"])
PY
}
for row in "dgx-h100 2.14 13.0 linux-x86_64 cuda13 9.24.0.43" "dgx-h100 2.14 13.2 linux-x86_64 cuda13 9.24.0.43" \
	"gh200 2.14 13.0 linux-sbsa cuda13 9.24.0.43" "gh200 2.14 13.2 linux-sbsa cuda13 9.24.0.43" \
	"dgx-h100 2.14 12.6 linux-x86_64 cuda12 9.10.2.21" "gh200 2.14 12.6 linux-sbsa cuda12 9.10.2.21" \
	"dgx-h100 2.13 13.0 linux-x86_64 cuda13 9.20.0.48" "gh200 2.13 13.0 linux-sbsa cuda13 9.20.0.48"; do
	# shellcheck disable=SC2086
	set -- $row
	is "$(cudnn_of "$1" "$2" "$3")" "$(carried "$4" "$5" "$6")" \
		"$1, PyTorch $2, CUDA $3: cuDNN $6, the $4 $5 archive with its carried sha256 and size"
done
is "$(carried linux-sbsa cuda13 9.24.0.43 | cut -d' ' -f3)" "-" "... the SBSA cuda13 archive of 9.24.0.43 has no size"

run "$PTBUILD" plan --profile gh200 --torch 2.14 --cuda 13.0
like "$out" "*cuDNN 9.24.0.43 (cuda13 variant), downloaded with the toolkit*the cuDNN PyTorch 2.14's cu130 wheels use; ptbuild holds no copy of NVIDIA's redistrib_9.24.0.json, only this archive's sha256 as one source gives it (cudnn924-cf in ptbuild's sources), and no size: fetch checks the sha256 alone*" \
	"the plan says it is the cu130 wheels' cuDNN, carried as one archive's sha256 without a size"

# The test's own archive at NVIDIA's path of 9.24.0.43's SBSA cuda13 one.
fx_cudnn924 "$T_DIR/src" "$T_DIR/mirror" 40000 || skip_all "cannot make the test archive"
own=$(sha256sum "$T_DIR/mirror/$rel" | cut -c1-64)
pinned=$(carried linux-sbsa cuda13 9.24.0.43 | cut -d' ' -f2)
fx_ca "$T_DIR/ca" || skip_all "openssl cannot make a test CA"
fx_nginx "$T_DIR/mirror" "$T_DIR/ca"
base="http://127.0.0.1:$NGX_HTTP"

# The plan cut down to cuDNN; and that plan with the served archive's sha256.
"$PTBUILD" plan --profile gh200 --torch 2.14 --cuda 13.0 --json >"$T_DIR/plan.json" 2>/dev/null
json_edit "$T_DIR/plan.json" "$T_DIR/cudnn.plan.json" \
	"f['cuda']['downloads'] = [d for d in f['cuda']['downloads'] if d['name'] == 'cudnn']; f['openblas'] = {'via': 'none'}"
json_edit "$T_DIR/cudnn.plan.json" "$T_DIR/own.plan.json" "f['cuda']['downloads'][0]['sha256'] = '$own'"
: >"$T_DIR/nginx/access.log"
run "$PTBUILD" fetch --plan "$T_DIR/cudnn.plan.json" --mirror "$base" --prefix "$T_DIR/p1" --cache "$T_DIR/c1"
is "$rc" 4 "fetch --plan (2.14's cuDNN only) --mirror: the mirror's archive is refused (exit 4)"
like "$err" "*'cudnn': sha256 mismatch: expected $pinned, got $own*" "... on the carried sha256, naming both"
grep -q "GET /$rel " "$T_DIR/nginx/access.log" && [ ! -e "$T_DIR/p1" ] && [ -z "$(find "$T_DIR/c1" -type f 2>/dev/null)" ]
t_ok $? "... after asking for exactly $rel: nothing installed, nothing kept"
run "$PTBUILD" fetch --plan "$T_DIR/own.plan.json" --mirror "$base" --prefix "$T_DIR/p2" --cache "$T_DIR/c2"
is "$rc" 0 "the same plan with the served archive's sha256 (and still no size): exit 0"
cmp -s "$T_DIR/src/$top/lib/libcudnn.so.9.24.0" "$T_DIR/p2/lib/libcudnn.so.9.24.0" && grep -q 'CUDNN_MINOR 24' "$T_DIR/p2/include/cudnn_version.h"
t_ok $? "... cuDNN's include/ and lib/ from that archive in the prefix"

# A GH200 whose CUDA 13.0 has no cuDNN: the fix is fetch --archive with
# the carried sha256 (no manifest digest to print), and it works.
json_edit "$top_srcdir/recipes/profiles/gh200.json" "$T_DIR/tk.json" \
	"f.pop('profile', None); f['toolkits'] = [{'root': '/usr/local/cuda-13.0', 'version': '13.0.88', 'target': 'sbsa-linux', 'nvcc': '/usr/local/cuda-13.0/bin/nvcc'}]"
fix=$("$PTBUILD" plan --facts "$T_DIR/tk.json" --torch 2.14 2>&1 | sed -n 's/^ *fix: \(ptbuild fetch .*\), then export CUDNN_ROOT=.*/\1/p')
is "$fix" "ptbuild fetch --archive $nv$rel@$pinned --prefix /opt/cudnn-9.24.0.43-cuda13" \
	"cudnn-not-found's fix: fetch --archive of 9.24.0.43's SBSA cuda13 archive with its carried sha256"
unlike "$fix" "*--manifest-sha256*" "... and no manifest digest"
# shellcheck disable=SC2086
set -- $(printf '%s\n' "$fix" | sed "s|$nv|$base/|; s|--prefix [^ ]*|--prefix $T_DIR/p3|; s|^ptbuild fetch ||")
run "$PTBUILD" fetch --cache "$T_DIR/c3" "$@"
is "$rc" 4 "that fix run against the loopback mirror: the test archive is refused (exit 4)"
like "$err" "*sha256 mismatch: expected $pinned, got $own*" "... held to the carried sha256"
[ ! -e "$T_DIR/p3" ]
t_ok $? "... and nothing installed"
# shellcheck disable=SC2086
set -- $(printf '%s\n' "$*" | sed "s|@$pinned|@$own|")
run "$PTBUILD" fetch --cache "$T_DIR/c3" "$@"
is "$rc" 0 "the same fix with the served archive's sha256: exit 0"
grep -q 'CUDNN_MINOR 24' "$T_DIR/p3/include/cudnn_version.h"
t_ok $? "... a CUDNN_ROOT with cuDNN's headers"
done_testing
