#!/bin/sh
# t0137-doctor-jetson-container.sh - doctor in a Docker container on a
# Jetson of each JetPack, run on real files: a root with /.dockerenv, the
# L4T's /etc/nv_tegra_release, a -tegra kernel and in /dev the nodes NVIDIA's
# container runtime passes in from that L4T's CSV (data/containers.lua
# `jetson`), or none.  A container holding its L4T's GPU nodes was given the
# GPU (no jetson-container-no-gpu, no "no GPU" docker-build-no-arch-list);
# one without them gets jetson-container-no-gpu naming the nodes and the fix.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# jroot DIR L4T(major.minor.patch, or - for no nv_tegra_release) NODE...:
# a Jetson container's root; /dev/NODE made as an empty file (the probe
# asks only whether a path exists)
jroot() {
	d=$1 l4t=$2
	shift 2
	mkdir -p "$d/etc" "$d/dev" "$d/proc/sys/kernel"
	: >"$d/.dockerenv"
	printf '5.15.148-tegra\n' >"$d/proc/sys/kernel/osrelease"
	printf 'processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd42\n' >"$d/proc/cpuinfo"
	if [ "$l4t" != - ]; then
		printf '# R%s (release), REVISION: %s, GCID: 1, BOARD: generic, EABI: aarch64, DATE: Mon Jan 1 00:00:00 UTC 2024\n' \
			"${l4t%%.*}" "${l4t#*.}" >"$d/etc/nv_tegra_release"
	fi
	for n in "$@"; do
		mkdir -p "$(dirname "$d/dev/$n")"
		: >"$d/dev/$n"
	done
}

# doc DIR [TORCH_CUDA_ARCH_LIST]: doctor --sysroot DIR --json; $codes is
# " code code ... ", $seen the seen of jetson-container-no-gpu, $fix its fix
doc() {
	if [ -n "${2:-}" ]; then
		run env TORCH_CUDA_ARCH_LIST="$2" PATH=/usr/bin "$PTBUILD" doctor --sysroot "$1" --json
	else
		run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin "$PTBUILD" doctor --sysroot "$1" --json
	fi
	printf '%s\n' "$out" >"$T_DIR/doc.json"
	codes=$(findings "$T_DIR/doc.json" 2>&1)
	seen=$(findings "$T_DIR/doc.json" jetson-container-no-gpu seen 2>&1)
	fix=$(findings "$T_DIR/doc.json" jetson-container-no-gpu fix message 2>&1)
}

given() { # NAME: the container was given the GPU
	unlike "$codes" "* jetson-container-no-gpu *" "$1: no jetson-container-no-gpu"
	unlike "$codes" "* docker-build-no-arch-list *" "$1: no \"no GPU\" docker-build-no-arch-list"
}
not_given() { # NAME SEEN-GLOB
	like "$codes" "* jetson-container-no-gpu *" "$1: jetson-container-no-gpu"
	like "$seen" "container (/.dockerenv); none of $2" "$1: ... naming the nodes looked for"
	like "$codes" "* docker-build-no-arch-list *" "$1: ... and docker-build-no-arch-list (no GPU, no arch list)"
}

# --- JetPack 4 (L4T R32): nvgpu's /dev/nvhost-*gpu, no /dev/nvgpu ----------
# what --runtime nvidia gives (l4t.csv's nodes a Nano has)
jroot "$T_DIR/jp4" 32.7.6 nvhost-as-gpu nvhost-ctrl nvhost-ctrl-gpu nvhost-dbg-gpu nvhost-gpu \
	nvhost-prof-gpu nvhost-vic nvmap
doc "$T_DIR/jp4"
is "$rc" 0 "JetPack 4 with --runtime nvidia's nodes: exit 0"
given "JetPack 4 with /dev/nvhost-ctrl-gpu"
jroot "$T_DIR/jp4-none" 32.7.6 nvmap nvhost-ctrl
doc "$T_DIR/jp4-none"
not_given "JetPack 4 with /dev/nvmap and /dev/nvhost-ctrl alone" \
	"/dev/{nvhost-as-gpu,nvhost-ctrl-gpu,nvhost-dbg-gpu,nvhost-gpu,nvhost-prof-gpu,nvidiactl}"
like "$fix" "*--runtime nvidia, which passes these in from /etc/nvidia-container-runtime/host-files-for-container.d/l4t.csv*" \
	"... the fix names --runtime nvidia and R32's l4t.csv"
like "$fix" "*\"default-runtime\": \"nvidia\"*nvidia-ctk cdi generate --mode=csv*--device nvidia.com/gpu=all*--device*" \
	"... docker build's default-runtime, CDI and the --device list"
like "$fix" "*|inside a container on a Jetson (L4T 32.7.6, JetPack 4.6.6) given none of the GPU's device nodes*" \
	"... and the message names the L4T and JetPack"
