#include "ananke/result.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/vec.h"

static char *dup_or_null(const char *s)
{
    return s ? an_xstrdup(s) : NULL;
}

struct an_finding *an_findings_add(struct an_findings *f, const char *kind, int turn,
                                   const char *file, unsigned line, unsigned col,
                                   const char *assertion, const char *expected, const char *actual,
                                   const char *detail)
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
    case AN_STATUS_SKIP:
        return "skip";
    case AN_STATUS_INCONCLUSIVE:
        return "inconclusive";
    }
    return "?";
}

void an_run_result_reserve(struct an_run_result *r, size_t n)
{
    if (r->cap - r->ntests >= n)
        return;
    if (n > SIZE_MAX / sizeof *r->tests - r->ntests)
        an_oom();
    r->cap = r->ntests + n;
    r->tests = an_xrealloc(r->tests, r->cap * sizeof *r->tests);
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

struct an_judgement *an_judgements_add(struct an_judgements *j)
{
    AN_GROW(j->v, j->n, j->cap);
    struct an_judgement *e = &j->v[j->n++];
    memset(e, 0, sizeof *e);
    return e;
}

void an_judgements_move(struct an_judgements *to, struct an_judgements *from)
{
    for (size_t i = 0; i < from->n; i++) {
        AN_GROW(to->v, to->n, to->cap);
        to->v[to->n++] = from->v[i];
    }
    free(from->v);
    memset(from, 0, sizeof *from);
}

void an_judgements_release(struct an_judgements *j)
{
    for (size_t i = 0; i < j->n; i++) {
        free(j->v[i].agent);
        free(j->v[i].file);
        free(j->v[i].shown);
        free(j->v[i].answer);
        free(j->v[i].reason);
    }
    free(j->v);
    memset(j, 0, sizeof *j);
}

const char *an_dyn_end_name(enum an_dyn_end e)
{
    static const char *const names[] = {"none",      "all_reached", "goal_achieved",
                                        "max_turns", "timeout",     "error"};
    return names[e];
}

void an_dynamic_result_free(struct an_dynamic_result *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        free(d->checkpoints[i].id);
        free(d->checkpoints[i].description);
        free(d->checkpoints[i].evidence);
        free(d->checkpoints[i].missed);
    }
    free(d->checkpoints);
    free(d->simulator);
    for (size_t i = 0; i < d->nreasoning; i++)
        free(d->reasoning[i]);
    free(d->reasoning);
    free(d->sim_start_ms);
    free(d->sim_end_ms);
    free(d->sim_span_id);
    free(d);
}

void an_test_result_release(struct an_test_result *t)
{
    free(t->name);
    free(t->file);
    free(t->id);
    free(t->error);
    free(t->expect_reason);
    free(t->skip_reason);
    for (size_t i = 0; i < t->ntags; i++)
        free(t->tags[i]);
    free(t->tags);
    an_findings_release(&t->findings);
    an_judgements_release(&t->judgements);
    an_dynamic_result_free(t->dyn);
    t->dyn = NULL;
    for (size_t i = 0; i < t->nvar_names; i++) {
        free(t->var_names[i]);
        if (t->var_values)
            free(t->var_values[i]);
    }
    free(t->var_names);
    free(t->var_values);
    for (unsigned i = 0; t->attempts && i < t->runs; i++)
        free(t->attempts[i].summary);
    free(t->attempts);
    for (size_t i = 0; i < t->nredacted; i++)
        free(t->redacted[i].what);
    free(t->redacted);
    an_transcript_release(&t->transcript);
}

void an_run_result_release(struct an_run_result *r)
{
    for (size_t i = 0; i < r->ntests; i++)
        an_test_result_release(&r->tests[i]);
    free(r->tests);
    free(r->config_path);
    free(r->project_dir);
    free(r->shard);
    free(r->filter);
    json_decref(r->tool_coverage);
    memset(r, 0, sizeof *r);
}

struct an_counts an_run_result_counts(const struct an_run_result *r)
{
    struct an_counts c = {0};
    for (size_t i = 0; i < r->ntests; i++) {
        c.flaky += an_test_flaky(&r->tests[i]);
        switch (r->tests[i].status) {
        case AN_STATUS_PASS:
            c.passed++;
            c.stale += r->tests[i].expect == AN_EXPECT_STALE;
            break;
        case AN_STATUS_FAIL:
            c.failed++;
            c.xfailed += r->tests[i].expect == AN_EXPECT_FAILED;
            break;
        case AN_STATUS_ERROR:
            c.errors++;
            c.timeouts += r->tests[i].timed_out;
            break;
        case AN_STATUS_SKIP:
            c.skipped++;
            break;
        case AN_STATUS_INCONCLUSIVE:
            c.inconclusive++;
            break;
        }
    }
    return c;
}

size_t an_run_result_runs_saved(const struct an_run_result *r)
{
    size_t saved = 0;
    for (size_t i = 0; i < r->ntests; i++) {
        const struct an_test_result *t = &r->tests[i];
        /* only a verdict saves runs: a test cut before one (fail-fast,
         * interruption) is INCONCLUSIVE and saved nothing */
        if (t->max_runs > t->runs && t->status != AN_STATUS_INCONCLUSIVE)
            saved += t->max_runs - t->runs;
    }
    return saved;
}

double an_counts_pass_rate(const struct an_counts *c)
{
    size_t ran = c->passed + c->failed + c->errors + c->inconclusive;
    return ran ? (double)c->passed / (double)ran : 0.0;
}

bool an_counts_failing(const struct an_counts *c)
{
    return c->failed > c->xfailed || c->errors || c->stale || c->inconclusive;
}

const char *an_expect_name(enum an_expect e)
{
    return e == AN_EXPECT_FAILED  ? "expected failure"
           : e == AN_EXPECT_STALE ? "stale expected failure"
                                  : "";
}

void an_expected_release(struct an_expected *x)
{
    for (size_t i = 0; i < x->n; i++) {
        free(x->names[i]);
        free(x->reasons[i]);
        free(x->where[i]);
    }
    free(x->names);
    free(x->reasons);
    free(x->where);
    free(x->used);
    memset(x, 0, sizeof *x);
}

void an_expected_apply(struct an_expected *x, struct an_test_result *t)
{
    if (!x || t->status == AN_STATUS_SKIP)
        return;
    for (size_t i = 0; i < x->n; i++) {
        if (strcmp(x->names[i], t->name) && (!t->id || strcmp(x->names[i], t->id)))
            continue;
        x->used[i] = true;
        if (t->status == AN_STATUS_ERROR || t->status == AN_STATUS_INCONCLUSIVE)
            return; /* not a verdict: it stays an error, or undecided */
        t->expect = t->status == AN_STATUS_FAIL ? AN_EXPECT_FAILED : AN_EXPECT_STALE;
        free(t->expect_reason);
        t->expect_reason = x->reasons[i] ? an_xstrdup(x->reasons[i]) : NULL;
        return;
    }
}
