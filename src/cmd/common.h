/* common.h - small helpers shared by the subcommands. */
#ifndef PTB_CMD_COMMON_H
#define PTB_CMD_COMMON_H

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "lua/recipe.h"

/* Parse options for cmd with getopt_long.  `handle` gets each option that is
 * not a common one and returns 0, or a status to stop with.  Returns -1 to
 * continue (options done; positional args start at optind), or a status
 * the command should return (0 after --help, PTB_EUSAGE on bad options). */
int ptb_cmd_getopt(struct ptb_ctx *ctx, const struct ptb_cmd *cmd,
                   int argc, char **argv, const char *shortopts,
                   const struct option *longopts,
                   int (*handle)(void *state, int c, const char *arg),
                   void *state);

/* Print a document as pretty JSON on stdout. */
/* Print recipe warnings ({message, hint} objects) to stderr. */
void ptb_cmd_print_warnings(const cJSON *warnings);
void ptb_cmd_print_json(const cJSON *doc);

/* The path of template NAME on the recipe path (templates/ beside each
 * recipe directory), or NULL; the caller frees it. */
char *ptb_cmd_find_template(struct ptb_ctx *ctx, const char *name);

#endif
