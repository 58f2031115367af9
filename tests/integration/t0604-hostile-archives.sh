#!/bin/sh
# t0604-hostile-archives.sh - archives that try to write outside the prefix
# or plant what they should not.  Each is refused; the oracle (as in
# libarchive's write_disk fuzzer): a sentinel outside is untouched, nothing
# new appears outside, and the installed prefix is unchanged.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 xz

export XDG_CACHE_HOME="$T_DIR/cache"
out_dir="$T_DIR/outside"
mkdir -p "$out_dir" && echo sentinel >"$out_dir/sentinel"
python3 "$top_srcdir/tests/fetch/mkarchives.py" hostile "$T_DIR/h" "$out_dir" >"$T_DIR/cases" ||
	skip_all "cannot build the hostile archives"
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$T_DIR/fx" --components 2 --kib 8 >/dev/null
run "$PTBUILD" fetch --platform linux-x86_64 --manifest "$T_DIR/fx/redistrib_12.4.1.json" --prefix "$T_DIR/prefix"
is "$rc" 0 "a good prefix to protect"
before=$(fx_tree "$T_DIR/prefix")
outside_before=$(fx_tree "$T_DIR/outside")
# The root of the test tree too: nothing may appear next to the prefix.
ls_before=$(ls -a "$T_DIR")

while read -r c; do
	case $c in
	h16-* | h20-* | h21-*) continue ;;
	esac
	PTBUILD_MAX_ENTRIES=100 run "$PTBUILD" fetch --lock "$T_DIR/h/$c.lock" --prefix "$T_DIR/prefix"
	is "$rc" 4 "$c: refused (exit 4)"
	case $err in
	*"refusing archive of '$c'"* | *"cannot extract"*"'$c'"*) t_ok 0 "$c: the error names the archive" ;;
	*) t_ok 1 "$c: the error names the archive"; printf '# %s\n' "$err" ;;
	esac
	is "$(fx_tree "$T_DIR/outside")" "$outside_before" "$c: nothing written outside"
	is "$(fx_tree "$T_DIR/prefix")" "$before" "$c: the prefix is unchanged"
	is "$(ls -a "$T_DIR" | grep -v '^cases$')" "$(echo "$ls_before" | grep -v '^cases$')" "$c: no staging folder left"
done <"$T_DIR/cases"

# The messages name the entry as the archive spells it (the name's buffer
# is rewritten while the entry is handled).
run "$PTBUILD" fetch --lock "$T_DIR/h/h19-license-blocked.lock" --prefix "$T_DIR/prefix"
like "$err" "*cannot extract 'top/LICENSE' from the archive of 'h19-license-blocked'*" \
	"an entry that cannot be written is named as the archive spells it"
like "$(PTBUILD_MAX_ENTRIES=100 "$PTBUILD" fetch --lock "$T_DIR/h/h17-symlink-trailing-slash.lock" \
	--prefix "$T_DIR/prefix" 2>&1)" "*entry 'top/lib/libevil.so/' is a symlink that leads outside*" \
	"a symlink named with a trailing slash is refused as one that leads outside"
run "$PTBUILD" fetch --lock "$T_DIR/h/h20-license-short-top.lock" --prefix "$T_DIR/lic"
is "$rc" 0 "a LICENSE under a short top folder installs"
is "$(cat "$T_DIR/lic/share/licenses/h20-license-short-top/LICENSE" 2>&1)" "license" \
	"... into share/licenses/<name>/LICENSE"

run "$PTBUILD" fetch --lock "$T_DIR/h/h21-zip.lock" --prefix "$T_DIR/prefix"
is "$rc:$(echo "$err" | grep error:)" "4:ptbuild: error: cannot read the archive of 'h21-zip': Unrecognized archive format" \
	"a zip is refused with libarchive's reason alone (no stale errno)"
like "$err" "*hint: components are unpacked from tar archives*" "... and a hint saying what is expected"
is "$(fx_tree "$T_DIR/prefix")" "$before" "... the prefix is unchanged"

# Component names from a manifest, a lock or a plan become folder names
# (share/licenses/<name>): each reader refuses one that is not a plain
# name before anything touches the disk, as a bad input file (exit 2).
python3 - "$T_DIR/fx" "$T_DIR/h" <<'PY'
import json, sys
fx, h = sys.argv[1], sys.argv[2]
m = json.load(open(fx + "/redistrib_12.4.1.json"))
m["../../../outside/evil"] = m.pop("comp01")
json.dump(m, open(fx + "/manifest-evil-name.json", "w"))
lock = json.load(open(h + "/h20-license-short-top.lock"))
lock["items"][0]["name"] = ".."
json.dump(lock, open(h + "/dotdot-name.lock", "w"))
it = dict(json.load(open(h + "/h20-license-short-top.lock"))["items"][0])
it["name"] = "../../../outside/plan"
json.dump({"schema": "ptbuild.plan/1", "cuda": {"platform": "linux-x86_64", "downloads": [it]}},
          open(h + "/evil-name.plan", "w"))
PY
t_ok $? "the inputs with bad names are made"
run "$PTBUILD" fetch --platform linux-x86_64 --manifest "$T_DIR/fx/manifest-evil-name.json" --prefix "$T_DIR/prefix"
is "$rc" 2 "a manifest component key with '/' is a bad input file (exit 2)"
like "$err" "*malformed manifest '*manifest-evil-name.json': component key '../../../outside/evil' is not a plain name*" \
	"... naming the manifest and the key"
is "$(fx_tree "$T_DIR/outside")" "$outside_before" "... nothing made outside"
is "$(fx_tree "$T_DIR/prefix")" "$before" "... the prefix is unchanged"
run "$PTBUILD" fetch --lock "$T_DIR/h/dotdot-name.lock" --prefix "$T_DIR/prefix"
is "$rc" 2 "a lock item named '..' is a bad input file (exit 2)"
like "$err" "*bad lock file '*dotdot-name.lock': items\[0\]: 'name' is not a plain name*" "... naming the file and the item"
run "$PTBUILD" fetch --plan "$T_DIR/h/evil-name.plan" --prefix "$T_DIR/prefix"
is "$rc" 2 "a plan download named with '/' is a bad input file (exit 2)"
like "$err" "*'*evil-name.plan' is not a valid plan: key 'cuda.downloads\[0\].name': expected a component name*" "... naming the file and the name"
is "$(fx_tree "$T_DIR/outside")" "$outside_before" "... nothing made outside"
is "$(fx_tree "$T_DIR/prefix")" "$before" "... the prefix is unchanged"

# Set-id bits are not an attack to refuse, but they are never installed.
run "$PTBUILD" fetch --lock "$T_DIR/h/h16-setuid-mode.lock" --prefix "$T_DIR/suid"
is "$rc" 0 "an archive with a set-uid file installs"
is "$(stat -c %a "$T_DIR/suid/bin-suid")" "755" "... without the set-uid bit or write for others"
[ ! -e /tmp/absolute.txt ] && [ ! -e "$out_dir/absolute.txt" ]; t_ok $? "no absolute-path file anywhere"
done_testing
