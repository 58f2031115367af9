#!/bin/sh
# t0508-generate-base-image.sh - the Dockerfile's base image follows the
# machine the plan is for: the plan records it (machine: arch, os_id,
# os_version, glibc, python), and generate without --base-image builds
# on ubuntu:<version> for an Ubuntu 22.04 or 24.04 machine, on
# debian:bookworm or debian:trixie for a Debian 12 or 13 one, else on
# ubuntu:22.04 with a note naming the machine's OS and what the wheel is
# for; --base-image always wins; a plan saved before plans carried
# machine keeps ubuntu:22.04 with no note; a malformed machine is
# refused (exit 2, naming the key, nothing written); a fleet build keeps
# its machine only when all its nodes run the same OS release.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
P="$top_srcdir/recipes/profiles"
NOTE="*note: the plan's machine runs*"

base() { # DIR: the Dockerfile's ARG BASE_IMAGE value
	sed -n 's/^ARG BASE_IMAGE=//p' "$1/Dockerfile"
}

# 1. Every shipped profile: its Ubuntu release, or 22.04 and a note.
while read -r profile want note; do
	run "$PTBUILD" generate --profile "$profile" --out "$T_DIR/$profile" --format dockerfile
	is "$rc:$(base "$T_DIR/$profile")" "0:$want" "$profile: ARG BASE_IMAGE=$want"
	if [ "$note" = note ]; then
		like "$err" "*note: the plan's machine runs amzn 2023 (glibc 2.34), but the Dockerfile builds on ubuntu:22.04: the wheel is for Ubuntu 22.04's Python 3.10 (cp310) and glibc 2.35*--base-image*" \
			"$profile: a note names the machine's OS and what the wheel is for"
	else
		unlike "$err" "$NOTE" "$profile: no note about the machine's OS"
	fi
done <<'ROWS'
gh200 ubuntu:24.04 -
jetson-thor ubuntu:24.04 -
rtx4090-workstation ubuntu:24.04 -
dgx-h100 ubuntu:22.04 -
altra-a100 ubuntu:22.04 -
jetson-orin ubuntu:22.04 -
graviton3 ubuntu:22.04 note
ROWS

# 2. The plan records the machine from the facts, Python included.
with_python "$P/graviton3.json" "$T_DIR/g3py.json" 3.11
"$PTBUILD" plan --facts "$T_DIR/g3py.json" --json >"$T_DIR/g3py.plan.json" 2>/dev/null
is "$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["machine"]; print(" ".join(k+"="+m[k] for k in sorted(m)))' "$T_DIR/g3py.plan.json")" \
	"arch=aarch64 glibc=2.34 os_id=amzn os_version=2023 python=3.11" "plan: machine holds arch, OS, glibc and Python from the facts"
run "$PTBUILD" generate --plan "$T_DIR/g3py.plan.json" --out "$T_DIR/g3py" --format dockerfile
like "$err" "*machine runs amzn 2023 (glibc 2.34, Python 3.11), but*" "the note names the machine's Python when the facts know it"

# An Ubuntu release the image does not build on: 22.04 and the note.
json_edit "$P/gh200.json" "$T_DIR/u2004.json" "f.pop('profile', None); f['host']['os']['version_id'] = '20.04'"
run "$PTBUILD" generate --facts "$T_DIR/u2004.json" --out "$T_DIR/u2004" --format dockerfile
is "$rc:$(base "$T_DIR/u2004")" "0:ubuntu:22.04" "an Ubuntu 20.04 machine: ubuntu:22.04"
like "$err" "*machine runs ubuntu 20.04 (glibc 2.39), but the Dockerfile builds on ubuntu:22.04*" "... with the note naming ubuntu 20.04"

# A Debian 12 or 13 machine: Debian's image of that release (its
# Python and glibc), no note; Debian 11, which the image does not build
# on: ubuntu:22.04 and the note.
while read -r ver want; do
	json_edit "$P/graviton3.json" "$T_DIR/deb$ver.json" "f.pop('profile', None); f['host']['os']['id'] = 'debian'; f['host']['os']['version_id'] = '$ver'"
	run "$PTBUILD" generate --facts "$T_DIR/deb$ver.json" --out "$T_DIR/deb$ver" --format dockerfile
	is "$rc:$(base "$T_DIR/deb$ver")" "0:$want" "a Debian $ver machine: ARG BASE_IMAGE=$want"
	if [ "$want" = ubuntu:22.04 ]; then
		like "$err" "*machine runs debian $ver (glibc 2.34), but the Dockerfile builds on ubuntu:22.04*" "... with the note naming debian $ver"
	else
		unlike "$err" "$NOTE" "... and no note about the machine's OS"
	fi
