#!/bin/sh
# t0502-generate-env.sh - every env form consumed for real: bash, dash and
# zsh source ptbuild.env, direnv loads .envrc, and docker.env / github.env
# are read by the rules of `docker run --env-file` and $GITHUB_ENV; each
# variable must equal the plan's value (spaces, quotes, $, backslashes,
# tabs).  shellcheck checks every generated shell file.
. "$top_srcdir/tests/lib.sh"

plans="$top_srcdir/tests/fixtures/plans-in"

# expect PLAN: the plan's env as NAME=value lines, in the plan's order.
expect() {
	python3 - "$1" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
for k, v in p["env"].items():
    print("%s=%s" % (k, v))
PY
}
# names PLAN: a shell snippet printing each of the plan's variables.
printer() {
	python3 - "$1" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
for k in p["env"]:
    print("printf '%%s=%%s\\n' %s \"$%s\"" % (k, k))
PY
}

base_path=/usr/bin:/bin
for c in ci-multiarch gh200; do
	plan="$plans/$c.json"
	dir="$T_DIR/$c"
	run "$PTBUILD" generate --plan "$plan" --out "$dir"
	is "$rc" 0 "$c: generate"
	expect "$plan" >"$T_DIR/want"
	printer "$plan" >"$T_DIR/print.sh"
	first=$(python3 -c 'import json,sys; print(":".join(json.load(open(sys.argv[1]))["path_prepend"]["PATH"]))' "$plan")
	ld=$(python3 -c 'import json,sys; print(":".join(json.load(open(sys.argv[1]))["path_prepend"]["LD_LIBRARY_PATH"]))' "$plan")

	for sh in bash dash zsh; do
		if ! command -v "$sh" >/dev/null 2>&1; then
			skip "$c: $sh sources ptbuild.env" "$sh is not installed"
			continue
		fi
		env -i PATH="$base_path" "$sh" -c ". '$dir/ptbuild.env'; . '$T_DIR/print.sh'" >"$T_DIR/got" 2>&1
		diff -u "$T_DIR/want" "$T_DIR/got" >"$T_DIR/diff"
		t_ok $? "$c: $sh sources ptbuild.env: every value equals the plan's"
		sed 's/^/# /' "$T_DIR/diff"
		got=$(env -i PATH="$base_path" LD_LIBRARY_PATH=/old/lib "$sh" -c ". '$dir/ptbuild.env'; . '$dir/ptbuild.env'; printf '%s|%s' \"\$PATH\" \"\$LD_LIBRARY_PATH\"")
		is "$got" "$first:$base_path|$ld:/old/lib" "$c: $sh: sourcing twice puts the plan's dirs first once, keeps the rest"
	done
	# Entries already present move to the front instead of repeating.
	got=$(env -i PATH="$base_path:$first" sh -c ". '$dir/ptbuild.env'; printf '%s' \"\$PATH\"")
	is "$got" "$first:$base_path" "$c: a dir already in PATH is not repeated"
	got=$(env -i PATH="$base_path" sh -c "unset LD_LIBRARY_PATH; . '$dir/ptbuild.env'; printf '%s' \"\$LD_LIBRARY_PATH\"")
	is "$got" "$ld" "$c: an unset LD_LIBRARY_PATH gets no empty entry"

	# direnv, for real.
	if command -v direnv >/dev/null 2>&1; then
		mkdir -p "$T_DIR/home-$c"
		env -i PATH="$base_path" HOME="$T_DIR/home-$c" XDG_CONFIG_HOME="$T_DIR/home-$c" \
			XDG_DATA_HOME="$T_DIR/home-$c" direnv allow "$dir" >/dev/null 2>&1
		env -i PATH="$base_path" HOME="$T_DIR/home-$c" XDG_CONFIG_HOME="$T_DIR/home-$c" \
			XDG_DATA_HOME="$T_DIR/home-$c" direnv exec "$dir" sh "$T_DIR/print.sh" >"$T_DIR/got" 2>"$T_DIR/direnv.err"
		diff -u "$T_DIR/want" "$T_DIR/got" >"$T_DIR/diff"
		st=$?
		t_ok $st "$c: direnv loads .envrc: every value equals the plan's"
		[ "$st" -eq 0 ] || sed 's/^/# /' "$T_DIR/diff" "$T_DIR/direnv.err" | head -20
		got=$(env -i PATH="$base_path" HOME="$T_DIR/home-$c" XDG_CONFIG_HOME="$T_DIR/home-$c" \
			XDG_DATA_HOME="$T_DIR/home-$c" direnv exec "$dir" sh -c 'printf %s "$PATH"' 2>/dev/null)
		like "$got" "$first:*" "$c: direnv puts the plan's dirs first in PATH"
	else
		skip "$c: direnv loads .envrc" "direnv is not installed"
		skip "$c: direnv PATH" "direnv is not installed"
	fi

	# docker run --env-file: kvfile.go's rules (docker/cli pkg/kvfile):
	# lines trimmed on the left, '#' lines skipped, split at the first '=',
	# value taken as is.  No docker daemon here: the rules, faithfully.
	python3 - "$dir/docker.env" "$plan" >"$T_DIR/docker.check" 2>&1 <<'PY'
import json, sys
got = {}
for line in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    line = line.lstrip()
    if not line or line.startswith("#"):
        continue
    k, sep, v = line.partition("=")
    assert sep and k and " " not in k and "\t" not in k, "bad line %r" % line
    got[k] = v
p = json.load(open(sys.argv[2]))
for k, v in p["env"].items():
    assert got.get(k) == v, "%s: %r != %r" % (k, got.get(k), v)
assert got["PATH"].startswith(":".join(p["path_prepend"]["PATH"]) + ":"), got["PATH"]
assert got["LD_LIBRARY_PATH"] == ":".join(p["path_prepend"]["LD_LIBRARY_PATH"])
print("ok")
PY
	t_ok $? "$c: docker.env read as docker --env-file reads it equals the plan"
	sed 's/^/# /' "$T_DIR/docker.check" | grep -v '^# ok$'

	# $GITHUB_ENV and $GITHUB_PATH: NAME=value lines, one dir a line.
	python3 - "$dir/github.env" "$dir/github.path" "$plan" >"$T_DIR/gh.check" 2>&1 <<'PY'
import json, sys
got = dict(l.split("=", 1) for l in open(sys.argv[1]).read().splitlines())
p = json.load(open(sys.argv[3]))
for k, v in p["env"].items():
    assert got.get(k) == v, "%s: %r != %r" % (k, got.get(k), v)
assert open(sys.argv[2]).read().splitlines() == p["path_prepend"]["PATH"]
print("ok")
PY
	t_ok $? "$c: github.env and github.path carry the plan's values"
	sed 's/^/# /' "$T_DIR/gh.check" | grep -v '^# ok$'

	if command -v shellcheck >/dev/null 2>&1; then
		shellcheck -s sh "$dir/ptbuild.env" "$dir/setup.sh" >"$T_DIR/sc" 2>&1
		t_ok $? "$c: shellcheck -s sh ptbuild.env setup.sh"
		shellcheck -s bash "$dir/.envrc" >>"$T_DIR/sc" 2>&1
		t_ok $? "$c: shellcheck -s bash .envrc (direnv runs bash)"
		sed 's/^/# /' "$T_DIR/sc" | head -20
	else
		skip "$c: shellcheck" "shellcheck is not installed"
		skip "$c: shellcheck .envrc" "shellcheck is not installed"
	fi
done

done_testing
