#!/bin/sh
# t0806-fleet-nvcc-lists.sh - a fleet whose nodes have the same CUDA
# release but different nvcc answers (detect's toolkits[].gpu_list: one
# node's 13.5 is an older update whose nvcc lacks sm_107).  The build
# compiles on the build machine, so its toolkit's nvcc judges the build;
# every other node is judged by its own nvcc: where it lacks a target of
# the build's arch list, a warning names the node, its toolkit and the
# target (what the fleet's environment compiles there would fail).
# Before, only the build machine's answer was read.  A --cuda outside
# the tables is planned or refused as a single plan does it (it was
# ignored).
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# node NAME CORES CC GPU VERSION DROP: a facts file $T_DIR/NAME.json of
# an x86 node with one GPU and CUDA 13.5 (VERSION) whose nvcc lists
# 13.4's targets but DROP (none: "-")
node() {
	python3 - "$top_srcdir/tests/fixtures/facts/rtx4090-cuda128.json" "$T_DIR/$1.json" "$@" <<'PY'
import json, sys
src, out, name, cores, cc, gpu, version, drop = sys.argv[1:9]
f = json.load(open(src))
f["host"]["cpu"]["cores"] = int(cores)
f["gpus"] = [{"index": 0, "name": gpu, "compute_capability": cc, "source": "test"}]
f["driver"] = {"version": "620.70.06", "cuda_max": "13.5"}
n = "/usr/local/cuda-13.5/bin/nvcc"
ccs = [c for c in ["75", "80", "86", "87", "88", "89", "90", "100", "103", "107", "110", "120", "121"] if c != drop]
f["toolkits"] = [{"root": "/usr/local/cuda-13.5", "version": version, "release": "13.5", "source": "path",
                  "nvcc": n, "target": "x86_64-linux", "platform": "x86_64",
                  "gpu_list": {"from": "nvcc", "nvcc": n, "arch": ["compute_" + c for c in ccs],
                               "code": ["sm_" + c for c in ccs]}}]
json.dump(f, open(out, "w"))
PY
}
# probs FLEET CODE FIELD: FIELD of the build problems with CODE, one a line
probs() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for b in d["builds"]:
    for p in b["problems"]:
        if p["code"] == sys.argv[2]: print(p[sys.argv[3]])' "$@"
}

node rubin 64 10.7 "NVIDIA Rubin test GPU" 13.5.40 -
node ada 16 8.9 "NVIDIA GeForce RTX 4090" 13.5.20 107

# 1. Built on rubin (its nvcc lists sm_107): ada's nvcc, which lacks
#    it, is judged on its own and warned of, by name.
run "$PTBUILD" plan --facts "$T_DIR/rubin.json" --facts "$T_DIR/ada.json" --json
is "$rc" 0 "fleet, built on rubin (nvcc with sm_107), ada's nvcc without it: exit 0"
printf '%s' "$out" >"$T_DIR/f.json"
is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["targets"][0]["build_machine"], d["builds"][0]["torch_cuda_arch_list"])' "$T_DIR/f.json")" \
	"rubin 8.9;10.7+PTX" "... the build machine is rubin, the arch list has 10.7"
is "$(probs "$T_DIR/f.json" fleet-node-nvcc-lacks node)" "ada" "... fleet-node-nvcc-lacks on ada alone"
like "$(probs "$T_DIR/f.json" fleet-node-nvcc-lacks message)" \
	"node 'ada': its CUDA 13.5 in /usr/local/cuda-13.5 (13.5.20) does not build the build's arch list 8.9;10.7+PTX, as its own nvcc answers: *does not build sm_107*; the build itself runs on rubin, whose nvcc builds it*" \
	"... naming ada's toolkit, sm_107 and the build machine"
like "$(probs "$T_DIR/f.json" fleet-node-nvcc-lacks fix)" "install on ada the CUDA 13.5 update the build machine rubin has (13.5.40)*" \
	"... the fix names rubin's update"
run "$PTBUILD" plan --facts "$T_DIR/rubin.json" --facts "$T_DIR/ada.json"
like "$out" "*warning ?fleet-node-nvcc-lacks? (ada) node 'ada': *" "... the text plan says it too"

