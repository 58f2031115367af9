/* test-facts.c - facts documents: every golden facts file detect makes for
 * the fixture machines validates; malformed ones and other schemas are
 * refused naming the file, the key and what was expected; the sysroot
 * reader keeps links inside the root. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "detect/root.h"
#include "detect/facts.h"
#include "util/json.h"
#include "util/util.h"

#define HOST "\"host\": {\"arch\": \"x86_64\", \"platform\": \"x86_64\"}"
#define OK_HEAD "{\"schema\": \"ptbuild.facts/1\", " HOST

static const struct {
	const char *doc;
	const char *want;     /* NULL: valid; else the whole message */
} cases[] = {
	{ OK_HEAD ", \"gpus\": [], \"toolkits\": [], \"compilers\": []}", NULL },
	{ OK_HEAD ", \"driver\": null, \"jetson\": null, \"torch\": null}", NULL },
	{ OK_HEAD ", \"gpus\": [{\"index\": 0, \"name\": \"NVIDIA H100\", \"compute_capability\": \"9.0\", \"source\": \"nvml\"}]}", NULL },
	{ OK_HEAD ", \"toolkits\": [{\"root\": \"/usr/local/cuda\", \"version\": \"12.4.131\", \"nvcc\": null}]}", NULL },
	{ "[1, 2]", "'t.json' is not a facts document: expected a JSON object" },
	{ "{" HOST "}", "'t.json': key 'schema': expected \"ptbuild.facts/1\"" },
	{ "{\"schema\": \"ptbuild.plan/1\", " HOST "}",
	  "'t.json': key 'schema': expected \"ptbuild.facts/1\", found \"ptbuild.plan/1\"" },
	{ "{\"schema\": \"ptbuild.facts/2\", " HOST "}",
	  "'t.json': key 'schema': expected \"ptbuild.facts/1\", found \"ptbuild.facts/2\"" },
	{ "{\"schema\": \"ptbuild.facts/1\"}", "'t.json': key 'host': missing (expected an object)" },
	{ "{\"schema\": \"ptbuild.facts/1\", \"host\": {\"arch\": 64, \"platform\": \"x86_64\"}}",
	  "'t.json': key 'host.arch': expected a string" },
	{ OK_HEAD ", \"gpus\": {}}", "'t.json': key 'gpus': expected an array" },
	{ "{\"schema\": \"ptbuild.facts/1\", \"host\": {\"arch\": \"x86_64\", \"platform\": \"x86_64\", \"page_size\": \"4K\"}}",
	  "'t.json': key 'host.page_size': expected a number or null" },
	{ OK_HEAD ", \"driver\": {\"version\": 550}}", "'t.json': key 'driver.version': expected a string" },
	{ OK_HEAD ", \"driver\": {\"version\": \"550.54.15\", \"cuda_max\": \"12\"}}",
	  "'t.json': key 'driver.cuda_max': expected a CUDA release such as \"12.4\"" },
	{ OK_HEAD ", \"driver\": {\"version\": \"r550\"}}",
	  "'t.json': key 'driver.version': expected a driver version such as \"550.54.15\"" },
	{ OK_HEAD ", \"gpus\": [{\"compute_capability\": 9.0}]}",
	  "'t.json': key 'gpus[0].compute_capability': expected a string" },
	{ OK_HEAD ", \"gpus\": [{\"compute_capability\": \"9.0\"}, {\"compute_capability\": \"sm_90\"}]}",
	  "'t.json': key 'gpus[1].compute_capability': expected a compute capability such as \"9.0\"" },
	{ OK_HEAD ", \"gpus\": [\"H100\"]}", "'t.json': key 'gpus[0]': expected an object" },
	{ OK_HEAD ", \"toolkits\": [{\"version\": \"12.x\"}]}",
	  "'t.json': key 'toolkits[0].version': expected a CUDA version such as \"12.4.131\"" },
	{ OK_HEAD ", \"compilers\": [{\"name\": \"gcc\", \"version\": 12}]}",
	  "'t.json': key 'compilers[0].version': expected a string" },
	{ OK_HEAD ", \"notes\": \"none\"}", "'t.json': key 'notes': expected an array" },
	{ OK_HEAD ", \"jetson\": {\"l4t\": 36.4}}", "'t.json': key 'jetson.l4t': expected a string or null" },
	/* what a toolkit's host_config.h and nvcc's ELF header say */
	{ OK_HEAD ", \"toolkits\": [{\"root\": \"/c\", \"gcc_max\": 14, \"nvcc_machine\": \"x86_64\"}]}", NULL },
	{ OK_HEAD ", \"toolkits\": [{\"root\": \"/c\", \"gcc_max\": \"14\"}]}",
	  "'t.json': key 'toolkits[0].gcc_max': expected a gcc major version such as 14" },
	{ OK_HEAD ", \"toolkits\": [{\"root\": \"/c\", \"gcc_max\": 14.5}]}",
	  "'t.json': key 'toolkits[0].gcc_max': expected a gcc major version such as 14" },
	{ OK_HEAD ", \"toolkits\": [{\"root\": \"/c\", \"nvcc_machine\": 62}]}",
	  "'t.json': key 'toolkits[0].nvcc_machine': expected a string" },
	/* the python3 a build would use: facts older than it have none */
	{ OK_HEAD ", \"python\": {\"version\": \"3.12\", \"path\": \"/usr/bin/python3\", \"real\": \"/usr/bin/python3.12\","
	  " \"from\": \"PATH\", \"source\": \"/usr/bin/python3.12\"}}", NULL },
	{ OK_HEAD ", \"python\": {\"version\": null, \"path\": \"/opt/venv/bin/python3\"}}", NULL },
	{ OK_HEAD ", \"python\": null}", NULL },
	{ OK_HEAD ", \"python\": \"3.12\"}", "'t.json': key 'python': expected an object or null" },
	{ OK_HEAD ", \"python\": {\"version\": 3.12, \"path\": \"/usr/bin/python3\"}}",
	  "'t.json': key 'python.version': expected a string or null" },
	{ OK_HEAD ", \"python\": {\"version\": \"3.12.3\", \"path\": \"/usr/bin/python3\"}}",
	  "'t.json': key 'python.version': expected a Python version such as \"3.12\"" },
	{ OK_HEAD ", \"python\": {\"version\": \"cp312\", \"path\": \"/usr/bin/python3\"}}",
	  "'t.json': key 'python.version': expected a Python version such as \"3.12\"" },
	{ OK_HEAD ", \"python\": {\"version\": \"3.12\", \"path\": [\"/usr/bin/python3\"]}}",
	  "'t.json': key 'python.path': expected a string" },
	{ OK_HEAD ", \"python\": {\"version\": \"3.12\", \"path\": \"/usr/bin/python3\", \"from\": 1}}",
	  "'t.json': key 'python.from': expected a string or null" },
};

