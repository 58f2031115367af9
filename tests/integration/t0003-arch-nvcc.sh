#!/bin/sh
# t0003-arch-nvcc.sh - prove `ptbuild arch` against the real nvcc: for every
# architecture and variant, ptbuild accepts it for this nvcc's release
# exactly when nvcc lists it; and the -gencode flags it emits compile.
. "$top_srcdir/tests/lib.sh"

nvcc=${NVCC:-}
[ -n "$nvcc" ] && command -v "$nvcc" >/dev/null 2>&1 || nvcc=$(command -v nvcc 2>/dev/null)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
[ -n "$nvcc" ] || skip_all "no nvcc on this machine (set NVCC or put nvcc on PATH)"

ver=$("$nvcc" --version | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
[ -n "$ver" ] || skip_all "cannot read the release from '$nvcc --version'"
echo "# nvcc $ver at $nvcc"

# What nvcc says it builds: plain sm_XY from --list-gpu-code, and the
# a/f variants from the allowed --gpu-architecture values in --help.
codes=$("$nvcc" --list-gpu-code 2>/dev/null | tr '\n' ' ')
allowed=$("$nvcc" --help 2>/dev/null | awk '/^--gpu-architecture/ { on = 1 } on && /Allowed values/ { grab = 1 } grab { print } grab && /\.$/ { exit }' | tr -d "\n" | sed 's/.*Allowed values for this option: *//' | tr -d "'. " | tr ',' ' ')
[ -n "$codes" ] || skip_all "nvcc --list-gpu-code printed nothing"

for cc in 3.5 3.7 5.0 5.2 5.3 6.0 6.1 6.2 7.0 7.2 7.5 8.0 8.6 8.7 8.8 8.9 9.0 10.0 10.1 10.3 11.0 12.0 12.1; do
	d=$(echo "$cc" | tr -d .)
	for s in "" a f; do
		case " $codes $allowed " in
		*" sm_$d$s "*) nv=yes ;;
		*) nv=no ;;
		esac
		run "$PTBUILD" arch "$cc$s" --cuda "$ver" --to torch
		if [ "$rc" -eq 0 ]; then pt=yes; else pt=no; fi
		# rc 2 means no CUDA release has this variant at all: nvcc must agree.
		is "$pt" "$nv" "sm_$d$s: ptbuild and nvcc $ver agree (nvcc: $nv)"
	done
done

printf '__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n' >"$T_DIR/t.cu"
for list in 'Ampere;Hopper+PTX' '7.5;8.0;8.6;9.0;10.0;12.0+PTX' '9.0a' '10.0f+PTX' \
	'8.6(8.0)+PTX' '11.0;12.1' 'Turing+PTX' '8.7 8.8 8.9' '10.3a;12.0a;12.1f' \
	'Blackwell+PTX' '5.0;6.1;7.0' '3.5;3.7'; do
	run "$PTBUILD" arch "$list" --cuda "$ver" --to gencode
	if [ "$rc" -ne 0 ]; then
		is "$rc" 1 "'$list' is refused for CUDA $ver with exit 1"
		# ...and nvcc refuses it too.
		bad=$(printf '%s\n' "$err" | sed -n "s/.*does not build sm_\([0-9]*[af]\{0,1\}\).*/\1/p" | head -n 1)
		"$nvcc" -c "$T_DIR/t.cu" -o "$T_DIR/t.o" -gencode "arch=compute_$bad,code=sm_$bad" >/dev/null 2>&1
		is "$?" 1 "... and nvcc refuses sm_$bad too"
		continue
	fi
	# shellcheck disable=SC2086 # the flags are separate words
	"$nvcc" -c "$T_DIR/t.cu" -o "$T_DIR/t.o" $out >"$T_DIR/nvcc.log" 2>&1
	st=$?
	is "$st" 0 "nvcc $ver compiles '$list' with: $out"
	[ "$st" -eq 0 ] || sed 's/^/# /' "$T_DIR/nvcc.log"
done

done_testing
