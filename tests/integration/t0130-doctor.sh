#!/bin/sh
# t0130-doctor.sh - doctor end to end on machines built under a sysroot:
# the probes (symlinks resolved inside the sysroot, ld.so.conf includes,
# versioned libraries, ELF machine fields, pip/conda metadata, binfmt) feed
# the checks, and a healthy machine passes.
. "$top_srcdir/tests/lib.sh"

elf() { # FILE MACHINE(62 x86_64 | 183 aarch64)
	mkdir -p "$(dirname "$1")"
	if [ "$2" = 62 ]; then m='\076\000'; else m='\267\000'; fi
	printf "\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000$m" >"$1"
}
toolkit() { # ROOT VERSION CUDNN GCCMAX MACHINE TARGET
	elf "$1/bin/nvcc" "$5"
	printf '{\n  "cuda": { "name": "CUDA SDK", "version": "%s" }\n}\n' "$2" >"$1/version.json"
	mkdir -p "$1/include/crt" "$1/targets/$6/lib" "$1/lib64"
	if [ -n "$3" ]; then
		IFS=. read -r a b c <<EOV
$3
EOV
		printf '#define CUDNN_MAJOR %s\n#define CUDNN_MINOR %s\n#define CUDNN_PATCHLEVEL %s\n' "$a" "$b" "$c" >"$1/include/cudnn_version.h"
	fi
	printf '#if __GNUC__ > %s\n#error -- unsupported GNU version!\n#endif\n' "$4" >"$1/include/crt/host_config.h"
}
lib() { # DIR SONAME REAL
	mkdir -p "$1"
	: >"$1/$3"
	ln -sf "$3" "$1/$2"
}
facts() { # FILE ARCH PLATFORM DRIVER GPU-NAME CC
	cat >"$1" <<JSON
{ "schema": "ptbuild.facts/1",
  "host": { "arch": "$2", "platform": "$3", "page_size": 4096, "memory_mib": 65536, "cpu": { "cores": 32 } },
  "driver": { "version": "$4", "cuda_max": "12.8" },
  "gpus": [ { "index": 0, "name": "$5", "compute_capability": "$6", "source": "test" } ],
  "toolkits": [], "compilers": [ { "name": "gcc", "version": "12.2.0", "path": "/usr/bin/gcc" } ], "jetson": null }
JSON
}

# --- a broken workstation ------------------------------------------------
R="$T_DIR/broken"
toolkit "$R/usr/local/cuda-12.8" 12.8.93 9.7.0 14 62 x86_64-linux
toolkit "$R/usr/local/cuda-11.8" 11.8.89 "" 11 62 x86_64-linux
ln -s cuda-12.8 "$R/usr/local/cuda"
lib "$R/usr/local/cuda-11.8/lib64" libcudart.so.11.0 libcudart.so.11.8.89
lib "$R/usr/lib/x86_64-linux-gnu" libcuda.so.1 libcuda.so.570.124.06
lib "$R/usr/lib/x86_64-linux-gnu" libnvidia-ml.so.1 libnvidia-ml.so.570.124.06
lib "$R/usr/lib/x86_64-linux-gnu" libcudnn.so.9 libcudnn.so.9.1.0
mkdir -p "$R/etc/ld.so.conf.d" "$R/proc/sys/fs/binfmt_misc" "$R/opt/conda/envs/pt/conda-meta" \
	"$R/usr/lib/python3/dist-packages/nvidia_cudnn_cu11-8.5.0.96.dist-info" \
	"$R/usr/lib/python3/dist-packages/nvidia_cublas_cu12-12.4.5.8.dist-info"
printf 'include /etc/ld.so.conf.d/*.conf\n' >"$R/etc/ld.so.conf"
printf '# CUDA\n/usr/local/cuda-11.8/lib64\n' >"$R/etc/ld.so.conf.d/cuda.conf"
printf 'enabled\ninterpreter /usr/bin/qemu-aarch64-static\n' >"$R/proc/sys/fs/binfmt_misc/qemu-aarch64"
printf '{}\n' >"$R/opt/conda/envs/pt/conda-meta/cudatoolkit-11.8.0-h6a678d5_0.json"
cp "$top_srcdir/tests/fixtures/doctor/cpuinfo-x86" "$R/proc/cpuinfo" 2>/dev/null || printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\n' >"$R/proc/cpuinfo"
facts "$T_DIR/broken.json" x86_64 x86_64 570.86.10 "NVIDIA GeForce RTX 4090" 8.9

