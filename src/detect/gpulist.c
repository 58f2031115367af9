/* gpulist.c - ask an nvcc which GPU code it builds: `--list-gpu-arch`
 * (the virtual architectures, compute_XY) and `--list-gpu-code` (the real
 * ones, sm_XY), one line each.  Used where ptbuild's own list for the
 * toolkit's release is a copy or missing: the nvcc itself is the source.
 * detect asks it of an installed toolkit (on this host), validate of the
 * toolkit it compiles with; both read the answer with this one parser. */
#include "detect/detect.h"

#include <stdlib.h>
#include <string.h>

#include "util/run.h"

int ptb_detect_gpu_name(const char *line, size_t len, const char *prefix)
{
	size_t p = strlen(prefix), i = p;

	if (len <= p || len > 32 || strncmp(line, prefix, p) != 0)
		return 0;
	while (i < len && line[i] >= '0' && line[i] <= '9')
		i++;
	if (i == p)
		return 0;
	if (i < len && line[i] >= 'a' && line[i] <= 'z')
		i++;
	return i == len;
}

/* Run nvcc with flag and add every line naming prefix_XY to arr.  -1
 * with err when it cannot run, fails, or names none. */
static int list_one(const char *nvcc, const char *flag, const char *prefix, int timeout_s,
                    cJSON *arr, struct ptb_err *err)
{
	struct ptb_run r;
	const char *s, *nl;
	int rc = -1;

	ptb_run_init(&r);
	ptb_argv_pushl(&r.args, nvcc, flag, (char *)NULL);
	r.out_to = PTB_RUN_CAPTURE;
	r.err_to = PTB_RUN_CAPTURE;
	r.cap = 64 * 1024;
	r.flags = PTB_RUN_STDIN_NULL;
	r.timeout_ms = timeout_s * 1000;
	if (ptb_run(&r, err) != 0)
		goto out;
	if (!r.exited || r.status != 0) {
		char *tail = r.err.len ? r.err.data : r.out.data;
		size_t n = strcspn(tail, "\n");

		ptb_err_set(err, PTB_EVALID, "'%s %s' %s%s%.*s", nvcc, flag,
		            r.timed_out ? "ran past its time limit" :
		            r.exec_errno ? "could not be run" : "failed",
		            n ? ": " : "", (int)(n > 200 ? 200 : n), tail);
		goto out;
	}
	for (s = r.out.data; *s; s = *nl ? nl + 1 : nl) {
		size_t len;

		nl = strchr(s, '\n');
		if (!nl)
			nl = s + strlen(s);
		len = (size_t)(nl - s);
		while (len && (s[len - 1] == '\r' || s[len - 1] == ' '))
			len--;
		if (ptb_detect_gpu_name(s, len, prefix)) {
			char *name = ptb_xasprintf("%.*s", (int)len, s);

			cJSON_AddItemToArray(arr, cJSON_CreateString(name));
			free(name);
		}
	}
	if (cJSON_GetArraySize(arr) == 0)
		ptb_err_set(err, PTB_EVALID, "'%s %s' named no %sXY code", nvcc, flag, prefix);
	else
		rc = 0;
out:
	ptb_run_free(&r);
	return rc;
}

cJSON *ptb_detect_gpu_list(const char *nvcc, int timeout_s, struct ptb_err *err)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON *arch = cJSON_AddArrayToObject(doc, "arch");
	cJSON *code = cJSON_AddArrayToObject(doc, "code");

	if (timeout_s <= 0)
		timeout_s = 60;
	cJSON_AddStringToObject(doc, "nvcc", nvcc);
	if (list_one(nvcc, "--list-gpu-arch", "compute_", timeout_s, arch, err) != 0 ||
	    list_one(nvcc, "--list-gpu-code", "sm_", timeout_s, code, err) != 0) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}
