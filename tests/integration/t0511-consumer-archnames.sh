#!/bin/sh
# t0511-consumer-archnames.sh - every name and suffix form `ptbuild arch`
# accepts, as PyTorch's own two readers of TORCH_CUDA_ARCH_LIST read it:
# CUDA_SELECT_NVCC_ARCH_FLAGS of select_compute_arch.cmake (run with
# cmake -P) and torch.utils.cpp_extension._get_cuda_arch_flags (run by
# tests/consumer/arch_flags.py), both from Debian unstable's libtorch-dev
# and python3-torch, fetched as t0510 fetches them (skipped, with the
# reason, when they cannot be had).  No nvcc is needed: both only turn the
# list into flags.
#
# The forms: each name the release's CMake knows (from ptbuild's own hint,
# so a name ptbuild adds is tried too), with and without +PTX, and each
# known X.Y with "", a and f and with and without +PTX, plus the A(B)
# form.  For each that `ptbuild arch --torch <the package's release>`
# accepts: CMake gives ptbuild's gencode; cpp_extension gives the flags
# ptbuild's cpp_extension.gencode says (null when it refuses); and
# ptbuild warns exactly when those differ from the CMake ones.
. "$top_srcdir/tests/lib.sh"

command -v cmake >/dev/null 2>&1 || skip_all "cmake is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cache=${PTB_CONSUMER_CACHE:-${HOME:-/nonexistent}/.cache/ptbuild-consumer}
torch=$("$top_srcdir/tests/consumer/fetch-pytorch.sh" "$cache" 2>"$T_DIR/fetch.err") ||
	skip_all "PyTorch's files cannot be had: $(tail -1 "$T_DIR/fetch.err")"
sca=$(find "$torch" -path '*/FindCUDA/select_compute_arch.cmake' | head -1)
cppext=$(find "$torch" -path '*/torch/utils/cpp_extension.py' | head -1)
verpy=$(dirname "$(dirname "$cppext")")/version.py
[ -f "$sca" ] && [ -f "$cppext" ] && [ -f "$verpy" ] ||
	skip_all "the packages in $cache hold no select_compute_arch.cmake, cpp_extension.py or version.py"
rel=$(sed -n "s/^__version__ = '\([0-9]*\.[0-9]*\).*/\1/p" "$verpy")
# a Debian release ptbuild does not know yet is a skip; any other refusal
# of --torch is a failure below
"$PTBUILD" arch 8.0 --torch "$rel" >/dev/null 2>"$T_DIR/t.err" ||
	! grep -q "unknown PyTorch release '$rel'" "$T_DIR/t.err" ||
	skip_all "ptbuild does not know PyTorch '$rel' (the packages' release)"

# The names and the X.Y ptbuild knows, from its own hints.
names=$("$PTBUILD" arch NoSuchName --torch "$rel" 2>&1 | sed -n 's/^hint: .*CMake knows: //p' | sed 's/, /\n/g')
ccs=$("$PTBUILD" arch 99.9 2>&1 | sed -n 's/^hint: known: //p')
like "$names" "*Hopper*" "the names of PyTorch $rel, from ptbuild's hint"
like "$ccs" "*9.0*" "the X.Y ptbuild knows, from its hint"
{
	printf '%s\n' "$names" | while read -r n; do printf '%s\n%s+PTX\n' "$n" "$n"; done
	for c in $ccs; do
		for s in '' a f; do printf '%s%s\n%s%s+PTX\n' "$c" "$s" "$c" "$s"; done
	done
	printf '%s\n' '8.6(8.0)' '8.6(8.0)+PTX' '9.0 8.0' 'Ampere;Hopper'
} >"$T_DIR/forms"

cat >"$T_DIR/sca.cmake" <<'EOF'
cmake_minimum_required(VERSION 3.10)
set(CUDA_VERSION 13.4)
include("${SCA}")
CUDA_SELECT_NVCC_ARCH_FLAGS(out "${LIST}")
message(STATUS "FLAGS=${out}")
EOF

# normalized gencode flags, one per line, sorted
flags() { tr ' ;' '\n\n' | sed -n 's/^-gencode=\{0,1\}//p; s/^\(arch=.*\)$/\1/p' | grep '^arch=' | sort -u; }
# ptbuild's JSON as three lines: gencode, cpp_extension.gencode ("refused"
# when null), whether it warned (True/False)
jget() { python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
g = d["cpp_extension"]["gencode"]
print(" ".join(d["gencode"]))
print("refused" if g is None else " ".join(g))
print(len(d["warnings"]) > 0)' "$1"; }

tried=0 accepted=0 differ=0 refused=0
while IFS= read -r form; do
	tried=$((tried + 1))
	"$PTBUILD" arch "$form" --torch "$rel" --json >"$T_DIR/a.json" 2>/dev/null || continue
	accepted=$((accepted + 1))
	jget "$T_DIR/a.json" >"$T_DIR/a.txt"
	want=$(sed -n 1p "$T_DIR/a.txt" | flags)
	cmake -DSCA="$sca" -DLIST="$form" -P "$T_DIR/sca.cmake" >"$T_DIR/c.out" 2>&1
	st=$?
	got=$(sed -n 's/^-- FLAGS=//p' "$T_DIR/c.out" | flags)
	is "$st:$got" "0:$want" "'$form': PyTorch $rel's CMake gives ptbuild's flags"

	cxwant=$(sed -n 2p "$T_DIR/a.txt")
	if TORCH_CUDA_ARCH_LIST=$form python3 "$top_srcdir/tests/consumer/arch_flags.py" "$cppext" >"$T_DIR/x.out" 2>"$T_DIR/x.err"; then
		cxgot=$(flags <"$T_DIR/x.out")
		[ "$cxwant" = refused ] || cxwant=$(printf '%s\n' "$cxwant" | flags)
	else
		cxgot=refused
		refused=$((refused + 1))
	fi
	is "$cxgot" "$cxwant" "'$form': cpp_extension of PyTorch $rel gives what ptbuild says it gives"
	warn=False
	[ "$cxgot" = "$want" ] || { warn=True; differ=$((differ + 1)); }
	is "$(sed -n 3p "$T_DIR/a.txt")" "$warn" "'$form': ptbuild warns exactly when cpp_extension reads it otherwise"
done <"$T_DIR/forms"
echo "# PyTorch $rel: $tried forms tried, $accepted accepted by ptbuild, $differ read otherwise by cpp_extension ($refused refused by it)"
t_ok "$([ "$accepted" -gt 100 ]; echo $?)" "more than 100 forms compared ($accepted)"

# Both readers refuse a name the release does not have, as ptbuild does.
cmake -DSCA="$sca" -DLIST=NoSuchName -P "$T_DIR/sca.cmake" >"$T_DIR/c.out" 2>&1
like "$?:$(cat "$T_DIR/c.out")" "[1-9]*Unknown CUDA Architecture Name*NoSuchName*" "PyTorch $rel's CMake refuses an unknown name"

done_testing
