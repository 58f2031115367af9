#!/bin/sh
# t0606-fetch-plan.sh - fetch takes its items from the plan: the CUDA redist
# files (with the plan's sha256) for a download, the manifest when ptbuild
# holds no checksums, nothing for an installed toolkit.  Always --offline
# with an empty cache: no test touches the internet, and the miss names the
# first item the plan asked for.
. "$top_srcdir/tests/lib.sh"
cache="$T_DIR/cache"

run "$PTBUILD" plan --profile gh200 --json
first=$(printf '%s\n' "$out" | sed -n '/"downloads": \[/,/\]/p' | sed -n 's/.*"sha256": "\([0-9a-f]*\)".*/\1/p' | head -n 1)
name=$(printf '%s\n' "$out" | sed -n '/"downloads": \[/,/\]/p' | sed -n 's/.*"name": "\([^"]*\)".*/\1/p' | head -n 1)
[ -n "$first" ]; t_ok $? "the GH200 plan downloads CUDA ($name, sha256 ${first%"${first#????????????}"}...)"

run "$PTBUILD" fetch --profile gh200 --offline --cache "$cache"
is "$rc" 4 "--profile gh200 --offline with an empty cache: exit 4"
like "$err" "*'$name' (sha256 $first) is not in the cache*" "... the miss is the plan's first download, by its sha256"
like "$err" "*--prefix /usr/local/cuda-13.0 installs where the plan expects CUDA*" "... and says where the plan puts CUDA"

run "$PTBUILD" fetch --profile graviton3 --offline --cache "$cache"
is "$rc" 4 "a CUDA whose checksums ptbuild does not carry: the manifest is fetched"
like "$err" "*redistrib_13.2.2.json' is not in the cache*" "... the plan's manifest URL"

run "$PTBUILD" fetch --facts "$top_srcdir/tests/fixtures/sysroots/rtx4090-workstation.facts.json" --torch 2.8 --offline --cache "$cache"
is "$rc" 0 "an installed toolkit that suits: exit 0"
is "$out" "nothing to fetch: the plan needs no download" "... nothing to fetch"
like "$err" "*CUDA 12.8.93 installed at /usr/local/cuda-12.8: no CUDA to fetch*" "... saying which toolkit"

run "$PTBUILD" fetch --profile gh200 --lock "$T_DIR/x.lock"
is "$rc" 2 "plan options with --lock: usage error"
done_testing
