/* validate.c - compile the test program, check its fat binary, run it
 * (when there is a GPU) with a time limit, and cache the verdict. */
#include "util/sha256.h"
#include "validate/validate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "binfmt/fatbin.h"
#include "util/json.h"
#include "util/run.h"

extern const char ptb_validate_cu[];

/* Run r (its args set) with stdout and stderr into log, at most
 * timeout_s: the exit status (0..255), 128 + a signal, 124 for the time
 * limit, or -1 with err when it could not start.  *ms gets the wall
 * time. */
static int run_logged(struct ptb_run *r, const char *log, int timeout_s,
                      double *ms, struct ptb_err *err)
{
	r->out_to = PTB_RUN_FILE;
	r->out_path = log;
	r->err_to = PTB_RUN_TO_OUT;
	r->timeout_ms = timeout_s * 1000;
	if (ptb_run(r, err) != 0)
		return -1;
	*ms = r->ms;
	return ptb_run_code(r);
}

/* PATH for nvcc: the directory it was named in first.  nvcc finds ptxas,
 * fatbinary, nvlink and cudafe++ on PATH after what its nvcc.profile adds:
 * NVIDIA's profile adds nvcc's own directory, but a distribution's
 * (Debian's /etc/nvcc.profile) adds only /usr/lib/nvidia-cuda-toolkit/bin,
 * while those tools are in /usr/bin beside the nvcc wrapper, so another
 * CUDA's bin earlier on PATH would lend its ptxas ("Value 'sm_50' is not
 * defined for option 'gpu-name'").  Caller frees. */
static char *nvcc_path(const char *nvcc)
{
	const char *slash = strrchr(nvcc, '/'), *path = getenv("PATH");
	char *dir = slash && slash > nvcc ? ptb_xstrndup(nvcc, (size_t)(slash - nvcc)) : ptb_xstrdup("/");
	char *p = path && *path ? ptb_xasprintf("%s:%s", dir, path) : ptb_xstrdup(dir);

	free(dir);
	return p;
}

/* The GPUs detect listed, for the cache key (model, capability, bus, ...). */
static void gpu_identity(const cJSON *host, struct ptb_buf *key)
{
	const cJSON *gpus = cJSON_GetObjectItemCaseSensitive(host, "gpus"), *g;

	if (!cJSON_GetArraySize(gpus)) {
		ptb_buf_adds(key, "gpus:none\n");
		return;
	}
	cJSON_ArrayForEach(g, gpus) {
		char *text = cJSON_PrintUnformatted(g);

		ptb_buf_printf(key, "gpu %s\n", text ? text : "?");
		free(text);
	}
}

static void sha_hex(const char *text, char hex[65])
{
	struct ptb_sha256 h;

	ptb_sha256_init(&h);
	ptb_sha256_update(&h, text, strlen(text));
	ptb_sha256_final_hex(&h, hex);
}

static char *cache_path(const struct ptb_validate_opts *o, const char *key)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *dir, *p, hex[65];

	if (o->cache_dir)
		dir = ptb_xstrdup(o->cache_dir);
	else if (xdg && *xdg)
		dir = ptb_xasprintf("%s/ptbuild/validate", xdg);
	else if (home && *home)
		dir = ptb_xasprintf("%s/.cache/ptbuild/validate", home);
	else
		return NULL;
	sha_hex(key, hex);
	p = ptb_xasprintf("%s/%s.json", dir, hex);
	free(dir);
	return p;
}

static int have(const char *root, const char *rel)
{
	char *p = ptb_path_join(root, rel);
	int r = ptb_path_is_file(p);

	free(p);
	return r;
}

static const char *lib_dir(const char *root, char **owned)
{
	char *p = ptb_path_join(root, "lib64");

	if (!ptb_path_is_dir(p)) {
		free(p);
		p = ptb_path_join(root, "lib");
	}
	*owned = p;
	return p;
}

