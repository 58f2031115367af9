/* common.c - option parsing and reporting shared by subcommands. */
#include "cmd/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

int ptb_cmd_getopt(struct ptb_ctx *ctx, const struct ptb_cmd *cmd,
                   int argc, char **argv, const char *shortopts,
                   const struct option *longopts,
                   int (*handle)(void *state, int c, const char *arg),
                   void *state)
{
	static const struct option common[] = { PTB_COMMON_OPTIONS };
	size_t nlong = 0, ncommon = sizeof common / sizeof common[0];
	struct option *all;
	char *shorts;
	int c, rc = -1;

	while (longopts && longopts[nlong].name)
		nlong++;
	all = ptb_xcalloc(nlong + ncommon + 1, sizeof *all);
	memcpy(all, common, sizeof common);
	if (nlong)
		memcpy(all + ncommon, longopts, nlong * sizeof *all);
	/* Leading ':' makes getopt report a missing argument as ':'. */
	shorts = ptb_xasprintf(":%s%s", PTB_COMMON_SHORT, shortopts ? shortopts : "");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, all, NULL)) != -1) {
		int r;

		if (c == '?') {
			if (optopt && optopt < 256)
				rc = ptb_cli_usage(cmd->name, "unknown option '-%c'", optopt);
			else
				rc = ptb_cli_usage(cmd->name, "unknown option '%s'", argv[optind - 1]);
			break;
		}
		if (c == ':') {
			rc = ptb_cli_usage(cmd->name, "option '%s' needs a value", argv[optind - 1]);
			break;
		}
		r = ptb_cli_common(ctx, c, optarg);
		if (r == 2) {
			ptb_cli_help(cmd);
			rc = 0;
			break;
		}
		if (r < 0) {
			rc = PTB_EUSAGE;
			break;
		}
		if (r == 1)
			continue;
		r = handle ? handle(state, c, optarg) : PTB_EUSAGE;
		if (r != 0) {
			rc = r;
			break;
		}
	}
	free(all);
	free(shorts);
	return rc;
}

int ptb_plan_opt(struct ptb_plan_opts *o, const char *cmd, int c, const char *arg)
{
	o->cmd = cmd;
	switch (c) {
	case PTB_OPT_PLAN + 0:
		if (o->nfacts == PTB_PLAN_MAX_FACTS) {
			ptb_cli_usage(cmd, "more than %d --facts options (put the files in a directory and pass --facts DIR)",
			              PTB_PLAN_MAX_FACTS);
			return -1;
		}
		o->facts_files[o->nfacts++] = arg;
		o->facts_file = arg;
		break;
	case PTB_OPT_PLAN + 1: o->profile = arg; break;
	case PTB_OPT_PLAN + 2: o->sysroot = arg; break;
	case PTB_OPT_PLAN + 3: o->torch = arg; break;
	case PTB_OPT_PLAN + 4: o->cuda = arg; break;
	case PTB_OPT_PLAN + 5: o->arch_list = arg; break;
	case PTB_OPT_PLAN + 6: {
		char *end;
		long n = strtol(arg, &end, 10);

		if (!*arg || *end || n < 1 || n > 4096) {
			ptb_cli_usage(cmd, "bad --max-jobs value '%s' (expected a number from 1 to 4096)", arg);
			return -1;
		}
		o->max_jobs = arg;
		break;
	}
	case PTB_OPT_PLAN + 7: o->no_cudnn = 1; break;
	case PTB_OPT_PLAN + 8: o->skip_bad = 1; break;
	case PTB_OPT_PLAN + 9: o->build_node = arg; break;
	case PTB_OPT_PLAN + 10: {
		char *end;
		double d = strtod(arg, &end);

		if (!*arg || *end || !(d > 0 && d <= 36500)) {
			ptb_cli_usage(cmd, "bad --max-age value '%s' (expected a number of days above 0)", arg);
			return -1;
		}
		o->max_age_days = d;
		break;
	}
	default:
		return 0;
	}
	return 1;
}

void ptb_cmd_print_warnings(const cJSON *warnings)
{
	const cJSON *w;

	cJSON_ArrayForEach(w, warnings) {
		const char *msg = ptb_json_str(w, "message");
		const char *hint = ptb_json_str(w, "hint");

		if (!msg)
			continue;
		ptb_warn("%s", msg);
		if (hint)
			ptb_hint("%s", hint);
	}
}

void ptb_cmd_print_json(const cJSON *doc)
{
	struct ptb_buf b;

	ptb_buf_init(&b);
	ptb_json_print(doc, 1, &b);
	fwrite(b.data, 1, b.len, stdout);
	ptb_buf_free(&b);
}

/* templates/NAME beside each recipe directory: DIR/templates first (a
 * user's --recipes DIR), then DIR/../templates (the shipped layout,
 * pkgdatadir/{recipes,templates}). */
char *ptb_cmd_find_template(struct ptb_ctx *ctx, const char *name)
{
	size_t n;
	char **path = ptb_recipe_path(ctx->recipe_dirs, ctx->nrecipe_dirs, &n);
	char *found = NULL;

	for (int pass = 0; pass < 2 && !found; pass++) {
		for (size_t i = 0; i < n && !found; i++) {
			char *f = ptb_xasprintf("%s/%stemplates/%s", path[i], pass ? "../" : "", name);

			if (ptb_path_is_file(f))
				found = f;
			else
				free(f);
		}
	}
	ptb_recipe_path_free(path);
	return found;
}
