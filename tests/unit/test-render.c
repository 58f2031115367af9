/* test-render.c - the template language and every escaping filter. */
#include <stdlib.h>
#include <string.h>

#include "generate/render.h"
#include "tap.h"

static char *render(const char *tmpl, const char *json, char *errbuf)
{
	struct ptb_err err = { 0 };
	struct ptb_buf out;
	cJSON *vars = cJSON_Parse(json);
	char *res = NULL;

	ptb_buf_init(&out);
	ptb_buf_adds(&out, "");
	if (ptb_render(tmpl, strlen(tmpl), "t.in", vars, &out, &err) == 0)
		res = ptb_buf_detach(&out);
	else if (errbuf)
		strcpy(errbuf, err.msg);
	ptb_buf_free(&out);
	cJSON_Delete(vars);
	return res;
}

static void is_render(const char *tmpl, const char *json, const char *want, const char *name)
{
	char e[1024] = "";
	char *got = render(tmpl, json, e);

	is_str(got, want, "%s", name);
	if (!got)
		printf("#   error: %s\n", e);
	free(got);
}

static void is_error(const char *tmpl, const char *json, const char *want, const char *name)
{
	char e[1024] = "";
	char *got = render(tmpl, json, e);

	ok(got == NULL, "%s: refused", name);
	is_str(e, want, "%s: message", name);
	free(got);
}

static void is_escape(const char *filter, const char *in, const char *want)
{
	struct ptb_err err = { 0 };
	struct ptb_buf out;
	cJSON *v = cJSON_CreateString(in);

	ptb_buf_init(&out);
	ptb_buf_adds(&out, "");
	if (ptb_render_escape(filter, v, &out, &err) == 0)
		is_str(out.data, want, "%s escapes [%s]", filter, in);
	else
		is_str(NULL, want, "%s escapes [%s] (error: %s)", filter, in, err.msg);
	ptb_buf_free(&out);
	cJSON_Delete(v);
}

static void is_refused(const char *filter, const char *in)
{
	struct ptb_err err = { 0 };
	struct ptb_buf out;
	cJSON *v = cJSON_CreateString(in);

	ptb_buf_init(&out);
	ok(ptb_render_escape(filter, v, &out, &err) != 0 && err.msg[0], "%s refuses a value: %s", filter, err.msg);
	ptb_buf_free(&out);
	cJSON_Delete(v);
}

