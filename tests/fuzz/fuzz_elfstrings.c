/* fuzz_elfstrings.c - ptb_root_elf_strings (detect/root.c), the scan that
 * reads a compiler's version from its bytes, against a plain in-memory
 * model of what it must find: the distinct runs of printable bytes, 1 to
 * 63 long, with a NUL on both sides, in order, at most nmax.  The input
 * after its first two bytes is the file after an ELF magic; with the
 * first byte's low three bits 001 the file is padded so that the input begins that many
 * bytes (the second byte) before 1 MiB, where the scan's reads meet, and
 * the model sees the padding too.  The first byte also picks nmax. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "detect/root.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int keep_all(const char *s, size_t len)
{
	(void)s;
	return len > 0;
}

/* The strings the scan must find in buf, joined by '\n' into out. */
static void model(const char *buf, size_t len, size_t nmax, struct ptb_buf *out)
{
	cJSON *seen = cJSON_CreateArray();
	size_t count = 0;

	for (size_t i = 0; i < len && count < nmax; i++) {
		size_t j = i + 1;
		char *s;
		const cJSON *it;
		int dup = 0;

		if (buf[i] != '\0')
			continue;
		while (j < len && (unsigned char)buf[j] >= 0x20 && (unsigned char)buf[j] <= 0x7e)
			j++;
		if (j == len || buf[j] != '\0' || j - i - 1 == 0 || j - i - 1 > 63)
			continue;
		s = ptb_xstrndup(buf + i + 1, j - i - 1);
		cJSON_ArrayForEach(it, seen)
			dup |= strcmp(it->valuestring, s) == 0;
		if (!dup) {
			cJSON_AddItemToArray(seen, cJSON_CreateString(s));
			ptb_buf_adds(out, s);
			ptb_buf_addc(out, '\n');
			count++;
		}
		free(s);
	}
	ptb_buf_adds(out, "");
	cJSON_Delete(seen);
}

static char *dir;     /* made once, kept for the process */
static const char zeros[1u << 20];

static void remove_dir(void)
{
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	struct ptb_root r = { NULL, 0, NULL };
	struct ptb_buf file, want, got;
	size_t nmax, pad = 0;
	cJSON *arr, *it;
	char *path;
	int n, fd;

	if (size < 2 || size > 65536)
		return 0;
	if (!dir) {
		dir = ptb_xasprintf("%s/ptb-fuzz-elfstrings.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir))
			abort();
		atexit(remove_dir);
	}
	r.dir = dir;
	nmax = 1 + (data[0] >> 1) % 40;
	if ((data[0] & 7) == 1)
		pad = (1u << 20) - 4 - data[1];
	ptb_buf_init(&file);
	ptb_buf_init(&want);
	ptb_buf_init(&got);
	ptb_buf_add(&file, "\177ELF", 4);
	ptb_buf_add(&file, zeros, pad);
	ptb_buf_add(&file, data + 2, size - 2);
	path = ptb_path_join(dir, "gcc");
	/* a plain write: an atomic one syncs, and a fuzzer writes thousands */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0 || write(fd, file.data, file.len) != (ssize_t)file.len || close(fd) != 0)
		abort();
	arr = cJSON_CreateArray();
	n = ptb_root_elf_strings(&r, "/gcc", 4u << 20, keep_all, nmax, arr);
	model(file.data, file.len, nmax, &want);
	cJSON_ArrayForEach(it, arr) {
		ptb_buf_adds(&got, it->valuestring);
		ptb_buf_addc(&got, '\n');
	}
	ptb_buf_adds(&got, "");
	if (n != cJSON_GetArraySize(arr) || strcmp(got.data, want.data) != 0) {
		fprintf(stderr, "fuzz_elfstrings: returned %d\ngot:\n%s\nwant:\n%s\n", n, got.data, want.data);
		abort();
	}
	unlink(path);
	free(path);
	cJSON_Delete(arr);
	ptb_buf_free(&file);
	ptb_buf_free(&want);
	ptb_buf_free(&got);
	return 0;
}
