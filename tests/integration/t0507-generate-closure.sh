#!/bin/sh
# t0507-generate-closure.sh - what generate writes must work when PyTorch's
# build consumes it (issue #12): every variable the environment names is
# held by the facts, made by a step of setup.sh and of the Dockerfile, or
# off with the plan's reason (tests/generate_closure.py, every profile x
# every output); the Dockerfile's build RUN picks the settings of each
# TARGETARCH and computes MAX_JOBS from nproc and /proc/meminfo (run with
# sh against fake inputs); its ACL step builds from an archive checked by
# sha256 for arm64 only; setup.sh --dry-run shows the ACL and sccache
# steps; the bake file carries the Dockerfile inline (HCL parser).
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# 1. The closure, every profile, with and without --sccache.
mkdir -p "$T_DIR/closure"
python3 "$top_srcdir/tests/generate_closure.py" "$PTBUILD" "$T_DIR/closure" \
	"$top_srcdir"/recipes/profiles/*.json >"$T_DIR/closure.log" 2>&1
t_ok $? "every variable of every profile's outputs is in the facts, made by a step, or off with a reason"
sed 's/^/# /' "$T_DIR/closure.log" | tail -n 20

# 2. The build RUN, per TARGETARCH, with fake CPUs and memory.
"$PTBUILD" -q generate --profile gh200 --out "$T_DIR/gh" >/dev/null 2>&1
w="$T_DIR/run"
mkdir -p "$w/bin"
printf '#!/bin/sh\necho "${FAKE_NPROC:-8}"\n' >"$w/bin/nproc"
# python: the pip wheel of the build, replaced by printing what it would see
printf '#!/bin/sh\nenv | grep -E "^(MAX_JOBS|USE_MKLDNN_ACL|ACL_ROOT_DIR|CMAKE_SHARED_LINKER_FLAGS|USE_PRIORITIZED_TEXT_FOR_LD)=" | sort\n' >"$w/bin/python"
chmod +x "$w/bin/nproc" "$w/bin/python"
python3 - "$T_DIR/gh/Dockerfile" "$w" >"$w/build.sh" <<'PY'
import re, sys
text = open(sys.argv[1]).read().replace("\\\n", "")
run = [l[4:] for l in text.split("\n") if l.startswith("RUN ") and "pip wheel" in l][0]
body = re.sub(r"^(\s*--[a-z-]+=\S+)*\s*", "", run)
# Only the inputs move: /proc/meminfo and the cgroup limit to fakes.
body = body.replace("/proc/meminfo", sys.argv[2] + "/meminfo").replace("/sys/fs/cgroup/memory.max", sys.argv[2] + "/memory.max")
assert sys.argv[2] + "/meminfo" in body and sys.argv[2] + "/memory.max" in body
print(body)
PY
# build ARCH [VAR=VALUE...]: run the build RUN for TARGETARCH=ARCH
build() {
	ta=$1
	shift
	env -i PATH="$w/bin:/usr/bin:/bin" TARGETARCH="$ta" "$@" sh -eu -c "$(cat "$w/build.sh")" >"$w/out" 2>"$w/err"
	rc=$?
	out=$(grep -v '^ptbuild: TARGETARCH=' "$w/out")
	err=$(cat "$w/err")
}
printf 'MemTotal:       131072000 kB\nMemAvailable:   33554432 kB\n' >"$w/meminfo"
echo max >"$w/memory.max"
build amd64 FAKE_NPROC=64
is "$rc" 0 "the build RUN runs for amd64"
is "$out" "MAX_JOBS=8" "amd64: no arm64 settings; MAX_JOBS = 32 GiB available / 4 GiB per job"
build arm64 FAKE_NPROC=64
is "$out" "ACL_ROOT_DIR=/opt/acl
CMAKE_SHARED_LINKER_FLAGS=-Wl,-z,max-page-size=0x10000
MAX_JOBS=8
USE_MKLDNN_ACL=1
USE_PRIORITIZED_TEXT_FOR_LD=1" "arm64: ACL, the 64 KiB page linker flag, prioritized text"
build arm64 FAKE_NPROC=3
like "$out" "*MAX_JOBS=3*" "fewer CPUs than memory allows: MAX_JOBS = CPUs (3)"
echo 8589934592 >"$w/memory.max"
build amd64 FAKE_NPROC=64
is "$out" "MAX_JOBS=2" "a cgroup limit of 8 GiB under 32 GiB available: MAX_JOBS=2"
echo max >"$w/memory.max"
printf 'MemTotal:       4000000 kB\nMemAvailable:   1000000 kB\n' >"$w/meminfo"
build amd64 FAKE_NPROC=64
is "$out" "MAX_JOBS=1" "under 4 GiB: still one job"
build amd64 FAKE_NPROC=64 MAX_JOBS=5
is "$out" "MAX_JOBS=5" "the MAX_JOBS build argument overrides"
build amd64 MAX_JOBS='5;x'
t_ok "$([ "$rc" -ne 0 ]; echo $?)" "a MAX_JOBS that is no number stops the build"
like "$err" "*MAX_JOBS='5;x' is not a positive whole number*" "... saying so"
build s390x
t_ok "$([ "$rc" -ne 0 ]; echo $?)" "an unknown TARGETARCH stops the build"
grep -q '^ENV MAX_JOBS' "$T_DIR/gh/Dockerfile"
t_ok "$([ $? -ne 0 ]; echo $?)" "no MAX_JOBS fixed by an ENV line"
grep -q '^ARG MAX_JOBS=$' "$T_DIR/gh/Dockerfile"
t_ok $? "MAX_JOBS is a build argument, empty by default"
for m in '/var/cache/apt' '/var/lib/apt/lists' '/root/.cache/pip' '/root/.cache/ccache'; do
	grep -q -- "--mount=type=cache,target=$m" "$T_DIR/gh/Dockerfile"
	t_ok $? "cache mount for $m"
done
grep -q '^RUN python3 -m venv' "$T_DIR/gh/Dockerfile" && ! grep -q 'python3 -m pip' "$T_DIR/gh/Dockerfile"
t_ok $? "pip runs in a venv, never in the system Python (PEP 668)"

# 3. The ACL step, run for real against an archive made here.
if command -v curl >/dev/null 2>&1; then
	a="$T_DIR/acl"
	mkdir -p "$a/src/ComputeLibrary-52.8.0/arm_compute" "$a/src/ComputeLibrary-52.8.0/include" \
		"$a/src/ComputeLibrary-52.8.0/utils" "$a/src/ComputeLibrary-52.8.0/support" "$a/src/ComputeLibrary-52.8.0/src"
	: >"$a/src/ComputeLibrary-52.8.0/arm_compute/Acl.h"
	tar -czf "$a/acl.tar.gz" -C "$a/src" ComputeLibrary-52.8.0
	mkdir -p "$a/bin"
	# scons: records its arguments and makes build/libarm_compute.so
	printf '#!/bin/sh\n[ "$1" = -C ] || exit 9\nd=$2; shift 2\necho "$@" >"$d/../scons.args"\nmkdir -p "$d/build"\n: >"$d/build/libarm_compute.so"\n' >"$a/bin/scons"
	chmod +x "$a/bin/scons"
	python3 - "$top_srcdir/tests/fixtures/plans-in/gh200.json" "$a/plan.json" "$a/acl.tar.gz" <<'PY'
import hashlib, json, sys
p = json.load(open(sys.argv[1]))
p.setdefault("acl", {"via": "source", "root": "/opt/acl"})
p["acl"]["url"] = "file://" + sys.argv[3]
p["acl"]["sha256"] = hashlib.sha256(open(sys.argv[3], "rb").read()).hexdigest()
json.dump(p, open(sys.argv[2], "w"))
PY
	"$PTBUILD" -q generate --plan "$a/plan.json" --out "$a/out" --format dockerfile >/dev/null 2>&1
	python3 - "$a/out/Dockerfile" "$a" >"$a/acl.sh" <<'PY'
import sys
text = open(sys.argv[1]).read().replace("\\\n", "")
run = [l[4:] for l in text.split("\n") if l.startswith("RUN ") and "no ACL setting" in l][0]
print(run.replace("'/opt/acl'", "'%s/root'" % sys.argv[2]).replace("/tmp/acl", sys.argv[2] + "/tmp/acl"))
PY
	for ta in amd64 arm64; do
		rm -rf "$a/root" "$a/tmp"
		mkdir -p "$a/tmp"
		env PATH="$a/bin:/usr/bin:/bin" TARGETARCH=$ta sh -eu -c "$(cat "$a/acl.sh")" >"$a/log" 2>&1
		is "$?" 0 "the ACL step runs for TARGETARCH=$ta"
	done
	t_ok "$([ -e "$a/root/build/libarm_compute.so" ] && [ -e "$a/root/arm_compute/Acl.h" ] && [ -d "$a/root/include" ]; echo $?)" \
		"arm64: ACL built and what oneDNN reads copied into ACL_ROOT_DIR"
	is "$(cat "$a/tmp/scons.args")" "-j$(nproc) Werror=0 debug=0 neon=1 opencl=0 embed_kernels=0 os=linux arch=armv8a build=native multi_isa=1 fixed_format_kernels=1 openmp=1 cppthreads=0" \
		"arm64: scons with PyTorch's flags"
	rm -rf "$a/root" "$a/tmp"
	mkdir -p "$a/tmp"
	env PATH="$a/bin:/usr/bin:/bin" TARGETARCH=amd64 sh -eu -c "$(cat "$a/acl.sh")" >"$a/log" 2>&1
	t_ok "$([ ! -e "$a/root" ]; echo $?)" "amd64: no ACL"
	printf 'x' >>"$a/acl.tar.gz"
	rm -rf "$a/root" "$a/tmp"
	mkdir -p "$a/tmp"
	env PATH="$a/bin:/usr/bin:/bin" TARGETARCH=arm64 sh -eu -c "$(cat "$a/acl.sh")" >"$a/log" 2>&1
	st=$?
	t_ok "$([ "$st" -ne 0 ] && [ ! -e "$a/root" ]; echo $?)" "an ACL archive whose sha256 differs stops the step"
else
	skip "the ACL step" "curl is not installed"
fi

# 3b. The ACL of the planned release: the tag PyTorch's aarch64 CD built,
# pinned where a source gives the digest; 2.6's is not, and the plan, the
# Dockerfile and setup.sh say so (data/acl.lua releases).
for c in "2.4 v24.04 6d7aebfa9be74d29ecd2dbeb17f69e00c667c36292401f210121bf26a30b38a5" \
	"2.6 v24.09 -" \
	"2.8 v25.02 339376cd05b5efe83a3909333956d7663022f0dd8c7977a35e04b35551546be6" \
	"2.10 v52.8.0 1bceef23aa5b3cc7321cf80e0729e87482f12544b107cdabffb88a6a52aa4adc"; do
	set -- $c
	"$PTBUILD" plan --profile gh200 --torch "$1" --json >"$T_DIR/acl-$1.json" 2>/dev/null
	is "$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["acl"]; print(a["version"], a.get("sha256", "-"), a["url"])' "$T_DIR/acl-$1.json")" \
		"$2 $3 https://github.com/ARM-software/ComputeLibrary/archive/refs/tags/$2.tar.gz" \
		"plan --torch $1 on aarch64: ACL $2, sha256 $3"
done
run "$PTBUILD" plan --profile gh200 --torch 2.6
like "$out" "*Arm Compute Library v24.09 from source into /opt/acl, unpinned: ptbuild knows no sha256 of its source archive*" \
	"plan --torch 2.6: the ACL decision says the archive is unpinned"
"$PTBUILD" -q generate --plan "$T_DIR/acl-2.6.json" --out "$T_DIR/acl26" >/dev/null 2>&1
run env PATH="$PATH" TMPDIR="$T_DIR" sh "$T_DIR/acl26/setup.sh" --dry-run
like "$out" "*setup: ACL: building v24.09 into /opt/acl
*v24.09.tar.gz
+ unpinned: no sha256 to verify
*" "setup.sh for 2.6: ACL v24.09, no sha256 to verify"
grep -q 'UNPINNED: no source gives its sha256' "$T_DIR/acl26/Dockerfile"
t_ok $? "Dockerfile for 2.6: the ACL step's comment says UNPINNED"
#    setup.sh's own words (its --help) and generate's notes say it too;
#    before, --help said every download "is still checked against its
#    sha256" and step 4 read "from its pinned source archive".
run sh "$T_DIR/acl26/setup.sh" --help
like "$out" "*checked against its sha256 (but the ACL*archive, which is UNPINNED: no source gives its sha256*" \
	"setup.sh --help for 2.6: the ACL archive is named as unchecked"
grep -q 'from its pinned source archive' "$T_DIR/acl26/setup.sh"
t_ok "$([ $? -ne 0 ]; echo $?)" "... and its step 4 no longer says 'pinned'"
run "$PTBUILD" generate --plan "$T_DIR/acl-2.6.json" --out "$T_DIR/acl26b"
like "$err" "*note: the Arm Compute Library v24.09 is unpinned: ptbuild knows no sha256 of https://github.com/ARM-software/ComputeLibrary/archive/refs/tags/v24.09.tar.gz*" \
	"... generate notes it"
run "$PTBUILD" generate --plan "$T_DIR/acl-2.8.json" --out "$T_DIR/acl28"
case "$err$(sh "$T_DIR/acl28/setup.sh" --help)" in
*npinned* | *UNPINNED*) t_ok 1 "2.8 (pinned): neither generate nor setup.sh --help says unpinned" ;;
*) t_ok 0 "2.8 (pinned): neither generate nor setup.sh --help says unpinned" ;;
esac
if command -v curl >/dev/null 2>&1; then
	python3 - "$T_DIR/acl-2.6.json" "$a/plan26.json" "$a/acl26.tar.gz" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["acl"]["url"] = "file://" + sys.argv[3]
json.dump(p, open(sys.argv[2], "w"))
PY
	tar -czf "$a/acl26.tar.gz" -C "$a/src" ComputeLibrary-52.8.0
	"$PTBUILD" -q generate --plan "$a/plan26.json" --out "$a/out26" --format dockerfile >/dev/null 2>&1
	python3 - "$a/out26/Dockerfile" "$a" >"$a/acl26.sh" <<'PY'
import sys
text = open(sys.argv[1]).read().replace("\\\n", "")
run = [l[4:] for l in text.split("\n") if l.startswith("RUN ") and "no ACL setting" in l][0]
print(run.replace("'/opt/acl'", "'%s/root'" % sys.argv[2]).replace("/tmp/acl", sys.argv[2] + "/tmp/acl"))
PY
	rm -rf "$a/root" "$a/tmp"
	mkdir -p "$a/tmp"
	env PATH="$a/bin:/usr/bin:/bin" TARGETARCH=arm64 sh -eu -c "$(cat "$a/acl26.sh")" >"$a/log26" 2>&1
	is "$?" 0 "Dockerfile for 2.6: the unpinned ACL step runs"
	like "$(cat "$a/log26")" "*unpinned*not verified: its sha256 is $(sha256sum "$a/acl26.tar.gz" | cut -c1-64)*" \
		"... and prints the sha256 of the archive it got"
	t_ok "$([ -e "$a/root/build/libarm_compute.so" ]; echo $?)" "... and builds ACL into ACL_ROOT_DIR"
else
	skip "the unpinned ACL step" "curl is not installed"
fi

# 4. setup.sh --dry-run: ACL and sccache steps.  The machine may have an
# sccache of its own (the shared-cache test installs Debian's): the dry
# runs see a PATH of everything in /usr/bin and /bin but that.
nosc="$T_DIR/path-without-sccache"
mkdir -p "$nosc"
for f in /usr/bin/* /bin/*; do
	case ${f##*/} in sccache) ;; *) [ -e "$nosc/${f##*/}" ] || ln -s "$f" "$nosc/${f##*/}" ;; esac
