/* plan.c - facts + options -> the plan document, through recipes/plan.lua,
 * checked before anyone relies on it. */
#include "core/plan.h"

#include <stdlib.h>
#include <string.h>

#include "detect/detect.h"
#include "detect/facts.h"
#include "core/problems.h"
#include "lua/recipe.h"
#include "util/json.h"

int ptb_plan_is_fleet(const struct ptb_plan_opts *o)
{
	return o->nfacts > 1 || (o->facts_file && ptb_path_is_dir(o->facts_file));
}

cJSON *ptb_plan_facts(struct ptb_lua *lua, const struct ptb_plan_opts *o,
                      char **source, struct ptb_err *err)
{
	cJSON *f;

	*source = NULL;
	if (ptb_plan_is_fleet(o)) {
		const char *cmd = o->cmd ? o->cmd : "this command";

		/* Every command that takes --facts handles a fleet itself (plan,
		 * generate, fetch and validate through ptb_fleet_make, doctor
		 * through ptb_fleet_load): one that reaches here does not. */
		ptb_err_set(err, PTB_EUSAGE, "%s a fleet, and '%s' reads one machine's facts",
		            o->nfacts > 1 ? "several --facts make" : "--facts naming a directory makes", cmd);
		ptb_err_hint(err, "pass one node's --facts FILE, or run 'ptbuild plan --facts ...' for the fleet plan");
		return NULL;
	}
	if (o->facts_file && o->profile) {
		ptb_err_set(err, PTB_EUSAGE, "--facts and --profile cannot be combined");
		return NULL;
	}
	if ((o->facts_file || o->profile) && o->sysroot) {
		ptb_err_set(err, PTB_EUSAGE, "--sysroot describes this host; it cannot be combined with --facts or --profile");
		return NULL;
	}
	if (o->facts_file) {
		f = ptb_facts_load(o->facts_file, err);
		if (f)
			*source = ptb_xasprintf("file:%s", o->facts_file);
		return f;
	}
	if (o->profile) {
		size_t n;
		const char *const *path = ptb_lua_path(lua, &n);

		f = ptb_facts_profile(path, n, o->profile, err);
		if (f)
			*source = ptb_xasprintf("profile:%s", o->profile);
		return f;
	}
	/* The caller's engine, so its recipe path reaches detect's recipe too. */
	struct ptb_detect_opts d = { .sysroot = o->sysroot, .lua = lua };
	f = ptb_detect(&d, err);
	if (f && ptb_facts_validate(f, "this host", err) != 0) {
		cJSON_Delete(f);
		return NULL;
	}
	if (f)
		*source = o->sysroot ? ptb_xasprintf("sysroot:%s", o->sysroot) : ptb_xstrdup("host");
	return f;
}

static int bad(struct ptb_err *err, const char *key, const char *want)
{
	ptb_err_set(err, PTB_ERECIPE, "recipe 'plan.make' returned a malformed plan: key '%s': expected %s", key, want);
	return -1;
}

int ptb_plan_has_errors(const cJSON *plan)
{
	return ptb_problems_count(cJSON_GetObjectItemCaseSensitive(plan, "problems"), "error");
}

/* The recipe gives env as [{name, value}] in order; the plan holds an
 * object in that order (the renderers keep it). */
static int env_to_object(cJSON *plan, struct ptb_err *err)
{
	cJSON *arr = cJSON_DetachItemFromObjectCaseSensitive(plan, "env");
	cJSON *obj, *it;

	if (!cJSON_IsArray(arr)) {
		cJSON_Delete(arr);
		return bad(err, "env", "an array of {name, value}");
	}
	obj = cJSON_CreateObject();
	cJSON_ArrayForEach(it, arr) {
		const char *name = ptb_json_str(it, "name");
		const char *value = ptb_json_str(it, "value");

		if (!name || !value || cJSON_GetObjectItemCaseSensitive(obj, name)) {
			cJSON_Delete(arr);
			cJSON_Delete(obj);
			return bad(err, "env[]", "{name, value} strings, each name once");
		}
		cJSON_AddStringToObject(obj, name, value);
	}
	cJSON_Delete(arr);
	cJSON_AddItemToObject(plan, "env", obj);
	return 0;
}

/* Put the keys in a fixed order: schema first, then as the recipe sorted
 * them (objects leave Lua sorted, so the order is deterministic). */
static void schema_first(cJSON *plan)
{
	cJSON *s = cJSON_DetachItemFromObjectCaseSensitive(plan, "schema");

	if (s) {
		s->next = plan->child;
		if (plan->child) {
			s->prev = plan->child->prev;
			plan->child->prev = s;
		} else {
			s->prev = s;
		}
		plan->child = s;
	}
}

int ptb_plan_finish(cJSON *res, struct ptb_err *err)
{
	if (!cJSON_IsObject(res)) {
		ptb_err_set(err, PTB_ERECIPE, "recipe 'plan.make' returned no document");
		return -1;
	}
	if (env_to_object(res, err) != 0 || ptb_plan_validate(res, err) != 0)
		return -1;
	schema_first(res);
	return 0;
}

void ptb_plan_add_choices(cJSON *args, const struct ptb_plan_opts *o)
{
	if (o->torch)
		cJSON_AddStringToObject(args, "torch", o->torch);
	if (o->cuda)
		cJSON_AddStringToObject(args, "cuda", o->cuda);
	if (o->arch_list)
		cJSON_AddStringToObject(args, "arch_list", o->arch_list);
	if (o->max_jobs)
		cJSON_AddNumberToObject(args, "max_jobs", atoi(o->max_jobs));
	if (o->no_cudnn)
		cJSON_AddBoolToObject(args, "no_cudnn", 1);
}

int ptb_plan_make(struct ptb_lua *lua, const struct ptb_plan_opts *o,
                  cJSON **plan, cJSON **facts_out, struct ptb_err *err)
{
	char *source = NULL;
	cJSON *facts, *args, *res = NULL;

	*plan = NULL;
	if (facts_out)
		*facts_out = NULL;
	facts = ptb_plan_facts(lua, o, &source, err);
	if (!facts)
		return -1;
	args = cJSON_CreateObject();
	cJSON_AddItemReferenceToObject(args, "facts", facts);
	cJSON_AddStringToObject(args, "facts_source", source);
	free(source);
	ptb_plan_add_choices(args, o);
	if (ptb_recipe_call(lua, "plan", "make", args, &res, NULL, err) != 0) {
		cJSON_Delete(args);
		cJSON_Delete(facts);
		return -1;
	}
	cJSON_Delete(args);
	if (ptb_plan_finish(res, err) != 0) {
		cJSON_Delete(res);
		cJSON_Delete(facts);
		return -1;
	}
	*plan = res;
	if (facts_out)
		*facts_out = facts;
	else
		cJSON_Delete(facts);
	return 0;
}
