#!/bin/sh
# t0805-fleet-jetson.sh - a fleet's Jetson nodes get the Jetson answer a
# plan of the node alone gives (lib/checks.lua jetson_runs), never the
# "install driver X" of minor-version compatibility: a Jetson's driver
# comes with its JetPack.  A CUDA newer than the JetPack's runs through
# NVIDIA's upgrade package (the build's, or the node's own when it is
# another module's), through one ptbuild names none of (driver-minor-
# compat in the Jetson's words), or not at all (jetpack-too-old-for-cuda);
# an x86_64 node with the same driver still gets the driver fix.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1
D="$T_DIR/nodes"
mkdir "$D"

# node NAME PROFILE L4T CORES [UBUNTU]: the profile on that L4T, named by
# its host name, with no toolkit installed (the build downloads the CUDA);
# a driver the profile names reports the CUDA of that L4T's JetPack (13.2
# on JetPack 7.2), as a finished JetPack upgrade leaves it
node() {
	_os=
	[ -z "${5-}" ] || _os="; f['host']['os'] = {'id': 'ubuntu', 'version_id': '$5'}"
	json_edit "recipes/profiles/$2.json" "$D/$1.json" \
		"f['jetson']['l4t'] = '$3'; f['host']['cpu']['cores'] = $4; f['toolkits'] = []; f['taken'] = {'host': '$1'}$_os
if f.get('driver') and '$3'.startswith('39.'): f['driver']['cuda_max'] = '13.2'"
}
node thor-a jetson-thor 39.2.0 14        # JetPack 7.2 (CUDA 13.2): the build machine, most cores
node thor-b jetson-thor 39.2.0 8         # JetPack 7.2, a second Thor
node thor-c jetson-thor 38.2.0 8         # JetPack 7.0 (CUDA 13.0 alone)
node orin-a jetson-orin 39.2.0 12 24.04  # an Orin on JetPack 7.2
node orin-j6 jetson-orin 36.4.3 16       # an Orin on JetPack 6.2 (CUDA 12.6), most cores

# q FILE EXPR: a Python expression over the fleet document d; P(node) the
# problems of the jetson build about that node as [code, message, fix]
q() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["builds"][0]
def P(n): return [[x["code"], x["message"], x["fix"]] for x in b["problems"] if x["node"] == n]
r = eval(sys.argv[2])
print(r if isinstance(r, str) else json.dumps(r))
PY
}
# solo NODE CUDA CODE: the node's own plan's problems of CODE as [code,
# message led by the node's name, fix]; none is a failure of its own
solo() {
	"$PTBUILD" plan --facts "$D/$1.json" --torch 2.14 --cuda "$2" --json >"$T_DIR/solo.json" 2>/dev/null
	python3 -c 'import json, sys; print(json.dumps([[x["code"], "node '\''%s'\'': %s" % (sys.argv[2], x["message"]), x["fix"]] for x in json.load(open(sys.argv[1]))["problems"] if x["code"] == sys.argv[3]]))' \
		"$T_DIR/solo.json" "$1" "$3" >"$T_DIR/solo.out"
	unlike "$(cat "$T_DIR/solo.out")" "[[]]" "$1 alone, --cuda $2, raises $3"
}

# Two Thors on JetPack 7.2, CUDA 13.4: both run it through the upgrade
# package cuda-compat-13-4 that the build loads; neither is told to
# install a driver
run "$PTBUILD" plan --facts "$D/thor-a.json" --facts "$D/thor-b.json" --torch 2.14 --cuda 13.4 --json
is "$rc" 0 "two Thors on JetPack 7.2, --cuda 13.4: exit 0"
printf '%s\n' "$out" >"$T_DIR/f134.json"
is "$(q "$T_DIR/f134.json" 'd["targets"][0]["build_machine"] + " " + b["cuda"]["compat"]["package"]')" "thor-a cuda-compat-13-4" \
	"... built on thor-a, whose environment loads Thor's upgrade package"
is "$(q "$T_DIR/f134.json" 'P("thor-b")')" "[]" \
	"... thor-b, on the same JetPack with the same package, has no problem (no driver-minor-compat, no driver to install)"
is "$(q "$T_DIR/f134.json" '[x["node"] for x in b["problems"] if "driver" in x["fix"]]')" "[]" \
	"... and no problem's fix is a driver"

