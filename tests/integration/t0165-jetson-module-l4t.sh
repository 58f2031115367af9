#!/bin/sh
# t0165-jetson-module-l4t.sh - a Jetson whose L4T names a JetPack its
# module has no release of (a Jetson Thor on L4T 36, JetPack 6; an Orin
# on L4T 38, JetPack 7.0) carries facts that cannot both be true.  Plan,
# doctor and a fleet plan name both in one error (jetson-facts-disagree)
# with how to read the real ones, and plan nothing on either guess: no
# upgrade package of the impossible JetPack, no JetPack to flash, no CUDA
# of that JetPack.  (Before, a Thor on L4T 36 asking for CUDA 13.0 was
# told that an unnamed upgrade package runs it, or to use CUDA 12.6.)
# Consistent facts raise nothing of the kind.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cd "$top_srcdir" || exit 1
mkdir -p "$T_DIR/empty"

# facts NAME PROFILE CC MODULE L4T DRIVER-CUDA: the profile as that
# module (GPU of capability CC) on that L4T, its driver of that CUDA
facts() {
	json_edit "recipes/profiles/$2.json" "$T_DIR/$1.json" "
f['gpus'] = [{'index': 0, 'name': '$4', 'compute_capability': '$3'}]
f['jetson'] = {'l4t': '$5', 'module': '$4'}
f['driver'] = {'version': '5${6%%.*}0.0', 'cuda_max': '$6'}
f['toolkits'] = []"
}
# every fix and message of a plan or doctor document, one a line
texts() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
xs = d.get("problems", []) + d.get("findings", [])
for b in d.get("builds", []): xs += b.get("problems", [])
for x in xs: print(x["code"] + ": " + x.get("message", "") + " | " + x.get("fix", ""))' "$1"
}

# what a plan document plans of CUDA and wheels: cuda.undecided, its
# downloads, docker_downloads, runfile, manifest, files_from_manifest,
# cudnn, and wheel.undecided and wheel.command
undecided() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); c = d["cuda"]; w = d["wheel"]
print(c.get("undecided", "-"), c["downloads"], c["docker_downloads"], c.get("runfile"), c.get("manifest"),
      c.get("files_from_manifest"), c.get("cudnn", "-"), w.get("undecided", "-"), w.get("command", "-"))' "$1"
}

# module x L4T x CUDA x PyTorch, and what is said: "mismatch" (the one
# error, nothing planned on the JetPack) or "none" (no such error); the
# source of the row's line-up, an id of recipes/data/sources.lua
# NAME|PROFILE|CC|MODULE|L4T|DRIVER-CUDA|CUDA|TORCH|SAID|SOURCE
while IFS='|' read -r name prof cc module l4t dc cuda torch said src; do
	[ -n "$name" ] || continue
	grep -q "\[\"$src\"\] = {\|^  $src = {" recipes/data/sources.lua
	t_ok $? "$name: its source [$src] resolves in recipes/data/sources.lua"
	facts "$name" "$prof" "$cc" "$module" "$l4t" "$dc"
	"$PTBUILD" plan --facts "$T_DIR/$name.json" --cuda "$cuda" --torch "$torch" --json >"$T_DIR/p.json" 2>"$T_DIR/err"
	rc=$?
	[ "$rc" -le 1 ]
	t_ok $? "$name: plan --cuda $cuda --torch $torch plans ($(head -c 200 "$T_DIR/err"))"
	"$PTBUILD" doctor --facts "$T_DIR/$name.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
	p=$(findings "$T_DIR/p.json" jetson-facts-disagree severity message fix)
	d=$(findings "$T_DIR/d.json" jetson-facts-disagree severity message fix)
	if [ "$said" = none ]; then
		is "$(printf '%s' "$p$d" | grep -c 'cannot both be true')" 0 "$name: L4T $l4t on $module raises no mismatch"
		continue
	fi
	like "$p" "error|the facts cannot both be true: the module is $module (*, GPU $cc), which has releases on * only, but L4T $l4t is JetPack *, which has none for it*; ptbuild cannot tell which fact is wrong*|compare the L4T release in 'head -n 1 /etc/nv_tegra_release' with the module in its compatible string*/proc/device-tree/compatible*run 'ptbuild detect' again" \
		"$name, plan --cuda $cuda --torch $torch: one error names the module and the L4T, and how to read both"
	is "$rc" 1 "$name: plan exits 1"
	is "$(undecided "$T_DIR/p.json")" "jetson-facts-disagree [] [] None None False - jetson-facts-disagree -" \
		"$name: plan.json plans no toolkit download, runfile, cuDNN or wheel on either guess"
	is "$d" "$p" "$name: doctor says the same"
	# nothing planned on the JetPack the L4T names, nor on the module's
	# guess of one: no upgrade package, no JetPack to flash, no CUDA kept
	is "$(texts "$T_DIR/p.json" | grep -v '^jetson-facts-disagree' | grep -ci "upgrade package\|flash JetPack\|newest this Jetson runs\|JetPack [0-9.]*'s own")" 0 \
		"$name: no other problem plans on a JetPack (upgrade package, flash, a JetPack's CUDA)"
	is "$(texts "$T_DIR/d.json" | grep -v '^jetson-facts-disagree' | grep -ci "upgrade package\|flash JetPack\|newest this Jetson runs")" 0 \
		"$name: nor does doctor"
