/*
 * Console reporter: the exact text a person reads, for PASS, FAIL with
 * findings and evidence, ERROR with what was captured, colour on and off,
 * hostile agent text, -v turn lines, and a dynamic test's outcome and
 * checkpoints turn by turn.
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
#include "core/json.h"
#include "support/results_fixture.h"

#define T0 1737100000000LL

/* A call with its arguments given as JSON text, ending 5 ms after it
 * started; without a result it shows as still waiting. */
static void call(struct an_transcript *tr, unsigned turn, const char *name, const char *args,
                 const char *result, int64_t start, int64_t res_ms)
{
    struct an_tool_call *c = fx_call(tr, turn, name, json_loads(args, 0, NULL),
                                     result ? json_loads(result, JSON_DECODE_ANY, NULL) : NULL);
    c->args_text = strdup(args);
    c->start_ms = start;
    c->end_ms = start + 5;
    c->result_ms = result ? res_ms : 0;
    c->ts_ms = result ? res_ms : c->end_ms;
}

static void pass_test(struct an_run_result *r)
{
    struct an_test_result *t =
        fx_test(r, "pays once", "tests/checkout.test.yaml", AN_STATUS_PASS, T0, T0 + 812);
    fx_turn(&t->transcript, "buy the red shoes", "Bought them.", T0 + 10, T0 + 800);
    call(&t->transcript, 0, "search", "{\"q\":\"red shoes\"}", "{\"items\":[1]}", T0 + 130,
         T0 + 350);
    an_turn_warn(&t->transcript.turns[0], "unknown event %s", "FOO");
}

static void fail_test(struct an_run_result *r)
{
    struct an_test_result *t =
        fx_test(r, "refund twice", "tests/refund.test.yaml", AN_STATUS_FAIL, T0, T0 + 12345);
    struct an_transcript *tr = &t->transcript;
    fx_turn(tr, "hello", "Hi!", T0, T0 + 100);
    fx_turn(tr, "refund order 42", "Done \x1b[2Jrefunded\xff twice", T0 + 100, T0 + 12300);
    call(tr, 1, "lookup_order", "{\"id\":42}", "{\"status\":\"paid\"}", T0 + 150, T0 + 200);
    call(tr, 1, "charge_card", "{\"amount\":10}", "{\"ok\":true}", T0 + 300, T0 + 400);
    call(tr, 1, "charge_card", "{\"amount\":10}", NULL, T0 + 500, 0);
    an_findings_add(&t->findings, "tools.forbid_calls", 1, "tests/refund.test.yaml", 14, 9,
                    "Tool \"charge_card\" count", "exactly 1 call", "2 calls", NULL);
    an_findings_add(&t->findings, "text.must_match", -1, "tests/refund.test.yaml", 20, 5,
                    "Text must match", "match /refunded once/", "\"Hi!\\nDone\"",
                    "checked the text\nof every turn");
}

static void error_test(struct an_run_result *r)
{
    struct an_test_result *t =
        fx_test(r, "agent down", "tests/refund.test.yaml", AN_STATUS_ERROR, T0, T0 + 30000);
    struct an_transcript *tr = &t->transcript;
    fx_error(t, AN_EPROTO, 1, "stream cut after 2 events");
    fx_turn(tr, "hello", "Hi!", T0, T0 + 100);
    struct an_turn_rec *broke = fx_turn(tr, "refund", "Let me ch", T0 + 100, T0 + 30000);
    an_turn_fail(broke, AN_EPROTO, "stream cut after 2 events");
    call(tr, 1, "lookup_order", "{\"id\":42}", NULL, T0 + 150, 0);
    fx_turn(tr, "thanks", NULL, 0, 0)->status = AN_TURN_NOT_RUN;
    fx_turn(tr, "bye", NULL, 0, 0)->status = AN_TURN_NOT_RUN;
}

static char *render(const struct an_test_result *t, struct an_console_opts *o)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    assert_non_null(f);
    an_console_test(f, t, o);
    fclose(f);
    return s;
}

