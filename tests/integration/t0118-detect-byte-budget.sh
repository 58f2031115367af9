#!/bin/sh
# t0118-detect-byte-budget.sh - detect reads a compiler's version from its
# bytes only up to 512 MiB a file, and up to 1 GiB of such files in one
# run: a hostile sysroot of many huge "compilers" costs 1 GiB of reads,
# not 512 MiB each, and each file the budget leaves unread is named in a
# note.  The files are sparse (cheap on disk), each an ELF header, 300 MiB
# of nothing and its version at the very end: a version found proves its
# file was read to the end, so the bytes read are counted from the facts,
# not from what detect says of itself.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v truncate >/dev/null 2>&1 || skip_all "no truncate(1) on this machine"

S="$T_DIR/root"
mkdir -p "$S/usr/local/bin"
# gcc-N: MIB MiB of ELF file ending in "N.1.0" (gcc's version string)
compiler() {
	f="$S/usr/local/bin/gcc-$1"
	printf '\177ELF\002\001\001' >"$f"
	truncate -s "$2M" "$f" || skip_all "cannot make a sparse $2 MiB file"
	printf '\000%s.1.0\000' "$1" >>"$f"
	chmod +x "$f"
}
for n in 10 11 12 13 14; do compiler "$n" 300; done
compiler 15 1
# a 300 MiB script named gcc-16: never searched (no ELF), so not one the
# budget stopped either
printf '#!/bin/sh\nexit 0\n' >"$S/usr/local/bin/gcc-16"
truncate -s 300M "$S/usr/local/bin/gcc-16" && chmod +x "$S/usr/local/bin/gcc-16"

run env -i PATH=/usr/local/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$PTBUILD" detect --sysroot "$S" --json
is "$rc" 0 "a sysroot of five 300 MiB gcc files, a 1 MiB one and a script: detect exits 0"
printf '%s\n' "$out" >"$T_DIR/facts.json"

# read: the files whose version (at their end) detect found, and their
# bytes; unread: the others, each with its note
python3 - "$T_DIR/facts.json" "$S" >"$T_DIR/sum" <<'PY'
import json, os, sys
f = json.load(open(sys.argv[1]))
read, unread = [], []
for c in f["compilers"]:
    (read if (c.get("version_source") or "").startswith("binary") else unread).append(c["path"])
size = sum(os.path.getsize(sys.argv[2] + p) for p in read)
noted = [p for p in unread if any("'%s' in the sysroot (301 MiB) is not searched: detect searches at most 1024 MiB of compiler files in one run" % p in n for n in f["notes"])]
print(len(read), size, len(unread), len(noted), " ".join(sorted(read)))
PY
read -r nread bytes nunread nnoted which <"$T_DIR/sum"
is "$nread $nunread" "4 3" "the budget reads four of the six ELF files (three 300 MiB files and the small one: $which)"
[ "$bytes" -le 1073741824 ]
t_ok $? "... $bytes bytes in all, within 1 GiB"
[ "$bytes" -gt 943718400 ]
t_ok $? "... and the budget is used, not refused early ($bytes bytes, over 900 MiB)"
like "$which" "*/usr/local/bin/gcc-15*" "... a small file after the budget is nearly spent is still read"
is "$nnoted" 2 "each file left unread has a note naming it, its size and the budget"
like "$(cat "$T_DIR/facts.json")" "*in one run, and 900 MiB of it are spent*" "... and what of it is spent"
unlike "$(cat "$T_DIR/facts.json")" "*gcc-16' in the sysroot*" "the script is not named as stopped by the budget"

done_testing
