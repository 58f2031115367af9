#!/bin/sh
# t0014-installed-gpu-list.sh - where ptbuild's GPU list of an installed
# toolkit's release is assumed (a copy) or missing (a release newer than
# its tables), detect records that toolkit's own nvcc answer
# (toolkits[].gpu_list) and plan, doctor and `arch --cuda` judge the
# toolkit by it, saying so; where the list has a source, detect runs
# nothing more.  Never under --sysroot, never for a foreign-arch nvcc; a
# failed or slow ask is recorded, not fatal; a facts file's gpu_list is
# checked (exit 2).
#
# The real nvcc's release stands in for the assumed one through a recipe
# override of data/cuda.lua, as in t0013: its copy lacks the newest
# architecture this nvcc lists and holds an old one it does not.  The
# toolkit is the real one, its nvcc wrapped only to log each run.
. "$top_srcdir/tests/lib.sh"

XDG_CACHE_HOME=$T_DIR/cache TMPDIR=$T_DIR
export XDG_CACHE_HOME TMPDIR
unset CUDA_HOME CUDA_PATH CUDA_ROOT TORCH_CUDA_ARCH_LIST

. "$top_srcdir/tests/gpulist.sh"
gpulist_nvcc

LOG=$T_DIR/nvcc.log
gpulist_toolkit "$T_DIR/tk" "echo \"\$*\" >>\"$LOG\"; exec \"$home/bin/nvcc\" \"\$@\""
asks() { grep -c -e '^--list-gpu-arch$' -e '^--list-gpu-code$' "$LOG" 2>/dev/null; }
runs() { wc -l <"$LOG" 2>/dev/null | tr -d ' '; }

gpulist_overrides
A="--recipes $T_DIR/assumed"
U="--recipes $T_DIR/unknown"

# py FILE EXPR: EXPR of the JSON in FILE as d, with tk the toolkit at
# $T_DIR/tk (None when absent)
py() {
	python3 - "$1" "$2" "$T_DIR/tk" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
tk = next((t for t in d.get("toolkits", []) if t.get("root") == sys.argv[3]), None)
print(eval(sys.argv[2]))
PY
}
# only FACTS OUT: the facts with no toolkit but $T_DIR/tk
only() { json_edit "$1" "$2" "f['toolkits'] = [t for t in f['toolkits'] if t['root'] == '$T_DIR/tk']"; }

# 1. detect, the release's list assumed: nvcc asked once for each list,
#    its answer in the facts.
: >"$LOG"
CUDA_HOME=$T_DIR/tk "$PTBUILD" $A detect --json >"$T_DIR/facts.json" 2>"$T_DIR/err"
is "$?" 0 "detect, CUDA $rel assumed: exit 0"
is "$(asks)" 2 "... the toolkit's nvcc asked once for each list"
is "$(py "$T_DIR/facts.json" 'tk["gpu_list"]["from"] + " " + tk["gpu_list"]["nvcc"] + " " + " ".join(tk["gpu_list"]["code"])')" \
	"nvcc $T_DIR/tk/bin/nvcc $(printf '%s\n' $codes | grep '^sm_' | tr '\n' ' ' | sed 's/ $//')" \
	"... toolkits[].gpu_list: from nvcc, its path, its --list-gpu-code"
is "$(py "$T_DIR/facts.json" '"compute_" + "'"${sm_new#sm_}"'" in tk["gpu_list"]["arch"]')" True "... and its --list-gpu-arch"
only "$T_DIR/facts.json" "$T_DIR/f.json"

# 2. The release's list has a source: detect runs nothing more (the same
#    runs of the nvcc as a detect that asks nothing: none where a file
#    says the toolkit's version).
: >"$LOG"
CUDA_HOME=$T_DIR/tk "$PTBUILD" detect --json >"$T_DIR/sourced.json" 2>"$T_DIR/err"
is "$?" 0 "detect, CUDA $rel sourced: exit 0"
is "$(runs)" 0 "... the toolkit's nvcc was not run at all"
is "$(py "$T_DIR/sourced.json" '"gpu_list" in tk')" False "... and its facts hold no gpu_list"

