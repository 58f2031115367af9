/* cmds.h - one entry point per subcommand (src/cmd/<name>.c). */
#ifndef PTB_CMDS_H
#define PTB_CMDS_H

#include "cli/cli.h"

int ptb_cmd_arch(struct ptb_ctx *ctx, int argc, char **argv);
int ptb_cmd_detect(struct ptb_ctx *ctx, int argc, char **argv);
int ptb_cmd_doctor(struct ptb_ctx *ctx, int argc, char **argv);
int ptb_cmd_gather(struct ptb_ctx *ctx, int argc, char **argv);
int ptb_cmd_generate(struct ptb_ctx *ctx, int argc, char **argv);
int ptb_cmd_inspect(struct ptb_ctx *ctx, int argc, char **argv);
int ptb_cmd_plan(struct ptb_ctx *ctx, int argc, char **argv);
int ptb_cmd_profiles(struct ptb_ctx *ctx, int argc, char **argv);
int ptb_cmd_validate(struct ptb_ctx *ctx, int argc, char **argv);

extern const struct ptb_cmd ptb_cmd_arch_def;
extern const struct ptb_cmd ptb_cmd_detect_def;
extern const struct ptb_cmd ptb_cmd_doctor_def;
extern const struct ptb_cmd ptb_cmd_gather_def;
extern const struct ptb_cmd ptb_cmd_generate_def;
extern const struct ptb_cmd ptb_cmd_inspect_def;
extern const struct ptb_cmd ptb_cmd_plan_def;
extern const struct ptb_cmd ptb_cmd_profiles_def;
extern const struct ptb_cmd ptb_cmd_validate_def;

int ptb_cmd_fetch(struct ptb_ctx *ctx, int argc, char **argv);
extern const struct ptb_cmd ptb_cmd_fetch_def;

#endif
