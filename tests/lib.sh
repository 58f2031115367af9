# lib.sh - TAP helpers for the shell integration tests (POSIX sh).
# Each test sources this, calls `run CMD...` and asserts with `is`, `like`,
# `ok`; `skip_all REASON` exits 77-style through TAP's "1..0 # SKIP".
: "${PTBUILD:?run through make check}"
: "${TEST_TMPDIR:=${TMPDIR:-/tmp}}"
T_N=0
T_FAILED=0
T_DIR=$(mktemp -d "$TEST_TMPDIR/$(basename "$0" .sh).XXXXXX")
export NO_COLOR=1

t_ok() { # CONDITION-STATUS NAME
	T_N=$((T_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $T_N - $2"
	else
		T_FAILED=$((T_FAILED + 1))
		echo "not ok $T_N - $2"
	fi
}

# nvcc_toolkit NVCC: the root of the toolkit NVCC really runs from, by
# nvcc's own report (its --dryrun "TOP="), so that a wrapper script such as
# /usr/local/bin/nvcc (`exec /usr/local/cuda-13.0/bin/nvcc "$@"`) gives the
# toolkit, not /usr/local; physical path; fails when nvcc names none.
nvcc_toolkit() {
	_top=$("$1" --dryrun -c -x cu /dev/null -o /dev/null 2>&1 | sed -n 's/^#\$ TOP=//p' | head -1)
	[ -n "$_top" ] && [ -d "$_top/include" ] && (cd "$_top" && pwd -P)
}

# run CMD... : sets $out, $err, $rc
run() {
	"$@" >"$T_DIR/out" 2>"$T_DIR/err"
	rc=$?
	out=$(cat "$T_DIR/out")
	err=$(cat "$T_DIR/err")
}

is() { # GOT WANT NAME
	if [ "$1" = "$2" ]; then
		t_ok 0 "$3"
	else
		t_ok 1 "$3"
		printf '%s\n' "#   got:  $1" "#   want: $2"
	fi
}

like() { # GOT GLOB NAME   (GLOB as in case)
	case "$1" in
	$2) t_ok 0 "$3" ;;
	*) t_ok 1 "$3"; printf '%s\n' "#   got:     $1" "#   pattern: $2" ;;
	esac
}

unlike() { # GOT GLOB NAME: GOT does not match GLOB
	case "$1" in
	$2) t_ok 1 "$3"; printf '%s\n' "#   got:     $1" "#   unwanted: $2" ;;
	*) t_ok 0 "$3" ;;
	esac
}

json_edit() { # IN OUT PYTHON: OUT is JSON file IN with PYTHON run on it as f
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(f, open(sys.argv[2], "w"))
PY
}

with_python() { # PROFILE-JSON OUT VERSION: the facts with python3 VERSION
	json_edit "$1" "$2" "f.pop('profile', None); f['python'] = {'version': '$3', 'path': '/usr/bin/python3', 'real': '/usr/bin/python$3', 'from': 'PATH', 'source': '/usr/bin/python$3'}"
}

plan_rows() { # CODES: for each stdin row FACTS|TORCH|CUDA|WANT|TEXT, plan
	# $T_DIR/FACTS.json (CUDA empty: chosen); CODES PLAN.json must print
	# WANT, and the text plan must contain TEXT (a glob)
	while IFS='|' read -r facts torch cuda want text; do
		[ -n "$facts" ] || continue
		"$PTBUILD" plan --facts "$T_DIR/$facts.json" --torch "$torch" ${cuda:+--cuda "$cuda"} --json >"$T_DIR/p.json" 2>/dev/null
		is "$("$1" "$T_DIR/p.json")" "$want" "$facts, PyTorch $torch, --cuda ${cuda:-(chosen)}: $want"
		run "$PTBUILD" plan --facts "$T_DIR/$facts.json" --torch "$torch" ${cuda:+--cuda "$cuda"}
		like "$out" "*$text*" "... $text"
	done
}

findings() { # JSON [CODE FIELD...]: doctor's or plan's findings in JSON:
	# no CODE: " code code ... "; else the FIELDs of the findings with CODE,
	# each field followed by "|" but the last, joined over findings
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fs = d.get("findings", d.get("problems", []))
if len(sys.argv) == 2:
    print(" " + " ".join(f["code"] for f in fs) + " ")
else:
    code, fields = sys.argv[2], sys.argv[3:]
    print("".join("|".join(f.get(k, "") for k in fields) for f in fs if f["code"] == code))
PY
}

dockerfile_lint() { # DOCKERFILE LABEL: dockerfile-utils (npm) lints it
	# clean: no error and no warning; a skip where it is not installed
	if command -v dockerfile-utils >/dev/null 2>&1; then
		dockerfile-utils lint "$1" >"$T_DIR/lint" 2>&1
		st=$?
		[ -s "$T_DIR/lint" ] && st=1
		t_ok $st "$2: dockerfile-utils lint: no errors, no warnings"
		sed 's/^/# /' "$T_DIR/lint" | head -20
	else
		skip "$2: dockerfile-utils lint" "dockerfile-utils not installed (npm install -g dockerfile-utils; npm registry unreachable?)"
	fi
}
skip() { # NAME REASON
	T_N=$((T_N + 1))
	echo "ok $T_N - $1 # SKIP $2"
}

skip_all() {
	# After some tests ran, the rest is one skipped test (a plan of 1..0
	# then would contradict what was printed).
	if [ "${T_N:-0}" -gt 0 ]; then
		skip "the rest of $(basename "$0")" "$1"
		done_testing
		exit $?
	fi
	echo "1..0 # SKIP $1"
	rm -rf "$T_DIR"
	exit 0
}

done_testing() {
	echo "1..$T_N"
	rm -rf "$T_DIR"
	[ "$T_FAILED" -eq 0 ]
}
