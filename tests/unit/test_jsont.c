/* .jsont loading: interpolation passes, locations of errors, the model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/json.h"
#include "load/jsont.h"
#include "load/jsont_int.h"
#include "run/comply.h"

#define HEAD                                                                                       \
    "{\"title\":\"T\",\"description\":\"D\",\"severity\":\"required\",\"docs\":"                   \
    "[\"u\"],"

static struct an_jsont *load_ok(const char *text)
{
    struct an_jsont *t = NULL;
    struct an_err err = AN_ERR_INIT;
    int rc = an_jsont_load_text(&t, "dir/x.y.jsont", text, strlen(text), &err);
    if (rc)
        fail_msg("load failed: %s", err.msg);
    return t;
}

static void test_model(void **state)
{
    (void)state;
    struct an_jsont *t =
        load_ok(HEAD "\"area\":\"A\",\"future\":1,\"init\":{\"clientCapabilities\":{"
                     "\"terminal\":false},"
                     "\"permissionPolicy\":\"read\"},"
                     "\"sandbox\":{\"files\":[{\"path\":\"a/b.txt\",\"text\":\"hi\"},"
                     "{\"path\":\"c.bin\",\"base64\":\"AAEC\"}]},"
                     "\"preconditions\":[{\"agentCap\":\"loadSession\"},{\"cap\":"
                     "\"client.terminal\","
                     "\"mustBe\":false}],"
                     "\"steps\":[{\"send\":{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":"
                     "\"initialize\","
                     "\"params\":{\"protocolVersion\":${protocolVersionDefault},"
                     "\"clientCapabilities\":${clientCapabilitiesDefault}}}},"
                     "{\"newSession\":{}},{\"send\":{\"id\":3,\"method\":\"m\","
                     "\"expectError\":true}},"
                     "{\"expect\":{\"messages\":[{\"clientRequest\":{\"method\":\"x\"},"
                     "\"reply\":"
                     "{\"result\":{}}}],\"captures\":[{\"path\":\"params.a\",\"var\":"
                     "\"v\"}]}},"
                     "{\"forbid\":{\"methods\":[\"fs/read_text_file\"]}},{\"delayMs\":5},"
                     "{\"send\":{\"method\":\"n\",\"params\":{\"s\":\"${v} ${sessionId} "
                     "$${lit}\"}}}]}");
    assert_string_equal(t->id, "x.y");
    assert_string_equal(t->area, "A");
    assert_true(t->required);
    assert_int_equal(t->policy, AN_POLICY_READ);
    assert_true(t->self_init);
    assert_int_equal(t->nfiles, 2);
    assert_int_equal(t->files[1].len, 3);
    assert_memory_equal(t->files[1].data, "\0\1\2", 3);
    /* defaults merged with the override; the bare variable got the same */
    char *caps = an_json_compact(t->client_caps);
    assert_string_equal(caps, "{\"fs\":{\"readTextFile\":true,\"writeTextFile\":true},"
                              "\"terminal\":false}");
    char *sent = an_json_compact(
        json_object_get(json_object_get(t->steps[0].frame, "params"), "clientCapabilities"));
    assert_string_equal(sent, caps);
    free(caps);
    free(sent);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(t->steps[0].frame, "params"), "protocolVersion")),
                     1);
    assert_string_equal(t->steps[1].capture, "sessionId");
    assert_int_equal(t->steps[2].expect_error, 1);
    assert_null(json_object_get(t->steps[2].frame, "expectError"));
    assert_int_equal(t->steps[3].ms, AN_JSONT_EXPECT_TIMEOUT_MS);
    assert_false(t->steps[3].any_of); /* every envelope, unless anyOf */
    assert_non_null(t->steps[3].msgs[0].reply);
    assert_int_equal(t->steps[4].ms, AN_JSONT_FORBID_TIMEOUT_MS);
    assert_int_equal(t->steps[5].ms, 5);
    /* preconditions: agentCap and cap */
    json_t *ac = json_pack("{s:b}", "loadSession", 0);
    char *na = an_comply_precheck(t, ac);
    assert_non_null(na);
    assert_non_null(strstr(na, "agentCap 'loadSession' must be true"));
    free(na);
    json_object_set_new(ac, "loadSession", json_true());
    assert_null(an_comply_precheck(t, ac)); /* terminal is false, as required */
    json_decref(ac);

    /* pass 2: lazy resolution, regex quoting */
    struct an_vars v = AN_VARS_INIT;
    an_vars_set(&v, "v", "a.b");
    an_vars_set(&v, "sessionId", "s1");
    char *out;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_jsont_resolve_str("${v} ${sessionId} $${lit}", &v, false, &out, &err), 0);
    assert_string_equal(out, "a.b s1 ${lit}");
    free(out);
    assert_int_equal(an_jsont_resolve_str("^${v}$", &v, true, &out, &err), 0);
    assert_string_equal(out, "^\\Qa.b\\E$");
    free(out);
    assert_int_equal(an_jsont_resolve_str("${nope}", &v, false, &out, &err), AN_EVAR);
    assert_non_null(strstr(err.msg, "'nope'"));
    an_vars_release(&v);
    an_jsont_free(t);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int code;
        const char *where; /* "line:col" or "" */
        const char *msg;
    } rows[] = {
        {HEAD "\n\"steps\":[{\"send\":{\"method\":\"m\",\"id\":${sessionId}}}]}", AN_EVAR, "2:37",
         "'${sessionId}' outside a string"},
        {HEAD "\n\"steps\":[{\"send\":{\"method\":\"m\",\"p\":\"${nope}\"}}]}", AN_EVAR, "2:37",
         "unknown variable 'nope'"},
        {HEAD "\"steps\":[{\"send\":{\"method\":\"m\",\"p\":\"${bad name}\"}}]}", AN_ESCHEMA, "",
         "invalid variable reference"},
        {"{\"a\": ${protocolVersionDefault},\n  \"b\": }", AN_EPARSE, "2:8", "invalid JSON"},
        {HEAD "\"steps\":[{\"sned\":{}}]}", AN_ESCHEMA, "", "steps[0] has no known kind ('sned'?)"},
        {HEAD "\"steps\":[{\"delayMs\":1},{\"delayMs\":\"x\"}]}", AN_ESCHEMA, "",
         "steps[1]: 'delayMs' must be a whole number"},
        {HEAD "\"steps\":[{\"expect\":{\"messages\":[{\"response\":{\"id\":\"(\"}"
              "}]}}]}",
         AN_EREGEX, "", "steps[0]: expect.messages[0].response: id: invalid regex"},
        {HEAD "\"steps\":[{\"expect\":{\"messages\":[{\"respons\":{}}]}}]}", AN_ESCHEMA, "",
         "needs one of 'response'"},
        {"{\"title\":\"T\",\"description\":\"D\",\"severity\":\"must\",\"docs\":["
         "\"u\"],"
         "\"steps\":[{\"delayMs\":1}]}",
         AN_ESCHEMA, "", "'severity' must be"},
        {HEAD "\"sandbox\":{\"files\":[{\"path\":\"../"
              "x\",\"text\":\"\"}]},\"steps\":[{\"delayMs\":1}]}",
         AN_ESCHEMA, "", "must be relative"},
        {HEAD "\"steps\":[]}", AN_ESCHEMA, "", "'steps' must be a non-empty array"},
        {HEAD "\"steps\":[{\"expect\":{\"anyOf\":1,\"messages\":[{\"response\":{}}]}}]}",
         AN_ESCHEMA, "", "steps[0]: 'expect.anyOf' must be true or false"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_jsont *t = NULL;
        struct an_err err = AN_ERR_INIT;
        int rc = an_jsont_load_text(&t, "f.jsont", rows[i].text, strlen(rows[i].text), &err);
        assert_null(t);
        if (rc != rows[i].code || !strstr(err.msg, rows[i].msg))
            fail_msg("row %zu: code %d msg '%s'", i, rc, err.msg);
        if (*rows[i].where) {
            char at[32];
            snprintf(at, sizeof at, "%u:%u", err.line, err.col);
            if (strcmp(at, rows[i].where))
                fail_msg("row %zu: at %s, want %s (%s)", i, at, rows[i].where, err.msg);
        }
    }
}

