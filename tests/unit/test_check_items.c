/* Typed checks (seed 002): {output, calls, check as JSON, expected finding}. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/check.h"
#include "core/arena.h"
#include "load/check_load.h"

struct want {
    const char *kind, *assertion, *expected, *actual, *detail;
};

struct item_case {
    const char *title;
    const char *text;
    const char *calls; /* [{"name", "args", "result"}] or NULL */
    const char *check; /* the check as JSONL writes it */
    struct want want;  /* kind NULL: passes */
};

#define OUT "Expense submitted: {\"status\": \"ok\", \"items\": [{\"sku\": \"A-1\"}]}"
#define CALLS                                                                                      \
    "[{\"name\": \"mcp__create_expense\", \"args\": {\"amount\": 3500, \"tags\": [\"a\", "         \
    "\"b\"]}, \"result\": \"{\\\"status\\\": \\\"submitted\\\", \\\"id\\\": \\\"E-7\\\"}\"}]"

static const struct item_case cases[] = {
    /* contains / not_contains */
    {"contains: found", OUT, NULL, "{\"type\": \"contains\", \"value\": \"submitted\"}", {0}},
    {"contains: missing",
     "Hi there",
     NULL,
     "{\"type\": \"contains\", \"value\": \"bye\"}",
     {"check.contains", "Output must contain \"bye\"", "the text \"bye\"",
      "not found in \"Hi there\"", NULL}},
    {"contains: negate passes when absent",
     "Hi",
     NULL,
     "{\"type\": \"contains\", \"value\": \"bye\", \"negate\": true}",
     {0}},
    {"contains: negate fails when present",
     "Hi bye",
     NULL,
     "{\"type\": \"contains\", \"value\": \"bye\", \"negate\": true}",
     {"check.contains", "Output must not contain \"bye\"", "no \"bye\"",
      "found at byte 3 in \"Hi bye\"", NULL}},
    {"contains: a number is matched as its text",
     "total 42",
     NULL,
     "{\"type\": \"contains\", \"value\": 42}",
     {0}},
    {"contains: empty output",
     "",
     NULL,
     "{\"type\": \"contains\", \"value\": \"x\"}",
     {"check.contains", "Output must contain \"x\"", "the text \"x\"", "not found in empty output",
      NULL}},
    {"not_contains: passes", "Hi", NULL, "{\"type\": \"not_contains\", \"value\": \"error\"}", {0}},
    {"not_contains: fails",
     "an error",
     NULL,
     "{\"type\": \"not_contains\", \"value\": \"error\"}",
     {"check.not_contains", "Output must not contain \"error\"", "no \"error\"",
      "found at byte 3 in \"an error\"", NULL}},
    {"not_contains: negated is contains",
     "an error",
     NULL,
     "{\"type\": \"not_contains\", \"value\": \"error\", \"negate\": true}",
     {0}},
    {"message replaces the label, which moves to the detail",
     "Hi",
     NULL,
     "{\"type\": \"contains\", \"value\": \"bye\", \"message\": \"say goodbye\"}",
     {"check.contains", "say goodbye", "the text \"bye\"", "not found in \"Hi\"",
      "Output must contain \"bye\""}},
    /* equals */
    {"equals: string, surrounding space ignored",
     "  OK\n",
     NULL,
     "{\"type\": \"equals\", \"value\": \"OK\"}",
     {0}},
    {"equals: string differs",
     "OK!",
     NULL,
     "{\"type\": \"equals\", \"value\": \"OK\"}",
     {"check.equals", "Output must equal \"OK\"", "exactly \"OK\"", "\"OK!\"", NULL}},
    {"equals: JSON value, numbers by value",
     "{\"n\": 1.0}",
     NULL,
     "{\"type\": \"equals\", \"value\": {\"n\": 1}}",
     {0}},
    {"equals: no type means equals", "OK", NULL, "{\"value\": \"OK\"}", {0}},
    {"equals: negated",
     "OK",
     NULL,
     "{\"type\": \"equals\", \"value\": \"OK\", \"negate\": true}",
     {"check.equals", "Output must not equal \"OK\"", "anything but \"OK\"", "\"OK\"", NULL}},
    /* regex */
    {"regex: pattern",
     "order-12",
     NULL,
     "{\"type\": \"regex\", \"pattern\": \"order-\\\\d+\"}",
     {0}},
    {"regex: value, /flags/", "ORDER", NULL, "{\"type\": \"regex\", \"value\": \"/order/i\"}", {0}},
    {"regex: no match",
     "none",
     NULL,
     "{\"type\": \"regex\", \"pattern\": \"\\\\d\"}",
     {"check.regex", "Output must match /\\d/", "a match", "no match in \"none\"", NULL}},
    {"regex: negated match",
     "abc 7",
     NULL,
     "{\"type\": \"regex\", \"pattern\": \"\\\\d\", \"negate\": true}",
     {"check.regex", "Output must not match /\\d/", "no match",
      "matched \"7\" at byte 4 in \"abc 7\"", NULL}},
    /* json_path */
    {"json_path: embedded JSON",
     OUT,
     NULL,
     "{\"type\": \"json_path\", \"path\": \"$.status\", \"value\": \"ok\"}",
     {0}},
    {"json_path: index, any of",
     OUT,
     NULL,
     "{\"type\": \"json_path\", \"path\": \"$.items[0].sku\", \"value\": [\"X\", \"A-1\"]}",
     {0}},
    {"json_path: exists", OUT, NULL, "{\"type\": \"json_path\", \"path\": \"items\"}", {0}},
    {"json_path: wrong value",
     OUT,
     NULL,
     "{\"type\": \"json_path\", \"path\": \"$.status\", \"value\": \"failed\"}",
     {"check.json_path", "JSON at $.status must equal \"failed\"", "\"failed\"", "\"ok\"", NULL}},
    {"json_path: missing path",
     "{\"a\": 1}",
     NULL,
     "{\"type\": \"json_path\", \"path\": \"$.b\"}",
     {"check.json_path", "JSON at $.b must exist", "a value", "no $.b in {\"a\":1}", NULL}},
    {"json_path: no JSON",
     "plain",
     NULL,
     "{\"type\": \"json_path\", \"path\": \"$.b\", \"value\": 1}",
     {"check.json_path", "JSON at $.b must equal 1", "1", "no JSON in \"plain\"", NULL}},
    {"json_path: negated any-of",
     OUT,
     NULL,
     "{\"type\": \"json_path\", \"path\": \"$.status\", \"value\": [\"ok\"], \"negate\": true}",
     {"check.json_path", "JSON at $.status must not be one of [\"ok\"]", "none of [\"ok\"]",
      "\"ok\"", NULL}},
    /* type */
    {"type: number", " 42 ", NULL, "{\"type\": \"type\", \"value\": \"number\"}", {0}},
    {"type: text is a string", "hello", NULL, "{\"type\": \"type\", \"value\": \"string\"}", {0}},
    {"type: object wanted",
     "hello",
     NULL,
     "{\"type\": \"type\", \"value\": \"object\"}",
     {"check.type", "Output must be of type object", "object", "string \"hello\"", NULL}},
    {"type: at a path",
     OUT,
     NULL,
     "{\"type\": \"type\", \"path\": \"$.items\", \"value\": \"array\"}",
     {0}},
    /* tool_called */
    {"tool_called: suffix after __",
     "",
     CALLS,
     "{\"type\": \"tool_called\", \"name\": \"create_expense\"}",
     {0}},
    {"tool_called: not a plain suffix",
     "",
     CALLS,
     "{\"type\": \"tool_called\", \"name\": \"expense\"}",
     {"check.tool_called", "Tool \"expense\" must be called", "a call of \"expense\"",
      "not called (called: mcp__create_expense)", NULL}},
    {"tool_called: any of a list",
     "",
     CALLS,
     "{\"type\": \"tool_called\", \"value\": [\"x\", \"create_expense\"]}",
     {0}},
    {"tool_called: argument subset",
     "",
     CALLS,
     "{\"type\": \"tool_called\", \"name\": \"create_expense\", \"arguments\": {\"tags\": "
     "[\"b\"]}}",
     {0}},
    {"tool_called: arguments differ",
     "",
     CALLS,
     "{\"type\": \"tool_called\", \"value\": {\"name\": \"create_expense\", \"arguments\": "
     "{\"amount\": 1}}}",
     {"check.tool_called", "Tool \"create_expense\" must be called with arguments {\"amount\":1}",
      "a call of \"create_expense\" with arguments {\"amount\":1}",
      "1 call, none with matching arguments (#1 {\"amount\":3500,\"tags\":[\"a\",\"b\"]})", NULL}},
    {"tool_called: negated",
     "",
     CALLS,
     "{\"type\": \"tool_called\", \"name\": \"create_expense\", \"negate\": true}",
     {"check.tool_called", "Tool \"create_expense\" must not be called",
      "no call of \"create_expense\"", "1 call (#1 {\"amount\":3500,\"tags\":[\"a\",\"b\"]})",
      NULL}},
    {"tool_called: nothing called",
     "",
     NULL,
     "{\"type\": \"tool_called\", \"name\": \"x\"}",
     {"check.tool_called", "Tool \"x\" must be called", "a call of \"x\"",
      "not called (called: nothing)", NULL}},
    /* tool_result */
    {"tool_result: subset of a JSON text result",
     "",
     CALLS,
     "{\"type\": \"tool_result\", \"value\": {\"tool\": \"create_expense\", \"result\": "
     "{\"status\": \"submitted\"}}}",
     {0}},
    {"tool_result: regex: prefix",
     "",
     CALLS,
     "{\"type\": \"tool_result\", \"value\": {\"result\": {\"id\": \"regex:^E-\\\\d$\"}}}",
     {0}},
    {"tool_result: no match",
     "",
     CALLS,
     "{\"type\": \"tool_result\", \"value\": {\"tool\": \"create_expense\", \"result\": "
     "{\"status\": \"rejected\"}}}",
     {"check.tool_result",
      "Tool \"create_expense\" must return a result matching {\"status\":\"rejected\"}",
      "a result matching {\"status\":\"rejected\"}",
      "0 of 1 call matching (results: #1 \"{\\\"status\\\": \\\"submitted\\\", \\\"id\\\": "
      "\\\"E-7\\\"}\")",
      NULL}},
};

