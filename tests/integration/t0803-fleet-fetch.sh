#!/bin/sh
# t0803-fleet-fetch.sh - `ptbuild fetch` for a fleet: each build's CUDA
# files, for its own platform, from a mirror served over HTTPS by nginx on
# 127.0.0.1, each build installed into PREFIX/PLATFORM (the directories
# generate writes), one cache for all; the same from the fleet document
# generate writes; --dry-run lists each build's items under its platform;
# a build that needs no download says so.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 openssl nginx xz
trap fx_cleanup EXIT
unset CURL_CA_BUNDLE SSL_CERT_FILE SSL_CERT_DIR https_proxy HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
P="$top_srcdir/recipes/profiles"
X="$P/dgx-h100.json" S="$P/graviton3.json"
# CUDA 13.5.0, whose checksums ptbuild does not carry: each build's files
# come through the mirror's manifest, which the test makes.
set -- --facts "$X" --facts "$S" --cuda 13.5.0 --no-cudnn

"$PTBUILD" plan "$@" --json >"$T_DIR/fleet.json" 2>/dev/null
comps() { # PLATFORM: the components of that build, comma-separated
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
i = [t["platform"] for t in d["targets"]].index(sys.argv[2])
print(",".join(d["builds"][i]["cuda"]["components"]))' "$T_DIR/fleet.json" "$1"
}
cx=$(comps x86_64) cs=$(comps sbsa)
count() { printf '%s\n' "$1" | tr ',' '\n' | grep -c .; }
[ -n "$cx" ] && [ -n "$cs" ]; t_ok $? "the fleet has an x86_64 and an sbsa build, each with CUDA components"

# One mirror, laid out like NVIDIA's redist tree: both platforms' archives
# and one manifest naming both.
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$T_DIR/mx" --platform linux-x86_64 --version 13.5.0 --kib 4 --names "$cx" &&
	python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$T_DIR/ms" --platform linux-sbsa --version 13.5.0 --kib 4 --names "$cs" ||
	skip_all "cannot build the fixture archives"
mkdir "$T_DIR/mirror"
cp -R "$T_DIR/mx/." "$T_DIR/mirror/" && cp -R "$T_DIR/ms/." "$T_DIR/mirror/"
python3 - "$T_DIR/mx/redistrib_13.5.0.json" "$T_DIR/ms/redistrib_13.5.0.json" "$T_DIR/mirror/redistrib_13.5.0.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for k, v in b.items():
    if isinstance(v, dict):
        a.setdefault(k, {}).update(v)
json.dump(a, open(sys.argv[3], "w"), indent=4)
PY
fx_ca "$T_DIR/ca" || skip_all "openssl cannot make a test CA"
fx_nginx "$T_DIR/mirror" "$T_DIR/ca"
export CURL_CA_BUNDLE="$T_DIR/ca/ca.pem"
base="https://127.0.0.1:$NGX_HTTPS"

# check PREFIX PLATFORM MANIFEST: every item of PREFIX's record is the
# manifest's file for PLATFORM, by name and sha256, and it has them all.
check() {
	python3 - "$1/.ptbuild-lock.json" "$2" "$3" <<'PY'
import json, sys
lock, plat, man = json.load(open(sys.argv[1])), sys.argv[2], json.load(open(sys.argv[3]))
want = {k: v[plat]["sha256"] for k, v in man.items() if isinstance(v, dict) and plat in v}
got = {i["name"]: i["sha256"] for i in lock["items"]}
print("ok" if got == want and lock["platform"] == plat else "got %s for %s, want %s" % (got, lock.get("platform"), want))
PY
}

# The dgx-h100's driver 550 cannot run CUDA 13.5 (driver-too-old, an
# error): without --force the fleet fetches nothing, naming that build.
run "$PTBUILD" fetch "$@" --mirror "$base" --prefix "$T_DIR/cuda" --cache "$T_DIR/cache"
is "$rc" 1 "a fleet whose x86_64 build has an error: exit 1"
like "$err" "*error: plan x86_64: driver 550.54.15 cannot run CUDA 13.5*driver-too-old*error: the fleet plan has 1 error (build 'x86_64': driver-too-old): nothing fetched*hint: *--force*" \
	"... the build's error said, then the refusal naming the build, its error and --force"
