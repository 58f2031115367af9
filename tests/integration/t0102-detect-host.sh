#!/bin/sh
# t0102-detect-host.sh - what is true on the ptbuild development machine:
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
like "$facts" '*"name": "gcc",
      "path": "/usr/bin/gcc",
      "target": "*",
      "version": "12"*' "gcc 12"
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

done_testing
