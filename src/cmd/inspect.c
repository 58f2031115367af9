/* inspect.c - `ptbuild inspect FILE...`: the SASS and PTX inside ELF files,
 * read without cuobjdump (pip-wheel toolkits do not ship it). */
#include "cmd/cmds.h"
#include "cmd/common.h"
#include "util/archive_dl.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binfmt/fatbin.h"
#include "util/json.h"

struct opts {
	int json, images, decode;
	int gpu;            /* capability as 10*major + minor, or -1 */
	const char *gpu_arg;
};

static int parse_cc(const char *s)
{
	char *end;
	long maj, min;

	errno = 0;
	maj = strtol(s, &end, 10);
	if (end == s || *end != '.' || maj < 1 || maj > 99)
		return -1;
	s = end + 1;
	min = strtol(s, &end, 10);
	if (end == s || *end || min < 0 || min > 9)
		return -1;
	return (int)(maj * 10 + min);
}

static int set_gpu(const struct ptb_opt_arg *a)
{
	struct opts *o = a->base;

	o->gpu = parse_cc(a->arg);
	o->gpu_arg = a->arg;
	if (o->gpu < 0)
		return ptb_cli_usage("inspect", "bad --gpu value '%s' (expected a compute capability like 8.9)", a->arg), -1;
	return 0;
}

static const struct ptb_opt options[] = {
	{ .name = "gpu", .arg = "CC", .set = set_gpu,
	  .help = "say whether the code runs on a GPU of compute capability CC (8.9, "
	          "9.0, 12.0): with SASS built for it, by JIT from PTX, or not at all "
	          "(then exit 1)" },
	{ .name = "images", .off = offsetof(struct opts, images),
	  .help = "list every image, not only the summary" },
	{ .name = "decode", .off = offsetof(struct opts, decode),
	  .help = "also decompress every SASS image and check it is a CUDA ELF (PTX "
	          "is always decoded, for its .version)" },
	{ .name = "json", .off = offsetof(struct opts, json),
	  .help = "the ptbuild.inspect/1 document" },
	{ 0 },
};

const struct ptb_cmd ptb_cmd_inspect_def = {
	.name = "inspect", .run = ptb_cmd_inspect,
	.summary = "list the CUDA code (SASS and PTX) inside executables and libraries",
	.usage = "ptbuild inspect FILE... [--gpu CC] [--images] [--decode] [--json]",
	.intro =
	"Reads ELF executables, shared libraries, object files, static libraries\n"
	"(ar) and bare .fatbin files, and lists each embedded fat binary's SASS\n"
	"architectures and PTX versions, compressed (zstd, LZ4) or not.\n",
	.options = options,
	.epilog =
	"Exit status: 0, 1 when --gpu CC cannot run the code, 4 when a file is\n"
	"unreadable or corrupt (named in the message).\n"
	"\n"
	"Example:\n"
	"  ptbuild inspect --gpu 8.9 \"$(python -c 'import torch, os; print(os.path.dirname(torch.__file__))')/lib/libtorch_cuda.so\"\n",
	.operand = "FILE",
};

struct group {
	int kind;
	unsigned arch;
	char variant;
	char version[16];
	size_t count;
};

static int group_cmp(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? 1 : -1;  /* SASS first */
	if (x->arch != y->arch)
		return x->arch < y->arch ? -1 : 1;
	if (x->variant != y->variant)
		return x->variant < y->variant ? -1 : 1;
	return strcmp(x->version, y->version);
}

static void image_version(const struct ptb_cuda_image *img, char *buf, size_t cap)
{
	if (img->ptx_version[0])
		snprintf(buf, cap, "%s", img->ptx_version);
	else
		snprintf(buf, cap, "%u.%u", img->ver_major, img->ver_minor);
}

/* Distinct (kind, arch, variant[, PTX version]) with counts; sorted. */
static struct group *group_images(const struct ptb_cuda_scan *s, size_t *ng)
{
	struct group *g = ptb_xcalloc(s->n ? s->n : 1, sizeof *g);
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct ptb_cuda_image *img = &s->images[i];
		struct group key = { img->kind, img->arch, img->variant, "", 1 };
		size_t j;

