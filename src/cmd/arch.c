/* arch.c - `ptbuild arch LIST`: what a TORCH_CUDA_ARCH_LIST means for nvcc. */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <stdio.h>
#include <string.h>

#include "util/json.h"

const struct ptb_cmd ptb_cmd_arch_def = {
	"arch", ptb_cmd_arch,
	"explain a TORCH_CUDA_ARCH_LIST and check it against a CUDA release",
	"ptbuild arch LIST... [--cuda VER] [--to torch|cmake|gencode] [--json]",
	"LIST is read as PyTorch's CMake build reads TORCH_CUDA_ARCH_LIST: items\n"
	"separated by ';', spaces or tabs; X.Y, X.Ya, X.Yf, X.Y(A.B), +PTX, or a\n"
	"name (Kepler ... Blackwell, with +Tegra and +Tesla variants).  Several\n"
	"arguments are joined.  Items that CMake takes but turns into flags nvcc\n"
	"refuses are refused (exit 2): leading zeros ('08.0' -> compute_080), a\n"
	"suffix before (A.B) ('9.0a(9.0)' -> compute_(90)).  A list that\n"
	"torch.utils.cpp_extension refuses ('f' suffixes, X.Y(A.B), 8.8) gets a\n"
	"warning: extensions built later read the same variable.\n"
	"\n"
	"  --cuda VER     check against this CUDA release (12.8, 12.8.1, cu128);\n"
	"                 an architecture it cannot build is an error (exit 1)\n"
	"  --to FORMAT    print only one form: torch (canonical\n"
	"                 TORCH_CUDA_ARCH_LIST), cmake (CMAKE_CUDA_ARCHITECTURES)\n"
	"                 or gencode (nvcc flags, one line)\n"
	"  --json         the ptbuild.arch/1 document with all three forms\n"
	"\n"
	"Examples:\n"
	"  ptbuild arch 'Ampere;Hopper+PTX' --cuda 12.8\n"
	"  ptbuild arch 7.0 --cuda 13.0         # will CUDA 13 still build for V100?\n",
};

struct opts {
	const char *cuda;
	const char *to;
	int json;
};

static int handle(void *state, int c, const char *arg)
{
	struct opts *o = state;

	switch (c) {
	case 'c':
		o->cuda = arg;
		return 0;
	case 't':
		if (strcmp(arg, "torch") && strcmp(arg, "cmake") && strcmp(arg, "gencode"))
			return ptb_cli_usage("arch", "bad --to value '%s' (expected torch, cmake or gencode)", arg);
		o->to = arg;
		return 0;
	case 'j':
		o->json = 1;
		return 0;
	}
	return PTB_EUSAGE;
}

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

int ptb_cmd_arch(struct ptb_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cuda", required_argument, NULL, 'c' },
		{ "to", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 0 };
	struct ptb_err err = { 0 };
	struct ptb_buf list;
	struct ptb_lua *lua;
	cJSON *args, *res = NULL, *rest = NULL;
	int rc;

	rc = ptb_cmd_getopt(ctx, &ptb_cmd_arch_def, argc, argv, "", longopts, handle, &o);
	if (rc >= 0)
		return rc;
	if (optind >= argc)
		return ptb_cli_usage("arch", "no architecture list given");
	if (o.json && o.to)
		return ptb_cli_usage("arch", "--json and --to cannot be combined");
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
	ptb_buf_free(&list);
	rc = ptb_recipe_call(lua, "arch", "convert", args, &res, &rest, &err);
	cJSON_Delete(args);
	if (rc != 0)
		return ptb_recipe_report(&err, rest);
	const char *torch = ptb_json_str(res, "torch_cuda_arch_list");
	const char *cmake = ptb_json_str(res, "cmake_cuda_architectures");
	const cJSON *gencode = cJSON_GetObjectItemCaseSensitive(res, "gencode");
	const cJSON *notes = cJSON_GetObjectItemCaseSensitive(res, "notes");
	if (!torch || !cmake || !cJSON_IsArray(gencode)) {
		cJSON_Delete(res);
		ptb_err_set(&err, PTB_ERECIPE, "recipe 'arch.convert' returned an incomplete document (expected torch_cuda_arch_list, cmake_cuda_architectures and gencode)");
		return ptb_report(&err);
	}
	if (o.json) {
		ptb_cmd_print_json(res);
	} else if (o.to && strcmp(o.to, "torch") == 0) {
		printf("%s\n", torch);
	} else if (o.to && strcmp(o.to, "cmake") == 0) {
		printf("%s\n", cmake);
	} else if (o.to) {
		print_gencode(gencode);
	} else {
		const char *cuda = ptb_json_str(res, "cuda");

		printf("TORCH_CUDA_ARCH_LIST      %s\n", torch);
		printf("CMAKE_CUDA_ARCHITECTURES  %s\n", cmake);
		printf("nvcc flags                ");
		print_gencode(gencode);
		printf("checked against           %s\n",
		       cuda ? cuda : "every CUDA release ptbuild knows (use --cuda VER)");
	}
	if (!o.json) {
		const cJSON *n;

		cJSON_ArrayForEach(n, notes)
			if (cJSON_IsString(n))
				ptb_note("%s", n->valuestring);
		ptb_cmd_print_warnings(cJSON_GetObjectItemCaseSensitive(res, "warnings"));
	}
	cJSON_Delete(res);
	return 0;
}
