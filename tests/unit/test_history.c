/*
 * The run history (src/lib/history/): the schema and its migrations (from
 * an empty file, from versions 1 and 3, refusing a newer one), what a run
 * writes (bound parameters, the text cap, pages that do not grow with the
 * history), and the queries: flaky ranking (a
 * table of outcome sequences, with and without edits of the test file),
 * slowest, one test, regressions, prune.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/port.h"
#include "core/sha256.h"
#include "core/yaml.h"
#include "history/history_int.h"
#include "support/files.h"
#include "support/sql.h"

static char db[128];

static void fresh(const char *name)
{
    snprintf(db, sizeof db, "%s/%s", files_dir, name);
    unlink(db);
    char side[160]; /* the WAL a run leaves (no checkpoint on close) */
    snprintf(side, sizeof side, "%s-wal", db);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", db);
    unlink(side);
}

static int64_t scalar(const char *sql)
{
    return sql_scalar(db, sql);
}

/* The text of the first row's first column ("" for NULL), in a static buffer. */
static const char *text(const char *sql)
{
    static char out[128];
    sqlite3 *h;
    assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    const unsigned char *v = sqlite3_column_text(st, 0);
    snprintf(out, sizeof out, "%s", v ? (const char *)v : "");
    sqlite3_finalize(st);
    sqlite3_close(h);
    return out;
}

static void exec(const char *sql)
{
    sqlite3 *h;
    assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
}

/* A new history file `name`, opened for writing at the current schema. */
static struct an_history *open_fresh(const char *name)
{
    fresh(name);
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_hist_open(&h, db, true, false, AN_HISTORY_SCHEMA_VERSION, &err), 0);
    return h;
}

static void migrate_from_0(void **state)
{
    (void)state;
    struct an_history *h = open_fresh("v0.sqlite");
    struct an_err err = AN_ERR_INIT;
    an_history_free(h);
    assert_int_equal(scalar("PRAGMA user_version"), AN_HISTORY_SCHEMA_VERSION);
    assert_int_equal(scalar("SELECT count(*) FROM sqlite_master WHERE name IN ('runs', "
                            "'test_results', 'findings', 'test_results_run_test')"),
                     4);
    /* opening again changes nothing */
    assert_int_equal(an_history_open(&h, db, &err), 0);
    an_history_free(h);
    assert_int_equal(scalar("PRAGMA user_version"), AN_HISTORY_SCHEMA_VERSION);
}

/* SQLite keeps no memory statistics for the history (a global mutex
 * around each of its allocations): an open history counts no memory. */
static void no_memory_statistics(void **state)
{
    (void)state;
    struct an_history *h = open_fresh("memstat.sqlite");
    assert_int_equal(sqlite3_memory_used(), 0);
    an_history_free(h);
}

