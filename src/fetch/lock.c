/* lock.c - the ptbuild.lock/1 document: every URL, size and sha256 of a
 * fetch, so a later run (or a Dockerfile) reproduces the exact set. */
#include "fetch/fetch.h"

#include <stdlib.h>
#include <string.h>

#include "util/json.h"

cJSON *ptb_lock_doc(const struct ptb_fetch_list *l)
{
	cJSON *doc = cJSON_CreateObject(), *items = cJSON_CreateArray();

	cJSON_AddStringToObject(doc, "schema", "ptbuild.lock/1");
	if (l->platform)
		cJSON_AddStringToObject(doc, "platform", l->platform);
	if (l->manifest_url) {
		cJSON *m = cJSON_AddObjectToObject(doc, "manifest");
		cJSON_AddStringToObject(m, "url", l->manifest_url);
		if (l->manifest_sha256[0])
			cJSON_AddStringToObject(m, "sha256", l->manifest_sha256);
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct ptb_fetch_item *it = &l->items[i];
		cJSON *j = cJSON_CreateObject();

		cJSON_AddStringToObject(j, "name", it->name);
		if (it->version)
			cJSON_AddStringToObject(j, "version", it->version);
		cJSON_AddStringToObject(j, "kind", it->kind == PTB_ITEM_FILE ? "file" : "archive");
		cJSON_AddStringToObject(j, "url", it->url);
		if (it->size >= 0)
			cJSON_AddNumberToObject(j, "size", (double)it->size);
		cJSON_AddStringToObject(j, "sha256", it->sha256);
		cJSON_AddItemToArray(items, j);
	}
	cJSON_AddItemToObject(doc, "items", items);
	return doc;
}

int ptb_lock_write(const char *path, const struct ptb_fetch_list *l,
                   struct ptb_err *err)
{
	cJSON *doc = ptb_lock_doc(l);
	struct ptb_buf b;
	int rc;

	ptb_buf_init(&b);
	ptb_json_print(doc, 1, &b);
	rc = ptb_file_write_atomic(path, b.data, b.len, 0644, 0, NULL, err);
	ptb_buf_free(&b);
	cJSON_Delete(doc);
	return rc;
}

static int bad(struct ptb_err *err, const char *path, size_t i, const char *key, const char *why)
{
	ptb_err_set(err, PTB_EUSAGE, "bad lock file '%s': items[%zu]: '%s' %s", path, i, key, why);
	return -1;
}

int ptb_lock_read(const char *path, struct ptb_fetch_list *out, struct ptb_err *err)
{
	struct ptb_buf b;
	cJSON *doc, *items, *j;
	const char *s;
	size_t i = 0;
	int rc = -1;

	ptb_buf_init(&b);
	if (ptb_file_read(path, 0, &b, err) != 0) {
		ptb_buf_free(&b);
		return -1;
	}
	doc = ptb_json_parse(b.data, b.len, path, err);
	ptb_buf_free(&b);
	if (!doc)
		return -1;
	s = ptb_json_str(doc, "schema");
	if (!s || strcmp(s, "ptbuild.lock/1") != 0) {
		ptb_err_set(err, PTB_EUSAGE, "'%s' is not a ptbuild.lock/1 file ('schema' is %s)",
		            path, s ? s : "missing");
		goto out;
	}
	if ((s = ptb_json_str(doc, "platform")))
		out->platform = ptb_xstrdup(s);
	if ((s = ptb_json_str(doc, "manifest.url")))
		out->manifest_url = ptb_xstrdup(s);
	if ((s = ptb_json_str(doc, "manifest.sha256")) && ptb_fetch_is_sha256(s))
		memcpy(out->manifest_sha256, s, 65);
	items = cJSON_GetObjectItemCaseSensitive(doc, "items");
	if (!cJSON_IsArray(items)) {
		ptb_err_set(err, PTB_EUSAGE, "bad lock file '%s': 'items' is not a list", path);
		goto out;
	}
	cJSON_ArrayForEach(j, items) {
		const char *name = ptb_json_str(j, "name"), *url = ptb_json_str(j, "url");
		const char *sha = ptb_json_str(j, "sha256"), *kind = ptb_json_str(j, "kind");
		const char *ver = ptb_json_str(j, "version");
		const cJSON *size = cJSON_GetObjectItemCaseSensitive(j, "size");
		struct ptb_fetch_item *it;
		const char *why;

		if (!ptb_fetch_name_ok(name, &why))
			{ bad(err, path, i, "name", why); goto out; }
		if (!url)
			{ bad(err, path, i, "url", "is missing"); goto out; }
		if (!sha || !ptb_fetch_is_sha256(sha))
			{ bad(err, path, i, "sha256", "must be 64 lowercase hex digits"); goto out; }
		if (size && (!cJSON_IsNumber(size) || size->valuedouble < 0))
			{ bad(err, path, i, "size", "must be a number of bytes"); goto out; }
		if (kind && strcmp(kind, "archive") && strcmp(kind, "file"))
			{ bad(err, path, i, "kind", "must be \"archive\" or \"file\""); goto out; }
		it = ptb_fetch_list_add(out);
		it->name = ptb_xstrdup(name);
		it->version = ver ? ptb_xstrdup(ver) : NULL;
		it->url = ptb_xstrdup(url);
		memcpy(it->sha256, sha, 65);
		it->size = size ? (int64_t)size->valuedouble : -1;
		it->kind = kind && strcmp(kind, "file") == 0 ? PTB_ITEM_FILE : PTB_ITEM_ARCHIVE;
		i++;
	}
	rc = 0;
out:
	cJSON_Delete(doc);
	return rc;
}
