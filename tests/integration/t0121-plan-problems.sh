#!/bin/sh
# t0121-plan-problems.sh - every problem code in recipes/PROBLEMS.md: a
# case that raises it (with its severity and exit status), and clean
# machines that raise nothing.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1
F=tests/fixtures/facts

# code | severity | arguments
cases="driver-too-old|error|--facts $F/old-driver.json
driver-minor-compat|warning|--profile dgx-h100
no-gpu-detected|warning|--profile graviton3
toolkit-drops-gpu|error|--facts $F/gtx1080-cuda13.json --cuda 13.0
gpu-newer-than-toolkit|error|--facts $F/rtx5090-cuda126.json --torch 2.7 --cuda 12.6
gpu-unknown|error|--facts $F/unknown-gpu.json
gpu-unknown|warning|--facts $F/unknown-gpu.json --arch-list 12.0+PTX
arch-list-empty|error|--facts $F/rtx5090-cuda126.json --torch 2.7 --cuda 12.6
gcc-too-new|error|--facts $F/gcc15-only.json
gcc-too-new|warning|--facts $F/gcc15-and-13.json
gcc-too-old|error|--facts $F/rhel8-gcc8.json
python-too-old|error|--facts $F/rhel8-python36.json
python-too-new|error|--facts $F/python313.json --torch 2.4 --cuda 12.4
no-compiler|warning|--facts $F/bare-x86.json
torch-cuda-unsupported|error|--profile gh200 --torch 2.4 --cuda 13.0
torch-cuda-untested|warning|--profile gh200 --torch 2.9 --cuda 13.1
torch-cuda-untested|warning|--profile graviton3 --torch 2.14 --cuda 13.3
torch-cuda-unsupported|error|--profile graviton3 --torch 2.14 --cuda 12.4
torch-cuda-untested|warning|--profile graviton3 --torch 2.12 --cuda 12.4
sbsa-toolkit-on-jetson|error|--facts $F/orin-sbsa-toolkit.json
jetson-toolkit-on-server|error|--facts $F/altra-jetson-toolkit.json --cuda 12.6
toolkit-wrong-platform|error|--facts $F/x86-sbsa-toolkit.json --torch 2.11 --cuda 12.8
cuda-platform-missing|error|--profile jetson-orin --torch 2.4 --cuda 12.3
jetson-orin-needs-cuda-13.2|error|--profile jetson-orin --cuda 13.0
jetson-module-too-old-for-cuda|error|--facts $F/xavier-jp517.json --torch 2.13 --cuda 13.0
jetson-thor-needs-cuda-13|error|--profile jetson-thor --cuda 12.8
jetpack-too-old-for-cuda|error|--profile jetson-thor --cuda 13.1
jetson-facts-disagree|warning|--facts $F/thor-l4t-ahead-of-driver.json --cuda 13.0
jetson-facts-disagree|error|--facts $F/thor-on-l4t36.json --cuda 13.0
glibc-too-old|error|--facts $F/amzn2-glibc226.json --torch 2.11 --cuda 12.8
glibc-too-new|error|--facts $F/fedora43-glibc242.json --cuda 13.0
glibc-too-new|error|--facts $F/fedora43-glibc242.json --cuda 13.1
cuda-data-assumed|warning|--profile graviton3 --cuda 13.5
cuda-release-unknown|warning|--facts $F/rtx4090-cuda136-unknown.json --cuda 13.6
multiple-toolkits|warning|--profile rtx4090-workstation
gpu-not-in-arch-list|error|--profile rtx4090-workstation --arch-list 9.0
gpu-ptx-only|warning|--profile rtx4090-workstation --arch-list 7.5+PTX
arch-not-built-by-toolkit|error|--profile graviton3 --cuda 13.0 --arch-list 5.0;7.5
arch-suffix-not-accepted|error|--profile graviton3 --torch 2.8 --arch-list 10.0f
arch-not-accepted-by-torch|error|--profile graviton3 --torch 2.5 --arch-list 9.0;10.0
arch-not-accepted-by-cpp-extension|warning|--profile graviton3 --cuda 13.0 --arch-list 8.8;9.0
arch-read-otherwise-by-cpp-extension|warning|--profile graviton3 --cuda 13.0 --arch-list Hopper
memory-too-small|error|--facts $F/lowmem.json
memory-too-small|warning|--profile rtx4090-workstation --max-jobs 32
cpu-no-lse|warning|--facts $F/a72-no-lse.json
cudnn-not-found|warning|--facts tests/fixtures/sysroots/container-no-driver.facts.json --torch 2.6"