done
"$PTBUILD" -q generate --profile gh200 --out "$T_DIR/sg" --sccache >/dev/null 2>&1
run env PATH="$nosc" TMPDIR="$T_DIR" sh "$T_DIR/sg/setup.sh" --dry-run
like "$out" "*
setup: ACL: building v52.8.0 into /opt/acl
*+ curl -fsSL --retry 3 -o $T_DIR/ptbuild-acl/acl.tar.gz https://github.com/ARM-software/ComputeLibrary/archive/refs/tags/v52.8.0.tar.gz
+ verify sha256 1bceef23aa5b3cc7321cf80e0729e87482f12544b107cdabffb88a6a52aa4adc
*+ scons -C $T_DIR/ptbuild-acl -j72 Werror=0 debug=0 neon=1 opencl=0 embed_kernels=0 os=linux arch=armv8a build=native multi_isa=1 fixed_format_kernels=1 openmp=1 cppthreads=0
*+ *cp -R $T_DIR/ptbuild-acl/build /opt/acl/
*" "gh200 setup.sh: builds ACL from its pinned archive with PyTorch's flags into ACL_ROOT_DIR"
like "$out" "setup: packages (apt): * scons*" "... with scons among the packages"
like "$out" "*
setup: sccache: installing 0.12.0 into /usr/local/bin
*sccache-v0.12.0-aarch64-unknown-linux-musl.tar.gz
+ verify sha256 111ddd28fb108cb3e17edb69ab62cefe1dcc97b02e5006ff9c1330f4f2e78368
*" "gh200 --sccache: installs the aarch64 sccache, pinned"
like "$out" "*OpenBLAS*ACL*sccache*done*" "steps in order: OpenBLAS, ACL, sccache"
# Behind a firewall: PTBUILD_MIRROR takes every download from
# MIRROR/HOST/PATH, as the Dockerfile's build argument of that name, and
# the CUDA fetch reads the same tree (fetch --mirror-hosts: t0606).
# (CUDA 12.9: a toolkit root this machine does not have, so it is fetched)
"$PTBUILD" -q generate --profile gh200 --cuda 12.9 --out "$T_DIR/sm" --sccache >/dev/null 2>&1
run env PATH="$nosc" TMPDIR="$T_DIR" PTBUILD_MIRROR=http://mirror.example/ptbuild/ PTBUILD=/x/ptbuild sh "$T_DIR/sm/setup.sh" --dry-run
like "$out" "*+ /x/ptbuild fetch --plan $T_DIR/sm/plan.json --prefix /usr/local/cuda-12.9 --mirror-hosts http://mirror.example/ptbuild/
*+ curl -fsSL --retry 3 -o $T_DIR/ptbuild-openblas/openblas.tar.gz http://mirror.example/ptbuild/github.com/OpenMathLib/OpenBLAS/releases/download/v0.3.34/OpenBLAS-0.3.34.tar.gz
*+ curl -fsSL --retry 3 -o $T_DIR/ptbuild-acl/acl.tar.gz http://mirror.example/ptbuild/github.com/ARM-software/ComputeLibrary/archive/refs/tags/v52.8.0.tar.gz
*+ curl -fsSL --retry 3 -o $T_DIR/ptbuild-sccache/sccache.tar.gz http://mirror.example/ptbuild/github.com/mozilla/sccache/releases/download/v0.12.0/*" \
	"PTBUILD_MIRROR: setup.sh takes CUDA, OpenBLAS, ACL and sccache from the mirror's HOST/PATH tree"
