/* validate.c - `ptbuild validate`: compile (and where a GPU is present, run)
 * a test kernel with the toolkit and arch list a build would use. */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fleet.h"
#include "core/plan.h"
#include "detect/detect.h"
#include "util/json.h"
#include "validate/validate.h"

struct opts {
	struct ptb_plan_opts p;
	int plan_opts;               /* a plan option other than --arch-list */
	const char *cuda_home, *arch_list, *ccbin;
	int compile_only, force, json, keep, run_without_gpu;
	int timeout;
};

static int set_timeout(const struct ptb_opt_arg *a)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(a->arg, &end, 10);
	if (errno || end == a->arg || *end || v < 1 || v > 86400)
		return ptb_cli_usage("validate", "bad --timeout value '%s' (seconds, 1 to 86400)", a->arg), -1;
	*PTB_OPT_FIELD(a, int) = (int)v;
	return 0;
}

#define AT(field) .off = offsetof(struct opts, field)

static const struct ptb_opt options[] = {
	{ .group = ptb_cmd_plan_options, AT(p) },
	{ .group = ptb_cmd_fleet_options, AT(p) },
	{ .name = "cuda-home", .arg = "DIR", AT(cuda_home),
	  .help = "the toolkit (default: the plan's when it is installed, else "
	          "$CUDA_HOME, the nvcc on PATH, /usr/local/cuda)" },
	{ .name = "ccbin", .arg = "PATH", AT(ccbin),
	  .help = "host compiler for nvcc" },
	{ .name = "compile-only", AT(compile_only),
	  .help = "build and check the binary, run nothing" },
	{ .name = "force", AT(force),
	  .help = "ignore the cached result" },
	{ .name = "timeout", .arg = "SEC", AT(timeout), .set = set_timeout,
	  .help = "limit for the program run and each nvcc GPU list (default 60; nvcc's compile: 10x)" },
	{ .name = "keep", AT(keep),
	  .help = "keep the work directory (its path is printed)" },
	{ .name = "json", AT(json),
	  .help = "the ptbuild.validate/1 document" },
	/* For tests: run the program even with no driver in sight. */
	{ .name = "run-without-gpu", AT(run_without_gpu), .flags = PTB_OPT_HIDDEN },
	{ 0 },
};

#undef AT

const struct ptb_cmd ptb_cmd_validate_def = {
	.name = "validate", .run = ptb_cmd_validate,
	.summary = "compile and run a test kernel with the toolkit and arch list a build uses",
	.usage = "ptbuild validate [plan options] [--cuda-home DIR] [--arch-list LIST] [--compile-only] [--force] [--json]",
	.intro =
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
	"compute capability of every kind of GPU detect sees here.\n"
	"\n"
	"A fleet (several --facts, or a directory of them): every build of the\n"
	"fleet plan is compiled, compile-only (the fleet's GPUs are not here),\n"
	"with its own arch list and a toolkit here of its CUDA release:\n"
	"--cuda-home, else the build's root when installed here, else $CUDA_HOME.  A\n"
	"build with no such toolkit is not validated: it is named with the reason\n"
	"and how to get one.  --json gives ptbuild.validate-fleet/1: builds[],\n"
	"each {platform, nodes, cuda, torch_cuda_arch_list, result (pass, fail,\n"
	"not-validated), reason, fix, validate (the build's ptbuild.validate/1)}.\n",
	.options = options,
	.epilog =
	"Results that pass are cached under $XDG_CACHE_HOME/ptbuild/validate/,\n"
	"keyed by toolkit, flags, driver and GPU.\n"
	"\n"
	"A plan's toolkit is the only one that proves it: when the nvcc found\n"
	"(the plan's root when installed, else --cuda-home, $CUDA_HOME, PATH) is\n"
	"another CUDA release than the plan's, validate fails without compiling.\n"
	"\n"
	"The arch list is judged against ptbuild's GPU list of the toolkit's\n"
	"release.  Where that list is assumed (a copy of the release before it)\n"
	"or missing (a release newer than ptbuild knows), the toolkit's nvcc is\n"
	"asked instead, once ('nvcc --list-gpu-arch' and '--list-gpu-code', each\n"
	"within --timeout): the output says so (--json: gpu_list.from \"nvcc\"),\n"
	"and a note names where nvcc and ptbuild's copy differ.  An nvcc that\n"
	"cannot answer is warned of once, and the copy judges; for a release\n"
	"ptbuild does not know nothing can judge the arch list (exit 3).\n"
	"\n"
	"Exit status: 0 pass, 1 the arch list cannot be built by this toolkit,\n"
	"2 usage, 3 a CUDA release ptbuild does not know whose nvcc cannot list\n"
	"its GPUs, 5 validation failed (nvcc of another CUDA release than the\n"
	"plan's, nvcc failed, code missing from the binary, the kernel failed or\n"
	"computed a wrong result).  A fleet: 5 when any build failed, else 1\n"
	"when any build could not be validated here (no toolkit of its CUDA\n"
	"release), 0 when every build was validated and passed.\n",
};

