/* probe.c - doctor's probes of a machine (see probe.h). */
#include "doctor/probe.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "detect/probe.h"
#include "detect/root.h"
#include "util/json.h"


static char *under(const char *root, const char *path)
{
	if (!root || strcmp(root, "/") == 0)
		return ptb_xstrdup(path);
	return ptb_path_join(root, path);
}

/* Symlinks are resolved inside the sysroot by detect's reader (root.c),
 * the same rules detect uses, so both see one machine. */
char *ptb_sysroot_realpath(const char *root, const char *path)
{
	struct ptb_root r = { root ? root : "/", !root || strcmp(root, "/") == 0, NULL };

	return ptb_root_resolve(&r, path);
}

static int exists_in(const char *root, const char *path)
{
	char *f = under(root, path);
	int ok = access(f, F_OK) == 0;

	free(f);
	return ok;
}

static int read_in(const char *root, const char *path, size_t max, struct ptb_buf *b)
{
	char *f = under(root, path);
	int rc = ptb_file_read(f, max, b, NULL);

	free(f);
	return rc;
}

const char *ptb_elf_machine_name(const char *file)
{
	struct ptb_root host = { "/", 1, NULL };

	return ptb_root_elf_machine(&host, file);
}

/* ---- toolkits ------------------------------------------------------- */

/* Version of the toolkit at machine path root: version.json, then
 * version.txt, then the line nvcc's binary holds.  NULL when none says. */
static char *toolkit_version(const char *sysroot, const char *root)
{
	struct ptb_buf b;
	char *p = ptb_path_join(root, "version.json");
	char *v = NULL;

	ptb_buf_init(&b);
	if (read_in(sysroot, p, 1 << 20, &b) == 0) {
		cJSON *j = cJSON_ParseWithLength(b.data ? b.data : "", b.len);
		const char *s = ptb_json_str(j, "cuda.version");

		if (!s)
			s = ptb_json_str(j, "cuda_cudart.version");
		if (s)
			v = ptb_xstrdup(s);
		cJSON_Delete(j);
	}
	free(p);
	if (!v) {
		p = ptb_path_join(root, "version.txt");
		if (read_in(sysroot, p, 4096, &b) == 0) {
			const char *s = strstr(b.data ? b.data : "", "CUDA Version ");

			if (s) {
				s += 13;
				size_t n = strspn(s, "0123456789.");
				if (n)
					v = ptb_xstrndup(s, n);
			}
		}
		free(p);
	}
	if (!v) {
		/* a distribution's toolkit has no version file (Debian's in
		 * /usr): its nvcc's binary says, read as detect reads it */
		struct ptb_root r = { sysroot ? sysroot : "/", !sysroot || strcmp(sysroot, "/") == 0, NULL };

		v = ptb_probe_nvcc_version(&r, root);
	}
	ptb_buf_free(&b);
	return v;
}

static int header_int(const char *text, const char *name, long *out)
{
	const char *p = text;
	size_t n = strlen(name);

	while ((p = strstr(p, "#define")) != NULL) {
		p += 7;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, name, n) == 0 && (p[n] == ' ' || p[n] == '\t')) {
			char *end;

			p += n;
			*out = strtol(p, &end, 10);
			return end != p ? 0 : -1;
		}
	}
	return -1;
}

