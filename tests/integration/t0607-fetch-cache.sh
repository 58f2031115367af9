#!/bin/sh
# t0607-fetch-cache.sh - a cache entry is trusted only while it hashes to
# its name: one replaced by another archive of the same size, or damaged in
# place, is never installed.  Online it is evicted and downloaded again (a
# real HTTP server on 127.0.0.1); --offline says which file, both hashes
# and what to do (exit 4).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 xz
trap fx_cleanup EXIT

fx="$T_DIR/fx"
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$fx" --components 3 --kib 32 >/dev/null ||
	skip_all "cannot build the fixture archives"
fx_faults "$fx"
[ -n "$FAULT_PORT" ] || skip_all "the fault server did not start"
unset https_proxy HTTPS_PROXY http_proxy all_proxy ALL_PROXY
export PTBUILD_RETRY_DELAY_MS=20
man="http://127.0.0.1:$FAULT_PORT/redistrib_12.4.1.json"
c="$T_DIR/cache"
F() { run "$PTBUILD" fetch --platform linux-x86_64 --manifest "$man" --cache "$c" "$@"; }
sha=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cuda_nvcc"]["linux-x86_64"]["sha256"])' \
	"$fx/redistrib_12.4.1.json")
entry="$c/sha256/$sha"
requests() { grep -c "cuda_nvcc-linux.*archive.tar.xz range=- sent" "$T_DIR/fault.log"; }

F --prefix "$T_DIR/ref"
is "$rc" 0 "a first fetch fills the cache"
ref=$(fx_tree "$T_DIR/ref" | grep -v ptbuild-lock)
[ -f "$entry" ]; t_ok $? "... with cuda_nvcc's archive under its sha256"

# Another valid archive of exactly the same size (a gzip header comment
# pads it), with a different nvcc.
python3 - "$entry" <<'PY'
import io, os, struct, sys, tarfile, zlib
path = sys.argv[1]
size = os.path.getsize(path)
raw = io.BytesIO()
with tarfile.open(fileobj=raw, mode="w") as t:
    for name, data in (("other/bin/nvcc", b"#!/bin/sh\necho replaced\n"),):
        ti = tarfile.TarInfo(name)
        ti.size, ti.mode = len(data), 0o755
        t.addfile(ti, io.BytesIO(data))
data = raw.getvalue()
co = zlib.compressobj(9, zlib.DEFLATED, -15)
body = co.compress(data) + co.flush()
tail = struct.pack("<II", zlib.crc32(data), len(data) & 0xffffffff)
pad = size - (10 + 1 + len(body) + len(tail))
assert pad > 0, "the original is too small to hold the replacement"
head = b"\x1f\x8b\x08\x10" + b"\0\0\0\0" + b"\x00\xff"   # FCOMMENT
open(path, "wb").write(head + b"x" * pad + b"\0" + body + tail)
PY
t_ok $? "the cache entry is replaced by another archive of the same size"
swapped=$(sha256sum "$entry" | cut -d' ' -f1)
F --offline --prefix "$T_DIR/off" --write-lock "$T_DIR/off.lock"
is "$rc" 4 "--offline refuses a replaced cache entry (exit 4)"
like "$err" "*error: cache entry '$entry' of 'cuda_nvcc' is damaged: its sha256 is $swapped, expected $sha*" \
	"... naming the cache file, the actual and the expected sha256"
like "$err" "*hint: it was removed from the cache; a run without --offline downloads it again*" "... and what to do"
[ ! -e "$T_DIR/off" ] && [ ! -e "$T_DIR/off.lock" ]; t_ok $? "... nothing installed, no lock written"
[ ! -e "$entry" ]; t_ok $? "... the entry is evicted"

# A byte flipped in place (same size): online, evicted and fetched again.
F --prefix "$T_DIR/warm"
is "$rc" 0 "the cache is warm again"
python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); b[len(b)//2]^=1; open(p,"wb").write(b)' "$entry"
before=$(requests)
F --prefix "$T_DIR/again"
is "$rc" 0 "online, a damaged cache entry is downloaded again"
like "$err" "*warning: cache entry '$entry' of 'cuda_nvcc' is damaged*; downloading it again*" "... saying so"
is "$(requests)" "$((before + 1))" "... one more request for it reached the server"
is "$(fx_tree "$T_DIR/again" | grep -v ptbuild-lock)" "$ref" "... and the tree is the reference one"
is "$(sha256sum "$entry" | cut -d' ' -f1)" "$sha" "... the cache holds the right bytes again"

# Without --prefix (cache only), the entry is hashed too.
python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); b[7]^=1; open(p,"wb").write(b)' "$entry"
F --offline
is "$rc" 4 "filling the cache --offline: a damaged entry is an error"
like "$err" "*cache entry '$entry' of 'cuda_nvcc' is damaged*" "... naming it"
F
is "$rc" 0 "online it is downloaded again"
is "$(sha256sum "$entry" | cut -d' ' -f1)" "$sha" "... with the right bytes"
done_testing
