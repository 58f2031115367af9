/* plan_diff.c - what changed between two plans, decision by decision:
 * what a user wants to see after upgrading ptbuild, a driver or a
 * toolkit, or when moving a build to another machine. */
#include "core/plan.h"

#include <string.h>

#include "util/json.h"

static const char *str(const cJSON *v)
{
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static cJSON *change(const char *key, const char *name, const char *was, const char *now)
{
	cJSON *c = cJSON_CreateObject();

	cJSON_AddStringToObject(c, key, name);
	if (was)
		cJSON_AddStringToObject(c, "was", was);
	else
		cJSON_AddNullToObject(c, "was");
	if (now)
		cJSON_AddStringToObject(c, "now", now);
	else
		cJSON_AddNullToObject(c, "now");
	return c;
}

/* The decision on topic in a plan's decisions list (the first one). */
static const cJSON *decision(const cJSON *plan, const char *topic)
{
	const cJSON *d;

	cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(plan, "decisions"))
		if (same(ptb_json_str(d, "topic"), topic))
			return d;
	return NULL;
}

static void diff_decisions(const cJSON *was, const cJSON *now, cJSON *out)
{
	const cJSON *d;

	/* In the new plan's order, then topics only the old plan had. */
	cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(now, "decisions")) {
		const char *topic = ptb_json_str(d, "topic");
		const cJSON *o = topic ? decision(was, topic) : NULL;

		if (!topic || decision(now, topic) != d)
			continue;
		if (!o || !same(ptb_json_str(o, "choice"), ptb_json_str(d, "choice"))) {
			cJSON *c = change("topic", topic, o ? ptb_json_str(o, "choice") : NULL,
			                  ptb_json_str(d, "choice"));

			if (ptb_json_str(d, "why"))
				cJSON_AddStringToObject(c, "why", ptb_json_str(d, "why"));
			cJSON_AddItemToArray(out, c);
		}
	}
	cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(was, "decisions")) {
		const char *topic = ptb_json_str(d, "topic");

		if (topic && decision(was, topic) == d && !decision(now, topic))
			cJSON_AddItemToArray(out, change("topic", topic, ptb_json_str(d, "choice"), NULL));
	}
}

/* Two objects of strings (env, cmake): each name added, removed or
 * changed, in the new plan's order, then the removed ones. */
static void diff_strings(const cJSON *was, const cJSON *now, cJSON *out)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, now) {
		const char *o = str(cJSON_GetObjectItemCaseSensitive(was, it->string));

		if (!same(o, str(it)))
			cJSON_AddItemToArray(out, change("name", it->string, o, str(it)));
	}
	cJSON_ArrayForEach(it, was)
		if (!cJSON_GetObjectItemCaseSensitive(now, it->string))
			cJSON_AddItemToArray(out, change("name", it->string, str(it), NULL));
}

static int has_problem(const cJSON *plan, const char *code)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(plan, "problems"))
		if (same(ptb_json_str(p, "code"), code))
			return 1;
	return 0;
}

static void diff_problems(const cJSON *was, const cJSON *now, cJSON *added, cJSON *gone)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(now, "problems"))
		if (ptb_json_str(p, "code") && !has_problem(was, ptb_json_str(p, "code")))
			cJSON_AddItemToArray(added, cJSON_Duplicate(p, 1));
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(was, "problems"))
		if (ptb_json_str(p, "code") && !has_problem(now, ptb_json_str(p, "code")))
			cJSON_AddItemToArray(gone, cJSON_Duplicate(p, 1));
}

cJSON *ptb_plan_diff(const cJSON *was, const cJSON *now)
{
	cJSON *d = cJSON_CreateObject();
	cJSON *problems;

	cJSON_AddStringToObject(d, "schema", "ptbuild.plan-diff/1");
	cJSON_AddStringToObject(d, "was", ptb_json_str(was, "facts_source") ? ptb_json_str(was, "facts_source") : "?");
	cJSON_AddStringToObject(d, "now", ptb_json_str(now, "facts_source") ? ptb_json_str(now, "facts_source") : "?");
	diff_decisions(was, now, cJSON_AddArrayToObject(d, "decisions"));
	diff_strings(cJSON_GetObjectItemCaseSensitive(was, "env"), cJSON_GetObjectItemCaseSensitive(now, "env"),
	             cJSON_AddArrayToObject(d, "env"));
	diff_strings(cJSON_GetObjectItemCaseSensitive(was, "cmake"), cJSON_GetObjectItemCaseSensitive(now, "cmake"),
	             cJSON_AddArrayToObject(d, "cmake"));
	problems = cJSON_AddObjectToObject(d, "problems");
	diff_problems(was, now, cJSON_AddArrayToObject(problems, "added"), cJSON_AddArrayToObject(problems, "gone"));
	return d;
}

int ptb_plan_diff_empty(const cJSON *d)
{
	return cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(d, "decisions")) == 0 &&
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(d, "env")) == 0 &&
	       cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(d, "cmake")) == 0 &&
	       cJSON_GetArraySize(ptb_json_get(d, "problems.added")) == 0 &&
	       cJSON_GetArraySize(ptb_json_get(d, "problems.gone")) == 0;
}
