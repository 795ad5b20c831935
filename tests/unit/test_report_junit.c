/*
 * JUnit reporter: the file is well-formed XML that CI systems read, with
 * failures and errors apart, right counts, hostile names escaped, and a
 * dynamic test's turns and checkpoints in its system-out.
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

/*
 * A small well-formedness check, enough for what the reporter emits: tags
 * nest and close in order, attribute values are quoted, and '<' or a bare
 * '&' never appears in text or attributes; no control characters other
 * than \t \n \r anywhere.
 */
static void well_formed(const char *s)
{
    const char *stack[32];
    size_t stack_len[32];
    int depth = 0;
    const char *p = s;
    assert_true(!strncmp(p, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 39));
    p += 39;
    for (const unsigned char *q = (const unsigned char *)s; *q; q++)
        assert_true(*q >= 0x20 || *q == '\n' || *q == '\t' || *q == '\r');
    while (*p) {
        if (*p == '&') {
            const char *ents[] = {"&amp;",  "&lt;", "&gt;",  "&quot;",
                                  "&apos;", "&#9;", "&#10;", "&#13;"};
            int ok = 0;
            for (size_t i = 0; i < sizeof ents / sizeof *ents; i++)
                ok |= !strncmp(p, ents[i], strlen(ents[i]));
            assert_true(ok);
            p++;
        } else if (*p != '<') {
            p++;
        } else if (p[1] == '/') {
            assert_true(depth > 0);
            depth--;
            assert_memory_equal(p + 2, stack[depth], stack_len[depth]);
            p += 2 + stack_len[depth];
            assert_int_equal(*p, '>');
            p++;
        } else {
            const char *name = ++p;
            while (*p && *p != ' ' && *p != '>' && *p != '/')
                p++;
            size_t n = (size_t)(p - name);
            assert_true(n > 0);
            while (*p == ' ') {
                p++;
                while (*p && *p != '=') {
                    assert_true(*p != '<' && *p != '>' && *p != ' ');
                    p++;
                }
                assert_int_equal(p[1], '"');
                p += 2;
                while (*p && *p != '"') {
                    assert_true(*p != '<');
                    if (*p == '&')
                        assert_true(!strncmp(p, "&amp;", 5) || !strncmp(p, "&lt;", 4) ||
                                    !strncmp(p, "&gt;", 4) || !strncmp(p, "&quot;", 6) ||
                                    !strncmp(p, "&apos;", 6) || !strncmp(p, "&#", 2));
                    p++;
                }
                assert_int_equal(*p, '"');
                p++;
            }
            if (*p == '/') {
                p++;
            } else {
                assert_true(depth < 32);
                stack[depth] = name;
                stack_len[depth] = n;
                depth++;
            }
            assert_int_equal(*p, '>');
            p++;
        }
    }
    assert_int_equal(depth, 0);
}

static struct an_run_result fixture(void)
{
    struct an_run_result r = {0};
    struct an_test_result *t;
    struct an_turn_rec *tr;

    t = fx_test(&r, "pays once", "tests/checkout.test.yaml", AN_STATUS_PASS, T0, T0 + 812);
    fx_turn(&t->transcript, "buy", "Bought.", T0, T0 + 800);

    t = fx_test(&r, "name <&\"'> \x1b[31mred\x01", "tests/odd.test.yaml", AN_STATUS_FAIL, T0 + 1000,
                T0 + 2500);
    fx_turn(&t->transcript, "say <b>", "ok ]]> \x1b[2J \xff\xfe end", T0 + 1000, T0 + 2400);
    fx_call(&t->transcript, 0, "lookup", json_pack("{s:s}", "q", "a&b<c"),
            json_string("found \"it\""));
    an_findings_add(&t->findings, "tools.require", 0, "tests/odd.test.yaml", 7, 11,
                    "Tool \"charge\" must be called", "at least 1 call", "0 calls", NULL);
    an_findings_add(&t->findings, "text.must_not_match", -1, NULL, 0, 0, "Text must not match",
                    "no match /<b>/", "matched \"<b>\"", "first at byte 3");

    t = fx_test(&r, "agent down", "tests/checkout.test.yaml", AN_STATUS_ERROR, T0 + 3000,
                T0 + 3100);
    fx_error(t, AN_ECONNECT, 0, "connect to http://localhost:9 failed: refused & gone");
    tr = fx_turn(&t->transcript, NULL, NULL, 0, 0);
    an_turn_fail(tr, AN_ECONNECT, "refused");
    fx_turn(&t->transcript, NULL, NULL, 0, 0)->status = AN_TURN_NOT_RUN;
    an_findings_add(&t->findings, "timing.max_duration_ms", -1, NULL, 0, 0, "Duration constraint",
                    "\xe2\x89\xa4 50ms", NULL, NULL);

