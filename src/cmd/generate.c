/* generate.c - `ptbuild generate`: render a plan into env files, CMake
 * cache and presets, Dockerfile, bake file, CI workflow and setup.sh.
 *
 * The recipe (recipes/generate.lua) decides which files exist, from which
 * template, and every value in them; this file reads the plan, hands it over,
 * renders (src/generate/render.c) and writes each file atomically, only if changed. */
#include "cmd/cmds.h"
#include "cmd/common.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fleet.h"
#include "core/plan.h"
#include "core/problems.h"
#include "generate/render.h"
#include "util/json.h"
#include "util/sha256.h"

struct opts {
	struct ptb_plan_opts p;
	int plan_opts;            /* a plan option was given */
	const char *plan;
	const char *out;
	const char *format;       /* comma-separated, NULL: all */
	const char *torch_ref, *base_image, *base_digest, *sde;
	const char *bucket, *region, *redis, *scheduler;
	int sccache, force, dry_run;
};

/* --sccache-bucket, --sccache-redis, --sccache-scheduler: imply --sccache. */
static int set_sccache_store(const struct ptb_opt_arg *a)
{
	struct opts *o = a->base;

	*PTB_OPT_FIELD(a, const char *) = a->arg;
	o->sccache = 1;
	return 0;
}

#define AT(field) .off = offsetof(struct opts, field)

static const struct ptb_opt options[] = {
	{ .group = ptb_cmd_plan_options, AT(p) },
	{ .group = ptb_cmd_fleet_options, AT(p) },
	{ .help = "For a fleet, DIR gets a directory per platform build (DIR/x86_64, "
	          "DIR/sbsa, DIR/jetson) holding what generate writes for that build's "
	          "plan alone, and at the top docker-bake.hcl (a target per platform an "
	          "image can build: not a Jetson), a CI workflow whose matrix runs over "
	          "the same platforms, and fleet.json, the fleet document." },
	{ .name = "plan", .arg = "FILE", AT(plan),
	  .help = "render this saved plan (ptbuild.plan/1 JSON) or fleet plan "
	          "(ptbuild.fleet/1)" },
	{ .name = "out", .arg = "DIR", AT(out),
	  .help = "where to write (default ./ptbuild-out)" },
	{ .name = "format", .arg = "LIST", AT(format),
	  .values = "env envrc docker-env github-env cmake presets dockerfile bake ci setup",
	  .help = "comma-separated, default all: env, envrc, docker-env, github-env, "
	          "cmake, presets, dockerfile, bake, ci, setup" },
	{ .name = "torch-ref", .arg = "REF", AT(torch_ref),
	  .help = "PyTorch git tag or commit for the Dockerfile (default v<torch version>)" },
	{ .name = "base-image", .arg = "IMAGE", AT(base_image),
	  .help = "Dockerfile base image, pinned by tag (default: the plan machine's release when it is Ubuntu 22.04 or 24.04 or Debian 12 or 13, else ubuntu 22.04)" },
	{ .name = "base-digest", .arg = "SHA", AT(base_digest),
	  .help = "pin the base image by digest too (sha256:...)" },
	{ .name = "source-date-epoch", .arg = "N", AT(sde),
	  .help = "SOURCE_DATE_EPOCH for the image (default: from the plan, else 0)" },
	{ .name = "sccache", AT(sccache),
	  .help = "compile through sccache (local disk cache)" },
	{ .name = "sccache-bucket", .arg = "B", AT(bucket), .set = set_sccache_store,
	  .help = "... with an S3 bucket (--sccache-region R)" },
	{ .name = "sccache-region", .arg = "R", AT(region),
	  .help = "the S3 bucket's region" },
	{ .name = "sccache-redis", .arg = "URL", AT(redis), .set = set_sccache_store,
	  .help = "... with a redis server" },
	{ .name = "sccache-scheduler", .arg = "URL", AT(scheduler), .set = set_sccache_store,
	  .help = "... with an sccache-dist scheduler" },
	{ .name = "force", AT(force),
	  .help = "write even when the plan reports errors or the base image's gcc or "
	          "Python is refused (the Dockerfile then names each refused check "
	          "in a comment), and replace files in DIR that ptbuild did not write" },
	{ .name = "dry-run", AT(dry_run),
	  .help = "say what would be written or skipped, write nothing" },
	{ 0 },
};

#undef AT

