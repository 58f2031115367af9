/* plan_items.c - the plan hook: items from a ptbuild.plan/1 document.
 * cuda.downloads[] {name, url, sha256, size, kind?} and cuda.platform, and
 * openblas.source {url, sha256, size?} when the plan builds OpenBLAS from
 * source.  A plan made in memory (ptb_plan_make) passes through the same
 * function once it is a cJSON document. */
#include "fetch/fetch.h"

#include <stdlib.h>
#include <string.h>

#include "util/json.h"

static int add(const cJSON *d, const char *where, const char *dflt_name,
               enum ptb_item_kind kind, struct ptb_fetch_list *out, struct ptb_err *err)
{
	const char *name = ptb_json_str(d, "name"), *url = ptb_json_str(d, "url");
	const char *sha = ptb_json_str(d, "sha256"), *k = ptb_json_str(d, "kind");
	const char *ver = ptb_json_str(d, "version");
	const cJSON *size = cJSON_GetObjectItemCaseSensitive(d, "size");
	struct ptb_fetch_item *it;
	const char *why;

	if (!name)
		name = dflt_name;
	if (!name || !url || !sha || !ptb_fetch_is_sha256(sha)) {
		ptb_err_set(err, PTB_EUSAGE, "the plan's %s needs name, url and a 64-digit sha256", where);
		return -1;
	}
	if (!ptb_fetch_name_ok(name, &why)) {
		ptb_err_set(err, PTB_EUSAGE, "the plan's %s: name '%s' %s", where, name, why);
		return -1;
	}
	it = ptb_fetch_list_add(out);
	it->name = ptb_xstrdup(name);
	it->version = ver ? ptb_xstrdup(ver) : NULL;
	it->url = ptb_xstrdup(url);
	memcpy(it->sha256, sha, 65);
	if (cJSON_IsNumber(size))
		it->size = (int64_t)size->valuedouble;
	else if (cJSON_IsString(size))
		it->size = (int64_t)strtoll(size->valuestring, NULL, 10);
	it->kind = k ? (strcmp(k, "file") == 0 ? PTB_ITEM_FILE : PTB_ITEM_ARCHIVE) : kind;
	return 0;
}

int ptb_fetch_items_from_plan(const cJSON *plan, struct ptb_fetch_list *out,
                              struct ptb_err *err)
{
	const char *s = ptb_json_str(plan, "schema"), *plat;
	const cJSON *d, *ob;

	if (!s || strcmp(s, "ptbuild.plan/1") != 0) {
		ptb_err_set(err, PTB_EUSAGE, "not a ptbuild.plan/1 document");
		return -1;
	}
	if ((plat = ptb_json_str(plan, "cuda.platform")) && !out->platform)
		out->platform = ptb_xstrdup(plat);
	cJSON_ArrayForEach(d, ptb_json_get(plan, "cuda.downloads"))
		if (add(d, "cuda.downloads[]", NULL, PTB_ITEM_ARCHIVE, out, err) != 0)
			return -1;
	ob = ptb_json_get(plan, "openblas.source");
	if (ob && cJSON_IsObject(ob) &&
	    add(ob, "openblas.source", "openblas", PTB_ITEM_FILE, out, err) != 0)
		return -1;
	/* The plan's own shape: openblas {via: "source", version, url, sha256}. */
	ob = ptb_json_get(plan, "openblas");
	s = ptb_json_str(plan, "openblas.via");
	if (!ptb_json_get(plan, "openblas.source") && s && strcmp(s, "source") == 0 &&
	    ptb_json_str(plan, "openblas.url") &&
	    add(ob, "openblas", "openblas", PTB_ITEM_FILE, out, err) != 0)
		return -1;
	return 0;
}
