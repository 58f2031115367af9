#!/bin/sh
# setup.sh - install what ptbuild needs to build and test on a fresh Debian
# or Ubuntu machine, then autoreconf, configure and make.
#
#   ./setup.sh            dependencies + build (idempotent: quick when done)
#   ./setup.sh --deps     dependencies only
#   ./setup.sh --list     print the packages it would install
#
# As root it installs missing packages with apt-get; otherwise it prints the
# exact command to run.  CONFIGURE_FLAGS passes options to ./configure.
set -eu
cd "$(dirname "$0")"

# Build: compiler, autotools, the four libraries.  Test: the real parts the
# suite drives (nginx, openssl and python3 for fetch, shellcheck for
# generated scripts, man to render the man page, zsh and fish to parse the
# completion scripts, lua5.4 for its luac (a bytecode recipe must be
# refused), xz for archives, strace to see that detect starts
# no process, valgrind/clang/gcovr for hardening,
# docker.io and debootstrap to build the generated Dockerfile for real,
# sccache and redis-server for the shared compile cache test, ansible-core
# and yamllint for the fleet-gathering recipes).
PKGS="build-essential autoconf automake pkg-config
liblua5.4-dev libcurl4-openssl-dev libarchive-dev libcjson-dev libssl-dev
nginx-light openssl shellcheck xz-utils man-db ca-certificates curl
valgrind gcovr clang libclang-rt-14-dev time
dash zsh fish direnv cmake python3 python3-yaml strace lua5.4
docker.io debootstrap sccache redis-server ansible-core yamllint"

missing() {
	for p in $PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || printf '%s ' "$p"
	done
}

case "${1:-}" in
--list) echo $PKGS; exit 0 ;;
esac

if command -v dpkg-query >/dev/null 2>&1; then
	need=$(missing)
	if [ -n "$need" ]; then
		if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
			echo "setup: installing: $need"
			export DEBIAN_FRONTEND=noninteractive
			apt-get update -q >/dev/null
			# shellcheck disable=SC2086 # one word per package
			apt-get install -y -q --no-install-recommends $need >/dev/null
		else
			echo "setup: missing packages: $need" >&2
			echo "setup: run as root: apt-get update && apt-get install -y $need" >&2
			exit 1
		fi
	fi
else
	echo "setup: not a Debian/Ubuntu system; install the equivalents of: $(echo $PKGS)" >&2
fi
# The generate tests read the Dockerfile and the bake file with real parsers
# from npm, and the fleet test checks the Kubernetes manifest against the
# Kubernetes API's schemas as kubernetes-models (npm, ESM since 5) compiles
# them; without the npm registry those tests skip and say why.
if command -v npm >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
	for m in dockerfile-utils @cdktf/hcl2json kubernetes-models@5; do
		[ -d "$(npm root -g)/${m%@[0-9]*}" ] && continue
		echo "setup: npm install -g $m"
		npm install -g --no-fund --no-audit "$m" >/dev/null 2>&1 ||
			echo "setup: could not install $m from npm; its tests will skip" >&2
	done
fi
[ "${1:-}" = "--deps" ] && exit 0

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
	autoreconf -fi
fi
if [ ! -f Makefile ] || [ configure -nt config.status ]; then
	# shellcheck disable=SC2086 # flags are words
	./configure ${CONFIGURE_FLAGS:-}
fi
make -j"$(nproc 2>/dev/null || echo 2)"
