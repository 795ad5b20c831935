/*
 * TAP reporter: the exact TAP 14 stream for pass, fail, error and repeated
 * tests, and agent text that tries to forge test points, plans, bail-outs
 * or directives.
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

static char *report(const struct an_run_result *r, const char *name)
{
    char path[128];
    struct an_err err = AN_ERR_INIT;
    snprintf(path, sizeof path, "%s/%s", files_dir, name);
    assert_int_equal(an_report_tap(r, path, &err), AN_OK);
    return files_slurp(path);
}

/* What a TAP 14 consumer would read as structure: every line is the
 * version, the plan, a test point, a comment, or indented (a YAML block). */
static void only_expected_lines(const char *s, size_t points)
{
    size_t n = 0;
    for (const char *line = s; *line;) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        if (!strncmp(line, "ok ", 3) || !strncmp(line, "not ok ", 7))
            n++;
        else
            assert_true(!strncmp(line, "TAP version 14\n", 15) || !strncmp(line, "1..", 3) ||
                        line[0] == '#' || !strncmp(line, "  ", 2));
        for (const char *c = line; c < end; c++)
            assert_true((unsigned char)*c >= 0x20 && *c != 0x7f);
        line = end + 1;
    }
    assert_int_equal(n, points);
}

static void test_pass_fail_error(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    struct an_test_result *t;

    fx_test(&r, "pays once", "tests/checkout.test.yaml", AN_STATUS_PASS, T0, T0 + 812);

    t = fx_test(&r, "refund twice", "tests/refund.test.yaml", AN_STATUS_FAIL, T0, T0 + 40);
    an_findings_add(&t->findings, "tools.require", 1, "tests/refund.test.yaml", 14, 9,
                    "Tool \"charge_card\" count", "exactly 1 call", "2 calls", NULL);
    an_findings_add(&t->findings, "text.must_match", -1, NULL, 0, 0, "Text must match",
                    "match /refunded once/", "no match", "checked every turn");

    t = fx_test(&r, "agent down", "tests/down.test.yaml", AN_STATUS_ERROR, T0, T0 + 3);
    fx_error(t, AN_ECONNECT, 0, "cannot reach http://127.0.0.1:9/agent: refused");

    t = fx_test(&r, "hook broke", "tests/hook.test.yaml", AN_STATUS_ERROR, T0, T0 + 5);
    fx_error(t, AN_EHOOK, -1, "tests/hook.test.yaml:4:5: hook 'false' exited with status 1");

    char *s = report(&r, "basic.tap");
    assert_string_equal(s, "TAP version 14\n"
                           "1..4\n"
                           "ok 1 - pays once\n"
                           "  ---\n"
                           "  file: \"tests/checkout.test.yaml\"\n"
                           "  duration_ms: 812\n"
                           "  tool_calls: 0\n"
                           "  turns: 0\n"
                           "  ...\n"
                           "not ok 2 - refund twice\n"
                           "  ---\n"
                           "  file: \"tests/refund.test.yaml\"\n"
                           "  duration_ms: 40\n"
                           "  tool_calls: 0\n"
                           "  turns: 0\n"
                           "  findings:\n"
                           "    - turn: 2\n"
                           "      kind: \"tools.require\"\n"
                           "      assertion: \"Tool \\\"charge_card\\\" count\"\n"
                           "      expected: \"exactly 1 call\"\n"
                           "      actual: \"2 calls\"\n"
                           "      at: \"tests/refund.test.yaml:14:9\"\n"
                           "    - turn: null\n"
                           "      kind: \"text.must_match\"\n"
                           "      assertion: \"Text must match\"\n"
                           "      expected: \"match /refunded once/\"\n"
                           "      actual: \"no match\"\n"
                           "      detail: \"checked every turn\"\n"
                           "  ...\n"
                           "not ok 3 - agent down\n"
                           "  ---\n"
                           "  file: \"tests/down.test.yaml\"\n"
                           "  duration_ms: 3\n"
                           "  tool_calls: 0\n"
                           "  turns: 0\n"
                           "  error:\n"
                           "    code: \"AN_ECONNECT\"\n"
                           "    message: \"cannot reach http://127.0.0.1:9/agent: refused\"\n"
                           "    turn: 1\n"
                           "  ...\n"
                           "not ok 4 - hook broke\n"
                           "  ---\n"
                           "  file: \"tests/hook.test.yaml\"\n"
                           "  duration_ms: 5\n"
                           "  tool_calls: 0\n"
                           "  turns: 0\n"
                           "  error:\n"
                           "    code: \"AN_EHOOK\"\n"
                           "    message: \"tests/hook.test.yaml:4:5: hook 'false' exited with "
                           "status 1\"\n"
                           "    turn: null\n"
                           "  ...\n"
                           "# agent calls: 4\n");
    only_expected_lines(s, 4);
    free(s);
    an_run_result_release(&r);
}

