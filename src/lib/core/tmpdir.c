#define _XOPEN_SOURCE 700
#include "core/tmpdir.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int an_tmpdir_make(const char *prefix, char **out, struct an_err *err)
{
    const char *base = getenv("TMPDIR");
    if (!base || base[0] != '/')
        base = "/tmp";
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%sXXXXXX", base, prefix);
    if (!mkdtemp(path))
        return an_fail(err, AN_EIO, NULL, "cannot make a directory in %s: %s", base,
                       strerror(errno));
    char real[PATH_MAX];
    *out = an_xstrdup(realpath(path, real) ? real : path);
    return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)f;
    int rc = flag == FTW_DP ? rmdir(p) : unlink(p);
    return rc ? -1 : 0;
}

int an_tmpdir_remove(const char *path)
{
    if (!path || !*path || !strcmp(path, "/"))
        return -1;
    return nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}
