/*
 * Unit tests of the OpenAI mock: the scenario loader (every error with its
 * location), rule picking, request reading and the exact bytes of rendered
 * answers. The mock's sources are not part of libananke, so they are
 * compiled into this test directly.
 */
#include "../../src/mock/mock_message.c"
#include "../../src/mock/mock_plan.c"
#include "../../src/mock/openai_plan.c"
#include "../../src/mock/mock_mcp.c"
#include "../../src/mock/openai_request.c"
#include "../../src/mock/openai_scenario.c"
#include "../../src/mock/scenario_rules.c"
#include "../../src/mock/scenario_util.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support/mock_checks.h"

static struct oai_scenario *load_ok(const char *yaml)
{
    struct an_err err = AN_ERR_INIT;
    struct oai_scenario *s = NULL;
    mock_assert_loaded(oai_scenario_load_mem(&s, "s.yaml", yaml, strlen(yaml), &err), &err);
    return s;
}

/* For mock_assert_bad_scenarios. */
static int load_and_free(const char *yaml, struct an_err *err)
{
    struct oai_scenario *s = NULL;
    int rc = oai_scenario_load_mem(&s, "s.yaml", yaml, strlen(yaml), err);
    if (rc)
        assert_null(s);
    oai_scenario_free(s);
    return rc;
}

/* ---- load errors: location and message ------------------------------------ */

