/* The installed data files (share/ananke/), found relative to the running
 * binary: <bindir>/../share/ananke/REL. Never relative to the source tree. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdio.h>

#include "cli.h"

char *cli_datadir_path(const char *rel)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || n >= (ssize_t)sizeof exe - 1) /* none, or perhaps cut short */
        return NULL;
    exe[n] = '\0';
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
