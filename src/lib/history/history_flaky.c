/* Flaky tests: a test is flaky when its outcome changed between two of its
 * runs while its file stayed the same (the same sha256): a change that is
 * not explained by an edit of the test. Over each test's last `window`
 * runs (skips left out), flips / (runs - 1) is its flip rate; the tests
 * with a flip come ranked by it, then by flips, then by name. The runs a
 * merge joined are left out: the merged run holds their tests. */
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "history/history_int.h"

struct flaky {
    char *test_id, *name, *file, *last;
    unsigned runs, flips;
    char *prev_outcome, *prev_digest; /* the newer run of the pair */
};

static char *dup_col(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? an_xstrdup((const char *)s) : NULL;
}

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static double rate(const struct flaky *f)
{
    return f->runs > 1 ? (double)f->flips / (f->runs - 1) : 0;
}

static int by_rate(const void *pa, const void *pb)
{
    const struct flaky *a = pa, *b = pb;
    double ra = rate(a), rb = rate(b);
    if (ra != rb)
        return ra > rb ? -1 : 1;
    if (a->flips != b->flips)
        return a->flips > b->flips ? -1 : 1;
    return strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

static void flaky_release(struct flaky *f)
{
    free(f->test_id);
    free(f->name);
    free(f->file);
    free(f->last);
    free(f->prev_outcome);
    free(f->prev_digest);
}

/* One row (newest first within a test) into the table v. */
static void add_row(struct flaky **v, size_t *n, size_t *cap, sqlite3_stmt *st, unsigned window)
{
    const char *id = (const char *)sqlite3_column_text(st, 0);
    const char *outcome = (const char *)sqlite3_column_text(st, 3);
    const char *digest = (const char *)sqlite3_column_text(st, 4);
    struct flaky *f = *n ? &(*v)[*n - 1] : NULL;
    if (!f || !same(f->test_id, id)) {
        if (*n == *cap) {
            *cap = *cap ? *cap * 2 : 32;
            *v = an_xrealloc(*v, *cap * sizeof **v);
        }
        f = &(*v)[(*n)++];
        *f = (struct flaky){.test_id = dup_col(st, 0),
                            .name = dup_col(st, 1),
                            .file = dup_col(st, 2),
                            .last = dup_col(st, 3)};
    } else if (f->runs >= window) {
        return;
    } else if (!same(f->prev_outcome, outcome) && same(f->prev_digest, digest)) {
        f->flips++;
    }
    f->runs++;
    free(f->prev_outcome);
    free(f->prev_digest);
    f->prev_outcome = outcome ? an_xstrdup(outcome) : NULL;
    f->prev_digest = digest ? an_xstrdup(digest) : NULL;
}

json_t *an_history_flaky(struct an_history *h, unsigned limit, unsigned window, struct an_err *err)
{
    static const char sql[] = "SELECT t.test_id, t.name, t.file, t.outcome, t.file_digest"
                              " FROM test_results t JOIN runs r ON r.id = t.run_id"
                              " WHERE t.outcome != 'skip' AND r.merged_into IS NULL"
                              " ORDER BY t.test_id, t.run_id DESC, t.id DESC";
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
        an_hist_fail(h, "cannot read it", err);
        return NULL;
    }
    struct flaky *v = NULL;
    size_t n = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        add_row(&v, &n, &cap, st, window);
    sqlite3_finalize(st);
    json_t *out = NULL;
    if (rc != SQLITE_DONE) {
        an_hist_fail(h, "cannot read it", err);
    } else {
        if (n)
            qsort(v, n, sizeof *v, by_rate);
        out = json_array();
        for (size_t i = 0, shown = 0; i < n && shown < limit; i++) {
            if (!v[i].flips)
                continue;
            json_t *o = json_object();
            json_object_set_new(o, "name", an_json_lossy(v[i].name, strlen(v[i].name)));
            json_object_set_new(
                o, "file", v[i].file ? an_json_lossy(v[i].file, strlen(v[i].file)) : json_null());
            json_object_set_new(o, "test_id", json_string(v[i].test_id));
            json_object_set_new(o, "runs", json_integer(v[i].runs));
            json_object_set_new(o, "flips", json_integer(v[i].flips));
            json_object_set_new(o, "flip_rate", json_real(rate(&v[i])));
            json_object_set_new(o, "last_outcome", json_string(v[i].last));
            json_array_append_new(out, o);
            shown++;
        }
    }
    for (size_t i = 0; i < n; i++)
        flaky_release(&v[i]);
    free(v);
    return out;
}
