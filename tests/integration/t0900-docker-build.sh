#!/bin/sh
# t0900-docker-build.sh - the generated Dockerfile built for real by
# Debian's dockerd 20.10 (its built-in BuildKit), air-gapped: a private
# dockerd (own data root, exec root and socket; no bridge, no iptables),
# the base image made with debootstrap and `docker import`, and every
# download from a mirror on 127.0.0.1 given as --build-arg PTBUILD_MIRROR
# (tests/docker/make-mirror.py: fixture CUDA redist trees from a manifest
# of the test's own, OpenBLAS and sccache tarballs, PyTorch as a git
# repository; Debian's packages as a flat apt repository), and pip's
# packages from a simple index on the same mirror, --build-arg
# PIP_INDEX_URL.
#
# The slow tier: about two minutes the first time (debootstrap and the
# .debs, cached outside the checkout in ${PTB_DOCKER_CACHE:-~/.cache/ptbuild-docker}),
# then about a minute.  Skips with the reason when it cannot run (not
# root, no dockerd or debootstrap, Debian's archive unreachable for the
# first run); PTB_DOCKER=0 turns it off, PTB_DOCKER_ARM64=0 its arm64 leg.
# PTB_DOCKER_SUITE=trixie builds the amd64 image on Debian 13 instead of
# 12 (the arm64 leg's root stays bookworm): there nvcc 12.4 refuses the
# base's gcc 14, and the image must build with the g++-13 it installs.
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
suite=${PTB_DOCKER_SUITE:-bookworm}
W=$T_DIR
# dockerd's state in a short temporary directory of its own: its sockets
# (containerd's under the exec root) must fit a unix socket path's 108
# bytes, which a build tree's T_DIR (make distcheck's) can exceed.
docker() { DOCKER_BUILDKIT=1 /usr/bin/docker -H "unix://$D/docker.sock" "$@"; }

# The plan, the mirror and the Dockerfile made for it.
"$PTBUILD" plan --facts "$top_srcdir/tests/fixtures/facts/bare-x86.json" --torch 2.6 --cuda 12.4 \
	--arch-list '8.0;9.0' --json >"$W/plan-in.json" 2>"$W/err" || { t_ok 1 "ptbuild plan"; cat "$W/err"; done_testing; exit 1; }
mkdir -p "$W/recipes" "$W/mirror"
cp -R "$PTBUILD_RECIPE_PATH"/. "$W/recipes/"
python3 "$top_srcdir/tests/docker/make-mirror.py" "$W/plan-in.json" "$W/plan.json" "$W/mirror" "$W/recipes" >"$W/err" 2>&1
t_ok $? "the mirror and a plan made for its manifest"
# The base image is Debian's own root: generate judges its compilers with
# the data of debian:<suite> (data/image.lua), which it is.
mkdir -p "$W/img/data"
cat >"$W/img/data/image.lua" <<EOF
local d = ptb.include_next("data/image")
for _, b in ipairs(d.bases) do
  if b.image == "debian:$suite" then
    local t = {}
    for k, v in pairs(b) do t[k] = v end
    t.image = "ptbuild-test/$suite:apt"
    d.bases[#d.bases + 1] = t
  end
end
return d
EOF
gen() { # OUTDIR PLAN
	"$PTBUILD" -q --recipes "$W/img" --recipes "$W/recipes" generate --plan "$2" --out "$1" --format dockerfile,bake --sccache \
		--base-image "ptbuild-test/$suite:apt" >/dev/null 2>"$W/gen.err" &&
		sed '1{/^# syntax=/d}' "$1/Dockerfile" >"$1/Dockerfile.test"
}
gen "$W/gen" "$W/plan.json"
t_ok $? "generate the Dockerfile and bake file for it"
pkgs=$(sed -n '/apt-get install/,/^$/p' "$W/gen/Dockerfile" | sed -n 's/^ *\([a-z0-9][a-z0-9.+-]*\) *\\\{0,1\}$/\1/p')

# Debian: the base root and the packages the Dockerfile installs.
debs=$(sh "$top_srcdir/tests/docker/make-base.sh" "$cache" $pkgs 2>"$W/base.err")
case $? in
0) ;;
77) skip_all "no Debian $suite base: $(tail -n 1 "$W/base.err")" ;;
*) t_ok 1 "make-base.sh"; sed 's/^/# /' "$W/base.err"; done_testing; exit 1 ;;
esac
ln -s "$debs" "$W/mirror/debian"

