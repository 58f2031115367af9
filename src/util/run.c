/* run.c - start a child process, feed nothing, collect its output and how
 * it ended (see run.h).  The shape is git's run-command: a struct that
 * says what to run, start, then finish. */
#define _GNU_SOURCE 1
#include "util/run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void ptb_argv_init(struct ptb_argv *a)
{
	a->v = NULL;
	a->n = a->cap = 0;
}

static void argv_take(struct ptb_argv *a, char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? 2 * a->cap : 8;
		a->v = ptb_xrealloc(a->v, a->cap * sizeof *a->v);
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void ptb_argv_push(struct ptb_argv *a, const char *s)
{
	argv_take(a, ptb_xstrdup(s));
}

void ptb_argv_pushf(struct ptb_argv *a, const char *fmt, ...)
{
	struct ptb_buf b;
	va_list ap;

	ptb_buf_init(&b);
	va_start(ap, fmt);
	ptb_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	argv_take(a, b.data ? ptb_buf_detach(&b) : ptb_xstrdup(""));
}

void ptb_argv_pushl(struct ptb_argv *a, ...)
{
	const char *s;
	va_list ap;

	va_start(ap, a);
	while ((s = va_arg(ap, const char *)))
		ptb_argv_push(a, s);
	va_end(ap);
}

void ptb_argv_free(struct ptb_argv *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	ptb_argv_init(a);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void ptb_run_init(struct ptb_run *r)
{
	memset(r, 0, sizeof *r);
	ptb_argv_init(&r->args);
	ptb_argv_init(&r->env);
	r->out_fd = r->err_fd = -1;
	ptb_buf_init(&r->out);
	ptb_buf_init(&r->err);
}

/* ---- in the child ---- */

/* Close every descriptor above stderr but those in keep[] (sorted here). */
static void close_others(int *keep, int n)
{
	int lo = 3;

	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int t = keep[j];

			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	for (int i = 0; i <= n; i++) {
		int hi = i < n ? keep[i] - 1 : 65535;

		if (i < n && keep[i] < lo)
			continue;
#ifdef SYS_close_range
		if (hi >= lo && syscall(SYS_close_range, (unsigned)lo,
		                        i < n ? (unsigned)hi : ~0U, 0) == 0) {
			lo = hi + 2;
			continue;
		}
#endif
		for (int f = lo; f <= hi; f++)
			close(f);
		lo = hi + 2;
	}
}

/* A handler ptbuild installed would run in a forked child: back to the
 * default (an ignored signal stays ignored, as across exec). */
static void reset_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD };

	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction sa;

		if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN &&
		    sa.sa_handler != SIG_DFL)
			signal(sigs[i], SIG_DFL);
	}
}

/* The program could not be run: say so where its stderr is captured,
 * tell the parent through the status pipe, end as a shell would. */
static _Noreturn void child_fail(int status_fd, const char *what,
                                 const char *name, int tell)
{
	int e = errno;
	ssize_t told;

	if (tell)
		dprintf(2, "cannot %s '%s': %s\n", what, name, strerror(e));
	/* nothing more to do if the parent cannot hear it */
	told = write(status_fd, &e, sizeof e);
	(void)told;
	ptb_child_exit(127);
}

static void child_env(const struct ptb_run *r)
{
	for (size_t i = 0; i < r->env.n; i++) {
		const char *s = r->env.v[i], *eq = strchr(s, '=');

		if (eq) {
			char *name = ptb_xstrndup(s, (size_t)(eq - s));

			setenv(name, eq + 1, 1);
			free(name);
		} else {
			unsetenv(s);
		}
	}
}

/* fds: [0] stdout's target, [1] stderr's target (or -1: leave), [2] the
 * answer pipe for fn, [3] the status pipe. */
static _Noreturn void child(const struct ptb_run *r, const int fds[4],
                            pid_t parent, int tell)
{
	int keep[8], n = 0;

	reset_signals();
	if (r->flags & PTB_RUN_PARENT_DEATH) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			ptb_child_exit(1);
	}
	if (!(r->flags & PTB_RUN_SAME_GROUP))
		setpgid(0, 0);
	if (r->flags & PTB_RUN_STDIN_NULL) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0 && null != 0) {
			dup2(null, 0);
			close(null);
		}
	}
	if (fds[0] >= 0)
		dup2(fds[0], 1);
	if (fds[1] >= 0)
		dup2(fds[1], 2);
	for (int i = 0; i < r->nkeep && i < 4; i++)
		keep[n++] = r->keep_fds[i];
	if (fds[2] >= 0)
		keep[n++] = fds[2];
	keep[n++] = fds[3];
	close_others(keep, n);
	child_env(r);
	if (r->dir && chdir(r->dir) != 0)
		child_fail(fds[3], "enter", r->dir, tell);
	if (r->fn) {
		close(fds[3]);
		ptb_child_exit(r->fn(r->arg, fds[2]));
	}
	execvp(r->args.v[0], r->args.v);
	child_fail(fds[3], "run", r->args.v[0], tell);
}

