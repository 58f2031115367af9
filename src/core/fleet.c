/* fleet.c - the facts of many machines in, one plan per platform out
 * (recipes/fleet.lua decides; C reads the files and checks each plan). */
#define _GNU_SOURCE 1  /* timegm */
#include "core/fleet.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "detect/facts.h"
#include "core/problems.h"
#include "lua/recipe.h"
#include "util/json.h"

struct file {
	char *path;
	time_t mtime;
};

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct file *)a)->path, ((const struct file *)b)->path);
}

/* Every facts file the options name: files as given, *.json of a
 * directory in name order. */
static struct file *list_files(const struct ptb_plan_opts *o, size_t *n, struct ptb_err *err)
{
	struct file *f = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < o->nfacts; i++) {
		const char *a = o->facts_files[i];
		size_t first = *n;

		if (ptb_path_is_dir(a)) {
			DIR *dh = opendir(a);
			struct dirent *de;

			if (!dh) {
				ptb_err_set(err, PTB_EIO, "cannot read directory '%s': %s", a, strerror(errno));
				goto fail;
			}
			while ((de = readdir(dh))) {
				size_t len = strlen(de->d_name);

				if (de->d_name[0] == '.' || len <= 5 || strcmp(de->d_name + len - 5, ".json") != 0)
					continue;
				if (*n == cap) {
					cap = cap ? 2 * cap : 16;
					f = ptb_xrealloc(f, cap * sizeof *f);
				}
				f[(*n)++].path = ptb_path_join(a, de->d_name);
			}
			closedir(dh);
			if (*n == first) {
				ptb_err_set(err, PTB_EUSAGE, "directory '%s' holds no facts files (*.json)", a);
				ptb_err_hint(err, "gather them with 'ptbuild detect --json --stamp > DIR/NODE.json' on each node (ptbuild gather)");
				goto fail;
			}
			qsort(f + first, *n - first, sizeof *f, by_path);
		} else {
			if (*n == cap) {
				cap = cap ? 2 * cap : 16;
				f = ptb_xrealloc(f, cap * sizeof *f);
			}
			f[(*n)++].path = ptb_xstrdup(a);
		}
	}
	for (size_t i = 0; i < *n; i++) {
		struct stat st;

		f[i].mtime = stat(f[i].path, &st) == 0 ? st.st_mtime : 0;
	}
	return f;
fail:
	for (size_t i = 0; i < *n; i++)
		free(f[i].path);
	free(f);
	return NULL;
}

/* "2025-06-01T12:00:00Z" -> seconds; -1 when it is not that form. */
static time_t parse_time(const char *s)
{
	struct tm tm = { 0 };
	int used = 0;

	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
	                 &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &used) != 6 ||
	    used != 20 || s[used] != '\0' || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return timegm(&tm);
}

static void format_time(time_t t, char out[32])
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void add_problem(cJSON *problems, const char *sev, const char *code, const char *node,
                        const char *message, const char *fix)
{
	cJSON *p = cJSON_CreateObject();

	cJSON_AddStringToObject(p, "severity", sev);
	cJSON_AddStringToObject(p, "code", code);
	cJSON_AddStringToObject(p, "node", node);
	cJSON_AddStringToObject(p, "message", message);
	cJSON_AddStringToObject(p, "fix", fix);
	cJSON_AddItemToArray(problems, p);
}

/* A node name: what a host name may hold (letters, digits, - _ .), so
 * that it can name a file and a build target. */
static int good_name(const char *s)
{
	if (!*s || strlen(s) > 253 || *s == '.' || *s == '-')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("-_.", *s)))
			return 0;
	return 1;
}

