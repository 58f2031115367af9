#!/bin/sh
# t0804-fleet-validate-doctor.sh - `ptbuild validate` and `ptbuild doctor`
# for a fleet.  validate: every build compiled (compile-only) with the
# real nvcc for its own arch list, each fat binary checked; a build whose
# CUDA has no toolkit here is named as not validated, with its fix; an
# nvcc that drops code fails its build (exit 5).  doctor: every node
# judged by its own facts, findings grouped per node (text and --json),
# the checks that need the machine named per node; exit 1 on an error.
. "$top_srcdir/tests/lib.sh"
P="$top_srcdir/recipes/profiles"
F="$top_srcdir/tests/fixtures/facts"
XDG_CACHE_HOME=$T_DIR/cache TMPDIR=$T_DIR
export XDG_CACHE_HOME TMPDIR
unset CUDA_HOME

# json FILE EXPR: a Python expression over the document d.
json() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); r = eval(sys.argv[2]); print(r if isinstance(r, str) else json.dumps(r))' "$1" "$2"
}

# --- doctor ---------------------------------------------------------------
# GTX 1080 with CUDA 13 (drops its sm_61: an error of that node), an RTX
# 4090 with CUDA 12.8, a GH200 without a toolkit in its facts.
run "$PTBUILD" doctor --facts "$F/gtx1080-cuda13.json" --facts "$F/rtx4090-cuda128.json" --facts "$P/gh200.json"
is "$rc" 1 "doctor for a fleet of three, one with an error: exit 1"
like "$out" "== node gh200 ($P/gh200.json, taken *)*== node gtx1080-cuda13 ($F/gtx1080-cuda13.json, taken *)*== node rtx4090-cuda128 (*" \
	"... a section per node, named with its facts file"
sec() { printf '%s\n' "$out" | awk -v n="$1" '/^== node /{ p = ($3 == n) } /^[0-9]+ nodes:/{ p = 0 } p'; }
like "$(sec gtx1080-cuda13)" "*error ?toolkit-drops-gpu?*1 error*" "... the toolkit-drops-gpu error under the GTX 1080 node"
like "$(sec gh200)" "*warning ?no-toolkit?*" "... the GH200's missing toolkit under its own node"
printf '%s\n' "$(sec rtx4090-cuda128) $(sec gh200)" | grep -q 'toolkit-drops-gpu'
t_ok $((!$?)) "... and not under the others"
like "$(sec rtx4090-cuda128)" "*checks need the machine itself (run 'ptbuild doctor' on rtx4090-cuda128):*cuda-home-unset*" \
	"... the checks that need the machine named for each node, not skipped silently"
like "$out" "*3 nodes: 1 with errors (1 error)" "... and a summary"

"$PTBUILD" doctor --facts "$F/gtx1080-cuda13.json" --facts "$F/rtx4090-cuda128.json" --facts "$P/gh200.json" --json >"$T_DIR/d.json"
is "$?" 1 "doctor --json for the fleet: exit 1"
is "$(json "$T_DIR/d.json" 'd["schema"] + " " + " ".join(n["name"] for n in d["nodes"])')" "ptbuild.doctor-fleet/1 gh200 gtx1080-cuda13 rtx4090-cuda128" \
	"... a ptbuild.doctor-fleet/1 document with a node each"
is "$(json "$T_DIR/d.json" '[[f["code"] for f in n["findings"] if f["severity"] == "error"] for n in d["nodes"]]')" '[[], ["toolkit-drops-gpu"], []]' \
	"... the error in its node's findings"
nchecks=$(grep -c '^check("' "$top_srcdir/recipes/doctor.lua")
is "$(json "$T_DIR/d.json" 'all("env-path-cuda-missing" not in n["needs_machine"] and "qemu-emulation" in n["needs_machine"] and n["checks"] + len(n["needs_machine"]) == '"$nchecks"' for n in d["nodes"])')" "true" \
	"... each node's checks by facts plus those needing the machine are all $nchecks checks of recipes/doctor.lua"
