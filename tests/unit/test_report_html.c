/*
 * HTML reporter: write a report from a hand-built result and read the page
 * back as text. What an agent produced must arrive escaped, never as markup;
 * the page must carry its CSP and load nothing from outside; each test, turn
 * and failed assertion (and a dynamic test's checkpoints) must be where a
 * reader looks for it.
 *
 * With ANANKE_HTML_OUT=DIR set, the same report is also written to DIR (the
 * browser test, tests/browser/, can load it without a built CLI).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/report.h"
#include "support/files.h"
#include "support/results_fixture.h"

#define T0 1737100000000LL
#define XSS "<script>alert(1)</script><img src=x onerror=alert(2)>"
#define XSS_ESC "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"
#define PWN "<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">"

/* A call's arguments are kept as JSON and as the compact text an agent
 * would have sent; it ends where it starts. */
static struct an_tool_call *call(struct an_transcript *tr, unsigned turn, const char *name,
                                 json_t *args, json_t *result, int64_t start, int64_t ts)
{
    struct an_tool_call *c = fx_call(tr, turn, name, args, result);
    c->args_text = args ? json_dumps(args, JSON_COMPACT) : NULL;
    c->start_ms = start;
    c->end_ms = start;
    c->result_ms = result ? ts : 0;
    c->ts_ms = ts;
    return c;
}

/* Every turn here got an HTTP 200. */
static struct an_turn_rec *turn(struct an_transcript *tr, const char *input, const char *text,
                                int64_t start, int64_t end)
{
    struct an_turn_rec *r = fx_turn(tr, input, text, start, end);
    r->http_status = 200;
    return r;
}

static struct an_run_result fixture(void)
{
    struct an_run_result r = {0};
    struct an_test_result *t;
    struct an_turn_rec *tr;

    r.start_ms = T0;
    r.end_ms = T0 + 1420;
    r.config_path = strdup("ananke.config.yaml");
    r.repeat = 5;
    r.pass_rate = 0.8;
    r.parallel = 2;
    r.shard = strdup("1/2");
    r.filter = strdup("refund|checkout");

    /* a pass, whose one turn needed two transport retries */
    t = fx_test(&r, "checkout passes", "suite/checkout.test.yaml", AN_STATUS_PASS, T0, T0 + 120);
    tr = turn(&t->transcript, "I want to checkout", "Your cart is valid.", T0 + 10, T0 + 110);
    an_turn_retry(tr, "HTTP 503, retried after 210 ms");
    an_turn_retry(tr, "connection reset, retried after 420 ms");
    an_turn_warn(tr, "unknown event type 'CUSTOM_THING'");
    call(&t->transcript, 0, "validate_cart", json_pack("{s:s}", "cart_id", "c42"),
         json_pack("{s:b}", "valid", 1), T0 + 35, T0 + 85);

    /* a fail: findings on turn 2 and on the whole test; turn 3 never ran.
     * The agent answers markup, and a tool argument tries to close the
     * report's own script element. */
    t = fx_test(&r, "refund & <b>policy</b>", "suite/refund.test.yaml", AN_STATUS_FAIL, T0 + 200,
                T0 + 500);
    turn(&t->transcript, "hello", "Hi! \xff bad byte, \x1b[31m red", T0 + 200, T0 + 250);
    turn(&t->transcript, "refund order 9876", XSS PWN, T0 + 250, T0 + 450);
    call(
        &t->transcript, 1, "issue_refund",
        json_pack("{s:s,s:i}", "note", "</script><script>window.__pwned=3</script>", "amount", 450),
        json_string("refunded 'R-2' \"ok\""), T0 + 300, T0 + 400);
    tr = turn(&t->transcript, "thanks", NULL, 0, 0);
    tr->status = AN_TURN_NOT_RUN;
    an_findings_add(&t->findings, "tools.require.after", 1, "suite/refund.test.yaml", 11, 20,
                    "Tool \"issue_refund\" must be called after \"lookup_order\"",
                    "a call of \"lookup_order\" before <issue_refund>",
                    "\"lookup_order\" never called", NULL);
    an_findings_add(&t->findings, "text.must_not_match", -1, "suite/refund.test.yaml", 17, 0,
                    "Text must not match /processed/", "no match", "matched \"processed\"",
                    "in \"Your refund was processed\"");

