#!/bin/sh
# t0704-real-doctor-toolkit.sh - doctor on Debian's packaged CUDA 12.4
# with another machine's facts (--profile): the toolkit doctor checks is the
# sysroot's /usr, which has no version file.  doctor must read its version
# as detect does (the line in nvcc's own binary), judge gcc by it, and a
# toolkit no file dates at all must not be given invented limits ("gcc 11
# is supported only from CUDA 11.4.1" for gcc 13 with CUDA "?").
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/realinputs/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "no python3 to read the JSON"
real_debs nvidia-cuda-toolkit nvidia-cuda-dev libcudart12 libnvvm4

doctor() { # SYSROOT FACTS-OPTION... (env before: CUDA_HOME=...)
	s=$1
	shift
	run env -i PATH=/usr/bin:/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" ${home:+CUDA_HOME=$home} \
		"$PTBUILD" doctor --sysroot "$s" "$@" --json
	text=$out
	tk=$(printf '%s' "$out" | python3 -c 'import json,sys
d=json.load(sys.stdin); print(d["toolkit"]["root"], d["toolkit"]["version"])' 2>&1)
	gcc=$(printf '%s' "$out" | python3 -c 'import json,sys
d=json.load(sys.stdin); print(*[f["message"] for f in d["findings"] if f["code"] == "gcc-too-new"] or ["none"])' 2>&1)
}
profile=$top_srcdir/recipes/profiles/rtx4090-workstation.json

# the profile's gcc 13.3 on Debian's 12.4 (host_config.h: gcc 13 at most)
home=
doctor "$REAL_ROOT" --profile rtx4090-workstation
is "$tk" "/usr 12.4.131" "doctor --profile on Debian's toolkit: /usr is CUDA 12.4.131, from nvcc's binary"
is "$gcc" "none" "...and gcc 13.3.0 is accepted (12.4 takes gcc 13)"
unlike "$text" "*CUDA \?*" "...no 'CUDA ?' anywhere"

# the same machine with gcc 14: refused, by the version read
python3 - "$profile" >"$T_DIR/gcc14.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["compilers"] = [{"name": "gcc", "version": "14.2.0", "path": "/usr/bin/gcc"}]
print(json.dumps(d))
PY
doctor "$REAL_ROOT" --facts "$T_DIR/gcc14.json"
like "$gcc" "gcc 14.2.0 does not work with CUDA 12.4.131's nvcc: newer than nvcc 12.4 accepts (gcc 13 at most*" \
	"gcc 14.2.0: refused by CUDA 12.4.131's nvcc, gcc 13 at most"

# a toolkit no file dates: only its headers (CUDA_HOME names it)
S=$T_DIR/root
mkdir -p "$S/opt/cuda-headers/include/crt"
cp "$REAL_ROOT/usr/include/crt/host_config.h" "$S/opt/cuda-headers/include/crt/"
home=/opt/cuda-headers
doctor "$S" --profile rtx4090-workstation
is "$tk" "/opt/cuda-headers None" "CUDA_HOME with headers only: a toolkit of unknown version"
is "$gcc" "none" "...gcc 13.3.0 is not refused by limits invented for it"
doctor "$S" --facts "$T_DIR/gcc14.json"
like "$gcc" "gcc 14.2.0 does not work with the nvcc in /opt/cuda-headers: newer than nvcc in /opt/cuda-headers accepts (gcc 13 at most*" \
	"...gcc 14.2.0 is, by its host_config.h, naming the toolkit by its directory"
done_testing
