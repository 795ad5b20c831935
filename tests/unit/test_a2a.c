/*
 * A2A's pure parts (proto/a2a.h): reading agent cards and choosing the
 * interface and version, task-state spellings, request bodies of both
 * protocol versions, and answers (tasks, messages, streamed status and
 * artifact updates of 1.0 and 0.3) turned into the transcript.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/json_assert.h"

#include "ananke/check.h"
#include "ananke/err.h"
#include "ananke/model.h"
#include "ananke/result.h"
#include "ananke/transcript.h"
#include "core/json.h"
#include "proto/a2a.h"
#include "proto/http.h"

/* ---- cards ---- */

struct card_case {
    const char *title;
    const char *card;
    int want;
    /* expected: url NULL means an error containing `error` */
    const char *url;
    int version;
    bool streaming;
    const char *key_header;
    const char *tenant;
    const char *error;
};

static const struct card_case card_cases[] = {
    {"1.0 card: the first JSON-RPC interface, 1.0 preferred by order",
     "{\"name\":\"A\",\"supportedInterfaces\":["
     "{\"url\":\"http://h/grpc\",\"protocolBinding\":\"GRPC\",\"protocolVersion\":\"1.0\"},"
     "{\"url\":\"http://h/"
     "\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\",\"tenant\":\"t1\"},"
     "{\"url\":\"http://h/\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"0.3\"}],"
     "\"capabilities\":{\"streaming\":true}}",
     AN_A2A_AUTO, "http://h/", AN_A2A_V1_0, true, NULL, "t1", NULL},
    {"1.0 card, 0.3 asked for",
     "{\"name\":\"A\",\"supportedInterfaces\":["
     "{\"url\":\"http://h/v1\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"},"
     "{\"url\":\"http://h/v03\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"0.3\"}]}",
     AN_A2A_V0_3, "http://h/v03", AN_A2A_V0_3, false, NULL, NULL, NULL},
    {"0.3 card: url, protocolVersion 0.3.0",
     "{\"name\":\"B\",\"url\":\"http://h/rpc\",\"protocolVersion\":\"0.3.0\","
     "\"capabilities\":{\"streaming\":false},"
     "\"securitySchemes\":{\"k\":{\"type\":\"apiKey\",\"in\":\"header\",\"name\":\"X-Key\"}}}",
     AN_A2A_AUTO, "http://h/rpc", AN_A2A_V0_3, false, "X-Key", NULL, NULL},
    {"0.3 card preferring REST: the JSON-RPC additional interface",
     "{\"name\":\"B\",\"url\":\"http://h/rest\",\"preferredTransport\":\"HTTP+JSON\","
     "\"protocolVersion\":\"0.3\",\"additionalInterfaces\":["
     "{\"url\":\"http://h/rest\",\"transport\":\"HTTP+JSON\"},"
     "{\"url\":\"http://h/jsonrpc\",\"transport\":\"JSONRPC\"}]}",
     AN_A2A_AUTO, "http://h/jsonrpc", AN_A2A_V0_3, false, NULL, NULL, NULL},
    {"hybrid card (a2a-js, no header): supportedInterfaces win",
     "{\"name\":\"C\",\"url\":\"http://h/\",\"protocolVersion\":\"0.3\",\"supportedInterfaces\":["
     "{\"url\":\"http://h/\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"}]}",
     AN_A2A_AUTO, "http://h/", AN_A2A_V1_0, false, NULL, NULL, NULL},
    {"1.0 apiKey scheme in a header",
     "{\"name\":\"D\",\"supportedInterfaces\":[{\"url\":\"https://h/\",\"protocolBinding\":"
     "\"JSONRPC\",\"protocolVersion\":\"1.0\"}],\"securitySchemes\":{"
     "\"q\":{\"apiKeySecurityScheme\":{\"location\":\"query\",\"name\":\"key\"}},"
     "\"h\":{\"apiKeySecurityScheme\":{\"location\":\"header\",\"name\":\"X-API-Key\"}}}}",
     AN_A2A_AUTO, "https://h/", AN_A2A_V1_0, false, "X-API-Key", NULL, NULL},
    {"1.0 asked, card only speaks 0.3",
     "{\"name\":\"E\",\"url\":\"http://h/\",\"protocolVersion\":\"0.3\"}", AN_A2A_V1_0, NULL, 0,
     false, NULL, NULL, "offers no JSON-RPC interface of A2A 1.0 (JSON-RPC versions offered: 0.3)"},
    {"only gRPC",
     "{\"name\":\"F\",\"supportedInterfaces\":[{\"url\":\"http://h/\",\"protocolBinding\":"
     "\"GRPC\",\"protocolVersion\":\"1.0\"}]}",
     AN_A2A_AUTO, NULL, 0, false, NULL, NULL, "versions offered: none"},
    {"a version ananke does not speak",
     "{\"name\":\"G\",\"supportedInterfaces\":[{\"url\":\"http://h/\",\"protocolBinding\":"
     "\"JSONRPC\",\"protocolVersion\":\"2.0\"}]}",
     AN_A2A_AUTO, NULL, 0, false, NULL, NULL, "of A2A 1.0 or 0.3 (JSON-RPC versions offered: 2.0)"},
    {"no name", "{\"url\":\"http://h/\"}", AN_A2A_AUTO, NULL, 0, false, NULL, NULL,
     "has no 'name'"},
    {"not an object", "[1]", AN_A2A_AUTO, NULL, 0, false, NULL, NULL, "not a JSON object"},
    {"interface URL of another scheme",
     "{\"name\":\"H\",\"url\":\"grpc://h:1\",\"protocolVersion\":\"0.3\"}", AN_A2A_AUTO, NULL, 0,
     false, NULL, NULL, "is not http:// or https://"},
};

