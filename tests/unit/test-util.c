/* test-util.c - buffers, atomic writes, JSON printing and parsing. */
#include "config.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "util/json.h"
#include "util/util.h"

static char *tmpdir(void)
{
	const char *base = getenv("TEST_TMPDIR");
	char *t = ptb_xasprintf("%s/util.XXXXXX", base ? base : "/tmp");

	if (!mkdtemp(t))
		abort();
	return t;
}

int main(void)
{
	struct ptb_buf b;
	struct ptb_err err = { 0 };
	char *dir = tmpdir();
	char *f = ptb_path_join(dir, "out.txt");
	int changed = -1;

	ptb_buf_init(&b);
	for (int i = 0; i < 1000; i++)
		ptb_buf_printf(&b, "%d,", i);
	ok(b.len == 3890, "buffer grows through 1000 appends (len %zu)", b.len);
	ok(strncmp(b.data, "0,1,2,", 6) == 0, "buffer keeps the order of appends");
	ptb_buf_free(&b);

	char *joined = ptb_path_join("a/", "/b");
	is_str(joined, "a/b", "path_join drops doubled slashes");
	free(joined);

	ok(ptb_file_write_atomic(f, "one\n", 4, 0644, 1, &changed, &err) == 0 && changed == 1,
	   "atomic write creates the file");
	ok(ptb_file_write_atomic(f, "one\n", 4, 0644, 1, &changed, &err) == 0 && changed == 0,
	   "same content is not rewritten");
	ok(ptb_file_write_atomic(f, "two\n", 4, 0600, 1, &changed, &err) == 0 && changed == 1,
	   "new content is written");
	ptb_buf_init(&b);
	ok(ptb_file_read(f, 0, &b, &err) == 0 && strcmp(b.data, "two\n") == 0,
	   "read back what was written");
	struct stat st;
	ok(stat(f, &st) == 0 && (st.st_mode & 0777) == 0600, "mode is applied");
	ok(ptb_file_read(dir, 0, &b, &err) == -1 && err.code == PTB_EIO &&
	   strstr(err.msg, "is a directory"), "reading a directory is an I/O error naming it");
	char *missing = ptb_path_join(dir, "nope/x");
	ok(ptb_file_write_atomic(missing, "x", 1, 0644, 0, NULL, &err) == -1 &&
	   strstr(err.msg, "cannot write") && strstr(err.msg, "nope/x"),
	   "a write that cannot happen names the file: %s", err.msg);
	free(missing);
	/* mkdir -p through a file, a missing file, a file over the limit */
	char *sub = ptb_path_join(f, "deeper/still");
	ok(ptb_mkdir_p(sub, 0755, &err) == -1 && err.code == PTB_EIO && strstr(err.msg, "out.txt"),
	   "mkdir -p through a file fails naming it: %s", err.msg);
	free(sub);
	char *nofile = ptb_path_join(dir, "absent");
	ok(ptb_file_read(nofile, 0, &b, &err) == -1 && strstr(err.msg, "absent") &&
	   strstr(err.msg, "No such file"), "reading a missing file names it: %s", err.msg);
	free(nofile);
	ok(ptb_file_read(f, 2, &b, &err) == -1 && strstr(err.msg, "larger than 2 bytes"),
	   "a file over the limit is refused: %s", err.msg);
	char *made = ptb_path_join(dir, "a/b/c");
	ok(ptb_mkdir_p(made, 0755, &err) == 0 && ptb_path_is_dir(made), "mkdir -p makes every level");
	ok(ptb_mkdir_p(made, 0755, &err) == 0, "mkdir -p of an existing directory is fine");
	rmdir(made);
	char *ab = ptb_path_join(dir, "a/b"), *a = ptb_path_join(dir, "a");
	rmdir(ab);
	rmdir(a);
	free(ab);
	free(a);
	free(made);
	ptb_buf_free(&b);

	/* JSON: deterministic printing, errors with line and column. */
	const char *doc = "{\"b\": [1, 2.5, \"x\\n\"], \"a\": null, \"c\": {}}";
	cJSON *j = ptb_json_parse(doc, strlen(doc), "t.json", &err);
	ok(j != NULL, "parse a document");
	ptb_buf_init(&b);
	ptb_json_print(j, 0, &b);
	is_str(b.data, "{\"b\":[1,2.5,\"x\\n\"],\"a\":null,\"c\":{}}", "compact print keeps key order");
	ptb_buf_reset(&b);
	ptb_json_print(j, 1, &b);
	is_str(b.data, "{\n  \"b\": [\n    1,\n    2.5,\n    \"x\\n\"\n  ],\n  \"a\": null,\n  \"c\": {}\n}\n",
	       "pretty print uses two spaces");
	cJSON_Delete(j);
	doc = "{\n  \"a\": 1,\n  \"b\" 2\n}";
	ok(ptb_json_parse(doc, strlen(doc), "facts.json", &err) == NULL &&
	   strstr(err.msg, "'facts.json'") && strstr(err.msg, "line 3"),
	   "a syntax error names the file and line: %s", err.msg);
	ok(ptb_json_parse("{\"a\":1}\0", 8, "nul.json", &err) == NULL && strstr(err.msg, "NUL"),
	   "a NUL byte is refused");
	doc = "{\"host\":{\"cpu\":{\"microarch\":\"neoverse_v2\"}}}";
	j = ptb_json_parse(doc, strlen(doc), "x", &err);
	is_str(ptb_json_str(j, "host.cpu.microarch"), "neoverse_v2", "dotted lookup");
	ok(ptb_json_get(j, "host.gpu.x") == NULL, "missing path is NULL");
	cJSON_Delete(j);
	ptb_buf_free(&b);
	unlink(f);
	rmdir(dir);
	free(f);
	free(dir);
	return tap_done();
}