"$PTBUILD" -q generate --profile dgx-h100 --out "$T_DIR/dg" --sccache >/dev/null 2>&1
run env PATH="$nosc" TMPDIR="$T_DIR" sh "$T_DIR/dg/setup.sh" --dry-run
like "$out" "*sccache-v0.12.0-x86_64-unknown-linux-musl.tar.gz*" "dgx-h100 --sccache: the x86_64 sccache"
# An sccache on PATH: kept when it is the pinned release or newer,
# replaced when older (Debian 12's 0.4.0 has no remote cache backends).
for v in 0.4.0-pre.6 0.12.0 0.13.1; do
	mkdir -p "$T_DIR/sc-$v"
	printf '#!/bin/sh\necho "sccache %s"\n' "$v" >"$T_DIR/sc-$v/sccache"
	chmod +x "$T_DIR/sc-$v/sccache"
	run env PATH="$T_DIR/sc-$v:/usr/bin:/bin" TMPDIR="$T_DIR" sh "$T_DIR/dg/setup.sh" --dry-run
	case $v in
	0.4.0-pre.6) like "$out" "*setup: sccache: $T_DIR/sc-$v/sccache is 0.4.0, older than 0.12.0
setup: sccache: installing 0.12.0 into /usr/local/bin*" "an sccache $v on PATH: replaced by the pinned 0.12.0" ;;
	*) like "$out" "*setup: sccache: $T_DIR/sc-$v/sccache is $v, there