is "$(json "$T_DIR/d.json" '[n["toolkit"]["version"] if n["toolkit"] else None for n in d["nodes"]]')" '[null, "13.0.88", "12.8.93"]' \
	"... each node judged with its own toolkit (from its facts), not this machine's"
# The compiler check needs only facts: a node with CUDA 12.8 and gcc 15
# alone (its default compiler, the one its build takes) is an error there.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["compilers"] = json.load(open(sys.argv[2]))["compilers"]
d.setdefault("taken", {})["host"] = "gcc15-node"; json.dump(d, open(sys.argv[3], "w"))' \
	"$F/rtx4090-cuda128.json" "$F/gcc15-only.json" "$T_DIR/gcc15-node.json"
"$PTBUILD" doctor --facts "$T_DIR/gcc15-node.json" --facts "$P/gh200.json" --json >"$T_DIR/g.json"
is "$?" 1 "a node whose only gcc is too new for its CUDA 12.8: exit 1"
is "$(json "$T_DIR/g.json" '[(n["name"], [f["code"] for f in n["findings"] if f["severity"] == "error"], "gcc-too-new" in n["needs_machine"]) for n in d["nodes"]]')" \
	'[["gcc15-node", ["gcc-too-new"], false], ["gh200", [], false]]' "... gcc-too-new judged by its facts, under that node (named by taken.host)"
# one node alone, by its facts, is the same judgement as in the fleet
run "$PTBUILD" doctor --facts "$F/gtx1080-cuda13.json" --facts "$F/rtx4090-cuda128.json" --json
is "$(printf '%s\n' "$out" | python3 -c 'import json, sys; print(json.load(sys.stdin)["nodes"][0]["findings"][0]["code"])')" "toolkit-drops-gpu" "a fleet of two: the same finding"
mkdir "$T_DIR/bad" && cp "$F/gtx1080-cuda13.json" "$T_DIR/bad/" && echo '{' >"$T_DIR/bad/broken.json"
run "$PTBUILD" doctor --facts "$T_DIR/bad"
is "$rc" 2 "a directory with a bad facts file: exit 2"
like "$err" "*1 of 2 facts files are not usable*broken.json*" "... naming it"
run "$PTBUILD" doctor --facts "$T_DIR/bad" --skip-bad
like "$out" "*== node gtx1080-cuda13*fleet-facts-skipped*broken.json*" "--skip-bad: the others doctored, the bad file named"
run "$PTBUILD" doctor --facts "$F/gtx1080-cuda13.json" --facts "$P/gh200.json" --profile gh200
is "$rc" 2 "a fleet with --profile: usage error"

# --- validate -------------------------------------------------------------
nvcc=${NVCC:-}
[ -n "$nvcc" ] && command -v "$nvcc" >/dev/null 2>&1 || nvcc=$(command -v nvcc 2>/dev/null)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ] || ! home=$(nvcc_toolkit "$(command -v "$nvcc")"); then
	skip "validate for a fleet" "no nvcc with a toolkit root on this machine (set NVCC or put nvcc on PATH)"
	done_testing
	exit $?
fi
rel=$("$nvcc" --version | sed -n 's/.*release \([0-9]*\.[0-9]*\),.*/\1/p')
echo "# toolkit $home, CUDA $rel"

# x86_64 (DGX H100) + sbsa (Graviton3), both planned for this toolkit's CUDA.
set -- --facts "$P/dgx-h100.json" --facts "$P/graviton3.json" --no-cudnn
run "$PTBUILD" validate "$@" --cuda "$rel" --cuda-home "$home"
is "$rc" 0 "validate a fleet of two builds for CUDA $rel with that toolkit: exit 0"
[ "$rc" -eq 0 ] || printf '# %s\n' "$err"
"$PTBUILD" plan "$@" --cuda "$rel" --json >"$T_DIR/fleet.json" 2>/dev/null
lx=$(json "$T_DIR/fleet.json" 'd["builds"][0]["torch_cuda_arch_list"]')
ls=$(json "$T_DIR/fleet.json" 'd["builds"][1]["torch_cuda_arch_list"]')
like "$out" "== build x86_64: CUDA $rel, TORCH_CUDA_ARCH_LIST=$lx, for dgx-h100*arch list             $lx*result                PASS*== build sbsa: CUDA $rel, TORCH_CUDA_ARCH_LIST=$ls, for graviton3*arch list             $ls*result                PASS*2 builds: 2 passed, 0 failed, 0 not validated*" \
	"... each build compiled for its own arch list ($lx; $ls) and passed"
