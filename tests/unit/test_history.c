/*
 * The run history (src/lib/history/): the schema and its migrations (from
 * an empty file, from versions 1 and 3, refusing a newer one), what a run
 * writes (bound parameters, the text cap), and the queries: flaky ranking
 * (a table of outcome sequences, with and without edits of the test file),
 * slowest, one test, regressions, prune. What the write costs is
 * test_history_write.c's; the database helpers support/history_db.c's.
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
#include "core/sha256.h"
#include "core/yaml.h"
#include "history/history_int.h"
#include "support/files.h"
#include "support/history_db.h"
#include "support/sql.h"

/* A new history file `name`, opened for writing at the current schema. */
static struct an_history *open_fresh(const char *name)
{
    hist_fresh(name);
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_hist_open(&h, hist_db, true, false, AN_HISTORY_SCHEMA_VERSION, &err), 0);
    return h;
}

static void migrate_from_0(void **state)
{
    (void)state;
    struct an_history *h = open_fresh("v0.sqlite");
    struct an_err err = AN_ERR_INIT;
    an_history_free(h);
    assert_int_equal(hist_scalar("PRAGMA user_version"), AN_HISTORY_SCHEMA_VERSION);
    assert_int_equal(hist_scalar("SELECT count(*) FROM sqlite_master WHERE name IN ('runs', "
                                 "'test_results', 'findings', 'test_results_run_test')"),
                     4);
    /* opening again changes nothing */
    assert_int_equal(an_history_open(&h, hist_db, &err), 0);
    an_history_free(h);
    assert_int_equal(hist_scalar("PRAGMA user_version"), AN_HISTORY_SCHEMA_VERSION);
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
    hist_fresh("v1.sqlite");
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_hist_open(&h, hist_db, true, false, 1, &err), 0);
    an_history_free(h);
    assert_int_equal(hist_scalar("PRAGMA user_version"), 1);
    assert_int_equal(hist_scalar("SELECT count(*) FROM sqlite_master WHERE name = 'findings'"), 0);
    hist_exec("INSERT INTO runs (started_at, finished_at, kind, passed, failed, errors, skipped,"
              " duration_ms) VALUES (1000, 2000, 'run', 1, 0, 0, 0, 1000);"
              "INSERT INTO test_results (run_id, test_id, name, outcome, duration_ms)"
              " VALUES (1, 'abc', 'old test', 'pass', 12)");
    assert_int_equal(an_history_open(&h, hist_db, &err), 0);
    an_history_free(h);
    assert_int_equal(hist_scalar("PRAGMA user_version"), AN_HISTORY_SCHEMA_VERSION);
    assert_int_equal(hist_scalar("SELECT count(*) FROM test_results WHERE name = 'old test'"), 1);
    assert_int_equal(hist_scalar("SELECT recording IS NULL FROM runs WHERE id = 1"), 1);
    /* version 3: a merge's mark on the runs it joined */
    assert_int_equal(hist_scalar("SELECT merged_into IS NULL FROM runs WHERE id = 1"), 1);
    assert_int_equal(hist_scalar("SELECT count(*) FROM findings"), 0);
}

static void refuses_newer(void **state)
{
    (void)state;
    hist_fresh("v99.sqlite");
    hist_exec("PRAGMA user_version = 99");
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_not_equal(an_history_open(&h, hist_db, &err), 0);
    assert_null(h);
    char want[96];
    snprintf(want, sizeof want, "schema version 99 is newer than this ananke knows (%d)",
             AN_HISTORY_SCHEMA_VERSION);
    assert_non_null(strstr(err.msg, want));
}

static void refuses_garbage(void **state)
{
    (void)state;
    hist_fresh("garbage.sqlite");
    FILE *f = fopen(hist_db, "w");
    assert_non_null(f);
    for (int i = 0; i < 50; i++)
        fputs("not a database at all\n", f);
    fclose(f);
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_not_equal(an_history_open(&h, hist_db, &err), 0);
    assert_non_null(strstr(err.msg, "file is not a database"));
}

/* ---- writing runs ---- */

/* A test file under files_dir whose content is `text` (its digest). */
static json_t *query(enum an_history_what what, const char *arg, unsigned window)
{
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_history_open(&h, hist_db, &err), 0);
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
    hist_fresh("cap.sqlite");
    /* "é" is 2 bytes: a cap of 5 falls inside the 3rd one, which goes */
    const char *names[] = {"'); DROP TABLE runs; --", "ééééé"};
    hist_file("ééééé.test.yaml", "x");
    hist_add_run(2, names, "fp", NULL, 5);
    assert_int_equal(hist_scalar("SELECT count(*) FROM runs"), 1);
    /* stored as written (cut to 5 bytes), the table still there */
    assert_int_equal(hist_scalar("SELECT count(*) FROM test_results WHERE name = '''); D'"), 1);
    assert_int_equal(hist_scalar("SELECT length(CAST(name AS BLOB)) FROM test_results WHERE name "
                                 "LIKE 'é%'"),
                     4);
    /* the finding's text, cut too */
    assert_int_equal(hist_scalar("SELECT max(length(CAST(actual AS BLOB))) FROM findings"), 5);
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
    hist_fresh("flaky.sqlite");
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
            hist_file(file, text);
            outcomes[i] = flaky_cases[i].outcomes[run];
        }
        hist_add_run(NFLAKY, names, outcomes, NULL, 0);
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
    hist_fresh("q.sqlite");
    const char *names[] = {"a", "b", "c"};
    const int64_t d1[] = {10, 300, 50}, d2[] = {20, 100, 70};
    int64_t r1 = hist_add_run(3, names, "ppp", d1, 0);
    hist_add_run(3, names, "pff", d2, 0);
    hist_add_run(3, names, "pfp", d2, 0);
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
    assert_int_equal(an_history_open(&h, hist_db, &err), 0);
    /* runs 1, 2, 3 started at clock - 180 s, -120 s, -60 s */
    assert_int_equal(an_history_prune(h, -1, hist_clock_ms - 150000, &removed, &err), 0);
    assert_int_equal(removed, 1);
    assert_int_equal(an_history_prune(h, 1, 0, &removed, &err), 0);
    assert_int_equal(removed, 1);
    an_history_free(h);
    assert_int_equal(hist_scalar("SELECT count(*) FROM runs"), 1);
    assert_int_equal(hist_scalar("SELECT count(*) FROM test_results"), 3);
    assert_int_equal(hist_scalar("SELECT count(*) FROM findings"), 1);
}

