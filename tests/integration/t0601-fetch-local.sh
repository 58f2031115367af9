#!/bin/sh
# t0601-fetch-local.sh - fetch from a file:// manifest: layout of the
# installed tree, lock files, cache and --offline, verification failures,
# malformed manifests, replacing a prefix.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 xz

export XDG_CACHE_HOME="$T_DIR/cache"
fx="$T_DIR/fx"
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$fx" --components 4 --kib 64 ||
	skip_all "cannot build the fixture archives"
man="$fx/redistrib_12.4.1.json"
F() { run "$PTBUILD" fetch --platform linux-x86_64 "$@"; }

F --manifest "$man" --prefix "$T_DIR/cuda" --write-lock "$T_DIR/cuda.lock"
is "$rc" 0 "fetch from a file manifest installs"
like "$out" "installed 4 components (*) into $T_DIR/cuda in *" "one summary line on stdout"
is "$err" "" "nothing on stderr when not a terminal (t0620: the terminal)"
is "$("$T_DIR/cuda/bin/nvcc")" "Cuda compilation tools, release 12.4.1" "bin/nvcc runs from the merged tree (top folders stripped)"
[ -f "$T_DIR/cuda/include/comp02.h" ] && [ -f "$T_DIR/cuda/include/cuda_nvcc.h" ]; t_ok $? "include/ merges every component"
is "$(readlink "$T_DIR/cuda/lib/libcomp01.so")" "libcomp01.so.12.4.1.101" "library symlinks kept"
[ -f "$T_DIR/cuda/share/licenses/comp03/LICENSE" ]; t_ok $? "each LICENSE kept under share/licenses/<component>"
[ -f "$T_DIR/cuda/lib/libcomp01.so.12.4.1.101" ] && [ -x "$T_DIR/cuda/lib/libcomp01.so.12.4.1.101" ]; t_ok $? "modes kept (executable library)"
like "$(cat "$T_DIR/cuda.lock")" '*"schema": "ptbuild.lock/1"*"sha256": "*' "--write-lock writes a ptbuild.lock/1"
cmp -s "$T_DIR/cuda.lock" "$T_DIR/cuda/.ptbuild-lock.json"; t_ok $? "the prefix keeps the same lock"
n=$(ls "$XDG_CACHE_HOME/ptbuild/sha256" | wc -l)
is "$n" 4 "four archives in the content-addressed cache"
is "$(ls "$XDG_CACHE_HOME/ptbuild/partial" | wc -l)" 0 "no partial files left"
ls -a "$T_DIR" | grep -q ptb-stage; t_ok $((!$?)) "no staging folder left"

F --manifest "$man" --prefix "$T_DIR/cuda"
is "$rc" 0 "a second fetch of the same set"
like "$out" "*is up to date (4 components)" "... says the prefix is up to date"

run "$PTBUILD" fetch --lock "$T_DIR/cuda.lock" --prefix "$T_DIR/copy" --offline
is "$rc" 0 "--lock --offline reproduces the set from the cache"
is "$(fx_tree "$T_DIR/copy")" "$(fx_tree "$T_DIR/cuda")" "... the same tree, byte for byte"

F --manifest "$man" --components cuda_nvcc,comp01 --prefix "$T_DIR/cuda" -q
is "$rc" 0 "a smaller set replaces the prefix"
is "$out$err" "" "-q prints nothing"
[ ! -e "$T_DIR/cuda/include/comp02.h" ] && [ -e "$T_DIR/cuda/include/comp01.h" ]; t_ok $? "... the prefix holds exactly the new set"
ls -a "$T_DIR" | grep -q ptb-old; t_ok $((!$?)) "... the old tree is gone"

