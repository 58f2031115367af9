#!/bin/sh
# t0800-fleet.sh - `ptbuild plan` for a fleet: GH200 + DGX H100 + Altra
# A100 + an L4 workstation + a Jetson Orin, checked decision by decision
# (one build per platform, the CUDA every node's driver runs, the arch
# list of every node's GPUs, which node forced what); a node no CUDA
# serves is named with its fix and left out, not averaged in; bad,
# duplicate and stale facts files; every fleet problem code raised.
. "$top_srcdir/tests/lib.sh"
P="$top_srcdir/recipes/profiles"
F="$top_srcdir/tests/fixtures/facts"
D="$T_DIR/fleet"
mkdir "$D"
for n in gh200 dgx-h100 altra-a100 jetson-orin; do
	cp "$P/$n.json" "$D/"
done
cp "$F/l4-workstation.json" "$D/"

# q FILE EXPR: a Python expression over the document d; B(p) the build
# of platform p, T(p) its target, N(name) a node, codes(p) the codes and
# nodes of build p's problems.
q() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def T(p): return [t for t in d["targets"] if t["platform"] == p][0]
def B(p): return d["builds"][d["targets"].index(T(p))]
def N(n): return [x for x in d["nodes"] if x["name"] == n][0]
def X(p, what): return [e["node"] for e in T(p)["explain"] if e["decision"] == what][0]
def codes(probs): return sorted("%s@%s" % (x["code"], x.get("node")) for x in probs)
def dec(p, topic): return [x["choice"] for x in B(p)["decisions"] if x["topic"] == topic][0]
r = eval(sys.argv[2])
print(r if isinstance(r, str) else json.dumps(r))
PY
}

run "$PTBUILD" plan --facts "$D" --json
is "$rc" 0 "a fleet of five: exit 0 (warnings only)"
printf '%s\n' "$out" >"$T_DIR/fleet.json"
J="$T_DIR/fleet.json"
is "$(q "$J" 'd["schema"]')" "ptbuild.fleet/1" "the fleet document's schema"
is "$(q "$J" '[t["platform"] for t in d["targets"]]')" '["x86_64", "sbsa", "jetson"]' "one build per platform present"
is "$(q "$J" '[b["schema"] for b in d["builds"]]')" '["ptbuild.plan/1", "ptbuild.plan/1", "ptbuild.plan/1"]' "each build is a plan"

# x86_64: DGX H100 (driver 550, CUDA 12.4 at most) + L4 (driver 535, 12.2)
is "$(q "$J" 'T("x86_64")["nodes"]')" '["dgx-h100", "l4-workstation"]' "x86_64: serves the DGX and the L4"
is "$(q "$J" 'B("x86_64")["torch_cuda_arch_list"]')" "8.9;9.0+PTX" "x86_64: the arch list covers the L4 (8.9) and the H100 (9.0)"
is "$(q "$J" 'B("x86_64")["cuda"]["version"] + " " + B("x86_64")["cuda"]["platform"]')" "12.6 linux-x86_64" \
	"x86_64: CUDA 12.6, the newest both drivers run (by minor-version compatibility)"
is "$(q "$J" 'T("x86_64")["build_machine"]')" "dgx-h100" "x86_64: built on the DGX (224 cores against 20)"
like "$(q "$J" 'dec("x86_64", "host_compiler")')" "*gcc 11.4.0*" "x86_64: the DGX's gcc 11"
is "$(q "$J" 'X("x86_64", "lowest_driver")')" "l4-workstation" "x86_64 --explain: the L4 has the lowest driver"
is "$(q "$J" 'X("x86_64", "oldest_gpu")')" "l4-workstation" "x86_64 --explain: the L4 has the oldest GPU"
is "$(q "$J" 'X("x86_64", "newest_gpu")')" "dgx-h100" "x86_64 --explain: the DGX has the newest GPU"
like "$(q "$J" '[e["why"] for e in T("x86_64")["explain"] if e["decision"] == "cuda"][0]')" \
	"CUDA 12.6, not 13.0: driver * cannot run CUDA 13.0*" "x86_64 --explain: why not CUDA 13.0"