		if (img->kind == PTB_CUDA_PTX)
			image_version(img, key.version, sizeof key.version);
		for (j = 0; j < n; j++)
			if (group_cmp(&g[j], &key) == 0)
				break;
		if (j < n)
			g[j].count++;
		else
			g[n++] = key;
	}
	qsort(g, n, sizeof *g, group_cmp);
	*ng = n;
	return g;
}

static const char *comp_name(int c)
{
	switch (c) {
	case PTB_COMP_NONE: return "none";
	case PTB_COMP_LZ4: return "lz4";
	case PTB_COMP_ZSTD: return "zstd";
	}
	return "unknown";
}

static const char *kind_name(int k)
{
	return k == PTB_CUDA_SASS ? "SASS" : k == PTB_CUDA_PTX ? "PTX" : "other";
}

static const char *how_text(int how)
{
	return how == 2 ? "sass" : how == 1 ? "ptx" : "no";
}

static cJSON *image_json(const struct ptb_cuda_image *img)
{
	cJSON *j = cJSON_CreateObject();
	char name[32], ver[16];

	cJSON_AddStringToObject(j, "kind", kind_name(img->kind));
	cJSON_AddStringToObject(j, "arch", ptb_cuda_image_name(img, name, sizeof name));
	image_version(img, ver, sizeof ver);
	cJSON_AddStringToObject(j, img->kind == PTB_CUDA_PTX ? "isa" : "code_version", ver);
	if (img->ptx_target[0])
		cJSON_AddStringToObject(j, "target", img->ptx_target);
	cJSON_AddStringToObject(j, "compression", comp_name(img->compression));
	cJSON_AddNumberToObject(j, "stored_bytes", (double)img->stored);
	cJSON_AddNumberToObject(j, "bytes", (double)img->size);
	cJSON_AddStringToObject(j, "decoded", img->decoded > 0 ? "ok" :
	                        img->decoded < 0 ? "failed" : "not tried");
	cJSON_AddNumberToObject(j, "fat_binary", (double)img->container);
	cJSON_AddNumberToObject(j, "offset", (double)img->offset);
	if (img->where[0])
		cJSON_AddStringToObject(j, "member", img->where);
	return j;
}

/* Fat binaries with no image a GPU of capability cc can run.  Images are
 * in container order, so one pass over runs of the same container. */
static size_t fat_binaries_lacking(const struct ptb_cuda_scan *s, int cc)
{
	size_t lacking = 0, i = 0, seen = 0;

	while (i < s->n) {
		size_t j = i;
		const struct ptb_cuda_image *best;

		while (j < s->n && s->images[j].container == s->images[i].container)
			j++;
		lacking += ptb_cuda_runs_on(s->images + i, j - i, cc, &best) == 0;
		seen++;
		i = j;
	}
	/* Containers with no images at all hold no code for anyone. */
	return lacking + (s->ncontainers > seen ? s->ncontainers - seen : 0);
}

/* What one report says about a file, worked out once for both forms. */
struct file_facts {
	size_t ng, comp[4], bad;          /* groups; images per compression; undecodable */
	struct group *g;                  /* owned */
	const struct ptb_cuda_image *best;
	int how;                          /* ptb_cuda_runs_on for --gpu, -1 without */
	size_t lacking;                   /* fat binaries with no code for --gpu */
};

/* The file's report as a JSON object (its groups, compression counts,
 * the --gpu verdict and, with --images, every image). */
