/* fuzz_render.c - the template language of generate on arbitrary
 * templates: any template renders or fails with a message naming it and a
 * line; never a crash, a hang or an unbounded output. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generate/render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cJSON *vars;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptb_err err = { 0 };
	struct ptb_buf out;

	if (!vars)
		vars = cJSON_Parse("{\"a\":\"x y\",\"q\":\"it's $HOME \\\"q\\\"\",\"n\":3,"
		                   "\"t\":true,\"list\":[\"p\",\"q r\",{\"k\":\"v\"}],"
		                   "\"obj\":{\"k\":\"v\",\"inner\":{\"deep\":[1,2]}},"
		                   "\"nl\":\"a\\nb\",\"empty\":[]}");
	if (size > 1 << 16)
		return 0;
	char *tmpl = ptb_xstrndup((const char *)data, size);
	ptb_buf_init(&out);
	if (ptb_render(tmpl, strlen(tmpl), "fuzz.in", vars, &out, &err) != 0) {
		if (!strstr(err.msg, "fuzz.in")) {
			fprintf(stderr, "fuzz_render: error does not name the template: %s\n", err.msg);
			abort();
		}
	} else if (out.len > (16u << 20)) {
		/* the renderer caps output (loops over loops multiply) */
		fprintf(stderr, "fuzz_render: output of %zu bytes passed the cap\n", out.len);
		abort();
	}
	ptb_buf_free(&out);
	free(tmpl);
	return 0;
}
