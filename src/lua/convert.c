/* convert.c - JSON <-> Lua.  Objects come out with their keys sorted, so a
 * recipe's result prints the same bytes every time.  Tables that are not
 * plain data (functions, cycles, mixed keys, NaN) are refused with the path
 * of the offending value. */
#include "lua/convert.h"

#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static const char KEY_ARRAY = 'a';
static const char KEY_OBJECT = 'o';
static const char KEY_NULL = 'n';

#define MAX_DEPTH 64

void ptb_lua_init_markers(lua_State *L)
{
	lua_newtable(L);
	lua_pushliteral(L, "array");
	lua_setfield(L, -2, "__name");
	lua_rawsetp(L, LUA_REGISTRYINDEX, &KEY_ARRAY);
	lua_newtable(L);
	lua_pushliteral(L, "object");
	lua_setfield(L, -2, "__name");
	lua_rawsetp(L, LUA_REGISTRYINDEX, &KEY_OBJECT);
}

void ptb_lua_mark(lua_State *L, int idx, enum ptb_lua_shape shape)
{
	idx = lua_absindex(L, idx);
	lua_rawgetp(L, LUA_REGISTRYINDEX,
	            shape == PTB_LUA_ARRAY ? &KEY_ARRAY : &KEY_OBJECT);
	lua_setmetatable(L, idx);
}

void ptb_lua_push_null(lua_State *L)
{
	lua_pushlightuserdata(L, (void *)&KEY_NULL);
}

static void push(lua_State *L, const cJSON *j, int depth)
{
	if (depth > MAX_DEPTH)
		luaL_error(L, "JSON nested deeper than %d levels", MAX_DEPTH);
	luaL_checkstack(L, 4, "JSON conversion");
	if (cJSON_IsTrue(j)) {
		lua_pushboolean(L, 1);
	} else if (cJSON_IsFalse(j)) {
		lua_pushboolean(L, 0);
	} else if (cJSON_IsNumber(j)) {
		double d = j->valuedouble;

		if (d == floor(d) && fabs(d) < 9007199254740992.0)
			lua_pushinteger(L, (lua_Integer)d);
		else
			lua_pushnumber(L, d);
	} else if (cJSON_IsString(j)) {
		lua_pushstring(L, j->valuestring ? j->valuestring : "");
	} else if (cJSON_IsArray(j)) {
		lua_Integer i = 1;

		lua_newtable(L);
		for (const cJSON *c = j->child; c; c = c->next) {
			push(L, c, depth + 1);
			lua_rawseti(L, -2, i++);
		}
		ptb_lua_mark(L, -1, PTB_LUA_ARRAY);
	} else if (cJSON_IsObject(j)) {
		lua_newtable(L);
		for (const cJSON *c = j->child; c; c = c->next) {
			if (cJSON_IsNull(c))
				continue;           /* absent == null for recipes */
			push(L, c, depth + 1);
			lua_setfield(L, -2, c->string ? c->string : "");
		}
		ptb_lua_mark(L, -1, PTB_LUA_OBJECT);
	} else {
		ptb_lua_push_null(L);
	}
}

void ptb_lua_push_json(lua_State *L, const cJSON *j)
{
	push(L, j, 0);
}

struct path {
	const struct path *up;
	const char *key;
	lua_Integer index;
};

static void path_str(const struct path *p, struct ptb_buf *b)
{
	if (!p)
		return;
	path_str(p->up, b);
	if (p->key)
		ptb_buf_printf(b, "%s%s", b->len ? "." : "", p->key);
	else
		ptb_buf_printf(b, "[%lld]", (long long)p->index);
}