static void no_trailing_spaces(const char *s)
{
    for (const char *p = s; (p = strchr(p, '\n')); p++)
        if (p > s)
            assert_true(p[-1] != ' ');
}

static struct an_run_result fixture(void)
{
    struct an_run_result r = {0};
    pass_test(&r);
    fail_test(&r);
    error_test(&r);
    r.start_ms = T0;
    r.end_ms = T0 + 1420;
    return r;
}

static void test_pass_line(void **state)
{
    (void)state;
    struct an_run_result r = fixture();
    struct an_console_opts o = AN_CONSOLE_OPTS_INIT;
    char *s = render(&r.tests[0], &o);
    /* a passing test still shows its warnings (here: an unknown event) */
    assert_string_equal(s, "PASS  pays once (812ms)  tests/checkout.test.yaml\n"
                           "  warning (turn 1): unknown event FOO\n");
    free(s);
    an_run_result_release(&r);
}

static void test_fail_findings_and_evidence(void **state)
{
    (void)state;
    struct an_run_result r = fixture();
    struct an_console_opts o = AN_CONSOLE_OPTS_INIT;
    char *s = render(&r.tests[1], &o);
    assert_string_equal(s, "FAIL  refund twice (12.3s)  tests/refund.test.yaml\n"
                           "  turn 2: Tool \"charge_card\" count\n"
                           "    expected: exactly 1 call\n"
                           "    actual:   2 calls\n"
                           "    at tests/refund.test.yaml:14:9\n"
                           "    calls:\n"
                           "      lookup_order({\"id\":42}) \xE2\x86\x92 {\"status\":\"paid\"}\n"
                           "      charge_card({\"amount\":10}) \xE2\x86\x92 {\"ok\":true}\n"
                           "      charge_card({\"amount\":10}) \xE2\x86\x92 (no result)\n"
                           "    text: \"Done \\u001b[2Jrefunded\xEF\xBF\xBD twice\"\n"
                           "  test: Text must match\n"
                           "    expected: match /refunded once/\n"
                           "    actual:   \"Hi!\\nDone\"\n"
                           "    checked the text\n"
                           "    of every turn\n"
                           "    at tests/refund.test.yaml:20:5\n"
                           "    calls: turn 2: lookup_order, charge_card, charge_card\n");
    no_trailing_spaces(s);
    free(s);
    an_run_result_release(&r);
}

static void test_findings_share_turn_evidence(void **state)
{
    (void)state;
    struct an_run_result r = fixture();
    struct an_test_result *t = &r.tests[1];
    an_findings_add(&t->findings, "tools.forbid", 1, NULL, 0, 0,
                    "Tool \"charge_card\" must not be called", NULL, NULL, NULL);
    struct an_console_opts o = AN_CONSOLE_OPTS_INIT;
    char *s = render(t, &o);
    /* the second finding on turn 2 has no file: no "at" line, no repeat of the calls */
    assert_non_null(strstr(s, "  turn 2: Tool \"charge_card\" must not be called\n"));
    assert_null(strstr(strstr(s, "must not be called"), "calls:\n"));
    free(s);
    an_run_result_release(&r);
}

static void test_error(void **state)
{
    (void)state;
    struct an_run_result r = fixture();
    struct an_console_opts o = AN_CONSOLE_OPTS_INIT;
    char *s = render(&r.tests[2], &o);
    assert_string_equal(s, "ERROR agent down (30.0s)  tests/refund.test.yaml\n"
                           "  turn 2: stream cut after 2 events\n"
                           "    captured before it broke:\n"
                           "      calls:\n"
                           "        lookup_order({\"id\":42}) \xE2\x86\x92 (no result)\n"
                           "      text: \"Let me ch\"\n"
                           "  turns 3\xE2\x80\x93"
                           "4 not run\n");
    free(s);

    /* a hook failure: outside any turn, nothing captured */
    struct an_test_result *t = fx_test(&r, "hook", NULL, AN_STATUS_ERROR, 0, 0);
    fx_error(t, AN_EHOOK, -1, "hook 1 failed: exit 3\nstderr: boom");
    s = render(t, &o);
    assert_string_equal(s, "ERROR hook (0ms)\n"
                           "  hook 1 failed: exit 3\n"
                           "    stderr: boom\n");
    free(s);
    an_run_result_release(&r);
}

