#!/bin/sh
# t0155-doctor-source.sh - doctor in a PyTorch source checkout made here
# (version.txt, setup.py, torch/, .gitmodules and its submodule folders,
# .git): found by --source under a sysroot or as the working directory,
# judged by that release's data, its submodules as PyTorch's setup.py
# judges them; bad checkouts and option mixes are usage errors.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

toolkit() { # ROOT VERSION
	mkdir -p "$1/bin" "$1/include/crt" "$1/targets/x86_64-linux/lib" "$1/lib64"
	printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000\076\000' >"$1/bin/nvcc"
	printf '{\n  "cuda": { "name": "CUDA SDK", "version": "%s" }\n}\n' "$2" >"$1/version.json"
	printf '#if __GNUC__ > 14\n#error -- unsupported GNU version!\n#endif\n' >"$1/include/crt/host_config.h"
}
# checkout DIR VERSION: a PyTorch tree with two submodules checked out
# (pybind11 and cpuinfo, each with its CMakeLists.txt), fbgemm's nested
# asmjit (setup.py checks it whatever .gitmodules lists) and a .git
checkout() {
	rm -rf "$1"
	mkdir -p "$1/torch" "$1/.git" "$1/third_party/pybind11" "$1/third_party/cpuinfo" "$1/third_party/fbgemm/external/asmjit"
	: >"$1/third_party/fbgemm/external/asmjit/CMakeLists.txt"
	printf '%s\n' "$2" >"$1/version.txt"
	printf 'print("setup")\n' >"$1/setup.py"
	printf '[submodule "third_party/pybind11"]\n\tpath = third_party/pybind11\n\turl = https://github.com/pybind/pybind11.git\n[submodule "third_party/cpuinfo"]\n\tpath = third_party/cpuinfo\n\turl = https://github.com/pytorch/cpuinfo.git\n' >"$1/.gitmodules"
	: >"$1/third_party/pybind11/CMakeLists.txt"
	: >"$1/third_party/cpuinfo/CMakeLists.txt"
}
cat >"$T_DIR/facts.json" <<'JSON'
{ "schema": "ptbuild.facts/1",
  "host": { "arch": "x86_64", "platform": "x86_64", "page_size": 4096, "memory_mib": 65536, "cpu": { "cores": 8 } },
  "driver": { "version": "615.71.09", "cuda_max": "13.4" },
  "gpus": [ { "index": 0, "name": "NVIDIA GeForce RTX 4090", "compute_capability": "8.9", "source": "test" } ],
  "toolkits": [], "compilers": [ { "name": "gcc", "version": "12.2.0", "path": "/usr/bin/gcc" } ], "jetson": null }
JSON
R="$T_DIR/root"
mkdir -p "$R/proc"
printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\n' >"$R/proc/cpuinfo"
# doctor VERSION CUDA [VAR=VALUE...]: a checkout of VERSION at /src/pytorch
# in the sysroot, the toolkit CUDA in use there; the JSON in $T_DIR/d.json
doctor() {
	_v=$1 _c=$2
	shift 2
	checkout "$R/src/pytorch" "$_v"
	[ -d "$R/opt/cuda-$_c" ] || toolkit "$R/opt/cuda-$_c" "$_c"
	env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin CUDA_HOME="/opt/cuda-$_c" MAX_JOBS=4 "$@" \
		"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch --json >"$T_DIR/d.json" 2>"$T_DIR/err"
}

# --- the toolkit's CUDA against each release's data ----------------------
# VERSION.TXT|CUDA|CODE|TEXT (empty: CODE not raised), each with its source
while IFS='|' read -r v cuda code text; do
	[ -n "$v" ] || continue
	doctor "$v" "$cuda"
	got=$(findings "$T_DIR/d.json" "$code" message)
	if [ -n "$text" ]; then
		like "$got" "*$text*" "PyTorch $v with CUDA $cuda: $code ($text)"
	else
		is "$got" "" "PyTorch $v with CUDA $cuda: no $code"
	fi
