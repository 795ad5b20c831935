/*
 * Markdown reporter (`-o report.md`, `-r markdown:PATH`): a summary a person
 * reads on GitHub, in a pull request comment or a job summary.
 *
 *   # ananke test report
 *
 *   | Total | Passed | Failed | Skipped | Errors | Pass rate | Duration |
 *   |---:|---:|---:|---:|---:|---:|---:|
 *   | 5 | 2 | 1 | 1 | 1 | 50.0% | 1.42s |
 *
 *   ## Failed and errored tests
 *   ### FAIL refund twice        then the file and duration, and the
 *   ```text                      findings (or the error) in a code block
 *   ...
 *   ## Passed tests              a table: test, file, duration
 *   ## Skipped tests             a table: test, file
 *   ## Dynamic tests             per dynamic test (seed 002): its outcome and
 *                                a table of its checkpoints (required, the
 *                                turn it was reached at, evidence)
 *   ## Stability                 a table, for repeated tests (--repeat)
 *
 * Test names, files and agent text are untrusted. In table cells and
 * headings the characters Markdown acts on (\ ` * _ [ ] < > | ~ &) are
 * backslash-escaped, a line break is <br> in a cell and a space in a
 * heading, and controls show as \uXXXX; so a name cannot end a cell, start
 * a link or inject HTML. Findings and errors go in a fenced block whose
 * fence is longer than any run of backticks inside it, so no text can
 * close it early.
 */
#include <string.h>
#include <time.h>

#include "ananke/report.h"
#include "core/buf.h"
#include "report/metrics.h"
#include "report/report_util.h"
#include "report/rpt_toolcov.h"

/* The findings of one test are cut to this many bytes per text: a report
 * is for reading, and a pull request comment has a size limit. */
#define MD_CUT 2000

enum { IN_HEADING = 0, IN_CELL = 1 }; /* an_rpt_escape()'s `attr` switch */

static bool acts_in_markdown(uint32_t c)
{
    return c && strchr("\\`*_[]<>|~&", (int)c) != NULL;
}

static void md_char(struct an_buf *b, uint32_t c, const char *s, size_t k, bool cell)
{
    if (c < 0x80 && acts_in_markdown(c)) {
        an_buf_putc(b, '\\');
        an_buf_putc(b, (char)c);
    } else if (c == '\n') {
        an_buf_puts(b, cell ? "<br>" : " ");
    } else if (c == '\t') {
        an_buf_putc(b, ' ');
    } else if (c == '\r') {
        /* a CRLF's \n already breaks the line */
    } else if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
               (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069)) {
        an_buf_printf(b, "\\u%04x", (unsigned)c);
    } else {
        an_buf_append(b, s, k);
    }
}

static void inline_text(struct an_buf *b, const char *s, bool cell)
{
    an_rpt_escape(b, s, md_char, cell);
}

static void title(struct an_buf *b, const struct an_test_result *t, bool cell)
{
    struct an_buf raw = AN_BUF_INIT;
    an_rpt_title(&raw, t);
    for (size_t i = 0; i < t->ntags; i++) /* the tags, after the name */
        an_buf_printf(&raw, "%s%s", i ? ", " : " (tags: ", t->tags[i]);
    if (t->ntags)
        an_buf_putc(&raw, ')');
    inline_text(b, an_buf_cstr(&raw), cell);
    an_buf_release(&raw);
}

static void ms(struct an_buf *b, int64_t v)
{
    char d[32];
    an_buf_puts(b, an_rpt_ms(d, sizeof d, v));
}

static int64_t duration(const struct an_test_result *t)
{
    return t->end_ms > t->start_ms ? t->end_ms - t->start_ms : 0;
}

/* `text` in a fenced block: the fence is one backtick longer than the
 * longest run inside (at least three), which CommonMark requires of the
 * closing fence, so nothing inside can end the block. */
static void fenced(struct an_buf *b, const char *text)
{
    size_t longest = 0, run = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    size_t n = longest >= 3 ? longest + 1 : 3;
    for (size_t i = 0; i < n; i++)
        an_buf_putc(b, '`');
    an_buf_puts(b, "text\n");
    an_buf_puts(b, text);
    if (b->len && b->data[b->len - 1] != '\n')
        an_buf_putc(b, '\n');
    for (size_t i = 0; i < n; i++)
        an_buf_putc(b, '`');
    an_buf_puts(b, "\n\n");
}

