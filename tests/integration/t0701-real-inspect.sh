#!/bin/sh
# t0701-real-inspect.sh - inspect against NVIDIA's own cuobjdump 12.4 on
# Debian's PyTorch 2.6 CUDA build (libtorch_cuda.so, 1.2 GB, 341 fat
# binaries, LZ4): the same SASS and PTX, image for image, in the same
# order; and what that build runs on.  The library is read twice by
# ptbuild (tens of milliseconds each) and once by cuobjdump (seconds).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/realinputs/lib.sh"
real_debs nvidia-cuda-toolkit libtorch-cuda-2.6

lib=$REAL_ROOT/usr/lib/x86_64-linux-gnu/libtorch_cuda.so.2.6.0
cuobjdump=$REAL_ROOT/usr/bin/cuobjdump
run "$cuobjdump" --version
if [ "$rc" -ne 0 ]; then
	skip "cuobjdump 12.4 lists the library" "Debian's cuobjdump does not run here: $err"
	done_testing; exit $?
fi
like "$out" "*release 12.4*" "Debian's cuobjdump is 12.4"

"$cuobjdump" --list-elf --list-ptx "$lib" >"$T_DIR/c.raw" 2>"$T_DIR/c.err"
is "$?" 0 "cuobjdump --list-elf --list-ptx reads libtorch_cuda.so"
sed -n 's/^\(ELF\|PTX\) file .*\.\(sm_[0-9]*[a-z]*\)\.\(cubin\|ptx\)$/\1 \2/p' "$T_DIR/c.raw" |
	sed 's/^ELF/SASS/' >"$T_DIR/c.txt"

run "$PTBUILD" inspect --images "$lib"
is "$rc" 0 "ptbuild inspect --images reads it"
printf '%s\n' "$out" | awk '
	$3 == "SASS" { print "SASS", $2 }
	$3 == "PTX"  { for (i = 1; i <= NF; i++) if ($i == ".target") t = $(i + 1); print "PTX", t }
' >"$T_DIR/p.txt"
is "$(wc -l <"$T_DIR/p.txt" | tr -d ' ')" "$(wc -l <"$T_DIR/c.raw" | tr -d ' ')" \
	"as many images as cuobjdump lists ($(wc -l <"$T_DIR/c.raw" | tr -d ' '))"
diff "$T_DIR/c.txt" "$T_DIR/p.txt" >"$T_DIR/diff"
t_ok $? "...the same SASS and PTX architectures, image for image"
[ -s "$T_DIR/diff" ] && head -n 20 "$T_DIR/diff" | sed 's/^/# /'

# per architecture, the counts of both
for kind in SASS PTX; do
	is "$(grep "^$kind " "$T_DIR/p.txt" | sort | uniq -c | tr -s ' ')" \
		"$(grep "^$kind " "$T_DIR/c.txt" | sort | uniq -c | tr -s ' ')" \
		"$kind per architecture: the same counts as cuobjdump"
done
like "$out" "*341 fat binaries, 2730 images*" "341 fat binaries, 2730 images"
like "$out" "*PTX   compute_90 (ISA 8.4) x341*" "PTX ISA 8.4 (CUDA 12.4) in each, read from the PTX text"

run "$PTBUILD" inspect --gpu 8.9 "$lib"
is "$rc" 0 "an RTX 4090 (8.9) runs it (exit 0)"
like "$out" "*sm_86*" "...through the sm_86 SASS"
run "$PTBUILD" inspect --gpu 3.7 "$lib"
is "$rc" 1 "a Kepler K80 (3.7) cannot run it (exit 1)"
done_testing
