#include "ananke/result.h"

#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"

static char *dup_or_null(const char *s)
{
    return s ? an_xstrdup(s) : NULL;
}

struct an_finding *an_findings_add(struct an_findings *f, const char *kind, int turn,
                                   const char *file, unsigned line, unsigned col,
                                   const char *assertion, const char *expected,
                                   const char *actual, const char *detail)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 4;
        f->v = an_xrealloc(f->v, f->cap * sizeof *f->v);
    }
    struct an_finding *x = &f->v[f->n++];
    x->kind = kind;
    x->turn = turn;
    x->file = dup_or_null(file);
    x->line = line;
    x->col = col;
    x->assertion = dup_or_null(assertion);
    x->expected = dup_or_null(expected);
    x->actual = dup_or_null(actual);
    x->detail = dup_or_null(detail);
    return x;
}

void an_findings_release(struct an_findings *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->v[i].file);
        free(f->v[i].assertion);
        free(f->v[i].expected);
        free(f->v[i].actual);
        free(f->v[i].detail);
    }
    free(f->v);
    memset(f, 0, sizeof *f);
}

const char *an_status_name(enum an_status s)
{
    switch (s) {
    case AN_STATUS_PASS:
        return "pass";
    case AN_STATUS_FAIL:
        return "fail";
    case AN_STATUS_ERROR:
        return "error";
    }
    return "?";
}

struct an_test_result *an_run_result_add(struct an_run_result *r)
{
    if (r->ntests == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 8;
        r->tests = an_xrealloc(r->tests, r->cap * sizeof *r->tests);
    }
    struct an_test_result *t = &r->tests[r->ntests++];
    memset(t, 0, sizeof *t);
    t->error_turn = -1;
    an_transcript_init(&t->transcript);
    return t;
}

enum an_stability an_stability_of(unsigned passes, unsigned runs)
{
    if (runs == 0 || passes >= runs)
        return AN_STABLE;
    /* integer comparisons: 4/5 is exactly 80 % */
    if ((uint64_t)passes * 5 >= (uint64_t)runs * 4)
        return AN_MOSTLY_STABLE;
    if ((uint64_t)passes * 2 >= runs)
        return AN_UNSTABLE;
    return AN_HIGHLY_UNSTABLE;
}

const char *an_stability_name(enum an_stability s)
{
    static const char *names[] = {"stable", "mostly stable", "unstable", "highly unstable"};
    return (unsigned)s < 4 ? names[s] : "?";
}

double an_test_pass_rate(const struct an_test_result *t)
{
    if (t->runs == 0)
        return t->status == AN_STATUS_PASS ? 1.0 : 0.0;
    return (double)t->passes / (double)t->runs;
}

void an_test_result_release(struct an_test_result *t)
{
    free(t->name);
    free(t->file);
    free(t->error);
    an_findings_release(&t->findings);
    for (size_t i = 0; i < t->nvar_names; i++)
        free(t->var_names[i]);
    free(t->var_names);
    for (unsigned i = 0; t->attempts && i < t->runs; i++)
        free(t->attempts[i].summary);
    free(t->attempts);
    an_transcript_release(&t->transcript);
}

void an_run_result_release(struct an_run_result *r)
{
    for (size_t i = 0; i < r->ntests; i++)
        an_test_result_release(&r->tests[i]);
    free(r->tests);
    free(r->config_path);
    free(r->shard);
    free(r->filter);
    memset(r, 0, sizeof *r);
}

void an_run_result_counts(const struct an_run_result *r, size_t *pass, size_t *fail,
                          size_t *error)
{
    size_t p = 0, f = 0, e = 0;
    for (size_t i = 0; i < r->ntests; i++) {
        switch (r->tests[i].status) {
        case AN_STATUS_PASS:
            p++;
            break;
        case AN_STATUS_FAIL:
            f++;
            break;
        case AN_STATUS_ERROR:
            e++;
            break;
        }
    }
    if (pass)
        *pass = p;
    if (fail)
        *fail = f;
    if (error)
        *error = e;
}
