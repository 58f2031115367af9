#!/bin/sh
# t0138-plan-jetson-cuda-compat.sh - a JetPack-era Jetson runs a CUDA newer
# than its JetPack's only with NVIDIA's CUDA upgrade package, cuda-compat-X-Y,
# whose driver libraries lie in /usr/local/cuda-X.Y/compat and must be on
# LD_LIBRARY_PATH (NVIDIA's CUDA for Tegra application note, "CUDA
# Upgradable Package for Jetson": "This package only provides the files, and
# does not configure the system").  A CUDA at most the JetPack's own needs
# none, nor does a machine that is not such a Jetson.  The plan names the
# package, setup.sh installs it with the toolkit, and the environment file,
# sourced by a real shell, puts the directory first; a Docker image never
# gets it.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1

# jetson NAME L4T UBUNTU [TOOLKIT-ROOT VERSION]: the Orin profile on another
# JetPack, with no toolkit or the one given (a linux-aarch64 one)
jetson() {
	python3 - recipes/profiles/jetson-orin.json "$T_DIR/$1.json" "$2" "$3" "${4-}" "${5-}" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["jetson"]["l4t"] = sys.argv[3]
f["host"]["os"] = {"id": "ubuntu", "version_id": sys.argv[4]}
f["toolkits"] = []
if sys.argv[5]:
    f["toolkits"] = [{"root": sys.argv[5], "version": sys.argv[6], "source": "test",
                      "nvcc": sys.argv[5] + "/bin/nvcc", "cudnn": None, "nccl": None,
                      "target": "aarch64-linux"}]
json.dump(f, open(sys.argv[2], "w"))
PY
}
field() { # PLAN.json EXPR: a value of the plan document
	python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
jetson jp514 35.6.0 20.04                                   # JetPack 5.1.4: CUDA 11.4
jetson jp60 36.3.0 22.04                                    # JetPack 6.0: CUDA 12.2
jetson jp62 36.4.3 22.04                                    # JetPack 6.2: CUDA 12.6
jetson jp514i 35.6.0 20.04 /usr/local/cuda-12.2 12.2.140    # 12.2 already installed
jetson jp72 39.2.0 24.04                                    # JetPack 7.2: CUDA 13.2, SBSA
python3 - recipes/profiles/jetson-thor.json "$T_DIR/thor72.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["jetson"]["l4t"] = "39.2.0"
f["driver"]["cuda_max"] = "13.2"   # JetPack 7.2's driver: CUDA 13.2's (data/l4t.lua)
json.dump(f, open(sys.argv[2], "w"))
PY
cp recipes/profiles/jetson-thor.json "$T_DIR/thor70.json"   # JetPack 7.0: CUDA 13.0

# FACTS TORCH CUDA -> the upgrade package and its directory under the
# toolkit (none: "- -"), one row a case; the JetPack's CUDA and NVIDIA's
# table of the CUDAs its upgrade serves in the note [tegra-upgrade]
while read -r facts torch cuda want dir why; do
	"$PTBUILD" plan --facts "$T_DIR/$facts.json" --torch "$torch" --cuda "$cuda" --json >"$T_DIR/p.json" 2>/dev/null
	got=$(field "$T_DIR/p.json" '(p["cuda"].get("compat") or {}).get("package", "-") + " " + ":".join(p["path_prepend"]["LD_LIBRARY_PATH"])')
	if [ "$want" = - ]; then
		exp="- /usr/local/cuda-$cuda/lib64"
	else
		exp="$want /usr/local/cuda-$cuda/$dir:/usr/local/cuda-$cuda/lib64"
	fi
	is "$got" "$exp" "$facts, --cuda $cuda: $why"
done <<'EOF'
jp514 2.5 12.2 cuda-compat-12-2 compat JetPack 5.1.4 (11.4) takes 12.2 from the upgrade package
jp514 2.5 11.8 cuda-compat-11-8 compat ... and 11.8, the first CUDA with one
jp60 2.5 12.4 cuda-compat-12-4 compat JetPack 6.0 (12.2) takes 12.4 with one
jp62 2.9 12.8 cuda-compat-12-8 compat JetPack 6.2 (12.6) takes 12.8 with one
jp62 2.9 12.6 - - JetPack 6.2's own 12.6 needs none
jp62 2.5 12.4 - - 12.4 is older than JetPack 6.2's driver: none
jp514i 2.5 12.2 cuda-compat-12-2 compat an installed 12.2 on JetPack 5.1.4 needs it too
jp72 2.14 13.4 cuda-compat-orin-13-4 compat_orin an Orin on JetPack 7.2 (13.2) takes the SBSA 13.4 with Orin's package
thor72 2.14 13.4 cuda-compat-13-4 compat a Thor on JetPack 7.2 takes it with Thor's
jp72 2.14 13.2 - - JetPack 7.2's own 13.2 needs none
thor70 2.14 13.0 - - JetPack 7.0's own 13.0 needs none
EOF

# The cuda decision says where such a CUDA comes from by the reason
# cuda-platform-missing gives: JetPack 6.2 has no CUDA 12.3 whatever its
# Ubuntu release, JetPack 5.1.4's Ubuntu 20.04 no 12.6
run "$PTBUILD" plan --facts "$T_DIR/jp62.json" --torch 2.5 --cuda 12.3
like "$out" "*CUDA 12.3 (12.3.2) for linux-aarch64, from no package that installs on this JetPack (see cuda-platform-missing)*" \
	"JetPack 6.2, --cuda 12.3: from no package that installs on this JetPack"
unlike "$out" "*Ubuntu*" "... and no word of its Ubuntu release"
run "$PTBUILD" plan --facts "$T_DIR/jp514.json" --torch 2.9 --cuda 12.6
like "$out" "*from no package for this Ubuntu release (see cuda-platform-missing)*" \
	"JetPack 5.1.4 (Ubuntu 20.04), --cuda 12.6: from no package for this Ubuntu release"

# The upgrade package's libcuda is the planned CUDA's own: no warning of
# minor-version compatibility, whose fix (a newer driver installer) a
# Jetson, whose driver comes with its JetPack, cannot take; a server with
# the same driver and CUDA still gets it
warnings() { # PLAN.json: its warning codes
	python3 -c 'import json, sys; print(" ".join(sorted(x["code"] for x in json.load(open(sys.argv[1]))["problems"] if x["severity"] == "warning")))' "$1"
}
"$PTBUILD" plan --facts "$T_DIR/thor72.json" --torch 2.14 --cuda 13.4 --json >"$T_DIR/p.json" 2>/dev/null
is "$(field "$T_DIR/p.json" 'p["cuda"]["compat"]["package"]')" "cuda-compat-13-4" "Thor on JetPack 7.2, --cuda 13.4: the upgrade package"
unlike "$(warnings "$T_DIR/p.json")" "*driver-minor-compat*" "... and no driver-minor-compat"
python3 - recipes/profiles/gh200.json "$T_DIR/gh200d.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["driver"] = {"version": "580.00", "cuda_max": "13.0"}
json.dump(f, open(sys.argv[2], "w"))
PY
"$PTBUILD" plan --facts "$T_DIR/gh200d.json" --torch 2.14 --cuda 13.4 --json >"$T_DIR/p.json" 2>/dev/null
like "$(warnings "$T_DIR/p.json")" "*driver-minor-compat*" "... a GH200 with that driver and CUDA 13.4: driver-minor-compat"

# doctor judges an installed toolkit by the same table: the upgrade
# package to load, never a driver to install, which a Jetson gets from
# its JetPack
python3 - "$T_DIR/jp62.json" "$T_DIR/jp62t.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["toolkits"] = [{"root": "/usr/local/cuda-12.8", "version": "12.8.93", "target": "aarch64-linux",
                  "nvcc": "/usr/local/cuda-12.8/bin/nvcc", "cudnn": None, "nccl": None}]
