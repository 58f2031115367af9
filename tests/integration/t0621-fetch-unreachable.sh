#!/bin/sh
# t0621-fetch-unreachable.sh - when the server cannot be reached (a closed
# port on 127.0.0.1), the hint fits the situation: a proxy or --mirror
# when nothing is cached; the proxy by name when one is set; --offline
# only when the cache holds the manifest and every file the fetch needs
# (and then --offline does work).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 xz
trap fx_cleanup EXIT

fx="$T_DIR/fx"
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$fx" --components 2 --kib 64 >/dev/null ||
	skip_all "cannot build the fixture archives"
unset https_proxy HTTPS_PROXY http_proxy all_proxy ALL_PROXY no_proxy NO_PROXY
export PTBUILD_RETRY_DELAY_MS=10
closed=$(fx_port)    # bound, then closed: nothing listens there
F() { run "$PTBUILD" fetch --platform linux-x86_64 --retries 1 "$@"; }

F --manifest "http://127.0.0.1:$closed/redistrib_12.4.1.json" --cache "$T_DIR/empty"
is "$rc" 4 "a closed port: exit 4"
like "$err" "*cannot download the manifest from 'http://127.0.0.1:$closed/redistrib_12.4.1.json': *" "... naming the URL"
like "$err" "*hint: no route to the server: behind a proxy, set http_proxy=*--mirror URL*" "... the hint: a proxy or --mirror"
unlike "$err" "*--offline*" "... and not --offline: the cache is empty"

http_proxy="http://127.0.0.1:$closed" F --manifest "http://127.0.0.1:$(fx_port)/redistrib_12.4.1.json" --cache "$T_DIR/empty"
is "$rc" 4 "a proxy that does not answer: exit 4"
like "$err" "*hint: the proxy 'http://127.0.0.1:$closed' (from http_proxy) may be the one not answering*unset http_proxy*" "... the hint names the proxy and its variable"

# A cache that holds everything: fill it from a live server, then stop it.
fx_faults "$fx"
[ -n "$FAULT_PORT" ] || skip_all "the fault server did not start"
url="http://127.0.0.1:$FAULT_PORT/redistrib_12.4.1.json"
F --manifest "$url" --cache "$T_DIR/full"
is "$rc" 0 "a fetch fills the cache"
fx_cleanup
F --manifest "$url" --cache "$T_DIR/full"
is "$rc" 4 "the same fetch with the server gone: exit 4"
like "$err" "*hint: the cache '$T_DIR/full' holds this manifest and all 2 files it needs: run the same fetch with --offline; or: no route*" "... the hint puts --offline first"
F --manifest "$url" --cache "$T_DIR/full" --offline --prefix "$T_DIR/cuda"
is "$rc" 0 "... and --offline does install"

# One file gone: --offline would fail, so the hint does not offer it.
rm -f "$T_DIR/full/sha256/$(ls "$T_DIR/full/sha256" | head -n 1)"
F --manifest "$url" --cache "$T_DIR/full"
is "$rc" 4 "one file gone from the cache, server gone: exit 4"
like "$err" "*hint: no route to the server*" "... the hint: a proxy or --mirror"
unlike "$err" "*--offline*" "... and not --offline"

done_testing