# SBSA: GH200 (driver 580, CUDA 13.0) + Altra A100 (driver 535, 12.2)
is "$(q "$J" 'T("sbsa")["nodes"]')" '["altra-a100", "gh200"]' "sbsa: serves the GH200 and the Altra"
is "$(q "$J" 'B("sbsa")["torch_cuda_arch_list"]')" "8.0;9.0+PTX" "sbsa: the arch list covers the A100 and the GH200"
is "$(q "$J" 'B("sbsa")["cuda"]["version"] + " " + B("sbsa")["cuda"]["platform"]')" "12.6 linux-sbsa" "sbsa: CUDA 12.6"
is "$(q "$J" 'X("sbsa", "cuda")')" "altra-a100" "sbsa --explain: the Altra's driver forced CUDA 12.6"
is "$(q "$J" 'X("sbsa", "oldest_gpu") + " " + X("sbsa", "newest_gpu")')" "altra-a100 gh200" "sbsa --explain: oldest and newest GPU"
is "$(q "$J" 'N("gh200")["cuda_runs"] + " " + N("altra-a100")["cuda_runs"]')" "direct compat" \
	"per node: the GH200 runs CUDA 12.6 directly, the Altra by minor-version compatibility"
# Not an average: the GH200 alone gets CUDA 13.0, the fleet is held to 12.6
run "$PTBUILD" plan --facts "$D/gh200.json" --json
printf '%s\n' "$out" >"$T_DIR/gh200.json"
is "$(q "$T_DIR/gh200.json" 'd["cuda"]["version"]')" "13.0" "the GH200 alone would get CUDA 13.0"
cp "$D/gh200.json" "$T_DIR/gh200-b.json"
run "$PTBUILD" plan --facts "$D/gh200.json" --facts "$T_DIR/gh200-b.json" --json
printf '%s\n' "$out" >"$T_DIR/two.json"
is "$(q "$T_DIR/two.json" 'B("sbsa")["cuda"]["version"]')" "13.0" "... and so does a fleet of two GH200s"

# Jetson: the Orin alone, its JetPack CUDA
is "$(q "$J" 'B("jetson")["cuda"]["source"] + " " + B("jetson")["cuda"]["platform"] + " " + B("jetson")["torch_cuda_arch_list"]')" \
	"installed linux-aarch64 8.7+PTX" "jetson: JetPack's CUDA 12.6 for the Orin's 8.7"

# problems carry their node
is "$(q "$J" 'codes(B("x86_64")["problems"])')" \
	'["driver-minor-compat@dgx-h100", "driver-minor-compat@l4-workstation", "multiple-toolkits@dgx-h100"]' \
	"x86_64 problems: each driver's own warning, the DGX's second toolkit"
is "$(q "$J" 'codes(B("sbsa")["problems"])')" \
	'["driver-minor-compat@altra-a100", "multiple-toolkits@altra-a100"]' "sbsa problems: only the Altra's"
is "$(q "$J" 'codes(d["problems"])')" '[]' "no fleet-level problem"
is "$(q "$J" '[n["build"] for n in d["nodes"]]')" '["sbsa", "x86_64", "sbsa", "jetson", "x86_64"]' "every node is served by its platform's build"

# each build is an ordinary plan: plan --diff loads it as a saved plan
for p in x86_64 sbsa jetson; do
	q "$J" "B('$p')" >"$T_DIR/$p.plan.json"
	run "$PTBUILD" plan --facts "$D/gh200.json" --diff "$T_DIR/$p.plan.json"
	is "$rc" 0 "the $p build loads as a saved plan (plan --diff)"