done <<'ROWS'
2.14.0a0|12.4.131|torch-cuda-unsupported|its CMake stops with "PyTorch requires CUDA 12.6 or above."
2.14.0a0|12.6.85|torch-cuda-unsupported|
2.14.0a0|12.6.85|torch-cuda-untested|
2.14.1|13.4.48|torch-cuda-untested|ships no CUDA 13.4 wheels: PyTorch's CI built and tested it with CUDA 12.6, 13.0, 13.2 only
2.13.0|12.1.105|torch-cuda-untested|with CUDA 12.6, 12.9, 13.0, 13.2 only
2.13.0|12.0.140|torch-cuda-unsupported|PyTorch requires CUDA 12.1 or above.
2.12.1|12.4.131|torch-cuda-untested|ptbuild knows no source for the oldest CUDA its CMake accepts
2.12.1|12.4.131|torch-cuda-unsupported|
2.8.0|13.0.88|torch-cuda-unsupported|it predates CUDA 13 (its newest CUDA is 12.9)
2.6.0|11.4.152|torch-cuda-untested|with CUDA 11.8, 12.4, 12.6 only
2.15.0a0|12.4.131|torch-cuda-unsupported|ptbuild has no data for PyTorch 2.15, and the CMake of PyTorch 2.14, the newest release it knows, stops with "PyTorch requires CUDA 12.6 or above."
2.15.0a0|12.6.85|torch-cuda-unsupported|
2.15.0a0|12.6.85|torch-cuda-untested|
ROWS
# (2.14 12.6, 2.13 12.1, 2.6 11.0: [pt-cudamin]; wheel CUDAs: [release]
# [pt-matrix]; 2.12's minimum was not read; 2.15: no data, held to 2.14's
# minimum, which only rises)

# --- the arch list read by the checkout's release's CMake ---------------
# VERSION.TXT|LIST|TEXT of arch-list-invalid (empty: none) [cmake-names]
# [cmake-re]
while IFS='|' read -r v list text; do
	[ -n "$v" ] || continue
	doctor "$v" 12.9.86 TORCH_CUDA_ARCH_LIST="$list"
	got=$(findings "$T_DIR/d.json" arch-list-invalid message)
	if [ -n "$text" ]; then
		like "$got" "*$text*" "PyTorch $v, TORCH_CUDA_ARCH_LIST=$list: $text"
	else
		is "$got" "" "PyTorch $v, TORCH_CUDA_ARCH_LIST=$list: accepted"
	fi
done <<'ROWS'
2.13.0a0|8.9;Rubin|'Rubin' is not a name PyTorch 2.13's CMake knows (it arrived in 2.14)
2.6.0|8.9;Blackwell|'Blackwell' is not a name PyTorch 2.6's CMake knows (it arrived in 2.7)
2.7.1|8.9;Blackwell|
2.8.0|8.9;12.0f|PyTorch 2.8
2.9.1|8.9;12.0f|
ROWS

# the fix of a name the checkout's release does not know fits the toolkit
# in use: 10.7 (Rubin) is built by CUDA 13.4 on [pt190654], so with 12.9
# it is not offered alone.  VERSION.TXT|CUDA|LIST|FIX
while IFS='|' read -r v cuda list fix; do
	[ -n "$v" ] || continue
	doctor "$v" "$cuda" TORCH_CUDA_ARCH_LIST="$list"
	is "$(findings "$T_DIR/d.json" arch-list-invalid fix)" "$fix" "PyTorch $v, CUDA $cuda, TORCH_CUDA_ARCH_LIST=$list: the fix fits the toolkit"
done <<'ROWS'
2.13.0a0|12.9.86|8.9;Rubin|CUDA 12.9, the toolkit in use, does not build sm_107: install CUDA 13.4 or newer, then write the compute capability, '10.7', or build PyTorch 2.14 or newer
2.13.0a0|13.4.48|8.9;Rubin|write the compute capability instead, '10.7', or build PyTorch 2.14 or newer
2.6.0|12.4.131|8.9;Blackwell|PyTorch 2.6 cannot build for 10.0;12.0 at all: build PyTorch 2.7 or newer with CUDA 12.8 or newer (CUDA 12.4, the toolkit in use, does not build sm_100, sm_120)
ROWS

# --- the document, the text, the submodules -------------------------------
doctor 2.14.0a0 12.4.131
is "$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["source"]; print(s["path"], s["version"], s["release"], s["known"])' "$T_DIR/d.json")" \
	"/src/pytorch 2.14.0a0 2.14 True" "--json: source path, version, release, known"
rmdir "$R/src/pytorch/third_party/pybind11" 2>/dev/null || rm -rf "$R/src/pytorch/third_party/pybind11"
mkdir -p "$R/src/pytorch/third_party/pybind11" "$R/src/pytorch/third_party/cutlass"
printf 'see upstream\n' >"$R/src/pytorch/third_party/cutlass/README"
printf '[submodule "cutlass"]\n\tpath = third_party/cutlass\n[submodule "evil"]\n\tpath = ../../etc\n\tpath = /etc\n' >>"$R/src/pytorch/.gitmodules"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin CUDA_HOME=/opt/cuda-12.4.131 MAX_JOBS=4 \
	"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch
