/* render.c - a small template language: values, loops, conditionals and
 * per-output escaping.  See render.h for the language. */
#include "generate/render.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { N_TEXT, N_VAR, N_EACH, N_IF };

struct node {
	enum kind kind;
	int line;
	const char *text;        /* N_TEXT */
	size_t len;
	char *path;              /* N_VAR, N_EACH, N_IF */
	char *filter;            /* N_VAR */
	int neg;                 /* N_IF: `if !path` */
	struct node *body, *alt; /* N_EACH, N_IF */
	struct node *next;
};

struct parser {
	const char *s, *end, *name;
	const char *pos;         /* where scanning resumes */
	struct ptb_err *err;
};

enum term { T_EOF, T_ELSE, T_END };

static void free_nodes(struct node *n)
{
	while (n) {
		struct node *next = n->next;

		free(n->path);
		free(n->filter);
		free_nodes(n->body);
		free_nodes(n->alt);
		free(n);
		n = next;
	}
}

static int line_of(const struct parser *p, const char *at)
{
	int line = 1;

	for (const char *c = p->s; c < at; c++)
		if (*c == '\n')
			line++;
	return line;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static char *trim_dup(const char *a, const char *b)
{
	while (a < b && (is_blank(*a) || *a == '\n'))
		a++;
	while (b > a && (is_blank(b[-1]) || b[-1] == '\n'))
		b--;
	return ptb_xstrndup(a, (size_t)(b - a));
}

static struct node *add(struct node ***tail, enum kind kind, int line)
{
	struct node *n = ptb_xcalloc(1, sizeof *n);

	n->kind = kind;
	n->line = line;
	**tail = n;
	*tail = &n->next;
	return n;
}

static int valid_path(const char *p)
{
	if (!*p)
		return 0;
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '@'))
			return 0;
	return 1;
}

static int parse_seq(struct parser *p, struct node **head, enum term *term);

/* Add the text from `a` to `b` as a node, if there is any. */
static void add_text(struct node ***tail, const char *a, const char *b, int line)
{
	if (b > a) {
		struct node *n = add(tail, N_TEXT, line);
		n->text = a;
		n->len = (size_t)(b - a);
	}
}

/* Whether `tag` opens, divides or closes a block (a comment counts). */
static int is_block_tag(const char *tag)
{
	return tag[0] == '#' || strncmp(tag, "each ", 5) == 0 ||
	       strncmp(tag, "if ", 3) == 0 || strcmp(tag, "else") == 0 ||
	       strcmp(tag, "end") == 0;
}

/* A block tag alone on its line takes the line with it: widen *open back
 * to the line's start and *after past its newline when the tag from
 * *open to *after has only blanks around it on a line that starts at or
 * after `text`. */
static void take_line(const struct parser *p, const char *text, const char **open, const char **after)
{
	const char *ls, *c;
	int standalone;

	for (ls = *open; ls > p->s && ls[-1] != '\n'; ls--)
		;
	standalone = ls >= text;
	for (c = ls; standalone && c < *open; c++)
		if (!is_blank(*c))
			standalone = 0;
	for (c = *after; standalone && c < p->end && *c != '\n'; c++)
		if (!is_blank(*c))
			standalone = 0;
	if (standalone) {
		*after = c < p->end ? c + 1 : c;
		*open = ls;
	}
}

/* Parse an {% each %} or {% if %} block from its tag through its
 * {% end %}, adding its node.  0, or -1 with p->err set. */
static int parse_block(struct parser *p, const char *tag, int line, struct node ***tail)
{
	int each = tag[0] == 'e';
	const char *arg = tag + (each ? 5 : 3);
	struct node *n = add(tail, each ? N_EACH : N_IF, line);
	enum term t;

	while (is_blank(*arg))
		arg++;
	if (!each && *arg == '!') {
		n->neg = 1;
		arg++;
	}
	n->path = ptb_xstrdup(arg);
	if (!valid_path(n->path)) {
		ptb_err_set(p->err, PTB_ERECIPE, "%s:%d: bad name '%s'", p->name, line, n->path);
		return -1;
	}
	if (parse_seq(p, &n->body, &t) != 0)
		return -1;
	if (t == T_ELSE) {
		if (each) {
			ptb_err_set(p->err, PTB_ERECIPE, "%s:%d: 'each' has no 'else'", p->name, line);
			return -1;
		}
		if (parse_seq(p, &n->alt, &t) != 0)
			return -1;
	}
	if (t != T_END) {
		ptb_err_set(p->err, PTB_ERECIPE, "%s:%d: '%s' without '{%% end %%}'",
		            p->name, line, each ? "each" : "if");
		return -1;
	}
	return 0;
}