static void check_one(const struct item_case *c)
{
    struct an_arena a = AN_ARENA_INIT;
    struct an_err err = AN_ERR_INIT;
    struct an_ld ld = {.a = &a, .err = &err};
    json_error_t je;
    json_t *item = json_loads(c->check, 0, &je);
    if (!item)
        fail_msg("%s: bad test JSON: %s", c->title, je.text);
    struct an_ck_src src = {{"t.jsonl", 1, 1}, NULL, c->check, "."};
    struct an_check_item it;
    if (an_check_item_load(&ld, item, &src, AN_LEVEL_TEST, &it))
        fail_msg("%s: %s", c->title, err.msg);
    struct an_tool_call calls[4];
    memset(calls, 0, sizeof calls);
    size_t ncalls = 0;
    json_t *cj = c->calls ? json_loads(c->calls, 0, &je) : NULL;
    if (c->calls && !cj)
        fail_msg("%s: bad calls JSON: %s", c->title, je.text);
    for (size_t i = 0; i < json_array_size(cj) && i < 4; i++, ncalls++) {
        json_t *e = json_array_get(cj, i);
        calls[i].name = (char *)json_string_value(json_object_get(e, "name"));
        calls[i].args = json_object_get(e, "args");
        calls[i].result = json_object_get(e, "result");
    }
    struct an_assert blk = {0};
    blk.checks = &it;
    blk.nchecks = 1;
    struct an_scope s = {
        .calls = calls, .ncalls = ncalls, .text = c->text, .start_ms = 0, .end_ms = 10, .turn = -1};
    struct an_findings f = {0};
    size_t n = an_check(&blk, &s, &f);
    if (!c->want.kind) {
        if (n)
            fail_msg("%s: expected a pass, got \"%s\" / %s / %s", c->title, f.v[0].assertion,
                     f.v[0].expected, f.v[0].actual);
    } else {
        if (n != 1)
            fail_msg("%s: expected one finding, got %zu", c->title, n);
        const struct an_finding *g = &f.v[0];
        if (strcmp(g->kind, c->want.kind) || strcmp(g->assertion, c->want.assertion) ||
            strcmp(g->expected, c->want.expected) || strcmp(g->actual, c->want.actual) ||
            (c->want.detail ? !g->detail || strcmp(g->detail, c->want.detail) : !!g->detail))
            fail_msg("%s:\n  got  %s | %s | %s | %s | %s\n  want %s | %s | %s | %s | %s", c->title,
                     g->kind, g->assertion, g->expected, g->actual,
                     g->detail ? g->detail : "(none)", c->want.kind, c->want.assertion,
                     c->want.expected, c->want.actual, c->want.detail ? c->want.detail : "(none)");
        assert_int_equal(g->line, 1);
    }
    an_findings_release(&f);
    json_decref(cj);
    json_decref(item);
    an_arena_release(&a);
}

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check_one(&cases[i]);
}