# 3. Under --sysroot nothing is run, even for an assumed release.
mkdir -p "$T_DIR/sys/usr/local/cuda-$rel/bin"
printf '{"cuda_nvcc": {"version": "%s.0"}}\n' "$rel" >"$T_DIR/sys/usr/local/cuda-$rel/version.json"
printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$LOG" "$home/bin/nvcc" >"$T_DIR/sys/usr/local/cuda-$rel/bin/nvcc"
chmod +x "$T_DIR/sys/usr/local/cuda-$rel/bin/nvcc"
: >"$LOG"
"$PTBUILD" $A detect --sysroot "$T_DIR/sys" --json >"$T_DIR/sys.json" 2>"$T_DIR/err"
is "$?" 0 "detect --sysroot, CUDA $rel assumed: exit 0"
is "$(python3 -c 'import json,sys; print([t.get("release") for t in json.load(open(sys.argv[1]))["toolkits"]])' "$T_DIR/sys.json")" \
	"['$rel']" "... the sysroot's toolkit is read"
is "$(runs)" 0 "... and its nvcc not run"
is "$(python3 -c 'import json,sys; print(any("gpu_list" in t for t in json.load(open(sys.argv[1]))["toolkits"]))' "$T_DIR/sys.json")" \
	False "... no gpu_list"

