#!/bin/sh
# t0133-plan-jetson-cuda-packages.sh - a JetPack-era Jetson gets a CUDA
# other than its JetPack's from NVIDIA's Jetson local-repo .deb, which is
# built for one Ubuntu release (20.04: JetPack 5, 22.04: JetPack 6).  The
# plan names that .deb, never plans a CUDA that has none for the
# Jetson's Ubuntu release, and says so when --cuda asks for one; an
# Orin on the SBSA toolkit is told of the Orin compatibility package.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1

# orin NAME L4T UBUNTU: the Orin profile on another JetPack, no toolkit
orin() {
	python3 - recipes/profiles/jetson-orin.json "$T_DIR/$1.json" "$2" "$3" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["jetson"]["l4t"] = sys.argv[3]
f["host"]["os"] = {"id": "ubuntu", "version_id": sys.argv[4]}
f["toolkits"] = []
json.dump(f, open(sys.argv[2], "w"))
PY
}
field() { # PLAN.json EXPR: a value of the plan document
	python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
orin jp514 35.6.0 20.04
orin jp62 36.4.3 22.04

# JetPack 5.1.4 (Ubuntu 20.04): no Jetson CUDA 12.6 exists for it, so
# PyTorch 2.14 (CUDA 12.6 at least) gets no JetPack-era CUDA at all
"$PTBUILD" plan --facts "$T_DIR/jp514.json" --json >"$T_DIR/p.json" 2>/dev/null
is "$(field "$T_DIR/p.json" 'p["cuda"]["platform"] == "linux-aarch64"')" "False" \
	"JetPack 5.1.4 with PyTorch 2.14: no linux-aarch64 CUDA is planned (none of 12.6+ has a 20.04 package)"
is "$(field "$T_DIR/p.json" '" ".join(sorted(x["code"] for x in p["problems"] if x["severity"] == "error"))')" \
	"jetson-orin-needs-cuda-13.2" "... the one error is that CUDA 13 needs JetPack 7.2"

# --cuda 12.2 on JetPack 5.1.4: the 20.04 .deb, named in the text plan
run "$PTBUILD" plan --facts "$T_DIR/jp514.json" --torch 2.5 --cuda 12.2
is "$rc" 0 "JetPack 5.1.4, --cuda 12.2: a plan"
like "$out" "*  cuda           CUDA 12.2 (12.2.2) for linux-aarch64, from NVIDIA's Jetson local repo cuda-tegra-repo-ubuntu2004-12-2-local_12.2.2-1_arm64.deb, in /usr/local/cuda-12.2*" \
	"... whose text names the Ubuntu 20.04 .deb"

# --cuda 12.6 there: an error naming the Ubuntu releases
run "$PTBUILD" plan --facts "$T_DIR/jp514.json" --torch 2.5 --cuda 12.6
is "$rc" 1 "JetPack 5.1.4, --cuda 12.6: exit 1"
like "$out" "*error \\[cuda-platform-missing\\] NVIDIA's Jetson packages of CUDA 12.6 are for Ubuntu 22.04, not this JetPack 5.1.4 Ubuntu 20.04*
    fix: choose one it has (--cuda 11.8, 12.2), or flash*" \
	"... CUDA 12.6's Jetson packages are for 22.04; the fix lists the 20.04 packages PyTorch 2.5 builds with (not JetPack 5.1.4's 11.4, older than any plan installs)"

# Every CUDA the fix offers plans without an error of its own: none the
# PyTorch release does not build, none older than a plan installs
offered() { # OUT: the --cuda list of cuda-platform-missing's fix
	printf '%s\n' "$1" | sed -n 's/.*fix: choose one it has (--cuda \([0-9., ]*\)).*/\1/p' | tr -d ,
}
for c in "jp514 2.5 12.6" "jp62 2.14 12.2" "jp62 2.9 12.2" "jp514 2.4 12.6" "jp514 2.5 12.1" "jp62 2.4 12.5"; do
	set -- $c
	run "$PTBUILD" plan --facts "$T_DIR/$1.json" --torch "$2" --cuda "$3"
	list=$(offered "$out")
	[ -n "$list" ]; t_ok $? "$1, PyTorch $2, --cuda $3: the fix offers CUDAs ($list)"
	bad=
	for v in $list; do
		"$PTBUILD" plan --facts "$T_DIR/$1.json" --torch "$2" --cuda "$v" --json >"$T_DIR/o.json" 2>/dev/null
		e=$(field "$T_DIR/o.json" '" ".join(x["code"] for x in p["problems"] if x["severity"] == "error")' 2>/dev/null) || e="no plan"
		[ -z "$e" ] || bad="$bad $v($e)"
	done
	is "$bad" "" "... and each plans with PyTorch $2 without an error"
