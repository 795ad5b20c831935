/*
 * Markdown reporter: the exact report for a run of every outcome and for
 * dynamic tests (their checkpoint tables), and names and agent text that
 * try to break a table, start a link, inject HTML or close a code block
 * early.
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

static char *report(const struct an_run_result *r, const char *name)
{
    char path[128];
    struct an_err err = AN_ERR_INIT;
    snprintf(path, sizeof path, "%s/%s", files_dir, name);
    assert_int_equal(an_report_markdown(r, path, &err), AN_OK);
    return files_slurp(path);
}

static void test_report(void **state)
{
    (void)state;
    struct an_run_result r = fx_mixed_run();
    char *s = report(&r, "run.md");
    assert_string_equal(
        s,
        "# ananke test report\n"
        "\n"
        "| Total | Passed | Failed | Skipped | Errors | Pass rate | Duration |\n"
        "|---:|---:|---:|---:|---:|---:|---:|\n"
        "| 6 | 2 | 1 | 1 | 2 | 40.0% | 1420ms |\n"
        "\n"
        "Started 2025-01-17 07:46:40 UTC with ananke.config.yaml. Skipped tests are left out of "
        "the pass rate. 1 of the errors timed out. 1 repeated test was flaky (the runs "
        "disagree). 7 agent calls.\n"
        "\n"
        "## Failed and errored tests\n"
        "\n"
        "### FAIL \\[T002\\]\n"
        "\n"
        "cases.jsonl \xC2\xB7 40ms \xC2\xB7 0 tool calls \xC2\xB7 1 turn\n"
        "\n"
        "```text\n"
        "test: Output must contain \"ciao\"\n"
        "  expected: the text \"ciao\"\n"
        "  at cases.jsonl:2:40\n"
        "```\n"
        "\n"
        "### ERROR slow agent\n"
        "\n"
        "slow.test.yaml \xC2\xB7 500ms \xC2\xB7 timed out \xC2\xB7 0 tool calls \xC2\xB7 1 turn\n"
        "\n"
        "```text\n"
        "turn 1: test timed out after 500 ms [AN_ETIMEOUT]\n"
        "```\n"
        "\n"
        "### ERROR agent down\n"
        "\n"
        "down.test.yaml \xC2\xB7 3ms \xC2\xB7 0 tool calls \xC2\xB7 1 turn\n"
        "\n"
        "```text\n"
        "turn 1: cannot reach http://127.0.0.1:9/agent: refused [AN_ECONNECT]\n"
        "turn 2 not run\n"
        "```\n"
        "\n"
        "## Passed tests\n"
        "\n"
        "| Test | File | Duration | Tool calls | Turns | TTFT | Tokens | Cost |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|\n"
        "| \\[T001\\] greeting | cases.jsonl | 812ms | 0 | 1 | - | - | - |\n"
        "| flaky | flaky.test.yaml | 60ms | 0 | 1 | - | - | - |\n"
        "\n"
        "## Skipped tests\n"
        "\n"
        "| Test | File | Reason |\n"
        "|---|---|---|\n"
        "| \\[T003\\] later | cases.jsonl |  |\n"
        "\n"
        "## Stability\n"
        "\n"
        "| Test | Runs | Passed | Pass rate | Stability | Flaky | pass^k | pass@k | Interval |\n"
        "|---|---:|---:|---:|---|---|---:|---:|---|\n"
        "| flaky | 3 | 2 | 66.7% | unstable | **flaky** | pass^3 0% | pass@3 100% | "
        "95% CI [9.4%, 99.2%] (clopper-pearson) |\n");
    free(s);
    an_run_result_release(&r);
}

static void test_hostile_names_and_text(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    struct an_test_result *t;
    r.start_ms = 1737100000000LL;
    r.end_ms = r.start_ms + 5;
    fx_test(&r, "a | b\n<img src=x onerror=alert(1)> [x](http://e) *em* `c`", "dir/t_1.yaml",
            AN_STATUS_PASS, 0, 7);
    t = fx_test(&r, "fence", NULL, AN_STATUS_FAIL, 0, 1);
    an_findings_add(&t->findings, "text.must_match", 0, NULL, 0, 0, "Text must match", "match /x/",
                    "said:\n```\n# not a heading\n````", NULL);
    char *s = report(&r, "hostile.md");
    /* one table row: the pipe escaped, the line break a <br>, no tag, no link */
    assert_non_null(strstr(s, "| a \\| b<br>\\<img src=x onerror=alert(1)\\> \\[x\\](http://e) "
                              "\\*em\\* \\`c\\` | dir/t\\_1.yaml | 7ms | 0 | 0 | - | - | - |\n"));
    /* the longest backtick run inside is 4: the fence is 5, and the text's own
     * fences and heading stay inside it */
    assert_non_null(strstr(s, "### FAIL fence\n\n1ms \xC2\xB7 0 tool calls \xC2\xB7 0 turns\n\n"
                              "`````text\n"
                              "turn 1: Text must match\n"
                              "  expected: match /x/\n"
                              "  actual: said:\n"
                              "  ```\n"
                              "  # not a heading\n"
                              "  ````\n"
                              "`````\n"));
    free(s);
    an_run_result_release(&r);

    struct an_run_result empty = {0};
    s = report(&empty, "empty.md");
    assert_non_null(strstr(s, "| 0 | 0 | 0 | 0 | 0 | 0.0% | 0ms |\n"));
    assert_non_null(
        strstr(s, "Started at an unknown time. 0 agent calls.\n\nNo tests were run.\n"));
    assert_int_equal(s[strlen(s) - 2], '.');
    free(s);
}