static void test_color(void **state)
{
    (void)state;
    struct an_run_result r = fixture();
    struct an_console_opts o = AN_CONSOLE_OPTS_INIT;
    for (int v = 0; v < 2; v++) {
        o.verbose = v;
        for (size_t i = 0; i < r.ntests; i++) {
            char *s = render(&r.tests[i], &o);
            assert_null(strchr(s, '\x1b')); /* not even from the agent's text */
            free(s);
        }
    }
    o.verbose = 0;
    o.color = true;
    char *s = render(&r.tests[0], &o);
    assert_string_equal(s, "\x1b[32mPASS\x1b[0m  pays once (812ms)  "
                           "\x1b[2mtests/checkout.test.yaml\x1b[0m\n"
                           "\x1b[33m  warning\x1b[0m (turn 1): unknown event FOO\n");
    free(s);
    s = render(&r.tests[1], &o);
    assert_memory_equal(s, "\x1b[31mFAIL\x1b[0m  refund", 20);
    assert_non_null(strstr(s, "    \x1b[2mat tests/refund.test.yaml:14:9\x1b[0m\n"));
    /* the agent's escape is still shown, not obeyed */
    assert_non_null(strstr(s, "\"Done \\u001b[2Jrefunded"));
    free(s);
    s = render(&r.tests[2], &o);
    assert_memory_equal(s, "\x1b[33mERROR\x1b[0m agent down", 25);
    free(s);
    an_run_result_release(&r);
}

static void test_hostile_text(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    struct an_test_result *t = fx_test(&r,
                                       "evil\rPASS \x1b]0;title\x07 \xe2\x80\xae"
                                       "name\xc3\xa9",
                                       NULL, AN_STATUS_FAIL, 0, 0);
    fx_turn(&t->transcript, "q",
            "a\x9b"
            "b\xc2\x9b"
            "c\x7f"
            "d\te\x01",
            T0, T0 + 1);
    an_findings_add(&t->findings, "text.must_match", 0, NULL, 0, 0, "Text must match", NULL, NULL,
                    NULL);
    struct an_console_opts o = AN_CONSOLE_OPTS_INIT;
    char *s = render(t, &o);
    assert_string_equal(s, "FAIL  evil\\rPASS \\u001b]0;title\\u0007 \\u202ename\xc3\xa9 (0ms)\n"
                           "  turn 1: Text must match\n"
                           "    calls: none\n"
                           "    text: \"a\xEF\xBF\xBD"
                           "b\\u009bc\\u007fd\\te\\u0001\"\n");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        assert_true(*p >= 0x20 || *p == '\n');
    free(s);
    an_run_result_release(&r);
}

static void test_cut(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    struct an_test_result *t = fx_test(&r, "long", NULL, AN_STATUS_FAIL, 0, 0);
    /* 10 x "é" (2 bytes each): a cut at 5 bytes must not split one */
    fx_turn(&t->transcript, "q",
            "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", T0,
            T0 + 1);
    an_findings_add(&t->findings, "text.must_match", 0, NULL, 0, 0, "Text must match", NULL, NULL,
                    NULL);
    struct an_console_opts o = AN_CONSOLE_OPTS_INIT;
    o.cut = 5;
    char *s = render(t, &o);
    assert_non_null(strstr(s, "    text: \"\xc3\xa9\xc3\xa9\xE2\x80\xA6\" (+16 bytes)\n"));
    free(s);
    an_run_result_release(&r);
}

