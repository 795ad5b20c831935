/*
 * Unit tests of the AG-UI mock's scenario loader, rule picking, request
 * reading and stream rendering. The mock's sources are not part of
 * libananke, so they are compiled into this test directly.
 */
#include "../../src/mock/agui_plan.c"
#include "../../src/mock/mock_mcp.c"
#include "../../src/mock/agui_request.c"
#include "../../src/mock/agui_scenario.c"
#include "../../src/mock/mock_message.c"
#include "../../src/mock/mock_plan.c"
#include "../../src/mock/scenario_rules.c"
#include "../../src/mock/scenario_util.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support/mock_checks.h"

static struct agui_scenario *load_ok(const char *yaml)
{
    struct an_err err = AN_ERR_INIT;
    struct agui_scenario *s = NULL;
    mock_assert_loaded(agui_scenario_load_mem(&s, "s.yaml", yaml, strlen(yaml), &err), &err);
    return s;
}

/* For mock_assert_bad_scenarios. */
static int load_and_free(const char *yaml, struct an_err *err)
{
    struct agui_scenario *s = NULL;
    int rc = agui_scenario_load_mem(&s, "s.yaml", yaml, strlen(yaml), err);
    if (rc)
        assert_null(s);
    agui_scenario_free(s);
    return rc;
}

/* ---- load errors: location and message ------------------------------------ */