static void test_dynamic(void **state)
{
    (void)state;
    struct an_run_result r = fx_dynamic_run();
    char *s = report(&r, "dynamic.md");
    assert_string_equal(
        s, "# ananke test report\n"
           "\n"
           "| Total | Passed | Failed | Skipped | Errors | Pass rate | Duration |\n"
           "|---:|---:|---:|---:|---:|---:|---:|\n"
           "| 2 | 1 | 1 | 0 | 0 | 50.0% | 9000ms |\n"
           "\n"
           "Started 2025-01-17 07:46:40 UTC. 2 agent calls.\n"
           "\n"
           "## Failed and errored tests\n"
           "\n"
           "### FAIL \\[T004\\] expense coverage\n"
           "\n"
           "cases.jsonl \xC2\xB7 6800ms \xC2\xB7 1 tool call \xC2\xB7 3 turns\n"
           "\n"
           "```text\n"
           "test: max turns (3) exceeded without reaching all checkpoints\n"
           "  expected: every required checkpoint reached\n"
           "  actual: missing: confirm\n"
           "  at cases.jsonl:4:1\n"
           "```\n"
           "\n"
           "## Passed tests\n"
           "\n"
           "| Test | File | Duration | Tool calls | Turns | TTFT | Tokens | Cost |\n"
           "|---|---|---:|---:|---:|---:|---:|---:|\n"
           "| greets back | dyn.test.yaml | 500ms | 0 | 1 | - | - | - |\n"
           "\n"
           "## Dynamic tests\n"
           "\n"
           "### \\[T004\\] expense coverage\n"
           "\n"
           "FAIL \xC2\xB7 3 turns, 2/3 checkpoints (max turns); missing: confirm \xC2\xB7 "
           "simulator user-sim, seed 42\n"
           "\n"
           "| Checkpoint | Required | Reached at turn | Evidence |\n"
           "|---|---|---:|---|\n"
           "| ask\\_type: Agent asks for expense type | yes | 1 | text contains \"type\" |\n"
           "| call\\_create: Agent calls create\\_expense | no | 3 | "
           "create\\_expense({\"amount\":250}) |\n"
           "| confirm: Agent confirms submission | yes | **missing** |  |\n"
           "\n"
           "### greets back\n"
           "\n"
           "PASS \xC2\xB7 1 turn, 1/1 checkpoint (all reached) \xC2\xB7 simulator user-sim\n"
           "\n"
           "| Checkpoint | Required | Reached at turn | Evidence |\n"
           "|---|---|---:|---|\n"
           "| greet | yes | 1 |  |\n");
    free(s);

    /* a checkpoint's id and evidence cannot end a cell or start a link */
    fx_checkpoint(&r.tests[1], "a|b", "[x](http://e)", false, -1, NULL);
    fx_checkpoint(&r.tests[1], "c", NULL, true, 0, "one\ntwo | <b>");
    s = report(&r, "dynamic2.md");
    assert_non_null(strstr(s, "| a\\|b: \\[x\\](http://e) | no | not reached |  |\n"
                              "| c | yes | 1 | one<br>two \\| \\<b\\> |\n"));
    assert_non_null(strstr(s, "1 turn, 2/3 checkpoints (all reached); optional, not reached: "
                              "a\\|b \xC2\xB7"));
    free(s);
    an_run_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_hostile_names_and_text),
        cmocka_unit_test(test_dynamic),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