# Machines and options that must plan without any problem.
clean="--profile jetson-orin
--profile jetson-orin --torch 2.7
--profile jetson-thor
--profile dgx-h100 --torch 2.5
--profile dgx-h100 --torch 2.5 --arch-list 9.0
--profile jetson-thor --torch 2.9
--profile rtx4090-workstation --torch 2.11"

# A fourth field overrides the exit status (a warning no plan raises alone:
# no PyTorch release ptbuild knows builds with the CUDA it needs).
while IFS='|' read -r code sev args rcw; do
	# shellcheck disable=SC2086
	"$PTBUILD" plan $args --json >"$T_DIR/p.json" 2>"$T_DIR/err" </dev/null
	rc=$?
	want=0
	[ "$sev" = error ] && want=1
	[ -n "$rcw" ] && want=$rcw
	is "$rc" "$want" "$code ($sev): exit status $want"
	# problems are objects with sorted keys: code, fix, message, severity
	if grep -q "\"code\": \"$code\"" "$T_DIR/p.json" &&
	   sed -n "/\"code\": \"$code\"/,/\"severity\"/p" "$T_DIR/p.json" | grep -q "\"severity\": \"$sev\""; then
		t_ok 0 "$code ($sev) raised by: $args"
	else
		t_ok 1 "$code ($sev) raised by: $args"
	fi
	grep -q "^| \`$code\` |" recipes/PROBLEMS.md
	t_ok $? "$code is documented in recipes/PROBLEMS.md"
done <<EOF_CASES
$cases
EOF_CASES

# Every documented code has a raising case above.
for code in $(sed -n 's/^| `\([a-z0-9.-]*\)` |.*/\1/p' recipes/PROBLEMS.md); do
	printf '%s\n' "$cases" | grep -q "^$code|"
	t_ok $? "documented code $code has a case that raises it"
done