const struct ptb_cmd ptb_cmd_generate_def = {
	.name = "generate", .run = ptb_cmd_generate,
	.summary = "write env files, CMake cache and presets, Dockerfile, CI and setup.sh for a plan",
	.usage = "ptbuild generate [plan options | --plan FILE] [--out DIR] [--format LIST] [options]",
	.intro =
	"Without --plan, the plan is made as 'ptbuild plan' makes it: for this\n"
	"host, or for --facts FILE / --profile NAME.\n",
	.options = options,
	.epilog =
	"A file whose bytes did not change is not rewritten; every write is\n"
	"atomic.  An existing file is replaced only when it is ptbuild's: its\n"
	"first lines carry ptbuild's header (plan.json: its ptbuild.plan/1\n"
	"schema), or DIR/.ptbuild-generated, the list of what generate wrote\n"
	"there with each file's sha256, records its exact bytes.  Any other file\n"
	"is kept and listed as skipped, and the exit status is 1.\n"
	"\n"
	"The Dockerfile's base image, when ptbuild knows it (ubuntu:22.04,\n"
	"ubuntu:24.04, debian:bookworm, debian:trixie), is checked as the host\n"
	"is: its gcc against the plan's nvcc on amd64 and arm64, its Python\n"
	"against the PyTorch release.  A gcc nvcc refuses is replaced by a\n"
	"g++-N the base offers (installed, and named in CC, CXX and CUDAHOSTCXX);\n"
	"when none passes, or the Python does not, nothing is written and the\n"
	"exit status is 1; --force writes it all the same, with a warning and a\n"
	"comment at the Dockerfile's head naming each refused check.  A leg\n"
	"(amd64, arm64) whose Python PyTorch publishes no wheel for on that\n"
	"platform gets a note.  Another image is used unchecked, with a note.\n"
	"\n"
	"A fleet: every build is judged before anything is written; each one\n"
	"refused is named with its error, and nothing is written unless --force.\n"
	"\n"
	"Templates are found as templates/NAME beside each recipe directory, so\n"
	"--recipes DIR with DIR/templates/ overrides them.\n"
	"\n"
	"Examples:\n"
	"  ptbuild generate                      # for this machine\n"
	"  ptbuild generate --profile gh200 --out gh200\n"
	"  ptbuild generate --plan gh200.plan.json --out ptbuild-out\n"
	"  ptbuild generate --facts /shared/facts --out fleet-out\n",
};

/* The plan: a saved one (--plan FILE), else made from the plan options
 * (--facts, --profile, this host) exactly as `ptbuild plan` makes it. */
static int make_plan_from_options(struct ptb_ctx *ctx, const struct opts *o,
                                  cJSON **plan, int *is_fleet, struct ptb_err *err)
{
	struct ptb_lua *lua;

	*plan = NULL;
	*is_fleet = 0;
	if (!o->plan) {
		lua = ptb_ctx_lua(ctx, err);
		if (!lua)
			return -1;
		*is_fleet = ptb_plan_is_fleet(&o->p);
		return *is_fleet ? ptb_fleet_make(lua, &o->p, plan, err) : ptb_plan_make(lua, &o->p, plan, NULL, err);
	}
	/* A saved plan is input like any other: every value is checked by its
	 * form before any template sees it (a fleet's every build too). */
	*plan = ptb_plan_load_any(o->plan, is_fleet, err);
	return *plan ? 0 : -1;
}

static void add_opt_str(cJSON *obj, const char *key, const char *val)
{
	if (val)
		cJSON_AddStringToObject(obj, key, val);
}

/* The recipe's argument: the plan, the order of its env keys (lost once
 * the object becomes a Lua table) and the options. */
static cJSON *recipe_args(const struct opts *o, const cJSON *plan, int fleet_build)
{
	cJSON *args = cJSON_CreateObject();
	cJSON *order = cJSON_AddArrayToObject(args, "env_order");
	cJSON *opt = cJSON_AddObjectToObject(args, "options");
	const cJSON *e;

	struct ptb_buf text;

	cJSON_AddItemToObject(args, "plan", cJSON_Duplicate(plan, 1));
	/* setup.sh needs the plan beside it for `ptbuild fetch`. */
	ptb_buf_init(&text);
	ptb_json_print(plan, 1, &text);
	cJSON_AddStringToObject(args, "plan_text", text.data);
	ptb_buf_free(&text);
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(plan, "env"))
		cJSON_AddItemToArray(order, cJSON_CreateString(e->string));
	cJSON *formats = cJSON_AddArrayToObject(opt, "formats");
	for (const char *f = o->format; f && *f;) {
		size_t len = strcspn(f, ",");

		if (len) {
			char *one = ptb_xstrndup(f, len);
			cJSON_AddItemToArray(formats, cJSON_CreateString(one));
			free(one);
		}
		f += len + (f[len] == ',');
	}
	if (fleet_build)
		cJSON_AddBoolToObject(opt, "fleet_build", 1);
	if (o->force)
		cJSON_AddBoolToObject(opt, "force", 1);   /* write past the image checks too */
	add_opt_str(opt, "torch_ref", o->torch_ref);
	add_opt_str(opt, "base_image", o->base_image);
	add_opt_str(opt, "base_digest", o->base_digest);
	add_opt_str(opt, "source_date_epoch", o->sde);
	if (o->sccache) {
		cJSON *sc = cJSON_AddObjectToObject(opt, "sccache");
		add_opt_str(sc, "bucket", o->bucket);
		add_opt_str(sc, "region", o->region);
		add_opt_str(sc, "redis", o->redis);
		add_opt_str(sc, "scheduler", o->scheduler);
	}
	return args;
}