# A private dockerd, no container network at all.
D=$(mktemp -d /tmp/ptbd.XXXXXX) || skip_all "cannot make a temporary directory for dockerd"
dockerd --data-root "$D/data" --exec-root "$D/exec" --pidfile "$D/pid" \
	-H "unix://$D/docker.sock" --bridge=none --iptables=false --ip-forward=false \
	--ip-masq=false >"$D/log" 2>&1 &
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
	grep -o " $D/[^ ]*" /proc/mounts | sort -r | while read -r m; do umount "$m"; done
	case $D in /tmp/ptbd.?*) rm -rf "$D" ;; esac
}
finish() { stop; undo_binfmt; trap - EXIT; done_testing; exit; }
undo_binfmt() { :; }
trap 'stop' EXIT
i=0
while ! docker version >/dev/null 2>&1; do
	if ! kill -0 "$dpid" 2>/dev/null || [ $i -ge 60 ]; then
		reason=$(grep -m1 'level=fatal\|failed to start' "$D/log" | sed 's/.*msg="\([^"]*\)".*/\1/')
		skip_all "dockerd cannot start here: ${reason:-no answer on its socket in 30 s}"
	fi
	sleep 0.5
	i=$((i + 1))
done
while [ ! -s "$W/port" ]; do sleep 0.2; done
port=$(cat "$W/port")
M=http://127.0.0.1:$port

# The base image: debootstrap's root imported, apt pointed at the mirror,
# pip's default index at a closed loopback port (as on a builder with no
# way out: only PIP_INDEX_URL can lead pip to its packages, and nothing
# can reach PyPI).
docker import "$cache/$suite-minbase.tar" "ptbuild-test/$suite:raw" >/dev/null 2>"$W/err"
t_ok $? "docker import the debootstrap root"
docker run --network=none --name ptbuild-test-base "ptbuild-test/$suite:raw" \
	sh -c "echo 'deb [trusted=yes] $M/debian ./' >/etc/apt/sources.list &&
		printf '[global]\\nindex-url = http://127.0.0.1:9/closed\\ntimeout = 5\\nretries = 0\\n' >/etc/pip.conf" >"$W/err" 2>&1 &&
	docker commit ptbuild-test-base "ptbuild-test/$suite:apt" >/dev/null 2>>"$W/err" &&
	docker rm ptbuild-test-base >/dev/null 2>>"$W/err"
st=$?
t_ok $st "the base image's apt points at the mirror"
[ "$st" -eq 0 ] || { sed 's/^/# /' "$W/err" | tail -5; finish; }

