/* download.c - items into the content-addressed cache with libcurl's multi
 * interface: several transfers at once, sha256 and size checked while the
 * bytes stream in, retries with backoff, resume by Range from the partial
 * file.
 *
 * Cache layout (shared by every prefix):
 *   sha256/<hex>          verified files, named by their content
 *   partial/<hex>.part    downloads in progress (kept across retries and runs)
 *   manifests/<hash of URL>.json   last manifest read from a URL (--offline)
 * A file reaches sha256/ only by rename after its hash matched; a hit
 * there is checked for size here and hashed again as it is used (the
 * disk, another program or a person may have changed it since). */
#include "config.h"

#include "fetch/fetch.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fetch/progress.h"
#include "util/sha256.h"

volatile sig_atomic_t ptb_fetch_stop;

static void on_signal(int sig)
{
	ptb_fetch_stop = sig;
}

void ptb_fetch_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;   /* no SA_RESTART: waits return early */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void ptb_net_opts_default(struct ptb_net_opts *o)
{
	const char *s;

	memset(o, 0, sizeof *o);
	o->jobs = 4;
	o->retries = 5;
	o->retry_delay_ms = 1000;
	o->low_speed_time = 30;
	o->connect_timeout = 30;
	/* Tests shorten the waits; users rarely need to. */
	if ((s = getenv("PTBUILD_RETRY_DELAY_MS")) && *s)
		o->retry_delay_ms = atol(s);
	if ((s = getenv("PTBUILD_LOW_SPEED_TIME")) && *s)
		o->low_speed_time = atol(s) > 0 ? atol(s) : 1;
}

char *ptb_cache_dir(const char *dir)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (dir && *dir)
		return ptb_xstrdup(dir);
	if (x && *x == '/')
		return ptb_xasprintf("%s/ptbuild", x);
	return ptb_xasprintf("%s/.cache/ptbuild", home && *home ? home : "/tmp");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Options every transfer gets, small documents and archives alike. */
static void setup_easy(CURL *h, const char *url, const struct ptb_net_opts *o, char *errbuf)
{
	const char *ca = getenv("CURL_CA_BUNDLE"), *dir = getenv("SSL_CERT_DIR");
	struct ptb_buf proto;

	ptb_buf_init(&proto);
	ptb_buf_adds(&proto, "https");
	if (o->allow_http)
		ptb_buf_adds(&proto, ",http");
	if (o->allow_file)
		ptb_buf_adds(&proto, ",file");
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, proto.data);
	/* A redirect never downgrades, even from an explicit http mirror. */
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "https");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "ptbuild/" PACKAGE_VERSION);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, o->connect_timeout);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1024L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, o->low_speed_time);
	/* libcurl reads the proxy variables itself but not these two, which
	 * are the curl tool's: read them here. */
	if (!ca || !*ca)
		ca = getenv("SSL_CERT_FILE");
	if (ca && *ca)
		curl_easy_setopt(h, CURLOPT_CAINFO, ca);
	if (dir && *dir)
		curl_easy_setopt(h, CURLOPT_CAPATH, dir);
	ptb_buf_free(&proto);
}

static int transient(CURLcode rc, long code)
{
	switch (rc) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	case CURLE_HTTP_RETURNED_ERROR:
		return code == 408 || code == 429 || code == 500 || code == 502 ||
		       code == 503 || code == 504 || code == 416;
	default:
		return 0;
	}
}

/* The proxy libcurl takes for url from the environment, and the variable
 * that names it (libcurl reads http_proxy in lowercase only), or NULL.
 * no_proxy is left to libcurl: the hint then says it may apply. */
static const char *proxy_for(const char *url, const char **var)
{
	static const char *const https_vars[] = { "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY" };
	static const char *const http_vars[] = { "http_proxy", "all_proxy", "ALL_PROXY" };
	int https = strncmp(url, "https://", 8) == 0;
	const char *const *vars = https ? https_vars : http_vars;
	size_t n = https ? 4 : 3;

	if (!https && strncmp(url, "http://", 7) != 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *v = getenv(vars[i]);

		if (v && *v) {
			*var = vars[i];
			return v;
		}
	}
	return NULL;
}