*" "an sccache $v on PATH: kept"
	   unlike "$out" "*installing 0.12.0*" "... nothing installed" ;;
	esac
done
unlike "$out" "*ACL:*" "dgx-h100: no ACL step on x86_64"
grep -q 'sccache-v0.12.0-x86_64.*' "$T_DIR/sg/Dockerfile" && grep -q 'sccache-v0.12.0-aarch64' "$T_DIR/sg/Dockerfile" &&
	grep -q -- '--mount=type=cache,target=/root/.cache/sccache' "$T_DIR/sg/Dockerfile"
t_ok $? "the --sccache Dockerfile installs sccache per TARGETARCH and mounts its cache"

# 5. The bake file, read by HashiCorp's HCL parser.
npm_root=$(npm root -g 2>/dev/null || true)
if [ -n "$npm_root" ] && [ -d "$npm_root/@cdktf/hcl2json" ] && command -v node >/dev/null 2>&1; then
	NODE_PATH="$npm_root" node -e '
const {parse} = require("@cdktf/hcl2json"); const fs = require("fs");
parse("docker-bake.hcl", fs.readFileSync(process.argv[1], "utf8")).then(j => {
  const c = j.target._common[0], d = fs.readFileSync(process.argv[2], "utf8");
  // hcl2json keeps template escapes as written: $${ and %%{ are ${ and %{
  const inline = c["dockerfile-inline"].replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{");
  if (inline !== d) throw "dockerfile-inline is not the Dockerfile";
  if ("context" in c || "dockerfile" in c) throw "a path bake would resolve against its working directory";
  for (const a of ["amd64", "arm64"]) {
    const t = j.target[a][0];
    if ("context" in t || "dockerfile" in t) throw a + ": a path";
    if (t.tags[0] !== "${IMAGE}:v2.14.1-" + a) throw a + ": tag " + t.tags[0];
    if (!t["cache-from"].includes("type=registry,ref=${CACHE_REF}-" + a)) throw a + ": cache-from";
    if (!t["cache-to"].includes("mode=max")) throw a + ": cache-to";
  }
  if (c.args.MAX_JOBS !== "${MAX_JOBS}") throw "MAX_JOBS";
  console.log("ok");
}).catch(e => { console.error(String(e)); process.exit(1); });' "$T_DIR/gh/docker-bake.hcl" "$T_DIR/gh/Dockerfile" >"$T_DIR/hcl" 2>&1
	t_ok $? "docker-bake.hcl: the Dockerfile inline, no context or dockerfile path; tags; cache import/export"
	grep -v '^ok$' "$T_DIR/hcl" | sed 's/^/# /'
else
	skip "docker-bake.hcl" "@cdktf/hcl2json not installed (npm install -g @cdktf/hcl2json)"
fi

# 6. The base image: the plan says when it is pinned by tag only.
run "$PTBUILD" generate --profile gh200 --out "$T_DIR/tag" --format dockerfile
like "$err" "*note: the base image ubuntu:24.04 is pinned by tag only*" "a tag-only base image is noted"
grep -q '^# The base image is pinned by tag only' "$T_DIR/tag/Dockerfile"
t_ok $? "... and said in the Dockerfile"
run "$PTBUILD" generate --profile gh200 --out "$T_DIR/dig" --format dockerfile \
	--base-digest sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
unlike "$err" "*tag only*" "no such note with --base-digest"

done_testing
