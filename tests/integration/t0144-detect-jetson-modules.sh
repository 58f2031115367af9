#!/bin/sh
# t0144-detect-jetson-modules.sh - every Jetson module, from the strings a
# real one shows: detect names the module and its GPU from the device
# tree (model and compatible of Linux's arch/arm64/boot/dts/nvidia device
# trees, and the fixtures' Orin and Thor), and with the compatible
# unreadable -- no SoC, so no GPU -- plan still takes the module's GPU for
# the arch list from the model string alone (data/jetson.lua keywords).
# The Jetson TX1 (Tegra X1, 5.3, JetPack 4) is one of them.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# sysroot DIR MODEL COMPATIBLE L4T: a Jetson's device tree (COMPATIBLE
# space-separated, empty: no compatible file) and nv_tegra_release
sysroot() {
	mkdir -p "$1/proc/device-tree" "$1/etc"
	printf '%s\0' "$2" >"$1/proc/device-tree/model"
	if [ -n "$3" ]; then
		for c in $3; do printf '%s\0' "$c"; done >"$1/proc/device-tree/compatible"
	fi
	printf '# R%s (release), REVISION: %s, GCID: 1, BOARD: generic, EABI: aarch64, DATE: Mon Jan 1 00:00:00 UTC 2024\n' \
		"${4%%.*}" "${4#*.}" >"$1/etc/nv_tegra_release"
}
# FILE: "module|GPU compute capability|number of GPUs"
jfacts() {
	python3 -c 'import json, sys; f = json.load(open(sys.argv[1])); g = f.get("gpus") or []
print("%s|%s|%d" % (f["jetson"].get("module"), g[0]["compute_capability"] if g else "-", len(g)))' "$1"
}

i=0
while IFS='|' read -r model compat l4t cuda module cc; do
	[ -n "$model" ] || continue
	i=$((i + 1))
	sysroot "$T_DIR/full$i" "$model" "$compat" "$l4t"
	"$PTBUILD" detect --sysroot "$T_DIR/full$i" --json >"$T_DIR/f$i.json" 2>/dev/null
	is "$(jfacts "$T_DIR/f$i.json")" "$module|$cc|1" "'$model' ($compat): $module, GPU $cc"
	# the compatible unreadable: no SoC, no GPU; the model string is all
	sysroot "$T_DIR/model$i" "$model" "" "$l4t"
	"$PTBUILD" detect --sysroot "$T_DIR/model$i" --json >"$T_DIR/m$i.json" 2>/dev/null
	is "$(jfacts "$T_DIR/m$i.json" | cut -d'|' -f2-)" "-|0" "... without its compatible: no GPU seen"
	run "$PTBUILD" plan --facts "$T_DIR/m$i.json" --torch 2.9 --cuda "$cuda"
	like "$out" "*arch_list      $cc+PTX
*the Jetson module's GPU*" "... plan's arch list is the module's GPU: $cc+PTX"
done <<'EOF2'
NVIDIA Jetson TX1 Developer Kit|nvidia,p2371-2180 nvidia,tegra210|32.7.4|12.6|Jetson TX1|5.3
NVIDIA Jetson Nano Developer Kit|nvidia,p3450-0000 nvidia,tegra210|32.7.4|12.6|Jetson Nano|5.3
NVIDIA Jetson TX2 Developer Kit|nvidia,p2771-0000 nvidia,tegra186|32.7.4|12.6|Jetson TX2 Developer Kit|6.2
NVIDIA Jetson AGX Xavier Developer Kit|nvidia,p2972-0000 nvidia,tegra194|35.4.1|12.6|Jetson AGX Xavier|7.2
NVIDIA Jetson Xavier NX Developer Kit|nvidia,p3509-0000+p3668-0000 nvidia,tegra194|35.4.1|12.6|Jetson Xavier NX|7.2
NVIDIA Jetson AGX Orin Developer Kit|nvidia,p3737-0000+p3701-0005 nvidia,p3701-0005 nvidia,tegra234 nvidia,tegra23x|36.4.3|12.6|Jetson AGX Orin (64GB)|8.7
NVIDIA Jetson Orin Nano Developer Kit|nvidia,p3768-0000+p3767-0005 nvidia,p3767-0005 nvidia,tegra234|36.4.3|12.6|Jetson Orin Nano|8.7
NVIDIA Jetson Orin Nano Engineering Reference Developer Kit Super|nvidia,p3768-0000+p3767-0005 nvidia,p3767-0005 nvidia,tegra234|36.4.3|12.6|Jetson Orin Nano|8.7
NVIDIA Jetson AGX Thor Developer Kit|nvidia,p4071-0000+p3834-0008 nvidia,p3834-0008 nvidia,tegra264|38.2.0|13.0|Jetson AGX Thor Developer Kit|11.0
EOF2

done_testing