int main(void)
{
	/* The language. */
	is_render("a {% x | raw %} b", "{\"x\":\"X\"}", "a X b", "a value");
	is_render("{% n | raw %}/{% f | raw %}", "{\"n\":48,\"f\":true}", "48/1", "numbers and booleans");
	is_render("-j{% n | int %}", "{\"n\":48}", "-j48", "int: a whole number");
	is_error("-j{% n | int %}", "{\"n\":4.5}", "t.in:1: 'n': not a whole number", "int refuses a fraction");
	is_render("{% a.b.c | raw %}", "{\"a\":{\"b\":{\"c\":\"deep\"}}}", "deep", "dotted path");
	is_render("x\n{% each l %}\n- {% . | raw %}\n{% end %}\ny\n", "{\"l\":[\"1\",\"2\"]}",
	          "x\n- 1\n- 2\ny\n", "standalone block tags take their line");
	is_render("{% each l %}{% . | raw %}{% if !@last %},{% end %}{% end %}", "{\"l\":[\"a\",\"b\",\"c\"]}",
	          "a,b,c", "@last inside a loop");
	is_render("{% each l %}{% name | raw %}={% top | raw %};{% end %}",
	          "{\"top\":\"T\",\"l\":[{\"name\":\"a\"},{\"name\":\"b\",\"top\":\"own\"}]}",
	          "a=T;b=own;", "names resolve in the item first, then outwards");
	is_render("{% if x %}yes{% else %}no{% end %}", "{\"x\":\"\"}", "no", "empty string is false");
	is_render("{% if x %}yes{% else %}no{% end %}", "{\"x\":[1]}", "yes", "non-empty array is true");
	is_render("{% if !missing %}absent{% end %}", "{}", "absent", "a missing value is false in if");
	is_render("  {%# a comment %}\nkept\n", "{}", "kept\n", "a comment line vanishes");
	is_render("{% each l %}[{% each . %}{% . | raw %}{% end %}]{% end %}", "{\"l\":[[1,2],[3]]}",
	          "[12][3]", "nested loops");
	is_render("no tags at all\n", "{}", "no tags at all\n", "plain text");
	is_render("{% each none %}x{% end %}", "{}", "", "looping over nothing");

	is_error("{% x %}", "{\"x\":\"1\"}",
	         "t.in:1: 'x' names no filter (every value says how it is escaped: 'x | sh')", "a value needs a filter");
	is_error("l1\n{% y | raw %}", "{}", "t.in:2: no value 'y'", "a missing value names template and line");
	is_error("{% x | shout %}", "{\"x\":\"1\"}", "t.in:1: 'x': unknown filter 'shout'", "unknown filter");
	is_error("{% if x %}never ends", "{}", "t.in:1: 'if' without '{% end %}'", "unclosed if");
	is_error("{% end %}", "{}", "t.in:1: '{% end %}' without a block", "stray end");
	is_error("{% x | raw", "{}", "t.in:1: '{%' without '%}'", "unclosed tag");
	is_error("{% each x %}{% end %}", "{\"x\":\"s\"}", "t.in:1: 'each x': not an array", "each over a string");
	is_error("{% v | dockerenv %}", "{\"v\":\"a\\nb\"}",
	         "t.in:1: 'v': docker --env-file cannot carry a value with a newline", "docker env refuses newlines");

	/* The filters. */
	is_escape("sh", "plain", "'plain'");
	is_escape("sh", "it's $HOME `id` \"q\"", "'it'\\''s $HOME `id` \"q\"'");
	is_escape("sh", "", "''");
	is_escape("cmake", "a\"b\\c${X};d", "a\\\"b\\\\c\\${X};d");
	is_escape("dockerfile", "$PATH \"x\" \\", "\\$PATH \\\"x\\\" \\\\");
	is_escape("dockerenv", "a b $HOME 'x'", "a b $HOME 'x'");
	is_escape("ghenv", " spaced ", " spaced ");
	is_escape("json", "tab\there \"q\" \\ \x01", "\"tab\\there \\\"q\\\" \\\\ \\u0001\"");
	is_escape("yaml", "a: b # c", "\"a: b # c\"");
	is_escape("hcl", "${x} %{y} \"q\" \\", "$${x} %%{y} \\\"q\\\" \\\\");
	is_escape("ident", "CUDA_HOME", "CUDA_HOME");
	is_escape("line", "one line", "one line");
	/* word: only what no output's quoting touches (issue #16: package
	 * names and versions went into setup.sh inside double quotes). */
	is_escape("word", "ninja-build", "ninja-build");
	is_escape("word", "libc6=2.36-9+deb12u4~bpo1", "libc6=2.36-9+deb12u4~bpo1");
	is_escape("word", "ubuntu:22.04@sha256:ab", "ubuntu:22.04@sha256:ab");
	is_refused("word", "ninja-build$(touch PWNED)");
	is_refused("word", "a`id`");
	is_refused("word", "a b");
	is_refused("word", "a\"b");
	is_refused("word", "a'b");
	is_refused("word", "a;b");
	is_refused("word", "a\\b");
	is_refused("word", "a\nb");
	is_refused("word", "~root");
	is_refused("word", "x=~root");
	is_refused("word", "");
	is_refused("int", "72");            /* a string is not a number */
	is_escape("shline", "it's", "'it'\\''s'");
	is_refused("shline", "a\nRUN touch /x");
	is_refused("shline", "a\rb");
	is_refused("yaml", "${{ secrets.TOKEN }}");
	is_escape("yaml", "$HOME ${x} {{y}}", "\"$HOME ${x} {{y}}\"");
	is_refused("dockerenv", "two\nlines");
	is_refused("dockerenv", " leading");
	is_refused("dockerenv", "trailing\t");
	is_refused("dockerenv", "\"quoted\"");
	is_refused("ghenv", "a\rb");
	is_refused("dockerfile", "a\nb");
	is_refused("ident", "1X");
	is_refused("ident", "A-B");
	is_refused("ident", "");
	is_refused("line", "a\nb");
	return tap_done();
}