is "$rc" 1 "an empty submodule: exit 1"
like "$out" "*source    /src/pytorch (PyTorch 2.14.0a0)*" "the text names the checkout"
like "$out" "*error \[source-submodules-missing\] 2 of the 3 git submodules the checkout's .gitmodules lists are not checked out: PyTorch's setup.py stops with \"Could not find any of CMakeLists.txt, Makefile, setup.py, LICENSE, LICENSE.md, LICENSE.txt in /src/pytorch/third_party/pybind11\"*" \
	"an empty submodule and one without its files (paths leaving the tree ignored)"
like "$out" "*seen: /src/pytorch/.gitmodules; third_party/pybind11 empty, third_party/cutlass (holds none of its files)*" "... each named"
like "$out" "*fix:  cd /src/pytorch && git submodule update --init --recursive*" "... the fix"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin CUDA_HOME=/opt/cuda-12.4.131 MAX_JOBS=4 USE_SYSTEM_LIBS=1 \
	"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch --json
unlike "$out" "*source-submodules-missing*" "USE_SYSTEM_LIBS=1: setup.py skips the check, so does doctor"
# USE_SYSTEM_LIBS as each release's setup.py reads it: str2bool (stripped,
# any case) from 2.8, bool() of the text (0 included) before
while IFS='|' read -r v val skip; do
	[ -n "$v" ] || continue
	printf '%s\n' "$v" >"$R/src/pytorch/version.txt"
	run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin CUDA_HOME=/opt/cuda-12.4.131 MAX_JOBS=4 USE_SYSTEM_LIBS="$val" \
		"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch --json
	if [ "$skip" = raise ]; then
		like "$out" "*source-use-system-libs-invalid*it stops with *ValueError: Invalid string value for boolean conversion: $(printf '%s' "$val" | tr -d ' ' | tr 'A-Z' 'a-z')*" \
			"PyTorch $v, USE_SYSTEM_LIBS='$val': setup.py's str2bool raises, as doctor says"
		unlike "$out" "*source-submodules-missing*" "... and checks no folder"
	elif [ "$skip" = skip ]; then
		unlike "$out" "*source-submodules-missing*" "PyTorch $v, USE_SYSTEM_LIBS='$val': setup.py skips the check"
	else
		like "$out" "*source-submodules-missing*" "PyTorch $v, USE_SYSTEM_LIBS='$val': setup.py checks"
	fi
done <<'ROWS'
2.14.0a0| Enabled |skip
2.14.0a0|found|skip
2.14.0a0|T|skip
2.14.0a0|0|check
2.14.0a0|off|check
2.6.0|0|skip
2.6.0|off|skip
2.14.0a0| Maybe |raise
2.8.0|2|raise
2.6.0|maybe|skip
ROWS
printf '2.14.0a0\n' >"$R/src/pytorch/version.txt"
# USE_SYSTEM_LIBS stripped as Python's str.strip() strips it (Unicode
# blanks such as U+00A0 and U+3000, \x1c-\x1f; not U+200B): 60 values, a
# word of str2bool's or another text between such characters, each
# judged invalid by doctor exactly when Python's own strip() and lower()
# leave a text that is none of str2bool's words [pt-submodules]
python3 - "$PTBUILD" "$R" "$T_DIR/facts.json" >"$T_DIR/strip.out" 2>&1 <<'PY'
import json, os, random, subprocess, sys
ptbuild, root, facts = sys.argv[1:4]
words = ["1", "true", "t", "yes", "y", "on", "enable", "enabled", "found", "0", "false", "f", "no",
         "n", "off", "disable", "disabled", "notfound", "none", "null", "nil", "undefined", "n/a"]
pads = [" ", "\t", "\x1c", "\x1f", "\u0085", "\u00a0", "\u1680", "\u2000", "\u2007", "\u200a",
        "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u200b", "\ufeff", "x", ""]
rnd = random.Random(20261202)
bad = 0
for i in range(60):
    w = rnd.choice(words + ["maybe", "2", "tru", ""])
    w = "".join(ch.upper() if rnd.random() < 0.5 else ch for ch in w)
    v = "".join(rnd.choice(pads) for _ in range(rnd.randint(0, 2))) + w + \
        "".join(rnd.choice(pads) for _ in range(rnd.randint(0, 2)))
    if not v or "\x00" in v:
        continue
    invalid = v.strip().lower() not in words
    env = {k: x for k, x in os.environ.items() if k not in ("TORCH_CUDA_ARCH_LIST",)}
    env.update(PATH="/usr/bin", CUDA_HOME="/opt/cuda-12.4.131", MAX_JOBS="4", USE_SYSTEM_LIBS=v)
    r = subprocess.run([ptbuild, "doctor", "--sysroot", root, "--facts", facts, "--source", "/src/pytorch",
                        "--json"], env=env, capture_output=True)
    codes = [f["code"] for f in json.loads(r.stdout)["findings"]]
    if ("source-use-system-libs-invalid" in codes) != invalid:
        bad += 1
        print("USE_SYSTEM_LIBS=%r: Python reads it %s, doctor %s" % (v, "invalid" if invalid else "valid",
              "invalid" if not invalid else "valid"))
