/* plan_check.c - the shape of a plan document and the form of every value
 * in it, checked before any output uses one.
 *
 * A plan reaches generate, fetch and validate either from recipes/plan.lua
 * or from a file someone hands over (`generate --plan FILE`).  Values land
 * in shell scripts, Dockerfiles, CMake and YAML; the renderer escapes each
 * for its output, and this file is the second line: every value must have
 * the form its meaning allows (a package name, a version, a sha256, an
 * https URL, an absolute path), so a hostile plan is refused whole, naming
 * the key, before anything is written. */
#include "core/plan.h"
#include "core/fleet.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fetch/fetch.h"
#include "util/json.h"

struct chk {
	const char *file;          /* NULL: the plan came from the recipe */
	struct ptb_err *err;
	const char *at;            /* "builds[1]." in a fleet document, or "" */
	int fleet;                 /* checking a fleet document */
};

/* A key a saved plan may leave out (generate has a default for each, and
 * older plans lack newer keys); the recipe's plan has them all.  What is
 * there is checked either way. */
static int absent_ok(const struct chk *c, const cJSON *v)
{
	return c->file && (!v || cJSON_IsNull(v));
}

static int bad(const struct chk *c, const char *key, const char *want)
{
	const char *at = c->at ? c->at : "";

	if (c->file)
		ptb_err_set(c->err, PTB_EUSAGE, "'%s' is not a valid %s: key '%s%s': expected %s", c->file,
		            c->fleet ? "fleet plan" : "plan", at, key, want);
	else
		ptb_err_set(c->err, PTB_ERECIPE, "recipe 'plan.make' returned a malformed plan: key '%s%s': expected %s", at, key, want);
	return -1;
}

/* A key with an index or a member: "packages.names[3]", "env.CUDA_HOME". */
static const char *keyf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return buf;
}

/* ---- forms ---- */

