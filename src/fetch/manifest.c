/* manifest.c - NVIDIA redistrib_<label>.json into fetch items.
 *
 * The format as NVIDIA publishes it: top-level release_date, release_label,
 * release_product, then one object per component with name, license,
 * version and one key per platform.  A platform value is either
 * {relative_path, sha256, md5, size} (size a decimal string) or a map of
 * variants ("cuda12", "cuda13.1") to such objects, with a sibling
 * "cuda_variant" list.  "source" and "linux-all" are platforms too. */
#include "fetch/fetch.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ptb_fetch_list_free(struct ptb_fetch_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].name);
		free(l->items[i].version);
		free(l->items[i].url);
		free(l->items[i].path);
	}
	free(l->items);
	free(l->platform);
	free(l->manifest_url);
	memset(l, 0, sizeof *l);
}

struct ptb_fetch_item *ptb_fetch_list_add(struct ptb_fetch_list *l)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->items = ptb_xrealloc(l->items, l->cap * sizeof *l->items);
	}
	memset(&l->items[l->n], 0, sizeof l->items[0]);
	l->items[l->n].size = -1;
	return &l->items[l->n++];
}

int ptb_fetch_name_ok(const char *name, const char **why)
{
	const char *s;

	*why = NULL;
	if (!name || !*name)
		*why = "is missing or empty";
	else if (strlen(name) > 255)
		*why = "is longer than 255 bytes";
	else if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strchr(name, '/'))
		*why = "is not a plain name (no '/', not '.' or '..')";
	for (s = name; !*why && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*why = "holds a control character";
	return *why == NULL;
}

int ptb_fetch_is_sha256(const char *s)
{
	size_t i;

	for (i = 0; s && s[i]; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return 0;
	return i == 64;
}

/* Names NVIDIA changed between releases: asking for either finds the
 * other (CUDA 13.4.2 renamed cuda_cccl to cccl). */
static const char *const renames[][2] = {
	{ "cuda_cccl", "cccl" },
};

static const cJSON *find_component(const cJSON *m, const char *name, const char **found)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(m, name);

	*found = name;
	if (cJSON_IsObject(c))
		return c;
	for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++) {
		for (int k = 0; k < 2; k++) {
			if (strcmp(name, renames[i][k]) == 0) {
				c = cJSON_GetObjectItemCaseSensitive(m, renames[i][1 - k]);
				if (cJSON_IsObject(c)) {
					*found = renames[i][1 - k];
					return c;
				}
			}
		}
	}
	return NULL;
}

static int is_meta_key(const char *k)
{
	return strncmp(k, "release_", 8) == 0;
}

/* Pick a variant from a map such as {"cuda12": {...}, "cuda13": {...}}. */
static const cJSON *pick_variant(const cJSON *map, const struct ptb_manifest_sel *sel,
                                 const char *src, const char *comp,
                                 const char *plat, struct ptb_err *err)
{
	const cJSON *v, *only = NULL;
	struct ptb_buf names;
	int n = 0;

	if (sel->variant) {
		char *want = strncmp(sel->variant, "cuda", 4) == 0
		           ? ptb_xstrdup(sel->variant)
		           : ptb_xasprintf("cuda%s", sel->variant);
		v = cJSON_GetObjectItemCaseSensitive(map, want);
		free(want);
		if (cJSON_IsObject(v))
			return v;
	} else if (sel->cuda) {
		/* cuda13.1 before cuda13: the closer match wins. */
		char mm[32], maj[16];
		const char *dot = strchr(sel->cuda, '.');
		const char *dot2 = dot ? strchr(dot + 1, '.') : NULL;
		int lmaj = dot ? (int)(dot - sel->cuda) : (int)strlen(sel->cuda);
		int lmm = dot2 ? (int)(dot2 - sel->cuda) : (int)strlen(sel->cuda);

		snprintf(mm, sizeof mm, "cuda%.*s", lmm, sel->cuda);
		snprintf(maj, sizeof maj, "cuda%.*s", lmaj, sel->cuda);
		v = cJSON_GetObjectItemCaseSensitive(map, mm);
		if (!cJSON_IsObject(v))
			v = cJSON_GetObjectItemCaseSensitive(map, maj);
		if (cJSON_IsObject(v))
			return v;
	}
	ptb_buf_init(&names);
	cJSON_ArrayForEach(v, map) {
		if (!cJSON_IsObject(v))
			continue;
		ptb_buf_printf(&names, "%s%s", n ? ", " : "", v->string);
		only = v;
		n++;
	}
	if (n == 1 && !sel->variant && !sel->cuda) {
		ptb_buf_free(&names);
		return only;
	}
	ptb_err_set(err, PTB_EUSAGE, "component '%s' in '%s' has variants %s for %s%s%s",
	            comp, src, n ? names.data : "(none)", plat,
	            sel->variant ? "; none is " : "", sel->variant ? sel->variant : "");
	ptb_err_hint(err, "choose one with --variant (or give --cuda VER)");
	ptb_buf_free(&names);
	return NULL;
}

static int bad_key(struct ptb_err *err, const char *src, const char *comp,
                   const char *plat, const char *key, const char *why)
{
	ptb_err_set(err, PTB_EUSAGE, "malformed manifest '%s': component '%s', platform '%s': '%s' %s",
	            src, comp, plat, key, why);
	return -1;
}

static int add_entry(const cJSON *e, const char *comp, const char *version,
                     const char *plat, const char *src, const char *base,
                     struct ptb_fetch_list *out, struct ptb_err *err)
{
	const cJSON *rp = cJSON_GetObjectItemCaseSensitive(e, "relative_path");
	const cJSON *sha = cJSON_GetObjectItemCaseSensitive(e, "sha256");
	const cJSON *size = cJSON_GetObjectItemCaseSensitive(e, "size");
	struct ptb_fetch_item *it;
	int64_t n = 0;