static const struct mock_bad_scenario bad_cases[] = {
    {"- a\n", "s.yaml:1:1", "a scenario must be a map"},
    {"rulez: []\n", "s.yaml:1:1", "unknown key 'rulez' in scenario (did you mean 'rules'?)"},
    {"rules: {}\n", "s.yaml:1:8", "'rules' must be a list"},
    {"rules:\n  - mach: x\n    steps: [{text: a}]\n", "s.yaml:2:5",
     "unknown key 'mach' in rule (did you mean 'match'?)"},
    {"rules:\n  - zzzzzz: x\n", "s.yaml:2:5", "unknown key 'zzzzzz' in rule"},
    {"rules:\n  - match: \"(\"\n    steps: [{text: a}]\n", "s.yaml:2:12", "invalid regex '('"},
    {"rules:\n  - match: x\n", "s.yaml:2:5", "a rule with status 200 needs 'steps'"},
    {"rules:\n  - status: 503\n    steps: [{text: a}]\n", "s.yaml:3:12",
     "sends 'body', not 'steps'"},
    {"rules:\n  - status: 99\n", "s.yaml:2:13", "'status' must be between 200 and 599"},
    {"rules:\n  - status: ok\n", "s.yaml:2:13", "'status' must be an integer, not a string"},
    {"rules:\n  - steps: [{text: a}]\n    body: x\n", "s.yaml:3:11", "not both"},
    {"rules:\n  - steps: {text: a}\n", "s.yaml:2:12", "'steps' must be a list"},
    {"rules:\n  - run: none\n    steps: []\n", "s.yaml:3:12", "nothing would be sent"},
    {"rules:\n  - steps:\n      - {}\n", "s.yaml:3:9", "a step needs one of text, tool"},
    {"rules:\n  - steps:\n      - {text: a, tool: b}\n", "s.yaml:3:19",
     "it has both 'text' and 'tool'"},
    {"rules:\n  - steps:\n      - {text: a, result: b}\n", "s.yaml:3:19",
     "'result' does not apply to a text step"},
    {"rules:\n  - steps:\n      - {text: a, chunk: 2}\n", "s.yaml:3:19",
     "unknown key 'chunk' in a text step (did you mean 'chunks'?)"},
    {"rules:\n  - steps:\n      - {text: a, chunks: 0}\n", "s.yaml:3:27",
     "'chunks' must be between 1 and"},
    {"rules:\n  - steps:\n      - {text: [a]}\n", "s.yaml:3:16",
     "'text' must be a string, not a list"},
    {"rules:\n  - steps:\n      - {text: }\n", "s.yaml:3:16", "'text' must be a string, not null"},
    {"rules:\n  - steps:\n      - {tool: \"\"}\n", "s.yaml:3:16", "'tool' needs a tool name"},
    {"rules:\n  - steps:\n      - {tool: t, args: {}, args_text: x}\n", "s.yaml:3:9",
     "give 'args' or 'args_text', not both"},
    {"rules:\n  - steps:\n      - {delay_ms: soon}\n", "s.yaml:3:20",
     "'delay_ms' must be an integer"},
    {"rules:\n  - steps:\n      - {delay_ms: -1}\n", "s.yaml:3:20", "between 0 and"},
    {"rules:\n  - steps:\n      - {event: [1]}\n", "s.yaml:3:17", "'event' must be a map"},
    {"rules:\n  - steps:\n      - {cut: false}\n", "s.yaml:3:15", "'cut: false' does nothing"},
    {"rules:\n  - steps:\n      - {stall: \"yes\"}\n", "s.yaml:3:17", "must be true or false"},
    {"rules:\n  - steps:\n      - {run_error: x}\n      - {text: a}\n", "s.yaml:4:9",
     "this step is never sent: the stream ends at 'run_error' (line 3)"},
    {"rules:\n  - steps:\n      - {cut: true}\n      - {text: a}\n", "s.yaml:4:9",
     "the stream ends at 'cut'"},
    {"rules:\n  - framing: crlf2\n    steps: [{text: a}]\n", "s.yaml:2:14",
     "'framing' must be lf, crlf or cr, not 'crlf2'"},
    {"rules:\n  - run: sometimes\n    steps: [{text: a}]\n", "s.yaml:2:10",
     "'run' must be auto or none"},
    {"rules:\n  - connect: \"true\"\n    steps: [{text: a}]\n", "s.yaml:2:14",
     "'connect' must be true or false, not a string"},
    {"rules:\n  - times: 0\n    steps: [{text: a}]\n", "s.yaml:2:12", "'times' must be between 1"},
    {"rules:\n  - path: agent\n    steps: [{text: a}]\n", "s.yaml:2:11", "must start with '/'"},
    {"rules:\n  - headers: {Content-Length: 3}\n    steps: [{text: a}]\n", "s.yaml:2:15",
     "header 'Content-Length' cannot be scripted"},
    {"rules:\n  - headers: {Content-Type: x}\n    steps: [{text: a}]\n", "s.yaml:2:15",
     "with 'content_type'"},
    {"rules:\n  - headers: {\"bad name\": x}\n    steps: [{text: a}]\n", "s.yaml:2:15",
     "not a valid header name"},
    {"rules:\n  - headers: [a]\n    steps: [{text: a}]\n", "s.yaml:2:14",
     "'headers' must be a map"},
    {"rules:\n  - run: none\n    finish: {a: 1}\n    steps: [{text: a}]\n", "s.yaml:3:13",
     "'finish' needs run: auto"},
    {"default:\n  match: x\n  steps: [{text: a}]\n", "s.yaml:2:3",
     "'match' has no meaning in 'default'"},
    {"default:\n  times: 1\n  steps: [{text: a}]\n", "s.yaml:2:3", "'times' has no meaning"},
    {"default: {}\n", "s.yaml:1:10", "'default' with status 200 needs 'steps'"},
    {"rules: [\n", "s.yaml:2:1", "invalid YAML"},
    {"rules:\n  - steps:\n      - {run_finished: false}\n", "s.yaml:3:24",
     "'run_finished: false' does nothing"},
    {"rules:\n  - steps:\n      - {run_started: true, id: x}\n", "s.yaml:3:29",
     "'id' does not apply to a run_started step"},
    {"non_json: accept\nrules: []\n", "s.yaml:1:11", "'non_json' is refuse or run"},
    {"rules:\n  - run: none\n    start: {a: 1}\n    steps: [{text: a}]\n", "s.yaml:3:12",
     "'start' needs run: auto"},
    {"rules:\n  - start: [1]\n    steps: [{text: a}]\n", "s.yaml:2:12",
     "'start' must be a map of extra RUN_STARTED fields, not a list"},
};

static void test_load_errors(void **state)
{
    (void)state;
    mock_assert_bad_scenarios(bad_cases, sizeof bad_cases / sizeof bad_cases[0], load_and_free);
}

/* ---- the model ------------------------------------------------------------ */

