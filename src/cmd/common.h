/* common.h - small helpers shared by the subcommands. */
#ifndef PTB_CMD_COMMON_H
#define PTB_CMD_COMMON_H

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "core/plan.h"
#include "lua/recipe.h"

/* The option groups several commands share (cli/options.h tables).  The
 * plan options' state is a struct ptb_plan_opts; --sysroot's alone is a
 * const char *. */
extern const struct ptb_opt ptb_cmd_sysroot_options[];  /* --sysroot */
extern const struct ptb_opt ptb_cmd_input_options[];    /* --facts, --profile, --sysroot */
extern const struct ptb_opt ptb_cmd_torch_options[];    /* --torch, --no-cudnn */
/* The input and the torch groups, --cuda, --arch-list, --max-jobs. */
extern const struct ptb_opt ptb_cmd_plan_options[];
/* --skip-bad, --max-age: reading a fleet's facts files. */
extern const struct ptb_opt ptb_cmd_fleet_read_options[];
/* A paragraph on fleets, the read group, --build-node. */
extern const struct ptb_opt ptb_cmd_fleet_options[];

/* Whether any plan option was given (--arch-list counts when arch_list). */
int ptb_cmd_plan_opts_given(const struct ptb_plan_opts *o, int arch_list);

/* Print a document as pretty JSON on stdout. */
/* Print recipe warnings ({message, hint} objects) to stderr. */
void ptb_cmd_print_warnings(const cJSON *warnings);
void ptb_cmd_print_json(const cJSON *doc);

/* The path of template NAME on the recipe path (templates/ beside each
 * recipe directory), or NULL; the caller frees it. */
char *ptb_cmd_find_template(struct ptb_ctx *ctx, const char *name);

#endif
