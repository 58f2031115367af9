/* engine.c - Lua state, sandbox, budgets and the one protected-call helper.
 * This file and convert.c are the only ones that include lua.h. */
#include "config.h"

#include "lua/engine.h"
#include "lua/convert.h"
#include "lua/precompiled.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "util/log.h"

#define HOOK_EVERY 1000

struct ptb_lua {
	lua_State *L;
	char **path;
	size_t npath;
	size_t mem_used;
	size_t mem_limit;       /* soft cap: crossing it raises a Lua error */
	size_t mem_hard;        /* hard cap: allocations beyond fail outright */
	int mem_over;
	long instr;
	long instr_limit;
	long time_limit_ms;
	volatile sig_atomic_t time_over;  /* set by the CPU timer (SIGPROF) */
	int test_mode;
};

/* Past the CPU time limit the hook stops the recipe at its next
 * instruction; still running GRACE_MS later means the time goes inside C
 * (a backtracking pattern in string.find): no safe way to unwind from
 * there, so the process ends with exit 3 and a message. */
#define GRACE_MS 1000

/* Registry keys (addresses are unique). */
static const char KEY_MODULES = 'm';
static const char KEY_BASE = 'b';
static const char KEY_OFFERS = 'o';

static void hook(lua_State *L, lua_Debug *ar);
static int guard_begin(struct ptb_lua *e, const char *what);
static void guard_end(int started);
static long time_limit(const struct ptb_lua_opts *opts);

static void *lalloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct ptb_lua *e = ud;

	if (ptr == NULL)
		osize = 0;
	if (nsize == 0) {
		free(ptr);
		e->mem_used -= osize;
		return NULL;
	}
	if (nsize > osize) {
		size_t grow = nsize - osize;

		if (e->mem_used + grow > e->mem_hard || e->mem_used + grow < e->mem_used)
			return NULL;
		if (e->mem_used + grow > e->mem_limit && e->L && !e->mem_over) {
			/* Let this allocation through and have the hook raise a
			 * normal error at the next instruction, so the message
			 * carries the recipe's file and line. */
			e->mem_over = 1;
			lua_sethook(e->L, hook, LUA_MASKCOUNT, 1);
		}
	}
	void *p = realloc(ptr, nsize);
	if (!p)
		return NULL;
	e->mem_used = e->mem_used - osize + nsize;
	return p;
}

static struct ptb_lua *engine_of(lua_State *L)
{
	void *ud;

	lua_getallocf(L, &ud);
	return ud;
}

/* Raise msg at the running Lua function's file and line (in a hook the
 * running function is level 0, not 1 as luaL_error assumes). */
static void hook_error(lua_State *L, const char *msg)
{
	lua_Debug ar;

	if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline > 0)
		lua_pushfstring(L, "%s:%d: %s", ar.short_src, ar.currentline, msg);
	else
		lua_pushstring(L, msg);
	lua_error(L);
}

static void hook(lua_State *L, lua_Debug *ar)
{
	struct ptb_lua *e = engine_of(L);
	char msg[128];

	(void)ar;
	if (e->time_over) {
		lua_sethook(L, hook, LUA_MASKCOUNT, 1);
		snprintf(msg, sizeof msg, "CPU time limit of %ld ms exceeded",
		         e->time_limit_ms);
		hook_error(L, msg);
	}
	if (e->mem_over) {
		snprintf(msg, sizeof msg, "memory cap of %zu MiB exceeded",
		         e->mem_limit >> 20);
		hook_error(L, msg);
	}
	e->instr += HOOK_EVERY;
	if (e->instr > e->instr_limit) {
		/* From now on every instruction fails, so no pcall in the
		 * recipe can swallow the budget error and carry on. */
		lua_sethook(L, hook, LUA_MASKCOUNT, 1);
		snprintf(msg, sizeof msg, "instruction budget of %ld exceeded (endless loop?)",
		         e->instr_limit);
		hook_error(L, msg);
	}
}

/* Message handler: message plus traceback. */
static int msgh(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);

	if (msg == NULL) {
		if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
			msg = lua_tostring(L, -1);
		else
			msg = lua_pushfstring(L, "(error object is a %s value)",
			                      luaL_typename(L, 1));
	}
	luaL_traceback(L, L, msg, 1);
	return 1;
}

/* ---- recipe resolution ---------------------------------------------- */