print("%d differ" % bad)
PY
is "$(tail -n 1 "$T_DIR/strip.out")" "0 differ" "USE_SYSTEM_LIBS stripped as Python strips it: 60 values, Unicode blanks among them"
[ "$(tail -n 1 "$T_DIR/strip.out")" = "0 differ" ] || sed 's/^/# /' "$T_DIR/strip.out" | head -n 10
# a git checkout with every submodule empty: setup.py inits them itself
rm -rf "$R/src/pytorch/third_party/cpuinfo/CMakeLists.txt" "$R/src/pytorch/third_party/cutlass/README"
printf '2.14.1\n' >"$R/src/pytorch/version.txt"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin CUDA_HOME=/opt/cuda-12.6.85 MAX_JOBS=4 \
	"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch
like "$out" "*warning \[source-submodules-missing\] none of the 3 git submodules the checkout's .gitmodules lists is checked out: PyTorch's setup.py will run 'git submodule update --init --recursive' itself before it builds, which needs git and the network*fix:  cd /src/pytorch && git submodule update --init --recursive*" \
	"every submodule empty in a git checkout: a warning, setup.py inits them itself"
unlike "$out" "*Could not find any of*" "... and does not stop at the first folder"
# a source archive: no .git, every submodule empty
rm -rf "$R/src/pytorch/.git"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin CUDA_HOME=/opt/cuda-12.6.85 MAX_JOBS=4 \
	"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch
is "$rc" 1 "... without .git: exit 1"
like "$out" "*error \[source-submodules-missing\] none of the 3 git submodules*PyTorch's setup.py runs 'git submodule update --init --recursive' itself, which fails outside a git checkout: it stops with \"Submodule initialization failed\"*fix:  /src/pytorch has no .git*git clone --recursive --branch v2.14.1 https://github.com/pytorch/pytorch*" \
	"no .git: setup.py's own init fails, as it says; the fix clones the release's tag"
unlike "$out" "*Could not find any of*" "... quoting what setup.py really prints"

# fbgemm's nested asmjit, empty after an init without --recursive: setup.py
# checks it last, for its CMakeLists.txt only
checkout "$R/src/pytorch" 2.14.0a0
mkdir -p "$R/src/pytorch/third_party/fbgemm"
: >"$R/src/pytorch/third_party/fbgemm/CMakeLists.txt"
printf '[submodule "third_party/fbgemm"]\n\tpath = third_party/fbgemm\n' >>"$R/src/pytorch/.gitmodules"
rm "$R/src/pytorch/third_party/fbgemm/external/asmjit/CMakeLists.txt"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin CUDA_HOME=/opt/cuda-12.6.85 MAX_JOBS=4 \
	"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch
is "$rc" 1 "fbgemm checked out, its asmjit empty: exit 1"
like "$out" "*error \[source-submodules-missing\] fbgemm's nested submodule third_party/fbgemm/external/asmjit is not checked out*setup.py stops with \"Could not find any of CMakeLists.txt in /src/pytorch/third_party/fbgemm/external/asmjit\"*" \
	"... setup.py's last check, quoted"
like "$out" "*seen: /src/pytorch/.gitmodules; third_party/fbgemm/external/asmjit empty*" "... its state seen"
printf 'MIT\n' >"$R/src/pytorch/third_party/fbgemm/external/asmjit/LICENSE"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin CUDA_HOME=/opt/cuda-12.6.85 MAX_JOBS=4 \
	"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch
like "$out" "*third_party/fbgemm/external/asmjit (holds none of its files)*" "asmjit with a LICENSE only: still short of its CMakeLists.txt"
: >"$R/src/pytorch/third_party/fbgemm/external/asmjit/CMakeLists.txt"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin CUDA_HOME=/opt/cuda-12.6.85 MAX_JOBS=4 \
	"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch
unlike "$out" "*source-submodules-missing*" "... and with it: nothing"

