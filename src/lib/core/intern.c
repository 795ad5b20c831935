/* Interned strings (core/intern.h): a small array searched linearly; the
 * names are few (finding kinds) and the table is capped. */
#include "core/intern.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *names[AN_INTERN_MAX];
static size_t nnames;

const char *an_intern(const char *s)
{
    if (!s || strnlen(s, AN_INTERN_MAX_LEN + 1) > AN_INTERN_MAX_LEN)
        return NULL;
    const char *out = NULL;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nnames && !out; i++)
        if (!strcmp(names[i], s))
            out = names[i];
    if (!out && nnames < AN_INTERN_MAX)
        out = names[nnames++] = an_xstrdup(s);
    pthread_mutex_unlock(&lock);
    return out;
}
