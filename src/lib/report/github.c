/*
 * GitHub Actions annotations: one workflow command per failed assertion and
 * per broken run, so the failure shows on the line of the test file that
 * declared the assertion (in the pull request's diff and the run summary):
 *
 *   ::error file=tests/refund.test.yaml,line=11,col=20,title=large refunds::turn 1: ...
 *
 * Workflow commands are read line by line from the job's output, so a line
 * break in agent text could start a command of its own (::add-mask::,
 * ::stop-commands::). GitHub's escaping is applied: in the message '%',
 * CR and LF become %25, %0D, %0A; in property values also ':' and ','
 * (%3A, %2C). Other controls and bidi overrides are shown as \uXXXX,
 * invalid UTF-8 as U+FFFD.
 */
#include <stdlib.h>
#include <string.h>

#include "ananke/report.h"
#include "core/buf.h"
#include "core/result_paths.h"
#include "report/report_util.h"

static void esc_char(struct an_buf *b, uint32_t c, const char *s, size_t k, bool property)
{
    if (c == '%')
        an_buf_puts(b, "%25");
    else if (c == '\r')
        an_buf_puts(b, "%0D");
    else if (c == '\n')
        an_buf_puts(b, "%0A");
    else if (property && c == ':')
        an_buf_puts(b, "%3A");
    else if (property && c == ',')
        an_buf_puts(b, "%2C");
    else if (c == '\t')
        an_buf_putc(b, '\t');
    else if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
             (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069)) /* bidi overrides */
        an_buf_printf(b, "\\u%04x", (unsigned)c);
    else
        an_buf_append(b, s, k);
}

static void esc(struct an_buf *b, const char *s, bool property)
{
    an_rpt_escape(b, s, esc_char, property);
}

/* GitHub wants paths relative to the repository ($GITHUB_WORKSPACE, else
 * the current directory), while a result's paths are relative to the
 * project directory: joined to it, then made relative to the repository.
 * The caller frees the result. */
static char *repo_path(const struct an_run_result *r, const char *file)
{
    const char *ws = getenv("GITHUB_WORKSPACE");
    if (!file)
        return an_xstrdup("");
    struct an_buf abs = AN_BUF_INIT;
    if (file[0] != '/' && r->project_dir)
        an_buf_printf(&abs, "%s/", r->project_dir);
    an_buf_puts(&abs, file);
    char *out = an_path_in_project(an_buf_cstr(&abs), ws && *ws ? ws : ".");
    an_buf_release(&abs);
    return out;
}

/* An ::error annotation, or a ::notice for a failure --expected-failures
 * lists (it does not fail the run, so it must not read as an error). */
static void command(struct an_buf *b, const struct an_run_result *r, const char *file,
                    unsigned line, unsigned col, const char *title, const char *msg)
{
    an_buf_puts(b, strncmp(title, "XFAIL", 5) ? "::error file=" : "::notice file=");
    char *path = repo_path(r, file);
    esc(b, path, true);
    free(path);
    an_buf_printf(b, ",line=%u", line ? line : 1);
    if (line && col)
        an_buf_printf(b, ",col=%u", col);
    an_buf_puts(b, ",title=");
    esc(b, title, true);
    an_buf_puts(b, "::");
    esc(b, msg, false);
    an_buf_putc(b, '\n');
}

/* "FILE:LINE[:COL]: ..." at the start of an error message (hook and
 * variable errors carry their location that way): its line and column. */
static void error_loc(const char *msg, const char *file, unsigned *line, unsigned *col)
{
    size_t n = file ? strlen(file) : 0;
    *line = *col = 0;
    if (!msg || !n || strncmp(msg, file, n) || msg[n] != ':')
        return;
    char *end;
    unsigned long l = strtoul(msg + n + 1, &end, 10);
    if (end == msg + n + 1 || l == 0 || l > 0xFFFFFFu)
        return;
    *line = (unsigned)l;
    if (*end == ':' && end[1] >= '0' && end[1] <= '9') {
        unsigned long c = strtoul(end + 1, &end, 10);
        if (c <= 0xFFFFFFu)
            *col = (unsigned)c;
    }
}

static void runs_line(struct an_buf *m, const struct an_run_result *r,
                      const struct an_test_result *t)
{
    struct an_test_stats s;
    if (!t->runs)
        return;
    an_buf_printf(m, "\npassed %u of %u runs", t->passes, t->runs);
    if (an_test_stats(t, r->pass_k, r->confidence, &s)) {
        an_buf_puts(m, "; ");
        an_rpt_stats_line(m, &s);
    }
}

/* A flaky test that passed (a failed one is annotated as a failure, its
 * statistics in the message): a warning, an error under --fail-on-flaky. */
