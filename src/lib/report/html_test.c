/* One test of the HTML report (report/html_int.h). */
#include "report/html_int.h"

#include "report/metrics.h"
#include "report/report_util.h"

static void repeat_box(struct an_buf *b, const struct an_run_result *r,
                       const struct an_test_result *t)
{
    enum an_stability st = an_stability_of(t->passes, t->runs);
    an_buf_printf(b,
                  "<div class=\"box repeat\">runs <b>%u</b> \xC2\xB7 passes <b>%u</b> "
                  "\xC2\xB7 pass rate <b>",
                  t->runs, t->passes);
    html_pct(b, t->passes, t->runs);
    an_buf_printf(b, "</b> \xC2\xB7 <span class=\"stab s%d\">%s</span>", (int)st,
                  an_stability_name(st));
    struct an_test_stats s;
    if (an_test_stats(t, r->pass_k, r->confidence, &s)) {
        /* only digits and the static method name: nothing to escape */
        an_buf_puts(b, "<div class=\"stats\">");
        if (s.flaky)
            an_buf_puts(b, "<b>flaky</b>: its runs disagree \xC2\xB7 ");
        an_rpt_pass_k(b, &s);
        an_buf_puts(b, " \xC2\xB7 ");
        an_rpt_ci(b, &s);
        an_buf_puts(b, "</div>");
    }
    if (t->attempts) {
        an_buf_puts(b, "<ol class=\"attempts\">");
        for (unsigned i = 0; i < t->runs; i++) {
            const struct an_attempt *a = &t->attempts[i];
            an_buf_printf(b, "<li class=\"%s\">#%u %s ", an_status_name(a->status), i + 1,
                          an_status_name(a->status));
            html_ms(b, a->duration_ms);
            if (a->summary) {
                an_buf_puts(b, ": ");
                html_text(b, a->summary, false);
            }
            an_buf_puts(b, "</li>");
        }
        an_buf_puts(b, "</ol>");
    }
    an_buf_printf(b, "<div class=\"muted\">The turns below are from %s.</div></div>\n",
                  t->passes < t->runs ? "the first run that did not pass" : "the last run");
}

/* A repeated test whose runs disagree: some passed, some did not (one
 * definition for every report: an_test_flaky). */
static bool flaky(const struct an_test_result *t)
{
    return an_test_flaky(t);
}

/* Failures first: what fails the run, then the flaky, the passed (and the
 * expected failures), the skipped; run order within each. */
int html_order_rank(const struct an_test_result *t)
{
    if (t->expect == AN_EXPECT_STALE || t->status == AN_STATUS_ERROR ||
        t->status == AN_STATUS_INCONCLUSIVE ||
        (t->status == AN_STATUS_FAIL && t->expect != AN_EXPECT_FAILED))
        return 0;
    if (flaky(t))
        return 1;
    return t->status == AN_STATUS_SKIP ? 3 : 2;
}

/* <details> and its <summary>: badges, name, tags, file, duration. A test
 * that did not pass (or passed only some of its repeated runs) is open. */
static void test_summary(struct an_buf *b, const struct an_test_result *t, size_t idx)
{
    /* a stale expected failure fails the run: it is shown and filtered as
     * one; an expected failure keeps its section but a muted badge */
    const char *st = t->expect == AN_EXPECT_STALE ? "fail" : an_status_name(t->status);
    const char *badge = t->expect == AN_EXPECT_FAILED ? "skip" : st;
    /* open what needs reading: a test that did not pass, or that passed
     * only some of its repeated runs */
    bool open = t->status == AN_STATUS_FAIL || t->status == AN_STATUS_ERROR ||
                t->status == AN_STATUS_INCONCLUSIVE || t->passes < t->runs ||
                t->expect == AN_EXPECT_STALE;
    bool fl = flaky(t);
    an_buf_printf(b, "<details class=\"test %s\" id=\"test-%zu\" data-status=\"%s\"%s", st, idx + 1,
                  st, fl ? " data-flaky=\"1\"" : "");
    /* what the search box looks in: name, file, tags */
    an_buf_puts(b, " data-search=\"");
    html_text(b, t->name ? t->name : "", false);
    an_buf_putc(b, ' ');
    html_text(b, t->file ? t->file : "", false);
    for (size_t i = 0; i < t->ntags; i++) {
        an_buf_putc(b, ' ');
        html_text(b, t->tags[i], false);
    }
    an_buf_printf(b, "\"%s><summary><span class=\"badge %s\">%s</span>", open ? " open" : "", badge,
                  html_status_label(t));
    if (fl)
        an_buf_printf(b,
                      "<span class=\"badge flaky\" title=\"%u of %u runs passed\">FLAKY"
                      "</span>",
                      t->passes, t->runs);
    an_buf_puts(b, "<span class=\"tname\">");
    html_text(b, t->name ? t->name : "(unnamed)", false);
    for (size_t i = 0; i < t->ntags; i++) {
        an_buf_puts(b, "</span> <span class=\"tag\">");
        html_text(b, t->tags[i], false);
    }
    an_buf_puts(b, "</span><span class=\"tfile\">");
    html_text(b, t->file, false);
    an_buf_puts(b, "</span><span class=\"tdur\">");
    html_ms(b, t->end_ms - t->start_ms);
    an_buf_puts(b, "</span></summary><div class=\"tbody\">\n");
}

