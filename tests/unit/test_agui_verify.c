/*
 * AG-UI stream conformance (agui_verify.c): per rule, a stream that breaks
 * it and, where the rule has a near miss, one that does not. Each case is a
 * row: the events, the mode, and what the turn shows afterwards.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/err.h"
#include "ananke/model.h"
#include "ananke/transcript.h"
#include "core/json.h"
#include "proto/agui_verify.h"

#define RS "{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}"
#define RF "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}"
#define TS(id) "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"assistant\"}"
#define TC(id)                                                                                     \
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":"                       \
    "\"x\"}"
#define TE(id) "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define ERR "{\"type\":\"RUN_ERROR\",\"message\":\"boom\"}"

struct row {
    const char *name;
    const char *ev[10];
    const char *fail; /* strict: the turn fails naming this text ("[rule] at event
                         #N"); NULL: passes */
    const char *warn; /* a warning that must be there (any mode but off); NULL: no
                         protocol warning */
};

static const struct row rows[] = {
    {"clean run", {RS, TS("m"), TC("m"), TE("m"), RF}, NULL, NULL},
    {"first-event", {TS("m"), RS, RF}, "[first-event] at event #1 (TEXT_MESSAGE_START)", NULL},
    {"first-event: RUN_ERROR may open", {ERR}, NULL, NULL},
    {"nested-run-started", {RS, RS}, "[nested-run-started] at event #2", NULL},
    {"after-run-finished", {RS, RF, TS("m")}, "[after-run-finished] at event #3", NULL},
    {"after-run-finished: a late RUN_ERROR is allowed", {RS, RF, ERR}, NULL, NULL},
    {"after-run-finished: a second run is allowed", {RS, RF, RS, RF}, NULL, NULL},
    {"nothing-after-run-error", {RS, ERR, RF}, "[nothing-after-run-error] at event #3", NULL},
    {"nothing-after-run-error: a new run is allowed", {RS, ERR, RS, RF}, NULL, NULL},
    {"run-id-echo",
     {RS, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r2\"}"},
     "[run-id-echo] at event #2 (RUN_FINISHED): runId 'r2'",
     NULL},
    {"thread-id-echo",
     {"{\"type\":\"RUN_STARTED\",\"threadId\":\"other\",\"runId\":\"r1\"}"},
     "[thread-id-echo] at event #1 (RUN_STARTED): threadId 'other'",
     NULL},
    {"open-before-use: text", {RS, TC("m")}, "[open-before-use] at event #2", NULL},
    {"open-before-use: closed message",
     {RS, TS("m"), TE("m"), TE("m")},
     "[open-before-use] at event #4",
     NULL},
    {"open-before-use: tool args",
     {RS, "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c\",\"delta\":\"{}\"}"},
     "[open-before-use] at event #2 (TOOL_CALL_ARGS)",
     NULL},
    {"open-before-use: step",
     {RS, "{\"type\":\"STEP_FINISHED\",\"stepName\":\"s\"}"},
     "[open-before-use] at event #2 (STEP_FINISHED)",
     NULL},
    {"open-before-use: reasoning",
     {RS, "{\"type\":\"REASONING_MESSAGE_CONTENT\",\"messageId\":\"r\","
          "\"delta\":\"x\"}"},
     "[open-before-use] at event #2",
     NULL},
    {"open-before-use: subagent",
     {RS, "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"s\"}"},
     "[open-before-use] at event #2 (SUBAGENT_FINISHED)",
     NULL},
    {"already-open", {RS, TS("m"), TS("m")}, "[already-open] at event #3", NULL},
    {"already-open: reopen after END appends",
     {RS, TS("m"), TE("m"), TS("m"), TE("m"), RF},
     NULL,
     NULL},
    {"closed-before-finish: text",
     {RS, TS("m"), RF},
     "[closed-before-finish] at event #3 (RUN_FINISHED): text message 'm' is "
     "still open",
     NULL},
    {"closed-before-finish: step",
     {RS, "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}", RF},
     "step 's' is still open",
     NULL},
    {"closed-before-finish: a chunk stream closes by itself",
     {RS, "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m\",\"delta\":\"x\"}", RF},
     NULL,
     NULL},
    {"chunk-first-needs-id",
     {RS, "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"x\"}"},
     "[chunk-first-needs-id] at event #2",
     NULL},
    {"chunk-first-needs-id: tool name",
     {RS, "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"c\",\"delta\":\"{}\"}"},
     "first TOOL_CALL_CHUNK must have a toolCallName",
     NULL},
    {"chunk-first-needs-id: CUSTOM closes the stream",
     {RS, "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m\",\"delta\":\"x\"}",
      "{\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":null}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"y\"}"},
     "[chunk-first-needs-id] at event #4",
     NULL},
    {"chunk-first-needs-id: RAW does not close it",
     {RS, "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m\",\"delta\":\"x\"}",
      "{\"type\":\"RAW\",\"event\":{}}", "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"y\"}", RF},
     NULL,
     NULL},
    {"chunk-conflict: role",
     {RS,
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m\",\"role\":\"user\","
      "\"delta\":\"x\"}",
      "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m\",\"role\":"
      "\"assistant\"}"},
     "[chunk-conflict] at event #3",
     NULL},
    {"chunk-conflict: tool name",
     {RS,
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"c\",\"toolCallName\":"
      "\"a\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"c\",\"toolCallName\":"
      "\"b\"}"},
     "toolCallName 'b' does not match the open stream's toolCallName 'a'",
     NULL},
    {"chunk-conflict: identical repeat is fine",
     {RS,
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"c\",\"toolCallName\":"
      "\"a\"}",
      "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"c\",\"toolCallName\":"
      "\"a\"}",
      RF},
     NULL,
     NULL},
    {"subagent-attribution",
     {RS,
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"subagentRunId\":"
      "\"s1\"}",
      "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\",\"subagentRunId\":"
      "\"s2\"}"},
     "[subagent-attribution] at event #3",
     NULL},
    {"subagent-attribution: a continuation may omit it",
     {RS,
      "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"subagentRunId\":"
      "\"s1\"}",
      TE("m"), RF},
     NULL,
     NULL},
    {"required-field",
     {RS, "{\"type\":\"TEXT_MESSAGE_START\"}"},
     "[required-field] at event #2 (TEXT_MESSAGE_START): missing 'messageId'",
     NULL},
    {"required-field: subagent name",
     {RS, "{\"type\":\"SUBAGENT_STARTED\",\"subagentRunId\":\"s\"}"},
     "missing 'name'",
     NULL},
    {"field-type: delta",
     {RS, TS("m"), "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":42}"},
     "[field-type] at event #3 (TEXT_MESSAGE_CONTENT): 'delta': expected "
     "string, received number",
     NULL},
    {"field-type: float timestamp",
     {RS, "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"timestamp\":1.5}"},
     "'timestamp': expected integer",
     NULL},
    {"field-type: unknown role",
     {RS, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":"
          "\"narrator\"}"},
     "[field-type] at event #2 (TEXT_MESSAGE_START): 'role' is \"narrator\"",
     NULL},
    {"field-type: reasoning role",
     {RS, "{\"type\":\"REASONING_MESSAGE_START\",\"messageId\":\"m\",\"role\":"
          "\"assistant\"}"},
     "expected \"reasoning\"",
     NULL},
    {"field-type: outcome array",
     {RS, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\","
          "\"outcome\":[]}"},
     "'outcome': expected object, received array",
     NULL},
    {"field-type: metadata null",
     {RS, "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"metadata\":null}"},
     "'metadata': expected object",
     NULL},
    {"field-type: null optional is absent",
     {RS,
      "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":"
      "\"f\",\"parentMessageId\":null}",
      "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c\"}", RF},
     NULL,
     NULL},
    {"unknown-event",
     {RS, "{\"type\":\"FUTURE_EVENT\"}", RF},
     NULL,
     "protocol warning [unknown-event] at event #2 (FUTURE_EVENT): unknown "
     "event type 'FUTURE_EVENT' dropped"},
    {"unknown-property",
     {RS, "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"futureProp\":1}",
      "{\"type\":\"STEP_FINISHED\",\"stepName\":\"s\"}", RF},
     NULL,
     "[unknown-property] at event #2 (STEP_STARTED): unknown property "
     "'/futureProp' dropped"},
    {"unknown-property: patch op",
     {RS,
      "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"increment\",\"path\":\"/"
      "a\"}]}",
      RF},
     NULL,
     "unknown patch op 'increment' at /delta/0 dropped"},
    {"unknown-outcome",
     {RS, "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\","
          "\"outcome\":{\"type\":\"paused\"}}"},
     NULL,
     "[unknown-outcome] at event #2 (RUN_FINISHED): unknown outcome type "
     "'paused' at /outcome"},
    {"deprecated-event", {RS, "{\"type\":\"THINKING_START\"}", RF}, NULL, "[deprecated-event]"},
    {"protocol-version: newer",
     {"{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\","
      "\"protocolVersion\":\"1.2\"}",
      RF},
     NULL,
     "[protocol-version] at event #1 (RUN_STARTED): producer declares protocol "
     "version '1.2'"},
    {"protocol-version: uninterpretable",
     {"{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\","
      "\"protocolVersion\":\"draft\"}",
      RF},
     NULL,
     "cannot interpret protocolVersion 'draft'"},
    {"protocol-version: same is quiet",
     {"{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\","
      "\"protocolVersion\":\"1.1\"}",
      RF},
     NULL,
     NULL},
};

