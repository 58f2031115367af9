#!/bin/sh
# t0128-plan-wheel-python.sh - the wheel question against the machine's
# python3: a release's wheels are built for a range of Pythons (PyTorch's
# RELEASE.md compatibility matrix [pt-python]); outside it pip finds no
# wheel, so the plan's first line must not offer one, and must say whether
# another Python environment would do.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# facts OUT VERSION: the rtx4090-workstation profile with python3 VERSION
facts() { with_python "$top_srcdir/recipes/profiles/rtx4090-workstation.json" "$1" "$2"; }

# torch | python3 | first line | source build adds (glob)
cases="2.14|3.12|A wheel covers this machine: pip install torch==2.14.1 --index-url https://download.pytorch.org/whl/cu126|*code for exactly this machine's GPUs*
2.14|3.8|No wheel is built for this machine's python3: one covers it in a Python 3.10-3.15 environment|*nothing for Python 3.8: PyTorch 2.14 supports Python 3.10 and newer, so use a Python 3.10-3.15 virtual environment*
2.14|3.16|No wheel is built for this machine's python3: one covers it in a Python 3.10-3.15 environment|*nothing for Python 3.16: PyTorch 2.14 does not build with it either*virtual environment*
2.4|3.8|A wheel covers this machine: pip install torch==2.4.1 --index-url https://download.pytorch.org/whl/cu124|*
2.4|3.13|No wheel is built for this machine's python3: one covers it in a Python 3.8-3.12 environment|*nothing for Python 3.13: PyTorch 2.4 does not build with it either*"

printf '%s\n' "$cases" >"$T_DIR/cases"
n=0
while IFS='|' read -r torch py first adds; do
	n=$((n + 1))
	facts "$T_DIR/f$n.json" "$py"
	run "$PTBUILD" plan --facts "$T_DIR/f$n.json" --torch "$torch"
	[ "$rc" -le 1 ]
	t_ok $? "torch $torch, python3 $py: plans (exit $rc)"
	is "$(printf '%s\n' "$out" | sed -n 3p)" "$first" "torch $torch, python3 $py: the first line"
	like "$(printf '%s\n' "$out" | sed -n 5p)" "  a source build adds: $adds" "torch $torch, python3 $py: what a source build adds"
done <"$T_DIR/cases"
[ "$n" -eq 5 ]
t_ok $? "all $n cases ran"
done_testing
