# tests/realinputs/lib.sh - the real-inputs tier: packages others built
# (Debian trixie's CUDA 12.4 toolkit, its PyTorch 2.6 CUDA build) fetched
# with apt into a cache outside the checkout and reused between runs.
# Source after tests/lib.sh; then `real_debs PKG...` sets REAL_ROOT (the
# packages unpacked, read-only to tests) or skips the whole test with the
# reason.  PTB_REAL=0 turns the tier off; PTB_REAL_CACHE moves the cache
# (default ~/.cache/ptbuild-real).  REAL_ARCH=arm64 (set by the test)
# fetches that architecture's packages, into a cache of their own
# (<cache>-arm64): a sysroot of another machine.
real_debs() {
	[ "${PTB_REAL:-1}" = 0 ] && skip_all "PTB_REAL=0: the real-inputs tier is off"
	REAL_CACHE=${PTB_REAL_CACHE:-${HOME:-/nonexistent}/.cache/ptbuild-real}${REAL_ARCH:+-$REAL_ARCH}
	env ${REAL_ARCH:+PTB_APT_ARCH=$REAL_ARCH} \
		sh "$top_srcdir/tests/realinputs/apt-get-debs.sh" trixie "$REAL_CACHE" "$@" \
		2>"$T_DIR/apt.err"
	case $? in
	0) ;;
	77) skip_all "Debian trixie packages not available: $(tail -n 1 "$T_DIR/apt.err")" ;;
	*) t_ok 1 "the Debian trixie packages $* can be unpacked"
	   sed 's/^/# /' "$T_DIR/apt.err"
	   done_testing
	   exit 1 ;;
	esac
	REAL_ROOT=$REAL_CACHE/root
}

# in_overlay CMD...: run CMD with REAL_ROOT's /usr and /etc laid over this
# host's in a private mount namespace (the packages "installed for real",
# seen by no other process: Debian's nvcc reads its nvcc.profile through
# /usr/lib/nvidia-cuda-toolkit/bin/nvcc.profile -> /etc/nvcc.profile);
# returns 77 when namespaces or overlayfs are not allowed.
in_overlay() {
	unshare -r -m true 2>/dev/null || return 77
	unshare -r -m sh -c 'for d in usr etc; do
			[ -d "$1/$d" ] || continue
			mount -t overlay overlay -o "lowerdir=$1/$d:/$d" "/$d" || exit 77
		done
		shift; exec "$@"' sh "$REAL_ROOT" "$@"
}
