#!/bin/sh
# t0802-fleet-generate.sh - `ptbuild generate` for a fleet (GH200 + DGX
# H100 + Altra A100 + an L4 workstation + a Jetson Orin): a directory per
# platform build holding exactly what generate writes for that build's plan
# alone (compared byte for byte, so the per-platform env and CMake files are
# the single-plan machinery's); a bake file, read by HashiCorp's HCL parser,
# with one target per platform an image can build, each carrying its own
# build's Dockerfile; a workflow, read by PyYAML, whose matrix runs over the
# same platforms; a saved fleet document rendered the same; files ptbuild
# did not write kept; malformed fleet documents refused whole (exit 2,
# naming the file and key, nothing written).
. "$top_srcdir/tests/lib.sh"
P="$top_srcdir/recipes/profiles"
F="$top_srcdir/tests/fixtures/facts"
D="$T_DIR/facts"
mkdir "$D" "$T_DIR/a" "$T_DIR/b"
for n in gh200 dgx-h100 altra-a100 jetson-orin; do
	cp "$P/$n.json" "$D/"
done
cp "$F/l4-workstation.json" "$D/"
npm_root=$(npm root -g 2>/dev/null || true)
PLATFORMS="x86_64 sbsa jetson"

(cd "$T_DIR/a" && "$PTBUILD" generate --facts "$D" --out out) >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "generate for a fleet of five: exit 0 (warnings only)"
O="$T_DIR/a/out"
for p in $PLATFORMS; do
	[ -f "$O/$p/ptbuild.env" ] && [ -f "$O/$p/initial-cache.cmake" ] && [ -f "$O/$p/CMakePresets.json" ] &&
		[ -x "$O/$p/setup.sh" ] && [ -f "$O/$p/plan.json" ] && [ -f "$O/$p/Dockerfile" ]
	t_ok $? "$p/: env, CMake cache and presets, setup.sh, plan.json, Dockerfile"
	[ ! -e "$O/$p/docker-bake.hcl" ] && [ ! -e "$O/$p/.github" ]
	t_ok $? "$p/: no bake file or workflow of its own (the fleet's are at the top)"
done
like "$(cat "$T_DIR/err")" "*note: no Docker target or CI job for the Jetson build 'jetson' (jetson-orin)*build on a Jetson with jetson/setup.sh*" \
	"the Jetson build gets a note instead of a Docker target"
like "$(cat "$T_DIR/err")" "*warning: plan x86_64: node 'l4-workstation': *?driver-minor-compat? (node l4-workstation)*" \
	"each build's problems are reported with its platform and node"
like "$(cat "$T_DIR/err")" "*note: x86_64, sbsa, jetson: the base image ubuntu:22.04 is pinned by tag only*" \
	"a note every build has is said once, naming the builds"

# Each build alone, from the same fleet document: the same bytes.
"$PTBUILD" plan --facts "$D" --json >"$T_DIR/fleet.json"
is "$?" 0 "plan --json for the same fleet"
cmp -s "$T_DIR/fleet.json" "$O/fleet.json"
t_ok $? "fleet.json at the top is the fleet document 'plan --json' writes"
i=0
for p in $PLATFORMS; do
	python3 - "$T_DIR/fleet.json" "$i" "$p" >"$T_DIR/b$i.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
i = int(sys.argv[2])
assert d["targets"][i]["platform"] == sys.argv[3], d["targets"][i]["platform"]
print(json.dumps(d["builds"][i], indent=2))
PY
	run "$PTBUILD" generate --plan "$T_DIR/b$i.json" --out "$T_DIR/single-$p" \
		--format env,envrc,docker-env,github-env,cmake,presets,dockerfile,setup
	is "$rc" 0 "$p: generate --plan for its build alone"
	cmp "$T_DIR/single-$p/ptbuild.env" "$O/$p/ptbuild.env" >"$T_DIR/cmp" 2>&1
	t_ok $? "$p/ptbuild.env equals what generate writes for the $p plan alone, byte for byte"
	cmp "$T_DIR/single-$p/initial-cache.cmake" "$O/$p/initial-cache.cmake" >"$T_DIR/cmp" 2>&1
	t_ok $? "$p/initial-cache.cmake: byte for byte the same"
	diff -r "$T_DIR/single-$p" "$O/$p" >"$T_DIR/diff" 2>&1
	t_ok $? "$p/: every file (and .ptbuild-generated) the same as for the plan alone"
	head -5 "$T_DIR/diff" | sed 's/^/# /'
	i=$((i + 1))
done
is "$(sed -n 's/^export TORCH_CUDA_ARCH_LIST=//p' "$O/x86_64/ptbuild.env")" "'8.9;9.0+PTX'" "x86_64/ptbuild.env: the L4's and H100's arch list"
is "$(sed -n 's/^export TORCH_CUDA_ARCH_LIST=//p' "$O/sbsa/ptbuild.env")" "'8.0;9.0+PTX'" "sbsa/ptbuild.env: the A100's and GH200's arch list"

