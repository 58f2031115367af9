/* fs.c - whole-file reads and atomic writes (temporary file + rename). */
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ptb_path_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int ptb_path_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *ptb_path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	if (la == 0)
		return ptb_xstrdup(b);
	while (*b == '/')
		b++;
	if (a[la - 1] == '/')
		return ptb_xasprintf("%s%s", a, b);
	return ptb_xasprintf("%s/%s", a, b);
}

const char *ptb_file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO (named pipe)";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return "not a file";
}

static int refuse(const char *path, mode_t mode, struct ptb_err *err)
{
	ptb_err_set(err, PTB_EIO, "cannot read '%s': is %s, not a regular file",
	            path, ptb_file_kind(mode));
	return -2;
}

int ptb_file_open_read(const char *path, int flags, struct stat *st,
                       struct ptb_err *err)
{
	struct stat s;
	int fd, fl;

	if (!st)
		st = &s;
	/* Look before opening: opening some devices does something. */
	if ((flags & PTB_OPEN_NOFOLLOW ? lstat(path, st) : stat(path, st)) == 0 &&
	    !S_ISREG(st->st_mode))
		return refuse(path, st->st_mode, err);
	/* O_NONBLOCK: a FIFO swapped in after the stat still cannot block. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
	          (flags & PTB_OPEN_NOFOLLOW ? O_NOFOLLOW : 0));
	if (fd < 0) {
		if (errno == ELOOP && (flags & PTB_OPEN_NOFOLLOW))
			return refuse(path, S_IFLNK, err);
		ptb_err_set(err, PTB_EIO, "cannot read '%s': %s", path,
		            strerror(errno));
		return -1;
	}
	if (fstat(fd, st) != 0) {
		ptb_err_set(err, PTB_EIO, "cannot read '%s': %s", path,
		            strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return refuse(path, st->st_mode, err);
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int ptb_file_read(const char *path, size_t max, struct ptb_buf *out,
                  struct ptb_err *err)
{
	char chunk[16384];
	int fd;

	if (max == 0)
		max = 64u << 20;
	fd = ptb_file_open_read(path, 0, NULL, err);
	if (fd < 0)
		return -1;
	ptb_buf_reset(out);
	ptb_buf_add(out, "", 0);
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof chunk);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ptb_err_set(err, PTB_EIO, "cannot read '%s': %s", path,
			            strerror(errno));
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		if (out->len + (size_t)n > max) {
			ptb_err_set(err, PTB_EIO,
			            "cannot read '%s': larger than %zu bytes",
			            path, max);
			close(fd);
			return -1;
		}
		ptb_buf_add(out, chunk, (size_t)n);
	}
	close(fd);
	return 0;
}

static int same_content(const char *path, const void *data, size_t len)
{
	struct ptb_buf cur;
	int same;

	ptb_buf_init(&cur);
	if (ptb_file_read(path, len + 1, &cur, NULL) != 0) {
		ptb_buf_free(&cur);
		return 0;
	}
	same = cur.len == len && (len == 0 || memcmp(cur.data, data, len) == 0);
	ptb_buf_free(&cur);
	return same;
}

int ptb_file_write_atomic(const char *path, const void *data, size_t len,
                          int mode, int only_if_changed, int *changed,
                          struct ptb_err *err)
{
	const char *p = data;
	size_t left = len;
	char *tmp;
	int fd;

	if (changed)
		*changed = 0;
	if (only_if_changed && same_content(path, data, len))
		return 0;
	tmp = ptb_xasprintf("%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		ptb_err_set(err, PTB_EIO, "cannot write '%s': %s", path,
		            strerror(errno));
		free(tmp);
		return -1;
	}
	while (left > 0) {
		ssize_t n = write(fd, p, left);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		p += n;
		left -= (size_t)n;
	}
	if (fchmod(fd, (mode_t)mode) != 0 || fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	if (changed)
		*changed = 1;
	return 0;
fail:
	ptb_err_set(err, PTB_EIO, "cannot write '%s': %s", path,
	            strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

int ptb_mkdir_p(const char *path, int mode, struct ptb_err *err)
{
	char *p = ptb_xstrdup(path);
	size_t len = strlen(p);

	for (size_t i = 1; i <= len; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		char c = p[i];
		p[i] = '\0';
		if (mkdir(p, (mode_t)mode) != 0 && errno != EEXIST) {
			ptb_err_set(err, PTB_EIO, "cannot create directory '%s': %s",
			            p, strerror(errno));
			free(p);
			return -1;
		}
		p[i] = c;
	}
	free(p);
	if (!ptb_path_is_dir(path)) {
		ptb_err_set(err, PTB_EIO, "cannot create directory '%s': not a directory",
		            path);
		return -1;
	}
	return 0;
}