json.dump(f, open(sys.argv[2], "w"))
PY
run "$PTBUILD" doctor --facts "$T_DIR/jp62t.json"
like "$out" "*warning ?driver-too-old? JetPack 6.2's driver is CUDA 12.6's: programs built with CUDA 12.8 run on it only with NVIDIA's CUDA upgrade package cuda-compat-12-8*fix:  sudo apt-get install -y cuda-compat-12-8 and put /usr/local/cuda-12.8/compat first on LD_LIBRARY_PATH*" \
	"doctor of a JetPack 6.2 Orin using CUDA 12.8: the upgrade package, and where it loads from"
unlike "$out" "*install driver*" "... not a driver to install"
run "$PTBUILD" doctor --profile jetson-orin
unlike "$out" "*driver-too-old*" "doctor of the Orin profile (its JetPack's own 12.6): nothing of the kind"

# JetPack 4 has no upgrade package at all (NVIDIA's table starts at
# JetPack 5): a Xavier on JetPack 4.6 planned CUDA 11.8 names none
json_edit recipes/profiles/jetson-orin.json "$T_DIR/jp46.json" 'f["jetson"]["l4t"] = "32.7.4"; f["jetson"]["module"] = "Jetson AGX Xavier"; f["host"]["os"] = {"id": "ubuntu", "version_id": "18.04"}; f["gpus"] = [{"index": 0, "name": "Xavier", "compute_capability": "7.2"}]; f["toolkits"] = []'
"$PTBUILD" plan --facts "$T_DIR/jp46.json" --torch 2.5 --cuda 11.8 --json >"$T_DIR/p.json" 2>/dev/null
is "$(field "$T_DIR/p.json" '(p["cuda"].get("compat") or {}).get("package", "-")')" "-" \
	"JetPack 4.6, --cuda 11.8: no upgrade package named"