static void test_cards(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof card_cases / sizeof *card_cases; i++) {
        const struct card_case *c = &card_cases[i];
        json_t *card = ut_json_parse(c->card);
        struct an_a2a_card got;
        struct an_err err = AN_ERR_INIT;
        int rc = an_a2a_card_read(card, c->want, &got, &err);
        if (!c->url) {
            if (rc != AN_EPROTO || !strstr(err.msg, c->error))
                fail_msg("%s: rc %d, message '%s', want '%s'", c->title, rc, err.msg, c->error);
        } else {
            if (rc)
                fail_msg("%s: %s", c->title, err.msg);
            if (strcmp(got.url, c->url) || got.version != c->version ||
                got.streaming != c->streaming)
                fail_msg("%s: url %s version %d streaming %d", c->title, got.url, got.version,
                         got.streaming);
            if ((c->key_header == NULL) != (got.api_key_header == NULL) ||
                (c->key_header && strcmp(c->key_header, got.api_key_header)))
                fail_msg("%s: api key header %s", c->title,
                         got.api_key_header ? got.api_key_header : "(none)");
            if ((c->tenant == NULL) != (got.tenant == NULL) ||
                (c->tenant && strcmp(c->tenant, got.tenant)))
                fail_msg("%s: tenant %s", c->title, got.tenant ? got.tenant : "(none)");
        }
        an_a2a_card_release(&got);
        json_decref(card);
    }
}

static void test_card_url_for(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"http://127.0.0.1:41241/", "http://127.0.0.1:41241/.well-known/agent-card.json"},
        {"http://127.0.0.1:41241", "http://127.0.0.1:41241/.well-known/agent-card.json"},
        {"https://a.example/v1/rpc?x=1", "https://a.example/.well-known/agent-card.json"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *u = an_a2a_card_url_for(cases[i][0]);
        assert_string_equal(u, cases[i][1]);
        free(u);
    }
}

/* Where credentials may go (http.h an_http_same_origin): scheme, host and
 * port, the default port written or not, the host in any case. */
