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
# how builders on many machines share one cache) - that part skips with the
# reason when this sccache was built without its Redis backend, as Debian
# 12's 0.4.0 package is.  Every sccache server here listens on its own free
# port and keeps its files under $T_DIR; both are stopped at the end.
. "$top_srcdir/tests/lib.sh"

command -v sccache >/dev/null 2>&1 || skip_all "sccache is not installed (./setup.sh installs it)"
command -v cmake >/dev/null 2>&1 || skip_all "cmake is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
nvcc=${NVCC:-}
case "$nvcc" in /*) ;; ?*) nvcc=$(command -v "$nvcc" 2>/dev/null) ;; esac
[ -n "$nvcc" ] && [ -x "$nvcc" ] || skip_all "no nvcc (configure found none)"
root=$(cd "$(dirname "$nvcc")/.." && pwd)

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# No setting of the caller's reaches sccache: its own config file, home
# and server port are the test's.
for v in $(env | sed -n 's/^\(SCCACHE_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
export HOME="$T_DIR/home" SCCACHE_CONF="$T_DIR/home/sccache.conf"
export SCCACHE_CACHED_CONF="$T_DIR/home/sccache-cached.conf" SCCACHE_IDLE_TIMEOUT=120
mkdir -p "$HOME"
PORTS=""
REDIS_PID=""
cleanup() {
	for p in $PORTS; do SCCACHE_SERVER_PORT=$p sccache --stop-server >/dev/null 2>&1; done
	[ -n "$REDIS_PID" ] && kill "$REDIS_PID" 2>/dev/null
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
command -v redis-server >/dev/null 2>&1 || {
	skip "redis: sccache over a redis-server" "redis-server is not installed (./setup.sh installs it)"
	done_testing
	exit
}
rport=$(free_port)
mkdir -p "$T_DIR/redis"
redis-server --bind 127.0.0.1 --port "$rport" --save '' --appendonly no \
	--dir "$T_DIR/redis" --daemonize no >"$T_DIR/redis/log" 2>&1 &
REDIS_PID=$!
i=0
until python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$rport" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 50 ] || skip_all "redis-server did not start: $(tail -n 1 "$T_DIR/redis/log")"
	sleep 0.1
done
url="redis://127.0.0.1:$rport"

# Does this sccache have the Redis backend?  Ask a server started with the
# variable the generated files set.
SCCACHE_SERVER_PORT=$(free_port)
export SCCACHE_SERVER_PORT SCCACHE_DIR="$T_DIR/unused-dir"
PORTS="$PORTS $SCCACHE_SERVER_PORT"
probe=$(SCCACHE_REDIS_ENDPOINT=$url sccache --start-server 2>&1; sccache --show-stats 2>&1)
sccache --stop-server >/dev/null 2>&1
case "$probe" in
*"Cache location"*[Rr]edis*) ;;
*)
	skip "redis: sccache over a redis-server" \
		"$(sccache --version 2>/dev/null) has no Redis backend here (Debian 12's package is built with local disk only; generate's Dockerfile and setup.sh install one that has it)"
	done_testing
	exit
	;;
esac
project redis --sccache-redis "$url"
grep -q "\"SCCACHE_REDIS_ENDPOINT\": \"$url\"" "$T_DIR/redis/CMakePresets.json"
t_ok $? "redis: the presets' environment names the redis server"
cold_then_warm redis
like "$stats" "*Cache location*[Rr]edis*" "redis: the hits came from redis"
t_ok "$([ ! -d "$T_DIR/unused-dir" ] || [ -z "$(find "$T_DIR/unused-dir" -type f)" ]; echo $?)" \
	"redis: nothing was cached on local disk"

done_testing