# A value no source gave is worded, never printed as Lua's nil: the
# unknown GPU's wheel reasons said "NVIDIA Graphics Device (nil)".
for fx in $F/*.json; do
	out=$("$PTBUILD" plan --facts "$fx" 2>&1 </dev/null; "$PTBUILD" doctor --facts "$fx" 2>&1 </dev/null)
	case " $out " in
	*[!A-Za-z_]nil[!A-Za-z_]*) t_ok 1 "plan and doctor of $fx print no nil"; printf '%s\n' "$out" | grep -w nil | sed 's/^/# /' ;;
	*) t_ok 0 "plan and doctor of $fx print no nil" ;;
	esac
done
"$PTBUILD" plan --facts $F/unknown-gpu.json >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*has no code for NVIDIA Graphics Device (compute capability unknown)*" \
	"the unknown GPU's wheel reason says its compute capability is unknown"

# With no code to build, the plan says so: the arch list is "none" and
# why, never an empty choice under "the GPUs of this machine"; a GPU of
# unknown compute capability is never claimed built, and the fix is
# --arch-list, not another CUDA.
like "$(cat "$T_DIR/out")" "*that builds every GPU whose compute capability is known*
  arch_list      none
                   ptbuild knows the compute capability of none of this machine's GPUs*" \
	"unknown GPU: the CUDA is not said to build it; the arch list is none, and why"
like "$(cat "$T_DIR/out")" "*error \[arch-list-empty\]*fix: pass --arch-list with the compute capabilities*" \
	"... arch-list-empty's fix is --arch-list"
# A GPU the facts name but give no compute capability for (taken by a
# ptbuild whose table lacked it, or written by hand), of a product
# ptbuild's table knows: plan, a fleet plan and doctor read it from the
# name as detect would, rather than call it unknown.
python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))
f["gpus"][0]["name"] = "NVIDIA GeForce RTX 5090"
f["toolkits"] = [{"root": "/usr/local/cuda-12.6", "version": "12.6.85", "target": "x86_64-linux"}]
json.dump(f, open(sys.argv[2], "w"))' $F/unknown-gpu.json "$T_DIR/5090.json"
"$PTBUILD" plan --facts "$T_DIR/5090.json" --json >"$T_DIR/p.json" 2>/dev/null </dev/null
is "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["torch_cuda_arch_list"], *sorted(p["code"] for p in d["problems"]))' "$T_DIR/p.json")" \
	"12.0+PTX multiple-toolkits" "RTX 5090 named without a compute capability: the plan builds 12.0, no gpu-unknown"
"$PTBUILD" plan --facts "$T_DIR/5090.json" --cuda 12.6 >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*error \[gpu-newer-than-toolkit\] the NVIDIA GeForce RTX 5090 (compute capability 12.0) is newer than CUDA 12.6*" \
	"... with --cuda 12.6: too new for it, not unknown"
"$PTBUILD" plan --facts "$T_DIR/5090.json" --facts recipes/profiles/dgx-h100.json --json >"$T_DIR/p.json" 2>/dev/null </dev/null
like "$(tr -d '\n ' <"$T_DIR/p.json")" '*"torch_cuda_arch_list":"9.0;12.0+PTX"*' "... a fleet plan builds it too"
"$PTBUILD" doctor --facts "$T_DIR/5090.json" --facts recipes/profiles/dgx-h100.json >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*NVIDIA GeForce RTX 5090 (compute capability 12.0) is newer than CUDA 12.6*" \
	"... and doctor judges it against the node's CUDA 12.6"
# A Rubin (10.7) with CUDA 13.3 installed and chosen: 13.3 builds no GPU
# here, so the untested-CUDA fix does not say to keep 13.3.
python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))
f["gpus"] = [{"index": 0, "name": "NVIDIA Vera Rubin", "compute_capability": "10.7", "memory_mib": 200000, "source": "test"}]
f["driver"] = {"version": "610.43.02", "cuda_max": "13.3"}
f["toolkits"] = [{"root": "/usr/local/cuda-13.3", "version": "13.3.73", "target": "x86_64-linux"}]
json.dump(f, open(sys.argv[2], "w"))' recipes/profiles/dgx-h100.json "$T_DIR/rubin.json"
"$PTBUILD" plan --facts "$T_DIR/rubin.json" --cuda 13.3 >"$T_DIR/out" 2>&1 </dev/null
is "$?" 1 "Rubin with --cuda 13.3: an error"
like "$(cat "$T_DIR/out")" "*arch_list      none
                   CUDA 13.3 builds none of this machine's GPUs*" "... the arch list is none, and why"
unlike "$(cat "$T_DIR/out")" "*keep 13.3*" "... no fix says to keep 13.3, which cannot build the GPU"
# An Orin on JetPack 7.2 (L4T 39) taking the SBSA toolkit's CUDA 13.4:
# the text plan names the CUDA Compatibility Package (Orin) of the
# release notes as the upgrade package it loads; 13.2 lists none.
python3 -c 'import json, sys
f = json.load(open(sys.argv[1])); f["jetson"]["l4t"] = "39.2.0"
json.dump(f, open(sys.argv[2], "w"))' recipes/profiles/jetson-orin.json "$T_DIR/orin39.json"
"$PTBUILD" plan --facts "$T_DIR/orin39.json" --cuda 13.4 >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*
  cuda_compat    cuda-compat-orin-13-4, /usr/local/cuda-13.4/compat_orin first on LD_LIBRARY_PATH
                   JetPack 7.2's driver is CUDA 13.2's: programs built with CUDA 13.4 run on it only with NVIDIA's CUDA upgrade package for Jetson (the CUDA Compatibility Package (Orin) 13.4.47145772 of CUDA 13.4.2's components)*" \
	"Orin on L4T 39 with CUDA 13.4: the plan names the Orin compatibility package"
"$PTBUILD" plan --facts "$T_DIR/orin39.json" --cuda 13.2 >"$T_DIR/out" 2>&1 </dev/null
unlike "$(cat "$T_DIR/out")" "*orin_compat*" "... with CUDA 13.2, none"
# On L4T 36 the same --cuda 13.4 is refused, and the fix keeps 13.4 (the
# L4T is the bar, not the release) with the package it needs.
"$PTBUILD" plan --profile jetson-orin --cuda 13.4 >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*error \[jetson-orin-needs-cuda-13.2\]*
    fix: use JetPack 6.2's CUDA 12.6 (--cuda 12.6), or flash JetPack 7.2 and use CUDA 13.4 with the CUDA Compatibility Package (Orin) 13.4.47145772*" \
	"Orin on L4T 36 with --cuda 13.4: the fix keeps 13.4, with the Orin package"
# ... and the decision that names the package does not tell this Orin
# to install it as if it ran 13.4: the package serves L4T 39 and later
like "$(cat "$T_DIR/out")" "*
  orin_compat    CUDA Compatibility Package (Orin) 13.4.47145772
                   what lets an Orin on JetPack 7.2 (L4T 39) or newer, whose driver is older than CUDA 13.4, run the SBSA toolkit; on L4T 36.4.3 it does not (see the jetson-orin-needs-cuda-13.2 problem)*" \
	"... the orin_compat decision says the package does not serve L4T 36"
unlike "$(cat "$T_DIR/out")" "*install it from NVIDIA's CUDA 13.4.2 packages*" "... and does not say to install it on L4T 36"
# On L4T 39 (JetPack 7.2 already) a CUDA 13 before 13.2 is the bar: the
# fix names 13.2, and neither a flash nor a JetPack CUDA 12 it lacks.
"$PTBUILD" plan --facts "$T_DIR/orin39.json" --cuda 13.0 >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*error \[jetson-orin-needs-cuda-13.2\]*
    fix: use CUDA 13.2 or newer (--cuda 13.2): this JetPack runs Orin on the SBSA toolkit from CUDA 13.2
*" "Orin on L4T 39 with --cuda 13.0: the fix is CUDA 13.2, not a flash to the JetPack it runs"
# On JetPack 5.1.4 (L4T 35.6.0) JetPack's CUDA is 11.4, which PyTorch
# 2.9 does not build with: the fix offers only the flash.
python3 -c 'import json, sys
f = json.load(open(sys.argv[1])); f["jetson"]["l4t"] = "35.6.0"
json.dump(f, open(sys.argv[2], "w"))' recipes/profiles/jetson-orin.json "$T_DIR/orin35.json"
"$PTBUILD" plan --facts "$T_DIR/orin35.json" --torch 2.9 --cuda 13.0 >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*error \[jetson-orin-needs-cuda-13.2\]*
    fix: flash JetPack 7.2 and use CUDA 13.2
*" "Orin on JetPack 5.1.4 with torch 2.9: no JetPack CUDA the release cannot build with"
# A GPU newer than every CUDA ptbuild knows (compute capability 13.0):
# arch-list-empty's fix does not send the user to look for a CUDA.
python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))
f["gpus"] = [{"index": 0, "name": "NVIDIA Future GPU", "compute_capability": "13.0", "memory_mib": 1000, "source": "test"}]
json.dump(f, open(sys.argv[2], "w"))' recipes/profiles/dgx-h100.json "$T_DIR/future.json"
"$PTBUILD" plan --facts "$T_DIR/future.json" >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*error \[arch-list-empty\]*
    fix: no CUDA ptbuild knows builds these GPUs: pass --arch-list to build for other GPUs*" \
	"a GPU newer than every known CUDA: arch-list-empty names no CUDA to choose"
# ... nor one older than every CUDA ptbuild knows: a Kepler 3.0 (last built
# by CUDA 10.2) or a Fermi 2.0 (older than every architecture it knows)
for g in "GeForce GTX 680|3.0" "GeForce GTX 480|2.0"; do
	python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))
name, cc = sys.argv[3].split("|")
f["gpus"] = [{"index": 0, "name": name, "compute_capability": cc, "memory_mib": 2000, "source": "test"}]
json.dump(f, open(sys.argv[2], "w"))' recipes/profiles/dgx-h100.json "$T_DIR/old.json" "$g"
	"$PTBUILD" plan --facts "$T_DIR/old.json" >"$T_DIR/out" 2>&1 </dev/null
	like "$(cat "$T_DIR/out")" "*error \[arch-list-empty\]*
    fix: no CUDA ptbuild knows builds these GPUs: pass --arch-list to build for other GPUs*" \
		"a ${g%|*} (${g#*|}), older than every known CUDA builds: arch-list-empty names no CUDA to choose"
done
# CUDA 13.5's minimum is known only as an upper bound, the driver of its
# forward-compatibility package (620.70.06): the driver fixes name it, for
# a driver too old and one that runs 13.5 only through minor-version
# compatibility.
for fx in $F/gcc15-and-13.json $F/rtx4090-cuda128.json; do
	"$PTBUILD" plan --facts "$fx" --torch 2.9 --cuda 13.5 >"$T_DIR/out" 2>&1 </dev/null
	like "$(cat "$T_DIR/out")" "*error \[driver-too-old\]*(it needs 620.70.06 (known to run it; NVIDIA's minimum, Table 3, is not in ptbuild's data and may be older), or 580.65.06 through minor-version compatibility)*
    fix: install driver 580.65.06 or newer, the least that runs CUDA 13.5 (through minor-version compatibility, without PTX JIT; driver 620.70.06 or newer (known to run CUDA 13.5; the minimum may be older) runs it directly), or use CUDA 12.* or older (--cuda)*" \
		"--cuda 13.5 on $(basename "$fx"): the driver fix names 580 through minor-version compatibility, then 620.70.06 as a driver known to run it"
done
python3 -c 'import json, sys
f = json.load(open(sys.argv[1])); f["driver"] = {"version": "615.71.09", "cuda_max": "13.4"}
json.dump(f, open(sys.argv[2], "w"))' recipes/profiles/dgx-h100.json "$T_DIR/615.json"
"$PTBUILD" plan --facts "$T_DIR/615.json" --cuda 13.5 >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*warning \[driver-minor-compat\]*
    fix: install driver 620.70.06 or newer (known to run CUDA 13.5; the minimum may be older) to run CUDA 13.5 directly*" \
	"--cuda 13.5 on driver 615 (CUDA 13.4): the minor-compat fix too"
# Eight Rubin GPUs (10.7) on driver 550: no CUDA the driver runs builds
# them, so the plan takes the first CUDA that does (13.4) and names the
# driver as the one problem to mend, in the wheel reasons too.
sed 's/"NVIDIA H100 80GB HBM3"/"NVIDIA R100"/; s/"compute_capability": "9.0"/"compute_capability": "10.7"/' \
	recipes/profiles/dgx-h100.json >"$T_DIR/rubin.json"
"$PTBUILD" plan --facts "$T_DIR/rubin.json" >"$T_DIR/out" 2>&1 </dev/null
out=$(cat "$T_DIR/out")
like "$out" "*driver 550.54.15 (CUDA 12.4 at most) predates the NVIDIA R100 (compute capability 10.7, first built by CUDA 13.4): no wheel runs on it*" \
	"the wheel reason is the driver, which no wheel runs the GPU on"
like "$out" "*cuda           CUDA 13.4 (13.4.2)*that builds every GPU (the driver must be upgraded for it)*" "Rubin on driver 550: CUDA 13.4, which builds it"
like "$out" "*error \[driver-too-old\] driver 550.54.15 cannot run CUDA 13.4*" "... with the driver as the error to mend"
like "$out" "*fix: install an r615 driver or newer (615.71.09 or newer is known to run it): CUDA 12.4, the newest this driver runs, does not build the NVIDIA R100 (compute capability 10.7)*" \
	"... whose fix offers no older CUDA that cannot build the GPU"
unlike "$out" "*\[gpu-newer-than-toolkit]*" "... and no gpu-newer-than-toolkit"
# Two T4G (7.5) on an Arm server with driver 580, as on AWS g5g: no
# linux-sbsa wheel has Turing code, and the reasons count the GPUs.
python3 -c 'import json, sys
f = json.load(open(sys.argv[1])); f["driver"] = {"version": "580.95.05", "cuda_max": "13.0"}
f["gpus"] = [{"index": i, "name": "NVIDIA T4G", "compute_capability": "7.5"} for i in range(2)]
json.dump(f, open(sys.argv[2], "w"))' recipes/profiles/altra-a100.json "$T_DIR/t4g.json"
"$PTBUILD" plan --facts "$T_DIR/t4g.json" >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*has no code for 2x NVIDIA T4G (7.5)*" "two identical GPUs are counted in the wheel reasons"
# A build host with no driver and no GPU (Graviton3): the CUDA's reason
# does not claim a driver runs it or that it builds GPUs nobody saw.
"$PTBUILD" plan --profile graviton3 >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*  cuda  *
                   the newest CUDA that PyTorch 2.14 ships wheels for (no driver or GPU seen to judge it by)
*" "no driver, no GPU: the CUDA's reason says nothing was there to judge it by"

# CUDA choice: what PyTorch's build accepts, not only what it ships wheels
# for.  RTX 4090, CUDA 12.8 installed, driver 570 (CUDA 12.8 at most),
# PyTorch 2.14 (wheels 12.6, 13.0, 13.2; its cuda.cmake needs >= 12.6).
fx=$F/rtx4090-cuda128.json
"$PTBUILD" plan --facts "$fx" --torch 2.14 --json >"$T_DIR/p.json" 2>/dev/null </dev/null
is "$?" 0 "installed 12.8 with PyTorch 2.14: plans without error"
like "$(tr -d '\n' <"$T_DIR/p.json")" '*"root": "/usr/local/cuda-12.8", *"source": "installed", *"version": "12.8"*' \
	"... and uses the installed 12.8 instead of downloading 12.6"
for v in 12.8 12.9 13.0 13.2 13.3; do
	"$PTBUILD" plan --facts "$fx" --torch 2.14 --cuda $v --json >"$T_DIR/p.json" 2>/dev/null </dev/null
	# the fixes of the PyTorch-support problems name no CUDA 13 (the driver runs 12.8 at most)
	fixes=$(sed -n '/"code": "torch-cuda-/{n;p}' "$T_DIR/p.json")
	unlike "$fixes" "*--cuda 13*" "--cuda $v: no fix names a CUDA the driver cannot run"
done
"$PTBUILD" plan --facts "$fx" --torch 2.14 --cuda 12.8 >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*warning \[torch-cuda-untested\]*fix: prefer --cuda 12.6 unless you need 12.8*" \
	"--cuda 12.8: the fix proposes 12.6, which the driver runs"
# A driver that runs every wheel CUDA of 2.14 (615, CUDA 13.4): the fix
# proposes the tested CUDA closest to the request -- the newest not newer
# than it, else the oldest newer one -- not the newest the machine takes.
python3 -c 'import json, sys
f = json.load(open(sys.argv[1])); f["driver"] = {"version": "615.71.09", "cuda_max": "13.4"}; f["toolkits"] = []
json.dump(f, open(sys.argv[2], "w"))' "$fx" "$T_DIR/d615.json"
for c in "12.9 12.6 torch-cuda-untested prefer" "13.3 13.2 torch-cuda-untested prefer" \
	"13.5 13.2 torch-cuda-untested prefer" "12.4 12.6 torch-cuda-unsupported use"; do
	set -- $c
	"$PTBUILD" plan --facts "$T_DIR/d615.json" --torch 2.14 --cuda "$1" >"$T_DIR/out" 2>&1 </dev/null
	like "$(cat "$T_DIR/out")" "*\[$3\]*fix: $4 --cuda $2[, ]*" "driver 615, PyTorch 2.14, --cuda $1: the fix proposes $2"
done
# One severity rule: 12.8 (between two wheel CUDAs) and 13.3 (past the
# newest) are both accepted by the build and both warnings.
for v in 12.8 13.3; do
	"$PTBUILD" plan --profile graviton3 --torch 2.14 --cuda $v --json >"$T_DIR/p.json" 2>/dev/null </dev/null
	sev=$(sed -n '/"code": "torch-cuda-/,/"severity"/s/.*"severity": "\(.*\)".*/\1/p' "$T_DIR/p.json")
	is "$sev" warning "--cuda $v with PyTorch 2.14: untested, a warning"