static int valid_rel_path(const char *p)
{
	const char *seg = p;

	if (!*p || *p == '/')
		return 0;
	for (;;) {
		const char *slash = strchr(seg, '/');
		size_t n = slash ? (size_t)(slash - seg) : strlen(seg);

		if (n == 0 || (n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.'))
			return 0;
		for (size_t i = 0; i < n; i++) {
			char c = seg[i];
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
				return 0;
		}
		if (!slash)
			return 1;
		seg = slash + 1;
	}
}

struct outfile {
	char *path;
	struct ptb_buf data;
	int mode;
	char *mark;               /* what shows the file is ptbuild's, or NULL */
};

/* Render template `name` with scope and add the text to scope as
 * `embedded`. */
static int render_embedded(struct ptb_ctx *ctx, const char *name, cJSON *scope, struct ptb_err *err)
{
	struct ptb_buf text, out;
	char *tpath;
	int rc;

	if (!valid_rel_path(name)) {
		ptb_err_set(err, PTB_ERECIPE, "recipe 'generate.files': embed '%s' is not a relative template name", name);
		return -1;
	}
	tpath = ptb_cmd_find_template(ctx, name);
	if (!tpath) {
		ptb_err_set(err, PTB_ERECIPE, "template '%s' not found on the recipe path", name);
		return -1;
	}
	ptb_buf_init(&text);
	ptb_buf_init(&out);
	rc = ptb_file_read(tpath, 0, &text, err);
	if (rc == 0)
		rc = ptb_render(text.data, text.len, name, scope, &out, err);
	if (rc == 0) {
		ptb_buf_add(&out, "", 0);
		cJSON_DeleteItemFromObjectCaseSensitive(scope, "embedded");
		cJSON_AddStringToObject(scope, "embedded", out.data ? out.data : "");
	}
	ptb_buf_free(&out);
	ptb_buf_free(&text);
	free(tpath);
	return rc;
}

static int render_files(struct ptb_ctx *ctx, const cJSON *doc,
                        struct outfile **files, int *nfiles, struct ptb_err *err)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "files");
	const cJSON *vars = cJSON_GetObjectItemCaseSensitive(doc, "vars");
	const cJSON *f;
	int n = cJSON_GetArraySize(list), i = 0;

	if (!cJSON_IsArray(list) || !cJSON_IsObject(vars)) {
		ptb_err_set(err, PTB_ERECIPE, "recipe 'generate.files' returned no files and vars");
		return -1;
	}
	*files = ptb_xcalloc((size_t)n + 1, sizeof **files);
	*nfiles = 0;
	cJSON_ArrayForEach(f, list) {
		const char *path = ptb_json_str(f, "path");
		const char *tmpl = ptb_json_str(f, "template");
		const cJSON *mode = cJSON_GetObjectItemCaseSensitive(f, "mode");
		const cJSON *fvars = cJSON_GetObjectItemCaseSensitive(f, "vars");
		struct outfile *of = &(*files)[i++];
		struct ptb_buf text;
		char *tpath;
		cJSON *scope;
		int rc;

		ptb_buf_init(&of->data);
		(*nfiles)++;
		if (!path || !tmpl || !valid_rel_path(path) || !valid_rel_path(tmpl)) {
			ptb_err_set(err, PTB_ERECIPE, "recipe 'generate.files': file %d needs a relative path and template (got '%s', '%s')",
			            i, path ? path : "", tmpl ? tmpl : "");
			return -1;
		}
		of->path = ptb_xstrdup(path);
		of->mode = cJSON_IsNumber(mode) ? mode->valueint : 0644;
		if (ptb_json_str(f, "mark") && *ptb_json_str(f, "mark"))
			of->mark = ptb_xstrdup(ptb_json_str(f, "mark"));
		tpath = ptb_cmd_find_template(ctx, tmpl);
		if (!tpath) {
			ptb_err_set(err, PTB_ERECIPE, "template '%s' not found on the recipe path", tmpl);
			ptb_err_hint(err, "templates live in templates/ beside a recipe directory");
			return -1;
		}
		ptb_debug("template %s: %s", tmpl, tpath);
		ptb_buf_init(&text);
		rc = ptb_file_read(tpath, 0, &text, err);
		/* The file's own values shadow the shared ones. */
		scope = cJSON_Duplicate(vars, 1);
		if (cJSON_IsObject(fvars)) {
			const cJSON *v;
			cJSON_ArrayForEach(v, fvars) {
				cJSON_DeleteItemFromObjectCaseSensitive(scope, v->string);
				cJSON_AddItemToObject(scope, v->string, cJSON_Duplicate(v, 1));
			}
		}
		/* "embed": another template rendered with the same values, its
		 * text given to this one as `embedded` (the bake file carries
		 * the Dockerfile inline). */
		if (rc == 0 && ptb_json_str(f, "embed"))
			rc = render_embedded(ctx, ptb_json_str(f, "embed"), scope, err);
		if (rc == 0)
			rc = ptb_render(text.data, text.len, tmpl, scope, &of->data, err);
		cJSON_Delete(scope);
		ptb_buf_free(&text);
		free(tpath);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* DIR/.ptbuild-generated: one line per file generate wrote in DIR, as
 * sha256sum prints it ("HEX  PATH"), so `sha256sum -c` reads it too.  It
 * is what proves a file without room for ptbuild's header (github.env,
 * .dockerignore) is ptbuild's, and only while its bytes are unchanged. */
#define MANIFEST ".ptbuild-generated"
/* A file's mark must be in its first MARK_SPAN bytes. */
#define MARK_SPAN 4096

struct entry {
	char *path;
	char hex[65];
};

struct manifest {
	struct entry *e;
	size_t n, cap;
	int present;              /* DIR/.ptbuild-generated exists */
	int foreign;              /* ... but is not one ptbuild wrote */
};

static struct entry *manifest_find(const struct manifest *m, const char *path)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->e[i].path, path) == 0)
			return &m->e[i];
	return NULL;
}

