/* validate.c - `ptbuild validate`: compile (and where a GPU is present, run)
 * a test kernel with the toolkit and arch list a build would use. */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/plan.h"
#include "util/json.h"
#include "util/run.h"
#include "validate/validate.h"

const struct ptb_cmd ptb_cmd_validate_def = {
	"validate", ptb_cmd_validate,
	"compile and run a test kernel with the toolkit and arch list a build uses",
	"ptbuild validate [plan options] [--cuda-home DIR] [--arch-list LIST] [--compile-only] [--force] [--json]",
	"Compiles a test program (saxpy and a reduction over 2^20 elements, checked\n"
	"on the host) with the toolkit's nvcc and the -gencode flags of the arch\n"
	"list, and checks that its fat binary holds exactly the SASS and PTX asked\n"
	"for.  With a GPU and driver it runs the program and reports the\n"
	"architecture the kernel ran (__CUDA_ARCH__), the device's compute\n"
	"capability, runtime and driver versions, whether the GPU ran SASS built\n"
	"for it or JIT-compiled PTX, and cuBLAS/cuDNN header vs library versions.\n"
	"\n"
	"What is built: --arch-list when given; else the plan's arch list and\n"
	"toolkit (the plan for this host, or for --facts / --profile / --torch /\n"
	"--cuda as 'ptbuild plan' makes it).  With a GPU and no plan options, the\n"
	"GPU's own compute capability.\n"
	"\n"
	PTB_PLAN_HELP
	"  --cuda-home DIR   the toolkit (default: the plan's when it is installed,\n"
	"                    else $CUDA_HOME, the nvcc on PATH, /usr/local/cuda)\n"
	"  --ccbin PATH      host compiler for nvcc\n"
	"  --compile-only    build and check the binary, run nothing\n"
	"  --force           ignore the cached result\n"
	"  --timeout SEC     limit for the program run (default 60; nvcc: 10x)\n"
	"  --keep            keep the work directory (its path is printed)\n"
	"  --json            the ptbuild.validate/1 document\n"
	"\n"
	"Results that pass are cached under $XDG_CACHE_HOME/ptbuild/validate/,\n"
	"keyed by toolkit, flags, driver and GPU.\n"
	"\n"
	"A plan's toolkit is the only one that proves it: when the nvcc found\n"
	"(the plan's root when installed, else --cuda-home, $CUDA_HOME, PATH) is\n"
	"another CUDA release than the plan's, validate fails without compiling.\n"
	"\n"
	"Exit status: 0 pass, 1 the arch list cannot be built by this toolkit,\n"
	"2 usage, 5 validation failed (nvcc of another CUDA release than the\n"
	"plan's, nvcc failed, code missing from the binary, the kernel failed or\n"
	"computed a wrong result).\n",
};

struct opts {
	struct ptb_plan_opts p;
	int plan_opts;               /* a plan option other than --arch-list */
	const char *cuda_home, *arch_list, *ccbin;
	int compile_only, force, json, keep, run_without_gpu;
	int timeout;
};

static int handle(void *state, int c, const char *arg)
{
	struct opts *o = state;
	char *end;
	long v;
	int r = ptb_plan_opt(&o->p, "validate", c, arg);

	if (r < 0)
		return PTB_EUSAGE;
	if (r > 0) {
		if (o->p.arch_list)
			o->arch_list = o->p.arch_list;
		if (c != PTB_OPT_PLAN + 5)
			o->plan_opts = 1;
		return 0;
	}
	switch (c) {
	case 'C': o->cuda_home = arg; return 0;
	case 'b': o->ccbin = arg; return 0;
	case 'c': o->compile_only = 1; return 0;
	case 'f': o->force = 1; return 0;
	case 'j': o->json = 1; return 0;
	case 'k': o->keep = 1; return 0;
	case 'R': o->run_without_gpu = 1; return 0;
	case 't':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end || v < 1 || v > 86400)
			return ptb_cli_usage("validate", "bad --timeout value '%s' (seconds, 1 to 86400)", arg);
		o->timeout = (int)v;
		return 0;
	}
	return PTB_EUSAGE;
}