done

while read -r args; do
	# shellcheck disable=SC2086
	"$PTBUILD" plan $args --json >"$T_DIR/p.json" 2>"$T_DIR/err" </dev/null
	rc=$?
	n=$(grep -c '"code":' "$T_DIR/p.json")
	if [ "$args" = "--profile rtx4090-workstation --torch 2.11" ]; then
		# two toolkits installed on purpose: only that warning (--torch 2.11
		# uses the installed 12.8 with its cuDNN)
		is "$(sed -n 's/.*"code": "\(.*\)".*/\1/p' "$T_DIR/p.json")" "multiple-toolkits" "clean but for multiple-toolkits: $args"
	else
		is "$rc $n" "0 0" "no problem: $args"
	fi
done <<EOF_CLEAN
$clean
EOF_CLEAN

# The host compiler decision quotes nvcc's limit; for a CUDA whose limits
# are copied from the release before it (13.5) it says so, unless the
# installed toolkit's own host_config.h was read (toolkits[].gcc_max).
for c in "13.5|*(gcc 16 at most, assumed from the release before it)*" "13.4|*(gcc 16 at most)"; do
	"$PTBUILD" plan --profile graviton3 --cuda "${c%%|*}" >"$T_DIR/out" 2>&1 </dev/null
	like "$(grep -A1 '^  host_compiler' "$T_DIR/out")" "${c#*|}" "--cuda ${c%%|*}: the gcc limit quoted as $(test "${c%%|*}" = 13.5 && echo assumed || echo known)"
