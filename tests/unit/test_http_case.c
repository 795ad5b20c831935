/* Seed 004's run-case answers: events -> transcript, and each failure class
 * (http_case_record.c), without a network. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/check.h"
#include "ananke/err.h"
#include "proto/adapter.h"
#include "proto/http_case_int.h"

#define URL "http://127.0.0.1:1/run-case"

static struct an_turn_rec *run(struct an_transcript *t, struct an_hc_attempt *a)
{
    an_transcript_init(t);
    an_transcript_add_turn(t, "user");
    if (!a->url)
        a->url = URL;
    if (!a->attempt)
        a->attempt = 1;
    if (!a->timeout_ms)
        a->timeout_ms = 15000;
    if (!a->snippet_bytes)
        a->snippet_bytes = 4000;
    if (!a->max_body_bytes)
        a->max_body_bytes = 2000000;
    an_hc_finish(t, a, 1000);
    return &t->turns[0];
}

static struct an_hc_attempt ok_body(const char *body)
{
    return (struct an_hc_attempt){.status = 200, .body = body, .body_len = strlen(body)};
}

#define ANSWER                                                                                     \
    "{\"case_id\":\"tool_001\",\"version\":\"new\",\"workflow_id\":\"wf-1\","                      \
    "\"proposed_actions\":[{\"action_id\":\"a1\",\"action_type\":\"create_ticket\","               \
    "\"evidence_refs\":[{\"kind\":\"tool_result\",\"call_id\":\"c1\"}]}],"                         \
    "\"events\":["                                                                                 \
    "{\"type\":\"tool_call\",\"ts\":20,\"call_id\":\"c2\",\"tool\":\"create_ticket\","             \
    "\"args\":{\"customer_id\":\"123\"}},"                                                         \
    "{\"type\":\"tool_call\",\"ts\":10,\"call_id\":\"c1\",\"tool\":\"get_customer\",\"args\":{}}," \
    "{\"type\":\"tool_result\",\"ts\":15,\"call_id\":\"c1\",\"status\":\"ok\","                    \
    "\"payload_summary\":{\"customer_id\":\"123\"}},"                                              \
    "{\"type\":\"retrieval\",\"ts\":16,\"doc_ids\":[\"kb_1\",\"kb_2\"]},"                          \
    "{\"type\":\"tool_result\",\"ts\":25,\"call_id\":\"c2\",\"status\":\"error\","                 \
    "\"payload\":\"quota exceeded\"},"                                                             \
    "{\"type\":\"final_output\",\"ts\":30,\"content_type\":\"json\",\"content\":{}}],"             \
    "\"final_output\":{\"content_type\":\"json\",\"content\":{\"ticket_id\":\"T-1234\"}}}"

static void test_answer(void **state)
{
    (void)state;
    struct an_transcript t;
    struct an_hc_attempt a = ok_body(ANSWER);
    struct an_turn_rec *r = run(&t, &a);
    assert_int_equal(r->status, AN_TURN_OK);
    assert_string_equal(r->text, "{\"ticket_id\":\"T-1234\"}");
    assert_string_equal(r->run_id, "wf-1");
    assert_int_equal(r->http_status, 200);
    assert_int_equal(r->nframes, 1);
    /* calls in ts order, results paired by call_id */
    assert_int_equal(t.ncalls, 2);
    assert_int_equal(r->ncalls, 2);
    assert_string_equal(t.calls[0].id, "c1");
    assert_string_equal(t.calls[0].name, "get_customer");
    assert_string_equal(t.calls[0].status, "ok");
    assert_string_equal(json_string_value(json_object_get(t.calls[0].result, "customer_id")),
                        "123");
    assert_string_equal(t.calls[1].name, "create_ticket");
    assert_string_equal(t.calls[1].args_text, "{\"customer_id\":\"123\"}");
    assert_string_equal(t.calls[1].status, "error");
    assert_string_equal(json_string_value(t.calls[1].result), "quota exceeded");
    assert_int_equal(json_array_size(r->actions), 1);
    assert_int_equal(json_array_size(r->retrievals), 1);
    assert_int_equal(r->nwarnings, 0);
    assert_null(r->failure);
    /* what checks see */
    struct an_scope s = an_scope_turn(&t, 0);
    assert_ptr_equal(s.actions, r->actions);
    assert_string_equal(json_string_value(json_object_get(s.output, "ticket_id")), "T-1234");
    char *joined = NULL;
    struct an_scope ts = an_scope_test(&t, &joined);
    assert_ptr_equal(ts.retrievals, r->retrievals);
    free(joined);
    /* and what a report keeps */
    json_t *j = an_transcript_to_json(&t, false);
    json_t *turn = json_array_get(json_object_get(j, "turns"), 0);
    assert_non_null(json_object_get(turn, "response"));
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(j, "tool_calls"), 1), "status")),
                        "error");
    json_decref(j);
    an_transcript_release(&t);
}