static void curl_failure(struct ptb_err *err, const char *what, const char *url,
                         CURLcode rc, long code, const char *errbuf,
                         const struct ptb_net_opts *o)
{
	const char *proxy, *var = NULL;

	if (rc == CURLE_HTTP_RETURNED_ERROR)
		ptb_err_set(err, PTB_EIO, "cannot download %s from '%s': HTTP %ld", what, url, code);
	else
		ptb_err_set(err, PTB_EIO, "cannot download %s from '%s': %s", what, url,
		            *errbuf ? errbuf : curl_easy_strerror(rc));
	switch (rc) {
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
		ptb_err_hint(err, "set CURL_CA_BUNDLE or SSL_CERT_FILE to the CA bundle that signed the server's certificate");
		break;
	case CURLE_UNSUPPORTED_PROTOCOL:
		ptb_err_hint(err, "ptbuild downloads over https only and follows redirects only to https; "
		             "http:// and file:// work for an explicit --mirror or --manifest");
		break;
	case CURLE_OPERATION_TIMEDOUT:
		ptb_err_hint(err, "the server stalled; check the network or proxy (https_proxy, no_proxy)");
		break;
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
		/* Not reached at all: the proxy when one is set, else the host.
		 * Whether --offline can stand in, only the caller can tell. */
		if (o->unreachable)
			*o->unreachable = 1;
		proxy = proxy_for(url, &var);
		if (proxy)
			ptb_err_hint(err, "the proxy '%s' (from %s) may be the one not answering: check it, "
			             "or unset %s (or list the host in no_proxy) to connect directly",
			             proxy, var, var);
		else
			ptb_err_hint(err, "no route to the server: behind a proxy, set %s=http://HOST:PORT; "
			             "else fetch from a copy you can reach with --mirror URL",
			             strncmp(url, "http://", 7) == 0 ? "http_proxy" : "https_proxy");
		break;
	default:
		break;
	}
}

/* ---- small documents ------------------------------------------------ */

static size_t mem_write(char *p, size_t size, size_t n, void *ud)
{
	struct ptb_buf *b = ud;

	if (b->len + size * n > 64u << 20)
		return 0;
	ptb_buf_add(b, p, size * n);
	return size * n;
}

static void hex_of(const void *p, size_t n, char hex[65])
{
	struct ptb_sha256 s;

	ptb_sha256_init(&s);
	ptb_sha256_update(&s, p, n);
	ptb_sha256_final_hex(&s, hex);
}

int ptb_fetch_small(const char *url, const char *cache, const char *pin,
                    const struct ptb_net_opts *o, struct ptb_buf *out,
                    char sha256_out[65], struct ptb_err *err)
{
	char urlhash[65], errbuf[CURL_ERROR_SIZE];
	char *path;
	int rc = -1;

	hex_of(url, strlen(url), urlhash);
	path = ptb_xasprintf("%s/manifests/%s.json", cache, urlhash);
	ptb_buf_reset(out);
	if (o->offline) {
		if (ptb_file_read(path, 0, out, err) != 0) {
			ptb_err_set(err, PTB_EIO, "--offline: '%s' is not in the cache '%s'", url, cache);
			ptb_err_hint(err, "run once without --offline to fill the cache");
			goto done;
		}
	} else {
		long delay = o->retry_delay_ms;

		for (int attempt = 0;; attempt++) {
			CURL *h = curl_easy_init();
			CURLcode cr;
			long code = 0;

			if (!h)
				ptb_oom();
			errbuf[0] = '\0';
			ptb_buf_reset(out);
			setup_easy(h, url, o, errbuf);
			curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, mem_write);
			curl_easy_setopt(h, CURLOPT_WRITEDATA, out);
			cr = curl_easy_perform(h);
			curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
			curl_easy_cleanup(h);
			if (cr == CURLE_OK)
				break;
			if (!transient(cr, code) || attempt >= o->retries) {
				curl_failure(err, "the manifest", url, cr, code, errbuf, o);
				goto done;
			}
			usleep((useconds_t)delay * 1000);
			delay = delay * 2 > 30000 ? 30000 : delay * 2;
		}
	}
	hex_of(out->data ? out->data : "", out->len, sha256_out);
	if (pin && strcmp(pin, sha256_out) != 0) {
		ptb_err_set(err, PTB_EIO, "manifest '%s' changed: sha256 %s, pinned %s",
		            url, sha256_out, pin);
		ptb_err_hint(err, "NVIDIA rewrites manifests in place; check the new one and update the pin");
		goto done;
	}
	if (!o->offline) {
		char *dir = ptb_xasprintf("%s/manifests", cache);
		int r = ptb_mkdir_p(dir, 0700, err);

		free(dir);
		if (r != 0 || ptb_file_write_atomic(path, out->data ? out->data : "", out->len,
		                                    0644, 1, NULL, err) != 0)
			goto done;
	}
	if (!out->data)
		ptb_buf_add(out, "", 0);
	rc = 0;
