/* engine.h - the whole C <-> Lua boundary.  Nothing outside src/lua/
 * includes lua.h: C hands recipes plain values as JSON and gets plain values
 * back as JSON.
 *
 * A recipe runs in a sandbox: an allow-listed environment (no io, os, load,
 * loadfile, dofile, require, debug, collectgarbage, string.dump), text chunks
 * only, ptb.include() for recipe libraries on the search path, an
 * instruction budget, a memory cap, a CPU time limit per call that also
 * holds inside C (SIGPROF; exit 3 when C does not return) and no __gc
 * finalizers.  Every call is protected and errors
 * carry the recipe file, line and a traceback. */
#ifndef PTB_ENGINE_H
#define PTB_ENGINE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "util/util.h"

#define PTB_LUA_MEM_DEFAULT    (64u << 20)        /* bytes */
#define PTB_LUA_INSTR_DEFAULT  (50L * 1000 * 1000) /* VM instructions */
#define PTB_LUA_TIME_DEFAULT   20000              /* CPU ms per call */

struct ptb_lua_opts {
	const char *const *path;  /* recipe directories, first wins */
	size_t npath;
	size_t mem_limit;         /* 0: default */
	long instr_limit;         /* 0: default */
	/* CPU time of one call, including what runs inside C (a string
	 * pattern that backtracks): 0 is PTBUILD_LUA_TIME_LIMIT_MS, else
	 * PTB_LUA_TIME_DEFAULT. */
	long time_limit_ms;
	/* Test scripts (tests/luatest): print writes TAP, ptb.where(level)
	 * names a caller's file and line. */
	int test_mode;
};

struct ptb_lua;

struct ptb_lua *ptb_lua_new(const struct ptb_lua_opts *opts, struct ptb_err *err);
void ptb_lua_free(struct ptb_lua *lua);

/* Load recipe module `name` (e.g. "arch" -> <dir>/arch.lua on the path),
 * call its function `fn` with `arg` (may be NULL) and return a new cJSON in
 * *out (caller frees).  A raised error or a result that cannot become JSON
 * is PTB_ERECIPE with the file and line in err. */
int ptb_lua_call(struct ptb_lua *lua, const char *name, const char *fn,
                 const cJSON *arg, cJSON **out, struct ptb_err *err);

/* A function of a higher layer that recipes call as ptb.NAME(arg) while it
 * is offered: arg (a plain value, NULL for nil) arrives as JSON and *out
 * (the callee's, NULL for nil) returns as a Lua value.  -1 with err raises
 * err's message in the recipe.  The call runs under the caller's CPU time
 * limit like any library function. */
typedef int ptb_lua_fn(void *ctx, const cJSON *arg, cJSON **out, struct ptb_err *err);

/* Offer fn (with ctx, which the caller keeps alive until it withdraws
 * the offer) to recipes as ptb.NAME; fn NULL withdraws it, and ptb.NAME
 * is nil again.  Recipes look it up when they call it, so one engine can
 * serve calls with and without; a copy a recipe kept raises an error once
 * the offer is withdrawn or replaced, and never reaches fn or ctx again. */
void ptb_lua_offer(struct ptb_lua *lua, const char *name, ptb_lua_fn *fn, void *ctx);

/* Run a Lua file as a sandboxed chunk (for tests); its return value, if
 * any, is converted into *out when out is not NULL. */
int ptb_lua_run_file(struct ptb_lua *lua, const char *file, cJSON **out,
                     struct ptb_err *err);

/* The engine's recipe directories, first wins (*n of them; the engine's). */
const char *const *ptb_lua_path(const struct ptb_lua *lua, size_t *n);

/* Where a recipe name resolves on the path (caller frees), or NULL. */
char *ptb_lua_resolve(const struct ptb_lua *lua, const char *name);

/* Start a fresh instruction budget (a long-lived engine running many
 * independent calls, such as a fuzzer). */
void ptb_lua_reset_budget(struct ptb_lua *lua);

/* The recipe search path: --recipes dirs, then PTBUILD_RECIPE_PATH
 * (colon-separated), then the installed recipes.  Returns a NULL-terminated
 * array the caller frees with ptb_recipe_path_free. */
char **ptb_recipe_path(const char *const *cli_dirs, size_t ncli, size_t *n);
void ptb_recipe_path_free(char **path);

#endif