run env PATH=/usr/local/cuda-11.8/bin:/usr/bin CUDA_HOME=/usr/local/cuda \
	LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64 TORCH_CUDA_ARCH_LIST=7.5 \
	CONDA_PREFIX=/opt/conda/envs/pt MAX_JOBS=64 \
	"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/broken.json" --json
is "$rc" 1 "a broken machine: exit 1"
for code in driver-library-mismatch arch-list-missing-gpu mixed-cuda-installs \
	cudnn-mismatch conda-cuda-shadow pip-cuda-majors-mixed qemu-emulation max-jobs-too-high; do
	like "$out" "*\"code\": \"$code\"*" "finds $code"
done
like "$out" '*"root": "/usr/local/cuda-12.8"*' "CUDA_HOME=/usr/local/cuda resolves through the symlink inside the sysroot"
like "$out" '*libcuda.so.570.124.06*' "the versioned libcuda is named"
like "$out" '*LD_LIBRARY_PATH → /usr/local/cuda-11.8/lib64/libcudart.so.11.8.89*' "the stray libcudart is named"
like "$out" '*"seen": "/usr/local/cuda-12.8/include/cudnn_version.h vs /usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0 (via default)"*' "cuDNN header and library are both named"

run env PATH=/usr/local/cuda-11.8/bin:/usr/bin CUDA_HOME=/usr/local/cuda TORCH_CUDA_ARCH_LIST=7.5 \
	"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/broken.json"
is "$rc" 1 "readable output: exit 1"
like "$out" "*error \\[arch-list-missing-gpu\\] TORCH_CUDA_ARCH_LIST='7.5' has no code for NVIDIA GeForce RTX 4090*" "readable finding line"
like "$out" "*  fix:  add 8.9 to TORCH_CUDA_ARCH_LIST*" "readable fix line"
like "$out" "*checks: * errors, * warnings" "summary line"

# --- a healthy machine -----------------------------------------------------
H="$T_DIR/healthy"
toolkit "$H/usr/local/cuda-12.8" 12.8.93 9.7.0 14 62 x86_64-linux
ln -s cuda-12.8 "$H/usr/local/cuda"
lib "$H/usr/lib/x86_64-linux-gnu" libcuda.so.1 libcuda.so.570.86.10
lib "$H/usr/lib/x86_64-linux-gnu" libnvidia-ml.so.1 libnvidia-ml.so.570.86.10
lib "$H/usr/local/cuda-12.8/lib64" libcudnn.so.9 libcudnn.so.9.7.0
lib "$H/usr/local/cuda-12.8/lib64" libcudart.so.12 libcudart.so.12.8.90
mkdir -p "$H/proc"
printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\n' >"$H/proc/cpuinfo"
facts "$T_DIR/healthy.json" x86_64 x86_64 570.86.10 "NVIDIA GeForce RTX 4090" 8.9
run env PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda LD_LIBRARY_PATH=/usr/local/cuda/lib64 \
	TORCH_CUDA_ARCH_LIST='8.9+PTX' MAX_JOBS=8 "$PTBUILD" doctor --sysroot "$H" --facts "$T_DIR/healthy.json"
is "$rc" 0 "a healthy machine: exit 0"
like "$out" "toolkit   /usr/local/cuda-12.8 (CUDA 12.8.93)*0 errors, 0 warnings" "nothing found"

# forward compatibility on a GeForce: the compat libcuda is loaded first
lib "$H/usr/local/cuda-12.8/compat" libcuda.so.1 libcuda.so.575.57.08
run env PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda LD_LIBRARY_PATH=/usr/local/cuda/compat:/usr/local/cuda/lib64 \
	TORCH_CUDA_ARCH_LIST='8.9' MAX_JOBS=8 "$PTBUILD" doctor --sysroot "$H" --facts "$T_DIR/healthy.json" --json
like "$out" '*"code": "forward-compat-unsupported"*' "a compat libcuda on a GeForce is an error"
like "$out" '*/usr/local/cuda-12.8/compat/libcuda.so.575.57.08 (via LD_LIBRARY_PATH)*' "... naming the library"

