#!/bin/sh
# t0006-inspect.sh - `ptbuild inspect` on files nvcc builds here with known
# architectures (SASS only, PTX only, both, several, each compression mode),
# a shared and a static library, and on truncated and corrupted copies.
. "$top_srcdir/tests/lib.sh"

# Files any machine has: errors are exit 4 naming the file.
run "$PTBUILD" inspect "$T_DIR/missing.o"
is "$rc" 4 "a missing file: exit 4"
like "$err" "*missing.o*" "... naming the file"
printf 'just text\n' >"$T_DIR/text.o"
run "$PTBUILD" inspect "$T_DIR/text.o"
is "$rc" 4 "a text file: exit 4"
like "$err" "*text.o*not an ELF file*" "... saying what it is not"
run "$PTBUILD" inspect "$PTBUILD"
is "$rc" 0 "ptbuild itself: an ELF with no CUDA code is fine"
like "$out" "*no CUDA code*" "... and says so"
run "$PTBUILD" inspect --gpu 8.x "$PTBUILD"
is "$rc" 2 "--gpu 8.x is a usage error"

nvcc=${NVCC:-}
[ -n "$nvcc" ] && command -v "$nvcc" >/dev/null 2>&1 || nvcc=$(command -v nvcc 2>/dev/null)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
	skip "inspect on nvcc-built files" "no nvcc on this machine (set NVCC or put nvcc on PATH)"
	done_testing
	exit $?
fi

cat >"$T_DIR/k.cu" <<'CU'
__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }
void launch(float *x) { k<<<1, 32>>>(x); }
CU
cc() { # OUT FLAGS...
	o=$1; shift
	"$nvcc" -c "$T_DIR/k.cu" -o "$T_DIR/$o" "$@" >"$T_DIR/nvcc.log" 2>&1 ||
		{ sed 's/^/# /' "$T_DIR/nvcc.log"; echo "Bail out! nvcc failed for $o"; exit 1; }
}
sass_line() { printf '%s\n' "$out" | sed -n 's/^  SASS  //p'; }
ptx_line() { printf '%s\n' "$out" | sed -n 's/^  PTX   //p'; }

cc sass.o -gencode arch=compute_80,code=sm_80 -compress-mode=none
run "$PTBUILD" inspect --decode "$T_DIR/sass.o"
is "$rc" 0 "SASS only: exit 0"
is "$(sass_line)" "sm_80" "SASS only: sm_80"
is "$(ptx_line)" "" "SASS only: no PTX"
like "$out" "*0 zstd, 0 LZ4, 1 uncompressed*" "SASS only: stored uncompressed"

cc ptx.o -gencode arch=compute_90,code=compute_90
run "$PTBUILD" inspect "$T_DIR/ptx.o"
is "$(sass_line)" "" "PTX only: no SASS"
like "$(ptx_line)" "compute_90 (ISA [0-9]*.[0-9]*)" "PTX only: compute_90 with its ISA version"

cc several.o -gencode arch=compute_75,code=sm_75 -gencode arch=compute_86,code=sm_86 \
	-gencode arch=compute_90a,code=sm_90a -gencode arch=compute_120,code='[sm_120,compute_120]' \
	-gencode arch=compute_100f,code=compute_100f
run "$PTBUILD" inspect --images --decode "$T_DIR/several.o"
is "$(sass_line)" "sm_75  sm_86  sm_90a  sm_120" "several: SASS sm_75 sm_86 sm_90a sm_120"
like "$(ptx_line)" "compute_100f (ISA *)  compute_120 (ISA *)" "several: PTX compute_100f and compute_120"
like "$out" "*.target sm_100f*" "several: PTX text decoded (.target sm_100f)"
unlike "$out" "*decode failed*" "several: every image decodes"