# --- a source archive: no .gitmodules, setup.py's own list ---------------
# archive DIR VERSION ASMJIT: a tree as a release's source archive unpacks
# (no .gitmodules, no .git), gloo, cpuinfo, onnx, foxi, fbgemm and cutlass
# each with its CMakeLists.txt, no QNNPACK (as v2.4.0's archive has none),
# fbgemm's asmjit under fbgemm/ASMJIT (third_party or external)
archive() {
	rm -rf "$1"
	mkdir -p "$1/torch"
	printf '%s\n' "$2" >"$1/version.txt"
	printf 'print("setup")\n' >"$1/setup.py"
	for m in gloo cpuinfo onnx foxi fbgemm cutlass "fbgemm/$3/asmjit"; do
		mkdir -p "$1/third_party/$m"
		: >"$1/third_party/$m/CMakeLists.txt"
	done
}
# VERSION|ASMJIT|FOLDER REMOVED|TEXT of source-submodules-missing (empty:
# none), each with its source [pt-submodules-default]
while IFS='|' read -r v asmjit gone text; do
	[ -n "$v" ] || continue
	archive "$R/src/pytorch" "$v" "$asmjit"
	[ -z "$gone" ] || rm -rf "$R/src/pytorch/third_party/$gone"
	run env -u TORCH_CUDA_ARCH_LIST -u USE_SYSTEM_LIBS PATH=/usr/bin CUDA_HOME=/opt/cuda-12.6.85 MAX_JOBS=4 \
		"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch --json
	printf '%s' "$out" >"$T_DIR/a.json"
	got=$(findings "$T_DIR/a.json" source-submodules-missing message)
	if [ -n "$text" ]; then
		like "$got" "*$text*" "archive of $v, asmjit in fbgemm/$asmjit${gone:+, no $gone}: $text"
	else
		is "$got" "" "archive of $v, asmjit in fbgemm/$asmjit${gone:+, no $gone}: as setup.py, no finding"
	fi
done <<'ROWS'
2.4.0|third_party||1 of the 7 folders PyTorch 2.4's setup.py checks when the checkout has no .gitmodules are not checked out: PyTorch's setup.py stops with "Could not find any of CMakeLists.txt, Makefile, setup.py, LICENSE, LICENSE.md, LICENSE.txt in /src/pytorch/third_party/QNNPACK"
2.5.1|third_party||
2.6.0|third_party||
2.6.0|external||fbgemm's nested submodule third_party/fbgemm/third_party/asmjit is not checked out
2.7.1|third_party||
2.7.1|external||
2.8.0|external||
2.14.1|third_party||fbgemm's nested submodule third_party/fbgemm/external/asmjit is not checked out
2.14.1|external|cutlass|1 of the 5 folders PyTorch 2.14's setup.py checks when the checkout has no .gitmodules are not checked out: PyTorch's setup.py stops with "Could not find any of CMakeLists.txt, Makefile, setup.py, LICENSE, LICENSE.md, LICENSE.txt in /src/pytorch/third_party/cutlass"
ROWS
# (2.4.0: issue #131864, its archive stops at QNNPACK; 2.5: foxi and
# QNNPACK left the list, PRs #132976 and #133177; 2.6.0: Debian's
# pytorch 2.6.0+dfsg source, fbgemm/third_party/asmjit; 2.7, not read:
# either place passes; 2.8 on: fbgemm/external/asmjit, the 2.8- and
# 2.9-cycle setup.py)

# hostile trees: a .gitmodules that is a FIFO (setup.py would block on
# it) is said, never opened for a blocking read; one that is a link to
# itself is absent to os.path.exists, so setup.py's own list holds; a
# version.txt of 1 GiB costs its first line
archive "$R/src/pytorch" 2.14.1 external
rm -rf "$R/src/pytorch/third_party/cutlass"
if mkfifo "$R/src/pytorch/.gitmodules" 2>/dev/null; then
	run timeout 60 env -u TORCH_CUDA_ARCH_LIST -u USE_SYSTEM_LIBS PATH=/usr/bin CUDA_HOME=/opt/cuda-12.6.85 MAX_JOBS=4 \
		"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch
	is "$rc" 1 "a .gitmodules that is a FIFO: exit 1, no hang"
	like "$out" "*error \[source-submodules-missing\] /src/pytorch/.gitmodules is a FIFO (named pipe), not a readable file: PyTorch's setup.py opens it to list the submodules and waits on it for ever*" \
		"... said as what setup.py does with it"
else
	skip "a .gitmodules that is a FIFO" "mkfifo is not available"
	skip "... said" "mkfifo is not available"
fi
rm -f "$R/src/pytorch/.gitmodules"
ln -s .gitmodules "$R/src/pytorch/.gitmodules"
run timeout 60 env -u TORCH_CUDA_ARCH_LIST -u USE_SYSTEM_LIBS PATH=/usr/bin CUDA_HOME=/opt/cuda-12.6.85 MAX_JOBS=4 \
	"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch
