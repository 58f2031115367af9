/* facts.c - load and check facts documents. */
#include "detect/facts.h"
#include "detect/detect.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/suggest.h"

/* Keys that other parts rely on, with the JSON types accepted. */
enum { T_STR = 1, T_NUM = 2, T_OBJ = 4, T_ARR = 8, T_NULL = 16, T_BOOL = 32 };

static const struct {
	const char *path;
	int types;
} known[] = {
	{ "host", T_OBJ },
	{ "host.arch", T_STR },
	{ "host.platform", T_STR },
	{ "host.os", T_OBJ | T_NULL },
	{ "host.glibc", T_STR | T_NULL },
	{ "host.page_size", T_NUM | T_NULL },
	{ "host.cpu", T_OBJ | T_NULL },
	{ "host.memory_mib", T_NUM | T_NULL },
	{ "host.limits", T_OBJ | T_NULL },
	{ "host.limits.memory_mib", T_NUM | T_NULL },
	{ "host.limits.cpus", T_NUM | T_NULL },
	{ "driver", T_OBJ | T_NULL },
	{ "driver.version", T_STR },
	{ "driver.cuda_max", T_STR | T_NULL },
	{ "gpus", T_ARR },
	{ "toolkits", T_ARR },
	{ "compilers", T_ARR },
	{ "jetson", T_OBJ | T_NULL },
	{ "host.kernel", T_STR | T_NULL },
	{ "host.cpu.features", T_ARR },
	{ "host.cpu.cores", T_NUM | T_NULL },
	{ "host.cpu.microarch", T_STR | T_NULL },
	{ "host.cpu.parts", T_ARR },
	{ "host.os.id", T_STR | T_NULL },
	{ "host.os.version_id", T_STR | T_NULL },
	{ "jetson.l4t", T_STR | T_NULL },
	{ "torch", T_OBJ | T_NULL },
	{ "torch.version", T_STR },
	{ "env", T_OBJ },
	{ "notes", T_ARR },
	{ "taken", T_OBJ | T_NULL },
	{ "taken.host", T_STR | T_NULL },
	{ "taken.at", T_STR },
	/* the python3 a build would use (absent in facts older than it) */
	{ "python", T_OBJ | T_NULL },
	{ "python.version", T_STR | T_NULL },
	{ "python.path", T_STR },
	{ "python.real", T_STR | T_NULL },
	{ "python.from", T_STR | T_NULL },
	{ "python.source", T_STR | T_NULL },
	/* the distribution's python3 when the build's is another */
	{ "python.system", T_OBJ | T_NULL },
	{ "python.system.version", T_STR | T_NULL },
	{ "python.system.path", T_STR },
	{ "python.system.real", T_STR | T_NULL },
	{ "python.system.source", T_STR | T_NULL },
};

/* Value forms other parts parse: "9.0" compute capabilities, "12.4" and
 * "550.54.15" versions: min..max groups of digits joined by single dots.
 * With tail, a PEP 440 rest may follow ("2.5.1+cu124", "2.7.0.dev20250101",
 * "2.6.0a0+git1a2b3c"): letters, digits and . + _ -, no "..", no final dot.
 * recipes/detect.lua's version_form is the same check: what detect makes
 * passes here. */
static int version_form(const char *s, int min, int max, int tail)
{
	int parts = 0;

	for (;;) {
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
		parts++;
		if (s[0] == '.' && s[1] >= '0' && s[1] <= '9') {
			s++;
			continue;
		}
		break;
	}
	if (parts < min || parts > max)
		return 0;
	if (!*s)
		return 1;
	if (!tail || strstr(s, "..") || s[strlen(s) - 1] == '.')
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || strchr(".+_-", *s)))
			return 0;
	return 1;
}

/* Every version-valued key of the facts (host.os.version_id is an
 * os-release identifier, "rolling" is allowed; host.kernel a release
 * name such as "6.8.0-51-generic"). */
