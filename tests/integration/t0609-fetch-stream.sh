#!/bin/sh
# t0609-fetch-stream.sh - archives unpack while they download: the bytes
# an abandoned transfer delivered never reach the prefix, and a kill -9
# in the middle of a streamed download leaves the prefix as it was.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 xz
trap fx_cleanup EXIT

export PTBUILD_RETRY_DELAY_MS=20
fx="$T_DIR/fx"
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$fx" --components 2 --kib 256 ||
	skip_all "cannot build the fixture archives"
# Beside each archive a decoy: a smaller, valid archive with the same top
# folder and one file the real one lacks.
python3 - "$fx" <<'PY'
import glob, gzip, io, lzma, os, sys, tarfile
for p in glob.glob(os.path.join(sys.argv[1], "*", "linux-x86_64", "*.tar.[gx]z")):
    top, ext = os.path.basename(p)[:-7], p[-2:]
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as t:
        ti = tarfile.TarInfo(top + "/lib/unverified-decoy"); ti.size = 6; ti.mode = 0o644
        t.addfile(ti, io.BytesIO(b"decoy\n"))
    pack = lzma.compress if ext == "xz" else gzip.compress
    open(p + ".decoy", "wb").write(pack(buf.getvalue()))
    assert os.path.getsize(p + ".decoy") < os.path.getsize(p)
PY
fx_faults "$fx"
[ -n "$FAULT_PORT" ] || skip_all "the fault server did not start"
unset https_proxy HTTPS_PROXY http_proxy all_proxy ALL_PROXY
srv="http://127.0.0.1:$FAULT_PORT"
F() { run "$PTBUILD" fetch --platform linux-x86_64 "$@"; }

F --manifest "$fx/redistrib_12.4.1.json" --cache "$T_DIR/ref-cache" --prefix "$T_DIR/ref"
is "$rc" 0 "reference install from the files"

# The first transfer of each archive delivers a decoy (a whole archive,
# unpacked as it streams in) and is cut; the retry gets the real file
# from its first byte.  The decoy's file must not be installed.
F --manifest "$srv/swap/redistrib_12.4.1.json" --cache "$T_DIR/c1" --prefix "$T_DIR/swap"
is "$rc" 0 "a transfer that delivered other bytes, then the file: the fetch completes"
[ "$rc" -eq 0 ] || printf '# %s\n' "$err"
decoys=$(grep -c 'decoy of [0-9]* bytes, cut' "$T_DIR/fault.log")
[ "$decoys" -ge 2 ]; t_ok $? "the server sent $decoys decoys"
[ ! -e "$T_DIR/swap/lib/unverified-decoy" ]; t_ok $? "... and nothing of them is in the prefix"
is "$(fx_tree "$T_DIR/swap" | grep -v ptbuild-lock)" "$(fx_tree "$T_DIR/ref" | grep -v ptbuild-lock)" "... which equals the reference"

# kill -9 while an archive is unpacked from its unfinished download.
F --manifest "$fx/redistrib_12.4.1.json" --components comp01 --cache "$T_DIR/c2" --prefix "$T_DIR/p/cuda"
is "$rc" 0 "the old prefix"
before=$(fx_tree "$T_DIR/p/cuda")
"$PTBUILD" fetch --platform linux-x86_64 --manifest "$srv/slow/redistrib_12.4.1.json" --cache "$T_DIR/c3" \
	--prefix "$T_DIR/p/cuda" >"$T_DIR/kill.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 500 ] && ! ls "$T_DIR"/p/.cuda.ptb-stage.*/include/*.h >/dev/null 2>&1; do
	sleep 0.01
	i=$((i + 1))
done
unpacking=no
ls "$T_DIR"/p/.cuda.ptb-stage.*/include/*.h >/dev/null 2>&1 && [ -z "$(ls "$T_DIR/c3/sha256")" ] && unpacking=yes
kill -9 $pid
wait $pid 2>/dev/null
is "$unpacking" yes "unpacking began before any download was complete"
is "$(fx_tree "$T_DIR/p/cuda")" "$before" "killed with SIGKILL then: the prefix is the old one, intact"
F --manifest "$srv/redistrib_12.4.1.json" --cache "$T_DIR/c3" --prefix "$T_DIR/p/cuda"
is "$rc" 0 "the next run installs, resuming the partial downloads"
is "$(fx_tree "$T_DIR/p/cuda" | grep -v ptbuild-lock)" "$(fx_tree "$T_DIR/ref" | grep -v ptbuild-lock)" "... the whole new set"
done_testing
