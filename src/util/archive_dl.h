/* archive_dl.h - libarchive, opened on first use (see archive_dl.c). */
#ifndef PTB_ARCHIVE_DL_H
#define PTB_ARCHIVE_DL_H

/* Load libarchive once; 0, or -1 with ptb_archive_error() saying why.
 * Call it before the first archive_* call to report a missing library as
 * such (the entry points otherwise fail as if out of memory). */
int ptb_archive_load(void);
const char *ptb_archive_error(void);

#endif
