/* extract.c - unpack one archive into a staging tree, safely.
 *
 * libarchive does the writing with its three SECURE flags (no '..', no
 * absolute names, nothing written through a symlink on disk).  It does not
 * look at where a symlink points, nor refuse a hard link to a symlink, a
 * device node or a bomb; the checks here do.  Ownership, ACLs, xattrs and
 * set-id bits are never restored.
 *
 * Every name is normalised once (ptb_extract_norm) before any check, and
 * the normalised name is what libarchive writes: a check never reasons
 * about one spelling ("lib/x/", "lib//./x") while the disk gets another. */
#define _GNU_SOURCE
#include "fetch/fetch.h"
#include "util/archive_dl.h"
#include "util/sha256.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *ptb_extract_norm(const char *name, const char **why)
{
	size_t len = name ? strlen(name) : 0;
	char *out = ptb_xmalloc(len + 1), *o = out;
	const char *s = name;

	if (!name || !*name) {
		*why = "has an empty name";
		goto bad;
	}
	if (*name == '/') {
		*why = "is an absolute path";
		goto bad;
	}
	while (*s) {
		size_t n = strcspn(s, "/");

		if (n == 2 && s[0] == '.' && s[1] == '.') {
			*why = "contains '..'";
			goto bad;
		}
		if (n > 0 && !(n == 1 && s[0] == '.')) {
			if (o != out)
				*o++ = '/';
			memcpy(o, s, n);
			o += n;
		}
		s += n;
		while (*s == '/')
			s++;
	}
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

int ptb_extract_link_ok(const char *link, const char *target)
{
	int depth = -1, ups = 0, down = 0;
	const char *s;

	if (!link || !target || !*target || *target == '/')
		return 0;
	/* The depth of the folder the link sits in: its real elements less
	 * one, whatever slashes and "." the name is spelled with ("lib/x/"
	 * is one level deep, as libarchive writes it). */
	for (s = link; *s;) {
		size_t n = strcspn(s, "/");

		if (n == 2 && s[0] == '.' && s[1] == '.')
			return 0;
		if (n > 0 && !(n == 1 && s[0] == '.'))
			depth++;
		s += n;
		while (*s == '/')
			s++;
	}
	if (depth < 0)
		return 0;
	/* Leading ".." only: "../../lib/x" is fine, "a/../../x" is refused
	 * (it would climb through whatever "a" turns out to be). */
	for (s = target; *s;) {
		size_t n = strcspn(s, "/");

		if (n == 2 && s[0] == '.' && s[1] == '.') {
			if (down)
				return 0;
			ups++;
		} else if (n > 0 && !(n == 1 && s[0] == '.')) {
			down++;
		}
		s += n;
		while (*s == '/')
			s++;
	}
	return ups <= depth;
}

/* libarchive's message, with the system's reason when it has one
 * ("Write failed: No space left on device").  libarchive's own reasons
 * (an unknown format, a damaged header) carry its pseudo-errnos (EILSEQ
 * and EINVAL on POSIX systems, not exported by archive.h), which strerror
 * would print as an unrelated system error ("Invalid or incomplete
 * multibyte or wide character"). */
static const char *why(struct archive *a, char *buf, size_t n)
{
	const char *m = archive_error_string(a);
	int e = archive_errno(a);

	if (!m)
		m = "unknown error";
	if (e == EILSEQ || e == EINVAL)   /* ARCHIVE_ERRNO_FILE_FORMAT, _PROGRAMMER */
		e = 0;
	if (e > 0 && !strstr(m, strerror(e)))
		snprintf(buf, n, "%s: %s", m, strerror(e));
	else
		snprintf(buf, n, "%s", m);
	return buf;
}

static int refuse(struct ptb_err *err, const char *name, const char *entry, const char *why)
{
	ptb_err_set(err, PTB_EIO, "refusing archive of '%s': entry '%s' %s", name, entry, why);
	ptb_err_hint(err, "nothing was installed; the archive may be corrupt or hostile");
	return -1;
}

/* Start writing a big file that is complete to disk now, without waiting:
 * the commit syncs the stage's file system before the rename, and what
 * was written back while the cores unpacked is not waited for then. */
static void write_back(const char *path, uint64_t size)
{
#ifdef SYNC_FILE_RANGE_WRITE
	int fd;

	if (size < (1u << 20) || (fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)) < 0)
		return;
	sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
	close(fd);
#else
	(void)path;
	(void)size;
#endif
}