like "$out" "*1 of the 5 folders PyTorch 2.14's setup.py checks when the checkout has no .gitmodules*third_party/cutlass*" \
	"a .gitmodules linked to itself: absent, as os.path.exists has it"
rm -f "$R/src/pytorch/.gitmodules"
printf '2.14.1\n' >"$R/src/pytorch/version.txt"
if truncate -s 1G "$R/src/pytorch/version.txt" 2>/dev/null; then
	run timeout 60 env -u TORCH_CUDA_ARCH_LIST -u USE_SYSTEM_LIBS PATH=/usr/bin CUDA_HOME=/opt/cuda-12.6.85 MAX_JOBS=4 \
		"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch --json
	is "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["source"]["version"])')" "2.14.1" \
		"a 1 GiB version.txt: its first line read, in time"
else
	skip "a 1 GiB version.txt" "truncate is not available"
fi

# --- folders setup.py cannot list ---------------------------------------
# os.listdir raises on a folder it cannot read (PermissionError), where
# setup.py's all() reaches it (every folder before it missing or empty);
# past that, check_for_files stats the folder's files, which mode 0111
# allows and mode 000 does not.  Root reads anything through its
# CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, so as root ptbuild runs
# without them (setpriv --bounding-set): still root, so it reaches the
# test's folders however the checkout's parents are set (a clone under a
# mode-700 mktemp folder, as CI's is, kept nobody out), but held to the
# modes like any user; skipped where neither works.  [pt-submodules]
# srcdoctor [VAR=VALUE...]: doctor of the checkout at /src/pytorch, as
# $asuser (empty: this user)
srcdoctor() {
	run $asuser env -u TORCH_CUDA_ARCH_LIST -u USE_SYSTEM_LIBS PATH=/usr/bin CUDA_HOME=/opt/cuda-12.6.85 MAX_JOBS=4 "$@" \
		"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/pytorch
}
asuser= why=
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null 2>&1; then
		asuser="setpriv --bounding-set -dac_override,-dac_read_search"
	else
		why="running as root, which reads any folder, and setpriv is not installed"
	fi
fi
checkout "$R/src/pytorch" 2.14.0a0
chmod 000 "$R/src/pytorch/third_party/pybind11"
if [ -z "$why" ] && ! $asuser test -r "$R/src/pytorch/version.txt"; then
	why="ptbuild without root's file capabilities cannot reach the test's directory"
elif [ -z "$why" ] && $asuser ls "$R/src/pytorch/third_party/pybind11" >/dev/null 2>&1; then
	why="a folder of mode 000 is readable here"
fi
# MODE OF pybind11 (listed first)|OF cpuinfo (second)|TEXT (empty: none)
while IFS='|' read -r m1 m2 text; do
	[ -n "$m1" ] || continue
	if [ -n "$why" ]; then
		skip "pybind11 $m1, cpuinfo $m2" "$why"
		continue
	fi
	chmod "$m1" "$R/src/pytorch/third_party/pybind11"
	chmod "$m2" "$R/src/pytorch/third_party/cpuinfo"
	srcdoctor
	if [ -n "$text" ]; then
		like "$out" "*$text*" "a folder setup.py cannot list: pybind11 $m1, cpuinfo $m2"
	else
		unlike "$out" "*source-submodules-missing*" "a folder setup.py cannot list: pybind11 $m1, cpuinfo $m2: as setup.py, no finding"
	fi
done <<'ROWS'
000|755|error \[source-submodules-missing\] /src/pytorch/third_party/pybind11 cannot be read (Permission denied): PyTorch's setup.py lists it to see whether any submodule is checked out and stops with "PermissionError: \[Errno 13\] Permission denied: '/src/pytorch/third_party/pybind11'"*seen: /src/pytorch/.gitmodules; third_party/pybind11 unreadable (Permission denied)*fix:  let the user who builds read it (chmod -R u+rwX /src/pytorch/third_party/pybind11)
111|755|stops with "PermissionError: \[Errno 13\] Permission denied: '/src/pytorch/third_party/pybind11'"
755|000|error \[source-submodules-missing\] 1 of the 2 git submodules the checkout's .gitmodules lists are not checked out: PyTorch's setup.py stops with "Could not find any of CMakeLists.txt, Makefile, setup.py, LICENSE, LICENSE.md, LICENSE.txt in /src/pytorch/third_party/cpuinfo"*seen: /src/pytorch/.gitmodules; third_party/cpuinfo unreadable (Permission denied)
755|111|
ROWS
chmod 755 "$R/src/pytorch/third_party/pybind11" "$R/src/pytorch/third_party/cpuinfo"
# what root meets too: a link to nothing is absent to os.path.exists; a
# file where the folder should be is there, not empty, and holds none of
# the files (a stat through a file fails)
asuser=
rm -rf "$R/src/pytorch/third_party/pybind11"
ln -s ../nowhere "$R/src/pytorch/third_party/pybind11"
srcdoctor
like "$out" "*1 of the 2 git submodules*Could not find any of * in /src/pytorch/third_party/pybind11*seen: /src/pytorch/.gitmodules; third_party/pybind11 missing*" \
	"a submodule that is a dangling link: missing, as os.path.exists has it"