done
# a one-node build is that node's own plan, but for where it came from
run "$PTBUILD" plan --facts "$D/jetson-orin.json" --json
printf '%s\n' "$out" >"$T_DIR/orin.json"
is "$(q "$J" 'json.dumps({k: v for k, v in B("jetson").items() if k not in ("facts_source", "decisions", "problems")} | {"cuda": {k: v for k, v in B("jetson")["cuda"].items() if k != "why"}}, sort_keys=True)')" \
	"$(q "$T_DIR/orin.json" 'json.dumps({k: v for k, v in d.items() if k not in ("facts_source", "decisions", "problems")} | {"cuda": {k: v for k, v in d["cuda"].items() if k != "why"}}, sort_keys=True)')" \
	"the Orin's build equals its own plan (environment, CMake, CUDA, arch list)"

# files in any order, or the directory: the same document
run "$PTBUILD" plan --json --facts "$D/l4-workstation.json" --facts "$D/jetson-orin.json" --facts "$D/gh200.json" \
	--facts "$D/dgx-h100.json" --facts "$D/altra-a100.json"
is "$out" "$(cat "$J")" "five --facts in another order give the same document as the directory"

# the summary and --explain
run "$PTBUILD" plan --facts "$D" --explain
is "$rc" 0 "--explain: exit 0"
like "$out" "*Build sbsa* on altra-a100 for altra-a100 gh200*" "--explain names each build's machine and nodes"
like "$out" "*lowest_driver  l4-workstation: driver 535.183.01 (CUDA 12.2 at most) is the oldest of the 2 nodes*" \
	"--explain: the node with the lowest driver"
like "$out" "*oldest_gpu     altra-a100: NVIDIA A100-PCIE-40GB (8.0)*" "--explain: the node with the oldest GPU"
like "$out" "*l4-workstation       x86_64   served by the x86_64 build (driver runs its CUDA: compat)*" "each node and its build"
like "$out" "*warning \[driver-minor-compat\] (l4-workstation) node 'l4-workstation': driver 535.183.01*fix: install driver*on l4-workstation*" \
	"a problem names its node and the fix for it"

# --build-node: the GH200 builds for the SBSA nodes; its glibc is newer
run "$PTBUILD" plan --facts "$D" --build-node gh200 --json
printf '%s\n' "$out" >"$T_DIR/bn.json"
is "$(q "$T_DIR/bn.json" 'T("sbsa")["build_machine"] + " " + X("sbsa", "build_machine")')" "gh200 gh200" "--build-node gh200 builds the SBSA build there"
like "$(q "$T_DIR/bn.json" 'dec("sbsa", "host_compiler")')" "*gcc 13.3.0*" "... with the GH200's gcc 13"
is "$(q "$T_DIR/bn.json" '[x["node"] for x in B("sbsa")["problems"] if x["code"] == "fleet-glibc-older"]')" '["altra-a100"]' \
	"fleet-glibc-older: the Altra's glibc 2.35 is older than the GH200's 2.39"
run "$PTBUILD" plan --facts "$D" --build-node nosuch
is "$rc" 2 "an unknown --build-node: exit 2"
like "$err" "*--build-node 'nosuch' is none of the fleet's nodes*altra-a100 dgx-h100 gh200 jetson-orin l4-workstation*" "... listing the nodes"

# --cuda 13.0: each driver that cannot run it is an error on its node
run "$PTBUILD" plan --facts "$D/dgx-h100.json" --facts "$D/l4-workstation.json" --cuda 13.0 --json
is "$rc" 1 "--cuda 13.0 for the x86_64 nodes: exit 1"
printf '%s\n' "$out" >"$T_DIR/c13.json"
is "$(q "$T_DIR/c13.json" '[x["node"] for x in B("x86_64")["problems"] if x["code"] == "driver-too-old"]')" '["dgx-h100", "l4-workstation"]' \
	"driver-too-old on each node, the build machine's and the other's"

