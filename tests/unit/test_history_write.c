/*
 * What a run's write to the history costs and keeps (src/lib/history/
 * history_write.c): the rows of many-row INSERTs equal those of one-row
 * ones, the file digests (read once per file, or as the loader took them),
 * no checkpoint when a run closes the database but a log past its bound
 * folded, SQLite's statement journal never in a temporary file, and pages
 * a run writes that do not grow with the history. The schema and the
 * queries are test_history.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/sha256.h"
#include "core/yaml.h"
#include "history/history_int.h"
#include "support/files.h"
#include "support/history_db.h"

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
    assert_int_equal(sqlite3_open(hist_db, &h), SQLITE_OK);
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
        hist_fresh(pass ? "rows32.sqlite" : "rows1.sqlite");
        struct an_run_result r = {0};
        r.start_ms = hist_clock_ms;
        r.end_ms = hist_clock_ms + 500;
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
            t->start_ms = hist_clock_ms;
            t->end_ms = hist_clock_ms + (int64_t)i;
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
        int rc = an_history_rec_write(rec, hist_db, false, &info, &r, &id, &err);
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
    hist_fresh("digests.sqlite");
    enum { NFILES = 70, NTESTS = 3 * NFILES }; /* more files than the map's first size */
    char texts[NFILES][48];
    for (size_t f = 0; f < NFILES; f++) {
        char name[32];
        snprintf(name, sizeof name, "d%zu.test.yaml", f);
        snprintf(texts[f], sizeof texts[f], "name: digest %zu\n", f);
        if (f != 5) /* d5 is missing */
            hist_file(name, texts[f]);
    }
    struct an_run_result r = {0};
    r.start_ms = hist_clock_ms;
    r.end_ms = hist_clock_ms + 10;
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
    assert_int_equal(an_history_rec_write(rec, hist_db, false, &info, &r, &id, &err), 0);
    an_history_rec_free(rec);
    an_run_result_release(&r);
    sqlite3 *h;
    assert_int_equal(sqlite3_open(hist_db, &h), SQLITE_OK);
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
    hist_fresh("loaded.sqlite");
    static const char a[] = "name: loaded\n", b[] = "name: loaded, then edited\n";
    char path[256], want_a[AN_SHA256_HEX_LEN + 1], want_b[AN_SHA256_HEX_LEN + 1];
    hist_file("l.test.yaml", a);
    hist_file("cfg.yaml", a);
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
    r.start_ms = hist_clock_ms;
    r.end_ms = hist_clock_ms + 10;
    for (size_t i = 0; i < 2; i++) { /* 0: loaded (fast path), 1: read now (general) */
        struct an_test_result *t = an_run_result_add(&r);
        t->name = an_xstrdup(i ? "read" : "loaded");
        t->file = an_xstrdup("l.test.yaml");
        t->file_sum = i ? NULL : sum;
    }
    struct an_history_run_info info = {.kind = "run", .project_dir = files_dir};
    int64_t id = 0;
    struct an_history_rec *rec = an_history_rec_new();
    assert_int_equal(an_history_rec_write(rec, hist_db, false, &info, &r, &id, &err), 0);
    an_history_rec_free(rec);
    assert_string_equal(hist_text("SELECT file_digest FROM test_results WHERE name = 'loaded'"),
                        want_a);
    assert_string_equal(hist_text("SELECT file_digest FROM test_results WHERE name = 'read'"),
                        want_a);
    /* edited after loading: the loaded test and config keep what ran */
    hist_file("l.test.yaml", b);
    hist_file("cfg.yaml", b);
    snprintf(path, sizeof path, "%s/cfg.yaml", files_dir);
    info.config_path = path;
    info.config_sum = sum;
    rec = an_history_rec_new();
    assert_int_equal(an_history_rec_write(rec, hist_db, false, &info, &r, &id, &err), 0);
    an_history_rec_free(rec);
    char q[160];
    snprintf(q, sizeof q,
             "SELECT file_digest FROM test_results WHERE run_id = %lld AND name = '%s'",
             (long long)id, "loaded");
    assert_string_equal(hist_text(q), want_a);
    snprintf(q, sizeof q,
             "SELECT file_digest FROM test_results WHERE run_id = %lld AND name = '%s'",
             (long long)id, "read");
    assert_string_equal(hist_text(q), want_b);
    snprintf(q, sizeof q, "SELECT config_digest FROM runs WHERE id = %lld", (long long)id);
    assert_string_equal(hist_text(q), want_a);
    /* without the loader's sum the config is read: its bytes now */
    info.config_sum = NULL;
    rec = an_history_rec_new();
    assert_int_equal(an_history_rec_write(rec, hist_db, false, &info, &r, &id, &err), 0);
    an_history_rec_free(rec);
    snprintf(q, sizeof q, "SELECT config_digest FROM runs WHERE id = %lld", (long long)id);
    assert_string_equal(hist_text(q), want_b);
    an_run_result_release(&r);
}

/* A run's write ends without a checkpoint (its fdatasyncs were most of the
 * time of a one-test run): the WAL stays beside the database, and a new
 * reader still sees the run. */
