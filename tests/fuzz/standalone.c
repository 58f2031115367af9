/* standalone.c - run a fuzz target's LLVMFuzzerTestOneInput over files and
 * directories (the seed corpus and every past crash), so `make check`
 * replays them with gcc and no libFuzzer.  Prints TAP: one line per input. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int n;

static void one(const char *path)
{
	struct ptb_buf b;
	struct ptb_err err;

	ptb_buf_init(&b);
	if (ptb_file_read(path, 0, &b, &err) != 0) {
		printf("not ok %d - %s: %s\n", ++n, path, err.msg);
		return;
	}
	/* A crash or sanitizer report ends the process: the TAP plan is then
	 * missing and the driver counts the test as failed. */
	LLVMFuzzerTestOneInput((const uint8_t *)(b.data ? b.data : ""), b.len);
	printf("ok %d - %s\n", ++n, path);
	fflush(stdout);
	ptb_buf_free(&b);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		one(path);
		return;
	}
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t k = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = ptb_xrealloc(names, (k + 1) * sizeof *names);
		names[k++] = ptb_path_join(path, de->d_name);
	}
	closedir(d);
	qsort(names, k, sizeof *names, cmp);
	for (size_t i = 0; i < k; i++) {
		walk(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		walk(argv[i]);
	printf("1..%d\n", n);
	return 0;
}