rm -f "$R/src/pytorch/third_party/pybind11"
printf 'not a folder\n' >"$R/src/pytorch/third_party/pybind11"
srcdoctor
like "$out" "*1 of the 2 git submodules*Could not find any of * in /src/pytorch/third_party/pybind11*third_party/pybind11 (holds none of its files)*" \
	"a submodule that is a file: none of its files in it"

# --- a .gitmodules path line without '=' ----------------------------------
# setup.py to 2.7 takes line.split("=", 1)[1] and raises IndexError; 2.8
# on line.partition("=")[-1], the checkout's top, which is there and not
# empty, so it no longer inits submodules itself  [pt-submodules-noeq]
# VERSION|TEXT of source-submodules-missing (empty: none)
while IFS='|' read -r v text; do
	[ -n "$v" ] || continue
	checkout "$R/src/pytorch" "$v"
	sed -i '2a\	path third_party/foo' "$R/src/pytorch/.gitmodules"
	srcdoctor
	if [ -n "$text" ]; then
		like "$out" "*$text*" "PyTorch $v, a path line without '=': $text"
	else
		unlike "$out" "*source-submodules-missing*" "PyTorch $v, a path line without '=': the checkout's top, no finding"
	fi
done <<'ROWS'
2.4.0|error \[source-submodules-missing\] /src/pytorch/.gitmodules line 3, 'path third_party/foo', has no '=': PyTorch 2.4's setup.py takes each 'path' line's text after its '=' (line.split("=", 1)\[1\]) and stops there with "IndexError: list index out of range"*seen: /src/pytorch/.gitmodules:3: path third_party/foo*fix:  write line 3 as 'path = third_party/foo', or restore the file: cd /src/pytorch && git checkout -- .gitmodules
2.6.0|PyTorch 2.6's setup.py takes each 'path' line's text after its '='
2.7.1|/src/pytorch/.gitmodules line 3, 'path third_party/foo', has no '=': PyTorch 2.7's setup.py
2.8.0|
2.14.1|
ROWS
checkout "$R/src/pytorch" 2.6.0
sed -i '2a\	path third_party/foo' "$R/src/pytorch/.gitmodules"
srcdoctor USE_SYSTEM_LIBS=1
unlike "$out" "*has no '='*" "... USE_SYSTEM_LIBS=1: setup.py reads no .gitmodules"
rm -rf "$R/src/pytorch/.git"
srcdoctor
like "$out" "*fix:  write line 3 of /src/pytorch/.gitmodules as 'path = third_party/foo'*" "... without .git: the fix edits the line"
# 2.8: every listed submodule empty, the line without '=' the top: no init
# by setup.py, it stops at the first empty folder
checkout "$R/src/pytorch" 2.8.0
sed -i '2a\	path third_party/foo' "$R/src/pytorch/.gitmodules"
rm -f "$R/src/pytorch/third_party/pybind11/CMakeLists.txt" "$R/src/pytorch/third_party/cpuinfo/CMakeLists.txt"
srcdoctor
like "$out" "*error \[source-submodules-missing\] 2 of the 3 git submodules the checkout's .gitmodules lists are not checked out: PyTorch's setup.py stops with \"Could not find any of * in /src/pytorch/third_party/pybind11\"*" \
	"PyTorch 2.8, every submodule empty but a path line without '=': setup.py does not init them, it stops"
checkout "$R/src/pytorch" 2.14.0a0

# --- found as the working directory, on this host -----------------------
checkout "$T_DIR/pt" 2.13.0a0
rm -rf "$T_DIR/pt/third_party/pybind11/CMakeLists.txt"
here=$(cd "$T_DIR/pt" && pwd -P)
(cd "$T_DIR/pt" && "$PTBUILD" doctor --json >"$T_DIR/h.json" 2>/dev/null)
is "$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["source"]; print(s["path"], s["release"])' "$T_DIR/h.json")" \
	"$here 2.13" "run inside a checkout: the working directory is the source"
