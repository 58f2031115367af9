/* fatbin.h - the CUDA code embedded in a file: fat binaries (.nv_fatbin in
 * executables and shared libraries, __nv_relfatbin in relocatable objects,
 * ar archives of those, or a bare .fatbin), their SASS and PTX entries.
 * Pure functions over a memory buffer, safe on truncated or hostile input:
 * every offset is checked, counts are capped, decompression is bounded.
 *
 * Layout, as observed with nvcc 13.0 here (little-endian):
 *   container: u32 magic 0xBA55ED50, u16 version 1, u16 header size (16),
 *              u64 size of the entries that follow; containers follow one
 *              another, sometimes with zero padding
 *   entry:     u16 kind (1 PTX, 2 ELF/SASS), u16 ?, u32 header size (64,
 *              80, 96, 112), u64 payload size (padded), u32 stored size
 *              (when compressed), u32 ?, u16 minor, u16 major (PTX ISA, or
 *              the ELF code version), u32 arch (80, 90, 100 ...), u32+u32
 *              name, u64 flags (0x2000 LZ4 block, 0x8000 zstd frame,
 *              0x100000 'a' variant, 0x200000 'f' variant), u64, u64
 *              uncompressed size; then the payload. */
#ifndef PTB_FATBIN_H
#define PTB_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define PTB_FATBIN_MAGIC        0xBA55ED50u
#define PTB_FATBIN_MAX_IMAGES   (1u << 22)
#define PTB_FATBIN_MAX_DECODED  ((uint64_t)256 << 20)   /* per image */

enum ptb_cuda_kind { PTB_CUDA_OTHER = 0, PTB_CUDA_PTX = 1, PTB_CUDA_SASS = 2 };

enum ptb_cuda_comp {
	PTB_COMP_NONE = 0,
	PTB_COMP_LZ4,       /* LZ4 block, no frame (nvcc -compress-mode=speed) */
	PTB_COMP_ZSTD,      /* zstd frame (CUDA 12.x/13 default) */
	PTB_COMP_UNKNOWN,
};

struct ptb_cuda_image {
	int kind;                /* enum ptb_cuda_kind */
	unsigned raw_kind;       /* the entry's kind field */
	unsigned arch;           /* 75, 80, 90, 100 ... */
	char variant;            /* 0, 'a' or 'f' */
	unsigned ver_major, ver_minor;  /* PTX ISA version (PTX) or ELF code version */
	uint64_t flags;
	int compression;         /* enum ptb_cuda_comp */
	uint64_t stored;         /* payload bytes as stored */
	uint64_t size;           /* uncompressed bytes (as the header says) */
	int decoded;             /* 1 decoded and checked, 0 not tried, -1 failed */
	char ptx_version[16];    /* ".version" from the PTX text, when decoded */
	char ptx_target[32];     /* ".target" from the PTX text, when decoded */
	size_t container;        /* index of its fat binary in the scan */
	uint64_t offset;         /* of the entry header in the scanned buffer */
	char where[64];          /* ar member, or "" */
};

struct ptb_cuda_scan {
	struct ptb_cuda_image *images;   /* owned; ptb_cuda_scan_free */
	size_t n, cap;
	size_t ncontainers;
	const char *type;        /* static text: "ELF shared library" ... */
	size_t nmembers;         /* ar archives: members read */
	int decode;              /* in: 0 none, 1 PTX entries, 2 all entries */
	char where[64];          /* in/out: current ar member while scanning */
};

void ptb_cuda_scan_free(struct ptb_cuda_scan *scan);

/* Scan a buffer holding fat binary containers back to back (a section's
 * bytes, or a .fatbin file).  Images are appended to scan; base is added
 * to their offsets.  0, or -1 with err (PTB_EIO) naming the offset. */
int ptb_fatbin_scan(const void *buf, size_t len, uint64_t base,
                    struct ptb_cuda_scan *scan, struct ptb_err *err);

/* Scan a whole file's bytes: an ELF file (its .nv_fatbin and
 * __nv_relfatbin sections), an ar archive of ELF members, or a bare fat
 * binary.  A file with no CUDA code is not an error (scan->n == 0).
 * 0, or -1 with err (PTB_EIO) for a file that is corrupt or not one of
 * these. */
int ptb_cuda_scan_buffer(const void *buf, size_t len,
                         struct ptb_cuda_scan *scan, struct ptb_err *err);

/* Decompress one payload into out (at most max bytes, 0 for the cap).
 * 0, or -1 with err. */
int ptb_fatbin_decompress(int compression, const void *in, size_t inlen,
                          size_t expect, struct ptb_buf *out,
                          struct ptb_err *err);
/* The same for the first head bytes only (out->len is the smaller of head
 * and expect): the rest of the input is not decoded, so not checked. */
int ptb_fatbin_decompress_head(int compression, const void *in, size_t inlen,
                               size_t expect, size_t head, struct ptb_buf *out,
                               struct ptb_err *err);

/* "sm_90a" / "compute_120f" for an image (buf of at least 24 bytes). */
const char *ptb_cuda_image_name(const struct ptb_cuda_image *img, char *buf,
                                size_t cap);

/* How a GPU of capability cc (10*major + minor, 89 for 8.9) runs this
 * code: 2 with SASS built for it, 1 by JIT-compiling PTX, 0 not at all.
 * *best is the image it would use (the highest that fits), or NULL. */
int ptb_cuda_runs_on(const struct ptb_cuda_image *imgs, size_t n, int cc,
                     const struct ptb_cuda_image **best);

#endif