# CUDA 13.3: JetPack 7.2 runs it through a package ptbuild names none of:
# thor-b gets what its own plan says, led by its name
run "$PTBUILD" plan --facts "$D/thor-a.json" --facts "$D/thor-b.json" --torch 2.14 --cuda 13.3 --json
printf '%s\n' "$out" >"$T_DIR/f133.json"
solo thor-b 13.3 driver-minor-compat
is "$(q "$T_DIR/f133.json" '[p for p in P("thor-b") if p[0] == "driver-minor-compat"]')" "$(cat "$T_DIR/solo.out")" \
	"--cuda 13.3: thor-b's driver-minor-compat is its own plan's (the unnamed upgrade package), led by its name"
like "$(q "$T_DIR/f133.json" 'P("thor-b")[0][1]')" "*a newer driver is no way out*" "... which offers no newer driver"

# A Thor on JetPack 7.0 runs no CUDA 13.4: the error its own plan raises
run "$PTBUILD" plan --facts "$D/thor-a.json" --facts "$D/thor-c.json" --torch 2.14 --cuda 13.4 --json
is "$rc" 1 "a Thor on JetPack 7.0 in the fleet, --cuda 13.4: exit 1"
printf '%s\n' "$out" >"$T_DIR/f70.json"
solo thor-c 13.4 jetpack-too-old-for-cuda
is "$(q "$T_DIR/f70.json" 'P("thor-c")')" "$(cat "$T_DIR/solo.out")" \
	"... thor-c: jetpack-too-old-for-cuda as its own plan words it (flash JetPack 7.2, or its own CUDA 13.0), and nothing else"

# An Orin beside the Thor build machine needs Orin's package, which the
# Thor's build does not load: the node is told which, and where from
run "$PTBUILD" plan --facts "$D/thor-a.json" --facts "$D/orin-a.json" --torch 2.14 --cuda 13.4 --json
printf '%s\n' "$out" >"$T_DIR/fo.json"
is "$(q "$T_DIR/fo.json" 'd["targets"][0]["build_machine"] + " " + b["cuda"]["compat"]["package"] + " " + b["torch_cuda_arch_list"]')" \
	"thor-a cuda-compat-13-4 8.7;11.0+PTX" \
	"Thor and Orin: the Thor build machine loads its own package (not the Orin's), for both GPUs"
is "$(q "$T_DIR/fo.json" '[p[0] for p in P("orin-a")]')" '["fleet-node-upgrade-package", "fleet-glibc-older"]' \
	"... the Orin gets fleet-node-upgrade-package (and its older glibc)"
like "$(q "$T_DIR/fo.json" 'P("orin-a")[0][1] + " FIX " + P("orin-a")[0][2]')" \
	"node 'orin-a': JetPack 7.2's driver is CUDA 13.2's: programs built with CUDA 13.4 run on it only with NVIDIA's CUDA upgrade package cuda-compat-orin-13-4, which the build's environment does not load (it loads cuda-compat-13-4, the build machine's) FIX sudo apt-get install -y cuda-compat-orin-13-4 on orin-a and put /usr/local/cuda-13.4/compat_orin first on LD_LIBRARY_PATH there" \
	"... naming Orin's package and its directory"

# Not a Jetson: a GH200 with the Thor's driver 580 and CUDA 13.4 runs it
# through minor-version compatibility, and a newer driver is its fix
json_edit recipes/profiles/gh200.json "$D/gh-a.json" "f['driver'] = {'version': '580.00', 'cuda_max': '13.0'}; f['host']['cpu']['cores'] = 200; f['taken'] = {'host': 'gh-a'}"
json_edit recipes/profiles/gh200.json "$D/gh-b.json" "f['driver'] = {'version': '580.00', 'cuda_max': '13.0'}; f['host']['cpu']['cores'] = 2; f['taken'] = {'host': 'gh-b'}"
run "$PTBUILD" plan --facts "$D/gh-a.json" --facts "$D/gh-b.json" --torch 2.14 --cuda 13.4 --json
printf '%s\n' "$out" >"$T_DIR/gh.json"
like "$(q "$T_DIR/gh.json" '[p for p in P("gh-b") if p[0] == "driver-minor-compat"][0][2]')" "install *driver* on gh-b to run CUDA 13.4 directly" \
	"an SBSA node with the same driver: driver-minor-compat, a newer driver its fix"

