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
	struct ptb_lua_opts o = { path, 2, mem, instr, 0 };
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

	s = call(lua, "echo", "f", "{\"b\":[1,2.5,\"x\"],\"a\":{\"n\":null,\"t\":true},\"e\":[],\"o\":{}}", &err);
	is_str(s, "{\"a\":{\"t\":true},\"b\":[1,2.5,\"x\"],\"e\":[],\"o\":{}}",
	       "JSON round-trips (keys sorted, null fields absent, [] and {} kept)");
	free(s);
	s = call(lua, "shape", "obj", NULL, &err);
	is_str(s, "{\"a\":[3,2],\"e\":[],\"m\":{},\"z\":1}", "tables become arrays and sorted objects");
	free(s);
	s = call(lua, "shape", "null", NULL, &err);
	is_str(s, "[null,1]", "ptb.null is null");
	free(s);
	s = call(lua, "shape", "fn", NULL, &err);
	ok(!s && err.code == PTB_ERECIPE && strstr(err.msg, "result.a.f") &&
	   strstr(err.msg, "function cannot leave"), "a function is refused with its path: %s", err.msg);
	s = call(lua, "shape", "mixed", NULL, &err);
	ok(!s && strstr(err.msg, "mixes"), "mixed tables are refused: %s", err.msg);
	s = call(lua, "shape", "holes", NULL, &err);
	ok(!s && strstr(err.msg, "holes"), "arrays with holes are refused: %s", err.msg);
	s = call(lua, "shape", "nan", NULL, &err);
	ok(!s && strstr(err.msg, "result.v") && strstr(err.msg, "finite"), "NaN is refused: %s", err.msg);
	s = call(lua, "shape", "cycle", NULL, &err);
	ok(!s && strstr(err.msg, "deeply"), "a cycle is refused: %s", err.msg);

	s = call(lua, "uses", "f", NULL, &err);
	is_str(s, "\"user over shipped\"", "a user recipe overrides the shipped one and can include it (include_next)");
	free(s);

	s = call(lua, "bad", "f", NULL, &err);
	ok(!s && err.code == PTB_ERECIPE && strstr(err.msg, "bad.lua:4:") &&
	   strstr(err.msg, "'bad.f'"), "a runtime error names the recipe, file and line: %s", err.msg);
	s = call(lua, "syntax", "f", NULL, &err);
	ok(!s && strstr(err.msg, "syntax.lua:2:"), "a syntax error names the file and line: %s", err.msg);
	s = call(lua, "circ", "f", NULL, &err);
	ok(!s && strstr(err.msg, "includes itself"), "a circular include is an error: %s", err.msg);
	s = call(lua, "missing", "f", NULL, &err);
	ok(!s && err.code == PTB_ERECIPE && strstr(err.msg, "'missing' not found"), "a missing recipe: %s", err.msg);
	s = call(lua, "echo", "nope", NULL, &err);
	ok(!s && strstr(err.msg, "no function 'nope'"), "a missing function: %s", err.msg);
	s = call(lua, "binary", "f", NULL, &err);
	ok(!s && strstr(err.msg, "precompiled chunks are refused"), "bytecode is refused: %s", err.msg);

	static const char *const refused[] = { "os", "io", "load", "dofile", "require", "debug", "gc" };
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		s = call(lua, "sand", refused[i], NULL, &err);
		ok(!s && strstr(err.msg, "not available to recipes"), "sandbox refuses %s: %s", refused[i], err.msg);
	}
	s = call(lua, "sand", "dump", NULL, &err);
	ok(!s && strstr(err.msg, "sand.lua:9:"), "string.dump is absent: %s", err.msg);
	s = call(lua, "sand", "strdump", NULL, &err);
	ok(s && strcmp(s, "null") == 0, "('').dump is absent through the string metatable");
	free(s);
	s = call(lua, "sand", "strmeta", NULL, &err);
	is_str(s, "false", "the string metatable is hidden");
	free(s);
	s = call(lua, "sand", "random", NULL, &err);
	is_str(s, "null", "math.random is absent (plans are deterministic)");
	free(s);
	s = call(lua, "sand", "escape", NULL, &err);
	ok(!s && strstr(err.msg, "bad recipe name"), "ptb.include refuses paths that leave the recipe path: %s", err.msg);
	ptb_lua_free(lua);

	lua = engine(0, 0);
	t0 = now();
	s = call(lua, "sand", "spin", NULL, &err);
	ok(!s && strstr(err.msg, "instruction budget") && strstr(err.msg, "sand.lua:14:"),
	   "while true do end is stopped, naming the line: %s", err.msg);
	ok(now() - t0 < 1.0, "... within a second of CPU time (%.3f s)", now() - t0);
	ptb_lua_free(lua);

	lua = engine(0, 0);
	t0 = now();
	s = call(lua, "sand", "pspin", NULL, &err);
	ok(!s && strstr(err.msg, "instruction budget"), "pcall cannot swallow the budget: %s", err.msg);
	ok(now() - t0 < 1.0, "... within a second of CPU time (%.3f s)", now() - t0);
	ptb_lua_free(lua);

	lua = engine(0, 0);
	t0 = now();
	s = call(lua, "sand", "double", NULL, &err);
	ok(!s && strstr(err.msg, "memory cap"), "a string-doubling loop hits the memory cap: %s", err.msg);
	ok(now() - t0 < 1.0, "... within a second of CPU time (%.3f s)", now() - t0);
	ptb_lua_free(lua);

	lua = engine(0, 0);
	s = call(lua, "sand", "rep", NULL, &err);
	ok(!s && strstr(err.msg, "memory cap"), "one huge allocation is refused: %s", err.msg);
	ptb_lua_free(lua);

	return tap_done();
}
