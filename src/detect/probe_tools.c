/* probe_tools.c - host compilers on PATH and the ones CC, CXX and
 * CUDAHOSTCXX name.  On this host a compiler whose name gives no version
 * is run (-dumpfullversion, --version); no compiler's bytes are read
 * here: detect.lua decides which compiler needs its full version from
 * its own bytes and asks for that file alone (ptb_probe_version_strings).
 * And the python3 a build would use, from its files alone: its link
 * target, its venv's pyvenv.cfg, the lib/python3.X beside it; behind a
 * pyenv shim, the version pyenv selects. */
#include "detect/probe.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* gcc g++ clang clang++, optionally followed by -<version> */
static int compiler_name(const char *n)
{
	static const char *const base[] = { "clang++", "clang", "g++", "gcc" };

	for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
		size_t l = strlen(base[i]);

		if (strncmp(n, base[i], l) != 0)
			continue;
		if (n[l] == '\0')
			return 1;
		if (n[l] != '-' || !isdigit((unsigned char)n[l + 1]))
			return 0;
		return strspn(n + l + 1, "0123456789.") == strlen(n + l + 1);
	}
	return 0;
}

static cJSON *find_name(cJSON *arr, const char *name)
{
	cJSON *c;

	cJSON_ArrayForEach(c, arr)
		if (strcmp(cJSON_GetObjectItemCaseSensitive(c, "name")->valuestring, name) == 0)
			return c;
	return NULL;
}

/* The directory two levels above a .../bin/NAME path ("/opt/venv" of
 * "/opt/venv/bin/python3"), or NULL when it is not in a bin directory. */
static char *bin_prefix(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash || slash - path < 4 || strncmp(slash - 4, "/bin", 4) != 0)
		return NULL;
	n = (size_t)(slash - 4 - path);
	return ptb_xstrndup(n ? path : "/", n ? n : 1);
}

/* A version as a compiler's binary holds it: GCC's version_string
 * ("12.2.0", or "13.2.1 20231205" for a snapshot, its date after it),
 * clang's CLANG_VERSION_STRING ("18.1.3") or its whole "clang version
 * 18.1.3".  Three numbers, no more: a format string or a path is not one. */
static int version_like(const char *s, size_t len)
{
	const char *end = s + len;

	if (len > 14 && strncmp(s, "clang version ", 14) == 0)
		s += 14;
	for (int part = 0; part < 3; part++) {
		size_t d = 0;

		while (s + d < end && isdigit((unsigned char)s[d]))
			d++;
		if (d == 0 || d > 3)
			return 0;
		s += d;
		if (part < 2 && (s == end || *s++ != '.'))
			return 0;
	}
	if (s == end)
		return 1;
	/* " 20231205", then anything (" (prerelease)", " [revision ...]") */
	if (end - s < 9 || *s != ' ')
		return 0;
	for (int i = 1; i <= 8; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return s + 9 == end || s[9] == ' ';
}

/* The largest file searched: a gcc driver is 1-2 MiB, a statically
 * linked clang or a libclang-cpp some hundred. */
#define BINARY_MAX (512u << 20)

cJSON *ptb_probe_version_strings(const struct ptb_root *r, const char *file)
{
	cJSON *out = cJSON_CreateObject(), *strs = cJSON_CreateArray();
	cJSON *notes = cJSON_CreateArray();
	struct ptb_root here = *r;
	int n;

	/* the note of a file too large to search is the caller's to place */
	here.notes = notes;
	/* a libclang-cpp holds a few versions of other things too */
	n = ptb_root_elf_strings(&here, file, BINARY_MAX, version_like, 32, strs);
	if (n >= 0)
		cJSON_AddItemToObject(out, "strings", strs);
	else
		cJSON_Delete(strs);
	if (cJSON_GetArraySize(notes) > 0)
		cJSON_AddItemToObject(out, "note", cJSON_DetachItemFromArray(notes, 0));
	cJSON_Delete(notes);
	return out;
}

/* The paths of the entries of dir under the root whose names start with
 * prefix (NULL: all), appended to c's array key, made at the first. */
static void add_listing(const struct ptb_root *r, cJSON *c, const char *key,
                        const char *dir, const char *prefix)
{
	char **names = ptb_root_list(r, dir, prefix);

	for (char **n = names; n && *n; n++) {
		cJSON *arr = cJSON_GetObjectItemCaseSensitive(c, key);
		char *f = ptb_path_join(dir, *n);

		if (!arr)
			arr = cJSON_AddArrayToObject(c, key);
		cJSON_AddItemToArray(arr, cJSON_CreateString(f));
		free(f);
	}
	ptb_root_names_free(names);
}

/* A clang is often a small driver over <prefix>/lib/libclang-cpp.so.*,
 * which holds the version: the files there, for detect.lua to search
 * when the driver's bytes say nothing -> c.libclang_cpp.  clang, clang++
 * and clang-N are mostly one file: its list is copied from the compiler
 * of arr listed already. */
static void clang_libs(const struct ptb_root *r, cJSON *found, cJSON *c, const char *res)
{
	char *prefix, *lib;
	const cJSON *it;

	cJSON_ArrayForEach(it, found) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(it, "target");
		const cJSON *l = cJSON_GetObjectItemCaseSensitive(it, "libclang_cpp");

		if (l && cJSON_IsString(t) && strcmp(t->valuestring, res) == 0) {
			cJSON_AddItemToObject(c, "libclang_cpp", cJSON_Duplicate(l, 1));
			return;
		}
	}
	prefix = bin_prefix(res);
	lib = prefix ? ptb_path_join(prefix, "lib") : NULL;
	if (lib)
		add_listing(r, c, "libclang_cpp", lib, "libclang-cpp.so.");
	free(lib);
	free(prefix);
}

