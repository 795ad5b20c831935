/* The history database: opening it safely, its schema and the table of
 * migration steps (docs/history.md "Schema"). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "history/history_int.h"

/* One row per schema version: the SQL that takes version - 1 to version.
 * A new version is a new row at the end; a row is never edited once
 * released (a database at that version already ran it). */
static const struct {
    int version;
    const char *sql;
} steps[] = {
    {1, "CREATE TABLE runs ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " started_at INTEGER NOT NULL," /* Unix ms */
        " finished_at INTEGER NOT NULL,"
        " kind TEXT NOT NULL," /* run, replay, comply */
        " command TEXT, project_dir TEXT, config_path TEXT, config_digest TEXT,"
        " git_commit TEXT, git_branch TEXT,"
        " passed INTEGER NOT NULL, failed INTEGER NOT NULL, errors INTEGER NOT NULL,"
        " skipped INTEGER NOT NULL, duration_ms INTEGER NOT NULL, shard TEXT);"
        "CREATE TABLE test_results ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
        " test_id TEXT NOT NULL, name TEXT NOT NULL, file TEXT, file_digest TEXT,"
        " outcome TEXT NOT NULL, duration_ms INTEGER NOT NULL,"
        " tool_calls INTEGER, turns INTEGER, ttft_ms INTEGER,"
        " input_tokens INTEGER, output_tokens INTEGER, cost REAL, error TEXT);"},
    {2, "ALTER TABLE runs ADD COLUMN recording TEXT;"
        "CREATE TABLE findings ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " result_id INTEGER NOT NULL REFERENCES test_results(id) ON DELETE CASCADE,"
        " kind TEXT NOT NULL, assertion TEXT, expected TEXT, actual TEXT,"
        " turn INTEGER NOT NULL, file TEXT, line INTEGER);"
        "CREATE INDEX test_results_run ON test_results(run_id);"
        "CREATE INDEX test_results_test ON test_results(test_id, run_id);"
        "CREATE INDEX findings_result ON findings(result_id);"
        "CREATE INDEX runs_started ON runs(started_at);"},
    /* `ananke merge` appends the merged run and points the runs it merged
     * (shards of this machine) at it: the queries over tests leave those
     * out, so no test counts twice */
    {3, "ALTER TABLE runs ADD COLUMN merged_into INTEGER REFERENCES runs(id) ON DELETE SET NULL;"
        "CREATE INDEX runs_merged ON runs(merged_into);"},
    /* test_results by (run_id, test_id), not (test_id, run_id): a run's rows
     * append at the end of the index, where those of (test_id, run_id), one
     * per test in each test's place, dirtied nearly every leaf page of it,
     * so each run wrote a share of the whole history (docs/performance.md,
     * "Session 12"). (run_id) alone is its prefix. A test over time is read
     * run by run from the newest (history_query.c, view_db.c). */
    {4, "CREATE INDEX test_results_run_test ON test_results(run_id, test_id);"
        "DROP INDEX test_results_test;"
        "DROP INDEX test_results_run;"},
};

