#!/bin/sh
# t0157-plan-jetson-driver.sh - on a Jetson every driver advice goes
# through the Jetson rule (lib/checks jetson_driver): its driver comes
# with its JetPack (L4T), so a driver too old for the chosen CUDA, or one
# that runs it only by minor-version compatibility, is mended by the
# first JetPack whose driver runs it, or by a CUDA this Jetson runs --
# never by a desktop driver ("install driver 570.26 or newer").  Plan,
# doctor of a machine with that toolkit, and a fleet plan alike; also the
# newer CUDA a gcc-too-new fix names.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cd "$top_srcdir" || exit 1
mkdir -p "$T_DIR/empty"

# jetson NAME PROFILE L4T DRIVER CUDA_MAX: a Jetson profile with that L4T
# and driver
jetson() {
	json_edit "recipes/profiles/$2.json" "$T_DIR/$1.json" "
f['jetson']['l4t'] = '$3'
f['driver'] = {'version': '$4', 'cuda_max': '$5'}"
}
# with_toolkit IN OUT CUDA: the facts with only that toolkit installed
with_toolkit() {
	json_edit "$T_DIR/$1.json" "$T_DIR/$2.json" "
plat = 'aarch64-linux' if '$3' < '13' else 'sbsa-linux'
f['toolkits'] = [{'root': '/usr/local/cuda-$3', 'version': '$3.0', 'target': plat}]"
}
# desktop FILE: every fix or message of a plan, doctor or fleet document
# that sends a Jetson to a desktop driver
desktop() {
	python3 -c 'import json, re, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit(print("unreadable " + sys.argv[1]))
xs = d.get("problems", []) + d.get("findings", [])
for b in d.get("builds", []): xs += b.get("problems", [])
for n in d.get("nodes", []): xs += n.get("findings", [])
print("".join(x["code"] + ": " + x.get("fix", "") for x in xs
      if re.search(r"install (an r\d+ )?driver|driver \d[\d.]* or newer", x.get("fix", "") + x.get("message", ""))))' "$1"
}

# An Orin whose L4T is JetPack 5.1.4's (CUDA 11.4) beside a driver of
# CUDA 12.6 (the facts disagree: jetson-facts-disagree), asked for 12.8,
# which the driver runs only by minor-version compatibility
jetson orin514 jetson-orin 35.6.0 540.4.0 12.6
"$PTBUILD" plan --facts "$T_DIR/orin514.json" --cuda 12.8 --json >"$T_DIR/p.json" 2>/dev/null
like "$(findings "$T_DIR/p.json")" "* jetson-facts-disagree *" "Orin, L4T 35.6 beside a 12.6 driver: the facts disagree"
like "$(findings "$T_DIR/p.json" driver-minor-compat message)" \
	"driver 540.4.0 (CUDA 12.6 at most) runs CUDA 12.8 only through minor-version compatibility*; on a Jetson the driver comes with the JetPack (L4T 35.6.0, JetPack 5.1.4), not from NVIDIA's driver installers" \
	"... CUDA 12.8: the driver's answer says a Jetson's driver comes with its JetPack"
is "$(findings "$T_DIR/p.json" driver-minor-compat fix)" \
	"flash JetPack 6.0 (L4T 36.2), the first whose driver runs CUDA 12.8 (with NVIDIA's upgrade package), or use CUDA 12.2, the newest this Jetson runs, with PyTorch 2.13, the newest release that builds it: PyTorch 2.14 does not, its build needs CUDA 12.6 or newer (--torch 2.13 --cuda 12.2)" \
	"... its fix is the first JetPack that runs 12.8, or the newest CUDA JetPack 5.1.4 runs, with a PyTorch that builds it"
is "$(desktop "$T_DIR/p.json")" "" "... and nothing names a desktop driver"

# The same Orin whose driver is its JetPack's (CUDA 11.4), asked for 12.4:
# a driver too old, mended by a JetPack
jetson orin514a jetson-orin 35.6.0 510.0 11.4
"$PTBUILD" plan --facts "$T_DIR/orin514a.json" --torch 2.5 --cuda 12.4 --json >"$T_DIR/p.json" 2>/dev/null
is "$(findings "$T_DIR/p.json" driver-too-old fix)" \
	"flash JetPack 6.0 (L4T 36.2), the first whose driver runs CUDA 12.4 (with NVIDIA's upgrade package), or use CUDA 12.2, the newest this Jetson runs (--cuda 12.2)" \
	"Orin on JetPack 5.1.4 asked for 12.4: driver-too-old names JetPack 6.0, and 12.2 (its upgrade package)"