static void test_same_origin(void **state)
{
    (void)state;
    static const struct {
        const char *a, *b;
        bool same;
    } rows[] = {
        {"http://127.0.0.1:8000/a", "http://127.0.0.1:8000/b?x#y", true},
        {"http://127.0.0.1:8000/", "http://127.0.0.1:8001/", false}, /* another port */
        {"https://a.example/", "http://a.example/", false},          /* a downgrade */
        {"https://a.example/", "https://a.example:443/card", true},  /* the default port */
        {"http://A.Example/x", "http://a.example:80/y", true},       /* host case */
        {"http://a.example/", "http://a.example.evil/", false},
        {"http://a.example@evil.example/", "http://a.example/", false}, /* userinfo */
        {"http://a.example/", "not a url", false},
        {"http://[::1]:80/", "http://[::1]/", true},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (an_http_same_origin(rows[i].a, rows[i].b) != rows[i].same)
            fail_msg("row %zu: '%s' and '%s' should%s share an origin", i, rows[i].a, rows[i].b,
                     rows[i].same ? "" : " not");
    char *o = an_http_origin("HTTPS://Agent.Example/.well-known/agent-card.json");
    assert_string_equal(o, "https://agent.example:443");
    free(o);
}

/* ---- states ---- */

static void test_states(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"TASK_STATE_COMPLETED", "completed"},
        {"completed", "completed"},
        {"TASK_STATE_INPUT_REQUIRED", "input-required"},
        {"input-required", "input-required"},
        {"input_required", "input-required"},
        {"TASK_STATE_AUTH_REQUIRED", "auth-required"},
        {"TASK_STATE_CANCELED", "canceled"},
        {"cancelled", "canceled"},
        {"TASK_STATE_UNSPECIFIED", "unknown"},
        {"unknown", "unknown"},
        {"TASK_STATE_REJECTED", "rejected"},
        {"Working", "working"},
        {"done", NULL},
        {"TASK_STATE_", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *got = an_a2a_state(cases[i][0]);
        if ((got == NULL) != (cases[i][1] == NULL) || (got && strcmp(got, cases[i][1])))
            fail_msg("state '%s' -> '%s', want '%s'", cases[i][0], got ? got : "(null)",
                     cases[i][1] ? cases[i][1] : "(null)");
    }
    assert_true(an_a2a_state_terminal("completed") && an_a2a_state_terminal("failed") &&
                an_a2a_state_terminal("canceled") && an_a2a_state_terminal("rejected"));
    assert_false(an_a2a_state_terminal("input-required") || an_a2a_state_terminal("working"));
    assert_true(an_a2a_state_interrupted("input-required") &&
                an_a2a_state_interrupted("auth-required"));
    assert_false(an_a2a_state_interrupted("completed") || an_a2a_state_interrupted(NULL));
}

/* ---- requests ---- */

struct body_case {
    const char *title;
    struct an_a2a_send m;
    const char *parts; /* JSON or NULL */
    const char *want;
};

static const char *const modes[] = {"text/plain", "application/json"};

static const struct body_case body_cases[] = {
    {"1.0 SendMessage, text only, blocking (the default: no configuration)",
     {.version = AN_A2A_V1_0, .id = 1, .message_id = "m1", .text = "hello", .blocking = true},
     NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
     "{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hello\"}]}}}"},
    {"1.0 streaming, continuing a task, tenant, modes, not blocking",
     {.version = AN_A2A_V1_0,
      .stream = true,
      .id = 7,
      .message_id = "m7",
      .text = "from SFO",
      .context_id = "c1",
      .task_id = "t1",
      .tenant = "acme",
      .blocking = false,
      .modes = modes,
      .nmodes = 2},
     NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"SendStreamingMessage\",\"params\":{\"message\":"
     "{\"messageId\":\"m7\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"from SFO\"}],"
     "\"contextId\":\"c1\",\"taskId\":\"t1\"},\"configuration\":{\"acceptedOutputModes\":"
     "[\"text/plain\",\"application/json\"],\"returnImmediately\":true},\"tenant\":\"acme\"}}"},
    {"0.3 message/send: kind on message and parts, blocking written out, no tenant",
     {.version = AN_A2A_V0_3,
      .id = 2,
      .message_id = "m2",
      .text = "hi",
      .context_id = "c9",
      .tenant = "acme",
      .blocking = true},
     NULL,
     "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"message/send\",\"params\":{\"message\":"
     "{\"kind\":\"message\",\"messageId\":\"m2\",\"role\":\"user\",\"parts\":[{\"kind\":\"text\","
     "\"text\":\"hi\"}],\"contextId\":\"c9\"},\"configuration\":{\"blocking\":true}}}"},
    {"0.3 message/stream with data and file parts given in the 1.0 shape",
     {.version = AN_A2A_V0_3, .stream = true, .id = 3, .message_id = "m3", .blocking = true},
     "[{\"data\":{\"a\":1}},{\"url\":\"http://x/f.csv\",\"mediaType\":\"text/csv\","
     "\"filename\":\"f.csv\"},{\"raw\":\"aGk=\"}]",
     "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"message/stream\",\"params\":{\"message\":"
     "{\"kind\":\"message\",\"messageId\":\"m3\",\"role\":\"user\",\"parts\":["
     "{\"kind\":\"data\",\"data\":{\"a\":1}},"
     "{\"kind\":\"file\",\"file\":{\"uri\":\"http://x/f.csv\",\"mimeType\":\"text/csv\","
     "\"name\":\"f.csv\"}},{\"kind\":\"file\",\"file\":{\"bytes\":\"aGk=\"}}]},"
     "\"configuration\":{\"blocking\":true}}}"},
    {"1.0 with parts given in the 0.3 shape, after the text",
     {.version = AN_A2A_V1_0, .id = 4, .message_id = "m4", .text = "see", .blocking = true},
     "[{\"kind\":\"file\",\"file\":{\"uri\":\"http://x/a.png\",\"mimeType\":\"image/png\"}},"
     "{\"kind\":\"data\",\"data\":[1,2],\"metadata\":{\"k\":\"v\"}}]",
     "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"SendMessage\",\"params\":{\"message\":"
     "{\"messageId\":\"m4\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"see\"},"
     "{\"url\":\"http://x/a.png\",\"mediaType\":\"image/png\"},"
     "{\"data\":[1,2],\"metadata\":{\"k\":\"v\"}}]}}}"},
};