/* The part of a normalised name under the archive's top folder; NULL
 * when the entry is the folder itself.  *bad when the name is under some
 * other folder than the first entry's. */
static const char *strip_top(const char *p, char **top, int *bad)
{
	const char *slash = strchr(p, '/');
	size_t n = slash ? (size_t)(slash - p) : strlen(p);

	*bad = 0;
	if (!*top)
		*top = ptb_xstrndup(p, n);
	else if (strlen(*top) != n || strncmp(*top, p, n) != 0)
		*bad = 1;
	return slash ? slash + 1 : NULL;
}

/* The archive is read through here so that every byte libarchive sees is
 * hashed on the way (no skip or seek callback: it reads straight through);
 * drain() hashes whatever it left unread.
 *
 * A file still being downloaded is read as it grows: at its current end
 * the reader waits on `notify` until the writer sends the final size (8
 * bytes) or closes it without one (the download was given up). */
struct src {
	int fd;
	int notify;            /* -1: a complete file */
	int err;               /* errno of a failed read */
	int64_t got, total;    /* bytes read; final size, -1 until told */
	struct ptb_sha256 sha;
	char buf[1 << 16];
};

/* 0 when there may be more to read, -1 when the writer gave up. */
static int wait_more(struct src *s)
{
	struct pollfd p = { .fd = s->notify, .events = POLLIN };
	int64_t t;
	ssize_t r;

	if (poll(&p, 1, 5) <= 0)
		return 0;
	do
		r = read(s->notify, &t, sizeof t);
	while (r < 0 && errno == EINTR);
	if (r != (ssize_t)sizeof t || t < 0)
		return -1;
	s->total = t;
	return 0;
}

static ssize_t src_next(struct src *s)
{
	ssize_t n;

	for (;;) {
		do
			n = read(s->fd, s->buf, sizeof s->buf);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			s->err = errno;
			return -1;
		}
		if (n > 0 || s->notify < 0 || (s->total >= 0 && s->got >= s->total))
			break;
		if (wait_more(s) != 0) {
			s->err = ECANCELED;
			return -1;
		}
	}
	if (s->total >= 0 && s->got + n > s->total)
		n = (ssize_t)(s->total - s->got);   /* never past what was verified */
	s->got += n;
	ptb_sha256_update(&s->sha, s->buf, (size_t)n);
	return n;
}

static la_ssize_t src_read(struct archive *a, void *ud, const void **out)
{
	struct src *s = ud;
	ssize_t n = src_next(s);

	(void)a;
	*out = s->buf;
	return n;
}

static void drain(struct src *s, char hex[65])
{
	while (src_next(s) > 0)
		;
	ptb_sha256_final_hex(&s->sha, hex);
}

int ptb_extract(const char *archive, const char *root, const char *name,
                const struct ptb_extract_limits *lim, char sha256_out[65],
                struct ptb_err *err)
{
	int fd = open(archive, O_RDONLY | O_CLOEXEC);

	return ptb_extract_stream(fd, -1, archive, root, name, lim, sha256_out, err);
}

/* One extraction's state, handed from step to step below. */
struct unpack {
	struct archive *a, *w;
	const char *name;                   /* the component */
	const struct ptb_extract_limits *lim;
	struct ptb_err *err;
	char *top, *lic;                    /* the top folder; where LICENSE goes */
	char *path, *norm, *hnorm;          /* the current entry's names, owned */
	uint64_t nentries, nbytes;
	char wbuf[512];
};