static const struct {
	const char *path;        /* in an array item when it holds "[]" */
	int min, max, tail;
	const char *want;
} forms[] = {
	{ "driver.version", 2, 4, 0, "a driver version such as \"550.54.15\"" },
	{ "driver.library_version", 2, 4, 0, "a driver version such as \"550.54.15\"" },
	{ "driver.cuda_max", 2, 2, 0, "a CUDA release such as \"12.4\"" },
	{ "driver.built_with_gcc", 1, 4, 0, "a gcc version such as \"12.3.0\"" },
	{ "host.glibc", 2, 3, 0, "a glibc version such as \"2.35\"" },
	{ "gpus[].compute_capability", 2, 2, 0, "a compute capability such as \"9.0\"" },
	{ "toolkits[].version", 2, 4, 0, "a CUDA version such as \"12.4.131\"" },
	{ "toolkits[].release", 2, 2, 0, "a CUDA release such as \"12.4\"" },
	{ "toolkits[].cudnn", 1, 4, 0, "a cuDNN version such as \"9.1.0\"" },
	{ "toolkits[].nccl", 1, 4, 0, "an NCCL version such as \"2.21.5\"" },
	{ "compilers[].version", 1, 4, 0, "a compiler version such as \"13.3.0\"" },
	{ "torch.version", 1, 4, 1, "a PyTorch version such as \"2.5.1\" or \"2.5.1+cu124\"" },
	{ "torch.cuda", 2, 3, 0, "a CUDA release such as \"12.4\"" },
	{ "jetson.l4t", 2, 3, 0, "an L4T release such as \"36.4.0\"" },
	{ "jetson.jetpack", 2, 3, 0, "a JetPack version such as \"6.1\"" },
	{ "jetson.cuda", 2, 3, 0, "a CUDA release such as \"12.6\"" },
	{ "python.version", 2, 2, 0, "a Python version such as \"3.12\"" },
	{ "python.system.version", 2, 2, 0, "a Python version such as \"3.11\"" },
};

static int check_form(const cJSON *v, const char *key, int i, size_t f,
                      const char *src, struct ptb_err *err)
{
	if (!v || cJSON_IsNull(v))
		return 0;
	if (cJSON_IsString(v) &&
	    version_form(v->valuestring, forms[f].min, forms[f].max, forms[f].tail))
		return 0;
	if (i >= 0)
		ptb_err_set(err, PTB_EUSAGE, "'%s': key '%s[%d]%s': expected %s", src, key, i,
		            strstr(forms[f].path, "[]") + 2, forms[f].want);
	else
		ptb_err_set(err, PTB_EUSAGE, "'%s': key '%s': expected %s", src, key, forms[f].want);
	return -1;
}

static int check_forms(const cJSON *f, const char *src, struct ptb_err *err)
{
	for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
		const char *br = strstr(forms[k].path, "[]");

		if (!br) {
			if (check_form(ptb_json_get(f, forms[k].path), forms[k].path, -1, k, src, err))
				return -1;
			continue;
		}
		char arr[32];
		const cJSON *it;
		int i = 0;

		snprintf(arr, sizeof arr, "%.*s", (int)(br - forms[k].path), forms[k].path);
		cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(f, arr)) {
			if (check_form(cJSON_GetObjectItemCaseSensitive(it, br + 3), arr, i, k, src, err))
				return -1;
			i++;
		}
	}
	return 0;
}

static int type_of(const cJSON *j)
{
	if (cJSON_IsString(j)) return T_STR;
	if (cJSON_IsNumber(j)) return T_NUM;
	if (cJSON_IsObject(j)) return T_OBJ;
	if (cJSON_IsArray(j)) return T_ARR;
	if (cJSON_IsNull(j)) return T_NULL;
	if (cJSON_IsBool(j)) return T_BOOL;
	return 0;
}

static void describe(int types, char *out, size_t n)
{
	static const char *const names[] = { "a string", "a number", "an object",
	                                     "an array", "null", "a boolean" };
	size_t len = 0;
	int first = 1;

	out[0] = '\0';
	for (int i = 0; i < 6; i++) {
		if (!(types & (1 << i)))
			continue;
		len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%s%s",
		                        first ? "" : " or ", names[i]);
		first = 0;
	}
}

