/* manpage.c - the man page's OPTIONS section (roff), made from the option
 * tables: `ptbuild --dump-options=man`, spliced into doc/ptbuild.1 by
 * `make regen-options` (tools/regen-options.sh). */
#include "config.h"

#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>

/* Text as roff reads it: backslashes and dashes escaped, no request at
 * the start of a line. */
static void roff(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

static void tag(FILE *out, const struct ptb_opt *o)
{
	fputs(".TP\n", out);
	if (o->short_name)
		fprintf(out, "\\fB\\-%c\\fR, ", o->short_name);
	fputs("\\fB\\-\\-", out);
	roff(out, o->name);
	fputs("\\fR", out);
	if (o->arg) {
		fputs(o->flags & PTB_OPT_OPTIONAL ? "[=\\fI" : " \\fI", out);
		roff(out, o->arg);
		fputs(o->flags & PTB_OPT_OPTIONAL ? "\\fR]" : "\\fR", out);
	}
	if (o->alias) {
		fputs(", \\fB\\-\\-", out);
		roff(out, o->alias);
		fputs("\\fR", out);
	}
	fputc('\n', out);
}

static void section(FILE *out, const char *title, const struct ptb_opt *table)
{
	size_t n;
	const struct ptb_opt **v = ptb_opt_list(table, &n);

	fprintf(out, ".SS \"%s\"\n", title);
	for (size_t i = 0; i < n; i++) {
		if (v[i]->name)
			tag(out, v[i]);
		else
			fputs(".PP\n", out);
		roff(out, v[i]->help);
		fputc('\n', out);
	}
	free(v);
}

/* "--recipes, --verbose and --help": the common options, for the text. */
static void common_names(FILE *out)
{
	size_t n, k = 0, total = 0;
	const struct ptb_opt **v = ptb_opt_list(ptb_cli_options, &n);

	for (size_t i = 0; i < n; i++)
		total += v[i]->name && (v[i]->flags & PTB_OPT_COMMON);
	for (size_t i = 0; i < n; i++) {
		if (!v[i]->name || !(v[i]->flags & PTB_OPT_COMMON))
			continue;
		fputs(k == 0 ? "" : k + 1 == total ? " and " : ", ", out);
		fputs("\\fB\\-\\-", out);
		roff(out, v[i]->name);
		fputs("\\fR", out);
		k++;
	}
	free(v);
}

void ptb_cli_man_options(FILE *out)
{
	size_t n;

	/* no hyphenation: option names and schema names are copied */
	fputs(".SH OPTIONS\n"
	      ".nh\n"
	      "Global options come before the command; ", out);
	common_names(out);
	fputs(" also after it.\n", out);
	section(out, "Global options", ptb_cli_options);
	for (const struct ptb_cmd *const *c = ptb_cli_commands; *c; c++) {
		char title[64];

		free(ptb_opt_list((*c)->options, &n));
		if (!n)
			continue;
		snprintf(title, sizeof title, "ptbuild %s", (*c)->name);
		section(out, title, (*c)->options);
	}
	fputs(".hy\n", out);
}