/* The toolkit root: --cuda-home, $CUDA_HOME, the nvcc on PATH, or
 * /usr/local/cuda.  Caller frees. */
static char *find_cuda_home(const char *opt)
{
	const char *env = getenv("CUDA_HOME"), *path = getenv("PATH");

	if (opt)
		return ptb_xstrdup(opt);
	if (env && *env)
		return ptb_xstrdup(env);
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		char *dir = ptb_xstrndup(path, n), *nvcc = ptb_path_join(dir, "nvcc");

		if (n && access(nvcc, X_OK) == 0) {
			char real[PATH_MAX];
			char *root = NULL, *slash;

			if (realpath(nvcc, real)) {
				/* <root>/bin/nvcc */
				if ((slash = strrchr(real, '/')))
					*slash = '\0';
				if ((slash = strrchr(real, '/')))
					*slash = '\0';
				root = ptb_xstrdup(real);
			}
			free(dir);
			free(nvcc);
			if (root)
				return root;
		} else {
			free(dir);
			free(nvcc);
		}
		path = colon ? colon + 1 : NULL;
	}
	return ptb_xstrdup("/usr/local/cuda");
}

/* Run argv[0] with argv, stdout and stderr captured (at most cap bytes),
 * at most timeout_s: the exit status, 128 + a signal, 124 for the time
 * limit, or -1 with err when it could not start. */
static int run_captured(const char *const *argv, int timeout_s, size_t cap,
                        struct ptb_buf *out, struct ptb_err *err)
{
	struct ptb_run r;
	int st = -1;

	ptb_run_init(&r);
	for (size_t i = 0; argv[i]; i++)
		ptb_argv_push(&r.args, argv[i]);
	r.out_to = PTB_RUN_CAPTURE;
	r.err_to = PTB_RUN_TO_OUT;
	r.cap = cap;
	r.timeout_ms = timeout_s * 1000;
	if (ptb_run(&r, err) == 0) {
		st = ptb_run_code(&r);
		ptb_buf_adds(out, r.out.data);
	}
	ptb_run_free(&r);
	return st;
}

/* "13.0" from `nvcc --version` ("... release 13.0, V13.0.88"). */
static char *nvcc_release(const char *nvcc, struct ptb_err *err)
{
	const char *argv[] = { nvcc, "--version", NULL };
	struct ptb_buf b;
	int st;
	char *rel = NULL, *p;

	ptb_buf_init(&b);
	st = run_captured(argv, 60, 1 << 16, &b, err);
	if (st == 0 && (p = strstr(b.data, "release "))) {
		size_t n;

		p += 8;
		n = strspn(p, "0123456789.");
		if (n)
			rel = ptb_xstrndup(p, n);
	}
	if (!rel && st >= 0)
		ptb_err_set(err, PTB_EUSAGE, "cannot read the CUDA release from '%s --version' (exit %d)", nvcc, st);
	ptb_buf_free(&b);
	return rel;
}

/* Do two CUDA versions ("12.6", "12.6.3") name the same X.Y release? */
static int same_minor(const char *a, const char *b)
{
	unsigned long a1, a2, b1, b2;
	char *end;

	a1 = strtoul(a, &end, 10);
	a2 = *end == '.' ? strtoul(end + 1, NULL, 10) : 0;
	b1 = strtoul(b, &end, 10);
	b2 = *end == '.' ? strtoul(end + 1, NULL, 10) : 0;
	return a1 == b1 && a2 == b2;
}

/* The first GPU's capability in __nvcc_device_query's output: "90",
 * "86,90" or "9.0"; NULL when there is none. */
static char *parse_query(const char *s)
{
	long a, b;
	char *end;

	while (*s && (*s < '0' || *s > '9'))
		s++;
	if (!*s)
		return NULL;
	a = strtol(s, &end, 10);
	if (*end == '.' && end[1] >= '0' && end[1] <= '9') {
		b = strtol(end + 1, NULL, 10);
		if (a >= 1 && a <= 99 && b >= 0 && b <= 9)
			return ptb_xasprintf("%ld.%ld", a, b);
		return NULL;
	}
	if (a >= 10 && a <= 999)
		return ptb_xasprintf("%ld.%ld", a / 10, a % 10);
	return NULL;
}