static void migrate_from_1(void **state)
{
    (void)state;
    fresh("v1.sqlite");
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_hist_open(&h, db, true, false, 1, &err), 0);
    an_history_free(h);
    assert_int_equal(scalar("PRAGMA user_version"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM sqlite_master WHERE name = 'findings'"), 0);
    exec("INSERT INTO runs (started_at, finished_at, kind, passed, failed, errors, skipped,"
         " duration_ms) VALUES (1000, 2000, 'run', 1, 0, 0, 0, 1000);"
         "INSERT INTO test_results (run_id, test_id, name, outcome, duration_ms)"
         " VALUES (1, 'abc', 'old test', 'pass', 12)");
    assert_int_equal(an_history_open(&h, db, &err), 0);
    an_history_free(h);
    assert_int_equal(scalar("PRAGMA user_version"), AN_HISTORY_SCHEMA_VERSION);
    assert_int_equal(scalar("SELECT count(*) FROM test_results WHERE name = 'old test'"), 1);
    assert_int_equal(scalar("SELECT recording IS NULL FROM runs WHERE id = 1"), 1);
    /* version 3: a merge's mark on the runs it joined */
    assert_int_equal(scalar("SELECT merged_into IS NULL FROM runs WHERE id = 1"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM findings"), 0);
}

static void refuses_newer(void **state)
{
    (void)state;
    fresh("v99.sqlite");
    exec("PRAGMA user_version = 99");
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_not_equal(an_history_open(&h, db, &err), 0);
    assert_null(h);
    char want[96];
    snprintf(want, sizeof want, "schema version 99 is newer than this ananke knows (%d)",
             AN_HISTORY_SCHEMA_VERSION);
    assert_non_null(strstr(err.msg, want));
}

static void refuses_garbage(void **state)
{
    (void)state;
    fresh("garbage.sqlite");
    FILE *f = fopen(db, "w");
    assert_non_null(f);
    for (int i = 0; i < 50; i++)
        fputs("not a database at all\n", f);
    fclose(f);
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_not_equal(an_history_open(&h, db, &err), 0);
    assert_non_null(strstr(err.msg, "file is not a database"));
}

/* ---- writing runs ---- */

/* A test file under files_dir whose content is `text` (its digest). */
static void test_file(const char *name, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", files_dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int64_t clock_ms = 1700000000000;

/* One run: tests[i] named names[i] (file "NAME.test.yaml") with outcome
 * outcomes[i] ('p', 'f', 'e', 's') lasting durations[i] ms. */
static int64_t add_run(size_t n, const char *const *names, const char *outcomes,
                       const int64_t *durations, int64_t max_text)
{
    struct an_run_result r = {0};
    r.start_ms = clock_ms;
    for (size_t i = 0; i < n; i++) {
        struct an_test_result *t = an_run_result_add(&r);
        t->name = an_xstrdup(names[i]);
        char file[128];
        snprintf(file, sizeof file, "%s.test.yaml", names[i]);
        t->file = an_xstrdup(file);
        t->status = outcomes[i] == 'p'   ? AN_STATUS_PASS
                    : outcomes[i] == 'f' ? AN_STATUS_FAIL
                    : outcomes[i] == 'e' ? AN_STATUS_ERROR
                                         : AN_STATUS_SKIP;
        t->start_ms = clock_ms;
        t->end_ms = clock_ms + (durations ? durations[i] : 10);
        if (outcomes[i] == 'f')
            an_findings_add(&t->findings, "text.must_match", 0, file, 3, 5, "Text must match /ok/",
                            "a match", "'); DROP TABLE runs; --", NULL);
    }
    clock_ms += 60000;
    r.end_ms = clock_ms - 1000;
    struct an_history_run_info info = {.kind = "run",
                                       .command = "ananke run",
                                       .project_dir = files_dir,
                                       .max_text_bytes = max_text};
    struct an_history_rec *rec = an_history_rec_new();
    int64_t id = 0;
    struct an_err err = AN_ERR_INIT;
    int rc = an_history_rec_write(rec, db, false, &info, &r, &id, &err);
    if (rc)
        fail_msg("%s", err.msg);
    an_history_rec_free(rec);
    an_run_result_release(&r);
    return id;
}

static json_t *query(enum an_history_what what, const char *arg, unsigned window)
{
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_history_open(&h, db, &err), 0);
    struct an_history_query q = {.what = what, .test = arg, .ref = arg, .window = window};
    json_t *rows = an_history_query(h, &q, &err);
    if (!rows)
        fail_msg("%s", err.msg);
    an_history_free(h);
    return rows;
}

static void bound_and_capped(void **state)
{
    (void)state;
    fresh("cap.sqlite");
    /* "é" is 2 bytes: a cap of 5 falls inside the 3rd one, which goes */
    const char *names[] = {"'); DROP TABLE runs; --", "ééééé"};
    test_file("ééééé.test.yaml", "x");
    add_run(2, names, "fp", NULL, 5);
    assert_int_equal(scalar("SELECT count(*) FROM runs"), 1);
    /* stored as written (cut to 5 bytes), the table still there */
    assert_int_equal(scalar("SELECT count(*) FROM test_results WHERE name = '''); D'"), 1);
    assert_int_equal(scalar("SELECT length(CAST(name AS BLOB)) FROM test_results WHERE name "
                            "LIKE 'é%'"),
                     4);
    /* the finding's text, cut too */
    assert_int_equal(scalar("SELECT max(length(CAST(actual AS BLOB))) FROM findings"), 5);
}

/* Flaky: each row a test's outcomes, oldest first, and the runs before
 * which its file is edited; the expected flips (0: not listed). */
static const struct {
    const char *name;
    const char *outcomes;
    const char *edits; /* '1' at k: the file changes before run k */
    int flips;
} flaky_cases[] = {
    {"steady", "ppppp", "00000", 0},        {"always-red", "fffff", "00000", 0},
    {"every-other", "pfpfp", "00000", 4},   {"once", "ppppf", "00000", 1},
    {"fixed-by-edit", "fffpp", "00010", 0}, /* the change came with an edit */
    {"edit-and-flip", "pfpfp", "00100", 3}, /* one change came with an edit */
    {"error-counts", "pepep", "00000", 4},  {"skips-ignored", "pspsp", "00000", 0},
};
#define NFLAKY (sizeof flaky_cases / sizeof *flaky_cases)

static void flaky_ranking(void **state)
{
    (void)state;
    fresh("flaky.sqlite");
    const char *names[NFLAKY];
    for (size_t i = 0; i < NFLAKY; i++)
        names[i] = flaky_cases[i].name;
    for (int run = 0; run < 5; run++) {
        char outcomes[NFLAKY + 1];
        for (size_t i = 0; i < NFLAKY; i++) {
            char file[128], text[64];
            snprintf(file, sizeof file, "%s.test.yaml", names[i]);
            int version = 0;
            for (int k = 0; k <= run; k++)
                version += flaky_cases[i].edits[k] == '1';
            snprintf(text, sizeof text, "version %d", version);
            test_file(file, text);
            outcomes[i] = flaky_cases[i].outcomes[run];
        }
        add_run(NFLAKY, names, outcomes, NULL, 0);
    }
    json_t *rows = query(AN_HISTORY_FLAKY, NULL, 0);
    /* every-other and error-counts (4 of 4), edit-and-flip (3), once (1) */
    const char *order[] = {"error-counts", "every-other", "edit-and-flip", "once"};
    assert_int_equal(json_array_size(rows), 4);
    for (size_t i = 0; i < 4; i++) {
        json_t *r = json_array_get(rows, i);
        assert_string_equal(json_string_value(json_object_get(r, "name")), order[i]);
        assert_int_equal(json_integer_value(json_object_get(r, "runs")), 5);
        for (size_t k = 0; k < NFLAKY; k++)
            if (!strcmp(flaky_cases[k].name, order[i])) {
                assert_int_equal(json_integer_value(json_object_get(r, "flips")),
                                 flaky_cases[k].flips);
                assert_true(json_real_value(json_object_get(r, "flip_rate")) ==
                            flaky_cases[k].flips / 4.0);
            }
    }
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 3), "last_outcome")),
                        "fail");
    json_decref(rows);
    /* the window: each test's last 2 runs */
    rows = query(AN_HISTORY_FLAKY, NULL, 2);
    assert_int_equal(json_array_size(rows), 4); /* every-other, error-counts, edit-and-flip, once */
    json_decref(rows);
}