static void test_send_bodies(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof body_cases / sizeof *body_cases; i++) {
        const struct body_case *c = &body_cases[i];
        struct an_a2a_send m = c->m;
        json_t *parts = c->parts ? ut_json_parse(c->parts) : NULL;
        m.parts = parts;
        struct an_err err = AN_ERR_INIT;
        char *body = an_a2a_send_body(&m, &err);
        if (!body)
            fail_msg("%s: %s", c->title, err.msg);
        json_t *got = ut_json_parse(body);
        ut_assert_json(c->title, got, c->want);
        json_decref(got);
        json_decref(parts);
        free(body);
    }
    /* a part of no known shape is refused, naming it */
    json_t *bad = ut_json_parse("[{\"text\":\"ok\"},{\"image\":\"x\"}]");
    struct an_a2a_send m = {.version = AN_A2A_V1_0, .id = 1, .message_id = "m", .parts = bad};
    struct an_err err = AN_ERR_INIT;
    assert_null(an_a2a_send_body(&m, &err));
    assert_non_null(strstr(err.msg, "part 2 is not an A2A part"));
    json_decref(bad);

    char *cancel = an_a2a_cancel_body(AN_A2A_V1_0, 5, "t1", NULL);
    assert_string_equal(cancel, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"CancelTask\","
                                "\"params\":{\"id\":\"t1\"}}");
    free(cancel);
    cancel = an_a2a_cancel_body(AN_A2A_V0_3, 6, "t2", "acme");
    assert_string_equal(cancel, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tasks/cancel\","
                                "\"params\":{\"id\":\"t2\"}}");
    free(cancel);
}

/* ---- answers into the transcript ---- */

struct answer_case {
    const char *title;
    const char *results; /* a JSON array of results, fed one by one (t_ms 100, 200, ...) */
    const char *text;
    const char *calls; /* [[name, result], ...] */
    const char *task;  /* the turn's task, or "null" */
    bool final, message;
    const char *error; /* a result refused: AN_EPROTO with this in why */
};