/* The node's name: facts.taken.host, else the file's name without .json. */
static char *node_name(const cJSON *facts, const char *path)
{
	const char *h = ptb_json_str(facts, "taken.host");
	const char *base = strrchr(path, '/');
	size_t len;

	if (h && good_name(h))
		return ptb_xstrdup(h);
	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 5 && strcmp(base + len - 5, ".json") == 0)
		len -= 5;
	return ptb_xstrndup(base, len);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(ptb_json_str(*(cJSON *const *)a, "name"), ptb_json_str(*(cJSON *const *)b, "name"));
}

/* One facts file: its facts, or NULL with err (a bad file, or a taken.at
 * that is not a UTC time). */
static cJSON *load_one(const char *path, struct ptb_err *err)
{
	cJSON *f = ptb_facts_load(path, err);
	const char *at;

	if (f && (at = ptb_json_str(f, "taken.at")) && parse_time(at) < 0) {
		ptb_err_set(err, PTB_EUSAGE, "'%s': key 'taken.at': expected a UTC time such as \"2025-06-01T12:00:00Z\"",
		            path);
		cJSON_Delete(f);
		f = NULL;
	}
	return f;
}

/* Add the node of facts f (taken from file fi; nodes takes f) to nodes:
 * {name, source, taken_at, taken_from, taken_epoch, facts}.  A node
 * already there keeps the newer facts, a problem naming both files. */
static void add_node(cJSON *nodes, cJSON *f, const struct file *fi, cJSON *problems)
{
	char *name = node_name(f, fi->path), when[32], *src;
	const char *at = ptb_json_str(f, "taken.at");
	time_t t = at ? parse_time(at) : fi->mtime;
	cJSON *dup = NULL, *it, *node;

	cJSON_ArrayForEach(it, nodes)
		if (strcmp(ptb_json_str(it, "name"), name) == 0)
			dup = it;
	if (dup) {
		/* keep the newer; name both */
		double was = cJSON_GetObjectItemCaseSensitive(dup, "taken_epoch")->valuedouble;
		const char *old_src = ptb_json_str(dup, "source") + 5;
		int newer = (double)t > was;
		char *msg = ptb_xasprintf("node '%s' has two facts files, '%s' and '%s': the %s is used",
		                          name, old_src, fi->path, newer ? "second (taken later)" : "first (taken no earlier)");
		char *fix = ptb_xasprintf("remove '%s'", newer ? old_src : fi->path);

		add_problem(problems, "warning", "fleet-duplicate-node", name, msg, fix);
		free(msg);
		free(fix);
		if (!newer) {
			cJSON_Delete(f);
			free(name);
			return;
		}
		cJSON_Delete(cJSON_DetachItemViaPointer(nodes, dup));
	}
	node = cJSON_CreateObject();
	src = ptb_xasprintf("file:%s", fi->path);
	cJSON_AddStringToObject(node, "name", name);
	cJSON_AddStringToObject(node, "source", src);
	free(src);
	format_time(t, when);
	cJSON_AddStringToObject(node, "taken_at", when);
	cJSON_AddStringToObject(node, "taken_from", at ? "facts" : "file time");
	cJSON_AddNumberToObject(node, "taken_epoch", (double)t);
	cJSON_AddItemToObject(node, "facts", f);
	cJSON_AddItemToArray(nodes, node);
	free(name);
}

/* Stale: of the files used, those taken longer ago than max_age days. */
static void stale_problems(const cJSON *nodes, double max_age, time_t now, cJSON *problems)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, nodes) {
		double t = cJSON_GetObjectItemCaseSensitive(it, "taken_epoch")->valuedouble;

		if (difftime(now, (time_t)t) > max_age * 86400.0) {
			int stamped = strcmp(ptb_json_str(it, "taken_from"), "facts") == 0;
			char *msg = ptb_xasprintf("the facts of node '%s' ('%s') were taken %.0f days ago (%s, by %s): the machine may have changed since",
			                          ptb_json_str(it, "name"), ptb_json_str(it, "source") + 5,
			                          difftime(now, (time_t)t) / 86400.0, ptb_json_str(it, "taken_at"),
			                          stamped ? "taken.at" : "the file's time");

			add_problem(problems, "warning", "fleet-stale-facts", ptb_json_str(it, "name"), msg,
			            "gather them again ('ptbuild gather' prints how), or raise --max-age");
			free(msg);
		}
	}
}

