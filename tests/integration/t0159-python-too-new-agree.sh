#!/bin/sh
# t0159-python-too-new-agree.sh - plan, doctor (in a checkout of the
# release) and generate (for a base image with that Python) give one
# verdict on a Python newer than a PyTorch release builds with: an error,
# the rule of lib/checks.lua python_newer (its C++ does not compile there
# [pt156595]); and the plan's wheel block does not offer a source build
# "for Python X.Y" as a gain where that build fails.  Before the rule was
# shared, generate refused Python 3.13 for PyTorch 2.4, doctor only warned
# and plan said nothing, and even sold a source build for it.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

R="$T_DIR/root"
mkdir -p "$R/proc" "$R/src/pytorch/torch" "$R/src/pytorch/.git" "$T_DIR/img/data"
printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\n' >"$R/proc/cpuinfo"
printf 'print("setup")\n' >"$R/src/pytorch/setup.py"

# verdicts PY RELEASE CUDA: the python-too-new severity ("none" if not
# raised) of plan, doctor and generate, as "plan doctor generate"
verdicts() {
	json_edit "$top_srcdir/recipes/profiles/dgx-h100.json" "$T_DIR/f.json" \
		"f.pop('profile', None); f['python'] = {'version': '$1', 'path': '/usr/bin/python3'}"
	"$PTBUILD" plan --facts "$T_DIR/f.json" --torch "$2" --cuda "$3" --json >"$T_DIR/p.json" 2>"$T_DIR/p.err"
	vp=$(findings "$T_DIR/p.json" python-too-new severity)
	printf '%s.0\n' "$2" >"$R/src/pytorch/version.txt"
	env -i PATH=/nonexistent "$PTBUILD" doctor --sysroot "$R" --facts "$T_DIR/f.json" --source /src/pytorch --json >"$T_DIR/d.json" 2>"$T_DIR/d.err"
	vd=$(findings "$T_DIR/d.json" python-too-new severity)
	cat >"$T_DIR/img/data/image.lua" <<LUA
local d = ptb.include_next("data/image")
for _, b in ipairs(d.bases) do if b.image == "ubuntu:22.04" then b.python = "$1" end end
return d
LUA
	# the image is judged: the host's facts without a python3
	json_edit "$top_srcdir/recipes/profiles/dgx-h100.json" "$T_DIR/g.json" "f.pop('profile', None)"
	rm -rf "$T_DIR/gen"
	run "$PTBUILD" --recipes "$T_DIR/img" generate --facts "$T_DIR/g.json" --torch "$2" --cuda "$3" \
		--base-image ubuntu:22.04 --out "$T_DIR/gen" --format dockerfile
	case "$rc:$err" in
	1:*"has Python $1, newer than PyTorch $2 builds with"*) vg=error ;;
	0:*) vg=none ;;
	*) vg="rc=$rc: $err" ;;
	esac
	echo "${vp:-none} ${vd:-none} $vg"
}

# PYTHON|RELEASE|CUDA|VERDICT, from data/pytorch.lua's ranges [pt-python]:
# 2.4 3.8-3.12, 2.5 3.9-3.12 (3.13 experimental, published), 2.9 3.10-3.14
n=0
while IFS='|' read -r py rel cuda want; do
	[ -n "$py" ] || continue
	got=$(verdicts "$py" "$rel" "$cuda")
	is "$got" "$want $want $want" "Python $py with PyTorch $rel: plan, doctor and generate all say $want"
	if [ "$want" = error ]; then
		adds=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("wheel", {}).get("source_build_adds"))' "$T_DIR/p.json")
		unlike "$adds" "*a build for Python $py*" "... and the plan does not sell a source build for Python $py ($adds)"
		like "$(findings "$T_DIR/p.json" python-too-new message fix)" \
			"*python3 $py (/usr/bin/python3) is newer than PyTorch $rel builds with*does not compile*|*virtual environment of Python*" \
			"... its message says why and what to do"
	fi
	n=$((n + 1))
done <<'ROWS'
3.13|2.4|12.4|error
3.12|2.4|12.4|none
3.13|2.5|12.4|none
3.14|2.5|12.4|error
3.14|2.9|12.8|none
3.15|2.9|12.8|error
ROWS
[ "$n" -eq 6 ]
t_ok $? "every row was judged ($n)"
done_testing
