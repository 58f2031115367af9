#!/bin/sh
# t0168-plan-unknown-cuda.sh - an installed CUDA toolkit of a release
# newer than ptbuild's tables (tests/fixtures/facts/rtx4090-cuda136-
# unknown.json: CUDA 13.6, its nvcc's GPU list in the facts, its
# host_config.h refusing gcc > 16, driver 590 of CUDA 13.1): plan names
# it and where the tables stop (read from data/cuda.lua, not written
# in), plans it on --cuda 13.6 judged by its nvcc's list with a warning
# naming what is unknown and the floor ptbuild can state, and keeps a
# known release by default unless only the unknown one fits; doctor
# says what plan says.  Before, plan passed the toolkit over without a
# word and refused --cuda 13.6 as an unknown release (exit 2), and
# doctor judged nothing of it but an arch list.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

F=$top_srcdir/tests/fixtures/facts/rtx4090-cuda136-unknown.json
TK=/usr/local/cuda-13.6
# py FILE EXPR: EXPR of the JSON in FILE as d
py() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>&1; }
why_cuda() { py "$1" '[x["why"] for x in d["decisions"] if x["topic"] == "cuda"][0]'; }

# 1. No --cuda: a release ptbuild knows, and the reason names the
#    unknown toolkit, where the tables stop and how to plan it.
run "$PTBUILD" plan --facts "$F" --json
is "$rc" 0 "plan, CUDA 13.6 installed, no --cuda: exit 0"
printf '%s' "$out" >"$T_DIR/p.json"
is "$(py "$T_DIR/p.json" 'd["cuda"]["version"] + " " + d["cuda"]["source"]')" "13.0 download" \
	"... a release ptbuild knows is chosen (13.0, downloaded: the driver runs it directly)"
like "$(why_cuda "$T_DIR/p.json")" "*installed but not chosen: $TK (CUDA 13.6.20), newer than ptbuild's tables, which stop at CUDA 13.5:*(--cuda 13.6 plans it, judged by its own nvcc's GPU list)" \
	"... its reason names the toolkit, where the tables stop and --cuda 13.6"

# 2. --cuda 13.6: planned in the installed toolkit, judged by its nvcc.
run "$PTBUILD" plan --facts "$F" --cuda 13.6 --json
is "$rc" 0 "plan --cuda 13.6 (installed, newer than the tables): exit 0"
printf '%s' "$out" >"$T_DIR/p.json"
is "$(py "$T_DIR/p.json" '" ".join([d["cuda"]["version"], d["cuda"]["full_version"], d["cuda"]["source"], d["cuda"]["root"], d["cuda"]["gpu_list"]["nvcc"]])')" \
	"13.6 13.6.20 installed $TK $TK/bin/nvcc" "... the installed toolkit, its GPU list from its nvcc"
is "$(findings "$T_DIR/p.json" cuda-release-unknown severity)" warning "... a cuda-release-unknown warning"
msg=$(findings "$T_DIR/p.json" cuda-release-unknown message)
like "$msg" "CUDA 13.6 in $TK (13.6.20) is newer than ptbuild's tables, which stop at CUDA 13.5: its GPU list is its own nvcc's answer (nvcc $TK/bin/nvcc)*" \
	"... naming the toolkit, its version and where the tables stop"
like "$msg" "*does not know its driver minimum, its clang limit or whether PyTorch 2.14 supports it*" \
	"... what is unknown: the driver minimum, the clang limit, PyTorch's support"
like "$msg" "*a driver of 580.65.06 or newer runs CUDA 13.6 through minor-version compatibility only*; gcc 16 at most, as $TK/include/crt/host_config.h says" \
	"... what it can state: CUDA 13's compatibility floor and host_config.h's gcc limit"
like "$(findings "$T_DIR/p.json" cuda-release-unknown fix)" "prefer --cuda 13.2, a CUDA ptbuild knows that fits this machine, unless you need 13.6*" \
	"... the fix names a known release that fits"
untested=$(findings "$T_DIR/p.json" torch-cuda-untested message)
like "$untested" "*: its CMake sets no maximum CUDA that ptbuild knows of, but nothing ptbuild has says it builds with CUDA 13.6, newer than ptbuild's tables; the combination is untested upstream" \
	"... torch-cuda-untested says what is known of 13.6"
unlike "$untested" "*accepts*" "... and claims no acceptance (was: its build accepts CUDA 13.6)"
is "$(findings "$T_DIR/p.json" driver-minor-compat severity)" warning \
	"... driver 590 (CUDA 13.1) runs it through minor-version compatibility: driver-minor-compat"
