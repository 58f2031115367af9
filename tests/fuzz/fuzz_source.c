/* fuzz_source.c - ptb_probe_source (detect/probe_source.c), the reader of
 * a PyTorch checkout's version.txt and .gitmodules, against a plain model
 * of what it must report.  The input up to its first NUL is version.txt,
 * the rest .gitmodules; an input without a NUL is a checkout without
 * .gitmodules (a source archive).  The checkout has torch/, setup.py and
 * the folders third_party/{empty (empty), full (CMakeLists.txt), readme
 * (README only)}, the file third_party/file, and of the folders setup.py
 * names itself gloo (CMakeLists.txt), onnx (empty) and fbgemm with
 * third_party/asmjit (LICENSE only).
 *
 * The model: version.txt's first line (of its first 256 bytes) trimmed of
 * spaces and tabs (and CRs on the right) is a version when it is digits,
 * '.', a digit, then only letters, digits, '.', '+', '-', '_' (at most 64
 * bytes, 5 dots); else a usage error.  Every .gitmodules line that starts
 * (after blanks) with "path" and holds '=' gives the text after the first
 * '=', trimmed, trailing '/' dropped; kept unless empty, absolute, with a
 * control byte (a NUL included) or a ".." component; at most 1000, in
 * order.  The first such line without '=' (before the 1000th path) is
 * gitmodules_noeq: its 1-based number ('\n' ends a line), its text
 * trimmed as above with each byte outside printable ASCII a '?' (76
 * bytes, then "..." when longer), and the number of paths kept before
 * it.  No folder is "unreadable" (the fixture's are all listable).  A folder's state is the fixture's: empty, ok, no-files (README
 * only, or a file), missing (anything else absent); gitmodules says
 * whether .gitmodules was read; folders gives the state of each folder
 * setup.py names itself: gloo ok, onnx empty, fbgemm no-files (a folder
 * of none of its files), its third_party/asmjit no-files (a LICENSE is
 * not its CMakeLists.txt), cpuinfo, foxi, QNNPACK, cutlass and
 * fbgemm/external/asmjit missing, and no other. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "detect/probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir;     /* made once, kept for the process */

static void put(const char *name, const void *data, size_t len)
{
	char *path = ptb_path_join(dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len) || close(fd) != 0)
		abort();
	free(path);
}

/* the fixture, removed at exit (files first, folders deepest first) */
static void remove_fixture(void)
{
	static const char *const names[] = { "version.txt", ".gitmodules", "setup.py",
		"third_party/full/CMakeLists.txt", "third_party/readme/README", "third_party/file",
		"third_party/gloo/CMakeLists.txt", "third_party/fbgemm/third_party/asmjit/LICENSE",
		"third_party/fbgemm/third_party/asmjit", "third_party/fbgemm/third_party",
		"third_party/fbgemm", "third_party/gloo", "third_party/onnx",
		"third_party/empty", "third_party/full", "third_party/readme", "third_party", "torch", NULL };

	for (size_t i = 0; names[i]; i++) {
		char *p = ptb_path_join(dir, names[i]);

		if (unlink(p) != 0)
			rmdir(p);
		free(p);
	}
	rmdir(dir);
}

static void fixture(void)
{
	const char *tmp = getenv("TMPDIR");
	static const char *const dirs[] = { "torch", "third_party", "third_party/empty",
		"third_party/full", "third_party/readme", "third_party/gloo", "third_party/onnx",
		"third_party/fbgemm", "third_party/fbgemm/third_party",
		"third_party/fbgemm/third_party/asmjit", NULL };

	dir = ptb_xasprintf("%s/ptb-fuzz-source.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		abort();
	for (size_t i = 0; dirs[i]; i++) {
		char *p = ptb_path_join(dir, dirs[i]);

		if (mkdir(p, 0755) != 0)
			abort();
		free(p);
	}
	put("setup.py", "", 0);
	put("third_party/full/CMakeLists.txt", "", 0);
	put("third_party/readme/README", "x", 1);
	put("third_party/file", "x", 1);
	put("third_party/gloo/CMakeLists.txt", "", 0);
	put("third_party/fbgemm/third_party/asmjit/LICENSE", "x", 1);
	atexit(remove_fixture);
}

static int is_version(const char *v)
{
	size_t dots = 0, i = 0, n = strlen(v);

	if (n == 0 || n > 64)
		return 0;
	while (i < n && v[i] >= '0' && v[i] <= '9')
		i++;
	if (i == 0 || i + 1 >= n || v[i] != '.' || !(v[i + 1] >= '0' && v[i + 1] <= '9'))
		return 0;
	for (size_t k = 0; k < n; k++) {
		char c = v[k];

		if (c == '.')
			dots++;
		else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		           c == '+' || c == '-' || c == '_'))
			return 0;
	}
	return dots <= 5;
}