/* path as an absolute path (a relative --cuda-home is from here); caller
 * frees. */
static char *absolute(const char *path)
{
	char cwd[4096];

	if (path[0] != '/' && getcwd(cwd, sizeof cwd))
		return ptb_path_join(cwd, path);
	return ptb_xstrdup(path);
}

/* This host as detect sees it: the driver, the GPUs, the toolkits (with
 * `given`, the --cuda-home directory, among them), the nvcc on PATH; an
 * nvcc detect asks for its GPU list is given timeout_s (--timeout) a list. */
static cJSON *host_facts(struct ptb_ctx *ctx, const char *given, int timeout_s, struct ptb_err *err)
{
	struct ptb_detect_opts d = { .lua = ptb_ctx_lua(ctx, err), .gpu_list_timeout_s = timeout_s };
	char *abs = given ? absolute(given) : NULL;
	cJSON *f = NULL;

	d.toolkit = abs;
	if (d.lua)
		f = ptb_detect(&d, err);
	free(abs);
	return f;
}

/* Does toolkit t of the facts stand at want (its root or an alias)? */
static int names_root(const cJSON *t, const char *want)
{
	const char *r = ptb_json_str(t, "root");
	const cJSON *a;
	int hit = r && strcmp(r, want) == 0;

	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(t, "aliases"))
		hit |= cJSON_IsString(a) && strcmp(a->valuestring, want) == 0;
	return hit;
}

/* Read the toolkit at root (absolute) into host's facts when detect did
 * not list it: detect again for the toolkits alone (the driver and GPUs
 * are not probed twice) and move that one entry over.  -1 with err when
 * detect fails; 0 otherwise, whether or not root holds a toolkit. */
static int read_toolkit(struct ptb_ctx *ctx, cJSON *host, const char *root, int timeout_s,
                        struct ptb_err *err)
{
	struct ptb_detect_opts d = { .lua = ptb_ctx_lua(ctx, err), .toolkit = root, .toolkits_only = 1,
	                               .gpu_list_timeout_s = timeout_s };
	cJSON *f, *tks, *t, *mine = cJSON_GetObjectItemCaseSensitive(host, "toolkits");
	int i = 0;

	if (!d.lua || !(f = ptb_detect(&d, err)))
		return -1;
	if (!cJSON_IsArray(mine)) {
		cJSON_DeleteItemFromObjectCaseSensitive(host, "toolkits");
		mine = cJSON_AddArrayToObject(host, "toolkits");
	}
	tks = cJSON_GetObjectItemCaseSensitive(f, "toolkits");
	cJSON_ArrayForEach(t, tks) {
		if (names_root(t, root)) {
			cJSON_AddItemToArray(mine, cJSON_DetachItemFromArray(tks, i));
			break;
		}
		i++;
	}
	cJSON_Delete(f);
	return 0;
}

/* The toolkit root: --cuda-home, $CUDA_HOME, the nvcc on PATH (detect's
 * env: the first one a shell runs, resolved; <root>/bin/nvcc), or
 * /usr/local/cuda.  Caller frees. */
static char *cuda_root(const cJSON *facts, const char *opt)
{
	const char *env = ptb_json_str(facts, "env.CUDA_HOME");
	const char *nvcc = ptb_json_str(facts, "env.nvcc_on_path");
	char *root, *slash;

	if (opt)
		return ptb_xstrdup(opt);
	if (env && *env)
		return ptb_xstrdup(env);
	if (!nvcc)
		return ptb_xstrdup("/usr/local/cuda");
	root = ptb_xstrdup(nvcc);
	for (int i = 0; i < 2; i++)
		if ((slash = strrchr(root, '/')) && slash != root)
			*slash = '\0';
	return root;
}