/* Counters are noted as tests finish and matched to the results by test,
 * not by position: a test never noted (not finished: fail-fast, an
 * interruption) takes no other test's counters. */
static void notes_matched_by_test(void **state)
{
    (void)state;
    hist_fresh("notes.sqlite");
    struct an_run_result r = {0};
    r.start_ms = hist_clock_ms;
    r.end_ms = hist_clock_ms + 10;
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
    assert_int_equal(an_history_rec_write(rec, hist_db, false, &info, &r, &id, &err), 0);
    an_history_rec_free(rec);
    an_run_result_release(&r);
    assert_int_equal(hist_scalar("SELECT tool_calls FROM test_results WHERE name = 'a'"), 1);
    assert_int_equal(hist_scalar("SELECT tool_calls IS NULL FROM test_results WHERE name = 'b'"),
                     1);
    assert_int_equal(hist_scalar("SELECT tool_calls FROM test_results WHERE name = 'c'"), 3);
}

/* --regressed-since over runs a merge joined and skips: the newest result
 * that is not a skip, outside the merged runs, against the base run. */
static void regressed_walk(void **state)
{
    (void)state;
    hist_fresh("regressed.sqlite");
    const char *names[] = {"a", "b", "c", "d"};
    int64_t base = hist_add_run(4, names, "pppp", NULL, 0);
    hist_add_run(4, names, "pfep", NULL, 0);                 /* b fails first here; c errors */
    int64_t shard = hist_add_run(4, names, "ffff", NULL, 0); /* merged below: left out */
    int64_t merge = hist_add_run(4, names, "pffs", NULL, 0); /* d skipped */
    hist_add_run(4, names, "psss", NULL, 0); /* b, c, d skipped: their latest is before */
    char sql[160];
    snprintf(sql, sizeof sql, "UPDATE runs SET merged_into = %lld WHERE id = %lld",
             (long long)merge, (long long)shard);
    hist_exec(sql);
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
    hist_fresh("v3.sqlite");
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_hist_open(&h, hist_db, true, false, 3, &err), 0);
    an_history_free(h);
    assert_int_equal(hist_scalar("PRAGMA user_version"), 3);
    assert_int_equal(hist_scalar("SELECT count(*) FROM sqlite_master WHERE name IN"
                                 " ('test_results_test', 'test_results_run')"),
                     2);
    hist_exec("INSERT INTO runs (started_at, finished_at, kind, passed, failed, errors, skipped,"
              " duration_ms) VALUES (1000, 2000, 'run', 1, 0, 0, 0, 1000),"
              " (3000, 4000, 'run', 0, 1, 0, 0, 1000);"
              "INSERT INTO test_results (run_id, test_id, name, outcome, duration_ms) VALUES"
              " (1, 'abc', 'old test', 'pass', 12), (2, 'abc', 'old test', 'fail', 14);"
              "INSERT INTO findings (result_id, kind, assertion, turn) VALUES"
              " (2, 'text.must_match', 'old finding', 0)");
    assert_int_equal(an_history_open(&h, hist_db, &err), 0);
    an_history_free(h);
    assert_int_equal(hist_scalar("PRAGMA user_version"), 4);
    assert_int_equal(hist_scalar("SELECT count(*) FROM sqlite_master WHERE name IN"
                                 " ('test_results_test', 'test_results_run')"),
                     0);
    assert_int_equal(hist_scalar("SELECT count(*) FROM sqlite_master WHERE name ="
                                 " 'test_results_run_test'"),
                     1);
    assert_int_equal(hist_scalar("SELECT count(*) FROM test_results"), 2);
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
    hist_add_run(1, names, "p", NULL, 0);
    assert_int_equal(hist_scalar("SELECT count(*) FROM test_results"), 3);
    assert_int_equal(an_history_open(&h, hist_db, &err), 0);
    size_t removed = 0;
    assert_int_equal(an_history_prune(h, 1, 0, &removed, &err), 0);
    an_history_free(h);
    assert_int_equal(removed, 2);
    assert_int_equal(hist_scalar("SELECT count(*) FROM test_results"), 1);
    assert_int_equal(hist_scalar("SELECT count(*) FROM findings"), 0);
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
        hist_fresh("par.sqlite");
        pid_t kids[6];
        for (int i = 0; i < 6; i++) {
            kids[i] = fork();
            assert_true(kids[i] >= 0);
            if (kids[i] == 0) {
                struct an_history *h = NULL;
                struct an_err err = AN_ERR_INIT;
                int rc = an_hist_open(&h, hist_db, true, false, AN_HISTORY_SCHEMA_VERSION, &err);
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
        cmocka_unit_test(regressed_walk),
        cmocka_unit_test(migrate_from_3),
        cmocka_unit_test(path_rules),
        cmocka_unit_test(parallel_first_open),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
