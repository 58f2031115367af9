#!/bin/sh
# t0147-jetson-answers.sh - what plan and doctor tell a Jetson, for the
# same machine, in the same words.  An Orin with an SBSA CUDA toolkit it
# does not run hears from both the way plan names (JetPack 7.2, L4T 39,
# and the CUDA Compatibility Package (Orin) from 13.4), decided once in
# lib/checks.lua orin_sbsa_route.  A CUDA the JetPack runs only through
# an upgrade package ptbuild names none of is answered with the CUDAs it
# runs without one (its own, and those whose package ptbuild names).  A
# JetPack wheel says whose it is, PyTorch's own wheels that they are
# download.pytorch.org's.  A Jetson whose L4T is ahead of its driver
# hears both facts whatever the CUDA: as the driver problem where the
# driver does not run it directly, else as jetson-facts-disagree.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cd "$top_srcdir" || exit 1
mkdir -p "$T_DIR/empty"

# jetson NAME PROFILE L4T [TOOLKIT] [CUDA_MAX]: the profile's facts on that
# L4T; TOOLKIT: an SBSA toolkit of that version in /usr/local/cuda-X.Y,
# first among the toolkits (the one doctor takes); CUDA_MAX: what the
# driver reports as the newest CUDA it runs
jetson() {
	json_edit "recipes/profiles/$2.json" "$T_DIR/$1.json" "
f.pop('profile', None)
f['jetson']['l4t'] = '$3'
v = '${4-}'
if v:
    root = '/usr/local/cuda-' + '.'.join(v.split('.')[:2])
    f['toolkits'] = [{'root': root, 'version': v, 'source': 'test', 'nvcc': root + '/bin/nvcc',
                      'cudnn': None, 'nccl': None, 'target': 'sbsa-linux'}] + (f.get('toolkits') or [])
m = '${5-}'
if m:
    f['driver'] = {'version': '580.00', 'cuda_max': m}"
}
# said FILE problems|findings CODE: the message, a tab and the fix of the
# first entry of that code, or nothing
said() {
	python3 - "$@" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1])).get(sys.argv[2]) or []:
    if p["code"] == sys.argv[3]:
        print(p["message"] + "\t" + p["fix"])
        break
PY
}

jetson orin36 jetson-orin 36.4.3 13.4.0     # JetPack 6.2 with an SBSA 13.4 beside its 12.6
jetson orin36x jetson-orin 36.4.3 13.0.88   # JetPack 6.2 with an SBSA 13.0
jetson orin39 jetson-orin 39.2.0 13.0.88    # JetPack 7.2 with an SBSA 13.0

# FACTS CUDA FIX: plan (with that CUDA) and doctor (with that toolkit in
# use) raise jetson-orin-needs-cuda-13.2 alike, and its fix is FIX (a glob)
while read -r facts cuda fix; do
	"$PTBUILD" plan --facts "$T_DIR/$facts.json" --cuda "$cuda" --json >"$T_DIR/p.json" 2>/dev/null
	"$PTBUILD" doctor --facts "$T_DIR/$facts.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
	p=$(said "$T_DIR/p.json" problems jetson-orin-needs-cuda-13.2)
	d=$(said "$T_DIR/d.json" findings jetson-orin-needs-cuda-13.2)
	like "$p" "*	$fix" "$facts, plan --cuda $cuda: jetson-orin-needs-cuda-13.2, fix '$fix'"
	# doctor names the CUDA to take as a plan to make, not as a bare option
	is "$(printf '%s\n' "$d" | sed 's/(ptbuild plan --cuda /(--cuda /g')" "$p" \
		"$facts, doctor with CUDA $cuda in use: the same problem and fix"
	# no package or driver helps a CUDA this Orin runs not at all: no
	# driver-* problem offers one beside it
	is "$(said "$T_DIR/p.json" problems driver-minor-compat)$(said "$T_DIR/p.json" problems driver-too-old)" "" \
		"$facts, plan --cuda $cuda: no driver problem offers an upgrade package or a driver"
	is "$(said "$T_DIR/d.json" findings driver-too-old)" "" \
		"$facts, doctor with CUDA $cuda in use: likewise"
done <<'TABLE'
orin36 13.4 use JetPack 6.2's CUDA 12.6 (--cuda 12.6), or flash JetPack 7.2 and use CUDA 13.4 with the CUDA Compatibility Package (Orin) 13.4.47145772
orin36x 13.0 use JetPack 6.2's CUDA 12.6 (--cuda 12.6), or flash JetPack 7.2 and use CUDA 13.2
orin39 13.0 use CUDA 13.2 or newer (--cuda 13.2): this JetPack runs Orin on the SBSA toolkit from CUDA 13.2
TABLE