# One fetch into a prefix at a time: another holding it makes this one wait.
if command -v flock >/dev/null 2>&1; then
	flock "$T_DIR/.cuda.ptb-lock" sleep 1 &
	holder=$!
	sleep 0.2
	t0=$(date +%s%N)
	F --manifest "$man" --components cuda_nvcc,comp01 --prefix "$T_DIR/cuda"
	t1=$(date +%s%N)
	wait $holder
	is "$rc" 0 "a fetch into a prefix another process holds waits, then runs"
	like "$err" "*waiting for another ptbuild fetch into '$T_DIR/cuda' to finish*" "... saying what it waits for"
	[ $(( (t1 - t0) / 1000000 )) -ge 500 ]; t_ok $? "... it did wait ($(( (t1 - t0) / 1000000 )) ms)"
	like "$out" "*is up to date (2 components)" "... and then finds the prefix up to date"
	[ ! -e "$T_DIR/.cuda.ptb-lock" ]; t_ok $? "... the lock file is gone afterwards"
else
	skip "two fetches into one prefix" "flock(1) is not installed (util-linux)"
fi

mkdir -p "$T_DIR/mine" && echo keep >"$T_DIR/mine/file"
F --manifest "$man" --prefix "$T_DIR/mine"
is "$rc" 2 "a non-empty prefix ptbuild did not make is refused (exit 2)"
like "$err" "*'$T_DIR/mine' exists and was not installed by ptbuild fetch*" "... saying why"
is "$(cat "$T_DIR/mine/file")" "keep" "... and left alone"

