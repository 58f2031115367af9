#!/bin/sh
# t0703-real-two-toolkits.sh - two real CUDA toolkits on one machine:
# Debian's packaged 12.4 installed for real (its /usr and /etc laid over
# this host's in a private mount namespace, as dpkg would install it) next
# to this machine's NVIDIA 13.0 in /usr/local/cuda.  detect lists both; plan
# picks by its rules (a wheel CUDA first, newest first, only what the driver
# runs and what builds every GPU); validate --compile-only builds with each
# for the whole SM list its own nvcc names, and the object holds exactly
# that: by ptbuild's reading and by cuobjdump 12.4's.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/realinputs/lib.sh"
[ -x /usr/local/cuda/bin/nvcc ] || skip_all "no CUDA toolkit in /usr/local/cuda on this machine to stand beside Debian's"
command -v python3 >/dev/null 2>&1 || skip_all "no python3 to read the JSON"
real_debs nvidia-cuda-toolkit nvidia-cuda-dev libcudart12 libnvvm4
in_overlay true || skip_all "no unprivileged mount namespace with overlayfs here"

root13=$(cd /usr/local/cuda && pwd -P)
v13=$(/usr/local/cuda/bin/nvcc --version | sed -n 's/.*release \([0-9]*\.[0-9]*\),.*/\1/p')
[ -n "$v13" ] || skip_all "cannot read /usr/local/cuda/bin/nvcc --version"
# the user's shell: another CUDA's bin first on PATH, as this machine has it
P=/usr/local/cuda/bin:/usr/bin:/bin
inside() { # CMD...: in the namespace, with a clean environment
	run in_overlay env -i PATH="$P" HOME="$T_DIR" XDG_CACHE_HOME="$T_DIR/cache" \
		TMPDIR="$T_DIR" PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$@"
}
# py EXPR: EXPR over the JSON in $out as d
py() {
	printf '%s' "$out" | python3 -c "import json,sys
d=json.load(sys.stdin)
print($1)"
}

# --- detect: both toolkits, each with its own version -----------------
inside "$PTBUILD" detect --json
is "$rc" 0 "detect with Debian's CUDA installed beside $root13 exits 0"
printf '%s' "$out" >"$T_DIR/host.json"
is "$(py '" ".join(sorted(t["root"] + "=" + t["release"] for t in d["toolkits"] if t.get("release")))')" \
	"$root13=$v13 /usr=12.4" "it lists /usr (12.4) and $root13 ($v13)"

# --- plan: facts of this machine with a driver and GPU record ---------
facts() { # NAME DRIVER CUDA_MAX GPU CC
	python3 - "$T_DIR/host.json" "$@" <<'PY' >"$T_DIR/$1.json"
import json, sys
d = json.load(open(sys.argv[1]))
_, _, name, drv, cmax, gpu, cc = sys.argv
d["driver"] = {"version": drv, "cuda_max": cmax, "source": "test"}
d["gpus"] = [{"index": 0, "name": gpu, "compute_capability": cc, "source": "test"}]
print(json.dumps(d))
PY
}
plan() { # FACTS TORCH: sets $out to "root|source|why"
	run "$PTBUILD" plan --facts "$T_DIR/$1.json" --torch "$2" --json
	# exit 1: the plan holds an error problem (the 5090's arch list)
	[ "$rc" -le 1 ] || { echo "# plan exit $rc: $err"; return; }
	dirs=$(py '" ".join(d["path_prepend"]["PATH"]) + " | " + " ".join(d["path_prepend"]["LD_LIBRARY_PATH"]) + " | " + " ".join(d["path_remove"]["PATH"]) + " | " + " ".join(d["path_remove"]["LD_LIBRARY_PATH"])')
	out=$(py 'd["cuda"]["root"] + "|" + d["cuda"]["source"] + "|" + d["cuda"]["why"]')
}
facts r580 580.65.06 13.0 "NVIDIA GeForce RTX 4090" 8.9
facts r550 550.54.15 12.4 "NVIDIA GeForce RTX 4090" 8.9
facts b580 580.65.06 13.0 "NVIDIA GeForce RTX 5090" 12.0

plan r580 2.9
like "$out" "$root13|installed|installed in $root13 and suits this build" \
	"PyTorch 2.9, driver 580: the newest installed, $v13 (it ships wheels for it)"
is "$dirs" "$root13/bin | $root13/lib64 |  | " \
	"...its bin first on PATH; /usr/bin, which holds Debian's nvcc and everything else, is not stripped"
plan r580 2.6
like "$out" "/usr|installed|installed in /usr and suits this build" \
	"PyTorch 2.6 (no CUDA 13 in its sources): Debian's 12.4, a CUDA it ships wheels for"
is "$dirs" "/usr/bin |  | $root13/bin | $root13/lib64" \
	".../usr/bin first on PATH, no /usr/lib64 on LD_LIBRARY_PATH; $root13 stripped"
plan r580 2.7
like "$out" "/usr|installed|*PyTorch 2.7's build accepts CUDA 12.4; download.pytorch.org has no wheel of it*" \
	"PyTorch 2.7 (wheels 11.8 12.6 12.8): 12.4 installed, accepted untested, before any download"