static void manifest_set(struct manifest *m, const char *path, const char *hex)
{
	struct entry *e = manifest_find(m, path);

	if (!e) {
		if (m->n == m->cap) {
			m->cap = m->cap ? 2 * m->cap : 16;
			m->e = ptb_xrealloc(m->e, m->cap * sizeof *m->e);
		}
		e = &m->e[m->n++];
		e->path = ptb_xstrdup(path);
	}
	memcpy(e->hex, hex, 65);
}

static void manifest_drop(struct manifest *m, const char *path)
{
	struct entry *e = manifest_find(m, path);

	if (e) {
		free(e->path);
		*e = m->e[--m->n];
	}
}

static void manifest_free(struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->e[i].path);
	free(m->e);
	memset(m, 0, sizeof *m);
}

static int is_hex64(const char *s)
{
	for (int i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* Read DIR/.ptbuild-generated.  A file of that name with any line that is
 * not "HEX  PATH" is someone else's: none of it is trusted. */
static void manifest_load(const char *outdir, struct manifest *m)
{
	char *path = ptb_path_join(outdir, MANIFEST);
	struct ptb_buf b;
	struct stat st;

	memset(m, 0, sizeof *m);
	ptb_buf_init(&b);
	if (lstat(path, &st) == 0) {
		m->present = 1;
		if (!S_ISREG(st.st_mode) || ptb_file_read(path, 1 << 20, &b, NULL) != 0) {
			m->foreign = 1;
		} else {
			char *line = b.data;

			while (line && *line) {
				char *nl = strchr(line, '\n');

				if (nl)
					*nl = '\0';
				if (strlen(line) < 67 || !is_hex64(line) || line[64] != ' ' ||
				    line[65] != ' ' || !valid_rel_path(line + 66)) {
					m->foreign = 1;
					break;
				}
				line[64] = '\0';
				manifest_set(m, line + 66, line);
				line = nl ? nl + 1 : NULL;
			}
			if (m->foreign) {
				for (size_t i = 0; i < m->n; i++)
					free(m->e[i].path);
				m->n = 0;
			}
		}
	}
	ptb_buf_free(&b);
	free(path);
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path, ((const struct entry *)b)->path);
}

static int manifest_save(const char *outdir, struct manifest *m, struct ptb_err *err)
{
	char *path = ptb_path_join(outdir, MANIFEST);
	struct ptb_buf b;
	int rc;

	qsort(m->e, m->n, sizeof *m->e, entry_cmp);
	ptb_buf_init(&b);
	ptb_buf_add(&b, "", 0);
	for (size_t i = 0; i < m->n; i++)
		ptb_buf_printf(&b, "%s  %s\n", m->e[i].hex, m->e[i].path);
	rc = ptb_file_write_atomic(path, b.data, b.len, 0644, 1, NULL, err);
	ptb_buf_free(&b);
	free(path);
	return rc;
}

/* Does the file's head hold mark? */
static int has_mark(const char *path, const char *mark)
{
	char head[MARK_SPAN];
	size_t len = 0, mlen = strlen(mark);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while (len < sizeof head) {
		ssize_t n = read(fd, head + len, sizeof head - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	for (size_t i = 0; mlen && i + mlen <= len; i++)
		if (memcmp(head + i, mark, mlen) == 0)
			return 1;
	return 0;
}

/* Whether generate may replace the file at full (rel inside DIR): NULL
 * when it is absent, holds these bytes already, or is ptbuild's; else
 * why not.  *cur gets the sha256 of what is there ("" when absent). */
static const char *why_not_ours(const char *full, const struct outfile *f,
                                const char *want, const struct manifest *m,
                                char cur[65])
{
	const struct entry *e = manifest_find(m, f->path);
	struct stat st;

	cur[0] = '\0';
	if (lstat(full, &st) != 0)
		return NULL;
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (ptb_sha256_file(full, cur, NULL) != 0)
		cur[0] = '\0';
	if (cur[0] && strcmp(cur, want) == 0)
		return NULL;
	if (f->mark && has_mark(full, f->mark))
		return NULL;
	if (e && cur[0] && strcmp(e->hex, cur) == 0)
		return NULL;
	return e ? "changed since ptbuild wrote it" : "not written by ptbuild";
}

/* Write the files that are new, changed and ptbuild's; keep any other.
 * Returns 0, PTB_EFOUND when a file was skipped, or -1 with err. */
static int write_files(const char *outdir, struct outfile *files, int n,
                       int dry_run, int force, struct ptb_err *err)
{
	struct manifest m;
	int skipped = 0;

	manifest_load(outdir, &m);
	for (int i = 0; i < n; i++) {
		char *full = ptb_path_join(outdir, files[i].path);
		char *dir = ptb_xstrdup(full);
		char *slash = strrchr(dir, '/');
		char want[65], cur[65];
		const char *why;
		struct ptb_sha256 h;
		int changed = 1;

		ptb_sha256_init(&h);
		ptb_sha256_update(&h, files[i].data.data, files[i].data.len);
		ptb_sha256_final_hex(&h, want);
		why = why_not_ours(full, &files[i], want, &m, cur);
		if (why && !force) {
			ptb_warn("skipped '%s': %s (use --force to replace it)", full, why);
			printf("%s %s\n", dry_run ? "would skip " : "skipped  ", full);
			manifest_drop(&m, files[i].path);
			skipped = 1;
			free(dir);
			free(full);
			continue;
		}
		if (slash && slash != dir) {
			*slash = '\0';
			if (!dry_run && ptb_mkdir_p(dir, 0755, err) != 0) {
				free(dir);
				free(full);
				manifest_free(&m);
				return -1;
			}
		}
		free(dir);
		if (dry_run) {
			changed = strcmp(cur, want) != 0;
		} else if (ptb_file_write_atomic(full, files[i].data.data, files[i].data.len,
		                                 files[i].mode, 1, &changed, err) != 0) {
			free(full);
			manifest_free(&m);
			return -1;
		}
		manifest_set(&m, files[i].path, want);
		printf("%s %s\n", changed ? (dry_run ? "would write" : "wrote    ") :
		                            (dry_run ? "unchanged  " : "unchanged"), full);
		free(full);
	}
	/* The record keeps what earlier runs wrote and is still there. */
	for (size_t i = 0; i < m.n;) {
		char *full = ptb_path_join(outdir, m.e[i].path);
		struct stat st;

		if (lstat(full, &st) != 0 && !dry_run)
			manifest_drop(&m, m.e[i].path);
		else
			i++;
		free(full);
	}
	if (m.foreign && !force) {
		char *full = ptb_path_join(outdir, MANIFEST);

		ptb_warn("skipped '%s': not a list ptbuild wrote (use --force to replace it)", full);
		free(full);
		skipped = 1;
	} else if (!dry_run && (m.n > 0 || m.present) && manifest_save(outdir, &m, err) != 0) {
		manifest_free(&m);
		return -1;
	}
	manifest_free(&m);
	return skipped ? PTB_EFOUND : 0;
}

/* Problems in the plan: print them; errors stop the run unless --force,
 * named in a last error.  A plan that chooses no CUDA (cuda.undecided,
 * facts that cannot both be true) stops it even with --force: its
 * toolkit root is a placeholder, and every file would name it. */
static int report_problems(const cJSON *plan, int force)
{
	const cJSON *problems = cJSON_GetObjectItemCaseSensitive(plan, "problems");
	const cJSON *cuda = cJSON_GetObjectItemCaseSensitive(plan, "cuda");
	const char *undecided = ptb_json_str(cuda, "undecided");
	int errors = ptb_problems_log(problems, NULL, force && !undecided);

	if (undecided) {
		ptb_error("the plan chooses no CUDA until its facts agree (cuda.undecided: %s): nothing written, even with --force",
		          undecided);
		ptb_hint("set right the fact the %s error names, run 'ptbuild detect' and plan again", undecided);
		return PTB_EFOUND;
	}

	if (errors && !force) {
		char *codes = ptb_problems_join_codes(problems, "error");

		ptb_error("the plan has %d error%s (%s): nothing written", errors, errors == 1 ? "" : "s",
		          codes ? codes : "?");
		ptb_hint("fix the plan, or write anyway with --force");
		free(codes);
		return PTB_EFOUND;
	}
	return 0;
}

static void free_files(struct outfile *files, int nfiles)
{
	for (int i = 0; i < nfiles; i++) {
		free(files[i].path);
		free(files[i].mark);
		ptb_buf_free(&files[i].data);
	}
	free(files);
}

/* The errors a recipe returned for one build of a fleet, each named by
 * its build: "fleet build 'sbsa': ...". */
static void name_build(const char *where, struct ptb_err *err, cJSON *rest)
{
	char msg[sizeof err->msg];
	cJSON *e;

	snprintf(msg, sizeof msg, "%s", err->msg);
	snprintf(err->msg, sizeof err->msg, "fleet build '%.64s': %.900s", where, msg);
	cJSON_ArrayForEach(e, rest) {
		const char *m = ptb_json_str(e, "message");
		char *named = ptb_xasprintf("fleet build '%s': %s", where, m ? m : "?");

		cJSON_DeleteItemFromObjectCaseSensitive(e, "message");
		cJSON_AddStringToObject(e, "message", named);
		free(named);
	}
}

/* Run a generate recipe function and render what it returns.  0 with
 * *res and the files; -1 with err; or the exit status of the errors the
 * recipe returned (already reported, each named by where, a fleet's
 * build, when given). */
static int recipe_files(struct ptb_ctx *ctx, const char *fn, cJSON *args, const char *where,
                        cJSON **res, struct outfile **files, int *nfiles, struct ptb_err *err)
{
	struct ptb_lua *lua = ptb_ctx_lua(ctx, err);
	cJSON *rest = NULL;

	*res = NULL;
	*files = NULL;
	*nfiles = 0;
	if (!lua)
		return -1;
	if (ptb_recipe_call(lua, "generate", fn, args, res, &rest, err) != 0) {
		if (where)
			name_build(where, err, rest);
		return ptb_recipe_report(err, rest);
	}
	return render_files(ctx, *res, files, nfiles, err);
}

static void print_notes(const cJSON *res, const char *where)
{
	const cJSON *n;

	cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(res, "warnings"))
		if (cJSON_IsString(n))
			ptb_warn("%s%s%s", where ? where : "", where ? ": " : "", n->valuestring);
	cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(res, "notes"))
		if (cJSON_IsString(n))
			ptb_note("%s%s%s", where ? where : "", where ? ": " : "", n->valuestring);
}

/* One machine's plan: its files in o->out. */
static int generate_plan(struct ptb_ctx *ctx, const struct opts *o, const cJSON *plan)
{
	struct ptb_err err = { 0 };
	struct outfile *files = NULL;
	cJSON *args, *res = NULL;
	int nfiles = 0, rc;

	rc = report_problems(plan, o->force);
	if (rc != 0)
		return rc;
	args = recipe_args(o, plan, 0);
	/* Render everything before writing anything: a bad value leaves the
	 * previous output whole. */
	rc = recipe_files(ctx, "files", args, NULL, &res, &files, &nfiles, &err);
	cJSON_Delete(args);
	if (rc == 0)
		rc = write_files(o->out, files, nfiles, o->dry_run, o->force, &err);
	if (rc < 0)
		rc = ptb_report(&err);
	else if (rc != PTB_EUSAGE && rc != PTB_ERECIPE)
		print_notes(res, NULL);
	free_files(files, nfiles);
	cJSON_Delete(res);
	return rc;
}

struct build_out {
	char *dir;                /* OUT/PLATFORM */
	cJSON *res;
	struct outfile *files;
	int nfiles;
};

/* The builds' notes, each once, with the builds it is about
 * ("x86_64, sbsa: the base image ..."). */
static void print_build_notes(const struct build_out *out, int nb, const cJSON *targets)
{
	cJSON *seen = cJSON_CreateArray();
	const cJSON *n, *s;

	for (int i = 0; i < nb; i++) {
		const char *pf = ptb_json_str(cJSON_GetArrayItem(targets, i), "platform");

		/* what --force wrote past: each build's own, said first */
		cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(out[i].res, "warnings"))
			if (cJSON_IsString(n))
				ptb_warn("%s: %s", pf ? pf : "?", n->valuestring);
	}
	for (int i = 0; i < nb; i++) {
		const char *pf = ptb_json_str(cJSON_GetArrayItem(targets, i), "platform");

		cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(out[i].res, "notes")) {
			cJSON *found = NULL;

			if (!cJSON_IsString(n))
				continue;
			cJSON_ArrayForEach(s, seen)
				if (strcmp(ptb_json_str(s, "text"), n->valuestring) == 0)
					found = (cJSON *)s;
			if (found) {
				char *w = ptb_xasprintf("%s, %s", ptb_json_str(found, "where"), pf);

				cJSON_ReplaceItemInObjectCaseSensitive(found, "where", cJSON_CreateString(w));
				free(w);
			} else {
				found = cJSON_CreateObject();
				cJSON_AddStringToObject(found, "text", n->valuestring);
				cJSON_AddStringToObject(found, "where", pf);
				cJSON_AddItemToArray(seen, found);
			}
		}
	}
	cJSON_ArrayForEach(s, seen)
		ptb_note("%s: %s", ptb_json_str(s, "where"), ptb_json_str(s, "text"));
	cJSON_Delete(seen);
}