static const char *warning(const struct an_turn_rec *r, const char *part)
{
    for (size_t i = 0; i < r->nwarnings; i++)
        if (strstr(r->warnings[i], part))
            return r->warnings[i];
    return NULL;
}

static void test_trace_integrity(void **state)
{
    (void)state;
    struct an_transcript t;
    struct an_hc_attempt a = ok_body(
        "{\"proposed_actions\":[],\"events\":["
        "{\"type\":\"tool_call\",\"call_id\":\"c1\",\"tool\":\"a\"},"
        "{\"type\":\"tool_call\",\"call_id\":\"c1\",\"tool\":\"b\"},"
        "{\"type\":\"tool_call\",\"call_id\":\"c3\",\"tool\":\"c\"},"
        "{\"type\":\"tool_result\",\"call_id\":\"c1\",\"status\":\"ok\"},"
        "{\"type\":\"tool_result\",\"call_id\":\"c9\",\"status\":\"timeout\",\"tool\":\"z\"}],"
        "\"final_output\":{\"content_type\":\"text\",\"content\":\"done\"}}");
    struct an_turn_rec *r = run(&t, &a);
    assert_int_equal(r->status, AN_TURN_OK);
    assert_string_equal(r->text, "done");
    assert_non_null(warning(r, "trace: duplicate call id 'c1' (two tool_call events)"));
    assert_non_null(warning(r, "trace: tool_result for 'c9' has no tool_call"));
    assert_non_null(warning(r, "trace: tool_call 'c1' (b) has no tool_result"));
    assert_non_null(warning(r, "trace: tool_call 'c3' (c) has no tool_result"));
    /* the orphan result is kept, so its status counts */
    assert_int_equal(t.ncalls, 4);
    assert_string_equal(t.calls[3].name, "z");
    assert_string_equal(t.calls[3].status, "timeout");
    an_transcript_release(&t);

    /* members the contract requires, missing: warnings, read as none */
    a = ok_body("{\"final_output\":{\"content\":\"x\"}}");
    r = run(&t, &a);
    assert_int_equal(r->status, AN_TURN_OK);
    assert_non_null(warning(r, "the answer has no 'events' (the contract requires a list)"));
    assert_non_null(warning(r, "the answer has no 'proposed_actions'"));
    assert_int_equal(json_array_size(r->actions), 0);
    an_transcript_release(&t);
}

struct fail_case {
    const char *title;
    struct an_hc_attempt a;
    int code;
    const char *error;
    const char *cls, *kind;
    int http_status;
    bool retryable;
};

