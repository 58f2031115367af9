/* render.h - the template language of `ptbuild generate`.
 *
 * Templates are data; rendering only substitutes values a recipe computed.
 * The language, all of it:
 *
 *   {% path | filter %}     a value, escaped for the output by one filter
 *   {% each path %} ... {% end %}           loop over an array; inside,
 *                                           `.` is the item and names are
 *                                           looked up in it first
 *   {% if path %} ... {% else %} ... {% end %}   (`if !path` negates)
 *   {%# a comment %}
 *
 * A path is `.`, `@first`, `@last`, `@index`, or dotted names looked up
 * from the innermost loop item outwards to the top-level values.  A tag
 * alone on its line (other than a value) takes the whole line with it.
 * Every value names its escaping; an unknown filter, a missing value or a
 * value the output cannot carry is an error naming template and line.
 *
 * Filters (see ptb_render_escape): raw, line, ident, word, int, sh, shline,
 * cmake, dockerfile, dockerenv, ghenv, json, yaml, hcl. */
#ifndef PTB_RENDER_H
#define PTB_RENDER_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "util/util.h"

/* Render tmpl (len bytes, NUL-terminated at len; name for messages) with
 * vars; appends to out.
 * Returns 0, or -1 with err (PTB_ERECIPE: the template or the values are
 * wrong; nothing useful is in out). */
int ptb_render(const char *tmpl, size_t len, const char *name,
               const cJSON *vars, struct ptb_buf *out, struct ptb_err *err);

/* Escape one value for an output:
 *   raw        as is (numbers as integers when whole)
 *   line       as is, refusing a newline (comments, headers)
 *   ident      a portable variable name [A-Za-z_][A-Za-z0-9_]*, else refused
 *   word       a plain word that no output's quoting touches (letters,
 *              digits, + - . _ : = ~ / @ , %), refusing anything else:
 *              package names, versions, tags, hex digests
 *   int        a whole number, refusing anything else
 *   sh         one POSIX sh word in single quotes ('\'' for ')
 *   shline     sh, refusing a newline (a Dockerfile RUN line, where a
 *              newline would end the instruction)
 *   cmake      the inside of a CMake quoted argument (\\ \" \$; \n)
 *   dockerfile the inside of a Dockerfile "..." (\\ \" \$); no newline
 *   dockerenv  a `docker run --env-file` value, taken literally: no newline,
 *              no leading/trailing blank, no leading quote
 *   ghenv      a $GITHUB_ENV value: no newline
 *   json       a complete JSON value ("..." for strings)
 *   yaml       a complete YAML double-quoted scalar, refusing '${{' (the
 *              YAML written is a GitHub workflow, which evaluates it)
 *   hcl        the inside of an HCL "..." (\\ \" \n, $${ and %%{)
 * Returns 0, or -1 with err->msg saying why (the caller adds where). */
int ptb_render_escape(const char *filter, const cJSON *v, struct ptb_buf *out,
                      struct ptb_err *err);

#endif
