/* Seed 004's checks over a run-case answer: {answer, check, expected finding}. */
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
#include "proto/http_case_int.h"

struct want {
    const char *kind, *assertion, *expected, *actual;
};

struct case_check {
    const char *title;
    const char *answer; /* a run-case answer; NULL: the text below, no answer */
    const char *check;
    struct want want; /* kind NULL: passes */
};

/* get_customer (ok) then create_ticket (error); one action with evidence,
 * one without; a retrieval of kb_1. */
#define A                                                                                          \
    "{\"proposed_actions\":["                                                                      \
    "{\"action_id\":\"a1\",\"action_type\":\"create_ticket\",\"risk_level\":\"high\","             \
    "\"evidence_refs\":[{\"kind\":\"tool_result\",\"call_id\":\"c1\"}]},"                          \
    "{\"action_id\":\"a2\",\"action_type\":\"notify\",\"risk_level\":\"low\"}],"                   \
    "\"events\":["                                                                                 \
    "{\"type\":\"tool_call\",\"call_id\":\"c1\",\"tool\":\"get_customer\",\"args\":{}},"           \
    "{\"type\":\"tool_result\",\"call_id\":\"c1\",\"status\":\"ok\",\"payload_summary\":{}},"      \
    "{\"type\":\"retrieval\",\"doc_ids\":[\"kb_1\"]},"                                             \
    "{\"type\":\"tool_call\",\"call_id\":\"c2\",\"tool\":\"create_ticket\",\"args\":{}},"          \
    "{\"type\":\"tool_result\",\"call_id\":\"c2\",\"status\":\"error\",\"payload_summary\":"       \
    "{\"error\":\"quota\"}}],"                                                                     \
    "\"final_output\":{\"content_type\":\"json\",\"content\":{\"ticket_id\":\"T-1\","              \
    "\"note\":\"Ticket Created\"}}}"

/* the same without evidence for a1 and with a2 of default (medium) risk */
#define B                                                                                          \
    "{\"proposed_actions\":["                                                                      \
    "{\"action_id\":\"a1\",\"action_type\":\"create_ticket\","                                     \
    "\"evidence_refs\":[{\"kind\":\"tool_result\",\"call_id\":\"c2\"}]},"                          \
    "{\"action_id\":\"a2\",\"action_type\":\"refund\"},"                                           \
    "{\"action_id\":\"a3\",\"action_type\":\"cite\",\"evidence_refs\":[{\"kind\":"                 \
    "\"retrieval_doc\",\"id\":\"kb_9\"}]}],"                                                       \
    "\"events\":["                                                                                 \
    "{\"type\":\"tool_call\",\"call_id\":\"c2\",\"tool\":\"create_ticket\",\"args\":{}},"          \
    "{\"type\":\"tool_result\",\"call_id\":\"c2\",\"status\":\"error\"}],"                         \
    "\"final_output\":{\"content_type\":\"text\",\"content\":\"Your key is sk-abc\"}}"

