#!/bin/sh
# t0117-detect-compiler-bytes.sh - under --sysroot no compiler is run (it
# may be of another machine), and outside Debian no dpkg record says a
# gcc's full version: detect reads the version string GCC's driver holds
# in its own bytes.  This machine's real gcc, copied into a RHEL tree as
# gcc-toolset's (/opt/rh/gcc-toolset-N/root/usr/bin/gcc) and as a
# /usr/local build, gives the version `gcc -dumpfullversion` prints; a
# version of another major than the path's, two versions in one binary, a
# script, a 2 GiB file, a FIFO and a link loop give no full version, and
# detect still exits 0 at once.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# this machine's gcc and g++ drivers (the files behind their links)
gcc_bin=$(command -v gcc) && gcc_bin=$(readlink -f "$gcc_bin") || skip_all "no gcc on this machine"
gxx_bin=$(command -v g++) && gxx_bin=$(readlink -f "$gxx_bin") || skip_all "no g++ on this machine"
[ "$(head -c 4 "$gcc_bin" | od -An -c | tr -d ' ')" = '177ELF' ] || skip_all "$gcc_bin is no ELF file"
ver=$("$gcc_bin" -dumpfullversion) || skip_all "$gcc_bin -dumpfullversion failed"
gver=$("$gxx_bin" -dumpfullversion) || skip_all "$gxx_bin -dumpfullversion failed"
M=${ver%%.*}
case $ver in *.*.*) ;; *) skip_all "gcc -dumpfullversion printed '$ver', no X.Y.Z" ;; esac

timeout=$(command -v timeout) || skip_all "no timeout(1) on this machine"

# compilers FACTS: "path=version@source ..." of the facts' compilers
compilers() {
	python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))
print(" ".join("%s=%s@%s" % (c["path"], c["version"], c.get("version_source")) for c in f["compilers"]) + " ")' "$1" 2>&1
}
# detect_in SYSROOT PATH [VAR=VALUE...]: detect --sysroot, facts in $T_DIR/facts.json
detect_in() {
	_s=$1 _p=$2
	shift 2
	run env -i PATH="$_p" PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" "$@" \
		"$timeout" 60 "$PTBUILD" detect --sysroot "$_s" --json
	printf '%s\n' "$out" >"$T_DIR/facts.json"
}
notes() {
	python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["notes"]))' "$T_DIR/facts.json" 2>&1
}

# RHEL 9 with gcc-toolset-M: the system gcc a script here (never read as
# a binary: its bytes hold a version-looking string), /usr/lib/gcc's 11
S="$T_DIR/rhel"
TS=/opt/rh/gcc-toolset-$M/root/usr
mkdir -p "$S/etc" "$S/usr/bin" "$S/usr/lib/gcc/x86_64-redhat-linux/11" \
	"$S$TS/bin" "$S$TS/lib/gcc/x86_64-redhat-linux/$M"
printf 'ID="rhel"\nVERSION_ID="9.4"\n' >"$S/etc/os-release"
printf '#!/bin/sh\nexit 0\n\000''99.1.0\000' >"$S/usr/bin/gcc"
chmod +x "$S/usr/bin/gcc"
cp "$gcc_bin" "$S$TS/bin/gcc"
cp "$gxx_bin" "$S$TS/bin/g++"
detect_in "$S" "$TS/bin:/usr/bin" CC=/usr/bin/gcc
is "$rc" 0 "detect --sysroot on a RHEL tree with gcc-toolset-$M exits 0"
c=$(compilers "$T_DIR/facts.json")
like "$c" "*$TS/bin/gcc=$ver@binary $TS/bin/gcc *" "gcc-toolset-$M's gcc is $ver (as -dumpfullversion says), read from its bytes"
like "$c" "*$TS/bin/g++=$gver@binary $TS/bin/g++ *" "its g++ is $gver"
like "$c" "*/usr/bin/gcc=11@lib/gcc /usr/lib/gcc/x86_64-redhat-linux/11 *" \
	"the system gcc, a script, is /usr/lib/gcc's 11: its bytes are not read (no ELF)"

# a gcc built into /usr/local/bin: no dpkg status, no lib/gcc, no number in its name
S="$T_DIR/local"
mkdir -p "$S/usr/local/bin"
cp "$gcc_bin" "$S/usr/local/bin/gcc"
detect_in "$S" /usr/local/bin
c=$(compilers "$T_DIR/facts.json")
like "$c" "*/usr/local/bin/gcc=$ver@binary /usr/local/bin/gcc *" "a /usr/local/bin/gcc with nothing beside it is $ver"