static int valid_name(const char *name)
{
	size_t seg = 0;

	if (!*name || strlen(name) > 200)
		return 0;
	for (const char *p = name; *p; p++) {
		if (*p == '/' || *p == '.') {
			if (seg == 0)
				return 0;
			seg = 0;
			continue;
		}
		if (!(*p == '_' || *p == '-' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return 0;
		seg++;
	}
	return seg > 0;
}

/* name -> relative file "a/b.lua"; caller frees. */
static char *name_to_rel(const char *name)
{
	char *rel = ptb_xasprintf("%s.lua", name);

	for (char *p = rel; *p && strcmp(p, ".lua") != 0; p++)
		if (*p == '.')
			*p = '/';
	return rel;
}

static char *resolve_from(const struct ptb_lua *e, const char *name,
                          size_t start, size_t *idx)
{
	char *rel;

	if (!valid_name(name))
		return NULL;
	rel = name_to_rel(name);
	for (size_t i = start; i < e->npath; i++) {
		char *f = ptb_path_join(e->path[i], rel);

		if (ptb_path_is_file(f)) {
			free(rel);
			if (idx)
				*idx = i;
			return f;
		}
		free(f);
	}
	free(rel);
	return NULL;
}

const char *const *ptb_lua_path(const struct ptb_lua *e, size_t *n)
{
	*n = e->npath;
	return (const char *const *)e->path;
}

char *ptb_lua_resolve(const struct ptb_lua *e, const char *name)
{
	return resolve_from(e, name, 0, NULL);
}

/* ---- chunk loading -------------------------------------------------- */

static int l_include_next(lua_State *L);

/* Push a fresh environment for a chunk loaded from path entry `idx`:
 * globals of its own, reads fall through to the shared sandbox base. */
static void push_env(lua_State *L, size_t idx)
{
	lua_newtable(L);                          /* env */
	lua_newtable(L);                          /* mt */
	lua_rawgetp(L, LUA_REGISTRYINDEX, &KEY_BASE);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, -2);
	/* env.ptb: its own include_next, everything else from base.ptb */
	lua_newtable(L);
	lua_pushinteger(L, (lua_Integer)idx);
	lua_pushcclosure(L, l_include_next, 1);
	lua_setfield(L, -2, "include_next");
	lua_newtable(L);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &KEY_BASE);
	lua_getfield(L, -1, "ptb");
	lua_remove(L, -2);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, -2);
	lua_setfield(L, -2, "ptb");
}

/* The build compiled the shipped recipes (lua/precompiled.h).  When text
 * is exactly one of them and this is the Lua that compiled it, load that
 * chunk with the file's own name put in (errors then name the file and
 * line as if it had been parsed): LUA_OK with the function pushed.
 * Otherwise nothing is pushed and the caller parses the text.
 * PTBUILD_NO_PRECOMPILED=1 turns this off. */
static int load_precompiled(lua_State *L, const char *text, size_t n,
                            const char *chunkname)
{
	static int usable = -1;
	const struct ptb_luac_chunk *c = NULL;
	unsigned char enc[16];
	size_t nenc, nname = strlen(chunkname), total;
	char *bc;
	int rc;

	if (usable < 0) {
		const char *off = getenv("PTBUILD_NO_PRECOMPILED");

		usable = !(off && *off && strcmp(off, "0") != 0) &&
		         strcmp(lua_ident, ptb_luac_ident) == 0;
	}
	if (!usable)
		return -1;
	for (size_t i = 0; i < ptb_luac_nchunks && !c; i++)
		if (ptb_luac_chunks[i].nsrc == n && memcmp(ptb_luac_chunks[i].src, text, n) == 0)
			c = &ptb_luac_chunks[i];
	if (!c)
		return -1;
	nenc = ptb_luac_encode_size(nname + 1, enc);
	total = c->nbc - c->name_len + nenc + nname;
	bc = ptb_xmalloc(total);
	memcpy(bc, c->bc, PTB_LUAC_NAME_OFFSET);
	memcpy(bc + PTB_LUAC_NAME_OFFSET, enc, nenc);
	memcpy(bc + PTB_LUAC_NAME_OFFSET + nenc, chunkname, nname);
	memcpy(bc + PTB_LUAC_NAME_OFFSET + nenc + nname, c->bc + PTB_LUAC_NAME_OFFSET + c->name_len,
	       c->nbc - PTB_LUAC_NAME_OFFSET - c->name_len);
	rc = luaL_loadbufferx(L, bc, total, chunkname, "b");
	free(bc);
	if (rc != LUA_OK) {
		ptb_debug("precompiled %s not loaded (%s); parsing it", chunkname + 1,
		          lua_tostring(L, -1) ? lua_tostring(L, -1) : "error");
		lua_pop(L, 1);
		return -1;
	}
	return LUA_OK;
}