int an_hist_fail(struct an_history *h, const char *what, struct an_err *err)
{
    int code = sqlite3_extended_errcode(h->db);
    bool busy = (code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED;
    return an_fail(err, AN_EIO, NULL, "'%s': %s: %s%s", h->path, what, sqlite3_errmsg(h->db),
                   busy ? " (another process holds it)" : "");
}

int an_hist_version(sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    int v = -1;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

int an_hist_migrate(struct an_history *h, int target, struct an_err *err)
{
    int v = an_hist_version(h->db);
    if (v < 0)
        return an_hist_fail(h, "cannot read its schema version", err);
    if (v > AN_HISTORY_SCHEMA_VERSION)
        return an_fail(err, AN_EIO, NULL,
                       "'%s': schema version %d is newer than this ananke knows (%d)", h->path, v,
                       AN_HISTORY_SCHEMA_VERSION);
    if (v >= target)
        return 0;
    /* another process may migrate at the same time: look again once the
     * write lock is ours */
    if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return an_hist_fail(h, "cannot lock it to update its schema", err);
    v = an_hist_version(h->db);
    for (size_t i = 0; i < sizeof steps / sizeof *steps && v >= 0; i++) {
        if (steps[i].version <= v || steps[i].version > target)
            continue;
        char set[64];
        snprintf(set, sizeof set, "PRAGMA user_version = %d", steps[i].version);
        if (sqlite3_exec(h->db, steps[i].sql, NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(h->db, set, NULL, NULL, NULL) != SQLITE_OK) {
            int rc = an_hist_fail(h, "cannot update its schema", err);
            sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
            return rc;
        }
        v = steps[i].version;
    }
    if (v < 0 || sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        int rc = an_hist_fail(h, "cannot update its schema", err);
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    return 0;
}

/* The directory part of path ("." for none), malloc'd; *base points into path. */
static char *split(const char *path, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        *base = path;
        return an_xstrdup(".");
    }
    *base = slash + 1;
    return slash == path ? an_xstrdup("/") : an_xstrndup(path, (size_t)(slash - path));
}

/* Make sure the file is a regular file we may open, created 0600 when
 * `create`, with no link in its place nor in its companions' (-wal, -shm,
 * -journal): SQLite opens those by name. in_dir: the directory is the
 * project's .ananke/, never followed when a link (and made 0700 when
 * `create`). */
static int check_file(const char *path, bool create, bool in_dir, struct an_err *err)
{
    const char *base;
    char *dir = split(path, &base);
    const char *why = NULL;
    int dfd = -1, fd = -1, e = 0;
    if (in_dir && create && mkdir(dir, 0700) && errno != EEXIST)
        why = "cannot create its directory";
    else if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (in_dir ? O_NOFOLLOW : 0))) < 0)
        /* O_NOFOLLOW | O_DIRECTORY on a link says ENOTDIR on Linux, ELOOP elsewhere */
        why = errno == ELOOP || (errno == ENOTDIR && in_dir)
                  ? "its directory is a link or not a directory (a link is not followed)"
              : errno == ENOTDIR           ? "its directory is not a directory"
              : errno == ENOENT && !create ? "no history yet (no run has been recorded)"
                                           : "cannot open its directory";
    else if ((fd = openat(dfd, base, O_RDWR | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT : 0),
                          0600)) < 0)
        why = errno == ELOOP    ? "a link in its place is not followed"
              : errno == ENOENT ? "no history yet (no run has been recorded)"
                                : "cannot open it";
    e = errno;
    struct stat sb;
    /* the project's state directory holds command lines and findings: for
     * its owner only, even when another file of it made it first */
    if (!why && in_dir && !fstat(dfd, &sb) && sb.st_uid == geteuid() && (sb.st_mode & 077))
        fchmod(dfd, sb.st_mode & 0700);
    if (!why && (fstat(fd, &sb) || !S_ISREG(sb.st_mode)))
        why = "not a regular file";
    static const char *const companions[] = {"-wal", "-shm", "-journal"};
    for (size_t i = 0; !why && i < sizeof companions / sizeof *companions; i++) {
        char name[1024];
        snprintf(name, sizeof name, "%s%s", base, companions[i]);
        if (!fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) && !S_ISREG(sb.st_mode))
            why = "a companion file (-wal, -shm, -journal) is a link or not a regular file";
    }
    if (fd >= 0)
        close(fd);
    if (dfd >= 0)
        close(dfd);
    free(dir);
    if (!why)
        return 0;
    return an_fail(err, e == ENOENT && !create ? AN_ENOTFOUND : AN_EIO, NULL, "'%s': %s%s%s%s",
                   path, why, e && e != ENOENT ? " (" : "", e && e != ENOENT ? strerror(e) : "",
                   e && e != ENOENT ? ")" : "");
}

/* PRAGMA journal_mode=WAL. Switching a new database into WAL needs its
 * exclusive lock, and SQLite answers SQLITE_BUSY at once, without its busy
 * handler, when another process is opening the same new file (parallel
 * runs' first write): try again for up to AN_HIST_BUSY_MS. */
