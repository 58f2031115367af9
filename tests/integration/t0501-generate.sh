#!/bin/sh
# t0501-generate.sh - `ptbuild generate` end to end: golden outputs for
# several plans, identical bytes on a second run (and nothing rewritten),
# the same bytes from another directory and environment, formats, errors,
# template overrides.  PTB_UPDATE_GOLDEN=1 rewrites the golden files.
. "$top_srcdir/tests/lib.sh"

plans="$top_srcdir/tests/fixtures/plans-in"
golden="$top_srcdir/tests/fixtures/generate"

for c in gh200 rtx4090 ci-multiarch; do
	run "$PTBUILD" generate --plan "$plans/$c.json" --out "$T_DIR/$c"
	is "$rc" 0 "$c: generate exits 0"
	if [ -n "${PTB_UPDATE_GOLDEN:-}" ]; then
		rm -rf "${golden:?}/$c"
		mkdir -p "$golden/$c"
		(cd "$T_DIR/$c" && find . -type f ! -name .ptbuild-generated | tar cf - -T -) | (cd "$golden/$c" && tar xf -)
	fi
	diff -ru -x .ptbuild-generated "$golden/$c" "$T_DIR/$c" >"$T_DIR/diff" 2>&1
	t_ok $? "$c: every file matches the golden text"
	sed 's/^/# /' "$T_DIR/diff" | head -40
done

# Profiles, through the plan (ptb_plan_make), as a user runs it.
for p in gh200 jetson-orin altra-a100 rtx4090-workstation; do
	c=profile-$p
	run "$PTBUILD" generate --profile "$p" --out "$T_DIR/$c"
	is "$rc" 0 "$c: generate --profile exits 0"
	if [ -n "${PTB_UPDATE_GOLDEN:-}" ]; then
		rm -rf "${golden:?}/$c"
		mkdir -p "$golden/$c"
		(cd "$T_DIR/$c" && find . -type f ! -name .ptbuild-generated | tar cf - -T -) | (cd "$golden/$c" && tar xf -)
	fi
	diff -ru -x .ptbuild-generated "$golden/$c" "$T_DIR/$c" >"$T_DIR/diff" 2>&1
	t_ok $? "$c: every file matches the golden text"
	sed 's/^/# /' "$T_DIR/diff" | head -40
done