/* Load file as a text chunk with its sandbox env; pushes the function. */
static void load_chunk(lua_State *L, const char *file, size_t idx)
{
	struct ptb_buf b;
	struct ptb_err err;
	char *chunkname;
	int rc;

	ptb_buf_init(&b);
	if (ptb_file_read(file, 16u << 20, &b, &err) != 0) {
		ptb_buf_free(&b);
		luaL_error(L, "%s", err.msg);
	}
	chunkname = ptb_xasprintf("@%s", file);
	rc = load_precompiled(L, b.data ? b.data : "", b.len, chunkname);
	if (rc == LUA_OK)
		ptb_debug("recipe %s: precompiled", file);
	else
		rc = luaL_loadbufferx(L, b.data ? b.data : "", b.len, chunkname, "t");
	free(chunkname);
	ptb_buf_free(&b);
	if (rc != LUA_OK) {
		const char *m = lua_tostring(L, -1);

		if (m && strstr(m, "attempt to load a binary chunk"))
			luaL_error(L, "%s: precompiled chunks are refused; recipes are Lua source", file);
		lua_error(L);
	}
	push_env(L, idx);
	if (!lua_setupvalue(L, -2, 1))
		lua_pop(L, 1);
}

/* Include name starting at path entry `start`. Leaves the module value. */
static int include_from(lua_State *L, const char *name, size_t start)
{
	struct ptb_lua *e = engine_of(L);
	size_t idx = 0;
	char *file;
	char *key;

	if (!valid_name(name))
		return luaL_error(L, "bad recipe name '%s' (expected words separated by '/' or '.', no '..')", name);
	file = resolve_from(e, name, start, &idx);
	if (!file)
		return luaL_error(L, "recipe '%s' not found on the recipe path%s",
		                  name, start ? " after the including file's directory" : "");
	key = ptb_xasprintf("%zu:%s", idx, name);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &KEY_MODULES);
	lua_getfield(L, -1, key);
	if (lua_toboolean(L, -1)) {
		if (lua_islightuserdata(L, -1)) {
			free(key);
			free(file);
			return luaL_error(L, "recipe '%s' includes itself (circular ptb.include)", name);
		}
		lua_remove(L, -2);
		free(key);
		free(file);
		return 1;
	}
	lua_pop(L, 1);
	lua_pushlightuserdata(L, (void *)&KEY_MODULES);  /* loading marker */
	lua_setfield(L, -2, key);
	/* Strings on the Lua stack so nothing leaks if loading raises. */
	lua_pushstring(L, key);
	free(key);
	lua_pushstring(L, file);
	free(file);
	load_chunk(L, lua_tostring(L, -1), idx);
	lua_call(L, 0, 1);
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		lua_pushboolean(L, 1);
	}
	/* stack: modules key file value */
	lua_pushvalue(L, -1);
	lua_setfield(L, -5, lua_tostring(L, -4));
	lua_replace(L, -4);
	lua_pop(L, 2);
	return 1;
}

static int l_include(lua_State *L)
{
	return include_from(L, luaL_checkstring(L, 1), 0);
}

static int l_include_next(lua_State *L)
{
	size_t idx = (size_t)lua_tointeger(L, lua_upvalueindex(1));

	return include_from(L, luaL_checkstring(L, 1), idx + 1);
}

static int l_log(lua_State *L)
{
	ptb_debug("recipe: %s", luaL_checkstring(L, 1));
	return 0;
}

/* Test mode only: ptb.where(level) is "FILE:LINE" of the function level
 * frames up from its caller (1: the caller itself), with the file's whole
 * name (Lua's own messages shorten it), or nil past the stack or for a
 * function that is not Lua. */
static int l_where(lua_State *L)
{
	lua_Debug ar;
	lua_Integer level = luaL_checkinteger(L, 1);

	if (level < 1 || level > 1000 || !lua_getstack(L, (int)level, &ar) ||
	    !lua_getinfo(L, "Sl", &ar) || ar.currentline < 0 || ar.source[0] != '@') {
		lua_pushnil(L);
		return 1;
	}
	lua_pushfstring(L, "%s:%d", ar.source + 1, ar.currentline);
	return 1;
}

static int l_array(lua_State *L)
{
	if (lua_isnoneornil(L, 1))
		lua_newtable(L);
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	ptb_lua_mark(L, 1, PTB_LUA_ARRAY);
	return 1;
}

static int l_object(lua_State *L)
{
	if (lua_isnoneornil(L, 1))
		lua_newtable(L);
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	ptb_lua_mark(L, 1, PTB_LUA_OBJECT);
	return 1;
}

