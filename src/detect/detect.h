/* detect.h - observe a machine and describe it as a facts document.
 * Every file is read relative to opts->sysroot ("/" for this host), so a
 * directory can stand for any machine.  A fact that cannot be found is
 * absent or null with a note in "notes"; that is never an error.
 *
 * C gathers raw observations (src/detect/probe_*.c); the recipe
 * detect.enrich (recipes/detect.lua) turns them into facts. */
#ifndef PTB_DETECT_H
#define PTB_DETECT_H

#include <cjson/cJSON.h>

#include "lua/engine.h"
#include "util/util.h"

struct ptb_detect_opts {
	const char *sysroot;       /* NULL or "/" for this host */
	struct ptb_lua *lua;       /* NULL: an engine on the default recipe path */
	const char *toolkit;       /* NULL, or a toolkit root to read besides those
	                              detect finds (found_by "given") */
	int toolkits_only;         /* 1: leave the GPUs and driver unprobed (no
	                              libcuda or NVML child): for reading one more
	                              toolkit into facts already made */
	int gpu_list_timeout_s;    /* an installed nvcc asked for its GPU list
	                              (toolkits[].gpu_list): each list's time
	                              limit; 0: PTB_GPU_LIST_TIMEOUT_S */
};

/* The raw observations (what detect.enrich receives); NULL with err when
 * the sysroot is not a directory (PTB_EUSAGE).  Caller frees. */
cJSON *ptb_detect_raw(const struct ptb_detect_opts *opts, struct ptb_err *err);

/* The facts document of the machine; NULL with err when the sysroot is
 * unusable (PTB_EUSAGE) or the recipe fails (PTB_ERECIPE).  Caller frees. */
cJSON *ptb_detect(const struct ptb_detect_opts *opts, struct ptb_err *err);

/* The environment a build would run in, as doctor judges it (the
 * document recipes/detect.lua's environment returns: variables, the
 * toolkits they name, libraries in the loader's order, pip, conda and
 * torch installs, container and emulation markers); arch (the facts'
 * host.arch) picks the loader's multiarch directories.  NULL with err as
 * ptb_detect.  Caller frees. */
cJSON *ptb_detect_environment(const struct ptb_detect_opts *opts, const char *arch,
                              struct ptb_err *err);

/* The PyTorch source checkout doctor judges: dir (a path on the machine
 * under opts->sysroot; given: named by the user, so not being one is an
 * error), or with dir NULL this process's working directory on this host
 * when it is one.  0 with *out the raw observation (probe_source.c) or
 * NULL when there is none; -1 with err (PTB_EUSAGE: not a checkout, a
 * version.txt that is no version; PTB_EIO).  A working directory whose
 * version.txt cannot be read as a version is no error: *out is then
 * { path, version_error, version_hint }.  Caller frees *out. */
int ptb_detect_source(const struct ptb_detect_opts *opts, const char *dir, cJSON **out,
                      struct ptb_err *err);

/* Does line (len bytes) read prefix followed by digits and at most one
 * lowercase letter ("sm_90", "compute_100f"), at most 32 bytes?  The one
 * reading of a name in nvcc's lists, whether nvcc printed it or a facts
 * file carries it. */
int ptb_detect_gpu_name(const char *line, size_t len, const char *prefix);

/* detect's bound on each of an installed nvcc's two lists (seconds) */
#define PTB_GPU_LIST_TIMEOUT_S 10

/* Ask nvcc which GPU code it builds: {"nvcc": path, "arch": ["compute_75",
 * ...] (its --list-gpu-arch), "code": ["sm_75", ...] (its --list-gpu-code)},
 * two runs of at most timeout_s each (0: 60).  NULL with err (PTB_EVALID)
 * when either fails or names nothing.  Runs what it is given: the caller
 * decides that this nvcc may run here. */
cJSON *ptb_detect_gpu_list(const char *nvcc, int timeout_s, struct ptb_err *err);

#endif
