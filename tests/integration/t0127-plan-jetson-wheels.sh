#!/bin/sh
# t0127-plan-jetson-wheels.sh - "do I need to build at all?" on a Jetson:
# the plan's wheel block and its summary line, over the shipped Jetson
# profiles and over a facts document per JetPack that has published
# wheels.  Each row cites the source of the wheel it expects (ids of
# recipes/data/sources.lua; the rows are data/jetson_wheels.lua's).
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
ORIN="$top_srcdir/recipes/profiles/jetson-orin.json"

# facts OUT L4T CC CUDA [PYTHON]: the Orin profile moved to another L4T,
# GPU and JetPack CUDA (toolkit /usr/local/cuda-CUDA), with the python3
# detect would report (/usr/bin/python3 -> python<PYTHON>)
facts() {
	python3 - "$ORIN" "$@" <<'PY'
import json, sys
src, out, l4t, cc, cuda = sys.argv[1:6]
f = json.load(open(src))
if len(sys.argv) > 6:
    f["python"] = {"version": sys.argv[6], "path": "/usr/bin/python3", "real": "/usr/bin/python" + sys.argv[6],
                   "from": "PATH", "source": "/usr/bin/python" + sys.argv[6]}
f["jetson"]["l4t"] = l4t
f["gpus"][0]["compute_capability"] = cc
f["gpus"][0]["name"] = "Jetson GPU " + cc
tk = f["toolkits"][0]
tk["root"] = "/usr/local/cuda-" + cuda
tk["nvcc"] = tk["root"] + "/bin/nvcc"
tk["version"] = cuda + ".0"
json.dump(f, open(out, "w"), indent=1)
PY
}

# wheel PLAN.json: covered|torch|command|first of source_build_adds|why
wheel() {
	python3 - "$1" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["wheel"]
c = w.get("covered")
print("|".join([{True: "true", False: "false", None: "null"}[c], w.get("torch", ""), w.get("command", "-"),
                (w.get("source_build_adds") or ["-"])[0], w.get("why", "")]))
PY
}