# A node no CUDA serves: an L4 on driver 470 (CUDA 11.4) is named, left out
sed -e 's/"535.183.01"/"470.256.02"/' -e 's/"cuda_max": "12.2"/"cuda_max": "11.4"/' "$D/l4-workstation.json" >"$T_DIR/l4-old.json"
run "$PTBUILD" plan --facts "$D/dgx-h100.json" --facts "$T_DIR/l4-old.json" --json
is "$rc" 1 "a node no CUDA serves: exit 1"
printf '%s\n' "$out" >"$T_DIR/old.json"
is "$(q "$T_DIR/old.json" 'codes(d["problems"])')" '["fleet-node-unserved@l4-old"]' "fleet-node-unserved names the node"
like "$(q "$T_DIR/old.json" 'd["problems"][0]["message"] + " FIX " + d["problems"][0]["fix"]')" \
	"*l4-old*its driver 470.256.02 (CUDA 11.4 at most) runs no CUDA that PyTorch 2.14 builds*the oldest, CUDA 12.6, needs 560.28.03, or 525.60.13 through minor-version compatibility FIX install driver 525.60.13 or newer, the least that runs CUDA 12.6 (*) on l4-old*" \
	"... saying why and the least driver that would serve it (minor-version compatibility's, before 12.6's own)"
is "$(q "$T_DIR/old.json" 'B("x86_64")["torch_cuda_arch_list"] + " " + B("x86_64")["cuda"]["version"] + " " + json.dumps(T("x86_64")["nodes"])')" \
	'9.0+PTX 12.6 ["dgx-h100"]' "... and not averaged in: the build is the DGX's alone"
is "$(q "$T_DIR/old.json" 'N("l4-old")["build"]')" "null" "... the node row says no build serves it"

# Nodes that fit alone but not together: glibc 2.26 needs CUDA <= 12.6,
# an RTX 5090 needs >= 12.8; the CUDA that serves the most is chosen
run "$PTBUILD" plan --facts "$F/amzn2-glibc226.json" --facts "$F/rtx5090-cuda126.json" --json
is "$rc" 1 "two nodes with no CUDA in common: exit 1"
printf '%s\n' "$out" >"$T_DIR/conflict.json"
is "$(q "$T_DIR/conflict.json" 'codes(d["problems"])')" '["fleet-node-unserved@rtx5090-cuda126"]' "the node left out is named"
like "$(q "$T_DIR/conflict.json" 'd["problems"][0]["message"]')" "*CUDA 12.6 does not build for NVIDIA GeForce RTX 5090 (12.0)*" "... with why"

# A bad facts file stops the plan, naming it; --skip-bad plans the rest
printf '{ "schema": "ptbuild.facts/1", "host": ' >"$D/broken.json"
run "$PTBUILD" plan --facts "$D" --json
is "$rc" 2 "a malformed facts file in the fleet: exit 2"
like "$err" "*1 of 6 facts files are not usable:*broken.json*--skip-bad*" "... naming the file and --skip-bad"
is "$out" "" "... and printing no plan"
run "$PTBUILD" plan --facts "$D" --skip-bad --json
is "$rc" 0 "--skip-bad: the plan for the other five, exit 0"
printf '%s\n' "$out" >"$T_DIR/skip.json"
is "$(q "$T_DIR/skip.json" 'codes(d["problems"])')" "[\"fleet-facts-skipped@$D/broken.json\"]" "fleet-facts-skipped names the file"
is "$(q "$T_DIR/skip.json" 'len(d["builds"])')" "3" "... and the three builds are still made"
rm "$D/broken.json"

