#!/bin/sh
# t0123-facts-versions.sh - every version-valued key of a facts document
# goes through one form check: "twelve", "12..x" and "12." given to
# `plan --facts` are exit 2 naming the key path, never a recipe crash
# (exit 3, "attempt to compare number with nil").  The keys come from
# real facts of the fixture machines; each is tried where it occurs.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

FIX="$top_srcdir/tests/fixtures/sysroots"
# key path  fixture that has it
keys="driver.version dgx-h100
driver.library_version rtx4090-workstation
driver.cuda_max dgx-h100
driver.built_with_gcc dgx-h100
host.glibc dgx-h100
gpus[0].compute_capability dgx-h100
toolkits[0].version dgx-h100
toolkits[0].release dgx-h100
toolkits[0].cudnn dgx-h100
toolkits[0].nccl dgx-h100
compilers[0].version dgx-h100
compilers[1].version rtx4090-workstation
torch.version pip-wheel
torch.cuda pip-wheel
jetson.l4t jetson-orin
jetson.jetpack jetson-orin
jetson.cuda jetson-orin"

# set KEY to VALUE in FIXTURE's facts, written to OUT; exit 1 when absent
mutate() { # FIXTURE KEY VALUE OUT
	python3 - "$FIX/$1.facts.json" "$2" "$3" "$4" <<'EOF'
import json, re, sys
src, key, val, out = sys.argv[1:]
d = json.load(open(src))
parts = [int(p) if p.isdigit() else p for p in re.split(r"[.\[\]]+", key) if p]
o = d
for p in parts[:-1]:
    o = o[p]
if not isinstance(o, dict) or not isinstance(o.get(parts[-1]), str):
    sys.exit(1)
o[parts[-1]] = val
json.dump(d, open(out, "w"))
EOF
}

echo "$keys" | while read -r key fixture; do
	pat=$(printf '%s' "$key" | sed 's/\[/\\[/g')   # [0] is literal in the glob
	for bad in twelve 12..x 12. ''; do
		if ! mutate "$fixture" "$key" "$bad" "$T_DIR/f.json"; then
			t_ok 1 "$key is a string in $fixture (the test's premise)"
			break
		fi
		run "$PTBUILD" plan --facts "$T_DIR/f.json"
		is "$rc" 2 "$key = '$bad': exit 2"
		like "$err" "*error: '$T_DIR/f.json': key '$pat': expected a*" "... naming the key path"
	done
done >"$T_DIR/tap"
# (a pipe into while runs in a subshell: count its results here)
cat "$T_DIR/tap"
T_N=$(grep -c '^\(not \)\?ok ' "$T_DIR/tap")
T_FAILED=$(grep -c '^not ok ' "$T_DIR/tap")

# well-formed values of each kind still pass
mutate pip-wheel torch.version 2.7.0.dev20250101+cu128 "$T_DIR/ok.json" &&
	run "$PTBUILD" plan --facts "$T_DIR/ok.json"
like "$rc" "[01]" "a nightly torch version with a local part is accepted (exit $rc)"
mutate dgx-h100 compilers[0].version 12 "$T_DIR/ok.json" &&
	run "$PTBUILD" plan --facts "$T_DIR/ok.json"
like "$rc" "[01]" "a one-part compiler version ('12') is accepted (exit $rc)"

done_testing