static void slowest_test_regressed_prune(void **state)
{
    (void)state;
    fresh("q.sqlite");
    const char *names[] = {"a", "b", "c"};
    const int64_t d1[] = {10, 300, 50}, d2[] = {20, 100, 70};
    int64_t r1 = add_run(3, names, "ppp", d1, 0);
    add_run(3, names, "pff", d2, 0);
    add_run(3, names, "pfp", d2, 0);
    json_t *rows = query(AN_HISTORY_SLOWEST, NULL, 0);
    assert_int_equal(json_array_size(rows), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 0), "name")), "b");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(rows, 0), "mean_ms")), 167);
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 2), "name")), "a");
    json_decref(rows);
    rows = query(AN_HISTORY_TEST, "b", 0);
    assert_int_equal(json_array_size(rows), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 0), "outcome")),
                        "fail");
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 2), "outcome")),
                        "pass");
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 0), "finding")),
                        "Text must match /ok/");
    json_decref(rows);
    char ref[32];
    snprintf(ref, sizeof ref, "%lld", (long long)r1);
    rows = query(AN_HISTORY_REGRESSED, ref, 0); /* b fails now; c failed once, passes now */
    assert_int_equal(json_array_size(rows), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 0), "name")), "b");
    assert_int_equal(
        json_integer_value(json_object_get(json_array_get(rows, 0), "first_failed_run")), r1 + 1);
    json_decref(rows);
    rows = query(AN_HISTORY_RUNS, NULL, 0);
    assert_int_equal(json_array_size(rows), 3);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(rows, 0), "failed")), 1);
    json_decref(rows);

    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    size_t removed = 0;
    assert_int_equal(an_history_open(&h, db, &err), 0);
    /* runs 1, 2, 3 started at clock - 180 s, -120 s, -60 s */
    assert_int_equal(an_history_prune(h, -1, clock_ms - 150000, &removed, &err), 0);
    assert_int_equal(removed, 1);
    assert_int_equal(an_history_prune(h, 1, 0, &removed, &err), 0);
    assert_int_equal(removed, 1);
    an_history_free(h);
    assert_int_equal(scalar("SELECT count(*) FROM runs"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM test_results"), 3);
    assert_int_equal(scalar("SELECT count(*) FROM findings"), 1);
}

/* Counters are noted as tests finish and matched to the results by test,
 * not by position: a test never noted (not finished: fail-fast, an
 * interruption) takes no other test's counters. */
static void notes_matched_by_test(void **state)
{
    (void)state;
    fresh("notes.sqlite");
    struct an_run_result r = {0};
    r.start_ms = clock_ms;
    r.end_ms = clock_ms + 10;
    const char *names[] = {"a", "b", "c"};
    for (size_t i = 0; i < 3; i++) {
        struct an_test_result *t = an_run_result_add(&r);
        t->name = an_xstrdup(names[i]);
        t->file = an_xstrdup("x.test.yaml");
        an_transcript_add_turn(&t->transcript, "user");
        for (size_t k = 0; k <= i; k++) /* a: 1 call, b: 2, c: 3 */
            an_transcript_add_call(&t->transcript, 0);
    }
    struct an_history_rec *rec = an_history_rec_new();
    an_history_rec_note(rec, &r.tests[2]); /* c, then a; b never */
    an_history_rec_note(rec, &r.tests[0]);
    for (size_t i = 0; i < 3; i++) /* as the runner drops them */
        an_transcript_release(&r.tests[i].transcript);
    struct an_history_run_info info = {.kind = "run", .project_dir = files_dir};
    int64_t id = 0;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_history_rec_write(rec, db, false, &info, &r, &id, &err), 0);
    an_history_rec_free(rec);
    an_run_result_release(&r);
    assert_int_equal(scalar("SELECT tool_calls FROM test_results WHERE name = 'a'"), 1);
    assert_int_equal(scalar("SELECT tool_calls IS NULL FROM test_results WHERE name = 'b'"), 1);
    assert_int_equal(scalar("SELECT tool_calls FROM test_results WHERE name = 'c'"), 3);
}

