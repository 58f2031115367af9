/* cli.h - the command table, global options and the context commands get. */
#ifndef PTB_CLI_H
#define PTB_CLI_H

#include <getopt.h>
#include <stddef.h>

#include "lua/engine.h"
#include "util/log.h"

struct ptb_ctx {
	const char *recipe_dirs[16];   /* --recipes, in order given */
	size_t nrecipe_dirs;
	int verbosity;
	enum ptb_color color;
	struct ptb_lua *lua;           /* created on first use */
};

struct ptb_cmd {
	const char *name;
	int (*run)(struct ptb_ctx *ctx, int argc, char **argv);
	const char *summary;           /* one line for `ptbuild --help` */
	const char *usage;             /* "ptbuild arch LIST [--cuda VER] ..." */
	const char *help;              /* options, one per line */
};

int ptb_cli_main(int argc, char **argv);

/* The engine for this run, with the recipe path from options and
 * environment; NULL with err on failure. */
struct ptb_lua *ptb_ctx_lua(struct ptb_ctx *ctx, struct ptb_err *err);

/* Long options every command accepts; commands append their own.  The
 * values are >= PTB_OPT_COMMON. */
#define PTB_OPT_COMMON 1000
#define PTB_COMMON_OPTIONS \
	{ "recipes", required_argument, NULL, PTB_OPT_COMMON + 0 }, \
	{ "color", optional_argument, NULL, PTB_OPT_COMMON + 1 }, \
	{ "verbose", no_argument, NULL, 'v' }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "help", no_argument, NULL, 'h' }
#define PTB_COMMON_SHORT "vqh"

/* Handle a common option (c from getopt_long).  Returns 1 when handled, 0
 * when not a common option, -1 on a bad value (already reported), and 2
 * when --help was asked (the caller prints its help and returns 0). */
int ptb_cli_common(struct ptb_ctx *ctx, int c, const char *arg);
/* Print `ptbuild CMD --help` text. */
void ptb_cli_help(const struct ptb_cmd *cmd);
/* Report a usage error with a pointer to --help; returns PTB_EUSAGE. */
int ptb_cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
