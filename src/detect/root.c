/* root.c - file access below a sysroot, links resolved inside it. */
#define _GNU_SOURCE 1  /* memmem */
#include "detect/root.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Host path of an already-resolved inner path. */
static char *host_of(const struct ptb_root *r, const char *inner)
{
	if (r->is_host)
		return ptb_xstrdup(inner);
	return ptb_xasprintf("%s%s", r->dir, inner);
}

/* Take the next component of the path still to walk off its front:
 * 1 with it in comp, 0 when none is left, -1 when it is too long. */
static int next_component(struct ptb_buf *todo, char comp[256])
{
	char *p = todo->data, *slash;
	size_t n;

	while (*p == '/')
		p++;
	if (!*p)
		return 0;
	slash = strchr(p, '/');
	n = slash ? (size_t)(slash - p) : strlen(p);
	if (n >= 256)
		return -1;
	memcpy(comp, p, n);
	comp[n] = '\0';
	memmove(todo->data, p + n, strlen(p + n) + 1);
	todo->len = strlen(todo->data);
	return 1;
}

/* done ends in a link (host path h): what it points to goes in front of
 * todo, and done goes back to the root (an absolute target) or to keep,
 * its length before the link.  -1 when the link cannot be read. */
static int follow_link(const char *h, struct ptb_buf *done, size_t keep,
                       struct ptb_buf *todo)
{
	char target[4096], *rest;
	ssize_t len = readlink(h, target, sizeof target - 1);

	if (len < 0)
		return -1;
	target[len] = '\0';
	rest = ptb_xasprintf("%s%s%s", target, todo->len ? "/" : "", todo->data);
	ptb_buf_reset(todo);
	ptb_buf_adds(todo, rest);
	free(rest);
	if (target[0] == '/') {
		ptb_buf_reset(done);
		ptb_buf_adds(done, "");
	} else {
		done->data[keep] = '\0';
		done->len = keep;
	}
	return 0;
}

char *ptb_root_resolve(const struct ptb_root *r, const char *path)
{
	struct ptb_buf done, todo;
	char comp[256];
	int hops = 0, got;
	char *res = NULL;

	/* On this host the kernel resolves the same way in one call; the walk
	 * below costs an lstat per component and is only needed to keep a
	 * sysroot's absolute links inside it. */
	if (r->is_host && path[0] == '/')
		return realpath(path, NULL);
	ptb_buf_init(&done);
	ptb_buf_init(&todo);
	ptb_buf_adds(&todo, path);
	ptb_buf_adds(&done, "");
	while ((got = next_component(&todo, comp)) > 0) {
		struct stat st;
		size_t keep = done.len;
		char *h;
		int bad;

		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			char *last = strrchr(done.data, '/');

			if (last) {
				*last = '\0';
				done.len = (size_t)(last - done.data);
			}
			continue;
		}
		ptb_buf_addc(&done, '/');
		ptb_buf_adds(&done, comp);
		h = host_of(r, done.data);
		bad = lstat(h, &st) != 0 ||
		      (S_ISLNK(st.st_mode) &&
		       (++hops > 40 || follow_link(h, &done, keep, &todo) != 0));
		free(h);
		if (bad)
			goto out;
	}
	if (got == 0)
		res = done.len ? ptb_xstrdup(done.data) : ptb_xstrdup("/");
out:
	ptb_buf_free(&done);
	ptb_buf_free(&todo);
	return res;
}

char *ptb_root_host(const struct ptb_root *r, const char *path)
{
	char *in = ptb_root_resolve(r, path), *h;

	if (!in)
		return NULL;
	h = host_of(r, in);
	free(in);
	return h;
}

/* The path to hand to the kernel: on this host the path itself (the
 * kernel follows its links), below a sysroot the resolved host path. */
static char *kernel_path(const struct ptb_root *r, const char *path)
{
	if (r->is_host && path[0] == '/')
		return ptb_xstrdup(path);
	return ptb_root_host(r, path);
}

static int stat_inner(const struct ptb_root *r, const char *path, struct stat *st)
{
	char *h = kernel_path(r, path);
	int rc;

	if (!h)
		return -1;
	rc = stat(h, st);
	free(h);
	return rc;
}