JAL=https://pypi.jetson-ai-lab.io/jp6/cu126
NV=https://developer.download.nvidia.com/compute/redist/jp
# name | plan arguments (FACTS: the case's facts file) | L4T CC CUDA (or -)
# | covered (false/X.Y: not for this python3, a wheel does in Python X.Y)
# | torch | command | a source build adds (glob) | why (glob)
cases="orin profile, torch 2.14: the newest jp6/cu126 wheel [jal-files-211]|--profile jetson-orin|-|true|2.11.0|pip install torch==2.11.0 --index-url $JAL|torch 2.14 (the JetPack 6.2 wheels stop at 2.11.0)|*Orin (nvgpu) runs sm_87; no JetPack 6.2 wheel of torch 2.14*
orin profile, torch 2.8 [jal-files]|--profile jetson-orin --torch 2.8|-|true|2.8.0|pip install torch==2.8.0 --index-url $JAL|a CUDA or cuDNN other than JetPack 6.2's|*(Python 3.10, CUDA 12.6, arch list 8.7) covers every GPU*
orin profile, torch 2.7 [jal-files]|--profile jetson-orin --torch 2.7|-|true|2.7.0|pip install torch==2.7.0 --index-url $JAL|a CUDA*|*wheel of torch 2.7.0*
orin profile, torch 2.6: a release candidate [nv-forum-jp61]|--profile jetson-orin --torch 2.6|-|true|2.6.0rc1|pip install torch==2.6.0rc1 --index-url $JAL|a CUDA*|*wheel of torch 2.6.0rc1*
JetPack 6.2.2 (L4T 36.5.0) [jal-files-211]|--facts FACTS|36.5.0 8.7 12.6|true|2.11.0|pip install torch==2.11.0 --index-url $JAL|torch 2.14 (the JetPack 6.2.2 wheels stop at 2.11.0)|*
JetPack 6.2.3 (L4T 36.5.2) [jp623] [jal-files-211]|--facts FACTS|36.5.2 8.7 12.6|true|2.11.0|pip install torch==2.11.0 --index-url $JAL|torch 2.14 (the JetPack 6.2.3 wheels stop at 2.11.0)|*
JetPack 6.1 (L4T 36.4.0), torch 2.5 [nv-forum-jp61]|--facts FACTS --torch 2.5|36.4.0 8.7 12.6|true|2.5.0|pip install torch==2.5.0 --index-url $JAL|a CUDA*|*JetPack 6.1 wheel of torch 2.5.0*
JetPack 6.0 (L4T 36.3.0): NVIDIA's v60 wheel [nv-redist-jp6]|--facts FACTS|36.3.0 8.7 12.2|true|2.4.0a0+07cecf4168.nv24.05.14710581|pip install $NV/v60/pytorch/torch-2.4.0a0+07cecf4168.nv24.05.14710581-cp310-cp310-linux_aarch64.whl|torch 2.14 (the JetPack 6.0 wheels stop at 2.4.0a0+07cecf4168.nv24.05.14710581)|*CUDA 12.2*
JetPack 6.0 DP (L4T 36.2.0): the v60 wheel serves it too [l4t-3620] [nv-redist-jp6]|--facts FACTS|36.2.0 8.7 12.2|true|2.4.0a0+07cecf4168.nv24.05.14710581|pip install $NV/v60/pytorch/torch-2.4.0a0+07cecf4168.nv24.05.14710581-cp310-cp310-linux_aarch64.whl|torch 2.14 (the JetPack 6.0 wheels stop at 2.4.0a0+07cecf4168.nv24.05.14710581)|*CUDA 12.2*
JetPack 5.1.2 (L4T 35.4.1), Xavier: NVIDIA's v512 wheel [jc-torch-2401] [nv-forum-torch]|--facts FACTS|35.4.1 7.2 11.4|true|2.1.0a0+41361538.nv23.06|pip install $NV/v512/pytorch/torch-2.1.0a0+41361538.nv23.06-cp38-cp38-linux_aarch64.whl|torch 2.14 (the JetPack 5.1.2 wheels stop at 2.1.0a0+41361538.nv23.06)|*(Python 3.8, CUDA 11.4, arch list 7.2;8.7) covers every GPU: Jetson GPU 7.2 runs sm_72*
JetPack 5.1.7 (L4T 35.6.5), Xavier: NVIDIA's v512 wheel [jp517] [jc-torch-2401]|--facts FACTS|35.6.5 7.2 11.4|true|2.1.0a0+41361538.nv23.06|pip install $NV/v512/pytorch/torch-2.1.0a0+41361538.nv23.06-cp38-cp38-linux_aarch64.whl|torch 2.14 (the JetPack 5.1.7 wheels stop at 2.1.0a0+41361538.nv23.06)|*(Python 3.8, CUDA 11.4, arch list 7.2;8.7) covers every GPU: Jetson GPU 7.2 runs sm_72*
JetPack 5.1.5 (L4T 35.6.1), Orin [jc-torch-2401]|--facts FACTS|35.6.1 8.7 11.4|true|2.1.0a0+41361538.nv23.06|pip install $NV/v512/pytorch/torch-2.1.0a0+41361538.nv23.06-cp38-cp38-linux_aarch64.whl|torch 2.14*|*Jetson GPU 8.7 runs sm_87*
JetPack 5.0.2 (L4T 35.1.0): NVIDIA's v50 wheel [jc-torch-2401]|--facts FACTS|35.1.0 8.7 11.4|true|1.13.0a0+340c4120.nv22.06|pip install $NV/v50/pytorch/torch-1.13.0a0+340c4120.nv22.06-cp38-cp38-linux_aarch64.whl|torch 2.14 (the JetPack 5.0.2 wheels stop at 1.13.0a0+340c4120.nv22.06)|*
JetPack 4.6.4 (L4T 32.7.4), Nano: the 1.10 wheel [jc-torch] [nv-forum-torch]|--facts FACTS|32.7.4 5.3 10.2|true|1.10.0|wget -O torch-1.10.0-cp36-cp36m-linux_aarch64.whl https://nvidia.box.com/shared/static/fjtbno0vpo676a25cgvuqc1wty0fkkg6.whl && pip install torch-1.10.0-cp36-cp36m-linux_aarch64.whl|torch 2.14 (the JetPack 4.6.4 wheels stop at 1.10.0)|*(Python 3.6, CUDA 10.2, arch list 5.3;6.2;7.2)*
JetPack 4.6 (L4T 32.6.1), Nano: the 1.10 wheel [S_JTOP] [jc-l4t] [nv-forum-torch]|--facts FACTS|32.6.1 5.3 10.2|true|1.10.0|wget -O torch-1.10.0-cp36-cp36m-linux_aarch64.whl https://nvidia.box.com/shared/static/fjtbno0vpo676a25cgvuqc1wty0fkkg6.whl && pip install torch-1.10.0-cp36-cp36m-linux_aarch64.whl|torch 2.14 (the JetPack 4.6 wheels stop at 1.10.0)|*(Python 3.6, CUDA 10.2, arch list 5.3;6.2;7.2)*
JetPack 6.2 with a 7.2 GPU, a Xavier's, which no JetPack 6 has a release for: no wheel judged [jetson-lineup]|--facts FACTS|36.4.3 7.2 12.6|null|2.14.1|-|-|which wheels fit rests on the facts in dispute:*L4T 36.4.3's JetPack 6.2 has no release for the Jetson Xavier; ptbuild judges no wheel until the facts agree (see the jetson-facts-disagree error)
L4T 36.4.1: no JetPack ptbuild can name|--facts FACTS|36.4.1 8.7 12.6|false|2.14.1|-|a build for this machine at all|L4T 36.4.1 is not a release ptbuild maps to a JetPack*
JetPack 6.2, python3 3.12, torch 2.9: the jp6 wheels are cp310 only [jal-files] [jc-arch]|--facts FACTS --torch 2.9|36.4.3 8.7 12.6 3.12|false/3.10|2.9.1|-|a build for Python 3.12, for which no JetPack 6.2 wheel is published|the Jetson AI Lab's JetPack 6.2 wheel of torch 2.9.1 is built for Python 3.10 only; this machine's python3 is 3.12 (/usr/bin/python3 -> /usr/bin/python3.12): in a Python 3.10 environment it covers every GPU: Jetson GPU 8.7 runs sm_87 (pip install torch==2.9.1 --index-url $JAL); it links cuDSS (libcudss.so.0), which JetPack 6.2 does not ship*
JetPack 6.2, python3 3.10: covered [jal-files] [jc-arch]|--facts FACTS --torch 2.8|36.4.3 8.7 12.6 3.10|true|2.8.0|pip install torch==2.8.0 --index-url $JAL|a CUDA or cuDNN other than JetPack 6.2's|*(Python 3.10, CUDA 12.6, arch list 8.7) covers every GPU*
JetPack 5.1.2, python3 3.10: NVIDIA's v512 wheel is cp38 [jc-torch-2401]|--facts FACTS|35.4.1 7.2 11.4 3.10|false/3.8|2.14.1|-|torch 2.14 (the JetPack 5.1.2 wheels stop at 2.1.0a0+41361538.nv23.06)|*is built for Python 3.8 only; this machine's python3 is 3.10*
thor profile: PyTorch's linux-sbsa cu130 wheel has sm_110 [aarch64]|--profile jetson-thor|-|true|2.14.1|pip install torch==2.14.1 --index-url https://download.pytorch.org/whl/cu130|code for exactly this machine's GPUs*|*NVIDIA Thor runs sm_110*"

