/* util.h - errors, memory, growable buffers and files shared by every module.
 *
 * Ownership: functions returning char * or filling a struct ptb_buf hand the
 * memory to the caller (free() / ptb_buf_free()).  Out-of-memory never
 * returns: ptb_oom() prints one line and aborts, the only place that does. */
#ifndef PTB_UTIL_H
#define PTB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>

/* Exit codes, the contract in DESIGN.md. */
enum ptb_status {
	PTB_OK = 0,
	PTB_EFOUND = 1,   /* the plan, arch check or doctor found errors */
	PTB_EUSAGE = 2,   /* bad command line or bad user value */
	PTB_ERECIPE = 3,  /* recipe or data error */
	PTB_EIO = 4,      /* fetch, archive or I/O error */
	PTB_EVALID = 5,   /* validation failed */
};

/* A caller-owned error: lower layers fill it and never print. */
struct ptb_err {
	int code;          /* an enum ptb_status */
	char msg[1024];
	char hint[512];    /* optional: what to do about it */
};

void ptb_err_set(struct ptb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ptb_err_hint(struct ptb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ptb_err_clear(struct ptb_err *err);

_Noreturn void ptb_oom(void);
/* End a forked child: _exit(code), after writing coverage data in a
 * --enable-coverage build (children that _exit lose it otherwise). */
_Noreturn void ptb_child_exit(int code);
void *ptb_xmalloc(size_t n);
void *ptb_xcalloc(size_t n, size_t size);
void *ptb_xrealloc(void *p, size_t n);
char *ptb_xstrdup(const char *s);
char *ptb_xstrndup(const char *s, size_t n);
char *ptb_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct ptb_buf {
	char *data;     /* always NUL-terminated once anything was added */
	size_t len;
	size_t cap;
};

void ptb_buf_init(struct ptb_buf *b);
void ptb_buf_free(struct ptb_buf *b);
void ptb_buf_reset(struct ptb_buf *b);
void ptb_buf_add(struct ptb_buf *b, const void *data, size_t n);
void ptb_buf_adds(struct ptb_buf *b, const char *s);
void ptb_buf_addc(struct ptb_buf *b, char c);
void ptb_buf_printf(struct ptb_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ptb_buf_vprintf(struct ptb_buf *b, const char *fmt, va_list ap);
char *ptb_buf_detach(struct ptb_buf *b);  /* caller frees; b is reset */

/* Open a file for reading without ever waiting: what is not a regular file
 * (a FIFO with no writer blocks open and read for good, a device such as
 * /dev/zero never ends, a socket cannot be opened) is refused before and
 * after the open (O_NONBLOCK, then fstat), never read.  With
 * PTB_OPEN_NOFOLLOW a symlink as the last component is refused too (for
 * paths whose links were already resolved).  procfs and sysfs files are
 * regular files of size 0 and pass: read them to EOF.  Returns a blocking
 * close-on-exec descriptor with *st filled (st may be NULL); -1 when it
 * cannot be opened, -2 when it exists but is not a regular file, both
 * with err "cannot read 'PATH': is a FIFO (named pipe), not a regular
 * file" (PTB_EIO). */
#define PTB_OPEN_NOFOLLOW 1
int ptb_file_open_read(const char *path, int flags, struct stat *st,
                       struct ptb_err *err);
/* "a FIFO (named pipe)", "a character device", "a directory"... */
const char *ptb_file_kind(mode_t mode);

/* Read a whole regular file (opened with ptb_file_open_read), at most max
 * bytes (0: 64 MiB).  Returns 0, or -1 with err naming the file and what
 * it is or how large (PTB_EIO). */
int ptb_file_read(const char *path, size_t max, struct ptb_buf *out,
                  struct ptb_err *err);

/* Write data to path through a temporary file in the same directory and
 * rename(2): readers see the old content or the new, never half.  When
 * only_if_changed is set and the file already holds exactly these bytes,
 * nothing is written and *changed (if given) is 0. */
int ptb_file_write_atomic(const char *path, const void *data, size_t len,
                          int mode, int only_if_changed, int *changed,
                          struct ptb_err *err);

int ptb_path_is_dir(const char *path);
int ptb_path_is_file(const char *path);
char *ptb_path_join(const char *a, const char *b);
/* mkdir -p; 0 or -1 with err. */
int ptb_mkdir_p(const char *path, int mode, struct ptb_err *err);

#endif
