/* log.c - user-facing messages, one style, optional colour. */
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int verbosity;
static enum ptb_color color_mode = PTB_COLOR_AUTO;

void ptb_log_init(int v, enum ptb_color c)
{
	verbosity = v;
	color_mode = c;
}

int ptb_log_verbosity(void)
{
	return verbosity;
}

int ptb_log_color(int fd)
{
	const char *nc;

	if (color_mode == PTB_COLOR_ALWAYS)
		return 1;
	if (color_mode == PTB_COLOR_NEVER)
		return 0;
	nc = getenv("NO_COLOR");
	if (nc && *nc)
		return 0;
	return isatty(fd);
}

struct ptb_paint ptb_log_paint(int fd)
{
	static const struct ptb_paint on = {
		"\033[1m", "\033[31m", "\033[33m", "\033[1;31m", "\033[1;33m", "\033[0m"
	};
	static const struct ptb_paint off = { "", "", "", "", "", "" };

	return ptb_log_color(fd) ? on : off;
}

static void emit(const char *label, const char *color, const char *fmt,
                 va_list ap)
{
	int c = ptb_log_color(STDERR_FILENO);

	fputs("ptbuild: ", stderr);
	if (c)
		fprintf(stderr, "\033[%sm%s:\033[0m ", color, label);
	else
		fprintf(stderr, "%s: ", label);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void ptb_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit("error", "1;31", fmt, ap);
	va_end(ap);
}

void ptb_warn(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 0)
		return;
	va_start(ap, fmt);
	emit("warning", "1;33", fmt, ap);
	va_end(ap);
}

void ptb_note(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 0)
		return;
	va_start(ap, fmt);
	emit("note", "1;36", fmt, ap);
	va_end(ap);
}

void ptb_debug(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 1)
		return;
	va_start(ap, fmt);
	emit("debug", "2", fmt, ap);
	va_end(ap);
}

void ptb_hint(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 0)
		return;
	va_start(ap, fmt);
	fputs("hint: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int ptb_report(const struct ptb_err *err)
{
	ptb_error("%s", err->msg[0] ? err->msg : "unknown error");
	if (err->hint[0])
		ptb_hint("%s", err->hint);
	return err->code ? err->code : PTB_EIO;
}