# Verification failures: nothing extracted, nothing left in the cache.
before=$(fx_tree "$T_DIR/cuda")
F --manifest "$fx/manifest-corrupt.json" --components cuda_nvcc --prefix "$T_DIR/cuda" --cache "$T_DIR/c2"
is "$rc" 4 "a corrupted byte fails (exit 4)"
sha=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cuda_nvcc"]["linux-x86_64"]["sha256"])' "$fx/manifest-corrupt.json")
got=$(sha256sum "$fx"/cuda_nvcc/linux-x86_64/*.corrupt | cut -d' ' -f1)
like "$err" "*'cuda_nvcc': sha256 mismatch: expected $sha, got $got*" "... naming the component, the expected and the actual hash"
is "$(fx_tree "$T_DIR/cuda")" "$before" "... the prefix is unchanged"
is "$(ls "$T_DIR/c2/sha256" "$T_DIR/c2/partial" | grep -c .)" 2 "... the bad file is discarded (only the two folder headers listed)"

F --manifest "$fx/manifest-size.json" --components cuda_nvcc --prefix "$T_DIR/cuda" --cache "$T_DIR/c3"
is "$rc" 4 "a size one byte larger than served fails"
like "$err" "*'cuda_nvcc': size mismatch: expected * bytes, got *" "... naming expected and actual size"
F --manifest "$fx/manifest-small.json" --components cuda_nvcc --prefix "$T_DIR/cuda" --cache "$T_DIR/c3"
is "$rc" 4 "a server sending more than the manifest's size fails"
like "$err" "*'cuda_nvcc': size mismatch: the server sent more than the expected*" "... and says so"
is "$(fx_tree "$T_DIR/cuda")" "$before" "... the prefix is still unchanged"

# Manifests.
F --manifest "$top_srcdir/tests/fetch/manifest-bad.json" --components cuda_nvcc
is "$rc" 2 "a malformed manifest is a bad input file (exit 2)"
like "$err" "*malformed manifest '*manifest-bad.json': component 'cuda_nvcc', platform 'linux-x86_64': 'size'*" "... naming file, component and key"
printf '{"release_date": "2024-04-03",\n  "cuda_nvcc": {\n' >"$T_DIR/not-json.json"
F --manifest "$T_DIR/not-json.json" --components cuda_nvcc --cache "$T_DIR/c-nj"
is "$rc" 2 "a manifest that is not JSON is a bad input file (exit 2), as facts, lock and plan files are"
like "$err" "*not-json.json*" "... naming it"
printf '{"schema": "ptbuild.lock/1", "items": [{"name": "x", "url": "https://x/y", "sha256": "00"}]}\n' >"$T_DIR/bad-field.lock"
F --lock "$T_DIR/bad-field.lock"
is "$rc" 2 "a lock file with a bad field is a bad input file (exit 2)"
like "$err" "*bad lock file '*bad-field.lock': items?0?: 'sha256'*" "... naming the file, the item and the field"
F --manifest "$man" --components no_such_thing
is "$rc" 2 "an unknown component is a usage error"
like "$err" "*no component 'no_such_thing'*" "... naming it"
F --manifest "$man" --manifest-sha256 0000000000000000000000000000000000000000000000000000000000000000
is "$rc" 4 "a manifest that does not match its pin is refused"
like "$err" "*manifest '*' changed: sha256 *, pinned 0000*" "... with both hashes"
pin=$(sha256sum "$man" | cut -d' ' -f1)
F --manifest "$man" --manifest-sha256 "$pin" --components comp03 --cache "$T_DIR/c4"
is "$rc" 0 "a manifest matching its pin is used"

# --offline
F --manifest "$man" --offline --cache "$T_DIR/empty" --prefix "$T_DIR/off"
is "$rc" 4 "--offline with an empty cache fails (exit 4)"
like "$err" "*--offline: '*' is not in the cache*" "... and says the cache lacks it"
[ ! -e "$T_DIR/off" ]; t_ok $? "... and installs nothing"
F --manifest "$man" --offline --prefix "$T_DIR/off"
is "$rc" 0 "--offline with a warm cache installs without the network"

# Files kept whole, and the plan hook.
f="$fx/comp03/linux-x86_64/$(ls "$fx/comp03/linux-x86_64")"
s=$(sha256sum "$f" | cut -d' ' -f1)
run "$PTBUILD" fetch --file "$f@$s" --prefix "$T_DIR/files"
is "$rc" 0 "--file URL@SHA256 fetches a file kept whole"
cmp -s "$f" "$T_DIR/files/downloads/$(basename "$f")"; t_ok $? "... into PREFIX/downloads"
kib=$(awk -v b="$(wc -c <"$f")" 'BEGIN { printf "%.1f KiB", b / 1024 }')
like "$out" "installed 1 component ($kib, all from the cache) into *" "... and the summary counts its bytes ($kib), though no size was given"
cat >"$T_DIR/plan.json" <<EOF
{"schema": "ptbuild.plan/1",
 "cuda": {"version": "12.4", "platform": "linux-x86_64",
          "downloads": [{"name": "comp03", "url": "file://$f", "sha256": "$s", "size": $(wc -c <"$f")}]},
 "openblas": {"via": "source", "source": {"url": "file://$f", "sha256": "$s"}}}
EOF
run "$PTBUILD" fetch --plan "$T_DIR/plan.json" --prefix "$T_DIR/planned"
is "$rc" 0 "--plan fetches cuda.downloads and openblas.source"
[ -f "$T_DIR/planned/include/comp03.h" ] && [ -f "$T_DIR/planned/downloads/$(basename "$f")" ]; t_ok $? "... archive unpacked, source kept whole"

run "$PTBUILD" fetch --plan "$T_DIR/p.json" --profile gh200
is "$rc" 2 "a saved plan and plan options together are a usage error"
run "$PTBUILD" fetch --help
like "$out" "*--manifest-sha256*" "--help lists the options"

# Every platform NVIDIA's manifests name is one --platform takes, and the
# refusal lists them all (linux-ppc64le was taken but not named).
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$T_DIR/ppc" --components 1 --kib 16 --platform linux-ppc64le >/dev/null
run "$PTBUILD" fetch --platform linux-ppc64le --manifest "$T_DIR/ppc/redistrib_12.4.1.json" --prefix "$T_DIR/ppc-cuda"
is "$rc" 0 "--platform linux-ppc64le installs a ppc64le manifest's components"
run "$PTBUILD" fetch --platform linux-s390x --manifest "$man" --prefix "$T_DIR/none"
is "$rc" 2 "an unknown --platform is a usage error"
like "$err" "*bad --platform 'linux-s390x' (expected linux-x86_64, linux-sbsa, linux-aarch64 or linux-ppc64le)*" "... naming the four it takes"
done_testing
