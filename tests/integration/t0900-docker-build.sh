#!/bin/sh
# t0900-docker-build.sh - the generated Dockerfile built for real by
# Debian's dockerd 20.10 (its built-in BuildKit), air-gapped: a private
# dockerd (own data root, exec root and socket; no bridge, no iptables),
# the base image made with debootstrap and `docker import`, and every
# download from a mirror on 127.0.0.1 given as --build-arg PTBUILD_MIRROR
# (tests/docker/make-mirror.py: fixture CUDA redist trees from a manifest
# of the test's own, OpenBLAS and sccache tarballs, PyTorch as a git
# repository; Debian's packages as a flat apt repository).
#
# The slow tier: about two minutes the first time (debootstrap and the
# .debs, cached outside the checkout in ${PTB_DOCKER_CACHE:-~/.cache/ptbuild-docker}),
# then about a minute.  Skips with the reason when it cannot run (not
# root, no dockerd or debootstrap, Debian's archive unreachable for the
# first run); PTB_DOCKER=0 turns it off.
#
# The one change to the generated Dockerfile: its `# syntax=` line is
# dropped from the test's copy, since BuildKit cannot fetch that frontend
# image without a registry (the built-in frontend reads the rest).
. "$top_srcdir/tests/lib.sh"

[ "${PTB_DOCKER:-1}" = 0 ] && skip_all "PTB_DOCKER=0: the Docker build tier is off"
[ "$(id -u)" -eq 0 ] || skip_all "dockerd and debootstrap need root"
for tool in dockerd /usr/bin/docker debootstrap git python3 xz; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "no $tool (apt-get install docker.io debootstrap)"
done
started=$(date +%s)
cache=${PTB_DOCKER_CACHE:-${HOME:-/nonexistent}/.cache/ptbuild-docker}
W=$T_DIR
docker() { DOCKER_BUILDKIT=1 /usr/bin/docker -H "unix://$W/d/docker.sock" "$@"; }

# The plan, the mirror and the Dockerfile made for it.
"$PTBUILD" plan --facts "$top_srcdir/tests/fixtures/facts/bare-x86.json" --torch 2.6 --cuda 12.4 \
	--arch-list '8.0;9.0' --json >"$W/plan-in.json" 2>"$W/err" || { t_ok 1 "ptbuild plan"; cat "$W/err"; done_testing; exit 1; }
mkdir -p "$W/recipes" "$W/mirror"
cp -R "$PTBUILD_RECIPE_PATH"/. "$W/recipes/"
python3 "$top_srcdir/tests/docker/make-mirror.py" "$W/plan-in.json" "$W/plan.json" "$W/mirror" "$W/recipes" >"$W/err" 2>&1
t_ok $? "the mirror and a plan made for its manifest"
gen() { # OUTDIR PLAN
	"$PTBUILD" -q --recipes "$W/recipes" generate --plan "$2" --out "$1" --format dockerfile,bake --sccache \
		--base-image ptbuild-test/bookworm:apt >/dev/null 2>"$W/gen.err" &&
		sed '1{/^# syntax=/d}' "$1/Dockerfile" >"$1/Dockerfile.test"
}
gen "$W/gen" "$W/plan.json"
t_ok $? "generate the Dockerfile and bake file for it"
pkgs=$(sed -n '/apt-get install/,/^$/p' "$W/gen/Dockerfile" | sed -n 's/^ *\([a-z0-9][a-z0-9.+-]*\) *\\\{0,1\}$/\1/p')

# Debian: the base root and the packages the Dockerfile installs.
debs=$(sh "$top_srcdir/tests/docker/make-base.sh" "$cache" $pkgs 2>"$W/base.err")
case $? in
0) ;;
77) skip_all "no Debian bookworm base: $(tail -n 1 "$W/base.err")" ;;
*) t_ok 1 "make-base.sh"; sed 's/^/# /' "$W/base.err"; done_testing; exit 1 ;;
esac
ln -s "$debs" "$W/mirror/debian"

