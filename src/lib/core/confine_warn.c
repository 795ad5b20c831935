/* an_confine_warn_once (confine.h): the one warning that children run
 * unconfined, whatever the system (confine.c or confine_none.c). */
#include "core/confine.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
static bool warned;

void an_confine_warn_once(const char *msg)
{
    pthread_mutex_lock(&warn_lock);
    if (!warned) {
        warned = true;
        fprintf(stderr, "ananke: warning: %s\n", msg);
    }
    pthread_mutex_unlock(&warn_lock);
}
