/* options.c - parse argv by an option table (getopt_long underneath) and
 * print a table as help. */
#include "config.h"

#include "cli/options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/suggest.h"

/* One option of the flattened table, with the state its value goes to. */
struct flat {
	const struct ptb_opt *opt;
	void *base;
};

struct flat_list {
	struct flat *v;
	size_t n, cap;
};

static void push(struct flat_list *l, const struct ptb_opt *o, void *base)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = ptb_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n].opt = o;
	l->v[l->n].base = base;
	l->n++;
}

static int is_end(const struct ptb_opt *o)
{
	return !o->name && !o->help && !o->group;
}

/* Open the groups of table; keep paragraphs when text, hidden options
 * when hidden; only_common: the common ones alone. */
static void flatten(struct flat_list *l, const struct ptb_opt *t, void *base,
                    int text, int hidden, int only_common)
{
	for (; !is_end(t); t++) {
		if (t->group)
			flatten(l, t->group, base ? (char *)base + t->off : NULL, text, hidden, only_common);
		else if (!t->name ? text && !only_common :
		         (hidden || !(t->flags & PTB_OPT_HIDDEN)) &&
		         (!only_common || (t->flags & PTB_OPT_COMMON)))
			push(l, t, base);
	}
}

const struct ptb_opt **ptb_opt_list(const struct ptb_opt *table, size_t *n)
{
	struct flat_list l = { 0 };
	const struct ptb_opt **v;

	if (table)
		flatten(&l, table, NULL, 1, 0, 0);
	v = ptb_xcalloc(l.n + 1, sizeof *v);
	for (size_t i = 0; i < l.n; i++)
		v[i] = l.v[i].opt;
	*n = l.n;
	free(l.v);
	return v;
}

/* The options argv may hold: cmd's into state, then the common ones
 * into ctx; before a command, every global one. */
static void parse_list(struct flat_list *l, struct ptb_ctx *ctx,
                       const struct ptb_cmd *cmd, void *state)
{
	if (cmd && cmd->options)
		flatten(l, cmd->options, state, 0, 1, 0);
	flatten(l, ptb_cli_options, ctx, 0, 1, cmd != NULL);
}

static int has_arg(const struct ptb_opt *o)
{
	if (!o->arg)
		return no_argument;
	return o->flags & PTB_OPT_OPTIONAL ? optional_argument : required_argument;
}

/* getopt_long's tables: a long option's value is 256 + its index. */
static struct option *long_options(const struct flat_list *l, struct ptb_buf *shorts, int global)
{
	struct option *lo = ptb_xcalloc(2 * l->n + 1, sizeof *lo);
	size_t k = 0;

	/* '+': before a command, stop at the first operand; ':': report a
	 * missing value as ':'. */
	ptb_buf_adds(shorts, global ? "+:" : ":");
	for (size_t i = 0; i < l->n; i++) {
		const struct ptb_opt *o = l->v[i].opt;
		const char *names[2] = { o->name, o->alias };

		for (int j = 0; j < 2; j++) {
			if (!names[j])
				continue;
			lo[k].name = names[j];
			lo[k].has_arg = has_arg(o);
			lo[k].val = 256 + (int)i;
			k++;
		}
		if (o->short_name) {
			ptb_buf_addc(shorts, o->short_name);
			if (o->arg)
				ptb_buf_adds(shorts, o->flags & PTB_OPT_OPTIONAL ? "::" : ":");
		}
	}
	return lo;
}

static int store(const struct flat *f, const struct ptb_cmd *cmd, const char *arg)
{
	struct ptb_opt_arg a = { f->base, f->opt, arg, cmd };

	if (f->opt->set)
		return f->opt->set(&a);
	if (f->opt->arg)
		*PTB_OPT_FIELD(&a, const char *) = arg;
	else
		*PTB_OPT_FIELD(&a, int) = 1;
	return 0;
}

/* An option getopt does not know: named, with the closest one it does
 * know when that is close. */
static int unknown(const struct flat_list *l, const struct ptb_cmd *cmd, const char *word)
{
	const char *name = cmd ? cmd->name : NULL;
	const char **cands = ptb_xcalloc(2 * l->n + 1, sizeof *cands);
	const char *best = NULL;
	char *bare;
	size_t n = 0;

	if (strncmp(word, "--", 2) == 0) {
		bare = ptb_xstrndup(word + 2, strcspn(word + 2, "="));
		for (size_t i = 0; i < l->n; i++) {
			if (l->v[i].opt->flags & PTB_OPT_HIDDEN)
				continue;
			cands[n++] = l->v[i].opt->name;
			cands[n++] = l->v[i].opt->alias;
		}
		best = ptb_suggest(bare, cands, n);
		free(bare);
	}
	free(cands);
	if (best) {
		char *meant = ptb_xasprintf("--%s", best);
		int rc = ptb_cli_usage_meant(name, meant, "unknown option '%s'", word);

		free(meant);
		return rc;
	}
	return ptb_cli_usage(name, "unknown option '%s'", word);
}