static void no_checkpoint_on_close(void **state)
{
    (void)state;
    hist_fresh("wal.sqlite");
    const char *names[] = {"w"};
    hist_add_run(1, names, "p", NULL, 0);
    char wal[160];
    snprintf(wal, sizeof wal, "%s-wal", hist_db);
    assert_int_equal(access(wal, F_OK), 0);
    assert_int_equal(hist_scalar("SELECT count(*) FROM test_results WHERE name = 'w'"), 1);
}

static int64_t size_of(const char *suffix)
{
    char path[160];
    snprintf(path, sizeof path, "%s%s", hist_db, suffix);
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
    hist_fresh("bound.sqlite");
    enum { N = MANY };
    const char **names;
    const char *outcomes = many_tests("t", 2, &names);
    const char *one[] = {"w"};
    hist_add_run(1, one, "p", NULL, 0);
    int64_t small = size_of("-wal");
    assert_true(small > 0 && small < AN_HIST_WAL_MAX_BYTES);
    hist_add_run(N, names, outcomes, NULL, 0);
    assert_int_equal(size_of("-wal"), 0);
    assert_int_equal(hist_scalar("SELECT count(*) FROM test_results"), N + 1);
    assert_int_equal(hist_scalar("SELECT count(*) FROM findings"), N / 2);
    hist_add_run(1, one, "p", NULL, 0);
    assert_true(size_of("-wal") > 0);
}

/* SQLite's default file system wrapped, to count the temporary files it
 * opens (a statement journal, a temporary database or its journal). */
static sqlite3_vfs *real_vfs;
static int temp_opens;
static int counting_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags,
                         int *out_flags)
{
    (void)vfs;
    if (flags & (SQLITE_OPEN_SUBJOURNAL | SQLITE_OPEN_TEMP_JOURNAL | SQLITE_OPEN_TEMP_DB))
        temp_opens++;
    return real_vfs->xOpen(real_vfs, name, f, flags, out_flags);
}

/* A run's write keeps SQLite's statement journal in memory: with it in a
 * temporary file (past 64 KiB, which every INSERT of HIST_INSERT_ROWS rows
 * passed in a run of thousands of tests) each statement wrote its pages
 * there, a third of the write of 10,000 tests. The write goes through a
 * file system that counts the temporary files SQLite opens: none. */
static void statement_journal_in_memory(void **state)
{
    (void)state;
    hist_fresh("stmtjrnl.sqlite");
    enum { N = MANY };
    const char **names;
    const char *outcomes = many_tests("s", 3, &names);
    const char *one[] = {"first"};
    hist_add_run(1, one, "p", NULL, 0);
    real_vfs = sqlite3_vfs_find(NULL);
    assert_non_null(real_vfs);
    static sqlite3_vfs counting;
    counting = *real_vfs;
    counting.zName = "ananke-counting";
    counting.xOpen = counting_open;
    assert_int_equal(sqlite3_vfs_register(&counting, 1), SQLITE_OK); /* the default now */
    temp_opens = 0;
    hist_add_run(N, names, outcomes, NULL, 0);
    int opened = temp_opens;
    assert_int_equal(sqlite3_vfs_register(real_vfs, 1), SQLITE_OK);
    sqlite3_vfs_unregister(&counting);
    assert_int_equal(hist_scalar("SELECT count(*) FROM test_results"), N + 1);
    assert_int_equal(hist_scalar("SELECT count(*) FROM findings"), (N + 2) / 3);
    if (opened)
        fail_msg("the write opened %d temporary files", opened);
}

/* The WAL frames (pages) the last write left, the log truncated before it. */
static int64_t frames_of_one_run(size_t n, const char *const *names, const char *outcomes)
{
    hist_exec("PRAGMA wal_checkpoint(TRUNCATE)"); /* the last connection closed: no log */
    assert_true(size_of("-wal") <= 0);
    hist_add_run(n, names, outcomes, NULL, 0);
    int64_t page = hist_scalar("PRAGMA page_size"), wal = size_of("-wal");
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
    hist_fresh("grown.sqlite");
    enum { N = 300, RUNS = 30 };
    static char names_buf[N][24];
    static const char *names[N];
    static char outcomes[N + 1];
    for (size_t i = 0; i < N; i++) {
        snprintf(names_buf[i], sizeof names_buf[i], "grown %03zu", i);
        names[i] = names_buf[i];
        outcomes[i] = 'p';
    }
    hist_add_run(N, names, outcomes, NULL, 0);
    int64_t young = frames_of_one_run(N, names, outcomes);
    for (int r = 2; r < RUNS; r++)
        hist_add_run(N, names, outcomes, NULL, 0);
    int64_t grown = frames_of_one_run(N, names, outcomes);
    assert_int_equal(hist_scalar("SELECT count(*) FROM test_results"), (RUNS + 1) * N);
    print_message("pages a run writes: %lld after 1 run, %lld after %d\n", (long long)young,
                  (long long)grown, RUNS);
    if (grown > young + young / 4 + 2)
        fail_msg("a run wrote %lld pages into a history of %d runs, %lld into one of 1",
                 (long long)grown, RUNS, (long long)young);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_per_insert_same),  cmocka_unit_test(digests_per_file),
        cmocka_unit_test(digests_as_loaded),     cmocka_unit_test(no_checkpoint_on_close),
        cmocka_unit_test(long_log_checkpointed), cmocka_unit_test(statement_journal_in_memory),
        cmocka_unit_test(write_bounded_by_run),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