/* <prefix>/lib/gcc/<triplet>/<version> of a compiler outside /usr (a
 * gcc-toolset's /opt/rh/gcc-toolset-13/root/usr, a /usr/local or conda
 * build): the versions its own prefix holds -> c.lib_gcc */
static void prefix_libdirs(const struct ptb_root *r, cJSON *c, const char *res)
{
	char *prefix = bin_prefix(res), *d;
	char **triplets;

	if (!prefix || strcmp(prefix, "/usr") == 0 || strcmp(prefix, "/") == 0) {
		free(prefix);
		return;
	}
	d = ptb_path_join(prefix, "lib/gcc");
	triplets = ptb_root_list(r, d, NULL);
	for (char **t = triplets; t && *t; t++) {
		char *td = ptb_path_join(d, *t);

		add_listing(r, c, "lib_gcc", td, NULL);
		free(td);
	}
	ptb_root_names_free(triplets);
	free(d);
	free(prefix);
}

static void add(const struct ptb_root *r, cJSON *arr, const char *name,
                const char *path, const char *from)
{
	char *res = ptb_root_resolve(r, path);
	int clang = strstr(name, "clang") != NULL;
	cJSON *c;

	if (!res)
		return;
	c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "name", name);
	cJSON_AddStringToObject(c, "path", path);
	cJSON_AddStringToObject(c, "target", res);
	if (from)
		cJSON_AddStringToObject(c, "from", from);
	if (r->is_host && !strpbrk(res, "0123456789") && !strpbrk(name, "0123456789")) {
		struct ptb_buf b;
		char *argv[] = { res, (char *)(clang ? "--version" : "-dumpfullversion"), NULL };

		ptb_buf_init(&b);
		if (ptb_probe_run(argv, 5000, &b) == 0)
			cJSON_AddStringToObject(c, "version_output", b.data);
		ptb_buf_free(&b);
	}
	if (clang)
		clang_libs(r, arr, c, res);
	else
		prefix_libdirs(r, c, res);
	free(res);
	cJSON_AddItemToArray(arr, c);
}

/* First match of a command name on PATH (inner path), or NULL. */
/* The first cmd on PATH, passing over the directory skip (NULL: none). */
static char *which_past(const struct ptb_root *r, const char *cmd, const char *skip)
{
	const char *path = ptb_probe_env("PATH");
	char *copy, *save = NULL, *found = NULL;

	if (strchr(cmd, '/'))
		return ptb_root_is_exec(r, cmd) ? ptb_xstrdup(cmd) : NULL;
	if (!path)
		return NULL;
	copy = ptb_xstrdup(path);
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *f = ptb_xasprintf("%s/%s", d, cmd);

		if (*d == '/' && !(skip && strcmp(d, skip) == 0) && ptb_root_is_exec(r, f))
			found = f;
		else
			free(f);
	}
	free(copy);
	return found;
}

