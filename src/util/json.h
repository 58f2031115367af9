/* json.h - cJSON helpers: deterministic printing (2-space indent, keys in
 * the order held) and typed lookups that name what was expected. */
#ifndef PTB_JSON_H
#define PTB_JSON_H

#include <cjson/cJSON.h>

#include "util/util.h"

/* Pretty (indent 2, newline at end) or compact; appended to out. */
void ptb_json_print(const cJSON *j, int pretty, struct ptb_buf *out);
/* Parse text; on failure err says where (line and column) and names src. */
cJSON *ptb_json_parse(const char *text, size_t len, const char *src,
                      struct ptb_err *err);
/* Dotted path lookup ("host.cpu.microarch"); NULL when absent. */
const cJSON *ptb_json_get(const cJSON *root, const char *path);
/* The string at path, or NULL when absent or not a string. */
const char *ptb_json_str(const cJSON *root, const char *path);

#endif
