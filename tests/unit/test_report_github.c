/*
 * GitHub annotations: one ::error command per finding and per error, at the
 * assertion's line, with GitHub's escaping so agent text cannot end the
 * command or start another one.
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
#include "support/results_fixture.h"

static char *annotate(const struct an_run_result *r)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    assert_non_null(f);
    an_report_github(f, r);
    fclose(f);
    return s;
}

static void test_findings_and_errors(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    struct an_test_result *t;
    unsetenv("GITHUB_WORKSPACE");

    fx_test(&r, "pays once", "tests/checkout.test.yaml", AN_STATUS_PASS, 0, 0);

    t = fx_test(&r, "refund twice", "./tests/refund.test.yaml", AN_STATUS_FAIL, 0, 0);
    an_findings_add(&t->findings, "tools.require", 0, "./tests/refund.test.yaml", 14, 9,
                    "Tool \"charge_card\" count", "exactly 1 call", "2 calls", NULL);
    /* declared in the config (target level); no column known */
    an_findings_add(&t->findings, "text.must_not_match", -1, "ananke.config.yaml", 20, 0,
                    "Text must not match /error/", "no match", "matched \"error\"", "in turn 2");
    /* no location at all: the test file, line 1 */
    an_findings_add(&t->findings, "timing.max_duration_ms", -1, NULL, 0, 0, "Duration constraint",
                    "<= 50ms", "51ms", NULL);

    t = fx_test(&r, "agent down", "tests/down.test.yaml", AN_STATUS_ERROR, 0, 0);
    fx_error(t, AN_ECONNECT, 0, "cannot reach http://127.0.0.1:9/agent: refused");

    t = fx_test(&r, "hook broke", "tests/hook.test.yaml", AN_STATUS_ERROR, 0, 0);
    fx_error(t, AN_EHOOK, -1, "tests/hook.test.yaml:4:5: hook 'false' exited with status 1");

    char *s = annotate(&r);
    assert_string_equal(
        s, "::error file=tests/refund.test.yaml,line=14,col=9,title=FAIL refund twice::"
           "turn 1: Tool \"charge_card\" count%0Aexpected: exactly 1 call%0Aactual: 2 calls\n"
           "::error file=ananke.config.yaml,line=20,title=FAIL refund twice::"
           "test: Text must not match /error/%0Aexpected: no match%0Aactual: matched "
           "\"error\"%0Ain turn 2\n"
           "::error file=tests/refund.test.yaml,line=1,title=FAIL refund twice::"
           "test: Duration constraint%0Aexpected: <= 50ms%0Aactual: 51ms\n"
           "::error file=tests/down.test.yaml,line=1,title=ERROR agent down::"
           "turn 1: cannot reach http://127.0.0.1:9/agent: refused [AN_ECONNECT]\n"
           "::error file=tests/hook.test.yaml,line=4,col=5,title=ERROR hook broke::"
           "tests/hook.test.yaml:4:5: hook 'false' exited with status 1 [AN_EHOOK]\n");
    free(s);
    an_run_result_release(&r);
}

static void test_escaping(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    unsetenv("GITHUB_WORKSPACE");
    struct an_test_result *t =
        fx_test(&r, "a: b, 100% \r\nsure", "dir,x/we:ird%.test.yaml", AN_STATUS_FAIL, 0, 0);
    an_findings_add(&t->findings, "text.must_not_match", 1, "dir,x/we:ird%.test.yaml", 3, 7,
                    "Text must not match /x/", "no match",
                    "\"done\n::add-mask::secret\r\n::stop-commands::x\n50% \x1b[2J\xff\"", NULL);

    char *s = annotate(&r);
    assert_string_equal(s, "::error file=dir%2Cx/we%3Aird%25.test.yaml,line=3,col=7,"
                           "title=FAIL a%3A b%2C 100%25 %0D%0Asure::"
                           "turn 2: Text must not match /x/%0Aexpected: no match%0A"
                           "actual: \"done%0A::add-mask::secret%0D%0A::stop-commands::x%0A"
                           "50%25 \\u001b[2J\xEF\xBF\xBD\"\n");
    /* exactly one line: nothing the agent wrote starts a command */
    size_t len = strlen(s), lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += s[i] == '\n';
    assert_int_equal(lines, 1);
    assert_true(len > 0 && s[len - 1] == '\n');
    free(s);
    an_run_result_release(&r);
}

static void test_workspace_and_repeats(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    setenv("GITHUB_WORKSPACE", "/home/runner/work/shop/shop/", 1);
    struct an_test_result *t =
        fx_test(&r, "flaky", "/home/runner/work/shop/shop/tests/f.test.yaml", AN_STATUS_FAIL, 0, 0);
    t->runs = 5;
    t->passes = 3;
    an_findings_add(&t->findings, "tools.forbid", 0,
                    "/home/runner/work/shop/shop/tests/f.test.yaml", 6, 11, "Tool \"rm\" forbidden",
                    "no call", "1 call", NULL);
    /* a file outside the workspace keeps its path */
    fx_test(&r, "elsewhere", "/tmp/x.test.yaml", AN_STATUS_FAIL, 0, 0);

    char *s = annotate(&r);
    assert_string_equal(s, "::error file=tests/f.test.yaml,line=6,col=11,title=FAIL flaky::"
                           "turn 1: Tool \"rm\" forbidden%0Aexpected: no call%0Aactual: 1 call"
                           "%0Apassed 3 of 5 runs; flaky, pass^5 0%25, pass@5 100%25, "
                           "95%25 CI [14.7%25, 94.7%25] (clopper-pearson)\n"
                           "::error file=/tmp/x.test.yaml,line=1,title=FAIL elsewhere::"
                           "test failed\n"
                           "::notice title=ananke::6 agent calls (every run of every test)\n");
    free(s);
    /* a flaky test that passed: a warning, an error with --fail-on-flaky */
    t = &r.tests[0];
    t->status = AN_STATUS_PASS;
    an_findings_release(&t->findings);
    r.tests[1].status = AN_STATUS_PASS;
    s = annotate(&r);
    assert_string_equal(s, "::warning file=tests/f.test.yaml,line=1,title=FLAKY flaky::"
                           "its runs disagree%0Apassed 3 of 5 runs; flaky, pass^5 0%25, "
                           "pass@5 100%25, 95%25 CI [14.7%25, 94.7%25] (clopper-pearson)\n"
                           "::notice title=ananke::6 agent calls (every run of every test)\n");
    free(s);
    r.fail_on_flaky = true;
    s = annotate(&r);
    assert_true(!strncmp(s,
                         "::error file=tests/f.test.yaml,line=1,title=FLAKY flaky::its runs "
                         "disagree (--fail-on-flaky fails the run)%0A",
                         89));
    free(s);
    unsetenv("GITHUB_WORKSPACE");

    /* every test passed or was skipped: nothing at all */
    struct an_run_result ok = {0};
    fx_test(&ok, "fine", NULL, AN_STATUS_PASS, 0, 0);
    fx_test(&ok, "later", "cases.jsonl", AN_STATUS_SKIP, 0, 0);
    s = annotate(&ok);
    assert_string_equal(s, "");
    free(s);
    an_run_result_release(&ok);
    an_run_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_findings_and_errors),
        cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_workspace_and_repeats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
