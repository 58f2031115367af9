/* probe_cuda.c - every CUDA toolkit on the machine, with cuDNN and NCCL
 * beside it, which one PATH and LD_LIBRARY_PATH would pick, and an
 * installed torch.  Versions come from files (version.json, version.txt,
 * dist-info names); nvcc --version runs only when no file says, and only
 * on this host. */
#include "detect/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binfmt/fatbin.h"

const char *ptb_probe_env(const char *name)
{
	return getenv(name);
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

static void add_site(const struct ptb_root *r, cJSON *out, const char *libdir)
{
	char **py = ptb_root_list(r, libdir, "python3");

	for (char **p = py; p && *p; p++) {
		static const char *const kinds[] = { "site-packages", "dist-packages" };

		for (int k = 0; k < 2; k++) {
			char *d = ptb_xasprintf("%s/%s/%s", libdir, *p, kinds[k]);
			char *res = ptb_root_is_dir(r, d) ? ptb_root_resolve(r, d) : NULL;

			if (res)
				ptb_probe_add_unique(out, res);
			free(res);
			free(d);
		}
	}
	ptb_root_names_free(py);
}

char **ptb_probe_site_dirs(const struct ptb_root *r)
{
	cJSON *dirs = cJSON_CreateArray(), *it;
	const char *env[] = { "VIRTUAL_ENV", "CONDA_PREFIX" };
	char **out;
	size_t n = 0;

	for (int i = 0; i < 2; i++) {
		const char *v = ptb_probe_env(env[i]);

		if (v && *v == '/') {
			char *l = ptb_xasprintf("%s/lib", v);
			add_site(r, dirs, l);
			free(l);
		}
	}
	/* the python3 that PATH finds: <prefix>/bin/python3 */
	const char *path = ptb_probe_env("PATH");
	if (path) {
		char *copy = ptb_xstrdup(path), *save = NULL;

		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			char *py = ptb_xasprintf("%s/python3", d);
			char *res = ptb_root_is_exec(r, py) ? ptb_root_resolve(r, py) : NULL;

			free(py);
			if (res) {
				char *s = strrchr(res, '/');
				if (s && s > res) {
					*s = '\0';
					if ((s = strrchr(res, '/')) && strcmp(s, "/bin") == 0) {
						strcpy(s, "/lib");
						add_site(r, dirs, res);
					}
				}
				free(res);
				break;
			}
		}
		free(copy);
	}
	add_site(r, dirs, "/usr/local/lib");
	add_site(r, dirs, "/usr/lib");
	add_site(r, dirs, "/opt/conda/lib");
	out = ptb_xcalloc((size_t)cJSON_GetArraySize(dirs) + 1, sizeof *out);
	cJSON_ArrayForEach(it, dirs)
		out[n++] = ptb_xstrdup(it->valuestring);
	cJSON_Delete(dirs);
	return out;
}

static cJSON *find_root(cJSON *tks, const char *root)
{
	cJSON *t;

	cJSON_ArrayForEach(t, tks) {
		const char *r = cJSON_GetObjectItemCaseSensitive(t, "root")->valuestring;
		if (strcmp(r, root) == 0)
			return t;
	}
	return NULL;
}

/* A toolkit root has version files, or nvcc with the CUDA headers beside
 * it (a lone bin/nvcc may be a wrapper script, as /usr/local/bin/nvcc is
 * on some images); a pip wheel directory needs only its nvcc. */
static int has(const struct ptb_root *r, const char *root, const char *rel)
{
	char *p = ptb_xasprintf("%s/%s", root, rel);
	int ok = ptb_root_is_file(r, p) || ptb_root_is_dir(r, p);

	free(p);
	return ok;
}

static int looks_like_toolkit(const struct ptb_root *r, const char *root)
{
	if (has(r, root, "version.json") || has(r, root, "version.txt"))
		return 1;
	if (!has(r, root, "bin/nvcc"))
		return 0;
	return strstr(root, "-packages/nvidia/") || has(r, root, "include/cuda.h") ||
	       has(r, root, "include/cuda_runtime.h") || has(r, root, "targets");
}