# the bytes say another major than the path: gcc-toolset-(M+1) holding M.x.y
N=$((M + 1))
S="$T_DIR/other"
mkdir -p "$S/opt/rh/gcc-toolset-$N/root/usr/bin"
cp "$gcc_bin" "$S/opt/rh/gcc-toolset-$N/root/usr/bin/gcc"
detect_in "$S" "/opt/rh/gcc-toolset-$N/root/usr/bin"
is "$rc" 0 "a gcc whose bytes disagree with its path: detect exits 0"
c=$(compilers "$T_DIR/facts.json")
like "$c" "*/gcc=$N@name *" "... and keeps the path's $N, not $ver"
like "$(notes)" "*holds version $ver, not of the $N its name or path gives*unknown*" "... with a note saying why its full version is unknown"

# two versions of one major in one binary: no answer
S="$T_DIR/two"
mkdir -p "$S$TS/bin"
{ cat "$gcc_bin"; printf '\000%s.9.9\000' "$M"; } >"$S$TS/bin/gcc"
chmod +x "$S$TS/bin/gcc"
detect_in "$S" "$TS/bin"
is "$rc" 0 "a gcc holding $ver and $M.9.9: detect exits 0"
c=$(compilers "$T_DIR/facts.json")
like "$c" "*/gcc=$M@name *" "... and says only $M"
like "$(notes)" "*holds several versions ($ver, $M.9.9)*" "... noting both versions"

# on this host: a gcc that is not run (a number in its path) or whose
# -dumpfullversion fails is read the same way; an ELF file built here
# that fails whatever it is asked, holding Red Hat's form of the string
mkdir -p "$T_DIR/hostbin"
printf 'const char v[] = "13.2.1 20231205";\nint main(void) { return v[0] == 0 ? 0 : 1; }\n' >"$T_DIR/fails.c"
if "$gcc_bin" -o "$T_DIR/hostbin/gcc" "$T_DIR/fails.c" 2>/dev/null; then
	run env -i PATH="$T_DIR/hostbin" PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
		"$timeout" 60 "$PTBUILD" detect --json
	printf '%s\n' "$out" >"$T_DIR/facts.json"
	is "$rc" 0 "detect on this host with a gcc that fails when run exits 0"
	like "$(compilers "$T_DIR/facts.json")" "*$T_DIR/hostbin/gcc=13.2.1@binary $T_DIR/hostbin/gcc *" \
		"... and reads 13.2.1 from its bytes"
else
	skip "a failing gcc on this host" "$gcc_bin cannot build the test's program"
fi

# hostile files named gcc: each alone on PATH
S="$T_DIR/bad"
mkdir -p "$S/sparse" "$S/elfsparse" "$S/fifo" "$S/loop"
truncate -s 2G "$S/sparse/gcc" && chmod +x "$S/sparse/gcc"
printf '\177ELF\002\001\001' >"$S/elfsparse/gcc" && truncate -s 2G "$S/elfsparse/gcc" && chmod +x "$S/elfsparse/gcc"
mkfifo "$S/fifo/gcc"
ln -s gcc2 "$S/loop/gcc" && ln -s gcc "$S/loop/gcc2"

detect_in "$S" /sparse
is "$rc" 0 "a 2 GiB sparse file named gcc: detect exits 0 (not after a timeout)"
like "$(compilers "$T_DIR/facts.json")" "*/sparse/gcc=None@None *" "... and knows no version of it (not ELF: nothing read)"
detect_in "$S" /elfsparse
is "$rc" 0 "a 2 GiB file with an ELF header named gcc: detect exits 0"
like "$(compilers "$T_DIR/facts.json")" "*/elfsparse/gcc=None@None *" "... and knows no version of it"
like "$(notes)" "*'/elfsparse/gcc' in the sysroot is larger than 512 MiB: not searched*" "... saying it was too large to search"
detect_in "$S" /fifo CC=/fifo/gcc
is "$rc" 0 "a FIFO named gcc (on PATH and as CC): detect exits 0, not blocked"
is "$(compilers "$T_DIR/facts.json")" " " "... and lists no compiler"
detect_in "$S" /loop CC=/loop/gcc
is "$rc" 0 "gcc a link in a loop: detect exits 0"
is "$(compilers "$T_DIR/facts.json")" " " "... and lists no compiler"
# links that climb out of the sysroot, relative or absolute, stay in it:
# the bytes read are the sysroot's /outside/clang (5.0.0), never the
# test directory's file of the same path outside it (99.1.2)
S="$T_DIR/climb"
mkdir -p "$S/usr/bin" "$S/outside" "$T_DIR/outside"
printf '\177ELF\002\001\001\000clang version 99.1.2\000' >"$T_DIR/outside/clang"
printf '\177ELF\002\001\001\000clang version 5.0.0\000' >"$S/outside/clang"
chmod +x "$T_DIR/outside/clang" "$S/outside/clang"
ln -s ../../../../../../../../outside/clang "$S/usr/bin/clang"
ln -s "$T_DIR/outside/clang" "$S/usr/bin/clang++"
detect_in "$S" /usr/bin
is "$rc" 0 "links out of the sysroot: detect exits 0"
is "$(compilers "$T_DIR/facts.json")" "/usr/bin/clang=5.0.0@binary /outside/clang " \
	"... the relative one reads the sysroot's /outside/clang, the absolute one (to a path the sysroot lacks) nothing"

