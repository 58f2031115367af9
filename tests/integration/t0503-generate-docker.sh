#!/bin/sh
# t0503-generate-docker.sh - the Dockerfile, bake file, workflow, presets
# and setup.sh read by real parsers and run: dockerfile-utils (npm) lints
# the Dockerfile, HashiCorp's HCL parser (@cdktf/hcl2json, npm) reads the
# bake file, PyYAML the workflow, Python's json and CMake itself the
# presets; setup.sh --dry-run lists the right manager, packages and steps.
. "$top_srcdir/tests/lib.sh"

plans="$top_srcdir/tests/fixtures/plans-in"
npm_root=$(npm root -g 2>/dev/null || true)

for c in gh200 rtx4090 ci-multiarch; do
	d="$T_DIR/$c"
	"$PTBUILD" -q generate --plan "$plans/$c.json" --out "$d" \
		--base-digest sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef >/dev/null 2>&1
	t_ok $? "$c: generate"

	dockerfile_lint "$d/Dockerfile" "$c"
	# What the issue asks of the Dockerfile, checked on the text.
	grep -q '^ARG BASE_IMAGE=ubuntu:22.04@sha256:0123456789abcdef' "$d/Dockerfile"
	t_ok $? "$c: base image pinned by tag and digest"
	! grep -qi 'latest' "$d/Dockerfile"
	t_ok $? "$c: no 'latest' anywhere"
	grep -q "^ENV TORCH_CUDA_ARCH_LIST=\"$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["torch_cuda_arch_list"])' "$plans/$c.json")\"\$" "$d/Dockerfile"
	t_ok $? "$c: explicit TORCH_CUDA_ARCH_LIST"
	grep -q '^ARG SOURCE_DATE_EPOCH=[0-9]' "$d/Dockerfile" && grep -q '^ENV SOURCE_DATE_EPOCH=' "$d/Dockerfile"
	t_ok $? "$c: SOURCE_DATE_EPOCH"
	python3 - "$d/Dockerfile" "$plans/$c.json" "$top_srcdir/recipes/data/acl.lua" >"$T_DIR/pins" 2>&1 <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
plan = json.load(open(sys.argv[2]))
# Every URL the image downloads comes with its sha256 from the plan (or,
# for a plan saved without an ACL source, from ptbuild's pinned ACL).
pins = {d["url"]: d["sha256"] for d in plan["cuda"].get("downloads", []) + plan["cuda"].get("docker_downloads", [])}
ob = plan.get("openblas", {})
if ob.get("url"):
    pins[ob["url"]] = ob["sha256"]
acl = plan.get("acl") or {}
if not acl.get("url"):
    data = open(sys.argv[3]).read()
    acl = {"url": re.search(r'url = "([^"]+)"', data).group(1), "sha256": re.search(r'sha256 = "([0-9a-f]{64})"', data).group(1)}
pins[acl["url"]] = acl["sha256"]
urls = re.findall(r"'(https://[^']+)'", text)
assert urls or not pins, "no downloads"
for u in urls:
    assert u in pins, "unpinned download " + u
    assert pins[u] in text, "sha256 of %s missing" % u
# Order: packages, CUDA, OpenBLAS, PyTorch source, env, build.
steps = [text.index(s) for s in ("apt-get install", "sha256sum -c", "# 3. OpenBLAS", "# 4. The Arm Compute Library", "python3 -m venv", "ARG PYTORCH_REF", "ENV TORCH_CUDA_ARCH_LIST", "pip wheel")]
assert steps == sorted(steps), steps
print("ok")
PY
	t_ok $? "$c: every download pinned by the plan's sha256; steps in order"
	grep -v '^ok$' "$T_DIR/pins" | sed 's/^/# /'

	python3 -c 'import json,sys; json.load(open(sys.argv[1])); json.load(open(sys.argv[2]))' \
		"$d/CMakePresets.json" "$d/plan.json" >"$T_DIR/json" 2>&1
	t_ok $? "$c: CMakePresets.json and plan.json parse as JSON"
	if python3 -c 'import yaml' 2>/dev/null; then
		python3 - "$d/.github/workflows/ptbuild.yml" >"$T_DIR/yaml" 2>&1 <<'PY'
import sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
inc = w["jobs"]["build"]["strategy"]["matrix"]["include"]
assert [m["arch"] for m in inc] == ["x86_64", "arm64"], inc
assert [m["platform"] for m in inc] == ["linux/amd64", "linux/arm64"], inc
runs = " ".join(s.get("run", "") for s in w["jobs"]["build"]["steps"])
for word in ("ptbuild detect", "ptbuild plan", "ptbuild validate", "docker buildx build"):
    assert word in runs, word
assert runs.index("ptbuild validate") < runs.index("docker buildx build")
print("ok")
PY
		t_ok $? "$c: the workflow parses as YAML: x86_64 and arm64; detect, plan, validate, then build"
		grep -v '^ok$' "$T_DIR/yaml" | sed 's/^/# /'
	else
		skip "$c: workflow YAML" "python3-yaml is not installed"
	fi
	if [ -n "$npm_root" ] && [ -d "$npm_root/@cdktf/hcl2json" ]; then
		NODE_PATH="$npm_root" node -e '
const {parse} = require("@cdktf/hcl2json"); const fs = require("fs");
parse("docker-bake.hcl", fs.readFileSync(process.argv[1], "utf8")).then(j => {
  const t = j.target;
  if (JSON.stringify(j.group.default[0].targets) !== "[\"amd64\",\"arm64\"]") throw "group";
  if (t.amd64[0].platforms[0] !== "linux/amd64" || t.arm64[0].platforms[0] !== "linux/arm64") throw "platforms";
  console.log("ok");
}).catch(e => { console.error(String(e)); process.exit(1); });' "$d/docker-bake.hcl" >"$T_DIR/hcl" 2>&1
		t_ok $? "$c: docker-bake.hcl parses with HashiCorp's HCL parser: a target per platform"
		grep -v '^ok$' "$T_DIR/hcl" | sed 's/^/# /'
	else
		skip "$c: docker-bake.hcl" "@cdktf/hcl2json not installed (npm install -g @cdktf/hcl2json)"
	fi
	if command -v cmake >/dev/null 2>&1; then
		mkdir -p "$T_DIR/presets-$c"
		cp "$d/CMakePresets.json" "$T_DIR/presets-$c/"
		(cd "$T_DIR/presets-$c" && cmake --list-presets) >"$T_DIR/presets" 2>&1
		grep -q '"ptbuild"' "$T_DIR/presets"
		st=$?
		t_ok $st "$c: cmake --list-presets reads the preset"
		[ "$st" -eq 0 ] || sed 's/^/# /' "$T_DIR/presets" | head -5
	else
		skip "$c: cmake --list-presets" "cmake is not installed"
	fi
done

# setup.sh --dry-run: the plan's manager, packages and steps; changes nothing.
d="$T_DIR/gh200"
run env PTBUILD="$PTBUILD" sh "$d/setup.sh" --dry-run
is "$rc" 0 "gh200 setup.sh --dry-run exits 0"
# (scons: the ACL step's, added to the plan's own)
pkgs="build-essential cmake git ninja-build patchelf python3-dev python3-venv scons"
like "$out" "setup: packages (apt): $pkgs
*" "gh200: apt and the plan's packages"
like "$out" "*
setup: CUDA: fetching into /opt/ptbuild/cuda-13.0
+ $PTBUILD fetch --plan $d/plan.json --prefix /opt/ptbuild/cuda-13.0
*" "gh200: fetches CUDA with the saved plan, through \$PTBUILD"
# No ptbuild on PATH and no $PTBUILD: the step says how to get one.
mkdir -p "$T_DIR/nopath"
for t in sh dirname id printf sed grep dpkg-query; do
	p=$(command -v "$t") && ln -sf "$p" "$T_DIR/nopath/$t"
done
run env -u PTBUILD PATH="$T_DIR/nopath" sh "$d/setup.sh" --dry-run
like "$err" "*CUDA: fetching needs ptbuild, which is not on PATH: 'make install' it, or run PTBUILD=/path/to/ptbuild *" \
	"without ptbuild on PATH, setup.sh says to install it or set PTBUILD"