/* expect.anyOf: the envelopes are alternatives */
static void test_any_of(void **state)
{
    (void)state;
    struct an_jsont *t = load_ok(
        HEAD "\"steps\":[{\"send\":{\"id\":6,\"method\":\"tools/call\"}},"
             "{\"expect\":{\"anyOf\":true,\"messages\":[{\"response\":{\"id\":6,\"error\":{}}},"
             "{\"response\":{\"id\":6,\"result\":{\"isError\":true}}}]}}]}");
    assert_true(t->steps[1].any_of);
    assert_int_equal(t->steps[1].nmsgs, 2);
    an_jsont_free(t);
}

static void test_path(void **state)
{
    (void)state;
    json_t *v = json_loads("{\"result\":{\"modes\":{\"a\":[{\"id\":\"x\"}]}}}", 0, NULL);
    assert_string_equal(json_string_value(an_jsont_path(v, "result.modes.a.0.id")), "x");
    assert_null(an_jsont_path(v, "result.nope"));
    assert_null(an_jsont_path(v, "result.modes.a.7"));
    json_decref(v);
}

/* ---- AG-UI steps ---- */

static void test_agui_model(void **state)
{
    (void)state;
    struct an_jsont *t =
        load_ok(HEAD "\"steps\":["
                     "{\"run\":{\"user\":\"hi ${threadId}\",\"input\":{\"state\":{\"a\":1},"
                     "\"extraField\":true},"
                     "\"headers\":{\"X-Test\":\"1\"},\"accept\":\"text/event-stream\","
                     "\"expect\":{\"events\":[{\"type\":\"^TOOL_CALL_START$\"}]},"
                     "\"captures\":[{\"event\":0,\"path\":\"toolCallId\",\"var\":\"callId\"},"
                     "{\"path\":\"runId\",\"var\":\"first\"}]}},"
                     "{\"delayMs\":5},"
                     "{\"run\":{\"continue\":true,\"timeoutMs\":500,\"observe\":true,"
                     "\"input\":{\"messages\":[{\"id\":\"t1\",\"role\":\"tool\","
                     "\"toolCallId\":\"${callId}\",\"content\":\"x\"}]}}},"
                     "{\"http\":{\"body\":\"{not json ${first}\",\"expect\":{\"anyOf\":["
                     "{\"status\":\"^http_error$\",\"http\":{\"status\":\"^4\"}},"
                     "{\"runError\":{}}]}}},"
                     "{\"http\":{\"json\":[1,2],\"expect\":{\"status\":\"http_error\","
                     "\"rule\":\"thread-id-echo\"}}}]}");
    assert_int_equal(t->protocol, AN_JSONT_AGUI);
    assert_string_equal(an_jsont_protocol_name(t->protocol), "agui");
    assert_int_equal(t->nsteps, 5);
    const struct an_jsont_step *s0 = &t->steps[0], *s2 = &t->steps[2], *s3 = &t->steps[3],
                               *s4 = &t->steps[4];
    assert_int_equal(s0->kind, AN_JSONT_AGUI_RUN);
    assert_string_equal(an_jsont_step_name(s0->kind), "run");
    assert_string_equal(s0->agui->user, "hi ${threadId}");
    assert_int_equal(s0->ms, AN_JSONT_AGUI_TIMEOUT_MS);
    assert_false(s0->agui->cont);
    assert_true(json_is_true(json_object_get(s0->agui->input, "extraField")));
    assert_string_equal(s0->agui->accept, "text/event-stream");
    assert_string_equal(json_string_value(json_object_get(s0->agui->headers, "X-Test")), "1");
    /* an outcome pattern without status expects completed */
    char *e0 = an_json_compact(s0->agui->expect);
    assert_string_equal(e0, "{\"events\":[{\"type\":\"^TOOL_CALL_START$\"}],"
                            "\"status\":\"^completed$\"}");
    free(e0);
    assert_int_equal(s0->ncaptures, 2);
    assert_int_equal(s0->captures[0].from, 0);
    assert_int_equal(s0->captures[1].from, -1);
    assert_int_equal(t->steps[1].kind, AN_JSONT_DELAY);
    assert_true(s2->agui->cont);
    assert_true(s2->agui->observe);
    assert_int_equal(s2->ms, 500);
    assert_int_equal(s3->kind, AN_JSONT_AGUI_HTTP);
    assert_string_equal(s3->agui->body, "{not json ${first}");
    assert_null(s3->agui->json);
    /* with anyOf the alternatives carry the status: the base has none */
    assert_null(json_object_get(s3->agui->expect, "status"));
    assert_int_equal(json_array_size(s3->agui->any_of), 2);
    assert_string_equal(
        json_string_value(json_object_get(json_array_get(s3->agui->any_of, 1), "status")),
        "^completed$");
    assert_null(s0->agui->na_unless);
    assert_true(json_is_array(s4->agui->json));
    assert_string_equal(json_string_value(json_object_get(s4->agui->expect, "status")),
                        "http_error");
    an_jsont_free(t);
}

