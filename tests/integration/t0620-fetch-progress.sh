#!/bin/sh
# t0620-fetch-progress.sh - what fetch shows while it works.  On a terminal
# (a real pseudo-terminal, tests/fetch/onpty.py): a line per transfer in
# flight with its bytes, size, percentage, rate and time left, and an
# overall line with the same for the whole fetch, redrawn in place; the
# size comes from the manifest or, when nothing names it (--file), from
# the server's Content-Length.  Not a terminal: one summary line.  -q:
# nothing.  The files come slowly from the fault server on 127.0.0.1.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 xz
trap fx_cleanup EXIT

fx="$T_DIR/fx"
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$fx" --components 2 --kib 256 >/dev/null ||
	skip_all "cannot build the fixture archives"
fx_faults "$fx"
[ -n "$FAULT_PORT" ] || skip_all "the fault server did not start"
unset https_proxy HTTPS_PROXY http_proxy all_proxy ALL_PROXY NO_COLOR
srv="http://127.0.0.1:$FAULT_PORT"
man="$srv/slow/redistrib_12.4.1.json"
# name size path, for each archive; KiB as ptbuild prints it
set -- $(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
for k in ("cuda_nvcc", "comp01"):
    a = m[k]["linux-x86_64"]
    print(k, a["size"], a["relative_path"], a["sha256"])' "$fx/redistrib_12.4.1.json")
n1=$1 s1=$2 p1=$3 h1=$4 n2=$5 s2=$6
kib() { python3 -c 'import sys; print("%.1f KiB" % (int(sys.argv[1]) / 1024))' "$1"; }
k1=$(kib "$s1") k2=$(kib "$s2") kt=$(kib $((s1 + s2)))

# screen FILE: what a terminal would show at each redraw - the bytes
# with each carriage return and erase-line starting a new line.
screen() { python3 -c '
import re, sys
t = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
print(re.sub(r"\r|\x1b\[K|\x1b\[A", "\n", t))' "$1"; }

TERM=xterm python3 "$top_srcdir/tests/fetch/onpty.py" "$T_DIR/tty1" 120 \
	"$PTBUILD" fetch --platform linux-x86_64 --manifest "$man" --cache "$T_DIR/c1" --components "$n1,$n2"
is "$?" 0 "on a terminal: the fetch succeeds"
scr=$(screen "$T_DIR/tty1")
grep -q "$(printf '\r\033\\[K')" "$T_DIR/tty1"; t_ok $? "... redrawing its lines in place"
printf '%s\n' "$scr" | grep -Eq "^\[0/2 fetched, 0 unpacked\] [0-9.]+ KiB / $kt +[0-9]+% +[0-9.]+ [KM]iB/s +[0-9]+:[0-9]{2} left"
t_ok $? "... an overall line: bytes / total ($kt, from the manifest), percentage, rate, time left"
printf '%s\n' "$scr" | grep -Eq "^  $n1( [0-9.]+)? +[0-9.]+ KiB / $k1 +[0-9]+% +[0-9.]+ [KM]iB/s +[0-9]+:[0-9]{2} left"
t_ok $? "... a line for $n1 in flight: bytes / its size ($k1), percentage, rate, time left"
printf '%s\n' "$scr" | grep -Eq "^  $n2( [0-9.]+)? +[0-9.]+ KiB / $k2 +[0-9]+%"
t_ok $? "... and one for $n2 ($k2)"
printf '%s\n' "$scr" | grep -q "/ 0 B"; t_ok $((!$?)) "... never a total of 0 B"
like "$(tail -c 300 "$T_DIR/tty1")" "*fetched 2 components ($kt, $kt downloaded at *) into $T_DIR/c1 in * s*" "... and the summary line at the end"

# --file names no size: the total comes from Content-Length.
TERM=xterm python3 "$top_srcdir/tests/fetch/onpty.py" "$T_DIR/tty2" 120 \
	"$PTBUILD" fetch --file "$srv/slow/$p1@$h1" --cache "$T_DIR/c2"
is "$?" 0 "--file URL@SHA256 on a terminal"
scr=$(screen "$T_DIR/tty2")
printf '%s\n' "$scr" | grep -Eq "^\[0/1 fetched, 0 unpacked\] [0-9.]+ KiB / $k1 +[0-9]+% .* left"
t_ok $? "... the total ($k1) from the server's Content-Length, with percentage and time left"
printf '%s\n' "$scr" | grep -q "/ 0 B"; t_ok $((!$?)) "... not 0 B"

# Not a terminal: one line.
run "$PTBUILD" fetch --platform linux-x86_64 --manifest "$man" --cache "$T_DIR/c3" --components "$n1,$n2"
is "$rc" 0 "not a terminal: the fetch succeeds"
is "$err" "" "... nothing on stderr"
like "$out" "fetched 2 components ($kt, $kt downloaded at *) into $T_DIR/c3 in * s" "... one summary line on stdout"
is "$(printf '%s\n' "$out" | wc -l)" 1 "... and only that"
run "$PTBUILD" fetch --platform linux-x86_64 --manifest "$man" --cache "$T_DIR/c3" --components "$n1,$n2"
like "$out" "fetched 2 components ($kt, all from the cache) into $T_DIR/c3 in * s" "again: all from the cache"
run "$PTBUILD" -v fetch --platform linux-x86_64 --manifest "$man" --cache "$T_DIR/c5" --components "$n1,$n2"
like "$err" "*fetched $n1 * ($k1 in * s, sha256 ok)*" "-v: a line per fetched component as well"
like "$err" "*fetched $n2 * ($k2 in * s, sha256 ok)*" "... for each"

# -q on a terminal: nothing at all.
TERM=xterm python3 "$top_srcdir/tests/fetch/onpty.py" "$T_DIR/tty3" 120 \
	"$PTBUILD" -q fetch --platform linux-x86_64 --manifest "$man" --cache "$T_DIR/c4" --components "$n1,$n2"
is "$?" 0 "-q on a terminal: the fetch succeeds"
is "$(wc -c <"$T_DIR/tty3" | tr -d ' ')" 0 "... and prints nothing"
[ -s "$T_DIR/c4/sha256/$h1" ]; t_ok $? "... having fetched"

done_testing
