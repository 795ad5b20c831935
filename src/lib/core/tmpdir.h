/*
 * Private temporary directories (sandboxes): made under $TMPDIR (or /tmp)
 * with mode 0700, removed with everything below them.
 */
#ifndef ANANKE_CORE_TMPDIR_H
#define ANANKE_CORE_TMPDIR_H

#include "ananke/err.h"

/* A new directory "<tmp>/<prefix>XXXXXX", absolute; *out is malloc'd. */
int an_tmpdir_make(const char *prefix, char **out, struct an_err *err);
/* Remove `path` and everything below it, not following symlinks.
 * Returns 0, or -1 when something could not be removed. */
int an_tmpdir_remove(const char *path);

#endif