/* setmetatable without finalizers: a __gc function runs when the
 * collector gets to it, with hooks off (no budget, no time limit) and at
 * the latest in lua_close, after the call is over.  Only the __gc present
 * when the metatable is set counts (Lua 5.4 manual 2.5.3), so checking
 * here is enough. */
static int l_setmetatable(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TTABLE) {
		lua_pushliteral(L, "__gc");
		if (lua_rawget(L, 2) != LUA_TNIL)
			return luaL_error(L, "setmetatable: a '__gc' finalizer is not available "
			                  "to recipes (sandbox: it would run outside the budget)");
		lua_pop(L, 1);
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
}

static int l_refused(lua_State *L)
{
	return luaL_error(L, "'%s' is not available to recipes (sandbox)",
	                  lua_tostring(L, lua_upvalueindex(1)));
}

/* os.execute & co.: indexing a refused library names the function. */
static int l_refused_index(lua_State *L)
{
	const char *k = lua_tostring(L, 2);

	return luaL_error(L, "'%s.%s' is not available to recipes (sandbox)",
	                  lua_tostring(L, lua_upvalueindex(1)), k ? k : "?");
}

/* A refused name: a table that raises when indexed or called. */
static void push_refused(lua_State *L, const char *name)
{
	lua_newtable(L);
	lua_newtable(L);
	lua_pushstring(L, name);
	lua_pushcclosure(L, l_refused_index, 1);
	lua_setfield(L, -2, "__index");
	lua_pushstring(L, name);
	lua_pushcclosure(L, l_refused_index, 1);
	lua_setfield(L, -2, "__newindex");
	lua_pushstring(L, name);
	lua_pushcclosure(L, l_refused, 1);
	lua_setfield(L, -2, "__call");
	lua_pushboolean(L, 0);
	lua_setfield(L, -2, "__metatable");
	lua_setmetatable(L, -2);
}

/* Copy the named fields of the table at src into a new table. */
static void copy_fields(lua_State *L, int src, const char *const *names)
{
	lua_newtable(L);
	for (; *names; names++) {
		lua_getfield(L, src, *names);
		lua_setfield(L, -2, *names);
	}
}

/* Push the `ptb` table recipes get: include, log, array, object, null,
 * version; ptb.where in test mode (tests/luatest). */
static void push_ptb(lua_State *L, int test_mode)
{
	lua_newtable(L);
	lua_pushcfunction(L, l_include);
	lua_setfield(L, -2, "include");
	lua_pushcfunction(L, l_log);
	lua_setfield(L, -2, "log");
	lua_pushcfunction(L, l_array);
	lua_setfield(L, -2, "array");
	lua_pushcfunction(L, l_object);
	lua_setfield(L, -2, "object");
	ptb_lua_push_null(L);
	lua_setfield(L, -2, "null");
	lua_pushstring(L, PACKAGE_VERSION);
	lua_setfield(L, -2, "version");
	if (test_mode) {
		lua_pushcfunction(L, l_where);
		lua_setfield(L, -2, "where");
	}
}

/* ---- functions offered by higher layers (ptb_lua_offer) ------------------ */

struct offer {
	ptb_lua_fn *fn;
	void *ctx;
};

/* Protected steps of l_offered, so that a conversion that raises (a
 * function in the argument, no memory) frees what it built. */
static int offer_arg(lua_State *L)
{
	cJSON **arg = lua_touserdata(L, 2);

	ptb_lua_to_json(L, 1, arg);
	return 0;
}

static int offer_result(lua_State *L)
{
	ptb_lua_push_json(L, lua_touserdata(L, 1));
	return 1;
}

static int l_offered(lua_State *L)
{
	const struct offer *o = lua_touserdata(L, lua_upvalueindex(1));
	struct ptb_err err = { 0 };
	cJSON *arg = NULL, *out = NULL;
	int rc;

	/* a copy a recipe kept after the offer ended: its ctx is gone */
	if (!o->fn)
		return luaL_error(L, "ptb.%s is called after it was withdrawn: look it up when you call it",
		                  lua_tostring(L, lua_upvalueindex(2)));
	lua_settop(L, 1);
	if (!lua_isnil(L, 1)) {
		lua_pushcfunction(L, offer_arg);
		lua_pushvalue(L, 1);
		lua_pushlightuserdata(L, &arg);
		if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
			cJSON_Delete(arg);
			return lua_error(L);
		}
	}
	rc = o->fn(o->ctx, arg, &out, &err);
	cJSON_Delete(arg);
	if (rc != 0) {
		cJSON_Delete(out);
		return luaL_error(L, "%s", err.msg);
	}
	if (!out) {
		lua_pushnil(L);
		return 1;
	}
	lua_pushcfunction(L, offer_result);
	lua_pushlightuserdata(L, out);
	rc = lua_pcall(L, 1, 1, 0);
	cJSON_Delete(out);
	return rc == LUA_OK ? 1 : lua_error(L);
}