/* The GPU's compute capability through the toolkit's own helper
 * (__nvcc_device_query, what -arch=native uses): "9.0", or NULL. */
static char *native_arch(const char *cuda_root)
{
	char *q = ptb_path_join(cuda_root, "bin/__nvcc_device_query");
	const char *argv[] = { q, NULL };
	struct ptb_err err = { 0 };
	struct ptb_buf b;
	char *cc = NULL;

	ptb_buf_init(&b);
	if (access(q, X_OK) == 0 && run_captured(argv, 30, 4096, &b, &err) == 0)
		cc = parse_query(b.data);
	ptb_buf_free(&b);
	free(q);
	return cc;
}

/* The GPU's own compute capability, when a driver is present. */
static char *native_arch_of_env(const char *cuda_home)
{
	char *root, *cc;

	if (!ptb_validate_driver_present(NULL))
		return NULL;
	root = find_cuda_home(cuda_home);
	cc = native_arch(root);
	free(root);
	return cc;
}

/* What to validate: the toolkit and arch list from --cuda-home and
 * --arch-list, else the plan's (ptb_plan_make: cuda.root, cuda.version,
 * torch_cuda_arch_list, cmake.CMAKE_CUDA_HOST_COMPILER) when plan options
 * are given or no GPU answers; the flags from arch.convert.  On success
 * the caller frees *conv (arch.convert's document) and the strings in
 * *owned.  Returns -1 to go on, or an exit status. */