/* The environment document doctor reads (detect.environment). */
static const struct {
	const char *doc;
	const char *want;
} env_cases[] = {
	{ "{\"env\": {}, \"nvcc_on_path\": [], \"libs\": [], \"torch\": [], \"pip_nvidia\": [],"
	  " \"container\": {\"inside\": false, \"gpu_devices\": true, \"devices\": [\"/dev/nvidia0\"]},"
	  " \"binfmt_qemu\": []}", NULL },
	{ "[]", "'env' is not an environment document: expected a JSON object" },
	{ "{\"libs\": {}}", "'env': key 'libs': expected an array" },
	{ "{\"libs\": [{\"lib\": \"libcuda\", \"version\": 570}]}", "'env': key 'libs[0].version': expected a string" },
	{ "{\"container\": {\"inside\": \"yes\"}}", "'env': key 'container.inside': expected a boolean" },
	{ "{\"container\": {\"inside\": true, \"devices\": \"/dev/nvmap\"}}",
	  "'env': key 'container.devices': expected an array" },
	{ "{\"nvcc_on_path\": [{\"root\": \"/c\", \"gcc_max\": 0}]}",
	  "'env': key 'nvcc_on_path[0].gcc_max': expected a gcc major version such as 14" },
	{ "{\"torch\": [{\"version\": \"2.6.0\", \"machine\": 183}]}", "'env': key 'torch[0].machine': expected a string" },
};