/* End the offer of name made before, if any: its closure, wherever a
 * recipe keeps a copy of it, no longer reaches the C function. */
static void withdraw(lua_State *L, const char *name)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &KEY_OFFERS);
	if (lua_istable(L, -1)) {
		struct offer *o;

		lua_getfield(L, -1, name);
		o = lua_touserdata(L, -1);
		if (o) {
			o->fn = NULL;
			o->ctx = NULL;
		}
		lua_pop(L, 1);
		lua_pushnil(L);
		lua_setfield(L, -2, name);
	}
	lua_pop(L, 1);
}

void ptb_lua_offer(struct ptb_lua *e, const char *name, ptb_lua_fn *fn, void *ctx)
{
	lua_State *L = e->L;

	withdraw(L, name);
	lua_rawgetp(L, LUA_REGISTRYINDEX, &KEY_BASE);
	lua_getfield(L, -1, "ptb");
	if (fn) {
		struct offer *o = lua_newuserdatauv(L, sizeof *o, 0);

		o->fn = fn;
		o->ctx = ctx;
		/* the registry's list of live offers holds the userdata too */
		if (lua_rawgetp(L, LUA_REGISTRYINDEX, &KEY_OFFERS) != LUA_TTABLE) {
			lua_pop(L, 1);
			lua_newtable(L);
			lua_pushvalue(L, -1);
			lua_rawsetp(L, LUA_REGISTRYINDEX, &KEY_OFFERS);
		}
		lua_pushvalue(L, -2);
		lua_setfield(L, -2, name);
		lua_pop(L, 1);
		lua_pushstring(L, name);
		lua_pushcclosure(L, l_offered, 2);
	} else {
		lua_pushnil(L);
	}
	lua_setfield(L, -2, name);
	lua_pop(L, 2);
}

/* Into the sandbox's globals (on top of the stack), a copy of library
 * `name` of the full globals (at index g) with only the fields `keep`. */
static void copy_library(lua_State *L, int g, const char *name, const char *const *keep)
{
	lua_getfield(L, g, name);
	copy_fields(L, lua_gettop(L), keep);
	lua_remove(L, -2);
	lua_setfield(L, -2, name);
}

/* Into the sandbox's globals (on top), the string library with only the
 * fields `keep`; strings index this copy (no string.dump), and their
 * metatable is hidden from recipes. */
static void copy_string_library(lua_State *L, int g, const char *const *keep)
{
	lua_getfield(L, g, "string");
	copy_fields(L, lua_gettop(L), keep);
	lua_remove(L, -2);
	lua_pushliteral(L, "");
	lua_getmetatable(L, -1);
	lua_pushvalue(L, -3);
	lua_setfield(L, -2, "__index");
	lua_pushboolean(L, 0);
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 2);
	lua_setfield(L, -2, "string");
}

/* Into the sandbox's globals (on top), the libraries recipes get:
 * string, table, math and utf8, each without what reaches outside. */
static void copy_libraries(lua_State *L, int g)
{
	static const char *const stringfns[] = {
		"byte", "char", "find", "format", "gmatch", "gsub", "len",
		"lower", "match", "rep", "reverse", "sub", "upper", "pack",
		"packsize", "unpack", NULL
	};
	static const char *const tablefns[] = {
		"concat", "insert", "move", "pack", "remove", "sort", "unpack",
		NULL
	};
	static const char *const mathfns[] = {
		"abs", "ceil", "floor", "fmod", "huge", "max", "maxinteger",
		"min", "mininteger", "modf", "pi", "sqrt", "tointeger", "type",
		"ult", "exp", "log", "sin", "cos", "tan", "asin", "acos", "atan",
		NULL
	};
	static const char *const utf8fns[] = {
		"char", "charpattern", "codes", "codepoint", "len", "offset", NULL
	};

	copy_string_library(L, g, stringfns);
	copy_library(L, g, "table", tablefns);
	copy_library(L, g, "math", mathfns);
	copy_library(L, g, "utf8", utf8fns);
}

/* Into the sandbox's globals (on top), the refused names: each raises a
 * clear error rather than "attempt to call a nil value" -- except in
 * test mode, where print (from the full globals at g) writes TAP. */