static void add_problem(cJSON *problems, const char *severity, const char *code,
                        const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add_problem(cJSON *problems, const char *severity, const char *code,
                        const char *fmt, ...)
{
	cJSON *p = cJSON_CreateObject();
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	cJSON_AddStringToObject(p, "severity", severity);
	cJSON_AddStringToObject(p, "code", code);
	cJSON_AddStringToObject(p, "message", msg);
	cJSON_AddItemToArray(problems, p);
}

static int in_array(const cJSON *arr, const char *s)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, arr)
		if (cJSON_IsString(e) && strcmp(e->valuestring, s) == 0)
			return 1;
	return 0;
}

static void add_unique(cJSON *arr, const char *s)
{
	if (!in_array(arr, s))
		cJSON_AddItemToArray(arr, cJSON_CreateString(s));
}

/* The last lines of a log, at most max bytes. */
static char *log_tail(const char *path, size_t max)
{
	struct ptb_buf b;
	struct ptb_err err = { 0 };
	char *s;

	ptb_buf_init(&b);
	if (ptb_file_read(path, 1 << 24, &b, &err) != 0 || !b.data) {
		ptb_buf_free(&b);
		return ptb_xstrdup("");
	}
	s = ptb_xstrdup(b.len > max ? b.data + b.len - max : b.data);
	ptb_buf_free(&b);
	return s;
}

/* The codes one nvcc flag asks for: "-gencode=arch=compute_80,code=sm_86",
 * "-gencode arch=compute_90,code=[sm_90,compute_90]": sm_* are SASS,
 * compute_* PTX (lto_* are neither, and are not expected in the binary). */
static void gencode_codes(const char *flag, cJSON *sass, cJSON *ptx)
{
	const char *p = strstr(flag, "code=");

	/* "arch=compute_80,code=..." contains "code=" only after the comma. */
	while (p && p > flag && p[-1] != ',' && p[-1] != ' ')
		p = strstr(p + 5, "code=");
	if (!p)
		return;
	p += 5;
	while (*p) {
		size_t n;
		char tok[64];

		while (*p == '[' || *p == ',' || *p == ' ' || *p == '"' || *p == '\'')
			p++;
		n = strcspn(p, ",] \"'");
		if (n == 0)
			break;
		snprintf(tok, sizeof tok, "%.*s", (int)(n < 63 ? n : 63), p);
		if (strncmp(tok, "sm_", 3) == 0)
			add_unique(sass, tok);
		else if (strncmp(tok, "compute_", 8) == 0)
			add_unique(ptx, tok);
		p += n;
		if (*p == ']')
			break;
	}
}

