# tests/gpulist.sh - shared by the tests that make this machine's real
# nvcc look assumed or unknown to ptbuild (t0013 validate, t0014 detect,
# plan, doctor, arch).  Sourced after tests/lib.sh.
#
# gpulist_nvcc: finds the nvcc (NVCC, PATH, /usr/local/cuda) or skips
# the whole test; sets nvcc, home (its toolkit root), rel (X.Y), codes
# (its --list-gpu-code), new (the highest plain sm_XY it lists, as X.Y),
# old (the first of 3.5 5.0 6.0 7.0 it does not list), sm_new, sm_old.
gpulist_nvcc() {
	nvcc=${NVCC:-}
	[ -n "$nvcc" ] && command -v "$nvcc" >/dev/null 2>&1 || nvcc=$(command -v nvcc 2>/dev/null)
	[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
	[ -n "$nvcc" ] || skip_all "no nvcc on this machine (set NVCC or put nvcc on PATH)"
	nvcc=$(command -v "$nvcc")
	home=$(nvcc_toolkit "$nvcc") || skip_all "$nvcc names no toolkit root (nvcc --dryrun printed no TOP=)"
	rel=$("$nvcc" --version | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
	[ -n "$rel" ] || skip_all "cannot read the release from '$nvcc --version'"
	codes=$("$nvcc" --list-gpu-code 2>/dev/null | tr '\n' ' ')
	[ -n "$codes" ] || skip_all "'$nvcc --list-gpu-code' printed nothing (an nvcc older than CUDA 11?)"
	echo "# nvcc $rel at $nvcc, toolkit $home"
	new=$(printf '%s\n' $codes | sed -n 's/^sm_\([0-9]*\)\([0-9]\)$/\1.\2/p' | sort -t. -k1,1n -k2,2n | tail -1)
	old=
	for cc in 3.5 5.0 6.0 7.0; do
		case " $codes " in *" sm_$(echo "$cc" | tr -d .) "*) ;; *) old=$cc; break ;; esac
	done
	[ -n "$new" ] && [ -n "$old" ] || skip_all "cannot pick the architectures from '$codes'"
	echo "# the copy lacks $new (nvcc lists it) and holds $old (nvcc does not)"
	sm_new=sm_$(echo "$new" | tr -d .)
	sm_old=sm_$(echo "$old" | tr -d .)
}

# gpulist_toolkit DIR SCRIPT: the real toolkit in DIR (under $T_DIR),
# its bin/nvcc the shell SCRIPT (which ends by running the real one, or
# not).
gpulist_toolkit() {
	case $1 in "$T_DIR"/?*) ;; *) echo "gpulist_toolkit: '$1' is not under \$T_DIR" >&2; return 1 ;; esac
	mkdir -p "$1/bin"
	for e in "$home"/*; do
		[ "$(basename "$e")" = bin ] || ln -s "$e" "$1/$(basename "$e")"
	done
	for e in "$home"/bin/*; do
		[ "$(basename "$e")" = nvcc ] || ln -s "$e" "$1/bin/$(basename "$e")"
	done
	printf '#!/bin/sh\n%s\n' "$2" >"$1/bin/nvcc"
	chmod +x "$1/bin/nvcc"
}

# gpulist_overrides: recipe overlays $T_DIR/assumed (nvcc's release
# assumed, its list a wrong copy: $old in, $new out) and $T_DIR/unknown
# (ptbuild's tables end before nvcc's release).
gpulist_overrides() {
	mkdir -p "$T_DIR/assumed/data" "$T_DIR/unknown/data"
	cat >"$T_DIR/assumed/data/cuda.lua" <<LUA
local shipped = ptb.include_next("data/cuda")
for _, r in ipairs(shipped.releases) do
  if r.version == "$rel" then
    local sm = { "$old" }
    for _, cc in ipairs(r.sm) do if cc ~= "$new" and cc ~= "$old" then sm[#sm + 1] = cc end end
    r.sm, r.assumed = sm, true
  end
end
return shipped
LUA
	cat >"$T_DIR/unknown/data/cuda.lua" <<LUA
local shipped = ptb.include_next("data/cuda")
local V = ptb.include("lib/version")
local keep = {}
for _, r in ipairs(shipped.releases) do
  if V.vcmp(r.version, "$rel") < 0 then keep[#keep + 1] = r end
end
shipped.releases = keep
return shipped
LUA
}
