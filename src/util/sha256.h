/* sha256.h - SHA-256 (FIPS 180-4), streamed: init, update any number of
 * times, final.  With libcrypto (configure finds its headers; the library
 * is opened on the first hash) the work is done by its SHA-256, which uses
 * the CPU's SHA instructions; otherwise, or with PTBUILD_SHA256=built-in in
 * the environment, by the portable implementation here.  The struct is the
 * same either way. */
#ifndef PTB_SHA256_H
#define PTB_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct ptb_sha256 {
	uint32_t h[8];
	uint64_t len;          /* bytes hashed so far */
	unsigned char buf[64];
	size_t nbuf;
	int lib;               /* 1: libcrypto holds the state in impl */
	_Alignas(16) unsigned char impl[128];  /* libcrypto's SHA256_CTX */
};

void ptb_sha256_init(struct ptb_sha256 *s);
void ptb_sha256_update(struct ptb_sha256 *s, const void *data, size_t n);
/* Writes 64 lowercase hex digits and a NUL into hex. */
void ptb_sha256_final_hex(struct ptb_sha256 *s, char hex[65]);
/* The portable implementation alone, for tests that compare the two. */
void ptb_sha256_portable_hex(const void *data, size_t n, char hex[65]);
/* "libcrypto" or "built-in". */
const char *ptb_sha256_impl(void);
/* Hash a whole file; 0 or -1 (errno set). */
int ptb_sha256_file(const char *path, char hex[65], uint64_t *size);

#endif
