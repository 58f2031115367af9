/* fatbin.c - walk CUDA fat binaries: containers, entries, and (optionally)
 * their payloads, decompressed with a bound.  See fatbin.h for the layout. */
#include "binfmt/fatbin.h"

#include <archive.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binfmt/elf.h"
#include "util/archive_dl.h"

#define ENTRY_MIN 64u

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t rd16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint64_t rd64(const unsigned char *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

void ptb_cuda_scan_free(struct ptb_cuda_scan *scan)
{
	free(scan->images);
	scan->images = NULL;
	scan->n = scan->cap = 0;
}

const char *ptb_cuda_image_name(const struct ptb_cuda_image *img, char *buf,
                                size_t cap)
{
	const char *pre = img->kind == PTB_CUDA_PTX ? "compute_" :
	                  img->kind == PTB_CUDA_SASS ? "sm_" : "kind?_";
	char v[2] = { img->variant, 0 };

	snprintf(buf, cap, "%s%u%s", pre, img->arch, v);
	return buf;
}

/* Read LZ4's extra length bytes (255 each, until a smaller one) into
 * *n, stopping once *n reaches `limit`.  0, or -1 when the input ends
 * first. */
static int lz4_length(const unsigned char **ip, const unsigned char *iend, size_t *n, size_t limit)
{
	unsigned b;

	do {
		if (*ip >= iend)
			return -1;
		b = *(*ip)++;
		*n += b;
	} while (b == 255 && *n < limit);
	return 0;
}

/* Make `out` room for the first *stop (at most expect) bytes of a block
 * of `inlen` bytes that claims to expand to `expect`.  0, or -1 with err
 * set when no LZ4 block of that size expands so far. */
static int lz4_room(size_t inlen, size_t expect, size_t *stop, struct ptb_buf *out, struct ptb_err *err)
{
	/* LZ4 expands at most ~255x: a bigger claim is a lie; refuse it
	 * before allocating. */
	if (expect / 255 > inlen + 16) {
		ptb_err_set(err, PTB_EIO, "LZ4 data of %zu bytes cannot expand to %zu", inlen, expect);
		return -1;
	}
	if (*stop > expect)
		*stop = expect;
	ptb_buf_reset(out);
	ptb_buf_add(out, "", 0);
	out->data = ptb_xrealloc(out->data, *stop + 1);
	out->cap = *stop + 1;
	return 0;
}

/* An LZ4 block (no frame) into exactly `expect` bytes; with stop <
 * expect, only the first stop bytes (what comes after is not read).
 * 0, or -1 with err set.  The sequence loop is kept whole: each step
 * (literals, offset, match) checks bounds the next relies on. */
static int lz4_block(const unsigned char *ip, size_t inlen, size_t expect,
                     size_t stop, struct ptb_buf *out, struct ptb_err *err)
{
	const unsigned char *iend = ip + inlen;
	unsigned char *op, *ostart, *oend, *ostop;

	if (lz4_room(inlen, expect, &stop, out, err) != 0)
		return -1;
	ostart = op = (unsigned char *)out->data;
	oend = ostart + expect;  /* never written past ostop: for the checks */
	ostop = ostart + stop;
	while (ip < iend && op < ostop) {
		unsigned token = *ip++;
		size_t lit = token >> 4, mlen, off;

		if (lit == 15 && lz4_length(&ip, iend, &lit, expect + 255) != 0)
			goto bad;
		if (lit > (size_t)(iend - ip) || lit > (size_t)(oend - op))
			goto bad;
		if (lit >= (size_t)(ostop - op)) {
			memcpy(op, ip, (size_t)(ostop - op));
			op = ostop;
			break;
		}
		memcpy(op, ip, lit);
		op += lit;
		ip += lit;
		if (ip == iend)
			break;  /* the last sequence has literals only */
		if (iend - ip < 2)
			goto bad;
		off = (size_t)ip[0] | (size_t)ip[1] << 8;
		ip += 2;
		if (off == 0 || off > (size_t)(op - ostart))
			goto bad;
		mlen = token & 15;
		if (mlen == 15 && lz4_length(&ip, iend, &mlen, expect + 255) != 0)
			goto bad;
		mlen += 4;
		if (mlen > (size_t)(oend - op))
			goto bad;
		if (mlen > (size_t)(ostop - op))
			mlen = (size_t)(ostop - op);
		for (size_t k = 0; k < mlen; k++, op++)
			*op = *(op - off);
	}
	if (op != ostop)
		goto bad;
	out->len = stop;
	out->data[stop] = '\0';
	return 0;
bad:
	ptb_err_set(err, PTB_EIO, "corrupt LZ4 data");
	ptb_buf_reset(out);
	return -1;
}

/* A zstd frame through libarchive's raw format (libarchive links libzstd). */
static int zstd_frame(const void *in, size_t inlen, size_t max, size_t stop,
                      struct ptb_buf *out, struct ptb_err *err)
{
	struct archive *a;
	struct archive_entry *ae;
	char chunk[65536];
	la_ssize_t got = 0;
	int rc = -1;

	ptb_buf_reset(out);
	if (ptb_archive_load() != 0) {
		ptb_err_set(err, PTB_EIO, "zstd-compressed images need libarchive, which cannot be loaded: %s",
		            ptb_archive_error());
		return -1;
	}
	a = archive_read_new();
	if (!a)
		ptb_oom();
	if (archive_read_support_filter_zstd(a) != ARCHIVE_OK) {
		ptb_err_set(err, PTB_EIO, "this libarchive cannot decode zstd");
		goto done;
	}
	archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, in, inlen) != ARCHIVE_OK ||
	    archive_read_next_header(a, &ae) != ARCHIVE_OK) {
		ptb_err_set(err, PTB_EIO, "corrupt zstd data: %s",
		            archive_error_string(a) ? archive_error_string(a) : "unknown");
		goto done;
	}
	while (out->len < stop && (got = archive_read_data(a, chunk, sizeof chunk)) > 0) {
		if ((size_t)got > max - out->len) {
			ptb_err_set(err, PTB_EIO, "zstd data decompresses past %zu bytes", max);
			goto done;
		}
		ptb_buf_add(out, chunk, (size_t)got);
	}
	if (out->len >= stop) {
		out->len = stop;
		out->data[stop] = '\0';
		rc = 0;
		goto done;
	}
	if (got < 0) {
		ptb_err_set(err, PTB_EIO, "corrupt zstd data: %s",
		            archive_error_string(a) ? archive_error_string(a) : "unknown");
		goto done;
	}
	rc = 0;
