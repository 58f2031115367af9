#!/bin/sh
# t0115-detect-pyenv.sh - behind pyenv's shim (<root>/shims/python3, a
# script) the python3 a build uses is the version pyenv selects, in
# pyenv's order: $PYENV_VERSION, the nearest .python-version from the
# working directory up, <root>/version; "system" is the next python3 on
# PATH.  Read from files alone, under a sysroot built here.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

S="$T_DIR/sys"
P=/home/u/.pyenv
[ -n "$S" ] && [ "$S" != / ] || exit 1
mkdir -p "$S$P/shims" "$S/usr/bin" "$S/etc"
printf '#!/usr/bin/env bash\nexec pyenv exec python3 "$@"\n' >"$S$P/shims/python3"
chmod +x "$S$P/shims/python3"
for v in 3.11.7 3.12.1; do
	mm=${v%.*}
	mkdir -p "$S$P/versions/$v/bin" "$S$P/versions/$v/lib/python$mm"
	: >"$S$P/versions/$v/bin/python$mm"
	chmod +x "$S$P/versions/$v/bin/python$mm"
	ln -s "python$mm" "$S$P/versions/$v/bin/python3"
done
: >"$S/usr/bin/python3.10"
chmod +x "$S/usr/bin/python3.10"
ln -s python3.10 "$S/usr/bin/python3"
printf '3.11.7\n' >"$S$P/version"
# the working directory, as the same path inside the sysroot
W="$T_DIR/w/project/sub"
mkdir -p "$W" "$S$W"

# python [ENV=VALUE ...]: version|path|from of detect's facts.python, then
# the notes that name pyenv
python() {
	(cd "$W" && env -i PATH="$P/shims:/usr/bin:/bin" PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$@" \
		"$PTBUILD" detect --sysroot "$S" --json) >"$T_DIR/f.json" 2>"$T_DIR/err"
	python3 - "$T_DIR/f.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
p = f.get("python") or {}
print("%s|%s|%s" % (p.get("version"), p.get("path"), p.get("from")))
for n in f.get("notes", []):
    if "pyenv" in n:
        print(n)
PY
}

is "$(python)" "3.11|$P/versions/3.11.7/bin/python3|pyenv" "the global version in <root>/version"
printf '3.12.1\n' >"$S$T_DIR/w/project/.python-version"
is "$(python)" "3.12|$P/versions/3.12.1/bin/python3|pyenv" "a .python-version above the working directory wins"
is "$(python PYENV_VERSION=3.11.7:system)" "3.11|$P/versions/3.11.7/bin/python3|pyenv" "PYENV_VERSION wins over both (its first name)"
printf 'system\n' >"$S$W/.python-version"
is "$(python)" "3.10|/usr/bin/python3|pyenv" "\"system\": the next python3 on PATH"
printf '3.9.18\n' >"$S$W/.python-version"
like "$(python)" "None|$P/shims/python3|PATH
pyenv selects Python 3.9.18 ($W/.python-version), which is not installed in $P/versions: pyenv install 3.9.18*" \
	"a version pyenv does not have: the shim, and a note saying what to install"
printf '../../../usr/bin\n' >"$S$W/.python-version"
is "$(python)" "3.12|$P/versions/3.12.1/bin/python3|pyenv" "a .python-version naming a path is passed over, never followed"
rm -f "$S$W/.python-version" "$S$T_DIR/w/project/.python-version" "$S$P/version"
like "$(python)" "None|$P/shims/python3|PATH
python3 at $P/shims/python3 is pyenv's shim, and no PYENV_VERSION, .python-version or $P/version says which Python it runs*" \
	"nothing selects a version: a note"
done_testing
