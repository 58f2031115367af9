#!/bin/sh
# t0513-workflow-steps.sh - the generated GitHub workflow's own ptbuild
# steps, run by a real shell in the order the job runs them, with the
# workflow's env: detect, plan, fetch, validate and generate must each
# take the options the workflow gives them.  YAML parsing alone proved
# only the file's form: the fetch step passed --arch-list, which fetch
# has never taken (exit 2 on the runner, after configure).  The one
# change to a step: fetch gets --dry-run (no network in tests); validate
# compiles for real with this machine's nvcc where it has one.
. "$top_srcdir/tests/lib.sh"

if ! python3 -c 'import yaml' 2>/dev/null; then
	skip_all "python3-yaml is not installed (apt-get install python3-yaml)"
fi

plans="$top_srcdir/tests/fixtures/plans-in"
bindir=$(dirname "$PTBUILD")
nvcc_home=
for h in "${CUDA_HOME:-}" /usr/local/cuda; do
	[ -n "$h" ] && [ -x "$h/bin/nvcc" ] && { nvcc_home=$h; break; }
done

# A plan with an error that every runner's plan repeats (PyTorch 2.14
# does not build with CUDA 11.8), written with generate
# --force: the job's fetch and generate, which refuse such a plan, must
# be told --force as setup.sh and the fleet workflow are.
"$PTBUILD" plan --facts "$top_srcdir/tests/fixtures/facts/bare-x86.json" --torch 2.14 --cuda 11.8 \
	--arch-list 8.9 --json >"$T_DIR/forced.json" 2>/dev/null
is "$?" 1 "forced: the plan has an error (exit 1)"

for c in ci-multiarch rtx4090 forced; do
	d="$T_DIR/$c"
	if [ "$c" = forced ]; then
		"$PTBUILD" -q generate --plan "$T_DIR/forced.json" --out "$d/gen" --force >/dev/null 2>&1
	else
		"$PTBUILD" -q generate --plan "$plans/$c.json" --out "$d/gen" >/dev/null 2>&1
	fi
	t_ok $? "$c: generate writes the workflow"
	mkdir -p "$d/job" "$d/runner"
	# each step that runs ptbuild, as a shell script with the workflow's env
	python3 - "$d/gen/.github/workflows/ptbuild.yml" "$d/job" "$d/runner" >"$T_DIR/steps" 2>&1 <<'PY'
import shlex, sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
env = dict(w.get("env", {}))
env["RUNNER_TEMP"] = sys.argv[3]
n = 0
for s in w["jobs"]["build"]["steps"]:
    run = s.get("run", "")
    if not run.startswith("ptbuild "):
        continue
    if run.startswith("ptbuild fetch"):
        run += " --dry-run"
    n += 1
    with open("%s/%02d.sh" % (sys.argv[2], n), "w") as f:
        f.write("# %s\n" % s["name"])
        for k, v in env.items():
            f.write("export %s=%s\n" % (k, shlex.quote(str(v))))
        f.write(run + "\n")
print(n)
PY
	is "$(cat "$T_DIR/steps")" "5" "$c: five ptbuild steps (detect, plan, fetch, validate, generate)"
	if [ -n "$nvcc_home" ]; then
		ln -s "$nvcc_home" "$d/runner/cuda"
	fi
	for f in "$d/job"/*.sh; do
		name=$(sed -n '1s/^# //p' "$f")
		case $name in
		Validate*) [ -n "$nvcc_home" ] || { skip "$c: step '$name'" "no nvcc on this machine (CUDA_HOME, /usr/local/cuda)"; continue; } ;;
		esac
		(cd "$d/job" && PATH="$bindir:$PATH" sh -e "$f") >"$d/out" 2>&1
		st=$?
		sed 's/^/# /' "$d/out" | tail -5
		t_ok $st "$c: step '$name' runs (exit 0)"
		unlike "$(cat "$d/out")" "*unknown option*" "$c: step '$name': every option is one the command takes"
	done
	[ -s "$d/job/plan.json" ] && [ -f "$d/job/ptbuild-out/Dockerfile" ]
	t_ok $? "$c: the job's plan.json and the generated Dockerfile exist"
done

done_testing