# An installed torch whose libtorch_cuda.so lacks the GPU: built here by
# nvcc for sm_80 and sm_90 only, then judged for an RTX 5090 and an A10.
nvcc=${NVCC:-}
[ -n "$nvcc" ] && command -v "$nvcc" >/dev/null 2>&1 || nvcc=$(command -v nvcc 2>/dev/null)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -n "$nvcc" ]; then
	site="$H/usr/lib/python3/dist-packages"
	mkdir -p "$site/torch/lib" "$site/torch-2.5.1+cu124.dist-info"
	printf '__global__ void k(float *x) { x[threadIdx.x] += 1.0f; }\nvoid launch(float *x) { k<<<1, 32>>>(x); }\n' >"$T_DIR/t.cu"
	"$nvcc" -shared -Xcompiler -fPIC -o "$site/torch/lib/libtorch_cuda.so" "$T_DIR/t.cu" \
		-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 >"$T_DIR/nvcc.log" 2>&1
	is "$?" 0 "nvcc builds a stand-in libtorch_cuda.so (sm_80, sm_90)"
	facts "$T_DIR/5090.json" x86_64 x86_64 570.86.10 "NVIDIA GeForce RTX 5090" 12.0
	run env PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda MAX_JOBS=8 \
		"$PTBUILD" doctor --sysroot "$H" --facts "$T_DIR/5090.json" --json
	like "$out" '*"code": "torch-lacks-gpu"*' "the installed torch has no code for an RTX 5090"
	like "$out" '*holds SASS 8.0 9.0; PTX *' "... read from the library's fat binaries"
	facts "$T_DIR/a10.json" x86_64 x86_64 570.86.10 "NVIDIA A10" 8.6
	run env PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda MAX_JOBS=8 \
		"$PTBUILD" doctor --sysroot "$H" --facts "$T_DIR/a10.json" --json
	unlike "$out" "*torch-lacks-gpu*" "sm_80 SASS runs on an A10 (8.6): no finding"
	rm -rf "$site/torch" "$site/torch-2.5.1+cu124.dist-info"
else
	skip "torch-lacks-gpu from a real fat binary" "no nvcc on this machine"
fi

# an aarch64 machine whose toolkit is an x86_64 one, with no OpenBLAS
A="$T_DIR/arm"
toolkit "$A/usr/local/cuda-12.6" 12.6.85 "" 13 62 x86_64-linux
mkdir -p "$A/proc"
printf 'processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd4f\n' >"$A/proc/cpuinfo"
facts "$T_DIR/arm.json" aarch64 sbsa 560.35.03 "NVIDIA GH200 480GB" 9.0
run env PATH=/usr/bin CUDA_HOME=/usr/local/cuda-12.6 TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=8 \
	"$PTBUILD" doctor --sysroot "$A" --facts "$T_DIR/arm.json" --json
like "$out" '*"code": "foreign-binary"*' "x86_64 nvcc on aarch64 is found from the ELF header"
like "$out" '*"code": "openblas-missing"*' "missing libopenblas on aarch64"

# containers, told by the markers data/containers.lua lists: Podman's
# /run/.containerenv, a Kubernetes pod's cgroup; no GPU device, no GPU and
# no TORCH_CUDA_ARCH_LIST: the build would guess its architectures
C="$T_DIR/podman"
mkdir -p "$C/run" "$C/proc/1"
: >"$C/run/.containerenv"
cat >"$T_DIR/nogpu.json" <<JSON
{ "schema": "ptbuild.facts/1",
  "host": { "arch": "x86_64", "platform": "x86_64", "page_size": 4096, "memory_mib": 65536, "cpu": { "cores": 8 } },
  "driver": null, "gpus": [], "toolkits": [], "compilers": [], "jetson": null }
JSON
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin "$PTBUILD" doctor --sysroot "$C" --facts "$T_DIR/nogpu.json" --json
like "$out" '*"code": "docker-build-no-arch-list"*"seen": "container (/run/.containerenv); no /dev/nvidia*' "a Podman container without a GPU is named by its marker"
rm "$C/run/.containerenv"
printf '0::/kubepods/besteffort/pod0a1b/c2d3\n' >"$C/proc/1/cgroup"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin "$PTBUILD" doctor --sysroot "$C" --facts "$T_DIR/nogpu.json" --json
like "$out" '*"seen": "container (/proc/1/cgroup); no /dev/nvidia*' "... a Kubernetes pod by PID 1's cgroup"
mkdir -p "$C/dev" && : >"$C/dev/nvidiactl"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin "$PTBUILD" doctor --sysroot "$C" --facts "$T_DIR/nogpu.json" --json
unlike "$out" "*docker-build-no-arch-list*" "... and a GPU device passed in is no such finding"