done:
	archive_read_free(a);
	if (rc != 0)
		ptb_buf_reset(out);
	return rc;
}

int ptb_fatbin_decompress(int compression, const void *in, size_t inlen,
                          size_t expect, struct ptb_buf *out,
                          struct ptb_err *err)
{
	return ptb_fatbin_decompress_head(compression, in, inlen, expect, SIZE_MAX,
	                                  out, err);
}

int ptb_fatbin_decompress_head(int compression, const void *in, size_t inlen,
                               size_t expect, size_t head, struct ptb_buf *out,
                               struct ptb_err *err)
{
	if (expect > PTB_FATBIN_MAX_DECODED) {
		ptb_err_set(err, PTB_EIO, "entry claims %zu uncompressed bytes (more than the %llu allowed)",
		            expect, (unsigned long long)PTB_FATBIN_MAX_DECODED);
		return -1;
	}
	switch (compression) {
	case PTB_COMP_NONE:
		ptb_buf_reset(out);
		ptb_buf_add(out, in, inlen < head ? inlen : head);
		return 0;
	case PTB_COMP_LZ4:
		return lz4_block(in, inlen, expect, head, out, err);
	case PTB_COMP_ZSTD:
		if (zstd_frame(in, inlen, expect ? expect : PTB_FATBIN_MAX_DECODED, head, out, err) != 0)
			return -1;
		if (expect && out->len != expect && out->len != head) {
			ptb_err_set(err, PTB_EIO, "zstd data gave %zu bytes, the header says %zu",
			            out->len, expect);
			return -1;
		}
		return 0;
	}
	ptb_err_set(err, PTB_EIO, "unknown compression");
	return -1;
}

