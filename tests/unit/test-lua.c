/* test-lua.c - the engine: plain values across the boundary, the search
 * path, the sandbox, the budgets, and errors that name file and line. */
#include "config.h"

#include <stdlib.h>
#include <time.h>

#include "lua/engine.h"
#include "tap.h"
#include "util/json.h"
#include "util/util.h"

static char *dir_a, *dir_b;

static void put(const char *dir, const char *rel, const char *text)
{
	char *f = ptb_path_join(dir, rel);
	char *slash = strrchr(f, '/');
	struct ptb_err err;

	*slash = '\0';
	ptb_mkdir_p(f, 0755, &err);
	*slash = '/';
	if (ptb_file_write_atomic(f, text, strlen(text), 0644, 0, NULL, &err) != 0)
		abort();
	free(f);
}

static struct ptb_lua *engine(size_t mem, long instr)
{
	const char *path[2] = { dir_a, dir_b };
	struct ptb_lua_opts o = { .path = path, .npath = 2, .mem_limit = mem, .instr_limit = instr };
	struct ptb_err err;

	return ptb_lua_new(&o, &err);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Call name.fn(arg) and return the compact JSON of the result, or NULL
 * with *err filled. */
static char *call(struct ptb_lua *lua, const char *name, const char *fn,
                  const char *arg, struct ptb_err *err)
{
	cJSON *in = arg ? cJSON_Parse(arg) : NULL, *out = NULL;
	struct ptb_buf b;

	ptb_err_clear(err);
	int rc = ptb_lua_call(lua, name, fn, in, &out, err);
	cJSON_Delete(in);
	if (rc != 0)
		return NULL;
	ptb_buf_init(&b);
	ptb_json_print(out, 0, &b);
	cJSON_Delete(out);
	return ptb_buf_detach(&b);
}

/* Offered as ptb.wrap: {got = arg}; "fail" fails with a message. */
static int wrap(void *ctx, const cJSON *arg, cJSON **out, struct ptb_err *err)
{
	int *calls = ctx;

	(*calls)++;
	if (cJSON_IsString(arg) && strcmp(arg->valuestring, "fail") == 0) {
		ptb_err_set(err, PTB_ERECIPE, "wrap: asked to fail");
		return -1;
	}
	*out = cJSON_CreateObject();
	cJSON_AddItemToObject(*out, "got", arg ? cJSON_Duplicate(arg, 1) : cJSON_CreateNull());
	return 0;
}

/* ptb_lua_offer: a C function of a higher layer reached as ptb.NAME while
 * offered, plain values both ways, its failure a raised error, and nil
 * again once withdrawn. */
static void offered(void)
{
	struct ptb_lua *lua = engine(0, 0);
	struct ptb_err err = { 0 };
	int calls = 0;
	char *s;

	put(dir_b, "offer.lua",
	    "return {\n"
	    " call = function(x) return { r = ptb.wrap(x) } end,\n"
	    " has = function() return { has = ptb.wrap ~= nil } end,\n"
	    " fn = function() return ptb.wrap({ f = pairs }) end,\n"
	    " guarded = function(x) local ok, m = pcall(ptb.wrap, x) return { ok = ok, m = m } end,\n"
	    " keep = function() saved = ptb.wrap return {} end,\n"
	    " kept = function() local ok, m = pcall(saved, 1) return { ok = ok, m = m } end,\n"
	    "}\n");
	ptb_lua_offer(lua, "wrap", wrap, &calls);
	s = call(lua, "offer", "call", "{\"a\":[1,\"x\"]}", &err);
	is_str(s, "{\"r\":{\"got\":{\"a\":[1,\"x\"]}}}", "an offered function gets its argument and returns its value");
	free(s);
	s = call(lua, "offer", "guarded", "\"fail\"", &err);
	ok(s && strstr(s, "\"ok\":false") && strstr(s, "wrap: asked to fail"),
	   "its failure is an error the recipe can catch, with its message: %s", s ? s : err.msg);
	free(s);
	s = call(lua, "offer", "call", "\"fail\"", &err);
	ok(!s && err.code == PTB_ERECIPE && strstr(err.msg, "offer.lua:2:") && strstr(err.msg, "asked to fail"),
	   "uncaught, it fails the call naming the recipe's line: %s", err.msg);
	free(s);
	s = call(lua, "offer", "fn", NULL, &err);
	ok(!s && err.code == PTB_ERECIPE, "an argument that is no plain value fails the call: %s", err.msg);
	free(s);
	ok(calls == 3, "... each call reaching C once, that one not at all (%d)", calls);
	free(call(lua, "offer", "keep", NULL, &err));
	ptb_lua_offer(lua, "wrap", NULL, NULL);
	s = call(lua, "offer", "has", NULL, &err);
	is_str(s, "{\"has\":false}", "withdrawn, ptb.wrap is nil again");
	free(s);
	s = call(lua, "offer", "kept", NULL, &err);
	ok(s && strstr(s, "\"ok\":false") && strstr(s, "ptb.wrap is called after it was withdrawn"),
	   "a copy a recipe kept fails once withdrawn, naming the function: %s", s ? s : err.msg);
	free(s);
	ptb_lua_offer(lua, "wrap", wrap, &calls);
	s = call(lua, "offer", "kept", NULL, &err);
	ok(s && strstr(s, "\"ok\":false"), "... and stays withdrawn when it is offered again: %s", s ? s : err.msg);
	free(s);
	ptb_lua_offer(lua, "wrap", NULL, NULL);
	ok(calls == 3, "... and C is not called (%d)", calls);
	ptb_lua_free(lua);
}

/* One call each: recipe.fn(arg) and what it must give, the exact JSON
 * or (want NULL) an error with that code and those words. */
struct lua_case {
	int fresh;                /* in a new engine (the budgets start over) */
	const char *recipe, *fn, *arg;
	const char *want;
	int code;
	const char *has[2];
	int cpu;                  /* also: stopped within a second of CPU */
	const char *what;
};

static const struct lua_case cases[] = {
	/* plain values across the boundary */
	{ 0, "echo", "f", "{\"b\":[1,2.5,\"x\"],\"a\":{\"n\":null,\"t\":true},\"e\":[],\"o\":{}}",
	  "{\"a\":{\"t\":true},\"b\":[1,2.5,\"x\"],\"e\":[],\"o\":{}}", 0, { NULL }, 0,
	  "JSON round-trips (keys sorted, null fields absent, [] and {} kept)" },
	{ 0, "shape", "obj", NULL, "{\"a\":[3,2],\"e\":[],\"m\":{},\"z\":1}", 0, { NULL }, 0,
	  "tables become arrays and sorted objects" },
	{ 0, "shape", "null", NULL, "[null,1]", 0, { NULL }, 0, "ptb.null is null" },
	{ 0, "shape", "fn", NULL, NULL, PTB_ERECIPE, { "result.a.f", "function cannot leave" }, 0,
	  "a function is refused with its path" },
	{ 0, "shape", "mixed", NULL, NULL, 0, { "mixes" }, 0, "mixed tables are refused" },
	{ 0, "shape", "holes", NULL, NULL, 0, { "holes" }, 0, "arrays with holes are refused" },
	{ 0, "shape", "nan", NULL, NULL, 0, { "result.v", "finite" }, 0, "NaN is refused" },
	{ 0, "shape", "cycle", NULL, NULL, 0, { "deeply" }, 0, "a cycle is refused" },
	/* the search path */
	{ 0, "uses", "f", NULL, "\"user over shipped\"", 0, { NULL }, 0,
	  "a user recipe overrides the shipped one and can include it (include_next)" },
	/* errors that name file and line */
	{ 0, "bad", "f", NULL, NULL, PTB_ERECIPE, { "bad.lua:4:", "'bad.f'" }, 0,
	  "a runtime error names the recipe, file and line" },
	{ 0, "syntax", "f", NULL, NULL, 0, { "syntax.lua:2:" }, 0, "a syntax error names the file and line" },
	{ 0, "circ", "f", NULL, NULL, 0, { "includes itself" }, 0, "a circular include is an error" },
	{ 0, "missing", "f", NULL, NULL, PTB_ERECIPE, { "'missing' not found" }, 0, "a missing recipe" },
	{ 0, "echo", "nope", NULL, NULL, 0, { "no function 'nope'" }, 0, "a missing function" },
	{ 0, "binary", "f", NULL, NULL, 0, { "precompiled chunks are refused" }, 0, "bytecode is refused" },
	/* the sandbox */
	{ 0, "sand", "os", NULL, NULL, 0, { "not available to recipes" }, 0, "sandbox refuses os" },
	{ 0, "sand", "io", NULL, NULL, 0, { "not available to recipes" }, 0, "sandbox refuses io" },
	{ 0, "sand", "load", NULL, NULL, 0, { "not available to recipes" }, 0, "sandbox refuses load" },
	{ 0, "sand", "dofile", NULL, NULL, 0, { "not available to recipes" }, 0, "sandbox refuses dofile" },
	{ 0, "sand", "require", NULL, NULL, 0, { "not available to recipes" }, 0, "sandbox refuses require" },
	{ 0, "sand", "debug", NULL, NULL, 0, { "not available to recipes" }, 0, "sandbox refuses debug" },
	{ 0, "sand", "gc", NULL, NULL, 0, { "not available to recipes" }, 0, "sandbox refuses gc" },
	{ 0, "sand", "dump", NULL, NULL, 0, { "sand.lua:9:" }, 0, "string.dump is absent" },
	{ 0, "sand", "strdump", NULL, "null", 0, { NULL }, 0, "('').dump is absent through the string metatable" },
	{ 0, "sand", "strmeta", NULL, "false", 0, { NULL }, 0, "the string metatable is hidden" },
	{ 0, "sand", "random", NULL, "null", 0, { NULL }, 0, "math.random is absent (plans are deterministic)" },
	{ 0, "sand", "escape", NULL, NULL, 0, { "bad recipe name" }, 0,
	  "ptb.include refuses paths that leave the recipe path" },
	/* the budgets, each in a fresh engine */
	{ 1, "sand", "spin", NULL, NULL, 0, { "instruction budget", "sand.lua:14:" }, 1,
	  "while true do end is stopped, naming the line" },
	{ 1, "sand", "pspin", NULL, NULL, 0, { "instruction budget" }, 1, "pcall cannot swallow the budget" },
	{ 1, "sand", "double", NULL, NULL, 0, { "memory cap" }, 1, "a string-doubling loop hits the memory cap" },
	{ 1, "sand", "rep", NULL, NULL, 0, { "memory cap" }, 0, "one huge allocation is refused" },
};

int main(void)
{
	const char *base = getenv("TEST_TMPDIR");
	struct ptb_err err = { 0 };
	struct ptb_lua *lua;
	char *s;
	double t0;

	dir_a = ptb_xasprintf("%s/lua-a.XXXXXX", base ? base : "/tmp");
	dir_b = ptb_xasprintf("%s/lua-b.XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(dir_a) || !mkdtemp(dir_b))
		abort();

	put(dir_b, "echo.lua", "return { f = function(x) return x end }\n");
	put(dir_b, "shape.lua",
	    "return {\n"
	    " obj = function() return { z = 1, a = { 3, 2 }, m = ptb.object(), e = {} } end,\n"
	    " fn = function() return { a = { f = pairs } } end,\n"
	    " mixed = function() return { 1, x = 2 } end,\n"
	    " holes = function() return { [1] = 1, [3] = 3 } end,\n"
	    " nan = function() return { v = 0/0 } end,\n"
	    " cycle = function() local t = {} t.t = t return t end,\n"
	    " null = function() return { ptb.null, 1 } end,\n"
	    "}\n");
	put(dir_b, "lib/one.lua", "return { name = 'shipped' }\n");
	put(dir_a, "lib/one.lua",
	    "local shipped = ptb.include_next('lib/one')\n"
	    "return { name = 'user over ' .. shipped.name }\n");
	put(dir_b, "uses.lua", "local one = ptb.include('lib.one')\n"
	    "return { f = function() return one.name end }\n");
	put(dir_b, "bad.lua", "return {\n f = function()\n  local x = nil\n  return x.field\n end }\n");
	put(dir_b, "syntax.lua", "return {\n f = function( end }\n");
	put(dir_b, "circ.lua", "return ptb.include('circ')\n");
	put(dir_b, "sand.lua",
	    "return {\n"
	    " os = function() return os.execute('true') end,\n"
	    " io = function() return io.open('/etc/passwd') end,\n"
	    " load = function() return load('return 1')() end,\n"
	    " dofile = function() return dofile('/etc/passwd') end,\n"
	    " require = function() return require('os') end,\n"
	    " debug = function() return debug.getinfo(1) end,\n"
	    " gc = function() return collectgarbage('count') end,\n"
	    " dump = function() return string.dump(function() end) end,\n"
	    " strdump = function() return ('x').dump end,\n"
	    " strmeta = function() return getmetatable('') end,\n"
	    " random = function() return math.random end,\n"
	    " escape = function() return ptb.include('../../etc/passwd') end,\n"
	    " spin = function() while true do end end,\n"
	    " pspin = function() while true do pcall(function() while true do end end) end end,\n"
	    " double = function() local s = 'x' while true do s = s .. s end end,\n"
	    " rep = function() return string.rep('x', 1 << 30) end,\n"
	    "}\n");
	/* A precompiled chunk: the binary signature "\x1bLua". */
	put(dir_b, "binary.lua", "\x1bLuaT\x00\x19\x93\r\n\x1a\n");

	lua = engine(0, 0);
	ok(lua != NULL, "engine starts");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct lua_case *c = &cases[i];
		int good;

		if (c->fresh) {
			ptb_lua_free(lua);
			lua = engine(0, 0);
		}
		t0 = now();
		s = call(lua, c->recipe, c->fn, c->arg, &err);
		if (c->want) {
			is_str(s, c->want, "%s", c->what);
		} else {
			good = !s && (!c->code || err.code == c->code);
			for (int k = 0; k < 2 && c->has[k]; k++)
				good = good && strstr(err.msg, c->has[k]);
			ok(good, "%s: %s", c->what, err.msg);
		}
		if (c->cpu)
			ok(now() - t0 < 1.0, "... within a second of CPU time (%.3f s)", now() - t0);
		free(s);
	}
	ptb_lua_free(lua);
	offered();

	return tap_done();
}
