/* cli.c - global options, the command table, help and dispatch. */
#include "config.h"

#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmds.h"
#include "util/suggest.h"

/* Only commands that work are listed; each later command adds a line. */
const struct ptb_cmd *const ptb_cli_commands[] = {
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
	&ptb_cmd_completion_def,
	NULL,
};

static void usage_all(FILE *out)
{
	fputs("usage: ptbuild [--recipes DIR] [-v | -q] [--color=WHEN] COMMAND [ARGS]\n"
	      "\n"
	      "Make a PyTorch source build with CUDA come out right the first time.\n"
	      "\n"
	      "Commands:\n", out);
	for (const struct ptb_cmd *const *c = ptb_cli_commands; *c; c++)
		fprintf(out, "  %-10s %s\n", (*c)->name, (*c)->summary);
	fputs("\nGlobal options:\n", out);
	ptb_opt_help(out, ptb_cli_options);
	fputs("\n"
	      "Exit status: 0 ok, 1 problems found, 2 usage, 3 recipe or data error,\n"
	      "4 fetch, archive or I/O error, 5 validation failed.\n", out);
}

/* "Common options: --recipes DIR, -v/--verbose, ...": the global options
 * a command takes too. */
static void common_line(FILE *out)
{
	size_t n;
	const struct ptb_opt **v = ptb_opt_list(ptb_cli_options, &n);
	const char *sep = "\nCommon options: ";

	for (size_t i = 0; i < n; i++) {
		if (!v[i]->name || !(v[i]->flags & PTB_OPT_COMMON))
			continue;
		fputs(sep, out);
		if (v[i]->short_name)
			fprintf(out, "-%c/", v[i]->short_name);
		fprintf(out, "--%s", v[i]->name);
		if (v[i]->arg)
			fprintf(out, v[i]->flags & PTB_OPT_OPTIONAL ? "[=%s]" : " %s", v[i]->arg);
		sep = ", ";
	}
	fputc('\n', out);
	free(v);
}

void ptb_cli_help(const struct ptb_cmd *cmd)
{
	size_t n;
	const struct ptb_opt **v = ptb_opt_list(cmd->options, &n);

	free(v);
	printf("usage: %s\n\n%s\n", cmd->usage, cmd->summary);
	if (cmd->intro)
		printf("\n%s", cmd->intro);
	if (n) {
		putchar('\n');
		ptb_opt_help(stdout, cmd->options);
	}
	if (cmd->epilog)
		printf("\n%s", cmd->epilog);
	common_line(stdout);
}

static void vusage(const char *cmd, const char *meant, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof msg, fmt, ap);
	ptb_error("%s", msg);
	if (meant)
		ptb_hint("did you mean '%s'?", meant);
	if (cmd)
		ptb_hint("see 'ptbuild %s --help'", cmd);
	else
		ptb_hint("see 'ptbuild --help'");
}

int ptb_cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage(cmd, NULL, fmt, ap);
	va_end(ap);
	return PTB_EUSAGE;
}

int ptb_cli_usage_meant(const char *cmd, const char *meant, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage(cmd, meant, fmt, ap);
	va_end(ap);
	return PTB_EUSAGE;
}

/* The global options' setters: into the ptb_ctx. */
static int set_color(const struct ptb_opt_arg *a)
{
	struct ptb_ctx *ctx = a->base;
	const char *arg = a->arg;

	if (!arg || strcmp(arg, "always") == 0)
		ctx->color = PTB_COLOR_ALWAYS;
	else if (strcmp(arg, "never") == 0)
		ctx->color = PTB_COLOR_NEVER;
	else if (strcmp(arg, "auto") == 0)
		ctx->color = PTB_COLOR_AUTO;
	else
		return ptb_cli_usage(NULL, "bad --color value '%s' (expected auto, always or never)", arg), -1;
	ptb_log_init(ctx->verbosity, ctx->color);
	return 0;
}

static int add_recipes(const struct ptb_opt_arg *a)
{
	struct ptb_ctx *ctx = a->base;

	if (ctx->nrecipe_dirs >= sizeof ctx->recipe_dirs / sizeof ctx->recipe_dirs[0])
		return ptb_cli_usage(NULL, "too many --recipes directories (at most 16)"), -1;
	ctx->recipe_dirs[ctx->nrecipe_dirs++] = a->arg;
	return 0;
}