build() { # LOG ARGS... : the build the test runs, with its arguments kept
	log=$1
	shift
	echo "$*" >>"$W/commands"
	docker build --network=host --progress=plain --build-arg "PTBUILD_MIRROR=$M" \
		--build-arg "PIP_INDEX_URL=$M/pypi/simple" "$@" >"$log" 2>&1
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
grep -q 'GET /pypi/simple/ptb-fixture-dep/ ' "$W/mirror.log" &&
	grep -q 'GET /pypi/packages/ptb_fixture_dep-1.0-py3-none-any.whl ' "$W/mirror.log"
t_ok $? "pip's requirement came from the PyPI mirror (PIP_INDEX_URL): its index page and wheel"

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
[ "$(python -c 'import ptb_fixture_dep; print(ptb_fixture_dep.FROM)')" = "the PyPI mirror" ] || { echo "ptb-fixture-dep is not installed in the venv"; bad=1; }
[ -z "${PIP_INDEX_URL:-}" ] || { echo "PIP_INDEX_URL=$PIP_INDEX_URL stayed in the image"; bad=1; }
dpkg-query -W -f='${Status}\n' build-essential git python3-venv curl | grep -vq 'install ok installed' && { echo "packages missing"; bad=1; }
[ "$USE_SYSTEM_NCCL" = 0 ] || { echo "USE_SYSTEM_NCCL=$USE_SYSTEM_NCCL"; bad=1; }
. /etc/os-release
[ "$VERSION_CODENAME" = "$PTB_SUITE" ] || { echo "the image is Debian $VERSION_CODENAME, not $PTB_SUITE"; bad=1; }
exit $bad
EOF
docker run --rm --network=none -e "PTB_SUITE=$suite" -v "$W/check.sh:/check.sh:ro" ptbuild-test/deps sh /check.sh >"$W/check.out" 2>&1
st=$?
t_ok $st "in the image (--network=none, Debian $suite): CUDA, cuDNN, OpenBLAS (plan's flags), sccache, venv and its requirement, source where the env says"
[ "$st" -eq 0 ] || sed 's/^/# /' "$W/check.out"

# The compiler nvcc gets in the image: the g++ data/image.lua records for
# the suite [debian-gcc] -- build-essential's 12.2.0 on bookworm; on
# trixie, whose gcc 14.2.0 nvcc 12.4 refuses, the g++-13 13.3.0 the
# Dockerfile installs and names in CUDAHOSTCXX -- and it passes the guard
# of a real CUDA 12.4 crt/host_config.h (Debian trixie's nvidia-cuda-dev,
# from the real-inputs cache when it holds it).
case $suite in
bookworm) want="g++ 12.2.0" ;;
trixie) want="/usr/bin/g++-13 13.3.0" ;;
*) want= ;;
esac
hc=${PTB_REAL_CACHE:-${HOME:-/nonexistent}/.cache/ptbuild-real}/root/usr/include/crt/host_config.h
mkdir -p "$W/hc/crt"
printf '#include <crt/host_config.h>\nint ok;\n' >"$W/hc/t.cpp"
[ -f "$hc" ] && cp "$hc" "$W/hc/crt/host_config.h"
docker run --rm --network=none -v "$W/hc:/hc:ro" ptbuild-test/deps sh -c '
	c=${CUDAHOSTCXX:-g++}
	echo "$c $("$c" -dumpfullversion)"
	if [ -f /hc/crt/host_config.h ]; then
		"$c" -E -x c++ -D__CUDACC__ -I/hc /hc/t.cpp -o /dev/null 2>/tmp/e && echo taken ||
			{ grep -m1 "error" /tmp/e; echo refused; }
	fi' >"$W/cc.out" 2>&1
if [ -n "$want" ]; then
	is "$(head -n 1 "$W/cc.out")" "$want" "in the image: nvcc's host compiler is $want, as the data for Debian $suite says"
else
	skip "the image's compiler" "no g++ recorded for PTB_DOCKER_SUITE=$suite"
fi
if [ -f "$hc" ]; then
	is "$(sed -n 2p "$W/cc.out")" taken "... and a real CUDA 12.4 host_config.h takes it"
else
	skip "a real CUDA 12.4 host_config.h takes the image's compiler" "no nvidia-cuda-dev in the real-inputs cache (run t0704 first)"
fi

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