done
json_edit recipes/profiles/graviton3.json "$T_DIR/tk135.json" "f.pop('profile', None); f['toolkits'] = [{'root': '/usr/local/cuda-13.5', 'version': '13.5.47', 'source': 'test', 'nvcc': '/usr/local/cuda-13.5/bin/nvcc', 'gcc_max': 17, 'cudnn': None, 'nccl': None, 'target': 'sbsa-linux'}]"
"$PTBUILD" plan --facts "$T_DIR/tk135.json" --cuda 13.5 >"$T_DIR/out" 2>&1 </dev/null
like "$(grep -A1 '^  host_compiler' "$T_DIR/out")" "*accepted by nvcc 13.5 (gcc 17 at most)" "an installed 13.5 whose host_config.h was read: its own limit, not assumed"

# No driver and no GPU: the driver named is the one the machine that runs
# the built PyTorch needs (nvcc builds without any), not the build host's.
"$PTBUILD" plan --profile graviton3 >"$T_DIR/out" 2>&1 </dev/null
like "$(cat "$T_DIR/out")" "*no NVIDIA driver or GPU was seen: *the machine that runs the built PyTorch needs driver *" \
	"no-gpu-detected names the driver of the machine that runs the built PyTorch"
like "$(grep -A1 'no-gpu-detected' "$T_DIR/out")" "*the arch list comes from PyTorch's wheels*fix: pass --arch-list *" \
	"... without --arch-list: the list is the wheels', and the fix is to pass --arch-list"
