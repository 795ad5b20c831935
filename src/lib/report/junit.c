/*
 * JUnit XML reporter, in the shape GitLab, Jenkins and the GitHub test
 * reporters read:
 *
 *   <testsuites name="ananke" tests= failures= errors= skipped= time=>
 *     <testsuite name="FILE" tests= failures= errors= skipped= time= timestamp=>
 *       <properties><property name="ananke.agent_calls" value="N"/></properties>
 *                                  the runs of the file's tests (summed over the
 *                                  suites: the run's agent calls)
 *       <testcase name="TEST" classname="dir.file" file="FILE" time="0.812">
 *         <failure message="first assertion" type="assertion">all findings</failure>
 *         <error message="what broke" type="AN_ECONNECT">turn, evidence</error>
 *         <properties><property name="ananke.tag" value="smoke"/> ...  one per tag,
 *           the metrics, and for a repeated test its runs and statistics
 *           (ananke.runs, .passes, .pass_rate, .stability, .k, .pass_at_k,
 *           .pass_hat_k, .ci_low, .ci_high, .ci_method, .confidence, .flaky)
 *         <skipped message="REASON"/>            skip: "REASON" (or "skip: true")
 *         <system-out>per-turn transcript summary</system-out>
 *
 * One <testsuite> per test file, in the order files first appear. A failed
 * assertion is a <failure>, a broken run an <error>: CI shows them apart.
 *
 * A dynamic test's system-out is its simulator, outcome, each turn with the
 * checkpoints reached there and the simulator's reasoning, then every
 * checkpoint (reached at turn N, missing, or not reached when optional).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ananke/report.h"
#include "core/buf.h"
#include "report/metrics.h"
#include "report/report_util.h"

/* Agent texts and tool results in system-out are cut to this many bytes:
 * CI test viewers load the whole file into a page and choke on megabytes. */
#define JUNIT_CUT 2000

static void xml(struct an_buf *b, const char *s, bool attr)
{
    an_rpt_xml(b, s, attr, true);
}

/* "tests/checkout.test.yaml" → "tests.checkout": the extension and the
 * ".test" convention say nothing a CI tree view needs. */
static void classname(struct an_buf *b, const char *file)
{
    struct an_buf tmp = AN_BUF_INIT;
    const char *s = file ? file : "";
    while (s[0] == '.' && s[1] == '/')
        s += 2;
    while (*s == '/')
        s++;
    size_t n = strlen(s);
    const char *base = strrchr(s, '/');
    base = base ? base + 1 : s;
    const char *dot = strrchr(base, '.');
    if (dot && dot > base)
        n = (size_t)(dot - s);
    if (n > 5 && !memcmp(s + n - 5, ".test", 5) && s + n - 5 > base)
        n -= 5;
    for (size_t i = 0; i < n; i++)
        an_buf_putc(&tmp, s[i] == '/' ? '.' : s[i]);
    xml(b, an_buf_cstr(&tmp), true);
    an_buf_release(&tmp);
}

static void timestamp(struct an_buf *b, int64_t ms)
{
    char ts[32];
    struct tm tm;
    time_t t = (time_t)(ms / 1000);
    if (ms <= 0 || !gmtime_r(&t, &tm) || !strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm))
        return;
    an_buf_printf(b, " timestamp=\"%s\"", ts);
}