static char *which(const struct ptb_root *r, const char *cmd)
{
	return which_past(r, cmd, NULL);
}

/* A Debian package that is a compiler of one major: gcc-13, g++-13,
 * cpp-13, clang-18. */
static int compiler_package(const char *n, size_t len)
{
	static const char *const base[] = { "gcc-", "g++-", "cpp-", "clang-" };

	for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
		size_t l = strlen(base[i]);

		if (len > l && strncmp(n, base[i], l) == 0 && strspn(n + l, "0123456789") == len - l)
			return 1;
	}
	return 0;
}

/* Debian and Ubuntu name each gcc by its major (gcc-13 -> 13), and
 * /usr/lib/gcc/<triplet>/13 says no more: the full version is the one dpkg
 * installed, read from its status file (no process, so under --sysroot
 * too).  Adds {name, version} of each installed compiler package. */
static void add_package(cJSON *arr, const char *name, size_t nlen, const char *ver, size_t vlen)
{
	cJSON *c = cJSON_CreateObject();
	char *n = ptb_xstrndup(name, nlen), *v = ptb_xstrndup(ver, vlen);

	cJSON_AddStringToObject(c, "name", n);
	cJSON_AddStringToObject(c, "version", v);
	cJSON_AddItemToArray(arr, c);
	free(n);
	free(v);
}

/* Does a dpkg Status value ("want flag status") say the package's files
 * are on disk at its Version?  The want is the user's wish and says
 * nothing of that: "hold ok installed" (apt-mark hold) is as installed
 * as "install ok installed", and "deinstall ok installed" is installed
 * until it is removed.  The flag must be "ok" (reinstreq: an unpack that
 * failed), the status one from "unpacked" on (not "config-files",
 * "half-installed" or "not-installed"). */
static int dpkg_unpacked(const char *s, size_t len)
{
	static const char *const st[] = { "installed", "unpacked", "half-configured",
		                           "triggers-awaited", "triggers-pending" };
	const char *end = s + len, *w = memchr(s, ' ', len);

	if (!w || (size_t)(end - w) < 5 || strncmp(w, " ok ", 4) != 0)
		return 0;
	w += 4;
	for (size_t i = 0; i < sizeof st / sizeof st[0]; i++)
		if ((size_t)(end - w) == strlen(st[i]) && strncmp(w, st[i], (size_t)(end - w)) == 0)
			return 1;
	return 0;
}

static void dpkg_compilers(const struct ptb_root *r, cJSON *raw)
{
	cJSON *arr = cJSON_AddArrayToObject(raw, "compiler_packages");
	struct ptb_buf b;
	const char *name = NULL, *ver = NULL;
	size_t nlen = 0, vlen = 0, at = 0;
	int installed = 0;

	ptb_buf_init(&b);
	if (ptb_root_read(r, "/var/lib/dpkg/status", 256u << 20, &b) != 0) {
		ptb_buf_free(&b);
		return;
	}
	while (at <= b.len) {
		const char *p = b.data + at;
		const char *nl = memchr(p, '\n', b.len - at);
		size_t len = nl ? (size_t)(nl - p) : b.len - at;

		if (len > 9 && strncmp(p, "Package: ", 9) == 0) {
			name = p + 9, nlen = len - 9;
		} else if (len > 9 && strncmp(p, "Version: ", 9) == 0) {
			ver = p + 9, vlen = len - 9;
		} else if (len > 8 && strncmp(p, "Status: ", 8) == 0) {
			installed = dpkg_unpacked(p + 8, len - 8);
		}
		if (len == 0 || !nl) {
			/* a blank line or the end: one stanza is whole */
			if (name && ver && installed && compiler_package(name, nlen))
				add_package(arr, name, nlen, ver, vlen);
			name = ver = NULL;
			installed = 0;
		}
		if (!nl)
			break;
		at += len + 1;
	}
	ptb_buf_free(&b);
}