/* The first ".version X.Y" and ".target T" of a PTX text. */
static void ptx_directives(const char *s, size_t len, struct ptb_cuda_image *img)
{
	size_t i = 0;

	while (i < len && !(img->ptx_version[0] && img->ptx_target[0])) {
		size_t j = i, k;

		while (j < len && (s[j] == ' ' || s[j] == '\t'))
			j++;
		if (j + 9 < len && memcmp(s + j, ".version", 8) == 0 &&
		    (s[j + 8] == ' ' || s[j + 8] == '\t')) {
			j += 9;
			for (k = 0; j < len && k < sizeof img->ptx_version - 1 &&
			            ((s[j] >= '0' && s[j] <= '9') || s[j] == '.'); j++)
				img->ptx_version[k++] = s[j];
			img->ptx_version[k] = '\0';
		} else if (j + 8 < len && memcmp(s + j, ".target", 7) == 0 &&
		           (s[j + 7] == ' ' || s[j + 7] == '\t')) {
			j += 8;
			for (k = 0; j < len && k < sizeof img->ptx_target - 1 &&
			            (s[j] == '_' || (s[j] >= '0' && s[j] <= '9') ||
			             (s[j] >= 'a' && s[j] <= 'z')); j++)
				img->ptx_target[k++] = s[j];
			img->ptx_target[k] = '\0';
		}
		while (i < len && s[i] != '\n')
			i++;
		i++;
	}
}

/* How much of a PTX text is decoded first for its .version and .target */
#define PTX_HEAD 4096

/* all: decode the whole image (--decode checks every byte decodes) */
static void decode(const unsigned char *payload, size_t stored,
                   struct ptb_cuda_image *img, int all)
{
	struct ptb_buf out;
	struct ptb_err err = { 0 };

	if (img->compression == PTB_COMP_UNKNOWN)
		return;
	ptb_buf_init(&out);
	/* PTX: .version and .target open the text (after NVVM's comment
	 * lines); its head is enough, the whole only when they are not there */
	if (img->kind == PTB_CUDA_PTX && !all &&
	    ptb_fatbin_decompress_head(img->compression, payload, stored,
	                               img->compression ? (size_t)img->size : 0,
	                               PTX_HEAD, &out, &err) == 0) {
		ptx_directives(out.data ? out.data : "", out.len, img);
		if (img->ptx_version[0] && img->ptx_target[0]) {
			img->decoded = 1;
			ptb_buf_free(&out);
			return;
		}
		img->ptx_version[0] = img->ptx_target[0] = '\0';
	}
	if (ptb_fatbin_decompress(img->compression, payload, stored,
	                          img->compression ? (size_t)img->size : 0,
	                          &out, &err) != 0) {
		img->decoded = -1;
	} else if (img->kind == PTB_CUDA_PTX) {
		ptx_directives(out.data ? out.data : "", out.len, img);
		img->decoded = img->ptx_version[0] ? 1 : -1;
	} else if (img->kind == PTB_CUDA_SASS) {
		struct ptb_elf_info info;

		/* A cubin: an ELF for EM_CUDA (190). */
		img->decoded = ptb_elf_header(out.data, out.len, &info, &err) == 0 &&
		               info.machine == 190 ? 1 : -1;
	}
	ptb_buf_free(&out);
}

static int add_image(struct ptb_cuda_scan *scan, const struct ptb_cuda_image *img,
                     struct ptb_err *err)
{
	if (scan->n >= PTB_FATBIN_MAX_IMAGES) {
		ptb_err_set(err, PTB_EIO, "more than %u CUDA images", PTB_FATBIN_MAX_IMAGES);
		return -1;
	}
	if (scan->n == scan->cap) {
		scan->cap = scan->cap ? scan->cap * 2 : 16;
		scan->images = ptb_xrealloc(scan->images, scan->cap * sizeof *scan->images);
	}
	scan->images[scan->n++] = *img;
	return 0;
}

static int scan_entries(const unsigned char *p, size_t len, uint64_t base,
                        struct ptb_cuda_scan *scan, struct ptb_err *err)
{
	size_t pos = 0;

