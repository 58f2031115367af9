/* fetch.h - download, verify, cache and install pieces named by a plan.
 *
 * The unit of work is an item: a URL with the size and sha256 it must have.
 * Items come from an NVIDIA redist manifest (manifest.c), a lock file
 * (lock.c) or the plan (ptb_fetch_items_from_plan, wired by cmd/fetch.c).
 * download.c brings them into a content-addressed cache (libcurl multi);
 * extract.c unpacks archives into a staging tree with libarchive and its
 * own path checks; install.c renames the tree into place.
 *
 * Ownership: a struct ptb_fetch_list owns its items and their strings;
 * free with ptb_fetch_list_free(). */
#ifndef PTB_FETCH_H
#define PTB_FETCH_H

#include <signal.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "util/util.h"

struct ptb_progress;

enum ptb_item_kind {
	PTB_ITEM_ARCHIVE,  /* a .tar.* with one top folder: merged into the prefix */
	PTB_ITEM_FILE,     /* kept whole (runfile, source tarball): prefix/downloads/ */
};

struct ptb_fetch_item {
	char *name;        /* component name, e.g. "cuda_nvcc" */
	char *version;     /* may be NULL */
	char *url;
	char sha256[65];   /* lowercase hex */
	int64_t size;      /* bytes; -1 when unknown (sha256 still required) */
	enum ptb_item_kind kind;
	/* filled by the download: the file in the cache */
	char *path;
	int from_cache;    /* path was found in the cache, not downloaded now */
	int damaged;       /* path did not hash to sha256: evicted */
	int streamed;      /* being unpacked as it downloads (install.c) */
};

struct ptb_fetch_list {
	struct ptb_fetch_item *items;
	size_t n, cap;
	char *platform;          /* linux-x86_64 | linux-sbsa | ... */
	char *manifest_url;      /* NULL for a list not made from a manifest */
	char manifest_sha256[65];
};

void ptb_fetch_list_free(struct ptb_fetch_list *l);
struct ptb_fetch_item *ptb_fetch_list_add(struct ptb_fetch_list *l);
int ptb_fetch_is_sha256(const char *s);

/* A component name as every reader (manifest, lock, plan) takes it: it
 * names the folder share/licenses/<name> and appears in messages, so it
 * is a plain file name: not empty, at most 255 bytes, no '/', not "." or
 * "..", no control characters.  1 when fine, else 0 with *why a phrase
 * ("is not a plain name ..."). */
int ptb_fetch_name_ok(const char *name, const char **why);

/* --- manifest.c ------------------------------------------------------ */

struct ptb_manifest_sel {
	const char *platform;           /* required */
	const char *const *components;  /* NULL: every component with the platform */
	size_t ncomponents;
	const char *variant;            /* "cuda12", "12", "13.1"; NULL: the only one */
	const char *cuda;               /* CUDA version used to pick a variant */
};

/* Select items from a parsed NVIDIA manifest.  base is the URL that
 * relative_path is relative to (the manifest's directory, with '/').
 * src names the manifest in messages.  Refuses a malformed manifest naming
 * the component and the key, a component key that is not a plain name
 * (ptb_fetch_name_ok), an unknown component or one without the platform;
 * all PTB_EUSAGE (a bad input file). */
int ptb_manifest_select(const cJSON *manifest, const char *src, const char *base,
                        const struct ptb_manifest_sel *sel,
                        struct ptb_fetch_list *out, struct ptb_err *err);

/* --- lock.c ---------------------------------------------------------- */

/* Build the ptbuild.lock/1 document for a list. */
cJSON *ptb_lock_doc(const struct ptb_fetch_list *l);
int ptb_lock_write(const char *path, const struct ptb_fetch_list *l,
                   struct ptb_err *err);
int ptb_lock_read(const char *path, struct ptb_fetch_list *out,
                  struct ptb_err *err);

/* --- plan_items.c (the plan hook) ------------------------------------ */

/* Items a ptbuild.plan/1 document names: cuda.downloads[] (archives unless
 * "kind": "file") and openblas.source (a file). */
int ptb_fetch_items_from_plan(const cJSON *plan, struct ptb_fetch_list *out,
                              struct ptb_err *err);

/* --- curl_dl.c ------------------------------------------------------- */

/* libcurl is loaded on first use (see curl_dl.c); 0, or -1 with the
 * reason in ptb_curl_error(). */
int ptb_curl_load(void);
const char *ptb_curl_error(void);

/* --- download.c ------------------------------------------------------ */

struct ptb_net_opts {
	int jobs;                 /* parallel transfers */
	int allow_http;           /* an explicit http:// mirror or manifest */
	int allow_file;           /* an explicit file:// mirror or manifest */
	int offline;              /* cache only */
	int retries;              /* attempts after the first */
	long retry_delay_ms;      /* first backoff; doubles, capped at 30 s */
	long low_speed_time;      /* seconds under 1 KiB/s before giving up */
	long connect_timeout;     /* seconds */
	int progress;             /* 0 none, 1 a line per item, 2 terminal bar */
	struct ptb_progress *prog;  /* the caller's, or NULL: made per call */
	int *unreachable;         /* the caller's, or NULL: set to 1 when a
	                             host or proxy could not be reached */
	const struct ptb_fetch_stream *stream;   /* or NULL */
};