/* A candidate root: kept once per resolved directory, with every way it
 * was found and every spelling that leads to it. */
static void candidate(const struct ptb_root *r, cJSON *tks, const char *path,
                      const char *source)
{
	char *res = ptb_root_resolve(r, path);
	cJSON *t;

	if (!res || !ptb_root_is_dir(r, res) || !looks_like_toolkit(r, res)) {
		free(res);
		return;
	}
	t = find_root(tks, res);
	if (!t) {
		t = cJSON_CreateObject();
		cJSON_AddStringToObject(t, "root", res);
		cJSON_AddArrayToObject(t, "aliases");
		cJSON_AddArrayToObject(t, "found_by");
		cJSON_AddItemToArray(tks, t);
	}
	if (strcmp(path, res) != 0)
		ptb_probe_add_unique(cJSON_GetObjectItemCaseSensitive(t, "aliases"), path);
	ptb_probe_add_unique(cJSON_GetObjectItemCaseSensitive(t, "found_by"), source);
	free(res);
}

static int version_macro(const char *s)
{
	static const char *const names[] = { "MAJOR ", "MINOR ", "PATCHLEVEL ", "PATCH ", "SUFFIX " };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strncmp(s, names[i], strlen(names[i])) == 0)
			return 1;
	return 0;
}

/* The #define lines of a version header that name its version. */
static void header(const struct ptb_root *r, cJSON *t, const char *key,
                   const char *const *paths, size_t n, const char *prefix)
{
	for (size_t i = 0; i < n; i++) {
		struct ptb_buf b, defs;

		if (!paths[i])
			continue;
		ptb_buf_init(&b);
		if (ptb_root_read(r, paths[i], 256u << 10, &b) != 0) {
			ptb_buf_free(&b);
			continue;
		}
		ptb_buf_init(&defs);
		ptb_buf_adds(&defs, "");
		for (char *line = b.data; line && *line; ) {
			char *nl = strchr(line, '\n');
			size_t len = nl ? (size_t)(nl - line) : strlen(line);

			if (strncmp(line, "#define ", 8) == 0 &&
			    strncmp(line + 8, prefix, strlen(prefix)) == 0 &&
			    version_macro(line + 8 + strlen(prefix))) {
				ptb_buf_add(&defs, line, len);
				ptb_buf_addc(&defs, '\n');
			}
			line = nl ? nl + 1 : NULL;
		}
		ptb_buf_free(&b);
		if (defs.len) {
			cJSON *h = cJSON_AddObjectToObject(t, key);
			cJSON_AddStringToObject(h, "path", paths[i]);
			cJSON_AddStringToObject(h, "defines", defs.data);
			ptb_buf_free(&defs);
			return;
		}
		ptb_buf_free(&defs);
	}
}

static void add_names(cJSON *arr, char **names, const char *suffix)
{
	for (char **p = names; p && *p; p++)
		if (!suffix || has_suffix(*p, suffix))
			ptb_probe_add_unique(arr, *p);
}

/* Debian's and Ubuntu's /usr/bin/nvcc is a shell script ending in
 * `exec /usr/lib/nvidia-cuda-toolkit/bin/nvcc "$@"`: the nvcc it runs. */
static char *wrapped_nvcc(const struct ptb_root *r, const char *path)
{
	struct ptb_buf b;
	char *out = NULL;

	ptb_buf_init(&b);
	if (ptb_root_head(r, path, 4096, &b) == 0 && b.len > 2 &&
	    strncmp(b.data, "#!", 2) == 0) {
		for (char *line = b.data; line && *line; ) {
			char *nl = strchr(line, '\n'), *w = line;

			if (nl)
				*nl = '\0';
			w += strspn(w, " \t");
			if (strncmp(w, "exec", 4) == 0 && (w[4] == ' ' || w[4] == '\t')) {
				w += 4 + strspn(w + 4, " \t");
				size_t n = strcspn(w, " \t\"'");
				if (*w == '/' && n > 5 && strncmp(w + n - 5, "/nvcc", 5) == 0) {
					char *cand = ptb_xstrndup(w, n);

					if (strcmp(cand, path) != 0 && ptb_root_is_exec(r, cand)) {
						out = cand;
						break;
					}
					free(cand);
				}
			}
			line = nl ? nl + 1 : NULL;
		}
	}
	ptb_buf_free(&b);
	return out;
}