# with --arch-list the list is the user's: the warning says so, and does
# not tell them to pass what they passed
"$PTBUILD" plan --profile graviton3 --arch-list "8.0;9.0a;9.0" >"$T_DIR/out" 2>&1 </dev/null
w=$(grep -A1 'no-gpu-detected' "$T_DIR/out")
like "$w" "*no NVIDIA driver or GPU was seen: the arch list is --arch-list's (8.0;9.0), and the machine *" \
	"--arch-list given: no-gpu-detected says the list is --arch-list's (each GPU once)"
unlike "$w" "*PyTorch's wheels*" "... not the wheels'"
unlike "$w" "*fix: pass --arch-list*" "... and its fix does not ask for --arch-list again"
# ... the least driver first, as driver-too-old names it (minor-version
# compatibility's, 580.65.06 for 13.x, the first r580 driver), then the
# CUDA's own in the parenthesis (13.4: a branch, 13.5: a driver known to
# run it); 13.0's own is the least, and named once
for c in "13.4|driver 580.65.06 or newer, the least that runs CUDA 13.4 (through minor-version compatibility, without PTX JIT; an r615 driver or newer (615.71.09 or newer is known to run it) runs it directly)" \
	"13.5|driver 580.65.06 or newer, the least that runs CUDA 13.5 (through minor-version compatibility, without PTX JIT; driver 620.70.06 or newer (known to run CUDA 13.5; the minimum may be older) runs it directly)" \
	"13.0|driver 580.65.06 or newer"; do
	"$PTBUILD" plan --profile graviton3 --cuda "${c%%|*}" >"$T_DIR/out" 2>&1 </dev/null
	like "$(grep 'no-gpu-detected' "$T_DIR/out")" "*the built PyTorch needs ${c#*|}" \
		"--cuda ${c%%|*}: no-gpu-detected names the least driver first, the CUDA's own after"
done

# --cuda X.Y.Z: a plan installs one update of each release; the reason
# says which, and does not quote the request as "--cuda X.Y"
for c in "13.4.1|--cuda 13.4.1: a plan installs one update of each CUDA release, here 13.4.2, not 13.4.1" \
	"13.4.3|--cuda 13.4.3: ptbuild knows no CUDA 13.4.3; a plan installs one update of each CUDA release, here 13.4.2"; do
	"$PTBUILD" plan --profile graviton3 --cuda "${c%%|*}" >"$T_DIR/out" 2>&1 </dev/null
	is "$(grep -A1 '^  cuda ' "$T_DIR/out" | sed -n '2s/^ *//p')" "${c#*|}" "--cuda ${c%%|*}: the reason names the update planned"
done

done_testing