/* What is said of the test before its turns: why it was skipped, its
 * expected failure, its metrics, its error, its repeated runs, its hook
 * variables. */
static void test_boxes(struct an_buf *b, const struct an_run_result *r,
                       const struct an_test_result *t)
{
    if (t->status == AN_STATUS_SKIP && t->skip_reason) {
        an_buf_puts(b, "<div class=\"muted\">Skipped, not run: ");
        html_text(b, t->skip_reason, false);
        an_buf_puts(b, "</div>\n");
    } else if (t->status == AN_STATUS_SKIP) {
        an_buf_puts(b, "<div class=\"muted\">Skipped (<code>skip: true</code>): not run.</div>\n");
    }
    if (t->expect) {
        an_buf_puts(b, t->expect == AN_EXPECT_FAILED
                           ? "<div class=\"box\"><span class=\"title\">Expected failure</span> "
                             "listed in --expected-failures: it does not fail the run"
                           : "<div class=\"box err\"><span class=\"title\">Stale expected "
                             "failure</span> it passed, yet --expected-failures lists it: take "
                             "it off the list");
        if (t->expect_reason) {
            an_buf_puts(b, "<div class=\"msg\">");
            html_text(b, t->expect_reason, true);
            an_buf_puts(b, "</div>");
        }
        an_buf_puts(b, "</div>\n");
    }
    if (t->status != AN_STATUS_SKIP) {
        struct an_metrics m;
        struct an_buf line = AN_BUF_INIT;
        an_metrics_of(t, &m);
        an_metrics_line(&line, &m);
        an_buf_puts(b, "<div class=\"muted metrics\">");
        html_text(b, an_buf_cstr(&line), false);
        an_buf_puts(b, "</div>\n");
        an_buf_release(&line);
    }
    if (t->status == AN_STATUS_ERROR) {
        an_buf_printf(b, "<div class=\"box err\"><span class=\"title\">ERROR %s</span> ",
                      an_code_name((enum an_code)t->error_code));
        if (t->error_turn >= 0)
            an_buf_printf(b, "in turn %d", t->error_turn + 1);
        if (t->timed_out)
            an_buf_puts(b, " (cut by --timeout)");
        an_buf_puts(b, "<div class=\"msg\">");
        html_text(b, t->error ? t->error : an_code_desc((enum an_code)t->error_code), true);
        an_buf_puts(b, "</div></div>\n");
    }
    if (t->runs)
        repeat_box(b, r, t);
    if (t->nvar_names) {
        an_buf_puts(b, "<div class=\"muted\">hook variables: <span class=\"mono\">");
        for (size_t i = 0; i < t->nvar_names; i++) {
            if (i)
                an_buf_puts(b, ", ");
            html_text(b, t->var_names[i], false);
        }
        an_buf_puts(b, "</span></div>\n");
    }
}

/* The turns, with a dynamic test's boxes around them. */
static void test_turns(struct an_buf *b, const struct an_test_result *t)
{
    const struct an_transcript *tr = &t->transcript;
    if (t->dyn)
        html_dyn_box(b, t);
    if (tr->nturns) {
        an_buf_puts(b, "<ol class=\"turns\">\n");
        for (size_t i = 0; i < tr->nturns; i++)
            html_turn_item(b, t, i);
        an_buf_puts(b, "</ol>\n");
    }
    if (t->dyn) {
        /* the simulator's reasoning when it ended the talk: no turn to hold it */
        const struct an_dynamic_result *d = t->dyn;
        for (size_t i = tr->nturns; i < d->nreasoning; i++) {
            if (!d->reasoning[i])
                continue;
            an_buf_printf(b,
                          "<div class=\"who\">simulator&#39;s reasoning after turn %zu</div>"
                          "<div class=\"msg sim\">",
                          tr->nturns);
            html_text(b, d->reasoning[i], true);
            an_buf_puts(b, "</div>\n");
        }
        html_checkpoint_table(b, d);
    }
}

/* The findings of the whole test (no turn), and what each judge was shown
 * and answered. */
static void test_after(struct an_buf *b, const struct an_test_result *t)
{
    const struct an_transcript *tr = &t->transcript;
    bool header = false;
    for (size_t k = 0; k < t->findings.n; k++) {
        const struct an_finding *f = &t->findings.v[k];
        if (f->turn >= 0 && (size_t)f->turn < tr->nturns)
            continue;
        if (!header)
            an_buf_puts(b, "<h3>whole test</h3>");
        header = true;
        html_finding(b, f);
    }
    if (t->judgements.n) {
        /* what each judge was shown and answered, passed or not */
        struct an_buf jt = AN_BUF_INIT;
        an_rpt_judgements(&jt, t, "", 0, true);
        an_buf_puts(b, "<h3>judges</h3><pre class=\"mono\">");
        html_text(b, an_buf_cstr(&jt), true);
        an_buf_puts(b, "</pre>\n");
        an_buf_release(&jt);
    }
}

void html_test_section(struct an_buf *b, const struct an_run_result *r,
                       const struct an_test_result *t, size_t idx)
{
    test_summary(b, t, idx);
    test_boxes(b, r, t);
    test_turns(b, t);
    test_after(b, t);
    an_buf_puts(b, "</div></details>\n");
}