/* cuda.h's CUDA_VERSION (12040): the release, where no version file is */
static void cuda_h(const struct ptb_root *r, cJSON *t, const char *root)
{
	char *p = ptb_xasprintf("%s/include/cuda.h", root);
	struct ptb_buf b;
	char *d;

	ptb_buf_init(&b);
	if (ptb_root_head(r, p, 256u << 10, &b) == 0 &&
	    (d = strstr(b.data, "\n#define CUDA_VERSION "))) {
		d += strlen("\n#define CUDA_VERSION ");
		d += strspn(d, " \t");
		size_t n = strspn(d, "0123456789");

		if (n > 0 && n < 12) {
			char *v = ptb_xstrndup(d, n);
			cJSON *h = cJSON_AddObjectToObject(t, "cuda_h");

			cJSON_AddStringToObject(h, "path", p);
			cJSON_AddStringToObject(h, "cuda_version", v);
			free(v);
		}
	}
	ptb_buf_free(&b);
	free(p);
}

/* libcudart.so.<version> beside the toolkit: lib64, lib, the multiarch
 * directory of a distribution's /usr, each target's lib */
static void cudart_names(const struct ptb_root *r, cJSON *t, const char *root)
{
	static const char *const sub[] = { "lib64", "lib", "lib/x86_64-linux-gnu",
	                                   "lib/aarch64-linux-gnu" };
	cJSON *arr = cJSON_CreateArray();
	char **tg, *p;

	for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		char *d = ptb_xasprintf("%s/%s", root, sub[i]);
		char **l = ptb_root_list(r, d, "libcudart.so.");

		for (char **n = l; n && *n; n++) {
			char *f = ptb_xasprintf("%s/%s", d, *n);
			ptb_probe_add_unique(arr, f);
			free(f);
		}
		ptb_root_names_free(l);
		free(d);
	}
	p = ptb_xasprintf("%s/targets", root);
	tg = ptb_root_list(r, p, NULL);
	for (char **n = tg; n && *n; n++) {
		char *d = ptb_xasprintf("%s/%s/lib", p, *n);
		char **l = ptb_root_list(r, d, "libcudart.so.");

		for (char **m = l; m && *m; m++) {
			char *f = ptb_xasprintf("%s/%s", d, *m);
			ptb_probe_add_unique(arr, f);
			free(f);
		}
		ptb_root_names_free(l);
		free(d);
	}
	ptb_root_names_free(tg);
	free(p);
	if (cJSON_GetArraySize(arr) > 0)
		cJSON_AddItemToObject(t, "cudart", arr);
	else
		cJSON_Delete(arr);
}

/* version.json's version fields and version.txt, as they are */
static void version_files(const struct ptb_root *r, cJSON *t, const char *root,
                          struct ptb_buf *b)
{
	char *p = ptb_xasprintf("%s/version.json", root);

	if (ptb_root_read(r, p, 1u << 20, b) == 0) {
		cJSON *vj = cJSON_Parse(b->data), *vv = cJSON_AddObjectToObject(t, "version_json");
		static const char *const keys[] = { "cuda", "cuda_nvcc", "cuda_cudart", "nvidia_driver" };

		for (size_t i = 0; i < 4; i++) {
			const cJSON *c = cJSON_GetObjectItemCaseSensitive(vj, keys[i]);
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "version");
			if (cJSON_IsString(v))
				cJSON_AddStringToObject(vv, keys[i], v->valuestring);
		}
		cJSON_Delete(vj);
	}
	free(p);
	p = ptb_xasprintf("%s/version.txt", root);
	if (ptb_root_read(r, p, 4096, b) == 0)
		cJSON_AddStringToObject(t, "version_txt", b->data);
	free(p);
}