# 6. arm64 under emulation: binfmt_misc mounted (if it is not) and
#    Debian's qemu-aarch64-static registered with the F flag (the kernel
#    opens the interpreter now, so it works inside the build's containers),
#    both undone at the end; the base is loaded as an arm64 image
#    (tests/docker/image-tar.py).  On by default (PTB_DOCKER_ARM64=0 turns
#    it off): 4 to 10 s here once the arm64 root is cached.  Bounded: the
#    generated Dockerfile's CUDA step and the first part of its ACL step
#    (download and sha256 check), on an arm64 debootstrap root; the
#    mirror's ACL archive is a stand-in, so the build must stop there,
#    naming it.  The apt and OpenBLAS steps are cut
#    from this copy (their arm64 packages and compilers under emulation
#    would cost minutes and prove nothing about TARGETARCH).
bfm=/proc/sys/fs/binfmt_misc
arm64_leg() {
	[ "${PTB_DOCKER_ARM64:-1}" = 0 ] && { echo "PTB_DOCKER_ARM64=0: the arm64 leg is off"; return 1; }
	if [ ! -e "$bfm/register" ]; then
		mount -t binfmt_misc binfmt_misc "$bfm" 2>"$W/bfm.err" ||
			{ echo "binfmt_misc cannot be mounted here: $(cat "$W/bfm.err")"; return 1; }
		echo "$bfm" >"$W/bfm.mounted"
	fi
	# Our own entry, named by this shell's pid: another run of this test
	# (another checkout) removes only its own.
	if ! grep -qs '^enabled' "$bfm/qemu-aarch64"; then
		sh "$top_srcdir/tests/realinputs/apt-get-debs.sh" bookworm "$cache/qemu" qemu-user-static 2>"$W/qemu.err" ||
			{ echo "no qemu-user-static: $(tail -n 1 "$W/qemu.err")"; return 1; }
		magic=$(sed -n 's/^:qemu-aarch64:M::\([^:]*\):\([^:]*\):.*/\1:\2/p' "$cache/qemu/root/usr/lib/binfmt.d/qemu-aarch64.conf")
		[ -n "$magic" ] || { echo "qemu-user-static has no binfmt.d/qemu-aarch64.conf"; return 1; }
		printf ':ptbuild-qemu-aarch64-%s:M::%s:%s:F' "$$" "$magic" "$cache/qemu/root/usr/bin/qemu-aarch64-static" \
			>"$bfm/register" 2>"$W/bfm.err" || { echo "cannot register qemu-aarch64: $(cat "$W/bfm.err")"; return 1; }
		echo "$bfm/ptbuild-qemu-aarch64-$$" >"$W/bfm.registered"
	fi
	if [ ! -f "$cache/bookworm-arm64.tar" ]; then
		rm -rf "$cache/arm64.tmp"
		debootstrap --arch=arm64 --variant=minbase --include=curl,ca-certificates,xz-utils \
			bookworm "$cache/arm64.tmp" "${PTB_DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$W/ds.log" 2>&1 ||
			{ rm -rf "$cache/arm64.tmp"; echo "debootstrap --arch=arm64 failed: $(tail -n 1 "$W/ds.log")"; return 1; }
		rm -rf "$cache/arm64.tmp/var/lib/apt/lists/"* "$cache/arm64.tmp/var/cache/apt/"*.bin
		tar -C "$cache/arm64.tmp" --numeric-owner -cf "$cache/arm64.tar.tmp" . &&
			mv "$cache/arm64.tar.tmp" "$cache/bookworm-arm64.tar" && rm -rf "$cache/arm64.tmp" ||
			{ echo "cannot pack the arm64 root"; return 1; }
	fi
	return 0
}
undo_binfmt() {
	[ -f "$W/bfm.registered" ] && echo -1 >"$(cat "$W/bfm.registered")" && rm -f "$W/bfm.registered"
	# unmounted unless another run still has its entry there
	[ -f "$W/bfm.mounted" ] && ! ls "$bfm"/ptbuild-qemu-aarch64-* >/dev/null 2>&1 &&
		umount "$(cat "$W/bfm.mounted")" && rm -f "$W/bfm.mounted"
	:
}
trap 'stop; undo_binfmt' EXIT
cp "$W/mirror.log" "$W/mirror.log.amd64"
t0=$(date +%s)
if why=$(arm64_leg); then
	# Loaded, not imported: dockerd 20.10's import records amd64 whatever
	# --platform says, and its BuildKit then asks a registry for arm64.
	python3 "$top_srcdir/tests/docker/image-tar.py" "$cache/bookworm-arm64.tar" arm64 ptbuild-test/bookworm-arm64:raw |
		docker load >/dev/null 2>"$W/err"
	t_ok $? "docker load the arm64 debootstrap root as an arm64 image"
	is "$(docker image inspect -f '{{.Os}}/{{.Architecture}}' ptbuild-test/bookworm-arm64:raw 2>&1)" linux/arm64 "... whose config says linux/arm64"
	is "$(docker run --rm --network=none --platform linux/arm64 ptbuild-test/bookworm-arm64:raw uname -m 2>&1)" aarch64 \
		"an arm64 container runs under qemu-aarch64"
	awk '/^# 1\. /{skip=1} /^# A mirror/{skip=0} /^# 3\. /{skip=1} /^# 4\. /{skip=0} /^# 5\. /{exit} !skip' \
		"$W/gen/Dockerfile.test" >"$W/gen/Dockerfile.arm64"
	acl=$W/mirror/github.com/ARM-software/ComputeLibrary/archive/refs/tags/v52.8.0.tar.gz
	mkdir -p "${acl%/*}" && printf 'a stand-in, not ACL\n' >"$acl"
	n0=$(wc -l <"$W/mirror.log")
	build "$W/arm64.log" --platform linux/arm64 --build-arg BASE_IMAGE=ptbuild-test/bookworm-arm64:raw \
		--target deps -f "$W/gen/Dockerfile.arm64" "$W/ctx"
	st=$?
	tail -n +"$((n0 + 1))" "$W/mirror.log" >"$W/mirror.arm64"
	t_ok "$([ "$st" -ne 0 ]; echo $?)" "arm64 under emulation: the build stops at the stand-in ACL archive"
	like "$(cat "$W/arm64.log")" "*ptbuild: 'v52.8.0.tar.gz' from $M/github.com/ARM-software/ComputeLibrary/*does not match its sha256*" \
		"... TARGETARCH=arm64 chose the ACL step's arm64 branch and fetched ACL from the mirror"
	is "$(grep -c 'GET /[^ ]*linux-sbsa[^ ]*archive.tar.xz' "$W/mirror.arm64")" 6 "... all six CUDA pieces were the SBSA ones"
	is "$(grep -c 'GET /[^ ]*linux-x86_64' "$W/mirror.arm64")" 0 "... and no x86_64 piece"
	echo "# arm64 leg (emulated CUDA step and ACL check): $(($(date +%s) - t0)) s"
