/* validate.h - prove a toolkit and an arch list: compile a test program
 * with nvcc, check its fat binary holds exactly the SASS and PTX asked for,
 * and where a GPU is present run it (saxpy and a reduction checked on the
 * host, __CUDA_ARCH__, versions, cuBLAS and cuDNN header vs library).
 *
 * ptbuild itself never loads libcuda or libcudart: only the compiled test
 * program does, in a child process with a time limit. */
#ifndef PTB_VALIDATE_H
#define PTB_VALIDATE_H

#include <cjson/cJSON.h>

#include "util/util.h"

/* What to validate: everything a plan decides.  The strings belong to the
 * caller. */
struct ptb_validate_target {
	const char *cuda_root;       /* toolkit root (bin/nvcc inside) */
	const char *nvcc;            /* path of nvcc */
	const char *cuda_version;    /* "13.0" (from nvcc --version) */
	const char *arch_list;       /* TORCH_CUDA_ARCH_LIST form */
	const cJSON *gencode;        /* array of nvcc flags, from arch.convert;
	                                the codes they ask for are what the
	                                binary must hold, exactly */
	const char *host_compiler;   /* -ccbin, or NULL */
};

struct ptb_validate_opts {
	int compile_only;            /* never run the program */
	int run_without_gpu;         /* run even when no driver is seen (tests) */
	int force;                   /* ignore the cache */
	int timeout_s;               /* for the program run (compile: 10x) */
	const char *cache_dir;       /* NULL: $XDG_CACHE_HOME/ptbuild/validate */
	const char *work_dir;        /* NULL: a fresh directory under $TMPDIR */
	int keep;                    /* keep the work directory */
	const cJSON *host;           /* detect's facts of this machine: its
	                                driver (none: nothing runs), GPUs (in
	                                the cache key) and CPUs (nvcc threads) */
};

/* Run the validation and return the ptbuild.validate/1 document (caller
 * frees) with "result": "pass" or "fail" and "problems"[]; NULL with err
 * only when it could not be attempted (no nvcc, no temp dir). */
cJSON *ptb_validate_run(const struct ptb_validate_target *t,
                        const struct ptb_validate_opts *o, struct ptb_err *err);

#endif
