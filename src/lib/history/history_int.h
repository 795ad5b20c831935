/* Inside the history layer: the database handle, its schema and its
 * migrations (history_db.c), shared by the recorder (history_write.c),
 * the queries (history_query.c) and git (history_git.c). */
#ifndef ANANKE_HISTORY_INT_H
#define ANANKE_HISTORY_INT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/history.h"

/* How long a write waits for another process's lock before giving up. */
#define AN_HIST_BUSY_MS 5000
/* a writer leaving a longer write-ahead log checkpoints it (history_db.c) */
#define AN_HIST_WAL_MAX_BYTES (512 << 10)

struct an_history {
    sqlite3 *db;
    char *path;
};

/* Rows of test_results per INSERT statement, at most HIST_INSERT_ROWS (the
 * write's fast path: one statement's work for many rows); 1, the general
 * path, which the tests compare with it (tests/unit/test_history.c). */
#define HIST_INSERT_ROWS 32
extern unsigned an_hist_insert_rows;
/* SQLite set up for this process (once; before its first use). */
void an_hist_sqlite_setup(void);
/* Open path (created when `create`: 0600, never through a link; with
 * `in_dir`, the parent .ananke/ directory is made 0700 first), set WAL,
 * the busy timeout and foreign keys, and migrate to `target` (normally
 * AN_HISTORY_SCHEMA_VERSION; the tests stop early to make an old file). */
int an_hist_open(struct an_history **out, const char *path, bool create, bool in_dir, int target,
                 struct an_err *err);
/* The database opened ahead, on a thread of its own (history_prep.c):
 * an_hist_open of an existing `path` (never created), `in_dir` as there.
 * NULL when no thread could be started. */
struct hist_prep;
struct hist_prep *an_hist_prep_start(const char *path, bool in_dir);
/* Wait for it and free it: the handle it opened when that is `path` with
 * the same `in_dir` (the caller's now), else NULL (none opened, or another
 * place's, or path NULL: closed here). p may be NULL. */
struct an_history *an_hist_prep_take(struct hist_prep *p, const char *path, bool in_dir);
/* A failed sqlite call as an error naming the database. */
int an_hist_fail(struct an_history *h, const char *what, struct an_err *err);
/* The database's schema version (PRAGMA user_version); -1 on error. */
int an_hist_version(sqlite3 *db);
/* Migrate to `target` inside one IMMEDIATE transaction. */
int an_hist_migrate(struct an_history *h, int target, struct an_err *err);
/* After a write: checkpoint and truncate a log over AN_HIST_WAL_MAX_BYTES
 * unless a reader holds it (best effort, never an error). */
void an_hist_bound_wal(struct an_history *h);

/* AN_HISTORY_FLAKY (history_flaky.c). */
json_t *an_history_flaky(struct an_history *h, unsigned limit, unsigned window, struct an_err *err);

/* The repository around dir: the commit HEAD points at and its branch
 * (NULL: detached or not a repository). Reads .git without running git;
 * *commit and *branch are malloc'd or NULL. */
void an_hist_git(const char *dir, char **commit, char **branch);
/* Every row of a prepared statement as a JSON object with members `names`
 * (one per column; a name ending in '@' is a Unix-ms time, shown as ISO
 * 8601; text with invalid UTF-8 replaced). NULL and err when a step fails
 * (history_query.c). */
json_t *an_hist_rows(struct an_history *h, sqlite3_stmt *st, const char *const *names,
                     struct an_err *err);

#endif
