#!/bin/sh
# t0514-consumer-cache.sh - the scripts that fill the consumer and Docker
# caches once (tests/consumer/fetch-pytorch.sh, tests/docker/make-base.sh)
# take turns: t0510 and t0511 start together under make -j on a fresh
# machine, and the second fetcher's rm -rf of the unpacked tree pulled it
# from under the first (5 of t0510's checks failed that way).  Here the
# test holds the cache's lock, starts the script, finishes the "first"
# fetch itself while the script waits, and lets go: the script must have
# waited and must then use that tree without fetching (its mirror is a
# closed port on loopback, so a fetch would fail).
. "$top_srcdir/tests/lib.sh"

command -v flock >/dev/null 2>&1 || skip_all "no flock (util-linux) on this machine"

# waits SCRIPT CACHE MAKE-DONE WANT ARGS...: the lock is held while SCRIPT
# starts; MAKE-DONE (a shell command) then makes the cache complete, the
# lock is let go, and SCRIPT's output must be WANT
waits() {
	_s=$1 _c=$2 _done=$3 _want=$4
	shift 4
	mkdir -p "$_c"
	exec 8>"$_c/.lock"
	flock 8
	PTB_DEBIAN_MIRROR=http://127.0.0.1:9/debian sh "$_s" "$_c" "$@" >"$_c.out" 2>"$_c.err" &
	_pid=$!
	sleep 1
	kill -0 "$_pid" 2>/dev/null
	t_ok $? "$(basename "$_s"): waits while another holder has the cache's lock"
	sh -c "$_done"
	flock -u 8
	exec 8>&-
	wait "$_pid"
	_rc=$?
	is "$_rc $(cat "$_c.out")" "0 $_want" "$(basename "$_s"): then takes the other's result, fetching nothing"
	[ "$_rc" -eq 0 ] || sed 's/^/# /' "$_c.err"
}

c=$T_DIR/consumer
waits "$top_srcdir/tests/consumer/fetch-pytorch.sh" "$c" \
	"mkdir -p '$c/root' && echo 'libtorch-dev 2.14.1' >'$c/root/.complete'" "$c/root"

d=$T_DIR/docker
missing=
for tool in debootstrap dpkg-scanpackages chroot tar; do
	command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	skip "make-base.sh" "no$missing on this machine (the script stops before its lock)"
elif [ "$(id -u)" -ne 0 ]; then
	skip "make-base.sh" "not root (the script stops before its lock: debootstrap needs root)"
else
	key=$(printf '%s\n' curl | sha256sum | cut -c1-16)
	waits "$top_srcdir/tests/docker/make-base.sh" "$d" \
		"mkdir -p '$d/debs-$key' && : >'$d/debs-$key/Packages' && : >'$d/bookworm-minbase.tar'" \
		"$d/debs-$key" curl
fi

done_testing