/* Parse a value tag, "path | filter", adding its node.  0, or -1 with
 * p->err set. */
static int parse_value(struct parser *p, const char *tag, int line, struct node ***tail)
{
	const char *bar = strchr(tag, '|');
	struct node *n = add(tail, N_VAR, line);

	if (!bar) {
		ptb_err_set(p->err, PTB_ERECIPE, "%s:%d: '%s' names no filter (every value says how it is escaped: '%s | sh')",
		            p->name, line, tag, tag);
		return -1;
	}
	n->path = trim_dup(tag, bar);
	n->filter = trim_dup(bar + 1, tag + strlen(tag));
	if (!valid_path(n->path)) {
		ptb_err_set(p->err, PTB_ERECIPE, "%s:%d: bad name '%s'", p->name, line, n->path);
		return -1;
	}
	return 0;
}

/* Parse a sequence of nodes until {% else %}, {% end %} or the end;
 * *term says which.  0, or -1 with p->err set. */
static int parse_seq(struct parser *p, struct node **head, enum term *term)
{
	struct node **tail = head;
	const char *text = p->pos;

	*head = NULL;
	for (;;) {
		const char *open = strstr(p->pos, "{%");
		const char *close, *after;
		char *tag;
		int line, r;

		if (!open || open >= p->end) {
			add_text(&tail, text, p->end, 0);
			p->pos = p->end;
			*term = T_EOF;
			return 0;
		}
		line = line_of(p, open);
		close = strstr(open + 2, "%}");
		if (!close) {
			ptb_err_set(p->err, PTB_ERECIPE, "%s:%d: '{%%' without '%%}'", p->name, line);
			return -1;
		}
		tag = trim_dup(open + 2, close);
		after = close + 2;
		if (is_block_tag(tag))
			take_line(p, text, &open, &after);
		add_text(&tail, text, open, line);
		p->pos = text = after;

		if (tag[0] == '#') {
			free(tag);
			continue;
		}
		if (strcmp(tag, "else") == 0 || strcmp(tag, "end") == 0) {
			*term = tag[1] == 'l' ? T_ELSE : T_END;
			free(tag);
			return 0;
		}
		if (strncmp(tag, "each ", 5) == 0 || strncmp(tag, "if ", 3) == 0) {
			r = parse_block(p, tag, line, &tail);
			text = p->pos;
		} else {
			r = parse_value(p, tag, line, &tail);
		}
		free(tag);
		if (r != 0)
			return -1;
	}
}

/* ---- rendering ---- */

#define MAX_DEPTH 16
/* Loops over loops multiply: a template (they can come from a user's
 * --recipes directory) is stopped past these, not left to run for hours. */
#define MAX_OUTPUT (16u << 20)
#define MAX_STEPS (1000L * 1000)

struct scope {
	const cJSON *item;
	int index, count;
};

struct renderer {
	const char *name;
	struct scope stack[MAX_DEPTH + 1];
	int depth;                       /* stack[0] is the top-level values */
	struct ptb_buf *out;
	struct ptb_err *err;
	cJSON *tmp;                      /* @index etc. */
	size_t start;                    /* out->len when rendering began */
	long steps;
};