/* nvidia_* dist-info names (pip wheels) and conda's cuda-nvcc record */
static void package_names(const struct ptb_root *r, cJSON *t, const char *root,
                          const char *site)
{
	cJSON *di = cJSON_AddArrayToObject(t, "dist_info");
	char *p = ptb_xasprintf("%s/dist-info", root);
	char **names = ptb_root_list(r, p, "nvidia_");

	add_names(di, names, ".dist-info");
	ptb_root_names_free(names);
	free(p);
	if (site) {
		names = ptb_root_list(r, site, "nvidia_");
		add_names(di, names, ".dist-info");
		ptb_root_names_free(names);
	}
	/* a conda environment records its packages in conda-meta/<name>-<version>-<build>.json */
	p = ptb_xasprintf("%s/conda-meta", root);
	names = ptb_root_list(r, p, "cuda-nvcc-");
	if (names && names[0]) {
		cJSON *cm = cJSON_AddArrayToObject(t, "conda_meta");
		add_names(cm, names, ".json");
	}
	ptb_root_names_free(names);
	free(p);
}

/* cuDNN and NCCL: in the toolkit, its first target, the pip siblings, the
 * system include directory (distribution packages) */
static void library_headers(const struct ptb_root *r, cJSON *t, const char *root,
                            const char *site, const char *target)
{
	char *cd[8] = { 0 }, *nc[6] = { 0 };
	size_t ncd = 0, nnc = 0;

	cd[ncd++] = ptb_xasprintf("%s/include/cudnn_version.h", root);
	cd[ncd++] = ptb_xasprintf("%s/include/cudnn.h", root);
	nc[nnc++] = ptb_xasprintf("%s/include/nccl.h", root);
	if (target) {
		cd[ncd++] = ptb_xasprintf("%s/targets/%s/include/cudnn_version.h", root, target);
		nc[nnc++] = ptb_xasprintf("%s/targets/%s/include/nccl.h", root, target);
	}
	if (site) {
		cd[ncd++] = ptb_xasprintf("%s/nvidia/cudnn/include/cudnn_version.h", site);
		nc[nnc++] = ptb_xasprintf("%s/nvidia/nccl/include/nccl.h", site);
	}
	cd[ncd++] = ptb_xstrdup("/usr/include/cudnn_version.h");
	cd[ncd++] = ptb_xstrdup("/usr/include/x86_64-linux-gnu/cudnn_version_v9.h");
	cd[ncd++] = ptb_xstrdup("/usr/include/aarch64-linux-gnu/cudnn_version_v9.h");
	nc[nnc++] = ptb_xstrdup("/usr/include/nccl.h");
	header(r, t, "cudnn_header", (const char *const *)cd, ncd, "CUDNN_");
	header(r, t, "nccl_header", (const char *const *)nc, nnc, "NCCL_");
	for (size_t i = 0; i < ncd; i++)
		free(cd[i]);
	for (size_t i = 0; i < nnc; i++)
		free(nc[i]);
}

/* The line of include/crt/host_config.h that refuses a newer gcc
 * ("#if __GNUC__ > 14"), and the machine nvcc's ELF header names (read
 * whether or not nvcc may be run here: an x86_64 nvcc on an aarch64 host
 * is what doctor looks for). */
static void compiler_limits(const struct ptb_root *r, cJSON *t, const char *root,
                            struct ptb_buf *b)
{
	char *p = ptb_xasprintf("%s/include/crt/host_config.h", root);
	const char *m, *s;