static const struct case_check cases[] = {
    /* action_required */
    {"action_required: proposed",
     A,
     "{\"type\":\"action_required\",\"value\":\"create_ticket\"}",
     {0}},
    {"action_required: missing",
     A,
     "{\"type\":\"action_required\",\"value\":[\"create_ticket\",\"refund\"]}",
     {"check.action_required", "Actions \"create_ticket\", \"refund\" must be proposed",
      "a proposed action of each type",
      "missing \"refund\"; proposed: \"create_ticket\", \"notify\""}},
    {"action_required: no answer",
     NULL,
     "{\"type\":\"action_required\",\"value\":[\"x\"]}",
     {"check.action_required", "Action \"x\" must be proposed", "a proposed action of each type",
      "no run-case answer"}},
    /* tool_sequence */
    {"tool_sequence: a prefix",
     A,
     "{\"type\":\"tool_sequence\",\"value\":[\"get_customer\"]}",
     {0}},
    {"tool_sequence: the whole",
     A,
     "{\"type\":\"tool_sequence\",\"value\":[\"get_customer\",\"create_ticket\"]}",
     {0}},
    {"tool_sequence: not a subsequence",
     A,
     "{\"type\":\"tool_sequence\",\"value\":[\"create_ticket\"]}",
     {"check.tool_sequence", "Tool calls must start with \"create_ticket\"",
      "call 1 in this order: \"create_ticket\"",
      "call #1 is \"get_customer\", expected \"create_ticket\" (called: get_customer, "
      "create_ticket)"}},
    {"tool_sequence: too short",
     A,
     "{\"type\":\"tool_sequence\",\"value\":[\"get_customer\",\"create_ticket\",\"notify\"]}",
     {"check.tool_sequence",
      "Tool calls must start with \"get_customer\", \"create_ticket\", \"notify\"",
      "calls 1-3 in this order: \"get_customer\", \"create_ticket\", \"notify\"",
      "only 2 calls (called: get_customer, create_ticket)"}},
    /* retrieval_required */
    {"retrieval_required: retrieved",
     A,
     "{\"type\":\"retrieval_required\",\"value\":{\"doc_ids\":[\"kb_1\"]}}",
     {0}},
    {"retrieval_required: missing",
     A,
     "{\"type\":\"retrieval_required\",\"value\":[\"kb_1\",\"kb_2\"]}",
     {"check.retrieval_required", "Documents \"kb_1\", \"kb_2\" must be retrieved",
      "a retrieval event naming each doc id", "missing \"kb_2\"; retrieved: \"kb_1\""}},
    {"retrieval_required: none at all",
     B,
     "{\"type\":\"retrieval_required\",\"value\":\"kb_1\"}",
     {"check.retrieval_required", "Document \"kb_1\" must be retrieved",
      "a retrieval event naming each doc id", "no retrieval event"}},
    /* json_schema */
    {"json_schema: valid",
     A,
     "{\"type\":\"json_schema\",\"value\":{\"type\":\"object\",\"required\":[\"ticket_id\"]}}",
     {0}},
    {"json_schema: invalid",
     A,
     "{\"type\":\"json_schema\",\"value\":{\"type\":\"object\",\"properties\":{\"ticket_id\":"
     "{\"pattern\":\"^T-[0-9]{4}$\"}},\"required\":[\"status\"]}}",
     {"check.json_schema", "Output must match the JSON schema", "a value the schema accepts",
      "(root): required: missing property 'status'; /ticket_id: pattern: \"T-1\" does not match "
      "/^T-[0-9]{4}$/"}},
    {"json_schema: a text answer is a string",
     B,
     "{\"type\":\"json_schema\",\"value\":{\"type\":\"object\"}}",
     {"check.json_schema", "Output must match the JSON schema", "a value the schema accepts",
      "(root): type: expected object, got string"}},
    {"json_schema: no answer, the text as JSON",
     NULL,
     "{\"type\":\"json_schema\",\"value\":{\"type\":\"object\"}}",
     {"check.json_schema", "Output must match the JSON schema", "a value the schema accepts",
      "not JSON: \"plain words\""}},
    /* evidence_required */
    {"evidence_required: low risk needs none, ok result cited",
     A,
     "{\"type\":\"evidence_required\"}",
     {0}},
    {"evidence_required: missing and unresolved",
     B,
     "{\"type\":\"evidence_required\"}",
     {"check.evidence_required", "Every action not of low risk must cite evidence that exists",
      "evidence_refs naming an ok tool_result or a retrieved document",
      "action \"a1\" (create_ticket) cites tool_result \"c2\", which is not an ok result; action "
      "\"a2\" (refund) has no evidence_refs; action \"a3\" (cite) cites document \"kb_9\", which "
      "was not retrieved"}},
    /* tool_execution */
    {"tool_execution: an error status fails",
     A,
     "{\"type\":\"tool_execution\"}",
     {"check.tool_execution", "Every tool result must have status \"ok\"", "status \"ok\"",
      "call #2 \"create_ticket\" status \"error\": \"{\\\"error\\\":\\\"quota\\\"}\""}},
    {"tool_execution: no status, no failure", NULL, "{\"type\":\"tool_execution\"}", {0}},
    /* contains ignoring case (must_include) */
    {"contains ignoring case",
     A,
     "{\"type\":\"contains\",\"value\":\"ticket created\",\"ignore_case\":true}",
     {0}},
    {"not_contains ignoring case",
     B,
     "{\"type\":\"not_contains\",\"value\":\"SK-\",\"ignore_case\":true}",
     {"check.not_contains", "Output must not contain \"SK-\" (ignoring case)", "no \"SK-\"",
      "found at byte 12 in \"Your key is sk-abc\""}},
    {"contains keeps case without ignore_case",
     A,
     "{\"type\":\"contains\",\"value\":\"ticket created\"}",
     {"check.contains", "Output must contain \"ticket created\"", "the text \"ticket created\"",
      "not found in \"{\\\"ticket_id\\\":\\\"T-1\\\",\\\"note\\\":\\\"Ticket Created\\\"}\""}},
};