/* ---- in the parent ---- */

struct pipes {
	int out[2], err[2], status[2], file, null;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void close_pipes(struct pipes *p)
{
	for (int i = 0; i < 2; i++) {
		close_fd(&p->out[i]);
		close_fd(&p->err[i]);
		close_fd(&p->status[i]);
	}
	close_fd(&p->file);
	close_fd(&p->null);
}

static int open_to(int *fd, const char *path, struct ptb_err *err)
{
	*fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (*fd >= 0)
		return 0;
	ptb_err_set(err, PTB_EIO, "cannot write '%s': %s", path, strerror(errno));
	return -1;
}

/* "cannot start 'nvcc': why", or for a function "cannot start a child
 * process: why". */
static void start_error(const struct ptb_run *r, const char *why, struct ptb_err *err)
{
	if (r->fn)
		ptb_err_set(err, PTB_EIO, "cannot start a child process: %s", why);
	else
		ptb_err_set(err, PTB_EIO, "cannot start '%s': %s", r->args.v[0], why);
}

static int open_pipes(const struct ptb_run *r, struct pipes *p, struct ptb_err *err)
{
	if (((r->out_to == PTB_RUN_CAPTURE || r->fn) && pipe2(p->out, O_CLOEXEC) != 0) ||
	    (r->err_to == PTB_RUN_CAPTURE && pipe2(p->err, O_CLOEXEC) != 0) ||
	    pipe2(p->status, O_CLOEXEC) != 0) {
		char why[256];

		snprintf(why, sizeof why, "cannot create a pipe: %s", strerror(errno));
		start_error(r, why, err);
		return -1;
	}
	if (r->out_to == PTB_RUN_FILE && open_to(&p->file, r->out_path, err) != 0)
		return -1;
	if ((r->out_to == PTB_RUN_NULL || r->err_to == PTB_RUN_NULL) &&
	    open_to(&p->null, "/dev/null", err) != 0)
		return -1;
	return 0;
}

/* Where stdout and stderr go in the child (-1: left as they are), fn's
 * pipe, the status pipe.  Returns whether that stderr is a place to say
 * "cannot run" (not ptbuild's own). */
static int targets(const struct ptb_run *r, const struct pipes *p, int fds[4])
{
	switch (r->out_to) {
	case PTB_RUN_CAPTURE: fds[0] = p->out[1]; break;
	case PTB_RUN_FILE:    fds[0] = p->file; break;
	case PTB_RUN_NULL:    fds[0] = p->null; break;
	default:              fds[0] = -1; break;
	}
	switch (r->err_to) {
	case PTB_RUN_CAPTURE: fds[1] = p->err[1]; break;
	case PTB_RUN_TO_OUT:  fds[1] = fds[0] >= 0 ? fds[0] : 1; break;
	case PTB_RUN_NULL:    fds[1] = p->null; break;
	default:              fds[1] = -1; break;
	}
	fds[2] = r->fn ? p->out[1] : -1;
	fds[3] = p->status[1];
	return r->err_to == PTB_RUN_CAPTURE ||
	       (r->err_to == PTB_RUN_TO_OUT &&
	        (r->out_to == PTB_RUN_CAPTURE || r->out_to == PTB_RUN_FILE));
}

int ptb_run_start(struct ptb_run *r, struct ptb_err *err)
{
	struct pipes p = { { -1, -1 }, { -1, -1 }, { -1, -1 }, -1, -1 };
	pid_t parent = getpid();
	int fds[4], tell, e = 0;
	ssize_t n;

	ptb_buf_reset(&r->out);
	ptb_buf_reset(&r->err);
	ptb_buf_adds(&r->out, "");
	ptb_buf_adds(&r->err, "");
	r->out_cut = r->err_cut = r->exited = r->status = r->signal = 0;
	r->timed_out = r->exec_errno = 0;
	r->ms = 0;
	if (!r->fn && !r->args.n) {
		ptb_err_set(err, PTB_EIO, "cannot start a process: no program named");
		return -1;
	}
	if (open_pipes(r, &p, err) != 0) {
		close_pipes(&p);
		return -1;
	}
	tell = targets(r, &p, fds);
	fflush(NULL);
	r->start_ms = now_ms();
	r->pid = fork();
	if (r->pid < 0) {
		start_error(r, strerror(errno), err);
		r->pid = 0;
		close_pipes(&p);
		return -1;
	}
	if (r->pid == 0)
		child(r, fds, parent, tell);
	if (!(r->flags & PTB_RUN_SAME_GROUP))
		setpgid(r->pid, r->pid);
	r->out_fd = p.out[0];
	r->err_fd = p.err[0];
	p.out[0] = p.err[0] = -1;
	close_fd(&p.status[1]);
	/* Closed by exec (or before fn), else it carries the errno. */
	do
		n = read(p.status[0], &e, sizeof e);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof e)
		r->exec_errno = e ? e : ENOEXEC;
	close_pipes(&p);
	return 0;
}