done:
	free(path);
	return rc;
}

/* ---- archives ------------------------------------------------------- */

enum xstate { X_WAIT, X_RUN, X_DONE };

struct engine;

struct xfer {
	struct engine *e;
	struct ptb_fetch_item *it;
	int notify;            /* a stream's pipe (ptb_fetch_stream), or -1 */
	int streamed;          /* offered to begin already */
	enum xstate state;
	CURL *h;
	int fd;
	char *part;
	struct ptb_sha256 sha;
	int64_t have;          /* bytes in the partial file, all hashed */
	int64_t asked;         /* offset this attempt asked for */
	int64_t cr_start;      /* Content-Range start seen, or -1 */
	int started;           /* first byte of this attempt seen */
	int too_big;
	int restart;           /* the server ignored the range: start over */
	int attempt;
	double due;
	double t0;
	char errbuf[CURL_ERROR_SIZE];
	struct ptb_progress_slot *slot;
};

static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
	struct xfer *x = ud;
	size_t len = size * n;
	long long start;

	if (len > 14 && strncasecmp(p, "content-range:", 14) == 0 &&
	    sscanf(p + 14, " bytes %lld-", &start) == 1)
		x->cr_start = start;
	return len;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void abandon(struct xfer *x);

static size_t on_data(char *p, size_t size, size_t n, void *ud)
{
	struct xfer *x = ud;
	size_t len = size * n;

	if (!x->started) {
		long code = 0;

		x->started = 1;
		curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &code);
		if (x->asked > 0 && (code == 200 || (code == 206 && x->cr_start != x->asked))) {
			/* No usable range: rewrite from the first byte
			 * (what was unpacked from the old bytes is void). */
			abandon(x);
			if (ftruncate(x->fd, 0) != 0 || lseek(x->fd, 0, SEEK_SET) != 0)
				return 0;
			ptb_sha256_init(&x->sha);
			x->have = 0;
			ptb_progress_set(x->slot, 0);
			if (code == 206) {
				x->restart = 1;
				return 0;
			}
		}
		/* An item no list gave a size (--file): the server's word for
		 * the total shown while it downloads (never trusted to check). */
		if (x->it->size < 0) {
			curl_off_t cl = -1;

			if (curl_easy_getinfo(x->h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &cl) == CURLE_OK && cl >= 0)
				ptb_progress_size(x->slot, x->have + (int64_t)cl);
		}
	}
	if (x->it->size >= 0 && x->have + (int64_t)len > x->it->size) {
		x->too_big = 1;
		return 0;
	}
	if (write_all(x->fd, p, len) != 0)
		return 0;
	ptb_sha256_update(&x->sha, p, len);
	x->have += (int64_t)len;
	ptb_progress_add(x->slot, (int64_t)len);
	return len;
}

struct engine {
	void *ud;
	struct ptb_fetch_list *l;
	const char *cache;
	const struct ptb_net_opts *o;
	CURLM *multi;
	struct xfer *x;
	size_t running;
	struct ptb_progress *prog;
};

/* Give a stream up: its reader stops without the verified size. */
static void abandon(struct xfer *x)
{
	if (x->notify < 0)
		return;
	close(x->notify);
	x->notify = -1;
	x->e->o->stream->abandon(x->e->ud, x->it);
}

