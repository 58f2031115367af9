#!/bin/sh
# t0613-fetch-cudnn.sh - the cuDNN a plan chooses is the one fetch
# downloads and checks.  PyTorch 2.7's cu128 wheels use cuDNN 9.7.1.26
# [release]: the plan for 2.7 with CUDA 12.8 on an x86_64 DGX H100 takes
# that one (not the newest carried, 9.20.0), with the sha256 and size of
# NVIDIA's redistrib_9.7.1.json that ptbuild carries.  A loopback mirror
# (nginx, plain HTTP on 127.0.0.1) serves the test's own cuDNN archive at
# NVIDIA's path of 9.7.1's: fetch asks for exactly that path and refuses
# the bytes on the plan's checksums; the same plan with the test archive's
# checksums installs it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 openssl nginx xz
trap fx_cleanup EXIT
unset http_proxy HTTP_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
carried="$top_srcdir/tools/data/redist/redistrib_9.7.1.json"
set -- --profile dgx-h100 --torch 2.7 --cuda 12.8

"$PTBUILD" plan "$@" --json >"$T_DIR/plan.json" 2>"$T_DIR/plan.err"
is "$?" 0 "plan $*: exit 0"
# The plan's cuDNN against the carried manifest: "version sha256 size url".
got=$(python3 - "$T_DIR/plan.json" "$carried" <<'PY'
import json, sys
p, m = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
d = [d for d in p["cuda"]["downloads"] if d["name"] == "cudnn"]
e = m["cudnn"]["linux-x86_64"]["cuda12"]
c = p["cuda"]["cudnn"]
print("plan", c["version"], c["manifest"], c["wheel_version"], len(d))
print("same" if d and (d[0]["version"], d[0]["sha256"], str(d[0]["size"]), d[0]["url"]) ==
      (m["cudnn"]["version"], e["sha256"], e["size"], "https://developer.download.nvidia.com/compute/cudnn/redist/" + e["relative_path"])
      else "differs: %s" % d)
PY
)
is "$got" "plan 9.7.1.26 9.7.1 9.7.1.26 1
same" "the plan takes cuDNN 9.7.1.26, the cu128 wheels' own, with redistrib_9.7.1.json's linux-x86_64 cuda12 archive"
run "$PTBUILD" plan "$@"
like "$out" "*cuDNN 9.7.1.26 (cuda12 variant), downloaded with the toolkit*the cuDNN PyTorch 2.7's cu128 wheels use, from NVIDIA's redistrib_9.7.1.json*" \
	"... and says it is the cuDNN the release's cu128 wheels use"

# The test's own cuDNN archive, laid out as NVIDIA's, at 9.7.1's path.
rel=cudnn/linux-x86_64/cudnn-linux-x86_64-9.7.1.26_cuda12-archive.tar.xz
python3 - "$T_DIR/mirror" "$rel" "$T_DIR/plan.json" "$T_DIR/cudnn.plan.json" "$T_DIR/own.plan.json" <<'PY' || skip_all "cannot build the cuDNN archive"
import hashlib, io, json, lzma, os, sys, tarfile
root, rel, src, cut, own = sys.argv[1:6]
top = os.path.basename(rel)[:-len(".tar.xz")]
files = {
    "include/cudnn_version.h": b"#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 7\n#define CUDNN_PATCHLEVEL 1\n",
    "lib/libcudnn.so.9.7.1": bytes((i * 13 + 5) % 251 for i in range(20000)),
    "LICENSE": b"test archive, not NVIDIA's\n",
}
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as tf:
    for name, data in files.items():
        ti = tarfile.TarInfo(top + "/" + name)
        ti.size, ti.mode, ti.mtime = len(data), 0o644, 1700000000
        tf.addfile(ti, io.BytesIO(data))
data = lzma.compress(buf.getvalue())
os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
open(os.path.join(root, rel), "wb").write(data)
# the plan cut down to cuDNN; and that plan with this archive's checksums
p = json.load(open(src))
p["cuda"]["downloads"] = [d for d in p["cuda"]["downloads"] if d["name"] == "cudnn"]
json.dump(p, open(cut, "w"))
p["cuda"]["downloads"][0]["sha256"] = hashlib.sha256(data).hexdigest()
p["cuda"]["downloads"][0]["size"] = len(data)
json.dump(p, open(own, "w"))
PY
fx_ca "$T_DIR/ca" || skip_all "openssl cannot make a test CA"
fx_nginx "$T_DIR/mirror" "$T_DIR/ca"
base="http://127.0.0.1:$NGX_HTTP"

# The plan's checksums are NVIDIA's 9.7.1 archive's: the mirror's bytes
# are refused, and the error names the plan's value and the mirror's.
: >"$T_DIR/nginx/access.log"
run "$PTBUILD" fetch --plan "$T_DIR/cudnn.plan.json" --mirror "$base" --prefix "$T_DIR/p1" --cache "$T_DIR/c1"
is "$rc" 4 "fetch --plan (cuDNN only) --mirror: the mirror's cuDNN 9.7.1 archive is refused (exit 4)"
refused=$(printf '%s\n' "$err" | python3 -c '
import json, os, re, sys
e = json.load(open(sys.argv[1]))["cudnn"]["linux-x86_64"]["cuda12"]
served = os.path.getsize(sys.argv[2])
msg = sys.stdin.read()
m = re.search(r"\x27cudnn\x27: (size|sha256) mismatch: expected ([0-9a-f]+)(?: bytes)?, got ([0-9a-f]+)", msg)
if not m:
    sys.exit(print("no size or sha256 mismatch in: " + msg[:300]))
what, exp, got = m.groups()
ok = exp == e[what] and (what == "sha256" or got == str(served))
print("ok %s" % what if ok else "expected %s, got %s: %s" % (exp, got, msg[:300]))
' "$carried" "$T_DIR/mirror/$rel")
like "$refused" "ok *" "... on a size or sha256 mismatch against redistrib_9.7.1.json's value"
grep -q "GET /$rel " "$T_DIR/nginx/access.log"
t_ok $? "... after asking the mirror for exactly the plan's archive, $rel"
[ ! -e "$T_DIR/p1" ] && [ -z "$(find "$T_DIR/c1" -type f 2>/dev/null)" ]
t_ok $? "... installing nothing and keeping nothing in the cache"

# The same plan with the served archive's checksums: fetch installs it.
run "$PTBUILD" fetch --plan "$T_DIR/own.plan.json" --mirror "$base" --prefix "$T_DIR/p2" --cache "$T_DIR/c2"
is "$rc" 0 "fetch --plan with the served archive's checksums: exit 0"
grep -q 'CUDNN_MINOR 7' "$T_DIR/p2/include/cudnn_version.h" && [ -f "$T_DIR/p2/lib/libcudnn.so.9.7.1" ]
t_ok $? "... cuDNN's include/ and lib/ from that archive in the prefix"
done_testing
