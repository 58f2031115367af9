/* facts.h - the facts document (schema "ptbuild.facts/1", DESIGN.md):
 * where it comes from (this host, --facts FILE, --profile NAME) and how
 * it is checked before anything relies on it.
 *
 * Ownership: every cJSON * returned is the caller's (cJSON_Delete). */
#ifndef PTB_FACTS_H
#define PTB_FACTS_H

#include <cjson/cJSON.h>

#include "util/util.h"

#define PTB_FACTS_SCHEMA "ptbuild.facts/1"

/* Check a parsed document against the facts contract: the schema string,
 * and the type of every key other parts rely on.  `src` names the input in
 * messages ("'gh200.json': key 'host.page_size': expected a number").
 * Returns 0 or -1 with err (PTB_EUSAGE). */
int ptb_facts_validate(const cJSON *facts, const char *src, struct ptb_err *err);
/* The same for detect's environment document (ptb_detect_environment):
 * the keys doctor reads have their types.  0, or -1 with err (PTB_EUSAGE). */
int ptb_facts_validate_environment(const cJSON *env, const char *src, struct ptb_err *err);

/* Read, parse and validate a facts file. */
cJSON *ptb_facts_load(const char *file, struct ptb_err *err);

/* Find profiles/NAME.json on the recipe path (dirs, first wins) and load
 * it.  An unknown name is PTB_EUSAGE listing the known ones. */
cJSON *ptb_facts_profile(const char *const *dirs, size_t ndirs,
                         const char *name, struct ptb_err *err);

#endif
