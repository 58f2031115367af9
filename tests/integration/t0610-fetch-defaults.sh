#!/bin/sh
# t0610-fetch-defaults.sh - what fetch knows of NVIDIA without a plan comes
# from the recipes (fetch.defaults, data/redist.lua, data/platforms.lua),
# not from C: a user's recipe directory that changes NVIDIA's redist base
# or this machine's default platform changes what fetch asks for, and a
# machine the table does not name is asked for --platform.  No network:
# --offline with an empty cache names the URL it would fetch.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 xz

export XDG_CACHE_HOME="$T_DIR/cache"
m=$(uname -m)

# override DIR DATA LUA: a recipe dir whose data/DATA.lua is the shipped one
# changed by LUA (on the copy M)
override() {
	mkdir -p "$1/data"
	cat >"$1/data/$2.lua" <<LUA
local shipped = ptb.include_next("data/$2")
local M = {}
for k, v in pairs(shipped) do M[k] = v end
$3
return M
LUA
}

run "$PTBUILD" fetch --cuda 12.4.1 --platform linux-x86_64 --offline --dry-run
is "$rc" 4 "shipped: the manifest is not in the empty cache (4)"
is "$err" "ptbuild: error: --offline: 'https://developer.download.nvidia.com/compute/cuda/redist/redistrib_12.4.1.json' is not in the cache '$XDG_CACHE_HOME/ptbuild'
hint: run once without --offline to fill the cache" "... NVIDIA's redist manifest, from data/redist.lua"

override "$T_DIR/r1" redist 'M.base_url = "https://redist.example/cuda/"'
run "$PTBUILD" --recipes "$T_DIR/r1" fetch --cuda 12.4.1 --platform linux-x86_64 --offline --dry-run
like "$err" "*'https://redist.example/cuda/redistrib_12.4.1.json' is not in the cache*" "a recipe's redist base is the one fetch asks"

fx="$T_DIR/fx"
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$fx" --components 2 --kib 16 --platform linux-sbsa ||
	skip_all "cannot build the fixture archives"
override "$T_DIR/r2" platforms "M.fetch_default = { [\"$m\"] = \"linux-sbsa\" }"
run "$PTBUILD" --recipes "$T_DIR/r2" fetch --manifest "$fx/redistrib_12.4.1.json" --dry-run
is "$rc" 0 "this machine's default platform comes from data/platforms.lua"
like "$out" "*linux-sbsa*" "... the listing is for linux-sbsa"

override "$T_DIR/r3" platforms 'M.fetch_default = {}'
run "$PTBUILD" --recipes "$T_DIR/r3" fetch --manifest "$fx/redistrib_12.4.1.json" --dry-run
is "$rc" 2 "a machine the table does not name: a usage error (2)"
is "$err" "ptbuild: error: cannot tell the NVIDIA platform of this machine
hint: give --platform linux-x86_64, linux-sbsa or linux-aarch64" "... asking for --platform"
run "$PTBUILD" --recipes "$T_DIR/r3" fetch --manifest "$fx/redistrib_12.4.1.json" --platform linux-sbsa --dry-run
is "$rc" 0 "... which --platform answers"

mkdir -p "$T_DIR/r4"
printf 'return { defaults = function() return { platform = "linux-sbsa" } end }\n' >"$T_DIR/r4/fetch.lua"
run "$PTBUILD" --recipes "$T_DIR/r4" fetch --cuda 12.4.1 --platform linux-x86_64 --offline --dry-run
is "$rc" 3 "a fetch recipe without the redist bases is a recipe error (3)"
is "$err" "ptbuild: error: recipe 'fetch.defaults' returned no cuda_redist and cudnn_redist base URLs" "... naming the entry"

# --cuda X.Y: NVIDIA publishes manifests by update (redistrib_13.4.2.json),
# none by minor release, so a minor release is read as its last update,
# the label a plan installs (data/cuda.lua updates), and a note says so.
for c in "13.4|13.4.2" "12.8|12.8.2" "13.5|13.5.0" "13.4.1|13.4.1"; do
	run "$PTBUILD" fetch --cuda "${c%%|*}" --platform linux-x86_64 --offline --dry-run
	is "$rc" 4 "--cuda ${c%%|*}: the manifest is not in the empty cache (4)"
	like "$err" "*'https://developer.download.nvidia.com/compute/cuda/redist/redistrib_${c#*|}.json' is not in the cache*" \
		"--cuda ${c%%|*}: the manifest asked for is redistrib_${c#*|}.json"
done
like "$err" "ptbuild: error: *" "a full label (13.4.1) is taken as it is, with no note"
run "$PTBUILD" fetch --cuda 13.4 --platform linux-x86_64 --offline --dry-run
like "$err" "ptbuild: note: --cuda 13.4: fetching its last update, CUDA 13.4.2 (NVIDIA publishes redistrib_13.4.2.json, none for 13.4)*" \
	"--cuda 13.4: the note names the update taken"
# ... and installs from a mirror that serves that update's manifest
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$T_DIR/m135" --components 3 --kib 16 --version 13.5.0 ||
	skip_all "cannot build the fixture archives"
run "$PTBUILD" fetch --cuda 13.5 --platform linux-x86_64 --mirror "$T_DIR/m135" --prefix "$T_DIR/cuda135" --cache "$T_DIR/c135"
is "$rc" 0 "--cuda 13.5 --mirror DIR: redistrib_13.5.0.json under the mirror is read and installed"
[ "$rc" -eq 0 ] || printf '# %s\n' "$err"
is "$("$T_DIR/cuda135/bin/nvcc" 2>/dev/null)" "Cuda compilation tools, release 13.5.0" "... and the tree works"

done_testing
