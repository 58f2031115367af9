/* cmds.h - one entry point per subcommand (src/cmd/<name>.c). */
#ifndef PTB_CMDS_H
#define PTB_CMDS_H

#include "cli.h"

int ptb_cmd_arch(struct ptb_ctx *ctx, int argc, char **argv);
int ptb_cmd_inspect(struct ptb_ctx *ctx, int argc, char **argv);
int ptb_cmd_validate(struct ptb_ctx *ctx, int argc, char **argv);

extern const struct ptb_cmd ptb_cmd_arch_def;
extern const struct ptb_cmd ptb_cmd_inspect_def;
extern const struct ptb_cmd ptb_cmd_validate_def;

#endif