/* Each array item must be an object; these keys are checked per item. */
static int check_items(const cJSON *arr, const char *key, const char *const *strs,
                       const char *src, struct ptb_err *err)
{
	int i = 0;
	const cJSON *it;

	cJSON_ArrayForEach(it, arr) {
		if (!cJSON_IsObject(it)) {
			ptb_err_set(err, PTB_EUSAGE, "'%s': key '%s[%d]': expected an object",
			            src, key, i);
			return -1;
		}
		for (const char *const *s = strs; *s; s++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, *s);

			if (v && !cJSON_IsString(v) && !cJSON_IsNull(v)) {
				ptb_err_set(err, PTB_EUSAGE,
				            "'%s': key '%s[%d].%s': expected a string",
				            src, key, i, *s);
				return -1;
			}
		}
		i++;
	}
	return 0;
}

/* toolkits[].gcc_max: the newest gcc major the toolkit's host_config.h
 * accepts, a whole number. */
static int check_gcc_max(const cJSON *arr, const char *src, struct ptb_err *err)
{
	const cJSON *it;
	int i = 0;

	cJSON_ArrayForEach(it, arr) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, "gcc_max");

		if (v && !cJSON_IsNull(v) && !(cJSON_IsNumber(v) && v->valuedouble >= 1 &&
		                                 v->valuedouble <= 999 && v->valuedouble == (int)v->valuedouble)) {
			ptb_err_set(err, PTB_EUSAGE, "'%s': key '%s[%d].gcc_max': expected a gcc major version such as 14",
			            src, arr->string ? arr->string : "toolkits", i);
			return -1;
		}
		i++;
	}
	return 0;
}

/* Names of one of nvcc's lists in toolkits[i].gpu_list.KEY: an array of
 * at most 256 names prefix + digits (+ one letter). */
static int check_gpu_names(const cJSON *arr, int i, const char *key, const char *prefix,
                           const char *src, struct ptb_err *err)
{
	const cJSON *n;

	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > 256) {
		ptb_err_set(err, PTB_EUSAGE, "'%s': key 'toolkits[%d].gpu_list.%s': expected an array of at most 256 names such as \"%s90\"",
		            src, i, key, prefix);
		return -1;
	}
	cJSON_ArrayForEach(n, arr) {
		if (!cJSON_IsString(n) || !ptb_detect_gpu_name(n->valuestring, strlen(n->valuestring), prefix)) {
			ptb_err_set(err, PTB_EUSAGE, "'%s': key 'toolkits[%d].gpu_list.%s': expected names such as \"%s90\" or \"%s100a\", found %s%.40s%s",
			            src, i, key, prefix, prefix, cJSON_IsString(n) ? "'" : "",
			            cJSON_IsString(n) ? n->valuestring : "a value that is not a string",
			            cJSON_IsString(n) ? "'" : "");
			return -1;
		}
	}
	return 0;
}

/* toolkits[].gpu_list (absent or null: not asked): the toolkit's nvcc's
 * answer as detect recorded it, { from: "nvcc", nvcc: path, arch:
 * [compute_X...], code: [sm_X...] } or { from: "nvcc", nvcc, error }. */
static int check_gpu_list(const cJSON *arr, const char *src, struct ptb_err *err)
{
	const cJSON *it;
	int i = 0;

	cJSON_ArrayForEach(it, arr) {
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(it, "gpu_list");
		const char *from = ptb_json_str(g, "from");

		if (g && !cJSON_IsNull(g)) {
			if (!cJSON_IsObject(g) || !from || strcmp(from, "nvcc") != 0 || !ptb_json_str(g, "nvcc")) {
				ptb_err_set(err, PTB_EUSAGE, "'%s': key 'toolkits[%d].gpu_list': expected null or an object with \"from\": \"nvcc\" and the nvcc's path in \"nvcc\"",
				            src, i);
				ptb_err_hint(err, "make the facts file again with 'ptbuild detect --json > FILE'");
				return -1;
			}
			if (cJSON_GetObjectItemCaseSensitive(g, "error")) {
				if (!ptb_json_str(g, "error")) {
					ptb_err_set(err, PTB_EUSAGE, "'%s': key 'toolkits[%d].gpu_list.error': expected a string", src, i);
					return -1;
				}
			} else if (check_gpu_names(cJSON_GetObjectItemCaseSensitive(g, "arch"), i, "arch", "compute_", src, err) ||
			           check_gpu_names(cJSON_GetObjectItemCaseSensitive(g, "code"), i, "code", "sm_", src, err)) {
				return -1;
			}
		}
		i++;
	}
	return 0;
}