	if (ptb_root_read(r, p, 1u << 20, b) == 0 && (s = strstr(b->data, "__GNUC__ >"))) {
		const char *bol = s, *eol = strchr(s, '\n');

		while (bol > b->data && bol[-1] != '\n')
			bol--;
		char *line = ptb_xstrndup(bol, eol ? (size_t)(eol - bol) : strlen(bol));
		cJSON_AddStringToObject(t, "host_config_gnuc", line);
		free(line);
	}
	free(p);
	p = ptb_xasprintf("%s/bin/nvcc", root);
	if (ptb_root_is_file(r, p) && (m = ptb_root_elf_machine(r, p)))
		cJSON_AddStringToObject(t, "nvcc_machine", m);
	free(p);
}

/* No file says the version: nvcc's own binary holds the line nvcc
 * --version prints (the same answer for this host and a sysroot, without
 * running anything); else, on this host only, nvcc --version. */
static void nvcc_version(const struct ptb_root *r, cJSON *t, struct ptb_buf *b)
{
	const cJSON *nvcc = cJSON_GetObjectItemCaseSensitive(t, "nvcc");
	int known = cJSON_GetObjectItemCaseSensitive(t, "version_json") ||
	            cJSON_GetObjectItemCaseSensitive(t, "version_txt");
	const cJSON *it;

	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(t, "dist_info"))
		if (strncmp(it->valuestring, "nvidia_cuda_nvcc", 16) == 0)
			known = 1;
	if (cJSON_GetObjectItemCaseSensitive(t, "conda_meta"))
		known = 1;
	if (!known && nvcc) {
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(t, "nvcc_wrapped");
		const char *bin = w ? w->valuestring : nvcc->valuestring;

		if (ptb_root_find(r, bin, "Cuda compilation tools, release ", 256u << 20,
		                  48, b) == 0) {
			b->data[strcspn(b->data, "\n")] = '\0'; /* stops at its NUL too */
			cJSON_AddStringToObject(t, "nvcc_binary", bin);
			cJSON_AddStringToObject(t, "nvcc_binary_version", b->data);
			known = 1;
		}
	}
	if (!known && nvcc && r->is_host) {
		char *argv[] = { nvcc->valuestring, (char *)"--version", NULL };

		if (ptb_probe_run(argv, 10000, b) == 0)
			cJSON_AddStringToObject(t, "nvcc_version_output", b->data);
	}
}

void ptb_probe_toolkit(const struct ptb_root *r, cJSON *t)
{
	const char *root = cJSON_GetObjectItemCaseSensitive(t, "root")->valuestring;
	int pip = strstr(root, "-packages/nvidia/") != NULL;
	char *site = NULL, *p;
	struct ptb_buf b;
	char **names;

	ptb_buf_init(&b);
	if (pip) {
		site = ptb_xstrndup(root, (size_t)(strstr(root, "/nvidia/") - root));
		cJSON_AddStringToObject(t, "layout", "pip");
	}
	p = ptb_xasprintf("%s/bin/nvcc", root);
	if (ptb_root_is_exec(r, p)) {
		char *real;

		cJSON_AddStringToObject(t, "nvcc", p);
		if ((real = wrapped_nvcc(r, p)))
			cJSON_AddStringToObject(t, "nvcc_wrapped", real);
		free(real);
	}
	free(p);
	cuda_h(r, t, root);
	cudart_names(r, t, root);
	version_files(r, t, root, &b);
	package_names(r, t, root, site);
	p = ptb_xasprintf("%s/targets", root);
	names = ptb_root_list(r, p, NULL);
	add_names(cJSON_AddArrayToObject(t, "targets"), names, NULL);
	free(p);
	library_headers(r, t, root, site, names && names[0] ? names[0] : NULL);
	ptb_root_names_free(names);
	compiler_limits(r, t, root, &b);
	nvcc_version(r, t, &b);
	free(site);
	ptb_buf_free(&b);
}

/* <root>/bin/nvcc -> root (a copy; "/" at the top). */
static char *nvcc_dir_root(const char *nvcc)
{
	char *root = ptb_xstrdup(nvcc), *s;

	for (int i = 0; i < 2; i++) {
		s = strrchr(root, '/');
		if (s && s != root)
			*s = '\0';
		else if (s)
			s[1] = '\0';
	}
	return root;
}