static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alpha(int c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
static int is_alnum(int c) { return is_digit(c) || is_alpha(c); }

/* Printable text on one line: no control character at all. */
static int form_text(const char *s)
{
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return 0;
	return 1;
}

/* 1.2, 1.2.3, 9.13.0.50: digits and dots, 2 to 4 parts. */
static int form_version(const char *s)
{
	int parts = 0;

	for (;;) {
		if (!is_digit(*s))
			return 0;
		while (is_digit(*s))
			s++;
		parts++;
		if (!*s)
			return parts >= 2 && parts <= 4;
		if (*s++ != '.')
			return 0;
	}
}

/* The sha256 form every reader shares (fetch's: 64 lowercase hex). */
static int form_sha256(const char *s)
{
	return ptb_fetch_is_sha256(s);
}

/* NVIDIA's md5 of a runfile: 32 lowercase hex digits. */
static int form_md5(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return 0;
	return n == 32;
}

/* A name of a distribution package or an archive component: one shell
 * word that needs no quoting (Debian's and RPM's names, with a version
 * pin after '=' allowed). */
static int form_name(const char *s)
{
	size_t n = 0;

	if (!is_alnum((unsigned char)*s))
		return 0;
	for (; s[n]; n++) {
		if (!is_alnum((unsigned char)s[n]) && !strchr("+._:=~-", s[n]))
			return 0;
		/* '~' after ':' or '=' would be a home directory to sh. */
		if (s[n] == '~' && (s[n - 1] == ':' || s[n - 1] == '='))
			return 0;
	}
	return n <= 128;
}

/* [A-Za-z_][A-Za-z0-9_]* */
static int form_ident(const char *s)
{
	if (!is_alpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s; s++)
		if (!is_alnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* An OpenBLAS TARGET: upper-case letters, digits, '_'. */
static int form_target(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!(*s >= 'A' && *s <= 'Z') && !is_digit(*s) && *s != '_')
			return 0;
	return 1;
}

/* NAME=VALUE for make or scons: a value of plain characters. */
static int form_assignment(const char *s)
{
	const char *eq = strchr(s, '=');

	if (!eq || eq == s)
		return 0;
	for (const char *c = s; c < eq; c++)
		if (!is_alnum((unsigned char)*c) && *c != '_')
			return 0;
	for (const char *c = eq + 1; *c; c++)
		if (!is_alnum((unsigned char)*c) && !strchr("._,+:/=-", *c))
			return 0;
	return 1;
}

/* https://, http:// or file:/// (a local mirror), then only the
 * characters a URL needs, none that any output's quoting treats
 * specially. */
static int form_url(const char *s)
{
	size_t n;

	if (strncmp(s, "https://", 8) == 0)
		s += 8;
	else if (strncmp(s, "http://", 7) == 0)
		s += 7;
	else if (strncmp(s, "file:///", 8) == 0)
		s += 7;
	else
		return 0;
	if (!is_alnum((unsigned char)*s) && *s != '/')
		return 0;
	for (n = 0; s[n]; n++)
		if (!is_alnum((unsigned char)s[n]) && !strchr("-._~:/?#[]@!&()*+,;=%", s[n]))
			return 0;
	return n <= 2048;
}

/* An absolute path on one line; in a PATH-like list no ':' either. */
static int form_abspath(const char *s)
{
	return s[0] == '/' && form_text(s) && strlen(s) <= 4096;
}

/* cuda.gpu_list.from: who listed the GPUs the plan was judged by */
static int form_nvcc(const char *s)
{
	return strcmp(s, "nvcc") == 0;
}

/* A problem code, as recipes/PROBLEMS.md lists them: a lowercase word
 * of letters, digits, '-' and '.' ("jetson-orin-needs-cuda-13.2"). */
static int form_code(const char *s)
{
	size_t n = 0;

	if (*s < 'a' || *s > 'z')
		return 0;
	for (; *s; s++, n++)
		if (!((*s >= 'a' && *s <= 'z') || is_digit((unsigned char)*s) || *s == '-' || *s == '.'))
			return 0;
	return n <= 64;
}

static int form_dir_entry(const char *s)
{
	return form_abspath(s) && !strchr(s, ':');
}

/* TORCH_CUDA_ARCH_LIST's alphabet; recipes/lib/archlist.lua parses it.
 * Empty when no GPU can be built (generate then says so). */
static int form_arch_list(const char *s)
{
	for (; *s; s++)
		if (!is_alnum((unsigned char)*s) && !strchr(".;+() ", *s))
			return 0;
	return 1;
}

/* ACL's release tag: v52.6.0. */
static int form_tag(const char *s)
{
	return form_version(*s == 'v' ? s + 1 : s);
}

/* An os-release ID or VERSION_ID: lower-case letters, digits, '.', '_'
 * and '-' (os-release(5)), starting with a letter or digit. */
static int form_os_word(const char *s)
{
	size_t n = 0;

	if (!is_digit((unsigned char)*s) && !(*s >= 'a' && *s <= 'z'))
		return 0;
	for (; s[n]; n++)
		if (!is_digit((unsigned char)s[n]) && !(s[n] >= 'a' && s[n] <= 'z') && !strchr("._-", s[n]))
			return 0;
	return n <= 64;
}

/* A machine architecture as uname says it: x86_64, aarch64. */
static int form_arch(const char *s)
{
	size_t n = 0;

	if (!is_alpha((unsigned char)*s))
		return 0;
	for (; s[n]; n++)
		if (!is_alnum((unsigned char)s[n]) && s[n] != '_')
			return 0;
	return n <= 32;
}

/* Python's X.Y. */
static int form_python(const char *s)
{
	const char *dot = strchr(s, '.');

	return form_version(s) && dot && !strchr(dot + 1, '.');
}

/* ---- keys ---- */

typedef int (*form_fn)(const char *);

static int is_one_of(const char *s, const char *const *set)
{
	for (; s && *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

/* The string at path must exist and have form f. */
static int need(const struct chk *c, const cJSON *o, const char *path, form_fn f, const char *want)
{
	const char *s = ptb_json_str(o, path);

	if (absent_ok(c, ptb_json_get(o, path)))
		return 0;
	return s && (!f || f(s)) ? 0 : bad(c, path, want);
}

/* The string at path may be absent; if there, it has form f. */
static int may(const struct chk *c, const cJSON *o, const char *path, form_fn f, const char *want)
{
	const cJSON *v = ptb_json_get(o, path);

	if (!v || cJSON_IsNull(v))
		return 0;
	return cJSON_IsString(v) && f(v->valuestring) ? 0 : bad(c, path, want);
}

static int one_of(const struct chk *c, const cJSON *o, const char *path,
                  const char *const *set, const char *want)
{
	if (absent_ok(c, ptb_json_get(o, path)))
		return 0;
	return is_one_of(ptb_json_str(o, path), set) ? 0 : bad(c, path, want);
}

/* An array of strings, each of form f (or any text when f is NULL). */
static int strings(const struct chk *c, const cJSON *a, const char *key, form_fn f, const char *want)
{
	const cJSON *s;
	char k[256];
	int i = 0;

	if (absent_ok(c, a))
		return 0;
	if (!cJSON_IsArray(a))
		return bad(c, key, "an array of strings");
	cJSON_ArrayForEach(s, a) {
		if (!cJSON_IsString(s) || !(f ? f(s->valuestring) : form_text(s->valuestring)))
			return bad(c, keyf(k, sizeof k, "%s[%d]", key, i), want);
		i++;
	}
	return 0;
}

static int is_whole(const cJSON *v, double lo, double hi)
{
	return cJSON_IsNumber(v) && v->valuedouble >= lo && v->valuedouble <= hi &&
	       v->valuedouble == (double)(long long)v->valuedouble;
}

/* A whole number in [lo, hi]. */
static int integer(const struct chk *c, const cJSON *o, const char *key, double lo, double hi)
{
	char want[96];

	if (absent_ok(c, ptb_json_get(o, key)) || is_whole(ptb_json_get(o, key), lo, hi))
		return 0;
	snprintf(want, sizeof want, "a whole number from %.0f to %.0f", lo, hi);
	return bad(c, key, want);
}

/* Every string anywhere in the document (but the variables' values) is
 * one line of printable text: whatever a later output does with it, it
 * cannot start a new line. */
static int all_text(const struct chk *c, const cJSON *v, char *key, size_t len, size_t cap)
{
	const cJSON *it;
	int i = 0;

	if (cJSON_IsString(v))
		return form_text(v->valuestring) ? 0 : bad(c, len ? key : "(document)", "one line of text without control characters");
	if (!cJSON_IsArray(v) && !cJSON_IsObject(v))
		return 0;
	cJSON_ArrayForEach(it, v) {
		if (len == 0 && it->string && (!strcmp(it->string, "env") || !strcmp(it->string, "cmake")))
			continue;           /* variables' values: name_values() */
		int n = cJSON_IsArray(v) ? snprintf(key + len, cap - len, "[%d]", i)
		        : snprintf(key + len, cap - len, "%s%s", len ? "." : "", it->string ? it->string : "");
		size_t at = n < 0 ? len : len + (size_t)n < cap ? len + (size_t)n : cap - 1;

		if (cJSON_IsObject(v) && it->string && !form_text(it->string))
			return bad(c, len ? key : "(document)", "keys without control characters");
		if (all_text(c, it, key, at, cap) != 0)
			return -1;
		key[len] = '\0';
		i++;
	}
	return 0;
}

static int downloads(const struct chk *c, const cJSON *v, const char *key, int platform)
{
	static const char *const platforms[] = { "linux-x86_64", "linux-sbsa", "linux-aarch64", NULL };
	const cJSON *it, *sz;
	char k[128];
	int i = 0;

	if (!v)
		return 0;
	if (!cJSON_IsArray(v))
		return bad(c, key, "an array");
	cJSON_ArrayForEach(it, v) {
		if (!cJSON_IsObject(it))
			return bad(c, keyf(k, sizeof k, "%s[%d]", key, i), "an object {name, url, sha256, size?}");
		if (!form_name(ptb_json_str(it, "name") ? ptb_json_str(it, "name") : ""))
			return bad(c, keyf(k, sizeof k, "%s[%d].name", key, i), "a component name ([A-Za-z0-9][A-Za-z0-9+._-]*)");
		if (!form_url(ptb_json_str(it, "url") ? ptb_json_str(it, "url") : ""))
			return bad(c, keyf(k, sizeof k, "%s[%d].url", key, i), "an http(s) or file:/// URL");
		if (!form_sha256(ptb_json_str(it, "sha256") ? ptb_json_str(it, "sha256") : ""))
			return bad(c, keyf(k, sizeof k, "%s[%d].sha256", key, i), "64 lowercase hexadecimal digits");
		/* size: absent where no source gave it (the sha256 still
		 * holds the download; only the early size check is lost) */
		sz = cJSON_GetObjectItemCaseSensitive(it, "size");
		if (sz && !is_whole(sz, 0, 1e15))
			return bad(c, keyf(k, sizeof k, "%s[%d].size", key, i), "a whole number of bytes, or no size");
		if (platform && !is_one_of(ptb_json_str(it, "platform"), platforms))
			return bad(c, keyf(k, sizeof k, "%s[%d].platform", key, i), "linux-x86_64, linux-sbsa or linux-aarch64");
		i++;
	}
	return 0;
}

/* A variable's value: text, where a tab or a newline may be part of it
 * (each output quotes it, or refuses what it cannot carry). */
static int form_value(const char *s)
{
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if ((*c < 0x20 && *c != '\t' && *c != '\n') || *c == 0x7f)
			return 0;
	return 1;
}

/* An object whose keys are variable names and whose values are strings. */
static int name_values(const struct chk *c, const cJSON *v, const char *key)
{
	const cJSON *it;
	char k[256];

	if (absent_ok(c, v))
		return 0;
	if (!cJSON_IsObject(v))
		return bad(c, key, "an object");
	cJSON_ArrayForEach(it, v) {
		if (!form_ident(it->string))
			return bad(c, keyf(k, sizeof k, "%s.%s", key, it->string), "a variable name ([A-Za-z_][A-Za-z0-9_]*)");
		if (!cJSON_IsString(it) || !form_value(it->valuestring))
			return bad(c, keyf(k, sizeof k, "%s.%s", key, it->string),
			           "a string (tabs and newlines allowed, no other control character)");
	}
	return 0;
}

static int check_cuda(const struct chk *c, const cJSON *p)
{
	static const char *const platforms[] = { "linux-x86_64", "linux-sbsa", "linux-aarch64", NULL };
	static const char *const sources[] = { "installed", "download", "jetpack", NULL };
	static const char *const installers[] = { "redist", "runfile", "jetpack", NULL };
	static const char *const origins[] = { "JetPack", "NVIDIA's Jetson local repo",
		                               "NVIDIA's Jetson packages", NULL };
	const cJSON *v;

	if (need(c, p, "cuda.version", form_version, "a version such as 13.0") ||
	    need(c, p, "cuda.full_version", form_version, "a version such as 13.0.2") ||
	    need(c, p, "cuda.root", form_abspath, "an absolute path") ||
	    one_of(c, p, "cuda.platform", platforms, "linux-x86_64, linux-sbsa or linux-aarch64") ||
	    one_of(c, p, "cuda.source", sources, "installed, download or jetpack") ||
	    one_of(c, p, "cuda.installer", installers, "redist, runfile or jetpack") ||
	    may(c, p, "cuda.manifest", form_url, "an http(s) or file:/// URL") ||
	    may(c, p, "cuda.runfile.name", form_name, "a file name") ||
	    may(c, p, "cuda.runfile.url", form_url, "an http(s) or file:/// URL") ||
	    may(c, p, "cuda.runfile.sha256", form_sha256, "64 lowercase hexadecimal digits") ||
	    may(c, p, "cuda.runfile.md5", form_md5, "32 lowercase hexadecimal digits") ||
	    may(c, p, "cuda.cudnn.version", form_version, "a version such as 9.13.0.50") ||
	    may(c, p, "cuda.cudnn.variant", form_name, "a variant name such as cuda13") ||
	    may(c, p, "cuda.jetpack_repo", form_url, "an http(s) or file:/// URL") ||
	    may(c, p, "cuda.compat.package", form_name, "a package name such as cuda-compat-12-2") ||
	    may(c, p, "cuda.compat.dir", form_abspath, "an absolute path") ||
	    may(c, p, "cuda.gpu_list.from", form_nvcc, "\"nvcc\" (the toolkit's nvcc listed its GPUs)") ||
	    may(c, p, "cuda.gpu_list.nvcc", form_abspath, "an absolute path") ||
	    /* a plan that chooses no CUDA or wheel names the problem that
	     * holds the choice; generate refuses it by this string alone */
	    may(c, p, "cuda.undecided", form_code, "a problem code such as jetson-facts-disagree") ||
	    may(c, p, "wheel.undecided", form_code, "a problem code such as jetson-facts-disagree"))
		return -1;
	/* a Jetson's upgrade package: both halves or none, as generate's
	 * setup.sh checks the package that the environment's dir loads */
	v = ptb_json_get(p, "cuda.compat");
	if (v && !cJSON_IsNull(v) &&
	    (!cJSON_IsObject(v) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "package")) ||
	     !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "dir"))))
		return bad(c, "cuda.compat", "an object with a package and its dir");
	v = ptb_json_get(p, "cuda.origin");
	if (v && !cJSON_IsNull(v) && !is_one_of(cJSON_GetStringValue(v), origins))
		return bad(c, "cuda.origin", "JetPack, NVIDIA's Jetson local repo or NVIDIA's Jetson packages");
	v = ptb_json_get(p, "cuda.runfile.size");
	if (v && !is_whole(v, 1, 1e15))
		return bad(c, "cuda.runfile.size", "a whole number of bytes");
	v = ptb_json_get(p, "cuda.downloads");
	if (!cJSON_IsArray(v) && !absent_ok(c, v))
		return bad(c, "cuda.downloads", "an array");
	if (downloads(c, v, "cuda.downloads", 0) || downloads(c, ptb_json_get(p, "cuda.docker_downloads"), "cuda.docker_downloads", 1))
		return -1;
	v = ptb_json_get(p, "cuda.components");
	if (v && strings(c, v, "cuda.components", form_name, "a component name"))
		return -1;
	return 0;
}