	if (!cJSON_IsString(rp) || !*rp->valuestring)
		return bad_key(err, src, comp, plat, "relative_path", "is missing or not a string");
	if (rp->valuestring[0] == '/' || strstr(rp->valuestring, "..") || strstr(rp->valuestring, "://"))
		return bad_key(err, src, comp, plat, "relative_path", "must stay under the manifest's directory");
	if (!cJSON_IsString(sha) || !ptb_fetch_is_sha256(sha->valuestring))
		return bad_key(err, src, comp, plat, "sha256", "must be 64 lowercase hex digits");
	if (cJSON_IsString(size)) {
		const char *s = size->valuestring;

		if (!*s || strlen(s) > 15)
			return bad_key(err, src, comp, plat, "size", "must be a decimal number of bytes");
		for (; *s; s++) {
			if (!isdigit((unsigned char)*s))
				return bad_key(err, src, comp, plat, "size", "must be a decimal number of bytes");
			n = n * 10 + (*s - '0');
		}
	} else if (cJSON_IsNumber(size) && size->valuedouble >= 0 && size->valuedouble < 1e15) {
		n = (int64_t)size->valuedouble;
	} else {
		return bad_key(err, src, comp, plat, "size", "is missing or not a decimal string");
	}
	it = ptb_fetch_list_add(out);
	it->name = ptb_xstrdup(comp);
	it->version = version ? ptb_xstrdup(version) : NULL;
	it->url = ptb_xasprintf("%s%s", base, rp->valuestring);
	memcpy(it->sha256, sha->valuestring, 65);
	it->size = n;
	/* Source archives are not toolkit trees: keep them whole. */
	it->kind = strcmp(plat, "source") == 0 ? PTB_ITEM_FILE : PTB_ITEM_ARCHIVE;
	return 0;
}

/* explicit: the user named the component, so a source-only entry counts. */
static int select_one(const cJSON *c, const char *comp, int explicit,
                      const char *src, const char *base,
                      const struct ptb_manifest_sel *sel,
                      struct ptb_fetch_list *out, struct ptb_err *err)
{
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(c, "version");
	const char *plat = sel->platform;
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(c, plat);

	const char *why;

	if (!ptb_fetch_name_ok(comp, &why)) {
		ptb_err_set(err, PTB_EUSAGE, "malformed manifest '%s': component key '%s' %s", src, comp, why);
		ptb_err_hint(err, "a component's key becomes a folder name; nothing was fetched");
		return -1;
	}
	if (ver && !cJSON_IsString(ver))
		return bad_key(err, src, comp, "-", "version", "is not a string");
	if (!p) {
		plat = "linux-all";
		p = cJSON_GetObjectItemCaseSensitive(c, plat);
	}
	if (!p && explicit) {
		plat = "source";
		p = cJSON_GetObjectItemCaseSensitive(c, plat);
	}
	if (!p) {
		if (!explicit)
			return 1;
		ptb_err_set(err, PTB_EUSAGE, "component '%s' in '%s' has no '%s' archive",
		            comp, src, sel->platform);
		return -1;
	}
	if (!cJSON_IsObject(p))
		return bad_key(err, src, comp, plat, plat, "is not an object");
	if (!cJSON_GetObjectItemCaseSensitive(p, "relative_path")) {
		p = pick_variant(p, sel, src, comp, plat, err);
		if (!p)
			return -1;
	}
	return add_entry(p, comp, ver ? ver->valuestring : NULL, plat, src, base, out, err);
}

int ptb_manifest_select(const cJSON *m, const char *src, const char *base,
                        const struct ptb_manifest_sel *sel,
                        struct ptb_fetch_list *out, struct ptb_err *err)
{
	const cJSON *c;

	if (!cJSON_IsObject(m)) {
		ptb_err_set(err, PTB_EUSAGE, "malformed manifest '%s': not a JSON object", src);
		return -1;
	}
	c = cJSON_GetObjectItemCaseSensitive(m, "release_date");
	if (!cJSON_IsString(c)) {
		ptb_err_set(err, PTB_EUSAGE, "malformed manifest '%s': 'release_date' is missing; is this an NVIDIA redistrib_*.json?", src);
		return -1;
	}
	if (sel->components) {
		for (size_t i = 0; i < sel->ncomponents; i++) {
			const char *name;

			c = find_component(m, sel->components[i], &name);
			if (!c) {
				ptb_err_set(err, PTB_EUSAGE, "no component '%s' in '%s'",
				            sel->components[i], src);
				ptb_err_hint(err, "the manifest lists its components as top-level keys");
				return -1;
			}
			/* Named twice (or as both cuda_cccl and cccl): once. */
			for (size_t k = 0; k < out->n; k++)
				if (strcmp(out->items[k].name, name) == 0)
					name = NULL;
			if (name && select_one(c, name, 1, src, base, sel, out, err) < 0)
				return -1;
		}
		return 0;
	}
	cJSON_ArrayForEach(c, m) {
		if (is_meta_key(c->string))
			continue;
		if (!cJSON_IsObject(c)) {
			ptb_err_set(err, PTB_EUSAGE, "malformed manifest '%s': component '%s' is not an object", src, c->string);
			return -1;
		}
		if (select_one(c, c->string, 0, src, base, sel, out, err) < 0)
			return -1;
	}
	if (out->n == 0) {
		ptb_err_set(err, PTB_EUSAGE, "'%s' has no component for %s", src, sel->platform);
		return -1;
	}
	return 0;
}