# Not a JetPack-era Jetson: no upgrade package, the toolkit's lib64 alone
for prof in gh200 jetson-thor rtx4090-workstation; do
	"$PTBUILD" plan --profile "$prof" --json >"$T_DIR/p.json" 2>/dev/null
	is "$(field "$T_DIR/p.json" 'str(p["cuda"].get("compat")) + " " + str(len(p["path_prepend"]["LD_LIBRARY_PATH"]))')" \
		"None 1" "profile $prof: no upgrade package"
done

# The text plan says why
run "$PTBUILD" plan --facts "$T_DIR/jp514.json" --torch 2.5 --cuda 12.2
like "$out" "*  cuda_compat    cuda-compat-12-2, /usr/local/cuda-12.2/compat first on LD_LIBRARY_PATH
                   JetPack 5.1.4's driver is CUDA 11.4's: programs built with CUDA 12.2 run on it only with NVIDIA's CUDA upgrade package*" \
	"the text plan names the package and the JetPack's CUDA"
like "$out" "*  LD_LIBRARY_PATH=/usr/local/cuda-12.2/compat:/usr/local/cuda-12.2/lib64:\$LD_LIBRARY_PATH*" \
	"... and its environment puts the compat directory first"

# generate: the environment file, sourced by real shells, and setup.sh
"$PTBUILD" plan --facts "$T_DIR/jp514.json" --torch 2.5 --cuda 12.2 --json >"$T_DIR/p.json" 2>/dev/null
run "$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/gen"
is "$rc" 0 "generate for JetPack 5.1.4 with CUDA 12.2: exit 0"
for shell in sh bash dash; do
	command -v "$shell" >/dev/null 2>&1 || continue
	got=$(env -i PATH="$PATH" LD_LIBRARY_PATH=/opt/mine/lib "$shell" -c '. "$1/ptbuild.env" && . "$1/ptbuild.env" && printf %s "$LD_LIBRARY_PATH"' x "$T_DIR/gen")
	is "$got" "/usr/local/cuda-12.2/compat:/usr/local/cuda-12.2/lib64:/opt/mine/lib" \
		"$shell sourcing ptbuild.env (twice): the compat directory first, then lib64, then the caller's"
done
got=$(env -i PATH="$PATH" sh -c '. "$1/ptbuild.env" && printf %s "$LD_LIBRARY_PATH"' x "$T_DIR/gen")
is "$got" "/usr/local/cuda-12.2/compat:/usr/local/cuda-12.2/lib64" "... and with LD_LIBRARY_PATH unset, no empty entry"
like "$(cat "$T_DIR/gen/docker.env")" "*LD_LIBRARY_PATH=/usr/local/cuda-12.2/compat:/usr/local/cuda-12.2/lib64*" \
	"docker.env (the plan's environment, literal) holds it too"
ld=$(sed -n 's/^ENV LD_LIBRARY_PATH=//p' "$T_DIR/gen/Dockerfile")
unlike "$ld" "*compat*" "the Dockerfile's LD_LIBRARY_PATH ($ld) never holds a Jetson's upgrade package"
run sh "$T_DIR/gen/setup.sh" --dry-run
like "$out$err" "*sudo apt-get install -y cuda-toolkit-12-2 cuda-compat-12-2*" \
	"setup.sh's local-repo commands install the upgrade package with the toolkit"
like "$out$err" "*setup: CUDA: CUDA 12.2 runs on this JetPack's driver only with NVIDIA's upgrade package, which is not in /usr/local/cuda-12.2/compat: sudo apt-get install -y cuda-compat-12-2*" \
	"... and it checks for the package's libcuda"

