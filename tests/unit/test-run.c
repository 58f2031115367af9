/* test-run.c - src/util/run.c with real processes, one table row a case:
 * what runs (a program through /bin/sh, sleep, a function in the child)
 * and how it must end (status, signal, time limit, exec errno, output). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "util/run.h"

/* Functions run in the child (fn rows). */
static int fn_answer(void *arg, int fd)
{
	(void)arg;
	return dprintf(fd, "{\"answer\": 42}") > 0 ? 7 : 1;
}

static int fn_signal(void *arg, int fd)
{
	(void)arg;
	(void)fd;
	kill(getpid(), SIGUSR1);
	return 0;
}

static int fn_hang(void *arg, int fd)
{
	(void)arg;
	(void)fd;
	for (;;)
		pause();
	return 0;
}

/* A descriptor the parent holds open: the child sees it only when kept. */
static int spare_fd = -1;

static int fn_fds(void *arg, int fd)
{
	int kept = *(int *)arg;

	return dprintf(fd, "kept %s, other %s",
	               fcntl(kept, F_GETFD) >= 0 ? "open" : "closed",
	               fcntl(spare_fd, F_GETFD) >= 0 ? "open" : "closed") > 0 ? 0 : 1;
}

enum { ANY = -1 };

struct run_case {
	const char *name;
	const char *argv[6];          /* or fn */
	int (*fn)(void *, int);
	const char *env[3];           /* changes */
	const char *dir;
	int timeout_ms;
	enum ptb_run_io out_to, err_to;
	size_t cap;
	unsigned flags;
	/* expected */
	int exited, status, signal, timed_out, exec_errno, code;
	const char *out;              /* exact, or NULL: not checked */
	const char *err_has;          /* substring of the captured stderr */
	size_t out_len;               /* when out is NULL and this is not 0 */
	int out_cut;
	int max_ms;                   /* 0: no bound checked */
};

#define SH(s) { "/bin/sh", "-c", s, NULL }
#define CAP PTB_RUN_CAPTURE
#define OUT PTB_RUN_TO_OUT
#define INH PTB_RUN_INHERIT

