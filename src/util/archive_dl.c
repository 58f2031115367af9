/* archive_dl.c - libarchive, loaded when extract or inspect first needs it.
 *
 * libarchive drags in libxml2, ICU (30 MB of data tables), libstdc++,
 * liblzma, libzstd, liblz4, libbz2, libz, libacl and libnettle: 13 of the
 * 19 shared objects ptbuild mapped at every start (ldd, Debian 12), and most of the dynamic
 * loader's relocations.  Only `fetch` (extracting) and `inspect`/`doctor`
 * (zstd-compressed fat binaries) use it, so the entry points they call are
 * defined here with libarchive's own prototypes (archive.h checks them) and
 * forward to the real ones, found with dlopen/dlsym on the first call.
 * configure still checks the headers and version through pkg-config.
 *
 * The soname: libarchive 3.x has been libarchive.so.13 throughout; the
 * development link libarchive.so is the fallback. */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <stddef.h>

#include "util/archive_dl.h"
#include "util/dl.h"

static struct ptb_dl dl;

static struct {
	__LA_MODE_T (*entry_filetype)(struct archive_entry *);
	const char *(*entry_hardlink)(struct archive_entry *);
	const char *(*entry_pathname)(struct archive_entry *);
	__LA_MODE_T (*entry_perm)(struct archive_entry *);
	void (*entry_set_hardlink)(struct archive_entry *, const char *);
	void (*entry_set_pathname)(struct archive_entry *, const char *);
	void (*entry_set_perm)(struct archive_entry *, __LA_MODE_T);
	la_int64_t (*entry_size)(struct archive_entry *);
	const char *(*entry_symlink)(struct archive_entry *);
	int (*errno_)(struct archive *);
	const char *(*error_string)(struct archive *);
	la_ssize_t (*read_data)(struct archive *, void *, size_t);
	int (*read_data_block)(struct archive *, const void **, size_t *, la_int64_t *);
	int (*read_free)(struct archive *);
	struct archive *(*read_new)(void);
	int (*read_next_header)(struct archive *, struct archive_entry **);
	int (*read_open)(struct archive *, void *, archive_open_callback *,
	                 archive_read_callback *, archive_close_callback *);
	int (*read_open_filename)(struct archive *, const char *, size_t);
	int (*read_open_memory)(struct archive *, const void *, size_t);
	int (*read_support_filter_all)(struct archive *);
	int (*read_support_filter_zstd)(struct archive *);
	int (*read_support_format_gnutar)(struct archive *);
	int (*read_support_format_raw)(struct archive *);
	int (*read_support_format_tar)(struct archive *);
	int (*write_close)(struct archive *);
	la_ssize_t (*write_data_block)(struct archive *, const void *, size_t, la_int64_t);
	struct archive *(*write_disk_new)(void);
	int (*write_disk_set_options)(struct archive *, int);
	int (*write_finish_entry)(struct archive *);
	int (*write_free)(struct archive *);
	int (*write_header)(struct archive *, struct archive_entry *);
} f;

int ptb_archive_load(void)
{
	static const char *const names[] = { "libarchive.so.13", "libarchive.so" };
#define SYM(field, name) { name, (void **)&f.field }
	static const struct ptb_dl_sym syms[] = {
		SYM(entry_filetype, "archive_entry_filetype"),
		SYM(entry_hardlink, "archive_entry_hardlink"),
		SYM(entry_pathname, "archive_entry_pathname"),
		SYM(entry_perm, "archive_entry_perm"),
		SYM(entry_set_hardlink, "archive_entry_set_hardlink"),
		SYM(entry_set_pathname, "archive_entry_set_pathname"),
		SYM(entry_set_perm, "archive_entry_set_perm"),
		SYM(entry_size, "archive_entry_size"),
		SYM(entry_symlink, "archive_entry_symlink"),
		SYM(errno_, "archive_errno"),
		SYM(error_string, "archive_error_string"),
		SYM(read_data, "archive_read_data"),
		SYM(read_data_block, "archive_read_data_block"),
		SYM(read_free, "archive_read_free"),
		SYM(read_new, "archive_read_new"),
		SYM(read_next_header, "archive_read_next_header"),
		SYM(read_open, "archive_read_open"),
		SYM(read_open_filename, "archive_read_open_filename"),
		SYM(read_open_memory, "archive_read_open_memory"),
		SYM(read_support_filter_all, "archive_read_support_filter_all"),
		SYM(read_support_filter_zstd, "archive_read_support_filter_zstd"),
		SYM(read_support_format_gnutar, "archive_read_support_format_gnutar"),
		SYM(read_support_format_raw, "archive_read_support_format_raw"),
		SYM(read_support_format_tar, "archive_read_support_format_tar"),
		SYM(write_close, "archive_write_close"),
		SYM(write_data_block, "archive_write_data_block"),
		SYM(write_disk_new, "archive_write_disk_new"),
		SYM(write_disk_set_options, "archive_write_disk_set_options"),
		SYM(write_finish_entry, "archive_write_finish_entry"),
		SYM(write_free, "archive_write_free"),
		SYM(write_header, "archive_write_header"),
	};
#undef SYM

	return ptb_dl_load(&dl, "libarchive", names, sizeof names / sizeof *names,
	                   syms, sizeof syms / sizeof *syms);
}