/* A run step's naUnless: a pattern kept with its reason. */
static void test_agui_na_unless(void **state)
{
    (void)state;
    struct an_jsont *t = load_ok(HEAD "\"steps\":[{\"run\":{\"user\":\"x\","
                                      "\"naUnless\":{\"types\":\"TOOL_CALL_START\"},"
                                      "\"naReason\":\"no tool call\"}}]}");
    assert_int_equal(t->steps[0].kind, AN_JSONT_AGUI_RUN);
    assert_string_equal(
        json_string_value(json_object_get(t->steps[0].agui->na_unless, "types")),
        "TOOL_CALL_START");
    assert_string_equal(t->steps[0].agui->na_reason, "no tool call");
    an_jsont_free(t);
}

static void test_agui_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int code;
        const char *where; /* line:col */
        const char *msg;
    } rows[] = {
        {HEAD "\n\"steps\":[\n {\"run\":{\"usr\":\"x\"}}]}", AN_ESCHEMA, "3:16",
         "steps[0].run.usr: unknown key 'usr' (did you mean 'user'?)"},
        {HEAD "\n\"steps\":[\n {\"run\":{},\"expect\":{}}]}", AN_ESCHEMA, "3:2",
         "steps[0] has both 'expect' and 'run'"},
        {HEAD "\n\"steps\":[\n {\"run\":{},\"captures\":[]}]}", AN_ESCHEMA, "3:23",
         "steps[0].captures: unknown key 'captures'"},
        {HEAD
         "\n\"steps\":[{\"delayMs\":1},\n {\"run\":{\"expect\":{\"status\":\"^complete$\"}}}]}",
         AN_ESCHEMA, "3:29",
         "steps[1].run.expect.status: unknown status 'complete', did you mean 'completed'?"},
        {HEAD "\"steps\":[\n{\"run\":{\"expect\":{\"rule\":\"thread-echo\"}}}]}", AN_ESCHEMA,
         "2:26", "steps[0].run.expect.rule: no AG-UI rule is called 'thread-echo'"},
        {HEAD "\"steps\":[\n{\"run\":{\"expect\":{\"evnts\":[]}}}]}", AN_ESCHEMA, "2:27",
         "unknown key 'evnts' (did you mean 'events'?)"},
        {HEAD "\"steps\":[\n{\"run\":{\"expect\":{\"events\":[{\"type\":\"(\"}]}}}]}", AN_EREGEX,
         "2:37", "steps[0].run.expect: events[0].type: invalid regex"},
        {HEAD "\"steps\":[\n{\"run\":{\"expect\":{\"noEvents\":[\"x\"]}}}]}", AN_ESCHEMA, "2:31",
         "steps[0].run.expect.noEvents[0]: must be an object"},
        {HEAD "\"steps\":[\n{\"run\":{\"expect\":{\"anyOf\":[{\"anyOf\":[]}]}}}]}", AN_ESCHEMA,
         "2:37", "steps[0].run.expect.anyOf[0].anyOf: 'anyOf' does not nest"},
        {HEAD "\"steps\":[\n{\"run\":{\"expect\":{\"anyOf\":[]}}}]}", AN_ESCHEMA, "2:27",
         "steps[0].run.expect.anyOf: must be a non-empty array"},
        {HEAD "\"steps\":[\n{\"run\":{\"continue\":true}}]}", AN_ESCHEMA, "2:20",
         "steps[0].run.continue: needs an earlier 'run' step"},
        {HEAD "\"steps\":[\n{\"run\":{\"input\":{\"messages\":{}}}}]}", AN_ESCHEMA, "2:29",
         "steps[0].run.input.messages: must be an array (send a malformed input with an 'http' "
         "step)"},
        {HEAD "\"steps\":[\n{\"run\":{\"input\":{\"messages\":[{\"role\":\"user\"}]}}}]}",
         AN_ESCHEMA, "2:30", "steps[0].run.input.messages[0]: a message needs 'id' and 'role'"},
        {HEAD "\"steps\":[\n{\"http\":{\"body\":\"x\",\"json\":{}}}]}", AN_ESCHEMA, "2:9",
         "steps[0].http: needs exactly one of 'body'"},
        {HEAD "\"steps\":[\n{\"http\":{\"body\":1}}]}", AN_ESCHEMA, "2:17",
         "steps[0].http.body: must be a string"},
        {HEAD "\"steps\":[\n{\"run\":{\"timeoutMs\":0}}]}", AN_ESCHEMA, "2:21",
         "steps[0].run.timeoutMs: must be a whole number"},
        {HEAD "\"steps\":[\n{\"run\":{\"headers\":{\"A:B\":\"x\"}}}]}", AN_ESCHEMA, "2:26",
         "steps[0].run.headers.A:B: a header needs a name without ':'"},
        {HEAD
         "\"steps\":[\n{\"run\":{\"captures\":[{\"event\":0,\"path\":\"a\",\"var\":\"v\"}]}}]}",
         AN_ESCHEMA, "2:30",
         "steps[0].run.captures[0].event: must index expect.events (which has 0)"},
        {HEAD "\"steps\":[\n{\"run\":{\"naReason\":\"r\"}}]}", AN_ESCHEMA, "2:8",
         "steps[0].run: 'naUnless' (an outcome pattern) and 'naReason' (a string) go together"},
        {HEAD "\"steps\":[\n{\"http\":{\"body\":\"x\",\"naUnless\":{},\"naReason\":\"r\"}}]}",
         AN_ESCHEMA, "2:32", "steps[0].http.naUnless: unknown key 'naUnless'"},
        /* one protocol per test */
        {HEAD "\"steps\":[{\"run\":{}},\n{\"newSession\":{}}]}", AN_ESCHEMA, "2:1",
         "steps[1]: 'newSession' is an ACP step, but steps[0] is an AG-UI step ('run')"},
        {HEAD "\"sandbox\":{\"files\":[]},\n\"steps\":[{\"run\":{}}]}", AN_ESCHEMA, "1:77",
         "'sandbox' belongs to ACP tests"},
        /* AG-UI built-ins only */
        {HEAD "\"steps\":[\n{\"run\":{\"user\":\"${sessionId}\"}}]}", AN_EVAR, "2:17",
         "unknown variable 'sessionId' (built-ins: threadId, runId, messageId, suiteDir"},
        /* A2A's http steps: a GET or a POST, a GET with no body */
        {HEAD "\"steps\":[\n{\"http\":{\"method\":\"PUT\",\"json\":{}}}]}", AN_ESCHEMA, "2:19",
         "steps[0].http.method: must be \"GET\" or \"POST\""},
        {HEAD "\"steps\":[\n{\"http\":{\"method\":\"GET\",\"json\":{}}}]}", AN_ESCHEMA, "2:9",
         "steps[0].http: a GET sends no 'body' or 'json'"},
        {HEAD "\"steps\":[\n{\"http\":{\"path\":1,\"json\":{}}}]}", AN_ESCHEMA, "2:17",
         "steps[0].http.path: must be a string"},
        {HEAD "\"requirements\":[\"A\",1],\n\"steps\":[{\"http\":{\"json\":{}}}]}", AN_ESCHEMA,
         "0:0", "'requirements[1]' must be a string"},
        {HEAD "\"init\":{},\n\"steps\":[{\"http\":{\"json\":{}}}]}", AN_ESCHEMA, "1:74",
         "'init' belongs to ACP tests"},
        /* the ACP steps' errors carry the step's position too */
        {HEAD "\"steps\":[{\"delayMs\":1},\n  {\"sned\":{}}]}", AN_ESCHEMA, "2:3",
         "steps[1] has no known kind ('sned'?)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_jsont *t = NULL;
        struct an_err err = AN_ERR_INIT;
        int rc = an_jsont_load_text(&t, "f.jsont", rows[i].text, strlen(rows[i].text), &err);
        assert_null(t);
        char at[32];
        snprintf(at, sizeof at, "%u:%u", err.line, err.col);
        if (rc != rows[i].code || !strstr(err.msg, rows[i].msg) || strcmp(at, rows[i].where))
            fail_msg("row %zu: code %d at %s (want %s): '%s'", i, rc, at, rows[i].where, err.msg);
    }
}

