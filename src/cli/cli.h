/* cli.h - the command table, global options and the context commands get. */
#ifndef PTB_CLI_H
#define PTB_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/options.h"
#include "lua/engine.h"
#include "util/log.h"

struct ptb_ctx {
	const char *recipe_dirs[16];   /* --recipes, in order given */
	size_t nrecipe_dirs;
	int verbosity;
	enum ptb_color color;
	struct ptb_lua *lua;           /* created on first use */
};

/* A command: its help is usage, summary, intro, the options (made from
 * the table) and epilog, in that order. */
struct ptb_cmd {
	const char *name;
	int (*run)(struct ptb_ctx *ctx, int argc, char **argv);
	const char *summary;           /* one line for `ptbuild --help` */
	const char *usage;             /* "ptbuild arch LIST [--cuda VER] ..." */
	const char *intro;             /* before the options, or NULL */
	const struct ptb_opt *options; /* the command's table (options.h) */
	const char *epilog;            /* after the options, or NULL */
	/* For completion: the operands' name ("FILE") and values, as an
	 * option's .arg and .values; NULL when it takes none. */
	const char *operand;
	const char *operand_values;
};

int ptb_cli_main(int argc, char **argv);

/* The engine for this run, with the recipe path from options and
 * environment; NULL with err on failure. */
struct ptb_lua *ptb_ctx_lua(struct ptb_ctx *ctx, struct ptb_err *err);

/* The global options (cli.c): all before a command, the PTB_OPT_COMMON
 * ones after it too. */
extern const struct ptb_opt ptb_cli_options[];
/* The commands, NULL-terminated. */
extern const struct ptb_cmd *const ptb_cli_commands[];

/* `ptbuild completion bash|zsh|fish` (complete.c). */
extern const struct ptb_cmd ptb_cmd_completion_def;
/* The man page's OPTIONS section, in roff (manpage.c). */
void ptb_cli_man_options(FILE *out);

/* Print `ptbuild CMD --help` text. */
void ptb_cli_help(const struct ptb_cmd *cmd);
/* Report a usage error with a pointer to --help; returns PTB_EUSAGE. */
int ptb_cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same with a "did you mean 'MEANT'?" hint first (meant may be NULL). */
int ptb_cli_usage_meant(const char *cmd, const char *meant, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