static const struct mock_bad_scenario bad_cases[] = {
    {"- a\n", "s.yaml:1:1", "a scenario must be a map"},
    {"rulez: []\n", "s.yaml:1:1", "unknown key 'rulez' in scenario (did you mean 'rules'?)"},
    {"rules: {}\n", "s.yaml:1:8", "'rules' must be a list, not a map"},
    {"rules:\n  - mach: x\n    reply: {text: a}\n", "s.yaml:2:5",
     "unknown key 'mach' in rule (did you mean 'match'?)"},
    {"rules:\n  - after_tools: t\n", "s.yaml:2:5",
     "unknown key 'after_tools' in rule (did you mean 'after_tool'?)"},
    {"rules:\n  - zzzzzz: x\n", "s.yaml:2:5", "unknown key 'zzzzzz' in rule"},
    {"rules:\n  - match: \"(\"\n    reply: {text: a}\n", "s.yaml:2:12", "invalid regex '('"},
    {"rules:\n  - match: x\n", "s.yaml:2:5", "a rule needs 'reply' (or a plain 'body' or 'raw')"},
    {"default: {}\n", "s.yaml:1:10", "'default' needs 'reply'"},
    {"rules:\n  - model: \"\"\n    reply: {text: a}\n", "s.yaml:2:12",
     "'model' must be a non-empty string"},
    {"rules:\n  - after_tool: [a]\n    reply: {text: a}\n", "s.yaml:2:17",
     "'after_tool' must be a string, not a list"},
    {"rules:\n  - times: 0\n    reply: {text: a}\n", "s.yaml:2:12", "'times' must be between 1"},
    {"rules:\n  - status: 99\n", "s.yaml:2:13", "'status' must be between 200 and 599"},
    {"rules:\n  - status: 429\n    reply: {text: a}\n", "s.yaml:3:5",
     "a rule with status 429 sends an error body; 'reply' does not apply"},
    {"rules:\n  - status: 500\n    cut: true\n", "s.yaml:3:5", "'cut' does not apply"},
    {"rules:\n  - status: 500\n    error: {message: m}\n    body: x\n", "s.yaml:4:11",
     "give 'error' or 'body', not both"},
    {"rules:\n  - status: 500\n    error: {mesage: m}\n", "s.yaml:3:13",
     "unknown key 'mesage' in 'error' (did you mean 'message'?)"},
    {"rules:\n  - status: 500\n    error: oops\n", "s.yaml:3:12", "'error' must be a map"},
    {"rules:\n  - error: {message: m}\n    reply: {text: a}\n", "s.yaml:2:5",
     "'error' needs a non-2xx status (this rule answers 200)"},
    {"rules:\n  - headers: {Content-Type: x}\n    reply: {text: a}\n", "s.yaml:2:15",
     "header 'Content-Type' cannot be scripted"},
    {"rules:\n  - headers: {\"a b\": x}\n    reply: {text: a}\n", "s.yaml:2:15",
     "not a valid header name"},
    {"rules:\n  - reply: [a]\n", "s.yaml:2:12", "'reply' must be a map, not a list"},
    {"rules:\n  - reply: {txt: a}\n", "s.yaml:2:13",
     "unknown key 'txt' in 'reply' (did you mean 'text'?)"},
    {"rules:\n  - reply: {text: [a]}\n", "s.yaml:2:19", "'text' must be a string, not a list"},
    {"rules:\n  - reply: {tool_calls: {name: a}}\n", "s.yaml:2:25", "'tool_calls' must be a list"},
    {"rules:\n  - reply:\n      tool_calls:\n        - {args: {}}\n", "s.yaml:4:11",
     "a tool call needs 'name'"},
    {"rules:\n  - reply:\n      tool_calls:\n        - {name: f, arg: {}}\n", "s.yaml:4:21",
     "unknown key 'arg' in a tool call (did you mean 'args'?)"},
    {"rules:\n  - reply:\n      tool_calls:\n        - {name: f, args: {}, args_text: x}\n",
     "s.yaml:4:31", "give 'args' or 'args_text', not both"},
    {"rules:\n  - reply:\n      tool_calls: [a]\n", "s.yaml:3:20", "a tool call must be a map"},
    {"rules:\n  - reply: {usage: {prompt_tokens: -1}}\n", "s.yaml:2:36",
     "'prompt_tokens' must be between 0"},
    {"rules:\n  - reply: {usage: {prompt: 1}}\n", "s.yaml:2:21", "unknown key 'prompt' in 'usage'"},
    {"rules:\n  - reply: {finish_reason: \"\"}\n", "s.yaml:2:28",
     "'finish_reason' must be a non-empty string"},
    {"rules:\n  - reply: {text: a}\n    chunks: 0\n", "s.yaml:3:13",
     "'chunks' must be between 1 and"},
    {"rules:\n  - body: x\n    chunks: 2\n", "s.yaml:3:5",
     "'chunks' splits the generated stream; this rule has no 'reply'"},
    {"rules:\n  - reply: {text: a}\n    delay_ms: soon\n", "s.yaml:3:15",
     "'delay_ms' must be an integer"},
    {"rules:\n  - reply: {text: a}\n    cut: false\n", "s.yaml:3:10", "'cut: false' does nothing"},
    {"rules:\n  - reply: {text: a}\n    stall: sometimes\n", "s.yaml:3:12",
     "'stall' must be true or a number of chunks, not a string"},
    {"rules:\n  - reply: {text: a}\n    cut: true\n    stall: true\n", "s.yaml:4:5",
     "give 'cut' or 'stall', not both"},
    {"rules:\n  - raw: [x]\n", "s.yaml:2:10", "'raw' must be a string"},
    {"default:\n  match: x\n  reply: {text: a}\n", "s.yaml:2:3",
     "'match' has no meaning in 'default'"},
    {"default:\n  after_tool: t\n  reply: {text: a}\n", "s.yaml:2:3",
     "'after_tool' has no meaning in 'default'"},
    {"models: gpt\n", "s.yaml:1:9", "'models' must be a list of names, not a string"},
    {"models: [a, \"\"]\n", "s.yaml:1:13", "'models' must be a non-empty string"},
    {"models: []\n", "s.yaml:1:9", "'models' must name at least one model"},
    {"rules: [\n", "s.yaml:2:1", "invalid YAML"},
};

static void test_load_errors(void **state)
{
    (void)state;
    mock_assert_bad_scenarios(bad_cases, sizeof bad_cases / sizeof bad_cases[0], load_and_free);
}

