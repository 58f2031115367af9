/* sha256.h - SHA-256 (FIPS 180-4), streamed: init, update any number of
 * times, final.  Small and dependency-free so verification never depends
 * on which TLS library libcurl was built with. */
#ifndef PTB_SHA256_H
#define PTB_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct ptb_sha256 {
	uint32_t h[8];
	uint64_t len;          /* bytes hashed so far */
	unsigned char buf[64];
	size_t nbuf;
};

void ptb_sha256_init(struct ptb_sha256 *s);
void ptb_sha256_update(struct ptb_sha256 *s, const void *data, size_t n);
/* Writes 64 lowercase hex digits and a NUL into hex. */
void ptb_sha256_final_hex(struct ptb_sha256 *s, char hex[65]);
/* Hash a whole file; 0 or -1 (errno set). */
int ptb_sha256_file(const char *path, char hex[65], uint64_t *size);

#endif