# an installed 12.2: setup.sh checks the package all the same
"$PTBUILD" plan --facts "$T_DIR/jp514i.json" --torch 2.5 --cuda 12.2 --json >"$T_DIR/p.json" 2>/dev/null
"$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/geni" --format setup >/dev/null 2>&1
run sh "$T_DIR/geni/setup.sh" --dry-run
like "$out$err" "*CUDA 12.2 runs on this JetPack's driver only with NVIDIA's upgrade package*cuda-compat-12-2*" \
	"an installed 12.2 on JetPack 5.1.4: setup.sh checks for the upgrade package"

# an Orin on JetPack 7.2 with the SBSA 13.4: setup.sh fetches the toolkit
# and checks for Orin's package, which the environment loads
"$PTBUILD" plan --facts "$T_DIR/jp72.json" --cuda 13.4 --json >"$T_DIR/p.json" 2>/dev/null
"$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/gen72" >/dev/null 2>&1
run sh "$T_DIR/gen72/setup.sh" --dry-run
like "$out$err" "*sudo apt-get install -y cuda-compat-orin-13-4 (from NVIDIA's CUDA 13.4 local repo or network repository)*" \
	"JetPack 7.2 Orin with CUDA 13.4: setup.sh names Orin's upgrade package"
unlike "$out$err" "*ptbuild does not fetch*" "... once: not again as a package it cannot fetch"
is "$(field "$T_DIR/p.json" 'str(p["cuda"].get("orin_compat"))')" "None" \
	"... and its plan names it in cuda.compat alone, not in cuda.orin_compat too"
got=$(env -i PATH="$PATH" sh -c '. "$1/ptbuild.env" && printf %s "$LD_LIBRARY_PATH"' x "$T_DIR/gen72")
is "$got" "/usr/local/cuda-13.4/compat_orin:/usr/local/cuda-13.4/lib64" "... and its environment file loads it"
ld=$(sed -n 's/^ENV LD_LIBRARY_PATH=//p' "$T_DIR/gen72/Dockerfile")
unlike "$ld" "*compat*" "... which its (SBSA) Dockerfile never does ($ld)"

# JetPack 6.2's own CUDA: neither setup.sh nor the environment names one
"$PTBUILD" plan --facts "$T_DIR/jp62.json" --torch 2.9 --cuda 12.6 --json >"$T_DIR/p.json" 2>/dev/null
"$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/gen62" >/dev/null 2>&1
run sh "$T_DIR/gen62/setup.sh" --dry-run
unlike "$out$err" "*upgrade package*" "JetPack 6.2's own 12.6: setup.sh names no upgrade package"
got=$(env -i PATH="$PATH" sh -c '. "$1/ptbuild.env" && printf %s "$LD_LIBRARY_PATH"' x "$T_DIR/gen62")
is "$got" "/usr/local/cuda-12.6/lib64" "... and its environment file no compat directory"

# plan check reads a plan whose compat block is damaged as bad input
python3 - "$T_DIR/p.json" "$T_DIR/bad.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["cuda"]["compat"] = {"package": "cuda-compat-12-2", "dir": "relative/compat"}
json.dump(p, open(sys.argv[2], "w"))
PY
run "$PTBUILD" generate --plan "$T_DIR/bad.json" --out "$T_DIR/genbad" --format setup
is "$rc" 2 "generate of a plan whose cuda.compat.dir is relative: exit 2"
like "$err" "*cuda.compat.dir*absolute path*" "... naming the key and what was expected"
# half a compat block: setup.sh would not check the package whose
# directory the environment still loads
for edit in '"cuda-compat-12-2"' '{"package": "cuda-compat-12-2"}' '{"dir": "/usr/local/cuda-12.2/compat"}'; do
	python3 - "$T_DIR/p.json" "$T_DIR/bad.json" "$edit" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["cuda"]["compat"] = json.loads(sys.argv[3])
json.dump(p, open(sys.argv[2], "w"))
PY
	rm -rf "$T_DIR/genbad"
	run "$PTBUILD" generate --plan "$T_DIR/bad.json" --out "$T_DIR/genbad" --format setup
	is "$rc" 2 "generate of a plan whose cuda.compat is $edit: exit 2"
	like "$err" "*key 'cuda.compat': expected an object with a package and its dir*" "... naming the key"
	is "$(ls "$T_DIR/genbad" 2>/dev/null | wc -l | tr -d ' ')" 0 "... and writing nothing"
done

done_testing