done <<'ROWS'
12 debian:bookworm
13 debian:trixie
11 ubuntu:22.04
ROWS

# 3. --base-image wins, and no note is made for the image it replaces.
run "$PTBUILD" generate --profile gh200 --out "$T_DIR/gh-over" --format dockerfile --base-image debian:12
is "$rc:$(base "$T_DIR/gh-over")" "0:debian:12" "gh200 with --base-image debian:12: debian:12"
run "$PTBUILD" generate --profile graviton3 --out "$T_DIR/g3-over" --format dockerfile --base-image ubuntu:24.04
is "$rc:$(base "$T_DIR/g3-over")" "0:ubuntu:24.04" "graviton3 with --base-image ubuntu:24.04: ubuntu:24.04"
unlike "$err" "$NOTE" "... and no note about the machine's OS"

# 4. A plan saved before plans carried machine: ubuntu:22.04, no note.
"$PTBUILD" plan --profile gh200 --json >"$T_DIR/gh200.plan.json" 2>/dev/null
json_edit "$T_DIR/gh200.plan.json" "$T_DIR/old.plan.json" "del f['machine']"
run "$PTBUILD" generate --plan "$T_DIR/old.plan.json" --out "$T_DIR/old" --format dockerfile
is "$rc:$(base "$T_DIR/old")" "0:ubuntu:22.04" "a plan without machine: ubuntu:22.04"
unlike "$err" "$NOTE" "... and no note about the machine's OS"
run "$PTBUILD" generate --plan "$T_DIR/gh200.plan.json" --out "$T_DIR/saved" --format dockerfile
is "$rc:$(base "$T_DIR/saved")" "0:ubuntu:24.04" "the same plan saved with machine: ubuntu:24.04"
# machine {}: the facts named no OS
json_edit "$T_DIR/gh200.plan.json" "$T_DIR/empty.plan.json" "f['machine'] = {}"
run "$PTBUILD" generate --plan "$T_DIR/empty.plan.json" --out "$T_DIR/empty" --format dockerfile
is "$rc:$(base "$T_DIR/empty")" "0:ubuntu:22.04" "machine {}: ubuntu:22.04"
like "$err" "*machine runs an OS the facts do not name, but*" "... with a note that the OS is unknown"

# 5. A malformed machine is refused whole, naming the key.
while IFS='|' read -r edit key; do
	json_edit "$T_DIR/gh200.plan.json" "$T_DIR/bad.plan.json" "$edit"
	run "$PTBUILD" generate --plan "$T_DIR/bad.plan.json" --out "$T_DIR/bad" --format dockerfile
	like "$rc:$err" "2:*'$T_DIR/bad.plan.json' is not a valid plan: key '$key': expected*" "$edit: exit 2 naming '$key'"
	[ ! -e "$T_DIR/bad" ]
	t_ok $? "... nothing written"
done <<'ROWS'
f['machine'] = 'ubuntu 24.04'|machine
f['machine']['os_id'] = 'Ubuntu Linux'|machine.os_id
f['machine']['os_version'] = '24.04$(id)'|machine.os_version
f['machine']['os_version'] = 24.04|machine.os_version
f['machine']['glibc'] = 'glibc-2.39'|machine.glibc
f['machine']['python'] = '3.12.3'|machine.python
f['machine']['arch'] = 'arm 64'|machine.arch
ROWS

# 6. A fleet build: its build machine's OS release when every node it
# serves runs it, else ubuntu:22.04 as before.
mkdir "$T_DIR/same" "$T_DIR/mixed"
cp "$P/gh200.json" "$T_DIR/same/gh200-a.json"
cp "$P/gh200.json" "$T_DIR/same/gh200-b.json"
cp "$P/gh200.json" "$P/altra-a100.json" "$T_DIR/mixed/"
run "$PTBUILD" generate --facts "$T_DIR/same" --out "$T_DIR/fleet-same" --format dockerfile
is "$rc:$(base "$T_DIR/fleet-same/sbsa")" "0:ubuntu:24.04" "a fleet of two Ubuntu 24.04 GH200s: sbsa/ on ubuntu:24.04"
run "$PTBUILD" generate --facts "$T_DIR/mixed" --out "$T_DIR/fleet-mixed" --format dockerfile
is "$rc:$(base "$T_DIR/fleet-mixed/sbsa")" "0:ubuntu:22.04" "a GH200 (24.04) with an Altra (22.04): sbsa/ on ubuntu:22.04"

done_testing