/* Unpacking while the bytes come in.  begin (with the ud of
 * ptb_fetch_all) is offered each archive as its download starts, with
 * the partial file; it returns the write end of a pipe to tell the reader
 * the verified size (ptb_extract_stream's notify), or -1 when the archive
 * is to be unpacked from the cache after all (ready as usual).  The size
 * is sent only after the sha256 matched; a download that is retried or
 * restarted closes the pipe without it and calls abandon. */
struct ptb_fetch_stream {
	int (*begin)(void *ud, struct ptb_fetch_item *it, const char *part);
	void (*abandon)(void *ud, struct ptb_fetch_item *it);
};

void ptb_net_opts_default(struct ptb_net_opts *o);

/* The cache root: dir if given, else $XDG_CACHE_HOME/ptbuild, else
 * ~/.cache/ptbuild.  Caller frees. */
char *ptb_cache_dir(const char *dir);

/* A small document (a manifest) into memory.  Cached by URL under
 * cache/manifests so --offline can reuse it; when pin is a sha256 the
 * bytes must match it.  sha256_out gets the hash of what was read. */
int ptb_fetch_small(const char *url, const char *cache, const char *pin,
                    const struct ptb_net_opts *o, struct ptb_buf *out,
                    char sha256_out[65], struct ptb_err *err);

/* Called in the parent as soon as an item is verified in the cache;
 * returns 0, or -1 with err to stop everything. */
typedef int (*ptb_fetch_ready_fn)(void *ud, struct ptb_fetch_item *it,
                                  struct ptb_err *err);
/* Called while waiting, so extraction children can be reaped. */
typedef int (*ptb_fetch_poll_fn)(void *ud, struct ptb_err *err);

/* Bring every item into the cache (item->path set).  Items already there
 * (verified by hash) are not downloaded.  Stops on the first failure. */
int ptb_fetch_all(struct ptb_fetch_list *l, const char *cache,
                  const struct ptb_net_opts *o,
                  ptb_fetch_ready_fn ready, ptb_fetch_poll_fn poll, void *ud,
                  struct ptb_err *err);

/* A file in the cache is trusted only while it hashes to its name: the
 * unpacking child hashes the archive as it reads it, the rest call
 * ptb_fetch_verify.  ptb_fetch_damaged evicts it->path (the next online
 * run downloads it again), sets it->damaged and says so in err, naming the
 * cache file and both hashes (PTB_EIO). */
void ptb_fetch_damaged(struct ptb_fetch_item *it, const char *got, struct ptb_err *err);
/* Hash it->path whole: 0 when it matches, else ptb_fetch_damaged. */
int ptb_fetch_verify(struct ptb_fetch_item *it, struct ptb_err *err);

/* Set by SIGINT/SIGTERM (ptb_fetch_catch_signals); the transfer loop and
 * the wait for unpacking stop at the next turn and clean up. */
extern volatile sig_atomic_t ptb_fetch_stop;
void ptb_fetch_catch_signals(void);

/* --- extract.c ------------------------------------------------------- */

struct ptb_extract_limits {
	uint64_t max_entries;     /* per archive */
	uint64_t max_bytes;       /* unpacked bytes per archive */
};

/* Unpack archive into the directory root (which must exist), stripping
 * the single top folder.  Refuses absolute names, '..', links that lead
 * outside root, hard links to symlinks, device nodes, FIFOs and sockets.
 * A top-level LICENSE goes to share/licenses/<name>/.  Changes the cwd of
 * the calling process (run it in a child).  sha256_out (or NULL) gets the
 * hash of the whole file, read once for unpacking and hashing alike, also
 * when the archive is refused; "" when it could not be opened. */
int ptb_extract(const char *archive, const char *root, const char *name,
                const struct ptb_extract_limits *lim, char sha256_out[65],
                struct ptb_err *err);

/* The same from fd (taken over and closed; -1 with errno set when archive
 * could not be opened), a file that may still be growing when notify is
 * not -1: at its end the reader waits for the writer to send the final
 * size on notify (an int64_t) and stops there; notify closed without one
 * fails the read (ECANCELED).  archive names the file in messages. */
int ptb_extract_stream(int fd, int notify, const char *archive, const char *root,
                       const char *name, const struct ptb_extract_limits *lim,
                       char sha256_out[65], struct ptb_err *err);

/* An archive entry name in its one spelling: empty and "." elements and
 * trailing slashes dropped, elements joined by one '/' ("" for the root
 * itself).  NULL with *why set (a phrase: "contains '..'") when the name
 * is empty, absolute or has a ".." element.  Caller frees. */
char *ptb_extract_norm(const char *name, const char **why);

/* Check a symlink target written at entry path `link` (relative to the
 * root, already stripped): 0 when it stays inside the root.  The link's
 * depth is that of its normalised name; a link with ".." is refused. */
int ptb_extract_link_ok(const char *link, const char *target);

#endif