# A Thor node is judged by its own module, whatever the build machine's:
# an Orin on JetPack 6.2 builds CUDA 12.6 for itself, and the Thor beside
# it gets its own plan's jetson-thor-needs-cuda-13 (CUDA 12.6 does not
# know its GPU), not a GPU problem whose fix is CUDA 12.8
run "$PTBUILD" plan --facts "$D/orin-j6.json" --facts "$D/thor-b.json" --torch 2.14 --cuda 12.6 --json
is "$rc" 1 "an Orin build machine and a Thor node, --cuda 12.6: exit 1"
printf '%s\n' "$out" >"$T_DIR/ot126.json"
solo thor-b 12.6 jetson-thor-needs-cuda-13
is "$(q "$T_DIR/ot126.json" 'd["targets"][0]["build_machine"] + " " + json.dumps(P("thor-b"))')" "orin-j6 $(cat "$T_DIR/solo.out")" \
	"... built on orin-j6; thor-b gets jetson-thor-needs-cuda-13 as its own plan words it, led by its name, and nothing else"
is "$(q "$T_DIR/ot126.json" '[x["code"] for x in b["problems"] if x["code"].startswith("gpu-")]')" "[]" \
	"... and no GPU problem stands in for it"
# CUDA 12.8 names the Thor sm_101: still no CUDA for it, and a second
# Thor beside a Thor build machine is named as well as the build machine
run "$PTBUILD" plan --facts "$D/thor-a.json" --facts "$D/thor-b.json" --torch 2.14 --cuda 12.8 --json
printf '%s\n' "$out" >"$T_DIR/tt128.json"
is "$(q "$T_DIR/tt128.json" 'sorted(x["node"] for x in b["problems"] if x["code"] == "jetson-thor-needs-cuda-13")')" '["thor-a", "thor-b"]' \
	"two Thors, --cuda 12.8: both are told they need CUDA 13, not the build machine alone"

# cuda_runs of a Jetson node is its JetPack's answer, not its driver's
# (the facts' driver is CUDA 13.2's on a Thor on JetPack 7.2, 13.0's on
# JetPack 7.0, none on an Orin)
R='" ".join("%s=%s" % (n["name"], n["cuda_runs"]) for n in d["nodes"])'
run "$PTBUILD" plan --facts "$D/thor-a.json" --facts "$D/thor-b.json" --facts "$D/thor-c.json" --facts "$D/orin-a.json" --torch 2.14 --cuda 13.4 --json
printf '%s\n' "$out" >"$T_DIR/r134.json"
is "$(q "$T_DIR/r134.json" "$R")" "orin-a=upgrade-package thor-a=upgrade-package thor-b=upgrade-package thor-c=no" \
	"--cuda 13.4: cuda_runs is upgrade-package on JetPack 7.2 (Thor's and Orin's), no on JetPack 7.0"
run "$PTBUILD" plan --facts "$D/thor-a.json" --facts "$D/thor-b.json" --torch 2.14 --cuda 13.3
like "$out" "*thor-b               jetson   served by the jetson build (JetPack runs its CUDA: upgrade-package-unnamed)*" \
	"--cuda 13.3: upgrade-package-unnamed, said in the text as the JetPack's answer"
# a Thor whose L4T says JetPack 7.2 but whose driver is still CUDA 13.0's
json_edit "$D/thor-a.json" "$T_DIR/thor-old.json" "f['driver']['cuda_max'] = '13.0'; f['taken'] = {'host': 'thor-old'}"
run "$PTBUILD" plan --facts "$T_DIR/thor-old.json" --facts "$D/orin-a.json" --torch 2.14 --cuda 13.2 --json
printf '%s\n' "$out" >"$T_DIR/r132.json"
is "$(q "$T_DIR/r132.json" "$R")" "orin-a=direct thor-old=compat" \
	"--cuda 13.2, JetPack 7.2's own: direct on the Orin (no driver in its facts); compat on the Thor whose facts carry CUDA 13.0's driver (the driver seen stands)"
is "$(q "$T_DIR/ot126.json" "$R")" "orin-j6=direct thor-b=no" "--cuda 12.6: direct on the Orin of JetPack 6.2, no on the Thor"

# The automatic choice says what a Jetson needs for a CUDA newer than its
# JetPack's: NVIDIA's upgrade package, which its plan loads, not minor-
# version compatibility.  Orins on JetPack 6.2 (CUDA 12.6) whose facts
# carry driver 540.4.0 and PyTorch 2.7 (wheels for 12.8): 12.8, through
# cuda-compat-12-8, as on an Orin whose facts carry no driver
for o in orin-p orin-q; do
	json_edit "$D/orin-j6.json" "$D/$o.json" "f['driver'] = {'version': '540.4.0', 'cuda_max': '12.6'}; f['taken'] = {'host': '$o'}"