/* The CUDA release ("13.0") detect read for the toolkit at root (its
 * directory, or a spelling that leads to it), or NULL. */
static const char *toolkit_release(const cJSON *facts, const char *root)
{
	char *want = absolute(root);
	const char *rel = NULL;
	const cJSON *t;

	cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(facts, "toolkits"))
		if (!rel && names_root(t, want))
			rel = ptb_json_str(t, "release");
	free(want);
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

/* This machine's GPUs as detect saw them (facts.gpus[].compute_capability,
 * from the driver): "9.0", or "8.9;9.0" for several kinds; NULL when
 * detect saw none. */
static char *gpus_arch(const cJSON *facts)
{
	struct ptb_buf b;
	const cJSON *g;

	ptb_buf_init(&b);
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(facts, "gpus")) {
		const char *cc = ptb_json_str(g, "compute_capability");
		size_t n = cc ? strlen(cc) : 0;
		const char *at = b.data && n ? strstr(b.data, cc) : NULL;

		/* once each: a match must be a whole entry of the list */
		while (at && !((at == b.data || at[-1] == ';') && (at[n] == '\0' || at[n] == ';')))
			at = strstr(at + 1, cc);
		if (n && !at)
			ptb_buf_printf(&b, "%s%s", b.len ? ";" : "", cc);
	}
	return b.len ? ptb_buf_detach(&b) : (ptb_buf_free(&b), NULL);
}

/* The plan decides the arch list (owned[4]), the toolkit when it is
 * installed here (owned[5]), the host compiler (owned[6]) and the CUDA
 * release it is for (owned[7]: "root|version").  -1 to go on, or an exit
 * status. */
static int from_plan(struct ptb_ctx *ctx, const struct opts *o, char *owned[8])
{
	struct ptb_err err = { 0 };
	cJSON *plan = NULL;
	struct ptb_lua *lua = ptb_ctx_lua(ctx, &err);

	if (!lua || ptb_plan_make(lua, &o->p, &plan, NULL, &err) != 0)
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
	return -1;
}

/* The toolkit: root (owned[0]), nvcc (owned[1]) and the CUDA release
 * detect read for it (owned[2]), which must be the plan's when there is
 * one.  -1 to go on, or an exit status. */
static int toolkit(struct ptb_ctx *ctx, const struct opts *o, struct ptb_validate_target *t,
                   cJSON **host, char *owned[8])
{
	struct ptb_err err = { 0 };
	const char *rel;

	/* the plan's installed toolkit, when detect has not read it yet */
	if (owned[5] && !toolkit_release(*host, owned[5])) {
		char *abs = absolute(owned[5]);
		int rc = read_toolkit(ctx, *host, abs, o->timeout, &err);

		free(abs);
		if (rc != 0)
			return ptb_report(&err);
	}
	owned[0] = cuda_root(*host, owned[5] ? owned[5] : o->cuda_home);
	owned[1] = ptb_path_join(owned[0], "bin/nvcc");
	t->cuda_root = owned[0];
	t->nvcc = owned[1];
	t->host_compiler = o->ccbin ? o->ccbin : owned[6];
	if (access(t->nvcc, X_OK) != 0) {
		ptb_error("no nvcc at '%s'", t->nvcc);
		ptb_hint("point --cuda-home (or CUDA_HOME) at a CUDA toolkit, the directory holding bin/nvcc");
		return PTB_EUSAGE;
	}
	if (!(rel = toolkit_release(*host, owned[0]))) {
		ptb_error("cannot tell the CUDA release of the toolkit at '%s': no version.json, version.txt or nvcc that names one", owned[0]);
		ptb_hint("point --cuda-home (or CUDA_HOME) at a CUDA toolkit, the directory holding bin/nvcc");
		return PTB_EUSAGE;
	}
	t->cuda_version = owned[2] = ptb_xstrdup(rel);
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
	return -1;
}

