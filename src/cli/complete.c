/* complete.c - `ptbuild completion bash|zsh|fish`: shell completion
 * scripts made from the option tables (the build installs them:
 * completions/, refreshed by `make regen-options`). */
#include "config.h"

#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How an option's value (or a command's operand) completes. */
enum kind { K_NONE, K_WORDS, K_FILES, K_DIRS, K_PROFILES };

static enum kind kind_of(const char *arg, const char *values)
{
	if (values)
		return strcmp(values, "<profiles>") == 0 ? K_PROFILES : K_WORDS;
	if (!arg)
		return K_NONE;
	if (strstr(arg, "FILE") || strstr(arg, "PATH") || strstr(arg, ".json"))
		return K_FILES;
	if (strstr(arg, "DIR"))
		return K_DIRS;
	return K_NONE;
}

/* A command's options and then the common ones (cmd NULL: all the
 * global ones), paragraphs left out. */
static const struct ptb_opt **options_of(const struct ptb_cmd *cmd, size_t *n)
{
	size_t nc, ng;
	const struct ptb_opt **c = ptb_opt_list(cmd ? cmd->options : NULL, &nc);
	const struct ptb_opt **g = ptb_opt_list(ptb_cli_options, &ng);
	const struct ptb_opt **v = ptb_xcalloc(nc + ng + 1, sizeof *v);

	*n = 0;
	for (size_t i = 0; i < nc; i++)
		if (c[i]->name)
			v[(*n)++] = c[i];
	for (size_t i = 0; i < ng; i++)
		if (g[i]->name && (!cmd || (g[i]->flags & PTB_OPT_COMMON)))
			v[(*n)++] = g[i];
	free(c);
	free(g);
	return v;
}

/* The help's first clause, short, for a menu: up to ';', or to " (" when
 * that leaves a dozen characters, and at most about 60, cut at a space. */
static char *brief(const char *help)
{
	size_t n = strcspn(help, ";");
	const char *paren = strstr(help, " (");
	char *s;

	if (paren && paren - help >= 12 && (size_t)(paren - help) < n)
		n = (size_t)(paren - help);
	if (n > 60) {
		n = 60;
		while (n > 20 && help[n] != ' ')
			n--;
	}
	s = ptb_xstrndup(help, n);
	while (n && strchr(" ,.:", s[n - 1]))
		s[--n] = 0;
	return s;
}

/* s inside '...' for sh (bash, zsh): ' as '\''; in a zsh _arguments
 * spec also what ends its part: ] in a description (Z_DESC), : in a
 * message (Z_MSG). */
enum { Z_NONE, Z_DESC, Z_MSG };

static void squote(FILE *out, const char *s, int zsh)
{
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else if ((zsh == Z_DESC && strchr("[]\\", *s)) || (zsh == Z_MSG && strchr(":\\", *s)))
			fprintf(out, "\\%c", *s);
		else
			fputc(*s, out);
	}
}

/* ---- bash ---- */

static void bash_words(FILE *out, const struct ptb_cmd *cmd)
{
	size_t n;
	const struct ptb_opt **v = options_of(cmd, &n);

	for (size_t i = 0; i < n; i++) {
		if (v[i]->flags & PTB_OPT_HIDDEN)
			continue;
		fprintf(out, "%s--%s", i ? " " : "", v[i]->name);
		if (v[i]->alias)
			fprintf(out, " --%s", v[i]->alias);
		if (v[i]->short_name)
			fprintf(out, " -%c", v[i]->short_name);
	}
	free(v);
}

static void bash_reply(FILE *out, enum kind k, const char *values, const char *cur)
{
	switch (k) {
	case K_WORDS:
		fprintf(out, "COMPREPLY=($(compgen -W '%s' -- \"%s\"))", values, cur);
		break;
	case K_FILES:
		fprintf(out, "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"%s\"))", cur);
		break;
	case K_DIRS:
		fprintf(out, "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"%s\"))", cur);
		break;
	case K_PROFILES:
		fprintf(out, "COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" profiles 2>/dev/null | "
		        "while read -r p _; do echo \"$p\"; done)\" -- \"%s\"))", cur);
		break;
	case K_NONE:
		fputs("COMPREPLY=()", out);
		break;
	}
}