# 2. Both nvccs list sm_107: nothing to say.
node ada 16 8.9 "NVIDIA GeForce RTX 4090" 13.5.40 -
run "$PTBUILD" plan --facts "$T_DIR/rubin.json" --facts "$T_DIR/ada.json" --json
printf '%s' "$out" >"$T_DIR/f.json"
is "$rc:$(probs "$T_DIR/f.json" fleet-node-nvcc-lacks node)" "0:" "both nvccs list sm_107: exit 0, no fleet-node-nvcc-lacks"

# 3. Built on the node whose nvcc lacks sm_107 (--build-node): its nvcc
#    judges the build, which cannot build rubin's GPU: an error on rubin.
node ada 16 8.9 "NVIDIA GeForce RTX 4090" 13.5.20 107
run "$PTBUILD" plan --facts "$T_DIR/rubin.json" --facts "$T_DIR/ada.json" --build-node ada --json
printf '%s' "$out" >"$T_DIR/f.json"
is "$rc" 1 "--build-node ada (its nvcc lacks sm_107): exit 1"
is "$(probs "$T_DIR/f.json" toolkit-drops-gpu node)" "rubin" "... the build's toolkit cannot build rubin's GPU: an error on rubin"
is "$(probs "$T_DIR/f.json" fleet-node-nvcc-lacks node)" "" "... and no fleet-node-nvcc-lacks (rubin's nvcc builds the list)"
#    What happened, said so: the build takes ada's installed 13.5, judged
#    by its own nvcc (before: the choice read as a download judged by
#    the tables, and the problem as "CUDA 13.5 no longer builds" it).
cuda_why() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); b=d["builds"][0]; print([x["why"] for x in b["decisions"] if x["topic"] == "cuda"][0]); print([x["node"] + ": " + x["why"] for x in d["targets"][0]["explain"] if x["decision"] == "cuda"][0])' "$1"; }
like "$(cuda_why "$T_DIR/f.json")" \
	"*; the build takes the CUDA 13.5 installed on the build machine ada in /usr/local/cuda-13.5 (13.5.20), judged by its own nvcc, which fails node 'rubin': CUDA 13.5 does not build for NVIDIA Rubin test GPU (10.7) by that nvcc's list
ada: *the build takes the CUDA 13.5 installed on the build machine ada*" \
	"... the choice (decision and --explain, by ada) says ada's installed toolkit, judged by its nvcc, fails rubin"
like "$(probs "$T_DIR/f.json" toolkit-drops-gpu message)" \
	"the CUDA 13.5 installed on the build machine ada, judged by its own nvcc (/usr/local/cuda-13.5/bin/nvcc), does not build for the NVIDIA Rubin test GPU (compute capability 10.7): its GPU list lacks sm_107, though ptbuild's tables have CUDA 13.5 build it*" \
	"... toolkit-drops-gpu names ada's toolkit and its nvcc, not the release"
like "$(probs "$T_DIR/f.json" toolkit-drops-gpu fix)" \
	"install a CUDA 13.5 update whose nvcc lists sm_107, or use CUDA 13.4 *; or build on rubin (--build-node rubin), whose CUDA 13.5.40 in /usr/local/cuda-13.5 builds every node's GPUs by its own nvcc" \
	"... its fix: an update that lists sm_107, 13.4, or --build-node rubin"
#    A single plan of such a machine says the same of its own nvcc.
json_edit "$T_DIR/ada.json" "$T_DIR/ada107.json" "f['gpus'][0].update(name='NVIDIA Rubin test GPU', compute_capability='10.7')"
run "$PTBUILD" plan --facts "$T_DIR/ada107.json" --cuda 13.5
like "$out" "*error ?toolkit-drops-gpu? the installed CUDA 13.5, judged by its own nvcc (/usr/local/cuda-13.5/bin/nvcc), does not build for the NVIDIA Rubin test GPU (compute capability 10.7): its GPU list lacks sm_107*" \
	"plan --cuda 13.5 on a machine whose 13.5 nvcc lacks sm_107: toolkit-drops-gpu names that nvcc"

# 4. --cuda of a release newer than the tables: planned where the build
#    machine has it installed (judged by its nvcc, as a single plan),
#    else refused as plan refuses it (before: ignored, exit 0).
U=$top_srcdir/tests/fixtures/facts/rtx4090-cuda136-unknown.json
K=$top_srcdir/tests/fixtures/facts/rtx4090-cuda128.json
run "$PTBUILD" plan --facts "$U" --facts "$K" --cuda 13.6 --build-node rtx4090-cuda136-unknown --json
printf '%s' "$out" >"$T_DIR/f.json"
is "$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["builds"][0]["cuda"]; print(c["version"], c["root"], c["gpu_list"]["nvcc"])' "$T_DIR/f.json")" \
	"13.6 /usr/local/cuda-13.6 /usr/local/cuda-13.6/bin/nvcc" \
	"fleet --cuda 13.6, installed on the build machine: its toolkit, judged by its nvcc"