/* The answer detect recorded in host's facts for the toolkit whose nvcc
 * is nvcc (toolkits[].gpu_list): a new {nvcc, arch, code} list, or the
 * string of why it gave none; NULL where detect asked nothing. */
static cJSON *detected_list(const cJSON *host, const char *nvcc)
{
	const cJSON *t;

	cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(host, "toolkits")) {
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(t, "gpu_list");
		const char *at = ptb_json_str(g, "nvcc"), *why = ptb_json_str(g, "error");
		cJSON *l;

		if (!at || strcmp(at, nvcc) != 0)
			continue;
		if (why)
			return cJSON_CreateString(why);
		l = cJSON_CreateObject();
		cJSON_AddStringToObject(l, "nvcc", nvcc);
		cJSON_AddItemToObject(l, "arch", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(g, "arch"), 1));
		cJSON_AddItemToObject(l, "code", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(g, "code"), 1));
		return l;
	}
	return NULL;
}

/* The toolkit's own GPU list ({nvcc, arch, code}: ptb_detect_gpu_list,
 * each list given timeout_s) where ptbuild's list of its release is a
 * copy or missing (arch.list_source says "assumed" or "unknown"); NULL,
 * spawning nothing, where that list has a source.  The answer detect
 * already recorded in host's facts (read with the same timeout) is taken
 * rather than asked again.  An nvcc that cannot
 * answer is said once: for an assumed list the copy then judges as
 * before; for a missing one nothing can judge the arch list, an error.
 * memo (or NULL) keeps each nvcc's answer by its path -- its list, or the
 * reason it gave none -- so that a fleet asks (and warns) once per
 * toolkit.  0, or -1 with err. */
static int nvcc_gpu_list(struct ptb_lua *lua, const struct ptb_validate_target *t, const cJSON *host,
                         cJSON *memo, int timeout_s, cJSON **list, struct ptb_err *err)
{
	const cJSON *seen = memo ? cJSON_GetObjectItemCaseSensitive(memo, t->nvcc) : NULL;
	struct ptb_err e = { 0 };
	cJSON *args = cJSON_CreateObject(), *res = NULL, *det = NULL;
	int told = seen != NULL;
	const char *src;
	int rc = 0;

	*list = NULL;
	cJSON_AddStringToObject(args, "cuda", t->cuda_version);
	if (ptb_recipe_call(lua, "arch", "list_source", args, &res, NULL, err) != 0) {
		cJSON_Delete(args);
		return -1;
	}
	cJSON_Delete(args);
	src = ptb_json_str(res, "source");
	if (!src || strcmp(src, "data") == 0)
		goto out;
	if (!seen && (det = detected_list(host, t->nvcc))) {
		seen = det;
		if (memo)
			cJSON_AddItemToObject(memo, t->nvcc, cJSON_Duplicate(det, 1));
	}
	if (cJSON_IsObject(seen)) {
		*list = cJSON_Duplicate(seen, 1);
		goto out;
	}
	if (cJSON_IsString(seen)) {
		snprintf(e.msg, sizeof e.msg, "%s", seen->valuestring);
	} else if ((*list = ptb_detect_gpu_list(t->nvcc, timeout_s, &e))) {
		if (memo)
			cJSON_AddItemToObject(memo, t->nvcc, cJSON_Duplicate(*list, 1));
		goto out;
	} else if (memo) {
		cJSON_AddItemToObject(memo, t->nvcc, cJSON_CreateString(e.msg));
	}
	if (strcmp(src, "assumed") != 0) {
		ptb_err_set(err, PTB_ERECIPE,
		            "cannot judge the arch list for CUDA %s: ptbuild's tables list no CUDA %s, and its nvcc could not list the GPUs it builds (%s)",
		            t->cuda_version, t->cuda_version, e.msg);
		ptb_err_hint(err, "use a toolkit whose nvcc answers '--list-gpu-arch' and '--list-gpu-code' (a longer --timeout if it ran out of time), or a CUDA release ptbuild knows (--cuda-home)");
		rc = -1;
	} else if (!told) {
		ptb_warn("cannot ask the toolkit's nvcc for its GPU list: %s", e.msg);
		ptb_note("judging the arch list by ptbuild's assumed GPU list of CUDA %s instead", t->cuda_version);
	}
out:
	cJSON_Delete(det);
	cJSON_Delete(res);
	return rc;
}