/* The case arms of _ptbuild_value for cmd's options with a value. */
static void bash_values(FILE *out, const struct ptb_cmd *cmd)
{
	size_t n;
	const struct ptb_opt **v = options_of(cmd, &n);
	/* a global option's value: after any command or none */
	const char *star = cmd ? "" : "*", *name0 = cmd ? cmd->name : "";

	for (size_t i = 0; i < n; i++) {
		const struct ptb_opt *o = v[i];
		int common = o->flags & PTB_OPT_COMMON;

		const char *sep = "\t";

		if (!o->arg || (o->flags & PTB_OPT_HIDDEN) || (cmd && common))
			continue;
		for (int a = 0; a < 2; a++) {
			const char *name = a ? o->alias : o->name;

			if (!name)
				continue;
			/* an optional value only as --name=VALUE */
			if (!(o->flags & PTB_OPT_OPTIONAL)) {
				fprintf(out, "%s%s'%s --%s'", sep, star, name0, name);
				sep = "|";
			}
			fprintf(out, "%s%s'%s --%s='", sep, star, name0, name);
			sep = "|";
		}
		fputs(")\n\t\t", out);
		bash_reply(out, kind_of(o->arg, o->values), o->values, "$3");
		fputs(" ;;\n", out);
	}
	free(v);
}

/* The global options with a value in the next word, as case patterns. */
static void bash_global_with_value(FILE *out)
{
	size_t n;
	const struct ptb_opt **v = ptb_opt_list(ptb_cli_options, &n);
	const char *sep = "";

	for (size_t i = 0; i < n; i++) {
		if (v[i]->name && v[i]->arg && !(v[i]->flags & PTB_OPT_OPTIONAL)) {
			fprintf(out, "%s--%s", sep, v[i]->name);
			sep = "|";
		}
	}
	free(v);
	if (!*sep)
		fputs("--", out);
}

static void bash_commands(FILE *out)
{
	for (const struct ptb_cmd *const *c = ptb_cli_commands; *c; c++)
		fprintf(out, "%s ", (*c)->name);
	fputs("help", out);
}

static void bash(FILE *out)
{
	const struct ptb_cmd *const *c;

	fputs("# bash completion for ptbuild.  Made by 'ptbuild completion bash' from\n"
	      "# ptbuild's option tables: do not edit.\n"
	      "\n"
	      "# _ptbuild_options COMMAND: the options COMMAND takes ('': before one).\n"
	      "_ptbuild_options()\n{\n\tcase $1 in\n\t'') echo '", out);
	bash_words(out, NULL);
	fputs("' ;;\n", out);
	for (c = ptb_cli_commands; *c; c++) {
		fprintf(out, "\t%s) echo '", (*c)->name);
		bash_words(out, *c);
		fputs("' ;;\n", out);
	}
	fputs("\tesac\n}\n\n"
	      "# _ptbuild_value COMMAND OPTION[=] CUR: complete OPTION's value; 1 when\n"
	      "# OPTION takes none.\n"
	      "_ptbuild_value()\n{\n\tcase \"$1 $2\" in\n", out);
	bash_values(out, NULL);
	for (c = ptb_cli_commands; *c; c++)
		bash_values(out, *c);
	fputs("\t*) return 1 ;;\n\tesac\n}\n\n"
	      "_ptbuild()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal cmd='' opt='' eq='' i w\n"
	      "\tCOMPREPLY=()\n"
	      "\t# The command: the first word that is no option nor an option's value.\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tw=${COMP_WORDS[i]}\n"
	      "\t\tcase $w in\n"
	      "\t\t=) ((i++)) ;;\n\t\t", out);
	bash_global_with_value(out);
	fputs(") [[ ${COMP_WORDS[i+1]} == = ]] || ((i++)) ;;\n"
	      "\t\t-*) ;;\n"
	      "\t\t*) cmd=$w; break ;;\n"
	      "\t\tesac\n"
	      "\tdone\n"
	      "\t# An option's value: --opt VALUE, or --opt=VALUE (bash splits at '=').\n"
	      "\tif [[ $cur == = ]]; then\n"
	      "\t\topt=$prev eq== cur=\n"
	      "\telif [[ $prev == = ]]; then\n"
	      "\t\topt=${COMP_WORDS[COMP_CWORD-2]} eq==\n"
	      "\telif [[ $prev == -* ]]; then\n"
	      "\t\topt=$prev\n"
	      "\tfi\n"
	      "\tif [[ $opt == -* ]] && _ptbuild_value \"$cmd\" \"$opt$eq\" \"$cur\"; then\n"
	      "\t\treturn 0\n"
	      "\tfi\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$(_ptbuild_options \"$cmd\")\" -- \"$cur\"))\n"
	      "\t\treturn 0\n"
	      "\tfi\n"
	      "\tcase $cmd in\n"
	      "\t''|help) COMPREPLY=($(compgen -W '", out);
	bash_commands(out);
	fputs("' -- \"$cur\")) ;;\n", out);
	for (c = ptb_cli_commands; *c; c++) {
		enum kind k = kind_of((*c)->operand, (*c)->operand_values);

		if (!(*c)->operand)
			continue;
		fprintf(out, "\t%s) ", (*c)->name);
		bash_reply(out, k, (*c)->operand_values, "$cur");
		fputs(" ;;\n", out);
	}
	fputs("\tesac\n"
	      "\treturn 0\n"
	      "}\n"
	      "complete -F _ptbuild ptbuild\n", out);
}

