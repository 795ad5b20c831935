/*
 * HTML reporter: one self-contained page, DIR/index.html or one named file,
 * for a person.
 *
 *   header   totals (a stacked bar and counts), when, duration, config, and
 *            how the run was made (shard, filter, repeat, parallel)
 *   filter   all / failed / errors / passed (/ skipped): radio buttons and CSS
 *            :has(), so it works with scripts off; a search box (shown by
 *            the script) keeps the tests whose name, file or tags hold what
 *            is typed
 *   tests    failures first (then flaky, passed, skipped; run order within
 *            each), one <details> each (open when it did not pass): status
 *            badge, FLAKY when a repeated test's runs disagree,
 *            name, file, duration; the error; the repeat runs; then the
 *            turns as a timeline: user message, tool calls (args, result, a
 *            time bar placed by start..completion within the turn), the
 *            assistant text, warnings, retries, the turn's error, and the
 *            failed assertions of that turn in red right under it. Findings
 *            of the whole test come after the last turn.
 *   dynamic  a dynamic test (seed 002) adds its simulator and outcome above
 *            the turns; each turn shows the simulated user's message with the
 *            simulator's reasoning, and a badge (id, description, evidence)
 *            for each checkpoint reached there; a checkpoint table follows
 *            the turns, a required checkpoint never reached in red.
 *
 * Nothing is loaded from anywhere: the CSS is inline, there are no fonts,
 * images or links out. The only script is a few lines for "expand all" /
 * "collapse all" and the search box; the page is complete without it.
 *
 * Everything that came from an agent or a test file is untrusted. Each
 * string goes through an_rpt_text() (invalid UTF-8 → U+FFFD, controls and
 * bidi overrides shown as \uXXXX, long texts cut) and then has & < > " '
 * replaced by entities, in element content and attribute values alike.
 * Behind that, a Content-Security-Policy meta allows no source at all
 * (default-src 'none'), inline styles, data: images, and exactly one
 * script: ours, by its SHA-256 hash. So even an escape we missed could
 * neither run an injected script nor fetch anything.
 *
 * The pieces are in html_*.c (report/html_int.h lists them).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ananke/report.h"
#include "core/buf.h"
#include "core/sha256.h"
#include "report/html_int.h"
#include "report/report_util.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "unknown"
#endif

static void base64(struct an_buf *b, const unsigned char *p, size_t n);

static void html_utc(struct an_buf *b, int64_t unix_ms)
{
    char ts[40];
    struct tm tm;
    time_t t = (time_t)(unix_ms / 1000);
    if (unix_ms > 0 && gmtime_r(&t, &tm) && strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S UTC", &tm))
        an_buf_puts(b, ts);
    else
        an_buf_puts(b, "unknown");
}

void html_page_open(struct an_buf *b, const char *title, const char *more_style)
{
    unsigned char h[32];
    an_sha256(html_script, strlen(html_script), h);
    an_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                   "style-src 'unsafe-inline'; img-src data:; script-src 'sha256-");
    base64(b, h, sizeof h);
    an_buf_puts(b, "'; base-uri 'none'; form-action 'none'\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<meta name=\"color-scheme\" content=\"light dark\">\n"
                   "<meta name=\"referrer\" content=\"no-referrer\">\n");
    an_buf_printf(b, "<title>%s</title>\n", title);
    an_buf_printf(b, "<style>\n%s%s</style>\n</head>\n<body>\n<div class=\"wrap\">\n", html_style,
                  more_style ? more_style : "");
}

void html_page_close(struct an_buf *b)
{
    an_buf_puts(b, "<footer>Written by ananke " ANANKE_VERSION
                   ". This page is self-contained: it loads nothing.</footer>\n</div>\n<script>");
    an_buf_puts(b, html_script);
    an_buf_puts(b, "</script>\n</body>\n</html>\n");
}

static void head(struct an_buf *b, const struct an_run_result *r, const struct an_counts *c)
{
    size_t p = c->passed, f = c->failed, e = c->errors, sk = c->skipped;
    char title[128];
    snprintf(title, sizeof title, "ananke: %zu passed, %zu failed, %zu error%s", p, f, e,
             e == 1 ? "" : "s");
    html_page_open(b, title, NULL);

    size_t n = r->ntests;
    an_buf_puts(b, "<header>\n<h1>ananke <span class=\"muted\">test report</span></h1>\n"
                   "<div class=\"totals\">");
    an_buf_printf(b,
                  "<span class=\"badge pass\">%zu passed</span>"
                  "<span class=\"badge fail\">%zu failed</span>"
                  "<span class=\"badge error\">%zu error%s</span>",
                  p, f, e, e == 1 ? "" : "s");
    if (sk)
        an_buf_printf(b, "<span class=\"badge skip\">%zu skipped</span>", sk);
    if (c->xfailed)
        an_buf_printf(b, "<span class=\"badge skip\">%zu expected failure%s</span>", c->xfailed,
                      c->xfailed == 1 ? "" : "s");
    if (c->stale)
        an_buf_printf(b, "<span class=\"badge fail\">%zu stale</span>", c->stale);
    if (c->inconclusive || r->adaptive)
        an_buf_printf(b, "<span class=\"badge inconclusive\">%zu inconclusive</span>",
                      c->inconclusive);
    an_buf_printf(b, "<span class=\"muted\">%zu test%s in ", n, n == 1 ? "" : "s");
    html_ms(b, r->end_ms - r->start_ms);
    an_buf_puts(b, "</span></div>\n<div class=\"stack\">");
    const char *cls[5] = {"pass", "fail", "error", "inconclusive", "skip"};
    size_t cnt[5] = {p, f, e, c->inconclusive, sk};
    for (int i = 0; i < 5; i++) {
        if (!cnt[i])
            continue;
        an_buf_printf(b, "<span class=\"%s\" style=\"width:", cls[i]);
        html_pct(b, (int64_t)cnt[i], (int64_t)n);
        an_buf_puts(b, "\"></span>");
    }
    an_buf_puts(b, "</div>\n<dl class=\"meta\"><dt>started</dt><dd>");
    html_utc(b, r->start_ms);
    an_buf_puts(b, "</dd><dt>duration</dt><dd>");
    html_ms(b, r->end_ms - r->start_ms);
    an_buf_puts(b, "</dd>");
    if (r->config_path) {
        an_buf_puts(b, "<dt>config</dt><dd class=\"mono\">");
        html_text(b, r->config_path, false);
        an_buf_puts(b, "</dd>");
    }
    if (r->shard) {
        an_buf_puts(b, "<dt>shard</dt><dd>");
        html_text(b, r->shard, false);
        an_buf_puts(b, "</dd>");
    }
    if (r->filter) {
        an_buf_puts(b, "<dt>filter</dt><dd class=\"mono\">");
        html_text(b, r->filter, false);
        an_buf_puts(b, "</dd>");
    }
    /* the runner records 1 for "not given": only a real choice is news */
    if (r->repeat > 1) {
        an_buf_printf(b, "<dt>repeat</dt><dd>%u runs per test, pass rate needed ", r->repeat);
        /* pass_rate is a fraction; shown in per-mille steps like html_pct() */
        double pr = r->pass_rate > 0 ? r->pass_rate : 1.0;
        html_pct(b, (int64_t)(pr * 1000.0 + 0.5), 1000);
        an_buf_puts(b, "</dd>");
    }
    if (r->adaptive) {
        an_buf_printf(b,
                      "<dt>repeat</dt><dd>adaptive, at most %u runs per test, pass rate "
                      "needed ",
                      r->max_repeats);
        double pr = r->pass_rate > 0 ? r->pass_rate : 1.0;
        html_pct(b, (int64_t)(pr * 1000.0 + 0.5), 1000);
        an_buf_puts(b, " at ");
        html_pct(b, (int64_t)(r->confidence * 1000.0 + 0.5), 1000);
        an_buf_printf(b, " confidence; %zu runs saved</dd>", an_run_result_runs_saved(r));
    }
    if (r->parallel > 1)
        an_buf_printf(b, "<dt>parallel</dt><dd>%u</dd>", r->parallel);
    if (c->flaky)
        an_buf_printf(b, "<dt>flaky</dt><dd>%zu test%s whose runs disagree%s</dd>", c->flaky,
                      c->flaky == 1 ? "" : "s",
                      r->fail_on_flaky ? " (--fail-on-flaky: the run fails)" : "");
    an_buf_printf(b, "<dt>agent calls</dt><dd>%zu</dd>", an_run_result_agent_calls(r));
    if (r->not_run)
        an_buf_printf(b, "<dt>not run</dt><dd>%zu test%s (stopped early)</dd>", r->not_run,
                      r->not_run == 1 ? "" : "s");
    an_buf_puts(b, "</dl>\n</header>\n");
    html_tool_coverage(b, r->tool_coverage);

    an_buf_printf(b,
                  "<nav class=\"bar-tools\" aria-label=\"filter\">"
                  "<input type=\"radio\" name=\"show\" id=\"show-all\" checked>"
                  "<label for=\"show-all\">all %zu</label>"
                  "<input type=\"radio\" name=\"show\" id=\"show-fail\">"
                  "<label for=\"show-fail\">failed %zu</label>"
                  "<input type=\"radio\" name=\"show\" id=\"show-error\">"
                  "<label for=\"show-error\">errors %zu</label>"
                  "<input type=\"radio\" name=\"show\" id=\"show-pass\">"
                  "<label for=\"show-pass\">passed %zu</label>",
                  n, f, e, p);
    if (sk)
        an_buf_printf(b,
                      "<input type=\"radio\" name=\"show\" id=\"show-skip\">"
                      "<label for=\"show-skip\">skipped %zu</label>",
                      sk);
    an_buf_puts(b, "<span class=\"sep\"></span>"
                   "<input type=\"search\" id=\"search\" class=\"search\" hidden "
                   "placeholder=\"search name, file, tag\" aria-label=\"search tests by name, "
                   "file or tag\">"
                   "<button type=\"button\" data-open=\"1\" hidden>expand all</button>"
                   "<button type=\"button\" data-open=\"0\" hidden>collapse all</button>"
                   "</nav>\n<main>\n");
}