# A private dockerd, no container network at all.
mkdir -p "$W/d"
dockerd --data-root "$W/d/data" --exec-root "$W/d/exec" --pidfile "$W/d/pid" \
	-H "unix://$W/d/docker.sock" --bridge=none --iptables=false --ip-forward=false \
	--ip-masq=false >"$W/d/log" 2>&1 &
dpid=$!
python3 "$top_srcdir/tests/docker/mirror.py" "$W/mirror" "$W/port" 2>"$W/mirror.log" &
mpid=$!
stop() {
	kill "$mpid" 2>/dev/null
	if kill "$dpid" 2>/dev/null; then
		i=0
		while kill -0 "$dpid" 2>/dev/null && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
	fi
	# dockerd leaves its data root mounted on itself
	grep -o " $W/d/[^ ]*" /proc/mounts | sort -r | while read -r m; do umount "$m"; done
	rm -rf "$W/d"
}
finish() { stop; trap - EXIT; done_testing; exit; }
trap 'stop' EXIT
i=0
while ! docker version >/dev/null 2>&1; do
	if ! kill -0 "$dpid" 2>/dev/null || [ $i -ge 60 ]; then
		reason=$(grep -m1 'level=fatal\|failed to start' "$W/d/log" | sed 's/.*msg="\([^"]*\)".*/\1/')
		skip_all "dockerd cannot start here: ${reason:-no answer on its socket in 30 s}"
	fi
	sleep 0.5
	i=$((i + 1))
done
while [ ! -s "$W/port" ]; do sleep 0.2; done
port=$(cat "$W/port")
M=http://127.0.0.1:$port

# The base image: debootstrap's root imported, apt pointed at the mirror.
docker import "$cache/bookworm-minbase.tar" ptbuild-test/bookworm:raw >/dev/null 2>"$W/err"
t_ok $? "docker import the debootstrap root"
docker run --network=none --name ptbuild-test-base ptbuild-test/bookworm:raw \
	sh -c "echo 'deb [trusted=yes] $M/debian ./' >/etc/apt/sources.list" >"$W/err" 2>&1 &&
	docker commit ptbuild-test-base ptbuild-test/bookworm:apt >/dev/null 2>>"$W/err" &&
	docker rm ptbuild-test-base >/dev/null 2>>"$W/err"
st=$?
t_ok $st "the base image's apt points at the mirror"
[ "$st" -eq 0 ] || { sed 's/^/# /' "$W/err" | tail -5; finish; }

build() { # LOG ARGS... : the build the test runs, with its arguments kept
	log=$1
	shift
	echo "$*" >>"$W/commands"
	docker build --network=host --progress=plain --build-arg "PTBUILD_MIRROR=$M" "$@" >"$log" 2>&1
}
mkdir -p "$W/ctx"
cp "$W/gen/.dockerignore" "$W/ctx/"

# 1. Every stage up to the compile, for real.
t0=$(date +%s)
build "$W/deps.log" --target deps -t ptbuild-test/deps -f "$W/gen/Dockerfile.test" "$W/ctx"
st=$?
t_ok $st "docker build --target deps: packages, CUDA, OpenBLAS, sccache, venv, PyTorch's source"
[ "$st" -eq 0 ] || { grep -v '^#[0-9]* sha256:' "$W/deps.log" | tail -25 | sed 's/^/# /'; finish; }
echo "# deps build: $(($(date +%s) - t0)) s"
grep -q 'GET /github.com/pytorch/fixture-sub.git/info/refs' "$W/mirror.log"
t_ok $? "the submodule (GitHub URL in .gitmodules) came from the mirror"
for f in cuda_nvcc-linux-x86_64 cudnn-linux-x86_64 OpenBLAS-0.3.28 sccache-v0.12.0-x86_64; do
	grep -q "GET /[^ ]*$f" "$W/mirror.log"
	t_ok $? "$f came from the mirror"
done
grep -q 'GET /[^ ]*linux-sbsa' "$W/mirror.log"
t_ok "$([ $? -ne 0 ]; echo $?)" "amd64 fetched no SBSA piece"