"$PTBUILD" validate "$@" --cuda "$rel" --cuda-home "$home" --json >"$T_DIR/v.json" 2>/dev/null
is "$(json "$T_DIR/v.json" '[(b["platform"], b["result"], b["validate"]["torch_cuda_arch_list"], b["validate"]["run"] if "run" in b["validate"] else None) for b in d["builds"]]')" \
	"[[\"x86_64\", \"pass\", \"$lx\", null], [\"sbsa\", \"pass\", \"$ls\", null]]" "--json: ptbuild.validate-fleet/1, each build's own validate document, nothing run"
want=$(python3 -c 'import sys; print(" ".join("sm_%s" % a.replace(".", "").replace("+PTX", "") for a in sys.argv[1].split(";")))' "$ls")
is "$(json "$T_DIR/v.json" '" ".join(d["builds"][1]["validate"]["found"]["sass"])')" "$want" "... the sbsa binary holds SASS for every architecture asked ($want)"

# A build whose CUDA has no toolkit here: DGX H100 (CUDA 12.6 for its
# driver) + GH200 (CUDA 13.0), with only this toolkit.
if [ "$rel" = 13.0 ] && [ ! -x /usr/local/cuda-12.6/bin/nvcc ]; then
	run "$PTBUILD" validate --facts "$P/dgx-h100.json" --facts "$P/gh200.json" --no-cudnn --cuda-home "$home"
	is "$rc" 1 "a fleet with a build whose CUDA 12.6 is not installed: exit 1 (not a pass, not a crash)"
	like "$out" "*== build x86_64: CUDA 12.6*NOT VALIDATED: no CUDA 12.6 toolkit here to compile with (--cuda-home '$home' is CUDA 13.0; the build's root '/usr/local/cuda-12.6' holds no bin/nvcc)*fix *ptbuild fetch --cuda 12.6.* --prefix DIR* --cuda-home DIR*== build sbsa: CUDA 13.0*result                PASS*1 passed, 0 failed, 1 not validated*" \
		"... the x86_64 build named with the reason and the fix, the sbsa build validated"
	like "$err" "*warning: build x86_64 (CUDA 12.6) was not validated*" "... and a warning line for it"
else
	skip "a build whose CUDA is not installed" "needs CUDA 13.0 here and no CUDA 12.6 (have $rel)"
fi

# Builds that fail: an nvcc that drops the last -gencode (each build's
# PTX) gives binaries that lack what was asked (exit 5).
fk=$T_DIR/drop
mkdir -p "$fk/bin"
for e in "$home"/*; do [ "$(basename "$e")" = bin ] || ln -s "$e" "$fk/$(basename "$e")"; done
cat >"$fk/bin/nvcc" <<WRAP
#!/bin/sh
last=
for a; do case "\$a" in -gencode*) last=\$a ;; esac; done
for a; do shift; [ "\$a" = "\$last" ] && [ -n "\$last" ] && continue; set -- "\$@" "\$a"; done
exec "$nvcc" "\$@"
WRAP
chmod +x "$fk/bin/nvcc"
run "$PTBUILD" validate "$@" --cuda "$rel" --cuda-home "$fk" --force
is "$rc" 5 "an nvcc that drops code: exit 5"
like "$out" "*== build x86_64*binary holds PTX      none*result                FAIL*== build sbsa*binary holds PTX      none*result                FAIL*2 builds: 0 passed, 2 failed*" \
	"... each build's binary lacks the PTX asked: both FAIL"
like "$err" "*lacks *" "... naming what is missing"
done_testing
