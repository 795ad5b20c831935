/* The history tests' database (support/history_db.h). */
#include "history_db.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "history/history_int.h"
#include "files.h"
#include "sql.h"

char hist_db[128];

void hist_fresh(const char *name)
{
    snprintf(hist_db, sizeof hist_db, "%s/%s", files_dir, name);
    unlink(hist_db);
    char side[160]; /* the WAL a run leaves (no checkpoint on close) */
    snprintf(side, sizeof side, "%s-wal", hist_db);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", hist_db);
    unlink(side);
}

int64_t hist_scalar(const char *sql)
{
    return sql_scalar(hist_db, sql);
}

/* The text of the first row's first column ("" for NULL), in a static buffer. */
const char *hist_text(const char *sql)
{
    static char out[128];
    sqlite3 *h;
    assert_int_equal(sqlite3_open(hist_db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    const unsigned char *v = sqlite3_column_text(st, 0);
    snprintf(out, sizeof out, "%s", v ? (const char *)v : "");
    sqlite3_finalize(st);
    sqlite3_close(h);
    return out;
}

void hist_exec(const char *sql)
{
    sqlite3 *h;
    assert_int_equal(sqlite3_open(hist_db, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
}

void hist_file(const char *name, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", files_dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

int64_t hist_clock_ms = 1700000000000;

/* One run: tests[i] named names[i] (file "NAME.test.yaml") with outcome
 * outcomes[i] ('p', 'f', 'e', 's') lasting durations[i] ms. */
int64_t hist_add_run(size_t n, const char *const *names, const char *outcomes,
                     const int64_t *durations, int64_t max_text)
{
    struct an_run_result r = {0};
    r.start_ms = hist_clock_ms;
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
        t->start_ms = hist_clock_ms;
        t->end_ms = hist_clock_ms + (durations ? durations[i] : 10);
        if (outcomes[i] == 'f')
            an_findings_add(&t->findings, "text.must_match", 0, file, 3, 5, "Text must match /ok/",
                            "a match", "'); DROP TABLE runs; --", NULL);
    }
    hist_clock_ms += 60000;
    r.end_ms = hist_clock_ms - 1000;
    struct an_history_run_info info = {.kind = "run",
                                       .command = "ananke run",
                                       .project_dir = files_dir,
                                       .max_text_bytes = max_text};
    struct an_history_rec *rec = an_history_rec_new();
    int64_t id = 0;
    struct an_err err = AN_ERR_INIT;
    int rc = an_history_rec_write(rec, hist_db, false, &info, &r, &id, &err);
    if (rc)
        fail_msg("%s", err.msg);
    an_history_rec_free(rec);
    an_run_result_release(&r);
    return id;
}