static int check_blas(const struct chk *c, const cJSON *p)
{
	static const char *const vias[] = { "package", "source", "none", NULL };
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, "openblas");

	if (absent_ok(c, v))
		v = NULL;
	else if (!cJSON_IsObject(v))
		return bad(c, "openblas", "an object");
	if (one_of(c, p, "openblas.via", vias, "package, source or none") ||
	    strings(c, cJSON_GetObjectItemCaseSensitive(v, "packages"), "openblas.packages", form_name, "a package name") ||
	    may(c, p, "openblas.version", form_version, "a version such as 0.3.28") ||
	    may(c, p, "openblas.target", form_target, "an OpenBLAS TARGET ([A-Z0-9_]+)") ||
	    may(c, p, "openblas.url", form_url, "an http(s) or file:/// URL") ||
	    may(c, p, "openblas.sha256", form_sha256, "64 lowercase hexadecimal digits") ||
	    may(c, p, "openblas.prefix", form_abspath, "an absolute path"))
		return -1;
	if (v && cJSON_GetObjectItemCaseSensitive(v, "make_flags") &&
	    strings(c, cJSON_GetObjectItemCaseSensitive(v, "make_flags"), "openblas.make_flags", form_assignment, "NAME=VALUE"))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(p, "acl");
	if (v) {
		const char *flags = ptb_json_str(v, "scons_flags");

		if (!cJSON_IsObject(v))
			return bad(c, "acl", "an object");
		if (one_of(c, p, "acl.via", vias, "package, source or none") ||
		    may(c, p, "acl.version", form_tag, "a release tag such as v52.6.0") ||
		    may(c, p, "acl.root", form_abspath, "an absolute path") ||
		    may(c, p, "acl.url", form_url, "an http(s) or file:/// URL") ||
		    may(c, p, "acl.sha256", form_sha256, "64 lowercase hexadecimal digits"))
			return -1;
		if (flags) {
			char *dup = ptb_xstrdup(flags), *save = NULL;
			int ok = 1;

			for (char *w = strtok_r(dup, " ", &save); w; w = strtok_r(NULL, " ", &save))
				ok = ok && form_assignment(w);
			free(dup);
			if (!ok)
				return bad(c, "acl.scons_flags", "NAME=VALUE words separated by spaces");
		} else if (ptb_json_get(v, "scons_flags")) {
			return bad(c, "acl.scons_flags", "a string");
		}
	}
	return 0;
}