static void add_refused(lua_State *L, int g, int test_mode)
{
	static const char *const refused[] = {
		"io", "os", "load", "loadfile", "dofile", "require", "debug",
		"collectgarbage", "package", "print", NULL
	};

	for (const char *const *r = refused; *r; r++) {
		if (test_mode && strcmp(*r, "print") == 0) {
			lua_getfield(L, g, "print");
		} else {
			push_refused(L, *r);
		}
		lua_setfield(L, -2, *r);
	}
}

/* Build the globals recipes run with (registry KEY_BASE) from the safe
 * parts of the base, string, table, math and utf8 libraries, and an
 * empty module cache (KEY_MODULES). */
static void build_sandbox(struct ptb_lua *e)
{
	lua_State *L = e->L;
	static const char *const basefns[] = {
		"assert", "error", "ipairs", "next", "pairs", "pcall", "rawequal",
		"rawget", "rawlen", "rawset", "select", "setmetatable",
		"getmetatable", "tonumber", "tostring", "type", "xpcall",
		"_VERSION", NULL
	};
	int g;

	luaL_requiref(L, "_G", luaopen_base, 1);
	luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
	luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
	luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
	luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
	lua_pop(L, 5);
	lua_pushglobaltable(L);
	g = lua_gettop(L);

	copy_fields(L, g, basefns);                        /* base */
	lua_getfield(L, g, "setmetatable");
	lua_pushcclosure(L, l_setmetatable, 1);
	lua_setfield(L, -2, "setmetatable");
	copy_libraries(L, g);
	add_refused(L, g, e->test_mode);

	push_ptb(L, e->test_mode);
	lua_setfield(L, -2, "ptb");

	lua_rawsetp(L, LUA_REGISTRYINDEX, &KEY_BASE);
	lua_pop(L, 1);                                     /* _G */

	lua_newtable(L);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &KEY_MODULES);
}

struct ptb_lua *ptb_lua_new(const struct ptb_lua_opts *opts, struct ptb_err *err)
{
	struct ptb_lua *e = ptb_xcalloc(1, sizeof *e);

	e->mem_limit = opts->mem_limit ? opts->mem_limit : PTB_LUA_MEM_DEFAULT;
	e->mem_hard = e->mem_limit * 2;
	e->instr_limit = opts->instr_limit ? opts->instr_limit : PTB_LUA_INSTR_DEFAULT;
	e->time_limit_ms = time_limit(opts);
	e->test_mode = opts->test_mode;
	e->npath = opts->npath;
	e->path = ptb_xcalloc(opts->npath + 1, sizeof *e->path);
	for (size_t i = 0; i < opts->npath; i++)
		e->path[i] = ptb_xstrdup(opts->path[i]);
	e->L = lua_newstate(lalloc, e);
	if (!e->L) {
		ptb_err_set(err, PTB_ERECIPE, "cannot create a Lua state");
		ptb_lua_free(e);
		return NULL;
	}
	ptb_lua_init_markers(e->L);
	build_sandbox(e);
	lua_sethook(e->L, hook, LUA_MASKCOUNT, HOOK_EVERY);
	return e;
}

void ptb_lua_free(struct ptb_lua *e)
{
	if (!e)
		return;
	if (e->L) {
		/* finalizers run here, outside any call: under the clock too */
		int timing = guard_begin(e, "closing the recipe state");

		lua_close(e->L);
		guard_end(timing);
	}
	for (size_t i = 0; i < e->npath; i++)
		free(e->path[i]);
	free(e->path);
	free(e);
}

void ptb_lua_reset_budget(struct ptb_lua *e)
{
	e->instr = 0;
	e->mem_over = 0;
	lua_sethook(e->L, hook, LUA_MASKCOUNT, HOOK_EVERY);
	int timing = guard_begin(e, "a garbage collection");
	lua_gc(e->L, LUA_GCCOLLECT);
	guard_end(timing);
}

/* ---- the CPU time limit ------------------------------------------------ */

static struct ptb_lua *volatile timed;    /* the engine a call runs in */
static volatile sig_atomic_t ticks;
static char stop_head[512], stop_tail[512];
static struct sigaction old_prof;

/* Append s to buf[at..cap) (async-signal-safe, unlike snprintf). */
static size_t put(char *buf, size_t at, size_t cap, const char *s)
{
	while (*s && at + 1 < cap)
		buf[at++] = *s++;
	buf[at] = '\0';
	return at;
}