/* Every row of test_results (but its id and run) and of findings (with its
 * test's id for the row it belongs to), in order, as one text. */
static char *dump(void)
{
    static const char *const sql[] = {
        "SELECT test_id, name, file, file_digest, outcome, duration_ms, tool_calls, turns,"
        " ttft_ms, input_tokens, output_tokens, cost, error FROM test_results ORDER BY id",
        "SELECT t.test_id, f.kind, f.assertion, f.expected, f.actual, f.turn, f.file, f.line"
        " FROM findings f JOIN test_results t ON t.id = f.result_id ORDER BY f.id",
        "SELECT max(id) - min(id) + 1 - count(*) FROM test_results", /* 0: no gap */
    };
    struct an_buf out = AN_BUF_INIT;
    sqlite3 *h;
    assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
    for (size_t q = 0; q < sizeof sql / sizeof *sql; q++) {
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(h, sql[q], -1, &st, NULL), SQLITE_OK);
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(st); c++) {
                const unsigned char *v = sqlite3_column_text(st, c);
                an_buf_puts(&out, v ? (const char *)v : "NULL");
                an_buf_putc(&out, '|');
            }
            an_buf_putc(&out, '\n');
        }
        sqlite3_finalize(st);
        an_buf_puts(&out, "--\n");
    }
    sqlite3_close(h);
    return an_buf_detach(&out, NULL);
}

/* The write's rows, 32 to an INSERT (the fast path), are those of one row
 * to an INSERT (the general path): 77 tests (two full statements and a
 * shorter last one) of every outcome, with no, one or several findings,
 * errors, counters noted or not, a name with quotes; findings belong to
 * their own test (a row's id is worked out from the statement's last). */
static void rows_per_insert_same(void **state)
{
    (void)state;
    char *dumps[2];
    static const unsigned per[2] = {1, HIST_INSERT_ROWS};
    for (int pass = 0; pass < 2; pass++) {
        fresh(pass ? "rows32.sqlite" : "rows1.sqlite");
        struct an_run_result r = {0};
        r.start_ms = clock_ms;
        r.end_ms = clock_ms + 500;
        struct an_history_rec *rec = an_history_rec_new();
        for (size_t i = 0; i < 77; i++) {
            struct an_test_result *t = an_run_result_add(&r);
            char name[64];
            snprintf(name, sizeof name, i % 11 ? "test %zu" : "it's \"%zu\"", i);
            t->name = an_xstrdup(name);
            t->file = an_xstrdup(i % 3 ? "a.test.yaml" : "b.test.yaml");
            t->status = i % 4 == 0   ? AN_STATUS_FAIL
                        : i % 4 == 1 ? AN_STATUS_PASS
                        : i % 4 == 2 ? AN_STATUS_ERROR
                                     : AN_STATUS_SKIP;
            t->start_ms = clock_ms;
            t->end_ms = clock_ms + (int64_t)i;
            if (t->status == AN_STATUS_ERROR)
                t->error = an_xstrdup("the agent answered 500");
            for (size_t f = 0; f < i % 5 && t->status == AN_STATUS_FAIL; f++)
                an_findings_add(&t->findings, "text.must_match", (int)f, t->file, 3, (int)f,
                                "Text must match", "a match", name, NULL);
            an_transcript_add_turn(&t->transcript, "user");
            for (size_t k = 0; k < i % 3; k++)
                an_transcript_add_call(&t->transcript, 0);
            if (i % 2)
                an_history_rec_note(rec, t);
        }
        struct an_history_run_info info = {.kind = "run", .project_dir = files_dir};
        int64_t id = 0;
        struct an_err err = AN_ERR_INIT;
        an_hist_insert_rows = per[pass];
        int rc = an_history_rec_write(rec, db, false, &info, &r, &id, &err);
        an_hist_insert_rows = HIST_INSERT_ROWS;
        if (rc)
            fail_msg("%s", err.msg);
        an_history_rec_free(rec);
        an_run_result_release(&r);
        dumps[pass] = dump();
    }
    assert_string_equal(dumps[1], dumps[0]);
    assert_non_null(strstr(dumps[0], "it's \"0\"|")); /* and it holds something */
    free(dumps[0]);
    free(dumps[1]);
}

/* The file digests are read once per file and looked up by name (a hash
 * map): with files interleaved across many tests and one file missing,
 * every row still carries the sha256 of its own file (the general path:
 * an_sha256_hex over the file's bytes), and NULL for the missing one. */