/* A2A tests: requirement IDs, a GET of a path, preconditions kept. */
static void test_a2a_model(void **state)
{
    (void)state;
    static const char text[] = HEAD
        "\"requirements\":[\"A2A-CARD-002\",\"A2A-CARD-010\"],"
        "\"preconditions\":[{\"agentCap\":\"streaming\"}],\"steps\":["
        "{\"http\":{\"method\":\"GET\",\"path\":\"/.well-known/agent-card.json\","
        "\"expect\":{\"response\":{\"name\":\".+\"},\"kinds\":\"^$\"}}},"
        "{\"http\":{\"json\":{\"id\":1,\"params\":{\"m\":\"${messageId}\"}}}}]}";
    struct an_jsont *t = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_jsont_load_text(&t, "a.jsont", text, strlen(text), &err), AN_OK);
    assert_int_equal(t->nrequirements, 2);
    assert_string_equal(t->requirements[1], "A2A-CARD-010");
    assert_int_equal(t->npreconds, 1);
    assert_string_equal(t->steps[0].agui->method, "GET");
    assert_string_equal(t->steps[0].agui->path, "/.well-known/agent-card.json");
    assert_null(t->steps[0].agui->json);
    assert_null(t->steps[1].agui->method);
    assert_non_null(t->steps[1].agui->json);
    an_jsont_free(t);
}

