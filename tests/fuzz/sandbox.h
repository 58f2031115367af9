/* sandbox.h - the extraction fuzzers' oracle: unpack into root inside a
 * fresh folder next to outside/sentinel, then check that nothing resolves
 * outside root.  Every symlink in the tree is followed as the kernel would
 * (through the links it meets, ".." from where it leads) and must stay in
 * root; the sentinel keeps its bytes and its single link; the folder holds
 * nothing new.  Included by fuzz_extract.c and fuzz_cache.c only. */
#ifndef PTB_FUZZ_SANDBOX_H
#define PTB_FUZZ_SANDBOX_H

#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fetch/fetch.h"
#include "fetch/install.h"

struct sandbox {
	char base[1024], root[PATH_MAX], archive[PATH_MAX];
	int cwd;
};

static void sb_die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz sandbox: %s: %s\n", what, detail);
	abort();
}

static void sb_open(struct sandbox *s, const void *data, size_t n)
{
	const char *t = getenv("TMPDIR");
	char p[PATH_MAX];
	FILE *f;

	snprintf(s->base, sizeof s->base, "%s/ptb-fuzz-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(s->base))
		sb_die("mkdtemp", s->base);
	/* root three levels down: a climb of up to three lands where the
	 * oracle looks. */
	snprintf(s->root, sizeof s->root, "%s/d1/d2/root", s->base);
	snprintf(s->archive, sizeof s->archive, "%s/a.tar", s->base);
	snprintf(p, sizeof p, "%s/d1", s->base);
	if (mkdir(p, 0755) != 0)
		sb_die("mkdir", p);
	snprintf(p, sizeof p, "%s/d1/d2", s->base);
	if (mkdir(p, 0755) != 0 || mkdir(s->root, 0755) != 0)
		sb_die("mkdir", p);
	snprintf(p, sizeof p, "%s/outside", s->base);
	if (mkdir(p, 0755) != 0)
		sb_die("mkdir", p);
	snprintf(p, sizeof p, "%s/outside/sentinel", s->base);
	if (!(f = fopen(p, "w")) || fputs("sentinel\n", f) < 0 || fclose(f) != 0)
		sb_die("sentinel", p);
	if (!(f = fopen(s->archive, "w")) || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0)
		sb_die("archive", s->archive);
	s->cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* Does rel (relative to root, at link depth d) lead outside root?  stack
 * holds the elements walked so far. */
static int sb_escapes(const char *root, char stack[][NAME_MAX + 1], int *top, const char *rel, int d)
{
	char buf[PATH_MAX];
	const char *s = rel;

	if (d > 40)
		return 0;   /* a loop: ELOOP, not an escape */
	if (*rel == '/')
		return 1;
	while (*s) {
		size_t n = strcspn(s, "/");
		struct stat st;

		if (n == 2 && s[0] == '.' && s[1] == '.') {
			if (*top == 0)
				return 1;
			(*top)--;
		} else if (n > 0 && !(n == 1 && s[0] == '.') && n <= NAME_MAX) {
			size_t len = (size_t)snprintf(buf, sizeof buf, "%s", root);

			memcpy(stack[*top], s, n);
			stack[*top][n] = '\0';
			(*top)++;
			for (int i = 0; i < *top && len < sizeof buf; i++)
				len += (size_t)snprintf(buf + len, sizeof buf - len, "/%s", stack[i]);
			if (lstat(buf, &st) == 0 && S_ISLNK(st.st_mode)) {
				char target[PATH_MAX];
				ssize_t k = readlink(buf, target, sizeof target - 1);

				if (k < 0)
					sb_die("readlink", buf);
				target[k] = '\0';
				(*top)--;
				if (sb_escapes(root, stack, top, target, d + 1))
					return 1;
			}
		}
		s += n;
		while (*s == '/')
			s++;
	}
	return 0;
}

static const char *sb_root;

static int sb_visit(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	static char stack[PATH_MAX / 2][NAME_MAX + 1];
	int top = 0;

	(void)f;
	if (flag == FTW_SL || S_ISLNK(st->st_mode)) {
		if (sb_escapes(sb_root, stack, &top, p + strlen(sb_root) + 1, 0))
			sb_die("a symlink leads outside the root", p);
	}
	return 0;
}

/* base/sub holds exactly the names given (NULL-terminated). */
static void sb_only(const char *base, const char *sub, ...)
{
	char p[PATH_MAX];
	DIR *d;
	struct dirent *de;

	snprintf(p, sizeof p, "%s/%s", base, sub);
	if (!(d = opendir(p)))
		sb_die("opendir", p);
	while ((de = readdir(d))) {
		va_list ap;
		const char *n;
		int known = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");

		va_start(ap, sub);
		while (!known && (n = va_arg(ap, const char *)))
			known = strcmp(n, de->d_name) == 0;
		va_end(ap);
		if (!known)
			sb_die("something appeared outside the root", de->d_name);
	}
	closedir(d);
}

/* The oracle, then cleanup. */
static void sb_close(struct sandbox *s)
{
	char p[PATH_MAX], buf[32];
	struct stat st;
	int fd, n;

	if (fchdir(s->cwd) != 0)
		sb_die("fchdir", "back");
	close(s->cwd);
	sb_root = s->root;
	if (nftw(s->root, sb_visit, 16, FTW_PHYS) != 0)
		sb_die("nftw", s->root);
	snprintf(p, sizeof p, "%s/outside/sentinel", s->base);
	if ((fd = open(p, O_RDONLY)) < 0 || fstat(fd, &st) != 0)
		sb_die("the sentinel is gone", p);
	n = (int)read(fd, buf, sizeof buf);
	close(fd);
	if (n != 9 || memcmp(buf, "sentinel\n", 9) != 0 || st.st_nlink != 1)
		sb_die("the sentinel changed or gained a link", p);
	sb_only(s->base, "outside", "sentinel", NULL);
	sb_only(s->base, "", "d1", "outside", "a.tar", NULL);
	sb_only(s->base, "d1", "d2", NULL);
	sb_only(s->base, "d1/d2", "root", NULL);
	if (ptb_rmtree(s->base) != 0)
		sb_die("rmtree", s->base);
}

#endif
