#!/bin/sh
# t0007-validate.sh - `ptbuild validate` with the real nvcc, compile-only
# (no GPU here): several arch lists; the cache; a list the toolkit cannot
# build; and fake toolkits (links to the real one, with an nvcc wrapper or
# a changed header) whose binary lacks what was asked, whose nvcc fails,
# and whose cuDNN header does not match its library.
. "$top_srcdir/tests/lib.sh"

XDG_CACHE_HOME=$T_DIR/cache TMPDIR=$T_DIR
export XDG_CACHE_HOME TMPDIR
unset CUDA_HOME

run "$PTBUILD" validate --cuda-home "$T_DIR/nowhere" --arch-list 8.0
is "$rc" 2 "no nvcc under --cuda-home: exit 2"
like "$err" "*no nvcc at '$T_DIR/nowhere/bin/nvcc'*" "... naming where it looked"
run "$PTBUILD" validate --timeout 0
is "$rc" 2 "--timeout 0 is a usage error"

nvcc=${NVCC:-}
[ -n "$nvcc" ] && command -v "$nvcc" >/dev/null 2>&1 || nvcc=$(command -v nvcc 2>/dev/null)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
	skip "validate with nvcc" "no nvcc on this machine (set NVCC or put nvcc on PATH)"
	done_testing
	exit $?
fi
nvcc=$(command -v "$nvcc")
if ! home=$(nvcc_toolkit "$nvcc"); then
	skip "validate with nvcc" "$nvcc names no toolkit root (nvcc --dryrun printed no TOP=)"
	done_testing
	exit $?
fi
echo "# toolkit $home"

if [ -r /proc/driver/nvidia/version ]; then co=--compile-only; else co=; fi

# 1. A plain list, compile-only: passes and says nothing ran.
run "$PTBUILD" validate --cuda-home "$home" --arch-list 'Ampere;Hopper+PTX' $co
is "$rc" 0 "'Ampere;Hopper+PTX': exit 0"
like "$out" "*binary holds SASS     sm_80 sm_86 sm_90*" "... SASS sm_80 sm_86 sm_90"
like "$out" "*binary holds PTX      compute_90*" "... PTX compute_90"
like "$out" "*nothing ran: *" "... and says plainly that nothing ran"
like "$out" "*compile               ok in *s*" "... with the compile time"

# 2. The repeat comes from the cache; --force compiles again.
start=$(date +%s)
run "$PTBUILD" validate --cuda-home "$home" --arch-list 'Ampere;Hopper+PTX' $co
end=$(date +%s)
is "$rc" 0 "repeat: exit 0"
like "$out" "*(cached result)*" "repeat: answered from the cache"
ok_=1; [ $((end - start)) -le 1 ] && ok_=0
t_ok "$ok_" "repeat took at most a second ($((end - start)) s)"
ls "$XDG_CACHE_HOME/ptbuild/validate/"*.json >/dev/null 2>&1
t_ok $? "cache file under \$XDG_CACHE_HOME/ptbuild/validate/"

# 3. Variants and the run path: the program runs even without a driver
#    (--run-without-gpu), reports versions and says no GPU was usable.
run "$PTBUILD" validate --cuda-home "$home" --arch-list '7.5;12.0f+PTX' --run-without-gpu --json --force
is "$rc" 0 "'7.5;12.0f+PTX' --json: exit 0"
like "$out" '*"sass": [*"sm_75",*"sm_120f"*"ptx": [*"compute_120f"*' "... expected and found sm_75, sm_120f, compute_120f"
like "$out" '*"missing": \[\]*"unexpected": \[\]*' "... nothing missing, nothing extra"
if [ -r /proc/driver/nvidia/version ]; then
	skip "no-GPU run path" "this machine has a driver"
else
	like "$out" '*"ran": false*"not_run_because": "no usable GPU*' "... the program ran, found no usable GPU"
fi
if [ -f "$home/include/cudnn.h" ]; then
	like "$out" '*"cudnn_header": "*"cudnn_library": "*' "... cuDNN header and library versions reported"
else
	skip "cuDNN versions" "no cuDNN in $home"
fi