/* The -gencode flags of the arch list (arch.convert into *conv), its
 * notes and warnings said; judged by the toolkit's nvcc where ptbuild's
 * GPU list of its release is assumed or unknown (its answer in *asked,
 * else NULL; caller frees; memo and timeout_s: nvcc_gpu_list's).  -1 to
 * go on, or an exit status. */
static int gencode(struct ptb_ctx *ctx, struct ptb_validate_target *t, const cJSON *host, cJSON *memo,
                   int timeout_s, cJSON **conv, cJSON **asked)
{
	struct ptb_err err = { 0 };
	struct ptb_lua *lua = ptb_ctx_lua(ctx, &err);
	const cJSON *n;
	cJSON *args, *rest = NULL;
	int rc;

	*asked = NULL;
	if (!lua || nvcc_gpu_list(lua, t, host, memo, timeout_s, asked, &err) != 0)
		return ptb_report(&err);
	args = cJSON_CreateObject();
	cJSON_AddStringToObject(args, "list", t->arch_list);
	cJSON_AddStringToObject(args, "cuda", t->cuda_version);
	if (*asked)
		cJSON_AddItemReferenceToObject(args, "nvcc_list", *asked);
	rc = ptb_recipe_call(lua, "arch", "convert", args, conv, &rest, &err);
	cJSON_Delete(args);
	if (rc != 0)
		return ptb_recipe_report(&err, rest);
	t->gencode = cJSON_GetObjectItemCaseSensitive(*conv, "gencode");
	if (!cJSON_IsArray(t->gencode)) {
		ptb_err_set(&err, PTB_ERECIPE, "recipe 'arch.convert' returned no gencode flags");
		return ptb_report(&err);
	}
	if (ptb_json_str(*conv, "torch_cuda_arch_list"))
		t->arch_list = ptb_json_str(*conv, "torch_cuda_arch_list");
	cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(*conv, "notes"))
		if (cJSON_IsString(n))
			ptb_note("%s", n->valuestring);
	ptb_cmd_print_warnings(cJSON_GetObjectItemCaseSensitive(*conv, "warnings"));
	return -1;
}

/* What to validate: the toolkit and arch list from --cuda-home and
 * --arch-list, the plan, or this machine's GPU (detect's facts of this
 * host in *host), and the flags from arch.convert.  On success the caller
 * frees *conv (arch.convert's document), *asked (nvcc's GPU list, where
 * asked), *host and the strings in *owned.
 * Returns -1 to go on, or an exit status. */
static int validate_target_from_options(struct ptb_ctx *ctx, const struct opts *o,
                                        struct ptb_validate_target *t,
                                        cJSON **conv, cJSON **asked, cJSON **host, char *owned[8])
{
	struct ptb_err err = { 0 };
	int rc;

	*conv = NULL;
	*asked = NULL;
	if (!(*host = host_facts(ctx, o->cuda_home, o->timeout, &err)))
		return ptb_report(&err);
	/* The plan decides the arch list (and toolkit, when it is installed
	 * here) unless --arch-list was given alone, or a GPU can answer. */
	if (o->plan_opts || (!o->arch_list && !(owned[3] = gpus_arch(*host)))) {
		if ((rc = from_plan(ctx, o, owned)) >= 0)
			return rc;
		free(owned[3]);
		owned[3] = NULL;
	}
	if ((rc = toolkit(ctx, o, t, host, owned)) >= 0)
		return rc;
	if (o->arch_list) {
		t->arch_list = o->arch_list;
	} else if (owned[4]) {
		t->arch_list = owned[4];
	} else if (owned[3] || (owned[3] = gpus_arch(*host))) {
		t->arch_list = owned[3];
		ptb_note("no --arch-list: using this machine's GPUs as detect saw them, compute capability %s", owned[3]);
	} else {
		ptb_error("no GPU found to take the arch list from");
		ptb_hint("give one, for example --arch-list '8.0;9.0+PTX' (ptbuild arch explains the forms)");
		return PTB_EUSAGE;
	}
	return gencode(ctx, t, *host, NULL, o->timeout, conv, asked);
}

