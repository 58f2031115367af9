#!/bin/sh
# t0148-detect-python-env.sh - the Python a build uses, with real virtual
# environments made by python3 -m venv: detect takes the python3 first on
# PATH (as pip and setup.py find it) and labels the environment it is the
# interpreter of; a $VIRTUAL_ENV or $CONDA_PREFIX that is set but not on
# PATH is named in a note, not taken; the distribution's /usr/bin/python3
# is reported beside it, labelled, when it is another interpreter; the
# plan's machine.python, its wheel and its Python checks follow the
# build's Python.  A Python of another minor than this machine's is a
# stand-in: a venv whose bin/python3 is a shell script (detect reads files
# only, it never runs it) and whose pyvenv.cfg gives the version.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
SYS=/usr/bin/python3
[ -x "$SYS" ] || skip_all "no $SYS (the distribution's python3)"
"$SYS" -m venv --without-pip "$T_DIR/a" 2>"$T_DIR/venv.err" && "$SYS" -m venv --without-pip "$T_DIR/b" 2>>"$T_DIR/venv.err" ||
	skip_all "python3 -m venv does not work here: $(tail -n 1 "$T_DIR/venv.err")"
xy() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])'; }
SYSV=$(xy "$SYS")
# A keyless PATH of system directories only: no pyenv shim, no other venv
BASEPATH=/usr/bin:/bin

# facts KEY...: the python keys of detect --json, one "key=value" a line
facts() {
	python3 -c '
import json, sys
p = json.load(open(sys.argv[1])).get("python")
def walk(o, pre):
    for k in sorted(o):
        v = o[k]
        if isinstance(v, dict): walk(v, pre + k + ".")
        else: print("%s%s=%s" % (pre, k, v))
walk(p or {}, "")
' "$1"
}
pynotes() { python3 -c 'import json,sys; print("\n".join(n for n in json.load(open(sys.argv[1]))["notes"] if "python3" in n))' "$1"; }

# 1. An activated venv of the system's python3: its interpreter, from
#    VIRTUAL_ENV; no system line (the same interpreter).
env -u CONDA_PREFIX VIRTUAL_ENV="$T_DIR/a" PATH="$T_DIR/a/bin:$BASEPATH" "$PTBUILD" detect --json >"$T_DIR/a.json" 2>/dev/null
f=$(facts "$T_DIR/a.json")
like "$f" "*from=VIRTUAL_ENV*path=$T_DIR/a/bin/python3*version=$SYSV*" "activated venv: its python3, from VIRTUAL_ENV, Python $SYSV (as it says itself)"
unlike "$f" "*system.*" "... no system python3 beside it: the venv runs the same interpreter"

# 2. VIRTUAL_ENV set, but another venv first on PATH (VIRTUAL_ENV left
#    behind, not activated in this shell): pip and setup.py run PATH's
#    python3, so detect takes it and a note names the unused venv.
env -u CONDA_PREFIX VIRTUAL_ENV="$T_DIR/a" PATH="$T_DIR/b/bin:$BASEPATH" "$PTBUILD" detect --json >"$T_DIR/ab.json" 2>/dev/null
f=$(facts "$T_DIR/ab.json")
like "$f" "*from=PATH*path=$T_DIR/b/bin/python3*" "VIRTUAL_ENV not on PATH: PATH's python3 (b), from PATH"
like "$(pynotes "$T_DIR/ab.json")" "*\$VIRTUAL_ENV names $T_DIR/a, but the python3 first on PATH is $T_DIR/b/bin/python3 (Python $SYSV): a build runs that one*. $T_DIR/a/bin/activate*" \
	"... and a note names the venv VIRTUAL_ENV sets and how to activate it"