[ ! -e "$T_DIR/cuda" ] && [ ! -e "$T_DIR/cache" ] && [ ! -s "$T_DIR/nginx/access.log" ]
t_ok $? "... no request reached the mirror, no prefix, no cache"

run "$PTBUILD" fetch "$@" --mirror "$base" --prefix "$T_DIR/cuda" --cache "$T_DIR/cache" --force
is "$rc" 0 "a fleet of x86_64 + sbsa with --force: fetch exits 0"
[ "$rc" -eq 0 ] || printf '# %s\n' "$err"
like "$out" "x86_64: CUDA 13.5 (download) for dgx-h100*installed * components (*) into $T_DIR/cuda/x86_64 in *" "... the x86_64 build into PREFIX/x86_64"
like "$out" "*sbsa: CUDA 13.5 (download) for graviton3*installed * components (*) into $T_DIR/cuda/sbsa in *" "... the sbsa build into PREFIX/sbsa"
like "$err" "*plan sbsa: the GPU list and host compiler limits of CUDA 13.5 are assumed equal to*cuda-data-assumed*" \
	"... each build's problems said first, named by its platform (13.5's data is assumed)"
is "$(check "$T_DIR/cuda/x86_64" linux-x86_64 "$T_DIR/mirror/redistrib_13.5.0.json")" ok "PREFIX/x86_64 holds exactly the linux-x86_64 archives, by sha256"
is "$(check "$T_DIR/cuda/sbsa" linux-sbsa "$T_DIR/mirror/redistrib_13.5.0.json")" ok "PREFIX/sbsa holds exactly the linux-sbsa archives, by sha256"
is "$("$T_DIR/cuda/sbsa/bin/nvcc")" "Cuda compilation tools, release 13.5.0" "... each a toolkit tree (its nvcc runs)"
nx=$(grep -c 'GET /[a-z_]*/linux-x86_64/.*archive.tar' "$T_DIR/nginx/access.log")
ns=$(grep -c 'GET /[a-z_]*/linux-sbsa/.*archive.tar' "$T_DIR/nginx/access.log")
is "$nx $ns" "$(count "$cx") $(count "$cs")" \
	"... each archive requested once over HTTPS, for its own platform"
n=$(find "$T_DIR/cache/sha256" -type f | wc -l | tr -d ' ')
is "$n" "$(($(count "$cx") + $(count "$cs")))" "... one shared cache holds both builds' archives"

# Again: both prefixes are up to date, nothing is downloaded.
run "$PTBUILD" fetch "$@" --mirror "$base" --prefix "$T_DIR/cuda" --cache "$T_DIR/cache" --force
like "$out" "*$T_DIR/cuda/x86_64 is up to date*$T_DIR/cuda/sbsa is up to date*" "a second fetch: both prefixes up to date"

