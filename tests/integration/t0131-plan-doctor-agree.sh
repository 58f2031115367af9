#!/bin/sh
# t0131-plan-doctor-agree.sh - plan and doctor judge a machine by one set
# of rules (recipes/lib/checks.lua): for every shipped profile and every
# fixture's facts, with the plan's CUDA as the toolkit in use, both raise
# the same shared problems -- the driver too old for the toolkit, a GPU
# the toolkit drops or is too old for, a host compiler nvcc refuses, a
# toolkit of another platform, a python3 older than PyTorch accepts or
# newer than it builds with (plan
# for its default release, doctor for the newest: the same one), a Jetson
# Thor on a CUDA before 13.0, an Orin on an SBSA CUDA it does not run, a
# Jetson whose module has no release of its L4T's JetPack, a
# toolkit whose GPU list or compiler limits ptbuild assumes (13.5), a GPU
# whose compute capability ptbuild does not know.
# (Before the rules were shared, doctor held
# a Jetson Thor on CUDA 12.8 unbuildable and plan did not; both now do,
# by one rule: 12.8 builds it only as sm_101, which JetPack 7 does not run.)
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

mkdir -p "$T_DIR/empty"
# A copy of the facts with the plan's CUDA first among the toolkits (added
# when the plan downloads it): the toolkit doctor judges, and the one
# `plan --cuda` then takes.  Prints the CUDA release.
in_use() { # PLAN FACTS OUT
	python3 - "$@" <<'PY'
import json, sys
plan, facts = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
c = plan["cuda"]
target = {"linux-x86_64": "x86_64-linux", "linux-sbsa": "sbsa-linux",
          "linux-aarch64": "aarch64-linux"}[c["platform"]]
tks = facts.get("toolkits") or []
mine = [t for t in tks if t.get("root") == c["root"]]
rest = [t for t in tks if t.get("root") != c["root"]]
if not mine:
    mine = [{"root": c["root"], "version": c["full_version"], "target": target}]
facts["toolkits"] = mine + rest
json.dump(facts, open(sys.argv[3], "w"))
print(c["version"])
PY
}
# The shared rules a plan or doctor document raises, one per line, sorted:
# plan's driver-minor-compat, or its Jetson upgrade package, is doctor's
# driver-too-old warning, and only
# plan's errors about a platform are about the toolkit it uses.
rules() { # FILE problems|findings
	python3 - "$@" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
shared = {"driver-too-old": "driver", "driver-minor-compat": "driver",
          "toolkit-drops-gpu": "toolkit-drops-gpu", "gpu-newer-than-toolkit": "gpu-newer-than-toolkit",
          "gcc-too-new": "gcc-too-new", "sbsa-toolkit-on-jetson": "platform sbsa-toolkit-on-jetson",
          "jetson-toolkit-on-server": "platform jetson-toolkit-on-server",
          "toolkit-wrong-platform": "platform toolkit-wrong-platform",
          "python-too-old": "python-too-old", "python-too-new": "python-too-new",
          "jetson-thor-needs-cuda-13": "jetson-thor-needs-cuda-13",
          "jetpack-too-old-for-cuda": "jetpack-too-old-for-cuda",
          "jetson-orin-needs-cuda-13.2": "jetson-orin-needs-cuda-13.2",
          "jetson-module-too-old-for-cuda": "jetson-module-too-old-for-cuda",
          "jetson-facts-disagree": "jetson-facts-disagree", "cuda-data-assumed": "cuda-data-assumed",
          "gpu-unknown": "gpu-unknown"}
out = set()
for p in doc.get(sys.argv[2]) or []:
    r = shared.get(p["code"])
    if r and (not r.startswith("platform") or p["severity"] == "error"):
        out.add(r)
# a Jetson's upgrade package: plan loads it (cuda.compat), doctor says
# it must be loaded (a driver-too-old warning)
if sys.argv[2] == "problems" and (doc.get("cuda") or {}).get("compat"):
    out.add("driver")
print(" ".join(sorted(out)) or "none")
PY
}

