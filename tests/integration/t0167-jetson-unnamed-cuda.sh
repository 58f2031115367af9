#!/bin/sh
# t0167-jetson-unnamed-cuda.sh - where ptbuild lists the CUDAs a JetPack
# runs, a CUDA NVIDIA's upgrade table gives it only through an upgrade
# package no source ptbuild read names (13.3 on JetPack 7.2; 13.4 has
# cuda-compat-13-4, JetPack 6's have cuda-compat-12-X) is said to be
# that: jetson-facts-disagree's facts and fix, jetpack-too-old-for-cuda's
# JetPack to flash, the driver fix's JetPack, in plan and doctor alike.
# (Before, "it runs CUDA 13.2, 13.3, 13.4" offered 13.3 as if the JetPack
# ran it like the others.)
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cd "$top_srcdir" || exit 1
mkdir -p "$T_DIR/empty"
U="only through an NVIDIA upgrade package ptbuild cannot name"

# NAME|PROFILE|L4T|DRIVER-CUDA|CUDA|CODE|FIELD|GLOB|SOURCE: the profile on
# that L4T with a driver of that CUDA (580.00 as JetPack 7's), planned
# with that CUDA (and doctor with it installed); what CODE's FIELD says
while IFS='|' read -r name prof l4t dc cuda code field glob src; do
	[ -n "$name" ] || continue
	grep -q "\[\"$src\"\] = {\|^  $src = {" recipes/data/sources.lua
	t_ok $? "$name: its source [$src] resolves in recipes/data/sources.lua"
	json_edit "recipes/profiles/$prof.json" "$T_DIR/$name.json" "
f['jetson']['l4t'] = '$l4t'
f['driver'] = {'version': '580.00', 'cuda_max': '$dc'}
plat = 'sbsa-linux' if '$cuda' >= '13' else 'aarch64-linux'
f['toolkits'] = [{'root': '/usr/local/cuda-$cuda', 'version': '$cuda.0', 'target': plat}]"
	"$PTBUILD" plan --facts "$T_DIR/$name.json" --cuda "$cuda" --json >"$T_DIR/p.json" 2>/dev/null
	"$PTBUILD" doctor --facts "$T_DIR/$name.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
	p=$(findings "$T_DIR/p.json" "$code" "$field")
	like "$p" "$glob" "$name, plan --cuda $cuda: $code's $field"
	# doctor says the same where it raises the code (its driver answer
	# is driver-too-old, its commands 'ptbuild plan --cuda')
	dcode=$code
	[ "$code" = driver-minor-compat ] && dcode=driver-too-old
	d=$(findings "$T_DIR/d.json" "$dcode" "$field")
	[ -z "$d" ] && [ "$code" = jetpack-too-old-for-cuda ] && continue
	like "$d" "$glob" "$name, doctor with CUDA $cuda installed: $dcode's $field alike"
done <<TABLE
thor72d0|jetson-thor|39.2.0|13.0|13.0|jetson-facts-disagree|message|*L4T 39.2.0 is JetPack 7.2, whose driver is CUDA 13.2's (it runs CUDA 13.2, 13.3 ($U), 13.4), but the driver (580.00) reports CUDA 13.0*|tegra-upgrade
thor70-13.3|jetson-thor|38.2.0|13.0|13.3|jetpack-too-old-for-cuda|fix|*flash JetPack 7.2 (L4T 39.2), which runs CUDA 13.2, 13.3 ($U), 13.4*|tegra-upgrade
thor389-13.3|jetson-thor|38.9.0|13.0|13.3|driver-minor-compat|fix|flash JetPack 7.2 (L4T 39.2), the first whose driver runs CUDA 13.3 ($U), or use CUDA 13.0, the newest this Jetson runs (*--cuda 13.0)|tegra-upgrade
thor389-13.4|jetson-thor|38.9.0|13.0|13.4|driver-minor-compat|fix|flash JetPack 7.2 (L4T 39.2), the first whose driver runs CUDA 13.4 (with NVIDIA's upgrade package), or use CUDA 13.0, the newest this Jetson runs (*--cuda 13.0)|tegra-upgrade
orin62a|jetson-orin|36.4.3|13.0|12.6|jetson-facts-disagree|fix|*(JetPack 6.2 runs CUDA 12.6, 12.8, 12.9); set right*|tegra-upgrade
TABLE

done_testing
