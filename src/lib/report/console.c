/*
 * Console reporter: what a person reads in a terminal and in CI logs.
 *
 *   PASS  pays once (812ms)  tests/checkout.test.yaml
 *   FAIL  refund (1.2s)  tests/refund.test.yaml
 *     turn 2: Tool "charge_card" count
 *       expected: exactly 1 call
 *       actual:   2 calls
 *       at tests/refund.test.yaml:14:9
 *       calls:
 *         charge_card({"amount":10}) → {"ok":true}
 *       text: "Done."
 *   FAIL  [T004] expense coverage (6.8s)  cases.jsonl
 *     3 turns, 2/3 checkpoints (max turns); missing: confirm
 *
 * A dynamic test (seed 002) always has that outcome line under its test
 * line; -v adds the simulator and, under each turn, the checkpoints reached
 * there ("reached: ask_type (Agent asks for expense type)" and its
 * evidence) and the simulator's reasoning for the turn.
 *
 * Each test's lines are built in one buffer and written with one fwrite, so
 * tests finishing on several workers do not interleave mid-test (as long as
 * the caller serialises calls, which the scheduler does).
 */
#include <stdlib.h>
#include <string.h>

#include "ananke/report.h"
#include "core/buf.h"
#include "report/metrics.h"
#include "report/report_util.h"
#include "report/rpt_toolcov.h"

#define SGR_GREEN "\x1b[32m"
#define SGR_RED "\x1b[31m"
#define SGR_YELLOW "\x1b[33m"
#define SGR_DIM "\x1b[2m"
#define SGR_RESET "\x1b[0m"

/* Most tests call a handful of tools; a test-level finding lists at most
 * this many names so one runaway agent cannot flood the log. */
#define COMPACT_CALLS_MAX 30
/* The recap at the end of a run stays short: this many tests, each on two
 * lines of at most about this many bytes of text. */
#define RECAP_MAX 20
#define RECAP_CUT 160

struct con {
    struct an_buf b;
    bool color;
    size_t cut;
};

static void paint(struct con *c, const char *sgr)
{
    if (c->color)
        an_buf_puts(&c->b, sgr);
}

/* PASS, FAIL, ERROR, SKIP; XFAIL for a failure --expected-failures lists,
 * STALE for a listed test that passed. */
static void status_word(struct con *c, enum an_status s, enum an_expect e)
{
    static const char *const word[] = {"PASS",         "FAIL",  "ERROR", "SKIP",
                                       "INCONCLUSIVE", "XFAIL", "STALE"};
    static const char *const sgr[] = {SGR_GREEN,  SGR_RED, SGR_YELLOW, SGR_DIM,
                                      SGR_YELLOW, SGR_DIM, SGR_RED};
    unsigned i = (unsigned)s <= AN_STATUS_INCONCLUSIVE ? (unsigned)s : 2;
    if (e == AN_EXPECT_FAILED)
        i = 5;
    else if (e == AN_EXPECT_STALE)
        i = 6;
    paint(c, sgr[i]);
    an_buf_puts(&c->b, word[i]);
    paint(c, SGR_RESET);
    /* pad outside the colour so names line up under a 5-letter "ERROR" */
    an_buf_puts(&c->b, strlen(word[i]) == 5 ? " " : "  ");
}

static void location(struct con *c, const struct an_finding *f)
{
    if (!f->file)
        return;
    an_buf_puts(&c->b, "    ");
    paint(c, SGR_DIM);
    an_buf_puts(&c->b, "at ");
    an_rpt_str(&c->b, f->file, 0, NULL, 0);
    if (f->line) {
        an_buf_printf(&c->b, ":%u", f->line);
        if (f->col)
            an_buf_printf(&c->b, ":%u", f->col);
    }
    paint(c, SGR_RESET);
    an_buf_putc(&c->b, '\n');
}

