#!/bin/sh
# t0013-validate-gpu-list.sh - where ptbuild's GPU list of the toolkit's
# release is assumed (a copy, as 13.5's is of 13.4's) or missing (a
# release newer than ptbuild knows), `ptbuild validate` asks that toolkit's
# real nvcc (--list-gpu-arch, --list-gpu-code) and judges the arch list by
# its answer; where the list has a source, it spawns nothing for it.
#
# The real nvcc's release stands in for the assumed one through a recipe
# override of data/cuda.lua (--recipes): its GPU list is made a copy that
# lacks the newest architecture this nvcc lists and holds an old one it
# does not, the two ways a copy goes wrong.  The toolkit validated is the
# real one, its nvcc wrapped only to log its arguments.
. "$top_srcdir/tests/lib.sh"

XDG_CACHE_HOME=$T_DIR/cache TMPDIR=$T_DIR
export XDG_CACHE_HOME TMPDIR
unset CUDA_HOME

. "$top_srcdir/tests/gpulist.sh"
gpulist_nvcc

# The toolkit with its nvcc logging each run (then the real one runs).
gpulist_toolkit "$T_DIR/tk" "echo \"\$*\" >>\"$T_DIR/nvcc.log\"; exec \"$home/bin/nvcc\" \"\$@\""
asks() { grep -c -e '^--list-gpu-arch$' -e '^--list-gpu-code$' "$T_DIR/nvcc.log" 2>/dev/null; }

if [ -r /proc/driver/nvidia/version ]; then co=--compile-only; else co=; fi

# The assumed release (this nvcc's, its list a wrong copy) and the
# unknown one (ptbuild's tables end before this nvcc's).
gpulist_overrides

# 1. Assumed: the newest architecture nvcc lists, which the copy lacks,
#    is compiled (the copy alone refused it, exit 1), and the output says
#    the answer came from nvcc and how the copy is wrong.
: >"$T_DIR/nvcc.log"
run "$PTBUILD" --recipes "$T_DIR/assumed" validate --cuda-home "$T_DIR/tk" --arch-list "$new" $co
is "$rc" 0 "assumed CUDA $rel: '$new', listed by nvcc and not by the copy, compiles (exit 0)"
like "$out" "*GPU list              from $T_DIR/tk/bin/nvcc --list-gpu-arch and --list-gpu-code, not ptbuild's tables*" \
	"... the output says the GPU list came from nvcc"
like "$out" "*binary holds SASS     sm_$(echo "$new" | tr -d .)*" "... and the binary holds its SASS"
like "$err" "*the GPU list was asked of the toolkit's nvcc*ptbuild's GPU list of CUDA $rel is a copy of*" \
	"... a note says why nvcc was asked"
like "$err" "*differs from ptbuild's copied GPU list of CUDA $rel: nvcc has $new, which the copy lacks; the copy has $old, which nvcc lacks; data/cuda.lua's $rel entry should follow nvcc*" \
	"... and names both differences for the maintainers"
is "$(asks)" 2 "... nvcc was asked once for each list"

# 2. Assumed: an old architecture the copy holds and nvcc does not is
#    refused before compiling (exit 1), naming nvcc; the copy alone let it
#    through to a failing compile (exit 5).
: >"$T_DIR/nvcc.log"
run "$PTBUILD" --recipes "$T_DIR/assumed" validate --cuda-home "$T_DIR/tk" --arch-list "$old" $co
is "$rc" 1 "assumed CUDA $rel: '$old', in the copy but not in nvcc's list: exit 1"
like "$err" "*error: '$old': the nvcc of CUDA $rel ('$T_DIR/tk/bin/nvcc') does not build sm_$(echo "$old" | tr -d .): it is not in its --list-gpu-code*" \
	"... the error names nvcc's list as the judge"
like "$err" "*hint: this nvcc builds *$new*" "... and the hint what it builds"
unlike "$(cat "$T_DIR/nvcc.log")" "*-gencode*" "... and nothing was compiled"

