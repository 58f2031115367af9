/* probe.h - the raw observations detect hands to recipes/detect.lua.
 * Each probe adds plain data (file texts, names, numbers) to `raw`; none
 * interprets it beyond what C must do to find it.  Knowledge (what a
 * cpuinfo part means, which CUDA a driver runs) lives in the recipe. */
#ifndef PTB_DETECT_PROBE_H
#define PTB_DETECT_PROBE_H

#include <cjson/cJSON.h>

#include "detect/root.h"

/* Process environment as seen by probes (tests set PATH, CUDA_HOME...). */
const char *ptb_probe_env(const char *name);

/* host: arch evidence, os-release, kernel, glibc, page size, memory,
 * cpuinfo, device tree, nv_tegra_release -> raw.host, raw.files */
void ptb_probe_host(const struct ptb_root *r, cJSON *raw);
/* driver: /proc/driver/nvidia, user-space library names, and libcuda /
 * NVML through dlopen in a child with a time limit -> raw.nvidia */
void ptb_probe_gpu(const struct ptb_root *r, cJSON *raw);
/* CUDA toolkits, cuDNN, NCCL, PATH / LD_LIBRARY_PATH, installed torch
 * -> raw.toolkits, raw.path, raw.torch; `given` (may be NULL) is a root
 * to read first, found_by "given" */
void ptb_probe_cuda(const struct ptb_root *r, cJSON *raw, const char *given);
/* compilers on PATH and CC / CXX / CUDAHOSTCXX -> raw.compilers, raw.env,
 * raw.gcc_libdirs, raw.compiler_packages (dpkg's); no compiler's bytes */
void ptb_probe_tools(const struct ptb_root *r, cJSON *raw);
/* The version-like strings in the bytes of one ELF file (inner path) of at
 * most 512 MiB, read in steps, never whole: { strings = [...] } when it was
 * searched, { note = "..." } when it is too large or larger than what is
 * left of r->scan_left (one detect run reads PTB_SCAN_BUDGET, 1 GiB, of
 * such files in all), {} when it is absent or no ELF file (a script, a
 * FIFO).  What detect.lua asks for a compiler
 * whose version no cheaper source gives.  Caller frees. */
cJSON *ptb_probe_version_strings(const struct ptb_root *r, const char *file);
/* The python3 a build would run, from files only (no process): that of
 * $VIRTUAL_ENV, else $CONDA_PREFIX, else the first on PATH -> raw.python
 * { from, path, real (resolved), pyvenv_cfg (its first 4 KiB, when the
 * prefix has one), lib (<prefix>/lib/python3* of path and real) }; absent
 * when none is found */
void ptb_probe_python(const struct ptb_root *r, cJSON *raw);

/* The build environment doctor judges (probe_env.c): environment
 * variables, the toolkits CUDA_HOME, CUDA_PATH, PATH and /usr/local/cuda
 * name, the libraries in the loader's order, pip and conda packages, an
 * installed torch, and the files and paths `wanted` names (the recipe's
 * container, device and binfmt markers: { exists = [...], files = [...] })
 * -> raw.environment */
void ptb_probe_environment(const struct ptb_root *r, cJSON *raw, const cJSON *wanted);
/* Toolkit details of t.root (version files, headers, targets, nvcc) into t */
void ptb_probe_toolkit(const struct ptb_root *r, cJSON *t);
/* The PyTorch source checkout at dir (a path on the machine): *out its
 * raw observation (path, version, git, gitmodules, gitmodules_unread
 * (what a .gitmodules that is there but was not read is), gitmodules_noeq
 * (its first "path" line without '=': line, text, index, the number of
 * submodules before it), submodules[] with path and state, folders
 * {path: state} for the folders setup.py names itself, unreadable {path:
 * {error, errno, files}} for those of either in state "unreadable",
 * use_system_libs), or NULL when dir is not one and not
 * given.  -1 with err (PTB_EUSAGE) when a given dir is not a checkout, or
 * when a checkout's version.txt is not a version. */
int ptb_probe_source(const struct ptb_root *r, const char *dir, int given, cJSON **out,
                     struct ptb_err *err);
/* nvcc on PATH and libcudart on LD_LIBRARY_PATH -> raw.path_nvcc,
 * raw.path_nvcc_files, raw.ld_cudart */
void ptb_probe_paths(const struct ptb_root *r, cJSON *raw);
/* torch in each site-packages of sites -> raw.torch */
void ptb_probe_torch(const struct ptb_root *r, cJSON *raw, char **sites);

/* The SASS and PTX architectures in a libtorch_cuda (host path) as
 * t.archs = { sass, ptx } lists of "X.Y" (with "X.Ya"/"X.Yf" when
 * variants), or t.archs_error. */
void ptb_probe_torch_archs(const char *file, int variants, cJSON *t);

/* Helpers shared by the probes. */
/* Add the text of a file (NUL bytes become newlines) as raw.files[path]. */
int ptb_probe_file(const struct ptb_root *r, cJSON *files, const char *path,
                   size_t max);
/* Python site-packages directories worth looking in (inner paths). */
char **ptb_probe_site_dirs(const struct ptb_root *r);
/* Run argv (host only; ptb_run, stdin from /dev/null) and capture
 * stdout+stderr, at most timeout_ms.  Returns the exit status, or -1 (not
 * run, killed, timed out). */
int ptb_probe_run(char *const argv[], int timeout_ms, struct ptb_buf *out);
/* The time limit for a library probe's child (ptb_probe_gpu):
 * PTBUILD_PROBE_TIMEOUT_MS, else 4 s. */
int ptb_probe_timeout_ms(void);
/* Append a string to an array unless already there. */
void ptb_probe_add_unique(cJSON *arr, const char *s);

/* The root of the toolkit an nvcc program (real: its resolved path) stands
 * for: <root>/bin/nvcc's root, or -- when that is no toolkit and the
 * program is a wrapper script -- the root of the nvcc it runs, when that
 * is one (a site's /usr/local/bin/nvcc; Debian's /usr/bin/nvcc keeps /usr,
 * where its headers are).  Caller frees. */
char *ptb_probe_nvcc_root(const struct ptb_root *r, const char *real);

#endif