/* The text of the Dockerfile a build's bake target carries: the
 * recipe's docker_template rendered with the build's values. */
static char *build_dockerfile(struct ptb_ctx *ctx, const cJSON *res, struct ptb_err *err)
{
	const char *tmpl = ptb_json_str(res, "docker_template");
	cJSON *scope = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(res, "vars"), 1);
	char *text = NULL;

	if (!tmpl) {
		ptb_err_set(err, PTB_ERECIPE, "recipe 'generate.files' returned no docker_template");
	} else if (render_embedded(ctx, tmpl, scope, err) == 0) {
		text = ptb_xstrdup(ptb_json_str(scope, "embedded"));
	}
	cJSON_Delete(scope);
	return text;
}

/* The fleet's problems and every build's, on stderr: PTB_EFOUND when
 * one is an error and --force is not given, else 0. */
static int fleet_problems(const cJSON *fleet, int force)
{
	const cJSON *targets = cJSON_GetObjectItemCaseSensitive(fleet, "targets"), *b;
	int errors, i = 0;

	struct ptb_buf why;
	char *codes;

	ptb_buf_init(&why);
	errors = ptb_problems_log(cJSON_GetObjectItemCaseSensitive(fleet, "problems"), "(fleet)", force);
	if (errors && (codes = ptb_problems_join_codes(cJSON_GetObjectItemCaseSensitive(fleet, "problems"), "error"))) {
		ptb_buf_printf(&why, "the fleet's own: %s", codes);
		free(codes);
	}
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(fleet, "builds")) {
		const char *pf = ptb_json_str(cJSON_GetArrayItem(targets, i++), "platform");
		const cJSON *problems = cJSON_GetObjectItemCaseSensitive(b, "problems");
		int n = ptb_problems_log(problems, pf, force);

		if (n && (codes = ptb_problems_join_codes(problems, "error"))) {
			ptb_buf_printf(&why, "%sbuild '%s': %s", why.len ? "; " : "", pf ? pf : "?", codes);
			free(codes);
		}
		errors += n;
	}
	if (errors && !force) {
		ptb_error("the fleet plan has %d error%s (%s): nothing written", errors, errors == 1 ? "" : "s",
		          why.len ? why.data : "?");
		ptb_hint("fix the plan, or write anyway with --force");
		ptb_buf_free(&why);
		return PTB_EFOUND;
	}
	ptb_buf_free(&why);
	return 0;
}