int ptb_facts_validate(const cJSON *f, const char *src, struct ptb_err *err)
{
	const char *schema;
	char want[96];

	if (!cJSON_IsObject(f)) {
		ptb_err_set(err, PTB_EUSAGE, "'%s' is not a facts document: expected a JSON object", src);
		return -1;
	}
	schema = ptb_json_str(f, "schema");
	if (!schema) {
		ptb_err_set(err, PTB_EUSAGE, "'%s': key 'schema': expected \"%s\"", src, PTB_FACTS_SCHEMA);
		ptb_err_hint(err, "make a facts file with 'ptbuild detect --json > FILE'");
		return -1;
	}
	if (strcmp(schema, PTB_FACTS_SCHEMA) != 0) {
		ptb_err_set(err, PTB_EUSAGE, "'%s': key 'schema': expected \"%s\", found \"%s\"",
		            src, PTB_FACTS_SCHEMA, schema);
		if (strncmp(schema, "ptbuild.plan/", 13) == 0)
			ptb_err_hint(err, "this is a plan, not facts; pass facts from 'ptbuild detect --json'");
		return -1;
	}
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		const cJSON *v = ptb_json_get(f, known[i].path);
		const char *dot = strrchr(known[i].path, '.');

		if (!v) {
			if (strcmp(known[i].path, "host") == 0) {
				ptb_err_set(err, PTB_EUSAGE, "'%s': key 'host': missing (expected an object)", src);
				return -1;
			}
			continue;
		}
		/* A child of a null parent is simply absent. */
		(void)dot;
		if (!(type_of(v) & known[i].types)) {
			describe(known[i].types, want, sizeof want);
			ptb_err_set(err, PTB_EUSAGE, "'%s': key '%s': expected %s",
			            src, known[i].path, want);
			return -1;
		}
	}
	static const char *const gpu_strs[] = { "name", "compute_capability", "source", NULL };
	static const char *const tk_strs[] = { "root", "version", "source", "nvcc", "nvcc_machine", NULL };
	static const char *const cc_strs[] = { "name", "version", "path", NULL };
	if (check_items(cJSON_GetObjectItemCaseSensitive(f, "gpus"), "gpus", gpu_strs, src, err) ||
	    check_items(cJSON_GetObjectItemCaseSensitive(f, "toolkits"), "toolkits", tk_strs, src, err) ||
	    check_items(cJSON_GetObjectItemCaseSensitive(f, "compilers"), "compilers", cc_strs, src, err) ||
	    check_gcc_max(cJSON_GetObjectItemCaseSensitive(f, "toolkits"), src, err) ||
	    check_gpu_list(cJSON_GetObjectItemCaseSensitive(f, "toolkits"), src, err))
		return -1;
	return check_forms(f, src, err);
}

/* The environment document (detect.environment): the keys doctor reads,
 * with their types. */
static const struct {
	const char *path;
	int types;
} env_known[] = {
	{ "env", T_OBJ },
	{ "nvcc_on_path", T_ARR },
	{ "cuda_home", T_OBJ },
	{ "cuda_path", T_OBJ },
	{ "usr_local_cuda", T_OBJ },
	{ "libs", T_ARR },
	{ "pip_nvidia", T_ARR },
	{ "torch", T_ARR },
	{ "conda", T_OBJ },
	{ "conda.packages", T_ARR },
	{ "container", T_OBJ },
	{ "container.inside", T_BOOL },
	{ "container.gpu_devices", T_BOOL },
	{ "container.devices", T_ARR },
	{ "container.inferred", T_BOOL },
	{ "binfmt_qemu", T_ARR },
	{ "cpuinfo_kind", T_STR },
};