# under cgroup v2 PID 1's cgroup reads "0::/", and a BuildKit RUN step
# (docker build) has no /.dockerenv: told by an overlay mounted on / in
# detect's own mount table, or by PID 1's container= variable
B="$T_DIR/buildkit"
mkdir -p "$B/proc/1" "$B/proc/self"
printf '0::/\n' >"$B/proc/1/cgroup"
printf '%s\n' '612 480 0:161 / / rw,relatime master:241 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A,upperdir=/var/lib/docker/overlay2/x/diff,workdir=/var/lib/docker/overlay2/x/work' \
	'613 612 0:164 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw' >"$B/proc/self/mountinfo"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin "$PTBUILD" doctor --sysroot "$B" --facts "$T_DIR/nogpu.json" --json
like "$out" '*"code": "docker-build-no-arch-list"*"seen": "container (/proc/self/mountinfo); no /dev/nvidia*' \
	"a BuildKit RUN step (cgroup v2, no /.dockerenv) is told by its overlay root"
is "$(printf '%s' "$out" | python3 -c 'import json,sys; print(*[f["severity"] for f in json.load(sys.stdin)["findings"] if f["code"] == "docker-build-no-arch-list"])')" error \
	"... an error: the overlay's layers lie in Docker's storage"
# an overlay root in containerd's snapshotter (BuildKit in containerd)
printf '%s\n' '700 650 0:90 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/7/fs,upperdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/9/fs,workdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/9/work' >"$B/proc/self/mountinfo"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin "$PTBUILD" doctor --sysroot "$B" --facts "$T_DIR/nogpu.json" --json
is "$(printf '%s' "$out" | python3 -c 'import json,sys; print(*[f["severity"] for f in json.load(sys.stdin)["findings"] if f["code"] == "docker-build-no-arch-list"])')" error \
	"... and one in containerd's snapshotter is a container too"
# a host booted from live media: an overlay root over /run/live, no engine
printf '%s\n' '25 1 0:26 / / rw,noatime - overlay overlay rw,lowerdir=/run/live/rootfs/filesystem.squashfs/,upperdir=/run/live/overlay/rw,workdir=/run/live/overlay/work' >"$B/proc/self/mountinfo"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin "$PTBUILD" doctor --sysroot "$B" --facts "$T_DIR/nogpu.json" --json
is "$(printf '%s' "$out" | python3 -c 'import json,sys; print(*[f["severity"] + ": " + f["message"][:25] for f in json.load(sys.stdin)["findings"] if f["code"] == "docker-build-no-arch-list"])')" \
	"warning: probably inside a contain" \
	"an overlay root naming no engine's storage (live media) is only a warning, said as likely"
printf '%s\n' '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw' '22 27 0:21 / /proc rw,relatime - proc proc rw' >"$B/proc/self/mountinfo"
printf 'PATH=/usr/bin\0container=\0HOME=/root\0' >"$B/proc/1/environ"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin "$PTBUILD" doctor --sysroot "$B" --facts "$T_DIR/nogpu.json" --json
unlike "$out" "*docker-build-no-arch-list*" "... an ext4 root and an empty container= are no container"
printf 'PATH=/usr/bin\0container=podman\0HOME=/root\0' >"$B/proc/1/environ"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin "$PTBUILD" doctor --sysroot "$B" --facts "$T_DIR/nogpu.json" --json
like "$out" '*"code": "docker-build-no-arch-list"*"seen": "container (/proc/1/environ); no /dev/nvidia*' \
	"... PID 1's container=podman is one"

# bad input
run "$PTBUILD" doctor --sysroot "$T_DIR/nope"
is "$rc" 2 "a missing sysroot is a usage error"
printf '{"schema": "ptbuild.plan/1"}\n' >"$T_DIR/plan.json"
run "$PTBUILD" doctor --facts "$T_DIR/plan.json"
is "$rc" 2 "a plan given as facts is refused"
like "$err" "*plan.json': key 'schema': expected \"ptbuild.facts/1\"*" "... naming the file and key"