static const struct run_case cases[] = {
	{ "exit 0 with output", SH("echo hi"), NULL, { NULL }, NULL, 0, CAP, CAP, 0, 0,
	  1, 0, 0, 0, 0, 0, "hi\n", "", 0, 0, 0 },
	{ "an exit status", SH("exit 3"), NULL, { NULL }, NULL, 0, CAP, CAP, 0, 0,
	  1, 3, 0, 0, 0, 3, "", "", 0, 0, 0 },
	{ "stderr apart from stdout", SH("echo out; echo err >&2"), NULL, { NULL }, NULL, 0,
	  CAP, CAP, 0, 0, 1, 0, 0, 0, 0, 0, "out\n", "err\n", 0, 0, 0 },
	{ "stderr into stdout", SH("echo a; echo b >&2; echo c"), NULL, { NULL }, NULL, 0,
	  CAP, OUT, 0, 0, 1, 0, 0, 0, 0, 0, "a\nb\nc\n", "", 0, 0, 0 },
	{ "stdout to /dev/null", SH("echo gone"), NULL, { NULL }, NULL, 0,
	  PTB_RUN_NULL, CAP, 0, 0, 1, 0, 0, 0, 0, 0, "", "", 0, 0, 0 },
	{ "killed by a signal", SH("kill -TERM $$"), NULL, { NULL }, NULL, 0, CAP, CAP, 0, 0,
	  0, 0, SIGTERM, 0, 0, 128 + SIGTERM, "", "", 0, 0, 0 },
	{ "sleep past the time limit", { "sleep", "10", NULL }, NULL, { NULL }, NULL, 200,
	  CAP, CAP, 0, 0, 0, 0, SIGKILL, 1, 0, 124, "", "", 0, 0, 3000 },
	{ "a child that ignores SIGTERM", SH("trap '' TERM; echo up; sleep 10"), NULL, { NULL },
	  NULL, 300, CAP, CAP, 0, 0, 0, 0, SIGKILL, 1, 0, 124, "up\n", "", 0, 0, 3000 },
	{ "output over the cap is cut, still read", SH("head -c 300000 /dev/zero | tr '\\0' x; exit 5"),
	  NULL, { NULL }, NULL, 0, CAP, CAP, 1000, 0, 1, 5, 0, 0, 0, 5, NULL, "", 1000, 1, 0 },
	{ "output at the cap is not cut", SH("printf 12345"), NULL, { NULL }, NULL, 0,
	  CAP, CAP, 5, 0, 1, 0, 0, 0, 0, 0, "12345", "", 0, 0, 0 },
	{ "a missing executable", { "/nonexistent/ptb-prog", "x", NULL }, NULL, { NULL }, NULL, 0,
	  CAP, CAP, 0, 0, 1, 127, 0, 0, ENOENT, 127, "",
	  "cannot run '/nonexistent/ptb-prog': No such file or directory", 0, 0, 0 },
	{ "a missing program on PATH", { "ptb-no-such-program", NULL }, NULL, { NULL }, NULL, 0,
	  CAP, OUT, 0, 0, 1, 127, 0, 0, ENOENT, 127, "cannot run 'ptb-no-such-program': No such file or directory\n",
	  "", 0, 0, 0 },
	{ "a file that is not executable", { "./not-exec", NULL }, NULL, { NULL }, NULL, 0,
	  CAP, CAP, 0, 0, 1, 127, 0, 0, EACCES, 127, "", "cannot run './not-exec': Permission denied", 0, 0, 0 },
	{ "a program found on PATH", { "sh", "-c", "echo found", NULL }, NULL, { NULL }, NULL, 0,
	  CAP, CAP, 0, 0, 1, 0, 0, 0, 0, 0, "found\n", "", 0, 0, 0 },
	{ "arguments reach it as they are", { "/bin/sh", "-c", "printf '[%s]' \"$@\"", "sh", "a b", "$HOME;*" },
	  NULL, { NULL }, NULL, 0, CAP, CAP, 0, 0, 1, 0, 0, 0, 0, 0, "[a b][$HOME;*]", "", 0, 0, 0 },
	{ "environment set and unset", SH("echo \"$PTB_T ${PTB_GONE-unset}\""), NULL,
	  { "PTB_T=a=b c", "PTB_GONE", NULL }, NULL, 0, CAP, CAP, 0, 0,
	  1, 0, 0, 0, 0, 0, "a=b c unset\n", "", 0, 0, 0 },
	{ "a working directory", SH("pwd"), NULL, { NULL }, "/", 0, CAP, CAP, 0, 0,
	  1, 0, 0, 0, 0, 0, "/\n", "", 0, 0, 0 },
	{ "a missing working directory", SH("pwd"), NULL, { NULL }, "/nonexistent-ptb", 0, CAP, CAP, 0, 0,
	  1, 127, 0, 0, ENOENT, 127, "", "cannot enter '/nonexistent-ptb': No such file", 0, 0, 0 },
	{ "stdin from /dev/null", SH("cat; echo end"), NULL, { NULL }, NULL, 2000, CAP, CAP, 0,
	  PTB_RUN_STDIN_NULL, 1, 0, 0, 0, 0, 0, "end\n", "", 0, 0, 0 },
	{ "a function's answer and status", { NULL }, fn_answer, { NULL }, NULL, 2000, INH, INH, 0, 0,
	  1, 7, 0, 0, 0, 7, "{\"answer\": 42}", "", 0, 0, 0 },
	{ "a function killed by a signal", { NULL }, fn_signal, { NULL }, NULL, 2000, INH, INH, 0, 0,
	  0, 0, SIGUSR1, 0, 0, 128 + SIGUSR1, "", "", 0, 0, 0 },
	{ "a function past the time limit", { NULL }, fn_hang, { NULL }, NULL, 200, INH, INH, 0, 0,
	  0, 0, SIGKILL, 1, 0, 124, "", "", 0, 0, 3000 },
	{ "a function keeps only the kept descriptors", { NULL }, fn_fds, { NULL }, NULL, 2000, INH, INH, 0, 0,
	  1, 0, 0, 0, 0, 0, "kept open, other closed", "", 0, 0, 0 },
	{ "same process group, no time limit", SH("echo same"), NULL, { NULL }, NULL, 0, CAP, CAP, 0,
	  PTB_RUN_SAME_GROUP | PTB_RUN_PARENT_DEATH, 1, 0, 0, 0, 0, 0, "same\n", "", 0, 0, 0 },
};

