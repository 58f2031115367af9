/* probe_source.c - a PyTorch source checkout, for doctor: its version.txt
 * and the state of every git submodule its .gitmodules lists, judged as
 * PyTorch's setup.py judges them (check_submodules: a folder that does not
 * exist or is empty is not checked out; one without any of CMakeLists.txt,
 * Makefile, setup.py, LICENSE, LICENSE.md, LICENSE.txt stops the build
 * with "Could not find any of ... in ..."; get_submodule_folders takes
 * every .gitmodules line that starts with "path", after its first '=',
 * and a fixed list of folders when there is no .gitmodules; last,
 * fbgemm's nested asmjit needs its CMakeLists.txt).  The fixed list and
 * where asmjit lies changed from release to release: the state of every
 * folder any release's setup.py names that way is reported, and
 * recipes/doctor.lua picks the checkout's.
 * A checkout is a directory with version.txt, torch/ and setup.py (or
 * pyproject.toml: PyTorch 2.14's release notes schedule setup.py's
 * removal for 2.18) at its top, as PyTorch's own tree has them.
 * Raw texts only; recipes/doctor.lua says what they mean.
 *
 * A hostile tree costs little: version.txt is read for 256 bytes,
 * .gitmodules for 1 MiB and only when it is a regular file (a FIFO is
 * never opened for a blocking read), a folder's emptiness ends at its
 * first entry, links that loop count as absent (as Python's
 * os.path.exists has them), and at most 1000 submodules are looked at. */
#include "detect/probe.h"

#include <stdlib.h>
#include <string.h>

#define VERSION_MAX 64              /* version.txt: "2.14.0a0" */
#define GITMODULES_MAX (1u << 20)   /* PyTorch's is some 5 KiB */
#define SUBMODULES_MAX 1000
#define NOEQ_SHOWN 80               /* a line quoted: 76 bytes, then "..." */

static const char *const submodule_files[] = {
	"CMakeLists.txt", "Makefile", "setup.py", "LICENSE", "LICENSE.md", "LICENSE.txt", NULL
};

/* The folders setup.py checks by name, whatever the release: those of
 * get_submodule_folders' list for a tree without .gitmodules (2.4.0:
 * gloo, cpuinfo, onnx, foxi, QNNPACK, fbgemm, cutlass; 2.5 on without
 * foxi and QNNPACK), for the files above, and fbgemm's nested asmjit
 * (fbgemm/third_party/asmjit to 2.6, fbgemm/external/asmjit from 2.8), for
 * its CMakeLists.txt only.  Sources: recipes/doctor.lua. */
static const char *const fixed_folders[] = {
	"third_party/gloo", "third_party/cpuinfo", "third_party/onnx", "third_party/foxi",
	"third_party/QNNPACK", "third_party/fbgemm", "third_party/cutlass", NULL
};
static const char *const asmjit_dirs[] = {
	"third_party/fbgemm/third_party/asmjit", "third_party/fbgemm/external/asmjit", NULL
};
static const char *const asmjit_files[] = { "CMakeLists.txt", NULL };

static int exists(const struct ptb_root *r, const char *path)
{
	char *res = ptb_root_resolve(r, path);

	free(res);
	return res != NULL;
}

/* "2.14.0a0", "2.6.0", "2.15.0.dev": digits.digits, then what PyTorch's
 * versions carry (a third number, a0, rc1, +local). */
static int version_ok(const char *v)
{
	const char *p = v;
	int dots = 0;

	if (strlen(v) > VERSION_MAX || !(*p >= '0' && *p <= '9'))
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p++ != '.' || !(*p >= '0' && *p <= '9'))
		return 0;
	for (; *p; p++) {
		if (*p == '.')
			dots++;
		else if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		           (*p >= 'A' && *p <= 'Z') || *p == '+' || *p == '-' || *p == '_'))
			return 0;
	}
	return dots <= 4;
}

/* The text of a bad version.txt, fit for a message: printable ASCII, cut
 * with "..." only when it does not fit. */
static void shown(const char *s, size_t n, char *out, size_t outsz)
{
	size_t i, k = 0;

	for (i = 0; i < n && k + 4 < outsz; i++)
		out[k++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (i < n) {            /* cut: room was kept for "..." */
		memcpy(out + k, "...", 3);
		k += 3;
	}
	out[k] = '\0';
}

/* A .gitmodules path that stays inside the checkout: relative, no "..". */
static int path_ok(const char *p)
{
	const char *s = p;

	if (!*p || *p == '/')
		return 0;
	for (const char *c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return 0;
	while (*s) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n == 2 && s[0] == '.' && s[1] == '.')
			return 0;
		s += n;
		while (*s == '/')
			s++;
	}
	return 1;
}

/* NAME's state below DIR as setup.py sees it: missing, empty, no-files
 * (none of FILES in it), unreadable (there, a folder, but not one to
 * list: os.listdir raises on it) or ok.  An unreadable one gets a row in
 * UNREAD under NAME: the errno text and number opendir gave, and whether
 * one of FILES is there all the same (check_for_files stats them, which a
 * folder of mode 0111 allows). */