done
# cw FILE: the single plan's CUDA and why
cw() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["cuda"]["version"] + " " + d["cuda"]["why"])' "$1"; }
run "$PTBUILD" plan --facts "$D/orin-p.json" --torch 2.7 --json
printf '%s\n' "$out" >"$T_DIR/p27.json"
is "$(cw "$T_DIR/p27.json")" \
	"12.8 the newest CUDA that PyTorch 2.7 ships wheels for, the driver runs (through NVIDIA's upgrade package cuda-compat-12-8 (JetPack 6.2, CUDA 12.6)) and that builds every GPU" \
	"one Orin on JetPack 6.2, PyTorch 2.7: CUDA 12.8 through the upgrade package, said so (not minor-version compatibility)"
"$PTBUILD" plan --facts "$D/orin-j6.json" --torch 2.7 --json >"$T_DIR/j27.json" 2>/dev/null
is "$(cw "$T_DIR/j27.json")" "$(cw "$T_DIR/p27.json")" "... the same choice and words as for the Orin whose facts carry no driver"
run "$PTBUILD" plan --facts "$D/orin-p.json" --facts "$D/orin-q.json" --torch 2.7 --json
printf '%s\n' "$out" >"$T_DIR/pq27.json"
is "$(q "$T_DIR/pq27.json" 'b["cuda"]["version"] + " " + b["cuda"]["why"]')" \
	"12.8 the newest CUDA that PyTorch 2.7 ships wheels for, that every node's driver runs (through NVIDIA's upgrade package cuda-compat-12-8 (JetPack 6.2, CUDA 12.6) on orin-p, orin-q) and that builds every GPU of the 2 nodes" \
	"two such Orins: the fleet's choice in the same words, naming the nodes"
is "$(q "$T_DIR/pq27.json" "$R + ' ' + json.dumps([x['code'] for x in b['problems'] if 'driver' in x['fix'] or 'minor-version' in x['message']])")" \
	"orin-p=upgrade-package orin-q=upgrade-package []" "... both run it through the package the build loads; no driver to install"

# A GH200 whose driver runs 13.2 only through minor-version
# compatibility is still told so, by name
json_edit recipes/profiles/gh200.json "$D/gh-c.json" "f['driver'] = {'version': '580.00', 'cuda_max': '13.0'}; f['taken'] = {'host': 'gh-c'}"
json_edit recipes/profiles/gh200.json "$D/gh-d.json" "f['driver'] = {'version': '595.45.04', 'cuda_max': '13.2'}; f['host']['cpu']['cores'] = 2; f['taken'] = {'host': 'gh-d'}"
run "$PTBUILD" plan --facts "$D/gh-c.json" --facts "$D/gh-d.json" --torch 2.14 --json
printf '%s\n' "$out" >"$T_DIR/ghcd.json"
like "$(q "$T_DIR/ghcd.json" 'b["cuda"]["why"]')" "*directly (CUDA 13.2 would need minor-version compatibility on gh-c)*" \
	"two GH200s, one on driver 580: CUDA 13.2 would need minor-version compatibility on it"
# A CUDA a node's JetPack cannot run is not chosen while another serves
# every node: a Thor on JetPack 7.0 runs 13.0 alone, so a fleet of it and
# a Thor on JetPack 7.2 (whose driver is 13.2's) builds 13.0
json_edit "$D/thor-a.json" "$D/thor-d.json" "f['driver'] = {'version': '595.45.04', 'cuda_max': '13.2'}; f['taken'] = {'host': 'thor-d'}"
run "$PTBUILD" plan --facts "$D/thor-d.json" --torch 2.14 --json
printf '%s\n' "$out" >"$T_DIR/d.json"
like "$(cw "$T_DIR/d.json")" "13.2 *" "a Thor on JetPack 7.2 alone: CUDA 13.2"
run "$PTBUILD" plan --facts "$D/thor-d.json" --facts "$D/thor-c.json" --torch 2.14 --json
printf '%s\n' "$out" >"$T_DIR/dc.json"
is "$(q "$T_DIR/dc.json" 'b["cuda"]["version"] + " " + " ".join(n["name"] + "=" + n["cuda_runs"] for n in d["nodes"]) + " " + json.dumps([x["code"] for x in b["problems"] if x["severity"] == "error"])')" \
	"13.0 thor-c=direct thor-d=direct []" "... beside a Thor on JetPack 7.0: CUDA 13.0, which both run, and no error"

done_testing