/* Every finding as plain lines (the JUnit failure text, made safe). */
static void findings_text(struct an_buf *txt, const struct an_findings *fs)
{
    for (size_t i = 0; i < fs->n; i++) {
        const struct an_finding *f = &fs->v[i];
        if (f->turn >= 0)
            an_buf_printf(txt, "turn %d: ", f->turn + 1);
        else
            an_buf_puts(txt, "test: ");
        an_rpt_str(txt, f->assertion ? f->assertion : f->kind, MD_CUT, "  ", 0);
        an_buf_putc(txt, '\n');
        if (f->expected) {
            an_buf_puts(txt, "  expected: ");
            an_rpt_str(txt, f->expected, MD_CUT, "  ", 0);
            an_buf_putc(txt, '\n');
        }
        if (f->actual) {
            an_buf_puts(txt, "  actual: ");
            an_rpt_str(txt, f->actual, MD_CUT, "  ", 0);
            an_buf_putc(txt, '\n');
        }
        if (f->detail && f->detail[0]) {
            an_buf_puts(txt, "  ");
            an_rpt_str(txt, f->detail, MD_CUT, "  ", 0);
            an_buf_putc(txt, '\n');
        }
        if (f->file) {
            an_buf_puts(txt, "  at ");
            an_rpt_str(txt, f->file, 0, NULL, 0);
            if (f->line)
                an_buf_printf(txt, ":%u", f->line);
            if (f->line && f->col)
                an_buf_printf(txt, ":%u", f->col);
            an_buf_putc(txt, '\n');
        }
    }
}

static void runs_line(struct an_buf *b, const struct an_run_result *r,
                      const struct an_test_result *t)
{
    an_buf_printf(b, "%u/%u runs passed (", t->passes, t->runs);
    if (t->max_runs) /* --repeat auto: how many it might have taken */
        an_buf_printf(b, "adaptive, at most %u; ", t->max_runs);
    an_buf_printf(b, "%.1f%%, %s)", an_test_pass_rate(t) * 100.0,
                  an_stability_name(an_stability_of(t->passes, t->runs)));
    struct an_test_stats st;
    if (an_test_stats(t, r->pass_k, r->confidence, &st)) {
        an_buf_puts(b, " \xC2\xB7 ");
        an_rpt_stats_line(b, &st);
    }
}

static void not_passed(struct an_buf *b, const struct an_run_result *r,
                       const struct an_test_result *t)
{
    struct an_buf txt = AN_BUF_INIT;
    an_buf_puts(b, t->expect == AN_EXPECT_FAILED         ? "### XFAIL "
                   : t->expect == AN_EXPECT_STALE        ? "### STALE "
                   : t->status == AN_STATUS_FAIL         ? "### FAIL "
                   : t->status == AN_STATUS_INCONCLUSIVE ? "### INCONCLUSIVE "
                                                         : "### ERROR ");
    title(b, t, IN_HEADING);
    an_buf_puts(b, "\n\n");
    if (t->file) {
        inline_text(b, t->file, IN_HEADING);
        an_buf_puts(b, " \xC2\xB7 "); /* · */
    }
    ms(b, duration(t));
    if (t->timed_out)
        an_buf_puts(b, " \xC2\xB7 timed out");
    if (t->runs > 1 || t->max_runs) {
        an_buf_puts(b, " \xC2\xB7 ");
        runs_line(b, r, t);
    }
    struct an_metrics m;
    an_metrics_of(t, &m);
    an_buf_puts(b, " \xC2\xB7 ");
    an_metrics_line(&txt, &m);
    inline_text(b, an_buf_cstr(&txt), IN_HEADING);
    an_buf_reset(&txt);
    an_buf_puts(b, "\n\n");
    if (t->expect) {
        an_buf_puts(b, t->expect == AN_EXPECT_FAILED
                           ? "Expected failure (listed in --expected-failures; it does not fail "
                             "the run)"
                           : "Stale expected failure: it passed, yet --expected-failures lists "
                             "it; take it off the list");
        if (t->expect_reason) {
            an_buf_puts(b, ": ");
            inline_text(b, t->expect_reason, IN_HEADING);
        }
        an_buf_puts(b, ".\n\n");
    }
    if (t->expect == AN_EXPECT_STALE) {
        an_buf_release(&txt);
        return;
    }
    if (t->status == AN_STATUS_ERROR) {
        const char *msg = t->error ? t->error : an_code_desc((enum an_code)t->error_code);
        if (t->error_turn >= 0)
            an_buf_printf(&txt, "turn %d: ", t->error_turn + 1);
        an_rpt_str(&txt, msg, MD_CUT, "  ", 0);
        an_buf_printf(&txt, " [%s]\n", an_code_name((enum an_code)t->error_code));
    }
    findings_text(&txt, &t->findings);
    an_rpt_judgements(&txt, t, "", MD_CUT, true);
    an_rpt_not_run(&txt, &t->transcript, "");
    if (!txt.len)
        an_buf_puts(&txt, "failed\n");
    fenced(b, an_buf_cstr(&txt));
    an_buf_release(&txt);
}