static const char *submodule_state(const struct ptb_root *r, const char *dir, const char *name,
                                   const char *const *files, cJSON *unread)
{
	char *folder = ptb_xasprintf("%s/%s", dir, name);
	int listed = 1, e = 0, there = 0;
	const char *state;

	if (!exists(r, folder)) {
		free(folder);
		return "missing";
	}
	/* os.listdir of the folder, which needs no more than one name: a
	 * folder of a million, named by 1000 .gitmodules lines, costs 1000
	 * entries, not a billion */
	if (ptb_root_is_dir(r, folder)) {
		listed = ptb_root_dir_empty(r, folder, &e);
		if (listed == 1) {
			free(folder);
			return "empty";
		}
	}
	for (size_t i = 0; files[i] && !there; i++) {
		char *f = ptb_xasprintf("%s/%s", folder, files[i]);

		there = exists(r, f);
		free(f);
	}
	free(folder);
	state = listed == -1 ? "unreadable" : there ? "ok" : "no-files";
	if (listed == -1 && !cJSON_GetObjectItemCaseSensitive(unread, name)) {
		cJSON *u = cJSON_AddObjectToObject(unread, name);

		cJSON_AddStringToObject(u, "error", strerror(e));
		cJSON_AddNumberToObject(u, "errno", e);
		cJSON_AddBoolToObject(u, "files", there);
	}
	return state;
}

/* One .gitmodules line as get_submodule_folders reads it: LINE, its
 * number NO, when it starts (after blanks) with "path".  With a '=' its
 * path, when one that stays in the checkout, joins the submodules; the
 * first without one is noted: setup.py to 2.7 raises on it
 * (line.split("=", 1)[1]), 2.8 on takes the checkout's top
 * (line.partition("=")[-1]).  Returns whether a path was added. */
static int gitmodules_line(const struct ptb_root *r, const char *dir, char *line, size_t no,
                           cJSON *raw, cJSON *arr)
{
	char *p = line, *eq, *end;
	cJSON *s;

	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (strncmp(p, "path", 4) != 0)
		return 0;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	if (!(eq = strchr(p, '='))) {
		if (!cJSON_GetObjectItemCaseSensitive(raw, "gitmodules_noeq")) {
			cJSON *q = cJSON_AddObjectToObject(raw, "gitmodules_noeq");
			char txt[NOEQ_SHOWN];

			shown(p, strlen(p), txt, sizeof txt);
			cJSON_AddNumberToObject(q, "line", (double)no);
			cJSON_AddStringToObject(q, "text", txt);
			cJSON_AddNumberToObject(q, "index", cJSON_GetArraySize(arr));
		}
		return 0;
	}
	for (p = eq + 1; *p == ' ' || *p == '\t'; p++)
		;
	end = p + strlen(p);
	while (end > p + 1 && end[-1] == '/')
		*--end = '\0';
	if (!path_ok(p))
		return 0;
	s = cJSON_CreateObject();
	cJSON_AddStringToObject(s, "path", p);
	cJSON_AddStringToObject(s, "state",
	                        submodule_state(r, dir, p, submodule_files,
	                                        cJSON_GetObjectItemCaseSensitive(raw, "unreadable")));
	cJSON_AddItemToArray(arr, s);
	return 1;
}

/* The submodules .gitmodules lists, as setup.py reads it: line by line
 * ('\n' ends one; a NUL is a byte of its line, a control character, not
 * the end of the file). */
static void submodules(const struct ptb_root *r, const char *dir, cJSON *raw)
{
	char *gm = ptb_xasprintf("%s/.gitmodules", dir);
	struct ptb_buf b;
	cJSON *arr = cJSON_AddArrayToObject(raw, "submodules");
	size_t at = 0, no = 0;
	int n = 0;

	ptb_buf_init(&b);
	if (ptb_root_read(r, gm, GITMODULES_MAX, &b) != 0) {
		/* absent: setup.py takes its fixed list; there but no regular
		 * file (a FIFO, a folder) or unreadable: setup.py opens it
		 * all the same, and blocks or raises */
		const char *kind = ptb_root_kind(r, gm);

		cJSON_AddBoolToObject(raw, "gitmodules", 0);
		if (kind)
			cJSON_AddStringToObject(raw, "gitmodules_unread",
			                        strcmp(kind, "a regular file") == 0 ? "unreadable" : kind);
		ptb_buf_free(&b);
		free(gm);
		return;
	}
	cJSON_AddBoolToObject(raw, "gitmodules", 1);
	for (size_t i = 0; i < b.len; i++)
		if (b.data[i] == '\0')
			b.data[i] = '\x01';
	ptb_buf_addc(&b, '\0');
	while (at < b.len - 1 && n < SUBMODULES_MAX) {
		char *line = b.data + at, *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		at += strlen(line) + 1;
		n += gitmodules_line(r, dir, line, ++no, raw, arr);
	}
	ptb_buf_free(&b);
	free(gm);
}

/* The first line of DIR/version.txt, trimmed as setup.py reads it, when
 * it is a version; NULL with err otherwise. */