/* Every finding, as the console shows it, as plain text. */
static void findings_text(struct an_buf *txt, const struct an_findings *fs)
{
    for (size_t i = 0; i < fs->n; i++) {
        const struct an_finding *f = &fs->v[i];
        if (f->turn >= 0)
            an_buf_printf(txt, "turn %d: ", f->turn + 1);
        else
            an_buf_puts(txt, "test: ");
        an_rpt_str(txt, f->assertion ? f->assertion : f->kind, 0, "  ", 0);
        an_buf_putc(txt, '\n');
        if (f->expected) {
            an_buf_puts(txt, "  expected: ");
            an_rpt_str(txt, f->expected, 0, "  ", 0);
            an_buf_putc(txt, '\n');
        }
        if (f->actual) {
            an_buf_puts(txt, "  actual: ");
            an_rpt_str(txt, f->actual, 0, "  ", 0);
            an_buf_putc(txt, '\n');
        }
        if (f->detail && f->detail[0]) {
            an_buf_puts(txt, "  ");
            an_rpt_str(txt, f->detail, 0, "  ", 0);
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

/* A failure; one --expected-failures lists is <skipped> with the same
 * text, so CI counts it apart and still shows why it fails. */
static void failure(struct an_buf *b, const struct an_test_result *t)
{
    const struct an_findings *fs = &t->findings;
    bool expected = t->expect == AN_EXPECT_FAILED;
    struct an_buf txt = AN_BUF_INIT;
    an_buf_puts(b, expected ? "      <skipped message=\"expected failure"
                            : "      <failure message=\"");
    if (expected && t->expect_reason) {
        an_buf_puts(b, ": ");
        xml(b, t->expect_reason, true);
    } else if (expected) {
        ;
    } else if (fs->n) {
        xml(b, fs->v[0].assertion ? fs->v[0].assertion : fs->v[0].kind, true);
    } else {
        an_buf_puts(b, "failed");
    }
    an_buf_puts(b, expected ? "\">" : "\" type=\"assertion\">");
    findings_text(&txt, fs);
    an_rpt_not_run(&txt, &t->transcript, "");
    xml(b, an_buf_cstr(&txt), false);
    an_buf_puts(b, expected ? "</skipped>\n" : "</failure>\n");
    an_buf_release(&txt);
}

/* --repeat auto could not decide: a failure of its own type, so CI that
 * reads only failures still sees it and a person can tell it apart. */
static void inconclusive(struct an_buf *b, const struct an_test_result *t)
{
    an_buf_printf(b,
                  "      <failure message=\"inconclusive: %u of %u runs passed; %u runs could "
                  "not decide at the asked confidence\" type=\"inconclusive\">",
                  t->passes, t->runs, t->runs);
    struct an_buf txt = AN_BUF_INIT;
    findings_text(&txt, &t->findings);
    xml(b, an_buf_cstr(&txt), false);
    an_buf_puts(b, "</failure>\n");
    an_buf_release(&txt);
}

static void stale(struct an_buf *b, const struct an_test_result *t)
{
    an_buf_puts(b, "      <failure message=\"stale expected failure: the test passed; take it "
                   "off the --expected-failures list\" type=\"stale\">");
    if (t->expect_reason) {
        an_buf_puts(b, "listed as: ");
        xml(b, t->expect_reason, false);
    }
    an_buf_puts(b, "</failure>\n");
}

/* What every report shows of a test (report/metrics.h), and a repeated
 * test's runs: properties of its testcase. */
/* One <property name="ananke.tag"> per tag (alone in <properties> when
 * `whole`: a skipped test has no metrics). */
static void tag_properties(struct an_buf *b, const struct an_test_result *t, bool whole)
{
    if (whole)
        an_buf_puts(b, "      <properties>\n");
    for (size_t i = 0; i < t->ntags; i++) {
        an_buf_puts(b, "        <property name=\"ananke.tag\" value=\"");
        xml(b, t->tags[i], true);
        an_buf_puts(b, "\"/>\n");
    }
    if (whole)
        an_buf_puts(b, "      </properties>\n");
}

/* <skipped message="REASON"/>: the reason `skip:` gave, else "skip: true". */
static void skipped(struct an_buf *b, const struct an_test_result *t)
{
    an_buf_puts(b, "      <skipped message=\"");
    xml(b, t->skip_reason ? t->skip_reason : "skip: true", true);
    an_buf_puts(b, "\"/>\n");
}

/* A repeated test's statistics: one property each (rpt_stats.h's numbers,
 * unrounded; an estimate that does not exist, k > runs, is left out). */
static void stats_properties(struct an_buf *b, const struct an_run_result *r,
                             const struct an_test_result *t)
{
    struct an_test_stats s;
    if (!an_test_stats(t, r->pass_k, r->confidence, &s))
        return;
#define PROP(name, fmt, v)                                                                         \
    an_buf_printf(b, "        <property name=\"ananke." name "\" value=\"" fmt "\"/>\n", v)
    PROP("k", "%u", s.k);
    if (isfinite(s.pass_hat_k)) {
        PROP("pass_at_k", "%.6g", s.pass_at_k);
        PROP("pass_hat_k", "%.6g", s.pass_hat_k);
    }
    PROP("ci_low", "%.6g", s.ci_low);
    PROP("ci_high", "%.6g", s.ci_high);
    PROP("ci_method", "%s", s.ci_method);
    PROP("confidence", "%.6g", s.confidence);
    PROP("flaky", "%s", s.flaky ? "true" : "false");
#undef PROP
}

static void properties(struct an_buf *b, const struct an_run_result *r,
                       const struct an_test_result *t)
{
    struct an_metrics m;
    an_metrics_of(t, &m);
    an_buf_puts(b, "      <properties>\n");
    tag_properties(b, t, false);
#define PROP(name, fmt, v)                                                                         \
    an_buf_printf(b, "        <property name=\"ananke." name "\" value=\"" fmt "\"/>\n", v)
    PROP("tool_calls", "%zu", m.tool_calls);
    PROP("turns", "%zu", m.turns);
    if (m.ttft_ms >= 0)
        PROP("ttft_ms", "%lld", (long long)m.ttft_ms);
    if (m.usage.has_input)
        PROP("input_tokens", "%lld", (long long)m.usage.input);
    if (m.usage.has_output)
        PROP("output_tokens", "%lld", (long long)m.usage.output);
    if (m.usage.has_total)
        PROP("total_tokens", "%lld", (long long)m.usage.total);
    if (m.usage.has_cost)
        PROP("cost", "%.6g", m.usage.cost);
    if (t->runs > 1) {
        /* a repeated test stays one testcase; its runs are properties */
        PROP("runs", "%u", t->runs);
        PROP("passes", "%u", t->passes);
        PROP("pass_rate", "%.3f", an_test_pass_rate(t));
        PROP("stability", "%s", an_stability_name(an_stability_of(t->passes, t->runs)));
    }
#undef PROP
    stats_properties(b, r, t);
    if (t->expect) {
        an_buf_printf(b, "        <property name=\"ananke.expected_failure\" value=\"%s",
                      t->expect == AN_EXPECT_FAILED ? "failed" : "stale");
        if (t->expect_reason) {
            an_buf_puts(b, ": ");
            xml(b, t->expect_reason, true);
        }
        an_buf_puts(b, "\"/>\n");
    }
    an_buf_puts(b, "      </properties>\n");
}

static void broken(struct an_buf *b, const struct an_test_result *t)
{
    const char *msg = t->error ? t->error : an_code_desc((enum an_code)t->error_code);
    const struct an_transcript *tr = &t->transcript;
    struct an_buf txt = AN_BUF_INIT;
    an_buf_puts(b, "      <error message=\"");
    an_rpt_str(&txt, msg, JUNIT_CUT, NULL, 0);
    xml(b, an_buf_cstr(&txt), true);
    an_buf_reset(&txt);
    an_buf_puts(b, "\" type=\"");
    xml(b, an_code_name((enum an_code)t->error_code), true);
    an_buf_puts(b, "\">");
    if (t->error_turn >= 0)
        an_buf_printf(&txt, "turn %d: ", t->error_turn + 1);
    an_rpt_str(&txt, msg, 0, "  ", 0);
    an_buf_putc(&txt, '\n');
    if (t->error_turn >= 0 && (size_t)t->error_turn < tr->nturns) {
        an_buf_puts(&txt, "captured before it broke:\n");
        an_rpt_turn_evidence(&txt, tr, (size_t)t->error_turn, "  ", JUNIT_CUT, false);
    }
    /* findings from turns before the break: a testcase holds a <failure> or
     * an <error>, not both, so they travel in the error's text */
    findings_text(&txt, &t->findings);
    an_rpt_not_run(&txt, tr, "");
    xml(b, an_buf_cstr(&txt), false);
    an_buf_puts(b, "</error>\n");
    an_buf_release(&txt);
}

static void system_out(struct an_buf *b, const struct an_test_result *t)
{
    struct an_buf txt = AN_BUF_INIT;
    if (t->nvar_names) {
        an_buf_puts(&txt, "variables: ");
        for (size_t i = 0; i < t->nvar_names; i++) {
            if (i)
                an_buf_puts(&txt, ", ");
            an_rpt_str(&txt, t->var_names[i], 0, NULL, 0);
        }
        an_buf_putc(&txt, '\n');
    }
    if (t->dyn) /* the conversation with its checkpoints, then all of them */
        an_rpt_dyn_text(&txt, t, "", JUNIT_CUT);
    else
        for (size_t i = 0; i < t->transcript.nturns; i++)
            an_rpt_turn_block(&txt, &t->transcript, i, "", JUNIT_CUT);
    an_rpt_judgements(&txt, t, "", JUNIT_CUT, true);
    if (txt.len) {
        an_buf_puts(b, "      <system-out>");
        xml(b, an_buf_cstr(&txt), false);
        an_buf_puts(b, "</system-out>\n");
    }
    an_buf_release(&txt);
}

static void testcase(struct an_buf *b, const struct an_run_result *r,
                     const struct an_test_result *t)
{
    an_buf_puts(b, "    <testcase name=\"");
    xml(b, t->name, true);
    an_buf_puts(b, "\" classname=\"");
    classname(b, t->file);
    an_buf_puts(b, "\" file=\"");
    xml(b, t->file, true);
    an_buf_printf(b, "\" time=\"%.3f\">\n", an_rpt_secs(t->end_ms - t->start_ms));
    if (t->status != AN_STATUS_SKIP)
        properties(b, r, t);
    else if (t->ntags)
        tag_properties(b, t, true);
    if (t->expect == AN_EXPECT_STALE)
        stale(b, t);
    else if (t->status == AN_STATUS_FAIL)
        failure(b, t);
    else if (t->status == AN_STATUS_INCONCLUSIVE)
        inconclusive(b, t);
    else if (t->status == AN_STATUS_ERROR)
        broken(b, t);
    else if (t->status == AN_STATUS_SKIP)
        skipped(b, t);
    system_out(b, t);
    an_buf_puts(b, "    </testcase>\n");
}

static bool same_file(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* A test by its file; sorted by file (none first), then in run order. */
struct member {
    const char *file;
    size_t i;
};

static int by_file(const void *x, const void *y)
{
    const struct member *p = x, *q = y;
    int c = p->file && q->file ? strcmp(p->file, q->file) : (p->file != NULL) - (q->file != NULL);
    return c ? c : (p->i > q->i) - (p->i < q->i);
}

/* A file's tests, m[from .. from + n); first: its first test's index. */
struct suite {
    size_t first, from, n;
};

static int by_first(const void *x, const void *y)
{
    const struct suite *p = x, *q = y;
    return (p->first > q->first) - (p->first < q->first);
}

static void suite(struct an_buf *b, const struct an_run_result *r, const struct member *m, size_t n)
{
    const char *file = m[0].file;
    size_t nf = 0, ne = 0, ns = 0, calls = 0;
    int64_t ms = 0;
    for (size_t k = 0; k < n; k++) {
        const struct an_test_result *t = &r->tests[m[k].i];
        bool xfail = t->expect == AN_EXPECT_FAILED; /* written as <skipped> */
        nf += (t->status == AN_STATUS_FAIL && !xfail) || t->expect == AN_EXPECT_STALE ||
              t->status == AN_STATUS_INCONCLUSIVE;
        ne += t->status == AN_STATUS_ERROR;
        ns += t->status == AN_STATUS_SKIP || xfail;
        ms += t->end_ms > t->start_ms ? t->end_ms - t->start_ms : 0;
        calls += t->status == AN_STATUS_SKIP ? 0 : t->runs ? t->runs : 1;
    }
    an_buf_puts(b, "  <testsuite name=\"");
    xml(b, file ? file : "(unknown)", true);
    an_buf_printf(b,
                  "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
                  "time=\"%.3f\"",
                  n, nf, ne, ns, an_rpt_secs(ms));
    timestamp(b, r->tests[m[0].i].start_ms);
    an_buf_printf(b,
                  ">\n      <properties>\n        <property name=\"ananke.agent_calls\" "
                  "value=\"%zu\"/>\n      </properties>\n",
                  calls);
    for (size_t k = 0; k < n; k++)
        testcase(b, r, &r->tests[m[k].i]);
    an_buf_puts(b, "  </testsuite>\n");
}

/* The document into fp, a suite at a time through b: the whole of it in
 * memory was 8.7 MB, up to twice that while it grew, for 10,000 tests. */
static void document(FILE *fp, struct an_buf *b, const struct an_run_result *r)
{
    struct an_counts c = an_run_result_counts(r);
    an_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    an_buf_printf(b,
                  "<testsuites name=\"ananke\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
                  "skipped=\"%zu\" time=\"%.3f\">\n",
                  r->ntests, c.failed - c.xfailed + c.stale + c.inconclusive, c.errors,
                  c.skipped + c.xfailed, an_rpt_secs(r->end_ms - r->start_ms));
    /* One suite per file, in the order files first appear, its tests in
     * run order: the tests sorted by file, then the files by their first
     * test (comparing each test's file with every earlier one's was
     * quadratic in tests: 0.9 s of a 10,000-test run with a file each) */
    struct member *m = an_xcalloc(r->ntests + 1, sizeof *m);
    struct suite *s = an_xcalloc(r->ntests + 1, sizeof *s);
    for (size_t i = 0; i < r->ntests; i++)
        m[i] = (struct member){r->tests[i].file, i};
    qsort(m, r->ntests, sizeof *m, by_file);
    size_t ns = 0;
    for (size_t i = 0; i < r->ntests; i++) {
        if (i && same_file(m[i].file, m[i - 1].file))
            s[ns - 1].n++;
        else
            s[ns++] = (struct suite){m[i].i, i, 1};
    }
    qsort(s, ns, sizeof *s, by_first);
    for (size_t k = 0; k < ns; k++) {
        suite(b, r, m + s[k].from, s[k].n);
        (void)fwrite(b->data, 1, b->len, fp); /* a short write sets the error flag */
        an_buf_reset(b);
    }
    free(s);
    free(m);
    an_buf_puts(b, "</testsuites>\n");
    (void)fwrite(b->data, 1, b->len, fp);
}

int an_report_junit(const struct an_run_result *r, const char *path, struct an_err *err)
{
    struct an_atomic_file f;
    int rc = an_atomic_open(&f, path, err);
    if (rc)
        return rc;
    struct an_buf b = AN_BUF_INIT;
    document(f.fp, &b, r);
    an_buf_release(&b);
    return an_atomic_commit(&f, err); /* it reports a failed write */
}
