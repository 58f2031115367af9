/* fuzz_extract.c - the archive entry names behind fetch: a fuzzed list of
 * entries (type, name, link target) is written as a real ustar archive and
 * unpacked by ptb_extract into a sandbox; whatever it accepts must resolve
 * inside the root (sandbox.h), and a refusal names the component.
 *
 * Input: entries of one type byte, then the name up to a NUL, then the
 * link target up to a NUL (empty for files and folders).  Type byte % 6:
 * 0 file, 1 folder, 2 symlink, 3 hard link, 4 FIFO, 5 character device. */
#include "sandbox.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void octal(char *field, size_t n, unsigned long v)
{
	snprintf(field, n, "%0*lo", (int)n - 1, v);
}

/* One 512-byte ustar header, then the data padded to 512. */
static size_t header(unsigned char *out, char type, const char *name, size_t nl,
                     const char *link, size_t ll, size_t size)
{
	unsigned sum = 0;

	memset(out, 0, 512);
	memcpy(out, name, nl > 100 ? 100 : nl);
	octal((char *)out + 100, 8, type == '5' ? 0755 : 0644);
	octal((char *)out + 108, 8, 0);
	octal((char *)out + 116, 8, 0);
	octal((char *)out + 124, 12, size);
	octal((char *)out + 136, 12, 1700000000);
	out[156] = (unsigned char)type;
	memcpy(out + 157, link, ll > 100 ? 100 : ll);
	memcpy(out + 257, "ustar", 6);
	memcpy(out + 263, "00", 2);
	memset(out + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += out[i];
	snprintf((char *)out + 148, 8, "%06o", sum);
	out[155] = ' ';
	if (size) {
		memset(out + 512, 0, 512);
		out[512] = 'x';
		return 1024;
	}
	return 512;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char types[] = { '0', '5', '2', '1', '6', '3' };
	static unsigned char tar[64 * 1024 + 1024];
	const uint8_t *p = data, *end = data + size;
	struct ptb_extract_limits lim = { 64, 1 << 20 };
	struct ptb_err err = { 0 };
	struct sandbox sb;
	size_t len = 0;
	char got[65];
	int rc;

	if (size > 4096)
		return 0;
	for (int n = 0; p < end && n < 32; n++) {
		char t = types[*p++ % 6];
		const uint8_t *name = p, *link;
		size_t nl, ll;

		while (p < end && *p)
			p++;
		nl = (size_t)(p - name);
		if (p < end)
			p++;
		link = p;
		while (p < end && *p)
			p++;
		ll = (size_t)(p - link);
		if (p < end)
			p++;
		len += header(tar + len, t, (const char *)name, nl, (const char *)link, ll, t == '0' ? 1 : 0);
	}
	memset(tar + len, 0, 1024);   /* end of archive */
	len += 1024;
	sb_open(&sb, tar, len);
	rc = ptb_extract(sb.archive, sb.root, "fz", &lim, got, &err);
	if (rc != 0 && !strstr(err.msg, "'fz'")) {
		fprintf(stderr, "fuzz_extract: a refusal that does not name the component: %s\n", err.msg);
		abort();
	}
	if (strlen(got) != 64) {
		fprintf(stderr, "fuzz_extract: no sha256 of the archive\n");
		abort();
	}
	sb_close(&sb);
	return 0;
}
