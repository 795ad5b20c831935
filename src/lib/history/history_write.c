/* Appending a run to the history: the run, each test's outcome and
 * counters, its findings; one transaction, bound parameters only. */
#include <stdlib.h>
#include <string.h>

#include "ananke/nofollow.h"
#include "core/result_metrics.h"
#include "core/sha256.h"
#include "history/history_int.h"

#define HIST_FILE_MAX (64u << 20) /* a test file or config hashed for its digest */
#define HIST_FINDINGS_MAX 100     /* findings kept per test */

struct hist_counters {
    char id[17]; /* the test's id: results and notes are matched by it */
    bool used;
    bool have;
    int64_t tool_calls, turns, ttft_ms, input, output;
    bool has_input, has_output, has_cost;
    double cost;
};

struct an_history_rec {
    struct hist_counters *v;
    size_t n, cap;
    struct hist_prep *prep; /* the database being opened ahead, or NULL */
};

struct an_history_rec *an_history_rec_new(void)
{
    return an_xcalloc(1, sizeof(struct an_history_rec));
}

void an_history_rec_prepare(struct an_history_rec *r, const char *path, bool is_default)
{
    if (r && !r->prep)
        r->prep = an_hist_prep_start(path, is_default);
}

void an_history_rec_free(struct an_history_rec *r)
{
    if (!r)
        return;
    an_history_free(an_hist_prep_take(r->prep, NULL, false)); /* never written */
    free(r->v);
    free(r);
}

/* A test's stable id: the first 16 hex digits of sha256(file NUL name). */
static void test_id(const struct an_test_result *t, char out[17])
{
    size_t fl = t->file ? strlen(t->file) : 0, nl = t->name ? strlen(t->name) : 0;
    char *key = an_xmalloc(fl + nl + 2);
    memcpy(key, t->file ? t->file : "", fl);
    key[fl] = '\0';
    memcpy(key + fl + 1, t->name ? t->name : "", nl + 1);
    char hex[AN_SHA256_HEX_LEN + 1];
    an_sha256_hex(key, fl + nl + 1, hex);
    free(key);
    memcpy(out, hex, 16);
    out[16] = '\0';
}

static void counters_of(const struct an_test_result *t, struct hist_counters *c)
{
    struct an_metrics m;
    an_metrics_of(t, &m);
    *c = (struct hist_counters){
        .have = true,
        .tool_calls = (int64_t)m.tool_calls,
        .turns = (int64_t)m.turns,
        .ttft_ms = m.ttft_ms,
        .input = m.usage.input,
        .output = m.usage.output,
        .has_input = m.usage.reports && m.usage.has_input,
        .has_output = m.usage.reports && m.usage.has_output,
        .has_cost = m.usage.reports && m.usage.has_cost,
        .cost = m.usage.cost,
    };
    test_id(t, c->id);
}

void an_history_rec_note(struct an_history_rec *r, const struct an_test_result *t)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->v = an_xrealloc(r->v, r->cap * sizeof *r->v);
    }
    counters_of(t, &r->v[r->n++]);
}

/* The counters noted for t: a test the run did not finish (fail-fast, an
 * interruption) was never noted, so the k-th note is not always the k-th
 * result; the search starts at *next, where it usually is. */
static const struct hist_counters *noted(struct an_history_rec *r, const char *id, size_t *next)
{
    for (size_t i = 0; r && i < r->n; i++) {
        struct hist_counters *c = &r->v[(*next + i) % r->n];
        if (!c->used && !strcmp(c->id, id)) {
            c->used = true;
            *next = (*next + i + 1) % r->n;
            return c;
        }
    }
    return NULL;
}

/* Bind s cut to cap bytes (never inside a UTF-8 sequence); NULL binds NULL.
 * Not copied (SQLITE_STATIC): s lives until the row is stepped, and every
 * statement here binds all its parameters again before each row (so no
 * sqlite3_clear_bindings either): 2.4 M + 1.4 M instructions of 1000 rows
 * (docs/performance.md). */