/* /usr/lib/gcc/<triplet>/<version>: the installed gcc versions */
static void gcc_libdirs(const struct ptb_root *r, cJSON *gcclibs)
{
	char **triplets = ptb_root_list(r, "/usr/lib/gcc", NULL);

	for (char **t = triplets; t && *t; t++) {
		char *d = ptb_xasprintf("/usr/lib/gcc/%s", *t);
		char **vs = ptb_root_list(r, d, NULL);

		for (char **v = vs; v && *v; v++) {
			char *e = ptb_xasprintf("%s/%s", *t, *v);
			cJSON_AddItemToArray(gcclibs, cJSON_CreateString(e));
			free(e);
		}
		ptb_root_names_free(vs);
		free(d);
	}
	ptb_root_names_free(triplets);
}

void ptb_probe_tools(const struct ptb_root *r, cJSON *raw)
{
	cJSON *arr = cJSON_AddArrayToObject(raw, "compilers");
	cJSON *env = cJSON_AddObjectToObject(raw, "env");
	cJSON *gcclibs = cJSON_AddArrayToObject(raw, "gcc_libdirs");
	const char *path = ptb_probe_env("PATH");
	static const char *const vars[] = {
		"CC", "CXX", "CUDAHOSTCXX", "CUDACXX", "CUDA_HOME", "CUDA_PATH",
		"TORCH_CUDA_ARCH_LIST",
	};

	if (path) {
		char *copy = ptb_xstrdup(path), *save = NULL;
		cJSON *seen = cJSON_CreateArray();

		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			/* /bin and /usr/bin are often one directory: list it once */
			char *res = *d == '/' ? ptb_root_resolve(r, d) : NULL;
			int dup = 0;
			const cJSON *it;

			if (!res)
				continue;
			cJSON_ArrayForEach(it, seen)
				dup |= strcmp(it->valuestring, res) == 0;
			cJSON_AddItemToArray(seen, cJSON_CreateString(res));
			free(res);
			if (dup)
				continue;
			char **names = ptb_root_list_if(r, d, compiler_name);

			for (char **n = names; n && *n; n++) {
				char *f;

				if (find_name(arr, *n))
					continue;
				f = ptb_xasprintf("%s/%s", d, *n);
				if (ptb_root_is_exec(r, f))
					add(r, arr, *n, f, NULL);
				free(f);
			}
			ptb_root_names_free(names);
		}
		cJSON_Delete(seen);
		free(copy);
	}
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = ptb_probe_env(vars[i]);

		if (!v || !*v)
			continue;
		cJSON_AddStringToObject(env, vars[i], v);
		if (i < 3) {
			/* CC may carry flags ("gcc-12 -m64"): the first word names it */
			char *word = ptb_xstrndup(v, strcspn(v, " \t"));
			char *f = which(r, word);
			const char *base = strrchr(word, '/') ? strrchr(word, '/') + 1 : word;

			if (f)
				add(r, arr, base, f, vars[i]);
			free(f);
			free(word);
		}
	}
	gcc_libdirs(r, gcclibs);
	dpkg_compilers(r, raw);
}

/* <prefix>/lib/python3* directories, once each. */
static void lib_dirs(const struct ptb_root *r, cJSON *arr, const char *prefix)
{
	char *lib = prefix ? ptb_path_join(prefix, "lib") : NULL;
	char **names = lib ? ptb_root_list(r, lib, "python3") : NULL;

	for (char **n = names; n && *n; n++) {
		char *d = ptb_path_join(lib, *n);

		if (ptb_root_is_dir(r, d))
			ptb_probe_add_unique(arr, d);
		free(d);
	}
	ptb_root_names_free(names);
	free(lib);
}

/* The first word of a pyenv version setting ("3.11.7", "3.12.1:system",
 * a file's first line); NULL when there is none or it is no plain name. */
static char *pyenv_word(const char *s)
{
	size_t n;

	s += strspn(s, " \t\r\n:");
	n = strcspn(s, " \t\r\n:");
	if (n == 0 || memchr(s, '/', n) || (n <= 2 && strspn(s, ".") == n))
		return NULL;
	return ptb_xstrndup(s, n);
}

/* The version pyenv selects, in its own order: $PYENV_VERSION, the first
 * .python-version from the working directory up, <root>/version.  *by
 * says which. */