# dpkg answers first: a clang-14 of /usr whose clang-14 package dpkg lists
# has its bytes left unread (a real clang's libclang-cpp is some 60 MB);
# one of /usr/local, which no package installs, is read.  The clang-14
# driver here is an ELF file holding no version, so a read would go on
# to its libclang-cpp, 2 GiB: reading it at all leaves a note.
S="$T_DIR/dpkg"
mkdir -p "$S/usr/lib/llvm-14/bin" "$S/usr/lib/llvm-14/lib" "$S/usr/bin" "$S/var/lib/dpkg" "$S/usr/local/bin"
printf '\177ELF\002\001\001\000\000' >"$S/usr/lib/llvm-14/bin/clang"
chmod +x "$S/usr/lib/llvm-14/bin/clang"
printf '\177ELF\002\001\001' >"$S/usr/lib/llvm-14/lib/libclang-cpp.so.14"
truncate -s 2G "$S/usr/lib/llvm-14/lib/libclang-cpp.so.14"
ln -s ../lib/llvm-14/bin/clang "$S/usr/bin/clang-14"
cp "$gcc_bin" "$S/usr/local/bin/gcc-$M"
printf 'Package: clang-14\nStatus: install ok installed\nVersion: 1:14.0.6-12\n\nPackage: gcc-%s\nStatus: install ok installed\nVersion: %s-1\n' "$M" "$ver" >"$S/var/lib/dpkg/status"
run env -i PATH=/usr/bin:/usr/local/bin PTBUILD_RECIPE_PATH="$PTBUILD_RECIPE_PATH" \
	"$timeout" 60 "$PTBUILD" detect --sysroot "$S" --raw
printf '%s\n' "$out" >"$T_DIR/raw.json"
is "$rc" 0 "detect --raw on a tree with dpkg's clang-14 exits 0"
# raw is what the probes saw: no compiler's bytes, the libclang-cpp files
# a clang's version may be in
read_raw() {
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["compilers"]:
    if c["path"] == sys.argv[2]:
        print(sorted(k for k in c if "binary" in k), " ".join(c.get("libclang_cpp", [])))' "$T_DIR/raw.json" "$1"
}
is "$(read_raw /usr/bin/clang-14)" "[] /usr/lib/llvm-14/lib/libclang-cpp.so.14" \
	"raw: clang-14 with its libclang-cpp to search, no bytes read"
is "$(read_raw /usr/local/bin/gcc-$M)" "[] " "raw: gcc-$M of /usr/local, no bytes read"
detect_in "$S" /usr/bin:/usr/local/bin
like "$(compilers "$T_DIR/facts.json")" "*/usr/bin/clang-14=14.0.6@dpkg clang-14 1:14.0.6-12 *" "clang-14 is dpkg's 14.0.6"
unlike "$(notes)" "*libclang-cpp*" "... its bytes and libclang-cpp's left unread"
like "$(compilers "$T_DIR/facts.json")" "*/usr/local/bin/gcc-$M=$ver@binary /usr/local/bin/gcc-$M *" \
	"/usr/local's gcc-$M, read whatever dpkg lists, is its bytes' $ver"
# the same tree without dpkg's record: clang-14's bytes are read, on to
# its libclang-cpp (which shows the test above can fail)
rm "$S/var/lib/dpkg/status"
detect_in "$S" /usr/bin
like "$(compilers "$T_DIR/facts.json")" "*/usr/bin/clang-14=14@name *" "without dpkg's record clang-14 is only 14"
like "$(notes)" "*'/usr/lib/llvm-14/lib/libclang-cpp.so.14' in the sysroot is larger than 512 MiB: not searched*" \
	"... its driver read, then its libclang-cpp tried"
done_testing