/* The sha256 matched: tell the reader where the file ends. */
static void verified(struct xfer *x)
{
	int64_t n = x->have;
	struct sigaction ign, old;
	ssize_t w;

	if (x->notify < 0)
		return;
	/* 8 bytes into an empty pipe: one write, never short.  A reader
	 * that is gone (it failed; it is reaped with its reason) must not
	 * take ptbuild down with SIGPIPE. */
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	w = write(x->notify, &n, sizeof n);
	sigaction(SIGPIPE, &old, NULL);
	if (w != (ssize_t)sizeof n)
		abandon(x);
	if (x->notify >= 0)
		close(x->notify);
	x->notify = -1;
}

static char *cache_path(const char *cache, const char *sha)
{
	return ptb_xasprintf("%s/sha256/%s", cache, sha);
}

/* Open (or reopen) the partial file; re-hash what it already holds so the
 * final hash covers every byte, as if it had come in one piece. */
static int open_part(struct xfer *x, struct ptb_err *err)
{
	static char buf[1 << 16];
	struct stat st = { 0 };
	ssize_t r;

	if (x->fd >= 0)
		return 0;
	/* O_NONBLOCK until fstat says it is a regular file: a FIFO planted
	 * in the cache would block the read below for good. */
	x->fd = open(x->part, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0644);
	if (x->fd < 0) {
		ptb_err_set(err, PTB_EIO, "cannot open '%s': %s", x->part, strerror(errno));
		return -1;
	}
	if (fstat(x->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    fcntl(x->fd, F_SETFL, O_RDWR) != 0) {
		ptb_err_set(err, PTB_EIO, "cannot use '%s': is %s, not a regular file",
		            x->part, ptb_file_kind(st.st_mode));
		ptb_err_hint(err, "remove it; ptbuild keeps partial downloads there");
		close(x->fd);
		x->fd = -1;
		return -1;
	}
	if (flock(x->fd, LOCK_EX | LOCK_NB) != 0) {
		ptb_err_set(err, PTB_EIO, "'%s' is being downloaded by another ptbuild", x->it->name);
		ptb_err_hint(err, "wait for it to finish; the cache is shared");
		return -1;
	}
	ptb_sha256_init(&x->sha);
	x->have = 0;
	while ((r = read(x->fd, buf, sizeof buf)) > 0) {
		ptb_sha256_update(&x->sha, buf, (size_t)r);
		x->have += r;
	}
	if (r < 0) {
		ptb_err_set(err, PTB_EIO, "cannot read '%s': %s", x->part, strerror(errno));
		return -1;
	}
	/* A partial longer than the file can be is garbage. */
	if (x->it->size >= 0 && x->have > x->it->size) {
		if (ftruncate(x->fd, 0) != 0 || lseek(x->fd, 0, SEEK_SET) != 0) {
			ptb_err_set(err, PTB_EIO, "cannot truncate '%s': %s", x->part, strerror(errno));
			return -1;
		}
		ptb_sha256_init(&x->sha);
		x->have = 0;
	}
	return 0;
}

static int start(struct engine *e, struct xfer *x, struct ptb_err *err)
{
	char range[48];

	if (open_part(x, err) != 0)
		return -1;
	/* Unpack while it downloads, from the first attempt on (what a
	 * partial file already holds is read first). */
	if (!x->streamed && e->o->stream) {
		x->streamed = 1;
		x->notify = e->o->stream->begin(e->ud, x->it, x->part);
	}
	x->h = curl_easy_init();
	if (!x->h)
		ptb_oom();
	x->errbuf[0] = '\0';
	x->asked = x->have;
	x->cr_start = -1;
	x->started = x->too_big = x->restart = 0;
	setup_easy(x->h, x->it->url, e->o, x->errbuf);
	curl_easy_setopt(x->h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(x->h, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(x->h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(x->h, CURLOPT_HEADERDATA, x);
	curl_easy_setopt(x->h, CURLOPT_PRIVATE, x);
	if (x->have > 0) {
		/* CURLOPT_RANGE, not RESUME_FROM: a 200 is then ours to handle
		 * (start over) rather than a hard error. */
		snprintf(range, sizeof range, "%lld-", (long long)x->have);
		curl_easy_setopt(x->h, CURLOPT_RANGE, range);
	}
	ptb_progress_set(x->slot, x->have);
	curl_multi_add_handle(e->multi, x->h);
	x->state = X_RUN;
	e->running++;
	return 0;
}

static void stop_handle(struct engine *e, struct xfer *x)
{
	if (x->h) {
		curl_multi_remove_handle(e->multi, x->h);
		curl_easy_cleanup(x->h);
		x->h = NULL;
	}
}

static void drop_part(struct xfer *x)
{
	if (x->fd >= 0)
		close(x->fd);
	x->fd = -1;
	unlink(x->part);
}

/* The transfer ended well: check size and hash, then publish. */
static int finish(struct engine *e, struct xfer *x, struct ptb_err *err)
{
	char got[65];
	char *dest;

	ptb_sha256_final_hex(&x->sha, got);
	if (x->it->size >= 0 && x->have != x->it->size) {
		ptb_err_set(err, PTB_EIO, "'%s': size mismatch: expected %lld bytes, got %lld (from '%s')",
		            x->it->name, (long long)x->it->size, (long long)x->have, x->it->url);
		ptb_err_hint(err, "the file was discarded and nothing was installed");
		drop_part(x);
		return -1;
	}
	if (strcmp(got, x->it->sha256) != 0) {
		ptb_err_set(err, PTB_EIO, "'%s': sha256 mismatch: expected %s, got %s (from '%s')",
		            x->it->name, x->it->sha256, got, x->it->url);
		ptb_err_hint(err, "the file was discarded and nothing was installed");
		drop_part(x);
		return -1;
	}
	dest = cache_path(e->cache, x->it->sha256);
	if (fsync(x->fd) != 0 || rename(x->part, dest) != 0) {
		ptb_err_set(err, PTB_EIO, "cannot store '%s' in the cache: %s", dest, strerror(errno));
		free(dest);
		return -1;
	}
	close(x->fd);
	x->fd = -1;
	free(x->it->path);
	x->it->path = dest;
	x->state = X_DONE;
	verified(x);
	ptb_progress_done(e->prog, x->slot, x->it, now_s() - x->t0);
	return 0;
}

static int on_done(struct engine *e, struct xfer *x, CURLcode cr, struct ptb_err *err)
{
	long code = 0;
	double ra_s;
	curl_off_t ra = 0;

	curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_getinfo(x->h, CURLINFO_RETRY_AFTER, &ra);
	stop_handle(e, x);
	e->running--;
	if (cr == CURLE_OK && !x->restart)
		return finish(e, x, err);
	/* Retried or failed: the reader may have seen bytes that are not
	 * the file's. */
	abandon(x);
	if (x->too_big) {
		ptb_err_set(err, PTB_EIO, "'%s': size mismatch: the server sent more than the expected %lld bytes (from '%s')",
		            x->it->name, (long long)x->it->size, x->it->url);
		ptb_err_hint(err, "the file was discarded and nothing was installed");
		drop_part(x);
		return -1;
	}
	if (code == 416) {
		/* The partial is not a prefix the server recognises. */
		if (ftruncate(x->fd, 0) != 0 || lseek(x->fd, 0, SEEK_SET) != 0)
			drop_part(x);
		ptb_sha256_init(&x->sha);
		x->have = 0;
	}
	if (!x->restart && (!transient(cr, code) || x->attempt >= e->o->retries)) {
		curl_failure(err, x->it->name, x->it->url, cr, code, x->errbuf, e->o);
		if (x->attempt > 0) {
			char why[sizeof err->hint];

			snprintf(why, sizeof why, "%s", err->hint);
			ptb_err_hint(err, "gave up after %d attempts; the partial file is kept and the next run resumes it%s%s",
			             x->attempt + 1, *why ? "; " : "", why);
		}
		return -1;
	}
	/* Back off: 1 s, 2 s, 4 s ... capped at 30 s; Retry-After if longer. */
	ra_s = (double)(e->o->retry_delay_ms << (x->attempt < 5 ? x->attempt : 5)) / 1000.0;
	if (ra_s > 30)
		ra_s = 30;
	if (ra > 0 && ra <= 120 && ra > ra_s)
		ra_s = (double)ra;
	x->attempt++;
	ptb_progress_retry(e->prog, x->it, x->attempt, *x->errbuf ? x->errbuf : curl_easy_strerror(cr), code, ra_s);
	x->due = now_s() + ra_s;
	x->state = X_WAIT;
	return 0;
}

static int cached(struct engine *e, struct ptb_fetch_item *it)
{
	char *p = cache_path(e->cache, it->sha256);
	struct stat st;

	if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && (it->size < 0 || st.st_size == it->size)) {
		free(it->path);
		it->path = p;
		it->from_cache = 1;
		return 1;
	}
	free(p);
	return 0;
}

void ptb_fetch_damaged(struct ptb_fetch_item *it, const char *got, struct ptb_err *err)
{
	unlink(it->path);
	it->damaged = 1;
	ptb_err_set(err, PTB_EIO, "cache entry '%s' of '%s' is damaged: its sha256 is %s, expected %s",
	            it->path, it->name, got && *got ? got : "(unreadable)", it->sha256);
	ptb_err_hint(err, "it was removed from the cache; a run without --offline downloads it again");
}

int ptb_fetch_verify(struct ptb_fetch_item *it, struct ptb_err *err)
{
	char got[65] = "";

	if (ptb_sha256_file(it->path, got, NULL) != 0 || strcmp(got, it->sha256) != 0) {
		ptb_fetch_damaged(it, got, err);
		return -1;
	}
	return 0;
}

static int mkdirs(const char *cache, struct ptb_err *err)
{
	static const char *const sub[] = { "sha256", "partial", "manifests" };

	for (size_t i = 0; i < 3; i++) {
		char *d = ptb_xasprintf("%s/%s", cache, sub[i]);
		int r = ptb_mkdir_p(d, 0700, err);

		free(d);
		if (r != 0)
			return -1;
	}
	return 0;
}

static const struct ptb_fetch_list *by_size;

static int bigger_first(const void *a, const void *b)
{
	const size_t *i = a, *j = b;
	int64_t si = by_size->items[*i].size, sj = by_size->items[*j].size;

	if (si != sj)
		return si > sj ? -1 : 1;
	return *i < *j ? -1 : *i > *j;
}

/* Set a transfer up for each item: one found in the cache is done (and
 * handed to `ready`), one not is to be downloaded into its partial file
 * (refused with --offline).  0 with *left the number to download, or -1
 * with err set. */
static int plan_transfers(struct engine *e, ptb_fetch_ready_fn ready, size_t *left, struct ptb_err *err)
{
	for (size_t i = 0; i < e->l->n; i++) {
		struct xfer *x = &e->x[i];

		x->e = e;
		x->it = &e->l->items[i];
		x->fd = -1;
		x->notify = -1;
		if (cached(e, x->it)) {
			x->state = X_DONE;
			ptb_progress_cached(e->prog, x->it);
			if (ready && ready(e->ud, x->it, err) != 0)
				return -1;
			continue;
		}
		if (e->o->offline) {
			ptb_err_set(err, PTB_EIO, "--offline: '%s' (sha256 %s) is not in the cache '%s'",
			            x->it->name, x->it->sha256, e->cache);
			ptb_err_hint(err, "run once without --offline to fill the cache");
			return -1;
		}
		x->part = ptb_xasprintf("%s/partial/%s.part", e->cache, x->it->sha256);
		x->slot = ptb_progress_slot(e->prog, x->it);
		x->state = X_WAIT;
		(*left)++;
	}
	return 0;
}

/* The items' indexes, largest first (ties in list order); caller frees. */
static size_t *size_order(const struct ptb_fetch_list *l)
{
	size_t *order = ptb_xcalloc(l->n ? l->n : 1, sizeof *order);

	for (size_t i = 0; i < l->n; i++)
		order[i] = i;
	by_size = l;
	qsort(order, l->n, sizeof *order, bigger_first);
	return order;
}

/* Start what is due, largest first, up to --jobs at once: the big
 * archives then also start unpacking first, which keeps the unpacking
 * workers' tail short.  *wait is lowered to the time until the next one
 * waiting is due.  0, or -1 with err set. */
static int start_due(struct engine *e, const size_t *order, double t, double *wait, struct ptb_err *err)
{
	size_t jobs = (size_t)(e->o->jobs > 0 ? e->o->jobs : 1);

	for (size_t next = 0; next < e->l->n && e->running < jobs; next++) {
		struct xfer *x = &e->x[order[next]];

		if (x->state != X_WAIT)
			continue;
		if (x->due > t) {
			if (x->due - t < *wait)
				*wait = x->due - t;
			continue;
		}
		if (x->t0 == 0)
			x->t0 = t;
		if (start(e, x, err) != 0)
			return -1;
	}
	return 0;
}

/* Handle every transfer curl has finished: done ones lower *left and go
 * to `ready`, others retry or fail.  0, or -1 with err set. */
static int collect_done(struct engine *e, ptb_fetch_ready_fn ready, size_t *left, struct ptb_err *err)
{
	CURLMsg *m;
	int nmsg;

	while ((m = curl_multi_info_read(e->multi, &nmsg))) {
		struct xfer *x;

		if (m->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&x);
		if (on_done(e, x, m->data.result, err) != 0)
			return -1;
		if (x->state == X_DONE) {
			(*left)--;
			if (ready && ready(e->ud, x->it, err) != 0)
				return -1;
		}
	}
	return 0;
}

/* Run the downloads until none is left, a step fails or a signal asks
 * to stop.  0, or -1 with err set. */
static int run_transfers(struct engine *e, const size_t *order, size_t left,
                         ptb_fetch_ready_fn ready, ptb_fetch_poll_fn poll, struct ptb_err *err)
{
	while (left > 0) {
		double wait = 0.1;
		int still;

		if (start_due(e, order, now_s(), &wait, err) != 0)
			return -1;
		curl_multi_perform(e->multi, &still);
		if (collect_done(e, ready, &left, err) != 0)
			return -1;
		if (poll && poll(e->ud, err) != 0)
			return -1;
		if (ptb_fetch_stop) {
			ptb_err_set(err, PTB_EIO, "interrupted by signal %d", (int)ptb_fetch_stop);
			ptb_err_hint(err, "nothing was installed; partial downloads are kept and the next run resumes them");
			return -1;
		}
		ptb_progress_draw(e->prog, 0);
		if (left > 0)
			curl_multi_poll(e->multi, NULL, 0, (int)(wait * 1000) + 1, NULL);
	}
	return 0;
}

/* Stop every transfer and close its files: a stream's reader fails, a
 * partial file is synced and kept for the next run. */
static void close_transfers(struct engine *e)
{
	for (size_t i = 0; i < e->l->n; i++) {
		if (e->multi)
			stop_handle(e, &e->x[i]);
		if (e->x[i].notify >= 0)
			close(e->x[i].notify);   /* its reader fails; nothing is committed */
		if (e->x[i].fd >= 0) {
			fsync(e->x[i].fd);
			close(e->x[i].fd);
		}
		free(e->x[i].part);
	}
}

int ptb_fetch_all(struct ptb_fetch_list *l, const char *cache,
                  const struct ptb_net_opts *o,
                  ptb_fetch_ready_fn ready, ptb_fetch_poll_fn poll, void *ud,
                  struct ptb_err *err)
{
	struct engine e = { .ud = ud, .l = l, .cache = cache, .o = o };
	size_t left = 0, *order = NULL;
	int rc = -1;

	if (mkdirs(cache, err) != 0)
		return -1;
	e.x = ptb_xcalloc(l->n ? l->n : 1, sizeof *e.x);
	/* no descriptors yet: close_transfers closes only what was opened,
	 * also when plan_transfers stops before the last item */
	for (size_t i = 0; i < l->n; i++)
		e.x[i].fd = e.x[i].notify = -1;
	e.prog = o->prog ? o->prog : ptb_progress_new(o->progress, l->n);
	if (plan_transfers(&e, ready, &left, err) == 0) {
		order = size_order(l);
		e.multi = curl_multi_init();
		if (!e.multi)
			ptb_oom();
		rc = run_transfers(&e, order, left, ready, poll, err);
	}
	ptb_progress_draw(e.prog, 1);
	close_transfers(&e);
	if (e.multi)
		curl_multi_cleanup(e.multi);
	if (!o->prog)
		ptb_progress_free(e.prog);
	free(order);
	free(e.x);
	return rc;
}
