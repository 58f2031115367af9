/* timeit.c - run commands N times each, interleaved (A B C A B C ...), and
 * print each one's median, minimum and 90th-percentile wall time.  Used by
 * the benchmarks under bench/: fork and exec timed with CLOCK_MONOTONIC,
 * stdout and stderr to /dev/null, so the harness adds no process of its
 * own to what is measured (the date(1) calls of a shell loop cost about
 * as much as a short command).
 *
 *   timeit N LABEL -- [NAME=VALUE...] CMD ARGS... [--- LABEL -- ...]...
 *
 * NAME=VALUE words before the command are set in its environment (no
 * env(1) process in between to time).
 * Output, a line per command:  LABEL<TAB>median_us<TAB>min_us<TAB>p90_us
 * A command that exits non-zero is reported on stderr once (its times
 * still count: plan exits 1 when it finds problems). */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct cmd {
	const char *label;
	char **argv;
	double *us;
	int warned;
};

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int run(struct cmd *c, double *us)
{
	double t0 = now_us();
	pid_t p = fork();
	int st;

	if (p < 0)
		return -1;
	if (p == 0) {
		int fd = open("/dev/null", O_WRONLY);
		char **a = c->argv;

		while (*a && strchr(*a, '=') && !strchr(*a, '/'))
			putenv(*a++);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (*a)
			execvp(a[0], a);
		_exit(127);
	}
	if (waitpid(p, &st, 0) < 0)
		return -1;
	*us = now_us() - t0;
	if (!c->warned && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
		fprintf(stderr, "timeit: %s exited with %d\n", c->label,
		        WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		c->warned = 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cmd cmds[16];
	int n, ncmd = 0, i = 2;

	if (argc < 5 || (n = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: timeit N LABEL -- CMD ARGS... [--- LABEL -- CMD ARGS...]...\n");
		return 2;
	}
	while (i < argc && ncmd < 16) {
		struct cmd *c = &cmds[ncmd++];

		c->label = argv[i++];
		if (i >= argc || strcmp(argv[i], "--") != 0) {
			fprintf(stderr, "timeit: expected -- after %s\n", c->label);
			return 2;
		}
		c->argv = &argv[++i];
		while (i < argc && strcmp(argv[i], "---") != 0)
			i++;
		if (i < argc)
			argv[i++] = NULL;
		c->us = calloc((size_t)n, sizeof *c->us);
		c->warned = 0;
		if (!c->us || !c->argv[0]) {
			fprintf(stderr, "timeit: no command for %s\n", c->label);
			return 2;
		}
	}
	for (int k = 0; k < ncmd; k++) {   /* warm the page cache */
		double ignored;
		run(&cmds[k], &ignored);
	}
	for (int r = 0; r < n; r++)
		for (int k = 0; k < ncmd; k++)
			if (run(&cmds[k], &cmds[k].us[r]) != 0) {
				perror("timeit");
				return 1;
			}
	for (int k = 0; k < ncmd; k++) {
		qsort(cmds[k].us, (size_t)n, sizeof(double), cmp);
		printf("%s\t%.0f\t%.0f\t%.0f\n", cmds[k].label, cmds[k].us[n / 2], cmds[k].us[0],
		       cmds[k].us[(n * 9) / 10 < n ? (n * 9) / 10 : n - 1]);
		free(cmds[k].us);
	}
	return 0;
}
