#!/bin/sh
# t0158-plan-python-packages.sh - the plan's distribution packages follow
# the Python the build runs: python3-dev and python3-venv (python3-devel
# on dnf) serve the distribution's /usr/bin/python3 only, so a plan keeps
# them where the build runs it (or a venv of it, or the facts do not say)
# and drops them, with a note that says what that Python has or needs
# instead, for a conda environment's, one pyenv built, or any other; the
# setup script ptbuild generate writes installs what the plan says.  Last,
# end to end: detect of a stand-in conda environment (its python3 a
# script, its lib/python3.X giving the version; detect reads files only).
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
cd "$top_srcdir" || exit 1

base=recipes/profiles/dgx-h100.json
# py NAME PYTHON-DICT [BASE]: the profile with facts python set to it
py() { json_edit "${3:-$base}" "$T_DIR/$1.json" "f.pop('profile', None); f['python'] = $2"; }
SYS="'system': {'version': '3.10', 'path': '/usr/bin/python3', 'real': '/usr/bin/python3.10', 'source': '/usr/bin/python3.10'}"
py system "{'version': '3.10', 'path': '/usr/bin/python3', 'real': '/usr/bin/python3.10', 'from': 'PATH', 'source': '/usr/bin/python3.10'}"
py venv-sys "{'version': '3.10', 'path': '/w/.venv/bin/python3', 'real': '/usr/bin/python3.10', 'from': 'VIRTUAL_ENV', 'source': '/usr/bin/python3.10'}"
py conda "{'version': '3.12', 'path': '/opt/conda/envs/b/bin/python3', 'real': '/opt/conda/envs/b/bin/python3.12', 'from': 'CONDA_PREFIX', 'source': '/opt/conda/envs/b/bin/python3.12', $SYS}"
py miniforge "{'version': '3.12', 'path': '/home/u/miniforge3/bin/python3', 'real': '/home/u/miniforge3/bin/python3.12', 'from': 'PATH', 'source': '/home/u/miniforge3/bin/python3.12', $SYS}"
py pyenv "{'version': '3.11', 'path': '/home/u/.pyenv/versions/3.11.7/bin/python3', 'real': '/home/u/.pyenv/versions/3.11.7/bin/python3.11', 'from': 'pyenv', 'source': '/home/u/.pyenv/versions/3.11.7/bin/python3.11', $SYS}"
py venv-pyenv "{'version': '3.11', 'path': '/w/.venv/bin/python3', 'real': '/home/u/.pyenv/versions/3.11.7/bin/python3.11', 'from': 'VIRTUAL_ENV', 'source': '/home/u/.pyenv/versions/3.11.7/bin/python3.11', $SYS}"
py local "{'version': '3.13', 'path': '/usr/local/bin/python3', 'real': '/usr/local/bin/python3.13', 'from': 'PATH', 'source': '/usr/local/bin/python3.13', $SYS}"
py conda-rhel "{'version': '3.12', 'path': '/opt/conda/bin/python3', 'real': '/opt/conda/bin/python3.12', 'from': 'PATH', 'source': '/opt/conda/bin/python3.12'}" tests/fixtures/facts/rhel8-gcc8.json
cp "$base" "$T_DIR/unknown.json"

# pk FILE: "names|note" of the plan's packages
pk() {
	python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["packages"]
print(" ".join(p["names"]) + "|" + (p.get("note") or ""))' "$1"
}
apt_all="build-essential cmake git ninja-build patchelf python3-dev python3-venv"
apt_no="build-essential cmake git ninja-build patchelf"
while IFS='|' read -r name names note; do
	[ -n "$name" ] || continue
	"$PTBUILD" plan --facts "$T_DIR/$name.json" --json >"$T_DIR/p.json" 2>/dev/null
	got=$(pk "$T_DIR/p.json")
	eval "want_names=\"$names\""
	is "${got%%|*}" "$want_names" "$name: packages $want_names"
	like "${got#*|}" "$note" "$name: note ${note:-none}"