/* The nodes sorted by name, without taken_epoch: the document does not
 * depend on the file order.  Takes nodes; returns the new array. */
static cJSON *sorted_nodes(cJSON *nodes)
{
	int k = cJSON_GetArraySize(nodes), i = 0;
	cJSON **v = ptb_xcalloc((size_t)k, sizeof *v), *sorted = cJSON_CreateArray();

	while (nodes->child)
		v[i++] = cJSON_DetachItemViaPointer(nodes, nodes->child);
	qsort(v, (size_t)k, sizeof *v, by_name);
	for (i = 0; i < k; i++) {
		cJSON_DeleteItemFromObjectCaseSensitive(v[i], "taken_epoch");
		cJSON_AddItemToArray(sorted, v[i]);
	}
	free(v);
	cJSON_Delete(nodes);
	return sorted;
}

cJSON *ptb_fleet_load(const struct ptb_plan_opts *o, cJSON *problems, struct ptb_err *err)
{
	struct file *files;
	size_t n, nbad = 0;
	struct ptb_buf bad;
	cJSON *nodes = cJSON_CreateArray();
	double max_age = o->max_age_days > 0 ? o->max_age_days : PTB_FLEET_MAX_AGE_DAYS;
	time_t now = time(NULL);

	files = list_files(o, &n, err);
	if (!files) {
		cJSON_Delete(nodes);
		return NULL;
	}
	ptb_buf_init(&bad);
	for (size_t i = 0; i < n; i++) {
		struct ptb_err e = { 0 };
		cJSON *f = load_one(files[i].path, &e);

		if (!f) {
			char *msg = ptb_xasprintf("facts file '%s' is not usable: %s", files[i].path, e.msg);

			nbad++;
			ptb_buf_printf(&bad, "%s%s", bad.len ? "\n  " : "", e.msg);
			if (o->skip_bad)
				add_problem(problems, "warning", "fleet-facts-skipped", files[i].path, msg,
				            "gather this node's facts again ('ptbuild detect --json --stamp' on it); --skip-bad left it out");
			free(msg);
			continue;
		}
		add_node(nodes, f, &files[i], problems);
	}
	stale_problems(nodes, max_age, now, problems);
	for (size_t i = 0; i < n; i++)
		free(files[i].path);
	free(files);
	if (nbad && !o->skip_bad) {
		ptb_err_set(err, PTB_EUSAGE, "%zu of %zu facts files are not usable:\n  %s", nbad, n, bad.data);
		ptb_err_hint(err, "fix or remove them, or pass --skip-bad to plan for the other nodes");
		ptb_buf_free(&bad);
		cJSON_Delete(nodes);
		return NULL;
	}
	ptb_buf_free(&bad);
	if (cJSON_GetArraySize(nodes) == 0) {
		ptb_err_set(err, PTB_EUSAGE, "no usable facts file is left: every one of the %zu is bad", n);
		cJSON_Delete(nodes);
		return NULL;
	}
	return sorted_nodes(nodes);
}

int ptb_fleet_has_errors(const cJSON *fleet)
{
	const cJSON *b;
	int k = ptb_problems_count(cJSON_GetObjectItemCaseSensitive(fleet, "problems"), "error");

	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(fleet, "builds"))
		k += ptb_plan_has_errors(b);
	return k;
}

static int bad(struct ptb_err *err, const char *what)
{
	ptb_err_set(err, PTB_ERECIPE, "recipe 'fleet.make' returned a malformed fleet: %s", what);
	return -1;
}

