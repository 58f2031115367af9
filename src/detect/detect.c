/* detect.c - the facts of a machine.  Placeholder entry point: only the
 * architecture of this host is observed so far; the detect work replaces
 * this file with the real probes (os, cpu, driver, gpus, toolkits...). */
#include "detect/detect.h"

#include <string.h>
#include <sys/utsname.h>

cJSON *ptb_detect(const struct ptb_detect_opts *opts, struct ptb_err *err)
{
	const char *root = opts && opts->sysroot ? opts->sysroot : "/";
	struct utsname u;
	cJSON *f, *host, *notes;

	if (!ptb_path_is_dir(root)) {
		ptb_err_set(err, PTB_EUSAGE, "sysroot '%s' is not a directory", root);
		return NULL;
	}
	f = cJSON_CreateObject();
	cJSON_AddStringToObject(f, "schema", "ptbuild.facts/1");
	host = cJSON_AddObjectToObject(f, "host");
	if (uname(&u) == 0) {
		cJSON_AddStringToObject(host, "arch", u.machine);
		cJSON_AddStringToObject(host, "platform",
		                        strcmp(u.machine, "aarch64") == 0 ? "sbsa" : u.machine);
	}
	cJSON_AddNullToObject(f, "driver");
	cJSON_AddArrayToObject(f, "gpus");
	cJSON_AddArrayToObject(f, "toolkits");
	cJSON_AddArrayToObject(f, "compilers");
	cJSON_AddNullToObject(f, "jetson");
	notes = cJSON_AddArrayToObject(f, "notes");
	cJSON_AddItemToArray(notes, cJSON_CreateString("detection is incomplete in this build: only host.arch is observed"));
	return f;
}