/* Where the arch list was judged: doc.gpu_list = {from: "nvcc", nvcc,
 * arch, code} (nvcc's answer, moved from *asked) or {from: "ptbuild"}
 * (data/cuda.lua). */
static void add_gpu_list(cJSON *doc, cJSON **asked)
{
	cJSON *g = *asked ? *asked : cJSON_CreateObject();

	*asked = NULL;
	cJSON_AddStringToObject(g, "from", cJSON_GetObjectItemCaseSensitive(g, "nvcc") ? "nvcc" : "ptbuild");
	cJSON_DeleteItemFromObjectCaseSensitive(doc, "gpu_list");
	cJSON_AddItemToObject(doc, "gpu_list", g);
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
	if ((s = ptb_json_str(d, "gpu_list.from")) && strcmp(s, "nvcc") == 0)
		printf("GPU list              from %s --list-gpu-arch and --list-gpu-code, not ptbuild's tables\n",
		       ptb_json_str(d, "gpu_list.nvcc"));
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

/* The root of a toolkit here of CUDA release ver ("13.0") for a fleet
 * build whose plan puts it at root: --cuda-home, else root when
 * installed, else $CUDA_HOME (as for one plan, the option first); NULL with why (what each one is) when
 * none is that release.  *host may be detected again to read a root
 * detect did not see.  Caller frees. */
static char *fleet_toolkit(struct ptb_ctx *ctx, const struct opts *o, const char *root,
                           const char *ver, cJSON **host, struct ptb_buf *why)
{
	/* CUDA_HOME as detect read this host's environment (a copy: *host is
	 * read again below when a candidate is a toolkit detect has not seen) */
	const char *given = ptb_json_str(*host, "env.CUDA_HOME");
	char *env = given && *given ? ptb_xstrdup(given) : NULL;
	const char *cand[3] = { o->cuda_home, root, env };
	static const char *const what[3] = { "--cuda-home", "the build's root", "CUDA_HOME" };

	for (int i = 0; i < 3; i++) {
		char *nv, *abs;
		const char *rel;
		int seen = 0;

		for (int j = 0; j < i; j++)
			seen |= cand[i] && cand[j] && strcmp(cand[i], cand[j]) == 0;
		if (!cand[i] || seen)
			continue;
		abs = absolute(cand[i]);
		nv = ptb_path_join(abs, "bin/nvcc");
		if (access(nv, X_OK) != 0) {
			ptb_buf_printf(why, "%s%s '%s' holds no bin/nvcc", why->len ? "; " : "", what[i], cand[i]);
			free(nv);
			free(abs);
			continue;
		}
		free(nv);
		if (!toolkit_release(*host, abs)) {
			struct ptb_err e = { 0 };

			read_toolkit(ctx, *host, abs, o->timeout, &e);
			ptb_err_clear(&e);
		}
		rel = toolkit_release(*host, abs);
		if (rel && same_minor(rel, ver)) {
			free(env);
			return abs;
		}
		ptb_buf_printf(why, "%s%s '%s' is CUDA %s", why->len ? "; " : "", what[i], cand[i],
		               rel ? rel : "of an unknown release");
		free(abs);
	}
	if (!why->len)
		ptb_buf_printf(why, "no --cuda-home or CUDA_HOME given");
	free(env);
	return NULL;
}

/* One fleet build: validated (compile-only) into *doc, or not validated
 * (*doc NULL, reason and fix in res).  Adds {platform, nodes, cuda,
 * torch_cuda_arch_list, result, ...} to res.  -1 to go on, or an exit
 * status (an error reported). */
static int validate_build(struct ptb_ctx *ctx, const struct opts *o, const cJSON *b,
                          const cJSON *target, cJSON **host, cJSON *memo, cJSON *res)
{
	const char *pf = ptb_json_str(target, "platform"), *ver = ptb_json_str(b, "cuda.version");
	const char *root = ptb_json_str(b, "cuda.root"), *hc = ptb_json_str(b, "cmake.CMAKE_CUDA_HOST_COMPILER");
	const char *full = ptb_json_str(b, "cuda.full_version");
	struct ptb_validate_target t = { 0 };
	struct ptb_validate_opts vo = { 0 };
	struct ptb_err err = { 0 };
	struct ptb_buf why;
	cJSON *conv = NULL, *asked = NULL, *doc;
	char *tk, *nvcc;
	int rc;

	cJSON_AddStringToObject(res, "platform", pf ? pf : "?");
	cJSON_AddItemToObject(res, "nodes", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(target, "nodes"), 1));
	cJSON_AddStringToObject(res, "cuda", ver ? ver : "?");
	t.arch_list = ptb_json_str(b, "torch_cuda_arch_list");
	cJSON_AddStringToObject(res, "torch_cuda_arch_list", t.arch_list ? t.arch_list : "?");
	ptb_buf_init(&why);
	tk = ver && t.arch_list ? fleet_toolkit(ctx, o, root, ver, host, &why) : NULL;
	if (!tk) {
		char *reason = ptb_xasprintf("no CUDA %s toolkit here to compile with (%s)", ver ? ver : "?",
		                             why.len ? why.data : "the plan names no CUDA release or arch list");
		char *fix = ptb_xasprintf("install CUDA %s for this machine ('ptbuild fetch --cuda %s --prefix DIR') "
		                          "and pass --cuda-home DIR; or run 'ptbuild validate' on a node of %s",
		                          ver ? ver : "?", full ? full : ver ? ver : "VER", pf ? pf : "this build");

		cJSON_AddStringToObject(res, "result", "not-validated");
		cJSON_AddStringToObject(res, "reason", reason);
		cJSON_AddStringToObject(res, "fix", fix);
		free(reason);
		free(fix);
		ptb_buf_free(&why);
		return -1;
	}
	ptb_buf_free(&why);
	nvcc = ptb_path_join(tk, "bin/nvcc");
	t.cuda_root = tk;
	t.nvcc = nvcc;
	t.cuda_version = toolkit_release(*host, tk);
	t.host_compiler = o->ccbin ? o->ccbin : hc && access(hc, X_OK) == 0 ? hc : NULL;
	rc = gencode(ctx, &t, *host, memo, o->timeout, &conv, &asked);
	if (rc >= 0) {
		/* said above; the build fails, the others are still validated */
		char *reason = ptb_xasprintf("CUDA %s cannot compile the arch list %s (exit %d above)",
		                             t.cuda_version ? t.cuda_version : ver, t.arch_list, rc);

		cJSON_AddStringToObject(res, "result", "fail");
		cJSON_AddStringToObject(res, "reason", reason);
		free(reason);
		rc = -1;
	} else {
		vo.host = *host;
		vo.compile_only = 1;           /* no GPU of the fleet is here */
		vo.force = o->force;
		vo.timeout_s = o->timeout;
		vo.keep = o->keep;
		doc = ptb_validate_run(&t, &vo, &err);
		if (!doc) {
			rc = ptb_report(&err);
		} else {
			cJSON_AddStringToObject(res, "result", strcmp(ptb_json_str(doc, "result"), "pass") == 0 ? "pass" : "fail");
			add_gpu_list(doc, &asked);
			cJSON_AddItemToObject(res, "validate", doc);
		}
	}
	cJSON_Delete(conv);
	cJSON_Delete(asked);
	free(nvcc);
	free(tk);
	return rc;
}

