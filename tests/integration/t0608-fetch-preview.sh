#!/bin/sh
# t0608-fetch-preview.sh - fetch --dry-run (--list) says what a fetch would
# do without doing it: each component, its size, where it comes from or the
# cache file that holds it, and where it would go; --offline names every
# file the cache lacks, not only the first.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 xz

export XDG_CACHE_HOME="$T_DIR/cache"
fx="$T_DIR/fx"
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$fx" --components 4 --kib 64 >/dev/null ||
	skip_all "cannot build the fixture archives"
man="$fx/redistrib_12.4.1.json"
F() { run "$PTBUILD" fetch --platform linux-x86_64 --manifest "$man" "$@"; }
c="$XDG_CACHE_HOME/ptbuild"

F --dry-run --prefix "$T_DIR/cuda"
is "$rc" 0 "--dry-run exits 0"
like "$out" "would fetch 4 components (*) for linux-x86_64 into $T_DIR/cuda*" "... says how many, how big and where they go"
like "$out" "*cache $c holds 0 of them; * to download*" "... and what the cache holds"
is "$(printf '%s\n' "$out" | grep -c "^  .* file://$fx/")" 4 "... each component with the URL it would come from"
t_ok "$([ ! -e "$T_DIR/cuda" ]; echo $?)" "... and installs nothing"
t_ok "$([ ! -d "$c/sha256" ] || [ -z "$(ls "$c/sha256")" ]; echo $?)" "... and downloads nothing"

F --prefix "$T_DIR/cuda"
is "$rc" 0 "a real fetch fills the cache"
F --list
is "$rc" 0 "--list is --dry-run"
like "$out" "*into the cache $c (no --prefix: nothing installed)*cache $c holds 4 of them; 0 B to download*" "--list after a fetch: everything cached"
is "$(printf '%s\n' "$out" | grep -c "^  .* $c/sha256/")" 4 "... naming each cache file"

# --offline with two files gone names both.
ls "$c/sha256" | head -n 2 >"$T_DIR/gone"
while read -r h; do rm -f "$c/sha256/$h"; done <"$T_DIR/gone"
F --offline --prefix "$T_DIR/off"
is "$rc" 4 "--offline with two files missing: exit 4"
like "$err" "*--offline: the cache '$c' lacks 2 of 4 files:*'*' (sha256 *)*'*' (sha256 *)*" "... naming both"
like "$err" "*hint: run the same fetch once with the network*" "... and what to do"
t_ok "$([ ! -e "$T_DIR/off" ]; echo $?)" "... installing nothing"

done_testing
