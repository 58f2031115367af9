/* fuzz_envwriter.c - the escapings of generated env files, as a round-trip
 * property: for any value, the sh form read back the way a POSIX shell
 * reads a word equals the value; the docker env-file and $GITHUB_ENV forms
 * either refuse the value or carry it literally on one line; the CMake and
 * JSON forms decode back to it.  (bash, dash and zsh source the real files
 * in tests t0502.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generate/render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *val)
{
	fprintf(stderr, "fuzz_envwriter: %s for value '%s'\n", what, val);
	abort();
}

/* A POSIX sh word made of '...' runs and \x escapes, as the shell reads it. */
static int sh_unquote(const char *w, struct ptb_buf *out)
{
	while (*w) {
		if (*w == '\'') {
			const char *end = strchr(w + 1, '\'');
			if (!end)
				return -1;
			ptb_buf_add(out, w + 1, (size_t)(end - w - 1));
			w = end + 1;
		} else if (*w == '\\' && w[1]) {
			ptb_buf_addc(out, w[1]);
			w += 2;
		} else if (strchr(" \t\n;&|<>()$`\"*?[#~=%", *w)) {
			return -1;               /* unquoted special character */
		} else {
			ptb_buf_addc(out, *w++);
		}
	}
	return 0;
}

static int cmake_unquote(const char *w, struct ptb_buf *out)
{
	for (; *w; w++) {
		if (*w == '"')
			return -1;               /* would end the quoted argument */
		if (*w == '\\') {
			w++;
			if (*w == 'n') ptb_buf_addc(out, '\n');
			else if (*w == 't') ptb_buf_addc(out, '\t');
			else if (*w == 'r') ptb_buf_addc(out, '\r');
			else if (*w == ';') ptb_buf_adds(out, "\\;");
			else if (*w) ptb_buf_addc(out, *w);
			else return -1;
		} else if (*w == '$' && w[1] == '{') {
			return -1;               /* a variable reference would expand */
		} else {
			ptb_buf_addc(out, *w);
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptb_err err = { 0 };
	struct ptb_buf esc, back;
	char *val;
	cJSON *v;

	if (size > 4096)
		return 0;
	val = ptb_xstrndup((const char *)data, size);
	v = cJSON_CreateString(val);
	ptb_buf_init(&esc);
	ptb_buf_init(&back);

	if (ptb_render_escape("sh", v, &esc, &err) == 0) {
		if (sh_unquote(esc.data ? esc.data : "", &back) != 0 ||
		    strcmp(back.data ? back.data : "", val) != 0)
			fail("sh form does not read back", val);
	} else if (strlen(val) == size) {
		fail("sh refused a value without NUL", val);
	}
	ptb_buf_reset(&esc);
	ptb_buf_reset(&back);
	static const char *const literal[] = { "dockerenv", "ghenv" };
	for (int i = 0; i < 2; i++) {
		if (ptb_render_escape(literal[i], v, &esc, &err) == 0) {
			if (strchr(esc.data ? esc.data : "", '\n') || strcmp(esc.data ? esc.data : "", val) != 0)
				fail(literal[i], val);
		} else if (!strchr(val, '\n') && !strchr(val, '\r') && i == 1) {
			fail("ghenv refused a one-line value", val);
		}
		ptb_buf_reset(&esc);
	}
	if (ptb_render_escape("cmake", v, &esc, &err) == 0) {
		if (cmake_unquote(esc.data ? esc.data : "", &back) != 0)
			fail("cmake form is not one quoted argument", val);
	}
	ptb_buf_reset(&esc);
	if (ptb_render_escape("json", v, &esc, &err) == 0) {
		cJSON *j = cJSON_Parse(esc.data ? esc.data : "");
		if (!cJSON_IsString(j) || strcmp(j->valuestring, val) != 0)
			fail("json form does not parse back", val);
		cJSON_Delete(j);
	}
	ptb_buf_free(&esc);
	ptb_buf_free(&back);
	cJSON_Delete(v);
	free(val);
	return 0;
}