/* Each build's files, rendered into out[i] for OUT/PLATFORM, and what a
 * fleet file needs of it ({dir, vars, dockerfile}) appended to rendered.
 * Every build is rendered, so that each refused one (an image check, a
 * bad value) is named with its errors; then, when one was, nothing is
 * written.  0, -1 with err, or the status of recipe errors (reported,
 * the builds they stopped named in a last error). */
static int render_builds(struct ptb_ctx *ctx, const struct opts *o, const cJSON *fleet,
                         struct build_out *out, cJSON *rendered, struct ptb_err *err)
{
	const cJSON *targets = cJSON_GetObjectItemCaseSensitive(fleet, "targets"), *b;
	int i = 0, rc, worst = 0, nrefused = 0;
	struct ptb_buf refused;

	ptb_buf_init(&refused);

	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(fleet, "builds")) {
		const char *pf = ptb_json_str(cJSON_GetArrayItem(targets, i), "platform");
		struct build_out *bo = &out[i++];
		cJSON *one, *args;
		char *docker;

		/* a directory of OUT, one segment (a saved fleet's is checked so) */
		if (!pf || !valid_rel_path(pf) || strchr(pf, '/')) {
			ptb_err_set(err, PTB_ERECIPE, "fleet build %d has no platform that can name a directory", i - 1);
			ptb_buf_free(&refused);
			return -1;
		}
		bo->dir = ptb_path_join(o->out, pf);
		args = recipe_args(o, b, 1);
		rc = recipe_files(ctx, "files", args, pf, &bo->res, &bo->files, &bo->nfiles, err);
		cJSON_Delete(args);
		if (rc < 0) {
			ptb_buf_free(&refused);
			return rc;
		}
		if (rc > 0) {
			/* reported: the other builds are still judged */
			nrefused++;
			ptb_buf_printf(&refused, "%s'%s'", refused.len ? ", " : "", pf);
			if (rc > worst)
				worst = rc;
			continue;
		}
		if (nrefused)
			continue;          /* nothing will be written: no fleet file either */
		docker = build_dockerfile(ctx, bo->res, err);
		if (!docker) {
			ptb_buf_free(&refused);
			return -1;
		}
		one = cJSON_CreateObject();
		cJSON_AddStringToObject(one, "dir", pf);
		cJSON_AddItemToObject(one, "vars", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(bo->res, "vars"), 1));
		cJSON_AddStringToObject(one, "dockerfile", docker);
		cJSON_AddItemToArray(rendered, one);
		free(docker);
	}
	if (nrefused) {
		/* the summary is a line of its own: the status is the worst
		 * build's (1 for an image check, 2 for a bad value) */
		ptb_error("%d of %d fleet build%s cannot be written (%s, each error above): nothing written",
		          nrefused, i, i == 1 ? "" : "s", refused.data);
		if (worst == PTB_EFOUND)
			ptb_hint("fix each, or write every build anyway with --force (a refused image check then stands as a comment in its Dockerfile)");
		ptb_buf_free(&refused);
		return worst;
	}
	ptb_buf_free(&refused);
	return 0;
}