static const struct answer_case answer_cases[] = {
    {"1.0 blocking task: history, artifacts",
     "[{\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_"
     "COMPLETED\"},"
     "\"artifacts\":[{\"artifactId\":\"a1\",\"name\":\"echo\",\"parts\":[{\"text\":\"echo: hello\","
     "\"mediaType\":\"text/plain\"}]}],\"history\":[{\"messageId\":\"m-1\",\"role\":\"ROLE_USER\","
     "\"parts\":[{\"text\":\"hello\"}]},{\"messageId\":\"w1\",\"role\":\"ROLE_AGENT\",\"parts\":"
     "[{\"text\":\"working\"}]}]}}]",
     "working\necho: hello", "[[\"artifact:echo\",\"echo: hello\"]]",
     "{\"id\":\"t1\",\"contextId\":\"c1\",\"state\":\"completed\",\"states\":[{\"state\":"
     "\"completed\",\"t_ms\":100}]}",
     true, false, NULL},
    {"1.0 direct message",
     "[{\"message\":{\"messageId\":\"x\",\"contextId\":\"c2\",\"role\":\"ROLE_AGENT\",\"parts\":"
     "[{\"text\":\"echo: hi\",\"mediaType\":\"text/plain\"}]}}]",
     "echo: hi", "[]", "null", true, true, NULL},
    {"1.0 stream: task, working, artifact, completed",
     "[{\"task\":{\"id\":\"t3\",\"contextId\":\"c3\",\"status\":{\"state\":\"TASK_STATE_"
     "SUBMITTED\"},"
     "\"history\":[{\"messageId\":\"u\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"q\"}]}]}},"
     "{\"statusUpdate\":{\"taskId\":\"t3\",\"contextId\":\"c3\",\"status\":{\"state\":"
     "\"TASK_STATE_WORKING\",\"message\":{\"messageId\":\"w\",\"role\":\"ROLE_AGENT\",\"parts\":"
     "[{\"text\":\"working\"}]}}}},"
     "{\"artifactUpdate\":{\"taskId\":\"t3\",\"contextId\":\"c3\",\"artifact\":{\"artifactId\":"
     "\"a3\",\"name\":\"result\",\"parts\":[{\"data\":{\"echo\":\"q\",\"n\":3}}]},"
     "\"lastChunk\":true}},"
     "{\"statusUpdate\":{\"taskId\":\"t3\",\"contextId\":\"c3\",\"status\":{\"state\":"
     "\"TASK_STATE_COMPLETED\"}}}]",
     "working", "[[\"artifact:result\",{\"echo\":\"q\",\"n\":3}]]",
     "{\"id\":\"t3\",\"contextId\":\"c3\",\"state\":\"completed\",\"states\":["
     "{\"state\":\"submitted\",\"t_ms\":100},{\"state\":\"working\",\"t_ms\":200},"
     "{\"state\":\"completed\",\"t_ms\":400}]}",
     true, false, NULL},
    {"0.3 stream: kinds, final, a file part, text artifact streamed in two chunks",
     "[{\"kind\":\"task\",\"id\":\"t4\",\"contextId\":\"c4\",\"status\":{\"state\":\"submitted\"}},"
     "{\"kind\":\"artifact-update\",\"taskId\":\"t4\",\"contextId\":\"c4\",\"artifact\":"
     "{\"artifactId\":\"a4\",\"name\":\"story\",\"parts\":[{\"kind\":\"text\",\"text\":\"Once "
     "\"}]},"
     "\"append\":false},"
     "{\"kind\":\"artifact-update\",\"taskId\":\"t4\",\"contextId\":\"c4\",\"artifact\":"
     "{\"artifactId\":\"a4\",\"parts\":[{\"kind\":\"text\",\"text\":\"upon a time\"}]},"
     "\"append\":true,\"lastChunk\":true},"
     "{\"kind\":\"artifact-update\",\"taskId\":\"t4\",\"contextId\":\"c4\",\"artifact\":"
     "{\"artifactId\":\"a5\",\"name\":\"report\",\"parts\":[{\"kind\":\"file\",\"file\":{\"uri\":"
     "\"http://h/r.csv\",\"mimeType\":\"text/csv\",\"name\":\"r.csv\"}}]}},"
     "{\"kind\":\"status-update\",\"taskId\":\"t4\",\"contextId\":\"c4\",\"status\":{\"state\":"
     "\"completed\"},\"final\":true}]",
     "Once upon a time",
     "[[\"artifact:story\",\"Once upon a time\"],[\"artifact:report\",{\"url\":\"http://h/r.csv\","
     "\"mediaType\":\"text/csv\",\"filename\":\"r.csv\"}]]",
     "{\"id\":\"t4\",\"contextId\":\"c4\",\"state\":\"completed\",\"states\":["
     "{\"state\":\"submitted\",\"t_ms\":100},{\"state\":\"completed\",\"t_ms\":500}]}",
     true, false, NULL},
    {"0.3 blocking, input-required: the status message once (history repeats it)",
     "[{\"kind\":\"task\",\"id\":\"t5\",\"contextId\":\"c5\",\"status\":{\"state\":"
     "\"input-required\",\"message\":{\"kind\":\"message\",\"messageId\":\"n\",\"role\":\"agent\","
     "\"parts\":[{\"kind\":\"text\",\"text\":\"need more input\"}]}},\"history\":[{\"kind\":"
     "\"message\",\"messageId\":\"n\",\"role\":\"agent\",\"parts\":[{\"kind\":\"text\",\"text\":"
     "\"need more input\"}]}]}]",
     "need more input", "[]",
     "{\"id\":\"t5\",\"contextId\":\"c5\",\"state\":\"input-required\",\"states\":["
     "{\"state\":\"input-required\",\"t_ms\":100}]}",
     true, false, NULL},
    {"stream not over yet: working is not final",
     "[{\"task\":{\"id\":\"t6\",\"contextId\":\"c6\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}"
     "}]",
     "", "[]",
     "{\"id\":\"t6\",\"contextId\":\"c6\",\"state\":\"working\",\"states\":["
     "{\"state\":\"working\",\"t_ms\":100}]}",
     false, false, NULL},
    {"a message with a data part: a \"message\" record",
     "[{\"kind\":\"message\",\"messageId\":\"d\",\"role\":\"agent\",\"parts\":[{\"kind\":\"text\","
     "\"text\":\"here\"},{\"kind\":\"data\",\"data\":{\"ok\":true}}]}]",
     "here", "[[\"message\",{\"ok\":true}]]", "null", true, true, NULL},
    {"a result of no known shape", "[{\"foo\":1}]", "", "[]", "null", false, false,
     "no task, message, statusUpdate or artifactUpdate"},
    {"an unknown 0.3 kind", "[{\"kind\":\"weird\"}]", "", "[]", "null", false, false,
     "unknown kind 'weird'"},
};