char *ptb_probe_nvcc_root(const struct ptb_root *r, const char *real)
{
	char *root = nvcc_dir_root(real), *w;

	if (looks_like_toolkit(r, root) || !(w = wrapped_nvcc(r, real)))
		return root;
	char *wroot = nvcc_dir_root(w);

	free(w);
	if (!looks_like_toolkit(r, wroot)) {
		free(wroot);
		return root;
	}
	free(root);
	return wroot;
}

/* nvcc on PATH: path_nvcc lists the programs a shell would run (resolved,
 * each once; a wrapper script outside any toolkit, such as a site's
 * /usr/local/bin/nvcc, as the toolkit's nvcc it runs); path_nvcc_files every directory's nvcc that exists, as
 * { nvcc, real } in PATH order, run or not (a build tool that looks for
 * the file finds it). */
void ptb_probe_paths(const struct ptb_root *r, cJSON *raw)
{
	const char *path = ptb_probe_env("PATH");
	const char *ld = ptb_probe_env("LD_LIBRARY_PATH");
	cJSON *pn = cJSON_AddArrayToObject(raw, "path_nvcc");
	cJSON *pf = cJSON_AddArrayToObject(raw, "path_nvcc_files");
	cJSON *lc = cJSON_AddArrayToObject(raw, "ld_cudart");
	char *copy, *save = NULL;

	if (path) {
		copy = ptb_xstrdup(path);
		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			char *f = ptb_xasprintf("%s/nvcc", d);
			char *res = *d == '/' ? ptb_root_resolve(r, f) : NULL;

			if (res && ptb_root_is_file(r, f)) {
				cJSON *e = cJSON_CreateObject();

				cJSON_AddStringToObject(e, "nvcc", f);
				cJSON_AddStringToObject(e, "real", res);
				cJSON_AddItemToArray(pf, e);
				if (ptb_root_is_exec(r, f)) {
					char *own = nvcc_dir_root(res), *root = ptb_probe_nvcc_root(r, res);
					char *eff = ptb_path_join(root, "bin/nvcc");

					/* the program itself unless it stands for another toolkit */
					ptb_probe_add_unique(pn, strcmp(own, root) == 0 ? res : eff);
					free(eff);
					free(root);
					free(own);
				}
			}
			free(res);
			free(f);
		}
		free(copy);
	}
	if (ld) {
		copy = ptb_xstrdup(ld);
		save = NULL;
		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			char **l = *d == '/' ? ptb_root_list(r, d, "libcudart.so") : NULL;

			if (l && l[0]) {
				char *res = ptb_root_resolve(r, d);
				if (res)
					ptb_probe_add_unique(lc, res);
				free(res);
			}
			ptb_root_names_free(l);
		}
		free(copy);
	}
}

/* libtorch_cuda of the torch in site (inner path): torch/lib/
 * libtorch_cuda.so (wheels), else beside what torch/lib/libtorch.so links
 * to -- a distribution keeps the libraries in its multiarch directory
 * (Debian links torch/lib/libtorch.so there and has no libtorch_cuda.so in
 * torch/lib) -- as libtorch_cuda.so or its shortest libtorch_cuda.so.N.
 * NULL when there is none (a CPU-only torch). */
static char *torch_cuda_lib(const struct ptb_root *r, const char *site)
{
	char *p = ptb_xasprintf("%s/torch/lib/libtorch_cuda.so", site), *dir, *slash, *found = NULL;
	char **names;

	if (ptb_root_is_file(r, p))
		return p;
	free(p);
	p = ptb_xasprintf("%s/torch/lib/libtorch.so", site);
	dir = ptb_root_resolve(r, p);
	free(p);
	if (!dir || !(slash = strrchr(dir, '/'))) {
		free(dir);
		return NULL;
	}
	*slash = '\0';
	names = ptb_root_list(r, *dir ? dir : "/", "libtorch_cuda.so");
	for (char **n = names; n && *n; n++)
		if ((strcmp(*n, "libtorch_cuda.so") == 0 || strncmp(*n, "libtorch_cuda.so.", 17) == 0) &&
		    (!found || strlen(*n) < strlen(found)))
			found = *n;
	p = found ? ptb_xasprintf("%s/%s", dir, found) : NULL;
	ptb_root_names_free(names);
	free(dir);
	return p;
}