/* "calls: turn 1: search, lookup; turn 2: charge_card" */
static void compact_calls(struct con *c, const struct an_transcript *t)
{
    an_buf_puts(&c->b, "    calls: ");
    if (!t->ncalls)
        an_buf_puts(&c->b, "none");
    long prev = -1;
    size_t shown = 0;
    for (size_t i = 0; i < t->ncalls && shown < COMPACT_CALLS_MAX; i++, shown++) {
        const struct an_tool_call *k = &t->calls[i];
        if ((long)k->turn != prev) {
            an_buf_printf(&c->b, "%sturn %u: ", prev < 0 ? "" : "; ", k->turn + 1);
            prev = (long)k->turn;
        } else {
            an_buf_puts(&c->b, ", ");
        }
        an_rpt_str(&c->b, k->name ? k->name : "?", c->cut, NULL, 0);
    }
    if (t->ncalls > shown)
        an_buf_printf(&c->b, " \xE2\x80\xA6 (+%zu more)", t->ncalls - shown);
    an_buf_putc(&c->b, '\n');
}

static void finding(struct con *c, const struct an_test_result *t, const struct an_finding *f,
                    bool *turn_shown, bool *test_shown, bool evidence)
{
    size_t long_cut = c->cut * 4;
    if (f->turn >= 0)
        an_buf_printf(&c->b, "  turn %d: ", f->turn + 1);
    else
        an_buf_puts(&c->b, "  test: ");
    an_rpt_str(&c->b, f->assertion ? f->assertion : f->kind, long_cut, "    ", 0);
    an_buf_putc(&c->b, '\n');
    if (f->expected) {
        an_buf_puts(&c->b, "    expected: ");
        an_rpt_str(&c->b, f->expected, long_cut, "              ", 0);
        an_buf_putc(&c->b, '\n');
    }
    if (f->actual) {
        an_buf_puts(&c->b, "    actual:   ");
        an_rpt_str(&c->b, f->actual, long_cut, "              ", 0);
        an_buf_putc(&c->b, '\n');
    }
    if (f->detail && f->detail[0]) {
        an_buf_puts(&c->b, "    ");
        an_rpt_str(&c->b, f->detail, long_cut, "    ", 0);
        an_buf_putc(&c->b, '\n');
    }
    location(c, f);
    if (!evidence)
        return;
    /* Evidence once per turn: several findings on one turn share it. */
    const struct an_transcript *tr = &t->transcript;
    if (f->turn >= 0 && (size_t)f->turn < tr->nturns) {
        if (!turn_shown[f->turn])
            an_rpt_turn_evidence(&c->b, tr, (size_t)f->turn, "    ", c->cut, false);
        turn_shown[f->turn] = true;
    } else if (f->turn < 0 && !*test_shown) {
        compact_calls(c, tr);
        *test_shown = true;
    }
}

static void broken(struct con *c, const struct an_test_result *t, bool evidence)
{
    const struct an_transcript *tr = &t->transcript;
    const char *msg = t->error ? t->error : an_code_desc((enum an_code)t->error_code);
    if (t->error_turn >= 0)
        an_buf_printf(&c->b, "  turn %d: ", t->error_turn + 1);
    else
        an_buf_puts(&c->b, "  ");
    an_rpt_str(&c->b, msg, c->cut * 4, "    ", 0);
    an_buf_putc(&c->b, '\n');
    if (!evidence || t->error_turn < 0 || (size_t)t->error_turn >= tr->nturns)
        return;
    const struct an_turn_rec *r = &tr->turns[t->error_turn];
    for (size_t i = 0; i < r->retries; i++) { /* what was tried before giving up */
        an_buf_puts(&c->b, "    retry: ");
        an_rpt_str(&c->b, r->retry_log[i], c->cut, NULL, 0);
        an_buf_putc(&c->b, '\n');
    }
    if (!r->ncalls && !(r->text && r->text[0])) {
        an_buf_puts(&c->b, "    nothing captured before it broke\n");
        return;
    }
    an_buf_puts(&c->b, "    captured before it broke:\n");
    an_rpt_turn_evidence(&c->b, tr, (size_t)t->error_turn, "      ", c->cut, false);
}

/* Warnings (protocol SHOULD findings, violations of an ACP agent, bad tool
 * arguments) show under every test that has them, passed or not: the first
 * three, then how many more. */
