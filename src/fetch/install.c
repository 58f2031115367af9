/* install.c - staging, extraction children, and the rename into place. */
#define _GNU_SOURCE
#include "config.h"

#include "fetch/install.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <dirent.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fetch/progress.h"
#include "util/log.h"
#include "util/run.h"

#define LOCK_NAME ".ptbuild-lock.json"
#define CHILD_DAMAGED 3   /* exit status: the archive did not hash to its name */

struct child {
	struct ptb_run run;           /* its out: the child's error text */
	int busy;
	int abandoned;                /* its stream was given up: ignore it */
	struct ptb_fetch_item *it;
};

struct ptb_install {
	char *prefix, *stage, *parent, *base;
	int workers;
	struct child *kids;
	int nkids;
	struct ptb_fetch_item **queue;
	size_t nq, capq, headq;
	struct ptb_extract_limits lim;
	int tainted;                  /* an abandoned stream wrote into the stage */
};

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	if (flag == FTW_DP || flag == FTW_D)
		return rmdir(p) != 0 && errno != ENOENT ? -1 : 0;
	return unlink(p) != 0 && errno != ENOENT ? -1 : 0;
}

int ptb_rmtree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	return nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS);
}

char *ptb_install_lock_path(const char *prefix)
{
	return ptb_xasprintf("%s/%s", prefix, LOCK_NAME);
}

/* Leftovers of a run that was killed: .<base>.ptb-stage.<pid> and
 * .<base>.ptb-old.<pid> whose process is gone. */