static int validate_target_from_options(struct ptb_ctx *ctx, const struct opts *o,
                                        struct ptb_validate_target *t,
                                        cJSON **conv, char *owned[8])
{
	struct ptb_err err = { 0 };
	struct ptb_lua *lua;
	cJSON *args;
	const cJSON *errors;
	int rc;

	*conv = NULL;
	/* The plan decides the arch list (and toolkit, when it is installed
	 * here) unless --arch-list was given alone, or a GPU can answer. */
	if (o->plan_opts || (!o->arch_list && !(owned[3] = native_arch_of_env(o->cuda_home)))) {
		cJSON *plan = NULL;

		if (ptb_plan_make(ctx, &o->p, &plan, NULL, &err) != 0)
			return ptb_report(&err);
		const char *list = ptb_json_str(plan, "torch_cuda_arch_list");
		const char *root = ptb_json_str(plan, "cuda.root");
		const char *hc = ptb_json_str(plan, "cmake.CMAKE_CUDA_HOST_COMPILER");
		const char *ver = ptb_json_str(plan, "cuda.version");
		if (list)
			owned[4] = ptb_xstrdup(list);
		/* The toolkit must be the plan's: "plan root|version". */
		if (ver)
			owned[7] = ptb_xasprintf("%s|%s", root ? root : "", ver);
		if (!o->cuda_home && root) {
			char *nv = ptb_path_join(root, "bin/nvcc");
			if (access(nv, X_OK) == 0)
				owned[5] = ptb_xstrdup(root);
			else
				ptb_note("the plan's toolkit %s is not installed here: looking for another CUDA %s", root, ver ? ver : "?");
			free(nv);
		}
		if (!o->ccbin && hc && access(hc, X_OK) == 0)
			owned[6] = ptb_xstrdup(hc);
		ptb_note("validating the plan (%s): TORCH_CUDA_ARCH_LIST=%s",
		         ptb_json_str(plan, "facts_source") ? ptb_json_str(plan, "facts_source") : "host",
		         list ? list : "?");
		cJSON_Delete(plan);
		free(owned[3]);
		owned[3] = NULL;
	}
	owned[0] = find_cuda_home(owned[5] ? owned[5] : o->cuda_home);
	owned[1] = ptb_path_join(owned[0], "bin/nvcc");
	t->cuda_root = owned[0];
	t->nvcc = owned[1];
	t->host_compiler = o->ccbin ? o->ccbin : owned[6];
	if (access(t->nvcc, X_OK) != 0) {
		ptb_error("no nvcc at '%s'", t->nvcc);
		ptb_hint("point --cuda-home (or CUDA_HOME) at a CUDA toolkit, the directory holding bin/nvcc");
		return PTB_EUSAGE;
	}
	owned[2] = nvcc_release(t->nvcc, &err);
	if (!owned[2])
		return ptb_report(&err);
	t->cuda_version = owned[2];
	if (owned[7]) {
		const char *ver = strchr(owned[7], '|') + 1;

		if (!same_minor(ver, t->cuda_version)) {
			*strchr(owned[7], '|') = '\0';
			ptb_error("the plan is for CUDA %s, but '%s' is CUDA %s: validating with it would not prove the plan",
			          ver, t->nvcc, t->cuda_version);
			if (*owned[7])
				ptb_hint("install the plan's toolkit ('ptbuild fetch --prefix %s' with the same plan options), or point --cuda-home (or CUDA_HOME) at a CUDA %s toolkit",
				         owned[7], ver);
			else
				ptb_hint("point --cuda-home (or CUDA_HOME) at a CUDA %s toolkit", ver);
			return PTB_EVALID;
		}
	}
	if (o->arch_list) {
		t->arch_list = o->arch_list;
	} else if (owned[4]) {
		t->arch_list = owned[4];
	} else if (owned[3] || (owned[3] = native_arch(t->cuda_root))) {
		t->arch_list = owned[3];
		ptb_note("no --arch-list: using this machine's GPU, compute capability %s", owned[3]);
	} else {
		ptb_error("no GPU found to take the arch list from");
		ptb_hint("give one, for example --arch-list '8.0;9.0+PTX' (ptbuild arch explains the forms)");
		return PTB_EUSAGE;
	}
	lua = ptb_ctx_lua(ctx, &err);
	if (!lua)
		return ptb_report(&err);
	args = cJSON_CreateObject();
	cJSON_AddStringToObject(args, "list", t->arch_list);
	cJSON_AddStringToObject(args, "cuda", t->cuda_version);
	rc = ptb_lua_call(lua, "arch", "convert", args, conv, &err);
	cJSON_Delete(args);
	if (rc != 0)
		return ptb_report(&err);
	errors = cJSON_GetObjectItemCaseSensitive(*conv, "errors");
	if (cJSON_IsArray(errors) && cJSON_GetArraySize(errors) > 0)
		return ptb_cmd_report_errors(errors);
	t->gencode = cJSON_GetObjectItemCaseSensitive(*conv, "gencode");
	if (!cJSON_IsArray(t->gencode)) {
		ptb_err_set(&err, PTB_ERECIPE, "recipe 'arch.convert' returned no gencode flags");
		return ptb_report(&err);
	}
	if (ptb_json_str(*conv, "torch_cuda_arch_list"))
		t->arch_list = ptb_json_str(*conv, "torch_cuda_arch_list");
	{
		const cJSON *n;

		cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(*conv, "notes"))
			if (cJSON_IsString(n))
				ptb_note("%s", n->valuestring);
		ptb_cmd_print_warnings(cJSON_GetObjectItemCaseSensitive(*conv, "warnings"));
	}
	return -1;
}

static void print_list(const char *label, const cJSON *arr)
{
	const cJSON *e;

	printf("%-22s", label);
	if (!cJSON_GetArraySize(arr))
		printf("none");
	cJSON_ArrayForEach(e, arr)
		printf("%s%s", e == arr->child ? "" : " ", e->valuestring);
	putchar('\n');
}