static void test_verbose(void **state)
{
    (void)state;
    struct an_run_result r = fixture();
    struct an_test_result *t = &r.tests[0];
    fx_vars(t, (const char *const[]){"TOKEN", "USER"}, 2);
    struct an_console_opts o = AN_CONSOLE_OPTS_INIT;
    o.verbose = 1;
    char *s = render(t, &o);
    assert_string_equal(s, "PASS  pays once (812ms)  tests/checkout.test.yaml\n"
                           "  1 tool call · 1 turn\n"
                           "  variables: TOKEN, USER\n"
                           "  turn 1 user: \"buy the red shoes\" (790ms)\n"
                           "    calls:\n"
                           "      +120ms search({\"q\":\"red shoes\"}) \xE2\x86\x92 +340ms "
                           "{\"items\":[1]}\n"
                           "    text: \"Bought them.\"\n"
                           "    warning: unknown event FOO\n");
    free(s);
    /* -vv adds the raw frames, escaped like any agent text */
    an_turn_add_frame(&t->transcript.turns[0], T0 + 12, "{\"type\":\"RUN_STARTED\"}\x1b", 23);
    o.verbose = 2;
    s = render(t, &o);
    assert_non_null(strstr(s, "    warning: unknown event FOO\n"
                              "    frame +2ms {\"type\":\"RUN_STARTED\"}\\u001b\n"));
    free(s);
    o.verbose = 1;
    s = render(&r.tests[2], &o);
    assert_non_null(strstr(s, "    error: stream cut after 2 events\n"
                              "  turn 3 user: \"thanks\" not run\n"
                              "  turn 4 user: \"bye\" not run\n"));
    no_trailing_spaces(s);
    free(s);
    an_run_result_release(&r);
}

static void test_summary(void **state)
{
    (void)state;
    struct an_run_result r = fixture();
    struct an_console_opts o = AN_CONSOLE_OPTS_INIT;
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    an_console_summary(f, &r, &o);
    fclose(f);
    /* the recap of the failed and errored tests comes first */
    assert_string_equal(s, "\nfailed and errored tests:\n"
                           "  FAIL  refund twice  tests/refund.test.yaml:14\n"
                           "    turn 2: Tool \"charge_card\" count: 2 calls (+1 more)\n"
                           "  ERROR agent down  tests/refund.test.yaml\n"
                           "    turn 2: stream cut after 2 events\n"
                           "\n1 passed, 1 failed, 1 error (3 tests) in 1.42s\nPass rate: 33.3%\n"
                           "Agent calls: 3\n");
    free(s);
    /* in colour, with what the agent said escaped: no escape sequence of
     * its own, no line a CI runner reads as a workflow command */
    free(r.tests[1].findings.v[0].actual);
    r.tests[1].findings.v[0].actual = strdup("\x1b[2J\n::add-mask::x\n##[error]y");
    o.color = true;
    f = open_memstream(&s, &n);
    an_console_summary(f, &r, &o);
    fclose(f);
    assert_non_null(strstr(s,
                           "  \x1b[31mFAIL\x1b[0m  refund twice  \x1b[2mtests/refund.test.yaml:14"
                           "\x1b[0m\n    turn 2: Tool \"charge_card\" count: \\u001b[2J\\n"));
    assert_null(strstr(s, "\x1b[2J"));
    assert_null(strstr(s, "\n::"));
    assert_null(strstr(s, "##["));
    free(s);
    o.color = false;
    an_test_result_release(&r.tests[2]);
    r.ntests = 2;
    r.tests[1].status = AN_STATUS_ERROR;
    f = open_memstream(&s, &n);
    an_console_summary(f, &r, &o);
    fclose(f);
    assert_non_null(strstr(s, "\n  ERROR refund twice  tests/refund.test.yaml\n"));
    assert_non_null(
        strstr(s, "\n1 passed, 0 failed, 1 error (2 tests) in 1.42s\nPass rate: 50.0%\n"));
    free(s);
    r.tests[0].status = AN_STATUS_ERROR;
    f = open_memstream(&s, &n);
    an_console_summary(f, &r, &o);
    fclose(f);
    assert_non_null(
        strstr(s, "\n0 passed, 0 failed, 2 errors (2 tests) in 1.42s\nPass rate: 0.0%\n"));
    free(s);
    an_run_result_release(&r);
}