# R35's nodes are not R32's: a JetPack 4 container holding only one is not given the GPU
jroot "$T_DIR/jp4-r35" 32.7.6 nvgpu/igpu0/ctrl
doc "$T_DIR/jp4-r35"
like "$codes" "* jetson-container-no-gpu *" "JetPack 4 holding only R35's /dev/nvgpu/igpu0/ctrl: not its L4T's node"

# --- JetPack 5 (L4T R35): the same, and /dev/nvgpu/igpu0/* ----------------
jroot "$T_DIR/jp5" 35.6.0 nvhost-as-gpu nvhost-ctrl-gpu nvhost-dbg-gpu nvhost-gpu nvhost-prof-gpu nvmap
doc "$T_DIR/jp5"
given "JetPack 5 with /dev/nvhost-ctrl-gpu and no /dev/nvgpu"
jroot "$T_DIR/jp5-igpu" 35.6.0 nvgpu/igpu0/ctrl nvgpu/igpu0/channel nvhost-ctrl-gpu nvmap
doc "$T_DIR/jp5-igpu"
given "JetPack 5 with /dev/nvgpu/igpu0/ctrl"
jroot "$T_DIR/jp5-none" 35.6.0 nvmap
doc "$T_DIR/jp5-none"
not_given "JetPack 5 with none of them" \
	"/dev/{nvhost-as-gpu,nvhost-ctrl-gpu,nvhost-dbg-gpu,nvhost-gpu,nvhost-prof-gpu,nvidiactl} /dev/nvgpu/igpu0/{as,channel,ctrl,ctxsw,dbg,power,prof,prof-ctx,prof-dev,tsg}"
# an arch list set: the build is fine, the container still has no GPU
doc "$T_DIR/jp5-none" 8.7
like "$codes" "* jetson-container-no-gpu *" "JetPack 5 without nodes, TORCH_CUDA_ARCH_LIST=8.7: still jetson-container-no-gpu"
unlike "$codes" "* docker-build-no-arch-list *" "... but no docker-build-no-arch-list"
is "$rc" 0 "... a warning: exit 0"
# on the Jetson itself (no container marker) nothing is said of nodes
rm "$T_DIR/jp5-none/.dockerenv"
doc "$T_DIR/jp5-none"
unlike "$codes" "* jetson-container-no-gpu *" "JetPack 5 outside a container: no jetson-container-no-gpu"

# --- JetPack 6 (L4T R36): devices.csv; the device tree's GPU is the board's -
jroot "$T_DIR/jp6" 36.4.0 nvgpu/igpu0/as nvgpu/igpu0/ctrl nvgpu/igpu0/channel nvhost-ctrl-gpu \
	nvhost-gpu nvidia0 nvidiactl nvidia-modeset nvmap
doc "$T_DIR/jp6"
given "JetPack 6 with devices.csv's nodes"
jroot "$T_DIR/jp6-none" 36.4.0 nvmap nvidia-modeset
mkdir -p "$T_DIR/jp6-none/proc/device-tree"
printf 'nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234\0' >"$T_DIR/jp6-none/proc/device-tree/compatible"
doc "$T_DIR/jp6-none"
not_given "JetPack 6 whose device tree names the Orin GPU, with no GPU node" \
	"/dev/{nvhost-as-gpu,nvhost-ctrl-gpu,nvhost-ctxsw-gpu,*,nvhost-tsg-gpu,nvidia0,nvidiactl} /dev/nvgpu/igpu0/{as,channel,ctrl,*,tsg}"
like "$fix" "*host-files-for-container.d/devices.csv*" "... the fix names R36's devices.csv"

# --- JetPack 7 (L4T R38, Thor): OpenRM's /dev/nvidia0, /dev/nvidiactl -------
jroot "$T_DIR/jp7" 38.2.2 nvidia0 nvidiactl nvmap
doc "$T_DIR/jp7"
given "JetPack 7 with /dev/nvidia0 and /dev/nvidiactl"
jroot "$T_DIR/jp7-none" 38.2.2 nvmap
doc "$T_DIR/jp7-none"
not_given "JetPack 7 with none" "/dev/{nvidia0,nvidia1,nvidiactl}"

# --- an L4T unknown (no nv_tegra_release; a -tegra kernel): any L4T's node --
jroot "$T_DIR/unknown" - nvhost-ctrl-gpu nvmap
doc "$T_DIR/unknown"
given "L4T unknown with /dev/nvhost-ctrl-gpu"
jroot "$T_DIR/unknown-thor" - nvidia0 nvidiactl
doc "$T_DIR/unknown-thor"
given "L4T unknown with /dev/nvidia0"
jroot "$T_DIR/unknown-none" - nvmap
doc "$T_DIR/unknown-none"
like "$codes" "* jetson-container-no-gpu *" "L4T unknown with no GPU node of any L4T: jetson-container-no-gpu"
like "$fix" "*|inside a container on a Jetson (its L4T unknown, so the GPU nodes of every L4T were looked for)*" \
	"... saying the L4T is unknown"
like "$seen" "*nvhost-ctrl-gpu*nvidia-uvm*/dev/nvgpu/igpu0/{*ctrl*}" "... and naming every L4T's nodes"

done_testing
