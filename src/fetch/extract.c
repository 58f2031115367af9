/* extract.c - unpack one archive into a staging tree, safely.
 *
 * libarchive does the writing with its three SECURE flags (no '..', no
 * absolute names, nothing written through a symlink on disk).  It does not
 * look at where a symlink points, nor refuse a hard link to a symlink, a
 * device node or a bomb; the checks here do.  Ownership, ACLs, xattrs and
 * set-id bits are never restored. */
#include "fetch/fetch.h"
#include "util/archive_dl.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A name is refused when absolute, empty, or when any element is "..". */
static int name_ok(const char *p)
{
	const char *s = p;

	if (!p || !*p || *p == '/')
		return 0;
	while (*s) {
		size_t n = strcspn(s, "/");

		if (n == 2 && s[0] == '.' && s[1] == '.')
			return 0;
		s += n;
		while (*s == '/')
			s++;
	}
	return 1;
}

int ptb_extract_link_ok(const char *link, const char *target)
{
	int depth = 0, ups = 0, down = 0;
	const char *s;

	if (!target || !*target || *target == '/')
		return 0;
	/* Depth of the directory the link sits in. */
	for (s = link; *s;) {
		size_t n = strcspn(s, "/");

		if (s[n] == '/' && !(n == 1 && s[0] == '.') && n > 0)
			depth++;
		s += n;
		while (*s == '/')
			s++;
	}
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
 * ("Write failed: No space left on device"). */
static const char *why(struct archive *a, char *buf, size_t n)
{
	const char *m = archive_error_string(a);
	int e = archive_errno(a);

	if (!m)
		m = "unknown error";
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

/* Strip the archive's top folder; NULL when the entry is the folder. */
static const char *strip_top(const char *p, char **top, int *bad)
{
	const char *slash;

	*bad = 0;
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	slash = strchr(p, '/');
	if (!slash) {
		if (*top && strcmp(*top, p) != 0)
			*bad = 1;
		if (!*top)
			*top = ptb_xstrdup(p);
		return NULL;
	}
	if (!*top)
		*top = ptb_xstrndup(p, (size_t)(slash - p));
	else if (strlen(*top) != (size_t)(slash - p) || strncmp(*top, p, (size_t)(slash - p)) != 0)
		*bad = 1;
	while (*slash == '/')
		slash++;
	return *slash ? slash : NULL;
}

int ptb_extract(const char *archive, const char *root, const char *name,
                const struct ptb_extract_limits *lim, struct ptb_err *err)
{
	struct archive *a, *w;
	struct archive_entry *e;
	char *top = NULL, *lic = NULL;
	uint64_t nentries = 0, nbytes = 0;
	char wbuf[512];
	int r, rc = -1;

	if (ptb_archive_load() != 0) {
		ptb_err_set(err, PTB_EIO, "extracting '%s' needs libarchive, which cannot be loaded: %s",
		            name, ptb_archive_error());
		return -1;
	}
	a = archive_read_new();
	w = archive_write_disk_new();
	if (!a || !w)
		ptb_oom();
	if (chdir(root) != 0) {
		ptb_err_set(err, PTB_EIO, "cannot enter '%s': %s", root, strerror(errno));
		goto out;
	}
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	archive_write_disk_set_options(w, ARCHIVE_EXTRACT_SECURE_SYMLINKS |
	                                  ARCHIVE_EXTRACT_SECURE_NODOTDOT |
	                                  ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS);
	if (archive_read_open_filename(a, archive, 1 << 16) != ARCHIVE_OK) {
		ptb_err_set(err, PTB_EIO, "cannot read the archive of '%s': %s", name, why(a, wbuf, sizeof wbuf));
		goto out;
	}
	lic = ptb_xasprintf("share/licenses/%s/LICENSE", name);
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *path = archive_entry_pathname(e), *rest, *hl, *sl;
		mode_t type = archive_entry_filetype(e);
		int bad;

		if (!path)
			path = "";
		if (++nentries > lim->max_entries) {
			ptb_err_set(err, PTB_EIO, "refusing archive of '%s': more than %llu entries",
			            name, (unsigned long long)lim->max_entries);
			ptb_err_hint(err, "nothing was installed; PTBUILD_MAX_ENTRIES raises the limit");
			goto out;
		}
		if (!name_ok(path)) {
			refuse(err, name, path, *path == '/' ? "is an absolute path" : "contains '..'");
			goto out;
		}
		if (!archive_entry_hardlink(e) && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK) {
			refuse(err, name, path, "is a device node, FIFO or socket");
			goto out;
		}
		rest = strip_top(path, &top, &bad);
		if (bad) {
			refuse(err, name, path, "is outside the archive's single top folder");
			goto out;
		}
		if (!rest) {
			if (type != AE_IFDIR) {
				refuse(err, name, path, "is outside the archive's single top folder");
				goto out;
			}
			continue;
		}
		if (archive_entry_size(e) > 0 && (uint64_t)archive_entry_size(e) > lim->max_bytes) {
			refuse(err, name, path, "is larger than the unpacked-size limit");
			goto out;
		}
		if ((hl = archive_entry_hardlink(e))) {
			const char *hrest;
			char *htop = ptb_xstrdup(top);
			struct stat st;

			if (!name_ok(hl)) {
				free(htop);
				refuse(err, name, path, "is a hard link to an absolute path or through '..'");
				goto out;
			}
			hrest = strip_top(hl, &htop, &bad);
			free(htop);
			if (bad || !hrest) {
				refuse(err, name, path, "is a hard link outside the archive's top folder");
				goto out;
			}
			if (lstat(hrest, &st) != 0 || !S_ISREG(st.st_mode)) {
				refuse(err, name, path, "is a hard link to a symlink, a folder or nothing");
				goto out;
			}
			archive_entry_set_hardlink(e, hrest);
		} else if (type == AE_IFLNK) {
			sl = archive_entry_symlink(e);
			if (!ptb_extract_link_ok(rest, sl)) {
				refuse(err, name, path, "is a symlink that leads outside the prefix");
				goto out;
			}
		}
		/* Never set-id, sticky or writable by others; always ours to
		 * remove later. */
		if (type == AE_IFDIR)
			archive_entry_set_perm(e, (archive_entry_perm(e) & 0755) | 0700);
		else if (type == AE_IFREG)
			archive_entry_set_perm(e, (archive_entry_perm(e) & 0755) | 0600);
		archive_entry_set_pathname(e, strcmp(rest, "LICENSE") == 0 ? lic : rest);
		if (strcmp(rest, "LICENSE") == 0) {
			char *d = ptb_xasprintf("share/licenses/%s", name);
			if (ptb_mkdir_p(d, 0755, err) != 0) {
				free(d);
				goto out;
			}
			free(d);
		}
		if (archive_write_header(w, e) != ARCHIVE_OK) {
			ptb_err_set(err, PTB_EIO, "cannot extract '%s' from the archive of '%s': %s",
			            path, name, why(w, wbuf, sizeof wbuf));
			ptb_err_hint(err, "nothing was installed");
			goto out;
		}
		if (type == AE_IFREG && !hl) {
			const void *buf;
			size_t len;
			la_int64_t off;

			while ((r = archive_read_data_block(a, &buf, &len, &off)) == ARCHIVE_OK) {
				nbytes += len;
				if (nbytes > lim->max_bytes) {
					ptb_err_set(err, PTB_EIO, "refusing archive of '%s': it unpacks to more than %llu bytes",
					            name, (unsigned long long)lim->max_bytes);
					ptb_err_hint(err, "nothing was installed; this looks like an archive bomb");
					goto out;
				}
				if (archive_write_data_block(w, buf, len, off) != ARCHIVE_OK) {
					ptb_err_set(err, PTB_EIO, "cannot extract '%s' from the archive of '%s': %s",
					            path, name, why(w, wbuf, sizeof wbuf));
					goto out;
				}
			}
			if (r != ARCHIVE_EOF) {
				ptb_err_set(err, PTB_EIO, "cannot read '%s' in the archive of '%s': %s",
				            path, name, why(a, wbuf, sizeof wbuf));
				goto out;
			}
		}
		if (archive_write_finish_entry(w) != ARCHIVE_OK) {
			ptb_err_set(err, PTB_EIO, "cannot extract '%s' from the archive of '%s': %s",
			            path, name, why(w, wbuf, sizeof wbuf));
			goto out;
		}
	}
	if (r != ARCHIVE_EOF) {
		ptb_err_set(err, PTB_EIO, "cannot read the archive of '%s': %s", name, why(a, wbuf, sizeof wbuf));
		goto out;
	}
	if (archive_write_close(w) != ARCHIVE_OK) {
		ptb_err_set(err, PTB_EIO, "cannot finish extracting '%s': %s", name, why(w, wbuf, sizeof wbuf));
		goto out;
	}
	rc = 0;
out:
	free(top);
	free(lic);
	archive_read_free(a);
	archive_write_free(w);
	return rc;
}