like "$out" "*
+ make -C */ptbuild-openblas -j72 TARGET=ARMV8 DYNAMIC_ARCH=1 USE_OPENMP=1 NUM_THREADS=256 NO_SHARED=0 CFLAGS=-O3
+ *make -C */ptbuild-openblas PREFIX=/opt/ptbuild/openblas install
*" "gh200: builds OpenBLAS with the plan's TARGET, then installs"
like "$out" "*packages*CUDA*OpenBLAS*ptbuild.env*" "gh200: steps in order: packages, CUDA, OpenBLAS, then the env"
case "$out" in *"apt-get install"*) apt_line=$(printf '%s\n' "$out" | grep 'apt-get install') ;; *) apt_line= ;; esac
for p in $(printf '%s\n' "$apt_line" | sed 's/.*--no-install-recommends//'); do
	case " $pkgs " in
	*" $p "*) ;;
	*) t_ok 1 "gh200: apt installs only the plan's packages ($p)" ;;
	esac
done
t_ok "$([ ! -e "${TMPDIR:-/tmp}/ptbuild-openblas" ] || [ -n "$(ls -A "${TMPDIR:-/tmp}/ptbuild-openblas" 2>/dev/null)" ]; echo $?)" "--dry-run creates nothing"

d="$T_DIR/rtx4090"
run env PATH=/usr/bin:/bin sh "$d/setup.sh" --dry-run
like "$out" "setup: packages (dnf): gcc-c++ git ninja-build python3-devel python3-pip openblas-devel numactl-devel
*" "rtx4090: dnf and the plan's packages"
like "$out" "*+ *dnf install -y *" "rtx4090: installs missing packages with dnf"
unlike "$out" "*apt-get*" "rtx4090: no apt"
unlike "$out" "*OpenBLAS:*" "rtx4090: no OpenBLAS build"
like "$err" "*CUDA: the plan uses /usr/local/cuda-12.6, but*nvcc is missing*" "rtx4090: checks the installed CUDA"

# Twice in a row: the same output (nothing was done).
run env PTBUILD="$PTBUILD" sh "$T_DIR/gh200/setup.sh" --dry-run
first=$out
run env PTBUILD="$PTBUILD" sh "$T_DIR/gh200/setup.sh" --dry-run
is "$out" "$first" "--dry-run twice: the same"
run sh "$T_DIR/gh200/setup.sh" --bogus
is "$rc" 2 "setup.sh: unknown option exits 2"

# With the pieces in place, setup.sh does nothing (safe to run twice).
fake="$T_DIR/fake"
mkdir -p "$fake/cuda/bin" "$fake/ob/lib"
printf '#!/bin/sh\n' >"$fake/cuda/bin/nvcc"
chmod +x "$fake/cuda/bin/nvcc"
: >"$fake/ob/lib/libopenblas.so"
python3 - "$plans/gh200.json" "$T_DIR/done.json" "$fake" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["cuda"]["root"] = sys.argv[3] + "/cuda"
p["openblas"]["prefix"] = sys.argv[3] + "/ob"
p["packages"]["names"] = ["coreutils"]
# no ACL: its step adds Debian's scons, which this machine may lack
# (t0507 runs that step)
p.pop("acl", None)
for k in ("USE_MKLDNN_ACL", "ACL_ROOT_DIR"):
    p["env"].pop(k, None)
json.dump(p, open(sys.argv[2], "w"))
PY
"$PTBUILD" -q generate --plan "$T_DIR/done.json" --out "$T_DIR/done" --format setup >/dev/null 2>&1
run sh "$T_DIR/done/setup.sh"
is "$rc" 0 "setup.sh on a prepared machine exits 0"
unlike "$out" "*+ *" "... and runs nothing"
like "$out" "*packages: all installed*CUDA: $fake/cuda is there*OpenBLAS: $fake/ob is there*" "... saying each step is done"

