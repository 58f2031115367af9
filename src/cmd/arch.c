/* arch.c - `ptbuild arch LIST`: what a TORCH_CUDA_ARCH_LIST means for nvcc. */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "detect/detect.h"
#include "util/json.h"

struct opts {
	const char *cuda;
	const char *torch;
	const char *to;
	int json;
	struct ptb_plan_opts p;    /* --facts, --profile, --sysroot */
};

static int set_to(const struct ptb_opt_arg *a)
{
	if (strcmp(a->arg, "torch") && strcmp(a->arg, "cmake") && strcmp(a->arg, "gencode"))
		return ptb_cli_usage("arch", "bad --to value '%s' (expected torch, cmake or gencode)", a->arg), -1;
	*PTB_OPT_FIELD(a, const char *) = a->arg;
	return 0;
}

static const struct ptb_opt options[] = {
	{ .name = "cuda", .arg = "VER", .off = offsetof(struct opts, cuda),
	  .help = "check against this CUDA release (12.8, 12.8.1, cu128): an "
	          "architecture it cannot build is an error (exit 1) that names the "
	          "last (or first) release that builds it" },
	{ .name = "torch", .arg = "VER", .off = offsetof(struct opts, torch),
	  .help = "read the list as this PyTorch release's CMake does (2.13, 2.13.0; "
	          "default the newest ptbuild knows): a name or suffix it does not "
	          "know is refused (exit 2), and the cpp_extension warning is its" },
	{ .name = "to", .arg = "FORMAT", .off = offsetof(struct opts, to), .set = set_to,
	  .values = "torch cmake gencode",
	  .help = "print only one form: torch (canonical TORCH_CUDA_ARCH_LIST), cmake "
	          "(CMAKE_CUDA_ARCHITECTURES, as 80-real;90-real;90-virtual) or gencode "
	          "(the nvcc flags, one line)" },
	{ .name = "json", .off = offsetof(struct opts, json),
	  .help = "the ptbuild.arch/1 document with all three forms" },
	{ .help = "Where ptbuild's GPU list of the --cuda release is assumed (a copy of "
	          "the release before it) or missing, the list is judged by the GPU list "
	          "that release's installed nvcc gave detect (toolkits[].gpu_list) in the "
	          "facts of this host or of:" },
	{ .group = ptb_cmd_input_options, .off = offsetof(struct opts, p) },
	{ 0 },
};

const struct ptb_cmd ptb_cmd_arch_def = {
	.name = "arch", .run = ptb_cmd_arch,
	.summary = "explain a TORCH_CUDA_ARCH_LIST and check it against a CUDA release",
	.usage = "ptbuild arch LIST... [--cuda VER] [--torch VER] [--to torch|cmake|gencode] [--json]",
	.intro =
	"LIST is read as PyTorch's CMake build reads TORCH_CUDA_ARCH_LIST: items\n"
	"separated by ';', spaces or tabs; X.Y, X.Ya, X.Yf, X.Y(A.B), +PTX, or a\n"
	"name (Kepler ... Rubin, with +Tegra and +Tesla variants; which ones,\n"
	"and which suffixes, depends on the PyTorch release: --torch).  Several\n"
	"arguments are joined.  Items that CMake takes but turns into flags nvcc\n"
	"refuses are refused (exit 2): leading zeros ('08.0' -> compute_080), a\n"
	"suffix before (A.B) ('9.0a(9.0)' -> compute_(90)).  A list that\n"
	"torch.utils.cpp_extension refuses ('f' suffixes, X.Y(A.B), 8.8,\n"
	"'Hopper+PTX') or reads otherwise (a name there gives PTX) gets a\n"
	"warning: extensions built later read the same variable.\n",
	.options = options,
	.epilog =
	"Examples:\n"
	"  ptbuild arch 'Ampere;Hopper+PTX' --cuda 12.8\n"
	"  ptbuild arch 7.0 --cuda 13.0         # will CUDA 13 still build for V100?\n",
	.operand = "LIST",
};

static void print_gencode(const cJSON *gencode)
{
	const cJSON *g;
	int first = 1;

	cJSON_ArrayForEach(g, gencode) {
		if (cJSON_IsString(g)) {
			printf("%s%s", first ? "" : " ", g->valuestring);
			first = 0;
		}
	}
	putchar('\n');
}

/* The result as the options ask: JSON, one form, or all three with the
 * recipe's notes and warnings. */
static void print_result(const struct opts *o, const cJSON *res, const char *torch,
                         const char *cmake, const cJSON *gencode)
{
	const cJSON *n;

	if (o->json) {
		ptb_cmd_print_json(res);
	} else if (o->to && strcmp(o->to, "torch") == 0) {
		printf("%s\n", torch);
	} else if (o->to && strcmp(o->to, "cmake") == 0) {
		printf("%s\n", cmake);
	} else if (o->to) {
		print_gencode(gencode);
	} else {
		const char *cuda = ptb_json_str(res, "cuda");

		printf("TORCH_CUDA_ARCH_LIST      %s\n", torch);
		printf("CMAKE_CUDA_ARCHITECTURES  %s\n", cmake);
		printf("nvcc flags                ");
		print_gencode(gencode);
		const char *nv = ptb_json_str(res, "gpu_list_nvcc");

		printf("checked against           %s%s%s%s\n",
		       cuda ? cuda : "every CUDA release ptbuild knows (use --cuda VER)",
		       nv ? " (GPU list from nvcc " : "", nv ? nv : "", nv ? ")" : "");
	}
	if (!o->json) {
		cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(res, "notes"))
			if (cJSON_IsString(n))
				ptb_note("%s", n->valuestring);
		ptb_cmd_print_warnings(cJSON_GetObjectItemCaseSensitive(res, "warnings"));
	}
}