/* A fleet: every build validated, compile-only, with a toolkit of its
 * own CUDA release.  The exit status. */
static int validate_fleet(struct ptb_ctx *ctx, struct opts *o)
{
	struct ptb_err err = { 0 };
	struct ptb_lua *lua = ptb_ctx_lua(ctx, &err);
	cJSON *fleet = NULL, *host = NULL, *memo = NULL, *doc, *out, *b;
	const cJSON *targets;
	int i = 0, pass = 0, fail = 0, skipped = 0, rc = -1;

	if (!lua || ptb_fleet_make(lua, &o->p, &fleet, &err) != 0 || !(host = host_facts(ctx, o->cuda_home, o->timeout, &err))) {
		cJSON_Delete(fleet);
		return ptb_report(&err);
	}
	targets = cJSON_GetObjectItemCaseSensitive(fleet, "targets");
	memo = cJSON_CreateObject();
	doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "schema", "ptbuild.validate-fleet/1");
	out = cJSON_AddArrayToObject(doc, "builds");
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(fleet, "builds")) {
		cJSON *res = cJSON_CreateObject();
		const char *r;

		cJSON_AddItemToArray(out, res);
		if ((rc = validate_build(ctx, o, b, cJSON_GetArrayItem(targets, i++), &host, memo, res)) >= 0)
			goto done;
		r = ptb_json_str(res, "result");
		pass += strcmp(r, "pass") == 0;
		fail += strcmp(r, "fail") == 0;
		skipped += strcmp(r, "not-validated") == 0;
	}
	if (o->json) {
		ptb_cmd_print_json(doc);
	} else {
		i = 0;
		cJSON_ArrayForEach(b, out) {
			const cJSON *n;

			printf("%s== build %s: CUDA %s, TORCH_CUDA_ARCH_LIST=%s, for", i++ ? "\n" : "",
			       ptb_json_str(b, "platform"), ptb_json_str(b, "cuda"), ptb_json_str(b, "torch_cuda_arch_list"));
			cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(b, "nodes"))
				printf(" %s", cJSON_IsString(n) ? n->valuestring : "?");
			putchar('\n');
			if (cJSON_GetObjectItemCaseSensitive(b, "validate")) {
				print_text(cJSON_GetObjectItemCaseSensitive(b, "validate"));
			} else if (strcmp(ptb_json_str(b, "result"), "fail") == 0) {
				printf("result                FAIL: %s\n", ptb_json_str(b, "reason"));
			} else {
				printf("result                NOT VALIDATED: %s\n", ptb_json_str(b, "reason"));
				printf("fix                   %s\n", ptb_json_str(b, "fix"));
			}
		}
		printf("\n%d build%s: %d passed, %d failed, %d not validated (compile-only: no GPU of the fleet is here)\n",
		       i, i == 1 ? "" : "s", pass, fail, skipped);
	}
	cJSON_ArrayForEach(b, out)
		if (strcmp(ptb_json_str(b, "result"), "not-validated") == 0)
			ptb_warn("build %s (CUDA %s) was not validated: %s", ptb_json_str(b, "platform"),
			         ptb_json_str(b, "cuda"), ptb_json_str(b, "reason"));
	rc = fail ? PTB_EVALID : skipped ? PTB_EFOUND : 0;
