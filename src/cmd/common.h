/* common.h - small helpers shared by the subcommands. */
#ifndef PTB_CMD_COMMON_H
#define PTB_CMD_COMMON_H

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "core/plan.h"
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

/* getopt values of the plan options: PTB_OPT_PLAN + 0 ... + 7. */
#define PTB_OPT_PLAN 1100
#define PTB_PLAN_OPTIONS \
	{ "facts", required_argument, NULL, PTB_OPT_PLAN + 0 }, \
	{ "profile", required_argument, NULL, PTB_OPT_PLAN + 1 }, \
	{ "sysroot", required_argument, NULL, PTB_OPT_PLAN + 2 }, \
	{ "torch", required_argument, NULL, PTB_OPT_PLAN + 3 }, \
	{ "cuda", required_argument, NULL, PTB_OPT_PLAN + 4 }, \
	{ "arch-list", required_argument, NULL, PTB_OPT_PLAN + 5 }, \
	{ "max-jobs", required_argument, NULL, PTB_OPT_PLAN + 6 }, \
	{ "no-cudnn", no_argument, NULL, PTB_OPT_PLAN + 7 }

/* The options of a fleet plan (plan): PTB_OPT_PLAN + 8 ... + 10. */
#define PTB_FLEET_OPTIONS \
	{ "skip-bad", no_argument, NULL, PTB_OPT_PLAN + 8 }, \
	{ "build-node", required_argument, NULL, PTB_OPT_PLAN + 9 }, \
	{ "max-age", required_argument, NULL, PTB_OPT_PLAN + 10 }

#define PTB_FLEET_HELP \
	"Several --facts (or a directory of facts files) make a fleet plan: one\n" \
	"build per platform present (x86_64, SBSA, Jetson) for every node of it.\n" \
	"  --skip-bad        plan for the other nodes when a facts file is bad\n" \
	"                    (each is named; without it a bad file stops the plan)\n" \
	"  --build-node NAME the node whose compilers and memory the build of its\n" \
	"                    platform uses (default: the one with the most cores)\n" \
	"  --max-age DAYS    facts taken longer ago are stale (default 7)\n"

/* Help lines for the plan options, to append to a command's help. */
#define PTB_PLAN_HELP \
	"  --facts FILE      plan for the machine a facts file describes\n" \
	"                    ('ptbuild detect --json > FILE')\n" \
	"  --profile NAME    plan for a shipped profile ('ptbuild profiles')\n" \
	"  --sysroot DIR     detect facts under DIR instead of /\n" \
	"  --torch VER       PyTorch release (default: the newest ptbuild knows)\n" \
	"  --cuda VER        CUDA release instead of ptbuild's choice\n" \
	"  --arch-list LIST  TORCH_CUDA_ARCH_LIST instead of ptbuild's choice\n" \
	"  --max-jobs N      MAX_JOBS instead of ptbuild's choice\n" \
	"  --no-cudnn        build without cuDNN (USE_CUDNN=0, none downloaded)\n"

/* Handle one getopt result c with its argument.  Returns 1 when c is a
 * plan option (stored in o), 0 when it is not, -1 on a bad value
 * (already reported as a usage error for command cmd). */
int ptb_plan_opt(struct ptb_plan_opts *o, const char *cmd, int c, const char *arg);

/* Print a document as pretty JSON on stdout. */
/* Print recipe warnings ({message, hint} objects) to stderr. */
void ptb_cmd_print_warnings(const cJSON *warnings);
void ptb_cmd_print_json(const cJSON *doc);

/* The path of template NAME on the recipe path (templates/ beside each
 * recipe directory), or NULL; the caller frees it. */
char *ptb_cmd_find_template(struct ptb_ctx *ctx, const char *name);

#endif