static void warnings_summary(struct con *c, const struct an_transcript *tr)
{
    size_t shown = 0, total = 0;
    for (size_t i = 0; i < tr->nturns; i++)
        total += tr->turns[i].nwarnings;
    for (size_t i = 0; i < tr->nturns && shown < 3; i++) {
        const struct an_turn_rec *r = &tr->turns[i];
        for (size_t k = 0; k < r->nwarnings && shown < 3; k++, shown++) {
            paint(c, SGR_YELLOW);
            an_buf_printf(&c->b, "  warning");
            paint(c, SGR_RESET);
            an_buf_printf(&c->b, " (turn %zu): ", i + 1);
            an_rpt_str(&c->b, r->warnings[k], c->cut, NULL, 0);
            an_buf_putc(&c->b, '\n');
        }
    }
    if (total > shown)
        an_buf_printf(&c->b, "  (+%zu more warnings; -v shows them all)\n", total - shown);
}

/* -vv: the raw protocol frames, for debugging an adapter or an agent */
static void frames(struct con *c, const struct an_turn_rec *r)
{
    char d[32];
    for (size_t i = 0; i < r->nframes; i++) {
        an_buf_printf(&c->b, "    frame +%s ",
                      an_rpt_ms(d, sizeof d, r->frames[i].t_ms - r->start_ms));
        an_rpt_str(&c->b, r->frames[i].data, c->cut, NULL, 0);
        an_buf_putc(&c->b, '\n');
    }
}

/* A repeated test's runs: how many passed, the adaptive verdict, its
 * statistics, and the runs that did not pass of a test that passed. */
static void runs_block(struct con *c, const struct an_test_result *t,
                       const struct an_console_opts *o)
{
    an_buf_printf(&c->b, "  %u/%u runs passed (%.0f%%, %s)\n", t->passes, t->runs,
                  an_test_pass_rate(t) * 100,
                  an_stability_name(an_stability_of(t->passes, t->runs)));
    if (t->max_runs) /* --repeat auto */
        an_buf_printf(&c->b,
                      t->status == AN_STATUS_INCONCLUSIVE
                          ? "  inconclusive: %u runs could not decide (at most %u)\n"
                          : "  adaptive: decided after %u of at most %u runs\n",
                      t->runs, t->max_runs);
    struct an_test_stats st;
    if (an_test_stats(t, o->pass_k, o->confidence, &st)) {
        an_buf_puts(&c->b, "  ");
        an_rpt_stats_line(&c->b, &st);
        an_buf_putc(&c->b, '\n');
    }
    if (t->status == AN_STATUS_PASS && t->passes < t->runs && t->attempts)
        for (unsigned i = 0; i < t->runs; i++)
            if (t->attempts[i].status != AN_STATUS_PASS && t->attempts[i].summary) {
                an_buf_printf(&c->b, "  run %u %s: ", i + 1, an_status_name(t->attempts[i].status));
                an_rpt_str(&c->b, t->attempts[i].summary, c->cut, NULL, 0);
                an_buf_putc(&c->b, '\n');
            }
}