/* Enter `root`, set the reader (tar, any filter) and the secure disk
 * writer up, and open the archive through `in`.  0, or -1 with u->err
 * set. */
static int open_archive(struct unpack *u, struct src *in, const char *root,
                        const char *archive, int open_errno)
{
	if (chdir(root) != 0) {
		ptb_err_set(u->err, PTB_EIO, "cannot enter '%s': %s", root, strerror(errno));
		return -1;
	}
	archive_read_support_filter_all(u->a);
	archive_read_support_format_tar(u->a);
	archive_read_support_format_gnutar(u->a);
	archive_write_disk_set_options(u->w, ARCHIVE_EXTRACT_SECURE_SYMLINKS |
	                                     ARCHIVE_EXTRACT_SECURE_NODOTDOT |
	                                     ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS);
	if (in->fd < 0) {
		ptb_err_set(u->err, PTB_EIO, "cannot read the archive of '%s': '%s': %s", u->name, archive,
		            strerror(open_errno));
		return -1;
	}
	if (archive_read_open(u->a, in, NULL, src_read, NULL) != ARCHIVE_OK) {
		ptb_err_set(u->err, PTB_EIO, "cannot read the archive of '%s': %s", u->name,
		            why(u->a, u->wbuf, sizeof u->wbuf));
		if (archive_errno(u->a) == EILSEQ)
			ptb_err_hint(u->err, "components are unpacked from tar archives (.tar.xz, .tar.gz); nothing was installed");
		return -1;
	}
	u->lic = ptb_xasprintf("share/licenses/%s/LICENSE", u->name);
	return 0;
}

/* Check a hard link `hl` (as stored) and point it at its name under the
 * top folder: only to a regular file already unpacked.  0, or -1 with
 * u->err set. */
static int check_hardlink(struct unpack *u, struct archive_entry *e, const char *hl)
{
	const char *hrest, *no;
	char *htop = ptb_xstrdup(u->top);
	struct stat st;
	int bad;

	if (!(u->hnorm = ptb_extract_norm(hl, &no)) || !*u->hnorm) {
		free(htop);
		return refuse(u->err, u->name, u->path, "is a hard link to an absolute path or through '..'");
	}
	hrest = strip_top(u->hnorm, &htop, &bad);
	free(htop);
	if (bad || !hrest)
		return refuse(u->err, u->name, u->path, "is a hard link outside the archive's top folder");
	if (lstat(hrest, &st) != 0 || !S_ISREG(st.st_mode))
		return refuse(u->err, u->name, u->path, "is a hard link to a symlink, a folder or nothing");
	archive_entry_set_hardlink(e, hrest);
	return 0;
}

/* Every check on one entry before anything of it is written: the entry
 * count, its name, its type, the single top folder, its size, where a
 * link leads.  1 with *rest (its name under the top folder) to write it,
 * 0 to skip it (the root or top folder itself), -1 with u->err set. */
