/* cli.c - global options, the command table, help and dispatch. */
#include "config.h"

#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmds.h"

/* Only commands that work are listed; each later command adds a line. */
static const struct ptb_cmd *const commands[] = {
	&ptb_cmd_detect_def,
	&ptb_cmd_plan_def,
	&ptb_cmd_generate_def,
	&ptb_cmd_gather_def,
	&ptb_cmd_fetch_def,
	&ptb_cmd_validate_def,
	&ptb_cmd_doctor_def,
	&ptb_cmd_inspect_def,
	&ptb_cmd_arch_def,
	&ptb_cmd_profiles_def,
	NULL,
};

static void usage_all(FILE *out)
{
	fputs("usage: ptbuild [--recipes DIR] [-v | -q] [--color=WHEN] COMMAND [ARGS]\n"
	      "\n"
	      "Make a PyTorch source build with CUDA come out right the first time.\n"
	      "\n"
	      "Commands:\n", out);
	for (const struct ptb_cmd *const *c = commands; *c; c++)
		fprintf(out, "  %-10s %s\n", (*c)->name, (*c)->summary);
	fputs("\n"
	      "Global options:\n"
	      "  --recipes DIR   look for recipes in DIR first (repeatable); then\n"
	      "                  PTBUILD_RECIPE_PATH (colon-separated), then the\n"
	      "                  installed recipes\n"
	      "  -v, --verbose   say more (repeat for more)\n"
	      "  -q, --quiet     only errors\n"
	      "  --color=WHEN    auto (default), always or never; NO_COLOR=1 also\n"
	      "                  turns colour off\n"
	      "  --version       print the version\n"
	      "  -h, --help      this help; 'ptbuild COMMAND --help' for a command\n"
	      "\n"
	      "Exit status: 0 ok, 1 problems found, 2 usage, 3 recipe or data error,\n"
	      "4 fetch, archive or I/O error, 5 validation failed.\n", out);
}

void ptb_cli_help(const struct ptb_cmd *cmd)
{
	printf("usage: %s\n\n%s\n", cmd->usage, cmd->summary);
	if (cmd->help && *cmd->help)
		printf("\n%s", cmd->help);
	fputs("\nCommon options: --recipes DIR, -v, -q, --color=WHEN, -h/--help\n",
	      stdout);
}

int ptb_cli_usage(const char *cmd, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ptb_error("%s", msg);
	if (cmd)
		ptb_hint("see 'ptbuild %s --help'", cmd);
	else
		ptb_hint("see 'ptbuild --help'");
	return PTB_EUSAGE;
}

static int set_color(struct ptb_ctx *ctx, const char *arg)
{
	if (!arg || strcmp(arg, "always") == 0)
		ctx->color = PTB_COLOR_ALWAYS;
	else if (strcmp(arg, "never") == 0)
		ctx->color = PTB_COLOR_NEVER;
	else if (strcmp(arg, "auto") == 0)
		ctx->color = PTB_COLOR_AUTO;
	else
		return -1;
	return 0;
}

static int add_recipes(struct ptb_ctx *ctx, const char *dir)
{
	if (ctx->nrecipe_dirs >= sizeof ctx->recipe_dirs / sizeof ctx->recipe_dirs[0])
		return ptb_cli_usage(NULL, "too many --recipes directories (at most 16)"), -1;
	ctx->recipe_dirs[ctx->nrecipe_dirs++] = dir;
	return 0;
}

int ptb_cli_common(struct ptb_ctx *ctx, int c, const char *arg)
{
	switch (c) {
	case 'v':
		ctx->verbosity = ctx->verbosity < 0 ? 1 : ctx->verbosity + 1;
		break;
	case 'q':
		ctx->verbosity = -1;
		break;
	case 'h':
		return 2;
	case PTB_OPT_COMMON + 0:
		if (add_recipes(ctx, arg) != 0)
			return -1;
		break;
	case PTB_OPT_COMMON + 1:
		if (set_color(ctx, arg) != 0) {
			ptb_cli_usage(NULL, "bad --color value '%s' (expected auto, always or never)", arg);
			return -1;
		}
		break;
	default:
		return 0;
	}
	ptb_log_init(ctx->verbosity, ctx->color);
	return 1;
}

