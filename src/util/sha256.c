/* sha256.c - SHA-256 as specified in FIPS 180-4, section 6.2. */
#include "config.h"

#ifdef HAVE_LIBCRYPTO
/* SHA256_Init and friends are deprecated in OpenSSL 3 in favour of EVP,
 * which allocates; these keep the state in our struct. */
#define OPENSSL_API_COMPAT 10101
#include <openssl/opensslv.h>
#include <openssl/sha.h>
#endif

#include "util/sha256.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; k = h[7];
	for (i = 0; i < 64; i++) {
		t1 = k + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		k = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += k;
}

static void portable_init(struct ptb_sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(s->h, iv, sizeof iv);
	s->len = 0;
	s->nbuf = 0;
}

static void portable_update(struct ptb_sha256 *s, const void *data, size_t n)
{
	const unsigned char *p = data;

	s->len += n;
	if (s->nbuf) {
		size_t take = 64 - s->nbuf < n ? 64 - s->nbuf : n;
		memcpy(s->buf + s->nbuf, p, take);
		s->nbuf += take;
		p += take;
		n -= take;
		if (s->nbuf < 64)
			return;
		block(s->h, s->buf);
		s->nbuf = 0;
	}
	for (; n >= 64; p += 64, n -= 64)
		block(s->h, p);
	memcpy(s->buf, p, n);
	s->nbuf = n;
}

static void portable_final(struct ptb_sha256 *s, unsigned char md[32])
{
	uint64_t bits = s->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t npad = (s->nbuf < 56 ? 56 : 120) - s->nbuf;

	for (int i = 0; i < 8; i++)
		pad[npad + i] = (unsigned char)(bits >> (56 - 8 * i));
	portable_update(s, pad, npad + 8);
	for (int i = 0; i < 32; i++)
		md[i] = (unsigned char)(s->h[i / 4] >> (24 - 8 * (i % 4)));
}

static void to_hex(const unsigned char md[32], char hex[65])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}

void ptb_sha256_portable_hex(const void *data, size_t n, char hex[65])
{
	struct ptb_sha256 s;
	unsigned char md[32];

	portable_init(&s);
	portable_update(&s, data, n);
	portable_final(&s, md);
	to_hex(md, hex);
}

#ifdef HAVE_LIBCRYPTO
/* libcrypto is opened on the first hash, not linked: it is 4.5 MB of
 * relocations that every start would pay for (detect and plan never hash a
 * large file).  The names tried are the soname of the headers configure
 * checked, then the development link.  When none loads, or one lacks the
 * three entry points, the portable code below does the work; the answer is
 * the same, only slower. */
#include "util/dl.h"

_Static_assert(sizeof(SHA256_CTX) <= sizeof(((struct ptb_sha256 *)0)->impl),
               "SHA256_CTX fits in struct ptb_sha256");

static struct {
	int (*init)(SHA256_CTX *);
	int (*update)(SHA256_CTX *, const void *, size_t);
	int (*final)(unsigned char *, SHA256_CTX *);
} cr;
static struct ptb_dl crypto;

static int crypto_ready(void)
{
	static const char *const names[] = {
#if defined(OPENSSL_VERSION_MAJOR) && OPENSSL_VERSION_MAJOR >= 3
		"libcrypto.so.3",
#else
		"libcrypto.so.1.1",
#endif
		"libcrypto.so",
	};
	static const struct ptb_dl_sym syms[] = {
		{ "SHA256_Init", (void **)&cr.init },
		{ "SHA256_Update", (void **)&cr.update },
		{ "SHA256_Final", (void **)&cr.final },
	};
	const char *force;

	if (crypto.handle)
		return 1;
	if (!crypto.tried && (force = getenv("PTBUILD_SHA256")) && strcmp(force, "built-in") == 0)
		crypto.tried = 1;
	return ptb_dl_load(&crypto, "libcrypto", names, sizeof names / sizeof *names,
	                   syms, sizeof syms / sizeof *syms) == 0;
}

const char *ptb_sha256_impl(void)
{
	return crypto_ready() ? "libcrypto" : "built-in";
}

void ptb_sha256_init(struct ptb_sha256 *s)
{
	s->lib = crypto_ready();
	if (s->lib) {
		s->len = 0;
		cr.init((SHA256_CTX *)(void *)s->impl);
	} else {
		portable_init(s);
	}
}

void ptb_sha256_update(struct ptb_sha256 *s, const void *data, size_t n)
{
	if (!s->lib) {
		portable_update(s, data, n);
		return;
	}
	s->len += n;
	cr.update((SHA256_CTX *)(void *)s->impl, data, n);
}

void ptb_sha256_final_hex(struct ptb_sha256 *s, char hex[65])
{
	unsigned char md[32];

	if (s->lib)
		cr.final(md, (SHA256_CTX *)(void *)s->impl);
	else
		portable_final(s, md);
	to_hex(md, hex);
}
#else
const char *ptb_sha256_impl(void) { return "built-in"; }

void ptb_sha256_init(struct ptb_sha256 *s)
{
	s->lib = 0;
	portable_init(s);
}

void ptb_sha256_update(struct ptb_sha256 *s, const void *data, size_t n)
{
	portable_update(s, data, n);
}

void ptb_sha256_final_hex(struct ptb_sha256 *s, char hex[65])
{
	unsigned char md[32];

	portable_final(s, md);
	to_hex(md, hex);
}
#endif

int ptb_sha256_file(const char *path, char hex[65], uint64_t *size)
{
	static unsigned char buf[1 << 16];
	struct ptb_sha256 s;
	ssize_t n;
	int fd = ptb_file_open_read(path, 0, NULL, NULL);

	if (fd < 0)
		return -1;
	ptb_sha256_init(&s);
	while ((n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		ptb_sha256_update(&s, buf, (size_t)n);
	}
	close(fd);
	if (size)
		*size = s.len;
	ptb_sha256_final_hex(&s, hex);
	return 0;
}
