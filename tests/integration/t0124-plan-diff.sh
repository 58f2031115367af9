#!/bin/sh
# t0124-plan-diff.sh - plan --diff OLD: what changed from a saved plan to
# the one made now, decision by decision, with the environment, CMake
# entries and problems that came and went; the same plan: no change.
. "$top_srcdir/tests/lib.sh"

"$PTBUILD" plan --profile dgx-h100 --torch 2.5 --json >"$T_DIR/old.json" 2>/dev/null
run "$PTBUILD" plan --profile dgx-h100 --torch 2.5 --diff "$T_DIR/old.json"
is "$rc" 0 "the same plan: exit 0"
like "$out" "*none: the same decisions, environment, CMake entries and problems*" "... and says nothing changed"

run "$PTBUILD" plan --profile dgx-h100 --diff "$T_DIR/old.json"
is "$rc" 0 "a newer PyTorch: exit 0 (the new plan has no error)"
like "$out" "Changes from profile:dgx-h100 to profile:dgx-h100*
  torch
    was   PyTorch 2.5
    now   PyTorch 2.14*" "the torch decision, was and now"
like "$out" "*  cuda
    was   CUDA 12.4 (12.4.*) for linux-x86_64, installed, in /usr/local/cuda-12.4
    now   CUDA 12.6 *
    why   *" "the CUDA decision with the reason for the new one"
like "$out" "*~ CUDA_HOME=/usr/local/cuda-12.6 (was /usr/local/cuda-12.4)*" "a changed variable"
like "$out" "*- NCCL_ROOT=/usr/local/cuda-12.4*" "a variable the new plan drops"
like "$out" "*~ CUDAToolkit_ROOT=/usr/local/cuda-12.6 (was /usr/local/cuda-12.4)*" "a changed CMake entry"
like "$out" "*Problems*+ warning \[driver-minor-compat\]*" "a problem that came"

run "$PTBUILD" plan --profile dgx-h100 --diff "$T_DIR/old.json" --json
is "$rc" 0 "--diff --json: exit 0"
python3 - "$T_DIR/out" <<'PY' >"$T_DIR/check" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "ptbuild.plan-diff/1", d["schema"]
topics = [c["topic"] for c in d["decisions"]]
assert topics[0] == "torch" and "cuda" in topics, topics
cuda = d["decisions"][topics.index("cuda")]
assert cuda["was"].startswith("CUDA 12.4") and cuda["now"].startswith("CUDA 12.6"), cuda
env = {c["name"]: (c["was"], c["now"]) for c in d["env"]}
assert env["NCCL_ROOT"] == ("/usr/local/cuda-12.4", None), env
assert [p["code"] for p in d["problems"]["added"]][:1] == ["driver-minor-compat"], d["problems"]
PY
t_ok $? "the JSON document holds the same changes"
sed 's/^/# /' "$T_DIR/check" | head -5

# Reversed: what came now goes.
"$PTBUILD" plan --profile dgx-h100 --json >"$T_DIR/new.json" 2>/dev/null
run "$PTBUILD" plan --profile dgx-h100 --torch 2.5 --diff "$T_DIR/new.json"
like "$out" "*+ NCCL_ROOT=/usr/local/cuda-12.4*- warning \[driver-minor-compat\]*" "reversed: the variable comes back, the problem goes"

# A bad saved plan is refused before any planning, naming the file.
printf '{"schema": "ptbuild.plan/1", "max_jobs": "many"}' >"$T_DIR/bad.json"
run "$PTBUILD" plan --profile dgx-h100 --diff "$T_DIR/bad.json"
is "$rc" 2 "a malformed saved plan: exit 2"
like "$err" "*bad.json' is not a valid plan: key 'max_jobs'*" "... naming the file and the key"
run "$PTBUILD" plan --profile dgx-h100 --diff "$T_DIR/none.json"
is "$rc" 4 "a missing saved plan: exit 4"

done_testing