/* Compare what was asked with what the binary holds. */
static void check_code(const struct ptb_validate_target *t, const char *exe,
                       cJSON *doc, cJSON *problems)
{
	cJSON *exp = cJSON_AddObjectToObject(doc, "expected");
	cJSON *found = cJSON_AddObjectToObject(doc, "found");
	cJSON *esass = cJSON_AddArrayToObject(exp, "sass");
	cJSON *eptx = cJSON_AddArrayToObject(exp, "ptx");
	cJSON *fsass = cJSON_AddArrayToObject(found, "sass");
	cJSON *fptx = cJSON_AddArrayToObject(found, "ptx");
	cJSON *missing = cJSON_AddArrayToObject(doc, "missing");
	cJSON *extra = cJSON_AddArrayToObject(doc, "unexpected");
	struct ptb_cuda_scan s = { .decode = 1 };
	struct ptb_buf b;
	struct ptb_err err = { 0 };
	const cJSON *g, *e;

	/* What nvcc is asked for: every code= of every -gencode flag. */
	cJSON_ArrayForEach(g, t->gencode)
		if (cJSON_IsString(g))
			gencode_codes(g->valuestring, esass, eptx);
	ptb_buf_init(&b);
	if (ptb_file_read(exe, (size_t)1 << 30, &b, &err) != 0 ||
	    ptb_cuda_scan_buffer(b.data, b.len, &s, &err) != 0) {
		add_problem(problems, "error", "unreadable-binary",
		            "cannot read the fat binary of the test program: %s", err.msg);
	}
	ptb_buf_free(&b);
	for (size_t i = 0; i < s.n; i++) {
		char name[32];

		ptb_cuda_image_name(&s.images[i], name, sizeof name);
		add_unique(s.images[i].kind == PTB_CUDA_PTX ? fptx : fsass, name);
	}
	ptb_cuda_scan_free(&s);
	cJSON_ArrayForEach(e, esass)
		if (!in_array(fsass, e->valuestring))
			add_unique(missing, e->valuestring);
	cJSON_ArrayForEach(e, eptx)
		if (!in_array(fptx, e->valuestring))
			add_unique(missing, e->valuestring);
	cJSON_ArrayForEach(e, fsass)
		if (!in_array(esass, e->valuestring))
			add_unique(extra, e->valuestring);
	cJSON_ArrayForEach(e, fptx)
		if (!in_array(eptx, e->valuestring))
			add_unique(extra, e->valuestring);
	cJSON_ArrayForEach(e, missing)
		add_problem(problems, "error", "missing-code",
		            "the binary lacks %s that the arch list asks for", e->valuestring);
	cJSON_ArrayForEach(e, extra)
		add_problem(problems, "error", "unexpected-code",
		            "the binary holds %s that the arch list does not ask for", e->valuestring);
}

/* key=value lines of the program's output into an object. */
static cJSON *parse_output(const char *text)
{
	cJSON *o = cJSON_CreateObject();

	while (text && *text) {
		const char *nl = strchr(text, '\n'), *eq;
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		eq = memchr(text, '=', len);
		if (eq && eq > text && (size_t)(eq - text) < 64) {
			char *k = ptb_xstrndup(text, (size_t)(eq - text));
			char *v = ptb_xstrndup(eq + 1, len - (size_t)(eq - text) - 1);

			if (!cJSON_GetObjectItemCaseSensitive(o, k))
				cJSON_AddStringToObject(o, k, v);
			free(k);
			free(v);
		}
		text += len + (nl ? 1 : 0);
	}
	return o;
}

static void compare_versions(const cJSON *run, const char *lib, cJSON *problems)
{
	char hk[32], lk[32];
	const char *h, *l;

	snprintf(hk, sizeof hk, "%s_header", lib);
	snprintf(lk, sizeof lk, "%s_library", lib);
	h = ptb_json_str(run, hk);
	l = ptb_json_str(run, lk);
	if (!h || !l || strcmp(h, l) == 0)
		return;
	if (atoi(h) != atoi(l))
		add_problem(problems, "error", strcmp(lib, "cudnn") == 0 ? "cudnn-mismatch" : "cublas-mismatch",
		            "%s header says %s but the library loaded is %s: a different major version (two installs mixed?)",
		            lib, h, l);
	else
		add_problem(problems, "warning", strcmp(lib, "cudnn") == 0 ? "cudnn-mismatch" : "cublas-mismatch",
		            "%s header says %s but the library loaded is %s", lib, h, l);
}

