/* fuzz_arch.c - TORCH_CUDA_ARCH_LIST parsing through the real recipe in
 * the real sandbox: any input must give a document or errors, never a
 * recipe error (that would be a bug in the parser). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lua/engine.h"
#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ptb_lua *lua;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptb_err err = { 0 };
	static const char *const cudas[] = { NULL, "11.8", "12.8", "13.0" };

	if (!lua) {
		const char *dir = getenv("PTBUILD_RECIPE_PATH");
		const char *path[1] = { dir ? dir : "recipes" };
		struct ptb_lua_opts o = { .path = path, .npath = 1 };

		lua = ptb_lua_new(&o, &err);
		if (!lua)
			abort();
	}
	if (size > 4096)
		return 0;
	char *list = ptb_xstrndup((const char *)data, size);
	if (strlen(list) != size) {        /* NUL bytes cannot come from argv */
		free(list);
		return 0;
	}
	for (size_t i = 0; i < sizeof cudas / sizeof *cudas; i++) {
		cJSON *args = cJSON_CreateObject(), *res = NULL;

		cJSON_AddStringToObject(args, "list", list);
		if (cudas[i])
			cJSON_AddStringToObject(args, "cuda", cudas[i]);
		ptb_lua_reset_budget(lua);
		if (ptb_lua_call(lua, "arch", "convert", args, &res, &err) != 0)
			abort();               /* the parser itself failed */
		if (!cJSON_IsObject(res))
			abort();
		if (!cJSON_GetObjectItem(res, "errors") && !cJSON_GetObjectItem(res, "torch_cuda_arch_list"))
			abort();
		cJSON_Delete(res);
		cJSON_Delete(args);
	}
	free(list);
	return 0;
}
