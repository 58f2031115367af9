#!/bin/sh
# t0116-detect-dpkg-compilers.sh - Debian and Ubuntu name gcc by its major
# (gcc-13), so the name alone says "13"; detect reads the full version
# from dpkg's status file (no process, so under --sysroot too), and a GH200
# on Ubuntu 24.04 with gcc 13.2.0 meets the full-version rule of CUDA 12.4
# as an error, not as "not known to work".
. "$top_srcdir/tests/lib.sh"

# versions FACTS: "name=version ..." of the facts' compilers
versions() {
	python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))
print(" ".join("%s=%s" % (c["name"], c["version"]) for c in f["compilers"]))' "$1" 2>&1
}

S="$T_DIR/noble"
mkdir -p "$S/usr/bin" "$S/usr/lib/gcc/aarch64-linux-gnu/13" "$S/var/lib/dpkg" "$S/etc"
for n in gcc-13 g++-13 clang-18; do printf '#!/bin/sh\n' >"$S/usr/bin/$n"; chmod +x "$S/usr/bin/$n"; done
ln -s gcc-13 "$S/usr/bin/gcc"
ln -s g++-13 "$S/usr/bin/g++"
printf 'ID=ubuntu\nVERSION_ID="24.04"\n' >"$S/etc/os-release"
# Ubuntu 24.04's packages (versions as noble ships them); a gcc-12 removed
# but for its configuration, which is not a gcc installed
cat >"$S/var/lib/dpkg/status" <<'DPKG'
Package: gcc-12
Status: deinstall ok config-files
Version: 12.3.0-17ubuntu1

Package: gcc-13
Status: install ok installed
Priority: optional
Version: 13.2.0-23ubuntu4
Description: GNU C compiler
 This is the GNU C compiler.

Package: g++-13
Status: install ok installed
Version: 13.2.0-23ubuntu4

Package: clang-18
Status: install ok installed
Version: 1:18.1.3-1ubuntu1

Package: gcc-13-base
Status: install ok installed
Version: 13.2.0-23ubuntu4
DPKG
printf 'Package: zlib1g\nStatus: install ok installed\nVersion: 1:1.3.dfsg-3.1ubuntu2' >>"$S/var/lib/dpkg/status"

run env -i PATH=/usr/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$S" --json
is "$rc" 0 "detect --sysroot on an Ubuntu 24.04 tree exits 0"
printf '%s\n' "$out" >"$T_DIR/facts.json"
vers=$(versions "$T_DIR/facts.json")
like "$vers" "*gcc=13.2.0*" "gcc (gcc-13) is 13.2.0, dpkg's version, not 13"
like "$vers" "*g++-13=13.2.0*" "g++-13 is 13.2.0"
like "$vers" "*clang-18=18.1.3*" "clang-18 is 18.1.3 (dpkg's epoch dropped)"

# the facts of a GH200 with that compiler, planned with PyTorch 2.5's CUDA 12.4
python3 - "$T_DIR/facts.json" "$top_srcdir/recipes/profiles/gh200.json" "$T_DIR/gh200.json" <<'PY'
import json, sys
mine, gh = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
gh["compilers"] = mine["compilers"]
json.dump(gh, open(sys.argv[3], "w"), indent=1)
PY
run "$PTBUILD" plan --facts "$T_DIR/gh200.json" --torch 2.5 --cuda 12.4
like "$out" "*gcc 13.2.0 on aarch64 breaks nvcc up to 12.4*" "a GH200 with gcc 13.2.0 and CUDA 12.4: the plan names the conflict"
unlike "$out" "*not known to work*" "... as a certainty, not 'not known to work'"

# 'apt-mark hold gcc-13' (a compiler kept at the version CUDA takes) and
# a package of a foreign architecture (Multi-Arch): dpkg's status says
# "hold ok installed", which is as installed as "install ok installed";
# "reinstreq" (an unpack that failed) and "half-installed" are not
cat >"$S/var/lib/dpkg/status" <<'DPKG'
Package: gcc-13
Status: hold ok installed
Priority: optional
Architecture: arm64
Multi-Arch: allowed
Version: 13.3.0-6ubuntu2~24.04
Description: GNU C compiler
 Package: gcc-13
 Version: 99.0.0

Package: g++-13
Status: hold ok installed
Architecture: arm64
Version: 13.3.0-6ubuntu2~24.04

Package: clang-18
Status: install reinstreq half-installed
Version: 1:18.1.8-1
DPKG
run env -i PATH=/usr/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$S" --json
printf '%s\n' "$out" >"$T_DIR/facts-hold.json"
vers=$(versions "$T_DIR/facts-hold.json")
like "$vers" "*gcc=13.3.0 *" "a held gcc-13 is installed: 13.3.0 (tilde and Multi-Arch fields aside)"
like "$vers" "*g++-13=13.3.0*" "a held g++-13 is 13.3.0"
like "$vers" "*clang-18=18 *" "clang-18 half-installed (reinstreq) is not read: only its name's 18"

# a gcc-12 built into /usr/local/bin is not Debian's gcc-12 package (no
# package installs there): dpkg's version is not its own; a link there to
# /usr/bin/gcc-13 is the package's file
mkdir -p "$S/usr/local/bin"
printf '#!/bin/sh\n' >"$S/usr/local/bin/gcc-12"
chmod +x "$S/usr/local/bin/gcc-12"
ln -s /usr/bin/gcc-13 "$S/usr/local/bin/gcc-13"
printf 'Package: gcc-12\nStatus: install ok installed\nVersion: 12.3.0-17ubuntu1\n\nPackage: gcc-13\nStatus: install ok installed\nVersion: 13.2.0-23ubuntu4\n' >"$S/var/lib/dpkg/status"
run env -i PATH=/usr/local/bin:/usr/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$S" --json
printf '%s\n' "$out" >"$T_DIR/facts-local.json"
vers=$(python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))
print(" ".join("%s=%s" % (c["path"], c["version"]) for c in f["compilers"]))' "$T_DIR/facts-local.json" 2>&1)
like "$vers" "*/usr/local/bin/gcc-12=12 *" "a gcc-12 in /usr/local/bin is 12, not the gcc-12 package's 12.3.0"
like "$vers" "*/usr/local/bin/gcc-13=13.2.0 *" "a link in /usr/local/bin to /usr/bin/gcc-13 is the package's 13.2.0"
rm -r "$S/usr/local"

# no dpkg status (RHEL, a minimal image): the name's major stays
rm "$S/var/lib/dpkg/status"
run env -i PATH=/usr/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$S" --json
like "$out" '*"name": "gcc-13",*"version": "13"*' "without dpkg's status: gcc-13 is 13, as its name says"
done_testing