# Inside the image, without a network: every path the env names exists.
docker image inspect -f '{{range .Config.Env}}{{println .}}{{end}}' ptbuild-test/deps >"$W/env" 2>&1
cat >"$W/check.sh" <<'EOF'
set -u
bad=0
for v in CUDA_HOME CUDA_PATH CUDACXX OpenBLAS_HOME VIRTUAL_ENV; do
	eval "x=\${$v:-}"
	[ -n "$x" ] && [ -e "$x" ] || { echo "env $v='$x' does not exist"; bad=1; }
done
for var in PATH LD_LIBRARY_PATH; do
	eval "list=\$$var"
	IFS=:
	for d in $list; do [ -d "$d" ] || { echo "$var entry $d does not exist"; bad=1; }; done
	unset IFS
done
[ "$(command -v nvcc)" = "$CUDA_HOME/bin/nvcc" ] || { echo "nvcc on PATH: $(command -v nvcc)"; bad=1; }
nvcc --version | grep -q 'release 12.4, V12.4.131' || { echo "nvcc --version: $(nvcc --version)"; bad=1; }
nvcc --version | grep -q 'platform linux-x86_64' || { echo "not the x86_64 nvcc"; bad=1; }
for f in include/cudnn_version.h lib/libcudnn.so.9 lib/libcudart.so.12 lib/libcublas.so.12 include/crt/host_config.h; do
	[ -e "$CUDA_HOME/$f" ] || { echo "missing $CUDA_HOME/$f"; bad=1; }
done
[ -e "$CUDA_HOME/lib64/libcudnn.so.9" ] || { echo "lib64 does not lead to the libraries"; bad=1; }
grep -qx 'TARGET=SKYLAKEX' "$OpenBLAS_HOME/build-flags" && grep -qx 'USE_OPENMP=1' "$OpenBLAS_HOME/build-flags" &&
	grep -qx 'NUM_THREADS=64' "$OpenBLAS_HOME/build-flags" || { echo "OpenBLAS flags: $(cat "$OpenBLAS_HOME/build-flags")"; bad=1; }
od -An -c -N4 "$OpenBLAS_HOME/lib/libopenblas.so" | grep -q 'E   L   F' || { echo "libopenblas.so is not ELF"; bad=1; }
[ "$(sccache)" = "sccache 0.12.0" ] || { echo "sccache: $(sccache)"; bad=1; }
[ "$(command -v python)" = "$VIRTUAL_ENV/bin/python" ] || { echo "python is not the venv's"; bad=1; }
[ -f /src/pytorch/third_party/fixture-sub/SUBMODULE ] || { echo "the submodule is not checked out"; bad=1; }
[ "$(git -C /src/pytorch describe --tags)" = v2.6.0 ] || { echo "PyTorch is not at v2.6.0"; bad=1; }
dpkg-query -W -f='${Status}\n' build-essential git python3-venv curl | grep -vq 'install ok installed' && { echo "packages missing"; bad=1; }
[ "$USE_SYSTEM_NCCL" = 0 ] || { echo "USE_SYSTEM_NCCL=$USE_SYSTEM_NCCL"; bad=1; }
exit $bad
EOF
docker run --rm --network=none -v "$W/check.sh:/check.sh:ro" ptbuild-test/deps sh /check.sh >"$W/check.out" 2>&1
st=$?
t_ok $st "in the image (--network=none): CUDA, cuDNN, OpenBLAS (plan's flags), sccache, venv, source where the env says"
[ "$st" -eq 0 ] || sed 's/^/# /' "$W/check.out"

