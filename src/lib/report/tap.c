/*
 * TAP version 14 reporter (https://testanything.org/tap-version-14-specification.html):
 *
 *   TAP version 14
 *   1..3
 *   ok 1 - checkout flow
 *   not ok 2 - large refunds need an order lookup
 *     ---
 *     file: "failing/refund-policy.test.yaml"
 *     findings:
 *       - turn: 1
 *         assertion: "Tool \"issue_refund\" must be called after \"lookup_order\""
 *         ...
 *     ...
 *
 * One test point per test; a skipped test is "ok N - name # SKIP reason", a
 * failure --expected-failures lists is "not ok N - name # TODO expected
 * failure: reason" (TAP's own known-failure directive), and a listed test
 * that passed is "not ok" (stale). Every test that ran carries a YAML
 * diagnostic block: its metrics (report/metrics.h), and what failed. Every string in it is a
 * one-line double-quoted YAML scalar, and descriptions have their line breaks escaped, so no text
 * an agent produced can start a line of its own: a reply holding
 * "\nok 3" cannot forge a test point, a plan or a "Bail out!".
 *
 * A repeated test's block adds its runs and statistics (docs/statistics.md);
 * the stream ends with comments: the flaky tests, and "# agent calls: N".
 */
#include <math.h>
#include <string.h>

#include "ananke/report.h"
#include "core/buf.h"
#include "report/metrics.h"
#include "report/report_util.h"

static void yq_char(struct an_buf *b, uint32_t c, const char *s, size_t k, bool attr)
{
    (void)attr;
    if (c == '"' || c == '\\') {
        an_buf_putc(b, '\\');
        an_buf_putc(b, (char)c);
    } else if (c == '\n') {
        an_buf_puts(b, "\\n");
    } else if (c == '\t') {
        an_buf_puts(b, "\\t");
    } else if (c == '\r') {
        an_buf_puts(b, "\\r");
    } else if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
               (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0xFEFF ||
               c == 0xFFFE || c == 0xFFFF) {
        an_buf_printf(b, "\\u%04X", (unsigned)c);
    } else {
        an_buf_append(b, s, k);
    }
}

/* A double-quoted YAML scalar on one line. Controls, DEL, C1, line
 * separators, bidi overrides and the characters YAML refuses in a stream
 * (BOM, U+FFFE, U+FFFF) become escapes; invalid UTF-8 becomes U+FFFD. */
static void yq(struct an_buf *b, const char *s)
{
    an_buf_putc(b, '"');
    an_rpt_escape(b, s, yq_char, false);
    an_buf_putc(b, '"');
}

/* A test point description: TAP 14 reads an unescaped '#' as the start of
 * a directive (a test named "retry # TODO" would be skipped), so '#' and
 * '\' are escaped with '\'; the rest goes through an_rpt_text, which turns
 * line breaks and controls into visible escapes. */
static void desc(struct an_buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != '#' && s[i] != '\\')
            continue;
        an_rpt_text(b, s + start, i - start, 0, NULL, 0);
        if (i < n) {
            an_buf_putc(b, '\\');
            an_buf_putc(b, s[i]);
        }
        start = i + 1;
    }
}

static void findings(struct an_buf *b, const struct an_findings *fs)
{
    if (!fs->n)
        return;
    an_buf_puts(b, "  findings:\n");
    for (size_t i = 0; i < fs->n; i++) {
        const struct an_finding *f = &fs->v[i];
        if (f->turn >= 0)
            an_buf_printf(b, "    - turn: %d\n", f->turn + 1);
        else
            an_buf_puts(b, "    - turn: null\n");
        an_buf_puts(b, "      kind: ");
        yq(b, f->kind);
        an_buf_puts(b, "\n      assertion: ");
        yq(b, f->assertion ? f->assertion : f->kind);
        an_buf_puts(b, "\n      expected: ");
        yq(b, f->expected);
        an_buf_puts(b, "\n      actual: ");
        yq(b, f->actual);
        an_buf_putc(b, '\n');
        if (f->detail && f->detail[0]) {
            an_buf_puts(b, "      detail: ");
            yq(b, f->detail);
            an_buf_putc(b, '\n');
        }
        if (f->file) {
            struct an_buf at = AN_BUF_INIT;
            an_buf_puts(&at, f->file);
            if (f->line)
                an_buf_printf(&at, ":%u", f->line);
            if (f->line && f->col)
                an_buf_printf(&at, ":%u", f->col);
            an_buf_puts(b, "      at: ");
            yq(b, an_buf_cstr(&at));
            an_buf_putc(b, '\n');
            an_buf_release(&at);
        }
    }
}

/* "  tags: [\"a\", \"b\"]" when the test has tags. */
static void tags(struct an_buf *b, const struct an_test_result *t)
{
    if (!t->ntags)
        return;
    an_buf_puts(b, "  tags: [");
    for (size_t i = 0; i < t->ntags; i++) {
        if (i)
            an_buf_puts(b, ", ");
        yq(b, t->tags[i]);
    }
    an_buf_puts(b, "]\n");
}

/* A repeated test's statistics in its block (null: no estimate, k > runs). */
static void stats_block(struct an_buf *b, const struct an_run_result *r,
                        const struct an_test_result *t)
{
    struct an_test_stats s;
    if (!an_test_stats(t, r->pass_k, r->confidence, &s))
        return;
    an_buf_printf(b, "  k: %u\n", s.k);
    if (isfinite(s.pass_hat_k))
        an_buf_printf(b, "  pass_at_k: %.4g\n  pass_hat_k: %.4g\n", s.pass_at_k, s.pass_hat_k);
    else
        an_buf_puts(b, "  pass_at_k: null\n  pass_hat_k: null\n");
    an_buf_printf(b,
                  "  ci_low: %.4g\n  ci_high: %.4g\n  ci_method: \"%s\"\n  confidence: %.4g\n"
                  "  flaky: %s\n",
                  s.ci_low, s.ci_high, s.ci_method, s.confidence, s.flaky ? "true" : "false");
}