/* ---- the model ------------------------------------------------------------ */

static void test_good_file(void **state)
{
    (void)state;
    struct oai_scenario *s =
        load_ok("rules:\n"
                "  - match: /WEATHER/i\n"
                "    model: gpt-x\n"
                "    times: 2\n"
                "    reply:\n"
                "      text: Let me look.\n"
                "      tool_calls:\n"
                "        - name: get_weather\n"
                "          args: {city: Paris, days: 2}\n"
                "          id: call_1\n"
                "        - name: broken\n"
                "          args_text: '{\"br'\n"
                "        - name: noargs\n"
                "      finish_reason: length\n"
                "      usage: {prompt_tokens: 10, completion_tokens: 5}\n"
                "    chunks: 3\n"
                "    chunk_delay_ms: 10\n"
                "    delay_ms: 20\n"
                "    cut: 2\n"
                "  - after_tool: get_weather\n"
                "    model: gpt-y\n"
                "    reply: {text: sunny}\n"
                "    stall: true\n"
                "  - status: 429\n"
                "    headers: {Retry-After: \"1\"}\n"
                "  - status: 400\n"
                "    error: {message: bad, type: t, param: messages, code: null}\n"
                "  - status: 502\n"
                "    body: {oops: 1}\n"
                "  - raw: \"data: {broken\\n\\n\"\n"
                "default: {reply: {text: hi}}\n");
    assert_int_equal(s->nrules, 6);
    const struct oai_rule *r = &s->rules[0];
    assert_non_null(r->match);
    assert_string_equal(r->model, "gpt-x");
    assert_null(r->after_tool);
    assert_int_equal(r->times, 2);
    assert_int_equal(r->status, 200);
    assert_true(r->has_reply);
    assert_string_equal(r->reply.text, "Let me look.");
    assert_int_equal(r->reply.ncalls, 3);
    assert_string_equal(r->reply.calls[0].name, "get_weather");
    assert_string_equal(r->reply.calls[0].args, "{\"city\":\"Paris\",\"days\":2}");
    assert_string_equal(r->reply.calls[0].id, "call_1");
    assert_string_equal(r->reply.calls[1].args, "{\"br");
    assert_null(r->reply.calls[1].id);
    assert_string_equal(r->reply.calls[2].args, "{}");
    assert_string_equal(r->reply.finish_reason, "length");
    assert_int_equal(r->reply.prompt_tokens, 10);
    assert_int_equal(r->reply.completion_tokens, 5);
    assert_int_equal(r->reply.total_tokens, -1);
    assert_int_equal(r->chunks, 3);
    assert_int_equal(r->chunk_delay_ms, 10);
    assert_int_equal(r->delay_ms, 20);
    assert_int_equal(r->cut, 2);
    assert_int_equal(r->stall, 0);
    r = &s->rules[1];
    assert_string_equal(r->after_tool, "get_weather");
    assert_int_equal(r->stall, 1);
    assert_int_equal(r->chunks, 1);
    assert_int_equal(r->reply.prompt_tokens, -1);
    r = &s->rules[2];
    assert_int_equal(r->status, 429);
    assert_int_equal(r->nheaders, 1);
    assert_string_equal(r->headers[0].name, "Retry-After");
    assert_string_equal(r->headers[0].value, "1");
    assert_null(r->body);
    assert_string_equal(r->error.type, "requests");
    assert_string_equal(r->error.code, "rate_limit_exceeded");
    r = &s->rules[3];
    assert_string_equal(r->error.message, "bad");
    assert_string_equal(r->error.type, "t");
    assert_string_equal(r->error.param, "messages");
    assert_null(r->error.code);
    assert_string_equal(s->rules[4].body, "{\"oops\":1}");
    assert_string_equal(s->rules[5].raw, "data: {broken\n\n");
    assert_false(s->rules[5].has_reply);
    assert_non_null(s->fallback);
    assert_string_equal(s->fallback->reply.text, "hi");
    /* /v1/models: the rules' models, once each */
    assert_int_equal(s->nmodels, 2);
    assert_string_equal(s->models[0], "gpt-x");
    assert_string_equal(s->models[1], "gpt-y");
    oai_scenario_free(s);

    s = load_ok("models: [m1, m2, m1]\nrules:\n  - model: other\n    reply: {}\n");
    assert_int_equal(s->nmodels, 2);
    assert_string_equal(s->models[1], "m2");
    oai_scenario_free(s);
    s = load_ok("rules: []\n");
    assert_int_equal(s->nmodels, 1);
    assert_string_equal(s->models[0], "mock-model");
    assert_null(s->fallback);
    oai_scenario_free(s);
}

