/* The installed data files (share/ananke/), found relative to the running
 * binary: <bindir>/../share/ananke/REL. Never relative to the source tree. */
#include "ananke/datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ananke/err.h"
#include "core/port.h"

char *an_datadir_path(const char *rel)
{
    char exe[PATH_MAX];
    if (an_port_self_exe(exe, sizeof exe) != 0) /* none, or perhaps cut short */
        return NULL;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0'; /* the bin directory */
    size_t cap = strlen(exe) + strlen(rel) + sizeof "/../share/ananke/";
    char *path = an_xmalloc(cap);
    snprintf(path, cap, "%s/../share/ananke/%s", exe, rel);
    struct stat st;
    if (stat(path, &st) != 0) {
        free(path);
        return NULL;
    }
    return path;
}