static void test_answers(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof answer_cases / sizeof *answer_cases; i++) {
        const struct answer_case *c = &answer_cases[i];
        struct an_transcript t;
        an_transcript_init(&t);
        an_transcript_add_turn(&t, "user");
        json_t *seen = json_object();
        struct an_a2a_turn d;
        an_a2a_turn_init(&d, &t, seen);
        json_t *results = ut_json_parse(c->results);
        int rc = AN_OK;
        char why[256] = "";
        for (size_t k = 0; k < json_array_size(results) && !rc; k++)
            rc = an_a2a_turn_result(&d, json_array_get(results, k), (int64_t)(k + 1) * 100, why,
                                    sizeof why);
        if (c->error) {
            if (rc != AN_EPROTO || !strstr(why, c->error))
                fail_msg("%s: rc %d why '%s'", c->title, rc, why);
        } else if (rc) {
            fail_msg("%s: %s", c->title, why);
        }
        if (d.final != c->final || d.message != c->message)
            fail_msg("%s: final %d message %d", c->title, d.final, d.message);
        an_a2a_turn_finish(&d);
        const struct an_turn_rec *r = &t.turns[0];
        if (strcmp(r->text ? r->text : "", c->text))
            fail_msg("%s: text '%s', want '%s'", c->title, r->text, c->text);
        json_t *calls = json_array();
        for (size_t k = 0; k < t.ncalls; k++)
            json_array_append_new(calls, json_pack("[s,O]", t.calls[k].name, t.calls[k].result));
        ut_assert_json(c->title, calls, c->calls);
        assert_int_equal(r->ncalls, t.ncalls);
        json_t *task = r->task ? json_incref(r->task) : json_null();
        ut_assert_json(c->title, task, c->task);
        json_decref(task);
        json_decref(calls);
        json_decref(results);
        an_a2a_turn_release(&d);
        json_decref(seen);
        an_transcript_release(&t);
    }
}