/* ---- zsh ---- */

static void zsh_action(FILE *out, enum kind k, const char *values)
{
	switch (k) {
	case K_WORDS: fprintf(out, "(%s)", values); break;
	case K_FILES: fputs("_files", out); break;
	case K_DIRS: fputs("_files -/", out); break;
	case K_PROFILES: fputs("_ptbuild_profiles", out); break;
	case K_NONE: fputs(" ", out); break;
	}
}

/* One _arguments spec per name of o: '*--name=[brief]:ARG:action'. */
static void zsh_spec(FILE *out, const struct ptb_opt *o)
{
	char *b = brief(o->help ? o->help : "");
	const char *names[3] = { o->name, o->alias, NULL };
	char s[3] = { '-', o->short_name, 0 };

	for (int i = 0; i < 3; i++) {
		const char *name = i == 2 ? (o->short_name ? s : NULL) : names[i];

		if (!name)
			continue;
		fprintf(out, " \\\n\t\t'*%s%s", i == 2 ? "" : "--", name);
		if (o->arg && i != 2)
			fputs(o->flags & PTB_OPT_OPTIONAL ? "=-" : "=", out);
		fputc('[', out);
		squote(out, b, Z_DESC);
		fputc(']', out);
		if (o->arg) {
			fputs(o->flags & PTB_OPT_OPTIONAL ? "::" : ":", out);
			squote(out, o->arg, Z_MSG);
			fputc(':', out);
			zsh_action(out, kind_of(o->arg, o->values), o->values);
		}
		fputc('\'', out);
	}
	free(b);
}

static void zsh_options(FILE *out, const struct ptb_cmd *cmd)
{
	size_t n;
	const struct ptb_opt **v = options_of(cmd, &n);

	for (size_t i = 0; i < n; i++)
		if (!(v[i]->flags & PTB_OPT_HIDDEN))
			zsh_spec(out, v[i]);
	free(v);
}

static void zsh(FILE *out)
{
	const struct ptb_cmd *const *c;

	fputs("#compdef ptbuild\n"
	      "# zsh completion for ptbuild.  Made by 'ptbuild completion zsh' from\n"
	      "# ptbuild's option tables: do not edit.\n"
	      "\n"
	      "_ptbuild_profiles() {\n"
	      "\tlocal -a p\n"
	      "\tp=(${${(f)\"$(_call_program profiles ptbuild profiles 2>/dev/null)\"}%% *})\n"
	      "\tcompadd -a p\n"
	      "}\n"
	      "\n"
	      "_ptbuild() {\n"
	      "\tlocal curcontext=$curcontext state state_descr line ret=1\n"
	      "\tlocal -a commands\n"
	      "\ttypeset -A opt_args\n"
	      "\tcommands=(\n", out);
	for (c = ptb_cli_commands; *c; c++) {
		fprintf(out, "\t\t'%s:", (*c)->name);
		squote(out, (*c)->summary, Z_NONE);
		fputs("'\n", out);
	}
	fputs("\t\t'help:the help of a command'\n"
	      "\t)\n"
	      "\t_arguments -C", out);
	zsh_options(out, NULL);
	fputs(" \\\n\t\t'1:command:->command' \\\n"
	      "\t\t'*::argument:->argument' && ret=0\n"
	      "\tcase $state in\n"
	      "\tcommand)\n"
	      "\t\t_describe -t commands 'ptbuild command' commands && ret=0 ;;\n"
	      "\targument)\n"
	      "\t\tcurcontext=${curcontext%:*:*}:ptbuild-$words[1]:\n"
	      "\t\tcase $words[1] in\n"
	      "\t\thelp) _describe -t commands 'ptbuild command' commands && ret=0 ;;\n", out);
	for (c = ptb_cli_commands; *c; c++) {
		fprintf(out, "\t\t%s)\n\t\t\t_arguments -s", (*c)->name);
		zsh_options(out, *c);
		if ((*c)->operand) {
			fputs(" \\\n\t\t'*:", out);
			squote(out, (*c)->operand, Z_MSG);
			fputc(':', out);
			zsh_action(out, kind_of((*c)->operand, (*c)->operand_values), (*c)->operand_values);
			fputc('\'', out);
		}
		fputs(" && ret=0 ;;\n", out);
	}
	fputs("\t\tesac ;;\n"
	      "\tesac\n"
	      "\treturn ret\n"
	      "}\n"
	      "\n"
	      "_ptbuild \"$@\"\n", out);
}

/* ---- fish ---- */

static void fish_quote(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('\'', out);
}

