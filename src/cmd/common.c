/* common.c - the options and the reporting shared by subcommands. */
#include "cmd/common.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

/* The plan options' setters: into a struct ptb_plan_opts. */
static int add_facts(const struct ptb_opt_arg *a)
{
	struct ptb_plan_opts *o = a->base;

	if (o->nfacts == PTB_PLAN_MAX_FACTS)
		return ptb_cli_usage(a->cmd->name, "more than %d --facts options (put the files in a directory and pass --facts DIR)",
		                     PTB_PLAN_MAX_FACTS), -1;
	o->facts_files[o->nfacts++] = a->arg;
	o->facts_file = a->arg;
	return 0;
}

static int set_max_jobs(const struct ptb_opt_arg *a)
{
	char *end;
	long n = strtol(a->arg, &end, 10);

	if (!*a->arg || *end || n < 1 || n > 4096)
		return ptb_cli_usage(a->cmd->name, "bad --max-jobs value '%s' (expected a number from 1 to 4096)", a->arg), -1;
	*PTB_OPT_FIELD(a, const char *) = a->arg;
	return 0;
}

static int set_max_age(const struct ptb_opt_arg *a)
{
	char *end;
	double d = strtod(a->arg, &end);

	if (!*a->arg || *end || !(d > 0 && d <= 36500))
		return ptb_cli_usage(a->cmd->name, "bad --max-age value '%s' (expected a number of days above 0)", a->arg), -1;
	*PTB_OPT_FIELD(a, double) = d;
	return 0;
}

#define AT(field) .off = offsetof(struct ptb_plan_opts, field)

const struct ptb_opt ptb_cmd_sysroot_options[] = {
	{ .name = "sysroot", .arg = "DIR", .off = 0,
	  .help = "read the machine's files under DIR instead of / (a copy of another "
	          "machine's files: environment variables are read as paths there, no "
	          "library is loaded)" },
	{ 0 },
};

const struct ptb_opt ptb_cmd_input_options[] = {
	{ .name = "facts", .arg = "FILE", .set = add_facts,
	  .help = "the machine a saved facts document describes "
	          "('ptbuild detect --json > FILE') instead of this one" },
	{ .name = "profile", .arg = "NAME", AT(profile), .values = "<profiles>",
	  .help = "the machine a shipped profile describes ('ptbuild profiles')" },
	{ .group = ptb_cmd_sysroot_options, AT(sysroot) },
	{ 0 },
};

const struct ptb_opt ptb_cmd_torch_options[] = {
	{ .name = "torch", .arg = "VER", AT(torch),
	  .help = "PyTorch release (default: the newest ptbuild knows)" },
	{ .name = "no-cudnn", AT(no_cudnn),
	  .help = "build without cuDNN (USE_CUDNN=0, none downloaded); otherwise a "
	          "plan that downloads CUDA downloads cuDNN into the same tree" },
	{ 0 },
};

const struct ptb_opt ptb_cmd_plan_options[] = {
	{ .group = ptb_cmd_input_options },
	{ .group = ptb_cmd_torch_options },
	{ .name = "cuda", .arg = "VER", AT(cuda),
	  .help = "CUDA release instead of ptbuild's choice" },
	{ .name = "arch-list", .arg = "LIST", AT(arch_list),
	  .help = "TORCH_CUDA_ARCH_LIST instead of ptbuild's choice" },
	{ .name = "max-jobs", .arg = "N", AT(max_jobs), .set = set_max_jobs,
	  .help = "MAX_JOBS instead of ptbuild's choice (1 to 4096)" },
	{ 0 },
};

const struct ptb_opt ptb_cmd_fleet_read_options[] = {
	{ .name = "skip-bad", AT(skip_bad),
	  .help = "go on with the other nodes when a facts file is bad (each is named; "
	          "without it a bad file stops the command)" },
	{ .name = "max-age", .arg = "DAYS", AT(max_age_days), .set = set_max_age,
	  .help = "facts taken longer ago are stale (default 7)" },
	{ 0 },
};

const struct ptb_opt ptb_cmd_fleet_options[] = {
	{ .help = "Several --facts (or a directory of facts files) make a fleet plan: "
	          "one build per platform present (x86_64, SBSA, Jetson) for every node "
	          "of it." },
	{ .group = ptb_cmd_fleet_read_options },
	{ .name = "build-node", .arg = "NAME", AT(build_node),
	  .help = "the node whose compilers and memory the build of its platform uses "
	          "(default: the one with the most cores)" },
	{ 0 },
};

#undef AT

int ptb_cmd_plan_opts_given(const struct ptb_plan_opts *o, int arch_list)
{
	return o->nfacts || o->profile || o->sysroot || o->torch || o->cuda ||
	       (arch_list && o->arch_list) || o->max_jobs || o->no_cudnn ||
	       o->skip_bad || o->build_node || o->max_age_days > 0;
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