plan r550 2.9
like "$out" "/usr/local/cuda-12.9|download|*$root13: driver 550.54.15 cannot run CUDA $v13*/usr: PyTorch 2.9 does not build with CUDA 12.4*" \
	"PyTorch 2.9, driver 550: neither fits (driver; PyTorch's minimum): a download of its newest 12.x wheel CUDA (cu129), saying why"
plan b580 2.6
like "$out" "*|download|*/usr: CUDA 12.4 does not build for NVIDIA GeForce RTX 5090 (12.0)*" \
	"an RTX 5090 with PyTorch 2.6: 12.4 cannot build sm_120, so a download"

# --- validate: each toolkit, the whole SM list its own nvcc names ---------
# nvcc --list-gpu-code "sm_50 ... sm_90" -> "5.0;...;9.0+PTX"
arch_list() {
	list=$(printf '%s\n' "$out" | sed -n 's/^sm_\([0-9]*\)\([0-9]\)$/\1.\2/p' | tr '\n' ';')
	printf '%s' "${list%;}+PTX"
}
inside /usr/bin/nvcc --list-gpu-code
list124=$(arch_list)
is "$list124" "5.0;5.2;5.3;6.0;6.1;6.2;7.0;7.2;7.5;8.0;8.6;8.7;8.9;9.0+PTX" \
	"Debian's nvcc 12.4 names sm_50 ... sm_90"
run /usr/local/cuda/bin/nvcc --list-gpu-code
list13=$(arch_list)

# validate --keep --json: found SASS and PTX, and cuobjdump's listing of
# the same object (cuobjdump 12.4 reads 12.4 objects)
validate() { # CUDA_HOME LIST
	inside "$PTBUILD" validate --cuda-home "$1" --arch-list "$2" --compile-only --force --keep --json
	vrc=$rc
	doc=$out
	found=$(py '" ".join(sorted(d.get("found", {}).get("sass", []) + d.get("found", {}).get("ptx", [])))' 2>/dev/null)
	cmd=$(py 'd["compile"]["command"]' 2>/dev/null)
	wd=$(py 'd.get("work_dir", "")' 2>/dev/null)
}
want() { # LIST: its sm_XY and the last entry's compute_XY, sorted
	w=$({ printf '%s\n' "$1" | tr ';' '\n' | sed -e 's/+PTX//' -e 's/\.//' -e 's/^/sm_/'
	      printf 'compute_%s\n' "$(printf '%s' "${1##*;}" | sed -e 's/+PTX//' -e 's/\.//')"
	    } | LC_ALL=C sort | tr '\n' ' ')
	printf '%s' "${w% }"
}

validate /usr "$list124"
is "$vrc" 0 "validate --cuda-home /usr with $P: passes"
[ "$vrc" -eq 0 ] || printf '%s\n' "$doc" | sed -n 's/^/# /p' | head -20
is "$found" "$(want "$list124")" "...the object holds exactly SASS sm_50 ... sm_90 and PTX compute_90"
like "$cmd" "/usr/bin/nvcc -O2 --threads * -c *" "...compiled as one object with --threads by Debian's nvcc"
if [ -n "$wd" ] && [ -f "$wd/ptb_validate.o" ]; then
	inside /usr/bin/cuobjdump --list-elf --list-ptx "$wd/ptb_validate.o"
	nv=$(printf '%s\n' "$out" | sed -n -e 's/^ELF file .*\.\(sm_[0-9a-z]*\)\.cubin$/\1/p' \
		-e 's/^PTX file .*\.sm_\([0-9a-z]*\)\.ptx$/compute_\1/p' | LC_ALL=C sort | tr '\n' ' ')
	is "${nv% }" "$(want "$list124")" "...and cuobjdump 12.4 lists the same images"
else
	t_ok 1 "...and cuobjdump 12.4 lists the same images (no work directory kept)"
fi

validate "$root13" "$list13"
is "$vrc" 0 "validate --cuda-home $root13: passes"
is "$found" "$(want "$list13")" "...the object holds exactly CUDA $v13's SASS list ($list13)"
like "$cmd" "$root13/bin/nvcc -O2 --threads * -c *" "...compiled with --threads by $root13/bin/nvcc"

# 12.4 asked for what only 13.0 builds: refused before nvcc runs
inside "$PTBUILD" validate --cuda-home /usr --arch-list "12.0" --compile-only --force
is "$rc" 1 "validate --cuda-home /usr --arch-list 12.0: exit 1 (CUDA 12.4 cannot build sm_120)"

# --- the plan's toolkit validates the plan ---------------------------------
inside "$PTBUILD" validate --facts "$T_DIR/r580.json" --torch 2.6 --compile-only --force --json
is "$(py 'd["cuda"]["root"] + " " + d["cuda"]["version"] + " " + d["result"] + " " + " ".join(d["found"]["sass"] + d["found"]["ptx"])' 2>/dev/null)" \
	"/usr 12.4 pass sm_89 compute_89" "validate --torch 2.6 builds the plan with the plan's toolkit, Debian's 12.4, for the RTX 4090"
inside "$PTBUILD" validate --facts "$T_DIR/r580.json" --torch 2.9 --compile-only --force --json
is "$(py 'd["cuda"]["root"] + " " + d["cuda"]["version"] + " " + d["result"] + " " + " ".join(d["found"]["sass"] + d["found"]["ptx"])' 2>/dev/null)" \
	"$root13 $v13 pass sm_89 compute_89" "validate --torch 2.9 builds it with $root13"
done_testing