static void digests_per_file(void **state)
{
    (void)state;
    fresh("digests.sqlite");
    enum { NFILES = 70, NTESTS = 3 * NFILES }; /* more files than the map's first size */
    char texts[NFILES][48];
    for (size_t f = 0; f < NFILES; f++) {
        char name[32];
        snprintf(name, sizeof name, "d%zu.test.yaml", f);
        snprintf(texts[f], sizeof texts[f], "name: digest %zu\n", f);
        if (f != 5) /* d5 is missing */
            test_file(name, texts[f]);
    }
    struct an_run_result r = {0};
    r.start_ms = clock_ms;
    r.end_ms = clock_ms + 10;
    for (size_t i = 0; i < NTESTS; i++) {
        struct an_test_result *t = an_run_result_add(&r);
        char name[32];
        snprintf(name, sizeof name, "t%zu", i);
        t->name = an_xstrdup(name);
        snprintf(name, sizeof name, "d%zu.test.yaml", (i * 11) % NFILES); /* interleaved */
        t->file = an_xstrdup(name);
    }
    struct an_history_run_info info = {.kind = "run", .project_dir = files_dir};
    int64_t id = 0;
    struct an_err err = AN_ERR_INIT;
    struct an_history_rec *rec = an_history_rec_new();
    assert_int_equal(an_history_rec_write(rec, db, false, &info, &r, &id, &err), 0);
    an_history_rec_free(rec);
    an_run_result_release(&r);
    sqlite3 *h;
    assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(
        sqlite3_prepare_v2(h, "SELECT file, file_digest FROM test_results", -1, &st, NULL),
        SQLITE_OK);
    size_t rows = 0, missing = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *file = (const char *)sqlite3_column_text(st, 0);
        const char *got = (const char *)sqlite3_column_text(st, 1);
        size_t f = (size_t)strtoul(file + 1, NULL, 10);
        assert_true(f < NFILES);
        if (f == 5) {
            assert_null(got);
            missing++;
        } else {
            char want[AN_SHA256_HEX_LEN + 1];
            an_sha256_hex(texts[f], strlen(texts[f]), want);
            assert_non_null(got);
            assert_string_equal(got, want);
        }
        rows++;
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    assert_int_equal(rows, NTESTS);
    assert_int_equal(missing, NTESTS / NFILES);
}

/* file_digest and config_digest from the sums the loader took
 * (an_yaml_load_file_sum over the bytes it parsed: the fast path) equal
 * those of the general path (the history reading the file: a result with
 * no file_sum), and sha256 of the bytes; a file changed on disk since it
 * was loaded is recorded as loaded, the config too. */
static void digests_as_loaded(void **state)
{
    (void)state;
    fresh("loaded.sqlite");
    static const char a[] = "name: loaded\n", b[] = "name: loaded, then edited\n";
    char path[256], want_a[AN_SHA256_HEX_LEN + 1], want_b[AN_SHA256_HEX_LEN + 1];
    test_file("l.test.yaml", a);
    test_file("cfg.yaml", a);
    unsigned char sum[AN_SHA256_LEN];
    struct an_arena ar = AN_ARENA_INIT;
    struct an_ynode *root = NULL;
    struct an_err err = AN_ERR_INIT;
    snprintf(path, sizeof path, "%s/l.test.yaml", files_dir);
    assert_int_equal(an_yaml_load_file_sum(&root, path, &ar, &ar, sum, &err), 0);
    an_arena_release(&ar);
    an_sha256_hex(a, strlen(a), want_a);
    an_sha256_hex(b, strlen(b), want_b);
    struct an_run_result r = {0};
    r.start_ms = clock_ms;
    r.end_ms = clock_ms + 10;
    for (size_t i = 0; i < 2; i++) { /* 0: loaded (fast path), 1: read now (general) */
        struct an_test_result *t = an_run_result_add(&r);
        t->name = an_xstrdup(i ? "read" : "loaded");
        t->file = an_xstrdup("l.test.yaml");
        t->file_sum = i ? NULL : sum;
    }
    struct an_history_run_info info = {.kind = "run", .project_dir = files_dir};
    int64_t id = 0;
    struct an_history_rec *rec = an_history_rec_new();
    assert_int_equal(an_history_rec_write(rec, db, false, &info, &r, &id, &err), 0);
    an_history_rec_free(rec);
    assert_string_equal(text("SELECT file_digest FROM test_results WHERE name = 'loaded'"), want_a);
    assert_string_equal(text("SELECT file_digest FROM test_results WHERE name = 'read'"), want_a);
    /* edited after loading: the loaded test and config keep what ran */
    test_file("l.test.yaml", b);
    test_file("cfg.yaml", b);
    snprintf(path, sizeof path, "%s/cfg.yaml", files_dir);
    info.config_path = path;
    info.config_sum = sum;
    rec = an_history_rec_new();
    assert_int_equal(an_history_rec_write(rec, db, false, &info, &r, &id, &err), 0);
    an_history_rec_free(rec);
    char q[160];
    snprintf(q, sizeof q,
             "SELECT file_digest FROM test_results WHERE run_id = %lld AND name = '%s'",
             (long long)id, "loaded");
    assert_string_equal(text(q), want_a);
    snprintf(q, sizeof q,
             "SELECT file_digest FROM test_results WHERE run_id = %lld AND name = '%s'",
             (long long)id, "read");
    assert_string_equal(text(q), want_b);
    snprintf(q, sizeof q, "SELECT config_digest FROM runs WHERE id = %lld", (long long)id);
    assert_string_equal(text(q), want_a);
    /* without the loader's sum the config is read: its bytes now */
    info.config_sum = NULL;
    rec = an_history_rec_new();
    assert_int_equal(an_history_rec_write(rec, db, false, &info, &r, &id, &err), 0);
    an_history_rec_free(rec);
    snprintf(q, sizeof q, "SELECT config_digest FROM runs WHERE id = %lld", (long long)id);
    assert_string_equal(text(q), want_b);
    an_run_result_release(&r);
}