/* The architectures torch's libtorch_cuda holds code for, over all its
 * fat binaries, in order, each once: t.archs = { sass = ["5.0", ...,
 * "9.0a"], ptx = ["9.0"] } ("a"/"f": arch-specific SASS, only with
 * variants), or t.archs_error.  The file is mapped, not read: it can be
 * over 1 GB, of which only the fat binary headers are touched. */
void ptb_probe_torch_archs(const char *file, int variants, cJSON *t)
{
	struct ptb_cuda_scan scan = { 0 };
	struct ptb_err err = { 0 };
	struct stat st;
	int fd = ptb_file_open_read(file, 0, &st, &err);
	void *map = MAP_FAILED;

	if (fd < 0) {
		cJSON_AddStringToObject(t, "archs_error", err.msg);
		return;
	}
	if (st.st_size > 0)
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		cJSON_AddStringToObject(t, "archs_error", st.st_size > 0 ? "cannot map the file" : "an empty file");
		return;
	}
	if (ptb_cuda_scan_buffer(map, (size_t)st.st_size, &scan, &err) == 0) {
		cJSON *a = cJSON_AddObjectToObject(t, "archs");
		cJSON *lists[2] = { cJSON_AddArrayToObject(a, "sass"), cJSON_AddArrayToObject(a, "ptx") };
		unsigned char seen[2][1024][3];

		memset(seen, 0, sizeof seen);
		for (size_t i = 0; i < scan.n; i++) {
			const struct ptb_cuda_image *im = &scan.images[i];
			int v = im->variant == 'a' ? 1 : im->variant == 'f' ? 2 : im->variant ? -1 : 0;

			if (v > 0 && !variants)
				continue;
			if ((im->kind == PTB_CUDA_PTX || im->kind == PTB_CUDA_SASS) && v >= 0 && im->arch < 1024)
				seen[im->kind == PTB_CUDA_PTX][im->arch][v] = 1;
		}
		/* in architecture order: 9.0 before 9.0a before 10.0 */
		for (int k = 0; k < 2; k++)
			for (unsigned arch = 0; arch < 1024; arch++)
				for (int v = 0; v < 3; v++) {
					char cc[16];

					if (!seen[k][arch][v])
						continue;
					snprintf(cc, sizeof cc, "%u.%u%s", arch / 10, arch % 10,
					         v == 1 ? "a" : v == 2 ? "f" : "");
					cJSON_AddItemToArray(lists[k], cJSON_CreateString(cc));
				}
	} else {
		cJSON_AddStringToObject(t, "archs_error", err.msg);
	}
	ptb_cuda_scan_free(&scan);
	munmap(map, (size_t)st.st_size);
}

static void torch_archs(const struct ptb_root *r, const char *lib, cJSON *t)
{
	char *host = ptb_root_host(r, lib);

	if (!host)
		cJSON_AddStringToObject(t, "archs_error", "cannot resolve the path");
	else
		ptb_probe_torch_archs(host, 1, t);
	free(host);
}

