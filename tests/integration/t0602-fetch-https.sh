#!/bin/sh
# t0602-fetch-https.sh - fetch from nginx over TLS with a CA made here:
# parallel transfers, CA settings, redirects, proxies.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/fetch/lib.sh"
fx_need python3 openssl nginx xz
trap fx_cleanup EXIT

fx="$T_DIR/fx"
# 12.4.0: a label ptbuild carries no manifest of, so the test's own served
# manifest is taken as it is (a carried label's is held to NVIDIA's: t0611)
python3 "$top_srcdir/tests/fetch/mkarchives.py" good "$fx" --components 6 --kib 48 --version 12.4.0 ||
	skip_all "cannot build the fixture archives"
fx_ca "$T_DIR/ca" || skip_all "openssl cannot make a test CA"
fx_nginx "$fx" "$T_DIR/ca"
unset CURL_CA_BUNDLE SSL_CERT_FILE SSL_CERT_DIR https_proxy HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
export PTBUILD_RETRY_DELAY_MS=50
base="https://127.0.0.1:$NGX_HTTPS"
F() { run "$PTBUILD" fetch --platform linux-x86_64 "$@"; }

CURL_CA_BUNDLE="$T_DIR/ca/ca.pem" F --mirror "$base" --cuda 12.4.0 --jobs 3 \
	--cache "$T_DIR/c1" --prefix "$T_DIR/cuda"
is "$rc" 0 "fetch over https from a mirror laid out like NVIDIA's (CURL_CA_BUNDLE)"
[ "$rc" -eq 0 ] || printf '# %s\n' "$err"
is "$(grep -c 'GET /.*archive.tar' "$T_DIR/nginx/access.log")" 6 "six archives requested from nginx"
grep -q 'GET /redistrib_12.4.0.json' "$T_DIR/nginx/access.log"; t_ok $? "the manifest is redistrib_<label>.json under the mirror"
is "$("$T_DIR/cuda/bin/nvcc")" "Cuda compilation tools, release 12.4.0" "the tree works"

F --mirror "$base" --cuda 12.4.0 --cache "$T_DIR/c2" --prefix "$T_DIR/x" --retries 0
is "$rc" 4 "an unknown CA is refused (exit 4)"
like "$err" "*certificate*" "... the error speaks of the certificate"
like "$err" "*hint: set CURL_CA_BUNDLE or SSL_CERT_FILE*" "... and says how to give the CA"
[ ! -e "$T_DIR/x" ]; t_ok $? "... nothing installed"
CURL_CA_BUNDLE="$T_DIR/ca/other-ca.pem" F --mirror "$base" --cuda 12.4.0 --cache "$T_DIR/c2" --retries 0
is "$rc" 4 "a CA that did not sign the server is refused"
SSL_CERT_FILE="$T_DIR/ca/ca.pem" F --mirror "$base" --cuda 12.4.0 --cache "$T_DIR/c3" --components cuda_nvcc
is "$rc" 0 "SSL_CERT_FILE is read too (libcurl itself does not)"

export CURL_CA_BUNDLE="$T_DIR/ca/ca.pem"
F --manifest "$base/redir/redistrib_12.4.0.json" --cache "$T_DIR/c4" --retries 0
is "$rc" 4 "a redirect from https to http is refused"
like "$err" "*follows redirects only to https*" "... saying why"
F --manifest "$base/away/redistrib_12.4.0.json" --cache "$T_DIR/c4" --components comp02
is "$rc" 0 "a redirect to another https URL is followed"
F --manifest "ftp://127.0.0.1/redistrib_12.4.0.json"
is "$rc" 2 "other schemes are refused"

F --mirror "http://127.0.0.1:$NGX_HTTP" --cuda 12.4.0 --cache "$T_DIR/c5" --components comp03
is "$rc" 0 "plain http works for an explicit mirror"

https_proxy="http://127.0.0.1:9" F --mirror "$base" --cuda 12.4.0 --cache "$T_DIR/c6" --retries 0
is "$rc" 4 "https_proxy is honoured (a dead proxy fails)"
https_proxy="http://127.0.0.1:9" no_proxy="127.0.0.1" F --mirror "$base" --cuda 12.4.0 --cache "$T_DIR/c6" --components comp04
is "$rc" 0 "no_proxy is honoured"
done_testing