static int check_entry(struct unpack *u, struct archive_entry *e, const char **rest)
{
	const char *raw = archive_entry_pathname(e), *no, *hl;
	mode_t type = archive_entry_filetype(e);
	int bad;

	/* The entry's own strings live in buffers that the setters
	 * below reallocate: keep copies for the checks and messages. */
	free(u->path);
	free(u->norm);
	free(u->hnorm);
	u->path = ptb_xstrdup(raw ? raw : "");
	u->norm = u->hnorm = NULL;
	if (++u->nentries > u->lim->max_entries) {
		ptb_err_set(u->err, PTB_EIO, "refusing archive of '%s': more than %llu entries",
		            u->name, (unsigned long long)u->lim->max_entries);
		ptb_err_hint(u->err, "nothing was installed; PTBUILD_MAX_ENTRIES raises the limit");
		return -1;
	}
	/* One spelling of the name, checked and written alike. */
	if (!(u->norm = ptb_extract_norm(u->path, &no)))
		return refuse(u->err, u->name, u->path, no);
	if (!archive_entry_hardlink(e) && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
		return refuse(u->err, u->name, u->path, "is a device node, FIFO or socket");
	if (!*u->norm) {
		/* "./": the root folder itself. */
		if (type != AE_IFDIR)
			return refuse(u->err, u->name, u->path, "has an empty name");
		return 0;
	}
	*rest = strip_top(u->norm, &u->top, &bad);
	if (bad)
		return refuse(u->err, u->name, u->path, "is outside the archive's single top folder");
	if (!*rest) {
		if (type != AE_IFDIR)
			return refuse(u->err, u->name, u->path, "is outside the archive's single top folder");
		return 0;
	}
	if (archive_entry_size(e) > 0 && (uint64_t)archive_entry_size(e) > u->lim->max_bytes)
		return refuse(u->err, u->name, u->path, "is larger than the unpacked-size limit");
	if ((hl = archive_entry_hardlink(e))) {
		if (check_hardlink(u, e, hl) != 0)
			return -1;
	} else if (type == AE_IFLNK) {
		if (!ptb_extract_link_ok(*rest, archive_entry_symlink(e)))
			return refuse(u->err, u->name, u->path, "is a symlink that leads outside the prefix");
	}
	return 1;
}

/* Copy the current regular file's data to disk, counting every byte
 * against the unpacked-size limit.  0, or -1 with u->err set. */
static int copy_data(struct unpack *u)
{
	const void *buf;
	size_t len;
	la_int64_t off;
	int r;

	while ((r = archive_read_data_block(u->a, &buf, &len, &off)) == ARCHIVE_OK) {
		u->nbytes += len;
		if (u->nbytes > u->lim->max_bytes) {
			ptb_err_set(u->err, PTB_EIO, "refusing archive of '%s': it unpacks to more than %llu bytes",
			            u->name, (unsigned long long)u->lim->max_bytes);
			ptb_err_hint(u->err, "nothing was installed; this looks like an archive bomb");
			return -1;
		}
		if (archive_write_data_block(u->w, buf, len, off) != ARCHIVE_OK) {
			ptb_err_set(u->err, PTB_EIO, "cannot extract '%s' from the archive of '%s': %s",
			            u->path, u->name, why(u->w, u->wbuf, sizeof u->wbuf));
			return -1;
		}
	}
	if (r != ARCHIVE_EOF) {
		ptb_err_set(u->err, PTB_EIO, "cannot read '%s' in the archive of '%s': %s",
		            u->path, u->name, why(u->a, u->wbuf, sizeof u->wbuf));
		return -1;
	}
	return 0;
}

/* Write one checked entry as `rest` (LICENSE to its licence folder) with
 * safe permissions, its data and all.  0, or -1 with u->err set. */
static int write_entry(struct unpack *u, struct archive_entry *e, const char *rest)
{
	mode_t type = archive_entry_filetype(e);
	int link = archive_entry_hardlink(e) != NULL;

	/* Never set-id, sticky or writable by others; always ours to
	 * remove later. */
	if (type == AE_IFDIR)
		archive_entry_set_perm(e, (archive_entry_perm(e) & 0755) | 0700);
	else if (type == AE_IFREG)
		archive_entry_set_perm(e, (archive_entry_perm(e) & 0755) | 0600);
	/* libarchive makes the missing folders (and refuses to make
	 * them through a symlink). */
	archive_entry_set_pathname(e, strcmp(rest, "LICENSE") == 0 ? u->lic : rest);
	if (archive_write_header(u->w, e) != ARCHIVE_OK) {
		ptb_err_set(u->err, PTB_EIO, "cannot extract '%s' from the archive of '%s': %s",
		            u->path, u->name, why(u->w, u->wbuf, sizeof u->wbuf));
		ptb_err_hint(u->err, "nothing was installed");
		return -1;
	}
	if (type == AE_IFREG && !link && copy_data(u) != 0)
		return -1;
	if (archive_write_finish_entry(u->w) != ARCHIVE_OK) {
		ptb_err_set(u->err, PTB_EIO, "cannot extract '%s' from the archive of '%s': %s",
		            u->path, u->name, why(u->w, u->wbuf, sizeof u->wbuf));
		return -1;
	}
	if (type == AE_IFREG && !link && archive_entry_size(e) > 0)
		write_back(archive_entry_pathname(e), (uint64_t)archive_entry_size(e));
	return 0;
}

/* Check and write every entry, then close the writer.  0, or -1 with
 * u->err set. */
static int unpack_entries(struct unpack *u)
{
	struct archive_entry *e;
	const char *rest = NULL;
	int r, c;

	while ((r = archive_read_next_header(u->a, &e)) == ARCHIVE_OK) {
		if ((c = check_entry(u, e, &rest)) < 0)
			return -1;
		if (c > 0 && write_entry(u, e, rest) != 0)
			return -1;
	}
	if (r != ARCHIVE_EOF) {
		ptb_err_set(u->err, PTB_EIO, "cannot read the archive of '%s': %s", u->name,
		            why(u->a, u->wbuf, sizeof u->wbuf));
		if (u->nentries == 0 && archive_errno(u->a) == EILSEQ)
			ptb_err_hint(u->err, "components are unpacked from tar archives (.tar.xz, .tar.gz); nothing was installed");
		return -1;
	}
	if (archive_write_close(u->w) != ARCHIVE_OK) {
		ptb_err_set(u->err, PTB_EIO, "cannot finish extracting '%s': %s", u->name,
		            why(u->w, u->wbuf, sizeof u->wbuf));
		return -1;
	}
	return 0;
}

int ptb_extract_stream(int fd, int notify, const char *archive, const char *root,
                       const char *name, const struct ptb_extract_limits *lim,
                       char sha256_out[65], struct ptb_err *err)
{
	int open_errno = errno;
	struct src *in = NULL;
	struct unpack u = { .name = name, .lim = lim, .err = err };
	const char *no;
	int rc = -1;

	if (sha256_out)
		sha256_out[0] = '\0';
	in = ptb_xcalloc(1, sizeof *in);
	in->fd = fd;
	in->notify = notify;
	in->total = -1;
	ptb_sha256_init(&in->sha);
	if (!ptb_fetch_name_ok(name, &no)) {
		/* The readers refuse such names; never let one reach a path. */
		ptb_err_set(err, PTB_EIO, "refusing to unpack component '%s': its name %s", name, no);
		goto early;
	}
	if (ptb_archive_load() != 0) {
		ptb_err_set(err, PTB_EIO, "extracting '%s' needs libarchive, which cannot be loaded: %s",
		            name, ptb_archive_error());
		goto early;
	}
	u.a = archive_read_new();
	u.w = archive_write_disk_new();
	if (!u.a || !u.w)
		ptb_oom();
	if (open_archive(&u, in, root, archive, open_errno) == 0 && unpack_entries(&u) == 0)
		rc = 0;
	free(u.top);
	free(u.lic);
	free(u.path);
	free(u.norm);
	free(u.hnorm);
	archive_read_free(u.a);
	archive_write_free(u.w);
early:
	if (rc != 0 && in && in->err)
		ptb_err_set(err, PTB_EIO, "cannot read the archive of '%s' ('%s'): %s", name, archive, strerror(in->err));
	if (in && in->fd >= 0) {
		/* The whole file, also after a refusal: a damaged copy must be
		 * told apart from a hostile archive. */
		if (sha256_out)
			drain(in, sha256_out);
		close(in->fd);
	}
	free(in);
	return rc;
}
