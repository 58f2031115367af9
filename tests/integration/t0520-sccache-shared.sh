#!/bin/sh
# t0520-sccache-shared.sh - the compile cache `generate --sccache` sets up,
# proven with the real sccache, CMake and nvcc: the tiny CUDA project (plus
# one C++ file) is configured and built through the generated
# CMakePresets.json twice, the second time from an empty build tree by a
# second sccache server, and sccache's own --show-stats count the C++ and
# the CUDA object as misses the first time and as hits the second.
#
# Two backends: the cache directory both servers share (every sccache has
# it), and a redis-server this test starts on 127.0.0.1 (`--sccache-redis`,
# how builders on many machines share one cache).  For Redis each build has
# a fresh server, started with the SCCACHE_ settings of the generated
# presets and its own empty SCCACHE_DIR, so only Redis can serve the hits;
# redis-cli counts the keys the cold build wrote and the warm one did not
# add.  Debian 12's sccache 0.4.0 has no Redis backend: then Debian sid's
# (0.17.0, fetched with apt into a cache outside the checkout, see
# tests/realinputs/apt-get-debs.sh) is used, through sid's own loader and
# glibc when this one is too old for it; without it that part skips with
# the reason.  Every sccache server here listens on its own free port and
# keeps its files under $T_DIR; the servers and redis-server are stopped.
# PTB_REAL=0 fetches nothing; PTB_SCCACHE_CACHE moves the sid cache
# (default ~/.cache/ptbuild-sccache-sid).
. "$top_srcdir/tests/lib.sh"