static void test_load_file_missing(void **state)
{
    (void)state;
    struct an_err err = AN_ERR_INIT;
    struct oai_scenario *s = NULL;
    assert_int_equal(oai_scenario_load(&s, "/nonexistent/x.yaml", &err), AN_EIO);
    assert_null(s);
    assert_string_equal(err.file, "/nonexistent/x.yaml");
}

/* ---- reading requests and picking rules ------------------------------------ */

static void test_request_read(void **state)
{
    (void)state;
    static const struct {
        const char *body;
        enum oai_turn turn;
        const char *tool; /* NULL = none */
        const char *text;
        size_t words;
    } cases[] = {
        {"{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},"
         "{\"role\":\"user\",\"content\":\"hi there\"}]}",
         OAI_TURN_USER, NULL, "hi there", 4},
        {"{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\"},"
         "{\"type\":\"image_url\"},{\"type\":\"text\",\"text\":\"y\"}]}]}",
         OAI_TURN_USER, NULL, "x\ny", 2},
        {"{\"messages\":[{\"role\":\"user\",\"content\":\"weather\"},"
         "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":"
         "\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{}\"}},"
         "{\"id\":\"c2\",\"function\":{\"name\":\"other\"}}]},"
         "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"sunny\"}]}",
         OAI_TURN_TOOL, "get_weather", "weather", 2},
        {"{\"messages\":[{\"role\":\"user\",\"content\":\"w\"},"
         "{\"role\":\"tool\",\"tool_call_id\":\"nope\",\"content\":\"x\"}]}",
         OAI_TURN_TOOL, NULL, "w", 2},
        {"{\"messages\":[{\"role\":\"function\",\"name\":\"f\",\"content\":\"r\"}]}", OAI_TURN_TOOL,
         "f", "", 1},
        {"{\"messages\":[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"assistant\","
         "\"content\":\"b\"}]}",
         OAI_TURN_OTHER, NULL, "a", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *b = json_loads(cases[i].body, 0, NULL);
        assert_non_null(b);
        struct oai_request rq;
        struct oai_request_error why;
        assert_int_equal(oai_request_read(&rq, b, &why), 0);
        assert_int_equal(rq.view.turn, cases[i].turn);
        if (cases[i].tool)
            assert_string_equal(rq.view.tool_name, cases[i].tool);
        else
            assert_null(rq.view.tool_name);
        assert_int_equal(rq.view.user_text_len, strlen(cases[i].text));
        assert_memory_equal(rq.view.user_text, cases[i].text, strlen(cases[i].text));
        assert_int_equal(rq.prompt_words, cases[i].words);
        oai_request_release(&rq);
        json_decref(b);
    }

    static const struct {
        const char *body, *code;
    } bad[] = {
        {"{\"model\":\"m\"}", "missing_required_parameter"},
        {"{\"messages\":{}}", "invalid_type"},
        {"{\"messages\":[]}", "empty_array"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *b = json_loads(bad[i].body, 0, NULL);
        struct oai_request rq;
        struct oai_request_error why;
        assert_int_equal(oai_request_read(&rq, b, &why), -1);
        assert_string_equal(why.code, bad[i].code);
        assert_string_equal(why.param, "messages");
        oai_request_release(&rq);
        json_decref(b);
    }

    json_t *b = json_loads("{\"model\":\"m\",\"stream\":true,\"stream_options\":"
                           "{\"include_usage\":true},\"messages\":[{\"role\":\"user\"}]}",
                           0, NULL);
    struct oai_request rq;
    struct oai_request_error why;
    assert_int_equal(oai_request_read(&rq, b, &why), 0);
    assert_true(rq.stream);
    assert_true(rq.include_usage);
    assert_string_equal(rq.view.model, "m");
    oai_request_release(&rq);
    json_decref(b);
}

static const struct oai_rule *pick(struct oai_scenario *s, const char *model, enum oai_turn turn,
                                   const char *tool, const char *text)
{
    struct oai_request_view v = {model, turn, tool, text, strlen(text)};
    return oai_scenario_pick(s, &v);
}

static void test_pick(void **state)
{
    (void)state;
    struct oai_scenario *s = load_ok("rules:\n"
                                     "  - match: flaky\n"
                                     "    times: 1\n"
                                     "    status: 500\n"
                                     "  - match: flaky\n"
                                     "    status: 502\n"
                                     "  - after_tool: get_weather\n"
                                     "    status: 201\n"
                                     "    body: t\n"
                                     "  - model: gpt-x\n"
                                     "    status: 202\n"
                                     "    body: m\n"
                                     "  - match: /^HELLO$/i\n"
                                     "    status: 203\n"
                                     "    body: h\n"
                                     "default:\n"
                                     "  status: 404\n");
    assert_int_equal(pick(s, "m", OAI_TURN_USER, NULL, "flaky")->status, 500);
    assert_int_equal(pick(s, "m", OAI_TURN_USER, NULL, "flaky")->status, 502); /* times used */
    /* after_tool takes only a result of that tool, and only it takes one */
    assert_int_equal(pick(s, "m", OAI_TURN_TOOL, "get_weather", "flaky")->status, 201);
    assert_int_equal(pick(s, "m", OAI_TURN_TOOL, "other", "x")->status, 404);
    assert_int_equal(pick(s, "m", OAI_TURN_TOOL, NULL, "x")->status, 404);
    assert_int_equal(pick(s, "m", OAI_TURN_OTHER, NULL, "hello")->status, 404);
    assert_int_equal(pick(s, "gpt-x", OAI_TURN_USER, NULL, "x")->status, 202);
    assert_int_equal(pick(s, NULL, OAI_TURN_USER, NULL, "hello")->status, 203);
    assert_int_equal(pick(s, "m", OAI_TURN_USER, NULL, "hello!")->status, 404); /* default */
    oai_scenario_free(s);

    s = load_ok("rules: []\n");
    assert_null(pick(s, "m", OAI_TURN_USER, NULL, "x")); /* built-in answer */
    oai_scenario_free(s);
}

/* ---- rendering ------------------------------------------------------------ */

#define ANSWER(usage)                                                                              \
    {                                                                                              \
        .model = "gpt-x", .include_usage = (usage), .seq = 7, .created = 1700000000,               \
        .prompt_words = 3, .user_text = "say \"hi\"", .user_text_len = 8                           \
    }

static char *completion_of(const char *yaml)
{
    struct oai_scenario *s = load_ok(yaml);
    struct oai_answer in = ANSWER(false);
    const struct oai_rule *r = pick(s, "gpt-x", OAI_TURN_USER, NULL, in.user_text);
    char *got = oai_render_completion(r, &in, NULL);
    oai_scenario_free(s);
    return got;
}

#define HEAD                                                                                       \
    "{\"id\":\"chatcmpl-mock-7\",\"object\":\"chat.completion\",\"created\":1700000000,"           \
    "\"model\":\"gpt-x\",\"choices\":[{\"index\":0,\"message\":"

static const struct {
    const char *yaml, *expected;
} completion_cases[] = {
    {"default: {reply: {text: It is sunny.}}",
     HEAD "{\"role\":\"assistant\",\"content\":\"It is sunny.\"},\"logprobs\":null,"
          "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":3,"
          "\"total_tokens\":6}}"},
    /* tool calls: content null, automatic ids call_<answer>_<n>, finish tool_calls */
    {"default: {reply: {tool_calls: [{name: f, args: {a: 1}}, {name: g, id: c, args_text: x}]}}",
     HEAD
     "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_7_1\","
     "\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":1}\"}},"
     "{\"id\":\"c\",\"type\":\"function\",\"function\":{\"name\":\"g\",\"arguments\":\"x\"}}]},"
     "\"logprobs\":null,\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":3,"
     "\"completion_tokens\":2,\"total_tokens\":5}}"},
    /* scripted finish_reason and usage; an empty reply has "" content */
    {"default: {reply: {finish_reason: length, usage: {prompt_tokens: 10, total_tokens: 1}}}",
     HEAD "{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
          "\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":10,"
          "\"completion_tokens\":0,\"total_tokens\":1}}"},
    /* no rule: the built-in answer names the text */
    {"rules: []",
     HEAD "{\"role\":\"assistant\",\"content\":\"no rule matched: say \\\"hi\\\"\"},"
          "\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,"
          "\"completion_tokens\":5,\"total_tokens\":8}}"},
};

static void test_render_completion(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof completion_cases / sizeof completion_cases[0]; i++)
        mock_assert_rendered(i, completion_cases[i].yaml, completion_cases[i].expected,
                             completion_of(completion_cases[i].yaml));
}