# the same with CONDA_PREFIX
env -u VIRTUAL_ENV CONDA_PREFIX="$T_DIR/a" PATH="$T_DIR/b/bin:$BASEPATH" "$PTBUILD" detect --json >"$T_DIR/cb.json" 2>/dev/null
like "$(facts "$T_DIR/cb.json")" "*from=PATH*path=$T_DIR/b/bin/python3*" "CONDA_PREFIX not on PATH: PATH's python3"
like "$(pynotes "$T_DIR/cb.json")" "*\$CONDA_PREFIX names $T_DIR/a, but*conda activate $T_DIR/a*" "... and a note names it"
# a venv activated on top of a conda environment: the venv, no note
env VIRTUAL_ENV="$T_DIR/b" CONDA_PREFIX="$T_DIR/a" PATH="$T_DIR/b/bin:$T_DIR/a/bin:$BASEPATH" "$PTBUILD" detect --json >"$T_DIR/bc.json" 2>/dev/null
like "$(facts "$T_DIR/bc.json")" "*from=VIRTUAL_ENV*path=$T_DIR/b/bin/python3*" "a venv over a conda environment: the venv's python3"
is "$(pynotes "$T_DIR/bc.json")" "" "... and no note"
# no python3 on PATH at all: the environment VIRTUAL_ENV names
mkdir "$T_DIR/nopy"
env -u CONDA_PREFIX VIRTUAL_ENV="$T_DIR/a" PATH="$T_DIR/nopy" "$PTBUILD" detect --json >"$T_DIR/nopy.json" 2>/dev/null
like "$(facts "$T_DIR/nopy.json")" "*from=VIRTUAL_ENV*path=$T_DIR/a/bin/python3*" "no python3 on PATH: VIRTUAL_ENV's"

# 3. A venv of another Python (the stand-in, 3.13 or 3.12 whichever is
#    not the system's): its version from pyvenv.cfg; the system's
#    python3 reported beside it, labelled, with its own version.
other=3.13
[ "$SYSV" = 3.13 ] && other=3.12
mkdir -p "$T_DIR/o/bin"
printf '#!/bin/sh\n# a stand-in python3 for t0148: detect never runs it\nexit 1\n' >"$T_DIR/o/bin/python3"
chmod +x "$T_DIR/o/bin/python3"
printf 'home = /opt/python%s/bin\ninclude-system-site-packages = false\nversion = %s.1\n' "$other" "$other" >"$T_DIR/o/pyvenv.cfg"
env -u CONDA_PREFIX VIRTUAL_ENV="$T_DIR/o" PATH="$T_DIR/o/bin:$BASEPATH" "$PTBUILD" detect --json >"$T_DIR/o.json" 2>/dev/null
f=$(facts "$T_DIR/o.json")
like "$f" "*from=VIRTUAL_ENV*path=$T_DIR/o/bin/python3*source=pyvenv.cfg*version=$other*" "a venv of Python $other: its version from pyvenv.cfg"
like "$f" "*system.path=$SYS*system.version=$SYSV*" "... and the system's python3 beside it: $SYS, Python $SYSV"
env -u CONDA_PREFIX VIRTUAL_ENV="$T_DIR/o" PATH="$T_DIR/o/bin:$BASEPATH" "$PTBUILD" detect >"$T_DIR/o.txt" 2>/dev/null
like "$(cat "$T_DIR/o.txt")" "*python    $other at $T_DIR/o/bin/python3 \\[VIRTUAL_ENV\\]
python    $SYSV at $SYS*\\[system: not the one a build uses\\]*" "detect's summary: the build's python3 first, the system's labelled"

# 4. The plan follows the build's Python: machine.python, the wheel's
#    Python check and python-too-old; the system's plays no part.
env -u CONDA_PREFIX VIRTUAL_ENV="$T_DIR/o" PATH="$T_DIR/o/bin:$BASEPATH" "$PTBUILD" plan --facts "$T_DIR/o.json" --json >"$T_DIR/o.plan" 2>/dev/null
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["machine"].get("python"))' "$T_DIR/o.plan")" "$other" \
	"plan: machine.python is the venv's $other, not the system's $SYSV"
json_edit "$T_DIR/o.json" "$T_DIR/old.json" "f['python']['version'] = '3.6'"
run "$PTBUILD" plan --facts "$T_DIR/old.json"
like "$out" "*python-too-old*python3 3.6 ($T_DIR/o/bin/python3)*" "a venv of Python 3.6 over a newer system python3: python-too-old names the venv's"

# 5. The facts contract: a saved python.system is held to its form.
json_edit "$T_DIR/o.json" "$T_DIR/bad.json" "f['python']['system']['version'] = '3.11.2'"
run "$PTBUILD" plan --facts "$T_DIR/bad.json"
like "$rc:$err" "2:*key 'python.system.version'*" "a python.system.version not X.Y: exit 2 naming the key"
json_edit "$T_DIR/o.json" "$T_DIR/bad2.json" "f['python']['system'] = '/usr/bin/python3'"
run "$PTBUILD" plan --facts "$T_DIR/bad2.json"
like "$rc:$err" "2:*key 'python.system'*" "a python.system not an object: exit 2 naming the key"

done_testing
