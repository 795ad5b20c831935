/*
 * Watch mode's file watcher (`ananke run --watch`, docs/watch.md): which
 * files of a set changed, added or removed, after the edits settle.
 *
 * The set is given as roots: trees (a directory searched for test files as
 * the loader does: *.test.yaml, *.test.yml, *.test.jsonl, cases.json and
 * *.cases.json, no dot entries, no node_modules, no directory that holds
 * its own ananke.config.yaml, at most 32 levels, each directory once
 * whatever symbolic links lead to it, so a link loop is not followed) and
 * single files (the config, a file a hook names).
 *
 * What changed is always found by comparing two scans (each file's inode,
 * size, mtime and ctime), so both ways of waking up give the same answer:
 * change events on the directories (inotify, through core/port.h) where the
 * system has them, else a scan every AN_WATCH_POLL_MS. A burst of writes
 * (an editor's write-then-rename, write+close) is one change: the watcher
 * waits until AN_WATCH_DEBOUNCE_MS pass without an event (polling: until
 * two scans agree), at most AN_WATCH_SETTLE_MAX_MS.
 *
 * When a directory cannot be watched because the inotify watch limit is
 * reached, the watcher says so once (an_watch_warning) and polls instead.
 *
 * Ownership: the watcher copies every path it is given; the changes it
 * returns are borrowed until the next call on it.
 */
#ifndef ANANKE_WATCH_H
#define ANANKE_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AN_WATCH_POLL_MS 500        /* the polling fallback's interval */
#define AN_WATCH_DEBOUNCE_MS 200    /* quiet time that ends a burst of edits */
#define AN_WATCH_SETTLE_MAX_MS 2000 /* a file written without pause: reported anyway */

enum an_watch_kind { AN_WATCH_MODIFIED, AN_WATCH_ADDED, AN_WATCH_REMOVED };

struct an_watch_change {
    const char *path; /* as the root spelt it: "DIR/NAME" for a tree's file */
    enum an_watch_kind kind;
};

struct an_watch_opts {
    bool poll;           /* poll even where change events exist */
    int64_t poll_ms;     /* 0: AN_WATCH_POLL_MS */
    int64_t debounce_ms; /* 0: AN_WATCH_DEBOUNCE_MS */
};
/* clang-format off */
#define AN_WATCH_OPTS_INIT {0}
/* clang-format on */

struct an_watch;

/* A watcher with no root. Never fails (memory aside). */
struct an_watch *an_watch_new(const struct an_watch_opts *o);
void an_watch_free(struct an_watch *w); /* NULL-safe */

/* Take a scan now: the state later changes are measured from. Called
 * before the files are read, so an edit made while they are read or the
 * tests run is seen by the next an_watch_wait. */
void an_watch_mark(struct an_watch *w);

/* Replace the roots. Files of roots watched already keep the state
 * an_watch_mark saw; those of new roots are taken as they are now. */
void an_watch_set(struct an_watch *w, const char *const *trees, size_t ntrees,
                  const char *const *files, size_t nfiles);

/* Wait for a settled change, a readable key_fd (-1: none) or an_cancelled().
 * AN_WATCH_CHANGED fills *changes (sorted by path; borrowed) and makes the
 * new state the one the next change is measured from. */
enum an_watch_event { AN_WATCH_CHANGED, AN_WATCH_KEY, AN_WATCH_CANCELLED };
enum an_watch_event an_watch_wait(struct an_watch *w, int key_fd,
                                  const struct an_watch_change **changes, size_t *n);

/* A note for the user (the inotify limit reached, polling instead), once;
 * NULL when there is none. Borrowed until the next call. */
const char *an_watch_warning(struct an_watch *w);

/* How the watcher learns of changes ("inotify" or "polling"), and how many
 * files and directories it watches now. */
const char *an_watch_method(const struct an_watch *w);
size_t an_watch_nfiles(const struct an_watch *w);
size_t an_watch_ndirs(const struct an_watch *w);

#endif