# A CUDA JetPack 7.2 runs only through a package ptbuild cannot name
# (13.5, past NVIDIA's table): the fix names the CUDAs it runs with its
# own driver or a named package, from the data (lib/toolkit jetson_named)
jetson thor72 jetson-thor 39.2.0 13.5.0 13.2    # JetPack 7.2, its driver CUDA 13.2's
jetson orin72 jetson-orin 39.2.0 13.5.0 13.2
# and a Thor whose L4T says JetPack 7.2 while its driver says CUDA 13.0:
# one problem that names both facts and the driver as the one trusted
jetson thor72d jetson-thor 39.2.0 13.2.78 13.0
jetson thor72d4 jetson-thor 39.2.0 13.4.1 13.0
jetson thor72d0 jetson-thor 39.2.0 13.0.48 13.0   # ... with the driver's CUDA 13.0 in use
# FACTS CUDA PLAN-CODE DOCTOR-CODE FIX
while read -r facts cuda pcode dcode fix; do
	"$PTBUILD" plan --facts "$T_DIR/$facts.json" --cuda "$cuda" --json >"$T_DIR/p.json" 2>/dev/null
	"$PTBUILD" doctor --facts "$T_DIR/$facts.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
	p=$(said "$T_DIR/p.json" problems "$pcode")
	d=$(said "$T_DIR/d.json" findings "$dcode")
	like "$p" "*	$fix" "$facts, plan --cuda $cuda: $pcode, fix '$fix'"
	is "$(printf '%s\n' "$d" | sed 's/(ptbuild plan --cuda /(--cuda /g')" "$p" \
		"$facts, doctor with CUDA $cuda in use: $dcode, the same message and fix"
done <<'TABLE'
thor72 13.5 driver-minor-compat driver-too-old *, or use CUDA 13.2 or 13.4, which JetPack 7.2 runs with its own driver or an upgrade package ptbuild names (--cuda 13.4)
orin72 13.5 driver-minor-compat driver-too-old *, or use CUDA 13.2 or 13.4, which JetPack 7.2 runs with its own driver or an upgrade package ptbuild names (--cuda 13.4)
thor72d 13.2 driver-minor-compat driver-too-old compare /etc/nv_tegra_release with 'cat /proc/driver/nvidia/version', then finish the JetPack 7.2 upgrade and reboot into it (it runs CUDA 13.2), or use CUDA 13.0, the newest this driver runs (--cuda 13.0)
thor72d4 13.4 driver-minor-compat driver-too-old compare /etc/nv_tegra_release with 'cat /proc/driver/nvidia/version', then finish the JetPack 7.2 upgrade and reboot into it (it runs CUDA 13.4), or use CUDA 13.0, the newest this driver runs (--cuda 13.0)
thor72d0 13.0 jetson-facts-disagree jetson-facts-disagree compare /etc/nv_tegra_release with 'cat /proc/driver/nvidia/version', then finish the JetPack 7.2 upgrade and reboot into it, or use CUDA 13.0, the newest this driver runs (--cuda 13.0)
TABLE
# A CUDA the driver runs directly (its own 13.0, given or chosen) leaves
# the machine half-upgraded all the same: a warning with both facts, the
# same fix, and the plan's choice of CUDA said to be the driver's
json_edit "$T_DIR/thor72d.json" "$T_DIR/thor72dn.json" "f['toolkits'] = []"
for args in "--cuda 13.0" ""; do
	# shellcheck disable=SC2086
	"$PTBUILD" plan --facts "$T_DIR/thor72dn.json" $args --json >"$T_DIR/p.json" 2>/dev/null
	like "$(said "$T_DIR/p.json" problems jetson-facts-disagree)" \
		"the facts disagree: L4T 39.2.0 is JetPack 7.2, whose driver is CUDA 13.2's (it runs CUDA 13.2, 13.3 (only through an NVIDIA upgrade package ptbuild cannot name), 13.4), but the driver (580.00) reports CUDA 13.0 at most; ptbuild trusts the driver*: by the driver, CUDA 13.0 runs here directly*	compare /etc/nv_tegra_release with 'cat /proc/driver/nvidia/version', then finish the JetPack 7.2 upgrade*" \
		"plan ${args:-choosing}: jetson-facts-disagree with both facts and the fix"
	like "$(python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["cuda"]; print(c["version"], c["why"])' "$T_DIR/p.json")" \
		"13.0 *; judged by the driver, which reports CUDA 13.0 at most, not by L4T 39.2.0's JetPack 7.2 (CUDA 13.2), as the facts disagree*" \
		"plan ${args:-choosing}: CUDA 13.0, judged by the driver, so said"
