#!/bin/sh
# t0505-generate-hostile.sh - a saved plan is input like any other.  The
# fields issue #16 found rendered unquoted into setup.sh (package names,
# manager, OpenBLAS version and target, max_jobs) each carry a command
# substitution: generate must refuse the plan naming the key, write
# nothing, and nothing may run.  Then tests/fuzz/plan_fuzz.py puts shell,
# Dockerfile, CMake and workflow metacharacters into random values of real
# plans and checks every output with its consumer (PTB_FUZZ_PLANS sets how
# many plans; 400 by default).
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v dash >/dev/null 2>&1 || skip_all "dash is not installed (setup.sh installs it)"

base="$T_DIR/gh200.plan.json"
"$PTBUILD" -q plan --profile gh200 --json >"$base" 2>/dev/null
python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); assert p["openblas"]["via"] == "source"' "$base"
t_ok $? "the gh200 plan builds OpenBLAS from source (so setup.sh renders its version and target)"

# hostile KEY PYTHON-EXPRESSION-SETTING-IT
hostile() {
	name=$1
	mkdir -p "$T_DIR/$name"
	python3 - "$base" "$T_DIR/$name/plan.json" "$2" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(p, open(sys.argv[2], "w"))
PY
	(cd "$T_DIR/$name" && "$PTBUILD" generate --plan plan.json --out out >stdout 2>stderr)
	rc=$?
	is "$rc" 2 "$name: generate refuses the plan (exit 2)"
	like "$(cat "$T_DIR/$name/stderr")" "*plan.json' is not a valid plan: key '$3'*" "$name: the message names the key"
	t_ok "$([ ! -e "$T_DIR/$name/out" ]; echo $?)" "$name: nothing written"
	# Were it written, the dry run is where the command would have run.
	if [ -f "$T_DIR/$name/out/setup.sh" ]; then
		(cd "$T_DIR/$name" && PATH="/nonexistent:$PATH" sh out/setup.sh --dry-run >/dev/null 2>&1)
	fi
	t_ok "$([ ! -e "$T_DIR/$name/PWNED" ]; echo $?)" "$name: no command from the plan ran"
}
hostile packages 'p["packages"]["names"][3] = "ninja-build$(touch PWNED)"' 'packages.names\[3\]'
hostile manager 'p["packages"]["manager"] = "apt$(touch PWNED)"' 'packages.manager'
hostile openblas-version 'p["openblas"]["version"] = "0.3.28\"; touch PWNED; \""' 'openblas.version'
hostile openblas-target 'p["openblas"]["target"] = "ARMV8 `touch PWNED`"' 'openblas.target'
hostile max-jobs 'p["max_jobs"] = "2; touch PWNED"' 'max_jobs'
# the appended flag's index: after the plan's own make flags
nflags=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["openblas"]["make_flags"]))' "$base")
hostile make-flags 'p["openblas"]["make_flags"].append("X=$(touch PWNED)")' "openblas.make_flags\\[$nflags\\]"
hostile download-url 'p["cuda"]["docker_downloads"][0]["url"] += "\nRUN touch PWNED"' 'cuda.docker_downloads\[0\].url'
hostile sha256 'p["openblas"]["sha256"] = "f1003466 $(touch PWNED)"' 'openblas.sha256'
hostile path-entry 'p["path_prepend"]["PATH"].append("/opt/x:/tmp")' 'path_prepend.PATH\[1\]'
hostile acl-url 'p["acl"]["url"] = "https://x/a.tar.gz$(touch PWNED)"' 'acl.url'
hostile acl-sha256 'p["acl"]["sha256"] = "1bceef23 `touch PWNED`"' 'acl.sha256'
hostile control 'p["facts_source"] = "x\rRUN touch PWNED"' 'facts_source'
hostile jetpack-repo 'p["cuda"]["jetpack_repo"] = "https://x/a.deb$(touch PWNED)"' 'cuda.jetpack_repo'
hostile cuda-origin 'p["cuda"]["origin"] = "JetPack\033[2J$(touch PWNED)"' 'cuda.origin'

# An escaped NUL would cut the value short where the file says more.
printf '{"schema": "ptbuild.plan/1", "facts_source": "a\\u0000b"}' >"$T_DIR/nul.json"
run "$PTBUILD" generate --plan "$T_DIR/nul.json" --out "$T_DIR/nul"
is "$rc" 2 "a plan with \\u0000 in a string: exit 2"
like "$err" "*nul.json' holds a string with \\\\u0000*" "... saying so"

# generate's own options, by form.
run "$PTBUILD" generate --plan "$base" --out "$T_DIR/o" --base-digest sha256:0123
is "$rc" 2 "--base-digest sha256:0123 is refused (64 hex digits)"
run "$PTBUILD" generate --plan "$base" --out "$T_DIR/o" --torch-ref 'v2.14.1;touch PWNED'
is "$rc" 2 "a --torch-ref that is no git ref is refused"
run "$PTBUILD" generate --plan "$base" --out "$T_DIR/o" --base-image 'ubuntu:22.04 AS x'
is "$rc" 2 "a --base-image that is no image reference is refused"
t_ok "$([ ! -e "$T_DIR/o" ]; echo $?)" "... and nothing written"

# Random hostile values through every template, each output checked by
# its consumer.
"$PTBUILD" -q plan --profile rtx4090-workstation --json >"$T_DIR/rtx.plan.json" 2>/dev/null
mkdir -p "$T_DIR/fuzz"
python3 "$top_srcdir/tests/fuzz/plan_fuzz.py" "$PTBUILD" "$T_DIR/fuzz" "${PTB_FUZZ_PLANS:-400}" 16 \
	"$base" "$T_DIR/rtx.plan.json" "$top_srcdir"/tests/fixtures/plans-in/*.json >"$T_DIR/fuzz.log" 2>&1
t_ok $? "fuzzed plans: no command ran, every written output reads back as the plan says"
sed 's/^/# /' "$T_DIR/fuzz.log" | tail -n 20

done_testing