/* version.txt's first line, trimmed; NULL when it holds a NUL */
static char *first_line(const char *t, size_t n)
{
	size_t a = 0, e;

	if (n > 256)
		n = 256;
	e = 0;
	while (e < n && t[e] != '\n')
		e++;
	while (e > a && (t[e - 1] == ' ' || t[e - 1] == '\t' || t[e - 1] == '\r'))
		e--;
	while (a < e && (t[a] == ' ' || t[a] == '\t'))
		a++;
	if (memchr(t + a, '\0', e - a))
		return NULL;
	return ptb_xstrndup(t + a, e - a);
}

static int path_kept(const char *p)
{
	if (!*p || *p == '/')
		return 0;
	for (const char *c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return 0;
	/* a ".." component: the whole path, a prefix, a suffix or inside */
	return !(strcmp(p, "..") == 0 || strncmp(p, "../", 3) == 0 ||
	         (strlen(p) >= 3 && strcmp(p + strlen(p) - 3, "/..") == 0) || strstr(p, "/../"));
}

static const char *state_of(const char *p)
{
	static const char *const known[][2] = {
		{ "third_party/empty", "empty" }, { "third_party/full", "ok" },
		{ "third_party/readme", "no-files" }, { "third_party/file", "no-files" },
	};

	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcmp(p, known[i][0]) == 0)
			return known[i][1];
	return NULL;   /* another path: any state the probe's reads give */
}

/* The first path line without '=': number, text, paths before it */
struct noeq { size_t line; char text[80]; int index; };

static void model_noeq(struct noeq *q, size_t no, const char *p, int kept)
{
	size_t n = strlen(p), k = 0, i;

	q->line = no;
	q->index = kept;
	for (i = 0; i < n && k < 76; i++)
		q->text[k++] = (p[i] >= 0x20 && p[i] < 0x7f) ? p[i] : '?';
	if (i < n) {
		memcpy(q->text + k, "...", 3);
		k += 3;
	}
	q->text[k] = '\0';
}

/* The paths the model keeps, '\n'-joined into out; q->line 0 when no
 * path line lacks '='. */
