#!/bin/sh
# t0140-plan-sbsa-wheel-python.sh - the wheel question on an aarch64
# (SBSA) machine, whose CUDA wheels are not always built for the Pythons
# of the x86_64 ones (data/pytorch.lua platform_python): 2.5's aarch64
# wheels stop at Python 3.12 while x86_64 has an experimental 3.13; for
# 2.4, 2.6 and 2.8 no source read shows an aarch64 wheel for a Python
# below 3.10, so the plan must not print that pip line as certain.  The
# pip line names a patch the aarch64 index has ([pt-index-matrix]).
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# facts PROFILE OUT VERSION: a shipped profile with python3 VERSION
facts() { with_python "$top_srcdir/recipes/profiles/$1.json" "$2" "$3"; }

cu124=https://download.pytorch.org/whl/cu124
# profile | torch | python3 | first line | why (glob)
cases="gh200|2.5|3.13|No wheel is built for this machine's python3: one covers it in a Python 3.9-3.12 environment|  torch 2.5.1 linux-sbsa wheels are built for Python 3.9-3.12; this machine's python3 is 3.13 *in a Python 3.9-3.12 virtual environment*
gh200|2.5|3.9|A wheel covers this machine: pip install torch==2.5.1 --index-url $cu124|  the cu124 wheel's arch list 9.0 covers every GPU*
rtx4090-workstation|2.5|3.13|A wheel covers this machine: pip install torch==2.5.1 --index-url $cu124|*its Python 3.13 wheels are experimental
gh200|2.4|3.11|A wheel covers this machine: pip install torch==2.4.1 --index-url $cu124|  the cu124 wheel's arch list 9.0 covers every GPU*
gh200|2.4|3.9|A wheel may do: pip install torch==2.4.1 --index-url $cu124|*no source ptbuild read shows a linux-sbsa wheel of torch 2.4.1 for Python 3.9 (they show Python 3.10-3.12)*
gh200|2.4|3.13|No wheel is built for this machine's python3: one covers it in a Python 3.8-3.12 (below 3.10 unverified) environment|*in a Python 3.10-3.12 virtual environment*
rtx4090-workstation|2.4|3.9|A wheel covers this machine: pip install torch==2.4.1 --index-url $cu124|  the cu124 wheel's arch list *
gh200|2.6|3.9|A wheel may do: pip install torch==2.6.0 --index-url https://download.pytorch.org/whl/cu126|*no source ptbuild read shows a linux-sbsa wheel of torch 2.6.0 for Python 3.9*
gh200|2.7|3.9|A wheel covers this machine: pip install torch==2.7.1 --index-url https://download.pytorch.org/whl/cu128|  the cu128 wheel's arch list 9.0;10.0;12.0 covers every GPU*
gh200|2.8|3.9|A wheel may do: pip install torch==2.8.0 --index-url https://download.pytorch.org/whl/cu129|*no source ptbuild read shows a linux-sbsa wheel of torch 2.8.0 for Python 3.9*
gh200|2.8|3.13|A wheel covers this machine: pip install torch==2.8.0 --index-url https://download.pytorch.org/whl/cu129|  the cu129 wheel's arch list 8.0;9.0;10.0;12.0 covers every GPU*"

printf '%s\n' "$cases" >"$T_DIR/cases"
n=0
while IFS='|' read -r prof torch py first why; do
	n=$((n + 1))
	facts "$prof" "$T_DIR/f$n.json" "$py"
	run "$PTBUILD" plan --facts "$T_DIR/f$n.json" --torch "$torch"
	[ "$rc" -le 1 ]
	t_ok $? "$prof, torch $torch, python3 $py: plans (exit $rc)"
	is "$(printf '%s\n' "$out" | sed -n 3p)" "$first" "$prof, torch $torch, python3 $py: the first line"
	like "$(printf '%s\n' "$out" | sed -n 4p)" "$why" "$prof, torch $torch, python3 $py: why"
done <"$T_DIR/cases"
[ "$n" -eq 11 ]
t_ok $? "all $n cases ran"

# The plan document says the same: no certain command where the wheel is
# unverified, the platform's own range where it differs.
facts gh200 "$T_DIR/j.json" 3.9
run "$PTBUILD" plan --facts "$T_DIR/j.json" --torch 2.4 --json
got=$(printf '%s\n' "$out" | python3 -c 'import json,sys; w=json.load(sys.stdin)["wheel"]; print(w.get("covered"), w.get("unverified"), w["python"], w["torch"])')
is "$got" "None True 3.8-3.12 (below 3.10 unverified) 2.4.1" "torch 2.4, python3 3.9 on gh200: the plan's wheel block"
facts gh200 "$T_DIR/k.json" 3.13
run "$PTBUILD" plan --facts "$T_DIR/k.json" --torch 2.5 --json
got=$(printf '%s\n' "$out" | python3 -c 'import json,sys; w=json.load(sys.stdin)["wheel"]; print(w["covered"], w.get("python_blocked"), w["python"], w.get("command"))')
is "$got" "False True 3.9-3.12 None" "torch 2.5, python3 3.13 on gh200: the plan's wheel block"
done_testing
