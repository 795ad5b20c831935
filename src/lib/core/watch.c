/* Watch mode's file watcher (ananke/watch.h): scans compared, woken by
 * inotify (core/port.h) or by a timer. */
#include "ananke/watch.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ananke/err.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "core/port.h"

#define WATCH_MAX_DEPTH 32

struct entry {
    char *path;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime, ctime;
};

struct dirid {
    dev_t dev;
    ino_t ino;
    char *path;
};

/* One scan: the files (sorted by path once done) and the directories met. */
struct snap {
    struct entry *v;
    size_t n, cap;
    struct dirid *dirs;
    size_t ndirs, dcap;
};

struct an_watch {
    int64_t poll_ms, debounce_ms;
    bool polling;
    int nfd; /* inotify; -1: polling */
    char **trees, **files;
    size_t ntrees, nfiles;
    struct snap base;      /* the state changes are measured from */
    struct dirid *watched; /* directories inotify watches */
    size_t nwatched;
    char *warning; /* pending note; NULL: none */
    char *said;    /* the note last returned */
    struct an_watch_change *changes;
    size_t nchanges;
    char **gone; /* the removed paths of the changes last returned */
    size_t ngone;
    size_t ndirs; /* directories of the last scan */
};

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void snap_release(struct snap *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i].path);
    for (size_t i = 0; i < s->ndirs; i++)
        free(s->dirs[i].path);
    free(s->v);
    free(s->dirs);
    *s = (struct snap){0};
}

static void snap_add(struct snap *s, const char *path, const struct stat *st)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 32;
        s->v = an_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = (struct entry){.path = an_xstrdup(path),
                                  .dev = st->st_dev,
                                  .ino = st->st_ino,
                                  .size = st->st_size,
                                  .mtime = st->st_mtim,
                                  .ctime = st->st_ctim};
}

static bool dir_seen(const struct dirid *v, size_t n, dev_t dev, ino_t ino)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].dev == dev && v[i].ino == ino)
            return true;
    return false;
}

/* Record a directory once; false when it was met already (a link loop, or
 * two roots that meet). */
static bool snap_dir(struct snap *s, const char *path, const struct stat *st)
{
    if (dir_seen(s->dirs, s->ndirs, st->st_dev, st->st_ino))
        return false;
    if (s->ndirs == s->dcap) {
        s->dcap = s->dcap ? s->dcap * 2 : 16;
        s->dirs = an_xrealloc(s->dirs, s->dcap * sizeof *s->dirs);
    }
    s->dirs[s->ndirs++] = (struct dirid){st->st_dev, st->st_ino, an_xstrdup(path)};
    return true;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n > t && strcmp(s + n - t, tail) == 0;
}

/* The loader's test-file names (load/suite.c is_test_file). */
static bool is_test_name(const char *name)
{
    return ends_with(name, ".test.yaml") || ends_with(name, ".test.yml") ||
           ends_with(name, ".test.jsonl") || !strcmp(name, "cases.json") ||
           ends_with(name, ".cases.json");
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = an_xmalloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static bool holds_config(const char *dir)
{
    char *p = join(dir, "ananke.config.yaml");
    bool yes = access(p, F_OK) == 0;
    free(p);
    return yes;
}

static void walk(struct snap *s, const char *dir, unsigned depth)
{
    DIR *d = depth > WATCH_MAX_DEPTH ? NULL : opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "node_modules"))
            continue;
        char *p = join(dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                if (!holds_config(p) && snap_dir(s, p, &st))
                    walk(s, p, depth + 1);
            } else if (S_ISREG(st.st_mode) && is_test_name(e->d_name)) {
                snap_add(s, p, &st);
            }
        }
        free(p);
    }
    closedir(d);
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->path, ((const struct entry *)b)->path);
}

/* The directory that holds file path, for its change events. */
static void parent_dir(struct snap *s, const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? an_xstrdup(path) : an_xstrdup(".");
    if (slash)
        dir[slash == path ? 1 : slash - path] = '\0';
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        snap_dir(s, dir, &st);
    free(dir);
}