static void run_program(const struct ptb_validate_target *t, const char *exe,
                        const char *dir, const struct ptb_validate_opts *o,
                        cJSON *doc, cJSON *problems)
{
	char *out = ptb_path_join(dir, "run.log"), *text;
	struct ptb_run r;
	struct ptb_err err = { 0 };
	double ms = 0;
	int st;
	cJSON *run;
	const char *e;

	ptb_run_init(&r);
	ptb_argv_push(&r.args, exe);
	st = run_logged(&r, out, o->timeout_s, &ms, &err);
	ptb_run_free(&r);
	text = log_tail(out, 1 << 16);
	run = parse_output(text);
	cJSON_AddNumberToObject(run, "exit", st);
	cJSON_AddNumberToObject(run, "seconds", ms / 1e3);
	cJSON_AddItemToObject(doc, "run", run);
	e = ptb_json_str(run, "error");
	if (st == 3) {
		cJSON_AddBoolToObject(doc, "ran", 0);
		cJSON_AddStringToObject(doc, "not_run_because", e ? e : "no usable GPU");
	} else {
		cJSON_AddBoolToObject(doc, "ran", st == 0 || st == 1);
	}
	if (st < 0)
		add_problem(problems, "error", "kernel-failed", "%s", err.msg);
	else if (st == 124)
		add_problem(problems, "error", "timeout", "the test program ran past %d s and was killed", o->timeout_s);
	else if (st == 4)
		add_problem(problems, "error", "no-kernel-image", "%s", e ? e : "no kernel image for this GPU");
	else if (st == 2 || st > 4)
		add_problem(problems, "error", "kernel-failed", "the test program failed (exit %d): %s", st, e ? e : "no message");
	else if (st == 1)
		add_problem(problems, "error", "wrong-result", "the kernels computed wrong results: saxpy %s, reduction %s",
		            ptb_json_str(run, "saxpy") ? ptb_json_str(run, "saxpy") : "?",
		            ptb_json_str(run, "reduction") ? ptb_json_str(run, "reduction") : "?");
	if (st == 0 || st == 1) {
		const char *bv = ptb_json_str(run, "binary_version");
		const cJSON *fsass = ptb_json_get(doc, "found.sass");
		int how = 0;
		const cJSON *f;

		/* The runtime loads SASS built for the device, or JIT-compiles
		 * PTX for exactly the device: SASS it loaded is one we shipped
		 * when its version is in the binary. */
		cJSON_ArrayForEach(f, fsass) {
			if (bv && strncmp(f->valuestring, "sm_", 3) == 0 &&
			    atoi(f->valuestring + 3) == atoi(bv))
				how = 1;
		}
		cJSON_AddStringToObject(doc, "ran_code", how ? "sass" : "ptx-jit");
	}
	compare_versions(run, "cudnn", problems);
	compare_versions(run, "cublas", problems);
	(void)t;
	free(text);
	free(out);
}

static void add_string_array(cJSON *doc, const char *name, const cJSON *src)
{
	cJSON *a = cJSON_AddArrayToObject(doc, name);
	const cJSON *e;

	cJSON_ArrayForEach(e, src)
		if (cJSON_IsString(e))
			cJSON_AddItemToArray(a, cJSON_CreateString(e->valuestring));
}

