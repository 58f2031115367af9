/* probe_env.c - the environment a build would run in, for doctor: the
 * variables it reads, the toolkits CUDA_HOME, CUDA_PATH, PATH and
 * /usr/local/cuda name, the libraries the loader would find in its order,
 * pip and conda CUDA packages, an installed torch, and the marker files
 * recipes/data/containers.lua names.  Raw names and texts only;
 * recipes/detect.lua (environment) says what they mean. */
#include "detect/probe.h"

#include <stdlib.h>
#include <string.h>

static const char *const env_names[] = {
	"PATH", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "CUDACXX",
	"TORCH_CUDA_ARCH_LIST", "MAX_JOBS", "CONDA_PREFIX", "VIRTUAL_ENV",
	"CC", "CXX", "CUDAHOSTCXX", NULL
};

/* The details of the toolkit at root, once per root. */
static void add_toolkit(const struct ptb_root *r, cJSON *tks, const char *root)
{
	const cJSON *it;
	cJSON *t;

	cJSON_ArrayForEach(it, tks)
		if (strcmp(cJSON_GetObjectItemCaseSensitive(it, "root")->valuestring, root) == 0)
			return;
	t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, "root", root);
	ptb_probe_toolkit(r, t);
	cJSON_AddItemToArray(tks, t);
}

/* The toolkits a build would be pointed at: every nvcc on PATH (in PATH
 * order), CUDA_HOME and CUDA_PATH (as given, resolved or missing), and
 * /usr/local/cuda. */
static void named_toolkits(const struct ptb_root *r, cJSON *raw, cJSON *env)
{
	static const char *const homes[] = { "CUDA_HOME", "CUDA_PATH" };
	cJSON *tks = cJSON_AddArrayToObject(env, "toolkits");
	cJSON *pn = cJSON_AddArrayToObject(env, "path_nvcc");
	const cJSON *it;
	char *res;

	ptb_probe_paths(r, raw);
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(raw, "path_nvcc_files")) {
		/* a wrapper script stands for the toolkit of the nvcc it runs */
		char *root = ptb_probe_nvcc_root(r, cJSON_GetObjectItemCaseSensitive(it, "real")->valuestring);
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "nvcc", cJSON_GetObjectItemCaseSensitive(it, "nvcc")->valuestring);
		cJSON_AddStringToObject(e, "root", root);
		cJSON_AddItemToArray(pn, e);
		add_toolkit(r, tks, root);
		free(root);
	}
	for (size_t i = 0; i < sizeof homes / sizeof homes[0]; i++) {
		const char *v = ptb_probe_env(homes[i]);
		cJSON *h;

		if (!v || v[0] != '/')
			continue;
		h = cJSON_AddObjectToObject(env, homes[i]);
		cJSON_AddStringToObject(h, "given", v);
		if ((res = ptb_root_resolve(r, v))) {
			cJSON_AddStringToObject(h, "root", res);
			add_toolkit(r, tks, res);
		}
		free(res);
	}
	if ((res = ptb_root_resolve(r, "/usr/local/cuda"))) {
		cJSON_AddStringToObject(env, "usr_local_cuda", res);
		add_toolkit(r, tks, res);
	}
	free(res);
}

/* ---- the loader's directories ----------------------------------------- */

/* The libraries worth naming: the driver's, the CUDA runtime, cuDNN,
 * NCCL, OpenBLAS (their versioned names). */
static int lib_family(const char *name)
{
	static const char *const families[] = {
		"libcuda.so.", "libnvidia-ml.so.", "libcudart.so.", "libcudnn.so.",
		"libopenblas.so.", "libnccl.so.",
	};

	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (strncmp(name, families[i], strlen(families[i])) == 0)
			return 1;
	return 0;
}

/* A directory's libraries as { dir, via, libs: [{ name, real }] }, once
 * per directory (the first way the loader reaches it). */
static void loader_dir(const struct ptb_root *r, cJSON *loader, const char *dir,
                       const char *via)
{
	const cJSON *it;
	cJSON *d, *libs;
	char **names;

	cJSON_ArrayForEach(it, loader)
		if (strcmp(cJSON_GetObjectItemCaseSensitive(it, "dir")->valuestring, dir) == 0)
			return;
	d = cJSON_CreateObject();
	cJSON_AddStringToObject(d, "dir", dir);
	cJSON_AddStringToObject(d, "via", via);
	libs = cJSON_AddArrayToObject(d, "libs");
	cJSON_AddItemToArray(loader, d);
	names = ptb_root_list_if(r, dir, lib_family);
	for (char **n = names; n && *n; n++) {
		char *p = ptb_path_join(dir, *n), *real = ptb_root_resolve(r, p);
		cJSON *l = cJSON_CreateObject();

		cJSON_AddStringToObject(l, "name", *n);
		if (real)
			cJSON_AddStringToObject(l, "real", real);
		cJSON_AddItemToArray(libs, l);
		free(real);
		free(p);
	}
	ptb_root_names_free(names);
}

static int conf_name(const char *n)
{
	size_t l = strlen(n);

	return l > 5 && strcmp(n + l - 5, ".conf") == 0;
}

/* The directories of an ld.so.conf, its "include DIR/NAME.conf" globs in
 * name order (at most 4 deep). */