static bool use_wal(sqlite3 *db)
{
    for (int64_t waited = 0;; waited += 10) {
        sqlite3_stmt *st = NULL;
        bool ok = sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &st, NULL) == SQLITE_OK &&
                  sqlite3_step(st) == SQLITE_ROW;
        sqlite3_finalize(st);
        int code = sqlite3_errcode(db) & 0xff;
        if (ok || (code != SQLITE_BUSY && code != SQLITE_LOCKED) || waited >= AN_HIST_BUSY_MS)
            return ok;
        struct timespec ts = {.tv_sec = 0, .tv_nsec = 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* Before SQLite's first use in the process: no memory statistics, which
 * took a global mutex around every one of its allocations (a twentieth of
 * a run's history write: docs/performance.md, session 15). Too late once
 * SQLite is initialised (another library of the process used it first):
 * then it says SQLITE_MISUSE and nothing changes. */
static void sqlite_setup(void)
{
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

void an_hist_sqlite_setup(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, sqlite_setup);
}

int an_hist_open(struct an_history **out, const char *path, bool create, bool in_dir, int target,
                 struct an_err *err)
{
    *out = NULL;
    int rc = check_file(path, create, in_dir, err);
    if (rc)
        return rc;
    struct an_history *h = an_xcalloc(1, sizeof *h);
    h->path = an_xstrdup(path);
    an_hist_sqlite_setup();
    if (sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
        SQLITE_OK) {
        rc = an_hist_fail(h, "cannot open it", err);
        an_history_free(h);
        return rc;
    }
    sqlite3_busy_timeout(h->db, AN_HIST_BUSY_MS);
    sqlite3_extended_result_codes(h->db, 1);
    /* WAL: readers never block the writer, and a crash mid-write loses
     * only the run being written */
    if (!use_wal(h->db) || sqlite3_exec(h->db, "PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL",
                                        NULL, NULL, NULL) != SQLITE_OK) {
        rc = an_hist_fail(h, "cannot use it", err);
        an_history_free(h);
        return rc;
    }
    /* no checkpoint when the run closes it: its four fdatasyncs were most of
     * the time of `ananke run` on one test (docs/performance.md); the WAL is
     * checkpointed by SQLite every 1000 pages, and readers see it meanwhile */
    sqlite3_db_config(h->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
    if ((rc = an_hist_migrate(h, target, err))) {
        an_history_free(h);
        return rc;
    }
    *out = h;
    return 0;
}

int an_history_open(struct an_history **out, const char *path, struct an_err *err)
{
    return an_hist_open(out, path, false, false, AN_HISTORY_SCHEMA_VERSION, err);
}

/* The write-ahead log is left behind when a run closes the database (no
 * fdatasync per run), but the next process to open it reads the whole log
 * to rebuild its index: a 1,000-test run leaves megabytes, and every later
 * one-test run paid for reading them (8 to 18 ms of startup, bench/).
 * So a writer that leaves the log larger than AN_HIST_WAL_MAX_BYTES folds
 * it into the database and truncates it, without waiting for a reader
 * (`ananke view`, another run): when one holds it, the next run tries. */
void an_hist_bound_wal(struct an_history *h)
{
    size_t n = strlen(h->path) + sizeof "-wal";
    char *wal = an_xmalloc(n);
    snprintf(wal, n, "%s-wal", h->path);
    struct stat sb;
    if (!lstat(wal, &sb) && S_ISREG(sb.st_mode) && sb.st_size > AN_HIST_WAL_MAX_BYTES) {
        sqlite3_busy_timeout(h->db, 0);
        sqlite3_wal_checkpoint_v2(h->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
        sqlite3_busy_timeout(h->db, AN_HIST_BUSY_MS);
    }
    free(wal);
}

void an_history_free(struct an_history *h)
{
    if (!h)
        return;
    sqlite3_close_v2(h->db);
    free(h->path);
    free(h);
}

char *an_history_path(const char *flag, bool off, const char *project_dir, bool *is_default)
{
    *is_default = false;
    if (flag)
        return an_xstrdup(flag);
    if (off)
        return NULL;
    const char *env = getenv("ANANKE_HISTORY");
    if (env && *env) {
        static const char *const offs[] = {"0", "off", "false", "no"};
        for (size_t i = 0; i < sizeof offs / sizeof *offs; i++)
            if (!strcmp(env, offs[i]))
                return NULL;
        return an_xstrdup(env);
    }
    const char *dir = project_dir && *project_dir ? project_dir : ".";
    size_t n = strlen(dir) + sizeof AN_HISTORY_DEFAULT_DIR + sizeof AN_HISTORY_DEFAULT_FILE + 2;
    char *p = an_xmalloc(n);
    snprintf(p, n, "%s/%s/%s", dir, AN_HISTORY_DEFAULT_DIR, AN_HISTORY_DEFAULT_FILE);
    *is_default = true;
    return p;
}