static int rm_rf_flat(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char *p;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		p = ptb_path_join(dir, de->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
	return rmdir(dir);
}

/* How many -gencode targets nvcc may compile at once: the CPUs a build
 * may use here as detect read them (the tighter of the online CPUs and
 * the cgroup or affinity limit; at most 16), for an nvcc that knows
 * --threads (11.2+); 1 means leave the flag out. */
static int nvcc_threads(const char *cuda_version, const cJSON *host)
{
	unsigned maj = 0, min = 0;
	const cJSON *lim = ptb_json_get(host, "host.limits.cpus");
	const cJSON *cores = ptb_json_get(host, "host.cpu.cores");
	double n = cJSON_IsNumber(lim) ? lim->valuedouble : cJSON_IsNumber(cores) ? cores->valuedouble : 1;

	if (!cuda_version || sscanf(cuda_version, "%u.%u", &maj, &min) != 2 ||
	    maj < 11 || (maj == 11 && min < 2))
		return 1;
	return n < 1 ? 1 : n > 16 ? 16 : (int)n;
}

/* The cache key: everything that can change the verdict. */
static char *cache_key(const struct ptb_validate_target *t, const struct ptb_validate_opts *o,
                       int want_run, int cublas, int cudnn, const char *driver)
{
	struct ptb_buf key;
	const cJSON *g;
	char src_hex[65];

	ptb_buf_init(&key);
	ptb_buf_printf(&key, "ptbuild.validate/1\nnvcc %s\ncuda %s\nccbin %s\nrun %d\ncublas %d cudnn %d\ndriver %s\n",
	               t->nvcc, t->cuda_version, t->host_compiler ? t->host_compiler : "-",
	               want_run, cublas, cudnn, driver ? driver : "none");
	cJSON_ArrayForEach(g, t->gencode)
		if (cJSON_IsString(g))
			ptb_buf_printf(&key, "flag %s\n", g->valuestring);
	gpu_identity(o->host, &key);
	sha_hex(ptb_validate_cu, src_hex);
	ptb_buf_printf(&key, "source %s\n", src_hex);
	return key.data;
}

/* A verdict cached earlier (passes only), marked cached; or NULL. */
static cJSON *cached(const struct ptb_validate_opts *o, const char *cpath)
{
	struct ptb_buf b;
	struct ptb_err e2 = { 0 };
	cJSON *doc = NULL;

	if (!cpath || o->force || !ptb_path_is_file(cpath))
		return NULL;
	ptb_buf_init(&b);
	if (ptb_file_read(cpath, 1 << 20, &b, &e2) == 0 &&
	    (doc = ptb_json_parse(b.data, b.len, cpath, &e2)) && !cJSON_IsObject(doc)) {
		cJSON_Delete(doc);
		doc = NULL;
	}
	if (doc)
		cJSON_ReplaceItemInObjectCaseSensitive(doc, "cached", cJSON_CreateTrue());
	ptb_buf_free(&b);
	return doc;
}

/* The work directory: --keep's or the caller's, else a fresh one under
 * $TMPDIR.  NULL with err. */
static char *work_dir(const struct ptb_validate_opts *o, struct ptb_err *err)
{
	const char *tmp = getenv("TMPDIR");
	char *dir;

	if (o->work_dir) {
		dir = ptb_xstrdup(o->work_dir);
		if (ptb_mkdir_p(dir, 0700, err) != 0) {
			free(dir);
			return NULL;
		}
		return dir;
	}
	dir = ptb_xasprintf("%s/ptbuild-validate.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ptb_err_set(err, PTB_EIO, "cannot create a directory like '%s': %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

/* The document before anything ran: what is validated, with what. */
static cJSON *new_doc(const struct ptb_validate_target *t, const char *driver)
{
	cJSON *doc = cJSON_CreateObject(), *c;

	cJSON_AddStringToObject(doc, "schema", "ptbuild.validate/1");
	cJSON_AddStringToObject(doc, "result", "fail");
	cJSON_AddBoolToObject(doc, "cached", 0);
	c = cJSON_AddObjectToObject(doc, "cuda");
	cJSON_AddStringToObject(c, "root", t->cuda_root);
	cJSON_AddStringToObject(c, "nvcc", t->nvcc);
	cJSON_AddStringToObject(c, "version", t->cuda_version);
	cJSON_AddStringToObject(doc, "torch_cuda_arch_list", t->arch_list);
	add_string_array(doc, "gencode", t->gencode);
	if (driver)
		cJSON_AddStringToObject(doc, "driver", driver);
	else
		cJSON_AddNullToObject(doc, "driver");
	cJSON_AddArrayToObject(doc, "problems");
	return doc;
}

/* To run: nvcc -o exe src FLAGS -cudart shared (the runtime stays a
 * shared library, so the program holds only its own fat binaries).  To
 * check the code only: one object, no link (-c): its relocatable fat
 * binary holds the same images.  nvcc compiles the -gencode targets in
 * parallel with --threads (CUDA 11.2 on).  NULL-terminated; caller frees
 * each and the array. */
static char **nvcc_argv(const struct ptb_validate_target *t, const struct ptb_validate_opts *o,
                        int want_run, int cublas, int cudnn, const char *exe, const char *src)
{
	size_t argc = 0, nargs = (size_t)cJSON_GetArraySize(t->gencode) + 24;
	char **argv = ptb_xcalloc(nargs, sizeof *argv), *libdir_owned;
	const char *libdir = lib_dir(t->cuda_root, &libdir_owned);
	int threads = nvcc_threads(t->cuda_version, o->host);
	const cJSON *g;

	argv[argc++] = ptb_xstrdup(t->nvcc);
	argv[argc++] = ptb_xstrdup("-O2");
	if (threads > 1) {
		argv[argc++] = ptb_xstrdup("--threads");
		argv[argc++] = ptb_xasprintf("%d", threads);
	}
	if (!want_run)
		argv[argc++] = ptb_xstrdup("-c");
	argv[argc++] = ptb_xstrdup("-o");
	argv[argc++] = ptb_xstrdup(exe);
	argv[argc++] = ptb_xstrdup(src);
	cJSON_ArrayForEach(g, t->gencode)
		if (cJSON_IsString(g))
			argv[argc++] = ptb_xstrdup(g->valuestring);
	if (want_run) {
		argv[argc++] = ptb_xstrdup("-cudart");
		argv[argc++] = ptb_xstrdup("shared");
		argv[argc++] = ptb_xasprintf("-L%s", libdir);
		argv[argc++] = ptb_xstrdup("-Xlinker");
		argv[argc++] = ptb_xasprintf("-rpath=%s", libdir);
	}
	if (t->host_compiler) {
		argv[argc++] = ptb_xstrdup("-ccbin");
		argv[argc++] = ptb_xstrdup(t->host_compiler);
	}
	if (cublas) {
		argv[argc++] = ptb_xstrdup("-DPTB_CUBLAS");
		argv[argc++] = ptb_xstrdup("-lcublas");
	}
	if (cudnn) {
		argv[argc++] = ptb_xstrdup("-DPTB_CUDNN");
		argv[argc++] = ptb_xstrdup("-lcudnn");
	}
	free(libdir_owned);
	return argv;
}

/* Compile (its command, exit and time in doc.compile), then check the
 * binary and, when wanted, run it. */
static void compile_and_run(const struct ptb_validate_target *t, const struct ptb_validate_opts *o,
                            int want_run, int cublas, int cudnn, const char *dir,
                            cJSON *doc, struct ptb_err *err)
{
	char *src = ptb_path_join(dir, "ptb_validate.cu");
	char *exe = ptb_path_join(dir, want_run ? "ptb_validate" : "ptb_validate.o");
	char *log = ptb_path_join(dir, "nvcc.log"), *path;
	char **argv = nvcc_argv(t, o, want_run, cublas, cudnn, exe, src);
	cJSON *problems = cJSON_GetObjectItemCaseSensitive(doc, "problems");
	cJSON *compile = cJSON_AddObjectToObject(doc, "compile");
	struct ptb_buf cmd;
	struct ptb_run r;
	double ms = 0;
	int st;

	ptb_buf_init(&cmd);
	for (size_t i = 0; argv[i]; i++)
		ptb_buf_printf(&cmd, "%s%s", i ? " " : "", argv[i]);
	cJSON_AddStringToObject(compile, "command", cmd.data);
	ptb_buf_free(&cmd);
	cJSON_AddBoolToObject(compile, "cublas", cublas);
	cJSON_AddBoolToObject(compile, "cudnn", cudnn);
	ptb_run_init(&r);
	for (size_t i = 0; argv[i]; i++)
		ptb_argv_push(&r.args, argv[i]);
	path = nvcc_path(t->nvcc);
	ptb_argv_pushf(&r.env, "PATH=%s", path);
	free(path);
	st = run_logged(&r, log, o->timeout_s * 10, &ms, err);
	ptb_run_free(&r);
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
	cJSON_AddNumberToObject(compile, "exit", st);
	cJSON_AddNumberToObject(compile, "seconds", ms / 1e3);
	if (st != 0) {
		char *tail = log_tail(log, 2000);

		cJSON_AddStringToObject(compile, "log_tail", tail);
		add_problem(problems, "error", "nvcc-failed", st == 124 ?
		            "nvcc ran past its time limit" : "nvcc failed (exit %d)", st);
		free(tail);
		cJSON_AddBoolToObject(doc, "ran", 0);
		cJSON_AddStringToObject(doc, "not_run_because", "the test program did not compile");
	} else {
		check_code(t, exe, doc, problems);
		if (want_run) {
			run_program(t, exe, dir, o, doc, problems);
		} else {
			cJSON_AddBoolToObject(doc, "ran", 0);
			cJSON_AddStringToObject(doc, "not_run_because", o->compile_only ?
			                        "--compile-only" :
			                        "no NVIDIA driver on this machine (/proc/driver/nvidia/version is absent)");
		}
	}
	free(src);
	free(exe);
	free(log);
}

/* pass when no problem is an error; a pass is cached (a failure is worth
 * retrying after a fix). */
static void verdict(cJSON *doc, const char *cpath)
{
	int errors = 0;
	const cJSON *p;

	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(doc, "problems")) {
		const char *sev = ptb_json_str(p, "severity");

		errors += sev && strcmp(sev, "error") == 0;
	}
	if (errors)
		return;
	cJSON_ReplaceItemInObjectCaseSensitive(doc, "result", cJSON_CreateString("pass"));
	if (cpath) {
		struct ptb_buf b;
		struct ptb_err e2 = { 0 };
		char *cdir = ptb_xstrdup(cpath), *slash = strrchr(cdir, '/');

		if (slash)
			*slash = '\0';
		ptb_buf_init(&b);
		ptb_json_print(doc, 1, &b);
		if (ptb_mkdir_p(cdir, 0700, &e2) == 0)
			ptb_file_write_atomic(cpath, b.data, b.len, 0600, 0, NULL, &e2);
		ptb_buf_free(&b);
		free(cdir);
	}
}

cJSON *ptb_validate_run(const struct ptb_validate_target *t,
                        const struct ptb_validate_opts *o, struct ptb_err *err)
{
	/* the driver detect saw (its version), if any */
	const char *driver = ptb_json_str(o->host, "driver.version");
	int want_run = !o->compile_only && (driver || o->run_without_gpu);
	int cublas, cudnn;
	char *key, *cpath, *dir, *src;
	cJSON *doc;

	/* cuBLAS and cuDNN are checked by running (header against library
	 * version); a compile that runs nothing leaves them out. */
	cublas = want_run && have(t->cuda_root, "include/cublas_v2.h") &&
	         (have(t->cuda_root, "lib64/libcublas.so") || have(t->cuda_root, "lib/libcublas.so"));
	cudnn = want_run && have(t->cuda_root, "include/cudnn.h") &&
	        (have(t->cuda_root, "lib64/libcudnn.so") || have(t->cuda_root, "lib/libcudnn.so"));
	key = cache_key(t, o, want_run, cublas, cudnn, driver);
	cpath = cache_path(o, key);
	free(key);
	if ((doc = cached(o, cpath))) {
		free(cpath);
		return doc;
	}
	if (!(dir = work_dir(o, err))) {
		free(cpath);
		return NULL;
	}
	src = ptb_path_join(dir, "ptb_validate.cu");
	if (ptb_file_write_atomic(src, ptb_validate_cu, strlen(ptb_validate_cu), 0644, 0, NULL, err) != 0) {
		free(src);
		free(dir);
		free(cpath);
		return NULL;
	}
	free(src);
	doc = new_doc(t, driver);
	compile_and_run(t, o, want_run, cublas, cudnn, dir, doc, err);
	verdict(doc, cpath);
	if (o->keep || o->work_dir)
		cJSON_AddStringToObject(doc, "work_dir", dir);
	else
		rm_rf_flat(dir);
	free(dir);
	free(cpath);
	return doc;
}