struct outcome {
    struct an_transcript t;
    struct an_turn_rec *r;
    int rc;     /* what the verifier returned last */
    size_t fed; /* events judged before it stopped */
};

static void judge(struct outcome *o, const struct row *row, int mode)
{
    struct an_agui_verify *v;
    an_transcript_init(&o->t);
    o->r = an_transcript_add_turn(&o->t, "user");
    o->rc = 0;
    o->fed = 0;
    an_agui_verify_new(&v, "t1", mode);
    for (size_t i = 0; i < 10 && row->ev[i]; i++) {
        json_t *ev = json_loads(row->ev[i], 0, NULL);
        bool drop;
        assert_non_null(ev);
        o->rc = an_agui_verify_event(v, o->r, ev, i + 1, row->ev[i], strlen(row->ev[i]), &drop);
        json_decref(ev);
        o->fed++;
        if (o->rc)
            break;
    }
    an_agui_verify_free(v);
}

static bool has_warning(const struct an_turn_rec *r, const char *needle)
{
    for (size_t i = 0; i < r->nwarnings; i++)
        if (strstr(r->warnings[i], needle))
            return true;
    return false;
}

static void test_rules_strict(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct row *row = &rows[i];
        struct outcome o;
        judge(&o, row, AN_PROTOCOL_STRICT);
        if (row->fail) {
            if (o.r->status != AN_TURN_ERROR || o.r->error_code != AN_EPROTO ||
                !strstr(o.r->error, row->fail) || o.rc != AN_EPROTO)
                fail_msg("%s: want a protocol error with '%s', got '%s'", row->name, row->fail,
                         o.r->error ? o.r->error : "(none)");
            if (!strstr(o.r->error, "protocol violation ["))
                fail_msg("%s: '%s' does not say 'protocol violation'", row->name, o.r->error);
        } else if (o.r->status != AN_TURN_OK) {
            fail_msg("%s: unexpected failure '%s'", row->name, o.r->error);
        }
        if (row->warn && !has_warning(o.r, row->warn))
            fail_msg("%s: no warning with '%s'", row->name, row->warn);
        if (!row->warn && !row->fail && o.r->nwarnings)
            fail_msg("%s: unexpected warning '%s'", row->name, o.r->warnings[0]);
        an_transcript_release(&o.t);
    }
}