static int bad(lua_State *L, const struct path *p, const char *what)
{
	struct ptb_buf b;

	ptb_buf_init(&b);
	path_str(p, &b);
	lua_pushfstring(L, "result%s%s: %s", b.len ? "." : "", b.data ? b.data : "", what);
	ptb_buf_free(&b);
	return lua_error(L);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static cJSON *conv(lua_State *L, int idx, const struct path *p, int depth,
                   cJSON *parent, const char *key);

/* Attach child to parent immediately so a later error frees it too. */
static cJSON *attach(cJSON *parent, const char *key, cJSON *child)
{
	if (!child)
		ptb_oom();
	if (parent) {
		if (key)
			cJSON_AddItemToObject(parent, key, child);
		else
			cJSON_AddItemToArray(parent, child);
	}
	return child;
}

static int shape_of(lua_State *L, int idx)
{
	int shape = -1;

	if (lua_getmetatable(L, idx)) {
		lua_rawgetp(L, LUA_REGISTRYINDEX, &KEY_ARRAY);
		if (lua_rawequal(L, -1, -2))
			shape = PTB_LUA_ARRAY;
		lua_pop(L, 1);
		lua_rawgetp(L, LUA_REGISTRYINDEX, &KEY_OBJECT);
		if (lua_rawequal(L, -1, -2))
			shape = PTB_LUA_OBJECT;
		lua_pop(L, 2);
	}
	return shape;
}

static cJSON *conv_table(lua_State *L, int idx, const struct path *p,
                         int depth, cJSON *parent, const char *key)
{
	lua_Integer n = 0, maxi = 0;
	size_t nstr = 0;
	int shape = shape_of(L, idx);
	cJSON *out;

	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		if (lua_type(L, -1) == LUA_TSTRING) {
			nstr++;
		} else if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1) {
			n++;
			if (lua_tointeger(L, -1) > maxi)
				maxi = lua_tointeger(L, -1);
		} else {
			lua_pop(L, 1);
			bad(L, p, "table keys must be strings or 1..n");
		}
	}
	if (nstr && n)
		bad(L, p, "table mixes array items and named fields");
	if (n && maxi != n)
		bad(L, p, "array has holes (use ptb.null for a null item)");
	if (nstr == 0 && n == 0 && shape == PTB_LUA_OBJECT)
		return attach(parent, key, cJSON_CreateObject());
	if (nstr == 0) {
		out = attach(parent, key, cJSON_CreateArray());
		for (lua_Integer i = 1; i <= n; i++) {
			struct path sub = { p, NULL, i };

			lua_rawgeti(L, idx, i);
			conv(L, lua_gettop(L), &sub, depth + 1, out, NULL);
			lua_pop(L, 1);
		}
		return out;
	}
	/* Object: keys sorted for stable output. */
	const char **keys = lua_newuserdatauv(L, nstr * sizeof *keys, 0);
	size_t k = 0;
	int keys_idx = lua_gettop(L);

	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		keys[k++] = lua_tostring(L, -1);   /* anchored by the table */
	}
	qsort(keys, nstr, sizeof *keys, cmp_str);
	out = attach(parent, key, cJSON_CreateObject());
	for (size_t i = 0; i < nstr; i++) {
		struct path sub = { p, keys[i], 0 };

		lua_getfield(L, idx, keys[i]);
		conv(L, lua_gettop(L), &sub, depth + 1, out, keys[i]);
		lua_pop(L, 1);
	}
	lua_remove(L, keys_idx);
	return out;
}

static cJSON *conv(lua_State *L, int idx, const struct path *p, int depth,
                   cJSON *parent, const char *key)
{
	if (depth > MAX_DEPTH)
		bad(L, p, "nested too deeply (a cycle?)");
	luaL_checkstack(L, 8, "result conversion");
	switch (lua_type(L, idx)) {
	case LUA_TNIL:
		return attach(parent, key, cJSON_CreateNull());
	case LUA_TBOOLEAN:
		return attach(parent, key, cJSON_CreateBool(lua_toboolean(L, idx)));
	case LUA_TNUMBER: {
		double d = lua_tonumber(L, idx);

		if (!isfinite(d))
			bad(L, p, "number is not finite");
		return attach(parent, key, cJSON_CreateNumber(d));
	}
	case LUA_TSTRING: {
		size_t len;
		const char *s = lua_tolstring(L, idx, &len);

		if (strlen(s) != len)
			bad(L, p, "string holds a NUL byte");
		return attach(parent, key, cJSON_CreateString(s));
	}
	case LUA_TLIGHTUSERDATA:
		if (lua_touserdata(L, idx) == (void *)&KEY_NULL)
			return attach(parent, key, cJSON_CreateNull());
		break;
	case LUA_TTABLE:
		return conv_table(L, idx, p, depth, parent, key);
	default:
		break;
	}
	lua_pushfstring(L, "a %s cannot leave a recipe (plain values only)",
	                luaL_typename(L, idx));
	bad(L, p, lua_tostring(L, -1));
	return NULL;
}

void ptb_lua_to_json(lua_State *L, int idx, cJSON **out)
{
	/* The holder owns the tree while it is built: if conversion raises,
	 * the caller frees *out (the holder) and nothing leaks. */
	cJSON *holder = cJSON_CreateArray();

	if (!holder)
		ptb_oom();
	idx = lua_absindex(L, idx);
	*out = holder;
	conv(L, idx, NULL, 0, holder, NULL);
	*out = cJSON_DetachItemFromArray(holder, 0);
	cJSON_Delete(holder);
}