void an_console_test(FILE *out, const struct an_test_result *t, const struct an_console_opts *o)
{
    struct an_console_opts def = AN_CONSOLE_OPTS_INIT;
    if (!o)
        o = &def;
    struct con c = {.b = AN_BUF_INIT, .color = o->color, .cut = o->cut ? o->cut : 300};
    const struct an_transcript *tr = &t->transcript;
    bool verbose = o->verbose >= 1;
    char d[32];

    struct an_buf title = AN_BUF_INIT;
    an_rpt_title(&title, t);
    status_word(&c, t->status, t->expect);
    an_rpt_str(&c.b, an_buf_cstr(&title), 0, NULL, 0);
    an_buf_release(&title);
    if (t->status != AN_STATUS_SKIP) /* nothing ran: a duration would say otherwise */
        an_buf_printf(&c.b, " (%s)", an_rpt_ms(d, sizeof d, t->end_ms - t->start_ms));
    if (t->file) {
        an_buf_puts(&c.b, "  ");
        paint(&c, SGR_DIM);
        an_rpt_str(&c.b, t->file, 0, NULL, 0);
        paint(&c, SGR_RESET);
    }
    an_buf_putc(&c.b, '\n');
    if (t->status == AN_STATUS_SKIP) {
        if (t->skip_reason) {
            an_buf_puts(&c.b, "  skipped: ");
            an_rpt_str(&c.b, t->skip_reason, c.cut, NULL, 0);
            an_buf_putc(&c.b, '\n');
        }
        goto out;
    }
    if (t->expect == AN_EXPECT_FAILED) {
        an_buf_puts(&c.b, "  expected failure");
        if (t->expect_reason) {
            an_buf_puts(&c.b, ": ");
            an_rpt_str(&c.b, t->expect_reason, c.cut, NULL, 0);
        }
        an_buf_puts(&c.b, " (does not fail the run)\n");
    } else if (t->expect == AN_EXPECT_STALE) {
        an_buf_puts(&c.b, "  stale expected failure: it passed, so take it off the "
                          "--expected-failures list");
        if (t->expect_reason) {
            an_buf_puts(&c.b, " (listed as: ");
            an_rpt_str(&c.b, t->expect_reason, c.cut, NULL, 0);
            an_buf_putc(&c.b, ')');
        }
        an_buf_putc(&c.b, '\n');
    }
    if (t->dyn) {
        an_buf_puts(&c.b, "  ");
        an_rpt_dyn_outcome(&c.b, t, c.cut);
        an_buf_putc(&c.b, '\n');
    }
    if (!verbose) /* -v shows them in place, turn by turn */
        warnings_summary(&c, tr);
    if (t->runs > 1 || t->max_runs)
        runs_block(&c, t, o);

    if (t->status == AN_STATUS_ERROR)
        broken(&c, t, !verbose);
    if (t->status != AN_STATUS_PASS && t->findings.n) {
        bool *turn_shown = an_xcalloc(tr->nturns ? tr->nturns : 1, sizeof *turn_shown);
        bool test_shown = false;
        for (size_t i = 0; i < t->findings.n; i++)
            finding(&c, t, &t->findings.v[i], turn_shown, &test_shown, !verbose);
        free(turn_shown);
    }
    if (verbose) {
        struct an_metrics m;
        an_metrics_of(t, &m);
        an_buf_puts(&c.b, "  ");
        paint(&c, SGR_DIM);
        an_metrics_line(&c.b, &m);
        paint(&c, SGR_RESET);
        an_buf_putc(&c.b, '\n');
        if (t->nvar_names) {
            an_buf_puts(&c.b, "  variables: ");
            for (size_t i = 0; i < t->nvar_names; i++) {
                if (i)
                    an_buf_puts(&c.b, ", ");
                an_rpt_str(&c.b, t->var_names[i], c.cut, NULL, 0);
            }
            an_buf_putc(&c.b, '\n');
        }
        an_rpt_dyn_simulator(&c.b, t, "  ", c.cut);
        for (size_t i = 0; i < tr->nturns; i++) {
            an_rpt_turn_block(&c.b, tr, i, "  ", c.cut);
            an_rpt_dyn_turn(&c.b, t, i, "    ", c.cut);
            if (o->verbose >= 2)
                frames(&c, &tr->turns[i]);
        }
        an_rpt_dyn_after(&c.b, t, "  ", c.cut);
        an_rpt_judgements(&c.b, t, "  ", c.cut, o->verbose >= 2);
    } else if (t->status != AN_STATUS_PASS) {
        an_rpt_not_run(&c.b, tr, "  ");
    }
out:
    fwrite(c.b.data, 1, c.b.len, out);
    an_buf_release(&c.b);
}

static void count(struct con *c, size_t n, const char *sgr, const char *one, const char *many)
{
    if (n)
        paint(c, sgr);
    an_buf_printf(&c->b, "%zu %s", n, n == 1 ? one : many);
    if (n)
        paint(c, SGR_RESET);
}

/* The first thing wrong with a failed or errored test, on one line: its
 * error, or its first finding's label with what was found. */