static void flaky(struct an_buf *b, const struct an_run_result *r, const struct an_test_result *t)
{
    struct an_buf title = AN_BUF_INIT, m = AN_BUF_INIT;
    const char *name = t->name ? t->name : t->file;
    an_buf_puts(&title, "FLAKY ");
    an_buf_puts(&title, name ? name : "");
    an_buf_puts(&m, r->fail_on_flaky ? "its runs disagree (--fail-on-flaky fails the run)"
                                     : "its runs disagree");
    runs_line(&m, r, t);
    an_buf_puts(b, r->fail_on_flaky ? "::error file=" : "::warning file=");
    char *path = repo_path(r, t->file);
    esc(b, path, true);
    free(path);
    an_buf_puts(b, ",line=1,title=");
    esc(b, an_buf_cstr(&title), true);
    an_buf_puts(b, "::");
    esc(b, an_buf_cstr(&m), false);
    an_buf_putc(b, '\n');
    an_buf_release(&title);
    an_buf_release(&m);
}

static void test(struct an_buf *b, const struct an_run_result *r, const struct an_test_result *t)
{
    struct an_buf title = AN_BUF_INIT, m = AN_BUF_INIT;
    const char *name = t->name ? t->name : t->file;
    an_buf_puts(&title, t->expect == AN_EXPECT_FAILED         ? "XFAIL "
                        : t->expect == AN_EXPECT_STALE        ? "STALE "
                        : t->status == AN_STATUS_ERROR        ? "ERROR "
                        : t->status == AN_STATUS_INCONCLUSIVE ? "INCONCLUSIVE "
                                                              : "FAIL ");
    an_buf_puts(&title, name ? name : "");
    if (t->status == AN_STATUS_INCONCLUSIVE) { /* --repeat auto: no verdict, one note */
        an_buf_printf(&m, "%u runs could not decide whether the test passes often enough", t->runs);
        runs_line(&m, r, t);
        command(b, r, t->file, 0, 0, an_buf_cstr(&title), an_buf_cstr(&m));
        an_buf_release(&title);
        an_buf_release(&m);
        return;
    }
    if (t->expect == AN_EXPECT_STALE) {
        an_buf_puts(&m, "the test passed, yet --expected-failures lists it: take it off the list");
        command(b, r, t->file, 0, 0, an_buf_cstr(&title), an_buf_cstr(&m));
        an_buf_release(&title);
        an_buf_release(&m);
        return;
    }
    if (t->status == AN_STATUS_ERROR) {
        const char *msg = t->error ? t->error : an_code_desc((enum an_code)t->error_code);
        unsigned line, col;
        error_loc(msg, t->file, &line, &col);
        if (t->error_turn >= 0)
            an_buf_printf(&m, "turn %d: ", t->error_turn + 1);
        an_buf_puts(&m, msg);
        an_buf_printf(&m, " [%s]", an_code_name((enum an_code)t->error_code));
        runs_line(&m, r, t);
        command(b, r, t->file, line, col, an_buf_cstr(&title), an_buf_cstr(&m));
    }
    for (size_t i = 0; i < t->findings.n; i++) {
        const struct an_finding *f = &t->findings.v[i];
        an_buf_reset(&m);
        if (f->turn >= 0)
            an_buf_printf(&m, "turn %d: ", f->turn + 1);
        else
            an_buf_puts(&m, "test: ");
        an_buf_puts(&m, f->assertion ? f->assertion : f->kind);
        if (f->expected)
            an_buf_printf(&m, "\nexpected: %s", f->expected);
        if (f->actual)
            an_buf_printf(&m, "\nactual: %s", f->actual);
        if (f->detail && f->detail[0])
            an_buf_printf(&m, "\n%s", f->detail);
        runs_line(&m, r, t);
        if (f->file)
            command(b, r, f->file, f->line, f->col, an_buf_cstr(&title), an_buf_cstr(&m));
        else
            command(b, r, t->file, 0, 0, an_buf_cstr(&title), an_buf_cstr(&m));
    }
    if (t->status == AN_STATUS_FAIL && !t->findings.n) {
        an_buf_reset(&m);
        an_buf_puts(&m, "test failed");
        runs_line(&m, r, t);
        command(b, r, t->file, 0, 0, an_buf_cstr(&title), an_buf_cstr(&m));
    }
    an_buf_release(&title);
    an_buf_release(&m);
}

void an_report_github(FILE *out, const struct an_run_result *r)
{
    struct an_buf b = AN_BUF_INIT;
    bool repeated = false;
    for (size_t i = 0; i < r->ntests; i++) {
        const struct an_test_result *t = &r->tests[i];
        repeated |= t->runs > 0;
        if (t->status == AN_STATUS_FAIL || t->status == AN_STATUS_ERROR ||
            t->status == AN_STATUS_INCONCLUSIVE || t->expect == AN_EXPECT_STALE)
            test(&b, r, t); /* a pass or a skip annotates nothing, */
        else if (an_test_flaky(t))
            flaky(&b, r, t); /* but a flaky pass */
    }
    /* the cost of repeated runs, once (a run of single runs costs its tests) */
    if (repeated)
        an_buf_printf(&b, "::notice title=ananke::%zu agent calls (every run of every test)\n",
                      an_run_result_agent_calls(r));
    if (b.len)
        (void)fwrite(b.data, 1, b.len, out);
    an_buf_release(&b);
}
