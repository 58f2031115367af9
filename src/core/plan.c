/* plan.c - facts + options -> the plan document, through recipes/plan.lua,
 * checked before anyone relies on it. */
#include "core/plan.h"

#include <stdlib.h>
#include <string.h>

#include "detect/detect.h"
#include "core/facts.h"
#include "util/json.h"

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

int ptb_plan_is_fleet(const struct ptb_plan_opts *o)
{
	return o->nfacts > 1 || (o->facts_file && ptb_path_is_dir(o->facts_file));
}

cJSON *ptb_plan_facts(struct ptb_ctx *ctx, const struct ptb_plan_opts *o,
                      char **source, struct ptb_err *err)
{
	cJSON *f;

	*source = NULL;
	if (ptb_plan_is_fleet(o)) {
		const char *cmd = o->cmd ? o->cmd : "this command";

		/* plan and generate make fleet plans themselves; the others work
		 * on one machine, which generate writes a plan for per platform */
		ptb_err_set(err, PTB_EUSAGE, "%s a fleet plan (one build per platform), and '%s' works on one machine's plan",
		            o->nfacts > 1 ? "several --facts make" : "--facts naming a directory makes", cmd);
		if (strcmp(cmd, "fetch") == 0)
			ptb_err_hint(err, "generate per platform with 'ptbuild generate --facts ... --out DIR', which writes each build's plan to DIR/PLATFORM/plan.json; then 'ptbuild fetch --plan DIR/PLATFORM/plan.json' for each platform");
		else
			ptb_err_hint(err, "generate per platform with 'ptbuild generate --facts ... --out DIR' (DIR/PLATFORM/ holds each build's plan, env and CMake files); then run '%s' on a node of each platform, or with one node's --facts FILE", cmd);
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
		char **path = ptb_recipe_path(ctx->recipe_dirs, ctx->nrecipe_dirs, &n);

		f = ptb_facts_profile((const char *const *)path, n, o->profile, err);
		ptb_recipe_path_free(path);
		if (f)
			*source = ptb_xasprintf("profile:%s", o->profile);
		return f;
	}
	/* The command's engine, so --recipes reaches detect's recipe too. */
	struct ptb_detect_opts d = { o->sysroot, ptb_ctx_lua(ctx, err), NULL };
	if (!d.lua)
		return NULL;
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
	const cJSON *it;
	int n = 0;

	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(plan, "problems")) {
		const char *s = ptb_json_str(it, "severity");

		if (s && strcmp(s, "error") == 0)
			n++;
	}
	return n;
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

int ptb_recipe_errors(const cJSON *res, struct ptb_err *err)
{
	const cJSON *errors = cJSON_GetObjectItemCaseSensitive(res, "errors");
	const cJSON *e;
	const char *kind, *msg, *hint;

	if (!cJSON_IsArray(errors) || cJSON_GetArraySize(errors) == 0)
		return 0;
	e = cJSON_GetArrayItem(errors, 0);
	kind = ptb_json_str(e, "kind");
	msg = ptb_json_str(e, "message");
	hint = ptb_json_str(e, "hint");
	ptb_err_set(err, kind && strcmp(kind, "usage") == 0 ? PTB_EUSAGE : PTB_ERECIPE,
	            "%s", msg ? msg : "(recipe gave no message)");
	if (hint)
		ptb_err_hint(err, "%s", hint);
	return -1;
}

int ptb_plan_make(struct ptb_ctx *ctx, const struct ptb_plan_opts *o,
                  cJSON **plan, cJSON **facts_out, struct ptb_err *err)
{
	struct ptb_lua *lua;
	char *source = NULL;
	cJSON *facts, *args, *res = NULL;

	*plan = NULL;
	if (facts_out)
		*facts_out = NULL;
	lua = ptb_ctx_lua(ctx, err);
	if (!lua)
		return -1;
	facts = ptb_plan_facts(ctx, o, &source, err);
	if (!facts)
		return -1;
	args = cJSON_CreateObject();
	cJSON_AddItemReferenceToObject(args, "facts", facts);
	cJSON_AddStringToObject(args, "facts_source", source);
	free(source);
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
	if (ptb_lua_call(lua, "plan", "make", args, &res, err) != 0) {
		cJSON_Delete(args);
		cJSON_Delete(facts);
		return -1;
	}
	cJSON_Delete(args);
	if (ptb_recipe_errors(res, err) != 0) {
		cJSON_Delete(res);
		cJSON_Delete(facts);
		return -1;
	}
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
