#!/bin/sh
# t0622-fetch-plan-errors.sh - a plan with errors fetches nothing unless
# --force, as generate writes nothing for it.  A mirror served by nginx
# on 127.0.0.1 (plain HTTP) holds every file the plan names; the plan
# (graviton3, CUDA 13.5, PyTorch 2.8, which does not build with CUDA 13: an
# error) is refused from plan options and from a saved plan file, with
# no request reaching the server and no cache or prefix made; --dry-run
# lists the files and exits 1; --force installs them.  The Orin asked
# for CUDA 13.4 it cannot run is refused the same way.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 openssl nginx xz
trap fx_cleanup EXIT
unset http_proxy HTTP_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY

set -- --profile graviton3 --cuda 13.5 --no-cudnn --torch 2.8
run "$PTBUILD" plan "$@" --json
printf '%s\n' "$out" >"$T_DIR/bad.plan.json"
is "$rc" 1 "the plan: exit 1 (an error)"
like "$out" '*"code": "torch-cuda-unsupported"*' "... torch-cuda-unsupported: PyTorch 2.8 does not build CUDA 13"
comps=$(python3 -c 'import json, sys; print(",".join(json.load(open(sys.argv[1]))["cuda"]["components"]))' "$T_DIR/bad.plan.json")
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$T_DIR/www" --platform linux-sbsa \
	--version 13.5.0 --kib 4 --names "$comps" || skip_all "cannot build the fixture archives"
fx_ca "$T_DIR/ca" || skip_all "openssl cannot make a test CA"
fx_nginx "$T_DIR/www" "$T_DIR/ca"
base="http://127.0.0.1:$NGX_HTTP"
log=$T_DIR/nginx/access.log
nothing() { # PREFIX CACHE: no request, no prefix, no cache
	[ ! -s "$log" ] && [ ! -e "$1" ] && [ ! -e "$2" ] && echo nothing || echo "something: $(wc -l <"$log") requests"
}

# 1. From plan options: refused before any request.
: >"$log"
run "$PTBUILD" fetch "$@" --mirror "$base" --prefix "$T_DIR/p1" --cache "$T_DIR/c1"
is "$rc:$(nothing "$T_DIR/p1" "$T_DIR/c1")" "1:nothing" "plan options with an error: exit 1, no request, no prefix, no cache"
like "$err" "*error: plan: *torch-cuda-unsupported*error: the plan has 1 error (torch-cuda-unsupported): nothing fetched*hint: *fetch its files anyway with --force*" \
	"... the error said as an error, then the refusal naming it and --force"
unlike "$out" "*installed*" "... and nothing said installed"

# 2. --dry-run: the list all the same, exit 1 as the fetch.
run "$PTBUILD" fetch "$@" --mirror "$base" --prefix "$T_DIR/p1" --cache "$T_DIR/c1" --dry-run
is "$rc" 1 "--dry-run of that plan: exit 1"
like "$out" "would fetch 18 components (*) for linux-sbsa into $T_DIR/p1*cuda_nvcc *" "... listing the 18 files it would fetch"
like "$err" "*the plan has 1 error (torch-cuda-unsupported): without --dry-run nothing would be fetched*" "... saying the plan has errors"
[ ! -e "$T_DIR/p1" ]; t_ok $? "... and installing nothing"

# 3. --force: fetched and installed from the mirror.
: >"$log"
run "$PTBUILD" fetch "$@" --mirror "$base" --prefix "$T_DIR/p1" --cache "$T_DIR/c1" --force
is "$rc" 0 "--force: exit 0"
like "$out" "installed 18 components (*) into $T_DIR/p1 in *" "... 18 components installed"
[ -x "$T_DIR/p1/bin/nvcc" ]; t_ok $? "... a toolkit tree with nvcc"
is "$(grep -c 'GET /[a-z_]*/linux-sbsa/.*archive.tar' "$log")" 18 "... each archive requested from the mirror"
like "$err" "*warning: plan: *torch-cuda-unsupported*note: the plan has 1 error ('ptbuild plan' exits 1 for it): fetching its files all the same (--force)*" \
	"... the error said as a warning, and that fetch went on"

# 4. A saved plan file: the same.
: >"$log"
run "$PTBUILD" fetch --plan "$T_DIR/bad.plan.json" --mirror "$base" --prefix "$T_DIR/p2" --cache "$T_DIR/c2"
is "$rc:$(nothing "$T_DIR/p2" "$T_DIR/c2")" "1:nothing" "fetch --plan FILE with an error: exit 1, no request, no prefix, no cache"
like "$err" "*error: the plan '$T_DIR/bad.plan.json' has 1 error (torch-cuda-unsupported): nothing fetched*" "... naming the file and the error"
run "$PTBUILD" fetch --plan "$T_DIR/bad.plan.json" --mirror "$base" --prefix "$T_DIR/p2" --cache "$T_DIR/c2" --force
is "$rc" 0 "... --force: exit 0"
like "$out" "installed 18 components (*) into $T_DIR/p2 in *" "... installed"
# the same plan without its error (the plan's own fix): fetched without --force
python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); p["problems"] = [x for x in p["problems"] if x["severity"] != "error"]; json.dump(p, open(sys.argv[2], "w"))' \
	"$T_DIR/bad.plan.json" "$T_DIR/ok.plan.json"
run "$PTBUILD" fetch --plan "$T_DIR/ok.plan.json" --mirror "$base" --prefix "$T_DIR/p3" --cache "$T_DIR/c2"
is "$rc" 0 "the same plan with no error: fetched without --force"

# 5. generate --force writes setup.sh, whose fetch is told --force too.
run "$PTBUILD" generate "$@" --out "$T_DIR/gen" --format setup
is "$rc:$(test -e "$T_DIR/gen/setup.sh" && echo written || echo none)" "1:none" "generate without --force: nothing written"
run "$PTBUILD" generate "$@" --out "$T_DIR/gen" --format setup --force
run env PTBUILD=/x/ptbuild TMPDIR="$T_DIR" sh "$T_DIR/gen/setup.sh" --dry-run
like "$out$err" "*/x/ptbuild fetch --plan $T_DIR/gen/plan.json --prefix /usr/local/cuda-13.5 --force*" \
	"generate --force: setup.sh runs fetch --plan with --force"

# 6. The Orin on JetPack 6.2 asked for CUDA 13.4 (SBSA), which it cannot run.
: >"$log"
run "$PTBUILD" fetch --profile jetson-orin --cuda 13.4 --mirror "$base" --prefix "$T_DIR/p4" --cache "$T_DIR/c4"
is "$rc:$(nothing "$T_DIR/p4" "$T_DIR/c4")" "1:nothing" "jetson-orin --cuda 13.4: exit 1, none of the 3 GiB fetched"
like "$err" "*the plan has 1 error (jetson-orin-needs-cuda-13.2): nothing fetched*" "... naming the error"
done_testing
