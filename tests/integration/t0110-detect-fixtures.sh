#!/bin/sh
# t0110-detect-fixtures.sh - `ptbuild detect --sysroot` on the fixture
# machines: each facts document equals its golden file (diff -u), and the
# summary of one machine is checked line by line.  The environment of each
# machine (PATH, CUDA_HOME, ...) is in <name>.env; nothing of this host's
# environment leaks in (env -i), and no library is loaded for a sysroot.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fixtures/sysroot.sh"

FIX="$top_srcdir/tests/fixtures/sysroots"

detect() { # NAME ARGS...
	name=$1
	shift
	[ -d "$T_DIR/$name" ] || make_sysroot "$name" "$T_DIR/$name"
	# shellcheck disable=SC2046 # one VAR=value word per line
	env -i $(cat "$FIX/$name.env") PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
		"$PTBUILD" detect --sysroot "$T_DIR/$name" "$@"
}

for want in "$FIX"/*.facts.json; do
	name=$(basename "$want" .facts.json)
	detect "$name" --json >"$T_DIR/$name.facts.json" 2>"$T_DIR/err"
	rc=$?
	is "$rc" 0 "$name: detect --json exits 0"
	# PTBUILD_REGOLD=1 rewrites the golden files (review the diff!)
	[ -n "${PTBUILD_REGOLD:-}" ] && cp "$T_DIR/$name.facts.json" "$want"
	diff -u "$want" "$T_DIR/$name.facts.json" >"$T_DIR/diff" 2>&1
	t_ok $? "$name: facts equal the golden file"
	[ -s "$T_DIR/diff" ] && sed 's/^/# /' "$T_DIR/diff" | head -40
	is "$(cat "$T_DIR/err")" "" "$name: nothing on stderr with --json"
done

run detect rtx4090-workstation
is "$rc" 0 "summary exits 0"
diff -u "$FIX/rtx4090-workstation.summary" "$T_DIR/out" >"$T_DIR/diff" 2>&1
t_ok $? "rtx4090-workstation: summary equals the golden text"
[ -s "$T_DIR/diff" ] && sed 's/^/# /' "$T_DIR/diff"
like "$err" "*PATH finds nvcc in /usr/local/cuda-12.8 but LD_LIBRARY_PATH loads libcudart from /usr/local/cuda-11.8*" \
	"two toolkits mixed by PATH and LD_LIBRARY_PATH is a note"

run detect altra-a100
like "$err" "*kernel module is 535.183.01 but the user-space driver is 535.183.06*" \
	"a kernel module that differs from the library asks for a reboot"

run detect graviton3 -q
is "$rc" 0 "-q: no GPU is not an error"
is "$err" "" "-q silences notes"

run "$PTBUILD" detect --sysroot "$T_DIR/nowhere"
is "$rc" 2 "a sysroot that is not a directory is a usage error"
like "$err" "ptbuild: error: sysroot '*nowhere' is not a directory*" "...and says which"
run "$PTBUILD" detect stray
is "$rc" 2 "a stray argument is a usage error"

# an empty directory is a machine with nothing known: facts, not errors
mkdir "$T_DIR/empty"
run env -i PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$T_DIR/empty" --json
is "$rc" 0 "an empty sysroot still gives facts"
like "$out" '*"arch": "unknown"*' "...with an unknown arch"
like "$out" '*"driver": null*' "...no driver"
like "$out" '*the architecture of the sysroot is unknown*' "...and notes saying why"

done_testing
