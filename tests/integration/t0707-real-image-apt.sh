#!/bin/sh
# t0707-real-image-apt.sh - the packages a generated Dockerfile installs,
# resolved by apt against the real Debian archive of its base image, for
# amd64 and arm64: the whole `apt-get install` list of the Dockerfile,
# simulated (apt-get -s) with a private sources list and state under a
# cache outside the checkout.  Where the image switches compilers, the
# g++-N it names must be one the suite has, at the full version
# data/image.lua records; where it keeps the base's own, build-essential
# must bring the g++ the data records.  Skips with the reason when apt or
# Debian's archive cannot be had; PTB_REAL=0 turns it off.
. "$top_srcdir/tests/lib.sh"
[ "${PTB_REAL:-1}" = 0 ] && skip_all "PTB_REAL=0: the real-inputs tier is off"
command -v apt-get >/dev/null 2>&1 || skip_all "no apt-get on this machine"
cache=${PTB_REAL_CACHE:-${HOME:-/nonexistent}/.cache/ptbuild-real}-image-apt
mirror=${PTB_DEBIAN_MIRROR:-http://deb.debian.org/debian}

aptopts() { # SUITE ARCH: apt's options for a private state of SUITE for ARCH
	c=$cache/$1-$2
	echo "-o Dir::Etc::SourceList=$c/sources.list -o Dir::Etc::SourceParts=/nonexistent
 -o Dir::State::Lists=$c/lists -o Dir::State::status=$c/status -o Dir::Cache=$c
 -o Dir::Cache::archives=$c/archives -o Debug::NoLocking=1 -o APT::Architecture=$2
 -o APT::Architectures::=$2 -o Acquire::Languages=none -o Acquire::Retries=2
 -o Acquire::http::Timeout=30"
}
lists() { # SUITE ARCH: the suite's indexes (with -updates and -security), once
	c=$cache/$1-$2
	[ -f "$c/stamp" ] && return 0
	mkdir -p "$c/lists/partial" "$c/archives/partial" || return 1
	printf 'deb [arch=%s trusted=yes] %s %s main\ndeb [arch=%s trusted=yes] %s %s-updates main\ndeb [arch=%s trusted=yes] %s-security %s-security main\n' \
		"$2" "$mirror" "$1" "$2" "$mirror" "$1" "$2" "${mirror%/debian}/debian" "$1" >"$c/sources.list"
	: >"$c/status"
	# shellcheck disable=SC2046
	apt-get $(aptopts "$1" "$2") -q update >"$c/update.log" 2>&1 || return 1
	grep -q '^E:\|^W: Failed' "$c/update.log" && return 1
	touch "$c/stamp"
}

# base suite torch cuda: the row, and what the image builds with [debian-gcc]
while read -r base suite torch cuda want version; do
	run "$PTBUILD" generate --profile dgx-h100 --torch "$torch" --cuda "$cuda" --base-image "$base" \
		--out "$T_DIR/$suite-$cuda" --format dockerfile
	pkgs=$(sed -n '/apt-get install/,/^$/p' "$T_DIR/$suite-$cuda/Dockerfile" | sed -n 's/^ *\([a-z0-9][a-z0-9.+-]*\) *\\\{0,1\}$/\1/p' | tr '\n' ' ')
	for arch in amd64 arm64; do
		if ! lists "$suite" "$arch"; then
			skip "$base $arch" "Debian $suite ($arch) indexes not reachable at $mirror"
			continue
		fi
		# shellcheck disable=SC2046,SC2086
		apt-get $(aptopts "$suite" "$arch") -s install --no-install-recommends $pkgs >"$T_DIR/sim" 2>&1
		st=$?
		got=$(sed -n "s/^Inst \($want\) (\([^ -]*\)-.*/\1 \2/p" "$T_DIR/sim" | head -n 1)
		is "$st:$got" "0:$want $version" "$base, CUDA $cuda, $arch: apt resolves the Dockerfile's packages, $want $version among them"
	done
done <<'ROWS'
debian:bookworm bookworm 2.5 11.8 g++-11 11.3.0
debian:bookworm bookworm 2.5 12.4 g++-12 12.2.0
debian:trixie trixie 2.5 12.1 g++-12 12.4.0
debian:trixie trixie 2.5 12.4 g++-13 13.3.0
debian:trixie trixie 2.9 12.8 g++-14 14.2.0
ROWS

done_testing
