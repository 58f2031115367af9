#!/bin/sh
# t0134-cuda-13.4-machine.sh - a workstation moved to CUDA 13.4 as a user
# leaves it: the r615 driver of 13.4.1 (615.71.09) and a 13.4 Update 1
# toolkit (version.json 13.4.2, nvcc 13.4.92) in /usr/local/cuda-13.4.
# detect sees the toolkit and reads the driver as CUDA 13.4 at most; plan
# uses the installed 13.4 and doctor is at peace with it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fixtures/sysroot.sh"
FIX="$top_srcdir/tests/fixtures/sysroots"
S="$T_DIR/ws"
make_sysroot rtx4090-workstation "$S" || exit 1

# the 12.8 tree becomes 13.4 (its bin/nvcc and targets/ are kept)
rm "$S/usr/local/cuda" "$S/usr/local/cuda-12.8/include" "$S/usr/local/cuda-12.8/lib64"
mv "$S/usr/local/cuda-12.8" "$S/usr/local/cuda-13.4"
ln -s targets/x86_64-linux/include "$S/usr/local/cuda-13.4/include"
ln -s targets/x86_64-linux/lib "$S/usr/local/cuda-13.4/lib64"
ln -s cuda-13.4 "$S/usr/local/cuda"
cat >"$S/usr/local/cuda-13.4/version.json" <<'JSON'
{
   "cuda" : {
      "name" : "CUDA SDK",
      "version" : "13.4.2"
   },
   "cuda_nvcc" : {
      "name" : "CUDA NVCC",
      "version" : "13.4.92"
   }
}
JSON
sed 's/550\.54\.15/615.71.09/' "$FIX/rtx4090-workstation/proc/driver/nvidia/version" >"$S/proc/driver/nvidia/version"
L="$S/usr/lib/x86_64-linux-gnu"
rm "$L/libcuda.so.1" && mv "$L/libcuda.so.550.54.15" "$L/libcuda.so.615.71.09" && ln -s libcuda.so.615.71.09 "$L/libcuda.so.1"
run grep -c 615.71.09 "$S/proc/driver/nvidia/version"
is "$out" 1 "the sysroot's kernel module is 615.71.09"
envs="PATH=/usr/local/cuda-13.4/bin:/usr/bin:/bin CUDA_HOME=/usr/local/cuda-13.4"

# shellcheck disable=SC2086
env -i $envs PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$S" --json >"$T_DIR/facts.json"
is "$?" 0 "detect of the 13.4 machine: exit 0"
field() { python3 -c 'import json, sys; f = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$T_DIR/facts.json" "$1"; }
is "$(field 'f["driver"]["cuda_max"]')" "13.4" "driver 615.71.09 reads as CUDA 13.4 at most"
is "$(field '[ (t["root"], t["release"], t["version"]) for t in f["toolkits"] if t["root"] == "/usr/local/cuda-13.4" ]')" \
	"[('/usr/local/cuda-13.4', '13.4', '13.4.92')]" "the installed 13.4 is seen, release 13.4, nvcc 13.4.92"

run "$PTBUILD" plan --facts "$T_DIR/facts.json" --cuda 13.4 --json
is "$rc" 0 "plan --cuda 13.4 on it: exit 0"
printf '%s\n' "$out" >"$T_DIR/plan.json"
is "$(python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["cuda"]; print(c["source"], c["root"], c["full_version"])' "$T_DIR/plan.json")" \
	"installed /usr/local/cuda-13.4 13.4.92" "... which uses the installed toolkit"
is "$(python3 -c 'import json, sys; print(" ".join(sorted(x["code"] for x in json.load(open(sys.argv[1]))["problems"] if x["code"].startswith("driver"))) or "none")' "$T_DIR/plan.json")" \
	"none" "... with no driver problem"

# shellcheck disable=SC2086
run env -i $envs PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" doctor --sysroot "$S" --json
printf '%s\n' "$out" >"$T_DIR/doctor.json"
is "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["toolkit"]["root"], " ".join(x["code"] for x in d["findings"] if x["code"].startswith("driver")) or "none")' "$T_DIR/doctor.json")" \
	"/usr/local/cuda-13.4 none" "doctor of the machine: the 13.4 toolkit, no driver finding"

done_testing