static void ldconf(const struct ptb_root *r, cJSON *loader, const char *file, int depth)
{
	struct ptb_buf b;
	char *save = NULL;

	ptb_buf_init(&b);
	if (depth > 4 || ptb_root_read(r, file, 1 << 20, &b) != 0) {
		ptb_buf_free(&b);
		return;
	}
	for (char *line = strtok_r(b.data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#'), *star;
		size_t len;

		if (hash)
			*hash = '\0';
		line += strspn(line, " \t");
		len = strlen(line);
		while (len && strchr(" \t\r", line[len - 1]))
			line[--len] = '\0';
		if (strncmp(line, "include ", 8) == 0 && (star = strstr(line + 8, "/*.conf"))) {
			char **names;

			*star = '\0';
			names = ptb_root_list_if(r, line + 8, conf_name);
			for (char **n = names; n && *n; n++) {
				char *f = ptb_path_join(line + 8, *n);

				ldconf(r, loader, f, depth + 1);
				free(f);
			}
			ptb_root_names_free(names);
		} else if (line[0] == '/') {
			loader_dir(r, loader, line, "ld.so.conf");
		}
	}
	ptb_buf_free(&b);
}

/* LD_LIBRARY_PATH, ld.so.conf, then the default directories of both
 * multiarch triplets (detect.lua keeps the host's). */
static void loader(const struct ptb_root *r, cJSON *env)
{
	static const char *const defaults[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
		"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
		"/lib64", "/usr/lib64", "/lib", "/usr/lib",
	};
	cJSON *l = cJSON_AddArrayToObject(env, "loader");
	const char *ld = ptb_probe_env("LD_LIBRARY_PATH");

	if (ld) {
		char *copy = ptb_xstrdup(ld), *save = NULL;

		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
			if (d[0] == '/')
				loader_dir(r, l, d, "LD_LIBRARY_PATH");
		free(copy);
	}
	ldconf(r, l, "/etc/ld.so.conf", 0);
	for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
		loader_dir(r, l, defaults[i], "default");
}

/* ---- python, conda, markers ------------------------------------------- */

/* pip's nvidia_* wheels of each site-packages, and the torch installed
 * there (as detect reads it). */
static void pythons(const struct ptb_root *r, cJSON *env)
{
	char **sites = ptb_probe_site_dirs(r);
	cJSON *pip = cJSON_AddArrayToObject(env, "pip_nvidia");

	for (char **s = sites; *s; s++) {
		char **names = ptb_root_list(r, *s, "nvidia_");

		for (char **n = names; n && *n; n++) {
			size_t len = strlen(*n);

			if (len > 10 && strcmp(*n + len - 10, ".dist-info") == 0) {
				cJSON *p = cJSON_CreateObject();

				cJSON_AddStringToObject(p, "dist_info", *n);
				cJSON_AddStringToObject(p, "site", *s);
				cJSON_AddItemToArray(pip, p);
			}
		}
		ptb_root_names_free(names);
	}
	ptb_probe_torch(r, env, sites);
	for (char **s = sites; *s; s++)
		free(*s);
	free(sites);
}

static void conda(const struct ptb_root *r, cJSON *env)
{
	const char *prefix = ptb_probe_env("CONDA_PREFIX");
	cJSON *c, *meta;
	char *d;
	char **names;

	if (!prefix || prefix[0] != '/')
		return;
	c = cJSON_AddObjectToObject(env, "conda");
	cJSON_AddStringToObject(c, "prefix", prefix);
	meta = cJSON_AddArrayToObject(c, "meta");
	d = ptb_path_join(prefix, "conda-meta");
	names = ptb_root_list(r, d, NULL);
	for (char **n = names; n && *n; n++)
		cJSON_AddItemToArray(meta, cJSON_CreateString(*n));
	ptb_root_names_free(names);
	free(d);
}

/* The paths the recipe asked about: which exist (any kind of file), and
 * the first 64 KiB of those it reads. */
static void wanted_paths(const struct ptb_root *r, cJSON *env, const cJSON *wanted)
{
	cJSON *ex = cJSON_AddObjectToObject(env, "exists");
	cJSON *files = cJSON_AddObjectToObject(env, "files");
	const cJSON *it;

	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(wanted, "exists")) {
		char *res = cJSON_IsString(it) && it->valuestring[0] == '/' ?
		            ptb_root_resolve(r, it->valuestring) : NULL;

		if (cJSON_IsString(it) && !cJSON_GetObjectItemCaseSensitive(ex, it->valuestring))
			cJSON_AddBoolToObject(ex, it->valuestring, res != NULL);
		free(res);
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(wanted, "files")) {
		struct ptb_buf b;

		if (!cJSON_IsString(it) || it->valuestring[0] != '/' ||
		    cJSON_GetObjectItemCaseSensitive(files, it->valuestring))
			continue;
		ptb_buf_init(&b);
		if (ptb_root_head(r, it->valuestring, 64u << 10, &b) == 0) {
			for (size_t i = 0; i < b.len; i++)
				if (b.data[i] == '\0')
					b.data[i] = '\n';
			cJSON_AddStringToObject(files, it->valuestring, b.data ? b.data : "");
		}
		ptb_buf_free(&b);
	}
}

void ptb_probe_environment(const struct ptb_root *r, cJSON *raw, const cJSON *wanted)
{
	cJSON *env = cJSON_AddObjectToObject(raw, "environment");
	cJSON *vars = cJSON_AddObjectToObject(env, "vars");

	for (const char *const *n = env_names; *n; n++) {
		const char *v = ptb_probe_env(*n);

		if (v)
			cJSON_AddStringToObject(vars, *n, v);
	}
	named_toolkits(r, raw, env);
	loader(r, env);
	pythons(r, env);
	conda(r, env);
	wanted_paths(r, env, wanted);
}