static void test_hostile_text(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    /* a name that would be a TODO directive, and one that would break the line */
    struct an_test_result *t = fx_test(&r, "retry # TODO later \\ done\nok 9 - forged",
                                       "t.test.yaml", AN_STATUS_FAIL, T0, T0 + 1);
    an_findings_add(&t->findings, "text.must_not_match", 0, "t.test.yaml", 3, 7,
                    "Text must not match /x/", "no match",
                    "matched in \"fine\nok 3 - forged\nBail out! \x1b[2J\xff\r\n  ...\n\"", NULL);

    t = fx_test(&r, "down", "d.test.yaml", AN_STATUS_ERROR, 0, 0);
    fx_error(t, AN_ERUN, 2, "RUN_ERROR: \"boom\"\n1..1\nnot ok 1\t\xe2\x80\xae\xef\xbf\xbf");

    char *s = report(&r, "hostile.tap");
    assert_string_equal(s, "TAP version 14\n"
                           "1..2\n"
                           "not ok 1 - retry \\# TODO later \\\\ done\\nok 9 - forged\n"
                           "  ---\n"
                           "  file: \"t.test.yaml\"\n"
                           "  duration_ms: 1\n"
                           "  tool_calls: 0\n"
                           "  turns: 0\n"
                           "  findings:\n"
                           "    - turn: 1\n"
                           "      kind: \"text.must_not_match\"\n"
                           "      assertion: \"Text must not match /x/\"\n"
                           "      expected: \"no match\"\n"
                           "      actual: \"matched in \\\"fine\\nok 3 - forged\\nBail out! "
                           "\\u001B[2J\xEF\xBF\xBD\\r\\n  ...\\n\\\"\"\n"
                           "      at: \"t.test.yaml:3:7\"\n"
                           "  ...\n"
                           "not ok 2 - down\n"
                           "  ---\n"
                           "  file: \"d.test.yaml\"\n"
                           "  duration_ms: 0\n"
                           "  tool_calls: 0\n"
                           "  turns: 0\n"
                           "  error:\n"
                           "    code: \"AN_ERUN\"\n"
                           "    message: \"RUN_ERROR: \\\"boom\\\"\\n1..1\\nnot ok 1\\t"
                           "\\u202E\\uFFFF\"\n"
                           "    turn: 3\n"
                           "  ...\n"
                           "# agent calls: 2\n");
    only_expected_lines(s, 2);
    free(s);
    an_run_result_release(&r);
}