static void test_defaults_and_fields(void **state)
{
    (void)state;
    struct agui_scenario *s = load_ok("rules:\n"
                                      "  - match: /CHECK/i\n"
                                      "    steps:\n"
                                      "      - tool: validate\n"
                                      "        args: {cart_id: c1, n: 2}\n"
                                      "        result: {ok: true}\n"
                                      "      - tool: plain\n"
                                      "        result: done\n"
                                      "  - status: 503\n"
                                      "  - status: 200\n"
                                      "    body: {a: 1}\n"
                                      "  - headers: {X-A: 1}\n"
                                      "    content_type: text/plain\n"
                                      "    framing: cr\n"
                                      "    data_prefix: \"data:\"\n"
                                      "    run: none\n"
                                      "    steps: [{comment: hi}]\n");
    assert_int_equal(s->nrules, 4);
    assert_null(s->fallback);
    const struct agui_rule *r = &s->rules[0];
    assert_int_equal(r->status, 200);
    assert_string_equal(r->content_type, "text/event-stream");
    assert_string_equal(r->data_prefix, "data: ");
    assert_int_equal(r->framing, AGUI_FRAMING_LF);
    assert_true(r->run_auto);
    assert_false(r->connect);
    assert_non_null(r->match);
    assert_int_equal(r->nsteps, 2);
    assert_string_equal(r->steps[0].args, "{\"cart_id\":\"c1\",\"n\":2}");
    assert_string_equal(r->steps[0].result, "{\"ok\":true}");
    assert_string_equal(r->steps[1].args, "{}");
    assert_string_equal(r->steps[1].result, "done");
    assert_string_equal(s->rules[1].body, "{\"error\":\"scripted status 503\"}");
    assert_string_equal(s->rules[1].content_type, "application/json");
    assert_string_equal(s->rules[2].body, "{\"a\":1}");
    r = &s->rules[3];
    assert_int_equal(r->nheaders, 1);
    assert_string_equal(r->headers[0].name, "X-A");
    assert_string_equal(r->headers[0].value, "1");
    assert_string_equal(r->content_type, "text/plain");
    assert_int_equal(r->framing, AGUI_FRAMING_CR);
    assert_false(r->run_auto);
    assert_false(s->strict_input);
    assert_false(s->run_non_json);
    agui_scenario_free(s);
    /* `input: strict` checks the objects; `non_json: run` runs the rest */
    s = load_ok("input: strict\nnon_json: run\nrules: []\n");
    assert_true(s->strict_input);
    assert_true(s->run_non_json);
    agui_scenario_free(s);
    s = load_ok("non_json: refuse\nrules: []\n");
    assert_false(s->run_non_json);
    agui_scenario_free(s);
}

static void test_load_file_missing(void **state)
{
    (void)state;
    struct an_err err = AN_ERR_INIT;
    struct agui_scenario *s = NULL;
    assert_int_equal(agui_scenario_load(&s, "/nonexistent/x.yaml", &err), AN_EIO);
    assert_null(s);
    assert_string_equal(err.file, "/nonexistent/x.yaml");
}

/* ---- picking rules -------------------------------------------------------- */

static const struct agui_rule *pick(struct agui_scenario *s, const char *path, bool connect,
                                    const char *text)
{
    struct agui_request_view v = {path, connect, text, strlen(text)};
    return agui_scenario_pick(s, &v);
}

static void test_pick(void **state)
{
    (void)state;
    struct agui_scenario *s = load_ok("rules:\n"
                                      "  - match: flaky\n"
                                      "    times: 2\n"
                                      "    status: 500\n"
                                      "  - match: flaky\n"
                                      "    status: 502\n"
                                      "  - connect: true\n"
                                      "    status: 201\n"
                                      "    body: c\n"
                                      "  - path: /b\n"
                                      "    status: 202\n"
                                      "    body: b\n"
                                      "  - match: /^HELLO$/i\n"
                                      "    status: 203\n"
                                      "    body: h\n"
                                      "default:\n"
                                      "  status: 404\n");
    assert_int_equal(pick(s, "/a", false, "flaky")->status, 500);
    assert_int_equal(pick(s, "/a", false, "flaky")->status, 500);
    assert_int_equal(pick(s, "/a", false, "flaky")->status, 502); /* times used up */
    assert_int_equal(pick(s, "/a", true, "flaky")->status, 201);  /* connect turn */
    assert_int_equal(pick(s, "/b", false, "x")->status, 202);
    assert_int_equal(pick(s, "/a", false, "hello")->status, 203);
    assert_int_equal(pick(s, "/a", false, "hello!")->status, 404); /* default */
    agui_scenario_free(s);

    s = load_ok("rules: []\n");
    assert_null(pick(s, "/", false, "x")); /* built-in answer */
    agui_scenario_free(s);
}

