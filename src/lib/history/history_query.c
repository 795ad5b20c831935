/* What `ananke history` asks the database: recent runs, one test over
 * time, the flaky and the slowest tests, the regressions since a run or a
 * commit; and pruning. Every value from the command line is a bound
 * parameter. */
#include <stdlib.h>
#include <string.h>

#include "core/iso8601.h"
#include "core/json.h"
#include "history/history_int.h"

#define HIST_DEFAULT_ROWS 20

/* Column i as JSON: integer, real, text (invalid UTF-8 replaced) or null. */
static json_t *col(sqlite3_stmt *st, int i)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER:
        return json_integer(sqlite3_column_int64(st, i));
    case SQLITE_FLOAT:
        return json_real(sqlite3_column_double(st, i));
    case SQLITE_TEXT:
        return an_json_lossy((const char *)sqlite3_column_text(st, i),
                             (size_t)sqlite3_column_bytes(st, i));
    default:
        return json_null();
    }
}

static json_t *col_time(sqlite3_stmt *st, int i)
{
    char buf[40];
    const char *s = an_iso8601_ms(buf, sizeof buf, sqlite3_column_int64(st, i));
    return *s ? json_string(s) : json_null();
}

/* Every row of st as an object whose members are `names` (one per
 * column; a name ending in "@" is a Unix-ms time shown as ISO 8601);
 * history_int.h. */
json_t *an_hist_rows(struct an_history *h, sqlite3_stmt *st, const char *const *names,
                     struct an_err *err)
{
    json_t *out = json_array();
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        json_t *o = json_object();
        for (int i = 0; names[i]; i++) {
            size_t n = strlen(names[i]);
            if (n && names[i][n - 1] == '@') {
                char key[64];
                snprintf(key, sizeof key, "%.*s", (int)(n - 1), names[i]);
                json_object_set_new(o, key, col_time(st, i));
            } else {
                json_object_set_new(o, names[i], col(st, i));
            }
        }
        json_array_append_new(out, o);
    }
    if (rc != SQLITE_DONE) {
        json_decref(out);
        an_hist_fail(h, "cannot read it", err);
        return NULL;
    }
    return out;
}

static json_t *query_runs(struct an_history *h, unsigned limit, struct an_err *err)
{
    static const char sql[] =
        "SELECT id, started_at, finished_at, kind, command, git_commit, git_branch, passed,"
        " failed, errors, skipped, duration_ms, shard, recording, config_digest, merged_into"
        " FROM runs ORDER BY id DESC LIMIT ?1";
    static const char *const names[] = {
        "id",         "started_at@", "finished_at@",  "kind",        "command", "git_commit",
        "git_branch", "passed",      "failed",        "errors",      "skipped", "duration_ms",
        "shard",      "recording",   "config_digest", "merged_into", NULL};
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
        an_hist_fail(h, "cannot read it", err);
        return NULL;
    }
    sqlite3_bind_int64(st, 1, limit);
    json_t *out = an_hist_rows(h, st, names, err);
    sqlite3_finalize(st);
    return out;
}

static json_t *query_test(struct an_history *h, const char *test, unsigned limit,
                          struct an_err *err)
{
    static const char sql[] =
        "SELECT r.id, r.started_at, r.git_commit, t.name, t.file, t.test_id, t.outcome,"
        " t.duration_ms, t.tool_calls, t.turns, t.ttft_ms, t.input_tokens, t.output_tokens,"
        " t.cost, t.error, t.file_digest,"
        " (SELECT f.assertion FROM findings f WHERE f.result_id = t.id ORDER BY f.id LIMIT 1)"
        " FROM test_results t JOIN runs r ON r.id = t.run_id"
        " WHERE (t.name = ?1 OR t.test_id = ?1) AND r.merged_into IS NULL"
        " ORDER BY r.id DESC, t.id DESC LIMIT ?2";
    static const char *const names[] = {
        "run_id",        "started_at@", "git_commit", "name",        "file",    "test_id",
        "outcome",       "duration_ms", "tool_calls", "turns",       "ttft_ms", "input_tokens",
        "output_tokens", "cost",        "error",      "file_digest", "finding", NULL};
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
        an_hist_fail(h, "cannot read it", err);
        return NULL;
    }
    sqlite3_bind_text(st, 1, test, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, limit);
    json_t *out = an_hist_rows(h, st, names, err);
    sqlite3_finalize(st);
    return out;
}

static json_t *query_slowest(struct an_history *h, unsigned limit, unsigned window,
                             struct an_err *err)
{
    static const char sql[] =
        "SELECT name, file, test_id, COUNT(*), CAST(ROUND(AVG(duration_ms)) AS INTEGER),"
        " MAX(duration_ms), MIN(duration_ms) FROM ("
        "  SELECT test_id, name, file, duration_ms,"
        "   ROW_NUMBER() OVER (PARTITION BY test_id ORDER BY run_id DESC) AS rn"
        "  FROM test_results WHERE outcome != 'skip' AND run_id NOT IN"
        "   (SELECT id FROM runs WHERE merged_into IS NOT NULL))"
        " WHERE rn <= ?1 GROUP BY test_id ORDER BY AVG(duration_ms) DESC, name LIMIT ?2";
    static const char *const names[] = {"name",    "file",   "test_id", "runs",
                                        "mean_ms", "max_ms", "min_ms",  NULL};
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
        an_hist_fail(h, "cannot read it", err);
        return NULL;
    }
    sqlite3_bind_int64(st, 1, window);
    sqlite3_bind_int64(st, 2, limit);
    json_t *out = an_hist_rows(h, st, names, err);
    sqlite3_finalize(st);
    return out;
}