static void test_repeats(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    struct an_test_result *t =
        fx_test(&r, "mostly fine", "a.test.yaml", AN_STATUS_PASS, T0, T0 + 50);
    t->runs = 5;
    t->passes = 4;

    t = fx_test(&r, "flaky", "b.test.yaml", AN_STATUS_FAIL, T0, T0 + 60);
    t->runs = 3;
    t->passes = 2;
    an_findings_add(&t->findings, "timing.max_duration_ms", 0, "b.test.yaml", 5, 24,
                    "Duration constraint", "\xe2\x89\xa4 10ms", "31ms", NULL);
    r.not_run = 2;

    char *s = report(&r, "repeat.tap");
    assert_string_equal(s, "TAP version 14\n"
                           "1..2\n"
                           "ok 1 - mostly fine\n"
                           "  ---\n"
                           "  file: \"a.test.yaml\"\n"
                           "  duration_ms: 50\n"
                           "  tool_calls: 0\n"
                           "  turns: 0\n"
                           "  runs: 5\n"
                           "  passes: 4\n"
                           "  pass_rate: 0.8\n"
                           "  stability: \"mostly stable\"\n"
                           "  k: 5\n"
                           "  pass_at_k: 1\n"
                           "  pass_hat_k: 0\n"
                           "  ci_low: 0.2836\n" /* Clopper-Pearson 4/5: [0.2836, 0.9949] */
                           "  ci_high: 0.9949\n"
                           "  ci_method: \"clopper-pearson\"\n"
                           "  confidence: 0.95\n"
                           "  flaky: true\n"
                           "  ...\n"
                           "not ok 2 - flaky\n"
                           "  ---\n"
                           "  file: \"b.test.yaml\"\n"
                           "  duration_ms: 60\n"
                           "  tool_calls: 0\n"
                           "  turns: 0\n"
                           "  runs: 3\n"
                           "  passes: 2\n"
                           "  pass_rate: 0.6667\n"
                           "  stability: \"unstable\"\n"
                           "  k: 3\n"
                           "  pass_at_k: 1\n"
                           "  pass_hat_k: 0\n"
                           "  ci_low: 0.0943\n"
                           "  ci_high: 0.9916\n"
                           "  ci_method: \"clopper-pearson\"\n"
                           "  confidence: 0.95\n"
                           "  flaky: true\n"
                           "  findings:\n"
                           "    - turn: 1\n"
                           "      kind: \"timing.max_duration_ms\"\n"
                           "      assertion: \"Duration constraint\"\n"
                           "      expected: \"\xe2\x89\xa4 10ms\"\n"
                           "      actual: \"31ms\"\n"
                           "      at: \"b.test.yaml:5:24\"\n"
                           "  ...\n"
                           "# 2 tests not run (--fail-fast)\n"
                           "# 2 flaky tests (runs that disagree)\n"
                           "# agent calls: 8\n");
    only_expected_lines(s, 2);
    free(s);
    an_run_result_release(&r);
}

static void test_empty_and_errors(void **state)
{
    (void)state;
    struct an_run_result empty = {0};
    char *s = report(&empty, "empty.tap");
    assert_string_equal(s, "TAP version 14\n1..0\n# agent calls: 0\n");
    free(s);

    char path[128];
    struct an_err err = AN_ERR_INIT;
    files_touch("blocker"); /* a file where a report's directory would have to be */
    snprintf(path, sizeof path, "%s/blocker/out.tap", files_dir);
    assert_int_equal(an_report_tap(&empty, path, &err), AN_EIO);
    assert_non_null(strstr(err.msg, path));
}

static void test_skip_directive(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    fx_test(&r, "pays once", "a.test.yaml", AN_STATUS_PASS, T0, T0 + 1);
    fx_test(&r, "T003 \xE2\x80\x94 later", "cases.jsonl", AN_STATUS_SKIP, T0, T0);
    /* the test's own '#' stays escaped: only the directive is one */
    fx_test(&r, "retry # TODO", "cases.jsonl", AN_STATUS_SKIP, T0, T0);
    char *s = report(&r, "skip.tap");
    assert_string_equal(s, "TAP version 14\n"
                           "1..3\n"
                           "ok 1 - pays once\n"
                           "  ---\n"
                           "  file: \"a.test.yaml\"\n"
                           "  duration_ms: 1\n"
                           "  tool_calls: 0\n"
                           "  turns: 0\n"
                           "  ...\n"
                           "ok 2 - T003 \xE2\x80\x94 later # SKIP\n"
                           "ok 3 - retry \\# TODO # SKIP\n"
                           "# agent calls: 1\n");
    only_expected_lines(s, 3);
    free(s);
    an_run_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pass_fail_error),  cmocka_unit_test(test_skip_directive),
        cmocka_unit_test(test_hostile_text),     cmocka_unit_test(test_repeats),
        cmocka_unit_test(test_empty_and_errors),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