	while (pos < len) {
		const unsigned char *e = p + pos;
		struct ptb_cuda_image img;
		uint64_t hsize, psize, stored;

		if (len - pos < ENTRY_MIN) {
			ptb_err_set(err, PTB_EIO, "truncated fat binary entry at offset %llu",
			            (unsigned long long)(base + pos));
			return -1;
		}
		hsize = rd32(e + 4);
		psize = rd64(e + 8);
		if (hsize < ENTRY_MIN || hsize > len - pos || psize > len - pos - hsize) {
			ptb_err_set(err, PTB_EIO, "corrupt fat binary entry at offset %llu (header %llu and payload %llu bytes, %llu left)",
			            (unsigned long long)(base + pos), (unsigned long long)hsize,
			            (unsigned long long)psize, (unsigned long long)(len - pos));
			return -1;
		}
		memset(&img, 0, sizeof img);
		img.raw_kind = rd16(e);
		img.kind = img.raw_kind == 1 ? PTB_CUDA_PTX :
		           img.raw_kind == 2 ? PTB_CUDA_SASS : PTB_CUDA_OTHER;
		img.ver_minor = rd16(e + 24);
		img.ver_major = rd16(e + 26);
		img.arch = rd32(e + 28);
		img.flags = rd64(e + 40);
		img.variant = (img.flags & 0x100000) ? 'a' :
		              (img.flags & 0x200000) ? 'f' : 0;
		stored = rd32(e + 16);
		if (stored == 0 || stored > psize)
			stored = psize;
		img.stored = stored;
		img.size = rd64(e + 56);
		if (img.flags & 0x8000)
			img.compression = PTB_COMP_ZSTD;
		else if (img.flags & 0x2000)
			img.compression = PTB_COMP_LZ4;
		if (img.compression == PTB_COMP_NONE || img.size == 0)
			img.size = stored;
		img.container = scan->ncontainers - 1;
		img.offset = base + pos;
		memcpy(img.where, scan->where, sizeof img.where);
		if (scan->decode >= 2 || (scan->decode == 1 && img.kind == PTB_CUDA_PTX))
			decode(e + hsize, stored, &img, scan->decode >= 2);
		if (add_image(scan, &img, err) != 0)
			return -1;
		pos += hsize + psize;
	}
	return 0;
}

int ptb_fatbin_scan(const void *buf, size_t len, uint64_t base,
                    struct ptb_cuda_scan *scan, struct ptb_err *err)
{
	const unsigned char *p = buf;
	size_t pos = 0;

	for (;;) {
		uint64_t hsize, size;

		/* Containers may be separated by zero padding. */
		while (pos < len && p[pos] == 0)
			pos++;
		if (pos >= len)
			return 0;
		if (len - pos < 16 || rd32(p + pos) != PTB_FATBIN_MAGIC) {
			ptb_err_set(err, PTB_EIO, "no fat binary header at offset %llu (expected magic 0x%08x)",
			            (unsigned long long)(base + pos), PTB_FATBIN_MAGIC);
			return -1;
		}
		hsize = rd16(p + pos + 6);
		size = rd64(p + pos + 8);
		if (hsize < 16 || hsize > len - pos || size > len - pos - hsize) {
			ptb_err_set(err, PTB_EIO, "fat binary at offset %llu claims %llu bytes, only %llu are there: truncated?",
			            (unsigned long long)(base + pos),
			            (unsigned long long)(hsize + size),
			            (unsigned long long)(len - pos));
			return -1;
		}
		if (scan->ncontainers >= PTB_FATBIN_MAX_IMAGES) {
			ptb_err_set(err, PTB_EIO, "more than %u fat binaries", PTB_FATBIN_MAX_IMAGES);
			return -1;
		}
		scan->ncontainers++;
		if (scan_entries(p + pos + hsize, size, base + pos + hsize, scan, err) != 0)
			return -1;
		pos += hsize + size;
	}
}

static int scan_elf(const unsigned char *p, size_t len, uint64_t base,
                    struct ptb_cuda_scan *scan, int *has_interp,
                    struct ptb_err *err)
{
	struct ptb_elf_section *secs;
	size_t n;
	int rc = 0;