    r.start_ms = T0;
    r.end_ms = T0 + 3456;
    return r;
}

static void test_shape_and_counts(void **state)
{
    (void)state;
    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result r = fixture();
    snprintf(path, sizeof path, "%s/junit.xml", files_dir);
    assert_int_equal(an_report_junit(&r, path, &err), AN_OK);
    char *s = files_slurp(path);
    well_formed(s);

    assert_non_null(strstr(s, "<testsuites name=\"ananke\" tests=\"3\" failures=\"1\" errors=\"1\" "
                              "skipped=\"0\" time=\"3.456\">\n"));
    /* one suite per file, in first-seen order; the checkout file holds two tests */
    assert_int_equal(files_count(s, "<testsuite "), 2);
    assert_int_equal(files_count(s, "</testsuite>"), 2);
    assert_int_equal(files_count(s, "<testcase "), 3);
    assert_int_equal(files_count(s, "</testcase>"), 3);
    const char *a = strstr(s, "<testsuite name=\"tests/checkout.test.yaml\" tests=\"2\" "
                              "failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.912\" "
                              "timestamp=\"2025-01-17T07:46:40\">");
    const char *b = strstr(s, "<testsuite name=\"tests/odd.test.yaml\" tests=\"1\" failures=\"1\" "
                              "errors=\"0\" skipped=\"0\" time=\"1.500\"");
    assert_non_null(a);
    assert_non_null(b);
    assert_true(a < b);
    assert_non_null(strstr(s, "<testcase name=\"pays once\" classname=\"tests.checkout\" "
                              "file=\"tests/checkout.test.yaml\" time=\"0.812\">"));

    /* failure vs error */
    assert_int_equal(files_count(s, "<failure "), 1);
    assert_int_equal(files_count(s, "<error "), 1);
    assert_non_null(strstr(s, "<failure message=\"Tool &quot;charge&quot; must be called\" "
                              "type=\"assertion\">turn 1: Tool &quot;charge&quot; must be called\n"
                              "  expected: at least 1 call\n"
                              "  actual: 0 calls\n"
                              "  at tests/odd.test.yaml:7:11\n"
                              "test: Text must not match\n"
                              "  expected: no match /&lt;b&gt;/\n"
                              "  actual: matched &quot;&lt;b&gt;&quot;\n"
                              "  first at byte 3\n"
                              "</failure>"));
    assert_non_null(strstr(s, "<error message=\"connect to http://localhost:9 failed: refused "
                              "&amp; gone\" type=\"AN_ECONNECT\">turn 1: connect to "));
    /* a finding made before the run broke travels in the error's text */
    assert_non_null(strstr(s, "test: Duration constraint\n"
                              "  expected: \xe2\x89\xa4 50ms\n"
                              "turn 2 not run\n</error>"));
    free(s);
    an_run_result_release(&r);
}

static void test_escaping(void **state)
{
    (void)state;
    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result r = fixture();
    snprintf(path, sizeof path, "%s/escape.xml", files_dir);
    assert_int_equal(an_report_junit(&r, path, &err), AN_OK);
    char *s = files_slurp(path);
    well_formed(s);
    /* the five specials escaped; ESC and \x01 dropped (XML 1.0 forbids them) */
    assert_non_null(strstr(s, "<testcase name=\"name &lt;&amp;&quot;&apos;&gt; [31mred\" "
                              "classname=\"tests.odd\""));
    /* agent text: controls shown as \u001b by the summary, invalid bytes U+FFFD, ]]> harmless */
    assert_non_null(strstr(s, "<system-out>turn 1 user: &quot;say &lt;b&gt;&quot; (1400ms)\n"
                              "  calls:\n"
                              "    lookup({&quot;q&quot;:&quot;a&amp;b&lt;c&quot;}) \xE2\x86\x92 "
                              "&quot;found \\&quot;it\\&quot;&quot;\n"
                              "  text: &quot;ok ]]&gt; \\u001b[2J \xEF\xBF\xBD\xEF\xBF\xBD "
                              "end&quot;\n"
                              "</system-out>"));
    free(s);
    an_run_result_release(&r);
}

static void test_atomic_and_errors(void **state)
{
    (void)state;
    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result r = fixture();

    /* an existing report is replaced whole, and no temporary file is left */
    snprintf(path, sizeof path, "%s/replace.xml", files_dir);
    FILE *f = fopen(path, "w");
    fputs("old contents that are longer than nothing", f);
    fclose(f);
    struct an_run_result empty = {0};
    assert_int_equal(an_report_junit(&empty, path, &err), AN_OK);
    char *s = files_slurp(path);
    assert_string_equal(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                           "<testsuites name=\"ananke\" tests=\"0\" failures=\"0\" errors=\"0\" "
                           "skipped=\"0\" time=\"0.000\">\n"
                           "</testsuites>\n");
    free(s);
    files_assert_none_named(files_dir, ".tmp-");

    /* a directory that cannot be made: AN_EIO naming the path and the cause */
    files_touch("blocker"); /* a file where a report's directory would have to be */
    snprintf(path, sizeof path, "%s/blocker/junit.xml", files_dir);
    assert_int_equal(an_report_junit(&r, path, &err), AN_EIO);
    assert_int_equal(err.code, AN_EIO);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "Not a directory"));
    an_run_result_release(&r);
}

