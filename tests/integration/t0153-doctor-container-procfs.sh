#!/bin/sh
# t0153-doctor-container-procfs.sh - doctor in a container on a
# discrete-GPU machine, run on real files: /proc/driver/nvidia/gpus is the
# host kernel's view, whole in a container NVIDIA's toolkit did not set
# up, so a GPU seen there alone does not mean the container was given it.
# Given needs a device node (/dev/nvidia0, /dev/nvidiactl) or libcuda/NVML
# answering (not reachable here: the sysroot holds no libcuda).
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# croot DIR NODE...: an x86_64 Docker container's root whose procfs shows
# the host's RTX 4090 and driver; /dev/NODE made as an empty file (the
# probe asks only whether a path exists)
croot() {
	d=$1
	shift
	g="$d/proc/driver/nvidia/gpus/0000:01:00.0"
	mkdir -p "$d/etc" "$d/dev" "$d/proc/sys/kernel" "$g"
	: >"$d/.dockerenv"
	printf '6.8.0-51-generic\n' >"$d/proc/sys/kernel/osrelease"
	printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD Ryzen 9 7950X 16-Core Processor\n' >"$d/proc/cpuinfo"
	printf 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.124.06  Wed Feb 26 01:51:06 UTC 2025\nGCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)\n' \
		>"$d/proc/driver/nvidia/version"
	printf 'Model: \t\t NVIDIA GeForce RTX 4090\nIRQ:   \t\t 170\nGPU UUID: \t GPU-00000000-0000-0000-0000-000000000000\nBus Location: \t 0000:01:00.0\n' \
		>"$g/information"
	for n in "$@"; do : >"$d/dev/$n"; done
}

# doc DIR: doctor --sysroot DIR --json, TORCH_CUDA_ARCH_LIST unset;
# $codes is " code code ... ", $seen the seen of docker-build-no-arch-list
doc() {
	run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin "$PTBUILD" doctor --sysroot "$1" --json
	printf '%s\n' "$out" >"$T_DIR/doc.json"
	codes=$(findings "$T_DIR/doc.json" 2>&1)
	seen=$(findings "$T_DIR/doc.json" docker-build-no-arch-list seen 2>&1)
	# what doctor saw: detect on the same root
	"$PTBUILD" detect --sysroot "$1" --json >"$T_DIR/det.json" 2>/dev/null
	gpus=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(";".join(g["name"] + "@" + g["source"] for g in d["gpus"]))' "$T_DIR/det.json" 2>&1)
}

# docker run without --gpus: the host's GPU in procfs, no /dev/nvidia*
croot "$T_DIR/none"
doc "$T_DIR/none"
like "$gpus" "NVIDIA GeForce RTX 4090@/proc/driver/nvidia/gpus/0000:01:00.0/information" \
	"no device node: the GPU is seen, through procfs alone"
like "$codes" "* docker-build-no-arch-list *" "procfs alone: docker-build-no-arch-list (not given the GPU)"
is "$seen" "container (/.dockerenv); no /dev/nvidia*; TORCH_CUDA_ARCH_LIST unset" "... seen names the missing nodes"
is "$rc" 1 "procfs alone, no arch list: exit 1"

# docker run --gpus: the toolkit's nodes are there
croot "$T_DIR/given" nvidia0 nvidiactl nvidia-uvm
doc "$T_DIR/given"
unlike "$codes" "* docker-build-no-arch-list *" "/dev/nvidia0 and /dev/nvidiactl: given the GPU"
croot "$T_DIR/ctl" nvidiactl
doc "$T_DIR/ctl"
unlike "$codes" "* docker-build-no-arch-list *" "/dev/nvidiactl alone: given (data/containers.lua gpu_devices)"

# no GPU anywhere: not given, as before
croot "$T_DIR/bare"
rm -rf "$T_DIR/bare/proc/driver"
doc "$T_DIR/bare"
like "$codes" "* docker-build-no-arch-list *" "no procfs GPU, no node: docker-build-no-arch-list"

done_testing