# Host names and times from 'detect --stamp': duplicates and stale facts
stamp() { # FILE HOST WHEN > OUT
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["taken"]={"host":sys.argv[2],"at":sys.argv[3]}; print(json.dumps(d))' "$@"
}
S="$T_DIR/stamped"
mkdir "$S"
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
old=$(date -u -d '30 days ago' +%Y-%m-%dT%H:%M:%SZ)
stamp "$D/gh200.json" gh-01 "$old" >"$S/a.json"
sed 's/"580.95.05"/"590.44.01"/' "$D/gh200.json" | python3 -c 'import json,sys; d=json.load(sys.stdin); d["taken"]={"host":"gh-01","at":sys.argv[1]}; print(json.dumps(d))' "$now" >"$S/b.json"
stamp "$D/altra-a100.json" altra-07 "$old" >"$S/c.json"
run "$PTBUILD" plan --facts "$S" --json
is "$rc" 0 "stamped facts: exit 0"
printf '%s\n' "$out" >"$T_DIR/st.json"
is "$(q "$T_DIR/st.json" '[n["name"] for n in d["nodes"]]')" '["altra-07", "gh-01"]' "nodes are named by the host name the facts carry"
is "$(q "$T_DIR/st.json" 'codes(d["problems"])')" '["fleet-duplicate-node@gh-01", "fleet-stale-facts@altra-07"]' \
	"the duplicate and the stale file are problems of their nodes"
like "$(q "$T_DIR/st.json" '[x["message"] for x in d["problems"] if x["code"] == "fleet-duplicate-node"][0]')" \
	"*a.json*b.json*the second (taken later) is used*" "the duplicate: both files named, the later used"
like "$(q "$T_DIR/st.json" 'N("gh-01")["source"] + " " + N("gh-01")["taken_at"]')" "*b.json $now" "... gh-01 is planned from b.json"
like "$(q "$T_DIR/st.json" '[x["message"] for x in d["problems"] if x["code"] == "fleet-stale-facts"][0]')" \
	"*altra-07*taken 30 days ago*" "stale: taken 30 days ago"
run "$PTBUILD" plan --facts "$S" --max-age 45 --json
printf '%s\n' "$out" >"$T_DIR/st2.json"
is "$(q "$T_DIR/st2.json" 'codes(d["problems"])')" '["fleet-duplicate-node@gh-01"]' "--max-age 45: not stale"
# an unstamped file is dated by its time
cp "$D/dgx-h100.json" "$T_DIR/dgx-old.json"
touch -d '20 days ago' "$T_DIR/dgx-old.json"
run "$PTBUILD" plan --facts "$T_DIR/dgx-old.json" --facts "$D/l4-workstation.json" --json
printf '%s\n' "$out" >"$T_DIR/st3.json"
like "$(q "$T_DIR/st3.json" 'd["problems"][0]["message"]')" "*dgx-old*taken 20 days ago*by the file's time*" "an unstamped file is dated by the file's time"
stamp "$D/gh200.json" gh-01 "yesterday" >"$T_DIR/badtime.json"
run "$PTBUILD" plan --facts "$T_DIR/badtime.json" --facts "$D/altra-a100.json"
is "$rc" 2 "a taken.at that is not a UTC time: exit 2"
like "$err" "*badtime.json': key 'taken.at': expected a UTC time*" "... naming the file and the key"

# a node of no platform a build targets
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["host"]["arch"]="ppc64le"; d["host"]["platform"]="ppc64le"; print(json.dumps(d))' "$D/dgx-h100.json" >"$T_DIR/power9.json"
run "$PTBUILD" plan --facts "$T_DIR/power9.json" --facts "$D/gh200.json" --json
is "$rc" 1 "a ppc64le node: exit 1"
printf '%s\n' "$out" >"$T_DIR/p9.json"
is "$(q "$T_DIR/p9.json" 'codes(d["problems"])')" '["fleet-node-platform@power9"]' "fleet-node-platform names it"

# an Orin on JetPack 7.2 beside a Thor build machine, CUDA 13.4: the
# Orin's upgrade package is not the Thor's (t0805 tests Jetson nodes)
json_edit "$P/jetson-thor.json" "$T_DIR/thor72.json" 'f["jetson"]["l4t"] = "39.2.0"'
json_edit "$P/jetson-orin.json" "$T_DIR/orin72.json" 'f["jetson"]["l4t"] = "39.2.0"; f["host"]["os"]["version_id"] = "24.04"; f["toolkits"] = []'
run "$PTBUILD" plan --facts "$T_DIR/thor72.json" --facts "$T_DIR/orin72.json" --cuda 13.4 --json
printf '%s\n' "$out" >"$T_DIR/jetsons.json"
is "$(q "$T_DIR/jetsons.json" '[x["node"] for x in B("jetson")["problems"] if x["code"] == "fleet-node-upgrade-package"]')" '["orin72"]' \
	"fleet-node-upgrade-package: the Orin needs its own upgrade package"

