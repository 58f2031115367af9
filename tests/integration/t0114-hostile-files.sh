#!/bin/sh
# t0114-hostile-files.sh - files that are not regular files, or too large,
# where ptbuild reads one: a FIFO as /proc/cpuinfo, /etc/os-release or
# /proc/driver/nvidia/version in a sysroot is a note and detect goes on; a
# FIFO or a device given as a facts, plan or lock file, or to inspect, is
# an error naming it; a FIFO in the download cache is refused.  Every
# command runs under `timeout 20`: a FIFO opened for a blocking read waits
# for a writer for good, so a regression hangs and fails here (124).
. "$top_srcdir/tests/lib.sh"

command -v mkfifo >/dev/null 2>&1 || skip_all "no mkfifo"
command -v timeout >/dev/null 2>&1 || skip_all "no timeout"
T() { run timeout 20 "$PTBUILD" "$@"; }

# --- detect below a sysroot ---------------------------------------------
sr="$T_DIR/sr"
mkdir -p "$sr/etc" "$sr/proc/driver/nvidia" "$sr/proc/sys/kernel" "$sr/bin"
mkfifo "$sr/proc/cpuinfo" "$sr/etc/os-release" "$sr/proc/driver/nvidia/version"
echo "6.8.0-40-generic" >"$sr/proc/sys/kernel/osrelease"
T detect --sysroot "$sr"
is "$rc" 0 "detect with FIFOs in the sysroot ends (exit 0)"
for f in /proc/cpuinfo /etc/os-release /proc/driver/nvidia/version; do
	like "$err" "*note: '$f' in the sysroot is a FIFO (named pipe), not a regular file: not read*" \
		"... a note names $f and what it is"
done
T detect --sysroot "$sr" --json
is "$rc" 0 "detect --json with FIFOs in the sysroot"
like "$out" '*"notes": \[*"'"'"'/etc/os-release'"'"' in the sysroot is a FIFO (named pipe)*' \
	"... the note is in the facts"
like "$out" '*"kernel": "6.8.0-40-generic"*' "... the regular files are still read"

# A FIFO reached through a link inside the sysroot is the same.
rm "$sr/etc/os-release"
mkfifo "$sr/etc/real-os-release"
ln -s /etc/real-os-release "$sr/etc/os-release"
T detect --sysroot "$sr"
is "$rc" 0 "a link to a FIFO in the sysroot"
like "$err" "*note: '/etc/os-release' in the sysroot is a FIFO (named pipe)*" "... is a note too"

# Too large: cut at the bound for its kind, with a note.
rm "$sr/etc/os-release" "$sr/etc/real-os-release"
{ echo 'ID=ubuntu'; echo 'VERSION_ID="24.04"'; i=0
  while [ $i -lt 2000 ]; do echo "X_FILLER_$i=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"; i=$((i + 1)); done
} >"$sr/etc/os-release"
T detect --sysroot "$sr" --json
is "$rc" 0 "an os-release of $(wc -c <"$sr/etc/os-release") bytes"
like "$out" "*'/etc/os-release' in the sysroot is larger than 16 KiB: only its first 16 KiB were read*" \
	"... is cut with a note naming the bound"
like "$out" '*"id": "ubuntu"*' "... and what was read is used"

# --- files named on the command line ------------------------------------
mkfifo "$T_DIR/fifo"
T plan --facts "$T_DIR/fifo"
is "$rc" 4 "plan --facts FIFO: exit 4"
like "$err" "*error: cannot read '$T_DIR/fifo': is a FIFO (named pipe), not a regular file*" \
	"... naming the file and what it is"
T plan --facts /dev/zero
is "$rc" 4 "plan --facts /dev/zero: exit 4, nothing read"
like "$err" "*error: cannot read '/dev/zero': is a character device, not a regular file*" \
	"... naming it a character device"
T doctor --facts "$T_DIR/fifo"
is "$rc" 4 "doctor --facts FIFO: exit 4"
T generate --plan "$T_DIR/fifo" --out "$T_DIR/gen"
is "$rc" 4 "generate --plan FIFO: exit 4"
like "$err" "*cannot read '$T_DIR/fifo': is a FIFO*" "... naming it"
[ ! -e "$T_DIR/gen" ]; t_ok $? "... nothing written"
T fetch --plan "$T_DIR/fifo" --prefix "$T_DIR/p1"
is "$rc" 4 "fetch --plan FIFO: exit 4"
T fetch --lock "$T_DIR/fifo" --prefix "$T_DIR/p2"
is "$rc" 4 "fetch --lock FIFO: exit 4"
like "$err" "*cannot read '$T_DIR/fifo': is a FIFO*" "... naming it"
T inspect "$T_DIR/fifo"
is "$rc" 4 "inspect FIFO: exit 4"
like "$err" "*cannot read '$T_DIR/fifo': is a FIFO*" "... naming it"

# doctor reads a sysroot's files with the same reader: a FIFO is absent.
T doctor --sysroot "$sr"
[ "$rc" -ne 124 ]; t_ok $? "doctor --sysroot with a FIFO /proc/cpuinfo ends (exit $rc)"

# --- the download cache -------------------------------------------------
mkdir -p "$T_DIR/comp01-linux/include"
echo '#define COMP01 1' >"$T_DIR/comp01-linux/include/comp01.h"
tar -C "$T_DIR" -czf "$T_DIR/a.tar.gz" comp01-linux
sha=$(sha256sum "$T_DIR/a.tar.gz" | cut -d' ' -f1)
cat >"$T_DIR/a.lock" <<EOF
{"schema": "ptbuild.lock/1", "items": [{"name": "comp01", "url": "file://$T_DIR/a.tar.gz", "size": $(wc -c <"$T_DIR/a.tar.gz"), "sha256": "$sha"}]}
EOF
mkdir -p "$T_DIR/cache/partial"
mkfifo "$T_DIR/cache/partial/$sha.part"
T fetch --lock "$T_DIR/a.lock" --cache "$T_DIR/cache" --prefix "$T_DIR/p3"
is "$rc" 4 "a FIFO as the partial download in the cache: exit 4"
like "$err" "*cannot use '$T_DIR/cache/partial/$sha.part': is a FIFO (named pipe), not a regular file*" \
	"... naming it"
like "$err" "*hint: remove it*" "... and what to do"
rm "$T_DIR/cache/partial/$sha.part"
T fetch --lock "$T_DIR/a.lock" --cache "$T_DIR/cache" --prefix "$T_DIR/p3"
is "$rc" 0 "... once removed, the fetch works"
[ -f "$T_DIR/p3/include/comp01.h" ]; t_ok $? "... and installs"

done_testing