static const cJSON *lookup(struct renderer *r, const char *path)
{
	const struct scope *top = &r->stack[r->depth];
	const cJSON *v = NULL;
	char *copy, *seg, *save = NULL;

	if (strcmp(path, ".") == 0)
		return top->item;
	if (path[0] == '@') {
		double d;

		if (r->depth == 0)
			return NULL;
		if (strcmp(path, "@index") == 0)
			d = top->index;
		else if (strcmp(path, "@first") == 0)
			d = top->index == 0;
		else if (strcmp(path, "@last") == 0)
			d = top->index == top->count - 1;
		else
			return NULL;
		cJSON_Delete(r->tmp);
		r->tmp = path[1] == 'i' ? cJSON_CreateNumber(d) : cJSON_CreateBool(d != 0);
		return r->tmp;
	}
	copy = ptb_xstrdup(path);
	seg = strtok_r(copy, ".", &save);
	for (int i = r->depth; seg && i >= 0 && !v; i--)
		if (cJSON_IsObject(r->stack[i].item))
			v = cJSON_GetObjectItemCaseSensitive(r->stack[i].item, seg);
	while (v && (seg = strtok_r(NULL, ".", &save)))
		v = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, seg) : NULL;
	free(copy);
	return v;
}

static int truthy(const cJSON *v)
{
	if (!v || cJSON_IsNull(v) || cJSON_IsFalse(v))
		return 0;
	if (cJSON_IsString(v))
		return v->valuestring[0] != '\0';
	if (cJSON_IsArray(v) || cJSON_IsObject(v))
		return v->child != NULL;
	return 1;
}

static int render_seq(struct renderer *r, const struct node *n)
{
	for (; n; n = n->next) {
		const cJSON *v;

		if (++r->steps > MAX_STEPS || r->out->len - r->start > MAX_OUTPUT) {
			ptb_err_set(r->err, PTB_ERECIPE, "%s:%d: the output grows past %u MiB (loops over loops?)",
			            r->name, n->line, MAX_OUTPUT >> 20);
			return -1;
		}
		switch (n->kind) {
		case N_TEXT:
			ptb_buf_add(r->out, n->text, n->len);
			break;
		case N_VAR:
			v = lookup(r, n->path);
			if (!v) {
				ptb_err_set(r->err, PTB_ERECIPE, "%s:%d: no value '%s'", r->name, n->line, n->path);
				return -1;
			}
			if (ptb_render_escape(n->filter, v, r->out, r->err) != 0) {
				char msg[sizeof r->err->msg];

				snprintf(msg, sizeof msg, "%s", r->err->msg);
				ptb_err_set(r->err, PTB_ERECIPE, "%s:%d: '%s': %s", r->name, n->line, n->path, msg);
				return -1;
			}
			break;
		case N_IF:
			v = lookup(r, n->path);
			if (truthy(v) != n->neg) {
				if (render_seq(r, n->body) != 0)
					return -1;
			} else if (render_seq(r, n->alt) != 0) {
				return -1;
			}
			break;
		case N_EACH: {
			const cJSON *item;
			int i = 0;

			v = lookup(r, n->path);
			if (!v || cJSON_IsNull(v))
				break;
			if (!cJSON_IsArray(v)) {
				ptb_err_set(r->err, PTB_ERECIPE, "%s:%d: 'each %s': not an array", r->name, n->line, n->path);
				return -1;
			}
			if (r->depth >= MAX_DEPTH) {
				ptb_err_set(r->err, PTB_ERECIPE, "%s:%d: loops nested too deep", r->name, n->line);
				return -1;
			}
			r->depth++;
			r->stack[r->depth].count = cJSON_GetArraySize(v);
			cJSON_ArrayForEach(item, v) {
				r->stack[r->depth].item = item;
				r->stack[r->depth].index = i++;
				if (render_seq(r, n->body) != 0) {
					r->depth--;
					return -1;
				}
			}
			r->depth--;
			break;
		}
		}
	}
	return 0;
}

int ptb_render(const char *tmpl, size_t len, const char *name,
               const cJSON *vars, struct ptb_buf *out, struct ptb_err *err)
{
	struct parser p = { tmpl, tmpl + len, name, tmpl, err };
	struct renderer r = { .name = name, .out = out, .err = err, .start = out->len };
	struct node *root = NULL;
	enum term t;
	int rc;

	if (memchr(tmpl, '\0', len)) {
		ptb_err_set(err, PTB_ERECIPE, "%s: template holds a NUL byte", name);
		return -1;
	}
	rc = parse_seq(&p, &root, &t);
	if (rc == 0 && t != T_EOF) {
		ptb_err_set(err, PTB_ERECIPE, "%s:%d: '{%% %s %%}' without a block",
		            name, line_of(&p, p.pos), t == T_ELSE ? "else" : "end");
		rc = -1;
	}
	if (rc == 0) {
		r.stack[0].item = vars;
		rc = render_seq(&r, root);
	}
	cJSON_Delete(r.tmp);
	free_nodes(root);
	return rc;
}