/* A run's write ends without a checkpoint (its fdatasyncs were most of the
 * time of a one-test run): the WAL stays beside the database, and a new
 * reader still sees the run. */
static void no_checkpoint_on_close(void **state)
{
    (void)state;
    fresh("wal.sqlite");
    const char *names[] = {"w"};
    add_run(1, names, "p", NULL, 0);
    char wal[160];
    snprintf(wal, sizeof wal, "%s-wal", db);
    assert_int_equal(access(wal, F_OK), 0);
    assert_int_equal(scalar("SELECT count(*) FROM test_results WHERE name = 'w'"), 1);
}

static int64_t size_of(const char *suffix)
{
    char path[160];
    snprintf(path, sizeof path, "%s%s", db, suffix);
    struct stat sb;
    return stat(path, &sb) ? -1 : (int64_t)sb.st_size;
}

/* MANY tests named PREFIX0, PREFIX1 ...; every `fail_every`-th fails
 * (from the first): the names in *names, the outcomes returned (static
 * storage, the next call's). */
enum { MANY = 4000 };
static const char *many_tests(const char *prefix, size_t fail_every, const char ***names)
{
    static char buf[MANY][16];
    static const char *v[MANY];
    static char outcomes[MANY + 1];
    for (size_t i = 0; i < MANY; i++) {
        snprintf(buf[i], sizeof buf[i], "%s%zu", prefix, i);
        v[i] = buf[i];
        outcomes[i] = i % fail_every ? 'p' : 'f';
    }
    *names = v;
    return outcomes;
}

/* A run that leaves the write-ahead log over AN_HIST_WAL_MAX_BYTES folds it
 * into the database and truncates it: the next process to open the file
 * would read the whole log (a 1,000-test runs' 11 MB made every later
 * one-test run 9 ms slower); small runs still leave theirs. */
static void long_log_checkpointed(void **state)
{
    (void)state;
    fresh("bound.sqlite");
    enum { N = MANY };
    const char **names;
    const char *outcomes = many_tests("t", 2, &names);
    const char *one[] = {"w"};
    add_run(1, one, "p", NULL, 0);
    int64_t small = size_of("-wal");
    assert_true(small > 0 && small < AN_HIST_WAL_MAX_BYTES);
    add_run(N, names, outcomes, NULL, 0);
    assert_int_equal(size_of("-wal"), 0);
    assert_int_equal(scalar("SELECT count(*) FROM test_results"), N + 1);
    assert_int_equal(scalar("SELECT count(*) FROM findings"), N / 2);
    add_run(1, one, "p", NULL, 0);
    assert_true(size_of("-wal") > 0);
}

/* A run's write keeps SQLite's statement journal in memory: with it in a
 * temporary file (past 64 KiB, which every INSERT of HIST_INSERT_ROWS rows
 * passed in a run of thousands of tests) each statement wrote its pages
 * there, a third of the write of 10,000 tests. SQLite's temporary files
 * are made in sqlite3_temp_directory and unlinked at once: their creation
 * is seen with inotify. */
static void statement_journal_in_memory(void **state)
{
    (void)state;
    int in = an_port_notify_open();
    if (in < 0)
        skip(); /* no change events here (the portable build) */
    fresh("stmtjrnl.sqlite");
    enum { N = MANY };
    const char **names;
    const char *outcomes = many_tests("s", 3, &names);
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s/sqlite-tmp", files_dir);
    assert_int_equal(mkdir(tmp, 0700), 0);
    assert_int_equal(an_port_notify_add(in, tmp), 0);
    sqlite3_temp_directory = sqlite3_mprintf("%s", tmp); /* no connection is open */
    const char *one[] = {"first"};
    add_run(1, one, "p", NULL, 0);
    add_run(N, names, outcomes, NULL, 0);
    sqlite3_free(sqlite3_temp_directory);
    sqlite3_temp_directory = NULL;
    assert_int_equal(scalar("SELECT count(*) FROM test_results"), N + 1);
    assert_int_equal(scalar("SELECT count(*) FROM findings"), (N + 2) / 3);
    int made = an_port_notify_drain(in); /* each file: made, deleted */
    if (made)
        fail_msg("the write made a temporary file (%d change events)", made);
    close(in);
    rmdir(tmp);
}