static void bind_text(sqlite3_stmt *st, int i, const char *s, size_t cap)
{
    if (!s) {
        sqlite3_bind_null(st, i);
        return;
    }
    size_t n = strlen(s);
    if (n > cap) {
        n = cap;
        while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    sqlite3_bind_text(st, i, s, (int)n, SQLITE_STATIC);
}

/* The sha256 of root/rel (hex, malloc'd), or NULL when it cannot be read. */
static char *digest_of(const char *root, const char *rel)
{
    char *data = NULL;
    size_t len = 0;
    if (!rel || an_nf_read_str(root, rel, HIST_FILE_MAX, &data, &len, NULL))
        return NULL;
    char hex[AN_SHA256_HEX_LEN + 1];
    an_sha256_hex(data, len, hex);
    free(data);
    return an_xstrdup(hex);
}

/* Digests of the test files: each result's file_sum, the digest the
 * loader took of the bytes it ran (a file edited since is recorded as it
 * ran, and not read again: docs/performance.md). A result without one
 * (replay, merge) has its file read, once per run: the results sorted by
 * file name, each name's digest taken once for its run of equal names (a
 * list searched per test was quadratic in the tests; a map of names kept
 * each name and hex digest again, 1.5 MB at 10,000 tests). One per result. */
struct file_sum {
    bool ok; /* the file was read */
    unsigned char sum[AN_SHA256_LEN];
};

struct by_file {
    const char *file;
    size_t i;
};

static int by_file_cmp(const void *a, const void *b)
{
    const struct by_file *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

static bool sum_of(const char *root, const char *rel, unsigned char out[AN_SHA256_LEN])
{
    char *data = NULL;
    size_t len = 0;
    if (an_nf_read_str(root, rel, HIST_FILE_MAX, &data, &len, NULL))
        return false;
    an_sha256(data, len, out);
    free(data);
    return true;
}

static struct file_sum *file_sums(const char *root, const struct an_run_result *res)
{
    struct file_sum *s = an_xcalloc(res->ntests + 1, sizeof *s);
    struct by_file *v = an_xcalloc(res->ntests + 1, sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < res->ntests; i++) {
        if (res->tests[i].file_sum) {
            s[i].ok = true;
            memcpy(s[i].sum, res->tests[i].file_sum, AN_SHA256_LEN);
        } else if (res->tests[i].file) {
            v[n++] = (struct by_file){res->tests[i].file, i};
        }
    }
    qsort(v, n, sizeof *v, by_file_cmp);
    for (size_t k = 0; k < n; k++) {
        if (k && !strcmp(v[k].file, v[k - 1].file))
            s[v[k].i] = s[v[k - 1].i];
        else
            s[v[k].i].ok = sum_of(root, v[k].file, s[v[k].i].sum);
    }
    free(v);
    return s;
}

/* The hex of s into out; NULL when the file was not read. */
static const char *sum_hex(const struct file_sum *s, char out[AN_SHA256_HEX_LEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    if (!s->ok)
        return NULL;
    for (size_t i = 0; i < AN_SHA256_LEN; i++) {
        out[2 * i] = hex[s->sum[i] >> 4];
        out[2 * i + 1] = hex[s->sum[i] & 15];
    }
    out[AN_SHA256_HEX_LEN] = '\0';
    return out;
}

/* config_digest: the sum the loader took, else the file read now. */
static char *config_digest(const struct an_history_run_info *info)
{
    if (!info->config_sum)
        return info->config_path ? digest_of(NULL, info->config_path) : NULL;
    struct file_sum s = {.ok = true};
    char hex[AN_SHA256_HEX_LEN + 1];
    memcpy(s.sum, info->config_sum, AN_SHA256_LEN);
    return an_xstrdup(sum_hex(&s, hex));
}

static int insert_run(struct an_history *h, const struct an_history_run_info *info,
                      const struct an_run_result *res, size_t cap, int64_t *run_id,
                      struct an_err *err)
{
    static const char sql[] =
        "INSERT INTO runs (started_at, finished_at, kind, command, project_dir, config_path,"
        " config_digest, git_commit, git_branch, passed, failed, errors, skipped, duration_ms,"
        " shard, recording) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
        return an_hist_fail(h, "cannot write the run", err);
    struct an_counts c = an_run_result_counts(res);
    char *commit, *branch;
    an_hist_git(info->project_dir, &commit, &branch);
    char *cdigest = config_digest(info);
    sqlite3_bind_int64(st, 1, res->start_ms);
    sqlite3_bind_int64(st, 2, res->end_ms);
    bind_text(st, 3, info->kind ? info->kind : "run", cap);
    bind_text(st, 4, info->command, cap);
    bind_text(st, 5, info->project_dir, cap);
    bind_text(st, 6, res->config_path ? res->config_path : info->config_path, cap);
    bind_text(st, 7, cdigest, cap);
    bind_text(st, 8, commit, cap);
    bind_text(st, 9, branch, cap);
    sqlite3_bind_int64(st, 10, (int64_t)c.passed);
    sqlite3_bind_int64(st, 11, (int64_t)c.failed);
    sqlite3_bind_int64(st, 12, (int64_t)c.errors);
    sqlite3_bind_int64(st, 13, (int64_t)c.skipped);
    sqlite3_bind_int64(st, 14, res->end_ms > res->start_ms ? res->end_ms - res->start_ms : 0);
    bind_text(st, 15, res->shard, cap);
    bind_text(st, 16, info->recording, cap);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : an_hist_fail(h, "cannot write the run", err);
    *run_id = sqlite3_last_insert_rowid(h->db);
    sqlite3_finalize(st);
    free(commit);
    free(branch);
    free(cdigest);
    return rc;
}

static void bind_opt_int(sqlite3_stmt *st, int i, bool has, int64_t v)
{
    if (has)
        sqlite3_bind_int64(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static int insert_findings(struct an_history *h, sqlite3_stmt *st, int64_t result_id,
                           const struct an_test_result *t, size_t cap, struct an_err *err)
{
    for (size_t i = 0; i < t->findings.n && i < HIST_FINDINGS_MAX; i++) {
        const struct an_finding *f = &t->findings.v[i];
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, result_id);
        bind_text(st, 2, f->kind ? f->kind : "", cap);
        bind_text(st, 3, f->assertion, cap);
        bind_text(st, 4, f->expected, cap);
        bind_text(st, 5, f->actual, cap);
        sqlite3_bind_int(st, 6, f->turn);
        bind_text(st, 7, f->file, cap);
        sqlite3_bind_int64(st, 8, f->line);
        if (sqlite3_step(st) != SQLITE_DONE)
            return an_hist_fail(h, "cannot write a finding", err);
    }
    return 0;
}

/* A test's row: its 14 values bound from ?(base + 1) on. c: its counters,
 * c->id its id. Bound, not copied: t's strings, c and digest must live
 * until the statement is stepped. */
static void bind_test(sqlite3_stmt *st, int base, int64_t run_id, const struct an_test_result *t,
                      const struct hist_counters *c, const char *digest, size_t cap)
{
    sqlite3_bind_int64(st, base + 1, run_id);
    bind_text(st, base + 2, c->id, cap);
    bind_text(st, base + 3, t->name ? t->name : "", cap);
    bind_text(st, base + 4, t->file, cap);
    bind_text(st, base + 5, digest, cap);
    bind_text(st, base + 6, an_status_name(t->status), cap);
    sqlite3_bind_int64(st, base + 7, t->end_ms > t->start_ms ? t->end_ms - t->start_ms : 0);
    bind_opt_int(st, base + 8, c->have, c->tool_calls);
    bind_opt_int(st, base + 9, c->have, c->turns);
    bind_opt_int(st, base + 10, c->have && c->ttft_ms >= 0, c->ttft_ms);
    bind_opt_int(st, base + 11, c->has_input, c->input);
    bind_opt_int(st, base + 12, c->has_output, c->output);
    if (c->has_cost)
        sqlite3_bind_double(st, base + 13, c->cost);
    else
        sqlite3_bind_null(st, base + 13);
    bind_text(st, base + 14, t->error, cap);
}

unsigned an_hist_insert_rows = HIST_INSERT_ROWS;

/* INSERT INTO test_results ... VALUES (?, ... ?) n times: one statement
 * for n rows (malloc'd SQL). */
static char *insert_sql(unsigned n)
{
    static const char head[] =
        "INSERT INTO test_results (run_id, test_id, name, file, file_digest, outcome,"
        " duration_ms, tool_calls, turns, ttft_ms, input_tokens, output_tokens, cost, error)"
        " VALUES ";
    static const char row[] = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    size_t len = sizeof head + n * sizeof row;
    char *sql = an_xmalloc(len), *p = sql;
    memcpy(p, head, sizeof head - 1);
    p += sizeof head - 1;
    for (unsigned i = 0; i < n; i++) {
        if (i)
            *p++ = ',';
        memcpy(p, row, sizeof row - 1);
        p += sizeof row - 1;
    }
    *p = '\0';
    return sql;
}

/* One statement for the rows of the n tests tests[0..n), then their
 * findings. A row's id is the one SQLite gave it: those of one statement
 * follow each other (AUTOINCREMENT: one more than the largest ever, row by
 * row, and the write lock is ours), so the k-th is the last one's minus
 * n - 1 - k; SQLite's count of the rows it inserted is checked. */
static int insert_rows(struct an_history *h, sqlite3_stmt *st, sqlite3_stmt *fst, int64_t run_id,
                       const struct an_test_result *const *tests, const struct hist_counters *cs,
                       char (*digests)[AN_SHA256_HEX_LEN + 1], const bool *has_digest,
                       unsigned n, size_t cap, struct an_err *err)
{
    sqlite3_reset(st);
    for (unsigned k = 0; k < n; k++)
        bind_test(st, (int)(14 * k), run_id, tests[k], &cs[k], has_digest[k] ? digests[k] : NULL,
                  cap);
    if (sqlite3_step(st) != SQLITE_DONE)
        return an_hist_fail(h, "cannot write a test", err);
    if (sqlite3_changes(h->db) != (int)n)
        return an_fail(err, AN_EIO, NULL, "'%s': cannot write the tests: %d rows written of %u",
                       h->path, sqlite3_changes(h->db), n);
    int64_t last = sqlite3_last_insert_rowid(h->db);
    for (unsigned k = 0; k < n; k++) {
        int rc = insert_findings(h, fst, last - (int64_t)(n - 1 - k), tests[k], cap, err);
        if (rc)
            return rc;
    }
    return 0;
}

static int insert_tests(struct an_history *h, struct an_history_rec *r,
                        const struct an_history_run_info *info, const struct an_run_result *res,
                        int64_t run_id, size_t cap, struct an_err *err)
{
    static const char fsql[] = "INSERT INTO findings (result_id, kind, assertion, expected,"
                               " actual, turn, file, line) VALUES (?,?,?,?,?,?,?,?)";
    unsigned per = an_hist_insert_rows ? an_hist_insert_rows : 1;
    if (per > HIST_INSERT_ROWS)
        per = HIST_INSERT_ROWS;
    sqlite3_stmt *st = NULL, *tail = NULL, *fst = NULL;
    struct file_sum *sums = file_sums(info->project_dir, res);
    /* the batch's values, alive until its statement is stepped */
    const struct an_test_result *tests[HIST_INSERT_ROWS];
    struct hist_counters cs[HIST_INSERT_ROWS];
    char digests[HIST_INSERT_ROWS][AN_SHA256_HEX_LEN + 1];
    bool has_digest[HIST_INSERT_ROWS];
    size_t next = 0;
    int rc = 0;
    char *sql = insert_sql(per);
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(h->db, fsql, -1, &fst, NULL) != SQLITE_OK)
        rc = an_hist_fail(h, "cannot write the tests", err);
    free(sql);
    for (size_t k = 0; !rc && k < res->ntests;) {
        unsigned n = 0;
        for (; n < per && k < res->ntests; n++, k++) {
            const struct an_test_result *t = &res->tests[k];
            struct hist_counters *c = &cs[n];
            *c = (struct hist_counters){0};
            test_id(t, c->id);
            const struct hist_counters *noted_c = noted(r, c->id, &next);
            if (noted_c)
                *c = *noted_c;
            else if (t->transcript.nturns)
                counters_of(t, c);
            tests[n] = t;
            has_digest[n] = sum_hex(&sums[k], digests[n]) != NULL;
        }
        sqlite3_stmt *use = st;
        if (n < per) { /* the last rows: a statement of their own count */
            sql = insert_sql(n);
            if (sqlite3_prepare_v2(h->db, sql, -1, &tail, NULL) != SQLITE_OK)
                rc = an_hist_fail(h, "cannot write the tests", err);
            free(sql);
            use = tail;
        }
        if (!rc)
            rc = insert_rows(h, use, fst, run_id, tests, cs, digests, has_digest, n, cap, err);
    }
    sqlite3_finalize(st);
    sqlite3_finalize(tail);
    sqlite3_finalize(fst);
    free(sums);
    return rc;
}

/* The runs a merge joined, when this history holds them: merged_into. */
static int mark_parts(struct an_history *h, const struct an_history_run_info *info, int64_t run_id,
                      struct an_err *err)
{
    static const char sql[] = "UPDATE runs SET merged_into = ?1 WHERE id != ?1 AND"
                              " merged_into IS NULL AND kind != 'merge' AND started_at = ?2"
                              " AND shard IS ?3";
    if (!info->nparts)
        return 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
        return an_hist_fail(h, "cannot write the run", err);
    int rc = 0;
    for (size_t i = 0; !rc && i < info->nparts; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_int64(st, 2, info->parts[i].started_ms);
        if (info->parts[i].shard)
            sqlite3_bind_text(st, 3, info->parts[i].shard, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(st, 3);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = an_hist_fail(h, "cannot write the run", err);
    }
    sqlite3_finalize(st);
    return rc;
}

int an_history_rec_write(struct an_history_rec *r, const char *path, bool is_default,
                         const struct an_history_run_info *info, const struct an_run_result *res,
                         int64_t *run_id, struct an_err *err)
{
    size_t cap = info->max_text_bytes > 0 ? (size_t)info->max_text_bytes
                                          : AN_HISTORY_TEXT_MAX_DEFAULT;
    /* opened ahead (an_history_rec_prepare), or now */
    struct an_history *h = an_hist_prep_take(r->prep, path, is_default);
    r->prep = NULL;
    int rc = h ? 0 : an_hist_open(&h, path, true, is_default, AN_HISTORY_SCHEMA_VERSION, err);
    if (rc)
        return rc;
    /* SQLite's page cache for this write: 512 KiB, not its 2 MB default,
     * which a run of 10,000 tests filled (docs/performance.md, issue 26);
     * past it the pages go to the write-ahead log before the commit.
     * The statement journal in memory: each INSERT of HIST_INSERT_ROWS
     * rows keeps the pages it changes there, and past 64 KiB SQLite moved
     * it to a temporary file, one pwrite per page and statement (15,600
     * in a run of 10,000 tests, a third of its write; docs/performance.md,
     * session 21). It holds one statement's pages at a time. */
    sqlite3_exec(h->db, "PRAGMA cache_size=-512; PRAGMA temp_store=MEMORY", NULL, NULL, NULL);
    if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        rc = an_hist_fail(h, "cannot lock it", err);
        an_history_free(h);
        return rc;
    }
    *run_id = 0;
    rc = insert_run(h, info, res, cap, run_id, err);
    if (!rc)
        rc = insert_tests(h, r, info, res, *run_id, cap, err);
    if (!rc)
        rc = mark_parts(h, info, *run_id, err);
    if (!rc && sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        rc = an_hist_fail(h, "cannot write the run", err);
    if (rc)
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
    else
        an_hist_bound_wal(h);
    an_history_free(h);
    return rc;
}