/* The facts --facts, --profile or --sysroot name, else this host's
 * toolkits (detect without the GPU probes); NULL with err. */
static cJSON *arch_facts(struct ptb_lua *lua, const struct opts *o, struct ptb_err *err)
{
	struct ptb_detect_opts d = { 0 };
	char *source = NULL;
	cJSON *f;

	if (o->p.facts_file || o->p.profile || o->p.nfacts > 1) {
		f = ptb_plan_facts(lua, &o->p, &source, err);
		free(source);
		return f;
	}
	d.sysroot = o->p.sysroot;
	d.lua = lua;
	d.toolkits_only = 1;
	return ptb_detect(&d, err);
}

/* Where ptbuild's GPU list of --cuda's release has no source
 * (arch.list_source: "assumed" or "unknown"), the answer the installed
 * nvcc of that release gave detect (toolkits[].gpu_list, in the facts
 * arch_facts reads), as arch.convert's nvcc_list, into args.  For a
 * release whose list has a source nothing is run, and only the facts the
 * options name are read, to refuse bad ones.  0, or -1 with err. */
static int installed_gpu_list(struct ptb_lua *lua, const struct opts *o, cJSON *args,
                              struct ptb_err *err)
{
	cJSON *a = cJSON_CreateObject(), *res = NULL, *facts = NULL;
	const cJSON *tk;
	const char *src, *minor;
	int rc = -1, judge;

	cJSON_AddStringToObject(a, "cuda", o->cuda);
	if (ptb_recipe_call(lua, "arch", "list_source", a, &res, NULL, err) != 0)
		goto out;
	rc = 0;
	src = ptb_json_str(res, "source");
	minor = ptb_json_str(res, "cuda");
	judge = src && strcmp(src, "data") != 0 && minor;
	/* facts the options name are read (and refused when bad) whatever
	 * the release: a --facts that is not there is an error, not ignored */
	if (!judge && !(o->p.nfacts || o->p.profile || o->p.sysroot))
		goto out;
	if (!(facts = arch_facts(lua, o, err))) {
		rc = -1;
		goto out;
	}
	if (!judge)
		goto out;
	cJSON_ArrayForEach(tk, cJSON_GetObjectItemCaseSensitive(facts, "toolkits")) {
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(tk, "gpu_list");
		const char *rel = ptb_json_str(tk, "release");

		if (rel && strcmp(rel, minor) == 0 && cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(g, "code"))) {
			cJSON_AddItemToObject(args, "nvcc_list", cJSON_Duplicate(g, 1));
			break;
		}
	}
out:
	cJSON_Delete(facts);
	cJSON_Delete(res);
	cJSON_Delete(a);
	return rc;
}

int ptb_cmd_arch(struct ptb_ctx *ctx, int argc, char **argv)
{
	struct opts o = { .p.cmd = "arch" };
	struct ptb_err err = { 0 };
	struct ptb_buf list;
	struct ptb_lua *lua;
	cJSON *args, *res = NULL, *rest = NULL;
	int rc;

	rc = ptb_opt_parse(ctx, &ptb_cmd_arch_def, argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (optind >= argc)
		return ptb_cli_usage("arch", "no architecture list given");
	if (o.json && o.to)
		return ptb_cli_usage("arch", "--json and --to cannot be combined");
	if (!o.cuda && (o.p.nfacts || o.p.profile || o.p.sysroot))
		return ptb_cli_usage("arch", "--facts, --profile and --sysroot need --cuda (the release whose installed toolkit judges the list)");
	ptb_buf_init(&list);
	for (int i = optind; i < argc; i++) {
		if (i > optind)
			ptb_buf_addc(&list, ' ');
		ptb_buf_adds(&list, argv[i]);
	}
	lua = ptb_ctx_lua(ctx, &err);
	if (!lua) {
		ptb_buf_free(&list);
		return ptb_report(&err);
	}
	args = cJSON_CreateObject();
	cJSON_AddStringToObject(args, "list", list.data);
	if (o.cuda)
		cJSON_AddStringToObject(args, "cuda", o.cuda);
	if (o.torch)
		cJSON_AddStringToObject(args, "torch", o.torch);
	ptb_buf_free(&list);
	if (o.cuda && installed_gpu_list(lua, &o, args, &err) != 0) {
		cJSON_Delete(args);
		return ptb_report(&err);
	}
	rc = ptb_recipe_call(lua, "arch", "convert", args, &res, &rest, &err);
	cJSON_Delete(args);
	if (rc != 0)
		return ptb_recipe_report(&err, rest);
	const char *torch = ptb_json_str(res, "torch_cuda_arch_list");
	const char *cmake = ptb_json_str(res, "cmake_cuda_architectures");
	const cJSON *gencode = cJSON_GetObjectItemCaseSensitive(res, "gencode");
	if (!torch || !cmake || !cJSON_IsArray(gencode)) {
		cJSON_Delete(res);
		ptb_err_set(&err, PTB_ERECIPE, "recipe 'arch.convert' returned an incomplete document (expected torch_cuda_arch_list, cmake_cuda_architectures and gencode)");
		return ptb_report(&err);
	}
	print_result(&o, res, torch, cmake, gencode);
	cJSON_Delete(res);
	return 0;
}
