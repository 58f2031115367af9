#!/bin/sh
# regen-options.sh PTBUILD SRCDIR OUTDIR - write into OUTDIR the files made
# from ptbuild's option tables: ptbuild.1 (SRCDIR/doc/ptbuild.1 with the
# part between its GENERATED OPTIONS marks replaced by
# 'ptbuild --dump-options=man') and the completion scripts ptbuild
# (bash), _ptbuild (zsh) and ptbuild.fish.  'make regen-options' copies
# them into the source tree; tests/integration/t0010-options.sh fails when
# the committed ones differ.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 PTBUILD SRCDIR OUTDIR" >&2; exit 2; }
ptbuild=$1 src=$2 out=$3
man=$src/doc/ptbuild.1
for mark in BEGIN END; do
	if ! grep -q "^\.\\\\\" $mark GENERATED OPTIONS" "$man"; then
		echo "regen-options: '$man' lacks its '.\\\" $mark GENERATED OPTIONS' line" >&2
		exit 1
	fi
done
mkdir -p "$out"
"$ptbuild" --dump-options=man >"$out/options.roff"
awk -v gen="$out/options.roff" '
/^\.\\" BEGIN GENERATED OPTIONS/ {
	print
	while ((getline line < gen) > 0)
		print line
	skip = 1
	next
}
/^\.\\" END GENERATED OPTIONS/ { skip = 0 }
!skip { print }' "$man" >"$out/ptbuild.1"
rm -f "$out/options.roff"
"$ptbuild" completion bash >"$out/ptbuild"
"$ptbuild" completion zsh >"$out/_ptbuild"
"$ptbuild" completion fish >"$out/ptbuild.fish"