static cJSON *toolkit_info(const char *sysroot, const char *machine_root, const char *how)
{
	cJSON *t = cJSON_CreateObject();
	char *v = toolkit_version(sysroot, machine_root);
	struct ptb_buf b;
	long maj, min, pat;

	cJSON_AddStringToObject(t, "root", machine_root);
	cJSON_AddStringToObject(t, "via", how);
	if (v)
		cJSON_AddStringToObject(t, "version", v);
	free(v);
	ptb_buf_init(&b);
	/* cuDNN header beside the toolkit (cudnn_version.h since cuDNN 8). */
	static const char *const cudnn_h[] = { "include/cudnn_version.h", "include/cudnn.h" };
	for (size_t i = 0; i < 2; i++) {
		char *p = ptb_path_join(machine_root, cudnn_h[i]);

		if (read_in(sysroot, p, 1 << 20, &b) == 0 &&
		    header_int(b.data, "CUDNN_MAJOR", &maj) == 0 &&
		    header_int(b.data, "CUDNN_MINOR", &min) == 0) {
			if (header_int(b.data, "CUDNN_PATCHLEVEL", &pat) != 0)
				pat = 0;
			char *ver = ptb_xasprintf("%ld.%ld.%ld", maj, min, pat);
			cJSON *c = cJSON_AddObjectToObject(t, "cudnn_header");
			cJSON_AddStringToObject(c, "version", ver);
			cJSON_AddStringToObject(c, "path", p);
			free(ver);
			free(p);
			break;
		}
		free(p);
	}
	/* The newest gcc nvcc accepts, from the check that emits the error. */
	char *hc = ptb_path_join(machine_root, "include/crt/host_config.h");
	if (read_in(sysroot, hc, 1 << 20, &b) == 0) {
		const char *s = strstr(b.data, "__GNUC__ >");
		if (s) {
			s += 10;
			while (*s == ' ')
				s++;
			if (isdigit((unsigned char)*s))
				cJSON_AddNumberToObject(t, "gcc_max", atoi(s));
		}
	}
	free(hc);
	/* Which target layouts it carries (sbsa-linux vs aarch64-linux). */
	char *td = ptb_path_join(machine_root, "targets");
	char *tdf = under(sysroot, td);
	DIR *dh = opendir(tdf);
	cJSON *targets = cJSON_AddArrayToObject(t, "targets");
	if (dh) {
		struct dirent *de;
		char *names[16];
		int n = 0;

		while ((de = readdir(dh)) && n < 16)
			if (de->d_name[0] != '.')
				names[n++] = ptb_xstrdup(de->d_name);
		closedir(dh);
		for (int i = 0; i < n; i++)
			for (int k = i + 1; k < n; k++)
				if (strcmp(names[i], names[k]) > 0) {
					char *x = names[i]; names[i] = names[k]; names[k] = x;
				}
		for (int i = 0; i < n; i++) {
			cJSON_AddItemToArray(targets, cJSON_CreateString(names[i]));
			free(names[i]);
		}
	}
	free(td);
	free(tdf);
	/* What the nvcc binary was built for. */
	char *nv = ptb_path_join(machine_root, "bin/nvcc");
	char *nvf = under(sysroot, nv);
	const char *m = ptb_elf_machine_name(nvf);
	if (m)
		cJSON_AddStringToObject(t, "nvcc_machine", m);
	free(nv);
	free(nvf);
	ptb_buf_free(&b);
	return t;
}

/* ---- libraries ------------------------------------------------------ */

static const char *const lib_families[] = {
	"libcuda.so.", "libnvidia-ml.so.", "libcudart.so.", "libcudnn.so.",
	"libopenblas.so.", "libnccl.so.", NULL
};