/* The files at the top of OUT (generate.fleet_files): *res and *top.
 * Takes rendered.  0, -1 with err, or the status of recipe errors. */
static int render_top(struct ptb_ctx *ctx, const struct opts *o, const cJSON *fleet, cJSON *rendered,
                      cJSON **res, struct outfile **top, int *ntop, struct ptb_err *err)
{
	struct ptb_buf text;
	cJSON *args, *opt;
	int rc;

	args = recipe_args(o, cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(fleet, "builds"), 0), 0);
	opt = cJSON_DetachItemFromObjectCaseSensitive(args, "options");
	cJSON_Delete(args);
	args = cJSON_CreateObject();
	cJSON_AddStringToObject(opt, "out", o->out);
	cJSON_AddItemToObject(args, "options", opt);
	cJSON_AddItemToObject(args, "fleet", cJSON_Duplicate(fleet, 1));
	cJSON_AddItemToObject(args, "builds", rendered);
	ptb_buf_init(&text);
	ptb_json_print(fleet, 1, &text);
	cJSON_AddStringToObject(args, "fleet_text", text.data);
	ptb_buf_free(&text);
	rc = recipe_files(ctx, "fleet_files", args, NULL, res, top, ntop, err);
	cJSON_Delete(args);
	return rc;
}