/* ---- escaping ---- */

static int refuse(struct ptb_err *err, const char *why)
{
	ptb_err_set(err, PTB_ERECIPE, "%s", why);
	return -1;
}

static void add_number(struct ptb_buf *out, double d)
{
	if (d == floor(d) && fabs(d) < 1e15)
		ptb_buf_printf(out, "%.0f", d);
	else
		ptb_buf_printf(out, "%.17g", d);
}

static void backslash(struct ptb_buf *out, const char *s, const char *special)
{
	for (; *s; s++) {
		if (*s == '\n') {
			ptb_buf_adds(out, "\\n");
			continue;
		}
		if (strchr(special, *s))
			ptb_buf_addc(out, '\\');
		ptb_buf_addc(out, *s);
	}
}

/* Characters that are literal in an unquoted POSIX sh word, inside sh
 * double quotes, on a Dockerfile line and in a comment alike. */
static int is_word_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       (c && strchr("+-._:=~/@,%", c));
}

static void json_string(struct ptb_buf *out, const char *s)
{
	ptb_buf_addc(out, '"');
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		switch (*c) {
		case '"': ptb_buf_adds(out, "\\\""); break;
		case '\\': ptb_buf_adds(out, "\\\\"); break;
		case '\n': ptb_buf_adds(out, "\\n"); break;
		case '\t': ptb_buf_adds(out, "\\t"); break;
		case '\r': ptb_buf_adds(out, "\\r"); break;
		default:
			if (*c < 0x20 || *c == 0x7f)
				ptb_buf_printf(out, "\\u%04x", *c);
			else
				ptb_buf_addc(out, (char)*c);
		}
	}
	ptb_buf_addc(out, '"');
}

/* The json and yaml filters: any scalar as a JSON value (a JSON string
 * is a YAML double-quoted scalar too).  0, or -1 with err set. */
static int escape_json(const char *filter, const cJSON *v, struct ptb_buf *out, struct ptb_err *err)
{
	/* The YAML written is a GitHub workflow, which evaluates ${{ ... }}
	 * in any string before a shell or an action sees it. */
	if (filter[0] == 'y' && cJSON_IsString(v) && strstr(v->valuestring, "${{"))
		return refuse(err, "a workflow value cannot hold '${{' (GitHub would evaluate it)");
	if (cJSON_IsString(v))
		json_string(out, v->valuestring);
	else if (cJSON_IsNumber(v))
		add_number(out, v->valuedouble);
	else if (cJSON_IsBool(v))
		ptb_buf_adds(out, cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsNull(v))
		ptb_buf_adds(out, "null");
	else
		return refuse(err, "an array or object cannot be one value");
	return 0;
}

/* A string, number or boolean as the text the other filters escape: a
 * number as JSON writes it (into num), a boolean as 1 or 0.  0 with *s
 * set, or -1 with err set. */
static int scalar_text(const cJSON *v, char *num, size_t size, const char **s, struct ptb_err *err)
{
	if (cJSON_IsNumber(v)) {
		struct ptb_buf b;

		ptb_buf_init(&b);
		add_number(&b, v->valuedouble);
		snprintf(num, size, "%s", b.data);
		ptb_buf_free(&b);
		*s = num;
	} else if (cJSON_IsBool(v)) {
		*s = cJSON_IsTrue(v) ? "1" : "0";
	} else if (cJSON_IsString(v)) {
		*s = v->valuestring;
	} else {
		return refuse(err, "not a string or number");
	}
	return 0;
}

/* The filters that write the text as it is once it passes their check
 * (raw, ident, word, int, dockerenv, line, ghenv).  1 when it passes, 0
 * when `filter` is none of them, -1 with err set when it fails. */