static void scan_libdir(const char *sysroot, const char *dir, const char *via,
                        cJSON *libs, cJSON *seen_dirs)
{
	char *full = under(sysroot, dir);
	DIR *dh;
	struct dirent *de;
	cJSON *s;

	cJSON_ArrayForEach(s, seen_dirs)
		if (strcmp(s->valuestring, dir) == 0) {
			free(full);
			return;
		}
	cJSON_AddItemToArray(seen_dirs, cJSON_CreateString(dir));
	dh = opendir(full);
	free(full);
	if (!dh)
		return;
	/* Collect, then sort, so the output does not depend on readdir. */
	char **names = NULL;
	size_t n = 0;
	while ((de = readdir(dh))) {
		for (const char *const *f = lib_families; *f; f++) {
			if (strncmp(de->d_name, *f, strlen(*f)) == 0) {
				names = ptb_xrealloc(names, (n + 1) * sizeof *names);
				names[n++] = ptb_xstrdup(de->d_name);
				break;
			}
		}
	}
	closedir(dh);
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			if (strcmp(names[i], names[k]) > 0) {
				char *x = names[i]; names[i] = names[k]; names[k] = x;
			}
	for (size_t i = 0; i < n; i++) {
		char *p = ptb_path_join(dir, names[i]);
		char *real = ptb_sysroot_realpath(sysroot, p);
		const char *base = real ? strrchr(real, '/') + 1 : names[i];
		const char *so = strstr(base, ".so.");
		cJSON *l = cJSON_CreateObject();

		cJSON_AddItemToArray(libs, l);
		cJSON_AddStringToObject(l, "name", names[i]);
		*(strstr(names[i], ".so.")) = '\0';
		cJSON_AddStringToObject(l, "lib", names[i]);
		cJSON_AddStringToObject(l, "path", p);
		if (real)
			cJSON_AddStringToObject(l, "real", real);
		if (so && so[4])
			cJSON_AddStringToObject(l, "version", so + 4);
		cJSON_AddStringToObject(l, "via", via);
		cJSON_AddBoolToObject(l, "compat", strstr(dir, "/compat") != NULL);
		free(p);
		free(real);
		free(names[i]);
	}
	free(names);
}