/* The WAL frames (pages) the last write left, the log truncated before it. */
static int64_t frames_of_one_run(size_t n, const char *const *names, const char *outcomes)
{
    exec("PRAGMA wal_checkpoint(TRUNCATE)"); /* the last connection closed: no log */
    assert_true(size_of("-wal") <= 0);
    add_run(n, names, outcomes, NULL, 0);
    int64_t page = scalar("PRAGMA page_size"), wal = size_of("-wal");
    assert_true(wal > 32);
    return (wal - 32) / (page + 24); /* the log's header, each frame's */
}

/* Version 4: what a run writes does not grow with the history. Indexed by
 * (test_id, run_id), each of a run's rows went to its test's place in the
 * index, so a run dirtied about every leaf page of it: here 30 runs of 300
 * tests made the 31st write about 4 times the pages of the 2nd. By
 * (run_id, test_id) its rows append. */
static void write_bounded_by_run(void **state)
{
    (void)state;
    fresh("grown.sqlite");
    enum { N = 300, RUNS = 30 };
    static char names_buf[N][24];
    static const char *names[N];
    static char outcomes[N + 1];
    for (size_t i = 0; i < N; i++) {
        snprintf(names_buf[i], sizeof names_buf[i], "grown %03zu", i);
        names[i] = names_buf[i];
        outcomes[i] = 'p';
    }
    add_run(N, names, outcomes, NULL, 0);
    int64_t young = frames_of_one_run(N, names, outcomes);
    for (int r = 2; r < RUNS; r++)
        add_run(N, names, outcomes, NULL, 0);
    int64_t grown = frames_of_one_run(N, names, outcomes);
    assert_int_equal(scalar("SELECT count(*) FROM test_results"), (RUNS + 1) * N);
    print_message("pages a run writes: %lld after 1 run, %lld after %d\n", (long long)young,
                  (long long)grown, RUNS);
    if (grown > young + young / 4 + 2)
        fail_msg("a run wrote %lld pages into a history of %d runs, %lld into one of 1",
                 (long long)grown, RUNS, (long long)young);
}

/* --regressed-since over runs a merge joined and skips: the newest result
 * that is not a skip, outside the merged runs, against the base run. */
static void regressed_walk(void **state)
{
    (void)state;
    fresh("regressed.sqlite");
    const char *names[] = {"a", "b", "c", "d"};
    int64_t base = add_run(4, names, "pppp", NULL, 0);
    add_run(4, names, "pfep", NULL, 0);                 /* b fails first here; c errors */
    int64_t shard = add_run(4, names, "ffff", NULL, 0); /* merged below: left out */
    int64_t merge = add_run(4, names, "pffs", NULL, 0); /* d skipped */
    add_run(4, names, "psss", NULL, 0); /* b, c, d skipped: their latest is before */
    char sql[160];
    snprintf(sql, sizeof sql, "UPDATE runs SET merged_into = %lld WHERE id = %lld",
             (long long)merge, (long long)shard);
    exec(sql);
    char ref[32];
    snprintf(ref, sizeof ref, "%lld", (long long)base);
    json_t *rows = query(AN_HISTORY_REGRESSED, ref, 0);
    /* a passes; b fails (first in base+1), c fails (first errored in
     * base+1), d passes (its latest non-skip result, base+1) */
    assert_int_equal(json_array_size(rows), 2);
    const char *want[] = {"b", "c"};
    for (size_t i = 0; i < 2; i++) {
        json_t *r = json_array_get(rows, i);
        assert_string_equal(json_string_value(json_object_get(r, "name")), want[i]);
        assert_int_equal(json_integer_value(json_object_get(r, "run_id")), merge);
        assert_string_equal(json_string_value(json_object_get(r, "outcome")), "fail");
        assert_int_equal(json_integer_value(json_object_get(r, "first_failed_run")), base + 1);
        assert_string_equal(json_string_value(json_object_get(r, "finding")),
                            "Text must match /ok/");
    }
    json_decref(rows);
    /* since the run after: b and c did not pass there; a passes now; d's
     * latest result after it is a skip or in the merged shard: none */
    snprintf(ref, sizeof ref, "%lld", (long long)(base + 1));
    rows = query(AN_HISTORY_REGRESSED, ref, 0);
    assert_int_equal(json_array_size(rows), 0);
    json_decref(rows);
}

/* From version 3 (the schema before this one): the rows kept, the index by
 * test replaced, every query answering from the new one. */
