#!/bin/sh
# t0606-fetch-plan.sh - fetch takes its items from the plan: the CUDA redist
# files (with the plan's sha256) for a download, the manifest when ptbuild
# holds no checksums, nothing for an installed toolkit.  Always --offline
# with an empty cache or a mirror on disk: no test touches the internet,
# and the miss names the first item the plan asked for.
. "$top_srcdir/tests/lib.sh"
cache="$T_DIR/cache"

run "$PTBUILD" plan --profile gh200 --json
first=$(printf '%s\n' "$out" | sed -n '/"downloads": \[/,/\]/p' | sed -n 's/.*"sha256": "\([0-9a-f]*\)".*/\1/p' | head -n 1)
name=$(printf '%s\n' "$out" | sed -n '/"downloads": \[/,/\]/p' | sed -n 's/.*"name": "\([^"]*\)".*/\1/p' | head -n 1)
[ -n "$first" ]; t_ok $? "the GH200 plan downloads CUDA ($name, sha256 ${first%"${first#????????????}"}...)"

run "$PTBUILD" fetch --profile gh200 --offline --cache "$cache"
is "$rc" 4 "--profile gh200 --offline with an empty cache: exit 4"
like "$err" "*lacks 20 of 20 files:*'$name' (sha256 $first)*" "... the misses, each by name and sha256, the plan's first download among them"
like "$err" "*--prefix /usr/local/cuda-13.0 installs where the plan expects CUDA*" "... and says where the plan puts CUDA"

run "$PTBUILD" fetch --profile graviton3 --cuda 13.5 --offline --cache "$cache"
is "$rc" 4 "a CUDA whose checksums ptbuild does not carry (13.5): the manifest is fetched"
like "$err" "*redistrib_13.5.0.json' is not in the cache*" "... the plan's manifest URL"
like "$err" "*warning: plan: the GPU list and host compiler limits of CUDA 13.5 are assumed equal to those of CUDA 13.4 (no source*cuda-data-assumed*" \
	"... after the plan's problems: 13.5's GPU list and compiler limits are assumed"

# The plan's problems are said before its files are fetched; an error
# among them (plan exits 1 for it) stops the fetch: an Orin on JetPack 6.2
# asked for the SBSA CUDA 13.4 it cannot run.  --dry-run still lists the
# 3 GiB it would take, and exits 1 as the fetch would; --force goes on.
run "$PTBUILD" fetch --profile jetson-orin --cuda 13.4 --dry-run --offline --cache "$cache"
is "$rc" 1 "an Orin on JetPack 6.2 with --cuda 13.4, --dry-run: exit 1, as the fetch itself would"
like "$out" "would fetch 20 components (3.1 GiB and 1 of unknown size) for linux-sbsa*cuda_nvcc *" "... listing what it would fetch all the same"
like "$err" "*error: plan: this Jetson (GPU 8.7, L4T 36.4.3) reaches CUDA 13 only through the SBSA toolkit*CUDA 13.4 will not run here*jetson-orin-needs-cuda-13.2*" \
	"... the plan's error said as an error"
like "$err" "*error: the plan has 1 error (jetson-orin-needs-cuda-13.2): without --dry-run nothing would be fetched*hint: *or fetch its files anyway with --force*" \
	"... and that the fetch would refuse it, naming the error and --force"
run "$PTBUILD" fetch --profile jetson-orin --cuda 13.4 --dry-run --offline --cache "$cache" --force
is "$rc" 0 "... with --force: exit 0"
like "$err" "*warning: plan: this Jetson*jetson-orin-needs-cuda-13.2*note: the plan has 1 error ('ptbuild plan' exits 1 for it): fetching its files all the same (--force)*" \
	"... the error said as a warning, with a note that fetch goes on"
run "$PTBUILD" -q fetch --profile jetson-orin --cuda 13.4 --dry-run --offline --cache "$cache" --force
is "$err" "" "... -q: nothing of it"

run "$PTBUILD" fetch --facts "$top_srcdir/tests/fixtures/sysroots/rtx4090-workstation.facts.json" --torch 2.8 --offline --cache "$cache"
is "$rc" 0 "an installed toolkit that suits: exit 0"
is "$out" "nothing to fetch: the plan needs no download" "... nothing to fetch"
like "$err" "*CUDA 12.8.93 installed at /usr/local/cuda-12.8: no CUDA to fetch*" "... saying which toolkit"
# the same plan saved and fetched by --plan FILE (what setup.sh and the
# generated workflow run): the same answer, not a usage error
"$PTBUILD" plan --facts "$top_srcdir/tests/fixtures/sysroots/rtx4090-workstation.facts.json" --torch 2.8 \
	--json >"$T_DIR/installed.plan.json" 2>/dev/null
run "$PTBUILD" fetch --plan "$T_DIR/installed.plan.json" --offline --cache "$cache"
is "$rc" 0 "... saved and fetched by --plan FILE: exit 0"
is "$out" "nothing to fetch: the plan needs no download" "... nothing to fetch, said the same way"
run "$PTBUILD" fetch --plan "$T_DIR/installed.plan.json" --offline --cache "$cache" --dry-run
is "$rc:$out" "0:nothing to fetch: the plan needs no download" "... --dry-run: the same"

# A mirror of what the plan downloads: one directory laid out like NVIDIA's
# CUDA and cuDNN redist trees, the rest at HOST/PATH (file:// here; http
# and https the same way).
mkdir -p "$T_DIR/mirror"
run "$PTBUILD" fetch --profile gh200 --mirror "$T_DIR/mirror" --offline -v --cache "$cache"
is "$rc" 4 "--profile gh200 --mirror DIR --offline, empty cache: exit 4"
like "$err" "*item cuda_nvcc: file://$T_DIR/mirror/cuda_nvcc/linux-sbsa/cuda_nvcc-linux-sbsa-13.0.88-archive.tar.xz*" \
	"... the CUDA files are taken from the mirror"
like "$err" "*item cudnn: file://$T_DIR/mirror/cudnn/linux-sbsa/cudnn-linux-sbsa-9.24.0.43_cuda13-archive.tar.xz*" \
	"... and so is cuDNN (9.24.0.43, the cu130 wheels'), from the same directory"
like "$err" "*item openblas: file://$T_DIR/mirror/github.com/OpenMathLib/OpenBLAS/releases/download/v0.3.34/OpenBLAS-0.3.34.tar.gz*" \
	"... and OpenBLAS's source from MIRROR/HOST/PATH, as the Dockerfile's PTBUILD_MIRROR"
printf '%s\n' "$err" | grep 'debug: item ' | grep -q 'developer.download.nvidia.com\|https://github.com'
t_ok $((!$?)) "... no item is left pointing at NVIDIA or GitHub"

if command -v xz >/dev/null 2>&1; then
	comps=$("$PTBUILD" plan --profile graviton3 --cuda 13.5 --json | python3 -c 'import json, sys; print(",".join(json.load(sys.stdin)["cuda"]["components"]))')
	python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$T_DIR/mirror" --platform linux-sbsa \
		--version 13.5.0 --kib 4 --names "$comps"
	run "$PTBUILD" fetch --profile graviton3 --cuda 13.5 --no-cudnn --mirror "$T_DIR/mirror" --prefix "$T_DIR/cuda" --cache "$T_DIR/c2"
	is "$rc" 0 "--profile graviton3 --cuda 13.5 --no-cudnn --mirror DIR: the manifest and the files come from the mirror"
	like "$out" "installed 18 components (*) into $T_DIR/cuda in *" "... and install (18 components)"
	[ -x "$T_DIR/cuda/bin/nvcc" ] && [ -f "$T_DIR/cuda/include/libcublas.h" ]; t_ok $? "... a toolkit tree with nvcc and cuBLAS"
	# The same through a saved plan, as the generated setup.sh runs it.
	"$PTBUILD" plan --profile graviton3 --cuda 13.5 --no-cudnn --json >"$T_DIR/g3.plan.json" 2>/dev/null
	run "$PTBUILD" fetch --plan "$T_DIR/g3.plan.json" --mirror "$T_DIR/mirror" --prefix "$T_DIR/cuda3" --cache "$T_DIR/c2"
	is "$rc" 0 "fetch --plan FILE: a release without carried checksums is resolved through its manifest too"
	like "$out" "installed 18 components (*) into $T_DIR/cuda3 in *" "... the same 18 components"
	like "$(cat "$T_DIR/g3.plan.json")" '*"files_from_manifest": true*' "... because the plan says cuda.files_from_manifest"
	# A plan saved before that key existed: an empty cuda.downloads says it.
	python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); del p["cuda"]["files_from_manifest"]; json.dump(p, open(sys.argv[2], "w"))' \
		"$T_DIR/g3.plan.json" "$T_DIR/g3-old.plan.json"
	run "$PTBUILD" fetch --plan "$T_DIR/g3-old.plan.json" --mirror "$T_DIR/mirror" --prefix "$T_DIR/cuda4" --cache "$T_DIR/c2"
	like "$out" "installed 18 components (*) into $T_DIR/cuda4 in *" "... and so does an older saved plan without the key"
	# With cuDNN (its checksums are ptbuild's): the manifest's files and cuDNN.
	run "$PTBUILD" fetch --profile graviton3 --cuda 13.5 --mirror "$T_DIR/mirror" --prefix "$T_DIR/cuda2" --cache "$T_DIR/c2" --offline -v
	is "$rc" 4 "without --no-cudnn the plan adds cuDNN to the manifest's files (not in this cache: exit 4)"
	like "$err" "*item cuda_nvcc: file://$T_DIR/mirror/cuda_nvcc/linux-sbsa/cuda_nvcc-linux-sbsa-13.5.0.*" "... the CUDA files from the mirror's manifest"
	like "$err" "*item cudnn: file://$T_DIR/mirror/cudnn/linux-sbsa/cudnn-linux-sbsa-9.20.0.48_cuda13-archive.tar.xz*" "... and cuDNN"
	like "$err" "*lacks 1 of * files:*'cudnn' (sha256 *)*" "... which is what the cache lacks"

	# --mirror-hosts: one tree holding every download at HOST/PATH (the
	# Dockerfile's and setup.sh's PTBUILD_MIRROR): the same archives moved
	# under developer.download.nvidia.com/compute/cuda/redist/.
	H="$T_DIR/hosts"
	mkdir -p "$H/developer.download.nvidia.com/compute/cuda"
	cp -R "$T_DIR/mirror" "$H/developer.download.nvidia.com/compute/cuda/redist"
	run "$PTBUILD" fetch --profile graviton3 --cuda 13.5 --no-cudnn --mirror-hosts "$H" --prefix "$T_DIR/cuda5" --cache "$T_DIR/c5"
	is "$rc" 0 "--mirror-hosts DIR: the manifest and files from DIR/HOST/PATH"
	like "$out" "installed 18 components (*) into $T_DIR/cuda5 in *" "... the same 18 components"
	run "$PTBUILD" fetch --cuda 13.5.0 --platform linux-sbsa --components cuda_nvcc --mirror-hosts "file://$H" --prefix "$T_DIR/cuda6" --cache "$T_DIR/c6"
	is "$rc" 0 "fetch --cuda 13.5.0 --mirror-hosts URL: redistrib_13.5.0.json under its HOST/PATH"
	run "$PTBUILD" fetch --profile gh200 --mirror-hosts "$H" --offline -v --cache "$T_DIR/c7"
	like "$err" "*item cuda_nvcc: file://$H/developer.download.nvidia.com/compute/cuda/redist/cuda_nvcc/linux-sbsa/*item cudnn: file://$H/developer.download.nvidia.com/compute/cudnn/redist/cudnn/linux-sbsa/*item openblas: file://$H/github.com/OpenMathLib/OpenBLAS/*" \
		"... with a plan: CUDA, cuDNN and OpenBLAS each under its own HOST/PATH"
	run "$PTBUILD" fetch --profile gh200 --mirror "$T_DIR/mirror" --mirror-hosts "$H"
	is "$rc" 2 "--mirror and --mirror-hosts together: a usage error"