static void scan_ldconf(const char *sysroot, const char *file, cJSON *libs,
                        cJSON *seen, int depth)
{
	struct ptb_buf b;

	if (depth > 4)
		return;
	ptb_buf_init(&b);
	if (read_in(sysroot, file, 1 << 20, &b) == 0) {
		char *save = NULL;
		for (char *line = strtok_r(b.data, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			while (*line == ' ' || *line == '\t')
				line++;
			char *hash = strchr(line, '#');
			if (hash)
				*hash = '\0';
			size_t len = strlen(line);
			while (len && isspace((unsigned char)line[len - 1]))
				line[--len] = '\0';
			if (!len)
				continue;
			if (strncmp(line, "include ", 8) == 0) {
				/* Only the common "dir/NAME.conf" glob form. */
				char *pat = line + 8;
				char *star = strstr(pat, "/*.conf");
				if (!star)
					continue;
				*star = '\0';
				char *d = under(sysroot, pat);
				DIR *dh = opendir(d);
				free(d);
				if (!dh)
					continue;
				struct dirent *de;
				char *names[64];
				int n = 0;
				while ((de = readdir(dh)) && n < 64) {
					size_t l = strlen(de->d_name);
					if (l > 5 && strcmp(de->d_name + l - 5, ".conf") == 0)
						names[n++] = ptb_xstrdup(de->d_name);
				}
				closedir(dh);
				for (int i = 0; i < n; i++)
					for (int k = i + 1; k < n; k++)
						if (strcmp(names[i], names[k]) > 0) {
							char *x = names[i]; names[i] = names[k]; names[k] = x;
						}
				for (int i = 0; i < n; i++) {
					char *f = ptb_path_join(pat, names[i]);
					scan_ldconf(sysroot, f, libs, seen, depth + 1);
					free(f);
					free(names[i]);
				}
			} else if (line[0] == '/') {
				scan_libdir(sysroot, line, "ld.so.conf", libs, seen);
			}
		}
	}
	ptb_buf_free(&b);
}

/* ---- python packages ------------------------------------------------ */

/* libtorch_cuda of the torch in site: torch/lib/libtorch_cuda.so (wheels),
 * else beside what torch/lib/libtorch.so links to (a distribution keeps
 * the libraries in its multiarch directory: Debian links torch/lib/
 * libtorch.so there and has no libtorch_cuda.so in torch/lib), as
 * libtorch_cuda.so or its first libtorch_cuda.so.<version>. */
static char *torch_cuda_lib(const char *sysroot, const char *site)
{
	char *lib = ptb_xasprintf("%s/torch/lib/libtorch_cuda.so", site);
	char *full = under(sysroot, lib), *p, *real, *slash, *found = NULL;
	DIR *dh;
	struct dirent *de;

	if (access(full, F_OK) == 0) {
		free(full);
		return lib;
	}
	free(full);
	free(lib);
	p = ptb_xasprintf("%s/torch/lib/libtorch.so", site);
	real = ptb_sysroot_realpath(sysroot, p);
	free(p);
	if (!real || !(slash = strrchr(real, '/'))) {
		free(real);
		return NULL;
	}
	*slash = '\0';
	full = under(sysroot, real);
	dh = opendir(full);
	free(full);
	while (dh && (de = readdir(dh))) {
		const char *n = de->d_name;

		if (strcmp(n, "libtorch_cuda.so") != 0 && strncmp(n, "libtorch_cuda.so.", 17) != 0)
			continue;
		if (!found || strcmp(n, "libtorch_cuda.so") == 0 || strlen(n) < strlen(found)) {
			free(found);
			found = ptb_xstrdup(n);
		}
	}
	if (dh)
		closedir(dh);
	lib = found ? ptb_xasprintf("%s/%s", real, found) : NULL;
	free(found);
	free(real);
	return lib;
}

/* torch/version.py's cuda = '12.4': the CUDA torch was built with */
static void torch_cuda_version(const char *sysroot, const char *site, cJSON *t)
{
	char *p = ptb_xasprintf("%s/torch/version.py", site);
	char *full = under(sysroot, p);
	struct ptb_buf b;

	ptb_buf_init(&b);
	if (ptb_file_read(full, 8192, &b, NULL) == 0 && b.data) {
		for (char *l = b.data; l && *l; ) {
			char *nl = strchr(l, '\n');

			if (strncmp(l, "cuda", 4) == 0 && (l[4] == ' ' || l[4] == ':' || l[4] == '=')) {
				char *q = strpbrk(l, "'\"");
				char *e = q ? strchr(q + 1, *q) : NULL;

				if (e && (!nl || e < nl) && e - q - 1 > 0 && e - q - 1 < 16) {
					char *v = ptb_xstrndup(q + 1, (size_t)(e - q - 1));

					if (strspn(v, "0123456789.") == strlen(v))
						cJSON_AddStringToObject(t, "cuda", v);
					free(v);
				}
				break;
			}
			l = nl ? nl + 1 : NULL;
		}
	}
	ptb_buf_free(&b);
	free(full);
	free(p);
}

static void scan_site(const char *sysroot, const char *site, cJSON *out)
{
	char *full = under(sysroot, site);
	DIR *dh = opendir(full);
	struct dirent *de;

	free(full);
	if (!dh)
		return;
	cJSON *pip = cJSON_GetObjectItemCaseSensitive(out, "pip_nvidia");
	while ((de = readdir(dh))) {
		const char *n = de->d_name;
		size_t len = strlen(n);

		/* a distribution's torch (Debian's python3-torch-cuda) is
		 * recorded as torch-<version>.egg-info: the same length of suffix */
		if (len < 11 || (strcmp(n + len - 10, ".dist-info") != 0 &&
		                 (strncmp(n, "torch-", 6) != 0 || strcmp(n + len - 9, ".egg-info") != 0)))
			continue;
		if (strcmp(n + len - 9, ".egg-info") == 0)
			len++;  /* the version ends 9 bytes from the end, not 10 */
		if (strncmp(n, "nvidia_", 7) == 0) {
			const char *cu = n;
			cJSON *p = cJSON_CreateObject();

			/* nvidia_cudnn_cu12-...: the "_cuNN" part, not "_cudnn" */
			while ((cu = strstr(cu, "_cu")) && !isdigit((unsigned char)cu[3]))
				cu += 3;

			cJSON_AddStringToObject(p, "dist_info", n);
			cJSON_AddStringToObject(p, "site", site);
			if (cu && isdigit((unsigned char)cu[3]))
				cJSON_AddNumberToObject(p, "cuda_major", atoi(cu + 3));
			cJSON_AddItemToArray(pip, p);
		} else if (strncmp(n, "torch-", 6) == 0) {
			char *v = ptb_xstrndup(n + 6, len - 6 - 10);
			cJSON *t = cJSON_CreateObject();
			char *lib = torch_cuda_lib(sysroot, site);
			char *libf = lib ? under(sysroot, lib) : NULL;

			cJSON_AddStringToObject(t, "version", v);
			cJSON_AddStringToObject(t, "site", site);
			torch_cuda_version(sysroot, site, t);
			if (libf && access(libf, F_OK) == 0) {
				const char *m = ptb_elf_machine_name(libf);
				cJSON_AddStringToObject(t, "libtorch_cuda", lib);
				if (m)
					cJSON_AddStringToObject(t, "machine", m);
				/* what torch-lacks-gpu compares with the GPUs; the
				 * arch-specific variants run on no other GPU */
				ptb_probe_torch_archs(libf, 0, t);
			}
			cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(out, "torch"), t);
			free(v);
			free(lib);
			free(libf);
		}
	}
	closedir(dh);
}