static void scan(struct snap *s, char *const *trees, size_t ntrees, char *const *files,
                 size_t nfiles)
{
    *s = (struct snap){0};
    for (size_t i = 0; i < ntrees; i++) {
        struct stat st;
        if (stat(trees[i], &st) == 0 && S_ISDIR(st.st_mode) && snap_dir(s, trees[i], &st))
            walk(s, trees[i], 0);
        parent_dir(s, trees[i]); /* a tree removed and made again (a checkout) */
    }
    for (size_t i = 0; i < nfiles; i++) {
        struct stat st;
        if (stat(files[i], &st) == 0 && !S_ISDIR(st.st_mode))
            snap_add(s, files[i], &st);
        parent_dir(s, files[i]);
    }
    if (s->n)
        qsort(s->v, s->n, sizeof *s->v, cmp_entry);
    size_t w = 0; /* a file named twice (a root's and a tree's) once */
    for (size_t i = 0; i < s->n; i++) {
        if (w && !strcmp(s->v[w - 1].path, s->v[i].path))
            free(s->v[i].path);
        else
            s->v[w++] = s->v[i];
    }
    s->n = w;
}

static bool same_ts(struct timespec a, struct timespec b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

static bool same_entry(const struct entry *a, const struct entry *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           same_ts(a->mtime, b->mtime) && same_ts(a->ctime, b->ctime);
}

static void change_add(struct an_watch *w, const char *path, enum an_watch_kind kind)
{
    w->changes = an_xrealloc(w->changes, (w->nchanges + 1) * sizeof *w->changes);
    w->changes[w->nchanges++] = (struct an_watch_change){path, kind};
}

/* base -> cur into w->changes (paths borrowed from cur, or from base for
 * the removed ones: the caller keeps the one it needs). Returns the count. */
static size_t diff(struct an_watch *w, const struct snap *base, const struct snap *cur)
{
    size_t i = 0, k = 0;
    w->nchanges = 0;
    while (i < base->n || k < cur->n) {
        int c = i == base->n ? 1 : k == cur->n ? -1 : strcmp(base->v[i].path, cur->v[k].path);
        if (c < 0) {
            change_add(w, base->v[i++].path, AN_WATCH_REMOVED);
        } else if (c > 0) {
            change_add(w, cur->v[k++].path, AN_WATCH_ADDED);
        } else {
            if (!same_entry(&base->v[i], &cur->v[k]))
                change_add(w, cur->v[k].path, AN_WATCH_MODIFIED);
            i++;
            k++;
        }
    }
    return w->nchanges;
}

static bool same_snap(const struct snap *a, const struct snap *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->v[i].path, b->v[i].path) || !same_entry(&a->v[i], &b->v[i]))
            return false;
    return true;
}

static void to_polling(struct an_watch *w, const char *why)
{
    if (w->nfd >= 0)
        close(w->nfd);
    w->nfd = -1;
    w->polling = true;
    free(w->warning);
    w->warning = an_xstrdup(why);
}

/* inotify on every directory of s not watched yet. Returns true when one
 * was added (a new directory: scan again, files may have come in before
 * its watch). */
static bool watch_dirs(struct an_watch *w, const struct snap *s)
{
    bool added = false;
    for (size_t i = 0; i < s->ndirs && w->nfd >= 0; i++) {
        const struct dirid *d = &s->dirs[i];
        if (dir_seen(w->watched, w->nwatched, d->dev, d->ino))
            continue;
        if (an_port_notify_add(w->nfd, d->path) != 0) {
            if (errno != ENOSPC && errno != ENOMEM)
                continue; /* gone since the scan: the next scan says so */
            char msg[512];
            long lim = an_port_notify_limit();
            snprintf(msg, sizeof msg,
                     "cannot watch '%s': the inotify watch limit is reached "
                     "(fs.inotify.max_user_watches / user.max_inotify_watches = %ld, %zu "
                     "directories watched here); polling every %lld ms instead",
                     d->path, lim, w->nwatched, (long long)w->poll_ms);
            to_polling(w, msg);
            return false;
        }
        w->watched = an_xrealloc(w->watched, (w->nwatched + 1) * sizeof *w->watched);
        w->watched[w->nwatched++] = (struct dirid){d->dev, d->ino, NULL};
        added = true;
    }
    return added;
}

struct an_watch *an_watch_new(const struct an_watch_opts *o)
{
    struct an_watch *w = an_xcalloc(1, sizeof *w);
    w->poll_ms = o && o->poll_ms > 0 ? o->poll_ms : AN_WATCH_POLL_MS;
    w->debounce_ms = o && o->debounce_ms > 0 ? o->debounce_ms : AN_WATCH_DEBOUNCE_MS;
    w->nfd = o && o->poll ? -1 : an_port_notify_open();
    w->polling = w->nfd < 0;
    return w;
}

