/* profiles.c - `ptbuild profiles`: the machine descriptions shipped as
 * facts files (recipes/profiles/NAME.json), with their one-line
 * descriptions, from every directory of the recipe path (first wins). */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

static const struct ptb_opt options[] = {
	{ .name = "json", .off = 0, .help = "the list as JSON: [{name, description, file}]" },
	{ 0 },
};

const struct ptb_cmd ptb_cmd_profiles_def = {
	.name = "profiles", .run = ptb_cmd_profiles,
	.summary = "list the machine profiles 'plan --profile NAME' accepts",
	.usage = "ptbuild profiles [--json]",
	.options = options,
};

struct entry {
	char *name;
	char *file;
};

static int cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static int known(const struct entry *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return 1;
	return 0;
}

/* The profiles found so far, first directory first. */
struct found {
	struct entry *v;
	size_t n, cap;
};

/* Add the NAME.json files of `dir` (a folder that may not exist) whose
 * NAME is not in f already. */
static void add_dir(struct found *f, const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *de;

	while (dh && (de = readdir(dh))) {
		size_t len = strlen(de->d_name);
		char *name;

		if (len <= 5 || strcmp(de->d_name + len - 5, ".json") != 0 || de->d_name[0] == '.')
			continue;
		name = ptb_xstrndup(de->d_name, len - 5);
		if (known(f->v, f->n, name)) {
			free(name);
			continue;
		}
		if (f->n == f->cap) {
			f->cap = f->cap ? 2 * f->cap : 16;
			f->v = ptb_xrealloc(f->v, f->cap * sizeof *f->v);
		}
		f->v[f->n].name = name;
		f->v[f->n].file = ptb_path_join(dir, de->d_name);
		f->n++;
	}
	if (dh)
		closedir(dh);
}

/* The profiles of every directory of the recipe path, first wins; each
 * folder looked in (once) is added to `looked`, quoted. */
static struct found find_profiles(struct ptb_ctx *ctx, struct ptb_buf *looked)
{
	struct found f = { 0 };
	size_t npath;
	char **path = ptb_recipe_path(ctx->recipe_dirs, ctx->nrecipe_dirs, &npath);

	for (size_t i = 0; i < npath; i++) {
		char *dir = ptb_path_join(path[i], "profiles");
		int dup = 0;

		for (size_t j = 0; j < i; j++)
			dup |= strcmp(path[j], path[i]) == 0;
		if (!dup)
			ptb_buf_printf(looked, "%s'%s'", looked->len ? ", " : "", dir);
		add_dir(&f, dir);
		free(dir);
	}
	ptb_recipe_path_free(path);
	return f;
}

/* Report that the recipe path holds no profiles: as plan --profile NAME
 * would fail, a data error, not an empty list a script could take for
 * "none needed".  Returns the exit code. */
static int no_profiles(const struct ptb_buf *looked)
{
	struct ptb_err err = { 0 };

	ptb_err_set(&err, PTB_ERECIPE, "no profiles on the recipe path: looked in %s",
	            looked->data ? looked->data : "(nothing)");
	ptb_err_hint(&err, "put NAME.json facts files ('ptbuild detect --json > DIR/profiles/NAME.json') "
	             "in a directory given with --recipes DIR or PTBUILD_RECIPE_PATH, or reinstall ptbuild "
	             "(make install puts the shipped ones in %s/recipes/profiles)", PTB_PKGDATADIR);
	return ptb_report(&err);
}

/* One profile as {name, description, file}, its description read from
 * the file (a warning, and "(no description)", when it cannot be). */
static cJSON *profile_json(const struct entry *p)
{
	struct ptb_err err = { 0 };
	struct ptb_buf b;
	cJSON *doc = NULL, *e;
	const char *desc = NULL;

	ptb_buf_init(&b);
	if (ptb_file_read(p->file, 1u << 20, &b, &err) == 0)
		doc = ptb_json_parse(b.data ? b.data : "", b.len, p->file, &err);
	ptb_buf_free(&b);
	desc = doc ? ptb_json_str(doc, "description") : NULL;
	if (!doc)
		ptb_warn("%s", err.msg);
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "name", p->name);
	cJSON_AddStringToObject(e, "description", desc ? desc : "(no description)");
	cJSON_AddStringToObject(e, "file", p->file);
	cJSON_Delete(doc);
	return e;
}

int ptb_cmd_profiles(struct ptb_ctx *ctx, int argc, char **argv)
{
	struct found f;
	int json = 0, rc;
	cJSON *out;
	struct ptb_buf looked;

	rc = ptb_opt_parse(ctx, &ptb_cmd_profiles_def, argc, argv, &json);
	if (rc >= 0)
		return rc;
	if (optind < argc)
		return ptb_cli_usage("profiles", "unexpected argument '%s'", argv[optind]);
	ptb_buf_init(&looked);
	f = find_profiles(ctx, &looked);
	if (f.n == 0) {
		rc = no_profiles(&looked);
		ptb_buf_free(&looked);
		free(f.v);
		return rc;
	}
	ptb_buf_free(&looked);
	qsort(f.v, f.n, sizeof *f.v, cmp);
	out = cJSON_CreateArray();
	for (size_t i = 0; i < f.n; i++) {
		cJSON_AddItemToArray(out, profile_json(&f.v[i]));
		free(f.v[i].name);
		free(f.v[i].file);
	}
	free(f.v);
	if (json) {
		ptb_cmd_print_json(out);
	} else {
		const cJSON *e;

		cJSON_ArrayForEach(e, out)
			printf("%-22s %s\n", ptb_json_str(e, "name"), ptb_json_str(e, "description"));
	}
	cJSON_Delete(out);
	return 0;
}