# 4. An nvcc built for another machine is not run (an ELF header naming
#    it is enough: detect reads nvcc_machine from it).
case $(uname -m) in aarch64) em='\076\000' ;; *) em='\267\000' ;; esac
mkdir -p "$T_DIR/foreign/bin"
printf '{"cuda_nvcc": {"version": "%s.0"}}\n' "$rel" >"$T_DIR/foreign/version.json"
{ printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000'; printf "$em"; head -c 46 /dev/zero; } >"$T_DIR/foreign/bin/nvcc"
chmod +x "$T_DIR/foreign/bin/nvcc"
CUDA_HOME=$T_DIR/foreign "$PTBUILD" $A detect --json >"$T_DIR/foreign.json" 2>"$T_DIR/err"
is "$?" 0 "detect, a foreign-arch nvcc of assumed CUDA $rel: exit 0"
is "$(python3 -c 'import json,sys; t=[t for t in json.load(open(sys.argv[1]))["toolkits"] if t["root"]==sys.argv[2]][0]; print(t.get("nvcc_machine") != None, "gpu_list" in t)' "$T_DIR/foreign.json" "$T_DIR/foreign")" \
	"True False" "... its nvcc_machine read, and it was not asked (no gpu_list)"

# 5. An nvcc that cannot list: recorded with its message, not fatal.
gpulist_toolkit "$T_DIR/nolist" "case \"\$1\" in --list-gpu-*) echo \"nvcc fatal   : Unknown option '\$1'\" >&2; exit 1 ;; esac; exec \"$home/bin/nvcc\" \"\$@\""
CUDA_HOME=$T_DIR/nolist "$PTBUILD" $A detect --json >"$T_DIR/nolist.json" 2>"$T_DIR/err"
is "$?" 0 "detect, an nvcc that cannot list: exit 0"
like "$(python3 -c 'import json,sys; t=[t for t in json.load(open(sys.argv[1]))["toolkits"] if t["root"]==sys.argv[2]][0]; print(t["gpu_list"].get("error"), "code" in t["gpu_list"])' "$T_DIR/nolist.json" "$T_DIR/nolist")" \
	"'$T_DIR/nolist/bin/nvcc --list-gpu-arch' failed: nvcc fatal   : Unknown option*False" "... gpu_list.error says why, and holds no list"

# 6. A slow nvcc: each list is bounded (10 s), the run goes on.
gpulist_toolkit "$T_DIR/slow" "case \"\$1\" in --list-gpu-*) exec sleep 60 ;; esac; exec \"$home/bin/nvcc\" \"\$@\""
start=$(date +%s)
CUDA_HOME=$T_DIR/slow "$PTBUILD" $A detect --json >"$T_DIR/slow.json" 2>"$T_DIR/err"
rc=$?
took=$(($(date +%s) - start))
is "$rc" 0 "detect, an nvcc slow to list: exit 0"
like "$(python3 -c 'import json,sys; t=[t for t in json.load(open(sys.argv[1]))["toolkits"] if t["root"]==sys.argv[2]][0]; print(t["gpu_list"].get("error"))' "$T_DIR/slow.json" "$T_DIR/slow")" \
	"*--list-gpu-arch' ran past its time limit*" "... gpu_list.error: ran past its time limit"
[ "$took" -lt 40 ]
t_ok $? "... in bounded time ($took s, not the 60 s it sleeps)"

# 7. A facts file's gpu_list is checked: exit 2 naming the key.
while IFS='|' read -r edit key; do
	[ -n "$edit" ] || continue
	json_edit "$T_DIR/f.json" "$T_DIR/bad.json" "$edit"
	run "$PTBUILD" plan --facts "$T_DIR/bad.json"
	is "$rc" 2 "facts with $key bad: exit 2"
	printf '%s' "$err" | grep -qF "error: '$T_DIR/bad.json': key '$key':"
	t_ok $? "... naming $key"
done <<EOF
f['toolkits'][0]['gpu_list']['code'] = ['sm_90', 'sm_90; rm -rf /']|toolkits[0].gpu_list.code
f['toolkits'][0]['gpu_list']['arch'] = 'compute_90'|toolkits[0].gpu_list.arch
f['toolkits'][0]['gpu_list']['code'] = ['sm_90'] * 300|toolkits[0].gpu_list.code
f['toolkits'][0]['gpu_list'] = ['sm_90']|toolkits[0].gpu_list
f['toolkits'][0]['gpu_list']['from'] = 'ptbuild'|toolkits[0].gpu_list
f['toolkits'][0]['gpu_list'] = {'from': 'nvcc', 'nvcc': '/x', 'error': 7}|toolkits[0].gpu_list.error
EOF

# 8. plan: an arch list of the architecture nvcc lists and the copy lacks
#    is planned (the copy alone refused it, exit 1), judged by nvcc, and
#    the data is no longer flagged as assumed for this toolkit.
run "$PTBUILD" $A plan --facts "$T_DIR/f.json" --cuda "$rel" --arch-list "$new" --json
is "$rc" 0 "plan, installed assumed CUDA $rel, --arch-list $new (nvcc lists it): exit 0"
printf '%s' "$out" >"$T_DIR/p.json"
is "$(findings "$T_DIR/p.json" arch-not-built-by-toolkit message)" "" "... no arch-not-built-by-toolkit"
unlike "$(findings "$T_DIR/p.json")" "* cuda-data-assumed *" "... no cuda-data-assumed for this toolkit"
is "$(py "$T_DIR/p.json" 'd["cuda"]["gpu_list"]["from"] + " " + d["cuda"]["gpu_list"]["nvcc"]')" "nvcc $T_DIR/tk/bin/nvcc" \
	"... cuda.gpu_list: from nvcc, its path"
run "$PTBUILD" $A plan --facts "$T_DIR/f.json" --cuda "$rel" --arch-list "$new"
like "$out" "*judged by the GPU list from nvcc $T_DIR/tk/bin/nvcc, not ptbuild's tables*" "... the text plan says so"

# 9. plan: the old architecture the copy holds and nvcc does not is refused.
run "$PTBUILD" $A plan --facts "$T_DIR/f.json" --cuda "$rel" --arch-list "$old" --json
is "$rc" 1 "plan, --arch-list $old (the copy has it, nvcc not): exit 1"
printf '%s' "$out" >"$T_DIR/p.json"
like "$(findings "$T_DIR/p.json" arch-not-built-by-toolkit message)" "*does not build $sm_old (GPU list from nvcc $T_DIR/tk/bin/nvcc)*" \
	"... arch-not-built-by-toolkit, naming nvcc's list"

# 10. plan's toolkit choice: a GPU of the architecture the copy lacks; the
#     installed toolkit builds it by its nvcc (by the copy it was passed
#     over for a download).
json_edit "$T_DIR/f.json" "$T_DIR/gpu.json" "f['gpus'] = [{'name': 'NVIDIA test GPU', 'compute_capability': '$new', 'source': 'test'}]"
run "$PTBUILD" $A plan --facts "$T_DIR/gpu.json" --json
printf '%s' "$out" >"$T_DIR/p.json"
is "$(py "$T_DIR/p.json" 'd["cuda"]["source"] + " " + d["cuda"]["root"]')" "installed $T_DIR/tk" \
	"plan, a GPU $new: the installed toolkit is planned"
unlike "$(findings "$T_DIR/p.json")" "* toolkit-drops-gpu *" "... with no toolkit-drops-gpu"
like "$(py "$T_DIR/p.json" 'd["torch_cuda_arch_list"]')" "*$new*" "... and its arch list builds the GPU"

# 11. A release planned without an installed toolkit keeps the copy and
#     its warning.
run "$PTBUILD" $A plan --profile dgx-h100 --cuda "$rel" --json
printf '%s' "$out" >"$T_DIR/p.json"
like "$(findings "$T_DIR/p.json")" "* cuda-data-assumed *" "plan without an installed CUDA $rel: cuda-data-assumed stays"

# 12. doctor on this host: TORCH_CUDA_ARCH_LIST judged by the toolkit's
#     nvcc (the copy refused $new and let $old through), no
#     cuda-data-assumed, and the toolkit line says where the list came from.
CUDA_HOME=$T_DIR/tk TORCH_CUDA_ARCH_LIST=$new "$PTBUILD" $A doctor --json >"$T_DIR/d.json" 2>"$T_DIR/err"
is "$(findings "$T_DIR/d.json" arch-list-invalid message)" "" "doctor, TORCH_CUDA_ARCH_LIST=$new (nvcc lists it): no arch-list-invalid"
unlike "$(findings "$T_DIR/d.json")" "* cuda-data-assumed *" "... no cuda-data-assumed"
is "$(py "$T_DIR/d.json" 'd["toolkit"]["gpu_list"]["nvcc"]')" "$T_DIR/tk/bin/nvcc" "... toolkit.gpu_list names the nvcc"
run env CUDA_HOME="$T_DIR/tk" TORCH_CUDA_ARCH_LIST="$old" "$PTBUILD" $A doctor
like "$out" "*toolkit   $T_DIR/tk (CUDA *; GPU list from nvcc $T_DIR/tk/bin/nvcc)*" "doctor's text names the nvcc"
like "$out" "*error ?arch-list-invalid? TORCH_CUDA_ARCH_LIST='$old' will fail the build: '$old': CUDA $rel does not build $sm_old (GPU list from nvcc $T_DIR/tk/bin/nvcc)*" \
	"... TORCH_CUDA_ARCH_LIST=$old (the copy has it, nvcc not): arch-list-invalid by nvcc's list"
like "$out" "*seen: *GPU list from nvcc $T_DIR/tk/bin/nvcc*" "... its seen says so"

# 13. doctor --facts: the same by the saved facts alone.
TORCH_CUDA_ARCH_LIST=$old "$PTBUILD" $A doctor --facts "$T_DIR/f.json" --json >"$T_DIR/d.json" 2>"$T_DIR/err"
unlike "$(findings "$T_DIR/d.json")" "* cuda-data-assumed *" "doctor --facts: no cuda-data-assumed"
json_edit "$T_DIR/f.json" "$T_DIR/nog.json" "f['toolkits'][0].pop('gpu_list')"
TORCH_CUDA_ARCH_LIST=$old "$PTBUILD" $A doctor --facts "$T_DIR/nog.json" --json >"$T_DIR/d.json" 2>"$T_DIR/err"
like "$(findings "$T_DIR/d.json")" "* cuda-data-assumed *" "... which the same facts without gpu_list raise"

# 14. doctor, a release ptbuild's tables lack: the list is judged by nvcc
#     (before: not judged at all).
run env CUDA_HOME="$T_DIR/tk" TORCH_CUDA_ARCH_LIST="$old" "$PTBUILD" $U doctor
like "$out" "*error ?arch-list-invalid?*'$old': the nvcc of CUDA $rel ('$T_DIR/tk/bin/nvcc') does not build $sm_old: it is not in its --list-gpu-code*" \
	"doctor, CUDA $rel unknown to the tables, TORCH_CUDA_ARCH_LIST=$old: refused by nvcc's list"

# 14b. plan --cuda of that release (before: refused as unknown, exit 2):
#      planned in the toolkit, judged by its real nvcc's answer, and
#      warned of with where the tables stop (the release before it).
run "$PTBUILD" $U plan --facts "$T_DIR/f.json" --cuda "$rel" --arch-list "$new" --json
is "$rc" 0 "plan --cuda $rel, unknown to the tables, installed: exit 0"
printf '%s' "$out" >"$T_DIR/p.json"
is "$(py "$T_DIR/p.json" 'd["cuda"]["root"] + " " + d["cuda"]["gpu_list"]["nvcc"]')" "$T_DIR/tk $T_DIR/tk/bin/nvcc" \
	"... the installed toolkit, judged by its nvcc"
like "$(findings "$T_DIR/p.json" cuda-release-unknown message)" "CUDA $rel in $T_DIR/tk (*) is newer than ptbuild's tables, which stop at CUDA *" \
	"... cuda-release-unknown names it"
run "$PTBUILD" $U plan --facts "$T_DIR/f.json" --cuda "$rel" --arch-list "$old" --json
printf '%s' "$out" >"$T_DIR/p.json"
like "$rc:$(findings "$T_DIR/p.json" arch-not-built-by-toolkit message)" "1:*does not build $sm_old (GPU list from nvcc $T_DIR/tk/bin/nvcc)*" \
	"... --arch-list $old, which its nvcc does not list: exit 1, by nvcc's list"

# 15. arch --cuda: judged by the installed nvcc's answer on this host or
#     in --facts; nothing run for a sourced release (named facts are read).
run env CUDA_HOME="$T_DIR/tk" "$PTBUILD" $A arch "$new" --cuda "$rel"
is "$rc" 0 "arch $new --cuda $rel (assumed, installed here): exit 0"
like "$out" "*checked against           $rel (GPU list from nvcc $T_DIR/tk/bin/nvcc)*" "... checked against nvcc's list, said"
run "$PTBUILD" $A arch "$old" --cuda "$rel" --facts "$T_DIR/f.json"
is "$rc" 1 "arch $old --cuda $rel --facts: exit 1"
like "$err" "*error: '$old': the nvcc of CUDA $rel ('$T_DIR/tk/bin/nvcc') does not build $sm_old*" "... refused by nvcc's list"
run "$PTBUILD" $U arch "$new" --cuda "$rel" --facts "$T_DIR/f.json"
is "$rc" 0 "arch --cuda of a release the tables lack, its nvcc's list in --facts: exit 0"
: >"$LOG"
run env CUDA_HOME="$T_DIR/tk" "$PTBUILD" arch "$new" --cuda "$rel"
is "$rc:$(runs)" "0:0" "arch --cuda of a sourced release: no detect, the nvcc not run"
# ... but facts the options name are still read: a bad one is refused,
# not ignored because the release's list needs none
run "$PTBUILD" arch 8.0 --cuda 12.8 --facts "$T_DIR/no-such.json"
is "$rc" 4 "arch --cuda 12.8 (sourced) --facts of a missing file: exit 4"
like "$err" "*error: cannot read '$T_DIR/no-such.json'*" "... naming the file"
run "$PTBUILD" arch 8.0 --cuda 12.8 --profile no-such-profile
is "$rc" 2 "arch --cuda 12.8 --profile of an unknown name: exit 2"
like "$err" "*error: unknown profile 'no-such-profile'*" "... naming it"
printf '{"schema": ' >"$T_DIR/torn.json"
run "$PTBUILD" arch 8.0 --cuda 12.8 --facts "$T_DIR/torn.json"
is "$rc" 2 "arch --cuda 12.8 --facts of a torn JSON file: exit 2"
: >"$LOG"
run "$PTBUILD" arch 8.0 --cuda 12.8 --facts "$T_DIR/f.json"
is "$rc:$(runs)" "0:0" "... a good --facts with a sourced release: exit 0, nothing run"
# a name a later PyTorch brought: its hint fits the toolkit as its nvcc
# answered (here an assumed 13.5 whose nvcc lists no sm_120), not as
# ptbuild's copied list has it
python3 - "$top_srcdir/tests/fixtures/facts/rtx4090-cuda128.json" >"$T_DIR/no120.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
n = "/usr/local/cuda-13.5/bin/nvcc"
f["toolkits"] = [{"root": "/usr/local/cuda-13.5", "version": "13.5.0", "release": "13.5",
                  "source": "profile", "nvcc": n, "target": "x86_64-linux",
                  "gpu_list": {"from": "nvcc", "nvcc": n, "arch": ["compute_80", "compute_90", "compute_100"],
                               "code": ["sm_80", "sm_90", "sm_100"]}}]
json.dump(f, sys.stdout)
PY
run "$PTBUILD" arch Blackwell --torch 2.6 --cuda 13.5 --facts "$T_DIR/no120.json"
is "$rc" 2 "arch Blackwell --torch 2.6 --cuda 13.5 (nvcc without sm_120): exit 2"
like "$err" "*hint: *(CUDA 13.5, the toolkit in use, does not build sm_120)*" \
	"... the hint says the toolkit's nvcc does not build sm_120"

done_testing