static char *pyenv_version(const struct ptb_root *r, const char *root, char **by)
{
	const char *env = ptb_probe_env("PYENV_VERSION");
	char cwd[4096], *name = NULL;
	struct ptb_buf b;

	if (env && *env && (name = pyenv_word(env))) {
		*by = ptb_xstrdup("PYENV_VERSION");
		return name;
	}
	ptb_buf_init(&b);
	if (getcwd(cwd, sizeof cwd)) {
		for (char *end = cwd + strlen(cwd); !name; ) {
			char *f;

			*end = '\0';
			f = ptb_xasprintf("%s/.python-version", *cwd ? cwd : "");
			ptb_buf_reset(&b);
			if (ptb_root_head(r, f, 256, &b) == 0 && b.data && (name = pyenv_word(b.data)))
				*by = f;
			else
				free(f);
			if (end == cwd || !(end = strrchr(cwd, '/')))
				break;
		}
	}
	if (!name) {
		char *f = ptb_path_join(root, "version");

		ptb_buf_reset(&b);
		if (ptb_root_head(r, f, 256, &b) == 0 && b.data && (name = pyenv_word(b.data)))
			*by = f;
		else
			free(f);
	}
	ptb_buf_free(&b);
	return name;
}

/* pyenv's shim (<root>/shims/python3, a script that asks pyenv) stands for
 * the python3 of the version pyenv selects, or for the next python3 on
 * PATH when that is "system".  Adds raw.python.pyenv; returns the
 * interpreter (caller frees) or NULL to keep the shim. */
static char *pyenv_python(const struct ptb_root *r, cJSON *py, const char *shim)
{
	char *dir = ptb_xstrdup(shim), *s, *root, *versions, *name, *by = NULL, *out = NULL;
	cJSON *pe;

	if (!(s = strrchr(dir, '/')) || (*s = '\0', !(s = strrchr(dir, '/'))) || strcmp(s, "/shims") != 0) {
		free(dir);
		return NULL;
	}
	root = ptb_xstrndup(dir, (size_t)(s - dir));
	versions = ptb_path_join(root, "versions");
	if (!ptb_root_is_dir(r, versions)) {
		free(versions);
		free(root);
		free(dir);
		return NULL;
	}
	pe = cJSON_AddObjectToObject(py, "pyenv");
	cJSON_AddStringToObject(pe, "root", root);
	if ((name = pyenv_version(r, root, &by))) {
		cJSON_AddStringToObject(pe, "version", name);
		cJSON_AddStringToObject(pe, "set_by", by);
		if (strcmp(name, "system") == 0) {
			out = which_past(r, "python3", dir);
		} else {
			out = ptb_xasprintf("%s/%s/bin/python3", versions, name);
			if (!ptb_root_is_exec(r, out)) {
				free(out);
				out = NULL;
				cJSON_AddFalseToObject(pe, "installed");
			}
		}
	}
	free(name);
	free(by);
	free(versions);
	free(root);
	free(dir);
	return out;
}

/* Whether two python3 paths are in the same directory, both resolved:
 * a PATH entry may be spelt otherwise than $VIRTUAL_ENV/bin. */
static int same_dir(const struct ptb_root *r, const char *p1, const char *p2)
{
	const char *s1 = strrchr(p1, '/'), *s2 = strrchr(p2, '/');
	char *d1 = s1 ? ptb_xstrndup(p1, (size_t)(s1 - p1)) : NULL;
	char *d2 = s2 ? ptb_xstrndup(p2, (size_t)(s2 - p2)) : NULL;
	char *a = d1 ? ptb_root_resolve(r, *d1 ? d1 : "/") : NULL;
	char *b = d2 ? ptb_root_resolve(r, *d2 ? d2 : "/") : NULL;
	int same = a && b && strcmp(a, b) == 0;

	free(a);
	free(b);
	free(d1);
	free(d2);
	return same;
}

/* What one python3 is, from its files: its path, the file it resolves
 * to, its venv's pyvenv.cfg and the lib/python3* beside either. */
static void describe_python(const struct ptb_root *r, cJSON *py, const char *path)
{
	char *real, *prefix, *rprefix;
	cJSON *libs;

	cJSON_AddStringToObject(py, "path", path);
	real = ptb_root_resolve(r, path);
	if (real)
		cJSON_AddStringToObject(py, "real", real);
	/* a virtual environment says its Python in <venv>/pyvenv.cfg */
	prefix = bin_prefix(path);
	if (prefix) {
		char *cfg = ptb_path_join(prefix, "pyvenv.cfg");
		struct ptb_buf b;

		ptb_buf_init(&b);
		if (ptb_root_head(r, cfg, 4096, &b) == 0)
			cJSON_AddStringToObject(py, "pyvenv_cfg", b.data ? b.data : "");
		ptb_buf_free(&b);
		free(cfg);
	}
	libs = cJSON_AddArrayToObject(py, "lib");
	rprefix = real ? bin_prefix(real) : NULL;
	lib_dirs(r, libs, prefix);
	lib_dirs(r, libs, rprefix);
	free(rprefix);
	free(prefix);
	free(real);
}

