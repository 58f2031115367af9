#!/bin/sh
# t0101-plan-problems.sh - every problem code in recipes/PROBLEMS.md: a
# case that raises it (with its severity and exit status), and clean
# machines that raise nothing.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1
F=tests/fixtures/facts

# code | severity | arguments
cases="driver-too-old|error|--facts $F/old-driver.json
driver-minor-compat|warning|--profile dgx-h100
no-gpu-detected|warning|--profile graviton3
toolkit-drops-gpu|error|--facts $F/gtx1080-cuda13.json --cuda 13.0
gpu-newer-than-toolkit|error|--facts $F/rtx5090-cuda126.json --torch 2.7 --cuda 12.6
gpu-unknown|error|--facts $F/unknown-gpu.json
gpu-unknown|warning|--facts $F/unknown-gpu.json --arch-list 12.0+PTX
arch-list-empty|error|--facts $F/rtx5090-cuda126.json --torch 2.7 --cuda 12.6
gcc-too-new|error|--facts $F/gcc15-only.json
gcc-too-new|warning|--facts $F/gcc15-and-13.json
gcc-too-old|error|--facts $F/rhel8-gcc8.json
no-compiler|warning|--facts $F/bare-x86.json
torch-cuda-unsupported|error|--profile gh200 --torch 2.4 --cuda 13.0
torch-cuda-untested|warning|--profile gh200 --torch 2.9 --cuda 12.9
sbsa-toolkit-on-jetson|error|--facts $F/orin-sbsa-toolkit.json
jetson-toolkit-on-server|error|--facts $F/altra-jetson-toolkit.json --cuda 12.6
toolkit-wrong-platform|error|--facts $F/x86-sbsa-toolkit.json --torch 2.11 --cuda 12.8
cuda-platform-missing|error|--profile jetson-orin --torch 2.4 --cuda 12.3
jetson-orin-needs-cuda-13.2|error|--profile jetson-orin --cuda 13.0
glibc-too-old|error|--facts $F/amzn2-glibc226.json --torch 2.11 --cuda 12.8
glibc-too-new|error|--facts $F/fedora43-glibc242.json --cuda 13.0
cuda-data-assumed|warning|--profile graviton3 --cuda 13.4|1
multiple-toolkits|warning|--profile rtx4090-workstation
gpu-not-in-arch-list|error|--profile rtx4090-workstation --arch-list 9.0
gpu-ptx-only|warning|--profile rtx4090-workstation --arch-list 7.5+PTX
arch-not-built-by-toolkit|error|--profile graviton3 --cuda 13.0 --arch-list 5.0;7.5
arch-suffix-not-accepted|error|--profile graviton3 --torch 2.8 --arch-list 10.0f
arch-not-accepted-by-torch|error|--profile graviton3 --torch 2.5 --arch-list 9.0;10.0
arch-not-accepted-by-cpp-extension|warning|--profile graviton3 --cuda 13.0 --arch-list 8.8;9.0
memory-too-small|error|--facts $F/lowmem.json
memory-too-small|warning|--profile rtx4090-workstation --max-jobs 32
cpu-no-lse|warning|--facts $F/a72-no-lse.json
cudnn-not-found|warning|--facts tests/fixtures/sysroots/container-no-driver.facts.json --torch 2.6"

# Machines and options that must plan without any problem.
clean="--profile jetson-orin
--profile jetson-orin --torch 2.7
--profile jetson-thor
--profile dgx-h100 --torch 2.5
--profile dgx-h100 --torch 2.5 --arch-list 9.0
--profile jetson-thor --torch 2.9
--profile rtx4090-workstation --torch 2.11"

# A fourth field overrides the exit status (a warning no plan raises alone:
# no PyTorch release ptbuild knows builds with the CUDA it needs).
while IFS='|' read -r code sev args rcw; do
	# shellcheck disable=SC2086
	"$PTBUILD" plan $args --json >"$T_DIR/p.json" 2>"$T_DIR/err" </dev/null
	rc=$?
	want=0
	[ "$sev" = error ] && want=1
	[ -n "$rcw" ] && want=$rcw
	is "$rc" "$want" "$code ($sev): exit status $want"
	# problems are objects with sorted keys: code, fix, message, severity
	if grep -q "\"code\": \"$code\"" "$T_DIR/p.json" &&
	   sed -n "/\"code\": \"$code\"/,/\"severity\"/p" "$T_DIR/p.json" | grep -q "\"severity\": \"$sev\""; then
		t_ok 0 "$code ($sev) raised by: $args"
	else
		t_ok 1 "$code ($sev) raised by: $args"
	fi
	grep -q "^| \`$code\` |" recipes/PROBLEMS.md
	t_ok $? "$code is documented in recipes/PROBLEMS.md"
done <<EOF_CASES
$cases
EOF_CASES

# Every documented code has a raising case above.
for code in $(sed -n 's/^| `\([a-z0-9.-]*\)` |.*/\1/p' recipes/PROBLEMS.md); do
	printf '%s\n' "$cases" | grep -q "^$code|"
	t_ok $? "documented code $code has a case that raises it"
done

while read -r args; do
	# shellcheck disable=SC2086
	"$PTBUILD" plan $args --json >"$T_DIR/p.json" 2>"$T_DIR/err" </dev/null
	rc=$?
	n=$(grep -c '"code":' "$T_DIR/p.json")
	if [ "$args" = "--profile rtx4090-workstation --torch 2.11" ]; then
		# two toolkits installed on purpose: only that warning (--torch 2.11
		# uses the installed 12.8 with its cuDNN)
		is "$(sed -n 's/.*"code": "\(.*\)".*/\1/p' "$T_DIR/p.json")" "multiple-toolkits" "clean but for multiple-toolkits: $args"
	else
		is "$rc $n" "0 0" "no problem: $args"
	fi
done <<EOF_CLEAN
$clean
EOF_CLEAN

done_testing
