/* recipe.h - run a recipe entry and turn its answer into a document or the
 * caller's error.  The one place a recipe's { errors = [...] } answer and a
 * raised Lua error become an exit status (recipes/API.md, "Errors"):
 *
 *   raised error, no document         PTB_ERECIPE (3), naming the recipe
 *   errors of kind "usage"            PTB_EUSAGE (2)
 *   errors of kind "unsupported"      PTB_EFOUND (1)
 *   errors of another or no kind      PTB_ERECIPE (3), naming the recipe
 *
 * When the errors mix kinds the strongest wins: usage, then recipe. */
#ifndef PTB_RECIPE_H
#define PTB_RECIPE_H

#include <cjson/cJSON.h>

#include "lua/engine.h"

/* Call recipe entry name.fn with arg (may be NULL).  Returns 0 with *out,
 * an object the caller deletes; or -1 with *out NULL and err: the first
 * error's message and hint, the status by the table above.  When rest is
 * not NULL it receives the errors after the first ([{message, hint}], the
 * caller's; NULL when there are none) so that a command can show them
 * all: see ptb_recipe_report. */
int ptb_recipe_call(struct ptb_lua *lua, const char *name, const char *fn,
                    const cJSON *arg, cJSON **out, cJSON **rest,
                    struct ptb_err *err);

/* Print err and then the rest (as ptb_report prints), delete rest and
 * return err's status: how a command reports a failed ptb_recipe_call. */
int ptb_recipe_report(const struct ptb_err *err, cJSON *rest);

#endif
