/* luatest.c - run a Lua test file in the recipe sandbox (test mode adds
 * `print` for TAP).  The recipe path is tests/lua/lib, then the source
 * recipes, so tests include recipes exactly as ptbuild does. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua/engine.h"
#include "util/log.h"

/* A traceback as TAP diagnostics: each line behind "# ". */
static void print_diag(const char *text)
{
	while (text && *text) {
		size_t n = strcspn(text, "\n");

		printf("# %.*s\n", (int)n, text);
		text += n + (text[n] == '\n');
	}
}

int main(int argc, char **argv)
{
	const char *src = getenv("top_srcdir");
	struct ptb_lua_opts opts = { 0 };
	struct ptb_err err = { 0 };
	struct ptb_lua *lua;
	char *path[2];

	if (argc != 2 || !src) {
		fprintf(stderr, "usage: top_srcdir=DIR luatest FILE.lua\n");
		return 2;
	}
	ptb_log_init(1, PTB_COLOR_NEVER);
	path[0] = ptb_xasprintf("%s/tests/lua/lib", src);
	path[1] = ptb_xasprintf("%s/recipes", src);
	opts.path = (const char *const *)path;
	opts.npath = 2;
	opts.test_mode = 1;
	lua = ptb_lua_new(&opts, &err);
	if (!lua || ptb_lua_run_file(lua, argv[1], NULL, &err) != 0) {
		print_diag(err.hint);
		printf("Bail out! %s\n", err.msg);
		ptb_lua_free(lua);
		free(path[0]);
		free(path[1]);
		return 1;
	}
	ptb_lua_free(lua);
	free(path[0]);
	free(path[1]);
	return 0;
}