done <<'TABLE'
thor36|jetson-thor|11.0|Jetson AGX Thor Developer Kit|36.4.3|12.6|13.0|2.14|mismatch|jetson-lineup
thor36d13|jetson-thor|11.0|Jetson AGX Thor Developer Kit|36.4.3|13.0|13.0|2.14|mismatch|jetson-lineup
thor35|jetson-thor|11.0|Jetson AGX Thor Developer Kit|35.6.0|11.4|13.0|2.10|mismatch|jetson-lineup
orin38|jetson-orin|8.7|Jetson AGX Orin 64GB|38.2.0|13.0|13.0|2.14|mismatch|jetson-lineup
orin384|jetson-orin|8.7|Jetson Orin NX|38.4.0|13.0|12.6|2.14|mismatch|jetson-lineup
orin32|jetson-orin|8.7|Jetson Orin Nano|32.7.4|10.2|12.6|2.14|mismatch|jetson-lineup
xavier36|jetson-orin|7.2|Jetson AGX Xavier|36.4.3|12.6|12.6|2.14|mismatch|jp517
nano35|jetson-orin|5.3|Jetson Nano|35.6.0|11.4|11.8|2.6|mismatch|jetson-lineup
thor38|jetson-thor|11.0|Jetson AGX Thor Developer Kit|38.2.0|13.0|13.0|2.14|none|thor-cuda13
thor39|jetson-thor|11.0|Jetson AGX Thor Developer Kit|39.2.0|13.2|13.2|2.14|none|jp72
thor389|jetson-thor|11.0|Jetson AGX Thor Developer Kit|38.9.0|13.0|13.0|2.14|none|thor-cuda13
orin36|jetson-orin|8.7|Jetson AGX Orin 64GB|36.4.3|12.6|12.6|2.14|none|jetson-lineup
orin35|jetson-orin|8.7|Jetson AGX Orin 64GB|35.6.0|11.4|11.8|2.6|none|jetson-lineup
orin39|jetson-orin|8.7|Jetson AGX Orin 64GB|39.2.0|13.2|13.2|2.14|none|jp72
xavier35|jetson-orin|7.2|Jetson AGX Xavier|35.6.5|11.4|11.8|2.6|none|jp517
nano32|jetson-orin|5.3|Jetson Nano|32.7.4|10.2|11.8|2.4|none|jetson-lineup
TABLE

# The case of the issue, word for word: a Thor on L4T 36 asking for
# CUDA 13.0 is no longer told that an unnamed upgrade package runs it
"$PTBUILD" plan --facts tests/fixtures/facts/thor-on-l4t36.json --cuda 13.0 --json >"$T_DIR/p.json" 2>/dev/null
is "$(texts "$T_DIR/p.json" | grep -c "upgrade package ptbuild names none of\|names none of")" 0 \
	"thor-on-l4t36, --cuda 13.0: no unnamed upgrade package is said to run it"
is "$(findings "$T_DIR/p.json")" " jetson-facts-disagree " \
	"... the one problem is the facts'"

