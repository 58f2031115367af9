#!/bin/sh
# t0166-jetson-keep-torch.sh - the Jetson driver fix's "use CUDA X, the
# newest this Jetson runs" (lib/checks jetson_driver) offers a CUDA the
# PyTorch release being planned builds (data/pytorch.lua: its CUDA range
# and cuda_build_min).  Where the release builds none the Jetson runs, it
# says so and names the newest release that builds X; and the JetPack to
# flash is one with a release for the module.  (Before, PyTorch 2.14,
# whose build needs CUDA 12.6, was told to use CUDA 12.2 on JetPack 5,
# and a Xavier to flash JetPack 6.0, which has no Xavier release.)
# Plan and doctor (of the newest release, with that CUDA installed) alike.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cd "$top_srcdir" || exit 1
mkdir -p "$T_DIR/empty"

# module x L4T x CUDA x PyTorch, the driver fix's words, and the source
# of the row (an id of recipes/data/sources.lua)
# NAME|PROFILE|CC|MODULE|L4T|DRIVER|DRIVER-CUDA|CUDA|TORCH|CODE|FIX|SOURCE
while IFS='|' read -r name prof cc module l4t dv dc cuda torch code fix src; do
	[ -n "$name" ] || continue
	grep -q "\[\"$src\"\] = {\|^  $src = {" recipes/data/sources.lua
	t_ok $? "$name: its source [$src] resolves in recipes/data/sources.lua"
	json_edit "recipes/profiles/$prof.json" "$T_DIR/$name.json" "
f['gpus'] = [{'index': 0, 'name': '$module', 'compute_capability': '$cc'}]
f['jetson'] = {'l4t': '$l4t', 'module': '$module'}
f['driver'] = {'version': '$dv', 'cuda_max': '$dc'}
f['toolkits'] = []"
	"$PTBUILD" plan --facts "$T_DIR/$name.json" --cuda "$cuda" --torch "$torch" --json >"$T_DIR/p.json" 2>/dev/null
	is "$(findings "$T_DIR/p.json" "$code" fix)" "$fix" "$name, plan --cuda $cuda --torch $torch: $code's fix"
	# doctor judges the newest release, with that CUDA installed
	[ "$torch" = 2.14 ] || continue
	json_edit "$T_DIR/$name.json" "$T_DIR/$name-tk.json" "
plat = 'sbsa-linux' if '$cuda' >= '13' else 'aarch64-linux'
f['toolkits'] = [{'root': '/usr/local/cuda-$cuda', 'version': '$cuda.0', 'target': plat}]"
	"$PTBUILD" doctor --facts "$T_DIR/$name-tk.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
	is "$(findings "$T_DIR/d.json" driver-too-old fix | sed 's/ptbuild plan --/--/g')" "$fix" \
		"$name, doctor with CUDA $cuda installed: the same fix"