/* The run REF names: a run id (digits), else the newest run whose commit
 * starts with REF. 0 when none. */
static int64_t run_of_ref(struct an_history *h, const char *ref)
{
    bool digits = *ref && strspn(ref, "0123456789") == strlen(ref) && strlen(ref) < 16;
    const char *sql = digits ? "SELECT id FROM runs WHERE id = CAST(?1 AS INTEGER)"
                             : "SELECT id FROM runs WHERE length(?1) >= 4 AND"
                               " substr(git_commit, 1, length(?1)) = lower(?1)"
                               " ORDER BY id DESC LIMIT 1";
    sqlite3_stmt *st = NULL;
    int64_t id = 0;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, ref, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) == SQLITE_ROW)
            id = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return id;
}

/* Each test that passed in the base run is looked up in the runs after it,
 * from the newest (its latest result) and, when that failed, from the
 * oldest (its first failure), one run at a time through
 * test_results(run_id, test_id): there is no index by test (history_db.c,
 * version 4). CROSS JOIN keeps the runs outside; `+` keeps runs_merged out
 * of their order. Usually one lookup per test: a test runs in most runs. */
static json_t *query_regressed(struct an_history *h, const char *ref, unsigned limit,
                               struct an_err *err)
{
    static const char sql[] =
        "SELECT b.name, b.file, b.test_id, ?1, l.run_id, l.outcome,"
        " (SELECT y.run_id FROM runs r CROSS JOIN test_results y"
        "   ON y.run_id = r.id AND y.test_id = b.test_id WHERE r.id > b.run_id"
        "   AND +r.merged_into IS NULL AND y.outcome IN ('fail', 'error')"
        "   ORDER BY r.id LIMIT 1),"
        " l.error,"
        " (SELECT f.assertion FROM findings f WHERE f.result_id = l.id ORDER BY f.id LIMIT 1)"
        " FROM test_results b JOIN test_results l ON l.id = ("
        "   SELECT x.id FROM runs r CROSS JOIN test_results x"
        "   ON x.run_id = r.id AND x.test_id = b.test_id WHERE r.id > b.run_id"
        "   AND +r.merged_into IS NULL AND x.outcome != 'skip'"
        "   ORDER BY r.id DESC, x.id DESC LIMIT 1)"
        " WHERE b.run_id = ?1 AND b.outcome = 'pass' AND l.outcome IN ('fail', 'error')"
        " ORDER BY b.name, b.id LIMIT ?2";
    static const char *const names[] = {"name",    "file",    "test_id",          "since_run",
                                        "run_id",  "outcome", "first_failed_run", "error",
                                        "finding", NULL};
    int64_t base = run_of_ref(h, ref);
    if (!base) {
        an_fail(err, AN_ENOTFOUND, NULL,
                "no run at '%s' in the history (a run id, or 4 or more "
                "hex digits of a commit)",
                ref);
        return NULL;
    }
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
        an_hist_fail(h, "cannot read it", err);
        return NULL;
    }
    sqlite3_bind_int64(st, 1, base);
    sqlite3_bind_int64(st, 2, limit);
    json_t *out = an_hist_rows(h, st, names, err);
    sqlite3_finalize(st);
    return out;
}

json_t *an_history_query(struct an_history *h, const struct an_history_query *q, struct an_err *err)
{
    unsigned limit = q->limit ? q->limit : HIST_DEFAULT_ROWS;
    unsigned window = q->window ? q->window : HIST_DEFAULT_ROWS;
    switch (q->what) {
    case AN_HISTORY_TEST:
        return query_test(h, q->test ? q->test : "", limit, err);
    case AN_HISTORY_FLAKY:
        return an_history_flaky(h, limit, window, err);
    case AN_HISTORY_SLOWEST:
        return query_slowest(h, limit, window, err);
    case AN_HISTORY_REGRESSED:
        return query_regressed(h, q->ref ? q->ref : "", limit, err);
    case AN_HISTORY_RUNS:
    default:
        return query_runs(h, limit, err);
    }
}

int an_history_prune(struct an_history *h, long keep, int64_t before_ms, size_t *removed,
                     struct an_err *err)
{
    *removed = 0;
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return an_hist_fail(h, "cannot lock it", err);
    if (keep >= 0) {
        if (sqlite3_prepare_v2(h->db,
                               "DELETE FROM runs WHERE id NOT IN"
                               " (SELECT id FROM runs ORDER BY id DESC LIMIT ?1)",
                               -1, &st, NULL) != SQLITE_OK)
            rc = an_hist_fail(h, "cannot prune it", err);
        else {
            sqlite3_bind_int64(st, 1, keep);
            if (sqlite3_step(st) != SQLITE_DONE)
                rc = an_hist_fail(h, "cannot prune it", err);
            *removed += (size_t)sqlite3_changes(h->db);
        }
        sqlite3_finalize(st);
        st = NULL;
    }
    if (!rc && before_ms > 0) {
        if (sqlite3_prepare_v2(h->db, "DELETE FROM runs WHERE started_at < ?1", -1, &st, NULL) !=
            SQLITE_OK)
            rc = an_hist_fail(h, "cannot prune it", err);
        else {
            sqlite3_bind_int64(st, 1, before_ms);
            if (sqlite3_step(st) != SQLITE_DONE)
                rc = an_hist_fail(h, "cannot prune it", err);
            *removed += (size_t)sqlite3_changes(h->db);
        }
        sqlite3_finalize(st);
    }
    if (!rc && sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        rc = an_hist_fail(h, "cannot prune it", err);
    if (rc)
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
    else
        an_hist_bound_wal(h);
    return rc;
}
