/* options.h - the option tables: each command's options are written once,
 * in one table, from which the parser, `ptbuild CMD --help`, the man
 * page's option lists and the shell completions are all made.
 *
 * A table is an array of struct ptb_opt ended by { 0 }.  An entry is
 *   an option:   .name, and where its value goes: .off into the table's
 *                state (a const char * for an option with .arg, an int set
 *                to 1 for one without), or .set to check and store it;
 *   a group:     .group, another table (one shared by several commands),
 *                whose state lies at .off in this table's state;
 *   a paragraph: only .help, printed between the options around it. */
#ifndef PTB_CLI_OPTIONS_H
#define PTB_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

struct ptb_ctx;
struct ptb_cmd;
struct ptb_opt;

/* What a .set function gets. */
struct ptb_opt_arg {
	void *base;                 /* the state of the option's table */
	const struct ptb_opt *opt;
	const char *arg;            /* the value; NULL when none was given */
	const struct ptb_cmd *cmd;  /* the command, NULL before one */
};

/* The field an option names, in the state it was parsed into. */
#define PTB_OPT_FIELD(a, type) ((type *)((char *)(a)->base + (a)->opt->off))

enum {
	PTB_OPT_HIDDEN = 1,         /* parsed, not shown (test hooks) */
	PTB_OPT_OPTIONAL = 2,       /* the value is optional: --color[=WHEN] */
	PTB_OPT_COMMON = 4,         /* global: also accepted after a command */
};

/* .set returns 0, -1 after reporting a usage error (ptb_cli_usage), or
 * PTB_OPT_DONE when it did all the run asked for (--help, --version):
 * the parse stops and the run exits 0. */
#define PTB_OPT_DONE 1

struct ptb_opt {
	const char *name;           /* long name, without "--" */
	const char *alias;          /* a second long name, or NULL */
	char short_name;            /* 'v' for -v, or 0 */
	const char *arg;            /* the value's name ("DIR"); NULL: none */
	const char *help;           /* one paragraph, wrapped when printed */
	size_t off;                 /* where the value goes in the state */
	int (*set)(const struct ptb_opt_arg *a);
	const struct ptb_opt *group;
	/* For completion: the values, space-separated; NULL derives them from
	 * .arg (DIR: directories, FILE or PATH: files). */
	const char *values;
	unsigned flags;
};

/* Parse argv for cmd (argv[0] is the command's name) with getopt_long:
 * cmd's table into state, the common options into ctx.  Returns -1 when
 * the options are done (operands start at optind), or the status the
 * command returns at once: 0 after --help, PTB_EUSAGE after a usage error
 * (reported, with a "did you mean" when an option is close to one it
 * knows).  With cmd NULL it parses the global options before the command
 * and stops at the first operand. */
int ptb_opt_parse(struct ptb_ctx *ctx, const struct ptb_cmd *cmd,
                  int argc, char **argv, void *state);

/* The options of a table, flattened (groups opened, paragraphs kept) and
 * visible, for help, the man page and completions.  *n entries; the
 * caller frees the array. */
const struct ptb_opt **ptb_opt_list(const struct ptb_opt *table, size_t *n);

/* "--name ARG" or "-v, --verbose" (value as written on the command line),
 * the caller frees. */
char *ptb_opt_usage(const struct ptb_opt *o);

/* Print table's options as help lines: the names, then the help wrapped
 * at 79 columns. */
void ptb_opt_help(FILE *out, const struct ptb_opt *table);

/* Print text's words wrapped at width, from column first (where the
 * cursor is), each further line indented by indent; then a newline. */
void ptb_opt_wrap(FILE *out, const char *text, int first, int indent, int width);

#endif
