#!/bin/sh
# t0611-fetch-pinned.sh - fetch checks a plan's CUDA 13.2.2 files against
# the sha256 ptbuild carries, not against the manifest a mirror serves.
# The mirror (nginx over HTTPS on 127.0.0.1) holds a 13.2.2 tree whose
# manifest and archives agree with each other -- the test's own archives,
# at NVIDIA's paths, listed with their own sha256 -- but not with NVIDIA's
# bytes: fetch must refuse it, install nothing, and not even read that
# manifest.  Then one component alone (cuda_cccl, NVIDIA's size, other
# bytes): refused on its sha256.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 openssl nginx xz
trap fx_cleanup EXIT
unset CURL_CA_BUNDLE SSL_CERT_FILE SSL_CERT_DIR https_proxy HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
carried="$top_srcdir/tools/data/redist/redistrib_13.2.2.json"
# graviton3 (linux-sbsa) takes OpenBLAS from the distribution: the plan
# downloads nothing but NVIDIA's files, all of them through the mirror.
set -- --profile graviton3 --cuda 13.2 --no-cudnn

comps=$("$PTBUILD" plan "$@" --json | python3 -c 'import json, sys; print(",".join(json.load(sys.stdin)["cuda"]["components"]))')
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$T_DIR/made" --platform linux-sbsa --version 13.2.2 --kib 4 --names "$comps" ||
	skip_all "cannot build the fixture archives"
# The mirror: each made archive moved to the path NVIDIA's 13.2.2 manifest
# gives that component, and a manifest naming them there with their sha256.
python3 - "$T_DIR/made" "$carried" "$T_DIR/mirror" <<'PY' || skip_all "cannot lay out the mirror"
import hashlib, json, os, shutil, sys
made, nv, out = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
m = json.load(open(os.path.join(made, "redistrib_13.2.2.json")))
for k, v in m.items():
    if not isinstance(v, dict):
        continue
    e, rel = v["linux-sbsa"], nv[k]["linux-sbsa"]["relative_path"]
    os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
    shutil.copy(os.path.join(made, e["relative_path"]), os.path.join(out, rel))
    e["relative_path"] = rel
# cuda_cccl: other bytes of exactly NVIDIA's size, so only its sha256 tells.
e, size = m["cuda_cccl"]["linux-sbsa"], int(nv["cuda_cccl"]["linux-sbsa"]["size"])
data = bytes((i * 7 + 3) % 251 for i in range(size))
open(os.path.join(out, e["relative_path"]), "wb").write(data)
e["sha256"], e["size"] = hashlib.sha256(data).hexdigest(), str(size)
json.dump(m, open(os.path.join(out, "redistrib_13.2.2.json"), "w"), indent=4)
PY
fx_ca "$T_DIR/ca" || skip_all "openssl cannot make a test CA"
fx_nginx "$T_DIR/mirror" "$T_DIR/ca"
export CURL_CA_BUNDLE="$T_DIR/ca/ca.pem"
base="https://127.0.0.1:$NGX_HTTPS"

# Control: the served tree is consistent -- fetch trusting that manifest
# (given with --manifest, the user's own) installs its nvcc.
run "$PTBUILD" fetch --manifest "$base/redistrib_13.2.2.json" --platform linux-sbsa --components cuda_nvcc --prefix "$T_DIR/raw" --cache "$T_DIR/c0"
is "$rc" 0 "the mirror's 13.2.2 manifest and archives agree (fetch --manifest from it: exit 0)"

# fetch --cuda 13.2.2 through that mirror: the served manifest is held to
# the one ptbuild carries, so the swapped nvcc is refused before any
# archive is downloaded.
: >"$T_DIR/nginx/access.log"
run "$PTBUILD" fetch --cuda 13.2.2 --platform linux-sbsa --components cuda_nvcc --mirror "$base" --prefix "$T_DIR/raw2" --cache "$T_DIR/c00"
is "$rc" 4 "fetch --cuda 13.2.2 from a mirror serving other files: exit 4"
like "$err" "*the manifest '$base/redistrib_13.2.2.json' names another cuda_nvcc than NVIDIA's redistrib_13.2.2.json, which ptbuild carries*hint: a mirror must serve NVIDIA's files unchanged*" \
	"... naming the component, the carried manifest and what to do"
[ ! -e "$T_DIR/raw2" ] && ! grep -q 'cuda_nvcc-linux-sbsa' "$T_DIR/nginx/access.log"
t_ok $? "... installing nothing and downloading no archive"
: >"$T_DIR/nginx/access.log"

# refusal: what the error says against what the carried manifest and the
# served one list -- "ok SIZE|SHA256 NAME" when it expected NVIDIA's value
# and got the mirror's.
refusal() {
	printf '%s\n' "$err" | python3 -c '
import json, re, sys
nv, mir, msg = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.stdin.read()
m = re.search(r"\x27([a-z_]+)\x27: (size|sha256) mismatch: expected ([0-9a-f]+)(?: bytes)?, got ([0-9a-f]+)", msg)
if not m:
    sys.exit(print("no size or sha256 mismatch in: " + msg[:300]))
c, what, exp, got = m.groups()
want = (nv[c]["linux-sbsa"][what], mir[c]["linux-sbsa"][what])
print("ok %s %s" % (what, c) if (exp, got) == want else "%s %s: expected %s, got %s; want %s" % (c, what, exp, got, want))
' "$carried" "$T_DIR/mirror/redistrib_13.2.2.json"
}

run "$PTBUILD" fetch "$@" --mirror "$base" --prefix "$T_DIR/cuda" --cache "$T_DIR/cache"
is "$rc" 4 "fetch $* --mirror: the plan's 13.2.2 files from a mirror with other bytes are refused (exit 4)"
like "$(refusal)" "ok *" "... a size or sha256 mismatch: expected NVIDIA's value from tools/data/redist, got the mirror's"
[ ! -e "$T_DIR/cuda" ]; t_ok $? "... nothing is installed"
grep -q 'GET /redistrib_13.2.2.json' "$T_DIR/nginx/access.log"
t_ok $((!$?)) "... and the mirror's manifest is never read"
grep -q 'GET /[a-z_]*/linux-sbsa/[a-z_]*-linux-sbsa-[0-9.]*-archive.tar.xz' "$T_DIR/nginx/access.log"
t_ok $? "... the archives were asked for at NVIDIA's paths"

# One component alone, through a saved plan cut down to it: cuda_cccl
# served with NVIDIA's size but other bytes, so only its sha256 tells.
"$PTBUILD" plan "$@" --json | python3 -c '
import json, sys
p = json.load(sys.stdin)
p["cuda"]["downloads"] = [d for d in p["cuda"]["downloads"] if d["name"] == "cuda_cccl"]
json.dump(p, sys.stdout)' >"$T_DIR/cccl.plan.json"
run "$PTBUILD" fetch --plan "$T_DIR/cccl.plan.json" --mirror "$base" --prefix "$T_DIR/cccl" --cache "$T_DIR/c2"
is "$rc" 4 "fetch --plan (cuda_cccl only) --mirror: the altered cuda_cccl is refused (exit 4)"
is "$(refusal)" "ok sha256 cuda_cccl" "... a sha256 mismatch: expected NVIDIA's sha256 from tools/data/redist, got the mirror's"
[ ! -e "$T_DIR/cccl" ] && [ -z "$(find "$T_DIR/c2" -type f)" ]
t_ok $? "... nothing installed, nothing kept in the cache"
done_testing
