/* dl.c - open a shared library on first use; see dl.h. */
#include "util/dl.h"

#include <dlfcn.h>
#include <stdio.h>

int ptb_dl_load(struct ptb_dl *d, const char *what, const char *const *names,
                size_t nnames, const struct ptb_dl_sym *syms, size_t nsyms)
{
	const char *err = NULL;

	if (d->handle)
		return 0;
	if (d->tried)
		return -1;
	d->tried = 1;
	for (size_t i = 0; i < nnames && !d->handle; i++)
		if (!(d->handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL)))
			err = dlerror();
	if (!d->handle) {
		snprintf(d->why, sizeof d->why, "%s", err ? err : "not found");
		return -1;
	}
	for (size_t i = 0; i < nsyms; i++)
		if (!(*syms[i].slot = dlsym(d->handle, syms[i].name))) {
			snprintf(d->why, sizeof d->why, "%s lacks %s", what, syms[i].name);
			dlclose(d->handle);
			d->handle = NULL;
			return -1;
		}
	return 0;
}