void an_watch_free(struct an_watch *w)
{
    if (!w)
        return;
    if (w->nfd >= 0)
        close(w->nfd);
    free_list(w->trees, w->ntrees);
    free_list(w->files, w->nfiles);
    snap_release(&w->base);
    free(w->watched);
    free(w->warning);
    free(w->said);
    free(w->changes);
    free_list(w->gone, w->ngone);
    free(w);
}

void an_watch_mark(struct an_watch *w)
{
    snap_release(&w->base);
    scan(&w->base, w->trees, w->ntrees, w->files, w->nfiles);
    w->ndirs = w->base.ndirs;
    watch_dirs(w, &w->base);
}

/* Is path one of the files, or a test file under one of the trees? */
static bool covered(const char *path, char *const *trees, size_t ntrees, char *const *files,
                    size_t nfiles)
{
    for (size_t i = 0; i < nfiles; i++)
        if (!strcmp(path, files[i]))
            return true;
    const char *base = strrchr(path, '/');
    if (!base || !is_test_name(base + 1)) /* a tree holds test files only */
        return false;
    for (size_t i = 0; i < ntrees; i++) {
        size_t n = strlen(trees[i]);
        if (!strncmp(path, trees[i], n) && path[n] == '/')
            return true;
    }
    return false;
}