    /* an error: the agent reported RUN_ERROR in turn 1 */
    t = fx_test(&r, "agent breaks", "suite/error.test.yaml", AN_STATUS_ERROR, T0 + 500, T0 + 540);
    fx_error(t, AN_ERUN, 0, "turn 1: RUN_ERROR: model <overloaded>");
    tr = turn(&t->transcript, "do it", "partial answer", T0 + 500, T0 + 540);
    an_turn_fail(tr, AN_ERUN, "RUN_ERROR: model <overloaded>");

    /* a repeated test: 4 of 5 runs passed */
    t = fx_test(&r, "search is flaky", "suite/search.test.yaml", AN_STATUS_PASS, T0 + 600,
                T0 + 1400);
    t->runs = 5;
    t->passes = 4;
    t->attempts = calloc(5, sizeof *t->attempts);
    for (unsigned i = 0; i < 5; i++) {
        t->attempts[i].status = i == 1 ? AN_STATUS_FAIL : AN_STATUS_PASS;
        t->attempts[i].duration_ms = 100 + i;
        t->attempts[i].summary = i == 1 ? strdup("Tool \"search\" must be called") : NULL;
    }
    an_findings_add(&t->findings, "tools.require", 0, "suite/search.test.yaml", 8, 11,
                    "Tool \"search\" must be called", "at least 1 call", "0 calls", NULL);
    turn(&t->transcript, "find shoes", "I found nothing.", T0 + 600, T0 + 700);
    return r;
}

static const char *find(const char *hay, const char *needle)
{
    const char *p = strstr(hay, needle);
    if (!p)
        fail_msg("report lacks: %s", needle);
    return p;
}

static char *write_report(const struct an_run_result *r, const char *sub)
{
    char d[128], path[160];
    struct an_err err = AN_ERR_INIT;
    snprintf(d, sizeof d, "%s/%s", files_dir, sub);
    int rc = an_report_html(r, d, &err);
    if (rc)
        fail_msg("an_report_html: %s", err.msg);
    snprintf(path, sizeof path, "%s/index.html", d);
    return files_slurp(path);
}

static void test_escaped(void **state)
{
    (void)state;
    struct an_run_result r = fixture();
    const char *keep = getenv("ANANKE_HTML_OUT");
    if (keep && keep[0]) {
        struct an_err err = AN_ERR_INIT;
        assert_int_equal(an_report_html(&r, keep, &err), AN_OK);
    }
    /* nested: the directory is created like mkdir -p */
    char *html = write_report(&r, "a/b/report");

    /* the agent's markup arrives as text */
    find(html, XSS_ESC);
    find(html, "&lt;/script&gt;&lt;script&gt;window.__pwned=3&lt;/script&gt;");
    find(html, "onerror=&quot;window.__pwned=2&quot;&gt;");
    find(html, "refund &amp; &lt;b&gt;policy&lt;/b&gt;");
    find(html, "refunded &#39;R-2&#39; &quot;ok&quot;");
    assert_null(strstr(html, "<script>alert"));
    assert_null(strstr(html, "<img"));
    assert_null(strstr(html, "__pwned=3</script>"));
    assert_null(strstr(html, "<b>policy"));
    /* exactly one script element: the report's own, at the end */
    assert_int_equal(files_count(html, "<script"), 1);
    assert_int_equal(files_count(html, "</script>"), 1);
    assert_true(strstr(html, "<script>") > strstr(html, "</main>"));
    /* invalid UTF-8 and terminal escapes are made visible, not passed on */
    find(html, "Hi! \xEF\xBF\xBD bad byte, \\u001b[31m red");
    assert_null(strstr(html, "\x1b"));
    assert_null(strstr(html, "\xff"));

    /* a strict CSP, and nothing that could load from outside */
    find(html, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
               "style-src 'unsafe-inline'; img-src data:; script-src 'sha256-");
    assert_null(strstr(html, "http://"));
    assert_null(strstr(html, "https://"));
    assert_null(strstr(html, "src=\""));
    assert_null(strstr(html, "href=\""));
    assert_null(strstr(html, "@import"));
    assert_null(strstr(html, "url("));

    free(html);
    an_run_result_release(&r);
}