static void model_paths(const char *g, size_t n, struct ptb_buf *out, struct noeq *q)
{
	size_t i = 0, no = 0;
	int kept = 0;

	while (i < n && kept < 1000) {
		size_t e = i, a;
		char *line, *p, *eq, *end;

		while (e < n && g[e] != '\n')
			e++;
		line = ptb_xstrndup(g + i, e - i);
		for (size_t k = 0; k < e - i; k++)   /* NUL: a control byte */
			if (g[i + k] == '\0')
				line[k] = '\x01';
		i = e + 1;
		no++;
		for (a = 0; line[a] == ' ' || line[a] == '\t' || line[a] == '\r'; a++)
			;
		if (strncmp(line + a, "path", 4) == 0 && !strchr(line + a, '=') && !q->line) {
			end = line + strlen(line);
			while (end > line + a && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
				*--end = '\0';
			model_noeq(q, no, line + a, kept);
		}
		if (strncmp(line + a, "path", 4) != 0 || !(eq = strchr(line + a, '='))) {
			free(line);
			continue;
		}
		for (p = eq + 1; *p == ' ' || *p == '\t'; p++)
			;
		end = p + strlen(p);
		while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			*--end = '\0';
		while (end > p + 1 && end[-1] == '/')
			*--end = '\0';
		if (path_kept(p)) {
			ptb_buf_adds(out, p);
			ptb_buf_addc(out, '\n');
			kept++;
		}
		free(line);
	}
	ptb_buf_adds(out, "");
}

/* The folders setup.py names itself, each in the fixture's state, and
 * no other. */
static void check_folders(const cJSON *folders)
{
	static const char *const want[][2] = {
		{ "third_party/gloo", "ok" }, { "third_party/cpuinfo", "missing" },
		{ "third_party/onnx", "empty" }, { "third_party/foxi", "missing" },
		{ "third_party/QNNPACK", "missing" }, { "third_party/fbgemm", "no-files" },
		{ "third_party/cutlass", "missing" },
		{ "third_party/fbgemm/third_party/asmjit", "no-files" },
		{ "third_party/fbgemm/external/asmjit", "missing" },
	};
	const size_t n = sizeof want / sizeof want[0];

	if (!cJSON_IsObject(folders) || (size_t)cJSON_GetArraySize(folders) != n)
		goto bad;
	for (size_t i = 0; i < n; i++) {
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(folders, want[i][0]);

		if (!cJSON_IsString(st) || strcmp(st->valuestring, want[i][1]) != 0)
			goto bad;
	}
	return;
bad:
	fprintf(stderr, "fuzz_source: folders not as the fixture has them\n");
	abort();
}

/* gitmodules_noeq as the model has it, or absent when it has none */
static void check_noeq(const cJSON *got, const struct noeq *q)
{
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(got, "line");
	const cJSON *text = cJSON_GetObjectItemCaseSensitive(got, "text");
	const cJSON *index = cJSON_GetObjectItemCaseSensitive(got, "index");

	if (!q->line ? got == NULL :
	    cJSON_IsNumber(line) && (size_t)line->valuedouble == q->line && cJSON_IsString(text) &&
	    strcmp(text->valuestring, q->text) == 0 && cJSON_IsNumber(index) && index->valueint == q->index)
		return;
	fprintf(stderr, "fuzz_source: gitmodules_noeq: want line %zu '%s' index %d\n", q->line, q->text, q->index);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptb_root r = { NULL, 0, NULL, NULL };
	struct ptb_err err = { 0 };
	const char *in = (const char *)data, *nul;
	size_t vlen, glen;
	struct ptb_buf want, got;
	cJSON *out = NULL;
	const cJSON *it;
	struct noeq q = { 0 };
	char *ver;
	int rc;

	if (size > 65536)
		return 0;
	if (!dir)
		fixture();
	r.dir = dir;
	nul = memchr(in, '\0', size);
	vlen = nul ? (size_t)(nul - in) : size;
	glen = nul ? size - vlen - 1 : 0;
	put("version.txt", in, vlen);
	if (nul) {
		put(".gitmodules", nul + 1, glen);
	} else {
		char *gm = ptb_path_join(dir, ".gitmodules");

		if (unlink(gm) != 0 && errno != ENOENT)
			abort();
		free(gm);
	}
	rc = ptb_probe_source(&r, "/", 1, &out, &err);
	ver = first_line(in, vlen);
	if (!ver || !is_version(ver)) {
		if (rc != -1 || out || err.code != PTB_EUSAGE) {
			fprintf(stderr, "fuzz_source: version.txt not a version, yet rc %d code %d\n", rc, err.code);
			abort();
		}
		free(ver);
		return 0;
	}
	if (rc != 0 || !out || strcmp(cJSON_GetObjectItemCaseSensitive(out, "version")->valuestring, ver) != 0) {
		fprintf(stderr, "fuzz_source: version '%s': rc %d (%s)\n", ver, rc, err.msg);
		abort();
	}
	ptb_buf_init(&want);
	ptb_buf_init(&got);
	model_paths(nul ? nul + 1 : "", glen, &want, &q);
	check_noeq(cJSON_GetObjectItemCaseSensitive(out, "gitmodules_noeq"), &q);
	it = cJSON_GetObjectItemCaseSensitive(out, "unreadable");
	if (!cJSON_IsObject(it) || cJSON_GetArraySize(it) != 0) {
		fprintf(stderr, "fuzz_source: a folder of the fixture said unreadable\n");
		abort();
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(out, "submodules")) {
		const char *p = cJSON_GetObjectItemCaseSensitive(it, "path")->valuestring;
		const char *st = cJSON_GetObjectItemCaseSensitive(it, "state")->valuestring;
		const char *must = state_of(p);

		if ((must && strcmp(st, must) != 0) ||
		    (strcmp(st, "ok") && strcmp(st, "empty") && strcmp(st, "missing") && strcmp(st, "no-files"))) {
			fprintf(stderr, "fuzz_source: '%s' is %s\n", p, st);
			abort();
		}
		ptb_buf_adds(&got, p);
		ptb_buf_addc(&got, '\n');
	}
	ptb_buf_adds(&got, "");
	/* .gitmodules read when there is one, said absent otherwise */
	it = cJSON_GetObjectItemCaseSensitive(out, "gitmodules");
	if (!cJSON_IsBool(it) || cJSON_IsTrue(it) != (nul != NULL) ||
	    cJSON_GetObjectItemCaseSensitive(out, "gitmodules_unread")) {
		fprintf(stderr, "fuzz_source: gitmodules %s for %s\n", cJSON_IsTrue(it) ? "read" : "not read",
		        nul ? "a file" : "none");
		abort();
	}
	if (!nul && want.len > 1)
		abort();   /* the model: no .gitmodules, no paths */
	check_folders(cJSON_GetObjectItemCaseSensitive(out, "folders"));
	if (strcmp(got.data, want.data) != 0) {
		fprintf(stderr, "fuzz_source: paths\ngot:\n%s\nwant:\n%s\n", got.data, want.data);
		abort();
	}
	free(ver);
	ptb_buf_free(&want);
	ptb_buf_free(&got);
	cJSON_Delete(out);
	return 0;
}