else
	skip "arm64 leg: SBSA pieces and ACL by TARGETARCH under emulation" "$why"
fi
grep -q 'GET /[^ ]*ComputeLibrary' "$W/mirror.log.amd64"
t_ok "$([ $? -ne 0 ]; echo $?)" "amd64 never fetched ACL (TARGETARCH=amd64: acl=0)"

# 7. The bake file, driven by Debian's docker-buildx (from sid, fetched
#    into the cache with apt; bookworm has none, and trixie's 0.13.1 has
#    no `network` key in bake, so with it only --print is checked) as a
#    CLI plugin of Debian's client, docker driver: the private dockerd's
#    BuildKit.  Run from another directory with -f; its copy drops the
#    inline Dockerfile's `# syntax=` line as above.
bxsuite=sid
if ! sh "$top_srcdir/tests/realinputs/apt-get-debs.sh" sid "$cache/buildx-sid" docker-buildx 2>"$W/bx.err"; then
	bxsuite=trixie
	sh "$top_srcdir/tests/realinputs/apt-get-debs.sh" trixie "$cache/buildx" docker-buildx 2>>"$W/bx.err" || bxsuite=
fi
if [ -n "$bxsuite" ]; then
	bxroot=$cache/buildx
	[ "$bxsuite" = sid ] && bxroot=$cache/buildx-sid
	mkdir -p "$W/dcfg/cli-plugins" "$W/elsewhere" "$W/bakefile"
	ln -s "$bxroot/root/usr/libexec/docker/cli-plugins/docker-buildx" "$W/dcfg/cli-plugins/"
	sed 's|^\(  dockerfile-inline = "\)# syntax=[^\\]*\\n|\1|' "$W/gen/docker-bake.hcl" >"$W/bakefile/docker-bake.hcl"
	bx() { (cd "$W/elsewhere" && DOCKER_CONFIG=$W/dcfg docker buildx "$@"); }
	bx version >"$W/bx.version" 2>&1
	t_ok $? "docker buildx: $(head -n 1 "$W/bx.version")"
	bx bake -f "$W/bakefile/docker-bake.hcl" --print >"$W/bake.print" 2>"$W/bake.err"
	t_ok $? "bake --print -f from another directory"
	IMAGE=ptbuild-test/wheel WHEELS=$W/bakewheels bx bake -f "$W/bakefile/docker-bake.hcl" \
		--set "*.args.PTBUILD_MIRROR=$M" --print amd64 >"$W/bake.set" 2>>"$W/bake.err"
	cat >"$W/bake.py" <<'PY'