/* A later turn of the same task: what the first one took is not taken again. */
static void test_answers_across_turns(void **state)
{
    (void)state;
    struct an_transcript t;
    an_transcript_init(&t);
    json_t *seen = json_object();
    const char *turns[] = {
        "{\"task\":{\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":"
        "\"TASK_STATE_INPUT_REQUIRED\",\"message\":{\"messageId\":\"q\",\"role\":\"ROLE_AGENT\","
        "\"parts\":[{\"text\":\"which city?\"}]}},\"artifacts\":[{\"artifactId\":\"a0\",\"name\":"
        "\"draft\",\"parts\":[{\"text\":\"draft 1\"}]}]}}",
        "{\"task\":{\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":"
        "\"TASK_STATE_COMPLETED\"},\"artifacts\":[{\"artifactId\":\"a0\",\"name\":\"draft\","
        "\"parts\":[{\"text\":\"draft 1\"}]},{\"artifactId\":\"a1\",\"name\":\"echo\",\"parts\":"
        "[{\"text\":\"echo: Paris\"}]}],\"history\":[{\"messageId\":\"q\",\"role\":\"ROLE_AGENT\","
        "\"parts\":[{\"text\":\"which city?\"}]}]}}",
    };
    const char *want_text[] = {"which city?\ndraft 1", "echo: Paris"};
    for (size_t i = 0; i < 2; i++) {
        an_transcript_add_turn(&t, "a2a:send");
        struct an_a2a_turn d;
        an_a2a_turn_init(&d, &t, seen);
        json_t *res = ut_json_parse(turns[i]);
        char why[256];
        assert_int_equal(an_a2a_turn_result(&d, res, 10, why, sizeof why), AN_OK);
        an_a2a_turn_finish(&d);
        an_a2a_turn_release(&d);
        json_decref(res);
        assert_string_equal(t.turns[i].text, want_text[i]);
    }
    assert_int_equal(t.ncalls, 2);
    assert_int_equal(t.turns[1].first_call, 1);
    assert_int_equal(t.turns[1].ncalls, 1);
    assert_string_equal(t.calls[1].name, "artifact:echo");
    assert_string_equal(json_string_value(json_object_get(t.turns[1].task, "state")), "completed");
    json_decref(seen);
    an_transcript_release(&t);
}

/* ---- the task_state check ---- */

struct state_case {
    const char *title;
    const char *task;  /* the scope's task, or NULL */
    const char *value; /* the check's normalized states */
    bool negate;
    const char *label, *actual; /* NULL: the check passes */
};

static const struct state_case state_cases[] = {
    {"completed, as asked", "{\"state\":\"completed\",\"states\":[]}", "[\"completed\"]", false,
     NULL, NULL},
    {"one of several", "{\"state\":\"failed\"}", "[\"completed\",\"failed\"]", false, NULL, NULL},
    {"another state, with the way it went",
     "{\"state\":\"input-required\",\"states\":[{\"state\":\"submitted\"},"
     "{\"state\":\"working\"},{\"state\":\"input-required\"}]}",
     "[\"completed\"]", false, "The task must end completed",
     "input-required (submitted → working → input-required)"},
    {"a message, no task", NULL, "[\"completed\",\"canceled\"]", false,
     "The task must end completed or canceled", "no task (the agent answered with a message)"},
    {"negated", "{\"state\":\"failed\"}", "[\"failed\"]", true, "The task must not end failed",
     "failed"},
    {"negated, no task: passes", NULL, "[\"failed\"]", true, NULL, NULL},
};

static void test_task_state_check(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof state_cases / sizeof *state_cases; i++) {
        const struct state_case *c = &state_cases[i];
        json_t *task = c->task ? ut_json_parse(c->task) : NULL;
        json_t *value = ut_json_parse(c->value);
        struct an_check_item it = {.kind = AN_CHECK_TASK_STATE,
                                   .value = value,
                                   .negate = c->negate,
                                   .level = AN_LEVEL_TURN};
        struct an_assert blk = {.checks = &it, .nchecks = 1};
        struct an_scope s = {.text = "", .turn = 0, .task = task};
        struct an_findings f = {0};
        size_t n = an_check(&blk, &s, &f);
        if (!c->label) {
            if (n)
                fail_msg("%s: a finding: %s / %s", c->title, f.v[0].assertion, f.v[0].actual);
        } else {
            if (n != 1)
                fail_msg("%s: %zu findings", c->title, n);
            if (strcmp(f.v[0].assertion, c->label) || strcmp(f.v[0].actual, c->actual) ||
                strcmp(f.v[0].kind, "check.task_state"))
                fail_msg("%s: '%s' / '%s' (%s)", c->title, f.v[0].assertion, f.v[0].actual,
                         f.v[0].kind);
        }
        an_findings_release(&f);
        json_decref(value);
        json_decref(task);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cards),
        cmocka_unit_test(test_card_url_for),
        cmocka_unit_test(test_states),
        cmocka_unit_test(test_send_bodies),
        cmocka_unit_test(test_answers),
        cmocka_unit_test(test_answers_across_turns),
        cmocka_unit_test(test_task_state_check),
        cmocka_unit_test(test_same_origin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