static void test_checks(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct case_check *c = &cases[i];
        struct an_arena a = AN_ARENA_INIT;
        struct an_err err = AN_ERR_INIT;
        struct an_ld ld = {.a = &a, .err = &err};
        json_t *item = json_loads(c->check, 0, NULL);
        assert_non_null(item);
        struct an_ck_src src = {{"cases.json", 4, 7}, NULL, NULL, "."};
        struct an_check_item it;
        if (an_check_item_load(&ld, item, &src, AN_LEVEL_TEST, &it))
            fail_msg("%s: %s", c->title, err.msg);
        struct an_transcript t;
        an_transcript_init(&t);
        struct an_turn_rec *r = an_transcript_add_turn(&t, "user");
        if (c->answer) {
            struct an_hc_attempt at = {.url = "u",
                                       .status = 200,
                                       .body = c->answer,
                                       .body_len = strlen(c->answer),
                                       .attempt = 1};
            an_hc_finish(&t, &at, 5);
            if (r->status != AN_TURN_OK)
                fail_msg("%s: the answer is broken: %s", c->title, r->error);
        } else {
            r->text = strdup("plain words");
        }
        char *joined = NULL;
        struct an_scope s = an_scope_test(&t, &joined);
        struct an_assert blk = {0};
        blk.checks = &it;
        blk.nchecks = 1;
        struct an_findings f = {0};
        size_t n = an_check(&blk, &s, &f);
        if (!c->want.kind && n)
            fail_msg("%s: expected a pass, got \"%s\" / %s / %s", c->title, f.v[0].assertion,
                     f.v[0].expected, f.v[0].actual);
        if (c->want.kind) {
            if (n != 1)
                fail_msg("%s: expected one finding, got %zu", c->title, n);
            const struct an_finding *g = &f.v[0];
            if (strcmp(g->kind, c->want.kind) || strcmp(g->assertion, c->want.assertion) ||
                strcmp(g->expected, c->want.expected) || strcmp(g->actual, c->want.actual))
                fail_msg("%s:\n  got  %s | %s | %s | %s\n  want %s | %s | %s | %s", c->title,
                         g->kind, g->assertion, g->expected, g->actual, c->want.kind,
                         c->want.assertion, c->want.expected, c->want.actual);
            assert_int_equal(g->line, 4);
            assert_int_equal(g->col, 7);
        }
        an_findings_release(&f);
        free(joined);
        an_transcript_release(&t);
        json_decref(item);
        an_arena_release(&a);
    }
}

struct bad_item {
    const char *check, *msg;
};

static const struct bad_item bad[] = {
    {"{\"type\":\"action_required\"}", "an action_required check needs 'value': a list of action "
                                       "types"},
    {"{\"type\":\"tool_sequence\",\"value\":[]}",
     "a tool_sequence check needs 'value': a list of tool names, in order"},
    {"{\"type\":\"retrieval_required\",\"value\":{\"ids\":[\"a\"]}}",
     "a retrieval_required value is a list of doc ids or {doc_ids: [...]}"},
    {"{\"type\":\"json_schema\",\"value\":\"object\"}",
     "a json_schema check needs 'value': a JSON Schema (an object)"},
    {"{\"type\":\"json_schema\",\"value\":{\"$ref\":\"#/nope\"}}",
     "invalid JSON Schema at the top: '$ref' '#/nope' points at nothing in this schema"},
    {"{\"type\":\"evidence_required\",\"value\":false}",
     "an evidence_required check takes no 'value' (or true); leave the check out to not require "
     "evidence"},
    {"{\"type\":\"tool_execution\",\"value\":1}", "a tool_execution check takes no 'value'"},
    {"{\"type\":\"regex\",\"value\":\"x\",\"ignore_case\":true}",
     "'ignore_case' does not apply to a regex check"},
    {"{\"type\":\"contains\",\"value\":\"x\",\"ignore_case\":1}",
     "'ignore_case' must be true or false"},
    {"{\"type\":\"tool_sequense\"}",
     "unknown assertion type 'tool_sequense' (did you mean 'tool_sequence'?)"},
};

static void test_bad_items(void **state)
{
    (void)state;
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
        json_decref(item);
        an_arena_release(&a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_bad_items),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