# 2. The compile step (the fixture's PEP 517 backend stands in for
#    PyTorch's): a wheel out of the `wheel` stage, MAX_JOBS from the
#    builder's CPUs and memory.
build "$W/wheel.log" --target wheel --output "type=local,dest=$W/wheels" -f "$W/gen/Dockerfile.test" "$W/ctx"
st=$?
t_ok $st "docker build --target wheel --output type=local"
[ "$st" -eq 0 ] || grep -v '^#[0-9]* sha256:' "$W/wheel.log" | tail -20 | sed 's/^/# /'
info() { python3 -c 'import json,sys,zipfile; print(json.loads(zipfile.ZipFile(sys.argv[1]).read("torch/build-info.json"))[sys.argv[2]])' "$1" "$2"; }
whl=$W/wheels/torch-2.6.0-py3-none-any.whl
is "$(info "$whl" TORCH_CUDA_ARCH_LIST 2>&1)" "8.0;9.0" "the wheel was built with the plan's arch list"
mj=$(info "$whl" MAX_JOBS 2>&1)
cpus=$(nproc)
memjobs=$(awk '$1 == "MemAvailable:" { print int($2 / (4 * 1024 * 1024)) }' /proc/meminfo)
want=$cpus
[ "$memjobs" -lt "$cpus" ] && want="$memjobs"
[ "$want" -ge 1 ] || want=1
like "$mj" "[1-9]*" "MAX_JOBS computed in the build: $mj"
if [ "$memjobs" -ge $((cpus + 1)) ]; then
	is "$mj" "$cpus" "... one per CPU here (memory allows more)"
else
	t_ok "$([ "$mj" -le "$cpus" ]; echo $?)" "... no more than the CPUs ($cpus)"
fi
like "$(info "$whl" nvcc 2>&1)" "*release 12.4*" "the compile step ran the image's nvcc through CUDACXX"

# 3. Nothing changed: every step a cache hit.
build "$W/again.log" --target wheel --output "type=local,dest=$W/wheels2" -f "$W/gen/Dockerfile.test" "$W/ctx"
cat >"$W/steps.py" <<'PY'
import re, sys
# BuildKit's plain progress: "#N [stage i/n] RUN ..." then "#N CACHED"
# for a step it did not run.
log = open(sys.argv[1]).read()
steps = {m.group(1): m.group(2) for m in re.finditer(r"^#(\d+) \[[^\]]*\] (RUN .*)$", log, re.M)}
cached = set(re.findall(r"^#(\d+) CACHED", log, re.M))
ran = [s for n, s in steps.items() if n not in cached]
if sys.argv[2] == "none":
    assert len(steps) >= 7 and not ran, ran
    print("all %d RUN steps cached" % len(steps))
else:
    assert len(ran) == 1 and "pip wheel" in ran[0], ran
    print("%d RUN steps cached, the compile ran" % (len(steps) - 1))
PY
python3 "$W/steps.py" "$W/again.log" none >"$W/order" 2>&1
t_ok $? "a second build with nothing changed: $(tail -n 1 "$W/order")"

# 4. Another arch list: only the steps after TORCH_CUDA_ARCH_LIST run.
python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p["torch_cuda_arch_list"]="9.0"; p["env"]["TORCH_CUDA_ARCH_LIST"]="9.0"; json.dump(p,open(sys.argv[2],"w"))' \
	"$W/plan.json" "$W/plan-90.json"
gen "$W/gen90" "$W/plan-90.json"
build "$W/arch.log" --target wheel --output "type=local,dest=$W/wheels90" -f "$W/gen90/Dockerfile.test" "$W/ctx"
t_ok $? "a build for another arch list"
python3 "$W/steps.py" "$W/arch.log" compile >"$W/order" 2>&1
st=$?
t_ok $st "... reuses every layer but the compile: $(tail -n 1 "$W/order")"
is "$(info "$W/wheels90/torch-2.6.0-py3-none-any.whl" TORCH_CUDA_ARCH_LIST 2>&1)" "9.0" "... whose wheel has the new list"