done:
	cJSON_Delete(memo);
	cJSON_Delete(doc);
	cJSON_Delete(fleet);
	cJSON_Delete(host);
	return rc;
}

int ptb_cmd_validate(struct ptb_ctx *ctx, int argc, char **argv)
{
	struct opts o = { .p.cmd = "validate", .timeout = 60 };
	struct ptb_validate_target t = { 0 };
	struct ptb_validate_opts vo = { 0 };
	struct ptb_err err = { 0 };
	char *owned[8] = { NULL };
	cJSON *conv = NULL, *asked = NULL, *host = NULL, *doc;
	int rc;

	rc = ptb_opt_parse(ctx, &ptb_cmd_validate_def, argc, argv, &o);
	if (rc >= 0)
		return rc;
	o.arch_list = o.p.arch_list;
	o.plan_opts = ptb_cmd_plan_opts_given(&o.p, 0);
	if (optind < argc)
		return ptb_cli_usage("validate", "unexpected argument '%s'", argv[optind]);
	if (ptb_plan_is_fleet(&o.p))
		return validate_fleet(ctx, &o);
	rc = validate_target_from_options(ctx, &o, &t, &conv, &asked, &host, owned);
	if (rc < 0) {
		vo.host = host;
		vo.compile_only = o.compile_only;
		vo.run_without_gpu = o.run_without_gpu;
		vo.force = o.force;
		vo.timeout_s = o.timeout;
		vo.keep = o.keep;
		doc = ptb_validate_run(&t, &vo, &err);
		if (!doc) {
			rc = ptb_report(&err);
		} else {
			add_gpu_list(doc, &asked);
			if (o.json)
				ptb_cmd_print_json(doc);
			else
				print_text(doc);
			rc = strcmp(ptb_json_str(doc, "result"), "pass") == 0 ? 0 : PTB_EVALID;
			cJSON_Delete(doc);
		}
	}
	cJSON_Delete(conv);
	cJSON_Delete(asked);
	cJSON_Delete(host);
	for (int i = 0; i < 8; i++)
		free(owned[i]);
	return rc;
}
