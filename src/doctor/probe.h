/* probe.h - what doctor looks at beyond the facts: the environment a build
 * would run in (PATH, LD_LIBRARY_PATH, CUDA_HOME...), which libraries the
 * loader would find, conda and pip CUDA packages, container and emulation
 * markers.  Every file is read under the sysroot; environment variables
 * come from the process and are interpreted as paths on that machine.
 * Nothing is spawned. */
#ifndef PTB_DOCTOR_PROBE_H
#define PTB_DOCTOR_PROBE_H

#include <cjson/cJSON.h>

#include "util/util.h"

/* The "observed" document for the doctor recipe (caller frees).  facts
 * (may be NULL) supplies host.arch for the library directories. */
cJSON *ptb_doctor_probe(const char *sysroot, const cJSON *facts);

/* Resolve path (as seen on the machine) inside root, following symlinks
 * the way that machine would, never leaving root.  Returns the path as
 * seen on the machine (caller frees), or NULL when a component is missing
 * or the links loop. */
char *ptb_sysroot_realpath(const char *root, const char *path);

/* e_machine of an ELF file as "x86_64", "aarch64", ... or NULL. */
const char *ptb_elf_machine_name(const char *file);

#endif