done

# Each Jetson generation, cuda-platform-missing's fix: the CUDAs it can
# have that the release builds; those older than the release's oldest
# wheel CUDA where ptbuild has read no CMake minimum (2.8 to 2.12: plan
# takes them with torch-cuda-untested), said so; else the newest release
# that builds one; a JetPack to flash only where the module has one on
# that Ubuntu (Xavier stops at JetPack 5, Nano at JetPack 4).  FACTS
# TORCH CUDA -> the fix (glob); '!' before it: what the output never has
cp tests/fixtures/facts/xavier-jp517.json "$T_DIR/xav.json"
cp tests/fixtures/facts/nano-jp466.json "$T_DIR/nano.json"
while IFS='|' read -r facts torch cuda want; do
	run "$PTBUILD" plan --facts "$T_DIR/$facts.json" --torch "$torch" --cuda "$cuda"
	case $want in
	!*) unlike "$out" "*${want#!}*" "$facts, PyTorch $torch, --cuda $cuda: never ${want#!}" ;;
	*) like "$out" "*error \\[cuda-platform-missing\\]*fix: $want*" "$facts, PyTorch $torch, --cuda $cuda: $want" ;;
	esac
done <<'EOF'
xav|2.6|12.6|choose one it has (--cuda 11.8, 12.2); no JetPack for the Jetson Xavier is on Ubuntu 22.04 (its L4T releases: 32, 35)
xav|2.6|12.6|!flash a JetPack
xav|2.7|12.6|choose one it has (--cuda 11.8, 12.2); no JetPack for the Jetson Xavier
xav|2.8|12.6|choose one it has (--cuda 11.8, 12.2), but only if PyTorch 2.8's cmake/public/cuda.cmake accepts them (its 'PyTorch requires CUDA X.Y or above' line): PyTorch 2.8 ships no wheel older than CUDA 12.6, and ptbuild has read no CMake minimum of it; no JetPack
xav|2.8|12.6|!choose another --torch
xav|2.12|12.8|choose one it has (--cuda 11.8, 12.2), but only if PyTorch 2.12's cmake/public/cuda.cmake accepts them
xav|2.13|12.6|choose one it has (--cuda 12.2); no JetPack for the Jetson Xavier
xav|2.14|12.6|no CUDA ptbuild can install on this Jetson builds PyTorch 2.14: choose PyTorch 2.13, the newest release that builds one it has (--torch 2.13 --cuda 12.2); no JetPack for the Jetson Xavier
nano|2.4|12.4|ptbuild can install no CUDA on this Jetson that a PyTorch release it knows builds; no JetPack for the Jetson Nano is on Ubuntu 22.04 (its L4T releases: 32)
nano|2.6|11.8|ptbuild can install no CUDA on this Jetson that a PyTorch release it knows builds; no JetPack for the Jetson Nano is on Ubuntu 20.04 (its L4T releases: 32)
nano|2.6|11.8|!choose another --torch
jp514|2.14|12.6|no CUDA ptbuild can install on this Jetson builds PyTorch 2.14: choose PyTorch 2.13, the newest release that builds one it has (--torch 2.13 --cuda 12.2), or flash a JetPack whose Ubuntu release has CUDA 12.6
jp62|2.8|12.2|choose one it has (--cuda 12.6, 12.8, 12.9), or flash a JetPack whose Ubuntu release has CUDA 12.2; --cuda 12.4 only if PyTorch 2.8's cmake/public/cuda.cmake accepts it
jp62|2.6|12.2|choose one it has (--cuda 12.4, 12.6, 12.8, 12.9), or flash a JetPack whose Ubuntu release has CUDA 12.2
EOF
# ... and each CUDA or release offered plans without an error
for c in "xav 2.6 12.6" "xav 2.8 12.6" "jp62 2.8 12.2" "xav 2.14 12.6"; do
	set -- $c
	run "$PTBUILD" plan --facts "$T_DIR/$1.json" --torch "$2" --cuda "$3"
	pair=$(printf '%s\n' "$out" | sed -n 's/.*(--torch \([0-9.]*\) --cuda \([0-9.]*\)).*/\1:\2/p' | head -n 1)
	list=$(offered "$out"; printf '%s\n' "$out" | sed -n 's/.*; --cuda \([0-9., ]*\) only if.*/\1/p' | tr -d ,)
	[ -n "$pair" ] && list="$list $pair"
	bad=
	for v in $list; do
		t=$2
		case $v in *:*) t=${v%%:*}; v=${v#*:} ;; esac
		"$PTBUILD" plan --facts "$T_DIR/$1.json" --torch "$t" --cuda "$v" --json >"$T_DIR/o.json" 2>/dev/null
		e=$(field "$T_DIR/o.json" '" ".join(x["code"] for x in p["problems"] if x["severity"] == "error")' 2>/dev/null) || e="no plan"
		[ -z "$e" ] || bad="$bad $t/$v($e)"
	done
	[ -n "$list" ]; t_ok $? "$1, PyTorch $2, --cuda $3: the fix offers something ($(echo $list))"
	is "$bad" "" "... and each plans without an error"
done

# A CUDA NVIDIA's upgrade package may serve there but whose Jetson
# package ptbuild does not name, one NVIDIA's upgrade does not serve on
# that JetPack [tegra-upgrade], or a Jetson whose Ubuntu release is read
# from its L4T (no os-release) or is not Ubuntu: refused, or the .deb of
# that Ubuntu release.  FACTS TORCH CUDA -> exit, then the error or the
# .deb the text plan names
orin jp72 39.2.0 24.04
orin jp514d 35.6.0 11
python3 - "$T_DIR" <<'PY'
import json, sys
d = sys.argv[1]
for src, dst, os_ in (("jp514", "jp514n", None), ("jp62", "jp62n", None), ("jp514d", "jp514d", {"id": "debian", "version_id": "11"})):
    f = json.load(open(f"{d}/{src}.json"))
    if os_ is None:
        del f["host"]["os"]
    else:
        f["host"]["os"] = os_
    json.dump(f, open(f"{d}/{dst}.json", "w"))
PY
while IFS='|' read -r facts torch cuda want_rc want; do
	run "$PTBUILD" plan --facts "$T_DIR/$facts.json" --torch "$torch" --cuda "$cuda"
	is "$rc" "$want_rc" "$facts, PyTorch $torch, --cuda $cuda: exit $want_rc"
	like "$out" "*$want*" "... $want"
done <<'EOF'
jp514|2.5|12.1|1|error [[]cuda-platform-missing] ptbuild names no NVIDIA Jetson package of CUDA 12.1 for Ubuntu 20.04 (JetPack 5.1.4): ptbuild cannot say how to install CUDA 12.1 on this Jetson
jp514|2.5|12.0|1|error [[]cuda-platform-missing] ptbuild names no NVIDIA Jetson package of CUDA 12.0 for Ubuntu 20.04 (JetPack 5.1.4)
jp62|2.4|12.5|1|fix: choose one it has (--cuda 12.4, 12.6, 12.8, 12.9), or install CUDA 12.5 from NVIDIA's Jetson downloads and plan again
jp72|2.4|12.5|1|error [[]cuda-platform-missing] NVIDIA's CUDA upgrade for Jetson serves no CUDA 12.5 on JetPack 7.2: no CUDA 12.5 can be installed on this Jetson
jp514n|2.5|12.2|0|from NVIDIA's Jetson local repo cuda-tegra-repo-ubuntu2004-12-2-local_12.2.2-1_arm64.deb
jp62n|2.5|12.2|1|NVIDIA's Jetson packages of CUDA 12.2 are for Ubuntu 20.04, not this JetPack 6.2 Ubuntu 22.04
jp514d|2.5|12.2|1|NVIDIA's Jetson packages of CUDA are for Ubuntu, and this JetPack 5.1.4 Jetson runs debian 11
EOF

# JetPack 6.2 (Ubuntu 22.04): 12.8 from its 22.04 .deb; 12.2's is 20.04's
run "$PTBUILD" plan --facts "$T_DIR/jp62.json" --torch 2.9 --cuda 12.8
like "$out" "*from NVIDIA's Jetson local repo cuda-tegra-repo-ubuntu2204-12-8-local_12.8.1-1_arm64.deb*" \
	"JetPack 6.2, --cuda 12.8: the Ubuntu 22.04 .deb"
run "$PTBUILD" plan --facts "$T_DIR/jp62.json" --torch 2.5 --cuda 12.2
is "$rc" 1 "JetPack 6.2, --cuda 12.2: exit 1"
like "$out" "*error \\[cuda-platform-missing\\] NVIDIA's Jetson packages of CUDA 12.2 are for Ubuntu 20.04, not this JetPack 6.2 Ubuntu 22.04*" \
	"... the 12.2 .deb is Ubuntu 20.04's"
unlike "$out" '*12.2 (12.2.2) for linux-aarch64, from JetPack*' "... and the text does not say JetPack ships it"
# its own JetPack's CUDA needs no .deb
# (2.9's newest 12.x wheel is the Linux-only cu129 of 2.9.1 [pt-matrix])
run "$PTBUILD" plan --facts "$T_DIR/jp62.json" --torch 2.9
like "$out" "*  cuda           CUDA 12.9 (12.9.1) for linux-aarch64, from NVIDIA's Jetson local repo cuda-tegra-repo-ubuntu2204-12-9-local_12.9.1-1_arm64.deb*" \
	"JetPack 6.2 with PyTorch 2.9, no toolkit: 12.9 from its 22.04 .deb"
run "$PTBUILD" plan --facts "$T_DIR/jp62.json" --torch 2.9 --cuda 12.6
like "$out" "*  cuda           CUDA 12.6 (12.6.3) for linux-aarch64, from JetPack, in /usr/local/cuda-12.6*" \
	"... --cuda 12.6, JetPack 6.2's own: from JetPack"

# setup.sh of such a plan: NVIDIA's commands for the local repo (no
# checksum is published, so it names them and stops), not nvidia-jetpack
"$PTBUILD" plan --facts "$T_DIR/jp514.json" --torch 2.5 --cuda 12.2 --json >"$T_DIR/p.json" 2>/dev/null
is "$(field "$T_DIR/p.json" 'p["cuda"]["jetpack_repo"]')" \
	"https://developer.download.nvidia.com/compute/cuda/12.2.2/local_installers/cuda-tegra-repo-ubuntu2004-12-2-local_12.2.2-1_arm64.deb" \
	"the plan's cuda block holds the local repo's URL"
run "$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/gen" --format setup
is "$rc" 0 "generate setup.sh for it: exit 0"
run sh "$T_DIR/gen/setup.sh" --dry-run
like "$out$err" "*setup: wget https://developer.download.nvidia.com/compute/cuda/12.2.2/local_installers/cuda-tegra-repo-ubuntu2004-12-2-local_12.2.2-1_arm64.deb && sudo dpkg -i cuda-tegra-repo-ubuntu2004-12-2-local_12.2.2-1_arm64.deb && sudo cp /var/cuda-tegra-repo-ubuntu2004-12-2-local/cuda-*-keyring.gpg /usr/share/keyrings/ && sudo apt-get update && sudo apt-get install -y cuda-toolkit-12-2*" \
	"... which names NVIDIA's commands for the 20.04 local repo"
unlike "$out$err" '*nvidia-jetpack*' "... and does not send the user to nvidia-jetpack for it"
# fetch and generate's Jetson note say where that CUDA comes from: the
# local repo, not JetPack (JetPack 5.1.4 ships 11.4)
run "$PTBUILD" fetch --plan "$T_DIR/p.json" --offline --cache "$T_DIR/cache"
like "$err" "*the plan uses CUDA 12.2.2 from NVIDIA's Jetson local repo at /usr/local/cuda-12.2: no CUDA to fetch (setup.sh says how to install it)*" \
	"fetch of it: the CUDA is the local repo's, set up by setup.sh"
fetch_err=$err
run "$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/genall"
like "$err" "*the plan is for a Jetson (CUDA 12.2.2 from NVIDIA's Jetson local repo): the Dockerfile*" \
	"generate's note of it names the local repo"
unlike "$fetch_err$err" '*from JetPack*' "... and neither says JetPack ships it"
# A CUDA the JetPack does not ship and whose Jetson package ptbuild does
# not name (12.5 on JetPack 6.2) is refused: such a plan could not be
# carried out.  Forced through generate anyway, the plan marks it, and
# setup.sh, fetch and generate say it is not JetPack's rather than send
# the user to nvidia-jetpack, which installs 12.6
"$PTBUILD" plan --facts "$T_DIR/jp62.json" --torch 2.4 --cuda 12.5 --json >"$T_DIR/p.json" 2>/dev/null
is "$(field "$T_DIR/p.json" 'p["cuda"]["source"] + " " + str(p["cuda"].get("jetpack_ships")) + " " + str(p["cuda"].get("jetpack_repo"))')" \
	"jetpack False None" "JetPack 6.2, --cuda 12.5: the plan's cuda block says JetPack does not ship it, and names no repo"
run "$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/gen125"
[ "$rc" -ne 0 ] && [ ! -e "$T_DIR/gen125/setup.sh" ]
t_ok $? "... generate refuses the plan (exit $rc) and writes no setup.sh"
run "$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/gen125" --force
like "$err" "*the plan is for a Jetson (CUDA 12.5.1 from NVIDIA's Jetson packages)*" "... forced, generate's note says so"
run sh "$T_DIR/gen125/setup.sh" --dry-run
like "$out$err" "*setup: CUDA: /usr/local/cuda-12.5 is no CUDA of this JetPack, and ptbuild names no NVIDIA Jetson package of CUDA 12.5 for its Ubuntu release*" \
	"... setup.sh says the CUDA is not JetPack's"
unlike "$out$err" '*nvidia-jetpack*' "... and does not send the user to nvidia-jetpack for it"
run "$PTBUILD" fetch --plan "$T_DIR/p.json" --offline --cache "$T_DIR/cache"
like "$rc:$err" "1:*the plan '$T_DIR/p.json' has 1 error (cuda-platform-missing): nothing fetched*" \
	"... fetch refuses the plan as generate does"
run "$PTBUILD" fetch --plan "$T_DIR/p.json" --offline --cache "$T_DIR/cache" --force
like "$err" "*the plan uses CUDA 12.5.1 from NVIDIA's Jetson packages at /usr/local/cuda-12.5: no CUDA to fetch*" \
	"... and with --force says where the CUDA comes from"
# JetPack 6.2's own 12.6: nvidia-jetpack, no local repo
"$PTBUILD" plan --facts "$T_DIR/jp62.json" --torch 2.9 --cuda 12.6 --json >"$T_DIR/p.json" 2>/dev/null
run "$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/gen62" --format setup
run sh "$T_DIR/gen62/setup.sh" --dry-run
like "$out" "*setup: CUDA: comes with JetPack at /usr/local/cuda-12.6 (sudo apt-get install nvidia-jetpack)*" \
	"JetPack 6.2's own CUDA 12.6: setup.sh sends the user to nvidia-jetpack"

# JetPack 7.2 (L4T 39) with CUDA 13.4 on the SBSA toolkit: setup.sh names
# the CUDA Compatibility Package (Orin), as the upgrade package to install
orin jp72 39.2.0 24.04
"$PTBUILD" plan --facts "$T_DIR/jp72.json" --cuda 13.4 --json >"$T_DIR/p.json" 2>/dev/null
run "$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/gen72" --format setup
run sh "$T_DIR/gen72/setup.sh" --dry-run
like "$out$err" "*setup: CUDA: CUDA 13.4 runs on this JetPack's driver only with NVIDIA's upgrade package, which is not in /usr/local/cuda-13.4/compat_orin: sudo apt-get install -y cuda-compat-orin-13-4*" \
	"JetPack 7.2 with CUDA 13.4: setup.sh names the Orin compatibility package"
"$PTBUILD" plan --facts "$T_DIR/jp72.json" --cuda 13.2 --json >"$T_DIR/p.json" 2>/dev/null
run "$PTBUILD" generate --plan "$T_DIR/p.json" --out "$T_DIR/gen72b" --format setup
run sh "$T_DIR/gen72b/setup.sh" --dry-run
unlike "$out" '*Compatibility Package*' "... with CUDA 13.2, none"

done_testing