/* MCP's mcpHttp steps: DELETE, session, naUnless; they are ACP-family
 * steps (sandbox allowed, self_init), and their errors name the key. */
static void test_mcp_http(void **state)
{
    (void)state;
    static const char text[] = HEAD
        "\"steps\":[{\"mcpHttp\":{\"json\":{\"id\":1,\"method\":\"initialize\"},"
        "\"naUnless\":{\"http\":{\"headers\":{\"mcp-session-id\":\".\"}}},\"naReason\":\"r\"}},"
        "{\"mcpHttp\":{\"method\":\"DELETE\",\"session\":false,"
        "\"expect\":{\"http\":{\"status\":\"^404$\"}}}}]}";
    struct an_jsont *t = load_ok(text);
    assert_int_equal(t->protocol, AN_JSONT_ACP);
    assert_true(t->self_init);
    assert_int_equal(t->steps[0].kind, AN_JSONT_MCP_HTTP);
    assert_string_equal(an_jsont_step_name(t->steps[0].kind), "mcpHttp");
    assert_int_equal(t->steps[0].ms, AN_JSONT_EXPECT_TIMEOUT_MS);
    assert_non_null(t->steps[0].agui->na_unless);
    assert_string_equal(t->steps[0].agui->na_reason, "r");
    assert_false(t->steps[0].agui->no_session);
    assert_string_equal(t->steps[1].agui->method, "DELETE");
    assert_true(t->steps[1].agui->no_session);
    assert_int_equal(t->steps[1].agui->concurrent, 1);
    assert_int_equal(t->ntransports, 0);
    an_jsont_free(t);
    /* concurrent copies, each with its ${copy} */
    static const char copies[] =
        HEAD "\"steps\":[{\"mcpHttp\":{\"concurrent\":16,\"json\":{\"id\":\"s-${copy}\"},"
             "\"expect\":{\"messages\":[{\"id\":\"^s-${copy}$\"}]}}}]}";
    t = load_ok(copies);
    assert_int_equal(t->steps[0].agui->concurrent, 16);
    an_jsont_free(t);
    /* a listened stream, a request sent while it is open, what it may not carry */
    static const char listen[] =
        HEAD "\"steps\":[{\"mcpHttp\":{\"listenMs\":800,\"json\":{\"id\":\"l\"},"
             "\"during\":{\"json\":{\"id\":\"t-${copy}\"},\"headers\":{\"Mcp-Name\":\"x\"}},"
             "\"expect\":{\"first\":{\"method\":\"ack\"},\"during\":{\"messages\":[]},"
             "\"noMessages\":[{\"method\":\"^x$\"},\"^(?!.*id)\"]}}}]}";
    t = load_ok(listen);
    assert_int_equal(t->steps[0].agui->listen_ms, 800);
    assert_string_equal(an_json_str(json_object_get(t->steps[0].agui->during, "headers"), "Mcp-Name"),
                        "x");
    assert_int_equal(json_array_size(json_object_get(t->steps[0].agui->expect, "noMessages")), 2);
    an_jsont_free(t);
    t = load_ok(copies);
    assert_int_equal(t->steps[0].agui->listen_ms, 0);
    assert_null(t->steps[0].agui->during);
    an_jsont_free(t);
    static const char both[] = HEAD "\"transports\":[\"http\",\"stdio\"],"
                                    "\"steps\":[{\"mcpHttp\":{\"json\":{\"id\":1}}}]}";
    t = load_ok(both);
    assert_int_equal(t->ntransports, 2);
    assert_string_equal(t->transports[1], "stdio");
    an_jsont_free(t);
    static const struct {
        const char *text, *msg;
    } rows[] = {
        {HEAD "\"steps\":[{\"mcpHttp\":{\"method\":\"PUT\",\"json\":{}}}]}",
         "steps[0].mcpHttp.method: must be \"GET\", \"POST\" or \"DELETE\""},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"method\":\"DELETE\",\"body\":\"x\"}}]}",
         "a GET or DELETE sends no 'body' or 'json'"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"session\":1}}]}",
         "steps[0].mcpHttp.session: must be true or false"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"concurrent\":0}}]}",
         "steps[0].mcpHttp.concurrent: must be a whole number of copies (1 to 16)"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"concurrent\":17}}]}",
         "steps[0].mcpHttp.concurrent: must be a whole number of copies (1 to 16)"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"concurrent\":\"3\"}}]}",
         "steps[0].mcpHttp.concurrent: must be a whole number of copies (1 to 16)"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"naUnless\":{}}}]}",
         "'naUnless' (an outcome pattern) and 'naReason' (a string) go together"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"path\":\"/x\"}}]}",
         "steps[0].mcpHttp.path: unknown key 'path'"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{}}},{\"run\":{}}]}",
         "'run' is an AG-UI step, but steps[0] is an ACP step ('mcpHttp')"},
        {HEAD "\"transports\":[\"sse\"],\"steps\":[{\"mcpHttp\":{\"json\":{}}}]}",
         "'transports' lists \"stdio\" and \"http\" (MCP), not 'sse'"},
        {HEAD "\"transports\":\"stdio\",\"steps\":[{\"mcpHttp\":{\"json\":{}}}]}",
         "transports"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"listenMs\":0}}]}",
         "steps[0].mcpHttp.listenMs: must be a whole number of milliseconds (1 to 60000)"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"listenMs\":60001}}]}",
         "steps[0].mcpHttp.listenMs: must be a whole number of milliseconds (1 to 60000)"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"listenMs\":\"800\"}}]}",
         "steps[0].mcpHttp.listenMs: must be a whole number of milliseconds (1 to 60000)"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"listenMs\":800,\"concurrent\":2}}]}",
         "steps[0].mcpHttp.listenMs: a listened stream is one request: not with 'concurrent'"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"during\":{\"json\":{}}}}]}",
         "steps[0].mcpHttp.during: needs 'listenMs'"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"listenMs\":9,\"during\":[]}}]}",
         "steps[0].mcpHttp.during: must be an object with 'json'"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"listenMs\":9,\"during\":{\"body\":\"x\"}}}]}",
         "steps[0].mcpHttp.during: must be an object with 'json'"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"listenMs\":9,"
              "\"during\":{\"json\":{},\"ms\":1}}}]}",
         "steps[0].mcpHttp.during.ms: unknown key 'ms'"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"listenMs\":9,"
              "\"during\":{\"json\":{},\"headers\":{\"a:b\":\"x\"}}}}]}",
         "steps[0].mcpHttp.during.headers.a:b: a header needs a name without ':'"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"listenMs\":9,"
              "\"during\":{\"json\":{},\"headers\":[]}}}]}",
         "steps[0].mcpHttp.during.headers: must be an object of strings"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"expect\":{\"noMessages\":{}}}}]}",
         "steps[0].mcpHttp.expect.noMessages: must be an array of message patterns"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"expect\":{\"noMessages\":[1]}}}]}",
         "steps[0].mcpHttp.expect.noMessages[0]: must be an object (a partial message) or a string"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"expect\":{\"noMessages\":[\"(\"]}}}]}",
         "noMessages"},
        {HEAD "\"steps\":[{\"mcpHttp\":{\"json\":{},\"expect\":{\"frist\":{}}}}]}",
         "unknown key 'frist' (did you mean 'first'?)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_err err = AN_ERR_INIT;
        t = NULL;
        int rc = an_jsont_load_text(&t, "f.jsont", rows[i].text, strlen(rows[i].text), &err);
        assert_null(t);
        if (!rc || !strstr(err.msg, rows[i].msg))
            fail_msg("row %zu: code %d: '%s'", i, rc, err.msg);
    }
}