static size_t put_int(char *buf, size_t at, size_t cap, long v)
{
	char d[24];
	int i = (int)sizeof d - 1;

	d[i] = '\0';
	do
		d[--i] = (char)('0' + v % 10);
	while ((v /= 10) > 0 && i > 0);
	return put(buf, at, cap, d + i);
}

static void on_prof(int sig)
{
	struct ptb_lua *e = timed;
	char out[2048];
	size_t n;
	lua_Debug ar;

	(void)sig;
	if (!e)
		return;
	if (ticks++ == 0) {
		/* lua_sethook is safe in a signal handler (manual, 4.7) */
		e->time_over = 1;
		lua_sethook(e->L, hook, LUA_MASKCOUNT, 1);
		return;
	}
	/* Still running: inside a C function (or a finalizer, hooks off).
	 * The call chain stands still while C runs, so reading where the
	 * recipe called it from is safe; the process ends right after. */
	n = put(out, 0, sizeof out, stop_head);
	for (int lv = 0; lv < 16 && lua_getstack(e->L, lv, &ar); lv++)
		if (lua_getinfo(e->L, "Sl", &ar) && ar.currentline > 0) {
			n = put(out, n, sizeof out, ar.short_src);
			n = put(out, n, sizeof out, ":");
			n = put_int(out, n, sizeof out, ar.currentline);
			n = put(out, n, sizeof out, ": ");
			break;
		}
	n = put(out, n, sizeof out, stop_tail);
	if (write(STDERR_FILENO, out, n) < 0)
		n = 0;
	_exit(PTB_ERECIPE);
}

static long time_limit(const struct ptb_lua_opts *opts)
{
	const char *s = getenv("PTBUILD_LUA_TIME_LIMIT_MS");
	char *end;
	long v;

	if (opts->time_limit_ms > 0)
		return opts->time_limit_ms;
	if (s && *s) {
		v = strtol(s, &end, 10);
		if (*end == '\0' && v > 0 && v <= 24L * 3600 * 1000)
			return v;
	}
	return PTB_LUA_TIME_DEFAULT;
}

static void set_timer(long first_ms, long every_ms)
{
	struct itimerval it = {
		{ every_ms / 1000, (every_ms % 1000) * 1000 },
		{ first_ms / 1000, (first_ms % 1000) * 1000 },
	};

	setitimer(ITIMER_PROF, &it, NULL);
}

/* Start the CPU clock for work in e (a call, a collection, closing the
 * state); what names it in the exit message.  Returns 0 when the clock
 * already runs (a nested call: the outer limit holds). */
static int guard_begin(struct ptb_lua *e, const char *what)
{
	struct sigaction sa;

	if (timed)
		return 0;
	if (e->time_over) {
		e->time_over = 0;
		if (e->instr <= e->instr_limit && !e->mem_over)
			lua_sethook(e->L, hook, LUA_MASKCOUNT, HOOK_EVERY);
	}
	snprintf(stop_head, sizeof stop_head, "ptbuild: error: recipe error in %s: ", what);
	snprintf(stop_tail, sizeof stop_tail,
	         "CPU time limit of %ld ms exceeded inside a library function, "
	         "which did not return; stopped\n"
	         "hint: a string pattern that backtracks (string.find, match, gmatch, gsub) "
	         "or an endless loop in a finalizer; simplify the pattern or bound the subject\n",
	         e->time_limit_ms);
	ticks = 0;
	timed = e;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_prof;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGPROF, &sa, &old_prof);
	set_timer(e->time_limit_ms, GRACE_MS);
	return 1;
}

static void guard_end(int started)
{
	if (!started)
		return;
	set_timer(0, 0);
	sigaction(SIGPROF, &old_prof, NULL);
	timed = NULL;
}

/* ---- the protected-call helper ----------------------------------------- */

struct call_ctx {
	const char *name;
	const char *fn;
	const char *file;       /* ptb_lua_run_file */
	const cJSON *arg;
	cJSON **out;            /* partial results are freed by the caller */
};

static int call_entry(lua_State *L)
{
	struct call_ctx *c = lua_touserdata(L, 1);
	int nargs = 0;

	lua_settop(L, 0);
	if (c->file) {
		load_chunk(L, c->file, 0);
	} else {
		include_from(L, c->name, 0);
		if (!lua_istable(L, -1))
			return luaL_error(L, "recipe '%s' must return a table of functions", c->name);
		lua_getfield(L, -1, c->fn);
		if (!lua_isfunction(L, -1))
			return luaL_error(L, "recipe '%s' has no function '%s'", c->name, c->fn);
		lua_remove(L, -2);
		if (c->arg) {
			ptb_lua_push_json(L, c->arg);
			nargs = 1;
		}
	}
	lua_call(L, nargs, 1);
	if (c->out && !lua_isnil(L, -1))
		ptb_lua_to_json(L, lua_gettop(L), c->out);
	return 0;
}