static char **copy_list(const char *const *v, size_t n)
{
    char **out = an_xcalloc(n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = an_xstrdup(v[i]);
    return out;
}

static const struct entry *find(const struct snap *s, const char *path)
{
    struct entry key = {.path = (char *)path};
    return s->n ? bsearch(&key, s->v, s->n, sizeof *s->v, cmp_entry) : NULL;
}

void an_watch_set(struct an_watch *w, const char *const *trees, size_t ntrees,
                  const char *const *files, size_t nfiles)
{
    char **nt = copy_list(trees, ntrees), **nf = copy_list(files, nfiles);
    struct snap now, next = {0};
    scan(&now, nt, ntrees, nf, nfiles);
    /* a file of a root watched before keeps its old state (an edit made
     * meanwhile is still a change, a file added meanwhile still new); one
     * that only the new roots cover is taken as it is */
    for (size_t i = 0; i < now.n; i++) {
        const struct entry *old = find(&w->base, now.v[i].path);
        if (old)
            snap_add(&next, old->path,
                     &(struct stat){.st_dev = old->dev,
                                    .st_ino = old->ino,
                                    .st_size = old->size,
                                    .st_mtim = old->mtime,
                                    .st_ctim = old->ctime});
        else if (!covered(now.v[i].path, w->trees, w->ntrees, w->files, w->nfiles))
            snap_add(&next, now.v[i].path,
                     &(struct stat){.st_dev = now.v[i].dev,
                                    .st_ino = now.v[i].ino,
                                    .st_size = now.v[i].size,
                                    .st_mtim = now.v[i].mtime,
                                    .st_ctim = now.v[i].ctime});
    }
    /* removed meanwhile, and still covered: a change the next wait reports */
    for (size_t i = 0; i < w->base.n; i++)
        if (!find(&now, w->base.v[i].path) && covered(w->base.v[i].path, nt, ntrees, nf, nfiles))
            snap_add(&next, w->base.v[i].path,
                     &(struct stat){.st_dev = w->base.v[i].dev,
                                    .st_ino = w->base.v[i].ino,
                                    .st_size = w->base.v[i].size,
                                    .st_mtim = w->base.v[i].mtime,
                                    .st_ctim = w->base.v[i].ctime});
    if (next.n)
        qsort(next.v, next.n, sizeof *next.v, cmp_entry);
    watch_dirs(w, &now);
    w->ndirs = now.ndirs;
    snap_release(&now);
    snap_release(&w->base);
    w->base = next;
    free_list(w->trees, w->ntrees);
    free_list(w->files, w->nfiles);
    w->trees = nt;
    w->ntrees = ntrees;
    w->files = nf;
    w->nfiles = nfiles;
}

/* A scan that differs from the base: it becomes the base, its changes are
 * reported. false (scan dropped) when nothing the roots cover changed. */
static bool commit(struct an_watch *w, struct snap *cur)
{
    if (!diff(w, &w->base, cur)) {
        snap_release(cur);
        return false;
    }
    /* removed paths point into the old base: copies live until the next
     * commit */
    free_list(w->gone, w->ngone);
    w->gone = an_xcalloc(w->nchanges + 1, sizeof *w->gone);
    w->ngone = 0;
    for (size_t i = 0; i < w->nchanges; i++)
        if (w->changes[i].kind == AN_WATCH_REMOVED)
            w->changes[i].path = w->gone[w->ngone++] = an_xstrdup(w->changes[i].path);
    snap_release(&w->base);
    w->base = *cur;
    w->ndirs = cur->ndirs;
    return true;
}

struct waiting {
    bool dirty;          /* events seen, not scanned yet */
    int64_t first, last; /* the burst's first and last event */
    int64_t last_scan;
    struct snap pending; /* polling: a differing scan, to be confirmed */
    bool have_pending;
};

/* inotify: once the burst is quiet, scan and compare. */
static bool settle_events(struct an_watch *w, struct waiting *s, int64_t now)
{
    if (!s->dirty || (now - s->last < w->debounce_ms && now - s->first < AN_WATCH_SETTLE_MAX_MS))
        return false;
    struct snap cur;
    scan(&cur, w->trees, w->ntrees, w->files, w->nfiles);
    s->dirty = watch_dirs(w, &cur); /* a new directory: look again */
    s->first = s->last = now;
    return commit(w, &cur);
}

/* polling: a scan that differs, then one more that agrees with it. */
static bool settle_scans(struct an_watch *w, struct waiting *s, int64_t now)
{
    if (now - s->last_scan < (s->have_pending ? w->debounce_ms : w->poll_ms))
        return false;
    s->last_scan = now;
    struct snap cur;
    scan(&cur, w->trees, w->ntrees, w->files, w->nfiles);
    if (!s->have_pending) {
        if (!diff(w, &w->base, &cur)) {
            snap_release(&cur);
            return false;
        }
        s->pending = cur;
        s->have_pending = true;
        s->first = now;
        return false;
    }
    bool stable = same_snap(&s->pending, &cur) || now - s->first >= AN_WATCH_SETTLE_MAX_MS;
    snap_release(&s->pending);
    s->have_pending = false;
    if (stable)
        return commit(w, &cur);
    s->pending = cur;
    s->have_pending = true;
    return false;
}

enum an_watch_event an_watch_wait(struct an_watch *w, int key_fd,
                                  const struct an_watch_change **changes, size_t *n)
{
    struct waiting s = {.last_scan = an_clock_mono_ms()};
    enum an_watch_event ev = AN_WATCH_CANCELLED;
    for (;;) {
        if (an_cancelled())
            break;
        struct pollfd p[2];
        nfds_t np = 0;
        int ki = -1, ni = -1;
        if (key_fd >= 0)
            p[ki = (int)np++] = (struct pollfd){.fd = key_fd, .events = POLLIN};
        if (w->nfd >= 0)
            p[ni = (int)np++] = (struct pollfd){.fd = w->nfd, .events = POLLIN};
        int timeout = AN_CANCEL_POLL_MS;
        if (s.dirty && w->debounce_ms < timeout)
            timeout = (int)w->debounce_ms;
        int r = poll(p, np, timeout);
        if (r < 0 && errno != EINTR)
            an_sleep_ms(AN_CANCEL_POLL_MS); /* no busy loop on a broken fd */
        if (r > 0 && ki >= 0 && p[ki].revents) {
            ev = AN_WATCH_KEY;
            break;
        }
        int64_t now = an_clock_mono_ms();
        if (r > 0 && ni >= 0 && p[ni].revents) {
            if (an_port_notify_drain(w->nfd) < 0)
                to_polling(w, "the inotify descriptor failed; polling instead");
            if (!s.dirty)
                s.first = now;
            s.dirty = true;
            s.last = now;
        }
        if (w->polling ? settle_scans(w, &s, now) : settle_events(w, &s, now)) {
            ev = AN_WATCH_CHANGED;
            break;
        }
    }
    if (s.have_pending)
        snap_release(&s.pending);
    if (ev == AN_WATCH_CHANGED) {
        *changes = w->changes;
        *n = w->nchanges;
    } else {
        *changes = NULL;
        *n = 0;
    }
    return ev;
}

const char *an_watch_warning(struct an_watch *w)
{
    free(w->said);
    w->said = w->warning;
    w->warning = NULL;
    return w->said;
}

const char *an_watch_method(const struct an_watch *w)
{
    return w->polling ? "polling" : "inotify";
}

size_t an_watch_nfiles(const struct an_watch *w)
{
    return w->base.n;
}

size_t an_watch_ndirs(const struct an_watch *w)
{
    return w->ndirs;
}