done <<'TABLE'
orin514-2.14|jetson-orin|8.7|Jetson AGX Orin 64GB|35.6.0|510.0|11.4|12.8|2.14|driver-too-old|flash JetPack 6.0 (L4T 36.2), the first whose driver runs CUDA 12.8 (with NVIDIA's upgrade package), or use CUDA 12.2, the newest this Jetson runs, with PyTorch 2.13, the newest release that builds it: PyTorch 2.14 does not, its build needs CUDA 12.6 or newer (--torch 2.13 --cuda 12.2)|pt-cudamin
orin514-2.13|jetson-orin|8.7|Jetson AGX Orin 64GB|35.6.0|510.0|11.4|12.8|2.13|driver-too-old|flash JetPack 6.0 (L4T 36.2), the first whose driver runs CUDA 12.8 (with NVIDIA's upgrade package), or use CUDA 12.2, the newest this Jetson runs (--cuda 12.2)|pt-cudamin
orin514-2.5|jetson-orin|8.7|Jetson AGX Orin 64GB|35.6.0|510.0|11.4|12.4|2.5|driver-too-old|flash JetPack 6.0 (L4T 36.2), the first whose driver runs CUDA 12.4 (with NVIDIA's upgrade package), or use CUDA 12.2, the newest this Jetson runs (--cuda 12.2)|tegra-upgrade
xavier517|jetson-orin|7.2|Jetson AGX Xavier|35.6.5|510.0|11.4|12.4|2.14|driver-too-old|no JetPack ptbuild knows runs CUDA 12.4 on this Jetson: use CUDA 12.2, the newest this Jetson runs, with PyTorch 2.13, the newest release that builds it: PyTorch 2.14 does not, its build needs CUDA 12.6 or newer (--torch 2.13 --cuda 12.2)|jp517
xavier517-2.9|jetson-orin|7.2|Jetson AGX Xavier|35.6.5|510.0|11.4|12.9|2.9|driver-too-old|no JetPack ptbuild knows runs CUDA 12.9 on this Jetson: use CUDA 12.2, the newest this Jetson runs, with PyTorch 2.13, the newest release that builds it: PyTorch 2.9 may not, CUDA 12.2 is older than its oldest wheel CUDA (12.6), and ptbuild knows no source for the oldest CUDA its CMake accepts (--torch 2.13 --cuda 12.2)|pt-cudamin
xavier517-13.0|jetson-orin|7.2|Jetson AGX Xavier|35.6.5|510.0|11.4|13.0|2.13|jetson-module-too-old-for-cuda|use CUDA 12.2, the newest this Jetson runs (--cuda 12.2)|jetson-lineup
thor389-2.14|jetson-thor|11.0|Jetson AGX Thor Developer Kit|38.9.0|580.00|13.0|13.2|2.14|driver-minor-compat|flash JetPack 7.2 (L4T 39.2), the first whose driver runs CUDA 13.2, or use CUDA 13.0, the newest this Jetson runs (--cuda 13.0)|jp72
thor389-2.8|jetson-thor|11.0|Jetson AGX Thor Developer Kit|38.9.0|580.00|13.0|13.2|2.8|driver-minor-compat|flash JetPack 7.2 (L4T 39.2), the first whose driver runs CUDA 13.2, or use CUDA 13.0, the newest this Jetson runs, with PyTorch 2.14, the newest release that builds it: PyTorch 2.8 does not, it predates CUDA 13 (its newest CUDA is 12.9) (--torch 2.14 --cuda 13.0)|thor-cuda13
TABLE

# A Thor on an L4T ptbuild does not know, its driver of CUDA 12.6: a
# CUDA 12 is never the one to keep, as a Thor builds nothing before 13.0
json_edit recipes/profiles/jetson-thor.json "$T_DIR/thor12.json" "
f['jetson']['l4t'] = '38.9.0'
f['driver'] = {'version': '560.0', 'cuda_max': '12.6'}
f['toolkits'] = []"
"$PTBUILD" plan --facts "$T_DIR/thor12.json" --cuda 13.0 --json >"$T_DIR/p.json" 2>/dev/null
is "$(findings "$T_DIR/p.json" driver-too-old fix)" \
	"flash JetPack 7.0 (L4T 38.2), the first whose driver runs CUDA 13.0" \
	"thor on L4T 38.9 with a CUDA 12.6 driver: flash JetPack 7.0, no CUDA 12 to keep"

# A Xavier asked for a CUDA 13: no JetPack 7 has a release for it, so
# no flash is offered, only the CUDAs its own JetPack runs
json_edit recipes/profiles/jetson-orin.json "$T_DIR/xav13.json" "
f['gpus'] = [{'index': 0, 'name': 'Jetson AGX Xavier', 'compute_capability': '7.2'}]
f['jetson'] = {'l4t': '35.6.5', 'module': 'Jetson AGX Xavier'}
f['driver'] = {'version': '510.0', 'cuda_max': '11.4'}
f['toolkits'] = []"
for c in 13.0 13.2 13.4; do
	"$PTBUILD" plan --facts "$T_DIR/xav13.json" --cuda $c --torch 2.13 --json >"$T_DIR/p.json" 2>/dev/null
	like "$(findings "$T_DIR/p.json" jetson-module-too-old-for-cuda message)" \
		"*runs no SBSA CUDA: NVIDIA's SBSA toolkit runs on a Jetson only with JetPack 7 (L4T 38 and later), which has no release for the Jetson Xavier (its L4T releases: 32, 35); CUDA $c will not run here" \
		"xavier, CUDA $c: no JetPack 7 has a release for it"
	unlike "$(cat "$T_DIR/p.json")" "*flash JetPack 7*" "xavier, CUDA $c: no JetPack 7 to flash"
done

# toolkit-drops-gpu on a Jetson names a CUDA its JetPack runs, never a
# desktop one: CUDA 13 dropped the Xavier's 7.2, and 12.9, the last that
# builds it, does not run on JetPack 5 (12.2 at most).  On an L4T ptbuild
# does not know (35.9), the CUDAs of the module's last JetPack (5.1).
# Plan and doctor (that SBSA toolkit in use) alike.
# L4T|CUDA|TORCH|FIX
while IFS='|' read -r l4t c t fix; do
	json_edit tests/fixtures/facts/xavier-jp517.json "$T_DIR/xd.json" "
f['jetson']['l4t'] = '$l4t'"
	"$PTBUILD" plan --facts "$T_DIR/xd.json" --cuda "$c" --torch "$t" --json >"$T_DIR/p.json" 2>/dev/null
	is "$(findings "$T_DIR/p.json" toolkit-drops-gpu fix)" "$fix" "xavier on L4T $l4t, plan --cuda $c --torch $t: toolkit-drops-gpu's fix"
	[ "$t" = 2.14 ] || continue
	json_edit "$T_DIR/xd.json" "$T_DIR/xd-tk.json" "
f['toolkits'] = [{'root': '/usr/local/cuda-$c', 'version': '$c.0', 'target': 'sbsa-linux'}]"
	"$PTBUILD" doctor --facts "$T_DIR/xd-tk.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
	is "$(findings "$T_DIR/d.json" toolkit-drops-gpu fix | sed 's/ptbuild plan --/--/g')" "$fix" \
		"xavier on L4T $l4t, doctor with CUDA $c in use: the same fix"
done <<'TABLE'
35.6.5|13.0|2.13|use CUDA 12.2, the newest this Jetson runs (--cuda 12.2)
35.6.5|13.4|2.14|use CUDA 12.2, the newest this Jetson runs, with PyTorch 2.13, the newest release that builds it: PyTorch 2.14 does not, its build needs CUDA 12.6 or newer (--torch 2.13 --cuda 12.2)
35.9.0|13.0|2.13|use CUDA 12.2, the newest that JetPack 5.1, this module's last, runs (--cuda 12.2)
35.9.0|13.2|2.14|use CUDA 12.2, the newest that JetPack 5.1, this module's last, runs, with PyTorch 2.13, the newest release that builds it: PyTorch 2.14 does not, its build needs CUDA 12.6 or newer (--torch 2.13 --cuda 12.2)
TABLE

done_testing