done <<'ROWS'
system|$apt_all|
venv-sys|$apt_all|
unknown|$apt_all|
conda|$apt_no|no python3-dev and python3-venv: the build's Python is a conda environment's (/opt/conda/envs/b/bin/python3.12), which has its own headers (include/python3.12/Python.h) and venv module; python3-dev and python3-venv serve the distribution's /usr/bin/python3, not the build's
miniforge|$apt_no|no python3-dev and python3-venv: the build's Python is a conda environment's (/home/u/miniforge3/bin/python3.12)*
pyenv|$apt_no|no python3-dev and python3-venv: the build's Python is one pyenv built (/home/u/.pyenv/versions/3.11.7/bin/python3.11), with its own headers (include/python3.11/Python.h) and venv module*
venv-pyenv|$apt_no|no python3-dev and python3-venv: the build's Python is one pyenv built (/home/u/.pyenv/versions/3.11.7/bin/python3.11)*
local|$apt_no|no python3-dev and python3-venv: the build's Python (/usr/local/bin/python3.13) is not the distribution's; python3-dev and python3-venv serve the distribution's /usr/bin/python3, not the build's: it needs its own headers (include/python3.13/Python.h beside it) and venv module
conda-rhel|cmake gcc-c++ git ninja-build patchelf|no python3-devel: the build's Python is a conda environment's (/opt/conda/bin/python3.12)*python3-devel serves the distribution's /usr/bin/python3, not the build's
ROWS

# the text plan says it under the packages decision
run "$PTBUILD" plan --facts "$T_DIR/conda.json"
like "$out" "*packages       apt: $apt_no
                   build tools from the distribution; no python3-dev and python3-venv: the build's Python is a conda environment's*" \
	"conda: the text plan's packages line and its note"

# generate's setup script installs what the plan lists
for m in system conda; do
	"$PTBUILD" plan --facts "$T_DIR/$m.json" --json >"$T_DIR/$m.plan.json" 2>/dev/null
	"$PTBUILD" generate --plan "$T_DIR/$m.plan.json" --out "$T_DIR/gen-$m" >/dev/null 2>&1
done
like "$(grep '^packages=' "$T_DIR/gen-system/setup.sh")" "*python3-dev*" "setup.sh of the system Python: python3-dev"
is "$(grep '^packages=' "$T_DIR/gen-conda/setup.sh")" "packages=\"$apt_no\"" "setup.sh of the conda Python: no python3-dev"

# a saved plan whose packages.note is not one line of text is refused
json_edit "$T_DIR/conda.plan.json" "$T_DIR/bad.json" "f['packages']['note'] = 5"
run "$PTBUILD" generate --plan "$T_DIR/bad.json" --out "$T_DIR/gen-bad"
is "$rc" 2 "a plan whose packages.note is a number: generate exits 2"
like "$err" "*key 'packages.note': expected one line of text*" "... naming the key"

# End to end: detect of a conda environment's python3 ($CONDA_PREFIX on
# PATH), beside the distribution's /usr/bin/python3
[ -x /usr/bin/python3 ] || skip_all "no /usr/bin/python3 (the distribution's python3)"
env_dir="$T_DIR/miniconda3/envs/torch"
mkdir -p "$env_dir/bin" "$env_dir/lib/python3.12" "$env_dir/conda-meta"
printf '#!/bin/sh\nexit 0\n' >"$env_dir/bin/python3.12"
chmod +x "$env_dir/bin/python3.12"
ln -s python3.12 "$env_dir/bin/python3"
env -u VIRTUAL_ENV CONDA_PREFIX="$env_dir" PATH="$env_dir/bin:/usr/bin:/bin" "$PTBUILD" detect --json >"$T_DIR/me.json" 2>/dev/null
like "$(python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["python"]; print(p["from"], p["path"], "system" in p)' "$T_DIR/me.json")" \
	"CONDA_PREFIX $env_dir/bin/python3 True" "detect: the conda environment's python3, from CONDA_PREFIX, the distribution's beside it"
"$PTBUILD" plan --facts "$T_DIR/me.json" --json >"$T_DIR/p.json" 2>/dev/null
got=$(pk "$T_DIR/p.json")
if python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["packages"]["manager"] is None)' "$T_DIR/p.json"; then
	unlike "${got%%|*}" "*python3-dev*" "plan of it: no python3-dev or python3-devel"
	like "${got#*|}" "no python3-dev*: the build's Python is a conda environment's ($env_dir/bin/python3.12)*" "... and the note names it"
else
	skip "plan of the detected conda environment" "this machine's distribution has no package manager ptbuild knows"
fi

done_testing