/* The stream, as mock_plan_text() writes it. */
static char *stream_of(const char *yaml, bool include_usage)
{
    struct oai_scenario *s = load_ok(yaml);
    struct oai_answer in = ANSWER(include_usage);
    const struct oai_rule *r = pick(s, "gpt-x", OAI_TURN_USER, NULL, in.user_text);
    struct mock_plan p = MOCK_PLAN_INIT;
    oai_render_stream(&p, r, &in);
    char *text = mock_plan_text(&p);
    mock_plan_release(&p);
    oai_scenario_free(s);
    return text;
}

#define CH                                                                                         \
    "data: {\"id\":\"chatcmpl-mock-7\",\"object\":\"chat.completion.chunk\","                      \
    "\"created\":1700000000,\"model\":\"gpt-x\",\"choices\":[{\"index\":0,\"delta\":"
#define NOFIN ",\"logprobs\":null,\"finish_reason\":null}]}\n\n"
#define FIN(r) ",\"logprobs\":null,\"finish_reason\":\"" r "\"}]}\n\n"
#define DONE "data: [DONE]\n\n"

static const struct {
    const char *yaml;
    bool include_usage;
    const char *expected;
} stream_cases[] = {
    /* role first, content in chunks (never inside a UTF-8 character), delays
     * between chunks, finish, [DONE] */
    {"default: {reply: {text: \"h\u00e9\u00e9!\"}, chunks: 2, chunk_delay_ms: 5}", false,
     CH "{\"role\":\"assistant\",\"content\":\"\"}" NOFIN "<sleep 5>" CH
        "{\"content\":\"h\u00e9\"}" NOFIN "<sleep 5>" CH "{\"content\":\"\u00e9!\"}" NOFIN
        "<sleep 5>" CH "{}" FIN("stop") DONE},
    /* tool calls: the first delta names the call, later ones carry only
     * index and argument pieces */
    {"default: {reply: {tool_calls: [{name: f, args_text: abcd}, {name: g, id: c2, args_text: "
     "\"\"}]}, chunks: 2}",
     false,
     CH "{\"role\":\"assistant\",\"content\":null}" NOFIN CH
        "{\"tool_calls\":[{\"index\":0,\"id\":\"call_7_1\",\"type\":\"function\",\"function\":"
        "{\"name\":\"f\",\"arguments\":\"\"}}]}" NOFIN CH
        "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"ab\"}}]}" NOFIN CH
        "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"cd\"}}]}" NOFIN CH
        "{\"tool_calls\":[{\"index\":1,\"id\":\"c2\",\"type\":\"function\",\"function\":"
        "{\"name\":\"g\",\"arguments\":\"\"}}]}" NOFIN CH "{}" FIN("tool_calls") DONE},
    /* include_usage: usage null on every chunk, then a usage chunk */
    {"default: {reply: {text: a b, usage: {completion_tokens: 9}}}", true,
     CH "{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}],"
        "\"usage\":null}\n\n" CH
        "{\"content\":\"a b\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n" CH
        "{},\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":null}\n\n"
        "data: {\"id\":\"chatcmpl-mock-7\",\"object\":\"chat.completion.chunk\","
        "\"created\":1700000000,\"model\":\"gpt-x\",\"choices\":[],\"usage\":"
        "{\"prompt_tokens\":3,\"completion_tokens\":9,\"total_tokens\":12}}\n\n" DONE},
    /* cut after the first chunk, stall after two, a break past the end */
    {"default: {reply: {text: abc}, chunks: 3, cut: true}", false,
     CH "{\"role\":\"assistant\",\"content\":\"\"}" NOFIN "<cut>"},
    {"default: {reply: {text: abc}, chunks: 3, stall: 2}", false,
     CH "{\"role\":\"assistant\",\"content\":\"\"}" NOFIN CH "{\"content\":\"a\"}" NOFIN "<stall>"},
    {"default: {reply: {text: a}, cut: 100}", false,
     CH "{\"role\":\"assistant\",\"content\":\"\"}" NOFIN CH "{\"content\":\"a\"}" NOFIN CH
        "{}" FIN("stop") "<cut>"},
    /* raw replaces the chunks, verbatim; a cut follows it */
    {"default: {reply: {text: a}, raw: \"data: {broken\\n\\n\", cut: true}", false,
     "data: {broken\n\n<cut>"},
    {"default: {raw: \"\"}", false, ""},
    /* no rule: the built-in answer */
    {"rules: []", false,
     CH "{\"role\":\"assistant\",\"content\":\"\"}" NOFIN CH
        "{\"content\":\"no rule matched: say \\\"hi\\\"\"}" NOFIN CH "{}" FIN("stop") DONE},
};