struct ptb_lua *ptb_ctx_lua(struct ptb_ctx *ctx, struct ptb_err *err)
{
	struct ptb_lua_opts opts = { 0 };
	size_t n;
	char **path;

	if (ctx->lua)
		return ctx->lua;
	for (size_t i = 0; i < ctx->nrecipe_dirs; i++) {
		if (!ptb_path_is_dir(ctx->recipe_dirs[i])) {
			ptb_err_set(err, PTB_EUSAGE,
			            "--recipes '%s' is not a directory",
			            ctx->recipe_dirs[i]);
			return NULL;
		}
	}
	path = ptb_recipe_path(ctx->recipe_dirs, ctx->nrecipe_dirs, &n);
	for (size_t i = 0; i < n; i++)
		ptb_debug("recipe path %zu: %s", i + 1, path[i]);
	opts.path = (const char *const *)path;
	opts.npath = n;
	ctx->lua = ptb_lua_new(&opts, err);
	ptb_recipe_path_free(path);
	return ctx->lua;
}

static const struct ptb_cmd *find_cmd(const char *name)
{
	for (const struct ptb_cmd *const *c = commands; *c; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}

int ptb_cli_main(int argc, char **argv)
{
	struct ptb_ctx ctx = { .verbosity = 0, .color = PTB_COLOR_AUTO };
	const struct ptb_cmd *cmd;
	int i, rc;

	ptb_log_init(0, PTB_COLOR_AUTO);
	/* Global options come before the command. */
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		} else if (strcmp(a, "--version") == 0) {
			printf("ptbuild %s\n", PACKAGE_VERSION);
			return 0;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage_all(stdout);
			return 0;
		} else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
			ptb_cli_common(&ctx, 'v', NULL);
		} else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
			ptb_cli_common(&ctx, 'q', NULL);
		} else if (strcmp(a, "--color") == 0) {
			ptb_cli_common(&ctx, PTB_OPT_COMMON + 1, NULL);
		} else if (strncmp(a, "--color=", 8) == 0) {
			if (ptb_cli_common(&ctx, PTB_OPT_COMMON + 1, a + 8) < 0)
				return PTB_EUSAGE;
		} else if (strcmp(a, "--recipes") == 0) {
			if (i + 1 >= argc)
				return ptb_cli_usage(NULL, "--recipes needs a directory");
			if (ptb_cli_common(&ctx, PTB_OPT_COMMON + 0, argv[++i]) < 0)
				return PTB_EUSAGE;
		} else if (strncmp(a, "--recipes=", 10) == 0) {
			if (ptb_cli_common(&ctx, PTB_OPT_COMMON + 0, a + 10) < 0)
				return PTB_EUSAGE;
		} else {
			return ptb_cli_usage(NULL, "unknown option '%s'", a);
		}
	}
	if (i >= argc) {
		usage_all(stderr);
		return PTB_EUSAGE;
	}
	if (strcmp(argv[i], "help") == 0) {
		if (i + 1 < argc && (cmd = find_cmd(argv[i + 1]))) {
			ptb_cli_help(cmd);
			return 0;
		}
		if (i + 1 < argc)
			return ptb_cli_usage(NULL, "unknown command '%s'", argv[i + 1]);
		usage_all(stdout);
		return 0;
	}
	cmd = find_cmd(argv[i]);
	if (!cmd)
		return ptb_cli_usage(NULL, "unknown command '%s'", argv[i]);
	/* The command sees argv starting at its own name. */
	optind = 1;
	opterr = 0;
	rc = cmd->run(&ctx, argc - i, argv + i);
	ptb_lua_free(ctx.lua);
	return rc;
}