command -v sccache >/dev/null 2>&1 || skip_all "sccache is not installed (./setup.sh installs it)"
command -v cmake >/dev/null 2>&1 || skip_all "cmake is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
nvcc=${NVCC:-}
case "$nvcc" in /*) ;; ?*) nvcc=$(command -v "$nvcc" 2>/dev/null) ;; esac
[ -n "$nvcc" ] && [ -x "$nvcc" ] || skip_all "no nvcc (configure found none)"
root=$(nvcc_toolkit "$nvcc") || skip_all "$nvcc names no toolkit root (nvcc --dryrun printed no TOP=)"

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Where the Debian sid packages are cached between runs (before HOME moves).
SID_CACHE=${PTB_SCCACHE_CACHE:-${HOME:-/nonexistent}/.cache/ptbuild-sccache-sid}

# No setting of the caller's reaches sccache: its own config file, home
# and server port are the test's.
for v in $(env | sed -n 's/^\(SCCACHE_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
export HOME="$T_DIR/home" SCCACHE_CONF="$T_DIR/home/sccache.conf"
export SCCACHE_CACHED_CONF="$T_DIR/home/sccache-cached.conf" SCCACHE_IDLE_TIMEOUT=120
mkdir -p "$HOME"
PORTS=""
PIDS=""
REDIS_PID=""
cleanup() {
	for p in $PORTS; do SCCACHE_SERVER_PORT=$p sccache --stop-server >/dev/null 2>&1; done
	for p in $PIDS $REDIS_PID; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
}
trap cleanup EXIT

cat >"$T_DIR/plan.json" <<JSON
{"schema": "ptbuild.plan/1", "torch": {"version": "2.9.0"},
 "cuda": {"version": "13.0", "platform": "linux-x86_64", "source": "installed", "root": "$root", "downloads": []},
 "torch_cuda_arch_list": "8.0",
 "cmake": {"CMAKE_CUDA_ARCHITECTURES": "80-real", "CMAKE_CUDA_COMPILER": "$nvcc", "CUDAToolkit_ROOT": "$root"},
 "env": {}, "path_prepend": {}, "problems": []}
JSON

# project NAME GENERATE-OPTIONS...: the tiny CUDA project and one C++ file
# in $T_DIR/NAME, with the CMakePresets.json generate writes for it.
project() {
	name=$1
	shift
	src="$T_DIR/$name"
	cp -R "$top_srcdir/tests/fixtures/cuda-tiny" "$src"
	chmod -R u+w "$src"
	printf 'int ptbuild_host(int x) { return 2 * x; }\n' >"$src/host.cpp"
	printf 'add_library(host OBJECT host.cpp)\n' >>"$src/CMakeLists.txt"
	"$PTBUILD" -q generate --plan "$T_DIR/plan.json" --out "$src" --format presets "$@" >/dev/null 2>&1
	t_ok $? "$name: generate $* writes CMakePresets.json"
}

# build NAME LABEL: configure and build NAME from an empty build tree with
# a fresh sccache server (port $SCCACHE_SERVER_PORT); $stats holds its
# --show-stats for the build step alone (configure's compiler checks go
# through sccache too and are zeroed).
build() {
	src="$T_DIR/$1"
	rm -rf "$src/build"
	# the server up before CMake's compiler checks: started on demand by
	# the first compile it can miss its start-up wait on a loaded machine
	# (seen once under the sanitizer pass: "not able to compile a simple
	# test program"); --show-stats starts it, and is retried
	i=0
	until sccache --show-stats >/dev/null 2>&1 || [ $i -ge 3 ]; do i=$((i + 1)); sleep 1; done
	(cd "$src" && cmake --preset ptbuild >"$T_DIR/$1-$2-configure.log" 2>&1)
	st=$?
	t_ok $st "$1, $2: cmake --preset ptbuild configures"
	[ "$st" -eq 0 ] || { tail -n 15 "$T_DIR/$1-$2-configure.log" | sed 's/^/# /'; return 1; }
	sccache --zero-stats >/dev/null 2>&1
	(cd "$src" && cmake --build --preset ptbuild >"$T_DIR/$1-$2-build.log" 2>&1)
	st=$?
	t_ok $st "$1, $2: cmake --build --preset ptbuild builds"
	[ "$st" -eq 0 ] || tail -n 15 "$T_DIR/$1-$2-build.log" | sed 's/^/# /'
	stats=$(sccache --show-stats 2>&1)
	sccache --stop-server >/dev/null 2>&1
}

# stat LABEL: the number sccache's stats give for LABEL (0 when absent)
stat() {
	printf '%s\n' "$stats" | awk -v k="$1" '
		{ v = $NF; line = $0; sub(/[ \t]+[0-9]+[ \t]*$/, "", line) }
		line == k { print v; found = 1 }
		END { if (!found) print 0 }'
}

cold_then_warm() { # NAME
	SCCACHE_SERVER_PORT=$(free_port)
	export SCCACHE_SERVER_PORT
	PORTS="$PORTS $SCCACHE_SERVER_PORT"
	build "$1" cold
	is "$(stat 'Cache misses (C/C++)'):$(stat 'Cache misses (CUDA)'):$(stat 'Cache hits')" "1:1:0" \
		"$1, cold: sccache compiled host.cpp and tiny.cu (one C/C++ and one CUDA miss, no hit)"
	SCCACHE_SERVER_PORT=$(free_port)
	export SCCACHE_SERVER_PORT
	PORTS="$PORTS $SCCACHE_SERVER_PORT"
	build "$1" warm
	is "$(stat 'Cache hits (C/C++)'):$(stat 'Cache hits (CUDA)'):$(stat 'Cache misses')" "1:1:0" \
		"$1, warm, new server, empty build tree: both objects are cache hits, no miss"
	obj=$(find "$T_DIR/$1/build" -name 'tiny.cu.o' | head -1)
	[ -n "$obj" ] && "$PTBUILD" inspect "$obj" 2>/dev/null | grep -q 'sm_80'
	t_ok $? "$1, warm: the object from the cache holds the plan's sm_80 code"
}

# 1. One cache directory, two servers (as two builders on one shared disk).
export SCCACHE_DIR="$T_DIR/sccache-dir"
project disk --sccache
grep -q '"CMAKE_CUDA_COMPILER_LAUNCHER": {"type": "STRING", "value": "sccache"}' "$T_DIR/disk/CMakePresets.json"
t_ok $? "disk: the CUDA compiler launcher is sccache"
cold_then_warm disk
like "$stats" "*Cache location*Local disk*$SCCACHE_DIR*" "disk: the hits came from the shared directory"

# 2. Redis on loopback: what many builders on many machines point at.
# skip_redis REASON: the rest is skipped (the disk half has its results).
skip_redis() {
	skip "redis: sccache over a redis-server" "$1"
	done_testing
	exit
}
command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 ||
	skip_redis "redis-server or redis-cli is not installed (./setup.sh installs them)"
rport=$(free_port)
mkdir -p "$T_DIR/redis-data"
redis-server --bind 127.0.0.1 --port "$rport" --save '' --appendonly no \
	--dir "$T_DIR/redis-data" --daemonize no >"$T_DIR/redis-data/log" 2>&1 &
REDIS_PID=$!
i=0
until redis-cli -h 127.0.0.1 -p "$rport" ping 2>/dev/null | grep -q PONG; do
	i=$((i + 1))
	[ $i -lt 50 ] || skip_redis "redis-server did not start: $(tail -n 1 "$T_DIR/redis-data/log")"
	sleep 0.1
done
url="redis://127.0.0.1:$rport"
keys() { redis-cli -h 127.0.0.1 -p "$rport" dbsize 2>/dev/null; }

project redis --sccache-redis "$url"
grep -q "\"SCCACHE_REDIS_ENDPOINT\": \"$url\"" "$T_DIR/redis/CMakePresets.json"
t_ok $? "redis: the presets' environment names the redis server"

# start_server: an sccache server on a free port, in the background, with
# the SCCACHE_ settings of the generated presets' environment (a server
# takes its cache from its own environment) and its own empty SCCACHE_DIR,
# so that nothing but Redis can serve a hit.  The test starts it rather
# than the first compile, so that it also works for the sccache below that
# runs through its own loader.
start_server() {
	SCCACHE_SERVER_PORT=$(free_port)
	export SCCACHE_SERVER_PORT
	PORTS="$PORTS $SCCACHE_SERVER_PORT"
	SCCACHE_DIR="$T_DIR/dir-$SCCACHE_SERVER_PORT"
	export SCCACHE_DIR
	DIRS="${DIRS:-} $SCCACHE_DIR"
	penv=$(python3 -c '
import json, shlex, sys
for p in json.load(open(sys.argv[1]))["configurePresets"]:
    for k, v in p.get("environment", {}).items():
        if k.startswith("SCCACHE_"):
            print(shlex.quote(k + "=" + v))' "$T_DIR/redis/CMakePresets.json") || return 1
	eval "env $penv SCCACHE_START_SERVER=1 SCCACHE_NO_DAEMON=1 sccache" \
		>"$T_DIR/server-$SCCACHE_SERVER_PORT.log" 2>&1 &
	SERVER_PID=$!
	PIDS="$PIDS $SERVER_PID"
	i=0
	until python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' \
		"$SCCACHE_SERVER_PORT" 2>/dev/null; do
		i=$((i + 1))
		kill -0 "$SERVER_PID" 2>/dev/null && [ $i -lt 100 ] || return 1
		sleep 0.1
	done
}
# stop_server: stop it and wait until it has gone (killed after 10 s).
stop_server() {
	sccache --stop-server >/dev/null 2>&1
	i=0
	while kill -0 "$SERVER_PID" 2>/dev/null && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	kill "$SERVER_PID" 2>/dev/null
	wait "$SERVER_PID" 2>/dev/null
}

# has_redis: does the sccache on PATH take SCCACHE_REDIS_ENDPOINT, the
# variable the generated files set, and put its cache there?
has_redis() {
	start_server || return 1
	probe=$(sccache --show-stats 2>&1)
	stop_server
	case "$probe" in *"Cache location"*[Rr]edis*"$url"*) return 0 ;; esac
	return 1
}

# Debian 12's sccache 0.4.0 is built with local disk only; Debian sid's
# (0.17.0) has the Redis backend, but needs glibc 2.39, newer than
# Debian 12's 2.36: then it runs through sid's own loader and libraries,
# by a wrapper first on PATH (the compilers it starts run as usual).
if ! has_redis; then
	old=$(sccache --version 2>/dev/null)
	[ "${PTB_REAL:-1}" = 0 ] && skip_redis "$old has no Redis backend and PTB_REAL=0 (no Debian sid packages fetched)"
	sh "$top_srcdir/tests/realinputs/apt-get-debs.sh" sid "$SID_CACHE" \
		sccache libc6 libzstd1 libssl3t64 libgcc-s1 2>"$T_DIR/apt.err"
	case $? in
	0) ;;
	77) skip_redis "$old has no Redis backend, and Debian sid's sccache cannot be had: $(tail -n 1 "$T_DIR/apt.err")" ;;
	*) t_ok 1 "Debian sid's sccache can be unpacked"
	   sed 's/^/# /' "$T_DIR/apt.err"
	   done_testing
	   exit 1 ;;
	esac
	sid=$SID_CACHE/root
	lib=$sid/usr/lib/x86_64-linux-gnu
	case $(uname -m) in aarch64) lib=$sid/usr/lib/aarch64-linux-gnu ;; esac
	mkdir -p "$T_DIR/bin"
	if "$sid/usr/bin/sccache" --version >/dev/null 2>"$T_DIR/sid-direct.err"; then
		ln -s "$sid/usr/bin/sccache" "$T_DIR/bin/sccache"
	else
		echo "# sid's sccache on this glibc: $(sed -n 's/.*: \(version .*\) not found.*/\1 not found/p' "$T_DIR/sid-direct.err" | sort -u | tr '\n' ' ')- run through sid's loader"
		ld=$(ls "$lib"/ld-linux-*.so.* | head -n 1)
		printf '#!/bin/sh\nexec "%s" --library-path "%s" "%s" "$@"\n' \
			"$ld" "$lib" "$sid/usr/bin/sccache" >"$T_DIR/bin/sccache"
		chmod +x "$T_DIR/bin/sccache"
	fi
	PATH="$T_DIR/bin:$PATH"
	export PATH
	has_redis
	t_ok $? "redis: $(sccache --version 2>/dev/null) (Debian sid) takes SCCACHE_REDIS_ENDPOINT"