static void take(struct ptb_run *r, int *fd, struct ptb_buf *b, int *cut)
{
	size_t cap = r->cap ? r->cap : PTB_RUN_CAP;
	char chunk[4096];
	ssize_t n = read(*fd, chunk, sizeof chunk);

	size_t room, k;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close_fd(fd);
		return;
	}
	room = b->len < cap ? cap - b->len : 0;
	k = (size_t)n < room ? (size_t)n : room;
	if (k)
		ptb_buf_add(b, chunk, k);
	if (k < (size_t)n)
		*cut = 1;
}

/* Wait up to ms (-1: no limit) for output and read what came. */
static void drain(struct ptb_run *r, int ms)
{
	struct pollfd pf[2];
	int n = 0;

	if (r->out_fd >= 0)
		pf[n++] = (struct pollfd){ r->out_fd, POLLIN, 0 };
	if (r->err_fd >= 0)
		pf[n++] = (struct pollfd){ r->err_fd, POLLIN, 0 };
	if (n == 0 || poll(pf, (nfds_t)n, ms) <= 0)
		return;
	for (int i = 0; i < n; i++) {
		if (!pf[i].revents)
			continue;
		if (pf[i].fd == r->out_fd)
			take(r, &r->out_fd, &r->out, &r->out_cut);
		else
			take(r, &r->err_fd, &r->err, &r->err_cut);
	}
}

static void finish(struct ptb_run *r, int st)
{
	r->ms = now_ms() - r->start_ms;
	r->pid = 0;
	close_fd(&r->out_fd);
	close_fd(&r->err_fd);
	if (WIFEXITED(st)) {
		r->exited = 1;
		r->status = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		r->signal = WTERMSIG(st);
	}
}

static void reap(struct ptb_run *r)
{
	int st = 0;

	while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR)
		;
	finish(r, st);
}

static void kill_it(struct ptb_run *r)
{
	if (!(r->flags & PTB_RUN_SAME_GROUP))
		kill(-r->pid, SIGKILL);
	kill(r->pid, SIGKILL);
}

static int past_time(const struct ptb_run *r)
{
	return r->timeout_ms > 0 && now_ms() - r->start_ms >= r->timeout_ms;
}

static void time_out(struct ptb_run *r)
{
	r->timed_out = 1;
	kill_it(r);
	reap(r);
}

int ptb_run_check(struct ptb_run *r)
{
	int st = 0;
	pid_t w;

	if (!r->pid)
		return 1;
	drain(r, 0);
	w = waitpid(r->pid, &st, WNOHANG);
	if (w == r->pid) {
		/* it ended: what it wrote is in the pipes (unless something
		 * it started holds them open: then up to its time limit) */
		while ((r->out_fd >= 0 || r->err_fd >= 0) && !past_time(r))
			drain(r, r->timeout_ms > 0 ? 10 : -1);
		finish(r, st);
		return 1;
	}
	if (past_time(r)) {
		time_out(r);
		return 1;
	}
	return 0;
}

void ptb_run_wait(struct ptb_run *r)
{
	if (!r->pid)
		return;
	while (r->out_fd >= 0 || r->err_fd >= 0) {
		double left = r->start_ms + r->timeout_ms - now_ms();

		if (r->timeout_ms > 0 && left <= 0) {
			time_out(r);
			return;
		}
		drain(r, r->timeout_ms > 0 ? (int)left + 1 : -1);
	}
	if (r->timeout_ms <= 0) {
		reap(r);
		return;
	}
	/* No pipe to wait on: look every 10 ms. */
	while (!ptb_run_check(r)) {
		struct timespec nap = { 0, 10 * 1000 * 1000 };

		nanosleep(&nap, NULL);
	}
}

int ptb_run(struct ptb_run *r, struct ptb_err *err)
{
	if (ptb_run_start(r, err) != 0)
		return -1;
	ptb_run_wait(r);
	return 0;
}

int ptb_run_code(const struct ptb_run *r)
{
	if (r->timed_out)
		return 124;
	if (r->signal)
		return 128 + r->signal;
	return r->status;
}

void ptb_run_free(struct ptb_run *r)
{
	if (r->pid) {
		kill_it(r);
		reap(r);
	}
	close_fd(&r->out_fd);
	close_fd(&r->err_fd);
	ptb_argv_free(&r->args);
	ptb_argv_free(&r->env);
	ptb_buf_free(&r->out);
	ptb_buf_free(&r->err);
}
