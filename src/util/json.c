/* json.c - a deterministic JSON printer and careful parsing on top of cJSON. */
#include "util/json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void put_string(struct ptb_buf *b, const char *s)
{
	ptb_buf_addc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': ptb_buf_adds(b, "\\\""); break;
		case '\\': ptb_buf_adds(b, "\\\\"); break;
		case '\n': ptb_buf_adds(b, "\\n"); break;
		case '\r': ptb_buf_adds(b, "\\r"); break;
		case '\t': ptb_buf_adds(b, "\\t"); break;
		case '\b': ptb_buf_adds(b, "\\b"); break;
		case '\f': ptb_buf_adds(b, "\\f"); break;
		default:
			if (*p < 0x20)
				ptb_buf_printf(b, "\\u%04x", *p);
			else
				ptb_buf_addc(b, (char)*p);
		}
	}
	ptb_buf_addc(b, '"');
}

static void put_number(struct ptb_buf *b, double d)
{
	if (!isfinite(d)) {
		ptb_buf_adds(b, "null");
	} else if (d == floor(d) && fabs(d) < 9007199254740992.0) {
		ptb_buf_printf(b, "%.0f", d);
	} else {
		char tmp[64];

		/* Shortest form that reads back to the same double. */
		snprintf(tmp, sizeof tmp, "%.15g", d);
		double back;
		if (sscanf(tmp, "%lf", &back) != 1 || back != d)
			snprintf(tmp, sizeof tmp, "%.17g", d);
		ptb_buf_adds(b, tmp);
	}
}

static void indent(struct ptb_buf *b, int depth)
{
	for (int i = 0; i < depth; i++)
		ptb_buf_adds(b, "  ");
}

static void put(const cJSON *j, int pretty, int depth, struct ptb_buf *b)
{
	if (cJSON_IsNull(j) || j == NULL) {
		ptb_buf_adds(b, "null");
	} else if (cJSON_IsTrue(j)) {
		ptb_buf_adds(b, "true");
	} else if (cJSON_IsFalse(j)) {
		ptb_buf_adds(b, "false");
	} else if (cJSON_IsNumber(j)) {
		put_number(b, j->valuedouble);
	} else if (cJSON_IsString(j)) {
		put_string(b, j->valuestring ? j->valuestring : "");
	} else if (cJSON_IsArray(j) || cJSON_IsObject(j)) {
		int obj = cJSON_IsObject(j);
		const cJSON *c = j->child;

		ptb_buf_addc(b, obj ? '{' : '[');
		if (!c) {
			ptb_buf_addc(b, obj ? '}' : ']');
			return;
		}
		for (; c; c = c->next) {
			if (pretty) {
				ptb_buf_addc(b, '\n');
				indent(b, depth + 1);
			}
			if (obj) {
				put_string(b, c->string ? c->string : "");
				ptb_buf_adds(b, pretty ? ": " : ":");
			}
			put(c, pretty, depth + 1, b);
			if (c->next)
				ptb_buf_addc(b, ',');
		}
		if (pretty) {
			ptb_buf_addc(b, '\n');
			indent(b, depth);
		}
		ptb_buf_addc(b, obj ? '}' : ']');
	} else {
		ptb_buf_adds(b, "null");
	}
}

void ptb_json_print(const cJSON *j, int pretty, struct ptb_buf *out)
{
	put(j, pretty, 0, out);
	if (pretty)
		ptb_buf_addc(out, '\n');
}

cJSON *ptb_json_parse(const char *text, size_t len, const char *src,
                      struct ptb_err *err)
{
	const char *end = NULL;
	cJSON *j;

	if (memchr(text, '\0', len)) {
		ptb_err_set(err, PTB_EUSAGE, "'%s' is not JSON: it holds a NUL byte", src);
		return NULL;
	}
	/* cJSON ends a string at an escaped NUL: "a\u0000b" would be read as
	 * "a", and what acts on the value would differ from what the file
	 * says.  A backslash counts when an even number of backslashes
	 * stands before it. */
	for (size_t i = 0; i + 6 <= len; i++) {
		size_t n = 0;

		if (text[i] != '\\' || text[i + 1] != 'u' || strncmp(text + i + 2, "0000", 4) != 0)
			continue;
		while (n < i && text[i - 1 - n] == '\\')
			n++;
		if (n % 2 == 0) {
			ptb_err_set(err, PTB_EUSAGE, "'%s' holds a string with \\u0000, which ptbuild cannot carry", src);
			return NULL;
		}
	}
	j = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (j && end) {
		while (end < text + len && (*end == ' ' || *end == '\t' ||
		                            *end == '\n' || *end == '\r'))
			end++;
		if (end < text + len) {
			cJSON_Delete(j);
			j = NULL;
		}
	}
	if (!j) {
		size_t off = end && end >= text ? (size_t)(end - text) : 0;
		int line = 1, col = 1;

		if (off > len)
			off = len;
		for (size_t i = 0; i < off; i++) {
			if (text[i] == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
		}
		ptb_err_set(err, PTB_EUSAGE,
		            "'%s' is not valid JSON: syntax error at line %d, column %d",
		            src, line, col);
		return NULL;
	}
	return j;
}

const cJSON *ptb_json_get(const cJSON *root, const char *path)
{
	const cJSON *cur = root;
	const char *p = path;

	while (cur && *p) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		char key[128];

		if (n >= sizeof key || !cJSON_IsObject(cur))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		cur = cJSON_GetObjectItemCaseSensitive(cur, key);
		p += n;
		if (*p == '.')
			p++;
	}
	return cur;
}

const char *ptb_json_str(const cJSON *root, const char *path)
{
	const cJSON *j = ptb_json_get(root, path);

	return cJSON_IsString(j) ? j->valuestring : NULL;
}