# A saved facts file, used on "another machine" (another directory, an
# empty environment): the same bytes.
cp "$top_srcdir/recipes/profiles/gh200.json" "$T_DIR/gh200-facts.json"
run "$PTBUILD" generate --facts "$T_DIR/gh200-facts.json" --out "$T_DIR/facts-here"
is "$rc" 0 "generate --facts exits 0"
mkdir -p "$T_DIR/there"
cp "$T_DIR/gh200-facts.json" "$T_DIR/there/"
(cd "$T_DIR/there" && env -i PATH=/usr/bin:/bin HOME=/nonexistent LANG=C \
	PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" generate --facts "$T_DIR/gh200-facts.json" --out "$T_DIR/facts-there" >/dev/null 2>&1)
diff -ru "$T_DIR/facts-here" "$T_DIR/facts-there" >"$T_DIR/diff" 2>&1
t_ok $? "a saved facts file gives the same bytes from another directory and environment"
sed 's/^/# /' "$T_DIR/diff" | head -20
# The facts are the profile's: only the line naming where they came from differs.
for f in Dockerfile ptbuild.env; do
	grep -v 'profile:gh200\|gh200-facts.json' "$T_DIR/facts-here/$f" >"$T_DIR/a"
	grep -v 'profile:gh200\|gh200-facts.json' "$T_DIR/profile-gh200/$f" >"$T_DIR/b"
	cmp -s "$T_DIR/a" "$T_DIR/b"
	t_ok $? "... and the same $f as --profile gh200 (but for the facts' name)"
done

# Generating twice: the same bytes, and no file is rewritten.
c=gh200
find "$T_DIR/$c" -type f -exec touch -d '2001-01-01 00:00' {} +
run "$PTBUILD" generate --plan "$plans/$c.json" --out "$T_DIR/$c"
is "$rc" 0 "second run exits 0"
like "$out" "unchanged *" "second run reports files unchanged"
unlike "$out" "*wrote*" "second run writes nothing"
newer=$(find "$T_DIR/$c" -type f -newermt '2001-01-02' | wc -l)
is "$newer" 0 "no file was touched on the second run"
diff -ru -x .ptbuild-generated "$golden/$c" "$T_DIR/$c" >/dev/null
t_ok $? "second run: bytes identical"
is "$(stat -c %a "$T_DIR/$c/setup.sh")" 755 "setup.sh is executable"
is "$(stat -c %a "$T_DIR/$c/ptbuild.env")" 644 "ptbuild.env is not"

# Another directory, another environment, the plan saved elsewhere: the same bytes.
mkdir -p "$T_DIR/elsewhere/deep"
cp "$plans/$c.json" "$T_DIR/elsewhere/deep/p.json"
(cd "$T_DIR/elsewhere" && env -i PATH=/usr/bin:/bin HOME=/nonexistent LANG=C \
	PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$PTBUILD" generate --plan deep/p.json >/dev/null 2>&1)
diff -ru -x .ptbuild-generated "$golden/$c" "$T_DIR/elsewhere/ptbuild-out" >/dev/null 2>&1
t_ok $? "a saved plan gives the same bytes from another directory and environment (default --out)"

# A change is written; only that file.  (MAX_JOBS reaches both: the
# cache carries it as a Ninja job pool.)
sed 's/"CMAKE_CUDA_ARCHITECTURES": "90-real;90-virtual"/"CMAKE_CUDA_ARCHITECTURES": "90-virtual"/' "$plans/$c.json" >"$T_DIR/p90v.json"
run "$PTBUILD" generate --plan "$T_DIR/p90v.json" --out "$T_DIR/$c" --format env,cmake
is "$out" "unchanged $T_DIR/$c/ptbuild.env
wrote     $T_DIR/$c/initial-cache.cmake" "--format picks files; a changed value rewrites just its file"
grep -q '^set(CMAKE_CUDA_ARCHITECTURES "90-virtual" CACHE STRING' "$T_DIR/$c/initial-cache.cmake"
t_ok $? "the new value is there"
sed 's/"MAX_JOBS": "72"/"MAX_JOBS": "40"/' "$plans/$c.json" >"$T_DIR/p40.json"
run "$PTBUILD" generate --plan "$T_DIR/p40.json" --out "$T_DIR/$c" --format env,cmake
is "$out" "wrote     $T_DIR/$c/ptbuild.env
wrote     $T_DIR/$c/initial-cache.cmake" "MAX_JOBS rewrites ptbuild.env and initial-cache.cmake"
grep -q "^export MAX_JOBS='40'$" "$T_DIR/$c/ptbuild.env" &&
	grep -q '^set(CMAKE_JOB_POOLS "compile=40" CACHE STRING' "$T_DIR/$c/initial-cache.cmake"
t_ok $? "the new value is in both"

run "$PTBUILD" generate --plan "$plans/$c.json" --out "$T_DIR/dry" --dry-run
is "$rc" 0 "--dry-run exits 0"
like "$out" "would write $T_DIR/dry/ptbuild.env*" "--dry-run says what it would write"
t_ok "$([ ! -e "$T_DIR/dry" ]; echo $?)" "--dry-run writes nothing"

# Errors.
run "$PTBUILD" generate --plan "$plans/rtx4090.json" --out "$T_DIR/x" --format env,nope
is "$rc" 2 "unknown format: exit 2"
is "$err" "ptbuild: error: unknown format 'nope'
hint: formats: all env envrc docker-env github-env cmake presets dockerfile bake ci setup" "unknown format: message"
run "$PTBUILD" generate --plan "$plans/rtx4090.json" --profile gh200 --out "$T_DIR/x"
is "$rc" 2 "--plan with plan options: exit 2"
like "$err" "*--plan FILE cannot be combined with plan options*" "--plan with plan options: says why"
printf '{"schema": "ptbuild.facts/1"}' >"$T_DIR/facts.json"
run "$PTBUILD" generate --plan "$T_DIR/facts.json" --out "$T_DIR/x"
is "$rc" 2 "not a plan: exit 2"
run "$PTBUILD" generate --plan "$plans/$c.json" --out "$T_DIR/x" --base-image ubuntu:latest
is "$rc" 2 "a 'latest' base image is refused"
run "$PTBUILD" generate --plan "$plans/$c.json" --out "$T_DIR/x" --base-digest nope
is "$rc" 2 "a malformed digest is refused"
t_ok "$([ ! -e "$T_DIR/x" ]; echo $?)" "errors write nothing"

# A plan that builds OpenBLAS with a TARGET its release's getarch.c does
# not know (TARGET=NEOVERSEV2 with 0.3.28, which a hand-written or an
# older plan may hold; getarch.c has FORCE_NEOVERSEV2 from 0.3.31 on
# [ob-getarch]): a setup.sh and Dockerfile of it would stop at OpenBLAS's
# first make, so generate refuses it, naming the TARGET, and writes
# nothing.  The same TARGET with 0.3.34, the pinned release, is written.
python3 - "$plans/gh200.json" "$T_DIR/v2.json" "$T_DIR/v2-0334.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["openblas"].update(target="NEOVERSEV2", version="0.3.28",
                     make_flags=["USE_OPENMP=1", "NUM_THREADS=256", "DYNAMIC_ARCH=0"])
json.dump(p, open(sys.argv[2], "w"))
p["openblas"].update(version="0.3.34")
json.dump(p, open(sys.argv[3], "w"))
PY
run "$PTBUILD" generate --plan "$T_DIR/v2.json" --out "$T_DIR/v2"
is "$rc" 2 "OpenBLAS 0.3.28 with TARGET=NEOVERSEV2: exit 2"
like "$err" "*ptbuild: error: the plan builds OpenBLAS 0.3.28 from source with TARGET=NEOVERSEV2, which OpenBLAS's getarch.c knows only from 0.3.31 on*'The TARGET specified on the command line or in Makefile.rule is not supported'
hint: make the plan again with 'ptbuild plan' (it builds OpenBLAS 0.3.34)*" "... the message names the TARGET, the release that knows it and what make would say"
t_ok "$([ ! -e "$T_DIR/v2" ]; echo $?)" "... and nothing is written"
run "$PTBUILD" generate --plan "$T_DIR/v2-0334.json" --out "$T_DIR/v2-0334"
is "$rc" 0 "OpenBLAS 0.3.34 with TARGET=NEOVERSEV2: written ($err)"
like "$(cat "$T_DIR/v2-0334/setup.sh")" "*run make -C \"\$src\" -j*TARGET='NEOVERSEV2'*" "... and setup.sh builds TARGET=NEOVERSEV2"

# A plan with errors stops unless --force.
python3 - "$plans/$c.json" "$T_DIR/bad.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["problems"].append({"severity": "error", "code": "driver-too-old", "message": "driver 535 cannot run CUDA 12.8", "fix": "install driver 570 or newer"})
json.dump(p, open(sys.argv[2], "w"))
PY
run "$PTBUILD" generate --plan "$T_DIR/bad.json" --out "$T_DIR/bad"
is "$rc" 1 "a plan with errors: exit 1"
like "$err" "*driver 535 cannot run CUDA 12.8 ?driver-too-old?*install driver 570*--force*" "the plan's error and fix are shown"
t_ok "$([ ! -e "$T_DIR/bad" ]; echo $?)" "nothing written for a plan with errors"
run "$PTBUILD" generate --plan "$T_DIR/bad.json" --out "$T_DIR/bad" --force --format env
is "$rc" 0 "--force writes anyway"

# A value docker --env-file cannot carry: an error naming it, nothing written.
python3 - "$plans/$c.json" "$T_DIR/nl.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["env"]["MULTI"] = "two\nlines"
json.dump(p, open(sys.argv[2], "w"))
PY
run "$PTBUILD" generate --plan "$T_DIR/nl.json" --out "$T_DIR/nl"
is "$rc" 3 "a newline in a value for docker.env: exit 3"
like "$err" "*docker.env.in:*'value': docker --env-file cannot carry a value with a newline*" "the message names the template and why"
t_ok "$([ ! -e "$T_DIR/nl" ]; echo $?)" "nothing written when one file cannot be rendered"
run "$PTBUILD" generate --plan "$T_DIR/nl.json" --out "$T_DIR/nl" --format env
is "$rc" 0 "the sh form carries a newline"
MULTI=$(sh -c ". '$T_DIR/nl/ptbuild.env'; printf '%s' \"\$MULTI\"")
is "$MULTI" "two
lines" "... and sh reads it back"

# CMake presets expand ${...} with no escape: such a value stays out of them.
python3 - "$plans/rtx4090.json" "$T_DIR/brace.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["env"]["BRACED"] = "${HOME}/x"
json.dump(p, open(sys.argv[2], "w"))
PY
run "$PTBUILD" generate --plan "$T_DIR/brace.json" --out "$T_DIR/brace" --format env,presets
like "$err" "*CMakePresets.json leaves out BRACED*" "a value with \${ is left out of the presets, with a note"
! grep -q BRACED "$T_DIR/brace/CMakePresets.json" && grep -qx "export BRACED='\${HOME}/x'" "$T_DIR/brace/ptbuild.env"
t_ok $? "... and kept, literally, in ptbuild.env"

# A user's templates/ beside --recipes overrides a shipped template.
mkdir -p "$T_DIR/mine/templates"
printf '# mine\n{%% each env %%}\n{%% name | ident %%}\n{%% end %%}\n' >"$T_DIR/mine/templates/ptbuild.env.in"
run "$PTBUILD" --recipes "$T_DIR/mine" generate --plan "$plans/rtx4090.json" --out "$T_DIR/mine/out" --format env
is "$rc" 0 "override: exit 0"
is "$(head -3 "$T_DIR/mine/out/ptbuild.env")" "# mine
CUDA_HOME
CUDACXX" "override: the user's template is used"
printf '{%% oops %%}\n' >"$T_DIR/mine/templates/ptbuild.env.in"
run "$PTBUILD" --recipes "$T_DIR/mine" generate --plan "$plans/rtx4090.json" --out "$T_DIR/mine/out" --format env
is "$rc" 3 "a broken template: exit 3"
like "$err" "*ptbuild.env.in:1: 'oops' names no filter*" "a broken template: names file and line"

# sccache: launchers for C, C++ and CUDA, and the shared cache settings.
run "$PTBUILD" generate --plan "$plans/rtx4090.json" --out "$T_DIR/sc" --format env,cmake \
	--sccache-bucket my-bucket --sccache-region eu-west-1 --sccache-scheduler https://sched.example:10600
is "$rc" 0 "--sccache-bucket: exit 0"
for v in "SCCACHE_BUCKET='my-bucket'" "SCCACHE_REGION='eu-west-1'" \
	"SCCACHE_DIST_SCHEDULER_URL='https://sched.example:10600'" \
	"CMAKE_C_COMPILER_LAUNCHER='sccache'" "CMAKE_CXX_COMPILER_LAUNCHER='sccache'" \
	"CMAKE_CUDA_COMPILER_LAUNCHER='sccache'" "USE_CCACHE='0'"; do
	grep -qx "export $v" "$T_DIR/sc/ptbuild.env"
	t_ok $? "sccache env: $v"
done
grep -q '^set(CMAKE_CUDA_COMPILER_LAUNCHER "sccache" CACHE STRING' "$T_DIR/sc/initial-cache.cmake"
t_ok $? "sccache: the CUDA launcher is in the CMake cache"
run "$PTBUILD" generate --plan "$plans/rtx4090.json" --out "$T_DIR/sc2" --format env --sccache-redis redis://cache:6379/0
grep -qx "export SCCACHE_REDIS_ENDPOINT='redis://cache:6379/0'" "$T_DIR/sc2/ptbuild.env"
t_ok $? "--sccache-redis sets SCCACHE_REDIS_ENDPOINT"

done_testing