/* A fleet: each build's files in OUT/PLATFORM, rendered as for that
 * build's plan alone; then the bake file, workflow and fleet document at
 * the top.  Everything is rendered before anything is written. */
static int generate_fleet(struct ptb_ctx *ctx, const struct opts *o, const cJSON *fleet)
{
	struct ptb_err err = { 0 };
	const cJSON *targets = cJSON_GetObjectItemCaseSensitive(fleet, "targets");
	int nb = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(fleet, "builds")), i, rc, skipped = 0;
	struct build_out *out = ptb_xcalloc((size_t)nb + 1, sizeof *out);
	struct outfile *top = NULL;
	int ntop = 0;
	cJSON *res = NULL, *rendered = cJSON_CreateArray();

	rc = fleet_problems(fleet, o->force);
	if (rc != 0)
		goto done;
	rc = render_builds(ctx, o, fleet, out, rendered, &err);
	if (rc != 0)
		goto done;
	rc = render_top(ctx, o, fleet, rendered, &res, &top, &ntop, &err);
	rendered = NULL;
	if (rc != 0)
		goto done;
	for (i = 0; i < nb; i++) {
		rc = write_files(out[i].dir, out[i].files, out[i].nfiles, o->dry_run, o->force, &err);
		if (rc < 0)
			goto done;
		skipped |= rc == PTB_EFOUND;
	}
	rc = write_files(o->out, top, ntop, o->dry_run, o->force, &err);
	if (rc < 0)
		goto done;
	skipped |= rc == PTB_EFOUND;
	rc = skipped ? PTB_EFOUND : 0;
	print_build_notes(out, nb, targets);
	print_notes(res, NULL);
done:
	if (rc < 0)
		rc = ptb_report(&err);
	for (i = 0; i < nb; i++) {
		free(out[i].dir);
		cJSON_Delete(out[i].res);
		free_files(out[i].files, out[i].nfiles);
	}
	free(out);
	free_files(top, ntop);
	cJSON_Delete(res);
	cJSON_Delete(rendered);
	return rc;
}

int ptb_cmd_generate(struct ptb_ctx *ctx, int argc, char **argv)
{
	struct opts o = { .p.cmd = "generate", .out = "ptbuild-out" };
	struct ptb_err err = { 0 };
	cJSON *plan = NULL;
	int rc, is_fleet;

	rc = ptb_opt_parse(ctx, &ptb_cmd_generate_def, argc, argv, &o);
	if (rc >= 0)
		return rc;
	o.plan_opts = ptb_cmd_plan_opts_given(&o.p, 1);
	if (optind < argc)
		return ptb_cli_usage("generate", "unexpected argument '%s'", argv[optind]);
	if (!*o.out)
		return ptb_cli_usage("generate", "--out needs a directory (got an empty name; use --out . for this one)");
	if (o.plan && o.plan_opts)
		return ptb_cli_usage("generate", "--plan FILE cannot be combined with plan options (--facts, --profile, --torch, ...)");
	if (make_plan_from_options(ctx, &o, &plan, &is_fleet, &err) != 0)
		return ptb_report(&err);
	rc = is_fleet ? generate_fleet(ctx, &o, plan) : generate_plan(ctx, &o, plan);
	cJSON_Delete(plan);
	return rc;
}