static const struct fail_case fails[] = {
    {"HTTP 500 with a JSON body",
     {.status = 500, .rc = AN_EHTTP, .body = "{\"error\":\"internal\"}", .body_len = 20},
     AN_EHTTP,
     "http_error: HTTP 500 from " URL ": {\"error\":\"internal\"}",
     "http_error",
     NULL,
     500,
     true},
    {"HTTP 404 is not retried",
     {.status = 404, .rc = AN_EHTTP, .body = "", .body_len = 0},
     AN_EHTTP,
     "http_error: HTTP 404 from " URL ": (empty body)",
     "http_error",
     NULL,
     404,
     false},
    {"HTTP 429 is retried",
     {.status = 429, .rc = AN_EHTTP, .body = "slow\ndown", .body_len = 9},
     AN_EHTTP,
     "http_error: HTTP 429 from " URL ": slow down",
     "http_error",
     NULL,
     429,
     true},
    {"200 with HTML",
     {.status = 200, .body = "<html><body>oops</body></html>", .body_len = 30},
     AN_EPROTO,
     "invalid_json: the answer from " URL " is not JSON (invalid token near '<' at line 1 column "
     "1): <html><body>oops</body></html>",
     "invalid_json",
     NULL,
     200,
     false},
    {"JSON, but not an answer",
     {.status = 200, .body = "[1,2]", .body_len = 5},
     AN_EPROTO,
     "invalid_json: the answer from " URL " is not a run-case answer (it is not a JSON object): "
     "[1,2]",
     "invalid_json",
     NULL,
     200,
     false},
    {"no final_output",
     {.status = 200, .body = "{\"events\":[]}", .body_len = 13},
     AN_EPROTO,
     "invalid_json: the answer from " URL " is not a run-case answer (it has no 'final_output'): "
     "{\"events\":[]}",
     "invalid_json",
     NULL,
     200,
     false},
    {"too big",
     {.status = 200, .rc = AN_ELIMIT, .cc = CURLE_WRITE_ERROR, .body = "{", .body_len = 1},
     AN_ELIMIT,
     "invalid_json: the answer from " URL " is larger than max_body_bytes (2000000 bytes)",
     "invalid_json",
     NULL,
     0,
     false},
    {"timeout",
     {.cc = CURLE_OPERATION_TIMEDOUT, .rc = AN_ETIMEOUT},
     AN_ETIMEOUT,
     "timeout: no answer within timeout_ms (15000 ms) from " URL,
     "timeout",
     NULL,
     0,
     true},
    {"connection refused",
     {.cc = CURLE_COULDNT_CONNECT,
      .rc = AN_ECONNECT,
      .why = "cannot reach " URL ": Failed to connect"},
     AN_ECONNECT,
     "network_error (conn_refused): cannot reach " URL ": Failed to connect",
     "network_error",
     "conn_refused",
     0,
     true},
    {"dropped connection",
     {.cc = CURLE_GOT_NOTHING,
      .rc = AN_ECONNECT,
      .why = "cannot reach " URL ": Empty reply from server"},
     AN_ECONNECT,
     "network_error (socket_hang_up): cannot reach " URL ": Empty reply from server",
     "network_error",
     "socket_hang_up",
     0,
     true},
    {"reset after the answer started",
     {.cc = CURLE_RECV_ERROR,
      .rc = AN_ECONNECT,
      .status = 200,
      .body = "{\"a\"",
      .body_len = 4,
      .why = "connection to " URL " broke after HTTP 200: reset"},
     AN_ECONNECT,
     "network_error (conn_reset): connection to " URL " broke after HTTP 200: reset",
     "network_error",
     "conn_reset",
     0,
     true},
    {"dns",
     {.cc = CURLE_COULDNT_RESOLVE_HOST, .rc = AN_ECONNECT, .why = "no such host"},
     AN_ECONNECT,
     "network_error (dns): no such host",
     "network_error",
     "dns",
     0,
     true},
    {"tls",
     {.cc = CURLE_PEER_FAILED_VERIFICATION, .rc = AN_ECONNECT, .why = "bad cert"},
     AN_ECONNECT,
     "network_error (tls): bad cert",
     "network_error",
     "tls",
     0,
     true},
};

static void test_failures(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof fails / sizeof *fails; i++) {
        const struct fail_case *c = &fails[i];
        struct an_transcript t;
        struct an_hc_attempt a = c->a;
        a.attempt = 2;
        a.latency_ms = 7;
        struct an_turn_rec *r = run(&t, &a);
        if (r->status != AN_TURN_ERROR)
            fail_msg("%s: not a failure", c->title);
        if (strcmp(r->error, c->error))
            fail_msg("%s:\n  want: %s\n  got:  %s", c->title, c->error, r->error);
        assert_int_equal(r->error_code, c->code);
        assert_int_equal(r->http_status, c->http_status);
        if (an_turn_retryable(r) != c->retryable)
            fail_msg("%s: retryable should be %d", c->title, c->retryable);
        assert_non_null(r->failure);
        assert_string_equal(json_string_value(json_object_get(r->failure, "class")), c->cls);
        assert_int_equal(json_integer_value(json_object_get(r->failure, "attempt")), 2);
        assert_int_equal(json_integer_value(json_object_get(r->failure, "latency_ms")), 7);
        if (c->kind)
            assert_string_equal(json_string_value(json_object_get(r->failure, "kind")), c->kind);
        if (c->a.body_len)
            assert_non_null(json_object_get(r->failure, "body_snippet"));
        assert_int_equal(t.ncalls, 0);
        assert_null(r->response);
        /* a retry starts without it */
        an_turn_reset(r);
        assert_null(r->failure);
        an_transcript_release(&t);
    }
}

static void test_snippet_is_cut(void **state)
{
    (void)state;
    char body[600];
    memset(body, 'x', sizeof body);
    memcpy(body + 8, "\xC3\xA9", 2); /* a character across the cut at 9 */
    struct an_transcript t;
    struct an_hc_attempt a = {
        .status = 502, .rc = AN_EHTTP, .body = body, .body_len = sizeof body, .snippet_bytes = 9};
    struct an_turn_rec *r = run(&t, &a);
    assert_string_equal(json_string_value(json_object_get(r->failure, "body_snippet")), "xxxxxxxx");
    assert_int_equal(json_integer_value(json_object_get(r->failure, "body_bytes")), 600);
    /* the message shows 200 bytes and says it was cut */
    assert_non_null(strstr(r->error, "..."));
    an_transcript_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_answer),
        cmocka_unit_test(test_trace_integrity),
        cmocka_unit_test(test_failures),
        cmocka_unit_test(test_snippet_is_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
