#!/bin/sh
# t0111-detect-gpu.sh - the GPU probe for real: stand-in libcuda and NVML
# libraries (tests/stubs) that answer two GPUs, hang, or crash.  detect
# loads each in a child with a time limit and, when a library fails, still
# finishes quickly with the /proc answer and a note.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fixtures/sysroot.sh"

STUBS="$top_builddir/tests/stubs"
[ -f "$STUBS/libcuda-ok.so" ] || skip_all "stub libraries not built"
make_sysroot rtx4090-workstation "$T_DIR/ws"

probe() { # CUDA NVML ARGS...   (stub names: ok, hang, crash, none)
	c=$1 n=$2
	shift 2
	cu="$STUBS/libcuda-$c.so" nv="$STUBS/libnvml-$n.so"
	[ "$c" = none ] && cu=none
	[ "$n" = none ] && nv=none
	env -i PATH=/usr/local/cuda-12.8/bin:/usr/bin:/bin \
		PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" PTBUILD_PROBE_TIMEOUT_MS=400 \
		PTBUILD_LIBCUDA="$cu" PTBUILD_LIBNVML="$nv" ${STUB_NVML_DRIVER:+STUB_NVML_DRIVER=$STUB_NVML_DRIVER} \
		"$PTBUILD" detect --sysroot "$T_DIR/ws" "$@"
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

run probe ok ok
is "$rc" 0 "two-GPU libcuda: exit 0"
like "$out" "*gpu 0     NVIDIA GeForce RTX 4090, sm 8.9, 24564 MiB (from libcuda)
gpu 1     NVIDIA RTX A6000, sm 8.6, 48677 MiB (from libcuda)*" "both GPUs come from libcuda with their compute capability and memory"
like "$out" "*driver    550.54.15, runs CUDA up to 12.4*" "cuda_max from cuDriverGetVersion"
run probe ok ok --json
like "$out" '*"cuda_max_source": "libcuda"*' "cuda_max says where it came from"

run probe none ok
like "$out" "*gpu 0     NVIDIA H100 80GB HBM3, sm 9.0, 81559 MiB (from nvml)
gpu 1     NVIDIA H100 80GB HBM3, sm 9.0, 81559 MiB (from nvml)*" "without libcuda, NVML answers"

t0=$(now_ms)
run probe hang ok
t1=$(now_ms)
is "$rc" 0 "a libcuda that hangs: still exit 0"
ok_fast=1
[ $((t1 - t0)) -lt 3000 ] && ok_fast=0
t_ok $ok_fast "...and detect finishes within 3 s ($((t1 - t0)) ms, limit 400 ms per library)"
like "$err" "*libcuda ($STUBS/libcuda-hang.so) did not answer within 400 ms and was stopped*" "...with a note"
like "$out" "*(from nvml)*" "...and NVML's answer"

t0=$(now_ms)
run probe hang hang --json
t1=$(now_ms)
is "$rc" 0 "both libraries hang: exit 0"
ok_fast=1
[ $((t1 - t0)) -lt 3000 ] && ok_fast=0
t_ok $ok_fast "...within 3 s ($((t1 - t0)) ms)"
like "$out" '*"source": "/proc/driver/nvidia/gpus/0000:01:00.0/information"*' "...GPUs from /proc (the fallback)"
like "$out" '*"cuda_max_source": "driver table"*' "...cuda_max from the driver table"
like "$out" '*NVML (*libnvml-hang.so) did not answer within 400 ms*' "...notes for both"

run probe crash crash
is "$rc" 0 "both libraries crash: exit 0"
like "$err" "*libcuda (*libcuda-crash.so) crashed (Segmentation fault)*" "a crash is a note naming the signal"
like "$err" "*NVML (*libnvml-crash.so) crashed*" "...for NVML too"
like "$out" "*gpu 0     NVIDIA GeForce RTX 4090, sm 8.9 (from /proc/driver/nvidia/gpus/0000:01:00.0/information)*" "...and the /proc answer stands"

run probe none none
like "$out" "*(from /proc/driver/nvidia/gpus/0000:01:00.0/information)*" "PTBUILD_LIB*=none skips the libraries"

run probe "$T_DIR/missing" none
like "$err" "*libcuda could not be loaded*" "a library that does not load is a note"

STUB_NVML_DRIVER=550.90.07
run probe none ok
like "$err" "*kernel module is 550.54.15 but the user-space driver is 550.90.07*" "NVML's driver version differs from the kernel module: reboot note"
unset STUB_NVML_DRIVER

done_testing
