/* fleet.h - a plan for many machines (schema "ptbuild.fleet/1"): the
 * facts of every node, read from files or directories, grouped by
 * platform by recipes/fleet.lua into one ordinary plan per platform.
 *
 * A node is named by the host name its facts carry (facts.taken.host,
 * written by 'ptbuild detect --json --stamp') or else by its file.  Two
 * files of one node, files taken longer ago than max_age_days (by
 * taken.at, else the file's time) and files that are not valid facts are
 * problems attributed to the node or file.
 *
 * Ownership: every cJSON * returned is the caller's (cJSON_Delete). */
#ifndef PTB_FLEET_H
#define PTB_FLEET_H

#include <cjson/cJSON.h>

#include "core/plan.h"
#include "lua/engine.h"

#define PTB_FLEET_SCHEMA "ptbuild.fleet/1"
#define PTB_FLEET_MAX_AGE_DAYS 7.0

/* Read the nodes the --facts options name.  Returns a new array of
 * {name, source, taken_at, facts} (sorted by name) and appends to problems
 * (an array) the duplicates, stale files and, with skip_bad, the files
 * skipped.  NULL with err: PTB_EUSAGE naming every bad file when skip_bad
 * is off, or when no node is left; PTB_EIO when a directory cannot be
 * read. */
cJSON *ptb_fleet_load(const struct ptb_plan_opts *o, cJSON *problems,
                      struct ptb_err *err);

/* Make the fleet document.  0 with *fleet, or -1 with err (as
 * ptb_plan_make, and as ptb_fleet_load). */
int ptb_fleet_make(struct ptb_lua *lua, const struct ptb_plan_opts *o,
                   cJSON **fleet, struct ptb_err *err);

/* Error problems in the fleet document: in its problems and every build's. */
int ptb_fleet_has_errors(const cJSON *fleet);

/* Record where and when facts were taken: facts.taken = {host, at}.
 * host: name if not NULL, else the sysroot's etc/hostname (sysroot not
 * NULL), else this host's name; at: now, UTC (RFC 3339).  0, or -1 with
 * err (PTB_EUSAGE: a bad name). */
int ptb_fleet_stamp(cJSON *facts, const char *sysroot, const char *name,
                    struct ptb_err *err);

#endif