/* ---- reading requests ----------------------------------------------------- */

static void test_request_read(void **state)
{
    (void)state;
    static const struct {
        const char *body;
        bool connect;
        const char *text;
        const char *thread;
    } cases[] = {
        {"{\"threadId\":\"t\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", false, "hi",
         "t"},
        {"{\"messages\":[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"assistant\"}]}", true,
         "a", "mock-thread"},
        {"{\"messages\":[]}", true, "", "mock-thread"},
        {"{}", true, "", "mock-thread"},
        {"{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\"},"
         "{\"type\":\"image\"},{\"type\":\"text\",\"text\":\"y\"}]}]}",
         false, "x\ny", "mock-thread"},
        {"{\"messages\":[{\"role\":\"user\",\"content\":\"old\"},{\"role\":\"tool\"},"
         "{\"role\":\"user\",\"content\":\"new\"}]}",
         false, "new", "mock-thread"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *b = json_loads(cases[i].body, 0, NULL);
        assert_non_null(b);
        struct agui_request rq;
        agui_request_read(&rq, b, "/p");
        assert_int_equal(rq.view.connect, cases[i].connect);
        assert_int_equal(rq.view.user_text_len, strlen(cases[i].text));
        assert_memory_equal(rq.view.user_text, cases[i].text, strlen(cases[i].text));
        assert_string_equal(rq.thread_id, cases[i].thread);
        assert_string_equal(rq.view.path, "/p");
        agui_request_release(&rq);
        json_decref(b);
    }
}

/* ---- rendering ------------------------------------------------------------ */

/* The stream for user_text, as mock_plan_text() writes it. */
static char *plan_text(const char *yaml, const char *user_text)
{
    struct agui_scenario *s = load_ok(yaml);
    const struct agui_rule *r = pick(s, "/", false, user_text);
    struct mock_plan p = MOCK_PLAN_INIT;
    struct agui_plan_input in = {"t1", "r1", user_text, strlen(user_text), 7};
    agui_plan_build(&p, r, &in);
    char *text = mock_plan_text(&p);
    mock_plan_release(&p);
    agui_scenario_free(s);
    return text;
}

#define RS "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"
#define RF "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"

static const struct {
    const char *yaml;
    const char *expected;
} render_cases[] = {
    /* text with automatic ids: msg_<answer>_<n> */
    {"default: {steps: [{text: hi}]}", RS
     "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"msg_7_1\",\"role\":\"assistant\"}\n\n"
     "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"msg_7_1\",\"delta\":\"hi\"}\n\n"
     "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"msg_7_1\"}\n\n" RF},
    /* chunks never split a UTF-8 sequence; chunk_delay_ms between them */
    {"default: {run: none, steps: [{text: \"h\u00e9\u00e9\", id: m, chunks: 2, chunk_delay_ms: 5, "
     "role: developer}]}",
     "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"developer\"}\n\n"
     "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"h\"}\n\n"
     "<sleep 5>"
     "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"\u00e9\u00e9\"}\n\n"
     "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\n"},
    /* more chunks than characters: one per character */
    {"default: {run: none, steps: [{text: ab, id: m, chunks: 5}]}",
     "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n\n"
     "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"a\"}\n\n"
     "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"b\"}\n\n"
     "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\n"},
    /* empty text: one empty CONTENT */
    {"default: {run: none, steps: [{text: \"\", id: m}]}",
     "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n\n"
     "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"\"}\n\n"
     "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\n"},
    /* tool: args_text in chunks, parent, string result, automatic ids, timestamp */
    {"default: {run: none, steps: [{tool: t, args_text: '{\"broken', chunks: 2, parent: p1, "
     "result: fine, timestamp: 5}]}",
     "data: {\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"call_7_1\",\"toolCallName\":\"t\","
     "\"parentMessageId\":\"p1\",\"timestamp\":5}\n\n"
     "data: {\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"call_7_1\",\"delta\":\"{\\\"br\","
     "\"timestamp\":5}\n\n"
     "data: {\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"call_7_1\",\"delta\":\"oken\","
     "\"timestamp\":5}\n\n"
     "data: {\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"call_7_1\",\"timestamp\":5}\n\n"
     "data: {\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"msg_7_2\",\"toolCallId\":\"call_7_1\","
     "\"content\":\"fine\",\"role\":\"tool\",\"timestamp\":5}\n\n"},
    /* tool without result: no TOOL_CALL_RESULT; args default {} */
    {"default: {run: none, steps: [{tool: t, id: c}]}",
     "data: {\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"t\"}\n\n"
     "data: {\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c\",\"delta\":\"{}\"}\n\n"
     "data: {\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c\"}\n\n"},
    /* framing and prefix apply to events, comments; raw is verbatim */
    {"default: {framing: crlf, data_prefix: \"data:\", run: none, steps: ["
     "{event: {type: X, v: [1, 2.5, null]}}, {comment: ka}, {comment: \"\"}, {raw: \"r\\n\"}, "
     "{delay_ms: 10}, {raw: \"\"}]}",
     "data:{\"type\":\"X\",\"v\":[1,2.5,null]}\r\n\r\n: ka\r\n\r\n:\r\n\r\nr\n<sleep 10>"},
    {"default: {framing: cr, run: none, steps: [{comment: k}]}", ": k\r\r"},
    /* run_error ends the stream: no RUN_FINISHED */
    {"default: {steps: [{run_error: boom, code: E1}]}",
     RS "data: {\"type\":\"RUN_ERROR\",\"message\":\"boom\",\"code\":\"E1\"}\n\n"},
    {"default: {steps: [{run_error: boom}]}",
     RS "data: {\"type\":\"RUN_ERROR\",\"message\":\"boom\"}\n\n"},
    /* cut and stall end it too */
    {"default: {steps: [{cut: true}]}", RS "<cut>"},
    {"default: {steps: [{stall: true}]}", RS "<stall>"},
    /* an explicitly empty run */
    {"default: {steps: []}", RS RF},
    /* finish adds to (and may override) RUN_FINISHED */
    {"default: {steps: [], finish: {outcome: {type: interrupt}, runId: wrong}}",
     RS "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"wrong\","
        "\"outcome\":{\"type\":\"interrupt\"}}\n\n"},
    /* run_started / run_finished: the run's events where the steps put them;
     * after a run_finished step, run: auto sends no second RUN_FINISHED */
    {"default: {run: none, steps: [{event: {type: X}}, {run_started: true}, {run_finished: true}]}",
     "data: {\"type\":\"X\"}\n\n" RS RF},
    {"default: {finish: {runId: w}, steps: [{run_finished: true}, {event: {type: X}}]}",
     RS "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"w\"}\n\n"
        "data: {\"type\":\"X\"}\n\n"},
    /* start adds to RUN_STARTED */
    {"default: {steps: [], start: {protocolVersion: \"1.1\"}}",
     "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\","
     "\"protocolVersion\":\"1.1\"}\n\n" RF},
    /* no default: the built-in answer names the text */
    {"rules: []", RS
     "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"msg_7_1\",\"role\":\"assistant\"}\n\n"
     "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"msg_7_1\","
     "\"delta\":\"no rule matched: say \\\"hi\\\"\"}\n\n"
     "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"msg_7_1\"}\n\n" RF},
};

static void test_render(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof render_cases / sizeof render_cases[0]; i++)
        mock_assert_rendered(i, render_cases[i].yaml, render_cases[i].expected,
                             plan_text(render_cases[i].yaml, "say \"hi\""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_errors),       cmocka_unit_test(test_defaults_and_fields),
        cmocka_unit_test(test_load_file_missing), cmocka_unit_test(test_pick),
        cmocka_unit_test(test_request_read),      cmocka_unit_test(test_render),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