# --- another machine by its facts alone ------------------------------------
# --profile gh200 without --sysroot: this machine's files are not the
# GH200's, so nothing of this machine is judged as if it were (an x86 nvcc
# on an aarch64 host, QEMU); the checks that need the machine are named.
# A stand-in x86 toolkit on PATH is what this machine would show.
X="$T_DIR/xbin"
toolkit "$X/cuda" 13.0.88 "" 15 62 x86_64-linux
chmod +x "$X/cuda/bin/nvcc"
run env CUDA_HOME="$X/cuda" PATH="$X/cuda/bin:/usr/bin:/bin" "$PTBUILD" doctor --profile gh200
case "$out" in
*"[foreign-binary]"* | *"[toolkit-wrong-platform]"* | *"[qemu-emulation]"* | *"$X"*) t_ok 1 "doctor --profile gh200 judges no file of this machine as the GH200's"; printf '%s\n' "$out" | sed 's/^/# /' ;;
*) t_ok 0 "doctor --profile gh200 judges no file of this machine as the GH200's" ;;
esac
like "$out" "*toolkit   none in its facts*checks by its facts:*checks need the machine itself (run 'ptbuild doctor' on it, or add --sysroot with a copy of its files):*foreign-binary*qemu-emulation*" \
	"... it says which checks need the machine itself"
is "$rc" 0 "... and finds no error in the GH200's facts (exit 0)"
like "$out" "*warning \[no-toolkit\] no CUDA toolkit in its facts*" "... whose no-toolkit speaks of its facts, not of a search made here"
run env CUDA_HOME="$X/cuda" PATH="$X/cuda/bin:/usr/bin:/bin" "$PTBUILD" doctor --profile gh200 --json
like "$out" '*"needs_machine": [*"foreign-binary"*' "... in the JSON as needs_machine"
# with --sysroot the machine's files are given: every check runs on them
G="$T_DIR/gh200root"
toolkit "$G/usr/local/cuda" 13.0.88 "" 15 62 x86_64-linux
run env -u CUDA_HOME -u CUDA_PATH PATH=/usr/local/cuda/bin:/usr/bin "$PTBUILD" doctor --profile gh200 --sysroot "$G"
like "$out" "*error \[foreign-binary\]*" "--profile gh200 --sysroot DIR: an x86 nvcc under DIR is judged foreign"
is "$rc" 1 "... exit 1"

# --- a container started with --memory 12g --cpus 8 (cgroup v2) ------------
. "$top_srcdir/tests/fixtures/sysroot.sh"
make_sysroot container-no-driver "$T_DIR/ctr"
run env -u MAX_JOBS PATH=/usr/local/cuda/bin:/usr/bin "$PTBUILD" doctor --sysroot "$T_DIR/ctr" --json
like "$out" '*"code": "max-jobs-too-high"*' "a container's memory limit: max-jobs-too-high although the machine has 31 GiB"
like "$out" '*"seen": "host.limits.memory_mib 12288 (/sys/fs/cgroup/memory.max)"*' "...naming the cgroup limit"
like "$out" '*"fix": "export MAX_JOBS=3"*' "...and fitting MAX_JOBS to it"

# --- an nvcc on PATH that is a wrapper script ------------------------------
# /usr/local/bin/nvcc execs /usr/local/cuda-12.8/bin/nvcc: the toolkit a
# build gets is 12.8's root, not /usr/local (the wrapper's dirname/..).
W="$T_DIR/wrapper"
toolkit "$W/usr/local/cuda-12.8" 12.8.93 "" 14 62 x86_64-linux
mkdir -p "$W/usr/local/bin"
printf '#!/bin/sh\nexec /usr/local/cuda-12.8/bin/nvcc "$@"\n' >"$W/usr/local/bin/nvcc"
chmod +x "$W/usr/local/bin/nvcc" "$W/usr/local/cuda-12.8/bin/nvcc"
run env -u CUDA_HOME -u CUDA_PATH PATH=/usr/local/bin:/usr/bin "$PTBUILD" doctor --sysroot "$W" --facts "$T_DIR/broken.json"
like "$out" "*toolkit   /usr/local/cuda-12.8 (CUDA 12.8.93)*" "an nvcc wrapper on PATH: the toolkit it runs is the one named"
like "$out" "*fix:  export CUDA_HOME=/usr/local/cuda-12.8*" "... and the CUDA_HOME doctor advises is that toolkit"
run env -u CUDA_HOME -u CUDA_PATH PATH=/usr/local/bin:/usr/bin "$PTBUILD" doctor --sysroot "$W" --facts "$T_DIR/broken.json" --json
like "$out" '*"toolkit": {*"root": "/usr/local/cuda-12.8",*"via": "PATH"*' "... in the JSON too"

done_testing
