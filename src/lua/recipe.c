/* recipe.c - a recipe entry's answer: a document, or the caller's error. */
#include "lua/recipe.h"

#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/log.h"

/* The status of one error by its kind, and of several the strongest:
 * usage (2) over a recipe's own fault (3) over unsupported (1). */
static int kind_status(const char *kind)
{
	if (kind && strcmp(kind, "usage") == 0)
		return PTB_EUSAGE;
	if (kind && strcmp(kind, "unsupported") == 0)
		return PTB_EFOUND;
	return PTB_ERECIPE;
}

static int stronger(int a, int b)
{
	static const int order[] = { PTB_EUSAGE, PTB_ERECIPE, PTB_EFOUND };

	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (a == order[i] || b == order[i])
			return order[i];
	return a;
}

/* One error as text: its message, or (a kind the API does not know, or
 * none) the message prefixed by the recipe that gave it. */
static char *error_text(const cJSON *e, const char *name, const char *fn)
{
	const char *m = ptb_json_str(e, "message");

	if (!m)
		m = "(recipe gave no message)";
	if (kind_status(ptb_json_str(e, "kind")) == PTB_ERECIPE)
		return ptb_xasprintf("recipe '%s.%s' failed: %s", name, fn, m);
	return ptb_xstrdup(m);
}

/* errors (a non-empty array) -> err from the first, the others in *rest. */
static void take_errors(const cJSON *errors, const char *name, const char *fn,
                        cJSON **rest, struct ptb_err *err)
{
	const cJSON *e;
	int code = 0, first = 1;

	cJSON_ArrayForEach(e, errors) {
		const char *hint = ptb_json_str(e, "hint");
		char *msg = error_text(e, name, fn);

		code = first ? kind_status(ptb_json_str(e, "kind"))
		             : stronger(code, kind_status(ptb_json_str(e, "kind")));
		if (first) {
			ptb_err_set(err, 0, "%s", msg);
			if (hint)
				ptb_err_hint(err, "%s", hint);
		} else if (rest) {
			cJSON *r = cJSON_CreateObject();

			if (!*rest)
				*rest = cJSON_CreateArray();
			cJSON_AddStringToObject(r, "message", msg);
			if (hint)
				cJSON_AddStringToObject(r, "hint", hint);
			cJSON_AddItemToArray(*rest, r);
		}
		free(msg);
		first = 0;
	}
	err->code = code;
}

int ptb_recipe_call(struct ptb_lua *lua, const char *name, const char *fn,
                    const cJSON *arg, cJSON **out, cJSON **rest,
                    struct ptb_err *err)
{
	cJSON *res = NULL;
	const cJSON *errors;

	*out = NULL;
	if (rest)
		*rest = NULL;
	if (ptb_lua_call(lua, name, fn, arg, &res, err) != 0)
		return -1;
	if (!cJSON_IsObject(res)) {
		cJSON_Delete(res);
		ptb_err_set(err, PTB_ERECIPE, "recipe '%s.%s' returned no document", name, fn);
		return -1;
	}
	errors = cJSON_GetObjectItemCaseSensitive(res, "errors");
	if (errors && !cJSON_IsArray(errors)) {
		cJSON_Delete(res);
		ptb_err_set(err, PTB_ERECIPE, "recipe '%s.%s' returned a malformed answer: key 'errors': expected an array of {kind, message, hint}",
		            name, fn);
		return -1;
	}
	if (cJSON_GetArraySize(errors) > 0) {
		take_errors(errors, name, fn, rest, err);
		cJSON_Delete(res);
		return -1;
	}
	*out = res;
	return 0;
}

int ptb_recipe_report(const struct ptb_err *err, cJSON *rest)
{
	const cJSON *e;
	int rc = ptb_report(err);

	cJSON_ArrayForEach(e, rest) {
		ptb_error("%s", ptb_json_str(e, "message"));
		if (ptb_json_str(e, "hint"))
			ptb_hint("%s", ptb_json_str(e, "hint"));
	}
	cJSON_Delete(rest);
	return rc;
}
