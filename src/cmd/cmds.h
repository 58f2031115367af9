/* cmds.h - one entry point per subcommand (src/cmd/<name>.c). */
#ifndef PTB_CMDS_H
#define PTB_CMDS_H

#include "cli.h"

int ptb_cmd_arch(struct ptb_ctx *ctx, int argc, char **argv);

extern const struct ptb_cmd ptb_cmd_arch_def;

int ptb_cmd_fetch(struct ptb_ctx *ctx, int argc, char **argv);
extern const struct ptb_cmd ptb_cmd_fetch_def;

#endif