int an_report_html_file(const struct an_run_result *r, const char *path, struct an_err *err)
{
    struct an_buf b = AN_BUF_INIT;
    struct an_atomic_file f;
    int rc = an_atomic_open(&f, path, err);
    if (rc)
        return rc;
    struct an_counts c = an_run_result_counts(r);
    head(&b, r, &c);
    for (int rank = 0; rank < 4; rank++)
        for (size_t i = 0; i < r->ntests; i++) {
            if (html_order_rank(&r->tests[i]) != rank)
                continue;
            html_test_section(&b, r, &r->tests[i], i);
            /* flush per test: a large run never sits in memory twice */
            fwrite(b.data, 1, b.len, f.fp);
            an_buf_reset(&b);
        }
    if (!r->ntests)
        an_buf_puts(&b, "<p class=\"muted\">No tests were run.</p>\n");
    an_buf_puts(&b, "</main>\n");
    html_page_close(&b);
    fwrite(b.data, 1, b.len, f.fp);
    an_buf_release(&b);
    /* a failed fwrite sets the stream's error flag; commit reports it */
    return an_atomic_commit(&f, err);
}

int an_report_html(const struct an_run_result *r, const char *dir, struct an_err *err)
{
    struct an_buf path = AN_BUF_INIT;
    int rc = AN_OK;
    struct stat st;

    if (!dir || !dir[0])
        return an_fail(err, AN_EUSAGE, NULL, "html report needs a directory");
    an_buf_puts(&path, dir);
    if ((rc = an_mkdir_p(path.data, path.len, err)))
        goto done;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        rc = an_fail(err, AN_EIO, NULL, "cannot write report into '%s': not a directory", dir);
        goto done;
    }
    if (path.data[path.len - 1] != '/')
        an_buf_putc(&path, '/');
    an_buf_puts(&path, "index.html");
    rc = an_report_html_file(r, an_buf_cstr(&path), err);
done:
    an_buf_release(&path);
    return rc;
}

/* --- base64, for the CSP script hash ------------------------------------ */

static void base64(struct an_buf *b, const unsigned char *p, size_t n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        an_buf_putc(b, abc[v >> 18 & 63]);
        an_buf_putc(b, abc[v >> 12 & 63]);
        an_buf_putc(b, i + 1 < n ? abc[v >> 6 & 63] : '=');
        an_buf_putc(b, i + 2 < n ? abc[v & 63] : '=');
    }
}