static void print_text(const cJSON *d)
{
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(d, "run");
	const cJSON *p, *secs;
	const char *s;

	printf("toolkit               CUDA %s at %s\n", ptb_json_str(d, "cuda.version"),
	       ptb_json_str(d, "cuda.root"));
	printf("arch list             %s\n", ptb_json_str(d, "torch_cuda_arch_list"));
	secs = ptb_json_get(d, "compile.seconds");
	printf("compile               %s in %.1f s%s\n",
	       cJSON_GetNumberValue(ptb_json_get(d, "compile.exit")) == 0 ? "ok" : "FAILED",
	       secs ? cJSON_GetNumberValue(secs) : 0.0,
	       cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "cached")) ? " (cached result)" : "");
	if (cJSON_GetObjectItemCaseSensitive(d, "found")) {
		print_list("binary holds SASS", ptb_json_get(d, "found.sass"));
		print_list("binary holds PTX", ptb_json_get(d, "found.ptx"));
	}
	if ((s = ptb_json_str(d, "not_run_because")) && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "ran"))) {
		printf("ran                   nothing ran: %s\n", s);
	}
	if (run) {
		static const char *const keys[][2] = {
			{ "device", "device" }, { "compute_capability", "compute capability" },
			{ "arch_ran", "__CUDA_ARCH__ ran" }, { "runtime", "CUDA runtime" },
			{ "driver_cuda", "driver supports CUDA" }, { "saxpy", "saxpy (2^20)" },
			{ "reduction", "reduction (2^20)" }, { "kernel_ms", "kernels (ms)" },
			{ "cublas_header", "cuBLAS header" }, { "cublas_library", "cuBLAS library" },
			{ "cudnn_header", "cuDNN header" }, { "cudnn_library", "cuDNN library" },
		};

		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if ((s = ptb_json_str(run, keys[i][0])))
				printf("%-22s%s\n", keys[i][1], s);
		if ((s = ptb_json_str(d, "ran_code")))
			printf("%-22s%s\n", "code that ran", strcmp(s, "sass") == 0 ?
			       "SASS built for this GPU" : "PTX, JIT-compiled by the driver (no SASS for this GPU)");
		printf("%-22s%.2f s\n", "run", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(run, "seconds")));
	}
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(d, "problems")) {
		const char *sev = ptb_json_str(p, "severity");

		if (sev && strcmp(sev, "error") == 0)
			ptb_error("%s", ptb_json_str(p, "message"));
		else
			ptb_warn("%s", ptb_json_str(p, "message"));
	}
	if ((s = ptb_json_str(d, "compile.log_tail")) && *s)
		fprintf(stderr, "nvcc said:\n%s%s", s, s[strlen(s) - 1] == '\n' ? "" : "\n");
	if ((s = ptb_json_str(d, "work_dir")))
		printf("work directory        %s\n", s);
	printf("result                %s\n", strcmp(ptb_json_str(d, "result"), "pass") == 0 ? "PASS" : "FAIL");
}

int ptb_cmd_validate(struct ptb_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		PTB_PLAN_OPTIONS,
		{ "cuda-home", required_argument, NULL, 'C' },
		{ "ccbin", required_argument, NULL, 'b' },
		{ "compile-only", no_argument, NULL, 'c' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "keep", no_argument, NULL, 'k' },
		{ "timeout", required_argument, NULL, 't' },
		/* For tests: run the program even with no driver in sight. */
		{ "run-without-gpu", no_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .timeout = 60 };
	struct ptb_validate_target t = { 0 };
	struct ptb_validate_opts vo = { 0 };
	struct ptb_err err = { 0 };
	char *owned[8] = { NULL };
	cJSON *conv = NULL, *doc;
	int rc;

	rc = ptb_cmd_getopt(ctx, &ptb_cmd_validate_def, argc, argv, "", longopts, handle, &o);
	if (rc >= 0)
		return rc;
	if (optind < argc)
		return ptb_cli_usage("validate", "unexpected argument '%s'", argv[optind]);
	rc = validate_target_from_options(ctx, &o, &t, &conv, owned);
	if (rc < 0) {
		vo.compile_only = o.compile_only;
		vo.run_without_gpu = o.run_without_gpu;
		vo.force = o.force;
		vo.timeout_s = o.timeout;
		vo.keep = o.keep;
		doc = ptb_validate_run(&t, &vo, &err);
		if (!doc) {
			rc = ptb_report(&err);
		} else {
			if (o.json)
				ptb_cmd_print_json(doc);
			else
				print_text(doc);
			rc = strcmp(ptb_json_str(doc, "result"), "pass") == 0 ? 0 : PTB_EVALID;
			cJSON_Delete(doc);
		}
	}
	cJSON_Delete(conv);
	for (int i = 0; i < 8; i++)
		free(owned[i]);
	return rc;
}