/* warn: the same finding, as a warning, and the stream is judged to its end */
static void test_rules_warn(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct row *row = &rows[i];
        struct outcome o;
        judge(&o, row, AN_PROTOCOL_WARN);
        if (o.r->status != AN_TURN_OK || o.rc)
            fail_msg("%s: warn mode failed the turn: %s", row->name, o.r->error);
        const char *want = row->fail ? row->fail : row->warn;
        if (want && !has_warning(o.r, want))
            fail_msg("%s: no warning with '%s'", row->name, want);
        if (row->fail && !has_warning(o.r, "protocol violation ["))
            fail_msg("%s: the warning does not say 'protocol violation'", row->name);
        an_transcript_release(&o.t);
    }
}

static void test_rules_off(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct outcome o;
        judge(&o, &rows[i], AN_PROTOCOL_OFF);
        if (o.r->status != AN_TURN_OK || o.r->nwarnings)
            fail_msg("%s: off mode reported something", rows[i].name);
        an_transcript_release(&o.t);
    }
}

/* the message: rule, index, type, what, and the start of the event */
static void test_message_shape(void **state)
{
    (void)state;
    struct outcome o;
    const struct row row = {"shape", {RS, TC("orphan")}, NULL, NULL};
    judge(&o, &row, AN_PROTOCOL_STRICT);
    assert_string_equal(o.r->error, "protocol violation [open-before-use] at event #2 "
                                    "(TEXT_MESSAGE_CONTENT): "
                                    "no active text message found with ID 'orphan' "
                                    "(TEXT_MESSAGE_CONTENT that "
                                    "was not started or is already closed) \xE2\x80\x94 "
                                    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":"
                                    "\"orphan\",\"delta\":\"x\"}");
    assert_int_equal(o.fed, 2);
    an_transcript_release(&o.t);
}

