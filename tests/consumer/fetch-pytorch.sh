#!/bin/sh
# fetch-pytorch.sh CACHE - PyTorch's own build logic, for the consumer
# tests: Debian unstable's libtorch-dev (Caffe2/public/cuda.cmake,
# utils.cmake, Modules_CUDA_fix: FindCUDA, select_compute_arch.cmake,
# FindCUDNN) and python3-torch (torch/utils/cpp_extension.py), fetched
# with apt through a private sources list (the system's apt setup is
# left alone) and unpacked with dpkg-deb into CACHE, once.  Prints the
# unpacked tree on success; exits 77 with the reason on stderr when the
# packages cannot be had.  PTB_DEBIAN_MIRROR overrides the mirror (else
# the one this machine's apt uses for Debian, else deb.debian.org).
set -u
cache=${1:?usage: fetch-pytorch.sh CACHE}
pkgs="libtorch-dev python3-torch"
root=$cache/root
if [ -f "$root/.complete" ]; then
	echo "$root"
	exit 0
fi
for tool in apt-get dpkg-deb; do
	command -v "$tool" >/dev/null 2>&1 || { echo "no $tool on this machine" >&2; exit 77; }
done
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || { echo "no Debian archive keyring ($keyring)" >&2; exit 77; }
mirror=${PTB_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
	mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		sed -n 's|^URIs: *\(https\{0,1\}://[^ ]*/debian\)/*$|\1|p' | head -1)
fi
mirror=${mirror:-http://deb.debian.org/debian}
mkdir -p "$cache" || exit 77
# One fetcher at a time: t0510 and t0511 start together under make -j on
# a fresh machine, and the second one's rm -rf of the tree used to pull it
# from under the first.  The waiter then finds the first one's tree.
if command -v flock >/dev/null 2>&1; then
	exec 9>"$cache/.lock" && flock 9 || { echo "cannot lock $cache/.lock" >&2; exit 77; }
	if [ -f "$root/.complete" ]; then
		echo "$root"
		exit 0
	fi
fi
work=$(mktemp -d "$cache/fetch.XXXXXX") || exit 77
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs" "$work/root"
echo "deb [signed-by=$keyring] $mirror sid main" >"$work/sources.list"
set -- -o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=$work/none" \
	-o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" \
	-o Acquire::Retries=0 -o Acquire::http::Timeout=20 -o APT::Sandbox::User=root
# apt-get update exits 0 when it fetched nothing: look for the index too
if ! apt-get "$@" -q update >"$work/log" 2>&1 || ! ls "$work"/lists/*_Packages* >/dev/null 2>&1; then
	echo "apt-get update from $mirror (sid) failed: $(grep -m1 '^[EW]:' "$work/log" || tail -1 "$work/log")" >&2
	exit 77
fi
if ! (cd "$work/debs" && apt-get "$@" -q download $pkgs) >"$work/log" 2>&1; then
	echo "apt-get download $pkgs from $mirror failed: $(tail -1 "$work/log")" >&2
	exit 77
fi
for deb in "$work"/debs/*.deb; do
	dpkg-deb -x "$deb" "$work/root" || { echo "dpkg-deb -x $deb failed" >&2; exit 77; }
	dpkg-deb -f "$deb" Package Version | tr '\n' ' ' >>"$work/root/.complete"
	echo >>"$work/root/.complete"
done
rm -rf "$root"
mv "$work/root" "$root" || exit 77
echo "$root"
