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

int ptb_cmd_profiles(struct ptb_ctx *ctx, int argc, char **argv)
{
	struct entry *v = NULL;
	size_t n = 0, cap = 0, npath;
	char **path;
	int json = 0, rc;
	cJSON *out;
	struct ptb_buf looked;

	rc = ptb_opt_parse(ctx, &ptb_cmd_profiles_def, argc, argv, &json);
	if (rc >= 0)
		return rc;
	if (optind < argc)
		return ptb_cli_usage("profiles", "unexpected argument '%s'", argv[optind]);
	path = ptb_recipe_path(ctx->recipe_dirs, ctx->nrecipe_dirs, &npath);
	ptb_buf_init(&looked);
	for (size_t i = 0; i < npath; i++) {
		char *dir = ptb_path_join(path[i], "profiles");
		DIR *dh = opendir(dir);
		struct dirent *de;
		int dup = 0;

		for (size_t j = 0; j < i; j++)
			dup |= strcmp(path[j], path[i]) == 0;
		if (!dup)
			ptb_buf_printf(&looked, "%s'%s'", looked.len ? ", " : "", dir);

		while (dh && (de = readdir(dh))) {
			size_t len = strlen(de->d_name);
			char *name;

			if (len <= 5 || strcmp(de->d_name + len - 5, ".json") != 0 || de->d_name[0] == '.')
				continue;
			name = ptb_xstrndup(de->d_name, len - 5);
			if (known(v, n, name)) {
				free(name);
				continue;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				v = ptb_xrealloc(v, cap * sizeof *v);
			}
			v[n].name = name;
			v[n].file = ptb_path_join(dir, de->d_name);
			n++;
		}
		if (dh)
			closedir(dh);
		free(dir);
	}
	ptb_recipe_path_free(path);
	if (n == 0) {
		/* As plan --profile NAME would fail: a data error, not an
		 * empty list a script could take for "none needed". */
		struct ptb_err err = { 0 };

		ptb_err_set(&err, PTB_ERECIPE, "no profiles on the recipe path: looked in %s",
		            looked.data ? looked.data : "(nothing)");
		ptb_err_hint(&err, "put NAME.json facts files ('ptbuild detect --json > DIR/profiles/NAME.json') "
		             "in a directory given with --recipes DIR or PTBUILD_RECIPE_PATH, or reinstall ptbuild "
		             "(make install puts the shipped ones in %s/recipes/profiles)", PTB_PKGDATADIR);
		ptb_buf_free(&looked);
		free(v);
		return ptb_report(&err);
	}
	ptb_buf_free(&looked);
	qsort(v, n, sizeof *v, cmp);
	out = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++) {
		struct ptb_err err = { 0 };
		struct ptb_buf b;
		cJSON *doc = NULL, *e;
		const char *desc = NULL;

		ptb_buf_init(&b);
		if (ptb_file_read(v[i].file, 1u << 20, &b, &err) == 0)
			doc = ptb_json_parse(b.data ? b.data : "", b.len, v[i].file, &err);
		ptb_buf_free(&b);
		desc = doc ? ptb_json_str(doc, "description") : NULL;
		if (!doc)
			ptb_warn("%s", err.msg);
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "name", v[i].name);
		cJSON_AddStringToObject(e, "description", desc ? desc : "(no description)");
		cJSON_AddStringToObject(e, "file", v[i].file);
		cJSON_AddItemToArray(out, e);
		cJSON_Delete(doc);
		free(v[i].name);
		free(v[i].file);
	}
	free(v);
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