printf '%s\n' "$cases" >"$T_DIR/cases"
n=0
while IFS='|' read -r name args mk covered torch cmd adds why; do
	n=$((n + 1))
	if [ "$mk" != - ]; then
		# shellcheck disable=SC2086
		facts "$T_DIR/f$n.json" $mk
		args=$(printf '%s' "$args" | sed "s#FACTS#$T_DIR/f$n.json#")
	fi
	# shellcheck disable=SC2086
	"$PTBUILD" plan $args --json >"$T_DIR/p$n.json" 2>"$T_DIR/e$n"
	rc=$?
	[ "$rc" -le 1 ]
	t_ok $? "$name: plans (exit $rc: $(head -c 200 "$T_DIR/e$n"))"
	got=$(wheel "$T_DIR/p$n.json")
	is "$(printf '%s' "$got" | cut -d'|' -f1-3)" "${covered%%/*}|$torch|$cmd" "$name: covered, torch, command"
	like "$(printf '%s' "$got" | cut -d'|' -f4)" "$adds" "$name: a source build adds"
	like "$(printf '%s' "$got" | cut -d'|' -f5-)" "$why" "$name: why"
	# the summary line says the same
	# shellcheck disable=SC2086
	"$PTBUILD" plan $args >"$T_DIR/s$n" 2>/dev/null
	case $covered in
	true) want="A wheel covers this machine: $cmd" ;;
	false/*) want="No wheel is built for this machine's python3: one covers it in a Python ${covered#*/} environment" ;;
	# facts that cannot both be true: no verdict on either guess
	null) want="No wheel is judged until the facts agree: see the jetson-facts-disagree error" ;;
	# NVIDIA's and jetson-containers' wheels: published, not PyTorch's own
	*) want="No published wheel covers this machine: a source build is needed" ;;
	esac
	is "$(sed -n 3p "$T_DIR/s$n")" "$want" "$name: summary line"
done <"$T_DIR/cases"
[ "$n" -eq 21 ]
t_ok $? "all $n cases ran"

