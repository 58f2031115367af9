#!/bin/sh
# make-base.sh CACHE PKG... - what the Docker build test needs from Debian,
# made once into CACHE (outside the checkout) and reused:
#   CACHE/SUITE-minbase.tar      a Debian minbase root made with
#                                debootstrap, for `docker import` (no
#                                registry is needed for the base image)
#   CACHE/debs-KEY/              the .deb files that root lacks for PKG...
#                                (what the Dockerfile's apt-get installs),
#                                with a Packages index: a flat apt
#                                repository the test serves on loopback
# KEY is the sha256 of the sorted package list.  Prints the debs directory
# on success; exits 77 with the reason on stderr when Debian's archive
# cannot be reached or the tools are missing.  PTB_DEBIAN_MIRROR overrides
# the mirror (default http://deb.debian.org/debian), PTB_DOCKER_SUITE the
# Debian release (default bookworm; another one's debs are kept apart).
set -u
cache=${1:?usage: make-base.sh CACHE PKG...}
shift
mirror=${PTB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=${PTB_DOCKER_SUITE:-bookworm}
for tool in debootstrap dpkg-scanpackages chroot tar; do
	command -v "$tool" >/dev/null 2>&1 || { echo "no $tool on this machine" >&2; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "debootstrap needs root" >&2; exit 77; }
mkdir -p "$cache" || exit 77
key=$(printf '%s\n' "$@" | sort -u | sha256sum | cut -c1-16)
[ "$suite" = bookworm ] || key=$suite-$key
debs=$cache/debs-$key
base=$cache/$suite-minbase.tar
if [ -f "$base" ] && [ -f "$debs/Packages" ]; then
	echo "$debs"
	exit 0
fi
# One maker at a time (two suites on one machine share the cache); the
# waiter then finds the first one's result.
if command -v flock >/dev/null 2>&1; then
	exec 9>"$cache/.lock" && flock 9 || { echo "cannot lock $cache/.lock" >&2; exit 77; }
	if [ -f "$base" ] && [ -f "$debs/Packages" ]; then
		echo "$debs"
		exit 0
	fi
fi
work=$(mktemp -d "$cache/make.XXXXXX") || exit 77
trap 'rm -rf "$work"' EXIT
root=$work/root
if ! debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$work/log" 2>&1; then
	echo "debootstrap $suite from $mirror failed: $(grep -m1 '^E:' "$work/log" || tail -n 1 "$work/log")" >&2
	exit 77
fi
printf 'deb %s %s main\n' "$mirror" "$suite" >"$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
# The closure of PKG... that minbase lacks, downloaded by the root's own
# apt (the same resolution the build's apt-get will make).
if ! chroot "$root" apt-get -q update >"$work/log" 2>&1 ||
	! chroot "$root" apt-get -q install -y --download-only --no-install-recommends "$@" >>"$work/log" 2>&1; then
	echo "apt-get --download-only $* in the $suite root failed: $(grep -m1 '^E:' "$work/log" || tail -n 1 "$work/log")" >&2
	exit 77
fi
mkdir -p "$work/debs"
mv "$root"/var/cache/apt/archives/*.deb "$work/debs/" || exit 77
(cd "$work/debs" && dpkg-scanpackages -m . /dev/null >Packages 2>/dev/null) || exit 77
# The image's apt starts empty: no lists, no resolv.conf from this host;
# the test's sources.list points it at the loopback repository.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
: >"$root/etc/resolv.conf"
: >"$root/etc/apt/sources.list"
if [ ! -f "$base" ]; then
	tar -C "$root" --numeric-owner -cf "$work/base.tar" . || exit 77
	mv "$work/base.tar" "$base" || exit 77
fi
rm -rf "$debs"
mv "$work/debs" "$debs" || exit 77
echo "$debs"