static void test_locate(void **state)
{
    (void)state;
    static const char json[] = "{\"a\": [1, {\"b\\\"\": \"x]}\"}, [2]],\n \"c\": {\"d\": null}}";
    static const struct {
        const char *path;
        const char *at; /* the text found there */
    } rows[] = {
        {"", "{\"a\""},       {"a", "[1, "},   {"a.0", "1, "},  {"a.1", "{\"b"},
        {"a.2", "[2]"},       {"a.2.0", "2]"}, {"c", "{\"d\""}, {"c.d", "null"},
        {"c.nope", "{\"d\""}, {"a.7", "[1, "}, {"a.x", "[1, "}, {"c.d.e", "null"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        size_t off = jsont_locate(json, sizeof json - 1, rows[i].path);
        if (strncmp(json + off, rows[i].at, strlen(rows[i].at)))
            fail_msg("row %zu ('%s'): at '%.12s'", i, rows[i].path, json + off);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model),      cmocka_unit_test(test_errors),
        cmocka_unit_test(test_any_of),     cmocka_unit_test(test_path),
        cmocka_unit_test(test_agui_model), cmocka_unit_test(test_agui_errors), cmocka_unit_test(test_agui_na_unless),
        cmocka_unit_test(test_a2a_model),  cmocka_unit_test(test_locate),
        cmocka_unit_test(test_mcp_http),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