# 3b. 'X(Y)+PTX': PyTorch asks for PTX of both 8.6 and 8.0; the binary
#     must hold exactly what the -gencode flags ask for.
run "$PTBUILD" validate --cuda-home "$home" --arch-list '8.6(8.0)+PTX' $co
is "$rc" 0 "'8.6(8.0)+PTX': exit 0"
like "$out" "*binary holds SASS     sm_86
binary holds PTX      compute_80 compute_86*" "... sm_86 built from compute_80, PTX 8.0 and 8.6"

# 4. A list this toolkit cannot build fails before compiling.
run "$PTBUILD" validate --cuda-home "$home" --arch-list '3.5;8.0'
is "$rc" 1 "'3.5;8.0': exit 1"
like "$err" "*does not build sm_35*" "... saying which architecture"

# Fake toolkits: every entry links to the real one, bin/nvcc is a wrapper.
fake() { # NAME WRAPPER-BODY
	d=$T_DIR/$1
	mkdir -p "$d/bin"
	for e in "$home"/*; do
		[ "$(basename "$e")" = bin ] || ln -s "$e" "$d/$(basename "$e")"
	done
	printf '#!/bin/sh\n%s\n' "$2" >"$d/bin/nvcc"
	chmod +x "$d/bin/nvcc"
}

# 5. An nvcc that drops the last -gencode: the binary lacks what was asked.
fake drop ''
cat >"$T_DIR/drop/bin/nvcc" <<WRAP
#!/bin/sh
last=
for a; do case "\$a" in -gencode*) last=\$a ;; esac; done
for a; do shift; [ "\$a" = "\$last" ] && [ -n "\$last" ] && continue; set -- "\$@" "\$a"; done
exec "$nvcc" "\$@"
WRAP
run "$PTBUILD" validate --cuda-home "$T_DIR/drop" --arch-list '9.0a;10.0f+PTX' $co
is "$rc" 5 "binary lacking the requested PTX: exit 5"
like "$err" "*lacks compute_100f*" "... naming what is missing"
like "$out" "*result                FAIL*" "... and FAIL"

# 6. An nvcc that fails: exit 5 with its output.
fake broken 'case "$1" in --version) exec '"$nvcc"' --version ;; esac
echo "fake nvcc: fatal: something broke" >&2; exit 1'
run "$PTBUILD" validate --cuda-home "$T_DIR/broken" --arch-list 8.0 $co
is "$rc" 5 "nvcc failing: exit 5"
like "$err" "*nvcc failed (exit 1)*something broke*" "... with nvcc's message"

# 6b. The release is detect's reading of the toolkit (its version.json),
#     the same that plan and detect report for it, not a second parse of
#     `nvcc --version`: a toolkit whose files say 12.6 is validated as 12.6
#     whatever its nvcc wrapper prints, and detect names the same release.
fake relabelled 'case "$1" in --version) echo "Cuda compilation tools, release 99.9, V99.9.1"; exit 0 ;; esac
exec '"$nvcc"' "$@"'
rm "$T_DIR/relabelled/version.json"
printf '{ "cuda": { "version": "12.6.3" }, "cuda_nvcc": { "version": "12.6.85" } }\n' >"$T_DIR/relabelled/version.json"
run "$PTBUILD" validate --cuda-home "$T_DIR/relabelled" --arch-list 8.0 --compile-only
is "$rc" 0 "a toolkit whose version.json says 12.6: exit 0"
like "$out" "*toolkit               CUDA 12.6 at $T_DIR/relabelled*" "... validated as CUDA 12.6, from its files"
run env CUDA_HOME="$T_DIR/relabelled" "$PTBUILD" detect --json
like "$out" "*\"release\": \"12.6\",*\"root\": \"$T_DIR/relabelled\"*" "... the release detect reads for it"

# 6c. A test program that runs past --timeout: killed with what it
#     started (its process group), a problem naming the limit.
fake slow 'case "$1" in --version) exec '"$nvcc"' --version ;; esac
for a; do [ "$prev" = -o ] && out=$a; prev=$a; done
printf "#!/bin/sh\nsleep 60 & echo \$! >%s/slow.pid; wait\n" "'"$T_DIR"'" >"$out"; chmod +x "$out"'
start=$(date +%s)
run "$PTBUILD" validate --cuda-home "$T_DIR/slow" --arch-list 8.0 --run-without-gpu --timeout 3 --force
end=$(date +%s)
is "$rc" 5 "a test program past --timeout 3: exit 5"
like "$err" "*the test program ran past 3 s and was killed*" "... naming the limit"
ok_=1; [ $((end - start)) -le 30 ] && ok_=0
t_ok "$ok_" "... within 30 s ($((end - start)) s)"
# killed: gone, or a zombie until whoever inherits it reaps it
pid=$(cat "$T_DIR/slow.pid" 2>/dev/null)
gone=1 i=0
while [ -n "$pid" ] && [ $i -lt 50 ]; do
	st=$(ps -o stat= -p "$pid" 2>/dev/null)
	case "$st" in "" | Z*) gone=0; break ;; esac
	sleep 0.2
	i=$((i + 1))
done
t_ok "$gone" "... and the sleep it started is killed too"
[ "$gone" = 0 ] || echo "# sleep pid '${pid:-none written}', state '$st'"

# 6d. No --arch-list and no plan options: the arch list is this machine's
#     GPUs as detect saw them (here the stand-in driver library's RTX 4090
#     and RTX A6000), not a second query of the GPU by validate.
stub=$top_builddir/tests/stubs/libcuda-ok.so
if [ -f "$stub" ]; then
	run env PTBUILD_LIBCUDA="$stub" PTBUILD_LIBNVML=none "$PTBUILD" validate --cuda-home "$home" --compile-only --force
	is "$rc" 0 "no --arch-list, two GPUs seen by detect: exit 0"
	like "$err" "*using this machine's GPUs as detect saw them, compute capability 8.9;8.6*" "... the arch list is detect's GPUs, each once"
	like "$out" "*sm_86*sm_89*" "... and the binary holds code for both"
	# A plan whose toolkit detect did not list (a facts file naming it by
	# a link of its own): validate reads that toolkit, without asking the
	# driver for the GPUs a second time.
	ln -s "$home" "$T_DIR/tklink"
	env PTBUILD_LIBNVML=none "$PTBUILD" detect --json >"$T_DIR/host.json" 2>/dev/null
	python3 - "$T_DIR/host.json" "$T_DIR/tklink" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
t = [t for t in f["toolkits"] if t.get("release")][0]
t["root"], t["nvcc"], t["aliases"] = sys.argv[2], sys.argv[2] + "/bin/nvcc", []
f["toolkits"] = [t]
f["gpus"] = [{"index": 0, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}]
json.dump(f, open(sys.argv[1], "w"))
PY
	: >"$T_DIR/cuinit.log"
	run env -u CUDA_HOME PTB_STUB_CUDA_LOG="$T_DIR/cuinit.log" PTBUILD_LIBCUDA="$stub" PTBUILD_LIBNVML=none \
		"$PTBUILD" validate --facts "$T_DIR/host.json" --compile-only --force
	is "$rc" 0 "a plan whose toolkit detect did not list: validated (exit 0)"
	like "$out" "*toolkit*$T_DIR/tklink*" "... with the plan's toolkit"
	is "$(wc -l <"$T_DIR/cuinit.log" | tr -d ' ')" 1 "... and the driver probed once (cuInit calls)"
else
	skip "validate from detect's GPUs" "the stand-in libcuda is not built ($stub)"
fi

# 6e. Only a wrapper script on PATH (a site's /usr/local/bin/nvcc that
#     execs the toolkit's): no CUDA_HOME, no --cuda-home, and the toolkit
#     validated is the one the wrapper runs, not the wrapper's directory.
mkdir -p "$T_DIR/wrapbin"
printf '#!/bin/sh\nexec %s/bin/nvcc "$@"\n' "$home" >"$T_DIR/wrapbin/nvcc"
chmod +x "$T_DIR/wrapbin/nvcc"
run env -u CUDA_HOME -u CUDA_PATH PATH="$T_DIR/wrapbin:/usr/bin:/bin" "$PTBUILD" validate --arch-list 8.0 --compile-only --force
is "$rc" 0 "an nvcc wrapper alone on PATH: exit 0"
like "$out" "*toolkit *CUDA * at $home*" "... the toolkit is the one the wrapper runs"

# 7. The classic cuDNN mismatch: headers of one version, and at run time
#    a libcudnn of another (here a stub reporting 8.9.2 found first).
if [ -f "$home/include/cudnn_version.h" ] && command -v "${CC:-cc}" >/dev/null 2>&1; then
	fake mixed "exec '$nvcc' \"\$@\""
	rm "$T_DIR/mixed/lib64" 2>/dev/null
	mkdir -p "$T_DIR/mixed/lib64"
	libsrc=$home/lib64; [ -d "$libsrc" ] || libsrc=$home/lib
	for e in "$libsrc"/*; do ln -s "$e" "$T_DIR/mixed/lib64/$(basename "$e")"; done
	rm -f "$T_DIR/mixed/lib64/libcudnn.so" "$T_DIR/mixed/lib64/libcudnn.so.9"
	printf '#include <stddef.h>\nsize_t cudnnGetVersion(void) { return 80902; }\n' >"$T_DIR/stub.c"
	"${CC:-cc}" -shared -fPIC -Wl,-soname,libcudnn.so.9 -o "$T_DIR/mixed/lib64/libcudnn.so.9" "$T_DIR/stub.c"
	ln -s libcudnn.so.9 "$T_DIR/mixed/lib64/libcudnn.so"
	run "$PTBUILD" validate --cuda-home "$T_DIR/mixed" --arch-list 8.0 --run-without-gpu
	is "$rc" 5 "cuDNN header 9 with library 8 at run time: exit 5"
	like "$err" "*cudnn header says 9.* but the library loaded is 8.9.2*" "... the classic cuDNN mismatch, named"
else
	skip "cuDNN mismatch" "no cuDNN in $home or no C compiler"
fi

# No --arch-list: the plan decides (here a profile's, so the answer does not
# depend on this machine): GH200 is 9.0, +PTX on the highest.
run "$PTBUILD" validate --profile gh200 --cuda-home "$home" --compile-only --json
is "$rc" 0 "validate --profile gh200: the plan's arch list compiles"
like "$out" '*"torch_cuda_arch_list": "9.0+PTX"*' "... the arch list is the plan's"
like "$err" "*validating the plan (profile:gh200): TORCH_CUDA_ARCH_LIST=9.0+PTX*" "... and says so"
run "$PTBUILD" validate --profile gh200 --cuda 13.0 --arch-list 7.0 --cuda-home "$home" --compile-only
is "$rc" 1 "--arch-list still wins over the plan (and CUDA 13 refuses 7.0)"

# The plan's toolkit or none: a plan for another CUDA release than the nvcc
# found never passes (exit 5), and says which two and what to do.
rel=$("$nvcc" --version | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
other=12.6; [ "$rel" = 12.6 ] && other=12.8
run "$PTBUILD" validate --profile rtx4090-workstation --cuda "$other" --cuda-home "$home" --compile-only
is "$rc" 5 "a plan for CUDA $other, nvcc $rel from --cuda-home: exit 5"
like "$err" "*error: the plan is for CUDA $other, but '$home/bin/nvcc' is CUDA $rel*hint: *--cuda-home (or CUDA_HOME) at a CUDA $other toolkit*" "... naming both releases and the fix"
case "$out" in *PASS*) r=1 ;; *) r=0 ;; esac
t_ok $r "... and never says PASS"
run env CUDA_HOME="$home" "$PTBUILD" validate --profile rtx4090-workstation --cuda "$other" --compile-only --json
is "$rc" 5 "... the same through \$CUDA_HOME, with --json: exit 5"
is "$out" "" "... no document claims a result"
like "$err" "*hint: install the plan's toolkit ('ptbuild fetch --prefix /*cuda*' with the same plan options)*" "... the hint names ptbuild fetch"
run "$PTBUILD" validate --profile rtx4090-workstation --cuda "$other" --arch-list 8.9 --cuda-home "$home" --compile-only
is "$rc" 5 "--arch-list with plan options is checked against the plan's CUDA too"
if "$PTBUILD" -q plan --profile rtx4090-workstation --cuda "$rel" >/dev/null 2>&1 || [ $? -eq 1 ]; then
	run "$PTBUILD" validate --profile rtx4090-workstation --cuda "$rel" --cuda-home "$home" --compile-only
	is "$rc" 0 "a plan for CUDA $rel with nvcc $rel proceeds as before"
	like "$out" "*toolkit               CUDA $rel at $home*result                PASS*" "... and passes"
else
	skip "a plan for nvcc's own release" "ptbuild does not know CUDA $rel"
	skip "... and passes" "ptbuild does not know CUDA $rel"
fi

done_testing