int ptb_facts_validate_environment(const cJSON *e, const char *src, struct ptb_err *err)
{
	static const char *const tk_strs[] = { "root", "version", "via", "nvcc", "nvcc_machine", NULL };
	static const char *const lib_strs[] = { "lib", "name", "path", "real", "version", "via", NULL };
	static const char *const torch_strs[] = { "version", "site", "cuda", "libtorch_cuda", "machine", NULL };
	char want[96];

	if (!cJSON_IsObject(e)) {
		ptb_err_set(err, PTB_EUSAGE, "'%s' is not an environment document: expected a JSON object", src);
		return -1;
	}
	for (size_t i = 0; i < sizeof env_known / sizeof env_known[0]; i++) {
		const cJSON *v = ptb_json_get(e, env_known[i].path);

		if (v && !(type_of(v) & env_known[i].types)) {
			describe(env_known[i].types, want, sizeof want);
			ptb_err_set(err, PTB_EUSAGE, "'%s': key '%s': expected %s", src, env_known[i].path, want);
			return -1;
		}
	}
	return check_items(cJSON_GetObjectItemCaseSensitive(e, "nvcc_on_path"), "nvcc_on_path", tk_strs, src, err) ||
	       check_items(cJSON_GetObjectItemCaseSensitive(e, "libs"), "libs", lib_strs, src, err) ||
	       check_items(cJSON_GetObjectItemCaseSensitive(e, "torch"), "torch", torch_strs, src, err) ||
	       check_gcc_max(cJSON_GetObjectItemCaseSensitive(e, "nvcc_on_path"), src, err) ? -1 : 0;
}

cJSON *ptb_facts_load(const char *file, struct ptb_err *err)
{
	struct ptb_buf b;
	cJSON *f;

	ptb_buf_init(&b);
	if (ptb_file_read(file, 16u << 20, &b, err) != 0) {
		ptb_buf_free(&b);
		return NULL;
	}
	f = ptb_json_parse(b.data ? b.data : "", b.len, file, err);
	ptb_buf_free(&b);
	if (!f)
		return NULL;
	if (ptb_facts_validate(f, file, err) != 0) {
		cJSON_Delete(f);
		return NULL;
	}
	return f;
}

static void list_profiles(const char *const *dirs, size_t n, struct ptb_buf *out)
{
	for (size_t i = 0; i < n; i++) {
		char *d = ptb_path_join(dirs[i], "profiles");
		DIR *dh = opendir(d);
		struct dirent *de;

		free(d);
		if (!dh)
			continue;
		while ((de = readdir(dh))) {
			size_t len = strlen(de->d_name);

			if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0)
				ptb_buf_printf(out, "%s%.*s", out->len ? " " : "",
				               (int)(len - 5), de->d_name);
		}
		closedir(dh);
	}
}

/* The known profile (in names, space-separated) closest to name when it
 * is close, or NULL; the caller frees. */
static char *closest_profile(const char *name, const char *names)
{
	char *copy = ptb_xstrdup(names), *save = NULL, *w;
	const char **v = ptb_xcalloc(strlen(names) / 2 + 2, sizeof *v);
	const char *best;
	char *r;
	size_t n = 0;

	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		v[n++] = w;
	best = ptb_suggest(name, v, n);
	r = best ? ptb_xstrdup(best) : NULL;
	free(v);
	free(copy);
	return r;
}

cJSON *ptb_facts_profile(const char *const *dirs, size_t ndirs,
                         const char *name, struct ptb_err *err)
{
	for (const char *p = name; *p; p++) {
		if (!(*p == '-' || *p == '_' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) {
			ptb_err_set(err, PTB_EUSAGE, "bad profile name '%s' (letters, digits, '-' and '_')", name);
			return NULL;
		}
	}
	for (size_t i = 0; i < ndirs; i++) {
		char *rel = ptb_xasprintf("profiles/%s.json", name);
		char *f = ptb_path_join(dirs[i], rel);

		free(rel);
		if (ptb_path_is_file(f)) {
			cJSON *j = ptb_facts_load(f, err);

			free(f);
			return j;
		}
		free(f);
	}
	struct ptb_buf names;
	char *meant;

	ptb_buf_init(&names);
	list_profiles(dirs, ndirs, &names);
	ptb_err_set(err, PTB_EUSAGE, "unknown profile '%s'", name);
	meant = closest_profile(name, names.data ? names.data : "");
	ptb_err_hint(err, "%s%s%sknown profiles: %s", meant ? "did you mean '" : "",
	             meant ? meant : "", meant ? "'? " : "",
	             names.len ? names.data : "(none found on the recipe path)");
	free(meant);
	ptb_buf_free(&names);
	return NULL;
}