static void summary(struct an_buf *b, const struct an_run_result *r)
{
    struct an_counts c = an_run_result_counts(r);
    char ts[40];
    struct tm tm;
    time_t t = (time_t)(r->start_ms / 1000);
    an_buf_puts(b, "# ananke test report\n\n"
                   "| Total | Passed | Failed | Skipped | Errors | Pass rate | Duration |\n"
                   "|---:|---:|---:|---:|---:|---:|---:|\n");
    an_buf_printf(b, "| %zu | %zu | %zu | %zu | %zu | %.1f%% | ", r->ntests, c.passed, c.failed,
                  c.skipped, c.errors, an_counts_pass_rate(&c) * 100.0);
    ms(b, r->end_ms - r->start_ms);
    an_buf_puts(b, " |\n\n");
    if (r->start_ms > 0 && gmtime_r(&t, &tm) &&
        strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S UTC", &tm))
        an_buf_printf(b, "Started %s", ts);
    else
        an_buf_puts(b, "Started at an unknown time");
    if (r->config_path) {
        an_buf_puts(b, " with ");
        inline_text(b, r->config_path, IN_HEADING);
    }
    an_buf_puts(b, ".");
    if (c.skipped)
        an_buf_puts(b, " Skipped tests are left out of the pass rate.");
    if (c.timeouts)
        an_buf_printf(b, " %zu of the errors timed out.", c.timeouts);
    if (c.xfailed)
        an_buf_printf(b, " %zu of the failures %s expected (--expected-failures).", c.xfailed,
                      c.xfailed == 1 ? "was" : "were");
    if (c.stale)
        an_buf_printf(b, " %zu listed expected failure%s passed (stale).", c.stale,
                      c.stale == 1 ? "" : "s");
    if (r->not_run)
        an_buf_printf(b, " %zu test%s not run (stopped early).", r->not_run,
                      r->not_run == 1 ? " was" : "s were");
    if (r->adaptive)
        an_buf_printf(b,
                      " Adaptive repeats (at most %u runs a test, %.3g confidence): %zu "
                      "inconclusive, %zu runs saved.",
                      r->max_repeats, r->confidence, c.inconclusive, an_run_result_runs_saved(r));
    if (c.flaky)
        an_buf_printf(b, " %zu repeated test%s flaky (%s).", c.flaky,
                      c.flaky == 1 ? " was" : "s were",
                      r->fail_on_flaky ? "--fail-on-flaky: the run fails" : "the runs disagree");
    size_t calls = an_run_result_agent_calls(r);
    an_buf_printf(b, " %zu agent call%s.", calls, calls == 1 ? "" : "s");
    an_buf_puts(b, "\n\n");
}

static void cell_cut(struct an_buf *b, const char *s);

static void table_of(struct an_buf *b, const struct an_run_result *r, enum an_status st)
{
    bool any = false;
    for (size_t i = 0; i < r->ntests && !any; i++)
        any = r->tests[i].status == st;
    if (!any)
        return;
    bool timed = st == AN_STATUS_PASS;
    an_buf_puts(b, timed ? "## Passed tests\n\n| Test | File | Duration | Tool calls | Turns | "
                           "TTFT | Tokens | Cost |\n|---|---|---:|---:|---:|---:|---:|---:|\n"
                         : "## Skipped tests\n\n| Test | File | Reason |\n|---|---|---|\n");
    for (size_t i = 0; i < r->ntests; i++) {
        const struct an_test_result *t = &r->tests[i];
        if (t->status != st)
            continue;
        an_buf_puts(b, "| ");
        title(b, t, IN_CELL);
        an_buf_puts(b, " | ");
        inline_text(b, t->file, IN_CELL);
        if (!timed) {
            an_buf_puts(b, " | ");
            cell_cut(b, t->skip_reason);
        }
        if (timed) {
            struct an_metrics m;
            an_metrics_of(t, &m);
            an_buf_puts(b, " | ");
            ms(b, duration(t));
            an_buf_printf(b, " | %zu | %zu | ", m.tool_calls, m.turns);
            if (m.ttft_ms >= 0) /* "-": not known */
                ms(b, m.ttft_ms);
            else
                an_buf_putc(b, '-');
            if (m.usage.has_total)
                an_buf_printf(b, " | %lld", (long long)m.usage.total);
            else
                an_buf_puts(b, " | -");
            if (m.usage.has_cost)
                an_buf_printf(b, " | %.6g", m.usage.cost);
            else
                an_buf_puts(b, " | -");
        }
        an_buf_puts(b, " |\n");
    }
    an_buf_putc(b, '\n');
}

/* Untrusted s in a table cell, cut to MD_CUT bytes; NULL: empty. */
static void cell_cut(struct an_buf *b, const char *s)
{
    struct an_buf tmp = AN_BUF_INIT;
    an_rpt_str(&tmp, s, MD_CUT, "", 0); /* line breaks kept: the cell makes them <br> */
    inline_text(b, an_buf_cstr(&tmp), IN_CELL);
    an_buf_release(&tmp);
}

static void dynamic(struct an_buf *b, const struct an_run_result *r)
{
    static const char *const word[] = {"PASS", "FAIL", "ERROR", "SKIP"};
    bool header = false;
    for (size_t i = 0; i < r->ntests; i++) {
        const struct an_test_result *t = &r->tests[i];
        const struct an_dynamic_result *d = t->dyn;
        struct an_buf raw = AN_BUF_INIT;
        if (!d)
            continue;
        if (!header)
            an_buf_puts(b, "## Dynamic tests\n\n");
        header = true;
        an_buf_puts(b, "### ");
        title(b, t, IN_HEADING);
        an_buf_printf(b, "\n\n%s \xC2\xB7 ", word[(unsigned)t->status < 4 ? t->status : 2]);
        an_rpt_dyn_outcome(&raw, t, MD_CUT);
        inline_text(b, an_buf_cstr(&raw), IN_HEADING);
        an_buf_puts(b, " \xC2\xB7 simulator ");
        inline_text(b, d->simulator ? d->simulator : "(unknown)", IN_HEADING);
        if (d->seed >= 0)
            an_buf_printf(b, ", seed %lld", (long long)d->seed);
        an_buf_puts(b, "\n\n");
        an_buf_release(&raw);
        if (!d->ncheckpoints)
            continue;
        an_buf_puts(b, "| Checkpoint | Required | Reached at turn | Evidence |\n"
                       "|---|---|---:|---|\n");
        for (size_t k = 0; k < d->ncheckpoints; k++) {
            const struct an_checkpoint_result *c = &d->checkpoints[k];
            an_buf_puts(b, "| ");
            cell_cut(b, c->id ? c->id : "?");
            if (c->description && c->description[0]) {
                an_buf_puts(b, ": ");
                cell_cut(b, c->description);
            }
            an_buf_printf(b, " | %s | ", c->required ? "yes" : "no");
            if (c->reached_at_turn >= 0)
                an_buf_printf(b, "%d", c->reached_at_turn + 1);
            else
                an_buf_puts(b, c->required ? "**missing**" : "not reached");
            an_buf_puts(b, " | ");
            cell_cut(b, c->evidence);
            an_buf_puts(b, " |\n");
        }
        an_buf_putc(b, '\n');
    }
}

static void stability(struct an_buf *b, const struct an_run_result *r)
{
    bool header = false;
    for (size_t i = 0; i < r->ntests; i++) {
        const struct an_test_result *t = &r->tests[i];
        if (t->runs < 2)
            continue;
        if (!header)
            an_buf_puts(b, "## Stability\n\n| Test | Runs | Passed | Pass rate | Stability "
                           "| Flaky | pass^k | pass@k | Interval |\n"
                           "|---|---:|---:|---:|---|---|---:|---:|---|\n");
        header = true;
        an_buf_puts(b, "| ");
        title(b, t, IN_CELL);
        an_buf_printf(b, " | %u | %u | %.1f%% | %s |", t->runs, t->passes,
                      an_test_pass_rate(t) * 100.0,
                      an_stability_name(an_stability_of(t->passes, t->runs)));
        struct an_test_stats st;
        if (!an_test_stats(t, r->pass_k, r->confidence, &st)) {
            an_buf_puts(b, " | | | | |\n");
            continue;
        }
        an_buf_printf(b, " %s | pass^%u ", st.flaky ? "**flaky**" : "no", st.k);
        an_rpt_pct(b, st.pass_hat_k);
        an_buf_printf(b, " | pass@%u ", st.k);
        an_rpt_pct(b, st.pass_at_k);
        an_buf_puts(b, " | ");
        an_rpt_ci(b, &st);
        an_buf_puts(b, " |\n");
    }
    if (header)
        an_buf_putc(b, '\n');
}

/* docs/tools.md "Tool coverage": a table per tool server, its tools in
 * listed order, then those called that it did not list. */
static void tool_coverage(struct an_buf *b, const json_t *cov)
{
    const char *name;
    json_t *s;
    if (!cov)
        return;
    an_buf_puts(b, "## Tool coverage\n\n");
    json_object_foreach((json_t *)cov, name, s)
    {
        struct rpt_cov_server v;
        rpt_cov_read(name, s, &v);
        an_buf_puts(b, "**");
        inline_text(b, name, IN_HEADING);
        an_buf_printf(b, "**: %zu of %zu tools called", v.ncovered, v.nexposed);
        if (v.has_ratio)
            an_buf_printf(b, " (%.0f%%)", v.ratio * 100);
        an_buf_printf(b, ", %lld call%s, %lld mocked.\n\n", v.calls, v.calls == 1 ? "" : "s",
                      v.mocked);
        an_buf_puts(b, "| Tool | Calls | Tests | Mocked | Argument keys |\n"
                       "|---|---:|---:|---:|---|\n");
        for (size_t i = 0; i < v.ntools; i++) {
            const struct rpt_cov_tool *t = &v.tools[i];
            an_buf_puts(b, "| ");
            cell_cut(b, t->name);
            if (!t->exposed)
                an_buf_puts(b, " (not listed)");
            an_buf_printf(b, " | %lld | %lld | %lld | ", t->calls, t->tests, t->mocked);
            size_t k;
            const json_t *key;
            json_array_foreach(t->keys, k, key)
            {
                if (k)
                    an_buf_puts(b, ", ");
                cell_cut(b, json_string_value(key));
            }
            an_buf_puts(b, " |\n");
        }
        an_buf_putc(b, '\n');
        rpt_cov_release(&v);
    }
}

int an_report_markdown(const struct an_run_result *r, const char *path, struct an_err *err)
{
    struct an_buf b = AN_BUF_INIT;
    summary(&b, r);
    bool header = false;
    for (size_t i = 0; i < r->ntests; i++) {
        const struct an_test_result *t = &r->tests[i];
        if (t->status != AN_STATUS_FAIL && t->status != AN_STATUS_ERROR &&
            t->status != AN_STATUS_INCONCLUSIVE && t->expect != AN_EXPECT_STALE)
            continue;
        if (!header)
            an_buf_puts(&b, "## Failed and errored tests\n\n");
        header = true;
        not_passed(&b, r, t);
    }
    table_of(&b, r, AN_STATUS_PASS);
    table_of(&b, r, AN_STATUS_SKIP);
    dynamic(&b, r);
    stability(&b, r);
    tool_coverage(&b, r->tool_coverage);
    if (!r->ntests)
        an_buf_puts(&b, "No tests were run.\n\n");
    /* every section ends in a blank line; the file ends in one newline */
    if (b.len >= 2 && b.data[b.len - 1] == '\n' && b.data[b.len - 2] == '\n')
        b.data[--b.len] = '\0';
    int rc = an_atomic_write(path, &b, err);
    an_buf_release(&b);
    return rc;
}