static void test_skip_and_case_names(void **state)
{
    (void)state;
    struct an_run_result r = fx_mixed_run();
    struct an_console_opts o = AN_CONSOLE_OPTS_INIT;
    /* a JSONL case reads "[id] name"; a skipped one has no duration and no detail */
    char *s = render(&r.tests[0], &o);
    assert_string_equal(s, "PASS  [T001] greeting (812ms)  cases.jsonl\n");
    free(s);
    s = render(&r.tests[4], &o);
    assert_string_equal(s, "SKIP  [T003] later  cases.jsonl\n");
    free(s);
    s = render(&r.tests[1], &o);
    const char *head = "FAIL  [T002] (40ms)  cases.jsonl\n  test: Output must contain";
    assert_true(!strncmp(s, head, strlen(head)));
    free(s);
    o.color = true;
    s = render(&r.tests[4], &o);
    assert_string_equal(s, "\x1b[2mSKIP\x1b[0m  [T003] later  \x1b[2mcases.jsonl\x1b[0m\n");
    free(s);
    o.color = false;

    /* the skipped count only when there is one; the rate leaves skips out */
    char *sum = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&sum, &n);
    an_console_summary(f, &r, &o);
    fclose(f);
    assert_string_equal(sum, "\nfailed and errored tests:\n"
                             "  FAIL  [T002]  cases.jsonl:2\n"
                             "    Output must contain \"ciao\"\n"
                             "  ERROR slow agent  slow.test.yaml\n"
                             "    turn 1: test timed out after 500 ms\n"
                             "  ERROR agent down  down.test.yaml\n"
                             "    turn 1: cannot reach http://127.0.0.1:9/agent: refused\n"
                             "\n2 passed, 1 failed, 2 errors, 1 skipped, 1 flaky (6 tests) in "
                             "1.42s\n"
                             "Pass rate: 40.0%\n"
                             "Agent calls: 7\n"); /* 2 of the flaky test's 3 runs more */
    free(sum);

    /* the flaky test (2 of 3 runs): its statistics under its runs, the
     * interval Clopper-Pearson below 10 runs (values: test_stats.c) */
    s = render(&r.tests[5], &o);
    assert_non_null(strstr(s, "\n  2/3 runs passed (67%, unstable)\n"
                              "  flaky, pass^3 0%, pass@3 100%, 95% CI [9.4%, 99.2%] "
                              "(clopper-pearson)\n"));
    free(s);
    o.pass_k = 2;
    o.confidence = 0.5;
    s = render(&r.tests[5], &o);
    assert_non_null(strstr(s, "  flaky, pass^2 33.3%, pass@2 100%, 50% CI ["));
    free(s);
    o.pass_k = 5; /* more than its runs: no estimate */
    s = render(&r.tests[5], &o);
    assert_non_null(strstr(s, "  flaky, pass^5 n/a (3 runs), 50% CI ["));
    free(s);
    sum = NULL;
    free(sum);
    an_run_result_release(&r);
}