/* after RUN_ERROR the turn has its cause; a later violation is a warning */
static void test_violation_after_run_error(void **state)
{
    (void)state;
    struct outcome o;
    const struct row row = {"after error", {RS, ERR, RF}, NULL, NULL};
    judge(&o, &row, AN_PROTOCOL_STRICT); /* the verifier alone: RUN_ERROR fails nothing */
    assert_int_equal(o.rc, AN_EPROTO);
    an_transcript_release(&o.t);

    struct an_agui_verify *v;
    an_transcript_init(&o.t);
    o.r = an_transcript_add_turn(&o.t, "user");
    an_turn_fail(o.r, AN_ERUN, "agent reported RUN_ERROR: boom");
    an_agui_verify_new(&v, "t1", AN_PROTOCOL_STRICT);
    const char *ev[] = {RS, ERR, RF};
    int rc = 0;
    for (size_t i = 0; i < 3; i++) {
        json_t *j = json_loads(ev[i], 0, NULL);
        bool drop;
        rc = an_agui_verify_event(v, o.r, j, i + 1, ev[i], strlen(ev[i]), &drop);
        json_decref(j);
    }
    assert_int_equal(rc, AN_EPROTO);
    assert_int_equal(o.r->error_code, AN_ERUN);
    assert_true(has_warning(o.r, "protocol violation [nothing-after-run-error] at event #3"));
    an_agui_verify_free(v);
    an_transcript_release(&o.t);
}

/* unknown events are dropped; unknown properties leave the event */
static void test_drop_and_strip(void **state)
{
    (void)state;
    struct an_agui_verify *v;
    struct an_transcript t;
    an_transcript_init(&t);
    struct an_turn_rec *r = an_transcript_add_turn(&t, "user");
    an_agui_verify_new(&v, NULL, AN_PROTOCOL_STRICT);
    bool drop;
    json_t *ev = json_loads(RS, 0, NULL);
    assert_int_equal(an_agui_verify_event(v, r, ev, 1, RS, strlen(RS), &drop), 0);
    assert_false(drop);
    json_decref(ev);
    const char *fut = "{\"type\":\"FUTURE\"}";
    ev = json_loads(fut, 0, NULL);
    assert_int_equal(an_agui_verify_event(v, r, ev, 2, fut, strlen(fut), &drop), 0);
    assert_true(drop);
    json_decref(ev);
    const char *extra = "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"x\":1,\"y\":2}";
    ev = json_loads(extra, 0, NULL);
    assert_int_equal(an_agui_verify_event(v, r, ev, 3, extra, strlen(extra), &drop), 0);
    assert_null(json_object_get(ev, "x"));
    assert_null(json_object_get(ev, "y"));
    assert_non_null(json_object_get(ev, "stepName"));
    json_decref(ev);
    an_agui_verify_free(v);
    an_transcript_release(&t);
}

/* every rule has a row above that names it, and a known level */
static void test_rule_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < an_agui_nrules; i++) {
        const char *id = an_agui_rules[i].id;
        bool covered = false;
        for (size_t k = 0; k < sizeof rows / sizeof rows[0] && !covered; k++)
            covered = !strncmp(rows[k].name, id, strlen(id));
        if (!covered)
            fail_msg("rule '%s' has no row", id);
        assert_ptr_equal(an_agui_rule_find(id), &an_agui_rules[i]);
    }
    assert_null(an_agui_rule_find("no-such-rule"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_strict),
        cmocka_unit_test(test_rules_warn),
        cmocka_unit_test(test_rules_off),
        cmocka_unit_test(test_message_shape),
        cmocka_unit_test(test_violation_after_run_error),
        cmocka_unit_test(test_drop_and_strip),
        cmocka_unit_test(test_rule_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