import json, sys
d, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
errs = []
if d["group"]["default"]["targets"] != ["amd64", "arm64"]: errs.append("default group %s" % d["group"]["default"])
for arch in ("amd64", "arm64"):
    t = d["target"][arch]
    if t.get("target") != "wheel": errs.append("%s stage %s" % (arch, t.get("target")))
    if t.get("platforms") != ["linux/" + arch]: errs.append("%s platforms %s" % (arch, t.get("platforms")))
    if t.get("tags") != ["ptbuild/pytorch-wheel:v2.6.0-" + arch]: errs.append("%s tags %s" % (arch, t.get("tags")))
    if t["args"].get("PTBUILD_MIRROR") != "": errs.append("%s mirror default %r" % (arch, t["args"].get("PTBUILD_MIRROR")))
    for k in ("PIP_INDEX_URL", "PIP_TRUSTED_HOST"):
        if t["args"].get(k) != "": errs.append("%s %s default %r" % (arch, k, t["args"].get(k)))
    if t["args"].get("BASE_IMAGE") != "ptbuild-test/%s:apt" % sys.argv[5]: errs.append("%s base" % arch)
a = s["target"]["amd64"]
if a["args"].get("PTBUILD_MIRROR") != sys.argv[3]: errs.append("--set mirror %r" % a["args"].get("PTBUILD_MIRROR"))
if a.get("tags") != ["ptbuild-test/wheel:v2.6.0-amd64"]: errs.append("IMAGE tags %s" % a.get("tags"))
out = a.get("output", [])
if not any(sys.argv[4] + "/amd64" in str(o) for o in out): errs.append("WHEELS output %s" % out)
print("\n".join(errs) or "ok")
sys.exit(1 if errs else 0)
PY
	python3 "$W/bake.py" "$W/bake.print" "$W/bake.set" "$M" "$W/bakewheels" "$suite" >"$W/bake.check" 2>&1
	t_ok $? "... its targets, stage, platforms, tags and args; --set and IMAGE/WHEELS override them"
	grep -v '^ok$' "$W/bake.check" | sed 's/^/# /'
	# The real build of the amd64 target: the bake file as users have it,
	# but for what this dockerd needs from the command line (host
	# networking, as the plain builds: without a bridge only the host's
	# loopback reaches the mirror) and the mirror.  It asks for the same
	# stage (wheel) with the same arguments as the plain build in 3., so
	# every step must be a cache hit of the plain build's layers, and the
	# wheel the same, in WHEELS's default: wheels/amd64 under the
	# directory bake runs in.  (A WHEELS outside it needs --allow
	# fs.write=PARENT with this buildx.)
	if [ "$bxsuite" = sid ]; then
		t0=$(date +%s)
		# This buildx reads `--set *.network=host` as an empty network
		# (bake --print shows "network": ""); a second file sets it.
		printf 'target "amd64" {\n  network = "host"\n}\n' >"$W/bakefile/host-network.hcl"
		bx bake -f "$W/bakefile/docker-bake.hcl" -f "$W/bakefile/host-network.hcl" --progress=plain \
			--set "*.args.PTBUILD_MIRROR=$M" --set "*.args.PIP_INDEX_URL=$M/pypi/simple" \
			--allow network.host amd64 >"$W/bake.log" 2>&1
		st=$?
		t_ok $st "docker buildx bake amd64: a real build through the private dockerd"
		[ "$st" -eq 0 ] || grep -v '^#[0-9]* sha256:' "$W/bake.log" | tail -20 | sed 's/^/# /'
		echo "# bake build: $(($(date +%s) - t0)) s"
		python3 "$W/steps.py" "$W/bake.log" none >"$W/order" 2>&1
		t_ok $? "... every step a cache hit of the plain build's layers: $(tail -n 1 "$W/order")"
		cmp "$W/elsewhere/wheels/amd64/torch-2.6.0-py3-none-any.whl" "$whl" >"$W/cmp" 2>&1
		t_ok $? "... and the same wheel, byte for byte, in WHEELS/amd64"
		sed 's/^/# /' "$W/cmp"
	else
		skip "docker buildx bake amd64 (a real build)" "only trixie's buildx 0.13.1, whose bake cannot set network=host: $(tail -n 1 "$W/bx.err")"
	fi
else
	skip "docker buildx bake" "no docker-buildx from Debian sid or trixie: $(tail -n 1 "$W/bx.err")"
fi

echo "# docker build test: $(($(date +%s) - started)) s"
finish
