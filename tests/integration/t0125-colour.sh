#!/bin/sh
# t0125-colour.sh - the colours of plan, fleet and doctor output on stdout
# are decided in one place: --color=always gives the same escape
# sequences in every command (bold headings, red errors, yellow warnings,
# bold ones in doctor), and NO_COLOR or --color=never none at all.
. "$top_srcdir/tests/lib.sh"

F=$top_srcdir/tests/fixtures/facts
E=$(printf '\033')

run "$PTBUILD" --color=always plan --facts "$F/old-driver.json"
is "$rc" 1 "plan: an error problem, exit 1"
like "$out" "${E}\[1mPlan${E}\[0m for *" "plan: the heading bold"
like "$out" "*
  ${E}\[31merror${E}\[0m \[driver-too-old\] *" "plan: an error red"
like "$out" "*${E}\[1mProblems${E}\[0m:*" "plan: the problems heading bold"

run "$PTBUILD" --color=always plan --facts "$F/old-driver.json" --facts "$F/l4-workstation.json"
like "$out" "${E}\[1mFleet plan${E}\[0m for *" "fleet: the heading bold"
like "$out" "*
  ${E}\[31merror${E}\[0m \[fleet-node-unserved\] (old-driver) *" "fleet: an error red, with its node"
like "$out" "*
  ${E}\[33mwarning${E}\[0m \[driver-minor-compat\] (l4-workstation) *" "fleet: a warning yellow"

# doctor on a machine of its own (not this host's PATH): an x86_64 nvcc
# first on PATH of an aarch64 GH200 is a foreign-binary error.
S=$T_DIR/sysroot
mkdir -p "$S/usr/local/cuda-13.0/bin" "$S/usr/bin"
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000\076\000' >"$S/usr/local/cuda-13.0/bin/nvcc"
chmod +x "$S/usr/local/cuda-13.0/bin/nvcc"
printf '{ "cuda": { "name": "CUDA SDK", "version": "13.0.88" } }\n' >"$S/usr/local/cuda-13.0/version.json"
doc() { env -u CUDA_HOME -u CUDA_PATH PATH=/usr/local/cuda-13.0/bin:/usr/bin "$PTBUILD" "$@" doctor --sysroot "$S" --profile gh200; }
out=$(doc --color=always)
like "$out" "*
${E}\[1;31merror${E}\[0m \[foreign-binary\] *" "doctor: an error bold red"

for c in "plan --facts $F/old-driver.json" "plan --facts $F/old-driver.json --facts $F/l4-workstation.json" \
	 "doctor --profile gh200"; do
	# shellcheck disable=SC2086 # $c is words
	run "$PTBUILD" $c
	unlike "$out" "*$E*" "NO_COLOR: no escape in '${c%% *}'"
	# shellcheck disable=SC2086
	NO_COLOR= run "$PTBUILD" --color=never $c
	unlike "$out" "*$E*" "--color=never: no escape in '${c%% *}'"
done

done_testing