static void run_case(const struct run_case *c, int kept)
{
	struct ptb_run r;
	struct ptb_err err = { 0 };
	int rc;

	ptb_run_init(&r);
	for (int i = 0; i < 6 && c->argv[i]; i++)
		ptb_argv_push(&r.args, c->argv[i]);
	for (int i = 0; i < 3 && c->env[i]; i++)
		ptb_argv_push(&r.env, c->env[i]);
	r.fn = c->fn;
	r.arg = &kept;
	r.dir = c->dir;
	r.timeout_ms = c->timeout_ms;
	r.out_to = c->out_to;
	r.err_to = c->err_to;
	r.cap = c->cap;
	r.flags = c->flags;
	r.keep_fds[r.nkeep++] = kept;
	rc = ptb_run(&r, &err);
	ok(rc == 0, "%s: runs (%s)", c->name, err.msg);
	ok(r.exited == c->exited && r.status == c->status && r.signal == c->signal &&
	   r.timed_out == c->timed_out && r.exec_errno == c->exec_errno,
	   "%s: exited %d status %d signal %d timed_out %d errno %d", c->name,
	   r.exited, r.status, r.signal, r.timed_out, r.exec_errno);
	ok(ptb_run_code(&r) == c->code, "%s: code %d", c->name, ptb_run_code(&r));
	if (c->out)
		is_str(r.out.data, c->out, "%s: stdout", c->name);
	else
		ok(r.out.len == c->out_len && strspn(r.out.data, "x") == c->out_len,
		   "%s: stdout kept %zu bytes", c->name, r.out.len);
	ok(r.out_cut == c->out_cut, "%s: cut %d", c->name, r.out_cut);
	ok(*c->err_has ? strstr(r.err.data, c->err_has) != NULL : r.err.len == 0,
	   "%s: stderr '%s'", c->name, r.err.data);
	if (c->max_ms)
		ok(r.ms < c->max_ms, "%s: ends in %.0f ms (limit %d)", c->name, r.ms, c->timeout_ms);
	ptb_run_free(&r);
}

/* The whole process group dies at the time limit: a grandchild too. */
static void group_killed(void)
{
	struct ptb_run r;
	struct ptb_err err = { 0 };
	long gc;
	int gone = 0;

	ptb_run_init(&r);
	ptb_argv_pushl(&r.args, "/bin/sh", "-c", "sleep 30 & echo $!; wait", (char *)NULL);
	r.out_to = PTB_RUN_CAPTURE;
	r.timeout_ms = 300;
	ok(ptb_run(&r, &err) == 0 && r.timed_out, "a shell with a child in the background times out");
	gc = strtol(r.out.data, NULL, 10);
	/* killed: gone, or a zombie until whoever inherits it reaps it */
	for (int i = 0; i < 500 && gc > 0 && !gone; i++) {
		struct timespec nap = { 0, 10 * 1000 * 1000 };
		char path[64], stat[256] = "", *paren;
		FILE *f;

		snprintf(path, sizeof path, "/proc/%ld/stat", gc);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(stat, sizeof stat, f))
				stat[0] = '\0';
			fclose(f);
		}
		paren = strrchr(stat, ')');
		gone = !f || (paren && paren[1] == ' ' && paren[2] == 'Z');
		if (!gone)
			nanosleep(&nap, NULL);
	}
	ok(gc > 0 && gone, "...and its background sleep (pid %ld) is killed with it", gc);
	ptb_run_free(&r);
}