static void clean_stale(const char *parent, const char *base)
{
	DIR *d = opendir(parent);
	struct dirent *de;
	size_t bl = strlen(base);

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *n = de->d_name, *tail;
		long pid;
		char *end, *p;

		if (n[0] != '.' || strncmp(n + 1, base, bl) != 0)
			continue;
		tail = n + 1 + bl;
		if (strncmp(tail, ".ptb-stage.", 11) == 0)
			tail += 11;
		else if (strncmp(tail, ".ptb-old.", 9) == 0)
			tail += 9;
		else
			continue;
		pid = strtol(tail, &end, 10);
		if (*end || pid <= 0 || (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;
		p = ptb_xasprintf("%s/%s", parent, n);
		ptb_rmtree(p);
		free(p);
	}
	closedir(d);
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
	const char *s = getenv(name);

	return s && *s ? strtoull(s, NULL, 10) : dflt;
}

/* The prefix without trailing slashes, its parent folder and its name:
 * everything ptbuild keeps beside a prefix is <parent>/.<name>.<what>. */
static char *split_prefix(const char *prefix, char **parent, char **base)
{
	char *p = ptb_xstrdup(prefix), *slash;

	while (strlen(p) > 1 && p[strlen(p) - 1] == '/')
		p[strlen(p) - 1] = '\0';
	slash = strrchr(p, '/');
	*parent = slash ? (slash == p ? ptb_xstrdup("/") : ptb_xstrndup(p, (size_t)(slash - p))) : ptb_xstrdup(".");
	*base = ptb_xstrdup(slash ? slash + 1 : p);
	return p;
}

int ptb_install_hold(const char *prefix, char **lock_path, struct ptb_err *err)
{
	char *parent, *base, *p = split_prefix(prefix, &parent, &base);
	char *lock = ptb_xasprintf("%s/.%s.ptb-lock", parent, base);
	int fd = -1, noted = 0;

	*lock_path = NULL;
	if (ptb_mkdir_p(parent, 0755, err) != 0)
		goto out;
	/* The holder removes the file when it is done, so the file locked
	 * must still be the one at the path, else lock the new one. */
	for (;;) {
		struct stat a, b;

		fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0) {
			ptb_err_set(err, PTB_EIO, "cannot open the lock '%s': %s", lock, strerror(errno));
			goto out;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			if (!noted++)
				ptb_note("waiting for another ptbuild fetch into '%s' to finish", p);
			while (flock(fd, LOCK_EX) != 0) {
				if (errno == EINTR && !ptb_fetch_stop)
					continue;
				ptb_err_set(err, PTB_EIO, "cannot lock '%s': %s", lock, strerror(errno));
				close(fd);
				fd = -1;
				goto out;
			}
		}
		if (fstat(fd, &a) == 0 && stat(lock, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			break;
		close(fd);
	}
	*lock_path = lock;
	lock = NULL;
out:
	free(lock);
	free(parent);
	free(base);
	free(p);
	return fd;
}

void ptb_install_release(int fd, char *lock_path)
{
	if (fd >= 0) {
		if (lock_path)
			unlink(lock_path);
		close(fd);
	}
	free(lock_path);
}

struct ptb_install *ptb_install_begin(const char *prefix, int workers,
                                      struct ptb_err *err)
{
	struct ptb_install *in;
	char *parent, *base, *p = split_prefix(prefix, &parent, &base);
	struct stat st;

	if (stat(p, &st) == 0) {
		char *lock = ptb_install_lock_path(p);
		DIR *d = opendir(p);
		int empty = 1;
		struct dirent *de;

		while (d && (de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				empty = 0;
		if (d)
			closedir(d);
		if (!S_ISDIR(st.st_mode) || (!empty && !ptb_path_is_file(lock))) {
			ptb_err_set(err, PTB_EUSAGE, "'%s' exists and was not installed by ptbuild fetch", p);
			ptb_err_hint(err, "choose an empty or new --prefix; ptbuild replaces a prefix only if it made it");
			free(lock);
			free(p);
			free(parent);
			free(base);
			return NULL;
		}
		free(lock);
	}
	in = ptb_xcalloc(1, sizeof *in);
	in->prefix = p;
	in->parent = parent;
	in->base = base;
	if (ptb_mkdir_p(in->parent, 0755, err) != 0)
		goto fail;
	clean_stale(in->parent, in->base);
	in->stage = ptb_xasprintf("%s/.%s.ptb-stage.%ld", in->parent, in->base, (long)getpid());
	ptb_rmtree(in->stage);
	if (mkdir(in->stage, 0755) != 0) {
		ptb_err_set(err, PTB_EIO, "cannot create the staging folder '%s': %s", in->stage, strerror(errno));
		goto fail;
	}
	in->workers = workers > 0 ? workers : 1;
	in->kids = ptb_xcalloc((size_t)in->workers, sizeof *in->kids);
	in->lim.max_entries = env_u64("PTBUILD_MAX_ENTRIES", 200000);
	in->lim.max_bytes = 0;
	return in;
fail:
	ptb_install_end(in);
	return NULL;
}

static int copy_file(const char *from, const char *to, struct ptb_err *err)
{
	static char buf[1 << 16];
	int in = ptb_file_open_read(from, 0, NULL, err), out;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		ptb_err_set(err, PTB_EIO, "cannot create '%s': %s", to, strerror(errno));
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof buf)) > 0) {
		if (write(out, buf, (size_t)n) != n) {
			ptb_err_set(err, PTB_EIO, "cannot write '%s': %s", to, strerror(errno ? errno : ENOSPC));
			close(in);
			close(out);
			return -1;
		}
	}
	close(in);
	if (n < 0 || close(out) != 0) {
		ptb_err_set(err, PTB_EIO, "cannot copy '%s' to '%s': %s", from, to, strerror(errno));
		return -1;
	}
	return 0;
}

/* A file item: prefix/downloads/<basename of the URL>, hard-linked from
 * the cache when they share a file system. */
static int add_file(struct ptb_install *in, struct ptb_fetch_item *it, struct ptb_err *err)
{
	const char *b = strrchr(it->url, '/');
	char *dir = ptb_xasprintf("%s/downloads", in->stage), *dest;
	int rc = -1;

	/* Linked or copied whole: nothing hashes it on the way. */
	if (it->from_cache && ptb_fetch_verify(it, err) != 0) {
		free(dir);
		return -1;
	}
	b = b && b[1] ? b + 1 : it->name;
	if (strcmp(b, "..") == 0 || strcmp(b, ".") == 0)
		b = it->name;
	dest = ptb_xasprintf("%s/%s", dir, b);
	if (ptb_mkdir_p(dir, 0755, err) == 0) {
		unlink(dest);
		if (link(it->path, dest) == 0 || copy_file(it->path, dest, err) == 0)
			rc = 0;
	}
	free(dir);
	free(dest);
	return rc;
}

/* What an extraction child needs; it lives on the parent's stack until
 * the fork. */
struct job {
	struct ptb_install *in;
	struct ptb_fetch_item *it;
	struct ptb_extract_limits lim;
	int fd, notify;               /* a partial download and its pipe, or -1 */
};

/* In the child: unpack, write the error (msg, NUL, hint) to out, and
 * return the exit status. */
static int extract_child(void *arg, int out)
{
	struct job *j = arg;
	struct ptb_fetch_item *it = j->it;
	struct ptb_err e = { 0 };
	char got[65];
	int rc;

	if (j->fd < 0) {
		rc = ptb_extract(it->path, j->in->stage, it->name, &j->lim, got, &e);
		/* A damaged cache entry is the reason, whatever else its
		 * bytes made extraction say. */
		if (*got && strcmp(got, it->sha256) != 0) {
			ptb_fetch_damaged(it, got, &e);
			rc = CHILD_DAMAGED;
		}
	} else {
		/* The parent sends the size only once the sha256 matched; a
		 * mismatch here means the file changed under us. */
		rc = ptb_extract_stream(j->fd, j->notify, it->url, j->in->stage, it->name, &j->lim, got, &e);
		if (rc == 0 && strcmp(got, it->sha256) != 0) {
			ptb_err_set(&e, PTB_EIO, "the download of '%s' changed while it was unpacked", it->name);
			rc = 1;
		}
	}
	if (rc != 0) {
		size_t n = strlen(e.msg);

		if (write(out, e.msg, n + 1) < 0 || write(out, e.hint, strlen(e.hint)) < 0)
			return 2;
	}
	return rc == CHILD_DAMAGED ? CHILD_DAMAGED : rc ? 1 : 0;
}

/* Unpack it in a child: from its cache file, or when fd is not -1 from
 * that partial download as it grows (notify: the read end of its pipe).
 * The child keeps only those descriptors (else it would hold the
 * parent's other pipes open, and a stream's end would never be seen,
 * and the locks on its partial downloads), and dies with ptbuild. */
static int spawn(struct ptb_install *in, struct child *k, struct ptb_fetch_item *it,
                 int fd, int notify, struct ptb_err *err)
{
	struct job j = { in, it, in->lim, fd, notify };
	struct ptb_run *r = &k->run;

	/* A bomb guard that scales: NVIDIA archives unpack to a few times
	 * their size. */
	j.lim.max_bytes = env_u64("PTBUILD_MAX_UNPACK_RATIO", 32) *
	                  (uint64_t)(it->size > 0 ? it->size : 0) + (16u << 20);
	ptb_run_init(r);
	r->fn = extract_child;
	r->arg = &j;
	r->cap = sizeof err->msg + sizeof err->hint + 1;
	r->flags = PTB_RUN_SAME_GROUP | PTB_RUN_PARENT_DEATH;
	if (fd >= 0) {
		r->keep_fds[r->nkeep++] = fd;
		r->keep_fds[r->nkeep++] = notify;
	}
	if (ptb_run_start(r, err) != 0) {
		ptb_run_free(r);
		return -1;
	}
	k->busy = 1;
	k->abandoned = 0;
	k->it = it;
	in->nkids++;
	return 0;
}

/* The child ended (k->run holds how): its message, if any, into err. */
static int reap(struct ptb_install *in, struct child *k, struct ptb_err *err)
{
	const struct ptb_run *r = &k->run;
	const char *buf = r->out.data;
	size_t n = r->out.len;
	int rc = -1;

	k->busy = 0;
	in->nkids--;
	if (k->abandoned) {
		/* Whatever it wrote is unverified: the stage is redone. */
		in->tainted = 1;
		rc = 0;
	} else if (r->exited && r->status == 0) {
		ptb_progress_unpacked(ptb_progress_current(), k->it->name);
		rc = 0;
	} else {
		if (r->exited && r->status == CHILD_DAMAGED)
			k->it->damaged = 1;   /* the child evicted it */
		if (n > 0) {
			size_t ml = strlen(buf);

			ptb_err_set(err, PTB_EIO, "%s", buf);
			if (ml + 1 < n)
				ptb_err_hint(err, "%s", buf + ml + 1);
		} else {
			ptb_err_set(err, PTB_EIO, "extracting '%s' failed (%s %d)", k->it->name,
			            r->signal ? "signal" : "exit status",
			            r->signal ? r->signal : r->status);
		}
	}
	ptb_run_free(&k->run);
	return rc;
}

/* Wait until a child ends, or 100 ms so the status line keeps moving; a
 * signal ends the wait early.  A child's pipe closes (or carries its
 * message) as it exits, so its core is handed on at once rather than at
 * the next turn of a sleep. */
static int wait_child(struct ptb_install *in, struct ptb_err *err)
{
	struct pollfd *pf = ptb_xcalloc((size_t)in->workers, sizeof *pf);
	int n = 0, rc = 0, ended = 0;

	for (int i = 0; i < in->workers; i++)
		if (in->kids[i].busy) {
			/* -1 (its output ended already): poll skips it */
			pf[n].fd = in->kids[i].run.out_fd;
			ended |= pf[n].fd < 0;
			pf[n++].events = POLLIN;
		}
	if (n > 0 && (ended || poll(pf, (nfds_t)n, 100) > 0)) {
		for (int i = 0, j = 0; i < in->workers && rc == 0; i++) {
			struct child *k = &in->kids[i];

			if (!k->busy)
				continue;
			if (pf[j].revents || pf[j].fd < 0) {
				ptb_run_wait(&k->run);
				rc = reap(in, k, err);
			}
			j++;
		}
	}
	free(pf);
	return rc;
}

static int pump(struct ptb_install *in, int block, struct ptb_err *err)
{
	for (;;) {
		for (int i = 0; i < in->workers; i++) {
			struct child *k = &in->kids[i];

			if (k->busy && ptb_run_check(&k->run) && reap(in, k, err) != 0)
				return -1;
		}
		for (int i = 0; i < in->workers && in->headq < in->nq; i++) {
			size_t big = in->headq;
			struct ptb_fetch_item *t;

			if (in->kids[i].busy)
				continue;
			/* Largest first: the longest job must not start last. */
			for (size_t q = in->headq + 1; q < in->nq; q++)
				if (in->queue[q]->size > in->queue[big]->size)
					big = q;
			t = in->queue[big];
			in->queue[big] = in->queue[in->headq];
			in->queue[in->headq++] = t;
			if (spawn(in, &in->kids[i], t, -1, -1, err) != 0)
				return -1;
		}
		if (!block || (in->nkids == 0 && in->headq == in->nq))
			return 0;
		if (ptb_fetch_stop) {
			ptb_err_set(err, PTB_EIO, "interrupted by signal %d while unpacking", (int)ptb_fetch_stop);
			ptb_err_hint(err, "the prefix is unchanged");
			return -1;
		}
		ptb_progress_draw(ptb_progress_current(), 0);
		if (wait_child(in, err) != 0)
			return -1;
	}
}

int ptb_install_stream(struct ptb_install *in, struct ptb_fetch_item *it, const char *part)
{
	struct ptb_err e = { 0 };
	int p[2], fd;

	if (it->kind != PTB_ITEM_ARCHIVE || in->tainted)
		return -1;
	for (int i = 0; i < in->workers; i++) {
		if (in->kids[i].busy)
			continue;
		if ((fd = open(part, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0)
			return -1;
		if (pipe2(p, O_CLOEXEC) != 0) {
			close(fd);
			return -1;
		}
		if (spawn(in, &in->kids[i], it, fd, p[0], &e) != 0) {
			close(p[1]);
			p[1] = -1;
		} else {
			it->streamed = 1;
		}
		close(fd);
		close(p[0]);
		return p[1];
	}
	return -1;
}

void ptb_install_abandon(struct ptb_install *in, struct ptb_fetch_item *it)
{
	for (int i = 0; i < in->workers; i++)
		if (in->kids[i].busy && in->kids[i].it == it)
			in->kids[i].abandoned = 1;
	if (it->streamed)
		in->tainted = 1;
	it->streamed = 0;
}

int ptb_install_add(struct ptb_install *in, struct ptb_fetch_item *it, struct ptb_err *err)
{
	if (it->streamed)
		return pump(in, 0, err);   /* its child has it already */
	if (it->kind == PTB_ITEM_FILE)
		return add_file(in, it, err);
	if (in->nq == in->capq) {
		in->capq = in->capq ? 2 * in->capq : 16;
		in->queue = ptb_xrealloc(in->queue, in->capq * sizeof *in->queue);
	}
	in->queue[in->nq++] = it;
	return pump(in, 0, err);
}

int ptb_install_poll(struct ptb_install *in, struct ptb_err *err)
{
	return pump(in, 0, err);
}

static int fsync_path(const char *p)
{
	int fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -1;
	r = fsync(fd);
	close(fd);
	return r;
}

int ptb_install_commit(struct ptb_install *in, const struct ptb_fetch_list *l,
                       struct ptb_err *err)
{
	char *lock, *old = NULL;
	int rc = -1;
	struct stat st;

	if (pump(in, 1, err) != 0)
		return -1;
	if (in->tainted) {
		/* A stream given up (its download retried or restarted) may
		 * have left unverified files: unpack everything again, now
		 * from the verified cache. */
		ptb_rmtree(in->stage);
		if (mkdir(in->stage, 0755) != 0) {
			ptb_err_set(err, PTB_EIO, "cannot create the staging folder '%s': %s", in->stage, strerror(errno));
			return -1;
		}
		in->tainted = 0;
		in->nq = in->headq = 0;
		for (size_t i = 0; i < l->n; i++) {
			l->items[i].streamed = 0;
			if (ptb_install_add(in, &l->items[i], err) != 0)
				return -1;
		}
		if (pump(in, 1, err) != 0)
			return -1;
	}
	lock = ptb_install_lock_path(in->stage);
	if (ptb_lock_write(lock, l, err) != 0)
		goto out;
	/* Data first, then the names: after a crash the new tree is either
	 * complete or not in place.  Only the prefix's file system. */
	{
		int fd = open(in->stage, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd >= 0) {
			syncfs(fd);
			close(fd);
		}
	}
	if (stat(in->prefix, &st) == 0) {
		if (renameat2(AT_FDCWD, in->stage, AT_FDCWD, in->prefix, RENAME_EXCHANGE) == 0) {
			/* The stage now holds the old tree. */
			old = ptb_xasprintf("%s/.%s.ptb-old.%ld", in->parent, in->base, (long)getpid());
			if (rename(in->stage, old) != 0) {
				free(old);
				old = ptb_xstrdup(in->stage);
			}
		} else {
			/* No RENAME_EXCHANGE here: move the old tree aside first. */
			old = ptb_xasprintf("%s/.%s.ptb-old.%ld", in->parent, in->base, (long)getpid());
			if (rename(in->prefix, old) != 0 || rename(in->stage, in->prefix) != 0) {
				ptb_err_set(err, PTB_EIO, "cannot move '%s' into place: %s", in->prefix, strerror(errno));
				rename(old, in->prefix);
				goto out;
			}
		}
	} else if (rename(in->stage, in->prefix) != 0) {
		ptb_err_set(err, PTB_EIO, "cannot move '%s' into place: %s", in->prefix, strerror(errno));
		goto out;
	}
	fsync_path(in->parent);
	if (old)
		ptb_rmtree(old);
	free(in->stage);
	in->stage = NULL;
	rc = 0;
out:
	free(lock);
	free(old);
	return rc;
}

void ptb_install_end(struct ptb_install *in)
{
	if (!in)
		return;
	for (int i = 0; in->kids && i < in->workers; i++)
		if (in->kids[i].busy)
			ptb_run_free(&in->kids[i].run);   /* SIGKILL, reaped */
	if (in->stage)
		ptb_rmtree(in->stage);
	free(in->kids);
	free(in->queue);
	free(in->stage);
	free(in->prefix);
	free(in->parent);
	free(in->base);
	free(in);
}