/* A check that does not load says why, at the key. */
static void test_load_errors(void **state)
{
    (void)state;
    static const struct {
        const char *check, *msg;
    } bad[] = {
        {"{\"type\": \"agent\", \"use\": \"agents:x\"}",
         "an agent check needs criteria: 'value' or 'options.metadata.criteria'"},
        {"{\"type\": \"contain\", \"value\": 1}",
         "unknown assertion type 'contain' (did you mean 'contains'?)"},
        {"{\"type\": \"contains\"}", "a contains check needs 'value'"},
        {"{\"type\": \"contains\", \"value\": \"x\", \"of\": \"stat\"}",
         "'of' must be output, state or messages"},
        {"{\"type\": \"tool_called\", \"name\": \"x\", \"of\": \"state\"}",
         "'of' does not apply to a tool_called check"},
        {"{\"type\": \"regex\", \"pattern\": \"(\"}",
         "invalid regex '(': missing closing parenthesis at offset 1"},
        {"{\"type\": \"contains\", \"value\": \"x\", \"pattern\": \"y\"}",
         "'pattern' does not apply to a contains check"},
        {"{\"type\": \"type\", \"value\": \"integer\"}",
         "a type check needs 'value': string, number, boolean, array, object or null"},
        {"{\"type\": \"json_path\", \"path\": \"$.a[x]\"}",
         "'path' must be a JSON path such as \"$.order.items[0].sku\""},
        {"{\"type\": \"tool_called\"}",
         "a tool_called check needs 'name' (a tool name, a list of names, or {name, arguments})"},
        {"{\"type\": \"tool_result\", \"value\": {\"result\": \"regex:(\"}}",
         "invalid regex '(': missing closing parenthesis at offset 1"},
        {"{\"type\": \"script\"}", "a script check needs 'use: scripts:PATH' or 'cmd: [argv...]'"},
        {"{\"type\": \"contains\", \"value\": \"x\", \"negate\": \"yes\"}",
         "'negate' must be true or false"},
        {"{\"type\": \"contains\", \"valeu\": \"x\"}",
         "unknown key 'valeu' in an assertion (did you mean 'value'?)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct an_arena a = AN_ARENA_INIT;
        struct an_err err = AN_ERR_INIT;
        struct an_ld ld = {.a = &a, .err = &err};
        json_t *item = json_loads(bad[i].check, 0, NULL);
        assert_non_null(item);
        struct an_ck_src src = {{"t.jsonl", 3, 1}, NULL, bad[i].check, "."};
        struct an_check_item it;
        assert_int_not_equal(an_check_item_load(&ld, item, &src, AN_LEVEL_TEST, &it), 0);
        if (strcmp(err.msg, bad[i].msg))
            fail_msg("%s:\n  got  %s\n  want %s", bad[i].check, err.msg, bad[i].msg);
        assert_int_equal(err.line, 3);
        json_decref(item);
        an_arena_release(&a);
    }
}

static void test_json_path(void **state)
{
    (void)state;
    json_t *doc = json_loads("{\"a\": {\"b\": [10, {\"c\": 2}]}}", 0, NULL);
    json_t *v;
    assert_int_equal(an_json_path_get(doc, "$.a.b[1].c", &v), 0);
    assert_int_equal(json_integer_value(v), 2);
    assert_int_equal(an_json_path_get(doc, "a.b[0]", &v), 0);
    assert_int_equal(json_integer_value(v), 10);
    assert_int_equal(an_json_path_get(doc, "$.a.x", &v), 0);
    assert_null(v);
    assert_int_equal(an_json_path_get(doc, "$", &v), 0);
    assert_ptr_equal(v, doc);
    /* the dotted index args_match takes, the same here */
    assert_int_equal(an_json_path_get(doc, "$.a.b.1.c", &v), 0);
    assert_int_equal(json_integer_value(v), 2);
    assert_int_equal(an_json_path_get(doc, "a.b.0", &v), 0);
    assert_int_equal(json_integer_value(v), 10);
    assert_int_equal(an_json_path_get(doc, "a.0", &v), 0); /* an object has no item 0 */
    assert_null(v);
    /* "$x" is a key (a tool's "$ref" argument), not the root */
    assert_int_equal(an_json_path_get(doc, "$x", &v), 0);
    assert_null(v);
    static const char *const bad[] = {"$..a", "a.", "a[", "a[1]b", "a[-1]", ".a", "$.", NULL};
    for (size_t i = 0; bad[i]; i++)
        if (an_json_path_get(doc, bad[i], &v) != -1)
            fail_msg("'%s' should be refused", bad[i]);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_json_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
