/* detect.h - observe a machine and describe it as a facts document.
 * Every file is read relative to opts->sysroot ("/" for this host), so a
 * directory can stand for any machine.  A fact that cannot be found is
 * absent or null with a note in "notes"; that is never an error. */
#ifndef PTB_DETECT_H
#define PTB_DETECT_H

#include <cjson/cJSON.h>

#include "util/util.h"

struct ptb_detect_opts {
	const char *sysroot;       /* NULL or "/" for this host */
};

/* The facts document of the machine; NULL with err only when the sysroot
 * itself is unusable (not a directory). Caller frees. */
cJSON *ptb_detect(const struct ptb_detect_opts *opts, struct ptb_err *err);

#endif