# 3. --json: validate/1's gpu_list holds nvcc's answer.
run "$PTBUILD" --recipes "$T_DIR/assumed" validate --cuda-home "$T_DIR/tk" --arch-list "$new" $co --json
is "$rc" 0 "assumed, --json: exit 0"
got=$(printf '%s' "$out" | python3 -c 'import json,sys; g=json.load(sys.stdin)["gpu_list"]; print(g["from"], " ".join(g["code"]))')
is "$got" "nvcc $(printf '%s\n' $codes | grep '^sm_' | tr '\n' ' ' | sed 's/ $//')" "... gpu_list: from nvcc, its --list-gpu-code"

# 3b. A fleet of two builds on this toolkit's release (x86_64 and sbsa
#     profiles): each build judged by nvcc's answer, asked once.
: >"$T_DIR/nvcc.log"
P="$top_srcdir/recipes/profiles"
run "$PTBUILD" --recipes "$T_DIR/assumed" validate --facts "$P/dgx-h100.json" --facts "$P/graviton3.json" --no-cudnn \
	--cuda "$rel" --cuda-home "$T_DIR/tk" --json
got=$(printf '%s' "$out" | python3 -c 'import json,sys; print(" ".join(b["result"] + ":" + b["validate"]["gpu_list"]["from"] for b in json.load(sys.stdin)["builds"]))' 2>&1)
is "$got" "pass:nvcc pass:nvcc" "a fleet on assumed CUDA $rel: both builds judged by nvcc and passed"
is "$(asks)" 2 "... nvcc asked once for each list, not once per build"

# 4. Unknown: a release newer than ptbuild's tables is judged by its nvcc
#    (before: 'unknown CUDA version', exit 2).
: >"$T_DIR/nvcc.log"
run "$PTBUILD" --recipes "$T_DIR/unknown" validate --cuda-home "$T_DIR/tk" --arch-list "$new" $co
is "$rc" 0 "CUDA $rel unknown to ptbuild's tables: '$new' judged by nvcc and compiled (exit 0)"
like "$err" "*ptbuild's tables list no CUDA $rel (they hold *)*" "... saying the tables do not list it"
is "$(asks)" 2 "... nvcc asked once for each list"
run "$PTBUILD" --recipes "$T_DIR/unknown" validate --cuda-home "$T_DIR/tk" --arch-list "$old" $co
is "$rc" 1 "unknown release: '$old' refused by nvcc's answer (exit 1)"

# 5. A release with sourced data: the tables judge, nvcc is not asked.
: >"$T_DIR/nvcc.log"
run "$PTBUILD" validate --cuda-home "$T_DIR/tk" --arch-list "$new" $co --json --force
is "$rc" 0 "sourced CUDA $rel: exit 0"
is "$(asks)" 0 "... and nvcc was not asked for its lists"
like "$out" '*"gpu_list": {*"from": "ptbuild"*' "... gpu_list says the tables judged"