static const char *const env_vars[] = { "VIRTUAL_ENV", "CONDA_PREFIX" };
#define N_ENV_VARS (sizeof env_vars / sizeof env_vars[0])

/* The python3 a build runs: the first on PATH (behind pyenv's shim, the
 * one pyenv selects), as `python3 -m venv`, pip and setup.py would find
 * it; *from names the environment it is the interpreter of (the variable
 * whose env_py it is beside), else pyenv or PATH.  With no python3 on
 * PATH, that of $VIRTUAL_ENV, else of $CONDA_PREFIX.  NULL when none. */
static char *build_python(const struct ptb_root *r, cJSON *py, char *const *env_py, const char **from)
{
	char *path = which(r, "python3"), *chosen;

	*from = NULL;
	if (!path) {
		for (size_t i = 0; i < N_ENV_VARS && !path; i++)
			if (env_py[i]) {
				path = ptb_xstrdup(env_py[i]);
				*from = env_vars[i];
			}
		return path;
	}
	if ((chosen = pyenv_python(r, py, path))) {
		free(path);
		*from = "pyenv";
		return chosen;
	}
	for (size_t i = 0; i < N_ENV_VARS && !*from; i++)
		if (env_py[i] && same_dir(r, path, env_py[i]))
			*from = env_vars[i];
	if (!*from)
		*from = "PATH";
	return path;
}

/* raw.python: the python3 a build runs (build_python).  An environment a
 * variable names whose python3 is not that one (set, but not activated
 * in this shell) is listed in "unused"; the distribution's
 * /usr/bin/python3, when the one found is another interpreter (not it,
 * nor a venv of it), in "system". */
void ptb_probe_python(const struct ptb_root *r, cJSON *raw)
{
	char *env_py[N_ENV_VARS] = { NULL }, *path, *sys_real, *real;
	const char *from;
	cJSON *py = cJSON_CreateObject(), *unused = NULL;

	for (size_t i = 0; i < N_ENV_VARS; i++) {
		const char *v = ptb_probe_env(env_vars[i]);

		if (v && *v == '/') {
			env_py[i] = ptb_path_join(v, "bin/python3");
			if (!ptb_root_is_exec(r, env_py[i])) {
				free(env_py[i]);
				env_py[i] = NULL;
			}
		}
	}
	if (!(path = build_python(r, py, env_py, &from))) {
		cJSON_Delete(py);
		for (size_t i = 0; i < N_ENV_VARS; i++)
			free(env_py[i]);
		return;
	}
	cJSON_AddItemToObject(raw, "python", py);
	cJSON_AddStringToObject(py, "from", from);
	describe_python(r, py, path);
	/* $VIRTUAL_ENV unless its python3 is the one found; $CONDA_PREFIX
	 * unless it is, or a venv's on top of it is */
	for (size_t i = 0; i < N_ENV_VARS; i++) {
		int covered = strcmp(from, env_vars[i]) == 0 || (i == 1 && strcmp(from, env_vars[0]) == 0);

		if (env_py[i] && !covered) {
			cJSON *u = cJSON_CreateObject();

			if (!unused)
				unused = cJSON_AddArrayToObject(py, "unused");
			cJSON_AddStringToObject(u, "var", env_vars[i]);
			cJSON_AddStringToObject(u, "path", env_py[i]);
			cJSON_AddItemToArray(unused, u);
		}
		free(env_py[i]);
	}
	/* the distribution's python3, when the one found is another */
	real = ptb_root_resolve(r, path);
	sys_real = ptb_root_is_exec(r, "/usr/bin/python3") ? ptb_root_resolve(r, "/usr/bin/python3") : NULL;
	if (sys_real && !(real && strcmp(real, sys_real) == 0))
		describe_python(r, cJSON_AddObjectToObject(py, "system"), "/usr/bin/python3");
	free(sys_real);
	free(real);
	free(path);
}
