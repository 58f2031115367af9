/* install.h - the staging tree beside the prefix, extraction children and
 * the final rename.  An interrupted install leaves the old prefix (or
 * none), never half of one: everything is written into
 * <parent>/.<name>.ptb-stage.<pid> and swapped in by one rename.
 * Archives are unpacked in child processes (one per CPU) as soon as each
 * download is verified, while the other downloads go on. */
#ifndef PTB_INSTALL_H
#define PTB_INSTALL_H

#include "fetch/fetch.h"

struct ptb_install;

/* NULL with err when the prefix cannot be staged (or is not ours). */
struct ptb_install *ptb_install_begin(const char *prefix, int workers,
                                      struct ptb_err *err);
/* Queue a verified item: archives are extracted, files linked in. */
int ptb_install_add(struct ptb_install *in, struct ptb_fetch_item *it,
                    struct ptb_err *err);
/* Start unpacking an archive from its partial download while it comes
 * in, when a worker is free: the write end of the pipe for the verified
 * size (struct ptb_fetch_stream), else -1.  ptb_install_add then queues
 * nothing for it.  ptb_install_abandon gives such a stream up: whatever
 * it wrote is discarded at commit, where the stage is unpacked again
 * from the cache. */
int ptb_install_stream(struct ptb_install *in, struct ptb_fetch_item *it, const char *part);
void ptb_install_abandon(struct ptb_install *in, struct ptb_fetch_item *it);
/* Reap finished children and start queued ones; never blocks. */
int ptb_install_poll(struct ptb_install *in, struct ptb_err *err);
/* Wait for all, write the lock into the tree, rename it into place. */
int ptb_install_commit(struct ptb_install *in, const struct ptb_fetch_list *l,
                       struct ptb_err *err);
/* Stop children and remove the staging tree (also after commit: frees). */
void ptb_install_end(struct ptb_install *in);

/* Hold the prefix for this process: an exclusive flock on
 * <parent>/.<name>.ptb-lock, waiting (with a note) while another ptbuild
 * fetch holds it.  The descriptor, or -1 with err; *lock_path is set for
 * ptb_install_release, which removes the lock file and closes. */
int ptb_install_hold(const char *prefix, char **lock_path, struct ptb_err *err);
void ptb_install_release(int fd, char *lock_path);

/* The lock a prefix was installed from, or NULL. */
char *ptb_install_lock_path(const char *prefix);
/* rm -rf without following symlinks; 0 or -1. */
int ptb_rmtree(const char *path);

#endif