# 6. An nvcc that cannot list (older than --list-gpu-arch): warned, and
#    the copy judges as before.
mkdir -p "$T_DIR/nolist"
for e in "$T_DIR/tk"/*; do ln -s "$e" "$T_DIR/nolist/$(basename "$e")"; done
rm "$T_DIR/nolist/bin"
mkdir -p "$T_DIR/nolist/bin"
for e in "$home"/bin/*; do
	[ "$(basename "$e")" = nvcc ] || ln -s "$e" "$T_DIR/nolist/bin/$(basename "$e")"
done
printf '#!/bin/sh\ncase "$1" in --list-gpu-*) echo "$1" >>"%s"; echo "nvcc fatal   : Unknown option %s" >&2; exit 1 ;; esac\nexec "%s" "$@"\n' \
	"$T_DIR/nvcc.log" "'\$1'" "$home/bin/nvcc" >"$T_DIR/nolist/bin/nvcc"
chmod +x "$T_DIR/nolist/bin/nvcc"
run "$PTBUILD" --recipes "$T_DIR/assumed" validate --cuda-home "$T_DIR/nolist" --arch-list "$new" $co
is "$rc" 1 "an nvcc that cannot list: the copy judges (exit 1)"
like "$err" "*warning: cannot ask the toolkit's nvcc for its GPU list: '$T_DIR/nolist/bin/nvcc --list-gpu-arch' failed: nvcc fatal   : Unknown option*" \
	"... warned, with nvcc's message"
like "$err" "*as ptbuild's data has it: the GPU list of CUDA $rel is assumed*" "... and the refusal says it is the copy's"

# 6b. The same nvcc for a release ptbuild does not know: nothing can
#     judge the arch list, and the error says so and what to do (before:
#     a note of judging by the "(missing)" list, then 'unknown CUDA
#     version', exit 2).
run "$PTBUILD" --recipes "$T_DIR/unknown" validate --cuda-home "$T_DIR/nolist" --arch-list "$new" $co
is "$rc" 3 "unknown CUDA $rel, an nvcc that cannot list: exit 3"
like "$err" "*error: cannot judge the arch list for CUDA $rel: ptbuild's tables list no CUDA $rel, and its nvcc could not list the GPUs it builds ('$T_DIR/nolist/bin/nvcc --list-gpu-arch' failed: nvcc fatal*" \
	"... the error says nothing can judge the arch list, with nvcc's message"
like "$err" "*hint: use a toolkit whose nvcc answers '--list-gpu-arch' and '--list-gpu-code'*or a CUDA release ptbuild knows*" \
	"... and the hint what to do"
unlike "$err" "*(missing)*" "... no note of judging by a missing list"
unlike "$err" "*unknown CUDA version*" "... nor the converter's error"

# 6c. A fleet of two builds on that toolkit, its list assumed: nvcc's
#     failure is asked and warned of once, not once per build.
: >"$T_DIR/nvcc.log"
run "$PTBUILD" --recipes "$T_DIR/assumed" validate --facts "$P/dgx-h100.json" --facts "$P/graviton3.json" --no-cudnn \
	--cuda "$rel" --cuda-home "$T_DIR/nolist" --json
is "$(grep -c "cannot ask the toolkit's nvcc" "$T_DIR/err")" 1 "a fleet on a failing nvcc: warned once"
is "$(grep -c -e '^--list-gpu-arch$' "$T_DIR/nvcc.log")" 1 "... and nvcc asked once, not once per build"
got=$(printf '%s' "$out" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["builds"]))' 2>&1)
is "$got" 2 "... both builds reported"

# 6d. An nvcc slow to list: validate's --timeout bounds each list (before:
#     60 s however --timeout was set, so the slow list was waited out).
mkdir -p "$T_DIR/slow"
for e in "$T_DIR/nolist"/*; do ln -s "$(readlink "$e")" "$T_DIR/slow/$(basename "$e")"; done
rm "$T_DIR/slow/bin"
mkdir -p "$T_DIR/slow/bin"
for e in "$home"/bin/*; do
	[ "$(basename "$e")" = nvcc ] || ln -s "$e" "$T_DIR/slow/bin/$(basename "$e")"
done
printf '#!/bin/sh\ncase "$1" in --list-gpu-*) exec sleep 20 ;; esac\nexec "%s" "$@"\n' "$home/bin/nvcc" >"$T_DIR/slow/bin/nvcc"
chmod +x "$T_DIR/slow/bin/nvcc"
start=$(date +%s)
run "$PTBUILD" --recipes "$T_DIR/assumed" validate --cuda-home "$T_DIR/slow" --arch-list "$old" --timeout 2 $co
took=$(($(date +%s) - start))
like "$err" "*warning: cannot ask the toolkit's nvcc for its GPU list: '$T_DIR/slow/bin/nvcc --list-gpu-arch' ran past its time limit*" \
	"a slow nvcc with --timeout 2: its list ran past the limit, warned"
[ "$took" -lt 15 ]
t_ok $? "... within --timeout, not 60 s ($took s)"

done_testing