static cJSON *file_json(const char *path, const struct ptb_cuda_scan *s,
                        const struct opts *o, const struct file_facts *ff)
{
	cJSON *f = cJSON_CreateObject(), *sass = cJSON_CreateArray(),
	      *ptx = cJSON_CreateArray(), *c = cJSON_CreateObject();
	char name[32];

	cJSON_AddStringToObject(f, "path", path);
	cJSON_AddStringToObject(f, "type", s->type ? s->type : "unknown");
	cJSON_AddNumberToObject(f, "fat_binaries", (double)s->ncontainers);
	cJSON_AddNumberToObject(f, "images", (double)s->n);
	for (size_t i = 0; i < ff->ng; i++) {
		const struct group *g = &ff->g[i];
		struct ptb_cuda_image im = { .kind = g->kind, .arch = g->arch, .variant = g->variant };
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "arch", ptb_cuda_image_name(&im, name, sizeof name));
		if (g->kind == PTB_CUDA_PTX)
			cJSON_AddStringToObject(e, "isa", g->version);
		cJSON_AddNumberToObject(e, "count", (double)g->count);
		cJSON_AddItemToArray(g->kind == PTB_CUDA_PTX ? ptx : sass, e);
	}
	cJSON_AddItemToObject(f, "sass", sass);
	cJSON_AddItemToObject(f, "ptx", ptx);
	for (int k = 0; k < 4; k++)
		cJSON_AddNumberToObject(c, comp_name(k), (double)ff->comp[k]);
	cJSON_AddItemToObject(f, "compression", c);
	cJSON_AddNumberToObject(f, "decode_failures", (double)ff->bad);
	if (ff->how >= 0) {
		cJSON *gj = cJSON_CreateObject();

		cJSON_AddStringToObject(gj, "compute_capability", o->gpu_arg);
		cJSON_AddStringToObject(gj, "runs", how_text(ff->how));
		cJSON_AddNumberToObject(gj, "fat_binaries_without_code", (double)ff->lacking);
		if (ff->best)
			cJSON_AddStringToObject(gj, "using", ptb_cuda_image_name(ff->best, name, sizeof name));
		else
			cJSON_AddNullToObject(gj, "using");
		cJSON_AddItemToObject(f, "gpu", gj);
	}
	if (o->images) {
		cJSON *l = cJSON_CreateArray();

		for (size_t i = 0; i < s->n; i++)
			cJSON_AddItemToArray(l, image_json(&s->images[i]));
		cJSON_AddItemToObject(f, "image_list", l);
	}
	return f;
}

/* Print the SASS line, then the PTX line, of the file's groups. */
static void print_groups(const struct file_facts *ff)
{
	char name[32];

	for (int k = PTB_CUDA_SASS; k >= PTB_CUDA_PTX; k--) {
		int any = 0;

		for (size_t i = 0; i < ff->ng; i++) {
			const struct group *g = &ff->g[i];
			struct ptb_cuda_image im = { .kind = g->kind, .arch = g->arch, .variant = g->variant };

			if (g->kind != k)
				continue;
			printf("%s", any ? "  " : k == PTB_CUDA_SASS ? "  SASS  " : "  PTX   ");
			printf("%s", ptb_cuda_image_name(&im, name, sizeof name));
			if (k == PTB_CUDA_PTX)
				printf(" (ISA %s)", g->version);
			if (g->count > 1)
				printf(" x%zu", g->count);
			any = 1;
		}
		if (any)
			putchar('\n');
	}
}

/* Print how the images are stored, what failed to decode, and the --gpu
 * verdict. */
static void print_verdict(const struct ptb_cuda_scan *s, const struct opts *o,
                          const struct file_facts *ff)
{
	char name[32];

	if (s->n)
		printf("  stored: %zu zstd, %zu LZ4, %zu uncompressed\n",
		       ff->comp[PTB_COMP_ZSTD], ff->comp[PTB_COMP_LZ4], ff->comp[PTB_COMP_NONE]);
	else
		printf("  no CUDA code\n");
	if (ff->bad)
		printf("  %zu image%s could not be decoded (see --images)\n", ff->bad, ff->bad == 1 ? "" : "s");
	if (ff->bad && ff->comp[PTB_COMP_ZSTD] && ptb_archive_load() != 0)
		printf("  zstd images need libarchive, which cannot be loaded: %s\n", ptb_archive_error());
	if (ff->how == 2)
		printf("  GPU %s: runs %s SASS\n", o->gpu_arg, ptb_cuda_image_name(ff->best, name, sizeof name));
	else if (ff->how == 1)
		printf("  GPU %s: no SASS for it; the driver JIT-compiles %s PTX (slow first start)\n",
		       o->gpu_arg, ptb_cuda_image_name(ff->best, name, sizeof name));
	if (ff->lacking)
		printf("  ... but %zu of %zu fat binaries have no code for it (normal in libraries\n"
		       "      that ship per-architecture kernels, like cuBLAS; in a PyTorch build\n"
		       "      it means kernels that fail on this GPU)\n",
		       ff->lacking, s->ncontainers);
	if (ff->how == 0)
		printf("  GPU %s: no kernel image for it: \"no kernel image is available for execution on the device\"\n",
		       o->gpu_arg);
}