static char *tmpdir(void)
{
	const char *base = getenv("TEST_TMPDIR");
	char *t = ptb_xasprintf("%s/facts.XXXXXX", base ? base : "/tmp");

	if (!mkdtemp(t))
		abort();
	return t;
}

static void golden(void)
{
	const char *src = getenv("top_srcdir");
	char *dir = ptb_xasprintf("%s/tests/fixtures/sysroots", src ? src : ".");
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	ok(d != NULL, "fixture directory %s opens", dir);
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct ptb_err err = { 0 };

		if (len < 11 || strcmp(de->d_name + len - 11, ".facts.json") != 0)
			continue;
		char *f = ptb_xasprintf("%s/%s", dir, de->d_name);
		cJSON *j = ptb_facts_load(f, &err);
		ok(j != NULL, "golden %s validates%s%s", de->d_name, j ? "" : ": ", j ? "" : err.msg);
		cJSON_Delete(j);
		free(f);
		n++;
	}
	ok(n >= 9, "at least nine fixture machines (%d)", n);
	if (d)
		closedir(d);
	free(dir);
}

static void files(const char *dir)
{
	struct ptb_err err = { 0 };
	char *f = ptb_path_join(dir, "bad.json");
	int changed;
	cJSON *j;

	const char *bad = "{\"schema\": \"ptbuild.facts/1\",\n  \"host\": ,}\n";

	ptb_file_write_atomic(f, bad, strlen(bad), 0644, 0, &changed, &err);
	j = ptb_facts_load(f, &err);
	ok(j == NULL && err.code == PTB_EUSAGE, "malformed JSON is refused as a usage error");
	ok(strstr(err.msg, "bad.json") != NULL, "...naming the file: %s", err.msg);
	ok(strstr(err.msg, "line 2") != NULL, "...and the line");
	free(f);
	f = ptb_path_join(dir, "missing.json");
	ptb_err_clear(&err);
	j = ptb_facts_load(f, &err);
	ok(j == NULL && strstr(err.msg, "missing.json") != NULL, "a missing file is refused naming it: %s", err.msg);
	free(f);
}

#define X64 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
#define X255 X64 X64 X64 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

/* Inner paths below a sysroot: what each resolves to (NULL: absent). */
static const struct {
	const char *path, *want, *what;
} resolves[] = {
	{ "/rel", "/etc/secret", "a relative link with .. resolves to the inner path" },
	{ "/../../etc/secret", "/etc/secret", "'..' cannot climb above the root" },
	{ "/abs", "/etc/secret", "an absolute link stays inside the root" },
	{ "/loop", NULL, "a link loop is absent, not a hang" },
	{ "/nope", NULL, "a missing path is absent" },
	{ "/", "/", "the root itself" },
	{ "//etc/./secret/", "/etc/secret", "doubled slashes, '.' and a trailing slash" },
	{ "etc/secret", "/etc/secret", "a relative inner path starts at the root" },
	{ "/up/secret", "/etc/secret", "a link to a directory, then the rest of the path" },
	{ "/chain", "/etc/secret", "a link to a link" },
	{ "/etc/secret/x", NULL, "a path through a file is absent" },
	{ "/dangling", NULL, "a link to nothing is absent" },
	{ "/" X64 X64 X64 X64, NULL, "a component of 256 bytes is absent" },
	{ "/" X255, "/" X255, "a component of 255 bytes (NAME_MAX) is found" },
};

/* ptb_root_kind and ptb_root_dir_empty on what a hostile tree holds:
 * PATH, what it is, whether it is an empty folder (-1: not one to read) */
static const struct { const char *path, *kind; int empty; } kinds[] = {
	{ "/etc/secret", "a regular file", -1 },
	{ "/etc", "a directory", 0 },
	{ "/hollow", "a directory", 1 },
	{ "/pipe", "a FIFO (named pipe)", -1 },
	{ "/loop", NULL, -1 },                     /* a link to itself */
	{ "/dangling", NULL, -1 },
	{ "/up", "a directory", 0 },               /* a link to /etc, inside */
	{ "/many", "a directory", 0 },
};