is "$(probs "$T_DIR/f.json" cuda-release-unknown node)" "rtx4090-cuda136-unknown" "... cuda-release-unknown, on the build machine"
like "$(probs "$T_DIR/f.json" driver-too-old message)" "node 'rtx4090-cuda128': driver 570.124.06 cannot run CUDA 13.6 (*or 580.65.06 through minor-version compatibility)" \
	"... the other node's driver judged by CUDA 13's floor"
run "$PTBUILD" plan --facts "$U" --facts "$K" --cuda 13.6 --build-node rtx4090-cuda128
is "$rc" 2 "fleet --cuda 13.6 built where it is not installed: exit 2 (was 0, --cuda ignored)"
like "$err" "*error: unknown CUDA release '13.6'*" "... plan's own error"
like "$err" "*'13.6' on the build machine rtx4090-cuda128; node 'rtx4090-cuda136-unknown' has it installed in /usr/local/cuda-13.6 (13.6.20)
hint: build on rtx4090-cuda136-unknown, which has it: --build-node rtx4090-cuda136-unknown*" \
	"... naming the node that has it installed and --build-node (was a plain unknown release)"
run "$PTBUILD" plan --facts "$K" --facts "$T_DIR/ada.json" --cuda 13.6
like "$rc:$err" "2:*error: unknown CUDA release '13.6'
hint: releases a plan installs:*" "no node has 13.6: plan's error and hint alone"
run "$PTBUILD" plan --facts "$U" --facts "$K" --cuda foo
is "$rc" 2 "fleet --cuda foo: exit 2 (was 0, --cuda ignored)"

# 5. No --cuda: the build machine's toolkit newer than the tables is not
#    taken while a release ptbuild knows serves every node, as a single
#    plan of it keeps 13.0 (before, the fleet took 13.6 and said that
#    PyTorch 2.14's build accepts it); where no known release fits and
#    it does, it is taken, saying why.
cuda_of() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); b=[b for b in d["builds"] if b["cuda"]["platform"] == "linux-x86_64"][0]; print(b["cuda"]["version"], b["cuda"]["source"]); print([x["why"] for x in b["decisions"] if x["topic"] == "cuda"][0])' "$1"; }
single=$("$PTBUILD" plan --facts "$U" --json 2>/dev/null | python3 -c 'import json,sys; c=json.load(sys.stdin)["cuda"]; print(c["version"], c["source"])')
"$PTBUILD" plan --facts "$U" --facts "$top_srcdir/recipes/profiles/jetson-orin.json" --json >"$T_DIR/f.json" 2>/dev/null
is "$(cuda_of "$T_DIR/f.json" | head -n 1)" "$single" "fleet of it and a Jetson, no --cuda: its build has the single plan's choice ($single)"
case $(cuda_of "$T_DIR/f.json" | tail -n 1) in
*"accepts CUDA 13.6"*) t_ok 1 "... and claims no acceptance of CUDA 13.6 by PyTorch's build" ;;
*) t_ok 0 "... and claims no acceptance of CUDA 13.6 by PyTorch's build" ;;
esac
json_edit "$U" "$T_DIR/gpu13.json" "g = f['toolkits'][0]['gpu_list']; g['arch'].append('compute_130'); g['code'].append('sm_130'); f['gpus'] = [{'index': 0, 'name': 'NVIDIA future GPU', 'compute_capability': '13.0', 'source': 'test'}]"
"$PTBUILD" plan --facts "$T_DIR/gpu13.json" --facts "$U" --build-node gpu13 --json >"$T_DIR/f.json" 2>/dev/null
like "$(cuda_of "$T_DIR/f.json")" "13.6 installed
no CUDA ptbuild knows serves every node: installed on the build machine gpu13 in /usr/local/cuda-13.6 (CUDA 13.6.20), newer than ptbuild's tables*" \
	"a GPU only the build machine's 13.6 builds: that toolkit is taken, saying why"

done_testing