/* Print one line per image (--images), with the member it came from. */
static void print_image_list(const struct ptb_cuda_scan *s)
{
	char name[32];

	for (size_t i = 0; i < s->n; i++) {
		const struct ptb_cuda_image *img = &s->images[i];
		char ver[16];

		image_version(img, ver, sizeof ver);
		printf("    #%-4zu %-14s %-4s %-5s %-6s %9llu bytes%s%s%s\n", img->container,
		       ptb_cuda_image_name(img, name, sizeof name), kind_name(img->kind),
		       ver, comp_name(img->compression), (unsigned long long)img->size,
		       img->decoded < 0 ? "  (decode failed)" : "",
		       img->ptx_target[0] ? "  .target " : "", img->ptx_target);
		if (img->where[0])
			printf("          in %s\n", img->where);
	}
}

/* Report one scanned file: added to `files` (JSON) or printed.  Returns
 * the --gpu verdict (ptb_cuda_runs_on), -1 without --gpu. */
static int report_file(const char *path, const struct ptb_cuda_scan *s,
                       const struct opts *o, cJSON *files)
{
	struct file_facts ff = { 0 };

	ff.g = group_images(s, &ff.ng);
	ff.how = o->gpu >= 0 ? ptb_cuda_runs_on(s->images, s->n, o->gpu, &ff.best) : -1;
	ff.lacking = ff.how > 0 ? fat_binaries_lacking(s, o->gpu) : 0;
	for (size_t i = 0; i < s->n; i++) {
		ff.comp[s->images[i].compression & 3]++;
		ff.bad += s->images[i].decoded < 0;
	}
	if (files) {
		cJSON_AddItemToArray(files, file_json(path, s, o, &ff));
	} else {
		printf("%s: %s, %zu fat binar%s, %zu image%s\n", path, s->type ? s->type : "?",
		       s->ncontainers, s->ncontainers == 1 ? "y" : "ies", s->n, s->n == 1 ? "" : "s");
		print_groups(&ff);
		print_verdict(s, o, &ff);
		if (o->images)
			print_image_list(s);
	}
	free(ff.g);
	return ff.how;
}

/* Map (or, for an empty file, nothing) the file read-only. */
static int scan_path(const char *path, struct ptb_cuda_scan *s, struct ptb_err *err)
{
	struct stat st;
	void *map;
	int fd, rc;

	fd = ptb_file_open_read(path, 0, &st, err);
	if (fd < 0)
		return -1;
	if (st.st_size == 0) {
		close(fd);
		ptb_err_set(err, PTB_EIO, "'%s' is empty", path);
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		ptb_err_set(err, PTB_EIO, "cannot map '%s': %s", path, strerror(errno));
		return -1;
	}
	rc = ptb_cuda_scan_buffer(map, (size_t)st.st_size, s, err);
	munmap(map, (size_t)st.st_size);
	if (rc != 0) {
		char msg[sizeof err->msg];

		snprintf(msg, sizeof msg, "%s", err->msg);
		ptb_err_set(err, PTB_EIO, "'%s': %s", path, msg);
	}
	return rc;
}

int ptb_cmd_inspect(struct ptb_ctx *ctx, int argc, char **argv)
{
	struct opts o = { .gpu = -1 };
	cJSON *doc = NULL, *files = NULL;
	int rc, status = 0, cannot_run = 0;

	rc = ptb_opt_parse(ctx, &ptb_cmd_inspect_def, argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (optind >= argc)
		return ptb_cli_usage("inspect", "no file given");
	if (o.json) {
		doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "schema", "ptbuild.inspect/1");
		files = cJSON_AddArrayToObject(doc, "files");
	}
	for (int i = optind; i < argc; i++) {
		struct ptb_cuda_scan s = { .decode = o.decode ? 2 : 1 };
		struct ptb_err err = { 0 };

		if (scan_path(argv[i], &s, &err) != 0) {
			ptb_report(&err);
			if (files) {
				cJSON *f = cJSON_CreateObject();

				cJSON_AddStringToObject(f, "path", argv[i]);
				cJSON_AddStringToObject(f, "error", err.msg);
				cJSON_AddItemToArray(files, f);
			}
			status = PTB_EIO;
		} else if (report_file(argv[i], &s, &o, files) == 0) {
			cannot_run = 1;
		}
		ptb_cuda_scan_free(&s);
	}
	if (doc) {
		ptb_cmd_print_json(doc);
		cJSON_Delete(doc);
	}
	if (status == 0 && cannot_run)
		status = PTB_EFOUND;
	return status;
}