is "$(py "$T_DIR/p.json" '[x["why"] for x in d["decisions"] if x["topic"] == "host_compiler"][0]')" \
	"accepted by nvcc 13.6 (gcc 16 at most)" "... the host compiler judged by host_config.h's limit"

# 3. The arch list is judged by the toolkit's nvcc: 10.7 it lists, 7.0
#    it does not.
run "$PTBUILD" plan --facts "$F" --cuda 13.6 --arch-list "8.9;10.7"
is "$rc" 0 "plan --cuda 13.6 --arch-list '8.9;10.7' (nvcc lists both): exit 0"
like "$out" "*judged by the GPU list from nvcc $TK/bin/nvcc, not ptbuild's tables*" "... saying what judged it"
run "$PTBUILD" plan --facts "$F" --cuda 13.6 --arch-list "7.0;8.9" --json
is "$rc" 1 "plan --cuda 13.6 --arch-list '7.0;8.9' (nvcc lacks sm_70): exit 1"
printf '%s' "$out" >"$T_DIR/p.json"
like "$(findings "$T_DIR/p.json" arch-not-built-by-toolkit message)" "*does not build sm_70 (GPU list from nvcc $TK/bin/nvcc)*" \
	"... arch-not-built-by-toolkit, by nvcc's list"

# 4. Where the tables stop is read from data/cuda.lua: an override
#    that ends them at 13.4 says 13.4.
mkdir -p "$T_DIR/short/data"
cat >"$T_DIR/short/data/cuda.lua" <<'LUA'
local shipped = ptb.include_next("data/cuda")
local keep = {}
for _, r in ipairs(shipped.releases) do if r.version ~= "13.5" then keep[#keep + 1] = r end end
shipped.releases = keep
return shipped
LUA
run "$PTBUILD" --recipes "$T_DIR/short" plan --facts "$F" --cuda 13.6 --json
printf '%s' "$out" >"$T_DIR/p.json"
like "$(findings "$T_DIR/p.json" cuda-release-unknown message)" "*newer than ptbuild's tables, which stop at CUDA 13.4:*as every CUDA 13.x up to 13.4*" \
	"tables ending at 13.4 (an override): the warning says 13.4"

# 5. doctor on the same facts says what plan says.
"$PTBUILD" doctor --facts "$F" --json >"$T_DIR/d.json" 2>"$T_DIR/err"
is "$(findings "$T_DIR/d.json" cuda-release-unknown message)" "${msg:-plan raised none}" \
	"doctor --facts: the same cuda-release-unknown message as plan's"
is "$(findings "$T_DIR/d.json" driver-too-old severity)" warning \
	"... and the driver's minor-version compatibility as a driver-too-old warning, as plan's driver-minor-compat"
like "$(findings "$T_DIR/d.json" driver-too-old message)" \
	"driver 590.44.01 is older than CUDA 13.6 asks, whose minimum driver ptbuild's data lacks (Table 3 of NVIDIA's release notes gives it); it runs it only through minor-version compatibility*" \
	"... worded without brackets in brackets (was: asks (the minimum of CUDA 13.6 (not in ...)))"

# 6. A new major: no driver floor, and a driver of CUDA 13.1 does not
#    run it; PyTorch 2.14 predates CUDA 14.
json_edit "$F" "$T_DIR/14.json" "t = f['toolkits'][0]; t.update(root='/usr/local/cuda-14.0', version='14.0.10', release='14.0'); t['gpu_list']['nvcc'] = '/usr/local/cuda-14.0/bin/nvcc'"
run "$PTBUILD" plan --facts "$T_DIR/14.json" --cuda 14.0 --json
is "$rc" 1 "plan --cuda 14.0 (a major the tables lack), driver of CUDA 13.1: exit 1"
printf '%s' "$out" >"$T_DIR/p.json"
like "$(findings "$T_DIR/p.json" cuda-release-unknown message)" "*what it can state: no driver floor: CUDA 14 is a major ptbuild's tables lack*" \
	"... cuda-release-unknown: no driver floor"
like "$(findings "$T_DIR/p.json" driver-too-old message)" "driver 590.44.01 cannot run CUDA 14.0 (it needs CUDA 14.0's own minimum driver, which ptbuild's data lacks and Table 3 of NVIDIA's release notes gives); nvidia-smi's*" \
	"... driver-too-old, the minimum named as unknown, in one pair of brackets"
is "$(findings "$T_DIR/p.json" torch-cuda-unsupported severity)" error "... torch-cuda-unsupported: PyTorch 2.14 predates CUDA 14"

# 7. Installed, but its nvcc's list not read (a sysroot, an nvcc that
#    cannot list): nothing to judge an arch list by, exit 2 saying so.
json_edit "$F" "$T_DIR/nolist.json" "f['toolkits'][0]['gpu_list'] = {'from': 'nvcc', 'nvcc': '$TK/bin/nvcc', 'error': 'nvcc fatal: Unknown option'}"
run "$PTBUILD" plan --facts "$T_DIR/nolist.json" --cuda 13.6
is "$rc" 2 "plan --cuda 13.6, its nvcc's list not read: exit 2"
like "$err" "*error: CUDA 13.6 is installed in $TK, but ptbuild's tables stop at CUDA 13.5 and its nvcc's GPU list was not read (nvcc fatal: Unknown option): nothing to judge an arch list by*" \
	"... naming the toolkit, where the tables stop and nvcc's error"

# 8. No release ptbuild knows builds the GPU, the unknown toolkit's nvcc
#    does (a compute capability 13.0 it lists): it is chosen, saying so.
json_edit "$F" "$T_DIR/gpu13.json" "g = f['toolkits'][0]['gpu_list']; g['arch'].append('compute_130'); g['code'].append('sm_130'); f['gpus'] = [{'index': 0, 'name': 'NVIDIA future GPU', 'compute_capability': '13.0', 'source': 'test'}]"
run "$PTBUILD" plan --facts "$T_DIR/gpu13.json" --json
printf '%s' "$out" >"$T_DIR/p.json"
is "$(py "$T_DIR/p.json" 'd["cuda"]["version"] + " " + d["cuda"]["root"]')" "13.6 $TK" \
	"a GPU only the unknown toolkit's nvcc builds: that toolkit is chosen"
like "$(why_cuda "$T_DIR/p.json")" "no CUDA ptbuild knows fits this build: installed in $TK (CUDA 13.6.20), judged by its own nvcc's GPU list*" \
	"... and the reason says why"
is "$rc $(py "$T_DIR/p.json" 'd["torch_cuda_arch_list"]')" "0 13.0+PTX" \
	"... its arch list is the GPU its nvcc builds (was: '' and exit 1)"
codes=$(findings "$T_DIR/p.json")
unlike "$codes" "* arch-list-empty *" "... no arch-list-empty"
unlike "$codes" "* gpu-not-in-arch-list *" "... no gpu-not-in-arch-list"
run "$PTBUILD" plan --facts "$T_DIR/gpu13.json"
like "$out" "*arch_list      13.0+PTX*judged by the GPU list from nvcc $TK/bin/nvcc*" \
	"... and the text plan shows it, judged by that nvcc"

# 9. A Jetson Xavier (JetPack 5: CUDA 12.2 at most) with an SBSA 13.6
#    whose nvcc lacks sm_72: toolkit-drops-gpu, which names that nvcc,
#    has the Jetson rule's fix, doctor's own -- not a desktop CUDA (12.9)
#    that JetPack 5 does not run.  Before, plan named 12.9 and doctor 12.2.
X=$top_srcdir/tests/fixtures/facts/xavier-jp517.json
python3 - "$F" "$X" "$T_DIR/xavier136.json" <<'PY'
import json, sys
u, x = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
t = [t for t in u["toolkits"] if t["version"].startswith("13.6")][0]
t.update(target="sbsa-linux", platform="sbsa")
x["toolkits"] = [t] + (x.get("toolkits") or [])
json.dump(x, open(sys.argv[3], "w"))
PY
run "$PTBUILD" plan --facts "$T_DIR/xavier136.json" --cuda 13.6 --json
printf '%s' "$out" >"$T_DIR/p.json"
like "$(findings "$T_DIR/p.json" toolkit-drops-gpu message)" "the installed CUDA 13.6, judged by its own nvcc ($TK/bin/nvcc), does not build for the Xavier*" \
	"Xavier with an SBSA 13.6: toolkit-drops-gpu names its nvcc"
plan_fix=$(findings "$T_DIR/p.json" toolkit-drops-gpu fix)
like "$plan_fix" "use CUDA 12.2, the newest this Jetson runs, *(--torch 2.13 --cuda 12.2)" \
	"... its fix is a CUDA the Jetson runs (12.2), not the desktop 12.9"
mkdir -p "$T_DIR/empty"
"$PTBUILD" doctor --facts "$T_DIR/xavier136.json" --sysroot "$T_DIR/empty" --json >"$T_DIR/d.json" 2>/dev/null
is "$(findings "$T_DIR/d.json" toolkit-drops-gpu fix | sed 's/ptbuild plan --torch/--torch/')" "$plan_fix" \
	"... the fix doctor gives, word for word (but 'ptbuild plan')"
like "$(findings "$T_DIR/p.json" sbsa-toolkit-on-jetson message)" "*this Jetson needs the JetPack (L4T) toolkit: SBSA binaries fail at import on Xavier" \
	"... sbsa-toolkit-on-jetson names the Xavier (was: on Orin)"
like "$(findings "$T_DIR/d.json" sbsa-toolkit-on-jetson message)" "*its libraries do not run on L4T (Xavier needs JetPack's CUDA)" \
	"... and doctor's too (was: Orin and older)"
xmsg=$(findings "$T_DIR/p.json" cuda-release-unknown message)
like "$xmsg" "*what it can state: no driver floor: this Jetson's driver is JetPack 5.1.7's (CUDA 11.4's), and on a Jetson the JetPack, not minor-version compatibility, decides which CUDA runs: no JetPack of the Jetson Xavier runs CUDA 13.6 at all (see jetson-module-too-old-for-cuda)*" \
	"... cuda-release-unknown states the Jetson rule, not a desktop driver floor, and no upgrade package for a Xavier"
is "$(findings "$T_DIR/p.json" jetson-module-too-old-for-cuda severity)" error \
	"... which jetson-module-too-old-for-cuda beside it says too (no SBSA CUDA runs on a Xavier)"
unlike "$xmsg" "*580.65.06*" "... and not the desktop floor 580.65.06"
unlike "$(findings "$T_DIR/p.json" cuda-release-unknown fix)" "*Table 3*" "... nor, in its fix, Table 3's minimum driver"

# 10. A Jetson Thor on JetPack 7.0 (13.0 alone) with an SBSA 13.6 that
#     builds it: jetpack-too-old-for-cuda says 7.0 runs no 13.6, and
#     cuda-release-unknown agrees rather than offer 580.65.06.
json_edit "$top_srcdir/recipes/profiles/jetson-thor.json" "$T_DIR/thor136.json" "
u = json.load(open('$F'))
t = u['toolkits'][0]; t.update(target='sbsa-linux', platform='sbsa'); t['gpu_list']['code'].append('sm_110')
f['gpus'] = [{'index': 0, 'name': 'Jetson AGX Thor Developer Kit', 'compute_capability': '11.0'}]
f['jetson'] = {'l4t': '38.2.0', 'module': 'Jetson AGX Thor Developer Kit'}
f['driver'] = {'version': '580.0.0', 'cuda_max': '13.0'}
f['toolkits'] = [t]"
run "$PTBUILD" plan --facts "$T_DIR/thor136.json" --cuda 13.6 --json
printf '%s' "$out" >"$T_DIR/p.json"
is "$(findings "$T_DIR/p.json" jetpack-too-old-for-cuda severity)" error "Thor on JetPack 7.0, --cuda 13.6: jetpack-too-old-for-cuda"
tmsg=$(findings "$T_DIR/p.json" cuda-release-unknown message)
like "$tmsg" "*what it can state: no driver floor: this Jetson's driver is JetPack 7.0's (CUDA 13.0's), and on a Jetson the JetPack, not minor-version compatibility, decides which CUDA runs: JetPack 7.0 runs no CUDA 13.6 (see jetpack-too-old-for-cuda); gcc 16 at most*" \
	"... cuda-release-unknown says what jetpack-too-old-for-cuda says"
unlike "$tmsg" "*580.65.06*" "... and no desktop minor-version floor (was: a driver of 580.65.06 or newer runs it)"
like "$(findings "$T_DIR/p.json" cuda-release-unknown fix)" "*read NVIDIA's CUDA for Tegra ('Use the Right Upgrade Package': which JetPack runs CUDA 13.6)*" \
	"... its fix points at the Jetson upgrade table"
"$PTBUILD" doctor --facts "$T_DIR/thor136.json" --json >"$T_DIR/d.json" 2>/dev/null
is "$(findings "$T_DIR/d.json" cuda-release-unknown message)" "${tmsg:-plan raised none}" "... doctor says it word for word"

done_testing