static void test_structure(void **state)
{
    (void)state;
    struct an_run_result r = fixture();
    char *html = write_report(&r, "s");

    find(html, "<title>ananke: 2 passed, 1 failed, 1 error</title>");
    find(html, "2 passed</span>");
    find(html, "<dt>config</dt><dd class=\"mono\">ananke.config.yaml</dd>");
    find(html, "<dt>shard</dt><dd>1/2</dd>");
    find(html, "<dt>filter</dt><dd class=\"mono\">refund|checkout</dd>");
    find(html, "<dt>repeat</dt><dd>5 runs per test, pass rate needed 80.0%</dd>");
    find(html, "<dt>parallel</dt><dd>2</dd>");
    find(html, "2025-01-17 07:46:40 UTC");

    /* each test, with its status; failing ones open */
    const char *pass = find(html, "<details class=\"test pass\" id=\"test-1\" data-status=\"pass\" "
                                  "data-search=\"checkout passes ");
    const char *fail = find(html, "<details class=\"test fail\" id=\"test-2\" data-status=\"fail\" "
                                  "data-search=");
    const char *err = find(html, "<details class=\"test error\" id=\"test-3\" data-status=\"error\""
                                 " data-search=");
    /* the repeated test whose runs disagree is flaky */
    const char *rep = find(html, "<details class=\"test pass\" id=\"test-4\" data-status=\"pass\" "
                                 "data-flaky=\"1\" data-search=\"search is flaky ");
    /* failures first: what failed, what errored, the flaky, then the passed */
    assert_true(fail < err && err < rep && rep < pass);
    assert_true(strstr(fail, " open><summary>") < err);
    assert_true(strstr(err, " open><summary>") < rep);
    const char *flaky_badge = find(rep, "<span class=\"badge flaky\" title=\"");
    assert_true(flaky_badge < pass);
    assert_null(strstr(pass, "badge flaky"));
    /* the search box, shown by the page's script */
    find(html, "<input type=\"search\" id=\"search\" class=\"search\" hidden ");
    find(html, "<span class=\"tname\">checkout passes</span>");
    find(html, "<span class=\"tname\">agent breaks</span>");
    find(html, "<span class=\"tname\">search is flaky</span>");
    find(html, "<span class=\"tfile\">suite/refund.test.yaml</span>");

    /* the turn-2 finding sits inside turn 2, before turn 3; the test-level
     * one after the last turn */
    const char *t2 = find(fail, "<b>turn 2</b>");
    const char *f2 = find(fail, "Tool &quot;issue_refund&quot; must be called after");
    const char *t3 = find(fail, "<li class=\"turn notrun\"><div class=\"thead\"><b>turn 3</b>");
    const char *whole = find(fail, "<h3>whole test</h3>");
    const char *ft = find(fail, "Text must not match /processed/");
    assert_true(t2 < f2 && f2 < t3 && t3 < whole && whole < ft && ft < err);
    find(fail, "<li class=\"turn failed\"><div class=\"thead\"><b>turn 2</b>");
    find(fail, "<dt>expected</dt><dd>a call of &quot;lookup_order&quot; before "
               "&lt;issue_refund&gt;</dd>");
    find(fail, "at <span class=\"mono\">suite/refund.test.yaml:11:20</span>");
    find(fail, "at <span class=\"mono\">suite/refund.test.yaml:17</span>");

    /* a tool call row: pretty args, the result, and a time bar placed at
     * 300..400 ms of a 250..450 ms turn */
    find(fail, "<code>issue_refund</code>");
    find(fail, "+50ms \xC2\xB7 100ms");
    find(fail, "<span style=\"left:25.0%;width:50.0%\"></span>");
    find(fail, "{\n  &quot;note&quot;: ");

    /* retries, warnings, the turn error and the test error */
    find(pass, "HTTP 503, retried after 210 ms");
    find(pass, "connection reset, retried after 420 ms");
    find(pass, "2 retries");
    find(pass, "unknown event type &#39;CUSTOM_THING&#39;");
    find(err, "<span class=\"title\">ERROR AN_ERUN</span> in turn 1");
    find(err, "<span class=\"title\">AN_ERUN</span> RUN_ERROR: model &lt;overloaded&gt;");
    find(err, "<li class=\"turn error\">");

    /* the repeated test: runs, passes, rate, stability, every attempt */
    find(rep, "runs <b>5</b> \xC2\xB7 passes <b>4</b> \xC2\xB7 pass rate <b>80.0%</b>");
    find(rep, "<span class=\"stab s1\">mostly stable</span>");
    /* flaky (4 of 5), with its statistics: Clopper-Pearson 4/5 is
     * [0.2836, 0.9949] (test_stats.c's fixtures agree) */
    find(rep, "<div class=\"stats\"><b>flaky</b>: its runs disagree \xC2\xB7 pass^5 0%, pass@5 "
              "100% \xC2\xB7 95% CI [28.4%, 99.5%] (clopper-pearson)</div>");
    find(html, "<dt>flaky</dt><dd>1 test whose runs disagree</dd>");
    find(html, "<dt>agent calls</dt><dd>");
    find(rep, "<li class=\"fail\">#2 fail 101ms: Tool &quot;search&quot; must be called</li>");
    find(rep, "<li class=\"pass\">#5 pass 104ms</li>");
    find(rep, "the first run that did not pass");

    free(html);
    an_run_result_release(&r);
}