void ptb_probe_torch(const struct ptb_root *r, cJSON *raw, char **sites)
{
	cJSON *arr = cJSON_AddArrayToObject(raw, "torch");
	struct ptb_buf b;

	ptb_buf_init(&b);
	for (char **s = sites; *s; s++) {
		char **di = ptb_root_list(r, *s, "torch-");
		char *vp = ptb_xasprintf("%s/torch/version.py", *s);
		int have_py = ptb_root_read(r, vp, 8192, &b) == 0;

		if ((di && di[0]) || have_py) {
			cJSON *t = cJSON_CreateObject();

			cJSON_AddStringToObject(t, "site", *s);
			cJSON *names = cJSON_AddArrayToObject(t, "dist_info");
			add_names(names, di, ".dist-info");
			/* a distribution's torch (Debian's python3-torch-cuda) */
			add_names(cJSON_AddArrayToObject(t, "egg_info"), di, ".egg-info");
			if (have_py)
				cJSON_AddStringToObject(t, "version_py", b.data);
			char *lib = torch_cuda_lib(r, *s);
			if (lib) {
				const char *m = ptb_root_elf_machine(r, lib);

				cJSON_AddStringToObject(t, "libtorch_cuda", lib);
				if (m)
					cJSON_AddStringToObject(t, "machine", m);
				torch_archs(r, lib, t);
			}
			free(lib);
			cJSON_AddItemToArray(arr, t);
		}
		ptb_root_names_free(di);
		free(vp);
	}
	ptb_buf_free(&b);
}

void ptb_probe_cuda(const struct ptb_root *r, cJSON *raw, const char *given)
{
	cJSON *tks = cJSON_AddArrayToObject(raw, "toolkits"), *t;
	static const char *const envs[] = { "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT" };
	char **names, **sites;
	const cJSON *it;

	if (given && *given == '/')
		candidate(r, tks, given, "given");

	for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++) {
		const char *v = ptb_probe_env(envs[i]);
		if (v && *v == '/')
			candidate(r, tks, v, envs[i]);
	}
	ptb_probe_paths(r, raw);
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(raw, "path_nvcc")) {
		char *root = ptb_xstrdup(it->valuestring);

		if (has_suffix(root, "/bin/nvcc")) {
			root[strlen(root) - 9] = '\0';
			candidate(r, tks, root, "PATH");
		}
		free(root);
	}
	candidate(r, tks, "/usr/local/cuda", "/usr/local");
	/* a distribution's package (Debian, Ubuntu: nvidia-cuda-toolkit) */
	candidate(r, tks, "/usr", "/usr");
	names = ptb_root_list(r, "/usr/local", "cuda-");
	for (char **p = names; p && *p; p++) {
		char *d = ptb_xasprintf("/usr/local/%s", *p);
		candidate(r, tks, d, "/usr/local");
		free(d);
	}
	ptb_root_names_free(names);
	names = ptb_root_list(r, "/opt", "cuda");
	for (char **p = names; p && *p; p++) {
		char *d = ptb_xasprintf("/opt/%s", *p);
		candidate(r, tks, d, "/opt");
		free(d);
	}
	ptb_root_names_free(names);
	/* conda: the active environment, then the usual base and its envs */
	const char *cp = ptb_probe_env("CONDA_PREFIX");
	if (cp && *cp == '/')
		candidate(r, tks, cp, "conda");
	static const char *const bases[] = { "/opt/conda", "/opt/miniconda3", "/opt/miniforge3" };
	for (size_t i = 0; i < 3; i++) {
		candidate(r, tks, bases[i], "conda");
		char *e = ptb_xasprintf("%s/envs", bases[i]);
		names = ptb_root_list(r, e, NULL);
		for (char **p = names; p && *p; p++) {
			char *d = ptb_xasprintf("%s/%s", e, *p);
			candidate(r, tks, d, "conda");
			free(d);
		}
		ptb_root_names_free(names);
		free(e);
	}
	/* pip wheels: nvidia/cu13 (CUDA 13, one tree), nvidia/cuda_nvcc (12) */
	sites = ptb_probe_site_dirs(r);
	for (char **s = sites; *s; s++) {
		static const char *const sub[] = { "nvidia/cu13", "nvidia/cu12", "nvidia/cuda_nvcc" };

		for (size_t i = 0; i < 3; i++) {
			char *d = ptb_xasprintf("%s/%s", *s, sub[i]);
			candidate(r, tks, d, "pip");
			free(d);
		}
	}
	cJSON_ArrayForEach(t, tks)
		ptb_probe_toolkit(r, t);
	ptb_probe_torch(r, raw, sites);
	for (char **s = sites; *s; s++)
		free(*s);
	free(sites);
}