# ptbuild with nothing of this machine's environment but the recipes
ptb() { env -i PATH=/nonexistent PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" "$@"; }
# judge FACTS CUDA: the shared rules plan (with that CUDA) and doctor raise,
# in $p and $d
judge() {
	ptb plan --facts "$1" --cuda "$2" --json >"$T_DIR/plan.json" 2>/dev/null
	ptb doctor --facts "$1" --sysroot "$T_DIR/empty" --json >"$T_DIR/doctor.json" 2>/dev/null
	p=$(rules "$T_DIR/plan.json" problems)
	d=$(rules "$T_DIR/doctor.json" findings)
}

n=0
raised=0
for f in "$top_srcdir"/recipes/profiles/*.json "$top_srcdir"/tests/fixtures/facts/*.json \
	"$top_srcdir"/tests/fixtures/sysroots/*.facts.json; do
	name=$(basename "$f" .json)
	ptb plan --facts "$f" --json >"$T_DIR/plan0.json" 2>"$T_DIR/err"
	cuda=$(in_use "$T_DIR/plan0.json" "$f" "$T_DIR/facts.json")
	if [ -z "$cuda" ]; then
		t_ok 1 "$name: the plan names its CUDA ($(cat "$T_DIR/err"))"
		continue
	fi
	judge "$T_DIR/facts.json" "$cuda"
	is "$d" "$p" "$name with CUDA $cuda: doctor raises what plan raises ($p)"
	n=$((n + 1))
	[ "$p" = none ] || raised=$((raised + 1))
done
[ "$n" -ge 30 ]
t_ok $? "every profile and fixture was compared ($n)"
[ "$raised" -ge 5 ]
t_ok $? "shared problems were raised on $raised of them, not only none"

# The same rules on machines made to break them, the Thor case first:
# { name, facts edit (Python on the Jetson Thor profile, whose first
# toolkit is the one in use), CUDA of that toolkit, what both raise }
thor="$top_srcdir/recipes/profiles/jetson-thor.json"
while IFS='|' read -r name edit cuda want; do
	[ -n "$name" ] || continue
	json_edit "$thor" "$T_DIR/case.json" "$edit"
	judge "$T_DIR/case.json" "$cuda"
	is "$d" "$p" "$name: doctor raises what plan raises ($p)"
	is "$p" "$want" "$name: $want"
done <<'CASES'
Thor on CUDA 12.8 (sm_101)|f["toolkits"] = [{"root": "/usr/local/cuda-12.8", "version": "12.8.93", "target": "sbsa-linux"}]|12.8|jetson-thor-needs-cuda-13
Thor on CUDA 12.6|f["toolkits"] = [{"root": "/usr/local/cuda-12.6", "version": "12.6.85", "target": "sbsa-linux"}]|12.6|jetson-thor-needs-cuda-13
Thor with a driver too old|f["driver"] = {"version": "535.104.05", "cuda_max": "12.2"}|13.0|driver
Thor with gcc 16|f["compilers"] = [{"name": "gcc", "version": "16.1.0", "path": "/usr/bin/gcc"}]|13.0|gcc-too-new
Thor with python3 3.16|f["python"] = {"version": "3.16", "path": "/usr/bin/python3"}|13.0|python-too-new
Orin on JetPack 6.2 with an SBSA 12.6|f["gpus"] = [{"index": 0, "name": "Orin", "compute_capability": "8.7"}]; f["jetson"]["module"] = "Jetson AGX Orin"; f["jetson"]["l4t"] = "36.4.3"; f["driver"] = {"version": "540.4.0", "cuda_max": "12.6"}; f["toolkits"] = [{"root": "/usr/local/cuda-12.6", "version": "12.6.85", "target": "sbsa-linux"}]|12.6|platform sbsa-toolkit-on-jetson
Orin left on Thor's L4T 38.2 (JetPack 7.0 has no Orin release)|f["gpus"] = [{"index": 0, "name": "Orin", "compute_capability": "8.7"}]; f["jetson"]["module"] = "Jetson AGX Orin"; f["toolkits"] = [{"root": "/usr/local/cuda-12.6", "version": "12.6.85", "target": "aarch64-linux"}]|12.6|jetson-facts-disagree
Thor on L4T 36.4.3 (JetPack 6.2 has no Thor release)|f["jetson"]["l4t"] = "36.4.3"; f["driver"] = {"version": "540.4.0", "cuda_max": "12.6"}|13.0|jetson-facts-disagree
Thor's gcc known as 13 with CUDA 12.4 (13.2.0 breaks it on aarch64)|f["compilers"] = [{"name": "gcc", "version": "13", "path": "/usr/bin/gcc"}]; f["toolkits"] = [{"root": "/usr/local/cuda-12.4", "version": "12.4.131", "target": "sbsa-linux"}]|12.4|gcc-too-new jetson-thor-needs-cuda-13
Orin on L4T 36 with an SBSA 13.4 in use|f["gpus"] = [{"index": 0, "name": "Orin", "compute_capability": "8.7"}]; f["jetson"]["module"] = "Jetson AGX Orin"; f["jetson"]["l4t"] = "36.4.4"; f["toolkits"] = [{"root": "/usr/local/cuda-13.4", "version": "13.4.92", "target": "sbsa-linux"}]|13.4|jetson-facts-disagree jetson-orin-needs-cuda-13.2 platform sbsa-toolkit-on-jetson
Xavier on JetPack 5 with an SBSA 13.0 in use (no JetPack 7 has a Xavier release)|f["gpus"] = [{"index": 0, "name": "Jetson AGX Xavier", "compute_capability": "7.2"}]; f["jetson"] = {"module": "Jetson AGX Xavier", "l4t": "35.6.5"}; f["driver"] = {"version": "510.0", "cuda_max": "11.4"}; f["toolkits"] = [{"root": "/usr/local/cuda-13.0", "version": "13.0.48", "target": "sbsa-linux"}]|13.0|jetson-module-too-old-for-cuda platform sbsa-toolkit-on-jetson toolkit-drops-gpu
Orin on L4T 39 with an SBSA 13.4 in use|f["gpus"] = [{"index": 0, "name": "Orin", "compute_capability": "8.7"}]; f["jetson"]["module"] = "Jetson AGX Orin"; f["jetson"]["l4t"] = "39.2.0"; f["toolkits"] = [{"root": "/usr/local/cuda-13.4", "version": "13.4.92", "target": "sbsa-linux"}]|13.4|driver
Thor whose L4T is JetPack 7.2's, its driver CUDA 13.0's|f["jetson"]["l4t"] = "39.2.0"|13.0|jetson-facts-disagree
Thor with an SBSA 13.5 in use (its GPU list and compiler limits copied from 13.4)|f["toolkits"] = [{"root": "/usr/local/cuda-13.5", "version": "13.5.40", "target": "sbsa-linux"}]|13.5|cuda-data-assumed jetpack-too-old-for-cuda
Thor with an SBSA 13.4 in use (all of it sourced)|f["toolkits"] = [{"root": "/usr/local/cuda-13.4", "version": "13.4.92", "target": "sbsa-linux"}]|13.4|jetpack-too-old-for-cuda
Thor seen as a GPU of unknown compute capability|f["gpus"] = [{"index": 0, "name": "NVIDIA Graphics Device"}]|13.0|gpu-unknown
an x86 toolkit on Thor|f["toolkits"] = [{"root": "/usr/local/cuda-13.0", "version": "13.0.48", "target": "x86_64-linux"}]|13.0|platform toolkit-wrong-platform
CASES

# The compiler the environment names for nvcc, and compilers as detect
# names them (gcc-14, clang++-21: by their files), judged alike by plan
# (the facts' env), doctor here (its own environment) and doctor of a
# fleet node (the facts' env).  Thor's CUDA 13.0 takes gcc 15, clang 20.
# { name, facts edit, CUDAHOSTCXX, what all raise, plan's host_compiler }
while IFS='|' read -r name edit hostcxx want host; do
	[ -n "$name" ] || continue
	python3 - "$thor" "$T_DIR/case.json" "$edit" "$hostcxx" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
exec(sys.argv[3])
if sys.argv[4]:
    f["env"] = {"CUDAHOSTCXX": sys.argv[4]}
json.dump(f, open(sys.argv[2], "w"))
PY
	ptb plan --facts "$T_DIR/case.json" --cuda 13.0 --json >"$T_DIR/plan.json" 2>/dev/null
	env -i PATH=/nonexistent ${hostcxx:+CUDAHOSTCXX=$hostcxx} PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
		"$PTBUILD" doctor --facts "$T_DIR/case.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/doctor.json" 2>/dev/null
	ptb doctor --facts "$T_DIR/case.json" --facts "$thor" --json >"$T_DIR/fleet.json" 2>/dev/null
	python3 -c 'import json, sys; json.dump({"findings": json.load(open(sys.argv[1]))["nodes"][0]["findings"]}, open(sys.argv[2], "w"))' \
		"$T_DIR/fleet.json" "$T_DIR/node.json"
	is "$(rules "$T_DIR/plan.json" problems)" "$want" "$name: plan raises $want"
	is "$(rules "$T_DIR/doctor.json" findings)" "$want" "$name: doctor raises $want"
	is "$(rules "$T_DIR/node.json" findings)" "$want" "$name: doctor of a fleet node raises $want"
	is "$(python3 -c 'import json, sys; print([x["choice"] for x in json.load(open(sys.argv[1]))["decisions"] if x["topic"] == "host_compiler"][0])' "$T_DIR/plan.json")" \
		"$host" "$name: the plan's host compiler is $host"
done <<'CASES'
CUDAHOSTCXX=clang++-21 on CUDA 13.0|f["compilers"].append({"name": "clang++-21", "path": "/usr/bin/clang++-21", "version": "21"})|clang++-21|gcc-too-new|/usr/bin/g++ (gcc 13.3.0)
CUDAHOSTCXX=clang++-20 on CUDA 13.0|f["compilers"].append({"name": "clang++-20", "path": "/usr/bin/clang++-20", "version": "20"})|/usr/bin/clang++-20|none|/usr/bin/clang++-20 (clang 20)
gcc 16 with a gcc-14 beside it|f["compilers"] = [{"name": "gcc", "path": "/usr/bin/gcc", "version": "16.1.0"}, {"name": "gcc-14", "path": "/usr/bin/gcc-14", "version": "14"}]||gcc-too-new|/usr/bin/g++-14 (gcc 14)
CUDAHOSTCXX naming a compiler detect did not date|pass|/opt/llvm/bin/clang++|none|/opt/llvm/bin/clang++ (named by CUDAHOSTCXX)
CASES
# the plan switches, so its gcc-too-new is a warning; doctor's fix names it
python3 - "$thor" "$T_DIR/case.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["compilers"] = [{"name": "gcc", "path": "/usr/bin/gcc", "version": "16.1.0"}, {"name": "gcc-14", "path": "/usr/bin/gcc-14", "version": "14"}]
json.dump(f, open(sys.argv[2], "w"))
PY
run ptb plan --facts "$T_DIR/case.json" --cuda 13.0
is "$rc" 0 "gcc 16 with a gcc-14 beside it: the plan has no error"
like "$out" "*warning \\[gcc-too-new\\] gcc 16.1.0 (/usr/bin/gcc) does not work with nvcc 13.0.48*the plan makes nvcc use /usr/bin/g++-14 (gcc 14)*" \
	"... it makes nvcc use g++-14"
run ptb doctor --facts "$T_DIR/case.json" --sysroot "$T_DIR/empty"
like "$out" "*fix:  set CUDAHOSTCXX=/usr/bin/g++-14 (gcc 14 is installed)*" "... doctor's fix names g++-14, the C++ driver the plan sets CUDAHOSTCXX to"

# CC, CXX and CUDAHOSTCXX may carry flags after the compiler ("g++-14
# -fPIC": CMake and detect take the first word); the compiler is the
# one named, and plan, doctor and doctor of a fleet node all take it
python3 - "$thor" "$T_DIR/case.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["compilers"] = [{"name": "gcc", "path": "/usr/bin/gcc", "version": "16.1.0"},
                  {"name": "g++-14", "path": "/usr/bin/g++-14", "version": "14.2.0", "named_by": ["CXX"]},
                  {"name": "gcc-14", "path": "/usr/bin/gcc-14", "version": "14.2.0"}]
f["env"] = {"CXX": "/usr/bin/g++-14 -fPIC"}
json.dump(f, open(sys.argv[2], "w"))
PY
ptb plan --facts "$T_DIR/case.json" --cuda 13.0 --json >"$T_DIR/plan.json" 2>/dev/null
env -i PATH=/nonexistent "CXX=/usr/bin/g++-14 -fPIC" PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" doctor --facts "$T_DIR/case.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/doctor.json" 2>/dev/null
ptb doctor --facts "$T_DIR/case.json" --json >"$T_DIR/node.json" 2>/dev/null
is "$(rules "$T_DIR/plan.json" problems) $(rules "$T_DIR/doctor.json" findings) $(rules "$T_DIR/node.json" findings)" "none none none" \
	"CXX='/usr/bin/g++-14 -fPIC': plan, doctor and doctor by the facts raise nothing of gcc 16"
is "$(python3 -c 'import json, sys; print([x["choice"] for x in json.load(open(sys.argv[1]))["decisions"] if x["topic"] == "host_compiler"][0])' "$T_DIR/plan.json")" \
	"/usr/bin/g++-14 (gcc 14.2.0)" "... and the plan's host compiler is the g++-14 CXX names"

done_testing