int ptb_root_is_dir(const struct ptb_root *r, const char *path)
{
	struct stat st;

	return stat_inner(r, path, &st) == 0 && S_ISDIR(st.st_mode);
}

int ptb_root_is_file(const struct ptb_root *r, const char *path)
{
	struct stat st;

	return stat_inner(r, path, &st) == 0 && S_ISREG(st.st_mode);
}

int ptb_root_is_exec(const struct ptb_root *r, const char *path)
{
	struct stat st;

	return stat_inner(r, path, &st) == 0 && S_ISREG(st.st_mode) &&
	       (st.st_mode & 0111);
}

const char *ptb_root_kind(const struct ptb_root *r, const char *path)
{
	struct stat st;

	return stat_inner(r, path, &st) == 0 ? ptb_file_kind(st.st_mode) : NULL;
}

int ptb_root_dir_empty(const struct ptb_root *r, const char *dir, int *err)
{
	char *h = kernel_path(r, dir);
	struct dirent *de;
	int empty = 1, e;
	DIR *d;

	if (err)
		*err = ENOENT;
	if (!h)
		return -1;
	d = opendir(h);
	e = errno;
	free(h);
	if (!d) {
		if (err)
			*err = e;
		return -1;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

static void note(const struct ptb_root *r, const char *text)
{
	const cJSON *it;

	if (!r->notes)
		return;
	cJSON_ArrayForEach(it, r->notes)
		if (cJSON_IsString(it) && strcmp(it->valuestring, text) == 0)
			return;
	cJSON_AddItemToArray(r->notes, cJSON_CreateString(text));
}

static char *size_text(size_t n)
{
	if (n >= (1u << 20) && n % (1u << 20) == 0)
		return ptb_xasprintf("%zu MiB", n >> 20);
	if (n >= 1024 && n % 1024 == 0)
		return ptb_xasprintf("%zu KiB", n >> 10);
	return ptb_xasprintf("%zu bytes", n);
}

static int read_in(const struct ptb_root *r, const char *path, size_t max,
                   struct ptb_buf *out, int whole)
{
	char *h = kernel_path(r, path);
	struct stat st;
	char chunk[8192];
	int fd;

	if (!h)
		return -1;
	/* Below a sysroot h is resolved already: a link there now is a swap. */
	fd = ptb_file_open_read(h, r->is_host ? 0 : PTB_OPEN_NOFOLLOW, &st, NULL);
	free(h);
	if (fd == -2) {
		char *t = ptb_xasprintf("'%s'%s is %s, not a regular file: not read",
		                        path, r->is_host ? "" : " in the sysroot",
		                        ptb_file_kind(st.st_mode));
		note(r, t);
		free(t);
	}
	if (fd < 0)
		return -1;
	ptb_buf_reset(out);
	ptb_buf_adds(out, "");
	for (;;) {
		size_t want = max - out->len < sizeof chunk ? max - out->len : sizeof chunk;
		ssize_t n;

		if (want == 0) {
			/* at the bound: is there more? */
			if (!whole)
				break;
			do
				n = read(fd, chunk, 1);
			while (n < 0 && errno == EINTR);
			if (n > 0) {
				char *sz = size_text(max);
				char *t = ptb_xasprintf("'%s'%s is larger than %s: only its first %s were read",
				                        path, r->is_host ? "" : " in the sysroot", sz, sz);
				note(r, t);
				free(t);
				free(sz);
			}
			break;
		}
		n = read(fd, chunk, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0) {
				close(fd);
				return -1;
			}
			break;
		}
		ptb_buf_add(out, chunk, (size_t)n);
	}
	close(fd);
	return 0;
}

int ptb_root_read(const struct ptb_root *r, const char *path, size_t max,
                  struct ptb_buf *out)
{
	return read_in(r, path, max, out, 1);
}

int ptb_root_head(const struct ptb_root *r, const char *path, size_t max,
                  struct ptb_buf *out)
{
	return read_in(r, path, max, out, 0);
}

int ptb_root_find(const struct ptb_root *r, const char *path, const char *needle,
                  size_t max, size_t tail, struct ptb_buf *out)
{
	size_t nl = strlen(needle), keep = nl + tail, have = 0, scanned = 0;
	size_t cap = (1u << 20) + keep;
	char *h = kernel_path(r, path), *buf;
	struct stat st;
	int fd, found = -1;

	if (!h || nl == 0)
		goto nofile;
	fd = ptb_file_open_read(h, r->is_host ? 0 : PTB_OPEN_NOFOLLOW, &st, NULL);
	free(h);
	h = NULL;
	if (fd < 0)
		goto nofile;
	buf = ptb_xmalloc(cap);
	while (found < 0 && scanned < max) {
		ssize_t n;
		char *hit;

		do
			n = read(fd, buf + have, cap - have);
		while (n < 0 && errno == EINTR);
		if (n <= 0)
			break;
		have += (size_t)n;
		scanned += (size_t)n;
		hit = memmem(buf, have, needle, nl);
		if (hit) {
			/* the tail may straddle the next read */
			size_t at = (size_t)(hit - buf);

			memmove(buf, hit, have - at);
			have -= at;
			while (have < keep) {
				do
					n = read(fd, buf + have, keep - have);
				while (n < 0 && errno == EINTR);
				if (n <= 0)
					break;
				have += (size_t)n;
			}
			ptb_buf_reset(out);
			ptb_buf_add(out, buf, have < keep ? have : keep);
			found = 0;
			break;
		}
		/* keep the last nl - 1 bytes: a match may span two reads */
		if (have >= nl) {
			memmove(buf, buf + have - (nl - 1), nl - 1);
			have = nl - 1;
		}
	}
	free(buf);
	close(fd);
	return found;
nofile:
	free(h);
	return -1;
}

/* A search for NUL-delimited strings, carried across reads. */
struct strscan {
	char run[64];   /* the printable bytes since the last NUL */
	size_t len;
	int open;       /* a NUL was seen, and only printable bytes since */
	int (*keep)(const char *s, size_t len);
	size_t nmax;
	cJSON *arr;
	int added;
};

/* A NUL: the run before it is a whole string. */
static void strscan_end(struct strscan *s)
{
	s->run[s->len] = '\0';  /* len < sizeof run; keep() gets it bounded too */
	if (s->open && s->len > 0 && (size_t)s->added < s->nmax && s->keep(s->run, s->len)) {
		char *t = ptb_xstrndup(s->run, s->len);
		const cJSON *it;
		int dup = 0;

		cJSON_ArrayForEach(it, s->arr)
			dup |= cJSON_IsString(it) && strcmp(it->valuestring, t) == 0;
		if (!dup) {
			cJSON_AddItemToArray(s->arr, cJSON_CreateString(t));
			s->added++;
		}
		free(t);
	}
	s->open = 1;
	s->len = 0;
}

static void strscan_feed(struct strscan *s, const char *p, size_t n)
{
	const char *end = p + n;

	while (p < end) {
		unsigned char c;

		if (!s->open) {
			/* skip to the next NUL: most of a binary is no string */
			const char *z = memchr(p, '\0', (size_t)(end - p));

			if (!z)
				return;
			p = z + 1;
			s->open = 1;
			s->len = 0;
			continue;
		}
		c = (unsigned char)*p++;
		if (c == 0)
			strscan_end(s);
		else if (c < 0x20 || c > 0x7e || s->len >= sizeof s->run - 1)
			s->open = 0;
		else
			s->run[s->len++] = (char)c;
	}
}

static void note_file(const struct ptb_root *r, const char *path, const char *what)
{
	char *t = ptb_xasprintf("'%s'%s %s", path, r->is_host ? "" : " in the sysroot", what);

	note(r, t);
	free(t);
}

/* The note of a file of size bytes that what is left of r->scan_left
 * cannot hold: not searched, and how much of the run's budget is spent. */
static void budget_note(const struct ptb_root *r, const char *path, uint64_t size)
{
	char *t = ptb_xasprintf("(%llu MiB) is not searched: detect searches at most %llu MiB "
	                        "of compiler files in one run, and %llu MiB of it are spent",
	                        (unsigned long long)((size + (1u << 20) - 1) >> 20),
	                        (unsigned long long)(PTB_SCAN_BUDGET >> 20),
	                        (unsigned long long)((PTB_SCAN_BUDGET - *r->scan_left) >> 20));

	note_file(r, path, t);
	free(t);
}

int ptb_root_elf_strings(const struct ptb_root *r, const char *path, size_t max,
                         int (*keep)(const char *s, size_t len), size_t nmax,
                         cJSON *arr)
{
	struct strscan s = { .keep = keep, .nmax = nmax, .arr = arr };
	size_t step = 1u << 20, scanned = 0;
	char *h = kernel_path(r, path), *buf;
	struct stat st;
	ssize_t n;
	int fd;

	if (!h)
		return -1;
	fd = ptb_file_open_read(h, r->is_host ? 0 : PTB_OPEN_NOFOLLOW, &st, NULL);
	free(h);
	if (fd < 0)
		return -1;
	if ((uint64_t)st.st_size > max) {
		/* a compiler is some MiB, a libclang-cpp some hundred */
		char *sz = size_text(max), *t = ptb_xasprintf("is larger than %s: not searched", sz);

		note_file(r, path, t);
		free(t);
		free(sz);
		close(fd);
		return -1;
	}
	if (r->scan_left && (uint64_t)st.st_size > *r->scan_left) {
		char magic[4];

		/* only an ELF file would have been searched: a script is not
		 * one the budget stopped */
		if (pread(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
		    memcmp(magic, "\177ELF", 4) == 0)
			budget_note(r, path, (uint64_t)st.st_size);
		close(fd);
		return -1;
	}
	if (r->scan_left && *r->scan_left < max)
		max = (size_t)*r->scan_left; /* a file that grows stops there */
	buf = ptb_xmalloc(step);
	for (;;) {
		do
			n = read(fd, buf, step);
		while (n < 0 && errno == EINTR);
		if (n <= 0)
			break;
		if (scanned == 0 && (n < 4 || memcmp(buf, "\177ELF", 4) != 0)) {
			s.added = -1;
			break;
		}
		strscan_feed(&s, buf, (size_t)n);
		scanned += (size_t)n;
		if (scanned >= max)
			break; /* it grew since the stat */
	}
	free(buf);
	close(fd);
	if (r->scan_left)
		*r->scan_left -= scanned < *r->scan_left ? scanned : *r->scan_left;
	return scanned == 0 ? -1 : s.added;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **list(const struct ptb_root *r, const char *dir, const char *prefix,
                   int (*keep)(const char *name))
{
	char *h = kernel_path(r, dir);
	char **names;
	size_t n = 0, cap = 16;
	DIR *d;
	struct dirent *de;

	if (!h)
		return NULL;
	d = opendir(h);
	free(h);
	if (!d)
		return NULL;
	names = ptb_xmalloc(cap * sizeof *names);
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (prefix && strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		if (keep && !keep(de->d_name))
			continue;
		if (n + 2 > cap)
			names = ptb_xrealloc(names, (cap *= 2) * sizeof *names);
		names[n++] = ptb_xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_names);
	names[n] = NULL;
	return names;
}

char **ptb_root_list(const struct ptb_root *r, const char *dir,
                     const char *prefix)
{
	return list(r, dir, prefix, NULL);
}

char **ptb_root_list_if(const struct ptb_root *r, const char *dir,
                        int (*keep)(const char *name))
{
	return list(r, dir, NULL, keep);
}

void ptb_root_names_free(char **names)
{
	if (!names)
		return;
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}

const char *ptb_root_elf_machine(const struct ptb_root *r, const char *path)
{
	struct ptb_buf b;
	const unsigned char *e;
	const char *m = NULL;
	unsigned mach;

	ptb_buf_init(&b);
	if (ptb_root_head(r, path, 64, &b) != 0 || b.len < 20 ||
	    memcmp(b.data, "\177ELF", 4) != 0) {
		ptb_buf_free(&b);
		return NULL;
	}
	e = (const unsigned char *)b.data;
	/* e_machine at offset 18, in the file's byte order (EI_DATA). */
	mach = e[5] == 2 ? (unsigned)(e[18] << 8 | e[19]) : (unsigned)(e[19] << 8 | e[18]);
	switch (mach) {
	case 62: m = "x86_64"; break;
	case 183: m = "aarch64"; break;
	case 3: m = "i686"; break;
	case 40: m = "arm"; break;
	case 21: m = "ppc64le"; break;
	case 243: m = "riscv64"; break;
	default: m = "unknown"; break;
	}
	ptb_buf_free(&b);
	return m;
}
