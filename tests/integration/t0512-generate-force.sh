#!/bin/sh
# t0512-generate-force.sh - what generate writes past with --force, and
# what a refused image says.  A base image whose gcc or Python cannot
# build the plan (data/image.lua against the plan's CUDA and PyTorch) is
# refused, nothing written; --force writes it, the Dockerfile's header
# naming each refused check (and the bake file's copy too), read by the
# same parsers as t0503's.  Each leg's Python is held to PyTorch's wheel
# range of its platform where data/pytorch.lua has one (platform_python):
# 2.5's linux-sbsa wheels stop at 3.12 where the release takes 3.13
# experimentally.  A fleet judges every build: each refused one is named
# with its error, and nothing is written unless --force.  A plan with
# errors is refused naming them.
. "$top_srcdir/tests/lib.sh"

npm_root=$(npm root -g 2>/dev/null || true)
P=$top_srcdir/recipes/profiles
F=$top_srcdir/tests/fixtures/facts
files() { # DIR: how many files generate left there
	find "$1" -type f 2>/dev/null | wc -l | tr -d ' '
}
refused_block() { # DOCKERFILE: the header's refusal block, or nothing
	sed -n '/^# WRITTEN WITH --force/,/^# image differs/p' "$1"
}
bake_parses() { # BAKEFILE TARGETS LABEL: HashiCorp's HCL parser reads it, with those
	# targets (not _common), each inline Dockerfile whole, one with the refusal header
	if [ -n "$npm_root" ] && [ -d "$npm_root/@cdktf/hcl2json" ]; then
		NODE_PATH="$npm_root" node -e '
const {parse} = require("@cdktf/hcl2json"); const fs = require("fs");
parse("docker-bake.hcl", fs.readFileSync(process.argv[1], "utf8")).then(j => {
  const t = j.target, names = Object.keys(t).filter(n => n[0] !== "_").sort().join(",");
  if (names !== process.argv[2]) throw "targets " + names;
  const inl = Object.keys(t).map(n => t[n][0]["dockerfile-inline"]).filter(d => d);
  if (!inl.length || !inl.every(d => /^# syntax=docker\/dockerfile:1\n/.test(d))) throw "dockerfile-inline";
  if (!inl.some(d => /\n# WRITTEN WITH --force: /.test(d))) throw "no refusal header in the inline Dockerfile";
  console.log("ok");
}).catch(e => { console.error(String(e)); process.exit(1); });' "$1" "$2" >"$T_DIR/hcl" 2>&1
		t_ok $? "$3: docker-bake.hcl parses with HashiCorp's HCL parser ($2)"
		grep -v '^ok$' "$T_DIR/hcl" | sed 's/^/# /'
	else
		skip "$3: docker-bake.hcl parse" "@cdktf/hcl2json not installed"
	fi
}

# 1. One plan (dgx-h100, whose own plan has no error), debian:trixie:
# Python 3.13 for PyTorch 2.4 (3.8-3.12) and gcc 14.2.0 for CUDA 11.8
# (gcc 11 at most; trixie's oldest g++ is 12).  Both checks refuse.
set -- --profile dgx-h100 --torch 2.4 --cuda 11.8 --base-image debian:trixie
run "$PTBUILD" generate "$@" --out "$T_DIR/a" --format dockerfile,bake
is "$rc:$(files "$T_DIR/a")" "1:0" "trixie for PyTorch 2.4 and CUDA 11.8: refused, nothing written"
like "$err" "*error: the base image 'debian:trixie' has Python 3.13, newer than PyTorch 2.4 builds with*" "... naming the image's Python"
run "$PTBUILD" generate "$@" --out "$T_DIR/a" --format dockerfile,bake --force
is "$rc" 0 "... --force: written (exit 0)"
block=$(refused_block "$T_DIR/a/Dockerfile")
like "$block" "# WRITTEN WITH --force: ptbuild refused this base image for this plan.
#   Python check: the base image 'debian:trixie' has Python 3.13, newer than PyTorch 2.4 builds with (Python 3.8-3.12)*
#   gcc check: the base image 'debian:trixie' cannot build CUDA 11.8.0 for PyTorch 2.4: its gcc 14.2.0 does not work with nvcc on amd64*
# Expect the build to fail there*" "... the Dockerfile's header names both refused checks"
head -n "$(grep -n '^ARG BASE_IMAGE=' "$T_DIR/a/Dockerfile" | cut -d: -f1)" "$T_DIR/a/Dockerfile" | grep -v '^#' | grep -v '^$' | grep -qv '^ARG BASE_IMAGE=debian:trixie$'
t_ok $((!$?)) "... every line of the header before ARG BASE_IMAGE a comment"
like "$err" "*warning: --force: the Dockerfile is written although the base image 'debian:trixie' has Python 3.13*(its header says so)*warning: --force: the Dockerfile is written although the base image 'debian:trixie' cannot build CUDA 11.8.0*" \
	"... each said as a warning"
grep -q '^ENV CXX=' "$T_DIR/a/Dockerfile"
t_ok $((!$?)) "... built with the base's own gcc (no g++ it offers passes)"
grep -q 'WRITTEN WITH --force: ptbuild refused this base image for this plan.\\n#   Python check: ' "$T_DIR/a/docker-bake.hcl"
t_ok $? "... the bake file's Dockerfile carries the same header"
dockerfile_lint "$T_DIR/a/Dockerfile" "forced Dockerfile"
bake_parses "$T_DIR/a/docker-bake.hcl" "amd64,arm64" "forced bake file"
# a base that passes: no block, with or without --force
run "$PTBUILD" generate --profile dgx-h100 --torch 2.4 --cuda 11.8 --base-image ubuntu:22.04 --out "$T_DIR/b" --format dockerfile --force
is "$rc:$(refused_block "$T_DIR/b/Dockerfile")" "0:" "ubuntu:22.04 for the same plan with --force: no refusal block"
unlike "$err" "*--force: the Dockerfile is written although*" "... and no such warning"

# 2. Per leg: trixie's Python 3.13 for PyTorch 2.5 (3.9-3.12, 3.13
# experimental) builds on both legs, but 2.5's linux-sbsa wheels stop at
# 3.12: a note for arm64 alone.
run "$PTBUILD" generate --profile dgx-h100 --torch 2.5 --cuda 12.4 --base-image debian:trixie --out "$T_DIR/c" --format dockerfile
is "$rc" 0 "trixie for PyTorch 2.5: written"
like "$err" "*note: on arm64 the base image debian:trixie's Python 3.13 is outside the Python 3.9-3.12 that PyTorch 2.5's linux-sbsa wheels are built for*(the release's sources take Python 3.9-3.13)*" \
	"... a note that arm64's Python is outside 2.5's linux-sbsa wheel range"
unlike "$err" "*on amd64 the base image*" "... and none for amd64 (no platform range: the release's)"
run "$PTBUILD" generate --profile dgx-h100 --torch 2.5 --cuda 12.4 --base-image ubuntu:24.04 --out "$T_DIR/d" --format dockerfile
unlike "$err" "*wheels are built for*" "ubuntu:24.04 (Python 3.12) for PyTorch 2.5: inside both ranges, no note"
run "$PTBUILD" generate --profile dgx-h100 --torch 2.6 --cuda 12.4 --base-image debian:trixie --out "$T_DIR/e" --format dockerfile
unlike "$err" "*wheels are built for*" "trixie for PyTorch 2.6 (linux-sbsa wheels 3.9-3.13): no note"

# 3. A fleet: old-driver (x86_64, CUDA 11.8) and graviton3 (sbsa, CUDA
# 12.4), PyTorch 2.5, trixie.  Only the x86_64 build is refused (gcc);
# nothing is written, and the refusal names it.
set -- --facts "$F/old-driver.json" --facts "$P/graviton3.json" --torch 2.5 --base-image debian:trixie
run "$PTBUILD" generate "$@" --out "$T_DIR/f"
is "$rc:$(files "$T_DIR/f")" "1:0" "a fleet with one refused build: exit 1, nothing written"
like "$err" "*error: fleet build 'x86_64': the base image 'debian:trixie' cannot build CUDA 11.8.0 for PyTorch 2.5*" \
	"... the refused build named with its error"
unlike "$err" "*fleet build 'sbsa':*" "... and not the build that passes"
like "$err" "*error: 1 of 2 fleet builds cannot be written ('x86_64', each error above): nothing written*hint: *--force*" \
	"... the summary names it, and --force"
# PyTorch 2.4: both builds refused (Python), both named
set -- --facts "$F/old-driver.json" --facts "$P/graviton3.json" --torch 2.4 --base-image debian:trixie
run "$PTBUILD" generate "$@" --out "$T_DIR/g"
is "$rc:$(files "$T_DIR/g")" "1:0" "PyTorch 2.4: both builds refused, nothing written"
like "$err" "*error: fleet build 'x86_64': the base image 'debian:trixie' has Python 3.13*error: fleet build 'sbsa': the base image 'debian:trixie' has Python 3.13*error: 2 of 2 fleet builds cannot be written ('x86_64', 'sbsa', each error above)*" \
	"... each build named with its error, then both in the summary"
run "$PTBUILD" generate "$@" --out "$T_DIR/g" --force
is "$rc" 0 "... --force: written"
like "$(refused_block "$T_DIR/g/x86_64/Dockerfile")" "*Python check: *gcc check: the base image 'debian:trixie' cannot build CUDA 11.8.0*" \
	"... x86_64's Dockerfile names its two refused checks"
b=$(refused_block "$T_DIR/g/sbsa/Dockerfile")
like "$b" "*Python check: the base image 'debian:trixie' has Python 3.13*" "... sbsa's its Python check"
unlike "$b" "*gcc check*" "... and not a gcc check it passed (g++-13 for CUDA 12.4)"
like "$err" "*warning: x86_64: --force: the Dockerfile is written although*warning: sbsa: --force: the Dockerfile is written although*" \
	"... each warning named by its build"
dockerfile_lint "$T_DIR/g/x86_64/Dockerfile" "forced fleet x86_64 Dockerfile"
bake_parses "$T_DIR/g/docker-bake.hcl" "sbsa,x86_64" "forced fleet bake file"

# 4. A plan with errors: refused naming them.
run "$PTBUILD" generate --profile jetson-orin --cuda 13.4 --out "$T_DIR/h"
is "$rc:$(files "$T_DIR/h")" "1:0" "a plan with an error: exit 1, nothing written"
like "$err" "*error: the plan has 1 error (jetson-orin-needs-cuda-13.2): nothing written*hint: fix the plan, or write anyway with --force*" \
	"... the refusal names the error's code and --force"
done_testing