static int set_verbose(const struct ptb_opt_arg *a)
{
	struct ptb_ctx *ctx = a->base;

	ctx->verbosity = ctx->verbosity < 0 ? 1 : ctx->verbosity + 1;
	ptb_log_init(ctx->verbosity, ctx->color);
	return 0;
}

static int set_quiet(const struct ptb_opt_arg *a)
{
	struct ptb_ctx *ctx = a->base;

	ctx->verbosity = -1;
	ptb_log_init(ctx->verbosity, ctx->color);
	return 0;
}

static int show_help(const struct ptb_opt_arg *a)
{
	if (a->cmd)
		ptb_cli_help(a->cmd);
	else
		usage_all(stdout);
	return PTB_OPT_DONE;
}

static int show_version(const struct ptb_opt_arg *a)
{
	(void)a;
	printf("ptbuild %s\n", PACKAGE_VERSION);
	return PTB_OPT_DONE;
}

static int dump_options(const struct ptb_opt_arg *a)
{
	if (strcmp(a->arg, "man") != 0)
		return ptb_cli_usage(NULL, "bad --dump-options value '%s' (expected man)", a->arg), -1;
	ptb_cli_man_options(stdout);
	return PTB_OPT_DONE;
}

const struct ptb_opt ptb_cli_options[] = {
	{ .name = "recipes", .arg = "DIR", .set = add_recipes, .flags = PTB_OPT_COMMON,
	  .help = "look for recipes in DIR first (repeatable); then in PTBUILD_RECIPE_PATH "
	          "(colon-separated), then the installed recipes.  A recipe there overrides "
	          "the shipped one of the same name, and can include it with "
	          "ptb.include_next" },
	{ .name = "verbose", .short_name = 'v', .set = set_verbose, .flags = PTB_OPT_COMMON,
	  .help = "say more: the recipe path, Lua tracebacks (repeat for more)" },
	{ .name = "quiet", .short_name = 'q', .set = set_quiet, .flags = PTB_OPT_COMMON,
	  .help = "print errors only" },
	{ .name = "color", .arg = "WHEN", .set = set_color, .values = "auto always never",
	  .flags = PTB_OPT_COMMON | PTB_OPT_OPTIONAL,
	  .help = "auto (default), always or never; alone, always.  NO_COLOR=1 also "
	          "turns colour off" },
	{ .name = "version", .set = show_version, .help = "print the version" },
	{ .name = "help", .short_name = 'h', .set = show_help, .flags = PTB_OPT_COMMON,
	  .help = "this help; after a command (or as 'ptbuild help COMMAND'), that "
	          "command's help" },
	/* For the build: the man page's option lists (make regen-options). */
	{ .name = "dump-options", .arg = "FORMAT", .set = dump_options, .flags = PTB_OPT_HIDDEN },
	{ 0 },
};

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
	for (const struct ptb_cmd *const *c = ptb_cli_commands; *c; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}

static int unknown_cmd(const char *name)
{
	const char *names[32];
	size_t n = 0;

	for (const struct ptb_cmd *const *c = ptb_cli_commands; *c && n < 32; c++)
		names[n++] = (*c)->name;
	return ptb_cli_usage_meant(NULL, ptb_suggest(name, names, n),
	                           "unknown command '%s'", name);
}

/* `ptbuild help [COMMAND]` */
static int help_cmd(int argc, char **argv)
{
	const struct ptb_cmd *cmd;

	if (argc < 2) {
		usage_all(stdout);
		return 0;
	}
	cmd = find_cmd(argv[1]);
	if (!cmd)
		return unknown_cmd(argv[1]);
	ptb_cli_help(cmd);
	return 0;
}

int ptb_cli_main(int argc, char **argv)
{
	struct ptb_ctx ctx = { .verbosity = 0, .color = PTB_COLOR_AUTO };
	const struct ptb_cmd *cmd;
	int i, rc;

	ptb_log_init(0, PTB_COLOR_AUTO);
	/* Global options come before the command. */
	rc = ptb_opt_parse(&ctx, NULL, argc, argv, NULL);
	if (rc >= 0)
		return rc;
	i = optind;
	if (i >= argc) {
		usage_all(stderr);
		return PTB_EUSAGE;
	}
	if (strcmp(argv[i], "help") == 0)
		return help_cmd(argc - i, argv + i);
	cmd = find_cmd(argv[i]);
	if (!cmd)
		return unknown_cmd(argv[i]);
	/* The command sees argv starting at its own name. */
	rc = cmd->run(&ctx, argc - i, argv + i);
	ptb_lua_free(ctx.lua);
	return rc;
}
