/* run.h - the one way ptbuild starts a process: a program from an argument
 * vector (never through a shell) or a function in a forked child, with
 * environment changes, a working directory, a time limit after which its
 * process group is killed, its stdout and stderr captured up to a cap (or
 * sent to a file), and how it ended: exit status, signal, time limit, or
 * a program that could not be run.  Nothing here prints; errors come back
 * as -1 with a caller-owned struct ptb_err.
 *
 *	struct ptb_run r;
 *
 *	ptb_run_init(&r);
 *	ptb_argv_pushl(&r.args, nvcc, "--version", (char *)NULL);
 *	r.out_to = PTB_RUN_CAPTURE;
 *	r.err_to = PTB_RUN_TO_OUT;
 *	r.timeout_ms = 60000;
 *	if (ptb_run(&r, err) == 0 && r.exited && r.status == 0)
 *		use(r.out.data);
 *	ptb_run_free(&r);
 *
 * ptb_run_start, then ptb_run_check or ptb_run_wait, run several at once
 * (fetch's extraction children). */
#ifndef PTB_RUN_H
#define PTB_RUN_H

#include <sys/types.h>

#include "util/util.h"

/* A growable NULL-terminated vector of strings it owns (v is NULL while
 * empty). */
struct ptb_argv {
	char **v;
	size_t n, cap;
};

void ptb_argv_init(struct ptb_argv *a);
void ptb_argv_push(struct ptb_argv *a, const char *s);
void ptb_argv_pushf(struct ptb_argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Each string up to a NULL. */
void ptb_argv_pushl(struct ptb_argv *a, ...) __attribute__((sentinel));
void ptb_argv_free(struct ptb_argv *a);

/* Where a child's stdout or stderr goes. */
enum ptb_run_io {
	PTB_RUN_INHERIT = 0,  /* ptbuild's own */
	PTB_RUN_NULL,         /* /dev/null */
	PTB_RUN_CAPTURE,      /* into r.out (stdout) or r.err (stderr) */
	PTB_RUN_TO_OUT,       /* stderr only: wherever stdout goes */
	PTB_RUN_FILE,         /* stdout only: r.out_path, created or
	                         truncated, mode 0600 */
};

/* Flags. */
#define PTB_RUN_STDIN_NULL   1u  /* stdin from /dev/null (else ptbuild's) */
#define PTB_RUN_SAME_GROUP   2u  /* stay in ptbuild's process group (a
                                    terminal's ^C reaches it); else the
                                    child leads its own, killed whole */
#define PTB_RUN_PARENT_DEATH 4u  /* killed when ptbuild dies */

/* Bytes kept of each captured stream unless r.cap says otherwise. */
#define PTB_RUN_CAP ((size_t)1 << 20)

struct ptb_run {
	/* What to run: args.v[0] with args.v (looked up on PATH when it
	 * has no '/'; a file without #! runs under /bin/sh, as execvp
	 * does), or, when fn is set, fn(arg, fd) in the forked child, its
	 * return value the exit status.  What fn writes to fd is captured
	 * into out like stdout. */
	struct ptb_argv args;
	int (*fn)(void *arg, int fd);
	void *arg;
	/* Changes to the child's environment: "NAME=value" sets, "NAME"
	 * unsets. */
	struct ptb_argv env;
	const char *dir;          /* working directory, or NULL */
	int timeout_ms;           /* 0: none.  Then SIGKILL to its group */
	enum ptb_run_io out_to, err_to;
	const char *out_path;     /* for PTB_RUN_FILE */
	size_t cap;               /* 0: PTB_RUN_CAP */
	/* Descriptors the child keeps, at the same numbers; every other
	 * one above stderr is closed in the child. */
	int keep_fds[4];
	int nkeep;
	unsigned flags;

	/* Set by ptb_run_start while it runs. */
	pid_t pid;                /* 0 once reaped */
	int out_fd, err_fd;       /* read ends of the capture pipes, or -1 */
	double start_ms;

	/* How it went, once ptb_run, ptb_run_check or ptb_run_wait says
	 * it ended. */
	struct ptb_buf out, err;  /* captured (NUL-terminated, never NULL) */
	int out_cut, err_cut;     /* more was written than cap */
	int exited;               /* it called exit: status is valid */
	int status;               /* exit status; 127 when not run */
	int signal;               /* the signal that ended it, or 0 */
	int timed_out;            /* killed for time (signal is SIGKILL) */
	int exec_errno;           /* the program could not be run (or the
	                             directory entered): its errno, status
	                             127 and, where stderr is not ptbuild's,
	                             "cannot run 'X': ..." written there */
	double ms;                /* wall time */
};

void ptb_run_init(struct ptb_run *r);
/* Stop it (SIGKILL) and reap it if it still runs; free what r holds.
 * r may be initialised again. */
void ptb_run_free(struct ptb_run *r);

/* Start it.  -1 with err (PTB_EIO) when no child could be made (or
 * out_path not written); a program that cannot be executed is a child
 * that ends with exec_errno. */
int ptb_run_start(struct ptb_run *r, struct ptb_err *err);
/* Never blocks: read what it wrote so far, and when it ended (or ran past
 * its time, then it is killed) reap it: 1 with the result fields set, 0
 * while it runs. */
int ptb_run_check(struct ptb_run *r);
/* Wait for it to end (reading its output as it comes), killing it at its
 * time limit; fills the result fields. */
void ptb_run_wait(struct ptb_run *r);
/* Start and wait: 0 when it ran (whatever its status), -1 with err. */
int ptb_run(struct ptb_run *r, struct ptb_err *err);

/* How a shell reports an end: the exit status, 128 + the signal, 124 for
 * the time limit (as timeout(1)). */
int ptb_run_code(const struct ptb_run *r);

#endif