static const struct flat *find_short(const struct flat_list *l, int c)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].opt->short_name == c)
			return &l->v[i];
	return NULL;
}

static int getopt_error(const struct flat_list *l, const struct ptb_cmd *cmd,
                        int c, char **argv)
{
	const char *name = cmd ? cmd->name : NULL;
	const char *word = argv[optind - 1];

	if (c == ':')
		return ptb_cli_usage(name, "option '%s' needs a value", word);
	if (optopt >= 256)
		return ptb_cli_usage(name, "option '--%s' takes no value",
		                     l->v[optopt - 256].opt->name);
	if (optopt) {
		char s[3] = { '-', (char)optopt, 0 };

		return unknown(l, cmd, s);
	}
	return unknown(l, cmd, word);
}

int ptb_opt_parse(struct ptb_ctx *ctx, const struct ptb_cmd *cmd,
                  int argc, char **argv, void *state)
{
	struct flat_list l = { 0 };
	struct ptb_buf shorts;
	struct option *lo;
	int c, rc = -1;

	ptb_buf_init(&shorts);
	parse_list(&l, ctx, cmd, state);
	lo = long_options(&l, &shorts, cmd == NULL);
	optind = 0;     /* glibc: start afresh, reading the '+' again */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts.data, lo, NULL)) != -1) {
		const struct flat *f;
		int r;

		if (c == '?' || c == ':') {
			rc = getopt_error(&l, cmd, c, argv);
			break;
		}
		f = c >= 256 ? &l.v[c - 256] : find_short(&l, c);
		r = store(f, cmd, optarg);
		if (r != 0) {
			rc = r == PTB_OPT_DONE ? 0 : PTB_EUSAGE;
			break;
		}
	}
	free(lo);
	free(l.v);
	ptb_buf_free(&shorts);
	return rc;
}

char *ptb_opt_usage(const struct ptb_opt *o)
{
	struct ptb_buf b;

	ptb_buf_init(&b);
	if (o->short_name)
		ptb_buf_printf(&b, "-%c, ", o->short_name);
	ptb_buf_printf(&b, "--%s", o->name);
	if (o->arg)
		ptb_buf_printf(&b, o->flags & PTB_OPT_OPTIONAL ? "[=%s]" : " %s", o->arg);
	if (o->alias)
		ptb_buf_printf(&b, ", --%s", o->alias);
	return b.data;
}

void ptb_opt_wrap(FILE *out, const char *text, int first, int indent, int width)
{
	int col = first;
	int start = 1;

	while (*text) {
		size_t gap = strspn(text, " "), w;

		/* two spaces after a sentence stay two */
		gap = gap > 2 ? 2 : gap;
		text += strspn(text, " ");
		w = strcspn(text, " ");
		if (!w)
			break;
		if (!start && col + (int)(gap + w) > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			start = 1;
		}
		if (start)
			gap = 0;
		fprintf(out, "%*s%.*s", (int)gap, "", (int)w, text);
		col += (int)(gap + w);
		start = 0;
		text += w;
	}
	fputc('\n', out);
}

/* The column the help of table's options starts at. */
static int help_column(const struct ptb_opt **v, size_t n)
{
	int col = 0;

	for (size_t i = 0; i < n; i++) {
		char *u;

		if (!v[i]->name)
			continue;
		u = ptb_opt_usage(v[i]);
		if ((int)strlen(u) > col && strlen(u) <= 22)
			col = (int)strlen(u);
		free(u);
	}
	return col + 4;
}

void ptb_opt_help(FILE *out, const struct ptb_opt *table)
{
	size_t n;
	const struct ptb_opt **v = ptb_opt_list(table, &n);
	int col = help_column(v, n);

	for (size_t i = 0; i < n; i++) {
		char *u;

		if (!v[i]->name) {
			if (i)
				fputc('\n', out);
			ptb_opt_wrap(out, v[i]->help, 0, 0, 79);
			continue;
		}
		u = ptb_opt_usage(v[i]);
		fprintf(out, "  %s", u);
		if ((int)strlen(u) + 4 <= col) {
			fprintf(out, "%*s", col - (int)strlen(u) - 2, "");
		} else {
			fprintf(out, "\n%*s", col, "");
		}
		ptb_opt_wrap(out, v[i]->help, col, col, 79);
		free(u);
	}
	free(v);
}
