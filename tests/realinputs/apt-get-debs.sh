#!/bin/sh
# apt-get-debs.sh SUITE CACHE PKG... - fetch Debian packages of SUITE
# (contrib and non-free included) with apt through a private sources list
# and state under CACHE, and unpack each into CACHE/root with dpkg-deb.
# The system's apt configuration, lists and caches are left alone; no root
# needed.  A package already unpacked (CACHE/stamps/PKG) is not fetched
# again.  Prints nothing on success but progress on stderr.
#   exit 0   every package is unpacked under CACHE/root
#   exit 77  apt, dpkg-deb or the mirror cannot be had (reason on stderr)
#   exit 1   anything else went wrong (message on stderr)
# Environment: PTB_DEBIAN_MIRROR (default: the URI of the first Debian
# source this machine's apt uses, else http://deb.debian.org/debian),
# PTB_APT_ARCH (default: dpkg --print-architecture).
set -u
[ $# -ge 3 ] || { echo "usage: $0 SUITE CACHE PKG..." >&2; exit 2; }
suite=$1 cache=$2
shift 2
skip() { echo "apt-get-debs: $*" >&2; exit 77; }
die() { echo "apt-get-debs: $*" >&2; exit 1; }

command -v apt-get >/dev/null 2>&1 || skip "no apt-get on this machine"
command -v dpkg-deb >/dev/null 2>&1 || skip "no dpkg-deb on this machine"

need=
for p in "$@"; do
	[ -f "$cache/stamps/$p" ] || need="$need $p"
done
[ -z "$need" ] && [ -f "$cache/stamps/.links" ] && exit 0

mkdir -p "$cache" || die "cannot create '$cache'"
# Tests run in parallel (make check -j): one fetch at a time per cache;
# the others wait, then find their packages unpacked.
if [ -z "${PTB_APT_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
	PTB_APT_LOCKED=1 exec flock "$cache/lock" "$0" "$suite" "$cache" "$@"
fi
need=
for p in "$@"; do
	[ -f "$cache/stamps/$p" ] || need="$need $p"
done
[ -z "$need" ] && [ -f "$cache/stamps/.links" ] && exit 0
links() {
	# what dpkg's ldconfig trigger does on install: the soname links
	# (libtorch.so.2.6 -> libtorch.so.2.6.0) that packages do not ship
	ldc=$(command -v ldconfig || echo /sbin/ldconfig)
	for d in "$cache"/root/usr/lib/*-linux-gnu; do
		[ -d "$d" ] && { "$ldc" -n "$d" || die "ldconfig -n '$d' failed"; }
	done
	touch "$cache/stamps/.links"
}
[ -z "$need" ] && { links; exit 0; }

mirror=${PTB_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
	# deb822 "URIs:" or one-line "deb URI": the first one naming /debian.
	mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list \
		/etc/apt/sources.list.d/*.list 2>/dev/null |
		sed -n -e 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)\/*$/\1/p' \
			-e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]*\)\{0,1\}\([^[:space:]]*\/debian\)\/*[[:space:]].*/\2/p' |
		head -n 1)
	[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
fi
arch=${PTB_APT_ARCH:-$(dpkg --print-architecture 2>/dev/null || echo amd64)}

mkdir -p "$cache/apt/lists/partial" "$cache/apt/archives/partial" \
	"$cache/debs" "$cache/root" "$cache/stamps" || die "cannot create '$cache'"
src="$cache/apt/sources.list"
printf 'deb [arch=%s trusted=yes] %s %s main contrib non-free\n' \
	"$arch" "$mirror" "$suite" >"$src.tmp" && mv "$src.tmp" "$src" ||
	die "cannot write '$src'"
: >"$cache/apt/status"

# Everything apt reads or writes is under $cache/apt.  trusted=yes only
# because the keyring of a newer suite may be missing on an older host; the
# packages are test inputs, run only inside temporary directories.
aptopts="-o Dir::Etc::SourceList=$src -o Dir::Etc::SourceParts=/nonexistent
 -o Dir::State::Lists=$cache/apt/lists -o Dir::State::status=$cache/apt/status
 -o Dir::Cache=$cache/apt -o Dir::Cache::archives=$cache/apt/archives
 -o Debug::NoLocking=1 -o APT::Architecture=$arch
 -o APT::Architectures::=$arch -o Acquire::Languages=none
 -o Acquire::Retries=2 -o Acquire::http::Timeout=30"

lists_age=100000
stamp="$cache/apt/lists.stamp"
if [ -f "$stamp" ]; then
	lists_age=$(( $(date +%s) - $(stat -c %Y "$stamp") ))
fi
if [ "$lists_age" -gt 86400 ]; then
	# shellcheck disable=SC2086
	if ! apt-get $aptopts -q update >"$cache/apt/update.log" 2>&1; then
		skip "cannot reach '$mirror' for $suite (see $cache/apt/update.log)"
	fi
	grep -q -E '^(Err|W: Failed)' "$cache/apt/update.log" &&
		skip "cannot fetch the $suite lists from '$mirror' (see $cache/apt/update.log)"
	touch "$stamp"
fi

for p in $need; do
	# shellcheck disable=SC2086
	(cd "$cache/debs" && apt-get $aptopts -q download "$p") \
		>"$cache/apt/download-$p.log" 2>&1 ||
		skip "cannot download '$p' from $suite (see $cache/apt/download-$p.log)"
	deb=$(ls -t "$cache/debs/${p}_"*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || die "apt-get download '$p' left no .deb in '$cache/debs'"
	dpkg-deb -x "$deb" "$cache/root" || { rm -f "$deb"; die "cannot unpack '$deb'"; }
	# The .deb is no longer needed once unpacked; keep the cache to one copy.
	rm -f "$deb"
	touch "$cache/stamps/$p"
done
links
exit 0
