# tests/fetch/lib.sh - servers for the fetch tests: a test CA, nginx on
# 127.0.0.1 (https + http) and the fault-injecting server.  Sourced after
# tests/lib.sh; everything lives under $T_DIR and is stopped by fx_cleanup.
FX_PIDS=""

fx_need() { # CMD... : skip the whole test when a tool is missing
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip_all "$c is not installed (./setup.sh installs it)"
	done
}

fx_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# fx_ca DIR: DIR/ca.pem signs DIR/server.{pem,key} for 127.0.0.1 and
# localhost; DIR/other-ca.pem is a CA nobody used.
fx_ca() {
	d=$1
	mkdir -p "$d"
	(
		cd "$d" || exit 1
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=ptbuild test CA" \
			-keyout ca.key -out ca.pem
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=other CA" \
			-keyout other-ca.key -out other-ca.pem
		openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout server.key -out server.csr
		printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n' >ext.cnf
		openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
			-days 2 -extfile ext.cnf -out server.pem
	) >"$d/openssl.log" 2>&1
}

# fx_nginx ROOT CADIR: serve ROOT on $NGX_HTTPS (TLS) and $NGX_HTTP.
#   /redir/X    302 to http://127.0.0.1:$NGX_HTTP/X   (a downgrade)
#   /away/X     302 to https://localhost:$NGX_HTTPS/X
fx_nginx() {
	root=$1 ca=$2 nd="$T_DIR/nginx"
	mkdir -p "$nd/tmp"
	NGX_HTTPS=$(fx_port)
	NGX_HTTP=$(fx_port)
	user=""
	[ "$(id -u)" -eq 0 ] && user="user root;"
	cat >"$nd/nginx.conf" <<EOF2
$user
worker_processes 1;
daemon on;
pid $nd/nginx.pid;
error_log $nd/error.log;
events { worker_connections 64; }
http {
	access_log $nd/access.log;
	client_body_temp_path $nd/tmp/body;
	proxy_temp_path $nd/tmp/proxy;
	fastcgi_temp_path $nd/tmp/fastcgi;
	uwsgi_temp_path $nd/tmp/uwsgi;
	scgi_temp_path $nd/tmp/scgi;
	default_type application/octet-stream;
	server {
		listen 127.0.0.1:$NGX_HTTPS ssl;
		ssl_certificate $ca/server.pem;
		ssl_certificate_key $ca/server.key;
		root $root;
		location /redir/ { rewrite ^/redir/(.*)\$ http://127.0.0.1:$NGX_HTTP/\$1 redirect; }
		location /away/ { rewrite ^/away/(.*)\$ https://localhost:$NGX_HTTPS/\$1 redirect; }
	}
	server {
		listen 127.0.0.1:$NGX_HTTP;
		root $root;
	}
}
EOF2
	nginx -p "$nd" -c "$nd/nginx.conf" -e "$nd/error.log" 2>"$nd/start.log" ||
		skip_all "nginx does not start here: $(head -1 "$nd/start.log")"
	i=0
	while [ ! -s "$nd/nginx.pid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	FX_PIDS="$FX_PIDS $(cat "$nd/nginx.pid")"
}

# fx_faults ROOT: the fault server on $FAULT_PORT (plain http).
fx_faults() {
	python3 "$top_srcdir/tests/fetch/faultserver.py" "$1" "$T_DIR/fault.port" \
		>"$T_DIR/fault.log" 2>&1 &
	FX_PIDS="$FX_PIDS $!"
	i=0
	while [ ! -s "$T_DIR/fault.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	FAULT_PORT=$(cat "$T_DIR/fault.port")
}

fx_cleanup() {
	for p in $FX_PIDS; do
		kill "$p" 2>/dev/null
	done
	FX_PIDS=""
}

# A digest of a tree: names, types, link targets and file contents.
fx_tree() {
	[ -d "$1" ] || { echo "(absent)"; return; }
	(cd "$1" && find . -printf '%y %p %l\n' | LC_ALL=C sort && find . -type f -exec sha256sum {} + | LC_ALL=C sort)
}

# A cuDNN 9.24.0.43-shaped test archive (not NVIDIA's): its top directory
# $top (cudnn_version.h, a BYTES-long random libcudnn.so.9.24.0, a
# LICENSE) under SRC-DIR, packed as xz at ROOT/$rel, NVIDIA's path of the
# SBSA cuda13 archive.  Sets rel and top; fails when tar or xz does.
fx_cudnn924() { # SRC-DIR ROOT BYTES
	rel=cudnn/linux-sbsa/cudnn-linux-sbsa-9.24.0.43_cuda13-archive.tar.xz
	top=cudnn-linux-sbsa-9.24.0.43_cuda13-archive
	mkdir -p "$1/$top/include" "$1/$top/lib" "$2/${rel%/*}" || return 1
	printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 24\n#define CUDNN_PATCHLEVEL 0\n' >"$1/$top/include/cudnn_version.h"
	head -c "$3" /dev/urandom >"$1/$top/lib/libcudnn.so.9.24.0"
	printf 'test archive, not NVIDIA'"'"'s\n' >"$1/$top/LICENSE"
	tar -C "$1" -cf - "$top" | xz >"$2/$rel"
}