static void test_render_stream(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof stream_cases / sizeof stream_cases[0]; i++)
        mock_assert_rendered(i, stream_cases[i].yaml, stream_cases[i].expected,
                             stream_of(stream_cases[i].yaml, stream_cases[i].include_usage));
}

static void test_render_other(void **state)
{
    (void)state;
    struct oai_scenario *s = load_ok("models: [a, b]\n");
    size_t len = 0;
    char *got = oai_render_models(s, &len);
    assert_string_equal(got, "{\"object\":\"list\",\"data\":["
                             "{\"id\":\"a\",\"object\":\"model\",\"created\":0,\"owned_by\":"
                             "\"ananke-mock\"},"
                             "{\"id\":\"b\",\"object\":\"model\",\"created\":0,\"owned_by\":"
                             "\"ananke-mock\"}]}");
    assert_int_equal(len, strlen(got));
    free(got);
    oai_scenario_free(s);
    got = oai_render_error("m", "t", NULL, "c", NULL);
    assert_string_equal(got, "{\"error\":{\"message\":\"m\",\"type\":\"t\",\"param\":null,"
                             "\"code\":\"c\"}}");
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_good_file),
        cmocka_unit_test(test_load_file_missing),
        cmocka_unit_test(test_request_read),
        cmocka_unit_test(test_pick),
        cmocka_unit_test(test_render_completion),
        cmocka_unit_test(test_render_stream),
        cmocka_unit_test(test_render_other),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
