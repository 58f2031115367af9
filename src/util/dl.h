/* dl.h - open a shared library on first use and resolve its entry points
 * (libcurl, libarchive, libcrypto: see curl_dl.c, archive_dl.c,
 * sha256.c for why they are not linked). */
#ifndef PTB_UTIL_DL_H
#define PTB_UTIL_DL_H

#include <stddef.h>

struct ptb_dl_sym {
	const char *name;   /* the symbol */
	void **slot;        /* where its address goes */
};

struct ptb_dl {
	void *handle;       /* NULL until loaded */
	int tried;          /* a failed load is not retried */
	char why[256];      /* why it failed */
};

/* Load once: the first of names that opens, with every symbol of syms
 * resolved into its slot.  0, or -1 with d->why saying why (the loader's
 * message, or which symbol the library lacks). */
int ptb_dl_load(struct ptb_dl *d, const char *what, const char *const *names,
                size_t nnames, const struct ptb_dl_sym *syms, size_t nsyms);

#endif