static void test_dynamic(void **state)
{
    (void)state;
    struct an_run_result r = fx_dynamic_run();
    struct an_console_opts o = AN_CONSOLE_OPTS_INIT;
    /* the outcome line always; the findings as for any test */
    char *s = render(&r.tests[0], &o);
    assert_string_equal(s, "FAIL  [T004] expense coverage (6800ms)  cases.jsonl\n"
                           "  3 turns, 2/3 checkpoints (max turns); missing: confirm\n"
                           "  test: max turns (3) exceeded without reaching all checkpoints\n"
                           "    expected: every required checkpoint reached\n"
                           "    actual:   missing: confirm\n"
                           "    at cases.jsonl:4:1\n"
                           "    calls: turn 3: create_expense\n");
    free(s);
    s = render(&r.tests[1], &o);
    assert_string_equal(s, "PASS  greets back (500ms)  dyn.test.yaml\n"
                           "  1 turn, 1/1 checkpoint (all reached)\n");
    free(s);

    /* -v: each turn with the checkpoints reached there and the reasoning */
    o.verbose = 1;
    s = render(&r.tests[0], &o);
    assert_string_equal(s, "FAIL  [T004] expense coverage (6800ms)  cases.jsonl\n"
                           "  3 turns, 2/3 checkpoints (max turns); missing: confirm\n"
                           "  test: max turns (3) exceeded without reaching all checkpoints\n"
                           "    expected: every required checkpoint reached\n"
                           "    actual:   missing: confirm\n"
                           "    at cases.jsonl:4:1\n"
                           "  1 tool call · 3 turns\n"
                           "  simulator: user-sim (seed 42)\n"
                           "  turn 1 user: \"Help me file an expense\" (1200ms)\n"
                           "    calls: none\n"
                           "    text: \"What type of expense is it?\"\n"
                           "    reached: ask_type (Agent asks for expense type)\n"
                           "      evidence: text contains \"type\"\n"
                           "    simulator reasoning: \"Start by asking for help\"\n"
                           "  turn 2 user: \"Client dinner, $250\" (1700ms)\n"
                           "    calls: none\n"
                           "    text: \"Anything else?\"\n"
                           "  turn 3 user: \"No, that's all\" (3700ms)\n"
                           "    calls:\n"
                           "      create_expense({\"amount\":250}) \xE2\x86\x92 {\"id\":\"E-1\"}\n"
                           "    text: \"Created it.\"\n"
                           "    reached: call_create (Agent calls create_expense)\n"
                           "      evidence: create_expense({\"amount\":250})\n"
                           "    simulator reasoning: \"The agent has not confirmed yet\"\n");
    no_trailing_spaces(s);
    free(s);
    s = render(&r.tests[1], &o);
    assert_string_equal(s, "PASS  greets back (500ms)  dyn.test.yaml\n"
                           "  1 turn, 1/1 checkpoint (all reached)\n"
                           "  0 tool calls · 1 turn\n"
                           "  simulator: user-sim\n"
                           "  turn 1 user: \"hi\" (400ms)\n"
                           "    calls: none\n"
                           "    text: \"Hello!\"\n"
                           "    reached: greet\n"
                           "  simulator after turn 1: \"Greeted back: goal achieved\"\n");
    free(s);

    /* what the simulator or a test file wrote cannot repaint the terminal;
     * an optional checkpoint missed is named apart from the missing ones */
    struct an_test_result *t = &r.tests[1];
    fx_checkpoint(t, "tip\x1b[2J", NULL, false, -1, NULL);
    fx_checkpoint(t, "bye",
                  "says \x1b]0;x\x07"
                  "bye",
                  true, 0, "line\nbreak");
    free(t->dyn->reasoning[1]);
    t->dyn->reasoning[1] = strdup("done\x1b[31m");
    t->dyn->end = AN_DYN_GOAL;
    s = render(t, &o);
    assert_string_equal(s, "PASS  greets back (500ms)  dyn.test.yaml\n"
                           "  1 turn, 2/3 checkpoints (goal achieved); optional, not reached: "
                           "tip\\u001b[2J\n"
                           "  0 tool calls · 1 turn\n"
                           "  simulator: user-sim\n"
                           "  turn 1 user: \"hi\" (400ms)\n"
                           "    calls: none\n"
                           "    text: \"Hello!\"\n"
                           "    reached: greet\n"
                           "    reached: bye (says \\u001b]0;x\\u0007bye)\n"
                           "      evidence: line\\nbreak\n"
                           "  simulator after turn 1: \"done\\u001b[31m\"\n");
    assert_null(strchr(s, '\x1b'));
    free(s);
    an_run_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pass_line),
        cmocka_unit_test(test_fail_findings_and_evidence),
        cmocka_unit_test(test_findings_share_turn_evidence),
        cmocka_unit_test(test_error),
        cmocka_unit_test(test_color),
        cmocka_unit_test(test_hostile_text),
        cmocka_unit_test(test_cut),
        cmocka_unit_test(test_verbose),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_skip_and_case_names),
        cmocka_unit_test(test_dynamic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
