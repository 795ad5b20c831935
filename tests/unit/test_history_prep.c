/*
 * The history opened ahead (src/lib/history/history_prep.c,
 * an_history_rec_prepare): the database that is there already is opened
 * and migrated while the run goes on, and the write uses that handle; a
 * database not there yet, a link in the project's .ananke/ place, or a
 * write to another path are left to the write, which behaves as without
 * it.
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

#include "history/history_int.h"
#include "support/files.h"
#include "support/sql.h"

/* files_dir/name, made into a history at schema version `version`. */
static void old_history(char *path, size_t n, const char *name, int version)
{
    snprintf(path, n, "%s/%s", files_dir, name);
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_hist_open(&h, path, true, false, version, &err), 0);
    an_history_free(h);
    assert_int_equal(sql_scalar(path, "PRAGMA user_version"), version);
}

/* A run of one passing test, appended to path by rec. */
static int write_run(struct an_history_rec *rec, const char *path, bool in_dir, struct an_err *err)
{
    struct an_run_result r = {0};
    r.start_ms = 1000;
    r.end_ms = 2000;
    struct an_test_result *t = an_run_result_add(&r);
    t->name = an_xstrdup("greets");
    t->file = an_xstrdup("greets.test.yaml");
    t->status = AN_STATUS_PASS;
    t->start_ms = 1000;
    t->end_ms = 1010;
    struct an_history_run_info info = {
        .kind = "run", .command = "ananke run", .project_dir = files_dir};
    int64_t id = 0;
    int rc = an_history_rec_write(rec, path, in_dir, &info, &r, &id, err);
    an_run_result_release(&r);
    return rc;
}

/* The prepared open happens before the write, on its own: a version-1
 * database is migrated by it even when no run is written. */
static void opened_ahead(void **state)
{
    (void)state;
    char path[128];
    old_history(path, sizeof path, "ahead.sqlite", 1);
    struct an_history_rec *rec = an_history_rec_new();
    an_history_rec_prepare(rec, path, false);
    an_history_rec_free(rec); /* waits for the thread; nothing written */
    assert_int_equal(sql_scalar(path, "PRAGMA user_version"), AN_HISTORY_SCHEMA_VERSION);
    assert_int_equal(sql_scalar(path, "SELECT count(*) FROM runs"), 0);
}

/* Prepared, then written: the run is there once, with its test. */
static void prepared_then_written(void **state)
{
    (void)state;
    char path[128];
    old_history(path, sizeof path, "written.sqlite", AN_HISTORY_SCHEMA_VERSION);
    struct an_history_rec *rec = an_history_rec_new();
    an_history_rec_prepare(rec, path, false);
    an_history_rec_prepare(rec, path, false); /* a second call: still one thread */
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(write_run(rec, path, false, &err), 0);
    an_history_rec_free(rec);
    assert_int_equal(sql_scalar(path, "SELECT count(*) FROM runs"), 1);
    assert_int_equal(sql_scalar(path, "SELECT count(*) FROM test_results WHERE name = 'greets'"),
                     1);
}

/* No database yet: the prepared open makes nothing (not even .ananke/);
 * the write creates both as before. */
static void creates_nothing(void **state)
{
    (void)state;
    char dir[128], path[160];
    snprintf(dir, sizeof dir, "%s/fresh-project/.ananke", files_dir);
    snprintf(path, sizeof path, "%s/history.sqlite", dir);
    char parent[128];
    snprintf(parent, sizeof parent, "%s/fresh-project", files_dir);
    assert_int_equal(mkdir(parent, 0700), 0);
    struct stat sb;

    struct an_history_rec *rec = an_history_rec_new();
    an_history_rec_prepare(rec, path, true);
    an_history_rec_free(rec);
    assert_int_not_equal(stat(dir, &sb), 0);

    rec = an_history_rec_new();
    an_history_rec_prepare(rec, path, true);
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(write_run(rec, path, true, &err), 0);
    an_history_rec_free(rec);
    assert_int_equal(stat(dir, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0700);
    assert_int_equal(sql_scalar(path, "SELECT count(*) FROM runs"), 1);
}

/* Prepared for one path, written to another: the other gets the run, the
 * prepared one is closed untouched by it. */
static void another_path(void **state)
{
    (void)state;
    char a[128], b[128];
    old_history(a, sizeof a, "prepared.sqlite", AN_HISTORY_SCHEMA_VERSION);
    old_history(b, sizeof b, "written-instead.sqlite", AN_HISTORY_SCHEMA_VERSION);
    struct an_history_rec *rec = an_history_rec_new();
    an_history_rec_prepare(rec, a, false);
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(write_run(rec, b, false, &err), 0);
    an_history_rec_free(rec);
    assert_int_equal(sql_scalar(a, "SELECT count(*) FROM runs"), 0);
    assert_int_equal(sql_scalar(b, "SELECT count(*) FROM runs"), 1);
}

/* The project's .ananke/ is a link to a directory with an old history:
 * the prepared open does not go through it (the database stays at its
 * version), and the write refuses it as before. */
static void link_not_followed(void **state)
{
    (void)state;
    char elsewhere[128], target[160], proj[128], link[160], path[192];
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", files_dir);
    assert_int_equal(mkdir(elsewhere, 0700), 0);
    old_history(target, sizeof target, "elsewhere/history.sqlite", 1);
    snprintf(proj, sizeof proj, "%s/linked-project", files_dir);
    assert_int_equal(mkdir(proj, 0700), 0);
    snprintf(link, sizeof link, "%s/.ananke", proj);
    assert_int_equal(symlink(elsewhere, link), 0);
    snprintf(path, sizeof path, "%s/history.sqlite", link);

    struct an_history_rec *rec = an_history_rec_new();
    an_history_rec_prepare(rec, path, true);
    struct an_err err = AN_ERR_INIT;
    assert_int_not_equal(write_run(rec, path, true, &err), 0);
    assert_non_null(strstr(err.msg, "link"));
    an_history_rec_free(rec);
    assert_int_equal(sql_scalar(target, "PRAGMA user_version"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(opened_ahead),      cmocka_unit_test(prepared_then_written),
        cmocka_unit_test(creates_nothing),   cmocka_unit_test(another_path),
        cmocka_unit_test(link_not_followed),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