/* Several at once: start, check while they run, wait. */
static void concurrent(void)
{
	struct ptb_run r[3];
	struct ptb_err err = { 0 };
	int started = 0, running = 0, done = 0;

	for (int i = 0; i < 3; i++) {
		ptb_run_init(&r[i]);
		ptb_argv_pushl(&r[i].args, "/bin/sh", "-c", "read x; echo \"$x\"", (char *)NULL);
		r[i].out_to = PTB_RUN_CAPTURE;
		r[i].flags = PTB_RUN_STDIN_NULL;
		ptb_argv_push(&r[i].env, "X=1");
	}
	for (int i = 0; i < 3; i++)
		started += ptb_run_start(&r[i], &err) == 0;
	ok(started == 3, "three children start (%s)", err.msg);
	/* stdin is /dev/null: each ends at once; check never blocks */
	for (int spins = 0; spins < 2000 && done < 3; spins++) {
		struct timespec nap = { 0, 1000 * 1000 };

		done = 0;
		for (int i = 0; i < 3; i++)
			done += ptb_run_check(&r[i]);
		running += 3 - done;
		nanosleep(&nap, NULL);
	}
	ok(done == 3, "ptb_run_check reaps all three (%d polls saw one running)", running);
	for (int i = 0; i < 3; i++) {
		ok(r[i].exited && r[i].status == 0 && strcmp(r[i].out.data, "\n") == 0,
		   "child %d: exit 0, read nothing", i);
		ptb_run_free(&r[i]);
	}
	/* ptb_run_free stops one that still runs */
	ptb_run_init(&r[0]);
	ptb_argv_pushl(&r[0].args, "sleep", "30", (char *)NULL);
	ok(ptb_run_start(&r[0], &err) == 0 && ptb_run_check(&r[0]) == 0, "a sleep runs");
	pid_t pid = r[0].pid;
	ptb_run_free(&r[0]);
	ok(kill(pid, 0) != 0 && errno == ESRCH, "ptb_run_free kills and reaps it");
}

static void errors(const char *dir)
{
	struct ptb_run r;
	struct ptb_err err = { 0 };
	char *f = ptb_xasprintf("%s/no/such/dir/log", dir), *log = ptb_xasprintf("%s/log", dir);
	struct ptb_buf b;

	ptb_run_init(&r);
	ptb_argv_pushl(&r.args, "/bin/sh", "-c", "echo x; echo y >&2; exit 9", (char *)NULL);
	r.out_to = PTB_RUN_FILE;
	r.err_to = PTB_RUN_TO_OUT;
	r.out_path = f;
	ok(ptb_run(&r, &err) == -1 && err.code == PTB_EIO && strstr(err.msg, "cannot write '") &&
	   strstr(err.msg, "no/such/dir/log"), "an output file that cannot be written: %s", err.msg);
	r.out_path = log;
	ok(ptb_run(&r, &err) == 0 && r.status == 9, "stdout and stderr to a file");
	ptb_buf_init(&b);
	ok(ptb_file_read(log, 0, &b, &err) == 0 && strcmp(b.data, "x\ny\n") == 0,
	   "...which holds both");
	ptb_run_free(&r);
	ptb_run_init(&r);
	ok(ptb_run(&r, &err) == -1 && strstr(err.msg, "no program"), "nothing to run: %s", err.msg);
	ptb_run_free(&r);
	ptb_buf_free(&b);
	unlink(log);
	free(log);
	free(f);
}

static void argv_build(void)
{
	struct ptb_argv a;

	ptb_argv_init(&a);
	ok(a.v == NULL && a.n == 0, "an empty vector");
	for (int i = 0; i < 20; i++)
		ptb_argv_pushf(&a, "-%d", i);
	ptb_argv_pushl(&a, "x", "y", (char *)NULL);
	ok(a.n == 22 && a.v[22] == NULL && strcmp(a.v[19], "-19") == 0 && strcmp(a.v[21], "y") == 0,
	   "push, pushf, pushl keep order and the NULL at the end");
	ptb_argv_free(&a);
	ok(a.v == NULL && a.n == 0, "free empties it");
}

int main(void)
{
	const char *base = getenv("TEST_TMPDIR");
	char *dir = ptb_xasprintf("%s/run.XXXXXX", base ? base : "/tmp");
	int p[2], fd;

	if (!mkdtemp(dir) || chdir(dir) != 0 || pipe(p) != 0)
		return 99;
	fd = open("not-exec", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "#!/bin/sh\necho ran\n", 19) != 19 || close(fd) != 0)
		return 99;
	spare_fd = p[1];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i], p[0]);
	group_killed();
	concurrent();
	errors(dir);
	argv_build();
	close(p[0]);
	close(p[1]);
	unlink("not-exec");
	if (chdir("/") == 0)
		rmdir(dir);
	free(dir);
	return tap_done();
}