static void test_skipped(void **state)
{
    (void)state;
    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result r = fx_mixed_run();
    snprintf(path, sizeof path, "%s/skip.xml", files_dir);
    assert_int_equal(an_report_junit(&r, path, &err), AN_OK);
    char *s = files_slurp(path);
    well_formed(s);
    assert_non_null(strstr(s, "<testsuites name=\"ananke\" tests=\"6\" failures=\"1\" "
                              "errors=\"2\" skipped=\"1\" time=\"1.420\">\n"));
    /* cases.jsonl holds the pass, the failure and the skip */
    assert_non_null(strstr(s, "<testsuite name=\"cases.jsonl\" tests=\"3\" failures=\"1\" "
                              "errors=\"0\" skipped=\"1\" time=\"0.852\""));
    assert_non_null(strstr(s, "<testsuite name=\"flaky.test.yaml\" tests=\"1\" failures=\"0\" "
                              "errors=\"0\" skipped=\"0\""));
    /* the flaky test (2 of 3 runs): its statistics, one property each, and
     * its suite's agent calls; cases.jsonl ran 2 tests once (the skip: 0) */
    assert_non_null(strstr(s, "        <property name=\"ananke.k\" value=\"3\"/>\n"
                              "        <property name=\"ananke.pass_at_k\" value=\"1\"/>\n"
                              "        <property name=\"ananke.pass_hat_k\" value=\"0\"/>\n"
                              "        <property name=\"ananke.ci_low\" value=\"0.0942993\"/>\n"
                              "        <property name=\"ananke.ci_high\" value=\"0.991596\"/>\n"
                              "        <property name=\"ananke.ci_method\" "
                              "value=\"clopper-pearson\"/>\n"
                              "        <property name=\"ananke.confidence\" value=\"0.95\"/>\n"
                              "        <property name=\"ananke.flaky\" value=\"true\"/>\n"));
    assert_non_null(strstr(s, "skipped=\"1\" time=\"0.852\" timestamp=\"2025-01-17T07:46:40\">\n"
                              "      <properties>\n"
                              "        <property name=\"ananke.agent_calls\" value=\"2\"/>\n"));
    assert_non_null(strstr(s, "<property name=\"ananke.agent_calls\" value=\"3\"/>"));
    assert_non_null(strstr(s, "<testcase name=\"T003 \xE2\x80\x94 later\" classname=\"cases\" "
                              "file=\"cases.jsonl\" time=\"0.000\">\n"
                              "      <skipped message=\"skip: true\"/>\n"
                              "    </testcase>\n"));
    assert_int_equal(files_count(s, "<skipped "), 1);
    free(s);
    an_run_result_release(&r);
}

/* One suite per file in the order files first appear, each with its tests
 * in run order and its own counts, for files whose tests interleave (a
 * parallel run ends them in any order) and tests with no file. */
