#!/bin/sh
# t0122-profiles.sh - `ptbuild profiles` and the shipped profiles
# themselves: each is a valid facts document with a description and its
# sources, and plans without a recipe error.
. "$top_srcdir/tests/lib.sh"

run "$PTBUILD" profiles
is "$rc" 0 "profiles exits 0"
names=$(printf '%s\n' "$out" | awk '{print $1}' | tr '\n' ' ')
is "$names" "altra-a100 dgx-h100 gh200 graviton3 jetson-orin jetson-thor rtx4090-workstation " "the seven shipped profiles, sorted"
like "$out" "*gh200 *NVIDIA GH200 Grace Hopper*" "each with its description"

run "$PTBUILD" profiles --json
like "$out" '*"name": "jetson-thor"*"file": "*recipes/profiles/jetson-thor.json"*' "--json gives name, description, file"

for f in "$top_srcdir"/recipes/profiles/*.json; do
	p=$(basename "$f" .json)
	grep -q '"schema": "ptbuild.facts/1"' "$f"
	t_ok $? "$p: schema ptbuild.facts/1"
	# where its values come from: files of this repository, each present
	src=$(sed -n 's/^  "source": "\(.*\)",$/\1/p' "$f")
	refs=$(printf '%s\n' "$src" | grep -o '\(tests\|recipes\)/[A-Za-z0-9_./-]*[A-Za-z0-9]')
	missing=
	for r in $refs; do [ -f "$top_srcdir/$r" ] || missing="$missing $r"; done
	[ -n "$refs" ] && [ -z "$missing" ]
	t_ok $? "$p: says where its values come from, in files of the repository${missing:+ (missing:$missing)}"
	"$PTBUILD" plan --profile "$p" --json >"$T_DIR/plan.json" 2>"$T_DIR/err"
	rc=$?
	[ "$rc" -le 1 ]
	t_ok $? "$p: plans (exit $rc)"
done

# A user's directory on the recipe path adds a profile and overrides one.
mkdir -p "$T_DIR/r/profiles"
sed 's/"NVIDIA GH200 Grace Hopper[^"]*"/"my own GH200"/' "$top_srcdir/recipes/profiles/gh200.json" >"$T_DIR/r/profiles/gh200.json"
cp "$top_srcdir/recipes/profiles/graviton3.json" "$T_DIR/r/profiles/ci-arm64.json"
run "$PTBUILD" --recipes "$T_DIR/r" profiles
like "$out" "*ci-arm64 *" "a user's profile is listed"
like "$out" "*gh200 *my own GH200*" "a user's profile overrides the shipped one"
run "$PTBUILD" --recipes "$T_DIR/r" plan --profile ci-arm64 --json
like "$out" '*"facts_source": "profile:ci-arm64"*' "plan --profile finds it"

run "$PTBUILD" profiles extra
is "$rc" 2 "an argument is a usage error"

# No profiles anywhere on the recipe path: an error with a hint, exit 3.
# A copy of the binary has no recipes/ beside it; the test's recipe path
# is one empty directory; the compiled-in data directory is whatever
# configure chose - when an installed ptbuild put profiles there, this
# part cannot be had and says so.
mkdir -p "$T_DIR/bin" "$T_DIR/empty"
cp "$PTBUILD" "$T_DIR/bin/ptbuild"
datadir=$(strings "$PTBUILD" | sed -n 's|^\(/.*\)/recipes$|\1|p' | head -n 1)
if [ -n "$datadir" ] && ls "$datadir/recipes/profiles/"*.json >/dev/null 2>&1; then
	skip "profiles with none on the recipe path" "the compiled-in '$datadir/recipes/profiles' holds profiles (an installed ptbuild)"
	skip "... --json" "the same"
else
	PTBUILD_RECIPE_PATH="$T_DIR/empty" run "$T_DIR/bin/ptbuild" --recipes "$T_DIR/empty" profiles
	is "$rc:$out" "3:" "no profiles on the recipe path: exit 3, nothing on stdout"
	like "$err" "ptbuild: error: no profiles on the recipe path: looked in '$T_DIR/empty/profiles'*hint: *" \
		"... the error names where it looked, with a hint"
	PTBUILD_RECIPE_PATH="$T_DIR/empty" run "$T_DIR/bin/ptbuild" --recipes "$T_DIR/empty" profiles --json
	is "$rc:$out" "3:" "... --json too: exit 3, no empty list"
fi

done_testing