# The Dockerfile's CUDA step, run for real: its RUN script fetches file://
# archives made here, checks their sha256 and unpacks them per TARGETARCH.
# Only the destination is moved from /usr/local/cuda to a scratch root.
if command -v curl >/dev/null 2>&1 && command -v xz >/dev/null 2>&1; then
	w="$T_DIR/run"
	for plat in linux-x86_64 linux-sbsa; do
		a="cuda_nvcc-$plat-1.0-archive"
		mkdir -p "$w/src/$a/bin" "$w/src/$a/lib"
		printf '#!/bin/sh\necho %s\n' "$plat" >"$w/src/$a/bin/nvcc"
		: >"$w/src/$a/lib/libcudart.so"
		tar -cJf "$w/$a.tar.xz" -C "$w/src" "$a"
	done
	python3 - "$plans/ci-multiarch.json" "$w/plan.json" "$w" <<'PY'
import hashlib, json, sys
p = json.load(open(sys.argv[1]))
w = sys.argv[3]
def dl(plat):
    f = "%s/cuda_nvcc-%s-1.0-archive.tar.xz" % (w, plat)
    return {"name": "cuda_nvcc", "platform": plat, "url": "file://" + f,
            "sha256": hashlib.sha256(open(f, "rb").read()).hexdigest(), "size": 1}
p["cuda"]["downloads"] = [dl("linux-x86_64"), dl("linux-sbsa")]
json.dump(p, open(sys.argv[2], "w"))
PY
	"$PTBUILD" -q generate --plan "$w/plan.json" --out "$w/out" --format dockerfile >/dev/null 2>&1
	# The RUN instruction that fetches CUDA, continuation lines joined.
	python3 - "$w/out/Dockerfile" "$w/root" >"$w/cuda.sh" <<'PY'
import sys
# Dockerfile line continuation: backslash-newline joins the lines.
text = open(sys.argv[1]).read().replace("\\\n", "")
runs = [l[4:] for l in text.split("\n") if l.startswith("RUN ") and "sha256sum -c" in l and "$TARGETARCH" in l]
body = runs[0]
print(body.replace("'/usr/local/cuda'", "'%s'" % sys.argv[2]))
PY
	for ta in amd64 arm64; do
		rm -rf "$w/root"
		TARGETARCH=$ta sh -eu -c "$(cat "$w/cuda.sh")" >"$w/log" 2>&1
		st=$?
		t_ok $st "Dockerfile CUDA step runs for TARGETARCH=$ta (sha256 checked, unpacked)"
		[ "$st" -eq 0 ] || sed 's/^/# /' "$w/log" | tail -5
		want=$([ $ta = amd64 ] && echo linux-x86_64 || echo linux-sbsa)
		is "$(sh "$w/root/bin/nvcc" 2>&1)" "$want" "TARGETARCH=$ta gets the $want pieces"
		t_ok "$([ -e "$w/root/lib64/libcudart.so" ]; echo $?)" "TARGETARCH=$ta: lib64 leads to the libraries"
	done
	rm -rf "$w/root"
	TARGETARCH=s390x sh -eu -c "$(cat "$w/cuda.sh")" >"$w/log" 2>&1
	st=$?
	t_ok "$([ "$st" -ne 0 ]; echo $?)" "an unknown TARGETARCH stops the step"
	like "$(cat "$w/log")" "*no CUDA pieces for TARGETARCH=s390x*" "... saying why"
	# A tampered archive is refused by its sha256.
	printf 'x' >>"$w/cuda_nvcc-linux-x86_64-1.0-archive.tar.xz"
	rm -rf "$w/root"
	TARGETARCH=amd64 sh -eu -c "$(cat "$w/cuda.sh")" >"$w/log" 2>&1
	st=$?
	t_ok "$([ "$st" -ne 0 ] && [ ! -e "$w/root/bin/nvcc" ]; echo $?)" "a download whose sha256 differs stops the build before unpacking"
	like "$(cat "$w/log")" "*ptbuild: 'cuda_nvcc-linux-x86_64-1.0-archive.tar.xz' from file://*/cuda_nvcc-linux-x86_64-1.0-archive.tar.xz does not match its sha256 *(got *): a wrong or altered file*" \
		"... naming the file, where it came from and both digests"
	# PTBUILD_MIRROR: https://HOST/PATH comes from MIRROR/HOST/PATH, with
	# the same sha256; the origin (an .invalid host) is never asked.
	python3 - "$w" <<'PY2'
