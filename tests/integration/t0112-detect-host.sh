#!/bin/sh
# t0112-detect-host.sh - what is true on the ptbuild development machine:
# nvcc 13.0 in a pip-wheel layout (dist-info, no version.json), cuDNN 9,
# NCCL, gcc 12, no driver, no GPU; and `detect --json` starts no process
# when version files exist.  Elsewhere the machine-specific checks skip.
. "$top_srcdir/tests/lib.sh"

run "$PTBUILD" detect --json
is "$rc" 0 "detect on this host exits 0"
like "$out" '*"schema": "ptbuild.facts/1"*' "it prints a facts document"
run "$PTBUILD" detect --sysroot / --json
is "$rc" 0 "--sysroot / is this host"

nvcc_dist=$(ls -d /usr/local/cuda/dist-info/nvidia_cuda_nvcc-13.0.* 2>/dev/null | head -n 1)
if [ -z "$nvcc_dist" ] || [ -e /proc/driver/nvidia/version ]; then
	skip "the dev machine's facts" "not the ptbuild dev machine (pip-layout CUDA 13.0 in /usr/local/cuda, no driver)"
	done_testing
	exit $?
fi

facts=$(env -i PATH=/usr/local/cuda/bin:/usr/bin:/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" detect --json)
like "$facts" '*"version": "13.0.*"*' "nvcc 13.0 found"
like "$facts" '*"version_source": "dist-info nvidia_cuda_nvcc-13.0.*.dist-info"*' "...its version from the pip dist-info (no version.json here)"
like "$facts" '*"root": "/usr/local/cuda-13.0"*' "...at the real directory behind /usr/local/cuda"
like "$facts" '*"picked_by": [*"PATH"*"root": "/usr/local/cuda-13.0"*' "...and it is what PATH finds"
like "$facts" '*"cudnn": "9.*"*' "cuDNN 9"
like "$facts" '*"nccl": "2.*"*' "NCCL 2"
# gcc 12 by its name (gcc-12); its full version is what dpkg installed,
# as dpkg-query itself says
want=$(dpkg-query -W -f='${Version}' gcc-12 2>/dev/null | sed 's/^[0-9]*://; s/^\([0-9]*\.[0-9]*\.[0-9]*\).*/\1/')
like "$facts" "*\"name\": \"gcc\",
      \"path\": \"/usr/bin/gcc\",
      \"target\": \"*\",
      \"version\": \"${want:-12}\"*" "gcc ${want:-12} (dpkg-query: ${want:-not installed by dpkg})"
like "$facts" '*"driver": null*' "no driver"
like "$facts" '*"gpus": []*' "no GPU"
like "$facts" '*"no NVIDIA driver*' "...with a note"

if command -v strace >/dev/null 2>&1; then
	env -i PATH=/usr/local/cuda/bin:/usr/bin:/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
		strace -f -qq -e trace=fork,vfork,clone,clone3,execve -o "$T_DIR/trace" \
		"$PTBUILD" detect --json >/dev/null 2>&1
	# threads a sanitizer starts (CLONE_THREAD / CLONE_UNTRACED) are no processes
	n=$(grep -E 'fork|clone|execve' "$T_DIR/trace" | grep -c -v -E 'CLONE_THREAD|CLONE_UNTRACED')
	is "$n" 1 "detect --json starts no process (only its own execve in the trace)"
	[ "$n" = 1 ] || sed 's/^/# /' "$T_DIR/trace"
else
	skip "detect starts no process" "strace is not installed"
fi

# CPU affinity is a limit the build inherits (taskset, docker --cpuset-cpus)
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if command -v taskset >/dev/null 2>&1 && [ "$ncpu" -gt 1 ]; then
	run taskset -c 0 "$PTBUILD" detect --json
	like "$out" '*"limits": {*"cpus": 1,*"cpus_source": "sched_getaffinity (taskset, --cpuset-cpus)"*' \
		"under taskset -c 0: host.limits.cpus is 1, from the affinity"
	run sh -c 'taskset -c 0 "$1" detect --json >"$2/f.json" && "$1" plan --facts "$2/f.json" --json' sh "$PTBUILD" "$T_DIR"
	like "$out" '*"max_jobs": 1,*' "...and the plan made from those facts runs one job"
else
	skip "host.limits from CPU affinity" "needs taskset and more than one CPU ($ncpu here)"
fi

# cgroup v1 inside a container whose groups are named by the host's paths
# (/docker/x is absent below the mount; the limits sit at its root), with
# the cpu controller mounted together with cpuacct.
v1="$T_DIR/v1"
mkdir -p "$v1/proc/self" "$v1/sys/fs/cgroup/cpu" "$v1/sys/fs/cgroup/memory" "$v1/sys/devices/system/cpu"
printf '12:memory:/docker/x\n4:cpu,cpuacct:/docker/x\n2:cpuacct:/docker/x\n0::/\n' >"$v1/proc/self/cgroup"
echo 200000 >"$v1/sys/fs/cgroup/cpu/cpu.cfs_quota_us"
echo 100000 >"$v1/sys/fs/cgroup/cpu/cpu.cfs_period_us"
echo 4294967296 >"$v1/sys/fs/cgroup/memory/memory.limit_in_bytes"
echo 'MemTotal:       16777216 kB' >"$v1/proc/meminfo"
echo 0-7 >"$v1/sys/devices/system/cpu/online"
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu sse sse2\n' >"$v1/proc/cpuinfo"
run "$PTBUILD" detect --sysroot "$v1" --json
like "$out" '*"limits": {*"cpus": 2,*"cpus_source": "/sys/fs/cgroup/cpu/cpu.cfs_quota_us",*"memory_mib": 4096,*"memory_source": "/sys/fs/cgroup/memory/memory.limit_in_bytes"*' \
	"cgroup v1 (cpu,cpuacct; host paths absent in the container): 2 CPUs and 4 GiB from the mount's root"

done_testing