# The case of the issue: no CUDA 13.2 SBSA download, runfile, cuDNN or
# JetPack 6.2 wheel; the rows say nothing is chosen until the facts
# agree, and point at the error.  What rests on neither guess stays: the
# arch list from the GPU's own capability, BLAS, the host compiler (not
# judged against an nvcc).  fetch --force has no CUDA to download.
"$PTBUILD" plan --facts tests/fixtures/facts/thor-on-l4t36.json --json >"$T_DIR/p.json" 2>/dev/null
"$PTBUILD" plan --facts tests/fixtures/facts/thor-on-l4t36.json >"$T_DIR/p.txt" 2>/dev/null
is "$(undecided "$T_DIR/p.json")" "jetson-facts-disagree [] [] None None False - jetson-facts-disagree -" \
	"thor-on-l4t36: plan.json's cuda and wheel are undecided, with nothing to download"
cwhy=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["cuda"]["why"])' "$T_DIR/p.json")
like "$cwhy" "none chosen until the facts agree (see the jetson-facts-disagree error): CUDA 13.2 in /usr/local/cuda-13.2 is only the candidate the module alone would take*nothing is downloaded or installed for it" \
	"... cuda.why says none is chosen and the version is a placeholder"
unlike "$cwhy" "*driver must be upgraded*" "... not the candidate's reason (was: the driver must be upgraded for it)"
is "$(python3 -c 'import json, sys
print(" ".join(x["topic"] for x in json.load(open(sys.argv[1]))["decisions"]))' "$T_DIR/p.json")" \
	"torch wheel cuda arch_list host_compiler blas max_jobs packages acl nccl" \
	"... no alternative, cudnn, downloads, orin_compat or cuda_compat decision"
is "$(findings "$T_DIR/p.json")" " jetson-facts-disagree " "... the one problem is the facts' (no multiple-toolkits naming a guessed root)"
like "$(cat "$T_DIR/p.txt")" "Plan for *
No wheel is judged until the facts agree: see the jetson-facts-disagree error
  which wheels fit rests on the facts in dispute:*L4T 36.4.3's JetPack 6.2 has no release for the Jetson Thor*
  cuda           none chosen until the facts agree (see the jetson-facts-disagree error)
                   which toolkit fits rests on the facts in dispute:*ptbuild plans no toolkit, download, cuDNN or upgrade package on either guess*
  arch_list      11.0+PTX
                   the GPUs of this machine*not judged against a CUDA: none is chosen until the facts agree
  host_compiler  /usr/bin/g++ (gcc 13.3.0)
                   not judged against an nvcc: no CUDA is chosen until the facts agree (see the jetson-facts-disagree error)
  blas           OpenBLAS*" "... the text says nothing is chosen, and keeps what rests on neither guess"
is "$(grep -c "linux-sbsa, download\|driver must be upgraded\|runfile\|cuDNN [0-9]\|JetPack 6.2 wheel\|Jetson AI Lab" "$T_DIR/p.txt")" 0 \
	"... no SBSA download, runfile, cuDNN or JetPack 6.2 wheel in its words"
"$PTBUILD" fetch --plan "$T_DIR/p.json" --force --dry-run --cache "$T_DIR/cache" >"$T_DIR/fetch" 2>&1
is "$(grep -c "cuda_\|libcu\|cudnn\|nvidia.com" "$T_DIR/fetch")" 0 "... fetch --force has no CUDA or cuDNN file to download"
"$PTBUILD" fetch --plan "$T_DIR/p.json" --dry-run --cache "$T_DIR/cache" >/dev/null 2>&1
is "$?" 1 "... and fetch refuses the plan without --force"
# The plan provides no cuDNN: USE_CUDNN is 0 in its environment and
# CMake values, and the text says why
is "$(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))
print(p["env"]["USE_CUDNN"], p["cmake"]["USE_CUDNN"])' "$T_DIR/p.json")" \
	"0 OFF" "... USE_CUDNN is 0 (CMake: OFF): the plan provides no cuDNN"
like "$(cat "$T_DIR/p.txt")" "*they are no choice; USE_CUDNN is 0, as the plan provides no cuDNN*
  USE_CUDNN=0*" "... and the text says so"