# From the fleet document generate writes, offline from the cache.
run "$PTBUILD" generate "$@" --out "$T_DIR/gen" --force
# its workflow's fetch of the x86_64 build, whose plan has the error, is
# told --force too (read by PyYAML); the sbsa build's is not
got=$(python3 -c '
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
job = d["jobs"]["build"]
m = {e["platform"]: e.get("fetch_force", False) for e in job["strategy"]["matrix"]["include"]}
run = [s["run"] for s in job["steps"] if s.get("name", "").startswith("Fetch")][0]
print(m["x86_64"], m["sbsa"], run.endswith("--prefix \"$RUNNER_TEMP/cuda\" ${{ matrix.fetch_force && '"'"'--force'"'"' || '"'"''"'"' }}"))
' "$T_DIR/gen/.github/workflows/ptbuild.yml" 2>&1)
is "$got" "True False True" "generate --force: the workflow's fetch gets --force for the x86_64 build alone"
run "$PTBUILD" fetch --plan "$T_DIR/gen/fleet.json" --mirror "$base" --prefix "$T_DIR/cuda2" --cache "$T_DIR/cache" --offline
is "$rc:$(test -e "$T_DIR/cuda2" && echo written || echo none)" "1:none" "fetch --plan OUT/fleet.json: the saved fleet's error refuses it too, nothing installed"
like "$err" "*error: the fleet plan '$T_DIR/gen/fleet.json' has 1 error (build 'x86_64': driver-too-old): nothing fetched*" "... naming the file, the build and its error"
run "$PTBUILD" fetch --plan "$T_DIR/gen/fleet.json" --mirror "$base" --prefix "$T_DIR/cuda2" --cache "$T_DIR/cache" --offline --force
is "$rc" 0 "fetch --plan OUT/fleet.json --offline --force: exit 0"
is "$(check "$T_DIR/cuda2/x86_64" linux-x86_64 "$T_DIR/mirror/redistrib_13.5.0.json") $(check "$T_DIR/cuda2/sbsa" linux-sbsa "$T_DIR/mirror/redistrib_13.5.0.json")" "ok ok" \
	"... the same archives into PREFIX/x86_64 and PREFIX/sbsa, from the one cache"

# --dry-run: each build's items under its platform.
run "$PTBUILD" fetch "$@" --mirror "$base" --prefix "$T_DIR/cuda3" --cache "$T_DIR/cache3" --dry-run
is "$rc" 1 "--dry-run for a fleet with an error: exit 1, as the fetch would"
like "$err" "*the fleet plan has 1 error (build 'x86_64': driver-too-old): without --dry-run nothing would be fetched*" "... saying so"
like "$out" "x86_64: CUDA 13.5*would fetch * components (*) for linux-x86_64 into $T_DIR/cuda3/x86_64*cuda_nvcc *$base/cuda_nvcc/linux-x86_64/*sbsa: CUDA 13.5*would fetch * components (*) for linux-sbsa into $T_DIR/cuda3/sbsa*cuda_nvcc *$base/cuda_nvcc/linux-sbsa/*" \
	"... lists each build's items under its platform and prefix"
[ ! -e "$T_DIR/cuda3" ]; t_ok $? "... and installs nothing"

# A build whose CUDA is installed on its build machine needs no download.
run "$PTBUILD" fetch --facts "$top_srcdir/tests/fixtures/sysroots/rtx4090-workstation.facts.json" --facts "$S" \
	--torch 2.8 --no-cudnn --mirror "$base" --cache "$T_DIR/cache4" --dry-run --force
is "$rc" 0 "a fleet with a build on an installed toolkit: exit 0"
like "$out" "x86_64: CUDA 12.8 (installed) for *x86_64: nothing to fetch: this build needs no download*sbsa: CUDA *would fetch *" \
	"... that build says it needs no download, the other is listed"

# A node no build serves gets nothing: said, with its fix, before the rest.
run "$PTBUILD" fetch --facts "$top_srcdir/tests/fixtures/facts/old-driver.json" --facts "$X" --no-cudnn \
	--cache "$T_DIR/cache5" --dry-run
is "$rc" 1 "a fleet with a node no CUDA serves: an error of the fleet's own (exit 1)"
like "$err" "*error: plan (fleet): node 'old-driver' *cannot be served*fleet-node-unserved*hint: install driver*" \
	"... the unserved node named, with its fix"
like "$err" "*error: the fleet plan has * error* (the fleet's own: fleet-node-unserved*): without --dry-run nothing would be fetched*" \
	"... and the refusal names the fleet's own error"
run "$PTBUILD" fetch --facts "$top_srcdir/tests/fixtures/facts/old-driver.json" --facts "$X" --no-cudnn \
	--cache "$T_DIR/cache5" --dry-run --force
is "$rc" 0 "... with --force the others are listed and the exit status is 0"
like "$out" "*would fetch *" "... listed"

run "$PTBUILD" fetch "$@" --write-lock "$T_DIR/x.lock"
is "$rc" 2 "--write-lock with a fleet: usage error (one lock cannot hold several builds)"
done_testing
