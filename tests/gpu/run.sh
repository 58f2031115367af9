#!/bin/sh
# tests/gpu/run.sh - the whole path on a machine with an NVIDIA GPU, from a
# clean checkout, in a few minutes: build ptbuild, then detect (expects a
# driver and a GPU with its compute capability), plan, generate and
# validate (compile and run for the GPU's own architecture), and print a
# summary.  Commands this checkout does not have yet are skipped with a
# message.  Exit 0 when every step that ran passed.
#
#   tests/gpu/run.sh [CUDA_HOME]      (default: $CUDA_HOME, nvcc on PATH,
#                                      /usr/local/cuda)
set -u
cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
out=${PTB_GPU_OUT:-${TMPDIR:-/tmp}/ptbuild-gpu-run}
mkdir -p "$out"
export NO_COLOR=1 XDG_CACHE_HOME="$out/cache"
[ $# -ge 1 ] && export CUDA_HOME="$1"
summary=
failed=0
step() { # NAME STATUS(0 ok, 77 skipped, else failed) DETAIL
	case $2 in
	0) r=ok ;;
	77) r=skipped ;;
	*) r="FAILED ($2)"; failed=$((failed + 1)) ;;
	esac
	summary="$summary$(printf '%-15s %-14s %s' "$1" "$r" "$3")
"
	echo "== $1: $r $3"
}
nonzero() { if [ "$1" -eq 0 ]; then echo 1; else echo "$1"; fi; }
has() { "$top/ptbuild" "$1" --help >/dev/null 2>&1; }
t0=$(date +%s)

# Build (quietly; the log is kept).
if [ ! -x ./ptbuild ]; then
	{ autoreconf -fi && ./configure -q && make -j"$(nproc 2>/dev/null || echo 2)"; } >"$out/build.log" 2>&1
	st=$?
	step build "$st" "log: $out/build.log"
	[ "$st" -eq 0 ] || { printf '\n%s' "$summary"; exit 1; }
else
	step build 0 "(already built)"
fi

# Machine facts.
[ -r /proc/driver/nvidia/version ] && echo "driver: $(head -n 1 /proc/driver/nvidia/version)"
command -v nvidia-smi >/dev/null 2>&1 &&
	nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'

# detect
if has detect; then
	timeout 60 ./ptbuild detect --json >"$out/facts.json" 2>"$out/detect.err"
	st=$?
	cc=$(sed -n 's/.*"compute_capability": *"\([0-9.]*\)".*/\1/p' "$out/facts.json" | head -n 1)
	drv=$(grep -c '"driver": *{' "$out/facts.json")
	if [ "$st" -eq 0 ] && [ -n "$cc" ] && [ "$drv" -gt 0 ]; then
		step detect 0 "GPU compute capability $cc, driver found"
	else
		step detect "$(nonzero "$st")" "expected a driver and a GPU with its compute capability (see $out/facts.json, $out/detect.err)"
	fi
else
	step detect 77 "no 'ptbuild detect' in this checkout"
fi

# plan
if has plan; then
	if [ -s "$out/facts.json" ]; then
		timeout 60 ./ptbuild plan --facts "$out/facts.json" --json >"$out/plan.json" 2>"$out/plan.err"
	else
		timeout 60 ./ptbuild plan --json >"$out/plan.json" 2>"$out/plan.err"
	fi
	st=$?
	list=$(sed -n 's/.*"torch_cuda_arch_list": *"\([^"]*\)".*/\1/p' "$out/plan.json" | head -n 1)
	step plan "$st" "TORCH_CUDA_ARCH_LIST=$list"
else
	step plan 77 "no 'ptbuild plan' in this checkout"
fi

# generate
if has generate; then
	if [ -s "$out/facts.json" ]; then set -- --facts "$out/facts.json"; else set --; fi
	timeout 60 ./ptbuild generate "$@" --out "$out/generated" >"$out/generate.log" 2>&1
	st=$?
	step generate "$st" "files: $(find "$out/generated" -type f 2>/dev/null | wc -l)"
else
	step generate 77 "no 'ptbuild generate' in this checkout"
fi

# validate: compile and run for the GPU's own architecture (no --arch-list:
# validate takes the GPUs detect saw), then from the cache.
if has validate; then
	timeout 240 ./ptbuild validate --force --json >"$out/validate.json" 2>"$out/validate.err"
	st=$?
	ran=$(grep -c '"ran": true' "$out/validate.json")
	how=$(sed -n 's/.*"ran_code": *"\([^"]*\)".*/\1/p' "$out/validate.json")
	arch=$(sed -n 's/.*"arch_ran": *"\([^"]*\)".*/\1/p' "$out/validate.json")
	if [ "$st" -eq 0 ] && [ "$ran" -gt 0 ] && [ "$how" = sass ]; then
		step validate 0 "kernel ran __CUDA_ARCH__ $arch from SASS; results checked"
	else
		step validate "$(nonzero "$st")" "ran=$ran code=$how (see $out/validate.json, $out/validate.err)"
	fi
	./ptbuild validate >"$out/validate-text.txt" 2>&1
	grep -q 'cached result' "$out/validate-text.txt"
	step validate-cache $? "repeat answered from the cache"
	sed 's/^/    /' "$out/validate-text.txt"
else
	step validate 77 "no 'ptbuild validate' in this checkout"
fi

# doctor: its findings are printed; only a crash or a recipe error fails
# the step (a finding about the machine is information, exit 1).
if has doctor; then
	./ptbuild doctor >"$out/doctor.txt" 2>&1
	st=$?
	[ "$st" -le 1 ] && st=0
	step doctor "$st" "$(tail -n 1 "$out/doctor.txt")"
	sed 's/^/    /' "$out/doctor.txt"
else
	step doctor 77 "no 'ptbuild doctor' in this checkout"
fi

# inspect an installed PyTorch, if there is one.
if has inspect && lib=$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda.so"))' 2>/dev/null) && [ -f "$lib" ]; then
	if [ -n "${cc:-}" ]; then set -- --gpu "$cc"; else set --; fi
	./ptbuild inspect "$@" "$lib" >"$out/inspect.txt" 2>&1
	step inspect $? "$(grep 'GPU ' "$out/inspect.txt" | sed 's/^ *//')"
else
	step inspect 77 "no installed PyTorch with CUDA to inspect"
fi

printf '\nSummary (%s s):\n%s' "$(($(date +%s) - t0))" "$summary"
[ "$failed" -eq 0 ]