# cuDSS: the jp6/cu126 wheels from torch 2.8 on link libcudss.so.0, which
# JetPack 6 does not ship [jal-cudss]; 2.7.0 predates jetson-containers'
# cuDSS dependency [jc-cudss].  The summary names the two more steps
# after the pip line, the JSON carries them as needs, the wheel decision
# chains them, and the why says why (--no-deps, the loader path).
CUDSS_PIP="pip install --no-deps nvidia-cudss-cu12 --index-url $JAL"
# needs PLAN.json: lib|first command|second command|alternative of needs[0], or "-"
needs() {
	python3 - "$1" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
n = p["wheel"].get("needs") or []
d = [x for x in p["decisions"] if x["topic"] == "wheel"][0]
print("|".join([n[0]["lib"], n[0]["commands"][0], n[0]["commands"][1], n[0].get("alternative", "")] if n else ["-"]))
print(d["choice"])
PY
}
for tv in 2.8 2.9 2.10 2.11 "" 2.7 2.6 2.5; do
	"$PTBUILD" plan --profile jetson-orin ${tv:+--torch $tv} --json >"$T_DIR/c.json" 2>/dev/null
	"$PTBUILD" plan --profile jetson-orin ${tv:+--torch $tv} >"$T_DIR/c.txt" 2>/dev/null
	got=$(needs "$T_DIR/c.json")
	cmd=$(sed -n 3p "$T_DIR/c.txt" | sed 's/^A wheel covers this machine: //')
	case $tv in
	2.8 | 2.9 | 2.10 | 2.11 | "")
		name="torch ${tv:-2.14 (the 2.11.0 wheel)} [jal-cudss]"
		is "$(printf '%s\n' "$got" | head -1 | cut -d'|' -f1-2)" "libcudss.so.0|$CUDSS_PIP" "$name: needs cuDSS, pip's with --no-deps from the same index"
		# shellcheck disable=SC2016 # the command as written, not expanded
		like "$(printf '%s\n' "$got" | head -1 | cut -d'|' -f3)" 'export LD_LIBRARY_PATH=*libcudss.so.0*${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"' "$name: ... and puts its folder on LD_LIBRARY_PATH"
		is "$(printf '%s\n' "$got" | head -1 | cut -d'|' -f4)" "NVIDIA's cudss-local-tegra-repo .deb, then apt-get install cudss" "$name: ... or NVIDIA's .deb [jc-cudss]"
		is "$(sed -n 4p "$T_DIR/c.txt")" "  then: $CUDSS_PIP" "$name: summary, the line after the pip line"
		like "$(sed -n 5p "$T_DIR/c.txt")" "  then: export LD_LIBRARY_PATH=*" "$name: summary, then the loader path"
		like "$(sed -n 6p "$T_DIR/c.txt")" "*; it links cuDSS (libcudss.so.0), which JetPack 6.2 does not ship: import torch fails with \"libcudss.so.0: cannot open shared object file\" until nvidia-cudss-cu12 is installed, with --no-deps (else pip's cuBLAS 12.9, which its dependencies bring, shadows JetPack's cuBLAS 12.6 and cublasCreate fails), and its folder (site-packages/nvidia/cu12/lib or nvidia/cudss/lib) is on the loader path" "$name: summary, why"
		is "$(printf '%s\n' "$got" | sed -n 2p)" "$cmd && $CUDSS_PIP && $(sed -n 5p "$T_DIR/c.txt" | sed 's/^  then: //')" "$name: the wheel decision chains the three"
		;;
	*)
		name="torch $tv: no cuDSS [jc-cudss] [jal-files]"
		is "$got" "-
$cmd" "$name: needs nothing more, the decision is the pip line"
		unlike "$(cat "$T_DIR/c.txt")" "*then:*" "$name: the summary adds no step"
		unlike "$(cat "$T_DIR/c.txt")" "*cuDSS*" "$name: nor names cuDSS"
		;;
	esac
done

# The loader-path step, run by a real shell and python3: the folder of
# libcudss.so.0 under a site-packages on python3's path, in either layout
# (nvidia/cu12/lib, nvidia/cudss/lib), first on LD_LIBRARY_PATH, what was
# there kept after it (none: no empty entry).
"$PTBUILD" plan --profile jetson-orin --json >"$T_DIR/c.json" 2>/dev/null
python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["wheel"]["needs"][0]["commands"][1])' "$T_DIR/c.json" >"$T_DIR/loader.sh"
for layout in cu12 cudss; do
	site="$T_DIR/site-$layout"
	mkdir -p "$site/nvidia/$layout/lib" && : >"$site/nvidia/$layout/lib/libcudss.so.0"
	got=$(PYTHONPATH="$site" LD_LIBRARY_PATH=/usr/local/cuda/lib64 sh -c ". \"$T_DIR/loader.sh\" && printf '%s' \"\$LD_LIBRARY_PATH\"")
	is "$got" "$site/nvidia/$layout/lib:/usr/local/cuda/lib64" "loader step, nvidia/$layout/lib: first on LD_LIBRARY_PATH, the old path after it"
	got=$(PYTHONPATH="$site" sh -c "unset LD_LIBRARY_PATH; . \"$T_DIR/loader.sh\" && printf '%s' \"\$LD_LIBRARY_PATH\"")
	is "$got" "$site/nvidia/$layout/lib" "loader step, nvidia/$layout/lib, no LD_LIBRARY_PATH before: the folder alone"
done

done_testing
