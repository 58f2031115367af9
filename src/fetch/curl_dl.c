/* curl_dl.c - libcurl, loaded when fetch first needs it.
 *
 * libcurl and the libraries it pulls in (TLS, Kerberos, LDAP, SSH, IDN...)
 * are 32 of the 46 shared objects ptbuild would otherwise map at every
 * start: about 3.7 ms here, more than half of what `ptbuild --version`
 * costs and a third of `ptbuild detect`.  Only fetch talks to the network,
 * so the few entry points it uses are defined here and forward to the real
 * ones, found with dlopen/dlsym on the first call.  The build still checks
 * libcurl's headers and version through pkg-config; the binary does not
 * link it.
 *
 * curl_easy_setopt and curl_easy_getinfo are variadic: the option number
 * says the type of the one argument (curl.h: CURLOPTTYPE_LONG 0,
 * OBJECTPOINT 10000, FUNCTIONPOINT 20000, OFF_T 30000, BLOB 40000;
 * getinfo always takes a pointer). */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "fetch/fetch.h"
#include "util/dl.h"

static struct ptb_dl dl;

static struct {
	CURLcode (*global_init)(long);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	void (*easy_cleanup)(CURL *);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	CURLcode (*easy_perform)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_cleanup)(CURLM *);
	CURLMcode (*multi_add_handle)(CURLM *, CURL *);
	CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
	CURLMcode (*multi_perform)(CURLM *, int *);
	CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
	CURLMsg *(*multi_info_read)(CURLM *, int *);
} f;

/* Load libcurl once; 0 or -1 (ptb_curl_error() says why). */
int ptb_curl_load(void)
{
	static const char *const names[] = { "libcurl.so.4", "libcurl.so", "libcurl-gnutls.so.4" };
#define SYM(field, name) { name, (void **)&f.field }
	static const struct ptb_dl_sym syms[] = {
		SYM(global_init, "curl_global_init"),
		SYM(global_cleanup, "curl_global_cleanup"),
		SYM(easy_init, "curl_easy_init"),
		SYM(easy_cleanup, "curl_easy_cleanup"),
		SYM(easy_setopt, "curl_easy_setopt"),
		SYM(easy_getinfo, "curl_easy_getinfo"),
		SYM(easy_perform, "curl_easy_perform"),
		SYM(easy_strerror, "curl_easy_strerror"),
		SYM(multi_init, "curl_multi_init"),
		SYM(multi_cleanup, "curl_multi_cleanup"),
		SYM(multi_add_handle, "curl_multi_add_handle"),
		SYM(multi_remove_handle, "curl_multi_remove_handle"),
		SYM(multi_perform, "curl_multi_perform"),
		SYM(multi_poll, "curl_multi_poll"),
		SYM(multi_info_read, "curl_multi_info_read"),
	};
#undef SYM

	return ptb_dl_load(&dl, "libcurl", names, sizeof names / sizeof *names,
	                   syms, sizeof syms / sizeof *syms);
}

const char *ptb_curl_error(void)
{
	return dl.why[0] ? dl.why : "libcurl could not be loaded";
}

/* Every entry point below is reached only after ptb_curl_load() succeeded
 * (fetch checks first); should one be reached without it, fail safely. */
static int ready(void)
{
	return dl.handle != NULL || ptb_curl_load() == 0;
}

CURLcode curl_global_init(long flags)
{
	return ready() ? f.global_init(flags) : CURLE_FAILED_INIT;
}

void curl_global_cleanup(void)
{
	if (dl.handle)
		f.global_cleanup();
}

CURL *curl_easy_init(void)
{
	return ready() ? f.easy_init() : NULL;
}

void curl_easy_cleanup(CURL *h)
{
	if (dl.handle)
		f.easy_cleanup(h);
}

CURLcode curl_easy_setopt(CURL *h, CURLoption opt, ...)
{
	va_list ap;
	CURLcode rc;

	if (!ready())
		return CURLE_FAILED_INIT;
	va_start(ap, opt);
	if (opt < CURLOPTTYPE_OBJECTPOINT) {
		long v = va_arg(ap, long);
		rc = f.easy_setopt(h, opt, v);
	} else if (opt < CURLOPTTYPE_OFF_T) {
		void *v = va_arg(ap, void *);   /* object and function pointers */
		rc = f.easy_setopt(h, opt, v);
	} else if (opt < CURLOPTTYPE_BLOB) {
		curl_off_t v = va_arg(ap, curl_off_t);
		rc = f.easy_setopt(h, opt, v);
	} else {
		void *v = va_arg(ap, void *);
		rc = f.easy_setopt(h, opt, v);
	}
	va_end(ap);
	return rc;
}

CURLcode curl_easy_getinfo(CURL *h, CURLINFO info, ...)
{
	va_list ap;
	void *p;

	if (!ready())
		return CURLE_FAILED_INIT;
	va_start(ap, info);
	p = va_arg(ap, void *);
	va_end(ap);
	return f.easy_getinfo(h, info, p);
}

CURLcode curl_easy_perform(CURL *h)
{
	return ready() ? f.easy_perform(h) : CURLE_FAILED_INIT;
}

const char *curl_easy_strerror(CURLcode c)
{
	return ready() ? f.easy_strerror(c) : ptb_curl_error();
}

CURLM *curl_multi_init(void)
{
	return ready() ? f.multi_init() : NULL;
}

CURLMcode curl_multi_cleanup(CURLM *m)
{
	return dl.handle ? f.multi_cleanup(m) : CURLM_OK;
}

CURLMcode curl_multi_add_handle(CURLM *m, CURL *h)
{
	return ready() ? f.multi_add_handle(m, h) : CURLM_INTERNAL_ERROR;
}

CURLMcode curl_multi_remove_handle(CURLM *m, CURL *h)
{
	return dl.handle ? f.multi_remove_handle(m, h) : CURLM_OK;
}

CURLMcode curl_multi_perform(CURLM *m, int *running)
{
	return ready() ? f.multi_perform(m, running) : CURLM_INTERNAL_ERROR;
}

CURLMcode curl_multi_poll(CURLM *m, struct curl_waitfd *fds, unsigned int n, int ms, int *ret)
{
	return ready() ? f.multi_poll(m, fds, n, ms, ret) : CURLM_INTERNAL_ERROR;
}

CURLMsg *curl_multi_info_read(CURLM *m, int *left)
{
	return ready() ? f.multi_info_read(m, left) : NULL;
}