	if (ptb_elf_sections(p, len, &secs, &n, err) != 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (has_interp && strcmp(secs[i].name, ".interp") == 0)
			*has_interp = 1;
		if (secs[i].size == 0 ||
		    (strcmp(secs[i].name, ".nv_fatbin") != 0 &&
		     strcmp(secs[i].name, "__nv_relfatbin") != 0))
			continue;
		rc = ptb_fatbin_scan(p + secs[i].offset, secs[i].size,
		                     base + secs[i].offset, scan, err);
	}
	free(secs);
	return rc;
}

int ptb_cuda_scan_buffer(const void *buf, size_t len,
                         struct ptb_cuda_scan *scan, struct ptb_err *err)
{
	const unsigned char *p = buf;

	if (ptb_elf_is_elf(buf, len)) {
		struct ptb_elf_info info;
		int interp = 0, rc;

		if (ptb_elf_header(buf, len, &info, err) != 0)
			return -1;
		rc = scan_elf(p, len, 0, scan, &interp, err);
		/* A PIE executable is ET_DYN with a program interpreter. */
		scan->type = info.type == 1 ? "ELF relocatable object" :
		             info.type == 2 || (info.type == 3 && interp) ? "ELF executable" :
		             info.type == 3 ? "ELF shared library" : "ELF file";
		return rc;
	}
	if (ptb_elf_is_ar(buf, len)) {
		struct ptb_ar_member *m;
		size_t n;
		int rc = 0;

		scan->type = "ar archive";
		if (ptb_ar_members(buf, len, &m, &n, err) != 0)
			return -1;
		for (size_t i = 0; i < n && rc == 0; i++) {
			const unsigned char *mp = p + m[i].offset;

			if (!ptb_elf_is_elf(mp, m[i].size))
				continue;  /* not an object file */
			scan->nmembers++;
			memcpy(scan->where, m[i].name, sizeof scan->where);
			rc = scan_elf(mp, m[i].size, m[i].offset, scan, NULL, err);
			if (rc != 0) {
				char msg[sizeof err->msg];

				snprintf(msg, sizeof msg, "%s", err->msg);
				ptb_err_set(err, PTB_EIO, "member '%s': %s", m[i].name, msg);
			}
		}
		scan->where[0] = '\0';
		free(m);
		return rc;
	}
	if (len >= 4 && rd32(p) == PTB_FATBIN_MAGIC) {
		scan->type = "fat binary";
		return ptb_fatbin_scan(buf, len, 0, scan, err);
	}
	ptb_err_set(err, PTB_EIO, "not an ELF file, ar archive or fat binary");
	return -1;
}

/* Whether an image can run on a GPU of capability cc (10*major+minor):
 * SASS runs on the same major with an equal or higher minor ('a' only on
 * its exact capability); PTX is JIT-compiled for any equal or higher
 * capability ('a' exact, 'f' the same major).  From the CUDA C
 * Programming Guide, "Binary Compatibility" and "PTX Compatibility". */
static int image_runs_on(const struct ptb_cuda_image *img, int cc)
{
	int a = (int)img->arch;

	if (img->variant == 'a')
		return a == cc;
	if (img->kind == PTB_CUDA_SASS || img->variant == 'f')
		return a / 10 == cc / 10 && a % 10 <= cc % 10;
	if (img->kind == PTB_CUDA_PTX)
		return a <= cc;
	return 0;
}

/* The best way a GPU runs this code: 2 SASS, 1 JIT from PTX, 0 not at
 * all; *best names the image used (highest arch that fits). */
int ptb_cuda_runs_on(const struct ptb_cuda_image *imgs, size_t n, int cc,
                        const struct ptb_cuda_image **best)
{
	int how = 0;

	*best = NULL;
	for (size_t i = 0; i < n; i++) {
		int h = imgs[i].kind == PTB_CUDA_SASS ? 2 : 1;

		if (imgs[i].kind == PTB_CUDA_OTHER || !image_runs_on(&imgs[i], cc))
			continue;
		if (h > how || (h == how && imgs[i].arch > (*best)->arch)) {
			how = h;
			*best = &imgs[i];
		}
	}
	return how;
}