done
"$PTBUILD" plan --facts "$T_DIR/thor72d0.json" --cuda 13.0 >"$T_DIR/p.txt" 2>&1
is "$?" 0 "a warning only: plan --cuda 13.0 exits 0"
# the facts that disagree, both named, in the one driver problem of each
for facts in thor72d:13.2 thor72d4:13.4; do
	cuda=${facts#*:} facts=${facts%:*}
	"$PTBUILD" plan --facts "$T_DIR/$facts.json" --cuda "$cuda" --json >"$T_DIR/p.json" 2>/dev/null
	like "$(said "$T_DIR/p.json" problems driver-minor-compat)" \
		"the facts disagree: L4T 39.2.0 is JetPack 7.2, whose driver is CUDA 13.2's (it runs CUDA 13.2, 13.3 (only through an NVIDIA upgrade package ptbuild cannot name), 13.4), but the driver (580.00) reports CUDA 13.0 at most; ptbuild trusts the driver*: by the driver, CUDA $cuda runs here only through minor-version compatibility*" \
		"$facts, --cuda $cuda: the L4T's JetPack and the driver's CUDA named, the driver trusted"
	is "$(python3 -c 'import json, sys; print(sum(p["code"].startswith("driver-") for p in json.load(open(sys.argv[1]))["problems"]))' "$T_DIR/p.json")" 1 \
		"$facts, --cuda $cuda: one driver problem, not a second that says either fact alone"
done
# A driver newer than every CUDA the L4T's JetPack runs: detect's CUDA is
# the first libcuda.so.1's (an upgrade package's on LD_LIBRARY_PATH) or
# the L4T file is behind; ptbuild cannot tell, says so and plans by the
# JetPack.  One the JetPack runs through its package (12.8 on JetPack
# 6.2) or past NVIDIA's table (13.5 on 7.2) is no disagreement.
jetson orin62a jetson-orin 36.4.3 "" 13.0     # JetPack 6.2, driver says 13.0
jetson thor70a jetson-thor 38.2.0 "" 13.2     # JetPack 7.0, driver says 13.2
jetson orin62c jetson-orin 36.4.3 "" 12.8     # JetPack 6.2, cuda-compat-12-8 loaded
jetson thor72n jetson-thor 39.2.0 "" 13.5     # JetPack 7.2, past the table
# FACTS JETPACK OWN RUNS DRIVER-CUDA
while read -r facts jp own runs dc; do
	"$PTBUILD" plan --facts "$T_DIR/$facts.json" --json >"$T_DIR/p.json" 2>/dev/null
	"$PTBUILD" doctor --facts "$T_DIR/$facts.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
	p=$(said "$T_DIR/p.json" problems jetson-facts-disagree)
	like "$p" "the facts disagree: L4T * is JetPack $jp, whose driver is CUDA $own's (it runs CUDA $runs), but the driver (580.00) reports CUDA $dc, which NVIDIA's upgrade table gives JetPack $jp no way to run; ptbuild cannot tell from what it reads which is right: *LD_LIBRARY_PATH*ptbuild plans by the L4T's JetPack*	compare /etc/nv_tegra_release with 'cat /proc/driver/nvidia/version' and look for a compat directory in 'echo \$LD_LIBRARY_PATH' (JetPack $jp runs CUDA $runs)*or keep to CUDA $own (--cuda $own)" \
		"$facts: the driver's CUDA $dc beside JetPack $jp, both named, neither guessed right"
	is "$(printf '%s\n' "$(said "$T_DIR/d.json" findings jetson-facts-disagree)" | sed 's/(ptbuild plan --cuda /(--cuda /g')" "${p:-none}" \
		"$facts: doctor says the same"
	like "$(python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["cuda"]; print(c["version"], c["why"])' "$T_DIR/p.json")" \
		"$own *; judged by L4T *'s JetPack $jp (CUDA $own), not by the driver's CUDA $dc, as the facts disagree*" \
		"$facts: the plan keeps to the JetPack's CUDA $own and says why"
done <<'TABLE'
orin62a 6.2 12.6 12.6,?12.8,?12.9 13.0
thor70a 7.0 13.0 13.0 13.2
TABLE
for facts in orin62c thor72n; do
	"$PTBUILD" plan --facts "$T_DIR/$facts.json" --json >"$T_DIR/p.json" 2>/dev/null
	"$PTBUILD" doctor --facts "$T_DIR/$facts.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
	is "$(said "$T_DIR/p.json" problems jetson-facts-disagree)$(said "$T_DIR/d.json" findings jetson-facts-disagree)" "" \
		"$facts: a driver CUDA the JetPack runs, or one past NVIDIA's table, is no disagreement"
done
# ... and asked for a CUDA 13 this Orin runs not at all (before L4T 39),
# neither an upgrade package nor a desktop driver is offered beside
# jetson-orin-needs-cuda-13.2: a Jetson's driver comes with its JetPack
"$PTBUILD" plan --facts "$T_DIR/orin62a.json" --cuda 13.2 --json >"$T_DIR/p.json" 2>/dev/null
is "$(said "$T_DIR/p.json" problems driver-minor-compat)$(said "$T_DIR/p.json" problems driver-too-old)" "" \
	"orin62a, plan --cuda 13.2: no driver problem offers a package or a driver"
like "$(said "$T_DIR/p.json" problems jetson-orin-needs-cuda-13.2)" "*flash JetPack 7.2 and use CUDA 13.2" \
	"orin62a, plan --cuda 13.2: jetson-orin-needs-cuda-13.2 gives the way out"

# a fleet node with those facts hears the same, led by its name
json_edit "$T_DIR/thor72.json" "$T_DIR/fa.json" "f['toolkits'] = []; f['taken'] = {'host': 'thor-a'}"
json_edit "$T_DIR/thor72d.json" "$T_DIR/fb.json" "f['toolkits'] = []; f['taken'] = {'host': 'thor-old'}"
# (on 13.0, which its driver runs directly, the warning that it disagrees)
for c in 13.2:driver-minor-compat 13.0:jetson-facts-disagree; do
	cuda=${c%%:*} code=${c#*:}
	"$PTBUILD" plan --facts "$T_DIR/fb.json" --cuda "$cuda" --json >"$T_DIR/p.json" 2>/dev/null
	"$PTBUILD" plan --facts "$T_DIR/fa.json" --facts "$T_DIR/fb.json" --cuda "$cuda" --json >"$T_DIR/f.json" 2>/dev/null
	python3 - "$T_DIR/f.json" "$T_DIR/fl.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["builds"][0]
json.dump({"problems": [x for x in b["problems"] if x.get("node") == "thor-old"]}, open(sys.argv[2], "w"))
PY
	p=$(said "$T_DIR/p.json" problems "$code")
	is "$(said "$T_DIR/fl.json" problems "$code")" "node 'thor-old': ${p:-none}" \
		"fleet, --cuda $cuda: thor-old's $code is its own plan's, led by its name"
done

# Two true statements that must not read as one contradiction: PyTorch's
# own index has no CUDA 12.6 wheel of torch 2.5, the Jetson AI Lab's (or
# NVIDIA's) JetPack wheel of it is CUDA 12.6.  Each says whose wheels.
run "$PTBUILD" plan --profile jetson-orin --torch 2.5
like "$out" "*the Jetson AI Lab's JetPack 6.2 wheel of torch 2.5.0 (Python 3.10, CUDA 12.6, arch list 8.7) covers every GPU*" \
	"Orin, torch 2.5: the JetPack wheel is named as the Jetson AI Lab's"
like "$out" "*PyTorch 2.5 ships no CUDA 12.6 wheels on download.pytorch.org (it ships 11.8, 12.1, 12.4)*" \
	"... and the wheels PyTorch does not ship are download.pytorch.org's"
like "$out" "*PyTorch 2.5's build accepts CUDA 12.6; download.pytorch.org has no wheel of it)*" \
	"... in the CUDA decision too"
unlike "$out" "*ships no CUDA 12.6 wheels (*" "... never a bare 'ships no CUDA 12.6 wheels'"
jetson orin60 jetson-orin 36.3.0
run "$PTBUILD" plan --facts "$T_DIR/orin60.json" --torch 2.4
like "$out" "*NVIDIA's JetPack 6.0 wheel of torch 2.4.0a0+07cecf4168.nv24.05.14710581 (Python 3.10, CUDA 12.2*" \
	"JetPack 6.0, torch 2.4: the wheel from NVIDIA's redist is named as NVIDIA's"

done_testing
