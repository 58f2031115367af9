#!/bin/sh
# t0146-plan-orin-jetpack72.sh - on JetPack 7.2 (L4T 39) an Orin runs CUDA
# 13.2 and newer from the SBSA toolkit (data/jetson.lua sbsa_min_cc): the
# JetPack's own CUDA 13.2 there is an SBSA toolkit.  Each installed toolkit
# is judged by its own release, not by the --cuda of the plan: JetPack
# 7.2's 13.2 is no "SBSA toolkit on a Jetson" when the plan asks for
# another CUDA, while an SBSA 13.0 (which no Orin runs) still is.  And a
# CUDA the Jetson cannot install is answered with one it can, the SBSA
# CUDAs of 13.2 and later included.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cd "$top_srcdir" || exit 1

# orin NAME L4T UBUNTU [VERSION]: the Orin profile on that L4T, with an
# SBSA toolkit of VERSION in /usr/local/cuda-X.Y, or none
orin() {
	json_edit recipes/profiles/jetson-orin.json "$T_DIR/$1.json" "
f['jetson']['l4t'] = '$2'
f['host']['os'] = {'id': 'ubuntu', 'version_id': '$3'}
f['host']['glibc'] = '2.39'
v = '${4-}'
f['toolkits'] = [{'root': '/usr/local/cuda-' + '.'.join(v.split('.')[:2]), 'version': v, 'source': 'test',
                  'nvcc': '/usr/local/cuda-' + '.'.join(v.split('.')[:2]) + '/bin/nvcc',
                  'cudnn': None, 'nccl': None, 'target': 'sbsa-linux'}] if v else []"
}
codes() { # PLAN.json: "code:severity" of its problems, sorted
	python3 -c '
import json, sys
print(",".join(sorted("%s:%s" % (x["code"], x["severity"]) for x in json.load(open(sys.argv[1]))["problems"])))' "$1"
}
orin jp72 39.2.0 24.04 13.2.78       # JetPack 7.2 with its own CUDA 13.2
orin jp72x 39.2.0 24.04 13.0.88      # JetPack 7.2 with an SBSA 13.0 beside it
orin jp72n 39.2.0 24.04              # JetPack 7.2, no toolkit

# FACTS TORCH CUDA -> the problems of the plan
while read -r facts torch cuda want why; do
	"$PTBUILD" plan --facts "$T_DIR/$facts.json" --torch "$torch" --cuda "$cuda" --json >"$T_DIR/p.json" 2>/dev/null
	is "$(codes "$T_DIR/p.json")" "$want" "$facts, PyTorch $torch, --cuda $cuda: $why"
done <<'TABLE'
jp72 2.14 13.4 multiple-toolkits:warning,torch-cuda-untested:warning 13.2 stays a toolkit this Orin runs
jp72 2.14 12.6 cuda-platform-missing:error,multiple-toolkits:warning 12.6 has no Ubuntu 24.04 package, 13.2 is no wrong toolkit
jp72x 2.14 13.4 multiple-toolkits:warning,sbsa-toolkit-on-jetson:warning,torch-cuda-untested:warning an SBSA 13.0 runs on no Orin
TABLE

# A CUDA this Jetson cannot install: the fix names the ones it can, the
# SBSA ones its L4T runs among them, and no CUDA an Orin cannot run
run "$PTBUILD" plan --facts "$T_DIR/jp72n.json" --torch 2.14 --cuda 12.6
is "$rc" 1 "jp72n, --cuda 12.6: an error (exit 1)"
like "$out" "*cuda-platform-missing*fix: choose one it has (--cuda 13.2, 13.3, 13.4, 13.5)*" \
	"... whose fix offers the SBSA CUDAs JetPack 7.2 runs on Orin"
unlike "$out" "*choose another --torch*" "... and does not send the user to another PyTorch"
"$PTBUILD" plan --facts "$T_DIR/jp72n.json" --torch 2.14 --cuda 13.2 --json >"$T_DIR/p.json" 2>/dev/null
is "$(codes "$T_DIR/p.json")" "" "jp72n, --cuda 13.2, the CUDA offered: no problem"
done_testing