static void fish_value(FILE *out, enum kind k, const char *values)
{
	switch (k) {
	case K_WORDS: fprintf(out, " -x -a '%s'", values); break;
	case K_FILES: fputs(" -r -F", out); break;
	case K_DIRS: fputs(" -x -a '(__fish_complete_directories)'", out); break;
	case K_PROFILES:
		fputs(" -x -a '(ptbuild profiles 2>/dev/null | string replace -r \" .*\" \"\")'", out);
		break;
	case K_NONE: fputs(" -x", out); break;
	}
}

static void fish_option(FILE *out, const char *cond, const struct ptb_opt *o)
{
	char *b = brief(o->help ? o->help : "");

	fputs("complete -c ptbuild", out);
	if (cond)
		fprintf(out, " -n %s", cond);
	if (o->short_name)
		fprintf(out, " -s %c", o->short_name);
	fprintf(out, " -l %s", o->name);
	if (o->alias)
		fprintf(out, " -l %s", o->alias);
	if (o->arg)
		fish_value(out, kind_of(o->arg, o->values), o->values);
	fputs(" -d ", out);
	fish_quote(out, b);
	fputc('\n', out);
	free(b);
}

static void fish(FILE *out)
{
	const struct ptb_cmd *const *c;
	size_t n;
	const struct ptb_opt **v = ptb_opt_list(ptb_cli_options, &n);

	fputs("# fish completion for ptbuild.  Made by 'ptbuild completion fish' from\n"
	      "# ptbuild's option tables: do not edit.\n"
	      "\n"
	      "complete -c ptbuild -f\n"
	      "set -l commands", out);
	for (c = ptb_cli_commands; *c; c++)
		fprintf(out, " %s", (*c)->name);
	fputs(" help\n", out);
	for (c = ptb_cli_commands; *c; c++) {
		fprintf(out, "complete -c ptbuild -n \"not __fish_seen_subcommand_from $commands\" -a %s -d ",
		        (*c)->name);
		fish_quote(out, (*c)->summary);
		fputc('\n', out);
	}
	fputs("complete -c ptbuild -n \"not __fish_seen_subcommand_from $commands\" -a help "
	      "-d 'the help of a command'\n"
	      "complete -c ptbuild -n '__fish_seen_subcommand_from help' -a \"$commands\"\n", out);
	for (size_t i = 0; i < n; i++)
		if (v[i]->name && !(v[i]->flags & PTB_OPT_HIDDEN))
			fish_option(out, v[i]->flags & PTB_OPT_COMMON ? NULL :
			            "\"not __fish_seen_subcommand_from $commands\"", v[i]);
	free(v);
	for (c = ptb_cli_commands; *c; c++) {
		char *cond = ptb_xasprintf("'__fish_seen_subcommand_from %s'", (*c)->name);

		v = ptb_opt_list((*c)->options, &n);
		for (size_t i = 0; i < n; i++)
			if (v[i]->name && !(v[i]->flags & PTB_OPT_HIDDEN))
				fish_option(out, cond, v[i]);
		free(v);
		if ((*c)->operand && kind_of((*c)->operand, (*c)->operand_values) != K_NONE) {
			fprintf(out, "complete -c ptbuild -n %s", cond);
			fish_value(out, kind_of((*c)->operand, (*c)->operand_values), (*c)->operand_values);
			fputc('\n', out);
		}
		free(cond);
	}
}

static int run_completion(struct ptb_ctx *ctx, int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*write)(FILE *out);
	} shells[] = { { "bash", bash }, { "zsh", zsh }, { "fish", fish } };
	int rc = ptb_opt_parse(ctx, &ptb_cmd_completion_def, argc, argv, NULL);

	if (rc >= 0)
		return rc;
	if (optind >= argc)
		return ptb_cli_usage("completion", "name a shell: bash, zsh or fish");
	if (optind + 1 < argc)
		return ptb_cli_usage("completion", "unexpected argument '%s'", argv[optind + 1]);
	for (size_t i = 0; i < sizeof shells / sizeof shells[0]; i++) {
		if (strcmp(argv[optind], shells[i].name) == 0) {
			shells[i].write(stdout);
			return 0;
		}
	}
	return ptb_cli_usage("completion", "unknown shell '%s' (expected bash, zsh or fish)", argv[optind]);
}

const struct ptb_cmd ptb_cmd_completion_def = {
	.name = "completion", .run = run_completion,
	.summary = "print the completion script of bash, zsh or fish",
	.usage = "ptbuild completion bash|zsh|fish",
	.intro =
	"Prints a script that completes ptbuild's commands, options and their\n"
	"values in that shell.  'make install' installs all three where each\n"
	"shell looks; to try one without installing:\n"
	"\n"
	"  source <(ptbuild completion bash)\n"
	"  source <(ptbuild completion zsh)      # after compinit\n"
	"  ptbuild completion fish | source\n",
	.operand = "SHELL", .operand_values = "bash zsh fish",
};