/* The machine the plan is for (absent in a plan saved before it; each
 * value absent when the facts lacked it). */
static int check_machine(const struct chk *c, const cJSON *p)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, "machine");

	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsObject(v))
		return bad(c, "machine", "an object {arch, os_id, os_version, glibc, python}");
	return may(c, p, "machine.arch", form_arch, "an architecture such as aarch64") ||
	       may(c, p, "machine.os_id", form_os_word, "an os-release ID such as ubuntu ([a-z0-9._-])") ||
	       may(c, p, "machine.os_version", form_os_word, "an os-release VERSION_ID such as 24.04 ([a-z0-9._-])") ||
	       may(c, p, "machine.glibc", form_version, "a version such as 2.39") ||
	       may(c, p, "machine.python", form_python, "a Python version X.Y such as 3.12") ? -1 : 0;
}

static int check(const struct chk *c, const cJSON *p)
{
	static const char *const severities[] = { "error", "warning", NULL };
	static const char *const managers[] = { "apt", "dnf", NULL };
	const cJSON *v, *it;
	char k[256];
	int i = 0;

	if (!cJSON_IsObject(p))
		return bad(c, "(document)", "an object");
	if (!is_one_of(ptb_json_str(p, "schema"), (const char *const[]){ PTB_PLAN_SCHEMA, NULL }))
		return bad(c, "schema", "\"" PTB_PLAN_SCHEMA "\"");
	k[0] = '\0';
	if (all_text(c, p, k, 0, sizeof k) != 0)
		return -1;
	if (need(c, p, "facts_source", NULL, "a string") ||
	    need(c, p, "torch.version", form_version, "a version such as 2.14") ||
	    may(c, p, "torch.tag", form_tag, "a release tag such as v2.14.1") ||
	    need(c, p, "torch_cuda_arch_list", form_arch_list, "a TORCH_CUDA_ARCH_LIST such as 8.0;9.0+PTX") ||
	    check_machine(c, p) ||
	    check_cuda(c, p))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(p, "cmake");
	if (name_values(c, v, "cmake") ||
	    need(c, p, "cmake.CMAKE_CUDA_COMPILER", form_abspath, "an absolute path") ||
	    need(c, p, "cmake.CUDAToolkit_ROOT", form_abspath, "an absolute path") ||
	    need(c, p, "cmake.CMAKE_CUDA_ARCHITECTURES", NULL, "a string"))
		return -1;
	if (name_values(c, cJSON_GetObjectItemCaseSensitive(p, "env"), "env"))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(p, "path_prepend");
	if (absent_ok(c, v))
		v = NULL;
	else if (!cJSON_IsObject(v))
		return bad(c, "path_prepend", "an object");
	cJSON_ArrayForEach(it, v) {
		if (!form_ident(it->string))
			return bad(c, keyf(k, sizeof k, "path_prepend.%s", it->string), "a variable name");
		if (strings(c, it, keyf(k, sizeof k, "path_prepend.%s", it->string), form_dir_entry,
		            "an absolute directory without ':'"))
			return -1;
	}
	if (!c->file && (!cJSON_GetObjectItemCaseSensitive(v, "PATH") || !cJSON_GetObjectItemCaseSensitive(v, "LD_LIBRARY_PATH")))
		return bad(c, "path_prepend", "an object with PATH and LD_LIBRARY_PATH");
	if (check_blas(c, p))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(p, "packages");
	if (!cJSON_IsObject(v) && !absent_ok(c, v))
		return bad(c, "packages", "an object");
	if ((ptb_json_get(p, "packages.manager") && !cJSON_IsNull(ptb_json_get(p, "packages.manager")) && one_of(c, p, "packages.manager", managers, "apt or dnf")) ||
	    strings(c, cJSON_GetObjectItemCaseSensitive(v, "names"), "packages.names", form_name,
	            "a package name ([A-Za-z0-9][A-Za-z0-9+._:=~-]*)") ||
	    may(c, p, "packages.note", form_text, "one line of text"))
		return -1;
	if (integer(c, p, "max_jobs", 1, 4096))
		return -1;
	if (ptb_json_get(p, "source_date_epoch") && integer(c, p, "source_date_epoch", 0, 253402300799.0))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(p, "cmake_fresh");
	if (!cJSON_IsBool(v) && !absent_ok(c, v))
		return bad(c, "cmake_fresh", "a boolean");
	v = cJSON_GetObjectItemCaseSensitive(p, "problems");
	if (!cJSON_IsArray(v) && !absent_ok(c, v))
		return bad(c, "problems", "an array");
	cJSON_ArrayForEach(it, v) {
		if (!is_one_of(ptb_json_str(it, "severity"), severities) || !ptb_json_str(it, "code") ||
		    !ptb_json_str(it, "message") || !ptb_json_str(it, "fix"))
			return bad(c, keyf(k, sizeof k, "problems[%d]", i), "an object {severity: error|warning, code, message, fix}");
		i++;
	}
	return 0;
}