static void first_problem(struct con *c, const struct an_test_result *t)
{
    if (t->status == AN_STATUS_INCONCLUSIVE) {
        an_buf_printf(&c->b, "inconclusive: %u/%u runs passed, undecided", t->passes, t->runs);
        return;
    }
    if (t->status == AN_STATUS_ERROR) {
        if (t->error_turn >= 0)
            an_buf_printf(&c->b, "turn %d: ", t->error_turn + 1);
        an_rpt_str(&c->b, t->error ? t->error : an_code_desc((enum an_code)t->error_code),
                   RECAP_CUT, NULL, 0);
        return;
    }
    if (!t->findings.n) {
        if (t->dyn) /* a dynamic test fails on its checkpoints */
            an_rpt_dyn_outcome(&c->b, t, RECAP_CUT);
        else if (t->runs > 1)
            an_buf_printf(&c->b, "%u/%u runs passed", t->passes, t->runs);
        return;
    }
    const struct an_finding *f = &t->findings.v[0];
    if (f->turn >= 0)
        an_buf_printf(&c->b, "turn %d: ", f->turn + 1);
    an_rpt_str(&c->b, f->assertion ? f->assertion : f->kind, RECAP_CUT, NULL, 0);
    if (f->actual) {
        an_buf_puts(&c->b, ": ");
        an_rpt_str(&c->b, f->actual, RECAP_CUT, NULL, 0);
    }
    if (t->findings.n > 1)
        an_buf_printf(&c->b, " (+%zu more)", t->findings.n - 1);
}

/* Where to look: the first finding's file:line, else the test's file. */
static void recap_where(struct con *c, const struct an_test_result *t)
{
    const struct an_finding *f = t->status == AN_STATUS_FAIL && t->findings.n ? &t->findings.v[0]
                                                                              : NULL;
    const char *file = f && f->file ? f->file : t->file;
    if (!file)
        return;
    an_buf_puts(&c->b, "  ");
    paint(c, SGR_DIM);
    an_rpt_str(&c->b, file, 0, NULL, 0);
    if (f && f->file && f->line)
        an_buf_printf(&c->b, ":%u", f->line);
    paint(c, SGR_RESET);
}

/* The recap that ends a run with failures, as pytest's "short test summary
 * info" and Playwright's list of failed tests do: one block per failed or
 * errored test (an expected failure is not one), at most RECAP_MAX. */
static void recap(struct con *c, const struct an_run_result *r)
{
    size_t n = 0, shown = 0;
    for (size_t i = 0; i < r->ntests; i++) {
        const struct an_test_result *t = &r->tests[i];
        bool bad = t->status == AN_STATUS_ERROR || t->status == AN_STATUS_INCONCLUSIVE ||
                   (t->status == AN_STATUS_FAIL && t->expect != AN_EXPECT_FAILED);
        if (!bad)
            continue;
        if (!n++)
            an_buf_puts(&c->b, "\nfailed and errored tests:\n");
        if (shown == RECAP_MAX)
            continue;
        shown++;
        an_buf_puts(&c->b, "  ");
        status_word(c, t->status, t->expect);
        struct an_buf title = AN_BUF_INIT;
        an_rpt_title(&title, t);
        an_rpt_str(&c->b, an_buf_cstr(&title), RECAP_CUT, NULL, 0);
        an_buf_release(&title);
        recap_where(c, t);
        an_buf_puts(&c->b, "\n    ");
        first_problem(c, t);
        an_buf_putc(&c->b, '\n');
    }
    if (n > shown)
        an_buf_printf(&c->b, "  (+%zu more; the report files list them all)\n", n - shown);
}

/* Under --fail-on-flaky the flaky tests that passed fail the run too: they
 * are listed after the failures, with their statistics, at most RECAP_MAX. */
static void recap_flaky(struct con *c, const struct an_run_result *r,
                        const struct an_console_opts *o)
{
    size_t n = 0;
    for (size_t i = 0; r->fail_on_flaky && i < r->ntests; i++) {
        const struct an_test_result *t = &r->tests[i];
        struct an_test_stats st;
        if (t->status != AN_STATUS_PASS || !an_test_flaky(t) ||
            !an_test_stats(t, o->pass_k, o->confidence, &st))
            continue;
        if (!n++)
            an_buf_puts(&c->b, "\nflaky tests (--fail-on-flaky):\n");
        if (n > RECAP_MAX)
            continue;
        struct an_buf title = AN_BUF_INIT;
        an_rpt_title(&title, t);
        an_buf_puts(&c->b, "  ");
        an_rpt_str(&c->b, an_buf_cstr(&title), RECAP_CUT, NULL, 0);
        an_buf_release(&title);
        recap_where(c, t);
        an_buf_printf(&c->b, "\n    %u/%u runs passed; ", t->passes, t->runs);
        an_rpt_stats_line(&c->b, &st);
        an_buf_putc(&c->b, '\n');
    }
    if (n > RECAP_MAX)
        an_buf_printf(&c->b, "  (+%zu more; the report files list them all)\n", n - RECAP_MAX);
}