static void test_suites_in_first_seen_order(void **state)
{
    (void)state;
    enum { N = 60, FILES = 7 };
    static const char *const files[FILES] = {"e.test.yaml", "b.test.yaml", NULL,     "a.test.yaml",
                                             "d.test.yaml", "c.test.yaml", "f.jsonl"};
    struct an_run_result r = {0};
    size_t of[N];
    for (size_t i = 0; i < N; i++) {
        of[i] = (i * 5 + i / 9) % FILES; /* every file, interleaved */
        char name[16];
        snprintf(name, sizeof name, "t%02zu", i);
        fx_test(&r, name, files[of[i]], i % 4 == 3 ? AN_STATUS_FAIL : AN_STATUS_PASS,
                T0 + (int64_t)i, T0 + (int64_t)i + 10);
    }
    r.start_ms = T0;
    r.end_ms = T0 + 100;
    char path[128];
    struct an_err err = AN_ERR_INIT;
    snprintf(path, sizeof path, "%s/order.xml", files_dir);
    assert_int_equal(an_report_junit(&r, path, &err), AN_OK);
    char *s = files_slurp(path);
    well_formed(s);
    /* what the file must say: the files by their first test, each one's
     * tests as they ran */
    bool seen[FILES] = {false};
    const char *at = s;
    size_t suites = 0;
    for (size_t i = 0; i < N; i++) {
        size_t f = of[i];
        if (seen[f])
            continue;
        seen[f] = true;
        size_t n = 0, failed = 0;
        for (size_t k = i; k < N; k++)
            if (of[k] == f) {
                n++;
                failed += k % 4 == 3;
            }
        char head[160];
        snprintf(head, sizeof head,
                 "<testsuite name=\"%s\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" "
                 "time=\"%.3f\"",
                 files[f] ? files[f] : "(unknown)", n, failed, (double)n * 0.01);
        at = strstr(at, head);
        if (!at)
            fail_msg("suite %zu not next: %s", suites, head);
        suites++;
        const char *end = strstr(at, "</testsuite>");
        assert_non_null(end);
        for (size_t k = i; k < N; k++) {
            if (of[k] != f)
                continue;
            char tc[48];
            snprintf(tc, sizeof tc, "<testcase name=\"t%02zu\"", k);
            const char *c = strstr(at, tc);
            if (!c || c > end)
                fail_msg("t%02zu is not next in its suite %s", k, head);
            at = c;
        }
        assert_int_equal(files_count(strstr(s, head), "<testcase "),
                         files_count(end, "<testcase ") + n);
        at = end;
    }
    assert_int_equal(suites, FILES);
    assert_int_equal(files_count(s, "<testsuite "), FILES);
    free(s);
    an_run_result_release(&r);
}

/* system-out holds the conversation with its checkpoints, then all of them */
static void test_dynamic(void **state)
{
    (void)state;
    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result r = fx_dynamic_run();
    snprintf(path, sizeof path, "%s/dynamic.xml", files_dir);
    assert_int_equal(an_report_junit(&r, path, &err), AN_OK);
    char *s = files_slurp(path);
    well_formed(s);
    assert_non_null(
        strstr(s, "</failure>\n"
                  "      <system-out>simulator: user-sim (seed 42)\n"
                  "3 turns, 2/3 checkpoints (max turns); missing: confirm\n"
                  "turn 1 user: &quot;Help me file an expense&quot; (1200ms)\n"
                  "  calls: none\n"
                  "  text: &quot;What type of expense is it?&quot;\n"
                  "  reached: ask_type (Agent asks for expense type)\n"
                  "    evidence: text contains &quot;type&quot;\n"
                  "  simulator reasoning: &quot;Start by asking for help&quot;\n"
                  "turn 2 user: &quot;Client dinner, $250&quot; (1700ms)\n"
                  "  calls: none\n"
                  "  text: &quot;Anything else?&quot;\n"
                  "turn 3 user: &quot;No, that&apos;s all&quot; (3700ms)\n"
                  "  calls:\n"
                  "    create_expense({&quot;amount&quot;:250}) \xE2\x86\x92 "
                  "{&quot;id&quot;:&quot;E-1&quot;}\n"
                  "  text: &quot;Created it.&quot;\n"
                  "  reached: call_create (Agent calls create_expense)\n"
                  "    evidence: create_expense({&quot;amount&quot;:250})\n"
                  "  simulator reasoning: &quot;The agent has not confirmed yet&quot;\n"
                  "checkpoints:\n"
                  "  ask_type (Agent asks for expense type): reached at turn 1\n"
                  "    evidence: text contains &quot;type&quot;\n"
                  "  call_create (Agent calls create_expense): reached at turn 3 (optional)\n"
                  "    evidence: create_expense({&quot;amount&quot;:250})\n"
                  "  confirm (Agent confirms submission): missing\n"
                  "</system-out>\n"));
    assert_non_null(strstr(s, "<testcase name=\"greets back\" classname=\"dyn\" "
                              "file=\"dyn.test.yaml\" time=\"0.500\">\n"
                              "      <properties>\n"
                              "        <property name=\"ananke.tool_calls\" value=\"0\"/>\n"
                              "        <property name=\"ananke.turns\" value=\"1\"/>\n"
                              "      </properties>\n"
                              "      <system-out>simulator: user-sim\n"
                              "1 turn, 1/1 checkpoint (all reached)\n"
                              "turn 1 user: &quot;hi&quot; (400ms)\n"
                              "  calls: none\n"
                              "  text: &quot;Hello!&quot;\n"
                              "  reached: greet\n"
                              "simulator after turn 1: &quot;Greeted back: goal achieved&quot;\n"
                              "checkpoints:\n"
                              "  greet: reached at turn 1\n"
                              "</system-out>\n"));
    free(s);
    an_run_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_and_counts), cmocka_unit_test(test_skipped),
        cmocka_unit_test(test_escaping),         cmocka_unit_test(test_atomic_and_errors),
        cmocka_unit_test(test_dynamic),          cmocka_unit_test(test_suites_in_first_seen_order),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
