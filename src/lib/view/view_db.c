/* `ananke view`'s queries over the history, read-only: each answer is one
 * JSON value, served as is under /api/ and rendered by the pages. Every
 * value from the request is a bound parameter. */
#include <stdlib.h>
#include <string.h>

#include "core/iso8601.h"
#include "core/json.h"
#include "view/view_int.h"

static sqlite3_stmt *prepare(struct an_history *h, const char *sql, struct an_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
        an_hist_fail(h, "cannot read it", err);
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

static void bind_opt(sqlite3_stmt *st, int i, const char *s)
{
    sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

#define RUN_COLS                                                                                   \
    "id, started_at, finished_at, kind, command, git_commit, git_branch, passed, failed, errors,"  \
    " skipped, duration_ms, shard, recording, config_digest, merged_into"
static const char *const run_names[] = {
    "id",         "started_at@", "finished_at@",  "kind",        "command", "git_commit",
    "git_branch", "passed",      "failed",        "errors",      "skipped", "duration_ms",
    "shard",      "recording",   "config_digest", "merged_into", NULL};

json_t *view_runs(struct an_history *h, const struct view_filter *f, struct an_err *err)
{
    static const char sql[] =
        "SELECT " RUN_COLS " FROM runs WHERE (?1 = '' OR kind = ?1)"
        " AND (?2 = '' OR git_branch = ?2)"
        " AND (?3 = '' OR (?3 = 'failing' AND failed + errors > 0)"
        "      OR (?3 = 'passing' AND failed + errors = 0))"
        " AND (?4 = '' OR instr(lower(ifnull(command, '') || ' ' || ifnull(git_commit, '')),"
        "      lower(?4)) > 0)"
        " ORDER BY id DESC LIMIT ?5";
    sqlite3_stmt *st = prepare(h, sql, err);
    if (!st)
        return NULL;
    bind_opt(st, 1, f->kind);
    bind_opt(st, 2, f->branch);
    bind_opt(st, 3, f->status);
    bind_opt(st, 4, f->q);
    sqlite3_bind_int64(st, 5, (int64_t)(f->limit ? f->limit : 50) + 1);
    json_t *out = an_hist_rows(h, st, run_names, err);
    sqlite3_finalize(st);
    return out;
}

/* The run `id` as an object; NULL with *missing, or with err. */
static json_t *one_run(struct an_history *h, int64_t id, bool *missing, struct an_err *err)
{
    sqlite3_stmt *st = prepare(h, "SELECT " RUN_COLS " FROM runs WHERE id = ?1", err);
    if (!st)
        return NULL;
    sqlite3_bind_int64(st, 1, id);
    json_t *all = an_hist_rows(h, st, run_names, err);
    sqlite3_finalize(st);
    json_t *r = json_incref(json_array_get(all, 0));
    json_decref(all);
    if (!r && all)
        *missing = true;
    return r;
}

static const char *const test_names[] = {"result_id",   "test_id", "name",         "file",
                                         "file_digest", "outcome", "duration_ms",  "tool_calls",
                                         "turns",       "ttft_ms", "input_tokens", "output_tokens",
                                         "cost",        "error",   "finding",      NULL};
#define TEST_COLS                                                                                  \
    "t.id, t.test_id, t.name, t.file, t.file_digest, t.outcome, t.duration_ms, t.tool_calls,"      \
    " t.turns, t.ttft_ms, t.input_tokens, t.output_tokens, t.cost, t.error,"                       \
    " (SELECT f.assertion FROM findings f WHERE f.result_id = t.id ORDER BY f.id LIMIT 1)"

bool view_cut(json_t *rows, size_t max)
{
    bool cut = false;
    while (json_array_size(rows) > max) {
        json_array_remove(rows, json_array_size(rows) - 1);
        cut = true;
    }
    return cut;
}

/* The tests of a run or a comparison shown at most. */
static size_t tests_max(const struct view_caps *caps)
{
    return (size_t)caps->max_rows * VIEW_TESTS_PER_ROW;
}

json_t *view_run(struct an_history *h, const struct view_caps *caps, int64_t id, const char *q,
                 bool *missing, struct an_err *err)
{
    /* failures first: error, fail, then the rest; a search looks in the
     * name, the file, the error and every finding */
    static const char sql[] =
        "SELECT " TEST_COLS " FROM test_results t WHERE t.run_id = ?1 AND (?2 = '' OR"
        " instr(lower(t.name || ' ' || ifnull(t.file, '') || ' ' || ifnull(t.error, '')),"
        "  lower(?2)) > 0 OR EXISTS (SELECT 1 FROM findings f WHERE f.result_id = t.id AND"
        "  instr(lower(ifnull(f.assertion, '') || ' ' || ifnull(f.actual, '') || ' ' ||"
        "   ifnull(f.expected, '')), lower(?2)) > 0))"
        " ORDER BY CASE t.outcome WHEN 'error' THEN 0 WHEN 'fail' THEN 1 WHEN 'pass' THEN 2"
        " ELSE 3 END, t.name, t.id LIMIT ?3";
    json_t *run = one_run(h, id, missing, err);
    if (!run)
        return NULL;
    sqlite3_stmt *st = prepare(h, sql, err);
    json_t *tests = NULL;
    if (st) {
        sqlite3_bind_int64(st, 1, id);
        bind_opt(st, 2, q);
        sqlite3_bind_int64(st, 3, (int64_t)tests_max(caps) + 1);
        tests = an_hist_rows(h, st, test_names, err);
        sqlite3_finalize(st);
    }
    if (!tests) {
        json_decref(run);
        return NULL;
    }
    bool cut = view_cut(tests, tests_max(caps));
    const char *rec = json_string_value(json_object_get(run, "recording"));
    if (rec)
        view_rec_tags(rec, caps->max_results_bytes, tests);
    return json_pack("{s:o, s:o, s:s, s:s*}", "run", run, "tests", tests, "q", q ? q : "",
                     "truncated", cut ? VIEW_ROWS_KEY : NULL);
}

static json_t *findings_of(struct an_history *h, json_int_t result_id, struct an_err *err)
{
    static const char *const names[] = {"kind", "assertion", "expected", "actual",
                                        "turn", "file",      "line",     NULL};
    sqlite3_stmt *st = prepare(h,
                               "SELECT kind, assertion, expected, actual, turn, file, line"
                               " FROM findings WHERE result_id = ?1 ORDER BY id",
                               err);
    if (!st)
        return NULL;
    sqlite3_bind_int64(st, 1, result_id);
    json_t *out = an_hist_rows(h, st, names, err);
    sqlite3_finalize(st);
    return out;
}

/* The test's last VIEW_SPARK_RUNS outcomes, oldest first: the runs a merge
 * joined left out (the merged run holds them), but the one shown kept.
 * The runs are walked from the newest, the test looked up in each through
 * test_results(run_id, test_id) (CROSS JOIN keeps that order; `+` keeps
 * runs_merged out of it), until LIMIT rows: no index by test (history_db.c). */
static json_t *history_of(struct an_history *h, const char *test_id, int64_t run_id,
                          struct an_err *err)
{
    static const char *const names[] = {"run_id", "started_at@", "outcome", "duration_ms", NULL};
    sqlite3_stmt *st = prepare(h,
                               "SELECT * FROM (SELECT t.run_id, r.started_at, t.outcome,"
                               " t.duration_ms FROM runs r CROSS JOIN test_results t"
                               " ON t.run_id = r.id AND t.test_id = ?1"
                               " WHERE (+r.merged_into IS NULL OR r.id = ?3)"
                               " ORDER BY r.id DESC, t.id DESC"
                               " LIMIT ?2) ORDER BY run_id",
                               err);
    if (!st)
        return NULL;
    sqlite3_bind_text(st, 1, test_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, VIEW_SPARK_RUNS);
    sqlite3_bind_int64(st, 3, run_id);
    json_t *out = an_hist_rows(h, st, names, err);
    sqlite3_finalize(st);
    return out;
}

json_t *view_test(struct an_history *h, const struct view_caps *caps, int64_t run_id,
                  const char *test_id, bool *missing, struct an_err *err)
{
    json_t *run = one_run(h, run_id, missing, err);
    if (!run)
        return NULL;
    sqlite3_stmt *st = prepare(h,
                               "SELECT " TEST_COLS
                               " FROM test_results t WHERE t.run_id = ?1 AND t.test_id = ?2"
                               " ORDER BY t.id LIMIT 1",
                               err);
    json_t *all = NULL;
    if (st) {
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_text(st, 2, test_id, -1, SQLITE_TRANSIENT);
        all = an_hist_rows(h, st, test_names, err);
        sqlite3_finalize(st);
    }
    json_t *t = json_incref(json_array_get(all, 0));
    json_decref(all);
    if (!t) {
        *missing = all != NULL;
        json_decref(run);
        return NULL;
    }
    json_t *fs = findings_of(h, json_integer_value(json_object_get(t, "result_id")), err);
    json_t *hist = fs ? history_of(h, test_id, run_id, err) : NULL;
    if (!hist) {
        json_decref(fs);
        json_decref(run);
        json_decref(t);
        return NULL;
    }
    const char *why = NULL, *dir = json_string_value(json_object_get(run, "recording"));
    json_t *rec = dir ? view_recording(dir, caps->max_results_bytes,
                                       json_string_value(json_object_get(t, "name")),
                                       json_string_value(json_object_get(t, "file")), &why)
                      : NULL;
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:s?}", "run", run, "test", t, "findings", fs,
                     "history", hist, "recording", rec ? rec : json_null(), "recording_note", why);
}

