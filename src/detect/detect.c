/* detect.c - gather the raw observations, let recipes/detect.lua read
 * them, check the facts it returns. */
#include "detect/detect.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "detect/probe.h"
#include "detect/facts.h"
#include "lua/recipe.h"
#include "util/run.h"

int ptb_probe_run(char *const argv[], int timeout_ms, struct ptb_buf *out)
{
	struct ptb_run r;
	int rc = -1;

	ptb_run_init(&r);
	for (size_t i = 0; argv[i]; i++)
		ptb_argv_push(&r.args, argv[i]);
	r.timeout_ms = timeout_ms;
	r.out_to = PTB_RUN_CAPTURE;
	r.err_to = PTB_RUN_TO_OUT;
	r.flags = PTB_RUN_STDIN_NULL;
	if (ptb_run(&r, NULL) == 0 && r.exited)
		rc = r.status;
	ptb_buf_free(out);
	*out = r.out;
	ptb_buf_init(&r.out);
	ptb_run_free(&r);
	return rc;
}

int ptb_probe_timeout_ms(void)
{
	const char *t = ptb_probe_env("PTBUILD_PROBE_TIMEOUT_MS");
	long v = t ? strtol(t, NULL, 10) : 0;

	return v > 0 && v < 600000 ? (int)v : 4000;
}

/* The sysroot as a reader root (trailing slashes dropped); NULL with err
 * when it is not a directory.  Free r->dir. */
static int open_root(const struct ptb_detect_opts *opts, struct ptb_root *r,
                     struct ptb_err *err)
{
	const char *dir = opts && opts->sysroot && *opts->sysroot ? opts->sysroot : "/";
	char *clean;
	size_t n;

	if (!ptb_path_is_dir(dir)) {
		ptb_err_set(err, PTB_EUSAGE, "sysroot '%s' is not a directory", dir);
		return -1;
	}
	clean = ptb_xstrdup(dir);
	n = strlen(clean);
	while (n > 1 && clean[n - 1] == '/')
		clean[--n] = '\0';
	r->dir = clean;
	r->is_host = strcmp(clean, "/") == 0;
	r->notes = NULL;
	r->scan_left = NULL;
	return 0;
}

/* The probes' raw observations of the open root r. */
static cJSON *probe(const struct ptb_detect_opts *opts, struct ptb_root *r)
{
	cJSON *raw = cJSON_CreateObject();

	cJSON_AddBoolToObject(raw, "is_host", r->is_host);
	cJSON_AddObjectToObject(raw, "files");
	/* files found but not read (a FIFO, a device) or cut (too large) */
	r->notes = cJSON_AddArrayToObject(raw, "read_notes");
	ptb_probe_host(r, raw);
	if (!(opts && opts->toolkits_only))
		ptb_probe_gpu(r, raw);
	ptb_probe_cuda(r, raw, opts ? opts->toolkit : NULL);
	ptb_probe_tools(r, raw);
	ptb_probe_python(r, raw);
	r->notes = NULL;
	return raw;
}

cJSON *ptb_detect_raw(const struct ptb_detect_opts *opts, struct ptb_err *err)
{
	struct ptb_root r;
	cJSON *raw;

	if (open_root(opts, &r, err) != 0)
		return NULL;
	raw = probe(opts, &r);
	free((char *)r.dir);
	return raw;
}

/* ptb.version_strings(file) while detect.enrich runs: the version-like
 * strings of one file under the root (ctx), read only when the recipe
 * decides a compiler needs them, all of them within the root's
 * scan_left (PTB_SCAN_BUDGET a run). */
static int version_strings(void *ctx, const cJSON *arg, cJSON **out, struct ptb_err *err)
{
	if (!cJSON_IsString(arg) || arg->valuestring[0] != '/') {
		ptb_err_set(err, PTB_ERECIPE, "ptb.version_strings: expected an absolute path (a string)");
		return -1;
	}
	*out = ptb_probe_version_strings(ctx, arg->valuestring);
	return 0;
}

/* ptb.gpu_list(nvcc) while detect.enrich runs on this host (never for a
 * sysroot: nothing under it is run): the nvcc's own answer to
 * --list-gpu-arch and --list-gpu-code, { nvcc, arch = [...], code =
 * [...] }, or { nvcc, error = "..." } when it could not answer (not an
 * error of the run); ctx: each list's time limit (int seconds).
 * detect.lua decides which toolkits to ask. */
static int gpu_list(void *ctx, const cJSON *arg, cJSON **out, struct ptb_err *err)
{
	struct ptb_err e = { 0 };
	int timeout_s = *(const int *)ctx;

	if (!cJSON_IsString(arg) || arg->valuestring[0] != '/') {
		ptb_err_set(err, PTB_ERECIPE, "ptb.gpu_list: expected the absolute path of an nvcc (a string)");
		return -1;
	}
	if (!(*out = ptb_detect_gpu_list(arg->valuestring, timeout_s, &e))) {
		*out = cJSON_CreateObject();
		cJSON_AddStringToObject(*out, "nvcc", arg->valuestring);
		cJSON_AddStringToObject(*out, "error", e.msg);
	}
	return 0;
}