static char *read_version(const struct ptb_root *r, const char *dir, struct ptb_err *err)
{
	char *vt = ptb_xasprintf("%s/version.txt", dir), *p, *ver = NULL;
	struct ptb_buf b;
	size_t n = 0;

	ptb_buf_init(&b);
	if (ptb_root_head(r, vt, 256, &b) != 0) {
		ptb_err_set(err, PTB_EIO, "cannot read '%s'", vt);
		goto out;
	}
	while (n < b.len && b.data[n] != '\n')
		n++;
	while (n > 0 && (b.data[n - 1] == ' ' || b.data[n - 1] == '\t' || b.data[n - 1] == '\r'))
		n--;
	p = b.data;
	while (n > 0 && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	ver = ptb_xstrndup(p, n);
	if (memchr(p, '\0', n) || !version_ok(ver)) {
		char txt[48];

		shown(p, n, txt, sizeof txt);
		ptb_err_set(err, PTB_EUSAGE, "'%s' reads '%s': expected a PyTorch version such as 2.14.0a0", vt, txt);
		ptb_err_hint(err, "restore it from the checkout (git checkout -- version.txt), or name another tree with --source");
		free(ver);
		ver = NULL;
	}
out:
	ptb_buf_free(&b);
	free(vt);
	return ver;
}

/* What DIR lacks of a PyTorch checkout's top (version.txt, torch/, and
 * setup.py or pyproject.toml), or NULL when it has all. */
static const char *checkout_lacks(const struct ptb_root *r, const char *dir)
{
	static const char *const need[] = { "version.txt", "torch", NULL };
	const char *lack = NULL;
	char *p, *pp;

	for (size_t i = 0; need[i] && !lack; i++) {
		p = ptb_xasprintf("%s/%s", dir, need[i]);
		if (!(i == 0 ? ptb_root_is_file(r, p) : ptb_root_is_dir(r, p)))
			lack = i == 0 ? "version.txt" : "torch/ directory";
		free(p);
	}
	if (lack)
		return lack;
	p = ptb_xasprintf("%s/setup.py", dir);
	pp = ptb_xasprintf("%s/pyproject.toml", dir);
	if (!ptb_root_is_file(r, p) && !ptb_root_is_file(r, pp))
		lack = "setup.py or pyproject.toml";
	free(p);
	free(pp);
	return lack;
}

/* The checkout's submodules and the folders setup.py names itself: its
 * list for a tree without .gitmodules, and its last check whatever
 * .gitmodules lists, fbgemm's nested submodule, which an init without
 * --recursive leaves empty.  Folders that cannot be listed are in
 * "unreadable", by path. */
static void observe_folders(const struct ptb_root *r, const char *dir, cJSON *raw)
{
	cJSON *fixed, *unread = cJSON_AddObjectToObject(raw, "unreadable");

	submodules(r, dir, raw);
	fixed = cJSON_AddObjectToObject(raw, "folders");
	for (int g = 0; g < 2; g++) {
		const char *const *names = g == 0 ? fixed_folders : asmjit_dirs;

		for (size_t i = 0; names[i]; i++)
			cJSON_AddStringToObject(fixed, names[i],
			                        submodule_state(r, dir, names[i],
			                                        g == 0 ? submodule_files : asmjit_files, unread));
	}
}

int ptb_probe_source(const struct ptb_root *r, const char *dir, int given, cJSON **out,
                     struct ptb_err *err)
{
	char *p, *ver;
	const char *lack;
	cJSON *raw;

	*out = NULL;
	if (!ptb_root_is_dir(r, dir)) {
		if (given)
			ptb_err_set(err, PTB_EUSAGE, "source '%s' is not a directory", dir);
		return given ? -1 : 0;
	}
	if ((lack = checkout_lacks(r, dir))) {
		if (!given)
			return 0;
		ptb_err_set(err, PTB_EUSAGE, "source '%s' is not a PyTorch checkout: it has no %s at its top", dir, lack);
		ptb_err_hint(err, "--source names the top directory of a PyTorch source tree (version.txt, setup.py and torch/ side by side)");
		return -1;
	}
	raw = cJSON_CreateObject();
	cJSON_AddStringToObject(raw, "path", dir);
	if (!(ver = read_version(r, dir, err))) {
		if (given) {
			cJSON_Delete(raw);
			return -1;
		}
		/* found, not asked for: what is wrong with it is a finding, not
		 * a reason to refuse the run */
		cJSON_AddStringToObject(raw, "version_error", err->msg);
		cJSON_AddStringToObject(raw, "version_hint", err->hint);
		ptb_err_clear(err);
		*out = raw;
		return 0;
	}
	cJSON_AddStringToObject(raw, "version", ver);
	free(ver);
	p = ptb_xasprintf("%s/.git", dir);
	cJSON_AddBoolToObject(raw, "git", exists(r, p));
	free(p);
	observe_folders(r, dir, raw);
	if (ptb_probe_env("USE_SYSTEM_LIBS"))
		cJSON_AddStringToObject(raw, "use_system_libs", ptb_probe_env("USE_SYSTEM_LIBS"));
	*out = raw;
	return 0;
}