static void diagnostics(struct an_buf *b, const struct an_run_result *r,
                        const struct an_test_result *t)
{
    bool repeated = t->runs > 0;
    if (t->status == AN_STATUS_SKIP) {
        if (t->ntags) { /* a skipped test: nothing ran, only what it is */
            an_buf_puts(b, "  ---\n  file: ");
            yq(b, t->file);
            an_buf_putc(b, '\n');
            tags(b, t);
            an_buf_puts(b, "  ...\n");
        }
        return;
    }
    struct an_metrics m;
    an_metrics_of(t, &m);
    an_buf_puts(b, "  ---\n  file: ");
    yq(b, t->file);
    an_buf_putc(b, '\n');
    tags(b, t);
    an_buf_printf(b, "  duration_ms: %lld\n", (long long)m.duration_ms);
    an_buf_printf(b, "  tool_calls: %zu\n  turns: %zu\n", m.tool_calls, m.turns);
    if (m.ttft_ms >= 0)
        an_buf_printf(b, "  ttft_ms: %lld\n", (long long)m.ttft_ms);
    if (m.usage.has_input)
        an_buf_printf(b, "  input_tokens: %lld\n", (long long)m.usage.input);
    if (m.usage.has_output)
        an_buf_printf(b, "  output_tokens: %lld\n", (long long)m.usage.output);
    if (m.usage.has_total)
        an_buf_printf(b, "  total_tokens: %lld\n", (long long)m.usage.total);
    if (m.usage.has_cost)
        an_buf_printf(b, "  cost: %.6g\n", m.usage.cost);
    if (t->expect) {
        an_buf_puts(b, "  expected_failure: ");
        yq(b, t->expect == AN_EXPECT_FAILED ? "failed" : "stale");
        an_buf_putc(b, '\n');
    }
    if (repeated) {
        /* %.4g keeps 1 and 0.8 short and 2/3 readable (0.6667) */
        an_buf_printf(b, "  runs: %u\n  passes: %u\n  pass_rate: %.4g\n  stability: ", t->runs,
                      t->passes, an_test_pass_rate(t));
        yq(b, an_stability_name(an_stability_of(t->passes, t->runs)));
        an_buf_putc(b, '\n');
        stats_block(b, r, t);
    }
    if (t->max_runs) /* --repeat auto */
        an_buf_printf(b, "  max_runs: %u\n", t->max_runs);
    if (t->status == AN_STATUS_INCONCLUSIVE) /* not ok, and why: no verdict */
        an_buf_puts(b, "  verdict: inconclusive\n");
    if (t->status == AN_STATUS_ERROR) {
        an_buf_puts(b, "  error:\n    code: ");
        yq(b, an_code_name((enum an_code)t->error_code));
        an_buf_puts(b, "\n    message: ");
        yq(b, t->error ? t->error : an_code_desc((enum an_code)t->error_code));
        if (t->error_turn >= 0)
            an_buf_printf(b, "\n    turn: %d\n", t->error_turn + 1);
        else
            an_buf_puts(b, "\n    turn: null\n");
    }
    findings(b, &t->findings);
    an_buf_puts(b, "  ...\n");
}

static void document(struct an_buf *b, const struct an_run_result *r)
{
    an_buf_printf(b, "TAP version 14\n1..%zu\n", r->ntests);
    for (size_t i = 0; i < r->ntests; i++) {
        const struct an_test_result *t = &r->tests[i];
        bool ok = (t->status == AN_STATUS_PASS && t->expect != AN_EXPECT_STALE) ||
                  t->status == AN_STATUS_SKIP;
        an_buf_printf(b, "%s %zu - ", ok ? "ok" : "not ok", i + 1);
        desc(b, t->name ? t->name : t->file);
        /* the directive: desc() escaped every '#' of the name and of the
         * reason, so this is the only one */
        if (t->status == AN_STATUS_SKIP) {
            an_buf_puts(b, " # SKIP");
            if (t->skip_reason) {
                an_buf_putc(b, ' ');
                desc(b, t->skip_reason);
            }
        } else if (t->expect == AN_EXPECT_FAILED) {
            an_buf_puts(b, " # TODO expected failure");
            if (t->expect_reason) {
                an_buf_puts(b, ": ");
                desc(b, t->expect_reason);
            }
        }
        an_buf_putc(b, '\n');
        diagnostics(b, r, t);
    }
    if (r->not_run)
        an_buf_printf(b, "# %zu test%s not run (--fail-fast)\n", r->not_run,
                      r->not_run == 1 ? "" : "s");
    struct an_counts c = an_run_result_counts(r);
    if (c.flaky)
        an_buf_printf(b, "# %zu flaky test%s (runs that disagree)%s\n", c.flaky,
                      c.flaky == 1 ? "" : "s",
                      r->fail_on_flaky ? ": --fail-on-flaky fails the run" : "");
    an_buf_printf(b, "# agent calls: %zu\n", an_run_result_agent_calls(r));
}

int an_report_tap(const struct an_run_result *r, const char *path, struct an_err *err)
{
    struct an_buf b = AN_BUF_INIT;
    document(&b, r);
    int rc = an_atomic_write(path, &b, err);
    an_buf_release(&b);
    return rc;
}