int ptb_fleet_make(struct ptb_lua *lua, const struct ptb_plan_opts *o,
                   cJSON **fleet, struct ptb_err *err)
{
	cJSON *problems, *nodes, *args, *res = NULL, *b, *it;

	*fleet = NULL;
	if (o->profile || o->sysroot) {
		ptb_err_set(err, PTB_EUSAGE, "a fleet plan reads facts files only: --%s cannot be combined with several --facts",
		            o->profile ? "profile" : "sysroot");
		ptb_err_hint(err, "make a profile's facts file with 'ptbuild profiles --json' ... or copy recipes/profiles/NAME.json");
		return -1;
	}
	problems = cJSON_CreateArray();
	nodes = ptb_fleet_load(o, problems, err);
	if (!nodes) {
		cJSON_Delete(problems);
		return -1;
	}
	args = cJSON_CreateObject();
	cJSON_AddItemToObject(args, "nodes", nodes);
	ptb_plan_add_choices(args, o);
	if (o->build_node)
		cJSON_AddStringToObject(args, "build_node", o->build_node);
	if (ptb_recipe_call(lua, "fleet", "make", args, &res, NULL, err) != 0)
		goto fail;
	if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(res, "builds")) ||
	    !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(res, "nodes")) ||
	    !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(res, "targets")) ||
	    !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(res, "problems")) ||
	    cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(res, "builds")) !=
	    cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(res, "targets"))) {
		bad(err, "expected {builds, targets (one per build), nodes, problems} arrays");
		goto fail;
	}
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(res, "builds"))
		if (ptb_plan_finish(b, err) != 0)
			goto fail;
	/* the problems of reading the files first, then the recipe's */
	it = cJSON_DetachItemFromObjectCaseSensitive(res, "problems");
	while (it->child)
		cJSON_AddItemToArray(problems, cJSON_DetachItemViaPointer(it, it->child));
	cJSON_Delete(it);
	cJSON_AddItemToObject(res, "problems", problems);
	/* schema first, as in a plan */
	it = cJSON_DetachItemFromObjectCaseSensitive(res, "schema");
	if (!cJSON_IsString(it) || strcmp(it->valuestring, PTB_FLEET_SCHEMA) != 0) {
		cJSON_Delete(it);
		bad(err, "key 'schema': expected \"" PTB_FLEET_SCHEMA "\"");
		problems = NULL;
		goto fail;
	}
	cJSON_InsertItemInArray(res, 0, it);
	cJSON_Delete(args);
	*fleet = res;
	return 0;
fail:
	cJSON_Delete(res);
	cJSON_Delete(args);
	cJSON_Delete(problems);
	return -1;
}

int ptb_fleet_stamp(cJSON *facts, const char *sysroot, const char *name, struct ptb_err *err)
{
	char host[256] = "", when[32];
	cJSON *t;

	if (name) {
		if (!good_name(name)) {
			ptb_err_set(err, PTB_EUSAGE, "bad node name '%s' (expected a host name: letters, digits, '-', '_' and '.')", name);
			return -1;
		}
		snprintf(host, sizeof host, "%s", name);
	} else if (sysroot) {
		char *p = ptb_path_join(sysroot, "etc/hostname");
		struct ptb_buf b;
		struct ptb_err e = { 0 };

		ptb_buf_init(&b);
		if (ptb_path_is_file(p) && ptb_file_read(p, 4096, &b, &e) == 0 && b.data)
			snprintf(host, sizeof host, "%.*s", (int)strcspn(b.data, " \t\r\n"), b.data);
		ptb_buf_free(&b);
		free(p);
	} else if (gethostname(host, sizeof host - 1) != 0) {
		host[0] = '\0';
	}
	cJSON_DeleteItemFromObjectCaseSensitive(facts, "taken");
	t = cJSON_AddObjectToObject(facts, "taken");
	if (*host && good_name(host))
		cJSON_AddStringToObject(t, "host", host);
	else
		cJSON_AddNullToObject(t, "host");
	format_time(time(NULL), when);
	cJSON_AddStringToObject(t, "at", when);
	return 0;
}