static int check_verbatim(const char *filter, const char *s, const cJSON *v, struct ptb_err *err)
{
	if (strcmp(filter, "raw") == 0)
		return 1;
	if (strcmp(filter, "ident") == 0) {
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
			return refuse(err, "not a variable name (expected [A-Za-z_][A-Za-z0-9_]*)");
		for (const char *c = s; *c; c++)
			if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
			      (*c >= '0' && *c <= '9') || *c == '_'))
				return refuse(err, "not a variable name (expected [A-Za-z_][A-Za-z0-9_]*)");
		return 1;
	}
	if (strcmp(filter, "word") == 0) {
		if (!*s)
			return refuse(err, "an empty value is not a shell word");
		for (const char *c = s; *c; c++)
			if (!is_word_char(*c) || (*c == '~' && (c == s || (!strchr("+-.", c[-1]) && !isalnum((unsigned char)c[-1])))))
				return refuse(err, "not a plain word (expected letters, digits and + - . _ : = / @ , %, and ~ after a letter or digit)");
		return 1;
	}
	if (strcmp(filter, "int") == 0) {
		if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || fabs(v->valuedouble) >= 1e15)
			return refuse(err, "not a whole number");
		return 1;
	}
	if (strcmp(filter, "dockerenv") == 0) {
		size_t n = strlen(s);

		if (strpbrk(s, "\r\n"))
			return refuse(err, "docker --env-file cannot carry a value with a newline");
		if (n && (is_blank(s[0]) || is_blank(s[n - 1])))
			return refuse(err, "docker --env-file value with leading or trailing blanks is read differently by Docker versions and Compose");
		if (s[0] == '"' || s[0] == '\'')
			return refuse(err, "docker --env-file value starting with a quote is read differently by Docker versions and Compose");
		return 1;
	}
	if (strcmp(filter, "line") == 0) {
		if (strpbrk(s, "\r\n"))
			return refuse(err, "a one-line value holds a newline");
		return 1;
	}
	if (strcmp(filter, "ghenv") == 0) {
		if (strpbrk(s, "\r\n"))
			return refuse(err, "a $GITHUB_ENV line cannot carry a newline");
		return 1;
	}
	return 0;
}

/* The filters that quote or escape the text (sh, shline, cmake,
 * dockerfile, hcl).  0, or -1 with err set, also for an unknown filter. */
static int escape_quoted(const char *filter, const char *s, struct ptb_buf *out, struct ptb_err *err)
{
	if (strcmp(filter, "sh") == 0 || strcmp(filter, "shline") == 0) {
		if (filter[2] && strpbrk(s, "\r\n"))
			return refuse(err, "a value on a one-line shell command cannot hold a newline");
		ptb_buf_addc(out, '\'');
		for (const char *c = s; *c; c++) {
			if (*c == '\'')
				ptb_buf_adds(out, "'\\''");
			else
				ptb_buf_addc(out, *c);
		}
		ptb_buf_addc(out, '\'');
	} else if (strcmp(filter, "cmake") == 0) {
		backslash(out, s, "\\\"$");
	} else if (strcmp(filter, "dockerfile") == 0) {
		if (strpbrk(s, "\r\n"))
			return refuse(err, "a Dockerfile value cannot hold a newline");
		backslash(out, s, "\\\"$");
	} else if (strcmp(filter, "hcl") == 0) {
		for (const char *c = s; *c; c++) {
			if (*c == '\\' || *c == '"')
				ptb_buf_addc(out, '\\');
			if (*c == '\n') {
				ptb_buf_adds(out, "\\n");
				continue;
			}
			if ((*c == '$' || *c == '%') && c[1] == '{')
				ptb_buf_addc(out, *c);
			ptb_buf_addc(out, *c);
		}
	} else {
		ptb_err_set(err, PTB_ERECIPE, "unknown filter '%s'", filter);
		return -1;
	}
	return 0;
}

int ptb_render_escape(const char *filter, const cJSON *v, struct ptb_buf *out,
                      struct ptb_err *err)
{
	const char *s;
	char num[64];
	int r;

	if (strcmp(filter, "json") == 0 || strcmp(filter, "yaml") == 0)
		return escape_json(filter, v, out, err);
	if (scalar_text(v, num, sizeof num, &s, err) != 0)
		return -1;
	if ((r = check_verbatim(filter, s, v, err)) < 0)
		return -1;
	if (r > 0) {
		ptb_buf_adds(out, s);
		return 0;
	}
	return escape_quoted(filter, s, out, err);
}