import hashlib, json, os, shutil, sys
w = sys.argv[1]
p = json.load(open(w + "/plan.json"))
for d in p["cuda"]["downloads"]:
    f = d["url"][len("file://"):]
    d["url"] = "https://origin.invalid/redist/" + os.path.basename(f)
    os.makedirs(w + "/mirror/origin.invalid/redist", exist_ok=True)
    shutil.copy(f, w + "/mirror/origin.invalid/redist/")
    d["sha256"] = hashlib.sha256(open(f, "rb").read()).hexdigest()
json.dump(p, open(w + "/plan-https.json", "w"))
PY2
	"$PTBUILD" -q generate --plan "$w/plan-https.json" --out "$w/out-https" --format dockerfile >/dev/null 2>&1
	python3 - "$w/out-https/Dockerfile" "$w/root" >"$w/cuda-https.sh" <<'PY2'
import sys
text = open(sys.argv[1]).read().replace("\\\n", "")
body = [l[4:] for l in text.split("\n") if l.startswith("RUN ") and "sha256sum -c" in l and "$TARGETARCH" in l][0]
print(body.replace("'/usr/local/cuda'", "'%s'" % sys.argv[2]))
PY2
	rm -rf "$w/root"
	PTBUILD_MIRROR="file://$w/mirror/" TARGETARCH=arm64 sh -eu -c "$(cat "$w/cuda-https.sh")" >"$w/log" 2>&1
	st=$?
	t_ok $st "PTBUILD_MIRROR: the CUDA pieces come from the mirror, checked by sha256"
	[ "$st" -eq 0 ] || sed 's/^/# /' "$w/log" | tail -5
	rm -rf "$w/root"
	PTBUILD_MIRROR= TARGETARCH=arm64 sh -eu -c "$(cat "$w/cuda-https.sh")" >"$w/log" 2>&1
	st=$?
	t_ok "$([ "$st" -ne 0 ] && [ ! -e "$w/root/bin/nvcc" ]; echo $?)" "PTBUILD_MIRROR empty: the origin is asked (and here cannot answer)"
	like "$(cat "$w/log")" "*origin.invalid*" "... the origin's URL in the error"
else
	skip "Dockerfile CUDA step" "curl or xz is not installed"
fi

# A Jetson plan: the container files cannot serve it, and generate says so.
run "$PTBUILD" generate --profile jetson-orin --out "$T_DIR/jetson"
is "$rc" 0 "generate --profile jetson-orin"
like "$err" "*note: the plan is for a Jetson (CUDA 12.6.68 from JetPack): the Dockerfile and bake file build x86_64 and SBSA wheels, which do not run on it*" \
	"... notes that the Dockerfile's arm64 wheel is SBSA, not Jetson"
run "$PTBUILD" generate --profile gh200 --out "$T_DIR/gh200"
unlike "$err" "*for a Jetson*" "no Jetson note for an SBSA plan"

# A CUDA whose manifest ptbuild carries no copy of (13.5.0: fetch reads
# NVIDIA's) gives the image no pinned pieces: the note says why and names
# the newest CUDA it can pin (13.4, whose 13.4.2 manifest data/redist.lua
# holds for both platforms); a carried one gets no such note.
run "$PTBUILD" generate --profile gh200 --cuda 13.5 --format dockerfile --out "$T_DIR/gh200-135"
is "$rc" 0 "gh200 with CUDA 13.5: generate exits 0"
like "$err" "*note: the plan has no CUDA downloads for linux-sbsa: the Dockerfile stops for TARGETARCH=arm64; ptbuild carries no copy of CUDA 13.5.0's manifest (https://developer.download.nvidia.com/compute/cuda/redist/redistrib_13.5.0.json), so it has no sha256 to pin the files by; choose a CUDA whose manifest it carries (--cuda 13.4)*" \
	"... the note says why the image has no CUDA and which CUDA it can pin"
run "$PTBUILD" generate --profile gh200 --cuda 13.4 --format dockerfile --out "$T_DIR/gh200-134"
unlike "$err" "*has no CUDA downloads*" "gh200 with CUDA 13.4: its pieces are pinned, no such note"

done_testing