const char *ptb_archive_error(void)
{
	return dl.why[0] ? dl.why : "libarchive could not be loaded";
}

/* The constructors load on demand and fail (NULL) when the library is
 * missing; every other entry point takes a struct archive or entry, which
 * only exists once a constructor succeeded, so the library is loaded. */
struct archive *archive_read_new(void)
{
	return ptb_archive_load() == 0 ? f.read_new() : NULL;
}

struct archive *archive_write_disk_new(void)
{
	return ptb_archive_load() == 0 ? f.write_disk_new() : NULL;
}

__LA_MODE_T archive_entry_filetype(struct archive_entry *e) { return f.entry_filetype(e); }
const char *archive_entry_hardlink(struct archive_entry *e) { return f.entry_hardlink(e); }
const char *archive_entry_pathname(struct archive_entry *e) { return f.entry_pathname(e); }
__LA_MODE_T archive_entry_perm(struct archive_entry *e) { return f.entry_perm(e); }
void archive_entry_set_hardlink(struct archive_entry *e, const char *s) { f.entry_set_hardlink(e, s); }
void archive_entry_set_pathname(struct archive_entry *e, const char *s) { f.entry_set_pathname(e, s); }
void archive_entry_set_perm(struct archive_entry *e, __LA_MODE_T m) { f.entry_set_perm(e, m); }
la_int64_t archive_entry_size(struct archive_entry *e) { return f.entry_size(e); }
const char *archive_entry_symlink(struct archive_entry *e) { return f.entry_symlink(e); }
int archive_errno(struct archive *a) { return f.errno_(a); }
const char *archive_error_string(struct archive *a) { return f.error_string(a); }
la_ssize_t archive_read_data(struct archive *a, void *p, size_t n) { return f.read_data(a, p, n); }
int archive_read_data_block(struct archive *a, const void **p, size_t *n, la_int64_t *off)
{
	return f.read_data_block(a, p, n, off);
}
int archive_read_free(struct archive *a) { return a ? f.read_free(a) : ARCHIVE_OK; }
int archive_read_next_header(struct archive *a, struct archive_entry **e) { return f.read_next_header(a, e); }
int archive_read_open(struct archive *a, void *ud, archive_open_callback *o, archive_read_callback *r,
                      archive_close_callback *c)
{
	return f.read_open(a, ud, o, r, c);
}
int archive_read_open_filename(struct archive *a, const char *p, size_t bs) { return f.read_open_filename(a, p, bs); }
int archive_read_open_memory(struct archive *a, const void *p, size_t n) { return f.read_open_memory(a, p, n); }
int archive_read_support_filter_all(struct archive *a) { return f.read_support_filter_all(a); }
int archive_read_support_filter_zstd(struct archive *a) { return f.read_support_filter_zstd(a); }
int archive_read_support_format_gnutar(struct archive *a) { return f.read_support_format_gnutar(a); }
int archive_read_support_format_raw(struct archive *a) { return f.read_support_format_raw(a); }
int archive_read_support_format_tar(struct archive *a) { return f.read_support_format_tar(a); }
int archive_write_close(struct archive *a) { return f.write_close(a); }
la_ssize_t archive_write_data_block(struct archive *a, const void *p, size_t n, la_int64_t off)
{
	return f.write_data_block(a, p, n, off);
}
int archive_write_disk_set_options(struct archive *a, int fl) { return f.write_disk_set_options(a, fl); }
int archive_write_finish_entry(struct archive *a) { return f.write_finish_entry(a); }
int archive_write_free(struct archive *a) { return a ? f.write_free(a) : ARCHIVE_OK; }
int archive_write_header(struct archive *a, struct archive_entry *e) { return f.write_header(a, e); }
