#!/bin/sh
# t0113-detect-cpu.sh - every real cpuinfo dump (tests/fixtures/cpuinfo,
# origins in tests/fixtures/README.md; the expected answers below are
# archspec's own detection run on each dump) gives the same archspec microarchitecture
# and the core name from util-linux's table.
. "$top_srcdir/tests/lib.sh"

CPU="$top_srcdir/tests/fixtures/cpuinfo"

while IFS='|' read -r file want core; do
	[ -n "$file" ] || continue
	root="$T_DIR/$file"
	mkdir -p "$root/proc"
	cp "$CPU/cpuinfo-$file.txt" "$root/proc/cpuinfo"
	facts=$(env -i PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$root" --json)
	got=$(printf '%s\n' "$facts" | sed -n 's/^ *"microarch": "\(.*\)",*$/\1/p')
	is "$got" "$want" "$file: microarch $want"
	# an empty core: detect names none (x86, or a part not in its table)
	gotcore=$(printf '%s\n' "$facts" | sed -n 's/^ *"core": "\(.*\)",*$/\1/p')
	is "$gotcore" "$core" "$file: core ${core:-(none)}"
done <<'TABLE'
aarch64-ampere-altra-neoverse-n1|neoverse_n1|Neoverse-N1
aarch64-ampereone-a-ac04|ampere1a|Ampere-1a
aarch64-ampereone-ac03|ampere1|Ampere-1
aarch64-aws-graviton2-neoverse-n1|neoverse_n1|Neoverse-N1
aarch64-aws-graviton3-neoverse-v1|neoverse_v1|Neoverse-V1
aarch64-aws-graviton4-neoverse-v2|neoverse_v2|Neoverse-V2
aarch64-fujitsu-a64fx-archspec|a64fx|A64FX
aarch64-google-axion|neoverse_v2|Neoverse-V2
aarch64-jetson-agx-xavier-carmel|aarch64|Carmel
aarch64-jetson-nano-cortex-a57|cortex_a72|Cortex-A57
aarch64-neoverse-n2-archspec|neoverse_n2|Neoverse-N2
aarch64-neoverse-v3ae-archspec|neoverse_v3ae|Neoverse-V3AE
aarch64-nvidia-gb10-dgx-spark-x925-a725|neoverse_v3ae|Cortex-A725
aarch64-nvidia-grace-neoverse-v2|neoverse_v2|Neoverse-V2
aarch64-jetson-orin-constructed|neoverse_n1|Cortex-A78AE
x86_64-cascadelake-archspec|cascadelake|
x86_64-haswell-archspec|haswell|
x86_64-sapphirerapids-archspec|sapphirerapids|
x86_64-skylake-avx512-archspec|skylake_avx512|
x86_64-zen3-archspec|zen3|
x86_64-zen4-archspec|zen4|
x86_64-zen5-archspec|zen5|
x86_64-alderlake-archspec|alderlake|
x86_64-arrowlake-s-archspec|arrowlake_s|
x86_64-k10-phenom-ii-x6|k10|
x86_64-piledriver-fx-8350|piledriver|
aarch64-amazon-cortex-a72-archspec|cortex_a72|Cortex-A72
aarch64-apple-m1-asahi-archspec|m1|Icestorm-M1
aarch64-apple-m2-asahi-archspec|m2|Blizzard-M2
aarch64-cavium-thunderx2-archspec|thunderx2|ThunderX2-99xx
x86_64-broadwell-archspec|broadwell|
x86_64-ivybridge-archspec|ivybridge|
x86_64-x86_64-v3-archspec|x86_64_v3|
x86_64-zen-archspec|zen|
x86_64-bulldozer-archspec|bulldozer|
aarch64-rockchip-rk3588-a55-a76|neoverse_n1|Cortex-A55
aarch64-apple-m1-icestorm-firestorm|m1|Icestorm-M1
TABLE

# Every Apple M1 and M2 part, plain, Pro and Max, each core type (the
# kernel's APPLE_CPU_PART_* [S_LINUX_CPUTYPE]): the M2 dump with its part
# swapped is named by it (tools/archspec-diff.py checks the
# microarchitecture of such swaps against archspec's own)
for m in 0x022:Icestorm-M1 0x023:Firestorm-M1 0x024:Icestorm-M1-Pro 0x025:Firestorm-M1-Pro \
	0x028:Icestorm-M1-Max 0x029:Firestorm-M1-Max 0x032:Blizzard-M2 0x033:Avalanche-M2 \
	0x034:Blizzard-M2-Pro 0x035:Avalanche-M2-Pro 0x038:Blizzard-M2-Max 0x039:Avalanche-M2-Max; do
	part=${m%%:*}; core=${m#*:}
	root="$T_DIR/apple-$part"
	mkdir -p "$root/proc"
	sed "s/^\(CPU part[[:space:]]*:\) 0x032$/\1 $part/" "$CPU/cpuinfo-aarch64-apple-m2-asahi-archspec.txt" >"$root/proc/cpuinfo"
	facts=$(env -i PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$root" --json)
	is "$(printf '%s\n' "$facts" | sed -n 's/^ *"part": "\(.*\)",*$/\1/p') $(printf '%s\n' "$facts" | sed -n 's/^ *"core": "\(.*\)",*$/\1/p')" \
		"$part $core" "Apple part $part: core $core"
	unlike "$facts" "*not in ptbuild's core table*" "... and no note of an unknown part"
done

# archspec keeps only descendants of the best generic level: a Haswell
# whose firmware hides AES (archspec-json's linux-rhel7-x86_64_v3 dump is
# this Haswell dump without "aes") is x86_64_v3, not a pre-AVX nehalem.
root="$T_DIR/haswell-noaes"
mkdir -p "$root/proc"
sed 's/ aes / /' "$CPU/cpuinfo-x86_64-haswell-archspec.txt" > "$root/proc/cpuinfo"
run grep -c ' aes ' "$root/proc/cpuinfo"
is "$out" "0" "the derived dump has no aes flag"
facts=$(env -i PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$root" --json)
got=$(printf '%s\n' "$facts" | sed -n 's/^ *"microarch": "\(.*\)",*$/\1/p')
is "$got" "x86_64_v3" "haswell without aes: microarch x86_64_v3 (archspec)"

# Bulldozer proper (FX-8150) lacks what Piledriver added: the FX-8350
# dump without bmi1 f16c fma tbm is bulldozer, still not a generic level
root="$T_DIR/bulldozer"
mkdir -p "$root/proc"
sed 's/ fma / /; s/ f16c / /; s/ tbm / /; s/ bmi1$//' "$CPU/cpuinfo-x86_64-piledriver-fx-8350.txt" > "$root/proc/cpuinfo"
run grep -c -w -e fma -e f16c -e tbm -e bmi1 "$root/proc/cpuinfo"
is "$out" "0" "the derived dump has none of bmi1 f16c fma tbm"
facts=$(env -i PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$root" --json)
got=$(printf '%s
' "$facts" | sed -n 's/^ *"microarch": "\(.*\)",*$/\1/p')
is "$got" "bulldozer" "piledriver without bmi1 f16c fma tbm: microarch bulldozer (archspec)"

# Cores that differ.  archspec reads the first processor block only
# (proc_cpuinfo() stops at the first line without a colon once it has
# data [S_ARCHSPEC_PY]): the RK3588's first core is a Cortex-A55, so its
# microarchitecture is the A55's (above, archspec's own answer for the
# dump).  OpenBLAS 0.3.34's build detection reads every core and takes
# the highest part [ob-cpuid]: CORTEXA76 on the RK3588 (0xd0b above the
# A55's 0xd05, cpuid_arm64.c:329), VORTEX on the M1 (Firestorm 0x023
# above Icestorm 0x022: every Apple part is VORTEX, cpuid_arm64.c:356;
# 0.3.30 knew only 0x022 and built ARMV8 here).  detect keeps every
# distinct part in cpu.parts; a machine with one core type has none.
for m in 'rockchip-rk3588-a55-a76|0xd05 0xd0b|CORTEXA76' 'apple-m1-icestorm-firestorm|0x022 0x023|VORTEX'; do
	file=${m%%|*}; rest=${m#*|}; parts=${rest%%|*}; target=${rest#*|}
	root="$T_DIR/mixed-$file"
	mkdir -p "$root/proc"
	cp "$CPU/cpuinfo-aarch64-$file.txt" "$root/proc/cpuinfo"
	env -i PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$root" --json >"$root.json"
	got=$(sed -n '/"parts": \[/,/\]/s/^ *"\(0x[0-9a-f]*\)",*$/\1/p' "$root.json" | tr '\n' ' ')
	is "$got" "$parts " "$file: cpu.parts lists $parts"
	run "$PTBUILD" plan --facts "$root.json" --json
	like "$out" "*\"target\": \"$target\"*" "$file: OpenBLAS TARGET $target, the highest part's (cpuid_arm64.c)"
	like "$out" "*this machine's cores differ (CPU parts ${parts% *}, ${parts#* })*" "$file: the plan says the cores differ"
done
facts=$(env -i PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$T_DIR/aarch64-nvidia-grace-neoverse-v2" --json)
unlike "$facts" '*"parts"*' "one core type (Grace, three blocks): no cpu.parts"

# the first processor block decides (archspec); the count covers them all
root="$T_DIR/grace"
mkdir -p "$root/proc"
cp "$CPU/cpuinfo-aarch64-aws-graviton4-neoverse-v2.txt" "$root/proc/cpuinfo"
run env -i PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$root" --json
like "$out" '*"cores": 96,*' "without sys/devices/system/cpu/online, cores = processor blocks (96)"
like "$out" '*"arch": "aarch64",
    "arch_source": "/proc/cpuinfo"*' "the arch of a bare sysroot comes from its cpuinfo"
like "$out" '*"platform": "sbsa"*' "an aarch64 machine that is no Jetson is sbsa"

# The vendor of an Arm implementer code, as archspec names it
# (microarchitectures.json conversions.arm_vendors [archspec]: every code
# there, word for word); a code archspec lacks keeps util-linux's name
# (0x6d Microsoft) or stays raw.  A constructed one-core dump a code.
for m in '0x41|ARM' '0x42|Broadcom' '0x43|Cavium' '0x44|DEC' '0x46|Fujitsu' \
	'0x48|HiSilicon' '0x49|Infineon Technologies AG' '0x4d|Motorola' '0x4e|Nvidia' \
	'0x50|APM' '0x51|Qualcomm' '0x53|Samsung' '0x56|Marvell' '0x61|Apple' \
	'0x66|Faraday' '0x68|HXT' '0x69|Intel' '0x6d|Microsoft' '0x7e|0x7e'; do
	code=${m%%|*}; want=${m#*|}
	root="$T_DIR/vendor-$code"
	mkdir -p "$root/proc"
	printf 'processor\t: 0\nFeatures\t: fp asimd evtstrm\nCPU implementer\t: %s\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0x000\nCPU revision\t: 0\n' "$code" >"$root/proc/cpuinfo"
	facts=$(env -i PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$root" --json)
	is "$(printf '%s\n' "$facts" | sed -n 's/^ *"vendor": "\(.*\)",*$/\1/p')" "$want" "implementer $code: vendor '$want'"
done

done_testing
