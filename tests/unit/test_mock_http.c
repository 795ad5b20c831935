/*
 * Unit tests of the run-case mock (`ananke-mock http`): the scenario loader
 * (every error with its location) and rule picking by case, version and
 * `times`. The mock's sources are not part of libananke, so they are
 * compiled into this test directly.
 */
#include "../../src/mock/http_scenario.c"
#include "../../src/mock/mock_plan.c"
#include "../../src/mock/scenario_rules.c"
#include "../../src/mock/scenario_util.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support/mock_checks.h"

static int load_and_free(const char *yaml, struct an_err *err)
{
    struct http_scenario *s = NULL;
    int rc = http_scenario_load(&s, "s.yaml", yaml, strlen(yaml), err);
    if (rc)
        assert_null(s);
    http_scenario_free(s);
    return rc;
}

static const struct mock_bad_scenario bad_cases[] = {
    {"- a\n", "s.yaml:1:1", "a scenario must be a map"},
    {"rulez: []\n", "s.yaml:1:1", "unknown key 'rulez' in scenario (did you mean 'rules'?)"},
    {"rules:\n  - cas: a\n    response: {}\n", "s.yaml:2:5",
     "unknown key 'cas' in rule (did you mean 'case'?)"},
    {"rules:\n  - case: a\n", "s.yaml:2:5",
     "a rule needs 'response' (a run-case answer), 'body', 'stall' or 'drop'"},
    {"rules:\n  - case: []\n    response: {}\n", "s.yaml:2:11",
     "'case' must name at least one case id"},
    {"rules:\n  - case: [a, \"\"]\n    response: {}\n", "s.yaml:2:15",
     "'case' must be a non-empty string"},
    {"rules:\n  - version: \"\"\n    response: {}\n", "s.yaml:2:14",
     "'version' must be a non-empty string"},
    {"rules:\n  - response: {}\n    body: x\n", "s.yaml:3:5",
     "give 'response' or 'body', not both"},
    {"rules:\n  - stall: true\n    status: 500\n", "s.yaml:3:5",
     "a rule with 'stall' sends no answer; 'status' does not apply"},
    {"rules:\n  - drop: true\n    stall: true\n", "s.yaml:2:5", "give 'stall' or 'drop', not both"},
    {"rules:\n  - drop: false\n", "s.yaml:2:11", "'drop: false' does nothing; remove it"},
    {"rules:\n  - status: 99\n    response: {}\n", "s.yaml:2:13", "'status'"},
    {"rules:\n  - times: 0\n    response: {}\n", "s.yaml:2:12", "'times'"},
    {"rules:\n  - headers: {Content-Type: x}\n    response: {}\n", "s.yaml:2:15",
     "set the content type with 'content_type'"},
    {"default:\n  case: a\n  response: {}\n", "s.yaml:2:3", "'case' has no meaning in 'default'"},
};

static void test_bad_scenarios(void **state)
{
    (void)state;
    mock_assert_bad_scenarios(bad_cases, sizeof bad_cases / sizeof *bad_cases, load_and_free);
}

static void test_pick(void **state)
{
    (void)state;
    const char *yaml = "rules:\n"
                       "  - case: a\n    version: new\n    times: 1\n    status: 503\n"
                       "    response: {error: busy}\n"
                       "  - case: a\n    response: {final_output: {content: A}}\n"
                       "  - case: [b, c]\n    version: baseline\n    stall: true\n"
                       "  - case: b\n    drop: true\n"
                       "  - case: c\n    content_type: text/html\n    body: \"<p>\"\n"
                       "    delay_ms: 5\n";
    struct an_err err = AN_ERR_INIT;
    struct http_scenario *s = NULL;
    mock_assert_loaded(http_scenario_load(&s, "s.yaml", yaml, strlen(yaml), &err), &err);
    assert_int_equal(s->nrules, 5);
    assert_null(s->fallback);
    const struct http_rule *r = http_scenario_pick(s, "a", "new");
    assert_int_equal(r->status, 503);
    assert_string_equal(r->response, "{\"error\":\"busy\"}");
    r = http_scenario_pick(s, "a", "new"); /* `times` used up */
    assert_int_equal(r->status, 200);
    assert_string_equal(r->response, "{\"final_output\":{\"content\":\"A\"}}");
    assert_ptr_equal(http_scenario_pick(s, "a", "baseline"), r);
    assert_true(http_scenario_pick(s, "b", "baseline")->stall);
    assert_true(http_scenario_pick(s, "c", "baseline")->stall);
    assert_true(http_scenario_pick(s, "b", "new")->drop);
    r = http_scenario_pick(s, "c", "new");
    assert_string_equal(r->content_type, "text/html");
    assert_int_equal(r->body_len, 3);
    assert_int_equal(r->delay_ms, 5);
    assert_null(http_scenario_pick(s, "zzz", "new")); /* unknown: 404 */
    http_scenario_free(s);

    yaml = "default:\n  status: 500\n  response: {error: x}\n";
    mock_assert_loaded(http_scenario_load(&s, "s.yaml", yaml, strlen(yaml), &err), &err);
    assert_int_equal(http_scenario_pick(s, "anything", "new")->status, 500);
    http_scenario_free(s);
}

static char *never_ready(void *ud, size_t *len)
{
    (void)ud;
    (void)len;
    return NULL;
}

static void count_drop(void *ud)
{
    ++*(int *)ud;
}

/* An await is rendered in its place, and the plan drops its state once,
 * on release (the MCP mock's waiting kit tools rely on it). */
static void test_plan_await(void **state)
{
    (void)state;
    int dropped = 0;
    struct mock_plan p = MOCK_PLAN_INIT;
    mock_plan_write(&p, "a", 1);
    mock_plan_await(&p, never_ready, &dropped, count_drop);
    char *text = mock_plan_text(&p);
    assert_string_equal(text, "a<await>");
    free(text);
    assert_int_equal(dropped, 0);
    mock_plan_release(&p);
    assert_int_equal(dropped, 1);
    assert_int_equal(p.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_scenarios),
        cmocka_unit_test(test_pick),
        cmocka_unit_test(test_plan_await),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
