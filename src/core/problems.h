/* problems.h - the problems of a plan or fleet and the findings of doctor
 * ({severity, code, message, fix[, node][, seen]}): counted and shown the
 * same way by every command.  Nothing here prints on its own: a command
 * names the stream (or the log, for generate's stderr report) and the
 * colours (ptb_log_paint). */
#ifndef PTB_PROBLEMS_H
#define PTB_PROBLEMS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "util/log.h"

/* How many of problems (an array) have severity sev ("error"...). */
int ptb_problems_count(const cJSON *problems, const char *sev);

/* One problem as a list item (plan, fleet):
 *   "  SEVERITY [CODE] (NODE) MESSAGE" then "    fix: FIX",
 * the severity red for an error, yellow otherwise; " (NODE)" only for a
 * problem of one node. */
void ptb_problem_print(FILE *f, const cJSON *problem, const struct ptb_paint *p);
void ptb_problems_print(FILE *f, const cJSON *problems, const struct ptb_paint *p);

/* One doctor finding: a blank line, "SEVERITY [CODE] MESSAGE" (bold red or
 * bold yellow), then "  seen: ..." and "  fix:  ..." when given. */
void ptb_finding_print(FILE *f, const cJSON *finding, const struct ptb_paint *p);

/* Report problems on the log (stderr) before acting on a plan, each
 * "plan[ WHERE]: MESSAGE [CODE][ (node NODE)]" with its fix as a hint: an
 * error as an error, or as a warning when errors_only_warn.  Returns the
 * number of errors. */
int ptb_problems_log(const cJSON *problems, const char *where, int errors_only_warn);

/* The codes of the problems of severity sev, each once, in order:
 * "code-a, code-b" (caller frees), or NULL when there is none. */
char *ptb_problems_join_codes(const cJSON *problems, const char *sev);

#endif