static int protected_call(struct ptb_lua *e, struct call_ctx *c,
                          const char *what, struct ptb_err *err)
{
	lua_State *L = e->L;
	int base = lua_gettop(L);
	int timing = guard_begin(e, what);
	int rc;

	lua_pushcfunction(L, msgh);
	lua_pushcfunction(L, call_entry);
	lua_pushlightuserdata(L, c);
	rc = lua_pcall(L, 1, 0, base + 1);
	guard_end(timing);
	if (rc != LUA_OK) {
		const char *m = lua_tostring(L, -1);
		char first[768];
		const char *nl;

		if (c->out && *c->out) {
			cJSON_Delete(*c->out);
			*c->out = NULL;
		}
		if (rc == LUA_ERRMEM || m == NULL) {
			ptb_err_set(err, PTB_ERECIPE,
			            "recipe error in %s: memory cap of %d MiB exceeded",
			            what, (int)(e->mem_limit >> 20));
		} else {
			nl = strchr(m, '\n');
			snprintf(first, sizeof first, "%.*s",
			         (int)(nl ? (size_t)(nl - m) : strlen(m)), m);
			ptb_err_set(err, PTB_ERECIPE, "recipe error in %s: %s",
			            what, first);
			if (ptb_log_verbosity() > 0 && nl)
				ptb_err_hint(err, "Lua %s", nl + 1);
			else
				ptb_err_hint(err, "run with -v for the Lua stack traceback");
		}
		lua_settop(L, base);
		return -1;
	}
	lua_settop(L, base);
	return 0;
}

int ptb_lua_call(struct ptb_lua *e, const char *name, const char *fn,
                 const cJSON *arg, cJSON **out, struct ptb_err *err)
{
	struct call_ctx c = { name, fn, NULL, arg, out };
	char what[256];

	*out = NULL;
	if (!valid_name(name)) {
		ptb_err_set(err, PTB_ERECIPE, "bad recipe name '%s'", name);
		return -1;
	}
	char *file = ptb_lua_resolve(e, name);
	if (!file) {
		ptb_err_set(err, PTB_ERECIPE,
		            "recipe '%s' not found on the recipe path", name);
		ptb_err_hint(err, "check --recipes and PTBUILD_RECIPE_PATH, or reinstall ptbuild");
		return -1;
	}
	free(file);
	snprintf(what, sizeof what, "'%s.%s'", name, fn);
	return protected_call(e, &c, what, err);
}

int ptb_lua_run_file(struct ptb_lua *e, const char *file, cJSON **out,
                     struct ptb_err *err)
{
	struct call_ctx c = { NULL, NULL, file, NULL, out };
	char what[512];

	if (out)
		*out = NULL;
	snprintf(what, sizeof what, "'%s'", file);
	return protected_call(e, &c, what, err);
}

/* ---- search path ------------------------------------------------------- */

char **ptb_recipe_path(const char *const *cli, size_t ncli, size_t *n)
{
	const char *env = getenv("PTBUILD_RECIPE_PATH");
	size_t cap = ncli + 3, cnt = 0;
	char **v;

	if (env)
		for (const char *p = env; *p; p++)
			if (*p == ':')
				cap++;
	v = ptb_xcalloc(cap + 1, sizeof *v);
	for (size_t i = 0; i < ncli; i++)
		v[cnt++] = ptb_xstrdup(cli[i]);
	if (env) {
		const char *p = env;

		while (*p) {
			const char *q = strchr(p, ':');
			size_t len = q ? (size_t)(q - p) : strlen(p);

			if (len)
				v[cnt++] = ptb_xstrndup(p, len);
			p += len;
			if (*p == ':')
				p++;
		}
	}
	/* Run from a source tree, the binary sits beside recipes/: prefer
	 * those to an older installed copy.  An installed binary has no
	 * recipes/ beside it. */
	char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			char *beside = ptb_path_join(exe, "recipes");
			char *marker = ptb_path_join(beside, "arch.lua");
			if (ptb_path_is_file(marker))
				v[cnt++] = beside;
			else
				free(beside);
			free(marker);
		}
	}
	v[cnt++] = ptb_xstrdup(PTB_PKGDATADIR "/recipes");
	v[cnt] = NULL;
	*n = cnt;
	return v;
}

void ptb_recipe_path_free(char **path)
{
	if (!path)
		return;
	for (char **p = path; *p; p++)
		free(*p);
	free(path);
}