static void migrate_from_3(void **state)
{
    (void)state;
    fresh("v3.sqlite");
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_hist_open(&h, db, true, false, 3, &err), 0);
    an_history_free(h);
    assert_int_equal(scalar("PRAGMA user_version"), 3);
    assert_int_equal(scalar("SELECT count(*) FROM sqlite_master WHERE name IN"
                            " ('test_results_test', 'test_results_run')"),
                     2);
    exec("INSERT INTO runs (started_at, finished_at, kind, passed, failed, errors, skipped,"
         " duration_ms) VALUES (1000, 2000, 'run', 1, 0, 0, 0, 1000),"
         " (3000, 4000, 'run', 0, 1, 0, 0, 1000);"
         "INSERT INTO test_results (run_id, test_id, name, outcome, duration_ms) VALUES"
         " (1, 'abc', 'old test', 'pass', 12), (2, 'abc', 'old test', 'fail', 14);"
         "INSERT INTO findings (result_id, kind, assertion, turn) VALUES"
         " (2, 'text.must_match', 'old finding', 0)");
    assert_int_equal(an_history_open(&h, db, &err), 0);
    an_history_free(h);
    assert_int_equal(scalar("PRAGMA user_version"), 4);
    assert_int_equal(scalar("SELECT count(*) FROM sqlite_master WHERE name IN"
                            " ('test_results_test', 'test_results_run')"),
                     0);
    assert_int_equal(scalar("SELECT count(*) FROM sqlite_master WHERE name ="
                            " 'test_results_run_test'"),
                     1);
    assert_int_equal(scalar("SELECT count(*) FROM test_results"), 2);
    json_t *rows = query(AN_HISTORY_REGRESSED, "1", 0);
    assert_int_equal(json_array_size(rows), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 0), "finding")),
                        "old finding");
    json_decref(rows);
    rows = query(AN_HISTORY_TEST, "abc", 0);
    assert_int_equal(json_array_size(rows), 2);
    json_decref(rows);
    /* a run appended after the upgrade, and pruning through the new index */
    const char *names[] = {"new test"};
    add_run(1, names, "p", NULL, 0);
    assert_int_equal(scalar("SELECT count(*) FROM test_results"), 3);
    assert_int_equal(an_history_open(&h, db, &err), 0);
    size_t removed = 0;
    assert_int_equal(an_history_prune(h, 1, 0, &removed, &err), 0);
    an_history_free(h);
    assert_int_equal(removed, 2);
    assert_int_equal(scalar("SELECT count(*) FROM test_results"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM findings"), 0);
}

static void path_rules(void **state)
{
    (void)state;
    bool def;
    unsetenv("ANANKE_HISTORY");
    char *p = an_history_path(NULL, false, "/proj", &def);
    assert_string_equal(p, "/proj/.ananke/history.sqlite");
    assert_true(def);
    free(p);
    assert_null(an_history_path(NULL, true, "/proj", &def));
    setenv("ANANKE_HISTORY", "0", 1);
    assert_null(an_history_path(NULL, false, "/proj", &def));
    p = an_history_path("x.sqlite", false, "/proj", &def); /* the flag wins */
    assert_string_equal(p, "x.sqlite");
    assert_false(def);
    free(p);
    setenv("ANANKE_HISTORY", "/tmp/h.sqlite", 1);
    p = an_history_path(NULL, false, "/proj", &def);
    assert_string_equal(p, "/tmp/h.sqlite");
    free(p);
    unsetenv("ANANKE_HISTORY");
}

/* Processes that open one new database at the same moment (parallel runs'
 * first write) all get it: the switch into WAL is retried while another
 * holds the file (history_db.c use_wal; before, about one round in ten failed). */
static void parallel_first_open(void **state)
{
    (void)state;
    int rounds = getenv("ANANKE_UNDER_VALGRIND") ? 5 : 50;
    for (int round = 0; round < rounds; round++) {
        fresh("par.sqlite");
        pid_t kids[6];
        for (int i = 0; i < 6; i++) {
            kids[i] = fork();
            assert_true(kids[i] >= 0);
            if (kids[i] == 0) {
                struct an_history *h = NULL;
                struct an_err err = AN_ERR_INIT;
                int rc = an_hist_open(&h, db, true, false, AN_HISTORY_SCHEMA_VERSION, &err);
                if (rc)
                    fprintf(stderr, "round %d, process %d: %s\n", round, i, err.msg);
                an_history_free(h);
                _exit(rc ? 1 : 0);
            }
        }
        int failed = 0;
        for (int i = 0; i < 6; i++) {
            int st;
            assert_int_equal(waitpid(kids[i], &st, 0), kids[i]);
            failed += !WIFEXITED(st) || WEXITSTATUS(st) != 0;
        }
        assert_int_equal(failed, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_memory_statistics), /* first: before SQLite's first use */
        cmocka_unit_test(migrate_from_0),
        cmocka_unit_test(migrate_from_1),
        cmocka_unit_test(refuses_newer),
        cmocka_unit_test(refuses_garbage),
        cmocka_unit_test(bound_and_capped),
        cmocka_unit_test(flaky_ranking),
        cmocka_unit_test(slowest_test_regressed_prune),
        cmocka_unit_test(notes_matched_by_test),
        cmocka_unit_test(rows_per_insert_same),
        cmocka_unit_test(digests_per_file),
        cmocka_unit_test(digests_as_loaded),
        cmocka_unit_test(no_checkpoint_on_close),
        cmocka_unit_test(long_log_checkpointed),
        cmocka_unit_test(statement_journal_in_memory),
        cmocka_unit_test(write_bounded_by_run),
        cmocka_unit_test(regressed_walk),
        cmocka_unit_test(migrate_from_3),
        cmocka_unit_test(path_rules),
        cmocka_unit_test(parallel_first_open),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
