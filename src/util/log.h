/* log.h - the only place that prints messages to the user (stderr).
 * Style: "ptbuild: error: cannot read 'etc/os-release'" then "hint: ...". */
#ifndef PTB_LOG_H
#define PTB_LOG_H

#include "util/util.h"

enum ptb_color { PTB_COLOR_AUTO, PTB_COLOR_ALWAYS, PTB_COLOR_NEVER };

/* verbosity: -1 quiet (errors only), 0 normal, 1+ verbose. */
void ptb_log_init(int verbosity, enum ptb_color color);
int ptb_log_verbosity(void);
/* Whether a stream should carry colour (honours --color and NO_COLOR). */
int ptb_log_color(int fd);
/* The escape sequences for text on fd, decided here once (ptb_log_color):
 * every one "" when fd takes no colour. */
struct ptb_paint {
	const char *bold, *red, *yellow, *bold_red, *bold_yellow, *off;
};
struct ptb_paint ptb_log_paint(int fd);

void ptb_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ptb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ptb_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ptb_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ptb_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print err (message and hint) as an error; returns err->code. */
int ptb_report(const struct ptb_err *err);

#endif
