#!/bin/sh
# t0614-fetch-archive.sh - fetch --archive URL@SHA256: one redist-style
# archive known by its sha256 alone (no manifest, no size: a cuDNN
# release ptbuild carries from per-archive digests) is downloaded from a
# loopback server (nginx, plain HTTP on 127.0.0.1), held to that sha256
# and unpacked into the prefix like a manifest's component.  A wrong
# digest installs nothing and keeps nothing; a malformed value is a usage
# error.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 openssl nginx xz
trap fx_cleanup EXIT
unset http_proxy HTTP_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY

fx_cudnn924 "$T_DIR/src" "$T_DIR/www" 30000 || skip_all "cannot make the test archive"
sha=$(sha256sum "$T_DIR/www/$rel" | cut -c1-64)
size=$(wc -c <"$T_DIR/www/$rel" | tr -d ' ')
fx_ca "$T_DIR/ca" || skip_all "openssl cannot make a test CA"
fx_nginx "$T_DIR/www" "$T_DIR/ca"
url="http://127.0.0.1:$NGX_HTTP/$rel"

# The archive's own sha256: installed, its license under its name.
: >"$T_DIR/nginx/access.log"
run "$PTBUILD" fetch --archive "$url@$sha" --platform linux-sbsa --prefix "$T_DIR/p1" --cache "$T_DIR/c1" --write-lock "$T_DIR/a.lock"
is "$rc" 0 "fetch --archive URL@SHA256 --prefix: exit 0"
cmp -s "$T_DIR/src/$top/lib/libcudnn.so.9.24.0" "$T_DIR/p1/lib/libcudnn.so.9.24.0" &&
	grep -q 'CUDNN_MINOR 24' "$T_DIR/p1/include/cudnn_version.h"
t_ok $? "... the archive's include/ and lib/ in the prefix, its top folder stripped"
[ -f "$T_DIR/p1/share/licenses/$top/LICENSE" ]
t_ok $? "... its LICENSE under share/licenses/$top"
grep -q "GET /$rel " "$T_DIR/nginx/access.log"
t_ok $? "... downloaded from the loopback server"
[ "$(cat "$T_DIR/c1/sha256/$sha" 2>/dev/null | wc -c | tr -d ' ')" = "$size" ]
t_ok $? "... and kept in the cache under its sha256"
got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s %s %s %s %s" % (i["name"], i["kind"], i["sha256"], i.get("size", "no-size"), i["url"]) for i in d["items"]))
' "$T_DIR/a.lock")
is "$got" "$top archive $sha no-size $url" "... and the lock names it as an archive with its sha256 and no size"

# The lock reproduces it from the cache alone.
run "$PTBUILD" fetch --lock "$T_DIR/a.lock" --prefix "$T_DIR/p2" --cache "$T_DIR/c1" --offline
is "$rc" 0 "fetch --lock (that lock) --offline: exit 0"
is "$(fx_tree "$T_DIR/p2" | grep -v ptbuild-lock)" "$(fx_tree "$T_DIR/p1" | grep -v ptbuild-lock)" "... the same tree, from the cache"

# A lock fetches exactly its own items: an --archive beside it would be
# left out unseen, so it is a usage error.
run "$PTBUILD" fetch --lock "$T_DIR/a.lock" --archive "$url@$sha" --prefix "$T_DIR/p9" --cache "$T_DIR/c1" --offline
is "$rc:$err" "2:ptbuild: error: --lock fetches exactly its own items; drop --manifest, --mirror, --mirror-hosts, --components, --plan, --file and --archive
hint: see 'ptbuild fetch --help'" \
	"--lock with --archive: exit 2, named"

# --dry-run: the size is unknown until the server says it.
run "$PTBUILD" fetch --archive "$url@$sha" --platform linux-sbsa --prefix "$T_DIR/p3" --cache "$T_DIR/c3" --dry-run
like "$out" "*$top *size unknown*$url*" "--dry-run: the archive, its size unknown, from its URL"
like "$out" "would fetch 1 component (sizes unknown) for linux-sbsa into $T_DIR/p3
cache $T_DIR/c3 holds 0 of them; 0 B to download and 1 file of unknown size*" \
	"... and no byte total that leaves it out unsaid"