# generate writes nothing from it, even with --force: every file would
# name the placeholder toolkit root
run "$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/genu" --force
like "$rc:$err" "1:*the plan chooses no CUDA until its facts agree (cuda.undecided: jetson-facts-disagree): nothing written, even with --force*" \
	"... generate --force refuses it (exit 1), naming cuda.undecided"
[ ! -e "$T_DIR/genu" ]; t_ok $? "... and writes nothing"
# An installed torch's "A source build needs" claims no CUDA of the plan
python3 - tests/fixtures/facts/thor-on-l4t36.json "$T_DIR/thor-torch.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["torch"] = {"version": "2.9.0", "cuda": "13.0", "site": "/usr/lib/python3/dist-packages", "source": "torch/version.py",
              "libtorch_cuda": "/usr/lib/python3/dist-packages/torch/lib/libtorch_cuda.so",
              "archs": {"sass": ["sm_80", "sm_90"], "ptx": []}}
json.dump(f, open(sys.argv[2], "w"))
PY
"$PTBUILD" plan --facts "$T_DIR/thor-torch.json" --json >"$T_DIR/pt.json" 2>/dev/null
needs=$(python3 -c 'import json, sys; print(" | ".join(json.load(open(sys.argv[1]))["installed_torch"]["needs"]))' "$T_DIR/pt.json")
like "$needs" "*this plan: no CUDA until the facts agree (see the jetson-facts-disagree error), TORCH_CUDA_ARCH_LIST=11.0+PTX*" \
	"... an installed torch's needs: the plan chooses no CUDA"
like "$needs" "*a CUDA that builds it, 12.8 or newer (this plan chooses none until the facts agree)*" \
	"... and no CUDA of the plan's beside the one that builds the GPU"
unlike "$needs" "*13.2*" "... nor the candidate's 13.2 anywhere"

# A fleet's Jetson node with such facts hears the same, led by its name
cp recipes/profiles/jetson-thor.json "$T_DIR/thor-ok.json"
cp tests/fixtures/facts/thor-on-l4t36.json "$T_DIR/thor-bad.json"
"$PTBUILD" plan --facts "$T_DIR/thor-ok.json" --facts "$T_DIR/thor-bad.json" --cuda 13.0 --json >"$T_DIR/f.json" 2>/dev/null
like "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(x["severity"] + " " + x.get("node", "?") + ": " + x["message"] for b in d["builds"] for x in b["problems"] if x["code"] == "jetson-facts-disagree"))' "$T_DIR/f.json")" \
	"error thor-bad: *the facts cannot both be true: the module is Jetson AGX Thor Developer Kit*L4T 36.4.3 is JetPack 6.2*" \
	"a fleet plan: the node with the impossible facts gets the error, it alone"

# The module and the L4T disagree, and the driver disagrees with the
# L4T too (a Thor on L4T 36.4.3, JetPack 6.2, whose driver reports CUDA
# 13.0): plan, doctor and a fleet plan raise one jetson-facts-disagree
# each, naming all three facts, and its fix reads all three
F=tests/fixtures/facts/thor-on-l4t36-driver13.json
"$PTBUILD" plan --facts "$F" --json >"$T_DIR/p.json" 2>/dev/null
"$PTBUILD" doctor --facts "$F" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
cp "$F" "$T_DIR/thor-bad2.json"
"$PTBUILD" plan --facts "$T_DIR/thor-ok.json" --facts "$T_DIR/thor-bad2.json" --json >"$T_DIR/f.json" 2>/dev/null
for doc in p d f; do
	is "$(texts "$T_DIR/$doc.json" | grep -c '^jetson-facts-disagree')" 1 \
		"module, L4T and driver all disagree ($doc): one jetson-facts-disagree"
	like "$(texts "$T_DIR/$doc.json" | grep '^jetson-facts-disagree')" \
		"*the module is Jetson AGX Thor Developer Kit*but L4T 36.4.3 is JetPack 6.2, which has none for it; the driver (580.00) reports CUDA 13.0, which disagrees with that L4T as well: JetPack 6.2's driver is CUDA 12.6's (it runs CUDA 12.6, 12.8, 12.9); ptbuild cannot tell which fact is wrong*|*/etc/nv_tegra_release*/proc/device-tree/compatible*and the driver in 'cat /proc/driver/nvidia/version'*" \
		"... ($doc) it names the module, the L4T and the driver, and how to read all three"
done

done_testing