static void root_kinds(const struct ptb_root *r, const char *dir)
{
	char *p = ptb_path_join(dir, "hollow");

	mkdir(p, 0755);
	free(p);
	p = ptb_path_join(dir, "pipe");
	mkfifo(p, 0644);
	free(p);
	p = ptb_path_join(dir, "many");
	mkdir(p, 0755);
	for (int i = 0; i < 300; i++) {
		char *f = ptb_xasprintf("%s/%04d", p, i);

		close(open(f, O_WRONLY | O_CREAT, 0644));
		free(f);
	}
	free(p);
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		is_str(ptb_root_kind(r, kinds[i].path), kinds[i].kind, "kind of %s", kinds[i].path);
		ok(ptb_root_dir_empty(r, kinds[i].path, NULL) == kinds[i].empty, "%s: dir_empty %d", kinds[i].path,
		   kinds[i].empty);
	}
	/* what this made, gone again */
	p = ptb_path_join(dir, "many");
	for (int i = 0; i < 300; i++) {
		char *f = ptb_xasprintf("%s/%04d", p, i);

		unlink(f);
		free(f);
	}
	rmdir(p);
	free(p);
	p = ptb_path_join(dir, "pipe");
	unlink(p);
	free(p);
	p = ptb_path_join(dir, "hollow");
	rmdir(p);
	free(p);
}

static void root(const char *dir)
{
	static const char *const links[][2] = {
		{ "abs", "/etc/secret" },      /* absolute: must stay inside the root */
		{ "rel", "etc/../etc/secret" },
		{ "loop", "loop" },
		{ "up", "/etc" },
		{ "chain", "rel" },
		{ "dangling", "nowhere" },
	};
	struct ptb_root r = { dir, 0, NULL, NULL };
	struct ptb_buf b;
	char *p, *secret = ptb_path_join(dir, "etc");

	mkdir(secret, 0755);
	free(secret);
	secret = ptb_path_join(dir, "etc/secret");
	ptb_file_write_atomic(secret, "inside", 6, 0644, 0, NULL, &(struct ptb_err){ 0 });
	free(secret);
	for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
		p = ptb_path_join(dir, links[i][0]);
		symlink(links[i][1], p);
		free(p);
	}
	p = ptb_path_join(dir, X255);
	close(open(p, O_WRONLY | O_CREAT, 0644));
	free(p);

	ptb_buf_init(&b);
	ok(ptb_root_read(&r, "/abs", 100, &b) == 0 && strcmp(b.data, "inside") == 0,
	   "an absolute link resolves inside the sysroot");
	for (size_t i = 0; i < sizeof resolves / sizeof resolves[0]; i++) {
		p = ptb_root_resolve(&r, resolves[i].path);
		is_str(p, resolves[i].want, "resolve: %s", resolves[i].what);
		free(p);
	}
	ptb_buf_free(&b);
	root_kinds(&r, dir);
}

/* ptb_root_elf_strings: the NUL-delimited strings of an ELF file, read in
 * 1 MiB steps (a string may straddle two reads), bounded in size, count
 * and length.  Each case: the bytes after the ELF magic (or, with
 * elf 0, the whole file), nmax, max, what is found ("a|b", or "-1"). */
static int keep_v(const char *s, size_t len)
{
	return len > 0 && s[0] == 'v';
}

