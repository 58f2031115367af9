/* root.h - reading a machine's files below a sysroot.  Paths given here
 * are as seen on that machine ("/etc/os-release"); symlinks are followed
 * inside the root, so an absolute link in a sysroot never escapes to the
 * host.  With dir "/" this is plain file access to this host.
 *
 * Ownership: returned strings and arrays are the caller's (free,
 * ptb_root_names_free). */
#ifndef PTB_DETECT_ROOT_H
#define PTB_DETECT_ROOT_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "util/util.h"

/* What one detect run reads of compiler files in all, to find versions
 * in their bytes (ptb_root_elf_strings with scan_left): a gcc driver is
 * 1-2 MiB, a libclang-cpp some hundred; a sysroot of many huge
 * "compilers" costs this much, not 512 MiB each. */
#define PTB_SCAN_BUDGET ((uint64_t)1 << 30)

struct ptb_root {
	const char *dir;   /* "/" for this host */
	int is_host;       /* dir is "/" */
	cJSON *notes;      /* NULL, or an array that gets a line for each file
	                    * not read (not a regular file) or cut (too large) */
	uint64_t *scan_left; /* NULL, or the bytes ptb_root_elf_strings may
	                      * still read in this detect run (shared by copies) */
};

/* The path with every symlink resolved, as seen inside the root; NULL when
 * some component does not exist (or the links loop). */
char *ptb_root_resolve(const struct ptb_root *r, const char *path);
/* The host path of a path inside the root (resolved); NULL when absent. */
char *ptb_root_host(const struct ptb_root *r, const char *path);

int ptb_root_is_dir(const struct ptb_root *r, const char *path);
int ptb_root_is_file(const struct ptb_root *r, const char *path);
int ptb_root_is_exec(const struct ptb_root *r, const char *path);
/* What path is, links followed ("a regular file", "a FIFO (named pipe)",
 * ptb_file_kind's words), or NULL when it does not exist (or its links
 * loop). */
const char *ptb_root_kind(const struct ptb_root *r, const char *path);
/* 1 when the directory has no entry but "." and "..", 0 when it has one
 * (the first found ends the read: a folder of a million names costs one
 * entry), -1 when it cannot be read, with *err (when err is not NULL) the
 * errno opendir gave (EACCES for a folder of mode 000, ENOTDIR for a
 * file, ENOENT when absent). */
int ptb_root_dir_empty(const struct ptb_root *r, const char *dir, int *err);

/* Read a whole file, at most max bytes (the bound for its kind): more is
 * cut, with a note.  0, or -1 when absent, unreadable or not a regular
 * file (never an error to report: a missing fact; a FIFO, device or
 * socket gets a note naming it and is never opened for a blocking read).
 * procfs and sysfs files (size 0) are read to EOF. */
int ptb_root_read(const struct ptb_root *r, const char *path, size_t max,
                  struct ptb_buf *out);
/* The same for the first max bytes only (a header, a first line): cutting
 * is what is asked, so no note for it. */
int ptb_root_head(const struct ptb_root *r, const char *path, size_t max,
                  struct ptb_buf *out);

/* Scan the first max bytes of a regular file for needle (a version string
 * in a binary): 0 with out holding the needle and up to tail bytes after
 * it (binary zeros included, out->len says), or -1 when not found, absent
 * or unreadable.  Reads in 1 MiB steps; never holds the whole file. */
int ptb_root_find(const struct ptb_root *r, const char *path, const char *needle,
                  size_t max, size_t tail, struct ptb_buf *out);

/* The distinct NUL-delimited strings of an ELF file that keep() accepts
 * (a compiler's version string: a run of printable bytes between two
 * NULs), each under 64 bytes, at most nmax of them, appended to arr.
 * Only a regular ELF file of at most max bytes is read, in 1 MiB steps;
 * one larger gets a note naming it.  With r->scan_left set, a file
 * larger than what is left of it is not read either (a note says so),
 * and the bytes read are taken from it.  Returns how many strings were
 * added, or -1 when the file is absent, not a regular file, not ELF or
 * too large (a missing fact, never an error). */
int ptb_root_elf_strings(const struct ptb_root *r, const char *path, size_t max,
                         int (*keep)(const char *s, size_t len), size_t nmax,
                         cJSON *arr);

/* The entry names of a directory, sorted, without "." and "..", keeping
 * those that start with prefix (may be NULL).  NULL-terminated; NULL
 * when the directory cannot be read. */
char **ptb_root_list(const struct ptb_root *r, const char *dir,
                     const char *prefix);
/* The same, keeping the names keep() accepts (unsorted work is done only
 * on those: a bin directory holds thousands of names). */
char **ptb_root_list_if(const struct ptb_root *r, const char *dir,
                        int (*keep)(const char *name));
void ptb_root_names_free(char **names);

/* e_machine of an ELF file as "x86_64" / "aarch64" / other names; NULL
 * when not an ELF file. */
const char *ptb_root_elf_machine(const struct ptb_root *r, const char *path);

#endif