/* opts->lua, or an engine on the default recipe path in *own. */
static struct ptb_lua *engine(const struct ptb_detect_opts *opts, struct ptb_lua **own,
                              struct ptb_err *err)
{
	size_t n;
	char **path;
	struct ptb_lua_opts lo = { 0 };

	*own = NULL;
	if (opts && opts->lua)
		return opts->lua;
	path = ptb_recipe_path(NULL, 0, &n);
	lo.path = (const char *const *)path;
	lo.npath = n;
	*own = ptb_lua_new(&lo, err);
	ptb_recipe_path_free(path);
	return *own;
}

cJSON *ptb_detect(const struct ptb_detect_opts *opts, struct ptb_err *err)
{
	struct ptb_lua *lua, *own;
	struct ptb_root r;
	cJSON *raw, *facts = NULL;
	uint64_t scan_left = PTB_SCAN_BUDGET;
	int list_timeout_s = opts && opts->gpu_list_timeout_s > 0 ? opts->gpu_list_timeout_s : PTB_GPU_LIST_TIMEOUT_S;

	if (open_root(opts, &r, err) != 0)
		return NULL;
	if (!(lua = engine(opts, &own, err))) {
		free((char *)r.dir);
		return NULL;
	}
	raw = probe(opts, &r);
	/* the compilers' bytes detect.lua asks for share one budget */
	r.scan_left = &scan_left;
	ptb_lua_offer(lua, "version_strings", version_strings, &r);
	if (r.is_host)
		ptb_lua_offer(lua, "gpu_list", gpu_list, &list_timeout_s);
	if (ptb_recipe_call(lua, "detect", "enrich", raw, &facts, NULL, err) == 0 &&
	    ptb_facts_validate(facts, "detect.enrich", err) != 0) {
		err->code = PTB_ERECIPE;
		cJSON_Delete(facts);
		facts = NULL;
	}
	ptb_lua_offer(lua, "version_strings", NULL, NULL);
	ptb_lua_offer(lua, "gpu_list", NULL, NULL);
	cJSON_Delete(raw);
	free((char *)r.dir);
	ptb_lua_free(own);
	return facts;
}

cJSON *ptb_detect_environment(const struct ptb_detect_opts *opts, const char *arch,
                              struct ptb_err *err)
{
	struct ptb_lua *lua, *own;
	struct ptb_root r;
	cJSON *wanted = NULL, *raw, *env = NULL, *args;

	if (open_root(opts, &r, err) != 0)
		return NULL;
	if (!(lua = engine(opts, &own, err))) {
		free((char *)r.dir);
		return NULL;
	}
	args = cJSON_CreateObject();
	if (ptb_recipe_call(lua, "detect", "wanted", args, &wanted, NULL, err) == 0) {
		raw = cJSON_CreateObject();
		r.notes = cJSON_AddArrayToObject(raw, "read_notes");
		ptb_probe_environment(&r, raw, wanted);
		cJSON_AddStringToObject(raw, "arch", arch ? arch : "unknown");
		if (ptb_recipe_call(lua, "detect", "environment", raw, &env, NULL, err) == 0 &&
		    ptb_facts_validate_environment(env, "detect.environment", err) != 0) {
			err->code = PTB_ERECIPE;
			cJSON_Delete(env);
			env = NULL;
		}
		cJSON_Delete(raw);
	}
	cJSON_Delete(wanted);
	cJSON_Delete(args);
	free((char *)r.dir);
	ptb_lua_free(own);
	return env;
}

/* PATH without its "." components, repeated and trailing slashes, in
 * place: "/x/./pt/" is "/x/pt", the path doctor shows.  ".." is kept:
 * read lexically it could name another folder than the system's (a
 * symbolic link before it), and a sysroot is never left for realpath. */
static void tidy_path(char *path)
{
	char *r = path, *w = path;

	if (*r == '/')
		*w++ = *r++;
	while (*r) {
		size_t n = strcspn(r, "/");

		if (n == 1 && r[0] == '.') {
			r += 1;
		} else if (n > 0) {
			if (w > path && w[-1] != '/')
				*w++ = '/';
			memmove(w, r, n);
			w += n;
			r += n;
		}
		while (*r == '/')
			r++;
	}
	if (w == path)
		*w++ = path[0] == '/' ? '/' : '.';
	*w = '\0';
}

int ptb_detect_source(const struct ptb_detect_opts *opts, const char *dir, cJSON **out,
                      struct ptb_err *err)
{
	struct ptb_root r;
	char *path;
	int rc;

	*out = NULL;
	if (open_root(opts, &r, err) != 0)
		return -1;
	if (dir) {
		path = ptb_xstrdup(dir);
	} else if (!(path = getcwd(NULL, 0))) {
		free((char *)r.dir);
		return 0;               /* no working directory: no checkout */
	}
	tidy_path(path);
	rc = ptb_probe_source(&r, path, dir != NULL, out, err);
	free(path);
	free((char *)r.dir);
	return rc;
}