static void elf_strings(const char *dir)
{
	static const struct {
		const char *what;
		int elf;
		size_t pad;          /* zero bytes before body */
		const char *body;
		size_t blen;
		size_t nmax, max;
		const char *want;
	} ecases[] = {
		{ "one string", 1, 0, "\0v1\0", 4, 8, 1u << 20, "v1" },
		{ "not ELF: nothing read", 0, 0, "#!/bin/sh\n\0v1\0", 14, 8, 1u << 20, "-1" },
		{ "a string across the 1 MiB read", 1, (1u << 20) - 7, "\0v12345\0", 8, 8, 4u << 20, "v12345" },
		{ "no NUL after it at the end: no string", 1, 0, "\0v9", 3, 8, 1u << 20, "" },
		{ "64 bytes and more: no string", 1, 0, "\0v" "123456789012345678901234567890123456789012345678901234567890123" "\0", 66, 8, 1u << 20, "" },
		{ "63 bytes: a string", 1, 0, "\0v" "12345678901234567890123456789012345678901234567890123456789012" "\0", 65, 8, 1u << 20,
		  "v12345678901234567890123456789012345678901234567890123456789012" },
		{ "a control byte: no string", 1, 0, "\0v1\001\0v2\0", 8, 8, 1u << 20, "v2" },
		{ "no NUL before it: no string", 1, 0, "xv1\0", 4, 8, 1u << 20, "" },
		{ "the same string twice: once", 1, 0, "\0v1\0v1\0", 7, 8, 1u << 20, "v1" },
		{ "at most nmax", 1, 0, "\0v1\0v2\0v3\0", 10, 2, 1u << 20, "v1|v2" },
		{ "larger than max: not read", 1, 0, "\0v1\0", 4, 8, 6, "-1" },
	};
	char *f = ptb_path_join(dir, "elfstr");
	struct ptb_root r = { dir, 0, NULL, NULL };
	const cJSON *note;

	r.notes = cJSON_CreateArray();
	for (size_t i = 0; i < sizeof ecases / sizeof ecases[0]; i++) {
		struct ptb_buf b, got;
		cJSON *arr = cJSON_CreateArray(), *it;
		int n;

		ptb_buf_init(&b);
		ptb_buf_init(&got);
		if (ecases[i].elf)
			ptb_buf_add(&b, "\177ELF", 4);
		for (size_t k = 0; k < ecases[i].pad; k++)
			ptb_buf_addc(&b, '\0');
		ptb_buf_add(&b, ecases[i].body, ecases[i].blen);
		ptb_file_write_atomic(f, b.data, b.len, 0755, 0, NULL, &(struct ptb_err){ 0 });
		n = ptb_root_elf_strings(&r, "/elfstr", ecases[i].max, keep_v, ecases[i].nmax, arr);
		if (n < 0) {
			ptb_buf_adds(&got, "-1");
		} else {
			cJSON_ArrayForEach(it, arr) {
				if (got.len)
					ptb_buf_addc(&got, '|');
				ptb_buf_adds(&got, it->valuestring);
			}
			ptb_buf_adds(&got, "");
		}
		is_str(got.data, ecases[i].want, "elf strings: %s", ecases[i].what);
		ok(n < 0 || n == cJSON_GetArraySize(arr), "elf strings: %s: the count returned is the count added", ecases[i].what);
		cJSON_Delete(arr);
		ptb_buf_free(&b);
		ptb_buf_free(&got);
	}
	note = cJSON_GetArrayItem(r.notes, 0);
	is_str(note ? note->valuestring : NULL, "'/elfstr' in the sysroot is larger than 6 bytes: not searched",
	       "elf strings: a file too large gets a note");
	cJSON_Delete(r.notes);
	unlink(f);
	free(f);
}

int main(void)
{
	char *dir = tmpdir();

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ptb_err err = { 0 };
		cJSON *j = cJSON_Parse(cases[i].doc);
		int rc = ptb_facts_validate(j, "t.json", &err);

		if (!cases[i].want)
			ok(rc == 0, "case %zu valid%s%s", i, rc ? ": " : "", rc ? err.msg : "");
		else
			is_str(rc ? err.msg : "(accepted)", cases[i].want, "case %zu refused", i);
		cJSON_Delete(j);
	}
	for (size_t i = 0; i < sizeof env_cases / sizeof env_cases[0]; i++) {
		struct ptb_err err = { 0 };
		cJSON *j = cJSON_Parse(env_cases[i].doc);
		int rc = ptb_facts_validate_environment(j, "env", &err);

		if (!env_cases[i].want)
			ok(rc == 0, "environment case %zu valid%s%s", i, rc ? ": " : "", rc ? err.msg : "");
		else
			is_str(rc ? err.msg : "(accepted)", env_cases[i].want, "environment case %zu refused", i);
		cJSON_Delete(j);
	}
	golden();
	files(dir);
	root(dir);
	elf_strings(dir);
	free(dir);
	return tap_done();
}