/* One line per tool server (docs/tools.md "Tool coverage"); its name is
 * the config's, checked at load. */
static void tool_coverage(struct an_buf *b, const json_t *cov)
{
    const char *name;
    json_t *s;
    json_object_foreach((json_t *)cov, name, s)
    {
        struct rpt_cov_server v;
        rpt_cov_read(name, s, &v);
        an_buf_printf(b, "Tool coverage: %s %zu/%zu tools", name, v.ncovered, v.nexposed);
        if (v.has_ratio)
            an_buf_printf(b, " (%.0f%%)", v.ratio * 100);
        an_buf_printf(b, ", %lld call%s", v.calls, v.calls == 1 ? "" : "s");
        if (v.mocked)
            an_buf_printf(b, " (%lld mocked)", v.mocked);
        an_buf_putc(b, '\n');
        rpt_cov_release(&v);
    }
}

void an_console_summary(FILE *out, const struct an_run_result *r, const struct an_console_opts *o)
{
    struct an_console_opts def = AN_CONSOLE_OPTS_INIT;
    if (!o)
        o = &def;
    struct con c = {.b = AN_BUF_INIT, .color = o->color, .cut = 0};
    int64_t ms = r->end_ms - r->start_ms;
    struct an_counts n = an_run_result_counts(r);
    recap(&c, r);
    recap_flaky(&c, r, o);
    an_buf_putc(&c.b, '\n');
    count(&c, n.passed, SGR_GREEN, "passed", "passed");
    an_buf_puts(&c.b, ", ");
    count(&c, n.failed, SGR_RED, "failed", "failed");
    if (n.xfailed)
        an_buf_printf(&c.b, " (%zu expected)", n.xfailed);
    an_buf_puts(&c.b, ", ");
    count(&c, n.errors, SGR_YELLOW, "error", "errors");
    if (n.skipped) {
        an_buf_puts(&c.b, ", ");
        count(&c, n.skipped, SGR_DIM, "skipped", "skipped");
    }
    if (n.stale) {
        an_buf_puts(&c.b, ", ");
        count(&c, n.stale, SGR_RED, "stale expected failure", "stale expected failures");
    }
    if (n.inconclusive || r->adaptive) {
        an_buf_puts(&c.b, ", ");
        count(&c, n.inconclusive, SGR_YELLOW, "inconclusive", "inconclusive");
    }
    if (n.flaky) {
        an_buf_puts(&c.b, ", ");
        count(&c, n.flaky, SGR_YELLOW, "flaky", "flaky");
    }
    an_buf_printf(&c.b, " (%zu %s) in %.2fs\n", r->ntests, r->ntests == 1 ? "test" : "tests",
                  (double)(ms > 0 ? ms : 0) / 1000.0);
    if (r->adaptive) { /* the cost of certainty */
        size_t runs = 0, most = 0;
        for (size_t i = 0; i < r->ntests; i++) {
            runs += r->tests[i].max_runs ? r->tests[i].runs : 0;
            most += r->tests[i].max_runs;
        }
        an_buf_printf(&c.b,
                      "Adaptive repeats: %zu runs of at most %zu (--max-repeats %u a test), "
                      "%zu saved, at %.3g confidence\n",
                      runs, most, r->max_repeats, an_run_result_runs_saved(r), r->confidence);
    }
    /* seed 002's summary line; skipped tests are left out of the rate */
    an_buf_printf(&c.b, "Pass rate: %.1f%%\n", an_counts_pass_rate(&n) * 100.0);
    /* the cost of the verdicts: one call per run of every test */
    an_buf_printf(&c.b, "Agent calls: %zu\n", an_run_result_agent_calls(r));
    tool_coverage(&c.b, r->tool_coverage);
    fwrite(c.b.data, 1, c.b.len, out);
    fflush(out);
    an_buf_release(&c.b);
}