fi
echo "# redis: $(sccache --version 2>/dev/null), redis-server $(redis-server --version | sed -n 's/.* v=\([^ ]*\).*/\1/p')"

# redis_build LABEL: a fresh server, the build from an empty tree, stopped.
redis_build() {
	start_server
	t_ok $? "redis, $1: a fresh sccache server starts with the presets' settings"
	build redis "$1"
	stop_server
	printf '%s\n' "$stats" | grep -E '^(Compile requests|Cache (hits|misses))' | grep -v rate |
		sed "s/  */ /g; s/^/# redis, $1: /"
}
before=$(keys)
redis_build cold
is "$(stat 'Cache misses (C/C++)'):$(stat 'Cache misses (CUDA)'):$(stat 'Cache hits')" "1:1:0" \
	"redis, cold: sccache compiled host.cpp and tiny.cu (one C/C++ and one CUDA miss, no hit)"
cold_keys=$(keys)
redis-cli -h 127.0.0.1 -p "$rport" --scan >"$T_DIR/redis-keys"
t_ok "$([ "${cold_keys:-0}" -gt "${before:-0}" ]; echo $?)" \
	"redis, cold: sccache wrote its results to redis ($before keys before, $cold_keys after)"
redis_build warm
is "$(stat 'Cache hits (C/C++)'):$(stat 'Cache hits (CUDA)'):$(stat 'Cache misses')" "1:1:0" \
	"redis, warm, new server, empty build tree: both objects are cache hits, no miss"
like "$stats" "*Cache location*redis*$url*" "redis: the hits came from the redis server"
is "$(keys)" "$cold_keys" "redis, warm: nothing new was written to redis"
obj=$(find "$T_DIR/redis/build" -name 'tiny.cu.o' | head -1)
[ -n "$obj" ] && "$PTBUILD" inspect "$obj" 2>/dev/null | grep -q 'sm_80'
t_ok $? "redis, warm: the object from the cache holds the plan's sm_80 code"
t_ok "$(for d in $DIRS; do [ ! -d "$d" ] || [ -z "$(find "$d" -type f)" ] || exit 1; done; echo 0)" \
	"redis: nothing was cached in any server's own SCCACHE_DIR"

done_testing