else
	skip "fetch through a mirror into a prefix" "xz is not installed"
fi

# The fix plan prints for a toolkit without cuDNN is a fetch command that
# works: here against NVIDIA's own manifest bytes (the copy ptbuild carries,
# held to its pinned sha256 by t0211), so the pinned sha256 must match them.
# PyTorch 2.6's CUDA 12.4 wheels use cuDNN 9.1.0, which ptbuild does not
# carry: the fix names the newest carried, 9.20.0.
fix=$("$PTBUILD" plan --facts "$top_srcdir/tests/fixtures/sysroots/container-no-driver.facts.json" --torch 2.6 2>&1 |
	sed -n 's/^ *fix: \(ptbuild fetch --manifest .*cudnn.*\), then export CUDNN_ROOT=.*/\1/p')
like "$fix" "ptbuild fetch --manifest https://developer.download.nvidia.com/compute/cudnn/redist/redistrib_9.20.0.json --manifest-sha256 488be2657edfaaa9eada30247de95e81e3ce767f504dccb847d422cd358226a0 --components cudnn --variant cuda12 --prefix /opt/cudnn-9.20.0.48-cuda12" \
	"cudnn-not-found's fix is a fetch command for NVIDIA's cuDNN manifest"
cp "$top_srcdir/tools/data/redist/redistrib_9.20.0.json" "$T_DIR/redistrib_9.20.0.json"
# shellcheck disable=SC2086
set -- $(printf '%s\n' "$fix" | sed "s|--manifest [^ ]*|--manifest $T_DIR/redistrib_9.20.0.json|; s|--prefix [^ ]*|--prefix $T_DIR/cudnn|; s|^ptbuild fetch ||")
run "$PTBUILD" fetch --platform linux-x86_64 --cache "$T_DIR/c3" "$@"
like "$err" "*cannot download cudnn from 'file://$T_DIR/cudnn/linux-x86_64/cudnn-linux-x86_64-9.20.0.48_cuda12-archive.tar.xz'*" \
	"... whose pinned sha256 is that of NVIDIA's manifest, and which names the right archive"

run "$PTBUILD" fetch --profile gh200 --lock "$T_DIR/x.lock"
is "$rc" 2 "plan options with --lock: usage error"
done_testing
