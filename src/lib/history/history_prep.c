/* The history opened ahead: while a run's tests go on, a thread of its own
 * opens the database that is already there (its schema checked and
 * migrated), so that once the run is over only the append is left
 * (docs/performance.md, issue 26: the open was a fifth of the write).
 * It never creates anything: a database not there yet, or one it cannot
 * open, is left to the write, which opens it as before and says why not. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "history/history_int.h"

struct hist_prep {
    pthread_t tid;
    char *path;
    bool in_dir;
    struct an_history *h; /* set by the thread; NULL when it could not open */
};

static void *prep_main(void *arg)
{
    struct hist_prep *p = arg;
    struct an_err err = AN_ERR_INIT;
    if (an_hist_open(&p->h, p->path, false, p->in_dir, AN_HISTORY_SCHEMA_VERSION, &err))
        p->h = NULL; /* the write opens it again and reports the error */
    return NULL;
}

struct hist_prep *an_hist_prep_start(const char *path, bool in_dir)
{
    struct hist_prep *p = an_xcalloc(1, sizeof *p);
    p->path = an_xstrdup(path);
    p->in_dir = in_dir;
    if (pthread_create(&p->tid, NULL, prep_main, p)) {
        free(p->path);
        free(p);
        return NULL;
    }
    return p;
}

struct an_history *an_hist_prep_take(struct hist_prep *p, const char *path, bool in_dir)
{
    if (!p)
        return NULL;
    pthread_join(p->tid, NULL);
    struct an_history *h = p->h;
    if (h && (!path || strcmp(p->path, path) || p->in_dir != in_dir)) {
        an_history_free(h); /* not wanted, or another place's: not this write's */
        h = NULL;
    }
    free(p->path);
    free(p);
    return h;
}