for gpu in '8.9:sm_86 SASS' '9.0:sm_90a SASS' '10.3:JIT-compiles compute_100f' '12.1:sm_120 SASS' '7.0:no kernel image'; do
	cc_=${gpu%%:*} want=${gpu#*:}
	run "$PTBUILD" inspect --gpu "$cc_" "$T_DIR/several.o"
	like "$out" "*GPU $cc_: *$want*" "several on a $cc_ GPU: $want"
done
is "$rc" 1 "no kernel image for the GPU: exit 1"

cc lz4.o -gencode arch=compute_80,code='[sm_80,compute_80]' -compress-mode=speed
run "$PTBUILD" inspect --images "$T_DIR/lz4.o"
like "$out" "*compute_80 * lz4 *.target sm_80*" "-compress-mode=speed: LZ4 PTX decoded"

cc zstd.o -gencode arch=compute_80,code='[sm_80,compute_80]' -compress-mode=size
run "$PTBUILD" inspect --decode --json "$T_DIR/zstd.o"
like "$out" '*"zstd": 2*' "-compress-mode=size: both images zstd"
like "$out" '*"decode_failures": 0*' "... and both decode"

"$nvcc" -shared -Xcompiler -fPIC "$T_DIR/k.cu" -o "$T_DIR/libk.so" \
	-gencode arch=compute_80,code='[sm_80,compute_80]' >"$T_DIR/nvcc.log" 2>&1
run "$PTBUILD" inspect --gpu 8.6 "$T_DIR/libk.so"
like "$out" "*ELF shared library*GPU 8.6: runs sm_80 SASS*" "shared library: sm_80 runs on 8.6"

ar rcs "$T_DIR/libk.a" "$T_DIR/sass.o" "$T_DIR/several.o" "$T_DIR/ptx.o"
run "$PTBUILD" inspect "$T_DIR/libk.a"
like "$out" "*ar archive, 3 fat binaries, 8 images*" "static library: 3 members' fat binaries, 8 images"
is "$(sass_line)" "sm_75  sm_80  sm_86  sm_90a  sm_120" "static library: SASS of all members"

run "$PTBUILD" inspect --gpu 8.6 "$T_DIR/libk.a"
like "$out" "*GPU 8.6: runs sm_86 SASS*1 of 3 fat binaries have no code for it*" "static library on 8.6: the PTX-only member (compute_90) has no code for it"
run "$PTBUILD" inspect --gpu 8.6 --json "$T_DIR/libk.a"
like "$out" '*"fat_binaries_without_code": 1*' "... and --json counts it"

# Truncated copies of the object, at many lengths: exit 0 only when the
# cut leaves the sections intact (never), otherwise 4; never a crash.
size=$(wc -c <"$T_DIR/several.o")
crashed=0 bad=0
for n in 3 20 63 64 100 500 1000 2000 4000 8000 12000 $((size / 2)) $((size - 100)) $((size - 1)); do
	[ "$n" -lt "$size" ] || continue
	head -c "$n" "$T_DIR/several.o" >"$T_DIR/cut.o"
	"$PTBUILD" inspect "$T_DIR/cut.o" >/dev/null 2>"$T_DIR/cut.err"
	st=$?
	[ "$st" -gt 128 ] && crashed=$((crashed + 1))
	if [ "$st" -ne 4 ] || ! grep -q 'cut.o' "$T_DIR/cut.err"; then bad=$((bad + 1)); echo "# cut at $n: exit $st"; fi
done
is "$crashed" 0 "truncated copies: no crash"
is "$bad" 0 "truncated copies: each exit 4 naming the file"

# Corrupted: overwrite bytes inside the fat binary (found by its magic).
off=$(od -An -tx1 -v "$T_DIR/several.o" | tr -d '\n' | tr -s ' ' '\n' | grep -v '^$' |
	awk 'BEGIN { s = "" } { s = s $1 } END { i = index(s, "50ed55ba"); print (i - 1) / 2 }')
crashed=0 codes=
for delta in 8 12 20 24 40 80; do
	cp "$T_DIR/several.o" "$T_DIR/bad.o"
	printf '\377\377\377\377\377\377\377\177' | dd of="$T_DIR/bad.o" bs=1 seek=$((off + delta)) conv=notrunc 2>/dev/null
	"$PTBUILD" inspect --decode "$T_DIR/bad.o" >/dev/null 2>&1
	st=$?
	[ "$st" -gt 128 ] && crashed=$((crashed + 1))
	codes="$codes $st"
done
echo "# corrupted at magic+8..80 exit codes:$codes"
is "$crashed" 0 "corrupted fat binary headers: no crash"
like "$codes" "*4*" "corrupted sizes: exit 4"

done_testing