/* The CSP names the inline script by its SHA-256: recompute it with
 * coreutils over the exact bytes between <script> and </script>. */
static void test_csp_hash(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    char *html = write_report(&r, "empty");
    find(html, "No tests were run.");
    const char *s = find(html, "<script>") + strlen("<script>");
    const char *e = find(s, "</script>");
    char body[160], cmd[320], want[64] = "";
    snprintf(body, sizeof body, "%s/script.js", files_dir);
    FILE *f = fopen(body, "wb");
    assert_non_null(f);
    fwrite(s, 1, (size_t)(e - s), f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "sha256sum '%s' | cut -d' ' -f1 | tr a-f A-F | basenc --base16 -d | base64 -w0", body);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    assert_non_null(fgets(want, sizeof want, p));
    assert_int_equal(pclose(p), 0);
    assert_int_equal(strlen(want), 44);
    char csp[80];
    snprintf(csp, sizeof csp, "script-src 'sha256-%s';", want);
    find(html, csp);
    free(html);
    an_run_result_release(&r);
}

static void test_bad_dir(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    struct an_err err = AN_ERR_INIT;
    char file[128], sub[160];
    snprintf(file, sizeof file, "%s/plain-file", files_dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(an_report_html(&r, file, &err), AN_EIO);
    assert_non_null(strstr(err.msg, "plain-file"));
    snprintf(sub, sizeof sub, "%s/under", file);
    assert_int_equal(an_report_html(&r, sub, &err), AN_EIO);
    assert_non_null(strstr(err.msg, "cannot create directory"));
    assert_int_equal(an_report_html(&r, "", &err), AN_EUSAGE);
}

static void test_skip_and_single_file(void **state)
{
    (void)state;
    char path[160];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result r = fx_mixed_run();
    /* -o report.html: the page itself, no directory made */
    snprintf(path, sizeof path, "%s/page.html", files_dir);
    assert_int_equal(an_report_html_file(&r, path, &err), AN_OK);
    char *html = files_slurp(path);
    find(html, "<span class=\"badge skip\">1 skipped</span>");
    find(html, "<label for=\"show-skip\">skipped 1</label>");
    /* a skipped test is shown closed, with its badge and no duration to read */
    const char *sk = find(html, "<details class=\"test skip\" id=\"test-5\" data-status=\"skip\" "
                                "data-search=");
    find(sk, "\"><summary><span class=\"badge skip\">SKIP</span>");
    /* skipped tests come last */
    assert_null(strstr(sk, "<details class=\"test pass\""));
    find(html, "Skipped (<code>skip: true</code>): not run.");
    free(html);
    /* a run without skips has no skipped filter */
    an_test_result_release(&r.tests[4]);
    r.tests[4] = r.tests[5];
    r.ntests--;
    assert_int_equal(an_report_html_file(&r, path, &err), AN_OK);
    html = files_slurp(path);
    assert_null(strstr(html, "show-skip\""));
    assert_null(strstr(html, "badge skip\">"));
    free(html);
    an_run_result_release(&r);
}

static void test_dynamic(void **state)
{
    (void)state;
    struct an_run_result r = fx_dynamic_run();
    char *html = write_report(&r, "dyn");
    const char *fail = find(html, "<details class=\"test fail\" id=\"test-1\"");
    const char *pass = find(html, "<details class=\"test pass\" id=\"test-2\"");

    /* the simulator and the outcome above the turns */
    const char *box = find(fail, "<div class=\"box dyn\">dynamic test \xC2\xB7 simulator "
                                 "<b class=\"mono\">user-sim</b> \xC2\xB7 seed 42<div>3 turns, "
                                 "2/3 checkpoints (max turns); missing: confirm</div></div>\n"
                                 "<ol class=\"turns\">\n");
    /* turn 1: the simulated user, the simulator's reasoning, the answer,
     * then the checkpoint reached there with its evidence */
    find(box, "<li class=\"turn ok\"><div class=\"thead\"><b>turn 1</b><span class=\"chip\">"
              "user</span><span class=\"muted\">1200ms \xC2\xB7 0 tool calls</span></div>"
              "<div class=\"who\">simulated user</div><div class=\"msg user\">Help me file an "
              "expense</div><div class=\"who\">simulator&#39;s reasoning</div>"
              "<div class=\"msg sim\">Start by asking for help</div><div class=\"who\">assistant"
              "</div><div class=\"msg agent\">What type of expense is it?</div>"
              "<div class=\"cp\"><span class=\"cpid\">ask_type</span>Agent asks for expense type"
              "<div class=\"cpev\">evidence: text contains &quot;type&quot;</div></div>\n"
              "</li>\n");
    /* turn 2 reached nothing and had no reasoning */
    const char *t2 = find(box, "<b>turn 2</b>");
    const char *t3 = find(box, "<b>turn 3</b>");
    assert_true(strstr(t2, "<div class=\"cp\">") > t3);
    assert_true(strstr(t2, "msg sim") > t3);
    /* turn 3: the badge after the tool call and the answer */
    const char *call = find(t3, "<code>create_expense</code>");
    const char *badge = find(t3, "<div class=\"cp\"><span class=\"cpid\">call_create</span>Agent "
                                 "calls create_expense<div class=\"cpev\">evidence: create_expense"
                                 "({&quot;amount&quot;:250})</div></div>\n</li>\n</ol>\n");
    assert_true(call < badge);
    /* the checkpoint table, the missing required one marked, then the
     * test-level finding */
    const char *table = find(
        badge, "<h3>checkpoints</h3><table class=\"cps\"><thead><tr><th>checkpoint</th>"
               "<th>required</th><th>reached at turn</th><th>evidence</th></tr></thead><tbody>\n"
               "<tr class=\"reached\"><td><span class=\"mono\">ask_type</span><div class=\"muted\">"
               "Agent asks for expense type</div></td><td>yes</td><td class=\"at\">1</td>"
               "<td class=\"ev\">text contains &quot;type&quot;</td></tr>\n"
               "<tr class=\"reached\"><td><span class=\"mono\">call_create</span>"
               "<div class=\"muted\">Agent calls create_expense</div></td><td>no</td>"
               "<td class=\"at\">3</td><td class=\"ev\">create_expense({&quot;amount&quot;:250})"
               "</td></tr>\n"
               "<tr class=\"missing\"><td><span class=\"mono\">confirm</span><div class=\"muted\">"
               "Agent confirms submission</div></td><td>yes</td><td class=\"at\">missing</td>"
               "<td class=\"ev\"></td></tr>\n"
               "</tbody></table>\n<h3>whole test</h3>");
    assert_true(table < find(table, "max turns (3) exceeded") && table < pass);
    find(html, "table.cps tr.missing td{background:var(--failbg)}");

    /* the passing one, whole: reasoning after the last turn has its own place */
    find(pass, "<div class=\"box dyn\">dynamic test \xC2\xB7 simulator <b class=\"mono\">"
               "user-sim</b><div>1 turn, 1/1 checkpoint (all reached)</div></div>\n"
               "<ol class=\"turns\">\n"
               "<li class=\"turn ok\"><div class=\"thead\"><b>turn 1</b><span class=\"chip\">"
               "user</span><span class=\"muted\">400ms \xC2\xB7 0 tool calls</span></div>"
               "<div class=\"who\">simulated user</div><div class=\"msg user\">hi</div>"
               "<div class=\"who\">assistant</div><div class=\"msg agent\">Hello!</div>"
               "<div class=\"cp\"><span class=\"cpid\">greet</span></div>\n</li>\n</ol>\n"
               "<div class=\"who\">simulator&#39;s reasoning after turn 1</div>"
               "<div class=\"msg sim\">Greeted back: goal achieved</div>\n"
               "<h3>checkpoints</h3><table class=\"cps\"><thead><tr><th>checkpoint</th>"
               "<th>required</th><th>reached at turn</th><th>evidence</th></tr></thead><tbody>\n"
               "<tr class=\"reached\"><td><span class=\"mono\">greet</span></td><td>yes</td>"
               "<td class=\"at\">1</td><td class=\"ev\"></td></tr>\n"
               "</tbody></table>\n</div></details>\n");
    free(html);

    /* what the simulator and the test file wrote arrives as text */
    struct an_test_result *t = &r.tests[1];
    free(t->dyn->simulator);
    t->dyn->simulator = strdup(XSS);
    free(t->dyn->reasoning[1]);
    t->dyn->reasoning[1] = strdup(PWN);
    fx_checkpoint(t, XSS, XSS, false, 0, PWN);
    fx_checkpoint(t, "opt", NULL, false, -1, NULL);
    html = write_report(&r, "dyn-xss");
    assert_int_equal(files_count(html, "<script"), 1);
    assert_null(strstr(html, "<img"));
    /* the simulator, the badge's id and description, the table's id and description */
    assert_int_equal(files_count(html, XSS_ESC), 5);
    find(html, "<div class=\"cpev\">evidence: &lt;script&gt;window.__pwned=1");
    find(html, "<div class=\"msg sim\">&lt;script&gt;window.__pwned=1");
    find(html, "<tr class=\"optional\"><td><span class=\"mono\">opt</span></td><td>no</td>"
               "<td class=\"at\">not reached</td>");
    free(html);
    an_run_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escaped),   cmocka_unit_test(test_skip_and_single_file),
        cmocka_unit_test(test_structure), cmocka_unit_test(test_csp_hash),
        cmocka_unit_test(test_bad_dir),   cmocka_unit_test(test_dynamic),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