int ptb_plan_check(const cJSON *plan, const char *file, struct ptb_err *err)
{
	struct chk c = { file, err, "", 0 };

	return check(&c, plan);
}

int ptb_plan_validate(const cJSON *plan, struct ptb_err *err)
{
	return ptb_plan_check(plan, NULL, err);
}

/* A fleet's build platform, its output directory's name: a short word
 * that names one directory (no '/', no leading '.'). */
static int form_platform(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 32 || !is_alnum((unsigned char)s[0]))
		return 0;
	for (; *s; s++)
		if (!is_alnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return 0;
	return 1;
}

/* A node's name as fleet.c accepts it: a host name. */
static int form_node(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 253 || s[0] == '.' || s[0] == '-')
		return 0;
	for (; *s; s++)
		if (!is_alnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return 0;
	return 1;
}

#define MAX_BUILDS 16

/* A fleet document: its targets (one per build, each platform once, a
 * directory name), its nodes and problems, and every build checked as a
 * plan, the key naming the build ("builds[1].cuda.version"). */
int ptb_plan_check_fleet(const cJSON *fleet, const char *file, struct ptb_err *err)
{
	static const char *const severities[] = { "error", "warning", NULL };
	struct chk c = { file, err, "", 1 };
	const cJSON *builds, *targets, *it, *n;
	char k[256], at[32];
	int nb, i = 0;

	/* the fleet's own keys are named without "builds[i]." */
	if (!cJSON_IsObject(fleet))
		return bad(&c, "(document)", "an object");
	if (!is_one_of(ptb_json_str(fleet, "schema"), (const char *const[]){ PTB_FLEET_SCHEMA, NULL }))
		return bad(&c, "schema", "\"" PTB_FLEET_SCHEMA "\"");
	builds = cJSON_GetObjectItemCaseSensitive(fleet, "builds");
	targets = cJSON_GetObjectItemCaseSensitive(fleet, "targets");
	nb = cJSON_GetArraySize(builds);
	if (!cJSON_IsArray(builds) || nb < 1 || nb > MAX_BUILDS)
		return bad(&c, "builds", "an array of 1 to 16 plans");
	if (!cJSON_IsArray(targets) || cJSON_GetArraySize(targets) != nb)
		return bad(&c, "targets", "an array of one target per build");
	if (may(&c, fleet, "torch", form_version, "a version such as 2.14"))
		return -1;
	cJSON_ArrayForEach(it, targets) {
		const char *p = ptb_json_str(it, "platform");
		const cJSON *o;
		int j = 0;

		if (!cJSON_IsObject(it) || !p || !form_platform(p))
			return bad(&c, keyf(k, sizeof k, "targets[%d].platform", i),
			           "a platform name such as x86_64 (letters, digits, '_', '-', '.')");
		cJSON_ArrayForEach(o, targets) {
			if (j++ < i && ptb_json_str(o, "platform") && strcmp(ptb_json_str(o, "platform"), p) == 0)
				return bad(&c, keyf(k, sizeof k, "targets[%d].platform", i), "a platform no other target has");
		}
		if (may(&c, it, "build_machine", form_node, "a node name"))
			return -1;
		o = cJSON_GetObjectItemCaseSensitive(it, "nodes");
		if (o && !absent_ok(&c, o) && strings(&c, o, keyf(k, sizeof k, "targets[%d].nodes", i), form_node, "a node name"))
			return -1;
		i++;
	}
	i = 0;
	cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(fleet, "nodes")) {
		if (!ptb_json_str(n, "name") || !form_node(ptb_json_str(n, "name")))
			return bad(&c, keyf(k, sizeof k, "nodes[%d].name", i), "a node name");
		i++;
	}
	it = cJSON_GetObjectItemCaseSensitive(fleet, "problems");
	if (!cJSON_IsArray(it) && !absent_ok(&c, it))
		return bad(&c, "problems", "an array");
	i = 0;
	cJSON_ArrayForEach(n, it) {
		if (!is_one_of(ptb_json_str(n, "severity"), severities) || !ptb_json_str(n, "code") ||
		    !ptb_json_str(n, "message") || !ptb_json_str(n, "fix") ||
		    !form_text(ptb_json_str(n, "message")) || !form_text(ptb_json_str(n, "fix")))
			return bad(&c, keyf(k, sizeof k, "problems[%d]", i), "an object {severity: error|warning, code, message, fix}");
		i++;
	}
	i = 0;
	cJSON_ArrayForEach(it, builds) {
		snprintf(at, sizeof at, "builds[%d].", i++);
		c.at = at;
		if (check(&c, it) != 0)
			return -1;
	}
	return 0;
}