# a node whose own nvcc of the build's release lacks a target of its
# arch list (t0806 tests it at length)
U136="$top_srcdir/tests/fixtures/facts/rtx4090-cuda136-unknown.json"
json_edit "$U136" "$T_DIR/lacks.json" 'f.pop("taken", None); f["host"]["cpu"]["cores"] = 4; t = f["toolkits"][0]; t["version"] = "13.6.10"; g = t["gpu_list"]; g["arch"].remove("compute_89"); g["code"].remove("sm_89")'
run "$PTBUILD" plan --facts "$U136" --facts "$T_DIR/lacks.json" --cuda 13.6 --json
printf '%s\n' "$out" >"$T_DIR/nvcc.json"
is "$(q "$T_DIR/nvcc.json" '[x["node"] for x in B("x86_64")["problems"] if x["code"] == "fleet-node-nvcc-lacks"]')" '["lacks"]' \
	"fleet-node-nvcc-lacks: the node whose 13.6 nvcc lacks sm_89"

# every fleet code in recipes/PROBLEMS.md was raised above
for code in $(sed -n 's/^- `\(fleet-[a-z-]*\)` (.*/\1/p' "$top_srcdir/recipes/PROBLEMS.md"); do
	grep -q "\"$code" "$T_DIR"/*.json
	t_ok $? "documented fleet code $code is raised by a case here"
done

# fetch reads a fleet's files as plan does (t0803 fetches a fleet): a
# bad one stops it, named, before anything is fetched
echo '{' >"$T_DIR/broken.json"
run "$PTBUILD" fetch --facts "$D/gh200.json" --facts "$T_DIR/broken.json" --dry-run --cache "$T_DIR/fc"
is "$rc" 2 "fetch with a bad facts file in the fleet: exit 2"
like "$err" "*1 of 2 facts files are not usable*broken.json*" "... naming it"
run "$PTBUILD" plan --facts "$D" --diff "$T_DIR/sbsa.plan.json"
is "$rc" 2 "--diff with a fleet: exit 2"
mkdir "$T_DIR/empty"
run "$PTBUILD" plan --facts "$T_DIR/empty" --facts "$D/gh200.json"
is "$rc" 2 "an empty facts directory: exit 2"
like "$err" "*directory '*empty' holds no facts files*" "... naming it"
run "$PTBUILD" plan --facts "$D" --profile gh200
is "$rc" 2 "a fleet with --profile: exit 2"

# A build with one node: its CUDA's reason names that node's driver and
# GPUs, not "every node" and "the 1 nodes"; two nodes keep the count
mkdir "$T_DIR/two"
cp "$P/dgx-h100.json" "$P/gh200.json" "$T_DIR/two/"
run "$PTBUILD" plan --facts "$T_DIR/two" --json
printf '%s\n' "$out" >"$T_DIR/two.json"
is "$(q "$T_DIR/two.json" '[x["why"] for x in B("x86_64")["decisions"] if x["topic"] == "cuda"][0]')" \
	"the newest CUDA that PyTorch 2.14 ships wheels for, that the driver of dgx-h100, this build's only node, runs (through minor-version compatibility on dgx-h100) and that builds its GPUs" \
	"a one-node build: the CUDA's reason names its node"
like "$(q "$J" '[x["why"] for x in B("x86_64")["decisions"] if x["topic"] == "cuda"][0]')" "*every node's driver runs*every GPU of the 2 nodes" \
	"... a two-node build keeps 'every node' and the count"

done_testing