json_t *view_compare(struct an_history *h, const struct view_caps *caps, int64_t a, int64_t b,
                     bool *missing, struct an_err *err)
{
    static const char sql[] =
        "WITH ids AS (SELECT test_id FROM test_results WHERE run_id IN (?1, ?2) GROUP BY test_id)"
        " SELECT ids.test_id,"
        " COALESCE((SELECT name FROM test_results WHERE run_id = ?2 AND test_id = ids.test_id),"
        "  (SELECT name FROM test_results WHERE run_id = ?1 AND test_id = ids.test_id)),"
        " COALESCE((SELECT file FROM test_results WHERE run_id = ?2 AND test_id = ids.test_id),"
        "  (SELECT file FROM test_results WHERE run_id = ?1 AND test_id = ids.test_id)),"
        " (SELECT outcome FROM test_results WHERE run_id = ?1 AND test_id = ids.test_id),"
        " (SELECT outcome FROM test_results WHERE run_id = ?2 AND test_id = ids.test_id),"
        " (SELECT duration_ms FROM test_results WHERE run_id = ?1 AND test_id = ids.test_id),"
        " (SELECT duration_ms FROM test_results WHERE run_id = ?2 AND test_id = ids.test_id)"
        " FROM ids LIMIT ?3";
    static const char *const names[] = {"test_id", "name", "file", "a", "b", "a_ms", "b_ms", NULL};
    json_t *ra = one_run(h, a, missing, err);
    json_t *rb = ra ? one_run(h, b, missing, err) : NULL;
    sqlite3_stmt *st = rb ? prepare(h, sql, err) : NULL;
    json_t *tests = NULL;
    if (st) {
        sqlite3_bind_int64(st, 1, a);
        sqlite3_bind_int64(st, 2, b);
        sqlite3_bind_int64(st, 3, (int64_t)tests_max(caps) + 1);
        tests = an_hist_rows(h, st, names, err);
        sqlite3_finalize(st);
    }
    if (!tests) {
        json_decref(ra);
        json_decref(rb);
        return NULL;
    }
    bool cut = view_cut(tests, tests_max(caps));
    size_t i;
    json_t *t;
    json_int_t n_changed = 0;
    json_array_foreach(tests, i, t)
    {
        const char *oa = json_string_value(json_object_get(t, "a"));
        const char *ob = json_string_value(json_object_get(t, "b"));
        bool good_a = oa && !strcmp(oa, "pass"), good_b = ob && !strcmp(ob, "pass");
        const char *ch = !oa                 ? "new"
                         : !ob               ? "gone"
                         : !strcmp(oa, ob)   ? "same"
                         : good_a && !good_b ? "regressed"
                         : !good_a && good_b ? "fixed"
                                             : "changed";
        n_changed += strcmp(ch, "same") != 0;
        json_object_set_new(t, "change", json_string(ch));
    }
    return json_pack("{s:o, s:o, s:o, s:I, s:s*}", "a", ra, "b", rb, "tests", tests, "changed",
                     n_changed, "truncated", cut ? VIEW_ROWS_KEY : NULL);
}

bool view_run_exists(struct an_history *h, int64_t id)
{
    sqlite3_stmt *st = NULL;
    bool yes = false;
    if (sqlite3_prepare_v2(h->db, "SELECT 1 FROM runs WHERE id = ?1", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, id);
        yes = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    return yes;
}