/* site-packages directories: lib/python3.* under the usual prefixes. */
static void scan_pythons(const char *sysroot, const char *prefix, cJSON *out)
{
	char *lib = ptb_path_join(prefix, "lib");
	char *full = under(sysroot, lib);
	DIR *dh = opendir(full);
	struct dirent *de;

	free(full);
	if (dh) {
		while ((de = readdir(dh))) {
			if (strncmp(de->d_name, "python3", 7) != 0)
				continue;
			static const char *const kinds[] = { "site-packages", "dist-packages" };
			for (int i = 0; i < 2; i++) {
				char *s = ptb_xasprintf("%s/%s/%s", lib, de->d_name, kinds[i]);
				scan_site(sysroot, s, out);
				free(s);
			}
		}
		closedir(dh);
	}
	free(lib);
}

static int cmp_item(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
	char *sx = cJSON_PrintUnformatted(x), *sy = cJSON_PrintUnformatted(y);
	int r = strcmp(sx ? sx : "", sy ? sy : "");

	free(sx);
	free(sy);
	return r;
}

/* Sort an array's items by their JSON text: readdir order must not leak. */
static void sort_array(cJSON *arr)
{
	int n = cJSON_GetArraySize(arr);
	cJSON **items;

	if (n < 2)
		return;
	items = ptb_xcalloc((size_t)n, sizeof *items);
	for (int i = n - 1; i >= 0; i--)
		items[i] = cJSON_DetachItemFromArray(arr, i);
	qsort(items, (size_t)n, sizeof *items, cmp_item);
	for (int i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, items[i]);
	free(items);
}

/* ---- conda ---------------------------------------------------------- */

static void scan_conda(const char *sysroot, const char *prefix, cJSON *out)
{
	char *meta = ptb_path_join(prefix, "conda-meta");
	char *full = under(sysroot, meta);
	DIR *dh = opendir(full);
	struct dirent *de;
	cJSON *pk = cJSON_AddArrayToObject(out, "packages");

	cJSON_AddStringToObject(out, "prefix", prefix);
	free(meta);
	free(full);
	if (!dh)
		return;
	while ((de = readdir(dh))) {
		static const char *const names[] = { "cudatoolkit-", "cuda-cudart-",
		                                     "cuda-nvcc-", "cuda-version-",
		                                     "cuda-runtime-", NULL };
		for (const char *const *nm = names; *nm; nm++) {
			size_t l = strlen(*nm);
			const char *n = de->d_name;
			size_t len = strlen(n);

			if (strncmp(n, *nm, l) != 0 || len < 6 || strcmp(n + len - 5, ".json") != 0)
				continue;
			/* name-version-build.json */
			const char *v = n + l;
			const char *dash = strchr(v, '-');
			if (!dash || !isdigit((unsigned char)*v))
				continue;
			cJSON *p = cJSON_CreateObject();
			char *name = ptb_xstrndup(n, l - 1);
			char *ver = ptb_xstrndup(v, (size_t)(dash - v));
			cJSON_AddStringToObject(p, "name", name);
			cJSON_AddStringToObject(p, "version", ver);
			cJSON_AddItemToArray(pk, p);
			free(name);
			free(ver);
		}
	}
	closedir(dh);
	sort_array(pk);
}