/* Read and parse a JSON document; NULL with err. */
static cJSON *read_doc(const char *path, struct ptb_err *err)
{
	struct ptb_buf text;
	cJSON *doc;

	ptb_buf_init(&text);
	if (ptb_file_read(path, 0, &text, err) != 0) {
		ptb_buf_free(&text);
		return NULL;
	}
	doc = ptb_json_parse(text.data, text.len, path, err);
	ptb_buf_free(&text);
	return doc;
}

cJSON *ptb_plan_load_any(const char *path, int *is_fleet, struct ptb_err *err)
{
	cJSON *doc = read_doc(path, err);
	const char *schema;

	*is_fleet = 0;
	if (!doc)
		return NULL;
	schema = cJSON_IsObject(doc) ? ptb_json_str(doc, "schema") : NULL;
	if (schema && strcmp(schema, PTB_FLEET_SCHEMA) == 0) {
		*is_fleet = 1;
		if (ptb_plan_check_fleet(doc, path, err) != 0) {
			cJSON_Delete(doc);
			return NULL;
		}
		return doc;
	}
	if (!schema || strcmp(schema, PTB_PLAN_SCHEMA) != 0) {
		ptb_err_set(err, PTB_EUSAGE, "'%s' is not a ptbuild plan (expected \"schema\": \"" PTB_PLAN_SCHEMA "\" or \"" PTB_FLEET_SCHEMA "\")", path);
		cJSON_Delete(doc);
		return NULL;
	}
	if (ptb_plan_check(doc, path, err) != 0) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

cJSON *ptb_plan_load(const char *path, struct ptb_err *err)
{
	cJSON *plan = read_doc(path, err);

	if (!plan)
		return NULL;
	if (!cJSON_IsObject(plan) || !is_one_of(ptb_json_str(plan, "schema"), (const char *const[]){ PTB_PLAN_SCHEMA, NULL })) {
		if (cJSON_IsObject(plan) && ptb_json_str(plan, "schema") && strcmp(ptb_json_str(plan, "schema"), PTB_FLEET_SCHEMA) == 0) {
			ptb_err_set(err, PTB_EUSAGE, "'%s' is a fleet plan (" PTB_FLEET_SCHEMA "): one build per platform, not one machine's plan", path);
			ptb_err_hint(err, "'ptbuild generate --plan %s --out DIR' writes each platform's plan to DIR/PLATFORM/plan.json; pass one of those", path);
		} else {
			ptb_err_set(err, PTB_EUSAGE, "'%s' is not a ptbuild plan (expected \"schema\": \"" PTB_PLAN_SCHEMA "\")", path);
		}
		cJSON_Delete(plan);
		return NULL;
	}
	if (ptb_plan_check(plan, path, err) != 0) {
		cJSON_Delete(plan);
		return NULL;
	}
	return plan;
}