is "$(desktop "$T_DIR/p.json")" "" "... and nothing names a desktop driver"
with_toolkit orin514a orin514a-tk 12.4
"$PTBUILD" doctor --facts "$T_DIR/orin514a-tk.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
is "$(findings "$T_DIR/d.json" driver-too-old fix)" \
	"flash JetPack 6.0 (L4T 36.2), the first whose driver runs CUDA 12.4 (with NVIDIA's upgrade package), or use CUDA 12.2, the newest this Jetson runs, with PyTorch 2.13, the newest release that builds it: PyTorch 2.14 does not, its build needs CUDA 12.6 or newer (ptbuild plan --torch 2.13 --cuda 12.2)" \
	"... doctor of it with CUDA 12.4 installed: the same JetPack (and, as doctor judges the newest PyTorch, 2.13 for 12.2)"
is "$(desktop "$T_DIR/d.json")" "" "... and doctor names no desktop driver"
json_edit "$T_DIR/orin514a.json" "$T_DIR/node1.json" "f['host']['hostname'] = 'orin1'; f['host']['cores'] = 12"
json_edit "$T_DIR/orin514.json" "$T_DIR/node2.json" "f['host']['hostname'] = 'orin2'; f['host']['cores'] = 4"
"$PTBUILD" plan --facts "$T_DIR/node1.json" --facts "$T_DIR/node2.json" --torch 2.5 --cuda 12.4 --json >"$T_DIR/f.json" 2>/dev/null
like "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("".join(x["fix"] for b in d["builds"] for x in b["problems"] if x["code"].startswith("driver-")))' "$T_DIR/f.json")" \
	"*flash JetPack 6.0 (L4T 36.2), the first whose driver runs CUDA 12.4*" "... a fleet plan's Jetson node: the same JetPack"
is "$(desktop "$T_DIR/f.json")" "" "... and the fleet plan names no desktop driver"

# A Thor on an L4T ptbuild does not know, driver of CUDA 13.0, asked for
# 13.2: JetPack 7.2 (13.2 its own) is the way, not driver 595.45.04
jetson thor389 jetson-thor 38.9.0 580.00 13.0
"$PTBUILD" plan --facts "$T_DIR/thor389.json" --cuda 13.2 --json >"$T_DIR/p.json" 2>/dev/null
is "$(findings "$T_DIR/p.json" driver-minor-compat fix)" \
	"flash JetPack 7.2 (L4T 39.2), the first whose driver runs CUDA 13.2, or use CUDA 13.0, the newest this Jetson runs (--cuda 13.0)" \
	"Thor on an unknown L4T asked for 13.2: JetPack 7.2"
is "$(desktop "$T_DIR/p.json")" "" "... and nothing names a desktop driver"

# gcc-too-new's newer CUDA on a Jetson comes with a JetPack too
json_edit "$T_DIR/orin514a.json" "$T_DIR/gcc.json" "f['compilers'] = [{'name': 'gcc', 'version': '13.3.0', 'path': '/usr/bin/gcc'}]"
"$PTBUILD" plan --facts "$T_DIR/gcc.json" --torch 2.5 --cuda 11.8 --json >"$T_DIR/p.json" 2>/dev/null
like "$(findings "$T_DIR/p.json" gcc-too-new fix)" "*or use --cuda 12.4 with JetPack 6.0 (L4T 36.2), the first whose driver runs CUDA 12.4 (with NVIDIA's upgrade package) (driver 510.0 runs CUDA 11.4 at most)*" \
	"gcc 13 with CUDA 11.8 on a Jetson: the newer CUDA comes with JetPack 6.0"
is "$(desktop "$T_DIR/p.json")" "" "... and names no desktop driver"

# Off a Jetson nothing changes: a desktop driver is the fix
json_edit recipes/profiles/dgx-h100.json "$T_DIR/x86.json" "f['driver'] = {'version': '510.0', 'cuda_max': '11.4'}"
"$PTBUILD" plan --facts "$T_DIR/x86.json" --cuda 12.8 --json >"$T_DIR/p.json" 2>/dev/null
like "$(findings "$T_DIR/p.json" driver-too-old fix)" "install driver 525.60.13 or newer, the least that runs CUDA 12.8*" \
	"a DGX on driver 510 asked for 12.8: a desktop driver"

done_testing