like "$(findings "$T_DIR/h.json" source-submodules-missing seen)" "*third_party/pybind11 empty*" "... and its submodules are read"
(cd "$T_DIR" && "$PTBUILD" doctor --source pt --json >"$T_DIR/h2.json" 2>/dev/null)
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["source"]["path"])' "$T_DIR/h2.json")" \
	"$T_DIR/pt" "--source pt: relative to the working directory"
(cd "$T_DIR/pt" && "$PTBUILD" doctor --source . --json >"$T_DIR/h6.json" 2>/dev/null)
(cd "$T_DIR" && "$PTBUILD" doctor --source ./pt//. --json >"$T_DIR/h7.json" 2>/dev/null)
is "$(python3 -c 'import json,sys; print(*(json.load(open(a))["source"]["path"] for a in sys.argv[1:]))' "$T_DIR/h6.json" "$T_DIR/h7.json")" \
	"$here $T_DIR/pt" "--source . and ./pt//.: shown without their '.' parts"
run env -u TORCH_CUDA_ARCH_LIST PATH=/usr/bin CUDA_HOME=/opt/cuda-12.4.131 MAX_JOBS=4 \
	"$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source /src/./pytorch/ --json
is "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["source"]["path"])')" \
	"/src/pytorch" "... under --sysroot too"
(cd "$T_DIR/pt/torch" && "$PTBUILD" doctor --json >"$T_DIR/h3.json" 2>/dev/null)
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["source"])' "$T_DIR/h3.json")" \
	"None" "a directory that is not a checkout's top: no source"
(cd "$T_DIR/pt" && "$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --json >"$T_DIR/h4.json" 2>/dev/null)
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["source"])' "$T_DIR/h4.json")" \
	"None" "--sysroot: this host's working directory is not that machine's"

# --- bad checkouts and option mixes: usage errors, exit 2 ---------------
run "$PTBUILD" doctor --source "$T_DIR/pt/torch"
is "$rc" 2 "--source that is not a checkout: exit 2"
like "$err" "*source '$T_DIR/pt/torch' is not a PyTorch checkout: it has no version.txt at its top*" "... naming it and what it lacks"
printf 'main\n' >"$T_DIR/pt/version.txt"
run "$PTBUILD" doctor --source "$T_DIR/pt"
is "$rc" 2 "a version.txt that is no version: exit 2"
like "$err" "*'$T_DIR/pt/version.txt' reads 'main': expected a PyTorch version such as 2.14.0a0*" "... naming the file and what it reads"
(cd "$T_DIR/pt" && "$PTBUILD" doctor --json >"$T_DIR/h5.json" 2>"$T_DIR/e5"; echo $? >"$T_DIR/rc5")
like "$(cat "$T_DIR/rc5")" "[01]" "... found as the working directory, not asked for: no usage error (exit 0 or 1 by this host)"
like "$(findings "$T_DIR/h5.json" source-version-unreadable message)" \
	"*the working directory $T_DIR/pt looks like a PyTorch checkout, but '$T_DIR/pt/version.txt' reads 'main': expected a PyTorch version such as 2.14.0a0*" \
	"... a warning naming the file and what it reads"
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["source"])' "$T_DIR/h5.json")" \
	"None" "... and no checkout judged"
# the text quoted: whole up to 44 bytes, cut with "..." past that
v44=main-branch-checkout-of-a-fork-0123456789abc
printf '%sX\n' "$v44" >"$T_DIR/pt/version.txt"
run "$PTBUILD" doctor --source "$T_DIR/pt"
like "$err" "*reads '$v44...': expected*" "a 45-byte version.txt: quoted cut, with ..."
printf '%s\n' "$v44" >"$T_DIR/pt/version.txt"
run "$PTBUILD" doctor --source "$T_DIR/pt"
like "$err" "*reads '$v44': expected*" "a 44-byte one: quoted whole, without ..."
run "$PTBUILD" doctor --profile gh200 --source "$T_DIR/pt"
is "$rc" 2 "--source with --profile alone: exit 2"
like "$err" "*--source reads a checkout on the machine doctored*add --sysroot*" "... saying why"
run "$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/facts.json" --source src/pytorch
is "$rc" 2 "--sysroot with a relative --source: exit 2"
run "$PTBUILD" doctor --facts "$T_DIR/facts.json" --facts "$T_DIR/facts.json" --source "$T_DIR/pt"
is "$rc" 2 "a fleet with --source: exit 2"

# --- a node known by its facts: the tree needs the machine ---------------
run "$PTBUILD" doctor --profile gh200 --json
needs=$(printf '%s' "$out" | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["needs_machine"]))')
for code in source-submodules-missing torch-cuda-unsupported torch-cuda-untested; do
	like " $needs " "* $code *" "--profile alone: $code needs the machine"
done

done_testing