# The bake file, as HashiCorp's HCL parser reads it.
if [ -n "$npm_root" ] && [ -d "$npm_root/@cdktf/hcl2json" ]; then
	NODE_PATH="$npm_root" node -e '
const {parse} = require("@cdktf/hcl2json"); const fs = require("fs");
const dir = process.argv[1];
parse("docker-bake.hcl", fs.readFileSync(dir + "/docker-bake.hcl", "utf8")).then(j => {
  const t = j.target;
  const want = {x86_64: "linux/amd64", sbsa: "linux/arm64"};
  if (JSON.stringify(j.group.default[0].targets) !== "[\"x86_64\",\"sbsa\"]") throw "group: " + JSON.stringify(j.group);
  if (JSON.stringify(Object.keys(t).sort()) !== "[\"sbsa\",\"x86_64\"]") throw "targets: " + Object.keys(t);
  for (const name in want) {
    const x = t[name][0];
    if (JSON.stringify(x.platforms) !== JSON.stringify([want[name]])) throw name + " platforms " + x.platforms;
    // the parser keeps HCL template escapes; bake reads $${ as ${
    const inline = x["dockerfile-inline"].replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{");
    if (inline !== fs.readFileSync(dir + "/" + name + "/Dockerfile", "utf8")) throw name + ": dockerfile-inline is not " + name + "/Dockerfile";
    if (!x.output[0].endsWith("/" + name)) throw name + " output " + x.output;
  }
  console.log("ok");
}).catch(e => { console.error(String(e)); process.exit(1); });' "$O" >"$T_DIR/hcl" 2>&1
	t_ok $? "docker-bake.hcl parses with HashiCorp's HCL parser: targets x86_64 (linux/amd64) and sbsa (linux/arm64), each with its build's Dockerfile, none for the Jetson"
	grep -v '^ok$' "$T_DIR/hcl" | sed 's/^/# /'
else
	skip "docker-bake.hcl" "@cdktf/hcl2json not installed (npm install -g @cdktf/hcl2json)"
fi

# The workflow, as PyYAML reads it: the matrix over the same platforms.
if python3 -c 'import yaml' 2>/dev/null; then
	python3 - "$O/.github/workflows/ptbuild.yml" "$O/fleet.json" >"$T_DIR/yaml" 2>&1 <<'PY'
import json, sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
inc = w["jobs"]["build"]["strategy"]["matrix"]["include"]
assert [m["platform"] for m in inc] == ["x86_64", "sbsa"], inc
assert [m["docker_platform"] for m in inc] == ["linux/amd64", "linux/arm64"], inc
assert [m["runner"] for m in inc] == ["ubuntu-24.04", "ubuntu-24.04-arm"], inc
for m in inc:
    i = [t["platform"] for t in d["targets"]].index(m["platform"])
    assert m["arch_list"] == d["builds"][i]["torch_cuda_arch_list"], (m, i)
assert w["env"]["PTBUILD_OUT"] == "out", w["env"]
runs = " ".join(s.get("run", "") for s in w["jobs"]["build"]["steps"])
assert 'ptbuild fetch --plan "$PTBUILD_OUT/${{ matrix.platform }}/plan.json"' in runs, runs
assert 'docker buildx bake -f "$PTBUILD_OUT/docker-bake.hcl" "${{ matrix.platform }}"' in runs, runs
assert runs.index("ptbuild validate") < runs.index("docker buildx bake")
print("ok")
PY
	t_ok $? "the workflow parses as YAML: a matrix over x86_64 and sbsa with their arch lists; fetch, validate, then bake that target"
	grep -v '^ok$' "$T_DIR/yaml" | sed 's/^/# /'
else
	skip "workflow YAML" "python3-yaml is not installed"
fi

# The saved fleet document renders the same, byte for byte.
(cd "$T_DIR/b" && "$PTBUILD" generate --plan "$O/fleet.json" --out out) >/dev/null 2>"$T_DIR/err2"
is "$?" 0 "generate --plan fleet.json: exit 0"
diff -r "$O" "$T_DIR/b/out" >"$T_DIR/diff" 2>&1
t_ok $? "... every file the same as generated from the facts"
head -5 "$T_DIR/diff" | sed 's/^/# /'

# Again: nothing changes.
(cd "$T_DIR/a" && "$PTBUILD" generate --facts "$D" --out out) >"$T_DIR/out" 2>/dev/null
is "$?" 0 "a second run: exit 0"
is "$(grep -vc '^unchanged ' "$T_DIR/out")" 0 "... every file unchanged"

# A file ptbuild did not write, in a build's directory, is kept.
printf 'FROM scratch\n' >"$O/sbsa/Dockerfile"
rm "$O/x86_64/ptbuild.env"
(cd "$T_DIR/a" && "$PTBUILD" generate --facts "$D" --out out) >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 1 "a foreign sbsa/Dockerfile: exit 1"
is "$(cat "$O/sbsa/Dockerfile")" "FROM scratch" "... kept byte for byte"
like "$(cat "$T_DIR/err")" "*skipped 'out/sbsa/Dockerfile': changed since ptbuild wrote it (use --force to replace it)*" "... named with the fix"
cmp -s "$O/x86_64/ptbuild.env" "$T_DIR/single-x86_64/ptbuild.env"
t_ok $? "... the other builds' files are still written"

# Malformed fleet documents: exit 2, the file and key named, nothing written.
bad_fleet() { # NAME PYTHON-STATEMENT-ON-d
	python3 - "$T_DIR/fleet.json" "$2" >"$T_DIR/bad-$1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
print(json.dumps(d))
PY
	run "$PTBUILD" generate --plan "$T_DIR/bad-$1.json" --out "$T_DIR/bad-$1"
}
bad_fleet cuda 'd["builds"][1]["cuda"]["version"] = "12.6; rm -rf ~"'
is "$rc" 2 "a build with a hostile CUDA version: exit 2"
like "$err" "*'$T_DIR/bad-cuda.json' is not a valid fleet plan: key 'builds?1?.cuda.version': expected *" \
	"... naming the file and the build's key"
[ ! -e "$T_DIR/bad-cuda" ]
t_ok $? "... nothing written"
bad_fleet path 'd["targets"][0]["platform"] = "../x86_64"'
is "$rc" 2 "a target platform that leaves --out: exit 2"
like "$err" "*key 'targets?0?.platform': expected a platform name*" "... naming the key"
[ ! -e "$T_DIR/x86_64" ] && [ ! -e "$T_DIR/bad-path" ]
t_ok $? "... nothing written"
bad_fleet dup 'd["targets"][1]["platform"] = "x86_64"'
is "$rc" 2 "two targets of one platform: exit 2"
like "$err" "*key 'targets?1?.platform': expected a platform no other target has*" "... naming the key"
bad_fleet count 'd["targets"].pop()'
is "$rc" 2 "fewer targets than builds: exit 2"
like "$err" "*key 'targets': expected an array of one target per build*" "... naming the key"
bad_fleet swap 'd["targets"][0]["platform"], d["targets"][1]["platform"] = "sbsa", "x86_64"'
is "$rc" 2 "a target whose build's CUDA is for another platform: exit 2"
like "$err" "*targets?0? is for platform 'sbsa' but its build's CUDA is for 'linux-x86_64'*" "... saying which"
[ ! -e "$T_DIR/bad-swap" ]
t_ok $? "... nothing written"
bad_fleet schema 'd["builds"][0]["schema"] = "ptbuild.plan/0"'
is "$rc" 2 "a build that is not a plan: exit 2"
like "$err" "*key 'builds?0?.schema': expected \"ptbuild.plan/1\"*" "... naming the key"
printf '{"schema": "ptbuild.fleet/1", "builds": [' >"$T_DIR/cut.json"
run "$PTBUILD" generate --plan "$T_DIR/cut.json" --out "$T_DIR/cut"
is "$rc" 2 "a cut-off fleet file: exit 2"
like "$err" "*$T_DIR/cut.json*" "... naming it"
[ ! -e "$T_DIR/cut" ]
t_ok $? "... nothing written"

# fetch takes the fleet document too (t0803 fetches a fleet for real):
# each build's items under its platform, into PREFIX/PLATFORM.
run "$PTBUILD" fetch --plan "$O/fleet.json" --dry-run --prefix "$T_DIR/cuda" --cache "$T_DIR/fc"
is "$rc" 0 "fetch --plan fleet.json --dry-run: exit 0"
like "$out" "x86_64: CUDA 12.6 (download) for dgx-h100, l4-workstation*would fetch * for linux-x86_64 into $T_DIR/cuda/x86_64*sbsa: CUDA 12.6 (download) for altra-a100, gh200*would fetch * for linux-sbsa into $T_DIR/cuda/sbsa*jetson: CUDA 12.6 (installed) for jetson-orin*" \
	"... each build under its platform, into PREFIX/PLATFORM"
run "$PTBUILD" fetch --plan "$O/x86_64/plan.json" --dry-run --prefix "$T_DIR/cuda" --cache "$T_DIR/fc"
is "$rc" 0 "fetch --plan x86_64/plan.json --dry-run: exit 0"
is "$(printf '%s\n' "$out" | head -n 1)" "$(printf '%s\n' "$out" | sed -n "1s|would fetch .* into $T_DIR/cuda\$|&|p")" "... one build's plan alone into PREFIX itself"
run "$PTBUILD" fetch --facts "$D/gh200.json" --facts "$D/altra-a100.json" --dry-run --cache "$T_DIR/fc"
is "$rc" 0 "fetch with two --facts (one sbsa build): exit 0"
like "$out" "sbsa: CUDA 12.6 (download) for altra-a100, gh200*would fetch * for linux-sbsa into the cache*" "... that build's items"
run "$PTBUILD" validate --facts "$D" --compile-only --cuda-home "$T_DIR/nowhere"
like "$rc" "[015]" "validate with a directory of facts: no longer a usage error (exit $rc)"
like "$out" "*== build x86_64: CUDA 12.6, TORCH_CUDA_ARCH_LIST=8.9;9.0+PTX, for dgx-h100 l4-workstation*== build sbsa: *== build jetson: *3 builds: *" "... every build of the fleet validated or named"

done_testing
