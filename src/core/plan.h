/* plan.h - make the build plan (schema "ptbuild.plan/1", DESIGN.md) from
 * facts and options; the API generate, fetch and validate call.
 *
 * Facts come from --facts FILE, --profile NAME, or this host (--sysroot).
 * The recipe recipes/plan.lua decides; C checks the types of every key
 * other parts rely on before anyone acts on it.
 *
 * Ownership: *plan and *facts returned by ptb_plan_make are the caller's
 * (cJSON_Delete); the strings in struct ptb_plan_opts are borrowed. */
#ifndef PTB_PLAN_H
#define PTB_PLAN_H

#include <cjson/cJSON.h>

#include "lua/engine.h"

#define PTB_PLAN_SCHEMA "ptbuild.plan/1"
#define PTB_PLAN_MAX_FACTS 64

struct ptb_plan_opts {
	const char *facts_file;   /* --facts FILE */
	const char *profile;      /* --profile NAME */
	const char *sysroot;      /* --sysroot DIR (host facts) */
	const char *torch;        /* --torch VER */
	const char *cuda;         /* --cuda VER */
	const char *arch_list;    /* --arch-list LIST */
	const char *max_jobs;     /* --max-jobs N */
	int no_cudnn;             /* --no-cudnn */
	/* A fleet (fleet.h): every --facts in order (files or directories);
	 * facts_file is the last.  More than one, or a directory, is a fleet. */
	const char *facts_files[PTB_PLAN_MAX_FACTS];
	size_t nfacts;
	int skip_bad;             /* --skip-bad */
	const char *build_node;   /* --build-node NAME */
	double max_age_days;      /* --max-age DAYS (0: the default) */
	const char *cmd;          /* the command the options are for (messages) */
};

/* Load the facts the options name (file, profile or this host): a
 * profile is looked up along lua's recipe path, this host detected with
 * lua's detect recipe. */
cJSON *ptb_plan_facts(struct ptb_lua *lua, const struct ptb_plan_opts *o,
                      char **source, struct ptb_err *err);

/* The user's choices in o (--torch, --cuda, --arch-list, --max-jobs,
 * --no-cudnn) as the keys plan.make and fleet.make read, into args. */
void ptb_plan_add_choices(cJSON *args, const struct ptb_plan_opts *o);

/* Make the plan.  Returns 0 with *plan (validated) and, when facts is not
 * NULL, *facts; or -1 with err: PTB_EUSAGE for bad options or facts,
 * PTB_ERECIPE when the recipe fails or returns a malformed plan.  A plan
 * with error problems is still 0: see ptb_plan_has_errors. */
int ptb_plan_make(struct ptb_lua *lua, const struct ptb_plan_opts *o,
                  cJSON **plan, cJSON **facts, struct ptb_err *err);

/* Is this a fleet: more than one --facts, or a directory? */
int ptb_plan_is_fleet(const struct ptb_plan_opts *o);

/* Finish a plan document a recipe returned (env array -> object, checked,
 * schema first): 0, or -1 with err (PTB_ERECIPE).  ptb_plan_make and the
 * fleet planner use it. */
int ptb_plan_finish(cJSON *plan, struct ptb_err *err);

/* Check a plan document's shape and the form of every value an output
 * uses (plan_check.c).  file: the plan file's name for messages, or NULL
 * for a plan the recipe made.  0, or -1 with err: PTB_EUSAGE naming file
 * and key, PTB_ERECIPE for the recipe's plan. */
int ptb_plan_check(const cJSON *plan, const char *file, struct ptb_err *err);
int ptb_plan_validate(const cJSON *plan, struct ptb_err *err); /* file NULL */

/* Check a fleet document (ptbuild.fleet/1, fleet.h) read from file: its
 * targets, nodes and problems, and each build as ptb_plan_check checks a
 * plan, the key naming the build ("builds[1].cuda.version").  0, or -1
 * with err (PTB_EUSAGE). */
int ptb_plan_check_fleet(const cJSON *fleet, const char *file, struct ptb_err *err);

/* Read, parse and check a saved plan or fleet plan: *is_fleet says which.
 * NULL with err: PTB_EIO when it cannot be read, PTB_EUSAGE when it is
 * neither a valid plan nor a valid fleet plan. */
cJSON *ptb_plan_load_any(const char *path, int *is_fleet, struct ptb_err *err);

/* Read, parse and check a saved plan (ptbuild.plan/1 JSON).  NULL with err:
 * PTB_EIO when it cannot be read, PTB_EUSAGE when it is not a valid plan. */
cJSON *ptb_plan_load(const char *path, struct ptb_err *err);

/* What changed from plan was to plan now (plan_diff.c): a new
 * ptbuild.plan-diff/1 document {decisions, env, cmake: [{topic|name, was,
 * now}], problems: {added, gone}}, the caller's to delete. */
cJSON *ptb_plan_diff(const cJSON *was, const cJSON *now);
int ptb_plan_diff_empty(const cJSON *diff);

/* Number of problems with severity "error". */
int ptb_plan_has_errors(const cJSON *plan);

#endif