# 5. A wrong file on the mirror: the build stops at that step, naming it.
mkdir -p "$W/mirror/bad"
(cd "$W/mirror" && for d in developer.download.nvidia.com github.com; do ln -s "../$d" "bad/$d"; done)
rm "$W/mirror/bad/github.com"
mkdir -p "$W/mirror/bad/github.com"
for d in "$W"/mirror/github.com/*; do ln -s "$d" "$W/mirror/bad/github.com/"; done
rm "$W/mirror/bad/github.com/OpenMathLib"
mkdir -p "$W/mirror/bad/github.com/OpenMathLib/OpenBLAS/releases/download/v0.3.28"
printf 'not OpenBLAS\n' >"$W/mirror/bad/github.com/OpenMathLib/OpenBLAS/releases/download/v0.3.28/OpenBLAS-0.3.28.tar.gz"
docker build --network=host --progress=plain --build-arg "PTBUILD_MIRROR=$M/bad" --target deps \
	-f "$W/gen/Dockerfile.test" "$W/ctx" >"$W/bad.log" 2>&1
st=$?
t_ok "$([ "$st" -ne 0 ]; echo $?)" "a wrong sha256 on the mirror fails the build"
like "$(cat "$W/bad.log")" "*ptbuild: 'OpenBLAS-0.3.28.tar.gz' from $M/bad/github.com/OpenMathLib/OpenBLAS/*does not match its sha256*" \
	"... at the OpenBLAS step, naming the file"
grep -q 'make -C /tmp/openblas' "$W/bad.log" && ! grep -q 'cc -shared' "$W/bad.log"
t_ok $? "... before anything of it is built"

# 6. arm64 under emulation, where binfmt has qemu-aarch64.
if [ -r /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64; then
	skip "arm64 leg" "binfmt has qemu-aarch64, but the test has no arm64 base root (debootstrap --foreign is not wired in)"
else
	skip "arm64 leg: SBSA pieces by TARGETARCH under emulation" "binfmt_misc has no qemu-aarch64 here (not mounted or qemu-user-static not registered)"
fi

# 7. The bake file: buildx where it is (not in Debian bookworm), else its
#    targets checked against the builds this test ran.
if docker buildx version >/dev/null 2>&1; then
	skip "docker buildx bake" "buildx is there, but driving bake is not wired in"
else
	npm_root=$(npm root -g 2>/dev/null || true)
	if [ -n "$npm_root" ] && [ -d "$npm_root/@cdktf/hcl2json" ]; then
		NODE_PATH="$npm_root" node -e '
const {parse} = require("@cdktf/hcl2json"); const fs = require("fs");
parse("docker-bake.hcl", fs.readFileSync(process.argv[1], "utf8")).then(j => {
  const c = j.target._common[0], a = j.target.amd64[0];
  const df = fs.readFileSync(process.argv[2], "utf8");
  const cmds = fs.readFileSync(process.argv[3], "utf8");
  const errs = [];
  // hcl2json keeps the template escapes $${ and %%{ as written
  if (c["dockerfile-inline"].replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{") !== df) errs.push("dockerfile-inline differs from ./Dockerfile");
  if (!cmds.includes("--target " + c.target)) errs.push("target " + c.target + " was not built");
  if (a.platforms[0] !== "linux/amd64") errs.push("platform " + a.platforms[0]);
  const declared = new Set([...df.matchAll(/^ARG (\w+)/gm)].map(m => m[1]));
  for (const k of Object.keys(c.args)) if (!declared.has(k)) errs.push("arg " + k + " not declared");
  if (!("PTBUILD_MIRROR" in c.args)) errs.push("no PTBUILD_MIRROR");
  if (c.args.BASE_IMAGE !== "ptbuild-test/bookworm:apt") errs.push("base " + c.args.BASE_IMAGE);
  if (errs.length) { console.error(errs.join("\n")); process.exit(1); }
}).catch(e => { console.error(String(e)); process.exit(1); });' \
			"$W/gen/docker-bake.hcl" "$W/gen/Dockerfile" "$W/commands" >"$W/bake.out" 2>&1
		st=$?
		t_ok $st "the bake file's amd64 target: the Dockerfile built here, its stage, platform and arguments"
		[ "$st" -eq 0 ] || sed 's/^/# /' "$W/bake.out"
	else
		skip "the bake file against the builds" "no buildx and no @cdktf/hcl2json"
	fi
fi

echo "# docker build test: $(($(date +%s) - started)) s"
finish
