/* spawn.c - run something that may hang or crash (a driver library, a
 * compiler) in a child with a time limit; conda isolates its libcuda
 * probe the same way (conda/plugins/virtual_packages/cuda.py). */
#define _GNU_SOURCE 1
#include "detect/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int ptb_probe_child(void (*fn)(int fd, void *arg), void *arg, int timeout_ms,
                    struct ptb_buf *out, int *wstatus)
{
	int fds[2], timed_out = 0, st = 0;
	long deadline = now_ms() + timeout_ms;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		/* own process group, so a library's helper processes die too */
		setpgid(0, 0);
		fn(fds[1], arg);
		ptb_child_exit(0);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		long left = deadline - now_ms();
		char chunk[4096];
		ssize_t n;
		int pr;

		if (left <= 0) {
			timed_out = 1;
			break;
		}
		pr = poll(&pfd, 1, (int)left);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr == 0) {
			timed_out = 1;
			break;
		}
		n = read(fds[0], chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out->len < (1u << 20))
			ptb_buf_add(out, chunk, (size_t)n);
	}
	close(fds[0]);
	if (timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (wstatus)
		*wstatus = st;
	return timed_out ? 1 : 0;
}

static void exec_child(int fd, void *arg)
{
	char *const *argv = arg;
	int null = open("/dev/null", O_RDONLY);

	if (null >= 0)
		dup2(null, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	execvp(argv[0], argv);
	_exit(127);
}

int ptb_probe_run(char *const argv[], int timeout_ms, struct ptb_buf *out)
{
	int st = 0, rc;

	ptb_buf_reset(out);
	ptb_buf_adds(out, "");
	rc = ptb_probe_child(exec_child, (void *)argv, timeout_ms, out, &st);
	if (rc != 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int ptb_probe_timeout_ms(void)
{
	const char *t = ptb_probe_env("PTBUILD_PROBE_TIMEOUT_MS");
	long v = t ? strtol(t, NULL, 10) : 0;

	return v > 0 && v < 600000 ? (int)v : 4000;
}