/* ---- the whole probe -------------------------------------------------- */

static const char *const env_names[] = {
	"PATH", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "CUDACXX",
	"TORCH_CUDA_ARCH_LIST", "MAX_JOBS", "CONDA_PREFIX", "VIRTUAL_ENV",
	"CC", "CXX", "CUDAHOSTCXX", NULL
};

cJSON *ptb_doctor_probe(const char *sysroot, const cJSON *facts)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *env = cJSON_AddObjectToObject(o, "env");
	const char *arch = ptb_json_str(facts, "host.arch");
	const char *triplet = arch && strcmp(arch, "aarch64") == 0 ? "aarch64-linux-gnu" : "x86_64-linux-gnu";
	struct ptb_buf b;

	if (!sysroot)
		sysroot = "/";
	ptb_buf_init(&b);
	for (const char *const *n = env_names; *n; n++) {
		const char *v = getenv(*n);
		if (v)
			cJSON_AddStringToObject(env, *n, v);
	}

	/* Toolkits as a build would find them: nvcc on PATH, in PATH order,
	 * then CUDA_HOME / CUDA_PATH. */
	cJSON *onpath = cJSON_AddArrayToObject(o, "nvcc_on_path");
	const char *path = getenv("PATH");
	if (path) {
		char *copy = ptb_xstrdup(path), *save = NULL;

		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			if (d[0] != '/')
				continue;
			char *nv = ptb_path_join(d, "nvcc");
			char *real = exists_in(sysroot, nv) ? ptb_sysroot_realpath(sysroot, nv) : NULL;

			if (real) {
				/* root = dirname(dirname(real nvcc)) */
				char *s = strrchr(real, '/');
				if (s && s != real) {
					*s = '\0';
					s = strrchr(real, '/');
					if (s && s != real)
						*s = '\0';
					else if (s)
						s[1] = '\0';
				}
				cJSON *t = toolkit_info(sysroot, real, "PATH");
				cJSON_AddStringToObject(t, "nvcc", nv);
				cJSON_AddItemToArray(onpath, t);
			}
			free(real);
			free(nv);
		}
		free(copy);
	}
	static const char *const homes[] = { "CUDA_HOME", "CUDA_PATH", NULL };
	for (const char *const *h = homes; *h; h++) {
		const char *v = getenv(*h);
		if (!v || v[0] != '/')
			continue;
		char *real = ptb_sysroot_realpath(sysroot, v);
		if (real) {
			cJSON *t = toolkit_info(sysroot, real, *h);
			cJSON_AddStringToObject(t, "given", v);
			cJSON_AddItemToObject(o, strcmp(*h, "CUDA_HOME") == 0 ? "cuda_home" : "cuda_path", t);
			free(real);
		} else {
			cJSON *t = cJSON_CreateObject();
			cJSON_AddStringToObject(t, "given", v);
			cJSON_AddBoolToObject(t, "missing", 1);
			cJSON_AddItemToObject(o, strcmp(*h, "CUDA_HOME") == 0 ? "cuda_home" : "cuda_path", t);
		}
	}
	if (exists_in(sysroot, "/usr/local/cuda")) {
		char *real = ptb_sysroot_realpath(sysroot, "/usr/local/cuda");
		if (real) {
			cJSON_AddItemToObject(o, "usr_local_cuda", toolkit_info(sysroot, real, "/usr/local/cuda"));
			free(real);
		}
	}

	/* Libraries in the loader's order: LD_LIBRARY_PATH, ld.so.conf, the
	 * default directories. */
	cJSON *libs = cJSON_AddArrayToObject(o, "libs");
	cJSON *seen = cJSON_CreateArray();
	const char *ld = getenv("LD_LIBRARY_PATH");
	if (ld) {
		char *copy = ptb_xstrdup(ld), *save = NULL;
		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
			if (d[0] == '/')
				scan_libdir(sysroot, d, "LD_LIBRARY_PATH", libs, seen);
		free(copy);
	}
	scan_ldconf(sysroot, "/etc/ld.so.conf", libs, seen, 0);
	char *d1 = ptb_xasprintf("/lib/%s", triplet), *d2 = ptb_xasprintf("/usr/lib/%s", triplet);
	const char *defaults[] = { d1, d2, "/lib64", "/usr/lib64", "/lib", "/usr/lib" };
	for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++)
		scan_libdir(sysroot, defaults[i], "default", libs, seen);
	free(d1);
	free(d2);
	cJSON_Delete(seen);

	/* Python: pip NVIDIA wheels and an installed torch. */
	cJSON_AddArrayToObject(o, "pip_nvidia");
	cJSON_AddArrayToObject(o, "torch");
	scan_pythons(sysroot, "/usr", o);
	scan_pythons(sysroot, "/usr/local", o);
	const char *venvs[] = { getenv("CONDA_PREFIX"), getenv("VIRTUAL_ENV") };
	for (int i = 0; i < 2; i++)
		if (venvs[i] && venvs[i][0] == '/')
			scan_pythons(sysroot, venvs[i], o);
	sort_array(cJSON_GetObjectItemCaseSensitive(o, "pip_nvidia"));
	sort_array(cJSON_GetObjectItemCaseSensitive(o, "torch"));
	const char *conda = getenv("CONDA_PREFIX");
	if (conda && conda[0] == '/')
		scan_conda(sysroot, conda, cJSON_AddObjectToObject(o, "conda"));

	/* Containers and emulation. */
	cJSON *ct = cJSON_AddObjectToObject(o, "container");
	const char *marker = NULL;
	if (exists_in(sysroot, "/.dockerenv"))
		marker = "/.dockerenv";
	else if (exists_in(sysroot, "/run/.containerenv"))
		marker = "/run/.containerenv";
	else if (read_in(sysroot, "/proc/1/cgroup", 1 << 16, &b) == 0 && b.data &&
	         (strstr(b.data, "docker") || strstr(b.data, "containerd") ||
	          strstr(b.data, "kubepods") || strstr(b.data, "buildkit")))
		marker = "/proc/1/cgroup";
	cJSON_AddBoolToObject(ct, "inside", marker != NULL);
	if (marker)
		cJSON_AddStringToObject(ct, "marker", marker);
	cJSON_AddBoolToObject(ct, "gpu_devices", exists_in(sysroot, "/dev/nvidia0") ||
	                      exists_in(sysroot, "/dev/nvgpu") || exists_in(sysroot, "/dev/nvidiactl"));
	cJSON *bf = cJSON_AddArrayToObject(o, "binfmt_qemu");
	static const char *const qemus[] = { "qemu-aarch64", "qemu-x86_64", NULL };
	for (const char *const *q = qemus; *q; q++) {
		char *p = ptb_xasprintf("/proc/sys/fs/binfmt_misc/%s", *q);
		if (read_in(sysroot, p, 4096, &b) == 0 && b.data && strncmp(b.data, "enabled", 7) == 0)
			cJSON_AddItemToArray(bf, cJSON_CreateString(*q));
		free(p);
	}
	if (read_in(sysroot, "/proc/cpuinfo", 4u << 20, &b) == 0 && b.data) {
		int arm = strstr(b.data, "CPU implementer") != NULL;
		int x86 = strstr(b.data, "vendor_id") != NULL;
		cJSON_AddStringToObject(o, "cpuinfo_kind", arm ? "arm" : x86 ? "x86" : "unknown");
	}
	ptb_buf_free(&b);
	return o;
}