run "$PTBUILD" fetch --lock "$T_DIR/a.lock" --prefix "$T_DIR/p3" --cache "$T_DIR/c3" --dry-run
like "$out" "*holds 0 of them; 0 B to download and 1 file of unknown size*" "--dry-run of the lock: the same"

# Another sha256 (the right one for other bytes): refused, nothing kept.
bad=$(printf '%s' "$sha" | tr '0-9a-f' '1-9a-f0')
: >"$T_DIR/nginx/access.log"
run "$PTBUILD" fetch --archive "$url@$bad" --platform linux-sbsa --prefix "$T_DIR/p4" --cache "$T_DIR/c4"
is "$rc" 4 "a wrong sha256: exit 4"
like "$err" "*'$top': sha256 mismatch: expected $bad, got $sha*" "... naming the archive, the digest given and the one served"
grep -q "GET /$rel " "$T_DIR/nginx/access.log" && [ ! -e "$T_DIR/p4" ] && [ -z "$(find "$T_DIR/c4" -type f 2>/dev/null)" ]
t_ok $? "... after downloading it: no prefix, nothing in the cache"

# ... and over an existing prefix, the old tree stays as it was.
before=$(fx_tree "$T_DIR/p1")
run "$PTBUILD" fetch --archive "$url@$bad" --platform linux-sbsa --prefix "$T_DIR/p1" --cache "$T_DIR/c5"
is "$rc:$(fx_tree "$T_DIR/p1")" "4:$before" "a wrong sha256 over an installed prefix: exit 4, the prefix unchanged"

# A saved plan whose download has no size (a cuDNN archive no source
# gave one for) is a valid plan: fetch --plan holds it to its sha256
# (NVIDIA's URL, taken from the loopback server as --mirror).
"$PTBUILD" plan --profile dgx-h100 --json >"$T_DIR/h100.plan.json" 2>/dev/null
python3 - "$T_DIR/h100.plan.json" "$T_DIR/nosize.plan.json" "https://developer.download.nvidia.com/compute/cudnn/redist/$rel" "$sha" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["cuda"]["source"] = "download"
p["cuda"]["downloads"] = [{"name": "cudnn", "version": "9.24.0.43", "url": sys.argv[3], "sha256": sys.argv[4]}]
p["cuda"]["files_from_manifest"] = False
json.dump(p, open(sys.argv[2], "w"))
PY
run "$PTBUILD" fetch --plan "$T_DIR/nosize.plan.json" --mirror "http://127.0.0.1:$NGX_HTTP" --prefix "$T_DIR/p7" --cache "$T_DIR/c7"
is "$rc" 0 "fetch --plan: a download without a size is fetched (exit 0)"
unlike "$err" "*error*" "... with no error (the plan's warnings are said)"
cmp -s "$T_DIR/src/$top/lib/libcudnn.so.9.24.0" "$T_DIR/p7/lib/libcudnn.so.9.24.0"
t_ok $? "... and installed"
json_edit "$T_DIR/nosize.plan.json" "$T_DIR/badsize.plan.json" "f['cuda']['downloads'][0]['size'] = 'many'"
run "$PTBUILD" fetch --plan "$T_DIR/badsize.plan.json" --prefix "$T_DIR/p8" --cache "$T_DIR/c8"
is "$rc" 2 "... but a size that is no number of bytes is a bad plan file (exit 2)"
like "$err" "*'$T_DIR/badsize.plan.json' is not a valid plan: key 'cuda.downloads?0?.size': expected a whole number of bytes, or no size*" "... named with its key"

# Malformed values: usage errors naming the option and the value.
run "$PTBUILD" fetch --archive "$url" --platform linux-sbsa --prefix "$T_DIR/p6"
is "$rc:$err" "2:ptbuild: error: --archive '$url': expected URL@SHA256 (64 lowercase hex digits)" "--archive without a sha256: exit 2, named"
run "$PTBUILD" fetch --archive "$url@$(printf '%s' "$sha" | tr 'a-f' 'A-F')" --platform linux-sbsa --prefix "$T_DIR/p6"
is "$rc" 2 "--archive with an upper-case sha256: exit 2"
[ ! -e "$T_DIR/p6" ]
t_ok $? "... and no prefix made"
done_testing
